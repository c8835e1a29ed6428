"""Stop 70's reading of I Am the Fourth Wall: the words and pictures a player reads agree with
what the engine does. Each test is named by the rule id it checks."""

from __future__ import annotations

from rules.fourth_wall.engine import Engine
from rules.fourth_wall.game import GAME
from tests.fourth_wall.helpers import inv_turn, new_game


def test_FW_ALLY_02_the_game_over_card_has_no_doom_tile_in_alliance() -> None:
    """Stop 69 made Alliance's Doom tile 'Presence cards N · next Wall turn'; at game over,
    with no Wall turn to come, the tile read 'Doom 0' again, a number the game's pictures had
    not shown since its start. The game-over card keeps the tiles it had, less the Presence
    cards (none will be resolved); Conflict keeps its Doom."""
    from renders.cardwords import numbers

    for winner in ("investigators", "wall"):
        st = inv_turn(new_game("alliance", 3, seed=2))
        playing = [n.label for n in numbers("fourth_wall", GAME.view(st, None))]
        assert "Presence cards" in playing and "Doom" not in playing, playing
        eng = Engine(st)
        eng.finish(winner, "the game ends")
        over = [n.label for n in numbers("fourth_wall", GAME.view(eng.st, None))]
        assert GAME.result(eng.st) is not None
        assert "Doom" not in over and "Presence cards" not in over, over
        assert set(over) <= set(playing), (over, playing)
    st = inv_turn(new_game("conflict", 3, seed=2))
    eng = Engine(st)
    eng.finish("wall", "the game ends")
    assert "Doom" in [n.label for n in numbers("fourth_wall", GAME.view(eng.st, None))]


def test_FW_WALL_08_a_trigger_is_labelled_by_its_horror_and_its_cost_alone() -> None:
    """Stop 70's demo as The Wall: the board post offered "Trigger Cultist — needs Force
    (1 Doom)", as if Triggering needed a Force Symbol; the Symbols are what the Investigators
    still need to Defeat it. A Trigger names the Horror (which of two alike it is, by what it
    holds) and its Trigger Cost; an Intervene keeps the Symbols its Horror needs."""
    from rules.fourth_wall.actions import TRIGGER
    from rules.fourth_wall.labels import describe_action
    from tests.fourth_wall.helpers import clear_streets, put_horror, wall_turn

    st = wall_turn(new_game("conflict", 3, seed=2), doom=3).model_copy(deep=True)
    clear_streets(st)
    put_horror(st, "H-CULTIST")
    put_horror(st, "H-GHOUL")
    put_horror(st, "H-GHOUL", attached=("M-C",))
    seat = st.wall_seat
    assert seat is not None
    eng = Engine(st)
    labels = [describe_action(eng, seat, a) for a in GAME.legal_actions(st, seat)
              if a.kind == TRIGGER]
    assert "Trigger Cultist (1 Doom)" in labels, labels
    ghouls = [x for x in labels if x.startswith("Trigger Ghoul")]
    assert len(ghouls) == 2 and len(set(ghouls)) == 2, ghouls
    assert all("needs" not in x for x in labels), labels
    assert "needs" in eng.horror_label(st.streets[0].id)


def test_FW_TRACK_03_the_walls_last_dm_does_not_wait_for_an_eye_to_open() -> None:
    """Stop 70's demo as The Wall, a game won by the Investigators in Slumber: the DM's
    "What you held at the end" read "You are The Wall: … (secret until An Eye Opens)" and
    "Its Unique and Aura work once An Eye Opens, not before." At game over the card is
    shown to all and no Eye is to open; during the game the DM keeps saying so."""
    st = inv_turn(new_game("conflict", 3, seed=2))
    seat = st.wall_seat
    assert seat is not None and not st.revealed
    playing = GAME.private_summary(st, seat) or ""
    assert "secret until An Eye Opens" in playing and "You are The Wall" in playing
    eng = Engine(st)
    eng.finish("investigators", "every Gate is closed")
    assert GAME.view(eng.st, None)["wall"]["name"]  # the card is public at game over
    over = GAME.private_summary(eng.st, seat) or ""
    assert over.startswith("You were The Wall: "), over
    assert "An Eye Opens" not in over and "Your hand of Horrors" in over, over
