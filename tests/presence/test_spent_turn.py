"""A-65: a visitor turn whose main actions are spent ends by itself, unless the hand limit or an
end-of-turn reaction makes a quick action worth taking first; games stored before the ruling
keep holding such turns open."""

from __future__ import annotations

from rules.core.rng import Rng
from rules.core.types import act
from rules.presence.content import default_pack
from rules.presence.game import GAME
from rules.presence.state import PresenceState
from tests.presence.helpers import active_visitor, answer, do, edit, eng, new_game, quiet

PACK = default_pack()


def spent_walker(st: PresenceState, seat: str = "s2") -> PresenceState:
    """`seat`'s turn with one main action left, nothing in the way of a quiet board."""
    st = active_visitor(quiet(st), seat, actions=1)
    v = st.visitors[seat]
    v.fear_cards = []
    v.items = []
    v.hand = v.hand[:2]
    return st


def walk_and_stop(st: PresenceState, seat: str = "s2") -> PresenceState:
    st, _ = do(st, seat, act("walk"))
    return answer(st, "stop")


def test_A_65_P_VIS_02_a_spent_turn_ends_by_itself() -> None:
    st = spent_walker(new_game(3, 1))
    assert st.spent_turns_end
    out = GAME.apply(st, "s2", act("walk"))
    st = answer(out.state, "stop")
    assert st.active == "s3" and st.actions_left == 3
    assert GAME.to_act(st) == {"s3"}
    lines = [e.text for e in GAME.apply(out.state, "s2", act("choose", option="stop")).events]
    assert any("no main actions left: the turn ends." in t for t in lines)


def test_A_65_P_VIS_10_quick_actions_stay_available_after_the_turn() -> None:
    st = walk_and_stop(spent_walker(new_game(3, 1)))
    assert st.active == "s3"
    # P-VIS-10: on the next visitor's turn, s2 may still smother its candle (a quick action)
    assert act("smother") in GAME.legal_actions(st, "s2")


def test_A_65_P_LIMIT_01_over_the_hand_limit_the_turn_stays_open() -> None:
    st = spent_walker(new_game(3, 1))
    v = st.visitors["s2"]
    v.hand = (v.hand + v.deck)[:PACK.options.hand_size + 1]
    assert len(v.hand) > PACK.options.hand_size
    st = walk_and_stop(st)
    assert st.active == "s2" and st.actions_left == 0 and not st.prompts
    assert act("end_turn") in GAME.legal_actions(st, "s2")


def test_A_65_an_end_of_turn_reaction_holds_the_turn_open() -> None:
    st = spent_walker(new_game(3, 1))
    dark = next(c.id for c in PACK.fear_cards if c.reaction.trigger.event == "end_of_own_turn")
    st.visitors["s2"].fear_cards = [dark]
    st = walk_and_stop(st)
    assert st.active == "s2" and st.actions_left == 0
    st, _ = do(st, "s2", act("end_turn"))
    assert st.active != "s2" or st.prompts


def test_A_65_a_game_stored_before_the_ruling_holds_spent_turns_open() -> None:
    st = edit(spent_walker(new_game(3, 1)))
    st.spent_turns_end = False  # as an older stored state reads (the field's default)
    st = walk_and_stop(st)
    assert st.active == "s2" and st.actions_left == 0
    assert PresenceState.model_validate({k: v for k, v in st.model_dump().items()
                                         if k != "spent_turns_end"}).spent_turns_end is False
    fresh = GAME.setup(list(st.seats), GAME.options_model(), 1)
    assert GAME.replay_rulings(fresh, st).spent_turns_end is False
    assert GAME.replay_rulings(fresh, fresh).spent_turns_end is True


def test_A_65_whether_a_turn_stays_open_reads_nothing_hidden() -> None:
    """H-17: the rule reads public components only; every re-deal of what the table cannot
    see (hands, decks) gives the same answer."""
    for seed in range(1, 6):
        st = new_game(3, seed)
        for seat in st.visitor_seats:
            here = active_visitor(st, seat, actions=0)
            held = eng(here).holds_spent_turn(seat)
            for k in range(4):
                other = GAME.resample(here, None, Rng.from_seed(100 * seed + k))
                assert eng(other).holds_spent_turn(seat) == held
