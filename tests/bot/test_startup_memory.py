"""What the bot's long-running process loads at start (issue #15: the whole process tree in
120 MiB; issue #25: 110 MiB, the render worker started only when a lobby opens, see
tests/e2e/test_render_worker_start.py). Each check runs a fresh interpreter: this test process
has imported everything."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bot import migrations, storage
from bot.migrations import LATEST, revisions
from bot.storage import SqliteStorage, StorageError
from tests.bot.test_storage import new_revision

ROOT = Path(__file__).resolve().parents[2]

OPEN_AS_THE_BOT = """
import asyncio, json, sys
from bot.client import tune_process
from bot.storage import SqliteStorage
tune_process(())  # as `python -m bot run` does before it opens its storage

async def main():
    s = SqliteStorage(sys.argv[1])
    await s.open()
    version = await s.schema_version()
    await s.close()
    heavy = sorted(set(sys.modules) & {"alembic", "mako", "pygments", "openskill",
                                       "sqlalchemy.dialects.postgresql", "sqlalchemy.orm",
                                       "sqlalchemy.ext.asyncio"})
    print(json.dumps({"version": version, "heavy": heavy}))

asyncio.run(main())
"""


def open_as_the_bot(db: Path) -> dict[str, object]:
    out = subprocess.run([sys.executable, "-c", OPEN_AS_THE_BOT, str(db)], cwd=ROOT,
                         capture_output=True, text=True, timeout=120, check=True)
    result: dict[str, object] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def test_a_sqlite_bot_never_loads_alembic_nor_postgresql_new_database_or_current(
    tmp_path: Path,
):
    db = tmp_path / "bot.sqlite3"
    # A new database: the upgrade runs in a child process.
    assert open_as_the_bot(db) == {"version": LATEST, "heavy": []}
    # Its schema current: read with plain SQL, nothing to run.
    assert open_as_the_bot(db) == {"version": LATEST, "heavy": []}


ORM_AFTER_IMPORTS = """
import importlib, json, sys
from bot.client import COGS
import bot.database, bot.pgstorage, bot.dbcopy
for cog in COGS:
    importlib.import_module(cog)
print(json.dumps(sorted(m for m in sys.modules
                        if m.startswith(("sqlalchemy.orm", "sqlalchemy.ext")))))
"""


def test_no_storage_loads_sqlalchemys_orm():
    """Issue #25: `sqlalchemy.ext.asyncio` imports the ORM (about 8 MiB) though storage runs
    Core only; every storage module, PostgreSQL's and the copy tool's included, and every
    cog, go without it (bot/coresql.py)."""
    out = subprocess.run([sys.executable, "-c", ORM_AFTER_IMPORTS], cwd=ROOT,
                         capture_output=True, text=True, timeout=120, check=True)
    assert json.loads(out.stdout.strip().splitlines()[-1]) == []


DRAWING_AFTER_IMPORTS = """
import importlib, json, sys
from bot.client import COGS
import bot.__main__
for cog in COGS:
    importlib.import_module(cog)
print(json.dumps(sorted(m for m in sys.modules if m.split(".")[0] in ("PIL", "renders"))))
"""


def test_the_bots_process_never_imports_the_drawing_code():
    """Issue #25: pictures are drawn in the render worker, started when a lobby opens; the
    bot's own process (every cog loaded) holds only the renderers' words, never Pillow nor the
    drawing modules (several MiB the worker holds instead)."""
    out = subprocess.run([sys.executable, "-c", DRAWING_AFTER_IMPORTS], cwd=ROOT,
                         capture_output=True, text=True, timeout=120, check=True)
    assert json.loads(out.stdout.strip().splitlines()[-1]) == [
        "renders", "renders.cardwords", "renders.statswords"]


def test_head_read_from_the_revision_files_is_alembics_head(tmp_path: Path):
    assert migrations.head() == migrations.number(revisions()[-1]) == LATEST
    scripts = new_revision(tmp_path, LATEST + 1, "pass")
    assert migrations.head(scripts) == migrations.number(revisions(scripts)[-1]) == LATEST + 1


def test_postgresql_still_gets_the_partial_rematch_index():
    """The PostgreSQL option left out of `bot.schema` (so SQLite bots skip the dialect) is
    there once PostgreSQL storage is imported: the tables as compared and created on it."""
    import sqlalchemy as sa
    from sqlalchemy.dialects import postgresql

    import bot.pgstorage  # noqa: F401  (adds the option)
    from bot.schema import games_rematch

    ddl = str(sa.schema.CreateIndex(games_rematch).compile(dialect=postgresql.dialect()))
    assert "WHERE rematch_of IS NOT NULL" in ddl


@pytest.fixture
def migrate_in_child(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(storage, "MIGRATE_IN_CHILD", True)


@pytest.mark.usefixtures("migrate_in_child")
async def test_an_upgrade_in_a_child_process_lands_and_a_failed_one_says_why(tmp_path: Path):
    db = tmp_path / "bot.sqlite3"
    old = SqliteStorage(db, schema_target=LATEST - 1)
    await old.open()
    assert await old.schema_version() == LATEST - 1
    await old.close()
    broken = new_revision(tmp_path, LATEST + 1, 'op.execute("NOT SQL AT ALL")')
    with pytest.raises(StorageError,
                       match=f"schema {LATEST + 1} failed: OperationalError: .*syntax error"):
        await SqliteStorage(db, migrations=broken).open()
    s = SqliteStorage(db)  # the broken upgrade landed nothing; the shipped one does
    await s.open()
    try:
        assert await s.schema_version() == LATEST
    finally:
        await s.close()


@pytest.mark.usefixtures("migrate_in_child")
async def test_an_in_memory_database_still_migrates_in_process():
    s = SqliteStorage(":memory:")
    await s.open()
    try:
        assert await s.schema_version() == LATEST
        assert s._where() is None
    finally:
        await s.close()

