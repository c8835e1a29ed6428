"""Board picture for The Exorcism at the House of Monkton Falls: ``render_board(view) -> PNG``.

Draws only from a view dict (``GAME.view(state, seat)``, keys documented in
``rules/exorcism/view.py``), never from the engine's state. The public view gives the channel
picture; a seat's view that carries a ``hand`` (the One vs All Ghost player's Haunt cards,
EX-VIS-11) also gets a private strip along the bottom, so that picture is taller. Nothing else
in a view changes the picture's layout, and a missing or malformed key draws as empty rather
than raising (``_read`` turns the dict into typed records first).

Layout (1600 x 1000, plus a 210 px strip for a private hand):

- top bar: title, mode, round and game turn, the three Ghosts (Wraith black sheet, Bull red
  horned head, Devourer white toothed maw) and where each is;
- left: the house by grid row: the Attic row (deck counts and Tool piles in the free cells
  beside it), the 4 x 4 rooms, the Foyer row (Lookouts and Wounded / Devoured beside it).
  A room shows its name, location die (and, where its name is not unique, as for the
  face-down Locked Rooms, "row 2, column 3": the words events use), Darkness as 4 slots
  (the 4th Shrouds it),
  dropped Tools, Ghosts and pawns (seat-coloured discs with the Character's initials; a Solo
  Secondary is a lighter shade). Face-down Locked Rooms are hatched cards with a padlock and
  their Exorcism tokens; Shrouded rooms are violet, hatched and tagged; a Cold Spot is framed
  in ice blue;
- right: whose turn and actions left (or the Ghost player's actions left, or GAME OVER); the
  clock (8 Time Dice in reading order, the current one outlined, discarded ones crossed or
  showing their ★ Time-Action icon on hours 1, 4, 7; the 12-space Darkness Track around the
  rim) beside the scores (Exorcism points bar, Darkness value, supply and Shrouds left; in
  One vs All the Haunt Level bar with the Terror thresholds and the active Terror effects; in
  core / Solo the turns left, the next Time Action and the last Haunt card); the Available
  Tasks (name, points coin, Tool cost icons, reward); one panel per pawn slot and the Ghost
  player (Character, player, role / status, Tools, Tasks, Plans, Ongoing, Amnesia); the last
  events and the pending prompt.

The background, frame, panel boxes and the clock face are a static layer, built once per size
and copied for each render (``renders.common.cached_layer``); the PNG is palette-quantised
(``renders.common.encode_png``) to stay far under Discord's limits.
"""

from __future__ import annotations

import math
import re
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from PIL import Image, ImageDraw

from renders.common import (
    SEAT_COLOURS,
    Box,
    Colour,
    arrow,
    as_dict,
    as_int,
    as_list,
    as_str,
    cached_tall_layer,
    chip,
    die,
    disc,
    distinct_initials,
    draw_text,
    draw_text_in_box,
    encode_png,
    fit_font,
    font,
    hatch,
    icon,
    memo_region,
    mix,
    pick_fitting,
    progress_bar,
    readable_on,
    rounded_box,
    text_width,
    wrap,
)

__all__ = ["HEIGHT", "STRIP_HEIGHT", "WIDTH", "render_board"]

WIDTH = 1600
HEIGHT = 1000
STRIP_HEIGHT = 210
MAX_BYTES = 300_000

# --------------------------------------------------------------------------- palette

BG: Colour = (17, 13, 24)
BAR: Colour = (30, 22, 40)
PANEL: Colour = (33, 27, 45)
PANEL_EDGE: Colour = (84, 70, 104)
SLOT: Colour = (26, 21, 34)
TEXT: Colour = (244, 238, 226)
MUTED: Colour = (184, 174, 196)
DIM: Colour = (120, 110, 132)
GOLD: Colour = (240, 196, 84)
ROOM: Colour = (76, 60, 48)
ROOM_EDGE: Colour = (150, 118, 86)
LOCKED: Colour = (38, 46, 66)
LOCKED_EDGE: Colour = (96, 116, 150)
SHROUD: Colour = (54, 34, 74)
SHROUD_EDGE: Colour = (170, 120, 230)
ATTIC: Colour = (46, 48, 66)
FOYER: Colour = (196, 158, 82)
DARK_TOKEN: Colour = (24, 8, 36)
DARK_RING: Colour = (176, 124, 240)
EXO: Colour = (240, 196, 84)
HAUNT_RED: Colour = (220, 60, 60)
HIGHLIGHT: Colour = (255, 226, 92)

GHOST_ORDER = ("wraith", "bull", "devourer")
GHOST_NAMES = {"wraith": "Wraith", "bull": "Bull", "devourer": "Devourer"}

TOOL_ORDER = ("weapon", "holy_relic", "key", "detection", "occult")
TOOL_ICON = {
    "weapon": "sword",
    "holy_relic": "cross",
    "key": "key",
    "detection": "magnifier",
    "occult": "eye",
}
TOOL_COLOUR: dict[str, Colour] = {
    "weapon": (232, 110, 96),
    "holy_relic": (250, 232, 150),
    "key": (240, 196, 84),
    "detection": (120, 200, 250),
    "occult": (196, 140, 255),
}
TOOL_SHORT = {
    "weapon": "Weapon",
    "holy_relic": "Relic",
    "key": "Key",
    "detection": "Detect",
    "occult": "Occult",
}

GHOST_PLAYER: Colour = (150, 150, 168)
LOOKOUT: Colour = (170, 164, 176)

# --------------------------------------------------------------------------- geometry

MARGIN = 20
TOP_BAR = 56
GRID_X0 = MARGIN
CELL_W = 190
GAP = 10
FIXED_ROW_H = 92
ROOM_ROW_H = 168
GRID_Y0 = TOP_BAR + 10
RIGHT_X0 = GRID_X0 + 4 * CELL_W + 3 * GAP + 20
RIGHT_X1 = WIDTH - MARGIN

STATUS_BOX: Box = (RIGHT_X0, GRID_Y0, RIGHT_X1, GRID_Y0 + 58)
CLOCK_SIZE = 324
CLOCK_Y0 = STATUS_BOX[3] + 10
CLOCK_BOX: Box = (RIGHT_X0, CLOCK_Y0, RIGHT_X0 + CLOCK_SIZE, CLOCK_Y0 + CLOCK_SIZE)
STATS_BOX: Box = (CLOCK_BOX[2] + 10, CLOCK_BOX[1], RIGHT_X1, CLOCK_BOX[3])
TASKS_BOX: Box = (RIGHT_X0, CLOCK_BOX[3] + 10, RIGHT_X1, CLOCK_BOX[3] + 10 + 110)
PLAYERS_Y0 = TASKS_BOX[3] + 10
PANEL_GAP = 8


def _panel_height(rows: int) -> int:
    """Height of one player panel when ``rows`` rows of panels are shown."""
    return 92 if rows <= 2 else 74


def _lower_boxes(rows: int) -> tuple[Box, Box]:
    """The players box (``rows`` rows of panels) and the events box under it."""
    rows = max(1, rows)
    h = 16 + rows * _panel_height(rows) + (rows - 1) * PANEL_GAP
    players: Box = (RIGHT_X0, PLAYERS_Y0, RIGHT_X1, PLAYERS_Y0 + h)
    return players, (RIGHT_X0, players[3] + 10, RIGHT_X1, HEIGHT - MARGIN)


# --------------------------------------------------------------------------- the view, typed


@dataclass
class Pawn:
    label: str
    name: str
    colour: Colour


@dataclass
class CellV:
    id: str
    row: int
    col: int
    kind: str
    name: str
    location: int | None
    face_down: bool
    darkness: int
    shrouded: bool
    tokens: int
    dropped: dict[str, int]
    cold_spot: bool = False
    pawns: list[Pawn] = field(default_factory=list)
    ghosts: list[str] = field(default_factory=list)
    label: str = ""
    """How events name the cell: the name, or "Locked Room (row 1, column 2)"."""


@dataclass
class SlotV:
    """A pawn slot (an investigator) or the Ghost player, as a player panel."""

    seat: str
    seat_label: str
    colour: Colour
    character: str
    role: str
    tools: dict[str, int]
    tasks: int
    plans: int
    ongoing: list[str]
    status: str
    active: bool
    ghost: bool = False
    hand_count: int = 0
    note: str = ""
    ongoing_names: list[str] = field(default_factory=list)
    initials: str = ""


@dataclass
class TaskV:
    name: str
    subtype: str
    cost: list[str]
    points: int
    reward: str


@dataclass
class HauntCardV:
    kind: str
    location: int | None
    die_value: int | None
    arrows: dict[str, str]


@dataclass
class Board:
    mode: str
    cells: list[CellV]
    ghosts: dict[str, str | None]
    slots: list[SlotV]
    lookouts: list[str]
    initials: dict[str, str]
    wounded: list[str]
    devoured: list[str]
    escaped: list[str]
    tool_piles: dict[str, int]
    tasks: list[TaskV]
    decks: dict[str, int]
    dice: list[int]
    current_die: int | None
    action_hours: list[int]
    track: list[int]
    track_index: int
    track_value: int
    darkness_supply: int
    darkness_total: int
    shrouds_left: int
    shrouds_total: int
    points: int
    target: int
    exorcised: bool
    haunt_level: int
    haunt_win: int
    terror: list[tuple[str, int]]
    terror_effects: list[str]
    ghost_budget: int
    round: int
    game_turn: int
    phase: str
    active_label: str
    active_colour: Colour
    actions_left: int | None
    actions_per_turn: int
    over: str
    over_reason: str
    events: list[str]
    last_haunt: str
    prompt: str
    hand: list[HauntCardV] | None
    peek: list[str]


# --------------------------------------------------------------------------- reading the view


_i, _s, _d, _l = as_int, as_str, as_dict, as_list  # view readers (renders/common.py)


def _name_of(item: Any) -> str:
    """A display name from an id string or a ``{"id", "name"}`` dict."""
    if isinstance(item, dict):
        return _s(item.get("name")) or _s(item.get("id")).replace("_", " ").title()
    return item.replace("_", " ").title() if isinstance(item, str) else ""


def _initials(name: str) -> str:
    words = [w for w in name.replace("-", " ").split() if w]
    if not words:
        return "?"
    if len(words) == 1:
        return words[0][:2].capitalize()
    return (words[0][0] + words[1][0]).upper()


def _tools(value: Any) -> dict[str, int]:
    """Tools as ``{type: count}`` (zero counts dropped)."""
    return {str(k): _i(v) for k, v in _d(value).items() if _i(v) > 0}


def _haunt_card(item: Any) -> HauntCardV:
    d = _d(item)
    loc, dv = d.get("location"), d.get("die_value")
    return HauntCardV(
        kind=_s(d.get("kind"), "haunt"),
        location=loc if isinstance(loc, int) else None,
        die_value=dv if isinstance(dv, int) else None,
        arrows={k: _s(v) for k, v in _d(d.get("arrows")).items()},
    )


def _short_reward(task: Mapping[str, Any]) -> str:
    if _s(task.get("ongoing")):
        return "★ Ongoing"
    reward = _s(task.get("reward"))
    if "Plan" in reward:
        return "+ Plan"
    return f"+ {reward}" if reward else ""


def _read(view: Mapping[str, Any]) -> Board:
    """The view dict (``rules.exorcism.view``) as typed records, tolerant of missing keys."""
    # One label per Character, distinct across every Character in the view (pawns, panels,
    # Lookouts, the Wounded): colour is never the only difference.
    all_names = [_s(_d(p).get("name")) for c in _l(view.get("cells"))
                 for p in _l(_d(c).get("pawns"))]
    all_names += [_s(_d(i).get("name")) for i in _l(view.get("investigators"))]
    for group in _d(view.get("characters")).values():
        all_names += [_name_of(x) for x in _l(group)]
    initials = distinct_initials(all_names, _initials)
    seats_info = [_d(x) for x in _l(view.get("seats_info"))]
    names = _d(view.get("names"))
    ova = _d(view.get("ova"))
    ghost_seat = _s(ova.get("ghost_seat")) or None
    seat_number = {_s(x.get("seat")): i + 1 for i, x in enumerate(seats_info)}

    def seat_name(seat: str) -> str:
        given = names.get(seat)
        if isinstance(given, str) and given:
            return given
        return f"Player {seat_number[seat]}" if seat in seat_number else seat

    inv_seats = [_s(x.get("seat")) for x in seats_info if _s(x.get("seat")) != ghost_seat]
    seat_colour: dict[str, Colour] = {
        s: SEAT_COLOURS[i % len(SEAT_COLOURS)] for i, s in enumerate(inv_seats)
    }

    def pawn_colour(seat: str, role: str) -> Colour:
        colour = seat_colour.get(seat, LOOKOUT)
        return mix(colour, (255, 255, 255), 0.45) if role == "secondary" else colour

    active_seat = _s(view.get("active_seat"))
    phase = _s(view.get("phase"))
    investigators = {_s(_d(x).get("id")): _d(x) for x in _l(view.get("investigators"))}

    # Player panels: the Ghost player first, then each seat's pawn slots.
    slots: list[SlotV] = []
    for info in seats_info:
        seat = _s(info.get("seat"))
        delta = _i(info.get("next_turn_delta"))
        note = f"{delta:+d} action next turn" if delta else ""
        if seat == ghost_seat:
            slots.insert(
                0,
                SlotV(
                    seat=seat,
                    seat_label=seat_name(seat),
                    colour=GHOST_PLAYER,
                    character="Ghost player",
                    role="Ghosts",
                    tools={},
                    tasks=-1,
                    plans=-1,
                    ongoing=[],
                    status="",
                    active=phase == "ghost",
                    ghost=True,
                    hand_count=_i(ova.get("hand_count")),
                ),
            )
            continue
        inv_ids = [_s(x) for x in _l(info.get("investigators"))]
        for k, inv_id in enumerate(inv_ids):
            inv = investigators.get(inv_id, {})
            role = _s(inv.get("role"), "investigator")
            char = _s(inv.get("name"))
            status = ""
            if inv.get("escaped"):
                status = "Escaped"
            elif inv.get("awaiting_rescue") or not char:
                status = "Wounded"
            if info.get("out") and not status:
                status = "Out"
            first = k == 0
            slots.append(
                SlotV(
                    seat=seat,
                    seat_label=seat_name(seat),
                    colour=pawn_colour(seat, role),
                    character=char or "(awaiting rescue)",
                    initials=initials.get(char) or _initials(char),
                    role={"primary": "Primary", "secondary": "Secondary"}.get(role, "Investigator"),
                    tools=_tools(inv.get("tools")),
                    tasks=len(_l(info.get("tasks"))) if first else -1,
                    plans=_i(info.get("plan_count")) if first else -1,
                    ongoing=[
                        _s(_d(t).get("ongoing")) or _s(_d(t).get("name"))
                        for t in _l(info.get("ongoing"))
                    ]
                    if first
                    else [],
                    ongoing_names=[_s(_d(t).get("name")) for t in _l(info.get("ongoing"))]
                    if first
                    else [],
                    status=status,
                    active=seat == active_seat and phase in ("actions", "haunt"),
                    note=note if first else "",
                )
            )

    cells: list[CellV] = []
    for raw in _l(view.get("cells")):
        c = _d(raw)
        loc = c.get("location")
        pawns = [
            Pawn(
                initials.get(_s(p.get("name"))) or _initials(_s(p.get("name"))),
                _s(p.get("name")),
                pawn_colour(_s(p.get("seat")), _s(p.get("role"))),
            )
            for p in (_d(x) for x in _l(c.get("pawns")))
        ]
        cells.append(
            CellV(
                id=_s(c.get("id")),
                row=_i(c.get("row")),
                col=_i(c.get("col")),
                kind=_s(c.get("kind"), "house"),
                name=_s(c.get("name")),
                label=_s(c.get("label")) or _s(c.get("name")),
                location=loc if isinstance(loc, int) else None,
                face_down=bool(c.get("face_down")),
                darkness=_i(c.get("darkness")),
                shrouded=bool(c.get("shrouded")),
                tokens=_i(c.get("exorcism_tokens")),
                dropped=_tools(c.get("dropped")),
                cold_spot=bool(c.get("cold_spot")),
                pawns=pawns,
                ghosts=[g for g in GHOST_ORDER if g in _l(c.get("ghosts"))],
            )
        )
    ghosts_raw = _d(view.get("ghosts"))
    ghosts: dict[str, str | None] = {g: _s(ghosts_raw.get(g)) or None for g in GHOST_ORDER}

    clock = _d(view.get("clock"))
    dice_raw = [_d(x) for x in _l(clock.get("dice"))]
    dice = [0 if x.get("discarded") else _i(x.get("pips")) for x in dice_raw]
    action_hours = [i + 1 for i, x in enumerate(dice_raw) if x.get("action_icon")]
    current = clock.get("current")
    track = _d(view.get("darkness_track"))
    exo = _d(view.get("exorcism"))
    decks = _d(view.get("decks"))

    terror = [(_s(_d(t).get("name")), _i(_d(t).get("threshold"))) for t in _l(ova.get("terror"))]
    effects: list[str] = []
    eff = _d(ova.get("effects"))
    cell_names = {c.id: c.label or c.name for c in cells}
    if _s(eff.get("cold_spot")):
        cs = _s(eff.get("cold_spot"))
        effects.append(f"Cold Spot: {cell_names.get(cs, cs)}")
    if _s(eff.get("haunting_sounds")):
        hs = _s(eff.get("haunting_sounds"))
        effects.append(f"Haunting Sounds: {_seat_label_of(seats_info, hs)}")
    if eff.get("walls_bleed"):
        effects.append("The Walls Bleed")
    amnesia = [
        f"{_seat_label_of(seats_info, seat)} {_i(delta):+d}"
        for seat, delta in _d(ova.get("amnesia")).items()
    ]
    if amnesia:
        effects.append("Amnesia: " + ", ".join(amnesia))

    result = _d(view.get("result"))
    over = ""
    if view.get("over") or phase == "over":
        winners = [_s(w) for w in _l(result.get("winners"))]
        if ghost_seat and ghost_seat in winners:
            over = "The Ghost player wins"
        elif winners:
            over = "The investigators win!"
        else:
            over = "The house wins"

    active_label = _s(view.get("active_label"))
    if active_seat and active_seat in seat_number:
        who = seat_name(active_seat)
        active_label = f"{active_label} ({who})" if active_label and active_label != who else who

    prompt = _d(view.get("prompt"))
    prompt_text = _s(prompt.get("text"))
    labels = [_s(x) for x in _l(prompt.get("labels"))]
    if prompt_text and labels and not any(label in prompt_text for label in labels):
        prompt_text = f"{', '.join(labels)}: {prompt_text}"
    elif not prompt_text and not over:
        waiting = [_s(x) for x in _l(view.get("waiting_labels"))]
        if waiting:
            prompt_text = f"Waiting for {', '.join(waiting)}"
    hand_raw = view.get("hand")
    chars = _d(view.get("characters"))
    return Board(
        mode=_s(view.get("mode"), "core"),
        cells=cells,
        ghosts=ghosts,
        slots=slots,
        lookouts=[_name_of(x) for x in _l(chars.get("lookouts"))],
        initials=initials,
        wounded=[_name_of(x) for x in _l(chars.get("wounded"))],
        devoured=[_name_of(x) for x in _l(chars.get("devoured"))],
        escaped=[_name_of(x) for x in _l(chars.get("escaped"))],
        tool_piles={str(k): _i(v) for k, v in _d(view.get("tool_piles")).items()},
        tasks=[
            TaskV(
                name=_s(t.get("name")),
                subtype=_s(t.get("subtype")),
                cost=[str(x) for x in _l(t.get("to_complete"))],
                points=_i(t.get("points")),
                reward=_short_reward(t),
            )
            for t in (_d(x) for x in _l(view.get("available_tasks")))
        ],
        decks={
            "Haunt": _i(decks.get("haunt")),
            "Task": _i(decks.get("task")),
            "Plan": _i(decks.get("plan")),
        },
        dice=dice,
        current_die=current if isinstance(current, int) else None,
        action_hours=action_hours,
        track=[_i(x) for x in _l(track.get("spaces"))],
        track_index=_i(track.get("position")),
        track_value=_i(track.get("value")),
        darkness_supply=_i(view.get("darkness_supply")),
        darkness_total=_i(view.get("darkness_total"), 30),
        shrouds_left=_i(view.get("shrouds_left")),
        shrouds_total=_i(view.get("shrouds_total"), 8),
        points=_i(exo.get("points")),
        target=_i(exo.get("target"), 30),
        exorcised=bool(exo.get("exorcised")),
        haunt_level=_i(ova.get("haunt_level")),
        haunt_win=_i(ova.get("haunt_level_win"), 30),
        terror=terror,
        terror_effects=effects,
        ghost_budget=_i(ova.get("budget_left")),
        round=_i(view.get("round"), 1),
        # A turn card's view keeps the game turn as "game_turn" (renders.with_card).
        game_turn=_i(view.get("game_turn", view.get("turn"))),
        phase=phase,
        active_label=active_label,
        active_colour=seat_colour.get(active_seat, MUTED),
        actions_left=_i(view.get("actions_left")) if "actions_left" in view else None,
        actions_per_turn=_i(view.get("actions_per_turn"), 3),
        over=over,
        over_reason=_s(result.get("reason")),
        events=[_s(e) for e in _l(view.get("log")) if _s(e)],
        last_haunt=_s(view.get("last_haunt")),
        prompt=prompt_text,
        hand=[_haunt_card(h) for h in hand_raw] if isinstance(hand_raw, list) else None,
        peek=[
            f"{_i(_d(p).get('position'))}. {_s(_d(p).get('text'))}" for p in _l(view.get("peek"))
        ],
    )


def _seat_label_of(seats_info: Sequence[Mapping[str, Any]], seat: str) -> str:
    for info in seats_info:
        if info.get("seat") == seat:
            return _s(info.get("label"), seat)
    return seat


# --------------------------------------------------------------------------- static layer


def _clock_geometry() -> tuple[float, float, float]:
    x0, y0, x1, y1 = CLOCK_BOX
    return (x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) / 2 - 4


def _track_xy(index: int, n: int) -> tuple[float, float]:
    """Centre of Darkness Track space ``index`` (0 = one o'clock, clockwise)."""
    cx, cy, r = _clock_geometry()
    angle = math.radians(-90 + 360 * (index + 1) / max(n, 1))
    rt = r - 24
    return cx + rt * math.cos(angle), cy + rt * math.sin(angle)


def _dice_boxes(n: int) -> list[Box]:
    cx, cy, _ = _clock_geometry()
    cols = max(1, math.ceil(n / 2))
    size = 42 if cols <= 4 else max(24, int(176 / cols) - 6)
    gap = 8
    width = cols * size + (cols - 1) * gap
    rows = math.ceil(n / cols) if n else 1
    height = rows * size + (rows - 1) * gap
    x0, y0 = cx - width / 2, cy - height / 2 - 8
    out: list[Box] = []
    for i in range(n):
        r, c = divmod(i, cols)
        bx, by = x0 + c * (size + gap), y0 + r * (size + gap)
        out.append((bx, by, bx + size, by + size))
    return out


FRAME: Colour = (52, 42, 64)
"""The board's outer frame."""


def _static_layer(height: int, track_len: int, n_dice: int, rows: int) -> Image.Image:
    img = Image.new("RGB", (WIDTH, height), BG)
    d = ImageDraw.Draw(img)
    # Frame and title bar.
    d.rectangle((0, 0, WIDTH, TOP_BAR), fill=BAR)
    d.line((0, TOP_BAR, WIDTH, TOP_BAR), fill=PANEL_EDGE, width=2)
    d.rectangle((2, 2, WIDTH - 3, height - 3), outline=FRAME, width=2)
    for box in (STATUS_BOX, STATS_BOX, TASKS_BOX, *_lower_boxes(rows)):
        rounded_box(d, box, 12, fill=PANEL, outline=PANEL_EDGE, width=2)
    # Clock face: a dark dial, the rim and the Darkness Track spaces, the die slots.
    cx, cy, r = _clock_geometry()
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(30, 24, 42), outline=PANEL_EDGE, width=3)
    d.ellipse((cx - r + 8, cy - r + 8, cx + r - 8, cy + r - 8), outline=(58, 46, 76), width=2)
    for i in range(track_len):
        tx, ty = _track_xy(i, track_len)
        d.ellipse(
            (tx - 19, ty - 19, tx + 19, ty + 19), fill=(40, 30, 56), outline=(96, 76, 130), width=2
        )
    for box in _dice_boxes(n_dice):
        x0, y0, x1, y1 = box
        rounded_box(
            d, (x0 - 2, y0 - 2, x1 + 2, y1 + 2), 8, fill=(22, 17, 30), outline=(80, 66, 96), width=2
        )
    if height > HEIGHT:
        d.line((MARGIN, HEIGHT, WIDTH - MARGIN, HEIGHT), fill=PANEL_EDGE, width=2)
    return img


def _extend_layer(img: Image.Image) -> None:
    """The public board's layer cut to a seat's height (black below it) made what
    `_static_layer` builds at that height: the frame's bottom moves down, the hand's rule."""
    d = ImageDraw.Draw(img)
    d.rectangle((0, HEIGHT - 4, WIDTH, img.height), fill=BG)
    d.rectangle((2, 2, WIDTH - 3, img.height - 3), outline=FRAME, width=2)
    d.line((MARGIN, HEIGHT, WIDTH - MARGIN, HEIGHT), fill=PANEL_EDGE, width=2)


# --------------------------------------------------------------------------- house


def _grid_geometry(cells: Sequence[CellV]) -> tuple[dict[tuple[int, int], Box], list[int], int]:
    """Boxes per (row, col), the rows that only hold fixed cells, and the number of columns."""
    if not cells:
        return {}, [], 4
    rows = sorted({c.row for c in cells})
    cols = max(4, max(c.col for c in cells))
    fixed_rows = [r for r in rows if all(c.kind != "house" for c in cells if c.row == r)]
    all_rows = list(range(min(rows), max(rows) + 1))
    heights = {r: FIXED_ROW_H if r in fixed_rows or r not in rows else ROOM_ROW_H for r in all_rows}
    total = sum(heights.values()) + GAP * (len(all_rows) - 1)
    avail = HEIGHT - MARGIN - GRID_Y0
    scale = min(1.0, avail / total) if total else 1.0
    cw = min(CELL_W, (RIGHT_X0 - 20 - GRID_X0 - GAP * (cols - 1)) / cols)
    boxes: dict[tuple[int, int], Box] = {}
    y = float(GRID_Y0)
    for r in all_rows:
        h = heights[r] * scale
        for c in range(1, cols + 1):
            x = GRID_X0 + (c - 1) * (cw + GAP)
            boxes[(r, c)] = (x, y, x + cw, y + h)
        y += h + GAP * scale
    return boxes, fixed_rows, cols


def _ghost_shape(d: ImageDraw.ImageDraw, ghost: str, box: Box) -> None:
    """Wraith: a black sheet-ghost; Bull: a red horned head; Devourer: a white toothed maw."""
    x0, y0, x1, y1 = box
    s = min(x1 - x0, y1 - y0)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    x0, y0, x1, y1 = cx - s / 2, cy - s / 2, cx + s / 2, cy + s / 2
    if ghost == "wraith":
        pts: list[tuple[float, float]] = []
        rr = s * 0.4
        top = y0 + s * 0.05
        for k in range(13):
            a = math.pi + math.pi * k / 12
            pts.append((cx + rr * math.cos(a), top + rr + rr * math.sin(a)))
        bottom = y1 - s * 0.04
        right, left = cx + rr, cx - rr
        pts.append((right, bottom))
        waves = 3
        for k in range(1, 2 * waves):
            fx = right - (right - left) * k / (2 * waves)
            pts.append((fx, bottom - (s * 0.14 if k % 2 else 0)))
        pts.append((left, bottom))
        d.polygon(pts, fill=(8, 6, 10), outline=(235, 230, 245), width=2)
        er = s * 0.07
        for ex in (cx - s * 0.14, cx + s * 0.14):
            ey = top + rr * 0.95
            d.ellipse((ex - er, ey - er * 1.4, ex + er, ey + er * 1.4), fill=(240, 240, 255))
    elif ghost == "bull":
        red = (214, 40, 40)
        d.polygon(
            [
                (x0 + s * 0.02, y0 + s * 0.08),
                (x0 + s * 0.3, y0 + s * 0.34),
                (x0 + s * 0.22, y0 + s * 0.46),
            ],
            fill=(245, 230, 200),
            outline=(40, 10, 10),
        )
        d.polygon(
            [
                (x1 - s * 0.02, y0 + s * 0.08),
                (x1 - s * 0.3, y0 + s * 0.34),
                (x1 - s * 0.22, y0 + s * 0.46),
            ],
            fill=(245, 230, 200),
            outline=(40, 10, 10),
        )
        d.ellipse(
            (x0 + s * 0.14, y0 + s * 0.2, x1 - s * 0.14, y1 - s * 0.02),
            fill=red,
            outline=(255, 210, 200),
            width=2,
        )
        d.ellipse((cx - s * 0.2, y0 + s * 0.62, cx + s * 0.2, y1 - s * 0.08), fill=(150, 20, 24))
        er = s * 0.06
        for ex in (cx - s * 0.15, cx + s * 0.15):
            d.ellipse(
                (ex - er, y0 + s * 0.42 - er, ex + er, y0 + s * 0.42 + er), fill=(255, 236, 120)
            )
    else:
        pts = []
        n = 12
        for k in range(2 * n):
            rr = s * (0.5 if k % 2 == 0 else 0.4)
            a = -math.pi / 2 + k * math.pi / n
            pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
        d.polygon(pts, fill=(248, 248, 244), outline=(30, 30, 40), width=2)
        mouth = [(cx - s * 0.26, cy + s * 0.02)]
        for k in range(1, 8):
            mx = cx - s * 0.26 + s * 0.52 * k / 7
            mouth.append((mx, cy + (s * 0.02 if k % 2 == 0 else s * 0.14)))
        mouth += [(cx + s * 0.26, cy + s * 0.2), (cx - s * 0.26, cy + s * 0.2)]
        d.polygon(mouth, fill=(30, 10, 20))
        er = s * 0.06
        for ex in (cx - s * 0.14, cx + s * 0.14):
            d.ellipse((ex - er, cy - s * 0.18 - er, ex + er, cy - s * 0.18 + er), fill=(180, 0, 20))


def _pawn(d: ImageDraw.ImageDraw, centre: tuple[float, float], size: float, pawn: Pawn) -> None:
    r = size / 2
    disc(
        d,
        centre,
        r,
        pawn.colour,
        outline=(12, 10, 16),
        width=2,
        label=pawn.label,
        label_size=max(12, int(r * 0.95)),
        label_fill=(14, 12, 18),
    )


def _flow_items(
    d: ImageDraw.ImageDraw, area: Box, ghosts: Sequence[str], pawns: Sequence[Pawn]
) -> None:
    """Ghosts then pawns, left to right in rows, shrinking until they fit ``area``."""
    n = len(ghosts) + len(pawns)
    if not n:
        return
    x0, y0, x1, y1 = area
    w, h = x1 - x0, y1 - y0
    size = 46.0
    gap = 5.0
    while size > 18:
        per_row = max(1, int((w + gap) // (size + gap)))
        rows = math.ceil(n / per_row)
        if rows * size + (rows - 1) * gap <= h:
            break
        size -= 2
    per_row = max(1, int((w + gap) // (size + gap)))
    items: list[tuple[str, Pawn | None]] = [(g, None) for g in ghosts]
    items += [("", p) for p in pawns]
    rows = math.ceil(n / per_row)
    total_h = rows * size + (rows - 1) * gap
    y = y0 + max(0.0, (h - total_h) / 2)
    for i, (g, p) in enumerate(items):
        r, c = divmod(i, per_row)
        bx = x0 + c * (size + gap)
        by = y + r * (size + gap)
        if p is None:
            _ghost_shape(d, g, (bx, by, bx + size, by + size))
        else:
            _pawn(d, (bx + size / 2, by + size / 2), size, p)


def _darkness_slots(
    d: ImageDraw.ImageDraw, x: float, y: float, count: int, slots: int = 4
) -> float:
    """Darkness tokens as filled slots (``count`` of ``slots``); returns the right edge."""
    r = 10
    for k in range(max(slots, count)):
        cx = x + r + k * (2 * r + 5)
        if k < count:
            d.ellipse((cx - r, y - r, cx + r, y + r), fill=DARK_TOKEN, outline=DARK_RING, width=3)
        else:
            d.ellipse((cx - r, y - r, cx + r, y + r), outline=(110, 90, 100), width=2)
    return x + max(slots, count) * (2 * r + 5)


def _tool_counts(
    d: ImageDraw.ImageDraw,
    x: float,
    y: float,
    tools: Mapping[str, int],
    size: int = 22,
    fnt_size: int = 18,
    back: Colour = PANEL,
    right: float | None = None,
) -> float:
    """Tool icons with their counts, left to right from ``x`` (centred on ``y``); short of
    room before ``right``, the last icon's count also says how many more Tools ("2+4")."""
    fnt = font(fnt_size, True)
    keys = [t for t in TOOL_ORDER if tools.get(t)] + [t for t in tools if t not in TOOL_ORDER]

    def rest(k: int) -> str:
        """The count for the Tools from the ``k``-th type on: "2+4" is 2 of it, 4 more."""
        after = sum(tools[t] for t in keys[k + 1:])
        return f"{tools[keys[k]]}" + (f"+{after}" if after else "")

    for k, t in enumerate(keys):
        n = tools[t]
        label = f"{n}"
        w = size + 3 + text_width(label, fnt)
        room = 13 + size + text_width(rest(k + 1), fnt) if k + 1 < len(keys) else 0
        if right is not None and x + w + room > right:
            # Never a Tool left out unsaid (stop 68: a Room with four Darkness drew its first
            # Tool type only), and the rest are counted behind a Tool's own icon.
            label = rest(k)
            w = size + 3 + text_width(label, fnt)
        icon(
            d,
            TOOL_ICON.get(t, "circle"),
            (x, y - size / 2, x + size, y + size / 2),
            TOOL_COLOUR.get(t, TEXT),
            back=back,
        )
        d.text((x + size + 3, y), label, font=fnt, fill=TEXT, anchor="lm")
        x += w + 10
        if right is not None and "+" in label:
            break
    return x


def _place_words(cell: CellV) -> str:
    """ "row 1, column 2" when the cell's label carries its place, else ""."""
    if cell.kind != "house" or not cell.label.endswith(")") or "(row " not in cell.label:
        return ""
    return cell.label[cell.label.rindex("(row ") + 1:-1]


def _draw_cell(img: Image.Image, d: ImageDraw.ImageDraw, box: Box, cell: CellV) -> None:
    x0, y0, x1, y1 = box
    w = x1 - x0
    pad = 8
    if cell.kind == "attic":
        fill, edge, fg = ATTIC, (120, 124, 160), TEXT
    elif cell.kind == "foyer":
        fill, edge, fg = FOYER, (255, 226, 150), (24, 16, 8)
    elif cell.face_down:
        fill, edge, fg = LOCKED, LOCKED_EDGE, TEXT
    elif cell.shrouded:
        fill, edge, fg = SHROUD, SHROUD_EDGE, (222, 208, 238)
    else:
        fill, edge, fg = ROOM, ROOM_EDGE, TEXT
    rounded_box(d, box, 10, fill=fill, outline=edge, width=2)
    if cell.face_down:
        hatch(img, (x0 + 3, y0 + 3, x1 - 3, y1 - 3), (50, 62, 88), spacing=18, width=2)
    if cell.shrouded:
        hatch(img, (x0 + 3, y0 + 3, x1 - 3, y1 - 3), (78, 50, 108), spacing=14, width=4)
        rounded_box(d, box, 10, outline=edge, width=4)

    fixed = cell.kind in ("attic", "foyer")
    if cell.face_down:
        title = "Locked Room"
    elif fixed:
        title = (cell.name or cell.kind).upper()
    else:
        title = cell.name or "?"
    die_size = 36
    has_badge = cell.face_down or bool(cell.location)
    name_w = w - 2 * pad - (die_size + 6 if has_badge else 0)
    fnt = fit_font(title, name_w, 22 if fixed else 20, min_size=18, bold=True)
    lines = wrap(title, fnt, name_w, max_lines=2)
    ty = y0 + pad - 1
    for line in lines:
        d.text((x0 + pad, ty), line, font=fnt, fill=fg)
        ty += 22
    header_bottom = y0 + pad + (26 if fixed else max(44, 22 * len(lines)))

    if cell.face_down:
        icon(
            d,
            "lock",
            (x1 - pad - die_size, y0 + pad, x1 - pad, y0 + pad + die_size),
            GOLD,
            back=LOCKED,
        )
    elif cell.location:
        die(
            d,
            (x1 - pad - die_size, y0 + pad, x1 - pad, y0 + pad + die_size),
            cell.location,
            face=(240, 234, 220) if not cell.shrouded else (168, 156, 180),
        )
    # A name another cell shares (the face-down Locked Rooms) gets its place, in the words
    # events and buttons use ("Locked Room (row 1, column 2)"); a unique name is enough.
    place = _place_words(cell)
    if place:
        pfnt = fit_font(place, w - 2 * pad, 16, min_size=12)
        d.text((x0 + pad, y0 + pad + die_size + 6), place, font=pfnt,
               fill=(200, 190, 214) if not cell.shrouded else (196, 176, 220))
        header_bottom = max(header_bottom, y0 + pad + die_size + 26)

    area: Box
    if fixed:
        area = (x0 + pad, y0 + 36, x1 - pad, y1 - 5)
    else:
        area = (x0 + pad, max(header_bottom + 2, y0 + pad + die_size + 22), x1 - pad - 2, y1 - 34)
    tag_x = x0 + pad
    if cell.shrouded:
        tag_x = _tag(d, tag_x, header_bottom - 2, "SHROUDED", (136, 80, 190), (230, 200, 255))
    if cell.cold_spot:
        tag_x = _tag(
            d, tag_x, header_bottom - 2, "COLD", (60, 140, 210), (200, 235, 255), ic="snowflake"
        )
    if tag_x > x0 + pad:
        area = (area[0], header_bottom + 27, area[2], area[3])
        if cell.cold_spot:
            rounded_box(d, box, 10, outline=(120, 200, 255), width=4)

    _flow_items(d, area, cell.ghosts, cell.pawns)

    by = y1 - 18
    bx = x0 + pad
    if fixed:
        if cell.darkness:
            _darkness_slots(d, x1 - pad - 4 * 25, by, cell.darkness, slots=0)
        return
    if cell.face_down:
        if cell.tokens:
            icon(d, "coin", (bx, by - 13, bx + 26, by + 13), EXO)
            d.text((bx + 31, by), f"×{cell.tokens}", font=font(20, True), fill=GOLD, anchor="lm")
            bx += 78
        if cell.darkness:
            bx = _darkness_slots(d, bx, by, cell.darkness, slots=0) + 6
    else:
        bx = _darkness_slots(d, bx, by, cell.darkness) + 6
    if cell.dropped:
        rounded_box(d, (bx - 3, by - 14, x1 - pad + 2, by + 14), 6, fill=mix(fill, (0, 0, 0), 0.35))
        _tool_counts(
            d,
            bx + 2,
            by,
            cell.dropped,
            size=20,
            fnt_size=17,
            back=mix(fill, (0, 0, 0), 0.35),
            right=x1 - pad,
        )


def _tag(
    d: ImageDraw.ImageDraw,
    x: float,
    y: float,
    text: str,
    fill: Colour,
    edge: Colour,
    ic: str = "",
) -> float:
    """A small label box (SHROUDED, COLD) at ``(x, y)``; returns the x after it."""
    fnt = font(18, True)
    w = text_width(text, fnt) + 14 + (20 if ic else 0)
    rounded_box(d, (x, y, x + w, y + 25), 6, fill=fill, outline=edge, width=1)
    tx = x + 7
    if ic:
        icon(d, ic, (tx, y + 4, tx + 17, y + 21), (255, 255, 255), back=fill)
        tx += 20
    d.text((tx, y + 13), text, font=fnt, fill=(255, 255, 255), anchor="lm")
    return x + w + 5


def _draw_side_box(d: ImageDraw.ImageDraw, box: Box, title: str) -> float:
    """A small labelled panel beside the Attic or the Foyer; returns the content top."""
    rounded_box(d, box, 10, fill=PANEL, outline=PANEL_EDGE, width=2)
    # A narrow panel (a wide Attic row) shrinks its title rather than overflow its box.
    fnt = fit_font(title, box[2] - box[0] - 20, 18, min_size=12, bold=True)
    d.text((box[0] + 10, box[1] + 5), title, font=fnt, fill=MUTED)
    return box[1] + 31


def _draw_decks(d: ImageDraw.ImageDraw, box: Box, b: Board) -> None:
    x0, y0, x1, y1 = box
    rounded_box(d, box, 10, fill=PANEL, outline=PANEL_EDGE, width=2)
    rows = [(k, v) for k, v in b.decks.items()]
    step = (y1 - y0 - 10) / max(1, len(rows))
    fnt = font(18, True)
    for i, (label, n) in enumerate(rows):
        cy = y0 + 5 + step * (i + 0.5)
        icon(d, "card", (x0 + 10, cy - 11, x0 + 32, cy + 11), MUTED, back=PANEL)
        d.text((x0 + 40, cy), f"{label} deck", font=font(18), fill=MUTED, anchor="lm")
        d.text((x1 - 12, cy), str(n), font=fnt, fill=TEXT, anchor="rm")


def _draw_tool_piles(d: ImageDraw.ImageDraw, box: Box, b: Board) -> None:
    x0, y0, x1, y1 = box
    rounded_box(d, box, 10, fill=PANEL, outline=PANEL_EDGE, width=2)
    types = [t for t in TOOL_ORDER if t in b.tool_piles] or list(TOOL_ORDER)
    step = (x1 - x0 - 12) / len(types)
    cy = y0 + 30
    for i, t in enumerate(types):
        x = x0 + 8 + step * i
        icon(
            d,
            TOOL_ICON.get(t, "circle"),
            (x + 2, cy - 17, x + 34, cy + 15),
            TOOL_COLOUR.get(t, TEXT),
            back=PANEL,
        )
        n = b.tool_piles.get(t, 0)
        d.text(
            (x + 40, cy), str(n), font=font(22, True), fill=TEXT if n else HAUNT_RED, anchor="lm"
        )
        d.text(
            (x + step / 2 - 4, y1 - 10),
            TOOL_SHORT.get(t, t),
            font=font(17),
            fill=TOOL_COLOUR.get(t, MUTED),
            anchor="ms",
        )


@dataclass
class _ChipLayout:
    fits: bool
    size: int
    spots: list[tuple[float, float, float]]


def _layout_chips(
    area: Box, items: Sequence[tuple[str, Colour, str]], size: int, min_size: int
) -> _ChipLayout:
    """Where flowing chips go, at the largest font size (down to ``min_size``) that fits."""
    x0, y0, x1, y1 = area
    spots: list[tuple[float, float, float]] = []
    for s in range(size, min_size - 1, -1):
        fnt = font(s, True)
        h = s + 7
        x, y = x0, y0
        spots = []
        for text, _, ic in items:
            w = min(x1 - x0, text_width(text, fnt) + 16 + (h - 6 if ic else 0))
            if x + w > x1 and x > x0:
                x, y = x0, y + h + 4
            if y + h > y1:
                break
            spots.append((x, y, w))
            x += w + 6
        if len(spots) == len(items):
            return _ChipLayout(True, s, spots)
    return _ChipLayout(False, min_size, spots)


def _chips(
    d: ImageDraw.ImageDraw,
    area: Box,
    items: Sequence[tuple[str, Colour, str]],
    size: int = 18,
    min_size: int = 15,
) -> None:
    """Flowing chips ``(text, colour, icon)``, shrinking the font until all fit ``area``;
    if they cannot, as many as fit and a "+N" chip."""
    x0, y0, x1, y1 = area
    lay = _layout_chips(area, items, size, min_size)
    fnt = font(lay.size, True)
    h = lay.size + 7
    shown = list(zip(items, lay.spots, strict=False))
    if not lay.fits and shown:
        more = len(items) - len(shown) + 1
        shown = shown[:-1]
        last_x = (shown[-1][1][0] + shown[-1][1][2] + 6) if shown else x0
        last_y = shown[-1][1][1] if shown else y0
        label = f"+{more}"
        w = text_width(label, fnt) + 16
        if last_x + w > x1:
            last_x, last_y = x0, last_y + h + 4
        if last_y + h <= y1:
            rounded_box(d, (last_x, last_y, last_x + w, last_y + h), h / 2, fill=(90, 84, 100))
            d.text((last_x + w / 2, last_y + h / 2), label, font=fnt, fill=TEXT, anchor="mm")
    for (text, colour, ic), (x, y, w) in shown:
        rounded_box(d, (x, y, x + w, y + h), h / 2, fill=colour)
        fg = readable_on(colour)
        tx = x + 8
        if ic:
            icon(d, ic, (tx - 2, y + 3, tx + h - 8, y + h - 3), fg, back=colour)
            tx += h - 6
        draw_text(d, (tx, y + h / 2), text, fnt, fg, anchor="lm", max_width=x + w - 6 - tx)


def _discs(d: ImageDraw.ImageDraw, area: Box, items: Sequence[tuple[str, Colour, str]],
           labels: Mapping[str, str]) -> None:
    """Characters as small discs with initials and a badge icon (when names do not fit)."""
    x0, y0, x1, y1 = area
    size = min(40.0, y1 - y0)
    x = x0
    for name, colour, ic in items:
        if x + size > x1:
            break
        disc(
            d,
            (x + size / 2, y0 + size / 2),
            size / 2,
            colour,
            outline=(12, 10, 16),
            label=labels.get(name) or _initials(name),
            label_size=17,
        )
        if ic:
            icon(d, ic, (x + size - 14, y0 + size - 14, x + size + 2, y0 + size + 2), TEXT)
        x += size + 6


def _draw_lookouts(d: ImageDraw.ImageDraw, box: Box, b: Board) -> None:
    top = _draw_side_box(d, box, f"LOOKOUTS ({len(b.lookouts)})")
    items = [(n, LOOKOUT, "") for n in b.lookouts]
    if not items:
        if b.phase == "setup":
            d.text((box[0] + 12, top + 4), "dealt at setup", font=font(18), fill=DIM)
        else:
            d.text((box[0] + 12, top + 4), "none left!", font=font(18, True), fill=HAUNT_RED)
        return
    _chips(d, (box[0] + 10, top, box[2] - 8, box[3] - 6), items)


def _draw_wounded(d: ImageDraw.ImageDraw, box: Box, b: Board) -> None:
    items = [(n, (200, 80, 80), "heart") for n in b.wounded]
    items += [(n, (236, 236, 236), "skull") for n in b.devoured]
    title = "WOUNDED" if not b.devoured else "WOUNDED / EATEN"
    top = _draw_side_box(d, box, title)
    if not items:
        d.text((box[0] + 12, top + 4), "none", font=font(18), fill=DIM)
        return
    area: Box = (box[0] + 8, top, box[2] - 6, box[3] - 6)
    if _layout_chips(area, items, 18, 16).fits:
        _chips(d, area, items, min_size=16)
    else:
        _discs(d, area, items, b.initials)


def _draw_house(img: Image.Image, d: ImageDraw.ImageDraw, b: Board,
                layer: Hashable = None) -> None:
    boxes, _fixed, ncols = _grid_geometry(b.cells)
    occupied = {(c.row, c.col) for c in b.cells}
    for c in b.cells:
        if (c.row, c.col) in boxes:
            box = boxes[(c.row, c.col)]
            # A cell draws only its own data inside its box, on the static layer.
            memo_region(img, box, ("exorcism cell", layer, box, repr(c)),
                        partial(_draw_cell, img, d, box, c))
    # Side panels in the free spans of the Attic and Foyer rows.
    rows = sorted({r for r, _ in boxes})
    if not rows:
        return
    for r, contents in ((rows[0], ("decks", "tools")), (rows[-1], ("lookouts", "wounded"))):
        spans: list[tuple[int, int]] = []
        start: int | None = None
        for col in range(1, ncols + 2):
            free = col <= ncols and (r, col) not in occupied
            if free and start is None:
                start = col
            if not free and start is not None:
                spans.append((start, col - 1))
                start = None
        if not spans:
            continue
        assign: list[tuple[str, tuple[int, int]]]
        if len(spans) == 1:
            a, z = spans[0]
            if z > a:
                assign = [(contents[0], (a, a)), (contents[1], (a + 1, z))]
            else:
                assign = [(contents[0], (a, a))]
        else:
            spans.sort(key=lambda sp: sp[1] - sp[0])
            small, big = spans[0], spans[-1]
            assign = [(contents[0], small), (contents[1], big)]
            if contents[0] == "lookouts":
                assign = [(contents[0], big), (contents[1], small)]
        for what, (a, z) in assign:
            bx: Box = (boxes[(r, a)][0], boxes[(r, a)][1], boxes[(r, z)][2], boxes[(r, z)][3])
            # A side panel draws inside its box, on the static layer, from these data only.
            shown = {"decks": (b.decks,), "tools": (b.tool_piles,),
                     "lookouts": (b.lookouts, b.phase),
                     "wounded": (b.devoured, b.initials, b.wounded)}[what]
            memo_region(img, bx, ("exorcism " + what, layer, repr(shown)), partial({
                "decks": _draw_decks,
                "tools": _draw_tool_piles,
                "lookouts": _draw_lookouts,
                "wounded": _draw_wounded,
            }[what], d, bx, b))


# --------------------------------------------------------------------------- right column


MODE_LABEL = {"core": "Co-op", "one_vs_all": "One vs All", "solo": "Solo"}


def _draw_top_bar(d: ImageDraw.ImageDraw, b: Board) -> None:
    d.text(
        (MARGIN, TOP_BAR / 2),
        "THE EXORCISM AT MONKTON FALLS",
        font=font(24, True),
        fill=TEXT,
        anchor="lm",
    )
    x: float = MARGIN + text_width("THE EXORCISM AT MONKTON FALLS", font(24, True)) + 14
    x += chip(
        d,
        (x, TOP_BAR / 2 - 15),
        MODE_LABEL.get(b.mode, b.mode),
        font(18, True),
        fill=(120, 80, 170),
        height=30,
        pad=10,
    )
    when = f"Round {b.round} · Turn {b.game_turn}" if b.game_turn else "Setup"
    d.text((x + 14, TOP_BAR / 2), when, font=font(20, True), fill=MUTED, anchor="lm")
    # Ghost legend, right-aligned: shape, name, where. Where long places do not fit beside
    # the title, the Rooms' names alone (each Ghost is drawn on its card anyway).
    room = RIGHT_X1 - (x + 14 + text_width(when, font(20, True)) + 24)
    shown = [g for g in GHOST_ORDER if g in b.ghosts or not b.ghosts]
    for full, smallest in ((True, 15), (False, 12)):
        parts = [(g, f"{GHOST_NAMES[g]} {_where_label(b, b.ghosts.get(g), full)}")
                 for g in shown]
        size = 18
        while size > smallest and sum(text_width(t, font(size, True)) + 58
                                      for _, t in parts) > room:
            size -= 1
        if sum(text_width(t, font(size, True)) + 58 for _, t in parts) <= room:
            break
    fnt = font(size, True)
    xr: float = RIGHT_X1
    for g, label in reversed(parts):
        w = text_width(label, fnt)
        d.text((xr, TOP_BAR / 2), label, font=fnt, fill=TEXT, anchor="rm")
        xr -= w + 6
        _ghost_shape(d, g, (xr - 34, TOP_BAR / 2 - 17, xr, TOP_BAR / 2 + 17))
        xr -= 34 + 18


def _where_label(b: Board, where: str | None, full: bool = True) -> str:
    if not where:
        return "—" if not b.over else "gone"
    for c in b.cells:
        if c.id == where:
            return (c.label if full else "") or c.name or c.kind.title()
    return where


def _draw_status(d: ImageDraw.ImageDraw, b: Board) -> None:
    x0, y0, x1, y1 = STATUS_BOX
    cy = (y0 + y1) / 2
    if b.over:
        fnt = font(26, True)
        d.text((x0 + 16, cy), "GAME OVER", font=fnt, fill=HIGHLIGHT, anchor="lm")
        x = x0 + 16 + text_width("GAME OVER", fnt) + 18
        draw_text(d, (x, cy), b.over, font(24, True), TEXT, anchor="lm", max_width=x1 - x - 16)
        return
    x = x0 + 14
    right = ""
    if b.phase == "ghost":
        _ghost_shape(d, "wraith", (x, cy - 20, x + 40, cy + 20))
        label, colour = "The Ghost player haunts the house", (220, 220, 235)
        right = f"{b.ghost_budget} ghost action{'s' if b.ghost_budget != 1 else ''} left"
    elif b.phase == "setup":
        icon(d, "hourglass", (x + 4, cy - 16, x + 36, cy + 16), MUTED)
        label, colour = "Setting up the house", MUTED
    else:
        disc(d, (x + 20, cy), 19, b.active_colour, outline=(12, 10, 16))
        label = f"{b.active_label or '—'}'s turn"
        label = label[:1].upper() + label[1:]  # Solo: "The Doctor and the Detective's turn"
        colour = b.active_colour
        if b.phase == "haunt":
            right = "Haunting the house…"
        elif b.actions_left is not None:
            right = f"{b.actions_left} / {b.actions_per_turn} actions left"
    x += 52
    fnt_r = font(22, True)
    rw = text_width(right, fnt_r) if right else 0.0
    avail = x1 - x - rw - 32
    draw_text(
        d,
        (x, cy),
        label,
        fit_font(label, avail, 26, 19, True),
        colour,
        anchor="lm",
        max_width=avail,
    )
    if right:
        d.text((x1 - 16, cy), right, font=fnt_r, fill=HIGHLIGHT, anchor="rm")


def _time_left(dice: Sequence[int]) -> str:
    total = sum(max(0, p) for p in dice) * 10
    return f"{total // 60} h {total % 60:02d} m left"


def _draw_clock(d: ImageDraw.ImageDraw, b: Board) -> None:
    cx, _, _ = _clock_geometry()
    n = len(b.track)
    for i, value in enumerate(b.track):
        tx, ty = _track_xy(i, n)
        if i < b.track_index:
            d.ellipse((tx - 17, ty - 17, tx + 17, ty + 17), fill=(88, 56, 130))
            fg = (200, 180, 230)
        elif i == b.track_index:
            d.ellipse(
                (tx - 21, ty - 21, tx + 21, ty + 21),
                fill=(170, 100, 255),
                outline=HIGHLIGHT,
                width=3,
            )
            fg = (255, 255, 255)
        else:
            fg = (150, 130, 176)
        d.text((tx, ty), str(value), font=font(20, True), fill=fg, anchor="mm")
    boxes = _dice_boxes(len(b.dice))
    current = next((i for i, p in enumerate(b.dice) if p > 0), None)
    for i, (box, pips) in enumerate(zip(boxes, b.dice, strict=False)):
        x0, y0, x1, y1 = box
        hour = i + 1
        if pips > 0:
            die(
                d,
                box,
                pips,
                face=(244, 238, 226) if i == current else (196, 188, 176),
                outline=HIGHLIGHT if i == current else (70, 60, 70),
                width=4 if i == current else 2,
            )
        if hour in b.action_hours:
            if pips > 0:
                icon(d, "star", (x1 - 12, y0 - 8, x1 + 8, y0 + 12), GOLD)
            else:
                icon(d, "star", (x0 + 8, y0 + 8, x1 - 8, y1 - 8), GOLD)
        elif pips <= 0:
            d.line((x0 + 10, y0 + 10, x1 - 10, y1 - 10), fill=(70, 58, 84), width=2)
            d.line((x0 + 10, y1 - 10, x1 - 10, y0 + 10), fill=(70, 58, 84), width=2)
    if boxes:
        bottom = max(bx[3] for bx in boxes)
        d.text((cx, bottom + 12), _time_left(b.dice), font=font(20, True), fill=TEXT, anchor="ma")
        top = min(bx[1] for bx in boxes)
        d.text((cx, top - 12), "TIME", font=font(18, True), fill=MUTED, anchor="md")


def _turns_to_action(b: Board) -> int | None:
    """Turns until the next Action-Icon hour is uncovered (its die discarded)."""
    for hour in sorted(b.action_hours):
        i = hour - 1
        if 0 <= i < len(b.dice) and b.dice[i] > 0:
            return sum(max(0, p) for p in b.dice[: i + 1])
    return None


def _score(
    d: ImageDraw.ImageDraw,
    x0: float,
    x1: float,
    y: float,
    label: str,
    colour: Colour,
    value: int,
    maximum: int,
    fill: Colour,
    compact: bool,
    ticks: Sequence[int] = (),
) -> float:
    """A labelled score with its bar (one line when ``compact``); returns the next y."""
    lf, vf = font(20, True), font(24, True)
    text = f"{value} / {maximum}"
    d.text((x0, y + 13), label, font=lf, fill=colour, anchor="lm")
    d.text((x1, y + 13), text, font=vf, fill=TEXT, anchor="rm")
    if compact:
        bx0 = x0 + text_width(label, lf) + 12
        bx1 = x1 - text_width(text, vf) - 12
        progress_bar(d, (bx0, y + 3, bx1, y + 23), value, maximum, fill=fill, ticks=ticks)
        return y + 34
    progress_bar(d, (x0, y + 32, x1, y + 54), value, maximum, fill=fill, ticks=ticks)
    return y + 66


def _draw_stats(d: ImageDraw.ImageDraw, b: Board) -> None:
    x0, y0, x1, y1 = STATS_BOX
    x0 += 14
    x1 -= 14
    ova = b.mode == "one_vs_all"
    y = _score(d, x0, x1, y0 + 10, "EXORCISM", GOLD, b.points, b.target, EXO, compact=ova)
    # Darkness Track value and what it drives.
    value = b.track_value
    plural = "s" if value != 1 else ""
    drives = f"Ghost action{plural}" if ova else f"Haunt card{plural}"
    d.text((x0, y + 12), "DARKNESS", font=font(20, True), fill=DARK_RING, anchor="lm")
    d.text((x1, y + 12), f"{value} {drives} a turn", font=font(19, True), fill=TEXT, anchor="rm")
    y += 34
    # Supply and Shrouds.
    d.ellipse((x0, y + 2, x0 + 22, y + 24), fill=DARK_TOKEN, outline=DARK_RING, width=3)
    d.text(
        (x0 + 30, y + 13),
        f"{b.darkness_supply} / {b.darkness_total} tokens",
        font=font(19, True),
        fill=TEXT if b.darkness_supply > 3 else HAUNT_RED,
        anchor="lm",
    )
    sx = x0 + 208
    rounded_box(d, (sx, y + 1, sx + 24, y + 25), 4, fill=SHROUD, outline=SHROUD_EDGE, width=2)
    d.text(
        (sx + 32, y + 13),
        f"{b.shrouds_left} / {b.shrouds_total} shrouds",
        font=font(19, True),
        fill=TEXT if b.shrouds_left > 1 else HAUNT_RED,
        anchor="lm",
    )
    y += 36
    if ova:
        y = _score(
            d,
            x0,
            x1,
            y,
            "HAUNT",
            HAUNT_RED,
            b.haunt_level,
            b.haunt_win,
            HAUNT_RED,
            compact=True,
            ticks=[t for _, t in b.terror],
        )
        # Two columns: the left one as wide as its longest name, the right one the rest.
        left = [name for i, (name, _) in enumerate(b.terror) if i % 2 == 0]
        left_w = 27 + max((text_width(n, font(18)) for n in left), default=0.0) + 14
        for i, (name, threshold) in enumerate(b.terror):
            r, c = divmod(i, 2)
            tx, ty = x0 + c * left_w, y + r * 23
            col_w = left_w - 14 if c == 0 else x1 - tx
            on = b.haunt_level >= threshold
            fg = (255, 150, 150) if on else (150, 140, 166)
            d.text((tx, ty), f"{threshold}", font=font(18, True), fill=fg)
            nf = fit_font(name, col_w - 27, 18, 16)
            draw_text(d, (tx + 27, ty), name, nf, fg, max_width=col_w - 27)
        y += 23 * math.ceil(len(b.terror) / 2) + 6
        if b.terror_effects:
            items = [(e, (150, 40, 48), "bolt") for e in b.terror_effects]
            _chips(d, (x0, y, x1, y1 - 6), items, size=18, min_size=14)
    else:
        y += 4
        d.line((x0, y, x1, y), fill=PANEL_EDGE, width=1)
        y += 12
        turns = _turns_to_action(b)
        lines = [f"{sum(max(0, p) for p in b.dice)} turns left on the clock"]
        if turns is not None:
            lines.append(f"Next ★ Time Action in {turns} turn{'s' if turns != 1 else ''}")
        else:
            lines.append("No ★ Time Actions left")
        if b.escaped:
            lines.append("Escaped: " + ", ".join(b.escaped))
        for line in lines:
            if y + 24 > y1 - 6:
                break
            draw_text(d, (x0, y), line, font(19), MUTED, max_width=x1 - x0)
            y += 28
        if b.last_haunt and y + 70 <= y1:
            _draw_last_haunt(d, (x0, y + 2, x1, y1 - 8), b.last_haunt)


_HAUNT_TEXT = re.compile(
    r"Location (\d+), Die Value (\d+); Wraith ([NESW]), Bull ([NESW]), Devourer ([NESW])"
)


def _draw_last_haunt(d: ImageDraw.ImageDraw, box: Box, text: str) -> None:
    """The last Haunt card resolved: its die and the three arrows (or its text)."""
    x0, y0, x1, y1 = box
    d.text((x0, y0), "LAST HAUNT CARD", font=font(18, True), fill=MUTED)
    y = y0 + 24
    m = _HAUNT_TEXT.search(text)
    if m is None:
        draw_text_in_box(d, (x0, y, x1, y1), text, 19, TEXT, min_size=18, max_lines=2)
        return
    loc, value = int(m.group(1)), int(m.group(2))
    size = min(36.0, y1 - y)
    die(d, (x0, y, x0 + size, y + size), loc)
    x = x0 + size + 10
    cy = y + size / 2
    fnt = font(18, True)
    dirs = m.groups()[2:]
    full = [GHOST_NAMES[g] + (f" ×{value}" if g == "bull" else "") for g in GHOST_ORDER]
    short = [GHOST_NAMES[g][0] + (f"×{value}" if g == "bull" else "") for g in GHOST_ORDER]
    needed = sum(26 + text_width(label, fnt) + 6 for label in full)
    labels = full if x + needed <= x1 else short
    for g, direction, label in zip(GHOST_ORDER, dirs, labels, strict=True):
        colour = {"wraith": (10, 8, 14), "bull": (214, 40, 40), "devourer": (248, 248, 244)}[g]
        outline = (235, 230, 245) if g == "wraith" else (20, 16, 24)
        arrow(d, (x, cy - 11, x + 22, cy + 11), direction, colour, outline=outline, width=2)
        d.text((x + 26, cy), label, font=fnt, fill=TEXT, anchor="lm")
        x += 26 + text_width(label, fnt) + 6


def _points_coin(d: ImageDraw.ImageDraw, centre: tuple[float, float], points: int) -> None:
    """An Exorcism token with the points on it."""
    cx, cy = centre
    r = 15
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=EXO, outline=(120, 84, 20), width=2)
    d.text((cx, cy), str(points), font=font(19, True), fill=(40, 24, 4), anchor="mm")


def _draw_tasks(d: ImageDraw.ImageDraw, b: Board) -> None:
    x0, y0, x1, y1 = TASKS_BOX
    d.text((x0 + 14, y0 + 7), "AVAILABLE TASKS", font=font(18, True), fill=MUTED)
    d.text(
        (x1 - 14, y0 + 7),
        f"Task deck {b.decks.get('Task', 0)}",
        font=font(18),
        fill=MUTED,
        anchor="ra",
    )
    n = 3
    gap = 10
    cw = (x1 - x0 - 28 - gap * (n - 1)) / n
    top, bottom = y0 + 34, y1 - 8
    for i in range(n):
        cx0 = x0 + 14 + i * (cw + gap)
        box: Box = (cx0, top, cx0 + cw, bottom)
        if i >= len(b.tasks):
            rounded_box(d, box, 8, fill=SLOT, outline=(60, 50, 70), width=1)
            continue
        t = b.tasks[i]
        colour = TOOL_COLOUR.get(t.subtype, MUTED)
        card = mix(colour, (30, 24, 40), 0.8)
        rounded_box(d, box, 8, fill=card, outline=colour, width=2)
        ly = top + 18
        _points_coin(d, (cx0 + cw - 22, ly + 1), t.points)
        name_w = cw - 48
        draw_text(
            d,
            (cx0 + 10, ly),
            t.name,
            fit_font(t.name, name_w, 20, 18, True),
            TEXT,
            anchor="lm",
            max_width=name_w,
        )
        # The Tools it needs, then the reward.
        iy = bottom - 18
        ix = cx0 + 10
        for tool in t.cost:
            icon(
                d,
                TOOL_ICON.get(tool, "circle"),
                (ix, iy - 12, ix + 24, iy + 12),
                TOOL_COLOUR.get(tool, TEXT),
                back=card,
            )
            ix += 28
        if t.reward:
            rf = font(18, True)
            room = cx0 + cw - 10 - ix - 4
            reward = t.reward if text_width(t.reward, rf) <= room else t.reward.split()[0]
            draw_text(d, (cx0 + cw - 10, iy), reward, rf, HIGHLIGHT, anchor="rm", max_width=room)


def _draw_slot(d: ImageDraw.ImageDraw, box: Box, s: SlotV, roomy: bool) -> None:
    x0, y0, x1, y1 = box
    fill = mix(s.colour, PANEL, 0.86)
    rounded_box(
        d,
        box,
        10,
        fill=fill,
        outline=HIGHLIGHT if s.active else mix(s.colour, PANEL, 0.4),
        width=4 if s.active else 2,
    )
    cy1 = y0 + 22
    r = 18
    if s.ghost:
        _ghost_shape(d, "wraith", (x0 + 8, cy1 - r - 2, x0 + 10 + 2 * r, cy1 + r + 2))
    else:
        label = s.initials if not s.character.startswith("(") else "?"
        disc(
            d,
            (x0 + 10 + r, cy1),
            r,
            s.colour,
            outline=(12, 10, 16),
            label=label,
            label_size=18,
            label_fill=(14, 12, 18),
        )
    tx = x0 + 18 + 2 * r
    chip_text = s.status or (s.role if s.role in ("Primary", "Secondary") else "")
    if s.active and not chip_text:
        chip_text = "TURN"
    chip_w = 0.0
    if chip_text:
        cf = font(17, True)
        chip_w = text_width(chip_text, cf) + 18
        chip_fill = {
            "Wounded": (190, 60, 60),
            "Escaped": (70, 150, 90),
            "Out": (90, 90, 100),
            "TURN": HIGHLIGHT,
        }.get(chip_text, mix(s.colour, PANEL, 0.45))
        rounded_box(d, (x1 - 8 - chip_w, cy1 - 13, x1 - 8, cy1 + 13), 13, fill=chip_fill)
        d.text(
            (x1 - 8 - chip_w / 2, cy1), chip_text, font=cf, fill=readable_on(chip_fill), anchor="mm"
        )
    avail = x1 - 16 - chip_w - tx
    hf = fit_font(s.character, avail, 21, 18, True)
    draw_text(d, (tx, cy1), s.character, hf, TEXT, anchor="lm", max_width=avail)
    used = min(avail, text_width(s.character, hf))
    if text_width(s.seat_label, font(18)) <= avail - used - 10:
        d.text((tx + used + 10, cy1 + 1), s.seat_label, font=font(18), fill=MUTED, anchor="lm")
    cy2 = y0 + 54 if roomy else y1 - 19
    if s.ghost:
        text = f"Hand: {s.hand_count} Haunt card{'s' if s.hand_count != 1 else ''}"
        d.text((x0 + 12, cy2), text, font=font(19, True), fill=TEXT, anchor="lm")
        return
    right = x1 - 10
    cfnt = font(18, True)
    counts = ""
    if s.tasks >= 0:
        counts = f"Tasks {s.tasks}  Plans {s.plans}"
        if not roomy:
            star = f"★{len(s.ongoing)}  " if s.ongoing else ""
            nf = font(20, True)
            tools_w = sum(37 + text_width(str(n), nf) for n in s.tools.values())
            counts = star + counts
            if 12 + max(tools_w, 90) + text_width(counts, cfnt) + 18 > x1 - x0:
                counts = star + f"T{s.tasks} P{s.plans}"
    cw = text_width(counts, cfnt) if counts and not roomy else 0.0
    if cw:
        d.text((right, cy2), counts, font=cfnt, fill=(232, 224, 250), anchor="rm")
    if s.tools:
        _tool_counts(
            d, x0 + 12, cy2, s.tools, size=24, fnt_size=20, back=fill, right=right - cw - 8
        )
    else:
        d.text((x0 + 12, cy2), "no tools", font=font(18), fill=DIM, anchor="lm")
    if not roomy:
        return
    extra: list[tuple[str, Colour]] = []
    if counts:
        extra.append((counts, (232, 224, 250)))
    if s.note:
        extra.append((s.note, (255, 160, 160)))
    x = x0 + 12
    if s.ongoing:
        # The Ongoing Abilities in full when they fit, else the Tasks' names, else a count:
        # never a cut sentence (issue #13).
        room = x1 - 12 - x - sum(text_width(t, font(18, True)) + 16 for t, _ in extra)
        names = [n for n in s.ongoing_names if n]
        extra.append((pick_fitting(
            ["★ " + ", ".join(s.ongoing), "★ " + ", ".join(names) if names else "",
             f"★ {len(s.ongoing)} Ongoing"], font(18, True), room), GOLD))
    for text, colour in extra:
        if x > x1 - 60:
            break
        w = draw_text(
            d, (x, y1 - 15), text, font(18, True), colour, anchor="lm", max_width=x1 - 12 - x
        )
        x += w + 16


def _draw_players(img: Image.Image, d: ImageDraw.ImageDraw, b: Board, box: Box,
                  layer: Hashable = None) -> None:
    x0, y0, x1, _ = box
    slots = b.slots[:6]
    if not slots:
        d.text(
            ((x0 + x1) / 2, (box[1] + box[3]) / 2),
            "Investigators are being chosen…",
            font=font(20),
            fill=MUTED,
            anchor="mm",
        )
        return
    cols = 1 if len(slots) == 1 else 2
    rows = math.ceil(len(slots) / cols)
    pw = (x1 - x0 - 20 - PANEL_GAP * (cols - 1)) / cols
    ph = _panel_height(rows)
    for i, s in enumerate(slots):
        r, c = divmod(i, cols)
        bx = x0 + 10 + c * (pw + PANEL_GAP)
        by = y0 + 8 + r * (ph + PANEL_GAP)
        panel: Box = (bx, by, bx + pw, by + ph)
        # A player's panel draws inside its box, on the static layer, from these data only.
        memo_region(img, panel, ("exorcism slot", layer, repr(s), ph >= 92),
                    partial(_draw_slot, d, panel, s, ph >= 92))


def _draw_events(d: ImageDraw.ImageDraw, b: Board, box: Box) -> None:
    x0, y0, x1, y1 = box
    y = y0 + 8
    bottom = y1 - 8
    prompt = b.prompt
    if b.over and b.over_reason:
        prompt = b.over_reason
    if prompt:
        pfnt = font(19, True)
        lines = wrap(prompt, pfnt, x1 - x0 - 64, max_lines=3)
        ph = 12 + 23 * len(lines)
        pb: Box = (x0 + 8, bottom - ph, x1 - 8, bottom)
        rounded_box(d, pb, 8, fill=(72, 54, 18), outline=GOLD, width=2)
        icon(d, "flame" if b.over else "hourglass", (x0 + 16, pb[1] + 7, x0 + 38, pb[1] + 29), GOLD)
        for k, line in enumerate(lines):
            d.text((x0 + 46, pb[1] + 7 + 23 * k), line, font=pfnt, fill=(255, 236, 180))
        bottom = pb[1] - 6
    d.text((x0 + 14, y), "WHAT JUST HAPPENED", font=font(18, True), fill=MUTED)
    y += 25
    fnt = font(18)
    room = int((bottom - y) // 23)
    if room <= 0:
        return
    events = list(b.events)
    if b.peek:
        events.append("Peek at the Haunt deck: " + "  ".join(b.peek))
    lines_out: list[str] = []
    for e in reversed(events):
        wrapped = wrap(e, fnt, x1 - x0 - 40, max_lines=2)
        if len(lines_out) + len(wrapped) > room:
            if not lines_out:
                lines_out = wrapped[:room]
            break
        lines_out = wrapped + lines_out
    if not lines_out:
        d.text((x0 + 14, y), "The house is quiet… for now.", font=fnt, fill=DIM)
        return
    for k, line in enumerate(lines_out):
        fg = TEXT if k >= len(lines_out) - 2 else MUTED
        d.text((x0 + 24, y + 23 * k), line, font=fnt, fill=fg)


# --------------------------------------------------------------------------- private strip


def _haunt_card_face(d: ImageDraw.ImageDraw, box: Box, c: HauntCardV) -> None:
    x0, y0, x1, y1 = box
    card = (40, 30, 54)
    rounded_box(d, box, 12, fill=card, outline=(190, 160, 230), width=3)
    if c.kind != "haunt":
        label = {"darkness": "DARKNESS", "bull": "BULL", "devourer": "DEVOURER"}.get(c.kind, c.kind)
        d.text(((x0 + x1) / 2, (y0 + y1) / 2), label, font=font(26, True), fill=TEXT, anchor="mm")
        return
    h = y1 - y0
    ds = min(72.0, h - 50)
    dx0 = x0 + 16
    dy0 = y0 + (h - ds) / 2 - 10
    if c.location:
        die(d, (dx0, dy0, dx0 + ds, dy0 + ds), c.location)
    d.text((dx0 + ds / 2, dy0 + ds + 6), "location", font=font(17), fill=MUTED, anchor="ma")
    ax = dx0 + ds + 22
    row_h = (h - 16) / 3
    for k, g in enumerate(GHOST_ORDER):
        cy = y0 + 8 + row_h * (k + 0.5)
        colour = {"wraith": (10, 8, 14), "bull": (214, 40, 40), "devourer": (248, 248, 244)}[g]
        outline = (235, 230, 245) if g == "wraith" else (20, 16, 24)
        direction = c.arrows.get(g, "")
        if direction:
            arrow(d, (ax, cy - 17, ax + 34, cy + 17), direction, colour, outline=outline, width=2)
        label = f"{GHOST_NAMES[g]} {direction}"
        if g == "bull" and c.die_value:
            label += f" ×{c.die_value}"
        draw_text(
            d, (ax + 42, cy), label, font(20, True), TEXT, anchor="lm", max_width=x1 - ax - 50
        )


STRIP_HELP = (
    "Play a card to MOVE THE GHOSTS (each Ghost follows its arrow; the Bull moves ×value) "
    "or to ADD DARKNESS (1 token on every Room showing that location die)."
)


def _draw_strip(d: ImageDraw.ImageDraw, b: Board) -> None:
    y0 = HEIGHT + 8
    y1 = HEIGHT + STRIP_HEIGHT - 14
    cards = b.hand or []
    d.text(
        (MARGIN + 6, y0 + 4),
        "YOUR SECRET HAUNT HAND — only you can see this",
        font=font(21, True),
        fill=HIGHLIGHT,
    )
    cw = 330
    x = MARGIN + 6
    top = y0 + 38
    if not cards:
        d.text((x, top + 20), "No Haunt cards in hand.", font=font(20), fill=MUTED)
        x += 320
    for c in cards[:3]:
        _haunt_card_face(d, (x, top, x + cw, y1), c)
        x += cw + 14
    draw_text_in_box(
        d, (x + 10, top + 4, WIDTH - MARGIN - 6, y1), STRIP_HELP, 19, MUTED, min_size=18
    )


# --------------------------------------------------------------------------- entry point


def render_image(view: Mapping[str, Any]) -> Image.Image:
    """The board as a Pillow image (``render_board`` encodes it)."""
    b = _read(view)
    private = b.hand is not None
    height = HEIGHT + (STRIP_HEIGHT if private else 0)
    track_len = len(b.track) or 12
    slots = min(6, len(b.slots))
    rows = 1 if slots <= 1 else math.ceil(slots / 2)
    n_dice = len(b.dice)
    # The parts above a seat's hand lie on the same static layer at every height: a seat's
    # board pastes the public board's (and the other way round); the hand's names the height.
    layer = ("exorcism", WIDTH, track_len, n_dice, rows)
    img = cached_tall_layer(layer, HEIGHT, height,
                            lambda h: _static_layer(h, track_len, n_dice, rows), _extend_layer)
    players_box, events_box = _lower_boxes(rows)
    d = ImageDraw.Draw(img)
    _draw_top_bar(d, b)
    _draw_house(img, d, b, layer)
    _draw_status(d, b)
    # The clock and the numbers beside it draw inside their boxes, on the static layer, from
    # these data only.
    memo_region(img, CLOCK_BOX, ("exorcism clock", layer,
                                 repr((b.action_hours, b.dice, b.track, b.track_index))),
                partial(_draw_clock, d, b))
    memo_region(img, STATS_BOX, ("exorcism stats", layer, repr((
        b.darkness_supply, b.darkness_total, b.dice, b.escaped, b.haunt_level, b.haunt_win,
        b.last_haunt, b.mode, b.points, b.shrouds_left, b.shrouds_total, b.target, b.terror,
        b.terror_effects, b.track_value, b.action_hours))), partial(_draw_stats, d, b))
    # The tasks draw inside their box, on the static layer, from these data only.
    memo_region(img, TASKS_BOX, ("exorcism tasks", layer, repr(b.decks), repr(b.tasks)),
                partial(_draw_tasks, d, b))
    _draw_players(img, d, b, players_box, layer)
    _draw_events(d, b, events_box)
    if private:  # the hand strip draws below the board, from the hand only
        memo_region(img, (0, HEIGHT, WIDTH - 1, height - 1),
                    ("exorcism hand", layer, height, repr(b.hand)), partial(_draw_strip, d, b))
    return img


def render_board(view: dict[str, Any]) -> bytes:
    """PNG bytes of the board for ``view`` (public or a seat's), under ~300 KB."""
    return encode_png(render_image(view), max_bytes=MAX_BYTES)
