"""Wide Pick: a test game whose one prompt offers many answers (the `answers` option, up to
300), for the bot's paging of choices (issue #12, item 8). Never shipped.

Two seats take turns picking one of the numbered lanterns still lit; each pick is public.
After `picks` picks the higher total wins.
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from pydantic import Field

from rules.core import Action, Event, IllegalAction, Result
from rules.core.game import Game, GameOptions, GameState
from rules.core.types import act


class WideOptions(GameOptions):
    mode: Literal["standard"] = "standard"
    answers: int = Field(default=60, ge=1, le=300, description="Lanterns to pick from")
    picks: int = Field(default=2, ge=1, le=6, description="Picks in all")


class WideState(GameState):
    lit: list[int]
    picks_left: int
    active: int = 0
    totals: dict[str, int]


class WidePick(Game[WideOptions, WideState]):
    name: ClassVar[str] = "widepick"
    title: ClassVar[str] = "Wide Pick (test game)"
    version: ClassVar[str] = "widepick-1"
    modes: ClassVar[tuple[str, ...]] = ("standard",)
    rule_prefix: ClassVar[str] = "WP"
    options_model = WideOptions
    state_model = WideState

    def player_counts(self, options: WideOptions) -> set[int]:
        return {2}

    def setup(self, seats: list[str], options: WideOptions, seed: int) -> WideState:
        if len(seats) != 2:
            raise IllegalAction("Wide Pick takes 2 players.", rule="WP-SETUP-01")
        return WideState(seats=list(seats), lit=list(range(1, options.answers + 1)),
                         picks_left=options.picks, totals={s: 0 for s in seats})

    def to_act(self, state: WideState) -> set[str]:
        return {state.seats[state.active]} if state.picks_left and state.lit else set()

    def legal_actions(self, state: WideState, seat: str) -> list[Action]:
        if seat not in self.to_act(state):
            return []
        return [act("pick", lantern=n) for n in state.lit]

    def _apply(self, state: WideState, seat: str, action: Action) -> list[Event]:
        lantern = action.p("lantern")
        if action.kind != "pick" or lantern not in state.lit:
            raise IllegalAction("Pick a lantern that is still lit.", rule="WP-PICK-01")
        state.lit.remove(lantern)
        state.totals[seat] += lantern
        state.picks_left -= 1
        state.active = 1 - state.active
        return [Event(kind="pick", text=f"{seat} picks lantern {lantern}.")]

    def view(self, state: WideState, seat: str | None) -> dict[str, Any]:
        return {"game": self.name, "lit": len(state.lit), "totals": dict(state.totals)}

    def result(self, state: WideState) -> Result | None:
        if self.to_act(state):
            return None
        best = max(state.totals.values())
        winners = [s for s in state.seats if state.totals[s] == best]
        return Result(winners=winners, losers=[s for s in state.seats if s not in winners],
                      reason=f"Highest total: {best}.")

    def describe(self, state: WideState, seat: str, action: Action) -> str:
        # Long on purpose: labels must be clipped to Discord's limits wherever they go.
        return (f"Lantern {action.p('lantern')} — " + "a flickering light in the long hall " * 4)

    def prompt_text(self, state: WideState, seat: str) -> str | None:
        return f"Pick one of the {len(state.lit)} lanterns still lit."


GAME = WidePick()
