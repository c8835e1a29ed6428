"""Ratings of finished games (issue #24): who moves up and down when a game ends. Pure: the
storage hands in the current ratings and writes back what `rate_game` returns.

openskill's Plackett-Luce model rates teams, so every kind of table fits one rule: the seats
of a game are grouped into teams by side and outcome (a side whose players all won is one team;
a side whose players fared differently, as Presence's visitors can, is split), ranked won, then
drew, then lost. A co-op game (every seat on one side, sharing one outcome) is rated against
the game itself: a virtual opponent per game and mode, the *difficulty*, with its own rating
that rises when tables lose. AI seats are not people: each AI side is a virtual opponent per
AI level. Ratings are kept per game title (a player's Exorcism rating says nothing of their
Fourth Wall).

A rating is a belief: `mu` the skill, `sigma` how unsure it is; new players start at 25 ± 8.3
and a surprise (the lower-rated side winning) moves both more than an expected result.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict

if TYPE_CHECKING:
    from openskill.models import PlackettLuce

Outcome = Literal["won", "lost", "drew"]
RANK: dict[Outcome, int] = {"won": 1, "drew": 2, "lost": 3}
"""A team's place by its outcome (openskill: lower is better; equal places are a draw)."""

START_MU = 25.0
START_SIGMA = 25.0 / 3
"""openskill's own starting belief (a test checks the model agrees)."""


@functools.cache
def model() -> PlackettLuce:
    """The rating model, imported when the first game is rated (1.7 MiB a bot that never
    rates a game need not hold, issue #15)."""
    from openskill.models import PlackettLuce

    return PlackettLuce(mu=START_MU, sigma=START_SIGMA)


class Who(BaseModel):
    """Whose rating: a person (`user_id`, `opponent` empty) or a virtual opponent (user 0 and
    its name: ``difficulty:<mode>``, ``ai:<level>``). Always within one game title."""

    model_config = ConfigDict(frozen=True)

    user_id: int = 0
    opponent: str = ""

    @property
    def is_person(self) -> bool:
        return not self.opponent


class Rating(BaseModel):
    model_config = ConfigDict(frozen=True)

    mu: float = START_MU
    sigma: float = START_SIGMA
    games: int = 0

    @property
    def shown(self) -> float:
        """The figure players read: the skill, less twice its doubt (a new player starts near
        8 and climbs as the bot grows sure of them)."""
        return self.mu - 2 * self.sigma

    def text(self) -> str:
        return f"{self.shown:.1f}"


class RatedSeat(BaseModel):
    """One seat of a finished game as the ratings see it."""

    model_config = ConfigDict(frozen=True)

    user_id: int | None
    """None for an AI seat."""
    side: str
    outcome: Outcome


def difficulty(mode: str) -> Who:
    """The virtual opponent a co-op table of this mode plays against."""
    return Who(opponent=f"difficulty:{mode}")


def ai_player(level: str) -> Who:
    """The virtual opponent standing for the built-in AI at this level."""
    return Who(opponent=f"ai:{level}")


def teams_of(seats: Sequence[RatedSeat], mode: str, ai_level: str
             ) -> list[tuple[list[Who], Outcome]]:
    """The teams `rate_game` rates, each with its outcome: seats grouped by (side, outcome),
    AI seats standing as their level's virtual opponent, and the difficulty as a team of its
    own when every seat is on one side. Empty when no person sat (nothing to rate)."""
    if not any(s.user_id is not None for s in seats):
        return []
    groups: dict[tuple[str, Outcome], list[Who]] = {}
    for s in seats:
        who = Who(user_id=s.user_id) if s.user_id is not None else ai_player(ai_level)
        members = groups.setdefault((s.side, s.outcome), [])
        if who not in members:  # several AI seats of one team are one virtual opponent
            members.append(who)
    teams = [(members, outcome) for (_, outcome), members in groups.items()]
    if len(teams) == 1:
        # Co-op (one side, one outcome): the table against the game. When it won, the game
        # lost, and the other way. (One side with mixed outcomes is every player for
        # themselves: the winners outrank the rest, as the groups above already say.)
        outcome = teams[0][1]
        house: Outcome = "lost" if outcome == "won" else "won" if outcome == "lost" else "drew"
        teams.append(([difficulty(mode)], house))
    return teams


def rate_game(seats: Sequence[RatedSeat], mode: str, ai_level: str,
              current: Mapping[Who, Rating]) -> dict[Who, Rating]:
    """Everyone's rating after this game (people and virtual opponents alike), from
    `current` (missing: a newcomer's). Empty when the game rates nobody."""
    teams = teams_of(seats, mode, ai_level)
    if not teams:
        return {}
    before = [[current.get(who, Rating()) for who in members] for members, _ in teams]
    rating_model = model()
    model_teams = [[rating_model.rating(mu=r.mu, sigma=r.sigma) for r in team]
                   for team in before]
    after = rating_model.rate(model_teams, ranks=[RANK[outcome] for _, outcome in teams])
    out: dict[Who, Rating] = {}
    for (members, _), olds, news in zip(teams, before, after, strict=True):
        for who, old, new in zip(members, olds, news, strict=True):
            out[who] = Rating(mu=float(new.mu), sigma=float(new.sigma), games=old.games + 1)
    return out
