"""The house as one player could imagine it: everything hidden from them dealt anew (issue #21).

`redeal_unseen(state, seat, rng)` backs `Exorcism._resample` (the contract: `Game.resample`). It
returns a new state `seat` (None: the table) cannot tell from `state`, with every card they
cannot see dealt again at random from the cards they cannot see, after the hidden-information
map (spec §5):

- the faces of the face-down Locked Rooms and the Locked Rooms left in the box (EX-VIS-01/02/03,
  hidden from everyone, the Ghost player too): the Locked Rooms not face up in the house,
  dealt onto the face-down cells (the rest go back to the box). A Manipulate the Manor prompt
  remembers the arrangement it started from; its record follows each card to its new face;
- the Haunt deck's order (EX-VIS-09) and, in One vs All, the Ghost player's hand for everyone
  but the Ghost player (EX-VIS-11): one pool, the hand dealt first. The top cards a Medium peek
  shows (pending, or put back and not drawn yet: `haunt_seen`) stay in place for those who saw
  it (EX-VIS-12); for the Ghost player (who does not see a One vs All peek) they are dealt
  with the rest and a pending peek's prompt follows them;
- the Task deck's order (EX-VIS-13) and the Plan deck's order (EX-VIS-15), and under the
  `hidden_plans` house option the investigators' Plans for the Ghost player and the table
  (EX-VIS-16), as many to each as they hold;
- the state's RNG (the dice, shuffles and random picks to come, EX-VIS-23): reseeded.

Everything seen stays: face-up Rooms, the discards (their cards were shown when they went
there), Tasks and Tools, a seen hand or peek. Each pool is sorted before it is shuffled, so the
result depends only on what the seat may know and on `rng`: two states the seat cannot tell
apart give the same redeal.
"""

from __future__ import annotations

from typing import Any

from rules.core.rng import Rng
from rules.exorcism.engine import Engine
from rules.exorcism.state import ExorcismState


def redeal_unseen(state: ExorcismState, seat: str | None, rng: Rng) -> ExorcismState:
    """A copy of `state` with everything hidden from `seat` dealt anew (module docstring);
    `state` itself is never changed."""
    new = state.model_copy(deep=True)
    eng = Engine(new)
    team = seat is not None and seat in new.seats and seat != new.ghost_seat
    _redeal_locked_rooms(new, eng, rng)
    _redeal_haunt(new, seat, team, rng)
    new.task_deck = _shuffled_sorted(new.task_deck, rng)
    new.plan_deck = _shuffled_sorted(new.plan_deck, rng)
    if eng.plans_hidden and not team:
        _redeal_hidden_plans(new, seat, rng)
    new.rng = Rng.from_seed(rng.next_u64())
    return new


def _shuffled_sorted(cards: list[str], rng: Rng) -> list[str]:
    """The cards in an order that depends only on which cards they are and on `rng`."""
    out = sorted(cards)
    rng.shuffle(out)
    return out


def _redeal_locked_rooms(st: ExorcismState, eng: Engine, rng: Rng) -> None:
    """EX-VIS-01/02/03: which Locked Room lies face down on each face-down cell, and which are
    in the box, is known to nobody."""
    face_down = [c for c in eng.geo.house if st.cells[c].face_down and st.cells[c].card]
    if not face_down:
        return
    old = [st.cells[c].card or "" for c in face_down]
    dealt = _shuffled_sorted([*old, *st.unused_locked], rng)
    faces = dict(zip(face_down, dealt, strict=False))
    renamed = {card: faces[c] for c, card in zip(face_down, old, strict=True)}
    for c in face_down:
        st.cells[c].card = faces[c]
    st.unused_locked = dealt[len(face_down):]
    # A Manipulate the Manor prompt's record of the arrangement it started from names the
    # cards by id: each face-down card keeps its history under its new face.
    for prompt in st.prompts:
        start = prompt.data.get("start") if prompt.kind == "manipulate_manor" else None
        if isinstance(start, dict):
            prompt.data["start"] = {c: renamed.get(card, card) if card else card
                                    for c, card in start.items()}


def _redeal_haunt(st: ExorcismState, seat: str | None, team: bool, rng: Rng) -> None:
    """EX-VIS-09/11/12: the Haunt deck's order, the Ghost player's hand unless `seat` is the
    Ghost player, and the peeked top cards unless `seat` sees the peek."""
    hand_hidden = st.mode == "one_vs_all" and seat != st.ghost_seat
    audience = not st.peek_team or team
    peek_seen = bool(st.peek) and audience
    kept = max(len(st.peek) if peek_seen else 0,
               min(st.haunt_seen, len(st.haunt_deck)) if audience else 0)
    deck = st.haunt_deck
    cut = len(deck) - kept
    pool = deck[:cut] + (st.ghost_hand if hand_hidden else [])
    dealt = _shuffled_sorted(pool, rng)
    if hand_hidden:
        n = len(st.ghost_hand)
        st.ghost_hand, dealt = dealt[:n], dealt[n:]
    old_peek = list(st.peek)
    st.haunt_deck = dealt + deck[cut:]
    if old_peek and not peek_seen:
        # The peek is the top of the deck, top first: the unseen peek follows the new top.
        st.peek = list(reversed(st.haunt_deck[-len(old_peek):]))
        _follow_peek(st, old_peek, st.peek)


def _follow_peek(st: ExorcismState, old: list[str], new: list[str]) -> None:
    """A pending peek's prompts name its cards: each card named is replaced by the card now in
    its place (cards of one id are interchangeable)."""
    for prompt in st.prompts:
        if prompt.kind != "peek_order":
            continue
        free = list(range(len(old)))

        def place(card: str, free: list[int] = free) -> str:
            for k, i in enumerate(free):
                if old[i] == card:
                    del free[k]
                    return new[i]
            return card  # pragma: no cover - a peek prompt names only peeked cards

        d: dict[str, Any] = prompt.data
        d["ordered"] = [place(c) for c in d.get("ordered", [])]
        d["options"] = [place(c) for c in d.get("options", [])]


def _redeal_hidden_plans(st: ExorcismState, seat: str | None, rng: Rng) -> None:
    """EX-VIS-16 under `hidden_plans`: the investigators' Plans are hidden from the Ghost player
    and the table; each investigator keeps how many they hold (public: `plan_count`). Who an
    open Plan window or Triage waits for is fixed in its prompt, so it stays as it is."""
    holders = [s for s in st.seats if s != st.ghost_seat]
    pool = [*st.plan_deck, *(p for s in holders for p in st.players[s].plans)]
    dealt = _shuffled_sorted(pool, rng)
    for s in holders:
        n = len(st.players[s].plans)
        st.players[s].plans, dealt = dealt[:n], dealt[n:]
    st.plan_deck = dealt
