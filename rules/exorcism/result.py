"""Who won and who lost a finished game, as the table and the records read it."""

from __future__ import annotations

from rules.core.types import Result
from rules.exorcism.state import ExorcismState


def result_of(state: ExorcismState) -> Result | None:
    if state.outcome is None:
        return None
    ghost = state.ghost_seat
    investigators = [s for s in state.seats if s != ghost]
    if state.outcome == "won":
        winners, losers = investigators, [ghost] if ghost else []
    else:
        winners, losers = ([ghost] if ghost else []), investigators
    return Result(winners=winners, losers=losers, reason=state.reason)
