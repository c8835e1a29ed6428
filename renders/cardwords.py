"""The turn card's words: the numbers it draws and its alt text (#22). No Pillow here: the
bot's own process composes alt text with it, and `renders/turncard.py` draws from it, so the
picture and its description cannot drift apart.

- ``numbers(game, view)``: the 3-6 numbers that decide the game, read from the public view
  (Exorcism: time left, Exorcism points, Darkness and Shrouds left or the Haunt Level,
  Lookouts; Fourth Wall: Open Gates, the Turn Tracker's stage, Doom, Horrors, the lowest
  Sanity; Presence: Hope and Nerve against Time, secrets revealed, visitors standing).
- ``clean(text, quiet)``: a line as the card writes it (no emoji; in The Presence's True
  Horror no symbols and no rule ids either).
- ``card_alt_text(game, view, board)``: what the card says, in the card's order of
  importance and in its units, within Discord's 1,024 characters:

  1. who must act and what to do (the card's big name and the line under it), or the result;
  2. the card's numbers, each with its label, value and note as drawn ("Time left 2 hours
     20 minutes", "Exorcism 5 of 30", "Hope 7 (4 above Time)");
  3. the card's "just happened" lines, the newest kept when not all fit;
  4. the rest of the board in the game's own words (`Game.alt_text`), as far as it fits.

  A part that does not fit is left out whole, sentence by sentence: alt text never stops in
  the middle of a sentence.

Input: the view the card is drawn from, its ``turn`` filled in (see `renders/turncard.py`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.core.game import ALT_TEXT_LIMIT, ends_a_sentence, fit_words, join_words, plural

__all__ = [
    "Number",
    "card_alt_text",
    "card_lines",
    "clean",
    "number_words",
    "numbers",
    "true_horror",
]

HAPPENED_MAX = 4
"""The newest lines of "what just happened" the card may show."""

NUMBERS_MAX = 6

# Emoji are never drawn (DejaVu has none); True Horror also drops the symbol block and rule ids.
_EMOJI = re.compile("[\U0001F000-\U0001FAFF\U0000FE0F\U0000200D\U000020E3]")
_SYMBOLS = re.compile("[\U00002600-\U000027BF\U00002B00-\U00002BFF]")
_RULE_REF = re.compile(r"\s*\((?:[A-Z]{1,3}-)(?:[A-Z0-9]+-?)*\d*[^()]*\)")
_BARE_RULE = re.compile(r"\b(?:P|FW|EX)-[A-Z0-9]+(?:-[A-Z0-9]+)*\b")
_CLOCK = re.compile(r"^(\d+)h (\d+)m$")


@dataclass(frozen=True)
class Number:
    """One decisive number: ``label`` over ``value``, an optional bar (``fill`` of
    ``maximum``), a short ``note`` under it, and its ``tone`` (what the card colours it as:
    "text", "exorcism", "haunt", "darkness", "shroud", "gate", "stage:<stage>", "doom",
    "sanity", "hope", "nerve", "gold")."""

    label: str
    value: str
    tone: str = "text"
    fill: float | None = None
    maximum: float | None = None
    note: str = ""


# --------------------------------------------------------------------------- reading a view


def _i(value: Any, default: int = 0) -> int:
    if isinstance(value, bool | int):
        return int(value)
    if isinstance(value, float):
        return int(value)
    return default


def _s(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _d(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _l(value: Any) -> list[Any]:
    return list(value) if isinstance(value, list | tuple) else []


def true_horror(view: Mapping[str, Any]) -> bool:
    return bool(_d(view.get("presets")).get("true_horror"))


def clean(text: str, quiet: bool) -> str:
    """`text` as the card writes it (see the module's docstring)."""
    text = _EMOJI.sub("", text)
    if quiet:
        text = _SYMBOLS.sub("", text)
        text = _RULE_REF.sub("", text)
        text = _BARE_RULE.sub("", text)
    return re.sub(r"[ \t]+", " ", text).strip()


# --------------------------------------------------------------------------- the numbers


def _time_left(view: Mapping[str, Any]) -> tuple[str, int]:
    """Exorcism's clock: pips on the Time Dice still on the Clock, 10 minutes each."""
    pips = sum(max(0, _i(dd.get("pips"))) for dd in _l(_d(view.get("clock")).get("dice"))
               if isinstance(dd, dict) and not dd.get("discarded"))
    minutes = pips * 10
    return f"{minutes // 60}h {minutes % 60:02d}m", minutes


def _exorcism(view: Mapping[str, Any]) -> list[Number]:
    out: list[Number] = []
    clock, minutes = _time_left(view)
    n_dice = len(_l(_d(view.get("clock")).get("dice"))) or 8
    out.append(Number("Time left", clock, "text", minutes, n_dice * 60))
    exo = _d(view.get("exorcism"))
    target = _i(exo.get("target"), 30)
    points = _i(exo.get("points"))
    # Past the target the card says so ("27/24" read "Exorcism 27 of 24", stop 63's demo).
    out.append(Number("Exorcism", f"{points}/{target}", "exorcism", points, target)
               if points <= target else
               Number("Exorcism", str(points), "exorcism", target, target,
                      note=f"{target} needed"))
    ova = view.get("ova")
    total = _i(view.get("darkness_total"), 30)
    # The Darkness Track's value, what it does each turn (EX-DARK-01, EX-OVA-05): public,
    # and otherwise said only on the line where it rises (stop 65's demo reader).
    value = _i(_d(view.get("darkness_track")).get("value"))
    per_turn = ("" if value <= 0 else
                f"{value} Ghost Action{'s' if value != 1 else ''} a turn"
                if isinstance(view.get("ova"), dict) else
                f"{value} Haunt card{'s' if value != 1 else ''} a turn")
    darkness = Number("Darkness left", f"{_i(view.get('darkness_supply'))}/{total}",
                      "darkness", _i(view.get("darkness_supply")), total, note=per_turn)
    if isinstance(ova, dict):
        win = _i(ova.get("haunt_level_win"), 30)
        # How many Haunt cards the Ghost player holds is public (EX-VIS-11): what it can
        # still play this Haunt phase.
        held = _i(ova.get("hand_count"))
        out.append(Number("Haunt Level", f"{_i(ova.get('haunt_level'))}/{win}", "haunt",
                          _i(ova.get("haunt_level")), win,
                          note=f"Ghost holds {held} card{'s' if held != 1 else ''}"))
        # The supply matters here too: the Haunt Level is raised from it and an empty one
        # places no Darkness (EX-OVA-13; stop 63's demo never said it had run out).
        out.append(darkness)
    else:
        out.append(darkness)
        shrouds = _i(view.get("shrouds_total"), 8)
        out.append(Number("Shrouds left", f"{_i(view.get('shrouds_left'))}/{shrouds}",
                          "shroud", _i(view.get("shrouds_left")), shrouds))
    lookouts = len(_l(_d(view.get("characters")).get("lookouts")))
    out.append(Number("Lookouts", str(lookouts)))
    return out


def _fourth_wall(view: Mapping[str, Any]) -> list[Number]:
    out: list[Number] = []
    gates = _d(view.get("gates"))
    gmax = _i(gates.get("max"), 5)
    out.append(Number("Open Gates", f"{_i(gates.get('open'))}/{gmax}", "gate",
                      _i(gates.get("open")), gmax))
    ranks = [r for r in _l(_d(view.get("tracker")).get("ranks")) if isinstance(r, dict)]
    cur = next((k for k, r in enumerate(ranks) if r.get("current")), None)
    if cur is not None:
        stage = _s(ranks[cur].get("stage"))
        name = {"slumber": "Slumber", "eye_opens": "Eye Opens", "crescendo": "Crescendo",
                "awakens": "Awakens"}.get(stage, stage.replace("_", " ").title())
        after = [k for k in range(cur + 1, len(ranks)) if ranks[k].get("stage") == "awakens"]
        note = ""
        if after and stage != "awakens":
            note = f"Awakens in {after[0] - cur}"
        out.append(Number("Tracker", name, f"stage:{stage}", note=note))
    wall = _d(view.get("wall"))
    cards = _d(wall.get("presence_cards"))
    if cards:
        # Alliance spends the whole pool at each Wall turn, a Presence card a Doom: the pool
        # read 0 nearly always (stop 69); the cards to come is what an Exploit the Rift adds to.
        n = _i(cards.get("n"))
        out.append(Number("Presence cards", str(n), "doom",
                          note="left this Wall turn" if cards.get("this_turn")
                          else "next Wall turn"))
    elif _s(view.get("mode")) != "alliance":
        out.append(Number("Doom", str(_i(wall.get("doom"))), "doom"))
    # (Alliance at game over: no Wall turn is to come, no Presence card will be resolved; the
    # tile is left out, not read "Doom" as it had not since the start, stop 70.)
    out.append(Number("Horrors out", str(len(_l(view.get("horrors"))))))
    # Marbles held, not the card's Sanity (its Hand Limit, which never moves): losing them
    # all drives an Investigator Insane (stop 63's demo read "Lowest Sanity 5" all game).
    # None before they are dealt (stop 68's demos read "Fewest Marbles 0" during setup).
    held = [_i(inv.get("hand_count")) for inv in _l(view.get("investigators"))
            if isinstance(inv, dict) and not inv.get("insane") and inv.get("sanity") is not None]
    if held and view.get("phase") != "setup":
        out.append(Number("Fewest Marbles", str(min(held)), "sanity"))
    return out


def _presence(view: Mapping[str, Any]) -> list[Number]:
    out: list[Number] = []
    track = _d(view.get("track"))
    time = _i(track.get("time"))
    spaces = _i(track.get("spaces"), 12)
    for key, label in (("hope", "Hope"), ("nerve", "Nerve")):
        value = track.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            out.append(Number(label, str(value), key, value, spaces,
                              note=f"{value - time} above Time"))
        else:
            out.append(Number(label, "lost", key, 0, spaces))
    secrets = [s for s in _l(view.get("secrets")) if isinstance(s, dict)]
    shown = sum(1 for s in secrets if s.get("revealed"))
    out.append(Number("Secrets", f"{shown}/{len(secrets) or 4}", "gold", shown,
                      len(secrets) or 4))
    visitors = [v for v in _l(view.get("visitors")) if isinstance(v, dict)]
    if visitors:
        standing = sum(1 for v in visitors if not v.get("succumbed"))
        out.append(Number("Visitors left", f"{standing}/{len(visitors)}"))
    return out


_NUMBERS: dict[str, Callable[[Mapping[str, Any]], list[Number]]] = {
    "exorcism": _exorcism,
    "fourth_wall": _fourth_wall,
    "presence": _presence,
}


def numbers(game: str, view: Mapping[str, Any]) -> list[Number]:
    """The decisive numbers of ``game`` read from its public view (none for other games)."""
    reader = _NUMBERS.get(game)
    return reader(view)[:NUMBERS_MAX] if reader is not None else []


# --------------------------------------------------------------------------- alt text


def _sentence(text: str) -> str:
    """`text` on one line, ending as a sentence."""
    text = " ".join(text.split())
    return text if not text or ends_a_sentence(text) else text.rstrip(" ,;:") + "."


def _value_words(value: str) -> str:
    """A number as the card prints it, said aloud in the same unit: "5/30" is "5 of 30",
    "2h 20m" is "2 hours 20 minutes"."""
    clock = _CLOCK.match(value)
    if clock:
        hours, minutes = int(clock[1]), int(clock[2])
        said = [f"{n} {plural(n, unit)}" for n, unit in ((hours, "hour"), (minutes, "minute")) if n]
        return " ".join(said) or "0 minutes"
    return re.sub(r"^(\d+)/(\d+)$", r"\1 of \2", value)


def number_words(number: Number) -> str:
    """One of the card's numbers as words: its label, its value, its note."""
    text = f"{number.label} {_value_words(number.value)}"
    return f"{text} ({number.note})" if number.note else text


def card_lines(game: str, view: Mapping[str, Any]) -> tuple[str, str, list[str]]:
    """What the card shows, as sentences: the lead (who acts and what to do, or the result),
    its numbers, and its "just happened" lines."""
    quiet = true_horror(view)
    turn = _d(view.get("turn"))
    result = clean(_s(turn.get("result")), quiet)
    if result:
        lead = _sentence(f"Game over: {result}")
    else:
        awaited = [n for n in (clean(x, quiet) for x in _l(turn.get("awaited"))
                               if isinstance(x, str)) if n]
        doing = _sentence(clean(_s(turn.get("doing")), quiet))
        who = f"Now playing: {join_words(awaited)}." if awaited else "Nobody is to act now."
        # What to do names who does it ("alice (the Ghost player): Manipulate the Manor…"),
        # as the card's line under the big name; the name alone is said only without it.
        named = bool(doing) and all(n in doing for n in awaited)
        lead = doing if named else f"{who} {doing}".strip()
    found = numbers(game, view)
    told = ("Numbers: " + "; ".join(number_words(n) for n in found) + ".") if found else ""
    happened = [_sentence(t) for t in (clean(x, quiet) for x in
                                       _l(turn.get("happened"))[-HAPPENED_MAX:]
                                       if isinstance(x, str)) if t]
    return lead, told, happened


def card_alt_text(game: str, view: Mapping[str, Any], board: str | Sequence[str] = "",
                  limit: int = ALT_TEXT_LIMIT) -> str:
    """The turn card's alt text (see the module's docstring); `board` is the rest of the
    board in words (`Game.alt_text`, or its lines), told last as far as room is left."""
    lead, told, happened = card_lines(game, view)
    out = fit_words([lead], limit)
    if told and len(out) + 1 + len(told) <= limit:
        out = f"{out} {told}".strip()
    # Not all lines fit: the oldest go first (the card keeps the newest too).
    for start in range(len(happened)):
        line = "Just happened: " + " ".join(happened[start:])
        if len(out) + 1 + len(line) <= limit:
            out = f"{out} {line}".strip()
            break
    room = limit - len(out) - 1
    rest = [board] if isinstance(board, str) else list(board)
    # The board's own words open with who acts now, which the lead already said.
    rest = [x for x in rest if not x.startswith("Now: ")]
    more = fit_words(rest, room) if room > 0 else ""
    return f"{out} {more}".strip()
