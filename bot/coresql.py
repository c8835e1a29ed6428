"""SQLAlchemy Core, awaited, without `sqlalchemy.ext.asyncio` (issue #25, item 4).

`sqlalchemy.ext.asyncio`'s package imports its `AsyncSession` and so SQLAlchemy's whole ORM
(38 modules, about 8 MiB that stay for the bot's life) though storage only runs Core
statements. What storage uses of it is small: an engine whose dialect is the async one
(aiosqlite, asyncpg), connections whose calls run the synchronous Core connection in a greenlet
(`sqlalchemy.util.concurrency.greenlet_spawn`, where the async driver's awaits happen), and
transactions that commit or roll back whole. That is this module, built on the same greenlet
bridge `ext.asyncio` itself uses, so statements, results, pools and cancellation behave as
they did.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from contextlib import asynccontextmanager
from typing import Any, Concatenate, ParamSpec, TypeVar

from sqlalchemy import create_engine
from sqlalchemy.engine import URL, Connection, CursorResult, Engine
from sqlalchemy.pool import PoolProxiedConnection
from sqlalchemy.sql.base import Executable
from sqlalchemy.util.concurrency import greenlet_spawn

T = TypeVar("T")
P = ParamSpec("P")
Params = dict[str, Any] | list[dict[str, Any]] | None
Rows = CursorResult[*tuple[Any, ...]]
"""A statement's result: rows of any width (SQLAlchemy's own `TupleAny`)."""


async def _to_completion(work: Coroutine[Any, Any, T]) -> T:
    """Run `work` to its end even if the caller is cancelled meanwhile (a connection's close:
    left half-way it would return the connection to a pool already disposed of); the
    cancellation is raised once it is over, as `ext.asyncio` does."""
    task = asyncio.ensure_future(work)
    cancelled: asyncio.CancelledError | None = None
    while True:
        try:
            result = await asyncio.shield(task)
        except asyncio.CancelledError as err:
            if task.done():
                raise
            cancelled = err
        else:
            break
    if cancelled is not None:
        raise cancelled
    return result


class CoreConnection:
    """One pooled connection: every call runs the synchronous Core `Connection` in a greenlet.

    Rows come back buffered (the async dialects fetch a statement's rows as it runs), so a
    result's `.all()`, `.first()` and `.scalar()` need no await."""

    def __init__(self, sync_connection: Connection) -> None:
        self.sync_connection = sync_connection

    async def execute(self, statement: Executable, parameters: Params = None) -> Rows:
        result: Rows = await greenlet_spawn(
            self.sync_connection.execute, statement, parameters, _require_await=True)
        return result

    async def exec_driver_sql(self, statement: str,
                              parameters: Params | tuple[Any, ...] = None) -> Rows:
        result: Rows = await greenlet_spawn(
            self.sync_connection.exec_driver_sql, statement, parameters, _require_await=True)
        return result

    async def run_sync(self, fn: Callable[Concatenate[Connection, P], T],
                       *args: P.args, **kwargs: P.kwargs) -> T:
        """`fn(connection, …)` with the synchronous connection (Alembic, `inspect`)."""
        return await greenlet_spawn(functools.partial(fn, self.sync_connection, *args, **kwargs))

    async def get_raw_connection(self) -> PoolProxiedConnection:
        """The pooled DB-API connection (reconnecting an invalidated one)."""
        raw: PoolProxiedConnection = await greenlet_spawn(
            getattr, self.sync_connection, "connection")
        return raw

    @property
    def invalidated(self) -> bool:
        return self.sync_connection.invalidated

    async def commit(self) -> None:
        await greenlet_spawn(self.sync_connection.commit)

    async def rollback(self) -> None:
        await greenlet_spawn(self.sync_connection.rollback)

    async def close(self) -> None:
        await _to_completion(greenlet_spawn(self.sync_connection.close))


class CoreEngine:
    """An engine on an async dialect (``sqlite+aiosqlite``, ``postgresql+asyncpg``)."""

    def __init__(self, sync_engine: Engine) -> None:
        self.sync_engine = sync_engine

    @classmethod
    def create(cls, url: str | URL, *,
               async_creator: Callable[[], Awaitable[Any]] | None = None,
               **kwargs: Any) -> CoreEngine:
        """`create_async_engine`'s engine: `_is_async` picks the dialect's async class and
        its asyncio pool; `async_creator` opens the driver's connection itself."""
        if async_creator is not None:
            def creator() -> Any:
                dbapi: Any = sync_engine.dialect.dbapi
                return dbapi.connect(async_creator_fn=async_creator)

            kwargs["creator"] = creator
        sync_engine = create_engine(url, _is_async=True, **kwargs)
        return cls(sync_engine)

    def execution_options(self, **options: Any) -> CoreEngine:
        """The same pool, its connections with these options (``isolation_level=…``)."""
        return CoreEngine(self.sync_engine.execution_options(**options))

    async def connect(self) -> CoreConnection:
        """A connection checked out of the pool; `close()` it."""
        return CoreConnection(await greenlet_spawn(self.sync_engine.connect))

    @asynccontextmanager
    async def connection(self) -> AsyncIterator[CoreConnection]:
        """A connection for the block, back in the pool after it (rolled back if a
        transaction was left open)."""
        conn = await self.connect()
        try:
            yield conn
        finally:
            await conn.close()

    @asynccontextmanager
    async def begin(self) -> AsyncIterator[CoreConnection]:
        """A connection in a transaction for the block: committed when it ends, rolled back
        if it raises (cancellation included)."""
        async with self.connection() as conn:
            await greenlet_spawn(conn.sync_connection.begin)
            try:
                yield conn
            except BaseException:
                await _to_completion(conn.rollback())
                raise
            await conn.commit()

    async def dispose(self) -> None:
        await greenlet_spawn(self.sync_engine.dispose)
