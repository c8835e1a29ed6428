"""The engine has no caps the rulebook does not have (issue #12).

FW-AMB-11: the free Gives and Trades after a Regroup are "free": any number of them.
FW-ACT-01 / FW-ACT-07: a player may call off a Close a Gate or a Trade (AP refunded) as often
as they like and is still offered both. FW-PROMPT-24 (and every prompt): every legal answer is
offered, however many (the Discord front end pages long lists). Loop guards for machine
players live in the AI (`AI_CANCELS_PER_TURN`, `AI_FREE_EXCHANGES`).
"""

from __future__ import annotations

from rules.core.types import act
from rules.fourth_wall import ai
from rules.fourth_wall.engine import Engine
from rules.fourth_wall.game import GAME
from rules.fourth_wall.state import FourthWallState
from tests.fourth_wall.helpers import (
    answer,
    clear_streets,
    do,
    inv,
    inv_turn,
    legal,
    new_game,
    options,
    prompt,
    put_horror,
    set_card,
    set_hand,
    take_marble,
    wall_hand,
)


def _turn(n_investigators: int | None = None) -> FourthWallState:
    extra = {"investigators": n_investigators} if n_investigators else {}
    st = inv_turn(new_game("conflict", 2, 1, **extra), "i1")
    clear_streets(st)
    return st


def test_FW_AMB_11_free_gives_and_trades_after_a_regroup_have_no_limit() -> None:
    st = _turn()
    set_hand(st, "i1", "M-C", "M-F")
    set_hand(st, "i2", "M-S", "M-C")
    inv(st, "i2").regrouped = True
    st, _ = do(st, "s2", "regroup", inv="i1")
    while prompt(st) in ("regroup_draw", "discard_excess"):
        o = options(st)[0]
        st, _ = answer(st, o.kind, **o.params)
    for exchange in range(9):
        assert prompt(st) == "free_trade", exchange
        assert act("free_trade", **{"with": "i2"}) in options(st)
        st, _ = answer(st, "free_trade", **{"with": "i2"})
        st, _ = answer(st, "choose_marble", marble=options(st)[0].p("marble"))
        st, _ = answer(st, "choose_marble", marble=options(st)[0].p("marble"))
    assert prompt(st) == "free_trade" and "freely" in st.prompts[-1].text
    # The AI, not the engine, stops a machine player looping here.
    assert ai.choose_action(st, "s2", GAME) == act("done")
    st, _ = answer(st, "done")
    assert prompt(st) is None


def test_FW_ACT_07_a_trade_called_off_again_and_again_is_still_offered() -> None:
    st = _turn()
    (c,) = set_hand(st, "i1", "M-C")
    set_hand(st, "i2", "M-F")
    trade = act("trade", inv="i1", **{"with": "i2"})
    for attempt in range(5):
        assert trade in legal(st, "s2"), attempt
        st, _ = do(st, "s2", "trade", inv="i1", **{"with": "i2"})
        assert prompt(st) == "trade_mine" and act("cancel") in options(st)
        st, _ = answer(st, "cancel")
        assert st.ap == 2 and c in inv(st, "i1").hand
    assert trade in legal(st, "s2") and st.refunds == 5


def test_FW_ACT_01_close_a_gate_called_off_again_and_again_is_still_offered() -> None:
    st = _turn()
    set_hand(st, "i1", "M-C", "M-F", "M-S")
    close = act("close_gate", inv="i1")
    for attempt in range(5):
        assert close in legal(st, "s2"), attempt
        st, _ = do(st, "s2", "close_gate", inv="i1")
        assert prompt(st) == "close_select" and act("cancel") in options(st)
        st, _ = answer(st, "cancel")
        assert st.ap == 2 and len(st.gates) == 3
    assert close in legal(st, "s2")
    # The AI, not the engine, stops starting actions it keeps calling off.
    assert ai.choose_action(st, "s2", GAME).kind not in ("close_gate", "trade")


def test_FW_PROMPT_18_every_answer_is_offered_even_beyond_25() -> None:
    """The Street Magician's Unique Action swaps with any Marble Attached to a Horror or
    Anchored to the Streets: late in a Conflict game the Streets can hold more than 25."""
    st = _turn()
    set_card(st, "i1", "INV-12")
    (mine,) = set_hand(st, "i1", "M-C", "M-F")[:1]
    set_hand(st, "i2", "M-CF")
    set_hand(st, "i3", "M-FS")
    # Twelve undefeated Horrors, two Marbles Attached to each (none completes a Defeat Cost).
    wall_hand(st)  # The Wall's Horrors back to the deck: these are On the Streets instead
    for card, attached in (("H-GHOUL", ("M-HOLY", "M-S")), ("H-BRUTE", ("M-C", "M-S")),
                           ("H-RESTLESS-SPIRIT", ("M-F", "M-ADRENALINE"))) * 4:
        put_horror(st, card, attached=attached)
    anchors = [m for m, c in st.marble_cards.items() if c == "M-ANCHOR"]
    for m in anchors:
        take_marble(st, m)
        st.anchored.append(m)
    street = Engine(st).street_marbles("any")
    assert len(street) > 25 and not GAME.invariants(st)
    st, _ = do(st, "s2", "unique", inv="i1")
    st, _ = answer(st, "choose_marble", marble=mine)
    assert prompt(st) == "choose_marble"
    offered = options(st)
    assert len(offered) == len(street) > 25
    assert offered == [act("choose_marble", marble=m) for m in street]
    assert offered == GAME.legal_actions(st, "s2")
