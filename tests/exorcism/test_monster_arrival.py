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
