"""What the bot keeps per active game stays small and bounded (issue #25): the state cache
holds one state object per game, older versions as deflated JSON that loads back exactly, and
the card's previous view comes back from its pickle as it was kept."""

from __future__ import annotations

import pickle

from bot.tables import _StateCache
from cogs.utils.table.core import Pictured
from rules.core.game import GameState
from rules.registry import GAMES

EXORCISM = GAMES["exorcism"]


def _versions(n: int, seed: int) -> list[GameState]:
    """The first `n` states of an AI game of The Exorcism (core, two seats)."""
    state = EXORCISM.setup(["s1", "s2"], EXORCISM.options_model(mode="core"), seed)
    out = [state]
    while len(out) < n and EXORCISM.result(state) is None:
        seat = sorted(EXORCISM.to_act(state))[0]
        state = EXORCISM.apply(state, seat, EXORCISM.ai_action(state, seat)).state
        out.append(state)
    return out


def test_the_state_cache_holds_one_state_object_per_game_and_stays_bounded() -> None:
    cache = _StateCache(max_games=8, per_game=4)
    games = {gid: _versions(7, seed=gid) for gid in range(1, 13)}
    for gid, states in games.items():
        for version, state in enumerate(states):
            cache.put(gid, version, state.model_dump_json(), state)
    assert len(cache._data) == 8  # the least recently used games went first
    assert sorted(cache._data) == list(range(5, 13))
    plain = sum(len(s.model_dump_json()) for gid in range(5, 13) for s in games[gid][-4:])
    assert cache.bytes_held() < plain / 2  # the older versions' JSON is kept deflated
    for gid in range(5, 13):
        kept = cache._data[gid]
        assert len(kept) == 4
        held = [v for v, entry in kept.items() if entry.state is not None]
        assert held == [max(kept)]  # only the newest version is an object
        assert all(isinstance(e.json, bytes) for v, e in kept.items() if v != max(kept))


def test_an_older_version_loads_back_exactly_and_only_with_a_loader() -> None:
    cache = _StateCache(per_game=6)
    states = _versions(6, seed=3)
    for version, state in enumerate(states):
        cache.put(7, version, state.model_dump_json(), state)
    newest = len(states) - 1
    assert cache.get(7, newest, states[newest].model_dump_json()) is states[newest]
    assert cache.get(7, newest, "something else") is None  # storage holds another state
    for version in range(newest):
        assert cache.get(7, version) is None  # no loader: a miss, as before
        loaded = cache.get(7, version, load=EXORCISM.load_state)
        assert loaded is not None
        assert loaded.model_dump_json() == states[version].model_dump_json()
        assert cache.get(7, version, "not it", load=EXORCISM.load_state) is None


def test_a_slow_reader_putting_an_older_version_keeps_the_newest_as_an_object() -> None:
    cache = _StateCache()
    states = _versions(3, seed=5)
    cache.put(1, 2, states[2].model_dump_json(), states[2])
    cache.put(1, 1, states[1].model_dump_json(), states[1])  # read before the last move
    assert cache.get(1, 2, states[2].model_dump_json()) is states[2]
    assert cache._data[1][1].state is None


def test_the_previous_view_comes_back_exactly_and_smaller() -> None:
    state = _versions(9, seed=2)[-1]
    view = EXORCISM.view(state, None)
    view["odd"] = {"tuple": (1, 2), 3: "an int key"}  # what JSON would not keep
    kept = Pictured(view)
    assert kept.view() == view
    assert kept.view() is not kept.view()  # each a fresh copy: the card may change it
    assert len(kept) < len(pickle.dumps(view, protocol=pickle.HIGHEST_PROTOCOL)) / 2
