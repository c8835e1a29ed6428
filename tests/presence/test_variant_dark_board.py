"""The Dark Board (P-DARK-01/02, G-18, A-57): the Main board and the wings in play are on their
B side, with less forgiving room actions; the Basement flips with it and with the Secret
Chamber."""

from __future__ import annotations

import pytest

from renders.presence import render_board
from rules.core.types import act
from rules.presence.content import default_pack
from rules.presence.engine import Engine
from rules.presence.game import GAME
from rules.presence.state import PresenceState
from tests.presence.helpers import answer, do, edit, new_game, options, prompt_kind, settle
from tests.presence.variants import ai_playout, first_choice_playout, random_playout

PACK = default_pack()


def _in(st: PresenceState, seat: str, room: str) -> PresenceState:
    st = edit(st)
    st.visitors[seat].room = room
    return st


def _room_action(st: PresenceState, seat: str = "s2") -> PresenceState:
    legal = [a for a in GAME.legal_actions(st, seat) if a.kind == "room_action"]
    assert len(legal) == 1
    st, _ = do(st, seat, legal[0])
    return st


def test_p_dark_01_a_57_the_dark_board_flips_main_wings_and_basement() -> None:
    st = new_game(5, 1, dark_board=True)
    eng = Engine(st)
    assert {eng.side_of(r) for r in st.rooms} == {"B"}
    assert set(GAME.view(st, None)["board_sides"].values()) == {"B"}
    assert GAME.view(st, None)["variants"]["dark_board"]


def test_a_57_the_secret_chamber_alone_flips_only_the_basement() -> None:
    st = new_game(5, 1, secret_chamber=True)
    eng = Engine(st)
    assert eng.side_of("cellar") == "B" and eng.side_of("storeroom") == "B"
    assert eng.side_of("great_hall") == "A" and eng.side_of("gallery") == "A"
    plain = new_game(5, 1)
    assert {Engine(plain).side_of(r) for r in plain.rooms} == {"A"}


@pytest.mark.parametrize(("dark", "drawn", "fear"), [(False, 1, 0), (True, 2, 1)])
def test_p_dark_01_g_18_salon_rummage_draws_two_and_frightens(dark: bool, drawn: int,
                                                                fear: int) -> None:
    st = _in(new_game(3, 2, dark_board=dark), "s2", "salon")
    before = len(st.visitors["s2"].hand)
    st = settle(_room_action(st))
    assert len(st.visitors["s2"].hand) == before + drawn
    assert st.visitors["s2"].fear == fear


def test_p_dark_01_g_18_great_hall_gather_cures_everyone_nearby_and_smothers() -> None:
    st = edit(new_game(4, 2, dark_board=True))
    for s in ("s2", "s3", "s4"):
        st.visitors[s].fear = 2
    st.visitors["s4"].room = "library"
    st = settle(_room_action(st))
    assert [st.visitors[s].fear for s in ("s2", "s3", "s4")] == [1, 1, 2]
    assert not st.visitors["s2"].candle_lit and st.visitors["s3"].candle_lit


def test_p_dark_01_g_18_bedroom_lie_down_cures_two_and_ends_the_turn() -> None:
    st = _in(new_game(4, 2, dark_board=True), "s2", "west_bedroom")
    st.visitors["s2"].fear = 3
    st = settle(_room_action(st))
    assert st.visitors["s2"].fear == 1
    assert st.active != "s2"


def test_p_dark_01_g_18_library_research_reorders_three_and_frightens() -> None:
    st = _in(new_game(3, 2, dark_board=True), "s2", "library")
    top3 = list(reversed(st.clue_deck[-3:]))
    st = _room_action(st)
    assert prompt_kind(st) == "choice" and st.prompts[-1].data["private"]
    order = [top3[2], top3[0], top3[1]]
    st = answer(st, order[0])
    st = answer(st, order[1])
    st = settle(st)
    assert list(reversed(st.clue_deck[-3:])) == order
    assert st.visitors["s2"].fear == 1


def test_p_dark_01_g_18_kitchen_search_keeps_one_of_two_items() -> None:
    st = _in(new_game(3, 2, dark_board=True), "s2", "kitchen")
    drawn = list(reversed(st.item_deck[-2:]))
    st = _room_action(st)
    assert sorted(options(st)) == sorted(drawn)
    assert not GAME.invariants(st)  # the two drawn items are still counted
    st = settle(answer(st, drawn[1]))
    assert st.visitors["s2"].items == [drawn[1]] and st.cellar == [drawn[0]]
    assert st.visitors["s2"].fear == 1


def test_p_dark_01_g_18_dining_hall_warmth_trashes_two_in_all_and_smothers() -> None:
    st = edit(new_game(3, 2, dark_board=True))
    fears = [c for c in st.clue_deck if PACK.is_fear_card(c)][:3]
    for c in fears:
        st.clue_deck.remove(c)
    for s in ("s2", "s3"):
        st.visitors[s].room = "dining_hall"
    st.visitors["s2"].fear_cards = fears[:2]
    st.visitors["s3"].fear_cards = fears[2:]
    st = _room_action(st)
    assert len(options(st)) == 4 and st.prompts[-1].seats == ["s2"]  # the owner picks
    st = answer(st, f"s3|{fears[2]}")
    st = answer(st, f"s2|{fears[0]}")
    st = settle(st)  # "up to 2" in total: no third pick (pooled)
    assert st.visitors["s2"].fear_cards == [fears[1]] and not st.visitors["s3"].fear_cards
    assert sorted(st.clue_trash) == sorted([fears[0], fears[2]])
    assert not st.visitors["s2"].candle_lit  # the fireplace is dark: no relight


def test_p_dark_01_g_18_nursery_toys_reveal_two_and_frighten() -> None:
    st = _in(new_game(4, 2, dark_board=True), "s2", "nursery")
    top2 = list(reversed(st.clue_deck[-2:]))
    st = settle(_room_action(st))
    assert st.clue_revealed == top2
    assert st.visitors["s2"].fear == 1


def test_p_dark_render_names_the_variant() -> None:
    st = new_game(4, 2, dark_board=True)
    plain = render_board(GAME.view(new_game(4, 2), None))
    dark = render_board(GAME.view(st, None))
    assert dark[:8] == b"\x89PNG\r\n\x1a\n" and dark != plain


@pytest.mark.parametrize(("n", "seed"), [(3, 0), (5, 1)])
def test_p_dark_random_playouts_end_and_keep_invariants(n: int, seed: int) -> None:
    assert GAME.result(random_playout(n, seed, dark_board=True)) is not None


def test_p_dark_first_choice_and_ai_tables_reach_the_end() -> None:
    assert GAME.result(first_choice_playout(4, 1, dark_board=True)) is not None
    assert GAME.result(ai_playout(4, 2, dark_board=True)) is not None


def test_p_dark_room_action_is_legal_once_per_turn() -> None:
    st = _in(new_game(3, 2, dark_board=True), "s2", "salon")
    st = settle(_room_action(st))
    assert not any(a.kind == "room_action" for a in GAME.legal_actions(st, "s2"))
    assert act("room_action", index=0, speed="main") not in GAME.legal_actions(st, "s2")
