"""The Presence AI (`rules.presence.ai`): always legal, never mutates, deterministic, ends every
game, reads for a visitor only what that visitor may see, and plays to each side's goal better
than random play (P-WIN-01, P-WIN-04)."""

from __future__ import annotations

from collections import Counter
from functools import cache
from pathlib import Path

import pytest

from rules.core.rng import Rng
from rules.core.types import Action
from rules.presence import ai
from rules.presence.ai import Deduction, choose_action, spirit_mode
from rules.presence.engine import Engine, pack_for
from rules.presence.game import GAME
from rules.presence.state import PresenceState, Step
from tests.presence.helpers import edit, new_game, seats

MAX_STEPS = 6000


def _policy_action(policy: str, st: PresenceState, seat: str, rng: Rng) -> Action:
    if policy == "ai":
        return choose_action(st, seat, GAME)
    legal = GAME.legal_actions(st, seat)
    return rng.choice(legal) if policy == "random" else legal[0]


def _play(n: int, seed: int, visitors: str = "ai", spirit: str = "ai",
          check: bool = False) -> PresenceState:
    st = GAME.setup(seats(n), GAME.options_model(), seed)
    rng = Rng.from_seed(seed + 7)
    for step in range(MAX_STEPS):
        if GAME.result(st) is not None:
            return st
        seat = sorted(GAME.to_act(st))[0]
        policy = spirit if seat == st.spirit_seat else visitors
        if check and policy == "ai":
            before = st.model_dump_json() if step % 7 == 0 else ""
            action = choose_action(st, seat, GAME)
            assert action in GAME.legal_actions(st, seat), (seed, step, action)
            assert choose_action(st, seat, GAME) == action  # deterministic
            if before:
                assert st.model_dump_json() == before  # never mutates
                assert GAME.ai_action(st, seat) == action  # wired into the game
        else:
            action = _policy_action(policy, st, seat, rng)
        st = GAME.apply(st, seat, action).state
    raise AssertionError(f"seed {seed}: the game did not end")


def _alignment(st: PresenceState) -> str:
    return pack_for(st.pack_path).script(st.script).alignment


@cache
def _seeds(n: int, alignment: str, count: int) -> tuple[int, ...]:
    """The first `count` seeds whose spirit draws a script of `alignment`."""
    out: list[int] = []
    seed = 0
    while len(out) < count:
        if _alignment(GAME.setup(seats(n), GAME.options_model(), seed)) == alignment:
            out.append(seed)
        seed += 1
    return tuple(out)


@pytest.mark.parametrize("n", [3, 4, 5])
def test_p_round_01_ai_is_legal_pure_deterministic_and_every_game_ends(n: int) -> None:
    for seed in (n, n + 10):
        st = _play(n, seed, check=True)
        assert GAME.result(st) is not None


def test_p_round_01_ai_visitors_end_games_against_a_first_choice_spirit() -> None:
    """Liveness with a stubborn spirit pressing the first button (tests/rules contract)."""
    for n in (3, 5):
        assert GAME.result(_play(n, 1, spirit="first")) is not None


def test_h_l2_visitor_ai_reads_nothing_hidden() -> None:
    """Shuffling what a visitor may not see (unrevealed secret cards, the clue deck order,
    face-down token identities, the spirit's hand, the drawn script) never changes the
    visitor AI's choice (spec Part 5)."""
    st = GAME.setup(seats(4), GAME.options_model(), 3)
    rng = Rng.from_seed(11)
    checked = 0
    for step in range(2500):
        if GAME.result(st) is not None:
            break
        seat = sorted(GAME.to_act(st))[0]
        action = choose_action(st, seat, GAME)
        if seat != st.spirit_seat and st.phase != "setup" and step % 3 == 0:
            alt = _shuffle_hidden(st, rng)
            assert choose_action(alt, seat, GAME) == action, (step, action)
            checked += 1
        st = GAME.apply(st, seat, action).state
    assert checked > 40


def _shuffle_hidden(st: PresenceState, rng: Rng) -> PresenceState:
    alt = st.model_copy(deep=True)
    hidden = [s for s in alt.secrets if not s.revealed]
    cards = rng.shuffled([s.card for s in hidden])
    for slot, card in zip(hidden, cards, strict=True):
        slot.card = card
    alt.clue_deck = rng.shuffled(alt.clue_deck)
    for kind in ("spirit", "small"):
        toks = [t for ts in alt.tokens.values() for t in ts if t.kind == kind]
        for t, tid in zip(toks, rng.shuffled([t.id for t in toks]), strict=True):
            t.id = tid
    pack = pack_for(alt.pack_path)
    if not alt.script_revealed and alt.script_pool:
        same = [s for s in alt.script_pool if pack.script(s).type == pack.script(alt.script).type]
        if same:
            alt.script = same[0]
    pool = alt.spirit.hand + alt.spirit.deck
    pool = rng.shuffled(pool)
    alt.spirit.hand, alt.spirit.deck = pool[:len(alt.spirit.hand)], pool[len(alt.spirit.hand):]
    return alt


def test_p_secret_01_deduction_fixes_revealed_secrets_and_reads_the_counts() -> None:
    st = new_game(3, 2)
    pack = pack_for(st.pack_path)
    for slot in st.secrets[:3]:
        slot.revealed = True
    eng = Engine(st)
    ded = Deduction(eng, "s2")
    last = pack.secret(st.secrets[3].card).trauma
    assert ded.where(last)[3] == pytest.approx(1.0)
    assert ded.best_position(last) == "4"
    for slot in st.secrets[:3]:
        t = pack.secret(slot.card).trauma
        assert ded.where(t)[slot.position - 1] == pytest.approx(1.0)


def test_p_secret_01_deduction_reads_each_new_evidence_though_its_weights_are_memoized() -> None:
    """The assignments' weights are memoized on the evidence (`_weighted_assignments`): each
    kind of evidence (a revealed secret, a failed Invoke, clue cards seen) must change them,
    and the same evidence give the same answer from a fresh computation."""
    st = new_game(3, 2)
    pack = pack_for(st.pack_path)
    first = pack.secret(st.secrets[0].card).trauma
    before = Deduction(Engine(st), "s2").where(first)
    cards = [c for c in st.clue_deck if not pack.is_fear_card(c)
             and pack.clue_card(c).trauma == first][:2]
    st.visitors["s2"].hand.extend(cards)  # seen in the hand: the counts weigh the positions
    seen = Deduction(Engine(st), "s2").where(first)
    assert seen != pytest.approx(before)
    st.secrets[1].discards = cards[:1]
    st.secrets[1].failed = [1]  # an Invoke at position 2 failed over a card of `first`
    banned = Deduction(Engine(st), "s2").where(first)
    assert banned[1] == 0.0 and seen[1] > 0.0
    st.secrets[0].revealed = True
    assert Deduction(Engine(st), "s2").where(first)[0] == pytest.approx(1.0)
    ai._weighted_assignments.cache_clear()
    st.secrets[0].revealed = False
    assert Deduction(Engine(st), "s2").where(first) == pytest.approx(banned)


def test_p_clue_05_ai_discards_a_clue_card_beneath_its_deduced_secret() -> None:
    """With three secrets revealed, a clue card of the fourth trauma goes beneath the fourth
    position (PR-03), wherever its count alone would point."""
    st = new_game(3, 2)
    pack = pack_for(st.pack_path)
    for slot in st.secrets[:3]:
        slot.revealed = True
    trauma = pack.secret(st.secrets[3].card).trauma
    card = next(c for c in st.clue_deck if not pack.is_fear_card(c)
                and pack.clue_card(c).trauma == trauma)
    st.clue_deck.remove(card)
    st.visitors["s2"].hand.append(card)
    eng = Engine(st)
    eng.later(Step(op="discard_clue", args={"seat": "s2", "card": card}))  # PR-03 prompt
    eng.run()
    assert st.prompts and st.prompts[-1].kind == "clue_discard"
    assert choose_action(st, "s2", GAME).p("option") == "4"


def test_p_secret_03_ai_invokes_only_a_sure_secret() -> None:
    """Invoke (G-09) targets the position whose reveal surely resolves a good tier."""
    st = new_game(4, 5)
    pack = pack_for(st.pack_path)
    for slot in st.secrets[1:]:
        slot.revealed = True
    trauma = pack.secret(st.secrets[0].card).trauma
    matching = [c for c in st.clue_deck if not pack.is_fear_card(c)
                and pack.clue_card(c).trauma == trauma][:3]
    for c in matching:
        st.clue_deck.remove(c)
    assert Deduction(Engine(st), "s2").invoke_value(0, st, 1.0) < 0  # nothing beneath yet
    st.secrets[0].discards = matching
    ded = Deduction(Engine(st), "s2")
    assert ded.matching_dist(0)[3] == pytest.approx(1.0)
    assert ded.invoke_value(0, st, 1.0) > 0


def test_p_win_04_spirit_mode_follows_the_active_script_half() -> None:
    st = new_game(3, 1)
    pack = pack_for(st.pack_path)
    good = next(s.id for s in pack.scripts if s.alignment == "good")
    evil = next(s.id for s in pack.scripts if s.alignment == "evil")
    st.script, st.script_revealed = good, False
    assert spirit_mode(Engine(st)) == "help"
    st.script_revealed = True  # a revealed good script wants a visitor to succumb
    assert spirit_mode(Engine(st)) == "harm"
    st.script, st.script_revealed = evil, False
    assert spirit_mode(Engine(st)) == "harm"


def test_p_win_01_ai_visitors_beat_a_random_spirit_more_than_random_visitors_do() -> None:
    """Against the same random spirit and seeds, AI visitors reveal far more secrets and win
    more games than visitors pressing random buttons."""
    ai_secrets = ai_wins = rnd_secrets = rnd_wins = 0
    for seed in range(6):
        a = _play(5, seed, visitors="ai", spirit="random")
        r = _play(5, seed, visitors="random", spirit="random")
        ai_secrets += sum(s.revealed for s in a.secrets)
        rnd_secrets += sum(s.revealed for s in r.secrets)
        ai_wins += any(w != a.spirit_seat for w in a.winners)
        rnd_wins += any(w != r.spirit_seat for w in r.winners)
    assert ai_secrets >= rnd_secrets + 10, (ai_secrets, rnd_secrets)
    assert ai_wins > rnd_wins, (ai_wins, rnd_wins)


@pytest.mark.parametrize("alignment", [pytest.param("good", marks=pytest.mark.soak),
                                       pytest.param("evil", marks=pytest.mark.soak)])
def test_p_win_04_ai_spirit_reaches_its_script_goal_more_than_a_random_spirit(
        alignment: str) -> None:
    """With AI visitors on both sides of the comparison, the spirit AI wins more games with
    its script than a random spirit. Evil: reveal the script, then make a visitor succumb.
    Good: win with the visitors while hidden, helping them while they keep up, else turn to
    the bottom half (a succumbed visitor once revealed). An evil spirit's win waits on a lost
    marker, which visitors who stack their clue cards well (#23) often keep: its games are
    closer, so it is compared over 24 seeds (at 12, 8 to 7; at 40, 21 to 13). A good
    spirit wins with the visitors, and since stop 33 (#23) 4-player visitors win most games
    whoever helps them (40 seeds: 34 to 32; before, 34 to 26), so it is compared at 3
    players (before stop 33, 27 to 28 over 40 seeds: the helper's edge shows once the
    visitors it helps can finish the job). By stop 58 the edge over the first 40 seeds had
    shrunk to 28 to 26, where one game decides the test; over 80 it is 60 to 52 (stop 59:
    59 to 52; over 120, 87 to 75), so it is compared over 80 with a margin of 4. That is a
    strength measure (a quarter of a minute, 13 to 13 over the first 20 seeds), so the good
    spirit's comparison runs under `-m soak`; its play is checked by
    `test_p_win_04_spirit_mode_follows_the_active_script_half` and the guide's advice tests.
    The evil comparison (a quarter of a minute too) joined it under `-m soak` at stop 65, to
    keep the default suite in bounds: both are strength measures, which `python -m bench ai`
    reports with their confidence intervals (#23)."""
    n = 4 if alignment == "evil" else 3
    ai = rnd = 0
    for seed in _seeds(n, alignment, 24 if alignment == "evil" else 80):
        a = _play(n, seed, spirit="ai")
        r = _play(n, seed, spirit="random")
        ai += a.spirit_seat in a.winners
        rnd += r.spirit_seat in r.winners
    assert ai > rnd + (1 if alignment == "evil" else 3), (alignment, ai, rnd)


def test_bench_presence_ai_reports_win_rates_by_alignment(
        capsys: pytest.CaptureFixture[str]) -> None:
    """`python -m bench.presence_ai` runs and prints its table (kept cheap: one game)."""
    from bench.presence_ai import main

    assert main(["--games", "1", "--players", "3", "--visitors", "random",
                 "--spirit", "first"]) == 0
    out = capsys.readouterr().out
    assert "visitors win" in out and " 3 all " in out


def test_p_secret_03_a_clue_card_goes_where_it_is_likely_right_and_still_needed() -> None:
    """PR-03 (#23): of two positions its trauma may lie at, a clue card goes beneath the likelier
    one while both still need cards, but beneath the other once the likelier one already holds
    enough for the high tier (3 matching with 3 players): a further card there adds nothing,
    and the rarest trauma's few cards were lost that way (the visitors' Eternal Darkness)."""
    ded = Deduction(Engine(new_game(3, 2)), "s2")
    likelier = {"betrayal": 0, "tragedy": 1, "suffering": 2, "death": 3}
    other = {"betrayal": 1, "tragedy": 0, "suffering": 2, "death": 3}
    ded.perms = [(likelier, 0.6), (other, 0.4)]
    ded.revealed = [False] * 4
    ded.beneath = [[], [], [], []]
    assert ded.best_position("betrayal") == "1"
    ded = Deduction(Engine(new_game(3, 2)), "s2")
    ded.perms = [(likelier, 0.6), (other, 0.4)]
    ded.revealed = [False] * 4
    ded.beneath = [["betrayal"] * 3, [], [], []]
    assert ded.tier(3, 0) == "high"
    assert ded.best_position("betrayal") == "2"


def test_p_vis_14_the_search_weighs_turn_choices_not_steps_and_never_an_early_end() -> None:
    """#23: the search (normal, hard) looks ahead on a turn's choice and on the prompts that
    shape a game, leaves a walk's door-by-door steps to the heuristic, and never offers a
    visitor End turn with actions left (the idle-turn blunder; P-VIS-14, A-65)."""
    from rules.core.types import Prompt
    from rules.presence import actions as K

    st = new_game(3, 1)
    visitor = st.visitor_seats[0]
    assert GAME.ai_searchable(st, visitor, None)
    assert not GAME.ai_searchable(st, visitor, Action(kind=K.END_TURN))
    assert GAME.ai_searchable(st, st.spirit_seat, Action(kind=K.END_SPIRIT))
    st.prompts.append(Prompt(id="1", kind="movement", seats=[visitor], text="Walk",
                             data={"then": "movement"}))
    assert not GAME.ai_searchable(st, visitor, None)
    st.prompts[-1] = Prompt(id="2", kind="clue_discard", seats=[visitor], text="Discard",
                            data={"then": "clue_discard"})
    assert GAME.ai_searchable(st, visitor, None)


def test_p_secret_03_the_search_never_weighs_an_invoke_where_the_same_evidence_failed() -> None:
    """#23 (a repeated-Invoke blunder at normal, 3 players, seed 24): a play-out's noise must
    not pick a secret whose Invoke failed with the same traumas beneath. Once a card of
    another trauma lies there, the position is a candidate again."""
    from rules.core.types import Prompt
    from tests.presence.helpers import choose

    st = new_game(3, 1)
    visitor = st.visitor_seats[0]
    pack = pack_for(st.pack_path)
    clues = [c for c in st.clue_deck if not pack.is_fear_card(c)]
    first = clues[0]
    other = next(c for c in clues
                 if pack.clue_card(c).trauma != pack.clue_card(first).trauma)
    st.secrets[1].discards = [first]
    st.secrets[1].failed = [1]
    st.prompts.append(Prompt(id="1", kind="reveal_secret", seats=[visitor], text="Invoke",
                             data={"then": "reveal_secret"}))
    assert GAME.ai_searchable(st, visitor, None)
    assert not GAME.ai_searchable(st, visitor, choose("2"))
    assert GAME.ai_searchable(st, visitor, choose("1"))
    st.secrets[1].discards.append(first)  # the same trauma again: still disproven
    assert not GAME.ai_searchable(st, visitor, choose("2"))
    st.secrets[1].discards.append(other)
    assert GAME.ai_searchable(st, visitor, choose("2"))


def test_p_secret_03_the_search_never_weighs_an_invoke_card_when_every_secret_left_is_disproven(
        ) -> None:
    """#23 (stop 36: a repeated-Invoke blunder at normal, 3 players, seed 54): with one secret
    left hidden, where an Invoke failed with the same cards beneath, playing an Invoke card is
    not a challenger for the search (the position it must aim at fails again). Once a card of
    another trauma lies there, or another secret is still untried, it is again."""
    from rules.core.types import act
    from rules.presence import actions as K
    from rules.presence.ai import _is_invoke_play

    st = new_game(3, 1)
    visitor = st.visitor_seats[0]
    pack = pack_for(st.pack_path)
    eng = Engine(st)
    invoke = next(act(K.PLAY, card=c.id, side=i, speed="main") for c in pack.action_cards
                  for i, side in enumerate(c.actions)
                  if any(e.op == "reveal_secret" and e.min_matching >= 1 for e in side.effects))
    assert _is_invoke_play(eng, invoke)
    clues = [c for c in st.clue_deck if not pack.is_fear_card(c)]
    first = clues[0]
    other = next(c for c in clues
                 if pack.clue_card(c).trauma != pack.clue_card(first).trauma)
    for slot in st.secrets[1:]:
        slot.revealed = True
    st.secrets[0].discards = [first]
    st.secrets[0].failed = [1]
    assert not GAME.ai_searchable(st, visitor, invoke)
    assert GAME.ai_searchable(st, visitor, act(K.REST))
    st.secrets[2].revealed = False  # an untried secret left: worth an Invoke again
    assert GAME.ai_searchable(st, visitor, invoke)
    st.secrets[2].revealed = True
    st.secrets[0].discards.append(other)  # new evidence beneath the failed one
    assert GAME.ai_searchable(st, visitor, invoke)


def test_p_secret_03_a_clue_card_goes_where_its_trauma_has_fewest_cards_left_to_come() -> None:
    """G-04 / PR-03 (#23, stop 33): with 3 players the positions print 5 / 4 / 3 / 2 clue
    cards. A card whose trauma is a little likelier at position 1 than at 4 used to go
    beneath 1; but if its trauma is position 1's, four more of its cards are still to come
    and any of them can be the one an Invoke needs, while at position 4 only one more is.
    The card goes where it is likelier to be the one that counts: beneath 4. The rarest
    traumas' secrets (positions 3 and 4) were those left hidden in the lost games."""
    ded = Deduction(Engine(new_game(3, 2)), "s2")
    at_first = {"death": 0, "tragedy": 1, "suffering": 2, "betrayal": 3}
    at_last = {"death": 3, "tragedy": 1, "suffering": 2, "betrayal": 0}
    ded.perms = [(at_first, 0.55), (at_last, 0.45)]
    ded.revealed = [False] * 4
    ded.beneath = [[], [], [], []]
    ded.seen = Counter({"death": 1})
    st = new_game(3, 2)
    assert [p.in_deck for p in pack_for(st.pack_path).secret_board(3).positions] == [5, 4, 3, 2]
    assert ded.where("death") == [0.55, 0.0, 0.0, 0.45]
    assert ded.best_position("death") == "4"
    # once the rare trauma's place is settled, the card follows the odds again
    ded = Deduction(Engine(new_game(3, 2)), "s2")
    ded.perms = [(at_first, 0.9), (at_last, 0.1)]
    ded.revealed = [False] * 4
    ded.beneath = [[], [], [], []]
    ded.seen = Counter({"death": 1})
    assert ded.best_position("death") == "1"


def test_p_secret_05_a_middle_reveal_raises_nerve_which_guards_against_succumbing() -> None:
    """G-05 / P-SUCC-02 (#23, stop 33): a middle reveal lets the revealer raise hope or
    nerve. Nerve is the marker that keeps visitors alive: once it is lost every knock-out
    and every low reveal makes a visitor succumb (P-FEAR-03, P-TRACK-05), which is how
    nearly every revealed script wins. With hope two spaces and nerve three above the time
    marker the visitor used to raise hope (the nearer); it raises nerve now."""
    st = edit(new_game(3, 3))
    st.round = st.time = 5
    st.hope, st.nerve = 7, 8
    slot = st.secrets[2]
    board = pack_for(st.pack_path).secret_board(3)
    trauma = pack_for(st.pack_path).secret(slot.card).trauma
    cards = [c.id for c in pack_for(st.pack_path).clue_cards_for(3) if c.trauma == trauma]
    cards = cards[:board.low_max + 1]
    for c in cards:
        for pile in (st.clue_deck, st.clue_box, *(v.hand for v in st.visitors.values())):
            if c in pile:
                pile.remove(c)
    slot.discards = cards
    e = Engine(st)
    e.reveal_secret(3, "s3")
    e.run()
    assert slot.tier == "middle"
    assert st.prompts[-1].kind == "choice" and st.prompts[-1].seats == ["s3"]
    picked = choose_action(st, "s3", GAME)
    assert picked.p("option") == "1"  # the second branch: nerve +1
    after = GAME.apply(st, "s3", picked).state
    assert (after.hope, after.nerve) == (7, 9)


SEED8 = Path(__file__).resolve().parent.parent / "fixtures" / "presence" / \
    "seed8_round1_piece_together.json"


def test_p_clue_03_two_clue_cards_drawn_outright_beat_one_clue_token() -> None:
    """P-CLUE-03 / G-09 (#23, stop 33): 3 players, seed 8, round 1 (the state as easy played
    it on main, `tests/fixtures/presence/seed8_round1_piece_together.json`): the Descendant
    (p2), two actions left, a spirit clue token in the Dining Hall, holds Investigate
    (descendant.05) and Piece Together (descendant.10: draw 2 clue cards, then discard 1
    card). Investigating was worth 10, level with two clue cards drawn (5 each), and came
    first; two clue cards in hand are evidence the seat reads at once about where every
    trauma lies and cards to place where they count, so Piece Together comes first now."""
    st = PresenceState.model_validate_json(SEED8.read_text())
    assert (st.round, st.active, st.actions_left) == (1, "p2", 2)
    v = st.visitors["p2"]
    assert v.character == "descendant" and {"descendant.05", "descendant.10"} <= set(v.hand)
    assert [t.kind for t in st.tokens[v.room]] == ["spirit"]
    picked = choose_action(st, "p2", GAME)
    assert (picked.kind, picked.p("card"), picked.p("side")) == ("play", "descendant.10", 0)


def test_p_secret_03_in_the_late_rounds_a_visitor_moves_with_a_plain_card_not_its_invoke_card(
        ) -> None:
    """#23 (stop 52, 3 players, seed 4, round 7): once the rounds run out (`scarcity` 0) an
    Invoke card played for its Invoke costs nothing more than the reveal, but its other side
    (Move 2) looked free too, so a visitor moved with its Invoke card rather than a plain
    Move 2 card and had none left for the secret a card beneath made sure the next round.
    While a secret it could reveal is left, the other side costs the Invoke."""
    from rules.core.types import act
    from rules.presence import actions as K
    from rules.presence.ai import (
        CARD_COST,
        INVOKE_CARD_COST,
        LATE_ROUND,
        Board,
        _card_cost,
        _is_invoke_play,
        _score_visitor_action,
        scarcity,
    )

    st = new_game(3, 1)
    visitor = st.visitor_seats[0]
    char = st.visitors[visitor].character
    invoke_card, move_card = f"{char}.07", f"{char}.04"  # Invoke / Move 2, Move 2 / Comfort
    st.visitors[visitor].hand = [invoke_card, move_card]
    st.round = LATE_ROUND + 1
    eng = Engine(st)
    assert scarcity(st) == 0.0  # four secrets hidden, two rounds left
    invoke = act(K.PLAY, card=invoke_card, side=0, speed="main")
    burn = act(K.PLAY, card=invoke_card, side=1, speed="main")
    plain = act(K.PLAY, card=move_card, side=0, speed="main")
    assert _is_invoke_play(eng, invoke) and not _is_invoke_play(eng, burn)
    ded = Deduction(eng, visitor)
    assert _card_cost(eng, ded, invoke_card, invoke) == 0.0
    assert _card_cost(eng, ded, invoke_card, burn) == INVOKE_CARD_COST
    board = Board(eng)
    assert (_score_visitor_action(eng, board, ded, visitor, plain)
            > _score_visitor_action(eng, board, ded, visitor, burn))
    # every secret left disproven (its Invoke failed with nothing new beneath): the card
    # can reveal nothing, and its other side costs what any card does
    for slot in st.secrets[1:]:
        slot.revealed = True
    st.secrets[0].failed = [0]
    eng = Engine(st)
    assert _card_cost(eng, Deduction(eng, visitor), invoke_card, burn) == CARD_COST
