"""Views built once per state (`rules.core.memo`, issue #15) say exactly what fresh ones say.

With the memo on, as in the bot's process, whole games of every game and mode are played and
every state is asked what the bot asks of it on a move — several times over, as a board post
does — and the answers are compared with the same questions asked with the memo off. The
remembered views must also stay as built: the words only read them.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from rules.core import memo
from rules.core.players import random_move
from rules.core.rng import Rng
from rules.registry import GAMES

CASES = [(name, mode) for name, game in sorted(GAMES.items()) for mode in game.modes]


@pytest.fixture
def memo_on() -> Iterator[None]:
    memo.enable()
    try:
        yield
    finally:
        memo.enable(False)


def _states(name: str, mode: str, seed: int = 5) -> list[Any]:
    game = GAMES[name]
    options = game.options_model(mode=mode)
    n = max(game.player_counts(options))
    state = game.setup([f"s{i}" for i in range(1, n + 1)], options, seed)
    rng = Rng.from_seed(seed)
    states = [state]
    while game.result(state) is None and len(states) < 300:
        seat, action = random_move(game, state, rng)
        state = game.apply(state, seat, action).state
        states.append(state)
    return states


def _asked(game: Any, state: Any, names: dict[str, str]) -> str:
    """What a move's board post, turn card and summaries ask of a state, as one JSON text."""
    awaited = sorted(game.to_act(state))
    out: dict[str, Any] = {
        "doing": [game.doing_text(state, s, names) for s in awaited],
        "alt": game.alt_text(state, names),
        "status": game.status_lines(state, None, names),
        "seats": {s: [game.status_lines(state, s, names), game.private_summary(state, s)]
                  for s in state.seats},
    }
    return json.dumps(out, sort_keys=True, default=str)


@pytest.mark.parametrize(("name", "mode"), CASES, ids=[f"{g}-{m}" for g, m in CASES])
def test_remembered_views_answer_as_fresh_ones_over_whole_games(name: str, mode: str,
                                                                memo_on: None) -> None:
    game = GAMES[name]
    states = _states(name, mode)[::3]
    names = {s: f"Player {s}" for s in states[0].seats}
    memo.enable(False)
    fresh = [_asked(game, state, names) for state in states]
    views = [{seat: game.view(state, seat) for seat in (None, *state.seats)} for state in states]
    memo.enable()
    for i, state in enumerate(states):
        assert _asked(game, state, names) == fresh[i]
        assert _asked(game, state, names) == fresh[i]  # the second ask comes from memory
        if i:  # and the state before, as a post still being delivered asks it
            assert _asked(game, states[i - 1], names) == fresh[i - 1]
        for seat, view in views[i].items():
            # Whatever the words read from a remembered view, they left it as built.
            kept = memo.remembered(state, ("view", seat), lambda: None)
            if kept is not None:
                assert kept == view


def test_a_state_read_while_its_action_applies_is_not_answered_from_memory(
        memo_on: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """Words asked of `Game.apply`'s working copy half-way through an action (as an engine
    step may) are not what the finished state answers: its step changed since."""
    game = GAMES["exorcism"]
    state = _states("exorcism", "core")[0]
    seat = sorted(game.to_act(state))[0]
    action = game.legal_actions(state, seat)[0]
    memo.enable(False)
    expected = game.alt_text(game.apply(state, seat, action).state, {})  # deterministic
    memo.enable()
    real = type(game)._apply

    def reading_first(self: Any, work: Any, who: str, what: Any) -> Any:
        game.alt_text(work, {})  # remembers the view of the state before the action
        return real(self, work, who, what)

    monkeypatch.setattr(type(game), "_apply", reading_first)
    after = game.apply(state, seat, action).state
    assert game.alt_text(after, {}) == expected


def test_memo_is_off_unless_enabled() -> None:
    assert not memo.enabled()
    calls: list[int] = []
    state = _states("presence", "session")[0]
    for _ in range(2):
        memo.remembered(state, "x", lambda: calls.append(1))
    assert len(calls) == 2
