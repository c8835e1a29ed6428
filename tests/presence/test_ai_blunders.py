"""The Presence AI's blunders of issue #23, and the bench census that counts them.

- A failed Invoke (public, H-38) is remembered for the whole game (`SecretSlot.failed`), not
  read back from the 20-line log that forgets it: the AI never aims an Invoke again where the
  same evidence already failed.
- A late turn never ends idle with an Invoke card in hand while a secret may still match
  (`rules.presence.ai.scarcity`: the card's keeping value runs out with the rounds; and a
  late turn about to end with actions left plays a long shot rather than keep it, at every
  level, `ai._last_chance_invoke`, stop 32).
- `bench.blunders` counts both, read from a game's history, on constructed histories that
  hold the blunder and ones that do not; and seeds where today's AI blundered play clean.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.blunders import census
from rules.core.types import Action, act
from rules.presence import ai
from rules.presence.content import default_pack
from rules.presence.engine import Engine
from rules.presence.game import GAME
from rules.presence.state import PresenceState
from tests.presence.helpers import (
    SPIRIT,
    VISITOR,
    Step,
    ai_history,
    invoke_card,
    invoke_scene,
    prompt_kind,
    put_die,
    take_clue,
    trauma_at,
)

PACK = default_pack()


def _step(st: PresenceState, seat: str, action: Action) -> tuple[PresenceState, Step]:
    after = GAME.apply(st, seat, action).state
    return after, (st, seat, action, after)


def _invoke(st: PresenceState, position: int) -> tuple[PresenceState, list[Step]]:
    """s2 plays its Invoke (given back to its hand) at `position`: the two steps."""
    st = st.model_copy(deep=True)
    v = st.visitors[VISITOR]
    card, side = invoke_card(st, VISITOR)
    for pile in (v.deck, v.discard):
        if card in pile:
            pile.remove(card)
    if card not in v.hand:
        v.hand.append(card)
    st.actions_left = max(st.actions_left, 1)
    st, played = _step(st, VISITOR, act("play", card=card, side=side, speed="main"))
    assert prompt_kind(st) == "target" and st.prompts[-1].data.get("then") == "reveal_secret"
    st, chose = _step(st, VISITOR, act("choose", option=str(position)))
    return st, [played, chose]


def _wrong_trauma(st: PresenceState, position: int) -> str:
    """A trauma not at `position` and of no revealed secret."""
    shown = {trauma_at(st, s.position) for s in st.secrets if s.revealed}
    return next(t for t in ai.TRAUMAS if t != trauma_at(st, position) and t not in shown)


def _turn(st: PresenceState, level: str = "easy") -> list[Action]:
    """What the AI does for s2 until its turn passes (every answer of its prompts too), at
    `level`."""
    done: list[Action] = []
    for _ in range(40):
        if GAME.result(st) is not None or VISITOR not in GAME.to_act(st):
            break
        if st.active != VISITOR:
            break
        action = GAME.ai_action(st, VISITOR, level)
        done.append(action)
        st = GAME.apply(st, VISITOR, action).state
    return done


def _plays_invoke(st: PresenceState, actions: list[Action]) -> bool:
    card, side = invoke_card(st, VISITOR)
    return any(a.kind == "play" and a.p("card") == card and a.p("side") == side
               for a in actions)


# ---------------------------------------------------------------- the engine remembers


def test_P_SECRET_03_a_failed_invoke_is_remembered_after_the_log_forgets_it() -> None:
    st = invoke_scene(4)
    wrong = _wrong_trauma(st, 1)
    st.secrets[0].discards = [take_clue(st, wrong)]
    st, _ = _invoke(st, 1)
    assert not st.secrets[0].revealed and st.secrets[0].failed == [1]
    st.log.clear()  # twenty lines later
    for seat in (None, VISITOR, "s3"):
        assert GAME.view(st, seat)["secrets"][0]["failed_invokes"] == [1]
    ded = ai.Deduction(Engine(st), VISITOR)
    assert ded.where(wrong)[0] == 0.0
    assert ded.matching_dist(0) == {0: pytest.approx(1.0)}


# ---------------------------------------------------------------- blunder regressions


def test_P_SECRET_03_the_AI_aims_no_invoke_where_the_same_evidence_failed() -> None:
    """Two clue cards of one trauma beneath position 1 and an Invoke there failed long ago
    (the log no longer says so); position 4 has one card of a trauma that may be its own.
    Today's AI read failures from the log and aimed at position 1 again (the better-looking
    evidence); it must aim at position 4."""
    st = invoke_scene(6)
    wrong = _wrong_trauma(st, 1)
    st.secrets[0].discards = [take_clue(st, wrong), take_clue(st, wrong)]
    st.secrets[0].failed = [2]
    st.secrets[3].discards = [take_clue(st, trauma_at(st, 4))]
    st.log.clear()
    card, side = invoke_card(st, VISITOR)
    at_prompt = GAME.apply(st, VISITOR, act("play", card=card, side=side, speed="main")).state
    assert at_prompt.prompts[-1].data.get("then") == "reveal_secret"
    assert GAME.ai_action(at_prompt, VISITOR).p("option") == "4"


def test_P_SECRET_03_a_late_turn_does_not_end_idle_with_invoke_in_hand() -> None:
    """Round 8, two secrets left, one clue card beneath position 1 of a trauma that is one
    of the two left (an even chance). Today's AI kept the Invoke card "for a surer reveal"
    and ended its turn; with two rounds for two secrets it must try."""
    st = invoke_scene(8, revealed=(2, 3))
    st.secrets[0].discards = [take_clue(st, trauma_at(st, 4))]  # 50 % to the AI: 1 or 4
    assert ai.scarcity(st) == 0.0
    assert _plays_invoke(st, _turn(st))


def test_P_SECRET_03_a_long_shot_invoke_waits_while_rounds_remain() -> None:
    """The fix does not spend the Invoke card on a guess early: round 4, one card beneath
    position 1 of a quarter's chance, the card is kept."""
    st = invoke_scene(4)
    st.secrets[0].discards = [take_clue(st, _wrong_trauma(st, 1))]
    assert ai.scarcity(st) == 1.0
    assert not _plays_invoke(st, _turn(st))


def test_P_SECRET_03_seeds_where_todays_AI_blundered_play_clean() -> None:
    """4 players seed 30: today's AI aimed four Invokes where one had already failed and
    ended a late turn idle with its Invoke; 3 players seed 13: three late turns ended idle
    (bench census over 30 seeds each, issue #23)."""
    for players, seed in ((4, 30), (3, 13)):
        history, result = ai_history([f"p{i}" for i in range(1, players + 1)], seed)
        found = census("presence", history, result)
        assert found["repeated_invoke"] == 0 and found["idle_with_invoke"] == 0, (
            players, seed, dict(found))


# ---------------------------------------------------------------- the census


def test_census_counts_an_invoke_repeated_on_the_same_evidence() -> None:
    st = invoke_scene(4)
    st.secrets[0].discards = [take_clue(st, _wrong_trauma(st, 1))]
    st, first = _invoke(st, 1)
    assert census("presence", first, None)["repeated_invoke"] == 0
    st.log.clear()
    _, again = _invoke(st, 1)
    assert census("presence", first + again, None)["repeated_invoke"] == 1


def test_census_does_not_count_an_invoke_with_new_evidence_beneath() -> None:
    st = invoke_scene(4)
    st.secrets[0].discards = [take_clue(st, _wrong_trauma(st, 1))]
    st, first = _invoke(st, 1)
    st.secrets[0].discards.append(take_clue(st, trauma_at(st, 1)))  # a new trauma beneath
    _, again = _invoke(st, 1)
    assert again[-1][3].secrets[0].revealed
    assert census("presence", first + again, None)["repeated_invoke"] == 0


def _idle_end(st: PresenceState) -> list[Step]:
    _, step = _step(st, VISITOR, act("end_turn"))
    return [step]


def test_census_counts_a_late_turn_ended_idle_with_invoke_in_hand() -> None:
    st = invoke_scene(8, revealed=(2, 3))
    st.secrets[0].discards = [take_clue(st, trauma_at(st, 4))]
    assert census("presence", _idle_end(st), None)["idle_with_invoke"] == 1


def test_census_does_not_count_an_early_or_hopeless_idle_end() -> None:
    early = invoke_scene(3, revealed=(2, 3))
    early.secrets[0].discards = [take_clue(early, trauma_at(early, 4))]
    assert census("presence", _idle_end(early), None)["idle_with_invoke"] == 0
    hopeless = invoke_scene(8, revealed=(2, 3))
    # beneath position 1 only a revealed secret's trauma: it cannot match
    hopeless.secrets[0].discards = [take_clue(hopeless, trauma_at(hopeless, 2))]
    assert census("presence", _idle_end(hopeless), None)["idle_with_invoke"] == 0
    spent = invoke_scene(8, revealed=(2, 3))  # no Invoke card left in hand
    spent.secrets[0].discards = [take_clue(spent, trauma_at(spent, 4))]
    spent.visitors[VISITOR].discard += spent.visitors[VISITOR].hand
    spent.visitors[VISITOR].hand = []
    assert census("presence", _idle_end(spent), None)["idle_with_invoke"] == 0


# ---------------------------------------------------------------- a long shot late (stop 32)


SEED18 = Path(__file__).resolve().parent.parent / "fixtures" / "presence" / \
    "seed18_round7_idle_invoke.json"
"""The state before the idle turn end of stop 31's census: `python -m bench ai --settings
presence:session:4 --seed 18 --sides visitors --level normal` (the spirit p1 at easy), step
208, the Orphan (p3) to act in round 7 with three main actions, secrets 1 and 2 revealed,
one clue card beneath position 4."""


def test_P_SECRET_03_a_late_long_shot_invoke_is_tried_rather_than_an_idle_turn_end() -> None:
    """4 players, seed 18, normal: in round 7 with two secrets left, a 1-in-5 chance at
    position 4 (the one card beneath is death's; position 3 prints four death cards and
    three lie beneath others, position 4 three), the heuristic kept its Invoke card for a
    surer reveal (`scarcity` 2/3: the card's keeping value outweighed the chance) and every
    other action scored at most 0, so it ended its turn with three actions unspent; the
    search could not overrule it (End turn is never a challenger and is kept when nothing
    clears the bar: the visitors' estimate was near 0 on every line, the Invoke's edge 0.0014
    against a 0.03 margin). A late turn never ends idle while a secret may match: at easy
    and at normal the visitor plays its Invoke, and the census finds no idle turn."""
    st = PresenceState.model_validate_json(SEED18.read_text())
    seat = "p3"
    assert (st.round, st.active, st.actions_left) == (7, seat, 3)
    eng = Engine(st)
    ded = ai.Deduction(eng, seat)
    chances = [ai.invoke_chance(eng, ded, k) for k in range(4)]
    assert chances == [0.0, 0.0, 0.0, pytest.approx(0.2)]
    assert ai.scarcity(st) == pytest.approx(2 / 3)
    for level in ("easy", "normal"):
        first = GAME.ai_action(st, seat, level)
        assert first.kind == "play" and first.p("card") == "orphan.07" \
            and first.p("side") == 0, (level, first)  # its Invoke
    history: list[Step] = []
    for _ in range(40):
        if GAME.result(st) is not None or st.active != seat or seat not in GAME.to_act(st):
            break
        st, step = _step(st, seat, GAME.ai_action(st, seat))
        history.append(step)
    assert any(b.prompts and b.prompts[-1].data.get("then") == "reveal_secret"
               and a.p("option") == "4" for b, _s, a, _x in history)  # aimed at position 4
    assert census("presence", history, None)["idle_with_invoke"] == 0


def test_P_SECRET_03_a_late_idle_turn_keeps_an_invoke_that_cannot_match() -> None:
    """The other side of the rule: beneath the unrevealed secrets only cards of revealed
    traumas and no clue card left to draw or reshuffle (no Invoke can reveal anything this
    turn), the turn ends and the card stays in hand."""
    st = invoke_scene(8, revealed=(2, 3))
    st.secrets[0].discards = [take_clue(st, trauma_at(st, 2))]
    st.secrets[3].discards = [take_clue(st, trauma_at(st, 3))]
    st.clue_deck, st.clue_revealed = [], []
    v = st.visitors[VISITOR]
    v.discard = [c for c in v.discard if Engine(st).is_action_card(c)]
    assert not _plays_invoke(st, _turn(st))


def test_P_SECRET_03_a_hopeless_reveal_is_not_aimed_where_the_same_evidence_failed() -> None:
    """4 players, seed 72, normal (stop 32): in round 5 an Invoke's reveal found no position
    that could match, all of them worth alike, and the heuristic aimed at the first, where
    an Invoke had already failed with the same card beneath. Among equals it now aims
    elsewhere."""
    st = invoke_scene(5, revealed=(2, 3))
    st.secrets[0].discards = [take_clue(st, trauma_at(st, 2))]  # a revealed trauma's card
    st.secrets[0].failed = [1]
    st.secrets[3].discards = [take_clue(st, trauma_at(st, 3))]  # likewise, never tried
    card, side = invoke_card(st, VISITOR)
    at_prompt = GAME.apply(st, VISITOR, act("play", card=card, side=side, speed="main")).state
    assert at_prompt.prompts[-1].data.get("then") == "reveal_secret"
    assert GAME.ai_action(at_prompt, VISITOR).p("option") == "4"


def test_p_spirit_11_the_search_never_puts_a_played_card_away_unused() -> None:
    """Stop 60: at normal about 1 spirit card in 16 was played and then answered "No more
    powers" at once (a play-out's noise over the heuristic, which always uses a power): the
    card gone for nothing (P-SPIRIT-11: the engine offers only a die that can pay a power).
    "No more powers" before any power is no challenger for the search, and the census counts
    the blunder (``unused_spirit_card``); after one power it is a fair answer."""
    from tests.presence.helpers import (
        SPIRIT,
        answer,
        do,
        edit,
        new_game,
        put_die,
        quiet,
        to_spirit_turn,
    )

    st = edit(to_spirit_turn(quiet(new_game(3, 1))))
    sp = st.spirit
    card = "spirit_1.torment"  # top [3/1], bottom [5/3]
    for pile in (sp.deck, sp.discard):
        if card in pile:
            pile.remove(card)
    if card not in sp.hand:
        sp.hand.append(card)
    die = put_die(st, "great_hall", 6)  # pays the top power, then the bottom one still
    st, _ = do(st, SPIRIT, act("play_spirit", card=card))
    st = answer(st, str(die))
    done = act("choose", option="done")
    assert done in GAME.legal_actions(st, SPIRIT)
    assert not GAME.ai_searchable(st, SPIRIT, done)
    assert GAME.ai_searchable(st, SPIRIT, act("choose", option="top"))
    after = GAME.apply(st, SPIRIT, done).state
    assert census("presence", [(st, SPIRIT, done, after)], None)["unused_spirit_card"] == 1
    used = answer(st, "top")
    while used.prompts and used.prompts[-1].data.get("then") != "power":
        used = answer(used, GAME.legal_actions(used, used.prompts[-1].seats[0])[0]
                      .params["option"], used.prompts[-1].seats[0])
    assert used.prompts[-1].data.get("used") == ["top"]
    assert GAME.ai_searchable(used, SPIRIT, done)  # one power used: stopping is fair
    later = GAME.apply(used, SPIRIT, done).state
    assert not census("presence", [(used, SPIRIT, done, later)], None)


def test_p_spirit_11_the_search_never_plays_a_card_only_to_put_it_away() -> None:
    """Stop 60, seed 1 at normal: the spirit played Guidance (its powers help a visitor), the
    heuristic then rightly used neither power: a card gone for nothing, where Increase
    Presence with it raises a die. A play none of whose powers the heuristic would use is no
    challenger; one it would use stays one."""
    from rules.presence import actions as K
    from rules.presence.ai import spirit_mode
    from tests.presence.helpers import SPIRIT, edit, new_game, put_die, quiet, to_spirit_turn

    st = edit(to_spirit_turn(quiet(new_game(3, 2))))
    assert spirit_mode(Engine(st)) == "harm"  # seed 2's script is evil
    sp = st.spirit
    for card in ("spirit_1.guidance", "spirit_1.torment"):
        for pile in (sp.deck, sp.discard):
            if card in pile:
                pile.remove(card)
        if card not in sp.hand:
            sp.hand.append(card)
    put_die(st, "great_hall", 5)
    guidance = act(K.PLAY_SPIRIT, card="spirit_1.guidance")
    assert guidance in GAME.legal_actions(st, SPIRIT)
    assert not GAME.ai_searchable(st, SPIRIT, guidance)
    # Increase Presence with the same card stays a fair challenger, and so does a card whose
    # power harms a visitor.
    assert GAME.ai_searchable(st, SPIRIT, act(K.INCREASE, card="spirit_1.guidance"))
    torment = act(K.PLAY_SPIRIT, card="spirit_1.torment")
    assert torment in GAME.legal_actions(st, SPIRIT)
    assert GAME.ai_searchable(st, SPIRIT, torment)


def test_the_spirit_ai_never_spends_its_last_presence_on_moving_the_die_it_fades() -> None:
    """Stop 66's demos (three times): the AI's spirit played Broken Form's bottom power
    ("Move this die to an adjacent room", needs 1, spends 1) with a die showing 1: the spend
    faded the die, so it could not move ("The die cannot move: it faded."), and a card and a
    die were thrown away for nothing. Such a play is never made; with a die showing 2 the
    power moves the die and keeps its worth."""
    from tests.presence.helpers import new_game, put_die, quiet, to_spirit_turn

    st = to_spirit_turn(quiet(new_game(3, 1)))
    for d in st.dice:
        d.room = None
    die = put_die(st, "salon", 1)
    card = next(c for c in ai.Engine(st).pack.spirit_deck(st.spirit.character)
                if c.endswith(".broken_form"))
    eng = Engine(st)
    faded = ai._power_worth(eng, ai.Board(eng), card, "bottom", die)
    st.dice[die].value = 2
    eng = Engine(st)
    moved = ai._power_worth(eng, ai.Board(eng), card, "bottom", die)
    assert faded == -ai.INF and faded < moved, (faded, moved)


def test_P_SPIRIT_08_the_spirit_ai_never_moves_a_die_into_lit_rooms_only_to_fade_it() -> None:
    """Stop 68's demo (three times in one game): Broken Form's bottom power ("Move this die
    to an adjacent room", spends 1) played with a die showing 2 whose every neighbour was lit:
    the die came in showing 1, lost its last presence to the light and faded, a card and a die
    thrown away. Such a play is never made; with one neighbour dark it keeps its worth."""
    from tests.presence.helpers import new_game, put_die, quiet, to_spirit_turn

    st = to_spirit_turn(quiet(new_game(3, 1)))
    eng = Engine(st)
    room = "salon"
    die = put_die(st, room, 2)
    around = eng.die_neighbours(room)
    assert len(around) >= 2, around
    visitors = list(st.visitors.values())
    assert len(visitors) >= len(around)
    for v, there in zip(visitors, around, strict=False):
        v.room, v.candle_lit = there, True
    for v in visitors[len(around):]:
        v.room = around[0]
    card = next(c for c in eng.pack.spirit_deck(st.spirit.character)
                if c.endswith(".broken_form"))
    eng = Engine(st)
    assert all(eng.lit(r) for r in around)
    fades = ai._power_worth(eng, ai.Board(eng), card, "bottom", die)
    visitors[len(around) - 1].room = around[0]  # one neighbour goes dark
    eng = Engine(st)
    assert not eng.lit(around[-1])
    lives = ai._power_worth(eng, ai.Board(eng), card, "bottom", die)
    assert fades == -ai.INF and lives > -ai.INF, (fades, lives)


def test_P_SPIRIT_08_a_die_showing_1_steps_into_a_dark_room_not_a_lit_one_where_it_fades(
) -> None:
    """Stop 68's demo (three times in one game): Broken Form's bottom power took a die showing
    2 down to 1 and the AI's spirit then moved it into the lit room beside it, where it lost
    its last presence and faded, though a dark room was next door too."""
    from rules.presence import actions as K
    from tests.presence.helpers import (
        SPIRIT,
        answer,
        do,
        new_game,
        options,
        put_die,
        quiet,
        to_spirit_turn,
    )
    from tests.presence.test_rules_spirit import give

    st = to_spirit_turn(quiet(new_game(3, 2)))
    assert ai.spirit_mode(Engine(st)) == "harm"  # seed 2's script is evil
    die = put_die(st, "salon", 2)
    around = Engine(st).die_neighbours("salon")
    lit_room = around[0]
    for v in st.visitors.values():
        v.room, v.candle_lit = lit_room, True
    card = next(c for c in Engine(st).pack.spirit_deck(st.spirit.character)
                if c.endswith(".broken_form"))
    give(st, card)
    st, _ = do(st, SPIRIT, act(K.PLAY_SPIRIT, card=card))
    st = answer(st, str(die))
    st = answer(st, "bottom")
    assert st.prompts and st.prompts[-1].data.get("then") == "die_step", st.prompts
    assert st.dice[die].value == 1 and lit_room in options(st)
    eng = Engine(st)
    assert any(not eng.lit(r) for r in options(st))
    pick = str(GAME.ai_action(st, SPIRIT).p("option"))
    assert not eng.lit(pick), pick
    # A person at the same prompt is told it too (guided play, their own view only).
    from rules.presence.guide import advice

    told = advice(GAME.view(st, SPIRIT), SPIRIT) or ""
    assert "a die showing 1 fades there" in told, told


def test_the_spirit_ai_never_plays_a_power_whose_every_effect_is_on_a_target_nobody_is() -> None:
    """Stop 67's demos: the spirit played Whisper's bottom power ("A nearby visitor may draw
    1 clue card") with nobody in its die's room: "Nobody to target ... the effects on a
    target do nothing", a card and a presence spent for nothing. Such a power is never worth
    playing; with a visitor in the room it keeps its worth."""
    from tests.presence.helpers import new_game, put_die, quiet, to_spirit_turn

    st = to_spirit_turn(quiet(new_game(3, 1)))
    for d in st.dice:
        d.room = None
    die = put_die(st, "salon", 3)
    for v in st.visitors.values():
        v.room = "great_hall"
    card = next((c for c in ai.Engine(st).pack.spirit_deck(st.spirit.character)
                 if c.endswith(".whisper")), None)
    assert card is not None, st.spirit.character
    eng = Engine(st)
    nobody = ai._power_worth(eng, ai.Board(eng), card, "bottom", die)
    next(iter(st.visitors.values())).room = "salon"
    eng = Engine(st)
    someone = ai._power_worth(eng, ai.Board(eng), card, "bottom", die)
    assert nobody == -ai.INF and someone > -ai.INF, (nobody, someone)


# ---------------------------------------------------------------- Rests (stop 67)


def _dig_scene(invoke_in_deck: bool, fear_of_sleep: bool) -> PresenceState:
    """Round 7, s2's turn in the Great Hall, nothing on the board: positions 1-3 revealed,
    one clue card of position 4's trauma beneath it (ready for an Invoke), four plain action
    cards in hand, three in the deck, and s2's Invoke card in the deck or in its discard
    (where a Rest that draws from the deck cannot reach it)."""
    st = invoke_scene(7, revealed=(1, 2, 3))
    v = st.visitors[VISITOR]
    card, _side = invoke_card(st, VISITOR)
    plain = [c for c in v.discard if Engine(st).is_action_card(c)]
    v.hand, v.deck, v.discard = plain[:4], plain[4:7], plain[7:]
    (v.deck if invoke_in_deck else v.discard).append(card)
    v.fear_cards = ["fear.sleep"] if fear_of_sleep else []
    st.secrets[3].discards = [take_clue(st, trauma_at(st, 4))]
    return st


def test_p_basic_01_a_rest_digs_for_the_invoke_only_where_its_draws_may_hold_it() -> None:
    """Stop 67: a visitor without its Invoke card rested up to three times in one turn to
    dig for it, each Rest a fear from Fear of Sleep and a draw from a deck that did not hold
    the Invoke (it lay in the discard). Digging is still worth a Rest where the cards drawn
    may hold the Invoke; where they cannot, Fear of Sleep's fear outweighs one card drawn."""
    st = _dig_scene(invoke_in_deck=False, fear_of_sleep=True)
    assert ai._digging(Engine(st), ai.deduction(Engine(st), VISITOR), st.visitors[VISITOR])
    assert GAME.ai_action(st, VISITOR).kind != "rest"
    assert GAME.ai_action(_dig_scene(invoke_in_deck=True, fear_of_sleep=True),
                          VISITOR).kind == "rest"


def _sure_clue_scene() -> PresenceState:
    """s2's turn in the Great Hall, nothing to investigate or draw anywhere (the clue deck
    spent), positions 1-3 revealed: its two clue cards (of rooms elsewhere) are sure of their
    place, and its hand is one card short."""
    st = invoke_scene(5, revealed=(1, 2, 3))
    v = st.visitors[VISITOR]
    card, _side = invoke_card(st, VISITOR)
    plain = [c for c in v.discard if Engine(st).is_action_card(c)]
    # plain clue cards (the Library's special ones have a quick side), of rooms elsewhere
    clues = [next(c for c in st.clue_deck if not PACK.is_fear_card(c)
                  and PACK.clue_card(c).trauma == trauma_at(st, k)
                  and PACK.clue_card(c).room not in ("library", v.room)) for k in (1, 2)]
    for c in clues:
        st.clue_deck.remove(c)
    v.hand, v.deck, v.discard = [card, plain[0], *clues], plain[1:6], plain[6:]
    st.clue_box += st.clue_deck
    st.clue_deck = []
    return st


def test_p_clue_05_no_clue_card_is_played_for_an_investigate_that_finds_nothing() -> None:
    """Stop 67: with no clue token left in the room, the AI played a clue card for its
    Investigate (nothing to find, nothing to draw) only to put it beneath its secret, where
    one Rest puts both its clue cards there and draws: the Rest now counts that progress."""
    st = _sure_clue_scene()
    assert GAME.ai_action(st, VISITOR).kind == "rest"
    for _ in range(40):  # the whole turn: no clue card's Investigate where no token lies
        if GAME.result(st) is not None or st.active != VISITOR:
            break
        seat = sorted(GAME.to_act(st))[0]
        action = GAME.ai_action(st, seat)
        if seat == VISITOR and action.kind == "play" and not st.prompts:
            eng = Engine(st)
            if not eng.is_action_card(str(action.p("card"))):
                effects, _card = ai._action_effects(eng, eng.vis(VISITOR), action)
                assert not (any(e.get("op") == "investigate" for e in effects)
                            and not st.tokens.get(eng.vis(VISITOR).room)), action
        st = GAME.apply(st, seat, action).state


def test_p_basic_01_no_turn_of_the_heuristic_rests_three_times() -> None:
    """Stop 67: seed 3's Orphan rested three times in round 6 (digging for an Invoke that
    its deck did not hold, Fear of Sleep's fear each time). Over whole seeded games of the
    heuristic, no visitor's turn takes three Rests it was not made to take."""
    for seed in range(1, 6):
        st = GAME.setup(["s1", "s2", "s3", "s4"], GAME.options_model(), seed)
        rests: dict[tuple[int, str], int] = {}
        while GAME.result(st) is None:
            seat = sorted(GAME.to_act(st))[0]
            action = GAME.ai_action(st, seat)
            if action.kind == "rest" and not st.must_rest:
                key = (st.round, seat)
                rests[key] = rests.get(key, 0) + 1
            st = GAME.apply(st, seat, action).state
        assert max(rests.values(), default=0) < 3, (seed, rests)


def test_p_fear_03_a_card_is_not_spent_on_its_quick_side_while_its_main_side_saves_a_visitor(
        ) -> None:
    """Stop 67's demo, round 8, hope and nerve lost: the Descendant, one fear from a
    knock-out (now succumbing, P-FEAR-03), played Comfort / Relight for Relight (quick,
    taken first whenever it helps at all) and lost the Comfort that cured; the spirit's
    next Touch made it succumb. A card's quick side waits while its main side is worth
    more: over the turn Comfort / Relight is played for Comfort, never for Relight."""
    st = invoke_scene(8)
    v = st.visitors[VISITOR]
    eng = Engine(st)
    cards = {eng.card_name(c): c for c in v.discard + v.hand if eng.is_action_card(c)}
    comfort = cards["Comfort / Relight"]
    v.hand = [comfort, cards["Piece Together / Move 2"], cards["Move 3 / Investigate"]]
    v.discard = [c for c in v.discard if c not in v.hand]
    v.fear, v.candle_lit = v.fear + 4, False
    assert v.fear == PACK.visitor(v.character).fear_track - 1
    relight = act("play", card=comfort, side=1, speed="quick")
    assert relight in GAME.legal_actions(st, VISITOR)
    played = [a for a in _turn(st) if a.kind == "play" and a.p("card") == comfort]
    assert played and all(a.p("side") == 0 for a in played), played


# ---------------------------------------------------------------- the spirit pawn (stop 68)


def _glide_scene(die_value: int | None, kitchen_die: int | None = 1) -> PresenceState:
    """The spirit's turn, its pawn in the Salon with 3 actions; every visitor in the
    Kitchen next door, candles lit; the spirit holds no card; no die anywhere but, if
    `die_value`, one in the Salon and, if `kitchen_die`, one in the Kitchen (it pays the
    pawn's drain there, P-MANI-02). Its script is revealed: it wants to frighten."""
    from tests.presence.helpers import new_game, put_die, quiet, to_spirit_turn

    st = to_spirit_turn(quiet(new_game(4, 1)))
    st.script_revealed = True
    st.spirit.discard += st.spirit.hand
    st.spirit.hand = []
    st.spirit.pawn_room = "salon"
    st.spirit.pawn_actions = 3
    for v in st.visitors.values():
        v.room = "kitchen"
        v.candle_lit = True
    if die_value is not None:
        put_die(st, "salon", die_value)
    if kitchen_die is not None:
        put_die(st, "kitchen", kitchen_die)
        next(d for d in st.dice if d.room == "kitchen").moved = True  # it stays there
    return st


def _spirit_turn_played(st: PresenceState) -> list[tuple[PresenceState, Action]]:
    """The easy AI plays the spirit's turn to its end: each (state, action) on the way."""
    seen: list[tuple[PresenceState, Action]] = []
    while st.phase == "spirit" and len(seen) < 60:
        action = GAME.ai_action(st, SPIRIT)
        seen.append((st, action))
        st = GAME.apply(st, SPIRIT, action).state
    return seen


def test_P_MANI_04_G_13_the_spirit_ai_never_glides_to_stop_where_it_stands() -> None:
    """Stop 68: the spirit AI valued a Glide by the best neighbouring room, lit or not, but
    the pawn may enter a lit room only by paying 1 presence from a die in its own room
    (G-13, P-MANI-04); with no such die the step offered nothing better and the pawn
    "stays in the Salon" after its Glide, three times a turn (55 of 97 Glides in 200 easy
    4-player games). The Glide is valued by the step it will take, with the one valuation
    the step itself is chosen by: with a die to pay, the pawn glides into the lit Kitchen
    full of visitors; without one, it does not glide at all."""
    kitchen = "kitchen"
    eng = Engine(_glide_scene(None))
    assert kitchen in eng.die_neighbours("salon") and ai.spirit_mode(eng) == "harm"
    for die_value, glides in ((None, False), (2, True)):
        seen = _spirit_turn_played(_glide_scene(die_value))
        steps = [(a.p("option"), s.spirit.pawn_room) for s, a in seen
                 if s.prompts and s.prompts[-1].data.get("then") == "pawn_step"]
        glided = [a for _s, a in seen if a.kind == "pawn" and a.p("action") == "manifest.glide"]
        assert len(steps) == len(glided), (die_value, seen)
        assert all(option != "stop" for option, _room in steps), (die_value, steps)
        assert bool(glided) == glides, (die_value, steps)
        if glides:
            assert steps[0] == (kitchen, "salon"), steps


def test_P_MANI_02_the_spirit_pawn_does_not_glide_away_from_its_only_die() -> None:
    """Stop 68: a Glide took the pawn from its only die into a room with none, and at
    upkeep nothing near the pawn could pay its drain: the pawn was removed (P-MANI-02). With
    a die in the Kitchen the pawn glides in to the visitors; without one it stays by its die
    (a helping spirit, which lets the pawn go at upkeep anyway, is not held back)."""
    for kitchen_die, glides in ((1, True), (None, False)):
        seen = _spirit_turn_played(_glide_scene(2, kitchen_die))
        into = [a.p("option") for s, a in seen
                if s.prompts and s.prompts[-1].data.get("then") == "pawn_step"
                and a.p("option") != "stop"]
        assert (into[:1] == ["kitchen"]) == glides, (kitchen_die, into)
        assert all(Engine(s).dice_in(str(a.p("option"))) for s, a in seen
                   if s.prompts and s.prompts[-1].data.get("then") == "pawn_step"
                   and a.p("option") != "stop"), (kitchen_die, into)


def _reassure_scene(fear: int) -> tuple[PresenceState, str]:
    """s2's turn with a Library clue card (its quick side: Reassure, cure 1 fear of a nearby
    visitor) whose secret is revealed, so the card is only worth its cure and its place;
    everyone in s2's room at `fear`, no fear card anywhere."""
    st = invoke_scene(3, revealed=(1,))
    card = next(c for c in st.clue_deck if not PACK.is_fear_card(c)
                and PACK.clue_card(c).trauma == trauma_at(st, 1)
                and any(a.name == "Reassure" for a in PACK.clue_card(c).actions))
    st.clue_deck.remove(card)
    st.visitors[VISITOR].hand.append(card)
    for v in st.visitors.values():
        v.fear, v.fear_cards = fear, []
    return st, card


def test_P_FEAR_07_reassure_is_not_played_with_nobody_to_cure() -> None:
    """Stop 69's demo: the AI played Reassure while no visitor it could pick had any fear:
    the cure did nothing and the card's quick side was spent (its clue card goes beneath a
    secret at the next Rest all the same). With fear to cure, it is played."""
    st, card = _reassure_scene(0)
    picked = GAME.ai_action(st, VISITOR)
    assert not (picked.kind == "play" and picked.p("card") == card), picked
    st, card = _reassure_scene(2)
    picked = GAME.ai_action(st, VISITOR)
    assert picked.kind == "play" and picked.p("card") == card, picked


def test_P_MANI_02_the_spirit_does_not_move_the_pawns_only_die_away() -> None:
    """Stop 69's two-player demo: the spirit manifested in the Cellar, then moved the die
    there away, and nothing near the pawn could pay its drain at upkeep (P-MANI-02). A
    harming spirit keeps one die by its pawn: the Salon's only die stays while the pawn has
    no action to follow it; with a second die there, one of them goes to the visitors."""
    for second, moves in ((False, False), (True, True)):
        st = _glide_scene(3, kitchen_die=None)
        st.spirit.pawn_actions = 0
        if second:
            put_die(st, "salon", 3)
        seen = _spirit_turn_played(st)
        moved = [a for _s, a in seen if a.kind == "move_die"]
        assert bool(moved) == moves, (second, [a for _s, a in seen])
        if second:
            assert any(d.room == "salon" for d in seen[-1][0].dice), seen[-1][0].dice


def test_P_MANI_02_broken_forms_move_keeps_the_pawns_only_die() -> None:
    """Stop 69's two-player demo: the spirit manifested, then played Broken Form's bottom power
    ("Move this die to an adjacent room") on the die beside its pawn, and nothing near the pawn
    could pay its drain at upkeep (P-MANI-02). The power's worth counts the stranded pawn as
    the Move Presence Die action does: the Salon's only die stays while the pawn cannot
    follow it."""
    st = _glide_scene(3, kitchen_die=None)
    st.spirit.pawn_actions = 0
    card = next(c for c in st.spirit.discard if c.endswith(".broken_form"))
    st.spirit.discard.remove(card)
    st.spirit.hand = [card]
    seen = _spirit_turn_played(st)
    played = [a for _s, a in seen if a.kind == "play" or a.p("option") == "bottom"]
    assert not any(a.p("option") == "bottom" for a in played), [a for _s, a in seen]
    assert any(d.room == "salon" for d in seen[-1][0].dice), seen[-1][0].dice
