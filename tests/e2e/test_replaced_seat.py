"""A replaced player sees nothing more of the seat (issue #21, part 3), through the emulator.

The Exorcism, One vs All: the Ghost player opens **My choices** (an ephemeral menu that follows
the game for its token's 15 minutes, #14), then is replaced mid-game. That menu is the old
player's own message: it must not go on showing the seat's new private choices (the new Ghost
player's Haunt hand) as the game moves on. It is blanked to one line with no choices at the
replace and forgotten; the old player's summary DM loses its buttons; no later version of any
message the old player can read carries the seat's choices; and the new player opens their own
menu, which then follows the game for them.
"""

from __future__ import annotations

from typing import Any

from cogs.utils.table import GONE_MENU, delivery_for, menu_key
from demo import AutoTable
from emulator.records import MessageRecord, UserRecord
from rules.registry import GAMES
from tests.e2e.conftest import Table

EX = GAMES["exorcism"]


def _reads(table: Table, user: UserRecord) -> list[MessageRecord]:
    """Every message `user` can read alone: their DMs and their ephemeral answers."""
    emu = table.emu
    dms = list(emu.dm_messages(user))
    mine = [m for m in emu.all_messages(include_ephemeral=True, include_deleted=True)
            if m.ephemeral and m.interaction_user_id == str(user.id)]
    return dms + [m for m in mine if m not in dms]


def _versions(message: MessageRecord) -> list[tuple[int, str, list[str]]]:
    """(written at, content, custom ids) of every version of `message`, oldest first."""
    def ids(components: list[dict[str, Any]]) -> list[str]:
        out: list[str] = []
        stack = list(components)
        while stack:
            comp = stack.pop()
            if comp.get("custom_id"):
                out.append(str(comp["custom_id"]))
            stack.extend(comp.get("components") or [])
        return out

    old = [(h.written, h.content, ids(h.components)) for h in message.history]
    return [*old, (message.written or message.order, message.content,
                   ids(message.components))]


async def test_issue21_a_replaced_player_reads_none_of_the_seats_new_choices(
        table: Table) -> None:
    assert table.bot is not None
    bot = table.bot
    bot.tables.seed_source = lambda: 5
    emu = table.emu
    auto = AutoTable(emu, bot, table.general, [table.alice, table.bob, table.carol])
    await auto.open("exorcism", "one_vs_all", play_as="role")  # alice, the creator, haunts
    gid = auto.game_id
    state: Any = await bot.tables.state(gid)
    ghost = state.ghost_seat
    users = await bot.tables.users_of(gid)
    old = next(u for u in auto.users if int(u.id) == users[ghost])
    await auto.play_to_end(until=lambda st: ghost in EX.to_act(st)
                           and bool(EX.legal_actions(st, ghost)))

    # The Ghost player opens their private menu: it shows the seat's choices.
    opened = await emu.click(old, auto.board(), label="My choices")
    await opened.wait_done()
    menu = opened.messages[-1]
    assert menu.ephemeral and any(c.startswith((f"hb:a:{gid}:{ghost}:", f"hb:s:{gid}:{ghost}:"))
                                  for c in menu.custom_ids), menu.content
    record = await bot.storage.get_game(gid)
    assert record is not None
    at_replace = menu_key(EX, await bot.tables.state(gid), ghost, record.epoch,
                          EX.legal_actions(await bot.tables.state(gid), ghost))

    dave = emu.create_user("dave")
    emu.add_member(table.guild, dave)
    mark = emu.mark()
    # The other players vote the seat to Dave (the creator could hand it over at once; the
    # vote carries through the same path).
    voters = [u for u in auto.users if u is not old]
    res = await table.slash(voters[0], auto.thread(), "game replace", old=old, new=dave)
    assert "Your vote is in" in res.text, res.text
    res = await table.slash(voters[1], auto.thread(), "game replace", old=old, new=dave)
    assert "now plays" in res.text, res.text
    # The old menu is blanked at once (one line, no choices) and no longer followed.
    menu = emu.message(menu.id)
    assert menu.content == GONE_MENU.format(gid=gid) and menu.custom_ids == []
    assert (gid, ghost) not in delivery_for(bot).menus.refs

    # The game goes on with the new Ghost player (who plays from their own DM and board).
    auto.users.append(dave)
    later: list[str] = []
    epoch = record.epoch

    def watch(st: Any, _mark: int) -> None:
        if ghost in EX.to_act(st) and (actions := EX.legal_actions(st, ghost)):
            later.append(menu_key(EX, st, ghost, epoch, actions))

    try:
        await auto.play_to_end(max_moves=30, watch=watch)
    except RuntimeError as exc:
        assert "did not end within" in str(exc), exc
    assert [k for k in later if k != at_replace], "the seat never had new choices to leak"

    # Nothing the old player can read was written after the replace with the seat's choices
    # or with words it did not show them before: only the blank line, the goodbye DM, and
    # their summary DM as it was (its buttons taken away).
    leaks = []
    for message in _reads(table, old):
        before = {content for written, content, _ in _versions(message) if written <= mark}
        for written, content, ids in _versions(message):
            if written <= mark:
                continue
            if [c for c in ids if c.startswith((f"hb:a:{gid}:", f"hb:s:{gid}:",
                                                f"hb:pg:{gid}:"))]:
                leaks.append(f"choices on {message.id}: {ids}")
            if content not in before and content != GONE_MENU.format(gid=gid) \
                    and "was handed to dave" not in content:
                leaks.append(f"new words on {message.id}: {content[:200]!r}")
    assert not leaks, "\n".join(leaks)

    # The new Ghost player opens their own menu when the seat has choices; it follows the
    # game for them.
    await auto.play_to_end(until=lambda st: ghost in EX.to_act(st)
                           and bool(EX.legal_actions(st, ghost)))
    record = await bot.storage.get_game(gid)
    assert record is not None
    if record.status == "active":
        mine = await emu.click(dave, auto.board(), label="My choices")
        await mine.wait_done()
        assert any(c.startswith((f"hb:a:{gid}:{ghost}:", f"hb:s:{gid}:{ghost}:"))
                   for c in mine.messages[-1].custom_ids), mine.text
        ref = delivery_for(bot).menus.live(gid, ghost, int(dave.id))
        assert ref is not None and ref.message_id == int(mine.messages[-1].id)
        # The old player's menu stays as it was left: blank.
        assert emu.message(menu.id).content == GONE_MENU.format(gid=gid)


async def test_issue21_a_menu_whose_seat_changed_hands_elsewhere_is_blanked_at_the_next_move(
        table: Table) -> None:
    """Another process (or any path but `/game replace` here) gave the seat away: the next
    move's refresh finds the menu's user no longer holds its seat and blanks it rather than
    writing the seat's choices into it."""
    assert table.bot is not None
    bot = table.bot
    bot.tables.seed_source = lambda: 5
    emu = table.emu
    auto = AutoTable(emu, bot, table.general, [table.alice, table.bob, table.carol])
    await auto.open("exorcism", "one_vs_all", play_as="role")  # alice, the creator, haunts
    gid = auto.game_id
    state: Any = await bot.tables.state(gid)
    ghost = state.ghost_seat
    users = await bot.tables.users_of(gid)
    old = next(u for u in auto.users if int(u.id) == users[ghost])
    await auto.play_to_end(until=lambda st: ghost in EX.to_act(st)
                           and bool(EX.legal_actions(st, ghost)))
    opened = await emu.click(old, auto.board(), label="My choices")
    await opened.wait_done()
    menu = opened.messages[-1]
    assert menu.custom_ids
    dave = emu.create_user("dave")
    emu.add_member(table.guild, dave)
    record = await bot.storage.get_game(gid)
    assert record is not None
    # The seat changes hands in the store only: this process's menus are not told.
    await bot.tables.replace(gid, record.created_by, int(old.id), int(dave.id))
    assert (gid, ghost) in delivery_for(bot).menus.refs
    auto.users.append(dave)
    before = (await bot.tables.state(gid)).step
    try:
        await auto.play_to_end(max_moves=1)
    except RuntimeError as exc:
        assert "did not end within" in str(exc), exc
    assert (await bot.tables.state(gid)).step > before
    menu = emu.message(menu.id)
    assert menu.content == GONE_MENU.format(gid=gid) and menu.custom_ids == []
    assert (gid, ghost) not in delivery_for(bot).menus.refs
