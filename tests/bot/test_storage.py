"""SqliteStorage: migrations, records, the one-transaction action append, crash safety."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from bot.migrations import LATEST, MIGRATIONS, Migration
from bot.storage import (
    SHARD_SHIFT,
    DuplicateSeat,
    GameNotFound,
    GameRecord,
    GameSettings,
    PendingMove,
    ShardSet,
    SqliteStorage,
    VersionConflict,
)
from tests.bot import CHANNEL, GUILD, T0
from tests.pgserver import PostgresServer

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "games.db"



async def new_game(storage: SqliteStorage, thread: int = 3000, creator: int = 101) -> GameRecord:
    return await storage.create_game(
        guild_id=GUILD, channel_id=CHANNEL, thread_id=thread, game="highcard",
        options={"mode": "standard", "rounds": 3}, created_by=creator,
        engine_version="highcard-1", settings=GameSettings(), now=T0)


async def active_game(storage: SqliteStorage) -> GameRecord:
    rec = await new_game(storage)
    await storage.add_seat(rec.id, 102, T0)
    return await storage.start_game(rec.id, '{"step": 0}', 42, seat_ids=["s1", "s2"], now=T0,
                                    next_reminder_at=T0 + 100)


def rows(path: Path, sql: str) -> list[tuple[object, ...]]:
    con = sqlite3.connect(path)
    try:
        return list(con.execute(sql))
    finally:
        con.close()


# ---- migrations ------------------------------------------------------------------------------
async def test_fresh_database_ends_at_latest_migration(storage: SqliteStorage, db_path: Path):
    assert await storage.schema_version() == LATEST == MIGRATIONS[-1].number
    tables = {r[0] for r in rows(db_path, "SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"schema_migrations", "games", "seats", "actions"} <= tables
    assert rows(db_path, "PRAGMA journal_mode") == [("wal",)]
    async with storage._read() as db:
        assert list(await db.execute_fetchall("PRAGMA foreign_keys")) == [(1,)]
        assert list(await db.execute_fetchall("PRAGMA busy_timeout")) == [(5000,)]


async def test_reopening_does_not_rerun_migrations(db_path: Path):
    async with SqliteStorage(db_path) as first:
        await new_game(first)
    before = rows(db_path, "SELECT number, applied_at FROM schema_migrations")
    async with SqliteStorage(db_path) as second:
        assert await second.schema_version() == LATEST
        assert len(await second.list_games()) == 1  # data survived, nothing re-created
    assert rows(db_path, "SELECT number, applied_at FROM schema_migrations") == before


async def test_reopening_runs_only_new_migrations(db_path: Path):
    async with SqliteStorage(db_path) as first:
        await new_game(first)
    extra = Migration(LATEST + 1, "notes", ("CREATE TABLE notes (id INTEGER PRIMARY KEY)",))
    async with SqliteStorage(db_path, migrations=(*MIGRATIONS, extra)) as second:
        assert await second.schema_version() == LATEST + 1
        assert len(await second.list_games()) == 1
    numbers = [r[0] for r in rows(db_path, "SELECT number FROM schema_migrations ORDER BY 1")]
    assert numbers == [*range(1, LATEST + 1), LATEST + 1]


async def test_failed_migration_rolls_back_whole(db_path: Path):
    bad = Migration(LATEST + 1, "bad", ("CREATE TABLE half (id INTEGER)", "NOT SQL AT ALL"))
    with pytest.raises(sqlite3.OperationalError):
        await SqliteStorage(db_path, migrations=(*MIGRATIONS, bad)).open()
    async with SqliteStorage(db_path) as s:
        assert await s.schema_version() == LATEST
    assert rows(db_path, "SELECT name FROM sqlite_master WHERE name = 'half'") == []


async def test_postgres_migrates_once_adds_new_ones_and_rolls_back_a_bad_one(
    postgres_server: PostgresServer,
):
    import asyncpg

    from bot.pgstorage import PgStorage

    url = await postgres_server.new_database()
    async with PgStorage(url) as first:
        await new_game(first)
        assert await first.schema_version() == LATEST
    extra = Migration(LATEST + 1, "notes", ("CREATE TABLE notes (id INTEGER PRIMARY KEY)",))
    async with PgStorage(url, migrations=(*MIGRATIONS, extra)) as second:
        assert await second.schema_version() == LATEST + 1
        assert len(await second.list_games()) == 1  # data survived, nothing re-created
    bad = Migration(LATEST + 2, "bad", ("CREATE TABLE half (id INTEGER)", "NOT SQL AT ALL"))
    with pytest.raises(asyncpg.PostgresSyntaxError):
        await PgStorage(url, migrations=(*MIGRATIONS, extra, bad)).open()
    async with PgStorage(url) as third:
        assert await third.schema_version() == LATEST + 1
        async with third._read() as db:
            assert list(await db.execute_fetchall(
                "SELECT to_regclass('half') IS NULL")) == [(True,)]


async def test_postgres_game_ids_are_64_bit_snowflake_safe(postgres_server: PostgresServer):
    from bot.pgstorage import PgStorage

    snowflake = 1_180_000_000_000_000_000  # Discord ids pass 2**60
    async with PgStorage(await postgres_server.new_database()) as s:
        rec = await s.create_game(
            guild_id=snowflake, channel_id=snowflake + 1, thread_id=snowflake + 2,
            game="highcard", options={}, created_by=snowflake + 3, engine_version="v",
            settings=GameSettings(), now=T0)
        assert (await s.find_game_by_thread(snowflake + 2)) == rec
        assert rec.guild_id == snowflake and rec.created_by == snowflake + 3


# ---- records ---------------------------------------------------------------------------------
async def test_create_game_seats_creator_and_finds_by_thread(storage: SqliteStorage):
    rec = await new_game(storage, thread=3000)
    assert rec.status == "lobby" and rec.version == 0 and rec.state_json is None
    assert rec.settings == GameSettings() and rec.settings.reminder_hours == 12
    assert rec.options == {"mode": "standard", "rounds": 3}
    [seat] = await storage.seats(rec.id)
    assert (seat.seat, seat.user_id, seat.position, seat.dms_ok) == ("s1", 101, 1, False)
    newer = await new_game(storage, thread=3000)  # a rematch in the same thread
    other = await new_game(storage, thread=3001)
    found = await storage.find_game_by_thread(3000)
    assert found is not None and found.id == newer.id
    assert await storage.find_game_by_thread(9999) is None
    assert await storage.get_game(12345) is None
    await storage.set_status(other.id, "abandoned", T0)
    live = await storage.list_games(GUILD, ["lobby", "active"])
    assert [g.id for g in live] == [rec.id, newer.id]
    assert await storage.list_games(GUILD, []) == []
    assert await storage.list_games(GUILD + 1) == []


async def test_seats_unique_per_user_but_many_ai(storage: SqliteStorage):
    rec = await new_game(storage)
    with pytest.raises(DuplicateSeat):
        await storage.add_seat(rec.id, 101, T0)
    ai1 = await storage.add_seat(rec.id, None, T0)
    ai2 = await storage.add_seat(rec.id, None, T0)
    assert (ai1.seat, ai2.seat, ai1.is_ai) == ("s2", "s3", True)
    await storage.set_dms_ok(rec.id, 101, True)
    seats = await storage.seats(rec.id)
    assert [s.position for s in seats] == [1, 2, 3] and seats[0].dms_ok
    assert await storage.remove_seat_at(rec.id, "s2")
    assert not await storage.remove_seat(rec.id, 999)
    with pytest.raises(GameNotFound):
        await storage.add_seat(4242, 5, T0)


async def test_start_game_renumbers_seats_in_join_order(storage: SqliteStorage):
    rec = await new_game(storage)
    await storage.add_seat(rec.id, 102, T0)
    await storage.add_seat(rec.id, 103, T0)
    await storage.remove_seat(rec.id, 102)  # positions 1 and 3 remain
    started = await storage.start_game(rec.id, '{"step": 0}', 42, seat_ids=["s1", "s2"],
                                       now=T0 + 5, next_reminder_at=T0 + 50)
    assert (started.status, started.seed, started.version) == ("active", 42, 0)
    assert (started.next_reminder_at, started.reminder_stage, started.awaited_since) == (
        T0 + 50, 0, T0 + 5)
    assert [(s.seat, s.user_id) for s in await storage.seats(rec.id)] == [("s1", 101),
                                                                          ("s2", 103)]
    with pytest.raises(VersionConflict):
        await storage.start_game(rec.id, "{}", 1, seat_ids=["s1", "s2"], now=T0,
                                 next_reminder_at=None)


# ---- the action log ------------------------------------------------------------------------
async def test_append_action_is_versioned(storage: SqliteStorage):
    rec = await active_game(storage)
    after = await storage.append_action(rec.id, 0, "s1", 101, '{"kind":"a"}', '{"step": 1}',
                                        "active", T0 + 10, 0, awaited_since=T0 + 1, now=T0 + 1)
    assert (after.version, after.state_json, after.updated_at) == (1, '{"step": 1}', T0 + 1)
    assert (after.next_reminder_at, after.awaited_since) == (T0 + 10, T0 + 1)
    with pytest.raises(VersionConflict) as err:
        await storage.append_action(rec.id, 0, "s2", 102, '{"kind":"b"}', '{"step": 9}',
                                    "active", None, 0, now=T0 + 2)
    assert (err.value.expected, err.value.actual) == (0, 1)
    over = await storage.append_action(rec.id, 1, "s2", 102, '{"kind":"c"}', '{"step": 2}',
                                       "over", None, 0, now=T0 + 3)
    assert (over.version, over.status, over.next_reminder_at) == (2, "over", None)
    log = await storage.actions(rec.id)
    assert [(a.seq, a.seat, a.user_id, a.action_json) for a in log] == [
        (1, "s1", 101, '{"kind":"a"}'), (2, "s2", 102, '{"kind":"c"}')]
    assert [a.seq for a in await storage.actions(rec.id, after_seq=1)] == [2]
    assert [a.seq for a in await storage.actions(rec.id, upto_seq=1)] == [1]


async def test_exception_mid_transaction_leaves_last_whole_action(
    storage: SqliteStorage, db_path: Path,
):
    rec = await active_game(storage)
    await storage.append_action(rec.id, 0, "s1", 101, '{"kind":"a"}', '{"step": 1}', "active",
                                None, 0, now=T0)
    # The games UPDATE fails *after* the action row was inserted in the same transaction.
    async with storage._tx() as db:
        await db.execute("CREATE TRIGGER boom BEFORE UPDATE OF state ON games "
                         "BEGIN SELECT RAISE(ABORT, 'disk on fire'); END")
    with pytest.raises(sqlite3.IntegrityError, match="disk on fire"):
        await storage.append_action(rec.id, 1, "s2", 102, '{"kind":"b"}', '{"step": 2}',
                                    "active", None, 0, now=T0)
    async with storage._tx() as db:
        await db.execute("DROP TRIGGER boom")
    now = await storage.get_game(rec.id)
    assert now is not None and (now.version, now.state_json) == (1, '{"step": 1}')
    assert [a.seq for a in await storage.actions(rec.id)] == [1]
    # and the storage is still usable: the same action lands now
    again = await storage.append_action(rec.id, 1, "s2", 102, '{"kind":"b"}', '{"step": 2}',
                                        "active", None, 0, now=T0)
    assert again.version == 2


async def test_process_killed_mid_transaction_keeps_last_whole_action(
    storage: SqliteStorage, db_path: Path,
):
    rec = await active_game(storage)
    await storage.append_action(rec.id, 0, "s1", 101, '{"kind":"a"}', '{"step": 1}', "active",
                                None, 0, now=T0)
    await storage.close()
    child = textwrap.dedent(f"""
        import asyncio, os
        from bot.storage import SqliteStorage

        async def main():
            s = SqliteStorage({str(db_path)!r})
            await s.open()
            async with s._tx() as db:
                await db.execute(
                    "INSERT INTO actions (game_id, seq, seat, user_id, action, at)"
                    " VALUES ({rec.id}, 2, 's2', 102, '{{}}', 0)")
                os._exit(9)  # killed between the action insert and the state write

        asyncio.run(main())
    """)
    proc = subprocess.run([sys.executable, "-c", child], cwd=ROOT, capture_output=True,
                          timeout=30, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 9, proc.stderr.decode()
    async with SqliteStorage(db_path) as reopened:
        game = await reopened.get_game(rec.id)
        assert game is not None and (game.version, game.state_json) == (1, '{"step": 1}')
        assert [a.seq for a in await reopened.actions(rec.id)] == [1]


async def test_board_post_is_kept_with_the_board_message(storage: SqliteStorage):
    """#13: what the current board post stands for survives a restart (both backends)."""
    rec = await active_game(storage)
    assert await storage.board_post(rec.id) is None
    await storage.set_board_message(rec.id, 777, 0, '{"awaited": ["s1"]}')
    assert await storage.board_post(rec.id) == '{"awaited": ["s1"]}'
    await storage.set_board_message(rec.id, 778)  # no post given: the last one stays
    assert (await storage.get_game(rec.id)).board_message_id == 778
    assert await storage.board_post(rec.id) == '{"awaited": ["s1"]}'
    await storage.set_board_message(rec.id, 779, 1, '{"awaited": ["s2"]}')
    assert await storage.board_post(rec.id) == '{"awaited": ["s2"]}'
    assert await storage.boards_behind() == []


async def test_rewind_truncates_and_rewrites(storage: SqliteStorage):
    rec = await active_game(storage)
    for v in range(3):
        await storage.append_action(rec.id, v, "s1", 101, "{}", f'{{"step": {v + 1}}}',
                                    "active", None, 0, now=T0)
    with pytest.raises(VersionConflict):
        await storage.rewind(rec.id, 2, 1, "{}", status="active", next_reminder_at=None,
                             reminder_stage=0, awaited_since=None, now=T0)
    back = await storage.rewind(rec.id, 3, 2, '{"step": 2}', status="active",
                                next_reminder_at=T0 + 9, reminder_stage=0, awaited_since=T0,
                                now=T0)
    assert (back.version, back.state_json, back.next_reminder_at) == (2, '{"step": 2}', T0 + 9)
    assert [a.seq for a in await storage.actions(rec.id)] == [1, 2]
    moved = await storage.rewrite_state(rec.id, 2, '{"step": 2, "x": 1}', "highcard-2", T0)
    assert (moved.engine_version, moved.version) == ("highcard-2", 2)


# ---- reminders -------------------------------------------------------------------------------
async def test_due_reminders_and_compare_and_set(storage: SqliteStorage):
    rec = await active_game(storage)  # reminder at T0 + 100
    lobby = await new_game(storage, thread=3001)
    assert await storage.due_reminders(T0 + 99) == []
    assert [g.id for g in await storage.due_reminders(T0 + 100)] == [rec.id]
    assert await storage.set_reminder(rec.id, T0 + 200, 1, expected_version=0, expected_stage=0)
    assert not await storage.set_reminder(rec.id, T0 + 300, 2, expected_version=0,
                                          expected_stage=0)  # stage moved on
    assert not await storage.set_reminder(rec.id, T0 + 300, 2, expected_version=5)
    game = await storage.get_game(rec.id)
    assert game is not None and (game.next_reminder_at, game.reminder_stage) == (T0 + 200, 1)
    await storage.set_reminder(lobby.id, T0, 0)  # lobbies are never due
    assert [g.id for g in await storage.due_reminders(T0 + 1000)] == [rec.id]
    await storage.set_status(rec.id, "abandoned", T0)
    ended = await storage.get_game(rec.id)
    assert ended is not None and ended.next_reminder_at is None
    assert await storage.due_reminders(T0 + 1000) == []


# ---- moves in flight (issue #12, 13) ---------------------------------------------------------
def pending(token: str, at: float, game_id: int | None = None, guild: int = GUILD) -> PendingMove:
    return PendingMove(token=token, interaction_id=7, guild_id=guild, channel_id=CHANNEL,
                       game_id=game_id, user_id=101, what="Wager 1", answer="followup",
                       created_at=at)


async def test_pending_move_is_marked_stored_in_the_moves_own_transaction(
        storage: SqliteStorage):
    rec = await active_game(storage)
    await storage.add_pending_move(pending("tok-a", T0, rec.id))
    await storage.add_pending_move(pending("tok-b", T0 + 1))
    with pytest.raises(VersionConflict):  # a refused write marks nothing
        await storage.append_action(rec.id, 5, "s1", 101, '{"kind": "x"}', '{"step": 1}',
                                    "active", None, 0, now=T0, pending_token="tok-a")
    await storage.append_action(rec.id, 0, "s1", 101, '{"kind": "x"}', '{"step": 1}',
                                "active", None, 0, now=T0, pending_token="tok-b")
    rows_ = {p.token: p for p in await storage.pending_moves()}
    assert rows_["tok-a"].stored_seq is None
    assert (rows_["tok-b"].stored_seq, rows_["tok-b"].game_id) == (1, rec.id)
    assert rows_["tok-b"].what == "Wager 1" and rows_["tok-b"].answer == "followup"


async def test_pending_moves_answered_and_expired_go_with_the_next_one(storage: SqliteStorage):
    for i in range(3):
        await storage.add_pending_move(pending(f"tok-{i}", T0 + i))
    # tok-0 answered, tok-1 older than the cut-off: both go in the next move's transaction
    await storage.add_pending_move(pending("tok-3", T0 + 1000), forget=["tok-0"],
                                   expired_before=T0 + 1.5)
    assert [p.token for p in await storage.pending_moves()] == ["tok-2", "tok-3"]
    rec = await active_game(storage)
    await storage.add_pending_move(pending("tok-4", T0, rec.id))
    await storage.append_action(rec.id, 0, "s1", 101, '{"kind": "x"}', '{"step": 1}',
                                "active", None, 0, now=T0, pending_token="tok-4")
    await storage.forget_pending_moves(["tok-2", "tok-4"], unstored_only=True)
    assert [p.token for p in await storage.pending_moves()] == ["tok-4", "tok-3"]
    await storage.forget_pending_moves(["tok-3", "tok-4"])
    assert await storage.pending_moves() == []


async def test_pending_moves_belong_to_their_guilds_shard(storage: SqliteStorage):
    other = GUILD + (1 << SHARD_SHIFT)  # the next shard
    await storage.add_pending_move(pending("mine", T0))
    await storage.add_pending_move(pending("theirs", T0, guild=other))
    shard = (GUILD >> SHARD_SHIFT) % 2
    assert [p.token for p in await storage.pending_moves(ShardSet(count=2, ids=(shard,)))] \
        == ["mine"]
    assert {p.token for p in await storage.pending_moves()} == {"mine", "theirs"}
