"""Moving a bot from its SQLite file to PostgreSQL: `python -m bot migrate-db`.

Copies every table of `bot.schema` row for row, ids included: a game's id is in every button
posted for it and in rematch links, so it must keep its id for the boards already in Discord
to keep working. Both databases are first brought to the newest schema by opening them (an
old SQLite file is upgraded in place), so their tables and columns match. The target must
hold no games (a fresh database, at most migrated by a bot start); the copy is one
PostgreSQL transaction, so a failure leaves it empty. Then the target's game-id sequence
moves past the highest copied id, and every game is read back from both sides and compared.

Stop the bot before copying: a move made during the copy would be left behind.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel
from sqlalchemy import (
    ColumnElement,
    Double,
    Integer,
    Table,
    func,
    insert,
    literal_column,
    select,
    text,
)

from bot.pgstorage import PgStorage
from bot.schema import games, metadata
from bot.storage import SqliteStorage, StorageError

BATCH = 1000
"""Rows read from SQLite and sent to PostgreSQL at a time."""


class CopyReport(BaseModel):
    """What was copied: rows per table, and how many games were read back identical."""

    rows: dict[str, int]
    games_verified: int


def _coercer(table: Table) -> dict[str, type]:
    # SQLite's columns are loosely typed (a REAL column may hand back an int); asyncpg wants
    # the exact Python type of each PostgreSQL column.
    out: dict[str, type] = {}
    for column in table.columns:
        if isinstance(column.type, Integer):
            out[column.name] = int
        elif isinstance(column.type, Double):
            out[column.name] = float
    return out


def _coerce(row: dict[str, Any], types: dict[str, type]) -> dict[str, Any]:
    return {k: (types[k](v) if v is not None and k in types else v) for k, v in row.items()}


async def copy_database(source: SqliteStorage, target: PgStorage) -> CopyReport:
    """Copy every row of the open `source` into the open, empty `target`, and verify."""
    if await source.schema_version() != await target.schema_version():
        raise StorageError("the two databases are at different schema versions")
    counts: dict[str, int] = {}
    async with target.engine.begin() as into:
        if (await into.execute(select(func.count()).select_from(games))).scalar_one():
            raise StorageError("the PostgreSQL database already holds games; copy into an "
                               "empty one")
        for table in metadata.sorted_tables:  # games before the tables that refer to it
            types = _coercer(table)
            counts[table.name] = 0
            # Every table is a rowid table: read it in pages of rowids.
            rowid: ColumnElement[int] = literal_column("rowid", Integer())
            last = 0
            while True:
                async with source._read() as conn:
                    batch = (await conn.execute(
                        select(rowid, table).where(rowid > last).order_by(rowid).limit(BATCH)
                    )).all()
                if not batch:
                    break
                last = int(batch[-1][0])
                await into.execute(insert(table), [
                    _coerce(dict(zip(table.columns.keys(), r[1:], strict=True)), types)
                    for r in batch])
                counts[table.name] += len(batch)
        # The identity hands out the next id after the highest copied one.
        await into.execute(text(
            "SELECT setval(pg_get_serial_sequence('games', 'id'),"
            " COALESCE((SELECT MAX(id) FROM games), 1), EXISTS (SELECT 1 FROM games))"))
    async with source._read() as conn:
        ids = [int(i) for i in (await conn.execute(select(games.c.id))).scalars()]
    for game_id in ids:
        if await source.export_game(game_id) != await target.export_game(game_id):
            raise StorageError(f"game {game_id} reads back differently from PostgreSQL")
    return CopyReport(rows=counts, games_verified=len(ids))
