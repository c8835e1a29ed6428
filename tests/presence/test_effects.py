"""Effects read from data: rooms, items, reactions, inspect; and the contract when registered."""

from __future__ import annotations

from rules.core.types import act
from rules.presence.content import default_pack
from rules.presence.game import GAME
from tests.presence.helpers import (
    SPIRIT,
    answer,
    do,
    edit,
    eng,
    new_game,
    options,
    prompt_kind,
    put_die,
    quiet,
    settle,
    to_spirit_turn,
)

PACK = default_pack()


def item(st: object, item_id: str) -> str:
    """Move one copy of `item_id` from the item deck to the table (returned instance)."""
    inst = next(i for i in st.item_deck if i.split("#")[0] == item_id)  # type: ignore[attr-defined]
    st.item_deck.remove(inst)  # type: ignore[attr-defined]
    return inst


def test_P_TIME_09_library_inspect_may_put_on_bottom_privately() -> None:
    st = edit(quiet(new_game(3, 4)))
    st.visitors["s2"].room = "library"
    top = st.clue_deck[-1]
    st, ev = do(st, "s2", act("room_action", index=0, speed="main"))
    private = [e for e in ev if not e.public]
    assert private and private[0].audience == ["s2"]
    name = eng(st).card_name(top)
    assert name in private[0].text
    assert all(name not in e.text for e in ev if e.public)
    assert prompt_kind(st) == "choice" and st.prompts[-1].data["private"]
    st = answer(st, "bottom")
    assert st.clue_deck[0] == top
    # once per turn (G-02)
    assert not any(a.kind == "room_action" for a in GAME.legal_actions(st, "s2"))


def test_P_TIME_09_reorder_top_three() -> None:
    st = edit(quiet(new_game(3, 4)))
    e = eng(st)
    top3 = list(reversed(st.clue_deck[-3:]))
    e.step_effects([{"op": "inspect", "what": "clue_deck", "n": 3, "reorder": True}], 0,
                   e.visitor_ctx("s2", "test"))
    e.run()
    st = answer(st, top3[2])
    st = answer(st, top3[0])
    assert list(reversed(st.clue_deck[-3:])) == [top3[2], top3[0], top3[1]]


def test_P_MOVE_04_manor_key_locks_then_may_close_for_free() -> None:
    st = edit(quiet(new_game(3, 4)))
    st.visitors["s2"].items = [item(st, "item.manor_key")]
    st.doors["D01"].open = True
    key = st.visitors["s2"].items[0]
    st, _ = do(st, "s2", act("use_item", item=key, speed="main"))
    assert "lock:D01" in options(st) and "unlock:D06" not in options(st)  # not nearby
    st = answer(st, "lock:D01")
    assert st.doors["D01"].locked and st.doors["D01"].open
    assert "close:D01" in options(st)
    st = answer(st, "close:D01")
    assert not st.doors["D01"].open and st.doors["D01"].locked
    assert key in st.cellar and not st.visitors["s2"].items  # P-ITEM-04


def test_P_VIS_12_salt_reaction_reduces_an_entering_die() -> None:
    st = to_spirit_turn(quiet(new_game(3, 4)))
    st.visitors["s2"].items = [item(st, "item.salt")]
    salt = st.visitors["s2"].items[0]
    st.visitors["s2"].candle_lit = False
    st.visitors["s3"].candle_lit = False
    d = put_die(st, "salon", 3)
    st, _ = do(st, SPIRIT, act("move_die", die=d, to="great_hall"))
    st = settle(st)
    die = next(x for x in st.dice if x.id == d)
    assert die.value == 2 and salt in st.cellar


def test_P_VIS_12_lantern_replaces_a_smother() -> None:
    st = edit(quiet(new_game(3, 4)))
    st.visitors["s2"].items = [item(st, "item.lantern")]
    e = eng(st)
    e.smother("s2", by="spirit")
    assert st.visitors["s2"].candle_lit and not st.visitors["s2"].items
    e.smother("s2", by="spirit")
    assert not st.visitors["s2"].candle_lit


def test_P_ITEM_07_crucifix_quick_action_on_the_spirit_turn() -> None:
    st = to_spirit_turn(quiet(new_game(3, 4)))
    st.visitors["s2"].items = [item(st, "item.crucifix")]
    cross = st.visitors["s2"].items[0]
    d = put_die(st, "salon", 3)
    st, _ = do(st, SPIRIT, act("move_die", die=d, to="great_hall"))
    st = settle(st)
    assert GAME.may_act(st, "s2") and "s2" not in GAME.to_act(st)
    use = next(a for a in GAME.legal_actions(st, "s2") if a.kind == "use_item")
    st, _ = do(st, "s2", use)
    st = settle(st)
    die = next(x for x in st.dice if x.id == d)
    assert die.room is None and cross in st.cellar  # 3 - 1 (lit room) - 2 = 0


def test_P_MANI_04_pawn_action_paid_from_a_die_in_its_room() -> None:
    st = to_spirit_turn(quiet(new_game(3, 4)))
    st.spirit.pawn_room = "great_hall"
    st.spirit.pawn_actions = 3
    a = put_die(st, "great_hall", 2)
    b = put_die(st, "great_hall", 4)
    st, _ = do(st, SPIRIT, act("pawn", action="manifest.touch"))
    assert prompt_kind(st) == "target" and set(options(st)) == {str(a), str(b)}
    st = answer(st, str(a))
    st = settle(st, prefer=("s2", "no"))
    assert next(x for x in st.dice if x.id == a).value == 1
    assert st.spirit.pawn_actions == 2
    assert sum(v.fear for v in st.visitors.values()) == 1


def test_P_UPKEEP_07_P_MANI_02_pawn_drain_or_removal() -> None:
    st = edit(quiet(new_game(3, 4)))
    st.spirit.pawn_room = "salon"
    e = eng(st)
    e.step_upkeep_pawn()
    assert options(st) == ["release"]  # no die near the pawn: it must go
    st = answer(st, "release")
    assert st.spirit.pawn_room is None


def test_default_action_prefers_ending_and_declining() -> None:
    st = new_game(3, 4)
    assert GAME.default_action(st, "s2") == act("end_turn")
    assert GAME.default_action(st, "s3") is None
