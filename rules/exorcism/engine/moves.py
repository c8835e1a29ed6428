"""Who may act, their legal actions, and applying one."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.core.errors import IllegalAction
from rules.core.types import Action, Event, act
from rules.exorcism import actions as K
from rules.exorcism.state import Step

if TYPE_CHECKING:
    from rules.exorcism.engine import Engine


class Moves:
    """The part of `Engine` this module holds (see the module's docstring)."""

    # ------------------------------------------------------------------ queries
    def to_act(self: Engine) -> set[str]:
        st = self.st
        if self.over:
            return set()
        if st.prompts:
            p = st.prompts[-1]
            if p.kind in ("triage", "plan_window"):
                return {s for s in p.seats if s not in p.data["passed"]}
            return set(p.seats)
        if st.queue:
            return set()  # pragma: no cover - the engine always runs the queue dry
        if st.phase == "actions" and st.active:
            return {st.active}
        if st.phase == "ghost" and st.ghost_seat:
            return {st.ghost_seat}
        return set()

    def legal(self: Engine, seat: str) -> list[Action]:
        st = self.st
        if self.over:
            return []
        out: list[Action] = []
        if seat in self.to_act():
            if st.prompts:
                out = self.prompt_answers(st.prompts[-1], seat)
            elif st.phase == "actions":
                for inv in self.invs_of(seat):
                    out.extend(self.main_actions(inv))
                out.append(act(K.PASS))
            elif st.phase == "ghost":
                out = self.ghost_actions()
        for pid in self.playable_plans(seat):
            user = self.plan_user(seat)
            assert user is not None
            out.append(K.with_who(act(K.PLAN, plan=pid), self.who_param(user)))
        return out


    # ------------------------------------------------------------------ apply
    def apply(self: Engine, seat: str, action: Action) -> list[Event]:
        st = self.st
        legal = self.legal(seat)
        if not any(a.kind == action.kind and a.params == action.params for a in legal):
            msg, rule = self.explain(seat, action)
            raise IllegalAction(msg, rule)
        top = st.prompts[-1].kind if st.prompts else None
        if action.kind == K.PLAN and top == "plan_window":
            self.window_play(seat, action.p("plan"))
        elif action.kind == K.PLAN and top != "triage":
            self.play_plan(seat, action.p("plan"))
        elif st.prompts:
            self.answer(seat, action)
        elif st.phase == "ghost":
            self.do_ghost(action)
        elif action.kind == K.PASS:
            st.actions_left = 0  # the rest of the turn's Actions are given up
            self.close_turn(passed=[seat])  # the passing player has had their say
        else:
            who = action.p("who")
            inv = self.inv(who) if who else self.invs_of(seat)[0]
            self.do_main(seat, inv, action)
        self.run()
        return self.events

    def do_ghost(self: Engine, action: Action) -> None:
        st = self.st
        kind = action.kind
        if kind == K.END_HAUNT:
            self.step_ghost_phase_end()
            return
        st.ghost_budget -= 1
        if kind in (K.GHOST_MOVE, K.GHOST_DARKNESS):
            card_id = action.p("card")
            st.ghost_hand.remove(card_id)
            st.haunt_discard.append(card_id)
            st.last_haunt = self.haunt_card_text(card_id)
            told: dict[str, str] = {}
            if kind == K.GHOST_MOVE:
                # The arrows of the Ghosts in the house, and those that stay (EX-HAUNT-09).
                self.emit("The Ghost player moves the Ghosts with the "
                          f"{self.haunt_card_told(card_id, stays=True)}.", "ghost_act")
                told = self.ghosts_staying(card_id)
            else:  # its Location alone: the arrows move no Ghost here (stop 64's demo)
                where = getattr(self.pack.haunt_card(card_id), "location", None)
                self.emit("The Ghost player adds Darkness with "
                          + (f"a Haunt card: Location {where}." if where is not None
                             else f"the {st.last_haunt}."), "ghost_act")
            # EX-PROMPT-05 (a): the played card is public; Plans may answer it first.
            self.later(Step(op="plan_window", args={"reason": "haunt", "card": card_id}),
                       Step(op="ghost_card", args={"card": card_id, "move": kind == K.GHOST_MOVE,
                                                   "told": told}),
                       Step(op="ghost_continue"))
        elif kind == K.HAUNT_LEVEL:
            step = self.opts.haunt_level_step
            if self.opts.haunt_level_uses_supply:
                st.darkness_supply -= step
            st.haunt_level += step
            st.raised_in_phase += 1
            self.emit(f"The Ghost player raises the Haunt Level to {st.haunt_level}.",
                      "haunt_level")
            if st.haunt_level >= self.opts.haunt_level_win:
                self.lose(f"the Haunt Level reaches {st.haunt_level}.")
                return
            self.later(Step(op="ghost_continue"))
        elif kind == K.TERROR:
            self.do_terror(action.p("ability"))
            self.later(Step(op="ghost_continue"))
