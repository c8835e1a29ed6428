"""Stop 66: an AI seat's name ("AI Moth") reads "AI", not "Al", on every game's pictures.

DejaVu Sans draws its capital I as a bare bar, the shape of its small l: at 400 px tesseract
read "Al Moth" on the turn card. Every picture draws text with `renders.common.font`, whose
faces draw the I of the word "AI" with serifs (from DejaVu Sans Mono): measured and drawn
alike, cached or not, and only in that word.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageFont

from bot.tables import ai_seat_name
from renders.common import font, uncached
from renders.turncard import render_turn_card
from tests.renders.ocr import TESSERACT, read_at_phone_width
from tests.renders.test_turncard import CASES, _mid_view

AI_NAMES = [ai_seat_name(f"s{k}") for k in range(1, 9)]  # "AI Wisp" .. "AI Crow"


@pytest.mark.skipif(TESSERACT is None, reason="tesseract is not installed")
@pytest.mark.parametrize(("name", "mode", "n"), [c for c in CASES if c[1] != "one_vs_all"],
                         ids=lambda v: str(v))
def test_an_ai_seats_name_reads_ai_on_every_games_turn_card(name: str, mode: str, n: int,
                                                             tmp_path: Path) -> None:
    """The turn card is every game's (renders/turncard.py): the awaited AI seat's name, big
    and bold, and in the line of what it is doing, reads "AI" at 400 px."""
    view = _mid_view(name, mode, n)
    view["turn"]["result"] = None  # a game still on: the card names who it waits for
    for who in AI_NAMES[1:3]:
        view["turn"]["awaited"] = [who]
        view["turn"]["doing"] = f"{who} (the Rallier): take your turn."
        img = Image.open(io.BytesIO(render_turn_card(name, view)))
        text = read_at_phone_width(img, tmp_path)
        assert text.count(who) >= 2, text


@pytest.mark.skipif(TESSERACT is None, reason="tesseract is not installed")
def test_every_ai_name_reads_ai_in_bold_and_regular(tmp_path: Path) -> None:
    for bold, size in ((True, 64), (True, 40), (False, 34)):
        img = Image.new("RGB", (800, 90 * len(AI_NAMES)), (20, 16, 30))
        d = ImageDraw.Draw(img)
        for k, who in enumerate(AI_NAMES):
            d.text((32, 20 + 90 * k), who, font=font(size, bold), fill=(250, 220, 90))
        text = read_at_phone_width(img, tmp_path)
        assert all(who in text for who in AI_NAMES), (bold, size, text)


def _drawn(text: str, anchor: str, stroke: int = 0) -> Image.Image:
    img = Image.new("L", (1400, 200), 0)
    ImageDraw.Draw(img).text((700.5, 100.25), text, font=font(40, True), fill=255,
                             anchor=anchor, stroke_width=stroke)
    return img


@pytest.mark.parametrize("anchor", ["la", "lm", "mm", "rm", "ls", "ms", "rd"])
def test_the_serif_i_is_measured_as_drawn_and_cached_as_drawn(anchor: str) -> None:
    fnt = font(40, True)
    text = "AI Moth (AI Shade) waits"
    for stroke in (0, 2):
        cached = _drawn(text, anchor, stroke)
        with uncached():
            fresh = _drawn(text, anchor, stroke)
        assert ImageChops.difference(cached, fresh).getbbox() is None
    ink = _drawn(text, anchor).getbbox()
    assert ink is not None
    box = fnt.getbbox(text, anchor=anchor)
    # The ink lies within the measured box, placed where the anchor says.
    assert box[0] - 1 <= ink[0] - 700 and ink[2] - 700 <= box[2] + 1, (ink, box)
    assert box[1] - 1 <= ink[1] - 100 and ink[3] - 100 <= box[3] + 1, (ink, box)
    # Wider than the sans-serif I: the serif I has room to be read.
    plain = ImageFont.truetype(str(fnt.path), 40)
    assert fnt.getlength(text) > plain.getlength(text)
    assert fnt.getlength(text) == pytest.approx(ink[2] - ink[0], abs=8)


def test_only_the_word_ai_changes() -> None:
    fnt = font(40, True)
    plain = ImageFont.truetype(str(fnt.path), 40)
    for text in ("AIM", "RAIN", "Mail", "Ai Moth", "Ada", "I am AIR", "HAIL to AIs"):
        assert fnt.getlength(text) == plain.getlength(text), text
    for text in ("AI", "AI Moth", "(AI)", "Ada & AI Wisp"):
        assert fnt.getlength(text) > plain.getlength(text), text
