"""Setup in the spec's order (P-SETUP-*), by player count, with fixed seeds."""

from __future__ import annotations

from collections import Counter

import pytest

from rules.core.errors import IllegalAction
from rules.presence.content import default_pack
from rules.presence.game import GAME
from tests.presence.helpers import SPIRIT, answer, fresh, new_game, options, prompt_kind

PACK = default_pack()


def test_P_COMP_04_player_counts() -> None:
    assert GAME.player_counts(GAME.options_model()) == {3, 4, 5}
    with pytest.raises(IllegalAction) as err:
        fresh(6)
    assert err.value.rule == "P-COMP-04"


def test_P_SETUP_07_and_15_characters_are_chosen_by_prompts() -> None:
    st = fresh(4, seed=3)
    assert prompt_kind(st) == "setup" and st.prompts[-1].seats == [SPIRIT]
    assert set(options(st)) == {s.id for s in PACK.spirits}
    st = answer(st, "spirit_2")
    assert st.spirit.character == "spirit_2"
    # each visitor in turn order chooses a unique character
    assert st.prompts[-1].seats == ["s2"]
    st = answer(st, "orphan")
    assert st.prompts[-1].seats == ["s3"] and "orphan" not in options(st)
    st = answer(st, "detective")
    st = answer(st, "medium")
    assert {v.character for v in st.visitors.values()} == {"orphan", "detective", "medium"}


@pytest.mark.parametrize(("n", "rooms"), [(3, 7), (4, 9), (5, 11)])
def test_P_SETUP_03_boards_by_player_count(n: int, rooms: int) -> None:
    st = new_game(n, seed=2)
    assert len(st.rooms) == rooms
    assert "secret_chamber" not in st.rooms
    assert all(set(d.rooms) <= set(st.rooms) for d in st.doors.values())


def test_P_SETUP_04_05_fireplace_dark_doors_closed_cellar_locked() -> None:
    st = new_game(5, seed=2)
    assert not st.fireplace_lit
    assert all(not d.open for d in st.doors.values())
    locked = [d.id for d in st.doors.values() if d.locked]
    assert locked == ["D06"] and set(st.doors["D06"].rooms) == {"kitchen", "cellar"}


def test_P_SETUP_06_hope_track() -> None:
    st = new_game(3, seed=2)
    assert (st.time, st.hope, st.nerve) == (1, 7, 8)
    st = new_game(3, seed=2, hope_track="A")
    assert (st.time, st.hope, st.nerve) == (1, 8, 9)


def test_P_SETUP_08_25_scripts_displayed_and_one_drawn_in_secret() -> None:
    for preset, (hope, nerve) in {"normal": (1, 2), "expert": (4, 3),
                                  "cooperative": (0, 3)}.items():
        st = new_game(3, seed=5, scripts=preset)
        kinds = Counter(PACK.script(s).type for s in st.display_scripts)
        assert kinds["hope"] == hope and kinds["nerve"] == nerve
        assert st.script in st.display_scripts
        assert sorted([st.script, *st.script_pool]) == sorted(st.display_scripts)
        assert not st.script_revealed


@pytest.mark.parametrize(("n", "clues", "fears"), [(3, 14, 4), (4, 20, 6), (5, 26, 8)])
def test_P_SETUP_20_22_clue_deck_per_secret_board(n: int, clues: int, fears: int) -> None:
    st = new_game(n, seed=7)
    held = [c for v in st.visitors.values() for c in v.hand if not c.startswith(
        tuple(v.character + "." for v in st.visitors.values()))]
    deck = st.clue_deck + held + [c for v in st.visitors.values() for c in v.fear_cards]
    assert sum(1 for c in deck if PACK.is_fear_card(c)) == fears
    assert sum(1 for c in deck if not PACK.is_fear_card(c)) == clues
    # P-SETUP-21: position k lost `remove` cards of its secret's trauma
    board = PACK.secret_board(n)
    removed = Counter(PACK.clue_card(c).trauma for c in st.clue_box if not PACK.is_fear_card(c))
    for slot, pos in zip(st.secrets, board.positions, strict=True):
        assert removed[PACK.secret(slot.card).trauma] == pos.remove


def test_P_SESSION_04_fear_difficulty() -> None:
    for fear, per in (("easy", 1), ("normal", 2), ("hard", 3)):
        st = new_game(4, seed=1, fear=fear)
        n_fear = sum(1 for c in st.clue_deck if PACK.is_fear_card(c))
        n_fear += sum(len(v.fear_cards) for v in st.visitors.values())
        assert n_fear == per * 3


@pytest.mark.parametrize(("n", "items"), [(3, 12), (4, 16), (5, 20)])
def test_P_SETUP_18_item_deck_with_special_items(n: int, items: int) -> None:
    st = new_game(n, seed=4)
    assert len(st.item_deck) == items
    names = Counter(PACK.item_of(i).id for i in st.item_deck)
    assert names["item.manor_key"] == 2 and names["item.match"] == 2


def test_P_SETUP_19_secret_cards_one_per_trauma() -> None:
    st = new_game(3, seed=9)
    assert [s.position for s in st.secrets] == [1, 2, 3, 4]
    assert {PACK.secret(s.card).trauma for s in st.secrets} == {
        "betrayal", "tragedy", "suffering", "death"}
    assert all(PACK.secret(s.card).set == st.spirit.character for s in st.secrets)


def test_P_SETUP_26_27_spirit_clues_and_dice_placed_by_the_spirit_then_small_clues() -> None:
    st = finish_setup_until_placement(4)
    assert prompt_kind(st) == "place_spirit_clue" and st.prompts[-1].seats == [SPIRIT]
    assert "great_hall" not in options(st)
    chosen = options(st)[-1]
    st = answer(st, chosen)
    assert [d.value for d in st.dice if d.room == chosen] == [1]
    for _ in range(3):
        st = answer(st, options(st)[0])
    assert st.phase == "visitor"
    rooms = [r for r in st.rooms if r != "great_hall"]
    assert all(len(st.tokens.get(r, [])) == 1 for r in rooms)
    assert "great_hall" not in st.tokens
    assert sum(1 for r in rooms if st.tokens[r][0].kind == "spirit") == 4
    assert all(d.room is not None and d.value == 1 for d in st.dice)
    spirit_rooms = {r for r in rooms if st.tokens[r][0].kind == "spirit"}
    assert {d.room for d in st.dice} == spirit_rooms


def finish_setup_until_placement(n: int) -> object:
    st = fresh(n, seed=11)
    while prompt_kind(st) == "setup":
        st = answer(st, options(st)[0])
    return st


def test_P_SETUP_28_29_30_hands_and_first_player() -> None:
    st = new_game(5, seed=3)
    assert len(st.spirit.hand) == 5
    assert st.active == "s2" and st.visitor_seats == ["s2", "s3", "s4", "s5"]
    for v in st.visitors.values():
        actions = [c for c in v.hand if c.startswith(v.character + ".")]
        assert len(actions) == 5 and len(v.deck) == 5
        assert v.room == "great_hall" and v.candle_lit and v.fear == 0


def test_P_SETUP_31_game_start_abilities() -> None:
    # The Descendant draws 1 clue card at game start (G-10, data).
    st = fresh(3, seed=1)
    st = answer(st, "spirit_1")
    st = answer(st, "descendant")
    st = answer(st, "orphan")
    while prompt_kind(st) == "place_spirit_clue":
        st = answer(st, options(st)[0])
    desc = st.visitors["s2"]
    assert len(desc.hand) + len(desc.fear_cards) == 6


def test_P_SETUP_30_spirit_seat_option_rotates_turn_order() -> None:
    st = GAME.setup(["a", "b", "c", "d"], GAME.options_model(spirit_seat=2), 1)
    assert st.spirit_seat == "c" and st.visitor_seats == ["d", "a", "b"]
