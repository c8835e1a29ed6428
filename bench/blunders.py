"""The blunder census of `python -m bench ai`: moves a watching player would call mistakes.

`census(game, history, result)` counts, over one whole game's history of
``(state before, seat, action, state after)``:

- ``back_and_forth``: a seat's pawn comes back, within one turn, to the place it left two of
  its moves ago, having done nothing but walk in between (Exorcism investigators, Presence
  visitors);
- ``idle_end_before_loss`` (Exorcism): a turn ended with Actions left, and the game was lost
  before that seat's next turn;
- ``repeated_invoke`` (The Presence): an Invoke naming a trauma for a position the table
  already saw fail there;
- ``give_into_full_hand`` (Fourth Wall): a Marble given to an Investigator whose hand was
  already at its Hand Limit.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from rules.core.types import Action, Result

Step = tuple[Any, str, Action, Any]


def _place(game: str, state: Any, seat: str) -> str | None:
    """Where the seat's own pawn stands, for the games where a seat walks one pawn."""
    if game == "presence":
        visitor = state.visitors.get(seat)
        return visitor.room if visitor else None
    if game == "exorcism":
        cells = [i.cell for i in state.investigators.values()
                 if i.seat == seat and i.role != "secondary" and not i.escaped]
        return cells[0] if len(cells) == 1 else None
    return None


def _turn(state: Any) -> str:
    return ".".join(str(getattr(state, f)) for f in ("round", "game_turn", "turn_index", "active")
                    if hasattr(state, f))


def _back_and_forth(game: str, history: Sequence[Step]) -> int:
    count = 0
    # per seat: the places its pawn stood after each of its moves in the current turn
    trail: dict[str, list[str | None]] = {}
    turn_of: dict[str, str] = {}
    for before, seat, _action, after in history:
        if game not in ("presence", "exorcism"):
            return 0
        turn = _turn(before)
        if turn_of.get(seat) != turn:
            turn_of[seat] = turn
            trail[seat] = [_place(game, before, seat)]
        here, there = _place(game, before, seat), _place(game, after, seat)
        if here == there:
            # anything other than a step (or a step that stayed) breaks the walk
            trail[seat] = [there]
            continue
        trail[seat].append(there)
        walk = trail[seat]
        if len(walk) >= 3 and walk[-1] == walk[-3] and walk[-1] is not None:
            count += 1
    return count


def _idle_end_before_loss(history: Sequence[Step], result: Result | None) -> int:
    if result is None or result.winners or not history:
        return 0
    count = 0
    for k, (before, seat, action, _after) in enumerate(history):
        if action.kind != "end_turn" or getattr(before, "actions_left", 0) <= 0:
            continue
        later = [s for _b, s, _a, _x in history[k + 1:]]
        if seat not in later:  # the game was lost before this seat moved again
            count += 1
    return count


def _repeated_invoke(history: Sequence[Step]) -> int:
    failed: set[tuple[Any, ...]] = set()
    count = 0
    for before, _seat, action, after in history:
        if action.kind != "invoke":
            continue
        guess = tuple(sorted((k, str(v)) for k, v in action.params.items()))
        if guess in failed:
            count += 1
        revealed_before = len(getattr(before, "revealed", []) or [])
        revealed_after = len(getattr(after, "revealed", []) or [])
        if revealed_after <= revealed_before:
            failed.add(guess)
    return count


GIVE_KINDS = ("give", "free_give", "give_to")
"""Fourth Wall's ways to hand a Marble over (`rules.fourth_wall.actions`: GIVE, FREE_GIVE,
GIVE_OR_TRADE_GIVE), each naming the receiving Investigator by id in ``to``."""


def _give_into_full_hand(history: Sequence[Step]) -> int:
    """Gives whose receiving Investigator already held its Hand Limit (FW-HAND-01): the Marble
    is over the limit at once and one is discarded, so the team loses a Marble for an Action."""
    from rules.fourth_wall.engine import Engine

    count = 0
    for before, _seat, action, _after in history:
        if action.kind not in GIVE_KINDS:
            continue
        to = action.params.get("to")
        eng = Engine(before)
        for inv in before.investigators:
            if inv.id == to and len(inv.hand) >= eng.hand_limit(inv):
                count += 1
    return count


def census(game: str, history: Sequence[Step], result: Result | None) -> Counter[str]:
    found: Counter[str] = Counter()
    found["back_and_forth"] = _back_and_forth(game, history)
    if game == "exorcism":
        found["idle_end_before_loss"] = _idle_end_before_loss(history, result)
    if game == "presence":
        found["repeated_invoke"] = _repeated_invoke(history)
    if game == "fourth_wall":
        found["give_into_full_hand"] = _give_into_full_hand(history)
    return +found  # drop the zeros
