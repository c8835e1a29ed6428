"""Undo is never an oracle (issue #21), scripted per rule: a move whose outcome shows a card its
player could not see (a Plan or Task drawn, a Haunt card revealed, a Locked Room turned face
up) is refused by the bot's undo rule (`TableService._undo_refusal`); a plain move is allowed.

The reported oracle: use the Plan Room, undo, use it again, and the same Plan came up, so a
player could read the Plan deck one card at a time.
"""

from __future__ import annotations

from typing import Any

from bot.tables import TableService
from rules.core.hidden import hidden_dependence
from rules.core.rng import Rng
from rules.core.types import act
from rules.exorcism.game import GAME
from rules.exorcism.state import ExorcismState
from tests.exorcism.helpers import clear_board, give, new_game, place_room, put, set_character

HIDDEN = "turned on something you can't see"


def quiet(seed: int = 1, n: int = 2) -> ExorcismState:
    st = new_game("core", n=n, seed=seed)
    clear_board(st)
    return st


def undo_refusal(st: ExorcismState, seat: str, kind: str, /, **params: Any) -> str | None:
    action = act(kind, **params)
    out = GAME.apply(st, seat, action)
    assert not GAME.invariants(out.state), GAME.invariants(out.state)
    return TableService._undo_refusal(GAME, st, seat, action, out.state, list(out.events))


def test_EX_ACT_04_plan_room_gains_the_top_plan_so_undo_is_refused_EX_VIS_15() -> None:
    st = quiet()
    place_room(st, "R09", "r2c2")  # the Plan Room: "Gain the top Plan card."
    put(st, "s1", "r2c2")
    assert len(set(st.plan_deck)) > 1
    top = st.plan_deck[-1]
    after = GAME.apply(st, "s1", act("room_action")).state
    assert after.players["s1"].plans == [top]
    reason = undo_refusal(st, "s1", "room_action")
    assert reason is not None and HIDDEN in reason
    # The drawn Plan is one the player could not know: resampled from their view, the draw
    # gives other Plans (the oracle is gone: undo and draw again would not be the same card).
    drawn = {GAME.apply(GAME.resample(st, "s1", Rng.from_seed(k)), "s1",
                        act("room_action")).state.players["s1"].plans[0] for k in range(12)}
    assert len(drawn) > 1


def test_EX_ACT_05_completed_task_drawing_a_plan_is_refused_EX_TASK_02() -> None:
    st = quiet()
    put(st, "s1", "r2c2")
    for pile in (st.task_deck, st.available_tasks):
        if "weapon-5" in pile:
            pile.remove("weapon-5")
            if pile is st.available_tasks:
                st.available_tasks.append(st.task_deck.pop())
    st.players["s1"].tasks.append("weapon-5")  # Reward: the top Plan card
    give(st, "s1", "weapon", 2)
    give(st, "s1", "holy_relic")
    give(st, "s1", "key")
    reason = undo_refusal(st, "s1", "task", task="weapon-5")
    assert reason is not None and HIDDEN in reason


def test_EX_HAUNT_01_EX_TURN_02_ending_the_turn_reveals_haunt_cards_so_undo_is_refused() -> None:
    st = quiet()
    st.round = 2  # the next turn draws Haunt cards (from the 2nd round on)
    put(st, "s1", "r2c2")
    out = GAME.apply(st, "s1", act("pass"))
    assert len(out.state.haunt_deck) < len(st.haunt_deck)  # Haunt cards were drawn
    reason = undo_refusal(st, "s1", "pass")
    assert reason is not None and HIDDEN in reason
    assert hidden_dependence(GAME, st, "s1", act("pass")) is not None


def test_EX_ACT_07_unlocking_turns_a_locked_room_face_up_so_undo_is_refused_EX_VIS_02() -> None:
    st = quiet()
    locked = next(c.id for c in st.cells.values() if c.face_down)
    put(st, "s1", locked)
    give(st, "s1", "key")
    reason = undo_refusal(st, "s1", "unlock")
    assert reason is not None and HIDDEN in reason


def test_EX_ACT_01_a_plain_move_draws_nothing_and_may_be_undone() -> None:
    st = quiet()
    put(st, "s1", "r2c2")
    put(st, "s2", "r4c4")
    assert st.actions_left > 1
    reason = undo_refusal(st, "s1", "move", to="r2c3")
    assert reason is None
    assert hidden_dependence(GAME, st, "s1", act("move", to="r2c3"), samples=24) is None


def _medium_peeked(mode: str = "core") -> ExorcismState:
    """The Medium looked at the top 3 Haunt cards and put them back (EX-VIS-12)."""
    st = new_game(mode, n=3 if mode == "one_vs_all" else 2)
    clear_board(st)
    seat = "s2"
    st.active = seat
    set_character(st, seat, "medium")
    st = GAME.apply(st, seat, act("ability", source="medium")).state
    while st.prompts and st.prompts[-1].kind == "peek_order":
        st = GAME.apply(st, seat, GAME.legal_actions(st, seat)[-1]).state
    assert st.haunt_seen == 3 and not st.peek
    return st


def test_EX_VIS_12_cards_a_peek_showed_stay_on_top_in_every_resample() -> None:
    st = _medium_peeked()
    top = st.haunt_deck[-3:]
    assert len(GAME.view(st, None)["haunt_seen"]) == 3  # co-op: the peek was public
    for k in range(6):
        for seat in ("s1", "s2", None):
            other = GAME.resample(st, seat, Rng.from_seed(k))
            assert other.haunt_deck[-3:] == top
    # One vs All: the investigators saw it, the Ghost player did not.
    ova = _medium_peeked("one_vs_all")
    ghost = ova.ghost_seat
    assert ghost is not None and GAME.view(ova, ghost)["haunt_seen"] == []
    assert GAME.view(ova, None)["haunt_seen"] == []
    assert all(GAME.resample(ova, "s2", Rng.from_seed(k)).haunt_deck[-3:] == ova.haunt_deck[-3:]
               for k in range(6))
    assert any(GAME.resample(ova, ghost, Rng.from_seed(k)).haunt_deck[-3:]
               != ova.haunt_deck[-3:] for k in range(6))


def test_EX_HAUNT_01_EX_VIS_12_drawing_only_cards_the_table_saw_may_be_undone() -> None:
    st = _medium_peeked()
    st.round = 2
    st.actions_left = 1
    out = GAME.apply(st, "s2", act("pass"))
    drawn = len(st.haunt_deck) - len(out.state.haunt_deck)
    assert 0 < drawn <= 3 and out.state.haunt_seen == 3 - drawn
    assert hidden_dependence(GAME, st, "s2", act("pass"), samples=24) is None
