"""Moves acknowledged ("thinking…") but not yet answered.

Revision ID: 0004
Revises: 0003
Before Alembic: migration 4 of the bot's own runner (schema_migrations.number = 4).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import sqlite

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

INT = sa.BigInteger().with_variant(sqlite.INTEGER(), "sqlite")
REAL: sa.Double[float] = sa.Double().with_variant(sqlite.REAL(), "sqlite")
ZERO = sa.text("0")


def upgrade() -> None:
    # Written before the acknowledgement; marked with the move's seq in the transaction that
    # stores it. After a crash the bot answers each row still here (the token is good for
    # 15 min).
    op.create_table(
        "pending_moves",
        sa.Column("token", sa.Text, primary_key=True),
        sa.Column("interaction_id", INT, nullable=False),
        sa.Column("guild_id", INT, nullable=False),
        sa.Column("channel_id", INT, nullable=False),
        sa.Column("game_id", INT),
        sa.Column("user_id", INT, nullable=False),
        sa.Column("what", sa.Text, nullable=False),
        sa.Column("answer", sa.Text, nullable=False),
        sa.Column("created_at", REAL, nullable=False),
        sa.Column("stored_seq", INT),
        sa.CheckConstraint("answer IN ('original', 'followup')"),
    )
    op.create_index("pending_moves_created", "pending_moves", ["created_at"])


def downgrade() -> None:
    op.drop_table("pending_moves")
