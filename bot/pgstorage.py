"""PostgreSQL storage (asyncpg): the same tables, SQL and guarantees as `SqliteStorage`.

Chosen by `DATABASE_URL` (``postgresql://…``); several bot processes (one per set of shards)
can share one server. Every query `SqliteStorage` writes is portable SQL with ``?``
parameters; `_PgConnection` gives an asyncpg connection the slice of aiosqlite's API those
queries use (``execute``, ``execute_fetchall``, ``lastrowid``, ``rowcount``) and rewrites the
two SQLite spellings PostgreSQL lacks (``?`` parameters and ``INSERT OR IGNORE``). So there
is one implementation of every storage operation, and the storage test suite runs against both.

Concurrency: each operation takes a pooled connection and its own transaction. Per-game
serialisation is the table service's lock inside one process; across processes each game
belongs to exactly one shard's process, and the optimistic version check (plus the
(game, seq) primary key on actions) turns any stray concurrent write into `VersionConflict`
or an integrity error rather than a lost move.
"""

from __future__ import annotations

import logging
import re
import sqlite3
import time
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from typing import Any

import asyncpg

from bot.migrations import MIGRATIONS, Migration
from bot.storage import SqliteStorage, StorageError

log = logging.getLogger(__name__)

# A fixed key for pg_advisory_xact_lock: two processes starting together migrate one at a time.
_MIGRATION_LOCK = 0x4A11B07


def _numbered_params(sql: str) -> str:
    """``?`` → ``$1, $2, …`` (the storage SQL never has a ``?`` inside a string literal)."""
    counter = iter(range(1, 10_000))
    return re.sub(r"\?", lambda _m: f"${next(counter)}", sql)


def _dialect(sql: str) -> tuple[str, bool]:
    """PostgreSQL text for one storage statement, and whether it returns a new game id."""
    text = sql
    if text.lstrip().upper().startswith("INSERT OR IGNORE INTO"):
        text = text.replace("INSERT OR IGNORE INTO", "INSERT INTO", 1) + " ON CONFLICT DO NOTHING"
    returns_id = text.lstrip().upper().startswith("INSERT INTO GAMES ")
    if returns_id:
        text += " RETURNING id"
    return _numbered_params(text), returns_id


class _Cursor:
    """What `SqliteStorage` reads back after a write: the new row id and the rows touched."""

    def __init__(self, lastrowid: int | None, rowcount: int) -> None:
        self.lastrowid = lastrowid
        self.rowcount = rowcount


def _rowcount(status: str) -> int:
    # asyncpg returns the command tag: "UPDATE 3", "INSERT 0 1", "DELETE 0".
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


class _PgConnection:
    """An asyncpg connection speaking the aiosqlite calls `SqliteStorage` makes."""

    def __init__(self, conn: asyncpg.Connection, in_transaction: bool) -> None:
        self._conn = conn
        self.in_transaction = in_transaction

    async def execute(self, sql: str, parameters: Iterable[Any] = ()) -> _Cursor:
        text, returns_id = _dialect(sql)
        try:
            if returns_id:
                row = await self._conn.fetchrow(text, *parameters)
                return _Cursor(int(row[0]) if row is not None else None, 1)
            status = await self._conn.execute(text, *parameters)
        except asyncpg.IntegrityConstraintViolationError as exc:
            # The storage layer maps integrity errors (duplicate seat, second rematch) to its
            # own exceptions; it catches the stdlib class so both backends share that code.
            raise sqlite3.IntegrityError(str(exc)) from exc
        return _Cursor(None, _rowcount(status))

    async def execute_fetchall(self, sql: str, parameters: Iterable[Any] = ()) -> list[Any]:
        text, _ = _dialect(sql)
        return list(await self._conn.fetch(text, *parameters))


class PgStorage(SqliteStorage):
    """`Storage` on a PostgreSQL server through an asyncpg connection pool."""

    def __init__(
        self, dsn: str, *, migrations: Sequence[Migration] = MIGRATIONS,
        min_size: int = 1, max_size: int = 10,
    ) -> None:
        super().__init__(dsn, migrations=migrations)
        self.dsn = dsn
        self._pool: asyncpg.Pool | None = None
        self._min_size = min_size
        self._max_size = max_size

    async def open(self) -> None:
        if self._pool is not None:
            return
        pool = await asyncpg.create_pool(self.dsn, min_size=self._min_size,
                                         max_size=self._max_size)
        try:
            self._pool = pool
            await self._migrate()
        except BaseException:
            self._pool = None
            await pool.close()
            raise

    async def close(self) -> None:
        if self._pool is not None:
            pool, self._pool = self._pool, None
            await pool.close()

    @property
    def pool(self) -> asyncpg.Pool:
        if self._pool is None:
            raise StorageError("storage is not open; call open() first")
        return self._pool

    @asynccontextmanager
    async def _tx(self) -> AsyncIterator[Any]:  # type: ignore[override]
        """One write transaction on a pooled connection; rolled back on any exception."""
        async with self.pool.acquire() as conn, conn.transaction():
            yield _PgConnection(conn, in_transaction=True)

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[Any]:  # type: ignore[override]
        async with self.pool.acquire() as conn:
            yield _PgConnection(conn, in_transaction=False)

    async def _migrate(self) -> None:
        async with self.pool.acquire() as conn, conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1)", _MIGRATION_LOCK)
            await conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations ("
                " number BIGINT PRIMARY KEY, name TEXT NOT NULL,"
                " applied_at DOUBLE PRECISION NOT NULL)"
            )
            applied = int(await conn.fetchval(
                "SELECT COALESCE(MAX(number), 0) FROM schema_migrations"))
            for m in sorted(self._migrations, key=lambda m: m.number):
                if m.number <= applied:
                    continue
                log.info("applying migration %04d_%s to PostgreSQL", m.number, m.name)
                async with conn.transaction():  # a savepoint: one migration, all or nothing
                    for statement in m.postgres:
                        await conn.execute(statement)
                    await conn.execute(
                        "INSERT INTO schema_migrations (number, name, applied_at)"
                        " VALUES ($1, $2, $3)", m.number, m.name, time.time())
