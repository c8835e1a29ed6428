"""The stats picture (issue #24, item 5): `draw_stats(model) -> PNG bytes`, a player's or a
server's record as a phone-sized picture (800 px wide, no type under 28 px: 14 px in a 400 px
chat column, like the turn card and the recap).

Top to bottom: whose stats (the subject, big); "WINS BY ROLE", one bar per game role (or mode)
grouped under its game's title — the won part solid, the lost part hatched, so the two differ
by shape and not by colour alone, with the percentage won written beside the role and the
counts written under the bar; "RATING OVER TIME", one chart per game title, its line through
every rated game, the latest rating written, its lowest and highest values on the left and
dates (UTC) along the bottom; the note (what is not counted). At most `BARS_MAX` bars and
`LINES_MAX` charts: the rest is told as "and N more". No games: the picture says so.

The input models, the selection of what is shown and the words (`stats_alt_text`,
`stats_words`) live in `renders/statswords.py`, which has no Pillow, and are re-exported here.
In the bot, the picture is drawn in the render worker (`bot.renderpool.render_stats`), reached
through `cogs.utils.stats_picture.stats_file`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PIL import Image, ImageDraw

from renders.cardwords import clean
from renders.common import (
    Colour,
    Font,
    encode_png,
    fit_font,
    fit_lines,
    font,
    hatch,
    mix,
    rounded_box,
    text_width,
)
from renders.statswords import (
    BARS_MAX,
    LINES_MAX,
    RatingLine,
    RatingPoint,
    RoleBar,
    StatsPicture,
    bar_counts,
    day_text,
    more_rated,
    more_text,
    ordered,
    percent,
    rating_text,
    shown,
    stats_alt_text,
    stats_words,
)
from renders.turncard import MIN_TYPE, PAD, WIDTH, Palette

__all__ = [
    "BARS_MAX",
    "LINES_MAX",
    "MAX_BYTES",
    "RatingLine",
    "RatingPoint",
    "RoleBar",
    "StatsPicture",
    "draw_stats",
    "stats_alt_text",
    "stats_image",
    "stats_words",
]

MAX_BYTES = 250_000
"""Flat fills, type and a few lines: a full picture is far below this (see the tests)."""

# The house colours: the boards' dark ground (renders/exorcism.py) with a gold accent.
PAL = Palette(bg=(17, 13, 24), bar=(30, 22, 40), panel=(33, 27, 45), edge=(84, 70, 104),
              text=(244, 238, 226), muted=(184, 174, 196), accent=(240, 196, 84))
WON: Colour = (129, 214, 132)
"""The won part of a bar: solid."""
LOST: Colour = (236, 122, 140)
"""The lost part of a bar: stripes of this on a darker ground (a shape, not only a colour)."""
LOST_GROUND: Colour = mix(LOST, (17, 13, 24), 0.4)
"""Between the lost stripes: close to them in lightness, so a stripe is a pattern to the eye
and not a row of letters to OCR (a high-contrast hatch read as text beside the numbers)."""
LINE: Colour = (79, 195, 247)
"""A rating line and its points."""

INNER = WIDTH - 2 * PAD  # a panel's width
BOX = 20  # a panel's own padding
CONTENT = INNER - 2 * BOX  # what a panel holds
BAR_H = 36
PCT_W = 160
"""The percentage's room at the end of a role's line ("100%" in bold 44 px and a gap)."""
PCT_SIZE = 44
PLOT_H = 200
PLOT_H_ONE = 120  # a single rated game: a point, no line to follow
ROW_GAP = 22
NAME_LINES = 3
"""A subject, game title or role wraps to at most this many lines (Discord names are far
shorter; the words and alt text carry any name whole)."""
NOTE_LINES = 4
Draw = Callable[[ImageDraw.ImageDraw, Image.Image, int], None]


@dataclass
class _Piece:
    """A part of the picture `height` px tall, drawn by `draw(d, img, top)`."""

    height: int
    draw: Draw


def _lines(text: str, width: float, size: int, bold: bool = False,
           min_size: int = MIN_TYPE, max_lines: int = NAME_LINES) -> tuple[Font, list[str], int]:
    """`text` wrapped in the largest font from `size` that fits, and the height of one of its
    lines. Past `max_lines` it is cut with "…" (a name that long is whole in the words)."""
    fnt, lines = fit_lines(text, width, size, min_size=min_size, bold=bold,
                           max_lines=max_lines)
    return fnt, lines, round(getattr(fnt, "size", size) * 1.25)


def _text_piece(text: str, width: float, size: int, colour: Colour, x: int,
                bold: bool = False, min_size: int = MIN_TYPE, after: int = 0,
                max_lines: int = NAME_LINES) -> _Piece:
    fnt, lines, line_h = _lines(text, width, size, bold, min_size, max_lines)

    def draw(d: ImageDraw.ImageDraw, _img: Image.Image, top: int) -> None:
        for k, line in enumerate(lines):
            d.text((x, top + k * line_h), line, font=fnt, fill=colour, anchor="la")

    return _Piece(line_h * len(lines) + after, draw)


# --------------------------------------------------------------------------- the bars


def _bar_piece(bar: RoleBar, x: int) -> _Piece:
    """A role's row: its name and the percentage won; the bar (every bar the same length, so
    rows compare); the counts in words."""
    c = bar_counts(bar)
    pct = percent(bar)
    pf = font(PCT_SIZE, True) if c.played else font(MIN_TYPE)
    role = clean(bar.role, False) or "?"
    rf, role_lines, role_h = _lines(role, CONTENT - PCT_W, 34, bold=True)
    head_h = max(role_h * len(role_lines), 52)
    counts = [f"{c.won} won", f"{c.lost} lost"] + ([f"{c.other} drawn"] if c.other else [])
    words = " · ".join(counts) + f" · {c.played} played"
    cf = fit_font(words, CONTENT, 30, min_size=MIN_TYPE)
    span = CONTENT

    def draw(d: ImageDraw.ImageDraw, img: Image.Image, top: int) -> None:
        for k, line in enumerate(role_lines):
            d.text((x, top + k * role_h), line, font=rf, fill=PAL.text, anchor="la")
        y0 = top + head_h + 6
        x1 = x + span
        # On the role's line, not beside the bar: beside it OCR misread one in three.
        d.text((x + CONTENT, top + 22), pct, font=pf,
               fill=PAL.accent if c.played else PAL.muted, anchor="rm")
        rounded_box(d, (x, y0, x1, y0 + BAR_H), 8, fill=mix(PAL.panel, PAL.bg, 0.6))
        if c.played:
            won_w = round(span * c.won / c.played)
            lost_w = round(span * c.lost / c.played)
            if won_w:
                rounded_box(d, (x, y0, x + won_w, y0 + BAR_H), 8, fill=WON)
            if lost_w:
                lx = x + won_w
                rounded_box(d, (lx, y0, lx + lost_w, y0 + BAR_H), 8,
                            fill=LOST_GROUND)
                hatch(img, (lx, y0, lx + lost_w, y0 + BAR_H), LOST, spacing=12, width=4,
                      radius=8)
            if won_w and lost_w:  # a gap where won ends: two parts even where colours blur
                d.line((x + won_w, y0 - 3, x + won_w, y0 + BAR_H + 3), fill=PAL.panel,
                       width=4)
        rounded_box(d, (x, y0, x1, y0 + BAR_H), 8, outline=PAL.edge, width=2)
        d.text((x, y0 + BAR_H + 8), words, font=cf, fill=PAL.muted, anchor="la")

    return _Piece(head_h + 6 + BAR_H + 8 + round(getattr(cf, "size", 30) * 1.25), draw)


def _legend_piece(x: int) -> _Piece:
    """Which part is which: a solid swatch "won", a hatched one "lost"."""
    lf = font(MIN_TYPE)

    def draw(d: ImageDraw.ImageDraw, img: Image.Image, top: int) -> None:
        sx = x
        for label, solid in (("won", True), ("lost", False)):
            box = (sx, top + 4, sx + 44, top + 32)
            if solid:
                rounded_box(d, box, 6, fill=WON)
            else:
                rounded_box(d, box, 6, fill=LOST_GROUND)
                hatch(img, box, LOST, spacing=12, width=4, radius=6)
            rounded_box(d, box, 6, outline=PAL.edge, width=2)
            d.text((sx + 60, top + 18), label, font=lf, fill=PAL.text, anchor="lm")
            sx += 60 + round(text_width(label, lf)) + 40
        d.text((x + CONTENT, top + 18), "% won", font=lf, fill=PAL.muted, anchor="rm")

    return _Piece(40, draw)


# --------------------------------------------------------------------------- the ratings


def _chart_piece(line: RatingLine, x: int) -> _Piece:
    """A game's rating over time: its title and latest rating, then the line on a time axis."""
    points = ordered(line)
    latest = rating_text(points[-1].rating)
    now = f"now {latest}"
    nf = font(34, True)
    nw = round(text_width(now, nf))
    title = clean(line.game_title, False) or "?"
    tf, title_lines, title_h = _lines(title, CONTENT - nw - 20, 32, bold=True)
    head_h = max(title_h * len(title_lines), 48) + 10
    lf = font(MIN_TYPE)
    values = [p.rating for p in points]
    low, high = min(values), max(values)
    labels = [rating_text(high)] + ([rating_text(low)] if rating_text(low) != rating_text(high)
                                    else [])
    gutter = round(max(text_width(t, lf) for t in labels)) + 14
    dates_h = 44
    plot_h = PLOT_H if len(points) > 1 else PLOT_H_ONE

    def draw(d: ImageDraw.ImageDraw, _img: Image.Image, top: int) -> None:
        for k, row in enumerate(title_lines):
            d.text((x, top + k * title_h), row, font=tf, fill=PAL.text, anchor="la")
        d.text((x + CONTENT, top - 2), now, font=nf, fill=PAL.accent, anchor="ra")
        px0, px1 = x + gutter, x + CONTENT - 10
        py0, py1 = top + head_h + 14, top + head_h + plot_h - 14
        rounded_box(d, (px0 - 4, top + head_h, x + CONTENT, top + head_h + plot_h), 8,
                    fill=mix(PAL.panel, PAL.bg, 0.6), outline=PAL.edge, width=2)

        def y_of(v: float) -> float:
            if high == low:
                return (py0 + py1) / 2
            return py1 - (v - low) / (high - low) * (py1 - py0)

        t0, t1 = points[0].at, points[-1].at

        def x_of(k: int, p: RatingPoint) -> float:
            if len(points) == 1:
                return (px0 + px1) / 2
            if t1 == t0:  # all on one moment: spread them in order
                return px0 + 12 + k * (px1 - px0 - 24) / (len(points) - 1)
            return px0 + 12 + (p.at - t0) / (t1 - t0) * (px1 - px0 - 24)

        for v, text in ((high, labels[0]), (low, labels[-1])):
            gy = y_of(v)
            d.line((px0, gy, px1, gy), fill=PAL.edge, width=2)
            d.text((x + gutter - 14, gy), text, font=lf, fill=PAL.muted, anchor="rm")
        xy = [(x_of(k, p), y_of(p.rating)) for k, p in enumerate(points)]
        if len(xy) > 1:
            d.line(xy, fill=LINE, width=5, joint="curve")
        r = 7 if len(xy) <= 40 else 0
        for px, py in xy[:-1] if r else []:
            d.ellipse((px - r, py - r, px + r, py + r), fill=LINE, outline=PAL.bg, width=2)
        lx, ly = xy[-1]  # the latest rating: a larger ringed point
        d.ellipse((lx - 11, ly - 11, lx + 11, ly + 11), fill=PAL.accent, outline=PAL.bg,
                  width=3)
        dy = top + head_h + plot_h + 8
        first, last = day_text(t0), day_text(t1)
        if first == last:
            d.text(((px0 + px1) / 2, dy), first, font=lf, fill=PAL.muted, anchor="ma")
        else:
            d.text((px0, dy), first, font=lf, fill=PAL.muted, anchor="la")
            d.text((x + CONTENT, dy), last, font=lf, fill=PAL.muted, anchor="ra")

    return _Piece(head_h + plot_h + dates_h, draw)


# --------------------------------------------------------------------------- the picture


def _panel(title: str, pieces: list[_Piece]) -> _Piece:
    """A rounded panel headed `title` holding `pieces` one under the other."""
    head = 58
    height = head + sum(p.height for p in pieces) + ROW_GAP * max(0, len(pieces) - 1) + BOX

    def draw(d: ImageDraw.ImageDraw, img: Image.Image, top: int) -> None:
        rounded_box(d, (PAD, top, WIDTH - PAD, top + height), 14, fill=PAL.panel,
                    outline=PAL.edge, width=2)
        d.text((PAD + BOX, top + 16), title, font=font(MIN_TYPE, True), fill=PAL.muted,
               anchor="la")
        y = top + head
        for piece in pieces:
            piece.draw(d, img, y)
            y += piece.height + ROW_GAP

    return _Piece(height, draw)


def stats_image(model: StatsPicture) -> Image.Image:
    view = shown(model)
    x = PAD + BOX
    parts: list[_Piece] = [
        _text_piece(clean(model.subject, False) or "?", INNER, 60, PAL.accent, PAD,
                    bold=True, min_size=36),
    ]
    if not model.bars:
        parts.append(_panel("WINS BY ROLE", [
            _text_piece("No finished games yet.", CONTENT, 36, PAL.text, x, bold=True),
            _text_piece("Each game counts here once it ends.", CONTENT, 30, PAL.muted, x),
        ]))
    else:
        rows: list[_Piece] = [_legend_piece(x)]
        for title, bars in view.groups:
            rows.append(_text_piece(clean(title, False) or "?", CONTENT, 30, PAL.muted, x,
                                    bold=True))
            rows.extend(_bar_piece(bar, x) for bar in bars)
        if view.more_bars:
            rows.append(_text_piece(more_text(view.more_bars, "role", "roles").capitalize()
                                    + ".", CONTENT, 30, PAL.muted, x))
        parts.append(_panel("WINS BY ROLE", rows))
    if view.lines:
        charts = [_chart_piece(line, x) for line in view.lines]
        if view.more_lines:
            charts.append(_text_piece(more_rated(view.more_lines) + ".", CONTENT, 30,
                                      PAL.muted, x))
        parts.append(_panel("RATING OVER TIME", charts))
    if model.note:
        parts.append(_text_piece(clean(model.note, False), INNER, 28, PAL.muted, PAD,
                                 max_lines=NOTE_LINES))

    head_h = 64
    height = head_h + PAD + sum(p.height + PAD for p in parts)
    img = Image.new("RGB", (WIDTH, height), PAL.bg)
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, WIDTH, head_h), fill=PAL.bar)
    d.line((0, head_h, WIDTH, head_h), fill=PAL.edge, width=2)
    d.text((PAD, head_h / 2), "HAUNT BOT · STATS", font=font(MIN_TYPE, True), fill=PAL.muted,
           anchor="lm")
    y = head_h + PAD
    for part in parts:
        part.draw(d, img, y)
        y += part.height + PAD
    return img


def draw_stats(model: StatsPicture) -> bytes:
    """The stats picture as PNG bytes (800 px wide, palette-quantised)."""
    return encode_png(stats_image(model), max_bytes=MAX_BYTES, colours=(64, 32))
