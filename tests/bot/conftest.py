"""The storage fixture every persistence test shares: each test that uses it runs once on
SQLite and once on a real PostgreSQL server (`tests/pgserver.py`), except tests that read the
SQLite file itself (they take `db_path` directly).

The database starts at the newest schema, copied from one migrated once per test process
(`tests/dbtemplates.py`), except in a module that sets `FRESH_DATABASES = True` (the storage
tests, which test the migrations): there Alembic upgrades an empty database, as a first start
does."""

from __future__ import annotations

import inspect
import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from bot.storage import SqliteStorage, Storage
from tests.dbtemplates import migrated_sqlite
from tests.pgserver import PostgresServer


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "storage" not in metafunc.fixturenames:
        return
    direct = set(inspect.signature(metafunc.function).parameters)
    backends = ["sqlite"] if "db_path" in direct else ["sqlite", "postgres"]
    metafunc.parametrize("backend", backends, indirect=True)


@pytest.fixture
def backend(request: pytest.FixtureRequest) -> str:
    return str(getattr(request, "param", "sqlite"))


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    url = os.environ.get("TEST_DATABASE_URL")
    if url:
        yield PostgresServer(url)
        return
    try:
        server = PostgresServer.start()
    except (FileNotFoundError, OSError) as exc:
        if os.environ.get("REQUIRE_POSTGRES") == "1":
            raise
        pytest.skip(f"no PostgreSQL to test against: {exc}")
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "games.db"


@pytest.fixture
async def storage(
    backend: str, db_path: Path, request: pytest.FixtureRequest,
) -> AsyncIterator[Storage]:
    s: Storage
    fresh = bool(getattr(request.module, "FRESH_DATABASES", False))
    if backend == "postgres":
        from bot.pgstorage import PgStorage

        server: PostgresServer = request.getfixturevalue("postgres_server")
        s = PgStorage(await (server.new_database() if fresh
                             else server.new_migrated_database()))
    else:
        if not fresh:
            await migrated_sqlite(db_path)
        s = SqliteStorage(db_path, keep_reads=True)  # as the bot opens it (bot/database.py)
    await s.open()
    yield s
    await s.close()
