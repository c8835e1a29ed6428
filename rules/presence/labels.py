"""Presence button and menu labels: each action in the game's words, as a player reads it.

Above the engine, which words each action (`Engine.label`); the action kinds themselves and the
label length limit live in `rules.presence.actions`.
"""

from __future__ import annotations

from rules.core.types import Action
from rules.presence.actions import fit_label
from rules.presence.engine import Engine


def describe_action(eng: Engine, seat: str, action: Action) -> str:
    """A short button label in the game's words (at most 80 characters)."""
    return fit_label(eng.label(seat, action))
