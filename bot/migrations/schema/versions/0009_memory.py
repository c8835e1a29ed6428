"""What finished games leave behind: results, their seats, ratings, servers' and players'
choices about them (issue #24).

Revision ID: 0009_memory
Revises: 0008_listindex
A `results` row and its `result_seats` are written in the transaction that ends a game (over or
abandoned); `ratings` and `rating_history` move with it unless the server turned ratings off
(`servers.ratings`). `players.stats_hidden` keeps a player's stats from others;
`games.started_at` is when the game was dealt.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import sqlite

revision = "0009_memory"
down_revision = "0008_listindex"
branch_labels = None
depends_on = None

INT = sa.BigInteger().with_variant(sqlite.INTEGER(), "sqlite")
REAL: sa.Double[float] = sa.Double().with_variant(sqlite.REAL(), "sqlite")
ZERO = sa.text("0")


def upgrade() -> None:
    op.add_column("games", sa.Column("started_at", REAL))
    op.add_column("players", sa.Column("stats_hidden", INT, nullable=False,
                                       server_default=ZERO))
    op.create_table(
        "results",
        sa.Column("game_id", INT, primary_key=True, autoincrement=False),
        sa.Column("guild_id", INT, nullable=False),
        sa.Column("thread_id", INT),
        sa.Column("game", sa.Text, nullable=False),
        sa.Column("mode", sa.Text, nullable=False),
        sa.Column("started_at", REAL, nullable=False),
        sa.Column("finished_at", REAL, nullable=False),
        sa.Column("moves", INT, nullable=False),
        sa.Column("outcome", sa.Text, nullable=False),
        sa.Column("abandoned", INT, nullable=False, server_default=ZERO),
        sa.Column("has_ai", INT, nullable=False, server_default=ZERO),
        sa.Column("rated", INT, nullable=False, server_default=ZERO),
    )
    op.create_index("results_guild_finished", "results", ["guild_id", "finished_at"])
    op.create_index("results_guild_game_finished", "results",
                    ["guild_id", "game", "finished_at"])
    op.create_table(
        "result_seats",
        sa.Column("game_id", INT, sa.ForeignKey("results.game_id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("seat", sa.Text, nullable=False),
        sa.Column("position", INT, nullable=False),
        sa.Column("user_id", INT),
        sa.Column("role", sa.Text, nullable=False),
        sa.Column("side", sa.Text, nullable=False),
        sa.Column("outcome", sa.Text),
        sa.Column("ai", INT, nullable=False, server_default=ZERO),
        sa.Column("character", sa.Text),
        sa.Column("moves", INT, nullable=False, server_default=ZERO),
        sa.Column("move_seconds", REAL),
        sa.PrimaryKeyConstraint("game_id", "seat"),
        sa.CheckConstraint("outcome IN ('won', 'lost', 'drew')"),
    )
    op.create_index("result_seats_user", "result_seats", ["user_id", "game_id"])
    op.create_table(
        "ratings",
        sa.Column("user_id", INT, nullable=False),
        sa.Column("game", sa.Text, nullable=False),
        sa.Column("opponent", sa.Text, nullable=False, server_default=sa.text("''")),
        sa.Column("mu", REAL, nullable=False),
        sa.Column("sigma", REAL, nullable=False),
        sa.Column("games", INT, nullable=False, server_default=ZERO),
        sa.Column("updated_at", REAL, nullable=False),
        sa.PrimaryKeyConstraint("user_id", "game", "opponent"),
    )
    op.create_table(
        "rating_history",
        sa.Column("user_id", INT, nullable=False),
        sa.Column("game_id", INT, nullable=False),
        sa.Column("game", sa.Text, nullable=False),
        sa.Column("at", REAL, nullable=False),
        sa.Column("mu", REAL, nullable=False),
        sa.Column("sigma", REAL, nullable=False),
        sa.PrimaryKeyConstraint("user_id", "game_id"),
    )
    op.create_index("rating_history_user_game", "rating_history", ["user_id", "game", "at"])
    op.create_table(
        "servers",
        sa.Column("guild_id", INT, primary_key=True, autoincrement=False),
        sa.Column("ratings", INT, nullable=False, server_default=sa.text("1")),
        sa.Column("updated_at", REAL, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("servers")
    op.drop_index("rating_history_user_game", table_name="rating_history")
    op.drop_table("rating_history")
    op.drop_table("ratings")
    op.drop_index("result_seats_user", table_name="result_seats")
    op.drop_table("result_seats")
    op.drop_index("results_guild_game_finished", table_name="results")
    op.drop_index("results_guild_finished", table_name="results")
    op.drop_table("results")
    op.drop_column("players", "stats_hidden")  # SQLite 3.35+ drops a column in place
    op.drop_column("games", "started_at")
