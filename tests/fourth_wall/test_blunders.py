"""`python -m bench ai`'s blunder census for Fourth Wall (`bench.blunders`): a Give into a full
hand counts — whichever way the Marble is handed over — and a Give into room does not."""

from __future__ import annotations

import pytest

from bench.blunders import census
from rules.core.types import Action, act
from rules.fourth_wall.engine import Engine
from rules.fourth_wall.state import FourthWallState
from tests.fourth_wall.helpers import inv, inv_turn, new_game, seat_of, set_hand


def _table(full: bool) -> FourthWallState:
    st = inv_turn(new_game("conflict", 3, 1), "i1")
    set_hand(st, "i1", "M-C", "M-F")
    limit = Engine(st).hand_limit(inv(st, "i2"))
    set_hand(st, "i2", *["M-S"] * (limit if full else limit - 1))
    return st


@pytest.mark.parametrize("kind", ["give", "free_give", "give_to"])
def test_a_give_into_a_full_hand_is_counted(kind: str) -> None:
    st = _table(full=True)
    history = [(st, seat_of(st, "i1"), act(kind, inv="i1", to="i2"), st)]
    assert census("fourth_wall", history, None)["give_into_full_hand"] == 1


@pytest.mark.parametrize("kind", ["give", "free_give", "give_to"])
def test_a_give_into_room_is_not_counted(kind: str) -> None:
    st = _table(full=False)
    history = [(st, seat_of(st, "i1"), act(kind, inv="i1", to="i2"), st),
               (st, seat_of(st, "i1"), act("trade", inv="i1", **{"with": "i2"}), st)]
    assert census("fourth_wall", history, None)["give_into_full_hand"] == 0


def test_seed_14_alliance_no_longer_gives_into_a_full_hand() -> None:
    """Alliance, 3 players, seed 14: the heuristic before issue #23 Gave a Marble into a full
    hand once in this game (the census above, run on the old heuristic); now it never does."""
    from rules.fourth_wall.game import GAME

    st = GAME.setup(["p1", "p2", "p3"], GAME.options_model(mode="alliance"), 14)
    history: list[tuple[FourthWallState, str, Action, FourthWallState]] = []
    for _ in range(6000):
        if GAME.result(st) is not None:
            break
        seat = sorted(GAME.to_act(st))[0]
        action = GAME.ai_action(st, seat)
        after = GAME.apply(st, seat, action).state
        history.append((st, seat, action, after))
        st = after
    assert GAME.result(st) is not None
    assert census("fourth_wall", history, GAME.result(st))["give_into_full_hand"] == 0
