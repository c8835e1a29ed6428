"""The player's IANA time zone for quiet hours.

Revision ID: 0006
Revises: 0005
Quiet hours follow daylight saving when the zone's name is kept (issue #16, zoneinfo); NULL keeps
the fixed `tz_minutes` offset of older rows or of an offset typed.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("players", sa.Column("tz_name", sa.Text))


def downgrade() -> None:
    op.drop_column("players", "tz_name")  # SQLite 3.35+ drops a column in place
