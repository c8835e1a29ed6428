"""Who may act, their legal actions (with quick uses at rest), and applying one."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.core.errors import IllegalAction
from rules.core.types import Action, Event, act
from rules.fourth_wall import actions as K
from rules.fourth_wall.state import (
    Step,
)

if TYPE_CHECKING:
    from rules.fourth_wall.engine import Engine


class Moves:
    """The part of `Engine` this module holds (see the module's docstring)."""

    # ================================================================== quick use at rest
    def anytime_reactions(self: Engine, seat: str) -> list[Action]:
        """``any_time_out_of_turn`` quick uses (FW-GAP-02) of `seat`'s Investigators other than
        the active one, while the active Investigator's turn rests."""
        st = self.st
        if st.phase != "investigator" or st.prompts or st.queue or self.over:
            return []
        act_inv = self.active()
        out: list[Action] = []
        for inv in self.invs_of(seat):
            if (act_inv is not None and inv.id == act_inv.id) or inv.insane:
                continue
            for m in self.reaction_marbles(inv, "any_time_out_of_turn", inv.id):
                out.append(act(K.REACT, inv=inv.id, marble=m))
        return out

    # ================================================================== contract queries
    def to_act(self: Engine) -> set[str]:
        st = self.st
        if self.over:
            return set()
        if st.prompts:
            return set(st.prompts[-1].seats)
        if st.queue:
            return set()  # pragma: no cover - the engine always runs the queue dry
        if st.phase == "investigator":
            inv = self.active()
            return {inv.seat} if inv is not None else set()
        if st.phase == "wall" and self.conflict and st.wall_seat is not None:
            return {st.wall_seat}
        return set()

    def legal(self: Engine, seat: str) -> list[Action]:
        st = self.st
        if self.over:
            return []
        if st.prompts:
            return self.prompt_answers(seat)
        out: list[Action] = []
        if st.phase == "investigator":
            inv = self.active()
            assert inv is not None
            if seat == inv.seat:
                out = self.main_actions(inv, st.ap)
                out.append(act(K.PASS, inv=inv.id))
            out += self.anytime_reactions(seat)
        elif st.phase == "wall" and self.conflict and seat == st.wall_seat:
            out = self.wall_actions()
        return out

    def apply(self: Engine, seat: str, action: Action, known_legal: bool = False) -> list[Event]:
        """Play `action` for `seat`. `known_legal`: the caller took `action` from `legal(seat)`
        on this very state (a search's play-out), so it is not looked up again."""
        st = self.st
        if not known_legal and action not in self.legal(seat):
            msg, rule = self.explain(seat, action)
            raise IllegalAction(msg, rule)
        if st.prompts:
            self.answer(action)
        elif action.kind == K.REACT:
            inv = self.inv(str(action.p("inv")))
            self.use_reaction(inv, str(action.p("marble")), "any_time_out_of_turn")
            self.later(Step(op="end_action"))
        elif st.phase == "investigator":
            inv = self.inv(str(action.p("inv")))
            if action.kind == K.PASS:
                self.later(Step(op="inv_turn_end"))
            else:
                self.later(*self.do_main(inv, action, "turn"))
        elif st.phase == "wall":
            self.do_wall(action)
        self.run()
        return self.events
