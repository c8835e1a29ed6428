"""Helpers for Exorcism scenario tests: set up a game, then edit the state to the situation.

Tests build a real game with a fixed seed and then put pawns, Ghosts, cards and tokens where
the scenario needs them, by editing the (pydantic) state directly.
"""

from __future__ import annotations

from typing import Any

from rules.core.types import Action, Event, act
from rules.exorcism.engine import Engine
from rules.exorcism.game import GAME
from rules.exorcism.state import ExorcismState


def seats(n: int) -> list[str]:
    return [f"s{i}" for i in range(1, n + 1)]


def new_game(mode: str = "core", n: int = 2, seed: int = 1, primary: str = "doctor",
             **options: Any) -> ExorcismState:
    """A game at rest in round 1, seat s1 active (Solo: Primary chosen; OvA: manor left)."""
    st = GAME.setup(seats(n), GAME.options_model(mode=mode, **options), seed)
    if mode == "solo":
        st = GAME.apply(st, "s1", act("choose_primary", character=primary)).state
    if mode == "one_vs_all":
        assert st.prompts and st.prompts[-1].kind == "manipulate_manor"
        st = GAME.apply(st, st.ghost_seat or "s1", act("manor_done")).state
    return at_rest(st, "s2" if mode == "one_vs_all" else "s1")


def at_rest(st: ExorcismState, seat: str, actions: int | None = None) -> ExorcismState:
    """Make `seat` the active seat in its Action phase with a fresh number of Actions."""
    st = st.model_copy(deep=True)
    st.active = seat
    st.phase = "actions"
    st.prompts = []
    st.queue = []
    if actions is None:
        opts = Engine(st).opts
        actions = opts.solo_actions_per_turn if st.mode == "solo" else opts.actions_per_turn
    st.actions_left = actions
    st.turn_lost = False
    return st


def clear_board(st: ExorcismState) -> None:
    """No Ghosts, no Darkness, nothing dropped: a quiet house to build a scenario in."""
    for g in st.ghosts:
        st.ghosts[g] = None
    for c in st.cells.values():
        st.darkness_supply += c.darkness
        c.darkness = 0
        if c.shrouded:
            st.shrouds_left += 1
        c.shrouded = False


def cell_of_room(st: ExorcismState, room_id: str) -> str:
    return next(cid for cid, c in st.cells.items() if c.card == room_id)


def place_room(st: ExorcismState, room_id: str, cid: str) -> None:
    """Put Room card `room_id` on cell `cid` (swapping cards, not pawns). A Locked Room that
    is not in the house replaces a face-down one."""
    target = st.cells[cid]
    src = next((c for c in st.cells.values() if c.card == room_id), None)
    if src is None:
        assert room_id in st.unused_locked
        donor = next(c for c in st.cells.values() if c.face_down)
        st.unused_locked.remove(room_id)
        st.unused_locked.append(donor.card or "")
        donor.card = room_id
        src = donor
    if src.id == cid:
        return
    for f in ("card", "face_down", "darkness", "shrouded", "exorcism_tokens", "dropped"):
        a, b = getattr(src, f), getattr(target, f)
        setattr(src, f, b)
        setattr(target, f, a)


def put(st: ExorcismState, inv: str, cid: str) -> None:
    st.investigators[inv].cell = cid


def give(st: ExorcismState, inv: str, tool: str, n: int = 1) -> None:
    """Hand Tools from the pile to an investigator (keeps Tool conservation)."""
    st.tool_piles[tool] -= n
    st.investigators[inv].tools[tool] = st.investigators[inv].tools.get(tool, 0) + n


def set_character(st: ExorcismState, inv: str, char: str) -> None:
    """Give investigator `inv` Character `char`, swapping with wherever `char` was."""
    old = st.investigators[inv].character
    if old == char:
        return
    for other in st.investigators.values():
        if other.character == char:
            other.character = old
            st.investigators[inv].character = char
            return
    for lst in (st.lookouts, st.wounded, st.devoured, st.out_of_play, st.escaped):
        if char in lst:
            lst[lst.index(char)] = old or ""
            st.investigators[inv].character = char
            return
    raise AssertionError(char)


def add_darkness(st: ExorcismState, cid: str, n: int) -> None:
    st.darkness_supply -= n
    st.cells[cid].darkness += n


def top_haunt(st: ExorcismState, *cards: str) -> None:
    """Put these Haunt cards on top of the deck, first = drawn first."""
    for c in cards:
        for pile in (st.haunt_deck, st.haunt_discard, st.haunt_removed, st.ghost_hand):
            if c in pile:
                pile.remove(c)
    st.haunt_deck.extend(reversed(cards))


def do(st: ExorcismState, seat: str, kind: str, /, **params: Any) -> tuple[ExorcismState,
                                                                         list[Event]]:
    out = GAME.apply(st, seat, act(kind, **params))
    assert not GAME.invariants(out.state), GAME.invariants(out.state)
    return out.state, out.events


def run_steps(st: ExorcismState, *steps: tuple[str, dict[str, Any]]) -> ExorcismState:
    """Run engine steps directly (e.g. a Haunt draw) on a copy, then the queue."""
    st = st.model_copy(deep=True)
    eng = Engine(st)
    for op, args in steps:
        getattr(eng, "step_" + op)(**args)
    eng.run()
    return st


def legal(st: ExorcismState, seat: str) -> list[Action]:
    return GAME.legal_actions(st, seat)


def kinds(st: ExorcismState, seat: str) -> set[str]:
    return {a.kind for a in legal(st, seat)}


def texts(events: list[Event]) -> str:
    return " | ".join(e.text for e in events)
