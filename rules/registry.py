"""The game registry: every game the bot can run, by id.

`GAMES["exorcism"]` is the Exorcism engine object (see rules.core.game.Game). Tests may
register extra games (a tiny platform test game) with `register`.
"""

from __future__ import annotations

from typing import Any

from rules.core.game import Game

GAMES: dict[str, Game[Any, Any]] = {}


def register(game: Game[Any, Any]) -> Game[Any, Any]:
    GAMES[game.name] = game
    return game


def unregister(name: str) -> None:
    GAMES.pop(name, None)


def _register_shipped() -> None:
    # Imported here, not at module top, so a game's import error names the game.
    from rules.exorcism.game import GAME as exorcism
    from rules.fourth_wall.game import GAME as fourth_wall
    from rules.presence.game import GAME as presence

    register(exorcism)
    register(fourth_wall)
    register(presence)


_register_shipped()
