"""The Presence's estimate where a search play-out stops (`Presence.ai_value`,
`rules.presence.ai.win_estimate`): a probability, moved by each side's progress, that reads
the world's secret cards (a clue card counts where it is right) and nothing else hidden."""

from __future__ import annotations

import pytest

from rules.core.rng import Rng
from rules.presence import ai
from rules.presence.engine import pack_for
from rules.presence.game import GAME
from rules.presence.state import PresenceState
from tests.presence.helpers import SPIRIT, VISITOR, edit, new_game


def test_ai_value_follows_the_secrets_revealed_and_the_rounds_left(
        monkeypatch: pytest.MonkeyPatch) -> None:
    st = new_game(4, 3)
    start = GAME.ai_value(st, VISITOR)
    assert 0.0 < start < 1.0
    ahead = st.model_copy(deep=True)
    for slot in ahead.secrets[:3]:
        slot.revealed, slot.tier = True, "middle"
    late = st.model_copy(deep=True)
    late.round = late.time = 8
    assert GAME.ai_value(ahead, VISITOR) > start + 0.2
    assert GAME.ai_value(late, VISITOR) < start
    succumbed = st.model_copy(deep=True)
    succumbed.visitors["s3"].succumbed = True
    with monkeypatch.context() as m:  # P-WIN-04: a harming script wins by a succumbed visitor
        m.setattr(ai, "spirit_mode", lambda eng: "harm")
        assert GAME.ai_value(ahead, SPIRIT) < GAME.ai_value(st, SPIRIT)
        assert GAME.ai_value(succumbed, SPIRIT) > GAME.ai_value(st, SPIRIT)
    with monkeypatch.context() as m:  # P-WIN-05: a good hidden script wins with the visitors
        m.setattr(ai, "spirit_mode", lambda eng: "help")
        assert GAME.ai_value(ahead, SPIRIT) > GAME.ai_value(st, SPIRIT)


def _beneath(st: PresenceState, position: int, trauma_of: int) -> PresenceState:
    """`st` with a clue card of the trauma of the secret at `trauma_of` (0-based) taken from
    the clue deck and discarded beneath `position`."""
    pack = pack_for(st.pack_path)
    out = edit(st)
    trauma = pack.secret(out.secrets[trauma_of].card).trauma
    card = next(c for c in out.clue_deck
                if not pack.is_fear_card(c) and pack.clue_card(c).trauma == trauma)
    out.clue_deck.remove(card)
    out.secrets[position].discards.append(card)
    return out


def test_p_secret_03_a_clue_card_counts_beneath_its_own_secret_not_beneath_another(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """G-09 / P-SECRET-03: one matching card lets an Invoke reveal a secret. At the cut-off
    the visitors' estimate rises for a card beneath its own secret, not for the same card
    beneath another (#23: the public odds saw both alike), and so does a helping spirit's."""
    st = new_game(4, 3)
    right, wrong = _beneath(st, 0, 0), _beneath(st, 1, 0)
    assert GAME.ai_value(right, VISITOR) > GAME.ai_value(wrong, VISITOR) + 0.02
    assert GAME.ai_value(wrong, VISITOR) == GAME.ai_value(st, VISITOR)
    with monkeypatch.context() as m:  # a good script wins with them (P-WIN-05)
        m.setattr(ai, "spirit_mode", lambda eng: "help")
        assert GAME.ai_value(right, SPIRIT) > GAME.ai_value(wrong, SPIRIT)


def test_p_win_01_revealing_a_ready_secret_never_lowers_the_visitors_estimate() -> None:
    """A reveal above the low tier must look like progress (#23: it used to cost the
    "ready" it had). (A low tier costs hope and nerve: whether it is worth it the play-out
    decides.)"""
    st = _beneath(new_game(4, 3), 0, 0)
    for rnd in (1, 4, 7):
        ready = edit(st)
        ready.round = ready.time = rnd
        for tier in ("middle", "high"):
            done = edit(ready)
            done.secrets[0].revealed, done.secrets[0].tier = True, tier
            assert GAME.ai_value(done, VISITOR) >= GAME.ai_value(ready, VISITOR), (rnd, tier)


def test_ai_value_reads_no_hidden_card_but_the_worlds_secrets() -> None:
    """The spirit sees the secret cards: its estimate is the same in every world dealt from
    its view. A visitor's estimate reads the world's secret cards (the search calls it on
    worlds dealt from the seat's view, as a play-out's end would) and nothing else hidden:
    worlds that deal the same secret cards score the same, whatever the hands and decks."""
    st = _beneath(_beneath(new_game(4, 3), 0, 0), 1, 2)
    values = {GAME.ai_value(GAME.resample(st, SPIRIT, Rng.from_seed(salt)), SPIRIT)
              for salt in range(6)}
    assert values == {GAME.ai_value(st, SPIRIT)}
    for seat in (VISITOR, "s3"):
        by_secrets: dict[tuple[str, ...], set[float]] = {}
        for salt in range(40):
            world = GAME.resample(st, seat, Rng.from_seed(salt))
            key = tuple(s.card for s in world.secrets)
            by_secrets.setdefault(key, set()).add(GAME.ai_value(world, seat))
        assert len(by_secrets) > 1, seat  # the worlds do differ in their secrets
        assert all(len(v) == 1 for v in by_secrets.values()), seat
        assert len({v for vs in by_secrets.values() for v in vs}) > 1, seat


def test_p_win_01_a_secret_whose_every_clue_card_lies_beneath_others_is_a_lost_world(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """G-09 / G-04 (#23, 4 players at normal, Eternal Darkness): position 4's trauma has three
    clue cards in a 4-player deck; once all three lie beneath other secrets no Invoke can
    reveal it, and the visitors, who need all four (P-WIN-01), cannot win that world. Their
    estimate says 0 there (its logistic saw only a secret "short" of cards), and not while
    one card is still to be had; a spirit's estimate is left as it was."""
    st = new_game(4, 3)
    pack = pack_for(st.pack_path)
    assert pack.secret_board(4).positions[3].in_deck == 3
    two = _beneath(_beneath(st, 0, 3), 1, 3)
    three = _beneath(two, 2, 3)
    assert ai.dead_secrets(ai.Engine(two)) == 0
    assert ai.dead_secrets(ai.Engine(three)) == 1
    assert GAME.ai_value(two, VISITOR) > 0.0
    assert GAME.ai_value(three, VISITOR) == 0.0
    assert GAME.ai_value(three, SPIRIT) == pytest.approx(ai.win_estimate(three, SPIRIT))
    assert GAME.ai_value(three, SPIRIT) > 0.0
    right = edit(three)  # one of the three beneath its own secret instead: revealable
    right.secrets[3].discards.append(right.secrets[0].discards.pop())
    assert ai.dead_secrets(ai.Engine(right)) == 0
    assert GAME.ai_value(right, VISITOR) > GAME.ai_value(two, VISITOR)
    mystery = edit(three)
    mystery.mystery = True  # P-MYST-02: face-down discards are not read
    assert ai.dead_secrets(ai.Engine(mystery)) == 0


def test_p_secret_04_a_low_reveal_of_a_ready_secret_never_lowers_the_visitors_estimate() -> None:
    """G-05: the low tier costs one hope and one nerve. The visitors' estimate reads a ready
    secret at the low tier with that cost already paid, so the reveal itself only adds a
    secret revealed (#23, stop 31: it used to lower the estimate at every round, and a search
    free to overrule held its Invokes to Eternal Darkness). A spirit's estimate is unchanged
    by this reading."""
    st = _beneath(new_game(4, 3), 0, 0)
    for rnd in (2, 5, 8):
        for gap in (1, 3):
            ready = edit(st)
            ready.round = ready.time = rnd
            ready.hope = ready.nerve = rnd + gap
            done = edit(ready)
            done.secrets[0].revealed, done.secrets[0].tier = True, "low"
            done.hope = ready.hope - 1
            done.nerve = ready.nerve - 1
            assert GAME.ai_value(done, VISITOR) >= GAME.ai_value(ready, VISITOR), (rnd, gap)
    eng = ai.Engine(edit(st))
    assert ai.value_features(eng) != ai.value_features(eng, low_costs=True)
    assert ai.win_estimate(st, SPIRIT) == pytest.approx(
        _logistic(ai.SPIRIT_HARMS if ai.spirit_mode(eng) == "harm" else ai.SPIRIT_HELPS,
                  ai.value_features(eng)))


def test_p_fear_03_a_harming_spirit_prices_every_visitors_fear_short_of_a_knock_out(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """P-FEAR-03: a full fear track knocks a visitor out and costs the visitors a nerve space.
    A spirit that wins only by a succumbed visitor (P-WIN-04: an evil script) sees its
    estimate rise with each fear a visitor suffers, the worst-off one's or another's (#23,
    stop 54: the fitted weights read only the worst-off track, at about 0, and the search
    overruled frightening plays); a knocked-out visitor's full track counts nothing more
    (its nerve is paid). A good hidden script, helping or turning early, prices no fear (a
    knock-out's nerve may cost its own marker), nor do the visitors."""
    st = edit(new_game(4, 3))
    st.script, st.script_revealed = "B4", False  # evil: wins only once revealed, by succumbing
    worst = edit(st)
    worst.visitors[VISITOR].fear = 3
    other = edit(worst)
    other.visitors["s3"].fear = 1
    assert ai.spirit_mode(ai.Engine(st)) == "harm"
    calm = GAME.ai_value(st, SPIRIT)
    assert calm < GAME.ai_value(worst, SPIRIT) < GAME.ai_value(other, SPIRIT)
    knocked = edit(worst)
    knocked.visitors[VISITOR].knocked_out = True
    assert ai.fear_progress(ai.Engine(knocked)) == 0.0
    track = pack_for(st.pack_path).visitor(st.visitors[VISITOR].character).fear_track
    assert ai.fear_progress(ai.Engine(worst)) == pytest.approx(3 / track)
    good = edit(other)
    good.script = "A2"  # good while hidden: wins with the visitors
    assert ai.wins_with_visitors(ai.Engine(good))
    for mode, weights in (("help", ai.SPIRIT_HELPS), ("harm", ai.SPIRIT_HARMS)):
        with monkeypatch.context() as m:
            m.setattr(ai, "spirit_mode", lambda eng, mode=mode: mode)
            assert GAME.ai_value(good, SPIRIT) == pytest.approx(_logistic(
                weights, ai.value_features(ai.Engine(good))))
    assert GAME.ai_value(other, VISITOR) == pytest.approx(_logistic(
        ai.VISITORS_WIN, ai.value_features(ai.Engine(other), low_costs=True)))


def _logistic(weights: tuple[float, ...], features: list[float]) -> float:
    import math

    z = sum(w * x for w, x in zip(weights, features, strict=True))
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
