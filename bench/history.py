"""History benchmark (issue #25, item 2): `/game log`, `/game replay` and `/game undo` at move 20
and at move 2,000, beside the target (at 2,000 within 1.5× of their cost at 20).

No shipped game lasts 2,000 moves, so the long game is a *marathon*: a real game and mode
(Exorcism, core, three seats) dealt again with the next seed each time a round of it ends, so
every move costs what a real move costs. It is played at random by the engine, stored through
the table service, and timed through the table service's own calls (`history`,
`replay_state`, `undo`) on the production SQLite settings, at each snapshot interval asked for:

- `first`: the first `/game log` of a game without snapshots (a game from before them): one
  replay from the deal, which stores the snapshots;
- then the steady cost, median of repeats: by the same service (chunks decoded already) and
  by a fresh one (decoding them from storage), at the move measured and at the worst place in
  a chunk (SNAPSHOT_EVERY − 1 moves past a snapshot);
- the event loop's worst lag while they ran (the replay runs in a thread), beside the same
  probe's over a second of doing nothing (the shared machine's own stalls).
"""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, ClassVar, Literal, cast

from pydantic import create_model

from bot.looplag import LoopLagProbe, freeze_startup_heap
from bot.storage import SqliteStorage, StoredGame
from bot.tables import TableService
from rules.core import Action, Event, Result, Rng
from rules.core.game import Game, GameOptions, GameState
from rules.registry import GAMES

TARGET = 1.5
"""At move 2,000 within this multiple of the cost at move 20 (issue #25)."""
USERS = (9001, 9002, 9003)


class MarathonOptions(GameOptions):
    mode: Literal["marathon"] = "marathon"


def marathon(inner_name: str = "exorcism", inner_mode: str = "core") -> Game[Any, Any]:
    """A game that plays `inner_name`/`inner_mode` round after round and never ends."""
    inner = GAMES[inner_name]
    inner_options = inner.options_model(mode=inner_mode)
    state_model = cast(type[GameState], create_model(
        "MarathonState", __base__=GameState, inner=(inner.state_model, ...), round=(int, 1),
        seed=(int, 0)))

    class Marathon(Game[MarathonOptions, Any]):
        name: ClassVar[str] = "marathon"
        title: ClassVar[str] = f"Marathon of {inner.title}"
        version: ClassVar[str] = f"marathon-1~{inner.version}"
        modes: ClassVar[tuple[str, ...]] = ("marathon",)
        rule_prefix: ClassVar[str] = "MR"
        options_model = MarathonOptions

        def player_counts(self, options: MarathonOptions) -> set[int]:
            return inner.player_counts(inner_options)

        def setup(self, seats: list[str], options: MarathonOptions, seed: int) -> Any:
            return state_model(seats=list(seats), inner=inner.setup(seats, inner_options, seed),
                               seed=seed)

        def to_act(self, state: Any) -> set[str]:
            return inner.to_act(state.inner)

        def legal_actions(self, state: Any, seat: str) -> list[Action]:
            return inner.legal_actions(state.inner, seat)

        def may_act(self, state: Any, seat: str) -> bool:
            return inner.may_act(state.inner, seat)

        def view(self, state: Any, seat: str | None) -> dict[str, Any]:
            return {**inner.view(state.inner, seat), "round": state.round}

        def result(self, state: Any) -> Result | None:
            return None

        def public_secrets(self, state: Any) -> list[str]:
            return inner.public_secrets(state.inner)

        def _resample(self, state: Any, seat: str | None, rng: Rng) -> Any:
            return state.model_copy(update={"inner": inner.resample(state.inner, seat, rng)})

        def undo_refusal(self, before: Any, seat: str, action: Action, after: Any,
                         events: list[Event]) -> str | None:
            hook = getattr(inner, "undo_refusal", None)
            if not callable(hook) or before.round != after.round:
                return "A new round was dealt." if before.round != after.round else None
            reason = hook(before.inner, seat, action, after.inner, events)
            return None if reason is None else str(reason)

        def _apply(self, state: Any, seat: str, action: Action) -> list[Event]:
            events = inner.apply_in_place(state.inner, seat, action)
            if inner.result(state.inner) is not None:
                state.round += 1
                state.inner = inner.setup(list(state.seats), inner_options,
                                          state.seed + state.round)
                events.append(Event(kind="round", text=f"Round {state.round} is dealt."))
            return events

    game = Marathon()
    game.state_model = state_model
    return game


async def _timed(calls: int, run: Callable[[], Awaitable[Any]],
                 between: Callable[[], Awaitable[Any]] | None = None) -> dict[str, float]:
    """Median wall and CPU (the whole process, threads included) of `calls` runs."""
    walls: list[float] = []
    cpus: list[float] = []
    for _ in range(calls):
        w, c = time.perf_counter(), time.process_time()
        await run()
        walls.append(time.perf_counter() - w)
        cpus.append(time.process_time() - c)
        if between is not None:
            await between()
    return {"wall_ms": round(statistics.median(walls) * 1000, 3),
            "cpu_ms": round(statistics.median(cpus) * 1000, 3)}


def _playout(game: Game[Any, Any], length: int, seed: int) -> list[tuple[str, Action]]:
    """`length` random moves (seat, action)."""
    seats = [f"s{i}" for i in range(1, len(USERS) + 1)]
    state = game.setup(seats, game.options_model(), seed)
    rng = Rng.from_seed(seed)
    moves: list[tuple[str, Action]] = []
    while len(moves) < length:
        seat = rng.choice(sorted(game.to_act(state)))
        action = rng.choice(game.legal_actions(state, seat))
        outcome = game.apply(state, seat, action)
        moves.append((seat, action))
        state = outcome.state
    return moves


def _undoable(game: Game[Any, Any], moves: list[tuple[str, Action]], seed: int,
              at_least: int) -> int:
    """The first move at or after `at_least` its player may take back."""
    seats = [f"s{i}" for i in range(1, len(USERS) + 1)]
    state = game.setup(seats, game.options_model(), seed)
    for seq, (seat, action) in enumerate(moves, start=1):
        outcome = game.apply(state, seat, action)
        if seq >= at_least and TableService._undo_refusal(
                game, state, seat, action, outcome.state, list(outcome.events)) is None:
            return seq
        state = outcome.state
    raise RuntimeError(f"no move past {at_least} can be undone")


async def _stored(tables: TableService, moves: list[tuple[str, Action]],
                  upto: int, seed: int) -> int:
    """The marathon played to move `upto` at the table (each move by its seat's player)."""
    rec = await tables.create(1, 2, None, "marathon", {}, USERS[0])
    for joining in USERS[1:]:
        await tables.join(rec.id, joining)
    start = await tables.start(rec.id, USERS[0], seed=seed)
    for seat, action in moves[:upto]:
        user = start.users[seat]
        assert user is not None
        await tables.act(rec.id, user, action)
    return rec.id


async def _timed_op(repeats: int, run: Callable[[], Awaitable[Any]],
                   between: Callable[[], Awaitable[Any]] | None = None) -> dict[str, float]:
    """`_timed` with the event loop's worst lag while it ran."""
    probe = LoopLagProbe(interval=0.001).start()
    out = await _timed(repeats, run, between)
    return {**out, "loop_lag_max_ms": (await probe.stop()).max_ms}


async def _measure_point(storage: SqliteStorage, games: dict[str, Game[Any, Any]],
                         stored: StoredGame, at: int, every: int,
                         repeats: int) -> dict[str, Any]:
    """Every figure for one game stopped at move `at`."""
    gid = (await storage.import_game(stored)).id
    tables = TableService(storage, games, snapshot_every=every)
    row: dict[str, Any] = {"move": at}
    probe = LoopLagProbe(interval=0.001).start()
    w, c = time.perf_counter(), time.process_time()
    log = await tables.history(gid)
    row["first_log"] = {"wall_ms": round((time.perf_counter() - w) * 1000, 3),
                        "cpu_ms": round((time.process_time() - c) * 1000, 3),
                        "loop_lag_max_ms": (await probe.stop()).max_ms}
    assert len(log) == at
    row["log"] = await _timed_op(repeats, lambda: tables.history(gid))
    row["log_fresh_service"] = await _timed_op(repeats, lambda: TableService(
        storage, games, snapshot_every=every).history(gid))
    row["replay"] = await _timed_op(repeats, lambda: tables.replay_state(gid, at))
    # The most moves past a snapshot at or below the measured move.
    worst = at if at % every == every - 1 or at < every else at - at % every - 1
    row["worst_step"] = worst
    if worst >= every:
        row["replay_worst"] = await _timed_op(repeats, lambda: tables.replay_state(gid, worst))
        row["log_worst"] = await _timed_op(repeats,
                                           lambda: tables.history(gid, upto_seq=worst))
    last = (await storage.actions(gid, after_seq=at - 1, upto_seq=at))[0]
    user = last.user_id
    assert user is not None
    redo = Action.model_validate_json(last.action_json)

    async def undo() -> None:
        await tables.undo(gid, user)

    async def again() -> None:
        await tables.act(gid, user, redo)

    row["undo"] = await _timed_op(repeats, undo, between=again)
    return row


async def _measure(path: Path, game: Game[Any, Any], stored: dict[int, StoredGame],
                   points: dict[int, int], every: int, repeats: int) -> dict[str, Any]:
    """Every figure at one snapshot interval, on copies of the stored games."""
    games = {game.name: game}
    out: dict[str, Any] = {"snapshot_every": every}
    async with SqliteStorage(path, keep_reads=True) as storage:
        for target, at in points.items():
            out[str(target)] = await _measure_point(storage, games, stored[target], at, every,
                                                    repeats)
    short, long = out[str(min(points))], out[str(max(points))]
    # The long game's figures over the short one's (its worst chunk places over the
    # short game's plain figures: a 20-move game replays from the deal).
    pairs = {"log": "log", "log_fresh_service": "log_fresh_service", "replay": "replay",
             "undo": "undo", "replay_worst": "replay", "log_worst": "log"}
    out["ratio_long_over_short_cpu"] = {
        op: round(long[op]["cpu_ms"] / max(short[base]["cpu_ms"], 1e-6), 2)
        for op, base in pairs.items() if op in long}
    return out


async def bench_history(short: int = 20, long: int = 2000, everies: tuple[int, ...] = (32,),
                        repeats: int = 15, seed: int = 7) -> dict[str, Any]:
    """`/game log`, `/game replay`, `/game undo` at move `short` and at move `long` of a
    marathon, at each snapshot interval of `everies`."""
    game = marathon()
    moves = _playout(game, long + 400, seed)
    points = {target: _undoable(game, moves, seed, target) for target in (short, long)}
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "build.db"
        stored: dict[int, StoredGame] = {}
        async with SqliteStorage(base) as storage:
            tables = TableService(storage, {game.name: game})
            for target, at in points.items():
                gid = await _stored(tables, moves, at, seed)
                export = await storage.export_game(gid)
                stored[target] = export.model_copy(update={"snapshots": []})
        # As the bot does before it connects (bot/client.py): what is alive now (the
        # playout, modules) leaves the collector's full collections.
        freeze_startup_heap()
        # The machine's own stalls: the same probe over a second of doing nothing.
        probe = LoopLagProbe(interval=0.001).start()
        await asyncio.sleep(1.0)
        idle = (await probe.stop()).max_ms
        results = [await _measure(Path(tmp) / f"every-{every}.db", game, stored, points,
                                  every, repeats) for every in everies]
    return {"game": f"{game.title} (3 seats, random moves)", "short": short, "long": long,
            "target_ratio": TARGET, "idle_loop_lag_max_ms": idle,
            "by_snapshot_every": results}
