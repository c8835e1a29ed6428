"""Hidden information (spec Part 5, H-L1..H-L5), table talk (P-COMM, P-DISCORD-01), labels."""

from __future__ import annotations

import json
from typing import Any

import pytest

from rules.core.rng import Rng
from rules.core.types import act
from rules.presence.content import default_pack
from rules.presence.game import GAME
from rules.presence.state import PresenceState
from tests.presence.helpers import SPIRIT, answer, do, edit, eng, new_game, quiet, seats

PACK = default_pack()


def hidden_from(st: PresenceState, seat: str | None) -> list[str]:
    """Strings `seat`'s view (None: public) must not contain right now."""
    out: list[str] = []
    if not st.script_revealed and st.script:
        sc = PACK.script(st.script)
        out += [sc.top.text, sc.bottom.text]
    for s in st.secrets:
        if not s.revealed:
            out += [f'"{s.card}"', PACK.secret(s.card).name]
    for toks in st.tokens.values():
        out += [f'"{t.id}"' for t in toks]
    for v in st.visitors.values():
        if v.seat != seat:
            out += [f'"{c}"' for c in v.hand]
    out += [f'"{c}"' for c in st.spirit.hand]
    out += [f'"{c}"' for c in st.clue_deck + st.clue_box]
    return [x for x in out if x]


@pytest.mark.parametrize(("n", "seeds"), [
    (3, range(2)), (5, range(1)),
    # the rest of the six and three seeds this ran by default until stop 65 (test_leaks.py's
    # playouts check every view at every step as well)
    pytest.param(3, range(2, 6), marks=pytest.mark.soak),
    pytest.param(5, range(1, 3), marks=pytest.mark.soak)])
def test_H_L1_views_never_leak_over_random_playouts(n: int, seeds: range) -> None:
    for seed in seeds:
        st = GAME.setup(seats(n), GAME.options_model(), seed)
        rng = Rng.from_seed(seed + 99)
        for _ in range(3000):
            if GAME.result(st) is not None:
                break
            for who in [None, *st.visitor_seats]:
                text = json.dumps(GAME.view(st, who))
                for secret in hidden_from(st, who):
                    assert secret not in text, (seed, who, secret)
            seat = rng.choice(sorted(GAME.to_act(st)))
            deck = set(st.clue_deck)
            out = GAME.apply(st, seat, rng.choice(GAME.legal_actions(st, seat)))
            # a clue card drawn from the deck into a hand is never named in public (H-18)
            drawn = {c for v in out.state.visitors.values() for c in v.hand if c in deck}
            names = {PACK.clue_card(c).name for c in drawn}
            for ev in out.events:
                if ev.public:
                    assert not any(nm in ev.text for nm in names), ev.text
            st = out.state
        assert GAME.result(st) is not None


def test_H_L1_public_events_never_name_a_hidden_script_or_secret() -> None:
    for seed in range(4):
        st = GAME.setup(seats(4), GAME.options_model(), seed)
        rng = Rng.from_seed(seed + 7)
        for _ in range(3000):
            if GAME.result(st) is not None:
                break
            before = hidden_from(st, None)
            seat = rng.choice(sorted(GAME.to_act(st)))
            out = GAME.apply(st, seat, rng.choice(GAME.legal_actions(st, seat)))
            # hidden before the step and still after it: a secret this step reveals is named
            after = set(hidden_from(out.state, None))
            names = [x for x in before if not x.startswith('"') and x in after]
            for ev in out.events:
                if ev.public and not out.state.script_revealed:
                    assert not any(x in ev.text for x in names if x), ev.text
            st = out.state


def test_H_07_H_10_H_24_spirit_view_holds_its_secrets_visitors_do_not() -> None:
    st = new_game(3, 2)
    sp = GAME.view(st, SPIRIT)
    assert sp["spirit_private"]["script"]["id"] == st.script
    assert [x["id"] for x in sp["spirit_private"]["secrets"]] == [s.card for s in st.secrets]
    assert any(sp["spirit_private"]["tokens"].values())
    for seat in (None, "s2", "s3"):
        v = GAME.view(st, seat)
        assert "spirit_private" not in v
        assert v["scripts"]["script"] is None
        assert all(x["name"] is None and x["trauma"] is None for x in v["secrets"])
        assert all("id" not in t for r in v["rooms"] for t in r["tokens"])
    assert "hand" in GAME.view(st, "s2") and "hand" not in GAME.view(st, None)
    mine = {c["id"] for c in GAME.view(st, "s2")["hand"]}
    assert mine == set(st.visitors["s2"].hand)


def test_H_40_private_prompt_text_is_hidden_from_others() -> None:
    st = edit(quiet(new_game(3, 2)))
    clue = next(c for c in st.clue_deck if not PACK.is_fear_card(c))
    st.clue_deck.remove(clue)
    st.visitors["s2"].hand.append(clue)
    e = eng(st)
    e.step_discard_clue("s2", clue)
    name = PACK.clue_card(clue).name
    assert name in GAME.view(st, "s2")["prompt"]["text"]
    assert name not in GAME.view(st, None)["prompt"]["text"]
    assert name not in GAME.view(st, "s3")["prompt"]["text"]
    assert GAME.public_choices(st, "s2") is False


def test_public_choices_false_for_the_spirit_and_hands() -> None:
    st = new_game(3, 2)
    assert GAME.public_choices(st, SPIRIT) is False
    assert GAME.public_choices(st, "s2") is False  # play actions name hand cards


def test_P_DIST_03_04_P_DISCORD_01_alone_and_table_talk() -> None:
    st = edit(quiet(new_game(4, 2)))
    talk = GAME.view(st, None)["table_talk"]
    assert talk["allowed"] and talk["alone"] == []
    assert talk["speech"][SPIRIT] == "procedural_only"  # P-COMM-09
    # s2 walks out through a door it opens: within hearing while the door is open
    st, _ = do(st, "s2", act("walk"))
    st = answer(st, "open:D01")
    st, _ = do(st, "s2", act("walk"))
    st = answer(st, "go:D01")
    talk = GAME.view(st, None)["table_talk"]
    assert "s2" not in talk["alone"]  # an open door between (P-DIST-03)
    st, _ = do(st, "s2", act("walk"))
    st = answer(st, "close:D01")
    talk = GAME.view(st, None)["table_talk"]
    assert talk["alone"] == ["s2"]
    assert not talk["allowed"]  # the alone s2 holds the active marker (P-COMM-06)
    assert all(v == "procedural_only" for v in talk["speech"].values())


def test_P_DIST_04_A_24_knocked_out_companion_does_not_count() -> None:
    st = edit(quiet(new_game(3, 2)))
    st.visitors["s3"].knocked_out = True
    e = eng(st)
    assert e.alone("s2") and e.alone("s3")
    st.visitors["s3"].knocked_out = False
    assert not eng(st).alone("s2")


def test_P_COMM_07_talk_allowed_in_spirit_turn_for_not_alone() -> None:
    st = edit(quiet(new_game(4, 2)))
    st.visitors["s4"].room = "library"
    st.phase = "spirit"
    st.active = SPIRIT
    talk = eng(st).table_talk()
    assert talk["allowed"] and talk["alone"] == ["s4"]
    assert talk["speech"]["s2"] == "free" and talk["speech"]["s4"] == "procedural_only"


def test_prompts_fit_discord_limits_over_random_playouts() -> None:
    for seed in range(5):
        st = GAME.setup(seats(5), GAME.options_model(), seed)
        rng = Rng.from_seed(seed)
        for _ in range(3000):
            if GAME.result(st) is not None:
                break
            seat = rng.choice(sorted(GAME.to_act(st)))
            legal = GAME.legal_actions(st, seat)
            if st.prompts:
                assert len(legal) <= 25
            for a in legal:
                label = GAME.describe(st, seat, a)
                assert 0 < len(label) <= 80
            st = GAME.apply(st, seat, rng.choice(legal)).state


def test_determinism_same_seed_same_actions_same_state() -> None:
    def run(seed: int) -> str:
        st = GAME.setup(seats(4), GAME.options_model(), seed)
        rng = Rng.from_seed(5)
        for _ in range(400):
            if GAME.result(st) is not None:
                break
            seat = rng.choice(sorted(GAME.to_act(st)))
            st = GAME.apply(st, seat, rng.choice(GAME.legal_actions(st, seat))).state
        return st.model_dump_json()

    assert run(3) == run(3)


def test_view_keys_are_the_documented_ones() -> None:
    import rules.presence.view as view_module

    doc = view_module.__doc__ or ""
    st = new_game(4, 2)
    for who in (None, SPIRIT, "s2"):
        view = GAME.view(st, who)
        for key in view:
            assert key in doc, f"view key {key} is not documented"
        for room in view["rooms"]:
            assert set(room) == {"id", "name", "floor", "x", "y", "board", "lit", "fireplace",
                                 "fireplace_lit", "tokens", "dice", "visitors", "pawn",
                                 "drains"}
        assert set(view["table_talk"]) >= {"allowed", "alone", "why", "speech"}
    assert "hand" in GAME.view(st, "s2") and "spirit_private" in GAME.view(st, SPIRIT)


def test_invariants_and_private_summary() -> None:
    st = new_game(3, 2)
    assert GAME.invariants(st) == []
    text = GAME.private_summary(st, SPIRIT) or ""
    assert PACK.script(st.script).name in text
    hand = GAME.private_summary(st, "s2") or ""
    assert "Your hand" in hand
    view: dict[str, Any] = GAME.view(st, None)
    assert view["game"] == "presence" and GAME.invariants(st) == []


def test_every_prompt_kind_is_listed_for_the_cog() -> None:
    from rules.presence.actions import COMMAND_OF_KIND, PROMPT_ANSWERS

    for seed in range(4):
        st = GAME.setup(seats(4), GAME.options_model(), seed)
        rng = Rng.from_seed(seed)
        for _ in range(3000):
            if GAME.result(st) is not None:
                break
            seat = rng.choice(sorted(GAME.to_act(st)))
            legal = GAME.legal_actions(st, seat)
            if st.prompts:
                assert st.prompts[-1].kind in PROMPT_ANSWERS
                assert {a.kind for a in legal} <= set(PROMPT_ANSWERS[st.prompts[-1].kind])
            else:
                assert all(a.kind in COMMAND_OF_KIND for a in legal)
            st = GAME.apply(st, seat, rng.choice(legal)).state
