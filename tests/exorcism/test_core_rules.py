"""Scenario tests for the core game, named by the spec rule ids they check."""

from __future__ import annotations

import json

import pytest

from rules.core.errors import IllegalAction
from rules.core.types import act
from rules.exorcism.content import default_pack
from rules.exorcism.engine import Engine
from rules.exorcism.game import GAME
from tests.exorcism.helpers import (
    add_darkness,
    at_rest,
    clear_board,
    do,
    give,
    kinds,
    legal,
    new_game,
    place_room,
    put,
    run_steps,
    set_character,
    texts,
    top_haunt,
)

PACK = default_pack()


def quiet(seed: int = 1, n: int = 2):
    st = new_game("core", n=n, seed=seed)
    clear_board(st)
    return st


# ---------------------------------------------------------------- components and setup
def test_EX_PLAY_01_02_03_player_counts() -> None:
    assert GAME.player_counts(GAME.options_model(mode="core")) == {2, 3, 4, 5}
    assert GAME.player_counts(GAME.options_model(mode="one_vs_all")) == {3, 4, 5}
    assert GAME.player_counts(GAME.options_model(mode="solo")) == {1}
    with pytest.raises(IllegalAction) as err:
        GAME.setup(["a"], GAME.options_model(mode="core"), 1)
    assert err.value.rule == "EX-PLAY-01"


def test_EX_SETUP_01_house_grid_locked_rooms_face_down_fixed_points() -> None:
    st = GAME.setup(["s1", "s2"], GAME.options_model(), 3)
    house = [c for c in st.cells.values() if c.kind == "house"]
    assert len(house) == 16
    locked = [c for c in house if c.face_down]
    assert len(locked) == 5 and all(PACK.is_locked_room(c.card or "") for c in locked)
    assert len(st.unused_locked) == 13
    assert st.cells["attic"].card is None and st.cells["foyer"].card == "FOYER"
    assert (st.cells["attic"].row, st.cells["attic"].col) == (0, 2)
    assert (st.cells["foyer"].row, st.cells["foyer"].col) == (5, 3)


def test_EX_SETUP_02_03_04_decks_tasks_and_clock() -> None:
    st = GAME.setup(["s1", "s2"], GAME.options_model(), 3)
    assert st.tool_piles == {t: 15 for t in st.tool_piles} and len(st.tool_piles) == 5
    assert len(st.plan_deck) == 30 and len(st.available_tasks) == 3
    assert len(st.task_deck) == 27
    assert st.dice == [5, 6, 6, 6, 6, 6, 6, 6]  # the first turn already reduced the timer
    assert st.track_index == 0 and Engine(st).track_value() == 1


def test_EX_SETUP_05_characters_dealt_lookouts_and_EX_AMB_45_out_of_play() -> None:
    st = GAME.setup(["s1", "s2", "s3"], GAME.options_model(), 5)
    assert all(i.character for i in st.investigators.values())
    assert len(st.lookouts) == 3 and len(st.out_of_play) == 2


def test_EX_SETUP_06_pawns_on_starting_locations_and_EX_GHOST_02_wraith_in_attic() -> None:
    st = GAME.setup(["s1", "s2"], GAME.options_model(), 9)
    for inv in st.investigators.values():
        start = PACK.character(inv.character or "").start
        assert st.cells[inv.cell or ""].card == start
    assert st.ghosts == {"wraith": "attic", "bull": None, "devourer": None}


def test_EX_SETUP_07_EX_TURN_07_first_player_random_and_points_zero() -> None:
    firsts = {GAME.setup(["s1", "s2", "s3"], GAME.options_model(), s).first_seat
              for s in range(12)}
    assert len(firsts) > 1
    st = GAME.setup(["s1", "s2"], GAME.options_model(), 1)
    assert st.points == 0 and len(st.haunt_deck) == 43


# ---------------------------------------------------------------- the clock
def test_EX_CLOCK_02_reduce_the_current_die_by_one_pip() -> None:
    st = quiet()
    st.dice = [3, 6, 6, 6, 6, 6, 6, 6]
    st2, ev = do(st, "s1", "pass")
    assert st2.dice[0] == 2 and "Time Die 1 shows 2" in texts(ev)


def test_EX_CLOCK_03_discard_die_at_one_pip_and_EX_CLOCK_04_phil() -> None:
    st = quiet()
    st.dice = [0, 0, 0, 1, 6, 6, 6, 6]  # 4 h 10 min
    st2, ev = do(st, "s1", "pass")
    assert st2.dice == [0, 0, 0, 0, 6, 6, 6, 6]
    assert "discarded" in texts(ev) and st2.phase == "actions"


def test_EX_TIME_01_action_icon_adds_exorcism_tokens_to_face_down_locked_rooms() -> None:
    st = quiet()
    st.dice = [1, 6, 6, 6, 6, 6, 6, 6]  # discarding die 1 uncovers hour 1
    st2, _ev = do(st, "s1", "pass")
    face_down = [c for c in st2.cells.values() if c.face_down]
    assert face_down and all(c.exorcism_tokens == 1 for c in face_down)
    assert all(c.exorcism_tokens == 0 for c in st2.cells.values() if not c.face_down)
    st3 = quiet()
    st3.dice = [0, 1, 6, 6, 6, 6, 6, 6]  # hour 2: no icon
    st4, _ = do(st3, "s1", "pass")
    assert all(c.exorcism_tokens == 0 for c in st4.cells.values())


def test_EX_CLOCK_05_48_turns_then_EX_TURN_04_loss_before_reducing() -> None:
    st = quiet()
    st.dice = [0, 0, 0, 0, 0, 0, 0, 1]
    st.ghosts["wraith"] = None
    st2, _ = do(st, "s1", "pass")  # the last die is discarded at the start of s2's turn
    assert st2.outcome is None and all(p == 0 for p in st2.dice)
    st3, ev = do(at_rest(st2, "s2"), "s2", "pass")
    assert st3.outcome == "lost" and "no Time Dice" in texts(ev)
    res = GAME.result(st3)
    assert res is not None and set(res.losers) == {"s1", "s2"} and not res.winners


def test_EX_TURN_04_EX_CLOCK_05_the_last_turn_is_announced_and_dawn_counts_no_new_round() -> None:
    """A stop 65 demo's One vs All: "Time Die 8 is discarded; 0 hours remain." then a full turn, no
    word that it was the last; and the recap said "In round 17, dawn has come" and "lasted 17
    rounds, 48 turns" of a game whose last header was "Turn 48 (round 16)"."""
    st = quiet()
    st.dice = [0, 0, 0, 0, 0, 0, 0, 1]
    st.ghosts["wraith"] = None
    st.round, st.game_turn = 16, 31
    st2, ev = do(st, "s1", "pass")  # s2's turn 32 starts: the last die is discarded
    assert "Time Die 8 is discarded; 0 hours remain: this is the last turn, and dawn comes " \
        "when it ends." in [e.text for e in ev], texts(ev)
    assert st2.round == 16
    st3, ev = do(at_rest(st2, "s2"), "s2", "pass")  # the 33rd turn would start round 17
    assert st3.outcome == "lost" and "no Time Dice" in texts(ev)
    assert st3.round == 16, st3.round
    res = GAME.result(st3)
    assert res is not None
    end = GAME.ending(st3, res, [], {})
    assert end.length.startswith("16 rounds, 32 turns"), end.length
    assert end.why.startswith("After round 16, dawn has come"), end.why


# ---------------------------------------------------------------- haunting
def test_EX_HAUNT_01_no_haunt_cards_in_round_one() -> None:
    st = quiet()
    st.round = 1
    deck = len(st.haunt_deck)
    st2, _ = do(st, "s1", "pass")
    if st2.round == 1:
        assert len(st2.haunt_deck) == deck


def test_EX_HAUNT_02_draw_as_many_cards_as_the_darkness_track_value() -> None:
    st = quiet()
    st.round = 2
    st.track_index = 8  # value 3
    st.ghosts["wraith"] = None
    standard = [c.id for c in PACK.haunt_deck if c.kind == "haunt"][:4]
    top_haunt(st, *standard)
    st2, _ = do(at_rest(st, "s2"), "s2", "pass")
    assert st2.haunt_discard[-3:] == standard[:3]
    assert st2.haunt_deck[-1] == standard[3]


def test_EX_HAUNT_04_haunt_card_moves_ghosts_then_darkens_matching_rooms() -> None:
    st = quiet()
    place_room(st, "R01", "r2c2")  # Bathroom, Location 1
    st.cells["r2c3"].darkness = 0
    h01 = PACK.haunt_card("H01")  # Location 1, Wraith N
    top_haunt(st, "H01")
    st.ghosts["wraith"] = "r3c1"
    st2 = run_steps(st, ("haunt_draw", {"left": 1}))
    assert st2.ghosts["wraith"] == "r2c1"
    for cid, cell in st2.cells.items():
        room = PACK.room(cell.card) if cell.card and not cell.face_down else None
        expect = 1 if room and room.location == h01.location else 0
        assert cell.darkness == expect, cid


def test_EX_HAUNT_08_no_darkness_on_face_down_shrouded_attic_or_foyer() -> None:
    st = quiet()
    locked = next(c for c in st.cells.values() if c.face_down)
    shrouded_id = next(cid for cid, c in st.cells.items()
                       if c.card and not c.face_down and PACK.room(c.card).location == 1)
    st.cells[shrouded_id].shrouded = True
    st.shrouds_left -= 1
    st2 = run_steps(st, ("place_darkness", {"location": 1}))
    assert st2.cells[locked.id].darkness == 0
    assert st2.cells[shrouded_id].darkness == 0
    assert st2.cells["attic"].darkness == st2.cells["foyer"].darkness == 0


def test_EX_HAUNT_05_darkness_card_advances_track_and_EX_DARK_02_stops_at_final_3() -> None:
    st = quiet()
    top_haunt(st, "D01" if "D01" in PACK.haunt_deck_ids() else
              next(c.id for c in PACK.haunt_deck if c.kind == "darkness"))
    st2 = run_steps(st, ("haunt_draw", {"left": 1}))
    assert st2.track_index == 1
    st2.track_index = len(PACK.clock.darkness_track) - 1
    Engine(st2).resolve_special(next(c.id for c in PACK.haunt_deck if c.kind == "darkness"))
    assert st2.track_index == len(PACK.clock.darkness_track) - 1


def test_EX_HAUNT_06_07_bull_and_devourer_enter_in_the_attic() -> None:
    st = quiet()
    bull = next(c.id for c in PACK.haunt_deck if c.kind == "bull")
    dev = next(c.id for c in PACK.haunt_deck if c.kind == "devourer")
    top_haunt(st, bull, dev)
    st2 = run_steps(st, ("haunt_draw", {"left": 2}))
    assert st2.ghosts["bull"] == "attic" and st2.ghosts["devourer"] == "attic"
    assert bull in st2.haunt_removed and dev in st2.haunt_removed


def test_EX_HAUNT_09_arrows_of_absent_ghosts_are_ignored() -> None:
    st = quiet()
    st.ghosts["wraith"] = "r2c2"
    top_haunt(st, "H01")
    st2 = run_steps(st, ("haunt_draw", {"left": 1}))
    assert st2.ghosts["bull"] is None and st2.ghosts["devourer"] is None


def test_EX_HAUNT_10_empty_deck_reshuffles_standard_cards_only() -> None:
    st = quiet()
    st.haunt_discard = [c for c in st.haunt_deck if PACK.haunt_card(c).kind == "haunt"]
    st.haunt_removed = [c for c in st.haunt_deck if PACK.haunt_card(c).kind != "haunt"]
    st.haunt_deck = []
    st2 = run_steps(st, ("haunt_draw", {"left": 1}))
    assert len(st2.haunt_deck) == 29 and all(
        PACK.haunt_card(c).kind == "haunt" for c in st2.haunt_deck)


def test_EX_HAUNT_11_after_exorcism_cards_still_spread_darkness_EX_AMB_25() -> None:
    st = quiet()
    st.exorcised = True
    st.points = 30
    bull = next(c.id for c in PACK.haunt_deck if c.kind == "bull")
    top_haunt(st, bull, "H01")
    st2 = run_steps(st, ("haunt_draw", {"left": 2}))
    assert st2.ghosts == {"wraith": None, "bull": None, "devourer": None}
    assert sum(c.darkness for c in st2.cells.values()) > 0


def test_EX_HAUNT_12_no_darkness_left_to_place_loses_EX_LOSE_01() -> None:
    st = quiet()
    dump = next(c for c in st.cells.values() if c.kind == "attic")
    dump.darkness = st.darkness_supply  # park the whole supply out of play (conserved)
    st.darkness_supply = 0
    st2 = run_steps(st, ("place_darkness", {"location": 2}))
    assert st2.outcome == "lost" and "none is left" in st2.reason


def test_EX_DARK_04_fourth_token_shrouds_and_EX_DARK_07_tokens_stay_under() -> None:
    st = quiet()
    cid = next(c for c, cell in st.cells.items()
               if cell.card and not cell.face_down and PACK.room(cell.card).location == 2)
    add_darkness(st, cid, 3)
    st2 = run_steps(st, ("place_darkness", {"location": 2}))
    assert st2.cells[cid].shrouded and st2.cells[cid].darkness == 4
    assert st2.shrouds_left == 7


def test_EX_DARK_05_fourth_token_without_a_shroud_card_loses() -> None:
    st = quiet()
    st.shrouds_left = 0
    cid = next(c for c, cell in st.cells.items()
               if cell.card and not cell.face_down and PACK.room(cell.card).location == 2)
    add_darkness(st, cid, 3)
    # shrouds are "used" elsewhere: mark 8 imaginary shrouded rooms is not needed for the rule
    st2 = run_steps(st, ("place_darkness", {"location": 2}))
    assert st2.outcome == "lost" and "Shrouded" in st2.reason


def test_EX_DARK_06_shrouded_room_blocks_purify_room_action_and_pick_up() -> None:
    st = quiet()
    place_room(st, "R02", "r2c2")
    put(st, "s1", "r2c2")
    st.cells["r2c2"].shrouded = True
    st.shrouds_left -= 1
    add_darkness(st, "r2c2", 4)
    st.tool_piles["key"] -= 1
    st.cells["r2c2"].dropped = {"key": 1}
    ks = kinds(st, "s1")
    assert not ks & {"purify", "room_action", "pick_up"}
    with pytest.raises(IllegalAction) as err:
        GAME.apply(st, "s1", act("purify"))
    assert err.value.rule == "EX-DARK-06"
    # it can still be entered and passed through
    put(st, "s1", "r2c1")
    assert act("move", to="r2c3") in legal(st, "s1")


# ---------------------------------------------------------------- ghosts
def test_EX_GHOST_04_wraith_wraps_EX_GAP_16_examples() -> None:
    st = quiet()
    geo = Engine(st).geo
    assert geo.ghost_move("wraith", "attic", "N", 1) == "r4c2"
    assert geo.ghost_move("wraith", "foyer", "S", 1) == "r1c3"
    assert geo.ghost_move("wraith", "r2c4", "E", 1) == "r2c1"
    assert geo.ghost_move("wraith", "attic", "E", 1) == "attic"


def test_EX_GHOST_05_bull_moves_die_value_and_stops_at_the_edge() -> None:
    st = quiet()
    geo = Engine(st).geo
    assert geo.ghost_move("bull", "attic", "S", 6) == "r4c2"
    assert geo.ghost_move("bull", "r2c2", "E", 5) == "r2c4"
    st.ghosts["bull"] = "r1c1"
    card = next(c for c in PACK.haunt_deck if c.kind == "haunt" and c.arrows.bull == "S"
                and c.die_value == 2)
    top_haunt(st, card.id)
    st2 = run_steps(st, ("haunt_draw", {"left": 1}))
    assert st2.ghosts["bull"] == "r3c1"


def test_EX_GHOST_07_every_character_where_a_ghost_ends_is_wounded_EX_WOUND_01() -> None:
    st = quiet()
    set_character(st, "s1", "doctor")
    set_character(st, "s2", "medium")
    put(st, "s1", "r2c1")
    put(st, "s2", "r2c1")
    give(st, "s1", "weapon", 2)
    st.ghosts["wraith"] = "r3c1"
    top_haunt(st, "H01")  # Wraith N
    st2 = run_steps(st, ("haunt_draw", {"left": 1}))
    assert "doctor" in st2.wounded
    assert st2.cells["r2c1"].dropped == {"weapon": 2}
    # EX-AMB-16: rescues one at a time, active player first
    assert st2.prompts and st2.prompts[-1].kind == "rescue" and st2.prompts[-1].seats == ["s1"]
    st3, _ = do(st2, "s1", "rescue", lookout=st2.lookouts[0])
    assert "medium" in st3.wounded and st3.prompts[-1].seats == ["s2"]


def test_EX_AMB_49_bull_passing_through_does_not_wound() -> None:
    st = quiet()
    put(st, "s1", "r2c2")
    put(st, "s2", "r1c1")
    st.ghosts["wraith"] = None
    st.ghosts["bull"] = "r1c2"
    card = next(c for c in PACK.haunt_deck if c.kind == "haunt" and c.arrows.bull == "S"
                and c.die_value >= 3)
    top_haunt(st, card.id)
    st2 = run_steps(st, ("haunt_draw", {"left": 1}))
    assert not st2.wounded and st2.investigators["s1"].cell == "r2c2"


def test_EX_GHOST_06_devourer_wound_is_permanent_and_EX_HEAL_02() -> None:
    st = quiet()
    set_character(st, "s2", "medium")
    put(st, "s2", "r2c1")
    st.ghosts["wraith"] = None
    st.ghosts["devourer"] = "r3c1"
    card = next(c for c in PACK.haunt_deck if c.kind == "haunt" and c.arrows.devourer == "N")
    top_haunt(st, card.id)
    st2 = run_steps(st, ("haunt_draw", {"left": 1}))
    assert "medium" in st2.devoured and "medium" not in st2.wounded


def test_EX_RESCUE_01_player_chooses_a_lookout_who_appears_in_the_foyer() -> None:
    st = quiet()
    put(st, "s2", "r2c1")
    st.ghosts["wraith"] = "r3c1"
    top_haunt(st, "H01")
    st2 = run_steps(st, ("haunt_draw", {"left": 1}))
    p = st2.prompts[-1]
    assert p.kind == "rescue" and p.seats == ["s2"]
    pick = st2.lookouts[1]
    st3, _ev = do(st2, "s2", "rescue", lookout=pick)
    assert st3.investigators["s2"].character == pick
    assert st3.investigators["s2"].cell == "foyer"


def test_EX_RESCUE_02_ghost_in_the_foyer_sends_the_rescuer_to_an_edge_room() -> None:
    st = quiet()
    put(st, "s2", "r2c1")
    st.ghosts["wraith"] = "r3c1"
    st.ghosts["bull"] = "foyer"
    card = next(c for c in PACK.haunt_deck if c.kind == "haunt" and c.arrows.wraith == "N"
                and c.arrows.bull == "N")
    top_haunt(st, card.id)
    st.ghosts["bull"] = "foyer"
    st2 = run_steps(st, ("haunt_draw", {"left": 1}))
    # the Bull moved N out of the Foyer: put it back to test the placement rule
    st2.ghosts["bull"] = "foyer"
    st3, _ = do(st2, "s2", "rescue", lookout=st2.lookouts[0])
    p = st3.prompts[-1]
    assert p.kind == "place_pawn"
    edge = Engine(st3).geo.edge
    assert set(p.data["cells"]) <= set(edge)
    assert all(c not in Engine(st3).ghost_cells() for c in p.data["cells"])
    st4, _ = do(st3, "s2", "place", cell=p.data["cells"][0])
    assert st4.investigators["s2"].cell == p.data["cells"][0]


def test_EX_RESCUE_03_no_lookout_left_loses() -> None:
    st = quiet()
    st.out_of_play += st.lookouts
    st.lookouts = []
    put(st, "s2", "r2c1")
    st.ghosts["wraith"] = "r3c1"
    top_haunt(st, "H01")
    st2 = run_steps(st, ("haunt_draw", {"left": 1}))
    assert st2.outcome == "lost" and "no Lookout" in st2.reason


def test_EX_TURN_06_wounded_during_own_turn_loses_the_rest_of_it() -> None:
    st = quiet()
    st.round = 2
    put(st, "s2", "r2c1")
    st.ghosts["wraith"] = "r3c1"
    top_haunt(st, "H01")
    st.out_of_play += st.lookouts[1:]
    st.lookouts = st.lookouts[:1]  # single lookout: automatic rescue
    st2, ev = do(at_rest(st, "s1"), "s1", "pass")  # s2's turn starts: Haunt wounds s2
    assert "Wounded" in texts(ev)
    assert st2.active == "s1"  # s2's turn was lost, back to s1
    assert st2.investigators["s2"].cell == "foyer"


def test_EX_WOUND_03_triage_prevents_a_wound_and_sends_the_pawn_to_the_foyer() -> None:
    st = quiet()
    put(st, "s2", "r2c1")
    st.ghosts["wraith"] = "r3c1"
    st.plan_deck.remove("triage")
    st.players["s1"].plans.append("triage")
    top_haunt(st, "H01")
    st2 = run_steps(st, ("haunt_draw", {"left": 1}))
    p = st2.prompts[-1]
    assert p.kind == "triage" and p.seats == ["s1"]  # EX-PROMPT-06
    assert GAME.to_act(st2) == {"s1"}
    st3, _ev = do(st2, "s1", "plan", plan="triage")
    assert st3.investigators["s2"].cell == "foyer" and not st3.wounded
    assert "triage" in st3.plan_discard


def test_EX_PROMPT_06_passing_the_triage_window_lets_the_wound_happen() -> None:
    st = quiet()
    put(st, "s2", "r2c1")
    st.ghosts["wraith"] = "r3c1"
    st.plan_deck.remove("triage")
    st.players["s1"].plans.append("triage")
    top_haunt(st, "H01")
    st2 = run_steps(st, ("haunt_draw", {"left": 1}))
    assert GAME.default_action(st2, "s1") == act("no_plan")
    st3, _ = do(st2, "s1", "no_plan")
    assert st3.investigators["s2"].character is None or st3.wounded


def test_EX_GAP_04_bodyguard_protects_roommates_who_go_to_the_foyer() -> None:
    st = quiet()
    set_character(st, "s1", "bodyguard")
    set_character(st, "s2", "doctor")
    put(st, "s1", "r2c1")
    put(st, "s2", "r2c1")
    st.ghosts["wraith"] = "r3c1"
    top_haunt(st, "H01")
    st.out_of_play += st.lookouts[1:]
    st.lookouts = st.lookouts[:1]
    st2 = run_steps(st, ("haunt_draw", {"left": 1}))
    assert "bodyguard" in st2.wounded and "doctor" not in st2.wounded
    # rulebook FAQ: a pawn saved by an ability goes to the Foyer
    assert st2.investigators["s2"].cell == "foyer"
    # who shields whom (stop 63), and where the shielded pawn goes, said with it (a stop 65 demo)
    assert "Bodyguard shields Doctor from the Wound: Doctor goes to the Foyer." in st2.log
    assert "Doctor is placed in the Foyer." not in st2.log


def test_EX_GHOST_07_EX_AMB_16_one_ghost_move_wounds_everyone_there_said_together() -> None:
    """A stop 65 demo's core game: "Doctor is Wounded in the Foyer. / … / Medium comes to the
    rescue … / Psychologist is Wounded in the Foyer" read as a second, later Wound. Both are
    caught by the same Ghost move: said together first, then each Wound and Rescue in turn
    order (the rules' order of effects unchanged)."""
    st = quiet()
    set_character(st, "s1", "doctor")
    set_character(st, "s2", "psychologist")
    put(st, "s1", "r2c1")
    put(st, "s2", "r2c1")
    for p in st.players.values():
        p.plans = []
    st.ghosts["wraith"] = "r3c1"
    top_haunt(st, "H01")
    st.out_of_play += st.lookouts[1:]
    st.lookouts = st.lookouts[:1]
    st2 = run_steps(st, ("haunt_draw", {"left": 1}))
    room = Engine(st2).the_cell("r2c1")
    together = f"The Wraith wounds the Doctor and the Psychologist in {room}."
    assert together in st2.log, st2.log
    first = next(i for i, line in enumerate(st2.log) if " is Wounded in " in line)
    assert st2.log.index(together) < first
    assert "doctor" in st2.wounded and "psychologist" in st2.wounded and st2.outcome == "lost"


# ---------------------------------------------------------------- actions
def test_EX_ACT_01_move_up_to_two_orthogonal_never_through_a_ghost() -> None:
    st = quiet()
    put(st, "s1", "r2c2")
    put(st, "s2", "r4c4")
    st.ghosts["wraith"] = "r2c3"
    dest = {a.params["to"] for a in legal(st, "s1") if a.kind == "move"}
    assert "r2c4" not in dest and "r2c3" not in dest  # into / through the Wraith
    assert {"r1c2", "r3c2", "r2c1", "r4c2", "r1c3", "r3c3", "r1c1"} <= dest
    assert "r3c4" not in dest  # 3 steps
    with pytest.raises(IllegalAction) as err:
        GAME.apply(st, "s1", act("move", to="r2c3"))
    assert err.value.rule == "EX-ACT-01" and "Wraith" in str(err.value)
    st2, _ = do(st, "s1", "move", to="r3c3")
    assert st2.investigators["s1"].cell == "r3c3" and st2.actions_left == 2


def test_EX_ACT_01_attic_and_foyer_can_be_entered_and_locked_rooms_passed() -> None:
    st = quiet()
    put(st, "s1", "r4c3")
    put(st, "s2", "r1c1")
    assert act("move", to="foyer") in legal(st, "s1")
    put(st, "s1", "r1c2")
    assert act("move", to="attic") in legal(st, "s1")


def test_EX_ACT_02_purify_removes_one_token_EX_GAP_04_psychologist_two() -> None:
    st = quiet()
    set_character(st, "s1", "doctor")
    put(st, "s1", "r2c2")
    add_darkness(st, "r2c2", 3)
    st2, _ = do(st, "s1", "purify")
    assert st2.cells["r2c2"].darkness == 2
    set_character(st2, "s1", "psychologist")
    st3, _ = do(st2, "s1", "purify")
    assert st3.cells["r2c2"].darkness == 0


def test_EX_ACT_03_trade_needs_adjacency_and_consent_EX_AMB_11_12() -> None:
    st = quiet()
    set_character(st, "s1", "doctor")
    set_character(st, "s2", "medium")
    put(st, "s1", "r2c2")
    put(st, "s2", "r3c3")  # diagonal: not adjacent
    give(st, "s1", "key", 2)
    assert "trade" not in kinds(st, "s1")
    put(st, "s2", "r2c3")
    st2, _ = do(st, "s1", "trade", **{"with": "s2"})
    assert st2.prompts[-1].kind == "trade_build"
    st2, _ = do(st2, "s1", "trade_give", tool="key")
    st2, _ = do(st2, "s1", "trade_offer")
    assert st2.prompts[-1].kind == "trade_consent" and GAME.to_act(st2) == {"s2"}
    declined, _ = do(st2, "s2", "trade_decline")
    assert declined.actions_left == 3 and declined.investigators["s1"].tools == {"key": 2}
    accepted, _ = do(st2, "s2", "trade_accept")
    assert accepted.investigators["s2"].tools == {"key": 1}
    assert accepted.actions_left == 2


def test_EX_ACT_03_refused_trades_are_refunded_without_a_cap() -> None:
    """The rules set no limit on called-off or declined Trades (EX-AMB-11, issue #12)."""
    st = quiet()
    put(st, "s1", "r2c2")
    put(st, "s2", "r2c2")
    give(st, "s1", "key", 1)
    for _ in range(6):
        st, _ = do(st, "s1", "trade", **{"with": "s2"})
        st, _ = do(st, "s1", "trade_cancel")
    assert "trade" in kinds(st, "s1") and st.actions_left == 3 and st.refunds == 6
    # the built-in AI, though, stops re-offering once three Trades were refused
    assert GAME.ai_action(st, "s1").kind != "trade"


def test_EX_ACT_04_room_action_gain_tool_and_locked_room_unusable() -> None:
    st = quiet()
    place_room(st, "R02", "r2c2")
    put(st, "s1", "r2c2")
    st2, _ = do(st, "s1", "room_action")
    assert st2.investigators["s1"].tools == {"weapon": 1} and st2.tool_piles["weapon"] == 14
    locked = next(c.id for c in st.cells.values() if c.face_down)
    put(st, "s1", locked)
    assert "room_action" not in kinds(st, "s1")


def test_EX_ACT_05_complete_task_spends_exact_tools_with_specialization_bonus() -> None:
    st = quiet()
    set_character(st, "s1", "bodyguard")  # Specialization: weapon
    put(st, "s1", "r2c2")
    st.task_deck.remove("weapon-1") if "weapon-1" in st.task_deck else None
    if "weapon-1" in st.available_tasks:
        st.available_tasks.remove("weapon-1")
        st.available_tasks.append(st.task_deck.pop())
    st.players["s1"].tasks.append("weapon-1")
    give(st, "s1", "weapon", 3)
    st2, _ev = do(st, "s1", "task", task="weapon-1")
    assert st2.points == 3  # 2 + Specialization 1 (EX-TASK-03)
    assert st2.investigators["s1"].tools == {"weapon": 1}  # EX-AMB-51
    assert st2.tool_piles["weapon"] == 14  # EX-AMB-10: spent Tools go back to the pile
    assert "weapon-1" in st2.task_discard


def test_EX_TASK_04_ongoing_task_stays_and_extends_the_move() -> None:
    st = quiet()
    set_character(st, "s1", "doctor")
    put(st, "s1", "r1c1")
    for pile in (st.task_deck, st.available_tasks):
        if "weapon-6" in pile:
            pile.remove("weapon-6")
    while len(st.available_tasks) < 3:
        st.available_tasks.append(st.task_deck.pop())
    st.players["s1"].tasks.append("weapon-6")
    give(st, "s1", "weapon", 3)
    give(st, "s1", "holy_relic", 1)
    st2, _ = do(st, "s1", "task", task="weapon-6")
    assert st2.players["s1"].ongoing == ["weapon-6"] and st2.points == 4
    dest = {a.params["to"] for a in legal(st2, "s1") if a.kind == "move"}
    assert "r1c4" in dest  # 3 spaces


def test_EX_ACT_06_pick_up_dropped_tools_EX_WOUND_02() -> None:
    st = quiet()
    put(st, "s1", "r2c2")
    st.tool_piles["key"] -= 2
    st.tool_piles["weapon"] -= 1
    st.cells["r2c2"].dropped = {"key": 2, "weapon": 1}
    st2, _ = do(st, "s1", "pick_up")
    assert st2.prompts[-1].kind == "pick_up" and GAME.default_action(st2, "s1") == act(
        "pick_all")
    st3, _ = do(st2, "s1", "pick_tool", tool="key")
    st3, _ = do(st3, "s1", "pick_done")
    assert st3.investigators["s1"].tools == {"key": 1}
    assert st3.cells["r2c2"].dropped == {"key": 1, "weapon": 1} and st3.actions_left == 2


def test_EX_ACT_07_unlock_needs_a_key_and_gains_tokens_EX_TIME_02() -> None:
    st = quiet()
    locked = next(c.id for c in st.cells.values() if c.face_down)
    put(st, "s1", locked)
    st.cells[locked].exorcism_tokens = 2
    assert "unlock" not in kinds(st, "s1")
    give(st, "s1", "key")
    st2, _ev = do(st, "s1", "unlock")
    assert not st2.cells[locked].face_down and st2.points == 2
    assert st2.investigators["s1"].tools == {} and st2.tool_piles["key"] == 15


def test_EX_ACT_08_architect_swaps_rooms_with_everything_on_them() -> None:
    st = quiet()
    set_character(st, "s1", "architect")
    put(st, "s1", "r2c2")
    put(st, "s2", "r2c3")
    add_darkness(st, "r2c3", 2)
    card = st.cells["r2c3"].card
    st2, _ = do(st, "s1", "ability", source="architect")
    assert st2.prompts[-1].kind == "choose_cell"
    assert "attic" not in st2.prompts[-1].data["options"]
    st3, _ = do(st2, "s1", "choose_cell", cell="r2c3")
    assert st3.cells["r2c2"].card == card and st3.cells["r2c2"].darkness == 2
    assert st3.investigators["s2"].cell == "r2c2" and st3.investigators["s1"].cell == "r2c3"


def test_EX_AMB_13_detective_trades_two_spaces_away() -> None:
    st = quiet()
    set_character(st, "s1", "detective")
    put(st, "s1", "r2c2")
    put(st, "s2", "r2c4")
    give(st, "s2", "key")
    assert act("trade", **{"with": "s2"}) in legal(st, "s1")


def test_EX_ACT_09_plans_are_free_and_playable_off_turn_EX_AMB_54() -> None:
    st = quiet()
    st.plan_deck.remove("cleanse")
    st.players["s2"].plans.append("cleanse")
    put(st, "s2", "r2c2")
    add_darkness(st, "r2c2", 2)
    assert GAME.to_act(st) == {"s1"} and GAME.may_act(st, "s2")
    assert legal(st, "s2") == [act("plan", plan="cleanse")]
    st2, _ = do(st, "s2", "plan", plan="cleanse")
    assert st2.cells["r2c2"].darkness == 0 and st2.actions_left == 3
    assert not GAME.may_act(st2, "s2")


def test_EX_ACT_09_own_turn_only_plan_and_extra_action() -> None:
    st = quiet()
    st.plan_deck.remove("extra_action")
    st.players["s2"].plans.append("extra_action")
    assert not GAME.may_act(st, "s2")
    st.players["s1"].plans.append(st.players["s2"].plans.pop())
    st2, _ = do(st, "s1", "plan", plan="extra_action")
    assert st2.actions_left == 4


def test_EX_PLAN_03_pawn_the_loot_gains_one_of_two_tools() -> None:
    st = quiet()
    pid = "pawn_the_loot_weapon_holy_relic"
    st.plan_deck.remove(pid)
    st.players["s1"].plans.append(pid)
    st2, ev = do(st, "s1", "plan", plan=pid)
    # The Plan's name reads as a name, not an order ("plays the Plan Pawn the Loot").
    assert any(e.text.endswith("plays the Plan “Pawn the Loot”.") for e in ev), \
        [e.text for e in ev]
    assert {a.params["tool"] for a in legal(st2, "s1")} == {"weapon", "holy_relic"}
    st3, _ = do(st2, "s1", "choose_tool", tool="holy_relic")
    assert st3.investigators["s1"].tools == {"holy_relic": 1}


def test_EX_TOOL_02_empty_pile_cannot_be_gained() -> None:
    st = quiet()
    place_room(st, "R02", "r2c2")
    put(st, "s1", "r2c2")
    give(st, "s2", "weapon", 15)
    assert "room_action" not in kinds(st, "s1")


def test_EX_TASK_01_gaining_a_task_refills_the_row_EX_GAP_07() -> None:
    st = quiet()
    place_room(st, "R07", "r2c2")
    put(st, "s1", "r2c2")
    st2, _ = do(st, "s1", "room_action")
    assert st2.prompts[-1].kind == "choose_task"
    pick = st2.prompts[-1].data["options"][0]
    st3, _ = do(st2, "s1", "choose_task", task=pick)
    assert pick in st3.players["s1"].tasks and len(st3.available_tasks) == 3
    assert len(st3.task_deck) == 26


def test_EX_HEAL_01_bathroom_heals_one_wounded_into_a_lookout_EX_LOOK_01() -> None:
    st = quiet()
    place_room(st, "R01", "r2c2")
    put(st, "s1", "r2c2")
    st.wounded.append(st.lookouts.pop())
    healed = st.wounded[0]
    st2, _ = do(st, "s1", "room_action")
    assert healed in st2.lookouts and not st2.wounded


def test_EX_FOYER_01_switch_with_a_lookout_keeps_tools_EX_AMB_19() -> None:
    st = quiet()
    put(st, "s1", "foyer")
    give(st, "s1", "key", 2)
    old = st.investigators["s1"].character
    new = st.lookouts[0]
    st2, _ = do(st, "s1", "room_action")
    assert act("escape") not in legal(st2, "s1")  # before 30 points: no escape (EX-AMB-47)
    st3, _ = do(st2, "s1", "switch", lookout=new)
    inv = st3.investigators["s1"]
    assert inv.character == new and inv.tools == {"key": 2} and inv.cell == "foyer"
    assert old in st3.lookouts


def test_EX_FOYER_03_escape_after_30_and_EX_WIN_02_everyone_out_wins() -> None:
    st = quiet()
    st.points = 30
    st.exorcised = True
    put(st, "s1", "foyer")
    put(st, "s2", "r4c3")
    st2, _ = do(st, "s1", "room_action")
    st3, _ = do(st2, "s1", "escape")
    assert st3.players["s1"].out and st3.active == "s2" and st3.outcome is None
    st4, _ = do(at_rest(st3, "s2"), "s2", "move", to="foyer")
    st5, _ = do(st4, "s2", "room_action")
    st6, _ev = do(st5, "s2", "escape")
    assert st6.outcome == "won"
    res = GAME.result(st6)
    assert res is not None and set(res.winners) == {"s1", "s2"}


def test_EX_WIN_01_EX_GHOST_09_thirty_points_remove_every_ghost() -> None:
    st = quiet()
    st.ghosts["bull"] = "r3c3"
    st.points = 29
    locked = next(c.id for c in st.cells.values() if c.face_down)
    st.cells[locked].exorcism_tokens = 1
    put(st, "s1", locked)
    give(st, "s1", "key")
    st2, _ev = do(st, "s1", "unlock")
    assert st2.exorcised and all(v is None for v in st2.ghosts.values())


# ---------------------------------------------------------------- contract extras
def test_EX_VIS_02_public_view_hides_locked_faces_and_labels_fit() -> None:
    st = GAME.setup(["s1", "s2"], GAME.options_model(), 4)
    public = json.dumps(GAME.view(st, None))
    for secret in GAME.public_secrets(st):
        assert secret not in public
    for seat in st.seats:
        for a in legal(st, seat):
            assert len(GAME.describe(st, seat, a)) <= 80
    assert GAME.seat_label(st, "s1") == PACK.character(
        st.investigators["s1"].character or "").name


def test_EX_PROMPT_09_default_on_timeout_ends_the_turn() -> None:
    st = quiet()
    assert GAME.default_action(st, "s1") == act("pass")


def test_rule_text_reads_the_spec() -> None:
    assert "2 spaces" in (GAME.rule_text("EX-ACT-01") or "") or GAME.rule_text("EX-ACT-01")


def test_EX_GAP_04_EX_RESCUE_02_a_shield_with_a_ghost_in_the_foyer_is_one_placement() -> None:
    """A stop 65 demo (One vs All seed 151): "Bodyguard shields Psychologist from the Wound:
    Psychologist goes to an edge Room." and, after the Wounds, "Psychologist is placed in the
    Locked Room (row 2, column 1)." read as two moves. The shield's line moves nobody while
    the Room is still to be chosen, and the placement says it is the shield's."""
    st = quiet()
    set_character(st, "s1", "bodyguard")
    set_character(st, "s2", "doctor")
    put(st, "s1", "r2c1")
    put(st, "s2", "r2c1")
    for p in st.players.values():
        p.plans = []
    st.ghosts["wraith"] = "r2c1"
    st.ghosts["bull"] = "foyer"
    eng = Engine(st)
    st.queue[:0] = eng.wound_check()
    eng.run()
    shield = "Bodyguard shields Doctor from the Wound: a Ghost is in the Foyer, so an edge " \
             "Room is chosen for Doctor."
    assert shield in st.log, st.log
    assert not any("goes to an edge Room" in line for line in st.log)
    # the Bodyguard's Wound and Rescue come first; then the shielded Doctor's Room
    while st.prompts and st.prompts[-1].seats != ["s2"]:
        p = st.prompts[-1]
        st = GAME.apply(st, p.seats[0], GAME.legal_actions(st, p.seats[0])[0]).state
    p = st.prompts[-1]
    assert p.kind == "place_pawn" and p.seats == ["s2"]
    cell = p.data["cells"][0]
    st2, ev = do(st, "s2", "place", cell=cell)
    room = Engine(st2).the_cell(cell)
    assert f"Doctor, shielded from the Wound, is placed in {room}." in texts(ev), texts(ev)

