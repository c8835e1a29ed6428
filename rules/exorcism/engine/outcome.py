"""Winning and losing: the Exorcism, escape, points (EX-WIN-*, EX-LOSE-*)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.core.game import plural
from rules.exorcism.engine.board import (
    GHOSTS,
)

if TYPE_CHECKING:
    from rules.exorcism.engine import Engine


class Outcome:
    """The part of `Engine` this module holds (see the module's docstring)."""

    # ------------------------------------------------------------------ outcome
    def lose(self: Engine, reason: str) -> None:
        """The investigators lose (One vs All: the Ghost player wins)."""
        if self.st.outcome is not None:
            return
        self.st.outcome = "lost"
        self.st.phase = "over"
        self.st.reason = reason
        who = "The Ghost player wins: " if self.ova else "The investigators lose: "
        self.emit(who + reason, "game_over")

    def win(self: Engine, reason: str) -> None:
        if self.st.outcome is not None:
            return
        self.st.outcome = "won"
        self.st.phase = "over"
        self.st.reason = reason
        self.emit("The investigators win: " + reason, "game_over")

    @property
    def over(self: Engine) -> bool:
        return self.st.outcome is not None

    def check_exorcism(self: Engine) -> None:
        """EX-WIN-01 / EX-GHOST-09: at the target, every Ghost leaves the house, once."""
        if self.st.exorcised or self.st.points < self.opts.exorcism_target:
            return
        self.st.exorcised = True
        for g in GHOSTS:
            self.st.ghosts[g] = None
        escape = not (self.ova and not self.opts.ova_escape_required)
        self.emit(
            f"{self.st.points} Exorcism points: the Ghosts are exorcised and leave the house."
            + (" Now escape through the Foyer!" if escape else ""),
            "exorcised",
        )
        if self.ova and not self.opts.ova_escape_required:
            self.win("the Ghosts are exorcised.")
        self.check_escape_win()

    def check_escape_win(self: Engine) -> None:
        """EX-WIN-02: exorcised and every investigator pawn out of the house."""
        if not self.st.exorcised or self.over:
            return
        if all(i.escaped for i in self.st.investigators.values()):
            self.win("the Ghosts are exorcised and everyone escaped the manor.")

    def gain_points(self: Engine, n: int, why: str) -> None:
        self.st.points += n
        self.emit(f"+{n} Exorcism {plural(n, 'point')} ({why}); total {self.st.points}.",
                  "points")
        self.check_exorcism()
