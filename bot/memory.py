"""The memory of finished games (issue #24): what a game leaves behind when it ends, and the
history and stats read back from it.

This module owns the `results`, `result_seats`, `ratings`, `rating_history` and `servers`
tables (bot/schema.py); `away_periods` is written by storage as `/game away` turns on and off
and read back with the move log (`MoveLog`). When a game ends (over, or abandoned after its
deal) the table service builds its `GameResult` with `result_of_game` from the ending's public
facts only (who sat where, their roles and characters as the board names them, the result in
words, the move log's times less each player's quiet hours and away periods) and storage writes
it with `record` in the very transaction that ends the game; ratings move in it too
(`bot.ratings`). Commands read these rows and never replay a game: history is one indexed page
of results, stats one query per question.

Hidden hands and scripts never get here: a result is built only once its game is over, from
the seats' public labels and the public result sentence.
"""

from __future__ import annotations

import functools
import re
import statistics
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import (
    Executable,
    and_,
    bindparam,
    case,
    func,
    insert,
    select,
)
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from bot import ratings as rating_rules
from bot.ratings import RatedSeat, Rating, Who
from bot.schema import rating_history, ratings, result_seats, results, servers
from rules.core.game import Game, GameOptions, GameState, strip_rule_ids
from rules.core.types import Result

if TYPE_CHECKING:
    from bot.coresql import CoreConnection

SeatOutcome = Literal["won", "lost", "drew"]
TABLE_ROLE = "Player"
"""The role of every seat in a mode without an opposing role (co-op, solo)."""
TABLE_SIDE = "table"
QUIET_STEPS = 400
"""At most this many quiet windows are looked at for one wait (over a year of nights)."""
Run = Callable[[Executable, dict[str, Any] | list[dict[str, Any]]], Any]
"""Runs one statement of a storage write body (`bot.storage.Run`): `.rows`, `.rowcount`."""


class QuietHours(Protocol):
    """What a player's preferences tell of their nights (`bot.storage.PlayerPrefs`)."""

    def quiet_window(self, now: float) -> tuple[float, float] | None: ...


# ---- what a game leaves behind ----------------------------------------------------------------
class SeatResult(BaseModel):
    model_config = ConfigDict(frozen=True)

    seat: str
    position: int
    user_id: int | None
    """None for an AI seat."""
    role: str
    """The seat's side as the lobby names it ("Ghost player", "Investigator"; "Player" when
    every seat plays together)."""
    side: str
    outcome: SeatOutcome | None
    """None for an abandoned game."""
    ai: bool = False
    character: str | None = None
    """Who the seat played, when the game names it beyond the role ("Photographer")."""
    moves: int = 0
    """Moves its player made (the AI's and the bot's own moves for them not counted)."""
    move_seconds: float | None = None
    """The median time its player took to move in this game, quiet hours and away time left
    out."""


class GameResult(BaseModel):
    model_config = ConfigDict(frozen=True)

    game_id: int
    guild_id: int
    thread_id: int | None
    game: str
    mode: str
    started_at: float
    finished_at: float
    moves: int
    outcome: str
    """The result in words, players as seat marks (`outcome_words` names them)."""
    abandoned: bool = False
    has_ai: bool = False
    rated: bool = False
    ai_level: str = "normal"
    seats: list[SeatResult] = Field(default_factory=list)

    @property
    def coop(self) -> bool:
        return len({s.side for s in self.seats}) <= 1


def _plain(words: str) -> str:
    """ "the Ghost player" -> "Ghost player", "an investigator" -> "Investigator"."""
    words = re.sub(r"^(?:the|an?)\s+", "", words.strip(), flags=re.IGNORECASE)
    words = re.sub(r"\bthe\s+", "", words, flags=re.IGNORECASE)
    return words[:1].upper() + words[1:]


def seat_roles(game: Game[Any, Any], state: GameState | None, options: GameOptions,
               seat_ids: Sequence[str]) -> dict[str, tuple[str, str, str | None]]:
    """Each seat's (role, side, character) from the public labels of the board: the role the
    lobby offers (the opposing role's seat, everyone else) and the character the game names."""
    role = game.role_seat(options)
    order = list(state.seats) if state is not None else list(seat_ids)
    held = None
    if role is not None:
        index = getattr(options, role[0], None)
        if isinstance(index, int) and 0 <= index < len(order):
            held = order[index]
    out: dict[str, tuple[str, str, str | None]] = {}
    for seat in seat_ids:
        if role is None or held is None:
            name, side = TABLE_ROLE, TABLE_SIDE
        elif seat == held:
            name = side = _plain(role[1])
        else:
            name = side = _plain(role[2])
        character = None
        if state is not None and seat in state.seats and game.seat_label(state, seat) != seat:
            words = _plain(game.role_words(state, seat))
            if words.casefold().startswith(name.casefold()):
                words = words[len(name):].lstrip(" ,:")
            character = (words[:1].upper() + words[1:]) or None
        out[seat] = (name, side, character)
    return out


def seat_mark(seat: str) -> str:
    return f"[[{seat}]]"


_MARK = re.compile(r"\[\[([A-Za-z0-9_]{1,16})\]\]")


def outcome_words(outcome: str, names: Mapping[str, str]) -> str:
    """A stored result sentence with its seat marks replaced by `names` (seat -> words)."""
    return _MARK.sub(lambda m: names.get(m.group(1), "a player"), outcome)


AwayPeriod = tuple[float, float | None]
"""When a player went away and came back (None: still away), epoch seconds."""


class MoveLog(BaseModel):
    """What a finished game's move times are told from (`Storage.move_log`): when it was
    dealt, each stored move's (seat, who pressed it, when), and the away periods of those who
    sat or moved in it."""

    model_config = ConfigDict(frozen=True)

    dealt: float | None
    """None: not started, or dealt before this was kept."""
    moves: list[tuple[str, int | None, float]] = Field(default_factory=list)
    away: dict[int, list[AwayPeriod]] = Field(default_factory=dict)


def quiet_windows(quiet: QuietHours | None, begins: float, ends: float
                  ) -> list[tuple[float, float]]:
    """The player's quiet hours within [begins, ends] (their current ones: the bot keeps no
    history of them)."""
    if quiet is None or ends <= begins:
        return []
    out: list[tuple[float, float]] = []
    at = begins
    for _ in range(QUIET_STEPS):
        window = quiet.quiet_window(at)
        if window is None or window[0] >= ends:
            break
        lo, hi = max(at, window[0]), min(ends, window[1])
        if hi > lo:
            out.append((lo, hi))
        if window[1] <= at:  # never loop on a window that does not move on
            break
        at = window[1]
    return out


def away_windows(periods: Sequence[AwayPeriod], begins: float, ends: float
                 ) -> list[tuple[float, float]]:
    """The player's away periods within [begins, ends] (one still open runs to `ends`)."""
    out: list[tuple[float, float]] = []
    for went, back in periods:
        lo, hi = max(begins, went), min(ends, back if back is not None else ends)
        if hi > lo:
            out.append((lo, hi))
    return out


def covered(windows: Sequence[tuple[float, float]]) -> float:
    """How long these windows cover together: a night spent away counts once, not twice."""
    total, reach = 0.0, float("-inf")
    for lo, hi in sorted(windows):
        if hi <= reach:
            continue
        total += hi - max(lo, reach)
        reach = hi
    return total


def quiet_seconds(quiet: QuietHours | None, begins: float, ends: float) -> float:
    """How much of [begins, ends] fell in the player's quiet hours."""
    return covered(quiet_windows(quiet, begins, ends))


def move_times(started_at: float, log: Sequence[tuple[str, int | None, float]],
               quiet: Mapping[int, QuietHours],
               away: Mapping[int, Sequence[AwayPeriod]] | None = None,
               ) -> dict[str, tuple[int, float | None]]:
    """Per seat: the moves its player made and their median time (seconds). A move's time runs
    from the move before it (anyone's; the deal for the first) to it, less the player's quiet
    hours and away time (once where they overlap); moves the bot made (AI, default moves) are
    not the player's and are left out."""
    waits: dict[str, list[float]] = {}
    before = started_at
    gone = away or {}
    for seat, user_id, at in log:
        if user_id is not None:
            off = covered(quiet_windows(quiet.get(user_id), before, at)
                          + away_windows(gone.get(user_id, ()), before, at))
            waits.setdefault(seat, []).append(max(0.0, max(0.0, at - before) - off))
        before = at
    return {seat: (len(w), statistics.median(w) if w else None) for seat, w in waits.items()}


def result_of_game(
    game: Game[Any, Any], state: GameState | None, result: Result | None,
    options: GameOptions, *, game_id: int, guild_id: int, thread_id: int | None,
    seats: Sequence[tuple[str, int, int | None]], started_at: float, finished_at: float,
    moves: int, ai_level: str, log: Sequence[tuple[str, int | None, float]],
    quiet: Mapping[int, QuietHours], away: Mapping[int, Sequence[AwayPeriod]] | None = None,
    abandoned_because: str | None = None,
) -> GameResult:
    """What a game that just ended leaves behind. `seats`: (seat id, position, user id or
    None); `result` None means abandoned; `log`: each stored move's (seat, who pressed it,
    when); `quiet` and `away`: each player's quiet hours and away periods, left out of their
    move times. Only public facts: the seats' labels and the result sentence."""
    abandoned = result is None
    roles = seat_roles(game, state, options, [s for s, _, _ in seats])
    times = move_times(started_at, log, quiet, away)
    if result is not None and state is not None:
        # Players are named by seat marks (`[[s1]]`), filled in as each reader may see them
        # (`outcome_words`): a name changes, a player may hide, the seat stays.
        marks = {seat: seat_mark(seat) for seat, _, _ in seats}
        outcome = strip_rule_ids(game.result_text(state, result, marks))
    else:
        outcome = "Abandoned" + (f" ({abandoned_because})." if abandoned_because else ".")
    out: list[SeatResult] = []
    for seat, position, user_id in seats:
        role, side, character = roles[seat]
        won: SeatOutcome | None = None
        if result is not None:
            won = ("won" if seat in result.winners else "lost" if seat in result.losers
                   else "drew")
        made, median = times.get(seat, (0, None))
        out.append(SeatResult(seat=seat, position=position, user_id=user_id, role=role,
                              side=side, outcome=won, ai=user_id is None, character=character,
                              moves=made if user_id is not None else 0,
                              move_seconds=median if user_id is not None else None))
    return GameResult(game_id=game_id, guild_id=guild_id, thread_id=thread_id, game=game.name,
                      mode=options.mode, started_at=started_at, finished_at=finished_at,
                      moves=moves, outcome=outcome, abandoned=abandoned,
                      has_ai=any(s.ai for s in out), ai_level=ai_level, seats=out)


# ---- writing it (inside the storage's transaction that ends the game) ---------------------------
_INSERT_RESULT = insert(results)
_INSERT_SEAT = insert(result_seats)
_SERVER_RATINGS = select(servers.c.ratings).where(servers.c.guild_id == bindparam("gid"))
# FOR UPDATE (PostgreSQL; SQLite's writes are one at a time anyway): two games ending at once
# for the same player rate one after the other.
_RATING = select(ratings.c.mu, ratings.c.sigma, ratings.c.games).where(
    ratings.c.user_id == bindparam("uid"), ratings.c.game == bindparam("game"),
    ratings.c.opponent == bindparam("opp")).with_for_update()
_RATING_KEY = ("user_id", "game", "opponent")
_RATING_MOVES = ("mu", "sigma", "games", "updated_at")


def _upsert(ins: Any) -> Any:
    """INSERT a rating, or move the one already there: a newcomer's first two games ending at
    once never fail the move that ends the second."""
    return ins.on_conflict_do_update(index_elements=list(_RATING_KEY),
                                     set_={c: ins.excluded[c] for c in _RATING_MOVES})


_SQLITE_UPSERT_RATING = _upsert(sqlite_insert(ratings))


@functools.cache
def _pg_upsert_rating() -> Any:
    # PostgreSQL's dialect only where it is used (2.4 MiB a bot on SQLite never loads).
    from sqlalchemy.dialects.postgresql import insert as pg_insert

    return _upsert(pg_insert(ratings))
_INSERT_HISTORY = insert(rating_history)
_HAS_RESULT = select(results.c.game_id).where(results.c.game_id == bindparam("gid"))


def record(run: Run, res: GameResult, dialect: str = "sqlite") -> bool:
    """Write the result, its seats and the ratings it moves, with `run` (one statement at a
    time, inside the transaction that ends the game, on `dialect`'s database). Once per
    game: a second call writes nothing. Returns whether the game was rated."""
    if run(_HAS_RESULT, {"gid": res.game_id}).rows:
        return False
    rated = not res.abandoned and _ratings_on(run, res.guild_id)
    moved: dict[Who, Rating] = {}
    if rated:
        seated = [RatedSeat(user_id=s.user_id, side=s.side, outcome=s.outcome)
                  for s in res.seats if s.outcome is not None]
        teams = rating_rules.teams_of(seated, res.mode, res.ai_level)
        current = {who: _rating(run, who, res.game) for members, _ in teams for who in members}
        moved = rating_rules.rate_game(seated, res.mode, res.ai_level,
                                       {w: r for w, r in current.items() if r is not None})
        upsert = _SQLITE_UPSERT_RATING if dialect == "sqlite" else _pg_upsert_rating()
        for who, new in moved.items():
            run(upsert, {"user_id": who.user_id, "game": res.game, "opponent": who.opponent,
                         "mu": new.mu, "sigma": new.sigma, "games": new.games,
                         "updated_at": res.finished_at})
        run(_INSERT_HISTORY, [{"user_id": who.user_id, "game_id": res.game_id,
                               "game": res.game, "at": res.finished_at, "mu": new.mu,
                               "sigma": new.sigma}
                              for who, new in moved.items() if who.is_person])
    run(_INSERT_RESULT, {
        "game_id": res.game_id, "guild_id": res.guild_id, "thread_id": res.thread_id,
        "game": res.game, "mode": res.mode, "started_at": res.started_at,
        "finished_at": res.finished_at, "moves": res.moves, "outcome": res.outcome,
        "abandoned": int(res.abandoned), "has_ai": int(res.has_ai), "rated": int(bool(moved))})
    run(_INSERT_SEAT, [{
        "game_id": res.game_id, "seat": s.seat, "position": s.position, "user_id": s.user_id,
        "role": s.role, "side": s.side, "outcome": s.outcome, "ai": int(s.ai),
        "character": s.character, "moves": s.moves, "move_seconds": s.move_seconds}
        for s in res.seats])
    return bool(moved)


def _ratings_on(run: Run, guild_id: int) -> bool:
    row = run(_SERVER_RATINGS, {"gid": guild_id}).first()
    return row is None or bool(row[0])


def _rating(run: Run, who: Who, game: str) -> Rating | None:
    row = run(_RATING, {"uid": who.user_id, "game": game, "opp": who.opponent}).first()
    return None if row is None else Rating(mu=row[0], sigma=row[1], games=row[2])


# ---- reading it back ----------------------------------------------------------------------------
HISTORY_PAGE = 5


class HistoryPage(BaseModel):
    model_config = ConfigDict(frozen=True)

    entries: list[GameResult]
    total: int
    """How many finished games match (every page)."""


def _history_filter(guild_id: int, user_id: int | None, game: str | None) -> list[Any]:
    where: list[Any] = [results.c.guild_id == guild_id]
    if game is not None:
        where.append(results.c.game == game)
    if user_id is not None:
        where.append(results.c.game_id.in_(
            select(result_seats.c.game_id).where(result_seats.c.user_id == user_id)))
    return where


async def history(db: CoreConnection, guild_id: int, *, user_id: int | None = None,
                  game: str | None = None, page: int = 0, per_page: int = HISTORY_PAGE
                  ) -> HistoryPage:
    """One page of the server's finished games, newest first (optionally one player's, one
    game's), with their seats."""
    where = _history_filter(guild_id, user_id, game)
    total = int((await db.execute(select(func.count()).select_from(results)
                                  .where(*where))).scalar_one())
    rows = (await db.execute(
        select(*results.c).where(*where)
        .order_by(results.c.finished_at.desc(), results.c.game_id.desc())
        .limit(per_page).offset(max(0, page) * per_page))).all()
    ids = [int(r.game_id) for r in rows]
    seated: dict[int, list[SeatResult]] = {}
    if ids:
        for s in (await db.execute(select(*result_seats.c)
                                   .where(result_seats.c.game_id.in_(ids))
                                   .order_by(result_seats.c.game_id,
                                             result_seats.c.position))).all():
            seated.setdefault(int(s.game_id), []).append(_seat_result(s))
    return HistoryPage(total=total, entries=[_game_result(r, seated.get(int(r.game_id), []))
                                             for r in rows])


def _seat_result(row: Any) -> SeatResult:
    return SeatResult(seat=row.seat, position=row.position, user_id=row.user_id, role=row.role,
                      side=row.side, outcome=row.outcome, ai=bool(row.ai),
                      character=row.character, moves=row.moves, move_seconds=row.move_seconds)


def _game_result(row: Any, seats: list[SeatResult]) -> GameResult:
    return GameResult(game_id=row.game_id, guild_id=row.guild_id, thread_id=row.thread_id,
                      game=row.game, mode=row.mode, started_at=row.started_at,
                      finished_at=row.finished_at, moves=row.moves, outcome=row.outcome,
                      abandoned=bool(row.abandoned), has_ai=bool(row.has_ai),
                      rated=bool(row.rated), seats=seats)


# ---- one player's stats -------------------------------------------------------------------------
class RoleStats(BaseModel):
    """One player's figures in one game and role (games without AI seats, not abandoned)."""

    game: str
    role: str
    played: int = 0
    won: int = 0
    lost: int = 0
    drew: int = 0
    move_seconds: float | None = None
    """The median of their games' median times to move."""


class GameStats(BaseModel):
    """One player's figures in one game title."""

    game: str
    played: int = 0
    won: int = 0
    streak: int = 0
    """Wins in a row up to their latest game (0 after a loss or a draw)."""
    best_streak: int = 0
    characters: list[tuple[str, int]] = Field(default_factory=list)
    """Their favourite characters, most played first (at most three)."""
    rating: Rating | None = None
    with_ai: int = 0
    """Finished games of this title with AI seats (counted apart)."""
    won_with_ai: int = 0
    abandoned: int = 0


class PlayerStats(BaseModel):
    user_id: int
    roles: list[RoleStats] = Field(default_factory=list)
    games: list[GameStats] = Field(default_factory=list)
    move_seconds: float | None = None
    """The median time to move over every game they finished."""

    @property
    def played(self) -> int:
        return sum(g.played for g in self.games)


_PLAYER_ROWS = (
    select(results.c.game, result_seats.c.role, result_seats.c.outcome,
           result_seats.c.character, result_seats.c.move_seconds, results.c.abandoned,
           results.c.has_ai)
    .select_from(result_seats.join(results, results.c.game_id == result_seats.c.game_id))
    .where(result_seats.c.user_id == bindparam("uid"), results.c.guild_id == bindparam("gid"))
    .order_by(results.c.finished_at, results.c.game_id))


async def player_stats(db: CoreConnection, guild_id: int, user_id: int,
                       show_ratings: bool) -> PlayerStats:
    """A player's figures in this server: one pass over their own result rows (the
    `result_seats_user` index), oldest first so streaks count in order."""
    rows = (await db.execute(_PLAYER_ROWS, {"uid": user_id, "gid": guild_id})).all()
    rated = await ratings_of(db, user_id) if show_ratings else {}
    return tally(user_id, [(r[0], r[1], r[2], r[3], r[4], bool(r[5]), bool(r[6])) for r in rows],
                 rated)


StatRow = tuple[str, str, str | None, str | None, float | None, bool, bool]
"""(game, role, outcome, character, move seconds, abandoned, has AI), oldest first."""


@dataclass(slots=True)
class _RoleCount:
    played: int = 0
    won: int = 0
    lost: int = 0
    drew: int = 0
    times: list[float] = field(default_factory=list)


@dataclass(slots=True)
class _GameCount:
    played: int = 0
    won: int = 0
    streak: int = 0
    best_streak: int = 0
    with_ai: int = 0
    won_with_ai: int = 0
    abandoned: int = 0
    characters: Counter[str] = field(default_factory=Counter)


def tally(user_id: int, rows: Sequence[StatRow], rated: Mapping[str, Rating]) -> PlayerStats:
    """`PlayerStats` from a player's result rows (pure: the bench and tests call it too).
    Counted in plain slots, the models built once at the end: 10,000 rows in a few ms."""
    roles: dict[tuple[str, str], _RoleCount] = {}
    per_game: dict[str, _GameCount] = {}
    times: list[float] = []
    for game, role, outcome, character, seconds, abandoned, has_ai in rows:
        g = per_game.get(game)
        if g is None:
            g = per_game[game] = _GameCount()
        if abandoned:
            g.abandoned += 1
            continue
        won = outcome == "won"
        if has_ai:
            # Games with AI seats are counted apart: a win against the AI is not a table's win.
            g.with_ai += 1
            g.won_with_ai += won
            continue
        r = roles.get((game, role))
        if r is None:
            r = roles[(game, role)] = _RoleCount()
        r.played += 1
        r.won += won
        r.lost += outcome == "lost"
        r.drew += outcome == "drew"
        g.played += 1
        g.won += won
        g.streak = g.streak + 1 if won else 0
        if g.streak > g.best_streak:
            g.best_streak = g.streak
        if character:
            g.characters[character] += 1
        if seconds is not None:
            r.times.append(seconds)
            times.append(seconds)
    games = [GameStats(game=game, played=g.played, won=g.won, streak=g.streak,
                       best_streak=g.best_streak, characters=g.characters.most_common(3),
                       rating=rated.get(game), with_ai=g.with_ai, won_with_ai=g.won_with_ai,
                       abandoned=g.abandoned) for game, g in per_game.items()]
    role_stats = [RoleStats(game=game, role=role, played=r.played, won=r.won, lost=r.lost,
                            drew=r.drew,
                            move_seconds=statistics.median(r.times) if r.times else None)
                  for (game, role), r in roles.items()]
    return PlayerStats(user_id=user_id, games=sorted(games, key=lambda g: (-g.played, g.game)),
                       roles=sorted(role_stats, key=lambda r: (r.game, -r.played, r.role)),
                       move_seconds=statistics.median(times) if times else None)


async def ratings_of(db: CoreConnection, user_id: int) -> dict[str, Rating]:
    """A person's rating in every game title they were rated in."""
    rows = (await db.execute(select(ratings.c.game, ratings.c.mu, ratings.c.sigma,
                                    ratings.c.games)
                             .where(ratings.c.user_id == user_id,
                                    ratings.c.opponent == ""))).all()
    return {r[0]: Rating(mu=r[1], sigma=r[2], games=r[3]) for r in rows}


async def table_ratings(db: CoreConnection, user_ids: Sequence[int], game: str
                        ) -> dict[int, Rating]:
    """The ratings of these people in one game title (the lobby card)."""
    if not user_ids:
        return {}
    rows = (await db.execute(select(ratings.c.user_id, ratings.c.mu, ratings.c.sigma,
                                    ratings.c.games)
                             .where(ratings.c.user_id.in_(sorted(set(user_ids))),
                                    ratings.c.game == game, ratings.c.opponent == ""))).all()
    return {int(r[0]): Rating(mu=r[1], sigma=r[2], games=r[3]) for r in rows}


async def rating_line(db: CoreConnection, user_id: int, game: str
                      ) -> list[tuple[float, Rating]]:
    """A person's rating in one game after each rated game, oldest first (a line over time)."""
    rows = (await db.execute(select(rating_history.c.at, rating_history.c.mu,
                                    rating_history.c.sigma)
                             .where(rating_history.c.user_id == user_id,
                                    rating_history.c.game == game)
                             .order_by(rating_history.c.at))).all()
    return [(r[0], Rating(mu=r[1], sigma=r[2])) for r in rows]


# ---- a server's stats ---------------------------------------------------------------------------
class RoleRate(BaseModel):
    """How a role fares in one game and mode in this server (a table's balance figures)."""

    game: str
    mode: str
    role: str
    played: int
    won: int
    lost: int = 0


class ServerStats(BaseModel):
    finished: int = 0
    """Finished games without AI seats."""
    with_ai: int = 0
    abandoned: int = 0
    games: list[tuple[str, int]] = Field(default_factory=list)
    """Game titles by finished games (AI tables included), most played first."""
    roles: list[RoleRate] = Field(default_factory=list)
    busiest: list[tuple[int, int]] = Field(default_factory=list)
    """(user, finished games), the ten busiest first (those who hide their stats are left
    out where they are shown)."""


async def server_stats(db: CoreConnection, guild_id: int) -> ServerStats:
    """A server's figures: a few GROUP BY queries over its results (indexes on guild)."""
    here = results.c.guild_id == guild_id
    kinds = (await db.execute(
        select(results.c.abandoned, results.c.has_ai, func.count())
        .where(here).group_by(results.c.abandoned, results.c.has_ai))).all()
    out = ServerStats()
    for abandoned, has_ai, n in kinds:
        if abandoned:
            out.abandoned += int(n)
        elif has_ai:
            out.with_ai += int(n)
        else:
            out.finished += int(n)
    finished = and_(here, results.c.abandoned == 0)
    out.games = [(r[0], int(r[1])) for r in (await db.execute(
        select(results.c.game, func.count().label("n")).where(finished)
        .group_by(results.c.game).order_by(func.count().desc(), results.c.game))).all()]
    joined = result_seats.join(results, results.c.game_id == result_seats.c.game_id)
    won = func.sum(case((result_seats.c.outcome == "won", 1), else_=0))
    lost = func.sum(case((result_seats.c.outcome == "lost", 1), else_=0))
    out.roles = [RoleRate(game=r[0], mode=r[1], role=r[2], played=int(r[3]), won=int(r[4] or 0),
                          lost=int(r[5] or 0))
                 for r in (await db.execute(
                     select(results.c.game, results.c.mode, result_seats.c.role, func.count(),
                            won, lost)
                     .select_from(joined)
                     .where(finished, results.c.has_ai == 0)
                     .group_by(results.c.game, results.c.mode, result_seats.c.role)
                     .order_by(results.c.game, results.c.mode, result_seats.c.role))).all()]
    out.busiest = [(int(r[0]), int(r[1])) for r in (await db.execute(
        select(result_seats.c.user_id, func.count().label("n")).select_from(joined)
        .where(finished, result_seats.c.user_id.isnot(None))
        .group_by(result_seats.c.user_id).order_by(func.count().desc(), result_seats.c.user_id)
        .limit(10))).all()]
    return out


# ---- choices: a server's ratings, a player's privacy ---------------------------------------------
async def ratings_on(db: CoreConnection, guild_id: int) -> bool:
    row = (await db.execute(select(servers.c.ratings)
                            .where(servers.c.guild_id == guild_id))).first()
    return row is None or bool(row[0])


async def game_result(db: CoreConnection, game_id: int) -> GameResult | None:
    """One game's result with its seats (None: it left none)."""
    row = (await db.execute(select(*results.c).where(results.c.game_id == game_id))).first()
    if row is None:
        return None
    seats = [_seat_result(s) for s in (await db.execute(
        select(*result_seats.c).where(result_seats.c.game_id == game_id)
        .order_by(result_seats.c.position))).all()]
    return _game_result(row, seats)
