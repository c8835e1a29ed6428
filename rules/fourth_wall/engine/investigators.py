"""The Investigators' actions: Search, Intervene, Utilise and the rest (FW-AP-*)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from rules.core.errors import IllegalAction
from rules.core.types import Action, act
from rules.fourth_wall import actions as K
from rules.fourth_wall.state import (
    InvestigatorState,
    Step,
)

if TYPE_CHECKING:
    from rules.fourth_wall.engine import Engine



_UTILISE = re.compile(r"Utilise(?::|, )\s*(.*?)(?=\s+(?:Intervene|Quick use)\b|$)", re.DOTALL)


def utilise_clause(text: str) -> str:
    """What Utilising a Marble does, from its card text: the Utilise clause alone ("Close a
    Gate by itself (…).", "Anchor to the Streets. While Anchored, …"), not its Symbols nor
    its Intervene or quick use (stop 63's demos read the whole card into the log)."""
    found = _UTILISE.search(text)
    if not found:
        return text
    clause = found.group(1).strip()
    return clause[:1].upper() + clause[1:]

_ABILITY = re.compile(
    r"(?:(?:Top|Second) )?(Unique|Exploit the Rift|Deathrattle|Trigger|Aura)(?: \([^)]*\))?:\s*"
    r"(.*?)(?=\s+(?:(?:Top|Second) )?(?:Unique|Exploit the Rift|Deathrattle|Trigger|Aura)"
    r"(?: \([^)]*\))?:|$)", re.DOTALL)


def ability_clauses(text: str, label: str) -> list[str]:
    """The clauses a card's text gives after `label` ("Unique", "Exploit the Rift",
    "Deathrattle"), in card order, each without its cost: what a log line quotes when the
    ability is used (stop 64's demos: a Deathrattle's lost Marble and an Exploit came with no
    word of the card)."""
    out = []
    for m in _ABILITY.finditer(text):
        if m.group(1) == label:
            clause = m.group(2).strip()
            out.append(clause[:1].upper() + clause[1:])
    return out


def third_person(clause: str) -> str:
    """A card's clause, written to its holder ("take one into your hand"), as a line about
    that Investigator reads it ("take one into their hand"; a stop 65 demo read "The Seer uses
    the Unique Action: … take one into your hand"; stop 69's "The Rallier uses the Unique
    Action: You and each Regrouped Investigator draw one Marble.")."""
    clause = re.sub(r"\byour\b", "their", clause)
    clause = re.sub(r"\bYour\b", "Their", clause)
    clause = re.sub(r"\bYou\b", "They", clause)
    return re.sub(r"\byou\b", "they", clause)


_NO_SCOURGE = re.compile(r"(\s*)([^:;.\s][^:;.]*); if there is no Scourge, ([^.;]+?) instead")
_SCOURGE_PROVISO = " (not while The Scourge is On the Streets)"


def for_scourge(clause: str, scourge: bool) -> str:
    """A clause's branch that holds with (or without) The Scourge On the Streets: "remove The
    Scourge Token (…); if there is no Scourge, draw two Marbles instead" is "remove The
    Scourge Token (…)" or "draw two Marbles" (stop 69's demo quoted both branches where one
    applied); without it, a proviso about it is moot ("Close a Gate … (not while The Scourge
    is On the Streets)", said as the Gatewright Closed one)."""
    def branch(m: re.Match[str]) -> str:
        kept = m.group(2) if scourge else m.group(3)
        if m.group(2)[:1].isupper():
            kept = kept[:1].upper() + kept[1:]
        return m.group(1) + kept
    return _NO_SCOURGE.sub(branch, clause if scourge else clause.replace(_SCOURGE_PROVISO, ""))


def for_mode(clause: str, conflict: bool) -> str:
    """A clause's part for the game's mode ("Conflict - look at …; Alliance - look at …");
    Alliance has no Scourge (FW-AMB-18), so a proviso about it is left out there, and a
    branch for it too (`for_scourge`)."""
    if not conflict:
        clause = for_scourge(clause, False)
    found = re.fullmatch(r"Conflict - (.*?); Alliance - (.*?)", clause.rstrip("."))
    if not found:
        return clause
    part = found.group(1 if conflict else 2)
    return part[:1].upper() + part[1:] + "."


def card_text_for_mode(text: str, conflict: bool) -> str:
    """A whole card's text as it holds in this game's mode: a "Conflict - …; Alliance - …"
    clause keeps only the mode's part, and Alliance (no Scourge, FW-AMB-18) drops the Scourge
    proviso. Used where a card is shown whole, e.g. the choice between two dealt cards."""
    if not conflict:
        text = for_scourge(text, False)
    return re.sub(r"Conflict - ([^;]*); Alliance - ([^.]*)",
                  lambda m: m.group(1 if conflict else 2), text)


class InvestigatorActions:
    """The part of `Engine` this module holds (see the module's docstring)."""

    # ================================================================== Investigator actions
    def main_actions(self: Engine, inv: InvestigatorState, budget: int) -> list[Action]:
        """The Investigator actions `inv` can take with `budget` AP (FW-AP-02, FW-AMB-24);
        ``pass`` not included."""
        st = self.st
        if inv.insane or not inv.card:
            return []
        out: list[Action] = []
        iid = inv.id
        hand = self.distinct(inv.hand)
        cost = self.action_cost
        if cost("search", inv) <= budget and self.can_draw_marble():
            out.append(act(K.SEARCH, inv=iid))
        if st.streets and cost("intervene", inv) <= budget:
            out += [act(K.INTERVENE, inv=iid, marble=m) for m in hand]
        if cost("utilise", inv) <= budget and not self.ignored("utilise"):
            for m in hand:
                card = self.marble(m)
                if card.anchor or (card.utilise and self.card_usable(card.utilise, inv, m)):
                    out.append(act(K.UTILISE, inv=iid, marble=m))
        if cost("give_or_trade", inv) <= budget and inv.hand:
            partners = self.sane(exclude=iid)
            out += [act(K.GIVE, inv=iid, to=p.id) for p in partners]
            out += [act(K.TRADE, inv=iid, **{"with": p.id}) for p in partners if p.hand]
        if cost("regroup", inv) <= budget:
            out.append(act(K.REGROUP, inv=iid))
        if (st.gates and not self.scourge_blocks() and cost("close_gate", inv) <= budget
                and self.meets(inv.hand)):
            out.append(act(K.CLOSE_GATE, inv=iid))
        mine = self.investigator_card(inv.card)
        if cost("exploit", inv) <= budget and self.card_usable(mine.exploit.instruction, inv):
            out.append(act(K.EXPLOIT, inv=iid))
        if (iid not in st.uniques_used and cost("unique", inv) <= budget
                and self.card_usable(mine.unique.instruction, inv)):
            out.append(act(K.UNIQUE, inv=iid))
        return out

    COST_NAME = {K.SEARCH: "search", K.INTERVENE: "intervene", K.UTILISE: "utilise",
                 K.GIVE: "give_or_trade", K.TRADE: "give_or_trade", K.REGROUP: "regroup",
                 K.CLOSE_GATE: "close_gate", K.EXPLOIT: "exploit", K.UNIQUE: "unique"}

    def do_main(self: Engine, inv: InvestigatorState, action: Action, pool: str) -> list[Step]:
        """Pay for an Investigator action and return the steps that resolve it, ending with
        the end-of-Action checks."""
        st = self.st
        kind = action.kind
        cost = self.action_cost(self.COST_NAME[kind], inv)
        if pool == "turn":
            st.ap -= cost
        elif pool == "grant":
            st.grants[-1].ap -= cost
        iid = inv.id
        name = self.inv_name(inv)
        end = Step(op="end_action")
        if kind == K.SEARCH:
            self.emit(f"{name} Searches.", "search")
            return [Step(op="draw_n", args={"inv": iid, "n": 1}), end]
        if kind == K.INTERVENE:
            return [Step(op="intervene", args={"inv": iid, "marble": action.p("marble")}), end]
        if kind == K.UTILISE:
            mid = str(action.p("marble"))
            inv.hand.remove(mid)
            st.in_play.append(mid)
            told = for_scourge(for_mode(utilise_clause(self.marble(mid).text), self.conflict),
                               st.scourge is not None)
            self.emit(f"{name} Utilises {self.a_marble(mid)}: {told}", "utilise", marble=mid)
            return [*self.card_steps(f"utilise:{mid}", "investigators", inv=iid, marble=mid),
                    Step(op="utilise_done", args={"marble": mid}), end]
        if kind == K.GIVE:
            return [Step(op="give_pick", args={"inv": iid, "to": action.p("to"), "pool": pool,
                                               "cost": cost}), end]
        if kind == K.TRADE:
            return [Step(op="trade_mine", args={"inv": iid, "with": action.p("with"),
                                                "pool": pool, "cost": cost}), end]
        if kind == K.REGROUP:
            return [Step(op="regroup", args={"inv": iid, "draw": self.opts.regroup_draw,
                                             "optional": False}), end]
        if kind == K.CLOSE_GATE:
            return [Step(op="close_select", args={
                "inv": iid, "pool": pool, "cost": cost, "selected": [], "distinct": 3,
                "n": 1, "cancellable": True}), end]
        if kind == K.EXPLOIT:
            said = ability_clauses(self.investigator_card(inv.card or "").text,
                                   "Exploit the Rift")
            # Only the branch that applies (the Rallier's, with or without The Scourge).
            does = [for_scourge(for_mode(c, self.conflict), self.st.scourge is not None)
                    for c in said[:1]]
            self.emit(f"{name} Exploits the Rift"
                      + (f": {third_person(does[0])}" if does else "."), "exploit")
            return [*self.card_steps(f"exploit:{iid}", "investigators", inv=iid),
                    Step(op="exploit_doom", args={"inv": iid}), end]
        if kind == K.UNIQUE:
            st.uniques_used.append(iid)
            said = ability_clauses(self.investigator_card(inv.card or "").text, "Unique")
            does = [for_scourge(for_mode(c, self.conflict), self.st.scourge is not None)
                    for c in said[:1]]
            self.emit(f"{name} uses the Unique Action"
                      + (f": {third_person(does[0])}" if does else "."), "unique")
            return [*self.card_steps(f"unique:{iid}", "investigators", inv=iid), end]
        raise IllegalAction("Unknown action.", "FW-ACT-09")  # pragma: no cover

    def step_intervene(self: Engine, inv: str, marble: str, horror: str | None = None) -> None:
        i = self.inv(inv)
        if marble not in i.hand:
            return
        if not self.st.streets:  # pragma: no cover - offered only with a Horror out
            return
        if horror is None:
            self.choose(i.seat, "choose_horror", f"Attach {self.marble_name(marble)} to which "
                        "Horror?", [act(K.CHOOSE_HORROR, horror=h.id) for h in self.st.streets],
                        Step(op="intervene", args={"inv": inv, "marble": marble}), "horror",
                        public_text=f"{self.inv_name(i)} Intervenes: choose the Horror.",
                        seat_only=True)
            return
        i.hand.remove(marble)
        self.emit(f"{self.inv_name(i)} Intervenes.", "intervene")
        self.attach(marble, horror, inv)

    def step_utilise_done(self: Engine, marble: str) -> None:
        """FW-ACT-06 (c) / FW-TERM-02: discard the Utilised Marble, or Anchor it."""
        st = self.st
        if marble not in st.in_play:
            return
        st.in_play.remove(marble)
        if self.marble(marble).anchor:
            st.anchored.append(marble)
            self.emit(f"{self.the_marble(marble)} is Anchored to the Streets.", "anchor")
        else:
            st.marble_discard.append(marble)

    def step_exploit_doom(self: Engine, inv: str) -> None:
        """FW-ACT-02 (b) / FW-DOOM-03: +Doom right after Exploit the Rift."""
        n = self.doom_from_exploit()
        if n > 0:
            self.gain_doom(n, "Exploit the Rift")

    def step_grant_prompt(self: Engine, answer: dict[str, Any] | None = None) -> None:
        """FW-PROMPT-24: the granted Investigator takes actions worth the granted AP."""
        st = self.st
        if not st.grants:
            return
        g = st.grants[-1]
        inv = self.inv(g.inv)
        if answer is not None:
            action = Action(kind=answer["kind"], params=answer["params"])
            if action.kind == K.PASS:
                st.grants.pop()
                return
            self.later(*self.do_main(inv, action, "grant"), Step(op="grant_prompt"))
            return
        options = self.main_actions(inv, g.ap)
        if not options:
            st.grants.pop()
            return
        options.append(act(K.PASS, inv=inv.id))
        self.ask(inv.seat, "granted", f"{self.inv_name(inv)} may take {g.ap} AP of actions "
                 "out of sequence now.", options, Step(op="grant_prompt"), purpose="grant")
