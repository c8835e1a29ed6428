"""Persistence: games, seats and the append-only action log (DESIGN.md, "Storage").

`Storage` is the narrow async interface the table service uses. `SqlStorage` implements every
operation once in SQLAlchemy Core (awaited through bot/coresql.py) over the tables of
`bot/schema.py`; `SqliteStorage` runs it on a SQLite file (aiosqlite: WAL, foreign keys,
busy timeout) and `PgStorage` (bot/pgstorage.py) on PostgreSQL (asyncpg). Nothing outside
these modules sees SQL. The schema is kept by Alembic (bot/migrations), brought to the
newest revision by `open()`.

Every write that changes a game's state is one transaction that first checks the version the
caller read (optimistic concurrency): `append_action` inserts the action at `seq = version+1`,
writes the new state and bumps the version; `rewind` truncates the log (and the snapshots
beyond it) and writes the replayed state. A crash at any point leaves the game at the last whole
action. Snapshots (`put_snapshots`) are written apart from moves, only while the game is still
at the epoch they were replayed in.

Times are epoch seconds (float) passed in by the caller, so tests drive a fake clock.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
import sys
import time
import zlib
from abc import ABC, abstractmethod
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from types import TracebackType
from typing import Any, Literal, Self, TypeVar, cast

from pydantic import BaseModel, ConfigDict, Field, field_validator
from sqlalchemy import (
    ColumnElement,
    Connection,
    Executable,
    Insert,
    Integer,
    Table,
    Text,
    bindparam,
    delete,
    event,
    func,
    insert,
    literal,
    literal_column,
    null,
    or_,
    select,
    union_all,
    update,
)
from sqlalchemy import cast as sql_cast
from sqlalchemy.dialects import sqlite as sqlite_dialect
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.sql import ClauseElement

from bot import memory, migrations, quiet, sqlitedriver
from bot.coresql import CoreConnection, CoreEngine
from bot.memory import GameResult, HistoryPage, MoveLog, PlayerStats, ServerStats
from bot.migrations import SCRIPTS
from bot.ratings import Rating
from bot.schema import (
    REAL,
    actions,
    away_periods,
    games,
    pending_moves,
    players,
    replace_votes,
    seats,
    servers,
    snapshots,
    spectators,
    voice_links,
    voice_mutes,
)

log = logging.getLogger(__name__)

Status = Literal["lobby", "active", "over", "abandoned"]
STATUSES: tuple[Status, ...] = ("lobby", "active", "over", "abandoned")
LIVE: tuple[Status, ...] = ("lobby", "active")
MAX_SEED = (1 << 63) - 1
"""Seeds are stored as signed 64-bit integers."""


# ---- errors --------------------------------------------------------------------------------
ROOT = Path(__file__).resolve().parent.parent

MIGRATE_IN_CHILD = False
"""Run schema upgrades in a child process (`SqlStorage._migrate_in_child`): set once by a
process that runs the bot and nothing else (`bot.client.tune_process`), where what Alembic
leaves behind would stay for the process's life (issue #15). Off, upgrades run in-process
(tests, tools)."""


class StorageError(Exception):
    """Base of storage errors (not player-readable; the table service translates them)."""


class GameNotFound(StorageError):
    def __init__(self, game_id: int) -> None:
        super().__init__(f"no game with id {game_id}")
        self.game_id = game_id


class VersionConflict(StorageError):
    """The game's stored version (or status) is not what the caller read: someone else wrote."""

    def __init__(self, game_id: int, expected: int, actual: int | None) -> None:
        super().__init__(f"game {game_id}: expected version {expected}, stored {actual}")
        self.game_id = game_id
        self.expected = expected
        self.actual = actual


class DuplicateSeat(StorageError):
    """The user (or seat id) is already seated in that game."""


# ---- records -------------------------------------------------------------------------------
SHARD_SHIFT = 22
"""Discord's rule: a guild lives on shard ``(guild_id >> 22) % shard_count``."""


class ShardSet(BaseModel):
    """The gateway shards one bot process runs, and so the guilds (and games) it owns.

    Several processes sharing one database each own the games of their shards' guilds: only
    the owner's reminder dispatcher touches them. Games with no guild (id 0) live on shard 0,
    as Discord sends direct messages to shard 0.
    """

    model_config = ConfigDict(frozen=True)

    count: int = Field(ge=1)
    ids: tuple[int, ...]

    def owns(self, guild_id: int) -> bool:
        return (guild_id >> SHARD_SHIFT) % self.count in self.ids

    @property
    def owns_all(self) -> bool:
        return set(self.ids) >= set(range(self.count))


AiLevel = Literal["easy", "normal", "hard"]
"""How hard the built-in AI plays (`Game.ai_action`'s level), weakest first."""


class GameSettings(BaseModel):
    """Per-game table settings, stored as JSON in `games.settings`.

    Unknown keys are ignored on load so an older build can read a newer row, and every field
    has a default so a newer build reads an older row. Quiet hours and vacations are per player
    (`PlayerPrefs`), not per game.
    """

    model_config = ConfigDict(extra="ignore", validate_assignment=True)

    reminder_hours: float = Field(
        default=12.0, ge=0.25, le=168.0,
        description="Hours an awaited player has before the first reminder (0.25-168)",
    )
    policy: Literal["advisory", "enforced"] = Field(
        default="advisory",
        description="advisory: only remind; enforced: play the default action after a while",
    )
    enforce_after_hours: float = Field(
        default=48.0, ge=1.0, le=24.0 * 14,
        description="With the enforced policy, hours of waiting before the default move (1-336)",
    )
    enforce_with: Literal["default", "ai"] = Field(
        default="default",
        description="With the enforced policy, at the deadline: default: play the rule's "
                    "default move; ai: hand the seat to the built-in AI until its player is back",
    )
    ai_level: AiLevel = Field(
        default="normal",
        description="How hard the built-in AI plays this table's AI seats and stand-ins: easy "
                    "(a quick heuristic), normal, hard (it looks further ahead, about a "
                    "second a move). Games stored before the setting play at normal",
    )
    ended_because: str | None = Field(
        default=None,
        description="Why the bot ended the game itself (its thread deleted or out of its "
                    "sight, the bot removed from the server); not a setting anyone sets",
    )


class VoiceLink(BaseModel):
    """A voice channel linked to a Presence game (`/presence voice`, P-DISCORD-05): its seated
    players are server-muted there while they may not talk."""

    game_id: int
    guild_id: int
    channel_id: int
    linked_by: int
    linked_at: float


class VoiceMute(BaseModel):
    """A server mute this bot put on a member in a Presence game's linked voice channel
    (P-DISCORD-05): the bot lifts only the mutes it recorded, so a moderator's own mute is
    never lifted by a game."""

    guild_id: int
    user_id: int
    game_id: int
    channel_id: int
    muted_at: float


class GameRecord(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: int
    guild_id: int
    channel_id: int
    thread_id: int | None
    game: str
    options: dict[str, Any]
    status: Status
    state_json: str | None
    version: int
    """Number of applied actions; equals the stored state's `step`."""
    seed: int | None
    created_by: int
    engine_version: str
    settings: GameSettings
    board_message_id: int | None
    created_at: float
    updated_at: float
    next_reminder_at: float | None
    reminder_stage: int
    awaited_since: float | None
    """When the current wait began (the reminder cycle's start; enforcement counts from it)."""
    epoch: int = 0
    """How many undos this game has had: never lowered, so (epoch, version) never repeats."""
    rematch_of: int | None = None
    """The game this one is a rematch of."""


class ListedGame(BaseModel):
    """What `/game list` shows of one open game: public facts only, read without its state."""

    model_config = ConfigDict(frozen=True)

    id: int
    game: str
    mode: str | None
    status: Status
    channel_id: int
    thread_id: int | None
    awaited_since: float | None
    """When an active game began waiting for its current move."""
    seats: int
    """Seats taken, AI seats included."""
    ai_seats: int


class GameListPage(BaseModel):
    """One page of a server's open games, active ones waiting longest first, then lobbies
    oldest first; with the server's counts (`page` is the one shown: a page past the end,
    asked by a button older than the last closed game, shows the last)."""

    model_config = ConfigDict(frozen=True)

    games: list[ListedGame]
    page: int
    pages: int
    active: int
    lobbies: int

    @property
    def total(self) -> int:
        return self.active + self.lobbies


class SeatRecord(BaseModel):
    model_config = ConfigDict(frozen=True)

    game_id: int
    seat: str
    user_id: int | None
    """None for a seat played by the built-in AI."""
    position: int
    joined_at: float
    dms_ok: bool
    role_pref: str | None
    ai_standin: bool = False
    """The built-in AI plays this human seat until its player comes back."""

    @property
    def is_ai(self) -> bool:
        return self.user_id is None

    @property
    def ai_driven(self) -> bool:
        """Whether the bot plays this seat's moves itself (an AI seat or an AI stand-in)."""
        return self.user_id is None or self.ai_standin


MINUTES_PER_DAY = 24 * 60


class PlayerPrefs(BaseModel):
    """One player's preferences across every game: vacation, quiet hours, "my turn is near".

    Quiet hours are minutes after local midnight; a window whose end is before its start wraps
    past midnight (22:00–07:00). Local time is the IANA zone `tz_name` when set, so the window
    follows daylight saving (`bot/quiet.py`), else the fixed offset `tz_minutes` east of UTC.
    """

    model_config = ConfigDict(frozen=True)

    user_id: int
    away: bool = False
    quiet_start: int | None = Field(default=None, ge=0, lt=MINUTES_PER_DAY)
    quiet_end: int | None = Field(default=None, ge=0, lt=MINUTES_PER_DAY)
    tz_minutes: int = Field(default=0, ge=-14 * 60, le=14 * 60)
    notify_near: bool = False
    tz_name: str | None = Field(default=None, max_length=100)
    stats_hidden: bool = False
    """Others' /game stats and /game history about this player answer that they keep their
    stats private (issue #24); their own always work."""

    @field_validator("tz_name")
    @classmethod
    def _known_zone(cls, name: str | None) -> str | None:
        if name is not None:
            quiet.zone(name)  # a ValueError naming it
        return name

    @property
    def has_quiet_hours(self) -> bool:
        return (self.quiet_start is not None and self.quiet_end is not None
                and self.quiet_start != self.quiet_end)

    def quiet_window(self, now: float) -> tuple[float, float] | None:
        """The quiet window (begins, ends: epoch seconds) `now` falls in, else the next one;
        None without quiet hours."""
        if self.quiet_start is None or self.quiet_end is None or not self.has_quiet_hours:
            return None
        tz = quiet.tzinfo_for(self.tz_name, self.tz_minutes)
        return quiet.quiet_window(self.quiet_start, self.quiet_end, tz, now)

    def quiet_until(self, now: float) -> float | None:
        """When the quiet window `now` falls in ends (epoch seconds), or None if not quiet."""
        window = self.quiet_window(now)
        return window[1] if window is not None and window[0] <= now else None

    def zone_text(self) -> str:
        """The player's time zone as they would write it: `Europe/Paris` or `UTC+5:30`."""
        return self.tz_name or quiet.offset_text(self.tz_minutes)

    def reachable(self, now: float) -> bool:
        """Whether the player may be pinged or DMed a reminder now."""
        return not self.away and self.quiet_until(now) is None


class StoredGame(BaseModel):
    """One whole game as storage holds it (a games row, its seats, its action log and its
    snapshots): the export format of `export_game` / `import_game` and of the stored-game test
    fixtures (those from before snapshots have none; they are rebuilt when needed)."""

    game: GameRecord
    seats: list[SeatRecord]
    actions: list[ActionRecord]
    snapshots: list[SnapshotRecord] = Field(default_factory=list)


class SnapshotMark(BaseModel):
    """What a snapshot is, without its contents: enough to choose one (`snapshot_marks`)."""

    model_config = ConfigDict(frozen=True)

    step: int
    moves: int
    """Actions in the chunk's log: the snapshot interval it was made at."""
    engine_version: str
    digest: str


class SnapshotRecord(SnapshotMark):
    """The game after `step` actions (`state_json`) and the log of the chunk of actions that
    led there (`log_json`, as bot/tables.py writes it), told by `engine_version`."""

    game_id: int
    state_json: str
    log_json: str
    at: float


class GameListing(BaseModel):
    """One game as a list names it (`/game mine`, the finished games a record opens): its row
    without the state — nothing hidden, nothing heavy to parse however many games are listed —
    and who sits where."""

    model_config = ConfigDict(frozen=True)

    id: int
    guild_id: int
    channel_id: int
    thread_id: int | None
    game: str
    options: dict[str, Any]
    status: Status
    version: int
    settings: GameSettings
    created_at: float
    updated_at: float
    awaited_since: float | None
    board_version: int | None
    """The game version the board post shows: its `board_post` is current when this equals
    `version` (a crash or a refused post may leave it behind)."""
    board_post: str | None
    """What the board post stands for (JSON owned by the delivery layer: the awaited seats)."""
    seats: dict[str, int | None]
    """Seat → user id (None: an AI seat), in table order."""


class ActionRecord(BaseModel):
    model_config = ConfigDict(frozen=True)

    game_id: int
    seq: int
    seat: str
    user_id: int | None
    """Who pressed it; None for AI, default (enforced) and other bot-made moves."""
    action_json: str
    at: float


StoredGame.model_rebuild()

PENDING_TTL = 15 * 60.0
"""Seconds an interaction token stays usable (Discord: 15 minutes)."""


class PendingMove(BaseModel):
    """A move's interaction acknowledged but not yet answered (`pending_moves`).

    Recorded before the acknowledgement, so after a crash the bot knows every player left on
    "thinking…" and can still answer them with the token (`answer`: ``original`` edits the
    deferred reply or the ephemeral menu pressed; ``followup`` sends an ephemeral follow-up,
    for a press on a public board whose ``@original`` is the board itself)."""

    model_config = ConfigDict(frozen=True)

    token: str
    interaction_id: int
    guild_id: int
    channel_id: int
    game_id: int | None
    """The game, when known at acknowledgement (a button names it); set when stored."""
    user_id: int
    what: str
    """The move as the player chose it (the button's label, the command)."""
    answer: Literal["original", "followup"]
    created_at: float
    stored_seq: int | None = None
    """The move's seq in the log once stored (in the same transaction as the move)."""


# ---- the interface -------------------------------------------------------------------------
class Storage(ABC):
    """What the table service needs from a database. All methods are coroutines."""

    async def __aenter__(self) -> Self:
        await self.open()
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    @abstractmethod
    async def open(self) -> None:
        """Connect and run pending migrations."""

    @abstractmethod
    async def close(self) -> None: ...

    @abstractmethod
    async def schema_version(self) -> int:
        """The highest applied migration number."""

    # games
    @abstractmethod
    async def create_game(
        self, *, guild_id: int, channel_id: int, thread_id: int | None, game: str,
        options: dict[str, Any], created_by: int, engine_version: str, settings: GameSettings,
        now: float, seat_creator: bool = True, rematch_of: int | None = None,
    ) -> GameRecord:
        """A new lobby; with `seat_creator` the creator takes seat s1 in the same transaction.

        Raises DuplicateSeat if `rematch_of` already has a rematch."""

    @abstractmethod
    async def get_game(self, game_id: int) -> GameRecord | None: ...

    @abstractmethod
    async def find_game_by_thread(self, thread_id: int) -> GameRecord | None:
        """The newest game in that thread (a rematch may reuse a thread)."""

    @abstractmethod
    async def list_games(
        self, guild_id: int | None = None, statuses: Iterable[Status] | None = None,
    ) -> list[GameRecord]: ...

    @abstractmethod
    async def open_games(self, guild_id: int, page: int, per_page: int) -> GameListPage:
        """Page `page` (from 0) of the server's lobbies and active games, `per_page` a page:
        two statements on the `games_guild_waiting` index, no game's state read."""

    @abstractmethod
    async def set_status(self, game_id: int, status: Status, now: float,
                         result: GameResult | None = None) -> GameRecord:
        """Leaving `active` clears the reminder. `result`: what the game leaves behind
        (`bot.memory`), written in the same transaction (an abandoned game's)."""

    @abstractmethod
    async def set_creator(self, game_id: int, user_id: int, now: float) -> None: ...

    @abstractmethod
    async def update_settings(
        self, game_id: int, settings: GameSettings, now: float,
    ) -> GameRecord: ...

    @abstractmethod
    async def set_options(self, game_id: int, options: dict[str, Any], now: float) -> GameRecord:
        """A lobby's options, changed by its creator before the start."""

    @abstractmethod
    async def set_board_message(self, game_id: int, message_id: int | None,
                                version: int | None = None, post: str | None = None) -> None:
        """Remember the board post (and the game version it shows, when known; and, when
        given, what the post stands for: `post`, a JSON text the delivery layer owns)."""

    @abstractmethod
    async def board_post(self, game_id: int) -> str | None:
        """What `set_board_message` last recorded as `post` for this game (None: nothing)."""

    @abstractmethod
    async def boards_behind(
        self, shards: ShardSet | None = None,
    ) -> list[tuple[GameRecord, int]]:
        """Active games with moves stored after their last board post (a crash between
        storing a move and posting its board), each with the version its board shows; with
        `shards`, only those shards' guilds."""

    # seats
    @abstractmethod
    async def add_seat(
        self, game_id: int, user_id: int | None, now: float, *, role_pref: str | None = None,
    ) -> SeatRecord:
        """Seat a user (None: an AI) at the next position with provisional id `s<position>`.

        Raises DuplicateSeat if the user is already seated.
        """

    @abstractmethod
    async def remove_seat(self, game_id: int, user_id: int) -> bool: ...

    @abstractmethod
    async def remove_seat_at(self, game_id: int, seat: str) -> bool: ...

    @abstractmethod
    async def seats(self, game_id: int) -> list[SeatRecord]:
        """The game's seats in join order (position)."""

    @abstractmethod
    async def set_dms_ok(self, game_id: int, user_id: int, ok: bool) -> None: ...

    @abstractmethod
    async def set_ai_standin(self, game_id: int, seat: str, on: bool) -> None: ...

    @abstractmethod
    async def clear_ai_standins(self, user_id: int, game_id: int | None = None) -> list[int]:
        """The user is back: the AI stops playing their seats (in one game or all). Returns
        the ids of the games where it stood in."""

    @abstractmethod
    async def replace_seat(self, game_id: int, seat: str, new_user: int, now: float) -> None:
        """Give `seat` to `new_user` (DMs unknown until tested), clear its AI stand-in and the
        votes about it. Raises DuplicateSeat if the user is already seated."""

    @abstractmethod
    async def find_game_by_rematch(self, game_id: int) -> GameRecord | None:
        """The rematch of `game_id`, if one was made."""

    # replacement votes
    @abstractmethod
    async def vote_replace(self, game_id: int, seat: str, new_user: int, voter: int,
                           now: float) -> None:
        """Record (or change) `voter`'s vote to give `seat` to `new_user`."""

    @abstractmethod
    async def replace_votes(self, game_id: int, seat: str) -> dict[int, int]:
        """voter → the user they voted to seat."""

    # spectators
    @abstractmethod
    async def add_spectator(self, game_id: int, user_id: int, now: float) -> bool:
        """False if they already followed the game."""

    @abstractmethod
    async def remove_spectator(self, game_id: int, user_id: int) -> bool: ...

    @abstractmethod
    async def spectators(self, game_id: int) -> list[int]: ...

    # voice links and mutes (P-DISCORD-05)
    @abstractmethod
    async def link_voice(self, link: VoiceLink) -> None:
        """Link a voice channel to a game (replacing the game's earlier link)."""

    @abstractmethod
    async def unlink_voice(self, game_id: int) -> bool:
        """False if the game had no voice channel linked."""

    @abstractmethod
    async def voice_links(self) -> list[VoiceLink]:
        """Every linked voice channel (a game's link goes once the game is over)."""

    @abstractmethod
    async def add_voice_mute(self, mute: VoiceMute) -> None:
        """Record a server mute the bot put on a member (replacing any older record of it)."""

    @abstractmethod
    async def drop_voice_mute(self, guild_id: int, user_id: int) -> bool:
        """The bot lifted (or no longer owns) that member's mute; False if none was kept."""

    @abstractmethod
    async def voice_mutes(self, *, guild_id: int | None = None,
                          game_id: int | None = None) -> list[VoiceMute]:
        """The mutes the bot put on members and has not lifted yet (all, or a server's, or
        one game's)."""

    # players
    @abstractmethod
    async def veterans(self, user_ids: Iterable[int], game: str) -> set[int]:
        """The asked users who held a seat in a finished (`over`) game of `game` (a game's
        name, e.g. "presence"): who has played this title through before. Guided play is on
        by default while anyone seated is not one; the lobby suggests the first-game setup."""

    @abstractmethod
    async def prefs(self, user_ids: Iterable[int]) -> dict[int, PlayerPrefs]:
        """Every asked user's preferences (defaults for one who never set any)."""

    @abstractmethod
    async def set_prefs(self, prefs: PlayerPrefs, now: float) -> None: ...

    # whole games
    @abstractmethod
    async def export_game(self, game_id: int) -> StoredGame: ...

    @abstractmethod
    async def import_game(self, stored: StoredGame) -> GameRecord:
        """Insert a stored game under a new id (fixtures, moving a game between databases)."""

    # play
    @abstractmethod
    async def start_game(
        self, game_id: int, state_json: str, seed: int, *, seat_ids: Sequence[str], now: float,
        next_reminder_at: float | None, expected_version: int = 0,
    ) -> GameRecord:
        """Lobby → active in one transaction: seats renamed to `seat_ids` in join order, the
        initial state and seed written, version = `expected_version` (0), reminder armed.

        Raises VersionConflict if the game is no longer a lobby at that version.
        """

    @abstractmethod
    async def append_action(
        self, game_id: int, expected_version: int, seat: str, user_id: int | None,
        action_json: str, new_state_json: str, status: Status,
        next_reminder_at: float | None, reminder_stage: int, *,
        awaited_since: float | None = None, now: float, pending_token: str | None = None,
        result: GameResult | None = None,
    ) -> GameRecord:
        """One transaction: check the version, insert the action at seq = version+1, write the
        state, bump the version, set status, reminder and updated_at, and mark the pending
        move of `pending_token` (if any) as stored at that seq. Raises VersionConflict.
        `result`: the move ends the game; what it leaves behind (`bot.memory`: results,
        ratings) is written in the same transaction."""

    @abstractmethod
    async def rewind(
        self, game_id: int, expected_version: int, keep_seq: int, state_json: str, *,
        status: Status, next_reminder_at: float | None, reminder_stage: int,
        awaited_since: float | None, now: float,
    ) -> GameRecord:
        """One transaction: delete actions with seq > keep_seq, write the (replayed) state and
        set version = keep_seq and bump the epoch (undo). Raises VersionConflict."""

    @abstractmethod
    async def rewrite_state(
        self, game_id: int, expected_version: int, state_json: str, engine_version: str,
        now: float,
    ) -> GameRecord:
        """Replace the state without a new action (a migrated state on load)."""

    @abstractmethod
    async def actions(
        self, game_id: int, after_seq: int = 0, upto_seq: int | None = None,
    ) -> list[ActionRecord]:
        """Actions with after_seq < seq <= upto_seq, in order."""

    # the memory of finished games (issue #24, bot/memory.py)
    @abstractmethod
    async def move_log(self, game_id: int) -> MoveLog:
        """When the game was dealt (None: not started, or before this was kept), each stored
        move's (seat, who pressed it, when) in order, and the away periods since the game was
        made of everyone who sat or moved in it: what move times are told from."""

    @abstractmethod
    async def game_result(self, game_id: int) -> GameResult | None:
        """What a finished game left behind, with its seats; None if it left nothing."""

    @abstractmethod
    async def history(self, guild_id: int, *, user_id: int | None = None,
                      game: str | None = None, page: int = 0,
                      per_page: int = memory.HISTORY_PAGE) -> HistoryPage:
        """One page of the server's finished games, newest first."""

    @abstractmethod
    async def player_stats(self, guild_id: int, user_id: int,
                           show_ratings: bool = True) -> PlayerStats:
        """A player's figures in this server (their ratings when `show_ratings`)."""

    @abstractmethod
    async def server_stats(self, guild_id: int) -> ServerStats:
        """A server's figures: most played games, roles' win rates, busiest players."""

    @abstractmethod
    async def table_ratings(self, user_ids: Iterable[int], game: str) -> dict[int, Rating]:
        """These people's ratings in one game title (those rated)."""

    @abstractmethod
    async def rating_line(self, user_id: int, game: str) -> list[tuple[float, Rating]]:
        """A person's rating in one game after each rated game, oldest first."""

    @abstractmethod
    async def ratings_on(self, guild_id: int) -> bool:
        """Whether this server shows and moves ratings (on unless turned off)."""

    @abstractmethod
    async def set_ratings_on(self, guild_id: int, on: bool, now: float) -> None: ...

    # snapshots
    @abstractmethod
    async def snapshot_marks(self, game_id: int, upto_step: int | None = None
                             ) -> list[SnapshotMark]:
        """The game's snapshots at or below `upto_step`, by step (no contents)."""

    @abstractmethod
    async def snapshot_state(self, game_id: int, step: int) -> str | None:
        """The state JSON of the snapshot at `step` (None: there is none)."""

    @abstractmethod
    async def snapshot_logs(self, game_id: int, steps: Iterable[int]) -> dict[int, str]:
        """step → the chunk's log JSON, for those of `steps` that have a snapshot."""

    @abstractmethod
    async def put_snapshots(self, game_id: int, epoch: int,
                            records: Sequence[SnapshotRecord]) -> int:
        """Write (or replace) snapshots in one transaction, only while the game is still at
        `epoch` and has at least each one's step (an undo meanwhile makes them wrong);
        returns how many were written."""

    # moves in flight
    @abstractmethod
    async def add_pending_move(self, move: PendingMove, *, forget: Iterable[str] = (),
                               expired_before: float | None = None) -> None:
        """Record an acknowledged move's interaction (one write, before the acknowledgement).

        The same transaction deletes the rows of `forget` (moves answered since) and every row
        created before `expired_before` (tokens Discord no longer honours)."""

    @abstractmethod
    async def pending_moves(self, shards: ShardSet | None = None) -> list[PendingMove]:
        """Every recorded move interaction, oldest first; with `shards`, only those shards'."""

    @abstractmethod
    async def forget_pending_moves(self, tokens: Iterable[str], *,
                                   unstored_only: bool = False) -> None:
        """Delete these rows (with `unstored_only`, only those whose move was not stored)."""

    # reminders
    @abstractmethod
    async def due_reminders(self, now: float, limit: int = 100,
                            shards: ShardSet | None = None) -> list[GameRecord]:
        """Active games whose next reminder is due, earliest first; with `shards`, only the
        games of guilds on those shards (None: every game)."""

    @abstractmethod
    async def set_reminder(
        self, game_id: int, at: float | None, stage: int, *,
        expected_version: int | None = None, expected_stage: int | None = None,
    ) -> bool:
        """Set the next reminder. With `expected_*` it is a compare-and-set that does nothing
        (returns False) if a move or another reminder got there first."""


    # ---- lists across games (issue #24) ---------------------------------------------------
    @abstractmethod
    async def player_games(self, user_id: int,
                           statuses: Iterable[Status] = LIVE) -> list[GameListing]:
        """Every game `user_id` sits in, in any guild, with one of `statuses`, oldest first
        (the `seats_user` index: a few seats per player, each joined to its game by key)."""

    @abstractmethod
    async def finished_games(self, guild_id: int, limit: int = 25,
                             id_prefix: str = "") -> list[GameListing]:
        """The guild's over and abandoned games, newest first, at most `limit`; with
        `id_prefix` (digits), only games whose number starts with it."""

# ---- SQL (SQLAlchemy Core), shared by SQLite and PostgreSQL ---------------------------------
_GAME_COLS = (
    games.c.id, games.c.guild_id, games.c.channel_id, games.c.thread_id, games.c.game,
    games.c.options, games.c.status, games.c.state, games.c.version, games.c.seed,
    games.c.created_by, games.c.engine_version, games.c.settings, games.c.board_message_id,
    games.c.created_at, games.c.updated_at, games.c.next_reminder_at, games.c.reminder_stage,
    games.c.awaited_since, games.c.epoch, games.c.rematch_of,
)
_LISTING_COLS = (
    games.c.id, games.c.guild_id, games.c.channel_id, games.c.thread_id, games.c.game,
    games.c.options, games.c.status, games.c.version, games.c.settings, games.c.created_at,
    games.c.updated_at, games.c.awaited_since, games.c.board_version, games.c.board_post,
)
_SEAT_COLS = (seats.c.game_id, seats.c.seat, seats.c.user_id, seats.c.position,
              seats.c.joined_at, seats.c.dms_ok, seats.c.role_pref, seats.c.ai_standin)
_CAME_BACK = (update(away_periods)
              .where(away_periods.c.user_id == bindparam("uid"), away_periods.c.ended.is_(None))
              .values(ended=bindparam("now")))
"""Close the player's open away period (`/game away off`)."""
# A finished game's moves and its people's away periods in one statement (one trip at the
# game's end): kind 0 rows are the game's row beside each of its moves in order (one row with
# no move for a game without any), kind 1 rows the away periods of those who sat or moved in
# it that had not ended before the game was made.
_PEOPLE = or_(
    away_periods.c.user_id.in_(select(seats.c.user_id).where(seats.c.game_id == bindparam("gid"),
                                                             seats.c.user_id.isnot(None))),
    away_periods.c.user_id.in_(select(actions.c.user_id).where(
        actions.c.game_id == bindparam("gid"), actions.c.user_id.isnot(None))))
_MADE = select(games.c.created_at).where(games.c.id == bindparam("gid")).scalar_subquery()
_MOVE_LOG = union_all(
    select(literal_column("0", Integer).label("kind"), actions.c.seq.label("seq"),
           games.c.started_at.label("dealt"), actions.c.seat.label("seat"),
           actions.c.user_id.label("user_id"), actions.c.at.label("at"),
           sql_cast(null(), REAL).label("ended"))
    .select_from(games.outerjoin(actions, actions.c.game_id == games.c.id))
    .where(games.c.id == bindparam("gid")),
    select(literal_column("1", Integer), sql_cast(null(), Integer),
           sql_cast(null(), REAL), sql_cast(null(), Text), away_periods.c.user_id,
           away_periods.c.began, away_periods.c.ended)
    .where(_PEOPLE, or_(away_periods.c.ended.is_(None), away_periods.c.ended > _MADE)),
).order_by(literal_column("kind"), literal_column("seq"), literal_column("at"))

_PREF_COLS = (players.c.user_id, players.c.away, players.c.quiet_start, players.c.quiet_end,
              players.c.tz_minutes, players.c.notify_near, players.c.tz_name,
              players.c.stats_hidden)
_ACTION_COLS = (actions.c.game_id, actions.c.seq, actions.c.seat, actions.c.user_id,
                actions.c.action, actions.c.at)
_PENDING_COLS = tuple(pending_moves.c)
_SNAPSHOT_COLS = (snapshots.c.game_id, snapshots.c.step, snapshots.c.moves,
                  snapshots.c.engine_version, snapshots.c.digest, snapshots.c.state,
                  snapshots.c.log, snapshots.c.at)

# The statements of a move, built once (their compiled SQL is cached per dialect).
_SELECT_GAME = select(*_GAME_COLS).where(games.c.id == bindparam("gid"))
_SELECT_VERSION = select(games.c.version).where(games.c.id == bindparam("gid"))
_INSERT_ACTION = insert(actions)
_INSERT_PENDING = insert(pending_moves)
# The rows of answered moves (`tok`, NULL for none) and of expired tokens, in one statement.
_FORGET_PENDING = delete(pending_moves).where(or_(
    pending_moves.c.token == bindparam("tok"), pending_moves.c.created_at < bindparam("before")))
_MARK_PENDING = (update(pending_moves).where(pending_moves.c.token == bindparam("tok"))
                 .values(stored_seq=bindparam("seq"), game_id=bindparam("gid")))
# The version check and the state write in one statement: it matches no row when another
# write got there first (or the game is gone), and hands back the new record.
_WRITE_MOVE = (update(games)
               .where(games.c.id == bindparam("gid"), games.c.version == bindparam("expected"))
               .values(state=bindparam("new_state"), version=bindparam("new_version"),
                       status=bindparam("new_status"), updated_at=bindparam("now"),
                       next_reminder_at=bindparam("reminder_at"),
                       reminder_stage=bindparam("stage"),
                       awaited_since=bindparam("since"))
               .returning(*_GAME_COLS))
# The same without handing the record back: the storage already holds the game's record and
# knows what the move changes in it.
_WRITE_MOVE_ONLY = (update(games)
                    .where(games.c.id == bindparam("gid"),
                           games.c.version == bindparam("expected"))
                    .values(state=bindparam("new_state"), version=bindparam("new_version"),
                            status=bindparam("new_status"), updated_at=bindparam("now"),
                            next_reminder_at=bindparam("reminder_at"),
                            reminder_stage=bindparam("stage"),
                            awaited_since=bindparam("since")))
# The board post remembered; a NULL version or post leaves the stored one as it is.
_SET_BOARD = (update(games).where(games.c.id == bindparam("gid"))
              .values(board_message_id=bindparam("message_id"),
                      board_version=func.coalesce(bindparam("board_version", type_=Integer()),
                                                  games.c.board_version),
                      board_post=func.coalesce(bindparam("board_post", type_=Text()),
                                               games.c.board_post)))


# `/game list`'s page: the order is the `games_guild_waiting` index's (guild, status,
# awaited_since, id), so no sort and no read of the games skipped ('active' sorts before
# 'lobby'; a lobby waits for no move: by id, oldest first). Only the page's rows are read,
# and of each only columns stored before its state; seats are counted on their own index.
# (An active game awaiting no one yet, its awaited_since NULL, comes first of the active ones
# on SQLite, last on PostgreSQL: their NULL orders, each its index's.)
_SEATS_TAKEN = (select(func.count()).where(seats.c.game_id == games.c.id)
                .correlate(games).scalar_subquery())
_AI_SEATS = (select(func.count()).where(seats.c.game_id == games.c.id, seats.c.user_id.is_(None))
             .correlate(games).scalar_subquery())
_OPEN_GAMES = (select(games.c.id, games.c.game, games.c.options, games.c.status,
                      games.c.channel_id, games.c.thread_id, games.c.awaited_since,
                      _SEATS_TAKEN, _AI_SEATS)
               .where(games.c.guild_id == bindparam("guild"),
                      games.c.status.in_(bindparam("live", expanding=True)))
               .order_by(games.c.status, games.c.awaited_since, games.c.id)
               .limit(bindparam("per_page")).offset(bindparam("skip")))


class Ran:
    """What one statement of a `_write` body gave back: rows it returned, rows it changed."""

    __slots__ = ("rowcount", "rows")

    def __init__(self, rowcount: int, rows: list[Any]) -> None:
        self.rowcount = rowcount
        self.rows = rows

    def first(self) -> Any:
        return self.rows[0] if self.rows else None


Run = Callable[[Executable, dict[str, Any] | list[dict[str, Any]]], Ran]
"""Runs one statement of a `_write` body (a list of parameter sets: executemany)."""


def _runner(conn: Connection) -> Run:
    """`Run` on a SQLAlchemy connection (the SQLite fast path has its own, `_run_on_sqlite`)."""
    def one(stmt: Executable, params: dict[str, Any] | list[dict[str, Any]]) -> Ran:
        if isinstance(params, list) and not params:
            return Ran(0, [])
        res = conn.execute(stmt, params)
        return Ran(res.rowcount, list(res.all()) if res.returns_rows else [])
    return one
T = TypeVar("T")

_SQLITE = sqlite_dialect.dialect(paramstyle="named")
_SQLITE_TEXT: dict[tuple[Executable, tuple[str, ...]], str] = {}


def _sqlite_text(stmt: Executable, keys: tuple[str, ...]) -> str:
    """The statement's SQLite text with `:name` parameters, compiled once per statement."""
    text_ = _SQLITE_TEXT.get((stmt, keys))
    if text_ is None:
        # An INSERT without .values() takes its columns from the parameters' names.
        columns = list(keys) if isinstance(stmt, Insert) else None
        text_ = str(cast(ClauseElement, stmt).compile(dialect=_SQLITE, column_keys=columns))
        _SQLITE_TEXT[(stmt, keys)] = text_
    return text_


def _run_on_sqlite(conn: sqlite3.Connection, stmt: Executable,
                   params: dict[str, Any] | list[dict[str, Any]]) -> Ran:
    """One statement on the sqlite3 connection itself (on its thread), without SQLAlchemy."""
    if isinstance(params, list) and not params:
        return Ran(0, [])
    sql = _sqlite_text(stmt, tuple(params[0] if isinstance(params, list) else params))
    try:
        cursor = (conn.executemany(sql, params) if isinstance(params, list)
                  else conn.execute(sql, params))
    except sqlite3.Error as exc:  # as SQLAlchemy would raise it (IntegrityError, …)
        raise DBAPIError.instance(sql, params, exc, sqlite3.Error) from exc
    try:
        return Ran(cursor.rowcount, cursor.fetchall() if cursor.description else [])
    finally:
        cursor.close()


# ---- reads kept between moves ----------------------------------------------------------------
_UNKNOWN: Any = object()


class _Kept:
    """What the cache holds of one game (None, or _UNKNOWN for the board post: not held)."""

    __slots__ = ("board_post", "record", "seats", "spectators")

    def __init__(self) -> None:
        self.record: GameRecord | None = None
        self.seats: tuple[SeatRecord, ...] | None = None
        self.spectators: tuple[int, ...] | None = None
        self.board_post: str | None = _UNKNOWN


class ReadCache:
    """Reads that only this storage's own writes change, kept between moves: a game's record,
    seats, spectators and board post, players' preferences, which game a thread holds.

    Sound only while this storage object is the database's one writer (`SqliteStorage`: one
    process, one connection); `PgStorage`'s processes share a server, so it keeps nothing.
    Every write drops what it touches as it begins, holding the storage's lock (so a write
    cut off half-way leaves no stale entry behind, and a read in flight cannot keep what the
    write changes), and keeps what it wrote once committed; reads fill the cache while they
    hold the lock. Records are frozen; lists are handed out as copies.
    """

    def __init__(self, enabled: bool, max_games: int = 512, max_players: int = 8192) -> None:
        self.enabled = enabled
        self.max_games = max_games
        self.max_players = max_players
        self._games: OrderedDict[int, _Kept] = OrderedDict()
        self._threads: dict[int, int] = {}
        self._prefs: dict[int, PlayerPrefs] = {}

    def peek(self, game_id: int) -> _Kept | None:
        kept = self._games.get(game_id)
        if kept is not None:
            self._games.move_to_end(game_id)
        return kept

    def keep(self, game_id: int) -> _Kept:
        """The game's entry, made if missing (a throwaway one when the cache is off)."""
        if not self.enabled:
            return _Kept()
        kept = self.peek(game_id)
        if kept is None:
            kept = self._games[game_id] = _Kept()
            while len(self._games) > self.max_games:
                self._games.popitem(last=False)
        return kept

    def record(self, rec: GameRecord) -> GameRecord:
        self.keep(rec.id).record = rec
        return rec

    def drop(self, game_id: int) -> None:
        self._games.pop(game_id, None)

    def drop_record(self, game_id: int) -> GameRecord | None:
        """Forget the game's record; returns what was held."""
        kept = self._games.get(game_id)
        if kept is None:
            return None
        rec, kept.record = kept.record, None
        return rec

    def drop_seats(self, game_id: int | None) -> None:
        """Forget the game's seats (None: every game's)."""
        if game_id is None:
            for each in self._games.values():
                each.seats = None
        elif (kept := self._games.get(game_id)) is not None:
            kept.seats = None

    def drop_spectators(self, game_id: int) -> None:
        if (kept := self._games.get(game_id)) is not None:
            kept.spectators = None

    def thread(self, thread_id: int) -> int | None:
        return self._threads.get(thread_id)

    def keep_thread(self, thread_id: int, game_id: int) -> None:
        if self.enabled:
            if len(self._threads) >= 4 * self.max_games:
                self._threads.clear()
            self._threads[thread_id] = game_id

    def drop_thread(self, thread_id: int | None) -> None:
        if thread_id is not None:
            self._threads.pop(thread_id, None)

    def prefs(self, user_id: int) -> PlayerPrefs | None:
        return self._prefs.get(user_id)

    def keep_prefs(self, prefs: PlayerPrefs) -> None:
        if self.enabled:
            if len(self._prefs) >= self.max_players:
                self._prefs.clear()
            self._prefs[prefs.user_id] = prefs

    def drop_prefs(self, user_id: int) -> None:
        self._prefs.pop(user_id, None)


def _shard_filter(shards: ShardSet | None,
                  guild_id: ColumnElement[int] = games.c.guild_id,
                  ) -> tuple[bool, list[ColumnElement[bool]]]:
    """(anything to run, WHERE terms keeping the guilds of `shards`).

    `>>` and `%` on 64-bit integers mean the same in SQLite and PostgreSQL (guild ids are
    positive and below 2**63); PostgreSQL shifts a bigint by an integer.
    """
    if shards is None or shards.owns_all:
        return True, []
    if not shards.ids:
        return False, []
    shard = guild_id.bitwise_rshift(literal(SHARD_SHIFT, Integer())) % shards.count
    return True, [shard.in_(shards.ids)]


def _new_id(key: Sequence[Any] | None) -> int:
    assert key is not None  # an INSERT INTO games always has one
    return int(key[0])


def _game(row: Sequence[Any]) -> GameRecord:
    return GameRecord(
        id=row[0], guild_id=row[1], channel_id=row[2], thread_id=row[3], game=row[4],
        options=json.loads(row[5]), status=row[6], state_json=row[7], version=row[8],
        seed=row[9], created_by=row[10], engine_version=row[11],
        settings=GameSettings.model_validate_json(row[12]), board_message_id=row[13],
        created_at=row[14], updated_at=row[15], next_reminder_at=row[16],
        reminder_stage=row[17], awaited_since=row[18], epoch=row[19], rematch_of=row[20],
    )


def _listed(row: Sequence[Any]) -> ListedGame:
    mode = json.loads(row[2]).get("mode")  # the options: a few keys, never the state
    return ListedGame(id=row[0], game=row[1], mode=mode if isinstance(mode, str) else None,
                      status=row[3], channel_id=row[4], thread_id=row[5],
                      awaited_since=row[6], seats=row[7], ai_seats=row[8])


def _seat(row: Sequence[Any]) -> SeatRecord:
    return SeatRecord(
        game_id=row[0], seat=row[1], user_id=row[2], position=row[3], joined_at=row[4],
        dms_ok=bool(row[5]), role_pref=row[6], ai_standin=bool(row[7]),
    )


def _prefs(row: Sequence[Any]) -> PlayerPrefs:
    return PlayerPrefs(user_id=row[0], away=bool(row[1]), quiet_start=row[2], quiet_end=row[3],
                       tz_minutes=row[4], notify_near=bool(row[5]), tz_name=row[6],
                       stats_hidden=bool(row[7]))


def _pending(row: Sequence[Any]) -> PendingMove:
    return PendingMove(
        token=row[0], interaction_id=row[1], guild_id=row[2], channel_id=row[3],
        game_id=row[4], user_id=row[5], what=row[6], answer=row[7], created_at=row[8],
        stored_seq=row[9],
    )


def _action(row: Sequence[Any]) -> ActionRecord:
    return ActionRecord(
        game_id=row[0], seq=row[1], seat=row[2], user_id=row[3], action_json=row[4], at=row[5],
    )


def _packed(text: str) -> bytes:
    """A snapshot's JSON as stored: zlib-compressed (a state or a chunk's log shrinks to a
    fifth; the table would otherwise hold most of a finished game's bytes)."""
    return zlib.compress(text.encode(), 6)


def _unpacked(data: bytes) -> str:
    return zlib.decompress(data).decode()


def _snapshot(row: Sequence[Any]) -> SnapshotRecord:
    return SnapshotRecord(
        game_id=row[0], step=row[1], moves=row[2], engine_version=row[3], digest=row[4],
        state_json=_unpacked(row[5]), log_json=_unpacked(row[6]), at=row[7],
    )


def _refused_now(run: Run, game_id: int, expected: int) -> StorageError:
    """Why a versioned write matched no row (inside a `_write` body)."""
    row = run(_SELECT_VERSION, {"gid": game_id}).first()
    if row is None:
        return GameNotFound(game_id)
    return VersionConflict(game_id, expected, row[0])


class SqlStorage(Storage):
    """Every storage operation, written once in SQLAlchemy Core over `bot.schema`'s tables.

    `SqliteStorage` and `PgStorage` (bot/pgstorage.py) supply the engine and what a
    transaction is (`_tx`: one write transaction, rolled back on any exception; `_read`: a
    connection for reads). Every write that changes a game is one `_tx`.
    """

    def __init__(self, *, migrations: str | Path = SCRIPTS,
                 schema_target: int | None = None, keep_reads: bool = False) -> None:
        self._migrations = Path(migrations)
        self._schema_target = schema_target
        self._cache = ReadCache(enabled=keep_reads)

    @abstractmethod
    def _tx(self) -> AbstractAsyncContextManager[CoreConnection]: ...

    async def _write(self, body: Callable[[Run], T],
                     before: Callable[[], object] | None = None) -> T:
        """One write transaction running `body`'s statements, rolled back if it raises. Here
        through SQLAlchemy; `SqliteStorage` runs the whole of it in one trip to its thread.
        `before` runs first, inside the transaction (where the cache drops what it touches:
        no read can fill it again until the write is over)."""
        def run(conn: Connection) -> T:
            return body(_runner(conn))

        async with self._tx() as db:
            if before is not None:
                before()
            return await db.run_sync(run)

    async def _write_one(self, stmt: Executable, params: dict[str, Any],
                         before: Callable[[], object] | None = None) -> Ran:
        """A write of one statement (atomic by itself), its own transaction."""
        return await self._write(lambda run: run(stmt, params), before)

    @abstractmethod
    def _read(self) -> AbstractAsyncContextManager[CoreConnection]: ...

    @property
    @abstractmethod
    def dialect(self) -> Literal["sqlite", "postgresql"]: ...

    async def _lock_for_migration(self, conn: CoreConnection) -> None:
        """Hold off other processes migrating the same database (in the migration's tx)."""

    def _where(self) -> dict[str, Any] | None:
        """How another process opens this same database (`migrate_in_child`); None if it
        cannot (an in-memory database)."""
        return None

    async def _migrate(self) -> None:
        """Alembic to the newest revision (or `schema_target`); nothing written if there."""
        target = self._schema_target
        wanted = migrations.head(self._migrations) if target is None else target
        async with self._read() as conn:
            if await conn.run_sync(migrations.up_to_date, wanted):
                return
        where = self._where()
        if MIGRATE_IN_CHILD and where is not None:
            await self._migrate_in_child(where, wanted)
            return
        async with self._tx() as conn:
            await self._lock_for_migration(conn)
            await conn.run_sync(migrations.upgrade, self._migrations, target)

    async def _migrate_in_child(self, where: dict[str, Any], wanted: int) -> None:
        """Run the upgrade in a short-lived process of its own (`bot.database.migrate_here`):
        the same storage class migrating in its own transaction, so Alembic (some 7 MiB that stay
        once imported) never loads into the bot's long-running process. Its parameters go on
        stdin: a PostgreSQL URL's password never shows on a command line."""
        job = {**where, "migrations": str(self._migrations), "target": self._schema_target}
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-c",
            f"import sys; sys.path.insert(0, {str(ROOT)!r}); "
            "from bot.database import migrate_here; migrate_here()",
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE)
        _, err = await proc.communicate(json.dumps(job).encode())
        if proc.returncode != 0:
            lines = err.decode(errors="replace").strip().splitlines()
            raise StorageError(f"migrating the database to schema {wanted} failed: "
                               f"{lines[-1] if lines else f'exit {proc.returncode}'}")
        async with self._read() as conn:
            if not await conn.run_sync(migrations.up_to_date, wanted):
                raise StorageError(f"the database is not at schema {wanted} after migrating")

    async def schema_version(self) -> int:
        async with self._read() as conn:
            return await conn.run_sync(migrations.current)

    def _insert(self, table: Table) -> Any:
        """The dialect's own INSERT (it has ON CONFLICT). PostgreSQL's dialect is imported only
        by a bot that uses it (2.4 MiB a bot on SQLite need not hold, issue #15)."""
        if self.dialect == "sqlite":
            return sqlite_insert(table)
        from sqlalchemy.dialects.postgresql import insert as pg_insert

        return pg_insert(table)

    def _insert_ignore(self, table: Table) -> Any:
        """INSERT that does nothing when the row's key already exists."""
        ins = self._insert(table)
        return ins.on_conflict_do_nothing()

    def _upsert(self, table: Table, keys: Sequence[str], values: dict[str, Any],
                changed: Sequence[str]) -> Any:
        """INSERT, or on a key clash UPDATE the `changed` columns to the new values."""
        ins = self._insert(table).values(**values)
        return ins.on_conflict_do_update(
            index_elements=list(keys), set_={c: ins.excluded[c] for c in changed})

    # ---- helpers ------------------------------------------------------------------------
    @staticmethod
    async def _one_game(db: CoreConnection, game_id: int) -> GameRecord:
        row = (await db.execute(_SELECT_GAME, {"gid": game_id})).first()
        if row is None:
            raise GameNotFound(game_id)
        return _game(row)

    @staticmethod
    async def _refused(db: CoreConnection, game_id: int, expected: int) -> StorageError:
        """Why a versioned write matched no row: the game is gone or another write won."""
        row = (await db.execute(_SELECT_VERSION, {"gid": game_id})).first()
        if row is None:
            return GameNotFound(game_id)
        return VersionConflict(game_id, expected, row[0])

    async def _write_game(self, db: CoreConnection, game_id: int, expected: int | None,
                          **values: Any) -> GameRecord:
        """UPDATE the game (only at version `expected`, if given) and return it as written."""
        query = update(games).where(games.c.id == game_id)
        if expected is not None:
            query = query.where(games.c.version == expected)
        row = (await db.execute(query.values(**values).returning(*_GAME_COLS))).first()
        if row is None:
            raise (GameNotFound(game_id) if expected is None
                   else await self._refused(db, game_id, expected))
        return _game(row)

    # ---- games --------------------------------------------------------------------------
    async def create_game(
        self, *, guild_id: int, channel_id: int, thread_id: int | None, game: str,
        options: dict[str, Any], created_by: int, engine_version: str, settings: GameSettings,
        now: float, seat_creator: bool = True, rematch_of: int | None = None,
    ) -> GameRecord:
        async with self._tx() as db:
            self._cache.drop_thread(thread_id)  # the thread's newest game is this one now
            try:
                res = await db.execute(insert(games).values(
                    guild_id=guild_id, channel_id=channel_id, thread_id=thread_id, game=game,
                    options=json.dumps(options, sort_keys=True), status="lobby", version=0,
                    created_by=created_by, engine_version=engine_version,
                    settings=settings.model_dump_json(), created_at=now, updated_at=now,
                    reminder_stage=0, rematch_of=rematch_of))
            except IntegrityError as exc:
                raise DuplicateSeat(f"game {rematch_of} already has a rematch") from exc
            game_id = _new_id(res.inserted_primary_key)
            if seat_creator:
                await db.execute(insert(seats).values(
                    game_id=game_id, seat="s1", user_id=created_by, position=1, joined_at=now,
                    dms_ok=0, role_pref=None, ai_standin=0))
            rec = await self._one_game(db, game_id)
        self._cache.drop(game_id)
        return self._cache.record(rec)

    async def get_game(self, game_id: int) -> GameRecord | None:
        kept = self._cache.peek(game_id)
        if kept is not None and kept.record is not None:
            return kept.record
        async with self._read() as db:
            try:
                return self._cache.record(await self._one_game(db, game_id))
            except GameNotFound:
                return None

    async def find_game_by_thread(self, thread_id: int) -> GameRecord | None:
        game_id = self._cache.thread(thread_id)
        if game_id is not None:
            return await self.get_game(game_id)
        async with self._read() as db:
            row = (await db.execute(select(*_GAME_COLS).where(games.c.thread_id == thread_id)
                                    .order_by(games.c.id.desc()).limit(1))).first()
            if row is None:
                return None
            rec = self._cache.record(_game(row))
            self._cache.keep_thread(thread_id, rec.id)
            return rec

    async def list_games(
        self, guild_id: int | None = None, statuses: Iterable[Status] | None = None,
    ) -> list[GameRecord]:
        query = select(*_GAME_COLS)
        if guild_id is not None:
            query = query.where(games.c.guild_id == guild_id)
        if statuses is not None:
            wanted = list(statuses)
            if not wanted:
                return []
            query = query.where(games.c.status.in_(wanted))
        async with self._read() as db:
            rows = (await db.execute(query.order_by(games.c.id))).all()
        return [_game(r) for r in rows]

    async def open_games(self, guild_id: int, page: int, per_page: int) -> GameListPage:
        if per_page < 1:
            raise ValueError(f"a page holds at least one game, not {per_page}")
        counted = (select(games.c.status, func.count())
                   .where(games.c.guild_id == guild_id, games.c.status.in_(LIVE))
                   .group_by(games.c.status))
        async with self._read() as db:
            counts = {str(r[0]): int(r[1]) for r in (await db.execute(counted)).all()}
            total = sum(counts.values())
            pages = max(1, -(-total // per_page))
            page = min(max(0, page), pages - 1)
            rows = (await db.execute(_OPEN_GAMES, {
                "guild": guild_id, "live": list(LIVE), "per_page": per_page,
                "skip": page * per_page})).all() if total else []
        return GameListPage(games=[_listed(r) for r in rows], page=page, pages=pages,
                            active=counts.get("active", 0), lobbies=counts.get("lobby", 0))

    async def set_status(self, game_id: int, status: Status, now: float,
                         result: GameResult | None = None) -> GameRecord:
        changes: dict[str, Any] = {"status": status, "updated_at": now}
        if status != "active":
            changes |= {"next_reminder_at": None, "reminder_stage": 0}
        async with self._tx() as db:
            self._cache.drop_record(game_id)
            rec = await self._write_game(db, game_id, None, **changes)
            if result is not None:
                await db.run_sync(lambda conn: memory.record(_runner(conn), result,
                                                             self.dialect))
        return self._cache.record(rec)

    async def set_creator(self, game_id: int, user_id: int, now: float) -> None:
        async with self._tx() as db:
            self._cache.drop_record(game_id)
            await self._one_game(db, game_id)
            await db.execute(update(games).where(games.c.id == game_id)
                             .values(created_by=user_id, updated_at=now))

    async def update_settings(
        self, game_id: int, settings: GameSettings, now: float,
    ) -> GameRecord:
        async with self._tx() as db:
            self._cache.drop_record(game_id)
            rec = await self._write_game(db, game_id, None, updated_at=now,
                                         settings=settings.model_dump_json())
        return self._cache.record(rec)

    async def set_options(self, game_id: int, options: dict[str, Any], now: float) -> GameRecord:
        async with self._tx() as db:
            self._cache.drop_record(game_id)
            rec = await self._write_game(db, game_id, None, updated_at=now,
                                         options=json.dumps(options, sort_keys=True))
        return self._cache.record(rec)

    async def set_board_message(self, game_id: int, message_id: int | None,
                                version: int | None = None, post: str | None = None) -> None:
        held: GameRecord | None = None

        def drop() -> None:
            nonlocal held
            held = self._cache.drop_record(game_id)
            if (kept := self._cache.peek(game_id)) is not None:
                kept.board_post = _UNKNOWN

        params = {"gid": game_id, "message_id": message_id, "board_version": version,
                  "board_post": post}
        await self._write_one(_SET_BOARD, params, before=drop)
        if held is not None:
            self._cache.record(held.model_copy(update={"board_message_id": message_id}))
        if post is not None:
            self._cache.keep(game_id).board_post = post

    async def board_post(self, game_id: int) -> str | None:
        kept = self._cache.peek(game_id)
        if kept is not None and kept.board_post is not _UNKNOWN:
            return kept.board_post
        async with self._read() as db:
            post = (await db.execute(select(games.c.board_post)
                                     .where(games.c.id == game_id))).scalar()
            if post is not None:
                self._cache.keep(game_id).board_post = str(post)
        return str(post) if post is not None else None

    async def boards_behind(
        self, shards: ShardSet | None = None,
    ) -> list[tuple[GameRecord, int]]:
        run, where = _shard_filter(shards)
        if not run:
            return []
        query = (select(*_GAME_COLS, games.c.board_version)
                 .where(games.c.status == "active", games.c.board_version.isnot(None),
                        games.c.board_version < games.c.version, *where)
                 .order_by(games.c.id))
        async with self._read() as db:
            rows = (await db.execute(query)).all()
        return [(_game(r), int(r[-1])) for r in rows]

    # ---- seats --------------------------------------------------------------------------
    async def add_seat(
        self, game_id: int, user_id: int | None, now: float, *, role_pref: str | None = None,
    ) -> SeatRecord:
        async with self._tx() as db:
            self._cache.drop_seats(game_id)
            await self._one_game(db, game_id)
            position = int((await db.execute(
                select(func.coalesce(func.max(seats.c.position), 0) + 1)
                .where(seats.c.game_id == game_id))).scalar_one())
            try:
                await db.execute(insert(seats).values(
                    game_id=game_id, seat=f"s{position}", user_id=user_id, position=position,
                    joined_at=now, dms_ok=0, role_pref=role_pref, ai_standin=0))
            except IntegrityError as exc:
                raise DuplicateSeat(f"user {user_id} is already seated in {game_id}") from exc
            row = (await db.execute(select(*_SEAT_COLS).where(
                seats.c.game_id == game_id, seats.c.position == position))).one()
            return _seat(row)

    async def remove_seat(self, game_id: int, user_id: int) -> bool:
        async with self._tx() as db:
            self._cache.drop_seats(game_id)
            res = await db.execute(delete(seats).where(seats.c.game_id == game_id,
                                                       seats.c.user_id == user_id))
            return res.rowcount > 0

    async def remove_seat_at(self, game_id: int, seat: str) -> bool:
        async with self._tx() as db:
            self._cache.drop_seats(game_id)
            res = await db.execute(delete(seats).where(seats.c.game_id == game_id,
                                                       seats.c.seat == seat))
            return res.rowcount > 0

    async def seats(self, game_id: int) -> list[SeatRecord]:
        kept = self._cache.peek(game_id)
        if kept is not None and kept.seats is not None:
            return list(kept.seats)
        async with self._read() as db:
            rows = (await db.execute(select(*_SEAT_COLS).where(seats.c.game_id == game_id)
                                     .order_by(seats.c.position))).all()
            found = tuple(_seat(r) for r in rows)
            if found:  # no seats may mean no game at all: nothing kept for it
                self._cache.keep(game_id).seats = found
        return list(found)

    async def set_dms_ok(self, game_id: int, user_id: int, ok: bool) -> None:
        async with self._tx() as db:
            self._cache.drop_seats(game_id)
            await db.execute(update(seats).where(seats.c.game_id == game_id,
                                                 seats.c.user_id == user_id)
                             .values(dms_ok=int(ok)))

    async def set_ai_standin(self, game_id: int, seat: str, on: bool) -> None:
        async with self._tx() as db:
            self._cache.drop_seats(game_id)
            await db.execute(update(seats).where(seats.c.game_id == game_id,
                                                 seats.c.seat == seat,
                                                 seats.c.user_id.isnot(None))
                             .values(ai_standin=int(on)))

    async def clear_ai_standins(self, user_id: int, game_id: int | None = None) -> list[int]:
        where = [seats.c.user_id == user_id, seats.c.ai_standin == 1]
        if game_id is not None:
            where.append(seats.c.game_id == game_id)
            kept = self._cache.peek(game_id)
            if kept is not None and kept.seats is not None and not any(
                    s.user_id == user_id and s.ai_standin for s in kept.seats):
                return []  # the usual case, on every move: no stand-in to end
        # Looked up first, so that finding none (most often) writes nothing.
        async with self._read() as db:
            if (await db.execute(select(seats.c.game_id).where(*where).limit(1))).first() is None:
                return []
        async with self._tx() as db:
            self._cache.drop_seats(game_id)
            rows = (await db.execute(select(seats.c.game_id).where(*where))).all()
            await db.execute(update(seats).where(*where).values(ai_standin=0))
        return sorted({int(r[0]) for r in rows})

    async def replace_seat(self, game_id: int, seat: str, new_user: int, now: float) -> None:
        async with self._tx() as db:
            self._cache.drop_seats(game_id)
            self._cache.drop_spectators(game_id)
            try:
                res = await db.execute(
                    update(seats).where(seats.c.game_id == game_id, seats.c.seat == seat)
                    .values(user_id=new_user, dms_ok=0, ai_standin=0, joined_at=now))
            except IntegrityError as exc:
                raise DuplicateSeat(f"user {new_user} is already seated in {game_id}") from exc
            if res.rowcount == 0:
                raise StorageError(f"game {game_id} has no seat {seat}")
            await db.execute(delete(replace_votes).where(replace_votes.c.game_id == game_id,
                                                         replace_votes.c.seat == seat))
            await db.execute(delete(spectators).where(spectators.c.game_id == game_id,
                                                      spectators.c.user_id == new_user))

    async def find_game_by_rematch(self, game_id: int) -> GameRecord | None:
        async with self._read() as db:
            row = (await db.execute(select(*_GAME_COLS)
                                    .where(games.c.rematch_of == game_id))).first()
        return _game(row) if row is not None else None

    # ---- replacement votes --------------------------------------------------------------
    async def vote_replace(self, game_id: int, seat: str, new_user: int, voter: int,
                           now: float) -> None:
        async with self._tx() as db:
            await db.execute(self._upsert(
                replace_votes, ("game_id", "seat", "voter"),
                {"game_id": game_id, "seat": seat, "new_user": new_user, "voter": voter,
                 "at": now}, ("new_user", "at")))

    async def replace_votes(self, game_id: int, seat: str) -> dict[int, int]:
        async with self._read() as db:
            rows = (await db.execute(
                select(replace_votes.c.voter, replace_votes.c.new_user)
                .where(replace_votes.c.game_id == game_id, replace_votes.c.seat == seat))).all()
        return {int(r[0]): int(r[1]) for r in rows}

    # ---- spectators ---------------------------------------------------------------------
    async def add_spectator(self, game_id: int, user_id: int, now: float) -> bool:
        async with self._tx() as db:
            self._cache.drop_spectators(game_id)
            res = await db.execute(self._insert_ignore(spectators).values(
                game_id=game_id, user_id=user_id, since=now))
            return res.rowcount > 0

    async def remove_spectator(self, game_id: int, user_id: int) -> bool:
        async with self._tx() as db:
            self._cache.drop_spectators(game_id)
            res = await db.execute(delete(spectators).where(spectators.c.game_id == game_id,
                                                            spectators.c.user_id == user_id))
            return res.rowcount > 0

    async def spectators(self, game_id: int) -> list[int]:
        kept = self._cache.peek(game_id)
        if kept is not None and kept.spectators is not None:
            return list(kept.spectators)
        async with self._read() as db:
            rows = (await db.execute(select(spectators.c.user_id)
                                     .where(spectators.c.game_id == game_id)
                                     .order_by(spectators.c.since, spectators.c.user_id))).all()
            found = tuple(int(r[0]) for r in rows)
            self._cache.keep(game_id).spectators = found
        return list(found)

    # ---- voice links and mutes (P-DISCORD-05) ---------------------------------------------
    async def link_voice(self, link: VoiceLink) -> None:
        async with self._tx() as db:
            await db.execute(self._upsert(voice_links, ("game_id",), link.model_dump(),
                                          ["guild_id", "channel_id", "linked_by", "linked_at"]))

    async def unlink_voice(self, game_id: int) -> bool:
        async with self._tx() as db:
            res = await db.execute(delete(voice_links).where(voice_links.c.game_id == game_id))
            return res.rowcount > 0

    async def voice_links(self) -> list[VoiceLink]:
        query = select(voice_links.c.game_id, voice_links.c.guild_id, voice_links.c.channel_id,
                       voice_links.c.linked_by, voice_links.c.linked_at)
        async with self._read() as db:
            rows = (await db.execute(query.order_by(voice_links.c.game_id))).all()
        return [VoiceLink(game_id=int(r[0]), guild_id=int(r[1]), channel_id=int(r[2]),
                          linked_by=int(r[3]), linked_at=float(r[4])) for r in rows]

    async def add_voice_mute(self, mute: VoiceMute) -> None:
        row = mute.model_dump()
        async with self._tx() as db:
            await db.execute(self._upsert(voice_mutes, ("guild_id", "user_id"), row,
                                          ["game_id", "channel_id", "muted_at"]))

    async def drop_voice_mute(self, guild_id: int, user_id: int) -> bool:
        async with self._tx() as db:
            res = await db.execute(delete(voice_mutes).where(
                voice_mutes.c.guild_id == guild_id, voice_mutes.c.user_id == user_id))
            return res.rowcount > 0

    async def voice_mutes(self, *, guild_id: int | None = None,
                          game_id: int | None = None) -> list[VoiceMute]:
        query = select(voice_mutes.c.guild_id, voice_mutes.c.user_id, voice_mutes.c.game_id,
                       voice_mutes.c.channel_id, voice_mutes.c.muted_at)
        if guild_id is not None:
            query = query.where(voice_mutes.c.guild_id == guild_id)
        if game_id is not None:
            query = query.where(voice_mutes.c.game_id == game_id)
        async with self._read() as db:
            rows = (await db.execute(query.order_by(voice_mutes.c.guild_id,
                                                    voice_mutes.c.user_id))).all()
        return [VoiceMute(guild_id=int(r[0]), user_id=int(r[1]), game_id=int(r[2]),
                          channel_id=int(r[3]), muted_at=float(r[4])) for r in rows]

    # ---- players ------------------------------------------------------------------------
    async def veterans(self, user_ids: Iterable[int], game: str) -> set[int]:
        wanted = sorted(set(user_ids))
        if not wanted:
            return set()
        # A few seats per user (the `seats_user` index), each joined to its game by key: no
        # scan of the games table however many games the bot has kept.
        query = (select(seats.c.user_id).distinct()
                 .select_from(seats.join(games, games.c.id == seats.c.game_id))
                 .where(seats.c.user_id.in_(wanted), games.c.game == game,
                        games.c.status == "over"))
        async with self._read() as db:
            rows = (await db.execute(query)).all()
        return {int(r[0]) for r in rows}

    async def prefs(self, user_ids: Iterable[int]) -> dict[int, PlayerPrefs]:
        wanted = sorted(set(user_ids))
        if not wanted:
            return {}
        held = {u: p for u in wanted if (p := self._cache.prefs(u)) is not None}
        missing = [u for u in wanted if u not in held]
        if missing:
            async with self._read() as db:
                rows = (await db.execute(select(*_PREF_COLS)
                                         .where(players.c.user_id.in_(missing)))).all()
                found = {p.user_id: p for p in map(_prefs, rows)}
                for u in missing:
                    held[u] = found.get(u) or PlayerPrefs(user_id=u)
                    self._cache.keep_prefs(held[u])
        return {u: held[u] for u in wanted}

    async def set_prefs(self, prefs: PlayerPrefs, now: float) -> None:
        away = {"uid": prefs.user_id, "now": now}
        values = {"user_id": prefs.user_id, "away": int(prefs.away),
                  "quiet_start": prefs.quiet_start, "quiet_end": prefs.quiet_end,
                  "tz_minutes": prefs.tz_minutes, "notify_near": int(prefs.notify_near),
                  "tz_name": prefs.tz_name, "stats_hidden": int(prefs.stats_hidden),
                  "updated_at": now}
        async with self._tx() as db:
            self._cache.drop_prefs(prefs.user_id)
            await db.execute(self._upsert(players, ("user_id",), values,
                                          [k for k in values if k != "user_id"]))
            # The away period opens or closes with the flag (a no-op when it did not change).
            await db.execute(self._went_away() if prefs.away else _CAME_BACK, away)
        self._cache.keep_prefs(prefs)

    def _went_away(self) -> Any:
        """Open an away period now, unless one is open. Away, back and away again within the
        same second reopens the period that began then (the key is the user and its start)."""
        still_away = (select(away_periods.c.user_id)
                      .where(away_periods.c.user_id == bindparam("uid"),
                             away_periods.c.ended.is_(None)).exists())
        ins = self._insert(away_periods).from_select(
            ["user_id", "began", "ended"],
            select(bindparam("uid", type_=Integer), bindparam("now", type_=REAL),
                   null()).where(~still_away))
        return ins.on_conflict_do_update(index_elements=["user_id", "began"],
                                         set_={"ended": None})

    # ---- whole games --------------------------------------------------------------------
    async def export_game(self, game_id: int) -> StoredGame:
        rec = await self.get_game(game_id)
        if rec is None:
            raise GameNotFound(game_id)
        async with self._read() as db:
            shots = [_snapshot(r) for r in (await db.execute(
                select(*_SNAPSHOT_COLS).where(snapshots.c.game_id == game_id)
                .order_by(snapshots.c.step))).all()]
        return StoredGame(game=rec, seats=await self.seats(game_id),
                          actions=await self.actions(game_id), snapshots=shots)

    async def import_game(self, stored: StoredGame) -> GameRecord:
        g = stored.game
        async with self._tx() as db:
            self._cache.drop_thread(g.thread_id)
            res = await db.execute(insert(games).values(
                guild_id=g.guild_id, channel_id=g.channel_id, thread_id=g.thread_id,
                game=g.game, options=json.dumps(g.options, sort_keys=True), status=g.status,
                state=g.state_json, version=g.version, seed=g.seed, created_by=g.created_by,
                engine_version=g.engine_version, settings=g.settings.model_dump_json(),
                board_message_id=g.board_message_id, created_at=g.created_at,
                updated_at=g.updated_at, next_reminder_at=g.next_reminder_at,
                reminder_stage=g.reminder_stage, awaited_since=g.awaited_since,
                epoch=g.epoch, rematch_of=None))
            game_id = _new_id(res.inserted_primary_key)
            if stored.seats:
                await db.execute(insert(seats), [
                    {"game_id": game_id, "seat": s.seat, "user_id": s.user_id,
                     "position": s.position, "joined_at": s.joined_at, "dms_ok": int(s.dms_ok),
                     "role_pref": s.role_pref, "ai_standin": int(s.ai_standin)}
                    for s in stored.seats])
            if stored.actions:
                await db.execute(insert(actions), [
                    {"game_id": game_id, "seq": a.seq, "seat": a.seat, "user_id": a.user_id,
                     "action": a.action_json, "at": a.at} for a in stored.actions])
            if stored.snapshots:
                await db.execute(insert(snapshots), [
                    {"game_id": game_id, "step": p.step, "moves": p.moves,
                     "engine_version": p.engine_version, "state": _packed(p.state_json),
                     "log": _packed(p.log_json), "digest": p.digest, "at": p.at}
                    for p in stored.snapshots])
            rec = await self._one_game(db, game_id)
        self._cache.drop(game_id)
        return self._cache.record(rec)

    # ---- play ---------------------------------------------------------------------------
    async def start_game(
        self, game_id: int, state_json: str, seed: int, *, seat_ids: Sequence[str], now: float,
        next_reminder_at: float | None, expected_version: int = 0,
    ) -> GameRecord:
        async with self._tx() as db:
            self._cache.drop(game_id)
            rec = await self._one_game(db, game_id)
            if rec.status != "lobby" or rec.version != expected_version:
                raise VersionConflict(game_id, expected_version, rec.version)
            positions = [int(p) for p in (await db.execute(
                select(seats.c.position).where(seats.c.game_id == game_id)
                .order_by(seats.c.position))).scalars()]
            if len(positions) != len(seat_ids):
                raise StorageError(
                    f"game {game_id}: {len(positions)} seats but {len(seat_ids)} seat ids")
            rename = (update(seats).where(seats.c.game_id == game_id,
                                          seats.c.position == bindparam("pos"))
                      .values(seat=bindparam("new_seat")))
            # Two passes so renaming never collides with UNIQUE(game_id, seat): executemany.
            await db.execute(rename, [{"pos": pos, "new_seat": f"~{pos}"} for pos in positions])
            await db.execute(rename, [{"pos": pos, "new_seat": seat}
                                      for pos, seat in zip(positions, seat_ids, strict=True)])
            rec = await self._write_game(
                db, game_id, expected_version, status="active", state=state_json, seed=seed,
                version=expected_version, updated_at=now, next_reminder_at=next_reminder_at,
                reminder_stage=0, awaited_since=now, started_at=now)
        return self._cache.record(rec)

    async def append_action(
        self, game_id: int, expected_version: int, seat: str, user_id: int | None,
        action_json: str, new_state_json: str, status: Status,
        next_reminder_at: float | None, reminder_stage: int, *,
        awaited_since: float | None = None, now: float, pending_token: str | None = None,
        result: GameResult | None = None,
    ) -> GameRecord:
        seq = expected_version + 1
        params = {"new_state": new_state_json, "new_version": seq, "new_status": status,
                  "now": now, "reminder_at": next_reminder_at, "stage": reminder_stage,
                  "since": awaited_since, "gid": game_id, "expected": expected_version}
        # The record as the move leaves it, when the storage holds it at the version the move
        # was made at: then the state write needs to hand nothing back.
        held: GameRecord | None = None

        def drop() -> None:
            nonlocal held
            held = self._cache.drop_record(game_id)
            if held is not None and held.version != expected_version:
                held = None

        def write(run: Run) -> Any:
            # One transaction, the fewest statements: the state written with its version
            # check, the action appended, the pending move marked.
            if held is not None:
                if run(_WRITE_MOVE_ONLY, params).rowcount != 1:
                    raise _refused_now(run, game_id, expected_version)
                row = None
            else:
                row = run(_WRITE_MOVE, params).first()
                if row is None:
                    raise _refused_now(run, game_id, expected_version)
            run(_INSERT_ACTION, {"game_id": game_id, "seq": seq, "seat": seat,
                                 "user_id": user_id, "action": action_json, "at": now})
            if pending_token is not None:
                run(_MARK_PENDING, {"seq": seq, "gid": game_id, "tok": pending_token})
            if result is not None:
                memory.record(run, result, self.dialect)
            return row

        row = await self._write(write, before=drop)
        if held is None:
            return self._cache.record(_game(row))
        return self._cache.record(held.model_copy(update={
            "state_json": new_state_json, "version": seq, "status": status, "updated_at": now,
            "next_reminder_at": next_reminder_at, "reminder_stage": reminder_stage,
            "awaited_since": awaited_since}))

    async def rewind(
        self, game_id: int, expected_version: int, keep_seq: int, state_json: str, *,
        status: Status, next_reminder_at: float | None, reminder_stage: int,
        awaited_since: float | None, now: float,
    ) -> GameRecord:
        if not 0 <= keep_seq <= expected_version:
            raise ValueError(f"cannot rewind version {expected_version} to {keep_seq}")
        async with self._tx() as db:
            self._cache.drop_record(game_id)
            rec = await self._write_game(
                db, game_id, expected_version, state=state_json, version=keep_seq,
                status=status, updated_at=now, next_reminder_at=next_reminder_at,
                reminder_stage=reminder_stage, awaited_since=awaited_since,
                epoch=games.c.epoch + 1)
            await db.execute(delete(actions).where(actions.c.game_id == game_id,
                                                   actions.c.seq > keep_seq))
            # A snapshot past the kept log stands for moves taken back.
            await db.execute(delete(snapshots).where(snapshots.c.game_id == game_id,
                                                     snapshots.c.step > keep_seq))
        return self._cache.record(rec)

    async def rewrite_state(
        self, game_id: int, expected_version: int, state_json: str, engine_version: str,
        now: float,
    ) -> GameRecord:
        async with self._tx() as db:
            self._cache.drop_record(game_id)
            rec = await self._write_game(db, game_id, expected_version, state=state_json,
                                         engine_version=engine_version, updated_at=now)
        return self._cache.record(rec)

    async def actions(
        self, game_id: int, after_seq: int = 0, upto_seq: int | None = None,
    ) -> list[ActionRecord]:
        query = select(*_ACTION_COLS).where(actions.c.game_id == game_id,
                                            actions.c.seq > after_seq)
        if upto_seq is not None:
            query = query.where(actions.c.seq <= upto_seq)
        async with self._read() as db:
            rows = (await db.execute(query.order_by(actions.c.seq))).all()
        return [_action(r) for r in rows]

    # ---- the memory of finished games ------------------------------------------------------
    async def move_log(self, game_id: int) -> MoveLog:
        async with self._read() as db:
            rows = (await db.execute(_MOVE_LOG, {"gid": game_id})).all()
        dealt: float | None = None
        moves: list[tuple[str, int | None, float]] = []
        away: dict[int, list[memory.AwayPeriod]] = {}
        for kind, _, started, seat, user_id, at, ended in rows:
            if kind == 0:
                dealt = None if started is None else float(started)
                if seat is not None:
                    moves.append((seat, user_id, float(at)))
            else:
                away.setdefault(int(user_id), []).append(
                    (float(at), None if ended is None else float(ended)))
        return MoveLog(dealt=dealt, moves=moves, away=away)

    async def game_result(self, game_id: int) -> GameResult | None:
        async with self._read() as db:
            return await memory.game_result(db, game_id)

    async def history(self, guild_id: int, *, user_id: int | None = None,
                      game: str | None = None, page: int = 0,
                      per_page: int = memory.HISTORY_PAGE) -> HistoryPage:
        async with self._read() as db:
            return await memory.history(db, guild_id, user_id=user_id, game=game, page=page,
                                        per_page=per_page)

    async def player_stats(self, guild_id: int, user_id: int,
                           show_ratings: bool = True) -> PlayerStats:
        async with self._read() as db:
            return await memory.player_stats(db, guild_id, user_id, show_ratings)

    async def server_stats(self, guild_id: int) -> ServerStats:
        async with self._read() as db:
            return await memory.server_stats(db, guild_id)

    async def table_ratings(self, user_ids: Iterable[int], game: str) -> dict[int, Rating]:
        async with self._read() as db:
            return await memory.table_ratings(db, list(user_ids), game)

    async def rating_line(self, user_id: int, game: str) -> list[tuple[float, Rating]]:
        async with self._read() as db:
            return await memory.rating_line(db, user_id, game)

    async def ratings_on(self, guild_id: int) -> bool:
        async with self._read() as db:
            return await memory.ratings_on(db, guild_id)

    async def set_ratings_on(self, guild_id: int, on: bool, now: float) -> None:
        async with self._tx() as db:
            await db.execute(self._upsert(servers, ("guild_id",),
                                          {"guild_id": guild_id, "ratings": int(on),
                                           "updated_at": now}, ["ratings", "updated_at"]))

    # ---- snapshots ----------------------------------------------------------------------
    async def snapshot_marks(self, game_id: int, upto_step: int | None = None
                             ) -> list[SnapshotMark]:
        query = select(snapshots.c.step, snapshots.c.moves, snapshots.c.engine_version,
                       snapshots.c.digest).where(snapshots.c.game_id == game_id)
        if upto_step is not None:
            query = query.where(snapshots.c.step <= upto_step)
        async with self._read() as db:
            rows = (await db.execute(query.order_by(snapshots.c.step))).all()
        return [SnapshotMark(step=r[0], moves=r[1], engine_version=r[2], digest=r[3])
                for r in rows]

    async def snapshot_state(self, game_id: int, step: int) -> str | None:
        async with self._read() as db:
            row = (await db.execute(select(snapshots.c.state).where(
                snapshots.c.game_id == game_id, snapshots.c.step == step))).first()
        return None if row is None else _unpacked(row[0])

    async def snapshot_logs(self, game_id: int, steps: Iterable[int]) -> dict[int, str]:
        wanted = sorted(set(steps))
        if not wanted:
            return {}
        async with self._read() as db:
            rows = (await db.execute(select(snapshots.c.step, snapshots.c.log).where(
                snapshots.c.game_id == game_id, snapshots.c.step.in_(wanted)))).all()
        return {int(r[0]): _unpacked(r[1]) for r in rows}

    async def put_snapshots(self, game_id: int, epoch: int,
                            records: Sequence[SnapshotRecord]) -> int:
        if not records:
            return 0
        async with self._tx() as db:
            row = (await db.execute(select(games.c.epoch, games.c.version).where(
                games.c.id == game_id))).first()
            if row is None or int(row[0]) != epoch:
                return 0
            fit = [p for p in records if p.step <= int(row[1])]
            for p in fit:
                await db.execute(self._upsert(
                    snapshots, ("game_id", "step"),
                    {"game_id": game_id, "step": p.step, "moves": p.moves,
                     "engine_version": p.engine_version, "state": _packed(p.state_json),
                     "log": _packed(p.log_json), "digest": p.digest, "at": p.at},
                    ("moves", "engine_version", "state", "log", "digest", "at")))
        return len(fit)

    # ---- moves in flight ------------------------------------------------------------------
    async def add_pending_move(self, move: PendingMove, *, forget: Iterable[str] = (),
                               expired_before: float | None = None) -> None:
        # One DELETE (per answered token; with none, for the expired rows alone).
        gone = [{"tok": t, "before": expired_before} for t in sorted(set(forget))] or (
            [{"tok": None, "before": expired_before}] if expired_before is not None else [])
        row = move.model_dump()

        def write(run: Run) -> None:
            run(_FORGET_PENDING, gone)
            run(_INSERT_PENDING, row)

        await self._write(write)

    async def pending_moves(self, shards: ShardSet | None = None) -> list[PendingMove]:
        run, where = _shard_filter(shards, pending_moves.c.guild_id)
        if not run:
            return []
        async with self._read() as db:
            rows = (await db.execute(select(*_PENDING_COLS).where(*where).order_by(
                pending_moves.c.created_at, pending_moves.c.token))).all()
        return [_pending(r) for r in rows]

    async def forget_pending_moves(self, tokens: Iterable[str], *,
                                   unstored_only: bool = False) -> None:
        gone = sorted(set(tokens))
        if not gone:
            return
        query = delete(pending_moves).where(pending_moves.c.token.in_(gone))
        if unstored_only:
            query = query.where(pending_moves.c.stored_seq.is_(None))
        async with self._tx() as db:
            await db.execute(query)

    # ---- reminders ----------------------------------------------------------------------
    async def due_reminders(self, now: float, limit: int = 100,
                            shards: ShardSet | None = None) -> list[GameRecord]:
        # Filtered in SQL, not after the LIMIT: another shard's backlog must not crowd this
        # shard's due games out of the batch.
        run, where = _shard_filter(shards)
        if not run:
            return []
        query = (select(*_GAME_COLS)
                 .where(games.c.status == "active", games.c.next_reminder_at.isnot(None),
                        games.c.next_reminder_at <= now, *where)
                 .order_by(games.c.next_reminder_at, games.c.id).limit(limit))
        async with self._read() as db:
            rows = (await db.execute(query)).all()
        return [_game(r) for r in rows]

    async def set_reminder(
        self, game_id: int, at: float | None, stage: int, *,
        expected_version: int | None = None, expected_stage: int | None = None,
    ) -> bool:
        query = update(games).where(games.c.id == game_id)
        if expected_version is not None:
            query = query.where(games.c.version == expected_version)
        if expected_stage is not None:
            query = query.where(games.c.reminder_stage == expected_stage)
        async with self._tx() as db:
            held = self._cache.drop_record(game_id)
            res = await db.execute(query.values(next_reminder_at=at, reminder_stage=stage))
            changed = res.rowcount > 0
        if held is not None:
            self._cache.record(held.model_copy(update={"next_reminder_at": at,
                                                       "reminder_stage": stage})
                               if changed else held)
        return changed

    # ---- lists across games (issue #24) ---------------------------------------------------
    async def player_games(self, user_id: int,
                           statuses: Iterable[Status] = LIVE) -> list[GameListing]:
        wanted = list(statuses)
        if not wanted:
            return []
        query = (select(*_LISTING_COLS)
                 .select_from(seats.join(games, games.c.id == seats.c.game_id))
                 .where(seats.c.user_id == user_id, games.c.status.in_(wanted))
                 .order_by(games.c.id))
        return await self._listings(query)

    async def finished_games(self, guild_id: int, limit: int = 25,
                             id_prefix: str = "") -> list[GameListing]:
        query = (select(*_LISTING_COLS)
                 .where(games.c.guild_id == guild_id,
                        games.c.status.in_(("over", "abandoned"))))
        if id_prefix:
            if not id_prefix.isascii() or not id_prefix.isdigit():
                return []
            # Compared as text: "12" finds #12, #120, #1234 (the `games_guild_status` index
            # narrows to the guild's finished games first).
            query = query.where(sql_cast(games.c.id, Text()).like(f"{id_prefix}%"))
        return await self._listings(query.order_by(games.c.id.desc()).limit(max(0, limit)))

    async def _listings(self, query: Any) -> list[GameListing]:
        async with self._read() as db:
            rows = (await db.execute(query)).all()
            ids = [int(r[0]) for r in rows]
            seated: dict[int, dict[str, int | None]] = {gid: {} for gid in ids}
            for start in range(0, len(ids), 500):  # bound the IN list's parameters
                part = ids[start:start + 500]
                for gid, seat, user in (await db.execute(
                        select(seats.c.game_id, seats.c.seat, seats.c.user_id)
                        .where(seats.c.game_id.in_(part))
                        .order_by(seats.c.game_id, seats.c.position))).all():
                    seated[int(gid)][str(seat)] = user
        return [GameListing(
            id=r[0], guild_id=r[1], channel_id=r[2], thread_id=r[3], game=r[4],
            options=json.loads(r[5]), status=r[6], version=r[7],
            settings=GameSettings.model_validate_json(r[8]), created_at=r[9], updated_at=r[10],
            awaited_since=r[11], board_version=r[12], board_post=r[13],
            seats=seated[int(r[0])]) for r in rows]


# ---- SQLite ----------------------------------------------------------------------------------
def _sqlite_url(path: str) -> str:
    if path.startswith("file:"):
        return f"sqlite+aiosqlite:///{path}?uri=true"
    return f"sqlite+aiosqlite:///{path}"


class SqliteStorage(SqlStorage):
    """Storage on one SQLite file (aiosqlite driver: nothing to install), one connection.

    Every connection is set up as: WAL journal, `synchronous = NORMAL`, foreign keys on, a
    busy timeout. Durability: a committed write is in the WAL file (the OS holds it) before
    the call returns, so a move the player was told about survives a crash of the bot's
    process (SIGKILL included: tests/proof/test_crash.py); a power cut or an OS crash may
    lose the last moments of moves (never the database's consistency), as WAL with NORMAL
    syncs only at checkpoints. `synchronous="FULL"` gives power-cut durability at an fsync
    per commit. The driver is in autocommit mode and every write is an explicit
    `BEGIN IMMEDIATE … COMMIT`. Operations are serialised by an asyncio lock so that two
    coroutines' statements never interleave inside one transaction (and a reader never sees
    another coroutine's uncommitted writes). Per-game concurrency is the table service's job.

    `keep_reads`: this storage is the database's only writer (the bot's own, one process),
    so what it read and wrote is kept between moves (`ReadCache`). Leave it off for a
    storage that only watches a database another process writes.
    """

    def __init__(
        self, path: str | Path, *, migrations: str | Path = SCRIPTS,
        schema_target: int | None = None, busy_timeout_ms: int = 5000,
        keep_reads: bool = False, synchronous: Literal["NORMAL", "FULL"] = "NORMAL",
    ) -> None:
        super().__init__(migrations=migrations, schema_target=schema_target,
                         keep_reads=keep_reads)
        self.path = str(path)
        self._busy_timeout_ms = busy_timeout_ms
        self._synchronous = synchronous
        self._engine: CoreEngine | None = None
        self._db: CoreConnection | None = None
        self._lock = asyncio.Lock()

    @property
    def dialect(self) -> Literal["sqlite"]:
        return "sqlite"

    def _where(self) -> dict[str, Any] | None:
        if self.path == ":memory:" or self.path.startswith("file:"):
            return None  # private to this process (or a URI only it may share)
        return {"dialect": "sqlite", "path": self.path,
                "busy_timeout_ms": self._busy_timeout_ms}

    # ---- connection ---------------------------------------------------------------------
    async def open(self) -> None:
        if self._db is not None:
            return
        if self.path != ":memory:" and not self.path.startswith("file:"):
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        path = self.path
        engine = CoreEngine.create(_sqlite_url(path),
                                   async_creator=lambda: sqlitedriver.connect(path))
        busy_timeout = int(self._busy_timeout_ms)
        synchronous = "FULL" if self._synchronous == "FULL" else "NORMAL"

        @event.listens_for(engine.sync_engine, "connect")
        def _setup(dbapi_connection: Any, _record: Any) -> None:
            # The driver is in autocommit (sqlitedriver.connect): the storage writes BEGIN
            # IMMEDIATE itself, SQLAlchemy's recipe for SQLite transactions.
            cursor = dbapi_connection.cursor()
            for pragma in (f"busy_timeout = {busy_timeout}", "journal_mode = WAL",
                           f"synchronous = {synchronous}", "foreign_keys = ON"):
                # Processes opening a new file together: SQLite refuses the switch to WAL
                # at once ("database is locked", no busy wait) while another makes it.
                for attempt in range(max(1, busy_timeout // 20)):
                    try:
                        cursor.execute(f"PRAGMA {pragma}")
                        break
                    except sqlite3.OperationalError as exc:
                        if "locked" not in str(exc) or attempt == busy_timeout // 20 - 1:
                            raise
                        time.sleep(0.02)  # only while opening, and only in that race
            cursor.close()

        try:
            self._engine = engine
            self._db = await engine.connect()
            await self._migrate()
        except BaseException:
            await self.close()
            raise

    async def close(self) -> None:
        async with self._lock:
            db, self._db = self._db, None
            engine, self._engine = self._engine, None
            if db is not None:
                await db.close()
            if engine is not None:
                await engine.dispose()

    @property
    def db(self) -> CoreConnection:
        """The one connection (for a PRAGMA or a test's raw SQL)."""
        if self._db is None:
            raise StorageError("storage is not open; call open() first")
        return self._db

    async def _driver(self) -> sqlitedriver.OneTripConnection:
        db = self.db
        sync = db.sync_connection
        if sync is not None and not sync.invalidated:  # the usual case: no await needed
            driver = sync.connection.driver_connection
        else:  # reconnect after a dropped connection
            driver = (await db.get_raw_connection()).driver_connection
        assert isinstance(driver, sqlitedriver.OneTripConnection)
        return driver

    async def _write(self, body: Callable[[Run], T],
                     before: Callable[[], object] | None = None) -> T:
        """The whole transaction (BEGIN IMMEDIATE, `body`'s statements, COMMIT) in one trip to
        the SQLite thread, on the sqlite3 connection itself. Cancelled while it runs, it still
        ends there whole, committed or rolled back, before anything queued after it."""
        async with self._lock:
            if before is not None:
                before()
            driver = await self._driver()

            def on_thread() -> T:
                conn = driver.sqlite
                if conn.in_transaction:  # left open by an operation cancelled mid-way
                    conn.rollback()
                conn.execute("BEGIN IMMEDIATE")
                try:
                    out = body(lambda stmt, params: _run_on_sqlite(conn, stmt, params))
                    conn.commit()
                except BaseException:
                    if conn.in_transaction:
                        conn.rollback()
                    raise
                return out

            result: T = await driver._execute(on_thread)
            return result

    async def _write_one(self, stmt: Executable, params: dict[str, Any],
                         before: Callable[[], object] | None = None) -> Ran:
        """One statement in SQLite's autocommit: its own transaction, no BEGIN or COMMIT to
        send (one trip, one statement)."""
        async with self._lock:
            if before is not None:
                before()
            driver = await self._driver()

            def on_thread() -> Ran:
                conn = driver.sqlite
                if conn.in_transaction:  # left open by an operation cancelled mid-way
                    conn.rollback()
                return _run_on_sqlite(conn, stmt, params)

            ran: Ran = await driver._execute(on_thread)
            return ran

    @asynccontextmanager
    async def _tx(self) -> AsyncIterator[CoreConnection]:
        """One write transaction; rolled back on any exception (including cancellation)."""
        async with self._lock:
            db = self.db
            # Transaction control goes straight to the driver (it is in autocommit, and
            # SQLAlchemy's own begin/commit on SQLite only pass through to it): one call to
            # the SQLite thread each.
            driver = await self._driver()
            try:
                await driver.begin_immediate()
                yield db
                await driver.commit()
            except BaseException:
                if db.invalidated:
                    # A cancellation mid-statement made SQLAlchemy drop the connection
                    # (closing it rolls back); it opens a fresh one on the next use.
                    await db.rollback()
                else:
                    await driver.rollback_if_open()
                raise

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[CoreConnection]:
        async with self._lock:
            db = self.db
            try:
                yield db
            except BaseException:
                if db.invalidated:
                    await db.rollback()
                raise
