"""`/game list` and the bot's start-up with many stored games (issue #25, item 3).

`seed_games` writes a SQLite database as a busy bot would have it after a long life: 10,000
games, 1,700 of them open in one server (active games mid-play and lobbies), the rest finished
or abandoned there and in fifty other servers. Every game's state is a real one (a game of
each mode played some moves in by the AI, through the table service) copied row by row, so
rows are as large as the bot's own. `bench_list` then times `/game list`'s work on it as the
bot does it (the page read from storage, the embed and buttons built) at the first, middle and
last pages, beside the whole-row read it replaced; and the bot's start-up (its process started
until connected with its commands synced, against the emulator) with that database and with an
empty one.
"""

from __future__ import annotations

import asyncio
import random
import shutil
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.engine import default_players, modes
from bench.footprint import _new_game, _play
from bench.stats import ms_full
from bot.storage import LIVE, SqliteStorage
from bot.tables import TableService

BUSY_GUILD = 1
"""The server with the 1,700 open games (the template games' own server)."""
_COLUMNS = ("guild_id, channel_id, thread_id, game, options, status, state, version, seed, "
            "created_by, engine_version, settings, board_message_id, created_at, updated_at, "
            "next_reminder_at, reminder_stage, awaited_since, epoch, board_version, board_post")


async def _templates(path: Path, moves: int) -> list[int]:
    """One started game of each game and mode, `moves` AI moves in: their ids."""
    storage = SqliteStorage(path)
    await storage.open()
    try:
        tables = TableService(storage, cache_games=8)
        ids = []
        for n, (name, mode) in enumerate(modes()):
            gid = await _new_game(tables, name, mode, default_players(name, mode), n, n)
            await _play(tables, gid, name, moves)
            ids.append(gid)
        return ids
    finally:
        await storage.close()


def seed_games(path: Path, total: int = 10_000, open_here: int = 1_700,
               lobbies_here: int | None = None, moves: int = 12,
               now: float | None = None) -> dict[str, Any]:
    """Write `total` games into a new database at `path`: `open_here` open in `BUSY_GUILD`
    (`lobbies_here` of them lobbies, 300 of 1,700 by default; the rest active), as many
    finished there again, the rest across fifty other servers, a fifth of those open. Boards
    are up to date and reminders ahead, so a bot starting on it has no backlog to work
    through."""
    now = time.time() if now is None else now
    lobbies_here = open_here * 3 // 17 if lobbies_here is None else lobbies_here
    templates = asyncio.run(_templates(path, moves))
    rng = random.Random(25)
    con = sqlite3.connect(path)
    try:
        con.execute("PRAGMA synchronous = OFF")
        first = int(con.execute("SELECT MAX(id) FROM games").fetchone()[0]) + 1
        wanted = total - len(templates)
        busy_open = open_here - len(templates)  # the templates are active in the busy server
        busy_closed = min(open_here, wanted - busy_open)
        games: list[tuple[Any, ...]] = []
        seats: list[tuple[int, int]] = []
        for n in range(wanted):
            gid, template = first + n, templates[n % len(templates)]
            if n < busy_open:
                guild, status = BUSY_GUILD, "lobby" if n < lobbies_here else "active"
            elif n < busy_open + busy_closed:
                guild, status = BUSY_GUILD, rng.choice(("over", "over", "abandoned"))
            else:
                guild = 2 + n % 50
                status = rng.choice(("active", "over", "over", "over", "abandoned"))
            since = now - rng.uniform(60, 14 * 86400) if status == "active" else None
            reminder = now + rng.uniform(3600, 12 * 3600) if status == "active" else None
            games.append((gid, guild, 2 + guild, 10_000_000 + gid, status, since, reminder,
                          status == "lobby", template))
            seats.append((gid, template))
        con.executemany(
            f"INSERT INTO games (id, {_COLUMNS}) SELECT ?, ?, ?, ?, game, options, ?, "
            "CASE WHEN ? THEN NULL ELSE state END, version, seed, created_by, engine_version, "
            "settings, board_message_id, created_at, updated_at, ?, 0, ?, epoch, version, "
            "board_post FROM games WHERE id = ?",
            [(g[0], g[1], g[2], g[3], g[4], g[7], g[6], g[5], g[8]) for g in games])
        con.executemany(
            "INSERT INTO seats (game_id, seat, user_id, position, joined_at, dms_ok, role_pref, "
            "ai_standin) SELECT ?, seat, user_id, position, joined_at, dms_ok, role_pref, "
            "ai_standin FROM seats WHERE game_id = ?", seats)
        con.commit()
        counts = dict(con.execute("SELECT status, COUNT(*) FROM games WHERE guild_id = ? "
                                  "GROUP BY status", (BUSY_GUILD,)).fetchall())
        stored = int(con.execute("SELECT COUNT(*) FROM games").fetchone()[0])
        state_kb = con.execute("SELECT AVG(LENGTH(state)) FROM games WHERE state IS NOT NULL"
                               ).fetchone()[0] / 1024
    finally:
        con.close()
    return {"games": stored, "busy_server": counts, "state_kb_mean": round(state_kb, 1),
            "db_mib": round(path.stat().st_size / 2**20, 1)}


async def _time_list(path: Path, calls: int) -> dict[str, Any]:
    from cogs.utils.gamelist import PER_PAGE, list_embed, list_view

    storage = SqliteStorage(path, keep_reads=True)  # as the bot opens it
    await storage.open()
    try:
        pages = (await storage.open_games(BUSY_GUILD, 0, PER_PAGE)).pages
        out: dict[str, Any] = {"pages": pages, "per_page": PER_PAGE}
        for where, page in (("first page", 0), ("middle page", pages // 2),
                            ("last page", pages - 1)):
            wall: list[float] = []
            cpu: list[float] = []
            for _ in range(calls):
                t0, c0 = time.perf_counter(), time.process_time()
                shown = await storage.open_games(BUSY_GUILD, page, PER_PAGE)
                list_embed(shown).to_dict()
                list_view(shown)
                wall.append(time.perf_counter() - t0)
                cpu.append(time.process_time() - c0)
            out[where] = {**ms_full(wall), "cpu_p50_ms": round(
                statistics.median(cpu) * 1000, 3)}
        before: list[float] = []
        for _ in range(max(3, calls // 20)):  # the whole-row read `/game list` made before
            t0 = time.perf_counter()
            await storage.list_games(BUSY_GUILD, LIVE)
            before.append(time.perf_counter() - t0)
        out["whole_rows_before"] = ms_full(before)
        return out
    finally:
        await storage.close()


async def _start_up(db: Path | None, runs: int) -> list[float]:
    """Seconds from starting the bot's process to connected with its commands synced."""
    from bench.roundtrip import BotProcess
    from emulator import DiscordEmulator

    took = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as tmp:
            async with DiscordEmulator() as emu:
                proc = BotProcess(emu, bare=False, workdir=Path(tmp), probe_interval=0.05)
                if db is not None:
                    shutil.copy(db, proc.db)
                t0 = time.perf_counter()
                try:
                    await proc.start(timeout=120)
                    took.append(time.perf_counter() - t0)
                    await emu.settle(quiet=0.3, timeout=30)  # its ready work, before stopping
                finally:
                    await proc.stop()
    return took


def bench_list(total: int = 10_000, open_here: int = 1_700, calls: int = 200,
               start_runs: int = 2) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "many.sqlite3"
        t0 = time.perf_counter()
        seeded = seed_games(db, total, open_here)
        seeded["seed_s"] = round(time.perf_counter() - t0, 1)
        listed = asyncio.run(_time_list(db, calls))
        many = asyncio.run(_start_up(db, start_runs))
        empty = asyncio.run(_start_up(None, start_runs))
    return {"seeded": seeded, "list": listed,
            "start_up_s": {"stored_games": round(statistics.median(many), 2),
                           "empty_database": round(statistics.median(empty), 2),
                           "runs": [round(s, 2) for s in many]}}
