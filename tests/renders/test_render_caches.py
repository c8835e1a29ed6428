"""Issue #15: the render caches (static layers, hatch tiles, rendered text runs and widths)
never show a stale room, token or name.

Whole games of every game and mode are played by the games' AI (fixed seeds) one after
another in this one process, so the caches carry what earlier games and states left in them;
every tenth state's board is drawn as a worker draws it, and at every 60th the public board, a
seat's board (a different seat each time) and the turn card are drawn with the caches and again
with every cache off (`renders.common.uncached`): the two pictures must be the same pixel for
pixel (`-m soak`: every fifth state drawn, every 30th compared). The cached parts (rooms,
cells, investigators' panels) are pasted where they did not change, so a stale one would show.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial
from typing import Any

import pytest
from PIL import Image, ImageDraw

from renders import common, exorcism, fourth_wall, presence
from renders.turncard import render_turn_image
from tests.renders.cardviews import names_for, sampled_states, with_turn

IMAGES: dict[str, Callable[[dict[str, Any]], Image.Image]] = {
    "exorcism": exorcism.render_image,
    "fourth_wall": fourth_wall.render_image,
    "presence": presence.render_image,
}
# Every game and mode, the player counts varied so layouts (and their cached layers) differ.
TABLES = [("exorcism", "core", 3), ("exorcism", "one_vs_all", 4), ("exorcism", "solo", 1),
          ("fourth_wall", "conflict", 3), ("fourth_wall", "alliance", 2),
          ("presence", "session", 4), ("presence", "session", 3)]


def _same(name: str, what: str, draw: Callable[[], Image.Image]) -> None:
    cached = draw()
    with common.uncached():
        fresh = draw()
    assert cached.size == fresh.size, f"{name} {what}: size differs"
    assert cached.tobytes() == fresh.tobytes(), f"{name} {what}: a cached picture differs"


def test_cached_pictures_are_pixel_for_pixel_the_uncached_ones_over_whole_games() -> None:
    """The default suite's share (stop 67): the same whole games, every 10th state drawn and
    every 60th compared."""
    _compare_over_whole_games(every=10, compare_every=6, at_least=21)


@pytest.mark.soak
def test_soak_cached_pictures_are_pixel_for_pixel_the_uncached_ones_over_whole_games() -> None:
    _compare_over_whole_games(every=5, compare_every=6, at_least=45)


def _compare_over_whole_games(every: int, compare_every: int, at_least: int) -> None:
    common.clear_layer_cache()
    common.clear_glyph_cache()
    compared = 0
    for name, mode, n in TABLES:
        image = IMAGES[name]
        for k, (game, state, seats) in enumerate(sampled_states(name, mode, n, seed=7,
                                                                 every=every)):
            names = names_for(seats)
            public = game.view(state, None)
            public["names"] = names
            if k % compare_every:  # in between, the caches fill as a worker's do
                image(public)
                continue
            seat = game.view(state, seats[k % len(seats)])
            seat["names"] = names
            card = with_turn(game, state, game.view(state, None), names)
            label = f"{mode} {n}p sample {k}"
            _same(name, f"{label} public board", partial(image, public))
            _same(name, f"{label} seat board", partial(image, seat))
            _same(name, f"{label} turn card", partial(render_turn_image, name, card))
            compared += 3
    assert compared >= at_least
    stats = common.cache_stats()
    assert stats["runs"] > 0 and stats["layers"] > 0 and stats["parts"] > 0  # in use


def test_a_layer_of_another_layout_is_never_handed_out() -> None:
    """Two layouts (keys) get their own layers; a key's layer is built once."""
    common.clear_layer_cache()
    built: list[str] = []

    def layer(colour: tuple[int, int, int], tag: str) -> Callable[[], Image.Image]:
        def build() -> Image.Image:
            built.append(tag)
            return Image.new("RGB", (8, 8), colour)
        return build

    a = common.cached_layer(("t", "a"), layer((255, 0, 0), "a"))
    b = common.cached_layer(("t", "b"), layer((0, 0, 255), "b"))
    a.putpixel((0, 0), (0, 255, 0))  # drawing on a copy leaves the cached layer alone
    again = common.cached_layer(("t", "a"), layer((9, 9, 9), "a again"))
    assert built == ["a", "b"]
    assert again.getpixel((0, 0)) == (255, 0, 0) and b.getpixel((0, 0)) == (0, 0, 255)


def test_the_layer_cache_stays_within_its_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    common.clear_layer_cache()
    monkeypatch.setattr(common, "LAYER_BUDGET", 3 * 100 * 100 * 4)
    for k in range(6):
        common.cached_layer(("budget", k), lambda: Image.new("RGB", (100, 100)))
    stats = common.cache_stats()
    assert stats["layers"] == 3 and stats["layer_bytes"] <= common.LAYER_BUDGET
    common.cached_layer(("budget", 3), lambda: Image.new("RGB", (100, 100), "red"))
    kept = common.cached_layer(("budget", 3), lambda: Image.new("RGB", (100, 100), "red"))
    assert kept.getpixel((0, 0)) == (0, 0, 0)  # still the first build: it was kept
    common.clear_layer_cache()


def test_the_text_run_cache_stays_within_its_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    common.clear_glyph_cache()
    monkeypatch.setattr(common, "GLYPH_RUN_BUDGET", 256 * 1024)
    from PIL import ImageDraw

    d = ImageDraw.Draw(Image.new("RGB", (800, 100)))
    for k in range(400):
        d.text((10, 10), f"Room number {k} of the manor", font=common.font(28), fill=(1, 2, 3))
    stats = common.glyph_cache_stats()
    assert 0 < stats["run_bytes"] <= 256 * 1024 and stats["runs"] < 400
    common.clear_glyph_cache()


def test_a_pasted_part_reports_its_cut_words_again() -> None:
    """A part drawn once with a word cut is pasted later: the cut report still sees the cut,
    so the nothing-cut test cannot be fooled by a warm cache."""
    from PIL import ImageDraw

    img = Image.new("RGB", (120, 40))
    d = ImageDraw.Draw(img)

    def part() -> None:
        common.draw_text(d, (2, 2), "Suffering (Spiritual) of the manor", common.font(16),
                         (255, 255, 255), max_width=60)

    common.reset_truncations()
    common.memo_region(img, (0, 0, 100, 30), ("cut test",), part)
    drawn = img.tobytes()
    assert common.truncations() == ["Suffering (Spiritual) of the manor"]
    common.reset_truncations()
    img.paste((0, 0, 0), (0, 0, 120, 40))
    common.memo_region(img, (0, 0, 100, 30), ("cut test",), part)  # pasted, not drawn
    assert img.tobytes() == drawn
    assert common.truncations() == ["Suffering (Spiritual) of the manor"]
    common.reset_truncations()
    common.clear_layer_cache()


@pytest.mark.parametrize("deflater", ["installed", "zlib"])
def test_the_png_writer_gives_the_very_pixels_pillow_would(
        deflater: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """`palette_png` (no row filter, ISA-L's deflate when installed, else zlib) decodes to the
    same pixels as Pillow's own PNG of the same palette picture."""
    import io
    import zlib

    if deflater == "zlib":
        monkeypatch.setattr(common, "_DEFLATE", zlib.compress)
        monkeypatch.setattr(common, "DEFLATE_NAME", "zlib")
    from tests.renders.test_turncard import _mid_view

    view = _mid_view("presence", "session", 4)
    for img in (presence.render_image(view), render_turn_image("presence", view)):
        pal = img.quantize(palette=common.palette_of(img, 256), dither=Image.Dither.NONE)
        ours = Image.open(io.BytesIO(common.palette_png(pal)))
        ours.load()
        buf = io.BytesIO()
        pal.save(buf, format="PNG")
        theirs = Image.open(io.BytesIO(buf.getvalue()))
        assert ours.size == img.size and ours.mode == "P"
        assert ours.convert("RGB").tobytes() == theirs.convert("RGB").tobytes()


@pytest.mark.parametrize("name", ["exorcism", "fourth_wall", "presence"])
def test_the_encoded_picture_keeps_the_drawn_colours(name: str) -> None:
    """Issue #15's faster encoding (a palette chosen from a sample) keeps pictures as good as
    before: the PNG decodes within 40 dB of the drawn picture (PSNR), and hardly a pixel is
    visibly off (a few in 10,000 at most, where the whole-picture palette already had some)."""
    import io
    import math

    from PIL import ImageChops, ImageStat

    from tests.renders.test_turncard import _mid_view

    mode, n = {"exorcism": ("core", 3), "fourth_wall": ("conflict", 3),
               "presence": ("session", 4)}[name]
    view = _mid_view(name, mode, n)
    for drawn, data in ((IMAGES[name](view), None), (render_turn_image(name, view), "card")):
        png = common.encode_png(drawn, colours=(128,) if data else (256,))
        back = Image.open(io.BytesIO(png)).convert("RGB")
        diff = ImageChops.difference(drawn, back)
        mse = sum(ImageStat.Stat(diff).sum2) / (3 * drawn.width * drawn.height)
        assert mse == 0 or 10 * math.log10(255 * 255 / mse) >= 40
        far = sum(diff.convert("L").histogram()[48:])
        assert far <= drawn.width * drawn.height * 5 // 10_000


@pytest.mark.parametrize("name, mode, n", [("fourth_wall", "conflict", 3),
                                           ("exorcism", "one_vs_all", 3),
                                           ("presence", "session", 3)])
def test_one_stored_layer_serves_the_public_board_and_every_seats_taller_one(
        name: str, mode: str, n: int) -> None:
    """Issue #25: a seat's board (the public board with a private strip below, taller) is cut
    from the public board's stored layer, not a layer of its own per height (a Fourth Wall
    game's public, Wall and team boards were three layers of 6-8 MiB); each picture is still
    the uncached one pixel for pixel."""
    common.clear_layer_cache()
    image = IMAGES[name]
    samples = sampled_states(name, mode, n, seed=3, every=9)
    game, state, seats = next(s for k, s in enumerate(samples) if k == 2)  # hands dealt
    names = names_for(seats)
    heights = set()
    for seat in (None, *seats):
        view = game.view(state, seat)
        view["names"] = names
        heights.add(image(view).height)
        _same(name, f"seat {seat} board", partial(image, view))
    assert len(heights) >= 2  # the seats' boards are taller than the public one
    stats = common.cache_stats()
    assert stats["layers"] == 1, stats
    common.clear_layer_cache()


def test_the_width_cache_stays_within_its_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    common.clear_glyph_cache()
    monkeypatch.setattr(common, "LENGTH_BUDGET", 16 * 1024)
    fnt = common.font(20)
    for k in range(500):
        assert common.text_width(f"A room called number {k}", fnt) > 0
    stats = common.glyph_cache_stats()
    assert 0 < stats["width_bytes"] <= 16 * 1024 and stats["widths"] < 500
    common.clear_glyph_cache()


def test_the_hatch_cache_stays_within_its_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    common.clear_layer_cache()
    monkeypatch.setattr(common, "HATCH_BUDGET", 200 * 100 * 5 * 3)
    img = Image.new("RGB", (400, 400))
    for k in range(8):
        common.hatch(img, (0, 0, 200 + k, 100), (200, 40, 40))
    stats = common.cache_stats()
    assert 0 < stats["hatches"] <= 3 and stats["hatch_bytes"] <= common.HATCH_BUDGET
    common.clear_layer_cache()


def test_a_stamped_rounded_box_is_the_very_box_pillow_draws() -> None:
    # Issue #25: rounded boxes a render drew before are pasted from a stamp. Random boxes at
    # fractional corners (halves included: Pillow rounds them half to even), radii that join
    # the corners or nearly, outlines of every width and boxes past the picture's edges; each
    # drawn twice, so the second drawing is the stamp's, and compared with Pillow's drawing.
    common.clear_layer_cache()
    rng = random.Random(25)
    for _ in range(1500):
        size = (rng.randint(20, 160), rng.randint(20, 160))
        back = (rng.randrange(256), rng.randrange(256), rng.randrange(256))
        x0 = rng.uniform(-10, size[0] - 4) if rng.random() < 0.7 else rng.randint(0, 60) + 0.5
        y0 = rng.uniform(-10, 0) if rng.random() < 0.4 else rng.randint(0, 60) - 0.5
        box = (x0, y0, x0 + rng.uniform(2, 120), y0 + rng.uniform(2, 120))
        radius = rng.choice([2, 6.5, 8, 14, 20, 40, rng.uniform(0, 30), rng.uniform(0, 30)])
        fill = (rng.randrange(256), rng.randrange(256), rng.randrange(256))
        outline = rng.choice([None, (0, 0, 0), (255, 255, 255), fill, (9, 200, 9)])
        width = rng.choice([1, 2, 3])
        fresh = Image.new("RGB", size, back)
        try:
            with common.uncached():
                common.rounded_box(ImageDraw.Draw(fresh), box, radius, fill, outline, width)
        except ValueError:  # Pillow refuses a few slivers; the stamp path must too
            continue
        for _ in range(2):
            drawn = Image.new("RGB", size, back)
            common.rounded_box(ImageDraw.Draw(drawn), box, radius, fill, outline, width)
            assert drawn.tobytes() == fresh.tobytes(), (box, radius, fill, outline, width)
    assert common.cache_stats()["boxes"] > 100  # the stamps were made and used
    common.clear_layer_cache()


def test_the_box_stamp_cache_stays_within_its_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    common.clear_layer_cache()
    monkeypatch.setattr(common, "BOX_BUDGET", 128 * 1024)
    img = Image.new("RGB", (300, 300))
    for k in range(40):
        for _ in range(2):  # a stamp is made on a shape's second drawing
            common.rounded_box(ImageDraw.Draw(img), (10, 10, 40 + k, 30), 6, fill=(k, 0, 0))
    stats = common.cache_stats()
    assert 0 < stats["boxes"] < 40 and stats["box_bytes"] <= 128 * 1024
    common.clear_layer_cache()


def test_a_remembered_text_fit_is_the_fit_measured_afresh(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Issue #25: try_fit_lines remembers its answers (per thread): asked again, it answers
    # the size and lines it measures afresh, and never more than its budget holds.
    common.clear_glyph_cache()
    monkeypatch.setattr(common, "FIT_BUDGET", 8 * 1024)
    rng = random.Random(7)
    words = ["Doctor", "gains", "the", "Plan", "Cleanse", "+5", "Exorcism", "points",
             "Featherstonehaugh", "Supply", "Room", "(Holy", "Relic", "Task", "5)"]
    texts = [" ".join(rng.choices(words, k=rng.randint(1, 14))) for _ in range(120)]
    for _ in range(3):
        for k, text in enumerate(texts):
            args = (text, 200 + 40 * (k % 5), 40, 20 + (k % 3) * 6, bool(k % 2),
                    None if k % 4 else 2)
            with common.uncached():
                fresh = common.try_fit_lines(*args)
            found = common.try_fit_lines(*args)
            assert (found is None) == (fresh is None), text
            if found is not None and fresh is not None:
                assert found[0].size == fresh[0].size and found[1] == fresh[1], text
    stats = common.glyph_cache_stats()
    assert 0 < stats["fit_bytes"] <= 8 * 1024 and stats["fits"] < len(texts)
    common.clear_glyph_cache()
