"""Plans: the windows to play them and playing one (EX-ACT-09, EX-PROMPT-05/06)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.exorcism.state import InvestigatorState, Step

if TYPE_CHECKING:
    from rules.exorcism.engine import Engine


class Plans:
    """The part of `Engine` this module holds (see the module's docstring)."""

    # ------------------------------------------------------------------ Plans
    def plan_window(self: Engine, seat: str) -> bool:
        """Whether `seat` may play a Plan now: while the game rests (EX-PROMPT-05 (c)/(e)), or
        in an open `plan_window` prompt that waits for it ((a)/(d))."""
        st = self.st
        if self.over:
            return False
        if st.prompts:
            top = st.prompts[-1]
            return top.kind == "plan_window" and seat in top.seats and (
                seat not in top.data["passed"])
        return not st.queue and st.phase in ("actions", "ghost")

    def window_seats(self: Engine, passed: list[str]) -> list[str]:
        """Who a Plan window opens for, active player first then clockwise: the seats holding
        a Plan playable then — or, under `hidden_plans`, every investigator holding a Plan
        (public), so the window never tells the Ghost player what anyone holds (EX-VIS-16)."""
        out = []
        for seat in self.turn_order():
            if seat in passed or self.plan_user(seat) is None:
                continue
            if self.plans_hidden:
                if self.holds_usable_plans(seat):
                    out.append(seat)
            elif self.playable_plans(seat, in_window=True):
                out.append(seat)
        return out

    def step_plan_window(self: Engine, reason: str, passed: list[str] | None = None,
                         card: str | None = None) -> None:
        passed = list(passed or [])
        seats = self.window_seats(passed)
        if not seats:
            return  # a window nobody can use does not open
        st = self.st
        if reason == "haunt" and card is not None:
            # The card is face up for everyone by now (EX-VIS-10).
            # "Revealed: Haunt card (Location 4): …": the card's own text holds a colon. Told
            # as the log tells it, the arrows of the Ghosts in the house only (stop 67's demo:
            # "Wraith up, Bull 5 spaces up, Devourer left" after the exorcism, EX-HAUNT-11).
            text = (f"Revealed: {self.haunt_card_told(card)}. Play a Plan before it "
                    "resolves, or pass.")
        else:
            who = self.seat_label(st.active, capital=True) if st.active else "The active player"
            text = f"{who}'s Actions are over: play a Plan before the turn ends, or pass."
        self.push_prompt("plan_window", seats, text, reason=reason, passed=passed, card=card)

    def plan_user(self: Engine, seat: str) -> InvestigatorState | None:
        """The investigator who plays the seat's Plans (Solo: the Primary, EX-SOLO-03)."""
        for inv in self.invs_of(seat):
            if self.in_house(inv) and self.can_use_cards(inv):
                return inv
        return None

    def playable_plans(self: Engine, seat: str, own_turn_only: bool = False,
                       in_window: bool = False) -> list[str]:
        """The seat's Plans it may play now (`in_window`: as a Plan window opens)."""
        st = self.st
        player = st.players.get(seat)
        if player is None or player.out or not player.plans:
            return []
        if not in_window and not self.plan_window(seat):
            return []
        inv = self.plan_user(seat)
        if inv is None:
            return []
        out = []
        for pid in dict.fromkeys(player.plans):
            plan = self.pack.plan(pid)
            if plan.timing == "on_wound":
                continue
            if plan.timing == "own_turn_only":
                if seat != st.active or st.phase != "actions" or st.turn_lost:
                    continue
            elif own_turn_only:
                continue
            ctx = {"src": f"plan:{pid}", "inv": inv.id, "seat": seat, "origin": inv.cell}
            if self.effects_usable(plan.effect, ctx):
                out.append(pid)
        return out

    def window_play(self: Engine, seat: str, pid: str) -> None:
        """A Plan played in a Plan window: the window steps aside while the Plan resolves,
        then opens again for whoever has not passed (EX-AMB-54: the last Plan played resolves
        first, before the event that opened the window goes on)."""
        prompt = self.st.prompts.pop()
        d = prompt.data
        self.later(Step(op="plan_window", args={"reason": d["reason"], "passed": d["passed"],
                                                "card": d.get("card")}))
        self.play_plan(seat, pid)

    def own_turn_plans(self: Engine, seat: str) -> list[str]:
        return self.playable_plans(seat, own_turn_only=True)

    def play_plan(self: Engine, seat: str, pid: str) -> None:
        st = self.st
        inv = self.plan_user(seat)
        assert inv is not None
        st.players[seat].plans.remove(pid)
        st.plan_discard.append(pid)
        plan = self.pack.plan(pid)
        self.emit(f"{self.inv_name(inv)} plays {plan.called}.", "plan")
        ctx = {"src": f"plan:{pid}", "inv": inv.id, "seat": seat, "origin": inv.cell,
               "plan": pid}
        self.run_effects(ctx)
