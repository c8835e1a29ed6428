"""Which storage the bot opens: PostgreSQL by URL, else the SQLite file.

Kept apart from both stores so neither imports the other (bot/pgstorage.py builds on
bot/storage.py; this module sits above both).
"""

from __future__ import annotations

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
