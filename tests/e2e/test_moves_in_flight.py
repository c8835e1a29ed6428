"""Issue #12, 13: a move cut off by a crash never leaves its player on "thinking…".

The crash is simulated in process: the move's task dies (CancelledError, as when the process
dies) before or after the move is stored, and the bot is restarted on the same database. The
restarted bot answers each move left in flight with the interaction's token — "not played,
try again" or "played, and what it did" — and forgets tokens past Discord's 15 minutes.
The real thing (a process killed by SIGKILL) is tests/proof/test_crash.py.
"""

from __future__ import annotations

import asyncio
from typing import Any

import discord
import pytest

from bot.pressure import Pressure, gauge_of
from bot.storage import PENDING_TTL, PendingMove
from bot.tables import TableService
from cogs.utils.table import Delivery
from tests.e2e.conftest import Table
from tests.e2e.test_failed_presses import exorcism_mover

pytestmark = pytest.mark.usefixtures("highcard")


async def _started(table: Table) -> int:
    await table.lobby(players=(table.bob,), options="rounds=2")
    await table.slash(table.alice, table.thread(), "game start")
    return await table.game_id()


def _die(*_args: Any, **_kwargs: Any) -> Any:
    raise asyncio.CancelledError  # the process is gone: nothing after this line runs


async def _pending(table: Table) -> list[PendingMove]:
    assert table.bot is not None
    return await table.bot.storage.pending_moves()


async def test_a_board_press_cut_off_before_its_move_is_stored_is_answered_not_played(
        table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    gid = await _started(table)
    with monkeypatch.context() as m:
        table.crashed()
        m.setattr(TableService, "act", _die)
        res = await table.emu.click(table.alice, table.board(), label="Wager 1")
        await res.wait_callback()
        await table.emu.settle()
    assert res.deferred and not res.done  # the player is left waiting
    [row] = await _pending(table)
    assert row.token == res.token and row.stored_seq is None and row.game_id == gid
    assert row.what == "Wager 1" and row.answer == "followup"
    await table.restart()
    await res.wait_done()
    [answer] = res.followups
    assert answer.ephemeral and "not played" in answer.content and "Wager 1" in answer.content
    assert res.original is not None and res.original_edits == 0  # the board is left alone
    assert await _pending(table) == []
    assert table.bot is not None
    assert (await table.bot.storage.get_game(gid)).version == 0  # type: ignore[union-attr]


async def test_a_command_cut_off_after_its_move_is_stored_is_answered_with_what_happened(
        table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    auto, mover, choices = await exorcism_mover(table)
    gid = auto.game_id
    assert table.bot is not None
    state = await table.bot.tables.state(gid)
    before = state.step
    with monkeypatch.context() as m:
        table.crashed()
        m.setattr(Delivery, "after_action", _die)
        res = await table.emu.slash(mover, auto.thread(), "exorcism move",
                                    {"choice": choices[0]["value"]})
        await res.wait_callback()
        await table.emu.settle()
    # The move was chosen and legal, its result never came: its words answered it ("Playing:
    # …", not "Done"), and the restarted bot tells what happened in their place.
    assert res.callback_type == 4 and res.text.startswith("Playing:"), res.text
    [row] = await _pending(table)
    assert row.stored_seq == before + 1 and row.game_id == gid and row.answer == "original"
    assert row.what == "/exorcism move"
    await table.restart()
    await res.wait_done()
    # Answered already ("Playing: …"): the restarted bot's correction is an edit of it.
    for _ in range(500):
        if res.original_edits:
            break
        await asyncio.sleep(0.02)
    assert res.original_edits == 1
    assert "was played" in res.text and "/exorcism move" in res.text, res.text
    [entry] = [e for e in await table.bot.tables.history(gid) if e.seq == before + 1]
    lines = [e.text for e in entry.events if e.public]
    assert lines and all(f"• {line}" in res.text for line in lines), res.text
    assert await _pending(table) == []


async def test_answered_moves_are_forgotten_without_a_write_of_their_own(
        table: Table) -> None:
    await _started(table)
    # A quiet bot waits for a press's result to answer with it (type 7); a busy one defers
    # first (`hold_plan`), as the default suite beside other work made it once (stop 66).
    assert table.bot is not None
    gauge_of(table.bot).fake = Pressure(lag_ms=0.0, queued={})
    res = await table.click(table.alice, table.board(), label="Wager 1")
    await res.wait_done()
    assert [r.token for r in await _pending(table)] == [res.token]  # until the next move
    menu = await table.click(table.alice, table.board(), label="My choices")
    await menu.wait_done()
    card = next(c for c in menu.messages[-1].custom_ids if c.startswith("hb:a:"))
    second = await table.click(table.alice, menu.messages[-1], card)
    await second.wait_done()
    assert [r.token for r in await _pending(table)] == [second.token]
    refused = await table.click(table.bob, table.board(), label="My choices")
    await refused.wait_done()
    await table.stop()  # a clean shutdown forgets the answered ones
    await table.start()
    assert await _pending(table) == []
    # The menu press was answered with the menu it left (type 7): not overwritten since.
    assert second.callback_type == 7 and second.original_edits == 0
    assert "Done: " in second.text


async def test_a_token_past_fifteen_minutes_is_forgotten_unanswered(
        table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    gid = await _started(table)
    with monkeypatch.context() as m:
        table.crashed()
        m.setattr(TableService, "act", _die)
        res = await table.emu.click(table.alice, table.board(), label="Wager 1")
        await res.wait_callback()
        await table.emu.settle()
    await table.stop()
    table.clock_now += PENDING_TTL + 1
    await table.start()
    for _ in range(200):  # the catch-up runs from on_ready, off the emulator's books
        if not await _pending(table):
            break
        await asyncio.sleep(0.01)
    await table.emu.settle()
    assert not res.done and res.followups == [] and await _pending(table) == []
    assert table.bot is not None
    assert (await table.bot.storage.get_game(gid)).version == 0  # type: ignore[union-attr]


async def test_emulator_refuses_a_token_after_fifteen_minutes(table: Table) -> None:
    await _started(table)
    res = await table.click(table.alice, table.board(), label="My choices")
    await res.wait_done()
    assert table.bot is not None
    res.created_at -= PENDING_TTL + 1
    hook = discord.Webhook.from_state(
        data={"id": table.bot.application_id, "type": 3, "token": res.token},
        state=table.bot._connection)
    with pytest.raises(discord.HTTPException) as err:
        await hook.send("too late", ephemeral=True)
    assert err.value.status == 401 and err.value.code == 50027


# ---- issue #20.10: the truth after a crash in the answer's window ----------------------------
async def _caught_up(table: Table) -> None:
    """Wait until the restarted bot has dealt with the moves left in flight (it forgets their
    rows once done)."""
    for _ in range(200):
        if not await _pending(table):
            break
        await asyncio.sleep(0.025)
    await table.emu.settle()


async def test_a_press_stored_but_never_acknowledged_is_told_by_dm_that_it_was_played(
        table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    """Killed between storing the move and answering the press: Discord shows "This
    interaction failed", and the restarted bot cannot answer the token (an unacknowledged
    interaction has no message). The player must not think the move failed: a DM says it was
    played, and what it did."""
    from cogs.utils import answers

    gid = await _started(table)
    assert table.bot is not None

    async def never(self: Any) -> None:
        await asyncio.Event().wait()  # the process dies before the grace runs out

    with monkeypatch.context() as m:
        table.crashed()
        m.setattr(answers.HeldAnswer, "_defer_later", never)
        m.setattr(Delivery, "after_action", _die)
        res = await table.emu.click(table.alice, table.board(), label="Wager 1")
        await table.emu.settle()
        await asyncio.sleep(0.05)
        for held in list(answers.held_answers(table.bot)):  # nothing survives a SIGKILL
            timer = held._timer
            if timer is not None:
                timer.cancel()
        answers.held_answers(table.bot).clear()
        [row] = await _pending(table)
        assert row.stored_seq == 1 and row.game_id == gid
        assert res.callback_type is None  # never acknowledged
        await table.restart()
    await _caught_up(table)
    told = [msg for msg in table.emu.dm_messages(table.alice) if "was played" in msg.content]
    assert len(told) == 1 and "Wager 1" in told[0].content, [
        msg.content for msg in table.emu.dm_messages(table.alice)]
    assert "This interaction failed" in told[0].content
    assert res.callback_type is None and not res.followups
    assert await _pending(table) == []


async def test_moves_answered_before_a_crash_are_not_told_again(
        table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    """Answered tokens are forgotten with the next recorded move; a crash before that leaves
    their rows. The restarted bot reads what each player saw and leaves "Done: …" and the
    board a press edited alone (it used to overwrite them with "played just before the bot
    restarted")."""
    from cogs.utils.pending import PendingMoves

    await _started(table)
    board_press = await table.click(table.alice, table.board(), label="Wager 1")
    await board_press.wait_done()
    menu = await table.click(table.alice, table.board(), label="My choices")
    await menu.wait_done()
    card = next(c for c in menu.messages[-1].custom_ids if c.startswith("hb:a:"))
    second = await table.click(table.alice, menu.messages[-1], card)
    await second.wait_done()
    assert [r.token for r in await _pending(table)] == [second.token]
    text_before = second.text

    async def crash_flush(self: Any) -> None:
        return None  # a crash: the answered rows are never deleted

    with monkeypatch.context() as m:
        m.setattr(PendingMoves, "flush", crash_flush)
        await table.stop()
    await table.start()
    await _caught_up(table)
    assert second.original_edits == 0 and second.text == text_before and "Done: " in second.text
    assert not second.followups
    assert not [msg for msg in table.emu.dm_messages(table.alice) if "was played" in msg.content]
    assert await _pending(table) == []


async def _play_a_card(table: Table, user: Any) -> Any:
    menu = await table.click(user, table.board(), label="My choices")
    await menu.wait_done()
    card = next(c for c in menu.messages[-1].custom_ids if c.startswith("hb:a:"))
    return await table.emu.click(user, menu.messages[-1], card)


async def test_a_board_post_whose_id_a_crash_lost_is_stripped_after_the_restart(
        table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    """Killed between a new board post reaching Discord and its id being stored: the restarted
    bot posts the board again, and must take the choices off the post it no longer knows of,
    so one decision never has two live sets of buttons."""
    gid = await _started(table)

    def choices(msg: Any) -> bool:
        return any(c.startswith((f"hb:a:{gid}:", f"hb:s:{gid}:", f"hb:pg:{gid}:"))
                   for c in msg.custom_ids)

    def live() -> list[str]:
        return [msg.id for msg in table.emu.messages_in(table.thread()) if choices(msg)]

    await (await table.click(table.alice, table.board(), label="Wager 1")).wait_done()
    await (await _play_a_card(table, table.bob)).wait_done()
    with monkeypatch.context() as m:
        table.crashed()
        m.setattr(Delivery, "_remember", _die)  # round 2's board reaches Discord, unrecorded
        res = await _play_a_card(table, table.alice)
        await res.wait_callback()
        await table.emu.settle()
    unknown = table.board()
    assert choices(unknown)  # round 2's wager, on a post the database does not know
    await table.restart()
    await _caught_up(table)
    for _ in range(100):
        if table.board().id != unknown.id and live() == [table.board().id]:
            break
        await asyncio.sleep(0.05)
    current = table.board()
    assert current.id != unknown.id
    assert live() == [current.id]
    assert table.bot is not None
    record = await table.bot.storage.get_game(gid)
    assert record is not None and record.board_message_id == int(current.id)
