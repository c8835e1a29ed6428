"""Faults proof: while a game is played through Discord, the emulator answers 429s on every
route, 500s, sends gateway RECONNECTs and INVALID_SESSIONs, closes a player's DMs mid-game and
refuses a board post (kept and tried again). The game goes on, its stored state equals the
replay of its log, and nobody is told a move happened that did not — nor that a stored move
did not happen.
"""

from __future__ import annotations

import time
from collections import Counter

import pytest

from emulator.records import FaultRule, UserRecord
from rules.core import Action
from tests.e2e.conftest import Table
from tests.proof.harness import (
    Player,
    board_lines,
    is_board,
    is_subsequence,
    public_lines_of_log,
    scale,
)
from tests.tinygame import GAME as HIGHCARD

FAULTS = ["429-every-route", "500-next-request", "gateway-reconnect", "invalid-session-resume",
          "429-global", "dm-closed", "board-post-fails", "invalid-session-new", "gateway-closed",
          "none"]
"""One per move, in turn; PROOF_SCALE>1 adds a 500 on every route (each retried after ~1 s)."""


async def test_faults_game_goes_on_and_nobody_is_misinformed(
        table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    emu = table.emu
    assert table.bot is not None
    bot = table.bot
    await table.lobby("highcard", (table.bob, table.carol), options=f"rounds={min(5, 2 + scale())}")
    await table.slash(table.alice, table.thread(), "game start")
    gid = await table.game_id()
    users = await bot.tables.users_of(gid)
    by_id: dict[int, UserRecord] = {int(u.id): u for u in (table.alice, table.bob, table.carol)}
    player = Player(emu, bot.tables, HIGHCARD, gid, table.thread(),
                    {s: by_id[u] for s, u in users.items() if u}, ack_timeout=8)
    injected: Counter[str] = Counter()
    routes_429: list[FaultRule] = []
    routes_500: list[FaultRule] = []
    faults = FAULTS + (["500-every-route"] if scale() > 1 else [])
    misinformed: list[str] = []
    began = time.perf_counter()
    thread_id = table.thread().id
    i = 0
    while True:
        fault = faults[i % len(faults)]
        i += 1
        emu.clear_faults()  # a fault of the move before that was never served is over
        if fault == "429-every-route":
            routes_429.append(emu.fail_every_route(429, retry_after=0.05))
        elif fault == "429-global":
            emu.fail_next("*", ".*", 429, retry_after=0.05, count=2, is_global=True)
        elif fault == "500-next-request":
            emu.fail_next("*", ".*", 500, count=1)  # discord.py retries after ~1 s
        elif fault == "500-every-route":
            routes_500.append(emu.fail_every_route(500))
        elif fault == "gateway-reconnect":
            await emu.gateway_reconnect()
        elif fault == "invalid-session-resume":
            await emu.invalidate_session(resumable=True)
        elif fault == "invalid-session-new":
            await emu.invalidate_session(resumable=False)  # discord.py waits ~5 s, identifies
        elif fault == "gateway-closed":
            await emu.close_gateway(4000)
        elif fault == "dm-closed":
            table.carol.dms_open = not table.carol.dms_open
        elif fault == "board-post-fails":
            # Refused outright (the bot lost a permission for a moment): the board is kept and
            # tried again (#20), its lines reaching the thread with a later post.
            emu.fail_next("POST", rf"/channels/{thread_id}/messages$", 403, count=1)
        injected[fault] += 1
        before = (await bot.storage.get_game(gid))
        assert before is not None
        press = await player.next_move()
        if press is None:
            break
        await emu.settle(timeout=30)
        after = await bot.storage.get_game(gid)
        assert after is not None
        stored = after.version == before.version + 1
        if press.outcome == "acked" and not stored:
            misinformed.append(f"{fault}: board told of a move not stored: {press}")
        if press.outcome == "lost":
            misinformed.append(f"{fault}: the player got no answer at all: {press}")
        if press.outcome != "acked":
            if stored and ("Nothing in the game changed" in press.answer or not press.answer):
                misinformed.append(f"{fault}: stored move, player told otherwise: {press}")
            if not stored and press.answer.startswith(("✅", "Done:")):
                misinformed.append(f"{fault}: unstored move, player told it landed: {press}")
        assert i < 200, "the game did not end"
    took = time.perf_counter() - began
    table.carol.dms_open = True
    # A fault of one move must not be the first thing another move meets.
    emu.clear_faults()
    record = await bot.storage.get_game(gid)
    assert record is not None and record.status == "over"
    assert await bot.tables.verify(gid)
    log = await bot.storage.actions(gid)
    outcomes = Counter(p.outcome for p in player.presses)
    print(f"\nFAULTS moves={len(player.presses)} stored={len(log)} outcomes={dict(outcomes)} "
          f"injected={dict(injected)} routes 429ed={sum(len(r.routes_failed) for r in routes_429)} "
          f"routes 500ed={sum(len(r.routes_failed) for r in routes_500)} "
          f"errors answered={len(emu.errors)} "
          f"resumes={emu.stats.resumes} identifies={emu.stats.identifies} took={took:.1f}s")
    for p in player.presses:
        if p.outcome != "acked":
            print(f"  {p.outcome}: {p.line} — told: {p.answer[:90]!r}")
    assert not misinformed, "\n".join(misinformed)
    assert sum(len(r.routes_failed) for r in routes_429) >= 4  # several routes, each 429ed
    # Carol's DMs closed mid-game: her private news still reaches her summary DM (an edit of
    # a message she already has, which closed DMs allow, #15), or the thread says it could not.
    carol_seat = next(s for s, u in users.items() if u == int(table.carol.id))
    carols = [e.text for entry in await bot.tables.history(gid) for e in entry.events
              if not e.public and carol_seat in e.audience]
    seen = "\n".join([h.content for m in emu.dm_messages(table.carol) for h in m.history]
                     + [m.content for m in emu.dm_messages(table.carol)])
    told = any("couldn't DM" in m.content for m in emu.messages_in(table.thread()))
    assert carols and (told or all(f"• {t}" in seen for t in carols))
    assert record.seed is not None
    replayed = public_lines_of_log(
        HIGHCARD, HIGHCARD.setup(sorted(users), HIGHCARD.options_model.model_validate(
            record.options), record.seed),
        [(a.seat, Action.model_validate_json(a.action_json)) for a in log])
    boards = [m for m in emu.messages_in(table.thread()) if is_board(m, HIGHCARD.title)]
    posted = [line for m in boards[1:] for line in board_lines(m)]
    assert is_subsequence(posted, replayed), (posted, replayed)
    assert len(posted) >= len(log) - injected["board-post-fails"] * 4
