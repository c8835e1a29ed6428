"""Board pictures: `render_board(game, view) -> PNG bytes`, from a view, never a raw state.

Each game has `renders/<game>.py` with `render_board(view: dict) -> bytes`. Given the public
view it draws the board for the channel; given a seat's view it also draws what that seat
holds. Pillow work is CPU-bound: the bot runs it in worker processes (bot/renderpool.py), whose
caches (renders/common.py: static layers, unchanged parts, text runs) are bounded.

`render_stats(game, picture) -> PNG bytes` (renders/stats.py) is a player's or a server's record
by role and rating over time; `picture` is a `renders.statswords.StatsPicture` as a dict (the
render worker's requests are plain data), `game` is unused.

`render_turn_card(game, view) -> PNG bytes` (renders/turncard.py) is the phone-sized card that
goes with a board post: whose move, what they must do, what just happened and the numbers that
decide the game, legible in a 400 px chat column. Its view is the public view plus
`view["turn"] = {"awaited": [name], "doing": str, "happened": [str], "result": str | None}`
(`with_card`: a game's own turn number, The Exorcism's game turn, moves to `view["game_turn"]`).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

Renderer = Callable[[dict[str, Any]], bytes]
_RENDERERS: dict[str, Renderer] = {}


def register_renderer(game: str, renderer: Renderer) -> None:
    _RENDERERS[game] = renderer


def renderer_for(game: str) -> Renderer | None:
    """The game's renderer, imported on first use; None if the game has no picture."""
    if game not in _RENDERERS:
        try:
            module = importlib.import_module(f"renders.{game}")
        except ModuleNotFoundError as exc:
            if exc.name != f"renders.{game}":
                raise
            return None
        _RENDERERS[game] = module.render_board
    return _RENDERERS[game]


def render_board(game: str, view: dict[str, Any]) -> bytes | None:
    renderer = renderer_for(game)
    return renderer(view) if renderer else None


def with_card(view: dict[str, Any], card: dict[str, Any]) -> dict[str, Any]:
    """`view` (changed in place) with the turn card's words `card` as `view["turn"]`. A game's
    own turn number in that key (The Exorcism's game turn) is kept as `view["game_turn"]`, so
    the card's header still says "Round N · Turn T" (stop 68: the card's words overwrote it
    and the header only ever said "Round N")."""
    own = view.get("turn")
    if isinstance(own, int) and not isinstance(own, bool):
        view["game_turn"] = own
    view["turn"] = card
    return view


def render_turn_card(game: str, view: dict[str, Any]) -> bytes:
    """The phone-sized turn card (renders/turncard.py) as PNG bytes."""
    from renders.turncard import render_turn_card as card

    return card(game, view)


def render_recap(game: str, view: dict[str, Any]) -> bytes:
    """The recap picture of a finished game (renders/recap.py) as PNG bytes."""
    from renders.recap import render_recap as recap

    return recap(game, view)


def render_stats(game: str, picture: dict[str, Any]) -> bytes:
    """The stats picture (renders/stats.py) of `picture`, a `StatsPicture` dumped to a dict, as
    PNG bytes. `game` is unused: a stats picture spans games (the worker's requests name one)."""
    from renders.stats import StatsPicture, draw_stats

    return draw_stats(StatsPicture.model_validate(picture))
