"""`Game.public_actions` (issue #14): the choices that go on the public board post as buttons.

For every game and mode, in seeded random playouts:
- every public action is legal, and its label holds none of `public_secrets(state)` nor the
  name of any card in a hidden hand (unless the table saw that name anyway);
- which actions are public does not depend on hidden information: the same state with the
  hidden hands dealt differently (each hand's cards swapped with unseen cards of the same kind,
  counts unchanged) shows the very same public labels.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from typing import Any

import pytest

from rules.core.game import Game
from rules.core.rng import Rng
from rules.exorcism.engine import Engine as ExEngine
from rules.exorcism.labels import hidden_labels
from rules.fourth_wall.engine import Engine as FwEngine
from rules.presence.engine import Engine as PrEngine
from rules.presence.engine import pack_for
from rules.registry import GAMES
from tests.rules.cases import CASES

SEEDS = int(os.environ.get("PUBLIC_ACTION_SEEDS", "4"))


def _swap(rng: Rng, held: list[str], unseen: list[str],
          keep: Callable[[str], bool] = lambda c: True) -> None:
    """Swap each card of `held` that `keep` accepts with a random unseen one it accepts too,
    in place: the same counts, different cards."""
    spots = [i for i, c in enumerate(unseen) if keep(c)]
    for i, card in enumerate(held):
        if not keep(card) or not spots:
            continue
        j = spots[rng.randint(0, len(spots) - 1)]
        held[i], unseen[j] = unseen[j], card


# ---- per game: the names of cards in hidden hands, and a re-deal of those hands --------------


def _presence_hidden(st: Any) -> set[str]:
    pack = pack_for(st.pack_path)
    eng = PrEngine(st)
    names = {pack.spirit_card(c).name for c in st.spirit.hand}
    for v in st.visitors.values():
        names |= {(pack.action_card(c) if eng.is_action_card(c) else pack.clue_card(c)).name
                  for c in v.hand}
    return names


def _presence_redeal(st: Any, rng: Rng) -> None:
    eng = PrEngine(st)
    pack = pack_for(st.pack_path)

    def clue(card: str) -> bool:  # the clue deck holds fear cards too
        try:
            pack.clue_card(card)
        except KeyError:
            return False
        return not eng.is_action_card(card)

    _swap(rng, st.spirit.hand, st.spirit.deck)
    for v in st.visitors.values():
        # action cards with the visitor's own deck, clue cards with the clue deck: a hand's
        # count of each kind is public (the backs differ, H-17)
        deck = v.deck if v.deck else st.visitors[st.controller.get(v.seat, v.seat)].deck
        _swap(rng, v.hand, deck, eng.is_action_card)
        _swap(rng, v.hand, st.clue_deck, clue)


def _fw_hidden(st: Any) -> set[str]:
    eng = FwEngine(st)
    names = {eng.horror_name(h) for h in st.wall_hand}
    if st.mode == "conflict":
        names |= {eng.marble_name(m) for i in st.investigators for m in i.hand}
    return names


def _fw_redeal(st: Any, rng: Rng) -> None:
    _swap(rng, st.wall_hand, st.horror_deck)
    if st.mode == "conflict":
        for inv in st.investigators:
            _swap(rng, inv.hand, st.marble_deck)


def _ex_hidden(st: Any) -> set[str]:
    return set(hidden_labels(ExEngine(st)))


def _ex_redeal(st: Any, rng: Rng) -> None:
    _swap(rng, st.ghost_hand, st.haunt_deck)


HIDDEN: dict[str, tuple[Callable[[Any], set[str]], Callable[[Any, Rng], None]]] = {
    "presence": (_presence_hidden, _presence_redeal),
    "fourth_wall": (_fw_hidden, _fw_redeal),
    "exorcism": (_ex_hidden, _ex_redeal),
}


CATALOGUES: dict[str, set[str]] = {"fourth_wall": {"choose_name"}}
"""Answers that list a whole card catalogue (Find names any Marble, FW-PROMPT-18): a name
among them says nothing about a hand."""


def _labels(game: Game[Any, Any], st: Any, seat: str) -> list[str]:
    return sorted(game.describe(st, seat, a) for a in game.public_actions(st, seat))


@pytest.mark.parametrize(("name", "mode", "n"), CASES,
                         ids=[f"{g}-{m}-{n}p" for g, m, n in CASES])
def test_public_actions_name_nothing_hidden_and_do_not_depend_on_it(
        name: str, mode: str, n: int) -> None:
    game = GAMES[name]
    hidden_names, redeal = HIDDEN[name]
    options = game.options_model(mode=mode)
    shown = redealt = 0
    for seed in range(SEEDS):
        st = game.setup([f"s{i}" for i in range(1, n + 1)], options, seed)
        rng = Rng.from_seed(seed + 7)
        seen: set[str] = set()  # card names the public has read: no longer secret
        for step in range(4000):
            if game.result(st) is not None:
                break
            where = f"{name}/{mode}/{n}p seed {seed} step {step}"
            public_json = json.dumps(game.view(st, None))
            seen |= {c for c in hidden_names(st) if c in public_json}
            secrets = [s for s in game.public_secrets(st) if s]
            names = hidden_names(st) - seen
            awaited = sorted(game.to_act(st))
            for seat in awaited:
                public = game.public_actions(st, seat)
                legal = game.legal_actions(st, seat)
                assert all(a in legal for a in public), where
                for a in public:
                    label = game.describe(st, seat, a)
                    assert not [s for s in secrets if s in label], (where, seat, label)
                    if a.kind not in CATALOGUES.get(name, set()):
                        assert not [c for c in names if c in label], (where, seat, label)
                shown += len(public)
            if not st.prompts and step % 3 == 0:
                # The same moment with the hidden hands dealt otherwise: the same buttons.
                other = st.model_copy(deep=True)
                redeal(other, Rng.from_seed(seed * 1000 + step))
                for seat in awaited:
                    assert _labels(game, st, seat) == _labels(game, other, seat), (where, seat)
                    redealt += 1
            seat = rng.choice(awaited)
            st = game.apply(st, seat, rng.choice(game.legal_actions(st, seat))).state
    assert shown and redealt, "the walk never reached a public choice"


def _walk_until(name: str, mode: str, n: int, found: Callable[[Any], str | None],
                seeds: int = 6) -> tuple[Any, str]:
    """The first state of a seeded random walk where `found(state)` names a seat."""
    game = GAMES[name]
    for seed in range(seeds):
        st = game.setup([f"s{i}" for i in range(1, n + 1)], game.options_model(mode=mode), seed)
        rng = Rng.from_seed(seed + 11)
        for _ in range(3000):
            if game.result(st) is not None:
                break
            seat = found(st)
            if seat is not None:
                return st, seat
            who = rng.choice(sorted(game.to_act(st)))
            st = game.apply(st, who, rng.choice(game.legal_actions(st, who))).state
    raise AssertionError("no such moment reached")


def _kinds(game: Game[Any, Any], st: Any, seat: str) -> tuple[set[str], set[str]]:
    """(kinds on the public board, kinds only under My choices)."""
    public = {a.kind for a in game.public_actions(st, seat)}
    return public, {a.kind for a in game.legal_actions(st, seat)} - public


def test_P_DISCORD_12_spirit_moves_dice_on_the_board_and_plays_cards_privately() -> None:
    game = GAMES["presence"]

    def spirit_turn(st: Any) -> str | None:
        kinds = {a.kind for a in game.legal_actions(st, st.spirit_seat)}
        return st.spirit_seat if {"move_die", "increase"} <= kinds and not st.prompts else None

    st, seat = _walk_until("presence", "session", 3, spirit_turn)
    public, private = _kinds(game, st, seat)
    assert {"move_die", "end_spirit"} <= public
    assert "increase" in private and not public & {"increase", "play_spirit", "whisper"}


def test_P_DISCORD_12_a_visitors_hand_stays_private_its_basic_actions_go_public() -> None:
    game = GAMES["presence"]

    def playing(st: Any) -> str | None:
        for seat in game.to_act(st):
            if seat != st.spirit_seat and not st.prompts and any(
                    a.kind == "play" for a in game.legal_actions(st, seat)):
                return str(seat)
        return None

    st, seat = _walk_until("presence", "session", 4, playing)
    public, private = _kinds(game, st, seat)
    assert "play" in private and "play" not in public
    assert "end_turn" in public and not game.public_choices(st, seat)


def test_FW_VIS_36_close_a_gate_is_never_a_public_button_in_conflict() -> None:
    game = GAMES["fourth_wall"]

    def closing(st: Any) -> str | None:
        for seat in game.to_act(st):
            if any(a.kind == "close_gate" for a in game.legal_actions(st, seat)):
                return str(seat)
        return None

    st, seat = _walk_until("fourth_wall", "conflict", 3, closing, seeds=12)
    public, private = _kinds(game, st, seat)
    assert "close_gate" in private and not public & {"close_gate", "exploit", "unique",
                                                     "intervene", "utilise"}
    assert not game.public_choices(st, seat)


def test_FW_VIS_36_the_walls_turn_choices_are_public_manifest_is_not() -> None:
    game = GAMES["fourth_wall"]

    def manifesting(st: Any) -> str | None:
        wall = st.wall_seat
        if wall in game.to_act(st) and not st.prompts and any(
                a.kind == "manifest" for a in game.legal_actions(st, wall)):
            return str(wall)
        return None

    st, seat = _walk_until("fourth_wall", "conflict", 3, manifesting, seeds=12)
    public, private = _kinds(game, st, seat)
    assert "manifest" in private and "manifest" not in public
    assert "end_turn" in public


def test_EX_VIS_25_the_ghost_players_hand_stays_private_the_rest_is_public() -> None:
    game = GAMES["exorcism"]

    def haunting(st: Any) -> str | None:
        ghost = st.ghost_seat
        if ghost in game.to_act(st) and any(
                a.kind == "ghost_darkness" for a in game.legal_actions(st, ghost)):
            return str(ghost)
        return None

    st, seat = _walk_until("exorcism", "one_vs_all", 3, haunting)
    public, private = _kinds(game, st, seat)
    assert {"ghost_darkness"} <= private and not public & {"ghost_move", "ghost_darkness"}
    assert "end_haunt" in public and not game.public_choices(st, seat)
