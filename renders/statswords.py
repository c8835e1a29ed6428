"""The stats picture's input and its words (issue #24, item 5). No Pillow here: the bot's own
process builds a `StatsPicture`, sends it to the render worker as a dict and writes its alt text
and message lines from this module, while `renders/stats.py` draws from the very same `shown`
selection, so the picture, its description and the message cannot disagree.

- `RoleBar`, `RatingPoint`, `RatingLine`, `StatsPicture`: what a stats picture shows — a
  player's (or a server's) record per game and role, and their rating over time per game title.
- `shown(model)`: the bars and rating lines the picture has room for (the first `BARS_MAX`
  bars, grouped by game title in the order given; the first `LINES_MAX` rating lines) and how
  many were left out ("and N more").
- `stats_alt_text(model)`: whole sentences within Discord's 1,024 characters, the same figures.
- `stats_words(model)`: the same figures as plain text lines for the message (no markdown:
  escape names before sending, as `cogs.utils.stats_picture.stats_text` does).

Figures are written one way everywhere: `percent` (won of played, rounded), `rating_text`
(one decimal below 100, whole numbers from there) and `day_text` (a UTC date, "3 Nov 2026").
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import UTC, datetime

from pydantic import BaseModel

from rules.core.game import ALT_TEXT_LIMIT, join_words

__all__ = [
    "BARS_MAX",
    "LINES_MAX",
    "RatingLine",
    "RatingPoint",
    "RoleBar",
    "Shown",
    "StatsPicture",
    "bar_counts",
    "day_text",
    "more_rated",
    "more_text",
    "percent",
    "rating_text",
    "shown",
    "stats_alt_text",
    "stats_words",
]

BARS_MAX = 8
"""Role bars on one picture: more would make it a scroll on a phone (the rest: "and N more")."""
LINES_MAX = 3
"""Rating charts on one picture, one per game title."""
WORDS_LIMIT = 1800
"""The message lines stay under this, leaving room in Discord's 2,000 for what goes with them."""


class RoleBar(BaseModel):
    """One bar: a game's role (or mode) and its record."""

    game_title: str
    role: str
    played: int
    won: int
    lost: int


class RatingPoint(BaseModel):
    at: float
    """When the rating was this (epoch seconds): after a rated game ended."""
    rating: float
    """The displayed rating (openskill ordinal, already scaled)."""


class RatingLine(BaseModel):
    game_title: str
    points: list[RatingPoint]


class StatsPicture(BaseModel):
    subject: str
    """Whose figures: a player's name ("Ada") or "This server"."""
    bars: list[RoleBar]
    ratings: list[RatingLine] = []
    note: str = ""
    """What the figures leave out, e.g. "AI seats and abandoned games not counted"."""


# --------------------------------------------------------------------------- the figures


@dataclass(frozen=True)
class BarCounts:
    """A bar's numbers made consistent: nothing negative, `played` at least won + lost, and
    `other` the games neither won nor lost (drawn)."""

    played: int
    won: int
    lost: int
    other: int


def bar_counts(bar: RoleBar) -> BarCounts:
    won, lost = max(0, bar.won), max(0, bar.lost)
    played = max(bar.played, won + lost, 0)
    return BarCounts(played, won, lost, played - won - lost)


def percent(bar: RoleBar) -> str:
    """Won of played, a whole percentage ("60%"); "no games" when none were played."""
    c = bar_counts(bar)
    if not c.played:
        return "no games"
    return f"{(200 * c.won + c.played) // (2 * c.played)}%"  # rounded half up, no float drift


def rating_text(rating: float) -> str:
    """A rating as every place writes it: one decimal below 100, whole numbers from there."""
    text = f"{rating:.0f}" if abs(rating) >= 100 else f"{rating:.1f}"
    return "0.0" if text in ("-0.0", "-0") else text


def day_text(at: float) -> str:
    """The UTC date of `at` ("3 Nov 2026"): a chart's axis and the words say the same day."""
    moment = datetime.fromtimestamp(at, tz=UTC)
    return f"{moment.day} {moment:%b %Y}"


def ordered(line: RatingLine) -> list[RatingPoint]:
    """The line's points in time order, without any that are not a number (NaN, infinite):
    a chart cannot place those, and the words would print "nan"."""
    return sorted((p for p in line.points if math.isfinite(p.at) and math.isfinite(p.rating)),
                  key=lambda p: p.at)


@dataclass
class Shown:
    """What the picture shows: bars grouped by game title (titles in first-appearance order)
    and the rating lines with at least one point, each list capped; `more_*` were left out."""

    groups: list[tuple[str, list[RoleBar]]] = field(default_factory=list)
    more_bars: int = 0
    lines: list[RatingLine] = field(default_factory=list)
    more_lines: int = 0

    @property
    def bars(self) -> list[RoleBar]:
        return [bar for _, bars in self.groups for bar in bars]


def shown(model: StatsPicture, bars_max: int = BARS_MAX, lines_max: int = LINES_MAX) -> Shown:
    out = Shown()
    kept = model.bars[:bars_max]
    out.more_bars = len(model.bars) - len(kept)
    by_title: dict[str, list[RoleBar]] = {}
    for bar in kept:
        by_title.setdefault(bar.game_title, []).append(bar)
    out.groups = list(by_title.items())
    lines = [line for line in model.ratings if ordered(line)]
    out.lines = lines[:lines_max]
    out.more_lines = len(lines) - len(out.lines)
    return out


def more_text(n: int, one: str, many: str) -> str:
    return f"and {n} more {one if n == 1 else many}"


def more_rated(n: int) -> str:
    """The rating lines left out: "Also rated in 2 more games"."""
    return f"Also rated in {more_text(n, 'game', 'games')[4:]}"


def record_text(bar: RoleBar) -> str:
    """"5 played, 3 won, 2 lost" (and ", 1 drawn" when some games were neither)."""
    c = bar_counts(bar)
    parts = [f"{c.played} played", f"{c.won} won", f"{c.lost} lost"]
    if c.other:
        parts.append(f"{c.other} drawn")
    return ", ".join(parts)


def _rating_sentence(line: RatingLine) -> str:
    points = ordered(line)
    last = points[-1]
    if len(points) == 1:
        return (f"Rating in {line.game_title}: {rating_text(last.rating)} on "
                f"{day_text(last.at)}, after one rated game.")
    first = points[0]
    return (f"Rating in {line.game_title}: {rating_text(last.rating)} on {day_text(last.at)}, "
            f"from {rating_text(first.rating)} on {day_text(first.at)} "
            f"({len(points)} rated games).")


def _bar_sentence(bar: RoleBar) -> str:
    c = bar_counts(bar)
    won = f", {percent(bar)} won" if c.played else ""
    return f"{bar.game_title}, {bar.role}: {record_text(bar)}{won}."


# --------------------------------------------------------------------------- alt text


def stats_alt_text(model: StatsPicture, limit: int = ALT_TEXT_LIMIT) -> str:
    """What the picture says in whole sentences, within `limit` characters: the subject, each
    bar's record and percentage, each rating line's latest and first point, the note. When
    they do not all fit, the last bars (then rating lines) are told as "and N more" instead."""
    view = shown(model)
    bars = view.bars
    lines = view.lines
    drop_bars = drop_lines = 0
    while True:
        text = _alt_text(model, bars[:len(bars) - drop_bars], view.more_bars + drop_bars,
                         lines[:len(lines) - drop_lines], view.more_lines + drop_lines)
        if len(text) <= limit:
            return text
        if drop_bars < len(bars):
            drop_bars += 1
        elif drop_lines < len(lines):
            drop_lines += 1
        else:  # only a very long name or note is left: cut at a word, still a sentence
            return text[:limit - 1].rsplit(" ", 1)[0].rstrip(" ,;:") + "."


def _alt_text(model: StatsPicture, bars: list[RoleBar], more_bars: int,
              lines: list[RatingLine], more_lines: int) -> str:
    parts = [f"Stats for {model.subject}."]
    if not model.bars:
        parts.append("No finished games yet.")
    else:
        parts.append("Games won and lost by role.")
        parts.extend(_bar_sentence(bar) for bar in bars)
        if more_bars:
            parts.append(more_text(more_bars, "role", "roles").capitalize() + ".")
    parts.extend(_rating_sentence(line) for line in lines)
    if more_lines:
        parts.append(more_rated(more_lines) + ".")
    if model.note:
        note = model.note.strip()
        parts.append(note if note.endswith((".", "!", "?")) else note + ".")
    return " ".join(parts)


# --------------------------------------------------------------------------- message words


def stats_words(model: StatsPicture, limit: int = WORDS_LIMIT) -> str:
    """The picture's figures as message lines, plain text (the same bars, percentages and
    ratings, the same "and N more"). Within `limit` characters, bars told last give way first."""
    view = shown(model)
    bars = view.bars
    drop = 0
    while True:
        text = _words(model, view, bars[:len(bars) - drop], view.more_bars + drop)
        if len(text) <= limit or drop >= len(bars):
            return text[:limit]
        drop += 1


def _words(model: StatsPicture, view: Shown, bars: list[RoleBar], more_bars: int) -> str:
    out = [f"Stats for {model.subject}"]
    if not model.bars:
        out.append("No finished games yet.")
    for bar in bars:
        c = bar_counts(bar)
        won = f" ({percent(bar)} won)" if c.played else ""
        out.append(f"{bar.game_title} · {bar.role}: {record_text(bar)}{won}")
    if more_bars:
        out.append(more_text(more_bars, "role", "roles").capitalize())
    for line in view.lines:
        points = ordered(line)
        last = points[-1]
        since = (f", from {rating_text(points[0].rating)} on {day_text(points[0].at)}"
                 if len(points) > 1 else "")
        out.append(f"Rating · {line.game_title}: {rating_text(last.rating)} on "
                   f"{day_text(last.at)}{since}")
    if view.more_lines:
        titles = [line.game_title for line in model.ratings if ordered(line)][len(view.lines):]
        out.append(f"{more_rated(view.more_lines)}: {join_words(titles)}")
    if model.note:
        out.append(model.note.strip())
    return "\n".join(out)
