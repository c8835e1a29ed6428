"""The memory of finished games (issue #24, bot/memory.py) on both backends: a game that ends
leaves its result, seats, move times and ratings in the transaction that ends it; history and
stats read them back; an abandoned game is kept apart and unrated; a server can turn ratings
off; a player can hide their stats."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot import memory
from bot.migrations import LATEST
from bot.ratings import START_MU
from bot.storage import PlayerPrefs, SqliteStorage, Storage
from bot.tables import TableService
from tests.bot import GAMES, GUILD, HOUR, T0, FakeClock, lobby, started

A, B, C = 101, 102, 103


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def tables(storage: Storage, clock: FakeClock) -> TableService:
    return TableService(storage, GAMES, clock=clock, seed_source=lambda: 1234)


FIRST_WINS, SECOND_WINS = 20, 1
"""Seeds whose deal gives every card of one seat (s1, s2) above every card of the other."""


async def play_out(tables: TableService, clock: FakeClock, gid: int, *,
                   seconds: float = 60.0) -> None:
    """Every awaited seat plays its first choice until the game ends, `seconds` apart."""
    for _ in range(100):
        awaited = await tables.awaited(gid)
        if not awaited:
            return
        seat, user = sorted(awaited.items())[0]
        actions = await tables.legal_actions(gid, user) if user is not None else []
        clock.advance(seconds=seconds)
        if user is None:
            await tables.play_ai(gid, seat)
            continue
        await tables.act(gid, user, actions[0])
    raise AssertionError("the game did not end")


async def test_a_finished_game_leaves_its_result_seats_and_ratings(
        storage: Storage, tables: TableService, clock: FakeClock) -> None:
    start = await started(tables, (A, B), seed=FIRST_WINS)
    gid = start.record.id
    assert await storage.game_result(gid) is None  # nothing before the end
    await play_out(tables, clock, gid, seconds=90.0)
    res = await storage.game_result(gid)
    assert res is not None and not res.abandoned and not res.has_ai and res.rated
    assert (res.guild_id, res.game, res.mode, res.thread_id) == (GUILD, "highcard",
                                                                  "standard", 3000)
    assert res.started_at == T0 and res.finished_at == clock() and res.moves == 9
    assert "Highest score" in res.outcome
    by_user = {s.user_id: s for s in res.seats}
    assert by_user[A].outcome == "won" and by_user[B].outcome == "lost"
    assert {s.role for s in res.seats} == {"Player"}  # High Card has no opposing role
    # Each move came 90 s after the one before it.
    assert by_user[A].move_seconds == 90.0 and by_user[B].move_seconds == 90.0
    assert by_user[A].moves + by_user[B].moves == 9
    # Ratings: the winner up, the loser down, each with one game.
    got = await storage.table_ratings([A, B], "highcard")
    assert got[A].mu > START_MU > got[B].mu and got[A].games == got[B].games == 1
    assert [r.mu for _, r in await storage.rating_line(A, "highcard")] == [got[A].mu]


async def test_history_pages_newest_first_and_filters(
        storage: Storage, tables: TableService, clock: FakeClock) -> None:
    ids = []
    for i, pair in enumerate([(A, B), (B, C), (A, C)]):
        start = await started(tables, pair, thread=3000 + i, seed=FIRST_WINS)
        await play_out(tables, clock, start.record.id)
        ids.append(start.record.id)
    page = await storage.history(GUILD, per_page=2)
    assert page.total == 3 and [e.game_id for e in page.entries] == [ids[2], ids[1]]
    assert [e.game_id for e in (await storage.history(GUILD, per_page=2, page=1)).entries] \
        == [ids[0]]
    mine = await storage.history(GUILD, user_id=C)
    assert mine.total == 2 and [e.game_id for e in mine.entries] == [ids[2], ids[1]]
    assert (await storage.history(GUILD, game="exorcism")).total == 0
    assert (await storage.history(GUILD + 1)).total == 0  # another server's games stay there


async def test_stats_count_wins_streaks_and_keep_ai_and_abandoned_apart(
        storage: Storage, tables: TableService, clock: FakeClock) -> None:
    for i, seed in enumerate([FIRST_WINS, FIRST_WINS, SECOND_WINS, FIRST_WINS]):
        start = await started(tables, (A, B), thread=3000 + i, seed=seed)
        await play_out(tables, clock, start.record.id)
    # A game against the AI, and one abandoned after the deal: counted apart.
    rec = await lobby(tables, (A,), thread=3100)
    await tables.add_ai(rec.id, A)
    await tables.start(rec.id, A, seed=FIRST_WINS)
    await play_out(tables, clock, rec.id)
    gone = await started(tables, (A, B), thread=3200)
    await tables.abandon(gone.record.id, A, can_manage_threads=False)
    # A lobby given up before its deal leaves nothing.
    empty = await lobby(tables, (A,), thread=3300)
    await tables.leave(empty.id, A)
    assert await storage.game_result(empty.id) is None

    stats = await storage.player_stats(GUILD, A)
    game = stats.games[0]
    assert (game.played, game.won, game.streak, game.best_streak) == (4, 3, 1, 2)
    assert (game.with_ai, game.won_with_ai, game.abandoned) == (1, 1, 1)
    role = stats.roles[0]
    assert (role.played, role.won, role.lost) == (4, 3, 1) and role.move_seconds == 60.0
    assert game.rating is not None and game.rating.games == 5  # 4 tables + the AI table

    server = await storage.server_stats(GUILD)
    assert (server.finished, server.with_ai, server.abandoned) == (4, 1, 1)
    assert server.games == [("highcard", 5)]
    assert [(r.role, r.played, r.won) for r in server.roles] == [("Player", 8, 4)]
    assert server.busiest == [(A, 5), (B, 4)]  # finished games, abandoned left out
    ai = await storage.game_result(rec.id)
    assert ai is not None and ai.has_ai and [s.ai for s in ai.seats] == [False, True]
    abandoned = await storage.game_result(gone.record.id)
    assert abandoned is not None and abandoned.abandoned and not abandoned.rated
    assert all(s.outcome is None for s in abandoned.seats)
    assert abandoned.outcome == "Abandoned."


async def test_a_server_with_ratings_off_moves_none(
        storage: Storage, tables: TableService, clock: FakeClock) -> None:
    assert await storage.ratings_on(GUILD)
    await storage.set_ratings_on(GUILD, False, T0)
    assert not await storage.ratings_on(GUILD)
    start = await started(tables, (A, B), seed=FIRST_WINS)
    await play_out(tables, clock, start.record.id)
    res = await storage.game_result(start.record.id)
    assert res is not None and not res.rated
    assert await storage.table_ratings([A, B], "highcard") == {}
    await storage.set_ratings_on(GUILD, True, T0)
    assert await storage.ratings_on(GUILD)


async def test_quiet_hours_are_left_out_of_move_times(
        storage: Storage, tables: TableService, clock: FakeClock) -> None:
    # B sleeps from 00:00 to 08:00 UTC; every wait of theirs spans the whole night.
    await storage.set_prefs(PlayerPrefs(user_id=B, quiet_start=0, quiet_end=8 * 60), T0)
    clock.t = 1_700_006_400.0  # 2023-11-15 00:00 UTC
    start = await started(tables, (A, B))
    await play_out(tables, clock, start.record.id, seconds=9 * HOUR)
    res = await storage.game_result(start.record.id)
    assert res is not None
    by_user = {s.user_id: s for s in res.seats}
    assert by_user[A].move_seconds == 9 * HOUR
    assert by_user[B].move_seconds is not None and by_user[B].move_seconds < 9 * HOUR


async def test_away_time_is_left_out_of_move_times(
        storage: Storage, tables: TableService, clock: FakeClock) -> None:
    """Each of A's moves waits 10 h, 8 h of it away (`/game away on` 1 h in, `off` 1 h
    before the move): each counts 2 h. B's moves wait 10 h with no away time: 10 h."""
    start = await started(tables, (A, B), seed=FIRST_WINS)
    gid = start.record.id
    for _ in range(100):
        awaited = await tables.awaited(gid)
        if not awaited:
            break
        _, user = sorted(awaited.items())[0]
        assert user is not None
        actions = await tables.legal_actions(gid, user)
        if user == A:
            clock.advance(hours=1)
            await tables.set_away(A, True)
            clock.advance(hours=8)
            await tables.set_away(A, False)
            clock.advance(hours=1)
        else:
            clock.advance(hours=10)
        await tables.act(gid, user, actions[0])
    res = await storage.game_result(gid)
    assert res is not None and not res.abandoned
    by_user = {s.user_id: s for s in res.seats}
    assert by_user[A].moves > 0 and by_user[B].moves > 0
    assert by_user[A].move_seconds == 2 * HOUR
    assert by_user[B].move_seconds == 10 * HOUR
    stats = await storage.player_stats(GUILD, A)
    assert stats.move_seconds == 2 * HOUR


async def test_away_periods_open_and_close_with_the_flag(
        storage: Storage, tables: TableService, clock: FakeClock) -> None:
    """`/game away on` opens one period (on again opens no second), `off` closes it, other
    preference changes leave it be; on, off and on within one second reopen the same period.
    The move log hands back the periods of the game's players that ran while it did."""
    start = await started(tables, (A, B))
    gid = start.record.id
    t_on = clock.advance(hours=1)
    await tables.set_away(A, True)
    clock.advance(hours=1)
    await tables.set_away(A, True)  # already away: still the one period
    await tables.set_quiet(A, 0, 8 * 60)
    t_off = clock.advance(hours=1)
    await tables.set_away(A, False)
    await tables.set_away(A, False)  # already back: nothing to close
    t_again = clock.advance(hours=1)
    await tables.set_away(A, True)
    await tables.set_away(A, False)
    await tables.set_away(A, True)  # within the same second: the same period, open again
    await tables.set_away(C, True)  # not at this table: not in its move log
    log = await storage.move_log(gid)
    assert log.dealt == T0 and log.moves == []
    assert log.away == {A: [(t_on, t_off), (t_again, None)]}
    assert (await storage.prefs([A]))[A].away


async def test_away_and_quiet_hours_overlapping_count_once() -> None:
    """A night spent away is left out once: a wait from 20:00 to 10:00 with quiet hours
    00:00-08:00 and away 22:00-06:00 counts 14 h less 10 h (22:00-08:00) = 4 h."""
    midnight = 1_700_006_400.0  # 2023-11-15 00:00 UTC
    nights = PlayerPrefs(user_id=A, quiet_start=0, quiet_end=8 * 60)
    begins, ends = midnight - 4 * HOUR, midnight + 10 * HOUR
    away = {A: [(midnight - 2 * HOUR, midnight + 6 * HOUR)]}
    times = memory.move_times(begins, [("s1", A, ends)], {A: nights}, away)
    assert times == {"s1": (1, 4 * HOUR)}
    # Still away (no end yet): away up to the move.
    still = memory.move_times(begins, [("s1", A, ends)], {}, {A: [(midnight, None)]})
    assert still == {"s1": (1, 4 * HOUR)}
    # A move the bot made for the away player is not theirs: no wait counted.
    assert memory.move_times(begins, [("s1", None, ends)], {}, away) == {}


async def test_privacy_and_ratings_flags_persist(storage: Storage) -> None:
    await storage.set_prefs(PlayerPrefs(user_id=A, stats_hidden=True), T0)
    assert (await storage.prefs([A]))[A].stats_hidden
    await storage.set_prefs(PlayerPrefs(user_id=A), T0)
    assert not (await storage.prefs([A]))[A].stats_hidden



@pytest.mark.parametrize(("game", "mode", "players"), [
    ("exorcism", "one_vs_all", 3), ("fourth_wall", "conflict", 2), ("presence", "session", 3)])
async def test_an_abandoned_game_keeps_nothing_hidden(
        storage: Storage, clock: FakeClock, game: str, mode: str, players: int) -> None:
    """Abandoned half-way, a game's result holds its seats' public labels and nothing that is
    still hidden: no face-down card, no hand, no script (`Game.public_secrets`)."""
    from rules.registry import GAMES as SHIPPED

    tables = TableService(storage, SHIPPED, clock=clock)
    users = (A, B, C)[:players]
    rec = await tables.create(GUILD, 2000, 3000, game, {"mode": mode}, A)
    for user in users[1:]:
        await tables.join(rec.id, user)
    await tables.start(rec.id, A, seed=11)
    rules = SHIPPED[game]
    for _ in range(15):
        awaited = await tables.awaited(rec.id)
        if not awaited:
            break
        seat = sorted(awaited)[0]
        state = await tables.state(rec.id)
        clock.advance(seconds=45)
        await tables.act(rec.id, awaited[seat], rules.ai_action(state, seat, "easy"))
    state = await tables.state(rec.id)
    assert rules.result(state) is None, "the game must still be running"
    secrets = rules.public_secrets(state)
    assert secrets, "a game half-way holds something hidden"
    await tables.abandon(rec.id, A, can_manage_threads=False)
    res = await storage.game_result(rec.id)
    assert res is not None and res.abandoned and res.outcome == "Abandoned."
    assert [s.user_id for s in res.seats] == list(users)
    assert all(s.moves > 0 or s.move_seconds is None for s in res.seats)
    kept = res.model_dump_json()
    leaked = [s for s in secrets if s.strip('"') and s.strip('"') in kept]
    assert not leaked, leaked


async def test_players_away_before_the_upgrade_get_an_open_period(tmp_path: Path) -> None:
    """Revision 0010_away: a player already away gets a period still open, begun when their
    preferences last changed; one who is not away gets none."""
    path = tmp_path / "old.db"
    async with SqliteStorage(path, schema_target=9) as old:  # 0009_memory, before 0010_away
        assert await old.schema_version() == 9
    with sqlite3.connect(path) as db:
        db.execute("INSERT INTO players (user_id, away, updated_at) VALUES (?, 1, ?), (?, 0, ?)",
                   (A, T0, B, T0))
    async with SqliteStorage(path) as upgraded:
        assert await upgraded.schema_version() == LATEST
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT user_id, began, ended FROM away_periods").fetchall() == [
            (A, T0, None)]
