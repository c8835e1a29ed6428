"""Voice links and mutes: the voice channel linked to a Presence game (`/presence voice`,
P-DISCORD-05), and each server mute the bot put on a player there, kept until it lifts it.

Revision ID: 0011_voice
Revises: 0010_away
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import sqlite

revision = "0011_voice"
down_revision = "0010_away"
branch_labels = None
depends_on = None

INT = sa.BigInteger().with_variant(sqlite.INTEGER(), "sqlite")
REAL: sa.Double[float] = sa.Double().with_variant(sqlite.REAL(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "voice_links",
        sa.Column("game_id", INT, sa.ForeignKey("games.id", ondelete="CASCADE"),
                  primary_key=True, autoincrement=False),
        sa.Column("guild_id", INT, nullable=False),
        sa.Column("channel_id", INT, nullable=False),
        sa.Column("linked_by", INT, nullable=False),
        sa.Column("linked_at", REAL, nullable=False),
    )
    op.create_table(
        "voice_mutes",
        sa.Column("guild_id", INT, nullable=False),
        sa.Column("user_id", INT, nullable=False),
        sa.Column("game_id", INT, nullable=False),
        sa.Column("channel_id", INT, nullable=False),
        sa.Column("muted_at", REAL, nullable=False),
        sa.PrimaryKeyConstraint("guild_id", "user_id"),
    )
    op.create_index("voice_mutes_game", "voice_mutes", ["game_id"])


def downgrade() -> None:
    op.drop_index("voice_mutes_game", table_name="voice_mutes")
    op.drop_table("voice_mutes")
    op.drop_table("voice_links")
