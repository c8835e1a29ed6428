"""The Presence's Discord table rules through the emulator (P-DISCORD-06, -07, -09, H-02):
the fixed-text commands a silent player may always use, strict table talk against members who
are not seated and against posts that could show a hand, and the spirit's hand DM kept current.

Each test starts a 4-player game and stays near its start: the first board is enough for
everything but H-02 and P-DISCORD-03, which play on until the spirit's hand changes or a
visitor is alone.
"""

from __future__ import annotations

from typing import Any

import pytest

from cogs.utils.table import TABLE_TOPIC
from demo import AutoTable
from emulator.errors import EmulatorError
from emulator.permissions import GAME_BOT_PERMISSIONS, Perm
from emulator.records import MessageRecord, UserRecord
from rules.presence.content import default_pack
from rules.presence.engine import Engine
from rules.presence.game import GAME
from rules.presence.state import PresenceState
from tests.e2e.conftest import Table

PACK = default_pack()
SEED = 11


async def _game(table: Table,
                options: str | None = None) -> tuple[AutoTable, dict[str, UserRecord]]:
    """A started 4-player game, and the user in each seat."""
    assert table.bot is not None
    table.bot.tables.seed_source = lambda: SEED
    dora = table.emu.create_user("dora")
    table.emu.add_member(table.guild, dora)
    auto = AutoTable(table.emu, table.bot, table.general,
                     [table.alice, table.bob, table.carol, dora])
    await auto.open("presence", None, options)
    users = await table.bot.tables.users_of(auto.game_id)
    by_id = {int(u.id): u for u in auto.users}
    return auto, {seat: by_id[uid] for seat, uid in users.items() if uid}


async def _state(table: Table, auto: AutoTable) -> PresenceState:
    assert table.bot is not None
    state = await table.bot.tables.state(auto.game_id)
    assert isinstance(state, PresenceState)
    return state


def _new_posts(table: Table, auto: AutoTable, since: int) -> list[MessageRecord]:
    return [m for m in table.emu.messages_in(auto.thread()) if m.order > since]


async def test_p_discord_06_nudge_pings_exactly_the_awaited_players_once_per_ten_minutes(
        table: Table) -> None:
    auto, players = await _game(table)
    assert table.bot is not None
    st = await _state(table, auto)
    awaited = sorted(GAME.to_act(st))
    idle = next(s for s in players if s not in awaited)
    mark = table.emu.mark()
    res = await table.slash(players[idle], auto.thread(), "presence nudge")
    assert res.ephemeral and "Nudged" in res.text
    [post] = _new_posts(table, auto, mark)
    assert post.content.startswith("🔔") and "waiting for you" in post.content
    assert sorted(post.pinged_user_ids) == sorted(players[s].id for s in awaited)
    # once per 10 minutes per game: the next nudge is refused privately, nothing is posted
    mark = table.emu.mark()
    free_at = int(table.clock_now) + 10 * 60
    table.clock_now += 9 * 60
    again = await table.slash(players[awaited[0]], auto.thread(), "presence nudge")
    assert again.ephemeral and (f"nudge again <t:{free_at}:R> (at <t:{free_at}:t>)"
                                in again.text)
    assert not _new_posts(table, auto, mark)
    table.clock_now += 61
    later = await table.slash(players[awaited[0]], auto.thread(), "presence nudge")
    assert "Nudged" in later.text and len(_new_posts(table, auto, mark)) == 1
    # a member who is not seated cannot nudge the table (P-DISCORD-09)
    eve = table.emu.create_user("eve")
    table.emu.add_member(table.guild, eve)
    table.clock_now += 601
    outsider = await table.slash(eve, auto.thread(), "presence nudge")
    assert outsider.ephemeral and "Only the game's players" in outsider.text


async def test_p_discord_06_rules_answer_privately_by_id_or_keyword(table: Table) -> None:
    auto, players = await _game(table)
    user = players[next(iter(players))]
    mark = table.emu.mark()
    by_id = await table.slash(user, auto.thread(), "game rules", rule="p-comm-04")
    assert by_id.ephemeral and by_id.text.startswith("**P-COMM-04**")
    assert "When a player is alone" in by_id.text
    by_word = await table.slash(user, auto.thread(), "game rules", rule="alone communicate")
    assert by_word.ephemeral and "P-COMM-04" in by_word.text
    unknown = await table.slash(user, auto.thread(), "game rules", rule="zz-no-such")
    assert unknown.ephemeral and "no rule" in unknown.text
    # nothing of it reached the table
    assert not _new_posts(table, auto, mark)
    choices = await table.emu.autocomplete(user, auto.thread(), "game rules",
                                           {"rule": "P-DISCORD-0"}, focused="rule")
    assert [c["value"] for c in choices][:3] == ["P-DISCORD-01", "P-DISCORD-02",
                                                 "P-DISCORD-03"]


async def test_p_discord_06_flag_posts_a_fixed_notice_naming_a_known_rule(
        table: Table) -> None:
    auto, players = await _game(table)
    user = next(iter(players.values()))
    choices = await table.emu.autocomplete(user, auto.thread(), "presence flag",
                                           {"rule": "COMM-0"}, focused="rule")
    # rule ids that hold what was typed come first, then rules whose text does
    ids = [r for r in GAME.rulebook() if "COMM-0" in r]
    assert ids and [c["value"] for c in choices][:len(ids)] == ids
    mark = table.emu.mark()
    res = await table.slash(user, auto.thread(), "presence flag", rule="P-COMM-04")
    assert res.ephemeral and "Flagged" in res.text
    [notice] = _new_posts(table, auto, mark)
    assert "possible violation of **P-COMM-04**" in notice.content
    assert "When a player is alone" in notice.content and notice.pinged_user_ids == []
    refused = await table.slash(user, auto.thread(), "presence flag", rule="P-MADE-UP-99")
    assert refused.ephemeral and "no rule" in refused.text
    assert len(_new_posts(table, auto, mark)) == 1


async def test_p_discord_09_strict_table_talk_removes_posts_of_members_not_seated(
        table: Table) -> None:
    auto, players = await _game(table, "strict_table_talk=yes")
    eve = table.emu.create_user("eve")
    table.emu.add_member(table.guild, eve)
    await table.slash(eve, auto.thread(), "game spectate")
    seated = next(iter(players.values()))
    mark = table.emu.mark()
    advice = table.emu.post(eve, auto.thread(), "Go to the Gallery!")
    # while characters are chosen the visitors may talk: a seated visitor's post stays
    st = await _state(table, auto)
    visitor = players[st.visitor_seats[0]]
    hello = table.emu.post(visitor, auto.thread(), "Hello all")
    told = await table.emu.wait_for_message(channel=table.emu.dm_channel(eve), since=mark,
                                            timeout=20)
    await table.emu.settle(quiet=0.2)
    assert table.emu.message(advice.id).deleted and not table.emu.message(hello.id).deleted
    assert "removed your message" in told.content and "P-DISCORD-09" in told.content
    assert seated.id != eve.id


async def test_p_discord_07_forwards_and_files_are_removed_even_when_the_player_may_talk(
        table: Table) -> None:
    auto, players = await _game(table, "strict_table_talk=yes")
    assert table.bot is not None
    st = await _state(table, auto)
    user = players[st.visitor_seats[0]]  # may talk: nobody is alone during setup
    hand_dm = table.emu.dm_messages(user)[-1]
    mark = table.emu.mark()
    words = table.emu.post(user, auto.thread(), "I hold a red clue")
    forward = table.emu.post(user, auto.thread(), "", forward=hand_dm)
    # the bot reads no message content (no privileged intent): a file is seen only on a post
    # that mentions the bot, and then it goes too
    bot_id = table.emu.bot_user.id
    shown = table.emu.post(user, auto.thread(), f"<@{bot_id}> look",
                           files=[("hand.png", b"\x89PNG")])
    unseen = table.emu.post(user, auto.thread(), "look", files=[("hand.png", b"\x89PNG")])
    await table.emu.wait_for_message(lambda m: "P-DISCORD-07" in m.content,
                                     channel=table.emu.dm_channel(user), since=mark, timeout=20)
    await table.emu.settle(quiet=0.2)
    assert table.emu.message(forward.id).deleted and table.emu.message(shown.id).deleted
    assert not table.emu.message(words.id).deleted
    assert not table.emu.message(unseen.id).deleted  # blank without the content intent
    told = [m.content for m in table.emu.dm_messages(user) if m.order > mark]
    # The refusal names its rule as every refusal does; the advice after it is words only.
    assert len(told) == 2 and all("(rule P-DISCORD-07)" in t and "in words" in t for t in told)


async def test_h_02_the_spirits_hand_dm_is_edited_when_its_hand_changes(table: Table) -> None:
    auto, players = await _game(table)
    assert table.bot is not None
    st = await _state(table, auto)
    spirit = players[st.spirit_seat]
    head = f"**{GAME.title}** (game #{auto.game_id}) — you are **"

    def summaries() -> list[MessageRecord]:
        return [m for m in table.emu.dm_messages(spirit) if m.content.startswith(head)]

    [dealt] = summaries()
    assert "Hand: empty" in dealt.content  # the spirit draws its hand at the end of setup
    await auto.play_to_end(until=lambda s: s.phase != "setup")
    after_setup = await _state(table, auto)
    first = list(after_setup.spirit.hand)
    assert first
    await auto.play_to_end(until=lambda s: any(c not in first for c in s.spirit.hand))
    await table.emu.settle()
    now = await _state(table, auto)
    assert any(c not in first for c in now.spirit.hand), "the spirit drew no new card"
    # still one summary DM, edited in place, naming the hand the spirit holds now
    [summary] = summaries()
    assert summary.id == dealt.id and summary.edited_timestamp is not None
    for card in now.spirit.hand:
        assert PACK.spirit_card(card).name in summary.content, card
    assert (GAME.private_summary(now, now.spirit_seat) or "-") in summary.content


MANAGER = GAME_BOT_PERMISSIONS | Perm.MANAGE_CHANNELS | Perm.MANAGE_ROLES


def _may_post(table: Table, user: UserRecord, channel: Any) -> bool:
    return bool(table.emu.member_permissions_in(user, channel) & Perm.SEND_MESSAGES)


async def test_p_discord_03_own_channel_needs_manage_channels_and_manage_roles(
        table: Table) -> None:
    res = await table.slash(table.alice, table.general, "game new", game="presence",
                            options="table_channel=channel")
    assert res.ephemeral and "Manage Channels" in res.text and "Manage Roles" in res.text
    assert not [c for c in table.emu.channels.values() if c.topic == TABLE_TOPIC]


async def test_p_discord_03_own_channel_lets_exactly_the_players_who_may_talk_post(
        table: Table) -> None:
    assert table.bot is not None
    table.emu.set_bot_permissions(table.general, MANAGER)
    table.emu.set_guild_bot_permissions(table.guild, MANAGER)
    table.bot.tables.seed_source = lambda: SEED
    dora, eve = table.emu.create_user("dora"), table.emu.create_user("eve")
    for user in (dora, eve):
        table.emu.add_member(table.guild, user)
    auto = AutoTable(table.emu, table.bot, table.general,
                     [table.alice, table.bob, table.carol, dora])
    await auto.open("presence", None, "table_channel=channel")
    room = auto.thread()
    assert not table.emu.threads_of(table.general)
    users = await table.bot.tables.users_of(auto.game_id)
    by_id = {int(u.id): u for u in auto.users}
    players = {seat: by_id[uid] for seat, uid in users.items() if uid}
    st = await _state(table, auto)
    # setup: the visitors may talk, the spirit never; a member who is not seated never
    await table.emu.settle()
    assert not _may_post(table, players[st.spirit_seat], room)
    assert all(_may_post(table, players[s], room) for s in st.visitor_seats)
    assert not _may_post(table, eve, room)
    with pytest.raises(EmulatorError):
        table.emu.post(eve, room, "Go to the Gallery!")
    # nobody may attach files there, not even who may talk (P-DISCORD-07)
    with pytest.raises(EmulatorError):
        table.emu.post(players[st.visitor_seats[0]], room, "look", files=[("h.png", b"x")])
    table.emu.post(players[st.visitor_seats[0]], room, "Hello all")
    # commands and buttons need no Send Messages: the muted spirit still plays (P-DISCORD-10)
    ruled = await table.slash(players[st.spirit_seat], room, "game rules",
                              rule="P-COMM-09")
    assert ruled.ephemeral and "P-COMM-09" in ruled.text

    def split(s: PresenceState) -> bool:
        if s.phase == "setup":
            return False
        speech = Engine(s).table_talk()["speech"]
        kinds = {speech[v] for v in s.visitor_seats}
        return kinds == {"free", "procedural_only"}

    edits_before = _overwrite_edits(table)
    await auto.play_to_end(until=split)
    await table.emu.settle()
    st = await _state(table, auto)
    assert split(st), "the game ended before any visitor was alone"
    speech = Engine(st).table_talk()["speech"]
    for seat in st.visitor_seats:
        assert _may_post(table, players[seat], room) == (speech[seat] == "free"), seat
    assert not _may_post(table, players[st.spirit_seat], room)
    # only changes are written: far fewer overwrite edits than moves made
    edits = _overwrite_edits(table) - edits_before
    assert 0 < edits < len(auto.moves)
    # A DM points to where the game is: its channel, not a thread (stop 60's demo).
    said = [text for user in players.values() for m in table.emu.dm_messages(user)
            for text in (m.content, *(h.content for h in m.history))]
    assert any("on the board post in the game's channel: " in t for t in said)
    assert not any("game's thread" in t for t in said)


async def test_p_discord_03_a_deleted_game_channel_abandons_the_game_and_tells_the_players(
        table: Table) -> None:
    assert table.bot is not None
    table.emu.set_bot_permissions(table.general, MANAGER)
    table.emu.set_guild_bot_permissions(table.guild, MANAGER)
    table.bot.tables.seed_source = lambda: SEED
    dora = table.emu.create_user("dora")
    table.emu.add_member(table.guild, dora)
    auto = AutoTable(table.emu, table.bot, table.general,
                     [table.alice, table.bob, table.carol, dora])
    await auto.open("presence", None, "table_channel=channel")
    table.emu.delete_channel(auto.thread())
    await table.emu.settle()
    record = await table.bot.storage.get_game(auto.game_id)
    assert record is not None and record.status == "abandoned"
    for user in (table.alice, table.bob, table.carol, dora):
        assert any("was deleted" in m.content for m in table.emu.dm_messages(user)), user


def _overwrite_edits(table: Table) -> int:
    return sum(n for key, n in table.emu.stats.requests.items()
               if key.startswith("PUT") and "/permissions/" in key)
