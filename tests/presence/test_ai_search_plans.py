"""The visitors' search at normal (#23, stop 31): whole plans as candidates, more worlds where
the secrets are won or lost, and an override only on an edge the shared worlds agree on.

- `Presence.ai_plans` (`rules.presence.ai.visitor_plans`): an Invoke now comes first on a
  turn (its timing is a plan the search weighs against keeping the card), Trade and Smother
  last; at a clue discard the likeliest positions first, at a reveal the best Invoke worth.
- `Presence.ai_budget` (`rules.presence.ai.weighty`): a clue discard, a reveal and a turn
  with Invoke in hand get `WEIGHTY_WORLDS` times the worlds and one candidate more; every
  other decision, and every spirit decision, the level as it is.
- The normal level overrides the heuristic only past a margin *and* two standard errors.
"""

from __future__ import annotations

from rules.core.search import level_of
from rules.core.types import Prompt
from rules.presence import actions as K
from rules.presence.ai import Deduction, visitor_plans, weighty
from rules.presence.engine import Engine
from rules.presence.game import GAME, PRESENCE_LEVELS, WEIGHTY_WORLDS
from tests.presence.helpers import VISITOR, invoke_card, invoke_scene, take_clue


def _with_hand(round_: int, extra: int) -> tuple[object, str]:
    st = invoke_scene(round_)
    v = st.visitors[VISITOR]
    v.hand += [c for c in v.discard if Engine(st).is_action_card(c)][:extra]
    card, _ = invoke_card(st, VISITOR)
    return st, card


def test_p_secret_03_an_invoke_now_is_the_first_plan_the_search_weighs() -> None:
    """Invoke timing (#23): the heuristic keeps the Invoke card for a surer reveal until the
    rounds run out; the search must weigh playing it now whatever `Level.width` leaves out,
    so it comes first among the plans, before the other cards, and Trade or Smother (which
    the heuristic never takes) come last."""
    st, card = _with_hand(3, 3)
    st.secrets[0].discards = [take_clue(st, "betrayal")]
    plans = GAME.ai_plans(st, VISITOR)
    legal = [a for a in GAME.legal_actions(st, VISITOR) if a.kind != K.END_TURN]
    assert {a.key() for a in plans} == {a.key() for a in legal}
    assert plans[0].kind == K.PLAY and plans[0].p("card") == card
    heuristic_never = [i for i, a in enumerate(plans) if a.kind in (K.TRADE, K.SMOTHER)]
    assert all(i > len(plans) - 1 - len(heuristic_never) for i in heuristic_never)


def test_p_clue_05_the_search_weighs_the_likeliest_positions_of_a_clue_card_first() -> None:
    """A clue discard's plans run from the position its trauma most likely lies at down, so a
    width of 5 never drops the likely right one (P-CLUE-05, P-SECRET-01)."""
    st = invoke_scene(3)
    card = take_clue(st, "death")
    st.visitors[VISITOR].hand.append(card)
    eng = Engine(st)
    eng.step_discard_clue(VISITOR, card)
    st = eng.st
    legal = GAME.legal_actions(st, VISITOR)
    assert len(legal) >= 2
    plans = visitor_plans(st, VISITOR, GAME)
    where = Deduction(Engine(st), VISITOR).where("death")
    odds = [where[int(str(a.p("option"))) - 1] for a in plans]
    assert odds == sorted(odds, reverse=True) and odds[0] > odds[-1]


def test_p_secret_03_weighty_decisions_get_more_worlds_and_others_the_level() -> None:
    """`ai_budget`: a turn with Invoke in hand, a clue discard and a reveal get
    `WEIGHTY_WORLDS` times the worlds and one more candidate; a turn without Invoke and every
    spirit decision keep the level as it is."""
    normal = level_of(GAME, "normal")
    assert normal is not None
    st, _ = _with_hand(3, 2)
    assert weighty(st, VISITOR)
    more = GAME.ai_budget(st, VISITOR, normal)
    assert more.simulations == normal.simulations * WEIGHTY_WORLDS > normal.simulations
    assert more.width == normal.width + 1
    assert GAME.ai_budget(st, st.spirit_seat, normal) == normal
    v = st.visitors[VISITOR]
    card, _ = invoke_card(st, VISITOR)
    v.hand.remove(card)
    v.discard.append(card)
    assert not weighty(st, VISITOR)
    assert GAME.ai_budget(st, VISITOR, normal) == normal
    for then in ("clue_discard", "reveal_secret"):
        st.prompts = [Prompt(id="1", kind="target", seats=[VISITOR], text="?",
                             data={"then": then})]
        assert weighty(st, VISITOR)
    st.prompts = [Prompt(id="1", kind="target", seats=[VISITOR], text="?",
                         data={"then": "target"})]
    assert not weighty(st, VISITOR)


def test_the_normal_search_overrides_only_an_edge_clear_of_noise() -> None:
    """Stop 31: the 0.1 margin let the search overrule 2-4 of 100 decisions (normal played
    easy's game); a small margin with two standard errors of the paired differences lets a
    steady small edge through and keeps a lucky world's out."""
    from rules.core.search import clear_edge

    normal = PRESENCE_LEVELS["normal"]
    assert normal.margin < 0.1 and normal.confidence >= 2.0
    steady = {w: 0.55 + 0.01 * (w % 3) for w in range(12)}
    base = {w: 0.5 + 0.01 * (w % 3) for w in range(12)}
    assert clear_edge(steady, base, normal)
    lucky = {w: (1.0 if w == 0 else 0.5) for w in range(12)}
    assert not clear_edge(lucky, {w: 0.5 for w in range(12)}, normal)


