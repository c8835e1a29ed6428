"""The Exorcism heuristic's escape (issue #23, rules.md "Stop 33"): in core, once the Tasks held
cover the missing points, a pawn no Task needs waits within a turn's walk of the Foyer and
Purifies there (`_Brain.escape_walk`); after the exorcism a pawn with an Action to spare
Purifies before it escapes while a teammate stays in the house (`_Brain.spare_before_escape`).
The tests of a behaviour fail on the heuristic before stop 33; the guards (the finisher, the
last pawn out) passed before and still do."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from rules.core.types import act
from rules.exorcism import actions as K
from rules.exorcism import ai
from rules.exorcism.ai import choose_action
from rules.exorcism.engine import Engine
from rules.exorcism.game import GAME
from rules.exorcism.state import ExorcismState
from tests.exorcism.helpers import add_darkness, clear_board, give, new_game, place_room


def hand_task(st: ExorcismState, seat: str, task: str) -> None:
    for pile in (st.task_deck, st.available_tasks):
        if task in pile:
            pile.remove(task)
    st.players[seat].tasks.append(task)


def near_the_exorcism() -> ExorcismState:
    """Core, 3 players, seed 1, no Ghosts: 27 points, and s2 holds weapon-3 (3 points) with
    its Tools in hand, so the Tasks held cover the missing points; s1 holds no Task. A Room
    (R05, face up) next to the Foyer holds 2 Darkness Tokens."""
    st = new_game("core", 3, 1)
    clear_board(st)
    place_room(st, "R05", "r4c3")
    add_darkness(st, "r4c3", 2)
    hand_task(st, "s2", "weapon-3")
    give(st, "s2", "weapon", 2)
    give(st, "s2", "holy_relic")
    st.points = 27
    st.investigators["s2"].cell = "r2c2"
    st.investigators["s3"].cell = "r1c3"
    return st


def test_EX_WIN_02_a_pawn_no_task_needs_purifies_next_to_the_foyer_rather_than_wait_idle() -> None:
    """Before stop 33 s1 ended its turn in the Foyer with its 3 Actions unused (`holds_at_foyer`,
    core seed 5 at game turn 23), where no Darkness lies; now it steps next door and Purifies,
    still one Move and the Escape from the Foyer for the turn after the exorcism."""
    st = near_the_exorcism()
    st.investigators["s1"].cell = "foyer"
    action = choose_action(st, "s1")
    assert action == act(K.MOVE, to="r4c3")
    st = GAME.apply(st, "s1", action).state
    assert choose_action(st, "s1") == act(K.PURIFY)


def play_turn(st: ExorcismState, seat: str) -> tuple[ExorcismState, list[str]]:
    """The heuristic plays `seat`'s turn to its end; the Actions' kinds."""
    kinds = []
    while st.active == seat and st.phase == "actions" and not st.prompts:
        action = choose_action(st, seat)
        kinds.append(action.kind)
        st = GAME.apply(st, seat, action).state
    return st, kinds


def test_EX_WIN_02_a_pawn_within_a_turn_of_the_foyer_purifies_where_it_stands() -> None:
    """r1c3 is 4 spaces from the Foyer: 2 Moves and the Escape fit the turn after the
    exorcism, so s1 Purifies its Room's 3 tokens (before stop 33: walked into the Foyer and
    ended the turn there with an Action unused)."""
    st = near_the_exorcism()
    st.investigators["s1"].cell = "r1c3"
    add_darkness(st, "r1c3", 3)
    st, kinds = play_turn(st, "s1")
    assert kinds == [K.PURIFY] * 3
    assert st.investigators["s1"].cell == "r1c3"


def test_EX_WIN_02_a_far_pawn_walks_to_purify_next_to_the_foyer() -> None:
    """From r1c2 (5 spaces) s1 walks 2 Moves to the Room next to the Foyer and Purifies
    there, rather than walk on into the Foyer (before stop 33: 3 Moves, into the Foyer)."""
    st = near_the_exorcism()
    st.investigators["s1"].cell = "r1c2"
    add_darkness(st, "r1c2", 3)
    eng = Engine(st)
    st, kinds = play_turn(st, "s1")
    assert kinds == [K.MOVE, K.MOVE, K.PURIFY]
    cell = st.investigators["s1"].cell
    assert cell == "r4c3" and eng.geo.dist[cell]["foyer"] == 1


def test_EX_WIN_02_the_finisher_is_not_sent_to_the_foyer() -> None:
    """s2 holds the Task that completes the exorcism: escape mode leaves it to its Task
    (a guard)."""
    st = near_the_exorcism()
    st.active = "s2"
    assert choose_action(st, "s2") == act(K.TASK, task="weapon-3")


def exorcised(cell: str) -> ExorcismState:
    st = near_the_exorcism()
    st.players["s2"].tasks.clear()
    st.points = 31
    st.exorcised = True
    st.investigators["s1"].cell = cell
    return st


def test_EX_HAUNT_11_a_pawn_with_an_action_to_spare_purifies_before_it_escapes() -> None:
    """After the exorcism the Haunt cards still come at every turn's start (EX-HAUNT-11),
    so while a teammate is in the house a token off the board is a token the supply keeps:
    one Move and the Escape leave a third Action, Purify first (before stop 33: walked
    out at once)."""
    st = exorcised("r4c3")
    assert choose_action(st, "s1") == act(K.PURIFY)
    st = GAME.apply(st, "s1", act(K.PURIFY)).state
    assert choose_action(st, "s1") == act(K.MOVE, to="foyer")


def test_EX_WIN_02_the_last_pawn_in_the_house_walks_out_at_once() -> None:
    """With every teammate out, the Escape wins at once (EX-WIN-02): no Purify first (a
    guard)."""
    st = exorcised("r4c3")
    for seat in ("s2", "s3"):
        st.investigators[seat].escaped = True
        st.investigators[seat].cell = None
        st.players[seat].out = True
    assert choose_action(st, "s1") == act(K.MOVE, to="foyer")


SEED130 = Path(__file__).resolve().parent.parent / "fixtures" / "exorcism" / \
    "core3_seed130_spared_task_holder.json"
"""Core, 3 players, seed 130, every seat easy (stop 33's main, census loop): game turn 20,
p3 to act with 3 Actions; 29 points, 5 tokens in the supply. All three pawns stand in the
Supply Room r3c1 (4 spaces from the Foyer); p1 holds Tasks ready now (no Tool short) that make
up the missing point, p3 holds holy_relic-3 and weapon-3."""


def test_EX_WIN_02_a_task_holder_the_last_point_does_not_need_walks_toward_the_foyer(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """p1's ready Tasks make up the last point, so p3's are not needed (`_Brain.spared`): p3
    walks toward the Foyer and Purifies there rather than gain Tools in r3c1 for its own Task
    (stop 33's main: the Room's Tool and the Photographer's ability, still 4 spaces away)."""
    st = ExorcismState.model_validate_json(SEED130.read_text())
    assert (st.game_turn, st.active, st.actions_left, st.points) == (20, "p3", 3, 29)
    assert {i.cell for i in st.investigators.values()} == {"r3c1"}
    eng = Engine(st)
    st, kinds = play_turn(st, "p3")
    assert kinds[-1] == K.PURIFY and K.ROOM_ACTION not in kinds and K.ABILITY not in kinds
    assert eng.geo.dist[st.investigators["p3"].cell]["foyer"] < eng.geo.dist["r3c1"]["foyer"]
    monkeypatch.setattr(ai, "ESCAPE_SPARE", False)
    before = ExorcismState.model_validate_json(SEED130.read_text())
    assert choose_action(before, "p3") == act(K.ROOM_ACTION)


def test_EX_WIN_02_the_seat_picked_to_finish_is_not_spared() -> None:
    """The same state: p1, whose ready Tasks make up the point, is the finisher from every
    seat's view (Tasks and Tools are public), so at least one pawn keeps to the Tasks (a
    guard against every Task-holder walking away)."""
    st = ExorcismState.model_validate_json(SEED130.read_text())
    for seat in ("p1", "p2", "p3"):
        brain = ai._Brain(st, seat)
        assert not brain.spared(st.investigators["p1"])
        assert brain.spared(st.investigators["p3"])



SEED3 = Path(__file__).resolve().parent.parent / "fixtures" / "exorcism" / \
    "core3_seed3_fetch_the_last_tool.json"
"""Core, 3 players, seed 3, every seat easy (census loop): game turn 24, p1 to act with 3
Actions; 26 points, 6 tokens in the supply. p2 stands in the Tool Room r4c4 (2 spaces from the
Foyer) with key-6 (4 points) one Detection Tool short; p1 (no Task) is in r3c4 next to it, p3
(Tasks 3-4 Tools short, no finisher) waits in the Foyer."""


def play_seat_turn(st: ExorcismState, seat: str) -> tuple[ExorcismState, list[str]]:
    """Every seat's AI (`GAME.ai_action`, the seat's resample) plays until `seat`'s turn ends,
    prompts and the partner's consent included; the kinds of `seat`'s main Actions."""
    kinds = []
    while st.active == seat and st.phase == "actions" and GAME.result(st) is None:
        who = sorted(GAME.to_act(st))[0]
        action = GAME.ai_action(st, who, "easy")
        if who == seat and not st.prompts:
            kinds.append(action.kind)
        st = GAME.apply(st, who, action).state
    return st, kinds


def test_EX_WIN_02_a_free_pawn_fetches_the_finishers_last_tool_a_turn_early(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Stop 34: on its own p2 needs 4 Actions next turn (the Tool, key-6 for the 30th point,
    a Move, the Escape), so p1 walks into r4c4, gains the Detection Tool and Trades it to p2
    (`_Brain.fetch_step`); p2 then completes key-6, walks into the Foyer and escapes in one
    turn: one Haunt phase fewer after the exorcism, and the census game is won. On stop 33's
    main p1 Purified, p2 could only escape on turn 28, whose Haunt cards emptied the supply."""
    st = ExorcismState.model_validate_json(SEED3.read_text())
    assert (st.game_turn, st.active, st.actions_left, st.points) == (24, "p1", 3, 26)
    p2 = st.investigators["p2"]
    assert ai._Brain(st, "p1").finish_turn_cost(p2, Counter({"detection": 1})) == 4
    st, kinds = play_seat_turn(st, "p1")
    assert kinds == [K.MOVE, K.ROOM_ACTION, K.TRADE]
    assert st.investigators["p2"].tools["detection"] == 1
    st, kinds = play_seat_turn(st, "p2")
    assert st.exorcised and st.investigators["p2"].cell is None
    monkeypatch.setattr(ai, "FETCH_LAST_TOOLS", False)
    before = ExorcismState.model_validate_json(SEED3.read_text())
    assert play_seat_turn(before, "p1")[1][-1] == K.PURIFY


def test_EX_WIN_02_every_seat_sees_the_same_last_tools() -> None:
    """The plan reads only public things (Tasks, Tools, pawns): from every seat's view p2 is
    the finisher one Detection Tool short, and p1 fetches it from r4c4 with its 3 Actions."""
    st = ExorcismState.model_validate_json(SEED3.read_text())
    for seat in ("p1", "p2", "p3"):
        brain = ai._Brain(st, seat)
        lacks = {f.seat: dict(lack) for f, lack in brain.finisher_lacks()}
        assert lacks == {"p2": {"detection": 1}}
        assert brain.fetch_plan(st.investigators["p1"]) == (3, "detection", "p2", "r4c4")


def two_short_at_28() -> ExorcismState:
    """One vs All, 3 players, seed 1, no Ghost in the house: 28 of 30 points; the Architect
    (s2) stands in the Foyer holding Holy Relic Task 3 (3 points) with its Key, two Holy Relics
    short, the Relic Room and the Supply Room far off in the top-left corner; the Darkness
    supply is low (most of it went to the Haunt Level)."""
    st = new_game("one_vs_all", 3, 1)
    clear_board(st)
    place_room(st, "R03", "r1c1")
    place_room(st, "R11", "r1c2")
    hand_task(st, "s2", "holy_relic-3")
    give(st, "s2", "key")
    st.points = 28
    st.darkness_supply, st.haunt_level = 4, 26
    st.game_turn, st.round = 21, 11
    st.dice = [0, 0, 0, 3, 6, 6, 6, 6]
    for seat in ("s2", "s3"):
        st.investigators[seat].cell = "foyer"
    return st


def test_EX_WIN_01_the_finisher_at_28_of_30_works_on_its_task_not_waits_in_the_foyer() -> None:
    """Stop 65's One vs All demo (seed 151, game turns 20-31): at 28 of 30 points the
    Architect, whose Task the last points needed, walked to the Foyer and ended turn after
    turn there with its Actions unused, until the Ghost player wounded the team out. The
    endgame's wait by the Foyer is for the pawns the last points do not need."""
    st = two_short_at_28()
    st, kinds = play_turn(st, "s2")
    assert kinds and kinds[0] == K.MOVE, kinds
    eng = Engine(st)
    cell = st.investigators["s2"].cell or "foyer"
    assert eng.geo.dist[cell]["r1c2"] < eng.geo.dist["foyer"]["r1c2"], (cell, kinds)


def test_EX_TIME_02_a_locked_rooms_last_point_is_unlocked_at_once() -> None:
    """29 of 30 points, the Architect in a face-down Locked Room holding 1 Exorcism Token,
    with a Key its own Task also wants, and a Time Action two turns off: unlocking now makes
    the exorcism (EX-TIME-02, EX-WIN-01); waiting for a second token, or keeping the Key for
    a Task, leaves the game to the Ghosts (stop 66)."""
    st = two_short_at_28()
    st.players["s2"].tasks = ["holy_relic-4"]
    st.points = 29
    locked = next(c.id for c in st.cells.values() if c.face_down)
    st.cells[locked].exorcism_tokens = 1
    st.investigators["s2"].cell = locked
    st.dice = [0, 0, 0, 2, 6, 6, 6, 6]
    assert choose_action(st, "s2") == act(K.UNLOCK)


def test_EX_OVA_13_an_empty_supply_does_not_keep_one_vs_all_investigators_in_the_foyer() -> None:
    """Stop 66's replay of One vs All seed 151: at 27 of 30 points with no Task held, the
    Ghost player had drained the Darkness supply into the Haunt Level, and both investigators
    ended turn after turn in the Foyer: the endgame's wait there grew with the supply running
    out, which in One vs All loses nothing (EX-OVA-13). They go for the last points."""
    st = two_short_at_28()
    st.task_discard += st.players["s2"].tasks
    st.players["s2"].tasks = []
    st.investigators["s2"].tools = {}
    st.tool_piles["key"] = st.tool_piles.get("key", 0) + 1
    st.points = 27
    add_darkness(st, "r1c2", 2)
    st.darkness_supply, st.haunt_level = 0, 28
    assert not GAME.invariants(st), GAME.invariants(st)
    st, kinds = play_turn(st, "s2")
    assert kinds[0] != K.PASS, kinds
    assert st.investigators["s2"].cell != "foyer" or len(kinds) > 1, kinds


SEED151 = Path(__file__).resolve().parent.parent / "fixtures" / "exorcism" / \
    "ova3_seed151_near_win_foyer.json"
"""One vs All, 3 players (seats s1-s3, s1 the Ghost player), seed 151, the investigators at
normal and the Ghost player easy (the demo with `--as role`): game turn 22, s2 (the Bodyguard)
to act with 3 Actions in Purging Room A next to the Foyer; 27 of 30 points, no Task held by
anyone, the Wraith in the Attic, 3 Locked Rooms with 1 Exorcism Token each; s3 waits in the
Foyer. Task Room A (r4c2), the nearest way to a Task, is the Room the Ghost model fears most."""


def test_EX_WIN_01_at_the_near_win_with_no_task_held_nobody_ends_turns_in_the_foyer() -> None:
    """Stop 66's demo (One vs All seed 151, game turns 21-26): at 27 of 30 points with no Task
    held, both investigators walked into the Foyer and ended their turns there with 2 Actions
    unused, turn after turn: the wait by the Foyer for an exorcism nobody was working on, and
    the Wound risk of Task Room A above the Task it offers. The last points are the game: the
    pawn goes for them (stop 67)."""
    st = ExorcismState.model_validate_json(SEED151.read_text())
    assert (st.game_turn, st.active, st.actions_left, st.points) == (22, "s2", 3, 27)
    assert not any(p.tasks for p in st.players.values())
    after, kinds = play_seat_turn(st, "s2")
    assert K.PASS not in kinds, kinds
    assert after.players["s2"].tasks or after.investigators["s2"].cell != "foyer", kinds
    # And from the Foyer itself, with 2 Actions left, the pawn walks out for the Task.
    st = GAME.apply(st, "s2", act(K.MOVE, to="foyer")).state
    assert choose_action(st, "s2") != act(K.PASS)


SEED53 = Path(__file__).resolve().parent.parent / "fixtures" / "exorcism" / \
    "ova3_seed53_ghost_on_the_supply_room.json"
"""One vs All, 3 players (seats s1-s3, s1 the Ghost player), seed 53, every seat easy: game
turn 28, s2 (the Architect, in the Foyer with a Detection Tool) to act with 3 Actions; 16 of
30 points. s2 holds holy_relic-3, holy_relic-2, key-2 and key-5; the Wraith stands in the
Supply Room (r1c1) on a dropped pile (3 Keys, 2 Holy Relics ...); the Relic Room (r1c2) and
the Key Room (r2c1) are Ghost-free."""


def test_EX_ACT_01_a_ghost_on_the_nearest_tool_source_sends_the_pawn_to_another() -> None:
    """Stop 66's One vs All seed 53: every plan of s2's went through the Supply Room, where
    the Wraith stood (nobody enters a Ghost's Room, EX-ACT-01), and the Ghost player kept it
    there: s2 ended turn after turn in the Foyer with its 3 Actions unused (game turns
    28-42), and the game was lost at dawn. The Tools its Tasks lack come from another source
    (stop 67)."""
    st = ExorcismState.model_validate_json(SEED53.read_text())
    assert (st.game_turn, st.active, st.actions_left, st.points) == (28, "s2", 3, 16)
    assert st.ghosts["wraith"] == "r1c1" and st.investigators["s2"].cell == "foyer"
    s2 = st.investigators["s2"]
    before = Counter(s2.tools)
    brain = ai._Brain(st, "s2")
    lacks = brain.allocate(before, brain.seat_tasks("s2"), s2.character)[2]
    assert choose_action(st, "s2") != act(K.PASS)
    after, kinds = play_seat_turn(st, "s2")
    assert K.PASS not in kinds, kinds
    gained = Counter(after.investigators["s2"].tools) - before
    assert any(lacks[t] for t in gained), (kinds, gained, lacks)
