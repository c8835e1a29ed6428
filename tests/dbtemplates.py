"""Databases already at the newest schema, for tests that need a database but do not test
the migrations themselves: Alembic's upgrade of an empty database costs each of them some
0.05 s of CPU and 0.15–0.2 s of wall time (its writes are synced), and some 400 tests start
from one (every e2e `table`, every `storage` test). Each test process (each pytest-xdist worker)
migrates one SQLite file once and copies it; PostgreSQL copies a migrated database
(`tests/pgserver.py: PostgresServer.new_migrated_database`).

The migrations keep their own tests on empty databases (`tests/bot/test_storage.py`, which the
`storage` fixture gives fresh databases, and the start-up tests that build their own files).
"""

from __future__ import annotations

import atexit
import shutil
import tempfile
from pathlib import Path

from bot.storage import SqliteStorage

_template: Path | None = None


async def migrated_sqlite(dest: Path) -> Path:
    """`dest`, a copy of a SQLite database Alembic brought to the newest schema (the same
    file `SqliteStorage.open()` would have made there; opening it finds nothing to do)."""
    global _template
    if _template is None:
        folder = Path(tempfile.mkdtemp(prefix="hauntbot-template-"))
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        path = folder / "template.sqlite3"
        storage = SqliteStorage(path)
        await storage.open()
        await storage.close()  # a clean close folds the write-ahead log into the file
        _template = path
    shutil.copyfile(_template, dest)
    return dest
