"""Board picture for The Presence: ``render_board(view) -> PNG``.

Draws only from a view dict (``GAME.view(state, seat)``, keys documented in
``rules/presence/view.py``), never from the engine's state. The public view gives the channel
picture. A seat's own view that carries ``spirit_private`` (the spirit) or ``hand`` (a visitor)
also gets a private strip along the bottom, so that picture is taller; nothing else in a view
changes the layout. A missing or malformed key draws as empty rather than raising (``_read``
turns the dict into typed records first). ``view["names"]`` ({seat: display name}, added by
the bot) puts the players' names beside their characters.

Layout (1600 x 1000, plus a 290 px strip for a private view: the spirit's script, secrets
with positions, clue identities by room and hand; or a visitor's hand):

- top bar: title, round / final round, phase, whose turn and main actions left, the result;
- left: the manor by floor (Upper floor, Ground floor, Basement), rooms on their printed
  grid. A room is warm when lit and cold blue when dark; it shows its name, a flame for the
  fireplace (lit or out), visitor pawns (seat colour, candle flame when lit, grey and crossed
  when knocked out, black when succumbed), the spirit pawn (white ghost), presence dice with
  their number, face-down spirit clues (violet "S") and small clues (grey "s"), drains and stairs.
  Doors sit on the shared wall, told apart by shape (issue #22): open (a gap, a jamb at each
  end), closed (a wooden bar with a cross-tick), locked (a red bar with a padlock); stairs
  doors are chips inside both rooms, a closed one marked "✕". A legend sits
  in the first free top-right corner of a floor. In the spirit's own picture its face-down
  clues carry the first letters of their names;
- under the manor: the spirit (player, counts, pawn, drains, scripts on display / the
  revealed script) and the clue / item decks, the supply, the Cellar and revealed clues;
- right: the Hope Track (time over the rounds with the spirit-clue rounds marked, hope and
  nerve bars), the secret board (four secrets face down or revealed with trauma, tier and
  matching count, the clue discards beneath each), one panel per visitor (player, room,
  fear track, candle, status, fear cards, items, hand / deck counts);
- bottom bar: who is alone and whether table talk is allowed, then the pending prompt.

The background and panel frames are a static layer built once per size and manor shape
(``renders.common.cached_layer``); the PNG is palette-quantised (``encode_png``).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from PIL import Image, ImageDraw

from renders.common import (
    SEAT_COLOURS,
    Box,
    Colour,
    cached_tall_layer,
    chip,
    die,
    disc,
    distinct_initials,
    draw_text,
    draw_text_in_box,
    ellipsize,
    encode_png,
    fit_font,
    font,
    icon,
    memo_region,
    mix,
    note_truncation,
    pick_fitting,
    rounded_box,
    text_width,
    truncations,
    try_fit_lines,
    wrap,
)

__all__ = ["HEIGHT", "STRIP_HEIGHT", "WIDTH", "render_board", "render_image"]

WIDTH = 1600
DIE = 40
"""A presence die's face, px (at full size in a room): it shows its number, never pips, large
enough to read with the board scaled to a phone's 400 px (stop 67; the phone map did, stop 66,
while the board's 26 px pips were dots there)."""
NUMERAL = 0.95  # the number's type, a share of the face: 0.8 read 5s as 3s at 400 px
HEIGHT = 1000
STRIP_HEIGHT = 290
MAX_BYTES = 300_000

# --------------------------------------------------------------------------- palette

BG: Colour = (16, 14, 22)
BAR: Colour = (30, 24, 40)
PANEL: Colour = (32, 27, 42)
PANEL_EDGE: Colour = (86, 74, 104)
SLOT: Colour = (24, 20, 32)
TEXT: Colour = (244, 238, 226)
MUTED: Colour = (186, 176, 198)
DIM: Colour = (122, 112, 134)
GOLD: Colour = (240, 196, 84)
ROOM_LIT: Colour = (96, 74, 46)
ROOM_LIT_EDGE: Colour = (214, 170, 96)
ROOM_DARK: Colour = (30, 36, 58)
ROOM_DARK_EDGE: Colour = (78, 92, 130)
FLOOR_FRAME: Colour = (44, 38, 56)
WOOD: Colour = (150, 102, 58)
LOCK_RED: Colour = (214, 72, 72)
FLAME: Colour = (255, 170, 60)
FLAME_OUT: Colour = (110, 100, 110)
SPIRIT: Colour = (196, 160, 255)
SPIRIT_TOKEN: Colour = (88, 52, 140)
SMALL_TOKEN: Colour = (92, 92, 104)
HOPE: Colour = (250, 210, 90)
NERVE: Colour = (232, 96, 96)
TIME: Colour = (140, 200, 250)
GOOD: Colour = (120, 210, 130)
BAD: Colour = (236, 100, 100)
GHOST: Colour = (236, 236, 250)
STRIP_BG: Colour = (22, 18, 30)

TRAUMA_COLOUR: dict[str, Colour] = {
    "betrayal": (120, 200, 120),
    "tragedy": (110, 160, 240),
    "suffering": (232, 110, 100),
    "death": (190, 190, 204),
}
TRAUMA_ICON = {"betrayal": "eye", "tragedy": "moon", "suffering": "bolt", "death": "skull"}

# --------------------------------------------------------------------------- geometry

MARGIN = 16
TOP_BAR = 56
BOTTOM_BAR = 62
MANOR_X0 = MARGIN
MANOR_X1 = 880
MANOR_Y0 = TOP_BAR + 8
MANOR_Y1 = 756
FLOOR_HEAD = 0
FLOOR_LABEL_W = 30
CELL_GAP = 18
LOWER_Y0 = MANOR_Y1 + 8
LOWER_Y1 = HEIGHT - BOTTOM_BAR - 6
RIGHT_X0 = MANOR_X1 + 12
RIGHT_X1 = WIDTH - MARGIN
TRACK_BOX: Box = (RIGHT_X0, TOP_BAR + 8, RIGHT_X1, TOP_BAR + 150)
SECRET_BOX: Box = (RIGHT_X0, TOP_BAR + 158, RIGHT_X1, TOP_BAR + 440)
VISITOR_BOX: Box = (RIGHT_X0, TOP_BAR + 448, RIGHT_X1, LOWER_Y1)
SPIRIT_X1 = 440


def _lower_boxes(manor_bottom: float) -> tuple[Box, Box]:
    """The spirit panel and the decks / clues panel under the manor (they take what the
    manor leaves: a 3-player manor has no Upper floor)."""
    y0 = min(float(LOWER_Y0), manor_bottom + 10)
    return (MANOR_X0, y0, SPIRIT_X1, LOWER_Y1), (SPIRIT_X1 + 8, y0, MANOR_X1, LOWER_Y1)


# --------------------------------------------------------------------------- records


@dataclass
class RoomV:
    id: str
    name: str
    floor: int
    x: int
    y: int
    lit: bool
    fireplace: bool
    fireplace_lit: bool
    spirit_tokens: int
    spirit_names: list[str]
    small_tokens: int
    dice: list[int]
    visitors: list[str]
    pawn: bool
    drains: list[str]
    sealed: bool = False
    """The Secret Chamber before its passage is found (P-CHAMBER-03)."""


@dataclass
class DoorV:
    id: str
    a: str
    b: str
    open: bool
    locked: bool
    stairs: bool
    passage: bool = False
    """The Secret Chamber's passage token (P-CHAMBER-06)."""


@dataclass
class CardV:
    name: str
    kind: str = "clue"
    trauma: str = ""
    text: str = ""


@dataclass
class SecretV:
    position: int
    in_deck: int
    remove: int
    revealed: bool
    name: str
    trauma: str
    tier: str
    matching: int | None
    discards: list[CardV]
    discard_count: int


@dataclass
class VisitorV:
    seat: str
    label: str
    name: str
    player: str
    room_name: str
    fear: int
    fear_track: int
    candle_lit: bool
    knocked_out: bool
    succumbed: bool
    alone: bool
    hand_count: int
    deck_count: int
    discard_count: int
    items: list[str]
    fear_cards: list[CardV]
    bonded: bool
    active: bool
    colour: Colour


@dataclass
class Board:
    round: int = 1
    final_round: int = 9
    phase: str = ""
    over: bool = False
    result_reason: str = ""
    winners: list[str] = field(default_factory=list)
    active_label: str = ""
    active_seat: str = ""
    actions_left: int = 0
    waiting: list[str] = field(default_factory=list)
    rooms: list[RoomV] = field(default_factory=list)
    floors: list[tuple[int, str]] = field(default_factory=list)
    doors: list[DoorV] = field(default_factory=list)
    time: int = 0
    hope: int | None = None
    nerve: int | None = None
    spaces: int = 12
    even_rounds: list[int] = field(default_factory=list)
    side: str = ""
    display_scripts: list[tuple[str, str]] = field(default_factory=list)
    script_revealed: bool = False
    script: dict[str, str] = field(default_factory=dict)
    secrets: list[SecretV] = field(default_factory=list)
    low_max: int | None = None
    high_min: int | None = None
    low_max_at: list[int] = field(default_factory=list)
    """The low tier per position (A-66: a position may have its own)."""
    clue_deck: int = 0
    clue_revealed: list[CardV] = field(default_factory=list)
    clue_trash: int = 0
    item_deck: int = 0
    cellar: list[str] = field(default_factory=list)
    supply: int = 0
    visitors: list[VisitorV] = field(default_factory=list)
    spirit_seat: str = ""
    spirit_name: str = ""
    spirit_player: str = ""
    spirit_hand: int = 0
    spirit_deck: int = 0
    spirit_discard: int = 0
    pawn_room: str = ""
    pawn_actions: int = 0
    drains: list[tuple[str, str]] = field(default_factory=list)
    talk_allowed: bool = True
    alone_labels: list[str] = field(default_factory=list)
    talk_why: str = ""
    prompt: str = ""
    log: list[str] = field(default_factory=list)
    names: dict[str, str] = field(default_factory=dict)
    seat_colour: dict[str, Colour] = field(default_factory=dict)
    seat_initials: dict[str, str] = field(default_factory=dict)
    # private
    private_role: str = ""  # "spirit" | "visitor" | ""
    viewer: str = ""
    hand: list[dict[str, Any]] = field(default_factory=list)
    spirit_private: dict[str, Any] = field(default_factory=dict)
    inspected: list[str] = field(default_factory=list)
    # variants (P-MYST, P-UNK, P-DARK, P-CHAMBER)
    variants: list[str] = field(default_factory=list)
    mystery: bool = False
    chamber_cards: int | None = None
    spirit_speech: int = 0
    """Words the spirit may speak now (P-DISCORD-08); 0 = none."""


def _i(value: Any, default: int = 0) -> int:
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


def _oi(value: Any) -> int | None:
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def _s(value: Any, default: str = "") -> str:
    return value if isinstance(value, str) else (default if value is None else str(value))


def _d(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _l(value: Any) -> list[Any]:
    return list(value) if isinstance(value, list | tuple) else []


def _names_of(items: Any) -> list[str]:
    out: list[str] = []
    for it in _l(items):
        if isinstance(it, dict):
            out.append(_s(it.get("name"), "?"))
        elif it is not None:
            out.append(_s(it))
    return out


def _card(item: Any) -> CardV:
    c = _d(item)
    return CardV(
        name=_s(c.get("name"), "?"),
        kind=_s(c.get("kind"), "clue"),
        trauma=_s(c.get("trauma")),
        text=_s(c.get("text")),
    )


def _initials(name: str) -> str:
    words = [w for w in name.replace("(", " ").split() if w.lower() not in ("the", "of")]
    if not words:
        return "?"
    if len(words) == 1:
        return words[0][:2].capitalize()
    return (words[0][0] + words[1][0]).upper()


def _read(view: Mapping[str, Any]) -> Board:
    b = Board()
    b.round = _i(view.get("round"), 1)
    b.final_round = max(1, _i(view.get("final_round"), 9))
    b.phase = _s(view.get("phase"))
    b.over = bool(view.get("over"))
    res = _d(view.get("result"))
    b.result_reason = _s(res.get("reason"))
    b.winners = [_s(w) for w in _l(res.get("winners"))]
    b.active_label = _s(view.get("active_label"))
    b.active_seat = _s(view.get("active_seat"))
    b.actions_left = _i(view.get("actions_left"))
    b.waiting = [_s(w) for w in _l(view.get("waiting_labels"))]
    names = _d(view.get("names"))
    b.names = {_s(k): _s(v) for k, v in names.items()}
    # P-2P: both character slots of the visitor player show that player's name
    for slot, seat in _d(_d(view.get("presets")).get("controller")).items():
        if _s(seat) in b.names:
            b.names.setdefault(_s(slot), b.names[_s(seat)])

    for i, v in enumerate(_l(view.get("visitors"))):
        v = _d(v)
        seat = _s(v.get("seat"), f"v{i}")
        name = _s(v.get("name")) or _s(v.get("label")) or seat
        colour = SEAT_COLOURS[i % len(SEAT_COLOURS)]
        b.seat_colour[seat] = colour
        b.seat_initials[seat] = _initials(name)
        b.visitors.append(VisitorV(
            seat=seat, label=_s(v.get("label")), name=name, player=b.names.get(seat, ""),
            room_name=_s(v.get("room_name")), fear=_i(v.get("fear")),
            fear_track=max(0, min(12, _i(v.get("fear_track"), 5))),
            candle_lit=bool(v.get("candle_lit")), knocked_out=bool(v.get("knocked_out")),
            succumbed=bool(v.get("succumbed")), alone=bool(v.get("alone")),
            hand_count=_i(v.get("hand_count")), deck_count=_i(v.get("deck_count")),
            discard_count=len(_l(v.get("discard"))), items=_names_of(v.get("items")),
            fear_cards=[_card(c) for c in _l(v.get("fear_cards"))],
            bonded=bool(v.get("bonded")), active=bool(v.get("active")), colour=colour))

    # Two characters never share a pawn label (The Descendant Ds, The Detective Dt).
    distinct = distinct_initials([v.name for v in b.visitors], _initials)
    for v in b.visitors:
        b.seat_initials[v.seat] = distinct.get(v.name, b.seat_initials[v.seat])
    for r in _l(view.get("rooms")):
        r = _d(r)
        toks = [_s(_d(t).get("kind")) for t in _l(r.get("tokens"))]
        b.rooms.append(RoomV(
            id=_s(r.get("id")), name=_s(r.get("name"), "?"), floor=_i(r.get("floor")),
            x=max(0, min(6, _i(r.get("x")))), y=max(0, min(6, _i(r.get("y")))),
            lit=bool(r.get("lit")), fireplace=bool(r.get("fireplace")),
            fireplace_lit=bool(r.get("fireplace_lit")),
            spirit_tokens=sum(1 for t in toks if t == "spirit"), spirit_names=[],
            small_tokens=sum(1 for t in toks if t != "spirit"),
            dice=[_i(_d(x).get("value")) for x in _l(r.get("dice"))],
            visitors=[_s(s) for s in _l(r.get("visitors"))], pawn=bool(r.get("pawn")),
            drains=[_s(x) for x in _l(r.get("drains"))]))
    for f in _l(view.get("floors")):
        f = _d(f)
        b.floors.append((_i(f.get("level")), _s(f.get("name"), "Floor")))
    for dr in _l(view.get("doors")):
        dr = _d(dr)
        rooms = [_s(x) for x in _l(dr.get("rooms"))]
        if len(rooms) != 2:
            continue
        b.doors.append(DoorV(id=_s(dr.get("id")), a=rooms[0], b=rooms[1],
                             open=bool(dr.get("open")), locked=bool(dr.get("locked")),
                             stairs=bool(dr.get("stairs")), passage=bool(dr.get("passage"))))
    var = _d(view.get("variants"))
    b.variants = [label for key, label in (
        ("dark_board", "Dark Board"), ("secret_chamber", "Secret Chamber"),
        ("mystery", "Mystery Mode"), ("unknown_threat", "Unknown Threat")) if var.get(key)]
    pre = _d(view.get("presets"))  # P-2P, P-FIRST, P-OPEN, P-HORROR
    b.variants += [label for key, label in (
        ("two_players", "Two players"), ("first_game", "First game"),
        ("open_communication", "Open Communication"), ("true_horror", "True Horror"))
        if pre.get(key)]
    grant = pre.get("speech_grant")
    if isinstance(grant, dict):  # P-DISCORD-08: shown with the talk line
        b.spirit_speech = _i(grant.get("max_words"))
    b.mystery = bool(var.get("mystery"))
    ch = view.get("chamber")
    if isinstance(ch, dict):
        b.chamber_cards = _i(ch.get("cards"))
        for room in b.rooms:
            room.sealed = room.id == _s(ch.get("room")) and not ch.get("passage_room")

    t = _d(view.get("track"))
    b.time = _i(t.get("time"))
    b.hope = _oi(t.get("hope"))
    b.nerve = _oi(t.get("nerve"))
    b.spaces = max(1, min(30, _i(t.get("spaces"), 12)))
    b.even_rounds = [_i(x) for x in _l(t.get("even_rounds"))]
    b.side = _s(t.get("side"))

    sc = _d(view.get("scripts"))
    for s in _l(sc.get("display")):
        s = _d(s)
        b.display_scripts.append((_s(s.get("name"), "?"), _s(s.get("type"))))
    b.script_revealed = bool(sc.get("revealed"))
    b.script = {k: _s(v) for k, v in _d(sc.get("script")).items()}

    for s in _l(view.get("secrets")):
        s = _d(s)
        disc_cards = [_card(c) for c in _l(s.get("discards"))]
        b.secrets.append(SecretV(
            position=_i(s.get("position")), in_deck=_i(s.get("in_deck")),
            remove=_i(s.get("remove")), revealed=bool(s.get("revealed")),
            name=_s(s.get("name")), trauma=_s(s.get("trauma")), tier=_s(s.get("tier")),
            matching=_oi(s.get("matching")), discards=disc_cards,
            discard_count=max(len(disc_cards), _i(s.get("discard_count")))))
    sb = _d(view.get("secret_board"))
    b.low_max = _oi(sb.get("low_max"))
    b.high_min = _oi(sb.get("high_min"))
    b.low_max_at = [_i(x) for x in _l(sb.get("low_max_at"))]
    b.clue_deck = _i(view.get("clue_deck"))
    b.clue_revealed = [_card(c) for c in _l(view.get("clue_revealed"))]
    b.clue_trash = _i(view.get("clue_trash"))
    b.item_deck = _i(view.get("item_deck"))
    b.cellar = _names_of(view.get("cellar"))
    b.supply = _i(view.get("supply"))

    sp = _d(view.get("spirit"))
    b.spirit_seat = _s(sp.get("seat"))
    b.spirit_name = _s(sp.get("name")) or "Spirit"
    b.spirit_player = b.names.get(b.spirit_seat, "")
    b.spirit_hand = _i(sp.get("hand_count"))
    b.spirit_deck = _i(sp.get("deck_count"))
    b.spirit_discard = _i(sp.get("discard_count"))
    b.pawn_actions = _i(sp.get("pawn_actions"))
    room_names = {r.id: r.name for r in b.rooms}
    b.pawn_room = room_names.get(_s(sp.get("pawn_room")), _s(sp.get("pawn_room")))
    for dr in _l(sp.get("drains")):
        dr = _d(dr)
        b.drains.append((_s(dr.get("name"), "?"),
                         room_names.get(_s(dr.get("room")), _s(dr.get("room")))))

    tt = _d(view.get("table_talk"))
    b.talk_allowed = bool(tt.get("allowed", True))
    b.alone_labels = [_s(x) for x in _l(tt.get("alone_labels"))]
    alone_seats = [_s(x) for x in _l(tt.get("alone"))]
    if alone_seats and len(alone_seats) == len(b.alone_labels):
        b.alone_labels = [
            f"{lab} ({b.names[s]})" if b.names.get(s) else lab
            for s, lab in zip(alone_seats, b.alone_labels, strict=True)
        ]
    b.talk_why = _s(tt.get("why"))
    pr = _d(view.get("prompt"))
    b.prompt = _s(pr.get("text"))
    b.log = [_s(x) for x in _l(view.get("log"))]

    sprv = view.get("spirit_private")
    hand = view.get("hand")
    if isinstance(sprv, dict):
        b.private_role = "spirit"
        b.spirit_private = sprv
    elif isinstance(hand, list):
        b.private_role = "visitor"
        b.hand = [_d(c) for c in hand]
    if b.private_role == "spirit":
        names_by_room = _d(b.spirit_private.get("tokens"))
        for room in b.rooms:
            room.spirit_names = [_s(x) for x in _l(names_by_room.get(room.id))]
    if b.private_role:
        b.viewer = _s(view.get("seat"))
        b.inspected = [_s(x) for x in _l(view.get("inspected"))]
    return b


# --------------------------------------------------------------------------- manor geometry


@dataclass
class FloorLayout:
    level: int
    name: str
    box: Box
    cells: dict[str, Box]


def _manor_layout(b: Board) -> list[FloorLayout]:
    by_floor: dict[int, list[RoomV]] = {}
    for r in b.rooms:
        by_floor.setdefault(r.floor, []).append(r)
    order = [lvl for lvl, _ in b.floors if lvl in by_floor]
    order += sorted((lvl for lvl in by_floor if lvl not in order), reverse=True)
    names = dict(b.floors)
    if not order:
        return []
    ncols = max(r.x for r in b.rooms) + 1
    spans: dict[int, tuple[int, int]] = {}
    for lvl in order:
        ys = [r.y for r in by_floor[lvl]]
        spans[lvl] = (min(ys), max(ys))
    total_rows = sum(hi - lo + 1 for lo, hi in spans.values())
    avail = (MANOR_Y1 - MANOR_Y0 - len(order) * (FLOOR_HEAD + 16)
             - (total_rows - len(order)) * CELL_GAP - (len(order) - 1) * 10)
    row_h = min(175.0, avail / max(1, total_rows))
    inner_w = MANOR_X1 - MANOR_X0 - 16 - FLOOR_LABEL_W
    col_w = (inner_w - (ncols - 1) * CELL_GAP) / ncols
    out: list[FloorLayout] = []
    y = float(MANOR_Y0)
    for lvl in order:
        lo, hi = spans[lvl]
        rows = hi - lo + 1
        h = FLOOR_HEAD + rows * row_h + (rows - 1) * CELL_GAP + 16
        box: Box = (MANOR_X0, y, MANOR_X1, y + h)
        cells: dict[str, Box] = {}
        for r in by_floor[lvl]:
            cx0 = MANOR_X0 + 8 + FLOOR_LABEL_W + r.x * (col_w + CELL_GAP)
            cy0 = y + FLOOR_HEAD + 8 + (r.y - lo) * (row_h + CELL_GAP)
            cells[r.id] = (cx0, cy0, cx0 + col_w, cy0 + row_h)
        out.append(FloorLayout(lvl, names.get(lvl, f"Floor {lvl}"), box, cells))
        y += h + 10
    return out


def _panel(d: ImageDraw.ImageDraw, box: Box, title: str) -> None:
    rounded_box(d, box, 12, fill=PANEL, outline=PANEL_EDGE, width=2)
    if title:
        draw_text(d, (box[0] + 12, box[1] + 8), title, font(19, True), GOLD)


def _vertical_label(img: Image.Image, box: Box, name: str) -> None:
    """The floor's name written bottom-to-top in the frame's left margin."""
    h = int(box[3] - box[1] - 12)
    if h <= 20:
        return
    fnt = fit_font(name, h, 18, min_size=11, bold=True)
    label = Image.new("RGB", (h, FLOOR_LABEL_W - 4), FLOOR_FRAME)
    ImageDraw.Draw(label).text((h / 2, (FLOOR_LABEL_W - 4) / 2), name, font=fnt, fill=MUTED,
                               anchor="mm")
    img.paste(label.rotate(90, expand=True), (int(box[0] + 6), int(box[1] + 6)))


def _static_layer(height: int, floors: Sequence[tuple[str, Box]]) -> Image.Image:
    img = Image.new("RGB", (WIDTH, height), BG)
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, WIDTH, TOP_BAR), fill=BAR)
    d.rectangle((0, HEIGHT - BOTTOM_BAR, WIDTH, HEIGHT), fill=BAR)
    for name, box in floors:
        rounded_box(d, box, 12, fill=FLOOR_FRAME, outline=PANEL_EDGE, width=2)
        _vertical_label(img, box, name)
    _panel(d, TRACK_BOX, "Hope Track")
    _panel(d, SECRET_BOX, "Secret board")
    _panel(d, VISITOR_BOX, "")
    spirit_box, clues_box = _lower_boxes(max((f[1][3] for f in floors), default=MANOR_Y0))
    _panel(d, spirit_box, "")
    _panel(d, clues_box, "")
    if height > HEIGHT:
        _extend_layer(img)
    return img


def _extend_layer(img: Image.Image) -> None:
    """The private strip's ground below the public board (the public board's layer cut to
    a seat's height, or a layer built that tall)."""
    d = ImageDraw.Draw(img)
    d.rectangle((0, HEIGHT, WIDTH, img.height), fill=STRIP_BG)
    d.line((0, HEIGHT + 1, WIDTH, HEIGHT + 1), fill=GOLD, width=2)


# --------------------------------------------------------------------------- pieces


def _visitor_pawn(d: ImageDraw.ImageDraw, c: tuple[float, float], r: float, v: VisitorV | None,
                  seat: str, b: Board) -> None:
    colour = b.seat_colour.get(seat, (200, 200, 200))
    label = b.seat_initials.get(seat, "?")
    if v is not None and v.succumbed:
        disc(d, c, r, (20, 16, 24), outline=colour, width=3)
        icon(d, "skull", (c[0] - r * 0.6, c[1] - r * 0.6, c[0] + r * 0.6, c[1] + r * 0.6),
             (220, 220, 230), back=(20, 16, 24))
        return
    if v is not None and v.knocked_out:
        grey = mix(colour, (90, 90, 96), 0.7)
        disc(d, c, r, grey, outline=(40, 40, 44), width=2, label=label, label_fill=(30, 30, 34))
        k = r * 0.75
        d.line((c[0] - k, c[1] - k, c[0] + k, c[1] + k), fill=LOCK_RED, width=3)
        d.line((c[0] - k, c[1] + k, c[0] + k, c[1] - k), fill=LOCK_RED, width=3)
        return
    disc(d, c, r, colour, outline=(12, 10, 16), width=2, label=label)
    if v is not None and v.candle_lit:
        s = r * 0.9
        fx, fy = c[0] + r * 0.6, c[1] - r * 1.15
        icon(d, "flame", (fx, fy, fx + s, fy + s), FLAME)


def _spirit_pawn(d: ImageDraw.ImageDraw, c: tuple[float, float], r: float) -> None:
    cx, cy = c
    d.ellipse((cx - r, cy - r * 1.05, cx + r, cy + r * 0.6), fill=GHOST)
    d.rectangle((cx - r, cy - r * 0.2, cx + r, cy + r * 0.75), fill=GHOST)
    w = 2 * r / 3
    for k in range(3):
        x0 = cx - r + k * w
        d.polygon([(x0, cy + r * 0.75), (x0 + w, cy + r * 0.75), (x0 + w / 2, cy + r * 1.05)],
                  fill=GHOST)
    d.ellipse((cx - r * 0.45, cy - r * 0.45, cx - r * 0.1, cy - r * 0.05), fill=(20, 16, 30))
    d.ellipse((cx + r * 0.1, cy - r * 0.45, cx + r * 0.45, cy - r * 0.05), fill=(20, 16, 30))


def _token(d: ImageDraw.ImageDraw, c: tuple[float, float], r: float, spirit: bool,
           label: str = "S") -> None:
    if spirit:
        disc(d, c, r, SPIRIT_TOKEN, outline=SPIRIT, width=2, label=label, label_fill=TEXT)
    else:
        disc(d, c, r * 0.8, SMALL_TOKEN, outline=(170, 170, 180), width=2, label="s",
             label_fill=TEXT)


def _door_glyph(d: ImageDraw.ImageDraw, img: Image.Image, box: Box, door: DoorV,
                vertical: bool, floor_fill: Colour) -> None:
    """A door on the wall ``box`` spans, told apart by shape as well as colour (issue #22: a
    red-green colour-blind player saw open and closed doors alike): open is a gap, the wall
    broken with a jamb at each end; closed a wooden bar with a dark cross-tick through it;
    locked a red bar with a padlock."""
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    if door.open:
        d.rectangle(box, fill=floor_fill)
        edge = mix(GOOD, (20, 14, 10), 0.35)
        if vertical:
            d.line((x0, y0, x1, y0), fill=edge, width=5)
            d.line((x0, y1, x1, y1), fill=edge, width=5)
        else:
            d.line((x0, y0, x0, y1), fill=edge, width=5)
            d.line((x1, y0, x1, y1), fill=edge, width=5)
        return
    colour = LOCK_RED if door.locked else WOOD
    # a bar lying along the wall, narrower than the gap a open door leaves
    bar: Box = (x0, cy - 8, x1, cy + 8) if vertical else (cx - 8, y0, cx + 8, y1)
    rounded_box(d, bar, 3, fill=colour, outline=(20, 14, 10), width=2)
    if door.locked:
        s = 22
        rounded_box(d, (cx - s / 2 - 3, cy - s / 2 - 3, cx + s / 2 + 3, cy + s / 2 + 3), 5,
                    fill=(20, 14, 10))
        icon(d, "lock", (cx - s / 2, cy - s / 2, cx + s / 2, cy + s / 2), (250, 220, 120),
             back=(20, 14, 10))
        return
    if vertical:  # the cross-tick, through the bar and into both rooms
        d.line((cx, y0 - 4, cx, y1 + 4), fill=(20, 14, 10), width=5)
    else:
        d.line((x0 - 4, cy, x1 + 4, cy), fill=(20, 14, 10), width=5)


def _door_state(door: DoorV) -> str:
    return "locked" if door.locked else ("open" if door.open else "closed")


def _small_chip(d: ImageDraw.ImageDraw, x: float, y: float, text: str, fill: Colour,
                max_w: float, size: int = 15) -> float:
    pad = 6
    fnt = fit_font(text, max_w - 2 * pad, size, min_size=min(size, 11), bold=True)
    if text_width(text, fnt) + 2 * pad > max_w:
        text = ellipsize(text, fnt, max_w - 2 * pad)
    return chip(d, (x, y), text, fnt, fill, pad=pad, height=size + 8)


def _draw_room(img: Image.Image, d: ImageDraw.ImageDraw, box: Box, r: RoomV, b: Board,
               stairs: list[tuple[DoorV, str]]) -> None:
    x0, y0, x1, y1 = box
    fill = ROOM_LIT if r.lit else ROOM_DARK
    edge = ROOM_LIT_EDGE if r.lit else ROOM_DARK_EDGE
    if r.sealed:  # P-CHAMBER-03: bricked up until the passage is found
        rounded_box(d, box, 10, fill=(30, 26, 34), outline=(90, 80, 100), width=3)
        for ly in range(int(y0) + 40, int(y1) - 4, 14):
            d.line((x0 + 6, ly, x1 - 6, ly), fill=(48, 42, 54), width=2)
        draw_text(d, (x0 + 10, y0 + 7), r.name, fit_font(r.name, x1 - x0 - 20, 20, 13, True),
                  MUTED)
        draw_text(d, ((x0 + x1) / 2, (y0 + y1) / 2 + 4), "SEALED", font(18, True), MUTED,
                  anchor="mm")
        draw_text(d, ((x0 + x1) / 2, (y0 + y1) / 2 + 26), "Uncover its passage",
                  font(14), DIM, anchor="mm", max_width=x1 - x0 - 16)
        return
    rounded_box(d, box, 10, fill=fill, outline=edge, width=3)
    name_fnt = fit_font(r.name, x1 - x0 - 70, 20, min_size=15, bold=True)
    draw_text(d, (x0 + 10, y0 + 7), r.name, name_fnt, TEXT)
    # light marker at the top right
    tag_fnt = font(14, True)
    tag = "LIT" if r.lit else "DARK"
    chip(d, (x1 - 10 - text_width(tag, tag_fnt) - 10, y0 + 7), tag, tag_fnt,
         (214, 170, 96) if r.lit else (60, 72, 108), pad=5, height=20)
    # fireplace
    content_x = x0 + 10
    if r.fireplace:
        fs = 34
        fx, fy = x1 - fs - 10, y0 + 32
        rounded_box(d, (fx - 4, fy - 2, fx + fs + 4, fy + fs + 4), 6, fill=(40, 28, 22),
                    outline=(120, 90, 70), width=2)
        icon(d, "flame", (fx + 3, fy + 3, fx + fs - 3, fy + fs), FLAME if r.fireplace_lit
             else FLAME_OUT)
    right_limit = x1 - (56 if r.fireplace else 10)
    chip_rows = _room_chip_rows(r, stairs, x1 - x0 - 16)
    bottom_limit = y1 - (6 + 26 * len(chip_rows) if chip_rows else 6)
    visitors = {v.seat: v for v in b.visitors}
    # one flow of pieces: visitor pawns, the spirit pawn, dice, face-down tokens
    pieces: list[tuple[str, Any]] = [("v", s) for s in r.visitors]
    if r.pawn:
        pieces.append(("p", None))
    pieces += [("d", v) for v in r.dice]
    pieces += [("t", k) for k in range(r.spirit_tokens)]
    pieces += [("t", None)] * r.small_tokens
    # Pieces at full size if they fit, else smaller (to 60 %), before any is left out.
    placed: list[tuple[str, Any, float, float]] = []
    k = 1.0
    for k in (1.0, 0.8, 0.7, 0.6):
        placed = _flow_pieces(pieces, k, content_x, y0 + 34, right_limit, x1 - 10,
                              bottom_limit)
        if len(placed) == len(pieces):
            break
    if len(placed) < len(pieces):
        draw_text(d, (x1 - 12, bottom_limit), "…", font(18, True), TEXT, anchor="rs")
        note_truncation(f"{r.name}: more pieces than the room shows")
    for kind, val, x, cy in placed:
        if kind == "v":
            _visitor_pawn(d, (x + 16 * k, cy), 16 * k, visitors.get(val), val, b)
        elif kind == "p":
            _spirit_pawn(d, (x + 16 * k, cy), 16 * k)
        elif kind == "d":
            die(d, (x, cy - DIE / 2 * k, x + DIE * k, cy + DIE / 2 * k), val,
                face=(245, 238, 228), pip=(120, 20, 30), numeral=True, numeral_size=NUMERAL)
        elif val is None:
            _token(d, (x + 12 * k, cy), 12 * k, False)
        else:
            # the spirit sees its clues' identities (first letters); others see "S"
            label = r.spirit_names[val][:2] if val < len(r.spirit_names) else "S"
            _token(d, (x + 12 * k, cy), 12 * k, True, label or "S")
    # chips at the bottom, in one or two rows: drains and stairs
    for j, row in enumerate(reversed(chip_rows)):
        cy = y1 - 27 - 26 * j
        cx2 = x0 + 8
        for label, col, locked in row:
            w = _small_chip(d, cx2, cy, label, col, x1 - 8 - cx2 - (20 if locked else 0))
            if locked:
                icon(d, "lock", (cx2 + w - 2, cy + 2, cx2 + w + 17, cy + 21), LOCK_RED)
                w += 20
            cx2 += w + 4


def _flow_pieces(pieces: Sequence[tuple[str, Any]], k: float, x0: float, y0: float,
                 first_limit: float, limit: float, bottom: float
                 ) -> list[tuple[str, Any, float, float]]:
    """Where each piece goes at scale ``k`` (left x, centre y), in rows; stops at the
    first piece that does not fit above ``bottom``."""
    row_h = 38.0 * k
    x, y, right = x0, y0, first_limit
    out: list[tuple[str, Any, float, float]] = []
    for kind, val in pieces:
        w = (36.0 if kind in ("v", "p") else (DIE + 4.0 if kind == "d" else 27.0)) * k
        if x + w > right:
            x, y, right = x0, y + row_h, limit
        if y + row_h - 4 > bottom:
            break
        out.append((kind, val, x, y + row_h / 2 - 2))
        x += w + 2
    return out


_Chip = tuple[str, Colour, bool]


def _chip_w(label: str, locked: bool) -> float:
    return text_width(label, font(15, True)) + 12 + (20 if locked else 0)


def _room_chip_rows(r: RoomV, stairs: Sequence[tuple[DoorV, str]],
                    width: float) -> list[list[_Chip]]:
    """A room's drain and stair chips flowed into at most two rows, each label in its
    longest form that lets them all fit ("Stairs Salon", then "↕ Salon"; "Drain: Echo",
    then "Echo" on the spirit's colour)."""
    long: list[list[str]] = []
    meta: list[tuple[Colour, bool]] = []
    for name in r.drains:
        long.append([f"Drain: {name}", name])
        meta.append((SPIRIT, False))
    for door, other in stairs:
        col = {"open": GOOD, "closed": WOOD, "locked": LOCK_RED}[_door_state(door)]
        # a closed stair door carries "✕" (its colour alone would not tell a colour-blind
        # player); a locked one has the padlock
        shut = " ✕" if _door_state(door) == "closed" else ""
        long.append([f"{'Passage' if door.passage else 'Stairs'} {other}{shut}",
                     f"↕ {other}{shut}"])
        meta.append((col, door.locked))
    if not long:
        return []
    rows: list[list[_Chip]] = []
    for form in (0, 1):
        for max_rows in (1, 2):
            rows = [[]]
            used = 0.0
            for forms, (col, locked) in zip(long, meta, strict=True):
                w = _chip_w(forms[form], locked)
                if rows[-1] and used + w > width:
                    rows.append([])
                    used = 0.0
                rows[-1].append((forms[form], col, locked))
                used += w + 4
            if len(rows) <= max_rows:
                return rows
    return rows


def _draw_manor(img: Image.Image, d: ImageDraw.ImageDraw, b: Board,
                layout: Sequence[FloorLayout], layer: Hashable = None) -> None:
    rooms = {r.id: r for r in b.rooms}
    where: dict[str, Box] = {}
    floor_of: dict[str, int] = {}
    for fl in layout:
        for rid, cell in fl.cells.items():
            where[rid] = cell
            floor_of[rid] = fl.level
    stairs: dict[str, list[tuple[DoorV, str]]] = {}
    flat: list[tuple[DoorV, Box, bool, Colour]] = []
    for door in b.doors:
        ra, rb = rooms.get(door.a), rooms.get(door.b)
        if ra is None or rb is None:
            continue
        if (not door.stairs and ra.floor == rb.floor
                and abs(ra.x - rb.x) + abs(ra.y - rb.y) == 1):
            ba, bb = where[door.a], where[door.b]
            if ra.y == rb.y:  # side by side: a vertical wall
                left, right = (ba, bb) if ba[0] < bb[0] else (bb, ba)
                mid = (max(left[1], right[1]) + min(left[3], right[3])) / 2
                box: Box = (left[2] - 4, mid - 22, right[0] + 4, mid + 22)
                flat.append((door, box, False, mix(ROOM_LIT if ra.lit or rb.lit else ROOM_DARK,
                                                      BG, 0.1)))
            else:
                top, bot = (ba, bb) if ba[1] < bb[1] else (bb, ba)
                mid = (max(top[0], bot[0]) + min(top[2], bot[2])) / 2
                box = (mid - 22, top[3] - 4, mid + 22, bot[1] + 4)
                flat.append((door, box, True, mix(ROOM_LIT if ra.lit or rb.lit else ROOM_DARK,
                                                     BG, 0.1)))
        else:
            stairs.setdefault(door.a, []).append((door, rb.name))
            stairs.setdefault(door.b, []).append((door, ra.name))
    visitors = {v.seat: v for v in b.visitors}
    for r in b.rooms:
        if r.id in where:
            # A room draws inside its box, on the static layer, from these data only.
            pawns = tuple((s, b.seat_colour.get(s), b.seat_initials.get(s),
                           None if (v := visitors.get(s)) is None else
                           (v.succumbed, v.knocked_out, v.candle_lit)) for s in r.visitors)
            key = ("presence room", layer, repr(r), repr(stairs.get(r.id, [])), pawns)
            memo_region(img, where[r.id], key, partial(_draw_room, img, d, where[r.id], r, b,
                                                       stairs.get(r.id, [])))
    for door, box, vertical, fill in flat:
        _door_glyph(d, img, box, door, vertical, fill)
    # the legend goes in the first free top-right corner of a floor frame, bottom up
    for fl in reversed(layout):
        lx0 = fl.box[2] - 290
        ly0 = fl.box[1] + 6
        if all(c[2] < lx0 or c[1] > ly0 + 64 for c in fl.cells.values()):
            _draw_legend(d, fl.box[2] - 12, ly0)
            break


def _draw_legend(d: ImageDraw.ImageDraw, right: float, top: float) -> None:
    lf = font(15)
    x = right
    # each door state as it is drawn (a gap, a bar with a cross-tick, a bar with a padlock)
    for label, state in (("locked", "locked"), ("closed", "closed"), ("open", "open")):
        x -= text_width(label, lf)
        draw_text(d, (x, top), label, lf, MUTED)
        x -= 24
        sample = DoorV(id="", a="", b="", open=state == "open", locked=state == "locked",
                       stairs=False)
        _door_glyph(d, Image.new("RGB", (1, 1)), (x, top - 1, x + 18, top + 19), sample, False,
                    ROOM_DARK)
        x -= 12
    draw_text(d, (x, top), "doors:", lf, MUTED, anchor="ra")
    y = top + 30
    x = right
    for label, draw in (("small clue", "s"), ("spirit clue", "S"), ("presence die", "d")):
        x -= text_width(label, lf)
        draw_text(d, (x, y), label, lf, MUTED, anchor="lm")
        x -= 16
        if draw == "d":
            die(d, (x - 9, y - 9, x + 9, y + 9), 3, face=(245, 238, 228), pip=(120, 20, 30),
                numeral=True, numeral_size=NUMERAL)
        else:
            _token(d, (x, y), 10, draw == "S")
        x -= 18


# --------------------------------------------------------------------------- top / bottom


PHASE_LABEL = {"setup": "Setup", "visitor": "Visitors' turns", "spirit": "Spirit's turn",
               "upkeep": "Upkeep", "over": "Game over"}


def _draw_top_bar(d: ImageDraw.ImageDraw, b: Board) -> None:
    draw_text(d, (MARGIN, TOP_BAR / 2), "The Presence", font(26, True), GOLD, anchor="lm")
    x = MARGIN + text_width("The Presence", font(26, True)) + 22
    f = font(21, True)
    x += chip(d, (x, 12), f"Round {b.round}/{b.final_round}", f, (70, 60, 96), pad=10,
              height=32) + 10
    if b.phase:
        x += chip(d, (x, 12), PHASE_LABEL.get(b.phase, b.phase), f, (54, 46, 74), pad=10,
                  height=32) + 14
    if b.variants:  # the variants in play are public (H-39: "the mode is in play")
        x += chip(d, (x, 12), " · ".join(b.variants), font(17, True), (92, 38, 58), pad=10,
                  height=32) + 14
    if b.over:
        text = "GAME OVER"
        if b.winners:
            who = ", ".join(_seat_name(b, s) for s in b.winners)
            text += f" — winners: {who}"
        else:
            text += " — nobody wins"
        draw_text(d, (x, TOP_BAR / 2), text, font(21, True), BAD, anchor="lm",
                  max_width=WIDTH - x - MARGIN)
        return
    turn = ""
    if b.active_label:
        who = b.active_label
        if b.names.get(b.active_seat):
            who += f" ({b.names[b.active_seat]})"
        turn = f"Turn: {who}"
        if b.phase == "visitor" and b.actions_left:
            turn += f" · {b.actions_left} main action{'s' if b.actions_left != 1 else ''} left"
    elif b.waiting:
        turn = "Waiting for " + ", ".join(b.waiting)
    draw_text(d, (x, TOP_BAR / 2), turn, font(21), TEXT, anchor="lm",
              max_width=WIDTH - x - MARGIN)


def _seat_name(b: Board, seat: str) -> str:
    for v in b.visitors:
        if v.seat == seat:
            return v.player or v.name
    if seat == b.spirit_seat:
        return b.spirit_player or b.spirit_name
    return b.names.get(seat, seat)


def _draw_bottom_bar(d: ImageDraw.ImageDraw, b: Board) -> None:
    y0 = HEIGHT - BOTTOM_BAR
    f = font(20, True)
    x = float(MARGIN)
    if b.talk_allowed:
        x += chip(d, (x, y0 + 6), "Table talk allowed", f, GOOD, pad=10, height=28) + 12
    else:
        x += chip(d, (x, y0 + 6), "NO table talk", f, BAD, pad=10, height=28) + 12
    if b.spirit_speech:  # P-DISCORD-08: the spirit's granted words
        x += chip(d, (x, y0 + 6), f"Spirit may speak {b.spirit_speech} word(s)", f,
                  (92, 38, 58), pad=10, height=28) + 12
    alone = ("Alone: " + ", ".join(b.alone_labels)) if b.alone_labels else "Nobody is alone"
    w = draw_text(d, (x, y0 + 20), alone, font(20, True), TEXT, anchor="lm",
                  max_width=WIDTH - x - MARGIN)
    x += w + 14
    if b.talk_why and x < WIDTH - 200:
        # The reason in full if it fits, else its first clause (the names after a colon are
        # on the "Alone:" line already, and the chip says whether talk is allowed).
        head = b.talk_why.split(":", 1)[0].rstrip(".") + "."
        why = pick_fitting([b.talk_why, head], font(18), WIDTH - x - MARGIN)
        if text_width(why, font(13)) <= WIDTH - x - MARGIN:
            draw_text(d, (x, y0 + 20), why, font(18), MUTED, anchor="lm",
                      max_width=WIDTH - x - MARGIN)
    line2 = ""
    if b.over and b.result_reason:
        line2 = b.result_reason
    elif b.prompt:
        line2 = "Now: " + b.prompt
    elif b.log:
        line2 = "Last: " + b.log[-1]
    if line2:
        draw_text(d, (MARGIN, y0 + 47), line2, font(18), MUTED, anchor="lm",
                  max_width=WIDTH - 2 * MARGIN)


# --------------------------------------------------------------------------- right column


def _draw_track(d: ImageDraw.ImageDraw, b: Board) -> None:
    x0, y0, x1, _ = TRACK_BOX
    f = font(18, True)
    if b.side:
        draw_text(d, (x1 - 12, y0 + 10), f"side {b.side}", font(16), MUTED, anchor="ra")
    # time: one cell per round
    lx = x0 + 12
    bx = x0 + 112
    y = y0 + 36
    icon(d, "hourglass", (lx, y + 2, lx + 22, y + 26), TIME)
    draw_text(d, (lx + 28, y + 14), "Time", f, TEXT, anchor="lm")
    n = b.final_round
    cw = (x1 - 12 - bx - (n - 1) * 4) / n
    for k in range(1, n + 1):
        cx0 = bx + (k - 1) * (cw + 4)
        cur = k == b.time
        past = k < b.time
        fill = TIME if cur else ((60, 80, 104) if past else SLOT)
        rounded_box(d, (cx0, y, cx0 + cw, y + 28), 6, fill=fill,
                    outline=GOLD if k in b.even_rounds else PANEL_EDGE,
                    width=2)
        draw_text(d, (cx0 + cw / 2, y + 14), str(k), font(16, True),
                  (16, 14, 22) if cur else MUTED, anchor="mm")
    # hope and nerve bars over the spaces
    for row, (label, value, colour, ic) in enumerate(
        (("Hope", b.hope, HOPE, "heart"), ("Nerve", b.nerve, NERVE, "bolt"))
    ):
        y = y0 + 68 + row * 30
        icon(d, ic, (lx, y + 3, lx + 22, y + 25), colour)
        draw_text(d, (lx + 28, y + 14), label, f, TEXT, anchor="lm")
        n = b.spaces
        cw = (x1 - 60 - bx - (n - 1) * 3) / n
        for k in range(1, n + 1):
            cx0 = bx + (k - 1) * (cw + 3)
            on = value is not None and k <= value
            rounded_box(d, (cx0, y + 3, cx0 + cw, y + 25), 5,
                        fill=colour if on else SLOT, outline=PANEL_EDGE, width=1)
        txt = "lost" if value is None else str(value)
        draw_text(d, (x1 - 14, y + 14), txt, font(19, True), BAD if value is None else colour,
                  anchor="rm")
    draw_text(d, (bx, y0 + 140), "gold frame = spirit clues added that round", font(13),
              DIM, anchor="ls")


def _trauma_colour(trauma: str) -> Colour:
    return TRAUMA_COLOUR.get(trauma.lower(), (170, 160, 180))


def _draw_secrets(d: ImageDraw.ImageDraw, b: Board) -> None:
    x0, y0, x1, y1 = SECRET_BOX
    if b.low_max is not None and b.high_min is not None:
        own = "".join(f" (#{k}: ≤{m})" for k, m in enumerate(b.low_max_at, 1)
                      if m != b.low_max)  # a position with its own low tier
        draw_text(d, (x1 - 12, y0 + 11),
                  f"tier: ≤{b.low_max} low{own} · ≥{b.high_min} high", font(16), MUTED,
                  anchor="ra")
    secrets = b.secrets[:4]
    n = max(4, len(secrets))
    gap = 8
    cw = (x1 - x0 - 24 - (n - 1) * gap) / n
    top = y0 + 38
    card_h = 96
    private = {(_i(_d(s).get("position"))): _d(s)
               for s in _l(b.spirit_private.get("secrets"))}
    for k in range(n):
        cx0 = x0 + 12 + k * (cw + gap)
        box: Box = (cx0, top, cx0 + cw, top + card_h)
        if k >= len(secrets):
            rounded_box(d, box, 8, fill=SLOT, outline=PANEL_EDGE, width=1)
            continue
        s = secrets[k]
        if s.revealed:
            col = _trauma_colour(s.trauma)
            rounded_box(d, box, 8, fill=mix(col, PANEL, 0.55), outline=col, width=3)
            draw_text(d, (cx0 + 8, top + 6), f"#{s.position}", font(16, True), GOLD)
            icon(d, TRAUMA_ICON.get(s.trauma, "star"), (cx0 + cw - 28, top + 6, cx0 + cw - 8,
                                                          top + 26), col, back=mix(col, PANEL,
                                                                                   0.55))
            title = s.name or s.trauma.title()
            draw_text(d, (cx0 + 8, top + 40), title, fit_font(title, cw - 16, 18, 12, True),
                      TEXT, anchor="lm", max_width=cw - 16)
            if s.trauma:
                draw_text(d, (cx0 + 8, top + 66), s.trauma.title(), font(16, True), col,
                          anchor="lm", max_width=cw - 16)
            extra = (s.tier or "").title()
            if s.matching is not None:
                extra += f" · {s.matching} match"
            draw_text(d, (cx0 + 8, top + card_h - 8), extra, font(15), MUTED, anchor="ls",
                      max_width=cw - 14)
        else:
            rounded_box(d, box, 8, fill=(46, 34, 64), outline=(120, 96, 160), width=2)
            draw_text(d, (cx0 + 8, top + 6), f"#{s.position}", font(16, True), GOLD)
            draw_text(d, (cx0 + cw - 8, top + 8), f"deck {s.in_deck} · rm {s.remove}",
                      font(14), MUTED, anchor="ra", max_width=cw - 50)
            draw_text(d, (cx0 + cw / 2, top + 50), "?", font(36, True), (150, 120, 200),
                      anchor="mm")
            ps = private.get(s.position)
            if ps:
                nm = _s(ps.get("name"))
                col = _trauma_colour(_s(ps.get("trauma")))
                draw_text(d, (cx0 + cw / 2, top + card_h - 8), nm, font(15, True), col,
                          anchor="ms", max_width=cw - 10)
        # discards beneath
        dy = top + card_h + 6
        # Mystery Mode: only the count is public (P-MYST-02)
        face_down = " face down" if b.mystery and not s.discards and s.discard_count else ""
        draw_text(d, (cx0 + 2, dy), f"Discards: {s.discard_count}{face_down}", font(15, True),
                  MUTED, max_width=cw - 4)
        dy += 20
        room_for = int((y1 - 8 - dy) // 22)
        shown = s.discards[-room_for:] if room_for > 0 else []
        if len(s.discards) > room_for and room_for > 0:
            shown = s.discards[-(room_for - 1):] if room_for > 1 else []
        for c in shown:
            col = _trauma_colour(c.trauma) if c.kind != "fear" else NERVE
            label = c.name.split(": ", 1)[-1] if ": " in c.name else c.name
            d.rectangle((cx0 + 2, dy + 3, cx0 + 8, dy + 17), fill=col)
            draw_text(d, (cx0 + 13, dy + 1), label, font(15), TEXT, max_width=cw - 16)
            dy += 22
        hidden = s.discard_count - len(shown)
        if hidden > 0 and room_for > 0:
            draw_text(d, (cx0 + 13, dy + 1), f"+{hidden} more", font(15), DIM)


def _fear_track(d: ImageDraw.ImageDraw, x: float, y: float, v: VisitorV, max_w: float) -> float:
    n = max(1, v.fear_track)
    s = min(22.0, (max_w - (n - 1) * 4) / n)
    for k in range(1, n + 1):
        bx = x + (k - 1) * (s + 4)
        on = k <= v.fear
        rounded_box(d, (bx, y, bx + s, y + s), 4, fill=NERVE if on else SLOT,
                    outline=(160, 90, 90), width=1)
    return n * (s + 4)


def _draw_visitors(img: Image.Image, d: ImageDraw.ImageDraw, b: Board,
                   layer: Hashable = None) -> None:
    x0, y0, x1, y1 = VISITOR_BOX
    vs = b.visitors[:4]
    if not vs:
        draw_text(d, (x0 + 12, y0 + 12), "No visitors", font(18), MUTED)
        return
    gap = 6
    ph = (y1 - y0 - 12 - (len(vs) - 1) * gap) / len(vs)
    ph = min(ph, 140)
    for k, v in enumerate(vs):
        py0 = y0 + 6 + k * (ph + gap)
        box: Box = (x0 + 6, py0, x1 - 6, py0 + ph)
        # A visitor's panel draws inside its box, on the static layer, from these data only.
        key = ("presence visitor", layer, repr(v), b.seat_colour.get(v.seat),
               b.seat_initials.get(v.seat))
        memo_region(img, box, key, partial(_draw_visitor, d, box, v, b))


def _draw_visitor(d: ImageDraw.ImageDraw, box: Box, v: VisitorV, b: Board) -> None:
    """One visitor's panel: pawn, name and tags; room, fear and counts; fear cards, items."""
    py0 = box[1]
    rounded_box(d, box, 9, fill=SLOT if not v.active else mix(SLOT, v.colour, 0.14),
                outline=GOLD if v.active else mix(v.colour, PANEL, 0.4),
                width=3 if v.active else 2)
    _visitor_pawn(d, (box[0] + 22, py0 + 22), 15, v, v.seat, b)
    title = v.name + (f" — {v.player}" if v.player else "")
    tx = box[0] + 46
    cf = font(15, True)
    tags: list[tuple[str, Colour]] = []
    if v.succumbed:
        tags.append(("SUCCUMBED", BAD))
    elif v.knocked_out:
        tags.append(("KNOCKED OUT", BAD))
    if v.alone:
        tags.append(("alone", (240, 150, 80)))
    if v.bonded:
        tags.append(("bonded", SPIRIT))
    tags.append(("candle lit" if v.candle_lit else "candle out",
                 FLAME if v.candle_lit else FLAME_OUT))
    tags_w = sum(text_width(t, cf) + 17 for t, _ in tags)
    # A long title (a long display name) first takes the candle's words (a flame
    # icon, lit or out, says the same), then shrinks: never cut.
    candle_icon = text_width(title, font(14, True)) > box[2] - 18 - tx - tags_w
    if candle_icon:
        tags_w -= text_width(tags[-1][0], cf) + 17 - 28
    room = box[2] - 18 - tx - tags_w
    w = draw_text(d, (tx, py0 + 22), title, fit_font(title, room, 20, 13, True), v.colour,
                  anchor="lm", max_width=room)
    x = tx + w + 10
    for k, (text, col) in enumerate(tags):
        if candle_icon and k == len(tags) - 1:
            rounded_box(d, (x, py0 + 11, x + 24, py0 + 33), 11, fill=(40, 32, 28))
            icon(d, "flame", (x + 4, py0 + 13, x + 20, py0 + 31), col, back=(40, 32, 28))
            break
        wch = text_width(text, cf) + 12
        if x + wch > box[2] - 8:
            break
        x += chip(d, (x, py0 + 11), text, cf, col, pad=6, height=22) + 5
    # row 2: room, fear track, counts
    ry = py0 + 42
    draw_text(d, (tx, ry + 11), f"in {v.room_name}" if v.room_name else "", font(18),
              TEXT, anchor="lm", max_width=170)
    fx = tx + 176
    draw_text(d, (fx, ry + 11), "Fear", font(16, True), NERVE, anchor="lm")
    fw = _fear_track(d, fx + 42, ry, v, 200)
    draw_text(d, (fx + 46 + fw, ry + 11), f"{v.fear}/{v.fear_track}", font(17, True),
              TEXT, anchor="lm")
    counts = f"hand {v.hand_count} · deck {v.deck_count} · disc {v.discard_count}"
    draw_text(d, (box[2] - 10, ry + 11), counts, font(16), MUTED, anchor="rm")
    # row 3: fear cards and items
    ry3 = py0 + 70
    if ry3 + 24 > box[3]:
        return
    x = box[0] + 10
    for j, c in enumerate(v.fear_cards):
        # A fear card whose name no longer fits is counted ("+2"), not cut.
        rest = len(v.fear_cards) - j
        if text_width(c.name, font(11, True)) + 12 > box[2] - 10 - x - (40 if rest > 1
                                                                       else 0):
            x += _small_chip(d, x, ry3, f"+{rest}", (200, 80, 90), 60, size=15) + 5
            break
        w2 = _small_chip(d, x, ry3, c.name, (200, 80, 90), box[2] - 10 - x, size=15)
        x += w2 + 5
        if x > box[2] - 60:
            break
    if v.items and x < box[2] - 120:
        x += 4 + draw_text(d, (x + 4, ry3 + 2), "Items:", font(15, True), MUTED) + 8
    for it in v.items:
        if x > box[2] - 60:
            break
        w2 = _small_chip(d, x, ry3, it, (112, 92, 56), box[2] - 10 - x, size=15)
        x += w2 + 5
    if not v.fear_cards and not v.items:
        draw_text(d, (x, ry3 + 2), "no fear cards · no items", font(15), DIM)
    # row 4 (roomy panels): what the fear cards do
    ry4 = py0 + 98
    lines = max(0, int((box[3] - 6 - ry4) // 19))
    if lines and v.fear_cards:
        # What the fear cards do, whole, in as small as 12 px; the names alone (row 3
        # shows them) when even that does not fit: never a cut sentence.
        for text in (" · ".join(f"{c.name}: {c.text}" if c.text else c.name
                                for c in v.fear_cards),
                     " · ".join(c.text for c in v.fear_cards if c.text)):
            fitted = try_fit_lines(text, box[2] - box[0] - 20, 15, 12, max_lines=lines)
            if text and fitted is not None:
                ffnt, flines = fitted
                step = min(19, int((box[3] - 6 - ry4) // len(flines)))
                for ln in flines:
                    draw_text(d, (box[0] + 10, ry4), ln, ffnt, MUTED)
                    ry4 += step
                break


# --------------------------------------------------------------------------- lower left


def _draw_spirit(d: ImageDraw.ImageDraw, b: Board, box: Box) -> None:
    x0, y0, x1, y1 = box
    _spirit_pawn(d, (x0 + 24, y0 + 24), 14)
    title = b.spirit_name + (f" — {b.spirit_player}" if b.spirit_player else "")
    draw_text(d, (x0 + 46, y0 + 24), title, font(20, True), SPIRIT, anchor="lm",
              max_width=x1 - x0 - 60)
    f = font(17)
    pawn = f"pawn in {b.pawn_room}" if b.pawn_room else "pawn off the board"
    if b.pawn_room and b.pawn_actions:
        pawn += f" ({b.pawn_actions} actions)"
    draw_text(d, (x0 + 12, y0 + 44),
              f"hand {b.spirit_hand} · deck {b.spirit_deck} · disc {b.spirit_discard} · {pawn}",
              f, MUTED, max_width=x1 - x0 - 24)
    drains = ", ".join(f"{n} ({r})" for n, r in b.drains) if b.drains else "none"
    draw_text(d, (x0 + 12, y0 + 66), f"Drains: {drains}", f, TEXT, max_width=x1 - x0 - 24)
    y = y0 + 90
    if b.script_revealed and b.script:
        s = b.script
        name = s.get("name", "")
        name = name if name.lower().startswith("script") else f"Script {name}"
        head = f"{name}: {s.get('alignment', '')} · {s.get('type', '')}"
        draw_text(d, (x0 + 12, y), head, font(17, True), GOLD, max_width=x1 - x0 - 24)
        draw_text_in_box(d, (x0 + 12, y + 22, x1 - 10, y1 - 6),
                         f"{s.get('top', '')} {s.get('bottom', '')}", 18, TEXT, min_size=12)
    else:
        names = ", ".join(f"{n} ({t})" if t else n for n, t in b.display_scripts) or "—"
        draw_text(d, (x0 + 12, y), "Script hidden; on display:", font(17, True), GOLD)
        draw_text_in_box(d, (x0 + 12, y + 22, x1 - 10, y1 - 6), names, 16, MUTED, min_size=13)


def _draw_clues(d: ImageDraw.ImageDraw, b: Board, box: Box) -> None:
    x0, y0, x1, y1 = box
    f = font(17)
    draw_text(d, (x0 + 12, y0 + 8), "Decks", font(19, True), GOLD)
    line = f"clues {b.clue_deck} · trash {b.clue_trash} · items {b.item_deck}"
    draw_text(d, (x0 + 80, y0 + 10), line, f, TEXT, max_width=x1 - x0 - 92)
    cellar = ", ".join(b.cellar) if b.cellar else "empty"
    chamber = "" if b.chamber_cards is None else f"Chamber cards {b.chamber_cards} · "
    draw_text(d, (x0 + 12, y0 + 36), f"{chamber}Dice in supply {b.supply} · Cellar: {cellar}",
              f, MUTED, max_width=x1 - x0 - 24)
    tw = draw_text(d, (x0 + 12, y0 + 62), "Revealed clues", font(19, True), GOLD)
    x = x0 + 12
    y = y0 + 88
    if not b.clue_revealed:
        draw_text(d, (x0 + 24 + tw, y0 + 64), "none", f, DIM)
        return
    for k, c in enumerate(b.clue_revealed):
        col = NERVE if c.kind == "fear" else _trauma_colour(c.trauma)
        w = text_width(c.name, font(15, True)) + 12
        if x + w > x1 - 10 and x > x0 + 12:
            x = x0 + 12
            y += 28
        if y + 24 > y1 - 4:
            draw_text(d, (x1 - 12, y1 - 8), f"+{len(b.clue_revealed) - k}", font(16, True),
                      TEXT, anchor="rs")
            break
        x += _small_chip(d, x, y, c.name, col, x1 - 10 - x) + 5


# --------------------------------------------------------------------------- private strip


_CARD_LOCK = threading.Lock()
_CARDS: OrderedDict[tuple[str, str, Colour, int, int], tuple[Image.Image, list[str]]] = (
    OrderedDict())


def _card_image(title: str, body: str, colour: Colour, w: int, h: int) -> Image.Image:
    """A card face (title and wrapped text), built once per content and size (LRU). A cut
    made while building it is noted again on every use, so the cut report sees it."""
    key = (title, body, colour, w, h)
    with _CARD_LOCK:
        hit = _CARDS.get(key)
        if hit is not None:
            _CARDS.move_to_end(key)
            for text in hit[1]:
                note_truncation(text)
            return hit[0]
    before = truncations()
    img = Image.new("RGB", (w, h), STRIP_BG)
    d = ImageDraw.Draw(img)
    rounded_box(d, (0, 0, w - 1, h - 1), 8, fill=PANEL, outline=colour, width=2)
    draw_text(d, (8, 6), title, fit_font(title, w - 16, 19, 13, True), colour)
    # A narrow card (a full hand) takes its text down to 10 px before anything is cut.
    draw_text_in_box(d, (8, 32, w - 8, h - 6), body, 18, TEXT, min_size=10, line_gap=1)
    after = truncations()
    cut = after[len(before):] if after[:len(before)] == before else []
    with _CARD_LOCK:
        _CARDS[key] = (img, cut)
        while len(_CARDS) > 256:
            _CARDS.popitem(last=False)
    return img


def _card_box(img: Image.Image, box: Box, title: str, body: str, colour: Colour) -> None:
    x0, y0, x1, y1 = (round(v) for v in box)
    if x1 - x0 < 8 or y1 - y0 < 8:
        return
    img.paste(_card_image(title, body, colour, x1 - x0, y1 - y0), (x0, y0))


def _power_text(p: Any) -> str:
    p = _d(p)
    bits = [f"req {_i(p.get('requirement'))}"]
    if _i(p.get("spend")):
        bits.append(f"spend {_i(p.get('spend'))}")
    if _i(p.get("drain")):
        bits.append(f"drain {_i(p.get('drain'))}")
    if p.get("hindered_by_light"):
        bits.append("light hinders")
    return f"[{', '.join(bits)}] {_s(p.get('text'))}"


def _draw_strip(img: Image.Image, d: ImageDraw.ImageDraw, b: Board) -> None:
    y0 = HEIGHT + 10
    y1 = HEIGHT + STRIP_HEIGHT - 10
    x0 = MARGIN
    if b.private_role == "spirit":
        sp = b.spirit_private
        who = b.spirit_player or b.spirit_name
        draw_text(d, (x0, y0), f"Only for {who} (the spirit) — keep it secret",
                  font(20, True), GOLD)
        # script
        sc = _d(sp.get("script"))
        box: Box = (x0, y0 + 30, x0 + 360, y1)
        if sc:
            _card_box(img, box, f"Your script: {_s(sc.get('name'))} ({_s(sc.get('alignment'))},"
                      f" {_s(sc.get('type'))})",
                      f"{_s(sc.get('top'))}\n{_s(sc.get('bottom'))}", GOLD)
        else:
            _card_box(img, box, "Your script", "not drawn yet", GOLD)
        # secrets + clue identities
        bx = x0 + 372
        box = (bx, y0 + 30, bx + 380, y1)
        rounded_box(d, box, 8, fill=PANEL, outline=SPIRIT, width=2)
        draw_text(d, (bx + 8, y0 + 36), "Secrets", font(17, True), SPIRIT)
        yy = y0 + 58
        for s in _l(sp.get("secrets"))[:4]:
            s = _d(s)
            col = _trauma_colour(_s(s.get("trauma")))
            draw_text(d, (bx + 8, yy), f"#{_i(s.get('position'))} {_s(s.get('name'))}",
                      font(16), col, max_width=360)
            yy += 21
        draw_text(d, (bx + 8, yy + 4), "Spirit clues", font(17, True), SPIRIT)
        yy += 26
        toks = _d(sp.get("tokens"))
        rname = {r.id: r.name for r in b.rooms}
        lines = [f"{rname.get(k, k)}: {', '.join(_s(x) for x in _l(v))}"
                 for k, v in toks.items() if _l(v)]
        tf = font(15)
        text = " · ".join(lines) or "none on the board"
        for ln in wrap(text, tf, 360, max_lines=max(1, int((y1 - 6 - yy) // 18))):
            draw_text(d, (bx + 8, yy), ln, tf, TEXT)
            yy += 18
        # hand
        hand = [_d(c) for c in _l(sp.get("hand"))]
        hx = bx + 392
        n = max(1, len(hand))
        cw = min(260.0, (WIDTH - MARGIN - hx - (n - 1) * 8) / n)
        for k, c in enumerate(hand[:8]):
            cx0 = hx + k * (cw + 8)
            _card_box(img, (cx0, y0 + 30, cx0 + cw, y1), _s(c.get("name"), "?"),
                      f"▲ {_power_text(c.get('top'))}\n▼ {_power_text(c.get('bottom'))}",
                      SPIRIT)
        if not hand:
            draw_text(d, (hx, y0 + 40), "No cards in hand", font(18), MUTED)
        extra = []
        if _l(sp.get("drawn_spirit_clues")):
            extra.append("to place: " + ", ".join(_s(x) for x in _l(sp.get("drawn_spirit_clues"))))
        ch = _d(sp.get("chamber"))
        if ch:  # H-35, H-36: the spirit may look at these at any time (P-CHAMBER-01)
            extra.append(f"passage card: {_s(ch.get('aside'))} · chamber: "
                         + (", ".join(_s(x) for x in _l(ch.get("cards"))) or "empty"))
        if b.inspected:
            extra.append("seen: " + ", ".join(b.inspected[-3:]))
        if extra:
            draw_text(d, (WIDTH - MARGIN, y0), " · ".join(extra), font(16), MUTED, anchor="ra",
                      max_width=WIDTH - 2 * MARGIN - 560)
        return
    me = next((v for v in b.visitors if v.seat == b.viewer), None)
    who = (me.player or me.name) if me else "you"
    draw_text(d, (x0, y0), f"Only for {who} — your hand ({len(b.hand)})", font(20, True), GOLD)
    if b.inspected:
        draw_text(d, (WIDTH - MARGIN, y0), "seen: " + ", ".join(b.inspected[-3:]), font(16),
                  MUTED, anchor="ra", max_width=WIDTH - 2 * MARGIN - 520)
    hand = b.hand[:10]
    if not hand:
        draw_text(d, (x0, y0 + 40), "No cards in hand", font(18), MUTED)
        return
    n = len(hand)
    cw = min(300.0, (WIDTH - 2 * MARGIN - (n - 1) * 8) / n)
    for k, c in enumerate(hand):
        cx0 = x0 + k * (cw + 8)
        kind = _s(c.get("kind"), "action")
        col = _trauma_colour(_s(c.get("trauma"))) if kind == "clue" else TIME
        acts = []
        for a in _l(c.get("actions")):
            a = _d(a)
            speed = " (quick)" if _s(a.get("speed")) == "quick" else ""
            acts.append(f"{_s(a.get('name'))}{speed}: {_s(a.get('text'))}")
        _card_box(img, (cx0, y0 + 30, cx0 + cw, y1), _s(c.get("name"), "?"), "\n".join(acts),
                  col)


# --------------------------------------------------------------------------- entry points


def render_image(view: Mapping[str, Any]) -> Image.Image:
    """The board as a Pillow image (``render_board`` encodes it)."""
    b = _read(view if isinstance(view, Mapping) else {})
    height = HEIGHT + (STRIP_HEIGHT if b.private_role else 0)
    layout = _manor_layout(b)
    frames = tuple((fl.name, fl.box) for fl in layout)
    # The parts above a seat's strip lie on the same static layer at every height: a seat's
    # board pastes the public board's (and the other way round).
    layer = ("presence", WIDTH, frames)
    img = cached_tall_layer(layer, HEIGHT, height, lambda h: _static_layer(h, frames),
                            _extend_layer)
    d = ImageDraw.Draw(img)
    _draw_top_bar(d, b)
    _draw_manor(img, d, b, layout, layer)
    # The track and the secrets draw inside their boxes, on the static layer, from these only.
    memo_region(img, TRACK_BOX, ("presence track", layer, b.side, b.final_round, b.time,
                                 repr(b.even_rounds), b.hope, b.nerve, b.spaces),
                partial(_draw_track, d, b))
    memo_region(img, SECRET_BOX, ("presence secrets", layer, b.low_max, b.high_min,
                                  repr(b.low_max_at),
                                  repr(b.secrets), repr(b.spirit_private.get("secrets")),
                                  b.mystery),
                partial(_draw_secrets, d, b))
    _draw_visitors(img, d, b, layer)
    spirit_box, clues_box = _lower_boxes(max((f[1][3] for f in frames), default=MANOR_Y0))
    _draw_spirit(d, b, spirit_box)
    _draw_clues(d, b, clues_box)
    _draw_bottom_bar(d, b)
    if b.private_role:
        _draw_strip(img, d, b)
    return img


def render_board(view: dict[str, Any]) -> bytes:
    """PNG bytes of the board for ``view`` (public or a seat's), under ~300 KB."""
    return encode_png(render_image(view), max_bytes=MAX_BYTES)
