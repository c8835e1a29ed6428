"""Memory per active game: the real bot's process tree as games are added one after another.

The bot runs in its own process (`bench.botproc`) against the local Discord emulator, as in
the round-trip sections. Games are opened one after another (every game and mode of
`bench.roundtrip.TABLES` in turn), each started and played a few moves by its emulated
players, and left running: after each game the resident memory of every process of the bot's
tree is read (the bot, its render worker, its AI worker if one started). The figure is the
growth per added game — the least-squares slope of RSS over games 2–21, 7–26 and 21–41
(the first game starts the render worker, so it is left out) — per process and for the tree,
beside issue #25's target of 0.3 MiB per active game, which holds from game 7 on: games 2–6
are each kind's first (`ONE_TIME_WINDOWS`), a one-time jump per kind and process.

The saturation section's "MiB per game" divides the growth of 500 games by 500, where the
render worker's bounded caches, full after a dozen games, weigh nothing; this section shows
the first games, where they fill.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from pathlib import Path
from typing import Any

from bench.roundtrip import (
    TABLES,
    Stamps,
    Table,
    _new_tables,
    _players_db,
    bot_against_emulator,
    tree_pids,
)
from rules.registry import GAMES

TARGET_MIB_PER_GAME = 0.3
"""Issue #25: at most this much more resident memory per active game."""

WINDOWS: tuple[tuple[int, int], ...] = ((2, 21), (7, 26), (21, 41))
ONE_TIME_WINDOWS: tuple[str, ...] = ("2-21",)
"""Windows that hold a game kind's first game (games 2–6: the first of each kind after the
first): a one-time jump per kind and process, not a cost per active game. The first Presence
game adds 3.1–3.3 MiB to the bot (no module is imported then; tracemalloc sees 0.4 MiB of
Python objects, the rest is native: pydantic-core or the allocator, not pinned down at stop
32; later Presence games add 0.26–0.46) and 2.9 MiB to the render worker, the first Fourth
Wall game 4.5 MiB to the render worker (its renderer's art and bounded caches). Printed, not
held to the target, which the windows from game 7 on (every kind played once) are."""
"""Games (1-based, inclusive) over which the growth per game is fitted."""

ROLES = ("bot", "render", "ai")

AI_WAIT_SECONDS = 30.0
"""How long an AI seat may take to move (its think pause, a worker's start) before the game
counts a failure and the next game opens."""


def _status_kib(pid: int, field: str) -> int:
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field):
                return int(line.split()[1])
    return 0


def _role(pid: int, root: int) -> str:
    """What a process of the bot's tree is: the bot, a render worker, an AI worker."""
    if pid == root:
        return "bot"
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return "gone"
    for role in ("render", "ai"):
        if f"role={role!r}".encode() in cmdline:
            return role
    return "other"


def per_process(root: int) -> dict[str, float]:
    """RSS in MiB of each kind of process in `root`'s tree (summed if there are several of a
    kind), and the tree's whole RSS and PSS."""
    out: dict[str, float] = {}
    pss = 0
    for pid in tree_pids(root):
        role = _role(pid, root)
        if role == "gone":
            continue
        out[role] = out.get(role, 0.0) + _status_kib(pid, "VmRSS:") / 1024
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    pss += int(line.split()[1])
    rounded = {k: round(v, 2) for k, v in out.items()}
    rounded["tree"] = round(sum(out.values()), 2)
    rounded["tree_pss"] = round(pss / 1024, 2)
    return rounded


async def at_rest(root: int, pause: float) -> dict[str, float]:
    """`per_process` at rest: the smaller of two readings `pause` apart, per figure. A worker
    caught drawing a late picture (a reminder's, an AI move's) holds its scratch images for a
    moment; memory a game really keeps is there in both readings."""
    first = per_process(root)
    await asyncio.sleep(pause)
    second = per_process(root)
    return {k: min(v, second.get(k, v)) for k, v in first.items()} | {
        k: v for k, v in second.items() if k not in first}


def slope(points: list[tuple[int, float]]) -> float | None:
    """Least-squares growth per game of (game, MiB) points: one stray reading moves it far
    less than a difference of two ends would."""
    if len(points) < 2:
        return None
    n = len(points)
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    sxx = sum((x - mx) ** 2 for x, _ in points)
    if not sxx:
        return None
    return sum((x - mx) * (y - my) for x, y in points) / sxx


def growth(rows: list[dict[str, Any]]) -> dict[str, dict[str, float | None]]:
    """MiB per added game over each of `WINDOWS`, per kind of process and for the tree."""
    out: dict[str, dict[str, float | None]] = {}
    kinds = [k for k in (*ROLES, "other", "tree", "tree_pss")
             if any(k in r["rss_mib"] for r in rows)]
    for first, last in WINDOWS:
        chosen = [r for r in rows if first <= r["game"] <= last]
        if len(chosen) < 2 or chosen[-1]["game"] < last:
            continue
        window: dict[str, float | None] = {}
        for kind in kinds:
            # A process absent at a reading (the AI worker before it started) counts 0.
            fitted = slope([(r["game"], r["rss_mib"].get(kind, 0.0)) for r in chosen])
            window[kind] = None if fitted is None else round(fitted, 3)
        out[f"{first}-{last}"] = window
    return out


def _within(value: float | None) -> bool | None:
    return None if value is None else value <= TARGET_MIB_PER_GAME


async def _play(table: Table, moves: int) -> int:
    """`moves` moves of `table`'s game (its AI seat's included), or to its end."""
    made = 0
    while made < moves:
        status, state = table._state()
        game = GAMES[table.name]
        if status != "active" or state is None or not game.to_act(state):
            break
        seat = sorted(game.to_act(state))[0]
        if seat in table.seat_users:
            if await table.move() is None:
                break
        else:  # the AI seat's move: the bot plays it after its think pause
            step = state.step
            deadline = time.monotonic() + AI_WAIT_SECONDS
            while (now := table._state())[1] is not None and now[1].step == step:
                if time.monotonic() > deadline:
                    table.failures.append(f"{table.name}/{table.mode}: the AI seat {seat} "
                                          f"did not move in {AI_WAIT_SECONDS:.0f} s")
                    return made
                await asyncio.sleep(0.05)
        made += 1
    return made


async def bench_pergame(games: int = 41, moves: int = 4, settle: float = 0.5,
                        ai_every: int = 0) -> dict[str, Any]:
    """`games` games opened one after another in the real bot, each started and played
    `moves` moves, all left running; the tree's memory per process after each. `ai_every`:
    every so many games (the first included) one seat is an easy AI's instead of a player's,
    so the AI worker starts and is measured too (0: no AI seat, no AI worker)."""
    rows: list[dict[str, Any]] = []
    load_began = os.getloadavg()[0]
    began = time.perf_counter()
    async with bot_against_emulator(bare=False, probe_interval=0.05) as (emu, proc):
        assert proc.proc is not None
        root = proc.proc.pid
        await emu.settle(quiet=0.3, timeout=30)
        after_start = per_process(root)
        stamps = Stamps(emu)
        db = _players_db(proc)
        tables = _new_tables(emu, stamps, db, games, TABLES, prefix="g")
        for n, table in enumerate(tables):
            if ai_every and n % ai_every == 0 and len(table.users) > 1:
                table.users.pop()
                table.new_options = {"ai": 1, "ai_level": "easy"}
        await emu.settle()
        failures: list[str] = []
        try:
            for n, table in enumerate(tables, 1):
                await table.open()
                made = await _play(table, moves)
                # An AI seat may move after the counted moves, once its think pause is over
                # (`ai_think_seconds`, 0.6 s): read after its board too, not while it is drawn.
                await emu.settle(quiet=1.5 if table.new_options else 0.2, timeout=30)
                # The render worker hands freed pages back once it goes idle: read after that.
                await asyncio.sleep(settle)
                failures += table.failures
                rows.append({"game": n, "kind": f"{table.name}/{table.mode}", "moves": made,
                             "ai_seat": bool(table.new_options),
                             "rss_mib": await at_rest(root, settle)})
                print(f"pergame: game {n} ({table.name}/{table.mode}, {made} moves): "
                      f"{rows[-1]['rss_mib']}", flush=True)
        finally:
            db.close()
    load_ended = os.getloadavg()[0]
    per_game = growth(rows)
    return {
        "games": games, "moves_per_game": moves, "ai_seat_every": ai_every,
        "seconds": round(time.perf_counter() - began, 1),
        "after_start": after_start,
        "after_games": rows,
        "mib_per_game": per_game,
        "target_mib_per_game": TARGET_MIB_PER_GAME,
        "met": {w: _within(v.get("tree")) for w, v in per_game.items()
                if w not in ONE_TIME_WINDOWS},
        "one_time_windows": list(ONE_TIME_WINDOWS),
        "failures": len(failures), "failure_examples": failures[:3],
        "load_average": round((load_began + load_ended) / 2, 2),
    }
