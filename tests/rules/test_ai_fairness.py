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

import dataclasses
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


# The search levels (issue #23) decide on worlds resampled from the seat's view with an RNG
# seeded from that view: a handful of decisions per game, so this stays a few seconds.
SEARCH_DECISIONS = int(os.environ.get("FAIRNESS_SEARCH_DECISIONS", "3"))


@pytest.mark.parametrize(("mode", "n"), [("core", 3), ("one_vs_all", 4)])
def test_exorcism_search_choice_is_unchanged_when_only_hidden_things_change(
        mode: str, n: int, monkeypatch: pytest.MonkeyPatch) -> None:
    game = GAMES["exorcism"]
    # Without the wall-clock cap: on a loaded machine it cuts a search short at a point that
    # depends on the load, not on the view (the budget proper is a count of simulations).
    levels = {k: dataclasses.replace(v, cap_seconds=1e9) for k, v in game.ai_levels().items()}
    monkeypatch.setattr(type(game), "ai_levels", lambda self: levels)
    st = game.setup([f"s{i}" for i in range(1, n + 1)], game.options_model(mode=mode), 5)
    compared = 0
    step = 0
    while compared < SEARCH_DECISIONS and game.result(st) is None and step < 400:
        seat = sorted(game.to_act(st))[0]
        many = len({a.key() for a in game.legal_actions(st, seat)}) > 1
        if many and st.round >= 2 and step % 7 == 0:
            picked = game.ai_action(st, seat, "normal")
            other = game.resample(st, seat, Rng.from_seed(step * 31 + 7))
            assert _js(game.view(other, seat)) == _js(game.view(st, seat))
            assert game.ai_action(other, seat, "normal") == picked, (
                f"exorcism/{mode} step {step} seat {seat}: the search chose otherwise with "
                "only hidden things changed")
            compared += 1
        st = game.apply(st, seat, game.ai_action(st, seat)).state
        step += 1
    assert compared == SEARCH_DECISIONS
