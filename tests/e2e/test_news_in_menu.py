"""A move pressed in the mover's own private menu (**My choices**, ephemeral: theirs alone)
carries their private news in that menu's edit after the move, as a typed move's answer does
(tests/e2e/test_news_in_answer.py): their summary DM then need not be written for it at once.
If the menu's edit cannot carry it (Discord refused the press's answer and the edit of the
menu), the DM is written at once: nobody is left untold.

Counts, not timers: the settle window is longer than any burst here, and held DM edits are
written by the call a clean stop makes (`flush_all_summaries`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from cogs.utils.table import action_hash, delivery_for
from cogs.utils.table.summaries import ANSWER_NEWS_HEAD
from demo import AutoTable
from rules.registry import GAMES
from tests.e2e.conftest import Table
from tests.e2e.test_news_in_answer import _news_of
from tests.e2e.test_requests import _auto, _generous, _requests
from tests.e2e.test_summary_settle import LONG, _all_current, _dm, _expected

ALLIANCE = ("fourth_wall", "alliance", 1)


async def _menu_move(table: Table, auto: AutoTable, fault: Callable[[], Any] | None = None,
                     ) -> tuple[str, str, int, bool] | None:
    """One move the AI chooses, pressed by its player in a private menu they open with **My
    choices** (None: the game is over, or the choice is not a button there): (the menu's words
    after the move, the mover's seat, the mover's user id, whether the move brought its mover
    private news — read from the engine, the same move on a copy of the state). `fault`: made
    for this press only when the move brings its mover news."""
    bot = table.bot
    assert bot is not None
    record = await bot.storage.get_game(auto.game_id)
    assert record is not None
    if record.status != "active":
        return None
    game = GAMES[record.game]
    state = await bot.tables.state(auto.game_id)
    users = await bot.tables.users_of(auto.game_id)
    people = sorted(s for s in game.to_act(state) if users.get(s))
    if not people:
        return None
    seat = people[0]
    action = game.ai_action(state, seat)
    news = any(not e.public and seat in e.audience
               for e in game.apply(state, seat, action).events)
    user = next(u for u in auto.users if int(u.id) == users[seat])
    opened = await table.emu.click(user, auto.board(), label="My choices")
    await opened.wait_done(timeout=15)
    menu = opened.messages[-1]
    target = auto._target(menu, seat, action_hash(action), None)
    if target is None or target[1]:
        return None  # a menu of many (a select): not this test's concern
    faulty = news and fault is not None
    if faulty and fault is not None:
        fault()
    res = await table.emu.click(user, menu, target[0])
    assert await auto._moved_on(state.step), res.text
    # The press's handler goes on after the board: it reports whether the menu carried
    # the news (`answer_sent`) once the move is delivered.
    if faulty:
        for _ in range(200):
            if delivery_for(bot).dm_counts["news the answer could not carry"] or res.done:
                break
            await asyncio.sleep(0.05)
    else:
        await res.wait_done(timeout=15)
        for _ in range(200):  # the report follows the menu's edit, the press's answer
            if not delivery_for(bot)._promised.get((auto.game_id, seat)):
                break
            await asyncio.sleep(0.05)
    table.emu.clear_faults()
    await table.emu.settle()
    return table.emu.message(menu.id).content, seat, int(users[seat] or 0), news


async def test_a_menu_press_carries_the_movers_news_and_the_dm_is_current_later(
        table: Table) -> None:
    await _generous(table, summary_settle_seconds=LONG, at_table_seconds=300.0)
    # Fourth Wall Alliance, one investigator: they draw Marbles most turns, and only they see
    # which; after some of those moves the turn passes (no choices on their DM).
    auto = await _auto(table, *ALLIANCE)
    bot = table.bot
    assert bot is not None
    delivery = delivery_for(bot)
    for _ in range(60):
        before = delivery.dm_counts["news in the answer"]
        mark = table.emu.mark()
        made = await _menu_move(table, auto)
        if made is None:
            continue
        text, seat, user_id, news = made
        # Its news lines (the summary's own bullets follow them).
        lines = [line for line in _news_of(text) if " draws " in line]
        if not news:
            # No news: the menu says none (a line about a move of another seat may come
            # with the next refresh, never another seat's private line).
            assert ANSWER_NEWS_HEAD not in text, text
            continue
        # The menu, the mover's alone, carries their news above their choices now, and what
        # they hold now (their private summary's own words).
        assert lines, text
        state = await bot.tables.state(auto.game_id)
        summary = GAMES[ALLIANCE[0]].private_summary(state, seat)
        assert not summary or summary in text
        dm = _dm(table, auto, user_id)
        assert dm is not None
        if delivery.dm_counts["news in the answer"] == before:
            # Their choices changed on their DM: written at once anyway, with their news (as
            # much of it as the DM has room for beside the choices).
            assert dm.written > mark
            continue
        # Otherwise the DM was not written for it: held, to follow the mover's next decision.
        assert lines[-1] not in dm.content
        assert seat in delivery._settling[auto.game_id].due
        assert not delivery.dm_counts["news the answer could not carry"]
        await delivery.flush_all_summaries()
        await table.emu.settle()
        assert _dm(table, auto, user_id).written > mark
        assert not await _all_current(table, auto)
        return
    raise AssertionError("no menu press brought its mover news their DM could wait for")


async def test_a_menu_that_cannot_carry_the_news_falls_back_to_the_dm_at_once(
        table: Table) -> None:
    await _generous(table, summary_settle_seconds=LONG, at_table_seconds=300.0)
    auto = await _auto(table, *ALLIANCE)
    bot = table.bot
    assert bot is not None
    delivery = delivery_for(bot)

    def refuse() -> None:
        # The press's own answer (which would have edited the menu) and the edit of the menu
        # through its token both refused.
        table.emu.refuse_callbacks()
        table.emu.fail_next("PATCH", r"^/webhooks/\d+/[^/]+/messages/", status=401,
                            code=50027, message="Invalid Webhook Token")

    for _ in range(60):
        mark = table.emu.mark()
        made = await _menu_move(table, auto, refuse)
        if made is None or not made[3]:
            continue
        text, seat, user_id, _ = made
        assert ANSWER_NEWS_HEAD not in text  # the player never read it there
        # So the DM is written at once (as it is anyway when their choices are on it), and
        # carries it.
        news = delivery._news[(auto.game_id, seat)]
        dm = _dm(table, auto, user_id)
        assert dm is not None and dm.written > mark
        assert news[-1] in dm.content
        assert (await _expected(table, auto))[seat][1] == dm.content
        if delivery.dm_counts["news the answer could not carry"]:
            return  # a DM that would have waited for the menu's news
    raise AssertionError("no menu press brought its mover news their DM would wait for")


async def test_menu_presses_cost_fewer_requests_with_the_news_in_the_menu(
        table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same 20 moves (same seed, same choices) of a Fourth Wall Alliance game (its one
    investigator draws Marbles most turns, and only they see which), each pressed in a menu
    opened with **My choices**: first with the news written to the mover's DM at once (no
    menu carries it), then in the menus' edits: fewer requests, every DM current at the end
    all the same."""
    async def burst(carry: bool) -> tuple[int, dict[str, int]]:
        await _generous(table, summary_settle_seconds=LONG, at_table_seconds=300.0)
        bot = table.bot
        assert bot is not None
        delivery = delivery_for(bot)
        if not carry:
            note = delivery.note_private

            async def untold(record: Any, state: Any, events: Any, *,
                             answered: str | None = None) -> list[str]:
                return await note(record, state, events)

            monkeypatch.setattr(delivery, "note_private", untold)
        auto = await _auto(table, *ALLIANCE)
        before = _requests(table)
        for _ in range(20):
            record = await bot.storage.get_game(auto.game_id)
            if record is None or record.status != "active":
                break
            await _menu_move(table, auto)
        await delivery.flush_all_summaries()
        await table.emu.settle()
        assert not await _all_current(table, auto)
        return _requests(table) - before, dict(delivery.dm_counts)

    at_once, first = await burst(carry=False)
    carried, counts = await burst(carry=True)
    print(f"\n20 Alliance moves pressed in menus: {at_once} requests with the news in the "
          f"DMs {first}, {carried} with it in the menus {counts}")
    assert not first.get("news in the answer")
    assert counts["news in the answer"] >= 3
    # The requests saved are summary DM writes not made (a menu edit that came after the
    # press's answer was spent, on a loaded machine, costs one of its own).
    assert carried < at_once
    assert at_once - carried <= first["writes"] - counts["writes"]
