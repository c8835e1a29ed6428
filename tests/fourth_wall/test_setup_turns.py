"""Scenario tests: components, players, setup, turn order, the Turn Tracker, Action Points.

Named by the spec rule ids they check (../shared/spec/fourth-wall.md §1).
"""

from __future__ import annotations

from collections import Counter

import pytest

from rules.core.errors import IllegalAction
from rules.core.types import act
from rules.fourth_wall.content import default_pack
from rules.fourth_wall.engine import Engine
from rules.fourth_wall.game import GAME
from tests.fourth_wall.helpers import (
    answer,
    clear_streets,
    do,
    end_wall_turn,
    inv,
    inv_turn,
    kinds,
    new_game,
    prompt,
    put_horror,
    seats,
    set_card,
    set_gates,
    set_hand,
    set_stage,
    set_wall,
    setup,
    texts,
    wall_turn,
)

PACK = default_pack()


# ---------------------------------------------------------------- components
def test_FW_COMP_01_02_every_card_is_in_the_game() -> None:
    st = new_game("conflict", 2, 3)
    assert len(st.marble_cards) == 54 and len(st.horror_cards) == 36
    assert len({st.wall_card, *st.gates, *st.gate_supply}) == 6
    cards = st.investigator_deck + [i.card for i in st.investigators if i.card]
    assert len(cards) == 12
    al = new_game("alliance", 1, 3)
    assert len(al.presence_deck) + len(al.presence_discard) == 9
    assert len(PACK.streets) == 5
    assert PACK.options.doom_tokens == 6  # informational only (FW-DOOM-07)


def test_FW_COMP_03_three_symbols_count_every_printed_symbol() -> None:
    st = new_game("conflict", 2, 3)
    eng = Engine(st)
    symbols = {s for m in st.marble_cards for s in eng.marble(m).symbols}
    assert symbols == {"clue", "force", "science"}
    two = next(m for m in st.marble_cards if st.marble_cards[m] == "M-CF")
    assert len(eng.marble(two).symbols) == 2


def test_FW_COMP_04_05_06_07_card_fields_reach_the_view() -> None:
    st = new_game("conflict", 2, 3)
    set_stage(st, "eye_opens")
    put_horror(st, "H-GATEKEEPER")
    v = GAME.view(st, "s2")
    i1 = v["investigators"][0]
    assert i1["name"] and i1["sanity"] and i1["unique"]["cost"] >= 0 and i1["exploit"]
    assert all({"name", "symbols", "text"} <= set(m) for m in i1["hand"])
    assert v["wall"]["name"] and v["wall"]["uniques"] and v["wall"]["aura"] is not None
    h = v["horrors"][0]
    assert h["manifest"] == {"doom": 4, "drain": True}
    assert h["defeat_printed"] == ["clue", "force", "science"] and h["trigger_cost"] == 3


def test_FW_COMP_08_components_by_mode() -> None:
    c = new_game("conflict", 2, 3)
    assert len(c.wall_hand) == 5 and not c.presence_deck and c.target is None
    assert GAME.view(c, None)["scourge"] == {"on": None, "on_name": None}
    assert GAME.view(c, None)["streets"] is None
    a = new_game("alliance", 2, 3)
    assert not a.wall_hand and a.scourge is None and a.target is not None
    assert len(GAME.view(a, None)["streets"]) == 5
    assert "brood" not in kinds(a, a.seats[0])


def test_FW_COMP_09_at_most_five_gates() -> None:
    st = new_game("conflict", 2, 3, gates=5)
    assert len(st.gates) == 5 and not st.gate_supply
    assert GAME.view(st, None)["gates"]["pentagram"] == [True] * 5


# ---------------------------------------------------------------- players and seats
def test_FW_PLAY_01_one_player_three_two_players_four_interleaved() -> None:
    one = new_game("conflict", 2, 1)
    assert [i.seat for i in one.investigators] == ["s2", "s2", "s2"]
    two = new_game("conflict", 3, 1)
    assert [i.seat for i in two.investigators] == ["s2", "s3", "s2", "s3"]
    solo = new_game("alliance", 1, 1)
    assert len(solo.investigators) == 3
    duo = new_game("alliance", 2, 1)
    assert [i.seat for i in duo.investigators] == ["s1", "s2", "s1", "s2"]


def test_FW_PLAY_02_player_counts() -> None:
    assert GAME.player_counts(GAME.options_model(mode="conflict")) == set(range(2, 8))
    assert GAME.player_counts(GAME.options_model(mode="alliance")) == set(range(1, 7))
    assert GAME.player_counts(GAME.options_model(mode="alliance", investigators=3)) == {1, 2, 3}
    five = new_game("alliance", 5, 2)
    assert len(five.investigators) == 5 and five.tracker_size == 5
    with pytest.raises(IllegalAction) as err:
        GAME.setup(seats(8), GAME.options_model(mode="conflict"), 1)
    assert err.value.rule == "FW-PLAY-02"


def test_FW_PLAY_03_a_seat_with_several_investigators_names_the_one_acting() -> None:
    st = inv_turn(new_game("conflict", 2, 1), "i2")
    legal = GAME.legal_actions(st, "s2")
    assert legal and all(a.params.get("inv") == "i2" for a in legal)
    with pytest.raises(IllegalAction) as err:
        GAME.apply(st, "s2", act("search", inv="i1"))
    assert err.value.rule == "FW-PLAY-03"
    label = GAME.describe(st, "s2", legal[0])
    assert label.startswith(Engine(st).inv_name(inv(st, "i2")) + ": ")


# ---------------------------------------------------------------- setup
def test_FW_SETUP_01_decks_are_shuffled_by_the_seed() -> None:
    a, b = setup("conflict", 2, 1), setup("conflict", 2, 2)
    assert a.marble_deck != b.marble_deck and a.investigator_deck != b.investigator_deck
    assert setup("conflict", 2, 1).model_dump_json() == a.model_dump_json()


def test_FW_SETUP_02_first_game_removes_the_street_magician_and_FW_AMB_10() -> None:
    st = setup("conflict", 2, 1, first_game=True)
    assert st.removed_investigators == ["INV-12"]
    dealt = [c for i in st.investigators for c in i.dealt]
    assert "INV-12" not in dealt + st.investigator_deck
    six = setup("alliance", 6, 1, first_game=True)
    assert six.removed_investigators == []  # 11 cards cannot deal 12 (FW-AMB-10)


def test_FW_SETUP_03_roles_by_mode() -> None:
    c = new_game("conflict", 3, 1)
    assert c.wall_seat == "s1" and {i.seat for i in c.investigators} == {"s2", "s3"}
    a = new_game("alliance", 3, 1)
    assert a.wall_seat is None and {i.seat for i in a.investigators} == {"s1", "s2", "s3"}


def test_FW_SETUP_04_deal_two_keep_one_and_FW_GAP_09_shuffle_back() -> None:
    st = setup("conflict", 3, 4)
    assert prompt(st) == "keep_investigator"
    assert all(len(i.dealt) == 2 for i in st.investigators)
    first = st.investigators[0]
    keep, other = first.dealt
    assert st.prompts[-1].seats == [first.seat]
    st, _ = answer(st, "keep", card=keep)
    assert inv(st, "i1").card == keep and other in st.investigator_deck
    assert prompt(st) == "keep_investigator" and st.prompts[-1].seats == ["s3"]
    with pytest.raises(IllegalAction):
        GAME.apply(st, "s3", act("keep", card=keep))


def test_FW_SETUP_05_06_marbles_equal_sanity_which_is_the_hand_limit() -> None:
    st = new_game("conflict", 3, 4)
    eng = Engine(st)
    for i in st.investigators:
        sanity = eng.investigator_card(i.card or "").sanity
        assert len(i.hand) == sanity == eng.hand_limit(i)


def test_FW_SETUP_07_the_team_sees_every_hand_the_wall_and_public_do_not() -> None:
    st = new_game("conflict", 3, 4)
    for s in ("s2", "s3"):
        assert all(i["hand"] is not None for i in GAME.view(st, s)["investigators"])
    assert all(i["hand"] is None for i in GAME.view(st, "s1")["investigators"])
    assert all(i["hand"] is None for i in GAME.view(st, None)["investigators"])
    assert "(shared by the team" in (GAME.private_summary(st, "s2") or "")


def test_FW_SETUP_08_starting_gates_option() -> None:
    for n in (3, 4, 5):
        assert len(new_game("conflict", 2, 1, gates=n).gates) == n
        assert len(new_game("alliance", 1, 1, gates=n).gates) == n
    with pytest.raises(ValueError):
        GAME.options_model(mode="conflict", gates=2)


def test_FW_SETUP_09_each_investigator_has_hand_card_reference() -> None:
    st = new_game("alliance", 2, 5)
    for i in GAME.view(st, "s1")["investigators"]:
        assert i["card"] and i["hand_count"] == len(i["hand"]) and i["text"]


def test_FW_SETC_01_02_wall_is_the_first_seat_or_the_option() -> None:
    st = new_game("conflict", 3, 1, wall_seat=1)
    assert st.wall_seat == "s2"
    assert [i.seat for i in st.investigators] == ["s3", "s1", "s3", "s1"]  # left of The Wall
    assert GAME.seat_label(st, "s2") == "Wall player"


def test_FW_SETC_03_FW_SETA_08_tracker_side_by_investigators() -> None:
    assert new_game("conflict", 2, 1).tracker_size == 3
    assert new_game("conflict", 3, 1).tracker_size == 4
    assert new_game("alliance", 6, 1).tracker_size == 6
    v = GAME.view(new_game("alliance", 2, 1), None)["tracker"]
    assert [r["rank"] for r in v["ranks"]] == [8, 7, 6, 5, 4, 3, 2, 1, 0]


def test_FW_SETC_04_FW_SETA_04_the_wall_card_is_secret() -> None:
    st = new_game("conflict", 2, 1)
    name = Engine(st).wall().name
    assert name not in str(GAME.view(st, None)) and name not in str(GAME.view(st, "s2"))
    assert GAME.view(st, "s1")["wall_card"]["name"] == name
    assert name in (GAME.private_summary(st, "s1") or "")
    al = new_game("alliance", 2, 1)
    hidden = Engine(al).wall().name
    assert all(hidden not in str(GAME.view(al, s)) for s in (None, "s1", "s2"))


def test_FW_SETC_05_three_gates_and_a_supply() -> None:
    st = new_game("conflict", 2, 1)
    assert len(st.gates) == 3 and len(st.gate_supply) == 2
    assert st.wall_card not in st.gates + st.gate_supply


def test_FW_SETC_06_the_wall_draws_five_secret_horrors() -> None:
    st = new_game("conflict", 2, 1)
    assert len(st.wall_hand) == 5
    assert GAME.view(st, None)["wall"]["hand_count"] == 5
    assert "hand" not in GAME.view(st, None) and len(GAME.view(st, "s1")["hand"]) == 5


def test_FW_SETC_07_difficulty_four_or_five_gates() -> None:
    assert len(new_game("conflict", 2, 1, gates=4).gates) == 4


def test_FW_SETA_01_02_03_alliance_decks_and_streets() -> None:
    st = setup("alliance", 2, 1)
    assert len(st.presence_deck) == 9 and st.wall_seat is None
    v = GAME.view(st, None)
    assert [s["number"] for s in v["streets"]] == [1, 2, 3, 4, 5]
    assert all(s["horror"] is None for s in v["streets"])


def test_FW_SETA_05_three_gates_in_alliance() -> None:
    assert len(setup("alliance", 1, 1).gates) == 3


def test_FW_SETA_06_07_lead_investigator_first_target_token_to_the_last() -> None:
    st = setup("alliance", 2, 1)
    assert st.target == "i4" and st.turn_index == 0


# ---------------------------------------------------------------- turn order
def test_FW_TURN_01_02_the_wall_before_each_investigator_clockwise() -> None:
    st = new_game("conflict", 2, 7)
    order = []
    for _ in range(7):
        assert st.phase == "wall"
        order.append("W")
        st, _ = do(st, "s1", "end_turn")
        if prompt(st):
            break
        assert st.phase == "investigator"
        order.append(Engine(st).active().id)  # type: ignore[union-attr]
        st, _ = do(st, "s2", "pass", inv=Engine(st).active().id)  # type: ignore[union-attr]
        if st.phase == "wall" and st.wall_mode is None:
            st, _ = do(st, "s1", "wrath")
    assert order[:6] == ["W", "i1", "W", "i2", "W", "i3"]


def test_FW_TURN_03_the_tracker_advances_after_the_last_investigator() -> None:
    st = inv_turn(new_game("conflict", 2, 7), "i3")
    assert st.rank_index == 0
    st, ev = do(st, "s2", "pass", inv="i3")
    assert st.rank_index == 1 and st.round == 2
    assert "Turn Tracker moves to 8" in texts(ev)
    st2 = inv_turn(new_game("conflict", 2, 7), "i2")
    st2, _ = do(st2, "s2", "pass", inv="i2")
    assert st2.rank_index == 0


def test_FW_TURN_04_FW_ALLY_01_alliance_wall_turn_at_each_investigator_start() -> None:
    st = inv_turn(new_game("alliance", 1, 2), "i1")
    clear_streets(st)
    st.doom = 0
    st, ev = do(st, "s1", "pass", inv="i1")
    assert "Presence gathers: +2 Doom" in texts(ev)
    assert st.wall_turns >= 2


def test_FW_TURN_05_an_insane_investigator_keeps_its_turn_and_is_replaced() -> None:
    st = inv_turn(new_game("conflict", 2, 2), "i1")
    i2 = inv(st, "i2")
    st.marble_deck.extend(i2.hand)
    i2.hand = []
    i2.insane = True
    old = i2.card
    st, ev = do(st, "s2", "pass", inv="i1")
    assert st.phase == "wall"  # the Wall turn before i2 still happens
    st, ev = end_wall_turn(st)
    i2 = inv(st, "i2")
    assert not i2.insane and i2.card != old and old in st.investigator_deck
    assert len(i2.hand) == Engine(st).investigator_card(i2.card or "").sanity
    assert Engine(st).active().id == "i2" and "returns as" in texts(ev)  # type: ignore[union-attr]


def test_FW_TURN_06_end_of_action_checks_run_after_a_wall_action() -> None:
    st = wall_turn(new_game("conflict", 2, 2), doom=3)
    clear_streets(st)
    h = put_horror(st, "H-CULTIST")
    for i in ("i2", "i3"):
        inv(st, i).insane = True
        st.marble_deck.extend(inv(st, i).hand)
        inv(st, i).hand = []
    set_hand(st, "i1", "M-C")
    gates = len(st.gates)
    st, _ = do(st, "s1", "trigger", horror=h)
    assert prompt(st) == "lose_choice" or inv(st, "i1").insane
    if prompt(st):
        st, _ = answer(st, "choose_marble", marble=inv(st, "i1").hand[0])
    assert inv(st, "i1").insane and len(st.gates) == gates + 1


# ---------------------------------------------------------------- the Turn Tracker
def test_FW_TRACK_01_ranks_and_stages() -> None:
    st = new_game("conflict", 2, 1)
    eng = Engine(st)
    stages = [s for _, s in eng.layout_ranks()]
    assert stages == ["slumber"] * 4 + ["eye_opens"] * 3 + ["crescendo"] * 2 + ["awakens"]
    assert GAME.view(st, None)["tracker"]["stage"] == "slumber"


def _round_end(st):  # type: ignore[no-untyped-def]
    st = inv_turn(st, st.investigators[-1].id)
    seat = st.investigators[-1].seat
    return do(st, seat, "pass", inv=st.investigators[-1].id)


def test_FW_TRACK_02_slumber_no_unique_no_aura() -> None:
    st = wall_turn(new_game("conflict", 2, 1), doom=5)
    set_wall(st, "W-1")
    clear_streets(st)
    h = put_horror(st, "H-CULTIST")
    assert "wall_unique" not in kinds(st, "s1")
    assert Engine(st).defeat_cost(h) == Counter({"force": 1})  # the Aura sleeps
    set_stage(st, "eye_opens")
    assert Engine(st).defeat_cost(h) == Counter({"force": 1, "clue": 1})
    assert "wall_unique" in kinds(st, "s1")


def test_FW_TRACK_03_an_eye_opens_reveals_and_enables_unique_and_aura() -> None:
    st = new_game("conflict", 2, 1)
    st.rank_index = 3
    st, ev = _round_end(st)
    assert st.revealed and "An Eye Opens: The Wall is revealed" in texts(ev)
    name = Engine(st).wall().name
    assert GAME.view(st, None)["wall"]["name"] == name
    st = wall_turn(st, doom=5)
    assert "wall_unique" in kinds(st, "s1")


def test_FW_TRACK_04_FW_END_02_five_gates_when_an_eye_opens() -> None:
    st = new_game("conflict", 2, 1)
    st.rank_index = 3
    set_gates(st, 5)
    st, _ = _round_end(st)
    res = GAME.result(st)
    assert res is not None and res.winners == ["s1"] and "An Eye Opens" in res.reason


def test_FW_TRACK_05_06_07_08_the_crescendo() -> None:
    st = new_game("conflict", 2, 1)
    st.rank_index = 6
    st.revealed = True
    clear_streets(st)
    put_horror(st, "H-CULTIST", drained=True)
    st, _ev = _round_end(st)
    assert Engine(st).stage() == "crescendo" and not st.streets[0].drained
    assert st.phase == "wall" and st.wall_mode == "wrath"  # no Brood (FW-TRACK-06)
    assert st.doom == 2  # 1 + 1 (FW-TRACK-07)
    st, _ = do(st, "s1", "end_turn")
    assert st.ap == 3  # FW-TRACK-08


def test_FW_TRACK_09_FW_END_03_the_ancient_one_awakens() -> None:
    st = new_game("alliance", 1, 1)
    st.rank_index = 8
    st.revealed = True
    st, _ev = _round_end(st)
    res = GAME.result(st)
    assert res is not None and res.winners == [] and "Awakens" in res.reason
    assert GAME.legal_actions(st, "s1") == []


def test_FW_TRACK_10_stages_are_cumulative() -> None:
    st = new_game("conflict", 2, 1)
    set_stage(st, "crescendo")
    eng = Engine(st)
    assert st.revealed and eng.stage_at_least("eye_opens")
    assert GAME.view(st, None)["wall"]["name"] is not None


# ---------------------------------------------------------------- Action Points
def test_FW_AP_01_two_points_repeatable_unique_once_unspent_lost() -> None:
    st = inv_turn(new_game("conflict", 2, 1), "i1")
    set_card(st, "i1", "INV-07")  # Unique costs 1 AP (INV-06 has a 0-AP one)
    set_hand(st, "i1", "M-C", "M-F")
    st, _ = do(st, "s2", "search", inv="i1")
    assert st.ap == 1
    st, _ = do(st, "s2", "search", inv="i1")
    assert st.phase == "wall"  # no AP left: the turn ends, nothing is banked
    st = inv_turn(st, "i2")
    st.uniques_used = ["i2"]
    assert "unique" not in kinds(st, "s2")


def test_FW_AP_02_no_action_without_enough_points_or_a_target() -> None:
    st = inv_turn(new_game("conflict", 2, 1), "i1", ap=1)
    clear_streets(st)
    k = kinds(st, "s2")
    assert "regroup" not in k and "close_gate" not in k and "intervene" not in k
    with pytest.raises(IllegalAction) as err:
        GAME.apply(st, "s2", act("regroup", inv="i1"))
    assert err.value.rule == "FW-AP-02"


def test_FW_AP_03_start_of_turn_unregroups() -> None:
    st = inv_turn(new_game("conflict", 2, 1), "i3")
    inv(st, "i1").regrouped = True
    st, _ = do(st, "s2", "pass", inv="i3")
    st, _ = end_wall_turn(st)
    assert st.phase == "investigator" and not inv(st, "i1").regrouped


def test_FW_AP_04_FW_INSANE_04_insane_on_your_own_turn_ends_it() -> None:
    st = inv_turn(new_game("conflict", 2, 1), "i1")
    clear_streets(st)
    (elder,) = set_hand(st, "i1", "M-ELDER")
    st, ev = do(st, "s2", "utilise", inv="i1", marble=elder)
    assert inv(st, "i1").insane and st.phase == "wall"
    assert "driven Insane" in texts(ev) and len(st.gates) == 3  # closed one, opened one
    assert st.ap == 0


def test_counts_are_conserved_in_a_setup_state() -> None:
    st = new_game("alliance", 4, 9)
    assert not GAME.invariants(st)
    assert Counter(st.marble_cards.values())["M-C"] == 10
