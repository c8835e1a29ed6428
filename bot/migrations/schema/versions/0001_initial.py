"""Games, their seats and the append-only action log.

Revision ID: 0001
Revises:
Before Alembic: migration 1 of the bot's own runner (schema_migrations.number = 1).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import sqlite

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

INT = sa.BigInteger().with_variant(sqlite.INTEGER(), "sqlite")
REAL: sa.Double[float] = sa.Double().with_variant(sqlite.REAL(), "sqlite")
ZERO = sa.text("0")


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", INT, sa.Identity(), primary_key=True),
        sa.Column("guild_id", INT, nullable=False),
        sa.Column("channel_id", INT, nullable=False),
        sa.Column("thread_id", INT),
        sa.Column("game", sa.Text, nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("status", sa.Text, nullable=False),
        sa.Column("state", sa.Text),
        sa.Column("version", INT, nullable=False, server_default=ZERO),
        sa.Column("seed", INT),
        sa.Column("created_by", INT, nullable=False),
        sa.Column("engine_version", sa.Text, nullable=False),
        sa.Column("settings", sa.Text, nullable=False),
        sa.Column("board_message_id", INT),
        sa.Column("created_at", REAL, nullable=False),
        sa.Column("updated_at", REAL, nullable=False),
        sa.Column("next_reminder_at", REAL),
        sa.Column("reminder_stage", INT, nullable=False, server_default=ZERO),
        sa.Column("awaited_since", REAL),
        sa.CheckConstraint("status IN ('lobby', 'active', 'over', 'abandoned')"),
    )
    op.create_index("games_thread", "games", ["thread_id"])
    op.create_index("games_guild_status", "games", ["guild_id", "status"])
    op.create_index("games_reminder", "games", ["status", "next_reminder_at"])
    op.create_table(
        "seats",
        sa.Column("game_id", INT, sa.ForeignKey("games.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("seat", sa.Text, nullable=False),
        sa.Column("user_id", INT),
        sa.Column("position", INT, nullable=False),
        sa.Column("joined_at", REAL, nullable=False),
        sa.Column("dms_ok", INT, nullable=False, server_default=ZERO),
        sa.Column("role_pref", sa.Text),
        sa.PrimaryKeyConstraint("game_id", "position"),
        sa.UniqueConstraint("game_id", "user_id"),
        sa.UniqueConstraint("game_id", "seat"),
    )
    op.create_index("seats_user", "seats", ["user_id"])
    op.create_table(
        "actions",
        sa.Column("game_id", INT, sa.ForeignKey("games.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("seq", INT, nullable=False),
        sa.Column("seat", sa.Text, nullable=False),
        sa.Column("user_id", INT),
        sa.Column("action", sa.Text, nullable=False),
        sa.Column("at", REAL, nullable=False),
        sa.PrimaryKeyConstraint("game_id", "seq"),
    )


def downgrade() -> None:
    op.drop_table("actions")
    op.drop_table("seats")
    op.drop_table("games")
