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
