"""Moving a bot from its SQLite file to PostgreSQL: `python -m bot migrate-db`.

Copies every table row for row, ids included: a game's id is in every button posted for it
and in rematch links, so it must keep its id for the boards already in Discord to keep
working. Both databases are first brought to the newest schema by opening them, so their
tables and columns match. The target must hold no games (a fresh database, at most migrated
by a bot start); the copy is one PostgreSQL transaction, so a failure leaves it empty. Then
the target's game-id sequence moves past the highest copied id, and every game is read back
from both sides and compared.

Stop the bot before copying: a move made during the copy would be left behind.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from bot.pgstorage import PgStorage
from bot.storage import SqliteStorage, StorageError

BATCH = 1000
"""Rows read from SQLite and sent to PostgreSQL at a time."""


class CopyReport(BaseModel):
    """What was copied: rows per table, and how many games were read back identical."""

    rows: dict[str, int]
    games_verified: int


def _coerce(data_type: str, value: Any) -> Any:
    # SQLite's columns are loosely typed; PostgreSQL's binary COPY wants the exact Python type.
    if value is None:
        return None
    if data_type == "bigint":
        return int(value)
    if data_type == "double precision":
        return float(value)
    return value


async def _tables(source: SqliteStorage) -> list[str]:
    """The bot's tables, `games` first: every other table refers to it."""
    rows = await source.db.execute_fetchall(
        "SELECT name FROM sqlite_master WHERE type = 'table'"
        " AND name NOT LIKE 'sqlite_%' AND name != 'schema_migrations' ORDER BY name")
    names = [str(r[0]) for r in rows]
    return sorted(names, key=lambda n: n != "games")


async def copy_database(source: SqliteStorage, target: PgStorage) -> CopyReport:
    """Copy every row of the open `source` into the open, empty `target`, and verify."""
    if await source.schema_version() != await target.schema_version():
        raise StorageError("the two databases are at different schema versions")
    tables = await _tables(source)
    counts: dict[str, int] = {}
    async with target.pool.acquire() as conn, conn.transaction():
        if await conn.fetchval("SELECT EXISTS (SELECT 1 FROM games)"):
            raise StorageError("the PostgreSQL database already holds games; copy into an "
                               "empty one")
        for table in tables:
            types = {str(r["column_name"]): str(r["data_type"]) for r in await conn.fetch(
                "SELECT column_name, data_type FROM information_schema.columns"
                " WHERE table_schema = current_schema() AND table_name = $1", table)}
            cursor = await source.db.execute(f"SELECT * FROM {table}")
            columns = [str(d[0]) for d in cursor.description]
            missing = [c for c in columns if c not in types]
            if missing:
                raise StorageError(f"PostgreSQL's {table} has no column(s) {missing}")
            counts[table] = 0
            while batch := list(await cursor.fetchmany(BATCH)):
                records = [tuple(_coerce(types[c], v) for c, v in zip(columns, row, strict=True))
                           for row in batch]
                await conn.copy_records_to_table(table, records=records, columns=columns)
                counts[table] += len(records)
            await cursor.close()
        # The identity hands out the next id after the highest copied one.
        await conn.execute(
            "SELECT setval(pg_get_serial_sequence('games', 'id'),"
            " COALESCE((SELECT MAX(id) FROM games), 1), EXISTS (SELECT 1 FROM games))")
    ids = [int(r[0]) for r in await source.db.execute_fetchall("SELECT id FROM games")]
    for game_id in ids:
        if await source.export_game(game_id) != await target.export_game(game_id):
            raise StorageError(f"game {game_id} reads back differently from PostgreSQL")
    return CopyReport(rows=counts, games_verified=len(ids))
