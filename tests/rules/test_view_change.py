"""`rules.core.hidden.view_change` walks only the parts of two views that differ; it must give
exactly what comparing the two flattened views path by path gives (issue #21's undo check
compares thousands of mostly equal views, so it may not flatten them whole)."""

from __future__ import annotations

from typing import Any

import pytest

from rules.core.hidden import _MISSING, flatten, view_change
from rules.core.rng import Rng
from rules.registry import GAMES


def _reference(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    old, new = flatten(before), flatten(after)
    return {p: new.get(p, _MISSING) for p in old.keys() | new.keys()
            if old.get(p, _MISSING) != new.get(p, _MISSING)}


@pytest.mark.parametrize(("before", "after"), [
    ({}, {}), ({"a": {}}, {"a": {"b": 1}}), ({"a": [1, 2]}, {"a": [1]}), ({"a": [1]}, {"a": []}),
    ({"a": {"x": 1}}, {"a": [1]}), ({"a": 1}, {"a": True}), ({"a": None}, {}),
    ({"a": [{"b": [1, {}]}]}, {"a": [{"b": [1, {"c": 2}]}, 3]}), ({"a": "x"}, {"a": {"b": "x"}}),
])
def test_view_change_is_the_path_by_path_comparison(before: dict[str, Any],
                                                    after: dict[str, Any]) -> None:
    assert view_change(before, after) == _reference(before, after)
    assert view_change(after, before) == _reference(after, before)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_view_change_matches_along_a_playout(name: str) -> None:
    game = GAMES[name]
    mode = game.modes[0]
    n = min(game.player_counts(game.options_model(mode=mode)))
    st = game.setup([f"s{i}" for i in range(1, n + 1)], game.options_model(mode=mode), 3)
    rng = Rng.from_seed(1)
    for _ in range(40):
        if game.result(st) is not None:
            break
        seat = rng.choice(sorted(game.to_act(st)))
        nxt = game.apply(st, seat, rng.choice(game.legal_actions(st, seat))).state
        for observer in (None, seat):
            before, after = game.view(st, observer), game.view(nxt, observer)
            assert view_change(before, after) == _reference(before, after)
        st = nxt
