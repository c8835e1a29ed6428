"""Random playouts with Presence variants on (P-MYST, P-UNK, P-DARK, P-CHAMBER).

The contract suite (`tests/rules/test_contract.py`) plays the default options only; each
variant test file runs these playouts with its option on. Every step checks the game's
invariants, that the public view holds none of `public_secrets` and that no visitor's view
shows a Mystery Mode discard; a game must end within the step budget. A second playout
always answers with the first choice (liveness), and a third lets the built-in AI play every
seat (its answers must be legal).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from rules.core.rng import Rng
from rules.presence.game import GAME
from rules.presence.state import PresenceState
from tests.presence.helpers import seats

STEP_BUDGET = 20_000


def _check(st: PresenceState, step: int) -> None:
    broken = GAME.invariants(st)
    assert not broken, f"step {step}: {broken}"
    public = json.dumps(GAME.view(st, None))
    for secret in GAME.public_secrets(st):
        assert secret not in public, f"step {step}: public view leaks {secret}"
    if st.mystery:  # P-MYST-02: no visitor sees a face-down discard
        for seat in st.visitor_seats:
            for slot in GAME.view(st, seat)["secrets"]:
                assert slot["discards"] == [] and slot["matching"] is None


def random_playout(n: int, seed: int, check: Callable[[PresenceState], None] | None = None,
                   **options: Any) -> PresenceState:
    """Random legal moves from setup to the end, checking every step (and `check`)."""
    st = GAME.setup(seats(n), GAME.options_model(**options), seed)
    rng = Rng.from_seed(seed + 7)
    for step in range(STEP_BUDGET):
        if GAME.result(st) is not None:
            return st
        _check(st, step)
        if check is not None:
            check(st)
        awaited = sorted(GAME.to_act(st))
        assert awaited, f"step {step}: nobody is awaited"
        seat = rng.choice(awaited)
        legal = GAME.legal_actions(st, seat)
        assert legal, f"step {step}: {seat} awaited with no legal action"
        st = GAME.apply(st, seat, rng.choice(legal)).state
    raise AssertionError(f"seed {seed}: no end in {STEP_BUDGET} steps")


def first_choice_playout(n: int, seed: int, **options: Any) -> PresenceState:
    """A table that always presses the first button still reaches the end."""
    st = GAME.setup(seats(n), GAME.options_model(**options), seed)
    for _ in range(5_000):
        if GAME.result(st) is not None:
            return st
        seat = sorted(GAME.to_act(st))[0]
        st = GAME.apply(st, seat, GAME.legal_actions(st, seat)[0]).state
    raise AssertionError(f"seed {seed}: first-choice table never ended")


def ai_playout(n: int, seed: int, **options: Any) -> PresenceState:
    """The built-in AI plays every seat; each of its actions must be legal."""
    st = GAME.setup(seats(n), GAME.options_model(**options), seed)
    for step in range(STEP_BUDGET):
        if GAME.result(st) is not None:
            return st
        seat = sorted(GAME.to_act(st))[0]
        action = GAME.ai_action(st, seat)
        assert action in GAME.legal_actions(st, seat), f"step {step}: AI chose {action}"
        st = GAME.apply(st, seat, action).state
    raise AssertionError(f"seed {seed}: AI game did not end")
