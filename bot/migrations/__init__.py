"""Numbered schema migrations, run in order at `Storage.open()`.

Each migration is a list of single SQL statements (no `executescript`, so a migration and its
`schema_migrations` row commit in one transaction). SQL is kept portable: INTEGER ids (Discord
snowflakes fit in 64 bits), REAL epoch seconds for times, TEXT for JSON, INTEGER 0/1 for flags.
A PostgreSQL backend adds its own statement list per migration number (BIGINT, identity ids,
DOUBLE PRECISION); the numbers are shared so both schemas move together.

Never edit a migration that has shipped: add the next number. (A game's *state* JSON has its
own per-game migrations, run when the game is loaded: `bot/migrations/states.py`.)
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Migration:
    number: int
    name: str
    sqlite: tuple[str, ...]


_0001_INITIAL = (
    """
    CREATE TABLE games (
        id               INTEGER PRIMARY KEY,
        guild_id         INTEGER NOT NULL,
        channel_id       INTEGER NOT NULL,
        thread_id        INTEGER,
        game             TEXT    NOT NULL,
        options          TEXT    NOT NULL,
        status           TEXT    NOT NULL
                         CHECK (status IN ('lobby', 'active', 'over', 'abandoned')),
        state            TEXT,
        version          INTEGER NOT NULL DEFAULT 0,
        seed             INTEGER,
        created_by       INTEGER NOT NULL,
        engine_version   TEXT    NOT NULL,
        settings         TEXT    NOT NULL,
        board_message_id INTEGER,
        created_at       REAL    NOT NULL,
        updated_at       REAL    NOT NULL,
        next_reminder_at REAL,
        reminder_stage   INTEGER NOT NULL DEFAULT 0,
        awaited_since    REAL
    )
    """,
    "CREATE INDEX games_thread ON games (thread_id)",
    "CREATE INDEX games_guild_status ON games (guild_id, status)",
    "CREATE INDEX games_reminder ON games (status, next_reminder_at)",
    """
    CREATE TABLE seats (
        game_id   INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seat      TEXT    NOT NULL,
        user_id   INTEGER,
        position  INTEGER NOT NULL,
        joined_at REAL    NOT NULL,
        dms_ok    INTEGER NOT NULL DEFAULT 0,
        role_pref TEXT,
        PRIMARY KEY (game_id, position),
        UNIQUE (game_id, user_id),
        UNIQUE (game_id, seat)
    )
    """,
    "CREATE INDEX seats_user ON seats (user_id)",
    """
    CREATE TABLE actions (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seq     INTEGER NOT NULL,
        seat    TEXT    NOT NULL,
        user_id INTEGER,
        action  TEXT    NOT NULL,
        at      REAL    NOT NULL,
        PRIMARY KEY (game_id, seq)
    )
    """,
)

_0002_ASYNC_PLAY = (
    # Bumped by every undo, never lowered: versions repeat after an undo, so components name
    # (epoch, decision) to stay unique.
    "ALTER TABLE games ADD COLUMN epoch INTEGER NOT NULL DEFAULT 0",
    # The game this one is a rematch of (at most one rematch per game).
    "ALTER TABLE games ADD COLUMN rematch_of INTEGER",
    "CREATE UNIQUE INDEX games_rematch ON games (rematch_of) WHERE rematch_of IS NOT NULL",
    # 1 while the built-in AI plays a human seat whose player timed out or is away.
    "ALTER TABLE seats ADD COLUMN ai_standin INTEGER NOT NULL DEFAULT 0",
    # Per-player preferences across every game: vacation, quiet hours, "my turn is near".
    """
    CREATE TABLE players (
        user_id     INTEGER PRIMARY KEY,
        away        INTEGER NOT NULL DEFAULT 0,
        quiet_start INTEGER,
        quiet_end   INTEGER,
        tz_minutes  INTEGER NOT NULL DEFAULT 0,
        notify_near INTEGER NOT NULL DEFAULT 0,
        updated_at  REAL    NOT NULL
    )
    """,
    """
    CREATE TABLE spectators (
        game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        user_id  INTEGER NOT NULL,
        since    REAL    NOT NULL,
        PRIMARY KEY (game_id, user_id)
    )
    """,
    # One open vote per (game, seat to replace, voter); a new proposal replaces the old one.
    """
    CREATE TABLE replace_votes (
        game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seat     TEXT    NOT NULL,
        new_user INTEGER NOT NULL,
        voter    INTEGER NOT NULL,
        at       REAL    NOT NULL,
        PRIMARY KEY (game_id, seat, voter)
    )
    """,
)

MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "initial", _0001_INITIAL),
    Migration(2, "async_play", _0002_ASYNC_PLAY),
)
"""Every migration, in order. The last number is the schema version a fresh database ends at."""

LATEST: int = MIGRATIONS[-1].number
