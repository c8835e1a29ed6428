"""Async play: undo epochs, rematches, AI stand-ins, player preferences, spectators, votes.

Revision ID: 0002
Revises: 0001
Before Alembic: migration 2 of the bot's own runner (schema_migrations.number = 2).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import sqlite

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

INT = sa.BigInteger().with_variant(sqlite.INTEGER(), "sqlite")
REAL: sa.Double[float] = sa.Double().with_variant(sqlite.REAL(), "sqlite")
ZERO = sa.text("0")


def upgrade() -> None:
    # Bumped by every undo, never lowered: versions repeat after an undo, so components name
    # (epoch, decision) to stay unique.
    op.add_column("games", sa.Column("epoch", INT, nullable=False, server_default=ZERO))
    # The game this one is a rematch of (at most one rematch per game).
    op.add_column("games", sa.Column("rematch_of", INT))
    op.create_index("games_rematch", "games", ["rematch_of"], unique=True,
                    sqlite_where=sa.text("rematch_of IS NOT NULL"),
                    postgresql_where=sa.text("rematch_of IS NOT NULL"))
    # 1 while the built-in AI plays a human seat whose player timed out or is away.
    op.add_column("seats", sa.Column("ai_standin", INT, nullable=False, server_default=ZERO))
    # Per-player preferences across every game: vacation, quiet hours, "my turn is near".
    op.create_table(
        "players",
        sa.Column("user_id", INT, primary_key=True, autoincrement=False),
        sa.Column("away", INT, nullable=False, server_default=ZERO),
        sa.Column("quiet_start", INT),
        sa.Column("quiet_end", INT),
        sa.Column("tz_minutes", INT, nullable=False, server_default=ZERO),
        sa.Column("notify_near", INT, nullable=False, server_default=ZERO),
        sa.Column("updated_at", REAL, nullable=False),
    )
    op.create_table(
        "spectators",
        sa.Column("game_id", INT, sa.ForeignKey("games.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("user_id", INT, nullable=False),
        sa.Column("since", REAL, nullable=False),
        sa.PrimaryKeyConstraint("game_id", "user_id"),
    )
    # One open vote per (game, seat to replace, voter); a new proposal replaces the old one.
    op.create_table(
        "replace_votes",
        sa.Column("game_id", INT, sa.ForeignKey("games.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("seat", sa.Text, nullable=False),
        sa.Column("new_user", INT, nullable=False),
        sa.Column("voter", INT, nullable=False),
        sa.Column("at", REAL, nullable=False),
        sa.PrimaryKeyConstraint("game_id", "seat", "voter"),
    )


def downgrade() -> None:
    op.drop_table("replace_votes")
    op.drop_table("spectators")
    op.drop_table("players")
    # SQLite 3.35+ drops a column in place (no table copy, so no constraint is lost).
    op.drop_column("seats", "ai_standin")
    op.drop_index("games_rematch", "games")
    op.drop_column("games", "rematch_of")
    op.drop_column("games", "epoch")
