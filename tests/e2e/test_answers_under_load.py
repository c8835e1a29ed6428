"""Answers are never late under load (issue #25, item 1).

A move holds its interaction's answer open to carry its result only while the bot can afford
it (cogs/utils/answers.py `hold_plan`, bot/pressure.py): a lagged loop, an interaction already
old, or a pile of queued work make it answer at once — in the move's words when they are known
(one request, final), else with a deferral — well inside Discord's 3 seconds, measured by the
emulator from the interaction's creation. A busy bot also drops a board a newer move already
replaces, and the board left shows the last move.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from bench.roundtrip import slash_families
from bot import renderpool
from bot.pressure import Pressure, gauge_of
from cogs.utils.answers import BUSY_GRACE, DEFER_BY
from cogs.utils.table import action_hash, delivery_for
from demo import AutoTable
from emulator.interaction_records import InteractionRecord
from emulator.records import MessageRecord
from rules.registry import GAMES
from tests.e2e.conftest import Table
from tests.e2e.posting import told_lines

# Measures the event loop's lag or a wall-clock bound: under `pytest -n` these tests run
# on one worker, one at a time (`--dist loadgroup`), never beside each other.
pytestmark = pytest.mark.xdist_group("timing")

CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE = 4, 5, 6
QUIET = Pressure(lag_ms=0.0, queued={})
BUSY = Pressure(lag_ms=0.0, queued={"moves": 40})
"""Forty moves waiting on game locks: results come late, though the loop itself is quick."""
SWAMPED = Pressure(lag_ms=400.0, typical_lag_ms=200.0, queued={})


async def _auto(table: Table, mode: str = "core", players: int = 2) -> AutoTable:
    assert table.bot is not None
    table.bot.tables.seed_source = lambda: 5
    auto = AutoTable(table.emu, table.bot, table.general,
                     [table.alice, table.bob, table.carol][:players])
    await auto.open("exorcism", mode)
    return auto


async def _typed_move(table: Table, auto: AutoTable) -> tuple[InteractionRecord, int, str]:
    """The awaited player types the AI's choice as its command, not waiting for anything.
    Returns the interaction, the game's step before it and the move's words."""
    assert table.bot is not None
    bot = table.bot
    game = GAMES["exorcism"]
    group, families = slash_families()["exorcism"]
    state = await bot.tables.state(auto.game_id)
    users = await bot.tables.users_of(auto.game_id)
    seat = sorted(s for s in game.to_act(state) if users.get(s))[0]
    user = next(u for u in auto.users if int(u.id) == users[seat])
    action = game.ai_action(state, seat)
    family = next(f for f in families if action.kind in f.kinds)
    res = await table.emu.slash(user, auto.thread(), f"{group} {family.name}",
                                {"choice": action_hash(action)})
    return res, state.step, game.describe(state, seat, action)


async def _stored(table: Table, gid: int, step: int, timeout: float = 10.0) -> None:
    """Wait until the game's state has moved past `step`."""
    assert table.bot is not None
    until = time.monotonic() + timeout
    while (await table.bot.tables.state(gid)).step <= step:
        assert time.monotonic() < until, "the move was never stored"
        await asyncio.sleep(0.02)


def _boards(table: Table, auto: AutoTable) -> list[MessageRecord]:
    return [m for m in table.emu.messages_in(auto.thread())
            if any(a.filename == "turn.png" for a in m.attachments)]


def _board_writes(table: Table, auto: AutoTable) -> int:
    """Board pictures written in the thread: posts, and edits that uploaded a new picture."""
    return sum(1 + sum(1 for old in m.history if old.attachments != m.attachments)
               for m in _boards(table, auto))


async def test_a_typed_move_under_a_lagged_loop_is_answered_in_time_in_one_request(
        table: Table) -> None:
    """The loop is held 60 ms at a time (a starved CPU): the move does not wait for its
    result. Its words answer it, final and well before Discord's deadline; the board follows."""
    auto = await _auto(table)
    stop = asyncio.Event()

    async def hog() -> None:
        while not stop.is_set():
            time.sleep(0.06)  # blocking on purpose: the loop lags
            await asyncio.sleep(0.001)

    hogging = asyncio.create_task(hog())
    try:
        await asyncio.sleep(0.5)  # the gauge has seen the lag
        res, step, described = await _typed_move(table, auto)
        await res.wait_callback(timeout=5)
    finally:
        stop.set()
        await hogging
    assert res.latency is not None and res.latency < DEFER_BY, res.latency
    assert res.callback_type == CHANNEL_MESSAGE and not res.followup_ids
    assert res.ephemeral and res.text.startswith(f"Playing: {described}."), res.text
    await _stored(table, auto.game_id, step)
    assert await auto._moved_on(step)  # the board shows the move


async def test_a_swamped_loop_defers_at_once_and_the_result_follows(table: Table) -> None:
    """A loop too slow to hold anything (the gauge faked: 200 ms typical lag) defers at once;
    the result still reaches the player ("Done: …" in place of "thinking…")."""
    auto = await _auto(table)
    assert table.bot is not None
    gauge_of(table.bot).fake = SWAMPED
    res, step, described = await _typed_move(table, auto)
    await res.wait_done(timeout=10)
    assert res.callback_type == DEFERRED_CHANNEL_MESSAGE
    assert res.latency is not None and res.latency < DEFER_BY, res.latency
    assert res.text == f"Done: {described}.", res.text
    assert await auto._moved_on(step)


async def test_a_press_under_a_swamped_loop_is_deferred_in_time(table: Table) -> None:
    """A press has no words to answer with: a swamped bot defers it at once (one request);
    the board post it pressed still shows the move, edited through the press's token."""
    auto = await _auto(table)
    assert table.bot is not None
    gauge_of(table.bot).fake = SWAMPED
    game = GAMES["exorcism"]
    state = await table.bot.tables.state(auto.game_id)
    users = await table.bot.tables.users_of(auto.game_id)
    seat = sorted(s for s in game.to_act(state) if users.get(s))[0]
    user = next(u for u in auto.users if int(u.id) == users[seat])
    action = game.ai_action(state, seat)
    mark = len(table.emu.interactions)
    await auto.press(user, seat, action, game.describe(state, seat, action))
    assert await auto._moved_on(state.step)
    [res] = [r for r in table.emu.interactions[mark:] if r.name.startswith("click 'hb:a:")]
    assert res.callback_type == DEFERRED_UPDATE and res.done and not res.errors
    assert res.latency is not None and res.latency < DEFER_BY, res.latency
    # The pressed post (edited in place, or its buttons taken off for the new one) went
    # through the press's own token: outside the bot token's global limit.
    assert res.original_edits == 1


async def test_an_old_interaction_is_answered_before_discords_deadline(table: Table) -> None:
    """An interaction that reaches the bot 2.6 s old (a gateway hiccup) is not held at all,
    even on a quiet bot: its answer goes at once, inside Discord's 3 s."""
    auto = await _auto(table)
    assert table.bot is not None
    gauge_of(table.bot).fake = QUIET
    async with table.emu.gateway_outage(late_by=2.6):
        res, step, described = await _typed_move(table, auto)
    await res.wait_done(timeout=10)
    assert not res.late and not res.errors
    assert res.latency is not None and res.latency < 2.9, res.latency
    assert res.text.endswith(f"{described}."), res.text
    assert await auto._moved_on(step)


async def test_a_quiet_bot_answers_with_the_result_in_one_request(table: Table) -> None:
    auto = await _auto(table)
    assert table.bot is not None
    await table.stop()
    await table.start(answer_grace=1.0)  # generous: a loaded test machine is not "late"
    gauge_of(table.bot).fake = QUIET
    auto.bot = table.bot
    res, step, described = await _typed_move(table, auto)
    await res.wait_done(timeout=10)
    assert res.callback_type == CHANNEL_MESSAGE and not res.followup_ids
    assert res.text == f"Done: {described}.", res.text
    # "Done" comes once the board is out: it already shows the move.
    assert (await table.bot.tables.state(auto.game_id)).step > step


async def test_a_busy_bot_drops_a_superseded_board_and_the_last_board_shows_the_last_move(
        table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two moves in a row while the first one's board is still being drawn: the busy bot
    sends one board for both (the first picture dropped, no request spent on it), and that
    board carries both moves' lines and the game as it is after the second."""
    auto = await _auto(table, mode="solo", players=1)
    assert table.bot is not None
    bot = table.bot
    gauge_of(bot).fake = BUSY
    await table.emu.settle()
    drawn: list[int] = []
    original = renderpool.render_card

    async def slow_card(game: str, view: dict[str, Any]) -> bytes | None:
        drawn.append(1)
        await asyncio.sleep(0.6)  # the render worker is behind
        return await original(game, view)

    monkeypatch.setattr(renderpool, "render_card", slow_card)
    writes = _board_writes(table, auto)
    first, step, _ = await _typed_move(table, auto)
    await _stored(table, auto.game_id, step)
    until = time.monotonic() + 10
    while not drawn:  # the first board is being drawn
        assert time.monotonic() < until, "the first board was never drawn"
        await asyncio.sleep(0.01)
    second, _, _ = await _typed_move(table, auto)
    await _stored(table, auto.game_id, step + 1)
    for res in (first, second):
        await res.wait_done(timeout=10)
        assert res.text.startswith("Playing:"), res.text
    delivery = delivery_for(bot)
    until = time.monotonic() + 10
    while auto.game_id in delivery._showing_tasks:  # the boards are still being shown
        assert time.monotonic() < until, "the boards were never shown"
        await asyncio.sleep(0.02)
    await table.emu.settle()
    assert len(drawn) == 2  # both drawn, the first one dropped
    assert _board_writes(table, auto) == writes + 1
    history = await bot.tables.history(auto.game_id)
    lines = {entry.seq: await told_lines(bot, auto.game_id, entry.events)
             for entry in history if entry.seq in (step + 1, step + 2)}
    board = _boards(table, auto)[-1]
    game = GAMES["exorcism"]
    state = await bot.tables.state(auto.game_id)
    shown = game.present(state, lines[step + 1] + lines[step + 2])
    assert shown and all(line in board.content for line in shown[-3:]), board.content
    # The post's buttons are the game's as it stands after the second move.
    assert board.custom_ids and all(f":{auto.game_id}:" in c or not c.startswith("hb:a:")
                                    for c in board.custom_ids)
    record = await bot.storage.get_game(auto.game_id)
    assert record is not None and record.board_message_id == int(board.id)


async def test_a_move_answered_in_words_that_then_fails_says_why_in_that_answer(
        table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    """"Playing: …" went out, then storing the move failed (another player's move came first,
    say): the same answer is corrected to the reason — no "Playing" left standing beside it.
    (A busy bot's words wait for the move to be stored, `BUSY_GRACE` after the press at most:
    storing takes longer here.)"""
    from bot.tables import TableError, TableService

    auto = await _auto(table)
    assert table.bot is not None
    gauge_of(table.bot).fake = BUSY

    async def refused(*args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(BUSY_GRACE + 0.3)
        raise TableError("The game moved on before your move: nothing changed.")

    monkeypatch.setattr(TableService, "act", refused)
    res, step, _ = await _typed_move(table, auto)
    await res.wait_done(timeout=10)
    for _ in range(100):  # the refusal comes after the words
        if res.original_edits:
            break
        await asyncio.sleep(0.05)
    await table.emu.settle()
    assert res.callback_type == CHANNEL_MESSAGE and not res.followup_ids
    assert res.original_edits == 1
    assert res.text == "The game moved on before your move: nothing changed.", res.text
    assert (await table.bot.tables.state(auto.game_id)).step == step


async def test_a_busy_bots_words_wait_for_the_move_to_be_stored(
        table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    """A busy bot answers a typed move in its words once the move is stored (so the answer
    can carry the mover's private news), not before: a move refused at once is answered with
    the reason alone, in one request, never "Playing: …" first."""
    from bot.tables import TableError, TableService

    auto = await _auto(table)
    assert table.bot is not None
    gauge_of(table.bot).fake = BUSY

    async def refused(*args: Any, **kwargs: Any) -> Any:
        raise TableError("The game moved on before your move: nothing changed.")

    monkeypatch.setattr(TableService, "act", refused)
    res, step, _ = await _typed_move(table, auto)
    await res.wait_done(timeout=10)
    await table.emu.settle()
    assert res.callback_type == CHANNEL_MESSAGE and not res.followup_ids
    assert res.original_edits == 0
    assert res.text == "The game moved on before your move: nothing changed.", res.text
    monkeypatch.undo()
    # Stored: the words answer it, and within the busy grace of the press.
    res, step, described = await _typed_move(table, auto)
    await res.wait_done(timeout=10)
    assert res.callback_type == CHANNEL_MESSAGE and res.text.startswith(
        f"Playing: {described}."), res.text
    assert res.latency is not None and res.latency < DEFER_BY, res.latency
    await _stored(table, auto.game_id, step)


async def test_a_record_queued_behind_other_writes_does_not_make_the_answer_late(
        table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    """The move's record (written before its answer) waits 2 s behind other games' writes:
    the answer does not wait past its deadline — it is deferred in time, the record lands
    after it, and the move is played and told as usual."""
    from cogs.utils.pending import PendingMoves

    auto = await _auto(table)
    assert table.bot is not None
    gauge_of(table.bot).fake = QUIET
    real = PendingMoves.record

    async def queued(self: PendingMoves, *args: Any, **kwargs: Any) -> None:
        await asyncio.sleep(2.0)  # a busy disk
        await real(self, *args, **kwargs)

    monkeypatch.setattr(PendingMoves, "record", queued)
    res, step, described = await _typed_move(table, auto)
    await res.wait_done(timeout=15)
    assert not res.late and not res.errors
    assert res.callback_type == DEFERRED_CHANNEL_MESSAGE
    assert res.latency is not None and res.latency < DEFER_BY, res.latency
    assert res.text == f"Done: {described}.", res.text
    assert await auto._moved_on(step)


async def test_a_late_ping_waits_while_the_bot_is_busy(table: Table) -> None:
    """Work that can wait goes after the answers: the short post pinging a player who drifted
    off is held back while the bot is busy, and goes once it is not."""
    await table.stop()
    await table.start(at_table_seconds=0.05)
    await table.lobby(players=(table.bob,))
    await table.slash(table.alice, table.thread(), "game start")
    gid = await table.game_id()
    assert table.bot is not None
    bot = table.bot
    state = await bot.tables.state(gid)
    seat = sorted(GAMES["highcard"].to_act(state))[0]
    user_id = (await bot.tables.users_of(gid))[seat]
    assert user_id is not None
    # The bot's own late ping for the start goes first (a loaded machine can wake it after
    # the emulator's quiet): only the ping this test sets off may come below.
    pending = [t for t in delivery_for(bot)._ping_later.values() if not t.done()]
    await asyncio.wait_for(asyncio.gather(*pending, return_exceptions=True), 10)
    await table.emu.settle()
    before = len(table.emu.messages_in(table.thread()))
    gauge_of(bot).fake = BUSY
    # Since the player's last time at the table (they started the game: named, not pinged).
    since = delivery_for(bot)._moved_at.get((gid, user_id), 0.0)
    pinging = asyncio.create_task(delivery_for(bot)._ping_later_run(gid, seat, user_id, since))
    await asyncio.sleep(0.8)
    assert len(table.emu.messages_in(table.thread())) == before and not pinging.done()
    gauge_of(bot).fake = QUIET
    await asyncio.wait_for(pinging, 5)
    [ping] = table.emu.messages_in(table.thread())[before:]
    assert ping.content.startswith(f"⏳ <@{user_id}>"), ping.content
