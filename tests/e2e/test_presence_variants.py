"""The Presence's variants through Discord: the lobby card names the difficulty the presets
add up to (P-SESSION-06); a two-player game's first round is played by pressing buttons, the
visitor player acting with both characters through its one seat (P-2P-02); True Horror's
spirit whispers a fixed line through the bot and cannot speak free words without an effect
(P-HORROR-02, P-COMM-09, P-DISCORD-08)."""

from __future__ import annotations

import json

from cogs.utils.table import action_hash
from demo import AutoTable
from rules.presence import actions as K
from rules.presence.game import GAME
from rules.presence.state import PresenceState
from tests.e2e.conftest import Table
from tests.e2e.posting import EMOJI, RULE_ID, PostAudit, versions


async def _auto(table: Table, users: int, options: str) -> AutoTable:
    assert table.bot is not None
    table.bot.tables.seed_source = lambda: 5
    auto = AutoTable(table.emu, table.bot, table.general,
                     [table.alice, table.bob, table.carol][:users])
    await auto.open("presence", None, options)
    return auto


async def test_p_2p_02_two_player_game_through_discord_with_both_characters(
        table: Table) -> None:
    auto = await _auto(table, 2, "two_players=yes spirit_seat=0")  # alice, the creator
    assert table.bot is not None
    lobby = table.emu.messages_in(auto.thread())[0]
    card = json.dumps(lobby.embeds, ensure_ascii=False)
    assert "Difficulty: Standard" in card and "Two players" in card  # P-SESSION-06
    # the first round, through the spirit's turn (the whole game is the engine tests' job)
    await auto.play_to_end(until=lambda st: st.round >= 2)
    st = await table.bot.tables.state(auto.game_id)
    assert isinstance(st, PresenceState) and st.round == 2 and GAME.to_act(st) <= {"s1", "s2"}
    # the visitor player (bob) pressed moves for the second character too
    assert any(m.action is not None and m.action.params.get("as") == "s2.2"
               for m in auto.moves if m.user == "bob")
    thread = " ".join(m.content for m in table.emu.messages_in(auto.thread()))
    assert " & " in thread or " and the " in thread  # the seat is named by both characters


async def test_p_horror_02_the_spirit_whispers_a_set_line_and_has_no_free_words(
        table: Table) -> None:
    auto = await _auto(table, 3, "true_horror=yes")
    assert table.bot is not None
    lobby = table.emu.messages_in(auto.thread())[0]
    assert "True Horror" in json.dumps(lobby.embeds, ensure_ascii=False)
    audit = await PostAudit.start(auto)
    await auto.play_to_end(until=lambda st: st.phase == "spirit" and not st.prompts,
                           watch=audit.watch)
    st = await table.bot.tables.state(auto.game_id)
    assert isinstance(st, PresenceState)
    users = await table.bot.tables.users_of(auto.game_id)
    spirit = next(u for u in auto.users if int(u.id) == users[st.spirit_seat])
    # P-DISCORD-08 / P-COMM-09: no effect grants speech, so no words reach the thread
    res = await table.emu.slash(spirit, auto.thread(), "presence speak", {"words": "Boo"})
    await res.wait_done()
    assert res.ephemeral and "P-COMM-09" in res.text
    whisper = next(a for a in GAME.legal_actions(st, st.spirit_seat) if a.kind == K.WHISPER)
    mark = table.emu.mark()
    res = await table.emu.slash(spirit, auto.thread(), "presence whisper",
                                {"choice": action_hash(whisper)})
    await res.wait_done()
    await table.emu.wait_for_write(auto.thread(), auto.board(), since=mark)
    board = auto.board().content
    assert "The spirit whispers:" in board
    assert not any(ch in board for ch in "🤫🗣️⏳")  # the quiet presentation
    audit.watch(await table.bot.tables.state(auto.game_id), mark)
    # P-HORROR: the whole game, every post and every edit of it, in plain words: no emoji, no
    # rule ids; the game-over post names the winners (#13)
    await auto.play_to_end(watch=audit.watch)
    audit.check_all(table.emu, auto.thread())
    for message in table.emu.messages_in(auto.thread())[1:]:  # the lobby card is before
        for version in versions(message):
            assert not EMOJI.findall(version.content), version.content
            assert not RULE_ID.findall(version.content), version.content
