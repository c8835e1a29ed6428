"""The Presence rules engine: the round loop, visitor and spirit turns, upkeep, effects.

One `Engine` wraps one (private, mutable) state for the length of one call. Everything the game
does goes through two structures held in the state:

- ``state.queue``: pending resolution steps (a turn start, the rest of an effect list, an upkeep
  step ...), run front to back by `Engine.run`;
- ``state.prompts``: a stack of pending decisions (spec Part 6). Every prompt lists its options
  as ``data["options"] = [[id, label], ...]`` (every legal answer, however many — the bot pages
  long lists; labels at most 80 characters, Discord's limit on a label) and is
  answered by ``choose {option=id}``; ``data["then"]`` names the handler (``on_<then>``) that
  continues the work. While a prompt is pending the queue waits.

When both are empty the game *rests*: in the active visitor's turn (``phase == "visitor"``) or
the spirit turn (``phase == "spirit"``). While it rests, visitors with a legal quick action may
act off-turn (`may_act`, P-VIS-10/11): this is the project's quick-action window (PR-01) —
it opens after every completed action and closes when the next action starts, so a quick action
can never interrupt one (P-VIS-05). Ties are settled by Discord's order of arrival, except
that a prompt always names exactly who answers it.

Card mechanics are never named here: every card, clue token, room, item, script and secret tier
is a list of effect primitives from the content pack, dispatched by ``op`` (`Engine.eff_<op>`).
"""

from __future__ import annotations

from rules.presence.engine.action_labels import ActionLabels
from rules.presence.engine.board import (
    LOG_SIZE,
    RUN_CAP,
    SPIRIT_ACTION_CAP,
    SPOKEN_WORD,
    TRAUMAS,
    UT_CLUES,
    UT_HOPE,
    UT_NERVE,
    dump_effects,
    pack_for,
    parse_effect,
)
from rules.presence.engine.clues import Clues
from rules.presence.engine.core import Basics
from rules.presence.engine.effects import Effects
from rules.presence.engine.fear import Fear
from rules.presence.engine.house_effects import HouseEffects
from rules.presence.engine.legal import LegalActions
from rules.presence.engine.reactions import Reactions
from rules.presence.engine.rounds import Rounds
from rules.presence.engine.secrets import Secrets
from rules.presence.engine.setup import SetupSteps
from rules.presence.engine.spirit import SpiritTurn
from rules.presence.engine.spirit_effects import SpiritEffects
from rules.presence.engine.unknown_threat import UnknownThreat
from rules.presence.engine.upkeep import Upkeep
from rules.presence.engine.visitor_effects import VisitorEffects
from rules.presence.engine.visitors import VisitorActions


class Engine(
    Basics,
    Rounds,
    Upkeep,
    Fear,
    Clues,
    Secrets,
    Effects,
    VisitorEffects,
    HouseEffects,
    SpiritEffects,
    Reactions,
    LegalActions,
    VisitorActions,
    SpiritTurn,
    ActionLabels,
    SetupSteps,
    UnknownThreat,
):
    """Rules over one mutable state (a private copy made by `Game.apply`).

    Composed of the game's phases, one module each in `rules.presence.engine`."""


__all__ = [
    "LOG_SIZE",
    "RUN_CAP",
    "SPIRIT_ACTION_CAP",
    "SPOKEN_WORD",
    "TRAUMAS",
    "UT_CLUES",
    "UT_HOPE",
    "UT_NERVE",
    "Engine",
    "dump_effects",
    "pack_for",
    "parse_effect",
]
