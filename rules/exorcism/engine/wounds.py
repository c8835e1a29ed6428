"""Wounds and rescue: Triage, wounding, Lookouts, the Foyer (EX-WOUND-*)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.exorcism.engine.board import (
    _add,
    tools_text,
)
from rules.exorcism.state import InvestigatorState

if TYPE_CHECKING:
    from rules.exorcism.engine import Engine


class Wounds:
    """The part of `Engine` this module holds (see the module's docstring)."""

    # ------------------------------------------------------------------ wounds and rescue
    def triage_holders(self: Engine, devour: bool) -> list[str]:
        """Seats holding an `on_wound` Plan that can prevent this Wound (EX-PROMPT-06). Under
        `hidden_plans` every investigator holding a Plan: who holds a Triage stays secret."""
        if self.plans_hidden:
            return [s for s in self.turn_order() if self.holds_usable_plans(s)]
        out = []
        for seat in self.turn_order():
            if self.triage_plans(seat, devour):
                out.append(seat)
        return out

    def holds_usable_plans(self: Engine, seat: str) -> bool:
        """Public knowledge: the seat holds Plans and has a Character who may play them."""
        player = self.st.players[seat]
        return (not player.out and bool(player.plans)
                and any(self.can_use_cards(i) for i in self.invs_of(seat)))

    def triage_plans(self: Engine, seat: str, devour: bool) -> list[str]:
        player = self.st.players[seat]
        if player.out or not any(self.can_use_cards(i) for i in self.invs_of(seat)):
            return []
        out = []
        for pid in dict.fromkeys(player.plans):
            plan = self.pack.plan(pid)
            if plan.timing != "on_wound":
                continue
            for eff in plan.effect:
                if eff.op == "prevent_wound" and (eff.includes_devourer or not devour):
                    out.append(pid)
                    break
        return out

    def step_wound(self: Engine, inv: str, devour: bool) -> None:
        target = self.inv(inv)
        if not self.in_house(target):
            return
        holders = self.triage_holders(devour)
        if holders:
            ghost = "the Devourer's" if devour else "a Ghost's"
            self.push_prompt(
                "triage",
                holders,
                f"{self.inv_name(target)} is about to suffer {ghost} Wound. Play a Plan to "
                "prevent it, or pass.",
                inv=inv,
                devour=devour,
                passed=[],
            )
            return
        self.wound_character(target, devour)

    def wound_character(self: Engine, inv: InvestigatorState, devour: bool) -> None:
        """EX-WOUND-01, EX-GHOST-06, then the Rescue (EX-RESCUE-01..03)."""
        st = self.st
        cid = inv.cell
        char = inv.character
        assert cid is not None and char is not None
        dropped = dict(inv.tools)
        for t, n in inv.tools.items():
            _add(st.cells[cid].dropped, t, n)
        inv.tools = {}
        inv.character = None
        inv.last_character = char
        inv.wounds += 1
        inv.cell = None
        drops = f", dropping {tools_text(dropped)}" if dropped else ""
        if devour:
            st.devoured.append(char)
            # The place with the deed, not after "removed from the game" (stop 63's demo).
            self.emit(f"{self.char_name(char)} is devoured by the Devourer in "
                      f"{self.the_cell(cid)}{drops}, and is out of the game for good.", "wound")
        else:
            st.wounded.append(char)
            self.emit(f"{self.char_name(char)} is Wounded in {self.the_cell(cid)}{drops}.",
                      "wound")
        if inv.seat == st.active and st.phase in ("haunt", "actions", "ghost"):
            if not st.turn_lost:  # said, or the turn's end reads as a choice (stop 64's demo)
                self.emit(f"{self.char_name(char)} was Wounded on their own turn: the rest of "
                          "this turn is lost" + (", for both investigators" if self.solo
                                                  else "") + ".", "turn_lost")
            st.turn_lost = True  # EX-TURN-06
            st.actions_left = 0
        if not st.lookouts:
            self.lose(f"{self.char_name(char)} is Wounded and no Lookout can Rescue them.")
            return
        if len(st.lookouts) == 1:
            self.rescue_with_lookout(inv, st.lookouts[0])
            return
        self.push_prompt(
            "rescue",
            [inv.seat],
            f"{self.char_name(char)} was Wounded: choose the Lookout who rescues you.",
            inv=inv.id,
        )

    def rescue_with_lookout(self: Engine, inv: InvestigatorState, lookout: str) -> None:
        st = self.st
        st.lookouts.remove(lookout)
        inv.character = lookout
        # Whose Character it becomes: the seat the Wounded one was (stop 63's demo left the
        # reader to work out who plays whom after a few rescues).
        was = inv.last_character
        taking = f", taking the place of {self.char_name(was)}" if was else ""
        if self.solo and inv.role in ("primary", "secondary"):  # EX-SOLO-03: who completes
            taking += f" as the {inv.role.capitalize()} Investigator"
        self.emit(f"{self.char_name(lookout)} comes to the rescue{taking}.", "rescue",
                  inv=inv.id, was=was, char=lookout)
        self.place_at_foyer(inv)

    def foyer_or_edge(self: Engine) -> list[str] | None:
        """Where a pawn sent to the Foyer may go: None for the Foyer itself, else the edge
        Rooms free of Ghosts (EX-RESCUE-02, EX-WOUND-03; any Ghost-free Room, EX-AMB-48)."""
        if not self.ghosts_in("foyer"):
            return None
        ghosts = self.ghost_cells()
        options = [c for c in self.geo.edge if c not in ghosts]
        if not options:  # EX-AMB-48
            options = [c for c in self.geo.all if c not in ghosts]
        return options

    def place_at_foyer(self: Engine, inv: InvestigatorState, told: bool = False,
                       shielded: bool = False) -> None:
        """Into the Foyer, or an edge Room if a Ghost is there (EX-RESCUE-02, EX-WOUND-03);
        `told`: a line already said where it goes (a shield's, `wound_check`); `shielded`: a
        shield sends it, so the Room chosen later is said as that same move."""
        options = self.foyer_or_edge()
        if options is None:
            inv.cell = "foyer"
            if not told:
                self.emit(f"{self.inv_name(inv)} is placed in the Foyer.", "placed")
            return
        if len(options) == 1:
            inv.cell = options[0]
            if not told:
                self.emit(f"{self.inv_name(inv)} is placed in {self.the_cell(options[0])}.",
                          "placed")
            return
        inv.cell = None
        self.push_prompt(
            "place_pawn",
            [inv.seat],
            f"A Ghost is in the Foyer: choose an edge Room for {self.inv_name(inv)}.",
            inv=inv.id,
            cells=options,
            shielded=shielded,
        )

    def step_relocate(self: Engine, inv: str, told: bool = False) -> None:
        target = self.inv(inv)
        if self.in_house(target):
            self.place_at_foyer(target, told, shielded=True)
