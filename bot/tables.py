"""The table service: the only way the Discord layer touches games (DESIGN.md, "Layers").

Every method that changes a game runs load → check → apply → persist → return events under that
game's `asyncio.Lock` (created on demand, so games never block each other). Reads take the lock
too: loading may migrate an old state and persist it, and the cache stays consistent.

Besides play it owns the table's housekeeping: undo (own last move only, never across a random
draw or a reveal), the log and replays rebuilt from the action log — from the nearest
snapshot (`SNAPSHOT_EVERY`), so they cost the same at move 2,000 as at move 20 — substitutes
(`replace`, by the creator or a vote), spectators, rematches, the AI standing in for an absent
player (`ai_turn`), players' preferences (vacation, quiet hours, "my turn is near"), and
upgrading a state stored by an older engine on load (bot/migrations/states.py).

Errors a player can cause are `TableError` (a ValueError whose text a player can read and whose
`rule` names the check); the engine's `IllegalAction` passes through unchanged. Nothing here
imports discord: the cog turns results into messages.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import secrets
import time
import weakref
import zlib
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable, Coroutine, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, get_args, get_origin

from pydantic import BaseModel, TypeAdapter, ValidationError
from pydantic.fields import FieldInfo

from bot import aipool, memory, quiet
from bot.limits import excerpt
from bot.memory import GameResult
from bot.migrations.states import MigrationMissing, migrate_state, needs_migration
from bot.storage import (
    LIVE,
    MAX_SEED,
    AiLevel,
    DuplicateSeat,
    GameRecord,
    GameSettings,
    PlayerPrefs,
    SeatRecord,
    SnapshotRecord,
    Status,
    Storage,
    VersionConflict,
)
from rules.core import Action, Event, IllegalAction, Result, Rng
from rules.core.game import Game, GameState, plural, seen_position
from rules.core.hidden import hidden_dependence, shown_by_events
from rules.registry import GAMES

log = logging.getLogger(__name__)

AnyGame = Game[Any, Any]
UNREADABLE = ("This game was saved by an older version of the bot that this one can't read, so "
              "it can't continue. Start a new one with `/game new`.")
UNREPLAYABLE = ("This game's history can't be replayed exactly (it was recorded by an older "
                "version of the rules), so undo is not available.")
Chooser = Callable[[AnyGame, GameState, str], Action | None]
AI_LOOKS = 5
"""How many times one AI turn looks again when players' moves keep making its choice stale
(each look is a fresh decision on the newer state) before leaving the seat to the next call."""
AI_LOOP_WINDOW = 24
AI_LOOP_REPEATS = 6
AI_LOOP_LOOSE = 24
"""The AI's loop guard (`TableService._unloop`): a seat's AI that is about to make the same
choice among the same options, from the same position (`seen_position`), for the
AI_LOOP_REPEATS-th time within its game's last AI_LOOP_WINDOW AI moves is going round in a
circle (a choice that is called off and comes back, as the Exorcism's Remote Trade did at
normal: 5,800 moves of one game), and plays the game's default instead (`Game.default_action`,
the move a timed-out seat gets). A circle whose every lap changed something the seat sees
would pass that test: the same choice among the same options AI_LOOP_LOOSE times in the window
(every AI move of it), from any position, is one too.

Stop 60: the guard once counted choice and options alone, six times; a real game makes
the same choice among the same options that often (an Exorcism investigator using the Supply
Room turn after turn, a Fourth Wall Search): in 12 easy games of each game up to 12 times in
24 AI moves, never twice from the same position (at normal, 3 games each: up to 15, once). The
bot had played "pass" for them, ending the turn (39 times in 10 two-player Exorcism games)."""
SNAPSHOT_EVERY = 24
"""Moves between two snapshots of a game (`snapshots` table). The history, a replay or an
undo starts from the nearest one and replays at most SNAPSHOT_EVERY − 1 moves. Measured by
`python -m bench --only history` (CPU at move 2,000 over move 20): at 32 the worst place in a
chunk is 1.4–1.6×, at 24 1.25–1.3× (the target is 1.5×), at 16 move 20 itself starts from a
snapshot; 24 costs about 7 KB of state per 24 moves in storage."""
LOG_CACHE_ENTRIES = 2048
"""Log entries of whole snapshot chunks kept decoded between calls (one 2,000-move game, or
some twenty of the usual length): decoding a long game's log costs more than the rest of
`/game log` (21 ms of CPU at move 2,000 against 3 ms kept). Bounded because decoded entries
are some 30,000 objects per 2,000 moves that every full garbage collection walks."""


def _chosen(action: Action) -> Chooser:
    """A chooser that plays `action`, decided before the game's lock was taken."""
    return lambda _game, _state, _seat: action


# ---- errors --------------------------------------------------------------------------------
class TableError(ValueError):
    """A mistake a player can make at the table; `str(err)` is a sentence for them."""

    def __init__(self, message: str, rule: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.rule = rule

    def __str__(self) -> str:
        return self.message


class StaleAction(TableError):
    """A button or command from an earlier state of the game."""

    def __init__(self, current_version: int | None,
                 message: str = "That button is from an earlier turn — "
                                "here is the current board.") -> None:
        super().__init__(message, rule="TABLE-STALE")
        self.current_version = current_version


# ---- results -------------------------------------------------------------------------------
@dataclass(frozen=True)
class StartResult:
    record: GameRecord
    state: GameState
    events: list[Event]
    awaited: list[str]
    """Seats the game waits for now, sorted."""
    awaited_users: dict[str, int | None]
    """Awaited seat → user id (None: an AI seat)."""
    users: dict[str, int | None]
    """Every seat → user id."""
    result: Result | None = None
    """Set only by a game that can end during setup."""

    @property
    def version(self) -> int:
        return self.record.version


@dataclass(frozen=True)
class ActResult:
    record: GameRecord
    seat: str
    action: Action
    state: GameState
    events: list[Event]
    awaited: list[str]
    awaited_users: dict[str, int | None]
    newly_awaited: list[str]
    """Awaited seats the game was not already waiting for before this action (plus the acting
    seat if it must act again): the ones worth a fresh ping. After one answer to a prompt that
    several seats answer at once, this is empty."""
    users: dict[str, int | None]
    result: Result | None
    version: int
    """The game's version after this action (= the action's seq = state.step)."""


@dataclass(frozen=True)
class UndoResult:
    record: GameRecord
    seat: str
    undone: Action
    state: GameState
    awaited: list[str]
    awaited_users: dict[str, int | None]
    version: int


@dataclass(frozen=True)
class ReplaceResult:
    """A `/game replace` request: carried (`done`) or a vote recorded."""

    record: GameRecord
    seat: str
    old_user: int
    new_user: int
    done: bool
    votes: int
    """Votes for this replacement so far (including this one)."""
    needed: int
    """Votes of the other seats that carry it."""
    state: GameState


@dataclass(frozen=True)
class LogEntry:
    """One applied action of the history and what it caused."""

    seq: int
    seat: str
    user_id: int | None
    action: Action
    events: list[Event]


LOG_JSON: TypeAdapter[list[LogEntry]] = TypeAdapter(list[LogEntry])
"""How a snapshot chunk's log is stored (`SnapshotRecord.log_json`)."""


def log_digest(text: str) -> str:
    """A short name for a chunk's log content: equal digests, equal logs."""
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


# ---- the state cache -----------------------------------------------------------------------
@dataclass(frozen=True)
class _Cached:
    json: str | bytes
    """The newest version's JSON; an older version's, deflated (`_StateCache`)."""
    state: GameState | None
    """None for an older version: kept as its JSON only."""

    def text(self) -> str:
        return self.json if isinstance(self.json, str) else zlib.decompress(self.json).decode()


class _StateCache:
    """Recently loaded states by game id and version (a few versions per game, LRU over games).

    A hit for the current version also requires the stored JSON to be identical, so a state is
    reloaded whenever storage holds something else. States are shared, never mutated (`apply`
    never mutates its input); callers must not mutate what they get.

    Only a game's newest version keeps its state object and plain JSON: the older ones (a press
    made a few moves ago, an undo) keep their JSON deflated (a quarter of its size, 30-60 µs a
    move) and are loaded when asked for. A loaded state is 5-8 times its JSON in memory (40 KB
    against 6 KB mid-game), and six of them with their JSON per active game were most of what
    the bot's process grew by per game (issue #25).
    """

    def __init__(self, max_games: int = 512, per_game: int = 6) -> None:
        self.max_games = max_games
        self.per_game = per_game
        self._data: OrderedDict[int, OrderedDict[int, _Cached]] = OrderedDict()

    def get(self, game_id: int, version: int, text: str | None = None,
            load: Callable[[str], GameState] | None = None) -> GameState | None:
        """The state at `version`: an older version is loaded from its JSON with `load` (None
        without one)."""
        entry = self._data.get(game_id, OrderedDict()).get(version)
        if entry is None:
            return None
        if entry.state is None:
            if load is None:
                return None
            kept = entry.text()
            if text is not None and kept != text:
                return None
            self._data.move_to_end(game_id)
            return load(kept)
        if text is not None and entry.json != text:
            return None
        self._data.move_to_end(game_id)
        return entry.state

    def put(self, game_id: int, version: int, text: str, state: GameState) -> None:
        versions = self._data.setdefault(game_id, OrderedDict())
        versions[version] = _Cached(text, state)
        versions.move_to_end(version)
        while len(versions) > self.per_game:
            versions.popitem(last=False)
        newest = max(versions)  # not always `version`: a slow reader may put an older one
        for v, entry in versions.items():
            if v != newest and entry.state is not None:
                versions[v] = _Cached(zlib.compress(entry.text().encode(), 1), None)
        self._data.move_to_end(game_id)
        while len(self._data) > self.max_games:
            self._data.popitem(last=False)

    def bytes_held(self) -> int:
        """Characters and bytes of JSON held, every game and version (tests)."""
        return sum(len(e.json) for v in self._data.values() for e in v.values())

    def held_states(self) -> int:
        """State objects held (the newest version of each game; tests)."""
        return sum(e.state is not None for v in self._data.values() for e in v.values())

    def drop(self, game_id: int, from_version: int = 0) -> None:
        versions = self._data.get(game_id)
        if versions is None:
            return
        for v in [v for v in versions if v >= from_version]:
            del versions[v]
        if not versions:
            del self._data[game_id]


class _LogCache:
    """Decoded snapshot chunks by (game, step), kept while their stored digest is unchanged
    (LRU, bounded by log entries). Entries are shared, never mutated."""

    def __init__(self, max_entries: int = LOG_CACHE_ENTRIES) -> None:
        self.max_entries = max_entries
        self._data: OrderedDict[tuple[int, int], tuple[str, list[LogEntry]]] = OrderedDict()
        self._size = 0

    def get(self, game_id: int, step: int, digest: str) -> list[LogEntry] | None:
        hit = self._data.get((game_id, step))
        if hit is None or hit[0] != digest:
            return None
        self._data.move_to_end((game_id, step))
        return hit[1]

    def put(self, game_id: int, step: int, digest: str, entries: list[LogEntry]) -> None:
        old = self._data.pop((game_id, step), None)
        if old is not None:
            self._size -= len(old[1])
        if len(entries) > self.max_entries:
            return
        self._data[(game_id, step)] = (digest, entries)
        self._size += len(entries)
        while self._size > self.max_entries:
            _, (_, gone) = self._data.popitem(last=False)
            self._size -= len(gone)

    def drop(self, game_id: int, from_step: int = 0) -> None:
        for key in [k for k in self._data if k[0] == game_id and k[1] >= from_step]:
            self._size -= len(self._data.pop(key)[1])


@dataclass(frozen=True)
class Rebuilt:
    """A game rebuilt up to a step: its state, the log up to there (when asked for) and the
    snapshots the replay passed that storage did not hold yet."""

    state: GameState
    log: list[LogEntry]
    fresh: list[SnapshotRecord]
    from_step: int
    """Where the replay began: 0 (the deal) or a snapshot's step."""


ReplayJob = Callable[[], tuple[Rebuilt, list[tuple[int, str, list[LogEntry]]]]]
"""A replay ready to run off the event loop: the game rebuilt, and the chunks (step, digest,
entries) it decoded or made, for the log cache."""


# ---- helpers -------------------------------------------------------------------------------
def default_seed() -> int:
    return secrets.randbits(63)


def _seat_order(seat: str) -> tuple[int, str]:
    digits = seat[1:] if seat[:1] == "s" else ""
    return (int(digits), seat) if digits.isdigit() else (1 << 30, seat)


AI_NAMES = ("Wisp", "Shade", "Moth", "Raven", "Ember", "Hollow", "Mist", "Crow")
"""The built-in AI's names at a table, one per seat in seat order: two AI seats are never
both "AI" (#22), and a seat keeps its name all game, in the thread, DMs and pictures."""


def ai_name(position: int) -> str:
    """The AI's name in the seat at `position` (1 for the first seat): "AI Wisp"."""
    k = max(1, position) - 1
    return f"AI {AI_NAMES[k]}" if k < len(AI_NAMES) else f"AI {k + 1}"


def ai_seat_name(seat: str) -> str:
    """The AI's name in `seat` ("s2" -> "AI Shade"), as every message and picture names it."""
    number = _seat_order(seat)[0]
    return ai_name(number if number < 1 << 30 else 1)


def _count_text(counts: set[int]) -> str:
    ordered = sorted(counts)
    if ordered == list(range(ordered[0], ordered[-1] + 1)) and len(ordered) > 1:
        return f"{ordered[0]} to {ordered[-1]}"
    if len(ordered) == 1:
        return str(ordered[0])
    return ", ".join(str(n) for n in ordered[:-1]) + f" or {ordered[-1]}"


def _num(value: Any) -> str:
    return str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)


def _allowed(field: FieldInfo, kind: str = "") -> str | None:
    """The allowed values of a field in words, from its type, constraints or Literal values."""
    bounds: dict[str, Any] = {}
    for meta in field.metadata:
        for attr in ("ge", "gt", "le", "lt"):
            value = getattr(meta, attr, None)
            if value is not None:
                bounds[attr] = _num(value)
    if get_origin(field.annotation) is Literal:
        return "must be one of: " + ", ".join(str(a) for a in get_args(field.annotation))
    if kind.startswith("int_") or field.annotation is int:
        noun = "a whole number"
    elif kind.startswith("float_") or field.annotation is float:
        noun = "a number"
    else:
        noun = ""
    if "ge" in bounds and "le" in bounds:
        return f"must be {noun or 'a number'} from {bounds['ge']} to {bounds['le']}"
    words = {"ge": "at least", "gt": "more than", "le": "at most", "lt": "less than"}
    parts = [f"{words[k]} {v}" for k, v in bounds.items()]
    if parts:
        return f"must be {noun + ' ' if noun else ''}" + " and ".join(parts)
    if noun:
        return f"must be {noun}"
    if kind.startswith("bool_"):
        return "must be true or false"
    return None


def explain_validation(model: type[BaseModel], exc: ValidationError, what: str = "option") -> str:
    """A player-readable sentence per pydantic error, naming the field and its allowed range."""
    lines: list[str] = []
    for err in exc.errors():
        loc = [str(p) for p in err["loc"]]
        name = ".".join(loc) or what
        if err["type"] == "extra_forbidden":
            known = ", ".join(model.model_fields)
            lines.append(f"There is no {what} “{name}” (known: {known}).")
            continue
        field = model.model_fields.get(loc[0]) if loc else None
        rule = _allowed(field, err["type"]) if field is not None else None
        if rule is None:
            rule = "is not valid: " + str(err["msg"]).replace("Input should", "it should")
        given = err.get("input")
        shown = "" if isinstance(given, dict) else f" (you gave {excerpt(repr(given))})"
        lines.append(f"The {what} “{name}” {rule}{shown}.")
    return " ".join(lines)


def _rng_states(obj: Any) -> list[int]:
    """Every RNG state inside a game state, wherever the game keeps it."""
    found: list[int] = []

    def walk(x: Any) -> None:
        if isinstance(x, Rng):
            found.append(x.state)
        elif isinstance(x, BaseModel):
            for name in type(x).model_fields:
                walk(getattr(x, name))
        elif isinstance(x, dict):
            for v in x.values():
                walk(v)
        elif isinstance(x, list | tuple):
            for v in x:
                walk(v)

    walk(obj)
    return found


# ---- the service ---------------------------------------------------------------------------
class TableService:
    def __init__(
        self,
        storage: Storage,
        games: Mapping[str, AnyGame] = GAMES,
        clock: Callable[[], float] = time.time,
        seed_source: Callable[[], int] = default_seed,
        *,
        cache_games: int = 512,
        ai_level: AiLevel = "normal",
        snapshot_every: int = SNAPSHOT_EVERY,
        log_cache_entries: int = LOG_CACHE_ENTRIES,
        snapshot_ahead: bool = False,
    ) -> None:
        self.storage = storage
        self.games = games
        self.ai_level: AiLevel = ai_level
        """A new table's AI level when its creator picks none (`DEFAULT_AI_LEVEL`)."""
        self.clock = clock
        self.seed_source = seed_source
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = (
            weakref.WeakValueDictionary())
        self._cache = _StateCache(max_games=cache_games)
        self.snapshot_every = snapshot_every
        self.snapshot_ahead = snapshot_ahead
        """Store each snapshot in the background as soon as a move reaches it (the bot), so a
        first `/game log` late in a game replays few moves; off, snapshots are made when a
        history first needs them (tests, tools)."""
        self._logs = _LogCache(log_cache_entries)
        self._background: set[asyncio.Task[None]] = set()
        self.change_hooks: list[Callable[[int], Awaitable[None]]] = []
        """Run with the game's id, after its lock is released, when a live game ends without
        a move (abandoned) or a seat changes hands: what the bot keeps outside the game follows
        (a Presence game's voice mutes, `cogs.utils.voice`). A move's own changes reach the
        cogs through the delivery's after-action hooks."""
        self._ai_trail: dict[int, deque[bytes]] = {}
        """Per game, digests of its last AI moves (seat, options, choice): `_unloop`."""

    # ---- locking and loading ------------------------------------------------------------
    def lock(self, game_id: int) -> asyncio.Lock:
        """The game's lock (one per game, created on demand)."""
        lock = self._locks.get(game_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[game_id] = lock
        return lock

    async def _get(self, game_id: int) -> GameRecord:
        rec = await self.storage.get_game(game_id)
        if rec is None:
            raise TableError("There is no such game (it may have been deleted).", "TABLE-GAME")
        return rec

    def _game(self, rec: GameRecord) -> AnyGame:
        game = self.games.get(rec.game)
        if game is None:
            raise TableError(f"This bot no longer has the rules for “{rec.game}”.", "TABLE-GAME")
        return game

    async def _load(self, rec: GameRecord) -> GameState:
        """The current state of a started game (cached; old engine versions migrated once)."""
        if rec.state_json is None:
            raise TableError("This game hasn't started yet.", "TABLE-LOBBY")
        hit = self._cache.get(rec.id, rec.version, rec.state_json)
        if hit is not None:
            return hit
        game = self._game(rec)
        text = rec.state_json
        if rec.engine_version != game.version:
            text = self._upgrade(rec, game, text)
            try:
                state: GameState = game.load_state(text)
            except ValidationError as exc:
                log.error("game %s: stored with %s, unreadable by %s: %s", rec.id,
                          rec.engine_version, game.version, exc)
                raise TableError(UNREADABLE, "TABLE-VERSION") from exc
            text = state.model_dump_json()
            rec = await self.storage.rewrite_state(rec.id, rec.version, text, game.version,
                                                   self.clock())
        else:
            state = game.load_state(text)
        if state.step != rec.version:
            log.error("game %s: stored version %s but state step %s", rec.id, rec.version,
                      state.step)
        self._cache.put(rec.id, rec.version, text, state)
        return state

    @staticmethod
    def _upgrade(rec: GameRecord, game: AnyGame, text: str) -> str:
        """The stored state JSON brought to the running engine's schema (bot/migrations)."""
        if needs_migration(rec.engine_version, game.version):
            log.info("game %s: migrating state from %s to %s", rec.id, rec.engine_version,
                     game.version)
            try:
                return json.dumps(migrate_state(game.name, json.loads(text), rec.engine_version,
                                                game.version))
            except MigrationMissing as exc:
                hook = getattr(game, "migrate_state", None)
                if callable(hook):
                    return json.dumps(hook(json.loads(text), rec.engine_version))
                # Perhaps the change only added fields with defaults: try; _load refuses
                # clearly if the state does not validate.
                log.warning("game %s: %s; loading as-is", rec.id, exc)
                return text
        # Only the content fingerprint moved: cards are named, the state loads as it is.
        log.info("game %s: stored with %s, loading with %s", rec.id, rec.engine_version,
                 game.version)
        return text

    @staticmethod
    def _require_active(rec: GameRecord) -> None:
        if rec.status == "lobby":
            raise TableError("This game hasn't started yet.", "TABLE-LOBBY")
        if rec.status == "over":
            raise TableError("This game is over.", "TABLE-OVER")
        if rec.status == "abandoned":
            why = rec.settings.ended_because
            raise TableError(f"This game was abandoned{f' ({why})' if why else ''}.",
                             "TABLE-OVER")

    @staticmethod
    def _require_lobby(rec: GameRecord) -> None:
        if rec.status == "active":
            raise TableError("This game has already started.", "TABLE-STARTED")
        if rec.status != "lobby":
            raise TableError("This game is over.", "TABLE-OVER")

    @staticmethod
    def _users(seats: Iterable[SeatRecord]) -> dict[str, int | None]:
        return {s.seat: s.user_id for s in sorted(seats, key=lambda s: _seat_order(s.seat))}

    def _interval(self, rec: GameRecord) -> float:
        return rec.settings.reminder_hours * 3600.0

    def _check_options(self, game: AnyGame, options: Mapping[str, Any]) -> BaseModel:
        try:
            return game.options_model.model_validate(dict(options))
        except ValidationError as exc:
            raise TableError(explain_validation(game.options_model, exc),
                             "TABLE-OPTIONS") from exc

    @staticmethod
    def _check_settings(current: GameSettings, changes: Mapping[str, Any]) -> GameSettings:
        settable = [k for k in GameSettings.model_fields if k != "ended_because"]
        unknown = [k for k in changes if k not in settable]
        if unknown:
            known = ", ".join(settable)
            raise TableError(f"There is no setting “{unknown[0]}” (known: {known}).",
                             "TABLE-SETTINGS")
        try:
            return GameSettings.model_validate({**current.model_dump(), **changes})
        except ValidationError as exc:
            raise TableError(explain_validation(GameSettings, exc, "setting"),
                             "TABLE-SETTINGS") from exc

    # ---- lobby --------------------------------------------------------------------------
    async def create(
        self, guild_id: int, channel_id: int, thread_id: int | None, game_name: str,
        options: Mapping[str, Any], creator_id: int, settings: Mapping[str, Any] | None = None,
    ) -> GameRecord:
        """A new lobby; the creator takes the first seat."""
        game = self.games.get(game_name)
        if game is None:
            known = ", ".join(sorted(self.games)) or "none"
            raise TableError(f"There is no game called “{game_name}” (games: {known}).",
                             "TABLE-GAME")
        opts = self._check_options(game, options)
        table = self._check_settings(GameSettings(ai_level=self.ai_level), settings or {})
        return await self.storage.create_game(
            guild_id=guild_id, channel_id=channel_id, thread_id=thread_id, game=game.name,
            options=opts.model_dump(mode="json"), created_by=creator_id,
            engine_version=game.version, settings=table, now=self.clock())

    async def _add(self, game_id: int, user_id: int | None, by: int) -> SeatRecord:
        async with self.lock(game_id):
            rec = await self._get(game_id)
            self._require_lobby(rec)
            seats = await self.storage.seats(game_id)
            if user_id is not None and any(s.user_id == user_id for s in seats):
                raise TableError("You are already seated in this game.", "TABLE-SEATED")
            if user_id is None and by != rec.created_by:
                raise TableError("Only the player who created this game can add AI players.",
                                 "TABLE-CREATOR")
            game = self._game(rec)
            most = max(game.player_counts(game.options_model.model_validate(rec.options)))
            if len(seats) >= most:
                raise TableError(f"This table is full ({most} seats).", "TABLE-FULL")
            try:
                return await self.storage.add_seat(game_id, user_id, self.clock())
            except DuplicateSeat as exc:
                raise TableError("You are already seated in this game.", "TABLE-SEATED") from exc

    async def join(self, game_id: int, user_id: int) -> SeatRecord:
        return await self._add(game_id, user_id, user_id)

    async def add_ai(self, game_id: int, user_id: int) -> SeatRecord:
        """The creator seats the built-in AI (a seat with no user)."""
        return await self._add(game_id, None, user_id)

    async def remove_ai(self, game_id: int, user_id: int, seat: str) -> None:
        async with self.lock(game_id):
            rec = await self._get(game_id)
            self._require_lobby(rec)
            if user_id != rec.created_by:
                raise TableError("Only the player who created this game can remove AI players.",
                                 "TABLE-CREATOR")
            seats = await self.storage.seats(game_id)
            if not any(s.seat == seat and s.user_id is None for s in seats):
                raise TableError(f"There is no AI player in seat {seat}.", "TABLE-SEAT")
            await self.storage.remove_seat_at(game_id, seat)

    async def set_options(self, game_id: int, user_id: int,
                          changes: Mapping[str, Any]) -> GameRecord:
        """The creator changes the lobby's options before the start (the lobby card's menus):
        validated like `/game new`'s, combinations included, and refused when more players are
        seated than the new options take."""
        async with self.lock(game_id):
            rec = await self._get(game_id)
            self._require_lobby(rec)
            if user_id != rec.created_by:
                raise TableError("Only the player who created this game can change its "
                                 "options.", "TABLE-CREATOR")
            game = self._game(rec)
            opts = self._check_options(game, {**rec.options, **changes})
            conflicts = game.option_conflicts(opts)
            if conflicts:
                raise TableError("Those options can't make a game: " + " ".join(conflicts),
                                 "TABLE-OPTIONS")
            seated = len(await self.storage.seats(game_id))
            most = max(game.player_counts(opts))
            if seated > most:
                raise TableError(f"{seated} players are seated, but {game.title} takes at most "
                                 f"{most} with those options: someone must leave (or remove "
                                 "an AI player) first.", "TABLE-COUNT")
            return await self.storage.set_options(game_id, opts.model_dump(mode="json"),
                                                  self.clock())

    async def leave(self, game_id: int, user_id: int) -> GameRecord:
        """Leave a lobby. The creator leaving hands the game to the next seated player, or
        abandons it when no player is left. Returns the updated record."""
        async with self.lock(game_id):
            rec = await self._get(game_id)
            if rec.status == "active":
                raise TableError("The game has started, so you can't leave the table now.",
                                 "TABLE-STARTED")
            self._require_lobby(rec)
            seats = await self.storage.seats(game_id)
            if not any(s.user_id == user_id for s in seats):
                raise TableError("You're not seated in this game.", "TABLE-NOT-SEATED")
            now = self.clock()
            if rec.created_by == user_id:
                heirs = [s.user_id for s in seats if s.user_id is not None and s.user_id != user_id]
                if heirs:
                    await self.storage.set_creator(game_id, heirs[0], now)
                await self.storage.remove_seat(game_id, user_id)
                if not heirs:
                    await self.storage.set_status(game_id, "abandoned", now)
            else:
                await self.storage.remove_seat(game_id, user_id)
            return await self._get(game_id)

    async def start(
        self, game_id: int, user_id: int, seed: int | None = None, *,
        first_user_id: int | None = None,
    ) -> StartResult:
        """Only the creator. Seats become s1..sN in join order, except that `first_user_id`
        (if given) takes s1 — the seat that takes the opposing role where options assign none."""
        async with self.lock(game_id):
            rec = await self._get(game_id)
            self._require_lobby(rec)
            if user_id != rec.created_by:
                raise TableError("Only the player who created this game can start it.",
                                 "TABLE-CREATOR")
            game = self._game(rec)
            options = game.options_model.model_validate(rec.options)
            seats = await self.storage.seats(game_id)
            counts = game.player_counts(options)
            if len(seats) not in counts:
                raise TableError(
                    f"{game.title} needs {_count_text(counts)} players; "
                    f"{len(seats)} {'is' if len(seats) == 1 else 'are'} seated.", "TABLE-COUNT")
            if "guided" in game.options_model.model_fields:
                rec, options = await self._settle_guided(rec, game, options, seats)
            if seed is None:
                seed = self.seed_source()
            if not 0 <= seed <= MAX_SEED:
                raise TableError("A seed must be a whole number from 0 to 2^63−1.", "TABLE-SEED")
            order = list(seats)
            if first_user_id is not None:
                first = next((s for s in seats if s.user_id == first_user_id), None)
                if first is None:
                    raise TableError("The player chosen to go first isn't seated in this game.",
                                     "TABLE-SEAT")
                order.remove(first)
                order.insert(0, first)
            new_id = {s.position: f"s{i}" for i, s in enumerate(order, start=1)}
            seat_ids = [f"s{i}" for i in range(1, len(seats) + 1)]
            state: GameState = game.setup(seat_ids, options, seed)
            text = state.model_dump_json()
            now = self.clock()
            awaited = sorted(game.to_act(state))
            rec = await self.storage.start_game(
                game_id, text, seed, seat_ids=[new_id[s.position] for s in seats], now=now,
                next_reminder_at=now + self._interval(rec) if awaited else None)
            self._cache.drop(game_id)
            self._cache.put(game_id, rec.version, text, state)
            users = {new_id[s.position]: s.user_id for s in order}
            events = [Event(kind="start", text=f"{game.title} begins with {len(seats)} "
                            f"{plural(len(seats), 'player')}."), *game.setup_events(state)]
            return StartResult(record=rec, state=state, events=events, awaited=awaited,
                               awaited_users={s: users[s] for s in awaited}, users=users,
                               result=game.result(state))

    async def _settle_guided(self, rec: GameRecord, game: AnyGame, options: Any,
                             seats: list[SeatRecord]) -> tuple[GameRecord, Any]:
        """Guided play left to the table (`guided` empty) is decided at the start, once: on
        while any seated person has not finished a game of this title (or for a first-game
        setup), and kept in the options so the game reads one answer to its end."""
        if getattr(options, "guided", None) is not None:
            return rec, options
        humans = [s.user_id for s in seats if s.user_id is not None]
        newcomers = set(humans) - await self.storage.veterans(humans, rec.game)
        guided = bool(newcomers) or game.guided(options)
        settled = options.model_copy(update={"guided": guided})
        rec = await self.storage.set_options(rec.id, settled.model_dump(mode="json"),
                                             self.clock())
        return rec, settled

    async def newcomers(self, game_id: int) -> list[int]:
        """The seated people (in seat order) who have not finished a game of this title."""
        rec = await self._get(game_id)
        humans = [s.user_id for s in await self.storage.seats(game_id)
                  if s.user_id is not None]
        known = await self.storage.veterans(humans, rec.game)
        return [u for u in humans if u not in known]

    # ---- play ---------------------------------------------------------------------------
    async def act(
        self, game_id: int, user_id: int, action: Action, expected_version: int | None = None,
        *, interaction_token: str | None = None,
    ) -> ActResult:
        """A player's move. `expected_version` is the version the button or command was made
        for: a press from an earlier version is refused with StaleAction, unless only other
        seats have acted since and this seat's choices are unchanged (simultaneous prompts).
        `interaction_token` names the move's pending interaction (`Storage.add_pending_move`),
        marked as stored in the move's own transaction."""
        res = await self._act(game_id, user_id=user_id, seat=None,
                              choose=lambda _g, _s, _seat: action,
                              expected_version=expected_version, strict=False,
                              interaction_token=interaction_token)
        assert res is not None
        return res

    async def act_as_seat(
        self, game_id: int, seat: str, action: Action, expected_version: int | None = None,
    ) -> ActResult:
        """A move for a seat made by the bot (AI, default, tests): no user check."""
        res = await self._act(game_id, user_id=None, seat=seat,
                              choose=lambda _g, _s, _seat: action,
                              expected_version=expected_version, strict=True)
        assert res is not None
        return res

    async def play_ai(self, game_id: int, seat: str) -> ActResult:
        """The built-in AI's easy move for an awaited seat, decided in this process under the
        game's lock (tests and tools; the table's AI seats play through `ai_turn`)."""
        res = await self._act(game_id, user_id=None, seat=seat,
                              choose=lambda g, s, seat_: g.ai_action(s, seat_),
                              expected_version=None, strict=True)
        assert res is not None
        return res

    async def play_default(
        self, game_id: int, seat: str, expected_version: int | None = None,
    ) -> ActResult | None:
        """The rule-defined default for an awaited seat that timed out (enforced reminders).
        None when the seat is no longer awaited or its game defines no default."""
        def choose(g: AnyGame, s: GameState, seat_: str) -> Action | None:
            return g.default_action(s, seat_) if seat_ in g.to_act(s) else None

        try:
            return await self._act(game_id, user_id=None, seat=seat, choose=choose,
                                   expected_version=expected_version, strict=True)
        except StaleAction:
            return None

    async def _act(
        self, game_id: int, *, user_id: int | None, seat: str | None, choose: Chooser,
        expected_version: int | None, strict: bool, interaction_token: str | None = None,
    ) -> ActResult | None:
        async with self.lock(game_id):
            rec = await self._get(game_id)
            self._require_active(rec)
            seats = await self.storage.seats(game_id)
            users = self._users(seats)
            if seat is None:
                seat = next((s for s, u in users.items() if u == user_id), None)
                if seat is None:
                    raise TableError("You're not playing in this game — you can follow it in "
                                     "the thread.", "TABLE-NOT-SEATED")
            elif seat not in users:
                raise TableError(f"There is no seat {seat} in this game.", "TABLE-SEAT")
            game = self._game(rec)
            state = await self._load(rec)
            action = choose(game, state, seat)
            if action is None:
                return None
            if user_id is not None and any(s.seat == seat and s.ai_standin for s in seats):
                # The player is back: the AI stops standing in for them from this move on.
                await self.storage.set_ai_standin(game_id, seat, False)
            if expected_version is not None and expected_version != rec.version and (
                strict or not await self._still_current(rec, game, state, seat, action,
                                                        expected_version)
            ):
                raise StaleAction(rec.version)
            outcome = game.apply(state, seat, action)  # IllegalAction: nothing persisted
            new: GameState = outcome.state
            result = game.result(new)
            before, after = game.to_act(state), game.to_act(new)
            now = self.clock()
            if result is not None or not after:
                next_at, stage, since = None, 0, None
            elif (rec.next_reminder_at is not None and after <= before
                  and seat not in after):
                # Someone answered a simultaneous prompt: the others keep their clock.
                next_at, stage, since = rec.next_reminder_at, rec.reminder_stage, rec.awaited_since
            else:
                next_at, stage, since = now + self._interval(rec), 0, now
            status: Status = "over" if result is not None else "active"
            text = new.model_dump_json()
            ending = None
            if result is not None:
                ending = await self._result_of(rec, game, new, result, seats, now,
                                               last=(seat, user_id, now))
            try:
                rec = await self.storage.append_action(
                    game_id, rec.version, seat, user_id, action.model_dump_json(), text, status,
                    next_at, stage, awaited_since=since, now=now,
                    pending_token=interaction_token, result=ending)
            except VersionConflict as exc:
                self._cache.drop(game_id)
                raise StaleAction(exc.actual) from exc
            if new.step != rec.version:
                log.error("game %s: version %s but state step %s", game_id, rec.version, new.step)
            self._cache.put(game_id, rec.version, text, new)
            if self.snapshot_ahead and rec.version % self.snapshot_every == 0:
                self._after_move(self._keep_ahead(game_id, rec.version))
            if result is not None:
                self._ai_trail.pop(game_id, None)
            awaited = [] if result is not None else sorted(after)
            fresh = [s for s in awaited if s not in before or s == seat]
            return ActResult(record=rec, seat=seat, action=action, state=new,
                             events=list(outcome.events), awaited=awaited,
                             awaited_users={s: users.get(s) for s in awaited},
                             newly_awaited=fresh, users=users,
                             result=result, version=rec.version)

    async def _still_current(
        self, rec: GameRecord, game: AnyGame, state: GameState, seat: str, action: Action,
        expected: int,
    ) -> bool:
        """Whether a press made at version `expected` is still the same decision now: only other
        seats acted since, and this seat may act with exactly the same choices."""
        if not 0 <= expected < rec.version:
            return False
        later = await self.storage.actions(rec.id, after_seq=expected)
        if any(a.seat == seat for a in later):
            return False
        old = self._cache.get(rec.id, expected, load=game.load_state)
        if old is None:
            try:
                old = await self._replay(rec, expected)
            except Exception:  # a history the current engine cannot replay: be strict
                log.warning("game %s: could not replay to %s", rec.id, expected, exc_info=True)
                return False
        if not (game.may_act(old, seat) and game.may_act(state, seat)):
            return False
        now_legal = {a.key() for a in game.legal_actions(state, seat)}
        then_legal = {a.key() for a in game.legal_actions(old, seat)}
        return now_legal == then_legal and action.key() in now_legal

    # ---- undo and replay ----------------------------------------------------------------
    async def undo(self, game_id: int, user_id: int) -> UndoResult:
        """Take back the last action: only its own player, and only if its outcome could not
        depend on anything hidden from that player (`_undo_refusal`: no dice, no draw, peek or
        reveal, also by an automatic step it set off). Replays the log to seq−1 and truncates
        it."""
        async with self.lock(game_id):
            rec = await self._get(game_id)
            self._require_active(rec)
            seats = await self.storage.seats(game_id)
            users = self._users(seats)
            if user_id not in users.values():
                raise TableError("You're not playing in this game.", "TABLE-NOT-SEATED")
            if rec.version == 0:
                raise TableError("There is nothing to undo yet.", "TABLE-UNDO")
            [last] = await self.storage.actions(game_id, after_seq=rec.version - 1)
            if last.user_id != user_id:
                if users.get(last.seat) == user_id:
                    raise TableError("The last move in your seat was made by the bot, so it "
                                     "can't be undone.", "TABLE-UNDO")
                raise TableError("Only the player who made the last move can undo it, and only "
                                 "before anyone else moves.", "TABLE-UNDO")
            game = self._game(rec)
            current = await self._load(rec)
            action = Action.model_validate_json(last.action_json)
            try:
                before: GameState | None = await self._replay(rec, rec.version - 1)
            except (IllegalAction, ValidationError) as exc:
                log.warning("game %s: replay failed during undo: %s", game_id, exc)
                before = None

            def check(before: GameState) -> str | None:
                # The move again, then what it could have turned on (resampled states): a few
                # dozen applies, run off the event loop like the replay.
                try:
                    outcome = game.apply(before, last.seat, action)
                except (IllegalAction, ValidationError) as exc:
                    log.warning("game %s: replay failed during undo: %s", game_id, exc)
                    return UNREPLAYABLE
                if outcome.state.model_dump_json() != current.model_dump_json():
                    return UNREPLAYABLE
                return self._undo_refusal(game, before, last.seat, action, outcome.state,
                                          list(outcome.events))

            reason = UNREPLAYABLE if before is None else await asyncio.to_thread(check, before)
            if reason is not None:
                raise TableError(reason, "TABLE-UNDO")
            assert before is not None
            now = self.clock()
            awaited = sorted(game.to_act(before))
            text = before.model_dump_json()
            rec = await self.storage.rewind(
                game_id, rec.version, rec.version - 1, text, status="active",
                next_reminder_at=now + self._interval(rec) if awaited else None,
                reminder_stage=0, awaited_since=now if awaited else None, now=now)
            self._cache.drop(game_id, from_version=rec.version)
            self._cache.put(game_id, rec.version, text, before)
            self._logs.drop(game_id, from_step=rec.version + 1)
            self._ai_trail.pop(game_id, None)  # an AI deciding again after an undo is no circle
            return UndoResult(record=rec, seat=last.seat, undone=action, state=before,
                              awaited=awaited, awaited_users={s: users.get(s) for s in awaited},
                              version=rec.version)

    @staticmethod
    def _undo_refusal(
        game: AnyGame, before: GameState, seat: str, action: Action, after: GameState,
        events: list[Event],
    ) -> str | None:
        if _rng_states(before) != _rng_states(after):
            return "That move used the dice or a shuffle, so it can't be undone."
        if game.result(after) is not None:
            return "That move ended the game, so it can't be undone."
        # Decided by what the move could reveal, not by the events it happened to emit: its
        # outcome is compared with the same move on states resampled from the mover's view.
        if hidden_dependence(game, before, seat, action) is not None:
            return ("That move's outcome turned on something you can't see (a card drawn, "
                    "peeked at or revealed), so it can't be undone.")
        hook = getattr(game, "undo_refusal", None)
        if callable(hook):
            # A game that knows which of its events reveal nothing decides for itself.
            reason = hook(before, seat, action, after, events)
            return None if reason is None else str(reason)
        return shown_by_events(game, before, after, events)

    async def _replay(self, rec: GameRecord, upto_seq: int | None) -> GameState:
        """The state after `upto_seq` actions (None: now), from the nearest snapshot."""
        rebuilt = await self._rebuild(rec, upto_seq, with_log=False)
        await self._keep_snapshots(rec, rebuilt)
        return rebuilt.state

    async def _rebuild(self, rec: GameRecord, upto_seq: int | None, *, with_log: bool,
                       from_seed: bool = False) -> Rebuilt:
        """`_replay_job` run at once (the caller holds the game's lock throughout)."""
        return await self._run_job(rec, await self._replay_job(rec, upto_seq, with_log=with_log,
                                                               from_seed=from_seed))

    async def _run_job(self, rec: GameRecord, job: ReplayJob) -> Rebuilt:
        """Run a replay in a thread, off the event loop, and keep the chunks it decoded or
        made. Measured for the 23 moves past a snapshot of a long game: in a thread it costs
        this process 5–6 ms of CPU, in a worker process (like bot/renderpool.py) 1 ms but
        10–30 ms of wall shipping the state and the entries both ways, and a standing
        process's memory (issue #25, item 4): a thread."""
        rebuilt, decoded = await asyncio.to_thread(job)
        for step, digest, entries in decoded:
            self._logs.put(rec.id, step, digest, entries)
        return rebuilt

    async def _replay_job(self, rec: GameRecord, upto_seq: int | None, *, with_log: bool,
                          from_seed: bool = False) -> ReplayJob:
        """The replay of the game after `upto_seq` actions (and with `with_log`, every
        action's log entry up to there), from the latest usable snapshot at or below it, or
        from the seed.

        Usable: written by this engine version (one by another is ignored: its state or its
        words may differ) at this interval (a chunk's log covers its interval). The log needs
        an unbroken run of chunks from the deal, so with `with_log` the replay starts after
        the last of them. Storage is read here (the caller holds the game's lock); the
        returned job decodes and replays, in a thread, off the event loop (`_run_job`)."""
        game = self._game(rec)
        if rec.seed is None:
            raise TableError("This game hasn't started yet.", "TABLE-LOBBY")
        upto = rec.version if upto_seq is None else min(upto_seq, rec.version)
        every = self.snapshot_every
        # A game stored before a ruling replays under the ruling it was played by (and an old
        # state is migrated here first, so the rulings are read from the running schema).
        current = await self._load(rec)
        # (A game shorter than a chunk has no snapshot to look for.)
        marks = [] if from_seed or upto < every else [
            m for m in await self.storage.snapshot_marks(rec.id, upto)
            if m.engine_version == game.version and m.moves == every and m.step % every == 0
            and m.step > 0]
        if with_log:
            unbroken = []
            for k, mark in enumerate(marks, start=1):
                if mark.step != k * every:
                    break
                unbroken.append(mark)
            marks = unbroken
        start, start_text = 0, None
        for mark in reversed(marks):
            start_text = await self.storage.snapshot_state(rec.id, mark.step)
            if start_text is not None:
                start = mark.step
                break
        chunks: list[tuple[int, str, list[LogEntry] | str]] = []
        if with_log and start:
            kept = {m.step: self._logs.get(rec.id, m.step, m.digest) for m in marks
                    if m.step <= start}
            texts = await self.storage.snapshot_logs(
                rec.id, [step for step, hit in kept.items() if hit is None])
            for mark in marks:
                if mark.step > start:
                    break
                hit = kept[mark.step]
                if hit is None and mark.step not in texts:
                    start, start_text = 0, None  # deleted meanwhile: start from the deal
                    chunks = []
                    break
                chunks.append((mark.step, mark.digest, hit if hit is not None
                               else texts[mark.step]))
        seat_ids = sorted((s.seat for s in await self.storage.seats(rec.id)), key=_seat_order)
        options = game.options_model.model_validate(rec.options)
        actions = await self.storage.actions(rec.id, after_seq=start, upto_seq=upto)
        seed, version, now = rec.seed, game.version, self.clock()

        def run() -> tuple[Rebuilt, list[tuple[int, str, list[LogEntry]]]]:
            decoded: list[tuple[int, str, list[LogEntry]]] = []
            log_so_far: list[LogEntry] = []
            for step, digest, chunk in chunks:
                entries = LOG_JSON.validate_json(chunk) if isinstance(chunk, str) else chunk
                decoded.append((step, digest, entries))
                log_so_far += entries
            state: GameState = (game.load_state(start_text) if start_text is not None else
                                game.replay_rulings(game.setup(seat_ids, options, seed),
                                                    current))
            fresh: list[SnapshotRecord] = []
            since: list[LogEntry] = []
            for a in actions:
                action = Action.model_validate_json(a.action_json)
                outcome = game.apply(state, a.seat, action)
                state = outcome.state
                entry = LogEntry(seq=a.seq, seat=a.seat, user_id=a.user_id, action=action,
                                 events=list(outcome.events))
                since.append(entry)
                if with_log:
                    log_so_far.append(entry)
                if a.seq % every == 0:
                    # The replay began at a multiple of `every`: `since` is the whole chunk.
                    text = LOG_JSON.dump_json(since).decode()
                    digest = log_digest(text)
                    fresh.append(SnapshotRecord(
                        game_id=rec.id, step=a.seq, moves=every, engine_version=version,
                        digest=digest,
                        state_json=state.model_dump_json(), log_json=text, at=now))
                    decoded.append((a.seq, digest, since))
                    since = []
            return Rebuilt(state=state, log=log_so_far, fresh=fresh, from_step=start), decoded

        return run

    def _after_move(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def settle(self) -> None:
        """Wait for the snapshots being stored in the background (before closing storage)."""
        while self._background:
            await asyncio.gather(*list(self._background), return_exceptions=True)

    async def _keep_ahead(self, game_id: int, step: int) -> None:
        """Store the snapshot a move reached: a replay from the one before it (a chunk of
        moves, in a thread), without holding the game's lock while it runs. A game from
        before snapshots replays from the deal once."""
        try:
            async with self.lock(game_id):
                rec = await self._get(game_id)
                if rec.version < step or rec.seed is None:
                    return  # taken back meanwhile
                job = await self._replay_job(rec, step, with_log=False)
            await self._keep_snapshots(rec, await self._run_job(rec, job))
        except Exception:  # only a later history's replay gets longer
            log.warning("game %s: snapshot %s not made", game_id, step, exc_info=True)

    async def _keep_snapshots(self, rec: GameRecord, rebuilt: Rebuilt) -> None:
        """Store the snapshots a replay passed (lazily, idempotently: only while the game is at
        the epoch it was replayed in; a failure only means the next replay makes them)."""
        if not rebuilt.fresh:
            return
        try:
            await self.storage.put_snapshots(rec.id, rec.epoch, rebuilt.fresh)
        except Exception:
            log.warning("game %s: snapshots not stored", rec.id, exc_info=True)

    async def replay(self, game_id: int, upto_seq: int | None = None) -> GameState:
        """The state rebuilt from the seed and the action log (up to `upto_seq`)."""
        async with self.lock(game_id):
            return await self._replay(await self._get(game_id), upto_seq)

    async def verify(self, game_id: int) -> bool:
        """Whether replaying the log gives exactly the stored state."""
        async with self.lock(game_id):
            rec = await self._get(game_id)
            stored = await self._load(rec)
            replayed = await self._rebuild(rec, rec.version, with_log=False, from_seed=True)
            return replayed.state.model_dump_json() == stored.model_dump_json()

    # ---- reads --------------------------------------------------------------------------
    async def get(self, game_id: int) -> GameRecord:
        return await self._get(game_id)

    async def game_in_thread(self, thread_id: int) -> GameRecord | None:
        return await self.storage.find_game_by_thread(thread_id)

    async def list_games(
        self, guild_id: int | None = None, statuses: Iterable[Status] | None = LIVE,
    ) -> list[GameRecord]:
        return await self.storage.list_games(guild_id, statuses)

    async def seats(self, game_id: int) -> list[SeatRecord]:
        return await self.storage.seats(game_id)

    async def state(self, game_id: int) -> GameState:
        """The current state (shared with the cache: do not mutate it)."""
        async with self.lock(game_id):
            return await self._load(await self._get(game_id))

    async def peek_state(self, game_id: int) -> GameState:
        """The state as last stored, read without the game's lock: for what may be shown at
        once (an autocomplete's suggestions) while a move, an AI turn or a board holds the
        lock (stop 70); the move under way is not in it yet. A state stored by an older
        engine is migrated under the lock, as `state` does (the migration writes)."""
        rec = await self._get(game_id)
        if rec.state_json is not None and rec.engine_version == self._game(rec).version:
            return await self._load(rec)  # reads and caches; writes nothing
        return await self.state(game_id)

    async def view(self, game_id: int, user_id: int | None) -> dict[str, Any]:
        """The seat's private view for a seated user, the public view for anyone else."""
        async with self.lock(game_id):
            rec = await self._get(game_id)
            state = await self._load(rec)
            seat = self._users(await self.storage.seats(game_id))
            mine = next((s for s, u in seat.items() if u == user_id and u is not None), None)
            return self._game(rec).view(state, mine)

    async def legal_actions(self, game_id: int, user_id: int) -> list[Action]:
        async with self.lock(game_id):
            rec = await self._get(game_id)
            if rec.status != "active":
                return []
            seat = next((s.seat for s in await self.storage.seats(game_id)
                         if s.user_id == user_id), None)
            if seat is None:
                return []
            return self._game(rec).legal_actions(await self._load(rec), seat)

    async def seat_of(self, game_id: int, user_id: int) -> str | None:
        return next((s.seat for s in await self.storage.seats(game_id) if s.user_id == user_id),
                    None)

    async def users_of(self, game_id: int) -> dict[str, int | None]:
        return self._users(await self.storage.seats(game_id))

    async def awaited(self, game_id: int) -> dict[str, int | None]:
        """Seats the game waits for now → their user ids (None: AI). Empty unless active."""
        async with self.lock(game_id):
            rec = await self._get(game_id)
            if rec.status != "active":
                return {}
            state = await self._load(rec)
            users = self._users(await self.storage.seats(game_id))
            return {s: users.get(s) for s in sorted(self._game(rec).to_act(state))}

    # ---- what an ended game leaves behind (issue #24) -----------------------------------
    async def _result_of(
        self, rec: GameRecord, game: AnyGame, state: GameState | None, result: Result | None,
        seats: Iterable[SeatRecord], now: float, *,
        last: tuple[str, int | None, float] | None = None, because: str | None = None,
    ) -> GameResult | None:
        """The game's result for the memory (`bot.memory`), written with the write that ends
        it. Never in the way of that write: a result that cannot be built is logged and left
        out, and the game still ends."""
        try:
            options = self._game(rec).options_model.model_validate(rec.options)
            moved = await self.storage.move_log(rec.id)
            started = moved.dealt if moved.dealt is not None else rec.created_at
            log_ = list(moved.moves)
            if last is not None:
                log_.append(last)
            ordered = sorted(seats, key=lambda s: _seat_order(s.seat))
            quiet_hours = await self.storage.prefs(s.user_id for s in ordered
                                                   if s.user_id is not None)
            return memory.result_of_game(
                game, state, result, options, game_id=rec.id, guild_id=rec.guild_id,
                thread_id=rec.thread_id, seats=[(s.seat, s.position, s.user_id) for s in ordered],
                started_at=started, finished_at=now, moves=len(log_),
                ai_level=rec.settings.ai_level, log=log_, quiet=quiet_hours,
                away=moved.away,
                abandoned_because=because)
        except Exception:
            log.exception("game %s: its result could not be kept", rec.id)
            return None

    async def _abandoned_result(self, rec: GameRecord, because: str | None
                                ) -> GameResult | None:
        """An abandoned game's result, if it had been dealt (a lobby leaves nothing)."""
        if rec.status != "active" or rec.game not in self.games:
            return None
        try:
            state: GameState | None = await self._load(rec)
        except (TableError, ValidationError, ValueError):
            state = None  # unreadable: the seats are kept without their characters
        return await self._result_of(rec, self.games[rec.game], state, None,
                                     await self.storage.seats(rec.id), self.clock(),
                                     because=because)

    # ---- management ---------------------------------------------------------------------
    def _require_manager(self, rec: GameRecord, user_id: int, can_manage_threads: bool,
                         doing: str) -> None:
        if user_id != rec.created_by and not can_manage_threads:
            raise TableError(f"Only the player who created this game or a moderator (Manage "
                             f"Threads) can {doing}.", "TABLE-CREATOR")

    async def abandon(self, game_id: int, user_id: int, can_manage_threads: bool) -> GameRecord:
        async with self.lock(game_id):
            rec = await self._get(game_id)
            if rec.status not in LIVE:
                raise TableError("This game is already over.", "TABLE-OVER")
            self._require_manager(rec, user_id, can_manage_threads, "abandon it")
            ending = await self._abandoned_result(rec, None)
            rec = await self.storage.set_status(game_id, "abandoned", self.clock(), ending)
            self._cache.drop(game_id)
            self._ai_trail.pop(game_id, None)
        await self._changed(game_id)
        return rec

    async def _changed(self, game_id: int) -> None:
        """Run the `change_hooks` (each failure logged, none stops the others)."""
        for hook in list(self.change_hooks):
            try:
                await hook(game_id)
            except Exception:
                log.warning("game %s: a hook after a table change failed", game_id,
                            exc_info=True)

    async def mark_abandoned(self, game_id: int, reason: str) -> GameRecord | None:
        """The bot ends a live game itself (its thread was deleted...); no permission check.
        The reason is kept with the game (`GameSettings.ended_because`); its reminders end.
        None if there is no such game; an ended game is left as it is."""
        async with self.lock(game_id):
            rec = await self.storage.get_game(game_id)
            if rec is None or rec.status not in LIVE:
                return rec
            log.info("game %s abandoned: %s", game_id, reason)
            settings = rec.settings.model_copy(update={"ended_because": reason})
            rec = await self.storage.update_settings(game_id, settings, self.clock())
            ending = await self._abandoned_result(rec, reason)
            rec = await self.storage.set_status(game_id, "abandoned", self.clock(), ending)
            self._cache.drop(game_id)
            self._ai_trail.pop(game_id, None)
        await self._changed(game_id)
        return rec

    async def update_settings(
        self, game_id: int, user_id: int, changes: Mapping[str, Any],
        can_manage_threads: bool = False,
    ) -> dict[str, Any]:
        """Change table settings (creator or Manage Threads); returns all settings."""
        async with self.lock(game_id):
            rec = await self._get(game_id)
            if rec.status not in LIVE:
                raise TableError("This game is already over.", "TABLE-OVER")
            self._require_manager(rec, user_id, can_manage_threads, "change its settings")
            settings = self._check_settings(rec.settings, changes)
            rec = await self.storage.update_settings(game_id, settings, self.clock())
            if rec.status == "active" and rec.next_reminder_at is not None:
                # Re-arm the running wait's timer so new hours (or a new deadline) count
                # from when the wait began, not from the next old reminder.
                since = rec.awaited_since if rec.awaited_since is not None else rec.updated_at
                at = (since + self._interval(rec) if rec.reminder_stage == 0
                      else rec.next_reminder_at)
                if settings.policy == "enforced":
                    at = min(at, since + settings.enforce_after_hours * 3600.0)
                await self.storage.set_reminder(game_id, at, rec.reminder_stage,
                                                expected_version=rec.version)
            return rec.settings.model_dump(exclude={"ended_because"})

    async def set_board_message(self, game_id: int, message_id: int | None,
                                version: int | None = None, post: str | None = None) -> None:
        await self.storage.set_board_message(game_id, message_id, version, post)

    async def set_dms_ok(self, game_id: int, user_id: int, ok: bool) -> None:
        await self.storage.set_dms_ok(game_id, user_id, ok)

    # ---- AI seats and stand-ins -----------------------------------------------------------
    async def ai_turn(self, game_id: int) -> ActResult | None:
        """One move for an awaited seat the bot plays (an AI seat or an AI stand-in), at the
        table's level (`GameSettings.ai_level`); None when the game waits for no such seat.
        The cog calls it until None, posting each move.

        The AI thinks in a worker process (`bot.aipool`) without the game's lock: the state is
        read under the lock, the worker is awaited, and the move is applied at the version it
        was chosen for. A player who moved meanwhile (a simultaneous prompt) makes that move
        stale: the AI looks again at the new state."""
        for _ in range(AI_LOOKS):
            async with self.lock(game_id):
                rec = await self._get(game_id)
                if rec.status != "active":
                    self._ai_trail.pop(game_id, None)
                    return None
                driven = {s.seat for s in await self.storage.seats(game_id) if s.ai_driven}
                game = self._game(rec)
                state = await self._load(rec)
                seat = next((s for s in sorted(game.to_act(state), key=_seat_order)
                             if s in driven), None)
            if seat is None or not game.may_act(state, seat):
                return None
            action = await aipool.decide(game, state, seat, rec.settings.ai_level)
            action, choice = self._unloop(game_id, game, state, seat, action)
            try:
                res = await self._act(game_id, user_id=None, seat=seat,
                                      choose=_chosen(action),
                                      expected_version=rec.version, strict=True)
            except StaleAction:
                continue  # a player moved while the AI thought: look again
            if choice is not None:
                self._ai_trail.setdefault(game_id, deque(maxlen=AI_LOOP_WINDOW)).append(choice)
            return res
        return None

    def _unloop(self, game_id: int, game: AnyGame, state: GameState, seat: str,
                action: Action) -> tuple[Action, bytes | None]:
        """`action`, or the game's default when the AI is going round in a circle (see
        `AI_LOOP_REPEATS`): the game then moves on, where a circle would never end it. With it
        the digest of the choice made, for the game's trail once played (None: no choice)."""
        legal = game.legal_actions(state, seat)
        if len(legal) < 2:
            return action, None  # no choice, no circle of choices
        options = "\n".join(sorted(a.key() for a in legal))
        position = seen_position(game, state, seat)

        def digest(chosen: Action) -> bytes:
            # Two halves: the choice among the options, and the same from this position.
            text = f"{seat}\n{options}\n{chosen.key()}"
            loose = hashlib.blake2b(text.encode(), digest_size=8).digest()
            return loose + hashlib.blake2b(f"{text}\n{position}".encode(),
                                           digest_size=8).digest()

        trail = self._ai_trail.get(game_id, ())
        here = digest(action)
        again = sum(1 for d in trail if d == here)
        loose = sum(1 for d in trail if d[:8] == here[:8])
        circling = again >= AI_LOOP_REPEATS - 1
        if circling or loose >= AI_LOOP_LOOSE - 1:
            fallback = game.default_action(state, seat)
            if fallback is not None and fallback.key() != action.key():
                log.warning("game %s: the AI for %s chose %s %d times among the same options: "
                            "going round in a circle; playing the default %s instead",
                            game_id, seat, action.key(), (again if circling else loose) + 1,
                            fallback.key())
                return fallback, digest(fallback)
        return action, here

    async def hand_to_ai(self, game_id: int, seat: str) -> None:
        """The AI plays this human seat until its player comes back (acts or uses a command)."""
        await self.storage.set_ai_standin(game_id, seat, True)

    async def came_back(self, game_id: int | None, user_id: int) -> list[int]:
        """The player used a command: the AI stops standing in for them (in that game, or in
        every game when None). Returns the games where it stood in."""
        return await self.storage.clear_ai_standins(user_id, game_id)

    # ---- players' preferences ---------------------------------------------------------------
    async def prefs(self, user_id: int) -> PlayerPrefs:
        return (await self.storage.prefs([user_id]))[user_id]

    async def _set_prefs(self, user_id: int, **changes: Any) -> PlayerPrefs:
        current = await self.prefs(user_id)
        try:
            new = PlayerPrefs.model_validate({**current.model_dump(), **changes})
        except ValidationError as exc:
            raise TableError(explain_validation(PlayerPrefs, exc, "setting"),
                             "TABLE-PREFS") from exc
        await self.storage.set_prefs(new, self.clock())
        return new

    async def set_away(self, user_id: int, away: bool) -> PlayerPrefs:
        """Vacation on or off. Coming back also ends every AI stand-in for the player."""
        prefs = await self._set_prefs(user_id, away=away)
        if not away:
            await self.came_back(None, user_id)
        return prefs

    async def set_quiet(self, user_id: int, start: int | None, end: int | None,
                        tz_minutes: int = 0, tz_name: str | None = None) -> PlayerPrefs:
        """Quiet hours as minutes after local midnight (None, None: no quiet hours), in the
        zone `tz_name` (follows daylight saving) or else at the fixed offset `tz_minutes`."""
        return await self._set_prefs(user_id, quiet_start=start, quiet_end=end,
                                     tz_minutes=tz_minutes, tz_name=tz_name)

    async def set_notify_near(self, user_id: int, on: bool) -> PlayerPrefs:
        return await self._set_prefs(user_id, notify_near=on)

    async def reachable(self, user_ids: Iterable[int], now: float | None = None) -> set[int]:
        """Those of `user_ids` who may be pinged now (not away, not in quiet hours)."""
        at = self.clock() if now is None else now
        return {u for u, p in (await self.storage.prefs(user_ids)).items() if p.reachable(at)}

    async def near_turn(self, res: ActResult) -> list[int]:
        """Players who asked to hear when their turn is near and are next after the seat the
        game now waits for (only right after the turn moved on)."""
        if res.result is not None or not res.newly_awaited or len(res.awaited) != 1:
            return []
        game = self._game(res.record)
        hook = getattr(game, "next_to_act", None)
        if callable(hook):
            upcoming = [str(s) for s in hook(res.state)]
        else:
            order = list(res.state.seats)
            current = res.awaited[0]
            upcoming = ([order[(order.index(current) + 1) % len(order)]]
                        if current in order and len(order) > 1 else [])
        seats = {s.seat: s for s in await self.storage.seats(res.record.id)}
        users = [u for seat in upcoming if seat not in res.awaited and seat in seats
                 and not seats[seat].ai_driven and (u := seats[seat].user_id) is not None]
        prefs = await self.storage.prefs(users)
        now = self.clock()
        return [u for u in users if prefs[u].notify_near and prefs[u].reachable(now)]

    # ---- substitutes ----------------------------------------------------------------------
    async def replace(
        self, game_id: int, by_user: int, old_user: int, new_user: int,
        can_manage_threads: bool = False,
    ) -> ReplaceResult:
        """Give `old_user`'s seat to `new_user`: at once when the creator (or a moderator, or
        the seat's own player) asks, else as a vote of the other seats that carries on a
        majority of them."""
        async with self.lock(game_id):
            rec = await self._get(game_id)
            if rec.status == "lobby":
                raise TableError("The game hasn't started: players leave and join with "
                                 "`/game leave` and `/game join` instead.", "TABLE-LOBBY")
            self._require_active(rec)
            seats = await self.storage.seats(game_id)
            old = next((s for s in seats if s.user_id == old_user and old_user), None)
            if old is None:
                raise TableError("The player to replace isn't seated in this game.",
                                 "TABLE-NOT-SEATED")
            if old_user == new_user:
                raise TableError("Pick a different player to take the seat.", "TABLE-REPLACE")
            if any(s.user_id == new_user for s in seats):
                raise TableError("The new player already has a seat in this game.",
                                 "TABLE-SEATED")
            others = [s.user_id for s in seats if s.user_id is not None and s.seat != old.seat]
            direct = by_user in (rec.created_by, old_user) or can_manage_threads
            if not direct and by_user not in others:
                raise TableError("Only the game's creator or its players can replace a player.",
                                 "TABLE-CREATOR")
            state = await self._load(rec)
            now = self.clock()
            needed = len(others) // 2 + 1
            if direct:
                votes = needed
            else:
                await self.storage.vote_replace(game_id, old.seat, new_user, by_user, now)
                cast = await self.storage.replace_votes(game_id, old.seat)
                votes = sum(1 for voter, u in cast.items() if u == new_user and voter in others)
                if votes < needed:
                    return ReplaceResult(record=rec, seat=old.seat, old_user=old_user,
                                         new_user=new_user, done=False, votes=votes,
                                         needed=needed, state=state)
            try:
                await self.storage.replace_seat(game_id, old.seat, new_user, now)
            except DuplicateSeat as exc:
                raise TableError("The new player already has a seat in this game.",
                                 "TABLE-SEATED") from exc
            if rec.created_by == old_user:
                await self.storage.set_creator(game_id, new_user, now)
            rec = await self._get(game_id)
        await self._changed(game_id)
        return ReplaceResult(record=rec, seat=old.seat, old_user=old_user,
                             new_user=new_user, done=True, votes=votes, needed=needed,
                             state=state)

    # ---- spectators -----------------------------------------------------------------------
    async def spectate(self, game_id: int, user_id: int, follow: bool = True) -> bool:
        """Follow (or stop following) a game's public view. False if nothing changed."""
        async with self.lock(game_id):
            rec = await self._get(game_id)
            if follow:
                if rec.status not in LIVE:
                    raise TableError("This game is over; its thread stays readable.",
                                     "TABLE-OVER")
                if any(s.user_id == user_id for s in await self.storage.seats(game_id)):
                    raise TableError("You're playing in this game, so you already see it — "
                                     "and your own hand.", "TABLE-SEATED")
                return await self.storage.add_spectator(game_id, user_id, self.clock())
            return await self.storage.remove_spectator(game_id, user_id)

    async def is_spectator(self, game_id: int, user_id: int) -> bool:
        return user_id in await self.storage.spectators(game_id)

    # ---- rematch --------------------------------------------------------------------------
    async def check_rematch(self, game_id: int, user_id: int) -> GameRecord:
        """Refuses (TableError) unless `user_id` may start a rematch of this game now."""
        rec = await self._get(game_id)
        if rec.status in LIVE:
            raise TableError("This game is still going. A rematch starts once it is over (or "
                             "abandoned with `/game abandon`).", "TABLE-REMATCH")
        if rec.seed is None:
            raise TableError("This game never started, so there is nothing to replay — open "
                             "a new one with `/game new`.", "TABLE-REMATCH")
        if not any(s.user_id == user_id for s in await self.storage.seats(game_id)):
            raise TableError("Only the players of this game can start its rematch.",
                             "TABLE-NOT-SEATED")
        existing = await self.storage.find_game_by_rematch(game_id)
        if existing is not None:
            where = f" in <#{existing.thread_id}>" if existing.thread_id else ""
            raise TableError(f"This game already has a rematch (game #{existing.id}{where}).",
                             "TABLE-REMATCH")
        self._game(rec)
        return rec

    async def rematch(self, game_id: int, user_id: int, thread_id: int | None,
                      seed: int | None = None) -> StartResult:
        """A new game with the same seats (each player in the same seat), options and table
        settings and a new seed, started at once in `thread_id`."""
        async with self.lock(game_id):
            rec = await self.check_rematch(game_id, user_id)
            seats = sorted(await self.storage.seats(game_id), key=lambda s: _seat_order(s.seat))
            try:
                new = await self.storage.create_game(
                    guild_id=rec.guild_id, channel_id=rec.channel_id, thread_id=thread_id,
                    game=rec.game, options=dict(rec.options), created_by=rec.created_by,
                    engine_version=self._game(rec).version, settings=rec.settings,
                    now=self.clock(), seat_creator=False, rematch_of=rec.id)
            except DuplicateSeat as exc:
                raise TableError("This game already has a rematch.", "TABLE-REMATCH") from exc
            for seat in seats:
                await self.storage.add_seat(new.id, seat.user_id, self.clock())
        return await self.start(new.id, rec.created_by, seed)

    # ---- the log --------------------------------------------------------------------------
    async def history(self, game_id: int, upto_seq: int | None = None) -> list[LogEntry]:
        """Every applied action with the events it caused: whole chunks from the snapshots,
        the rest replayed from the last of them (the engine decides again what each of those
        moves told whom). The replay runs without the game's lock (moves go on meanwhile);
        the snapshots it passed are stored if no undo came between."""
        async with self.lock(game_id):
            rec = await self._get(game_id)
            if rec.seed is None:
                raise TableError("This game hasn't started yet.", "TABLE-LOBBY")
            job = await self._replay_job(rec, upto_seq, with_log=True)
        try:
            rebuilt = await self._run_job(rec, job)
        except (IllegalAction, ValidationError) as exc:
            log.warning("game %s: history cannot be replayed: %s", game_id, exc)
            raise TableError("This game's history was recorded by an older version of the "
                             "rules and can't be replayed.", "TABLE-VERSION") from exc
        await self._keep_snapshots(rec, rebuilt)
        return rebuilt.log

    async def replay_view(self, game_id: int, step: int) -> tuple[GameRecord, dict[str, Any]]:
        """The public view of the board after `step` actions (0: as dealt)."""
        rec, state = await self.replay_state(game_id, step)
        return rec, self._game(rec).view(state, None)

    async def replay_state(self, game_id: int, step: int) -> tuple[GameRecord, GameState]:
        """The game's state after `step` actions (0: as dealt), replayed from the log."""
        async with self.lock(game_id):
            rec = await self._get(game_id)
            if rec.seed is None:
                raise TableError("This game hasn't started yet.", "TABLE-LOBBY")
            if not 0 <= step <= rec.version:
                raise TableError(f"Pick a step from 0 (the deal) to {rec.version} (now).",
                                 "TABLE-STEP")
            try:
                state = await self._replay(rec, step)
            except (IllegalAction, ValidationError) as exc:
                raise TableError("This game's history was recorded by an older version of the "
                                 "rules and can't be replayed.", "TABLE-VERSION") from exc
            return rec, state


# ---- players' typed times ----------------------------------------------------------------------
def parse_clock(text: str) -> int:
    """`22`, `22:30`, `7:05`, `10pm` → minutes after midnight; TableError saying what to type."""
    raw = text.strip().lower().replace(".", ":")
    suffix = raw[-2:] if raw.endswith(("am", "pm")) else ""
    body = raw[:-2].strip() if suffix else raw
    hours, _, minutes = body.partition(":")
    try:
        h, m = int(hours), int(minutes or 0)
    except ValueError:
        h, m = -1, -1
    if suffix:
        h = -1 if not 1 <= h <= 12 else (h % 12) + (12 if suffix == "pm" else 0)
    if not (0 <= h <= 23 and 0 <= m <= 59):
        raise TableError(f"That isn't a time of day. Write it like `22`, `22:30` or `7am`. "
                         f"(You wrote `{excerpt(text)}`.)", "TABLE-PREFS")
    return h * 60 + m


def parse_tz(text: str) -> int:
    """`+2`, `-5:30`, `UTC+1`, `0` → minutes east of UTC; TableError saying what to type."""
    minutes = quiet.parse_offset(text)
    if minutes is None:
        raise TableError("That isn't a UTC offset. Write it like `+2`, `-5`, `+5:30` or "
                         f"`UTC+1` (from -14 to +14). (You wrote `{excerpt(text)}`.)",
                         "TABLE-PREFS")
    return minutes


def parse_zone(text: str) -> tuple[int, str | None]:
    """A time zone as a player types it: a zone name (`Europe/Paris`, any case), kept so
    quiet hours follow daylight saving, or a UTC offset (`+2`, `-5:30`) → (offset minutes,
    zone name or None); TableError saying what to type."""
    minutes = quiet.parse_offset(text)
    if minutes is not None:
        return minutes, None
    name = quiet.find_zone(text)
    if name is None:
        raise TableError("That isn't a time zone. Pick a name from the list, like "
                         "`Europe/Paris` or `America/New_York` (they follow daylight saving), "
                         f"or write an offset like `+2` or `-5:30`. (You wrote "
                         f"`{excerpt(text)}`.)", "TABLE-PREFS")
    return 0, name


def clock_text(minutes: int) -> str:
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def tz_text(minutes: int) -> str:
    return quiet.offset_text(minutes)
