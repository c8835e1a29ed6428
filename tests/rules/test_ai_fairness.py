"""The AI never peeks (issue #21): its choice for a seat is unchanged when only what that seat
cannot see changes.

Two independent ways to change only hidden things, for every game and mode along AI playouts:
- `Game.resample` from the deciding seat's view (deck orders, other hands, the dice to come);
- the leak tests' own re-deal (`tests/rules/test_public_actions.HIDDEN`): the hidden hands
  swapped with unseen cards, written without the resampler, so a resampler that forgot a
  hidden zone cannot hide a peek from this test. A re-deal that changes the deciding seat's
  own view (its own hand) is skipped.
"""

from __future__ import annotations

import json
import os
from typing import Any

import pytest

from rules.core.rng import Rng
from rules.registry import GAMES
from tests.rules.cases import CASES, IDS
from tests.rules.test_public_actions import HIDDEN

SEEDS = int(os.environ.get("FAIRNESS_SEEDS", "2"))
STEPS = int(os.environ.get("FAIRNESS_STEPS", "240"))


def _js(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, default=str)


@pytest.mark.parametrize(("name", "mode", "n"), CASES, ids=IDS)
def test_ai_choice_is_unchanged_when_only_hidden_things_change(name: str, mode: str,
                                                                n: int) -> None:
    game = GAMES[name]
    options = game.options_model(mode=mode)
    _, redeal = HIDDEN[name]
    compared = 0
    for seed in range(SEEDS):
        st = game.setup([f"s{i}" for i in range(1, n + 1)], options, seed)
        rng = Rng.from_seed(seed + 91)
        for step in range(STEPS):
            if game.result(st) is not None:
                break
            seat = rng.choice(sorted(game.to_act(st)))
            picked = game.ai_action(st, seat)
            where = f"{name}/{mode}/{n}p seed {seed} step {step} seat {seat}"
            if step % 2 == 0:
                seen = _js(game.view(st, seat))
                others = [game.resample(st, seat, Rng.from_seed(seed * 7919 + step))]
                dealt = st.model_copy(deep=True)
                redeal(dealt, Rng.from_seed(seed * 104_729 + step))
                if _js(game.view(dealt, seat)) == seen and not game.invariants(dealt):
                    others.append(dealt)
                for other in others:
                    assert game.ai_action(other, seat) == picked, (
                        f"{where}: the AI chose otherwise with only hidden things changed")
                    compared += 1
            st = game.apply(st, seat, picked).state
    assert compared


SEARCH_DECISIONS = int(os.environ.get("FAIRNESS_SEARCH_DECISIONS", "4"))


@pytest.mark.parametrize(("mode", "n", "seed"), [("conflict", 4, 3), ("alliance", 3, 2)])
def test_fourth_wall_search_choice_is_unchanged_when_only_hidden_things_change(
        mode: str, n: int, seed: int) -> None:
    """The search AI at "normal" (`rules.core.search` with Fourth Wall's play-out policy) on a
    handful of real decisions — The Wall's and the Investigators' alike — chooses the same on a
    resample of the seat's view and on the leak tests' own re-deal."""
    game = GAMES["fourth_wall"]
    _, redeal = HIDDEN["fourth_wall"]
    st = game.setup([f"s{i}" for i in range(1, n + 1)], game.options_model(mode=mode), seed)
    compared = 0
    seats_checked: set[str] = set()
    for step in range(400):
        if game.result(st) is not None or compared >= SEARCH_DECISIONS * 2:
            break
        seat = sorted(game.to_act(st))[0]
        legal = game.legal_actions(st, seat)
        fresh = seat not in seats_checked or step % 23 == 0
        if len({a.key() for a in legal}) > 2 and fresh:
            seats_checked.add(seat)
            picked = game.ai_action(st, seat, "normal")
            seen = _js(game.view(st, seat))
            others = [game.resample(st, seat, Rng.from_seed(seed * 31 + step))]
            dealt = st.model_copy(deep=True)
            redeal(dealt, Rng.from_seed(seed * 17 + step))
            if _js(game.view(dealt, seat)) == seen and not game.invariants(dealt):
                others.append(dealt)
            for other in others:
                assert game.ai_action(other, seat, "normal") == picked, (
                    f"fourth_wall/{mode}/{n}p seed {seed} step {step} seat {seat}: the search "
                    "chose otherwise with only hidden things changed")
                compared += 1
        st = game.apply(st, seat, game.ai_action(st, seat)).state
    assert compared >= 2
