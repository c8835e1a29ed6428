"""The Presence's manor drawn for a phone column: ``phone_map(view, width) -> RGB Image``.

The turn card (renders/turncard.py) pastes this picture between "who acts / what to do" and
the numbers, so a player scrolling the game's thread on a phone sees where everyone is without
opening the full 1,600 px board. The card is shown at half size (400 px), so every word here
is at least 28 px (14 px on the phone) and the map is about as tall as it is wide: rooms keep
their printed grid (Upper floor, Ground floor, Basement), a room is as tall as its busiest
neighbour in the row needs, and long names are abbreviated ("W. Bedroom") rather than shrunk.

What it shows, each state by shape or word as well as colour (a red-green colour-blind player
must read it all):

- rooms with their names; a lit room is light with dark letters, a dark room is dark with a
  moon; a fireplace is a flame (solid when lit, hollow when out); the sealed Secret Chamber
  is bricked up and says SEALED (P-CHAMBER-03);
- doors on the shared wall: open is a gap in the wall, closed a bar with a cross-tick, locked
  a bar with a padlock; stairs and the secret passage are a ▲ / ▼ / ↔ badge in the room with
  the same door glyph beside it (the room they lead to sits in the same column);
- visitor pawns labelled with their player's name (three letters, ``view["names"]``), grey
  and crossed when knocked out, a skull when succumbed, a small flame when the candle is lit;
  the spirit pawn (a ghost); presence dice with their number; face-down spirit clues ("S"),
  small clues (square "s") and the spirit's drains (diamond "D");
- what changed since the previous board post (``view["turn"]["before"]``, the public view of
  that post): a moved or changed pawn, a new token, a door that opened or closed get a thick
  dashed ring; a room whose light, fire or seal changed gets a dashed outline and a ★ badge;
  a pawn that moved also gets a dashed arrow from the room it left.

It reads only the public view it is given (through ``renders.presence``'s defensive reader),
so it cannot show anything hidden; missing keys draw as an empty manor. In True Horror
(P-HORROR) it is drawn in greys only.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from PIL import Image, ImageDraw

from renders.common import (
    Box,
    Colour,
    cached_layer,
    die,
    ellipsize,
    font,
    icon,
    mix,
    pack_rows,
    rounded_box,
    telling_words,
    text_width,
)
from renders.presence import Board, DoorV, RoomV, VisitorV, _read, _spirit_pawn

__all__ = ["MIN_TYPE", "changes", "phone_legend", "phone_map", "room_label", "short_names"]

MIN_TYPE = 28  # 14 px in the 400 px chat column
GAP = 22  # between rooms: the wall, where the doors sit
FLOOR_GAP = 10
HEAD = 36  # a floor's name band
PAD = 12  # inside a room, left and right: tesseract needs air between a wall and a name
PAD_Y = 8
NAME_H = 44
PIECE = 44  # height of a row of pieces
PIECE_GAP = 6
STAIRS_MARGIN = 10
"""Blank space inside a stairs badge's right edge (`_stairs_badge`): with `PIECE_GAP` the
open door's jamb stands 7 px at 400 px from the next piece."""
DOOR_LEN = 54
RING_OUT = 5
"""How far a changed piece's dashed ring (`_marked`) reaches past the piece: its line stands
3 px out and its white dashes, 4 px wide on the line, 2 px past that."""
RING_ROOM = 7
"""Blank space a changed piece keeps on each side, and its row from the next row, for its
ring: with `PIECE_GAP` the ring stands 4 px at 400 px from the piece beside it (stop 70: the
ring was drawn into the gap between pieces and touched its neighbours at 400 px)."""

# --------------------------------------------------------------------------- palette


@dataclass(frozen=True)
class Ink:
    bg: Colour
    head: Colour
    lit: Colour
    lit_edge: Colour
    lit_text: Colour
    dark: Colour
    dark_edge: Colour
    dark_text: Colour
    sealed: Colour
    wood: Colour
    line: Colour
    flame: Colour
    spirit: Colour
    small: Colour
    mark: Colour
    pip: Colour
    hearth: Colour
    seats: bool
    """Pawns in their seat colours (off in True Horror)."""


INK = Ink(bg=(16, 14, 22), head=(186, 176, 198), lit=(236, 210, 158), lit_edge=(236, 210, 158),
          lit_text=(34, 24, 12), dark=(30, 36, 62), dark_edge=(56, 64, 96),
          dark_text=(232, 236, 250), sealed=(46, 40, 52), wood=(196, 140, 82),
          line=(14, 10, 8), flame=(255, 150, 40), spirit=(150, 104, 230),
          small=(150, 150, 162), mark=(255, 255, 255), pip=(120, 20, 30),
          hearth=(40, 28, 22), seats=True)
QUIET = Ink(bg=(10, 9, 12), head=(164, 158, 166), lit=(206, 202, 196), lit_edge=(206, 202, 196),
            lit_text=(16, 14, 18), dark=(34, 32, 38), dark_edge=(60, 58, 66),
            dark_text=(226, 222, 216), sealed=(24, 22, 26), wood=(150, 146, 140),
            line=(8, 8, 10), flame=(226, 222, 216), spirit=(120, 116, 126),
            small=(150, 146, 152), mark=(255, 255, 255), pip=(16, 14, 18),
            hearth=(24, 22, 26), seats=False)


def _ink(view: Mapping[str, Any]) -> Ink:
    presets = view.get("presets")
    return QUIET if isinstance(presets, dict) and presets.get("true_horror") else INK


# --------------------------------------------------------------------------- labels


def _bold() -> Any:
    return font(MIN_TYPE, True)


def room_label(name: str, width: float) -> str:
    """``name`` as the room shows it in ``width`` px at 28 px bold: whole if it fits, else
    its leading words cut to an initial ("W. Bedroom"), else cut with "…"."""
    fnt = _bold()
    if text_width(name, fnt) <= width:
        return name
    words = name.split()
    for k in range(1, len(words)):
        short = " ".join([w[0] + "." for w in words[:k]] + words[k:])
        if text_width(short, fnt) <= width:
            return short
    return ellipsize(words[-1] if words else name, fnt, width)


def short_names(b: Board) -> dict[str, str]:
    """A pawn label per visitor seat: the first three letters of its player's first name
    (the word that tells two players apart, `telling_words`: AI Moth and AI Shade are "Mot"
    and "Sha"; more letters when two would share them), else the character's initials. Two
    characters of one player go by their characters' names (P-2P)."""
    out: dict[str, str] = {}
    first = telling_words({v.seat: v.player for v in b.visitors})
    # A two-player game's visitor player moves two characters (P-2P): both pawns read
    # "Ada"; its characters go by their own telling word ("Des", "Orp") instead.
    shared = {v.seat for v in b.visitors if v.player
              and sum(o.player == v.player for o in b.visitors) > 1}
    first.update(telling_words({v.seat: v.name for v in b.visitors if v.seat in shared}))
    taken: set[str] = set()
    for v in b.visitors:
        word = "".join(c for c in first[v.seat] if c.isalnum())
        if not word:
            out[v.seat] = b.seat_initials.get(v.seat, "?")
            continue
        label = word[:3]
        k = 3
        while label.casefold() in taken and k < len(word):
            k += 1
            label = word[:k]
        taken.add(label.casefold())
        out[v.seat] = label
    return out


# --------------------------------------------------------------------------- what changed


@dataclass
class Changes:
    """What differs from the previous board post, by piece."""

    pawns: dict[str, str] = field(default_factory=dict)
    """Visitor seat -> the room id it came from ("" when only its state changed); a pawn
    that was not on the board before (at setup) is not marked."""
    spirit_from: str | None = None
    """The room the spirit pawn left (or "" when it appeared), None when it did not move."""
    rooms: set[str] = field(default_factory=set)
    """Rooms whose light, fireplace or seal changed."""
    new_spirit_tokens: dict[str, int] = field(default_factory=dict)
    new_small_tokens: dict[str, int] = field(default_factory=dict)
    new_dice: dict[str, int] = field(default_factory=dict)
    new_drains: dict[str, int] = field(default_factory=dict)
    doors: set[str] = field(default_factory=set)

    def __bool__(self) -> bool:
        return bool(self.pawns or self.spirit_from is not None or self.rooms
                    or self.new_spirit_tokens or self.new_small_tokens or self.new_dice
                    or self.new_drains or self.doors)


def _where(b: Board) -> dict[str, str]:
    return {s: r.id for r in b.rooms for s in r.visitors}


def changes(now: Board, before: Board | None) -> Changes:
    """Diff two boards read from public views; an absent ``before`` marks nothing."""
    out = Changes()
    if before is None:
        return out
    was_at, now_at = _where(before), _where(now)
    old_v = {v.seat: v for v in before.visitors}
    for v in now.visitors:
        prev = old_v.get(v.seat)
        here, there = now_at.get(v.seat), was_at.get(v.seat)
        if here is None or there is None:
            # not on the previous post's board: the visitors entering the manor at setup,
            # all in the Great Hall, are no change to point at (stop 70: their rings on the
            # first post of round 1 made a 5-player map 1.3 times as tall as wide)
            continue
        if there != here:
            out.pawns[v.seat] = there
        elif prev is not None and (prev.knocked_out, prev.succumbed, prev.candle_lit) != (
                v.knocked_out, v.succumbed, v.candle_lit):
            out.pawns[v.seat] = ""
    pawn_now = next((r.id for r in now.rooms if r.pawn), None)
    pawn_was = next((r.id for r in before.rooms if r.pawn), None)
    if pawn_now is not None and pawn_now != pawn_was:
        out.spirit_from = pawn_was or ""
    old_rooms = {r.id: r for r in before.rooms}
    for r in now.rooms:
        o = old_rooms.get(r.id)
        if o is None:
            continue
        if (o.lit, o.fireplace_lit, o.sealed) != (r.lit, r.fireplace_lit, r.sealed):
            out.rooms.add(r.id)
        for target, new, old in ((out.new_spirit_tokens, r.spirit_tokens, o.spirit_tokens),
                                 (out.new_small_tokens, r.small_tokens, o.small_tokens),
                                 (out.new_drains, len(r.drains), len(o.drains))):
            if new > old:
                target[r.id] = new - old
        if r.dice != o.dice:
            # a die added, moved here or turned: mark the dice that are not as they were
            left = list(o.dice)
            fresh = 0
            for value in r.dice:
                if value in left:
                    left.remove(value)
                else:
                    fresh += 1
            if fresh:
                out.new_dice[r.id] = fresh
    old_doors = {dr.id or f"{dr.a}|{dr.b}": dr for dr in before.doors}
    for dr in now.doors:
        od = old_doors.get(dr.id or f"{dr.a}|{dr.b}")
        if od is not None and (od.open, od.locked) != (dr.open, dr.locked):
            out.doors.add(dr.id or f"{dr.a}|{dr.b}")
    return out


# --------------------------------------------------------------------------- pieces


@dataclass
class Piece:
    kind: str  # moon, fire, visitor, spirit, die, stoken, ctoken, drain, stairs
    width: float
    value: Any = None
    marked: bool = False

    @property
    def room(self) -> float:
        """The piece's blank margin on each side: its ring's, when it is marked."""
        return RING_ROOM if self.marked else 0

    @property
    def span(self) -> float:
        """The width the piece takes in its row, its ring's margins included."""
        return self.width + 2 * self.room


def _door_key(dr: DoorV) -> str:
    return dr.id or f"{dr.a}|{dr.b}"


def _pieces(r: RoomV, b: Board, labels: Mapping[str, str], stairs: Sequence[tuple[DoorV, str]],
            ch: Changes) -> list[Piece]:
    fnt = _bold()
    out: list[Piece] = []
    if r.id in ch.rooms:
        out.append(Piece("star", 40))
    if not r.lit:
        out.append(Piece("moon", 34))
    if r.fireplace:
        out.append(Piece("fire", 34, r.fireplace_lit, r.id in ch.rooms))
    gone = {v.seat for v in b.visitors if v.succumbed}
    for seat in r.visitors:
        label = labels.get(seat, "?")
        # a succumbed visitor keeps its name beside the skull: the group must see who it was
        extra = 30 if seat in gone else 0
        out.append(Piece("visitor", text_width(label, fnt) + 22 + extra, seat, seat in ch.pawns))
    if r.pawn:
        out.append(Piece("spirit", 44, None, ch.spirit_from is not None))
    fresh = ch.new_dice.get(r.id, 0)
    for k, value in enumerate(r.dice):
        out.append(Piece("die", 40, value, k >= len(r.dice) - fresh))
    fresh = ch.new_spirit_tokens.get(r.id, 0)
    for k in range(r.spirit_tokens):
        out.append(Piece("stoken", 40, None, k >= r.spirit_tokens - fresh))
    fresh = ch.new_small_tokens.get(r.id, 0)
    for k in range(r.small_tokens):
        out.append(Piece("ctoken", 40, None, k >= r.small_tokens - fresh))
    fresh = ch.new_drains.get(r.id, 0)
    for k in range(len(r.drains)):
        out.append(Piece("drain", 42, None, k >= len(r.drains) - fresh))
    for dr, way in stairs:
        out.append(Piece("stairs", 66, (dr, way), _door_key(dr) in ch.doors))
    # where a pawn that moved stood before: a hollow dashed pawn ("was here")
    for seat, src in ch.pawns.items():
        if src == r.id:
            label = labels.get(seat, "?")
            out.append(Piece("left", text_width(label, fnt) + 22, seat))
    if ch.spirit_from == r.id:
        out.append(Piece("left", 44, None))
    return out


def _flow(pieces: Sequence[Piece], width: float) -> list[list[Piece]]:
    rows: list[list[Piece]] = [[]]
    used = 0.0
    for p in pieces:
        if rows[-1] and used + p.span > width:
            rows.append([])
            used = 0.0
        rows[-1].append(p)
        used += p.span + PIECE_GAP
    return rows if rows[0] else []


def _row_room(row: Sequence[Piece]) -> float:
    """The blank band a row keeps above and below for its marked pieces' rings."""
    return RING_ROOM if any(p.marked for p in row) else 0


def _row_tops(rows: Sequence[Sequence[Piece]]) -> tuple[list[float], float]:
    """Each row's top below the first's, and how tall the rows stand (one row at least). A
    ring's band lies between two rows only: the name above the first row and the room's
    padding below the last leave it room already."""
    tops: list[float] = []
    y = 0.0
    for k, row in enumerate(rows):
        if k:
            y += PIECE + PIECE_GAP + _row_room(rows[k - 1]) + _row_room(row)
        tops.append(y)
    return tops, y + PIECE


# --------------------------------------------------------------------------- layout


@dataclass
class Floor:
    name: str
    top: float
    cells: dict[str, Box]


def _stairs(b: Board) -> tuple[dict[str, list[tuple[DoorV, str]]], list[DoorV]]:
    """Stairs / passage badges per room ("up", "down", "across") and the doors on a wall."""
    rooms = {r.id: r for r in b.rooms}
    badges: dict[str, list[tuple[DoorV, str]]] = {}
    walls: list[DoorV] = []
    for dr in b.doors:
        ra, rb = rooms.get(dr.a), rooms.get(dr.b)
        if ra is None or rb is None:
            continue
        if (not dr.stairs and not dr.passage and ra.floor == rb.floor
                and abs(ra.x - rb.x) + abs(ra.y - rb.y) == 1):
            walls.append(dr)
            continue
        for here, there in ((ra, rb), (rb, ra)):
            way = ("across" if there.floor == here.floor
                   else "up" if there.floor > here.floor else "down")
            badges.setdefault(here.id, []).append((dr, way))
    return badges, walls


def _layout(b: Board, width: int, pieces: Mapping[str, list[Piece]]
            ) -> tuple[list[Floor], int]:
    """Each floor's name band and its rooms' boxes on the printed grid; a row of rooms is as
    tall as its busiest room's pieces need."""
    by_floor: dict[int, list[RoomV]] = {}
    for r in b.rooms:
        by_floor.setdefault(r.floor, []).append(r)
    order = [lvl for lvl, _ in b.floors if lvl in by_floor]
    order += sorted((lvl for lvl in by_floor if lvl not in order), reverse=True)
    names = dict(b.floors)
    ncols = max((r.x for r in b.rooms), default=0) + 1
    col_w = (width - (ncols - 1) * GAP) / ncols
    floors: list[Floor] = []
    y = 0.0
    for lvl in order:
        rooms = by_floor[lvl]
        lo = min(r.y for r in rooms)
        hi = max(r.y for r in rooms)
        top = y
        y += HEAD
        cells: dict[str, Box] = {}
        for row in range(lo, hi + 1):
            in_row = [r for r in rooms if r.y == row]
            need = max((_row_tops(_flow(pieces.get(r.id, []), col_w - 2 * PAD))[1]
                        for r in in_row), default=PIECE)
            h = NAME_H + PAD_Y * 2 + need + 4
            for r in in_row:
                x0 = r.x * (col_w + GAP)
                cells[r.id] = (x0, y, x0 + col_w, y + h)
            y += h + (GAP if row < hi else 0)
        floors.append(Floor(names.get(lvl, f"Floor {lvl}"), top, cells))
        y += FLOOR_GAP
    return floors, (max(1, math.ceil(y - FLOOR_GAP)) if floors else 1)


# --------------------------------------------------------------------------- drawing


def _dashed_ring(d: ImageDraw.ImageDraw, box: Box, ink: Ink, width: int = 5) -> None:
    """The change mark: a dark ring under a white dashed one, readable on light and dark."""
    x0, y0, x1, y1 = box
    d.rounded_rectangle(box, radius=min(14, (y1 - y0) / 2), outline=ink.line, width=width + 4)
    per = 2 * ((x1 - x0) + (y1 - y0))
    n = max(4, int(per // 18))
    pts = _perimeter(box, n * 2)
    for k in range(0, len(pts) - 1, 2):
        d.line((pts[k], pts[k + 1]), fill=ink.mark, width=width)


def _dashes(d: ImageDraw.ImageDraw, box: Box, colour: Colour, width: int) -> None:
    pts = _perimeter(box, max(8, int(2 * ((box[2] - box[0]) + (box[3] - box[1])) // 9)) // 2 * 2)
    for k in range(0, len(pts) - 1, 2):
        d.line((pts[k], pts[k + 1]), fill=colour, width=width)


def _spirit_outline(d: ImageDraw.ImageDraw, c: tuple[float, float], colour: Colour,
                    back: Colour) -> None:
    """The ghost's outline (where the spirit pawn was)."""
    cx, cy = c
    d.ellipse((cx - 14, cy - 16, cx + 14, cy + 10), outline=colour, width=3)
    d.rectangle((cx - 11, cy - 3, cx + 11, cy + 14), fill=back)
    d.line((cx - 14, cy - 3, cx - 14, cy + 15), fill=colour, width=3)
    d.line((cx + 14, cy - 3, cx + 14, cy + 15), fill=colour, width=3)
    d.line((cx - 14, cy + 15, cx + 14, cy + 15), fill=colour, width=3)


def _perimeter(box: Box, n: int) -> list[tuple[float, float]]:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    per = 2 * (w + h)
    out: list[tuple[float, float]] = []
    for k in range(n + 1):
        t = per * k / n
        if t <= w:
            out.append((x0 + t, y0))
        elif t <= w + h:
            out.append((x1, y0 + t - w))
        elif t <= 2 * w + h:
            out.append((x1 - (t - w - h), y1))
        else:
            out.append((x0, y1 - (t - 2 * w - h)))
    return out


def _star_badge(d: ImageDraw.ImageDraw, c: tuple[float, float], ink: Ink) -> None:
    r = 17
    d.ellipse((c[0] - r, c[1] - r, c[0] + r, c[1] + r), fill=ink.mark, outline=ink.line, width=3)
    icon(d, "star", (c[0] - 11, c[1] - 11, c[0] + 11, c[1] + 11), ink.line)


def _door_glyph(d: ImageDraw.ImageDraw, box: Box, dr: DoorV, across: bool, ink: Ink,
                floors: tuple[Colour, Colour], jamb: Colour | None = None) -> None:
    """``box`` spans the wall between two rooms (``floors``: their fills, top or left first);
    ``across`` when the wall runs left-right. Open: a gap (the two rooms' floors run into
    each other through the wall, jambs at both ends). Closed: a solid bar with a cross-tick.
    Locked: the bar with a padlock."""
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    if dr.open:
        if across:
            d.rectangle((x0, y0, x1, cy), fill=floors[0])
            d.rectangle((x0, cy, x1, y1), fill=floors[1])
        else:
            d.rectangle((x0, y0, cx, y1), fill=floors[0])
            d.rectangle((cx, y0, x1, y1), fill=floors[1])
        jc = jamb or ink.line
        if across:  # jambs: short walls at the left and right ends of the gap
            d.line((x0, y0, x0, y1), fill=jc, width=5)
            d.line((x1, y0, x1, y1), fill=jc, width=5)
        else:
            d.line((x0, y0, x1, y0), fill=jc, width=5)
            d.line((x0, y1, x1, y1), fill=jc, width=5)
        return
    bar: Box = ((x0, cy - 7, x1, cy + 7) if across else (cx - 7, y0, cx + 7, y1))
    d.rectangle(bar, fill=ink.wood, outline=ink.line, width=3)
    if dr.locked:
        s = 30
        rounded_box(d, (cx - s / 2, cy - s / 2, cx + s / 2, cy + s / 2), 6, fill=ink.line)
        icon(d, "lock", (cx - 11, cy - 11, cx + 11, cy + 11), ink.mark, back=ink.line)
        return
    # the cross-tick: a line across the bar, through the wall, into both rooms
    if across:
        d.line((cx, y0 - 4, cx, y1 + 4), fill=ink.line, width=5)
    else:
        d.line((x0 - 4, cy, x1 + 4, cy), fill=ink.line, width=5)


def _visitor(d: ImageDraw.ImageDraw, box: Box, v: VisitorV | None, label: str, colour: Colour,
             ink: Ink) -> None:
    x0, y0, x1, y1 = box
    fnt = _bold()
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    if v is not None and v.succumbed:
        rounded_box(d, box, (y1 - y0) / 2, fill=(20, 16, 24), outline=colour, width=3)
        icon(d, "skull", (x0 + 10, cy - 13, x0 + 36, cy + 13), (230, 230, 236),
             back=(20, 16, 24))
        d.text(((x0 + 30 + x1) / 2, cy), label, font=fnt, fill=(230, 230, 236), anchor="mm")
        return
    fill = colour
    if v is not None and v.knocked_out:
        fill = mix(colour, (90, 90, 96), 0.7)
    rounded_box(d, box, (y1 - y0) / 2, fill=fill, outline=ink.line, width=3)
    d.text((cx, cy), label, font=fnt, fill=(12, 10, 14), anchor="mm")
    if v is not None and v.knocked_out:
        d.line((x0 + 6, y0 + 6, x1 - 6, y1 - 6), fill=ink.line, width=4)
        d.line((x0 + 6, y1 - 6, x1 - 6, y0 + 6), fill=ink.line, width=4)
    elif v is not None and v.candle_lit:
        # within the pawn's width: 3 px past it, the flame reached the ring of a changed
        # piece beside it at 400 px (stop 70)
        d.ellipse((x1 - 18, y0 - 6, x1, y0 + 12), fill=ink.line)
        icon(d, "flame", (x1 - 16, y0 - 5, x1 - 2, y0 + 11), ink.flame)


def _stairs_badge(d: ImageDraw.ImageDraw, box: Box, dr: DoorV, way: str, ink: Ink,
                  text: Colour, floor: Colour) -> None:
    x0, y0, x1, y1 = box
    glyph = {"up": "▲", "down": "▼"}.get(way, "↔")
    d.text((x0 + 12, (y0 + y1) / 2), glyph, font=_bold(), fill=text, anchor="mm")
    # The door's right jamb stays STAIRS_MARGIN inside the badge: at x1 - 2 an open door's
    # "| |" touched the piece drawn next ("| |Bas" at 400 px, stop 69).
    door_box: Box = (x0 + 28, y0 + 4, x1 - STAIRS_MARGIN, y1 - 4)
    _door_glyph(d, door_box, dr, True, ink, (floor, floor), text)


def _draw_piece(d: ImageDraw.ImageDraw, p: Piece, box: Box, b: Board, labels: Mapping[str, str],
                colours: Mapping[str, Colour], ink: Ink, text: Colour, floor: Colour) -> None:
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    if p.kind == "star":
        _star_badge(d, (cx, cy), ink)
    elif p.kind == "left":
        _dashes(d, box, text, 3)
        if p.value is None:
            _spirit_outline(d, (cx, cy), text, floor)
        else:
            d.text((cx, cy), labels.get(str(p.value), "?"), font=_bold(), fill=text,
                   anchor="mm")
    elif p.kind == "moon":
        icon(d, "moon", (cx - 15, cy - 15, cx + 15, cy + 15), text, back=floor)
    elif p.kind == "fire":
        rounded_box(d, box, 6, fill=ink.hearth, outline=ink.line, width=2)
        if p.value:
            icon(d, "flame", (cx - 13, cy - 14, cx + 13, cy + 14), ink.flame)
        else:  # out: the flame's outline only
            icon(d, "flame", (cx - 13, cy - 14, cx + 13, cy + 14), (150, 140, 150))
            icon(d, "flame", (cx - 8, cy - 6, cx + 8, cy + 12), ink.hearth)
    elif p.kind == "visitor":
        seat = str(p.value)
        v = next((x for x in b.visitors if x.seat == seat), None)
        _visitor(d, box, v, labels.get(seat, "?"), colours.get(seat, (200, 200, 200)), ink)
    elif p.kind == "spirit":
        d.ellipse((cx - 21, cy - 21, cx + 21, cy + 21), fill=ink.line)
        _spirit_pawn(d, (cx, cy - 1), 16)
    elif p.kind == "die":
        # Its number, not pips: several dice in a room are 18 px each at 400 px, where
        # pips were dots no one could count (stop 66's demo); the number is 14 px type.
        die(d, (x0 + 2, cy - 18, x0 + 38, cy + 18), int(p.value or 0), face=(245, 238, 228),
            pip=ink.pip, outline=ink.line, numeral=True)
    elif p.kind == "stoken":
        d.ellipse((cx - 20, cy - 20, cx + 20, cy + 20), fill=ink.spirit, outline=ink.line,
                  width=3)
        d.text((cx, cy), "S", font=_bold(), fill=(255, 255, 255), anchor="mm")
    elif p.kind == "ctoken":
        rounded_box(d, (cx - 19, cy - 19, cx + 19, cy + 19), 5, fill=ink.small,
                    outline=ink.line, width=3)
        d.text((cx, cy - 3), "s", font=_bold(), fill=(12, 10, 14), anchor="mm")
    elif p.kind == "drain":
        d.polygon([(cx, cy - 22), (cx + 21, cy), (cx, cy + 22), (cx - 21, cy)],
                  fill=ink.spirit, outline=ink.line, width=3)
        d.text((cx, cy), "D", font=_bold(), fill=(255, 255, 255), anchor="mm")
    elif p.kind == "stairs":
        dr, way = p.value
        _stairs_badge(d, box, dr, way, ink, text, floor)
    if p.marked:
        _marked(d, box, ink)


def _marked(d: ImageDraw.ImageDraw, box: Box, ink: Ink) -> None:
    """A changed piece's ring, `RING_OUT` past its box (in the piece's `RING_ROOM`)."""
    x0, y0, x1, y1 = box
    out = RING_OUT - 2
    _dashed_ring(d, (x0 - out, y0 - out, x1 + out, y1 + out), ink, width=4)


def _sealed(d: ImageDraw.ImageDraw, box: Box, r: RoomV, ink: Ink) -> None:
    x0, y0, x1, y1 = box
    rounded_box(d, box, 10, fill=ink.sealed, outline=ink.dark_edge, width=3)
    for ly in range(int(y0) + NAME_H + 14, int(y1) - 4, 14):
        d.line((x0 + 6, ly, x1 - 6, ly), fill=mix(ink.sealed, ink.mark, 0.12), width=2)
    fnt = _bold()
    d.text((x0 + PAD, y0 + PAD_Y), room_label(r.name, x1 - x0 - 2 * PAD), font=fnt,
           fill=ink.dark_text, anchor="la")
    d.text(((x0 + x1) / 2, (y0 + NAME_H + y1) / 2 + 4), "SEALED", font=fnt,
           fill=ink.dark_text, anchor="mm", stroke_width=4, stroke_fill=ink.sealed)


def _fill(r: RoomV, ink: Ink) -> Colour:
    if r.sealed:
        return ink.sealed
    return ink.lit if r.lit else ink.dark


def _background(width: int, height: int, floors: Sequence[tuple[str, float]], ink: Ink
                ) -> Image.Image:
    img = Image.new("RGB", (width, height), ink.bg)
    d = ImageDraw.Draw(img)
    for name, top in floors:
        d.text((0, top + HEAD / 2 - 2), name.upper(), font=_bold(), fill=ink.head, anchor="lm")
        tw = text_width(name.upper(), _bold())
        d.line((tw + 14, top + HEAD / 2, width, top + HEAD / 2), fill=mix(ink.bg, ink.head, 0.35),
               width=2)
    return img


def _laid_out(view: Mapping[str, Any]) -> tuple[Board, Changes, dict[str, str],
                                                dict[str, list[tuple[DoorV, str]]],
                                                list[DoorV], dict[str, list[Piece]]]:
    """The map's board read from `view`, what changed since the previous post, the pawns'
    labels, the stairs badges and walls' doors, and each open room's pieces."""
    b = _read(view)
    turn = view.get("turn")
    before_view = turn.get("before") if isinstance(turn, dict) else None
    before = _read(before_view) if isinstance(before_view, dict) else None
    ch = changes(b, before)
    labels = short_names(b)
    badges, walls = _stairs(b)
    pieces = {r.id: _pieces(r, b, labels, badges.get(r.id, []), ch) for r in b.rooms
              if not r.sealed}
    return b, ch, labels, badges, walls, pieces


def phone_map(view: Mapping[str, Any], width: int) -> Image.Image:
    """The manor as the public view shows it, ``width`` px wide (RGB), with what changed since
    ``view["turn"]["before"]`` marked."""
    ink = _ink(view)
    b, ch, labels, _badges, walls, pieces = _laid_out(view)
    colours = {s: (c if ink.seats else (200, 198, 194)) for s, c in b.seat_colour.items()}
    floors, height = _layout(b, width, pieces)
    if not floors:
        img = Image.new("RGB", (width, HEAD), ink.bg)
        ImageDraw.Draw(img).text((0, HEAD / 2), "THE MANOR", font=_bold(), fill=ink.head,
                                 anchor="lm")
        return img
    heads = tuple((f.name, f.top) for f in floors)
    img = cached_layer(("presence phone", width, height, heads, ink),
                       lambda: _background(width, height, heads, ink))
    d = ImageDraw.Draw(img)
    where: dict[str, Box] = {rid: c for f in floors for rid, c in f.cells.items()}
    rooms = {r.id: r for r in b.rooms}
    fnt = _bold()
    for r in b.rooms:
        box = where.get(r.id)
        if box is None:
            continue
        x0, y0, x1, y1 = box
        if r.sealed:
            _sealed(d, box, r, ink)
        else:
            fill, edge, text = ((ink.lit, ink.lit_edge, ink.lit_text) if r.lit
                                else (ink.dark, ink.dark_edge, ink.dark_text))
            rounded_box(d, box, 10, fill=fill, outline=edge, width=3)
            d.text((x0 + PAD, y0 + PAD_Y), room_label(r.name, x1 - x0 - 2 * PAD), font=fnt,
                   fill=text, anchor="la")
            y = y0 + PAD_Y + NAME_H
            rows = _flow(pieces.get(r.id, []), x1 - x0 - 2 * PAD)
            for row, dy in zip(rows, _row_tops(rows)[0], strict=True):
                x = x0 + PAD
                for p in row:
                    pbox: Box = (x + p.room, y + dy, x + p.room + p.width, y + dy + PIECE)
                    _draw_piece(d, p, pbox, b, labels, colours, ink, text, fill)
                    x += p.span + PIECE_GAP
        if r.id in ch.rooms:  # outside the room, in the wall, clear of its name
            _dashed_ring(d, (x0 - 4, y0 - 4, x1 + 4, y1 + 4), ink, width=5)
    for dr in walls:
        ba, bb = where.get(dr.a), where.get(dr.b)
        if ba is None or bb is None:
            continue
        fa, fb = (_fill(rooms[dr.a], ink), _fill(rooms[dr.b], ink))
        if abs(ba[1] - bb[1]) < 1:  # side by side: the wall runs top to bottom
            left, right = (ba, bb) if ba[0] < bb[0] else (bb, ba)
            mid = (left[1] + min(left[3], right[3])) / 2
            dbox: Box = (left[2] - 4, mid - DOOR_LEN / 2, right[0] + 4, mid + DOOR_LEN / 2)
            _door_glyph(d, dbox, dr, False, ink, (fa, fb) if ba is left else (fb, fa),
                        ink.head)
        else:
            top, bot = (ba, bb) if ba[1] < bb[1] else (bb, ba)
            mid = (top[0] + top[2]) / 2
            dbox = (mid - DOOR_LEN / 2, top[3] - 4, mid + DOOR_LEN / 2, bot[1] + 4)
            _door_glyph(d, dbox, dr, True, ink, (fa, fb) if ba is top else (fb, fa), ink.head)
        if _door_key(dr) in ch.doors:
            # wide of the glyph, so an open door still shows its gap inside the ring
            _dashed_ring(d, (dbox[0] - 10, dbox[1] - 10, dbox[2] + 10, dbox[3] + 10), ink,
                         width=4)
    return img


# --------------------------------------------------------------------------- legend

LEGEND: tuple[tuple[str, str], ...] = (
    ("moon", "dark room"), ("die", "presence die"), ("stoken", "spirit clue"),
    ("ctoken", "clue token"), ("drain", "drain marker"), ("stairs", "stairs up/down"),
    ("fire", "fireplace"), ("fire_out", "fire out"), ("spirit", "spirit pawn"),
    ("star", "changed"),
    ("left", "was here"), ("doors", "doors"),
    ("candle", "candle lit"), ("out", "knocked out"), ("skull", "succumbed"),
)
"""The map's small glyphs in words, in this order: a phone reader cannot hover over them
(stop 63's and 64's demos asked what the S, s, D and ▲ were; stop 65's which bar was a closed
door, and whether the flame on a pawn was the fireplace; stop 66's what the hollow flame of
a fireplace out was)."""

DOOR_STATES: tuple[str, ...] = ("open", "closed", "locked")
"""A door as the map draws it: a gap between two jambs, a bar with a cross-tick, a bar with a
padlock. One key entry says each state the map draws, its glyph before its word (stop 67: an
open stairs door's "| |" had no key, and a row of its own made the card too tall)."""


def _door_state(dr: DoorV) -> str:
    return "open" if dr.open else ("locked" if dr.locked else "closed")


def _door_states(walls: Sequence[DoorV], pieces: Mapping[str, Sequence[Piece]]) -> list[str]:
    """The states of the doors the map draws (on a wall, or as a stairs or passage badge in a
    room that is not sealed), in `DOOR_STATES` order."""
    drawn = {_door_state(dr) for dr in walls}
    drawn |= {_door_state(p.value[0]) for room in pieces.values() for p in room
              if p.kind == "stairs"}
    return [s for s in DOOR_STATES if s in drawn]


def legend_items(view: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(glyph kind, its words) for each glyph of `LEGEND` this view's map draws: the rooms'
    pieces, the doors (one entry: "doors: open, closed" for the states drawn) and the marks
    on the visitors' pawns."""
    return _legend(view)[0]


def _legend(view: Mapping[str, Any]) -> tuple[list[tuple[str, str]], list[str]]:
    """`legend_items` and the door states the map draws."""
    b, _ch, _labels, _badges, walls, pieces = _laid_out(view)
    shown = {"fire_out" if p.kind == "fire" and not p.value else p.kind
             for room in pieces.values() for p in room}
    states = _door_states(walls, pieces)
    if states:
        shown.add("doors")
    for v in b.visitors:
        if v.succumbed:
            shown.add("skull")
        elif v.knocked_out:
            shown.add("out")
        elif v.candle_lit:
            shown.add("candle")
    return [(kind, f"{word}: {', '.join(states)}" if kind == "doors" else word)
            for kind, word in LEGEND if kind in shown], states


def phone_legend(view: Mapping[str, Any], width: int) -> Image.Image | None:
    """A key to the glyphs this map shows (only those), drawn below it on the turn card, or
    None when it shows none of them."""
    ink = _ink(view)
    b = _read(view)
    labels = short_names(b)
    items, states = _legend(view)
    if not items:
        return None
    fnt = _bold()
    # "▲▼" is 43 px wide: in 40 it touched its word, read "aystairs" at 400 px (stop 68)
    glyph_w = {"stairs": 52, "spirit": 44, "star": 40, "left": 44, "candle": 46, "out": 46,
               "skull": 46}
    widths = [_doors_width(states, fnt) if kind == "doors"
              else glyph_w.get(kind, 42) + 8 + text_width(word, fnt) for kind, word in items]
    rows = pack_rows(widths, width)
    row_h = PIECE + 8
    img = Image.new("RGB", (width, len(rows) * row_h), ink.bg)
    d = ImageDraw.Draw(img)
    text = ink.head
    for n, row in enumerate(rows):
        x, y = 0.0, n * row_h + 4
        for k in row:
            kind, word = items[k]
            if kind == "doors":
                _draw_doors_key(d, (x, y), states, fnt, ink)
                x += widths[k] + 24
                continue
            gw = glyph_w.get(kind, 42)
            box: Box = (x, y, x + gw, y + PIECE)
            if kind == "stairs":
                d.text((x + gw / 2, y + PIECE / 2), "▲▼", font=fnt, fill=text, anchor="mm")
            elif kind == "left":
                _dashes(d, box, text, 3)
            elif kind == "star":
                _star_badge(d, (x + gw / 2, y + PIECE / 2), ink)
            elif kind in ("candle", "out", "skull"):
                # a pawn's mark on a blank pawn, as the map draws it on a visitor's
                pawn = replace(b.visitors[0], candle_lit=kind == "candle",
                               knocked_out=kind == "out", succumbed=kind == "skull")
                _visitor(d, (x + 2, y + 8, x + gw - 2, y + PIECE - 4), pawn, "",
                         (150, 150, 160), ink)
            else:
                value = {"die": 3, "fire": True, "fire_out": False}.get(kind)
                _draw_piece(d, Piece("fire" if kind == "fire_out" else kind, gw, value), box, b,
                            labels, {}, ink, text, ink.bg)
            d.text((x + gw + 8, y + PIECE / 2), word, font=fnt, fill=text, anchor="lm")
            x += widths[k] + 24
    return img


DOOR_GLYPH_W = 38
DOOR_WORD_GAP = 20
"""Between a door's glyph and its word in the key: an open door's right jamb is a bar, and at
10 px tesseract read it into the word ("lopen", stop 68's demo), as a hurried eye might."""


def _doors_width(states: Sequence[str], fnt: Any) -> float:
    return (sum(DOOR_GLYPH_W + DOOR_WORD_GAP + text_width(s, fnt) for s in states)
            + 12 * (len(states) - 1))


def _draw_doors_key(d: ImageDraw.ImageDraw, at: tuple[float, float], states: Sequence[str],
                    fnt: Any, ink: Ink) -> None:
    """Each door state the map draws, its glyph before its word ("open", "closed", "locked"),
    the glyph as a stairs badge in a dark room draws it (on the floor, where ticks and jambs
    show). No "doors:" before them: it took the key a row more on stop 67's seeds."""
    x, y = at
    mid = y + PIECE / 2
    for n, state in enumerate(states):
        x += 12 if n else 0
        rounded_box(d, (x, y + 2, x + DOOR_GLYPH_W, y + PIECE - 2), 6, fill=ink.dark)
        door = DoorV(id="", a="", b="", open=state == "open", locked=state == "locked",
                     stairs=True)
        _door_glyph(d, (x + 5, y + 8, x + DOOR_GLYPH_W - 5, y + PIECE - 8), door, True, ink,
                    (ink.dark, ink.dark), ink.dark_text)
        x += DOOR_GLYPH_W + DOOR_WORD_GAP
        d.text((x, mid), state, font=fnt, fill=ink.head, anchor="lm")
        x += text_width(state, fnt)
