"""The Exorcism's Shroud ruling as a table choice, through the real bot and the emulator
(issue #23, EX-GAP-17): `/game new options:` or the lobby card's Variants menu sets
`shroud_returns_darkness`, the card says which reading the table plays, and the game that
starts plays it (the stored state carries it, so the engine reads it)."""

from __future__ import annotations

from typing import Any

from tests.e2e.conftest import Table


def lobby_of(table: Table) -> Any:
    return table.emu.messages_in(table.thread())[0]


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
            "chosen: EX-GAP-17)") in card, card
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
           "reads (EX-DARK-07)" in card, card
    lobby = lobby_of(table)
    variants = next(c for c in lobby.custom_ids if c.startswith("hb:lobbyopt:var:"))
    picked = await table.emu.select(table.alice, lobby, variants, ["shroud_returns_darkness"])
    await picked.wait_done()
    await table.emu.settle()
    assert "go back to the supply (our ruling, chosen" in lobby_of(table).text
    # and off again: the default reading, as the rulebook prints it
    picked = await table.emu.select(table.alice, lobby_of(table), variants, [])
    await picked.wait_done()
    await table.emu.settle()
    assert "stay under the Shroud" in lobby_of(table).text
    state = await start(table)
    assert state.shroud_returns_darkness is False
