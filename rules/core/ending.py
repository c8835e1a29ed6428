"""The story of a finished game, told from its public record: who won, who lost and why, how
long it lasted, its turning points and each player's part (issue #22).

Every game tells its own ending (`Game.ending`, built in `rules/<game>/ending.py`) with the
pieces here: `Ending` (what the game-over post, the recap picture and the result DMs say),
`Moment` (one public event with the round it happened in) and `pick_turning_points` (the few
moments worth retelling, chosen by each game's weights). Only public events reach this module,
so nothing it says can hold a secret the table did not already read.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.core.types import Event

TURNING_POINTS_MAX = 5


@dataclass(frozen=True)
class Moment:
    """One public event of the game, with the round it happened in (0: before the first)."""

    event: Event
    round: int
    seat: str | None = None
    """Whose move caused it (None: the game's own step, or not known)."""


@dataclass(frozen=True)
class Part:
    """One player's part in the game: who they were and what they did, in a line."""

    seat: str
    name: str
    """The player as posts name them ("Ada (the spirit)")."""
    won: bool
    line: str


@dataclass(frozen=True)
class Ending:
    """How a game ended, in words: `headline` says who won and who lost, `why` the reason."""

    headline: str
    why: str
    winners: list[str]
    """Seats that won."""
    losers: list[str]
    """Seats that lost."""
    length: str
    """How long it lasted ("7 rounds, 212 moves")."""
    turning_points: list[str] = field(default_factory=list)
    parts: list[Part] = field(default_factory=list)

    @property
    def sentence(self) -> str:
        """The result in one sentence pair: who won and lost, then why."""
        return f"{self.headline} {self.why}".strip()

    def as_view(self) -> dict[str, Any]:
        """JSON-ready, for the recap render (which runs in another process)."""
        return {
            "headline": self.headline,
            "why": self.why,
            "length": self.length,
            "turning_points": list(self.turning_points),
            "parts": [{"name": p.name, "won": p.won, "line": p.line} for p in self.parts],
        }

    def alt_text(self, limit: int) -> str:
        """The recap picture in full sentences, at most `limit` characters, never cut inside
        a sentence: the headline and why first, then the length, the parts, the turning
        points, as many whole sentences as fit."""
        sentences = [self.headline, self.why, f"The game lasted {self.length}."]
        sentences += [f"{p.name}: {p.line}" for p in self.parts]
        sentences += [f"Turning point: {t}" for t in self.turning_points]
        out = ""
        for s in sentences:
            s = _sentence(s)
            if not s:
                continue
            nxt = f"{out} {s}" if out else s
            if len(nxt) > limit:
                if not out:  # one sentence longer than the limit: whole words, then a stop
                    words = s[: limit - 1].rsplit(" ", 1)[0].rstrip(",;:")
                    return words + "…" if len(words) < limit else words[:limit]
                continue  # a later, shorter sentence may still fit whole
            out = nxt
        return out


def _sentence(text: str) -> str:
    text = " ".join(text.split())
    if text and text[-1] not in ".!?…":
        text += "."
    return text


RULE_ID = re.compile(r"\s*\((?:[A-Z]{1,3}-[A-Z0-9-]+(?:[,/ ]+)?)+\)|\s*\b[A-Z]{1,3}-[A-Z]+-\d+\b")


def public_moments(moves: Sequence[tuple[str | None, Sequence[Event]]],
                   round_of: Callable[[Event], int | None]) -> list[Moment]:
    """Every public event of `moves` (each: who moved, the events the move caused), in order,
    with the round it happened in (`round_of` reads a round from an event that starts or names
    one; None otherwise). Private events are dropped here, whatever the caller passed."""
    out: list[Moment] = []
    current = 0
    for seat, events in moves:
        for event in events:
            if not event.public:
                continue
            found = round_of(event)
            if found is not None:
                current = found
            out.append(Moment(event, current, seat))
    return out


LIGHT = 2
"""A turning point's weight at or below which it is colour (a candle relit, a clue token
investigated): it never takes a slot a heavier moment held back by its kind's two could have
(those then pass the two, as they do to fill slots left empty)."""


def pick_turning_points(moments: Sequence[Moment], weight: Callable[[Moment], int],
                        skip: Callable[[Moment], bool] | None = None) -> list[Moment]:
    """Up to five moments worth retelling, in the order they happened: the heaviest by `weight`
    (0: never), ties going to the later moment (nearer the end that decided the game), at most
    two of one kind so the story is not one thing five times. `skip`: moments left out (the
    final game-over line: the headline says it)."""
    ranked: list[tuple[int, int, Moment]] = []
    for i, m in enumerate(moments):
        if skip is not None and skip(m):
            continue
        w = weight(m)
        if w > 0:
            ranked.append((w, i, m))
    ranked.sort(key=lambda t: (-t[0], -t[1]))
    chosen: list[tuple[int, Moment]] = []
    per_kind: dict[str, int] = {}
    held: list[tuple[int, Moment]] = []  # heavy moments past their kind's two
    for w, i, m in ranked:
        if len(chosen) == TURNING_POINTS_MAX:
            break
        if w <= LIGHT and held:
            # A third secret revealed tells more than a candle relit (stop 64's recap listed
            # the candle and left out the game's winning reveals): the held ones go first.
            take = held[:TURNING_POINTS_MAX - len(chosen)]
            chosen += take
            held = held[len(take):]
            if len(chosen) == TURNING_POINTS_MAX:
                break
        if per_kind.get(m.event.kind, 0) >= 2:
            if w > LIGHT:
                held.append((i, m))
            continue
        per_kind[m.event.kind] = per_kind.get(m.event.kind, 0) + 1
        chosen.append((i, m))
    # Slots left empty take the held-back ones (stop 64's Alliance recap showed three turning
    # points and left out the player's own Gate closing, its kind's third).
    chosen += held[:max(0, TURNING_POINTS_MAX - len(chosen))]
    return [m for _, m in sorted(chosen, key=lambda t: t[0])]


def moment_text(m: Moment) -> str:
    """A moment as the story tells it: "Round 3: The Orphan is knocked out!" — rule ids out."""
    text = RULE_ID.sub("", " ".join(m.event.text.split())).strip()
    return f"Round {m.round}: {text}" if m.round > 0 else text


def count(n: int, one: str, many: str | None = None) -> str:
    """ "1 round", "7 rounds"."""
    return f"{n} {one if n == 1 else (many or one + 's')}"


def moves_by_seat(moves: Sequence[tuple[str | None, Sequence[Event]]]) -> Mapping[str, int]:
    """How many moves each seat made."""
    out: dict[str, int] = {}
    for seat, _ in moves:
        if seat is not None:
            out[seat] = out.get(seat, 0) + 1
    return out
