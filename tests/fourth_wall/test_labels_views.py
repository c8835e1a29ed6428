"""Labels, prompt limits, defaults, hidden information and views over random games (spec §5,
§6), plus the AI and the engine contract extras.

Random games in both modes: every offered action has a label of at most 80 characters, every
prompt offers at most 25 answers of the kinds `PROMPT_ANSWERS` lists, main actions are slash
command families, `default_action` of an awaited seat is legal, and `public_choices` is False
whenever a label would name a card the public may not see.
"""

from __future__ import annotations

import json
import re

import pytest

from rules.core.players import playout
from rules.core.rng import Rng
from rules.fourth_wall.actions import COMMAND_OF_KIND, PROMPT_ANSWERS
from rules.fourth_wall.engine import Engine
from rules.fourth_wall.game import GAME
from rules.fourth_wall.view import __doc__ as VIEW_DOC
from tests.fourth_wall.helpers import (
    answer,
    clear_streets,
    do,
    inv,
    inv_turn,
    new_game,
    prompt,
    put_horror,
    seats,
    set_hand,
    set_stage,
    setup,
    wall_turn,
)

MODES = [("conflict", 2), ("conflict", 3), ("conflict", 5), ("alliance", 1), ("alliance", 2),
         ("alliance", 4)]


@pytest.mark.parametrize(("mode", "n"), MODES)
def test_FW_PROMPT_labels_limits_defaults_and_public_choices(mode: str, n: int) -> None:
    for seed in range(4):
        st = GAME.setup(seats(n), GAME.options_model(mode=mode), seed)
        rng = Rng.from_seed(seed + 100)
        while GAME.result(st) is None:
            awaited = sorted(GAME.to_act(st))
            for seat in st.seats:
                legal = GAME.legal_actions(st, seat)
                hidden = {m for i in st.investigators for m in i.hand} | set(st.wall_hand)
                for a in legal:
                    label = GAME.describe(st, seat, a)
                    assert 0 < len(label) <= 80, (a, label)
                    names_hidden = any(v in hidden for v in a.params.values())
                    if names_hidden and mode == "conflict":
                        assert not GAME.public_choices(st, seat), (a, label)
                        # ... nor is it a button on the public board (issue #14)
                        assert a not in GAME.public_actions(st, seat), (a, label)
                if st.prompts and seat in awaited:
                    kind = st.prompts[-1].kind
                    assert {a.kind for a in legal} <= set(PROMPT_ANSWERS[kind]), kind
                    assert GAME.prompt_text(st, seat)
                elif seat in awaited:
                    assert {a.kind for a in legal} <= set(COMMAND_OF_KIND)
                if seat in awaited:
                    assert GAME.default_action(st, seat) in legal
            seat = rng.choice(awaited)
            st = GAME.apply(st, seat, rng.choice(GAME.legal_actions(st, seat))).state


@pytest.mark.parametrize(("mode", "n"), [("conflict", 2), ("conflict", 4), ("alliance", 1),
                                         ("alliance", 3)])
def test_ai_and_default_players_finish_games(mode: str, n: int) -> None:
    for seed in range(6):
        run = playout(GAME, GAME.options_model(mode=mode), seats(n), seed,
                      ai_seats=frozenset(seats(n)))
        assert run.result is not None and run.steps < 2000
        st = GAME.setup(seats(n), GAME.options_model(mode=mode), seed)
        for _ in range(3000):
            if GAME.result(st) is not None:
                break
            seat = sorted(GAME.to_act(st))[0]
            action = GAME.default_action(st, seat)
            assert action is not None
            st = GAME.apply(st, seat, action).state
        assert GAME.result(st) is not None


def test_view_keys_are_the_documented_ones() -> None:
    for mode, n in (("conflict", 2), ("alliance", 2)):
        st = new_game(mode, n, 3)
        for seat in (None, *st.seats):
            v = GAME.view(st, seat)
            json.dumps(v)
            for key in v:
                assert key in VIEW_DOC, key
            for key in v["turn"]:
                assert key in VIEW_DOC, key
    wall = GAME.view(new_game("conflict", 2, 3), "s1")
    assert wall["viewer"] == "wall" and "hand" in wall and "wall_card" in wall


def test_FW_VIS_06_09_10_hands_draws_and_gives_are_team_only() -> None:
    st = inv_turn(new_game("conflict", 3, 1), "i1")
    clear_streets(st)
    set_hand(st, "i1", "M-HOLY", "M-C")
    st, ev = do(st, "s2", "search", inv="i1")
    for e in ev:
        if e.kind == "draw":
            assert e.audience in ("public", ["s2", "s3"])
            if e.audience == "public":
                assert re.search(r"draws (a|\d+) Marbles?\.", e.text), e.text
    st, ev = do(st, "s2", "give", inv="i1", to="i2")
    if prompt(st) == "give_marble":
        st, ev = answer(st, "choose_marble", marble=inv(st, "i1").hand[0])
    assert any(e.audience == ["s2", "s3"] for e in ev)
    pub = json.dumps(GAME.view(st, None))
    assert not any(s in pub for s in GAME.public_secrets(st))
    assert "Holy Symbol" not in pub


def test_FW_VIS_12_13_the_wall_identity_until_an_eye_opens() -> None:
    st = new_game("conflict", 2, 1)
    name = Engine(st).wall().name
    assert name in GAME.public_secrets(st)
    assert GAME.view(st, None)["wall"]["name"] is None
    set_stage(st, "eye_opens")
    assert name not in GAME.public_secrets(st)
    assert GAME.view(st, None)["wall"]["name"] == name
    assert GAME.seat_label(st, "s1") == f"Wall player ({name})"


def test_FW_VIS_28_peeks_are_for_the_team() -> None:
    st = inv_turn(new_game("conflict", 2, 1), "i1")
    clear_streets(st)
    from tests.fourth_wall.helpers import set_card

    set_card(st, "i1", "INV-10")  # Unique: look at the top three Marbles, take one
    set_hand(st, "i1", "M-C")
    st, ev = do(st, "s2", "unique", inv="i1")
    assert prompt(st) == "peek_take" and len(st.peek) == 3
    assert GAME.view(st, "s2")["peek"] and GAME.view(st, None)["peek"] == []
    assert GAME.view(st, "s1")["peek"] == []
    assert any(e.audience == ["s2"] and "sees" in e.text for e in ev)
    st, _ = answer(st, "choose_card", card=st.peek[0])
    while prompt(st) == "peek_order":
        st, _ = answer(st, "choose_card", card=st.prompts[-1].data["options"][0]["params"]
                       ["card"])
    assert len(inv(st, "i1").hand) == 2 and not st.peek


def test_private_summary_and_public_choices() -> None:
    st = wall_turn(new_game("conflict", 2, 1), doom=3)
    clear_streets(st)
    put_horror(st, "H-CULTIST")
    wall_text = GAME.private_summary(st, "s1") or ""
    assert "You are The Wall" in wall_text and "hand of Horrors" in wall_text
    team = GAME.private_summary(st, "s2") or ""
    assert Engine(st).inv_name(st.investigators[0]) in team
    assert not GAME.public_choices(st, "s1")
    al = new_game("alliance", 1, 1)
    assert GAME.public_choices(al, "s1")
    assert Engine(al).wall().name not in (GAME.private_summary(al, "s1") or "")
    setup_state = setup("conflict", 2, 1)
    assert "choose" in (GAME.private_summary(setup_state, "s2") or "")
    assert GAME.private_summary(setup_state, "nobody") is None


def test_summary_rule_text_and_version() -> None:
    assert "Gate" in GAME.summary()
    assert GAME.rule_text("FW-ACT-01") and GAME.rule_text("fw-wall-02")
    assert GAME.version.startswith("fourth_wall-1+default@")
    assert GAME.name == "fourth_wall" and GAME.rule_prefix == "FW"
    assert GAME.modes == ("conflict", "alliance")


def test_eye_opens_in_a_crescendo_state_keeps_the_view_json_ready() -> None:
    st = new_game("alliance", 2, 4)
    set_stage(st, "crescendo")
    json.dumps(GAME.view(st, None))
    assert GAME.view(st, None)["turn"]["ap_per_turn"] == 3


@pytest.mark.parametrize("mode", ["alliance", "conflict"])
def test_fw_vis_the_dm_line_is_left_out_only_where_every_choice_is_a_button(mode: str) -> None:
    """Stop 63's Alliance demo: "📬 Ada: your private choices are in your DMs." on every turn,
    while Alliance plays every choice but the kept Investigator card on the board post. The
    thread leaves the line out by public facts only (the mode, the prompt's kind): in Alliance
    but while the card is kept; never in Conflict, whose Close a Gate shows a hand."""
    seats = ["s1", "s2", "s3"]
    st = GAME.setup(seats, GAME.options_model(mode=mode), 4)
    kept = 0
    for _ in range(300):
        if GAME.result(st) is not None:
            break
        seat = sorted(GAME.to_act(st))[0]
        top = st.prompts[-1] if st.prompts and seat in st.prompts[-1].seats else None
        keeping = top is not None and top.kind == "keep_investigator"
        kept += keeping
        all_public = GAME.choices_all_public(st, seat)
        assert all_public == (mode == "alliance" and not keeping)
        if all_public:
            assert GAME.public_actions(st, seat) == GAME.legal_actions(st, seat)
        st = GAME.apply(st, seat, GAME.ai_action(st, seat)).state
    assert kept
