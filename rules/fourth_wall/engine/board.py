"""I Am the Fourth Wall's constants and definitions: the pack, stage and symbol names, the
definitions index, hook points for custom effects. Below every phase of the engine."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rules.core.game import join_words
from rules.fourth_wall.content import (
    STAGES,
    SYMBOLS,
    Horror,
    Investigator,
    Marble,
    Pack,
    WallCard,
    default_pack,
    load_pack,
)
from rules.fourth_wall.state import (
    Frame,
    Step,
)

if TYPE_CHECKING:
    from rules.fourth_wall.engine import Engine

LOG_SIZE = 20
# No cap on answers, cancelled attempts or free exchanges lives here: the engine offers every
# legal answer (a Discord front end pages long lists), a player may call off a Trade or Close a
# Gate as often as they like, and the free window after a Regroup is "freely" (FW-AMB-11). Loop
# guards for machine players live with them (`rules.fourth_wall.ai`).

STAGE_INDEX: dict[str, int] = {s: i for i, s in enumerate(STAGES)}
STAGE_NAMES: dict[str, str] = {
    "slumber": "Slumber",
    "eye_opens": "An Eye Opens",
    "crescendo": "The Crescendo",
    "awakens": "The Ancient One Awakens",
}
SYMBOL_NAMES: dict[str, str] = {"clue": "Clue", "force": "Force", "science": "Science"}



def symbols_counted(counts: Mapping[str, int]) -> str:
    """Symbols as a sentence counts them: "2 Clue Symbols, a Force and a Science" (never
    "2 Clue", stop 65's demo), in the game's Symbol order."""
    return join_words([f"a {SYMBOL_NAMES[s]}" if counts[s] == 1
                       else f"{counts[s]} {SYMBOL_NAMES[s]} Symbols"
                       for s in SYMBOLS if counts.get(s, 0) > 0])


def gate_needs_text(distinct: int, extra: Mapping[str, int]) -> str:
    """What Close a Gate asks of the Marbles selected, as the engine's `meets` reads it
    (FW-ACT-01 a, g): one of each Symbol, or `distinct` different ones, and every Aura extra
    on top (The Breaker of Trinkets: "2 Clue Symbols, a Force and a Science")."""
    if distinct >= len(SYMBOLS):
        return symbols_counted({s: 1 + extra.get(s, 0) for s in SYMBOLS})
    more = [f"another {SYMBOL_NAMES[s]}" if n == 1 else f"{n} more {SYMBOL_NAMES[s]} Symbols"
            for s in SYMBOLS for n in [extra.get(s, 0)] if n > 0]
    return f"at least {distinct} different Symbols" + (
        f", plus {join_words(more)}" if more else "")


CustomHandler = Callable[["Engine", Any, Frame, Step], None]
CUSTOM_EFFECTS: dict[str, CustomHandler] = {}
"""Python handlers of named custom effects (``content.register_custom_effect``); none by
default. A handler gets the engine, the effect, its frame and its step."""

SINGLE_WHO = {"self", "target", "elected", "elected_other", "chosen_investigator",
              "chosen_other_investigator", "same"}


@lru_cache(maxsize=8)
def _load(path: str) -> Pack:
    return load_pack(Path(path))


def pack_for(path: str | None) -> Pack:
    """The content pack a game uses: the shipped default, or a pack folder."""
    return default_pack() if path is None else _load(path)


def symbols_text(symbols: Counter[str] | list[str] | tuple[str, ...]) -> str:
    counts = Counter(symbols)
    parts = [SYMBOL_NAMES[s] + (f"×{counts[s]}" if counts[s] > 1 else "")
             for s in SYMBOLS if counts[s]]
    return ", ".join(parts) if parts else "no Symbols"


class _Defs:
    """Plain-dict card lookups of one pack (pydantic private attributes are slow to read)."""

    def __init__(self, pack: Pack) -> None:
        self.pack = pack
        self.marbles: dict[str, Marble] = {m.id: m for m in pack.marbles}
        self.horrors: dict[str, Horror] = {h.id: h for h in pack.horrors}
        self.investigators: dict[str, Investigator] = {i.id: i for i in pack.investigators}
        self.walls: dict[str, WallCard] = {w.id: w for w in pack.walls}


_DEFS: dict[int, _Defs] = {}


def defs_of(pack: Pack) -> _Defs:
    entry = _DEFS.get(id(pack))
    if entry is None or entry.pack is not pack:
        entry = _DEFS[id(pack)] = _Defs(pack)
    return entry


ModSource = tuple[str, Any, str | None, str | None, str]


ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")


def slot_name(k: int) -> str:
    """An Investigator not yet chosen, in words: "the first Investigator" (never an id)."""
    return f"the {ORDINALS[k] if k < len(ORDINALS) else f'{k + 1}th'} Investigator"


def capital(text: str) -> str:
    return text[:1].upper() + text[1:]
