"""The first-game preset (P-FIRST-02..08, G-20): Hope Track A, scripts A1 and A2, only spirit
character 5 with its ten cards marked A, the four general secret cards marked A, one fear
card per visitor, Open Communication."""

from __future__ import annotations

import json
import random

import pytest

from rules.presence.engine import Engine
from rules.presence.game import GAME
from tests.presence.helpers import SPIRIT, fresh, new_game, seats


@pytest.mark.parametrize("n", [3, 5])
def test_p_first_02_to_08_the_first_game_setup(n: int) -> None:
    st = new_game(n, seed=4, first_game=True)
    eng = Engine(st)
    fg = eng.pack.presets.first_game
    side = eng.pack.hope_track.sides["A"]
    assert st.first_game
    assert st.track_side == "A" and (st.hope, st.nerve) == (side.hope, side.nerve)  # -02
    assert st.spirit.character == fg.spirit == "spirit_5"  # P-FIRST-03
    assert eng.pack.spirit("spirit_5").first_game
    assert st.display_scripts == ["A1", "A2"] and st.script in ("A1", "A2")  # P-FIRST-04
    deck = st.spirit.hand + st.spirit.deck + st.spirit.discard  # P-FIRST-05
    assert len(deck) == 10 and sorted(deck) == sorted(st.spirit_cards)
    assert all("A" in eng.pack.spirit_card(c).marks and eng.pack.spirit_card(c).spirit
               == "spirit_5" for c in deck)
    assert sorted(s.card for s in st.secrets) == sorted(eng.pack.spirit_secrets("A"))  # -06
    fear = [c for c in st.clue_deck if eng.pack.is_fear_card(c)] + [
        c for v in st.visitors.values() for c in v.fear_cards]
    assert len(fear) == n - 1  # P-FIRST-07: one per visitor
    assert st.open_communication  # P-FIRST-08
    assert GAME.invariants(st) == []


def test_p_first_03_no_spirit_choice_prompt() -> None:
    st = fresh(3, seed=2, first_game=True)
    assert st.prompts[-1].seats != [SPIRIT]  # the visitors choose; the spirit is fixed
    assert "Choose your visitor character" in st.prompts[-1].text


def test_p_first_08_open_communication_is_on() -> None:
    st = new_game(3, seed=4, first_game=True)
    assert set(Engine(st).table_talk()["speech"].values()) >= {"free"}
    assert all(Engine(st).table_talk()["speech"][s] == "free" for s in st.visitor_seats)


def test_p_first_session_06_lobby_summary_names_the_preset() -> None:
    text = GAME.options_summary(GAME.options_model(first_game=True)) or ""
    assert "first game: scripts A1 & A2" in text and "Open Communication" in text
    assert text.startswith("Difficulty: ")


def test_p_first_05_content_has_the_a_cards() -> None:
    pack = Engine(new_game(3, first_game=True)).pack
    assert len(pack.spirit_deck("spirit_5", mark="A")) == pack.presets.first_game.spirit_cards
    assert len(pack.spirit_secrets("A")) == 4
    assert {pack.script(s).type for s in pack.presets.first_game.scripts} == {"hope", "nerve"}


@pytest.mark.parametrize("seed", [2, 9])
def test_p_first_random_playout_keeps_invariants_and_secrets(seed: int) -> None:
    rnd = random.Random(seed)
    st = GAME.setup(seats(4), GAME.options_model(first_game=True), seed)
    for _ in range(1500):
        if GAME.result(st) is not None:
            break
        seat = sorted(GAME.to_act(st))[0]
        st = GAME.apply(st, seat, rnd.choice(GAME.legal_actions(st, seat))).state
        assert GAME.invariants(st) == []
        public = json.dumps(GAME.view(st, None))
        assert not [s for s in GAME.public_secrets(st) if s in public]
    assert GAME.result(st) is not None


def test_p_first_ai_plays_a_whole_game() -> None:
    st = GAME.setup(seats(3), GAME.options_model(first_game=True), 7)
    for _ in range(3000):
        if GAME.result(st) is not None:
            break
        seat = sorted(GAME.to_act(st))[0]
        st = GAME.apply(st, seat, GAME.ai_action(st, seat)).state
    assert GAME.result(st) is not None
    assert GAME.invariants(st) == []
