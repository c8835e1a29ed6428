"""The bot's tables, declared once (SQLAlchemy Core) for SQLite and PostgreSQL alike.

Storage builds every query from these; Alembic's revisions (bot/migrations/schema/versions)
create and change the real tables, and a test checks that a database migrated to the newest
revision has exactly these tables (`alembic.autogenerate.compare_metadata`). So a schema
change is two edits: the table here and a new revision there.

Types: 64-bit integers for Discord snowflakes and counters (SQLite's INTEGER already is; the
exact spelling INTEGER keeps `games.id` SQLite's rowid alias), double-precision epoch seconds,
TEXT for JSON, 0/1 integers for flags.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    CheckConstraint,
    Column,
    Double,
    ForeignKey,
    Identity,
    Index,
    LargeBinary,
    MetaData,
    PrimaryKeyConstraint,
    Table,
    Text,
    UniqueConstraint,
    text,
)
from sqlalchemy.dialects import sqlite

INT = BigInteger().with_variant(sqlite.INTEGER(), "sqlite")
"""BIGINT on PostgreSQL, INTEGER (64-bit) on SQLite."""
REAL: Double[float] = Double().with_variant(sqlite.REAL(), "sqlite")
"""DOUBLE PRECISION on PostgreSQL, REAL (64-bit) on SQLite."""
ZERO = text("0")

metadata = MetaData()


def _game_fk() -> ForeignKey:
    return ForeignKey("games.id", ondelete="CASCADE")


games = Table(
    "games", metadata,
    Column("id", INT, Identity(), primary_key=True),
    Column("guild_id", INT, nullable=False),
    Column("channel_id", INT, nullable=False),
    Column("thread_id", INT),
    Column("game", Text, nullable=False),
    Column("options", Text, nullable=False),
    Column("status", Text, nullable=False),
    Column("state", Text),
    Column("version", INT, nullable=False, server_default=ZERO),
    Column("seed", INT),
    Column("created_by", INT, nullable=False),
    Column("engine_version", Text, nullable=False),
    Column("settings", Text, nullable=False),
    Column("board_message_id", INT),
    Column("created_at", REAL, nullable=False),
    Column("updated_at", REAL, nullable=False),
    Column("next_reminder_at", REAL),
    Column("reminder_stage", INT, nullable=False, server_default=ZERO),
    Column("awaited_since", REAL),
    # Bumped by every undo, never lowered: (epoch, version) never repeats.
    Column("epoch", INT, nullable=False, server_default=ZERO),
    # The game this one is a rematch of (at most one rematch per game).
    Column("rematch_of", INT),
    # The game version the current board post shows (a crash may leave it behind).
    Column("board_version", INT),
    # What the current board post stands for (JSON owned by the delivery layer).
    Column("board_post", Text),
    # When the game was dealt (its length and first wait count from it). Revision 0009_memory.
    Column("started_at", REAL),
    CheckConstraint("status IN ('lobby', 'active', 'over', 'abandoned')"),
)
Index("games_thread", games.c.thread_id)
Index("games_guild_status", games.c.guild_id, games.c.status)
# `/game list`'s order, read straight from the index (revision 0008_listindex).
Index("games_guild_waiting", games.c.guild_id, games.c.status, games.c.awaited_since,
      games.c.id)
Index("games_reminder", games.c.status, games.c.next_reminder_at)
games_rematch = Index("games_rematch", games.c.rematch_of, unique=True,
                      sqlite_where=games.c.rematch_of.isnot(None))


def add_postgresql_options() -> None:
    """PostgreSQL's dialect options on these tables (the rematch index's WHERE). Not given
    above: naming a PostgreSQL option loads SQLAlchemy's whole PostgreSQL dialect (2.4 MiB),
    which a bot on SQLite never needs (issue #15). `bot.pgstorage` and the Alembic env call
    this; calling it again changes nothing."""
    games_rematch.dialect_kwargs["postgresql_where"] = games.c.rematch_of.isnot(None)

seats = Table(
    "seats", metadata,
    Column("game_id", INT, _game_fk(), nullable=False),
    Column("seat", Text, nullable=False),
    Column("user_id", INT),
    Column("position", INT, nullable=False),
    Column("joined_at", REAL, nullable=False),
    Column("dms_ok", INT, nullable=False, server_default=ZERO),
    Column("role_pref", Text),
    # 1 while the built-in AI plays this human seat.
    Column("ai_standin", INT, nullable=False, server_default=ZERO),
    PrimaryKeyConstraint("game_id", "position"),
    UniqueConstraint("game_id", "user_id"),
    UniqueConstraint("game_id", "seat"),
)
Index("seats_user", seats.c.user_id)

actions = Table(
    "actions", metadata,
    Column("game_id", INT, _game_fk(), nullable=False),
    Column("seq", INT, nullable=False),
    Column("seat", Text, nullable=False),
    Column("user_id", INT),
    Column("action", Text, nullable=False),
    Column("at", REAL, nullable=False),
    PrimaryKeyConstraint("game_id", "seq"),
)

# The game every SNAPSHOT_EVERY moves (bot/tables.py), so history starts near where it is asked
# for instead of at the deal: the state after `step` actions and the log of the chunk of the
# `moves` actions (step - moves, step] that led to it, both as `engine_version` told them (a
# snapshot by another engine, or of another interval, is ignored). `digest` names the log's
# content, so a process keeps a chunk it has already read. Deleted by undo beyond them.
# Revision 0007_snapshots.
snapshots = Table(
    "snapshots", metadata,
    Column("game_id", INT, _game_fk(), nullable=False),
    Column("step", INT, nullable=False),
    Column("moves", INT, nullable=False),
    Column("engine_version", Text, nullable=False),
    # Both JSON, zlib-compressed (a fifth of the size; Storage hands back the text).
    Column("state", LargeBinary, nullable=False),
    Column("log", LargeBinary, nullable=False),
    Column("digest", Text, nullable=False),
    Column("at", REAL, nullable=False),
    PrimaryKeyConstraint("game_id", "step"),
)

players = Table(
    "players", metadata,
    Column("user_id", INT, primary_key=True, autoincrement=False),
    Column("away", INT, nullable=False, server_default=ZERO),
    Column("quiet_start", INT),
    Column("quiet_end", INT),
    Column("tz_minutes", INT, nullable=False, server_default=ZERO),
    Column("notify_near", INT, nullable=False, server_default=ZERO),
    Column("updated_at", REAL, nullable=False),
    # The IANA zone of quiet hours (Europe/Paris), so they follow daylight saving; NULL keeps
    # the fixed `tz_minutes` offset (older rows, or an offset typed). Revision 0006.
    Column("tz_name", Text),
    # 1: others' /game stats and /game history about this player answer that they keep their
    # stats private (issue #24). Revision 0009_memory.
    Column("stats_hidden", INT, nullable=False, server_default=ZERO),
)

spectators = Table(
    "spectators", metadata,
    Column("game_id", INT, _game_fk(), nullable=False),
    Column("user_id", INT, nullable=False),
    Column("since", REAL, nullable=False),
    PrimaryKeyConstraint("game_id", "user_id"),
)

replace_votes = Table(
    "replace_votes", metadata,
    Column("game_id", INT, _game_fk(), nullable=False),
    Column("seat", Text, nullable=False),
    Column("new_user", INT, nullable=False),
    Column("voter", INT, nullable=False),
    Column("at", REAL, nullable=False),
    PrimaryKeyConstraint("game_id", "seat", "voter"),
)

pending_moves = Table(
    "pending_moves", metadata,
    Column("token", Text, primary_key=True),
    Column("interaction_id", INT, nullable=False),
    Column("guild_id", INT, nullable=False),
    Column("channel_id", INT, nullable=False),
    Column("game_id", INT),
    Column("user_id", INT, nullable=False),
    Column("what", Text, nullable=False),
    Column("answer", Text, nullable=False),
    Column("created_at", REAL, nullable=False),
    Column("stored_seq", INT),
    CheckConstraint("answer IN ('original', 'followup')"),
)
Index("pending_moves_created", pending_moves.c.created_at)


# ---- what finished games leave behind (issue #24, bot/memory.py; revision 0009_memory) -------
# Written in the same transaction that ends the game, read by /game history and /game stats:
# no command ever replays a game. Only the ending's public facts are here.
results = Table(
    "results", metadata,
    # No foreign key: a game's result is kept even if its row is ever cleared away.
    Column("game_id", INT, primary_key=True, autoincrement=False),
    Column("guild_id", INT, nullable=False),
    Column("thread_id", INT),
    Column("game", Text, nullable=False),
    Column("mode", Text, nullable=False),
    Column("started_at", REAL, nullable=False),
    Column("finished_at", REAL, nullable=False),
    Column("moves", INT, nullable=False),
    Column("outcome", Text, nullable=False),
    Column("abandoned", INT, nullable=False, server_default=ZERO),
    Column("has_ai", INT, nullable=False, server_default=ZERO),
    Column("rated", INT, nullable=False, server_default=ZERO),
)
Index("results_guild_finished", results.c.guild_id, results.c.finished_at)
Index("results_guild_game_finished", results.c.guild_id, results.c.game, results.c.finished_at)

result_seats = Table(
    "result_seats", metadata,
    Column("game_id", INT, ForeignKey("results.game_id", ondelete="CASCADE"), nullable=False),
    Column("seat", Text, nullable=False),
    Column("position", INT, nullable=False),
    Column("user_id", INT),
    Column("role", Text, nullable=False),
    Column("side", Text, nullable=False),
    # won / lost / drew; NULL for an abandoned game.
    Column("outcome", Text),
    Column("ai", INT, nullable=False, server_default=ZERO),
    Column("character", Text),
    Column("moves", INT, nullable=False, server_default=ZERO),
    # The median seconds this seat took to move in this game (quiet hours and away time left
    # out: `away_periods`).
    Column("move_seconds", REAL),
    PrimaryKeyConstraint("game_id", "seat"),
    CheckConstraint("outcome IN ('won', 'lost', 'drew')"),
)
Index("result_seats_user", result_seats.c.user_id, result_seats.c.game_id)

ratings = Table(
    "ratings", metadata,
    # A person's rating per game title; user 0 with an `opponent` name is a virtual opponent
    # (a co-op game's difficulty per mode, the AI per level), rated like a player.
    Column("user_id", INT, nullable=False),
    Column("game", Text, nullable=False),
    Column("opponent", Text, nullable=False, server_default=text("''")),
    Column("mu", REAL, nullable=False),
    Column("sigma", REAL, nullable=False),
    Column("games", INT, nullable=False, server_default=ZERO),
    Column("updated_at", REAL, nullable=False),
    PrimaryKeyConstraint("user_id", "game", "opponent"),
)

rating_history = Table(
    "rating_history", metadata,
    Column("user_id", INT, nullable=False),
    Column("game_id", INT, nullable=False),
    Column("game", Text, nullable=False),
    Column("at", REAL, nullable=False),
    Column("mu", REAL, nullable=False),
    Column("sigma", REAL, nullable=False),
    PrimaryKeyConstraint("user_id", "game_id"),
)
Index("rating_history_user_game", rating_history.c.user_id, rating_history.c.game,
      rating_history.c.at)

servers = Table(
    "servers", metadata,
    Column("guild_id", INT, primary_key=True, autoincrement=False),
    # 0: this server turned ratings off (`/game settings ratings:off`): none shown, none moved.
    Column("ratings", INT, nullable=False, server_default=text("1")),
    Column("updated_at", REAL, nullable=False),
)

away_periods = Table(
    "away_periods", metadata,
    # Each stretch a player was away (`/game away on` .. `off`; `ended` NULL while still
    # away), kept so a finished game's move times leave it out like quiet hours (issue #24,
    # bot/memory.py). Revision 0010_away.
    Column("user_id", INT, nullable=False),
    Column("began", REAL, nullable=False),
    Column("ended", REAL),
    PrimaryKeyConstraint("user_id", "began"),
)

voice_links = Table(
    "voice_links", metadata,
    # A voice channel linked to a live Presence game (`/presence voice`, P-DISCORD-05): its
    # seated players are server-muted there while they may not talk. Revision 0011_voice.
    Column("game_id", INT, _game_fk(), primary_key=True, autoincrement=False),
    Column("guild_id", INT, nullable=False),
    Column("channel_id", INT, nullable=False),
    Column("linked_by", INT, nullable=False),
    Column("linked_at", REAL, nullable=False),
)

voice_mutes = Table(
    "voice_mutes", metadata,
    # A server mute this bot put on a seated player in the voice channel linked to a Presence
    # game (`/presence voice`, P-DISCORD-05), kept until the bot lifts it: a server mute
    # outlives the game and the channel, and Discord only lifts one while its member is in
    # voice, so a mute the member left voice with is lifted when they next join (even after
    # a restart). One row per member: the bot never mutes a muted member. Revision 0011_voice.
    Column("guild_id", INT, nullable=False),
    Column("user_id", INT, nullable=False),
    Column("game_id", INT, nullable=False),
    Column("channel_id", INT, nullable=False),
    Column("muted_at", REAL, nullable=False),
    PrimaryKeyConstraint("guild_id", "user_id"),
)
Index("voice_mutes_game", voice_mutes.c.game_id)
