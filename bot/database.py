"""Which storage the bot opens: PostgreSQL by URL, else the SQLite file.

Kept apart from both stores so neither imports the other (bot/pgstorage.py builds on
bot/storage.py; this module sits above both).
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

from bot.storage import SqliteStorage, Storage, StorageError


def storage_for(database_url: str | None, database_path: str | Path) -> Storage:
    """PostgreSQL when a URL is given (``postgresql://…``), else the SQLite file."""
    if database_url:
        if not database_url.startswith(("postgres://", "postgresql://")):
            raise StorageError(f"DATABASE_URL must be a postgresql:// URL, not {database_url!r}")
        from bot.pgstorage import PgStorage  # asyncpg is only imported when it is used

        return PgStorage(database_url)
    # The bot is its SQLite file's only writer: it keeps its reads between moves.
    return SqliteStorage(database_path, keep_reads=True)


def migrate_here() -> None:
    """The child's side of `SqlStorage._migrate_in_child`: open (and so upgrade) the
    database the job on stdin names, in this process; a failure ends it with its traceback
    on stderr, then the error in one line."""
    job = json.loads(sys.stdin.read())
    where, scripts, target = job.pop("dialect"), job.pop("migrations"), job.pop("target")
    storage: Storage
    if where == "sqlite":
        storage = SqliteStorage(job["path"], migrations=scripts, schema_target=target,
                                busy_timeout_ms=job["busy_timeout_ms"])
    else:
        from bot.pgstorage import PgStorage

        storage = PgStorage(job["dsn"], migrations=scripts, schema_target=target)

    async def run() -> None:
        await storage.open()
        await storage.close()

    try:
        asyncio.run(run())
    except Exception as exc:
        import traceback

        traceback.print_exc()
        # Last, the one line the bot's error quotes (SQLAlchemy's messages run to several).
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
        print(f"{type(exc).__name__}: {first}", file=sys.stderr)
        raise SystemExit(1) from None
