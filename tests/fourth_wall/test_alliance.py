"""Scenario tests: Alliance (the Presence AI), Streets, the Target Token, the AI decision rules,
and the end of the game.

Named by the spec rule ids they check (../shared/spec/fourth-wall.md §1.15-§1.20).
"""

from __future__ import annotations

from collections import Counter

import pytest

from rules.core.errors import IllegalAction
from rules.core.types import act
from rules.fourth_wall.engine import Engine
from rules.fourth_wall.game import GAME
from rules.fourth_wall.state import Frame, Step
from rules.fourth_wall.words import status_lines
from tests.fourth_wall.helpers import (
    answer,
    clear_streets,
    do,
    inv,
    inv_turn,
    kinds,
    new_game,
    options,
    prompt,
    put_horror,
    set_card,
    set_gates,
    set_hand,
    set_stage,
    set_wall,
    stack_horrors,
    texts,
    wall_turn,
)


def ally(n: int = 1, seed: int = 1, iid: str = "i1"):  # type: ignore[no-untyped-def]
    st = inv_turn(new_game("alliance", n, seed), iid)
    clear_streets(st)
    st.doom = 0
    return st


def presence(st, *cards: str):  # type: ignore[no-untyped-def]
    """Resolve these Presence cards as a Wall turn would (each an Action)."""
    st = st.model_copy(deep=True)
    st.phase = "wall"
    st.wall_spending = True
    eng = Engine(st)
    steps = []
    for c in cards:
        steps += [Step(op="presence_resolve", args={"card": c}), Step(op="end_action")]
    eng.later(*steps)
    eng.run()
    assert not GAME.invariants(st) or st.prompts, GAME.invariants(st)
    return st, eng.events


# ---------------------------------------------------------------- the Alliance Wall turn
def test_FW_ALLY_01_02_doom_per_wall_turn() -> None:
    st = ally()
    st.wall_turns = 5
    st, ev = do(st, "s1", "pass", inv="i1")
    assert "+2 Doom" in texts(ev)
    st = ally()
    st.wall_turns = 5
    set_stage(st, "crescendo")
    st, ev = do(st, "s1", "pass", inv="i1")
    assert "+3 Doom" in texts(ev)


def test_FW_ALLY_03_FW_AMB_34_one_card_per_doom_reshuffling_past_nine() -> None:
    st = ally()
    st.wall_turns = 5
    st.doom = 10  # + 2 = 12 cards
    for i in st.investigators:
        set_hand(st, i.id, "M-C", "M-F", "M-S", "M-C")
    st, ev = do(st, "s1", "pass", inv="i1")
    while st.prompts:
        o = options(st)[0]
        st, more = answer(st, o.kind, **o.params)
        ev += more
    assert sum(1 for e in ev if e.kind == "presence") >= 12
    assert st.doom == 0


def test_FW_ALLY_04_costs_are_ignored() -> None:
    st = ally()
    set_wall(st, "W-6")
    set_stage(st, "eye_opens")
    for i in st.investigators:
        set_hand(st, i.id, "M-C", "M-F")
    st, ev = presence(st, "P-WRATH#1")
    while prompt(st) in ("lose_choice", "holy_window"):
        o = options(st)[-1] if prompt(st) == "holy_window" else options(st)[0]
        st, _more = answer(st, o.kind, **o.params)
    assert "top Unique Action" in texts(ev) and st.doom == 0
    assert sum(len(i.hand) for i in st.investigators) == 4  # two Marbles lost


def test_FW_ALLY_05_FW_COMP_08_no_brood_scourge_or_hand() -> None:
    st = new_game("alliance", 2, 1)
    assert st.wall_seat is None and not st.wall_hand and st.scourge is None
    assert GAME.view(st, None)["scourge"] is None
    assert all("brood" not in kinds(st, s) for s in st.seats)


# ---------------------------------------------------------------- Presence cards
def test_FW_PRES_01_four_actions() -> None:
    actions = Counter(Engine(ally()).pack.presence_card(p).action
                      for p in Engine(ally()).pack.presence_instances())
    assert set(actions) == {"delve", "wrath", "destroy_marble", "trouble"}


def test_FW_PRES_02_delve_triggers_then_discards() -> None:
    st = ally()
    for i in st.investigators:
        set_hand(st, i.id, "M-C", "M-F")
    (h,) = stack_horrors(st, "H-GHOUL")
    st, ev = presence(st, "P-DELVE-1#1")
    assert h in st.horror_discard and "Delve reveals Ghoul" in texts(ev)
    # Where it went is said after its Trigger (a demo's Watcher vanished from the log).
    said = [e.text for e in ev]
    assert said.index("The delved Ghoul goes to the Horror discard pile.") > \
        said.index("Delve reveals Ghoul."), said


def test_FW_PRES_02_FW_AMB_44_delve_unusable_places_or_discards() -> None:
    st = ally()
    (leader,) = stack_horrors(st, "H-CULT-LEADER")  # no Cultist to Sacrifice
    put_horror(st, "H-WATCHER", street=1)
    st2, _ = presence(st, "P-DELVE-1#1")
    assert Engine(st2).on_streets(leader).street == 2  # type: ignore[union-attr]
    for n in (2, 3, 4, 5):
        put_horror(st, "H-WATCHER", street=n)
    st3, _ = presence(st, "P-DELVE-1#1")
    assert leader in st3.horror_discard


def test_FW_PRES_03_FW_AI_05_wrath_sleeps_then_uses_the_top_unique() -> None:
    st = ally()
    set_wall(st, "W-6")
    gates = len(st.gates)
    _st2, ev = presence(st, "P-WRATH#1")
    assert "slumbers: nothing happens" in texts(ev)
    assert "Twin Maw" not in texts(ev)
    set_stage(st, "eye_opens")
    for i in st.investigators:
        set_hand(st, i.id, "M-C", "M-F")
    st3, ev = presence(st, "P-WRATH#1")
    assert len(st3.gates) == gates  # the top Unique (lose, lose), never the Gate one


def test_FW_PRES_04_FW_AI_03_destroy_most_symbols_ties_to_the_active() -> None:
    st = ally(n=2)
    h = put_horror(st, "H-GATEKEEPER", attached=("M-C", "M-CF"))
    st2, _ev = presence(st, "P-DESTROY#1")
    att = Engine(st2).on_streets(h).attached  # type: ignore[union-attr]
    assert [st2.marble_cards[m] for m in att] == ["M-C"]
    put_horror(st, "H-BRUTE", attached=("M-CS",))
    st3, _ = presence(st, "P-DESTROY#1")
    assert prompt(st3) == "destroy_tie" and st3.prompts[-1].seats == ["s1"]  # i1's seat
    assert len(options(st3)) == 2


def test_FW_PRES_04_FW_AMB_17_nothing_to_destroy_elected_may_regroup() -> None:
    st = ally()
    st2, ev = presence(st, "P-DESTROY#1")
    assert prompt(st2) == "elect" and "Elected Investigator may Regroup" in texts(ev)


def test_FW_TURN_06_FW_INSTR_05_the_failed_action_ends_before_the_election() -> None:
    """Stop 63's demo: a Presence card The Wall could not complete left an Investigator with
    no Marble; the election came inside that Action, and she Regrouped instead of going
    Insane. FW-TURN-06: the Elected Regroup is an Action of its own, so the failed one ends
    first (she is driven Insane, a Gate opens) and only the sane may be Elected."""
    st = ally(n=2)
    empty = st.investigators[1]
    st.marble_deck.extend(empty.hand)
    empty.hand = []
    gates = len(st.gates)
    st2, ev = presence(st, "P-DESTROY#1")
    assert inv(st2, empty.id).insane and len(st2.gates) == gates + 1
    assert prompt(st2) == "elect" and empty.id not in {a.params["inv"] for a in options(st2)}
    told = texts(ev)
    assert told.index("driven Insane") < told.index("Elected Investigator may Regroup")
    # A game begun before the ruling elects at once, as it was played (replays alike).
    old = st.model_copy(update={"elect_after_action": False}, deep=True)
    st3, _ = presence(old, "P-DESTROY#1")
    assert prompt(st3) == "elect" and empty.id in {a.params["inv"] for a in options(st3)}


def test_FW_PRES_05_FW_PRES_06_trouble_on_the_streets() -> None:
    st = ally()
    for i in st.investigators:
        set_hand(st, i.id, "M-C", "M-F", "M-S")
    (c,) = stack_horrors(st, "H-CULTIST")
    st2, _ = presence(st, "P-TROUBLE-4#1")
    assert Engine(st2).on_streets(c).street == 4  # type: ignore[union-attr]
    st2.streets[0].drained = True
    st3, ev = presence(st2, "P-TROUBLE-4#1")
    assert not st3.streets[0].drained and "no longer Drained" in texts(ev)
    st4, ev = presence(st3, "P-TROUBLE-4#1")
    while prompt(st4) in ("lose_choice", "holy_window"):
        o = options(st4)[-1] if prompt(st4) == "holy_window" else options(st4)[0]
        st4, more = answer(st4, o.kind, **o.params)
        ev += more
    assert "Triggered" in texts(ev) and " loses " in texts(ev)
    assert not st4.streets[0].drained  # FW-PRES-06
    leader = put_horror(st, "H-CULT-LEADER", street=5)
    st5, ev = presence(st, "P-TROUBLE-5#1")
    assert "nothing happens" in texts(ev) and prompt(st5) is None and leader


def test_FW_PRES_05_FW_AMB_17_a_ghoul_with_every_street_taken_does_nothing() -> None:
    """Stop 64's demo: a Trouble on a Ghoul with all five Streets taken took a Marble, found a
    Ghoul, discarded it and then handed the Investigators a free Elected Regroup (seven in one
    game). Its Trigger cannot complete (FW-GAP-11), so Trouble does nothing (FW-PRES-05) and a
    Delved Ghoul is discarded unused (FW-PRES-02): no Marble lost, no Regroup (FW-AMB-17)."""
    st = ally()
    for i in st.investigators:
        set_hand(st, i.id, "M-C", "M-F", "M-S")
    for n in (1, 2, 3, 4):
        put_horror(st, "H-WATCHER", street=n)
    put_horror(st, "H-GHOUL", street=5)
    hands = {i.id: list(i.hand) for i in st.investigators}
    st2, ev = presence(st, "P-TROUBLE-5#1")
    assert ("Ghoul cannot use its Trigger Action (every Street is taken): nothing happens"
            in texts(ev))
    assert {i.id: i.hand for i in st2.investigators} == hands and prompt(st2) is None
    (ghoul,) = stack_horrors(st, "H-GHOUL")
    st3, ev = presence(st, "P-DELVE-1#1")
    assert ghoul in st3.horror_discard and prompt(st3) is None
    assert {i.id: i.hand for i in st3.investigators} == hands
    assert "Regroup" not in texts(ev)
    # A free Street: the Trigger is used whole, the found Ghoul goes to it.
    third = next(h for h in st.streets if h.street == 3)
    st.streets.remove(third)
    st.horror_discard.append(third.id)
    st4, ev = presence(st, "P-TROUBLE-5#1")
    while prompt(st4) in ("lose_choice", "holy_window"):
        o = options(st4)[-1] if prompt(st4) == "holy_window" else options(st4)[0]
        st4, more = answer(st4, o.kind, **o.params)
        ev += more
    assert "Ghoul is found" in texts(ev) and {h.street for h in st4.streets} == {1, 2, 3, 4, 5}


def test_FW_AMB_17_a_trouble_trigger_stopping_part_way_gives_no_regroup() -> None:
    """A Trouble's Trigger whose Target has nothing to lose stops part way: Trouble then does
    nothing more, and the Elected Regroup (the general Wall failure) does not follow."""
    st = ally()
    for i in st.investigators:
        set_hand(st, i.id)
    put_horror(st, "H-CULTIST", street=4)
    other = next(i for i in st.investigators if i.id != st.target)
    set_hand(st, other.id, "M-C")  # someone holds a Marble, the Target none: usable, it stops
    st2, ev = presence(st, "P-TROUBLE-4#1")
    assert "Triggered" in texts(ev)
    assert prompt(st2) != "elect" and "may Regroup" not in texts(ev)


# ---------------------------------------------------------------- Streets
def test_FW_STREET_01_auras_only_while_occupied() -> None:
    st = ally()
    i1 = inv(st, "i1")
    assert Engine(st).action_cost("give_or_trade", i1) == 1
    put_horror(st, "H-CULTIST", street=2)
    assert Engine(st).action_cost("give_or_trade", i1) == 2
    v = GAME.view(st, None)["streets"]
    assert [s["aura_active"] for s in v] == [False, True, False, False, False]


def test_FW_STREET_01_regroup_draws_one_fewer_on_street_four() -> None:
    st = ally()
    set_card(st, "i1", "INV-09")
    set_hand(st, "i1", "M-C", "M-F", "M-S")
    put_horror(st, "H-CULTIST", street=4)
    st, _ = do(st, "s1", "regroup", inv="i1")
    labels = [GAME.describe(st, "s1", a) for a in options(st)]
    assert any("Draw 1 Marble" in x for x in labels) and any("Hand Limit (2 Marbles)" in x
                                                               for x in labels)


def test_FW_STREET_01_street_five_adds_doom_each_wall_turn() -> None:
    st = ally()
    st.wall_turns = 5
    put_horror(st, "H-WATCHER", street=5, drained=True)
    st, ev = do(st, "s1", "pass", inv="i1")
    assert "+1 Doom to The Wall's Action Pool (Street 5's Aura)" in texts(ev)  # which Street


def test_FW_STREET_01_FW_HORROR_04_street_three_aura_is_said_with_the_cost() -> None:
    """A demo game: a Horror on Street 3 needed a Science its card does not print, and no
    line said why. Its arrival, its cost in words and advice, and its Defeat name the
    Aura, as the Regroup line names Street 4's."""
    aura = "Street 3's Aura: 1 more Science in its Defeat Cost"
    st = ally()
    stack_horrors(st, "H-CULTIST")  # Defeat: Force
    _st2, ev = presence(st, "P-TROUBLE-3#1")
    assert f"Cultist is placed On the Streets on Street 3 ({aura})." in texts(ev)
    st = ally()
    put_horror(st, "H-CULTIST", street=3)
    view = GAME.view(st, None)
    assert view["horrors"][0]["aura_text"] == aura
    assert any(f"defeat needs 1 Force and 1 Science ({aura})" in line
               for line in status_lines(st, None, {}, None))
    advice = GAME.advice(view, "s1") or ""
    assert f"still needs a Force and a Science to be Defeated ({aura})" in advice, advice
    set_hand(st, "i1", "M-F", "M-S")
    force, science = inv(st, "i1").hand
    st, ev = do(st, "s1", "intervene", inv="i1", marble=force)
    assert "Defeated" not in texts(ev)
    st, ev = do(st, "s1", "intervene", inv="i1", marble=science)
    assert f"Cultist is Defeated ({aura})!" in texts(ev), texts(ev)
    # Elsewhere, nothing is added.
    st = ally()
    put_horror(st, "H-CULTIST", street=2)
    assert GAME.view(st, None)["horrors"][0]["aura_text"] == ""
    assert "Aura" not in (GAME.advice(GAME.view(st, None), "s1") or "")


def test_FW_STREET_03_FW_AI_02_lowest_street_first() -> None:
    st = ally()
    set_wall(st, "W-4")
    set_stage(st, "eye_opens")
    low = put_horror(st, "H-CULTIST", street=2)
    high = put_horror(st, "H-CULTIST", street=4)
    st, _ev = presence(st, "P-WRATH#1")
    assert Engine(st).on_streets(low) is None and Engine(st).on_streets(high) is not None


# ---------------------------------------------------------------- the Target Token
def test_FW_TARGET_01_02_03_the_holder_then_anticlockwise() -> None:
    st = ally(n=2)  # 4 Investigators, Target Token on i4
    for i in st.investigators:
        set_hand(st, i.id, "M-C", "M-F", "M-S")
    assert st.target == "i4"
    h = put_horror(st, "H-RESTLESS-SPIRIT", street=1)
    st, ev = presence(st, "P-TROUBLE-1#1")
    while prompt(st) in ("lose_choice", "holy_window"):
        o = options(st)[-1] if prompt(st) == "holy_window" else options(st)[0]
        st, more = answer(st, o.kind, **o.params)
        ev += more
    assert [len(inv(st, i).hand) for i in ("i1", "i2", "i3", "i4")] == [3, 3, 2, 2]
    assert st.target == "i2" and h
    assert GAME.view(st, None)["target"] == "i2"


def test_FW_TARGET_04_the_insane_are_skipped() -> None:
    st = ally(n=2)
    for i in st.investigators:
        set_hand(st, i.id, "M-C", "M-F")
    x = inv(st, "i3")
    st.marble_deck.extend(x.hand)
    x.hand = []
    x.insane = True
    eng = Engine(st)
    assert eng.take_target() == "i4" and st.target == "i2"


def test_FW_TARGET_04_no_eligible_target_cannot_complete() -> None:
    st = ally()
    for i in st.investigators:
        st.marble_deck.extend(i.hand)
        i.hand = []
        i.insane = True
    eng = Engine(st)
    fr = Frame(id=1, src="x", side="wall")
    assert eng.resolve_who("target", fr, Step(op="eff")) == []


def test_FW_TARGET_05_passes_by_investigator_not_by_player() -> None:
    st = ally(n=2)  # i1 s1, i2 s2, i3 s1, i4 s2
    eng = Engine(st)
    assert eng.take_target() == "i4" and st.target == "i3"


# ---------------------------------------------------------------- AI decision rules
def test_FW_AI_01_04_FW_AMB_06_chosen_by_the_wall_is_random_in_alliance() -> None:
    st = ally()
    for i in st.investigators:
        set_hand(st, i.id, "M-C", "M-F")
    put_horror(st, "H-WATCHER", street=1)
    st, ev = presence(st, "P-TROUBLE-1#1")
    assert prompt(st) is None and " loses " in texts(ev)
    assert len(inv(st, "i3").hand) == 1  # the Target Token holder


def test_FW_AI_06_may_options_that_favour_the_wall_are_taken() -> None:
    st = ally()
    set_gates(st, 5)
    st, _ev = presence(st, "P-WRATH#1")  # nothing; now open a Gate via a card
    eng = Engine(st)
    eng.later(Step(op="open_gate"))
    eng.run()
    assert st.doom_deferred == 1 and prompt(st) is None


def test_FW_AI_07_other_wall_choices_are_seeded_random() -> None:
    st = ally(n=2)
    for i in st.investigators:
        set_hand(st, i.id, "M-C")
    picks = set()
    for seed in range(8):
        s = st.model_copy(deep=True)
        s.rng.state = seed
        fr = Frame(id=1, src="x", side="wall")
        picks.add(tuple(Engine(s).resolve_who("chosen_investigator", fr, Step(op="eff")) or []))
    assert len(picks) > 1 and not st.prompts


# ---------------------------------------------------------------- end of the game
def test_FW_END_04_the_first_condition_ends_everything_at_once() -> None:
    st = wall_turn(new_game("conflict", 2, 1), doom=5)
    clear_streets(st)
    set_gates(st, 4)
    set_stage(st, "eye_opens")
    put_horror(st, "H-CULTIST")
    leader = put_horror(st, "H-CULT-LEADER")
    st, _ev = do(st, "s1", "trigger", horror=leader)
    res = GAME.result(st)
    assert res is not None and res.winners == ["s1"]
    assert not st.queue and not st.prompts and GAME.to_act(st) == set()
    assert not Engine(st).on_streets(leader).drained  # type: ignore[union-attr]
    with pytest.raises(IllegalAction) as err:
        GAME.apply(st, "s1", act("end_turn"))
    assert err.value.rule == "CORE-OVER"


def test_FW_END_05_alliance_wins_and_loses_together() -> None:
    st = ally(n=3)
    set_gates(st, 1)
    set_hand(st, "i1", "M-C", "M-F", "M-S")
    st, _ = do(st, "s1", "close_gate", inv="i1")
    for m in inv(st, "i1").hand[:3]:
        st, _ = answer(st, "select", marble=m)
    st, _ = answer(st, "confirm")
    res = GAME.result(st)
    assert res is not None and sorted(res.winners) == ["s1", "s2", "s3"] and res.losers == []
