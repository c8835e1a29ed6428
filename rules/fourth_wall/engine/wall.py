"""The Wall's actions in Conflict (FW-WALL-*)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.core.types import Action, act
from rules.fourth_wall import actions as K
from rules.fourth_wall.engine.investigators import ability_clauses
from rules.fourth_wall.state import (
    Step,
)

if TYPE_CHECKING:
    from rules.fourth_wall.engine import Engine


class WallActions:
    """The part of `Engine` this module holds (see the module's docstring)."""

    # ================================================================== The Wall (Conflict)
    def wall_actions(self: Engine) -> list[Action]:
        st = self.st
        if st.wall_mode is None:
            return [act(K.WRATH), act(K.BROOD)]
        out: list[Action] = []
        if st.doom >= self.opts.delve_cost and self.can_draw_horror():
            out.append(act(K.DELVE))
        for h in self.distinct_horrors(st.wall_hand):
            if self.horror(h).manifest.doom <= st.doom:
                out.append(act(K.MANIFEST, horror=h))
        if not self.ignored("trigger"):
            for hs in st.streets:
                if not hs.drained and self.horror(hs.id).trigger_cost <= st.doom:
                    out.append(act(K.TRIGGER, horror=hs.id))
        if st.doom >= self.opts.destroy_marble_cost:
            out += [act(K.DESTROY, marble=m) for m in self.street_marbles("any")]
        if st.revealed and not st.wall_unique_used:
            for n, u in enumerate(self.wall().uniques):
                if u.cost <= st.doom:
                    out.append(act(K.WALL_UNIQUE, n=n))
        if out:
            out.append(act(K.END_TURN))
        return out

    def do_wall(self: Engine, action: Action) -> None:
        st = self.st
        kind = action.kind
        end = Step(op="end_action")
        if kind == K.WRATH:
            self.start_wrath()
        elif kind == K.BROOD:
            self.start_brood()
        elif kind == K.END_TURN:
            self.later(Step(op="wall_turn_end"))
        elif kind == K.DELVE:
            st.doom -= self.opts.delve_cost
            hid = self.draw_horror()
            if hid is not None:
                st.wall_hand.append(hid)
                self.emit("The Wall Delves: it draws a Horror.", "delve")
                self.emit(f"You draw {self.horror_name(hid)}.", "delve",
                          audience=[st.wall_seat or ""])
            self.later(end)
        elif kind == K.MANIFEST:
            hid = str(action.p("horror"))
            st.doom -= self.horror(hid).manifest.doom
            st.wall_hand.remove(hid)
            self.place_horror(hid, manifest_doom=self.horror(hid).manifest.doom)
            self.later(end)
        elif kind == K.TRIGGER:
            hid = str(action.p("horror"))
            cost = self.horror(hid).trigger_cost
            st.doom -= cost
            said = ability_clauses(self.horror(hid).text, "Trigger")
            self.emit(f"The Wall Triggers {self.horror_called(hid)} ({cost} Doom)"
                      + (f": {said[0]}" if said else "."), "trigger")
            self.later(*self.card_steps(f"trigger:{hid}", "wall", horror=hid),
                       Step(op="drain_after", args={"horror": hid}), end)
        elif kind == K.DESTROY:
            st.doom -= self.opts.destroy_marble_cost
            self.later(Step(op="destroy", args={"f": None, "which": "chosen",
                                                "marble": action.p("marble"),
                                                "cost": self.opts.destroy_marble_cost}), end)
        elif kind == K.WALL_UNIQUE:
            n = int(action.p("n") or 0)
            st.doom -= self.wall().uniques[n].cost
            st.wall_unique_used = True
            said = ability_clauses(self.wall().text, "Unique")
            self.emit(f"{self.wall().name} uses its "
                      + ("top " if n == 0 and len(said) > 1 else "second " if n == 1 else "")
                      + "Unique Action" + (f": {said[n]}" if n < len(said) else "."),
                      "wall_unique")
            self.later(*self.card_steps(f"wall_unique:{n}", "wall"), end)
