"""Why an action is not legal now, in words a player can read (with the rule id)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.core.game import plural
from rules.core.types import Action
from rules.fourth_wall import actions as K

if TYPE_CHECKING:
    from rules.fourth_wall.engine import Engine


class Refusals:
    """The part of `Engine` this module holds (see the module's docstring)."""

    # ================================================================== messages
    def explain(self: Engine, seat: str, action: Action) -> tuple[str, str]:
        """Why an action is refused, in words a player can act on, with the rule id."""
        st = self.st
        kind = action.kind
        if st.prompts:
            p = st.prompts[-1]
            if seat in p.seats:
                return (f"Answer the pending choice first: {p.text}", "FW-INSTR-02")
            return ("The game is waiting for another player's choice.", "FW-TURN-01")
        if st.phase == "wall":
            if seat != st.wall_seat:
                return ("It is The Wall's turn.", "FW-TURN-01")
            if st.wall_mode is None:
                return ("Choose Wrath or Brood first.", "FW-WALL-01")
            if kind == K.BROOD or kind == K.WRATH:
                return ("You already chose this turn's type.", "FW-WALL-01")
            if kind == K.WALL_UNIQUE:
                if not st.revealed:
                    return ("The Unique Action can only be used after An Eye Opens.",
                            "FW-WALL-09")
                if st.wall_unique_used:
                    return ("The Unique Action may only be used once per turn.", "FW-WALL-09")
            if kind == K.TRIGGER:
                return ("Only an un-Drained Horror On the Streets whose Trigger Cost you can "
                        "pay can be Triggered.", "FW-WALL-08")
            return ("You do not have enough Doom for that (or it has no target).", "FW-WALL-04")
        inv = self.active()
        if inv is None or seat != inv.seat:
            return ("It is not your turn.", "FW-TURN-02")
        if action.p("inv") not in (None, inv.id):
            return (f"It is {self.inv_name(inv)}'s turn: act as that Investigator "
                    f"(inv={inv.id}).", "FW-PLAY-03")
        name = self.COST_NAME.get(kind)
        if name is not None and self.action_cost(name, inv) > st.ap:
            return (f"You have {st.ap} Action {plural(st.ap, 'Point')} left; that costs "
                    f"{self.action_cost(name, inv)}.", "FW-AP-02")
        if kind == K.CLOSE_GATE:
            if self.scourge_blocks():
                return ("The Scourge is On the Streets: no Gate may be closed.",
                        "FW-SCOURGE-03")
            return ("Closing a Gate needs Marbles that together show a Clue, a Force and a "
                    "Science Symbol.", "FW-ACT-01")
        if kind == K.UNIQUE and inv.id in st.uniques_used:
            return ("The Unique Action may only be used once per turn.", "FW-ACT-03")
        if kind in (K.UNIQUE, K.EXPLOIT, K.UTILISE):
            return ("That card could not do anything right now; choose another action.",
                    "FW-AMB-16")
        if kind == K.INTERVENE:
            if not st.streets:
                return ("There is no Horror On the Streets to Intervene on.", "FW-AMB-24")
            return ("Intervene with a Marble from your hand.", "FW-ACT-05")
        if kind == K.UTILISE:
            return ("Only a Marble with a Utilise Instruction can be Utilised.", "FW-ACT-06")
        if kind in (K.GIVE, K.TRADE):
            return ("Give or Trade needs a Marble and another non-Insane Investigator.",
                    "FW-ACT-07")
        if kind == K.SEARCH:
            return ("The Marble deck and discard pile are empty.", "FW-GAP-12")
        return ("That is not a legal action now; choose one of the offered actions.",
                "FW-AP-02")
