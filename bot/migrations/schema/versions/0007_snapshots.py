"""Snapshots of a game every few moves, so its history costs the same at move 2,000 as at 20.

Revision ID: 0007_snapshots
Revises: 0006
A row holds the state after `step` actions and the log of the chunk of `moves` actions that led
to it (issue #25, item 2); rows are rebuilt from the action log when missing, so the table starts
empty.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import sqlite

revision = "0007_snapshots"
down_revision = "0006"
branch_labels = None
depends_on = None

INT = sa.BigInteger().with_variant(sqlite.INTEGER(), "sqlite")
REAL: sa.Double[float] = sa.Double().with_variant(sqlite.REAL(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "snapshots",
        sa.Column("game_id", INT, sa.ForeignKey("games.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("step", INT, nullable=False),
        sa.Column("moves", INT, nullable=False),
        sa.Column("engine_version", sa.Text, nullable=False),
        sa.Column("state", sa.LargeBinary, nullable=False),
        sa.Column("log", sa.LargeBinary, nullable=False),
        sa.Column("digest", sa.Text, nullable=False),
        sa.Column("at", REAL, nullable=False),
        sa.PrimaryKeyConstraint("game_id", "step"),
    )


def downgrade() -> None:
    op.drop_table("snapshots")
