"""Scenario tests for Exorcism rule ids that no test named before (spec `exorcism.md`).

Each test builds a real game with a fixed seed, edits the state into the situation the rule
speaks of, and checks what the engine does there, so it fails if the rule is broken:

* EX-COMP-09: the Icon Overview's eight icons as the engine models them (views carry them);
* EX-PLAY-02 / EX-PLAY-03: One vs All seats 3-5 (one Ghost player), Solo 1 player with two
  Characters;
* EX-SETUP-03 / -04 / -09: the Task deck and its 3 Available Tasks, the Clock at 8 dice
  showing 6 with the Darkness Tracker on the first "1", Solo's replaced step 5;
* EX-DARK-03: a supply of 30 Darkness Tokens; Purify puts the tokens back into it;
* EX-GHOST-03 / -10: each Ghost moves one space along its own arrow (the Bull its Die
  Value); Ghosts share Rooms and enter Locked, Shrouded, Attic and Foyer cells.
"""

from __future__ import annotations

import json

import pytest

from rules.core.errors import IllegalAction
from rules.exorcism.content import HauntCard, default_pack
from rules.exorcism.engine import Engine
from rules.exorcism.game import GAME
from rules.exorcism.setup import new_state
from rules.exorcism.state import Mode
from tests.exorcism.helpers import (
    add_darkness,
    clear_board,
    do,
    legal,
    new_game,
    place_room,
    put,
    run_steps,
    seats,
    set_character,
    texts,
    top_haunt,
)

PACK = default_pack()
MODES: tuple[tuple[Mode, int], ...] = (("core", 2), ("one_vs_all", 3), ("solo", 1))


def quiet(mode: str = "core", n: int = 2, seed: int = 1):
    st = new_game(mode, n=n, seed=seed)
    clear_board(st)
    return st


def standard(card_id: str) -> HauntCard:
    card = PACK.haunt_card(card_id)
    assert isinstance(card, HauntCard)
    return card


def darkness_total(st) -> int:
    return st.darkness_supply + st.haunt_level + sum(c.darkness for c in st.cells.values())


# ---------------------------------------------------------------- components and players
def test_EX_COMP_09_the_eight_icons_are_what_the_engine_models() -> None:
    """Detection Tool, Occult Item, Key, Weapon and Holy Relic are the five Tool types;
    Exorcism Tokens and Darkness Tokens are counted on every Room; the Action Icon sits on
    the 1st, 4th and 7th hour spaces of the clock."""
    st = GAME.setup(seats(2), GAME.options_model(), 4)
    view = GAME.view(st, None)
    assert sorted(view["tool_names"].values()) == sorted(
        ["Detection Tool", "Occult Item", "Key", "Weapon", "Holy Relic"])
    assert set(st.tool_piles) == set(view["tool_names"])
    assert sorted(t.name for t in PACK.tools) == sorted(view["tool_names"].values())
    icons = [d["hour"] for d in view["clock"]["dice"] if d["action_icon"]]
    assert icons == [1, 4, 7] and view["clock"]["action_hours"] == [1, 4, 7]
    # The two token icons: a Room shows both counts, and the view reads them from the state.
    cid = next(c.id for c in st.cells.values() if c.face_down)
    st.cells[cid].exorcism_tokens = 2
    add_darkness(st, "r2c2", 3)
    cells = {c["id"]: c for c in GAME.view(st, None)["cells"]}
    assert cells[cid]["exorcism_tokens"] == 2 and cells["r2c2"]["darkness"] == 3
    assert GAME.view(st, None)["darkness_supply"] == 27


def test_EX_PLAY_02_one_vs_all_seats_three_to_five_with_one_ghost_player() -> None:
    opts = GAME.options_model(mode="one_vs_all")
    assert GAME.player_counts(opts) == {3, 4, 5}
    for n in (3, 4, 5):
        st = GAME.setup(seats(n), opts, 6)
        ghosts = [s for s, p in st.players.items() if p.role == "ghost"]
        assert ghosts == [st.ghost_seat] == ["s1"]
        investigators = [s for s, p in st.players.items() if p.role == "investigator"]
        assert len(investigators) == n - 1  # 2 to 4 investigator players
        assert sorted(st.investigators) == sorted(investigators)
        assert all(i.character for i in st.investigators.values())
        assert st.ghost_seat not in st.investigators  # the Ghost player has no Character
    for n in (2, 6):
        with pytest.raises(IllegalAction) as err:
            GAME.setup(seats(n), opts, 6)
        assert err.value.rule == "EX-PLAY-02"


def test_EX_PLAY_03_solo_is_one_player_controlling_primary_and_secondary() -> None:
    opts = GAME.options_model(mode="solo")
    assert GAME.player_counts(opts) == {1}
    with pytest.raises(IllegalAction) as err:
        GAME.setup(seats(2), opts, 2)
    assert err.value.rule == "EX-PLAY-03"
    st = quiet("solo", n=1, seed=2)
    assert [p.role for p in st.players.values()] == ["solo"]
    invs = st.investigators
    assert sorted(invs) == ["primary", "secondary"]
    assert {i.seat for i in invs.values()} == {"s1"}
    assert invs["primary"].character != invs["secondary"].character
    # the one player moves either Character
    movers = {a.params.get("who") for a in legal(st, "s1") if a.kind == "move"}
    assert movers == {"primary", "secondary"}


# ---------------------------------------------------------------- setup
def test_EX_SETUP_03_task_deck_shuffled_face_down_top_three_available() -> None:
    all_tasks = sorted(t.id for t in PACK.tasks)
    firsts = set()
    for seed in range(6):
        st = GAME.setup(seats(2), GAME.options_model(), seed)
        assert len(st.available_tasks) == 3
        assert sorted(st.available_tasks + st.task_deck) == all_tasks  # nothing else moved
        firsts.add(tuple(st.available_tasks))
        view = GAME.view(st, None)
        # the 3 Available Tasks lie face up; the deck shows only its size
        assert [t["id"] for t in view["available_tasks"]] == st.available_tasks
        assert view["decks"]["task"] == len(st.task_deck) == len(all_tasks) - 3
        public = json.dumps(view)
        assert not [t for t in st.task_deck if f'"{t}"' in public]
    assert len(firsts) > 1  # shuffled: the seed decides which three come up


def test_EX_SETUP_04_clock_eight_dice_on_six_tracker_on_the_first_one() -> None:
    for mode, n in MODES:
        st, _ = new_state(seats(n), mode, 5, None, 0)  # steps 1-4 only
        assert st.dice == [6] * 8
        assert st.track_index == 0 and PACK.clock.darkness_track[0] == 1
        assert Engine(st).track_value() == 1
    # the whole setup: only the first turn's one-pip reduction has touched the clock
    st = GAME.setup(seats(2), GAME.options_model(), 5)
    assert st.dice == [5, 6, 6, 6, 6, 6, 6, 6]
    track = GAME.view(st, None)["darkness_track"]
    assert track["position"] == 0 and track["value"] == 1 and track["spaces"][0] == 1


def test_EX_SETUP_09_solo_replaces_step_5_primary_chosen_secondary_random() -> None:
    st = GAME.setup(seats(1), GAME.options_model(mode="solo"), 3)
    # core step 5 (a random Character per player, Lookouts) has not happened
    assert st.investigators == {} and st.lookouts == [] and st.out_of_play == []
    assert st.prompts[-1].kind == "choose_primary" and st.prompts[-1].seats == ["s1"]
    offered = sorted(str(a.params["character"]) for a in legal(st, "s1"))
    assert offered == sorted(c.id for c in PACK.characters)  # chosen openly, any of the 8
    secondaries = set()
    for seed in range(8):
        base = GAME.setup(seats(1), GAME.options_model(mode="solo"), seed)
        for primary in ("bodyguard", "medium"):
            st2, _ = do(base, "s1", "choose_primary", character=primary)
            invs = st2.investigators
            assert invs["primary"].character == primary
            second = invs["secondary"].character
            assert second and second != primary
            secondaries.add(second)
            assert len(st2.lookouts) == 3 and primary not in st2.lookouts
            everyone = [primary, second, *st2.lookouts, *st2.out_of_play]
            assert sorted(everyone) == sorted(c.id for c in PACK.characters)
    assert len(secondaries) > 2  # the Secondary is drawn at random


# ---------------------------------------------------------------- Darkness supply
def test_EX_DARK_03_supply_of_thirty_and_purify_returns_tokens_to_it() -> None:
    for mode, n in MODES:
        st = GAME.setup(seats(n), GAME.options_model(mode=mode), 2)
        assert st.darkness_supply == 30 and darkness_total(st) == 30
    st = quiet()
    set_character(st, "s1", "doctor")  # purifies 1 (the Psychologist would take 2)
    put(st, "s1", "r2c2")
    add_darkness(st, "r2c2", 3)
    assert st.darkness_supply == 27
    st2, ev = do(st, "s1", "purify")
    assert st2.cells["r2c2"].darkness == 2 and st2.darkness_supply == 28
    assert darkness_total(st2) == 30 and "removed" in texts(ev)
    # the Cleansing Room's Room Action purifies 2: both go back to the supply
    st3 = quiet()
    set_character(st3, "s1", "doctor")
    place_room(st3, "R10", "r3c3")
    put(st3, "s1", "r3c3")
    add_darkness(st3, "r3c3", 3)
    st4, _ = do(st3, "s1", "room_action")
    assert st4.cells["r3c3"].darkness == 1 and st4.darkness_supply == 29


# ---------------------------------------------------------------- Ghost movement
def test_EX_GHOST_03_each_ghost_moves_one_space_along_its_own_arrow() -> None:
    st = quiet()
    card = standard("H03")
    assert (card.arrows.wraith, card.arrows.bull, card.arrows.devourer) == ("S", "W", "S")
    assert card.die_value == 3
    put(st, "s1", "r4c4")
    put(st, "s2", "r4c4")
    st.ghosts.update({"wraith": "r1c1", "bull": "r3c4", "devourer": "r2c3"})
    top_haunt(st, "H03")
    st2 = run_steps(st, ("haunt_draw", {"left": 1}))
    # one space each, not the Die Value; the Bull its Die Value (EX-GHOST-05)
    assert st2.ghosts == {"wraith": "r2c1", "bull": "r3c1", "devourer": "r3c3"}
    assert not GAME.invariants(st2)
    # each Ghost follows its own arrow: H04 sends them three different ways
    card = standard("H04")
    assert (card.arrows.wraith, card.arrows.bull, card.arrows.devourer) == ("W", "N", "S")
    st.ghosts.update({"wraith": "r2c2", "bull": "r4c2", "devourer": "r2c2"})
    top_haunt(st, "H04")
    st3 = run_steps(st, ("haunt_draw", {"left": 1}))
    # (the Bull: 4 spaces north, r3c2, r2c2, r1c2, then the Attic above r1c2)
    assert st3.ghosts == {"wraith": "r2c1", "bull": "attic", "devourer": "r3c2"}


def test_EX_GHOST_10_ghosts_share_rooms_and_enter_locked_shrouded_attic_foyer() -> None:
    st = quiet()
    put(st, "s1", "r4c4")
    put(st, "s2", "r4c4")
    locked = next(c.card for c in st.cells.values() if c.face_down)
    place_room(st, locked or "", "r2c1")
    assert st.cells["r2c1"].face_down
    # H03 (Wraith S, Bull W x3, Devourer S): all three end together on the Locked Room
    st.ghosts.update({"wraith": "r1c1", "bull": "r2c4", "devourer": "r1c1"})
    top_haunt(st, "H03")
    st2 = run_steps(st, ("haunt_draw", {"left": 1}))
    assert st2.ghosts == {"wraith": "r2c1", "bull": "r2c1", "devourer": "r2c1"}
    assert not GAME.invariants(st2)
    # the Foyer and a Shrouded Room
    st3 = quiet()
    put(st3, "s1", "r1c4")
    put(st3, "s2", "r1c4")
    st3.cells["r3c2"].shrouded = True
    st3.shrouds_left -= 1
    add_darkness(st3, "r3c2", 4)
    st3.ghosts.update({"wraith": "r4c3", "devourer": "r2c2"})
    top_haunt(st3, "H03")
    st4 = run_steps(st3, ("haunt_draw", {"left": 1}))
    assert st4.ghosts["wraith"] == "foyer" and st4.ghosts["devourer"] == "r3c2"
    assert not GAME.invariants(st4)
    # the Attic: H01 sends the Wraith north from the cell below it
    st5 = quiet()
    put(st5, "s1", "r4c4")
    put(st5, "s2", "r4c4")
    assert standard("H01").arrows.wraith == "N"
    st5.ghosts["wraith"] = "r1c2"
    top_haunt(st5, "H01")
    st6 = run_steps(st5, ("haunt_draw", {"left": 1}))
    assert st6.ghosts["wraith"] == "attic"
