"""Persistence: games, seats and the append-only action log (DESIGN.md, "Storage").

`Storage` is the narrow async interface the table service uses; `SqliteStorage` implements it
on aiosqlite (WAL, foreign keys, busy timeout). A PostgreSQL backend implements the same
interface later, so nothing outside this module sees SQL.

Every write that changes a game's state is one transaction that first checks the version the
caller read (optimistic concurrency): `append_action` inserts the action at `seq = version+1`,
writes the new state and bumps the version; `rewind` truncates the log and writes the replayed
state. A crash at any point leaves the game at the last whole action.

Times are epoch seconds (float) passed in by the caller, so tests drive a fake clock.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
import time
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from types import TracebackType
from typing import Any, Literal, Self, cast

import aiosqlite
from pydantic import BaseModel, ConfigDict, Field, field_validator

from bot import quiet
from bot.migrations import MIGRATIONS, Migration

log = logging.getLogger(__name__)

Status = Literal["lobby", "active", "over", "abandoned"]
STATUSES: tuple[Status, ...] = ("lobby", "active", "over", "abandoned")
LIVE: tuple[Status, ...] = ("lobby", "active")
MAX_SEED = (1 << 63) - 1
"""Seeds are stored as signed 64-bit integers."""


# ---- errors --------------------------------------------------------------------------------
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
    """One whole game as storage holds it (a games row, its seats and its action log): the
    export format of `export_game` / `import_game` and of the stored-game test fixtures."""

    game: GameRecord
    seats: list[SeatRecord]
    actions: list[ActionRecord]


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
    async def set_status(self, game_id: int, status: Status, now: float) -> GameRecord:
        """Leaving `active` clears the reminder."""

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

    # players
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
    ) -> GameRecord:
        """One transaction: check the version, insert the action at seq = version+1, write the
        state, bump the version, set status, reminder and updated_at, and mark the pending
        move of `pending_token` (if any) as stored at that seq. Raises VersionConflict."""

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


# ---- SQLite ----------------------------------------------------------------------------------
_GAME_COLS = (
    "id, guild_id, channel_id, thread_id, game, options, status, state, version, seed, "
    "created_by, engine_version, settings, board_message_id, created_at, updated_at, "
    "next_reminder_at, reminder_stage, awaited_since, epoch, rematch_of"
)
_SEAT_COLS = "game_id, seat, user_id, position, joined_at, dms_ok, role_pref, ai_standin"
_PREF_COLS = "user_id, away, quiet_start, quiet_end, tz_minutes, notify_near, tz_name"
_ACTION_COLS = "game_id, seq, seat, user_id, action, at"
_PENDING_COLS = ("token, interaction_id, guild_id, channel_id, game_id, user_id, what, answer, "
                 "created_at, stored_seq")


def _shard_filter(shards: ShardSet | None) -> tuple[str | None, list[Any]]:
    """A WHERE clause tail keeping the guilds of `shards` (None: nothing to run).

    `>>` and `%` on 64-bit integers mean the same in SQLite and PostgreSQL (guild ids are
    positive and below 2**63).
    """
    if shards is None or shards.owns_all:
        return "", []
    if not shards.ids:
        return None, []
    where = (f" AND ((guild_id >> {SHARD_SHIFT}) % ?) IN"
             f" ({', '.join('?' for _ in shards.ids)})")
    return where, [shards.count, *shards.ids]


def _game(row: sqlite3.Row | tuple[Any, ...]) -> GameRecord:
    return GameRecord(
        id=row[0], guild_id=row[1], channel_id=row[2], thread_id=row[3], game=row[4],
        options=json.loads(row[5]), status=row[6], state_json=row[7], version=row[8],
        seed=row[9], created_by=row[10], engine_version=row[11],
        settings=GameSettings.model_validate_json(row[12]), board_message_id=row[13],
        created_at=row[14], updated_at=row[15], next_reminder_at=row[16],
        reminder_stage=row[17], awaited_since=row[18], epoch=row[19], rematch_of=row[20],
    )


def _seat(row: sqlite3.Row | tuple[Any, ...]) -> SeatRecord:
    return SeatRecord(
        game_id=row[0], seat=row[1], user_id=row[2], position=row[3], joined_at=row[4],
        dms_ok=bool(row[5]), role_pref=row[6], ai_standin=bool(row[7]),
    )


def _prefs(row: sqlite3.Row | tuple[Any, ...]) -> PlayerPrefs:
    return PlayerPrefs(user_id=row[0], away=bool(row[1]), quiet_start=row[2], quiet_end=row[3],
                       tz_minutes=row[4], notify_near=bool(row[5]), tz_name=row[6])


def _pending(row: sqlite3.Row | tuple[Any, ...]) -> PendingMove:
    return PendingMove(
        token=row[0], interaction_id=row[1], guild_id=row[2], channel_id=row[3],
        game_id=row[4], user_id=row[5], what=row[6], answer=row[7], created_at=row[8],
        stored_seq=row[9],
    )


def _action(row: sqlite3.Row | tuple[Any, ...]) -> ActionRecord:
    return ActionRecord(
        game_id=row[0], seq=row[1], seat=row[2], user_id=row[3], action_json=row[4], at=row[5],
    )


class SqliteStorage(Storage):
    """Storage on one aiosqlite connection.

    The connection runs in autocommit mode and every write is an explicit
    `BEGIN IMMEDIATE … COMMIT`. Operations are serialised by an asyncio lock so that two
    coroutines' statements never interleave inside one transaction (and a reader never sees
    another coroutine's uncommitted writes). Per-game concurrency is the table service's job.
    """

    def __init__(
        self, path: str | Path, *, migrations: Sequence[Migration] = MIGRATIONS,
        busy_timeout_ms: int = 5000,
    ) -> None:
        self.path = str(path)
        self._migrations = tuple(migrations)
        self._busy_timeout_ms = busy_timeout_ms
        self._db: aiosqlite.Connection | None = None
        self._lock = asyncio.Lock()

    # ---- connection ---------------------------------------------------------------------
    async def open(self) -> None:
        if self._db is not None:
            return
        if self.path != ":memory:" and not self.path.startswith("file:"):
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        db = await aiosqlite.connect(self.path, isolation_level=None)
        try:
            await db.execute(f"PRAGMA busy_timeout = {int(self._busy_timeout_ms)}")
            await db.execute("PRAGMA journal_mode = WAL")
            await db.execute("PRAGMA synchronous = FULL")
            await db.execute("PRAGMA foreign_keys = ON")
            self._db = db
            await self._migrate()
        except BaseException:
            self._db = None
            await db.close()
            raise

    async def close(self) -> None:
        async with self._lock:
            if self._db is not None:
                db, self._db = self._db, None
                await db.close()

    @property
    def db(self) -> aiosqlite.Connection:
        if self._db is None:
            raise StorageError("storage is not open; call open() first")
        return self._db

    @asynccontextmanager
    async def _tx(self) -> AsyncIterator[aiosqlite.Connection]:
        """One write transaction; rolled back on any exception (including cancellation)."""
        async with self._lock:
            db = self.db
            await db.execute("BEGIN IMMEDIATE")
            try:
                yield db
                await db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:
                    await db.execute("ROLLBACK")
                raise

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self._lock:
            yield self.db

    async def _migrate(self) -> None:
        async with self._tx() as db:
            await db.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations ("
                " number INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL NOT NULL)"
            )
        applied = await self.schema_version()
        for m in sorted(self._migrations, key=lambda m: m.number):
            if m.number <= applied:
                continue
            log.info("applying migration %04d_%s to %s", m.number, m.name, self.path)
            async with self._tx() as db:
                for statement in m.sqlite:
                    await db.execute(statement)
                await db.execute(
                    "INSERT INTO schema_migrations (number, name, applied_at)"
                    " VALUES (?, ?, ?)",
                    (m.number, m.name, time.time()),
                )

    async def schema_version(self) -> int:
        async with self._read() as db:
            rows = list(await db.execute_fetchall(
                "SELECT COALESCE(MAX(number), 0) FROM schema_migrations"))
        return int(rows[0][0])

    # ---- helpers ------------------------------------------------------------------------
    @staticmethod
    async def _one_game(db: aiosqlite.Connection, game_id: int) -> GameRecord:
        rows = list(await db.execute_fetchall(
            f"SELECT {_GAME_COLS} FROM games WHERE id = ?", (game_id,)))
        if not rows:
            raise GameNotFound(game_id)
        return _game(rows[0])

    @staticmethod
    async def _check_version(db: aiosqlite.Connection, game_id: int, expected: int) -> None:
        rows = list(await db.execute_fetchall(
            "SELECT version FROM games WHERE id = ?", (game_id,)))
        if not rows:
            raise GameNotFound(game_id)
        if rows[0][0] != expected:
            raise VersionConflict(game_id, expected, rows[0][0])

    # ---- games --------------------------------------------------------------------------
    async def create_game(
        self, *, guild_id: int, channel_id: int, thread_id: int | None, game: str,
        options: dict[str, Any], created_by: int, engine_version: str, settings: GameSettings,
        now: float, seat_creator: bool = True, rematch_of: int | None = None,
    ) -> GameRecord:
        async with self._tx() as db:
            try:
                cur = await db.execute(
                    "INSERT INTO games (guild_id, channel_id, thread_id, game, options, status,"
                    " version, created_by, engine_version, settings, created_at, updated_at,"
                    " reminder_stage, rematch_of)"
                    " VALUES (?, ?, ?, ?, ?, 'lobby', 0, ?, ?, ?, ?, ?, 0, ?)",
                    (guild_id, channel_id, thread_id, game, json.dumps(options, sort_keys=True),
                     created_by, engine_version, settings.model_dump_json(), now, now,
                     rematch_of),
                )
            except sqlite3.IntegrityError as exc:
                raise DuplicateSeat(f"game {rematch_of} already has a rematch") from exc
            game_id = cur.lastrowid
            assert game_id is not None
            if seat_creator:
                await db.execute(
                    f"INSERT INTO seats ({_SEAT_COLS}) VALUES (?, 's1', ?, 1, ?, 0, NULL, 0)",
                    (game_id, created_by, now),
                )
            return await self._one_game(db, game_id)

    async def get_game(self, game_id: int) -> GameRecord | None:
        async with self._read() as db:
            try:
                return await self._one_game(db, game_id)
            except GameNotFound:
                return None

    async def find_game_by_thread(self, thread_id: int) -> GameRecord | None:
        async with self._read() as db:
            rows = list(await db.execute_fetchall(
                f"SELECT {_GAME_COLS} FROM games WHERE thread_id = ? ORDER BY id DESC LIMIT 1",
                (thread_id,)))
        return _game(rows[0]) if rows else None

    async def list_games(
        self, guild_id: int | None = None, statuses: Iterable[Status] | None = None,
    ) -> list[GameRecord]:
        where: list[str] = []
        params: list[Any] = []
        if guild_id is not None:
            where.append("guild_id = ?")
            params.append(guild_id)
        if statuses is not None:
            wanted = list(statuses)
            if not wanted:
                return []
            where.append(f"status IN ({', '.join('?' for _ in wanted)})")
            params.extend(wanted)
        sql = f"SELECT {_GAME_COLS} FROM games"
        if where:
            sql += " WHERE " + " AND ".join(where)
        async with self._read() as db:
            rows = await db.execute_fetchall(sql + " ORDER BY id", params)
        return [_game(r) for r in rows]

    async def set_status(self, game_id: int, status: Status, now: float) -> GameRecord:
        async with self._tx() as db:
            if status == "active":
                await db.execute(
                    "UPDATE games SET status = ?, updated_at = ? WHERE id = ?",
                    (status, now, game_id))
            else:
                await db.execute(
                    "UPDATE games SET status = ?, updated_at = ?, next_reminder_at = NULL,"
                    " reminder_stage = 0 WHERE id = ?", (status, now, game_id))
            return await self._one_game(db, game_id)

    async def set_creator(self, game_id: int, user_id: int, now: float) -> None:
        async with self._tx() as db:
            await self._one_game(db, game_id)
            await db.execute("UPDATE games SET created_by = ?, updated_at = ? WHERE id = ?",
                             (user_id, now, game_id))

    async def update_settings(
        self, game_id: int, settings: GameSettings, now: float,
    ) -> GameRecord:
        async with self._tx() as db:
            await db.execute("UPDATE games SET settings = ?, updated_at = ? WHERE id = ?",
                             (settings.model_dump_json(), now, game_id))
            return await self._one_game(db, game_id)

    async def set_options(self, game_id: int, options: dict[str, Any], now: float) -> GameRecord:
        async with self._tx() as db:
            await self._one_game(db, game_id)
            await db.execute("UPDATE games SET options = ?, updated_at = ? WHERE id = ?",
                             (json.dumps(options, sort_keys=True), now, game_id))
            return await self._one_game(db, game_id)

    async def set_board_message(self, game_id: int, message_id: int | None,
                                version: int | None = None, post: str | None = None) -> None:
        sets, params = ["board_message_id = ?"], [message_id]
        if version is not None:
            sets.append("board_version = ?")
            params.append(version)
        if post is not None:
            sets.append("board_post = ?")
            params.append(post)  # type: ignore[arg-type]
        async with self._tx() as db:
            await db.execute(f"UPDATE games SET {', '.join(sets)} WHERE id = ?",
                             (*params, game_id))

    async def board_post(self, game_id: int) -> str | None:
        async with self._read() as db:
            rows = list(await db.execute_fetchall(
                "SELECT board_post FROM games WHERE id = ?", (game_id,)))
        return str(rows[0][0]) if rows and rows[0][0] is not None else None

    async def boards_behind(
        self, shards: ShardSet | None = None,
    ) -> list[tuple[GameRecord, int]]:
        sql = (f"SELECT {_GAME_COLS}, board_version FROM games WHERE status = 'active'"
               " AND board_version IS NOT NULL AND board_version < version")
        where, params = _shard_filter(shards)
        if where is None:
            return []
        async with self._read() as db:
            rows = await db.execute_fetchall(sql + where + " ORDER BY id", params)
        return [(_game(r), int(r[-1])) for r in rows]

    # ---- seats --------------------------------------------------------------------------
    async def add_seat(
        self, game_id: int, user_id: int | None, now: float, *, role_pref: str | None = None,
    ) -> SeatRecord:
        async with self._tx() as db:
            await self._one_game(db, game_id)
            rows = list(await db.execute_fetchall(
                "SELECT COALESCE(MAX(position), 0) + 1 FROM seats WHERE game_id = ?",
                (game_id,)))
            position = int(rows[0][0])
            try:
                await db.execute(
                    f"INSERT INTO seats ({_SEAT_COLS}) VALUES (?, ?, ?, ?, ?, 0, ?, 0)",
                    (game_id, f"s{position}", user_id, position, now, role_pref))
            except sqlite3.IntegrityError as exc:
                raise DuplicateSeat(f"user {user_id} is already seated in {game_id}") from exc
            rows = list(await db.execute_fetchall(
                f"SELECT {_SEAT_COLS} FROM seats WHERE game_id = ? AND position = ?",
                (game_id, position)))
            return _seat(rows[0])

    async def remove_seat(self, game_id: int, user_id: int) -> bool:
        async with self._tx() as db:
            cur = await db.execute("DELETE FROM seats WHERE game_id = ? AND user_id = ?",
                                   (game_id, user_id))
            return cur.rowcount > 0

    async def remove_seat_at(self, game_id: int, seat: str) -> bool:
        async with self._tx() as db:
            cur = await db.execute("DELETE FROM seats WHERE game_id = ? AND seat = ?",
                                   (game_id, seat))
            return cur.rowcount > 0

    async def seats(self, game_id: int) -> list[SeatRecord]:
        async with self._read() as db:
            rows = await db.execute_fetchall(
                f"SELECT {_SEAT_COLS} FROM seats WHERE game_id = ? ORDER BY position",
                (game_id,))
        return [_seat(r) for r in rows]

    async def set_dms_ok(self, game_id: int, user_id: int, ok: bool) -> None:
        async with self._tx() as db:
            await db.execute("UPDATE seats SET dms_ok = ? WHERE game_id = ? AND user_id = ?",
                             (int(ok), game_id, user_id))

    async def set_ai_standin(self, game_id: int, seat: str, on: bool) -> None:
        async with self._tx() as db:
            await db.execute(
                "UPDATE seats SET ai_standin = ? WHERE game_id = ? AND seat = ?"
                " AND user_id IS NOT NULL", (int(on), game_id, seat))

    async def clear_ai_standins(self, user_id: int, game_id: int | None = None) -> list[int]:
        where = "user_id = ? AND ai_standin = 1"
        params: list[Any] = [user_id]
        if game_id is not None:
            where += " AND game_id = ?"
            params.append(game_id)
        async with self._tx() as db:
            rows = await db.execute_fetchall(f"SELECT game_id FROM seats WHERE {where}", params)
            await db.execute(f"UPDATE seats SET ai_standin = 0 WHERE {where}", params)
        return sorted({int(r[0]) for r in rows})

    async def replace_seat(self, game_id: int, seat: str, new_user: int, now: float) -> None:
        async with self._tx() as db:
            try:
                cur = await db.execute(
                    "UPDATE seats SET user_id = ?, dms_ok = 0, ai_standin = 0, joined_at = ?"
                    " WHERE game_id = ? AND seat = ?", (new_user, now, game_id, seat))
            except sqlite3.IntegrityError as exc:
                raise DuplicateSeat(f"user {new_user} is already seated in {game_id}") from exc
            if cur.rowcount == 0:
                raise StorageError(f"game {game_id} has no seat {seat}")
            await db.execute("DELETE FROM replace_votes WHERE game_id = ? AND seat = ?",
                             (game_id, seat))
            await db.execute("DELETE FROM spectators WHERE game_id = ? AND user_id = ?",
                             (game_id, new_user))

    async def find_game_by_rematch(self, game_id: int) -> GameRecord | None:
        async with self._read() as db:
            rows = list(await db.execute_fetchall(
                f"SELECT {_GAME_COLS} FROM games WHERE rematch_of = ?", (game_id,)))
        return _game(rows[0]) if rows else None

    # ---- replacement votes --------------------------------------------------------------
    async def vote_replace(self, game_id: int, seat: str, new_user: int, voter: int,
                           now: float) -> None:
        async with self._tx() as db:
            await db.execute(
                "INSERT INTO replace_votes (game_id, seat, new_user, voter, at)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id, seat, voter)"
                " DO UPDATE SET new_user = excluded.new_user, at = excluded.at",
                (game_id, seat, new_user, voter, now))

    async def replace_votes(self, game_id: int, seat: str) -> dict[int, int]:
        async with self._read() as db:
            rows = await db.execute_fetchall(
                "SELECT voter, new_user FROM replace_votes WHERE game_id = ? AND seat = ?",
                (game_id, seat))
        return {int(r[0]): int(r[1]) for r in rows}

    # ---- spectators ---------------------------------------------------------------------
    async def add_spectator(self, game_id: int, user_id: int, now: float) -> bool:
        async with self._tx() as db:
            cur = await db.execute(
                "INSERT OR IGNORE INTO spectators (game_id, user_id, since) VALUES (?, ?, ?)",
                (game_id, user_id, now))
            return cur.rowcount > 0

    async def remove_spectator(self, game_id: int, user_id: int) -> bool:
        async with self._tx() as db:
            cur = await db.execute(
                "DELETE FROM spectators WHERE game_id = ? AND user_id = ?", (game_id, user_id))
            return cur.rowcount > 0

    async def spectators(self, game_id: int) -> list[int]:
        async with self._read() as db:
            rows = await db.execute_fetchall(
                "SELECT user_id FROM spectators WHERE game_id = ? ORDER BY since, user_id",
                (game_id,))
        return [int(r[0]) for r in rows]

    # ---- players ------------------------------------------------------------------------
    async def prefs(self, user_ids: Iterable[int]) -> dict[int, PlayerPrefs]:
        wanted = sorted(set(user_ids))
        if not wanted:
            return {}
        async with self._read() as db:
            rows = await db.execute_fetchall(
                f"SELECT {_PREF_COLS} FROM players WHERE user_id IN"
                f" ({', '.join('?' for _ in wanted)})", wanted)
        found = {p.user_id: p for p in map(_prefs, rows)}
        return {u: found.get(u) or PlayerPrefs(user_id=u) for u in wanted}

    async def set_prefs(self, prefs: PlayerPrefs, now: float) -> None:
        async with self._tx() as db:
            await db.execute(
                f"INSERT INTO players ({_PREF_COLS}, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET away = excluded.away,"
                " quiet_start = excluded.quiet_start, quiet_end = excluded.quiet_end,"
                " tz_minutes = excluded.tz_minutes, notify_near = excluded.notify_near,"
                " tz_name = excluded.tz_name, updated_at = excluded.updated_at",
                (prefs.user_id, int(prefs.away), prefs.quiet_start, prefs.quiet_end,
                 prefs.tz_minutes, int(prefs.notify_near), prefs.tz_name, now))

    # ---- whole games --------------------------------------------------------------------
    async def export_game(self, game_id: int) -> StoredGame:
        rec = await self.get_game(game_id)
        if rec is None:
            raise GameNotFound(game_id)
        return StoredGame(game=rec, seats=await self.seats(game_id),
                          actions=await self.actions(game_id))

    async def import_game(self, stored: StoredGame) -> GameRecord:
        g = stored.game
        async with self._tx() as db:
            cur = await db.execute(
                f"INSERT INTO games ({_GAME_COLS.replace('id, ', '', 1)}) VALUES"
                f" ({', '.join('?' for _ in range(20))})",
                (g.guild_id, g.channel_id, g.thread_id, g.game,
                 json.dumps(g.options, sort_keys=True), g.status, g.state_json, g.version,
                 g.seed, g.created_by, g.engine_version, g.settings.model_dump_json(),
                 g.board_message_id, g.created_at, g.updated_at, g.next_reminder_at,
                 g.reminder_stage, g.awaited_since, g.epoch, None))
            game_id = cur.lastrowid
            assert game_id is not None
            for s in stored.seats:
                await db.execute(
                    f"INSERT INTO seats ({_SEAT_COLS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (game_id, s.seat, s.user_id, s.position, s.joined_at, int(s.dms_ok),
                     s.role_pref, int(s.ai_standin)))
            for a in stored.actions:
                await db.execute(
                    f"INSERT INTO actions ({_ACTION_COLS}) VALUES (?, ?, ?, ?, ?, ?)",
                    (game_id, a.seq, a.seat, a.user_id, a.action_json, a.at))
            return await self._one_game(db, game_id)

    # ---- play ---------------------------------------------------------------------------
    async def start_game(
        self, game_id: int, state_json: str, seed: int, *, seat_ids: Sequence[str], now: float,
        next_reminder_at: float | None, expected_version: int = 0,
    ) -> GameRecord:
        async with self._tx() as db:
            rec = await self._one_game(db, game_id)
            if rec.status != "lobby" or rec.version != expected_version:
                raise VersionConflict(game_id, expected_version, rec.version)
            rows = list(await db.execute_fetchall(
                "SELECT position FROM seats WHERE game_id = ? ORDER BY position", (game_id,)))
            positions = [int(r[0]) for r in rows]
            if len(positions) != len(seat_ids):
                raise StorageError(
                    f"game {game_id}: {len(positions)} seats but {len(seat_ids)} seat ids")
            # Two passes so renaming never collides with UNIQUE(game_id, seat).
            for pos in positions:
                await db.execute(
                    "UPDATE seats SET seat = ? WHERE game_id = ? AND position = ?",
                    (f"~{pos}", game_id, pos))
            for pos, seat in zip(positions, seat_ids, strict=True):
                await db.execute(
                    "UPDATE seats SET seat = ? WHERE game_id = ? AND position = ?",
                    (seat, game_id, pos))
            await db.execute(
                "UPDATE games SET status = 'active', state = ?, seed = ?, version = ?,"
                " updated_at = ?, next_reminder_at = ?, reminder_stage = 0,"
                " awaited_since = ? WHERE id = ?",
                (state_json, seed, expected_version, now, next_reminder_at, now, game_id))
            return await self._one_game(db, game_id)

    async def append_action(
        self, game_id: int, expected_version: int, seat: str, user_id: int | None,
        action_json: str, new_state_json: str, status: Status,
        next_reminder_at: float | None, reminder_stage: int, *,
        awaited_since: float | None = None, now: float, pending_token: str | None = None,
    ) -> GameRecord:
        async with self._tx() as db:
            await self._check_version(db, game_id, expected_version)
            seq = expected_version + 1
            await db.execute(
                f"INSERT INTO actions ({_ACTION_COLS}) VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, seq, seat, user_id, action_json, now))
            if pending_token is not None:
                await db.execute(
                    "UPDATE pending_moves SET stored_seq = ?, game_id = ? WHERE token = ?",
                    (seq, game_id, pending_token))
            await db.execute(
                "UPDATE games SET state = ?, version = ?, status = ?, updated_at = ?,"
                " next_reminder_at = ?, reminder_stage = ?, awaited_since = ?"
                " WHERE id = ? AND version = ?",
                (new_state_json, seq, status, now, next_reminder_at, reminder_stage,
                 awaited_since, game_id, expected_version))
            return await self._one_game(db, game_id)

    async def rewind(
        self, game_id: int, expected_version: int, keep_seq: int, state_json: str, *,
        status: Status, next_reminder_at: float | None, reminder_stage: int,
        awaited_since: float | None, now: float,
    ) -> GameRecord:
        if not 0 <= keep_seq <= expected_version:
            raise ValueError(f"cannot rewind version {expected_version} to {keep_seq}")
        async with self._tx() as db:
            await self._check_version(db, game_id, expected_version)
            await db.execute("DELETE FROM actions WHERE game_id = ? AND seq > ?",
                             (game_id, keep_seq))
            await db.execute(
                "UPDATE games SET state = ?, version = ?, status = ?, updated_at = ?,"
                " next_reminder_at = ?, reminder_stage = ?, awaited_since = ?,"
                " epoch = epoch + 1 WHERE id = ?",
                (state_json, keep_seq, status, now, next_reminder_at, reminder_stage,
                 awaited_since, game_id))
            return await self._one_game(db, game_id)

    async def rewrite_state(
        self, game_id: int, expected_version: int, state_json: str, engine_version: str,
        now: float,
    ) -> GameRecord:
        async with self._tx() as db:
            await self._check_version(db, game_id, expected_version)
            await db.execute(
                "UPDATE games SET state = ?, engine_version = ?, updated_at = ? WHERE id = ?",
                (state_json, engine_version, now, game_id))
            return await self._one_game(db, game_id)

    async def actions(
        self, game_id: int, after_seq: int = 0, upto_seq: int | None = None,
    ) -> list[ActionRecord]:
        sql = f"SELECT {_ACTION_COLS} FROM actions WHERE game_id = ? AND seq > ?"
        params: list[Any] = [game_id, after_seq]
        if upto_seq is not None:
            sql += " AND seq <= ?"
            params.append(upto_seq)
        async with self._read() as db:
            rows = await db.execute_fetchall(sql + " ORDER BY seq", params)
        return [_action(r) for r in rows]

    # ---- moves in flight ------------------------------------------------------------------
    async def add_pending_move(self, move: PendingMove, *, forget: Iterable[str] = (),
                               expired_before: float | None = None) -> None:
        gone = sorted(set(forget))
        async with self._tx() as db:
            if gone:
                await db.execute(
                    f"DELETE FROM pending_moves WHERE token IN ({', '.join('?' for _ in gone)})",
                    gone)
            if expired_before is not None:
                await db.execute("DELETE FROM pending_moves WHERE created_at < ?",
                                 (expired_before,))
            await db.execute(
                f"INSERT INTO pending_moves ({_PENDING_COLS})"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (move.token, move.interaction_id, move.guild_id, move.channel_id, move.game_id,
                 move.user_id, move.what, move.answer, move.created_at, move.stored_seq))

    async def pending_moves(self, shards: ShardSet | None = None) -> list[PendingMove]:
        where, params = _shard_filter(shards)
        if where is None:
            return []
        async with self._read() as db:
            rows = await db.execute_fetchall(
                f"SELECT {_PENDING_COLS} FROM pending_moves WHERE 1 = 1{where}"
                " ORDER BY created_at, token", params)
        return [_pending(r) for r in rows]

    async def forget_pending_moves(self, tokens: Iterable[str], *,
                                   unstored_only: bool = False) -> None:
        gone = sorted(set(tokens))
        if not gone:
            return
        sql = f"DELETE FROM pending_moves WHERE token IN ({', '.join('?' for _ in gone)})"
        if unstored_only:
            sql += " AND stored_seq IS NULL"
        async with self._tx() as db:
            await db.execute(sql, gone)

    # ---- reminders ----------------------------------------------------------------------
    async def due_reminders(self, now: float, limit: int = 100,
                            shards: ShardSet | None = None) -> list[GameRecord]:
        sql = (f"SELECT {_GAME_COLS} FROM games WHERE status = 'active'"
               " AND next_reminder_at IS NOT NULL AND next_reminder_at <= ?")
        # Filtered in SQL, not after the LIMIT: another shard's backlog must not crowd this
        # shard's due games out of the batch.
        where, shard_params = _shard_filter(shards)
        if where is None:
            return []
        sql += where
        params: list[Any] = [now, *shard_params]
        async with self._read() as db:
            rows = await db.execute_fetchall(
                sql + " ORDER BY next_reminder_at, id LIMIT ?", [*params, limit])
        return [_game(r) for r in rows]

    async def set_reminder(
        self, game_id: int, at: float | None, stage: int, *,
        expected_version: int | None = None, expected_stage: int | None = None,
    ) -> bool:
        sql = "UPDATE games SET next_reminder_at = ?, reminder_stage = ? WHERE id = ?"
        params: list[Any] = [at, stage, game_id]
        if expected_version is not None:
            sql += " AND version = ?"
            params.append(expected_version)
        if expected_stage is not None:
            sql += " AND reminder_stage = ?"
            params.append(expected_stage)
        async with self._tx() as db:
            cur = await db.execute(sql, params)
            return cast(int, cur.rowcount) > 0


def storage_for(database_url: str | None, database_path: str | Path) -> Storage:
    """PostgreSQL when a URL is given (``postgresql://…``), else the SQLite file."""
    if database_url:
        if not database_url.startswith(("postgres://", "postgresql://")):
            raise StorageError(f"DATABASE_URL must be a postgresql:// URL, not {database_url!r}")
        from bot.pgstorage import PgStorage  # asyncpg is only imported when it is used

        return PgStorage(database_url)
    return SqliteStorage(database_path)
