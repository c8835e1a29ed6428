"""The Conflict Wall's heuristic (issue #23): choices that fail without each change.

Each scenario is one of The Wall's choices read off its lost games (Conflict, 4 players, the
book's rules); the test fails on the heuristic before the change it names and passes after.
"""

from __future__ import annotations

from rules.core.types import act
from rules.fourth_wall.ai import choose_action, scourge_hardness
from rules.fourth_wall.game import GAME
from rules.fourth_wall.state import FourthWallState
from tests.fourth_wall.helpers import (
    clear_streets,
    inv,
    new_game,
    put_horror,
    set_hand,
    wall_seat,
    wall_turn,
)


def _one_marble_table() -> FourthWallState:
    """The Wall's Wrath before i2's turn with 1 Doom: an awake Cultist On the Streets (Trigger
    1: the Target Investigator Loses a Marble of its choice), i3 down to a single Marble."""
    st = wall_turn(new_game("conflict", 4, 1), doom=1, before="i2")
    clear_streets(st)
    put_horror(st, "H-CULTIST")
    set_hand(st, "i1", "M-C", "M-F", "M-S", "M-F")
    set_hand(st, "i2", "M-C", "M-F", "M-S", "M-C")
    set_hand(st, "i3", "M-F")
    return st


def test_FW_INSANE_05_the_wall_triggers_a_loss_on_the_investigator_holding_one_marble() -> None:
    """A Loss on an Investigator holding one Marble drives it Insane at the end of the Action
    and The Wall Opens a Gate (FW-INSANE-01, FW-INSANE-05): worth a Gate for 1 Doom. The
    look-ahead used to stop at the Investigator's own choice of Marble, scoring the Loss as
    nothing and any Target alike, so The Wall Manifested instead and Targeted the first
    Investigator offered."""
    st = _one_marble_table()
    wall = wall_seat(st)
    cultist = next(h.id for h in st.streets)
    assert choose_action(st, wall, GAME) == act("trigger", horror=cultist)
    # Decided on a world resampled from The Wall's view: hand sizes are public, so the same.
    assert GAME.ai_action(st, wall) == act("trigger", horror=cultist)
    st = GAME.apply(st, wall, act("trigger", horror=cultist)).state
    assert st.prompts[-1].kind == "choose_target"
    assert choose_action(st, wall, GAME) == act("choose_investigator", inv="i3")
    st = GAME.apply(st, wall, act("choose_investigator", inv="i3")).state
    gates = len(st.gates)
    while st.prompts and st.prompts[-1].seats != [wall]:  # i3 answers its Loss
        seat = st.prompts[-1].seats[0]
        st = GAME.apply(st, seat, GAME.ai_action(st, seat)).state
    assert inv(st, "i3").insane and len(st.gates) == gates + 1


def test_FW_INSANE_05_no_trigger_when_every_hand_is_deep() -> None:
    """The same table with i3 holding four Marbles: a Loss drives nobody Insane, and The
    Wall still prefers a Horror On the Streets to one Marble from a deep hand."""
    st = _one_marble_table()
    set_hand(st, "i3", "M-F", "M-C", "M-S", "M-F")
    assert choose_action(st, wall_seat(st), GAME).kind != "trigger"


def test_FW_WALL_14_the_scourge_goes_on_the_horror_needing_two_of_a_kind() -> None:
    """Brood (FW-WALL-14) with a Restless Spirit (Clue, Science) and a Ghoul (Force, Force) On
    the Streets: both need two Symbols, but a hand rarely holds two Forces, and as The
    Scourge a Ghoul stood through 59 % of Investigator turns against a Restless Spirit's 39 %
    (easy games, seeds 1-100). The tie used to go to the first placed."""
    st = wall_turn(new_game("conflict", 4, 1), doom=0, mode=None)
    clear_streets(st)
    put_horror(st, "H-RESTLESS-SPIRIT")
    ghoul = put_horror(st, "H-GHOUL")
    wall = wall_seat(st)
    st = GAME.apply(st, wall, act("brood")).state
    assert st.prompts[-1].kind == "scourge"
    assert choose_action(st, wall, GAME) == act("scourge", horror=ghoul)
    assert GAME.ai_action(st, wall) == act("scourge", horror=ghoul)


def test_FW_WALL_14_scourge_hardness_counts_symbols_first() -> None:
    from collections import Counter

    assert scourge_hardness(Counter(force=2)) > scourge_hardness(Counter(clue=1, science=1))
    assert scourge_hardness(Counter(force=1, science=2)) > scourge_hardness(Counter(clue=2))
    assert scourge_hardness(Counter()) == (0, 0)


def test_FW_INSANE_05_the_play_outs_target_the_smallest_hand() -> None:
    """The search's play-out policy answers The Wall's Target choice too: the Investigator
    with the fewest Marbles (hand sizes are public), not the first offered."""
    from rules.fourth_wall.ai import playout_action

    st = _one_marble_table()
    wall = wall_seat(st)
    cultist = next(h.id for h in st.streets)
    st = GAME.apply(st, wall, act("trigger", horror=cultist)).state
    assert playout_action(st, wall, GAME) == act("choose_investigator", inv="i3")


def test_FW_INSTR_04_the_wall_never_targets_an_empty_hand_with_a_loss() -> None:
    """Stop 69's demo (Conflict, seed 69): Restless Spirit's second "Target Investigator Loses
    a Marble" went to the Bruiser, whose first Loss had emptied its hand. The Loss could not
    be done, the card failed, and the Investigators got a free Elected Regroup
    (FW-INSTR-05) where another Target would have lost a Marble. The smallest hand was the
    rule of thumb; an empty one is no Target for a Loss."""
    from rules.fourth_wall.ai import playout_action

    st = wall_turn(new_game("conflict", 4, 1), doom=2, before="i2")
    clear_streets(st)
    spirit = put_horror(st, "H-RESTLESS-SPIRIT")
    set_hand(st, "i1", "M-C", "M-F", "M-S", "M-F")
    set_hand(st, "i2", "M-C", "M-F")
    set_hand(st, "i3", "M-F")
    wall = wall_seat(st)
    st = GAME.apply(st, wall, act("trigger", horror=spirit)).state
    st = GAME.apply(st, wall, act("choose_investigator", inv="i3")).state
    while st.prompts and st.prompts[-1].seats != [wall]:  # i3 answers its Loss
        seat = st.prompts[-1].seats[0]
        st = GAME.apply(st, seat, GAME.ai_action(st, seat)).state
    assert st.prompts[-1].kind == "choose_target" and not inv(st, "i3").hand
    assert act("choose_investigator", inv="i3") in GAME.legal_actions(st, wall)
    for level in ("easy", "normal"):
        assert GAME.ai_action(st, wall, level) != act("choose_investigator", inv="i3"), level
    assert playout_action(st, wall, GAME) == act("choose_investigator", inv="i2")
