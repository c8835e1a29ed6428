"""Memory and storage benchmarks: what a game costs the bot to hold and to keep.

`bench_memory` loads many started games (each a few AI moves in) through the table service
in a fresh interpreter and reports the resident-set growth per loaded game. `bench_storage`
plays whole AI games through the table service on the production SQLite settings (WAL,
`synchronous = NORMAL`, reads kept between moves) and reports the bytes stored per game and
the time one persisted action takes (`Storage.append_action`: the transaction that appends
the action and writes the new state).
"""

from __future__ import annotations

import asyncio
import gc
import multiprocessing
import statistics
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from bench.engine import default_players, modes
from bench.stats import ms
from bot.storage import SqliteStorage
from bot.tables import TableService
from rules.registry import GAMES


def rss_bytes() -> int:
    """This process's resident set size (Linux /proc)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


async def _new_game(tables: TableService, name: str, mode: str, players: int, n: int,
                    seed: int) -> int:
    first = 1000 * n + 1
    rec = await tables.create(1, 2, 10_000 + n, name, {"mode": mode}, first)
    for user in range(first + 1, first + players):
        await tables.join(rec.id, user)
    await tables.start(rec.id, first, seed=seed)
    return rec.id


async def _play(tables: TableService, gid: int, name: str, moves: int | None) -> int:
    """AI moves for whoever is awaited, `moves` of them or to the end; returns moves made."""
    game = GAMES[name]
    made = 0
    while moves is None or made < moves:
        state = await tables.state(gid)
        if game.result(state) is not None or not game.to_act(state):
            break
        seat = sorted(game.to_act(state))[0]
        await tables.act_as_seat(gid, seat, game.ai_action(state, seat))
        made += 1
    return made


async def _memory(games: int, moves: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        storage = SqliteStorage(Path(tmp) / "memory.sqlite3")
        await storage.open()
        # Durability is not what this measures: let the set-up write without fsyncs.
        await storage.db.exec_driver_sql("PRAGMA synchronous = OFF")
        writer = TableService(storage, cache_games=8)
        pairs = modes()
        ids: list[tuple[int, str]] = []
        for n in range(games):
            name, mode = pairs[n % len(pairs)]
            gid = await _new_game(writer, name, mode, default_players(name, mode), n, n)
            await _play(writer, gid, name, moves % 7 + n % moves if moves else 0)
            ids.append((gid, name))
        # A fresh service with room for every game: each state loaded stays held, as it would
        # for a bot whose cache covers all its active games.
        tables = TableService(storage, cache_games=games + 1)
        await tables.state(ids[0][0])
        gc.collect()
        before = rss_bytes()
        state_chars = 0
        for gid, _ in ids:
            state_chars += len((await tables.state(gid)).model_dump_json())
        gc.collect()
        after = rss_bytes()
        await storage.close()
    return {"games": games, "rss_before_mb": round(before / 2**20, 2),
            "rss_after_mb": round(after / 2**20, 2),
            "rss_per_game_kb": round((after - before) / games / 1024, 2),
            "state_json_per_game_kb": round(state_chars / games / 1024, 2),
            "note": "one cached version per game; the bot keeps up to 6 recent versions per "
                    "game and 128 games by default (TableService cache)"}


def _memory_in_fresh_process(games: int, moves: int) -> dict[str, Any]:
    return asyncio.run(_memory(games, moves))


def bench_memory(games: int = 1000, moves: int = 10) -> dict[str, Any]:
    """RSS growth per loaded game, measured in a freshly spawned interpreter."""
    ctx = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=1, mp_context=ctx) as pool:
        return pool.submit(_memory_in_fresh_process, games, moves).result()


async def _db_bytes(storage: SqliteStorage) -> int:
    db = storage.db
    await db.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
    pages = (await db.exec_driver_sql("PRAGMA page_count")).scalar_one()
    size = (await db.exec_driver_sql("PRAGMA page_size")).scalar_one()
    return int(pages) * int(size)


async def _storage(games_per_mode: int, pairs: list[tuple[str, str]]) -> dict[str, Any]:
    rows: list[dict[str, Any]] = []
    append_t: list[float] = []
    append_cpu: list[float] = []
    act_t: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        storage = SqliteStorage(Path(tmp) / "storage.sqlite3", keep_reads=True)  # as the bot
        await storage.open()
        original = storage.append_action

        async def timed_append(*args: Any, **kwargs: Any) -> Any:
            t0, c0 = time.perf_counter(), time.process_time()
            try:
                return await original(*args, **kwargs)
            finally:
                append_t.append(time.perf_counter() - t0)
                # CPU of every thread (the event loop's and SQLite's): nothing else runs here.
                append_cpu.append(time.process_time() - c0)

        storage.append_action = timed_append  # type: ignore[method-assign]
        tables = TableService(storage, snapshot_ahead=True)  # as the bot
        n = 0
        for name, mode in pairs:
            for _ in range(games_per_mode):
                n += 1
                before = await _db_bytes(storage)
                gid = await _new_game(tables, name, mode, default_players(name, mode), n, n)
                t0 = time.perf_counter()
                made = await _play(tables, gid, name, None)
                act_t.append((time.perf_counter() - t0) / max(1, made))
                await tables.settle()
                after = await _db_bytes(storage)
                shots = (await storage.export_game(gid)).snapshots
                logged = sum(len(a.action_json) for a in await storage.actions(gid))
                rec = await storage.get_game(gid)
                rows.append({"game": name, "mode": mode, "actions": made,
                             "db_bytes_growth": after - before, "action_log_bytes": logged,
                             "final_state_bytes": len(rec.state_json or "") if rec else 0,
                             "snapshots": len(shots), "snapshot_json_bytes": sum(
                                 len(p.state_json) + len(p.log_json) for p in shots)})
        await storage.close()
    return {
        "games": rows,
        "stored_bytes_per_game_median": int(statistics.median(r["db_bytes_growth"]
                                                              for r in rows)),
        "stored_bytes_per_game_max": max(r["db_bytes_growth"] for r in rows),
        "snapshot_json_bytes_per_game_median": int(statistics.median(r["snapshot_json_bytes"]
                                                                for r in rows)),
        "append_action": {**ms(append_t), "n": len(append_t)},
        "append_action_cpu": ms(append_cpu),
        "table_act_mean_ms": round(statistics.mean(act_t) * 1000, 3) if act_t else 0.0,
        "sqlite": "WAL, synchronous=NORMAL (as the bot runs it), on this machine's disk",
    }


def bench_storage(games_per_mode: int = 1,
                  pairs: list[tuple[str, str]] | None = None) -> dict[str, Any]:
    """Whole games per (game, mode) in `pairs` (default: every game and mode)."""
    return asyncio.run(_storage(games_per_mode, pairs or modes()))
