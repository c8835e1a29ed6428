"""Issue #20.3: a move Discord showed its player as failed is never played in silence.

Two cases, decided apart:
- a press or command that reaches the bot after Discord gave up on it (a gateway replaying it
  45–53 s after an outage; Discord's 3 s for the answer long gone) is **not played**: nothing
  changes, and its player is told by DM;
- a move the bot received in time and stored, whose every answer Discord then refused (10062,
  5xx, a long 429), **was played**: the board shows it, and its player is told by DM so they
  don't play it twice.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from emulator.records import UserRecord
from tests.e2e.conftest import Table

pytestmark = pytest.mark.usefixtures("highcard")

FALLBACK_GRACE = 0.2
"""The bot's wait before its fallback answer to an unanswered press, made short: a press
refused as late must get none (Discord takes none)."""


async def _started(table: Table) -> int:
    await table.lobby(players=(table.bob,), options="rounds=2")
    await table.slash(table.alice, table.thread(), "game start")
    return await table.game_id()


def _dms(table: Table, user: object, words: str) -> list[str]:
    return [m.content for m in table.emu.dm_messages(user) if words in m.content]


async def _until(table: Table, user: object, words: str) -> list[str]:
    """The DMs of `user` holding `words`, once there are some (the bot has dealt with it)."""
    for _ in range(200):
        await table.emu.settle()
        if found := _dms(table, user, words):
            return found
        await asyncio.sleep(0.025)
    return []


async def _version(table: Table, gid: int) -> int:
    assert table.bot is not None
    record = await table.bot.storage.get_game(gid)
    assert record is not None
    return record.version



async def exorcism_mover(table: Table) -> tuple[Any, UserRecord, list[dict[str, Any]]]:
    """A 2-player Exorcism core game opened (seed 5): its table, the player it awaits and
    that player's `/exorcism move` choices."""
    from demo import AutoTable
    from rules.registry import GAMES

    assert table.bot is not None
    table.bot.tables.seed_source = lambda: 5
    auto = AutoTable(table.emu, table.bot, table.general, [table.alice, table.bob])
    await auto.open("exorcism", "core")
    state = await table.bot.tables.state(auto.game_id)
    users = await table.bot.tables.users_of(auto.game_id)
    awaited = sorted(GAMES["exorcism"].to_act(state))[0]
    mover = next(u for u in auto.users if int(u.id) == users[awaited])
    choices = await table.emu.autocomplete(mover, auto.thread(), "exorcism move",
                                           {"choice": ""}, focused="choice")
    return auto, mover, choices

async def test_a_press_replayed_after_an_outage_is_not_played_and_its_player_is_told(
        table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("bot.client.UNKNOWN_COMPONENT_GRACE", FALLBACK_GRACE)
    gid = await _started(table)
    board = table.board()
    async with table.emu.gateway_outage(late_by=48):
        res = await table.emu.click(table.alice, board, label="Wager 1")
    [told] = await _until(table, table.alice, "not played")
    assert not res.responded  # Discord refused the answer: the press was shown as failed
    assert await _version(table, gid) == 0  # and it was not played
    assert "Wager 1" in told and "game #1" in told and "48 s" in told
    assert table.board().id == board.id and board.custom_ids == table.board().custom_ids
    assert table.bot is not None and await table.bot.storage.pending_moves() == []
    # Nothing is sent on a token Discord gave up on: the DM was its answer (stop 69: the
    # refusal was answered too, met 10062 and logged a traceback; the bot's fallback for
    # unanswered presses answered it again).
    await asyncio.sleep(FALLBACK_GRACE * 1.5 + 0.1)
    await table.settle()
    assert res.errors == [], [(e.status, e.code) for e in res.errors]
    # The same press made now is played.
    again = await table.click(table.alice, table.board(), label="Wager 1")
    await again.wait_done()
    assert await _version(table, gid) == 1


async def test_a_stored_press_whose_answers_discord_refused_is_told_by_dm(
        table: Table) -> None:
    gid = await _started(table)
    table.emu.refuse_callbacks(count=2)  # the answer and the deferral after it: 10062
    res = await table.emu.click(table.alice, table.board(), label="Wager 1")
    [told] = await _until(table, table.alice, "was played")
    assert not res.responded
    assert await _version(table, gid) == 1  # received in time, so played
    assert "Wager 1" in told and "This interaction failed" in told
    # The board shows the move all the same.
    assert "sets the wager" in table.board().content, table.board().content


async def test_an_answered_press_sends_no_dm(table: Table) -> None:
    await _started(table)
    res = await table.click(table.alice, table.board(), label="Wager 1")
    await res.wait_done()
    assert res.responded
    assert not _dms(table, table.alice, "was played") and not _dms(table, table.alice,
                                                                    "not played")


async def test_a_typed_move_replayed_late_is_not_played_and_one_refused_is_told_by_dm(
        table: Table) -> None:
    """The same two cases for a typed move (`/exorcism move`)."""

    auto, mover, choices = await exorcism_mover(table)
    gid = auto.game_id
    before = await _version(table, gid)
    async with table.emu.gateway_outage(late_by=50):
        late = await table.emu.slash(mover, auto.thread(), "exorcism move",
                                     {"choice": choices[0]["value"]})
    [told] = await _until(table, mover, "not played")
    assert "/exorcism move" in told and not late.responded
    assert late.errors == [], [(e.status, e.code) for e in late.errors]  # nothing on its token
    assert await _version(table, gid) == before
    table.emu.refuse_callbacks(count=3)
    await table.emu.slash(mover, auto.thread(), "exorcism move", {"choice": choices[0]["value"]})
    [played] = await _until(table, mover, "was played")
    assert await _version(table, gid) == before + 1
    assert "This interaction failed" in played


async def test_a_press_replayed_late_is_not_played_when_the_host_clock_runs_behind(
        table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    """Stop 69's proof of real games under faults: the host's clock behind Discord's (here:
    the emulator's clock two hours on, as the bot knows from the snowflakes it sees) made a
    press replayed 48 s after an outage look fresh, and it was played although Discord had
    shown its player "This interaction failed". Its age is told by Discord's time."""
    monkeypatch.setattr("bot.client.UNKNOWN_COMPONENT_GRACE", FALLBACK_GRACE)
    gid = await _started(table)
    table.emu.advance_clock(hours=2)
    # The bot meets Discord's time: alice's wager, pressed now, and the board it posts.
    await table.click(table.alice, table.board(), label="Wager 1")
    assert await _version(table, gid) == 1
    # Bob's cards are his alone: his DM panel offers them.
    [panel] = [m for m in table.emu.dm_messages(table.bob)
               if any(c.startswith("hb:a:") for c in m.custom_ids)]
    async with table.emu.gateway_outage(late_by=48):
        res = await table.emu.click(
            table.bob, panel, next(c for c in panel.custom_ids if c.startswith("hb:a:")))
    told = await _until(table, table.bob, "not played")
    assert await _version(table, gid) == 1, "a press Discord showed as failed was played"
    assert not res.responded
    assert len(told) == 1 and "48 s" in told[0]
    # Nothing on its token, the bot's fallback for unanswered presses included.
    await asyncio.sleep(FALLBACK_GRACE * 1.5 + 0.1)
    await table.settle()
    assert res.errors == [], [(e.status, e.code) for e in res.errors]


async def test_a_typed_move_whose_done_answer_discord_refused_is_told_by_dm(
        table: Table) -> None:
    """Stop 69's proof of real games: a busy bot answers a typed move "thinking…" at once and
    its "Done: …" after the move, with the interaction's token. When Discord refuses that
    follow-up (the token expired: 401 / 50027; a 5xx run outlasting the retries), the player
    is left looking at "thinking…", which Discord ends with "The application did not
    respond": the move was played all the same, so they are told by DM not to play it again."""

    await table.stop()
    await table.start(answer_grace=0.0)  # every answer deferred, then sent with the token
    auto, mover, choices = await exorcism_mover(table)
    gid = auto.game_id
    before = await _version(table, gid)
    table.emu.token_lifetime = 0.0  # the follow-up finds the token expired
    res = await table.emu.slash(mover, auto.thread(), "exorcism move",
                                {"choice": choices[0]["value"]})
    told = await _until(table, mover, "was played")
    assert await _version(table, gid) == before + 1
    assert res.deferred and not res.followups  # "thinking…", never followed up
    assert len(told) == 1 and "did not respond" in told[0], told
