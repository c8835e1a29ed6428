"""The recap picture of a finished game (issue #22, renders/recap.py): phone width, drawn
from the public view and the ending told from public events, for every game."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image

from renders.recap import MAX_BYTES, render_recap
from rules.core.players import playout
from rules.core.types import Event
from rules.registry import GAMES


def _recap_view(game: str, mode: str, players: int) -> dict[str, Any]:
    """The public view of a finished random playout (seed 11), as the recap is drawn from."""
    g = GAMES[game]
    seats = [f"s{i + 1}" for i in range(players)]
    options = g.options_model(mode=mode)
    run = playout(g, options, seats, 11)
    state = g.setup(seats, options, 11)
    moves: list[tuple[str | None, list[Event]]] = []
    for seat, action in run.history:
        out = g.apply(state, seat, action)
        state = out.state
        moves.append((seat, out.events))
    result = g.result(state)
    assert result is not None
    names = {s: n for s, n in zip(seats, ("Ada", "Basil", "Clara"), strict=False)}
    ending = g.ending(state, result, moves, names)
    view = g.view(state, None)
    view["names"] = names
    view["ending"] = ending.as_view()
    return view


@pytest.mark.parametrize(("game", "mode", "players"), [
    ("presence", "session", 3), ("fourth_wall", "conflict", 3), ("exorcism", "core", 2)])
def test_recap_is_a_phone_sized_png_of_the_final_public_board(game: str, mode: str,
                                                               players: int) -> None:
    data = render_recap(game, _recap_view(game, mode, players))
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) <= MAX_BYTES
    image = Image.open(io.BytesIO(data))
    assert image.width == 800
    # a board, a headline and the players' parts make it taller than a turn card's head
    assert image.height > 800


def test_recap_without_a_board_picture_still_tells_the_end() -> None:
    """A game with no renderer (the test game): the words alone, still 800 px wide."""
    view = {"mode": "standard", "ending": {
        "headline": "Ada wins; Basil loses.", "why": "Highest score: 9.",
        "length": "2 moves", "turning_points": ["Round 1: Ada takes 2."],
        "parts": [{"name": "Ada", "won": True, "line": "1 move."}]}}
    image = Image.open(io.BytesIO(render_recap("highcard", view)))
    assert image.width == 800 and image.height < 800


@pytest.mark.parametrize(("game", "mode", "players"), [
    ("presence", "session", 4), ("fourth_wall", "conflict", 3)])
def test_the_recaps_map_has_the_key_the_turn_cards_map_has(game: str, mode: str,
                                                           players: int) -> None:
    """Stop 68: the game-over picture drew the phone map without the key every turn card
    draws under it (the moon, S, s, D, the door glyphs ...), the one board of the game whose
    glyphs a phone reader could not look up. The key is drawn under the map, whole."""
    from renders.recap import render_recap_image
    from renders.turncard import PAD, WIDTH, phone_legend

    view = _recap_view(game, mode, players)
    key = phone_legend(game, view, WIDTH - 2 * PAD)
    assert key is not None
    recap = render_recap_image(game, view).convert("RGB")
    found = [y for y in range(recap.height - key.height)
             if recap.crop((PAD, y, PAD + key.width, y + 1)).tobytes()
             == key.crop((0, 0, key.width, 1)).tobytes()
             and recap.crop((PAD, y, PAD + key.width, y + key.height)).tobytes()
             == key.tobytes()]
    assert found, "no key under the recap's map"
