"""I Am the Fourth Wall: a state a seat cannot tell from the real one (`Game.resample`, #21).

Everything hidden from the seat (spec §5, FW-VIS-…) is dealt anew at random from what it may
know; everything it sees stays where it is.

Hidden zones, by who looks (``team``: an Investigator seat in Conflict, every seat in
Alliance, and the public in Alliance, where the whole table shares the hands and the engine asks
only the seats holding a quick-use Marble, FW-VIS-32):

- always: the Marble deck order (FW-VIS-04), the Horror deck order (FW-VIS-16), the
  Investigator deck (FW-VIS-01), the Presence deck order (FW-VIS-25), which Wall cards are
  Gates or set aside (FW-VIS-11/14), and the state's RNG (FW-VIS-30: the dice to come, the
  Alliance Presence AI's random choices);
- the Wall card before An Eye Opens (FW-VIS-12) for everyone but the Conflict Wall player;
- the Wall's hand of Horrors (FW-VIS-15) for everyone but the Wall player;
- outside the team (the Conflict Wall player and the Conflict public): every Investigator's
  hand (FW-VIS-06, counts kept), the Investigator cards dealt at setup (FW-VIS-02) and a peek
  in progress (FW-VIS-28).

Canonical: each pool of hidden cards (Marbles, Horrors, Wall cards, Investigator cards,
Presence cards) is collected, SORTED, shuffled with `rng` and dealt into its hidden slots in a
fixed slot order, so the result depends only on which slots are hidden and on `rng`, never on
how the hidden cards happen to lie: resampling a resample gives the resample of the original.

Pinned cards: a card that pending resolution names (a prompt's answers, a queued step's or a
card-in-resolution's arguments) stays in its slot, so the game resumes consistently; those
answers are the awaited seat's legal actions (which it sees) or were picked from what their
seat saw. This keeps a card the deciding seat cannot see only while another seat's pending
choice names it (a stacked prompt of the other side): rare, a known approximation.

What a seat remembers but its view no longer shows (the order it put peeked cards back in, a
hand The Wall looked at earlier, FW-VIS-08/28) is not kept: the resample follows the view.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from pydantic import BaseModel

from rules.core.rng import Rng
from rules.fourth_wall.state import FourthWallState, fast_copy

Slot = tuple[list[str], int]
"""A hidden place: a list in the (copied) state and an index into it."""


def strings(value: Any) -> Iterator[str]:
    """Every string inside plain state data (models, lists, dicts), and the parts of a
    ``kind:id`` string (a Frame's ``src``)."""
    if isinstance(value, str):
        yield value
        if ":" in value:
            yield from value.split(":")
    elif isinstance(value, BaseModel):
        for item in value.__dict__.values():
            yield from strings(item)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from strings(key)
            yield from strings(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from strings(item)


def pinned_ids(state: FourthWallState) -> set[str]:
    """Cards named by pending resolution: prompts (their answers and continuations), queued
    steps and the cards being resolved."""
    return set(strings([state.prompts, state.queue, state.frames]))


def is_team(state: FourthWallState, seat: str | None) -> bool:
    """Whether `seat` sees the Investigators' hands, the dealt Investigator cards and peeks."""
    if state.mode == "alliance":
        return True
    return seat in state.seats and seat != state.wall_seat


def _all(zone: list[str]) -> list[Slot]:
    return [(zone, k) for k in range(len(zone))]


def _deal(slots: list[Slot], pinned: set[str], rng: Rng) -> None:
    """Deal the cards of `slots` anew: the pinned ones stay, the rest are sorted, shuffled
    with `rng` and laid into the free slots in slot order."""
    free = [(zone, k) for zone, k in slots if zone[k] not in pinned]
    pool = sorted(zone[k] for zone, k in free)
    rng.shuffle(pool)
    for (zone, k), card in zip(free, pool, strict=True):
        zone[k] = card


def hidden_slots(state: FourthWallState, seat: str | None) -> list[list[Slot]]:
    """The places whose card `seat` (None: the public) cannot see, one list per pool
    (Marbles, Horrors, Wall cards, Investigator cards, Presence cards), in a fixed order.
    The Wall card before An Eye Opens is the one slot of a one-item list standing for
    ``state.wall_card`` (see `resample_state`)."""
    team = is_team(state, seat)
    wall_player = state.mode == "conflict" and seat is not None and seat == state.wall_seat
    marbles = _all(state.marble_deck)
    horrors = _all(state.horror_deck)
    walls = _all(state.gates) + _all(state.gate_supply)
    investigators = _all(state.investigator_deck)
    if not team:
        for inv in state.investigators:
            marbles += _all(inv.hand)
            investigators += _all(inv.dealt)
        if state.peek_deck == "marble":
            marbles += _all(state.peek)
        elif state.peek_deck == "horror":
            horrors += _all(state.peek)
    if not wall_player:
        horrors += _all(state.wall_hand)
    if state.wall_card and not state.revealed and not wall_player:
        walls.append(([state.wall_card], 0))
    return [marbles, horrors, walls, investigators, _all(state.presence_deck)]


def hidden_cards(state: FourthWallState, seat: str | None) -> set[str]:
    """The cards `seat` cannot see where they lie (see `hidden_slots`)."""
    return {zone[k] for slots in hidden_slots(state, seat) for zone, k in slots}


def resample_state(state: FourthWallState, seat: str | None, rng: Rng) -> FourthWallState:
    """A new state `seat` (None: the public) cannot tell from `state`, hidden cards dealt
    anew from `rng` (see the module docstring). `state` is not changed."""
    out: FourthWallState = fast_copy(state)
    pinned = pinned_ids(out)
    pools = hidden_slots(out, seat)
    holder = next((zone for zone, _ in pools[2] if zone is not out.gates
                   and zone is not out.gate_supply), None)
    out.rng = Rng.from_seed(rng.next_u64())
    for slots in pools:
        _deal(slots, pinned, rng)
    if holder is not None:
        out.wall_card = holder[0]
    return out


__all__ = ["hidden_cards", "hidden_slots", "is_team", "pinned_ids", "resample_state", "strings"]
