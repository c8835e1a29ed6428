"""The engine contract (DESIGN.md), checked for every registered game and mode.

Random legal playouts must end and never raise; `apply` never mutates its input; the same seed
and actions give byte-identical states; states and actions round-trip through JSON; an
out-of-turn action is refused and changes nothing; every view is JSON-ready and the public view
holds none of the game's current secrets. PLAYOUTS (env) sets the seeds per game and mode.
"""

from __future__ import annotations

import json
import os
from typing import Any

import pytest

from rules.core import Action, IllegalAction
from rules.core.game import Game
from rules.core.players import playout
from rules.registry import GAMES
from tests.tinygame import GAME as HIGHCARD

ALL_GAMES: dict[str, Game[Any, Any]] = {**GAMES, HIGHCARD.name: HIGHCARD}
PLAYOUTS = int(os.environ.get("PLAYOUTS", "10"))
"""Seeds per case in the default suite (10 whole games per game, mode and table size: about
19 s of one core in all, half of it The Presence at 5 players); `-m soak` plays the next
`SOAK_PLAYOUTS` seeds (the suite's CPU budget, #15: `python -m bench.soak` plays thousands
more per mode)."""
SOAK_PLAYOUTS = int(os.environ.get("SOAK_PLAYOUTS", "200"))


def _cases() -> list[tuple[str, str, int]]:
    cases = []
    for name, game in sorted(ALL_GAMES.items()):
        for mode in game.modes:
            counts = sorted(game.player_counts(game.options_model(mode=mode)))
            for n in {counts[0], counts[-1]}:
                cases.append((name, mode, n))
    return cases


CASES = _cases()
IDS = [f"{g}-{m}-{n}p" for g, m, n in CASES]


def _seats(n: int) -> list[str]:
    return [f"s{i}" for i in range(1, n + 1)]


@pytest.mark.parametrize(("name", "mode", "n"), CASES, ids=IDS)
def test_random_playouts_end_never_raise_and_keep_invariants(name: str, mode: str, n: int) -> None:
    _random_playouts(name, mode, n, range(PLAYOUTS))


@pytest.mark.soak
@pytest.mark.parametrize(("name", "mode", "n"), CASES, ids=IDS)
def test_soak_random_playouts_end_never_raise_and_keep_invariants(name: str, mode: str,
                                                                 n: int) -> None:
    _random_playouts(name, mode, n, range(PLAYOUTS, PLAYOUTS + SOAK_PLAYOUTS))


def _random_playouts(name: str, mode: str, n: int, seeds: range) -> None:
    game = ALL_GAMES[name]
    options = game.options_model(mode=mode)
    for seed in seeds:
        state = game.setup(_seats(n), options, seed)
        from rules.core.rng import Rng

        rng = Rng.from_seed(seed + 1)
        for step in range(20_000):
            if game.result(state) is not None:
                break
            broken = game.invariants(state)
            assert not broken, f"seed {seed} step {step}: {broken}"
            public = json.dumps(game.view(state, None))
            for secret in game.public_secrets(state):
                assert secret not in public, f"seed {seed} step {step}: public view leaks {secret}"
            awaited = sorted(game.to_act(state))
            assert awaited, f"seed {seed} step {step}: game not over but nobody is awaited"
            seat = rng.choice(awaited)
            legal = game.legal_actions(state, seat)
            assert legal, f"seed {seed} step {step}: {seat} awaited with no legal action"
            state = game.apply(state, seat, rng.choice(legal)).state
        else:
            pytest.fail(f"seed {seed}: game did not end in 20000 steps")
        assert game.result(state) is not None


@pytest.mark.parametrize(("name", "mode", "n"), CASES, ids=IDS)
def test_a_table_that_always_takes_the_first_choice_still_reaches_the_end(
    name: str, mode: str, n: int
) -> None:
    """Liveness: no prompt may re-ask itself forever when answered the same way.

    Random playouts miss such loops (a random player eventually picks "done"); a bot seat
    or a stubborn player pressing the first button does not. Regression: a clue card
    discarded during Rest used to be re-offered before its "beneath which secret?" prompt.
    """
    game = ALL_GAMES[name]
    options = game.options_model(mode=mode)
    for seed in range(3):
        state = game.setup(_seats(n), options, seed)
        for _ in range(5_000):
            if game.result(state) is not None:
                break
            seat = sorted(game.to_act(state))[0]
            state = game.apply(state, seat, game.legal_actions(state, seat)[0]).state
        assert game.result(state) is not None, f"seed {seed}: first-choice table never ended"


@pytest.mark.parametrize(("name", "mode", "n"), CASES, ids=IDS)
def test_listing_the_legal_moves_changes_nothing(name: str, mode: str, n: int) -> None:
    """`legal_actions` only reads: an engine may work its standing rules out once per list
    (The Fourth Wall does), which is sound only while listing changes nothing."""
    game = ALL_GAMES[name]
    options = game.options_model(mode=mode)
    from rules.core.rng import Rng

    for seed in (1, 2):
        state = game.setup(_seats(n), options, seed)
        rng = Rng.from_seed(seed + 7)
        for _ in range(400):
            if game.result(state) is not None:
                break
            before = state.model_dump_json()
            for seat in sorted(state.seats):
                game.legal_actions(state, seat)
            assert state.model_dump_json() == before
            seat = rng.choice(sorted(game.to_act(state)))
            state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat))).state


@pytest.mark.parametrize(("name", "mode", "n"), CASES, ids=IDS)
def test_apply_never_mutates_and_replays_byte_identical(name: str, mode: str, n: int) -> None:
    game = ALL_GAMES[name]
    options = game.options_model(mode=mode)
    for seed in (1, 2, 3):
        first = playout(game, options, _seats(n), seed, max_steps=400)
        state = game.setup(_seats(n), options, seed)
        for seat, action in first.history:
            before = state.model_dump_json()
            out = game.apply(state, seat, action)
            assert state.model_dump_json() == before, "apply mutated its input"
            state = out.state
        assert state.model_dump_json() == first.state.model_dump_json()


@pytest.mark.parametrize(("name", "mode", "n"), CASES, ids=IDS)
def test_states_actions_and_views_round_trip_json(name: str, mode: str, n: int) -> None:
    game = ALL_GAMES[name]
    options = game.options_model(mode=mode)
    assert game.options_model.model_validate_json(options.model_dump_json()) == options
    run = playout(game, options, _seats(n), 7, max_steps=300)
    state = game.setup(_seats(n), options, 7)
    for seat, action in run.history[:300]:
        dumped = state.model_dump_json()
        assert game.load_state(dumped).model_dump_json() == dumped
        assert Action.model_validate_json(action.model_dump_json()) == action
        for who in [None, *state.seats]:
            json.dumps(game.view(state, who))
        state = game.apply(state, seat, action).state


@pytest.mark.parametrize(("name", "mode", "n"), CASES, ids=IDS)
def test_out_of_turn_action_is_refused_and_changes_nothing(name: str, mode: str, n: int) -> None:
    game = ALL_GAMES[name]
    options = game.options_model(mode=mode)
    run = playout(game, options, _seats(n), 11, max_steps=200)
    state = game.setup(_seats(n), options, 11)
    checked = 0
    for seat, action in run.history:
        idle = [s for s in state.seats if not game.may_act(state, s)]
        if idle:
            before = state.model_dump_json()
            with pytest.raises(IllegalAction) as err:
                game.apply(state, idle[0], action)
            assert str(err.value) and err.value.rule
            assert state.model_dump_json() == before
            checked += 1
        with pytest.raises(IllegalAction):
            game.apply(state, "not-a-seat", action)
        state = game.apply(state, seat, action).state
    assert checked or n == 1


def test_registry_holds_the_shipped_games() -> None:
    assert "exorcism" in GAMES
    for game in GAMES.values():
        assert game.modes and game.version and game.title
