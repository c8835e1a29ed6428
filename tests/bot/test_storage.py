"""Storage on SQLite and PostgreSQL: Alembic migrations (and databases from before them),
records, the one-transaction action append, crash safety."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory

from bot.migrations import LATEST, SCRIPTS, head, number, revision_of, revisions, upgrade
from bot.migrations import config as migration_config
from bot.schema import metadata
from bot.storage import (
    SHARD_SHIFT,
    DuplicateSeat,
    GameNotFound,
    GameRecord,
    GameSettings,
    PendingMove,
    PlayerPrefs,
    ShardSet,
    SqliteStorage,
    SqlStorage,
    Storage,
    VersionConflict,
    VoiceLink,
    VoiceMute,
)
from bot.tables import TableService
from tests.bot import CHANNEL, GAMES, GUILD, T0, FakeClock
from tests.pgserver import PostgresServer

# These tests test the migrations: the `storage` fixture gives them empty databases for
# Alembic to upgrade, as a first start does (elsewhere it copies a migrated one).
FRESH_DATABASES = True

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "games.db"



async def new_game(storage: Storage, thread: int = 3000, creator: int = 101) -> GameRecord:
    return await storage.create_game(
        guild_id=GUILD, channel_id=CHANNEL, thread_id=thread, game="highcard",
        options={"mode": "standard", "rounds": 3}, created_by=creator,
        engine_version="highcard-1", settings=GameSettings(), now=T0)


async def active_game(storage: Storage) -> GameRecord:
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


# ---- migrations (Alembic) ------------------------------------------------------------------
def new_revision(tmp_path: Path, number: int, body: str) -> Path:
    """The shipped revisions plus one more, `number`, whose upgrade() is `body`."""
    scripts = tmp_path / "schema"
    if not scripts.exists():
        shutil.copytree(SCRIPTS, scripts, ignore=shutil.ignore_patterns("__pycache__"))
    upgrade_body = textwrap.indent(textwrap.dedent(body).strip(), "    ")
    (scripts / "versions" / f"{number:04d}_extra.py").write_text(
        "import sqlalchemy as sa\nfrom alembic import op\n\n"
        f"revision = '{number:04d}'\ndown_revision = '{revision_of(number - 1)}'\n"
        "branch_labels = None\ndepends_on = None\n\n\n"
        f"def upgrade():\n{upgrade_body}\n\n\ndef downgrade():\n    pass\n")
    return scripts


async def opened(backend: str, where: str, **kwargs: Any) -> SqlStorage:
    from bot.pgstorage import PgStorage

    s: SqlStorage = (PgStorage(where, **kwargs) if backend == "postgres"
                     else SqliteStorage(where, **kwargs))
    await s.open()
    return s


@pytest.fixture
async def database(backend: str, db_path: Path, request: pytest.FixtureRequest) -> str:
    """Where an empty database of the backend is (a SQLite path or a PostgreSQL URL)."""
    if backend == "postgres":
        server: PostgresServer = request.getfixturevalue("postgres_server")
        return await server.new_database()
    db_path.parent.mkdir(parents=True, exist_ok=True)
    return str(db_path)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    # Tests that open databases themselves (`database`) run on both backends too.
    if "database" in metafunc.fixturenames and "storage" not in metafunc.fixturenames:
        metafunc.parametrize("backend", ["sqlite", "postgres"], indirect=True)


async def tables_in(s: SqlStorage) -> set[str]:
    async with s._read() as db:
        return set(await db.run_sync(lambda c: sa.inspect(c).get_table_names()))


def _drift(c: sa.Connection) -> list[Any]:
    diffs = compare_metadata(MigrationContext.configure(c), metadata)
    if c.dialect.name != "sqlite":
        return diffs
    # SQLAlchemy reads no ON DELETE from a column's inline `REFERENCES games (id) ON DELETE
    # CASCADE` (how tables before Alembic were written); SQLite's own PRAGMA does.
    cascades = {t for t in ("seats", "actions", "spectators", "replace_votes") if [
        (r[2], r[3], r[4], r[6]) for r in c.exec_driver_sql(f"PRAGMA foreign_key_list({t})")
    ] == [("games", "game_id", "id", "CASCADE")]}
    # A single-column `… PRIMARY KEY` without NOT NULL (as tables before Alembic were
    # written) reads as nullable: a rowid alias can never hold NULL anyway, and a NULL
    # token (a SQLite quirk allows it) is never written (`PendingMove.token` is a str).
    rowid_keys = {("players", "user_id"), ("games", "id"), ("pending_moves", "token")}
    return [d for d in diffs if not (
        isinstance(d, tuple) and d[0] in ("remove_fk", "add_fk") and d[1].table.name in cascades
    ) and not (isinstance(d, list) and len(d) == 1 and d[0][0] == "modify_nullable"
               and (d[0][2], d[0][3]) in rowid_keys)]


async def schema_drift(s: SqlStorage) -> list[Any]:
    """What differs between the database's real tables and `bot.schema` (nothing, we hope)."""
    async with s._read() as db:
        return await db.run_sync(_drift)


def test_revision_ids_are_the_schema_numbers_in_a_line():
    # An id is its number, perhaps followed by a topic ("0007_memory").
    ids = revisions()
    assert tuple(number(r) for r in ids) == tuple(range(1, LATEST + 1))
    assert all(re.fullmatch(r"\d{4}(_[a-z0-9_]+)?", r) for r in ids), ids
    script = ScriptDirectory.from_config(migration_config())
    for rev in ids:
        down = script.get_revision(rev).down_revision
        assert down == (None if rev == "0001" else revision_of(number(rev) - 1))


async def test_fresh_database_ends_at_latest_migration(storage: SqliteStorage, db_path: Path):
    assert await storage.schema_version() == LATEST == head()
    tables = {r[0] for r in rows(db_path, "SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"alembic_version", "games", "seats", "actions", "pending_moves"} <= tables
    assert "schema_migrations" not in tables
    assert rows(db_path, "PRAGMA journal_mode") == [("wal",)]
    async with storage._read() as db:
        assert (await db.exec_driver_sql("PRAGMA foreign_keys")).all() == [(1,)]
        assert (await db.exec_driver_sql("PRAGMA busy_timeout")).all() == [(5000,)]
        # NORMAL: a commit survives the process's crash (tests/proof/test_crash.py); FULL
        # (an fsync a commit, for a power cut too) only when asked for.
        assert (await db.exec_driver_sql("PRAGMA synchronous")).all() == [(1,)]
    async with SqliteStorage(db_path, synchronous="FULL") as full, full._read() as db:
        assert (await db.exec_driver_sql("PRAGMA synchronous")).all() == [(2,)]


async def test_migrated_tables_are_exactly_the_declared_ones(backend: str, database: str):
    s = await opened(backend, database)
    try:
        assert await schema_drift(s) == []
    finally:
        await s.close()


async def test_reopening_at_the_newest_schema_writes_nothing(db_path: Path):
    async with SqliteStorage(db_path) as first:
        await new_game(first)
    # Another connection holds the write lock: a start that wanted to migrate would wait for
    # it and fail after the busy timeout; a start at the newest schema only reads.
    holder = sqlite3.connect(db_path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        async with SqliteStorage(db_path, busy_timeout_ms=100) as second:
            assert await second.schema_version() == LATEST
            assert len(await second.list_games()) == 1  # data survived, nothing re-created
    finally:
        holder.execute("ROLLBACK")
        holder.close()


async def test_reopening_runs_only_new_migrations(backend: str, database: str, tmp_path: Path):
    first = await opened(backend, database)
    await new_game(first)
    await first.close()
    scripts = new_revision(tmp_path, LATEST + 1, """
        op.create_table("notes", sa.Column("id", sa.Integer, primary_key=True))
        op.execute("INSERT INTO notes (id) VALUES (1)")
    """)
    second = await opened(backend, database, migrations=scripts)
    try:
        assert await second.schema_version() == LATEST + 1
        assert len(await second.list_games()) == 1
        async with second._read() as db:  # ran once, so one row
            assert (await db.execute(sa.text("SELECT COUNT(*) FROM notes"))).scalar() == 1
    finally:
        await second.close()
    third = await opened(backend, database, migrations=scripts)
    try:
        async with third._read() as db:
            assert (await db.execute(sa.text("SELECT COUNT(*) FROM notes"))).scalar() == 1
    finally:
        await third.close()


async def test_failed_migration_rolls_back_whole(backend: str, database: str, tmp_path: Path):
    first = await opened(backend, database, schema_target=LATEST - 1)
    await first.close()
    # The newest shipped revision runs, then a broken one after it: neither may land.
    scripts = new_revision(tmp_path, LATEST + 1, """
        op.create_table("half", sa.Column("id", sa.Integer))
        op.execute("NOT SQL AT ALL")
    """)
    with pytest.raises(sa.exc.DBAPIError):
        await opened(backend, database, migrations=scripts)
    again = await opened(backend, database, schema_target=LATEST - 1)
    try:
        assert await again.schema_version() == LATEST - 1
        assert "half" not in await tables_in(again)
    finally:
        await again.close()


async def test_every_revision_downgrades_and_upgrades_again(backend: str, database: str):
    s = await opened(backend, database)
    try:
        async with s._tx() as db:
            await db.run_sync(lambda c: command.downgrade(migration_config(connection=c),
                                                          "base"))
        assert await s.schema_version() == 0
        assert await tables_in(s) == {"alembic_version"}
        async with s._tx() as db:
            await db.run_sync(upgrade)
        assert await s.schema_version() == LATEST
        assert await schema_drift(s) == []
        await new_game(s)
    finally:
        await s.close()


# Databases exactly as the bot wrote them before Alembic (its own runner, schema_migrations):
# tests/fixtures/databases/schema-N.sqlite3 and postgres-schema-N.sql (pg_dump), made by the
# build of 40479b5 at each of its schema versions 1-5, each holding an active High Card game
# one move in (board post, a move stored with its pending row, another pending), a lobby, a
# spectator, a replace vote and two players' preferences, as far as its schema had them.
DATABASES = Path(__file__).resolve().parents[1] / "fixtures" / "databases"
OLD_SCHEMAS = range(1, 6)


async def restore_postgres(server: PostgresServer, number: int) -> str:
    import asyncpg

    url = await server.new_database()
    conn = await asyncpg.connect(url)
    try:
        await conn.execute((DATABASES / f"postgres-schema-{number}.sql").read_text())
    finally:
        await conn.close()
    return url


@pytest.mark.parametrize("number", OLD_SCHEMAS)
async def test_a_database_from_before_alembic_upgrades_in_place_and_plays_on(
    backend: str, database: str, number: int, request: pytest.FixtureRequest,
):
    if backend == "postgres":
        where = await restore_postgres(request.getfixturevalue("postgres_server"), number)
    else:
        shutil.copyfile(DATABASES / f"schema-{number}.sqlite3", database)
        where = database
    s = await opened(backend, where)
    try:
        assert await s.schema_version() == LATEST
        assert "schema_migrations" not in await tables_in(s)
        assert await schema_drift(s) == []
        game = await s.get_game(1)
        assert game is not None and (game.status, game.version, game.game) == (
            "active", 1, "highcard")
        assert [(x.seat, x.user_id) for x in await s.seats(1)] == [("s1", 101), ("s2", 102)]
        assert [a.seq for a in await s.actions(1)] == [1]
        lobby = await s.get_game(2)
        assert lobby is not None and lobby.status == "lobby"
        assert [x.user_id for x in await s.seats(2)] == [102, 103]
        if number >= 2:
            assert await s.spectators(1) == [103]
            assert await s.replace_votes(1, "s2") == {101: 103}
            prefs = await s.prefs([101, 103])
            assert prefs[103].away and prefs[101].quiet_start == 22 * 60
        assert await s.boards_behind() == []
        if number >= 4:
            pending = {p.token: p.stored_seq for p in await s.pending_moves()}
            assert pending == {"tok-stored": 1, "tok-open": None}
        assert await s.board_post(1) == ('{"awaited": ["s2"]}' if number >= 5 else None)
        # and the game goes on, its log replaying to the stored state
        tables = TableService(s, GAMES, clock=FakeClock())
        seat = sorted(await tables.awaited(1))[0]
        res = await tables.play_ai(1, seat)
        assert res.version == 2 and await tables.verify(1)
        fresh = await new_game(s, thread=7000)
        assert fresh.id == 3
    finally:
        await s.close()


@pytest.mark.parametrize("number", [0, 2])
async def test_processes_starting_together_upgrade_one_at_a_time(
    backend: str, database: str, number: int, request: pytest.FixtureRequest,
):
    """Shards' processes start at once on one database (empty, or from before Alembic):
    one upgrades, the others wait for it and find nothing left to do."""
    if number and backend == "postgres":
        database = await restore_postgres(request.getfixturevalue("postgres_server"), number)
    elif number:
        shutil.copyfile(DATABASES / f"schema-{number}.sqlite3", database)
    started = await asyncio.gather(*(opened(backend, database) for _ in range(3)))
    try:
        assert [await s.schema_version() for s in started] == [LATEST] * 3
        assert await schema_drift(started[0]) == []
    finally:
        for s in started:
            await s.close()


async def test_a_database_from_before_alembic_is_stamped_in_the_upgrades_transaction(
    backend: str, database: str, request: pytest.FixtureRequest, tmp_path: Path,
):
    """A failed first upgrade leaves the pre-Alembic database as it was (still
    schema_migrations, no alembic_version), so the next start tries again from there."""
    if backend == "postgres":
        where = await restore_postgres(request.getfixturevalue("postgres_server"), 3)
    else:
        shutil.copyfile(DATABASES / "schema-3.sqlite3", database)
        where = database
    broken = new_revision(tmp_path, LATEST + 1, 'op.execute("NOT SQL AT ALL")')
    with pytest.raises(sa.exc.DBAPIError):
        await opened(backend, where, migrations=broken)
    s = await opened(backend, where, schema_target=3)
    try:
        assert await s.schema_version() == 3
        assert "schema_migrations" not in await tables_in(s)  # stamped now, at 3
    finally:
        await s.close()


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


async def test_p_discord_05_voice_links_and_mutes_are_kept_until_dropped(storage: SqliteStorage):
    """What voice muting keeps (revision 0011_voice): one link per game (linking again moves
    it), one mute per member of a server (recorded again: replaced), read back whole."""
    game = await new_game(storage, thread=3000)
    other = await new_game(storage, thread=3001)
    assert await storage.voice_links() == [] and await storage.voice_mutes() == []
    await storage.link_voice(VoiceLink(game_id=game.id, guild_id=GUILD, channel_id=70,
                                       linked_by=101, linked_at=T0))
    moved = VoiceLink(game_id=game.id, guild_id=GUILD, channel_id=71, linked_by=102,
                      linked_at=T0 + 1)
    await storage.link_voice(moved)
    assert await storage.voice_links() == [moved]
    first = VoiceMute(guild_id=GUILD, user_id=101, game_id=game.id, channel_id=71, muted_at=T0)
    again = first.model_copy(update={"game_id": other.id, "muted_at": T0 + 5})
    elsewhere = VoiceMute(guild_id=GUILD + 1, user_id=101, game_id=game.id, channel_id=72,
                          muted_at=T0)
    for mute in (first, again, elsewhere):
        await storage.add_voice_mute(mute)
    assert await storage.voice_mutes() == [again, elsewhere]
    assert await storage.voice_mutes(guild_id=GUILD) == [again]
    assert await storage.voice_mutes(game_id=game.id) == [elsewhere]
    assert await storage.drop_voice_mute(GUILD, 101)
    assert not await storage.drop_voice_mute(GUILD, 101)
    assert await storage.voice_mutes() == [elsewhere]
    assert await storage.unlink_voice(game.id) and not await storage.unlink_voice(game.id)
    assert await storage.voice_links() == []


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


async def test_veterans_are_the_players_of_a_finished_game_of_the_title(
        storage: SqliteStorage):
    """Guided play's default (issue #22): who has finished a game of this title before."""
    done = await new_game(storage, thread=3000, creator=101)
    await storage.add_seat(done.id, 102, T0)
    await storage.add_seat(done.id, None, T0)  # an AI seat is nobody's experience
    await storage.set_status(done.id, "over", T0 + 1)
    left = await new_game(storage, thread=3001, creator=103)  # abandoned: not finished
    await storage.set_status(left.id, "abandoned", T0 + 1)
    await new_game(storage, thread=3002, creator=104)  # still in its lobby
    asked = [101, 102, 103, 104, 105]
    assert await storage.veterans(asked, "highcard") == {101, 102}
    assert await storage.veterans(asked, "presence") == set()  # another title
    assert await storage.veterans([], "highcard") == set()



async def test_a_players_games_across_guilds_and_a_guilds_finished_games(
        backend: str, database: str):
    """Issue #24: `player_games` finds a player's live seats in every guild without reading a
    state; `finished_games` lists a guild's over and abandoned games newest first, by number."""
    s = await opened(backend, database)
    try:
        here = await new_game(s, thread=3000, creator=101)
        await s.add_seat(here.id, 102, T0)
        await s.add_seat(here.id, None, T0)
        await s.start_game(here.id, '{"step": 0}', 42, seat_ids=["s1", "s2", "s3"], now=T0,
                           next_reminder_at=None)
        await s.set_board_message(here.id, 77, 0, '{"awaited": ["s1"]}')
        elsewhere = await s.create_game(
            guild_id=GUILD + 1, channel_id=CHANNEL + 1, thread_id=4000, game="highcard",
            options={"mode": "standard"}, created_by=102, engine_version="highcard-1",
            settings=GameSettings(), now=T0 + 5)
        await s.add_seat(elsewhere.id, 101, T0 + 6)
        done = [await new_game(s, thread=3100 + i, creator=101) for i in range(12)]
        for i, rec in enumerate(done):
            await s.set_status(rec.id, "abandoned" if i % 2 else "over", T0 + 10 + i)
        mine = await s.player_games(101)
        assert [g.id for g in mine] == [here.id, elsewhere.id]
        assert {g.guild_id for g in mine} == {GUILD, GUILD + 1}
        first = mine[0]
        assert first.status == "active" and first.seats == {"s1": 101, "s2": 102, "s3": None}
        assert first.board_version == 0 and first.board_post == '{"awaited": ["s1"]}'
        assert mine[1].status == "lobby" and mine[1].seats == {"s1": 102, "s2": 101}
        assert [g.id for g in await s.player_games(101, ["over"])] == [
            r.id for r in done[::2]]
        assert await s.player_games(999) == [] and await s.player_games(101, []) == []

        newest = await s.finished_games(GUILD, limit=5)
        assert [g.id for g in newest] == [r.id for r in reversed(done)][:5]
        assert {g.status for g in newest} == {"over", "abandoned"}
        assert await s.finished_games(GUILD + 1) == []
        one = done[0].id
        assert [g.id for g in await s.finished_games(GUILD, id_prefix=str(one))][-1] == one
        assert all(str(g.id).startswith("1")
                   for g in await s.finished_games(GUILD, limit=50, id_prefix="1"))
        assert await s.finished_games(GUILD, id_prefix="x1") == []
    finally:
        await s.close()

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
    # The action insert fails *after* the game's state was written in the same transaction.
    async with storage._tx() as db:
        await db.exec_driver_sql("CREATE TRIGGER boom BEFORE INSERT ON actions "
                                 "BEGIN SELECT RAISE(ABORT, 'disk on fire'); END")
    with pytest.raises(sa.exc.IntegrityError, match="disk on fire"):
        await storage.append_action(rec.id, 1, "s2", 102, '{"kind":"b"}', '{"step": 2}',
                                    "active", None, 0, now=T0)
    async with storage._tx() as db:
        await db.exec_driver_sql("DROP TRIGGER boom")
    now = await storage.get_game(rec.id)
    assert now is not None and (now.version, now.state_json) == (1, '{"step": 1}')
    assert [a.seq for a in await storage.actions(rec.id)] == [1]
    # and the storage is still usable: the same action lands now
    again = await storage.append_action(rec.id, 1, "s2", 102, '{"kind":"b"}', '{"step": 2}',
                                        "active", None, 0, now=T0)
    assert again.version == 2


async def test_a_move_cancelled_anywhere_is_whole_or_absent_and_storage_goes_on(
    storage: SqliteStorage,
):
    """A move's task cancelled at any point (the player's interaction timed out, shutdown)
    leaves the move stored whole or not at all, and the next move lands."""
    rec = await active_game(storage)
    version = 0
    for delay in range(40):
        task = asyncio.create_task(storage.append_action(
            rec.id, version, "s1", 101, f'{{"n": {delay}}}', f'{{"step": {version + 1}}}',
            "active", None, 0, now=T0))
        for _ in range(delay):
            await asyncio.sleep(0)
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        game = await storage.get_game(rec.id)
        assert game is not None and game.version in (version, version + 1)
        assert [a.seq for a in await storage.actions(rec.id)] == list(
            range(1, game.version + 1))
        assert game.state_json == (f'{{"step": {game.version}}}' if game.version else
                                   '{"step": 0}')
        after = await storage.append_action(rec.id, game.version, "s2", 102, "{}",
                                            f'{{"step": {game.version + 1}}}', "active",
                                            None, 0, now=T0)
        version = after.version


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
                await db.exec_driver_sql(
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


# ---- packaging and cost --------------------------------------------------------------------
def test_alembic_scripts_are_shipped_in_the_package():
    """The installed bot runs Alembic from its own package: every script file must be in
    pyproject's package-data for bot.migrations."""
    import tomllib
    from fnmatch import fnmatch

    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = config["tool"]["setuptools"]["package-data"]["bot.migrations"]
    base = ROOT / "bot" / "migrations"
    files = [p.relative_to(base).as_posix() for p in (base / "schema").rglob("*")
             if p.is_file() and "__pycache__" not in p.parts]
    assert "schema/env.py" in files and len(files) >= 2 + LATEST
    assert [f for f in files if not any(fnmatch(f, pat) for pat in patterns)] == []


async def test_a_move_is_one_transaction_in_one_trip_to_the_sqlite_thread(
    storage: SqliteStorage, db_path: Path, monkeypatch: pytest.MonkeyPatch,
):
    """A move is BEGIN, three statements (state written with its version check, action
    appended, pending row marked) and COMMIT, all in one call to aiosqlite's thread: the CPU
    a move costs on SQLite (bot/sqlitedriver.py, `SqliteStorage._write`)."""
    import aiosqlite

    rec = await active_game(storage)
    await storage.add_pending_move(pending("tok", T0, rec.id))
    calls: list[str] = []
    statements: list[str] = []
    real = aiosqlite.Connection._execute

    async def counted(self: aiosqlite.Connection, fn: Any, *args: Any, **kwargs: Any) -> Any:
        calls.append(getattr(fn, "__name__", "?"))
        return await real(self, fn, *args, **kwargs)

    driver = await storage._driver()
    await driver._execute(lambda: driver.sqlite.set_trace_callback(statements.append))
    monkeypatch.setattr(aiosqlite.Connection, "_execute", counted)
    await storage.append_action(rec.id, 0, "s1", 101, '{"kind": "x"}', '{"step": 1}',
                                "active", None, 0, now=T0, pending_token="tok")
    assert len(calls) == 1, calls
    assert [s.split()[0] for s in statements] == ["BEGIN", "UPDATE", "INSERT", "UPDATE",
                                                  "COMMIT"], statements


def _reads(s: Storage, game_id: int) -> list[Any]:
    return [lambda: s.get_game(game_id), lambda: s.seats(game_id),
            lambda: s.spectators(game_id), lambda: s.board_post(game_id),
            lambda: s.prefs([101, 102])]


async def test_a_read_in_flight_never_leaves_a_write_unseen(
    storage: SqliteStorage, db_path: Path,
):
    """Reads are kept between moves (`ReadCache`): a read already on its way when a write
    begins must not keep what it read once the write is done."""
    rec = await active_game(storage)
    version = 0

    async def move(k: int) -> None:
        nonlocal version
        version = (await storage.append_action(
            rec.id, version, "s1", 101, "{}", f'{{"step": {version + 1}}}', "active", None, 0,
            now=T0)).version

    async def standin(k: int) -> None:  # on, then off again through the player's return
        if k % 2:
            await storage.set_ai_standin(rec.id, "s1", True)
        else:
            await storage.clear_ai_standins(101, rec.id)

    async def spectator(k: int) -> None:
        if k % 2:
            await storage.add_spectator(rec.id, 103, T0)
        else:
            await storage.remove_spectator(rec.id, 103)

    writes: list[Any] = [
        lambda k: storage.set_dms_ok(rec.id, 101, k % 2 == 1),
        spectator,
        lambda k: storage.set_prefs(PlayerPrefs(user_id=101, away=k % 2 == 1), T0),
        lambda k: storage.set_board_message(rec.id, k, k, f'{{"post": {k}}}'),
        move,
        lambda k: storage.set_reminder(rec.id, T0 + k, k),
        standin,
        lambda k: storage.update_settings(rec.id, GameSettings(reminder_hours=1 + k), T0),
    ]
    k = 0
    async with SqliteStorage(db_path) as fresh:
        for n, read in enumerate(_reads(storage, rec.id)):
            for write in writes:
                for _ in range(2):  # each write changes what it writes, both ways
                    k += 1
                    storage._cache.drop(rec.id)
                    storage._cache.drop_prefs(101)
                    reading = asyncio.create_task(read())
                    await asyncio.sleep(0)  # the read holds the storage, waits for SQLite
                    await write(k)
                    await reading
                    assert await read() == await _reads(fresh, rec.id)[n](), (n, k)
