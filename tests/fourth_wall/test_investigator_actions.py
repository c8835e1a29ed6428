"""Scenario tests: the Investigator actions, the Hand Limit, Insanity and Gates.

Named by the spec rule ids they check (../shared/spec/fourth-wall.md §1.6-§1.8).
"""

from __future__ import annotations

import pytest

from rules.core.errors import IllegalAction
from rules.core.types import act
from rules.fourth_wall.engine import Engine
from rules.fourth_wall.game import GAME
from tests.fourth_wall.helpers import (
    answer,
    clear_streets,
    do,
    give,
    hand_cards,
    inv,
    inv_turn,
    kinds,
    legal,
    new_game,
    options,
    prompt,
    put_horror,
    set_card,
    set_gates,
    set_hand,
    set_stage,
    set_wall,
    stack_marbles,
    texts,
    wall_turn,
)


def conflict_turn(iid: str = "i1", seed: int = 1, ap: int | None = None):  # type: ignore[no-untyped-def]
    st = inv_turn(new_game("conflict", 2, seed), iid, ap)
    clear_streets(st)
    return st


# ---------------------------------------------------------------- Close a Gate
def test_FW_ACT_01_close_a_gate_step_by_step() -> None:
    st = conflict_turn()
    c, f, s, _extra = set_hand(st, "i1", "M-C", "M-F", "M-S", "M-C")
    st, _ = do(st, "s2", "close_gate", inv="i1")
    assert prompt(st) == "close_select" and st.ap == 0
    assert "confirm" not in {a.kind for a in options(st)}
    for m in (c, f, s):
        st, _ = answer(st, "select", marble=m)
    assert "confirm" in {a.kind for a in options(st)}
    st, ev = answer(st, "confirm")
    assert len(st.gates) == 2 and hand_cards(st, "i1") == ["M-C"]
    assert all(m in st.marble_discard for m in (c, f, s))
    assert "to Close a Gate" in texts(ev)
    # Listed with "and" (stop 60's demo: "discards Clue Marble, Molotov Cocktail, Regroup
    # Anchor to Close a Gate").
    [line] = [e.text for e in ev if e.kind == "close"]
    assert ", " in line and " and " in line and ", Science Marble to" not in line, line


def test_FW_ACT_01_a_dual_marble_stays_one_item_in_a_list() -> None:
    """A Marble whose name holds an "and" ("Clue and Force Marble") reads as one: each Marble
    of a list has its article or its count (a demo read "discards Force and Science
    Marble, and Clue Marble"); other names keep a serial comma before the last item."""
    from rules.fourth_wall.engine.core import listed, marbles_listed

    assert marbles_listed(["Clue Marble", "Force Marble", "Science Marble"]) == \
        "a Clue Marble, a Force Marble and a Science Marble"
    assert marbles_listed(["Force and Science Marble", "Clue Marble"]) == \
        "a Force and Science Marble and a Clue Marble"
    assert marbles_listed(["Clue Marble", "Elder Sign", "Clue Marble"]) == \
        "2 Clue Marbles and an Elder Sign"
    assert marbles_listed([]) == ""
    assert listed(["Clue and Force Marble", "Science Marble"]) == \
        "Clue and Force Marble, and Science Marble"
    assert listed(["Ghoul", "Watcher"]) == "Ghoul and Watcher"


def test_FW_ACT_01_f_FW_AMB_25_a_superset_is_allowed() -> None:
    st = conflict_turn()
    set_hand(st, "i1", "M-CF", "M-S", "M-C")
    st, _ = do(st, "s2", "close_gate", inv="i1")
    for m in list(inv(st, "i1").hand):
        st, _ = answer(st, "select", marble=m)
    st, ev = answer(st, "confirm")
    assert not inv(st, "i1").hand and len(st.marble_discard) >= 3
    assert "A Gate is closed: 2 Open Gates" in texts(ev)
    [line] = [e.text for e in ev if e.kind == "close"]
    assert line.endswith("discards a Clue and Force Marble, a Science Marble and a Clue "
                         "Marble to Close a Gate."), line
    assert inv(st, "i1").insane  # emptied hand: Insane, and a Gate opens again
    assert len(st.gates) == 3


def test_FW_ACT_01_cancel_refunds_the_action_points() -> None:
    st = conflict_turn()
    set_hand(st, "i1", "M-C", "M-F", "M-S")
    st, _ = do(st, "s2", "close_gate", inv="i1")
    st, ev = answer(st, "cancel")
    assert st.ap == 2 and len(st.gates) == 3 and st.refunds == 1
    assert "refunded" in texts(ev)


def test_FW_ACT_01_needs_all_three_symbols() -> None:
    st = conflict_turn()
    set_hand(st, "i1", "M-C", "M-F", "M-CF")
    assert "close_gate" not in kinds(st, "s2")
    with pytest.raises(IllegalAction) as err:
        GAME.apply(st, "s2", act("close_gate", inv="i1"))
    assert err.value.rule == "FW-ACT-01"


def test_FW_ACT_01_d_FW_END_01_closing_the_last_gate_wins() -> None:
    st = conflict_turn()
    set_gates(st, 1)
    set_hand(st, "i1", "M-CS", "M-F", "M-C")
    st, _ = do(st, "s2", "close_gate", inv="i1")
    st, _ = answer(st, "select", marble=inv(st, "i1").hand[0])
    st, _ = answer(st, "select", marble=inv(st, "i1").hand[1])
    st, _ev = answer(st, "confirm")
    res = GAME.result(st)
    assert res is not None and res.winners == ["s2"] and res.losers == ["s1"]
    assert "every Gate is closed" in res.reason


def test_FW_ACT_01_e_FW_SCOURGE_03_no_closing_while_the_scourge_is_out() -> None:
    st = conflict_turn()
    set_hand(st, "i1", "M-C", "M-F", "M-S")
    st.scourge = put_horror(st, "H-CULTIST")
    assert "close_gate" not in kinds(st, "s2")
    with pytest.raises(IllegalAction) as err:
        GAME.apply(st, "s2", act("close_gate", inv="i1"))
    assert err.value.rule == "FW-SCOURGE-03"


def test_FW_ACT_01_g_an_aura_can_raise_the_requirement() -> None:
    st = conflict_turn()
    set_wall(st, "W-5")
    set_stage(st, "eye_opens")
    set_hand(st, "i1", "M-C", "M-F", "M-S")
    assert "close_gate" not in kinds(st, "s2")
    give(st, "i1", "M-C")
    assert "close_gate" in kinds(st, "s2")


# ---------------------------------------------------------------- Exploit, Unique
def test_FW_ACT_02_exploit_then_doom_repeatable() -> None:
    st = conflict_turn()
    set_card(st, "i1", "INV-06")
    set_hand(st, "i2", "M-C")
    set_hand(st, "i3", "M-C")
    st, ev = do(st, "s2", "exploit", inv="i1")
    if prompt(st) == "choose_investigator":
        st, ev2 = answer(st, "choose_investigator", inv="i2")
        ev += ev2
    assert st.doom == 1 and "Exploit the Rift" in texts(ev)
    assert "exploit" in kinds(st, "s2")  # FW-AMB-26: no per-turn limit


def test_FW_ACT_02_FW_DOOM_03_the_aura_adds_more_doom() -> None:
    st = conflict_turn()
    set_card(st, "i1", "INV-09")
    set_wall(st, "W-2")
    set_stage(st, "eye_opens")
    st, _ = do(st, "s2", "exploit", inv="i1")
    assert st.doom == 2


def test_FW_ACT_03_unique_costs_the_card_cost_once_per_turn() -> None:
    st = conflict_turn()
    set_card(st, "i1", "INV-01")
    set_hand(st, "i1", "M-C")
    st, _ev = do(st, "s2", "unique", inv="i1")
    assert len(inv(st, "i1").hand) == 3 and st.ap == 1
    assert "unique" not in kinds(st, "s2")
    with pytest.raises(IllegalAction) as err:
        GAME.apply(st, "s2", act("unique", inv="i1"))
    assert err.value.rule == "FW-ACT-03"


# ---------------------------------------------------------------- Search, Intervene, Utilise
def test_FW_ACT_04_search_draws_the_top_marble() -> None:
    st = conflict_turn()
    set_hand(st, "i1", "M-C")
    (top,) = stack_marbles(st, "M-HOLY")
    st, ev = do(st, "s2", "search", inv="i1")
    assert top in inv(st, "i1").hand and st.ap == 1
    pub = [e.text for e in ev if e.audience == "public"]
    # "a Marble", in the rulebook's words (stop 67: the thread read "draws 1 Marble.")
    assert any(t.endswith("draws a Marble.") for t in pub) and not any("Holy" in t for t in pub)
    assert any("Holy Symbol" in e.text for e in ev if e.audience == ["s2"])


def test_FW_ACT_05_intervene_attaches_then_defeats() -> None:
    st = conflict_turn()
    h1 = put_horror(st, "H-CULTIST")
    h2 = put_horror(st, "H-WATCHER")
    (f,) = set_hand(st, "i1", "M-F", "M-C")[:1]
    st, _ = do(st, "s2", "intervene", inv="i1", marble=f)
    assert prompt(st) == "choose_horror"
    st, ev = answer(st, "choose_horror", horror=h1)
    assert Engine(st).on_streets(h1) is None and h1 in st.horror_discard
    assert f in st.marble_discard and "Defeated" in texts(ev)
    assert Engine(st).on_streets(h2) is not None


def test_FW_ACT_05_b_intervene_instructions_before_the_defeat_check() -> None:
    st = conflict_turn()
    h = put_horror(st, "H-BREAKER")  # its Deathrattle would make a Target lose a Marble
    (elder,) = set_hand(st, "i1", "M-ELDER", "M-C")[:1]
    st, _ev = do(st, "s2", "intervene", inv="i1", marble=elder)
    assert Engine(st).on_streets(h) is None
    assert prompt(st) is None  # no Deathrattle (Elder Sign: without retaliation)


def test_FW_ACT_06_utilise_follows_then_discards() -> None:
    st = conflict_turn()
    draw2, _ = set_hand(st, "i1", "M-DRAW2", "M-C")
    st, ev = do(st, "s2", "utilise", inv="i1", marble=draw2)
    assert draw2 in st.marble_discard and len(inv(st, "i1").hand) == 3
    assert "Utilises a Double Draw: Draw two Marbles." in texts(ev)  # its Utilise clause


def test_FW_ACT_06_c_FW_TERM_02_anchor_to_the_streets() -> None:
    st = conflict_turn()
    anchor, _ = set_hand(st, "i1", "M-ANCHOR", "M-C")
    st, ev = do(st, "s2", "utilise", inv="i1", marble=anchor)
    assert st.anchored == [anchor] and "Anchored" in texts(ev)
    eng = Engine(st)
    assert eng.action_cost("regroup", inv(st, "i1")) == 1
    assert GAME.view(st, None)["anchored"][0]["id"] == anchor


# ---------------------------------------------------------------- Give or Trade
def test_FW_ACT_07_give_a_marble() -> None:
    st = conflict_turn()
    (c,) = set_hand(st, "i1", "M-C")
    set_hand(st, "i2", "M-F")
    st, ev = do(st, "s2", "give", inv="i1", to="i2")
    assert prompt(st) == "give_marble"  # asked even with one kind in hand (FW-VIS-34)
    st, more = answer(st, "choose_marble", marble=c)
    ev += more
    assert c in inv(st, "i2").hand
    assert any("gives a Marble" in e.text for e in ev if e.audience == "public")


def test_FW_ACT_07_d_FW_AMB_27_trade_needs_the_partners_consent() -> None:
    st = inv_turn(new_game("conflict", 3, 1), "i1")  # i1 = s2, i2 = s3
    clear_streets(st)
    (c,) = set_hand(st, "i1", "M-C")
    (f,) = set_hand(st, "i2", "M-F")
    st, _ = do(st, "s2", "trade", inv="i1", **{"with": "i2"})
    st, _ = answer(st, "choose_marble", marble=c) if prompt(st) == "trade_mine" else (st, [])
    st, _ = answer(st, "choose_marble", marble=f) if prompt(st) == "trade_theirs" else (st, [])
    assert prompt(st) == "trade_consent" and st.prompts[-1].seats == ["s3"]
    declined, ev = answer(st, "decline")
    assert declined.ap == 2 and c in inv(declined, "i1").hand and "refunded" in texts(ev)
    eng = Engine(declined)  # whose offer it was (stop 63's demo read two offers as one)
    said = f"{eng.inv_name(inv(st, 'i2'))} declines {eng.inv_name(inv(st, 'i1'))}'s offer of a " \
        "Trade"
    assert said in texts(ev), texts(ev)
    st, _ = answer(st, "accept")
    assert f in inv(st, "i1").hand and c in inv(st, "i2").hand and st.ap == 1


def test_FW_ACT_07_c_e_no_taking_without_giving_and_no_insane_partner() -> None:
    st = conflict_turn()
    set_hand(st, "i1", "M-C")
    inv(st, "i2").insane = True
    st.marble_deck.extend(inv(st, "i2").hand)
    inv(st, "i2").hand = []
    targets = {a.params.get("to") or a.params.get("with") for a in legal(st, "s2")
               if a.kind in ("give", "trade")}
    assert targets == {"i3"}
    assert "take" not in kinds(st, "s2")


def test_FW_ACT_07_f_the_receiver_applies_the_hand_limit() -> None:
    st = conflict_turn()
    (_c,) = set_hand(st, "i1", "M-C", "M-F")[:1]
    limit = Engine(st).hand_limit(inv(st, "i2"))
    set_hand(st, "i2", *["M-S"] * limit)
    st, _ = do(st, "s2", "give", inv="i1", to="i2")
    assert prompt(st) == "discard_excess" or len(inv(st, "i2").hand) == limit
    while prompt(st) == "discard_excess":
        st, _ = answer(st, "choose_marble", marble=inv(st, "i2").hand[0])
    assert len(inv(st, "i2").hand) == limit


def test_FW_AMB_30_give_never_to_yourself() -> None:
    st = conflict_turn()
    set_hand(st, "i1", "M-C")
    assert all(a.params.get("to") != "i1" for a in legal(st, "s2") if a.kind == "give")


# ---------------------------------------------------------------- Regroup
def test_FW_ACT_08_regroup_draw_two_or_to_sanity() -> None:
    st = conflict_turn()
    set_card(st, "i1", "INV-09")  # Sanity 6
    set_hand(st, "i1", "M-C")
    st, _ = do(st, "s2", "regroup", inv="i1")
    assert inv(st, "i1").regrouped and prompt(st) == "regroup_draw"
    labels = [GAME.describe(st, "s2", a) for a in options(st)]
    assert any("Draw 2 Marbles" in x for x in labels) and any("Hand Limit (5 Marbles)" in x
                                                                for x in labels)
    st, _ = answer(st, "regroup_draw", mode="limit")
    assert len(inv(st, "i1").hand) == 6


def test_FW_ACT_08_d_FW_AMB_11_free_trades_with_regrouped_investigators() -> None:
    st = conflict_turn()
    set_card(st, "i1", "INV-09")  # Sanity 6: from 4 cards both options draw 2
    (c,) = set_hand(st, "i1", "M-C", "M-F", "M-S", "M-C")[:1]
    set_hand(st, "i2", "M-C")
    inv(st, "i2").regrouped = True
    st, _ = do(st, "s2", "regroup", inv="i1")
    assert prompt(st) == "free_trade"
    assert {a.kind for a in options(st)} == {"free_give", "free_trade", "done"}
    assert all(a.params.get("to", a.params.get("with")) in (None, "i2") for a in options(st))
    st, _ = answer(st, "free_give", to="i2")
    st, _ = answer(st, "choose_marble", marble=c) if prompt(st) == "give_marble" else (st, [])
    assert c in inv(st, "i2").hand and prompt(st) == "free_trade"
    st, _ = answer(st, "done")
    assert st.ap == 0


def test_FW_ACT_08_c_excess_is_discarded_at_once() -> None:
    st = conflict_turn()
    set_card(st, "i1", "INV-07")  # Sanity 4
    set_hand(st, "i1", "M-C", "M-F", "M-S", "M-C")
    st, _ = do(st, "s2", "regroup", inv="i1")
    st, _ = answer(st, "regroup_draw", mode="n")
    assert prompt(st) == "discard_excess"
    st, _ = answer(st, "choose_marble", marble=inv(st, "i1").hand[0])
    st, _ = answer(st, "choose_marble", marble=inv(st, "i1").hand[0])
    assert len(inv(st, "i1").hand) == 4


def test_FW_ACT_09_standard_costs() -> None:
    st = conflict_turn()
    eng = Engine(st)
    i1 = inv(st, "i1")
    costs = {a: eng.action_cost(a, i1) for a in ("search", "intervene", "utilise",
                                                 "give_or_trade", "regroup", "close_gate")}
    assert costs == {"search": 1, "intervene": 1, "utilise": 1, "give_or_trade": 1,
                     "regroup": 2, "close_gate": 2}
    assert eng.action_cost("exploit", i1) == 1


# ---------------------------------------------------------------- Hand Limit, Insanity
def test_FW_HAND_01_02_hand_limit_at_the_end_of_any_action() -> None:
    st = conflict_turn()
    set_card(st, "i1", "INV-07")  # Sanity 4
    set_hand(st, "i1", "M-C", "M-F", "M-S", "M-C")
    st, _ = do(st, "s2", "search", inv="i1")
    assert prompt(st) == "discard_excess" and st.prompts[-1].seats == ["s2"]
    st, ev = answer(st, "choose_marble", marble=inv(st, "i1").hand[-1])
    assert len(inv(st, "i1").hand) == 4 and "Hand Limit" in texts(ev)


def test_FW_INSANE_01_02_03_05_empty_hand_goes_insane_and_opens_a_gate() -> None:
    st = wall_turn(new_game("conflict", 2, 1), doom=5)
    clear_streets(st)
    h = put_horror(st, "H-BRUTE")
    for i in ("i1", "i2", "i3"):
        set_hand(st, i, "M-C")
    st, _ = do(st, "s1", "trigger", horror=h)  # each Investigator Loses a Marble
    while prompt(st) == "lose_choice":
        st, _ = answer(st, "choose_marble", marble=st.prompts[-1].data["options"][0]["params"]
                       ["marble"])
    assert all(i.insane for i in st.investigators)
    assert len(st.gates) == 5  # three Insane: 3 -> 5, then Doom instead (FW-GATE-06)
    assert prompt(st) == "gate_doom"
    v = GAME.view(st, None)
    assert all(i["insane"] for i in v["investigators"])
    assert Engine(st).sane() == []  # FW-INSANE-03: nobody can be chosen


def test_FW_INSANE_06_replacement_draws_first() -> None:
    st = inv_turn(new_game("conflict", 2, 1), "i3")
    i1 = inv(st, "i1")
    st.marble_deck.extend(i1.hand)
    i1.hand = []
    i1.insane = True
    old = i1.card
    st.investigator_deck = st.investigator_deck[:1]
    st.removed_investigators = [c for c in Engine(st).pack.investigator_deck()
                                if c not in st.investigator_deck
                                and c not in [i.card for i in st.investigators]]
    only = st.investigator_deck[0]
    st, _ = do(st, "s2", "pass", inv="i3")
    st, _ = (st, []) if st.phase != "wall" else __import__(
        "tests.fourth_wall.helpers", fromlist=["end_wall_turn"]).end_wall_turn(st)
    assert inv(st, "i1").card == only and st.investigator_deck == [old]


# ---------------------------------------------------------------- Gates
def test_FW_GATE_01_02_03_05_gates_are_a_count_and_reopen() -> None:
    st = conflict_turn()
    set_hand(st, "i1", "M-C", "M-F", "M-S", "M-C")
    st, _ = do(st, "s2", "close_gate", inv="i1")
    for m in inv(st, "i1").hand[:3]:
        st, _ = answer(st, "select", marble=m)
    closed_card = st.gates[-1]
    st, _ = answer(st, "confirm")
    assert closed_card in st.gate_supply
    assert "gates" not in str(GAME.view(st, None)["wall"])
    assert GAME.view(st, None)["gates"]["open"] == 2


def test_FW_GATE_04_06_FW_DOOM_04_five_open_before_an_eye_opens() -> None:
    st = wall_turn(new_game("conflict", 2, 1), doom=2)
    set_gates(st, 5)
    clear_streets(st)
    set_wall(st, "W-4")
    h = put_horror(st, "H-GATEKEEPER")
    st.doom = 3
    st, _ = do(st, "s1", "trigger", horror=h)
    assert prompt(st) == "gate_doom" and GAME.result(st) is None
    st, _ev = answer(st, "take_doom")
    assert st.doom_deferred == 1 and st.doom == 0  # deferred (FW-DOOM-06)


def test_FW_GATE_07_FW_END_02_the_fifth_gate_after_an_eye_opens() -> None:
    st = wall_turn(new_game("conflict", 2, 1), doom=3)
    set_gates(st, 4)
    set_stage(st, "eye_opens")
    clear_streets(st)
    h = put_horror(st, "H-GATEKEEPER")
    st, _ev = do(st, "s1", "trigger", horror=h)
    res = GAME.result(st)
    assert res is not None and res.winners == ["s1"] and "fifth Gate" in res.reason
