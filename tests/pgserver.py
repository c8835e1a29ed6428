"""A throwaway PostgreSQL server for the storage tests: initdb in a temporary folder, start on
a free 127.0.0.1 port, one fresh database per test, stopped at the end of the session (one
server per pytest-xdist worker: each worker is a session of its own). A test that does not test
the migrations takes `new_migrated_database()`: a copy of one database migrated once.

`TEST_DATABASE_URL` (an admin URL) uses an existing server instead. Without either, the
PostgreSQL variants are skipped, unless `REQUIRE_POSTGRES=1` (set by `.ci/run`, which
installs PostgreSQL) makes that a failure.
"""

from __future__ import annotations

import glob
import itertools
import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

_counter = itertools.count(1)


def _bindir() -> Path | None:
    found = shutil.which("pg_ctl")
    if found:
        return Path(found).resolve().parent
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    return Path(candidates[-1]).parent if candidates else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PostgresServer:
    """One local cluster; `new_database()` gives a URL to an empty database of its own."""

    def __init__(self, admin_url: str, stop: list[str] | None = None,
                 folder: Path | None = None) -> None:
        self.admin_url = admin_url
        self._stop = stop
        self._folder = folder
        self._template: str | None = None

    @classmethod
    def start(cls) -> PostgresServer:
        bindir = _bindir()
        if bindir is None:
            raise FileNotFoundError("PostgreSQL's pg_ctl/initdb are not installed")
        folder = Path(tempfile.mkdtemp(prefix="hauntbot-pg-"))
        data = folder / "data"
        prefix: list[str] = []
        if os.geteuid() == 0:
            # initdb refuses to run as root: run the cluster as the postgres system user.
            shutil.chown(folder, "postgres")
            prefix = ["runuser", "-u", "postgres", "--"]
        subprocess.run(
            [*prefix, str(bindir / "initdb"), "-D", str(data), "-U", "hauntbot",
             "--auth=trust", "-E", "UTF8", "--no-sync"],
            check=True, capture_output=True)
        # Under `pytest -n` each worker starts its own server: the port found free may be
        # taken by another worker's server before this one binds it, so try another.
        for attempt in range(5):
            port = _free_port()
            opts = (f"-p {port} -c listen_addresses=127.0.0.1 -k {folder} -c fsync=off "
                    "-c synchronous_commit=off -c full_page_writes=off -c max_connections=200")
            started = subprocess.run(
                [*prefix, str(bindir / "pg_ctl"), "-D", str(data), "-o", opts, "-w",
                 "-l", str(folder / "server.log"), "start"],
                capture_output=True)
            if started.returncode == 0:
                break
            if attempt == 4:
                started.check_returncode()
        stop = [*prefix, str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"]
        return cls(f"postgresql://hauntbot@127.0.0.1:{port}/postgres", stop, folder)

    async def new_database(self) -> str:
        import asyncpg

        name = f"t{os.getpid()}_{next(_counter)}"
        conn = await asyncpg.connect(self.admin_url)
        try:
            await conn.execute(f'CREATE DATABASE "{name}"')
        finally:
            await conn.close()
        base = self.admin_url.rsplit("/", 1)[0]
        return f"{base}/{name}"

    async def new_migrated_database(self) -> str:
        """A URL to a database of its own already at the newest schema: PostgreSQL copies a
        template this server's process migrated once (`CREATE DATABASE … TEMPLATE`), instead
        of Alembic running in each test."""
        import asyncpg

        from bot.pgstorage import PgStorage

        if self._template is None:
            url = await self.new_database()
            storage = PgStorage(url)
            await storage.open()
            await storage.close()  # a template must have no connections when copied
            self._template = url.rsplit("/", 1)[1]
        name = f"t{os.getpid()}_{next(_counter)}"
        conn = await asyncpg.connect(self.admin_url)
        try:
            await conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{self._template}"')
        finally:
            await conn.close()
        base = self.admin_url.rsplit("/", 1)[0]
        return f"{base}/{name}"

    def stop(self) -> None:
        if self._stop is not None:
            subprocess.run(self._stop, check=False, capture_output=True)
        if self._folder is not None:
            shutil.rmtree(self._folder, ignore_errors=True)
