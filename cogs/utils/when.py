"""Times shown to players as Discord timestamps: `<t:UNIX:STYLE>` is drawn by each reader's
own client in their own time zone and language, so a deadline reads right in Paris and in
Tokyo alike, and `R` ("in 3 hours", "2 days ago") keeps counting after the post is sent.

Every deadline or reminder time the bot shows goes through here.
"""

from __future__ import annotations

from typing import Literal

from bot.reminders import HOUR
from bot.storage import GameRecord

Style = Literal["t", "T", "d", "D", "f", "F", "R"]


def stamp(at: float, style: Style = "f") -> str:
    """`<t:UNIX:style>`: f = date and time, t = time, R = relative ("in 2 hours")."""
    return f"<t:{int(at)}:{style}>"


def when(at: float) -> str:
    """A moment both ways: the date and time, then how far it is (`<t:…:f> (<t:…:R>)`)."""
    return f"{stamp(at, 'f')} ({stamp(at, 'R')})"


def waiting_since(record: GameRecord) -> float | None:
    """When the table began waiting for its current move (None: it is not waiting)."""
    if record.status != "active":
        return None
    return record.awaited_since


def deadline_of(record: GameRecord) -> float | None:
    """When an enforced table acts for the awaited players (None: advisory, or not waiting)."""
    since = waiting_since(record)
    if since is None or record.settings.policy != "enforced":
        return None
    return since + record.settings.enforce_after_hours * HOUR


def deadline_text(record: GameRecord) -> str:
    """' Deadline: … — then …' for an enforced table that waits, else ''."""
    at = deadline_of(record)
    if at is None:
        return ""
    then = ("the rule's default move is played" if record.settings.enforce_with == "default"
            else "the built-in AI plays the seat until its player is back")
    return f" Deadline: {when(at)} — then {then}."
