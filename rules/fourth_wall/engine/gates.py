"""Doom and Gates: gaining Doom, opening and closing Gates (FW-DOOM-*, FW-GATE-*)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules.core.types import act
from rules.fourth_wall import actions as K
from rules.fourth_wall.state import (
    InvestigatorState,
    Step,
)

if TYPE_CHECKING:
    from rules.fourth_wall.engine import Engine



def open_gates(n: int) -> str:
    """"1 Open Gate", "3 Open Gates", "no Open Gate"."""
    return "no Open Gate" if n == 0 else f"{n} Open Gate" + ("" if n == 1 else "s")

class Gates:
    """The part of `Engine` this module holds (see the module's docstring)."""

    # ================================================================== doom and gates
    def add_doom_now(self: Engine, n: int) -> None:
        st = self.st
        st.doom += n
        if self.opts.doom_cap is not None:
            st.doom = min(st.doom, self.opts.doom_cap)

    def gain_doom(self: Engine, n: int, why: str) -> None:
        """Doom for The Wall: deferred to its next turn when gained while The Wall is spending
        its own turn (FW-DOOM-06), else into the Action Pool."""
        st = self.st
        if st.phase == "wall" and st.wall_spending:
            st.doom_deferred += n
            if self.opts.doom_cap is not None:
                st.doom_deferred = min(st.doom_deferred, self.opts.doom_cap)
            self.emit(f"+{n} Doom for The Wall's next turn ({why}).", "doom")
        else:
            self.add_doom_now(n)
            self.emit(f"+{n} Doom to The Wall's Action Pool ({why}); {st.doom} in the pool.",
                      "doom")

    def step_open_gate(self: Engine, answer: dict[str, Any] | None = None) -> None:
        """FW-GATE-04..07."""
        st = self.st
        if answer is not None:
            if answer["kind"] == K.TAKE_DOOM:
                self.gain_doom(1, "instead of a sixth Gate")
            else:
                self.emit("The Wall declines the Doom.", "gate")
            return
        if len(st.gates) >= self.max_gates:
            if self.stage_at_least("eye_opens"):  # pragma: no cover - the game already ended
                self.finish("wall", "five Gates are Open after An Eye Opens.")
                return
            self.emit("A Gate would open but five are already Open.", "gate")
            if self.conflict and st.wall_seat is not None:  # FW-PROMPT-22 / FW-AMB-39
                self.ask(st.wall_seat, "gate_doom", "Five Gates are already Open: place a "
                         "Doom Token for your next turn instead?",
                         [act(K.TAKE_DOOM), act(K.DECLINE)], Step(op="open_gate"))
            else:  # FW-AI-06
                self.gain_doom(1, "instead of a sixth Gate")
            return
        if st.gate_supply:
            st.gates.append(st.gate_supply.pop())
        self.emit(f"A Gate opens: {open_gates(len(st.gates))}.", "gate_opened",
                  gates=len(st.gates))
        if len(st.gates) >= self.max_gates and self.stage_at_least("eye_opens"):
            self.finish("wall", "the fifth Gate opens after An Eye Opens.")
            return
        self.fire("gate_opened")

    def close_gates(self: Engine, n: int, by: InvestigatorState | None = None) -> None:
        """Close `n` Gates; `by`, the Investigator whose action or card closed them (none for
        a Wall card's), is kept in the event for the game's recap (`ending.gates_closed`)."""
        st = self.st
        for _ in range(n):
            if not st.gates:
                break
            st.gate_supply.append(st.gates.pop())
            self.emit(f"A Gate is closed: {open_gates(len(st.gates))}.", "gate_closed",
                      gates=len(st.gates), by=self.inv_name(by) if by else "",
                      inv=by.id if by else "")
            if not st.gates:  # FW-END-01
                self.finish("investigators", "every Gate is closed.")
                return
