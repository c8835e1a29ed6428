"""Alliance: the Presence deck, Delves and what a card can still do (FW-ALLY-*)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules.core.game import plural
from rules.fourth_wall.content import (
    AddDoom,
    Instruction,
    OnEvent,
)
from rules.fourth_wall.engine.board import STAGE_INDEX
from rules.fourth_wall.state import (
    Frame,
    InvestigatorState,
    Step,
)

if TYPE_CHECKING:
    from rules.fourth_wall.engine import Engine


class AlliancePresence:
    """The part of `Engine` this module holds (see the module's docstring)."""

    # ================================================================== Alliance Presence
    def presence_cards(self: Engine) -> tuple[int, bool] | None:
        """Alliance: how many Presence cards The Wall resolves, as things stand, and whether
        that is this Wall turn's cards still to come (True) or the next Wall turn's (False;
        also once this one has none left: stop 69's demo read "0 left this Wall turn"):
        the Doom in the Action Pool and held over, the Doom its start adds (an Aura's, a
        Street 5's) and what it gathers (FW-ALLY-02: 2, +1 on the first turn and in The
        Crescendo, the Turn Tracker moved first when this is the round's last turn). A
        board's number the Investigators can weigh an Exploit the Rift by (stop 69: the
        Doom tile read 0 nearly always, the pool being spent at each Wall turn). None in
        Conflict and once the game is over."""
        st = self.st
        if not self.alliance or self.over:
            return None
        if st.phase == "wall":
            if not st.wall_spending:  # before it gathers (no board waits there)
                return st.doom + self.opts.alliance_doom + self.doom_bonus(), True
            if st.doom > 0:
                return st.doom, True
        # The next Wall turn: after the turn of the Investigator at `turn_index` (in setup,
        # the first Wall turn, before it), the Turn Tracker moved first after the round's last.
        at = st.rank_index
        if st.phase in ("investigator", "wall") and st.turn_index >= len(st.investigators) - 1:
            at = min(at + 1, len(self.layout_ranks()) - 1)
        gain = self.opts.alliance_doom
        if st.wall_turns == 0:
            gain += self.opts.first_turn_extra_doom
        if STAGE_INDEX[self.layout_ranks()[at][1]] >= STAGE_INDEX["crescendo"]:
            gain += self.opts.crescendo_extra_doom
        # An Aura's Doom at the start of a Wall turn (Street 5's), where it adds Doom alone.
        start = sum(e.n for _, m, _, _, _ in self.mods("on")
                    if isinstance(m, OnEvent) and m.event == "wall_turn_start"
                    for sentence in m.instruction for e in sentence
                    if isinstance(e, AddDoom) and not e.only_if)
        total = st.doom + st.doom_deferred + start + gain
        return (min(total, self.opts.doom_cap) if self.opts.doom_cap is not None else total,
                False)

    def step_ally_doom(self: Engine) -> None:
        """FW-ALLY-02 / FW-ALLY-03 (a)."""
        st = self.st
        gain = self.opts.alliance_doom + self.doom_bonus()
        self.add_doom_now(gain)
        st.wall_spending = True
        st.presence_deck.extend(st.presence_discard)
        st.presence_discard = []
        st.rng.shuffle(st.presence_deck)
        self.emit(f"The Presence gathers: +{gain} Doom; {st.doom} Presence "
                  f"{plural(st.doom, 'card')} will be "
                  "resolved.", "presence_doom")
        self.later(Step(op="presence_next"))

    def step_presence_next(self: Engine) -> None:
        """FW-ALLY-03 (b)-(d): one Presence card per Doom, each resolved completely."""
        st = self.st
        if st.doom <= 0:
            self.later(Step(op="wall_turn_end"))
            return
        st.doom -= 1
        if not st.presence_deck and self.opts.presence_reshuffle:  # FW-AMB-34
            st.presence_deck = list(st.presence_discard)
            st.presence_discard = []
            st.rng.shuffle(st.presence_deck)
        if not st.presence_deck:  # pragma: no cover - only with presence_reshuffle off
            st.doom = 0
            self.later(Step(op="wall_turn_end"))
            return
        card = st.presence_deck.pop()
        st.presence_discard.append(card)
        pc = self.pack.presence_card(card)
        st.last_presence = pc.name
        self.emit(f"Presence: {pc.name}.", "presence", card=card)
        self.later(Step(op="presence_resolve", args={"card": card}), Step(op="end_action"),
                   Step(op="presence_next"))

    def step_presence_resolve(self: Engine, card: str) -> None:
        st = self.st
        pc = self.pack.presence_card(card)
        if pc.action == "delve":  # FW-PRES-02
            hid = self.draw_horror()
            if hid is None:
                self.emit("The Horror deck and discard pile are empty: nothing happens.",
                          "presence")
                return
            self.emit(f"Delve reveals {self.horror_name(hid)}.", "presence")
            self.delve_steps(hid)
        elif pc.action == "wrath":  # FW-PRES-03
            if not st.revealed:
                self.emit("The Ancient One slumbers: nothing happens.", "presence")
                return
            self.emit(f"Wrath: {self.wall().name} uses its top Unique Action.", "presence")
            self.later(*self.card_steps("wall_unique:0", "wall"))
        elif pc.action == "destroy_marble":  # FW-PRES-04
            self.later(Step(op="destroy", args={"f": None, "which": "most_symbols"}))
        elif pc.action == "trouble":  # FW-PRES-05
            n = int(getattr(pc, "street", 0))
            here = next((h for h in st.streets if h.street == n), None)
            if here is None:
                hid = self.draw_horror()
                if hid is None:
                    self.emit("The Horror deck is empty: nothing happens.",
                              "presence")
                    return
                self.place_horror(hid, n)
            elif here.drained:
                here.drained = False
                self.emit(f"{self.horror_name(here.id)} on Street {n} is no longer Drained.",
                          "undrain")
            elif self.trigger_possible(here.id) and not self.ignored("trigger"):
                self.emit(f"{self.horror_name(here.id)} on Street {n} is Triggered.",
                          "trigger")
                # FW-AMB-17: a Trouble whose Trigger stops part way "does nothing" more;
                # the general Elected Regroup is not Trouble's to give.
                self.later(*self.card_steps(f"trigger:{here.id}", "wall", horror=here.id,
                                            no_penalty=True))
            else:
                why = self.trigger_blocker(here.id)
                self.emit(f"{self.horror_name(here.id)} cannot use its Trigger Action"
                          + (f" ({why})" if why else "")
                          + ": nothing happens.", "presence")

    def delve_steps(self: Engine, hid: str) -> None:
        """{A} Delve: use the Trigger Action then discard; if it cannot be used, place the
        Horror on the lowest free Street; if none, discard it (FW-PRES-02, FW-AMB-44)."""
        st = self.st
        if self.trigger_possible(hid) and not self.ignored("trigger"):
            st.horror_limbo.append(hid)
            self.later(*self.card_steps(f"trigger:{hid}", "wall", horror=hid, no_penalty=True),
                       Step(op="delve_done", args={"horror": hid}))
            return
        # Why it is placed, not used (stop 64's demo read Delve as "place").
        why = self.trigger_blocker(hid)
        self.emit(f"{self.horror_name(hid)} cannot use its Trigger Action"
                  + (f" ({why})" if why else "") + ", so it is "
                  + ("placed On the Streets instead." if self.lowest_free_street() is not None
                     else "discarded: no Street is free."), "presence")
        if not self.place_horror(hid):
            st.horror_discard.append(hid)

    def step_delve_done(self: Engine, horror: str) -> None:
        st = self.st
        if horror in st.horror_limbo:
            st.horror_limbo.remove(horror)
            st.horror_discard.append(horror)
            # Said: otherwise the delved Horror vanishes from the log after its Trigger.
            self.emit(f"The delved {self.horror_name(horror)} goes to the Horror discard "
                      "pile.", "presence")

    def trigger_possible(self: Engine, hid: str) -> bool:
        """Whether a Horror's Trigger Action can be used at all (FW-PRES-02/05)."""
        for sentence in self.horror(hid).trigger:
            for eff in sentence:
                if not self.conds(eff.only_if):
                    continue
                if not self.effect_possible(eff, hid):
                    return False
        return True

    def trigger_blocker(self: Engine, hid: str) -> str:
        """Why a Horror's Trigger Action cannot be used, in a player's words ("" if unknown):
        a stop 65 demo read 'Cult Leader cannot use its Trigger Action: nothing happens.' with
        no reason (FW-PRES-05)."""
        for sentence in self.horror(hid).trigger:
            for eff in sentence:
                if not self.conds(eff.only_if) or self.effect_possible(eff, hid):
                    continue
                if eff.op == "sacrifice":
                    named = getattr(eff, "named", "") or "Horror"
                    return f"no {named} is On the Streets to Sacrifice"
                if eff.op == "find":
                    return "every Street is taken"
                if eff.op == "lose_marble":
                    return "no Investigator has a Marble to lose"
                if eff.op in ("destroy_marble", "take_street_marble"):
                    return "no Marble is Attached or Anchored"
                return ""
        return ""

    def effect_possible(self: Engine, eff: Any, this: str) -> bool:
        st = self.st
        op = eff.op
        if op in ("sacrifice", "drain", "undrain", "return_horror", "trigger", "defeat"):
            fr = Frame(id=0, src="", side="wall", horror=this)
            cands = self.horror_candidates(eff, fr)
            if getattr(eff, "horror", "chosen") == "this":
                return this in cands
            return bool(cands) or getattr(eff, "horror", "") == "all"
        if op == "destroy_marble" or op == "take_street_marble":
            return bool(self.street_marbles("any"))
        if op == "lose_marble":
            return any(i.hand for i in self.sane())
        if op == "manifest":
            return self.can_draw_horror() or bool(st.wall_hand)
        if op == "remove_scourge":
            return st.scourge is not None
        if op == "find" and eff.to == "streets" and self.alliance:
            # A Ghoul finding a Ghoul with every Street taken cannot complete its Trigger
            # (FW-GAP-11): Trouble then does nothing and Delve discards (FW-AMB-17).
            return self.lowest_free_street() is not None
        return True

    def card_usable(self: Engine, instruction: Instruction, inv: InvestigatorState,
                    this_marble: str | None = None) -> bool:
        """FW-AMB-16 / FW-AMB-24: an Investigator card is offered only if at least one of its
        effects can do something now (a card that is only partly possible may be played; the
        impossible part then "cannot complete")."""
        effects = [e for sentence in instruction for e in sentence if self.conds(e.only_if)]
        if not effects:
            return not instruction
        return any(self.inv_effect_possible(e, inv, this_marble) for e in effects)

    def inv_effect_possible(self: Engine, eff: Any, inv: InvestigatorState, this_marble: str | None
                            ) -> bool:
        st = self.st
        op = eff.op
        hand = [m for m in inv.hand if m != this_marble]
        others = self.sane(exclude=inv.id)
        if op == "close_gate":
            return bool(st.gates) and not self.scourge_blocks() and (
                eff.cost == "none" or self.meets(hand, eff.distinct_symbols))
        if op == "attach":
            return bool(hand and st.streets)
        if op == "move_attachment":
            return len(st.streets) > 1 and bool(self.street_marbles("attached"))
        if op == "swap_with_street_marble":
            return bool(hand and self.street_marbles("any"))
        if op == "take_street_marble":
            return bool(self.street_marbles(eff.source))
        if op == "take_from_marble_discard":
            return bool(st.marble_discard)
        if op in ("draw_marbles", "draw_to_sanity", "blitz"):
            return self.can_draw_marble()
        if op == "give_marbles":
            return bool(hand and others)
        if op == "give_or_trade":
            return bool(hand and others)
        if op == "peek":
            return bool(st.marble_deck if eff.deck == "marble" else st.horror_deck)
        if op == "view_hand":
            return eff.owner != "wall" or self.conflict
        if op in ("regroup", "grant_action", "lose_marble") and eff.who == "elected_other":
            return bool(others)
        return self.effect_possible(eff, "")
