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


# ---------------------------------------------------------------- no silent caps (issue #12, 8)


def test_PR_10_every_revealed_clue_card_is_offered_even_past_25() -> None:
    """Discord's 25 options per select are the bot's to page; the engine offers every legal
    answer (prompts used to drop all but the first 25)."""
    st = edit(quiet(new_game(5, 3)))
    clues = [c for c in st.clue_deck if not PACK.is_fear_card(c)]
    st.clue_revealed = clues[:30] if len(clues) >= 30 else clues
    for c in st.clue_revealed:
        st.clue_deck.remove(c)
    assert len(st.clue_revealed) + 1 > 25, "the scene needs more than 25 answers"
    e = eng(st)
    e.draw_clue("s2")
    e.run()
    opts = [o[0] for o in st.prompts[-1].data["options"]]
    assert set(st.clue_revealed) <= set(opts) and ("deck" in opts) == bool(st.clue_deck)
    assert all(len(o[1]) <= 80 for o in st.prompts[-1].data["options"])
    legal = GAME.legal_actions(st, "s2")
    assert {a.p("option") for a in legal} == set(opts)


def test_PR_08_rest_offers_every_card_of_a_big_hand() -> None:
    st = edit(quiet(new_game(5, 3)))
    v = st.visitors["s2"]
    v.hand += v.deck[:]  # an unusually large hand: every card must still be offered
    v.deck = []
    clues = [c for c in st.clue_deck if not PACK.is_fear_card(c)][:20]
    v.hand += clues
    st.clue_deck = [c for c in st.clue_deck if c not in clues]
    assert len(v.hand) > 25
    st, _ = do(st, "s2", act("rest"))
    opts = [o[0] for o in st.prompts[-1].data["options"]]
    assert set(v.hand) <= set(opts) and "done" in opts


def test_A_48_the_quick_action_cap_is_told_to_the_player() -> None:
    """A-48's technical cap stays (two visitors could trade forever), but a player who hits
    it is told, in the event stream and when trying again, instead of losing the buttons
    without a word."""
    st = edit(quiet(new_game(3, 3)))
    cap = PACK.options.quick_action_cap
    st.visitors["s2"].quick_used = cap - 1
    st, events = do(st, "s2", act("smother"))
    told = [e for e in events if e.kind == "limit"]
    assert told and told[0].audience == ["s2"] and "A-48" in told[0].text
    assert not any(a.kind == "smother" or a.p("speed") == "quick"
                   for a in GAME.legal_actions(st, "s2"))
    from rules.core.errors import IllegalAction
    try:
        GAME.apply(st, "s2", act("trade", to="s3"))
    except IllegalAction as err:
        assert "A-48" in str(err)
    else:  # pragma: no cover
        raise AssertionError("a quick action past the cap was accepted")


def test_PR_17_a_long_power_label_is_cut_at_a_word_and_kept_whole_in_the_prompt() -> None:
    """Discord allows 80 characters on a label; a longer one (a spirit power's text) is cut
    at a word with an ellipsis, and its full wording is kept in the prompt's text."""
    st = to_spirit_turn(quiet(new_game(3, 5)))
    long = ("Top power [1/0, drain 1]: Drain 1. At the start of each spirit turn, one visitor "
            "in the drain room or in a room sharing an open door with it suffers 1 fear.")
    e = eng(st)
    e.ask("power", SPIRIT, "Which power?", [("top", long), ("done", "No more powers")], "power")
    p = st.prompts[-1]
    label = dict(p.data["options"])["top"]
    assert len(label) <= 80 and label.endswith("…") and long.startswith(label[:-1])
    assert long[len(label) - 1] == " " or long[len(label) - 1] in ",;:."  # not mid-word
    assert long in p.text and dict(p.data["options"])["done"] == "No more powers"


def test_A_48_the_spirit_is_told_when_it_reaches_the_spirit_action_cap() -> None:
    from rules.presence.engine import SPIRIT_ACTION_CAP

    st = to_spirit_turn(quiet(new_game(3, 5)))
    st.spirit_actions = SPIRIT_ACTION_CAP - 1
    card = st.spirit.hand[0]
    out = GAME.apply(st, SPIRIT, act("increase", card=card))
    told = [e for e in out.events if e.kind == "limit"]
    assert told and told[0].audience == [SPIRIT] and "A-48" in told[0].text


def _target_lines(st: object, selector: str, room: str, **extra: object) -> list[str]:
    e = eng(st)
    ctx = e.spirit_ctx(None, room, "test")
    e.step_effects([{"op": "target", "selector": selector, **extra},
                    {"op": "suffer_fear", "n": 1, "who": "target"}], 0, ctx)
    e.run()
    return [ev.text for ev in e.events if ev.kind == "target"]


def test_P_SPIRIT_13_a_power_with_nobody_to_target_says_so() -> None:
    """A spent power that finds nobody in reach says why, in public words (the Lonely Touch
    demo read "The spirit uses the bottom power of Lonely Touch (spends 1)." and nothing)."""
    st = to_spirit_turn(quiet(new_game(3, 5)))
    room = st.visitors["s2"].room
    assert room is not None
    empty = next(r for r in PACK.manor.rooms
                 if all(v.room != r.id for v in st.visitors.values()))
    assert _target_lines(st, "nearby_visitor", empty.id) == [
        f"Nobody to target: no visitor is in the {empty.name}, so the effects on a target "
        "do nothing."]
    # the visitors stand together, so none of them is alone (P-DIST-04)
    assert _target_lines(st, "alone_nearby_visitor", room) == [
        f"Nobody to target: no visitor in the {PACK.room(room).name} is alone, so the effects "
        "on a target do nothing."]
    assert _target_lines(st, "bonded_visitor", room) == [
        "Nobody to target: no visitor is bonded to the spirit, so the effects on a target do "
        "nothing."]
    for v in st.visitors.values():
        v.knocked_out = True
    assert _target_lines(st, "nearby_visitor", room) == [
        "Nobody to target: a knocked-out visitor cannot be targeted, so the effects on a "
        "target do nothing."]
    # someone to target: the "Targeted:" line alone, as before
    st = to_spirit_turn(quiet(new_game(3, 5)))
    lines = _target_lines(st, "nearby_visitor", room, count="all")
    assert len(lines) == 1 and lines[0].startswith("Targeted: ")
