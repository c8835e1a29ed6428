"""I Am the Fourth Wall's board for a phone column: ``phone_map(view, width) -> RGB Image``.

The turn card (``renders/turncard.py``) pastes this picture between "who acts / what to do"
and the decisive numbers. The card is shown 400 px wide in Discord, half its drawn size, so
nothing here is smaller than 28 px type (14 px on the phone) and the map stays about as tall
as it is wide: words are abbreviated ("St 3", "Magician") rather than shrunk.

Top to bottom, from the public view only (``rules/fourth_wall/view.py``):

- the five Gates in placement order, "Gate 1" .. "Gate 5" written above their tiles on the bare
  background (so they read at half size), each OPEN (lit, an eye, a thick glowing frame) or
  "shut" (dark, hatched, a padlock): word, pictogram and texture tell them apart, not colour;
- The Wall / The Ancient One: its card face down ("?") until An Eye Opens, then its name; the
  Doom pool as skull tokens with the count (Alliance: the Presence cards the Wall turn
  resolves, a Doom each, as the card's tile counts them); on the Wall's turn a thick frame
  and an arrow;
- the Turn Tracker: one cell per rank with its stage's pictogram (moon, eye, flame, skull) and
  number, passed ranks dimmed and struck through, the current rank framed, "NOW" pointing at
  the strip;
- On the Streets: one row per Horror (a diamond with a skull: Horrors are diamonds, the
  Investigators hearts), its Street in Alliance ("St 3"), its name, the Defeat Cost Symbols
  still needed (negated ones ticked), DRAINED / SCOURGE words; Alliance's empty Streets share
  the heading's line; The Scourge's lock on closing Gates is written there (Conflict);
- the Investigators: a heart with the Marbles they hold (no number before they are dealt; a
  struck-out skull once Insane), their character's name without "The", written whole (two
  columns when three would cut a name, the change badge or the name's second word on a second
  line when one would; a stem with a dot only for a word no chip holds, never shrunk below
  28 px), the Target Token (Alliance) as cross-hairs, whose turn as a thick frame (open at the
  middle of its sides) and an arrow.
  No ring of bright ink closes around a name: shrunk to 400 px, tesseract lost names so
  boxed (stop 67).

What changed since the previous board post (``view["turn"]["before"]``, the public view then)
is marked with a dashed ring and a word or number in a badge ("NEW", "+2", "-1", "SHUT",
"GONE"; "!" for a Horror newly Drained or bearing The Scourge, an Investigator gone Insane),
never colour alone; a tracker rank that moved gets the ring alone. The ring about words (a
Gate's number, a Horror's row, an Investigator's chip) is a dimmer gold than the others (its
badge says what changed; stop 67, stop 68). Everything drawn is public: the map never reads
anything but the view it is given, and missing or malformed keys draw as empty.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from PIL import Image, ImageDraw

from renders import fourth_wall as fw
from renders.common import (
    Box,
    Colour,
    Font,
    as_dict,
    as_int,
    as_list,
    as_str,
    font,
    hatch,
    icon,
    memo_region,
    mix,
    note_truncation,
    pack_rows,
    rounded_box,
    text_width,
)

__all__ = ["MIN_TYPE", "legend_items", "phone_legend", "phone_map"]

MIN_TYPE = 28  # 14 px on the phone: nothing smaller is written on the map
GAP = 10
GATES_H = 104
GATE_LABEL_H = 38
WALL_H = 54
TRACKER_H = 60
HEAD_H = 36
HORROR_ROW = 52
EMPTY_ROW = 42
INV_ROW = 52
INV_LINE = 34  # a chip's two lines, centre to centre (stop 66: names written whole)
INV_ROW_TALL = INV_ROW + INV_LINE
INV_GAP = 8  # between rows of chips
NAME_X = 60  # a chip's name starts this far in, after the heart
STACK_X = 28  # a chip's name starts this far in when its heart sits on the second line
# Whose turn: the arrow before the name, with its gap. Stop 67: a gap of 6 px (3 on the phone)
# read as one word with the name ("pStreet"); 16 reads apart.
ARROW_W = 32
NAME_END = 24  # a name ends this far from its chip's right edge (clear of the turn's frame)
FRAME_W = 6  # whose turn: the chip's thick frame
CHIP_EDGE: Colour = (62, 64, 84)  # every other chip's thin edge (why: `_draw_chip`)
# The change ring around words (a Gate's number, a Horror's or an Investigator's name): a dimmer
# gold (why: `_draw_chip`; stop 68: the Gates and Horror rows too).
WORD_RING: Colour = mix(fw.HIGHLIGHT, fw.BG, 0.65)
MAX_HORROR_ROWS = 5
NAME_ROOM = 130  # a Horror's name keeps this much of its row
SYM_R = 15  # a Defeat-Cost Symbol's radius on a Horror's row (and in the legend)

BG: Colour = fw.BG
PANEL: Colour = fw.PANEL
TEXT: Colour = fw.TEXT
MUTED: Colour = fw.MUTED
DIM: Colour = fw.DIM
CHANGED: Colour = fw.HIGHLIGHT  # the change marks; always with a dashed ring and a word
OPEN_FILL: Colour = (96, 36, 140)
SHUT_FILL: Colour = (30, 32, 46)
SHUT_HATCH: Colour = (44, 46, 64)
INSANE: Colour = (96, 90, 100)

_i, _s, _d, _l = as_int, as_str, as_dict, as_list


# --------------------------------------------------------------------------- the view, typed


@dataclass
class _Horror:
    id: str
    name: str
    street: int | None
    need: list[str]  # Defeat Cost Symbols not yet negated
    spent: list[str]  # negated by Attached Marbles
    attached: int
    drained: bool
    scourge: bool
    tell: str = ""  # which of its name it is ("older", "third"); "" without a twin


@dataclass
class _Inv:
    id: str
    name: str
    sanity: int | None
    held: int | None  # Marbles in hand: what Insanity counts down (FW: lose them all)
    insane: bool
    target: bool
    active: bool
    dealt: bool = True  # False during setup: no Marble is dealt before every card is chosen



@dataclass
class _Map:
    mode: str
    gates: list[bool]
    revealed: bool
    wall_name: str
    doom: int
    ranks: list[tuple[int, str]]
    rank_index: int
    horrors: list[_Horror]
    streets: list[int]  # Alliance's Street numbers (empty in Conflict)
    closing_blocked: bool
    invs: list[_Inv]
    wall_turn: bool = False
    pool: str = "Doom"
    """What `doom` counts on the Wall's row: "Doom" (Conflict), "cards" (Alliance: the
    Presence cards the next or this Wall turn resolves, as the card's tile says), or ""
    (Alliance at game over: none is to come)."""


def _symbols(value: Any) -> list[str]:
    return [str(x).lower() for x in _l(value) if str(x).lower() in fw.SYMBOLS][:8]


def _horror(raw: Any) -> _Horror:
    d = _d(raw)
    cost = _symbols(d.get("defeat_cost") if "defeat_cost" in d else d.get("defeat"))
    negated = {str(k): max(0, _i(v)) for k, v in _d(d.get("negated")).items()}
    need: list[str] = []
    spent: list[str] = []
    for sym in cost:
        if negated.get(sym, 0) > 0:
            negated[sym] -= 1
            spent.append(sym)
        else:
            need.append(sym)
    street = d.get("street")
    scourge = bool(d.get("scourge"))
    return _Horror(
        id=_s(d.get("id")),
        name=_s(d.get("name")) or "Horror",
        street=street if isinstance(street, int) and not isinstance(street, bool) else None,
        need=need,
        spent=spent,
        attached=len(_l(d.get("attached"))),
        drained=bool(d.get("drained")),
        scourge=scourge,
        tell="" if scourge else fw.short_tell(_s(d.get("tell"))),
    )


def _read(view: Mapping[str, Any]) -> _Map:
    gates = _d(view.get("gates"))
    n_gates = max(1, min(_i(gates.get("max"), 5), 5))
    n_open = max(0, min(_i(gates.get("open")), n_gates))
    pentagram = [bool(x) for x in _l(gates.get("pentagram"))][:n_gates]
    if len(pentagram) != n_gates or sum(pentagram) != n_open:
        pentagram = [k < n_open for k in range(n_gates)]
    wall = _d(view.get("wall"))
    # Face up once An Eye Opens, or when the view names it (the game's end: stop 64's recap
    # read "The Wall: hidden" of the Ancient One just beaten).
    revealed = bool(wall.get("revealed")) or bool(wall.get("name"))
    ranks: list[tuple[int, str]] = []
    rank_index = 0
    for rd in (_d(r) for r in _l(_d(view.get("tracker")).get("ranks"))[:12]):
        stage = _s(rd.get("stage"))
        if stage not in fw.STAGES:
            continue
        if rd.get("current"):
            rank_index = len(ranks)
        ranks.append((_i(rd.get("rank")), stage))
    mode = _s(view.get("mode"), "conflict")
    phase = _s(view.get("phase"))
    target = _s(view.get("target"))
    invs: list[_Inv] = []
    for k, raw in enumerate(_l(view.get("investigators"))[:6]):
        d = _d(raw)
        iid = _s(d.get("id"), f"i{k + 1}")
        sanity = d.get("sanity")
        held = d.get("hand_count")
        invs.append(_Inv(
            id=iid,
            name=_s(d.get("name")),
            sanity=sanity if isinstance(sanity, int) and not isinstance(sanity, bool) else None,
            held=held if isinstance(held, int) and not isinstance(held, bool) else None,
            insane=bool(d.get("insane")),
            target=mode == "alliance" and (bool(d.get("is_target")) or (bool(target)
                                                                         and iid == target)),
            active=bool(d.get("is_active")) and phase == "investigator",
            dealt=phase != "setup",
        ))
    cards = _d(wall.get("presence_cards"))
    streets = sorted({_i(_d(s).get("number")) for s in _l(view.get("streets"))} - {0})
    if mode == "alliance" and not streets:
        streets = [1, 2, 3, 4, 5]
    return _Map(
        mode=mode,
        gates=pentagram,
        revealed=revealed,
        wall_name=_s(wall.get("name")) if revealed else "",
        doom=max(0, _i(cards.get("n") if mode == "alliance" else wall.get("doom"))),
        ranks=ranks,
        rank_index=rank_index,
        horrors=[_horror(h) for h in _l(view.get("horrors"))],
        streets=streets[:5],
        closing_blocked=bool(gates.get("closing_blocked")),
        invs=invs,
        wall_turn=phase == "wall",
        # Alliance spends the whole pool at each Wall turn: the row read "Doom 0" beside the
        # tile's "Presence cards 3" (stop 70's demo); it counts the cards, as the tile does.
        pool="Doom" if mode != "alliance" else ("cards" if cards else ""),
    )


# --------------------------------------------------------------------------- what changed


@dataclass
class _Changes:
    """Badges for what differs from the previous board post (empty without one)."""

    gates: dict[int, str] = field(default_factory=dict)
    wall: str = ""
    doom: str = ""
    rank: bool = False
    horrors: dict[str, str] = field(default_factory=dict)
    gone: list[_Horror] = field(default_factory=list)
    invs: dict[str, str] = field(default_factory=dict)


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else f"-{-n}"


def _changes(now: _Map, before_view: Mapping[str, Any]) -> _Changes:
    ch = _Changes()
    if not before_view:
        return ch
    was = _read(before_view)
    for k, is_open in enumerate(now.gates):
        if k < len(was.gates) and was.gates[k] != is_open:
            ch.gates[k] = "NEW" if is_open else "SHUT"
    if now.revealed and not was.revealed:
        ch.wall = "NEW"
    if now.doom != was.doom and now.pool and now.pool == was.pool:
        ch.doom = _signed(now.doom - was.doom)
    ch.rank = bool(was.ranks) and (was.rank_index != now.rank_index)
    old = {h.id: h for h in was.horrors if h.id}
    for h in now.horrors:
        prev = old.get(h.id)
        if prev is None:
            ch.horrors[h.id] = "NEW"
        elif h.attached != prev.attached:
            ch.horrors[h.id] = _signed(h.attached - prev.attached)
        elif (h.drained, h.scourge, h.need) != (prev.drained, prev.scourge, prev.need):
            ch.horrors[h.id] = "!"
    here = {h.id for h in now.horrors}
    ch.gone = [h for h in was.horrors if h.id and h.id not in here]
    old_inv = {inv.id: inv for inv in was.invs}
    for inv in now.invs:
        prev_inv = old_inv.get(inv.id)
        if prev_inv is None:
            continue
        if inv.insane and not prev_inv.insane:
            ch.invs[inv.id] = "!"
        elif _marbles(inv) is not None and _marbles(prev_inv) is not None \
                and _marbles(inv) != _marbles(prev_inv):
            ch.invs[inv.id] = _signed((_marbles(inv) or 0) - (_marbles(prev_inv) or 0))
    return ch


def _marbles(inv: _Inv) -> int | None:
    """The heart's number: the Marbles the Investigator holds, its hold on sanity ("If you
    lose all your marbles, you are driven insane"); the card's Sanity (its Hand Limit) where a
    view has no count. Stop 63's demo: the heart showed the Hand Limit, which never moves.
    None before the Marbles are dealt (FW-SETUP-05; stop 68's demos read "0" on a heart while
    the others still chose their cards)."""
    if not inv.dealt:
        return None
    return inv.held if inv.held is not None else inv.sanity


# --------------------------------------------------------------------------- small pieces


def _fit(candidates: Sequence[str], width: float, size: int, bold: bool = True) -> tuple[str, Font]:
    """The first candidate that fits ``width`` at ``size`` .. MIN_TYPE px, else the shortest
    at MIN_TYPE (abbreviate before shrinking; never below MIN_TYPE)."""
    options = [c for c in candidates if c] or [""]
    for text in options:
        for px in range(size, MIN_TYPE - 1, -2):
            fnt = font(px, bold)
            if text_width(text, fnt) <= width:
                return text, fnt
    fnt = font(MIN_TYPE, bold)
    return min(options, key=lambda t: text_width(t, fnt)), fnt


def _fit_name(name: str, width: float, size: int = 30, tell: str = "") -> tuple[str, Font]:
    """`_fit` of ``name`` and its `_short_names`; a stand-in for the name (its head noun, a
    stem) or a name too long even so is noted as a cut, as a chip's name is (stop 67: the
    whole-game "nothing cut" test could not see a Horror or The Wall written short). A
    ``tell`` ("older") follows each in brackets: the name is shortened, never the tell."""
    after = f" ({tell})" if tell else ""
    text, fnt = _fit([f"{n}{after}" for n in _short_names(name)], width, size)
    whole = {f"{name}{after}",
             " ".join(w for w in name.split() if w.lower() != "the") + after}
    if text not in whole or text_width(text, fnt) > width:
        note_truncation(name)
    return text, fnt


def _short_names(name: str) -> list[str]:
    """A character or card name, then shorter stand-ins: without "The", the head noun of an
    "X of Y" name ("Breaker"), else the last word ("Magician"), then that cut to a stem with
    a dot ("Quarterm.")."""
    words = [w for w in name.split() if w]
    bare = [w for w in words if w.lower() != "the"] or words
    out = [name, " ".join(bare)]
    if bare:
        lowered = [w.lower() for w in bare]
        head = bare[lowered.index("of") - 1] if "of" in lowered[1:] else bare[-1]
        out.append(head)
        for keep in (8, 6, 5):
            if len(head) > keep + 1:
                out.append(head[:keep] + ".")
    return list(dict.fromkeys(x for x in out if x))


def _dashed_ring(d: ImageDraw.ImageDraw, box: Box, colour: Colour, width: int = 5,
                 dash: int = 14, gap: int = 9) -> None:
    """A dashed rectangle around ``box``: the change mark's outline (a pattern, not a hue)."""
    x0, y0, x1, y1 = box
    step = dash + gap
    x = x0
    while x < x1:
        xe = min(x + dash, x1)
        d.line((x, y0, xe, y0), fill=colour, width=width)
        d.line((x, y1, xe, y1), fill=colour, width=width)
        x += step
    y = y0
    while y < y1:
        ye = min(y + dash, y1)
        d.line((x0, y, x0, ye), fill=colour, width=width)
        d.line((x1, y, x1, ye), fill=colour, width=width)
        y += step


def _badge_width(text: str) -> float:
    return text_width(text, font(MIN_TYPE, True)) + 16 if text else 0.0


def _badge(d: ImageDraw.ImageDraw, right: float, cy: float, text: str) -> float:
    """A change badge (dark bold type on the highlight) ending at ``right``, centred on
    ``cy``; returns its width. It sits inside its element's row, so it hides nothing."""
    if not text:
        return 0.0
    w = _badge_width(text)
    h = MIN_TYPE + 10
    rounded_box(d, (right - w, cy - h / 2, right, cy + h / 2), 8, fill=CHANGED,
                outline=(20, 16, 24), width=2)
    d.text((right - w / 2, cy), text, font=font(MIN_TYPE, True), fill=(20, 16, 24),
           anchor="mm")
    return w


def _ring(d: ImageDraw.ImageDraw, box: Box, colour: Colour = CHANGED) -> None:
    """The change mark's outline: a thick dashed ring just outside ``box``."""
    x0, y0, x1, y1 = box
    _dashed_ring(d, (x0 - 3, y0 - 3, x1 + 3, y1 + 3), colour)


def _diamond(d: ImageDraw.ImageDraw, centre: tuple[float, float], r: float, fill: Colour,
             edge: Colour, skull: Colour) -> None:
    """A Horror's token: a diamond (Investigators are hearts) with a skull."""
    cx, cy = centre
    d.polygon([(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)], fill=fill, outline=edge,
              width=3)
    k = r * 0.5
    icon(d, "skull", (cx - k, cy - k, cx + k, cy + k), skull, back=fill)


def _heart(d: ImageDraw.ImageDraw, centre: tuple[float, float], r: float, fill: Colour) -> None:
    """A heart shape (two lobes and a point) ``2r`` wide."""
    cx, cy = centre
    lobe = r * 0.55
    d.ellipse((cx - r, cy - r * 0.75, cx - r + 2 * lobe, cy - r * 0.75 + 2 * lobe), fill=fill)
    d.ellipse((cx + r - 2 * lobe, cy - r * 0.75, cx + r, cy - r * 0.75 + 2 * lobe), fill=fill)
    d.polygon([(cx - r + 1, cy - r * 0.75 + lobe + 2), (cx + r - 1, cy - r * 0.75 + lobe + 2),
               (cx, cy + r)], fill=fill)
    d.rectangle((cx - r * 0.3, cy - r * 0.55, cx + r * 0.3, cy), fill=fill)


# --------------------------------------------------------------------------- layout


def _street_rows(m: _Map, ch: _Changes) -> list[tuple[int | None, _Horror | None, str]]:
    """The rows On the Streets: (Street or None, Horror or None, change badge)."""
    rows: list[tuple[int | None, _Horror | None, str]] = []
    if m.mode == "alliance":
        for num in m.streets:
            h = next((x for x in m.horrors if x.street == num), None)
            badge = ch.horrors.get(h.id, "") if h is not None else ""
            if h is None and any(g.street == num for g in ch.gone):
                badge = "GONE"
            if h is not None or badge:  # quiet empty Streets share the heading's line
                rows.append((num, h, badge))
        shown = {h.id for _, h, _ in rows if h is not None}
        rows += [(None, h, ch.horrors.get(h.id, "")) for h in m.horrors if h.id not in shown]
    else:
        rows = [(None, h, ch.horrors.get(h.id, "")) for h in m.horrors]
    return rows[:MAX_HORROR_ROWS]


@dataclass
class _Chip:
    """How an Investigator's chip writes its name (`_chip`)."""

    lines: list[str]  # the name: whole on one line or two, or (last resort) a stem
    fnt: Font
    arrow: bool  # whose turn: the arrow before the name (the thick frame says it anyway)
    badge_below: bool  # the change badge sits on the second line, the name took the first's
    whole: bool  # the name is written whole

    @property
    def tall(self) -> bool:
        return len(self.lines) > 1 or self.badge_below


def _whole_font(texts: Sequence[str], width: float, size: int = 30) -> Font | None:
    """The largest font from ``size`` down to MIN_TYPE px in which every text fits ``width``,
    or None."""
    for px in range(size, MIN_TYPE - 1, -2):
        fnt = font(px, True)
        if all(text_width(t, fnt) <= width for t in texts):
            return fnt
    return None


def _chip(inv: _Inv, badge: str, cw: float) -> _Chip:
    """The name of an Investigator's chip ``cw`` wide, whole wherever it can be (stop 66's
    demo read "Ralli." and "Demoliti." at 400 px): on one line, the arrow giving way first;
    else on one line with the change badge under it; else over two lines at a space; a stem
    with a dot only when no line holds it, never type below MIN_TYPE."""
    # A name keeps clear of the chip's right edge (the thick frame of whose turn it is).
    room = cw - NAME_X - NAME_END
    bw = _badge_width(badge) + 8 if badge else 0.0
    short = _short_names(inv.name) if inv.sanity is not None and inv.name else ["choosing"]
    whole = list(dict.fromkeys(short[1:2] + short[:1]))  # without "The", then as printed
    arrows = (True, False) if inv.active else (False,)
    for below, less in ((False, bw), (True, 0.0)) if badge else ((False, 0.0),):
        for arrow in arrows:
            for text in whole:
                fnt = _whole_font([text], room - less - (ARROW_W if arrow else 0))
                if fnt is not None:
                    return _Chip([text], fnt, arrow, below, True)
    words = whole[0].split()
    for k in range(len(words) - 1, 0, -1):
        first, second = " ".join(words[:k]), " ".join(words[k:])
        for arrow in arrows:
            fnt = _whole_font([first], room - (ARROW_W if arrow else 0))
            if fnt is not None and text_width(second, fnt) <= room - bw:
                return _Chip([first, second], fnt, arrow, False, True)
    name, nf = _fit(short[1:] + short[:1], room - bw, 30)
    return _Chip([name], nf, False, False, False)


@dataclass
class _InvLayout:
    cols: int
    cw: float  # a chip's width
    chips: list[_Chip]
    rows: list[float]  # each row's height

    @property
    def height(self) -> float:
        return sum(self.rows) + INV_GAP * max(0, len(self.rows) - 1)


def _inv_layout(m: _Map, ch: _Changes, width: int) -> _InvLayout:
    """Two columns for up to two Investigators or four (two full rows); three for three,
    five or six while every name fits its chip whole on one line, else two (stop 66: a name
    cut short reads as another word). A row with a name on two lines is taller."""
    n = len(m.invs)
    plan = _InvLayout(2, 0.0, [], [])
    for cols in (2,) if n in (1, 2, 4) else (3, 2):
        cw = (width - 8 - 10 * (cols - 1)) / cols
        chips = [_chip(inv, ch.invs.get(inv.id, ""), cw) for inv in m.invs]
        plan = _InvLayout(cols, cw, chips, [
            INV_ROW_TALL if any(c.tall for c in chips[k:k + cols]) else INV_ROW
            for k in range(0, n, cols)])
        if all(c.whole and not c.tall for c in chips):
            break
    for inv, c in zip(m.invs, plan.chips, strict=True):
        if not c.whole:
            note_truncation(inv.name)  # a cut name is a defect the whole-game tests catch
    return plan


def _notes(m: _Map, ch: _Changes,
           rows: Sequence[tuple[int | None, _Horror | None, str]]) -> list[tuple[str, str]]:
    """One-line notes under the Streets: Horrors left out for room, Horrors gone since the
    last post (Conflict; an Alliance Street says it on its own row), with their badges."""
    out: list[tuple[str, str]] = []
    more = len(m.horrors) - sum(1 for _, h, _ in rows if h is not None)
    if more > 0:
        out.append((f"+{more} more Horror{'s' if more != 1 else ''} On the Streets", ""))
    if ch.gone and m.mode != "alliance":
        names = ", ".join(dict.fromkeys(f"{g.name} ({g.tell})" if g.tell else g.name
                                        for g in ch.gone))
        out.append((f"Gone: {names}", "GONE"))
    return out


def _height(m: _Map, rows: Sequence[tuple[int | None, _Horror | None, str]],
            notes: int) -> int:
    h = GATES_H + GAP + WALL_H + GAP
    if m.ranks:
        h += TRACKER_H + GAP
    h += HEAD_H
    if rows:
        h += sum(HORROR_ROW if hr is not None else EMPTY_ROW for _, hr, _ in rows)
    else:
        h += EMPTY_ROW
    h += notes * EMPTY_ROW
    h += GAP
    return h + 4


# --------------------------------------------------------------------------- sections


def _draw_gates(img: Image.Image, d: ImageDraw.ImageDraw, m: _Map, ch: _Changes,
                width: int, y0: float) -> None:
    n = len(m.gates)
    gap = 14
    tw = (width - 8 - gap * (n - 1)) / n
    for k, is_open in enumerate(m.gates):
        x0 = 4 + k * (tw + gap)
        cx = x0 + tw / 2
        # The Gate's number stands above its tile on the bare background, away from any
        # frame, so it reads at a glance (and to OCR) at half size.
        label, lf = _fit([f"Gate {k + 1}", f"G{k + 1}", str(k + 1)], tw + gap - 4, 32)
        d.text((cx, y0 + GATE_LABEL_H / 2), label, font=lf, fill=TEXT, anchor="mm")
        box: Box = (x0, y0 + GATE_LABEL_H + 6, x0 + tw, y0 + GATES_H - 2)
        mid = (box[1] + box[3]) / 2
        badge = ch.gates.get(k, "")
        word = "OPEN" if is_open else "shut"
        wf = font(MIN_TYPE, True)
        # The pictogram and the word (or, for a changed Gate, its badge: "NEW" by an eye,
        # "SHUT" by a padlock) centred together in the tile.
        ww = _badge_width(badge) if badge else text_width(word, wf)
        ix = cx - (30 + 6 + ww) / 2 + 15
        if is_open:
            rounded_box(d, box, 12, fill=OPEN_FILL, outline=fw.GATE_GLOW, width=5)
            icon(d, "eye", (ix - 16, mid - 16, ix + 16, mid + 16), (255, 240, 255),
                 back=OPEN_FILL)
            word_c = (255, 255, 255)
        else:
            rounded_box(d, box, 12, fill=SHUT_FILL, outline=(96, 98, 130), width=2)
            hatch(img, (box[0] + 3, box[1] + 3, box[2] - 3, box[3] - 3), SHUT_HATCH,
                  spacing=14, width=2, radius=10)
            icon(d, "lock", (ix - 13, mid - 16, ix + 13, mid + 16), (150, 152, 186),
                 back=SHUT_FILL)
            word_c = MUTED
        right = ix + 15 + 6 + ww
        if badge:
            _badge(d, right, mid, badge)
            _ring(d, box, WORD_RING)
        else:
            d.text((right, mid), word, font=wf, fill=word_c, anchor="rm")


def _draw_wall(img: Image.Image, d: ImageDraw.ImageDraw, m: _Map, ch: _Changes,
               width: int, y0: float) -> None:
    card: Box = (4, y0, 4 + 46, y0 + WALL_H)
    if m.revealed:
        rounded_box(d, card, 8, fill=fw.WALL_CARD, outline=fw.WALL_EDGE, width=3)
        icon(d, "eye", (card[0] + 6, card[1] + 14, card[2] - 6, card[3] - 14), (255, 236, 255),
             back=fw.WALL_CARD)
    else:
        rounded_box(d, card, 8, fill=(34, 28, 52), outline=(110, 96, 150), width=3)
        d.text(((card[0] + card[2]) / 2, (card[1] + card[3]) / 2), "?", font=font(36, True),
               fill=(200, 180, 240), anchor="mm")
    who = "Ancient One" if m.mode == "alliance" else "The Wall"
    cy = y0 + WALL_H / 2
    tx0 = card[2] + 14
    if m.wall_turn:  # the Wall's turn: a thick frame and an arrow, as for an Investigator
        rounded_box(d, (card[0] - 2, card[1] - 2, card[2] + 2, card[3] + 2), 9,
                    outline=fw.HIGHLIGHT, width=5)
        d.polygon([(tx0, cy - 11), (tx0 + 16, cy), (tx0, cy + 11)], fill=fw.HIGHLIGHT)
        tx0 += 24
    # Doom on the right: skull tokens, the count, and how it changed.
    doom_text = (f"Doom {m.doom}" if m.pool == "Doom" else
                 f"{m.doom} card{'s' if m.doom != 1 else ''}" if m.pool else "")
    df = font(30, True)
    r = 15
    right = width - 6
    # The tokens give way to the Wall's name written whole (stop 67: "The Breaker of
    # Trinkets" just revealed beside a grown Doom read "Breaker"); the count stays written.
    name = " ".join(w for w in (m.wall_name or who).split() if w.lower() != "the")
    free = (right - text_width(doom_text, df) - 8 - tx0 - 16
            - (_badge_width(ch.doom) + 12 if ch.doom else 0)
            - (_badge_width(ch.wall) + 8 if ch.wall else 0))
    need = text_width(name, font(MIN_TYPE, True)) if m.revealed else 0.0
    tokens = min(m.doom, 4) if doom_text else 0
    while tokens and free - tokens * (2 * r + 4) < need:
        tokens -= 1
    d.text((right, cy), doom_text, font=df, fill=fw.DOOM_RING, anchor="rm")
    x = right - text_width(doom_text, df) - 8
    for k in range(tokens):
        tx = x - r - k * (2 * r + 4)
        d.ellipse((tx - r, cy - r, tx + r, cy + r), fill=fw.DOOM, outline=fw.DOOM_RING, width=2)
        icon(d, "skull", (tx - 9, cy - 9, tx + 9, cy + 9), (255, 220, 210), back=fw.DOOM)
    x -= tokens * (2 * r + 4)
    if ch.doom:
        x -= _badge(d, x - 4, cy, ch.doom) + 8
        _ring(d, (x, y0 + 4, right, y0 + WALL_H - 4))
    # The Wall's card: hidden until An Eye Opens, then its name.
    room = x - tx0 - 16 - (_badge_width(ch.wall) + 8 if ch.wall else 0)
    if m.revealed:
        text, tf = _fit_name(m.wall_name or who, room)
        colour = fw.WALL_EDGE
    else:
        text, tf = _fit([f"{who}: hidden", f"{who} hidden", "hidden"], room, 30)
        colour = MUTED
    d.text((tx0, cy), text, font=tf, fill=colour, anchor="lm")
    if ch.wall:
        end = tx0 + text_width(text, tf) + 8 + _badge_width(ch.wall)
        _badge(d, end, cy, ch.wall)
        _ring(d, (card[0], card[1], end + 4, card[3]))


def _draw_tracker(d: ImageDraw.ImageDraw, m: _Map, ch: _Changes, width: int,
                  y0: float) -> None:
    n = len(m.ranks)
    gap = 6
    left: float = 4
    # The "NOW" arrow left of the strip names the framed cell without colour.
    now_w = text_width("NOW", font(MIN_TYPE, True)) + 34
    cw = (width - 8 - now_w - gap * (n - 1)) / n
    d.text((left, y0 + TRACKER_H / 2), "NOW", font=font(MIN_TYPE, True), fill=fw.HIGHLIGHT,
           anchor="lm")
    left += now_w
    for k, (rank, stage) in enumerate(m.ranks):
        x0 = left + k * (cw + gap)
        box: Box = (x0, y0 + 4, x0 + cw, y0 + TRACKER_H - 4)
        colour = fw.STAGE_COLOUR.get(stage, MUTED)
        passed = k < m.rank_index
        fill = mix(colour, PANEL, 0.75 if passed else 0.3)
        rounded_box(d, box, 8, fill=fill)
        fg = mix(colour, TEXT, 0.35) if passed else TEXT
        ic = fw.STAGE_ICON.get(stage, "circle")
        icon(d, ic, (x0 + cw / 2 - 11, box[1] + 3, x0 + cw / 2 + 11, box[1] + 25), fg, back=fill)
        d.text((x0 + cw / 2, box[3] - 4), str(rank), font=font(MIN_TYPE, True), fill=fg,
               anchor="ms")
        if passed:  # crossed off: passed ranks differ by a stroke, not only by dimming
            d.line((box[0] + 6, box[3] - 6, box[2] - 6, box[1] + 6), fill=fg, width=3)
        if k == m.rank_index:
            rounded_box(d, (box[0] - 4, box[1] - 4, box[2] + 4, box[3] + 4), 10,
                        outline=fw.HIGHLIGHT, width=5)
            # an arrow from "NOW" to the current cell
            ay = y0 + TRACKER_H / 2
            d.polygon([(left - 22, ay - 10), (left - 8, ay), (left - 22, ay + 10)],
                      fill=fw.HIGHLIGHT)
            if ch.rank:
                _dashed_ring(d, (box[0] - 10, box[1] - 10, box[2] + 10, box[3] + 10), CHANGED,
                             width=3, dash=8, gap=6)


def _draw_streets(d: ImageDraw.ImageDraw, m: _Map, ch: _Changes,
                  rows: Sequence[tuple[int | None, _Horror | None, str]],
                  notes: Sequence[tuple[str, str]], width: int, y0: float) -> float:
    hf = font(MIN_TYPE, True)
    d.text((4, y0 + HEAD_H / 2 - 2), "ON THE STREETS", font=hf, fill=MUTED, anchor="lm")
    room = width - 8 - text_width("ON THE STREETS", hf) - 20
    listed = {num for num, _, _ in rows if num is not None}
    empty = [num for num in m.streets if num not in listed]
    if m.closing_blocked or any(h.scourge for h in m.horrors):
        note, nf = _fit(["Scourge: no Gate can close", "Scourge: Gates stay", "Scourge out"],
                        room, MIN_TYPE)
        d.text((width - 4, y0 + HEAD_H / 2 - 2), note, font=nf, fill=fw.SCOURGE, anchor="rm")
    elif empty and rows:
        nums = ", ".join(str(k) for k in empty)
        note, nf = _fit([f"Empty: St {nums}", f"Empty: {nums}"], room, MIN_TYPE, bold=False)
        d.text((width - 4, y0 + HEAD_H / 2 - 2), note, font=nf, fill=MUTED, anchor="rm")
    y = y0 + HEAD_H
    if not rows:
        d.text((14, y + EMPTY_ROW / 2), "No Horror On the Streets", font=font(MIN_TYPE), fill=DIM,
               anchor="lm")
        y += EMPTY_ROW
    for num, h, badge in rows:
        if h is None:
            box: Box = (4, y + 2, width - 4, y + EMPTY_ROW - 4)
            gone = next((g.name for g in ch.gone if g.street == num), "Horror")
            text = f"St {num} · {gone} gone" if badge == "GONE" else f"St {num} · empty"
            _quiet_row(d, box, text, badge)
            y += EMPTY_ROW
            continue
        box = (4, y + 3, width - 4, y + HORROR_ROW - 5)
        _horror_row(d, box, h, num, badge)
        y += HORROR_ROW
    for text, badge in notes:
        _quiet_row(d, (4, y + 2, width - 4, y + EMPTY_ROW - 4), text, badge)
        y += EMPTY_ROW
    return y


def _quiet_row(d: ImageDraw.ImageDraw, box: Box, text: str, badge: str) -> None:
    """A one-line row in muted type (an empty Street, Horrors gone), with its badge."""
    x0, y0, x1, y1 = box
    cy = (y0 + y1) / 2
    right = x1 - 6
    if badge:
        right -= _badge(d, right, cy, badge) + 10
        _ring(d, box, WORD_RING)
    shown, tf = _fit([text, text.split(":")[0]], right - x0 - 10, MIN_TYPE, bold=False)
    d.text((x0 + 10, cy), shown, font=tf, fill=MUTED if badge else DIM, anchor="lm")


@dataclass
class _RowFit:
    """Where a Horror row's parts go (`_horror_row`; the legend keys what it draws)."""

    x: float  # the name's left edge (after the Street)
    tags: list[tuple[str, float]]  # (tag, its right edge), right to left
    right: float  # the Symbols' right edge
    syms: list[tuple[str, bool]]  # (Symbol, negated) drawn, left to right


def _row_fit(h: _Horror, street: int | None, badge: str, x0: float, x1: float) -> _RowFit:
    x = x0 + 54
    if street is not None:
        x += text_width(f"St {street}", font(MIN_TYPE, True)) + 14
    # Right to left: the change badge, the tags, then the Symbols still needed; the name
    # keeps at least NAME_ROOM.
    right = x1 - 8
    if badge:
        right -= _badge_width(badge) + 10
    tf = font(MIN_TYPE, True)
    tags: list[tuple[str, float]] = []
    for tag in (["SCOURGE"] if h.scourge else []) + (["DRAINED"] if h.drained else []):
        tw = text_width(tag, tf)
        if right - tw < x + NAME_ROOM:
            break
        tags.append((tag, right))
        right -= tw + 12
    syms = [(s, False) for s in h.need] + [(s, True) for s in h.spent]
    syms = syms[:max(0, int((right - x - NAME_ROOM) // (2 * SYM_R + 4)))]
    return _RowFit(x, tags, right, syms)


def _horror_row(d: ImageDraw.ImageDraw, box: Box, h: _Horror, street: int | None,
                badge: str) -> None:
    x0, y0, x1, y1 = box
    fill = fw.DRAINED if h.drained else fw.HORROR
    edge = fw.SCOURGE if h.scourge else (fw.DRAINED_EDGE if h.drained else fw.HORROR_EDGE)
    # The Scourge's edge is as thin as any row's (stop 68: its thick frame of bright ink lost
    # the names of its row and the rows about it at 400 px; its word says it, and the heading's
    # note what it does).
    rounded_box(d, box, 10, fill=fill, outline=edge, width=2)
    cy = (y0 + y1) / 2
    _diamond(d, (x0 + 26, cy), 20, mix(fw.HORROR_EDGE, fill, 0.3), (236, 200, 210),
             (255, 236, 240))
    fit = _row_fit(h, street, badge, x0, x1)
    x = fit.x
    if street is not None:
        d.text((x0 + 54, cy), f"St {street}", font=font(MIN_TYPE, True), fill=fw.GOLD,
               anchor="lm")
    if badge:
        _badge(d, x1 - 8, cy, badge)
        _ring(d, box, WORD_RING)
    tf = font(MIN_TYPE, True)
    for tag, tag_right in fit.tags:
        d.text((tag_right, cy), tag, font=tf, fill=fw.SCOURGE if tag == "SCOURGE" else MUTED,
               anchor="rm")
    right = fit.right
    r = SYM_R
    syms = fit.syms
    for k, (sym, spent) in enumerate(reversed(syms)):
        sx = right - r - k * (2 * r + 4)
        if spent:
            fw._spent_symbol(d, (sx, cy), r, sym)
        else:
            fw._symbol(d, (sx, cy), r, sym)
    if syms:
        right -= len(syms) * (2 * r + 4) + 8
    name, nf = _fit_name(h.name, right - x, tell=h.tell)
    d.text((x, cy), name, font=nf, fill=TEXT, anchor="lm")


def _target(d: ImageDraw.ImageDraw, centre: tuple[float, float], r: float) -> None:
    """The Target Token: cross-hairs (a ring with four ticks) around the Investigator."""
    cx, cy = centre
    colour = (255, 120, 120)
    d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=colour, width=3)
    for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0)):
        d.line((cx + dx * (r - 6), cy + dy * (r - 6), cx + dx * (r + 5), cy + dy * (r + 5)),
               fill=colour, width=4)


def _draw_investigators(d: ImageDraw.ImageDraw, m: _Map, ch: _Changes, lay: _InvLayout,
                        y0: float) -> None:
    cw = lay.cw
    top = y0
    for r, row_h in enumerate(lay.rows):
        for c in range(lay.cols):
            k = r * lay.cols + c
            if k >= len(m.invs):
                break
            x0 = 4 + c * (cw + 10)
            _draw_chip(d, m.invs[k], lay.chips[k], ch.invs.get(m.invs[k].id, ""),
                       (x0, top, x0 + cw, top + row_h))
        top += row_h + INV_GAP


def _turn_frame(d: ImageDraw.ImageDraw, box: Box, fill: Colour) -> None:
    """Whose turn: a thick frame in the highlight, open at the middle of its left and right
    sides."""
    rounded_box(d, box, 12, fill=fill, outline=fw.HIGHLIGHT, width=FRAME_W)
    cy = (box[1] + box[3]) / 2
    for x in (box[0], box[2] - FRAME_W):
        d.rectangle((x, cy - 8, x + FRAME_W, cy + 8), fill=BG)


def _draw_chip(d: ImageDraw.ImageDraw, inv: _Inv, chip: _Chip, badge: str, box: Box) -> None:
    """An Investigator's chip. Stop 67: shrunk to a phone's 400 px, tesseract lost or misread
    a name that the ink around it boxed in, though each chip cropped alone read, so: the
    thick frame of whose turn it is opens at the middle of its sides; the other chips' thin
    edge and the dashed change ring are dim enough to fall to the background when the
    picture is reduced to black and white (the bright badge says what changed); a name that
    leaves its badge to a second line stands alone on the first, the heart going down beside
    the badge; and every chip of a two-line row writes its first line at the same height."""
    x0 = box[0]
    fill = (36, 30, 38) if inv.insane else PANEL
    if inv.active:  # whose turn: a thick frame and an arrow before the name
        _turn_frame(d, box, fill)
    else:
        rounded_box(d, box, 12, fill=fill, outline=CHIP_EDGE, width=2)
    cy = (box[1] + box[3]) / 2
    ys = [cy - INV_LINE / 2, cy + INV_LINE / 2] if box[3] - box[1] > INV_ROW + 1 else [cy]
    stacked = chip.badge_below
    hx = x0 + 30
    hy = ys[-1] if stacked else ys[0]
    if inv.target:
        _target(d, (hx, hy), 22)
    if inv.insane:  # a struck-out skull where the heart was
        icon(d, "skull", (hx - 17, hy - 17, hx + 17, hy + 17), INSANE, back=fill)
        d.line((hx - 20, hy - 20, hx + 20, hy + 20), fill=fw.DANGER, width=4)
    elif inv.sanity is None:  # setup: no Investigator card chosen yet
        icon(d, "hourglass", (hx - 15, hy - 17, hx + 15, hy + 17), MUTED, back=fill)
    else:
        _heart(d, (hx, hy + 1), 19, (236, 90, 120))
        held = _marbles(inv)
        if held is not None:  # none before the Marbles are dealt (`_marbles`)
            d.text((hx, hy - 1), str(held), font=font(MIN_TYPE, True), fill=(255, 255, 255),
                   anchor="mm", stroke_width=2, stroke_fill=(90, 20, 40))
    if badge:
        _badge(d, box[2] - 8, ys[-1] if stacked else ys[0], badge)
        _ring(d, box, WORD_RING)
    x = x0 + (STACK_X if stacked else NAME_X)
    if chip.arrow:
        d.polygon([(x, ys[0] - 11), (x + 16, ys[0]), (x, ys[0] + 11)], fill=fw.HIGHLIGHT)
        x += ARROW_W
    for line, y in zip(chip.lines, ys, strict=False):
        d.text((x, y), line, font=chip.fnt, fill=MUTED if inv.insane else TEXT, anchor="lm")
        if inv.insane:
            d.line((x, y, x + text_width(line, chip.fnt), y), fill=MUTED, width=3)


# --------------------------------------------------------------------------- entry point


def phone_map(view: Mapping[str, Any], width: int) -> Image.Image:
    """The board of ``view`` (the public view, with ``turn.before`` for the change marks) for
    a phone column: RGB, exactly ``width`` wide, at most about as tall."""
    m = _read(view)
    ch = _changes(m, _d(_d(view.get("turn")).get("before")))
    rows = _street_rows(m, ch)
    notes = _notes(m, ch, rows)
    invs = _inv_layout(m, ch, width) if m.invs else None
    height = _height(m, rows, len(notes)) + (round(invs.height) if invs is not None else 0)
    # The map's only static layer is its plain background, and a fresh one costs less than a
    # cached copy (0.2 ms against 0.3, measured) without taking room from the full boards'
    # layers; the Gates and the Turn Tracker, which change a few times a game, are pasted
    # while unchanged (memo_region: each region below holds only background when drawn).
    img = Image.new("RGB", (width, height), BG)
    d = ImageDraw.Draw(img)
    y: float = 0
    memo_region(img, (0, y, width - 1, y + GATES_H + GAP / 2),
                ("fourth_wall phone gates", width, tuple(m.gates), tuple(sorted(ch.gates.items()))),
                partial(_draw_gates, img, d, m, ch, width, y), pool="card")
    y += GATES_H + GAP
    _draw_wall(img, d, m, ch, width, y)
    y += WALL_H + GAP
    if m.ranks:
        # The region starts 8 px above the tracker, where the bottom row of the Wall's-turn
        # frame (`_draw_wall`, drawn first) lands: the key names that frame too, or a tracker
        # kept from the Wall's turn would carry its line onto the next card.
        memo_region(img, (0, y - 8, width - 1, y + TRACKER_H + 8),
                    ("fourth_wall phone tracker", width, tuple(m.ranks), m.rank_index, ch.rank,
                     m.wall_turn),
                    partial(_draw_tracker, d, m, ch, width, y), pool="card")
        y += TRACKER_H + GAP
    y = _draw_streets(d, m, ch, rows, notes, width, y) + GAP
    if invs is not None:
        _draw_investigators(d, m, ch, invs, y)
    return img


# --------------------------------------------------------------------------- legend

SYMBOL_WORDS = {"clue": "Clue", "force": "Force", "science": "Science"}


# The change badges in words ("!": a Horror newly Drained, bearing The Scourge or costing
# other Symbols; an Investigator gone Insane), keyed together.
CHANGE_TAGS = ("NEW", "GONE", "SHUT", "!")


def legend_items(view: Mapping[str, Any], width: int | None = None) -> list[tuple[str, str]]:
    """(glyph, its words) for the small glyphs this view's map (`width` wide; any width when
    None) draws: the heart's number, the Target Token, Insanity, a Horror's token, the
    change badges (a count, or "NEW" / "GONE" / "SHUT" / "!"), the Symbols a Horror still needs
    and the tick on one its Attached Marbles negate (stop 63's and 64's demos: none of them
    had a key on a phone; later demos: the tick, the Horror and NEW / GONE had none)."""
    m = _read(view)
    turn = view.get("turn")
    before = turn.get("before") if isinstance(turn, dict) else None
    ch = _changes(m, before if isinstance(before, dict) else {})
    rows = _street_rows(m, ch)
    drawn = [(num, h, badge) for num, h, badge in rows if h is not None]
    # The Symbols each drawn row has room for (all of them when the width is not known).
    syms = [sym for num, h, badge in drawn for sym in (
        _row_fit(h, num, badge, 4, width - 4).syms if width is not None else
        [(s, False) for s in h.need] + [(s, True) for s in h.spent])]
    badges = [*ch.gates.values(), ch.wall, *(b for _, _, b in rows),
              *(b for _, b in _notes(m, ch, rows))]
    out: list[tuple[str, str]] = []
    if any(not inv.insane and inv.sanity is not None and _marbles(inv) is not None
           for inv in m.invs):
        out.append(("heart", "Marbles held"))
    if any(inv.target for inv in m.invs):
        out.append(("target", "the Target"))
    if any(inv.insane for inv in m.invs):
        out.append(("insane", "Insane"))
    if drawn:
        out.append(("horror", "a Horror"))
    # A count on an Investigator (Marbles held) or a Horror (Marbles Attached).
    if any(b.startswith(("+", "-")) for b in [*ch.invs.values(), *badges]):
        out.append(("badge", "Marbles since the last post"))
    tags = [t for t in CHANGE_TAGS if t in [*badges, *ch.invs.values()]]
    if tags:
        out.append(("tags:" + ",".join(tags), "since the last post"))
    needed = {sym for sym, spent in syms if not spent}
    out += [(f"sym:{sym}", word) for sym, word in SYMBOL_WORDS.items() if sym in needed]
    negated = next((sym for sym, spent in syms if spent), None)
    if negated is not None:
        out.append((f"spent:{negated}", "negated"))
    return out


def phone_legend(view: Mapping[str, Any], width: int) -> Image.Image | None:
    """A key to `legend_items`, drawn below the map on the turn card; None when empty."""
    items = legend_items(view, width)
    if not items:
        return None
    fnt = font(MIN_TYPE, True)

    def glyph_w(kind: str) -> float:
        if kind.startswith("tags:"):
            return sum(_badge_width(t) + 6 for t in kind[5:].split(",")) - 6
        return {"badge": _badge_width("+1"), "target": 46, "insane": 44,
                "horror": 44}.get(kind, 40)

    widths = [glyph_w(kind) + 8 + text_width(word, fnt) for kind, word in items]
    rows = pack_rows(widths, width)
    row_h = 50
    img = Image.new("RGB", (width, len(rows) * row_h), BG)
    d = ImageDraw.Draw(img)
    for n, row in enumerate(rows):
        x, cy = 0.0, n * row_h + row_h / 2
        for k in row:
            kind, word = items[k]
            gw = glyph_w(kind)
            cx = x + gw / 2
            if kind == "heart":
                _heart(d, (cx, cy + 1), 19, (236, 90, 120))
                d.text((cx, cy - 1), "3", font=fnt, fill=(255, 255, 255), anchor="mm",
                       stroke_width=2, stroke_fill=(90, 20, 40))
            elif kind == "target":
                _target(d, (cx, cy), 17)
            elif kind == "insane":
                icon(d, "skull", (cx - 17, cy - 17, cx + 17, cy + 17), INSANE, back=BG)
                d.line((cx - 20, cy - 20, cx + 20, cy + 20), fill=fw.DANGER, width=4)
            elif kind == "horror":
                _diamond(d, (cx, cy), 20, mix(fw.HORROR_EDGE, fw.HORROR, 0.3),
                         (236, 200, 210), (255, 236, 240))
            elif kind == "badge":
                _badge(d, x + gw, cy, "+1")
            elif kind.startswith("tags:"):
                tx = x
                for tag in kind[5:].split(","):
                    tx += _badge(d, tx + _badge_width(tag), cy, tag) + 6
            elif kind.startswith("sym:"):
                fw._symbol(d, (cx, cy), SYM_R, kind[4:])
            elif kind.startswith("spent:"):
                fw._spent_symbol(d, (cx, cy), SYM_R, kind[6:])
            d.text((x + gw + 8, cy), word, font=fnt, fill=MUTED, anchor="lm")
            x += widths[k] + 24
    return img
