"""The Exorcism's rulings as table choices, through the real bot and the emulator
(issue #23): `/game new options:` or the lobby card's Variants menu sets the Shroud ruling
(`shroud_returns_darkness`, EX-GAP-17) or One vs All's Haunt Level ruling
(`haunt_level_cooldown`, EX-AMB-59), the card says which reading the table plays, and the game
that starts plays it (the stored state carries it, so the engine reads it)."""

from __future__ import annotations

import asyncio
from typing import Any

from tests.e2e.conftest import Table


def lobby_of(table: Table) -> Any:
    return table.emu.messages_in(table.thread())[0]


async def card_once(table: Table, wanted: str) -> str:
    """The lobby card's text once it shows `wanted`, or as it is after a while: the card is
    refreshed after the answer to a menu pick, which may come a moment later."""
    for _ in range(100):
        card = str(lobby_of(table).text)
        if wanted in card:
            break
        await table.emu.settle()
        await asyncio.sleep(0.02)
    return card


async def start(table: Table) -> Any:
    res = await table.emu.slash(table.alice, table.thread(), "game start", {})
    await res.wait_done(timeout=30)
    await table.emu.settle()
    assert table.bot is not None
    return await table.bot.tables.state(await table.game_id())


async def test_EX_GAP_17_shroud_ruling_chosen_in_game_new_is_on_the_card_and_played(
        table: Table) -> None:
    res = await table.slash(table.alice, table.general, "game new", game="exorcism",
                            mode="core", ai=2, options="shroud_returns_darkness=yes")
    assert "is open in" in res.text, res.text
    card = lobby_of(table).text
    assert ("Shrouded Rooms: their 4 Darkness tokens go back to the supply (our ruling, "
            "chosen)") in card, card
    state = await start(table)
    assert state.shroud_returns_darkness is True
    from rules.exorcism.engine import Engine

    assert Engine(state).opts.shroud_returns_darkness is True


async def test_EX_DARK_07_the_default_table_plays_the_rulebook_and_the_menu_can_change_it(
        table: Table) -> None:
    await table.slash(table.alice, table.general, "game new", game="exorcism", mode="core",
                      ai=2)
    card = lobby_of(table).text
    assert "Shrouded Rooms: their 4 Darkness tokens stay under the Shroud, as the rulebook " \
           "reads" in card and "EX-" not in card, card
    lobby = lobby_of(table)
    variants = next(c for c in lobby.custom_ids if c.startswith("hb:lobbyopt:var:"))
    picked = await table.emu.select(table.alice, lobby, variants, ["shroud_returns_darkness"])
    await picked.wait_done()
    await table.emu.settle()
    chosen = "go back to the supply (our ruling, chosen"
    assert chosen in picked.text, picked.text
    assert chosen in await card_once(table, "go back")
    # and off again: the default reading, as the rulebook prints it
    picked = await table.emu.select(table.alice, lobby_of(table), variants, [])
    await picked.wait_done()
    await table.emu.settle()
    assert "stay under the Shroud" in await card_once(table, "stay under")
    state = await start(table)
    assert state.shroud_returns_darkness is False


async def test_EX_AMB_59_haunt_level_ruling_chosen_for_one_vs_all_is_on_the_card_and_played(
        table: Table) -> None:
    res = await table.slash(table.alice, table.general, "game new", game="exorcism",
                            mode="one_vs_all", ai=2, options="haunt_level_cooldown=yes")
    assert "is open in" in res.text, res.text
    card = lobby_of(table).text
    assert ("Haunt Level: raised at most once a Haunt phase, never in two phases in a row "
            "(our ruling, chosen)") in card, card
    assert "stay under the Shroud" in card  # the other ruling keeps its default
    state = await start(table)
    assert state.haunt_level_cooldown is True and state.shroud_returns_darkness is False
