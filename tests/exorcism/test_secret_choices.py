"""Choices whose labels name a hidden card never go on a public component (EX-VIS-11/12/16).

`public_choices` is decided from what the labels print, whoever answers; `public_secrets`
lists those labels while the card is hidden, so the contract suite and the whole-game secrets
proof (tests/proof/test_secrets.py) catch the class.
"""

from __future__ import annotations

import pytest

from rules.core.rng import Rng
from rules.core.types import act
from rules.exorcism.game import GAME
from rules.exorcism.labels import hidden_labels
from tests.exorcism.helpers import at_rest, clear_board, legal, new_game, put, set_character


def _ova_medium_peek():
    st = new_game("one_vs_all", n=3, seed=1)
    clear_board(st)
    put(st, "s2", "r1c4")
    put(st, "s3", "r1c3")
    st = at_rest(st, "s2")
    set_character(st, "s2", "medium")
    return GAME.apply(st, "s2", act("ability", source="medium")).state


def test_EX_VIS_12_peeked_cards_never_on_public_buttons() -> None:
    st = _ova_medium_peek()
    assert st.prompts[-1].kind == "peek_order" and st.prompts[-1].seats == ["s2"]
    labels = [GAME.describe(st, "s2", a) for a in legal(st, "s2")]
    assert all(label.startswith("Next on top: ") for label in labels)
    secrets = GAME.public_secrets(st)
    # every peeked card's label is a current secret ...
    assert all(label in secrets for label in labels)
    # ... so the investigator reads the choice under My choices, not on the board post
    assert GAME.public_choices(st, "s2") is False
    # the public view never prints them
    public = str(GAME.view(st, None))
    assert not [s for s in secrets if s in public]
    # once the order is chosen the cards are no longer named by any label
    card = legal(st, "s2")[0]
    st2 = GAME.apply(st, "s2", card).state
    while st2.prompts and st2.prompts[-1].kind == "peek_order":
        st2 = GAME.apply(st2, "s2", legal(st2, "s2")[0]).state
    assert not [s for s in GAME.public_secrets(st2) if s.startswith("Next on top: ")]


def test_EX_VIS_12_core_peek_is_public_and_its_buttons_may_be() -> None:
    st = new_game("core", n=2, seed=1)
    clear_board(st)
    st = at_rest(st, "s1")
    set_character(st, "s1", "medium")
    st = GAME.apply(st, "s1", act("ability", source="medium")).state
    assert st.prompts[-1].kind == "peek_order"
    assert not [s for s in GAME.public_secrets(st) if s.startswith("Next on top: ")]
    assert GAME.public_choices(st, "s1") is True


def test_EX_VIS_11_ghost_hand_labels_are_secrets() -> None:
    st = new_game("one_vs_all", n=3, seed=2)
    secrets = GAME.public_secrets(st)
    for card in st.ghost_hand:
        assert f'"{card}"' in secrets
        assert GAME.describe(st, "s1", act("ghost_move", card=card)) in secrets
        assert GAME.describe(st, "s1", act("ghost_darkness", card=card)) in secrets


def test_EX_VIS_16_hidden_plans_keep_plan_buttons_private() -> None:
    st = new_game("one_vs_all", n=3, seed=2)
    st.players["s2"].plans.append(st.plan_deck.pop())
    pid = st.players["s2"].plans[-1]
    # plans are public by rule: a Plan button may be public
    assert GAME.describe(st, "s2", act("plan", plan=pid)) not in GAME.public_secrets(st)
    from rules.exorcism import engine as E

    pack = E.pack_for(None)
    hidden = pack.model_copy(update={"options": pack.options.model_copy(
        update={"hidden_plans": True})})
    eng = E.Engine(st)
    eng.pack, eng.opts = hidden, hidden.options
    label = GAME.describe(st, "s2", act("plan", plan=pid))
    assert label in hidden_labels(eng)
    assert eng.names_hidden_card(act("plan", plan=pid))


MODES = [("core", 2), ("core", 5), ("one_vs_all", 3), ("one_vs_all", 5), ("solo", 1)]


@pytest.mark.parametrize(("mode", "n"), MODES)
def test_EX_VIS_no_public_choice_ever_names_a_secret(mode: str, n: int) -> None:
    """Random playouts of every mode: whenever a seat's choices may be public, none of their
    labels, nor the question, holds any current secret."""
    peeks = 0
    for seed in range(6):
        st = GAME.setup([f"s{i}" for i in range(1, n + 1)], GAME.options_model(mode=mode), seed)
        rng = Rng.from_seed(seed + 100)
        for _ in range(3000):
            if GAME.result(st) is not None:
                break
            secrets = [s for s in GAME.public_secrets(st) if s]
            if st.prompts and st.prompts[-1].kind == "peek_order" and st.peek_team:
                peeks += 1
            for seat in sorted(GAME.to_act(st)):
                # the board's buttons (issue #14): all choices when public, else a part
                shown = GAME.public_actions(st, seat)
                if GAME.public_choices(st, seat):
                    assert shown == GAME.legal_actions(st, seat)
                if not shown:
                    continue
                texts = [GAME.describe(st, seat, a) for a in shown]
                texts.append(GAME.prompt_text(st, seat) or "")
                leaked = [(s, t) for t in texts for s in secrets if s in t]
                assert not leaked, f"seed {seed}: public choice names a secret: {leaked}"
            seat = rng.choice(sorted(GAME.to_act(st)))
            st = GAME.apply(st, seat, rng.choice(GAME.legal_actions(st, seat))).state
    if mode == "one_vs_all" and n == 5:
        assert peeks, "no One vs All peek was reached: the walk proves nothing about them"
