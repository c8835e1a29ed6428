"""The Exorcism board picture (renders/exorcism.py) drawn from real game views.

Checks the DESIGN.md "Board posts" habits: a PNG, landscape (never square), wide enough, small
enough to upload; the public picture cannot depend on hidden information (the One vs All Ghost
player's hand, EX-VIS-11); a Ghost seat's private picture shows its hand; rendering never
raises on random states of every mode.
"""

from __future__ import annotations

import io
import random
from typing import Any

import pytest
from PIL import Image

from renders import renderer_for
from renders.common import PNG_SIGNATURE
from renders.exorcism import HEIGHT, STRIP_HEIGHT, WIDTH, render_board
from rules.core.players import playout
from rules.exorcism.game import GAME
from rules.exorcism.state import ExorcismState

MODES: tuple[tuple[str, int], ...] = (
    ("core", 2),
    ("core", 5),
    ("one_vs_all", 3),
    ("one_vs_all", 5),
    ("solo", 1),
)


def _seats(n: int) -> list[str]:
    return [f"s{i}" for i in range(1, n + 1)]


def _state(mode: str, n: int, seed: int, steps: int) -> ExorcismState:
    po = playout(GAME, GAME.options_model(mode=mode), _seats(n), seed=seed, max_steps=steps)
    state: ExorcismState = po.state
    return state


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


@pytest.mark.parametrize(("mode", "n"), MODES, ids=[f"{m}-{n}p" for m, n in MODES])
@pytest.mark.parametrize("steps", [40, 20_000], ids=["mid", "end"])
def test_public_picture_is_a_small_landscape_png(mode: str, n: int, steps: int) -> None:
    state = _state(mode, n, seed=7, steps=steps)
    if steps > 1000:
        assert GAME.result(state) is not None
    data = render_board(GAME.view(state, None))
    assert _check_png(data) == (WIDTH, HEIGHT)


def test_registry_finds_the_renderer() -> None:
    assert renderer_for("exorcism") is render_board


def test_public_picture_ignores_the_ghost_hand() -> None:
    """EX-VIS-11: the channel picture is the same whatever the Ghost player holds."""
    state = _state("one_vs_all", 4, seed=3, steps=60)
    assert state.ghost_seat is not None and GAME.result(state) is None
    haunt_ids = [c for c in state.haunt_deck if c.startswith("H")] + list(state.haunt_discard)
    other = [c for c in haunt_ids if c not in state.ghost_hand][:3]
    assert other and other != state.ghost_hand
    swapped = state.model_copy(update={"ghost_hand": other}, deep=True)
    public = GAME.view(state, None)
    assert "hand" not in public
    assert render_board(public) == render_board(GAME.view(swapped, None))
    # The Ghost seat's own view, less its hand, draws exactly the public picture.
    ghost_view = GAME.view(state, state.ghost_seat)
    without_hand = {k: v for k, v in ghost_view.items() if k not in ("hand", "seat")}
    assert render_board(without_hand) == render_board(public)


def test_ghost_seat_picture_adds_its_private_hand() -> None:
    state = _state("one_vs_all", 3, seed=5, steps=30)
    assert state.ghost_seat is not None
    ghost_view = GAME.view(state, state.ghost_seat)
    assert ghost_view.get("hand")
    private = render_board(ghost_view)
    public = render_board(GAME.view(state, None))
    assert private != public
    assert _check_png(private) == (WIDTH, HEIGHT + STRIP_HEIGHT)
    # Another hand gives another private picture.
    other = [c for c in state.haunt_deck if c.startswith("H") and c not in state.ghost_hand][:3]
    swapped = state.model_copy(update={"ghost_hand": other}, deep=True)
    assert render_board(GAME.view(swapped, state.ghost_seat)) != private


def test_investigator_seat_picture_has_no_private_strip() -> None:
    state = _state("one_vs_all", 3, seed=5, steps=30)
    investigator = next(s for s in state.seats if s != state.ghost_seat)
    assert _png_size(render_board(GAME.view(state, investigator))) == (WIDTH, HEIGHT)


def test_renders_never_raise_on_random_states() -> None:
    rng = random.Random(20240501)
    for k in range(30):
        mode, n = MODES[k % len(MODES)]
        state = _state(mode, n, seed=rng.randrange(10_000), steps=rng.choice([0, 3, 15, 60, 400]))
        _check_png(render_board(GAME.view(state, None)))
        if state.ghost_seat is not None and k % 2 == 0:
            _check_png(render_board(GAME.view(state, state.ghost_seat)))


def _crowded(view: dict[str, Any]) -> dict[str, Any]:
    """A view with everything at once: full rooms, Shrouds, a Cold Spot, Terror effects."""
    cells = {c["id"]: c for c in view["cells"]}
    pawns = [p for c in view["cells"] for p in c["pawns"]]
    cells["r1c1"].update(darkness=4, shrouded=True, dropped={"weapon": 2, "key": 1})
    cells["r2c2"].update(cold_spot=True, darkness=3)
    cells["r3c3"].update(ghosts=["wraith", "bull", "devourer"], pawns=pawns * 2)
    cells["r4c2"]["dropped"] = {t: 3 for t in view["tool_piles"]}
    cells["attic"]["ghosts"] = ["wraith", "bull", "devourer"]
    cells["foyer"]["pawns"] = pawns
    view["exorcism"]["points"] = 33
    view["characters"]["wounded"] = view["characters"]["lookouts"] * 3
    view["characters"]["lookouts"] = view["characters"]["lookouts"] * 4
    if view["ova"]:
        view["ova"]["haunt_level"] = 40
        view["ova"]["effects"] = {"cold_spot": "r2c2", "haunting_sounds": "s2", "walls_bleed": True}
        view["ova"]["amnesia"] = {"s2": -1, "s3": 1}
    for inv in view["investigators"]:
        inv["tools"] = {t: 12 for t in view["tool_piles"]}
    for info in view["seats_info"]:
        info["next_turn_delta"] = 1
        info["ongoing"] = view["available_tasks"] * 3
    view["log"] = ["A very long event " * 30] * 40
    view["prompt"] = {
        "id": "p",
        "kind": "x",
        "text": "A very long prompt " * 20,
        "seats": ["s1"],
        "labels": ["Someone"],
    }
    return view


@pytest.mark.parametrize(("mode", "n"), MODES, ids=[f"{m}-{n}p" for m, n in MODES])
def test_crowded_and_broken_views_still_draw(mode: str, n: int) -> None:
    state = _state(mode, n, seed=2, steps=40)
    _check_png(render_board(_crowded(GAME.view(state, state.ghost_seat))))
    _check_png(render_board({}))
    _check_png(render_board({"mode": mode, "cells": "nonsense", "clock": {"dice": [None]}}))


def test_static_layer_is_cached_and_handed_out_as_a_copy() -> None:
    from renders.common import cached_layer

    built: list[int] = []

    def build() -> Image.Image:
        built.append(1)
        return Image.new("RGB", (40, 30), (1, 2, 3))

    first = cached_layer(("test-layer", 40, 30), build)
    first.putpixel((0, 0), (255, 255, 255))
    second = cached_layer(("test-layer", 40, 30), build)
    assert built == [1]
    assert second.getpixel((0, 0)) == (1, 2, 3)


def test_encode_png_stays_under_its_byte_budget() -> None:
    from renders.common import encode_png

    noisy = Image.effect_noise((1600, 1000), 120).convert("RGB")
    data = encode_png(noisy, max_bytes=150_000)
    assert data.startswith(PNG_SIGNATURE)
    assert len(data) <= 150_000
    width, height = _png_size(data)
    assert width / height == pytest.approx(1.6, rel=0.01)


def test_a_room_s_dropped_tools_are_all_told_beside_four_darkness(monkeypatch: Any) -> None:
    """Stop 68: a Room with four Darkness and five Tool types dropped drew its 2 Weapons and
    nothing of the other six Tools. Each type that fits is its icon and count; the last icon
    drawn also counts the Tools that do not fit ("2+7": two Weapons and seven more)."""
    import renders.exorcism as ex

    game = GAME
    state = game.setup(_seats(2), game.options_model(mode="core"), 5)
    view = game.view(state, None)
    cell = next(c for c in view["cells"] if c["kind"] == "house" and not c["face_down"])
    dropped = {"weapon": 2, "holy_relic": 1, "key": 3, "detection": 1, "occult": 2}
    cell["darkness"] = 4
    cell["dropped"] = dropped
    counts: list[str] = []
    real = ex._tool_counts

    def tool_counts(d: Any, *args: Any, **kw: Any) -> float:
        if kw.get("right") is None or args[2] != dropped:
            return real(d, *args, **kw)
        draw_text = d.text

        def text(xy: Any, words: str, **k: Any) -> None:
            counts.append(words)
            draw_text(xy, words, **k)

        d.text = text
        try:
            return real(d, *args, **kw)
        finally:
            d.text = draw_text

    monkeypatch.setattr(ex, "_tool_counts", tool_counts)
    render_board(view)
    assert counts, "the Room's Tools were not drawn"
    told = sum(int(c) for w in counts for c in w.split("+"))
    assert told == sum(dropped.values()), counts
    assert "+" in counts[-1], counts
