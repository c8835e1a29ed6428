"""`rules.core.search.clear_edge` (issue #23): with `Level.confidence`, a candidate overrides the
heuristic's pick only when its world-by-world edge stands clear of the noise."""

from __future__ import annotations

from pydantic import BaseModel

from rules.core.rng import Rng
from rules.core.search import Level, clear_edge, search_action
from rules.core.types import Action, Event, Result, act

GATED = Level("normal", simulations=20, horizon=10, margin=0.05, confidence=2.0)


def test_a_steady_edge_on_every_world_overrides_the_pick() -> None:
    blueprint = {w: 0.4 + 0.01 * w for w in range(6)}
    challenger = {w: v + 0.1 for w, v in blueprint.items()}
    assert clear_edge(challenger, blueprint, GATED)


def test_an_edge_that_one_lucky_world_makes_does_not() -> None:
    # mean edge 0.15 > margin, but all of it from one world out of six: noise
    blueprint = {w: 0.5 for w in range(6)}
    challenger = {**blueprint, 3: 1.4}
    assert not clear_edge(challenger, blueprint, GATED)
    assert clear_edge(challenger, blueprint, Level("x", 20, 10, margin=0.05, confidence=0.5))


def test_only_the_worlds_both_were_played_on_count() -> None:
    blueprint = {0: 0.5, 1: 0.5, 2: 0.5}
    challenger = {2: 0.9, 7: 1.0, 8: 1.0}  # one shared world: too few to tell
    assert not clear_edge(challenger, blueprint, GATED)
    assert not clear_edge({0: 0.5, 1: 0.5}, {0: 0.5, 1: 0.5}, GATED)  # no edge at all


class _Pick(BaseModel):
    """A one-decision game: the seat picks a name, and the world decides how it ends."""

    world: int = 0
    choice: str | None = None


class _Lucky:
    """`search_action`'s game contract for `_Pick`. Every pick wins on the first world the
    search plays; after it the blueprint's "stand" and the rest lose, and "step" draws. The
    game's plans put "step" first and the two lucky picks last, so the first round's tie drops
    those two after one world each, at 1.0."""

    PICKS = ("stand", "step", "wait", "hope", "luck")

    def __init__(self) -> None:
        self.worlds = 0

    def legal_actions(self, state: _Pick, seat: str) -> list[Action]:
        return [act("pick", name=n) for n in self.PICKS] if state.choice is None else []

    def to_act(self, state: _Pick) -> set[str]:
        return {"s"} if state.choice is None else set()

    def result(self, state: _Pick) -> Result | None:
        if state.choice is None:
            return None
        if state.world <= 1:
            return Result(winners=["s"], losers=[], reason="lucky")
        if state.choice == "step":
            return Result(winners=[], losers=[], reason="drawn")
        return Result(winners=[], losers=["s"], reason="lost")

    def resample(self, state: _Pick, seat: str | None, rng: Rng) -> _Pick:
        seen = _Pick(world=self.worlds)
        self.worlds += 1  # 0: the blueprint's own look; 1, 2, ...: the search's worlds
        return seen

    def choose_ai_action(self, state: _Pick, seat: str) -> Action:
        return act("pick", name="stand")

    def apply_in_place(self, state: _Pick, seat: str, action: Action) -> list[Event]:
        state.choice = str(action.params["name"])
        return []

    def ai_value(self, state: _Pick, seat: str) -> float:
        return 0.5

    def ai_levels(self) -> dict[str, Level]:
        return {"normal": GATED}

    def ai_searchable(self, state: _Pick, seat: str, action: Action | None) -> bool:
        return True

    def ai_plans(self, state: _Pick, seat: str) -> list[Action]:
        return [act("pick", name=n) for n in ("step", "wait", "hope", "luck")]

    def ai_turn(self, state: _Pick) -> int | None:
        return None


def test_the_answer_is_the_best_survivor_not_a_pick_dropped_after_one_lucky_world() -> None:
    """Successive halving drops "hope" and "luck" after the first world (a tie at 1.0, the
    plans' order last). "step" then beats the blueprint on every later world (a draw against
    a loss). Before stop 44 the answer was ranked over every candidate: "hope" at 1.0 on its
    one world outranked "step", failed the edge test on a single shared world, and the
    blueprint stood (One vs All seed 8, game turn 42: the step out of the Foyer)."""
    picked = search_action(_Lucky(), _Pick(), "s", GATED, Rng.from_seed(1))
    assert picked == act("pick", name="step")
