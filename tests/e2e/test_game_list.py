"""`/game list` through Discord (the emulator): a lobby and an active game, turned page by page
with Previous and Next, an empty server, and a press after every game closed."""

from __future__ import annotations

import pytest

from cogs.utils import gamelist
from tests.e2e.conftest import Table


async def test_the_list_pages_through_an_active_game_then_a_lobby(
        table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gamelist, "PER_PAGE", 1)  # two games, two pages
    empty = await table.slash(table.alice, table.general, "game list")
    assert empty.ephemeral and "No games are open in this server" in empty.text
    await table.lobby(players=(table.bob,))
    await table.slash(table.alice, table.thread(), "game start")
    started = table.thread()
    await table.slash(table.carol, table.general, "game new", game="highcard")
    waiting = table.thread()

    res = await table.slash(table.bob, table.general, "game list")
    listing = res.original
    assert res.ephemeral and listing is not None
    assert "waiting since <t:" in listing.text and f"<#{started.id}>" in listing.text
    assert "Page 1 of 2 · 1 active, 1 in the lobby" in listing.text
    prev, nxt = listing.buttons
    assert (prev["label"], prev.get("disabled")) == ("◀ Previous", True)
    assert (nxt["label"], nxt.get("disabled", False)) == ("Next ▶", False)

    await table.click(table.bob, listing, label="Next ▶")
    assert "lobby, open to join — 1 seat" in listing.text and f"<#{waiting.id}>" in listing.text
    assert "Page 2 of 2" in listing.text and "waiting since" not in listing.text
    assert [b.get("disabled", False) for b in listing.buttons] == [False, True]
    await table.click(table.bob, listing, label="◀ Previous")
    assert f"<#{started.id}>" in listing.text and "Page 1 of 2" in listing.text

    # Every game closed meanwhile: the press says so rather than show an empty page.
    for user, thread in ((table.alice, started), (table.carol, waiting)):
        await table.slash(user, thread, "game abandon")
    await table.click(table.bob, listing, label="Next ▶")
    assert "No games are open in this server" in listing.text and not listing.buttons
    table.emu.assert_no_errors()
