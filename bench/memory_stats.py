"""`python -m bench memory`: `/game stats` and `/game history` on a server with 10,000
finished games (issue #24's target: each answers within a second).

Seeds one SQLite database (a temporary file) with finished games in one server, written as the
bot writes them when a game ends (`bot.memory.record`: the result, its seats, the ratings it
moves), then times what each command does before Discord sees it: the storage read and the
words (or embed) of the answer. p50 and p99 over repeated calls, beside the 1 s target.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from bench.stats import ms_full
from bot import memory
from bot.memory import GameResult, SeatResult
from bot.storage import SqliteStorage
from cogs.utils.memory import history_embed, player_text, server_text

GUILD = 424_242
TARGET_MS = 1000.0
HOST = 10_000
"""Sits at every table: the worst case for `/game stats` (10,000 games of one player)."""
PLAYERS = [10_001 + i for i in range(40)]
TABLES: list[tuple[str, str, int, tuple[str, str] | None]] = [
    # (game, mode, seats, (opposing role, the others) or None for co-op)
    ("exorcism", "one_vs_all", 3, ("Ghost player", "Investigator")),
    ("exorcism", "core", 2, None),
    ("fourth_wall", "conflict", 2, ("Wall player", "Investigator player")),
    ("fourth_wall", "alliance", 2, None),
    ("presence", "session", 4, ("Spirit", "Visitor")),
]
CHARACTERS = ["Photographer", "Psychologist", "Architect", "Doctor", "Medium", "Journalist"]


def fake_result(game_id: int, rng: random.Random, at: float) -> GameResult:
    """One finished game as the bot would keep it: who sat where, who won, how fast."""
    game, mode, n, roles = rng.choice(TABLES)
    people = [HOST, *rng.sample(PLAYERS, n - 1)]
    rng.shuffle(people)
    ai = rng.random() < 0.1
    abandoned = rng.random() < 0.03
    role_won = rng.random() < 0.5
    seats = []
    for i, user in enumerate(people):
        role = (roles[0] if i == 0 else roles[1]) if roles else "Player"
        won = role_won if (roles is None or i == 0) else not role_won
        seats.append(SeatResult(
            seat=f"s{i + 1}", position=i, user_id=None if ai and i == n - 1 else user,
            role=role, side=role if roles else "table",
            outcome=None if abandoned else ("won" if won else "lost"),
            ai=ai and i == n - 1, character=rng.choice(CHARACTERS) if i else None,
            moves=rng.randint(20, 120), move_seconds=rng.uniform(30, 20_000)))
    return GameResult(game_id=game_id, guild_id=GUILD, thread_id=900_000 + game_id, game=game,
                      mode=mode, started_at=at - rng.uniform(3600, 86400 * 7), finished_at=at,
                      moves=rng.randint(60, 400),
                      outcome="The game is over: [[s1]] wins. The house is quiet.",
                      abandoned=abandoned, has_ai=ai, seats=seats)


async def seed(storage: SqliteStorage, games: int, batch: int = 500) -> float:
    """`games` finished games, oldest first, `batch` per transaction; returns seconds."""
    rng = random.Random(24)
    begun = time.perf_counter()
    at = 1_700_000_000.0
    for first in range(1, games + 1, batch):
        results = []
        for gid in range(first, min(games, first + batch - 1) + 1):
            at += rng.uniform(60, 3600)
            results.append(fake_result(gid, rng, at))

        def write(run: Any, results: list[GameResult] = results) -> None:
            for res in results:
                memory.record(run, res)

        await storage._write(write)
    return time.perf_counter() - begun


async def timed(call: Callable[[], Awaitable[object]], times: int) -> dict[str, float]:
    took = []
    for _ in range(times):
        begun = time.perf_counter()
        await call()
        took.append(time.perf_counter() - begun)
    return ms_full(took)


async def run(games: int, times: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        storage = SqliteStorage(Path(tmp) / "memory.db", keep_reads=True)
        await storage.open()
        try:
            seeded = await seed(storage, games)
            busiest = (await storage.server_stats(GUILD)).busiest[0][0]

            async def stats_player() -> str:
                on = await storage.ratings_on(GUILD)
                return player_text(await storage.player_stats(GUILD, busiest, on), on)

            async def stats_server() -> str:
                return server_text(await storage.server_stats(GUILD), set())

            async def history_first() -> object:
                page = await storage.history(GUILD)
                return history_embed(page, 0, memory.HISTORY_PAGE, set(), "here")

            async def history_player() -> object:
                page = await storage.history(GUILD, user_id=busiest, game="exorcism")
                return history_embed(page, 0, memory.HISTORY_PAGE, set(), "of a player")

            async def history_deep() -> object:
                page = await storage.history(GUILD, page=games // memory.HISTORY_PAGE - 1)
                return history_embed(page, games // memory.HISTORY_PAGE - 1,
                                     memory.HISTORY_PAGE, set(), "here")

            out: dict[str, Any] = {"games": games, "seed_s": round(seeded, 2),
                                   "target_ms": TARGET_MS}
            for name, call in [("stats_player", stats_player), ("stats_server", stats_server),
                               ("history", history_first), ("history_player", history_player),
                               ("history_last_page", history_deep)]:
                out[name] = await timed(call, times)
            return out
        finally:
            await storage.close()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench memory", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=10_000, help="finished games to seed")
    parser.add_argument("--times", type=int, default=50, help="calls timed per command")
    parser.add_argument("--out", default="", help="also write the figures as JSON here")
    args = parser.parse_args(argv)
    out = asyncio.run(run(args.games, args.times))
    print(f"{out['games']} finished games in one server (SQLite), seeded in {out['seed_s']} s")
    missed = False
    for name in ("stats_player", "stats_server", "history", "history_player",
                 "history_last_page"):
        fig = out[name]
        ok = fig["p99_ms"] <= TARGET_MS
        missed |= not ok
        print(f"  /game {name.replace('_', ' '):<20} p50 {fig['p50_ms']:8.1f} ms   "
              f"p99 {fig['p99_ms']:8.1f} ms   target ≤ {TARGET_MS:.0f} ms  "
              f"{'ok' if ok else 'MISSED'}")
    if args.out:
        Path(args.out).write_text(json.dumps(out, indent=2))
    if missed:
        raise SystemExit(1)
