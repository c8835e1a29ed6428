"""`/game list` reads its page from an index.

Revision ID: 0008_listindex
Revises: 0007_snapshots
A server's open games in the list's order (status, then how long each waits, then id), so a
page is read without sorting the server's games or reading the ones skipped (issue #25).
"""

from __future__ import annotations

from alembic import op

revision = "0008_listindex"
down_revision = "0007_snapshots"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("games_guild_waiting", "games",
                    ["guild_id", "status", "awaited_since", "id"])


def downgrade() -> None:
    op.drop_index("games_guild_waiting", table_name="games")
