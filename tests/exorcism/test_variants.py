"""Scenario tests for One vs All (EX-OVA-*, EX-TERROR-*) and Solo (EX-SOLO-*)."""

from __future__ import annotations

import json

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
    top_haunt,
)

PACK = default_pack()


def ova(seed: int = 1):
    st = new_game("one_vs_all", n=3, seed=seed)
    clear_board(st)
    put(st, "s2", "r1c4")
    put(st, "s3", "r1c3")
    return st


def ghost_phase(st, track_index: int = 0, active: str = "s2"):
    st = at_rest(st, active)
    st.track_index = track_index
    return run_steps(st, ("ghost_phase_start", {}))


# ---------------------------------------------------------------- One vs All
def test_EX_OVA_01_EX_AMB_57_ghost_player_is_the_first_seat_without_a_character() -> None:
    st = GAME.setup(["s1", "s2", "s3"], GAME.options_model(mode="one_vs_all"), 2)
    assert st.ghost_seat == "s1" and "s1" not in st.investigators
    assert GAME.seat_label(st, "s1") == "Ghost player"
    st2 = GAME.setup(["s1", "s2", "s3"], GAME.options_model(mode="one_vs_all", ghost_seat=2), 2)
    assert st2.ghost_seat == "s3"


def test_EX_OVA_03_manipulate_the_manor_moves_up_to_four_rooms_EX_AMB_28() -> None:
    st = GAME.setup(["s1", "s2", "s3"], GAME.options_model(mode="one_vs_all"), 2)
    assert st.prompts[-1].kind == "manipulate_manor" and GAME.to_act(st) == {"s1"}
    cells = {a.params.get("cell") for a in legal(st, "s1")}
    assert "attic" not in cells and "foyer" not in cells  # EX-FOYER-04
    a, b = st.cells["r1c1"].card, st.cells["r1c2"].card
    st, _ = do(st, "s1", "manor_pick", cell="r1c1")
    st, _ = do(st, "s1", "manor_swap", cell="r1c2")
    assert st.cells["r1c1"].card == b and st.cells["r1c2"].card == a
    st, _ = do(st, "s1", "manor_pick", cell="r2c1")
    st, _ = do(st, "s1", "manor_swap", cell="r2c2")
    picks = {x.params.get("cell") for x in legal(st, "s1") if x.kind == "manor_pick"}
    assert picks == {"r1c1", "r1c2", "r2c1", "r2c2"}  # four Rooms at most
    st, _ = do(st, "s1", "manor_pick", cell="r1c1")
    assert {x.params["cell"] for x in legal(st, "s1")} == {"r1c2", "r2c1", "r2c2"}
    st, _ = do(st, "s1", "manor_swap", cell="r2c2")
    # no cap on swaps (issue #12): the Ghost player goes on until they finish
    assert st.prompts[-1].kind == "manipulate_manor" and "4 of 4 Rooms moved" in \
        st.prompts[-1].text
    assert legal(st, "s1")[0] == act("manor_done")


def test_EX_AMB_28_any_number_of_swaps_and_putting_a_room_back_frees_a_place() -> None:
    st = GAME.setup(["s1", "s2", "s3"], GAME.options_model(mode="one_vs_all"), 2)
    start = {c: st.cells[c].card for c in ("r1c1", "r1c2", "r2c1", "r2c2", "r3c3")}
    for a, b in [("r1c1", "r1c2"), ("r2c1", "r2c2"), ("r1c1", "r1c2")]:
        st, _ = do(st, "s1", "manor_pick", cell=a)
        st, _ = do(st, "s1", "manor_swap", cell=b)
    # r1c1/r1c2 are back where they were: only 2 Rooms moved, so r3c3 may move again
    assert st.cells["r1c1"].card == start["r1c1"] and "2 of 4" in st.prompts[-1].text
    picks = {x.params.get("cell") for x in legal(st, "s1") if x.kind == "manor_pick"}
    assert "r3c3" in picks
    for _ in range(4):  # swapping back and forth is never cut off
        st, _ = do(st, "s1", "manor_pick", cell="r3c3")
        st, _ = do(st, "s1", "manor_swap", cell="r1c1")
    assert st.prompts[-1].kind == "manipulate_manor"
    st, _ = do(st, "s1", "manor_done")
    assert not st.prompts or st.prompts[-1].kind != "manipulate_manor"


def test_EX_OVA_04_EX_VIS_11_ghost_hand_is_hidden_from_everyone_else() -> None:
    st = GAME.setup(["s1", "s2", "s3"], GAME.options_model(mode="one_vs_all"), 4)
    out = GAME.apply(st, "s1", act("manor_done"))
    st = out.state
    assert len(st.ghost_hand) == 3
    assert all(PACK.haunt_card(c).kind == "haunt" for c in st.ghost_hand)  # EX-AMB-35
    public = json.dumps(GAME.view(st, None))
    assert "hand" not in GAME.view(st, None) and "hand" not in GAME.view(st, "s2")
    assert len(GAME.view(st, "s1")["hand"]) == 3
    for secret in GAME.public_secrets(st):
        assert secret not in public
    private = [e for e in out.events if e.kind == "ghost_hand"]
    assert private and all(e.audience == ["s1"] for e in private)


def test_EX_OVA_05_ghost_actions_equal_the_darkness_track_EX_AMB_56() -> None:
    st = ova()
    st.ghosts["wraith"] = "attic"
    st = ghost_phase(st, track_index=4)  # value 2
    assert st.phase == "ghost" and st.ghost_budget == 2 and GAME.to_act(st) == {"s1"}
    assert {"ghost_move", "ghost_darkness", "haunt_level", "end_haunt"} <= kinds(st, "s1")
    assert not legal(st, "s2") or all(a.kind == "plan" for a in legal(st, "s2"))


def test_EX_OVA_06_move_the_ghosts_with_a_card_from_hand() -> None:
    st = ghost_phase(ova(), track_index=0)
    st.ghosts["wraith"] = "r3c1"
    card = st.ghost_hand[0]
    direction = PACK.haunt_card(card).arrows.wraith
    st2, _ = do(st, "s1", "ghost_move", card=card)
    assert st2.ghosts["wraith"] == Engine(st2).geo.ghost_move("wraith", "r3c1", direction, 1)
    assert card in st2.haunt_discard
    # budget spent: the phase ends, the hand refills (EX-OVA-10) and the Action phase starts
    assert st2.phase == "actions" and len(st2.ghost_hand) == 3


def test_EX_OVA_07_add_darkness_with_a_card() -> None:
    st = ghost_phase(ova(), track_index=4)
    card = st.ghost_hand[0]
    loc = PACK.haunt_card(card).location
    st2, _ = do(st, "s1", "ghost_darkness", card=card)
    for c in st2.cells.values():
        room = PACK.room(c.card) if c.card and not c.face_down else None
        if room and room.location == loc and c.kind == "house":
            assert c.darkness == 1
    assert st2.ghost_budget == 1 and st2.phase == "ghost"


def test_EX_OVA_08_increase_haunt_level_takes_two_tokens_EX_AMB_30() -> None:
    st = ghost_phase(ova(), track_index=4)
    supply = st.darkness_supply
    st2, _ = do(st, "s1", "haunt_level")
    assert st2.haunt_level == 2 and st2.darkness_supply == supply - 2
    st2.cells["attic"].darkness += st2.darkness_supply - 1
    st2.darkness_supply = 1
    assert "haunt_level" not in kinds(st2, "s1")


def test_EX_OVA_09_one_terror_per_turn_and_thresholds_EX_TERROR_07() -> None:
    st = ghost_phase(ova(), track_index=8)
    st.haunt_level = 12
    st.darkness_supply -= 12
    terrors = {a.params["ability"] for a in legal(st, "s1") if a.kind == "terror"}
    assert terrors == {"cold_spot", "haunting_sounds"}  # 6 and 10, not 13
    st2, _ = do(st, "s1", "terror", ability="walls_bleed") if False else (st, [])
    st2, _ = do(st, "s1", "terror", ability="cold_spot")
    st2, _ = do(st2, "s1", "choose_cell", cell="r2c2")
    assert "terror" not in kinds(st2, "s1")


def test_EX_OVA_10_end_the_haunt_phase_refills_to_three() -> None:
    st = ghost_phase(ova(), track_index=8)
    st.haunt_discard.append(st.ghost_hand.pop())
    st2, _ = do(st, "s1", "end_haunt")
    assert len(st2.ghost_hand) == 3 and st2.phase == "actions"
    assert GAME.default_action(st, "s1") == act("end_haunt")


def test_EX_OVA_11_haunt_level_thirty_the_ghost_player_wins() -> None:
    st = ghost_phase(ova(), track_index=8)
    st.haunt_level = 28
    st.darkness_supply -= 28
    st2, _ = do(st, "s1", "haunt_level")
    res = GAME.result(st2)
    assert res is not None and res.winners == ["s1"] and set(res.losers) == {"s2", "s3"}


def test_EX_OVA_11_time_runs_out_the_ghost_player_wins() -> None:
    st = at_rest(ova(), "s2")
    st.dice = [0] * 8
    st2, _ = do(st, "s2", "pass")
    res = GAME.result(st2)
    assert res is not None and res.winners == ["s1"]


def test_EX_OVA_13_no_darkness_or_shroud_left_is_not_a_loss_EX_AMB_26() -> None:
    st = ova()
    st.cells["attic"].darkness = st.darkness_supply
    st.darkness_supply = 0
    st2 = run_steps(st, ("place_darkness", {"location": 2}))
    assert st2.outcome is None
    st3 = ova()
    st3.shrouds_left = 0
    cid = next(c for c, cell in st3.cells.items()
               if cell.card and not cell.face_down and PACK.room(cell.card).location == 2)
    add_darkness(st3, cid, 3)
    st4 = run_steps(st3, ("place_darkness", {"location": 2}))
    assert st4.outcome is None and st4.cells[cid].shrouded


def test_EX_OVA_12_investigators_still_need_the_escape_EX_AMB_27() -> None:
    st = at_rest(ova(), "s2")
    st.points = 29
    locked = next(c.id for c in st.cells.values() if c.face_down)
    st.cells[locked].exorcism_tokens = 1
    put(st, "s2", locked)
    give(st, "s2", "key")
    st2, _ = do(st, "s2", "unlock")
    assert st2.exorcised and st2.outcome is None


def _terror_ready(level: int = 20):
    st = ghost_phase(ova(), track_index=8)
    st.haunt_level = level
    st.darkness_supply -= level
    return st


def test_EX_TERROR_01_cold_spot_makes_moving_in_or_out_cost_two() -> None:
    st = _terror_ready(6)
    st2, _ = do(st, "s1", "terror", ability="cold_spot")
    st2, _ = do(st2, "s1", "choose_cell", cell="r2c2")
    st3 = at_rest(st2, "s2")
    put(st3, "s2", "r2c1")
    put(st3, "s3", "r4c4")
    dest = {a.params["to"] for a in legal(st3, "s2") if a.kind == "move"}
    assert "r2c2" in dest and "r2c3" not in dest  # in costs 2, leaving again costs 2 more


def test_EX_TERROR_02_haunting_sounds_limits_trades_to_the_same_room_EX_AMB_36() -> None:
    st = _terror_ready(10)
    st2, _ = do(st, "s1", "terror", ability="haunting_sounds")
    st2, _ = do(st2, "s1", "choose_seat", seat="s2")
    st3 = at_rest(st2, "s2")
    put(st3, "s2", "r2c2")
    put(st3, "s3", "r2c3")
    give(st3, "s2", "key")
    assert "trade" not in kinds(st3, "s2")
    set_character(st3, "s2", "detective")
    assert "trade" in kinds(st3, "s2")  # the Detective keeps 1 space
    put(st3, "s3", "r2c4")
    assert "trade" not in kinds(st3, "s2")


def test_EX_TERROR_03_moving_objects_takes_a_random_tool_into_a_room() -> None:
    st = _terror_ready(14)
    give(st, "s3", "key", 1)
    st2, _ = do(st, "s1", "terror", ability="moving_objects")
    assert {a.params["seat"] for a in legal(st2, "s1")} == {"s3"}
    st2, _ev = do(st2, "s1", "choose_seat", seat="s3")
    shrouded = next(c for c in st2.cells.values() if c.kind == "house")
    shrouded.shrouded = True
    st2.shrouds_left -= 1
    options = {a.params["cell"] for a in legal(st2, "s1")}
    assert "foyer" in options
    st3, _ = do(st2, "s1", "choose_cell", cell="r3c3")
    assert st3.cells["r3c3"].dropped == {"key": 1} and not st3.investigators["s3"].tools


def test_EX_TERROR_04_the_walls_bleed_forbids_ending_on_three_darkness() -> None:
    st = _terror_ready(14)
    st2, _ = do(st, "s1", "terror", ability="walls_bleed")
    st3 = at_rest(st2, "s2")
    put(st3, "s2", "r2c1")
    put(st3, "s3", "r4c4")
    add_darkness(st3, "r2c2", 3)
    dest = {a.params["to"] for a in legal(st3, "s2") if a.kind == "move"}
    assert "r2c2" not in dest and "r2c3" in dest


def test_EX_TERROR_04_the_walls_bleed_says_what_it_forbids_and_where() -> None:
    """The thread said only "causes Terror: The Walls Bleed." and nobody could tell what it
    forbids (stop 67 demo read): the line now says the rule and the Rooms it closes now."""
    st = _terror_ready(14)
    add_darkness(st, "r2c2", 3)
    _, events = do(st, "s1", "terror", ability="walls_bleed")
    texts = [e.text for e in events]
    room = Engine(st).the_cell("r2c2")
    assert any("may end a Move in a Room with 3 Darkness Tokens" in t
               and f"(now {room})" in t for t in texts), texts
    st = _terror_ready(14)
    _, events = do(st, "s1", "terror", ability="walls_bleed")
    assert any("no Room has 3 now" in e.text for e in events), [e.text for e in events]


def test_EX_TERROR_05_amnesia_one_player_loses_another_gains_an_action() -> None:
    st = _terror_ready(18)
    st2, _ = do(st, "s1", "terror", ability="amnesia")
    st2, _ = do(st2, "s1", "choose_seat", seat="s2")
    assert {a.params["seat"] for a in legal(st2, "s1")} == {"s3"}  # EX-AMB-32
    st2, _ = do(st2, "s1", "choose_seat", seat="s3")
    assert st2.players["s2"].pending_delta == -1 and st2.players["s3"].pending_delta == 1
    # the active player's current turn is not affected (EX-AMB-31)
    st2, _ = do(st2, "s1", "end_haunt")
    assert st2.actions_left == 3


def test_EX_TERROR_06_temporary_possession_one_action_as_that_character() -> None:
    st = _terror_ready(20)
    put(st, "s3", "r2c2")
    st2, _ = do(st, "s1", "terror", ability="temporary_possession")
    st2, _ = do(st2, "s1", "choose_seat", seat="s3")
    assert st2.prompts[-1].kind == "possession"
    moves = [a for a in legal(st2, "s1") if a.kind == "move"]
    st3, _ = do(st2, "s1", moves[0].kind, **moves[0].params)
    assert st3.investigators["s3"].cell == moves[0].params["to"]
    assert not any(a.kind == "plan" for a in legal(st2, "s1"))


def test_EX_VIS_12_a_peek_is_for_the_investigators_only_in_one_vs_all() -> None:
    st = at_rest(ova(), "s2")
    set_character(st, "s2", "medium")
    st2 = GAME.apply(st, "s2", act("ability", source="medium"))
    peek_events = [e for e in st2.events if e.kind == "peek"]
    assert peek_events and peek_events[0].audience == ["s2", "s3"]
    assert GAME.view(st2.state, None)["peek"] == []
    assert GAME.view(st2.state, "s1")["peek"] == []
    assert len(GAME.view(st2.state, "s3")["peek"]) == 3


# ---------------------------------------------------------------- Solo
def test_EX_SOLO_01_primary_is_chosen_secondary_random_three_lookouts() -> None:
    st = GAME.setup(["s1"], GAME.options_model(mode="solo"), 3)
    assert st.prompts[-1].kind == "choose_primary" and len(legal(st, "s1")) == 8
    st2, _ = do(st, "s1", "choose_primary", character="journalist")
    assert st2.investigators["primary"].character == "journalist"
    assert st2.investigators["secondary"].character not in (None, "journalist")
    assert len(st2.lookouts) == 3 and len(st2.out_of_play) == 3


def test_EX_SOLO_02_five_actions_each_naming_the_acting_character() -> None:
    st = new_game("solo", n=1, seed=2)
    clear_board(st)
    assert st.actions_left == 5
    acts = [a for a in legal(st, "s1") if a.kind != "pass"]
    assert acts and all(a.params.get("who") in ("primary", "secondary") for a in acts)
    assert {a.params["who"] for a in acts if a.kind == "move"} == {"primary", "secondary"}


def test_EX_SOLO_03_only_the_primary_completes_tasks_and_plays_plans() -> None:
    st = new_game("solo", n=1, seed=2)
    clear_board(st)
    tid = st.available_tasks.pop()
    st.available_tasks.append(st.task_deck.pop())
    st.players["s1"].tasks.append(tid)
    for t in PACK.task(tid).to_complete:
        give(st, "secondary", t)
        give(st, "primary", t)
    tasks = [a for a in legal(st, "s1") if a.kind == "task"]
    assert tasks and all(a.params["who"] == "primary" for a in tasks)
    st.plan_deck.remove("cleanse")
    st.players["s1"].plans.append("cleanse")
    put(st, "primary", "r2c2")
    add_darkness(st, "r2c2", 1)
    plans = [a for a in legal(st, "s1") if a.kind == "plan"]
    assert plans and all(a.params["who"] == "primary" for a in plans)


def test_EX_SOLO_04_handing_tools_between_own_characters_is_a_trade_EX_AMB_39() -> None:
    st = new_game("solo", n=1, seed=2)
    clear_board(st)
    put(st, "primary", "r2c2")
    put(st, "secondary", "r4c4")
    give(st, "secondary", "key")
    assert "trade" not in kinds(st, "s1")
    put(st, "secondary", "r2c3")
    st2, _ = do(st, "s1", "trade", who="primary", **{"with": "secondary"})
    st2, _ = do(st2, "s1", "trade_take", tool="key")
    st2, _ = do(st2, "s1", "trade_offer")  # no consent needed from yourself
    assert st2.investigators["primary"].tools == {"key": 1} and st2.actions_left == 4


def test_EX_SOLO_05_a_rescuing_lookout_takes_the_wounded_role_EX_AMB_38() -> None:
    st = new_game("solo", n=1, seed=2)
    clear_board(st)
    put(st, "primary", "r2c1")
    put(st, "secondary", "r4c4")
    st.ghosts["wraith"] = "r3c1"
    top_haunt(st, "H01")
    st2 = run_steps(st, ("haunt_draw", {"left": 1}))
    lookout = st2.lookouts[0]
    st3, _ = do(st2, "s1", "rescue", lookout=lookout)
    assert st3.investigators["primary"].character == lookout
    assert st3.investigators["primary"].role == "primary"


def test_EX_SOLO_04_room_action_by_the_secondary() -> None:
    st = new_game("solo", n=1, seed=2)
    clear_board(st)
    place_room(st, "R03", "r3c3")
    put(st, "secondary", "r3c3")
    st2, _ = do(st, "s1", "room_action", who="secondary")
    assert st2.investigators["secondary"].tools == {"holy_relic": 1}
    assert st2.actions_left == 4
