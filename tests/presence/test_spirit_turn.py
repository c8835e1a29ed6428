"""The spirit turn: dice, Increase Presence, spirit cards, bonding, drain, manifestation."""

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


def scene(seed: int = 1) -> object:
    st = to_spirit_turn(quiet(new_game(3, seed)))
    return st


def die_of(st: object, die: int) -> object:
    return next(d for d in st.dice if d.id == die)  # type: ignore[attr-defined]


def test_P_SPIRIT_07_each_die_moves_once_through_walls_and_floors() -> None:
    st = edit(scene())
    d = put_die(st, "kitchen", 3)
    moves = {a.params["to"] for a in GAME.legal_actions(st, SPIRIT)
             if a.kind == "move_die" and a.params["die"] == d}
    assert moves == set(PACK.die_neighbours("kitchen", 3)) and "cellar" in moves
    st, _ = do(st, SPIRIT, act("move_die", die=d, to="cellar"))
    assert die_of(st, d).room == "cellar"
    assert not any(a.kind == "move_die" and a.params["die"] == d
                   for a in GAME.legal_actions(st, SPIRIT))


def test_P_SPIRIT_08_entering_a_lit_room_costs_one_presence() -> None:
    st = edit(scene())
    d = put_die(st, "salon", 1)
    assert eng(st).lit("great_hall")
    st, _ = do(st, SPIRIT, act("move_die", die=d, to="great_hall"))
    st = settle(st)
    assert die_of(st, d).room is None and die_of(st, d).value == 0  # back to the supply


def test_P_SPIRIT_09_increase_presence_discards_a_card_face_down() -> None:
    st = edit(scene())
    d = put_die(st, "salon", 2)
    card = st.spirit.hand[0]
    st, ev = do(st, SPIRIT, act("increase", card=card))
    assert prompt_kind(st) == "increase"
    opts = options(st)
    assert f"up:{d}" in opts and "add:salon" in opts and f"reloc:{d}" in opts
    assert not any(o == "add:great_hall" for o in opts)  # lit: not dark
    st, ev = do(st, SPIRIT, act("choose", option=f"up:{d}"))
    assert die_of(st, d).value == 3
    assert card in st.spirit.discard and card not in st.spirit.hand
    public = [e.text for e in ev if e.public]
    assert not any(PACK.spirit_card(card).name in t for t in public)  # H-06


def test_P_SPIRIT_09_A_16_add_from_supply_or_relocate() -> None:
    st = edit(scene())
    d = put_die(st, "salon", 4)
    st, _ = do(st, SPIRIT, act("increase", card=st.spirit.hand[0]))
    st = answer(st, "add:library")
    assert sum(1 for x in st.dice if x.room == "library" and x.value == 1) == 1
    st, _ = do(st, SPIRIT, act("increase", card=st.spirit.hand[0]))
    st = answer(st, f"reloc:{d}")
    st = answer(st, f"{d}:kitchen")
    assert die_of(st, d).room == "kitchen" and die_of(st, d).value == 1
    assert die_of(st, d).fresh  # cannot Move this turn
    assert not any(a.kind == "move_die" and a.params["die"] == d
                   for a in GAME.legal_actions(st, SPIRIT))


def give(st: object, card: str) -> None:
    sp = st.spirit  # type: ignore[attr-defined]
    for pile in (sp.deck, sp.discard):
        if card in pile:
            pile.remove(card)
            sp.hand.append(card)


def test_P_SPIRIT_11_12_requirement_declared_die_and_spend() -> None:
    st = edit(scene())
    give(st, "spirit_1.torment")  # top [3/1] bonded visitor suffers 1; bottom [5/3]
    small = put_die(st, "salon", 2)
    big = put_die(st, "great_hall", 5)
    st, _ = do(st, SPIRIT, act("play_spirit", card="spirit_1.torment"))
    assert prompt_kind(st) == "power"
    assert options(st) == [str(big)]  # the 2-die meets no requirement
    st = answer(st, str(big))
    assert set(options(st)) == {"top", "bottom", "done"}
    st = answer(st, "bottom")  # a nearby visitor suffers 2 fear
    st = settle(st, prefer=("s2", "no", "done"))
    assert die_of(st, big).value == 2
    assert st.visitors["s2"].fear == 2 or st.visitors["s3"].fear == 2
    assert "spirit_1.torment" in st.spirit.discard
    del small


def test_P_SPIRIT_18_hindered_by_light() -> None:
    st = edit(scene())
    give(st, "spirit_1.gloom")  # top [2/1, hindered by light]: nearby visitor suffers 1
    d = put_die(st, "great_hall", 3)  # lit by candles
    st, _ = do(st, SPIRIT, act("play_spirit", card="spirit_1.gloom"))
    st = answer(st, str(d))
    st = answer(st, "top")
    st = settle(st)
    assert all(v.fear == 0 for v in st.visitors.values())
    assert die_of(st, d).value == 2  # still paid


def test_P_TIME_12_P_BOND_03_coloured_choice_by_the_visitor_or_the_spirit_if_bonded() -> None:
    st = edit(scene())
    give(st, "spirit_1.avert_your_gaze")  # top: nearby visitor ◆ discard 2 or suffer 1
    st.visitors["s3"].room = "salon"
    d = put_die(st, "great_hall", 3)
    st, _ = do(st, SPIRIT, act("play_spirit", card="spirit_1.avert_your_gaze"))
    st = answer(st, str(d))
    st = answer(st, "top")
    assert prompt_kind(st) == "choice" and st.prompts[-1].seats == ["s2"]
    st2 = edit(st)
    # bonded: the spirit makes the coloured choice (rebuild the scene with a bond)
    st = edit(scene())
    give(st, "spirit_1.avert_your_gaze")
    st.visitors["s3"].room = "salon"
    st.bonded = "s2"
    d = put_die(st, "great_hall", 3)
    st, _ = do(st, SPIRIT, act("play_spirit", card="spirit_1.avert_your_gaze"))
    st = answer(st, str(d))
    st = answer(st, "top")
    assert prompt_kind(st) == "choice" and st.prompts[-1].seats == [SPIRIT]
    del st2


def test_P_BOND_01_02_lonely_touch_bond_moves_the_marker() -> None:
    st = edit(scene())
    give(st, "spirit_1.lonely_touch")
    st.visitors["s3"].room = "library"  # s2 alone in the great hall (doors closed)
    st.bonded = "s3"
    d = put_die(st, "great_hall", 3)
    st, _ = do(st, SPIRIT, act("play_spirit", card="spirit_1.lonely_touch"))
    st = answer(st, str(d))
    st = answer(st, "top")
    assert prompt_kind(st) == "choice" and st.prompts[-1].seats == ["s2"]
    bond = next(o for o, lab in st.prompts[-1].data["options"] if "bond" in lab.lower())
    st = answer(st, bond)
    st = settle(st)
    assert st.bonded == "s2"


def test_P_DRAIN_01_03_drain_marker_paid_in_upkeep_or_released() -> None:
    st = edit(scene())
    give(st, "spirit_1.piano_music")  # top [1/0, drain 1]
    d = put_die(st, "salon", 3)
    st, _ = do(st, SPIRIT, act("play_spirit", card="spirit_1.piano_music"))
    st = answer(st, str(d))
    st = answer(st, "top")
    st = settle(st, prefer=("done",))
    assert [(x.card, x.room) for x in st.drains] == [("spirit_1.piano_music", "salon")]
    assert "spirit_1.piano_music" not in st.spirit.discard
    st, _ = do(st, SPIRIT, act("end_spirit"))
    while prompt_kind(st) != "drain":
        st = answer(st, options(st)[0])
    assert str(d) in options(st) and "release" in options(st)
    st = answer(st, str(d))
    assert die_of(st, d).value == 2 and st.drains
    st = settle(st, prefer=("no", "stop", "done"))
    # next round's upkeep: release it -> the card is discarded
    e = eng(st)
    st.queue = []
    e.step_upkeep_drain(0)
    st = answer(st, "release")
    assert not st.drains and "spirit_1.piano_music" in st.spirit.discard


def test_P_DRAIN_06_piano_music_triggers_at_start_of_spirit_turn() -> None:
    st = edit(scene())
    from rules.presence.state import DrainState

    card = "spirit_1.piano_music"
    for pile in (st.spirit.deck, st.spirit.discard, st.spirit.hand):
        if card in pile:
            pile.remove(card)
    st.drains = [DrainState(card=card, power="top", room="great_hall")]
    e = eng(st)
    e.step_spirit_turn()
    e.run()
    st = settle(st, prefer=("s2", "no"))
    assert sum(v.fear for v in st.visitors.values()) == 1


def test_P_MANI_01_03_manifest_and_pawn_actions_next_turn() -> None:
    st = edit(scene())
    give(st, "spirit_1.broken_form")  # top [4/2, manifestation, drain 1]
    d = put_die(st, "salon", 5)
    st, _ = do(st, SPIRIT, act("play_spirit", card="spirit_1.broken_form"))
    st = answer(st, str(d))
    st = answer(st, "top")
    st = settle(st, prefer=("done",))
    assert st.spirit.pawn_room == "salon"
    assert st.spirit.pawn_actions == 0  # no fear cards in play (Broken Form example)
    assert "spirit_1.broken_form" in st.spirit.discard
    e = eng(st)
    e.step_spirit_turn()
    assert st.spirit.pawn_actions == 3
    kinds = {a.params.get("action") for a in GAME.legal_actions(st, SPIRIT) if a.kind == "pawn"}
    assert "manifest.glide" in kinds and "manifest.touch" in kinds


def test_P_SPIRIT_19_draw_up_to_n_at_end_of_turn() -> None:
    st = edit(scene())
    st.spirit.discard += st.spirit.hand[:2]
    st.spirit.hand = st.spirit.hand[2:]
    st, _ = do(st, SPIRIT, act("end_spirit"))
    assert len(st.spirit.hand) == 3
    # round 1 upkeep has nothing to ask: round 2 begins with the first visitor (P-ROUND-05)
    assert st.round == 2 and st.phase == "visitor" and st.active == "s2" and st.time == 2
