"""The summary DM as a seat's private control panel (issue #14, item 1), through the emulator.

A seat's private choices (the part of its legal actions the board post does not offer: plays
from a hidden hand) ride on its summary DM while the game waits for it. One press there plays
the move, and the press is answered by updating that same DM (UPDATE_MESSAGE) to the seat's
summary and choices after the move; a stale press is refused and nothing changes; after a
restart the DM is found again and its buttons still play; a seat whose DMs are closed plays
from **My choices** as before. Played as I Am the Fourth Wall (Conflict), whose Wall and
Investigators play Horrors and Marbles from hands only they see (FW-VIS-06, FW-VIS-15).
"""

from __future__ import annotations

import bisect
from typing import Any

from cogs.utils.table import (
    _decision_token,
    action_hash,
    delivery_for,
    panel_actions,
    summary_dm,
    summary_head,
)
from cogs.utils.table.summaries import mine_command
from demo import AutoTable
from emulator.interaction_records import UPDATE_MESSAGE
from emulator.records import MessageRecord, UserRecord
from rules.core import Action
from rules.registry import GAMES
from tests.e2e.conftest import Table
from tests.e2e.posting import versions

FW = GAMES["fourth_wall"]
DM_LINE = "your private choices are in your DMs"


async def _auto(table: Table) -> AutoTable:
    assert table.bot is not None
    table.bot.tables.seed_source = lambda: 3
    auto = AutoTable(table.emu, table.bot, table.general, [table.alice, table.bob, table.carol])
    await auto.open("fourth_wall", "conflict")
    return auto


async def _until_private(auto: AutoTable) -> tuple[str, UserRecord, Any]:
    """Play on until a person is awaited with private choices; (seat, its user, state)."""
    users = await auto.bot.tables.users_of(auto.game_id)

    def private(st: Any) -> bool:
        return any(users.get(s) and panel_actions(FW, st, s) for s in FW.to_act(st))

    await auto.play_to_end(until=private)
    state = await auto.bot.tables.state(auto.game_id)
    seat = next(s for s in sorted(FW.to_act(state)) if users.get(s)
                and panel_actions(FW, state, s))
    user = next(u for u in auto.users if int(u.id) == users[seat])
    return seat, user, state


def _panels(table: Table, auto: AutoTable, user: UserRecord) -> list[MessageRecord]:
    """The user's DMs that carry this game's action components now."""
    prefix = (f"hb:a:{auto.game_id}:", f"hb:s:{auto.game_id}:")
    return [m for m in table.emu.dm_messages(user)
            if any(c.startswith(prefix) for c in m.custom_ids)]


def _summaries(table: Table, auto: AutoTable, user: UserRecord) -> list[MessageRecord]:
    head = summary_head(FW, auto.game_id)
    return [m for m in table.emu.dm_messages(user) if m.content.startswith(head)]


def _private_choice(state: Any, seat: str) -> Action:
    """The AI's move when it is a private one, else the seat's first private choice."""
    private = panel_actions(FW, state, seat)
    chosen = FW.ai_action(state, seat)
    keys = {a.key() for a in private}
    return chosen if chosen.key() in keys else private[0]


async def _expected_dm(auto: AutoTable, seat: str) -> tuple[str, list[str]]:
    """The words and custom ids the seat's summary DM should show now."""
    record = await auto.bot.storage.get_game(auto.game_id)
    assert record is not None
    state = await auto.bot.tables.state(auto.game_id)
    now = summary_dm(record, FW, state, seat, mine=mine_command(auto.bot.command_ids))
    assert now is not None
    view = now.view()
    ids = [str(getattr(item, "custom_id", "")) for item in view.children] if view else []
    return now.text, ids


async def test_issue14_hidden_hand_play_is_one_press_on_the_dm_answered_by_updating_it(
        table: Table) -> None:
    auto = await _auto(table)
    seat, user, state = await _until_private(auto)
    record = await auto.bot.storage.get_game(auto.game_id)
    assert record is not None
    token = _decision_token(FW.decision_id(state, seat), record.epoch)

    # One DM carries the seat's private choices: its summary DM, the current decision's.
    [panel] = _panels(table, auto, user)
    assert panel in _summaries(table, auto, user)
    assert all(c.split(":")[4] == token for c in panel.custom_ids if c.startswith("hb:a:"))
    # The hidden cards' plays are not on the board post (FW-VIS-15): only in this DM.
    action = _private_choice(state, seat)
    h = action_hash(action)
    assert not [c for c in auto.board().custom_ids if c.endswith(h)]
    text, ids = await _expected_dm(auto, seat)
    assert panel.content == text and panel.custom_ids == ids

    edits, dms, version = len(panel.history), len(table.emu.dm_messages(user)), state.step
    target = auto._target(panel, seat, h, token)
    assert target is not None
    cid, is_select = target
    res = await (table.emu.select(user, panel, cid, [h]) if is_select
                 else table.emu.click(user, panel, cid))
    await res.wait_callback()
    await auto._moved_on(version)
    await table.emu.settle()

    # The move is played, and its answer is the DM itself, updated in that same request to
    # the seat's summary and choices now: no other edit of it, no new summary DM.
    now = await auto.bot.tables.state(auto.game_id)
    assert now.step > version
    assert res.callback_type == UPDATE_MESSAGE and res.source_message_id == panel.id
    assert not res.followup_ids and not res.errors
    # Discord sends a DM press with the user, no member and no server.
    assert "user" in res.payload and "member" not in res.payload
    assert "guild_id" not in res.payload and res.guild_id is None
    text, ids = await _expected_dm(auto, seat)
    assert panel.content == text and panel.custom_ids == ids
    assert (res.callback_data or {}).get("content") == text
    assert len(panel.history) == edits + 1
    assert _summaries(table, auto, user) == [panel]
    new_dms = table.emu.dm_messages(user)[dms:]
    assert not [m for m in new_dms if m.custom_ids and m.custom_ids[0].startswith("hb:a:")]

    # The same press again (a double click, an old client): refused, ephemerally and
    # clearly; nothing is played, the DM is left as it is.
    edits = len(panel.history)
    again = await (table.emu.select(user, panel, cid, [h], check=False) if is_select
                   else table.emu.click(user, panel, cid, check=False))
    await again.wait_done()
    await table.emu.settle()
    assert again.ephemeral and "moved on" in again.text and "nothing was played" in again.text
    assert (await auto.bot.tables.state(auto.game_id)).step == now.step
    assert len(panel.history) == edits and panel.content == text

    # The game plays on to its end with every private move pressed on the DMs.
    await auto.play_to_end()
    finished = await auto.bot.storage.get_game(auto.game_id)
    assert finished is not None and finished.status == "over"
    assert await auto.bot.tables.verify(auto.game_id)
    assert auto.shares().get("dm", 0) > 0
    assert not auto.shares().get("open menu") and not auto.shares().get("my choices")
    # At the end no DM keeps buttons: nothing waits for anyone.
    for u in auto.users:
        assert _panels(table, auto, u) == []
    assert table.emu.unknown_routes == []


async def test_issue14_dm_buttons_still_play_after_a_restart(table: Table) -> None:
    auto = await _auto(table)
    seat, user, state = await _until_private(auto)
    [panel] = _panels(table, auto, user)
    bot = await table.restart()
    auto.bot = bot
    assert not delivery_for(bot).has_panel(auto.game_id, seat)  # a new process knows nothing

    action = _private_choice(state, seat)
    record = await bot.storage.get_game(auto.game_id)
    assert record is not None
    token = _decision_token(FW.decision_id(state, seat), record.epoch)
    target = auto._target(panel, seat, action_hash(action), token)
    assert target is not None
    cid, is_select = target
    res = await (table.emu.select(user, panel, cid, [action_hash(action)]) if is_select
                 else table.emu.click(user, panel, cid))
    await res.wait_callback()
    assert await auto._moved_on(state.step)
    await table.emu.settle()
    assert res.callback_type == UPDATE_MESSAGE and not res.errors
    text, ids = await _expected_dm(auto, seat)
    assert panel.content == text and panel.custom_ids == ids

    # Later moves keep editing the DMs found again, never a second summary DM.
    await auto.play_to_end(until=lambda st: st.step >= state.step + 12)
    for u in auto.users:
        assert len(_summaries(table, auto, u)) == 1, u.name
    assert auto.shares().get("dm", 0) > 0
    assert table.emu.unknown_routes == []


async def test_issue14_closed_dms_fall_back_to_my_choices_and_the_board_line_tells_nothing(
        table: Table) -> None:
    """Carol's DMs are closed: she plays her private choices from **My choices** (and the
    menu that follows the game), and the board never says her choices are in her DMs. The
    others' line depends on nothing but whose DMs are open: it is on every board version that
    waits for them, whether or not their DM carries choices at that moment."""
    table.carol.dms_open = False
    auto = await _auto(table)
    users = await auto.bot.tables.users_of(auto.game_id)
    names = {int(u.id): u.name for u in auto.users}
    carol_seat = next(s for s, u in users.items() if u == int(table.carol.id))
    moments: list[tuple[int, set[str], bool]] = []  # (mark, awaited names, any panel)

    def watch(st: Any, mark: int) -> None:
        awaited = {names[u] for s in FW.to_act(st) if (u := users.get(s))}
        panel = any(users.get(s) and panel_actions(FW, st, s) for s in FW.to_act(st))
        moments.append((mark, awaited, panel))

    await auto.play_to_end(watch=watch)
    assert _summaries(table, auto, table.carol) == []
    carol_moves = [m for m in auto.moves if m.user == table.carol.name]
    private = [m for m in carol_moves if m.how in ("open menu", "my choices")]
    assert private and not [m for m in carol_moves if m.how == "dm"]
    assert [m for m in auto.moves if m.how == "dm"]  # the others' DMs work

    checked = {True: 0, False: 0}
    marks = [m for m, _, _ in moments]
    for message in table.emu.messages_in(auto.thread()):
        for version in versions(message):
            i = bisect.bisect_left(marks, version.written) - 1
            if i < 0 or not version.components:
                continue
            _, awaited, panel = moments[i]
            line = next((ln for ln in version.content.split("\n") if DM_LINE in ln), "")
            assert table.carol.name not in line
            for name in awaited - {table.carol.name}:
                assert name in line, (name, version.content[-300:])
            checked[panel] += 1
    assert checked[True] and checked[False], checked
    assert users[carol_seat] is not None


async def test_issue14_a_replaced_seat_takes_its_dm_buttons_to_the_new_player(
        table: Table) -> None:
    """High Card (tests/tinygame.py): every seat plays a card from its hand at once, from its
    DM. Bob's seat goes to Dave mid-prompt: Bob's DM loses its buttons (he may no longer press
    them), Dave gets the seat's summary DM with them and plays with one press."""
    dave = table.emu.create_user("dave")
    table.emu.add_member(table.guild, dave)
    await table.lobby(players=(table.bob, table.carol), options="rounds=2")
    await table.slash(table.alice, table.thread(), "game start")
    gid = await table.game_id()
    await table.click(table.alice, table.board(), label="Wager 1")
    await table.emu.settle()

    def cards(user: UserRecord) -> list[MessageRecord]:
        return [m for m in table.emu.dm_messages(user)
                if any(c.startswith(f"hb:a:{gid}:") for c in m.custom_ids)]

    [bobs] = cards(table.bob)
    assert cards(table.alice) and cards(table.carol) and "Your hand:" in bobs.content
    res = await table.slash(table.alice, table.thread(), "game replace", old=table.bob,
                            new=dave)
    assert "now plays" in res.text
    assert cards(table.bob) == [] and "Your hand:" in table.emu.message(bobs.id).content
    [daves] = cards(dave)
    assert "Your hand:" in daves.content
    assert table.bot is not None
    before = (await table.bot.tables.state(gid)).step
    played = await table.click(dave, daves, next(c for c in daves.custom_ids
                                                 if c.startswith("hb:a:")))
    assert played.callback_type == UPDATE_MESSAGE and not played.errors
    assert (await table.bot.tables.state(gid)).step == before + 1
    assert cards(dave) == []  # nothing more waits for him this round


async def test_a_turns_dm_panel_says_its_public_moves_are_on_the_board_post(
        table: Table) -> None:
    """On a person's own turn its DM holds the hidden-hand plays and the board post the rest
    (Search, Regroup, End the turn): the DM's question says so. It read "choose below." as if
    the DM held every choice (stop 59, reading a Wall player's DMs)."""
    auto = await _auto(table)
    users = await auto.bot.tables.users_of(auto.game_id)

    def own_turn(st: Any) -> bool:
        awaited = FW.to_act(st)
        return (not st.prompts and len(awaited) == 1 and any(
            users.get(s) and panel_actions(FW, st, s) and FW.public_actions(st, s)
            for s in awaited))

    await auto.play_to_end(until=own_turn)
    state = await auto.bot.tables.state(auto.game_id)
    [seat] = FW.to_act(state)
    text, _ids = await _expected_dm(auto, seat)
    assert "choose below, or on the board post in the game's thread: " in text, text


async def test_a_walls_dm_names_the_board_posts_trigger_its_advice_names(
        table: Table) -> None:
    """Stop 69's demo, as the Wall: its DM's advice said "The Breaker On the Streets
    Triggers for 1 Doom: strike before the Investigators Defeat it." over a lone Manifest
    button; the Trigger was on the board post, which the DM named only as a place. A choice
    lives on one message (the DM's are the hand's plays, the board post's the public ones):
    the DM names the board post's moves as their buttons read, the Trigger among them, and
    the Trigger's button stays on the board post alone."""
    auto = await _auto(table)
    users = await auto.bot.tables.users_of(auto.game_id)

    def may_trigger(st: Any) -> bool:
        wall = st.wall_seat
        return (not st.prompts and FW.to_act(st) == {wall} and bool(users.get(wall))
                and bool(panel_actions(FW, st, wall))
                and any(a.kind == "trigger" for a in FW.public_actions(st, wall)))

    await auto.play_to_end(until=may_trigger)
    await table.emu.settle()
    state = await auto.bot.tables.state(auto.game_id)
    assert may_trigger(state), "the game ended before the Wall could Trigger a Horror"
    seat = state.wall_seat
    user = next(u for u in auto.users if int(u.id) == users[seat])
    trigger = next(a for a in FW.public_actions(state, seat) if a.kind == "trigger")
    label = FW.describe(state, seat, trigger)
    [panel] = _panels(table, auto, user)
    question = panel.content.split("**Your move:** ", 1)[1]
    assert question.startswith("choose below, or on the board post in the game's thread: ")
    assert label in question.split("\n")[0], question
    h = action_hash(trigger)
    assert [c for c in auto.board().custom_ids if c.endswith(h)], auto.board().custom_ids
    assert not [c for c in panel.custom_ids if c.endswith(h)], panel.custom_ids
