"""`Game.resample` (issue #21): a state the seat cannot tell from the real one, with everything
hidden from it dealt anew. Undo and the AI stand on it, so its contract is checked for every
game and mode along seeded random playouts:

- the seat's view, the public view, who is awaited and the seat's legal choices are unchanged;
- the invariants hold, and play goes on from the resample without raising;
- the input is never changed;
- it depends only on what the seat may know: resampling a resample gives the very same state
  as resampling the original with the same RNG (so an AI deciding on it is fair);
- it really redraws: along a game, resamples differ from the real state.
"""

from __future__ import annotations

import json
import os
from typing import Any

import pytest

from rules.core.game import Game
from rules.core.rng import Rng
from rules.registry import GAMES
from tests.rules.cases import CASES, IDS

SEEDS = int(os.environ.get("RESAMPLE_SEEDS", "2"))
EVERY = 7
"""Check one step in EVERY along each playout (the resample is checked for several seats)."""


def _js(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, default=str)


def check_resample(game: Game[Any, Any], st: Any, seat: str | None, salt: int,
                   where: str) -> bool:
    """Assert the contract for one state and seat; whether the resample differed."""
    before = st.model_dump_json()
    one = game.resample(st, seat, Rng.from_seed(salt))
    assert st.model_dump_json() == before, f"{where}: resample changed its input"
    assert _js(game.view(one, seat)) == _js(game.view(st, seat)), f"{where}: {seat}'s view"
    assert _js(game.view(one, None)) == _js(game.view(st, None)), f"{where}: public view"
    assert game.to_act(one) == game.to_act(st), f"{where}: awaited seats"
    assert game.invariants(one) == [], f"{where}: {game.invariants(one)}"
    if seat is not None:
        assert sorted(a.key() for a in game.legal_actions(one, seat)) == sorted(
            a.key() for a in game.legal_actions(st, seat)), f"{where}: {seat}'s choices"
    # Only what the seat may know: the resample of a resample is the resample of the original.
    again = game.resample(one, seat, Rng.from_seed(salt + 1))
    direct = game.resample(st, seat, Rng.from_seed(salt + 1))
    assert again.model_dump_json() == direct.model_dump_json(), (
        f"{where}: the resample of {seat} depends on something the seat cannot see")
    # Play goes on from it.
    rng = Rng.from_seed(salt + 2)
    cur = one
    for _ in range(6):
        if game.result(cur) is not None:
            break
        who = rng.choice(sorted(game.to_act(cur)))
        cur = game.apply(cur, who, rng.choice(game.legal_actions(cur, who))).state
        assert game.invariants(cur) == [], f"{where}: after play from a resample"
    return one.model_dump_json() != before


@pytest.mark.parametrize(("name", "mode", "n"), CASES, ids=IDS)
def test_resample_keeps_the_view_and_redraws_only_the_hidden(name: str, mode: str,
                                                              n: int) -> None:
    game = GAMES[name]
    options = game.options_model(mode=mode)
    checked = differed = 0
    for seed in range(SEEDS):
        st = game.setup([f"s{i}" for i in range(1, n + 1)], options, seed)
        rng = Rng.from_seed(seed + 31)
        for step in range(3000):
            if game.result(st) is not None:
                break
            awaited = sorted(game.to_act(st))
            if step % EVERY == 0:
                others = [s for s in st.seats if s not in awaited]
                for seat in [*awaited[:1], *others[:1], None]:
                    where = f"{name}/{mode}/{n}p seed {seed} step {step} seat {seat}"
                    differed += check_resample(game, st, seat, seed * 100_000 + step, where)
                    checked += 1
            seat = rng.choice(awaited)
            st = game.apply(st, seat, rng.choice(game.legal_actions(st, seat))).state
    assert checked
    assert differed, "no resample ever differed from the real state: nothing was redrawn"
