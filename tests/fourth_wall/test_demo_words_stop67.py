"""Stop 67's demo reading (Conflict, 4 players, seed 31): the words a player reads agree with
what the engine does. Each test is named by the rule id it checks."""

from __future__ import annotations

from rules.core.types import act
from rules.fourth_wall.game import GAME
from tests.fourth_wall.helpers import (
    answer,
    clear_streets,
    do,
    new_game,
    put_horror,
    wall_hand,
    wall_turn,
)


def test_FW_WALL_06_a_second_horror_of_a_name_is_manifested_as_another() -> None:
    """Stop 67's demo: "The Wall Manifests Watcher (1 Doom): it is placed On the Streets
    (Drained)." twice in a row read as the same line posted twice; then "The Scourge is
    unleashed on Watcher" with two Watchers out named neither. Conflict has no Streets to
    tell them apart by."""
    st = wall_turn(new_game("conflict", 2, 1), doom=3)
    clear_streets(st)
    put_horror(st, "H-WATCHER")
    (second,) = wall_hand(st, "H-WATCHER")
    st, ev = do(st, "s1", "manifest", horror=second)
    said = [e.text for e in ev if e.public and "On the Streets" in e.text]
    assert said and said[0].startswith("The Wall Manifests another Watcher ("), said
    # The first of a name is manifested by its name alone.
    st2 = wall_turn(new_game("conflict", 2, 1), doom=3)
    clear_streets(st2)
    (first,) = wall_hand(st2, "H-WATCHER")
    _, ev = do(st2, "s1", "manifest", horror=first)
    assert any(e.text.startswith("The Wall Manifests Watcher (") for e in ev if e.public)


def test_FW_WALL_14_the_scourge_unleashed_on_one_of_two_says_which() -> None:
    st = wall_turn(new_game("conflict", 4, 1), doom=0, mode=None)
    clear_streets(st)
    older = put_horror(st, "H-WATCHER")
    put_horror(st, "H-WATCHER")
    st = GAME.apply(st, "s1", act("brood")).state
    assert st.prompts[-1].kind == "scourge"
    st, ev = answer(st, "scourge", horror=older)
    said = [e.text for e in ev if e.public and "Scourge" in e.text]
    assert said and said[0].startswith("The Scourge is unleashed on Watcher (the older one):"), \
        said
