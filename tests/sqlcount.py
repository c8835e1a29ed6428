"""Counts the SQL a bot runs on its SQLite storage, by storage operation and by caller.

`SqlCount.install(storage)` wraps every public `Storage` coroutine and sets a trace callback on
the SQLite connection: each statement SQLite runs (BEGIN and COMMIT included, each row of an
`executemany` once) is charged to the storage operation running it and to the first caller
outside storage (``bot/tables.py:act``), and each trip to the connection's thread is counted.
Operations are run one at a time while counting (a lock of its own), so a statement is never
charged to the wrong one. Calls made by the test's own driver (a frame in ``demo/`` or
``tests/``) are counted apart as ``driver``: they are not the bot's.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import inspect
import sqlite3
import sys
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

import aiosqlite

from bot import sqlitedriver
from bot.storage import SqliteStorage, Storage

ROOT = Path(__file__).resolve().parents[1]
_STORAGE_FILES = {str(ROOT / "bot" / n) for n in ("storage.py", "pgstorage.py", "sqlitedriver.py")}
_DRIVER_DIRS = (str(ROOT / "demo"), str(ROOT / "tests"))
_inside: contextvars.ContextVar[bool] = contextvars.ContextVar("sqlcount_inside", default=False)


def _caller(frame: FrameType | None) -> tuple[str, bool]:
    """(first caller outside storage as ``file:function``, whether a driver frame is above)."""
    first = ""
    driver = False
    while frame is not None:
        name = frame.f_code.co_filename
        if not first and name not in _STORAGE_FILES and name != __file__:
            rel = Path(name).relative_to(ROOT) if name.startswith(str(ROOT)) else Path(name).name
            first = f"{rel}:{frame.f_code.co_name}"
        if name.startswith(_DRIVER_DIRS) and name != __file__:
            driver = True
        frame = frame.f_back
    return first or "?", driver


@dataclass
class SqlCount:
    statements: Counter[str] = field(default_factory=Counter)
    """Statements by ``operation <- caller`` (bot only)."""
    commits: int = 0
    trips: int = 0
    driver_statements: int = 0
    _current: str | None = None
    _sqlite: sqlite3.Connection | None = None
    _lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    @property
    def total(self) -> int:
        return sum(self.statements.values())

    def by_operation(self) -> Counter[str]:
        out: Counter[str] = Counter()
        for key, n in self.statements.items():
            out[key.split(" <- ")[0]] += n
        return out

    def reset(self) -> None:
        self.statements.clear()
        self.commits = self.trips = self.driver_statements = 0

    # ---- hooks ----------------------------------------------------------------------------
    def _trace(self, sql: str) -> None:  # on the SQLite thread
        label = self._current
        if label is None:
            return  # opening, migrations: no operation of ours
        if label == "driver":
            self.driver_statements += 1
            return
        self.statements[label] += 1
        verb = sql.lstrip().split(None, 1)[0].upper() if sql.strip() else ""
        # A COMMIT, or a write SQLite runs in autocommit (its own transaction, committed).
        if verb in ("COMMIT", "END") or (
                verb in ("INSERT", "UPDATE", "DELETE", "REPLACE")
                and self._sqlite is not None and not self._sqlite.in_transaction):
            self.commits += 1

    def _wrap(self, name: str, method: Callable[..., Awaitable[Any]]) -> Callable[..., Any]:
        @functools.wraps(method)
        async def counted(*args: Any, **kwargs: Any) -> Any:
            if _inside.get():  # an operation calling another: charged to the outer one
                return await method(*args, **kwargs)
            caller, driver = _caller(sys._getframe(1))
            async with self._lock:
                token = _inside.set(True)
                self._current = "driver" if driver else f"{name} <- {caller}"
                try:
                    return await method(*args, **kwargs)
                finally:
                    self._current = None
                    _inside.reset(token)

        return counted

    @classmethod
    async def install(cls, storage: Storage) -> SqlCount:
        assert isinstance(storage, SqliteStorage), "counts SQLite's statements"
        count = cls()
        for name, member in inspect.getmembers(Storage):
            if name.startswith("_") or name in ("open", "close") or not (
                    inspect.iscoroutinefunction(member)):
                continue
            setattr(storage, name, count._wrap(name, getattr(storage, name)))
        raw = await storage.db.get_raw_connection()
        driver = raw.driver_connection
        assert isinstance(driver, sqlitedriver.OneTripConnection)
        count._sqlite = driver.sqlite
        await driver._execute(lambda: driver.sqlite.set_trace_callback(count._trace))
        real = aiosqlite.Connection._execute

        async def trip(conn: aiosqlite.Connection, fn: Any, *a: Any, **k: Any) -> Any:
            if conn is driver and count._current not in (None, "driver"):
                count.trips += 1
            return await real(conn, fn, *a, **k)

        driver._execute = functools.partial(trip, driver)  # type: ignore[method-assign]
        return count

    def report(self, moves: int) -> str:
        lines = [f"{moves} moves: {self.total} statements ({self.total / moves:.2f}/move), "
                 f"{self.commits} commits ({self.commits / moves:.2f}/move), {self.trips} trips "
                 f"to the SQLite thread ({self.trips / moves:.2f}/move); driver "
                 f"{self.driver_statements}"]
        for key, n in self.statements.most_common():
            lines.append(f"  {n:6d}  {n / moves:6.2f}/move  {key}")
        return "\n".join(lines)
