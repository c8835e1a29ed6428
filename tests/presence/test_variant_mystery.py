"""Mystery Mode (P-MYST-01..03, P-SECRET-07, A-58, H-21): clue cards are discarded face down,
only the spirit may inspect them, and the engine settles what needs them (Invoke, the tier
of a secret reveal) with only the outcome made public."""

from __future__ import annotations

import json

import pytest

from rules.core.rng import Rng
from rules.core.types import PUBLIC, Event, act
from rules.presence.content import default_pack
from rules.presence.engine import Engine
from rules.presence.game import GAME
from rules.presence.state import PresenceState
from tests.presence.helpers import SPIRIT, answer, do, edit, new_game, options, prompt_kind
from tests.presence.variants import ai_playout, first_choice_playout, random_playout

PACK = default_pack()


def _clue(st: PresenceState, trauma: str | None = None) -> str:
    """Take a clue card (of `trauma`) out of the deck so it can be put in a hand."""
    card = next(c for c in st.clue_deck if not PACK.is_fear_card(c)
                and (trauma is None or PACK.clue_card(c).trauma == trauma))
    st.clue_deck.remove(card)
    return card


def _discard_by_rest(st: PresenceState, seat: str, card: str,
                     position: str) -> tuple[PresenceState, list[Event]]:
    """Rest, discarding `card` beneath `position` (PR-08 then PR-03)."""
    st, events = do(st, seat, act("rest"))
    out = GAME.apply(st, seat, act("choose", option=card))
    events += out.events
    st = out.state
    assert prompt_kind(st) == "clue_discard"
    out = GAME.apply(st, seat, act("choose", option=position))
    events += out.events
    st = out.state
    while st.prompts and "done" in options(st):
        st = answer(st, "done")
    return st, events


def _mystery_discard() -> tuple[PresenceState, list[Event], str]:
    st = edit(new_game(4, 3, mystery=True))
    card = _clue(st)
    st.visitors["s2"].hand.append(card)
    st, events = _discard_by_rest(st, "s2", card, "2")
    return st, events, card


def test_p_myst_01_a_clue_card_is_discarded_face_down() -> None:
    st, events, card = _mystery_discard()
    name = PACK.clue_card(card).name
    assert st.secrets[1].discards == [card]
    public = [e.text for e in events if e.audience == PUBLIC]
    assert any("face down beneath position 2" in t for t in public)
    assert not any(name in t for t in public)
    to_spirit = [e.text for e in events if e.audience == [SPIRIT]]
    assert any(name in t for t in to_spirit)  # P-MYST-02: the spirit may inspect it


def test_p_myst_02_a_67_the_visitor_who_laid_a_card_face_down_remembers_it() -> None:
    """The visitor who discards a clue card face down has held it: its own view lists it
    beneath its position, no other visitor's view or the public one does (A-67, H-21)."""
    st, _, card = _mystery_discard()
    mine = GAME.view(st, "s2")["laid_face_down"]
    assert [c["id"] for c in mine[2]] == [card] and mine[1] == mine[3] == mine[4] == []
    assert "laid_face_down" not in GAME.view(st, None)
    for who in (None, "s3", "s4"):
        assert not any(GAME.view(st, who).get("laid_face_down", {}).values())
        assert card not in json.dumps(GAME.view(st, who))
    name = PACK.clue_card(card).name
    assert f"You laid face down beneath position 2: {name}" in (
        GAME.private_summary(st, "s2") or "")
    assert name not in (GAME.private_summary(st, "s3") or "")
    # the seat's resampled worlds keep it where it lies; another seat's deal it anew
    for k in range(8):
        world = GAME.resample(st, "s2", Rng.from_seed(k))
        assert world.secrets[1].discards == [card]
        assert GAME.view(world, "s2")["laid_face_down"] == mine


def test_p_myst_02_a_67_a_visitor_invokes_where_its_own_face_down_cards_lie() -> None:
    """Stop 69: a visitor that forgot the clue cards it laid face down saw nothing beneath
    any secret, so every reveal looked alike and its Invoke went to the position with the
    most cards laid since (three of another visitor's, of a wrong trauma) rather than where
    it had laid two cards of that secret's own trauma itself."""
    st = edit(new_game(4, 3, mystery=True))
    trauma = PACK.secret(st.secrets[2].card).trauma
    other = next(PACK.secret(s.card).trauma for s in st.secrets if s.position == 1)
    mine = [_clue(st, trauma) for _ in range(2)]
    theirs = [_clue(st, other) for _ in range(3)]
    st.secrets[2].discards, st.visitors["s2"].laid = list(mine), list(mine)
    st.secrets[0].discards, st.visitors["s3"].laid = list(theirs), list(theirs)
    v = st.visitors["s2"]
    card, side = _invoke_card(st, "s2")
    for pile in (v.deck, v.discard, v.hand):
        if card in pile:
            pile.remove(card)
    v.hand.append(card)
    st, _ = do(st, "s2", act("play", card=card, side=side, speed="main"))
    assert prompt_kind(st) == "target"
    assert GAME.ai_action(st, "s2").p("option") == "3"


def test_p_myst_01_without_the_variant_discards_are_face_up() -> None:
    st = edit(new_game(4, 3))
    card = _clue(st)
    st.visitors["s2"].hand.append(card)
    st, events = _discard_by_rest(st, "s2", card, "2")
    public = [e.text for e in events if e.audience == PUBLIC]
    assert any(PACK.clue_card(card).name in t for t in public)
    assert GAME.view(st, None)["secrets"][1]["discards"][0]["id"] == card
    assert f'"{card}"' not in GAME.public_secrets(st)


def test_p_myst_02_h_21_only_the_spirit_sees_discards_and_counts_stay_public() -> None:
    st, _, card = _mystery_discard()
    for who in (None, "s2", "s3", "s4"):
        slot = GAME.view(st, who)["secrets"][1]
        assert slot["discards"] == [] and slot["discard_count"] == 1
        if who != "s2":  # the visitor who laid it remembers it
            assert card not in json.dumps(GAME.view(st, who))
    spirit = GAME.view(st, SPIRIT)
    assert spirit["secrets"][1]["discards"][0]["id"] == card
    name = PACK.clue_card(card).name
    assert spirit["spirit_private"]["clue_discards"][2] == [name]
    assert name in (GAME.private_summary(st, SPIRIT) or "")
    assert name not in (GAME.private_summary(st, "s3") or "")
    assert f'"{card}"' in GAME.public_secrets(st)  # the contract leak check covers it


def _invoke_card(st: PresenceState, seat: str) -> tuple[str, int]:
    """An action card of `seat`'s character whose action reveals a secret (Invoke)."""
    deck = PACK.action_deck(st.visitors[seat].character)
    for card in deck:
        for k, a in enumerate(PACK.action_card(card).actions):
            if any(e.op == "reveal_secret" for e in a.effects):
                return card, k
    raise AssertionError("no Invoke card")


def _scene_invoke(matching: int) -> tuple[PresenceState, str, int]:
    st = edit(new_game(3, 5, mystery=True))
    v = st.visitors["s2"]
    card, side = _invoke_card(st, "s2")
    for pile in (v.deck, v.discard, v.hand):
        if card in pile:
            pile.remove(card)
    v.hand.append(card)
    trauma = PACK.secret(st.secrets[0].card).trauma
    st.secrets[0].discards = [_clue(st, trauma) for _ in range(matching)]
    return st, card, side


@pytest.mark.parametrize("matching", [0, 4])
def test_p_myst_03_p_secret_07_a_58_invoke_and_tier_outcome_public_count_hidden(
        matching: int) -> None:
    st, card, side = _scene_invoke(matching)
    eng = Engine(st)
    assert eng.lit(st.visitors["s2"].room)  # Invoke's light side (no fear on failure)
    st, events = do(st, "s2", act("play", card=card, side=side, speed="main"))
    assert prompt_kind(st) == "target"
    out = GAME.apply(st, "s2", act("choose", option="1"))
    events = out.events
    st = out.state
    public = " ".join(e.text for e in events if e.audience == PUBLIC)
    if matching == 0:
        assert not st.secrets[0].revealed and "nothing happens" in public
    else:
        # the engine settled the tier the spirit player would point to (P-SECRET-07)
        tier = PACK.secret_board(3).tier(matching)
        assert st.secrets[0].revealed and st.secrets[0].tier == tier
        assert f"the {tier} effect resolves" in public
    # the matching count is never public, nor are the cards beneath
    for who in (None, "s2", "s3"):
        slot = GAME.view(st, who)["secrets"][0]
        assert slot["matching"] is None and slot["discards"] == []
        assert slot["discard_count"] == matching
    assert GAME.view(st, SPIRIT)["secrets"][0]["matching"] == (matching if matching else None)
    for c in st.secrets[0].discards:
        assert PACK.clue_card(c).name not in public


@pytest.mark.parametrize(("n", "seed"), [(3, 0), (4, 1)])
def test_p_myst_h_l1_random_playouts_end_and_never_show_a_face_down_card(n: int,
                                                                         seed: int) -> None:
    st = random_playout(n, seed, mystery=True)
    assert GAME.result(st) is not None and st.mystery


def test_p_myst_first_choice_and_ai_tables_reach_the_end() -> None:
    assert GAME.result(first_choice_playout(4, 1, mystery=True)) is not None
    assert GAME.result(ai_playout(4, 2, mystery=True)) is not None


def _play_clue(mystery: bool) -> tuple[PresenceState, list[Event], str]:
    """s2 plays a clue card (its Move 2 action, so no room condition), stops moving, and
    discards it beneath position 1 (P-CLUE-05)."""
    st = edit(new_game(4, 3, mystery=mystery))
    card = _clue(st)
    st.visitors["s2"].hand.append(card)
    side = next(k for k, a in enumerate(PACK.clue_card(card).actions) if a.name == "Move 2")
    st, events = do(st, "s2", act("play", card=card, side=side, speed="main"))
    for _ in range(10):
        if prompt_kind(st) == "clue_discard":
            break
        out = GAME.apply(st, "s2", act("choose", option="stop"))
        events += out.events
        st = out.state
    assert prompt_kind(st) == "clue_discard"
    # the discarder's own prompt may name the card it holds (H-18)
    assert PACK.clue_card(card).name in st.prompts[-1].text
    out = GAME.apply(st, "s2", act("choose", option="1"))
    return out.state, events + out.events, card


def test_p_myst_04_a_played_clue_card_is_not_named_and_its_place_stays_unknown() -> None:
    """Issue #12 (4): "The Detective uses Tragedy: Nursery: Investigate." followed by "...
    discards a clue card face down beneath position 1" told everyone what lies beneath
    position 1. In Mystery Mode a played clue card shows only the action used (A-64)."""
    st, events, card = _play_clue(mystery=True)
    cc = PACK.clue_card(card)
    assert st.secrets[0].discards == [card]
    public = [e.text for e in events if e.audience == PUBLIC]
    assert any("uses a clue card" in t and "Move 2" in t for t in public), public
    visitors = [e.text for e in events if e.audience != [SPIRIT]
                and not set(e.audience) <= {"s2"}]
    for text in visitors:
        assert cc.name not in text and cc.trauma not in text.lower(), text
    # what the other visitors and the public read now: views, summaries, prompts, the log
    # (s2, who laid it, remembers it: A-67)
    for who in (None, "s3", "s4"):
        blob = json.dumps(GAME.view(st, who)) + (GAME.private_summary(st, who) or "" if who
                                                 else "")
        assert cc.name not in blob and f'"{card}"' not in blob, who
    for who in sorted(GAME.to_act(st)):
        if who != SPIRIT:
            labels = [GAME.describe(st, who, a) for a in GAME.legal_actions(st, who)]
            assert not any(cc.name in x for x in [*labels, GAME.prompt_text(st, who) or ""])
    # the spirit may inspect it once it lies beneath a secret (P-MYST-02), not before (H-18)
    to_spirit = [e.text for e in events if e.audience == [SPIRIT]]
    assert [t for t in to_spirit if cc.name in t] == [
        f"Face down beneath position 1: {cc.name}."]  # "Tragedy: Salon" (#22: not twice)
    assert cc.trauma in cc.name.lower() and Engine(st).room_name(cc.room) in cc.name
    # the contract's leak check knows the class: the name is a public secret now
    secrets = GAME.public_secrets(st)
    assert cc.name in secrets and f'"{card}"' in secrets


def test_p_myst_04_without_the_variant_a_played_clue_card_is_shown() -> None:
    st, events, card = _play_clue(mystery=False)
    public = " ".join(e.text for e in events if e.audience == PUBLIC)
    assert PACK.clue_card(card).name in public
    assert PACK.clue_card(card).name not in GAME.public_secrets(st)


def test_p_myst_04_a_card_taken_face_up_from_the_revealed_row_is_public_knowledge() -> None:
    """P-CLUE-06: revealed clue cards lie face up for all; taking one is seen by everyone, so
    its name is no secret when it later goes face down (only the hand hides which card)."""
    st = edit(new_game(4, 3, mystery=True))
    st.clue_deck.append(_clue(st))  # a clue card (not a fear card) on top
    e = Engine(st)
    e.eff_reveal_clue_deck(type("E", (), {"n": 1})(), {})
    shown = st.clue_revealed[-1]
    assert PACK.clue_card(shown).name not in GAME.public_secrets(st)
    st.clue_revealed.remove(shown)
    st.visitors["s2"].hand.append(shown)
    assert PACK.clue_card(shown).name not in GAME.public_secrets(st)
    hidden = _clue(st)
    st.visitors["s2"].hand.append(hidden)
    assert PACK.clue_card(hidden).name in GAME.public_secrets(st)
