"""The run loop and the turn: start, timer, the Action phase, the end of a turn (EX-TURN-*)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.core.game import plural
from rules.exorcism.state import Step

if TYPE_CHECKING:
    from rules.exorcism.engine import Engine


def turn_header(turn: int, round_: int, who: str) -> str:
    """A turn's first line: "Turn 12 (round 3): Psychologist to play." — `who` as the engine
    names the seat, or with its player's name the table knows ("Psychologist (Ada)")."""
    return f"Turn {turn} (round {round_}): {who} to play."


class Turns:
    """The part of `Engine` this module holds (see the module's docstring)."""

    # ------------------------------------------------------------------ the run loop
    def run(self: Engine) -> None:
        """Resolve queued steps until a decision is needed, the game rests, or it ends."""
        guard = 0
        while not self.over:
            guard += 1
            if guard > 10_000:  # pragma: no cover - a bug, never a rule
                raise RuntimeError("exorcism engine loop does not settle")
            if self.st.prompts:
                return
            if self.st.queue:
                step = self.st.queue.pop(0)
                getattr(self, "step_" + step.op)(**step.args)
                continue
            if self.settle():
                continue
            return

    def settle(self: Engine) -> bool:
        """At rest: end the turn when the active seat can do nothing more. True if it moved on."""
        st = self.st
        if st.phase != "actions" or st.active is None:
            return False
        if not self.turn_goes_on():
            self.close_turn()
            return True
        return False

    def turn_goes_on(self: Engine) -> bool:
        """Whether the active seat can still act this turn (an Action, or an own-turn Plan)."""
        st = self.st
        assert st.active is not None
        acting = [i for i in self.invs_of(st.active) if self.in_house(i)]
        return not (
            st.turn_lost
            or not acting
            or (st.actions_left <= 0 and not self.own_turn_plans(st.active))
        )

    def close_turn(self: Engine, passed: list[str] | None = None) -> None:
        """The active player's Actions are over: a Plan window (EX-PROMPT-05 (d)), then the
        turn ends — unless a Plan in the window gave the active player more Actions."""
        st = self.st
        self.later(Step(op="plan_window", args={"reason": "end", "passed": passed or []}),
                   Step(op="turn_end", args={"actions": st.actions_left}))

    def step_turn_end(self: Engine, actions: int) -> None:
        st = self.st
        if st.phase != "actions" or st.active is None:
            return  # pragma: no cover - nothing but the window runs between
        if st.actions_left > actions and self.turn_goes_on():
            return  # an Extra Action played in the window: the turn goes on (EX-ACT-09)
        self.end_turn()


    # ------------------------------------------------------------------ turn flow
    def start_first_turn(self: Engine) -> None:
        self.later(Step(op="turn_start"))

    def step_turn_start(self: Engine) -> None:
        st = self.st
        seat = st.active
        assert seat is not None
        # EX-TURN-04: the loss check comes before Reduce the Timer.
        if all(p == 0 for p in st.dice):
            self.lose("dawn has come: no Time Dice are left on the Clock.")
            return
        st.game_turn += 1
        player = st.players[seat]
        player.turns_taken += 1
        st.turn_delta = player.pending_delta
        player.pending_delta = 0
        st.turn_lost = False
        st.refunds = 0
        st.once_used = []
        st.walked = {}
        st.terror_used = 0
        st.cold_spot = None
        st.haunting_sounds = None
        st.walls_bleed = False
        st.actions_left = 0
        st.phase = "haunt"
        # The seat goes with the line: the table names its player there (`Exorcism.event_text`).
        self.emit(turn_header(st.game_turn, st.round, self.seat_label(seat)), "turn",
                  seat=seat, turn=st.game_turn, round=st.round, who=self.seat_label(seat))
        self.reduce_timer()
        if self.over:
            return
        if self.ova:
            if st.round >= self.opts.ova_ghost_from_round:  # EX-AMB-29
                self.later(Step(op="ghost_phase_start"))  # its end queues begin_actions
            else:
                self.later(Step(op="begin_actions"))
        elif st.round >= self.opts.haunt_from_round:  # EX-HAUNT-01
            # EX-HAUNT-02, EX-AMB-44: the count is fixed when the step begins.
            self.later(Step(op="haunt_draw", args={"left": self.track_value()}),
                       Step(op="begin_actions"))
        else:
            self.later(Step(op="begin_actions"))

    def reduce_timer(self: Engine) -> None:
        """EX-CLOCK-02/03 and the Time Action of EX-TIME-01."""
        st = self.st
        i = next(k for k, p in enumerate(st.dice) if p > 0)
        if st.dice[i] > 1:
            st.dice[i] -= 1
            self.emit(f"The clock ticks: Time Die {i + 1} shows {st.dice[i]}.", "clock")
            return
        st.dice[i] = 0
        n = len(st.dice)
        hour = i + 1 if self.opts.time_action_hours_from == "first" else n - i
        left = sum(1 for p in st.dice if p > 0)
        # EX-TURN-04, EX-CLOCK-05: the last die gone, this turn is still played in full and
        # the next turn's start loses; "0 hours remain" alone read as the end already come.
        self.emit(f"Time Die {i + 1} is discarded; {left} "
                  f"{plural(left, 'hour remains', 'hours remain')}"
                  + (": this is the last turn, and dawn comes when it ends." if not left
                     else "."), "clock")
        if hour in self.pack.clock.action_hours:
            self.time_action(hour)

    def time_action(self: Engine, hour: int) -> None:
        tokens = self.pack.clock.time_action_tokens
        rooms = [c for c in self.geo.house if self.st.cells[c].face_down]
        for cid in rooms:
            self.st.cells[cid].exorcism_tokens += tokens
        self.emit(
            f"Time Action (hour {hour}): {tokens} Exorcism {plural(tokens, 'Token')} on each of "
            f"{len(rooms)} face-down Locked {plural(len(rooms), 'Room')}.",
            "time_action",
        )

    def step_begin_actions(self: Engine) -> None:
        st = self.st
        st.phase = "actions"
        if st.turn_lost:
            st.actions_left = 0
            return  # settle() ends the turn
        base = self.opts.solo_actions_per_turn if self.solo else self.opts.actions_per_turn
        st.actions_left = max(0, base + st.turn_delta)
        st.phase = "actions"

    def end_turn(self: Engine) -> None:
        st = self.st
        seat = st.active
        assert seat is not None
        self.emit(f"{self.seat_label(seat, capital=True)}'s turn is over." if st.turn_lost
                  else f"{self.seat_does(seat, 'ends')} the turn.", "turn_end")
        st.actions_left = 0
        seats = [s for s in st.seats if s != st.ghost_seat]
        first = st.first_seat or seats[0]
        fi = seats.index(first)
        rel = {s: (seats.index(s) - fi) % len(seats) for s in seats}
        i = seats.index(seat)
        nxt = None
        for k in range(1, len(seats) + 1):
            cand = seats[(i + k) % len(seats)]
            if not st.players[cand].out:
                nxt = cand
                break
        if nxt is None:
            self.check_escape_win()
            if not self.over:  # pragma: no cover - everyone out without a win cannot happen
                self.lose("nobody is left in the house.")
            return
        # A new round begins only if a turn of it can be played: with no Time Die left, the
        # next turn's start is dawn (EX-TURN-04), and the game lasted the rounds it played.
        if rel[nxt] <= rel[seat] and any(p > 0 for p in st.dice):
            st.round += 1
        st.active = nxt
        st.phase = "haunt"
        self.later(Step(op="turn_start"))
