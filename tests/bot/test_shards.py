"""Sharding: a process owns the guilds of its gateway shards (`(guild_id >> 22) % count`), and
only their reminders; the settings that say which shards a process runs.

The storage tests run on SQLite and on PostgreSQL (the `storage` fixture), so the shard
filter's 64-bit `>>` and `%` are checked on both engines with real-sized snowflakes.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from bot.client import GameBot, ShardedGameBot, build_bot
from bot.reminders import Notify, ReminderDispatcher, Stage
from bot.settings import Settings
from bot.storage import GameRecord, ShardSet, Storage
from bot.tables import TableService
from tests.bot import GAMES, FakeClock

DISCORD_EPOCH_MS_2026 = 1_700_000_000_000 - 1_420_070_400_000
"""A snowflake's timestamp part today: guild ids above 2**60, as Discord's are."""


def guild_on(shard: int, count: int, n: int = 0) -> int:
    """A guild id (a real-sized snowflake) that Discord puts on `shard` of `count`."""
    ms = DISCORD_EPOCH_MS_2026 + n * count
    ms += (shard - ms) % count
    return (ms << 22) | (n & 0x3FFFFF)


def test_guild_on_is_discords_rule() -> None:
    for count in (1, 2, 3, 16):
        for shard in range(count):
            gid = guild_on(shard, count, 5)
            assert gid > 1 << 60 and (gid >> 22) % count == shard
            assert ShardSet(count=count, ids=(shard,)).owns(gid)


async def _due_game(tables: TableService, guild_id: int, thread: int, due_at: float) -> int:
    rec = await tables.create(guild_id, 1, thread, "highcard", {}, 101)
    await tables.join(rec.id, 102)
    await tables.start(rec.id, 101, seed=3)
    assert await tables.storage.set_reminder(rec.id, due_at, 0)
    return rec.id


async def test_due_reminders_only_for_the_process_shards(storage: Storage) -> None:
    tables = TableService(storage, GAMES, clock=FakeClock())
    now = 2_000_000_000.0
    by_shard = {s: [await _due_game(tables, guild_on(s, 3, n), 100 * s + n, now - 100 + n)
                    for n in range(2)] for s in range(3)}
    everything = sorted(g for games in by_shard.values() for g in games)
    assert sorted(r.id for r in await storage.due_reminders(now)) == everything
    owned = await storage.due_reminders(now, shards=ShardSet(count=3, ids=(0, 2)))
    assert sorted(r.id for r in owned) == sorted(by_shard[0] + by_shard[2])
    one = await storage.due_reminders(now, shards=ShardSet(count=3, ids=(1,)))
    assert [r.id for r in one] == by_shard[1]
    all_three = await storage.due_reminders(now, shards=ShardSet(count=3, ids=(0, 1, 2)))
    assert sorted(r.id for r in all_three) == everything


async def test_another_shards_backlog_does_not_crowd_out_this_shards_games(
    storage: Storage,
) -> None:
    """The filter is in the query, before the batch LIMIT: a backlog of the other shard's due
    games (earlier than ours) must not fill this process's batch forever."""
    tables = TableService(storage, GAMES, clock=FakeClock())
    now = 2_000_000_000.0
    for n in range(5):
        await _due_game(tables, guild_on(1, 2, n), 10 + n, now - 1000 + n)
    mine = await _due_game(tables, guild_on(0, 2), 99, now - 1)
    batch = await storage.due_reminders(now, limit=2, shards=ShardSet(count=2, ids=(0,)))
    assert [r.id for r in batch] == [mine]


async def test_two_shard_dispatchers_on_one_database_each_remind_their_own(
    storage: Storage,
) -> None:
    clock = FakeClock()
    tables = TableService(storage, GAMES, clock=clock)
    games = {s: await _due_game(tables, guild_on(s, 2), 500 + s, clock() - 1) for s in (0, 1)}
    sent: dict[int, list[int]] = {0: [], 1: []}

    def inbox(shard: int) -> Notify:
        async def notify(rec: GameRecord, users: list[int], stage: Stage) -> None:
            sent[shard].append(rec.id)
        return notify

    dispatchers = [ReminderDispatcher(storage, inbox(s), tables=tables, clock=clock,
                                      shards=ShardSet(count=2, ids=(s,))) for s in (0, 1)]
    await asyncio.gather(*(d.run_once() for d in dispatchers))
    assert sent == {0: [games[0]], 1: [games[1]]}
    clock.advance(hours=1)  # nothing more is due until reminder_hours pass
    await asyncio.gather(*(d.run_once() for d in dispatchers))
    assert sent == {0: [games[0]], 1: [games[1]]}
    clock.advance(hours=12)
    await asyncio.gather(*(d.run_once() for d in dispatchers))
    assert sent == {0: [games[0]] * 2, 1: [games[1]] * 2}


def test_shard_settings_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SHARD_COUNT", "4")
    monkeypatch.setenv("SHARD_IDS", "3, 1")
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    assert settings.shard_ids == [3, 1]
    assert settings.shards() == ShardSet(count=4, ids=(1, 3))
    monkeypatch.setenv("SHARD_IDS", "")
    assert Settings(_env_file=None).shards() == ShardSet(  # type: ignore[call-arg]
        count=4, ids=(0, 1, 2, 3))


def test_unsharded_by_default_and_bad_shards_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("SHARD_COUNT", "SHARD_IDS"):
        monkeypatch.delenv(name, raising=False)
    assert Settings(_env_file=None).shards() is None  # type: ignore[call-arg]
    for bad in ({"shard_count": 2, "shard_ids": [2]}, {"shard_ids": [0]},
                {"shard_count": 2, "shard_ids": [1, 1]}, {"shard_count": 0}):
        with pytest.raises(ValidationError):
            Settings(_env_file=None, **bad)  # type: ignore[call-arg]


def test_build_bot_connects_only_the_settings_shards(tmp_path: Path) -> None:
    # Built, never started: nothing is opened, so nothing needs closing.
    base: dict[str, Any] = {"discord_token": "t", "database_path": tmp_path / "db.sqlite3"}
    plain = build_bot(Settings(_env_file=None, **base))  # type: ignore[call-arg]
    assert type(plain) is GameBot and plain.owned_shards is None
    sharded = build_bot(Settings(  # type: ignore[call-arg]
        _env_file=None, shard_count=2, shard_ids=[1], **base))
    assert isinstance(sharded, ShardedGameBot)
    assert (sharded.shard_count, sharded.shard_ids) == (2, [1])
    assert sharded.owned_shards == ShardSet(count=2, ids=(1,))
