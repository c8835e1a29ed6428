"""PostgreSQL storage (SQLAlchemy's asyncpg driver): the same tables, queries and guarantees as
`SqliteStorage`, from the one implementation in `SqlStorage`.

Chosen by `DATABASE_URL` (``postgresql://…``); several bot processes (one per set of shards)
can share one server.

Concurrency: each operation takes a pooled connection; a write is its own transaction, a read
runs in autocommit (one statement, no BEGIN/ROLLBACK round trips). Per-game serialisation is
the table service's lock inside one process; across processes each game belongs to exactly
one shard's process, and the optimistic version check (plus the (game, seq) primary key on
actions) turns any stray concurrent write into `VersionConflict` or an integrity error rather
than a lost move.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Literal

from sqlalchemy import text
from sqlalchemy.engine import make_url

from bot.coresql import CoreConnection, CoreEngine
from bot.migrations import SCRIPTS
from bot.schema import add_postgresql_options
from bot.storage import SqlStorage, StorageError

# A fixed key for pg_advisory_xact_lock: two processes starting together migrate one at a time.
_MIGRATION_LOCK = 0x4A11B07

add_postgresql_options()  # the tables as PostgreSQL has them (compare_metadata, create_all)


def async_url(dsn: str) -> str:
    """``postgresql://…`` (or ``postgres://``) as SQLAlchemy's asyncpg URL."""
    url = make_url(dsn.replace("postgres://", "postgresql://", 1)
                   if dsn.startswith("postgres://") else dsn)
    return url.set(drivername="postgresql+asyncpg").render_as_string(hide_password=False)


class PgStorage(SqlStorage):
    """`Storage` on a PostgreSQL server through a pool of connections."""

    def __init__(
        self, dsn: str, *, migrations: str | Path = SCRIPTS, schema_target: int | None = None,
        min_size: int = 1, max_size: int = 10,
    ) -> None:
        super().__init__(migrations=migrations, schema_target=schema_target)
        self.dsn = dsn
        self._engine: CoreEngine | None = None
        self._reader: CoreEngine | None = None
        self._min_size = min_size  # kept for callers; the pool opens connections as needed
        self._max_size = max_size

    @property
    def dialect(self) -> Literal["postgresql"]:
        return "postgresql"

    def _where(self) -> dict[str, Any] | None:
        return {"dialect": "postgresql", "dsn": self.dsn}

    async def open(self) -> None:
        if self._engine is not None:
            return
        engine = CoreEngine.create(async_url(self.dsn), pool_size=self._max_size,
                                   max_overflow=0)
        try:
            self._engine = engine
            self._reader = engine.execution_options(isolation_level="AUTOCOMMIT")
            await self._migrate()
        except BaseException:
            await self.close()
            raise

    async def close(self) -> None:
        engine, self._engine, self._reader = self._engine, None, None
        if engine is not None:
            await engine.dispose()

    @property
    def engine(self) -> CoreEngine:
        if self._engine is None:
            raise StorageError("storage is not open; call open() first")
        return self._engine

    @asynccontextmanager
    async def _tx(self) -> AsyncIterator[CoreConnection]:
        """One write transaction on a pooled connection; rolled back on any exception."""
        async with self.engine.begin() as conn:
            yield conn

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[CoreConnection]:
        if self._reader is None:
            raise StorageError("storage is not open; call open() first")
        async with self._reader.connection() as conn:
            yield conn

    async def _lock_for_migration(self, conn: CoreConnection) -> None:
        await conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _MIGRATION_LOCK})
