"""The turn card: a small picture made for a phone's chat column (issue #13).

``render_turn_card(game, view) -> PNG bytes``. The full board (1600 px wide) shrinks to a
quarter in a 400 px chat column; this card is drawn 800 px wide (2x for 400) with type of
28 px and more, so every word on it stays readable there. It says, top to bottom:

- the game, its mode and the round (and the turn where the game counts them);
- whose move it is (the players' display names, big) and what they must do, or, when the
  game is over, the result in plain words;
- the 3-6 numbers that decide the game, read from the public view (Exorcism: time left,
  Exorcism points, Darkness and Shrouds left, Lookouts, the Haunt Level in One vs All;
  Fourth Wall: Open Gates, the Turn Tracker's stage and rounds to The Ancient One, Doom,
  Horrors; Presence: Hope and Nerve against Time, secrets revealed, visitors standing);
- what just happened (the last 2-4 event lines, wrapped, never cut).

Input: the public view (``game.view(state, None)`` with the bot's ``names`` {seat: display
name}) plus ``view["turn"] = {"awaited": [display name], "doing": str, "happened": [str],
"result": str | None}``. Missing keys draw as empty rather than raising.

In The Presence's True Horror (``presets.true_horror``) the card is quieter: no emoji, no rule
ids, no colour accents (P-HORROR). Emoji never draw (DejaVu has none; they would be boxes).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from renders import cardwords
from renders.cardwords import clean as _clean
from renders.cardwords import numbers, true_horror
from renders.common import (
    Colour,
    Font,
    as_dict,
    as_int,
    as_list,
    as_str,
    encode_png,
    fit_font,
    fit_lines,
    font,
    mix,
    progress_bar,
    rounded_box,
    text_width,
)

__all__ = ["WIDTH", "Stat", "render_turn_card", "render_turn_image", "stats_for"]

WIDTH = 800
PAD = 32
GAP = 16
MIN_TYPE = 28  # nothing on the card is smaller: 14 px in a 400 px column
MAX_BYTES = 120_000
HAPPENED_MAX = cardwords.HAPPENED_MAX  # the alt text tells the same lines
HAPPENED_MIN = 2
HAPPENED_ROWS = 9  # wrapped rows of "what just happened" before older lines are left out

TITLES = {
    "exorcism": "THE EXORCISM",
    "fourth_wall": "I AM THE FOURTH WALL",
    "presence": "THE PRESENCE",
}
MODES = {
    "core": "Co-op",
    "one_vs_all": "One vs All",
    "solo": "Solo",
    "conflict": "Conflict",
    "alliance": "Alliance",
}



@dataclass(frozen=True)
class Palette:
    bg: Colour
    bar: Colour
    panel: Colour
    edge: Colour
    text: Colour
    muted: Colour
    accent: Colour


@dataclass(frozen=True)
class Stat:
    """One decisive number: ``label`` over ``value``, an optional bar (``fill`` of
    ``maximum``) and a short ``note`` under it."""

    label: str
    value: str
    colour: Colour
    fill: float | None = None
    maximum: float | None = None
    note: str = ""


# --------------------------------------------------------------------------- reading


_i, _s, _d, _l = as_int, as_str, as_dict, as_list  # view readers (renders/common.py)


def _palette(game: str, quiet: bool) -> Palette:
    """The game's own board colours (its renderer's palette)."""
    try:
        mod = importlib.import_module(f"renders.{game}")
    except ModuleNotFoundError:
        mod = importlib.import_module("renders.exorcism")
    accent: Colour = getattr(mod, "HIGHLIGHT", None) or mod.GOLD
    pal = Palette(bg=mod.BG, bar=mod.BAR, panel=mod.PANEL, edge=mod.PANEL_EDGE,
                  text=mod.TEXT, muted=mod.MUTED, accent=accent)
    if quiet:  # True Horror: no colour accents, only the quiet greys of the board
        pal = Palette(bg=(10, 9, 12), bar=(18, 16, 20), panel=(22, 20, 26), edge=(56, 52, 62),
                      text=(226, 222, 216), muted=(164, 158, 166), accent=(236, 232, 226))
    return pal


# --------------------------------------------------------------------------- the numbers

def _tone(game: str, tone: str, pal: Palette) -> Colour:
    """The colour of a number's tone (`renders.cardwords.Number.tone`) on this game's card."""
    if tone == "text":
        return pal.text
    if game == "exorcism":
        from renders import exorcism as ex
        return {"exorcism": ex.EXO, "haunt": ex.HAUNT_RED, "darkness": ex.DARK_RING,
                "shroud": ex.SHROUD_EDGE}.get(tone, pal.text)
    if game == "fourth_wall":
        from renders import fourth_wall as fw
        if tone.startswith("stage:"):
            return mix(fw.STAGE_COLOUR.get(tone[6:], pal.text), (255, 255, 255), 0.35)
        return {"gate": fw.GATE_GLOW, "doom": fw.DOOM_RING,
                "sanity": (244, 110, 140)}.get(tone, pal.text)
    if game == "presence":
        from renders import presence as pr
        return {"hope": pr.HOPE, "nerve": pr.NERVE, "gold": pr.GOLD}.get(tone, pal.text)
    return pal.text


def stats_for(game: str, view: Mapping[str, Any]) -> list[Stat]:
    """The decisive numbers of ``game`` read from its public view (empty for other games)."""
    # The numbers are read once, in words too (renders/cardwords.py: the card's alt text
    # says the very same ones); the card only colours them.
    found = numbers(game, view)
    if not found:
        return []
    quiet = true_horror(view)
    pal = _palette(game, quiet)
    return [Stat(n.label, n.value, pal.text if quiet else _tone(game, n.tone, pal), n.fill,
                 n.maximum, n.note) for n in found]


def _round_text(game: str, view: Mapping[str, Any]) -> str:
    rnd = _i(view.get("round"))
    if not rnd:
        return ""
    if game == "presence" and _i(view.get("final_round")):
        return f"Round {rnd} of {_i(view.get('final_round'))}"
    # The game's own turn is kept as "game_turn" (renders.with_card): "turn" is the card's.
    if game == "exorcism" and _i(view.get("game_turn")):
        return f"Round {rnd} · Turn {_i(view.get('game_turn'))}"
    return f"Round {rnd}"


# --------------------------------------------------------------------------- layout


@dataclass
class _Block:
    """Wrapped lines in one font, drawn from the top at ``x``."""

    lines: list[str]
    fnt: Font
    colour: Colour
    line_h: int
    indent: int = 0
    bullet: bool = False

    @property
    def height(self) -> int:
        return self.line_h * len(self.lines)


def _block(text: str, width: float, size: int, colour: Colour, bold: bool = False,
           min_size: int = MIN_TYPE, indent: int = 0, bullet: bool = False) -> _Block:
    fnt, lines = fit_lines(text, width - indent, size, min_size=min_size, bold=bold)
    return _Block(lines, fnt, colour, int(fnt.size * 1.25) if hasattr(fnt, "size") else size,
                  indent, bullet)


def _happened(lines: Sequence[str], width: float, colour: Colour) -> list[_Block]:
    """The newest 2-4 event lines that fit HAPPENED_ROWS wrapped rows (at least 2 whole)."""
    blocks: list[_Block] = []
    rows = 0
    for text in reversed(lines[-HAPPENED_MAX:]):
        blk = _block(text, width, 30, colour, indent=28, bullet=True)
        if len(blocks) >= HAPPENED_MIN and rows + len(blk.lines) > HAPPENED_ROWS:
            break
        blocks.append(blk)
        rows += len(blk.lines)
    blocks.reverse()
    return blocks


def _stat_rows(stats: Sequence[Stat]) -> list[list[Stat]]:
    if len(stats) <= 3:
        return [list(stats)] if stats else []
    per = 3 if len(stats) in (5, 6) else 2
    return [list(stats[k:k + per]) for k in range(0, len(stats), per)]


STAT_H = 150
STAT_H_NOTE = 184
NOTE_SIZE = 28
NOTE_ONE_LINE = 24  # below this a note wraps onto two lines instead of shrinking further
NOTE_MIN = 22


def _note_lines(note: str, width: float) -> tuple[Font, list[str]]:
    """A number's note in a box ``width`` wide: one line where it fits at NOTE_ONE_LINE or
    more, else two (stop 68's demo: "2 Haunt cards a turn" in a row of three boxes was drawn
    at its smallest size past the box's right edge)."""
    w = width - 24
    one = fit_font(note, w, NOTE_SIZE, min_size=NOTE_ONE_LINE)
    if text_width(note, one) <= w:
        return one, [note]
    words = note.split()
    for size in range(NOTE_SIZE, NOTE_MIN - 1, -1):
        fnt = font(size)
        k = max((j for j in range(1, len(words))
                 if text_width(" ".join(words[:j]), fnt) <= w), default=0)
        if k > 1 and len(words[k - 1]) <= 2:
            k -= 1  # "1 Haunt card / a turn", not "1 Haunt card a / turn"
        if k and text_width(" ".join(words[k:]), fnt) <= w:
            return fnt, [" ".join(words[:k]), " ".join(words[k:])]
    return fit_lines(note, w, NOTE_SIZE, min_size=NOTE_MIN, max_lines=2)


def _note_step(fnt: Font) -> int:
    """From one note line's baseline to the next."""
    return int(getattr(fnt, "size", NOTE_MIN) * 1.2)


def _stat_height(row: Sequence[Stat], width: float) -> int:
    """A row of boxes ``width`` wide each: as tall as its longest note needs."""
    notes = [_note_lines(s.note, width) for s in row if s.note]
    if not notes:
        return STAT_H
    extra = max((len(lines) - 1) * _note_step(fnt) for fnt, lines in notes)
    return STAT_H_NOTE + extra


def render_turn_image(game: str, view: Mapping[str, Any]) -> Image.Image:
    quiet = true_horror(view)
    pal = _palette(game, quiet)
    turn = _d(view.get("turn"))
    inner = WIDTH - 2 * PAD
    awaited = [_clean(n, quiet) for n in _l(turn.get("awaited")) if isinstance(n, str)]
    awaited = [n for n in awaited if n]
    result = _clean(_s(turn.get("result")), quiet) if turn.get("result") else ""
    doing = _clean(_s(turn.get("doing")), quiet)
    happened = [t for t in (_clean(x, quiet) for x in _l(turn.get("happened"))
                            if isinstance(x, str)) if t]

    # --- measure
    head_h = 72
    blocks: list[tuple[str, _Block]] = []
    if result:
        blocks.append(("label", _block("GAME OVER", inner, 30, pal.muted, bold=True)))
        blocks.append(("big", _block(result, inner, 44, pal.accent, bold=True, min_size=32)))
    else:
        who = _names(awaited) if awaited else "Nobody"
        blocks.append(("label", _block("NOW PLAYING" if awaited else "WAITING", inner, 30,
                                       pal.muted, bold=True)))
        blocks.append(("big", _block(who, inner, 64, pal.accent, bold=True, min_size=40)))
        if doing:
            blocks.append(("doing", _block(doing, inner, 34, pal.text)))
    who_h = sum(b.height for _, b in blocks) + 8 * (len(blocks) - 1)
    board = phone_map(game, view, inner)
    legend = phone_legend(game, view, inner) if board is not None else None
    map_h = board.height + PAD if board is not None else 0
    if legend is not None:
        map_h += legend.height + 8
    stats = stats_for(game, view)
    rows = _stat_rows(stats)
    cols_w = inner
    row_heights = [_stat_height(row, (cols_w - GAP * (len(row) - 1)) / len(row))
                   for row in rows]
    stats_h = sum(row_heights) + GAP * max(0, len(rows) - 1)
    events = _happened(happened, inner - 32, pal.text)
    ev_h = (48 + sum(b.height for b in events) + 6 * len(events) + 16) if events else 0
    height = (head_h + PAD + who_h + PAD + map_h + stats_h + (PAD + ev_h if ev_h else 0)
              + PAD)

    # --- draw
    img = Image.new("RGB", (WIDTH, height), pal.bg)
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, WIDTH, head_h), fill=pal.bar)
    d.line((0, head_h, WIDTH, head_h), fill=pal.edge, width=2)
    title = TITLES.get(game, game.replace("_", " ").upper())
    mode = MODES.get(_s(view.get("mode")), "")
    rnd = _round_text(game, view)
    rf = font(32, True)
    rw = text_width(rnd, rf)
    left = f"{title} · {mode}" if mode else title
    lf = fit_font(left, inner - rw - 24, 28, min_size=MIN_TYPE, bold=True)
    if text_width(left, lf) > inner - rw - 24:
        left = title
        lf = fit_font(left, inner - rw - 24, 28, min_size=20, bold=True)
    d.text((PAD, head_h / 2), left, font=lf, fill=pal.muted, anchor="lm")
    d.text((WIDTH - PAD, head_h / 2), rnd, font=rf, fill=pal.text, anchor="rm")

    y = head_h + PAD
    for kind, blk in blocks:
        for line in blk.lines:
            d.text((PAD, y), line, font=blk.fnt, fill=blk.colour, anchor="la")
            y += blk.line_h
        y += 8 if kind != "label" else 2
    y = head_h + PAD + who_h + PAD
    if board is not None:
        img.paste(board, (PAD, y))
        if legend is not None:
            img.paste(legend, (PAD, y + board.height + 8))
        y += map_h

    for row, rh in zip(rows, row_heights, strict=True):
        n = len(row)
        tw = (cols_w - GAP * (n - 1)) / n
        for k, st in enumerate(row):
            x0 = PAD + k * (tw + GAP)
            _draw_stat(d, (x0, y, x0 + tw, y + rh), st, pal, quiet)
        y += rh + GAP
    if rows:
        y += PAD - GAP

    if events:
        box = (PAD, y, WIDTH - PAD, y + ev_h)
        rounded_box(d, box, 14, fill=pal.panel, outline=pal.edge, width=2)
        d.text((PAD + 16, y + 12), "JUST HAPPENED", font=font(28, True), fill=pal.muted,
               anchor="la")
        ey = y + 56
        for blk in events:
            for k, line in enumerate(blk.lines):
                if k == 0:
                    bx, by = PAD + 16 + 8, ey + blk.line_h / 2 - 2
                    d.ellipse((bx - 5, by - 5, bx + 5, by + 5), fill=pal.muted)
                d.text((PAD + 16 + blk.indent, ey), line, font=blk.fnt, fill=blk.colour,
                       anchor="la")
                ey += blk.line_h
            ey += 6
    return img


def phone_legend(game: str, view: Mapping[str, Any], width: int) -> Image.Image | None:
    """A key to the phone map's small glyphs, ``width`` wide, when the game's phone module
    draws one (``phone_legend(view, width)``), else None."""
    module = _phone_module(game)
    draw = getattr(module, "phone_legend", None) if module is not None else None
    return draw(view, width) if draw is not None else None


def _phone_module(game: str) -> Any:
    """`renders/<game>_phone.py`, or None for a game without one."""
    try:
        return importlib.import_module(f"renders.{game}_phone")
    except ModuleNotFoundError as exc:
        if exc.name != f"renders.{game}_phone":
            raise
        return None


def phone_map(game: str, view: Mapping[str, Any], width: int) -> Image.Image | None:
    """The game's board drawn for a phone column (``renders/<game>_phone.py``:
    ``phone_map(view, width) -> RGB Image`` exactly ``width`` wide), or None for a game
    without one. ``view["turn"]["before"]``, when present, is the public view of the previous
    board post, so the map can mark what changed since."""
    module = _phone_module(game)
    if module is None:
        return None
    board: Image.Image = module.phone_map(view, width)
    return board


def _names(names: Sequence[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " & " + names[-1]


def _draw_stat(d: ImageDraw.ImageDraw, box: tuple[float, float, float, float], st: Stat,
               pal: Palette, quiet: bool) -> None:
    x0, y0, x1, y1 = box
    rounded_box(d, box, 14, fill=pal.panel, outline=pal.edge, width=2)
    w = x1 - x0 - 24
    lf = fit_font(st.label, w, 28, min_size=22)
    d.text((x0 + 12, y0 + 12), st.label, font=lf, fill=pal.muted, anchor="la")
    vf = fit_font(st.value, w, 56, min_size=32, bold=True)
    d.text((x0 + 12, y0 + 50), st.value, font=vf, fill=st.colour, anchor="la")
    yb = y0 + 118
    if st.fill is not None and st.maximum:
        progress_bar(d, (x0 + 12, yb, x1 - 12, yb + 14), st.fill, st.maximum,
                     fill=st.colour if not quiet else pal.muted, back=mix(pal.panel, pal.bg, 0.5),
                     outline=None)
    if st.note:
        nf, lines = _note_lines(st.note, x1 - x0)
        step = _note_step(nf)
        for k, line in enumerate(lines):
            base = y1 - 14 - step * (len(lines) - 1 - k)
            d.text((x0 + 12, base), line, font=nf, fill=pal.muted, anchor="ls")


def render_turn_card(game: str, view: dict[str, Any]) -> bytes:
    """The turn card as PNG bytes (about 800 px wide, palette-quantised)."""
    return encode_png(render_turn_image(game, view), max_bytes=MAX_BYTES, colours=(128, 64))
