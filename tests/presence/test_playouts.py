"""Random legal playouts of the session game at every player count (P-SESSION-01): each
ends (Eternal Darkness at the latest, P-WIN-06), never raises, keeps every invariant after
every action, and has someone awaited with a legal action until it ends.

`PRESENCE_PLAYOUTS` (default 10 per player count, so 30 here, about 0.4 s of one core each;
with the contract suite and the leak tests the default run plays about 60) sets the count;
`-m soak` plays 200 more per count, and `python -m bench.soak --game presence --games 2000`
is the long run.
"""

from __future__ import annotations

import os

import pytest

from rules.core.rng import Rng
from rules.presence.game import GAME

PLAYOUTS = int(os.environ.get("PRESENCE_PLAYOUTS", "10"))
"""Seeds per table size in the default suite (tests/rules/test_contract.py plays more random
Presence games); `-m soak` plays the next `SOAK_PLAYOUTS` (the suite's CPU budget, #15)."""
SOAK_PLAYOUTS = int(os.environ.get("SOAK_PLAYOUTS", "200"))


@pytest.mark.parametrize("n", [3, 4, 5])
def test_p_session_01_p_win_06_random_playouts_end_and_keep_invariants(n: int) -> None:
    _random_playouts(n, range(1000 * n, 1000 * n + PLAYOUTS))


@pytest.mark.soak
@pytest.mark.parametrize("n", [3, 4, 5])
def test_soak_p_session_01_p_win_06_random_playouts_end_and_keep_invariants(n: int) -> None:
    _random_playouts(n, range(1000 * n + PLAYOUTS, 1000 * n + PLAYOUTS + SOAK_PLAYOUTS))


def _random_playouts(n: int, seeds: range) -> None:
    seats = [f"s{i}" for i in range(1, n + 1)]
    outcomes: dict[str, int] = {}
    for seed in seeds:
        state = GAME.setup(seats, GAME.options_model(), seed)
        rng = Rng.from_seed(seed)
        for step in range(5_000):
            if GAME.result(state) is not None:
                break
            broken = GAME.invariants(state)
            assert not broken, f"seed {seed} step {step}: {broken}"
            seat = rng.choice(sorted(GAME.to_act(state)))
            legal = GAME.legal_actions(state, seat)
            assert legal, f"seed {seed} step {step}: {seat} awaited with nothing to do"
            state = GAME.apply(state, seat, rng.choice(legal)).state
        result = GAME.result(state)
        assert result is not None, f"seed {seed}: no end in 5000 actions"
        kind = "eternal darkness" if not result.winners else "a winner"
        outcomes[kind] = outcomes.get(kind, 0) + 1
    assert sum(outcomes.values()) == len(seeds)
