"""Snapshots (issue #25, item 2): the log, a replay and an undo start from the nearest snapshot,
and give exactly what a replay from the seed gives — serialized state and events, byte for
byte — at every step of whole games of every game and mode; undo across a snapshot boundary
takes the snapshots beyond it away; a snapshot by another engine version is ignored; a game
moved with `export_game` / `import_game` stays replayable."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bench.engine import default_players, modes
from bot.storage import SnapshotRecord, SqliteStorage, Storage, StoredGame
from bot.tables import LOG_JSON, LogEntry, TableService, log_digest
from rules.core import Action, Rng
from rules.core.game import Game, GameState
from rules.core.types import act
from rules.registry import GAMES as SHIPPED
from tests.bot import GAMES, FakeClock, started

A, B, C, D = 101, 102, 103, 104
MOST_MOVES = 600
"""A random playout longer than this is cut (every shipped game ends well before)."""


MODES = [(name, mode, default_players(name, mode)) for name, mode in modes()]
MODE_IDS = [f"{g}-{m}-{n}p" for g, m, n in MODES]
"""Every game and mode, at a typical table (three seats where the mode allows it)."""


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


def seed_replay(game: Game[Any, Any], seats: list[str], options: Any, seed: int,
                moves: list[tuple[str, Action]]) -> tuple[list[str], list[LogEntry]]:
    """Every state (serialized, after 0..n actions) and log entry, replayed from the seed
    by the engine alone: the oracle."""
    state: GameState = game.setup(seats, options, seed)
    states, entries = [state.model_dump_json()], []
    for seq, (seat, action) in enumerate(moves, start=1):
        outcome = game.apply(state, seat, action)
        state = outcome.state
        states.append(state.model_dump_json())
        entries.append(LogEntry(seq=seq, seat=seat, user_id=None, action=action,
                                events=list(outcome.events)))
    return states, entries


def dumped(entries: list[LogEntry]) -> bytes:
    return LOG_JSON.dump_json(entries)


async def play_out(tables: TableService, name: str, mode: str, players: int,
                   seed: int) -> tuple[int, list[tuple[str, Action]]]:
    """A whole random game of `name`/`mode` at the table, played by the bot for every seat."""
    game = tables.games[name]
    users = tuple(range(201, 201 + players))
    start = await started(tables, users, seed=seed, game=name, options={"mode": mode})
    gid = start.record.id
    rng = Rng.from_seed(seed)
    moves: list[tuple[str, Action]] = []
    state = start.state
    while game.result(state) is None and len(moves) < MOST_MOVES:
        seat = rng.choice(sorted(game.to_act(state)))
        action = rng.choice(game.legal_actions(state, seat))
        state = (await tables.act_as_seat(gid, seat, action)).state
        moves.append((seat, action))
    return gid, moves


@pytest.mark.parametrize(("name", "mode", "players"), MODES, ids=MODE_IDS)
async def test_snapshot_replay_equals_seed_replay_at_every_step(
    db_path: Path, clock: FakeClock, name: str, mode: str, players: int,
) -> None:
    async with SqliteStorage(db_path) as storage:
        every = 8  # small, so a short game has many snapshots and chunk edges
        tables = TableService(storage, SHIPPED, clock=clock, snapshot_every=every)
        gid, moves = await play_out(tables, name, mode, players, seed=11)
        game = SHIPPED[name]
        rec = await tables.get(gid)
        seats = [f"s{i}" for i in range(1, players + 1)]
        states, entries = seed_replay(game, seats, game.options_model.model_validate(
            rec.options), 11, moves)
        n = len(moves)
        assert n > every

        # The first log replays from the seed and stores a snapshot every `every` moves.
        assert dumped(await tables.history(gid)) == dumped(entries)
        marks = await storage.snapshot_marks(gid)
        assert [m.step for m in marks] == list(range(every, n + 1, every))
        for m in marks:
            assert await storage.snapshot_state(gid, m.step) == states[m.step]

        # At every step, the state and the log up to it, from the snapshots: by this service
        # (chunks decoded already) and, every other step, by a fresh one (decoding them).
        for step in range(n + 1):
            service = tables if step % 2 else TableService(storage, SHIPPED, clock=clock,
                                                           snapshot_every=every)
            rebuilt = await service._rebuild(await service.get(gid), step, with_log=True)
            assert rebuilt.from_step == step - step % every
            assert rebuilt.state.model_dump_json() == states[step], step
            assert dumped(rebuilt.log) == dumped(entries[:step]), step
        _, state = await tables.replay_state(gid, n - 1)
        assert state.model_dump_json() == states[n - 1]
        assert await tables.verify(gid)


async def test_undo_across_a_snapshot_boundary(storage: Storage, clock: FakeClock) -> None:
    tables = TableService(storage, GAMES, clock=clock, snapshot_every=2)
    start = await started(tables, (A, B), seed=5)
    gid = start.record.id
    # High Card for two: s1 wagers, both play (the reveal), then s2 wagers: move 4.
    await tables.act(gid, A, act("wager", amount=1))
    for seat in ("s1", "s2"):
        await tables.play_ai(gid, seat)
    await tables.act(gid, B, act("wager", amount=3))
    assert [e.seq for e in await tables.history(gid)] == [1, 2, 3, 4]
    assert [m.step for m in await storage.snapshot_marks(gid)] == [2, 4]

    undone = await tables.undo(gid, B)  # back to move 3: the snapshot at 4 goes with it
    assert undone.version == 3 and undone.undone == act("wager", amount=3)
    assert [m.step for m in await storage.snapshot_marks(gid)] == [2]
    assert await tables.verify(gid)

    # Played again differently: nothing of the taken-back move comes back from a snapshot or
    # from what this process had decoded.
    await tables.act(gid, B, act("wager", amount=2))
    log = await tables.history(gid)
    assert log[-1].action == act("wager", amount=2)
    assert [e.text for e in log[-1].events] == ["s2 sets the wager at 2."]
    marks = await storage.snapshot_marks(gid)
    assert [m.step for m in marks] == [2, 4]
    assert (await TableService(storage, GAMES, clock=clock, snapshot_every=2)
            .history(gid)) == log
    _, state = await tables.replay_state(gid, 4)
    assert state.model_dump_json() == (await tables.state(gid)).model_dump_json()

    # Undo again, with the snapshot at 4 already stored, then from the snapshot at 2 on.
    await tables.undo(gid, B)
    assert [m.step for m in await storage.snapshot_marks(gid)] == [2]
    assert await tables.verify(gid)


async def test_snapshots_are_used_and_another_engines_are_ignored(
    storage: Storage, clock: FakeClock,
) -> None:
    tables = TableService(storage, GAMES, clock=clock, snapshot_every=2)
    start = await started(tables, (A, B), seed=9)
    gid = start.record.id
    await tables.act(gid, A, act("wager", amount=2))
    for seat in ("s1", "s2"):
        await tables.play_ai(gid, seat)
    honest = await tables.history(gid)
    _, at_two = await tables.replay_state(gid, 2)
    rec = await tables.get(gid)

    def doctored(version: str) -> SnapshotRecord:
        # The state and log after move 2 as a different engine might have told them.
        state = at_two.model_copy(update={"wager": 99})
        entries = [LogEntry(seq=e.seq, seat=e.seat, user_id=e.user_id, action=e.action,
                            events=[ev.model_copy(update={"text": "(retold)"})
                                    for ev in e.events]) for e in honest[:2]]
        text = LOG_JSON.dump_json(entries).decode()
        return SnapshotRecord(game_id=gid, step=2, moves=2, engine_version=version,
                              digest=log_digest(text), state_json=state.model_dump_json(),
                              log_json=text, at=clock())

    # This engine's snapshot is what a replay starts from (so the next check can fail)...
    assert await storage.put_snapshots(gid, rec.epoch, [doctored(GAMES["highcard"].version)])
    fresh = TableService(storage, GAMES, clock=clock, snapshot_every=2)
    _, state = await fresh.replay_state(gid, 2)
    assert state.model_dump_json() != at_two.model_dump_json()
    assert [e.text for e in (await fresh.history(gid))[0].events] == ["(retold)"]

    # ...and one by another engine version is ignored: the replay starts from the seed, and
    # the snapshot is made again by this engine.
    assert await storage.put_snapshots(gid, rec.epoch, [doctored("highcard-0")])
    fresh = TableService(storage, GAMES, clock=clock, snapshot_every=2)
    _, state = await fresh.replay_state(gid, 2)
    assert state.model_dump_json() == at_two.model_dump_json()
    assert await fresh.history(gid) == honest
    [mark] = await storage.snapshot_marks(gid)
    assert mark.engine_version == GAMES["highcard"].version
    assert await storage.snapshot_state(gid, 2) == at_two.model_dump_json()


async def test_snapshots_are_not_stored_across_an_undo(storage: Storage,
                                                       clock: FakeClock) -> None:
    tables = TableService(storage, GAMES, clock=clock, snapshot_every=1)
    start = await started(tables, (A, B), seed=3)
    gid = start.record.id
    await tables.act(gid, A, act("wager", amount=1))
    rec = await tables.get(gid)
    [snap] = (await tables._rebuild(rec, 1, with_log=True)).fresh
    await tables.undo(gid, A)  # the epoch moves on: a replay begun before it is out of date
    assert await storage.put_snapshots(gid, rec.epoch, [snap]) == 0
    assert await storage.snapshot_marks(gid) == []
    await tables.act(gid, A, act("wager", amount=3))
    rec = await tables.get(gid)
    later = snap.model_copy(update={"step": 2})  # beyond the game's version: never stored
    assert await storage.put_snapshots(gid, rec.epoch, [later]) == 0


async def test_export_and_import_keep_games_replayable(storage: Storage,
                                                       clock: FakeClock) -> None:
    tables = TableService(storage, GAMES, clock=clock, snapshot_every=2)
    start = await started(tables, (A, B, C, D), seed=21, options={"rounds": 2})
    gid = start.record.id
    while (await tables.get(gid)).status == "active":
        for seat in sorted(await tables.awaited(gid)):
            await tables.play_ai(gid, seat)
    log = await tables.history(gid)
    stored = await storage.export_game(gid)
    assert [s.step for s in stored.snapshots] == list(range(2, len(log) + 1, 2))

    # Moved with its snapshots: the same log and states, from them.
    moved = await storage.import_game(stored)
    again = TableService(storage, GAMES, clock=clock, snapshot_every=2)
    assert dumped(await again.history(moved.id)) == dumped(log)
    assert (await storage.export_game(moved.id)).snapshots == [
        s.model_copy(update={"game_id": moved.id}) for s in stored.snapshots]
    for step in range(len(log) + 1):
        _, a = await tables.replay_state(gid, step)
        _, b = await again.replay_state(moved.id, step)
        assert a.model_dump_json() == b.model_dump_json()

    # A game exported before snapshots existed (the stored-game fixtures) has none: they are
    # made again when first needed.
    bare = StoredGame.model_validate(
        {k: v for k, v in stored.model_dump().items() if k != "snapshots"})
    assert bare.snapshots == []
    plain = await storage.import_game(bare)
    assert dumped(await again.history(plain.id)) == dumped(log)
    assert [m.step for m in await storage.snapshot_marks(plain.id)] == [
        s.step for s in stored.snapshots]
    assert await again.verify(plain.id)


async def test_the_bot_stores_each_snapshot_as_a_move_reaches_it(
    storage: Storage, clock: FakeClock,
) -> None:
    tables = TableService(storage, GAMES, clock=clock, snapshot_every=3, snapshot_ahead=True)
    start = await started(tables, (A, B, C), seed=13, options={"rounds": 3})
    gid = start.record.id
    lazy = TableService(storage, GAMES, clock=clock, snapshot_every=3)
    for _ in range(7):
        seat = sorted(await tables.awaited(gid))[0]
        await tables.play_ai(gid, seat)
    await tables.settle()
    # Made by the moves (in the background), before any history asked for them.
    assert [m.step for m in await storage.snapshot_marks(gid)] == [3, 6]
    _, state = await lazy.replay_state(gid, 6)
    assert await storage.snapshot_state(gid, 6) == state.model_dump_json()
    assert await lazy.verify(gid)
    assert dumped(await lazy.history(gid)) == dumped(
        await TableService(storage, GAMES, clock=clock, snapshot_every=1000).history(gid))


async def test_snapshots_of_another_interval_are_not_read_as_this_ones(
    storage: Storage, clock: FakeClock,
) -> None:
    """A bot whose interval changed (2 → 4): the chunk stored at 4 covers moves 3–4 only, so
    the new interval's log does not start from it (it would lose moves 1–2)."""
    two = TableService(storage, GAMES, clock=clock, snapshot_every=2)
    start = await started(tables=two, users=(A, B), seed=17, options={"rounds": 2})
    gid = start.record.id
    for _ in range(5):
        await two.play_ai(gid, sorted(await two.awaited(gid))[0])
    log = await two.history(gid)
    assert [m.step for m in await storage.snapshot_marks(gid)] == [2, 4]
    four = TableService(storage, GAMES, clock=clock, snapshot_every=4)
    assert dumped(await four.history(gid)) == dumped(log)
    assert [(m.step, m.moves) for m in await storage.snapshot_marks(gid)] == [(2, 2), (4, 4)]
    assert dumped(await four.history(gid)) == dumped(log)
