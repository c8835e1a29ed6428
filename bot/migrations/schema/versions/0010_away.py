"""Away periods: when each player was away (`/game away on` .. `off`), so the median time to
move that a finished game keeps leaves away time out, as it does quiet hours (issue #24).

Revision ID: 0010_away
Revises: 0009_memory
Players already away when this runs get a period still open, begun when their preferences
last changed (`players.updated_at`: the nearest the database knows of when they went away).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import sqlite

revision = "0010_away"
down_revision = "0009_memory"
branch_labels = None
depends_on = None

INT = sa.BigInteger().with_variant(sqlite.INTEGER(), "sqlite")
REAL: sa.Double[float] = sa.Double().with_variant(sqlite.REAL(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "away_periods",
        sa.Column("user_id", INT, nullable=False),
        sa.Column("began", REAL, nullable=False),
        sa.Column("ended", REAL),
        sa.PrimaryKeyConstraint("user_id", "began"),
    )
    op.execute("INSERT INTO away_periods (user_id, began, ended) "
               "SELECT user_id, updated_at, NULL FROM players WHERE away = 1")


def downgrade() -> None:
    op.drop_table("away_periods")
