"""Issue #22.6: a first game that guides, through the real bot and the emulator.

A newcomer who opens a game is seated on the gentle side (a visitor, not the spirit), and the
lobby card says guided play is on for them and suggests the first-game setup; `/help`'s first
page says how to practise with AI players. A table of people who have finished a game of the
title plays unguided until a newcomer joins, and the start keeps the answer the card gave.
"""

from __future__ import annotations

import asyncio
import re
from typing import Any

from bot.storage import GameSettings
from rules.registry import GAMES
from tests.e2e.conftest import Table


def lobby_of(table: Table) -> Any:
    return table.emu.messages_in(table.thread())[0]


async def card_once(table: Table, wanted: str) -> str:
    """The lobby card's text once it shows `wanted` (a regex), or as it is after a while: the
    card is refreshed after the answer to a press, which may come a moment later."""
    for _ in range(100):
        card = str(lobby_of(table).text)
        if re.search(wanted, card):
            break
        await table.emu.settle()
        await asyncio.sleep(0.02)
    return card


async def finished_game(table: Table, game: str, users: list[Any]) -> None:
    """A game of `game` these users played to its end (as storage keeps it)."""
    assert table.bot is not None
    storage = table.bot.storage
    first, *rest = (int(u.id) for u in users)
    record = await storage.create_game(
        guild_id=int(table.guild.id), channel_id=int(table.general.id), thread_id=None,
        game=game, options={}, created_by=first, engine_version="old",
        settings=GameSettings(), now=0.0)
    for user in rest:
        await storage.add_seat(record.id, user, 0.0)
    await storage.set_status(record.id, "over", 1.0)


async def test_a_newcomer_sits_on_the_gentle_side_and_is_guided(table: Table) -> None:
    res = await table.slash(table.alice, table.general, "game new", game="presence", ai=2)
    assert "is open in" in res.text and "suggests how to start gently" in res.text, res.text
    card = lobby_of(table).text
    # The creator is a visitor; the spirit (the hardest seat to learn) is another seat.
    assert re.search(r"1\. <@\d+> — a visitor", card) and "2. AI Shade — the spirit" in card, card
    assert "Guided: yes — a first game of The Presence for <@" in card, card
    assert "First time?" in card and "**First game**" in card
    assert "rather play a visitor" not in card  # the newcomer already does
    # A newcomer who takes the spirit's seat is told the gentler side.
    seat_menu = next(c for c in lobby_of(table).custom_ids if c.startswith("hb:lobbyopt:seat:"))
    picked = await table.emu.select(table.alice, lobby_of(table), seat_menu, ["role"])
    await picked.wait_done()
    card = await card_once(table, r"1\. <@\d+> — the spirit")
    assert re.search(r"1\. <@\d+> — the spirit", card), card
    assert "a newcomer would rather play a visitor than the spirit" in card, card
    # /help's first page: practising with AI players, and how.
    help_page = await table.slash(table.alice, table.general, "help")
    assert "Practise first" in help_page.text and "ai:" in help_page.text


async def test_veterans_are_unguided_until_a_newcomer_joins(table: Table) -> None:
    await finished_game(table, "presence", [table.alice, table.bob])
    res = await table.slash(table.alice, table.general, "game new", game="presence")
    assert "is open in" in res.text and "start gently" not in res.text, res.text
    card = lobby_of(table).text
    assert "Guided: no — everyone seated has finished a game of The Presence" in card, card
    assert "First time?" not in card
    await table.click(table.bob, lobby_of(table), label="Join")
    card = await card_once(table, r"2\. <@\d+>")
    assert "2. <@" in card and "Guided: no" in card, card
    joined = await table.click(table.carol, lobby_of(table), label="Join")
    await joined.wait_done()
    assert "New to The Presence?" in joined.text, joined.text
    card = await card_once(table, "Guided: yes")
    assert re.search(r"Guided: yes — a first game of The Presence for <@\d+>", card), card
    start = await table.emu.slash(table.alice, table.thread(), "game start", {})
    await start.wait_done(timeout=30)
    await table.emu.settle()
    assert table.bot is not None
    record = await table.bot.storage.get_game(await table.game_id())
    assert record is not None and record.options["guided"] is True
    # The board post advises the awaited person (public advice: no hand, no script).
    texts = [m.text or "" for m in table.emu.messages_in(table.thread())]
    assert any("💡" in t for t in texts)


async def test_guided_can_be_chosen_off_for_a_newcomer(table: Table) -> None:
    await table.slash(table.alice, table.general, "game new", game="exorcism", mode="core",
                      guided=False, ai=1)
    card = lobby_of(table).text
    assert "Guided: no (chosen)" in card and "First game: no" in card
    start = await table.emu.slash(table.alice, table.thread(), "game start", {})
    await start.wait_done(timeout=30)
    await table.emu.settle()
    assert table.bot is not None
    record = await table.bot.storage.get_game(await table.game_id())
    assert record is not None and record.options["guided"] is False
    assert GAMES["exorcism"].options_model.model_validate(record.options).first_game is False
