"""aiosqlite connections whose cursors make one trip to the SQLite thread per statement.

SQLAlchemy's aiosqlite adapter drives a cursor the DB-API way: create it, execute, fetch the
rows, close it. aiosqlite runs each of those as its own call on the connection's thread (a
queue put, a thread wake-up, a callback into the event loop), so a statement cost three or
four trips, and a move (BEGIN, three statements, COMMIT) some fifteen: three times the CPU
the bot spent per move before SQLAlchemy. These cursors do the whole statement in one call
(execute, and fetch every row when it returns rows) and keep the results for the adapter to
read; nothing else changes. Handed to SQLAlchemy through `CoreEngine.create(async_creator=)`
(bot/coresql.py).

The writes of a move go further still: `SqliteStorage._write` runs a whole transaction
(BEGIN, its statements, COMMIT) as one call on the connection's thread, on the sqlite3
connection itself.

It uses aiosqlite's `Connection._execute` (run a function on the connection's thread), the
one hook aiosqlite's own cursors are built on; `tests/bot/test_storage.py` counts the trips
a move makes, so a change in aiosqlite shows up there.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any

import aiosqlite

_Result = tuple[Any, list[Any], int, int | None]


class OneTripCursor:
    """The slice of aiosqlite's `Cursor` SQLAlchemy's adapter uses, one thread trip a statement."""

    arraysize = 1

    def __init__(self, connection: OneTripConnection) -> None:
        self._connection = connection
        self.description: Any = None
        self.rowcount = -1
        self.lastrowid: int | None = None
        self._rows: list[Any] = []

    async def __aenter__(self) -> OneTripCursor:
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        await self.close()

    async def _run(self, call: Callable[[sqlite3.Cursor], object]) -> OneTripCursor:
        def on_thread() -> _Result:
            cursor = self._connection.sqlite.cursor()
            try:
                call(cursor)
                rows = cursor.fetchall() if cursor.description else []
                return cursor.description, rows, cursor.rowcount, cursor.lastrowid
            finally:
                cursor.close()

        result: _Result = await self._connection._execute(on_thread)
        self.description, self._rows, self.rowcount, self.lastrowid = result
        return self

    async def execute(self, sql: str, parameters: Sequence[Any] | None = None) -> OneTripCursor:
        return await self._run(lambda c: c.execute(sql, parameters or ()))

    async def executemany(self, sql: str,
                          parameters: Iterable[Sequence[Any]]) -> OneTripCursor:
        return await self._run(lambda c: c.executemany(sql, parameters))

    async def fetchall(self) -> list[Any]:
        rows, self._rows = self._rows, []
        return rows

    async def fetchmany(self, size: int | None = None) -> list[Any]:
        n = self.arraysize if size is None else size
        rows, self._rows = self._rows[:n], self._rows[n:]
        return rows

    async def fetchone(self) -> Any:
        return self._rows.pop(0) if self._rows else None

    async def close(self) -> None:
        self._rows = []


class OneTripConnection(aiosqlite.Connection):
    """An aiosqlite connection handing out `OneTripCursor`s."""

    def cursor(self) -> OneTripCursor:  # type: ignore[override]
        return OneTripCursor(self)

    @property
    def sqlite(self) -> sqlite3.Connection:
        """The sqlite3 connection (use it only on the connection's thread)."""
        return self._conn

    async def begin_immediate(self) -> None:
        """BEGIN IMMEDIATE, in one trip. A transaction still open here was left by an
        operation cancelled mid-way (its BEGIN ran after it gave up): it is rolled back."""
        def on_thread() -> None:
            if self.sqlite.in_transaction:
                self.sqlite.rollback()
            self.sqlite.execute("BEGIN IMMEDIATE")

        await self._execute(on_thread)

    async def rollback_if_open(self) -> None:
        """ROLLBACK if a transaction is open, decided on the connection's thread."""
        def on_thread() -> None:
            if self.sqlite.in_transaction:
                self.sqlite.rollback()

        await self._execute(on_thread)


async def connect(path: str | Path) -> OneTripConnection:
    """Open `path` (a ``file:`` URI too) in driver autocommit: the caller writes BEGIN."""
    where = str(path)

    def connector() -> sqlite3.Connection:
        return sqlite3.connect(where, isolation_level=None, uri=where.startswith("file:"))

    connection = OneTripConnection(connector, iter_chunk_size=64)
    connection._thread.daemon = True  # as SQLAlchemy's own aiosqlite connect does
    await connection  # starts the thread and connects
    return connection
