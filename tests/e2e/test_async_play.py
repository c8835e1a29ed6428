"""Async play end to end: the real bot through discord.py against the local emulator, on High
Card (tests/tinygame.py). Reminder policies with the AI standing in, quiet hours and vacations,
"my turn is near", substitutes, spectators, rematch, undo, the log and the replay, and threads
that are archived or deleted under a game (DESIGN.md, "Reminders", "Seats", "Undo", "Threads").
"""

from __future__ import annotations

from typing import Any

from cogs.utils.table import MENU_TOKEN_LIFE, delivery_for
from emulator.records import MessageRecord
from tests.e2e.conftest import Table

HOUR = 3600.0


async def _started(table: Table, *players: Any, rounds: int = 3) -> int:
    await table.lobby(players=players or (table.bob, table.carol), options=f"rounds={rounds}")
    await table.slash(table.alice, table.thread(), "game start")
    return await table.game_id()


async def _play_card(table: Table, user: Any) -> None:
    """`user` answers the play prompt with their first card through **My choices**."""
    res = await table.click(user, table.board(), label="My choices")
    await res.wait_done()
    menu = res.messages[-1]
    card = next(c for c in menu.custom_ids if c.startswith("hb:a:"))
    await (await table.emu.click(user, menu, card)).wait_done()
    await table.emu.settle()


def _pings(table: Table) -> list[tuple[str, list[str]]]:
    """(text, pinged users) of every message the bot sent in the game thread."""
    return [(m.content, list(m.pinged_user_ids)) for m in table.emu.messages_in(table.thread())]


def _only_awaited_were_pinged(table: Table) -> None:
    """Every ping in the thread names a player the game was waiting for when it was sent: the
    board's lines saying what the awaited must do ("⏳ …"), or a reminder addressed to the
    awaited."""
    for message in table.emu.messages_in(table.thread()):
        # Pings go out when a post is created: judge them by its first version (a board post
        # is edited in place afterwards, without pinging anyone).
        first = message.history[0].content if message.history else message.content
        waiting = "\n".join(line for line in first.splitlines() if line.startswith("⏳ "))
        for user in message.pinged_user_ids:
            assert (f"<@{user}>" in waiting
                    or "waiting for your move" in first), first


def _dms(table: Table, user: Any, words: str) -> list[MessageRecord]:
    return [m for m in table.emu.dm_messages(user) if words in m.content]


async def _remind(table: Table, hours: float) -> None:
    assert table.bot is not None and table.bot.reminders is not None
    table.clock_now += hours * HOUR
    await table.bot.reminders.run_once()
    await table.emu.settle()


async def test_async_play_commands_are_synced(table: Table) -> None:
    paths = table.emu.commands.all_paths()
    for sub in ("away", "quiet", "notify", "replace", "spectate", "rematch", "undo", "log",
                "replay", "settings"):
        assert f"game {sub}" in paths


# ---- reminder policy -----------------------------------------------------------------------------
async def test_enforced_deadline_hands_the_seat_to_the_ai_until_its_player_is_back(
    table: Table,
) -> None:
    gid = await _started(table, table.bob)
    res = await table.slash(table.bob, table.thread(), "game settings", policy="enforced")
    assert res.ephemeral and "Only the player who created" in res.text
    res = await table.slash(table.alice, table.thread(), "game settings", policy="enforced",
                            deadline_hours=2.0, at_deadline="ai")
    assert "enforced" in res.text and "the AI plays the seat" in res.text
    await _remind(table, 2.5)
    assert _dms(table, table.alice, "built-in AI now plays your seat")
    texts = " ".join(m.content for m in table.emu.messages_in(table.thread()))
    assert "s1 sets the wager" in texts and "s1 plays a card face down" in texts
    assert table.bot is not None
    assert await table.bot.tables.awaited(gid) == {"s2": int(table.bob.id)}
    # bob plays; round 2 is bob's wager; after it the AI answers for alice at once
    await _play_card(table, table.bob)
    await table.click(table.bob, table.board(), label="Wager 1")
    assert await table.bot.tables.awaited(gid) == {"s2": int(table.bob.id)}
    # alice is back: any /game command in the thread takes her seat back from the AI
    res = await table.slash(table.alice, table.thread(), "game status")
    assert res.ephemeral
    await _play_card(table, table.bob)
    assert await table.bot.tables.awaited(gid) == {"s1": int(table.alice.id)}
    seats = await table.bot.storage.seats(gid)
    assert not any(s.ai_standin for s in seats)
    assert await table.bot.tables.verify(gid)
    _only_awaited_were_pinged(table)


async def test_enforced_default_move_is_played_and_shown(table: Table) -> None:
    gid = await _started(table, table.bob)
    await table.slash(table.alice, table.thread(), "game settings", policy="enforced",
                      deadline_hours=1.0)
    await _remind(table, 1.5)
    assert _dms(table, table.alice, "default move was played for you")
    assert any("sets the wager" in m.content for m in table.emu.messages_in(table.thread()))
    assert table.bot is not None
    assert (await table.bot.storage.get_game(gid)).version == 1  # type: ignore[union-attr]


async def test_quiet_hours_and_vacation_silence_everything_and_nobody_else_is_pinged(
    table: Table,
) -> None:
    res = await table.slash(table.alice, table.general, "game away", state="on")
    assert res.ephemeral and "away" in res.text
    res = await table.slash(table.bob, table.general, "game quiet", start="25")
    assert res.ephemeral and "isn't a time of day" in res.text
    res = await table.slash(table.bob, table.general, "game quiet", start="22")
    assert res.ephemeral and "both ends" in res.text
    gid = await _started(table)
    board = table.board()
    assert board.pinged_user_ids == []  # alice is awaited but away: named, not pinged
    for hours in (13, 25, 25):
        await _remind(table, hours)
    assert _dms(table, table.alice, "your move") == []
    assert all(pinged == [] for _, pinged in _pings(table))
    res = await table.slash(table.alice, table.general, "game away", state="off")
    assert "Welcome back" in res.text
    # quiet hours from now on: the reminder waits for their end
    now_minute = int(table.clock_now // 60) % 1440
    start = f"{now_minute // 60}:{now_minute % 60:02d}"
    end_minute = (now_minute + 8 * 60) % 1440
    end = f"{end_minute // 60}:{end_minute % 60:02d}"
    res = await table.slash(table.alice, table.general, "game quiet", start=start, end=end,
                            tz="0")
    assert res.ephemeral and "Quiet hours" in res.text
    await _remind(table, 25)
    assert _dms(table, table.alice, "your move") == []  # held: alice is in quiet hours
    await _remind(table, 8)
    assert len(_dms(table, table.alice, "your move")) == 1  # sent once they ended
    assert all(pinged == [] for _, pinged in _pings(table))
    for user in (table.bob, table.carol):
        assert _dms(table, user, "your move") == []
    assert table.bot is not None
    assert (await table.bot.storage.get_game(gid)).version == 0  # type: ignore[union-attr]


async def test_turn_is_near_dm_goes_to_the_opted_in_next_player_only(table: Table) -> None:
    res = await table.slash(table.carol, table.general, "game notify", near="on")
    assert res.ephemeral and "next to move" in res.text
    await _started(table)
    await table.click(table.alice, table.board(), label="Wager 1")
    for user in (table.alice, table.bob, table.carol):
        await _play_card(table, user)
    # round 2: bob (s2) sets the wager, carol (s3) is next
    assert len(_dms(table, table.carol, "Your turn is near")) == 1
    assert _dms(table, table.alice, "Your turn is near") == []
    assert _dms(table, table.bob, "Your turn is near") == []
    _only_awaited_were_pinged(table)


# ---- seats -------------------------------------------------------------------------------------
async def test_creator_replaces_a_player_who_gets_the_hand_by_dm(table: Table) -> None:
    dave = table.emu.create_user("dave")
    table.emu.add_member(table.guild, dave)
    gid = await _started(table)
    res = await table.slash(table.alice, table.general, "game replace", old=table.bob, new=dave)
    assert res.ephemeral and "no game in this channel" in res.text
    res = await table.slash(table.alice, table.thread(), "game replace", old=table.bob, new=dave)
    assert res.ephemeral and "dave now plays s2" in res.text
    dm = _dms(table, dave, "You now play **s2**")
    assert dm and "Your hand:" in dm[0].content
    assert _dms(table, table.bob, "was handed to dave")
    assert any("takes over" in m.content and m.pinged_user_ids == []
               for m in table.emu.messages_in(table.thread()))
    assert dave.id in table.emu.thread_members(table.thread())
    await table.click(table.alice, table.board(), label="Wager 2")
    res = await table.click(table.bob, table.board(), label="My choices")
    await res.wait_done()
    assert "not playing" in res.text
    await _play_card(table, dave)
    assert table.bot is not None
    assert (await table.bot.tables.users_of(gid))["s2"] == int(dave.id)
    _only_awaited_were_pinged(table)


async def test_replacement_by_a_vote_of_the_other_seats(table: Table) -> None:
    dave, erin = table.emu.create_user("dave"), table.emu.create_user("erin")
    for user in (dave, erin):
        table.emu.add_member(table.guild, user)
    gid = await _started(table, table.bob, table.carol, dave)
    res = await table.slash(table.bob, table.thread(), "game replace", old=dave, new=erin)
    assert "Your vote is in (1 of 2)" in res.text
    assert any("votes to give" in m.content for m in table.emu.messages_in(table.thread()))
    assert table.bot is not None
    assert (await table.bot.tables.users_of(gid))["s4"] == int(dave.id)
    res = await table.slash(table.carol, table.thread(), "game replace", old=dave, new=erin)
    assert "erin now plays s4" in res.text
    assert (await table.bot.tables.users_of(gid))["s4"] == int(erin.id)


async def test_spectators_follow_the_thread_and_are_refused_hands_and_choices(
    table: Table,
) -> None:
    dave = table.emu.create_user("dave")
    table.emu.add_member(table.guild, dave)
    await _started(table)
    res = await table.slash(dave, table.thread(), "game spectate")
    assert res.ephemeral and "following this game" in res.text
    assert dave.id in table.emu.thread_members(table.thread())
    res = await table.slash(dave, table.thread(), "game spectate")
    assert "already following" in res.text
    res = await table.slash(table.bob, table.thread(), "game spectate")
    assert "You're playing" in res.text
    res = await table.slash(dave, table.thread(), "game hand")
    assert res.ephemeral and "spectating" in res.text
    res = await table.click(dave, table.board(), label="My choices")
    await res.wait_done()
    assert res.ephemeral and "spectating" in res.text
    res = await table.click(dave, table.board(), label="Wager 1")
    await res.wait_done()
    assert res.ephemeral and "spectating" in res.text
    res = await table.slash(dave, table.thread(), "game spectate", stop=True)
    assert "stopped following" in res.text
    assert dave.id not in table.emu.thread_members(table.thread())


async def test_rematch_same_seats_new_seed_new_thread(table: Table) -> None:
    gid = await _started(table, table.bob, rounds=1)
    res = await table.slash(table.bob, table.thread(), "game rematch")
    assert res.ephemeral and "still going" in res.text
    await table.click(table.alice, table.board(), label="Wager 1")
    for user in (table.alice, table.bob):
        await _play_card(table, user)
    old_thread = table.thread()
    assert "Game over" in table.emu.messages_in(old_thread)[-1].content
    res = await table.slash(table.bob, old_thread, "game rematch")
    assert res.ephemeral and "Rematch started" in res.text
    new_thread = table.thread()
    assert new_thread.id != old_thread.id
    assert any("Rematch: game #" in m.content for m in table.emu.messages_in(old_thread))
    assert table.bot is not None
    new = await table.bot.storage.find_game_by_thread(int(new_thread.id))
    old = await table.bot.storage.get_game(gid)
    assert new is not None and old is not None and new.rematch_of == gid
    assert new.options == old.options and new.seed != old.seed and new.status == "active"
    assert await table.bot.tables.users_of(new.id) == await table.bot.tables.users_of(gid)
    for user in (table.alice, table.bob):
        assert len(_dms(table, user, "Your hand:")) == 2
    res = await table.slash(table.alice, old_thread, "game rematch")
    assert res.ephemeral and "already has a rematch" in res.text


# ---- undo, log, replay ---------------------------------------------------------------------------
async def test_undo_own_last_move_and_buttons_from_before_go_stale(table: Table) -> None:
    gid = await _started(table, table.bob)
    first_board = table.board()
    res = await table.slash(table.alice, table.thread(), "game undo")
    assert res.ephemeral and "nothing to undo" in res.text
    opened = await table.click(table.alice, first_board, label="My choices")
    await opened.wait_done()
    menu = opened.messages[-1]  # alice's choices at version 0, before any undo
    # ... kept as they are: Discord no longer lets the bot update that menu (15 minutes on),
    # else it would follow the game and show her choices after the undo (issue #14)
    assert table.bot is not None
    for ref in delivery_for(table.bot).menus.refs.values():
        ref.at -= MENU_TOKEN_LIFE + 1
    await table.click(table.alice, first_board, label="Wager 3")
    res = await table.slash(table.bob, table.thread(), "game undo")
    assert res.ephemeral and "Only the player who made the last move" in res.text
    res = await table.slash(table.alice, table.thread(), "game undo")
    assert res.ephemeral and "Undone" in res.text
    board = table.board()
    assert "took back their last move" in board.content
    assert table.bot is not None
    rec = await table.bot.storage.get_game(gid)
    assert rec is not None and (rec.version, rec.epoch) == (0, 1)
    # the menu was made for version 0 before the undo; the game is at version 0 again, but a
    # new epoch: the press is refused and nothing changes
    res = await table.emu.click(table.alice, menu, label="Wager 1")
    await res.wait_done()
    assert res.ephemeral and "earlier moment" in res.text
    assert (await table.bot.storage.get_game(gid)).version == 0  # type: ignore[union-attr]
    await table.click(table.alice, board, label="Wager 1")
    await table.click(table.alice, table.board(), label="My choices")
    await _play_card(table, table.alice)
    res = await table.slash(table.alice, table.thread(), "game undo")
    assert res.ephemeral and "revealed hidden information" in res.text


async def test_log_public_and_private_and_replay_picture(table: Table) -> None:
    await _started(table, table.bob)
    await table.click(table.alice, table.board(), label="Wager 2")
    for user in (table.alice, table.bob):
        await _play_card(table, user)
    res = await table.slash(table.carol, table.thread(), "game log")
    assert res.ephemeral and "sets the wager at 2" in res.text and "Reveal" in res.text
    assert "You played" not in res.text
    res = await table.slash(table.carol, table.thread(), "game log", private=True)
    assert "not playing" in res.text
    res = await table.slash(table.bob, table.thread(), "game log", private=True)
    assert "Sent to your DMs" in res.text
    dm = _dms(table, table.bob, "your private events")[-1]
    assert "You played" in dm.content and "sets the wager" not in dm.content
    res = await table.slash(table.carol, table.thread(), "game replay", step=1)
    assert res.ephemeral and "after step 1 of 3" in res.text  # High Card has no picture
    res = await table.slash(table.carol, table.thread(), "game replay", step=9)
    assert res.ephemeral and "from 0 (the deal) to 3" in res.text


async def test_replay_renders_the_public_board_as_a_picture(table: Table) -> None:
    await table.lobby(game="exorcism", players=(table.bob,))
    await table.slash(table.alice, table.thread(), "game start")
    res = await table.slash(table.carol, table.thread(), "game replay", step=0)
    assert res.ephemeral and "after step 0 of 0" in res.text
    assert res.files and res.files[0].data[:4] == b"\x89PNG"


# ---- threads -------------------------------------------------------------------------------------
async def test_archived_thread_is_reopened_before_the_bot_posts(table: Table) -> None:
    await _started(table, table.bob)
    board = table.board()
    table.emu.archive_thread(table.thread())
    await table.emu.settle()
    await table.click(table.alice, board, label="Wager 2")
    assert table.emu.posts_to_archived == []
    assert not table.thread().archived
    assert "sets the wager at 2" in table.emu.messages_in(table.thread())[-1].content


async def test_deleted_thread_abandons_the_game_and_tells_its_players(table: Table) -> None:
    gid = await _started(table, table.bob)
    table.emu.delete_channel(table.thread())
    await table.emu.settle()
    assert table.bot is not None
    assert (await table.bot.storage.get_game(gid)).status == "abandoned"  # type: ignore[union-attr]
    for user in (table.alice, table.bob):
        assert len(_dms(table, user, "was deleted")) == 1
    assert _dms(table, table.carol, "was deleted") == []


async def test_thread_deleted_while_the_bot_was_down_is_found_on_the_next_post(
    table: Table,
) -> None:
    gid = await _started(table, table.bob)
    await table.stop()
    table.emu.delete_channel(table.thread())
    await table.start()
    await _remind(table, 13)  # the DM
    await _remind(table, 25)  # the ping goes to the thread: 404 Unknown Channel
    assert table.bot is not None
    assert (await table.bot.storage.get_game(gid)).status == "abandoned"  # type: ignore[union-attr]
    assert len(_dms(table, table.bob, "was deleted")) == 1


async def test_post_into_a_thread_gone_without_notice_abandons_the_game(table: Table) -> None:
    gid = await _started(table, table.bob)
    await table.slash(table.alice, table.thread(), "game settings", policy="enforced",
                      deadline_hours=1.0)
    table.thread().deleted = True  # gone, but no THREAD_DELETE reached the bot: posts get 404
    await _remind(table, 1.5)  # the default move is played; its board post finds no thread
    assert table.bot is not None
    assert (await table.bot.storage.get_game(gid)).status == "abandoned"  # type: ignore[union-attr]
    for user in (table.alice, table.bob):
        assert len(_dms(table, user, "was deleted")) == 1
