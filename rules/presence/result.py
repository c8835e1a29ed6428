"""Who won and who lost a finished game, as the table and the records read it."""

from __future__ import annotations

from rules.core.types import Result
from rules.presence.state import PresenceState


def result_of(state: PresenceState) -> Result | None:
    if state.outcome is None:
        return None
    # Results are seats: a game stored before A-63 may name a two-player character slot
    winners: list[str] = []
    for w in state.winners:
        seat = state.controller.get(w, w)
        if seat not in winners:
            winners.append(seat)
    losers = [s for s in state.seats if s not in winners]
    return Result(winners=winners, losers=losers, reason=state.reason)
