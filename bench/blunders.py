"""The blunder census of `python -m bench ai`: moves a watching player would call mistakes.

`census(game, history, result)` counts, over one whole game's history of
``(state before, seat, action, state after)``:

- ``back_and_forth``: a seat's pawn comes back, within one turn, to the place it left two of
  its moves ago, having done nothing but walk in between (Presence visitors; Exorcism
  investigators, each pawn of a Solo player on its own, a Move or a moving Plan a walk);
- ``idle_end_before_loss`` (Exorcism): a turn ended (``pass``) with Actions left and a useful
  one still legal (`_useful`: not the Foyer's switch, a Move only with an Action after it),
  and the investigators lost before that seat's next turn began;
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


def _exorcism_back_and_forth(history: Sequence[Step]) -> int:
    """Per investigator (a Solo player walks two pawns): within one turn of its seat, a pawn
    that walks back to where it stood two walks ago, with nothing but walking in between. A
    walk is a Move, or a Plan that moved the pawn (Extra Move); any other action of the seat
    (a Purify, a prompt's answer ...) breaks the walk, as does the turn's end."""
    count = 0
    trail: dict[str, list[str | None]] = {}
    turn_of: dict[str, tuple[int, str | None]] = {}
    for before, seat, action, after in history:
        mine = [i for i in before.investigators.values() if i.seat == seat]
        if not mine:
            continue
        turn = (before.game_turn, before.active)
        walked = action.kind in ("move", "plan")
        for inv in mine:
            here = inv.cell
            there = after.investigators[inv.id].cell if inv.id in after.investigators else None
            if turn_of.get(inv.id) != turn or not walked or before.active != seat:
                turn_of[inv.id] = turn
                trail[inv.id] = [here]
            if not walked or here == there or there is None:
                trail[inv.id] = [there]
                continue
            walk = trail[inv.id]
            walk.append(there)
            if len(walk) >= 3 and walk[-1] == walk[-3]:
                count += 1
    return count


def _useful(before: Any, action: Action) -> bool:
    """An Action that could have changed the game this turn: not ending it, not a Plan (free,
    and counted elsewhere), not the Foyer's switch (it changes no Darkness, no Tool, no
    point), and a Move only with an Action left after it to do something where it leads."""
    if action.kind in ("pass", "plan"):
        return False
    if action.kind == "room_action":
        who = action.params.get("who")
        pawns = [i for i in before.investigators.values()
                 if i.seat == before.active and (who is None or i.role == who)]
        return not all(i.cell == "foyer" for i in pawns)
    if action.kind == "move":
        return bool(before.actions_left >= 2)
    return True


def _idle_end_before_loss(history: Sequence[Step], result: Result | None) -> int:
    """Exorcism: ``pass`` with Actions left and another main action legal, by a seat on the
    losing side, and no turn of that seat's began before the game ended."""
    if result is None or not history:
        return 0
    from rules.exorcism.engine import Engine

    count = 0
    for k, (before, seat, action, _after) in enumerate(history):
        if action.kind != "pass" or seat not in result.losers:
            continue
        if before.actions_left <= 0 or before.active != seat or before.phase != "actions":
            continue
        if not any(_useful(before, a) for a in Engine(before).legal(seat)):
            continue  # nothing that could change the game was left to do
        if not any(b.active == seat and b.game_turn != before.game_turn
                   for b, _s, _a, _x in history[k + 1:]):
            count += 1  # the game was lost before this seat's next turn
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


def _give_into_full_hand(history: Sequence[Step]) -> int:
    from rules.fourth_wall.engine import Engine

    count = 0
    for before, _seat, action, _after in history:
        if action.kind not in ("give", "give_marble"):
            continue
        to = action.params.get("to") or action.params.get("seat")
        eng = Engine(before)
        for inv in before.investigators:
            if inv.seat == to and len(inv.hand) >= eng.hand_limit(inv):
                count += 1
    return count


def census(game: str, history: Sequence[Step], result: Result | None) -> Counter[str]:
    found: Counter[str] = Counter()
    if game == "exorcism":
        found["back_and_forth"] = _exorcism_back_and_forth(history)
        found["idle_end_before_loss"] = _idle_end_before_loss(history, result)
    else:
        found["back_and_forth"] = _back_and_forth(game, history)
    if game == "presence":
        found["repeated_invoke"] = _repeated_invoke(history)
    if game == "fourth_wall":
        found["give_into_full_hand"] = _give_into_full_hand(history)
    return +found  # drop the zeros
