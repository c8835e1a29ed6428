"""The Exorcism's house and its constants: the pack, the grid geometry, Tool names,
hook points for custom effects. Below every phase of the engine."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rules.core.game import join_words
from rules.exorcism.content import (
    Pack,
    default_pack,
    load_pack,
)

if TYPE_CHECKING:
    from rules.exorcism.engine import Engine

GHOSTS: tuple[str, ...] = ("wraith", "bull", "devourer")
GHOST_NAMES: dict[str, str] = {"wraith": "Wraith", "bull": "Bull", "devourer": "Devourer"}
TOOL_NAMES: dict[str, str] = {
    "weapon": "Weapon",
    "holy_relic": "Holy Relic",
    "key": "Key",
    "detection": "Detection Tool",
    "occult": "Occult Item",
}
LOG_SIZE = 20
MANOR_ROOMS = 4
"""Manipulate the Manor: "you may change the location of up to 4 Rooms" (EX-OVA-03)."""

CustomHandler = Callable[["Engine", Any, dict[str, Any]], bool]
CUSTOM_EFFECTS: dict[str, CustomHandler] = {}
"""Python handlers of named custom effects (content.register_custom_effect); none by default."""


# --------------------------------------------------------------------------- pack + geometry


@lru_cache(maxsize=8)
def _load(path: str) -> Pack:
    return load_pack(Path(path))


def pack_for(path: str | None) -> Pack:
    """The content pack a game uses: the shipped default, or a pack folder."""
    return default_pack() if path is None else _load(path)


def cell_id_of(pack: Pack, rc: tuple[int, int]) -> str:
    if rc == pack.layout.attic.cell:
        return "attic"
    if rc == pack.layout.foyer.cell:
        return "foyer"
    return f"r{rc[0]}c{rc[1]}"


PATH_UNREACHED = 10**9
PATHS_KEPT = 4096
"""At most this many memoized path maps per layout (about 25 cells each, a few MB at most; a
search decision asks for a few hundred)."""


class Geometry:
    """Cell ids, neighbours, distances and Ghost moves of one layout, computed once."""

    def __init__(self, pack: Pack) -> None:
        lay = pack.layout
        self.house: list[str] = [cell_id_of(pack, rc) for rc in lay.house_cells()]
        self.all: list[str] = [*self.house, "attic", "foyer"]
        self.rc: dict[str, tuple[int, int]] = {
            cell_id_of(pack, rc): rc for rc in lay.all_cells()
        }
        self.by_rc: dict[tuple[int, int], str] = {rc: cid for cid, rc in self.rc.items()}
        self.neighbours: dict[str, list[str]] = {
            cid: [self.by_rc[n] for n in lay.neighbours(rc)] for cid, rc in self.rc.items()
        }
        self.edge: list[str] = [cell_id_of(pack, rc) for rc in lay.edge_cells()]
        self.dist: dict[str, dict[str, int]] = {}
        for start in self.all:
            seen = {start: 0}
            q = deque([start])
            while q:
                cur = q.popleft()
                for n in self.neighbours[cur]:
                    if n not in seen:
                        seen[n] = seen[cur] + 1
                        q.append(n)
            self.dist[start] = seen
        self.order = {cid: i for i, cid in enumerate(self.all)}
        self._lay = lay
        self._paths: dict[tuple[str, frozenset[str], str | None], dict[str, int]] = {}

    def paths_from(self, cell: str, ghosts: frozenset[str], cold: str | None
                   ) -> dict[str, int]:
        """Path lengths in Move spaces from `cell` through cells without a Ghost (`cell`
        itself always allowed), a step into or out of the Cold Spot `cold` costing 2
        (EX-TERROR-01), as the AI plans its walks. Shared and memoized: a search asks for the
        same few hundred of them in each of its decisions' play-outs; callers must not change
        the dict they get."""
        key = (cell, ghosts, cold)
        got = self._paths.get(key)
        if got is not None:
            return got
        seen = {cell: 0}
        frontier = [cell]
        nb = self.neighbours
        while frontier:
            nxt = []
            for cur in frontier:
                for n in nb[cur]:
                    if n in ghosts:
                        continue
                    d = seen[cur] + (2 if cold in (cur, n) else 1)
                    if d < seen.get(n, PATH_UNREACHED):
                        seen[n] = d
                        nxt.append(n)
            frontier = nxt
        if len(self._paths) >= PATHS_KEPT:
            self._paths.clear()  # a bound on memory: the Ghosts wander, old keys go stale
        self._paths[key] = seen
        return seen

    def ghost_move(self, ghost: str, cell: str, direction: str, steps: int) -> str:
        return self.by_rc[self._lay.ghost_move(ghost, self.rc[cell], direction, steps)]


_GEO: dict[int, tuple[Pack, Geometry]] = {}


def geometry(pack: Pack) -> Geometry:
    # Keyed by identity (hashing a whole pack per call is slow); the entry keeps its pack
    # alive and is checked, so a recycled id() can never hand back another pack's layout.
    entry = _GEO.get(id(pack))
    if entry is None or entry[0] is not pack:
        entry = _GEO[id(pack)] = (pack, Geometry(pack))
    return entry[1]


def tools_text(tools: dict[str, int]) -> str:
    parts = [f"{n} {TOOL_NAMES.get(t, t)}{'s' if n > 1 else ''}" for t, n in tools.items() if n]
    return join_words(parts) if parts else "nothing"


def _add(bag: dict[str, int], tool: str, n: int = 1) -> None:
    bag[tool] = bag.get(tool, 0) + n
    if bag[tool] <= 0:
        del bag[tool]


# --------------------------------------------------------------------------- the engine
