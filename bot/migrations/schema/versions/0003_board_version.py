"""The game version the current board post shows.

Revision ID: 0003
Revises: 0002
Before Alembic: migration 3 of the bot's own runner (schema_migrations.number = 3).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import sqlite

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

INT = sa.BigInteger().with_variant(sqlite.INTEGER(), "sqlite")
REAL: sa.Double[float] = sa.Double().with_variant(sqlite.REAL(), "sqlite")
ZERO = sa.text("0")


def upgrade() -> None:
    # A move stored just before a crash has no board yet; at start the bot posts one for
    # every game whose board is behind.
    op.add_column("games", sa.Column("board_version", INT))


def downgrade() -> None:
    op.drop_column("games", "board_version")  # SQLite 3.35+ drops a column in place
