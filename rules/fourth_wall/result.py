"""Who won and who lost a finished game, as the table and the records read it."""

from __future__ import annotations

from rules.core.types import Result
from rules.fourth_wall.state import FourthWallState


def result_of(state: FourthWallState) -> Result | None:
    if state.outcome is None:
        return None
    investigators = [s for s in state.seats if s != state.wall_seat]
    wall = [state.wall_seat] if state.wall_seat else []
    if state.outcome == "investigators":
        return Result(winners=investigators, losers=wall, reason=state.reason)
    return Result(winners=wall, losers=investigators, reason=state.reason)
