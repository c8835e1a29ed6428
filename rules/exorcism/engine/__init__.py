"""The Exorcism rules engine: turn flow, the clock, haunting, ghosts, wounds, actions, effects.

One `Engine` wraps one (private, mutable) state for the length of one call. Everything the
game does goes through two structures held in the state:

- ``state.queue``: pending resolution steps (turn start, a Haunt draw, a Wound, the rest of
  an effect list ...), run front to back by `Engine.run`;
- ``state.prompts``: a stack of pending decisions. While a prompt is pending the queue waits;
  answering it may push further prompts or queue steps.

When both are empty the game *rests* in the active seat's Action phase (``phase ==
"actions"``) or, in One vs All, in the Ghost player's Haunt phase (``phase == "ghost"``).

Card mechanics are never named here: Room, Character, Task and Plan effects are read from the
content pack and dispatched by their ``op`` (`Engine.EFFECT_HANDLERS`); standing rules are
content modifiers read by ``kind``. The three Ghosts and the six Terror Abilities are rules of
the game itself (EX-GHOST-*, EX-TERROR-*), so they are implemented by their fixed ids.

Plans "at any time" (EX-ACT-09) — the project's reading of EX-AMB-54 and the windows of
EX-PROMPT-05:

- (c) between the active player's Actions, (e) at the start of the Action phase, and between
  the Ghost player's Haunt actions: the game *rests*, the table only waits for the seats named
  by `to_act`, and a seat holding a Plan playable right now may also act (`Game.may_act`)
  without being awaited — nobody is stalled;
- (a) after each Haunt card is revealed (drawn in core and Solo, played or drawn by the Ghost
  player in One vs All), before it resolves, and (d) after the active player's last Action,
  before the turn ends: a real prompt (``plan_window``) that opens only for the seats that hold
  a Plan playable then (under the `hidden_plans` house option: every investigator holding any
  Plan, which is public, so the window never tells the Ghost player who holds what), all at
  once, and closes when each has passed (default: pass). A seat that plays a Plan keeps its
  place in the window: it reopens after the Plan resolves for those who have not passed;
- (b) on every pending Wound: the Triage prompt (EX-PROMPT-06) for `on_wound` Plans.

A Plan played while another prompt is pending is not allowed (the pending decision comes
first).
"""

from __future__ import annotations

from rules.exorcism.engine.board import (
    CUSTOM_EFFECTS,
    GHOST_NAMES,
    GHOSTS,
    LOG_SIZE,
    MANOR_ROOMS,
    TOOL_NAMES,
    CustomHandler,
    Geometry,
    cell_id_of,
    geometry,
    pack_for,
    tools_text,
)
from rules.exorcism.engine.core import Basics
from rules.exorcism.engine.effects import Effects
from rules.exorcism.engine.ghost import GhostPlayer
from rules.exorcism.engine.haunt import HauntPhase
from rules.exorcism.engine.investigators import InvestigatorActions
from rules.exorcism.engine.moves import Moves
from rules.exorcism.engine.outcome import Outcome
from rules.exorcism.engine.plans import Plans
from rules.exorcism.engine.prompts import PromptAnswers
from rules.exorcism.engine.refusals import Refusals
from rules.exorcism.engine.setup import SetupSteps
from rules.exorcism.engine.turns import Turns
from rules.exorcism.engine.wounds import Wounds


class Engine(
    Basics,
    Outcome,
    Turns,
    HauntPhase,
    Wounds,
    GhostPlayer,
    Effects,
    Plans,
    InvestigatorActions,
    PromptAnswers,
    Moves,
    Refusals,
    SetupSteps,
):
    """Rules over one mutable state (a private copy made by `Game.apply`).

    Composed of the game's phases, one module each in `rules.exorcism.engine`."""


__all__ = [
    "CUSTOM_EFFECTS",
    "GHOSTS",
    "GHOST_NAMES",
    "LOG_SIZE",
    "MANOR_ROOMS",
    "TOOL_NAMES",
    "CustomHandler",
    "Engine",
    "Geometry",
    "cell_id_of",
    "geometry",
    "pack_for",
    "tools_text",
]
