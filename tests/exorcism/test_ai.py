"""The Exorcism AI (rules/exorcism/ai.py): always legal, deterministic, better than random,
and sensible in a few hand-built situations."""

from __future__ import annotations

import statistics

import pytest

from rules.core.rng import Rng
from rules.core.types import act
from rules.exorcism import actions as K
from rules.exorcism.ai import choose_action, choose_optional_action
from rules.exorcism.engine import Engine
from rules.exorcism.game import GAME
from rules.exorcism.state import ExorcismState, Step

MAX_DECISIONS = 3000


def seats(n: int) -> list[str]:
    return [f"s{i}" for i in range(1, n + 1)]


def play(mode: str, n: int, seed: int, ai: bool = True) -> tuple[ExorcismState, int]:
    """A whole game; every decision is checked legal and the state is never mutated."""
    st = GAME.setup(seats(n), GAME.options_model(mode=mode), seed)
    rng = Rng.from_seed(seed)
    decisions = 0
    while GAME.result(st) is None:
        awaited = sorted(GAME.to_act(st))
        assert awaited, "the game waits for nobody but is not over"
        seat = awaited[0]
        legal = GAME.legal_actions(st, seat)
        if ai or seat == st.ghost_seat:
            before = st.model_dump_json() if decisions % 25 == 0 else None
            action = choose_action(st, seat)
            if before is not None:
                assert st.model_dump_json() == before, "choose_action mutated the state"
            assert action in legal, (seat, action)
        else:
            action = rng.choice(legal)
        st = GAME.apply(st, seat, action).state
        decisions += 1
        assert decisions < MAX_DECISIONS, "the game does not end"
    return st, decisions


# ---------------------------------------------------------------- whole games


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_core_games_always_legal_and_end(n: int) -> None:
    for seed in (11, 12):
        st, _ = play("core", n, seed)
        assert GAME.result(st) is not None
        assert not GAME.invariants(st)


def test_solo_games_always_legal_and_end() -> None:
    for seed in (21, 22, 23):
        st, _ = play("solo", 1, seed)
        assert GAME.result(st) is not None


@pytest.mark.parametrize("n", [3, 5])
def test_one_vs_all_games_with_ai_on_every_seat_always_legal_and_end(n: int) -> None:
    for seed in (31, 32):
        st, _ = play("one_vs_all", n, seed)
        assert GAME.result(st) is not None


def test_deterministic_same_seed_same_game() -> None:
    a, da = play("core", 3, 41)
    b, db = play("core", 3, 41)
    assert da == db
    assert a.model_dump_json() == b.model_dump_json()


def test_ai_beats_random_players_in_core() -> None:
    ai_points = [play("core", 3, seed)[0].points for seed in range(100, 110)]
    random_points = [play("core", 3, seed, ai=False)[0].points for seed in range(100, 110)]
    assert statistics.fmean(ai_points) >= statistics.fmean(random_points) + 8


# ---------------------------------------------------------------- scenarios


def quiet_game(n: int = 2, seed: int = 5, mode: str = "core") -> ExorcismState:
    """s1 to act in a calm house: no Ghosts, no Darkness, full Actions."""
    st = GAME.setup(seats(n), GAME.options_model(mode=mode), seed)
    if mode == "solo":
        st = GAME.apply(st, "s1", act(K.CHOOSE_PRIMARY, character="doctor")).state
    st = st.model_copy(deep=True)
    for g in st.ghosts:
        st.ghosts[g] = None
    for c in st.cells.values():
        st.darkness_supply += c.darkness
        c.darkness = 0
    st.active = "s1"
    st.phase = "actions"
    st.prompts = []
    st.queue = []
    st.actions_left = 5 if mode == "solo" else 3
    st.turn_lost = False
    return st


def hand_task(st: ExorcismState, seat: str, task: str) -> None:
    for pile in (st.task_deck, st.available_tasks):
        if task in pile:
            pile.remove(task)
    st.players[seat].tasks.append(task)


def give(st: ExorcismState, inv: str, tool: str, n: int = 1) -> None:
    st.tool_piles[tool] -= n
    st.investigators[inv].tools[tool] = st.investigators[inv].tools.get(tool, 0) + n


def hand_plan(st: ExorcismState, seat: str, plan: str) -> None:
    st.plan_deck.remove(plan)
    st.players[seat].plans.append(plan)


def test_completes_a_held_task_when_its_tools_are_in_hand() -> None:
    st = quiet_game()
    hand_task(st, "s1", "weapon-2")
    give(st, "s1", "weapon")
    give(st, "s1", "holy_relic")
    assert choose_action(st, "s1") == act(K.TASK, task="weapon-2")


def test_prefers_the_more_valuable_completable_task() -> None:
    st = quiet_game()
    hand_task(st, "s1", "weapon-1")
    hand_task(st, "s1", "weapon-3")
    give(st, "s1", "weapon", 2)
    give(st, "s1", "holy_relic")
    assert choose_action(st, "s1") == act(K.TASK, task="weapon-3")


def test_escapes_from_the_foyer_after_the_exorcism() -> None:
    st = quiet_game()
    st.points = 30
    st.exorcised = True
    st.investigators["s1"].cell = "foyer"
    action = choose_action(st, "s1")
    assert action == act(K.ROOM_ACTION)
    st = GAME.apply(st, "s1", action).state
    assert st.prompts and st.prompts[-1].kind == "foyer"
    assert choose_action(st, "s1") == act(K.ESCAPE)


def test_heads_for_the_foyer_after_the_exorcism() -> None:
    st = quiet_game()
    st.points = 31
    st.exorcised = True
    st.investigators["s1"].cell = "r1c1"
    eng = Engine(st)
    action = choose_action(st, "s1")
    assert action.kind == K.MOVE
    before = eng.geo.dist["r1c1"]["foyer"]
    assert eng.geo.dist[str(action.p("to"))]["foyer"] < before


def test_gathers_a_missing_tool_in_the_room_that_gives_it() -> None:
    st = quiet_game()
    hand_task(st, "s1", "weapon-1")
    give(st, "s1", "weapon")
    weapon_room = next(c for c, cell in st.cells.items() if cell.card == "R02")
    st.investigators["s1"].cell = weapon_room
    assert choose_action(st, "s1") == act(K.ROOM_ACTION)


def test_triage_stops_a_wound_and_rescue_picks_a_lookout() -> None:
    st = quiet_game(n=3)
    hand_plan(st, "s2", "triage")
    eng = Engine(st)
    eng.later(Step(op="wound", args={"inv": "s1", "devour": False}))
    eng.run()
    assert st.prompts[-1].kind == "triage"
    assert choose_action(st, "s2") == act(K.PLAN, plan="triage")
    # Without a Triage, the Wounded player chooses a Lookout.
    st2 = quiet_game(n=3)
    eng2 = Engine(st2)
    eng2.later(Step(op="wound", args={"inv": "s1", "devour": False}))
    eng2.run()
    assert st2.prompts[-1].kind == "rescue"
    answer = choose_action(st2, "s1")
    assert answer.kind == K.RESCUE and answer in GAME.legal_actions(st2, "s1")


def test_trades_a_needed_tool_to_an_adjacent_teammate_who_accepts() -> None:
    st = quiet_game(n=2)
    st.investigators["s1"].cell = "r2c2"
    st.investigators["s2"].cell = "r2c3"
    hand_task(st, "s2", "key-1")
    give(st, "s2", "key")
    give(st, "s1", "key")
    st = GAME.apply(st, "s1", act(K.TRADE, **{"with": "s2"})).state
    assert choose_action(st, "s1") == act(K.TRADE_GIVE, tool="key")
    st = GAME.apply(st, "s1", act(K.TRADE_GIVE, tool="key")).state
    assert choose_action(st, "s1") == act(K.TRADE_OFFER)
    st = GAME.apply(st, "s1", act(K.TRADE_OFFER)).state
    assert st.prompts[-1].kind == "trade_consent"
    assert choose_action(st, "s2") == act(K.TRADE_ACCEPT)


def test_declines_a_trade_that_takes_what_it_needs() -> None:
    st = quiet_game(n=2)
    st.investigators["s1"].cell = "r2c2"
    st.investigators["s2"].cell = "r2c3"
    hand_task(st, "s2", "key-1")
    give(st, "s2", "key", 2)
    st = GAME.apply(st, "s1", act(K.TRADE, **{"with": "s2"})).state
    st = GAME.apply(st, "s1", act(K.TRADE_TAKE, tool="key")).state
    st = GAME.apply(st, "s1", act(K.TRADE_OFFER)).state
    assert choose_action(st, "s2") == act(K.TRADE_DECLINE)


def test_off_turn_plans_only_when_useful() -> None:
    st = quiet_game(n=2)
    hand_plan(st, "s2", "pawn_the_loot_weapon_holy_relic")
    assert "s2" not in GAME.to_act(st) and GAME.may_act(st, "s2")
    assert choose_optional_action(st, "s2") is None
    hand_task(st, "s2", "weapon-1")
    give(st, "s2", "weapon")
    play_it = choose_optional_action(st, "s2")
    assert play_it == act(K.PLAN, plan="pawn_the_loot_weapon_holy_relic")
    # choose_action always answers with a legal action, here the only kind there is.
    assert choose_action(st, "s2") in GAME.legal_actions(st, "s2")


def test_solo_actions_name_the_character_and_primary_completes() -> None:
    st = quiet_game(n=1, mode="solo")
    hand_task(st, "s1", "weapon-2")
    give(st, "primary", "weapon")
    give(st, "primary", "holy_relic")
    action = choose_action(st, "s1")
    assert action == act(K.TASK, task="weapon-2", who="primary")


def _ghost_phase(budget: int) -> ExorcismState:
    """One vs All, 3 players, seed 7: the Ghost player's (s1) Haunt phase of s2's turn."""
    st = GAME.setup(seats(3), GAME.options_model(mode="one_vs_all"), 7)
    st = GAME.apply(st, "s1", act(K.MANOR_DONE)).state
    st = st.model_copy(deep=True)
    st.active = "s2"
    st.phase = "ghost"
    st.ghost_budget = budget
    st.prompts, st.queue = [], []
    return st


def test_ghost_player_wounds_when_no_lookout_is_left() -> None:
    # The Ghost phase of s2's turn with a hand card that sends the Wraith onto s2.
    st = _ghost_phase(1)
    st.lookouts = []
    eng = Engine(st)
    card = st.ghost_hand[0]
    arrows = eng.pack.haunt_card(card).arrows
    target = eng.geo.ghost_move("wraith", "r2c2", arrows.wraith, 1)
    st.ghosts = {"wraith": "r2c2", "bull": None, "devourer": None}
    st.investigators["s2"].cell = target
    st.investigators["s3"].cell = "foyer" if target != "foyer" else "r1c1"
    assert choose_action(st, "s1") == act(K.GHOST_MOVE, card=card)


def test_ex_terror_01_the_ais_memoized_paths_avoid_ghosts_and_price_the_cold_spot() -> None:
    """`Geometry.paths_from` is shared by every decision of a search (memoized on the cell,
    the Ghosts' cells and the Cold Spot): a Ghost's cell is never walked through, a step into
    or out of the Cold Spot costs 2 (EX-TERROR-01), and each key gets its own answer however
    the cache was filled before."""
    from rules.exorcism.engine.board import geometry

    st = quiet_game()
    geo = geometry(Engine(st).pack)
    start = geo.house[0]
    far = max(geo.house, key=lambda c: geo.dist[start][c])
    free = geo.paths_from(start, frozenset(), None)
    assert free == geo.dist[start] | {}  # no Ghost, no Cold Spot: the grid's distances
    step = geo.neighbours[start][0]
    cold = geo.paths_from(start, frozenset(), step)
    assert cold[step] == 2 and free[step] == 1
    walled = geo.paths_from(start, frozenset(geo.neighbours[start]), None)
    assert set(walled) == {start}
    assert geo.paths_from(start, frozenset(), None) is free  # memoized
    geo._paths.clear()
    assert geo.paths_from(start, frozenset(), step) == cold
    assert geo.paths_from(start, frozenset(), None)[far] == free[far]


def test_ex_task_01_a_memoized_allocation_hands_each_caller_its_own_counts() -> None:
    """`_Brain.allocate` is memoized for a decision: a caller that spends the spare Tools it
    got (the exchange planner does) must not change what the next caller is told."""
    from collections import Counter

    from rules.exorcism.ai import _Brain
    from rules.exorcism.content import TOOL_TYPES

    st = quiet_game()
    brain = _Brain(st, "s1")
    inv = brain.invs("s1")[0]
    for task in [*st.available_tasks, *st.task_deck][:2]:
        hand_task(st, "s1", task)
    tasks = list(st.players["s1"].tasks)
    hand = Counter({t: 3 for t in TOOL_TYPES})
    first = brain.allocate(hand, tasks, inv.character)
    spare, deficit = first[1], first[2]
    assert spare  # three of every Tool: some are spare
    spare.clear()
    deficit["key"] += 5
    first[0].clear()
    again = brain.allocate(hand, tasks, inv.character)
    fresh = _Brain(st, "s1").allocate(hand, tasks, inv.character)
    assert again == fresh and again[1]


def test_ex_ova_13_the_ghost_never_adds_darkness_from_an_empty_supply() -> None:
    """Stop 63's One vs All demo: with the Darkness supply empty the Ghost AI still spent
    actions on Add Darkness, which places nothing there (EX-OVA-13)."""
    st = _ghost_phase(2)
    st.ghosts = {"wraith": "attic", "bull": None, "devourer": None}  # no Wound in reach
    darkness = [a for a in GAME.legal_actions(st, "s1") if a.kind == K.GHOST_DARKNESS]
    assert darkness  # legal: the card may still be played
    st.darkness_supply = 0
    for level in ("easy", "normal"):
        assert GAME.ai_action(st, "s1", level).kind != K.GHOST_DARKNESS, level


def test_ex_ova_13_add_darkness_from_an_empty_supply_says_it_places_nothing() -> None:
    """Stop 65's demo: the Ghost player pressed Add Darkness with the supply empty, an Action
    and a Haunt card for nothing. It stays legal; its button says it places nothing."""
    st = _ghost_phase(2)
    darkness = [a for a in GAME.legal_actions(st, "s1") if a.kind == K.GHOST_DARKNESS]
    assert darkness
    assert not GAME.describe(st, "s1", darkness[0]).startswith("Add Darkness (")
    st.darkness_supply = 0
    label = GAME.describe(st, "s1", darkness[0])
    assert label.startswith("Add Darkness (the supply is empty: places nothing): "), label
