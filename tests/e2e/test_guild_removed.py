"""Issue #20 item 5: the bot removed from a server (GUILD_DELETE without `unavailable`: a kick,
a ban, the server deleted). Its games there end with the reason kept and their reminders
cleared, instead of reminders firing and failing for days (DMs 50007, the thread 403/50001
logged as an exception); a thread Discord answers 50001 Missing Access for is treated like a
deleted one. Played with the test game High Card through the emulator and the bot's clock."""

from __future__ import annotations

import asyncio
import logging

import pytest

from bot.reminders import HOUR
from tests.e2e.conftest import Table


async def _started(table: Table) -> int:
    await table.lobby(players=(table.bob, table.carol))
    await table.slash(table.alice, table.thread(), "game start")
    return await table.game_id()


async def _days(table: Table, days: int) -> None:
    assert table.bot is not None and table.bot.reminders is not None
    for _ in range(days * 2):
        table.clock_now += 13 * HOUR
        await table.bot.reminders.run_once()
        await table.emu.settle()


def _guild_requests(table: Table, since: int) -> list[str]:
    return [f"{e.method} {e.path} {e.code}" for e in table.emu.errors[since:]]


async def test_removed_from_a_server_its_games_end_and_nothing_fires(
        table: Table, caplog: pytest.LogCaptureFixture) -> None:
    assert table.bot is not None
    gid = await _started(table)
    # A game in another server, with the same players, goes on untouched.
    other = table.emu.create_guild("Other Table")
    for user in (table.alice, table.bob):
        table.emu.add_member(other, user)
    elsewhere = table.emu.create_text_channel(other, "games")
    await table.slash(table.alice, elsewhere, "game new", game="highcard")
    lobby = table.emu.messages_in(table.emu.threads_of(elsewhere)[-1])[0]
    await table.click(table.bob, lobby, label="Join")
    await table.slash(table.alice, table.emu.threads_of(elsewhere)[-1], "game start")
    kept = await table.bot.storage.find_game_by_thread(
        int(table.emu.threads_of(elsewhere)[-1].id))
    assert kept is not None and kept.status == "active"
    # A lobby still open in the server the bot leaves ends too.
    await table.slash(table.carol, table.general, "game new", game="highcard")
    opened = await table.bot.storage.find_game_by_thread(int(table.thread().id))
    assert opened is not None and opened.status == "lobby"
    lobby_gid = opened.id

    table.emu.remove_bot_from_guild(table.guild)
    await table.emu.settle()
    # Ending them sends nothing to Discord (so `settle` cannot see it) and keeps the active
    # game's result (issue #24): wait for the storage to say so.
    for _ in range(200):
        ended = [await table.bot.storage.get_game(g) for g in (gid, lobby_gid)]
        if all(r is not None and r.status == "abandoned" for r in ended):
            break
        await asyncio.sleep(0.025)
    for game_id in (gid, lobby_gid):
        record = await table.bot.storage.get_game(game_id)
        assert record is not None and record.status == "abandoned"
        assert record.settings.ended_because == "the bot was removed from the server"
        assert record.next_reminder_at is None  # its reminders are cleared
    # The dealt game is remembered as abandoned, with why; the lobby never began.
    kept_result = await table.bot.storage.game_result(gid)
    assert kept_result is not None and kept_result.abandoned and not kept_result.rated
    assert "removed from the server" in kept_result.outcome
    assert await table.bot.storage.game_result(lobby_gid) is None
    errors = len(table.emu.errors)
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        await _days(table, 5)
    # Nothing fired for the ended games: no DM refused, no thread refused, nothing logged.
    assert _guild_requests(table, errors) == []
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    # The other server's game is reminded as before.
    dms = [m for m in table.emu.dm_messages(table.alice) if "It's your move" in m.content]
    assert dms and all(f"(game #{kept.id})" in m.content for m in dms)
    still = await table.bot.storage.get_game(kept.id)
    assert still is not None and still.status == "active"


async def test_a_thread_out_of_sight_after_a_restart_is_treated_like_a_deleted_one(
        table: Table, caplog: pytest.LogCaptureFixture) -> None:
    """Removed while the bot was down: no GUILD_DELETE reaches it, the server is simply not in
    READY. The first reminder finds the thread answering 403/50001 Missing Access: the game ends
    there, once, with the reason kept, instead of an exception logged at every reminder."""
    gid = await _started(table)
    await table.stop()
    table.emu.remove_bot_from_guild(table.guild)
    await table.start()
    assert table.bot is not None
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        await _days(table, 1)
        record = await table.bot.storage.get_game(gid)
        assert record is not None and record.status == "abandoned"
        assert record.settings.ended_because == "the bot can no longer see its thread"
        assert record.next_reminder_at is None
        seen = len(table.emu.errors)
        await _days(table, 4)
    assert _guild_requests(table, seen) == []  # nothing more is tried
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    # What the bot met: the thread's 50001 (once) and DMs refused (the players share no
    # server with it any more), nothing else.
    codes = [e.code for e in table.emu.errors]
    assert codes.count(50001) == 1 and set(codes) <= {50001, 50007}, codes


async def test_view_channel_taken_from_the_bot_does_not_end_its_game(table: Table) -> None:
    """Stop 69: a moderator takes View Channel from the bot in the game's channel (the server
    still has it). Discord answers the reminder's ping in the thread 403 / 50001 Missing
    Access, the code it gives after a removal from the server; the game is not abandoned for
    it, and once the permission is given back the reminders reach the thread again."""
    from emulator import Perm

    gid = await _started(table)
    for user in (table.alice, table.bob, table.carol):
        user.dms_open = False  # every reminder is a ping in the thread
    table.emu.revoke_bot_permissions(table.general, Perm.VIEW_CHANNEL)
    await table.emu.settle()
    seen = len(table.emu.errors)
    await _days(table, 2)
    assert table.bot is not None
    assert 50001 in [e.code for e in table.emu.errors[seen:]]  # the ping met Missing Access
    record = await table.bot.storage.get_game(gid)
    assert record is not None and record.status == "active", record.settings.ended_because
    table.emu.grant_bot_permissions(table.general, Perm.VIEW_CHANNEL)
    await table.emu.settle()
    mark = table.emu.mark()
    await _days(table, 1)
    assert [m for m in table.emu.messages_in(table.thread())
            if m.order > mark and "waiting for your move" in m.content]


async def test_view_channel_taken_from_the_bot_is_told_to_its_players_once(
        table: Table) -> None:
    """Stop 69: with View Channel taken, a reminder's ping in the thread met Missing Access and
    the game was kept, told to nobody but the log: a player whose DMs are open learns what
    is wrong and what fixes it, once (not at every reminder)."""
    from emulator import Perm

    gid = await _started(table)
    for user in (table.bob, table.carol):
        user.dms_open = False  # their reminders are pings in the thread
    table.emu.revoke_bot_permissions(table.general, Perm.VIEW_CHANNEL)
    await table.emu.settle()
    await _days(table, 3)
    assert table.bot is not None
    record = await table.bot.storage.get_game(gid)
    assert record is not None and record.status == "active"
    told = [m.content for m in table.emu.dm_messages(table.alice)
            if "View Channel" in m.content]
    assert len(told) == 1, told
    assert f"game #{gid}" in told[0] and "kept" in told[0], told[0]


async def test_a_5xx_run_on_the_view_channel_dm_leaves_the_reminders_running(
        table: Table, caplog: pytest.LogCaptureFixture) -> None:
    """Stop 70: Discord answering 5xx to the DM that tells a player View Channel was taken
    raised out of the reminder's ping ("reminder for game … failed"). The DM is dropped with
    a log line, the reminder goes on, and the player is told once Discord takes DMs again."""
    from emulator import Perm

    gid = await _started(table)
    for user in (table.bob, table.carol):
        user.dms_open = False  # their reminders are pings in the thread
    dm = table.emu.dm_channel(table.alice)
    table.emu.fail_for("POST", rf"^/channels/{dm.id}/messages$", 503, seconds=10 ** 6)
    table.emu.revoke_bot_permissions(table.general, Perm.VIEW_CHANNEL)
    await table.emu.settle()
    with caplog.at_level(logging.INFO):
        await _days(table, 2)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], \
        [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert any("could not tell" in r.getMessage() for r in caplog.records)
    assert table.bot is not None
    record = await table.bot.storage.get_game(gid)
    assert record is not None and record.status == "active"
    assert not [m for m in table.emu.dm_messages(table.alice) if "View Channel" in m.content]
    # Not marked told: the next post or ping that meets Missing Access tells them.
    from cogs.utils.table import delivery_for

    table.emu.clear_faults()
    for _ in range(2):
        await delivery_for(table.bot).thread_gone(record, seen=False)
    told = [m.content for m in table.emu.dm_messages(table.alice)
            if "View Channel" in m.content]
    assert len(told) == 1, told


async def test_a_5xx_run_on_the_removal_dms_still_ends_the_game(
        table: Table, caplog: pytest.LogCaptureFixture) -> None:
    """Stop 70: the thread deleted while Discord answers 5xx to DMs: the game is abandoned all
    the same, each undelivered DM dropped with a log line, nothing raised."""
    gid = await _started(table)
    table.emu.fail_for("POST", r"^/channels/\d+/messages$", 503, seconds=10 ** 6)
    assert table.bot is not None
    record = await table.bot.storage.get_game(gid)
    assert record is not None
    from cogs.utils.table import delivery_for

    with caplog.at_level(logging.INFO):
        await delivery_for(table.bot).thread_gone(record)
    record = await table.bot.storage.get_game(gid)
    assert record is not None and record.status == "abandoned"
    assert any("could not tell" in r.getMessage() for r in caplog.records)


@pytest.mark.parametrize("archived", [False, True])
async def test_a_reminders_ping_in_a_locked_thread_is_told_by_dm_and_the_game_kept(
        table: Table, caplog: pytest.LogCaptureFixture, archived: bool) -> None:
    """Stop 70: a moderator locked the game's thread (archived too, or not) and the bot lacks
    Manage Threads: Discord refuses the reminder's ping there (403 / 50083). It raised out of
    the reminder, every pass, and nobody was told. The game is kept; a player who can be
    reached by DM learns what is wrong and what fixes it, once."""
    from emulator import Perm

    gid = await _started(table)
    for user in (table.bob, table.carol):
        user.dms_open = False  # their reminders are pings in the thread
    thread = table.thread()
    table.emu.revoke_bot_permissions(thread, Perm.MANAGE_THREADS)
    if archived:
        table.emu.archive_thread(thread, locked=True)
    else:
        table.emu.lock_thread(thread)
    await table.emu.settle()
    mark = table.emu.mark()
    with caplog.at_level(logging.INFO):
        await _days(table, 3)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], \
        [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert table.bot is not None
    record = await table.bot.storage.get_game(gid)
    assert record is not None and record.status == "active"
    told = [m.content for m in table.emu.dm_messages(table.alice) if "locked" in m.content]
    assert len(told) == 1, told
    assert f"game #{gid}" in told[0] and "Manage Threads" in told[0], told[0]
    assert not [m for m in table.emu.messages_in(thread) if m.order > mark]


async def test_view_channel_taken_is_told_at_their_next_command_to_players_with_dms_closed(
        table: Table) -> None:
    """Stop 70: View Channel taken and a player's DMs closed: nothing could tell them (their
    reminders are pings in the thread the bot cannot see). Their next command's answer is
    followed, privately, by what the others read by DM; once a post goes through again it is
    no longer said to anyone."""
    from emulator import Perm

    gid = await _started(table)
    for user in (table.bob, table.carol):
        user.dms_open = False
    table.emu.revoke_bot_permissions(table.general, Perm.VIEW_CHANNEL)
    await table.emu.settle()
    await _days(table, 2)
    mine = await table.emu.slash(table.bob, None, "game mine")
    await mine.wait_done()
    await table.emu.settle()
    assert "View Channel" in mine.text and f"game #{gid}" in mine.text, mine.text
    again = await table.emu.slash(table.bob, None, "game mine")
    await again.wait_done()
    await table.emu.settle()
    assert "View Channel" not in again.text, "said once"
    table.emu.grant_bot_permissions(table.general, Perm.VIEW_CHANNEL)
    moved = await table.emu.click(table.alice, table.board(), label="Wager 2")
    await moved.wait_done()  # its board goes through
    await table.emu.settle()
    later = await table.emu.slash(table.carol, None, "game mine")
    await later.wait_done()
    await table.emu.settle()
    assert "View Channel" not in later.text, "no longer true, no longer said"
