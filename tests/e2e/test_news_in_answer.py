"""The mover's private news rides on their own answer to the move (#25: all requests per move
≤ 2.5): a typed move's answer — "Done: …", or its words when the bot is busy — is ephemeral,
the mover's alone, so it carries what the move told only them (the card they drew) and what
they hold now; their summary DM then follows their next decision like any other change of
their own, instead of being written at once for the news. If that answer fails (Discord
refused it: 10062, a 5xx), the DM is written at once: nobody is left untold.

Counts, not timers: the settle window is longer than any burst here, and held DM edits are
written by the call a clean stop makes (`flush_all_summaries`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from bench.roundtrip import slash_families
from bot.pressure import Pressure, gauge_of
from cogs.utils.table import action_hash, delivery_for
from cogs.utils.table.summaries import ANSWER_NEWS_HEAD
from demo import AutoTable
from rules.registry import GAMES
from tests.e2e.conftest import Table
from tests.e2e.test_requests import _auto, _generous, _requests
from tests.e2e.test_summary_settle import LONG, _all_current, _dm, _expected

GAME = ("presence", "session", 3)
"""The Presence: a visitor draws a card most turns, and only they see which."""


async def _typed_move(table: Table, auto: AutoTable, fault: Callable[[], Any] | None = None,
                      ) -> tuple[Any, str, int] | None:
    """One move the AI chooses, typed as a slash command (None: no command covers it, or the
    game is over): (its interaction record, the mover's seat, the mover's user id). `fault`:
    makes an emulator fault for this move's answer, made only when the move brings its mover
    private news (the test reads the engine: the same move on a copy of the state)."""
    bot = table.bot
    assert bot is not None
    record = await bot.storage.get_game(auto.game_id)
    assert record is not None
    if record.status != "active":
        return None
    game = GAMES[record.game]
    group, families = slash_families()[record.game]
    state = await bot.tables.state(auto.game_id)
    users = await bot.tables.users_of(auto.game_id)
    people = sorted(s for s in game.to_act(state) if users.get(s))
    if not people:
        return None
    seat = people[0]
    action = game.ai_action(state, seat)
    family = next((f for f in families if action.kind in f.kinds), None)
    if family is None:
        return None
    user = next(u for u in auto.users if int(u.id) == users[seat])
    rule = None
    if fault is not None and any(not e.public and seat in e.audience
                                 for e in game.apply(state, seat, action).events):
        rule = fault()
    res = await table.emu.slash(user, auto.thread(), f"{group} {family.name}",
                                {"choice": action_hash(action)})
    if rule is None:
        await res.wait_done(timeout=15)
    assert await auto._moved_on(state.step), res.text
    for _ in range(100):  # the answer, refused or not, comes after the board
        if rule is None or rule.count == 0 or res.done:
            break
        await asyncio.sleep(0.05)
    table.emu.clear_faults()
    await table.emu.settle()
    return res, seat, int(users[seat] or 0)


def _news_of(text: str) -> list[str]:
    """The private lines an answer carries ("• You draw …"), none without its news block."""
    if ANSWER_NEWS_HEAD not in text:
        return []
    block = text.split(ANSWER_NEWS_HEAD, 1)[1].strip().splitlines()
    return [line.removeprefix("• ") for line in block if line.startswith("• ")]


def _drawn(lines: list[str]) -> bool:
    return any(line.startswith("You draw") for line in lines)


async def _until_news(table: Table, auto: AutoTable, moves: int = 60,
                      wanted: Any = _drawn) -> tuple[Any, str, int, list[str]]:
    """Typed moves until one's answer carries private news of its mover that `wanted`
    accepts (a card drawn)."""
    for _ in range(moves):
        made = await _typed_move(table, auto)
        if made is None:
            break
        res, seat, user_id = made
        if (lines := _news_of(res.text)) and wanted(lines):
            return res, seat, user_id, lines
    raise AssertionError("no typed move brought its mover the private news wanted")


async def test_the_movers_answer_carries_the_card_drawn_and_the_dm_is_current_later(
        table: Table) -> None:
    await _generous(table, summary_settle_seconds=LONG, at_table_seconds=300.0)
    auto = await _auto(table, *GAME)
    bot = table.bot
    assert bot is not None
    delivery = delivery_for(bot)
    before = dict(delivery.dm_counts)
    res, seat, user_id, lines = await _until_news(table, auto)
    # The answer is the mover's alone, says what was done first, then what only they see:
    # the card drawn, and what they hold now (their private summary's own words).
    assert res.ephemeral and res.text.startswith("Done:"), res.text
    assert any(line.startswith("You draw") for line in lines), lines
    state = await bot.tables.state(auto.game_id)
    summary = GAMES["presence"].private_summary(state, seat)
    assert summary and summary in res.text
    # The DM was not written for it at once: held, to follow the mover's next decision.
    dm = _dm(table, auto, user_id)
    assert dm is not None and not any(line in dm.content for line in lines)
    assert seat in delivery._settling[auto.game_id].due
    counts = delivery.dm_counts
    assert counts["news in the answer"] > before.get("news in the answer", 0)
    assert not counts["news the answer could not carry"]
    # Later it is current, news and all (as a clean stop, or the mover's next decision,
    # writes it).
    await delivery.flush_all_summaries()
    await table.emu.settle()
    dm = _dm(table, auto, user_id)
    assert all(line in dm.content for line in lines)
    assert not await _all_current(table, auto)


@pytest.mark.parametrize("how", ["10062 on the answer", "50027 on the deferred answer"])
async def test_a_failing_answer_falls_back_to_the_dm_at_once(table: Table, how: str) -> None:
    # "50027 on the deferred answer": no grace at all, so every move is deferred
    # ("thinking…") and its "Done" is a follow-up — the news rides on that follow-up, and when
    # Discord refuses it (its token dead: 401 / 50027) the DM is written at once.
    deferred = how.startswith("50027")
    await _generous(table, summary_settle_seconds=LONG, at_table_seconds=300.0)
    if deferred:
        await table.stop()
        await table.start(answer_grace=0.0, summary_settle_seconds=LONG,
                          at_table_seconds=300.0)
    auto = await _auto(table, *GAME)
    bot = table.bot
    assert bot is not None
    delivery = delivery_for(bot)
    # A quiet first stretch: the moves whose answers carry news, found by playing.
    res, *_ = await _until_news(table, auto)
    if deferred:
        assert res.callback_type == 5 and res.followup_ids, "the answer was not deferred"
    await delivery.flush_all_summaries()
    await table.emu.settle()
    # Now the answer of the next move bringing its mover news fails.
    def refuse() -> Any:
        if deferred:
            return table.emu.fail_next("POST", r"^/webhooks/\d+/[^/]+$", status=401,
                                       code=50027, message="Invalid Webhook Token")
        return table.emu.refuse_callbacks()

    for _ in range(60):
        mark = table.emu.mark()
        made = await _typed_move(table, auto, refuse)
        assert made is not None, "the game ended before a failing answer carried news"
        res, seat, user_id = made
        if not delivery.dm_counts["news the answer could not carry"]:
            assert ANSWER_NEWS_HEAD not in res.text or res.done
            continue
        # Refused: the player never read the answer.
        assert res.late if not deferred else not res.done
        # The news went nowhere in the answer: the DM is written at once, before the next
        # move, and carries it.
        news = delivery._news[(auto.game_id, seat)]
        for _ in range(100):  # the write follows the refusal
            dm = _dm(table, auto, user_id)
            if dm is not None and news[-1] in dm.content:
                break
            await asyncio.sleep(0.05)
        assert dm is not None and dm.written > mark
        assert news[-1] in dm.content
        assert (await _expected(table, auto))[seat][1] == dm.content
        return
    raise AssertionError("no failing answer carried news")


async def test_a_scripted_burst_costs_fewer_requests_with_the_news_in_the_answers(
        table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same 24 typed moves (same seed, same choices) of a Fourth Wall Alliance game with five
    Open Gates (its one investigator draws Marbles most turns, and only they see which), first
    with the news written to the mover's DM at once (as before: no answer carries it), then in
    the answers: fewer requests, and every DM current at the end all the same."""
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
        # Five Open Gates: a game that outlasts the 24 moves whatever the AI's worlds (with
        # three, a lucky deal closes every Gate first and leaves no summary to keep current).
        bot.tables.seed_source = lambda: 5
        auto = AutoTable(table.emu, bot, table.general, [table.alice])
        await auto.open("fourth_wall", "alliance", "gates=5")
        before = _requests(table)
        for _ in range(24):
            if await _typed_move(table, auto) is None:
                break
        await delivery.flush_all_summaries()
        await table.emu.settle()
        assert not await _all_current(table, auto)
        return _requests(table) - before, dict(delivery.dm_counts)

    at_once, first = await burst(carry=False)
    carried, counts = await burst(carry=True)
    print(f"\n24 typed Alliance moves: {at_once} requests with the news in the DMs {first}, "
          f"{carried} with it in the answers {counts}")
    assert not first.get("news in the answer")
    assert counts["news in the answer"] >= 3
    # Every request saved is a summary DM write not made.
    assert carried < at_once
    assert at_once - carried == first["writes"] - counts["writes"]


async def test_a_busy_bots_words_carry_the_news_once_the_move_is_stored(table: Table) -> None:
    """A busy bot answers a typed move in its words ("Playing: …") without waiting for the
    board, but only once the move is stored: so those words carry the mover's news too."""
    await _generous(table, summary_settle_seconds=LONG, at_table_seconds=300.0)
    bot = table.bot
    assert bot is not None
    gauge_of(bot).fake = Pressure(lag_ms=0.0, queued={"moves": 40})
    delivery = delivery_for(bot)
    auto = await _auto(table, "fourth_wall", "alliance", 1)
    carried: list[str] = []
    for _ in range(30):
        made = await _typed_move(table, auto)
        if made is None:
            break
        res = made[0]
        assert res.text.startswith("Playing:") and res.callback_type == 4, res.text
        if _news_of(res.text):
            carried.append(res.text)
        if carried and delivery.dm_counts["news in the answer"]:
            break
    # Some moves' news the answers carried, sparing a DM write (a mover whose new choices
    # are on their DM has it written at once anyway, news and all).
    assert carried and delivery.dm_counts["news in the answer"] >= 1, dict(delivery.dm_counts)
    assert not delivery.dm_counts["news the answer could not carry"]


def test_answer_news_says_the_lines_then_the_hand_and_fits_one_message() -> None:
    """The news an answer carries: "Only you see this:", the lines (the newest few, each
    clipped as on the DM), then the seat's private summary — left out, never cut, when it
    would not fit (the DM, `/game hand` and **My hand** show it); nothing without news."""
    from cogs.utils.table.summaries import ANSWER_ROOM, NEWS_KEPT, answer_news
    from tests.tinygame import GAME as HIGHCARD
    from tests.tinygame import HighCardOptions
    state = HIGHCARD.setup(["s1", "s2"], HighCardOptions(), 5)
    summary = HIGHCARD.private_summary(state, "s1")
    assert summary
    assert answer_news(HIGHCARD, state, "s1", []) == ""
    text = answer_news(HIGHCARD, state, "s1", ["You played 3."])
    assert text == f"{ANSWER_NEWS_HEAD}\n• You played 3.\n{summary}"
    many = [f"You drew {n}." for n in range(NEWS_KEPT + 2)]
    assert _news_of(answer_news(HIGHCARD, state, "s1", many)) == many[-NEWS_KEPT:]
    long = ["x" * 1000] * 3
    text = answer_news(HIGHCARD, state, "s1", long, room=900)
    assert len(text) <= 900 and summary not in text and text.startswith(ANSWER_NEWS_HEAD)
    assert len(answer_news(HIGHCARD, state, "s1", long)) <= ANSWER_ROOM
