"""More rule checks: targets, succumbing, light, limits, drain markers, skipped turns."""

from __future__ import annotations

from rules.core.types import act
from rules.presence.content import default_pack
from rules.presence.game import GAME
from rules.presence.state import DrainState
from tests.presence.helpers import (
    SPIRIT,
    answer,
    do,
    edit,
    eng,
    new_game,
    prompt_kind,
    put_die,
    quiet,
    settle,
    to_spirit_turn,
)

PACK = default_pack()


def test_P_SPIRIT_13_P_KO_04_knocked_out_visitors_are_not_targets() -> None:
    st = to_spirit_turn(quiet(new_game(3, 5)))
    st.visitors["s2"].knocked_out = True
    e = eng(st)
    ctx = e.spirit_ctx(None, "great_hall", "test")
    e.step_effects([{"op": "target", "selector": "nearby_visitor"},
                    {"op": "suffer_fear", "n": 1, "who": "target"}], 0, ctx)
    e.run()
    st = settle(st)
    assert st.visitors["s2"].fear == 0 and st.visitors["s3"].fear == 1


def test_P_SUCC_05_bond_returns_when_the_bonded_visitor_succumbs() -> None:
    st = edit(quiet(new_game(3, 5)))
    st.bonded = "s3"
    e = eng(st)
    e.succumb("s3")
    e.run()
    st = settle(st, prefer=("1",))
    assert st.bonded is None and st.visitors["s3"].succumbed


def test_P_ROUND_06_succumbed_visitor_is_skipped() -> None:
    st = edit(quiet(new_game(4, 5)))
    st.visitors["s3"].succumbed = True
    st.visitors["s3"].knocked_out = True
    st, _ = do(st, "s2", act("end_turn"))
    st = settle(st)
    assert st.active == "s4"


def test_P_WIN_07_no_visitor_left_spirit_turns_continue() -> None:
    st = edit(quiet(new_game(3, 5)))
    for v in st.visitors.values():
        v.succumbed = True
        v.knocked_out = True
    st.prompts = []
    st.queue = []
    e = eng(st)
    e.step_round_start()
    e.run()
    assert st.phase == "spirit" and st.active == SPIRIT


def test_P_TRACK_05_reducing_a_lost_nerve_makes_the_forced_visitor_succumb() -> None:
    st = edit(quiet(new_game(3, 5)))
    st.nerve = None
    e = eng(st)
    e.adjust_track("nerve", -1, "s2")
    e.run()
    st = settle(st, prefer=("1",))
    assert st.visitors["s2"].succumbed
    hope = st.hope
    eng(st).adjust_track("hope", 2, None)
    assert st.hope == min(12, (hope or 0) + 2)


def test_P_LIGHT_02_04_fireplace_lights_the_dining_hall() -> None:
    st = edit(quiet(new_game(3, 5)))
    for v in st.visitors.values():
        v.candle_lit = False
    assert not eng(st).lit("dining_hall")
    st.visitors["s2"].room = "dining_hall"
    e = eng(st)
    e.step_effects([{"op": "light_fireplace"}], 0, e.visitor_ctx("s2", "Match"))
    e.run()
    st.visitors["s2"].room = "great_hall"
    assert st.fireplace_lit and eng(st).lit("dining_hall")


def test_P_SPIRIT_06_die_reduced_to_zero_returns_to_supply() -> None:
    st = edit(quiet(new_game(3, 5)))
    d = put_die(st, "salon", 1)
    eng(st).set_die(d, 0)
    die = next(x for x in st.dice if x.id == d)
    assert die.room is None and d in eng(st).supply()


def test_P_LIMIT_02_spirit_discards_down_to_n() -> None:
    st = to_spirit_turn(quiet(new_game(3, 5)))
    st.spirit.hand += [st.spirit.deck.pop(), st.spirit.deck.pop()]
    st, _ = do(st, SPIRIT, act("end_spirit"))
    assert prompt_kind(st) == "hand_limit" and st.prompts[-1].seats == [SPIRIT]
    st = answer(st, st.spirit.hand[0])
    st = answer(st, st.spirit.hand[0])
    assert len(st.spirit.hand) == 3


def test_P_DRAIN_05_P_MANI_05_no_free_marker_or_pawn_already_out() -> None:
    st = to_spirit_turn(quiet(new_game(3, 5)))
    card = "spirit_1.piano_music"
    for pile in (st.spirit.deck, st.spirit.discard):
        if card in pile:
            pile.remove(card)
            st.spirit.hand.append(card)
    others = [c for c in PACK.spirit_deck("spirit_1") if c not in st.spirit.hand][:6]
    for c in others:
        for pile in (st.spirit.deck, st.spirit.discard):
            if c in pile:
                pile.remove(c)
    st.drains = [DrainState(card=c, power="top", room="salon") for c in others]
    put_die(st, "salon", 6)
    e = eng(st)
    assert e.power_need(PACK.spirit_card(card).top) == 99
    st.spirit.pawn_room = "salon"
    assert eng(st).power_need(PACK.spirit_card("spirit_1.broken_form").top) == 99


def test_P_CLUE_06_revealed_cards_are_public() -> None:
    st = edit(quiet(new_game(3, 5)))
    e = eng(st)
    top = st.clue_deck[-1]
    e.step_effects([{"op": "reveal_clue_deck", "n": 1}], 0, e.visitor_ctx("s2", "Nursery"))
    e.run()
    view = GAME.view(st, None)
    assert [c["id"] for c in view["clue_revealed"]] == [top]


def test_P_FEAR_07_08_cure_floor_and_no_fear_while_knocked_out() -> None:
    st = edit(quiet(new_game(3, 5)))
    e = eng(st)
    e.cure_fear("s2", 2)
    assert st.visitors["s2"].fear == 0
    st.visitors["s2"].knocked_out = True
    e.suffer_fear("s2", 2)
    assert st.visitors["s2"].fear == 0


def test_P_ITEM_01_02_search_puts_items_next_to_the_board_and_use_discards() -> None:
    st = edit(quiet(new_game(3, 5)))
    st.visitors["s2"].room = "kitchen"
    st, _ = do(st, "s2", act("room_action", index=0, speed="main"))
    st = settle(st)
    items = st.visitors["s2"].items
    assert len(items) == 1 and items[0] not in st.visitors["s2"].hand
    view = GAME.view(st, None)
    assert [i["id"] for i in next(v for v in view["visitors"] if v["seat"] == "s2")["items"]] \
        == items
