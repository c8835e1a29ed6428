"""Helpers for I Am the Fourth Wall scenario tests: set up a game, then edit the state.

Tests build a real game with a fixed seed, finish the setup choices, and then move cards
between zones (always conserving every card) to build the situation a rule needs.
"""

from __future__ import annotations

from typing import Any

from rules.core.types import Action, Event, act
from rules.fourth_wall.engine import Engine
from rules.fourth_wall.game import GAME
from rules.fourth_wall.state import FourthWallState, HorrorOnStreets


def seats(n: int) -> list[str]:
    return [f"s{i}" for i in range(1, n + 1)]


def setup(mode: str = "conflict", n: int = 2, seed: int = 1, **options: Any) -> FourthWallState:
    return GAME.setup(seats(n), GAME.options_model(mode=mode, **options), seed)


def new_game(mode: str = "conflict", n: int = 2, seed: int = 1, **options: Any
             ) -> FourthWallState:
    """A game past the Investigator-card choices (each keeps the first card offered)."""
    st = setup(mode, n, seed, **options)
    while st.prompts and st.prompts[-1].kind == "keep_investigator":
        p = st.prompts[-1]
        st = GAME.apply(st, p.seats[0], act("keep", card=p.data["options"][0]["params"]["card"])
                        ).state
    return st


def calm(st: FourthWallState) -> FourthWallState:
    """A copy with nothing pending: no prompt, no queued step, no card resolving."""
    st = st.model_copy(deep=True)
    st.prompts = []
    st.queue = []
    st.frames = []
    st.grants = []
    for m in list(st.in_play):
        st.in_play.remove(m)
        st.marble_discard.append(m)
    return st


def inv_turn(st: FourthWallState, iid: str = "i1", ap: int | None = None) -> FourthWallState:
    """`iid`'s turn at rest with fresh Action Points."""
    st = calm(st)
    st.phase = "investigator"
    st.turn_index = [i.id for i in st.investigators].index(iid)
    eng = Engine(st)
    st.ap = ap if ap is not None else eng.opts.action_points
    st.uniques_used = []
    st.refunds = 0
    st.turn_over = False
    st.doom = 0  # Wrath's leftover Doom is lost at the end of The Wall's turn
    st.wall_mode = None
    st.wall_spending = False
    st.last_wall_brood = False
    return st


def wall_turn(st: FourthWallState, doom: int = 0, mode: str | None = "wrath",
              before: str = "i1") -> FourthWallState:
    """The Wall's turn (Conflict) at rest, before `before`'s turn."""
    st = calm(st)
    st.phase = "wall"
    st.turn_index = [i.id for i in st.investigators].index(before)
    st.wall_mode = mode  # type: ignore[assignment]
    st.wall_spending = mode is not None
    st.wall_unique_used = False
    st.doom = doom
    st.wall_turns = max(st.wall_turns, 2)
    return st


def wall_seat(st: FourthWallState) -> str:
    assert st.wall_seat is not None
    return st.wall_seat


def seat_of(st: FourthWallState, iid: str) -> str:
    return next(i.seat for i in st.investigators if i.id == iid)


def inv(st: FourthWallState, iid: str) -> Any:
    return next(i for i in st.investigators if i.id == iid)


# ------------------------------------------------------------------ moving cards
def take_marble(st: FourthWallState, mid: str) -> None:
    for pile in (st.marble_deck, st.marble_discard, st.in_play, st.anchored):
        if mid in pile:
            pile.remove(mid)
            return
    for i in st.investigators:
        if mid in i.hand:
            i.hand.remove(mid)
            return
    for h in st.streets:
        if mid in h.attached:
            h.attached.remove(mid)
            return
    raise AssertionError(mid)


def free_marble(st: FourthWallState, card: str) -> str:
    """An instance of Marble `card` from the deck or the discard pile."""
    for pile in (st.marble_deck, st.marble_discard):
        for mid in pile:
            if st.marble_cards[mid] == card:
                return mid
    raise AssertionError(f"no free {card}")


def set_hand(st: FourthWallState, iid: str, *cards: str) -> list[str]:
    """Replace `iid`'s hand with Marbles of these card ids (old hand to the deck bottom)."""
    i = inv(st, iid)
    st.marble_deck[0:0] = i.hand
    i.hand = []
    return give(st, iid, *cards)


def give(st: FourthWallState, iid: str, *cards: str) -> list[str]:
    out = []
    for card in cards:
        mid = free_marble(st, card)
        take_marble(st, mid)
        inv(st, iid).hand.append(mid)
        out.append(mid)
    return out


def stack_marbles(st: FourthWallState, *cards: str) -> list[str]:
    """Put these Marbles on top of the deck, the first one drawn first."""
    out = []
    for card in cards:
        mid = free_marble(st, card)
        take_marble(st, mid)
        out.append(mid)
    st.marble_deck.extend(reversed(out))
    return out


def take_horror(st: FourthWallState, hid: str) -> None:
    for pile in (st.horror_deck, st.horror_discard, st.wall_hand, st.horror_limbo):
        if hid in pile:
            pile.remove(hid)
            return
    for h in st.streets:
        if h.id == hid:
            st.streets.remove(h)
            st.marble_discard.extend(h.attached)
            if st.scourge == hid:
                st.scourge = None
            return
    raise AssertionError(hid)


def free_horror(st: FourthWallState, card: str) -> str:
    for pile in (st.horror_deck, st.horror_discard):
        for hid in pile:
            if st.horror_cards[hid] == card:
                return hid
    raise AssertionError(f"no free {card}")


def clear_streets(st: FourthWallState) -> None:
    for h in list(st.streets):
        take_horror(st, h.id)
        st.horror_discard.append(h.id)
    st.marble_discard.extend(st.anchored)
    st.anchored = []
    st.scourge = None


def put_horror(st: FourthWallState, card: str, street: int | None = None,
               drained: bool = False, attached: tuple[str, ...] = ()) -> str:
    hid = free_horror(st, card)
    take_horror(st, hid)
    if st.mode == "alliance" and street is None:
        used = {h.street for h in st.streets}
        street = next(n for n in range(1, 6) if n not in used)
    h = HorrorOnStreets(id=hid, street=street, drained=drained)
    for c in attached:
        mid = free_marble(st, c)
        take_marble(st, mid)
        h.attached.append(mid)
    st.streets.append(h)
    st.streets.sort(key=lambda x: x.street or 0)
    return hid


def wall_hand(st: FourthWallState, *cards: str) -> list[str]:
    """Replace The Wall's hand of Horrors (old hand to the deck bottom)."""
    st.horror_deck[0:0] = st.wall_hand
    st.wall_hand = []
    out = []
    for c in cards:
        hid = free_horror(st, c)
        take_horror(st, hid)
        st.wall_hand.append(hid)
        out.append(hid)
    return out


def stack_horrors(st: FourthWallState, *cards: str) -> list[str]:
    out = []
    for c in cards:
        hid = free_horror(st, c)
        take_horror(st, hid)
        out.append(hid)
    st.horror_deck.extend(reversed(out))
    return out


def set_wall(st: FourthWallState, wall_id: str) -> None:
    """Make `wall_id` The Wall card (swapping with the Gate that was it)."""
    if st.wall_card == wall_id:
        return
    for pile in (st.gates, st.gate_supply):
        if wall_id in pile:
            pile[pile.index(wall_id)] = st.wall_card
            st.wall_card = wall_id
            return
    raise AssertionError(wall_id)


def set_gates(st: FourthWallState, n: int) -> None:
    while len(st.gates) > n:
        st.gate_supply.append(st.gates.pop())
    while len(st.gates) < n:
        st.gates.append(st.gate_supply.pop())


def set_card(st: FourthWallState, iid: str, card: str) -> None:
    """Give investigator `iid` Investigator card `card` (swapping with wherever it is)."""
    i = inv(st, iid)
    if i.card == card:
        return
    for other in st.investigators:
        if other.card == card:
            other.card, i.card = i.card, card
            limit = Engine(st).hand_limit(other)
            while len(other.hand) > limit:  # keep the other one within its new Hand Limit
                st.marble_deck.insert(0, other.hand.pop())
            return
    for pile in (st.investigator_deck, st.removed_investigators):
        if card in pile:
            pile[pile.index(card)] = i.card or ""
            i.card = card
            return
    raise AssertionError(card)


def set_stage(st: FourthWallState, stage: str) -> None:
    """Move the Turn Tracker to the first rank of `stage` (revealing at An Eye Opens)."""
    ranks = Engine(st).layout_ranks()
    st.rank_index = next(k for k, (_, s) in enumerate(ranks) if s == stage)
    st.revealed = stage != "slumber"


# ------------------------------------------------------------------ acting
def do(st: FourthWallState, seat: str, kind: str, /, **params: Any
       ) -> tuple[FourthWallState, list[Event]]:
    out = GAME.apply(st, seat, act(kind, **params))
    bad = GAME.invariants(out.state)
    assert not bad, bad
    return out.state, out.events


def answer(st: FourthWallState, kind: str, /, **params: Any
           ) -> tuple[FourthWallState, list[Event]]:
    """Answer the pending prompt (its only seat)."""
    assert st.prompts, "no prompt pending"
    return do(st, st.prompts[-1].seats[0], kind, **params)


def pass_windows(st: FourthWallState) -> tuple[FourthWallState, list[Event]]:
    """Decline every pending quick-use window: in Conflict one opens for every Investigator who
    could hold a Holy Symbol / an Adrenaline, whether or not they do (FW-VIS-32)."""
    events: list[Event] = []
    while st.prompts and st.prompts[-1].kind in ("holy_window", "blitz_window"):
        st, more = answer(st, "decline")
        events += more
    return st, events


def prompt(st: FourthWallState) -> str | None:
    return st.prompts[-1].kind if st.prompts else None


def options(st: FourthWallState) -> list[Action]:
    assert st.prompts
    return [Action(kind=o["kind"], params=o["params"]) for o in st.prompts[-1].data["options"]]


def legal(st: FourthWallState, seat: str) -> list[Action]:
    return GAME.legal_actions(st, seat)


def kinds(st: FourthWallState, seat: str) -> set[str]:
    return {a.kind for a in legal(st, seat)}


def texts(events: list[Event]) -> str:
    return " | ".join(e.text for e in events)


def cards_of(st: FourthWallState, mids: list[str]) -> list[str]:
    return [st.marble_cards[m] for m in mids]


def hand_cards(st: FourthWallState, iid: str) -> list[str]:
    return sorted(cards_of(st, inv(st, iid).hand))


def end_wall_turn(st: FourthWallState) -> tuple[FourthWallState, list[Event]]:
    """Conflict: the Wall chooses Wrath if asked, then ends its turn."""
    events: list[Event] = []
    assert st.phase == "wall" and st.wall_seat is not None
    if st.wall_mode is None:
        st, ev = do(st, st.wall_seat, "wrath")
        events += ev
    if st.phase == "wall" and not st.prompts:
        st, ev = do(st, st.wall_seat, "end_turn")
        events += ev
    return st, events
