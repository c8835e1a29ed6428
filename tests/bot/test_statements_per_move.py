"""What a move costs the database (issue #15), counted over a whole game played through
Discord, and the reads kept between moves never showing a stale record.

A count, not a timer: every statement SQLite runs for the bot (BEGIN and COMMIT included) is
charged to the storage operation and the caller that ran it (tests/sqlcount.py). Before the
reads were kept a move cost 27–30 statements, 4 commits and as many trips to SQLite's thread.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from collections.abc import AsyncIterator
from pathlib import Path

import pytest_asyncio

from bot.storage import SqliteStorage, Storage
from demo import AutoTable
from emulator import DiscordEmulator
from rules.registry import register, unregister
from tests.bot import CHANNEL, GUILD, T0
from tests.e2e.conftest import Table
from tests.sqlcount import SqlCount
from tests.tinygame import GAME as HIGHCARD

ROOT = Path(__file__).resolve().parents[2]


@pytest_asyncio.fixture
async def table(tmp_path: Path) -> AsyncIterator[Table]:
    register(HIGHCARD)
    try:
        async with DiscordEmulator() as emu:
            t = Table(emu, tmp_path / "games.sqlite3")
            await t.start()
            try:
                yield t
            finally:
                await t.stop()
    finally:
        unregister(HIGHCARD.name)


RESULT_STATEMENTS = 11
"""What keeping a two-player game's result costs, once, in the transaction that ends it."""


async def _played(table: Table, count: SqlCount | None = None) -> tuple[AutoTable, int]:
    """A whole High Card game pressed by alice and bob; (the table, moves made)."""
    assert table.bot is not None
    table.bot.tables.seed_source = lambda: 5
    auto = AutoTable(table.emu, table.bot, table.general, [table.alice, table.bob])
    await auto.open("highcard", None)
    if count is not None:
        count.reset()
    moves = await auto.play_to_end()
    await table.emu.settle()
    return auto, moves


async def test_a_move_is_ten_statements_and_three_commits(table: Table) -> None:
    """Per move: the pending row recorded before the acknowledgement (BEGIN, one DELETE of
    answered and expired rows, INSERT, COMMIT), the move itself (BEGIN, the state written with
    its version check, the action appended, the pending row marked, COMMIT) and the board post
    remembered (one UPDATE in autocommit). Nothing is read again: the game's record, seats and
    players' preferences are kept between moves. Once per game, at its end, the history is read
    for the game-over post's story (its length and turning points, issue #22)."""
    assert table.bot is not None
    count = await SqlCount.install(table.bot.storage)
    _, moves = await _played(table, count)
    assert moves >= 6
    by_operation = count.by_operation()
    report = count.report(moves)
    # The move that ends the game also keeps its result (bot/memory.py, issue #24): the check
    # that it is not kept yet, the server's ratings choice, both players' ratings read and
    # written, their two rating-history rows, the result and its two seats.
    assert by_operation["append_action"] == 5 * moves + RESULT_STATEMENTS, report
    assert by_operation["add_pending_move"] == 4 * moves, report
    assert by_operation["set_board_message"] == moves, report
    assert count.commits == 3 * moves, report
    assert count.trips <= 3 * moves + 3, report  # + the result's one read of the move times
    # Preferences may be read once per player (to ping whoever is awaited), the history once at
    # the end; the rest are kept.
    # Building the result reads, once, when the game was dealt, the moves' times and the
    # players' away periods (one statement).
    others = count.total - 10 * moves - RESULT_STATEMENTS
    assert others <= 5, report
    assert by_operation.get("move_log <- bot/tables.py:_result_of", 0) <= 1, report
    assert by_operation.get("actions <- bot/tables.py:history", 0) <= 1, report
    assert not {"get_game", "seats", "find_game_by_thread", "clear_ai_standins",
                "board_post"} & set(by_operation), report


async def _reads(storage: Storage, game_id: int, thread_id: int, users: list[int],
                 ) -> tuple[object, ...]:
    return (await storage.get_game(game_id), await storage.seats(game_id),
            await storage.spectators(game_id), await storage.board_post(game_id),
            await storage.prefs(users), await storage.find_game_by_thread(thread_id))


async def test_kept_reads_match_the_database_after_a_whole_game(table: Table) -> None:
    """The bot's kept records, seats, spectators, board post and preferences are what a fresh
    storage reads from the file, after a whole game and the changes around it."""
    assert table.bot is not None
    auto, _ = await _played(table)
    bot = table.bot
    gid, thread = auto.game_id, int(auto.thread().id)
    users = [int(table.alice.id), int(table.bob.id), int(table.carol.id)]
    await bot.storage.add_spectator(gid, int(table.carol.id), T0)
    await bot.tables.set_notify_near(int(table.alice.id), True)
    await bot.tables.set_away(int(table.bob.id), True)
    [alice] = [s for s in await bot.storage.seats(gid) if s.user_id == int(table.alice.id)]
    await bot.tables.set_dms_ok(gid, int(table.alice.id), not alice.dms_ok)
    await bot.storage.set_reminder(gid, T0 + 5, 2)
    kept = await _reads(bot.storage, gid, thread, users)
    async with SqliteStorage(table.db) as fresh:
        assert await _reads(fresh, gid, thread, users) == kept
    # a second game in the same thread (a rematch may reuse it) is the thread's game now
    other = await bot.storage.create_game(
        guild_id=GUILD, channel_id=CHANNEL, thread_id=thread, game="highcard",
        options={"mode": "standard", "rounds": 1}, created_by=int(table.alice.id),
        engine_version="x", settings=(await bot.tables.get(gid)).settings, now=T0)
    found = await bot.storage.find_game_by_thread(thread)
    assert found is not None and found.id == other.id


async def test_a_stored_move_survives_the_process_killed_right_after(tmp_path: Path) -> None:
    """WAL with synchronous=NORMAL: once `append_action` returns, the move is in the WAL file;
    SIGKILL the process at that instant and the reopened database holds it."""
    db = tmp_path / "games.db"
    child = textwrap.dedent(f"""
        import asyncio, os, signal
        from bot.storage import GameSettings, SqliteStorage

        async def main():
            s = SqliteStorage({str(db)!r}, keep_reads=True)
            await s.open()
            g = await s.create_game(guild_id=1, channel_id=2, thread_id=3, game="highcard",
                                    options={{}}, created_by=7, engine_version="x",
                                    settings=GameSettings(), now=0.0)
            await s.add_seat(g.id, 8, 0.0)
            await s.start_game(g.id, '{{"step": 0}}', 1, seat_ids=["s1", "s2"], now=0.0,
                               next_reminder_at=None)
            for n in range(1, 4):
                await s.append_action(g.id, n - 1, "s1", 7, "{{}}", f'{{{{"step": {{n}}}}}}',
                                      "active", None, 0, now=0.0)
            os.kill(os.getpid(), signal.SIGKILL)

        asyncio.run(main())
    """)
    proc = subprocess.run([sys.executable, "-c", child], cwd=ROOT, capture_output=True,
                          timeout=60, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == -signal.SIGKILL, proc.stderr.decode()
    async with SqliteStorage(db) as reopened:
        game = await reopened.find_game_by_thread(3)
        assert game is not None and (game.version, game.state_json) == (3, '{"step": 3}')
        assert [a.seq for a in await reopened.actions(game.id)] == [1, 2, 3]
