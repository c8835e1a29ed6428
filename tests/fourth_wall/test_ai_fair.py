"""The Fourth Wall AI never peeks (issue #21): `GAME.ai_action` decides on a state resampled
from the deciding seat's view, so two states that seat cannot tell apart get the same choice.

Each scenario is a decision the AI's look-ahead used to get wrong by reading the real state (the
AI before #21 chose differently in the two states): one of the choices leads to a state the AI
scores differently in the two, because it draws or reveals what the seat cannot see. The fair
AI chooses the same in both."""

from __future__ import annotations

import json

from rules.core.types import Action, act
from rules.fourth_wall.ai import _rollout, _value
from rules.fourth_wall.engine import Engine
from rules.fourth_wall.game import GAME
from rules.fourth_wall.state import FourthWallState
from tests.fourth_wall.helpers import (
    clear_streets,
    inv_turn,
    new_game,
    put_horror,
    set_card,
    set_hand,
    set_wall,
    stack_marbles,
)


def _same_view(a: FourthWallState, b: FourthWallState, seat: str) -> bool:
    return (json.dumps(GAME.view(a, seat), sort_keys=True)
            == json.dumps(GAME.view(b, seat), sort_keys=True))


def _looks_ahead_differently(a: FourthWallState, b: FourthWallState, seat: str,
                             action: Action) -> bool:
    """Whether the AI's look-ahead of `action` (the action, then the seat's own follow-up
    prompts) scores the two real states differently: run on the real state, it would read what
    the seat cannot see."""
    def score(st: FourthWallState) -> float:
        return _value(_rollout(GAME, GAME.apply(st, seat, action).state, seat), seat)

    return score(a) != score(b)


def _blitz(top: list[str]) -> FourthWallState:
    """Alliance: i1 may Exploit the Rift (Blitz (3) [Force]) against a Ghoul; the Marble deck's
    top three cards are `top`."""
    st = inv_turn(new_game("alliance", 1, 1), "i1")
    clear_streets(st)
    set_card(st, "i1", "INV-02")
    put_horror(st, "H-GHOUL")
    set_hand(st, "i1", "M-C", "M-S")
    for i in st.investigators[1:]:
        set_hand(st, i.id, "M-C")
    stack_marbles(st, *top)
    return st


def test_FW_VIS_04_the_ai_does_not_read_the_top_of_the_marble_deck() -> None:
    hits, misses = _blitz(["M-F", "M-F", "M-F"]), _blitz(["M-C", "M-C", "M-C"])
    assert _same_view(hits, misses, "s1")
    # a look-ahead on the real state sees whether the Blitz succeeds
    assert _looks_ahead_differently(hits, misses, "s1", act("exploit", inv="i1"))
    assert GAME.ai_action(hits, "s1") == GAME.ai_action(misses, "s1")


def _eye_opens(wall: str) -> tuple[FourthWallState, str]:
    """Conflict: the last Investigator's last Action Point of the last round of Slumber; the
    round's end reaches An Eye Opens and reveals `wall` (its Aura then counts)."""
    st = new_game("conflict", 3, 1)
    st.rank_index = max(k for k, (_, s) in enumerate(Engine(st).layout_ranks())
                        if s == "slumber")
    last = st.investigators[-1]
    st = inv_turn(st, last.id, ap=1)
    clear_streets(st)
    put_horror(st, "H-GHOUL")
    put_horror(st, "H-CULTIST")
    set_wall(st, wall)
    set_hand(st, last.id, "M-F", "M-S", "M-S")
    for i in st.investigators[:-1]:
        set_hand(st, i.id, "M-C", "M-F")
    return st, last.seat


def test_FW_VIS_12_the_ai_does_not_read_the_wall_card_before_an_eye_opens() -> None:
    (collector, seat), (awakener, _) = _eye_opens("W-1"), _eye_opens("W-2")
    assert not collector.revealed and _same_view(collector, awakener, seat)
    # the last Action Point ends the round: a look-ahead reaches An Eye Opens and the Aura
    intervene = next(a for a in GAME.legal_actions(collector, seat) if a.kind == "intervene")
    assert _looks_ahead_differently(collector, awakener, seat, intervene)
    assert GAME.ai_action(collector, seat) == GAME.ai_action(awakener, seat)
    # The Wall player, who knows its card, may well choose by it: its view differs.
    assert collector.wall_seat is not None
    assert not _same_view(collector, awakener, collector.wall_seat)
