"""Visitor turns: main and quick actions, movement and doors, clues, fear, items, knock-outs."""

from __future__ import annotations

import pytest

from rules.core.errors import IllegalAction
from rules.core.types import act
from rules.presence.content import default_pack
from rules.presence.game import GAME
from tests.presence.helpers import (
    SPIRIT,
    active_visitor,
    answer,
    do,
    edit,
    eng,
    new_game,
    options,
    prompt_kind,
    put_die,
    put_token,
    quiet,
    settle,
)

PACK = default_pack()


def base(seed: int = 1) -> object:
    return quiet(new_game(3, seed))


def test_P_VIS_01_02_three_main_actions_unused_lost() -> None:
    st = new_game(3, 1)
    assert st.actions_left == 3
    st, _ = do(st, "s2", act("walk"))
    st = answer(st, "stop")
    assert st.actions_left == 2
    st, _ = do(st, "s2", act("end_turn"))
    st = settle(st)
    assert st.active == "s3" and st.actions_left == 3


def test_P_BASIC_03_P_MOVE_02_03_walk_opens_a_door_then_needs_another_point() -> None:
    st = base()
    st, _ = do(st, "s2", act("walk"))
    assert prompt_kind(st) == "movement"
    opts = options(st)
    assert "open:D01" in opts and not any(o.startswith("go:") for o in opts)  # closed
    st = answer(st, "open:D01")
    assert st.doors["D01"].open and st.visitors["s2"].room == "great_hall"
    assert not st.prompts  # the single point is spent (P-MOVE-01)
    st, _ = do(st, "s2", act("walk"))
    st = answer(st, "go:D01")
    assert st.visitors["s2"].room == "salon"


def test_P_MOVE_04_locked_door_cannot_be_opened_but_open_locked_can_be_passed() -> None:
    st = edit(base())
    st.visitors["s2"].room = "kitchen"
    st, _ = do(st, "s2", act("walk"))
    assert "open:D06" not in options(st)
    st = settle(st)
    st = edit(st)
    st.doors["D06"].open = True  # locked while open
    st, _ = do(st, "s2", act("walk"))
    assert "go:D06" in options(st) and "close:D06" in options(st)
    st = answer(st, "go:D06")
    assert st.visitors["s2"].room == "cellar"


def test_P_BASIC_01_rest_discards_any_then_draws_to_five() -> None:
    st = edit(base())
    v = st.visitors["s2"]
    action_cards = [c for c in v.hand if c.startswith(v.character)]
    st, _ = do(st, "s2", act("rest"))
    assert prompt_kind(st) == "rest_discard"
    st = answer(st, action_cards[0])
    st = answer(st, action_cards[1])
    st = answer(st, "done")
    st = settle(st)
    assert len(st.visitors["s2"].hand) == 5
    assert set(action_cards[:2]) <= set(st.visitors["s2"].discard)


def test_P_LIMIT_01_hand_limit_at_end_of_own_turn() -> None:
    st = edit(base())
    v = st.visitors["s2"]
    while len(v.hand) < 7:
        v.hand.append(v.deck.pop())
    st, _ = do(st, "s2", act("end_turn"))
    assert prompt_kind(st) == "hand_limit" and st.prompts[-1].seats == ["s2"]
    st = answer(st, options(st)[0])
    st = answer(st, options(st)[0]) if prompt_kind(st) == "hand_limit" else st
    while prompt_kind(st) == "clue_discard":
        st = answer(st, "1")
    assert len(st.visitors["s2"].hand) == 5
    assert st.active == "s3"


def test_P_CLUE_02_investigate_reveals_token_and_resolves_it() -> None:
    st = edit(base())
    put_token(st, "great_hall", "small", "small.clue#1")
    before = len(st.visitors["s2"].hand) + len(st.visitors["s2"].fear_cards)
    card = next(c for c in st.visitors["s2"].hand if c.endswith(".01"))
    st, _ = do(st, "s2", act("play", card=card, side=1, speed="main"))
    st = settle(st)
    assert "great_hall" not in st.tokens
    assert st.small_clue_discard == ["small.clue#1"]
    v = st.visitors["s2"]
    # the card was discarded, one clue card drawn instead
    assert len(v.hand) + len(v.fear_cards) == before
    assert card in v.discard


def test_P_CLUE_05_clue_card_discarded_beneath_chosen_secret() -> None:
    st = edit(base())
    v = st.visitors["s2"]
    clue = next(c for c in st.clue_deck if not PACK.is_fear_card(c))
    st.clue_deck.remove(clue)
    v.hand.append(clue)
    st, _ = do(st, "s2", act("play", card=clue, side=1, speed="main"))
    st = settle(st, prefer=("stop", "no", "done", "3"))
    assert clue in st.secrets[2].discards and clue not in st.visitors["s2"].hand


def test_P_CLUE_03_draw_from_revealed_row_or_deck() -> None:
    st = edit(base())
    revealed = st.clue_deck.pop(0)
    st.clue_revealed.append(revealed)
    e = eng(st)
    e.draw_clue("s2")
    assert prompt_kind(st) == "draw_source"
    assert set(options(st)) == {"deck", revealed}


def test_P_FEAR_02_03_P_KO_02_knock_out_costs_nerve_and_ends_turn() -> None:
    st = edit(base())
    v = st.visitors["s2"]
    v.fear = 4
    v.fear_cards = [st.clue_deck.pop(next(i for i, c in enumerate(st.clue_deck)
                                          if PACK.is_fear_card(c)))]
    e = eng(st)
    e.suffer_fear("s2", 3)
    e.run()
    st = settle(st, prefer=("1",))
    v = st.visitors["s2"]
    assert v.knocked_out and v.fear == 5 and not v.candle_lit
    assert not v.fear_cards and v.hand == []
    assert st.nerve == 7
    assert st.active == "s3"  # the turn ended (P-KO-02)


def test_P_KO_06_P_BASIC_02_knocked_out_must_rest_first_and_rises() -> None:
    st = edit(base())
    st.visitors["s2"].knocked_out = True
    st.visitors["s2"].fear = 5
    st.visitors["s2"].candle_lit = False
    st = active_visitor(st, "s2")
    kinds = {a.kind for a in GAME.legal_actions(st, "s2")}
    assert kinds == {"rest", "end_turn"}
    with pytest.raises(IllegalAction) as err:
        GAME.apply(st, "s2", act("walk"))
    assert err.value.rule
    st, _ = do(st, "s2", act("rest"))
    st = settle(st, prefer=("done",))
    v = st.visitors["s2"]
    assert not v.knocked_out and v.fear == 4
    assert "walk" in {a.kind for a in GAME.legal_actions(st, "s2")}


def test_P_SUCC_02_nerve_lost_means_succumbing() -> None:
    st = edit(base())
    st.nerve = None
    st.visitors["s2"].fear = 4
    e = eng(st)
    e.suffer_fear("s2", 1)
    e.run()
    st = settle(st, prefer=("1",))
    v = st.visitors["s2"]
    assert v.succumbed and v.knocked_out
    assert "s2" not in [s for s in st.visitor_seats if not st.visitors[s].succumbed]


def test_P_FEAR_04_spirit_may_increase_a_die_near_fear() -> None:
    st = edit(base())
    die = put_die(st, "great_hall", 2)
    e = eng(st)
    e.suffer_fear("s2", 2)
    e.run()
    assert prompt_kind(st) == "fear_bonus" and st.prompts[-1].seats == [SPIRIT]
    st = answer(st, str(die))
    st = answer(st, str(die))
    assert next(d for d in st.dice if d.id == die).value == 4


def test_P_FEAR_05_fear_card_goes_in_front_of_the_drawer() -> None:
    st = edit(base())
    fear = next(c for c in st.clue_deck if PACK.is_fear_card(c))
    st.clue_deck.remove(fear)
    st.clue_deck.append(fear)
    e = eng(st)
    e.draw_clue("s2")
    e.run()
    assert fear in st.visitors["s2"].fear_cards and fear not in st.visitors["s2"].hand


def test_P_FEAR_06_fear_card_reaction_end_turn_in_the_dark() -> None:
    st = edit(base())
    st.visitors["s2"].fear_cards = ["fear.darkness"]
    for pile in (st.clue_deck, st.clue_box):
        if "fear.darkness" in pile:
            pile.remove("fear.darkness")
    st.visitors["s2"].candle_lit = False
    st.visitors["s3"].room = "salon"
    st, _ = do(st, "s2", act("end_turn"))
    st = settle(st)
    assert st.visitors["s2"].fear == 1


def test_P_ITEM_05_item_limit_two() -> None:
    st = edit(base())
    v = st.visitors["s2"]
    v.items = [st.item_deck.pop(), st.item_deck.pop()]
    e = eng(st)
    e.gain_item("s2", st.item_deck.pop())
    e.run()
    assert prompt_kind(st) == "item_limit"
    st = answer(st, options(st)[0])
    assert len(st.visitors["s2"].items) == 2 and len(st.cellar) == 1


def test_P_BASIC_04_trade_needs_a_nearby_visitor_who_accepts() -> None:
    st = edit(base())
    st.visitors["s2"].items = [st.item_deck.pop()]
    item = st.visitors["s2"].items[0]
    st, _ = do(st, "s2", act("trade", to="s3"))
    st = answer(st, item)
    if prompt_kind(st) == "trade_pick":
        st = answer(st, "offer")
    assert prompt_kind(st) == "trade_accept" and st.prompts[-1].seats == ["s3"]
    st = answer(st, "yes")
    assert st.visitors["s3"].items == [item] and st.visitors["s2"].items == []
    assert st.actions_left == 3  # a quick action
    st2 = edit(st)
    st2.visitors["s3"].room = "salon"
    assert not any(a.kind == "trade" for a in GAME.legal_actions(st2, "s2"))


def test_P_BASIC_05_P_LIGHT_01_smother_own_candle_darkens_room() -> None:
    st = edit(base())
    st.visitors["s3"].room = "salon"
    e = eng(st)
    assert e.lit("great_hall")
    st, _ = do(st, "s2", act("smother"))
    assert not st.visitors["s2"].candle_lit and not eng(st).lit("great_hall")


def test_P_VIS_10_quick_actions_off_turn_while_the_game_rests() -> None:
    st = base()
    assert GAME.may_act(st, "s3") and "s3" not in GAME.to_act(st)
    kinds = {a.kind for a in GAME.legal_actions(st, "s3")}
    assert "smother" in kinds and "walk" not in kinds and "rest" not in kinds
    st, _ = do(st, "s3", act("smother"))
    st = answer(st, "pass")  # the active player passes the tie first (P-VIS-11)
    assert not st.visitors["s3"].candle_lit
    st, _ = do(st, "s2", act("walk"))
    # during movement nobody else may act (P-VIS-05)
    assert not GAME.may_act(st, "s3")


def test_P_VIS_09_dark_banner_applies_only_in_a_dark_room() -> None:
    st = edit(base())
    v = st.visitors["s2"]
    card = "descendant.05"  # Investigate (dark: then draw 1 clue card and suffer 1 fear)
    for pile in (v.deck, v.discard):
        if card in pile:
            pile.remove(card)
            v.hand.append(card)
    st.visitors["s2"].candle_lit = False
    st.visitors["s3"].candle_lit = False
    st, _ = do(st, "s2", act("play", card=card, side=0, speed="main"))
    st = settle(st, prefer=("no",))
    assert st.visitors["s2"].fear == 1


def test_P_SECRET_02_03_invoke_reveals_when_matching_cards_lie_beneath() -> None:
    st = edit(base())
    v = st.visitors["s2"]
    card = "descendant.07"  # Invoke
    for pile in (v.deck, v.discard):
        if card in pile:
            pile.remove(card)
            v.hand.append(card)
    trauma = PACK.secret(st.secrets[0].card).trauma
    mine = [c for c in st.clue_deck if not PACK.is_fear_card(c)
            and PACK.clue_card(c).trauma == trauma][:2]
    for c in mine:
        st.clue_deck.remove(c)
        st.secrets[0].discards.append(c)
    st, _ = do(st, "s2", act("play", card=card, side=0, speed="main"))
    assert prompt_kind(st) == "target"
    st = answer(st, "1")
    assert st.secrets[0].revealed
    # N=3 board: low <= 1, high >= 3 -> two matching cards = the middle tier
    assert st.secrets[0].tier == "middle"
