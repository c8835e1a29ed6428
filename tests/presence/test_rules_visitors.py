"""Scenario tests naming the visitor-side P rule ids (setup, visitor turn, basic actions,
movement, distance, light, fear, items, knock-outs, succumbing, card limits, table talk).

Each test starts a real game with a fixed seed (`tests.presence.helpers.new_game`), edits the
state into the situation the rule is about, drives the engine only through `GAME.apply` (or
one engine primitive when the rule is about that primitive) and asserts on the state, on the
public view or on `IllegalAction.rule`.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest
from pydantic import ValidationError

from rules.core.errors import IllegalAction
from rules.core.types import act
from rules.presence.content import default_pack
from rules.presence.game import GAME
from rules.presence.state import PresenceState
from tests.presence.helpers import (
    SPIRIT,
    active_visitor,
    answer,
    choose,
    do,
    edit,
    eng,
    fresh,
    new_game,
    options,
    prompt_kind,
    put_die,
    put_token,
    quiet,
    settle,
    to_spirit_turn,
)

PACK = default_pack()


def base(n: int = 3, seed: int = 1) -> PresenceState:
    """A game at the first visitor's turn with no clue tokens and no dice on the board."""
    return edit(quiet(new_game(n, seed)))


def give(st: PresenceState, seat: str, card: str) -> None:
    """Put one of the visitor's own action cards (or a clue card) into their hand."""
    v = st.visitors[seat]
    for pile in (v.deck, v.discard, st.clue_deck, st.clue_box):
        if card in pile:
            pile.remove(card)
    if card not in v.hand:
        v.hand.append(card)


def kinds(st: PresenceState, seat: str) -> set[str]:
    return {a.kind for a in GAME.legal_actions(st, seat)}


# ---------------------------------------------------------------------------- setup (P-SETUP)
def test_p_setup_01_options_are_chosen_and_validated_before_dealing() -> None:
    """Mode and options are fixed before any card is dealt: bad values never reach setup,
    and the chosen ones shape the deal (script preset, fear difficulty, Hope Track side)."""
    fields = set(GAME.options_model.model_fields)
    assert {"mode", "scripts", "fear", "hope_track"} <= fields
    for bad in ({"mode": "campaign"}, {"fear": "nightmare"}, {"hope_track": "C"},
                {"scripts": "chaos"}):
        with pytest.raises(ValidationError):
            GAME.options_model(**bad)
    easy = new_game(3, 4, scripts="expert", fear="easy", hope_track="A")
    hard = new_game(3, 4, scripts="cooperative", fear="hard", hope_track="B")
    assert len(easy.display_scripts) == 7 and len(hard.display_scripts) == 3
    fears = [sum(PACK.is_fear_card(c) for c in g.clue_deck) for g in (easy, hard)]
    assert fears == [2, 6]
    assert (easy.hope, easy.nerve) != (hard.hope, hard.nerve)


@pytest.mark.parametrize("n", [3, 5])
def test_p_setup_02_player_count_filter_on_marked_components(n: int) -> None:
    st = new_game(n, 3)
    in_game = set(st.clue_deck + st.clue_box + st.clue_revealed)
    for v in st.visitors.values():
        in_game |= set(v.hand)
    clue_cards = {c for c in in_game if c in {cc.id for cc in PACK.clue_cards}}
    assert clue_cards == {c.id for c in PACK.clue_cards_for(n)}
    assert max(PACK.clue_card(c).mark for c in clue_cards) == n
    assert set(st.rooms) == set(PACK.rooms_in_play(n))
    assert all(set(d.rooms) <= set(st.rooms) for d in st.doors.values())


def test_p_setup_09_the_secret_board_for_the_player_count_sets_the_removals() -> None:
    boards = {n: [p.remove for p in PACK.secret_board(n).positions] for n in (3, 4, 5)}
    assert len({tuple(b) for b in boards.values()}) == 3  # the boards differ per N
    for n in (3, 4, 5):
        st = new_game(n, 6)
        removed = Counter(PACK.clue_card(c).trauma for c in st.clue_box
                          if not PACK.is_fear_card(c))
        want = Counter({PACK.secret(s.card).trauma: k
                        for s, k in zip(st.secrets, boards[n], strict=True) if k})
        assert removed == want


def test_p_setup_11_spirit_deck_is_the_twelve_cards_of_the_chosen_spirit_shuffled() -> None:
    a, b = new_game(3, 1), new_game(3, 2)
    for st in (a, b):
        cards = st.spirit.hand + st.spirit.deck
        assert sorted(cards) == sorted(PACK.spirit_deck(st.spirit.character))
        assert len(cards) == 12
    assert a.spirit.character == b.spirit.character
    assert a.spirit.hand + a.spirit.deck != b.spirit.hand + b.spirit.deck


def test_p_setup_14_sixteen_small_clues_shuffled_face_down() -> None:
    orders = []
    for seed in (1, 2):
        st = new_game(3, seed)
        on_board = [t.id for ts in st.tokens.values() for t in ts if t.kind == "small"]
        assert sorted(st.small_clue_pile + on_board) == sorted(PACK.small_clue_instances())
        assert len(PACK.small_clue_instances()) == 16
        assert all("id" not in t for r in GAME.view(st, None)["rooms"] for t in r["tokens"])
        orders.append(st.small_clue_pile)
    assert orders[0] != orders[1]


def test_p_setup_15_each_visitor_picks_a_unique_character_fear_at_the_start() -> None:
    st = fresh(4, 1)
    st = answer(st, options(st)[0])  # the spirit character
    taken: list[str] = []
    for seat in ("s2", "s3", "s4"):
        assert st.prompts[-1].seats == [seat]
        opts = options(st)
        assert not set(taken) & set(opts)
        taken.append(opts[0])
        st = answer(st, opts[0])
    while st.prompts:
        st = answer(st, options(st)[0])
    assert [st.visitors[s].character for s in ("s2", "s3", "s4")] == taken
    for v in st.visitors.values():
        assert v.fear == 0 and v.candle_lit and v.room == PACK.manor.start_room
        assert not v.knocked_out


def test_p_setup_23_clue_deck_is_shuffled() -> None:
    a, b = new_game(4, 1), new_game(4, 2)
    assert a.clue_deck != sorted(a.clue_deck)
    common = [c for c in a.clue_deck if c in b.clue_deck]
    assert common != [c for c in b.clue_deck if c in a.clue_deck]
    assert GAME.view(a, None)["clue_deck"] == len(a.clue_deck)


def test_p_setup_25_one_script_drawn_in_secret_the_rest_seen_by_nobody() -> None:
    st = new_game(3, 5, scripts="expert")
    assert len(st.script_pool) == len(st.display_scripts) - 1
    assert GAME.view(st, SPIRIT)["spirit_private"]["script"]["id"] == st.script
    for who in (None, "s2", "s3"):
        assert GAME.view(st, who)["scripts"]["script"] is None
    # which displayed script was drawn shows in no visitor's view: swap it with an
    # undrawn one and nothing they see changes; the spirit's own view does change
    other = edit(st)
    k = next(i for i, s in enumerate(other.script_pool)
             if PACK.script(s).type == PACK.script(st.script).type)
    other.script, other.script_pool[k] = other.script_pool[k], other.script
    for who in (None, "s2", "s3"):
        assert GAME.view(other, who) == GAME.view(st, who)
    assert GAME.view(other, SPIRIT) != GAME.view(st, SPIRIT)


def test_p_setup_29_each_visitor_draws_five_from_their_own_deck() -> None:
    st = new_game(4, 2)
    for v in st.visitors.values():
        actions = [c for c in v.hand if eng(st).is_action_card(c)]
        assert len(actions) == 5 and len(v.deck) == 5
        assert all(PACK.action_card(c).owner == v.character for c in actions + v.deck)


def test_p_setup_32_the_game_starts_in_round_one_with_the_marker_holder() -> None:
    st = new_game(5, 3)
    assert (st.round, st.time, st.phase) == (1, 1, "visitor")
    assert st.active == st.visitor_seats[0] == "s2"
    assert GAME.to_act(st) == {"s2"} and st.actions_left == 3


def take_item(st: PresenceState, item_id: str) -> str:
    """Take one copy of `item_id` out of the item deck (or the box) and return its id."""
    pool = [i for i in st.item_deck if i.split("#")[0] == item_id]
    inst = pool[0] if pool else next(i for i in PACK.item_instances()
                                     if i.split("#")[0] == item_id)
    if inst in st.item_deck:
        st.item_deck.remove(inst)
    return inst


# ------------------------------------------------------------------- visitor turn (P-VIS)
def test_p_vis_02_unused_main_actions_do_not_carry_over() -> None:
    st = base()
    st, _ = do(st, "s2", act("end_turn"))
    st = settle(st)
    assert st.active == "s3"
    st, _ = do(st, "s3", act("end_turn"))
    st = settle(st)
    st, _ = do(st, SPIRIT, act("end_spirit"))
    st = settle(st)
    assert st.round == 2 and st.active == "s2"
    assert st.actions_left == 3  # not 3 + the 3 left unused in round 1


def test_p_vis_04_room_actions_only_for_the_visitor_standing_there() -> None:
    st = base()
    st.visitors["s2"].room = "salon"  # Rummage: draw 1 action card
    clue = next(c for c in st.clue_deck if not PACK.is_fear_card(c))
    give(st, "s2", clue)
    st.visitors["s2"].items = [take_item(st, "item.pocket_watch")]
    legal = GAME.legal_actions(st, "s2")
    by_kind = Counter(a.kind for a in legal)
    assert by_kind["room_action"] == 1 and by_kind["use_item"] == 1
    assert {"rest", "walk", "end_turn"} <= set(by_kind)
    assert any(a.kind == "play" and a.params["card"] == clue for a in legal)
    # s3 in the Great Hall, alone, has neither the Salon's action nor the Great Hall's
    st3 = active_visitor(st, "s3")
    assert not any(a.kind == "room_action" for a in GAME.legal_actions(st3, "s3"))
    with pytest.raises(IllegalAction):
        GAME.apply(st3, "s3", act("room_action", index=0, speed="main"))
    hand = len(st.visitors["s2"].hand)
    st, _ = do(st, "s2", act("room_action", index=0, speed="main"))
    assert len(st.visitors["s2"].hand) == hand + 1 and st.actions_left == 2


def test_p_vis_06_play_one_action_of_a_card_then_discard_it() -> None:
    st = base()
    card = "descendant.01"  # Move 3 / Investigate
    give(st, "s2", card)
    st, _ = do(st, "s2", act("play", card=card, side=1, speed="main"))  # Investigate
    st = settle(st)
    v = st.visitors["s2"]
    assert card in v.discard and card not in v.hand and st.actions_left == 2
    assert not st.prompts  # the Move 3 half was not resolved as well
    with pytest.raises(IllegalAction) as err:
        GAME.apply(st, "s2", act("play", card=card, side=0, speed="main"))
    assert err.value.rule == "P-VIS-06"


def test_p_vis_07_discard_destinations() -> None:
    st = base()
    v = st.visitors["s2"]
    clue = next(c for c in st.clue_deck if not PACK.is_fear_card(c))
    give(st, "s2", clue)
    watch = take_item(st, "item.pocket_watch")
    v.items = [watch]
    st, _ = do(st, "s2", act("use_item", item=watch, speed="main"))
    st = settle(st)
    assert st.cellar == [watch] and not st.visitors["s2"].items  # items: the Cellar
    action = next(c for c in st.visitors["s2"].hand if eng(st).is_action_card(c))
    st, _ = do(st, "s2", act("rest"))
    st = answer(st, action)
    st = answer(st, clue)
    assert prompt_kind(st) == "clue_discard" and st.prompts[-1].seats == ["s2"]
    st = answer(st, "4")  # the discarder chooses the clue discard
    st = answer(st, "done")
    assert action in st.visitors["s2"].discard  # action cards: the owner's discard
    assert st.secrets[3].discards == [clue] and clue not in st.visitors["s2"].hand


def test_p_vis_08_perform_as_much_of_an_action_as_possible() -> None:
    st = base()
    v = st.visitors["s2"]
    glass = take_item(st, "item.magnifying_glass")  # Investigate, then draw 1 clue card
    watch = take_item(st, "item.pocket_watch")  # draw 2 action cards
    v.items = [glass, watch]
    st.clue_deck.append(next(c for c in st.clue_box if not PACK.is_fear_card(c)))
    top = st.clue_deck[-1]
    st, _ = do(st, "s2", act("use_item", item=glass, speed="main"))
    st = settle(st)
    assert top in st.visitors["s2"].hand  # no clue token to reveal, the draw still happens
    st = edit(st)
    v = st.visitors["s2"]
    v.discard = []
    v.deck = v.deck[:1]
    hand = len(v.hand)
    st, _ = do(st, "s2", act("use_item", item=watch, speed="main"))
    assert len(st.visitors["s2"].hand) == hand + 1  # one card left to draw, not two


def test_p_vis_13_action_deck_reshuffles_its_discard_and_the_discard_is_public() -> None:
    st = base()
    v = st.visitors["s2"]
    v.discard = v.deck[:3]
    v.deck = []
    v.hand = [c for c in v.hand if eng(st).is_action_card(c)][:1]
    public = GAME.view(st, None)
    seen = next(x for x in public["visitors"] if x["seat"] == "s2")
    assert [d["id"] for d in seen["discard"]] == v.discard
    st, _ = do(st, "s2", act("rest"))
    st = answer(st, "done")
    v = st.visitors["s2"]
    assert len(v.hand) == 4 and not v.deck and not v.discard  # 1 + 3: the draw stops there


def test_p_vis_14_end_turn_passes_left_without_drawing() -> None:
    st = base()
    v = st.visitors["s2"]
    v.hand = v.hand[:2]
    st, _ = do(st, "s2", act("end_turn"))
    st = settle(st)
    assert len(st.visitors["s2"].hand) == 2
    assert st.active == "s3" and st.actions_left == 3


def test_p_vis_15_knocked_out_off_turn_must_rest_first_on_their_turn() -> None:
    st = base()
    st.visitors["s3"].fear = 4
    e = eng(st)
    e.suffer_fear("s3", 1)
    e.run()
    st = settle(st, prefer=("1", "no"))
    assert st.visitors["s3"].knocked_out and st.active == "s2"  # s2's turn goes on
    st, _ = do(st, "s2", act("end_turn"))
    st = settle(st)
    assert st.active == "s3" and st.must_rest
    assert kinds(st, "s3") == {"rest", "end_turn"}
    with pytest.raises(IllegalAction) as err:
        GAME.apply(st, "s3", act("walk"))
    assert err.value.rule == "P-KO-06"
    st, _ = do(st, "s3", act("rest"))
    st = settle(st, prefer=("done",))
    assert not st.visitors["s3"].knocked_out and st.actions_left == 2
    assert "walk" in kinds(st, "s3")


def test_p_vis_16_p_comm_02_no_view_shows_another_visitors_hand() -> None:
    st = new_game(4, 2)
    for seat in ("s2", "s3", "s4"):
        hand = st.visitors[seat].hand
        for who in (None, SPIRIT, *[s for s in ("s2", "s3", "s4") if s != seat]):
            text = json.dumps(GAME.view(st, who))
            assert not any(f'"{c}"' in text for c in hand), (seat, who)
        assert {c["id"] for c in GAME.view(st, seat)["hand"]} == set(hand)
    legal = {a.kind for s in ("s2", "s3", "s4") for a in GAME.legal_actions(st, s)}
    assert legal <= {"rest", "walk", "play", "use_item", "room_action", "ability", "trade",
                     "smother", "pick_up", "end_turn"}  # nothing shows a hand


# ------------------------------------------------------------------ basic actions (P-BASIC)
def test_p_basic_06_a_succumbed_visitors_items_are_picked_up_quickly_nearby() -> None:
    st = base(4)
    ghost = st.visitors["s3"]
    ghost.succumbed = ghost.knocked_out = True
    ghost.candle_lit = False
    ghost.items = [take_item(st, "item.tonic")]
    tonic = ghost.items[0]
    st.visitors["s2"].items = [take_item(st, "item.journal"), take_item(st, "item.chalk")]
    st.visitors["s4"].room = "salon"
    assert not any(a.kind == "pick_up" for a in GAME.legal_actions(st, "s4"))  # not nearby
    pick = next(a for a in GAME.legal_actions(st, "s2") if a.kind == "pick_up")
    assert pick.params == {"from": "s3", "item": tonic}
    st, _ = do(st, "s2", pick)
    assert prompt_kind(st) == "item_limit"  # P-LIMIT-03 applies to picked-up items
    st = answer(st, tonic)
    assert not st.visitors["s3"].items and tonic in st.cellar
    assert st.actions_left == 3  # a quick action


# ------------------------------------------------------------------- movement (P-MOVE)
def test_p_move_03_visitors_only_move_through_open_doors() -> None:
    st = base()
    st, _ = do(st, "s2", act("walk"))
    assert "go:D01" not in options(st)
    with pytest.raises(IllegalAction):
        GAME.apply(st, "s2", choose("go:D01"))
    assert st.visitors["s2"].room == "great_hall"


def test_p_move_05_p_comm_08_no_other_action_during_movement_but_talk_follows_it() -> None:
    st = base()
    st.visitors["s2"].room = "salon"
    st = active_visitor(st, "s3")  # the Orphan: Walk gives 2 points
    give(st, "s3", "orphan.06")  # Comfort / Relight (a quick action)
    st.visitors["s3"].candle_lit = False
    talk = eng(st).table_talk()
    assert not talk["allowed"] and set(talk["alone"]) == {"s2", "s3"}
    st, _ = do(st, "s3", act("walk"))
    st = answer(st, "open:D01")
    assert prompt_kind(st) == "movement"  # one point left: the movement goes on
    # nobody may take an action now, not even the mover's quick Relight (P-VIS-05)
    assert all(a.kind == "choose" for a in GAME.legal_actions(st, "s3"))
    with pytest.raises(IllegalAction):
        GAME.apply(st, "s3", act("play", card="orphan.06", side=1, speed="quick"))
    assert not GAME.may_act(st, "s2")
    # ... but talking follows each point: the open door puts both within hearing
    talk = GAME.view(st, None)["table_talk"]
    assert talk["allowed"] and talk["alone"] == []
    assert talk["speech"]["s2"] == talk["speech"]["s3"] == "free"
    st = answer(st, "go:D01")
    assert st.visitors["s3"].room == "salon" and not st.prompts


def test_p_move_07_doors_are_nearby_their_rooms_and_decide_hearing() -> None:
    st = base()
    e = eng(st)
    st.visitors["s2"].room = "kitchen"
    assert sorted(e.doors_of("kitchen")) == ["D04", "D05", "D06"]
    st2, _ = do(st, "s2", act("walk"))
    doors = {o.split(":")[1] for o in options(st2) if ":" in o}
    assert doors == {"D04", "D05"}  # D06 (to the Cellar) is locked shut
    assert e.hearing_rooms("great_hall") == {"great_hall"}
    st.doors["D01"].open = True
    st.doors["D04"].open = True
    assert e.hearing_rooms("great_hall") == {"great_hall", "salon"}
    assert "kitchen" not in e.hearing_rooms("great_hall")  # two rooms away
    st.visitors["s3"].room = "salon"
    assert not e.alone("s2")  # the Kitchen shares an open door with the Salon
    st.doors["D04"].open = False
    assert e.alone("s2")


def test_p_move_08_the_secret_passage_opens_and_closes_but_never_locks() -> None:
    """The Secret Chamber variant is not built; the passage door rule already is (door_acts):
    put the passage into play by hand and try the Manor Key on it."""
    from rules.presence.state import DoorState

    chamber = PACK.manor.chamber
    assert chamber is not None
    st = base()
    st.doors[chamber.passage_id] = DoorState(id=chamber.passage_id,
                                             rooms=["great_hall", "secret_chamber"])
    key = take_item(st, "item.manor_key")
    st.visitors["s2"].items = [key]
    st, _ = do(st, "s2", act("use_item", item=key, speed="main"))
    opts = options(st)
    assert "lock:D01" in opts and f"lock:{chamber.passage_id}" not in opts
    st = settle(st, prefer=("lock:D01", "no"))
    st, _ = do(st, "s2", act("walk"))
    assert f"open:{chamber.passage_id}" in options(st)
    st = answer(st, f"open:{chamber.passage_id}")
    assert st.doors[chamber.passage_id].open and not st.doors[chamber.passage_id].locked


# ------------------------------------------------------------------- distance (P-DIST)
def comfort(st: PresenceState, seat: str = "s2") -> PresenceState:
    card = f"{st.visitors[seat].character}.04"  # Move 2 / Comfort
    give(st, seat, card)
    st, _ = do(st, seat, act("play", card=card, side=1, speed="main"))
    return st


def test_p_dist_01_nearby_is_the_same_room_and_yourself() -> None:
    st = base()
    st2 = comfort(edit(st))
    assert prompt_kind(st2) == "target" and set(options(st2)) == {"s2", "s3"}  # you too
    st.visitors["s3"].room = "salon"
    st.doors["D01"].open = True  # within hearing is not nearby
    st.visitors["s2"].fear = 2
    st3 = comfort(edit(st))
    # only s2 is nearby: the target is chosen at once, then trash-or-cure
    assert not (prompt_kind(st3) == "target" and "s3" in options(st3))
    st3 = settle(st3, prefer=("1",))
    assert st3.visitors["s2"].fear == 1


def test_p_dist_02_fear_cards_next_to_a_board_are_nearby_everyone_in_the_room() -> None:
    st = base()
    fear = next(c for c in st.clue_deck if PACK.is_fear_card(c))
    st.clue_deck.remove(fear)
    st.visitors["s3"].fear_cards = [fear]
    st.visitors["s3"].fear = 1
    st2 = comfort(edit(st))
    st2 = answer(st2, "s3")
    assert options(st2) == ["0", "1"]  # trash their fear card or cure their fear
    st2 = answer(st2, "0")
    assert not st2.visitors["s3"].fear_cards and fear in st2.clue_trash
    st.visitors["s3"].room = "salon"
    st3 = settle(comfort(edit(st)), prefer=("0",))
    assert st3.visitors["s3"].fear_cards == [fear]  # not nearby from another room


def test_p_dist_05_the_spirit_is_always_alone() -> None:
    st = base()
    e = eng(st)
    st.spirit.pawn_room = "great_hall"  # even manifested among the visitors
    assert e.alone(SPIRIT) and not e.alone("s2")
    talk = e.table_talk()
    assert talk["speech"][SPIRIT] == "procedural_only" and talk["speech"]["s2"] == "free"


def test_p_dist_06_a_succumbed_character_no_longer_counts_as_a_visitor() -> None:
    st = base()
    ghost = st.visitors["s3"]
    ghost.succumbed = ghost.knocked_out = True
    assert eng(st).alone("s2")  # no company
    assert not any(a.kind == "room_action" for a in GAME.legal_actions(st, "s2"))  # Gather
    st.visitors["s2"].fear = 1
    st2 = comfort(edit(st))
    assert prompt_kind(st2) != "target"  # the ghost is no visitor to comfort
    assert st2.visitors["s2"].fear == 0
    st.visitors["s3"].succumbed = st.visitors["s3"].knocked_out = False
    assert any(a.kind == "room_action" for a in GAME.legal_actions(st, "s2"))
    assert set(options(comfort(edit(st)))) == {"s2", "s3"}


def test_p_dist_07_presence_dice_are_nearby_only_their_room() -> None:
    st = base()
    put_die(st, "salon", 2)
    st.doors["D01"].open = True
    e = eng(st)
    e.suffer_fear("s2", 1)
    e.run()
    assert prompt_kind(st) is None  # the Salon die is not nearby the Great Hall
    here = put_die(st, "great_hall", 2)
    e.suffer_fear("s2", 1)
    e.run()
    assert prompt_kind(st) == "fear_bonus" and options(st) == [str(here), "no"]


def test_p_time_12_comfort_must_take_the_only_branch_its_target_allows() -> None:
    """The Descendant (no fear card, no fear) comforts the Orphan, who holds a fear card but
    has no fear to cure: trashing the card is the only branch that can be done."""
    st = base()
    fear = next(c for c in st.clue_deck if PACK.is_fear_card(c))
    st.clue_deck.remove(fear)
    st.visitors["s3"].fear_cards = [fear]
    st = comfort(st)
    st = answer(st, "s3")
    assert not st.prompts
    assert not st.visitors["s3"].fear_cards and fear in st.clue_trash


# ------------------------------------------------------------------- light (P-LIGHT)
def room_lit(st: PresenceState, room: str) -> bool:
    return bool(next(r for r in GAME.view(st, None)["rooms"] if r["id"] == room)["lit"])


def test_p_light_03_a_smothered_candle_flips_to_its_dark_side() -> None:
    st = base()
    st.visitors["s3"].room = "salon"
    e = eng(st)
    e.smother("s2", by="spirit")
    seen = next(x for x in GAME.view(st, None)["visitors"] if x["seat"] == "s2")
    assert not st.visitors["s2"].candle_lit and not seen["candle_lit"]
    assert not room_lit(st, "great_hall") and room_lit(st, "salon")
    smothered = [ev for ev in e.events if ev.kind == "candle"]
    e.smother("s2", by="spirit")  # already dark: nothing more happens
    assert [ev for ev in e.events if ev.kind == "candle"] == smothered


def test_p_light_04_the_fireplace_is_lit_by_a_match_and_stays_lit() -> None:
    st = base()
    match = take_item(st, "item.match")
    st.visitors["s2"].items = [match]
    st.visitors["s2"].room = "kitchen"
    st, _ = do(st, "s2", act("use_item", item=match, speed="main"))
    st = answer(st, "0")  # light the fireplace ... from the Kitchen: nothing happens
    assert not st.fireplace_lit
    st = edit(st)
    match2 = take_item(st, "item.match")
    st.visitors["s2"].items = [match2]
    st.visitors["s2"].room = "dining_hall"
    st, _ = do(st, "s2", act("use_item", item=match2, speed="main"))
    st = answer(st, "0")
    assert st.fireplace_lit
    st, _ = do(st, "s2", act("smother"))
    assert room_lit(st, "dining_hall")  # the fireplace lights the room without a candle
    for seat in ("s2", "s3"):
        st, _ = do(st, seat, act("end_turn"))
        st = settle(st)
    st, _ = do(st, SPIRIT, act("end_spirit"))
    st = settle(st)
    assert st.round == 2 and st.fireplace_lit  # nothing said to put it out


def test_p_light_05_a_smothered_candle_is_relit_only_by_an_effect() -> None:
    st = base()
    st.visitors["s2"].candle_lit = False
    st, _ = do(st, "s2", act("rest"))
    st = answer(st, "done")
    assert not st.visitors["s2"].candle_lit  # resting in a lit room does not relight
    st = edit(st)
    st.visitors["s2"].knocked_out = True
    st = active_visitor(st, "s2")
    st, _ = do(st, "s2", act("rest"))
    st = settle(st, prefer=("done",))
    assert not st.visitors["s2"].knocked_out and not st.visitors["s2"].candle_lit  # rising
    st = edit(st)
    give(st, "s2", "descendant.06")  # Comfort / Relight
    st, _ = do(st, "s2", act("play", card="descendant.06", side=1, speed="quick"))
    assert st.visitors["s2"].candle_lit


def test_p_light_05_a_relight_is_offered_only_while_the_candle_is_out() -> None:
    """Stop 66's demo offered "Relight" beside a lit candle, where it does nothing: a
    Relight (an action card's, the Spare Candle's) is offered only while the candle is out."""
    st = base()
    st = active_visitor(st, "s2")
    give(st, "s2", "descendant.06")  # Comfort / Relight
    st.visitors["s2"].items = ["item.spare_candle#1"]

    def relights(st: PresenceState) -> list[str]:
        out = []
        for a in GAME.legal_actions(st, "s2"):
            if a.kind == "play" and a.params.get("card") == "descendant.06" \
                    and a.params.get("side") == 1:
                out.append("card")
            if a.kind == "use_item":
                out.append("item")
        return out

    assert st.visitors["s2"].candle_lit
    assert relights(st) == []
    with pytest.raises(IllegalAction):
        GAME.apply(st, "s2", act("play", card="descendant.06", side=1, speed="quick"))
    st.visitors["s2"].candle_lit = False
    assert relights(st) == ["card", "item"]


def test_p_light_05_share_light_is_offered_only_while_a_nearby_candle_is_out() -> None:
    """Stop 66: the Artist's Share Light ("relight the candle of a nearby visitor, you
    included") was offered with every candle nearby lit, where it does nothing, and could
    target a lit candle. It is offered only while a nearby visitor's candle is out, and
    targets only such a visitor."""
    st = base()
    st = active_visitor(st, "s2")
    give(st, "s2", "artist.09")  # Share Light / Move 2
    st.visitors["s3"].room = st.visitors["s2"].room

    def offered(st: PresenceState) -> bool:
        return any(a.kind == "play" and a.params.get("card") == "artist.09"
                   and a.params.get("side") == 0 for a in GAME.legal_actions(st, "s2"))

    assert all(v.candle_lit for v in st.visitors.values())
    assert not offered(st)
    with pytest.raises(IllegalAction):
        GAME.apply(st, "s2", act("play", card="artist.09", side=0, speed="main"))
    # a candle out in another room is not nearby
    far = next(r for r in PACK.manor.rooms if r.id != st.visitors["s2"].room).id
    st.visitors["s3"].room = far
    st.visitors["s3"].candle_lit = False
    assert not offered(st)
    # out nearby: offered, and it relights that candle, never a lit one
    st.visitors["s3"].room = st.visitors["s2"].room
    assert offered(st)
    st, _ = do(st, "s2", act("play", card="artist.09", side=0, speed="main"))
    assert st.visitors["s3"].candle_lit
    # the player's own candle counts too ("you included")
    st = active_visitor(st, "s2")
    give(st, "s2", "artist.09")
    st.visitors["s2"].candle_lit = False
    assert offered(st)


def test_p_light_06_one_candle_decides_banners_increase_and_the_die_penalty() -> None:
    def scene(lit: bool) -> PresenceState:
        st = base()
        st.visitors["s3"].room = "salon"
        st.visitors["s3"].candle_lit = False
        st.visitors["s2"].candle_lit = lit
        return st

    for lit in (True, False):
        st = scene(lit)
        give(st, "s2", "descendant.03")  # Move 2; dark banner: 3 points instead
        st, _ = do(st, "s2", act("play", card="descendant.03", side=0, speed="main"))
        assert st.prompts[-1].data["points"] == (2 if lit else 3)
        sp = to_spirit_turn(scene(lit))
        here = put_die(sp, "great_hall", 2)
        ups = [o for o, _ in eng(sp).increase_options() if o == f"up:{here}"]
        assert bool(ups) is (not lit)  # Increase Presence only in the dark
        sp = to_spirit_turn(scene(lit))
        moving = put_die(sp, "salon", 3)
        sp, _ = do(sp, SPIRIT, act("move_die", die=moving, to="great_hall"))
        sp = settle(sp)
        assert next(d for d in sp.dice if d.id == moving).value == (2 if lit else 3)


def test_p_light_07_light_is_recomputed_after_every_move_and_candle_change() -> None:
    st = base()
    st.doors["D01"].open = True
    assert room_lit(st, "great_hall") and not room_lit(st, "salon")
    st, _ = do(st, "s2", act("walk"))
    st = answer(st, "go:D01")
    assert room_lit(st, "salon") and room_lit(st, "great_hall")  # s3's candle stays
    st, _ = do(st, "s3", act("smother"))
    st = answer(st, "pass")  # the active player passes the tie first (P-VIS-11)
    assert not room_lit(st, "great_hall")
    st, _ = do(st, "s2", act("smother"))
    assert not room_lit(st, "salon")


# ------------------------------------------------------------------- fear (P-FEAR)
def test_p_fear_01_each_fear_moves_the_tracker_one_step_right() -> None:
    st = base()
    e = eng(st)
    e.suffer_fear("s2", 2)
    assert st.visitors["s2"].fear == 2
    e.suffer_fear("s2", 1)
    assert st.visitors["s2"].fear == 3 and not st.visitors["s2"].knocked_out
    view = next(x for x in GAME.view(st, None)["visitors"] if x["seat"] == "s2")
    assert view["fear"] == 3 and view["fear_track"] == 5


def test_p_fear_03_nerve_drops_once_per_knock_out_not_per_fear() -> None:
    st = base()
    st.visitors["s3"].fear = 3
    nerve = st.nerve
    assert nerve is not None
    e = eng(st)
    e.suffer_fear("s3", 5)  # two to reach the end, three more ignored
    e.run()
    st = settle(st, prefer=("1", "no"))
    assert st.visitors["s3"].knocked_out and st.nerve == nerve - 1
    st = edit(st)
    st.visitors["s3"].knocked_out = False
    st.visitors["s3"].fear = 4
    e = eng(st)
    e.suffer_fear("s3", 1)  # a second knock-out costs the nerve again
    e.run()
    st = settle(st, prefer=("1", "no"))
    assert st.nerve == nerve - 2


# ------------------------------------------------------------------- knocked out (P-KO)
def test_p_ko_01_reaching_the_end_of_the_fear_track_knocks_out() -> None:
    st = base()
    st.visitors["s2"].fear = 3
    st.visitors["s3"].fear = 4
    e = eng(st)
    ctx = e.spirit_ctx(None, "great_hall", "test")
    e.step_effects([{"op": "target", "selector": "nearby_visitor", "count": "all"},
                    {"op": "suffer_fear", "who": "target"}], 0, ctx)
    e.run()
    st = settle(st, prefer=("1", "no"))
    assert not st.visitors["s2"].knocked_out and st.visitors["s2"].fear == 4
    assert st.visitors["s3"].knocked_out and st.visitors["s3"].fear == 5


def knocked_out(st: PresenceState, seat: str) -> PresenceState:
    st = edit(st)
    st.visitors[seat].fear = 4
    e = eng(st)
    e.suffer_fear(seat, 1)
    e.run()
    return settle(st, prefer=("1", "no"))


def test_p_ko_03_knocked_out_is_alone_and_takes_no_quick_action_or_reaction() -> None:
    st = base()
    st.visitors["s3"].items = [take_item(st, "item.salt")]
    salt = st.visitors["s3"].items[0]
    st = knocked_out(st, "s3")
    e = eng(st)
    assert e.alone("s3") and e.alone("s2")  # nobody keeps company with s3 either
    assert GAME.legal_actions(st, "s3") == [] and not GAME.may_act(st, "s3")
    with pytest.raises(IllegalAction):
        GAME.apply(st, "s3", act("smother"))  # refused before the engine: not awaited
    with pytest.raises(IllegalAction) as err:
        eng(edit(st)).apply("s3", act("smother"))
    assert err.value.rule == "P-KO-03"
    st = to_spirit_turn(st)
    st.visitors["s2"].candle_lit = False
    d = put_die(st, "salon", 3)
    st, _ = do(st, SPIRIT, act("move_die", die=d, to="great_hall"))
    st = settle(st)
    assert next(x for x in st.dice if x.id == d).value == 3  # the Salt did not react
    assert st.visitors["s3"].items == [salt]


def test_p_ko_05_p_fear_08_no_fear_while_knocked_out() -> None:
    st = base()
    st = knocked_out(st, "s3")
    nerve = st.nerve
    st = edit(st)
    put_die(st, "great_hall", 2)
    e = eng(st)
    e.suffer_fear("s3", 2)
    e.run()
    assert st.visitors["s3"].fear == 5 and st.nerve == nerve
    assert prompt_kind(st) is None  # no fear suffered: nothing for the spirit to feed on
    st.visitors["s3"].fear = 2  # knocked out by an effect, short of the end of the track
    e.suffer_fear("s3", 2)
    e.run()
    assert st.visitors["s3"].fear == 2 and st.nerve == nerve and prompt_kind(st) is None


def test_p_ko_07_items_and_the_bond_stay_with_a_knocked_out_visitor() -> None:
    st = base()
    st.visitors["s3"].items = [take_item(st, "item.tonic")]
    items = list(st.visitors["s3"].items)
    st.bonded = "s3"
    st = knocked_out(st, "s3")
    assert st.visitors["s3"].knocked_out
    assert st.visitors["s3"].items == items and st.bonded == "s3"


# ------------------------------------------------------------------- succumbing (P-SUCC)
def test_p_succ_01_only_a_lost_nerve_eliminates() -> None:
    st = base()
    st.hope = None  # hope lost does not eliminate anyone
    st = knocked_out(st, "s3")
    assert st.visitors["s3"].knocked_out and not st.visitors["s3"].succumbed
    st = edit(st)
    st.visitors["s3"].knocked_out = False
    st.nerve = None
    st = knocked_out(st, "s3")
    assert st.visitors["s3"].succumbed


def succumbed(st: PresenceState, seat: str) -> PresenceState:
    st = edit(st)
    e = eng(st)
    e.succumb(seat)
    e.run()
    return settle(st, prefer=("1", "no"))


def test_p_succ_03_a_succumbed_visitor_takes_no_further_action() -> None:
    st = base(4)
    fear = next(c for c in st.clue_deck if PACK.is_fear_card(c))
    st.clue_deck.remove(fear)
    st.visitors["s3"].fear_cards = [fear]
    st = succumbed(st, "s3")
    v = st.visitors["s3"]
    assert v.knocked_out and not v.candle_lit and not v.fear_cards  # the knock-out rules
    assert not [c for c in v.hand if eng(st).is_action_card(c)]
    assert GAME.legal_actions(st, "s3") == []
    with pytest.raises(IllegalAction):
        GAME.apply(st, "s3", act("rest"))
    with pytest.raises(IllegalAction) as err:
        eng(edit(st)).apply("s3", act("rest"))
    assert err.value.rule == "P-SUCC-03"
    st, _ = do(st, "s2", act("end_turn"))
    st = settle(st)
    assert st.active == "s4"  # no turn for s3, not even to Rest


def test_p_succ_04_the_pawn_stays_as_a_ghost_that_is_no_visitor() -> None:
    st = base(4)
    st.visitors["s3"].room = "salon"
    st.visitors["s3"].items = [take_item(st, "item.tonic")]
    st = succumbed(st, "s3")
    v = st.visitors["s3"]
    assert v.room == "salon" and v.items  # pawn and items stay until picked up
    seen = next(x for x in GAME.view(st, None)["visitors"] if x["seat"] == "s3")
    assert seen["room"] == "salon" and seen["succumbed"]
    st = edit(st)
    v = st.visitors["s3"]
    v.candle_lit = True  # even a lit candle on a ghost lights nothing
    assert not eng(st).lit("salon")
    assert "s3" in GAME.view(st, None)["table_talk"]["succumbed"]


def test_p_succ_06_v_indexed_numbers_keep_their_setup_value() -> None:
    st = base(4)
    st = succumbed(st, "s3")
    st = edit(st)
    st.round = 2
    e = eng(st)
    e.step_upkeep_clues()
    assert len(st.drawn_spirit_clues) == 3  # V = 3 at setup, not the 2 still standing


# ------------------------------------------------------------------- items (P-ITEM, P-LIMIT)
def test_p_item_03_a_reaction_item_is_discarded_only_when_its_effect_says_so() -> None:
    st = base()
    lantern = take_item(st, "item.lantern")
    st.visitors["s2"].items = [lantern]
    st, _ = do(st, "s2", act("smother"))  # by yourself: the Lantern does not react
    assert st.visitors["s2"].items == [lantern] and not st.visitors["s2"].candle_lit
    st = edit(st)
    st.visitors["s2"].candle_lit = True
    eng(st).smother("s2", by="spirit")
    assert st.visitors["s2"].candle_lit  # prevented, and the Lantern says: discard it
    assert not st.visitors["s2"].items and st.cellar == [lantern]


def test_p_item_08_an_empty_item_deck_yields_nothing() -> None:
    st = base()
    st.cellar = list(st.item_deck)
    st.item_deck = []
    st.visitors["s2"].room = "kitchen"  # Search: draw 1 item card
    st, _ = do(st, "s2", act("room_action", index=0, speed="main"))
    st = settle(st)
    assert st.visitors["s2"].items == [] and st.item_deck == []
    assert len(st.cellar) == 12 and st.actions_left == 2  # the Cellar is not reshuffled


def test_p_limit_03_the_item_limit_is_checked_at_once_even_off_turn() -> None:
    st = base()
    st.visitors["s3"].items = [take_item(st, "item.tonic"), take_item(st, "item.journal")]
    gift = take_item(st, "item.chalk")
    st.visitors["s2"].items = [gift]
    st, _ = do(st, "s2", act("trade", to="s3"))
    st = answer(st, gift)
    if prompt_kind(st) == "trade_pick":
        st = answer(st, "offer")
    st = answer(st, "yes")
    assert prompt_kind(st) == "item_limit" and st.prompts[-1].seats == ["s3"]
    st = answer(st, gift)
    assert len(st.visitors["s3"].items) == 2 and st.cellar == [gift]
    assert st.active == "s2" and st.actions_left == 3


# ------------------------------------------------------------------- table talk (P-COMM)
def test_p_comm_01_talk_status_is_public_and_the_same_for_everyone() -> None:
    st = base(4)
    st.visitors["s4"].room = "library"
    talks = [GAME.view(st, who)["table_talk"] for who in (None, SPIRIT, "s2", "s3", "s4")]
    assert all(t == talks[0] for t in talks)
    assert talks[0]["alone"] == ["s4"]
    logs = [GAME.view(st, who)["log"] for who in (None, SPIRIT, "s2", "s4")]
    assert all(x == logs[0] for x in logs)


def test_p_comm_04_alone_is_procedural_talk_p_comm_05_never_silence() -> None:
    """P-COMM-03: a visitor who may talk may say anything; P-COMM-04: an alone one only
    procedural things; P-COMM-05: that is still talk (describe actions, ask rules)."""
    st = base(4)
    st.visitors["s4"].room = "library"
    speech = eng(st).table_talk()["speech"]
    # not alone: free to share anything, hidden cards included (one level, no filter)
    assert speech["s2"] == speech["s3"] == "free"
    # alone: may still describe actions, ask rules, point out violations
    assert speech["s4"] == "procedural_only"
    assert set(speech.values()) <= {"free", "procedural_only"}  # nobody is "silent"
    st.visitors["s4"].room = "great_hall"
    assert eng(st).table_talk()["speech"]["s4"] == "free"


def test_p_comm_10_a_succumbed_ghost_speaks_only_to_a_visitor_within_hearing() -> None:
    st = base(4)
    ghost = st.visitors["s3"]
    ghost.succumbed = ghost.knocked_out = True
    ghost.candle_lit = False

    def ghost_speech(s: PresenceState) -> str:
        return str(eng(s).table_talk()["speech"]["s3"])

    assert ghost_speech(st) == "free"  # s2 and s4 share its room
    ghost.room = "salon"
    assert ghost_speech(st) == "procedural_only"  # behind a closed door
    st.doors["D01"].open = True
    assert ghost_speech(st) == "free"
    st.visitors["s4"].room = "library"  # s2, active, is now alone: nobody may talk
    assert ghost_speech(st) == "procedural_only"
    st.visitors["s4"].room = "great_hall"
    st.visitors["s2"].knocked_out = st.visitors["s4"].knocked_out = True
    assert ghost_speech(st) == "procedural_only"  # knocked-out visitors do not hear


# ------------------------------------------------------------------- timing (P-TIME)
def test_p_time_02_an_effect_is_resolved_as_far_as_it_can_be() -> None:
    st = base()
    st.visitors["s3"].room = "salon"
    v = st.visitors["s2"]
    v.hand = v.hand[:1]
    e = eng(st)
    ctx = e.spirit_ctx(None, "great_hall", "test")
    e.step_effects([{"op": "target", "selector": "nearby_visitor"},
                    {"op": "discard", "n": 2, "who": "target"},
                    {"op": "suffer_fear", "who": "target"}], 0, ctx)
    e.run()
    assert prompt_kind(st) == "choice" and len(options(st)) == 1  # one card, not two
    st = answer(st, options(st)[0])
    assert st.visitors["s2"].hand == [] and not st.prompts
    assert st.visitors["s2"].fear == 1  # the rest of the effect still happens


def test_p_time_04_the_owner_of_an_effect_chooses_among_several_targets() -> None:
    st = base()
    e = eng(st)
    e.step_effects([{"op": "target", "selector": "nearby_visitor"},
                    {"op": "suffer_fear", "who": "target"}], 0,
                   e.spirit_ctx(None, "great_hall", "test"))
    e.run()
    assert prompt_kind(st) == "target" and st.prompts[-1].seats == [SPIRIT]
    assert set(options(st)) == {"s2", "s3"}
    st = answer(st, "s3")
    st = settle(st)
    assert (st.visitors["s2"].fear, st.visitors["s3"].fear) == (0, 1)
    mine = comfort(base())
    assert prompt_kind(mine) == "target" and mine.prompts[-1].seats == ["s2"]


def test_p_time_07_quick_actions_wait_until_the_running_action_is_resolved() -> None:
    st = base()
    st = comfort(st)  # waiting for s2 to pick a target
    assert not GAME.may_act(st, "s3")
    with pytest.raises(IllegalAction):
        GAME.apply(st, "s3", act("smother"))
    st = settle(st, prefer=("s3", "1"))
    assert GAME.may_act(st, "s3")  # declared now, before s2 starts another action
    st, _ = do(st, "s3", act("smother"))
    st = answer(st, "pass")  # the active player passes the tie first (P-VIS-11)
    assert not st.visitors["s3"].candle_lit and st.active == "s2"


def test_p_time_08_revealed_cards_are_shown_to_all_and_may_be_drawn() -> None:
    st = base(4)
    st.visitors["s2"].room = "nursery"  # Nursery: reveal the top card of the clue deck
    top = st.clue_deck[-1]
    st, events = do(st, "s2", act("room_action", index=0, speed="main"))
    st = settle(st)
    assert top in st.clue_revealed and top not in st.clue_deck
    name = eng(st).card_name(top)
    assert any(name in ev.text for ev in events if ev.public)
    assert top in [c["id"] for c in GAME.view(st, None)["clue_revealed"]]
    st = edit(st)
    e = eng(st)
    e.draw_clue("s3")
    assert prompt_kind(st) == "draw_source" and st.prompts[-1].seats == ["s3"]
    assert set(options(st)) == {"deck", top}


def test_p_time_08_a_revealed_clue_token_is_resolved_by_its_revealer() -> None:
    st = base()
    put_token(st, "great_hall", "small", "small.item#1")  # Small Clue: Item (draw 1 item)
    give(st, "s2", "descendant.01")
    st, events = do(st, "s2", act("play", card="descendant.01", side=1, speed="main"))
    st = settle(st)
    assert len(st.visitors["s2"].items) == 1 and not st.visitors["s3"].items
    assert any("Small Clue: Item" in ev.text for ev in events if ev.public)


def test_p_time_10_trashed_cards_leave_the_game() -> None:
    st = base()
    fear = next(c for c in st.clue_deck if PACK.is_fear_card(c))
    st.clue_deck.remove(fear)
    st.visitors["s3"].fear_cards = [fear]
    st = knocked_out(st, "s3")
    assert st.clue_trash == [fear] and not st.visitors["s3"].fear_cards
    assert GAME.view(st, None)["clue_trash"] == 1
    st = edit(st)
    st.clue_deck = []
    e = eng(st)
    e.draw_clue("s2")
    e.run()
    assert not st.prompts and fear not in st.visitors["s2"].hand + st.visitors["s2"].fear_cards


def test_p_time_11_spirit_cards_are_discarded_face_down_clue_tokens_apart() -> None:
    sp = to_spirit_turn(base())
    sp.visitors["s2"].candle_lit = sp.visitors["s3"].candle_lit = False
    put_die(sp, "great_hall", 2)
    card = sp.spirit.hand[0]
    sp, _ = do(sp, SPIRIT, act("increase", card=card))
    sp = answer(sp, options(sp)[0])
    assert sp.spirit.discard == [card]
    name = PACK.spirit_card(card).name
    for who in (None, "s2"):
        view = GAME.view(sp, who)
        assert view["spirit"]["discard_count"] == 1
        assert f'"{card}"' not in json.dumps(view)
    assert name in GAME.view(sp, SPIRIT)["spirit_private"]["discard"]
    st = base()
    put_token(st, "great_hall", "small", "small.action#1")
    spirit_clue = st.spirit_clue_bag.pop()
    put_token(st, "great_hall", "spirit", spirit_clue)
    give(st, "s2", "descendant.09")  # Investigate Twice
    st, _ = do(st, "s2", act("play", card="descendant.09", side=0, speed="main"))
    st = settle(st, prefer=("0", "no", "done"))
    assert st.small_clue_discard == ["small.action#1"]
    assert st.spirit_clue_discard == [spirit_clue]


def test_p_clue_02_a_second_investigate_with_no_token_left_is_said() -> None:
    """Investigate Twice in a room its first Investigate emptied: the second finds nothing,
    and the log says so (a demo read the card played and one reveal, nothing of the second)."""
    st = base()
    put_token(st, "great_hall", "small", "small.action#1")
    give(st, "s2", "descendant.09")  # Investigate Twice
    st, ev = do(st, "s2", act("play", card="descendant.09", side=0, speed="main"))
    st = settle(st, prefer=("0", "no", "done"))
    texts = [e.text for e in ev]
    assert st.small_clue_discard == ["small.action#1"]
    assert any("finds no clue token left to investigate in the Great Hall" in t
               for t in texts), texts


def test_p_time_12_memory_asks_the_spirit_nothing_where_no_die_is_nearby() -> None:
    """Stop 66's Mystery demo: the Orphan revealed the spirit clue Memory ("the spirit may
    increase a presence die in this room by 1") in the Nursery, where no die stood; the
    spirit was asked, and the thread read "The spirit chooses to increase a presence die by
    1." with no die growing. A "may" that can do nothing is not asked; with a die in the
    room it is."""
    def reveal(die: bool) -> tuple[PresenceState, list[str]]:
        st = base()
        memory = next(c for c in st.spirit_clue_bag if PACK.spirit_clue_of(c).name == "Memory")
        st.spirit_clue_bag.remove(memory)
        put_token(st, "great_hall", "spirit", memory)
        if die:
            put_die(st, "great_hall", 2)
        give(st, "s2", "descendant.01")  # Move 3 / Investigate
        st, events = do(st, "s2", act("play", card="descendant.01", side=1, speed="main"))
        texts = [e.text for e in events]
        while st.prompts and st.prompts[-1].kind != "choice":
            st = answer(st, options(st)[0])
        return st, texts

    st, texts = reveal(die=False)
    assert not any(p.kind == "choice" for p in st.prompts), st.prompts[-1].text
    assert not any("chooses to increase" in t for t in texts)
    st, _ = reveal(die=True)
    assert st.prompts and st.prompts[-1].kind == "choice"
    assert st.prompts[-1].seats == [SPIRIT]


def test_p_time_12_the_spirits_own_may_in_a_visitors_effect_is_not_made_for_the_visitor(
) -> None:
    """Stop 66's demo: Memory's "the spirit may increase a presence die in this room by 1"
    asked the spirit "Choose for the Descendant: increase a presence die by 1? Yes or no.",
    as if the spirit chose for the visitor. It is the spirit's own choice."""
    st = base()
    memory = next(c for c in st.spirit_clue_bag if PACK.spirit_clue_of(c).name == "Memory")
    st.spirit_clue_bag.remove(memory)
    put_token(st, "great_hall", "spirit", memory)
    put_die(st, "great_hall", 2)
    give(st, "s2", "descendant.01")  # Move 3 / Investigate
    st, _ = do(st, "s2", act("play", card="descendant.01", side=1, speed="main"))
    while st.prompts and st.prompts[-1].kind != "choice":
        st = answer(st, options(st)[0])
    text = st.prompts[-1].text
    assert st.prompts[-1].seats == [SPIRIT]
    assert text == "Choose: increase a presence die by 1? Yes or no.", text
