"""The Presence board picture (renders/presence.py) drawn from real game views.

Checks the DESIGN.md "Board posts" habits: a PNG, landscape (never square), wide enough, small
enough to upload; the public picture cannot depend on hidden information (the spirit's script,
secrets, hand and clue identities; the visitors' hands; the deck orders); the spirit's and a
visitor's private pictures differ from the public one; rendering never raises on random states.
"""

from __future__ import annotations

import functools
import io
import random
from typing import Any

import pytest
from PIL import Image

from renders import renderer_for
from renders.common import PNG_SIGNATURE
from renders.presence import HEIGHT, STRIP_HEIGHT, WIDTH, render_board
from rules.core.players import playout
from rules.presence.game import GAME
from rules.presence.state import PresenceState

PRIVATE_KEYS = ("hand", "spirit_private", "inspected")


def _seats(n: int) -> list[str]:
    return [f"s{i}" for i in range(1, n + 1)]


@functools.lru_cache(maxsize=64)
def _state(n: int, seed: int, steps: int) -> PresenceState:
    """A playout's state (cached: treat it as read-only, copy before changing it)."""
    po = playout(GAME, GAME.options_model(), _seats(n), seed=seed, max_steps=steps)
    state: PresenceState = po.state
    return state


def _names(n: int) -> dict[str, str]:
    pool = ["Alice", "Bartholomew", "Chen", "Dolores-Annabelle", "Eve"]
    return {s: pool[i] for i, s in enumerate(_seats(n))}


def _view(state: PresenceState, seat: str | None) -> dict[str, Any]:
    view = GAME.view(state, seat)
    view["names"] = _names(state.n)
    return view


def _png_size(data: bytes) -> tuple[int, int]:
    with Image.open(io.BytesIO(data)) as img:
        img.load()
        return img.size


def _check_png(data: bytes) -> tuple[int, int]:
    assert data.startswith(PNG_SIGNATURE)
    width, height = _png_size(data)
    assert width >= 1280
    assert width != height
    assert width > height  # landscape
    assert len(data) < 400_000
    return width, height


@pytest.mark.parametrize("n", [3, 4, 5], ids=["3p", "4p", "5p"])
@pytest.mark.parametrize("steps", [60, 20_000], ids=["mid", "end"])
def test_public_picture_is_a_small_landscape_png(n: int, steps: int) -> None:
    state = _state(n, seed=7, steps=steps)
    if steps > 1000:
        assert GAME.result(state) is not None
    data = render_board(_view(state, None))
    assert _check_png(data) == (WIDTH, HEIGHT)


def test_registry_finds_the_renderer() -> None:
    assert renderer_for("presence") is render_board


@pytest.mark.parametrize("n", [3, 5])
def test_private_pictures_add_a_strip_and_differ_from_public(n: int) -> None:
    state = _state(n, seed=11, steps=80)
    public = render_board(_view(state, None))
    spirit = render_board(_view(state, state.spirit_seat))
    visitor = render_board(_view(state, state.visitor_seats[0]))
    for data in (spirit, visitor):
        assert _check_png(data) == (WIDTH, HEIGHT + STRIP_HEIGHT)
        assert data != public
    assert spirit != visitor


@pytest.mark.parametrize("seat_index", [0, 1, 2])
def test_public_picture_equals_private_view_without_private_keys(seat_index: int) -> None:
    """A seat's view with its private keys removed draws exactly the public picture."""
    state = _state(4, seed=5, steps=70)
    seat = state.seats[seat_index]
    private = _view(state, seat)
    for key in PRIVATE_KEYS:
        private.pop(key, None)
    public = _view(state, None)
    # `seat`, `role` and a hidden prompt's text are how the view addresses its reader;
    # the renderer must not need them to draw the public board.
    private["seat"], private["role"], private["prompt"] = None, None, public["prompt"]
    assert render_board(private) == render_board(public)


def test_public_picture_ignores_hidden_information() -> None:
    """Two states that differ only in what is hidden draw the same public picture."""
    state = _state(5, seed=3, steps=120)
    assert GAME.result(state) is None
    other = state.model_copy(deep=True)
    rng = random.Random(1)
    rng.shuffle(other.clue_deck)
    rng.shuffle(other.item_deck)
    rng.shuffle(other.spirit.deck)
    # the spirit's hand and a visitor's hand swap cards with their decks
    sp = other.spirit
    k = min(len(sp.hand), len(sp.deck))
    sp.hand[:k], sp.deck[:k] = sp.deck[:k], sp.hand[:k]
    v = other.visitors[other.visitor_seats[0]]
    k = min(len(v.hand), len(v.deck))
    v.hand[:k], v.deck[:k] = v.deck[:k], v.hand[:k]
    # face-down spirit clues change identity between rooms
    ids = [t.id for toks in other.tokens.values() for t in toks if t.kind == "spirit"]
    rng.shuffle(ids)
    it = iter(ids)
    for toks in other.tokens.values():
        for t in toks:
            if t.kind == "spirit":
                t.id = next(it)
    # unrevealed secrets swap cards; the script changes among the displayed ones
    hidden = [s for s in other.secrets if not s.revealed]
    if len(hidden) >= 2:
        hidden[0].card, hidden[1].card = hidden[1].card, hidden[0].card
    if not other.script_revealed:
        choices = [s for s in other.display_scripts if s != other.script]
        if choices:
            other.script = choices[0]
    assert other != state
    assert render_board(_view(other, None)) == render_board(_view(state, None))
    assert render_board(_view(other, other.spirit_seat)) != render_board(
        _view(state, state.spirit_seat)
    )


def test_random_states_never_raise() -> None:
    rng = random.Random(2024)
    for k in range(30):
        n = rng.choice([3, 4, 5])
        steps = rng.choice([0, 5, 30, 90, 250, 500]) if k else 20_000
        state = _state(n, seed=rng.randrange(10_000), steps=steps)
        seat = rng.choice([None, *state.seats])
        data = render_board(_view(state, seat))
        assert data.startswith(PNG_SIGNATURE), k


def test_malformed_views_draw_empty() -> None:
    for view in ({}, {"rooms": None, "visitors": [None, 3]}, {"secrets": [{"revealed": True}]},
                 {"hand": [{}], "track": {"hope": "x"}}, {"spirit_private": {"secrets": [1]}}):
        assert render_board(view).startswith(PNG_SIGNATURE)
