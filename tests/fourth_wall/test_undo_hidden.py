"""Undo is never an oracle in I Am the Fourth Wall (issue #21): the bot's undo rule
(`TableService._undo_refusal`) refuses a move whose outcome turned on a hidden card — a Marble
drawn or revealed from the deck (FW-VIS-04/09/24), the Wall card revealed when An Eye Opens
(FW-VIS-12) — or that handed another seat a choice over a hand the mover cannot see
(FW-VIS-06/32), and lets a move that reveals nothing be taken back."""

from __future__ import annotations

from bot.tables import TableService
from rules.core.hidden import hidden_dependence
from rules.core.types import act
from rules.fourth_wall.game import GAME
from rules.fourth_wall.state import FourthWallState
from tests.fourth_wall.helpers import (
    clear_streets,
    give,
    inv_turn,
    new_game,
    prompt,
    put_horror,
    set_card,
    set_hand,
    set_stage,
    stack_marbles,
    wall_turn,
)


def _refusal(st: FourthWallState, seat: str, kind: str, **params: object) -> str | None:
    action = act(kind, **params)
    out = GAME.apply(st, seat, action)
    return TableService._undo_refusal(GAME, st, seat, action, out.state, list(out.events))


def test_FW_VIS_09_a_search_that_draws_a_marble_is_refused() -> None:
    st = inv_turn(new_game("conflict", 2, 1), "i1")
    clear_streets(st)
    set_hand(st, "i1", "M-C")
    seat = st.investigators[0].seat
    assert hidden_dependence(GAME, st, seat, act("search", inv="i1")) is not None
    assert _refusal(st, seat, "search", inv="i1") is not None


def test_FW_VIS_09_utilising_a_marble_that_draws_marbles_is_refused() -> None:
    """Double Draw's Utilise draws two Marbles from the deck."""
    st = inv_turn(new_game("conflict", 2, 1), "i1")
    clear_streets(st)
    (draw2,) = set_hand(st, "i1", "M-DRAW2")
    give(st, "i1", "M-C")
    stack_marbles(st, "M-F", "M-S")
    seat = st.investigators[0].seat
    assert hidden_dependence(GAME, st, seat, act("utilise", inv="i1", marble=draw2))
    assert _refusal(st, seat, "utilise", inv="i1", marble=draw2) is not None


def test_FW_VIS_06_FW_VIS_32_a_quick_use_discarded_from_a_hidden_hand_is_refused() -> None:
    """Adrenaline, discarded in the Blitz window (to reveal one more card from the deck),
    shows The Wall a card of a hand it may not see."""
    st = inv_turn(new_game("conflict", 3, 1), "i1")
    clear_streets(st)
    set_card(st, "i1", "INV-02")  # Exploit the Rift: Blitz (3) [Force]
    put_horror(st, "H-GHOUL")
    set_hand(st, "i1", "M-C")
    (adrenaline,) = set_hand(st, "i2", "M-ADRENALINE", "M-C")[:1]
    set_hand(st, "i3", "M-C")
    set_hand(st, "i4", "M-C")
    stack_marbles(st, "M-F", "M-C", "M-S", "M-F")
    st = GAME.apply(st, st.investigators[0].seat, act("exploit", inv="i1")).state
    while prompt(st) == "blitz_window" and st.prompts[-1].seats[0] != "s3":
        st = GAME.apply(st, st.prompts[-1].seats[0], act("decline")).state
    assert prompt(st) == "blitz_window" and st.prompts[-1].seats == ["s3"]
    assert _refusal(st, "s3", "react", inv="i2", marble=adrenaline) is not None
    assert _refusal(st, "s3", "decline") is not None  # the last window: the Blitz reveals


def test_FW_VIS_24_an_exploit_that_blitzes_is_refused() -> None:
    st = inv_turn(new_game("alliance", 1, 1), "i1")
    clear_streets(st)
    set_card(st, "i1", "INV-02")
    put_horror(st, "H-GHOUL")
    for i in ("i1", "i2", "i3"):
        set_hand(st, i, "M-C")
    assert _refusal(st, "s1", "exploit", inv="i1") is not None


def test_FW_VIS_12_FW_TRACK_03_the_last_action_point_before_an_eye_opens_is_refused() -> None:
    """The last Investigator's last Action Point ends the round; the Turn Tracker reaches An
    Eye Opens and the Wall card, hidden from the Investigators until now, is revealed."""
    st = new_game("conflict", 2, 1)
    set_stage(st, "slumber")
    st.rank_index = 3  # the last rank of Slumber
    last = st.investigators[-1]
    st = inv_turn(st, last.id, ap=1)
    assert not st.revealed
    assert hidden_dependence(GAME, st, last.seat, act("pass", inv=last.id)) is not None
    assert _refusal(st, last.seat, "pass", inv=last.id) is not None


def test_FW_VIS_22_a_wall_choice_that_reveals_nothing_may_be_undone() -> None:
    """Choosing Wrath at the start of The Wall's turn is public and draws nothing."""
    st = wall_turn(new_game("conflict", 2, 1), doom=3, mode=None)
    assert st.wall_seat is not None
    assert _refusal(st, st.wall_seat, "wrath") is None


def test_FW_VIS_06_an_investigator_move_that_reveals_nothing_may_be_undone() -> None:
    """Ending a turn mid-round in Conflict hands the turn to The Wall player: nothing is
    drawn or revealed."""
    st = inv_turn(new_game("conflict", 2, 1), "i1", ap=2)
    clear_streets(st)
    seat = st.investigators[0].seat
    assert hidden_dependence(GAME, st, seat, act("pass", inv="i1"), samples=32) is None
    assert _refusal(st, seat, "pass", inv="i1") is None


def test_FW_VIS_32_a_wall_move_that_asks_a_hidden_hand_to_choose_is_refused() -> None:
    """The Wall Triggers a Horror whose Target Loses a Marble of their own choice: the
    Investigator's prompt reads their hidden hand (a Holy Symbol offered or not), so the Wall
    may not take the choice of Target back."""
    st = wall_turn(new_game("conflict", 2, 1), doom=6)
    clear_streets(st)
    h = put_horror(st, "H-GHOUL")
    set_hand(st, "i1", "M-C", "M-HOLY")
    st = GAME.apply(st, "s1", act("trigger", horror=h)).state
    assert prompt(st) == "choose_target"
    assert _refusal(st, "s1", "choose_investigator", inv="i1") is not None
    # Refused by the rule itself, not only when the resamples happen to differ.
    target = act("choose_investigator", inv="i1")
    after = GAME.apply(st, "s1", target)
    assert prompt(after.state) in ("holy_window", "lose_choice")
    assert GAME.undo_refusal(st, "s1", target, after.state, list(after.events)) is not None
