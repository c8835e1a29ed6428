"""Stop 66's demo reading: the words a player reads agree with what the engine does.

Each test is named by the rule id it checks (../shared/spec/fourth-wall.md) and quotes the
demo line it answers.
"""

from __future__ import annotations

from rules.fourth_wall.engine import Engine
from rules.fourth_wall.game import GAME
from tests.fourth_wall.helpers import (
    answer,
    clear_streets,
    do,
    inv_turn,
    new_game,
    prompt,
    set_hand,
    set_stage,
    set_wall,
)


def conflict_turn(iid: str = "i1", seed: int = 1, ap: int | None = None):  # type: ignore[no-untyped-def]
    st = inv_turn(new_game("conflict", 2, seed), iid, ap)
    clear_streets(st)
    return st


# ---------------------------------------------------------------- Close a Gate under an Aura
def test_FW_ACT_01_g_close_a_gate_says_the_breaker_of_trinkets_second_clue() -> None:
    """Stop 66's demo: "Close a Gate: The Rallier selects Marbles showing a Clue, a Force and
    a Science." and its tip, while The Breaker of Trinkets' Aura asked a second Clue: the
    prompt, its public text, the tip and the turn advice say what `meets` enforces."""
    st = conflict_turn()
    set_wall(st, "W-5")  # Aura: Close a Gate also needs a second Clue Symbol
    set_stage(st, "eye_opens")
    c1, c2, f, s = set_hand(st, "i1", "M-C", "M-C", "M-F", "M-S")
    distinct, extra = Engine(st).gate_requirement()
    assert extra["clue"] == 1  # the engine's own requirement
    turn = GAME.advice(GAME.view(st, "s2"), "s2") or ""
    assert "Your hand shows 2 Clue Symbols, a Force and a Science" in turn, turn
    st, _ = do(st, "s2", "close_gate", inv="i1")
    assert prompt(st) == "close_select"
    needs = "2 Clue Symbols, a Force and a Science"
    assert needs in st.prompts[-1].text
    assert needs in GAME.view(st, None)["prompt"]["text"]  # the public text
    tip = GAME.advice(GAME.view(st, "s2"), "s2") or ""
    assert f"show {needs}" in tip and "show a Clue, a Force" not in tip, tip
    for m in (c1, f, s):
        st, _ = answer(st, "select", marble=m)
    assert "confirm" not in {o["kind"] for o in st.prompts[-1].data["options"]}
    st, _ = answer(st, "select", marble=c2)  # the words were enough to reach Confirm
    assert "confirm" in {o["kind"] for o in st.prompts[-1].data["options"]}
    assert distinct == 3
