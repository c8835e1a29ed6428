"""`rules.core.search.clear_edge` (issue #23): with `Level.confidence`, a candidate overrides the
heuristic's pick only when its world-by-world edge stands clear of the noise."""

from __future__ import annotations

from rules.core.search import Level, clear_edge

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
