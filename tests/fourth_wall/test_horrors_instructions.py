"""Scenario tests: Horrors, card Instructions and the Common Terms.

Named by the spec rule ids they check (../shared/spec/fourth-wall.md §1.9-§1.11).
"""

from __future__ import annotations

from collections import Counter

from rules.fourth_wall.engine import Engine
from rules.fourth_wall.game import GAME
from tests.fourth_wall.helpers import (
    answer,
    clear_streets,
    do,
    free_marble,
    inv,
    inv_turn,
    kinds,
    new_game,
    options,
    pass_windows,
    prompt,
    put_horror,
    set_card,
    set_gates,
    set_hand,
    set_stage,
    set_wall,
    stack_horrors,
    stack_marbles,
    take_marble,
    texts,
    wall_hand,
    wall_turn,
)


def turn(mode: str = "conflict", iid: str = "i1", n: int = 2, seed: int = 1):  # type: ignore[no-untyped-def]
    st = inv_turn(new_game(mode, n, seed), iid)
    clear_streets(st)
    return st


def wall(doom: int = 5, seed: int = 1):  # type: ignore[no-untyped-def]
    st = wall_turn(new_game("conflict", 2, seed), doom=doom)
    clear_streets(st)
    return st


def lose_first(st):  # type: ignore[no-untyped-def]
    """Answer every pending Lose-a-Marble / Wall choice with its first option."""
    while prompt(st) in ("lose_choice", "wall_choice", "holy_window"):
        o = options(st)[-1] if prompt(st) == "holy_window" else options(st)[0]
        st, _ = answer(st, o.kind, **o.params)
    return st


# ---------------------------------------------------------------- Horrors
def test_FW_HORROR_01_FW_AMB_12_state_based_defeat_with_a_moving_cost() -> None:
    st = turn()
    set_gates(st, 4)
    h = put_horror(st, "H-CULT-LEADER", attached=("M-C", "M-F"))
    eng = Engine(st)
    assert eng.defeat_cost(h) == Counter({"clue": 1, "force": 2})
    assert GAME.view(st, None)["horrors"][0]["remaining"] == {"force": 1}
    set_hand(st, "i1", "M-C", "M-F", "M-S", "M-C")
    st, _ = do(st, "s2", "close_gate", inv="i1")
    for m in inv(st, "i1").hand[:3]:
        st, _ = answer(st, "select", marble=m)
    st, ev = answer(st, "confirm")
    assert Engine(st).on_streets(h) is None and "Cult Leader is Defeated" in texts(ev)


def test_FW_HORROR_01_extra_symbols_do_nothing() -> None:
    st = turn()
    h = put_horror(st, "H-CULTIST", attached=("M-C",))
    assert Engine(st).on_streets(h) is not None
    (cf,) = set_hand(st, "i1", "M-CF", "M-C")[:1]
    st, _ = do(st, "s2", "intervene", inv="i1", marble=cf)
    assert Engine(st).on_streets(h) is None


def test_FW_HORROR_02_FW_AMB_13_deathrattle_first_decided_by_the_wall() -> None:
    st = turn()
    h = put_horror(st, "H-BREAKER", attached=("M-C",))
    (c,) = set_hand(st, "i1", "M-C", "M-F")[:1]
    st, _ = do(st, "s2", "intervene", inv="i1", marble=c)
    assert prompt(st) == "choose_target" and st.prompts[-1].seats == ["s1"]
    assert Engine(st).on_streets(h) is not None  # still there while the Deathrattle resolves
    st, _ = answer(st, "choose_investigator", inv="i2")
    st = lose_first(st)
    assert Engine(st).on_streets(h) is None and h in st.horror_discard
    assert c in st.marble_discard


def test_FW_HORROR_03_FW_SCOURGE_04_the_scourge_defeated_is_set_aside() -> None:
    st = turn()
    h = put_horror(st, "H-CULTIST")
    st.scourge = h
    (f,) = set_hand(st, "i1", "M-F", "M-C")[:1]
    st, ev = do(st, "s2", "intervene", inv="i1", marble=f)
    assert st.scourge is None and "set aside" in texts(ev)
    other = put_horror(st, "H-WATCHER")
    assert st.scourge is None and other  # the token does not jump


def test_FW_HORROR_04_effective_cost_with_auras() -> None:
    st = turn()
    set_wall(st, "W-1")
    set_stage(st, "eye_opens")
    h = put_horror(st, "H-WATCHER")
    assert GAME.view(st, None)["horrors"][0]["defeat_cost"] == ["clue", "science"]
    assert GAME.view(st, None)["horrors"][0]["defeat_printed"] == ["science"]
    assert Engine(st).defeat_cost(h) == Counter({"clue": 1, "science": 1})
    al = turn("alliance", n=1)
    h3 = put_horror(al, "H-WATCHER", street=3)
    assert Engine(al).defeat_cost(h3) == Counter({"science": 2})  # Street 3's Aura


def test_FW_HORROR_05_drained_cannot_trigger() -> None:
    st = wall()
    h = put_horror(st, "H-CULTIST", drained=True)
    assert "trigger" not in kinds(st, "s1")
    st.streets[0].drained = False
    assert ("trigger", h) in [(a.kind, a.params.get("horror")) for a in
                              GAME.legal_actions(st, "s1")]


def test_FW_HORROR_06_FW_AMB_14_drain_on_every_placement() -> None:
    st = wall()
    (w,) = wall_hand(st, "H-WATCHER")
    st, _ev = do(st, "s1", "manifest", horror=w)
    assert Engine(st).on_streets(w).drained  # type: ignore[union-attr]
    al = turn("alliance", n=1)
    stack_horrors(al, "H-WATCHER")
    eng = Engine(al)
    eng.later()
    eng.step_presence_resolve("P-TROUBLE-2#1")
    assert al.streets[0].drained and al.streets[0].street == 2


def test_FW_HORROR_07_FW_TERM_16_return_a_horror() -> None:
    st = turn()
    set_card(st, "i1", "INV-05")
    h = put_horror(st, "H-CULTIST", attached=("M-C",))
    (att,) = Engine(st).on_streets(h).attached  # type: ignore[union-attr]
    st, ev = do(st, "s2", "exploit", inv="i1")
    assert h in st.wall_hand and "Returned" in texts(ev) and att in st.marble_discard
    al = turn("alliance", n=1)
    set_card(al, "i1", "INV-05")
    h2 = put_horror(al, "H-CULTIST")
    al, _ = do(al, "s1", "exploit", inv="i1")
    assert h2 in al.horror_deck and not al.wall_hand


def test_FW_HORROR_08_FW_TERM_17_sacrifice_without_deathrattle() -> None:
    st = wall()
    cult = put_horror(st, "H-CULTIST", attached=("M-F",))
    leader = put_horror(st, "H-CULT-LEADER")
    gates = len(st.gates)
    st, ev = do(st, "s1", "trigger", horror=leader)
    assert Engine(st).on_streets(cult) is None and cult in st.horror_discard
    assert "Sacrificed" in texts(ev) and len(st.gates) == gates + 1
    assert len([m for m in st.marble_discard if st.marble_cards[m] == "M-F"]) >= 1


def test_FW_HORROR_09_FW_STREET_02_one_horror_per_street() -> None:
    al = turn("alliance", n=1)
    h = put_horror(al, "H-CULTIST", street=1)
    eng = Engine(al)
    eng.step_presence_resolve("P-TROUBLE-1#1")
    assert [x.id for x in al.streets] == [h]  # Triggered instead of a second Horror
    assert al.streets[0].street == 1


def test_FW_HORROR_10_out_of_cards_reshuffles_then_cannot_complete() -> None:
    st = turn()
    set_hand(st, "i1", "M-C")
    st.marble_discard.extend(st.marble_deck)
    st.marble_deck = []
    st, ev = do(st, "s2", "search", inv="i1")
    assert "shuffled into a new deck" in texts(ev) and len(inv(st, "i1").hand) == 2
    st2 = turn()
    set_card(st2, "i1", "INV-01")
    set_hand(st2, "i1", "M-C")
    everything = list(st2.marble_deck) + list(st2.marble_discard)
    for m in everything[1:]:
        take_marble(st2, m)
    st2.anchored.extend(everything[1:])  # parked On the Streets, still conserved
    st2, ev = do(st2, "s2", "unique", inv="i1")  # draw two: only one card is left
    assert len(inv(st2, "i1").hand) == 2 and "Marble deck and discard pile are empty" in texts(ev)
    assert prompt(st2) == "wall_doom"  # cannot complete


# ---------------------------------------------------------------- Instructions
def test_FW_INSTR_01_02_the_player_of_the_card_decides() -> None:
    st = turn()
    set_card(st, "i1", "INV-04")
    a = put_horror(st, "H-CULTIST")
    put_horror(st, "H-GHOUL")
    st, _ = do(st, "s2", "exploit", inv="i1")
    assert prompt(st) == "choose_horror" and st.prompts[-1].seats == ["s2"]
    st, _ = answer(st, "choose_horror", horror=a)
    assert Engine(st).on_streets(a).drained  # type: ignore[union-attr]


def test_FW_INSTR_03_sentence_by_sentence_new_target_each() -> None:
    st = wall()
    h = put_horror(st, "H-RESTLESS-SPIRIT")
    st, _ = do(st, "s1", "trigger", horror=h)
    assert prompt(st) == "choose_target"
    st, _ = answer(st, "choose_investigator", inv="i1")
    st = lose_first(st)
    assert prompt(st) == "choose_target"  # the second sentence chooses again
    st, _ = answer(st, "choose_investigator", inv="i2")
    st = lose_first(st)
    assert st.streets[0].drained


def test_FW_INSTR_04_FW_PROMPT_21_investigator_failure_the_wall_may_take_doom() -> None:
    st = turn()
    set_card(st, "i1", "INV-07")  # Unique: Blitz (2) [Clue, Science] — no Horror out
    for i in ("i1", "i2", "i3"):
        set_hand(st, i, "M-C")
    stack_marbles(st, "M-C", "M-F")
    st, _ = do(st, "s2", "unique", inv="i1")
    st, _ = pass_windows(st)
    assert prompt(st) == "wall_doom" and st.prompts[-1].seats == ["s1"]
    declined, _ = answer(st, "decline")
    assert declined.doom == 0
    st, _ = answer(st, "take_doom")
    assert st.doom == 1 and st.doom_deferred == 0  # an Investigator turn: the pool
    al = turn("alliance", n=1)
    set_card(al, "i1", "INV-07")
    for i in ("i1", "i2", "i3"):
        set_hand(al, i, "M-C")
    al, _ = do(al, "s1", "unique", inv="i1")
    assert al.doom == 1 and prompt(al) is None  # FW-AI-06: always taken


def test_FW_AMB_16_a_card_that_can_do_nothing_is_not_offered() -> None:
    st = turn()
    set_card(st, "i1", "INV-04")  # Exploit: Drain a Horror — none On the Streets
    assert "exploit" not in kinds(st, "s2")
    put_horror(st, "H-CULTIST")
    assert "exploit" in kinds(st, "s2")


def test_FW_INSTR_05_FW_AMB_17_wall_failure_elected_may_regroup() -> None:
    st = wall()
    leader = put_horror(st, "H-CULT-LEADER")  # no Cultist to Sacrifice
    st, _ = do(st, "s1", "trigger", horror=leader)
    assert prompt(st) == "elect" and st.prompts[-1].seats == ["s2"]
    st, _ = answer(st, "choose_investigator", inv="i2")
    assert prompt(st) == "regroup_offer"
    st, _ = answer(st, "accept")
    while prompt(st) in ("regroup_draw", "discard_excess", "free_trade"):
        o = options(st)[-1]
        st, _ = answer(st, o.kind, **o.params)
    assert inv(st, "i2").regrouped


def test_FW_INSTR_05_the_elected_investigator_is_named_when_elected() -> None:
    """A demo read "an Elected Investigator may Regroup", then "The Fixer Regroups": who
    was Elected was never said. The line after the team's election names them."""
    st = wall()
    leader = put_horror(st, "H-CULT-LEADER")  # no Cultist to Sacrifice
    st, ev = do(st, "s1", "trigger", horror=leader)
    assert "an Elected Investigator may Regroup" in texts(ev)
    assert "is elected" not in texts(ev)  # not chosen yet
    st, ev = answer(st, "choose_investigator", inv="i2")
    name = Engine(st).inv_name(inv(st, "i2"))
    assert f"{name} is elected and may Regroup." in texts(ev)
    assert prompt(st) == "regroup_offer"
    st, ev = answer(st, "decline")
    assert "is elected" not in texts(ev)  # said once


def test_FW_INSTR_05_the_only_sane_investigator_is_named_as_elected() -> None:
    st = wall()
    for other in st.investigators[1:]:
        other.insane = True
        st.marble_deck.extend(other.hand)
        other.hand = []
    leader = put_horror(st, "H-CULT-LEADER")
    st, ev = do(st, "s1", "trigger", horror=leader)
    name = Engine(st).inv_name(st.investigators[0])
    # Nobody chose: the only one left (stop 65's demo read "is elected" as The Wall's choice).
    assert (f"The Wall could not complete an Instruction: {name}, the only sane "
            "Investigator, may Regroup.") in texts(ev)
    assert "an Elected Investigator" not in texts(ev)
    assert texts(ev).count("may Regroup") == 1


def test_FW_INSTR_06_FW_TERM_07_18_target_by_the_wall_elected_by_the_team() -> None:
    st = wall()
    h = put_horror(st, "H-CULTIST")
    inv(st, "i3").insane = True
    st.marble_deck.extend(inv(st, "i3").hand)
    inv(st, "i3").hand = []
    st, _ = do(st, "s1", "trigger", horror=h)
    assert {a.params["inv"] for a in options(st)} == {"i1", "i2"}
    st2 = turn()
    gk = put_horror(st2, "H-GATEKEEPER", attached=("M-C", "M-F"))
    (s,) = set_hand(st2, "i1", "M-S", "M-C")[:1]
    st2, _ = do(st2, "s2", "intervene", inv="i1", marble=s)
    assert prompt(st2) == "elect" and st2.prompts[-1].seats == ["s2"]
    assert gk


# ---------------------------------------------------------------- Common Terms
def test_FW_TERM_01_10_attach_by_intervene() -> None:
    st = turn()
    h = put_horror(st, "H-GATEKEEPER")
    (c,) = set_hand(st, "i1", "M-C", "M-F")[:1]
    st, _ = do(st, "s2", "intervene", inv="i1", marble=c)
    assert Engine(st).on_streets(h).attached == [c]  # type: ignore[union-attr]
    assert GAME.view(st, None)["horrors"][0]["attached"][0]["id"] == c


def test_FW_TERM_03_blitz_adrenaline_window_and_intervene() -> None:
    st = turn()
    set_card(st, "i1", "INV-02")  # Exploit: Blitz (3) [Force]
    h = put_horror(st, "H-GHOUL")
    set_hand(st, "i1", "M-C")
    (adr,) = set_hand(st, "i2", "M-ADRENALINE", "M-C")[:1]
    stack_marbles(st, "M-F", "M-C", "M-S", "M-F")
    st, _ = do(st, "s2", "exploit", inv="i1")
    assert prompt(st) == "blitz_window" and st.prompts[-1].seats == ["s2"]
    st, ev = answer(st, "react", inv="i2", marble=adr)
    assert "reveals 4 cards" in texts(ev) or prompt(st) == "blitz_window"
    st, more = pass_windows(st)
    ev += more
    st = lose_first(st)
    while prompt(st) in ("blitz_card", "choose_horror"):
        o = options(st)[0]
        st, ev2 = answer(st, o.kind, **o.params)
        ev += ev2
    assert Engine(st).on_streets(h) is None  # Force, Force negated -> Defeated
    assert "Blitz (4) [Force] reveals" in texts(ev) or st.revealed_cards


def test_FW_TERM_03_FW_AMB_28_blitz_with_no_horror() -> None:
    st = turn()
    set_card(st, "i1", "INV-02")
    set_hand(st, "i1", "M-C")
    for i in ("i2", "i3"):
        set_hand(st, i, "M-C")
    stack_marbles(st, "M-F", "M-C", "M-S")
    st, _ev = do(st, "s2", "exploit", inv="i1")
    st, _ev = pass_windows(st)
    assert prompt(st) == "wall_doom"  # matching cards discarded: cannot complete
    assert not st.in_play


def test_FW_TERM_04_05_06_drain_delve_defeat_words() -> None:
    st = wall(doom=1)
    n = len(st.wall_hand)
    st, ev = do(st, "s1", "delve")
    assert len(st.wall_hand) == n + 1 and st.doom == 0
    assert any(e.audience == ["s1"] for e in ev)


def test_FW_TERM_08_find_discard_first_then_deck() -> None:
    st = turn()
    set_card(st, "i1", "INV-01")  # Exploit: Find a Marble you name
    set_hand(st, "i1", "M-C")
    holy = free_marble(st, "M-HOLY")
    take_marble(st, holy)
    st.marble_discard.append(holy)
    st, _ = do(st, "s2", "exploit", inv="i1")
    assert prompt(st) == "choose_name"
    st, ev = answer(st, "choose_name", name="Holy Symbol")
    assert holy in inv(st, "i1").hand and "Holy Symbol is found" in texts(ev)


def test_FW_TERM_08_FW_AMB_16_not_found_the_effort_is_lost_no_penalty() -> None:
    st = turn()
    set_card(st, "i1", "INV-01")
    set_hand(st, "i1", "M-C")
    elder = free_marble(st, "M-ELDER")
    take_marble(st, elder)
    st.anchored.append(elder)  # On the Streets: neither in the discard nor the deck
    st, _ = do(st, "s2", "exploit", inv="i1")
    st, ev = answer(st, "choose_name", name="Elder Sign")
    assert "effort is lost" in texts(ev) and prompt(st) is None and st.doom == 1


def test_FW_TERM_11_lose_a_marble_own_choice_and_holy_symbol() -> None:
    st = wall()
    h = put_horror(st, "H-CULTIST")
    holy, c = set_hand(st, "i1", "M-HOLY", "M-C")
    st, _ = do(st, "s1", "trigger", horror=h)
    st, _ = answer(st, "choose_investigator", inv="i1")
    # {C} the Holy Symbol is offered inside the own choice (FW-VIS-32)
    assert prompt(st) == "lose_choice" and st.prompts[-1].seats == ["s2"]
    assert {a.kind for a in options(st)} == {"choose_marble", "react"}
    st2, ev = answer(st, "react", inv="i1", marble=holy)
    assert inv(st2, "i1").hand == [c] and "ignores the loss" in texts(ev)
    st3, ev = answer(st, "choose_marble", marble=c)
    assert inv(st3, "i1").hand == [holy] and c in st3.marble_discard


def test_FW_AMB_38_holy_symbol_is_owner_only_and_can_empty_the_hand() -> None:
    st = wall()
    h = put_horror(st, "H-CULTIST")
    (holy,) = set_hand(st, "i1", "M-HOLY")
    set_hand(st, "i2", "M-HOLY", "M-C")
    st, _ = do(st, "s1", "trigger", horror=h)
    st, _ = answer(st, "choose_investigator", inv="i1")
    assert prompt(st) == "lose_choice"  # i2's Holy Symbol is not offered: owner only
    assert [a.params.get("marble") for a in options(st) if a.kind == "react"] == [holy]
    st, _ = answer(st, "react", inv="i1", marble=holy)
    assert inv(st, "i1").insane  # the last card went: Insane at the end of the Action


def test_FW_TERM_12_lose_a_random_marble() -> None:
    st = wall()
    h = put_horror(st, "H-GHOUL")
    set_hand(st, "i1", "M-C", "M-F")
    st, _ = do(st, "s1", "trigger", horror=h)
    st, _ev = answer(st, "choose_investigator", inv="i1")
    assert prompt(st) == "holy_window"  # {C} asked whether or not one is held (FW-VIS-32)
    assert [a.kind for a in options(st)] == ["decline"]
    st, _ev = answer(st, "decline")
    assert len(inv(st, "i1").hand) == 1 and prompt(st) is None


def test_FW_TERM_13_FW_VIS_08_chosen_by_the_wall() -> None:
    st = wall()
    h = put_horror(st, "H-WATCHER")
    c, f = set_hand(st, "i1", "M-C", "M-F")
    st, _ = do(st, "s1", "trigger", horror=h)
    st, ev = answer(st, "choose_investigator", inv="i1")
    st, more = pass_windows(st)
    ev += more
    assert prompt(st) == "wall_choice" and st.prompts[-1].seats == ["s1"]
    private = [e for e in ev if e.audience == ["s1"]]
    assert private and "Clue Marble" in private[0].text
    assert not any("Clue Marble" in e.text for e in ev if e.audience == "public")
    assert not GAME.public_choices(st, "s1")
    st, ev = answer(st, "choose_marble", marble=f)
    assert inv(st, "i1").hand == [c] and "loses a Force Marble" in texts(ev)


def test_FW_TERM_14_manifest_conflict_from_hand() -> None:
    st = wall(doom=2)
    (g,) = wall_hand(st, "H-GHOUL")
    st, _ev = do(st, "s1", "manifest", horror=g)
    assert st.doom == 0 and Engine(st).on_streets(g) is not None and not st.wall_hand


def test_FW_TERM_15_on_the_streets_includes_anchored() -> None:
    st = wall(doom=3)
    anchor = free_marble(st, "M-ANCHOR")
    take_marble(st, anchor)
    st.anchored.append(anchor)
    assert ("destroy", anchor) in [(a.kind, a.params.get("marble"))
                                   for a in GAME.legal_actions(st, "s1")]
    st, _ev = do(st, "s1", "destroy", marble=anchor)
    assert anchor in st.marble_discard and not st.anchored


def test_FW_TERM_09_give_marbles_card_to_chosen_investigators() -> None:
    st = turn()
    set_card(st, "i1", "INV-03")  # Unique: Give up to two Marbles
    c, _f, _s = set_hand(st, "i1", "M-C", "M-F", "M-S")
    set_hand(st, "i2", "M-C")
    st, _ = do(st, "s2", "unique", inv="i1")
    st, _ = answer(st, "choose_marble", marble=c)
    st, _ = answer(st, "choose_investigator", inv="i2")
    assert c in inv(st, "i2").hand and prompt(st) == "give_marble"
    st, _ = answer(st, "stop")
    assert prompt(st) is None and len(inv(st, "i1").hand) == 2
