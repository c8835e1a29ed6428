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

SEEDS = int(os.environ.get("FAIRNESS_SEEDS", "1"))
STEPS = int(os.environ.get("FAIRNESS_STEPS", "240"))
"""AI playouts per game, mode and table size in the default suite (its CPU budget, #15); `-m
soak` plays the next `FAIRNESS_SOAK_SEEDS`."""
SOAK_SEEDS = int(os.environ.get("FAIRNESS_SOAK_SEEDS", "8"))


def _js(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, default=str)


@pytest.mark.parametrize(("name", "mode", "n"), CASES, ids=IDS)
def test_ai_choice_is_unchanged_when_only_hidden_things_change(name: str, mode: str,
                                                                n: int) -> None:
    _ai_choice_is_unchanged(name, mode, n, range(SEEDS))


@pytest.mark.soak
@pytest.mark.parametrize(("name", "mode", "n"), CASES, ids=IDS)
def test_soak_ai_choice_is_unchanged_when_only_hidden_things_change(name: str, mode: str,
                                                                     n: int) -> None:
    _ai_choice_is_unchanged(name, mode, n, range(SEEDS, SEEDS + SOAK_SEEDS))


def _ai_choice_is_unchanged(name: str, mode: str, n: int, seeds: range) -> None:
    game = GAMES[name]
    options = game.options_model(mode=mode)
    _, redeal = HIDDEN[name]
    compared = 0
    for seed in seeds:
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


# ---------------------------------------------------------------- The Presence, searching

PRESENCE_DECISIONS = 4
"""Search decisions held up against hidden changes: a few, so the test stays seconds long."""


@pytest.fixture
def uncapped_presence(monkeypatch: pytest.MonkeyPatch) -> None:
    """The shipped Presence levels without their wall-clock cap: on a loaded machine a cap
    that cuts one search shorter than the other would differ for a reason that is not
    hidden information (the counted budget is what makes a search a function of its view)."""
    from dataclasses import replace

    from rules.presence import game as presence

    for name, level in list(presence.PRESENCE_LEVELS.items()):
        monkeypatch.setitem(presence.PRESENCE_LEVELS, name, replace(level, cap_seconds=1e9))


@pytest.mark.usefixtures("uncapped_presence")
def test_presence_search_choice_is_unchanged_when_only_hidden_things_change() -> None:
    """The search at "normal" for a visitor and for the spirit: the same choice on the real
    state, a resample from the seat's view and the leak tests' own re-deal."""
    game = GAMES["presence"]
    _, redeal = HIDDEN["presence"]
    st = game.setup([f"s{i}" for i in range(1, 5)], game.options_model(), 3)
    compared = {"spirit": 0, "visitor": 0}
    for step in range(600):
        if game.result(st) is not None or min(compared.values()) >= PRESENCE_DECISIONS // 2:
            break
        seat = sorted(game.to_act(st))[0]
        side = "spirit" if seat == st.spirit_seat else "visitor"
        if (step % 9 == 0 and compared[side] < PRESENCE_DECISIONS // 2
                and len(game.legal_actions(st, seat)) > 1 and st.phase != "setup"):
            picked = game.ai_action(st, seat, "normal")
            others = [game.resample(st, seat, Rng.from_seed(step))]
            dealt = st.model_copy(deep=True)
            redeal(dealt, Rng.from_seed(step + 1))
            if _js(game.view(dealt, seat)) == _js(game.view(st, seat)):
                others.append(dealt)
            for other in others:
                assert game.ai_action(other, seat, "normal") == picked, (
                    f"presence step {step} seat {seat}: the search chose otherwise with only "
                    "hidden things changed")
            compared[side] += 1
        st = game.apply(st, seat, game.ai_action(st, seat)).state
    assert min(compared.values()) >= PRESENCE_DECISIONS // 2, compared


def _presence_guess(seed: int) -> tuple[Any, Any]:
    """Two worlds a visitor cannot tell apart, at the prompt that aims its Invoke: a clue
    card of one trauma lies beneath position 1 and another beneath position 2, and that
    trauma is the secret at 1 in one world and at 2 in the other (the secret cards swapped,
    face down). Which position reveals is decided by a hidden card alone."""
    from rules.core.types import act
    from tests.presence.helpers import VISITOR, invoke_card, invoke_scene, take_clue, trauma_at

    st = invoke_scene(6, seed=seed)
    trauma = trauma_at(st, 1)
    st.secrets[0].discards = [take_clue(st, trauma)]
    st.secrets[1].discards = [take_clue(st, trauma)]
    card, side = invoke_card(st, VISITOR)
    st = GAMES["presence"].apply(st, VISITOR,
                                 act("play", card=card, side=side, speed="main")).state
    swapped = st.model_copy(deep=True)
    swapped.secrets[0].card, swapped.secrets[1].card = st.secrets[1].card, st.secrets[0].card
    return st, swapped


@pytest.mark.usefixtures("uncapped_presence")
@pytest.mark.parametrize(("level", "deals"), [("easy", 12), ("normal", 3)])
def test_presence_ai_must_guess_which_secret_a_clue_card_matches(level: str,
                                                                  deals: int) -> None:
    """As BoardSmith's redaction tests: over deals where only a hidden secret card decides
    which position an Invoke reveals, the AI must not always find it. In each pair of
    worlds it is right in one: a peeking AI would be right in both."""
    game = GAMES["presence"]
    right = tried = 0
    for seed in range(1, deals + 1):
        for world, reveals in zip(_presence_guess(seed), ("1", "2"), strict=True):
            assert _js(game.view(world, "s2")) == _js(game.view(_presence_guess(seed)[0],
                                                                "s2"))
            tried += 1
            right += game.ai_action(world, "s2", level).p("option") == reveals
    assert 0 < right < tried
    assert right <= tried // 2, f"{level}: found the hidden secret {right} times in {tried}"


# The search levels (issue #23) decide on worlds resampled from the seat's view with an RNG
# seeded from that view: a handful of decisions per game, so this stays a few seconds.
EXORCISM_SEARCH_DECISIONS = int(os.environ.get("FAIRNESS_EXORCISM_DECISIONS", "3"))


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
    while compared < EXORCISM_SEARCH_DECISIONS and game.result(st) is None and step < 400:
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
    assert compared == EXORCISM_SEARCH_DECISIONS
