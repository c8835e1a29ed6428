"""Our ruling EX-GHOST-11 (rules.md): a Monster arriving in the Attic Wounds the Characters
standing there, as a Ghost ending its movement in their Room does (EX-GHOST-07)."""

from __future__ import annotations

from rules.exorcism.content import default_pack
from rules.exorcism.game import GAME
from tests.exorcism.helpers import at_rest, clear_board, new_game, put, run_steps, top_haunt

PACK = default_pack()
BULL = next(c.id for c in PACK.haunt_deck if c.kind == "bull")
DEVOURER = next(c.id for c in PACK.haunt_deck if c.kind == "devourer")


def test_EX_GHOST_11_the_bull_arriving_in_the_attic_wounds_who_stands_there() -> None:
    st = new_game("core", n=2, seed=1)
    clear_board(st)
    put(st, "s1", "r3c3")
    put(st, "s2", "attic")
    char = st.investigators["s2"].character
    top_haunt(st, BULL)
    st = at_rest(st, "s1")
    st.phase = "haunt"
    st2 = run_steps(st, ("haunt_draw", {"left": 1}))
    assert st2.ghosts["bull"] == "attic"
    assert char in st2.wounded
    assert st2.investigators["s2"].cell != "attic"
    assert st2.investigators["s1"].cell == "r3c3"  # elsewhere: untouched


def test_EX_GHOST_11_the_devourer_arriving_in_the_attic_devours() -> None:
    st = new_game("core", n=2, seed=1)
    clear_board(st)
    put(st, "s2", "attic")
    char = st.investigators["s2"].character
    top_haunt(st, DEVOURER)
    st = at_rest(st, "s1")
    st.phase = "haunt"
    st2 = run_steps(st, ("haunt_draw", {"left": 1}))
    assert st2.ghosts["devourer"] == "attic" and char in st2.devoured


def test_EX_GHOST_11_one_vs_all_a_monster_drawn_into_the_ghost_hand_also_wounds() -> None:
    st = new_game("one_vs_all", n=3, seed=1)
    clear_board(st)
    put(st, "s3", "attic")
    char = st.investigators["s3"].character
    st.haunt_deck.extend(st.ghost_hand[:1])
    st.ghost_hand = st.ghost_hand[1:]
    top_haunt(st, BULL)
    st = at_rest(st, "s2")
    st.phase = "ghost"
    st2 = run_steps(st, ("ghost_phase_end", {}))
    assert st2.ghosts["bull"] == "attic" and char in st2.wounded
    # the Wounded player picks the rescuing Lookout; then the refill goes on (EX-AMB-35)
    assert st2.prompts[-1].kind == "rescue" and st2.prompts[-1].seats == ["s3"]
    st3 = GAME.apply(st2, "s3", GAME.legal_actions(st2, "s3")[0]).state
    assert len(st3.ghost_hand) == 3 and st3.phase == "actions"


def test_EX_HAUNT_09_the_ghost_players_buttons_show_arrows_of_ghosts_in_the_house_only() -> None:
    """Stop 70: the Move / Add Darkness buttons read "Wraith right, Bull 6 spaces left,
    Devourer up" before the Bull or the Devourer had come; their arrows are ignored then."""
    st = new_game("one_vs_all", n=3, seed=1)
    st.phase = "ghost"
    st.active = st.ghost_seat
    st.ghost_budget = 1
    gs = st.ghost_seat or "s1"
    st.ghosts["bull"] = None
    st.ghosts["devourer"] = None
    labels = [GAME.describe(st, gs, a) for a in GAME.legal_actions(st, gs)
              if a.kind in ("ghost_move", "ghost_darkness")]
    assert labels and all("Wraith" in t for t in labels)
    assert not [t for t in labels if "Bull" in t or "Devourer" in t]
    st.ghosts["bull"] = "attic"
    labels = [GAME.describe(st, gs, a) for a in GAME.legal_actions(st, gs)
              if a.kind == "ghost_move"]
    assert labels and all("Bull" in t and "Devourer" not in t for t in labels)
