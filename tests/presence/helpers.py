"""Helpers for Presence scenario tests: set up a real game, then edit the state to the scene.

`new_game` answers the setup prompts (spirit character, visitor characters, spirit-clue
placements) with their first option, so a test starts in round 1 with the first visitor
(seat s2, left of the spirit s1) to act. Tests then move pawns, dice and cards by editing the
(pydantic) state directly and drive the engine only through `GAME.apply`.
"""

from __future__ import annotations

from typing import Any

from rules.core.types import Action, Event, Result, act
from rules.presence.engine import Engine, pack_for
from rules.presence.game import GAME
from rules.presence.state import PresenceState, Token

SPIRIT = "s1"
VISITOR = "s2"
"""The first visitor to act in `new_game`."""


def seats(n: int) -> list[str]:
    return [f"s{i}" for i in range(1, n + 1)]


Step = tuple[PresenceState, str, Action, PresenceState]
"""One decision of a recorded game: (state before, seat, action, state after)."""


def ai_history(seat_ids: list[str], seed: int, **options: Any
               ) -> tuple[list[Step], Result | None]:
    """A whole game with the AI (easy) on every seat, recorded as `bench.ai` records it for
    the blunder census (`bench.blunders.census`)."""
    st = GAME.setup(seat_ids, GAME.options_model(**options), seed)
    history: list[Step] = []
    while GAME.result(st) is None and len(history) < 6000:
        seat = sorted(GAME.to_act(st))[0]
        action = GAME.ai_action(st, seat)
        after = GAME.apply(st, seat, action).state
        history.append((st, seat, action, after))
        st = after
    return history, GAME.result(st)


def fresh(n: int = 3, seed: int = 1, **options: Any) -> PresenceState:
    return GAME.setup(seats(n), GAME.options_model(**options), seed)


def finish_setup(st: PresenceState) -> PresenceState:
    """Answer every setup prompt with its first option."""
    for _ in range(50):
        if not st.prompts or st.phase != "setup":
            break
        seat = st.prompts[-1].seats[0]
        st = GAME.apply(st, seat, GAME.legal_actions(st, seat)[0]).state
    return st


def new_game(n: int = 3, seed: int = 1, **options: Any) -> PresenceState:
    st = finish_setup(fresh(n, seed, **options))
    assert st.phase == "visitor" and not st.prompts, st.prompts
    return st


def edit(st: PresenceState) -> PresenceState:
    return st.model_copy(deep=True)


def choose(option: str) -> Action:
    return act("choose", option=option)


def do(st: PresenceState, seat: str, action: Action) -> tuple[PresenceState, list[Event]]:
    out = GAME.apply(st, seat, action)
    return out.state, out.events


def answer(st: PresenceState, option: str, seat: str | None = None) -> PresenceState:
    """Answer the pending prompt (by its seat unless given)."""
    assert st.prompts, "no prompt pending"
    who = seat or st.prompts[-1].seats[0]
    return GAME.apply(st, who, choose(option)).state


def options(st: PresenceState) -> list[str]:
    assert st.prompts, "no prompt pending"
    return [o[0] for o in st.prompts[-1].data["options"]]


def prompt_kind(st: PresenceState) -> str | None:
    return st.prompts[-1].kind if st.prompts else None


def settle(st: PresenceState, prefer: tuple[str, ...] = ("no", "stop", "done", "release"),
           limit: int = 60) -> PresenceState:
    """Answer pending prompts: a declining option when there is one, else the first."""
    for _ in range(limit):
        if not st.prompts:
            return st
        opts = options(st)
        pick = next((o for o in opts if o in prefer), opts[0])
        st = answer(st, pick)
    raise AssertionError("prompts did not settle")


def quiet(st: PresenceState) -> PresenceState:
    """Remove every clue token and die from the board and close all doors but keep locks."""
    st = edit(st)
    st.tokens = {}
    for d in st.dice:
        d.room = None
        d.value = 0
    return st


def put_die(st: PresenceState, room: str, value: int) -> int:
    d = next(d for d in st.dice if d.room is None)
    d.room = room
    d.value = value
    return d.id


def put_token(st: PresenceState, room: str, kind: str, clue_id: str) -> None:
    st.tokens.setdefault(room, []).append(Token(kind=kind, id=clue_id))  # type: ignore[arg-type]


def to_spirit_turn(st: PresenceState) -> PresenceState:
    """Make it the spirit's turn at rest (dice fresh flags cleared)."""
    st = edit(st)
    st.phase = "spirit"
    st.active = SPIRIT
    st.prompts = []
    st.queue = []
    st.spirit_actions = 0
    for d in st.dice:
        d.moved = False
        d.fresh = False
    return st


def active_visitor(st: PresenceState, seat: str, actions: int = 3) -> PresenceState:
    st = edit(st)
    st.phase = "visitor"
    st.active = seat
    st.actions_left = actions
    st.must_rest = st.visitors[seat].knocked_out
    st.prompts = []
    st.queue = []
    return st


def eng(st: PresenceState) -> Engine:
    return Engine(st)


def invoke_card(st: PresenceState, seat: str) -> tuple[str, int]:
    """`seat`'s Invoke card (an action card whose action reveals a secret) and its side."""
    for card in pack_for(st.pack_path).action_deck(st.visitors[seat].character):
        for k, a in enumerate(pack_for(st.pack_path).action_card(card).actions):
            if any(e.op == "reveal_secret" for e in a.effects):
                return card, k
    raise AssertionError("no Invoke card")


def take_clue(st: PresenceState, trauma: str) -> str:
    """A clue card of `trauma`, taken out of the deck."""
    card = next(c for c in st.clue_deck if not pack_for(st.pack_path).is_fear_card(c)
                and pack_for(st.pack_path).clue_card(c).trauma == trauma)
    st.clue_deck.remove(card)
    return card


def trauma_at(st: PresenceState, position: int) -> str:
    return pack_for(st.pack_path).secret(st.secrets[position - 1].card).trauma


def invoke_scene(round_: int, revealed: tuple[int, ...] = (), seed: int = 5) -> PresenceState:
    """Visitor s2's turn in `round_` with its Invoke card as its only card, nothing on the
    board to investigate, the secrets at `revealed` already revealed."""
    st = active_visitor(new_game(4, seed), VISITOR, 3)
    st.round = st.time = round_
    st.hope = st.nerve = None  # far enough from the time marker never to matter here
    st.tokens = {}
    v = st.visitors[VISITOR]
    card, _side = invoke_card(st, VISITOR)
    v.discard += [c for c in v.hand + v.deck if c != card]
    v.hand, v.deck = [card], []
    for p in revealed:
        st.secrets[p - 1].revealed = True
        st.secrets[p - 1].tier = "middle"
    return st
