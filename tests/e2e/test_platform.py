"""The platform end to end: the real bot through discord.py against the local emulator.

Uses High Card (tests/tinygame.py), a tiny hidden-hand game, so these tests pin the platform
and not a game's rules.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from cogs.utils.table import MENU_TOKEN_LIFE, delivery_for
from emulator.errors import EmulatorError
from emulator.permissions import GAME_BOT_PERMISSIONS
from tests.e2e.conftest import Table


def _hc_buttons(message) -> list[str]:
    return [c for c in message.custom_ids if c.startswith("hb:a:")]


async def _started(table: Table) -> None:
    await table.lobby(players=(table.bob, table.carol))
    await table.slash(table.alice, table.thread(), "game start")


async def test_commands_are_synced(table: Table) -> None:
    paths = table.emu.commands.all_paths()
    for sub in ("new", "join", "leave", "start", "status", "hand", "abandon", "list", "rules",
                "settings"):
        assert f"game {sub}" in paths
    assert len(table.emu.commands.syncs) >= 1
    assert "exorcism move" in paths and "exorcism answer" in paths


async def test_whole_lobby_with_three_players_deals_by_dm(table: Table) -> None:
    res = await table.emu.slash(table.alice, table.general, "game new", {"game": "highcard"})
    await res.wait_done()
    assert res.ephemeral and "is open in" in res.text
    thread = table.thread()
    lobby = table.emu.messages_in(thread)[0]
    assert lobby.embeds and "High Card" in lobby.embeds[0]["title"]
    # alice got a test DM when she created (and so joined) the game
    assert any("You joined" in m.content for m in table.emu.dm_messages(table.alice))
    join = await table.click(table.bob, lobby, label="Join")
    assert "You're in" in join.text
    joined = await table.slash(table.carol, thread, "game join")
    assert joined.ephemeral and "You're in" in joined.text
    start = await table.slash(table.alice, thread, "game start")
    assert start.ephemeral
    texts = [m.content for m in table.emu.messages_in(thread)]
    assert any("The game begins" in t for t in texts)
    for user in (table.alice, table.bob, table.carol):
        assert any("Your hand:" in m.content for m in table.emu.dm_messages(user)), user
    board = table.board()
    assert board.attachments == [] or board.attachments[0].data[:4] == b"\x89PNG"
    # wager phase: alice's choices are public, so they are buttons on the board
    assert len(_hc_buttons(board)) == 3
    assert f"<@{table.alice.id}>" in board.content
    assert board.pinged_user_ids == [table.alice.id]


async def test_closed_dms_are_named_without_the_secret(table: Table) -> None:
    table.carol.dms_open = False
    lobby = await table.lobby(players=(table.bob,))
    join = await table.click(table.carol, lobby, label="Join")
    assert "couldn't DM you" in join.text
    await table.slash(table.alice, table.thread(), "game start")
    notes = [m.content for m in table.emu.messages_in(table.thread())
             if "couldn't DM" in m.content]
    assert notes and table.carol.id in notes[0]
    assert "Your hand" not in notes[0]
    # the game goes on: carol reads her hand ephemerally
    hand = await table.slash(table.carol, table.thread(), "game hand")
    assert hand.ephemeral and "Your hand:" in hand.text


async def test_button_press_posts_new_board_and_strips_the_old(table: Table) -> None:
    await _started(table)
    board = table.board()
    res = await table.click(table.alice, board, label="Wager 2")
    assert not res.errors
    new_board = table.emu.messages_in(table.thread())[-1]
    assert new_board.id != board.id and "sets the wager at 2" in new_board.content
    assert table.emu.message(board.id).components == []
    # the play prompt is answered by all three at once, privately: no public card buttons
    assert _hc_buttons(new_board) == []
    assert {"hb:hand:1", "hb:play:1"} <= set(new_board.custom_ids) or new_board.custom_ids


async def test_an_open_private_menu_follows_the_game(table: Table) -> None:
    """Issue #14: a menu opened with My choices is not left stale when its player moves on
    the board, nor as a "✅" line once used: it shows the next choices, or says there are
    none; a newer menu replaces it (deleted)."""
    await _started(table)
    board = table.board()
    menu_res = await table.click(table.alice, board, label="My choices")
    await menu_res.wait_done()
    menu = menu_res.messages[-1]
    assert "Wager 1" in json.dumps(menu.components)
    await table.click(table.alice, board, label="Wager 1")
    await table.emu.settle()
    menu = table.emu.message(menu.id)
    assert "Wager" not in json.dumps(menu.components) and menu.custom_ids  # her cards now
    played = await table.click(table.alice, menu, menu.custom_ids[0])
    await played.wait_done()
    await table.emu.settle()
    menu = table.emu.message(menu.id)
    assert menu.content.startswith("Done: ") and "Nothing for you to choose" in menu.content
    assert not menu.custom_ids and not played.errors
    first = await table.click(table.bob, table.board(), label="My choices")
    await first.wait_done()
    older = first.messages[-1].id
    again = await table.click(table.bob, table.board(), label="My choices")
    await again.wait_done()
    await table.emu.settle()
    assert table.emu.message(older).deleted  # replaced by the newer one
    assert not table.emu.message(again.messages[-1].id).deleted


async def test_a_board_press_that_leaves_only_private_choices_puts_them_on_the_dm(
        table: Table) -> None:
    """Issue #14: after Alice's public Wager, her next choices name cards in her hand; they
    come as buttons on her summary DM (no menu opens: nothing is left behind in the thread),
    so her next move is one press too, answered by updating that DM."""
    await _started(table)
    res = await table.click(table.alice, table.board(), label="Wager 1")
    await res.wait_done()
    await table.emu.settle()
    assert [m for m in res.followups if not m.deleted] == []
    [dm] = [m for m in table.emu.dm_messages(table.alice) if _hc_buttons(m)]
    assert "Your hand:" in dm.content and "Wager" not in json.dumps(dm.components)
    played = await table.click(table.alice, dm, _hc_buttons(dm)[0])
    await played.wait_done()
    assert not played.errors and played.callback_type == 7  # UPDATE_MESSAGE: the DM itself
    assert not played.followup_ids
    assert _hc_buttons(table.emu.message(dm.id)) == []  # nothing more waits for her


async def test_a_board_press_that_leaves_only_private_choices_opens_the_menu_if_dms_closed(
        table: Table) -> None:
    """Issue #14: Alice's DMs are closed, so after her public Wager the menu of her private
    choices comes to her at once (only she sees it): her next move is one click too."""
    table.alice.dms_open = False
    await _started(table)
    res = await table.click(table.alice, table.board(), label="Wager 1")
    await res.wait_done()
    await table.emu.settle()
    [menu] = [m for m in res.followups if not m.deleted]
    assert menu.ephemeral and menu.interaction_user_id == str(table.alice.id)
    assert [c for c in menu.custom_ids if c.startswith("hb:a:")]
    assert "Wager" not in json.dumps(menu.components)
    played = await table.click(table.alice, menu, menu.custom_ids[0])
    await played.wait_done()
    assert not played.errors and "Done: Play" in table.emu.message(menu.id).content


async def test_stale_press_is_refused_kindly_and_changes_nothing(table: Table) -> None:
    await _started(table)
    board = table.board()
    # alice opens her choices privately; 15 minutes on, Discord no longer lets the bot update
    # that menu (`MENU_TOKEN_LIFE`); she plays from the board instead
    menu_res = await table.click(table.alice, board, label="My choices")
    await menu_res.wait_done()
    menu = menu_res.messages[-1]
    assert table.bot is not None
    for ref in delivery_for(table.bot).menus.refs.values():
        ref.at -= MENU_TOKEN_LIFE + 1
    await table.click(table.alice, board, label="Wager 1")
    gid = await table.game_id()
    before = (await table.bot.storage.get_game(gid)).version
    res = await table.emu.click(table.alice, menu, label="Wager 3")
    await res.wait_done()
    assert res.ephemeral and "earlier moment" in res.text
    assert (await table.bot.storage.get_game(gid)).version == before


async def test_someone_else_cannot_act_for_the_awaited_player(table: Table) -> None:
    await _started(table)
    board = table.board()
    res = await table.click(table.bob, board, label="Wager 3")
    await res.wait_done()
    assert res.ephemeral and "These choices are for" in res.text
    assert table.bot is not None
    assert (await table.bot.storage.get_game(await table.game_id())).version == 0
    outsider = table.emu.create_user("dave")
    table.emu.add_member(table.guild, outsider)
    res = await table.click(outsider, board, label="Wager 3")
    await res.wait_done()
    assert res.ephemeral and "not playing" in res.text


async def test_simultaneous_answers_through_my_choices(table: Table) -> None:
    await _started(table)
    await table.click(table.alice, table.board(), label="Wager 2")
    for user in (table.alice, table.bob, table.carol):
        res = await table.click(user, table.board(), label="My choices")
        await res.wait_done()
        assert res.ephemeral
        menu = res.messages[-1]
        card = next(c for c in menu.custom_ids if c.startswith("hb:a:"))
        play = await table.click(user, menu, card)
        await play.wait_done()
        assert not play.errors and "Done: Play" in play.text
    texts = " ".join(m.content for m in table.emu.messages_in(table.thread()))
    assert "Reveal" in texts


async def test_bad_input_gets_a_clear_ephemeral_answer(table: Table) -> None:
    res = await table.slash(table.alice, table.general, "game status")
    assert res.ephemeral and "no game in this channel" in res.text
    with pytest.raises(EmulatorError):  # the game is one of Discord's own choices
        await table.slash(table.alice, table.general, "game new", game="chess")
    res = await table.slash(table.alice, table.general, "game new", game="highcard",
                            options="rounds=9")
    assert res.ephemeral and "rounds" in res.text
    assert table.emu.threads_of(table.general) == []
    lobby = await table.lobby()
    res = await table.click(table.alice, lobby, label="Join")
    await res.wait_done()
    assert res.ephemeral and "already" in res.text
    res = await table.slash(table.alice, table.thread(), "game start")
    assert res.ephemeral and "player" in res.text.lower()
    await table.click(table.bob, lobby, label="Join")
    res = await table.slash(table.bob, table.thread(), "game start")
    assert res.ephemeral and "created" in res.text.lower()
    res = await table.slash(table.alice, table.thread(), "game rules", rule="EX-ACT-01")
    assert res.ephemeral and "Move" in res.text
    res = await table.slash(table.alice, table.thread(), "game rules", rule="EX-NOPE-99")
    assert res.ephemeral and "no rule" in res.text


async def test_missing_permissions_are_named(table: Table) -> None:
    locked = table.emu.create_text_channel(
        table.guild, "locked", bot_permissions=GAME_BOT_PERMISSIONS & ~(1 << 35))
    res = await table.slash(table.alice, locked, "game new", game="highcard")
    assert res.ephemeral and "Create Public Threads" in res.text
    assert table.emu.threads_of(locked) == []


async def test_restart_mid_game_then_finish(table: Table) -> None:
    await table.lobby(players=(table.bob,), options="rounds=2")
    await table.slash(table.alice, table.thread(), "game start")
    await table.click(table.alice, table.board(), label="Wager 1")
    board_before_restart = table.board()
    await table.restart()
    # the board posted by the previous process still works (persistent components)
    res = await table.click(table.alice, board_before_restart, label="My choices")
    await res.wait_done()
    assert "Your choices" in res.text
    for user in (table.alice, table.bob):
        res = await table.click(user, table.board(), label="My choices")
        await res.wait_done()
        menu = res.messages[-1]
        card = next(c for c in menu.custom_ids if c.startswith("hb:a:"))
        await (await table.emu.click(user, menu, card)).wait_done()
        await table.emu.settle()
    # round 2: bob sets the wager, both play, game over
    await table.click(table.bob, table.board(), label="Wager 3")
    for user in (table.alice, table.bob):
        res = await table.click(user, table.board(), label="My choices")
        await res.wait_done()
        menu = res.messages[-1]
        card = next(c for c in menu.custom_ids if c.startswith("hb:a:"))
        await (await table.emu.click(user, menu, card)).wait_done()
        await table.emu.settle()
    last = table.emu.messages_in(table.thread())[-1]
    assert "Game over" in last.content
    assert table.bot is not None
    gid = await table.game_id()
    assert (await table.bot.storage.get_game(gid)).status == "over"
    assert await table.bot.tables.verify(gid)
    res = await table.slash(table.alice, table.thread(), "game hand")
    assert res.ephemeral
    # a thread whose game ended: clear answers, nothing changes
    for command in ("game join", "game start", "game leave"):
        res = await table.slash(table.carol, table.thread(), command)
        assert res.ephemeral and res.text, command
    # A stale client still showing My choices on an old board post (private news no longer
    # comes as DMs with buttons of their own, #15).
    res = await table.emu.click(table.alice, table.board(), f"hb:play:{gid}", check=False)
    await res.wait_done()
    assert res.ephemeral and "isn't being played" in res.text
    assert (await table.bot.storage.get_game(gid)).status == "over"


async def test_rate_limit_429_is_retried_and_the_board_lands_once(table: Table) -> None:
    await _started(table)
    board = table.board()
    table.emu.fail_next("POST", r"/channels/\d+/messages$", status=429, retry_after=0.05)
    await table.click(table.alice, board, label="Wager 2")
    await table.emu.settle(quiet=0.2)
    posts = [m for m in table.emu.messages_in(table.thread()) if "sets the wager" in m.content]
    assert len(posts) == 1


async def test_gateway_reconnect_keeps_the_game_going(table: Table) -> None:
    await _started(table)
    await table.emu.gateway_reconnect()
    res = await table.click(table.alice, table.board(), label="Wager 2")
    await res.wait_callback()
    assert table.emu.stats.resumes >= 1
    assert any("sets the wager" in m.content for m in table.emu.messages_in(table.thread()))


async def test_reminders_nudge_only_the_awaited_player(table: Table) -> None:
    await _started(table)
    assert table.bot is not None and table.bot.reminders is not None
    table.clock_now += 13 * 3600
    await table.bot.reminders.run_once()
    await table.emu.settle()
    nudges = {u.name: [m for m in table.emu.dm_messages(u) if "your move" in m.content]
              for u in (table.alice, table.bob, table.carol)}
    assert len(nudges["alice"]) == 1 and not nudges["bob"] and not nudges["carol"]
    table.clock_now += 13 * 3600
    await table.bot.reminders.run_once()
    await table.emu.settle()
    pings = [m for m in table.emu.messages_in(table.thread())
             if "waiting for your move" in m.content]
    assert pings and pings[-1].pinged_user_ids == [table.alice.id]


def _nudges(table: Table, user: Any) -> tuple[list[Any], list[Any]]:
    """The reminders `user` got: DMs, and pings in the game's thread."""
    dms = [m for m in table.emu.dm_messages(user) if "your move" in m.content]
    pings = [m for m in table.emu.messages_in(table.thread())
             if "waiting for your move" in m.content and user.id in m.pinged_user_ids]
    return dms, pings


async def _five_days(table: Table) -> None:
    """The reminder clock over five days: the DM stage (12 h), the ping (12 h more), then one a
    day."""
    assert table.bot is not None and table.bot.reminders is not None
    for hours in (13, 13, 25, 25, 25, 25):
        table.clock_now += hours * 3600
        await table.bot.reminders.run_once()
        await table.emu.settle()


async def test_a_player_with_closed_dms_is_pinged_every_day(table: Table) -> None:
    """Issue #20: with closed DMs a player got one reminder in five days (every stage but the
    ping was a DM Discord refused). Known closed at the join's test DM: each DM stage (the
    first reminder, then the daily one) is a ping in the thread instead."""
    table.alice.dms_open = False
    await _started(table)
    refused = len([e for e in table.emu.errors if e.code == 50007])
    await _five_days(table)
    dms, pings = _nudges(table, table.alice)
    assert dms == [] and len(pings) == 6
    assert all(p.pinged_user_ids == [table.alice.id] for p in pings)
    # Nobody else was nudged, and no reminder DM to alice was even tried.
    assert not any(_nudges(table, u)[1] for u in (table.bob, table.carol))
    assert len([e for e in table.emu.errors if e.code == 50007]) == refused
    table.emu.assert_no_errors(allow=[50007])


async def test_a_reminder_dm_refused_now_becomes_a_ping(table: Table) -> None:
    await _started(table)
    table.alice.dms_open = False  # closed after the join
    refused = len([e for e in table.emu.errors if e.code == 50007])
    assert table.bot is not None and table.bot.reminders is not None
    table.clock_now += 13 * 3600
    await table.bot.reminders.run_once()
    await table.emu.settle()
    dms, pings = _nudges(table, table.alice)
    assert dms == [] and len(pings) == 1  # the refused DM's reminder, in the thread
    await _five_days(table)
    dms, pings = _nudges(table, table.alice)
    assert dms == [] and len(pings) == 6
    # Refused once, then known: the bot does not knock on a closed door every day.
    assert len([e for e in table.emu.errors if e.code == 50007]) == refused + 1


async def test_an_open_dm_player_gets_the_dm_then_a_ping_a_day(table: Table) -> None:
    await _started(table)
    await _five_days(table)
    dms, pings = _nudges(table, table.alice)
    assert len(dms) == 5 and len(pings) == 1  # the DM, the ping, then a DM a day
    table.emu.assert_no_errors()


async def test_abandon_and_list(table: Table) -> None:
    await table.lobby(players=(table.bob,))
    res = await table.slash(table.alice, table.general, "game list")
    assert "High Card" in res.text
    res = await table.slash(table.bob, table.thread(), "game abandon")
    assert res.ephemeral and "created" in res.text.lower()
    res = await table.slash(table.alice, table.thread(), "game abandon")
    assert "abandoned" in res.text.lower()
    res = await table.slash(table.alice, table.thread(), "game join")
    assert res.ephemeral
    res = await table.slash(table.alice, table.general, "game list")
    assert "No games" in res.text


async def test_every_view_sent_is_json_and_no_secret_in_the_thread(table: Table) -> None:
    await _started(table)
    assert table.bot is not None
    state = await table.bot.tables.state(await table.game_id())
    hands = [json.dumps(h) for h in state.hands.values()]
    thread_text = " ".join(m.content for m in table.emu.messages_in(table.thread()))
    for hand in hands:
        assert "Your hand: " + hand.strip("[]") not in thread_text


async def test_a_move_stored_just_before_a_crash_gets_its_board_after_the_restart(
    table: Table,
) -> None:
    """#7 "never loses a game": a move stored but not shown (killed between the commit and
    the board post) is announced with its board as soon as the bot is back."""
    await table.lobby(players=(table.bob,), options="rounds=2")
    await table.slash(table.alice, table.thread(), "game start")
    assert table.bot is not None
    gid = await table.game_id()
    start = await table.bot.storage.get_game(gid)
    assert start is not None
    start_post = await table.bot.storage.board_post(gid)
    await table.click(table.alice, table.board(), label="Wager 1")
    record = await table.bot.storage.get_game(gid)
    assert record is not None and record.version == 1
    # Make the stored board lag one move behind, as a crash after the commit would: the
    # start's post is still the board (#13: with what it stood for).
    await table.bot.storage.set_board_message(gid, start.board_message_id, 0, start_post)
    assert [r.id for r, _ in await table.bot.storage.boards_behind()] == [gid]
    posts_before = len(table.emu.messages_in(table.thread()))
    await table.restart()
    for _ in range(200):  # the catch-up runs from on_ready, off the emulator's books
        if not await table.bot.storage.boards_behind():
            break
        await asyncio.sleep(0.02)
    await table.emu.settle()
    posts = table.emu.messages_in(table.thread())[posts_before:]
    assert len(posts) == 1, [p.content for p in posts]
    assert "restarted" in posts[0].content and "sets the wager at 1" in posts[0].content
    # bob newly has to decide (alice was awaited before the move and is not pinged again)
    assert posts[0].pinged_user_ids == [table.bob.id]
    assert await table.bot.storage.boards_behind() == []
    # the new board is the live one: its buttons play on
    res = await table.click(table.alice, table.board(), label="My choices")
    await res.wait_done()
    assert "Your choices" in res.text


async def test_a_bot_stopped_during_its_start_up_leaves_its_ready_work_cleanly(
        table: Table, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """Stop 69: a bot stopped (a redeploy, SIGTERM) while its start-up work still runs (the
    moves a crash left in flight answered, the boards left behind posted) closed its storage
    under that work, which then failed and logged "ready hook … failed" with a traceback. The
    start-up work is called off instead; the next start does it."""
    import logging

    from cogs.utils.pending import PendingMoves

    began = asyncio.Event()
    release = asyncio.Event()

    async def slow(self: PendingMoves) -> int:
        began.set()
        await release.wait()  # a long catch-up, under way when the bot stops
        await self.bot.storage.pending_moves()
        return 0

    await table.stop()
    monkeypatch.setattr(PendingMoves, "answer_left_behind", slow)
    await table.start()
    await asyncio.wait_for(began.wait(), 5)
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        stopping = asyncio.create_task(table.stop())
        await asyncio.sleep(0.05)
        release.set()
        await stopping
        await asyncio.sleep(0.05)
    assert not [r.getMessage() for r in caplog.records if "ready hook" in r.getMessage()]
