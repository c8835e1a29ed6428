"""Schema migrations: Alembic revisions, run at `Storage.open()` on SQLite and PostgreSQL alike.

The revisions live in `schema/versions/` (shipped with the package). Their ids are the schema
version numbers, four digits, each the previous plus one ("0001", "0002", …): the number
`Storage.schema_version()` reports. A new schema change is the next number: change the table
in `bot/schema.py` and write the revision (``alembic revision -m "…" --rev-id 0006`` from
the repository root, or copy the last one); never edit a revision that has shipped.

Databases made before Alembic carry a `schema_migrations` table (the bot's own runner, whose
migrations 1-5 are revisions 0001-0005 here, statement for statement). On first open such a
database is stamped at its number, the old table dropped, and upgraded, in the same
transaction as any other upgrade: all of it lands or none.

(A stored game's *state* JSON has its own per-game migrations, run when the game is loaded:
`bot/migrations/states.py`.)

Alembic itself (with Mako, Pygments and tomllib behind it, some 8 MiB) is imported only when
a database has to be written to: a bot whose stored schema is current reads the version with
plain SQLAlchemy and never loads it.
"""

from __future__ import annotations

import logging
import re
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import Connection, inspect, text

if TYPE_CHECKING:
    from alembic.config import Config

log = logging.getLogger(__name__)

SCRIPTS = Path(__file__).resolve().parent / "schema"
"""The packaged Alembic script directory (env.py and versions/)."""

PRE_ALEMBIC_TABLE = "schema_migrations"


def config(scripts: Path = SCRIPTS, connection: Connection | None = None) -> Config:
    """An Alembic configuration for `scripts`, running on `connection` when given."""
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(scripts))
    cfg.set_main_option("path_separator", "os")
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


@cache
def _revisions(scripts: Path) -> tuple[str, ...]:
    from alembic.script import ScriptDirectory

    script = ScriptDirectory.from_config(config(scripts))
    return tuple(reversed([r.revision for r in script.walk_revisions()]))


def revisions(scripts: Path = SCRIPTS) -> tuple[str, ...]:
    """Every revision id, oldest first."""
    return _revisions(Path(scripts))


def number(revision: str | None) -> int:
    """The schema version a revision id stands for (0: an empty database): its four leading
    digits, so a topic may follow them ("0007_memory" is schema 7)."""
    return int(revision[:4]) if revision else 0


def revision_of(target: int, scripts: Path = SCRIPTS) -> str:
    """The revision id whose number is `target` ("0007" or "0007_memory")."""
    return next((r for r in revisions(scripts) if number(r) == target), f"{target:04d}")


_REVISION_LINE = re.compile(r'^revision\s*=\s*["\'](\d{4})[A-Za-z0-9_]*["\']', re.MULTILINE)


@cache
def _head(scripts: Path) -> int:
    found = [int(m.group(1)) for f in (scripts / "versions").glob("*.py")
             if (m := _REVISION_LINE.search(f.read_text(encoding="utf-8")))]
    return max(found, default=0)


def head(scripts: Path = SCRIPTS) -> int:
    """The schema version a fresh database ends at: the highest revision number, read from
    the revision files' `revision = "NNNN"` lines (ids are consecutive numbers, so this is
    Alembic's head; tests check the two agree) without importing Alembic."""
    return _head(Path(scripts))


LATEST: int = head()


def current(connection: Connection) -> int:
    """The schema version of the database on `connection` (pre-Alembic ones too)."""
    tables = set(inspect(connection).get_table_names())
    if "alembic_version" in tables:
        return _stamped(connection)
    if PRE_ALEMBIC_TABLE in tables:
        return int(connection.execute(
            text(f"SELECT COALESCE(MAX(number), 0) FROM {PRE_ALEMBIC_TABLE}")).scalar_one())
    return 0


def _stamped(connection: Connection) -> int:
    """The revision Alembic recorded in `alembic_version` (one row: the schema has no
    branches), read with plain SQL."""
    rows = connection.execute(text("SELECT version_num FROM alembic_version")).scalars().all()
    if len(rows) > 1:
        raise RuntimeError(f"alembic_version holds several heads {rows}: the bot's schema "
                           "revisions are one straight line")
    return number(rows[0] if rows else None)


def up_to_date(connection: Connection, target: int) -> bool:
    """Whether Alembic has this database at `target` already (nothing to write)."""
    if "alembic_version" not in set(inspect(connection).get_table_names()):
        return False
    return _stamped(connection) == target


def upgrade(connection: Connection, scripts: Path = SCRIPTS, target: int | None = None) -> None:
    """Bring the database to `target` (None: the newest revision), inside the caller's open
    transaction. A pre-Alembic database is first stamped at its `schema_migrations` number."""
    from alembic import command

    cfg = config(scripts, connection)
    tables = set(inspect(connection).get_table_names())
    if "alembic_version" not in tables and PRE_ALEMBIC_TABLE in tables:
        was = current(connection)
        log.info("database made before Alembic, at schema %d: stamping it", was)
        if was:
            command.stamp(cfg, revision_of(was, scripts))
        connection.execute(text(f"DROP TABLE {PRE_ALEMBIC_TABLE}"))
    command.upgrade(cfg, "head" if target is None else revision_of(target, scripts))
