"""How many clicks a move takes (issue #14): counted while `AutoTable` plays a whole game.

The driver presses each AI-chosen move the cheapest way a player could: a button (or menu) on
the public board post, else in the player's open private menu, else **My choices** and then
the menu (two clicks). `check_clicks` prints the shares and holds a game to its targets.
"""

from __future__ import annotations

from demo import AutoTable

TWO_CLICKS_AT_MOST = 0.25

# Where moves play from a hidden hand they stay private (issue #14: "choices that name hidden
# cards stay private"), and the AI plays from its hand often: in The Presence a card from a
# visitor's hand, Increase Presence and the spirit's cards, the Rest and clue discards (35% of
# the moves at seed 1); in Fourth Wall Conflict Intervene, Utilise, Manifest, Close a Gate,
# Exploit and Unique Actions, the hand selections and the dealt Investigator cards (52% at
# seed 3). These bounds catch public choices falling back behind My choices; the quarter above
# holds in every game and mode for the moves that need My choices first (1-2% there).
PRESENCE_PRIVATE = 0.45
CONFLICT_PRIVATE = 0.6
"""Moves that need **My choices** first, at most (issue #14's quarter)."""


def click_shares(auto: AutoTable) -> tuple[float, float, int]:
    """(share of moves through a private menu, share that needed My choices first, moves)."""
    shares = auto.shares()
    total = sum(shares.values())
    assert total > 0
    private = shares.get("open menu", 0) + shares.get("my choices", 0)
    return private / total, shares.get("my choices", 0) / total, total


def check_clicks(auto: AutoTable, what: str, private_at_most: float) -> None:
    private, two, total = click_shares(auto)
    print(f"\n{what}: {total} moves; private menu {private:.0%} "
          f"(of which needed My choices first: {two:.0%}); board {1 - private:.0%}")
    assert two <= TWO_CLICKS_AT_MOST, (what, auto.shares())
    assert private <= private_at_most, (what, auto.shares())
