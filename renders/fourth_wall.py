"""Board picture for I Am the Fourth Wall: ``render_board(view) -> PNG``.

Draws only from a view dict (``GAME.view(state, seat)``, keys documented in
``rules/fourth_wall/view.py``, plus the bot's ``names`` {seat: display name}), never from the
engine's state. ``_read`` turns the dict into typed records first, so a missing or malformed
key draws as empty rather than raising.

Layout (1600 x 1000; a seat's private strip adds height below):

- top bar: title, mode (Conflict / Alliance), round (or Setup), the Marble and Horror decks;
- left column: the pentagram of the five Gates (``gates.pentagram``: open ones lit with an eye,
  closed ones dark with a padlock; the count in the middle), under it what Close a Gate takes
  now (``gates.requirement``) or a warning (The Scourge blocks closing; five open in Slumber);
  the Turn Tracker (every rank coloured by its stage, the Wall card's rank outlined, passed
  ranks dimmed, the current stage named, rounds to the next stage); The Wall / The Ancient
  One: its card (face down with a "?" until ``wall.revealed``, then its name, Unique and
  Aura), who plays it, the Doom pool with Doom deferred to its next turn as hollow tokens,
  The Scourge and the Wall's hand size (Conflict), the Target Token holder and the last
  Presence card (Alliance);
- right column: whose turn it is (the Investigator and player, with AP left / AP per turn; or
  the Wall's turn, before whom, Wrath / Brood and its Doom; or GAME OVER and who won); On the
  Streets (Alliance: the five Street cards, their Auras lit while a Horror is on them;
  Conflict: the Streets zone), each Horror with its effective Defeat Cost (Symbols negated by
  Attached Marbles ticked off), its Attached Marbles, Drained and Scourge marks, its Trigger
  Cost (Conflict only: Alliance ignores costs) and Trigger / Deathrattle text where there is
  room; the Anchored Marbles and the last Blitz reveal; one panel per Investigator
  (character, player, Sanity, hand size against the Hand Limit as card slots, Insane /
  Regrouped / Target marks, whose turn); the last events and the pending prompt (or, once
  over, the reason).

A seat's view adds a private strip: The Wall's seat (Conflict, keys ``wall_card`` and
``hand``) gets its Wall card and its hand of Horrors (Manifest Cost, Defeat Cost, Trigger);
an Investigator's seat (``investigators[].hand`` lists) gets the team's hands, Marble by
Marble with their Symbols, a pending peek and the cards dealt at setup. The main picture is
drawn from public keys only, so the channel picture cannot depend on hidden information.

Marbles and Defeat Costs use Symbol tokens: Clue = a gold magnifier, Force = a red fist,
Science = a green flask; a Marble with no Symbol (Elder Sign) shows a star.

The background, frame, panel boxes and the pentagram are a static layer built once per size
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
    cached_tall_layer,
    chip,
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
    readable_on,
    rounded_box,
    text_width,
    wrap,
)

__all__ = ["HEIGHT", "WIDTH", "render_board", "render_image"]

WIDTH = 1600
HEIGHT = 1000
MAX_BYTES = 300_000

# --------------------------------------------------------------------------- palette

BG: Colour = (14, 16, 26)
BAR: Colour = (26, 24, 44)
PANEL: Colour = (28, 30, 48)
PANEL_EDGE: Colour = (78, 82, 122)
SLOT: Colour = (22, 24, 38)
TEXT: Colour = (244, 240, 228)
MUTED: Colour = (182, 180, 204)
DIM: Colour = (118, 118, 146)
GOLD: Colour = (244, 200, 88)
HIGHLIGHT: Colour = (255, 226, 92)
DANGER: Colour = (232, 72, 72)
GOOD: Colour = (110, 206, 132)

GATE_OPEN: Colour = (176, 70, 232)
GATE_GLOW: Colour = (224, 150, 255)
GATE_SHUT: Colour = (40, 42, 62)
STAR_LINE: Colour = (120, 50, 80)

DOOM: Colour = (196, 36, 48)
DOOM_RING: Colour = (255, 140, 120)
SCOURGE: Colour = (255, 96, 40)
HORROR: Colour = (62, 34, 44)
HORROR_EDGE: Colour = (170, 96, 110)
DRAINED: Colour = (44, 44, 56)
DRAINED_EDGE: Colour = (120, 124, 150)
STREET: Colour = (40, 44, 62)
STREET_LIVE: Colour = (74, 40, 66)
WALL_CARD: Colour = (60, 36, 84)
WALL_EDGE: Colour = (200, 150, 255)

STAGES: tuple[str, ...] = ("slumber", "eye_opens", "crescendo", "awakens")
STAGE_NAME = {
    "slumber": "Slumber",
    "eye_opens": "An Eye Opens",
    "crescendo": "The Crescendo",
    "awakens": "The Ancient One Awakens",
}
STAGE_SHORT = {"slumber": "Slumber", "eye_opens": "Eye", "crescendo": "Crescendo", "awakens": "!"}
STAGE_COLOUR: dict[str, Colour] = {
    "slumber": (70, 96, 150),
    "eye_opens": (140, 84, 200),
    "crescendo": (214, 110, 40),
    "awakens": (190, 30, 40),
}
STAGE_ICON = {"slumber": "moon", "eye_opens": "eye", "crescendo": "flame", "awakens": "skull"}

SYMBOLS: tuple[str, ...] = ("clue", "force", "science")
SYMBOL_ICON = {"clue": "magnifier", "force": "fist", "science": "flask"}
SYMBOL_COLOUR: dict[str, Colour] = {
    "clue": (250, 204, 72),
    "force": (240, 96, 80),
    "science": (84, 204, 170),
}
SYMBOL_NAME = {"clue": "Clue", "force": "Force", "science": "Science"}

# --------------------------------------------------------------------------- geometry

MARGIN = 20
TOP_BAR = 56
COL_GAP = 14
LEFT_X0 = MARGIN
LEFT_X1 = 500
RIGHT_X0 = LEFT_X1 + COL_GAP + 6
RIGHT_X1 = WIDTH - MARGIN
TOP_Y = TOP_BAR + 10

GATES_BOX: Box = (LEFT_X0, TOP_Y, LEFT_X1, TOP_Y + 296)
GATE_RING = 100
GATE_CY = TOP_Y + 146
TRACKER_BOX: Box = (LEFT_X0, GATES_BOX[3] + 10, LEFT_X1, GATES_BOX[3] + 10 + 160)
WALL_BOX: Box = (LEFT_X0, TRACKER_BOX[3] + 10, LEFT_X1, HEIGHT - MARGIN)

STATUS_BOX: Box = (RIGHT_X0, TOP_Y, RIGHT_X1, TOP_Y + 58)
STREETS_BOX: Box = (RIGHT_X0, STATUS_BOX[3] + 10, RIGHT_X1, STATUS_BOX[3] + 10 + 410)
INV_Y0 = STREETS_BOX[3] + 10
INV_PANEL_H = 104
PANEL_GAP = 8


def _inv_grid(n: int) -> tuple[int, int]:
    """Columns and rows of Investigator panels for ``n`` Investigators."""
    if n <= 1:
        return 1, 1
    if n == 4:
        return 2, 2
    cols = 3 if n >= 3 else 2
    return cols, math.ceil(n / cols)


def _lower_boxes(rows: int) -> tuple[Box, Box]:
    """The Investigators box (``rows`` rows of panels) and the events box under it."""
    rows = max(1, rows)
    h = 16 + rows * INV_PANEL_H + (rows - 1) * PANEL_GAP
    inv: Box = (RIGHT_X0, INV_Y0, RIGHT_X1, INV_Y0 + h)
    return inv, (RIGHT_X0, inv[3] + 10, RIGHT_X1, HEIGHT - MARGIN)


# --------------------------------------------------------------------------- the view, typed


@dataclass
class MarbleV:
    id: str
    name: str
    symbols: list[str]
    text: str = ""


@dataclass
class HorrorV:
    id: str
    name: str
    street: int | None
    defeat: list[str]
    attached: list[MarbleV]
    drained: bool
    scourge: bool
    trigger_cost: int | None
    manifest: int | None
    drain_on_manifest: bool = False
    text: str = ""
    negated: dict[str, int] | None = None
    tell: str = ""  # which of its name it is ("older", "third"; `short_tell`), or ""

    @property
    def called(self) -> str:
        """Its name, and which of its name it is: "Ghoul (older)"."""
        return f"{self.name} ({self.tell})" if self.tell else self.name


@dataclass
class StreetV:
    number: int
    name: str
    text: str
    active: bool


@dataclass
class WallCardV:
    name: str
    text: str


@dataclass
class InvV:
    id: str
    seat: str
    player: str
    character: str
    colour: Colour
    sanity: int
    hand_limit: int
    hand_count: int
    insane: bool
    regrouped: bool
    shield: bool
    active: bool
    target: bool
    hand: list[MarbleV] | None = None
    dealt: list[str] = field(default_factory=list)
    has_card: bool = True


@dataclass
class Board:
    mode: str
    phase: str
    round: int
    over: str
    over_reason: str
    gates_open: int
    gates_max: int
    pentagram: list[bool]
    closing_blocked: bool
    gate_cost: list[str]
    ranks: list[tuple[int, str]]
    rank_index: int
    stage: str
    revealed: bool
    wall_card: WallCardV | None
    wall_player: str
    wall_hand_count: int | None
    wall_turn: bool
    wall_mode: str
    doom: int
    doom_deferred: int
    scourge: str
    scourge_on_streets: bool
    horrors: list[HorrorV]
    streets: list[StreetV]
    anchored: list[MarbleV]
    investigators: list[InvV]
    decks: dict[str, int]
    ap: int | None
    ap_max: int | None
    active_label: str
    active_colour: Colour
    prompt: str
    events: list[str]
    private_wall_card: WallCardV | None = None
    wall_hand: list[HorrorV] | None = None
    team_hands: bool = False
    last_presence: str = ""
    revealed_cards: list[MarbleV] = field(default_factory=list)
    peek: list[str] = field(default_factory=list)
    presence_cards: tuple[int, bool] | None = None  # Alliance: (how many, this Wall turn's)


# --------------------------------------------------------------------------- reading the view


def _i(value: Any, default: int = 0) -> int:
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value
    if isinstance(value, float) and math.isfinite(value):
        return int(value)
    return default


def _oi(value: Any) -> int | None:
    """An int, or None when the value is not a number."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return _i(value)


def _s(value: Any, default: str = "") -> str:
    return value if isinstance(value, str) else default


def _d(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _l(value: Any) -> list[Any]:
    return list(value) if isinstance(value, (list, tuple)) else []


def _pretty(ident: str) -> str:
    return ident.replace("_", " ").replace("-", " ").title()


def _symbols(value: Any) -> list[str]:
    """Symbols as a list of "clue" / "force" / "science" (a list, or a ``{symbol: n}`` map)."""
    if isinstance(value, dict):
        out: list[str] = []
        for sym in SYMBOLS:
            out += [sym] * max(0, min(12, _i(value.get(sym))))
        return out
    return [str(x).lower() for x in _l(value) if str(x).lower() in SYMBOLS][:12]


def _marble(item: Any) -> MarbleV:
    d = _d(item)
    return MarbleV(
        id=_s(d.get("id")),
        name=_s(d.get("name")),
        symbols=_symbols(d.get("symbols")),
        text=_s(d.get("text")),
    )


def short_tell(tell: str) -> str:
    """The view's `tell` ("the older one", "the third to arrive") as a row says it beside the
    name: "older", "third" (stop 69: four Ghoul rows in Conflict read alike; the log told them
    apart). The Scourge's row says SCOURGE already."""
    words = tell.split()
    if words[:1] == ["the"]:
        words = words[1:]
    if words[-1:] == ["one"]:
        words = words[:-1]
    if words[-2:] == ["to", "arrive"]:
        words = words[:-2]
    return " ".join(words)


def _horror(item: Any) -> HorrorV:
    d = _d(item)
    cost = d.get("defeat_cost") if "defeat_cost" in d else d.get("defeat")
    man = _d(d.get("manifest"))
    negated = d.get("negated")
    return HorrorV(
        id=_s(d.get("id")),
        name=_s(d.get("name")) or "Horror",
        street=_oi(d.get("street")),
        defeat=_symbols(cost),
        attached=[_marble(m) for m in _l(d.get("attached"))],
        drained=bool(d.get("drained")),
        scourge=bool(d.get("scourge")),
        trigger_cost=_oi(d.get("trigger_cost")),
        manifest=_oi(man.get("doom")),
        drain_on_manifest=bool(man.get("drain")),
        text=_s(d.get("text")),
        negated={k: _i(v) for k, v in negated.items()} if isinstance(negated, dict) else None,
        # The Scourge's card says SCOURGE already.
        tell="" if d.get("scourge") else short_tell(_s(d.get("tell"))),
    )


def _wall_card(value: Any) -> WallCardV | None:
    d = _d(value)
    name = _s(d.get("name"))
    return WallCardV(name=name, text=_s(d.get("text"))) if name else None


def _initials(name: str) -> str:
    words = [w for w in name.replace("-", " ").split() if w and w.lower() != "the"]
    if not words:
        return "?"
    if len(words) == 1:
        return words[0][:2].capitalize()
    return (words[0][0] + words[1][0]).upper()


def _gate_cost(value: Any) -> list[str]:
    """The Symbols Close a Gate needs: ``distinct`` different ones plus the Aura extras."""
    req = _d(value)
    if not req:
        return []
    distinct = max(0, min(_i(req.get("distinct"), 3), len(SYMBOLS)))
    out = list(SYMBOLS[:distinct])
    for sym, n in _d(req.get("extra")).items():
        if sym in SYMBOLS:
            out += [sym] * max(0, min(_i(n), 4))
    return sorted(out, key=SYMBOLS.index)[:8]


def _outcome(view: Mapping[str, Any], mode: str, wall_seat: str) -> str:
    """Who won, in words ("" while the game goes on)."""
    if not (view.get("over") or _s(view.get("phase")) == "over"):
        return ""
    winners = [_s(w) for w in _l(_d(view.get("result")).get("winners"))]
    wall = "The Wall" if mode == "conflict" else "The Ancient One"
    if wall_seat and wall_seat in winners:
        return f"{wall} wins"
    return "The Investigators win!" if winners else f"{wall} wins"


def _read(view: Mapping[str, Any]) -> Board:
    """The view dict (``rules.fourth_wall.view``) as typed records, tolerant of missing keys."""
    names = {str(k): v for k, v in _d(view.get("names")).items() if isinstance(v, str) and v}
    mode = _s(view.get("mode"), "conflict")
    phase = _s(view.get("phase"))
    turn = _d(view.get("turn"))
    active_inv = _s(turn.get("active"))
    target = _s(view.get("target"))

    invs: list[InvV] = []
    for k, raw in enumerate(_l(view.get("investigators"))[:6]):
        d = _d(raw)
        iid = _s(d.get("id"), f"i{k + 1}")
        seat = _s(d.get("seat"))
        character = _s(d.get("name")) or "(choosing)"
        label = _s(d.get("seat_label"))
        player = names.get(seat) or (label if label and label != character else "")
        sanity = _i(d.get("sanity"))
        hand_raw = d.get("hand")
        hand = [_marble(m) for m in hand_raw] if isinstance(hand_raw, list) else None
        dealt = [_s(_d(c).get("name")) for c in _l(d.get("dealt"))]
        invs.append(
            InvV(
                id=iid,
                seat=seat,
                player=player,
                character=character,
                colour=SEAT_COLOURS[k % len(SEAT_COLOURS)],
                sanity=sanity,
                hand_limit=_i(d.get("hand_limit"), sanity),
                hand_count=_i(d.get("hand_count")),
                insane=bool(d.get("insane")),
                regrouped=bool(d.get("regrouped")),
                shield=bool(d.get("shield")),
                active=bool(d.get("is_active")) and phase == "investigator",
                target=mode == "alliance" and (bool(d.get("is_target")) or iid == target),
                hand=hand,
                dealt=[x for x in dealt if x],
                has_card=_oi(d.get("sanity")) is not None,
            )
        )
    inv_by_id = {inv.id: inv for inv in invs}

    gates = _d(view.get("gates"))
    gates_max = max(1, min(_i(gates.get("max"), 5), 8))
    gates_open = max(0, min(_i(gates.get("open")), gates_max))
    pentagram = [bool(x) for x in _l(gates.get("pentagram"))][:gates_max]
    if len(pentagram) != gates_max or sum(pentagram) != gates_open:
        pentagram = [k < gates_open for k in range(gates_max)]

    tracker = _d(view.get("tracker"))
    ranks: list[tuple[int, str]] = []
    rank_index = 0
    for rd in (_d(r) for r in _l(tracker.get("ranks"))[:16]):
        stage = _s(rd.get("stage"))
        if stage not in STAGES:
            continue
        if rd.get("current"):
            rank_index = len(ranks)
        ranks.append((_i(rd.get("rank")), stage))
    stage = _s(tracker.get("stage"), ranks[rank_index][1] if ranks else "slumber")
    if stage not in STAGES:
        stage = "slumber"

    wall = _d(view.get("wall"))
    wall_seat = _s(wall.get("seat"))
    # Face up once An Eye Opens, or when the view names it (the game's end, stop 64)
    revealed = bool(wall.get("revealed")) or bool(wall.get("name"))
    wall_card = _wall_card(wall) if revealed else None

    horrors = [_horror(h) for h in _l(view.get("horrors"))]
    scourge_h = next((h for h in horrors if h.scourge), None)
    scourge_name = _s(_d(view.get("scourge")).get("on_name"))
    if scourge_h is not None:
        scourge_name = scourge_h.name

    streets: list[StreetV] = []
    for sd in (_d(x) for x in _l(view.get("streets"))):
        number = _i(sd.get("number"))
        occupied = any(h.street == number for h in horrors)
        streets.append(
            StreetV(
                number=number,
                name=_s(sd.get("name")) or f"Street {number}",
                text=_s(sd.get("text")),
                active=bool(sd.get("aura_active")) or occupied,
            )
        )
    streets.sort(key=lambda st: st.number)

    decks = {str(k): _i(v) for k, v in _d(view.get("decks")).items() if _oi(v) is not None}
    wall_player = names.get(wall_seat, "") if wall_seat else ""

    # Whose turn, and the status line.
    wall_turn = bool(turn.get("wall_turn")) or phase == "wall"
    active = inv_by_id.get(active_inv)
    active_label = ""
    active_colour = MUTED
    if active is not None:
        active_label = active.character
        if active.player and active.player != active.character:
            active_label += f" ({active.player})"
        active_colour = active.colour

    prompt = _d(view.get("prompt"))
    prompt_text = _s(prompt.get("text"))
    labels = [names.get(_s(x), "") for x in _l(prompt.get("seats"))]
    if not all(labels):
        labels = [_s(x) for x in _l(prompt.get("labels"))]
    labels = [x for x in labels if x]
    if prompt_text and labels and not any(label in prompt_text for label in labels):
        prompt_text = f"{', '.join(labels)}: {prompt_text}"
    over = _outcome(view, mode, wall_seat)
    if not prompt_text and not over:
        waiting = [names.get(_s(x), "") for x in _l(view.get("waiting_for"))]
        if not all(waiting):
            waiting = [_s(x) for x in _l(view.get("waiting_labels"))]
        waiting = [x for x in waiting if x]
        if waiting:
            prompt_text = f"Waiting for {', '.join(waiting)}"

    hand_raw = view.get("hand")
    return Board(
        mode=mode,
        phase=phase,
        round=_i(view.get("round"), 1),
        over=over,
        over_reason=_s(_d(view.get("result")).get("reason")),
        gates_open=gates_open,
        gates_max=gates_max,
        pentagram=pentagram,
        closing_blocked=bool(gates.get("closing_blocked")),
        gate_cost=_gate_cost(gates.get("requirement")),
        ranks=ranks,
        rank_index=rank_index,
        stage=stage,
        revealed=revealed,
        wall_card=wall_card,
        wall_player=wall_player,
        wall_hand_count=_oi(wall.get("hand_count")) if mode == "conflict" else None,
        wall_turn=wall_turn,
        wall_mode=_s(turn.get("wall_mode")),
        doom=max(0, _i(wall.get("doom"))),
        doom_deferred=max(0, _i(wall.get("doom_deferred"))),
        presence_cards=((max(0, _i(_d(wall.get("presence_cards")).get("n"))),
                         bool(_d(wall.get("presence_cards")).get("this_turn")))
                        if _d(wall.get("presence_cards")) else None),
        scourge=scourge_name,
        scourge_on_streets=scourge_h is not None,
        horrors=horrors,
        streets=streets,
        anchored=[_marble(m) for m in _l(view.get("anchored"))],
        investigators=invs,
        decks=decks,
        ap=_oi(turn.get("ap")) if phase == "investigator" else None,
        ap_max=_oi(turn.get("ap_per_turn")),
        active_label=active_label,
        active_colour=active_colour,
        prompt=prompt_text,
        events=[_s(e) for e in _l(view.get("log")) if _s(e)],
        private_wall_card=_wall_card(view.get("wall_card")),
        wall_hand=[_horror(h) for h in hand_raw] if isinstance(hand_raw, list) else None,
        team_hands=any(inv.hand is not None for inv in invs),
        last_presence=_s(view.get("last_presence")),
        revealed_cards=[_marble(m) for m in _l(view.get("revealed"))],
        peek=[_s(_d(p).get("name")) for p in _l(view.get("peek")) if _s(_d(p).get("name"))],
    )


# --------------------------------------------------------------------------- small pieces


def _symbol(d: ImageDraw.ImageDraw, centre: tuple[float, float], r: float, sym: str) -> None:
    """A Symbol token: a coloured disc with its pictogram (Clue, Force, Science)."""
    cx, cy = centre
    colour = SYMBOL_COLOUR.get(sym, MUTED)
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colour, outline=(12, 12, 18), width=2)
    k = r * 0.62
    dark = (20, 16, 24)
    icon(d, SYMBOL_ICON.get(sym, "circle"), (cx - k, cy - k, cx + k, cy + k), dark, back=colour)


def _spent_symbol(d: ImageDraw.ImageDraw, centre: tuple[float, float], r: float, sym: str) -> None:
    """A Defeat-Cost Symbol already negated by an Attached Marble: hollow with a tick."""
    cx, cy = centre
    colour = SYMBOL_COLOUR.get(sym, MUTED)
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=mix(colour, HORROR, 0.75), outline=colour)
    d.line(
        (cx - r * 0.5, cy + r * 0.02, cx - r * 0.1, cy + r * 0.42, cx + r * 0.55, cy - r * 0.45),
        fill=colour,
        width=max(2, round(r / 4)),
    )


def _marble_width(m: MarbleV, h: float, with_name: bool) -> float:
    """Width of :func:`_marble_chip` for ``m`` at height ``h``."""
    r = h / 2 - 3
    label = _marble_label(m) if with_name else ""
    fnt = font(max(14, int(h * 0.6)), True)
    return 4 + max(1, len(m.symbols)) * (2 * r + 2) + (text_width(label, fnt) + 12 if label else 2)


def _marble_chip(
    d: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    m: MarbleV,
    h: float,
    with_name: bool,
    back: Colour,
    max_w: float | None = None,
) -> float:
    """A Marble as a pill: its Symbols (or a star when it has none) and maybe its name."""
    x, y = xy
    r = h / 2 - 3
    fnt = font(max(14, int(h * 0.6)), True)
    label = _marble_label(m) if with_name else ""
    w = _marble_width(m, h, with_name)
    if max_w is not None:
        w = min(w, max_w)
    fill = mix(back, (255, 255, 255), 0.16)
    rounded_box(d, (x, y, x + w, y + h), h / 2, fill=fill, outline=mix(back, TEXT, 0.45))
    left = x + 3
    cy = y + h / 2
    for sym in m.symbols or ["none"]:
        cx = left + r + 1
        if sym == "none":
            d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(236, 232, 246), outline=(12, 12, 18))
            k = r * 0.7
            icon(d, "star", (cx - k, cy - k, cx + k, cy + k), (110, 70, 180))
        else:
            _symbol(d, (cx, cy), r, sym)
        left += 2 * r + 2
    if label:
        draw_text(d, (left + 4, cy), label, fnt, TEXT, anchor="lm", max_width=x + w - left - 12)
    return w


def _marble_label(m: MarbleV) -> str:
    """A short name: plain Symbol Marbles are named by their Symbols, special ones by name."""
    name = m.name
    if not name:
        return " + ".join(SYMBOL_NAME[s] for s in m.symbols) if m.symbols else "Marble"
    if name.endswith(" Marble"):
        return ""
    return name


def _doom_token(d: ImageDraw.ImageDraw, centre: tuple[float, float], r: float, ghost: bool) -> None:
    cx, cy = centre
    if ghost:
        d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=DOOM_RING, width=3)
        return
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=DOOM, outline=DOOM_RING, width=2)
    k = r * 0.6
    icon(d, "skull", (cx - k, cy - k, cx + k, cy + k), (255, 220, 210), back=DOOM)


def _tag(
    d: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    fill: Colour,
    size: int = 17,
    ic: str = "",
) -> float:
    """A small square-ish label (DRAINED, SCOURGE); returns its width."""
    x, y = xy
    fnt = font(size, True)
    h = size + 9
    fg = readable_on(fill)
    w = text_width(text, fnt) + 12 + (h - 6 if ic else 0)
    rounded_box(d, (x, y, x + w, y + h), 5, fill=fill)
    tx = x + 6
    if ic:
        icon(d, ic, (tx, y + 3, tx + h - 6, y + h - 3), fg, back=fill)
        tx += h - 4
    d.text((tx, y + h / 2), text, font=fnt, fill=fg, anchor="lm")
    return w


def _title(
    d: ImageDraw.ImageDraw, box: Box, text: str, right: str = "", colour: Colour = MUTED
) -> None:
    x0, y0, x1, _ = box
    d.text((x0 + 14, y0 + 8), text, font=font(19, True), fill=colour)
    if right:
        d.text((x1 - 14, y0 + 8), right, font=font(19, True), fill=TEXT, anchor="ra")


# --------------------------------------------------------------------------- static layer


def _gate_centres() -> list[tuple[float, float]]:
    x0, _, x1, _ = GATES_BOX
    cx, cy = (x0 + x1) / 2, GATE_CY
    r = GATE_RING
    return [
        (
            cx + r * math.cos(math.radians(-90 + 72 * k)),
            cy + r * math.sin(math.radians(-90 + 72 * k)),
        )
        for k in range(5)
    ]


FRAME: Colour = (44, 46, 70)
"""The board's outer frame."""


def _static_layer(height: int, rows: int) -> Image.Image:
    img = Image.new("RGB", (WIDTH, height), BG)
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, WIDTH, TOP_BAR), fill=BAR)
    d.line((0, TOP_BAR, WIDTH, TOP_BAR), fill=PANEL_EDGE, width=2)
    d.rectangle((2, 2, WIDTH - 3, height - 3), outline=FRAME, width=2)
    for box in (GATES_BOX, TRACKER_BOX, WALL_BOX, STATUS_BOX, STREETS_BOX, *_lower_boxes(rows)):
        rounded_box(d, box, 12, fill=PANEL, outline=PANEL_EDGE, width=2)
    # The pentagram: a ring and a five-pointed star joining the Gate spots.
    pts = _gate_centres()
    x0, _, x1, _ = GATES_BOX
    cx, cy = (x0 + x1) / 2, GATE_CY
    ring = GATE_RING
    d.ellipse((cx - ring, cy - ring, cx + ring, cy + ring), outline=STAR_LINE, width=3)
    order = [pts[k] for k in (0, 2, 4, 1, 3, 0)]
    d.line(order, fill=STAR_LINE, width=3, joint="curve")
    if height > HEIGHT:
        d.line((MARGIN, HEIGHT, WIDTH - MARGIN, HEIGHT), fill=PANEL_EDGE, width=2)
    return img


def _extend_layer(img: Image.Image) -> None:
    """The public board's layer cut to a seat's height (black below it) made what
    `_static_layer` builds at that height: the frame's bottom moves down, the strip's rule."""
    d = ImageDraw.Draw(img)
    d.rectangle((0, HEIGHT - 4, WIDTH, img.height), fill=BG)
    d.rectangle((2, 2, WIDTH - 3, img.height - 3), outline=FRAME, width=2)
    d.line((MARGIN, HEIGHT, WIDTH - MARGIN, HEIGHT), fill=PANEL_EDGE, width=2)


# --------------------------------------------------------------------------- left column


MODE_LABEL = {"conflict": "Conflict", "alliance": "Alliance"}


def _draw_top_bar(d: ImageDraw.ImageDraw, b: Board) -> None:
    title = "I AM THE FOURTH WALL"
    tf = font(24, True)
    d.text((MARGIN, TOP_BAR / 2), title, font=tf, fill=TEXT, anchor="lm")
    x: float = MARGIN + text_width(title, tf) + 14
    mode_fill: Colour = (150, 60, 80) if b.mode == "conflict" else (60, 120, 150)
    x += chip(
        d,
        (x, TOP_BAR / 2 - 15),
        MODE_LABEL.get(b.mode, _pretty(b.mode)),
        font(18, True),
        fill=mode_fill,
        text_fill=TEXT,
        height=30,
        pad=10,
    )
    when = "Setup" if b.phase == "setup" else f"Round {b.round}"
    d.text((x + 14, TOP_BAR / 2), when, font=font(20, True), fill=MUTED, anchor="lm")
    # Right: the decks, compactly.
    parts = []
    for key, label in (("marble", "Marbles"), ("horror", "Horrors")):
        if key in b.decks:
            disc_n = b.decks.get(f"{key}_discard")
            parts.append(f"{label} {b.decks[key]}" + (f" (discard {disc_n})" if disc_n else ""))
    if parts:
        xr: float = RIGHT_X1
        fnt = font(18)
        for part in reversed(parts):
            d.text((xr, TOP_BAR / 2), part, font=fnt, fill=MUTED, anchor="rm")
            xr -= text_width(part, fnt) + 8
            icon(d, "card", (xr - 24, TOP_BAR / 2 - 12, xr, TOP_BAR / 2 + 12), MUTED, back=BAR)
            xr -= 24 + 22


def _draw_gates(d: ImageDraw.ImageDraw, b: Board) -> None:
    x0, y0, x1, y1 = GATES_BOX
    _title(d, GATES_BOX, "THE GATES")
    colour = DANGER if b.gates_open >= 4 else (GOOD if b.gates_open <= 1 else TEXT)
    d.text(
        (x1 - 14, y0 + 6),
        f"{b.gates_open} / 5 open",
        font=font(22, True),
        fill=colour,
        anchor="ra",
    )
    r = 30
    lit = b.pentagram + [False] * (5 - len(b.pentagram))
    for k, (gx, gy) in enumerate(_gate_centres()):
        if lit[k]:
            d.ellipse((gx - r - 5, gy - r - 5, gx + r + 5, gy + r + 5), fill=(80, 30, 110))
            d.ellipse((gx - r, gy - r, gx + r, gy + r), fill=GATE_OPEN, outline=GATE_GLOW, width=3)
            icon(d, "eye", (gx - 20, gy - 20, gx + 20, gy + 20), (255, 240, 255), back=GATE_OPEN)
        else:
            d.ellipse(
                (gx - r, gy - r, gx + r, gy + r), fill=GATE_SHUT, outline=(96, 98, 130), width=2
            )
            icon(d, "lock", (gx - 13, gy - 14, gx + 13, gy + 14), (110, 112, 146), back=GATE_SHUT)
    # The count in the heart of the star.
    cx, cy = (x0 + x1) / 2, GATE_CY
    d.text((cx, cy), str(b.gates_open), font=font(44, True), fill=colour, anchor="mm")
    if b.closing_blocked or b.scourge_on_streets:
        msg = "The Scourge is out: no Gate can be closed"
        draw_text(
            d,
            ((x0 + x1) / 2, y1 - 12),
            msg,
            font(18, True),
            SCOURGE,
            anchor="ms",
            max_width=x1 - x0 - 20,
        )
    elif b.gates_open >= 5 and b.stage == "slumber":
        msg = "If An Eye Opens with 5 open, The Wall wins"
        draw_text(
            d,
            ((x0 + x1) / 2, y1 - 12),
            msg,
            font(18, True),
            DANGER,
            anchor="ms",
            max_width=x1 - x0 - 20,
        )
    elif b.gate_cost and not b.over:
        # What Close a Gate takes now (one of each Symbol, plus any Aura extras).
        lf = font(18, True)
        label = "Close a Gate:"
        r = 12
        width = text_width(label, lf) + 8 + len(b.gate_cost) * (2 * r + 3)
        x = (x0 + x1) / 2 - width / 2
        yy = y1 - 20
        d.text((x, yy), label, font=lf, fill=MUTED, anchor="lm")
        x += text_width(label, lf) + 8 + r
        for sym in b.gate_cost:
            _symbol(d, (x, yy), r, sym)
            x += 2 * r + 3


def _draw_tracker(d: ImageDraw.ImageDraw, b: Board) -> None:
    x0, y0, x1, y1 = TRACKER_BOX
    d.text((x0 + 14, y0 + 8), "TURN TRACKER", font=font(19, True), fill=MUTED)
    stage_c = STAGE_COLOUR.get(b.stage, MUTED)
    sname = STAGE_NAME.get(b.stage, _pretty(b.stage))
    sf = fit_font(sname, x1 - x0 - 200, 22, 18, True)
    d.text((x1 - 14, y0 + 6), sname, font=sf, fill=mix(stage_c, (255, 255, 255), 0.45), anchor="ra")
    ranks = b.ranks
    if not ranks:
        d.text((x0 + 14, y0 + 60), "—", font=font(20), fill=DIM)
        return
    n = len(ranks)
    gap = 4
    left, right = x0 + 14, x1 - 14
    cw = (right - left - gap * (n - 1)) / n
    top, bottom = y0 + 48, y0 + 94
    for i, (rank, stage) in enumerate(ranks):
        cx0 = left + i * (cw + gap)
        colour = STAGE_COLOUR.get(stage, MUTED)
        if i < b.rank_index:
            fill = mix(colour, PANEL, 0.72)
            fg = mix(colour, TEXT, 0.3)
        else:
            fill = mix(colour, PANEL, 0.25)
            fg = TEXT
        rounded_box(d, (cx0, top, cx0 + cw, bottom), 6, fill=fill)
        if i == b.rank_index:
            rounded_box(
                d, (cx0 - 3, top - 3, cx0 + cw + 3, bottom + 3), 8, outline=HIGHLIGHT, width=4
            )
        d.text(
            (cx0 + cw / 2, (top + bottom) / 2), str(rank), font=font(22, True), fill=fg, anchor="mm"
        )
    # Stage icons under the first rank of each stage, and short labels where they fit.
    for stage in STAGES:
        idx = [i for i, (_, st) in enumerate(ranks) if st == stage]
        if not idx:
            continue
        sx0 = left + idx[0] * (cw + gap)
        sx1 = left + idx[-1] * (cw + gap) + cw
        colour = mix(STAGE_COLOUR[stage], (255, 255, 255), 0.4)
        d.line((sx0 + 2, bottom + 6, sx1 - 2, bottom + 6), fill=STAGE_COLOUR[stage], width=3)
        label = STAGE_SHORT[stage] if stage != "awakens" else ""
        lf = font(17, True)
        iw = 20
        total = iw + (6 + text_width(label, lf) if label else 0)
        if total > sx1 - sx0:
            label, total = "", iw
        ix = (sx0 + sx1) / 2 - total / 2
        icon(d, STAGE_ICON[stage], (ix, bottom + 12, ix + iw, bottom + 12 + iw), colour, back=PANEL)
        if label:
            d.text((ix + iw + 6, bottom + 12 + iw / 2), label, font=lf, fill=colour, anchor="lm")
    # What comes next.
    nxt = ""
    cur_stage = ranks[b.rank_index][1]
    for j in range(b.rank_index + 1, n):
        if ranks[j][1] != cur_stage:
            steps = j - b.rank_index
            nxt = f"{STAGE_NAME[ranks[j][1]]} in {steps} round{'s' if steps != 1 else ''}"
            break
    if nxt and not b.over:
        draw_text(d, (x0 + 14, y1 - 10), nxt, font(18), MUTED, anchor="ls", max_width=x1 - x0 - 28)


def _draw_wall(img: Image.Image, d: ImageDraw.ImageDraw, b: Board) -> None:
    x0, y0, x1, y1 = WALL_BOX
    who = "Presence AI" if b.mode == "alliance" else (b.wall_player or "")
    label = "THE ANCIENT ONE" if b.mode == "alliance" else "THE WALL"
    _title(d, WALL_BOX, label)
    if who:
        room = x1 - x0 - 42 - text_width(label, font(19, True))
        wf = fit_font(who, room, 19, min_size=12, bold=True)
        draw_text(d, (x1 - 14, y0 + 8), who, wf, TEXT, anchor="ra", max_width=room)
    # The card.
    cy0 = y0 + 40
    card: Box = (x0 + 14, cy0, x0 + 14 + 132, cy0 + 180)
    tx0 = card[2] + 14
    if b.wall_card is None:
        rounded_box(d, card, 10, fill=(34, 28, 52), outline=(110, 96, 150), width=3)
        hatch(img, (card[0] + 4, card[1] + 4, card[2] - 4, card[3] - 4), (50, 42, 74), spacing=14)
        d.text(
            ((card[0] + card[2]) / 2, (card[1] + card[3]) / 2),
            "?",
            font=font(72, True),
            fill=(200, 180, 240),
            anchor="mm",
        )
        note = "Face down: its identity stays hidden until An Eye Opens."
        if b.mode == "conflict":
            note += " Only The Wall's player knows it."
        draw_text_in_box(d, (tx0, cy0 + 4, x1 - 14, card[3]), note, 19, MUTED, min_size=18)
    else:
        rounded_box(d, card, 10, fill=WALL_CARD, outline=WALL_EDGE, width=3)
        icon(
            d,
            "eye",
            (card[0] + 36, card[1] + 18, card[2] - 36, card[1] + 78),
            (255, 236, 255),
            back=WALL_CARD,
        )
        draw_text_in_box(
            d,
            (card[0] + 8, card[1] + 86, card[2] - 8, card[3] - 8),
            b.wall_card.name,
            20,
            TEXT,
            bold=True,
            min_size=16,
            align="center",
            valign="middle",
        )
        draw_text_in_box(
            d,
            (tx0, cy0, x1 - 14, card[3] + 4),
            b.wall_card.text or b.wall_card.name,
            19,
            TEXT,
            min_size=15,
        )
    # Doom pool.
    y = card[3] + 18
    d.text((x0 + 14, y + 16), "DOOM", font=font(20, True), fill=DOOM_RING, anchor="lm")
    dx = x0 + 92
    r = 15
    shown = min(b.doom + b.doom_deferred, 10)
    for k in range(shown):
        _doom_token(d, (dx + r + k * (2 * r + 6), y + 16), r, ghost=k >= b.doom)
    tx = dx + shown * (2 * r + 6) + 4
    count = f"{b.doom}" + (f" +{b.doom_deferred} next turn" if b.doom_deferred else "")
    if not shown:
        count = "0"
    draw_text(d, (tx, y + 16), count, font(21, True), TEXT, anchor="lm", max_width=x1 - 14 - tx)
    y += 44
    fnt = font(19, True)
    for ic, text, colour in _wall_rows(b):
        if y + 30 > y1 - 6:
            break
        icon(d, ic, (x0 + 16, y + 3, x0 + 40, y + 27), colour, back=PANEL)
        lines = wrap(text, fnt, x1 - x0 - 64, max_lines=2 if y + 56 < y1 - 6 else 1)
        for k, line in enumerate(lines):
            d.text((x0 + 50, y + 15 + 24 * k), line, font=fnt, fill=colour, anchor="lm")
        y += 32 + 24 * (len(lines) - 1)


def _wall_rows(b: Board) -> list[tuple[str, str, Colour]]:
    """The Wall panel's rows under its Doom: The Scourge (Conflict) / the Target Token and the
    Presence cards to come (Alliance), the Wall's hand, the last Presence card."""
    rows: list[tuple[str, str, Colour]] = []
    if b.mode == "conflict":
        if b.scourge:
            rows.append(("flame", f"The Scourge: {b.scourge}", SCOURGE))
        else:
            rows.append(("flame", "The Scourge: set aside", MUTED))
        if b.wall_hand_count is not None:
            n = b.wall_hand_count
            rows.append(("card", f"Hand: {n} Horror{'s' if n != 1 else ''} (secret)", TEXT))
        if b.wall_mode and b.wall_turn and not b.over:
            rows.append(("bolt", f"This Wall turn: {_pretty(b.wall_mode)}", TEXT))
    else:
        tgt = next((inv for inv in b.investigators if inv.target), None)
        if tgt is not None:
            rows.append(("eye", f"Target Token: {tgt.character}", GOLD))
        if b.presence_cards is not None and not b.over:
            # What the Doom pool, spent whole at each Wall turn, nearly always hides (stop 69).
            n, now = b.presence_cards
            cards = f"{n} Presence card{'s' if n != 1 else ''}"
            rows.append(("bolt", f"This Wall turn: {cards} to come" if now
                         else f"Next Wall turn: {cards}", TEXT))
    if b.last_presence:
        rows.append(("card", f"Last Presence card: {b.last_presence}", MUTED))
    return rows


# --------------------------------------------------------------------------- right column


def _draw_status(d: ImageDraw.ImageDraw, b: Board) -> None:
    x0, y0, x1, y1 = STATUS_BOX
    cy = (y0 + y1) / 2
    if b.over:
        fnt = font(26, True)
        d.text((x0 + 16, cy), "GAME OVER", font=fnt, fill=HIGHLIGHT, anchor="lm")
        x = x0 + 16 + text_width("GAME OVER", fnt) + 18
        winner_c = GOOD if "Investigators" in b.over else DANGER
        draw_text(d, (x, cy), b.over, font(25, True), winner_c, anchor="lm", max_width=x1 - x - 16)
        return
    x = x0 + 14
    right = ""
    if b.wall_turn:
        icon(d, "eye", (x + 2, cy - 18, x + 38, cy + 18), GATE_GLOW, back=PANEL)
        who = "The Ancient One" if b.mode == "alliance" else "The Wall"
        label = f"{who}'s turn"
        if b.wall_player and b.mode == "conflict":
            label += f" ({b.wall_player})"
        if b.active_label:
            label += f", before {b.active_label}"
        colour = GATE_GLOW
        if b.wall_mode:
            right = f"{_pretty(b.wall_mode)} · {b.doom} Doom"
        else:
            right = f"{b.doom} Doom"
    elif b.phase == "setup":
        icon(d, "hourglass", (x + 4, cy - 16, x + 36, cy + 16), MUTED, back=PANEL)
        label, colour = "Setup: choosing Investigators", MUTED
    else:
        disc(d, (x + 20, cy), 19, b.active_colour, outline=(12, 10, 16))
        label = f"{b.active_label}'s turn" if b.active_label else "—"
        colour = b.active_colour
        if b.ap is not None:
            right = f"{b.ap}" + (f" / {b.ap_max}" if b.ap_max else "") + " AP left"
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


def _rules_text(h: HorrorV) -> str:
    """The part of a Horror's text worth reading on the board: its Trigger and Deathrattle."""
    body = h.text
    if "Trigger (" in body:
        body = body[body.index("Trigger (") :]
    elif "Deathrattle" in body:
        body = body[body.index("Deathrattle") :]
    else:
        return ""
    return body


def _horror_card(
    d: ImageDraw.ImageDraw, box: Box, h: HorrorV, compact: bool = False, costs: bool = True
) -> None:
    """A Horror On the Streets: name, Defeat Cost (negated Symbols ticked), Attached Marbles,
    Scourge / Drained marks, and its Trigger text where there is room."""
    x0, y0, x1, y1 = box
    w = x1 - x0
    fill = DRAINED if h.drained else HORROR
    edge = SCOURGE if h.scourge else (DRAINED_EDGE if h.drained else HORROR_EDGE)
    rounded_box(d, box, 10, fill=fill, outline=edge, width=4 if h.scourge else 2)
    pad = 8
    token = costs and h.trigger_cost is not None
    name_w = w - 2 * pad - (32 if token else 0)
    nf = fit_font(h.called, name_w, 21, 16, True)
    draw_text(
        d,
        (x0 + pad, y0 + 18),
        h.called,
        nf,
        TEXT if not h.drained else (206, 206, 220),
        anchor="lm",
        max_width=name_w,
    )
    if token:
        # The Trigger Cost in Doom, on a small token in the corner.
        tcx, tcy = x1 - pad - 13, y0 + 18
        d.ellipse((tcx - 13, tcy - 13, tcx + 13, tcy + 13), fill=DOOM, outline=DOOM_RING, width=2)
        d.text(
            (tcx, tcy), str(h.trigger_cost), font=font(18, True), fill=(255, 255, 255), anchor="mm"
        )
    y = y0 + 36
    tx = x0 + pad
    tags = [("SCOURGE", SCOURGE, "flame")] if h.scourge else []
    if h.drained:
        tags.append(("DRAINED", (150, 154, 180), "moon"))
    for text, colour, ic in tags:
        tw = text_width(text, font(16, True)) + 12 + 19
        if tx > x0 + pad and tx + tw > x1 - pad:
            tx, y = x0 + pad, y + 29
        tx += _tag(d, (tx, y), text, colour, size=16, ic=ic) + 5
    if tags:
        y += 31
    # Defeat Cost: each Symbol, ticked off when an Attached Marble negates it.
    pool: dict[str, int] = dict(h.negated) if h.negated is not None else {}
    if h.negated is None:
        for m in h.attached:
            for sym in m.symbols:
                pool[sym] = pool.get(sym, 0) + 1
    r = 13 if compact else 15
    lf = font(17, True)
    label = "Defeat"
    d.text((x0 + pad, y + r), label, font=lf, fill=MUTED, anchor="lm")
    step = 2 * r + 3
    sx = x0 + pad + text_width(label, lf) + 6
    row_y = y
    shown = 0
    for sym in h.defeat:
        if sx + 2 * r > x1 - pad:
            sx, row_y = x0 + pad, row_y + step
        if row_y + 2 * r > y1 - 6:
            break
        c = (sx + r, row_y + r)
        if pool.get(sym, 0) > 0:
            pool[sym] -= 1
            _spent_symbol(d, c, r, sym)
        else:
            _symbol(d, c, r, sym)
        sx += step
        shown += 1
    if shown < len(h.defeat):
        d.text(
            (x1 - pad, row_y - step + r),
            f"+{len(h.defeat) - shown}",
            font=lf,
            fill=TEXT,
            anchor="rm",
        )
    y = row_y + step + 5
    # Attached Marbles.
    mh = 24 if compact else 28
    x = x0 + pad
    for m in h.attached:
        mw = _marble_width(m, mh, False)
        if x + mw > x1 - pad and x > x0 + pad:
            x = x0 + pad
            y += mh + 4
        if y + mh > y1 - 4:
            break
        _marble_chip(d, (x, y), m, mh, with_name=False, back=fill)
        x += mw + 4
    if h.attached:
        y += mh + 6
    # The Trigger / Deathrattle text in what is left.
    body = _rules_text(h)
    box = (x0 + pad, y, x1 - pad, y1 - 6)
    if body and y1 - 6 - y >= 36:
        # A card crowded by Attached Marbles keeps whole words: the full text if it fits at
        # 14 px (else 12 px), else the Trigger alone (the Deathrattle matters at the Defeat,
        # which the log tells), never a text cut with "…" (a 5-player Alliance game, stop 63).
        trigger = body.split(" Deathrattle:")[0]
        for text, least in ((body, 14), (body, 12), (trigger, 12)):
            if _fits(text, box, 16, least):
                draw_text_in_box(d, box, text, 16, (206, 196, 206), min_size=least)
                break


def _fits(text: str, box: Box, size: int, least: int, line_gap: int = 2) -> bool:
    """Whether `draw_text_in_box` would set `text` in `box` whole, at `least` px or more."""
    width, height = box[2] - box[0], box[3] - box[1]
    return any(len(wrap(text, font(s), width)) <= max(1, int((height + line_gap)
                                                             // (s + line_gap)))
               for s in range(size, least - 1, -1))


def _streets_area() -> Box:
    x0, y0, x1, y1 = STREETS_BOX
    return (x0 + 12, y0 + 40, x1 - 12, y1 - 54)


def _draw_streets(img: Image.Image, d: ImageDraw.ImageDraw, b: Board,
                  layer: Hashable = None) -> None:
    x0, _, x1, y1 = STREETS_BOX
    n_h = len(b.horrors)
    _title(d, STREETS_BOX, "ON THE STREETS", f"{n_h} Horror{'s' if n_h != 1 else ''}")
    area = _streets_area()
    if b.mode == "alliance" or b.streets:
        _draw_street_cards(img, d, area, b, layer)
    else:
        _draw_streets_zone(img, d, area, b, layer)
    _draw_anchored(d, (x0 + 12, y1 - 48, x1 - 12, y1 - 10), b)


def _draw_street_cards(img: Image.Image, d: ImageDraw.ImageDraw, area: Box, b: Board,
                       layer: Hashable = None) -> None:
    ax0, ay0, ax1, ay1 = area
    streets = b.streets or [StreetV(k, f"Street {k}", "", False) for k in range(1, 6)]
    n = len(streets)
    gap = 10
    cw = (ax1 - ax0 - gap * (n - 1)) / max(1, n)
    for i, st in enumerate(streets):
        sx0 = ax0 + i * (cw + gap)
        box: Box = (sx0, ay0, sx0 + cw, ay1)
        horror = next((h for h in b.horrors if h.street == st.number), None)
        # A street's card draws inside its box, on the static layer, from these data only.
        memo_region(img, box, ("fourth_wall street", layer, repr(st), repr(horror), b.mode),
                    partial(_draw_street_card, d, box, cw, st, horror, b.mode))


def _draw_street_card(d: ImageDraw.ImageDraw, box: Box, cw: float, st: StreetV,
                      horror: HorrorV | None, mode: str) -> None:
    """One Street card (alliance, or streets dealt) with its Horror, if one is there."""
    sx0, ay0, _, ay1 = box
    live = horror is not None
    fill = STREET_LIVE if live else STREET
    rounded_box(d, box, 10, fill=fill, outline=GOLD if live else (80, 84, 110), width=2)
    disc(
        d,
        (sx0 + 22, ay0 + 22),
        16,
        GOLD if live else (110, 114, 140),
        label=str(st.number),
        label_size=19,
    )
    name = st.name if st.name != f"Street {st.number}" else f"Street {st.number}"
    draw_text(
        d, (sx0 + 46, ay0 + 22), name, font(19, True), TEXT, anchor="lm", max_width=cw - 54
    )
    aura = re.sub(r"\s*\([^)]*\)", "", st.text.replace("While a Horror is here: ", ""))
    draw_text_in_box(
        d,
        (sx0 + 8, ay0 + 44, sx0 + cw - 8, ay0 + 112),
        aura or "(no Aura)",
        17,
        (255, 226, 160) if live else DIM,
        bold=live,
        min_size=14,
        max_lines=3,
    )
    slot: Box = (sx0 + 6, ay0 + 118, sx0 + cw - 6, ay1 - 6)
    if horror is None:
        rounded_box(d, slot, 8, fill=mix(fill, BG, 0.4), outline=(64, 66, 90))
        d.text(
            ((slot[0] + slot[2]) / 2, (slot[1] + slot[3]) / 2),
            "empty",
            font=font(18),
            fill=DIM,
            anchor="mm",
        )
    else:
        _horror_card(d, slot, horror, costs=mode != "alliance")


def _draw_streets_zone(img: Image.Image, d: ImageDraw.ImageDraw, area: Box, b: Board,
                       layer: Hashable = None) -> None:
    ax0, ay0, ax1, ay1 = area
    hs = b.horrors
    if not hs:
        d.text(
            ((ax0 + ax1) / 2, (ay0 + ay1) / 2),
            "No Horror On the Streets… yet.",
            font=font(22),
            fill=DIM,
            anchor="mm",
        )
        return
    n = len(hs)
    gap = 10
    cols = max(5, math.ceil(n / 2)) if n > 5 else 5
    rows = math.ceil(n / cols)
    if n <= 5:
        rows = 1
    cw = (ax1 - ax0 - gap * (cols - 1)) / cols
    ch = (ay1 - ay0 - gap * (rows - 1)) / rows
    compact = cw < 180 or ch < 150
    for k, h in enumerate(hs):
        r, c = divmod(k, cols)
        bx = ax0 + c * (cw + gap)
        by = ay0 + r * (ch + gap)
        card: Box = (bx, by, bx + cw, by + ch)
        # A Horror's card draws inside its box, on the static layer, from these data only.
        memo_region(img, card, ("fourth_wall horror", layer, repr(h), compact),
                    partial(_horror_card, d, card, h, compact=compact))


def _draw_anchored(d: ImageDraw.ImageDraw, box: Box, b: Board) -> None:
    x0, y0, x1, y1 = box
    h = y1 - y0
    d.text((x0 + 2, y0 + h / 2), "Anchored:", font=font(18, True), fill=MUTED, anchor="lm")
    x = x0 + 2 + text_width("Anchored:", font(18, True)) + 10
    if not b.anchored:
        d.text((x, y0 + h / 2), "none", font=font(18), fill=DIM, anchor="lm")
        x += text_width("none", font(18)) + 10
    for m in b.anchored:
        if x > x1 - 80:
            break
        x += _marble_chip(d, (x, y0 + 2), m, h - 4, with_name=True, back=PANEL, max_w=x1 - x) + 8
    if b.revealed_cards and x < x1 - 300:
        label = "Last Blitz:"
        x += 12
        d.text((x, y0 + h / 2), label, font=font(18, True), fill=MUTED, anchor="lm")
        x += text_width(label, font(18, True)) + 8
        for m in b.revealed_cards:
            if x > x1 - 60:
                break
            x += _marble_chip(d, (x, y0 + 2), m, h - 4, with_name=False, back=PANEL) + 6


def _hand_pips(
    d: ImageDraw.ImageDraw,
    x: float,
    cy: float,
    count: int,
    limit: int,
    colour: Colour,
    right: float,
) -> float:
    """Hand size as card slots: ``count`` filled of ``limit`` (excess shown in red)."""
    w, h, gap = 13, 20, 3
    slots = max(count, limit)
    if x + slots * (w + gap) > right:
        return x
    for k in range(slots):
        bx = x + k * (w + gap)
        if k < count:
            fill = colour if k < limit else DANGER
            rounded_box(d, (bx, cy - h / 2, bx + w, cy + h / 2), 3, fill=fill)
        else:
            rounded_box(
                d, (bx, cy - h / 2, bx + w, cy + h / 2), 3, outline=(110, 110, 140), width=2
            )
    return x + slots * (w + gap)


def _draw_investigator(d: ImageDraw.ImageDraw, box: Box, inv: InvV, label: str) -> None:
    x0, y0, x1, y1 = box
    fill = mix(inv.colour, PANEL, 0.86) if not inv.insane else (36, 30, 38)
    rounded_box(
        d,
        box,
        10,
        fill=fill,
        outline=HIGHLIGHT if inv.active else mix(inv.colour, PANEL, 0.45),
        width=4 if inv.active else 2,
    )
    cy1 = y0 + 22
    r = 17
    disc(
        d,
        (x0 + 10 + r, cy1),
        r,
        inv.colour if not inv.insane else (96, 90, 100),
        outline=(12, 10, 16),
        label=label,
        label_size=17,
        label_fill=(14, 12, 18),
    )
    tx = x0 + 18 + 2 * r
    chip_text = "INSANE" if inv.insane else ("TURN" if inv.active else "")
    chip_w = 0.0
    if chip_text:
        cf = font(17, True)
        chip_w = text_width(chip_text, cf) + 18
        chip_fill = DANGER if inv.insane else HIGHLIGHT
        rounded_box(d, (x1 - 8 - chip_w, cy1 - 13, x1 - 8, cy1 + 13), 13, fill=chip_fill)
        d.text(
            (x1 - 8 - chip_w / 2, cy1), chip_text, font=cf, fill=readable_on(chip_fill), anchor="mm"
        )
    avail = x1 - 16 - chip_w - tx
    hf = fit_font(inv.character, avail, 21, 17, True)
    draw_text(
        d,
        (tx, cy1),
        inv.character,
        hf,
        TEXT if not inv.insane else MUTED,
        anchor="lm",
        max_width=avail,
    )
    # Line 2: the player, and the marks (Target, Regrouped, shield).
    cy2 = y0 + 52
    x = x0 + 12
    marks: list[tuple[str, Colour, str]] = []
    if inv.target:
        marks.append(("TARGET", (230, 70, 70), "eye"))
    if inv.regrouped:
        marks.append(("REGROUPED", (90, 150, 220), "hourglass"))
    if inv.shield:
        marks.append(("SHIELD", (120, 200, 140), "cross"))
    # The player's name takes what the marks leave (a long display name shrinks, uncut);
    # when even 12 px does not fit, the marks are drawn as their icons alone.
    icons_only = False
    marks_w = sum(text_width(t, font(16, True)) + 12 + 21 + 6 for t, _, _ in marks)
    room = max((x1 - x0) * 0.45, x1 - 8 - x - 10 - marks_w)
    if marks and text_width(inv.player, font(12)) > room:
        icons_only = True
        room = x1 - 8 - x - 10 - 32 * len(marks)
    pf = fit_font(inv.player, room, 18, min_size=12)
    px = draw_text(d, (x, cy2), inv.player, pf, MUTED, anchor="lm", max_width=room)
    x += px + 10
    for text, colour, ic in marks:
        if icons_only:
            rounded_box(d, (x, cy2 - 12, x + 26, cy2 + 13), 5, fill=colour)
            icon(d, ic, (x + 4, cy2 - 8, x + 22, cy2 + 9), readable_on(colour), back=colour)
            x += 32
            continue
        tw = text_width(text, font(16, True)) + 12 + 21
        if x + tw > x1 - 8:
            break
        x += _tag(d, (x, cy2 - 12), text, colour, size=16, ic=ic) + 6
    # Line 3: Sanity and the hand against the Hand Limit.
    cy3 = y1 - 19
    x = x0 + 12
    if not inv.has_card:
        icon(d, "hourglass", (x, cy3 - 11, x + 22, cy3 + 11), MUTED, back=fill)
        d.text(
            (x + 30, cy3), "choosing an Investigator card…", font=font(19), fill=MUTED, anchor="lm"
        )
        return
    icon(d, "heart", (x, cy3 - 11, x + 22, cy3 + 11), (236, 90, 120), back=fill)
    sf = font(20, True)
    d.text((x + 28, cy3), f"Sanity {inv.sanity}", font=sf, fill=TEXT, anchor="lm")
    x += 28 + text_width(f"Sanity {inv.sanity}", sf) + 16
    icon(d, "card", (x, cy3 - 12, x + 22, cy3 + 12), MUTED, back=fill)
    hand_txt = f"{inv.hand_count}/{inv.hand_limit}"
    over = inv.hand_count > inv.hand_limit
    d.text((x + 26, cy3), hand_txt, font=sf, fill=DANGER if over else TEXT, anchor="lm")
    x += 26 + text_width(hand_txt, sf) + 10
    _hand_pips(d, x, cy3, inv.hand_count, inv.hand_limit, mix(inv.colour, TEXT, 0.2), x1 - 10)


def _draw_investigators(img: Image.Image, d: ImageDraw.ImageDraw, b: Board, box: Box,
                        layer: Hashable = None) -> None:
    x0, y0, x1, y1 = box
    invs = b.investigators
    if not invs:
        d.text(
            ((x0 + x1) / 2, (y0 + y1) / 2),
            "Investigators are being chosen…",
            font=font(20),
            fill=MUTED,
            anchor="mm",
        )
        return
    cols, _rows = _inv_grid(len(invs))
    pw = (x1 - x0 - 20 - PANEL_GAP * (cols - 1)) / cols
    # Two Investigators never share a disc label (colour is never the only difference).
    labels = distinct_initials(
        [i.character for i in invs if not i.character.startswith("(")], _initials)
    for i, inv in enumerate(invs):
        r, c = divmod(i, cols)
        bx = x0 + 10 + c * (pw + PANEL_GAP)
        by = y0 + 8 + r * (INV_PANEL_H + PANEL_GAP)
        panel: Box = (bx, by, bx + pw, by + INV_PANEL_H)
        label = labels.get(inv.character, "?")
        # A panel draws inside its box, on the static layer, from these data only.
        memo_region(img, panel, ("fourth_wall investigator", layer, repr(inv), label),
                    partial(_draw_investigator, d, panel, inv, label))


def _draw_events(d: ImageDraw.ImageDraw, b: Board, box: Box) -> None:
    x0, y0, x1, y1 = box
    y = y0 + 8
    bottom = y1 - 8
    prompt = b.prompt
    if b.over and b.over_reason:
        prompt = b.over_reason[:1].upper() + b.over_reason[1:]
    if prompt:
        pfnt = font(19, True)
        lines = wrap(prompt, pfnt, x1 - x0 - 64, max_lines=2)
        ph = 12 + 24 * len(lines)
        pb: Box = (x0 + 8, bottom - ph, x1 - 8, bottom)
        rounded_box(d, pb, 8, fill=(70, 52, 20), outline=GOLD, width=2)
        icon(
            d,
            "flame" if b.over else "hourglass",
            (x0 + 16, pb[1] + 8, x0 + 38, pb[1] + 30),
            GOLD,
            back=(70, 52, 20),
        )
        for k, line in enumerate(lines):
            d.text((x0 + 46, pb[1] + 7 + 24 * k), line, font=pfnt, fill=(255, 236, 180))
        bottom = pb[1] - 6
    d.text((x0 + 14, y), "WHAT JUST HAPPENED", font=font(18, True), fill=MUTED)
    y += 26
    fnt = font(19)
    line_h = 24
    room = int((bottom - y) // line_h)
    if room <= 0:
        return
    lines_out: list[str] = []
    for e in reversed(b.events):
        wrapped = wrap(e, fnt, x1 - x0 - 40, max_lines=2)
        if len(lines_out) + len(wrapped) > room:
            if not lines_out:
                lines_out = wrapped[:room]
            break
        lines_out = wrapped + lines_out
    if not lines_out:
        d.text((x0 + 14, y), "The streets are quiet… for now.", font=fnt, fill=DIM)
        return
    for k, line in enumerate(lines_out):
        fg = TEXT if k >= len(lines_out) - 2 else MUTED
        d.text((x0 + 24, y + line_h * k), line, font=fnt, fill=fg)


# --------------------------------------------------------------------------- private strip

STRIP_HEAD = 44


def _strip_height(b: Board) -> int:
    """Height of the private strip for this board (0 for the public picture)."""
    if b.wall_hand is not None or b.private_wall_card is not None:
        return 260
    if b.team_hands:
        n = len(b.investigators)
        rows = math.ceil(n / 3) if n else 1
        return STRIP_HEAD + 16 + rows * 112 + (rows - 1) * 8
    return 0


def _draw_wall_strip(d: ImageDraw.ImageDraw, b: Board, y0: float, y1: float) -> None:
    d.text(
        (MARGIN + 6, y0 + 10),
        "THE WALL'S SECRETS — only you can see this",
        font=font(21, True),
        fill=HIGHLIGHT,
    )
    top = y0 + STRIP_HEAD
    card: Box = (MARGIN + 6, top, MARGIN + 6 + 420, y1)
    wc = b.private_wall_card
    if wc is not None:
        rounded_box(d, card, 12, fill=WALL_CARD, outline=WALL_EDGE, width=3)
        draw_text(
            d,
            (card[0] + 12, card[1] + 18),
            wc.name,
            font(22, True),
            TEXT,
            anchor="lm",
            max_width=card[2] - card[0] - 24,
        )
        draw_text_in_box(
            d,
            (card[0] + 12, card[1] + 36, card[2] - 12, card[3] - 8),
            wc.text,
            18,
            TEXT,
            min_size=14,
        )
    else:
        rounded_box(d, card, 12, fill=SLOT, outline=PANEL_EDGE, width=2)
        d.text((card[0] + 12, card[1] + 12), "No Wall card", font=font(20), fill=DIM)
    hand = b.wall_hand or []
    x0 = card[2] + 16
    x1 = WIDTH - MARGIN - 6
    d.text(
        (x1, y0 + 12),
        f"Your hand: {len(hand)} Horror{'s' if len(hand) != 1 else ''}",
        font=font(20, True),
        fill=TEXT,
        anchor="ra",
    )
    if not hand:
        d.text(
            (x0, top + 20),
            "No Horrors in hand. Delve (1 Doom) to draw one.",
            font=font(20),
            fill=MUTED,
        )
        return
    gap = 8
    n = len(hand)
    rows = 1 if n <= 6 else 2
    per_row = math.ceil(n / rows)
    cw = min(200.0, (x1 - x0 - gap * (per_row - 1)) / per_row)
    ch = (y1 - top - gap * (rows - 1)) / rows
    for k, h in enumerate(hand):
        r, c = divmod(k, per_row)
        bx = x0 + c * (cw + gap)
        by = top + r * (ch + gap)
        _hand_horror(d, (bx, by, bx + cw, by + ch), h, compact=rows > 1)


def _hand_horror(d: ImageDraw.ImageDraw, box: Box, h: HorrorV, compact: bool) -> None:
    """A Horror in The Wall's hand: name, Manifest Cost, Defeat Cost, Trigger Cost."""
    x0, y0, x1, y1 = box
    rounded_box(d, box, 10, fill=HORROR, outline=HORROR_EDGE, width=2)
    pad = 8
    w = x1 - x0
    draw_text(
        d,
        (x0 + pad, y0 + 16),
        h.name,
        fit_font(h.name, w - 2 * pad, 20, 15, True),
        TEXT,
        anchor="lm",
        max_width=w - 2 * pad,
    )
    y = y0 + 34
    fnt = font(17, True)
    man = f"Manifest {h.manifest if h.manifest is not None else '?'}"
    if h.drain_on_manifest:
        man += " + Drain"
    mf = fit_font(man, w - 2 * pad, 17, 13, True)
    draw_text(d, (x0 + pad, y), man, mf, (255, 190, 180), anchor="la", max_width=w - 2 * pad)
    y += 24
    r = 12 if compact else 14
    sx = x0 + pad + r
    for sym in h.defeat:
        if sx + r > x1 - pad:
            break
        _symbol(d, (sx, y + r), r, sym)
        sx += 2 * r + 3
    y += 2 * r + 6
    body = _rules_text(h)
    if compact or not body or y + 40 >= y1:
        if h.trigger_cost is not None and y + 18 < y1:
            d.text((x0 + pad, y), f"Trigger {h.trigger_cost}", font=fnt, fill=(255, 190, 180))
        return
    draw_text_in_box(d, (x0 + pad, y, x1 - pad, y1 - 6), body, 16, MUTED, min_size=13)


def _draw_team_strip(img: Image.Image, d: ImageDraw.ImageDraw, b: Board, y0: float, y1: float,
                     layer: Hashable = None) -> None:
    d.text(
        (MARGIN + 6, y0 + 10),
        "THE TEAM'S HANDS — for the Investigators only",
        font=font(21, True),
        fill=HIGHLIGHT,
    )
    if b.peek:
        x = MARGIN + 6 + text_width("THE TEAM'S HANDS — for the Investigators only", font(21, True))
        draw_text(
            d,
            (WIDTH - MARGIN - 6, y0 + 12),
            "Peek (top first): " + ", ".join(b.peek),
            font(19, True),
            GOLD,
            anchor="ra",
            max_width=WIDTH - MARGIN - 36 - x,
        )
    invs = b.investigators
    top = y0 + STRIP_HEAD
    cols = 3
    gap = 8
    pw = (WIDTH - 2 * MARGIN - 12 - gap * (cols - 1)) / cols
    for i, inv in enumerate(invs):
        r, c = divmod(i, cols)
        bx = MARGIN + 6 + c * (pw + gap)
        by = top + r * (112 + gap)
        box: Box = (bx, by, bx + pw, by + 112)
        # A hand's panel draws inside its box, on the static layer, from these data only.
        key = ("fourth_wall team hand", layer, inv.character, inv.player, inv.colour,
               repr(inv.hand), inv.insane, repr(inv.dealt))
        memo_region(img, box, key, partial(_draw_team_hand, d, box, inv))


def _draw_team_hand(d: ImageDraw.ImageDraw, box: Box, inv: InvV) -> None:
    """One Investigator's hand in the team's strip."""
    bx, by, _, _ = box
    pw = box[2] - box[0]
    fill = mix(inv.colour, PANEL, 0.86)
    rounded_box(d, box, 10, fill=fill, outline=mix(inv.colour, PANEL, 0.45), width=2)
    title = f"{inv.character} · {inv.player}" if inv.player else inv.character
    draw_text(
        d, (bx + 12, by + 18), title, font(19, True), TEXT, anchor="lm", max_width=pw - 24
    )
    hand = inv.hand or []
    if not hand:
        note = "Insane" if inv.insane else "empty hand"
        if inv.dealt:
            note = "Dealt: " + " or ".join(inv.dealt) + " (keep one)"
        draw_text_in_box(
            d, (bx + 12, by + 36, bx + pw - 12, by + 106), note, 18, MUTED, min_size=15
        )
        return
    _flow_marbles(d, (bx + 10, by + 36, bx + pw - 10, by + 106), hand, fill)


def _flow_marbles(d: ImageDraw.ImageDraw, area: Box, hand: Sequence[MarbleV], back: Colour) -> None:
    """Marbles with names, flowing in rows; named ones first drop their names if short."""
    x0, y0, x1, y1 = area
    for with_names, h in ((True, 30), (True, 26), (False, 30), (False, 26)):
        x, y = x0, y0
        spots: list[tuple[float, float]] = []
        ok = True
        for m in hand:
            w = _marble_width(m, h, with_names)
            if x + w > x1 and x > x0:
                x, y = x0, y + h + 4
            if y + h > y1:
                ok = False
                break
            spots.append((x, y))
            x += w + 6
        if ok:
            for m, (sx, sy) in zip(hand, spots, strict=False):
                _marble_chip(d, (sx, sy), m, h, with_name=with_names, back=back, max_w=x1 - sx)
            return
    # Too many even without names: as many as fit, then a count.
    x, y = x0, y0
    h = 26
    for k, m in enumerate(hand):
        w = _marble_width(m, h, False)
        if x + w > x1 - 50 and y + 2 * h + 4 > y1:
            d.text(
                (x + 4, y + h / 2), f"+{len(hand) - k}", font=font(18, True), fill=TEXT, anchor="lm"
            )
            return
        if x + w > x1:
            x, y = x0, y + h + 4
        _marble_chip(d, (x, y), m, h, with_name=False, back=back)
        x += w + 6


# --------------------------------------------------------------------------- entry point


def render_image(view: Mapping[str, Any]) -> Image.Image:
    """The board as a Pillow image (``render_board`` encodes it)."""
    b = _read(view)
    extra = _strip_height(b)
    height = HEIGHT + extra
    _cols, rows = _inv_grid(len(b.investigators))
    # The parts above a seat's strip lie on the same static layer at every height: a seat's
    # board pastes the public board's (and the other way round); the strip's name the height.
    layer = ("fourth_wall", WIDTH, rows)
    img = cached_tall_layer(layer, HEIGHT, height, lambda h: _static_layer(h, rows),
                            _extend_layer)
    inv_box, events_box = _lower_boxes(rows)
    d = ImageDraw.Draw(img)
    _draw_top_bar(d, b)
    # The Gates and the Turn Tracker draw inside their boxes, on the static layer, from these
    # data only.
    memo_region(img, GATES_BOX, ("fourth_wall gates", layer, repr((
        b.closing_blocked, b.gate_cost, b.gates_open, b.over, b.pentagram,
        b.scourge_on_streets, b.stage))), partial(_draw_gates, d, b))
    memo_region(img, TRACKER_BOX, ("fourth_wall tracker", layer,
                                   repr((b.over, b.rank_index, b.ranks, b.stage))),
                partial(_draw_tracker, d, b))
    _draw_wall(img, d, b)
    _draw_status(d, b)
    _draw_streets(img, d, b, layer)
    _draw_investigators(img, d, b, inv_box, layer)
    _draw_events(d, b, events_box)
    if extra:  # the private strip draws below the board, from these data only
        strip: Box = (0, HEIGHT, WIDTH - 1, height - 1)
        if b.wall_hand is not None or b.private_wall_card is not None:
            memo_region(img, strip, ("fourth_wall wall strip", layer, height,
                                     repr(b.private_wall_card), repr(b.wall_hand)),
                        partial(_draw_wall_strip, d, b, HEIGHT, height - 12))
        else:
            _draw_team_strip(img, d, b, HEIGHT, height - 12, (*layer, height))
    return img


def render_board(view: dict[str, Any]) -> bytes:
    """PNG bytes of the board for ``view`` (public or a seat's), under ~300 KB."""
    return encode_png(render_image(view), max_bytes=MAX_BYTES)
