"""The Presence's constants and pack loading: limits, traumas, option pairs, effect parsing.
Below every phase of the engine."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rules.presence import actions as K
from rules.presence import content as C

if TYPE_CHECKING:
    pass

LOG_SIZE = 20
SPIRIT_ACTION_CAP = 60
"""Spirit actions per spirit turn (technical cap so random playouts end; A-48 in spirit)."""
RUN_CAP = 10_000
SPOKEN_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9'’-]{0,29}[.,!?…]{0,3}")
"""A word the spirit may speak (P-DISCORD-08): no mentions, links or markup."""
UT_HOPE, UT_NERVE, UT_CLUES = 2, 3, 5
"""Unknown Threat: scripts the visitors pick per type, spirit clues the spirit picks (P-UNK)."""
TRAUMAS: tuple[str, ...] = ("betrayal", "tragedy", "suffering", "death")


@lru_cache(maxsize=8)
def _load(path: str) -> C.Pack:
    return C.load_pack(Path(path))


def pack_for(path: str | None) -> C.Pack:
    return C.default_pack() if path is None else _load(path)


def _opts(pairs: list[tuple[str, str]]) -> list[list[str]]:
    # Every answer is offered: Discord's 25-option limit is the bot's to page, not a rule
    # (issue #12). A label too long for Discord is cut at a word; `ask` keeps its full
    # wording in the prompt text.
    return [[a, K.fit_label(b)] for a, b in pairs]


@lru_cache(maxsize=1)
def _effect_adapter() -> Any:
    from pydantic import TypeAdapter

    return TypeAdapter(C.Effect)


_EFFECT_CACHE: dict[str, Any] = {}


def parse_effect(data: dict[str, Any]) -> Any:
    """An effect model from its dict (cached by its JSON: effects are immutable)."""
    import json

    key = json.dumps(data, sort_keys=True)
    eff = _EFFECT_CACHE.get(key)
    if eff is None:
        eff = _EFFECT_CACHE[key] = _effect_adapter().validate_python(data)
    return eff


def dump_effects(effects: Any) -> list[dict[str, Any]]:
    """Effects as plain dicts, so a half-resolved list can wait in the state's queue."""
    return [e.model_dump(mode="json") for e in effects]
