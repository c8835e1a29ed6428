"""Voice enforcement through the emulator (P-DISCORD-05): in the voice channel linked to a
Presence game, a seated player is server-muted exactly while they may not talk, and every
mute the bot put is lifted: when they may talk, at the end, when the link stops, after a
restart, and for a player who left voice muted, when they next join voice. A moderator's own
mute is never lifted, and Discord's refusals (Mute Members taken away, a deleted channel, a
player gone from voice) are told or waited out, never lost.
"""

from __future__ import annotations

import pytest

from cogs.utils.voice import voice_table
from demo import AutoTable
from emulator.permissions import DEFAULT_MEMBER_PERMISSIONS, Perm
from emulator.records import ChannelRecord, UserRecord
from rules.presence.engine import Engine
from rules.presence.state import PresenceState
from tests.e2e.conftest import Table

SEED = 11
MODERATOR = DEFAULT_MEMBER_PERMISSIONS | Perm.MUTE_MEMBERS


async def _game(table: Table) -> tuple[AutoTable, dict[str, UserRecord], UserRecord,
                                       ChannelRecord]:
    """A started 4-player game whose players all sit in a voice channel, a moderator, and
    that voice channel (not linked yet)."""
    assert table.bot is not None
    table.bot.tables.seed_source = lambda: SEED
    dora, mod = table.emu.create_user("dora"), table.emu.create_user("mod")
    table.emu.add_member(table.guild, dora)
    table.emu.add_member(table.guild, mod, permissions=MODERATOR)
    voice = table.emu.create_voice_channel(table.guild, "Game Voice")
    auto = AutoTable(table.emu, table.bot, table.general,
                     [table.alice, table.bob, table.carol, dora])
    await auto.open("presence", None)
    users = await table.bot.tables.users_of(auto.game_id)
    by_id = {int(u.id): u for u in auto.users}
    players = {seat: by_id[uid] for seat, uid in users.items() if uid}
    for user in players.values():
        table.emu.join_voice(user, voice)
    await table.settle()
    return auto, players, mod, voice


async def _state(table: Table, auto: AutoTable) -> PresenceState:
    assert table.bot is not None
    state = await table.bot.tables.state(auto.game_id)
    assert isinstance(state, PresenceState)
    return state


def _silent(state: PresenceState) -> set[str]:
    if len(state.visitors) < len(state.visitor_seats):
        return {state.spirit_seat}  # characters still being chosen: only the spirit is mute
    speech = Engine(state).table_talk()["speech"]
    return {seat for seat, said in speech.items() if said != "free"}


def _split(state: PresenceState) -> bool:
    """Some visitors may talk and some may not."""
    if state.phase == "setup":
        return False
    speech = Engine(state).table_talk()["speech"]
    return {speech[v] for v in state.visitor_seats} == {"free", "procedural_only"}


def _muted(table: Table, players: dict[str, UserRecord]) -> set[str]:
    return {seat for seat, user in players.items()
            if table.emu.is_server_muted(table.guild, user)}


async def _link(table: Table, auto: AutoTable, user: UserRecord,
                voice: ChannelRecord | None) -> str:
    options = {"channel": voice} if voice is not None else {}
    res = await table.emu.slash(user, auto.thread(), "presence voice", options)
    await res.wait_done()
    await table.settle()
    assert res.ephemeral
    return res.text


async def test_p_discord_05_the_linked_channel_mutes_exactly_who_may_not_talk(
        table: Table) -> None:
    assert table.bot is not None
    auto, players, mod, voice = await _game(table)
    st = await _state(table, auto)
    spirit = st.spirit_seat
    # Linking mutes in someone's name: a player without Mute Members there may not.
    said = await _link(table, auto, players[spirit], voice)
    assert "Mute Members" in said and voice_table(table.bot).link_of(auto.game_id) is None
    assert not _muted(table, players)
    # A moderator links it while the spirit is out of voice: the thread says what happens;
    # the spirit is muted as it joins.
    table.emu.leave_voice(players[spirit], table.guild)
    mark = table.emu.mark()
    said = await _link(table, auto, mod, voice)
    posts = [m.content for m in table.emu.messages_in(auto.thread()) if m.order > mark]
    assert any("linked <#" in p and "P-DISCORD-05" in p for p in posts), posts
    assert not _muted(table, players)
    table.emu.join_voice(players[spirit], voice)
    await table.settle()
    assert _muted(table, players) == _silent(await _state(table, auto)) == {spirit}
    # Linked again while Discord refuses the thread's post: the link stands, and whoever
    # ran the command gets the words to pass on.
    table.emu.fail_next("POST", rf"/channels/{auto.thread().id}/messages", status=403,
                        code=50013, message="Missing Permissions")
    said = await _link(table, auto, mod, voice)
    assert "couldn't post this in the game's thread" in said and "linked <#" in said, said
    assert voice_table(table.bot).link_of(auto.game_id) is not None

    # A moderator's own mute on a visitor who may talk: the game never lifts it.
    kept = next(s for s in st.visitor_seats)
    table.emu.server_mute(table.guild, players[kept])
    # Play until some visitors are alone: the channel follows every move.
    checked = 0

    def watch(state: object, mark: int) -> None:
        nonlocal checked
        assert isinstance(state, PresenceState)
        if state.phase != "setup":
            want = _silent(state) | {kept}
            assert _muted(table, players) == want, (state.step, _muted(table, players), want)
            checked += 1

    await auto.play_to_end(watch=watch, until=_split)
    await table.settle()
    st = await _state(table, auto)
    assert _split(st) and checked > 0
    assert _muted(table, players) == _silent(st) | {kept}
    # A silent visitor who leaves voice keeps the mute, and still has it on coming back
    # while silent (one mute on record, not two).
    gone = next(s for s in st.visitor_seats if s in _silent(st) and s != kept)
    table.emu.leave_voice(players[gone], table.guild)
    await table.settle()
    assert table.emu.is_server_muted(table.guild, players[gone])
    table.emu.join_voice(players[gone], voice)
    await table.settle()
    assert _muted(table, players) == _silent(await _state(table, auto)) | {kept}
    owed = await table.bot.storage.voice_mutes(game_id=auto.game_id)
    assert sorted(m.user_id for m in owed) == sorted(
        int(players[s].id) for s in _silent(await _state(table, auto)))


async def test_p_discord_05_the_end_of_the_game_lifts_every_mute(table: Table) -> None:
    """A two-player game (the visitor player always may talk, the spirit never): played to
    its end, the spirit's mute is lifted (having left voice muted: when it joins any), a
    moderator's mute is not."""
    assert table.bot is not None
    table.bot.tables.seed_source = lambda: SEED
    mod = table.emu.create_user("mod")
    table.emu.add_member(table.guild, mod, permissions=MODERATOR)
    voice = table.emu.create_voice_channel(table.guild, "Game Voice")
    auto = AutoTable(table.emu, table.bot, table.general, [table.alice, table.bob])
    await auto.open("presence", None, "two_players=yes")
    users = await table.bot.tables.users_of(auto.game_id)
    by_id = {int(u.id): u for u in auto.users}
    players = {seat: by_id[uid] for seat, uid in users.items() if uid}
    st = await _state(table, auto)
    for user in players.values():
        table.emu.join_voice(user, voice)
    # A moderator's own mute on the visitor player, who may always talk: never lifted.
    visitor = next(s for s in players if s != st.spirit_seat)
    table.emu.server_mute(table.guild, players[visitor])
    await _link(table, auto, mod, voice)
    assert _muted(table, players) == {st.spirit_seat, visitor}
    # The spirit leaves voice muted; the game then ends: its mute is lifted the moment it
    # joins any voice channel again (a server mute outlives the game: Discord lifts one
    # only in voice).
    table.emu.leave_voice(players[st.spirit_seat], table.guild)
    await auto.play_to_end()
    await table.settle()
    record = await table.bot.storage.get_game(auto.game_id)
    assert record is not None and record.status == "over"
    assert _muted(table, players) == {st.spirit_seat, visitor}
    assert voice_table(table.bot).link_of(auto.game_id) is None
    elsewhere = table.emu.create_voice_channel(table.guild, "Lounge")
    table.emu.join_voice(players[st.spirit_seat], elsewhere)
    await table.settle()
    assert _muted(table, players) == {visitor}
    assert not await table.bot.storage.voice_mutes(game_id=auto.game_id)


async def test_p_discord_05_stopping_lifts_every_mute_and_only_a_moderator_may(
        table: Table) -> None:
    assert table.bot is not None
    auto, players, mod, voice = await _game(table)
    st = await _state(table, auto)
    await _link(table, auto, mod, voice)
    assert _muted(table, players) == {st.spirit_seat}
    # The link moves to another channel: the mute in the old one is lifted, and the spirit
    # is muted again on following the table there.
    other = table.emu.create_voice_channel(table.guild, "Game Voice 2")
    await _link(table, auto, mod, other)
    assert not _muted(table, players)
    table.emu.join_voice(players[st.spirit_seat], other)
    await table.settle()
    assert _muted(table, players) == {st.spirit_seat}
    # The muted spirit may not stop the muting itself.
    said = await _link(table, auto, players[st.spirit_seat], None)
    assert "mute members" in said.lower() and _muted(table, players) == {st.spirit_seat}
    # Discord refuses the lift (a 503, which discord.py does not retry): the thread says so,
    # the mute stays owed, and the next move lifts it.
    table.emu.fail_next("PATCH", r"/guilds/\d+/members/\d+", status=503)
    mark = table.emu.mark()
    said = await _link(table, auto, mod, None)
    posts = [m.content for m in table.emu.messages_in(auto.thread()) if m.order > mark]
    assert any("stopped voice muting" in p and "Discord refused to lift 1 mute just now" in p
               for p in posts), posts
    assert _muted(table, players) == {st.spirit_seat}
    await auto.play_to_end(until=lambda s: s.step > st.step)
    await table.settle()
    assert not _muted(table, players)
    assert not await table.bot.storage.voice_mutes()
    # Discord fails the mute itself (a 503): it may have landed, so it stays on record;
    # found not there when muting stops, it is dropped, and not called lifted.
    table.emu.fail_next("PATCH", r"/guilds/\d+/members/\d+", status=503)
    await _link(table, auto, mod, other)
    assert not _muted(table, players)
    assert len(await table.bot.storage.voice_mutes(game_id=auto.game_id)) == 1
    mark = table.emu.mark()
    await _link(table, auto, mod, None)
    posts = [m.content for m in table.emu.messages_in(auto.thread()) if m.order > mark]
    assert any(p.endswith("stopped voice muting in <#" + other.id + "> for this game.")
               for p in posts), posts
    assert not await table.bot.storage.voice_mutes()
    # Linked again and stopped with nothing refused: every mute is lifted at once.
    await _link(table, auto, mod, other)
    assert _muted(table, players) == {st.spirit_seat}
    mark = table.emu.mark()
    await _link(table, auto, mod, None)
    posts = [m.content for m in table.emu.messages_in(auto.thread()) if m.order > mark]
    assert any("stopped voice muting" in p and "I lifted the server mute it had put" in p
               for p in posts), posts
    assert not _muted(table, players)
    assert "No voice channel is linked" in await _link(table, auto, mod, None)


async def test_p_discord_05_refusals_are_told_and_a_restart_loses_no_mute(
        table: Table) -> None:
    assert table.bot is not None
    auto, players, mod, voice = await _game(table)
    st = await _state(table, auto)
    spirit = players[st.spirit_seat]
    # The bot cannot mute there: refused up front, naming what it lacks.
    table.emu.set_bot_permissions(voice, int(Perm.VIEW_CHANNEL | Perm.CONNECT))
    said = await _link(table, auto, mod, voice)
    assert "Mute Members" in said and not _muted(table, players)
    table.emu.set_bot_permissions(voice, int(Perm.VIEW_CHANNEL | Perm.CONNECT
                                             | Perm.MUTE_MEMBERS))
    await _link(table, auto, mod, voice)
    assert _muted(table, players) == {st.spirit_seat}
    # The bot restarts while the spirit leaves voice muted and comes back: the record
    # survives, the mute stays (it is still owed); abandoning the game lifts it at once.
    await table.stop()
    table.emu.leave_voice(spirit, table.guild)
    table.emu.join_voice(spirit, voice)
    await table.start()
    await table.settle()
    assert table.bot is not None
    assert len(await table.bot.storage.voice_mutes(game_id=auto.game_id)) == 1
    assert _muted(table, players) == {st.spirit_seat}
    # The spirit's seat changes hands: its old player's mute is lifted at once, the new
    # player (in the channel) is muted.
    erin = table.emu.create_user("erin")
    table.emu.add_member(table.guild, erin)
    table.emu.join_voice(erin, voice)
    await table.settle()
    assert not table.emu.is_server_muted(table.guild, erin)
    res = await table.slash(table.alice, auto.thread(), "game replace", old=spirit, new=erin)
    await table.settle()
    assert not table.emu.is_server_muted(table.guild, spirit), res.text
    assert table.emu.is_server_muted(table.guild, erin)
    players[st.spirit_seat] = erin
    res = await table.slash(table.alice, auto.thread(), "game abandon")
    await table.settle()
    record = await table.bot.storage.get_game(auto.game_id)
    assert record is not None and record.status == "abandoned", res.text
    assert not _muted(table, players)
    assert not await table.bot.storage.voice_mutes()
    assert voice_table(table.bot).link_of(auto.game_id) is None


async def test_p_discord_05_mute_members_taken_away_or_the_channel_deleted_is_told_once(
        table: Table) -> None:
    assert table.bot is not None
    auto, players, mod, voice = await _game(table)
    await _link(table, auto, mod, voice)
    spirit = next(s for s, u in players.items()
                  if table.emu.is_server_muted(table.guild, u))
    # Mute Members is taken away mid-game: the next mute is refused (403), the table is told
    # once in the thread, and the game goes on.
    table.emu.set_bot_permissions(voice, int(Perm.VIEW_CHANNEL | Perm.CONNECT))
    await auto.play_to_end(until=_split)
    await table.settle()
    thread = [m.content for m in table.emu.messages_in(auto.thread())]
    told = [t for t in thread if "can't server-mute" in t]
    assert len(told) == 1 and "Mute Members" in told[0], thread[-5:]
    st = await _state(table, auto)
    assert _split(st) and st.phase != "over"
    # The channel is deleted: everyone in it is disconnected, the link goes, the thread is
    # told once; the spirit's mute (put before) is lifted when it joins another channel.
    table.emu.set_bot_permissions(voice, int(Perm.VIEW_CHANNEL | Perm.CONNECT
                                             | Perm.MUTE_MEMBERS))
    table.emu.delete_channel(voice)
    await table.settle()
    assert voice_table(table.bot).link_of(auto.game_id) is None  # at once, not at a move
    await auto.play_to_end(until=lambda s: s.step > st.step)
    await table.settle()
    assert sum("linked to this game is gone" in m.content
               for m in table.emu.messages_in(auto.thread())) == 1
    assert table.emu.is_server_muted(table.guild, players[spirit])
    lounge = table.emu.create_voice_channel(table.guild, "Lounge")
    for user in players.values():
        table.emu.join_voice(user, lounge)
    await table.settle()
    assert not _muted(table, players)
    assert not await table.bot.storage.voice_mutes()


@pytest.mark.parametrize("option", ["channel"])
async def test_p_discord_05_only_voice_channels_can_be_linked(table: Table, option: str) -> None:
    assert table.bot is not None
    auto, _players, mod, _voice = await _game(table)
    with pytest.raises(Exception, match="channel types"):
        await table.emu.slash(mod, auto.thread(), "presence voice", {option: table.general})
