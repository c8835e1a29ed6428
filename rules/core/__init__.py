"""What every game shares: actions, prompts, events, outcomes, the RNG, decks, registry types.

Everything in `rules/` is pure, synchronous and deterministic: no discord, asyncio, sqlite or
Pillow. A game is a module-level object satisfying `rules.core.game.Game`.
"""

from rules.core.errors import IllegalAction
from rules.core.game import Game, GameOptions
from rules.core.rng import Rng
from rules.core.types import PUBLIC, Action, Audience, Event, Outcome, Prompt, Result

__all__ = [
    "PUBLIC",
    "Action",
    "Audience",
    "Event",
    "Game",
    "GameOptions",
    "IllegalAction",
    "Outcome",
    "Prompt",
    "Result",
    "Rng",
]
