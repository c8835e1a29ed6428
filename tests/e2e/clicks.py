"""How many clicks a move takes (issue #14): counted while `AutoTable` plays a whole game.

The driver presses each AI-chosen move the cheapest way a player could: a button (or menu) on
the public board post, else on the player's summary DM (its private choices: a hidden hand's
plays, one click at any time), else in the player's open private menu, else **My choices** and
then the menu (two clicks). `check_clicks` prints the shares and holds a game to its targets:
at most a quarter of the moves through a private menu, and at most a quarter needing My
choices first — in every game and mode.
"""

from __future__ import annotations

from demo import AutoTable

PRIVATE_MENU_AT_MOST = 0.25
"""Moves pressed in a private menu (open or opened with My choices), at most (issue #14)."""
TWO_CLICKS_AT_MOST = 0.25
"""Moves that need **My choices** first, at most (issue #14's quarter)."""


def click_shares(auto: AutoTable) -> dict[str, float]:
    """Share of the moves pressed on each surface: board, dm, private menu (of which: my
    choices), and `moves`, how many in all."""
    shares = auto.shares()
    total = sum(shares.values())
    assert total > 0
    private = shares.get("open menu", 0) + shares.get("my choices", 0)
    return {"board": shares.get("board", 0) / total, "dm": shares.get("dm", 0) / total,
            "private menu": private / total, "my choices": shares.get("my choices", 0) / total,
            "moves": float(total)}


def check_clicks(auto: AutoTable, what: str) -> dict[str, float]:
    shares = click_shares(auto)
    print(f"\n{what}: {shares['moves']:.0f} moves; board {shares['board']:.0%}, "
          f"DM {shares['dm']:.0%}, private menu {shares['private menu']:.0%} "
          f"(of which needed My choices first: {shares['my choices']:.0%})")
    assert shares["my choices"] <= TWO_CLICKS_AT_MOST, (what, auto.shares())
    assert shares["private menu"] <= PRIVATE_MENU_AT_MOST, (what, auto.shares())
    return shares
