"""Issue #14: a newcomer's path, through the real bot and the emulator.

One person opens a practice game with an AI seat, starts alone and plays a whole game against
the AI by pressing buttons, guided; the creator seats and unseats AI players with the lobby's
buttons, sets variants, presets and their side with the lobby card's menus, and an impossible
combination is refused before any game opens.
"""

from __future__ import annotations

import asyncio
import re
from typing import Any

from demo import AutoTable
from rules.registry import GAMES
from tests.e2e.conftest import Table
from tests.e2e.posting import versions


def lobby_of(table: Table) -> Any:
    return table.emu.messages_in(table.thread())[0]


def menu(message: Any, what: str) -> str:
    return next(c for c in message.custom_ids if c.startswith(f"hb:lobbyopt:{what}:"))


async def choose(table: Table, user: Any, what: str, values: list[str]) -> Any:
    lobby = lobby_of(table)
    before = lobby.text
    res = await table.emu.select(user, lobby, menu(lobby, what), values)
    await res.wait_done()
    await table.emu.settle()
    # The card is edited after the menu's answer, which a loaded machine may deliver first:
    # wait for the edit (a choice that changes nothing on the card waits the 5 s out).
    for _ in range(100):
        if "Options changed" not in (res.text or "") or lobby_of(table).text != before:
            break
        await asyncio.sleep(0.05)
        await table.emu.settle()
    return res


async def test_newcomer_plays_a_whole_guided_game_alone_against_the_ai(table: Table) -> None:
    res = await table.slash(table.alice, table.general, "game new", game="fourth_wall",
                            mode="alliance", ai=1)
    assert "is open in" in res.text, res.text
    lobby = lobby_of(table).text
    assert "1. <@" in lobby and "2. AI Shade" in lobby  # the AI's name at this table
    assert "Guided: yes" in lobby  # alice has never finished a game of it
    assert table.bot is not None
    auto = AutoTable(table.emu, table.bot, table.general, [table.alice])
    auto.game_id = await table.game_id()
    start = await table.emu.slash(table.alice, table.thread(), "game start", {})
    await start.wait_done(timeout=30)
    assert "Started" in start.text, start.text
    await table.emu.settle()
    moves = await auto.play_to_end()
    assert moves > 5
    record = await table.bot.storage.get_game(auto.game_id)
    assert record is not None and record.status == "over"
    assert {m.user for m in auto.moves} == {"alice"}
    texts = [m.text or "" for m in table.emu.messages_in(table.thread())]
    roster = next(t for t in texts if "The game begins" in t)
    assert "• AI Shade (an Investigator player)" in roster  # the name the lobby gave it
    # Every version a reader saw: a post that grew in place may have dropped its hint since.
    seen = [v.blob for m in table.emu.messages_in(table.thread()) for v in versions(m)]
    assert any("💡" in t for t in seen), "guided posts say what to do and why"
    assert any("AI Shade (" in t for t in texts), "the AI seat is named AI Shade (its role)"
    # The AI moved too, and its seat never waited for a person.
    state = await table.bot.tables.state(auto.game_id)
    game = GAMES["fourth_wall"]
    assert game.result(state) is not None


async def test_add_and_remove_ai_buttons(table: Table) -> None:
    await table.slash(table.alice, table.general, "game new", game="exorcism", mode="core")
    assert "2. AI" not in lobby_of(table).text
    res = await table.click(table.bob, lobby_of(table), label="Add AI")
    await res.wait_done()
    assert res.ephemeral and "Only the player who created" in res.text
    res = await table.click(table.alice, lobby_of(table), label="Add AI")
    await res.wait_done()
    await table.emu.settle()
    assert "2. AI" in lobby_of(table).text and "Players (2;" in lobby_of(table).text
    await table.click(table.alice, lobby_of(table), label="Add AI")
    await table.emu.settle()
    assert "3. AI" in lobby_of(table).text
    res = await table.click(table.alice, lobby_of(table), label="Remove AI")
    await res.wait_done()
    await table.emu.settle()
    assert "3. AI" not in lobby_of(table).text and "2. AI" in lobby_of(table).text
    await table.click(table.alice, lobby_of(table), label="Remove AI")
    await table.emu.settle()
    res = await table.click(table.alice, lobby_of(table), label="Remove AI")
    await res.wait_done()
    assert "no AI player" in res.text
    assert "2. AI" not in lobby_of(table).text


async def test_native_options_on_the_lobby_card(table: Table) -> None:
    await table.slash(table.alice, table.general, "game new", game="presence", ai=2)
    card = lobby_of(table).text
    assert "Hope Track: side B" in card and "Guided: yes" in card
    # The creator starts on the gentle side (a visitor); the spirit is the next seat.
    assert re.search(r"1\. <@\d+> — a visitor", card) and "2. AI Shade — the spirit" in card
    # variants, as the card will really play them
    res = await choose(table, table.alice, "var", ["first_game", "guided"])
    assert "Options changed" in res.text
    card = lobby_of(table).text
    assert "Hope Track: side A (first game)" in card
    assert "Open Communication (first game)" in card and "Scripts: A1 and A2" in card
    # a preset
    await choose(table, table.alice, "var", ["guided"])
    await choose(table, table.alice, "preset", ["scripts=expert"])
    assert "Scripts: Expert" in lobby_of(table).text
    # the creator's side: the spirit, then back to a visitor
    await choose(table, table.alice, "seat", ["role"])
    card = lobby_of(table).text
    assert "1. <@" in card and "— the spirit" in card and "2. AI Shade — a visitor" in card
    await choose(table, table.alice, "seat", ["team"])
    card = lobby_of(table).text
    assert re.search(r"1\. <@\d+> — a visitor", card) and "2. AI Shade — the spirit" in card
    # only the creator
    res = await choose(table, table.bob, "preset", ["fear=hard"])
    assert "Only the player who created" in res.text
    assert "Fear cards: Hard" not in lobby_of(table).text
    # start: the AI is the spirit, the creator a visitor
    assert table.bot is not None
    start = await table.emu.slash(table.alice, table.thread(), "game start", {})
    await start.wait_done(timeout=30)
    await table.emu.settle()
    state = await table.bot.tables.state(await table.game_id())
    users = await table.bot.tables.users_of(await table.game_id())
    assert users[state.spirit_seat] is None
    assert state.track_side == "B"


async def test_impossible_combinations_are_refused_before_the_game_opens(table: Table) -> None:
    res = await table.slash(table.alice, table.general, "game new", game="presence",
                            options="first_game=yes unknown_threat=yes")
    assert res.ephemeral and "can't make a game" in res.text and "unknown_threat" in res.text
    res = await table.slash(table.alice, table.general, "game new", game="exorcism",
                            mode="solo", ai=1)
    assert res.ephemeral and "at most 1" in res.text
    res = await table.slash(table.alice, table.general, "game new", game="exorcism",
                            mode="core", **{"as": "role"})
    assert res.ephemeral and "opposing role" in res.text
    res = await table.slash(table.alice, table.general, "game new", game="presence",
                            mode="alliance")
    assert res.ephemeral and "no alliance mode" in res.text
    assert table.emu.threads_of(table.general) == []
    # on the card: a variant that excludes one already chosen is refused, the card unchanged
    await table.slash(table.alice, table.general, "game new", game="presence",
                      options="first_game=yes")
    res = await choose(table, table.alice, "var", ["first_game", "true_horror"])
    assert "True Horror" in res.text and "choose one" in res.text
    card = lobby_of(table).text
    assert "True Horror: yes" not in card and "Hope Track: side A (first game)" in card


async def test_as_team_gives_the_ai_the_opposing_role(table: Table) -> None:
    await table.slash(table.alice, table.general, "game new", game="fourth_wall",
                      mode="conflict", ai=1, **{"as": "team"})
    card = lobby_of(table).text
    assert "— an Investigator player" in card and "2. AI Shade — the Wall player" in card
    assert table.bot is not None
    start = await table.emu.slash(table.alice, table.thread(), "game start", {})
    await start.wait_done(timeout=30)
    await table.emu.settle()
    gid = await table.game_id()
    state = await table.bot.tables.state(gid)
    users = await table.bot.tables.users_of(gid)
    assert users[state.wall_seat] is None and users["s1"] == int(table.alice.id)


async def test_lobby_menus_and_ai_buttons_work_after_a_restart(table: Table) -> None:
    await table.slash(table.alice, table.general, "game new", game="presence")
    await table.restart()
    res = await choose(table, table.alice, "var", ["dark_board"])
    assert "Options changed" in res.text
    assert "Board: B side (Dark Board)" in lobby_of(table).text
    await table.restart()
    res = await table.click(table.alice, lobby_of(table), label="Add AI")
    await res.wait_done()
    await table.emu.settle()
    assert "2. AI" in lobby_of(table).text


async def test_a_number_menu_sets_and_empties_an_option(table: Table) -> None:
    await table.slash(table.alice, table.general, "game new", game="fourth_wall",
                      mode="alliance")
    await choose(table, table.alice, "preset", ["investigators=5"])
    assert "Investigators: 5, shared" in lobby_of(table).text
    await choose(table, table.alice, "preset", ["gates=4"])
    assert "Open Gates at the start: 4" in lobby_of(table).text
    await choose(table, table.alice, "preset", ["investigators="])
    card = lobby_of(table).text
    assert "Investigators: 3 for one Investigator player" in card
    assert "Gates at the start: 4" in card


async def test_demo_takes_options_and_ai_seats_and_prints_names(tmp_path: Any,
                                                                capsys: Any) -> None:
    from demo import run_demo

    # With every player's DMs (`--dms`, every version): a table of one pings nobody, so its
    # board posts grow in place (#25) and the thread's last versions may hold no hint; the
    # seat's summary DM shows each guided question as it came.
    code = await run_demo("fourth_wall", out=tmp_path, seed=3, players=2, mode="alliance",
                          opts=["first_game=yes", "gates=3"], ai=1, dms=True)
    printed = capsys.readouterr().out
    assert code == 0, printed[-2000:]
    assert not re.search(r"<@!?\d+>", printed)  # display names, never raw mentions
    assert "@Ada" in printed and "1 of them the bot's AI" in printed
    assert "First game: yes" in printed and "💡" in printed  # a first game is guided
    # The thread as the demo prints it ends with the game over post: the demo waits for the
    # bot at rest (`demo.rest`), not the emulator's quiet (stop 44: One vs All seed 8, ended by
    # an AI seat's move, printed the thread before its last board and the recap were drawn).
    assert "🏁" in printed.split("===== DMs to", 1)[0]
    code = await run_demo("presence", out=tmp_path, opts=["first_game=yes",
                                                           "unknown_threat=yes"])
    assert code == 2 and "can't make a game" in capsys.readouterr().out


async def test_demo_dms_prints_each_players_dms_in_every_version(tmp_path: Any,
                                                                 capsys: Any) -> None:
    """`python -m bot demo --dms`: a reviewer reads the game as each player did — every DM,
    each version of the edited summary DM, labelled by display name, in words."""
    from demo import run_demo
    from tests.e2e import words

    code = await run_demo("exorcism", out=tmp_path, seed=2, mode="one_vs_all", dms=True,
                          play_as="role")  # Ada, the creator, plays the Ghosts
    printed = capsys.readouterr().out
    assert code == 0, printed[-2000:]
    dms = printed.split("===== DMs to Ada", 1)[1]
    assert "===== DMs to Basil" in dms and "===== DMs to Clara" in dms
    assert "you are **the Ghost player**" in dms and "Your hand of Haunt cards" in dms
    assert re.search(r"\[Ada DM \d+, version 2 of \d+\]", dms)  # the summary as it changed
    assert not re.search(r"<[@#]!?\d+>", dms)  # names, never raw mentions
    assert not words.raw_words(dms), words.raw_words(dms)[:5]


async def card_says(table: Table, text: str, seconds: float = 10.0) -> bool:
    """Whether the lobby card shows `text` within `seconds`: the card is edited after the
    menu's answer, which a loaded machine may deliver first."""
    for _ in range(int(seconds / 0.05)):
        if text in lobby_of(table).text:
            return True
        await asyncio.sleep(0.05)
        await table.emu.settle()
    return False


async def test_FW_LOBBY_03_doom_per_wrath_from_game_new_to_the_engine(table: Table) -> None:
    """Ruling FW-LOBBY-03 as a table's choice: typed in `/game new`, shown on the lobby card in
    words, emptied and set again with the numbers menu, and played by the engine (the first
    Wrath gains 2 + 1)."""
    res = await table.slash(table.alice, table.general, "game new", game="fourth_wall",
                            mode="conflict", options="wrath_doom=2", ai=1)
    assert "is open in" in res.text, res.text
    assert ("Doom per Wrath: 2 (rule FW-LOBBY-03: our ruling, for a closer game)"
            in lobby_of(table).text)
    await choose(table, table.alice, "preset", ["wrath_doom="])
    assert await card_says(table, "Doom per Wrath: 1, as the rulebook says")
    await choose(table, table.alice, "preset", ["wrath_doom=2"])
    assert await card_says(table, "Doom per Wrath: 2 (rule FW-LOBBY-03")
    refused = await table.slash(table.alice, table.general, "game new", game="fourth_wall",
                                mode="conflict", options="wrath_doom=5")
    assert "wrath_doom" in refused.text and "Doom per Wrath" in refused.text
    assert table.bot is not None
    gid = await table.game_id()
    start = await table.emu.slash(table.alice, table.thread(), "game start", {})
    await start.wait_done(timeout=30)
    assert "Started" in start.text, start.text
    await table.emu.settle()
    state = await table.bot.tables.state(gid)
    assert state.wrath_doom == 2
    auto = AutoTable(table.emu, table.bot, table.general, [table.alice])
    auto.game_id = gid
    # Both sides keep their Investigator cards (presses and the AI seat), then the first
    # Wall turn is a Wrath (no Brood on the first turn, FW-WALL-02): 2 + 1 Doom, which the
    # AI Wall may spend at once.
    await auto.play_to_end(until=lambda st: st.wall_turns >= 1)
    state = await table.bot.tables.state(gid)
    assert state.wall_turns == 1, state.log
    assert "The Wall chooses Wrath: +3 Doom (3 in the Action Pool)." in state.log
