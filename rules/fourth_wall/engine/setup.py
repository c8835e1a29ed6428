"""Setup's choices: each Investigator keeps one of two cards (FW-SETUP-04)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.core.types import act
from rules.fourth_wall import actions as K
from rules.fourth_wall.engine.board import (
    capital,
    slot_name,
)
from rules.fourth_wall.state import (
    Step,
)

if TYPE_CHECKING:
    from rules.fourth_wall.engine import Engine


class SetupSteps:
    """The part of `Engine` this module holds (see the module's docstring)."""

    # ================================================================== setup flow
    def step_setup_choose(self: Engine, k: int) -> None:
        """FW-SETUP-04 / FW-PROMPT-01: each Investigator keeps one of its two cards."""
        st = self.st
        if k >= len(st.investigators):
            self.later(Step(op="setup_finish"))
            return
        inv = st.investigators[k]
        opts = [act(K.KEEP, card=c) for c in inv.dealt]
        names = " or ".join(self.investigator_card(c).name for c in inv.dealt)
        slot = capital(slot_name(k))
        self.ask(inv.seat, "keep_investigator",
                 f"{slot}: keep one of your two Investigator cards ({names}); "
                 "the team may discuss it openly.",
                 opts, Step(op="setup_keep", args={"k": k}), into="card",
                 public_text=f"{slot}: keep one of two Investigator cards "
                 "(the team sees which).")

    def step_setup_keep(self: Engine, k: int, card: str) -> None:
        st = self.st
        inv = st.investigators[k]
        inv.card = card
        st.investigator_deck.extend(c for c in inv.dealt if c != card)
        inv.dealt = []
        self.emit(f"{capital(slot_name(k))} is {self.investigator_card(card).name}.", "setup",
                  inv=inv.id, seat=inv.seat)
        self.later(Step(op="setup_choose", args={"k": k + 1}))

    def step_setup_finish(self: Engine) -> None:
        st = self.st
        st.rng.shuffle(st.investigator_deck)  # FW-GAP-09
        for inv in st.investigators:  # FW-SETUP-05
            self.draw_into(inv, self.investigator_card(inv.card or "").sanity, None)
        self.emit(f"The game begins: {len(st.gates)} Open Gates; the Turn Tracker is in "
                  "Slumber.", "setup")
        self.later(Step(op="wall_turn_start"))
