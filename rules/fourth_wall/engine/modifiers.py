"""Conditions and modifiers: what is in force now, costs, Defeat and Gate requirements."""

from __future__ import annotations

import re
from collections import Counter
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from rules.core.game import join_words
from rules.fourth_wall.content import (
    SYMBOLS,
)
from rules.fourth_wall.engine.board import (
    SYMBOL_NAMES,
    ModSource,
)
from rules.fourth_wall.state import (
    HorrorOnStreets,
    InvestigatorState,
)

if TYPE_CHECKING:
    from rules.fourth_wall.engine import Engine

# What of a Horror on the Streets and of an Investigator the standing rules depend on.
_STREET_KEY = attrgetter("id", "street")
_INVESTIGATOR_KEY = attrgetter("card", "insane")


class Modifiers:
    """The part of `Engine` this module holds (see the module's docstring)."""

    # ================================================================== modifiers
    def cond(self: Engine, c: Any) -> bool:
        t = c.test
        if t == "stage_at_least":
            return self.stage_at_least(c.stage)
        if t == "open_gates_at_least":
            return len(self.st.gates) >= c.n
        if t == "street_occupied":
            return any(h.street == c.street for h in self.st.streets)
        if t == "scourge_on_streets":
            return (self.st.scourge is not None) == c.value
        if t == "mode":
            return bool(self.st.mode == c.mode)
        return False  # pragma: no cover - the content vocabulary is closed

    def conds(self: Engine, conds: Any) -> bool:
        return all(self.cond(c) for c in conds)

    def modifier_sources(self: Engine) -> list[ModSource]:
        return self._all_mods().get("", [])

    def mods(self: Engine, kind: str) -> list[ModSource]:
        return self._all_mods().get(kind, [])

    def _all_mods(self: Engine) -> dict[str, list[ModSource]]:
        """The active modifiers grouped by kind ("" = all), recomputed only when something
        they depend on changed (the Wall card's state, the Streets, Anchored Marbles, the
        Investigators' cards and sanity, the stage, the Gates, The Scourge)."""
        if self._frozen and self._mods_key is not None:
            return self._mods
        st = self.st
        # map() with attrgetters: this key is built at nearly every lookup of a search's
        # play-outs (the whole of `_all_mods` was a fifth of an Alliance search's CPU, built
        # with generator expressions).
        key = (st.revealed, st.wall_card, st.rank_index, len(st.gates), st.scourge,
               tuple(map(_STREET_KEY, st.streets)), tuple(st.anchored),
               tuple(map(_INVESTIGATOR_KEY, st.investigators)))
        if key != self._mods_key:
            grouped: dict[str, list[ModSource]] = {"": self._compute_modifier_sources()}
            for src in grouped[""]:
                grouped.setdefault(src[1].kind, []).append(src)
            self._mods = grouped
            self._mods_key = key
        return self._mods

    def _compute_modifier_sources(self: Engine) -> list[ModSource]:
        """Every active standing rule: (source, modifier, its Horror "this", its owning
        investigator, side). Auras after An Eye Opens (FW-TRACK-03), Street Auras while
        occupied (FW-STREET-01), Anchored Marbles (FW-TERM-02), Horrors' own rules, the
        Scourge (FW-GAP-05) and Investigator cards."""
        st = self.st
        out: list[ModSource] = []
        if st.revealed and st.wall_card:
            for i, m in enumerate(self.wall().aura):
                out.append((f"aura:{i}", m, None, None, "wall"))
        for h in st.streets:
            if h.street is not None and self.alliance:
                for i, m in enumerate(self.pack.street(h.street).aura):
                    out.append((f"street:{h.street}:{i}", m, h.id, None, "wall"))
            for i, m in enumerate(self.horror(h.id).modifiers):
                out.append((f"hmod:{h.id}:{i}", m, h.id, None, "wall"))
        if self.conflict and st.scourge is not None:
            for i, m in enumerate(self.pack.scourge.modifiers):
                out.append((f"scourge:{i}", m, st.scourge, None, "wall"))
        for mid in st.anchored:
            for i, m in enumerate(self.marble(mid).anchored):
                out.append((f"anchor:{mid}:{i}", m, None, None, "investigators"))
        for inv in st.investigators:
            if inv.card and not inv.insane:
                for i, m in enumerate(self.investigator_card(inv.card).modifiers):
                    out.append((f"imod:{inv.id}:{i}", m, None, inv.id, "investigators"))
        return [s for s in out if self.conds(s[1].only_if)]

    def ignored(self: Engine, instruction_kind: str) -> bool:
        return any(s[1].instruction == instruction_kind
                   for s in self.mods("ignore_instruction_kind"))

    def action_cost(self: Engine, name: str, inv: InvestigatorState) -> int:
        """AP cost of an Investigator action with every cost modifier (never below 0)."""
        if name in ("unique", "exploit"):
            card = self.investigator_card(inv.card or "")
            base = card.unique.cost if name == "unique" else card.exploit.cost
        else:
            base = getattr(self.opts.action_costs, name)
        for _, m, _, owner, _ in self.mods("action_cost_delta"):
            if m.action == name and (owner is None or owner == inv.id):
                base += m.n
        return max(0, base)

    def defeat_cost(self: Engine, hid: str) -> Counter[str]:
        """FW-HORROR-04: the effective Defeat Cost (printed + every active modifier)."""
        cost: Counter[str] = Counter(self.horror(hid).defeat)
        for _, m, this, _, _ in self.mods("defeat_cost_delta"):
            if m.scope == "all_on_streets" or this == hid:
                cost[m.symbol] += m.n
        return cost

    def street_aura_cost_text(self: Engine, hid: str) -> str:
        """What a Street's Aura adds to `hid`'s Defeat Cost, in the game's words ("Street 3's
        Aura: 1 more Science in its Defeat Cost"), or "" (a demo game: a Horror on Street
        3 needed a Science its card does not print, and nothing in the thread said why). The
        Regroup line names Street 4's Aura the same way."""
        extra: dict[str, Counter[str]] = {}
        for src, m, this, _, _ in self.mods("defeat_cost_delta"):
            if src.startswith("street:") and (m.scope == "all_on_streets" or this == hid):
                extra.setdefault(src.split(":")[1], Counter())[m.symbol] += m.n
        parts = []
        for street, counts in extra.items():
            said = join_words([f"{abs(n)} {'more' if n > 0 else 'fewer'} {SYMBOL_NAMES[sym]}"
                               for sym, n in counts.items() if n])
            if said:
                parts.append(f"Street {street}'s Aura: {said} in its Defeat Cost")
        return "; ".join(parts)

    def street_aura_said(self: Engine, street: int) -> str:
        """Street `street`'s Aura in its card's words, when it is active ("Street 2's Aura:
        Give or Trade costs 2 AP"), else "". A Defeat Cost Aura is said as
        `street_aura_cost_text` says it (stop 65's demo: Streets 1, 2, 4 and 5 switched on
        and nothing said so, FW-STREET-01, FW-VIS-27)."""
        if not any(src.startswith(f"street:{street}:") for src, *_ in self.modifier_sources()):
            return ""
        text = self.pack.street(street).text
        said = text.split(":", 1)[1] if text.startswith("While a Horror is here:") else text
        said = re.sub(r"\s*\([^)]*\)", "", said).strip().rstrip(".")  # the card's asides
        return f"Street {street}'s Aura: {said}" if said else ""

    def doom_from_exploit(self: Engine) -> int:
        """The Doom Exploit the Rift adds now (FW-ACT-02 b, Street 1's Aura)."""
        return self.opts.exploit_doom + sum(m.n for _, m, _, _, _
                                            in self.mods("exploit_doom_delta"))

    def cost_raised_by(self: Engine, name: str, inv: InvestigatorState) -> list[str]:
        """What raises action `name`'s AP cost for `inv` now, in the game's words ("Street 2's
        Aura"): the reason a cost above the rulebook's is said where it drops an action."""
        out: list[str] = []
        for src, m, this, owner, _ in self.mods("action_cost_delta"):
            if m.action != name or m.n <= 0 or (owner is not None and owner != inv.id):
                continue
            kind, _, rest = src.partition(":")
            said = {"street": f"Street {rest.partition(':')[0]}'s Aura",
                    "aura": "The Wall's Aura", "scourge": "The Scourge"}.get(kind)
            if said is None and kind == "hmod" and this is not None:
                said = self.horror_name(this)
            if said is None and kind == "anchor":
                said = "the Anchored " + self.marble_name(rest.partition(":")[0])
            if said is None:
                said = "a card in play"
            if said not in out:
                out.append(said)
        return out

    def attached_symbols(self: Engine, h: HorrorOnStreets) -> Counter[str]:
        c: Counter[str] = Counter()
        for mid in h.attached:
            c.update(self.marble(mid).symbols)
        return c

    def is_defeated(self: Engine, h: HorrorOnStreets) -> bool:
        """FW-HORROR-01: every Symbol of the Defeat Cost negated by an Attached one."""
        att = self.attached_symbols(h)
        return all(att[s] >= n for s, n in self.defeat_cost(h.id).items())

    def gate_requirement(self: Engine, distinct: int = 3) -> tuple[int, Counter[str]]:
        extra: Counter[str] = Counter()
        for _, m, _, _, _ in self.mods("gate_requirement_extra"):
            extra[m.symbol] += m.n
        return distinct, extra

    def meets(self: Engine, marbles: list[str], distinct: int = 3) -> bool:
        """Close a Gate: the Marbles show `distinct` different Symbols plus every Aura extra
        (FW-ACT-01 a, g)."""
        need, extra = self.gate_requirement(distinct)
        have: Counter[str] = Counter()
        for mid in marbles:
            have.update(self.marble(mid).symbols)
        for s, n in extra.items():
            have[s] -= n
            if have[s] < 0:
                return False
        return sum(1 for s in SYMBOLS if have[s] > 0) >= need
