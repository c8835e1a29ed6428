"""More rule-id scenario tests: components as the engine sees them, turn order, leftovers."""

from __future__ import annotations

import itertools
from collections import Counter

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
    texts,
    top_haunt,
)

PACK = default_pack()


def quiet(mode: str = "core", n: int = 2):
    st = new_game(mode, n=n, seed=1)
    clear_board(st)
    return st


def test_EX_COMP_01_03_11_EX_TOOL_01_component_counts_and_no_hand_limit() -> None:
    st = GAME.setup(["s1", "s2"], GAME.options_model(), 1)
    assert len(st.plan_deck) == 30 and len(PACK.tasks) == 30
    assert st.darkness_supply == 30 and st.shrouds_left == 8
    assert len(PACK.rooms) == 12 and len(PACK.locked_rooms) == 18
    assert st.tool_piles == dict.fromkeys(("weapon", "holy_relic", "key", "detection",
                                           "occult"), 15)
    st = quiet()
    place_room(st, "R02", "r2c2")
    put(st, "s1", "r2c2")
    give(st, "s1", "key", 15)
    st2, _ = do(st, "s1", "room_action")  # EX-COMP-11: no hand limit
    assert sum(st2.investigators["s1"].tools.values()) == 16


def test_EX_COMP_02_EX_HAUNT_03_haunt_deck_and_ghost_pawns() -> None:
    kinds_ = Counter(c.kind for c in PACK.haunt_deck)
    assert kinds_ == {"haunt": 30, "darkness": 11, "bull": 1, "devourer": 1}
    st = GAME.setup(["s1", "s2"], GAME.options_model(), 1)
    assert set(st.ghosts) == {"wraith", "bull", "devourer"} and len(st.dice) == 8


def test_EX_COMP_04_to_10_EX_SETUP_10_the_view_carries_what_the_board_shows() -> None:
    st = GAME.setup(["s1", "s2"], GAME.options_model(), 1)
    v = GAME.view(st, None)
    room = next(c for c in v["cells"] if c["kind"] == "house" and not c["face_down"])
    assert room["name"] and room["action_text"] and 1 <= room["location"] <= 6  # COMP-04
    inv = v["investigators"][0]
    assert inv["name"] and inv["specialization"] and inv["ability_text"]  # COMP-05
    task = v["available_tasks"][0]
    assert {"to_complete", "points", "subtype", "reward"} <= set(task)  # COMP-08
    assert set(v["tool_names"]) == set(st.tool_piles)  # COMP-09 icons
    icons = [d["hour"] for d in v["clock"]["dice"] if d["action_icon"]]
    assert icons == [1, 4, 7]  # COMP-10
    assert v["darkness_track"]["spaces"][0] == 1 and v["darkness_track"]["spaces"][-1] == 3
    for key in ("clock", "darkness_track", "exorcism", "decks", "characters", "tool_piles"):
        assert key in v  # EX-SETUP-10 board items


def test_EX_COMP_06_07_haunt_card_and_plan_descriptions() -> None:
    st = quiet()
    eng = Engine(st)
    assert "Wraith" in eng.haunt_card_text("H01") and "Location" in eng.haunt_card_text("H01")
    st.plan_deck.remove("pawn_the_loot_key_detection")
    st.players["s1"].plans.append("pawn_the_loot_key_detection")
    label = GAME.describe(st, "s1", act("plan", plan="pawn_the_loot_key_detection"))
    assert label.startswith("Play Pawn the Loot") and len(label) <= 80


def test_EX_CLOCK_01_eight_dice_of_six_pips() -> None:
    st = GAME.setup(["s1", "s2"], GAME.options_model(), 1)
    assert len(st.dice) == 8 and sum(st.dice) == 47  # one pip already gone on turn 1
    assert GAME.view(st, None)["clock"]["turns_left"] == 47


def test_EX_TURN_01_turns_pass_clockwise_and_rounds_count() -> None:
    st = quiet("core", 3)
    st.first_seat = "s1"
    st.round = 1
    st = at_rest(st, "s1")
    st, _ = do(st, "s1", "pass")
    assert st.active == "s2" and st.round == 1
    st, _ = do(st, "s2", "pass")
    assert st.active == "s3"
    st.ghosts["wraith"] = None
    st, _ = do(st, "s3", "pass")
    assert st.active == "s1" and st.round == 2


def test_EX_TURN_02_steps_in_order_timer_haunt_actions() -> None:
    st = quiet()
    st.round = 2
    st.first_seat = "s1"
    top_haunt(st, "H01")
    st2, ev = do(at_rest(st, "s2"), "s2", "pass")
    kinds_ = [e.kind for e in ev]
    assert kinds_.index("clock") < kinds_.index("haunt_card")
    assert st2.phase == "actions" and st2.actions_left == 3


def test_EX_TURN_03_the_same_action_may_be_taken_several_times() -> None:
    st = quiet()
    put(st, "s1", "r2c2")
    st, _ = do(st, "s1", "move", to="r2c3")
    st, _ = do(st, "s1", "move", to="r2c2")
    assert st.actions_left == 1 and "move" in kinds(st, "s1")


def test_EX_TURN_05_an_escaped_player_is_skipped() -> None:
    st = quiet("core", 3)
    st.points = 30
    st.exorcised = True
    st.players["s2"].out = True
    st.investigators["s2"].escaped = True
    st.escaped.append(st.investigators["s2"].character or "")
    st.investigators["s2"].cell = None
    st2, _ = do(at_rest(st, "s1"), "s1", "pass")
    assert st2.active == "s3"


def test_EX_ACT_10_the_turn_card_actions_are_offered() -> None:
    st = quiet()
    place_room(st, "R02", "r2c2")
    put(st, "s1", "r2c2")
    put(st, "s2", "r2c2")
    give(st, "s2", "weapon")
    add_darkness(st, "r2c2", 1)
    assert {"move", "room_action", "trade", "purify", "pass"} <= kinds(st, "s1")


def test_EX_DARK_01_03_darkness_value_and_purify_returns_tokens_to_the_supply() -> None:
    st = quiet()
    put(st, "s1", "r2c2")
    add_darkness(st, "r2c2", 2)
    supply = st.darkness_supply
    st2, _ = do(st, "s1", "purify")
    assert st2.darkness_supply == supply + 1
    st2.track_index = 4
    assert Engine(st2).track_value() == 2


def test_EX_FOYER_02_escape_before_thirty_is_only_a_switch_EX_AMB_47() -> None:
    st = quiet()
    put(st, "s1", "foyer")
    st2, _ = do(st, "s1", "room_action")
    assert {a.kind for a in legal(st2, "s1")} == {"switch"}
    st.out_of_play += st.lookouts
    st.lookouts = []
    assert "room_action" not in kinds(st, "s1")


def test_EX_FOYER_02_EX_WIN_02_the_foyer_says_and_advises_what_it_offers() -> None:
    """The Foyer's question and its advice name what its answers offer: before the Exorcism
    only a switch (EX-AMB-47), once the Ghosts are exorcised the escape (and the switch while
    a Lookout is left), then the escape alone; the turn's advice after the Exorcism is to
    walk to the Foyer, not another Task."""
    st = quiet()
    put(st, "s1", "foyer")
    before, _ = do(st, "s1", "room_action")
    assert before.prompts[-1].text.startswith("Switch your Character with a Lookout")
    advice = GAME.guide_text(before, "s1", private=True) or ""
    assert "switch your Character" in advice and "opens once the Ghosts are exorcised" in advice

    st.points, st.exorcised = 30, True
    assert "walk to the Foyer and Escape the House" in (GAME.guide_text(st, "s1") or "")
    after, _ = do(st, "s1", "room_action")
    assert {a.kind for a in legal(after, "s1")} == {"escape", "switch"}
    assert after.prompts[-1].text == "Escape the House, or switch your Character with a Lookout."
    assert (GAME.guide_text(after, "s1") or "").startswith("The Ghosts are exorcised: Escape")
    st.out_of_play += st.lookouts
    st.lookouts = []
    alone, _ = do(st, "s1", "room_action")
    assert {a.kind for a in legal(alone, "s1")} == {"escape"}
    assert alone.prompts[-1].text == "Escape the House."


def test_EX_FOYER_05_gained_tokens_count_as_points() -> None:
    st = quiet()
    locked = next(c.id for c in st.cells.values() if c.face_down)
    st.cells[locked].exorcism_tokens = 3
    put(st, "s1", locked)
    give(st, "s1", "key")
    st2, ev = do(st, "s1", "unlock")
    assert st2.points == 3 and "Exorcism points" in texts(ev)


def test_EX_GHOST_01_03_10_each_ghost_moves_one_step_and_ghosts_share_rooms() -> None:
    st = quiet()
    card = PACK.haunt_card("H01")
    st.ghosts.update({"wraith": "r2c2", "bull": "r2c2", "devourer": "r2c2"})
    top_haunt(st, "H01")
    st2 = run_steps(st, ("haunt_draw", {"left": 1}))
    geo = Engine(st2).geo
    assert st2.ghosts["wraith"] == geo.ghost_move("wraith", "r2c2", card.arrows.wraith, 1)
    assert st2.ghosts["devourer"] == geo.ghost_move("devourer", "r2c2", card.arrows.devourer, 1)
    assert st2.ghosts["bull"] == geo.ghost_move("bull", "r2c2", card.arrows.bull,
                                                card.die_value)
    st3 = quiet()
    st3.ghosts.update({"wraith": "r3c3", "bull": "r3c3"})
    assert not GAME.invariants(st3)


def test_EX_GHOST_08_ghosts_stay_until_the_exorcism() -> None:
    st = quiet()
    st.ghosts["bull"] = "attic"
    cards = [c.id for c in PACK.haunt_deck if c.kind == "haunt"][:10]
    top_haunt(st, *cards)
    st2 = run_steps(st, ("haunt_draw", {"left": 10}))
    assert st2.ghosts["bull"] is not None or st2.outcome is not None


def test_EX_LOSE_02_no_lookouts_loses_only_when_a_rescue_is_needed_EX_AMB_04() -> None:
    st = quiet()
    st.out_of_play += st.lookouts
    st.lookouts = []
    st2, _ = do(st, "s1", "pass")
    assert st2.outcome is None


def test_EX_OVA_02_core_rules_still_apply_in_one_vs_all() -> None:
    st = quiet("one_vs_all", 3)
    put(st, "s2", "r2c2")
    st.ghosts["wraith"] = "r2c3"
    dest = {a.params["to"] for a in legal(st, "s2") if a.kind == "move"}
    assert "r2c3" not in dest and "r2c4" not in dest


def test_EX_PLAN_01_02_plans_are_one_use_and_triage_saves_any_character() -> None:
    st = quiet()
    st.plan_deck.remove("cleanse")
    st.players["s1"].plans.append("cleanse")
    put(st, "s1", "r2c2")
    add_darkness(st, "r2c2", 1)
    st2, _ = do(st, "s1", "plan", plan="cleanse")
    assert "cleanse" not in st2.players["s1"].plans and "cleanse" in st2.plan_discard
    st3 = quiet()
    put(st3, "s1", "r2c1")  # the holder's own Character can be saved too
    st3.ghosts["wraith"] = "r3c1"
    st3.plan_deck.remove("triage")
    st3.players["s1"].plans.append("triage")
    top_haunt(st3, "H01")
    st4 = run_steps(st3, ("haunt_draw", {"left": 1}))
    st5, _ = do(st4, "s1", "plan", plan="triage")
    assert st5.investigators["s1"].cell == "foyer"


def test_EX_SETUP_08_09_variant_setup_steps() -> None:
    ova = GAME.setup(["s1", "s2", "s3"], GAME.options_model(mode="one_vs_all"), 1)
    assert ova.prompts[-1].kind == "manipulate_manor" and not ova.ghost_hand
    ova2, _ = do(ova, "s1", "manor_done")
    assert len(ova2.ghost_hand) == 3
    solo = GAME.setup(["s1"], GAME.options_model(mode="solo"), 1)
    assert solo.prompts[-1].kind == "choose_primary" and not solo.investigators


def test_EX_TASK_02_only_tools_are_traded() -> None:
    st = quiet()
    put(st, "s1", "r2c2")
    put(st, "s2", "r2c2")
    st.players["s1"].tasks.append(st.task_deck.pop())
    give(st, "s1", "key")
    st2, _ = do(st, "s1", "trade", **{"with": "s2"})
    assert {a.kind for a in legal(st2, "s1")} <= {"trade_give", "trade_take", "trade_offer",
                                                   "trade_cancel"}


def test_EX_TERROR_08_available_terror_grows_with_the_haunt_level() -> None:
    st = quiet("one_vs_all", 3)
    st = at_rest(st, "s2")
    st.track_index = 8
    st = run_steps(st, ("ghost_phase_start", {}))
    seen = []
    for level in (0, 6, 10, 14, 18, 20):
        st.darkness_supply += st.haunt_level - level
        st.haunt_level = level
        seen.append(len([a for a in legal(st, "s1") if a.kind == "terror"]))
    assert seen == sorted(seen) and seen[0] == 0 and seen[-1] >= 5


def test_EX_TOOL_03_dropped_tools_stay_until_picked_up() -> None:
    st = quiet()
    put(st, "s2", "r2c1")
    give(st, "s2", "occult", 2)
    st.ghosts["wraith"] = "r3c1"
    top_haunt(st, "H01")
    st2 = run_steps(st, ("haunt_draw", {"left": 1}))
    assert st2.cells["r2c1"].dropped == {"occult": 2}
    assert not GAME.invariants(st2)


def _pack_with(tmp_path, **options: object) -> str:
    """A copy of the default pack with some [options] changed."""
    import shutil

    from rules.exorcism.content import DEFAULT_PACK_DIR

    dest = tmp_path / "pack"
    shutil.copytree(DEFAULT_PACK_DIR, dest)
    text = (dest / "pack.toml").read_text()
    for key, value in options.items():
        literal = str(value).lower() if isinstance(value, bool) else repr(value)
        lines = [ln for ln in text.splitlines() if not ln.startswith(f"{key} ")]
        text = "\n".join(lines).replace("[options]", f"[options]\n{key} = {literal}", 1)
    (dest / "pack.toml").write_text(text)
    return str(dest)


def test_EX_SETUP_07_initial_darkness_cards_pack_option(tmp_path) -> None:
    path = _pack_with(tmp_path, initial_darkness_cards=2)
    st = GAME.setup(["s1", "s2"], GAME.options_model(pack_path=path), 1)
    assert sum(c.darkness for c in st.cells.values()) > 0
    assert len(st.haunt_discard) == 2 and not GAME.invariants(st)


def test_EX_DARK_07_shroud_returns_darkness_pack_option(tmp_path) -> None:
    path = _pack_with(tmp_path, shroud_returns_darkness=True)
    st = GAME.setup(["s1", "s2"], GAME.options_model(pack_path=path), 1)
    clear_board(st)
    cid = next(c for c, cell in st.cells.items()
               if cell.card and not cell.face_down and PACK.room(cell.card).location == 2)
    add_darkness(st, cid, 3)
    st2 = run_steps(st, ("place_darkness", {"location": 2}))
    assert st2.cells[cid].shrouded and st2.cells[cid].darkness == 0
    assert not GAME.invariants(st2)


def _shroud_location_two(st):
    """The board cleared, a face-up Location 2 Room at 3 tokens: the next token Shrouds it."""
    clear_board(st)
    cid = next(c for c, cell in st.cells.items()
               if cell.card and not cell.face_down and PACK.room(cell.card).location == 2)
    add_darkness(st, cid, 3)
    return cid


def test_EX_GAP_17_shroud_ruling_as_a_table_option_returns_the_tokens() -> None:
    """The table option `shroud_returns_darkness` (chosen in /game new) is the state's and the
    engine reads it: the Shrouded Room's 4 tokens go back to the supply."""
    st = GAME.setup(["s1", "s2", "s3"], GAME.options_model(shroud_returns_darkness=True), 1)
    assert st.shroud_returns_darkness is True
    cid = _shroud_location_two(st)
    supply = st.darkness_supply
    st2 = run_steps(st, ("place_darkness", {"location": 2}))
    cell = st2.cells[cid]
    assert cell.shrouded and cell.darkness == 0
    # every token placed on Location 2 left the supply; the Shrouded Room's 4 came back
    placed = sum(max(0, st2.cells[c].darkness - st.cells[c].darkness)
                 for c in st2.cells if c != cid)
    assert st2.darkness_supply == supply - placed + 3
    assert not GAME.invariants(st2)


def test_EX_DARK_07_without_the_table_option_the_tokens_stay_under_the_shroud() -> None:
    """The default stays the rulebook's literal reading ("place on top of it")."""
    st = GAME.setup(["s1", "s2", "s3"], GAME.options_model(), 1)
    assert st.shroud_returns_darkness is False
    cid = _shroud_location_two(st)
    st2 = run_steps(st, ("place_darkness", {"location": 2}))
    assert st2.cells[cid].shrouded and st2.cells[cid].darkness == 4
    assert not GAME.invariants(st2)


def test_EX_GAP_17_the_table_option_survives_a_resample_and_a_json_round_trip() -> None:
    """The ruling is public: a resampled world (the AI's search) and a stored game keep it."""
    from rules.core.rng import Rng

    st = GAME.setup(["s1", "s2", "s3"], GAME.options_model(shroud_returns_darkness=True), 4)
    assert GAME.resample(st, "s1", Rng.from_seed(2)).shroud_returns_darkness is True
    assert GAME.state_model.model_validate_json(st.model_dump_json()).shroud_returns_darkness


def _racing_ghost_raises(cooldown: bool, seed: int = 3) -> list[int]:
    """A One vs All game (4 players) whose Ghost player raises the Haunt Level whenever it
    may (the race of EX-AMB-59), everyone else the built-in AI: the raises per Haunt phase,
    in order, until the game ends."""
    from rules.exorcism import actions as K

    st = GAME.setup(["s1", "s2", "s3", "s4"],
                    GAME.options_model(mode="one_vs_all", haunt_level_cooldown=cooldown), seed)
    assert st.haunt_level_cooldown is cooldown
    phases: list[int] = []
    in_phase = False
    for _ in range(3000):
        if GAME.result(st) is not None:
            break
        seat = sorted(GAME.to_act(st))[0]
        legal = GAME.legal_actions(st, seat)
        ghost_phase = st.phase == "ghost" and seat == st.ghost_seat and not st.prompts
        if ghost_phase and not in_phase:
            phases.append(0)
        in_phase = ghost_phase or (in_phase and st.phase == "ghost")
        raise_ = next((a for a in legal if a.kind == K.HAUNT_LEVEL), None)
        if ghost_phase and raise_ is not None:
            phases[-1] += 1
            st = GAME.apply(st, seat, raise_).state
        else:
            st = GAME.apply(st, seat, GAME.ai_action(st, seat)).state
    return phases


def test_EX_AMB_59_haunt_level_ruling_as_a_table_option() -> None:
    """With `haunt_level_cooldown` a racing Ghost player raises at most once a Haunt phase and
    never in two phases in a row; without it (the rulebook) it raises in every phase and wins
    on the Level long before the investigators can make 30 points."""
    ruled = _racing_ghost_raises(True)
    assert ruled and max(ruled) == 1 and sum(ruled) >= 3
    assert all(not (a and b) for a, b in itertools.pairwise(ruled))
    book = _racing_ghost_raises(False)
    assert all(book) and len(book) >= 2  # a raise in every phase
    assert len(book) < len(ruled)  # the race ends the literal game sooner


def test_EX_AMB_59_refused_raise_names_the_ruling_and_core_refuses_the_option() -> None:
    import pytest

    from rules.core.errors import IllegalAction
    from rules.core.types import act
    from rules.exorcism import actions as K

    st = GAME.setup(["s1", "s2", "s3", "s4"],
                    GAME.options_model(mode="one_vs_all", haunt_level_cooldown=True), 5)
    seat = str(st.ghost_seat)
    for _ in range(3000):  # the Ghost player raises once, then its next Haunt phase begins
        mover = sorted(GAME.to_act(st))[0]
        if mover == seat and st.phase == "ghost" and not st.prompts and st.raised_last_phase:
            break
        legal = GAME.legal_actions(st, mover)
        pick = next((a for a in legal if a.kind == K.HAUNT_LEVEL), None)
        st = GAME.apply(st, mover, pick or GAME.ai_action(st, mover)).state
    assert st.raised_last_phase and seat in GAME.to_act(st)
    assert act(K.HAUNT_LEVEL) not in GAME.legal_actions(st, seat)
    with pytest.raises(IllegalAction) as refused:
        GAME.apply(st, seat, act(K.HAUNT_LEVEL))
    assert refused.value.rule == "EX-AMB-59"
    core = GAME.options_model(mode="core", haunt_level_cooldown=True)
    assert any("One vs All" in c for c in GAME.option_conflicts(core))
