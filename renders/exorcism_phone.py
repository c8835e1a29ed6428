"""The house of The Exorcism at Monkton Falls drawn for a phone: ``phone_map(view, width)``.

The turn card (``renders/turncard.py``) pastes this picture between "who acts / what to do"
and the decisive numbers. The card is 800 px wide and shown at 400 in a phone's chat column,
so every word here is at least 28 px (14 px on the phone) and the map is about as tall as it
is wide. It owns, from the public view only:

- the house grid: every room with its name (abbreviated, never shrunk: "Task Room A" is
  "Task A"), its location die, Darkness (filled / hollow discs), dropped Tools, Exorcism
  tokens on a face-down Locked Room (coins beside a padlock), Shrouded rooms (violet and
  hatched), a Cold Spot (ice-blue frame and a snowflake);
- the Attic and the Foyer in their rows, and in those rows' free cells the Lookouts, the
  Wounded / Devoured / Escaped, and a key to the change marks; a crowded Attic or Foyer
  spreads over a free cell beside it and those rows grow, so pawns and lists read whole names;
  a crowded house Room's row grows the rows of pieces its pawns' whole names need;
- every piece: investigator pawns as rounded chips in their seat's colour labelled with the
  player's short name (``view["names"]``; a Solo Secondary adds "2"), Ghosts as dark chips
  with their own silhouette and name, so shape and letters, not colour, tell them apart;
- what changed since the previous board post (``view["turn"]["before"]``, the public view of
  that post): a room whose contents or state changed gets a thick dashed frame, a piece that
  moved or arrived a dashed ring and an arrow pointing the way it went (a star when it is
  new on the board), a changed side list a dashed frame; the key says "Changed".

A missing or malformed key draws as empty rather than raising. The picture is RGB, exactly
``width`` wide.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from PIL import Image, ImageDraw

from renders import exorcism as ex
from renders.common import (
    SEAT_COLOURS,
    Box,
    Colour,
    arrow,
    as_dict,
    as_int,
    as_list,
    as_str,
    die,
    font,
    hatch,
    icon,
    memo_region,
    mix,
    rounded_box,
    telling_words,
    text_width,
)

__all__ = ["MIN_TYPE", "phone_map", "printed_names", "room_label"]

MIN_TYPE = 28  # the smallest type on the map: 14 px in a 400 px column
GAP = 6
PAD = 7  # inside a cell, left and right
PAD_Y = 5  # inside a cell, top and bottom
NAME_INSET = 2  # more room around a name: tesseract reads 7 % more names with it
LINE_H = 32  # one line of 28 px type
CHIP_H = 34
CHIP_GAP = 4
BOTTOM_H = 24  # the row of Darkness discs, Tools, tokens and the location die
HOUSE_ROW_H = PAD_Y + NAME_INSET + LINE_H + 2 + 2 * CHIP_H + CHIP_GAP + 2 + BOTTOM_H + PAD_Y
CHANGED: Colour = ex.HIGHLIGHT
CHANGED_EDGE: Colour = (20, 16, 8)
GHOST_CHIP: Colour = (12, 10, 16)
GHOST_EDGE: Colour = (214, 208, 226)
COLD: Colour = (120, 200, 255)
PAWN_TEXT: Colour = (14, 12, 18)

# A Ghost's name, longest first: a crowded room shows a shorter one beside the silhouette.
GHOST_SHORT = {"wraith": ("Wraith", "Wra", "W"), "bull": ("Bull", "Bull", "B"),
               "devourer": ("Devourer", "Dev", "D")}
MAX_COLS, MAX_ROWS = 8, 10
MARK_W = 16  # the arrow or star a moved or new piece carries left of its chip

_i, _s, _d, _l = as_int, as_str, as_dict, as_list  # view readers (renders/common.py)


# --------------------------------------------------------------------------- the view, typed


@dataclass(frozen=True)
class Piece:
    """A pawn or a Ghost in a cell; ``key`` is who it is across two views."""

    key: str
    ghost: str  # "wraith" | "bull" | "devourer" for a Ghost, "" for a pawn
    labels: tuple[str, ...]  # longest first: the label drawn is the longest that fits
    colour: Colour


@dataclass(frozen=True)
class Cell:
    id: str
    row: int
    col: int
    kind: str
    name: str
    face_down: bool
    shrouded: bool
    darkness: int
    tokens: int
    dropped: tuple[tuple[str, int], ...]
    cold_spot: bool
    location: int | None
    pieces: tuple[Piece, ...] = ()

    def state(self) -> tuple[Any, ...]:
        """Everything of the cell but its pieces, to tell whether it changed."""
        return (self.name, self.face_down, self.shrouded, self.darkness, self.tokens,
                self.dropped, self.cold_spot)


@dataclass
class Marks:
    """What changed since the previous board post."""

    cells: set[str] = field(default_factory=set)
    moved: dict[str, str] = field(default_factory=dict)  # piece key -> arrow direction / "new"
    lists: set[str] = field(default_factory=set)  # "lookouts", "wounded"

    def __bool__(self) -> bool:
        return bool(self.cells or self.moved or self.lists)


def _short_names(view: Mapping[str, Any]) -> dict[str, str]:
    """A short label per seat from the players' display names ("Alexandria" → "Alex"),
    distinct across the table; a seat without a name is "P1", "P2"… by seat order."""
    seats = [_s(_d(x).get("seat")) for x in _l(view.get("seats_info"))]
    names = _d(view.get("names"))
    seats += [s for s in names if isinstance(s, str) and s not in seats]
    full: dict[str, str] = {}
    # The word that tells two players apart (AI Moth and AI Shade: Moth and Shade).
    told = telling_words({s: given for s in seats if isinstance(given := names.get(s), str)})
    for k, seat in enumerate(seats):
        word = told.get(seat, "")
        full[seat] = "".join(c for c in word if c.isprintable()) or f"P{k + 1}"
    out: dict[str, str] = {}
    for seat, word in full.items():
        out[seat] = word if len(word) <= 5 else word[:4]
    # Two players sharing a label take longer ones, then their seat numbers.
    for length in (5, 6):
        clash = {s for s in out if sum(v == out[s] for v in out.values()) > 1}
        for s in clash:
            out[s] = full[s][:length]
    for k, seat in enumerate(seats):
        if sum(v == out[seat] for v in out.values()) > 1:
            out[seat] = f"{out[seat][:3]}{k + 1}"
    return out


def _seat_colours(view: Mapping[str, Any]) -> dict[str, Colour]:
    """The investigators' seat colours, as the full board gives them."""
    ghost_seat = _s(_d(view.get("ova")).get("ghost_seat"))
    seats = [_s(_d(x).get("seat")) for x in _l(view.get("seats_info"))]
    inv = [s for s in seats if s != ghost_seat]
    return {s: SEAT_COLOURS[k % len(SEAT_COLOURS)] for k, s in enumerate(inv)}


def _read_cells(view: Mapping[str, Any]) -> list[Cell]:
    short = _short_names(view)
    colours = _seat_colours(view)
    pawns_per_seat: dict[str, int] = {}
    for c in _l(view.get("cells")):
        for p in _l(_d(c).get("pawns")):
            seat = _s(_d(p).get("seat"))
            pawns_per_seat[seat] = pawns_per_seat.get(seat, 0) + 1
    for inv in _l(view.get("investigators")):
        seat = _s(_d(inv).get("seat"))
        if _d(inv).get("role") == "secondary":
            pawns_per_seat[seat] = max(2, pawns_per_seat.get(seat, 0))
    cells: list[Cell] = []
    for raw in _l(view.get("cells")):
        c = _d(raw)
        pieces: list[Piece] = []
        for g in ex.GHOST_ORDER:
            if g in _l(c.get("ghosts")):
                pieces.append(Piece(f"ghost:{g}", g, GHOST_SHORT[g], GHOST_CHIP))
        for p in (_d(x) for x in _l(c.get("pawns"))):
            seat = _s(p.get("seat"))
            role = _s(p.get("role"))
            label = short.get(seat) or _s(p.get("name"))[:3] or "?"
            colour = colours.get(seat, ex.LOOKOUT)
            if role == "secondary":
                colour = mix(colour, (255, 255, 255), 0.45)
            suffix = ("2" if role == "secondary" else "1") if pawns_per_seat.get(seat, 0) > 1 \
                else ""
            key = _s(p.get("investigator")) or _s(p.get("character")) or label + suffix
            character = "".join(ch for ch in _s(p.get("name")) if ch.isalnum())
            if suffix and character:
                # Solo: one player's two Characters read "Ada1" and "Ada2", which says
                # neither which is which nor which is the Primary: each reads its Character.
                labels: tuple[str, ...] = (character[:3], character[:2])  # "Psy", "Bod"
            else:
                labels = (label + suffix, label[:3] + suffix, label[:2] + suffix,
                          label[:1] + suffix)
            pieces.append(Piece(f"pawn:{key}", "", labels, colour))
        loc = c.get("location")
        cells.append(Cell(
            id=_s(c.get("id")),
            row=_i(c.get("row")),
            col=_i(c.get("col")),
            kind=_s(c.get("kind"), "house"),
            name=_s(c.get("name")),
            face_down=bool(c.get("face_down")),
            shrouded=bool(c.get("shrouded")),
            darkness=max(0, _i(c.get("darkness"))),
            tokens=max(0, _i(c.get("exorcism_tokens"))),
            dropped=tuple((str(k), _i(v)) for k, v in _d(c.get("dropped")).items() if _i(v) > 0),
            cold_spot=bool(c.get("cold_spot")),
            location=loc if isinstance(loc, int) and not isinstance(loc, bool) else None,
            pieces=tuple(pieces),
        ))
    return cells


def _side_lists(view: Mapping[str, Any]) -> dict[str, list[tuple[str, str]]]:
    """The Lookouts, and the Wounded / Devoured / Escaped with their icon."""
    chars = _d(view.get("characters"))
    lookouts = [(ex._name_of(x), "") for x in _l(chars.get("lookouts"))]
    gone = [(ex._name_of(x), "heart") for x in _l(chars.get("wounded"))]
    gone += [(ex._name_of(x), "skull") for x in _l(chars.get("devoured"))]
    gone += [(ex._name_of(x), "escaped") for x in _l(chars.get("escaped"))]
    return {"lookouts": [x for x in lookouts if x[0]], "wounded": [x for x in gone if x[0]]}


# --------------------------------------------------------------------------- what changed


def _direction(a: Cell, b: Cell) -> str:
    """The compass direction from cell ``a`` to cell ``b`` (rows grow southward)."""
    dy, dx = b.row - a.row, b.col - a.col
    ns = "N" if dy < 0 else "S" if dy > 0 else ""
    ew = "W" if dx < 0 else "E" if dx > 0 else ""
    return (ns + ew) or "new"


def _marks(view: Mapping[str, Any], cells: Sequence[Cell]) -> Marks:
    before_raw = _d(view.get("turn")).get("before")
    if not isinstance(before_raw, dict):
        return Marks()
    before = {c.id: c for c in _read_cells(before_raw)}
    if not before:
        return Marks()
    where_before = {p.key: before[cid] for cid in before for p in before[cid].pieces}
    marks = Marks()
    for cell in cells:
        old = before.get(cell.id)
        if old is None:
            continue
        if old.state() != cell.state() or {p.key for p in old.pieces} != {
                p.key for p in cell.pieces}:
            marks.cells.add(cell.id)
        for p in cell.pieces:
            was = where_before.get(p.key)
            if was is None:
                marks.moved[p.key] = "new"
            elif was.id != cell.id:
                marks.moved[p.key] = _direction(was, cell)
    now_lists, old_lists = _side_lists(view), _side_lists(before_raw)
    marks.lists = {k for k in now_lists if now_lists[k] != old_lists.get(k)}
    return marks


# --------------------------------------------------------------------------- room names


def room_label(name: str, width: float) -> list[str]:
    """The room's name as drawn in ``width`` px of 28 px bold: without the word "Room" (every
    cell of the grid is a room: "Task Room A" is "Task A", "Key Room" "Key"), on one line
    if it fits, else on two, else its words cut with a full stop ("Secret Pass. A"). Type
    never shrinks below 28 px."""
    fnt = font(MIN_TYPE, True)
    words = name.split()
    short = " ".join(w for w in words if w.lower() != "room") or name
    if text_width(short, fnt) <= width:
        return [short]
    lines = _two_lines(short.split(), fnt, width)
    if lines:
        return lines
    cut = [w if text_width(w, fnt) <= width else _cut_word(w, fnt, width) for w in short.split()]
    # The widest word loses a letter until two lines hold them all: every word stays (stop
    # 67: "Secret Passage A" read "Secret" in a cell's whole-pixel width).
    while not (lines := _two_lines(cut, fnt, width)):
        k = max(range(len(cut)), key=lambda i: (text_width(cut[i], fnt), -i))
        stem = cut[k].removesuffix(".")
        if len(stem) <= 1:
            return [cut[0]]
        # first to four letters ("Pass."), then a letter at a time
        cut[k] = (stem[:4] if stem == cut[k] and len(stem) > 5 else stem[:-1]) + "."
    return lines


def printed_names(view: Mapping[str, Any], width: int) -> list[str]:
    """The names a map ``width`` px wide prints for the face-up rooms, the Attic and the
    Foyer (a two-line name joined by a space), in the view's cell order."""
    cells = _read_cells(view)
    cols = _grid_cols(view, cells)
    cw = (width - GAP * (cols - 1)) / cols
    out: list[str] = []
    for c in cells:
        if c.kind in ("attic", "foyer"):
            out.append((c.name or c.kind).capitalize())
        elif c.kind == "house" and not c.face_down:
            # the width its cell's box draws it in (whole pixels, as `phone_map`'s boxes)
            box_w = round(c.col * (cw + GAP) - GAP) - round((c.col - 1) * (cw + GAP))
            out.append(" ".join(room_label(c.name or "?", box_w - 2 * PAD - 2 * NAME_INSET)))
    return out


def _grid_cols(view: Mapping[str, Any], cells: Sequence[Cell]) -> int:
    # A malformed view must not make a grid of a thousand columns: the house is 4 x 4 with
    # the Attic and Foyer rows; anything past MAX_COLS x MAX_ROWS is left out.
    layout = _d(view.get("layout"))
    return min(MAX_COLS, max(1, _i(layout.get("cols"), 4), *[c.col for c in cells]))


def _two_lines(words: Sequence[str], fnt: Any, width: float) -> list[str]:
    for k in range(1, len(words)):
        lines = [" ".join(words[:k]), " ".join(words[k:])]
        if all(text_width(x, fnt) <= width for x in lines):
            return lines
    return []


def _cut_word(word: str, fnt: Any, width: float) -> str:
    for n in range(len(word) - 1, 0, -1):
        if text_width(word[:n] + ".", fnt) <= width:
            return word[:n] + "."
    return word[:1]


# --------------------------------------------------------------------------- pieces


def _piece_width(p: Piece, level: int, marked: bool) -> float:
    fnt = font(MIN_TYPE, True)
    text = text_width(p.labels[min(level, len(p.labels) - 1)], fnt)
    w = (CHIP_H - 4) + text + 5 if p.ghost else max(text + 14, CHIP_H)
    return w + (MARK_W if marked else 0)


Spot = tuple[Piece, float, int, float, int]  # piece, x, row, width, label level


def _place(pieces: Sequence[Piece], levels: Sequence[int], marks: Marks, width: float,
           rows: int) -> list[Spot] | None:
    """Left to right in ``rows`` rows of ``width``, or None if they do not fit."""
    out: list[Spot] = []
    x, row = 0.0, 0
    for p, level in zip(pieces, levels, strict=True):
        w = _piece_width(p, level, p.key in marks.moved)
        if x > 0 and x + w > width:
            x, row = 0.0, row + 1
        if row >= rows or w > width:
            return None
        out.append((p, x, row, w, level))
        x += w + CHIP_GAP
    return out


def _flow(pieces: Sequence[Piece], marks: Marks, width: float, rows: int) -> list[Spot] | None:
    """Places for the pieces, each with the longest label that lets all fit: a Ghost (its
    silhouette tells it) takes a shorter label before a pawn (only its letters tell whose it
    is), the widest first. None if even the shortest labels do not fit."""
    levels = [0] * len(pieces)
    while True:
        spots = _place(pieces, levels, marks, width, rows)
        if spots is not None:
            return spots
        open_ = [k for k, lv in enumerate(levels) if lv < len(pieces[k].labels) - 1]
        if not open_:
            return None
        k = max(open_, key=lambda j: (bool(pieces[j].ghost),
                                      _piece_width(pieces[j], levels[j],
                                                   pieces[j].key in marks.moved), -j))
        levels[k] += 1


def _draw_pieces(d: ImageDraw.ImageDraw, area: Box, pieces: Sequence[Piece],
                 marks: Marks) -> None:
    x0, y0, x1, y1 = area
    rows = max(1, int((y1 - y0 + CHIP_GAP) // (CHIP_H + CHIP_GAP)))
    spots = _flow(pieces, marks, x1 - x0, rows)
    if spots is None:
        # Too many for the room: as many as fit and a "+N" chip for the rest.
        fnt = font(MIN_TYPE, True)
        for keep in range(len(pieces) - 1, -1, -1):
            more = f"+{len(pieces) - keep}"
            mw = text_width(more, fnt) + 14
            spots = _flow(pieces[:keep], marks, x1 - x0 - mw - CHIP_GAP, rows)
            if spots is not None:
                last_row = rows - 1
                lx = max((x + w for _, x, r, w, _ in spots if r == last_row), default=0.0)
                lx = lx + CHIP_GAP if lx else 0.0
                by = y0 + last_row * (CHIP_H + CHIP_GAP)
                rounded_box(d, (x0 + lx, by, x0 + lx + mw, by + CHIP_H), CHIP_H / 2,
                            fill=(90, 84, 100), outline=ex.TEXT, width=2)
                d.text((x0 + lx + mw / 2, by + CHIP_H / 2), more, font=fnt, fill=ex.TEXT,
                       anchor="mm")
                break
        if spots is None:
            return
    used = max((r for _, _, r, _, _ in spots), default=0) + 1
    top = y0 + max(0.0, (y1 - y0 - (used * CHIP_H + (used - 1) * CHIP_GAP)) / 2) \
        if used < rows else y0
    for p, x, r, w, level in spots:
        by = top + r * (CHIP_H + CHIP_GAP)
        _draw_piece(d, (x0 + x, by, x0 + x + w, by + CHIP_H), p, level, marks.moved.get(p.key))


def _draw_piece(d: ImageDraw.ImageDraw, box: Box, p: Piece, level: int, moved: str | None
                ) -> None:
    x0, y0, x1, y1 = box
    fnt = font(MIN_TYPE, True)
    label = p.labels[min(level, len(p.labels) - 1)]
    h = y1 - y0
    if moved:
        _dashed_box(d, (x0 - 1, y0 - 3, x1 + 1, y1 + 3), CHANGED, 3, dash=7, gap=5)
        # The mark is part of the chip, left of it: an arrow the way the piece went, or a
        # star for a piece that is new on the board.
        mb = (x0 + 1, y0 + 9, x0 + MARK_W - 1, y1 - 9)
        if moved == "new":
            icon(d, "star", mb, CHANGED)
        else:
            arrow(d, mb, moved, CHANGED, outline=CHANGED_EDGE, width=1)
        x0 += MARK_W
    if p.ghost:
        # A Ghost: a dark chip with a light edge and its own silhouette, then its name.
        rounded_box(d, (x0, y0, x1, y1), 8, fill=GHOST_CHIP, outline=GHOST_EDGE, width=2)
        ex._ghost_shape(d, p.ghost, (x0 + 3, y0 + 3, x0 + h - 3, y1 - 3))
        d.text((x0 + h - 4, (y0 + y1) / 2), label, font=fnt, fill=ex.TEXT, anchor="lm")
        return
    # A pawn: a round-ended chip in the seat's colour, the player's name on it.
    rounded_box(d, (x0, y0, x1, y1), h / 2, fill=p.colour, outline=(12, 10, 16), width=2)
    d.text(((x0 + x1) / 2, (y0 + y1) / 2 + 1), label, font=fnt, fill=PAWN_TEXT, anchor="mm")


def _dashed_box(d: ImageDraw.ImageDraw, box: Box, colour: Colour, width: int,
                dash: int = 12, gap: int = 8) -> None:
    """A rectangle of dashes (the change mark: dashed, so colour is not its only sign)."""
    x0, y0, x1, y1 = box
    for (ax, ay), (bx, by) in (((x0, y0), (x1, y0)), ((x1, y0), (x1, y1)),
                               ((x1, y1), (x0, y1)), ((x0, y1), (x0, y0))):
        length = math.hypot(bx - ax, by - ay)
        if length <= 0:
            continue
        ux, uy = (bx - ax) / length, (by - ay) / length
        t = 0.0
        while t < length:
            e = min(length, t + dash)
            d.line((ax + ux * t, ay + uy * t, ax + ux * e, ay + uy * e), fill=colour,
                   width=width)
            t = e + gap


# --------------------------------------------------------------------------- cells


def _style(cell: Cell) -> tuple[Colour, Colour, Colour]:
    """Fill, edge and text colour of a cell (each state also has a shape: a padlock, hatching,
    a snowflake)."""
    if cell.kind == "attic":
        return ex.ATTIC, (120, 124, 160), ex.TEXT
    if cell.kind == "foyer":
        return ex.FOYER, (255, 226, 150), (24, 16, 8)
    if cell.face_down:
        return ex.LOCKED, ex.LOCKED_EDGE, ex.TEXT
    if cell.shrouded:
        return ex.SHROUD, ex.SHROUD_EDGE, (236, 224, 250)
    return ex.ROOM, ex.ROOM_EDGE, ex.TEXT


def _draw_cell(img: Image.Image, d: ImageDraw.ImageDraw, box: Box, cell: Cell,
               marks: Marks) -> None:
    x0, y0, x1, y1 = box
    fill, edge, fg = _style(cell)
    rounded_box(d, box, 10, fill=fill, outline=edge, width=2)
    fixed = cell.kind in ("attic", "foyer")
    inner = x1 - x0 - 2 * PAD
    fnt = font(MIN_TYPE, True)
    if cell.face_down:
        lines = ["Locked"]
    elif fixed:
        lines = [(cell.name or cell.kind).capitalize()]
    else:
        lines = room_label(cell.name or "?", inner - 2 * NAME_INSET)
    name_bottom = y0 + PAD_Y + NAME_INSET + LINE_H * len(lines)
    if cell.shrouded:
        # Hatching below the name (the name stays on a flat fill, to be read), and a
        # thicker frame: a Shroud is told by its pattern, not only its violet.
        hatch(img, (x0 + 3, name_bottom, x1 - 3, y1 - 3), (84, 54, 116), spacing=12, width=4)
        rounded_box(d, box, 10, outline=edge, width=4)
    if cell.cold_spot:
        rounded_box(d, box, 10, outline=COLD, width=5)
        rounded_box(d, (x0 + 6, y0 + 6, x1 - 6, y1 - 6), 8, outline=COLD, width=2)
    ty = y0 + PAD_Y + NAME_INSET
    for line in lines:
        d.text((x0 + PAD + NAME_INSET, ty), line, font=fnt, fill=fg, anchor="la")
        ty += LINE_H
    if cell.face_down:
        lx = x0 + PAD + text_width("Locked", fnt) + 8
        icon(d, "lock", (lx, y0 + PAD_Y + 2, lx + 26, y0 + PAD_Y + 28), ex.GOLD, back=fill)

    if fixed:
        area: Box = (x0 + PAD, name_bottom + 2, x1 - PAD, y1 - PAD_Y)
        bottom_y = None
    else:
        bottom_y = y1 - PAD_Y - BOTTOM_H / 2
        area = (x0 + PAD, name_bottom + 2, x1 - PAD, y1 - PAD_Y - BOTTOM_H - 2)
    _draw_pieces(d, area, cell.pieces, marks)
    if bottom_y is not None:
        _draw_bottom(d, (x0 + PAD, bottom_y, x1 - PAD), cell, fill)
    elif cell.darkness:
        _darkness(d, x1 - PAD - 22 * cell.darkness, y0 + PAD_Y + 16, cell.darkness, 0)
    if cell.id in marks.cells:
        _dashed_box(d, (x0 + 2, y0 + 2, x1 - 2, y1 - 2), CHANGED, 5)


def _darkness(d: ImageDraw.ImageDraw, x: float, y: float, count: int, slots: int,
              step: float = 23) -> float:
    """Darkness as big black discs (``count``) among small hollow slots, ``step`` px apart
    (less than 20: overlapping, each ringed); returns the right edge. Size and fill tell a
    token from a free slot, not the colour."""
    r = 10
    for k in range(max(slots, count)):
        cx = x + r + k * step
        if k < count:
            d.ellipse((cx - r, y - r, cx + r, y + r), fill=ex.DARK_TOKEN, outline=ex.DARK_RING,
                      width=3)
        else:
            d.ellipse((cx - 5, y - 5, cx + 5, y + 5), outline=(170, 150, 160), width=2)
    return x + (max(slots, count) - 1) * step + 2 * r + 3 if max(slots, count) else x


def _draw_bottom(d: ImageDraw.ImageDraw, line: tuple[float, float, float], cell: Cell,
                 fill: Colour) -> None:
    """Darkness, Exorcism tokens, dropped Tools, the Cold Spot and the location die."""
    x0, y, x1 = line
    s = BOTTOM_H
    right = x1
    if cell.location:
        die(d, (x1 - s, y - s / 2, x1, y + s / 2), cell.location,
            face=(240, 234, 220) if not cell.shrouded else (190, 178, 204))
        right = x1 - s - 4
    # One icon a Tool type with its count, and "+N" for what does not fit: never a Tool
    # left out unsaid (stop 64's demo: 3 Keys, 2 Weapons and an Occult Item drew as 3).
    fnt = font(MIN_TYPE, True)
    tools = list(cell.dropped)

    def rest(k: int) -> str:
        """The words of the mark for the Tools from the ``k``-th type on."""
        n = tools[k][1]
        after = sum(m for _, m in tools[k + 1:])
        return (str(n) if n > 1 else "") + (f"+{after}" if after else "")

    # The Tools' narrowest mark (a Tool's icon and the count) keeps its room: the Darkness
    # discs close up to overlapping rather than leave it no room (stop 68).
    least = 21 + text_width(rest(0), fnt) if tools else 0
    if cell.cold_spot:
        least += s + 4
    x = x0
    if cell.face_down:
        for _ in range(min(cell.tokens, 4)):
            if x + 20 > right:
                break
            icon(d, "coin", (x, y - 10, x + 20, y + 10), ex.EXO, back=fill)
            x += 16
        if cell.tokens:
            x += 8
    slots = 0 if cell.face_down else 4 if cell.shrouded else 3
    discs = max(slots, cell.darkness)
    if discs:
        step = 23.0
        if discs > 1 and x + (discs - 1) * step + 27 + least > right:
            step = (right - least - x - 27) / (discs - 1)
        if step >= 12:
            x = _darkness(d, x, y, cell.darkness, slots, step) + 4
        elif cell.darkness:
            # Closer than 12 px the discs no longer count, and the Tools' mark covered the
            # last one (stop 69: a Shrouded Room's 4 Darkness beside 3 Tool types): one disc
            # and the number, the free slots left out.
            x = _darkness(d, x, y, 1, 0)
            if cell.darkness > 1:
                d.text((x, y), str(cell.darkness), font=fnt, fill=ex.TEXT, anchor="lm")
                x += text_width(str(cell.darkness), fnt) + 2
            x += 4
    # The snowflake only where the Tools' mark still fits after it: the Room's ice-blue frame
    # tells the Cold Spot too, and the mark drawn over it hid it (stop 69).
    if cell.cold_spot and x + s + 4 + (least - s - 4 if tools else 0) <= right:
        icon(d, "snowflake", (x, y - s / 2, x + s, y + s / 2), COLD, back=fill)
        x += s + 4

    for k, (tool, n) in enumerate(tools):
        count = str(n) if n > 1 else ""
        need = 20 + (text_width(count, fnt) + 2 if count else 0)
        room = 29 + text_width(rest(k + 1), fnt) if k + 1 < len(tools) else 0  # the mark
        if x + need + room > right:
            # The rest behind this Tool's own icon, "+N" the Tools after it (a Key and "+1":
            # a Key and one more Tool): a bare "+2" beside the Darkness discs read as two
            # more Darkness (stop 68's demo, the Occult Room).
            label = rest(k)
            w = 21 + text_width(label, fnt)
            more = sum(m for _, m in tools[k:]) - 1
            if x + w > right and more and x + 21 + text_width(f"+{more}", fnt) <= right:
                # Too wide to follow the Darkness (stop 69: "12+2" over its number): this
                # Tool's icon and "+N" the Tools with it, the count of this one left unsaid.
                label = f"+{more}"
                w = 21 + text_width(label, fnt)
            start = max(x0, min(x, right - w))
            if start < x:  # over the Darkness row's end: on the Room's own colour
                d.rectangle((start - 2, y - BOTTOM_H / 2, start + w + 1, y + BOTTOM_H / 2),
                            fill=fill)
            _tool_icon(d, start, y, tool, fill)
            if label:
                d.text((start + 21, y), label, font=fnt, fill=ex.TEXT, anchor="lm")
            return
        _tool_icon(d, x, y, tool, fill)
        x += 20
        if count:
            d.text((x + 1, y), count, font=fnt, fill=ex.TEXT, anchor="lm")
            x += text_width(count, fnt) + 2
        x += 8


def _tool_icon(d: ImageDraw.ImageDraw, x: float, y: float, tool: str, fill: Colour) -> None:
    """A dropped Tool's icon, 20 px from ``x``, centred on ``y``."""
    icon(d, ex.TOOL_ICON.get(tool, "circle"), (x, y - 10, x + 20, y + 10),
         ex.TOOL_COLOUR.get(tool, ex.TEXT), back=fill)


# --------------------------------------------------------------------------- side boxes


def _draw_list(d: ImageDraw.ImageDraw, box: Box, title: str, items: Sequence[tuple[str, str]],
               changed: bool) -> None:
    """A box of Characters after its title ("Lookouts: Architect, Doctor"), flowing over its
    lines; names are cut with a full stop only when whole ones do not fit."""
    x0, y0, x1, y1 = box
    rounded_box(d, box, 10, fill=ex.PANEL, outline=ex.PANEL_EDGE, width=2)
    fnt = font(MIN_TYPE, True)
    n_lines = max(1, int((y1 - y0 - 2 * PAD_Y) // LINE_H))
    left, right = x0 + PAD + 2, x1 - PAD
    names = [n for n, _ in items]
    full = list(names)
    while True:
        spots = _flow_words(items, names, title, fnt, left, right, n_lines)
        # Cut the longest name a letter shorter ("Psychologist" → "Psychologi." → …), keeping
        # three letters, until the box holds them all.
        longer = [k for k, n in enumerate(names) if len(n.rstrip(".")) > 3]
        if spots is not None or not longer:
            break
        k = max(longer, key=lambda j: (text_width(names[j], fnt), -j))
        names[k] = full[k][:len(names[k].rstrip(".")) - 1] + "."
    if spots is None:  # even three letters each do not fit: as many as fit, and "+N"
        spots = []  # for the rest, never dropped unsaid (stop 64's recap lost the last two)
        for k in range(len(items) - 1, -1, -1):
            more = f"+{len(items) - k}"
            found = _flow_words([*items[:k], (more, "")], [*names[:k], more], title, fnt,
                                left, right, n_lines)
            if found is not None:
                spots = found
                break
    ty = y0 + (y1 - y0 - n_lines * LINE_H) / 2 + LINE_H / 2
    d.text((left, ty), title + ":", font=fnt, fill=ex.MUTED, anchor="lm")
    space = text_width(" ", fnt)
    for word, ic, x, line in spots:
        y = ty + line * LINE_H
        x += space
        if ic == "escaped":
            arrow(d, (x, y - 11, x + 22, y + 11), "E", (150, 220, 150))
            x += 26
        elif ic:
            icon(d, ic, (x, y - 11, x + 22, y + 11),
                 (220, 90, 90) if ic == "heart" else (236, 236, 236), back=ex.PANEL)
            x += 26
        d.text((x, y), word, font=fnt, fill=ex.TEXT, anchor="lm")
    if changed:
        _dashed_box(d, (x0 + 2, y0 + 2, x1 - 2, y1 - 2), CHANGED, 5)


def _flow_words(items: Sequence[tuple[str, str]], names: Sequence[str], title: str, fnt: Any,
                left: float, right: float, n_lines: int
                ) -> list[tuple[str, str, float, int]] | None:
    """Where each name goes after "title:" over ``n_lines`` lines, or None if they do not
    all fit."""
    spots: list[tuple[str, str, float, int]] = []
    x, line = left + text_width(title + ":", fnt), 0
    for k, ((_, ic), name) in enumerate(zip(items, names, strict=True)):
        word = name + ("," if k < len(items) - 1 else "")
        w = (26 if ic else 0) + text_width(" " + word, fnt)
        if x + w > right:
            x, line = left - text_width(" ", fnt), line + 1
        if line >= n_lines:
            return None
        spots.append((word, ic, x, line))
        x += w
    return spots


def _draw_key(d: ImageDraw.ImageDraw, box: Box) -> None:
    """The key to the change marks: a dashed frame with the word for it."""
    x0, y0, x1, y1 = box
    fnt = font(MIN_TYPE, True)
    word = "Changed" if text_width("Changed", fnt) <= x1 - x0 - 2 * PAD else "New"
    _dashed_box(d, (x0 + 2, y0 + 2, x1 - 2, y1 - 2), CHANGED, 5)
    d.text(((x0 + x1) / 2, (y0 + y1) / 2), word, font=fnt, fill=CHANGED, anchor="mm")


# --------------------------------------------------------------------------- the map


FIXED_CHIP_ROWS = 2
"""The most rows of pieces the Attic's or the Foyer's row grows to for whole names."""
LIST_LINES = 4
"""The most lines a side list's row grows to for whole Character names."""


HOUSE_CHIP_ROWS = 5
"""The most rows of pieces a house Room's row grows to for whole names (stop 67: a 400 px
column's Room holds one name of five letters a row, two of three)."""
MAX_TALL = 1.2
"""The map's height, at most, per px of its width: a crowded Room's row grows only so far."""


def _house_height(cell: Cell, marks: Marks, width: float, rows: int) -> float:
    """The height of a house Room `width` px wide with its name and `rows` rows of pieces."""
    lines = 1 if cell.face_down else len(room_label(cell.name or "?",
                                                    width - 2 * PAD - 2 * NAME_INSET))
    return (PAD_Y + NAME_INSET + LINE_H * lines + 2 + rows * CHIP_H + (rows - 1) * CHIP_GAP
            + 2 + BOTTOM_H + PAD_Y)


def _house_rows(cell: Cell, marks: Marks, width: float) -> int:
    """Rows of pieces a house Room `width` px wide needs so every pawn reads its whole name
    (at most HOUSE_CHIP_ROWS)."""
    for k in range(1, HOUSE_CHIP_ROWS + 1):
        if _place(cell.pieces, _whole_levels(cell.pieces), marks, width - 2 * PAD - 1,
                  k) is not None:
            return k
    return HOUSE_CHIP_ROWS


def _whole_levels(pieces: Sequence[Piece]) -> list[int]:
    """Each pawn with its whole label (the player's name), each Ghost with its shortest (its
    silhouette tells it)."""
    return [len(p.labels) - 1 if p.ghost else 0 for p in pieces]


def _chip_rows(pieces: Sequence[Piece], marks: Marks, width: float) -> int:
    """Rows of pieces a fixed cell `width` px wide needs so every pawn reads its whole name
    (at most FIXED_CHIP_ROWS; 1 or 2 by the shortest labels when even that does not do)."""
    if not pieces:
        return 1
    for k in range(1, FIXED_CHIP_ROWS + 1):
        if _place(pieces, _whole_levels(pieces), marks, width, k) is not None:
            return k
    shortest = [len(p.labels) - 1 for p in pieces]
    return 1 if _place(pieces, shortest, marks, width, 1) is not None else 2


def _list_lines(title: str, items: Sequence[tuple[str, str]], width: float) -> int:
    """Lines a side list `width` px wide needs to show every whole name (at most LIST_LINES)."""
    fnt = font(MIN_TYPE, True)
    names = [n for n, _ in items]
    left, right = PAD + 2, width - PAD
    for n in range(1, LIST_LINES + 1):
        if _flow_words(items, names, title, fnt, left, right, n) is not None:
            return n
    return LIST_LINES


def _fixed_height(chip_rows: int, list_lines: int) -> float:
    return max(PAD_Y + NAME_INSET + LINE_H + 2 + chip_rows * CHIP_H + (chip_rows - 1) * CHIP_GAP
               + PAD_Y, 2 * PAD_Y + list_lines * LINE_H)


def phone_map(view: Mapping[str, Any], width: int) -> Image.Image:
    """The house as an RGB picture exactly ``width`` px wide (see the module docstring)."""
    cells = _read_cells(view)
    marks = _marks(view, cells)
    lists = _side_lists(view)
    house = [c for c in cells if c.kind == "house"]
    cols = _grid_cols(view, cells)
    rows_all = sorted({c.row for c in cells}) or [0, 1, 2, 3, 4, 5]
    all_rows = list(range(rows_all[0], min(rows_all[-1], rows_all[0] + MAX_ROWS - 1) + 1))
    house_rows = {c.row for c in house}
    cw = (width - GAP * (cols - 1)) / cols

    def span_w(a: int, z: int) -> float:
        return (z - a + 1) * cw + (z - a) * GAP

    # The free spans of the rows that hold no house room (the Attic's and the Foyer's).
    occupied = {(c.row, c.col) for c in cells}
    spans: list[tuple[int, int, int]] = []
    for r in all_rows:
        if r in house_rows:
            continue
        start: int | None = None
        for col in range(1, cols + 2):
            free = col <= cols and (r, col) not in occupied
            if free and start is None:
                start = col
            if not free and start is not None:
                spans.append((r, start, col - 1))
                start = None
    last = all_rows[-1]
    # The Lookouts wait by the Foyer: the widest span of the bottom row; the Wounded and the
    # key take the widest others.
    spans.sort(key=lambda sp: (sp[0] != last, -(sp[2] - sp[1]), sp[0]))
    wanted: list[tuple[str, str, list[tuple[str, str]]]] = []
    if lists["lookouts"] or "lookouts" in marks.lists:
        wanted.append(("lookouts", "Lookouts", lists["lookouts"]))
    rest = spans[1:] if wanted else spans
    spans_used = spans[:1] if wanted else []
    rest.sort(key=lambda sp: (-(sp[2] - sp[1]), sp[0]))
    if lists["wounded"] or "wounded" in marks.lists:
        wanted.append(("wounded", _gone_title(lists["wounded"]), lists["wounded"]))
    spans_used += rest[:1]
    rest = rest[1:]
    placed = list(zip(wanted, spans_used, strict=False))
    key_at = rest[0] if marks and rest else None
    free_spans = rest[1:] if key_at else rest
    if key_at and key_at[1] < key_at[2]:
        free_spans.append((key_at[0], key_at[1] + 1, key_at[2]))  # the key takes one column

    # A crowded Attic or Foyer spreads over a free span beside it, so its pawns read their
    # players' whole names (stop 66: "Sha" and "Mo" on the Foyer at a 400 px column).
    reach: dict[str, tuple[int, int]] = {}
    for c in cells:
        if c.kind not in ("attic", "foyer") or not c.pieces or not 1 <= c.col <= cols:
            continue
        if _place(c.pieces, _whole_levels(c.pieces), marks, cw - 2 * PAD, 1) is not None:
            continue
        for sp in free_spans:
            r, a, z = sp
            if r == c.row and (a == c.col + 1 or z == c.col - 1):
                reach[c.id] = (c.col, z) if a == c.col + 1 else (a, c.col)
                free_spans.remove(sp)
                break

    # Each fixed row as tall as its pieces and lists need, so names are whole.
    chips: dict[int, int] = {}
    for c in cells:
        if c.kind in ("attic", "foyer") and c.pieces:
            a, z = reach.get(c.id, (c.col, c.col))
            chips[c.row] = max(chips.get(c.row, 1),
                               _chip_rows(c.pieces, marks, span_w(a, z) - 2 * PAD))
    lines: dict[int, int] = {}
    for (_what, title, items), (r, a, z) in placed:
        lines[r] = max(lines.get(r, 2), _list_lines(title, items, span_w(a, z)))
    heights = {r: HOUSE_ROW_H if r in house_rows else
               _fixed_height(chips.get(r, 1), lines.get(r, 2)) for r in all_rows}
    # A crowded house Room's row grows the rows of pieces whole names need (stop 67: "W M R
    # A Sh W" for five players and the Wraith), as far as the map stays about square.
    # A row of Rooms that hold no piece gives up a row of pieces' room for it when the map
    # would grow too tall otherwise.
    need = [(c, _house_rows(c, marks, cw)) for c in house
            if c.pieces and c.row in heights and 1 <= c.col <= cols]
    if any(k > 2 or _house_height(c, marks, cw, k) > HOUSE_ROW_H for c, k in need):
        empty = {r: max(_house_height(c, marks, cw, 1) for c in house if c.row == r)
                 for r in house_rows - {c.row for c, _k in need} if r in heights}
        for cap in range(HOUSE_CHIP_ROWS, 2, -1):
            grown = dict(heights)
            for c, k in need:
                grown[c.row] = max(grown[c.row], _house_height(c, marks, cw, min(k, cap)))
            bound = MAX_TALL * width - GAP * (len(all_rows) - 1)
            if sum(grown.values()) > bound:
                grown.update(empty)
            if sum(grown.values()) <= bound:
                heights = grown
                break
    total = sum(heights.values()) + GAP * (len(all_rows) - 1)
    img = Image.new("RGB", (width, max(1, int(total))), ex.BG)
    d = ImageDraw.Draw(img)

    tops: dict[int, float] = {}
    y = 0.0
    for r in all_rows:
        tops[r] = y
        y += heights[r] + GAP

    def box_of(r: int, a: int, z: int) -> Box:
        return (round((a - 1) * (cw + GAP)), round(tops[r]), round(z * (cw + GAP) - GAP),
                round(tops[r] + heights[r]))

    for c in cells:
        if c.row in tops and 1 <= c.col <= cols:
            box = box_of(c.row, *reach.get(c.id, (c.col, c.col)))
            key = ("exorcism phone cell", width, box, c, c.id in marks.cells,
                   tuple(sorted((p.key, marks.moved.get(p.key, "")) for p in c.pieces)))
            # A cell draws only inside its box, from the key's data, on the flat background.
            memo_region(img, box, key, partial(_draw_cell, img, d, box, c, marks), pool="card")

    for (what, title, items), (r, a, z) in placed:
        _draw_list(d, box_of(r, a, z), title, items, what in marks.lists)
    if key_at:
        r, a, _z = key_at
        _draw_key(d, box_of(r, a, a))
    return img


def _gone_title(items: Sequence[tuple[str, str]]) -> str:
    kinds = {ic for _, ic in items}
    if kinds == {"escaped"}:
        return "Escaped"
    if kinds == {"skull"}:
        return "Devoured"
    if kinds <= {"heart"}:
        return "Wounded"
    return "Out"
