"""Session-mode presets (P-SESSION-03..06, G-19): the script-deck setups, the fear-card
difficulty, the board sides, and the difficulty name the combination adds up to, shown on the
lobby card before the start (`Game.options_summary`)."""

from __future__ import annotations

import pytest

from rules.presence.engine import Engine
from rules.presence.game import GAME
from tests.presence.helpers import new_game

PRESETS = {"cooperative": (0, 3), "normal": (1, 2), "competitive": (3, 0),
           "advanced": (3, 2), "expert": (4, 3)}


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_p_session_03_script_deck_setups(preset: str) -> None:
    st = new_game(4, seed=3, scripts=preset)
    pack = Engine(st).pack
    hope, nerve = PRESETS[preset]
    types = [pack.script(s).type for s in st.display_scripts]
    assert (types.count("hope"), types.count("nerve")) == (hope, nerve)
    assert st.script in st.display_scripts
    assert sorted([*st.script_pool, st.script]) == sorted(st.display_scripts)


@pytest.mark.parametrize(("fear", "per"), [("easy", 1), ("normal", 2), ("hard", 3)])
def test_p_session_04_fear_cards_per_visitor(fear: str, per: int) -> None:
    st = new_game(5, seed=2, fear=fear)
    pack = Engine(st).pack
    dealt = [c for c in st.clue_deck if pack.is_fear_card(c)] + [
        c for v in st.visitors.values() for c in v.fear_cards]
    assert len(dealt) == per * 4


@pytest.mark.parametrize("side", ["A", "B"])
def test_p_session_05_hope_track_side(side: str) -> None:
    st = new_game(3, seed=2, hope_track=side)
    start = Engine(st).pack.hope_track.sides["A" if side == "A" else "B"]
    assert st.track_side == side and (st.hope, st.nerve) == (start.hope, start.nerve)
    assert GAME.view(st, None)["track"]["side"] == side


@pytest.mark.parametrize(("options", "label"), [
    ({}, "Standard"),  # G-19: Normal scripts 1 + Normal fear 1 + Track B 1 + Main A 1 = 4
    ({"scripts": "cooperative", "fear": "easy", "hope_track": "A"}, "Easy"),  # 0+0+0+1
    ({"scripts": "cooperative"}, "Relaxed"),  # 0+1+1+1 = 3
    ({"scripts": "advanced"}, "Difficult"),  # 2+1+1+1 = 5
    ({"scripts": "advanced", "fear": "hard"}, "Horror"),  # 2+2+1+1 = 6
    ({"scripts": "expert", "fear": "hard", "dark_board": True}, "Nightmare"),  # 3+2+1+2 = 8
    ({"dark_board": True}, "Difficult"),  # the Dark Board counts as the B main board
])
def test_p_session_06_difficulty_name_of_the_setup(options: dict[str, object],
                                                   label: str) -> None:
    text = GAME.options_summary(GAME.options_model(**options)) or ""
    assert text.startswith(f"Difficulty: {label} (")


def test_p_session_06_g_19_symbols_come_from_the_pack() -> None:
    presets = Engine(new_game(3)).pack.presets
    assert presets.difficulty_of("normal", "normal", "B", "A") == (4, "Standard")
    assert presets.difficulty_of("expert", "hard", "B", "B") == (8, "Nightmare")
    assert presets.difficulty_of("cooperative", "easy", "A", "A") == (1, "Easy")


def test_p_session_06_lobby_card_summary_lists_the_variants() -> None:
    text = GAME.options_summary(GAME.options_model(true_horror=True, mystery=True)) or ""
    assert "Variants: " in text and "True Horror" in text and "Mystery Mode" in text
    assert "Variants" not in (GAME.options_summary(GAME.options_model()) or "")
