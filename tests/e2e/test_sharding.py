"""Past one machine: two bot processes on shards 0 and 1 of 2, one emulator, one PostgreSQL.

Each process is the shipped `python -m bot run` (through `tests/proof/botproc.py`, which only
registers the test game High Card), configured by the environment as in `compose.yaml`:
`DATABASE_URL`, `SHARD_COUNT=2`, `SHARD_IDS=0` or `1`. A guild on each shard plays a whole
game; each process's reminder dispatcher fires only its own guild's game (its log says which
it fired, and every awaited player gets exactly one nudge); with the shard-1 process gone the
shard-0 process still serves its guild and never picks up the other's command.

Needs PostgreSQL (`tests/pgserver.py`): skipped without it unless `REQUIRE_POSTGRES=1`.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from bot.health import check
from bot.pgstorage import PgStorage
from bot.tables import TableService
from emulator import DiscordEmulator
from emulator.records import ChannelRecord, UserRecord
from rules.registry import GAMES, register, unregister
from tests.bot.conftest import postgres_server
from tests.pgserver import PostgresServer
from tests.proof.harness import BotProcess, Player, open_game
from tests.tinygame import GAME as HIGHCARD

# Measures the event loop's lag or a wall-clock bound: under `pytest -n` these tests run
# on one worker, one at a time (`--dist loadgroup`), never beside each other.
pytestmark = pytest.mark.xdist_group("timing")

__all__ = ["postgres_server"]

SHARDS = 2
NUDGE = "It's your move"


class ShardProcess(BotProcess):
    """The bot as its own process, running one shard of `SHARDS` on a PostgreSQL database."""

    def __init__(self, emu: DiscordEmulator, url: str, shard: int, logdir: Path) -> None:
        logdir.mkdir()
        super().__init__(emu, logdir / "unused.sqlite3", logdir)
        self.url = url
        self.shard = shard

    def env(self) -> dict[str, str]:
        env = super().env()
        env.update({"DATABASE_URL": self.url, "SHARD_COUNT": str(SHARDS),
                    "SHARD_IDS": str(self.shard), "REMINDER_POLL_SECONDS": "0.2"})
        return env

    def reminded_games(self) -> set[int]:
        """The games this process's reminder dispatcher sent a reminder for (its log)."""
        return {int(m) for m in re.findall(r"game (\d+) \(guild \d+\): \w+ reminder",
                                           self.log_text())}


@pytest_asyncio.fixture
async def database(postgres_server: PostgresServer) -> AsyncIterator[str]:
    yield await postgres_server.new_database()


async def _wait(predicate: Any, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.05)


async def test_two_shard_processes_share_one_database(tmp_path: Path, database: str) -> None:
    register(HIGHCARD)  # this side reads the games' states too
    began = time.monotonic()
    try:
        async with DiscordEmulator(shard_count=SHARDS) as emu:
            people = [emu.create_user(f"player{i}") for i in range(4)]
            generals: list[ChannelRecord] = []
            pairs: list[list[UserRecord]] = []
            for shard in range(SHARDS):
                guild = emu.create_guild(f"Table on shard {shard}", shard=(shard, SHARDS))
                assert emu.shard_of(guild, SHARDS) == shard
                pair = people[2 * shard: 2 * shard + 2]
                for user in pair:
                    emu.add_member(guild, user)
                pairs.append(pair)
                generals.append(emu.create_text_channel(guild, "general"))
            procs = [ShardProcess(emu, database, s, tmp_path / f"shard{s}")
                     for s in range(SHARDS)]
            storage = PgStorage(database)
            try:
                # Started together: both migrate the one database (an advisory lock makes
                # them take turns) and sync the same commands.
                await asyncio.gather(*(p.start() for p in procs))
                await emu.wait_until_connected(sessions=SHARDS, timeout=30)
                started = time.monotonic() - began
                assert sorted((s.shard_id, s.shard_count) for s in emu.sessions) == [
                    (0, SHARDS), (1, SHARDS)]
                # Each process's heartbeat (the container's HEALTHCHECK) sees its shard up.
                await _wait(lambda: all(
                    check(p.logdir / "health.json")[1].startswith("healthy: connected")
                    for p in procs), 20, "both heartbeats")
                await storage.open()
                tables = TableService(storage)
                players: list[Player] = []
                for shard in range(SHARDS):
                    thread = await open_game(emu, generals[shard], pairs[shard], "highcard",
                                             "rounds=2")
                    record = await storage.find_game_by_thread(int(thread.id))
                    assert record is not None and record.status == "active"
                    seat_users = await tables.users_of(record.id)
                    by_id = {int(u.id): u for u in pairs[shard]}
                    players.append(Player(emu, tables, GAMES["highcard"], record.id, thread,
                                          {s: by_id[u] for s, u in seat_users.items() if u}))
                games = [p.game_id for p in players]

                # Both games' reminders fall due at once: each process fires only its own.
                awaited: list[UserRecord] = []
                for p in players:
                    record = await storage.get_game(p.game_id)
                    assert record is not None
                    assert await storage.set_reminder(p.game_id, time.time() - 1, 0,
                                                      expected_version=record.version)
                    [seat] = sorted(await tables.awaited(p.game_id))
                    awaited.append(p.users[seat])

                def nudges(user: UserRecord) -> int:
                    return sum(NUDGE in m.content for m in emu.dm_messages(user))

                await _wait(lambda: all(nudges(u) for u in awaited), 10, "both reminders")
                await asyncio.sleep(0.6)  # three more polls of each dispatcher
                await emu.settle()
                assert [nudges(u) for u in awaited] == [1, 1]  # no double reminders
                assert [p.reminded_games() for p in procs] == [{games[0]}, {games[1]}]

                # Both games play to the end, moves in both guilds interleaved.
                async def play(p: Player) -> None:
                    while (press := await p.next_move()) is not None:
                        assert press.outcome == "acked", (press, press.answer)

                await asyncio.gather(*(play(p) for p in players))
                for p in players:
                    record = await storage.get_game(p.game_id)
                    assert record is not None and record.status == "over"
                    assert await tables.verify(p.game_id)
                moves = sum(len(p.presses) for p in players)

                # With the shard-1 process gone, shard 0's process still serves its guild
                # and never receives guild 1's command: Discord routes it to shard 1 only.
                procs[1].kill()
                served = await emu.slash(pairs[0][0], generals[0], "game list")
                await served.wait_done(timeout=5)
                unserved = await emu.slash(pairs[1][0], generals[1], "game list")
                with pytest.raises(AssertionError, match="no interaction callback"):
                    await unserved.wait_done(timeout=1.0)
                assert procs[0].alive
            finally:
                for proc in procs:
                    proc.kill()
                await storage.close()
        print(f"\nsharding: {SHARDS} processes connected in {started:.1f}s; "
              f"{moves} moves over {len(games)} games; "
              f"total {time.monotonic() - began:.1f}s")
    finally:
        unregister(HIGHCARD.name)
