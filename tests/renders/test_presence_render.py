"""The Presence board picture (renders/presence.py) drawn from real game views.

Checks the DESIGN.md "Board posts" habits: a PNG, landscape (never square), wide enough, small
enough to upload; the public picture cannot depend on hidden information (the spirit's script,
secrets, hand and clue identities; the visitors' hands; the deck orders); the spirit's and a
visitor's private pictures differ from the public one; rendering never raises on random states.
"""

from __future__ import annotations

import functools
import io
import json
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


def _drawn_text(monkeypatch: pytest.MonkeyPatch, view: dict[str, Any]) -> str:
    """Every string the renderer writes on the picture of `view` (card faces included)."""
    import renders.presence as module

    seen: list[str] = []

    def record(real: Any, position: int) -> Any:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            seen.append(str(args[position]))
            return real(*args, **kwargs)
        return wrapper

    monkeypatch.setattr(module, "draw_text", record(module.draw_text, 2))
    monkeypatch.setattr(module, "draw_text_in_box", record(module.draw_text_in_box, 2))
    with module._CARD_LOCK:
        module._CARDS.clear()  # card faces are cached: draw them afresh
    render_board(view)
    monkeypatch.undo()
    return "\n".join(seen)


def test_H_L4_only_the_spirit_picture_shows_script_secrets_and_clue_identities(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """H-L4 / H-07 / H-10 / H-24: the spirit's DM picture carries its script, where each
    secret lies and what each face-down spirit clue is; the public and visitors' pictures do
    not, and their views do not even hold them."""
    from renders.presence import _read
    from rules.presence.content import default_pack

    pack = default_pack()
    state = _state(4, seed=5, steps=70)
    assert not state.script_revealed and GAME.result(state) is None
    script = pack.script(state.script)
    secrets = [(s.position, pack.secret(s.card).name) for s in state.secrets if not s.revealed]
    clues = {room: [pack.spirit_clue_of(t.id).name for t in toks if t.kind == "spirit"]
             for room, toks in state.tokens.items()}
    assert secrets and any(clues.values())

    spirit_view = _view(state, state.spirit_seat)
    board = _read(spirit_view)
    assert board.private_role == "spirit"
    assert board.spirit_private["script"]["name"] == script.name
    for room in board.rooms:
        assert room.spirit_names == clues.get(room.id, []), room.id
    drawn = _drawn_text(monkeypatch, spirit_view)
    assert f"Your script: {script.name}" in drawn
    assert script.top.text in drawn and script.bottom.text in drawn
    assert all(f"#{pos} {name}" in drawn for pos, name in secrets)
    flat = " ".join(drawn.split())  # a name may wrap onto the next line ("Cold\nSpot")
    assert all(name in flat for names in clues.values() for name in names), (clues, drawn)

    public_text = json.dumps(_view(state, None))
    # a clue name printed elsewhere on the public board ("Comfort" is also an action) is
    # no evidence of a leak
    private_clues = {n for names in clues.values() for n in names if n not in public_text}
    assert private_clues
    for seat in (None, *state.visitor_seats):
        view = _view(state, seat)
        assert "spirit_private" not in view
        board = _read(view)
        assert board.spirit_private == {}
        assert all(room.spirit_names == [] for room in board.rooms)
        drawn = _drawn_text(monkeypatch, view)
        # the script's name is public on the display (H-09); which one is drawn is not
        assert "Your script" not in drawn
        assert script.top.text not in drawn and script.bottom.text not in drawn
        assert not any(name in drawn for _, name in secrets)
        assert not any(name in drawn for name in private_clues)


@pytest.mark.skipif(__import__("shutil").which("tesseract") is None,
                    reason="tesseract is not installed")
@pytest.mark.parametrize("values", [[2, 3, 4, 5, 6], [1, 6, 1], [5, 5, 1, 4]])
def test_full_board_dice_show_their_number_read_at_400_px(values: list[int],
                                                          tmp_path: Any) -> None:
    """Stop 67: the phone map shows a presence die's number (stop 66), the full board still
    drew pips, dots no one could count when the board is scaled to a phone's 400 px. The full
    board draws the number too, large enough there: the room's dice read back their values
    (tesseract, the dice alone, as an eye looks at them)."""
    import subprocess

    from PIL import ImageChops, ImageOps

    from renders.presence import render_image
    from tests.presence.helpers import new_game, put_die, quiet
    from tests.renders.test_presence_phone import _die_faces

    st = quiet(new_game(5, seed=3))
    for v in values:
        put_die(st, "kitchen", v)
    view = _view(st, None)
    # where the dice are, on the picture before its palette; what is read, on the PNG posted
    faces = [f for f in _die_faces(render_image(view)) if f[2] - f[0] > 24]  # not the key's
    assert len(faces) == len(values)
    board = Image.open(io.BytesIO(render_board(view))).convert("RGB")
    scale = 400 / board.width
    small = board.resize((400, round(board.height * scale)), Image.Resampling.LANCZOS)
    dice = []
    for x0, y0, x1, y1 in faces:
        die = small.crop((round(x0 * scale), round(y0 * scale), round(x1 * scale) + 1,
                          round(y1 * scale) + 1))
        # enlarged, and the red of the number alone made black on white, only for tesseract:
        # what it reads is there at 400
        die = die.resize((die.width * 8, die.height * 8), Image.Resampling.LANCZOS)
        red, green, _blue = die.split()
        ink = ImageChops.subtract(red, green).point(lambda v: 0 if v > 30 else 255)
        dice.append(ImageOps.expand(ink, 16, fill=255))
    row = Image.new("L", (sum(d.width for d in dice) + 40, max(d.height for d in dice) + 40),
                    255)
    x = 20
    for d in dice:
        row.paste(d, (x, 20))
        x += d.width
    path = tmp_path / "dice.png"
    row.save(path)
    out = subprocess.run(["tesseract", str(path), "stdout", "--psm", "7",
                          "-c", "tessedit_char_whitelist=123456"],
                         capture_output=True, text=True, timeout=60, check=True)
    assert out.stdout.strip() == "".join(str(v) for v in values), out.stdout
