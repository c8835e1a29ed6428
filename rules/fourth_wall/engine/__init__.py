"""The I Am the Fourth Wall rules engine: turn flow, the Wall, Investigators, Horrors, effects.

One `Engine` wraps one (private, mutable) state for the length of one call. Everything the
game does goes through two structures held in the state:

- ``state.queue``: pending resolution steps (a Wall turn, an Investigator's Action, one
  sentence of a card, a Lose-a-Marble, the end-of-Action checks ...), run front to back by
  `Engine.run`; `Engine.later` puts steps in front of what is already queued, so nested
  effects resolve before the rest of the card that caused them;
- ``state.prompts``: a stack of pending decisions (spec §6). Every prompt is a list of answer
  actions plus the step to continue with (``then``) and where to put the answer (``into``),
  so a restart can resume in the middle of any card.

When both are empty the game *rests*: in the active Investigator's turn (``phase ==
"investigator"``) or, in Conflict, in the Wall player's turn (``phase == "wall"``).

Cards are never named here: Instructions are read from the content pack and dispatched by
``effect.op`` (`Engine.eff_*`), standing rules by ``modifier.kind``, conditions by
``condition.test`` and Presence cards by ``presence.action``.

Action boundaries (FW-TURN-06, FW-AMB-21): every Investigator action, Wall action, Brood step,
Presence card and out-of-turn Regroup / granted action ends with the ``end_action`` step: the
state-based Defeat check (FW-AMB-12), Hand Limits (FW-HAND-02), Insanity (FW-INSANE-01) and a
Gate per newly Insane Investigator, one at a time with a win check after each (FW-INSANE-05).
"""

from __future__ import annotations

from rules.fourth_wall.engine.board import (
    CUSTOM_EFFECTS,
    LOG_SIZE,
    ORDINALS,
    SINGLE_WHO,
    STAGE_INDEX,
    STAGE_NAMES,
    SYMBOL_NAMES,
    CustomHandler,
    ModSource,
    capital,
    defs_of,
    pack_for,
    slot_name,
    symbols_text,
)
from rules.fourth_wall.engine.cards import Cards
from rules.fourth_wall.engine.core import Basics
from rules.fourth_wall.engine.effects import Effects
from rules.fourth_wall.engine.gates import Gates
from rules.fourth_wall.engine.horrors import Horrors
from rules.fourth_wall.engine.investigators import InvestigatorActions
from rules.fourth_wall.engine.marbles import Marbles
from rules.fourth_wall.engine.modifiers import Modifiers
from rules.fourth_wall.engine.moves import Moves
from rules.fourth_wall.engine.presence import AlliancePresence
from rules.fourth_wall.engine.prompts import Prompts
from rules.fourth_wall.engine.refusals import Refusals
from rules.fourth_wall.engine.setup import SetupSteps
from rules.fourth_wall.engine.turns import Turns
from rules.fourth_wall.engine.wall import WallActions


class Engine(
    Basics,
    Modifiers,
    Prompts,
    Turns,
    SetupSteps,
    Gates,
    Horrors,
    Cards,
    Effects,
    Marbles,
    InvestigatorActions,
    WallActions,
    AlliancePresence,
    Moves,
    Refusals,
):
    """Rules over one mutable state (a private copy made by `Game.apply`).

    Composed of the game's phases, one module each in `rules.fourth_wall.engine`."""


__all__ = [
    "CUSTOM_EFFECTS",
    "LOG_SIZE",
    "ORDINALS",
    "SINGLE_WHO",
    "STAGE_INDEX",
    "STAGE_NAMES",
    "SYMBOL_NAMES",
    "CustomHandler",
    "Engine",
    "ModSource",
    "capital",
    "defs_of",
    "pack_for",
    "slot_name",
    "symbols_text",
]
