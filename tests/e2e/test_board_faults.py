"""Discord refusing a board post (#20, items 2 and 4), through the emulator: nothing lost, every
player told the truth, one live set of buttons per decision, no repeated pings.

A refused board post (a 503 discord.py does not retry, a 500 run outlasting its retries, a
locked thread, a permission taken away) is kept with its lines and its ping and tried again
with backoff until Discord takes it; a post whose picture may not be attached goes as words;
a thread that refuses every post gets the awaited player and the creator told by DM what to
fix. A moderator deleting the current board post gets it posted again, unpinged. Backoff is
made small (`board_retry_seconds`) and discord.py's own 5xx sleeps fast: nothing waits long.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import discord.http
import pytest

from emulator import Perm
from emulator.records import MessageRecord
from tests.e2e.conftest import Table

HEADER = "**High Card (test game)** — game #"


def _boards(table: Table) -> list[MessageRecord]:
    return [m for m in table.emu.messages_in(table.thread()) if m.content.startswith(HEADER)]


async def _retrying(table: Table) -> None:
    """The bot again, retrying refused boards after 0.05 s (then 0.1, 0.2, 0.2...)."""
    await table.stop()
    await table.start(board_retry_seconds=0.05, board_retry_max_seconds=0.2)


async def _highcard(table: Table) -> int:
    await _retrying(table)
    await table.lobby(players=(table.bob,), options="rounds=2")
    await table.slash(table.alice, table.thread(), "game start")
    return await table.game_id()


async def _wager(table: Table) -> Any:
    """alice sets the wager: the decision passes to bob (a new post that pings him)."""
    res = await table.emu.click(table.alice, table.board(), label="Wager 2")
    await res.wait_done()
    return res


async def _bobs_board(table: Table, timeout: float = 5.0) -> MessageRecord:
    bob = table.bob.id
    return await table.emu.wait_for_message(
        lambda m: m.content.startswith(HEADER) and bob in m.pinged_user_ids,
        channel=table.thread(), timeout=timeout)


def _one_live_decision(table: Table) -> None:
    live = [m for m in _boards(table) if any(c.startswith("hb:a:") for c in m.custom_ids)]
    assert len(live) <= 1, [m.content for m in live]


class FastSleeps:
    """discord.py's `asyncio` with sleeps 200 times shorter (its 1+3+5+7+9 s between 5xx
    tries): the library is not modified, only the module it sleeps through."""

    def __getattr__(self, name: str) -> Any:
        return getattr(asyncio, name)

    @staticmethod
    async def sleep(delay: float, result: Any = None) -> Any:
        return await asyncio.sleep(delay / 200, result)


@pytest.fixture
def fast_discord_retries(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(discord.http, "asyncio", FastSleeps())
    yield


async def test_a_deleted_board_post_is_posted_again_without_a_ping(table: Table) -> None:
    gid = await _highcard(table)
    board = table.board()
    assert board.pinged_user_ids == [table.alice.id]
    mark = table.emu.mark()
    table.emu.delete_message(board, by=table.guild.owner_id)  # a moderator removes it
    again = await table.emu.wait_for_message(
        lambda m: m.content.startswith(HEADER), channel=table.thread(), since=mark)
    await table.emu.settle()
    assert again.id != board.id and again.pinged_user_ids == []
    assert again.component(label="Wager 2") is not None  # the decision's buttons are back
    assert table.bot is not None
    record = await table.bot.storage.get_game(gid)
    assert record is not None and record.board_message_id == int(again.id)
    # the game goes on from the new post
    await _wager(table)
    assert (await _bobs_board(table)).order > again.order
    _one_live_decision(table)
    assert len([m for m in _boards(table) if m.order > mark]) == 2
    table.emu.assert_no_errors()


async def test_deleting_an_older_board_post_posts_nothing(table: Table) -> None:
    await _highcard(table)
    first = table.board()
    await _wager(table)
    await _bobs_board(table)
    await table.emu.settle()
    mark = table.emu.mark()
    table.emu.delete_message(first, by=table.guild.owner_id)
    await asyncio.sleep(0.1)
    await table.emu.settle()
    assert table.emu.mark() == mark


async def test_a_503_on_the_board_post_is_retried_with_its_lines_and_its_ping(
        table: Table) -> None:
    await _highcard(table)
    thread = table.thread()
    table.emu.fail_next("POST", rf"^/channels/{thread.id}/messages$", status=503)
    res = await _wager(table)
    # the mover is told the truth: recorded, the board is on its way (no "next move" promise)
    assert "recorded" in res.text and "keep trying" in res.text
    assert "next move" not in res.text
    board = await _bobs_board(table)
    await table.emu.settle()
    assert "sets the wager at 2" in board.content and board.pinged_user_ids == [table.bob.id]
    assert len([m for m in _boards(table) if table.bob.id in m.pinged_user_ids]) == 1
    _one_live_decision(table)
    assert [e.status for e in table.emu.errors] == [503]


async def test_a_long_500_run_is_outlasted(table: Table, fast_discord_retries: None) -> None:
    await _highcard(table)
    thread = table.thread()
    run = table.emu.fail_for("POST", rf"^/channels/{thread.id}/messages$", status=500,
                             seconds=120)
    res = await _wager(table)
    assert "keep trying" in res.text
    # discord.py's five tries fail, then the bot's own retries keep failing...
    await asyncio.sleep(0.6)
    assert table.emu.stats.faults_served > 5 and not any(
        table.bob.id in m.pinged_user_ids for m in _boards(table))
    table.emu.advance_clock(seconds=121)  # ...until the run is over: the board lands, once
    board = await _bobs_board(table)
    await table.emu.settle()
    assert "sets the wager at 2" in board.content
    assert len([m for m in _boards(table) if table.bob.id in m.pinged_user_ids]) == 1
    assert run.until is not None
    _one_live_decision(table)


async def test_a_move_made_while_the_board_waits_joins_it(table: Table) -> None:
    """Nothing lost: a later move's lines merge into the board that is being retried."""
    await _highcard(table)
    thread = table.thread()
    table.emu.fail_for("POST", rf"^/channels/{thread.id}/messages$", status=503, seconds=60)
    await _wager(table)
    res = await table.emu.slash(table.alice, thread, "game status")
    await res.wait_done()
    assert res.ephemeral  # the table can read the board meanwhile
    table.emu.advance_clock(seconds=61)
    board = await _bobs_board(table)
    assert "sets the wager at 2" in board.content


def _latest_exorcism_board(table: Table) -> MessageRecord:
    return [m for m in table.emu.messages_in(table.thread())
            if m.content.startswith("**The Exorcism")][-1]


async def test_lost_attach_files_posts_the_words_alone(table: Table) -> None:
    await _retrying(table)
    assert table.bot is not None
    table.bot.tables.seed_source = lambda: 5
    await table.slash(table.alice, table.general, "game new", game="exorcism", mode="solo")
    await table.slash(table.alice, table.thread(), "game start")
    first = table.board()
    assert first.attachments  # the turn card
    table.emu.revoke_bot_permissions(table.thread(), Perm.ATTACH_FILES)
    await asyncio.sleep(0.05)
    mark = table.emu.mark()
    choice = next(c for c in first.custom_ids if c.startswith("hb:a:"))
    await table.click(table.alice, first, choice)
    written = _latest_exorcism_board(table)
    assert written.written > mark
    assert not written.attachments and "Attach Files" in written.content
    # and when the gateway cache does not know yet, the 403 on an upload gets the words
    # posted alone (here: the post a moderator deleted, posted again)
    table.emu.grant_bot_permissions(table.thread(), Perm.ATTACH_FILES)
    await asyncio.sleep(0.05)
    parent = table.emu.channels[table.thread().parent_id or ""]
    parent.bot_permissions &= ~int(Perm.ATTACH_FILES)  # taken away, no event yet
    board = _latest_exorcism_board(table)
    mark = table.emu.mark()
    table.emu.delete_message(board, by=table.guild.owner_id)
    again = await table.emu.wait_for_message(
        lambda m: m.content.startswith("**The Exorcism"), channel=table.thread(), since=mark)
    await table.emu.settle()
    assert not again.attachments and "Attach Files" in again.content
    assert again.custom_ids == board.custom_ids
    assert [(e.status, e.code) for e in table.emu.errors] == [(403, 50013)]


async def test_a_board_without_view_channel_names_view_channel_not_attach_files(
        table: Table) -> None:
    """Stop 69's proof of real games: with View Channel taken from the bot, a press on the
    board is still answered (an interaction's answer needs no channel permission), and the
    gateway cache, which then denies the bot everything there, sends the board without its
    picture. The note said the bot lacked **Attach Files**, which it had: it names View
    Channel, the permission to give back."""
    await _retrying(table)
    assert table.bot is not None
    table.bot.tables.seed_source = lambda: 5
    await table.slash(table.alice, table.general, "game new", game="exorcism", mode="solo")
    await table.slash(table.alice, table.thread(), "game start")
    first = table.board()
    table.emu.revoke_bot_permissions(table.thread(), Perm.VIEW_CHANNEL)
    await asyncio.sleep(0.05)
    mark = table.emu.mark()
    await table.click(table.alice, first, next(c for c in first.custom_ids
                                               if c.startswith("hb:a:")))
    written = _latest_exorcism_board(table)
    assert written.written > mark
    assert "No picture" in written.content
    assert "View Channel" in written.content and "Attach Files" not in written.content


async def test_a_picture_too_large_for_the_server_posts_the_words_alone(table: Table) -> None:
    """Stop 69: Discord refuses an upload the server's limit does not take (413 / 40005, a
    limit below the bot's `max_image_bytes`). The board is not dropped (it would never be
    tried again: a 413 is no server error): its words go alone, saying why, in a new post and
    in an edit in place; once pictures fit again they come back."""
    await _retrying(table)
    assert table.bot is not None
    table.bot.tables.seed_source = lambda: 5
    await table.slash(table.alice, table.general, "game new", game="exorcism", mode="solo")
    await table.slash(table.alice, table.thread(), "game start")
    first = table.board()
    assert first.attachments
    limit = table.emu.attachment_size_limit
    table.emu.attachment_size_limit = 16  # smaller than any picture
    gid = await table.game_id()
    for _ in range(2):  # the same player acts on: the first edits in place, or posts anew
        board = _latest_exorcism_board(table)
        mark = table.emu.mark()
        record = await table.bot.storage.get_game(gid)
        assert record is not None
        choice = next(c for c in board.custom_ids if c.startswith("hb:a:"))
        await table.click(table.alice, board, choice)
        written = _latest_exorcism_board(table)
        assert written.written > mark, "the move's board was never shown"
        assert not written.attachments and "too large" in written.content
        assert "Attach Files" not in written.content
    table.emu.attachment_size_limit = limit
    board = _latest_exorcism_board(table)
    await table.click(table.alice, board, next(c for c in board.custom_ids
                                               if c.startswith("hb:a:")))
    assert _latest_exorcism_board(table).attachments


@pytest.mark.parametrize("blocker", ["locked", "send_in_threads"])
async def test_a_thread_that_refuses_posts_gets_the_awaited_player_and_creator_told(
        table: Table, blocker: str) -> None:
    await _highcard(table)
    emu, thread = table.emu, table.thread()
    if blocker == "locked":
        emu.revoke_bot_permissions(thread, Perm.MANAGE_THREADS)
        emu.lock_thread(thread)
        expected = ("locked", "Manage Threads")
    else:
        emu.revoke_bot_permissions(thread, Perm.SEND_MESSAGES_IN_THREADS)
        expected = ("Send Messages in Threads", "Send Messages in Threads")
    await asyncio.sleep(0.05)
    res = await _wager(table)
    assert "can't post in the thread" in res.text and expected[0] in res.text

    def told(user: Any) -> list[MessageRecord]:
        return [m for m in emu.dm_messages(user) if "I can't post in" in m.content]

    await emu.wait_for_message(lambda m: "I can't post in" in m.content
                               and m.channel_id == table.bob.dm_channel_id)
    await asyncio.sleep(0.5)  # several retries meanwhile: each player is told once
    for user in (table.bob, table.alice):  # bob is awaited; alice created the game
        (dm,) = told(user)
        assert expected[0] in dm.content and expected[1] in dm.content
        assert "game #" in dm.content
    assert told(table.carol) == []
    assert not any(table.bob.id in m.pinged_user_ids for m in _boards(table))
    if blocker == "locked":
        emu.lock_thread(thread, locked=False)
    else:
        emu.grant_bot_permissions(thread, Perm.SEND_MESSAGES_IN_THREADS)
    board = await _bobs_board(table)
    await emu.settle()
    assert "sets the wager at 2" in board.content
    assert len([m for m in _boards(table) if table.bob.id in m.pinged_user_ids]) == 1
    _one_live_decision(table)


async def test_a_board_waiting_for_a_locked_thread_is_dropped_when_the_game_is_abandoned(
        table: Table) -> None:
    await _highcard(table)
    emu, thread = table.emu, table.thread()
    emu.revoke_bot_permissions(thread, Perm.MANAGE_THREADS)
    emu.lock_thread(thread)
    await asyncio.sleep(0.05)
    await _wager(table)
    res = await table.slash(table.alice, thread, "game abandon")
    # Stop 70: its public answer is refused in a locked thread (403 / 50083); the abandoner
    # is answered privately, told why the thread does not say it.
    assert "abandoned" in res.text.lower() and "locked" in res.text and res.ephemeral
    await asyncio.sleep(0.3)  # a try or two: each finds the game abandoned
    emu.lock_thread(thread, locked=False)
    await asyncio.sleep(0.5)
    await emu.settle()
    assert not any(table.bob.id in m.pinged_user_ids for m in _boards(table))


async def test_a_refused_board_survives_a_restart(table: Table) -> None:
    """The bot stops while a board waits for a locked thread: the next start posts it."""
    await _highcard(table)
    emu, thread = table.emu, table.thread()
    emu.revoke_bot_permissions(thread, Perm.MANAGE_THREADS)
    emu.lock_thread(thread)
    await asyncio.sleep(0.05)
    await _wager(table)
    await asyncio.sleep(0.2)
    await _retrying(table)  # a clean stop while the board waits, then a new process
    await asyncio.sleep(0.2)  # its catch-up is refused too, and kept
    assert not any(table.bob.id in m.pinged_user_ids for m in _boards(table))
    emu.lock_thread(thread, locked=False)
    board = await _bobs_board(table)
    await emu.settle()
    assert "sets the wager at 2" in board.content
    assert len([m for m in _boards(table) if table.bob.id in m.pinged_user_ids]) == 1
    _one_live_decision(table)


async def test_a_deleted_post_replaced_meanwhile_is_not_posted_again(table: Table) -> None:
    """The race: the delete arrives while the next move's post is on its way. The showing
    queued for the deleted post finds a newer post current, and shows nothing."""
    from cogs.utils.table import Showing, delivery_for, game_of

    gid = await _highcard(table)
    assert table.bot is not None
    bot = table.bot
    stale = await bot.storage.get_game(gid)
    assert stale is not None and stale.board_message_id is not None
    await _wager(table)
    await _bobs_board(table)
    await table.emu.settle()
    mark = table.emu.mark()
    delivery = delivery_for(bot)
    channel = await delivery.thread(stale)
    assert channel is not None
    state = await bot.tables.state(gid)
    await delivery.show(Showing(stale, game_of(stale), state, [], None, channel,
                                await bot.tables.users_of(gid), None, [],
                                repost=stale.board_message_id))
    await table.emu.settle()
    assert table.emu.mark() == mark


async def test_a_press_in_an_archived_thread_plays_and_shows_its_board(table: Table) -> None:
    """Stop 70: Discord refuses an edit in an archived thread (50083), the answer to a press
    that edits its board post included, and unarchives it for a new message. A press on the
    board of a thread that archived itself (days of quiet) is played and shown there, and
    nobody is told the thread is locked."""
    await _highcard(table)
    emu, thread = table.emu, table.thread()
    emu.archive_thread(thread)
    await asyncio.sleep(0.05)
    res = await _wager(table)
    board = await _bobs_board(table)
    await emu.settle()
    assert "sets the wager at 2" in board.content
    assert not thread.archived
    said = [res.text, *(m.content for u in (table.alice, table.bob)
                        for m in emu.dm_messages(u))]
    assert not [t for t in said if "locked" in t], said
