"""What the current board post stands for.

Revision ID: 0005
Revises: 0004
Before Alembic: migration 5 of the bot's own runner (schema_migrations.number = 5).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import sqlite

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

INT = sa.BigInteger().with_variant(sqlite.INTEGER(), "sqlite")
REAL: sa.Double[float] = sa.Double().with_variant(sqlite.REAL(), "sqlite")
ZERO = sa.text("0")


def upgrade() -> None:
    # JSON: the seats it waits for, the turn, the event lines it shows, whom it pinged. A move
    # by the same decider edits that post in place instead of posting anew, across restarts.
    op.add_column("games", sa.Column("board_post", sa.Text))


def downgrade() -> None:
    op.drop_column("games", "board_post")  # SQLite 3.35+ drops a column in place
