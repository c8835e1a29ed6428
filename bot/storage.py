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
from pydantic import BaseModel, ConfigDict, Field

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
class GameSettings(BaseModel):
    """Per-game table settings, stored as JSON in `games.settings`.

    Unknown keys are ignored on load so an older build can read a newer row. Quiet hours and
    vacation (a later issue) will add fields here and per seat.
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

    @property
    def is_ai(self) -> bool:
        return self.user_id is None


class ActionRecord(BaseModel):
    model_config = ConfigDict(frozen=True)

    game_id: int
    seq: int
    seat: str
    user_id: int | None
    """Who pressed it; None for AI, default (enforced) and other bot-made moves."""
    action_json: str
    at: float


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
        now: float, seat_creator: bool = True,
    ) -> GameRecord:
        """A new lobby; with `seat_creator` the creator takes seat s1 in the same transaction."""

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
    async def set_board_message(self, game_id: int, message_id: int | None) -> None: ...

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
        awaited_since: float | None = None, now: float,
    ) -> GameRecord:
        """One transaction: check the version, insert the action at seq = version+1, write the
        state, bump the version, set status, reminder and updated_at. Raises VersionConflict."""

    @abstractmethod
    async def rewind(
        self, game_id: int, expected_version: int, keep_seq: int, state_json: str, *,
        status: Status, next_reminder_at: float | None, reminder_stage: int,
        awaited_since: float | None, now: float,
    ) -> GameRecord:
        """One transaction: delete actions with seq > keep_seq, write the (replayed) state and
        set version = keep_seq (undo). Raises VersionConflict."""

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

    # reminders
    @abstractmethod
    async def due_reminders(self, now: float, limit: int = 100) -> list[GameRecord]:
        """Active games whose next reminder is due, earliest first."""

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
    "next_reminder_at, reminder_stage, awaited_since"
)
_SEAT_COLS = "game_id, seat, user_id, position, joined_at, dms_ok, role_pref"
_ACTION_COLS = "game_id, seq, seat, user_id, action, at"


def _game(row: sqlite3.Row | tuple[Any, ...]) -> GameRecord:
    return GameRecord(
        id=row[0], guild_id=row[1], channel_id=row[2], thread_id=row[3], game=row[4],
        options=json.loads(row[5]), status=row[6], state_json=row[7], version=row[8],
        seed=row[9], created_by=row[10], engine_version=row[11],
        settings=GameSettings.model_validate_json(row[12]), board_message_id=row[13],
        created_at=row[14], updated_at=row[15], next_reminder_at=row[16],
        reminder_stage=row[17], awaited_since=row[18],
    )


def _seat(row: sqlite3.Row | tuple[Any, ...]) -> SeatRecord:
    return SeatRecord(
        game_id=row[0], seat=row[1], user_id=row[2], position=row[3], joined_at=row[4],
        dms_ok=bool(row[5]), role_pref=row[6],
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
        now: float, seat_creator: bool = True,
    ) -> GameRecord:
        async with self._tx() as db:
            cur = await db.execute(
                "INSERT INTO games (guild_id, channel_id, thread_id, game, options, status,"
                " version, created_by, engine_version, settings, created_at, updated_at,"
                " reminder_stage) VALUES (?, ?, ?, ?, ?, 'lobby', 0, ?, ?, ?, ?, ?, 0)",
                (guild_id, channel_id, thread_id, game, json.dumps(options, sort_keys=True),
                 created_by, engine_version, settings.model_dump_json(), now, now),
            )
            game_id = cur.lastrowid
            assert game_id is not None
            if seat_creator:
                await db.execute(
                    f"INSERT INTO seats ({_SEAT_COLS}) VALUES (?, 's1', ?, 1, ?, 0, NULL)",
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

    async def set_board_message(self, game_id: int, message_id: int | None) -> None:
        async with self._tx() as db:
            await db.execute("UPDATE games SET board_message_id = ? WHERE id = ?",
                             (message_id, game_id))

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
                    f"INSERT INTO seats ({_SEAT_COLS}) VALUES (?, ?, ?, ?, ?, 0, ?)",
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
        awaited_since: float | None = None, now: float,
    ) -> GameRecord:
        async with self._tx() as db:
            await self._check_version(db, game_id, expected_version)
            seq = expected_version + 1
            await db.execute(
                f"INSERT INTO actions ({_ACTION_COLS}) VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, seq, seat, user_id, action_json, now))
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
                " next_reminder_at = ?, reminder_stage = ?, awaited_since = ? WHERE id = ?",
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

    # ---- reminders ----------------------------------------------------------------------
    async def due_reminders(self, now: float, limit: int = 100) -> list[GameRecord]:
        async with self._read() as db:
            rows = await db.execute_fetchall(
                f"SELECT {_GAME_COLS} FROM games WHERE status = 'active'"
                " AND next_reminder_at IS NOT NULL AND next_reminder_at <= ?"
                " ORDER BY next_reminder_at, id LIMIT ?", (now, limit))
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
