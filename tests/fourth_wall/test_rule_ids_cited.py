"""Scenario tests for Fourth Wall rule ids that no test named in full before.

One or more tests per rule id of ../shared/spec/fourth-wall.md, each named after it: FW-AI-04,
FW-GATE-03, FW-GATE-05, FW-HAND-02, FW-INSANE-02, FW-INSTR-02, FW-SCOURGE-02, FW-SETA-02,
FW-SETA-07, FW-SETC-02, FW-SETUP-06, FW-TARGET-02 and FW-TURN-02. Every test builds a real game
from a fixed seed, edits the state with `tests.fourth_wall.helpers` (conserving every card), and
checks what the engine does, not only what it stores: each one fails if the rule it names is
broken. Two tests load a copy of the default content pack with one standing rule added, so a
rule can be seen at work where the shipped cards never exercise it. (Some of these ids were
already folded into compound names such as ``test_FW_HAND_01_02_...``; the tests here check
each rule on its own.)
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from rules.core.errors import IllegalAction
from rules.fourth_wall.content import DEFAULT_PACK_DIR
from rules.fourth_wall.engine import Engine
from rules.fourth_wall.game import GAME
from rules.fourth_wall.state import FourthWallState, Step
from tests.fourth_wall.helpers import (
    answer,
    clear_streets,
    do,
    end_wall_turn,
    inv,
    inv_turn,
    new_game,
    options,
    prompt,
    put_horror,
    seats,
    set_card,
    set_hand,
    set_stage,
    set_wall,
    setup,
    texts,
    wall_hand,
    wall_turn,
)

# Distinct Marble kinds without an Instruction or a quick use, so no window or Utilise
# interferes and every pick can be told apart.
PLAIN = ("M-C", "M-F", "M-S", "M-CF", "M-CS", "M-FS")
# A hand of up to six with one Clue-and-Force Marble in it (two players can hold one each).
FULL = ("M-C", "M-F", "M-S", "M-CF", "M-C", "M-F")
BASIC = ("M-C", "M-F", "M-S", "M-C", "M-F", "M-S")


def pack_with(tmp_path: Path, file: str, anchor: str, extra: str) -> str:
    """A copy of the default pack whose `file` has `extra` inserted after `anchor` (once)."""
    dest = tmp_path / "pack"
    shutil.copytree(DEFAULT_PACK_DIR, dest)
    path = dest / file
    text = path.read_text()
    assert text.count(anchor) == 1, anchor
    path.write_text(text.replace(anchor, anchor + extra))
    return str(dest)


def sanity(st: FourthWallState, iid: str) -> int:
    return Engine(st).investigator_card(inv(st, iid).card or "").sanity


def settle_prompts(st: FourthWallState) -> FourthWallState:
    """Answer whatever is pending with its first option (declining quick-use windows)."""
    while st.prompts:
        opts = options(st)
        o = next((a for a in opts if a.kind == "decline"), opts[0])
        st, _ = answer(st, o.kind, **o.params)
    return st


def lose_first(st: FourthWallState) -> FourthWallState:
    """Answer pending Lose-a-Marble choices with their first Marble, declining quick uses."""
    while prompt(st) in ("lose_choice", "holy_window"):
        o = options(st)[-1] if prompt(st) == "holy_window" else options(st)[0]
        st, _ = answer(st, o.kind, **o.params)
    return st


def presence(st: FourthWallState, card: str) -> tuple[FourthWallState, list[Any]]:
    """{A} Resolve one Presence card as a Wall turn does (one Action)."""
    st = st.model_copy(deep=True)
    st.phase = "wall"
    st.wall_spending = True
    eng = Engine(st)
    eng.later(Step(op="presence_resolve", args={"card": card}), Step(op="end_action"))
    eng.run()
    return st, eng.events


# ---------------------------------------------------------------- setup and roles
def test_FW_SETC_02_the_wall_is_the_named_seat_every_other_player_an_investigator() -> None:
    for k in range(4):
        st = new_game("conflict", 4, 1, wall_seat=k)
        wall = seats(4)[k]
        assert st.wall_seat == wall
        assert {i.seat for i in st.investigators} == set(seats(4)) - {wall}
        assert not Engine(st).invs_of(wall)
        v = GAME.view(st, None)
        roles = {s["seat"]: s["role"] for s in v["seats_info"]}
        assert roles == {s: "wall" if s == wall else "investigator" for s in seats(4)}
        assert GAME.view(st, wall)["viewer"] == "wall"
        assert all(GAME.view(st, s)["viewer"] == "investigator" for s in seats(4) if s != wall)
        # Only The Wall acts in The Wall's turn (the first: its Wrath, FW-WALL-02).
        assert st.phase == "wall" and GAME.to_act(st) == {wall}
        assert "end_turn" in {a.kind for a in GAME.legal_actions(st, wall)}
        assert all(not GAME.legal_actions(st, s) for s in seats(4) if s != wall)
    # FW-AMB-29: with no Wall named, the first seat (the creator's) is The Wall.
    assert new_game("conflict", 3, 1).wall_seat == "s1"
    with pytest.raises(IllegalAction):  # The Wall must be one of the players
        GAME.setup(seats(3), GAME.options_model(mode="conflict", wall_seat=5), 1)


def test_FW_SETA_02_all_players_are_investigators_the_presence_deck_is_the_wall() -> None:
    st = new_game("alliance", 3, 2, wall_seat=1)  # the Conflict-only option is ignored
    assert st.wall_seat is None
    assert {i.seat for i in st.investigators} == set(st.seats)
    v = GAME.view(st, None)
    assert {s["role"] for s in v["seats_info"]} == {"investigator"}
    assert v["wall"]["label"] == "The Presence (AI)"
    assert all(GAME.seat_label(st, s) != "Wall player" for s in st.seats)
    # The Wall's turn is drawn from the Presence deck, with nobody playing The Wall.
    st = inv_turn(st, "i1")
    clear_streets(st)
    for i in st.investigators:
        set_hand(st, i.id, "M-C", "M-F", "M-S")
    st.wall_turns = 5
    st, ev = do(st, "s1", "pass", inv="i1")
    drawn = [e for e in ev if e.kind == "presence"]
    assert len(drawn) == 2  # +2 Doom, one Presence card each (FW-ALLY-02/03)
    st = settle_prompts(st)
    assert st.phase == "investigator" and Engine(st).active().id == "i2"  # type: ignore[union-attr]
    assert st.doom == 0


def test_FW_SETA_07_the_target_token_starts_right_of_the_lead_the_last_in_order() -> None:
    for players in (1, 2, 3, 5):
        st = setup("alliance", players, 3)
        last = st.investigators[-1]
        assert st.target == last.id
        # "To the right of the Lead Investigator" = one seat anticlockwise of i1.
        assert Engine(st).next_sane_anticlockwise("i1") == last.id
        # ... which is the last Investigator in turn order: its turn ends the round.
        played = inv_turn(new_game("alliance", players, 3), last.id)
        assert played.round == 1
        played, _ = do(played, last.seat, "pass", inv=last.id)
        assert played.round == 2
        assert GAME.view(st, None)["target"] == last.id  # public (FW-VIS-26)


def test_FW_SETUP_06_sanity_is_the_hand_limit() -> None:
    for card in ("INV-07", "INV-02", "INV-09"):  # Sanity 4, 5 and 6
        st = inv_turn(new_game("conflict", 2, 1), "i1")
        clear_streets(st)
        set_card(st, "i1", card)
        n = sanity(st, "i1")
        assert Engine(st).hand_limit(inv(st, "i1")) == n
        assert GAME.view(st, None)["investigators"][0]["hand_limit"] == n
        # One below Sanity: a Search keeps every Marble.
        set_hand(st, "i1", *PLAIN[: n - 1])
        under, _ = do(st, "s2", "search", inv="i1")
        assert prompt(under) is None and len(inv(under, "i1").hand) == n
        # At Sanity: the Search takes the hand over the limit, and one Marble goes.
        set_hand(st, "i1", *PLAIN[:n])
        over, _ = do(st, "s2", "search", inv="i1")
        assert prompt(over) == "discard_excess"
        over, _ = answer(over, "choose_marble", marble=inv(over, "i1").hand[0])
        assert prompt(over) is None and len(inv(over, "i1").hand) == n


# ---------------------------------------------------------------- turn order, Target Token
def test_FW_TURN_02_conflict_clockwise_from_the_left_of_the_wall() -> None:
    st = new_game("conflict", 4, 1, wall_seat=2)  # s3 is The Wall: s4 is on its left
    order = []
    for _ in range(4):
        assert st.phase == "wall"
        st, _ = end_wall_turn(st)
        active = Engine(st).active()
        assert active is not None and st.phase == "investigator"
        order.append(active.seat)
        st, _ = do(st, active.seat, "pass", inv=active.id)
    assert order == ["s4", "s1", "s2", "s4"]  # clockwise, round the table


def test_FW_TURN_02_alliance_clockwise_from_the_lead_investigator() -> None:
    st = new_game("alliance", 3, 5)
    clear_streets(st)
    order = []
    for _ in range(4):
        st = settle_prompts(st)
        active = Engine(st).active()
        assert active is not None and st.phase == "investigator"
        order.append((active.id, active.seat))
        for i in st.investigators:  # nothing in the Wall turn can empty a hand
            set_hand(st, i.id, "M-C", "M-F", "M-S")
        st, _ = do(st, active.seat, "pass", inv=active.id)
    assert order == [("i1", "s1"), ("i2", "s2"), ("i3", "s3"), ("i1", "s1")]


@pytest.mark.parametrize(("players", "seed"), [(2, 7), (1, 7)])
def test_FW_TARGET_02_the_first_target_of_the_game_is_right_of_the_lead(players: int,
                                                                        seed: int) -> None:
    st = setup("alliance", players, seed)
    assert st.target == st.investigators[-1].id
    events = []
    while prompt(st) == "keep_investigator":  # the last keep starts the first Wall turn
        o = options(st)[0]
        st, ev = answer(st, o.kind, **o.params)
        events += ev
    eng = Engine(st)
    last, before = st.investigators[-1], st.investigators[-2]
    first = next(e.text for e in events if e.kind == "target")
    assert first == (f"{eng.inv_name(last)} is the Target; the Target Token passes to "
                     f"{eng.inv_name(before)}.")


# ---------------------------------------------------------------- Hand Limit, insanity
def test_FW_HAND_02_a_wall_action_lowering_the_limit_makes_each_owner_discard(
        tmp_path: Path) -> None:
    pack = pack_with(tmp_path, "horrors.toml", 'id = "H-CULTIST"\n',
                     'modifiers = [{ kind = "hand_limit_delta", n = -1, '
                     'scope = "each_investigator" }]\n')
    st = wall_turn(new_game("conflict", 3, 1, pack_path=pack), doom=2)  # i1 s2, i2 s3 ...
    clear_streets(st)
    (cultist,) = wall_hand(st, "H-CULTIST")
    for x in st.investigators:  # the dealt hands back to the deck first
        set_hand(st, x.id, "M-C")
    for iid in ("i1", "i2"):  # at the Hand Limit: one over once it drops
        set_hand(st, iid, *FULL[: sanity(st, iid)])
    for iid in ("i3", "i4"):  # one below: exactly at the new limit
        set_hand(st, iid, *BASIC[: sanity(st, iid) - 1])
    st, _ = do(st, "s1", "manifest", horror=cultist)  # a Wall Action: every limit drops by 1
    assert Engine(st).hand_limit(inv(st, "i1")) == sanity(st, "i1") - 1
    for iid, seat in (("i1", "s2"), ("i2", "s3")):  # from the active seat on, each owner
        assert prompt(st) == "discard_excess" and st.prompts[-1].seats == [seat]
        hand = inv(st, iid).hand
        assert {st.marble_cards[str(o.params["marble"])] for o in options(st)} == \
            {st.marble_cards[m] for m in hand}  # the owner may pick any of its Marbles
        (pick,) = [m for m in hand if st.marble_cards[m] == "M-CF"]
        st, ev = answer(st, "choose_marble", marble=pick)
        assert pick in st.marble_discard and pick not in inv(st, iid).hand
        assert "(Hand Limit)" in texts(ev)
    assert prompt(st) is None and st.phase == "wall"
    for i in st.investigators:
        assert len(i.hand) == sanity(st, i.id) - 1


def test_FW_HAND_02_an_off_turn_investigator_over_the_limit_discards_at_the_end() -> None:
    st = inv_turn(new_game("conflict", 3, 1), "i1")  # i1 = s2 acts; i2 = s3
    clear_streets(st)
    put_horror(st, "H-GATEKEEPER", attached=("M-C", "M-F"))  # Deathrattle: Elected draws 1
    (s,) = set_hand(st, "i1", "M-S", "M-C")[:1]
    set_hand(st, "i2", *FULL[: sanity(st, "i2")])
    st, _ = do(st, "s2", "intervene", inv="i1", marble=s)
    assert prompt(st) == "elect"
    st, _ = answer(st, "choose_investigator", inv="i2")
    assert len(inv(st, "i2").hand) == sanity(st, "i2") + 1
    assert prompt(st) == "discard_excess"
    assert st.prompts[-1].seats == ["s3"]  # the owner, not the acting seat
    (pick,) = [m for m in inv(st, "i2").hand if st.marble_cards[m] == "M-CF"]
    st, _ = answer(st, "choose_marble", marble=pick)
    assert len(inv(st, "i2").hand) == sanity(st, "i2") and pick in st.marble_discard
    assert prompt(st) is None and st.phase == "investigator" and st.ap == 1


def test_FW_INSANE_02_the_insane_card_is_face_down(tmp_path: Path) -> None:
    pack = pack_with(tmp_path, "investigators.toml", 'id = "INV-06"\n',
                     'modifiers = [{ kind = "defeat_cost_delta", scope = "all_on_streets", '
                     'symbol = "clue", n = 1 }]\n')
    st = wall_turn(new_game("conflict", 2, 1, pack_path=pack), doom=5)
    clear_streets(st)
    set_card(st, "i2", "INV-06")
    h = put_horror(st, "H-CULTIST")
    set_hand(st, "i2", "M-C")
    inv(st, "i2").regrouped = True  # turned sideways ...
    assert Engine(st).defeat_cost(h) == {"force": 1, "clue": 1}  # the card's text is in play
    st, _ = do(st, "s1", "trigger", horror=h)
    st, _ = answer(st, "choose_investigator", inv="i2")
    st = lose_first(st)
    i2 = inv(st, "i2")
    assert i2.insane and not i2.hand
    assert not i2.regrouped  # ... and now face down, no longer sideways
    assert i2.card == "INV-06" and "INV-06" not in st.investigator_deck  # still its card
    assert Engine(st).defeat_cost(h) == {"force": 1}  # a face-down card's text is gone
    pub = GAME.view(st, None)["investigators"][1]
    assert pub["insane"] and not pub["regrouped"] and pub["card"] == "INV-06"


# ---------------------------------------------------------------- Gates
def test_FW_GATE_03_a_closed_gate_returns_to_the_supply_and_reopens() -> None:
    st = inv_turn(new_game("conflict", 2, 1, gates=5), "i1")
    clear_streets(st)
    assert len(st.gates) == 5 and st.gate_supply == []
    set_hand(st, "i1", "M-C", "M-F", "M-S", "M-C")
    st, _ = do(st, "s2", "close_gate", inv="i1")
    for m in inv(st, "i1").hand[:3]:
        st, _ = answer(st, "select", marble=m)
    closed = st.gates[-1]
    st, _ = answer(st, "confirm")
    assert closed not in st.gates and st.gate_supply == [closed]
    # The same Wall card is the only unused one, and The Wall opens it again.
    st = wall_turn(st, doom=3)
    clear_streets(st)
    gk = put_horror(st, "H-GATEKEEPER")
    st, ev = do(st, "s1", "trigger", horror=gk)  # Trigger: Open a Gate
    assert "A Gate opens: 5 Open Gates" in texts(ev)
    assert closed in st.gates and st.gate_supply == [] and len(st.gates) == 5


def test_FW_GATE_05_never_more_than_five_open_gates() -> None:
    st = wall_turn(new_game("conflict", 2, 1, gates=4), doom=6)
    clear_streets(st)
    a = put_horror(st, "H-GATEKEEPER")
    b = put_horror(st, "H-GATEKEEPER")
    st, _ = do(st, "s1", "trigger", horror=a)
    assert len(st.gates) == 5 and prompt(st) is None
    st, ev = do(st, "s1", "trigger", horror=b)  # a sixth would open
    assert "five are already Open" in texts(ev) and "A Gate opens" not in texts(ev)
    assert len(st.gates) == 5 and prompt(st) == "gate_doom"  # FW-GATE-06 instead
    st, _ = answer(st, "decline")
    assert len(st.gates) == 5 and st.doom_deferred == 0
    assert GAME.view(st, None)["gates"]["max"] == 5
    assert GAME.view(st, None)["gates"]["pentagram"] == [True] * 5
    # Alliance: the same, with the Doom taken at once (FW-AI-06).
    al = inv_turn(new_game("alliance", 1, 1, gates=5), "i1")
    eng = Engine(al)
    eng.later(Step(op="open_gate"), Step(op="open_gate"))
    eng.run()
    assert len(al.gates) == 5 and al.doom == 2 and prompt(al) is None
    with pytest.raises(ValueError):
        GAME.options_model(mode="conflict", gates=6)


# ---------------------------------------------------------------- The Scourge
def test_FW_SCOURGE_02_one_token_unleashing_again_moves_it() -> None:
    st = wall_turn(new_game("conflict", 2, 1), mode=None)
    clear_streets(st)
    a = put_horror(st, "H-CULTIST")
    b = put_horror(st, "H-GHOUL")
    st.scourge = a
    st, _ = do(st, "s1", "brood")
    assert prompt(st) == "scourge"
    opts = options(st)
    assert {o.kind for o in opts} == {"keep_scourge", "scourge"}
    assert [o.params["horror"] for o in opts if o.kind == "scourge"] == [b]
    st, ev = answer(st, "scourge", horror=b)
    assert st.scourge == b and "The Scourge moves to Ghoul" in texts(ev)
    v = GAME.view(st, None)
    assert [h["scourge"] for h in v["horrors"]] == [False, True]
    assert v["scourge"]["on"] == b
    eng = Engine(st)
    assert "The Scourge" not in eng.horror_label(a) and "The Scourge" in eng.horror_label(b)


# ---------------------------------------------------------------- Instructions
def test_FW_INSTR_02_the_investigator_who_played_the_card_decides_even_off_turn() -> None:
    st = inv_turn(new_game("conflict", 3, 1), "i1")  # i1 = s2 acts; i2 = s3
    clear_streets(st)
    set_card(st, "i2", "INV-04")  # Exploit: Drain a Horror On the Streets (chosen)
    (adr,) = set_hand(st, "i1", "M-ADRENALINE", "M-C")[:1]
    set_hand(st, "i2", "M-C", "M-F")
    a = put_horror(st, "H-CULTIST")
    b = put_horror(st, "H-GHOUL")
    st, _ = do(st, "s2", "utilise", inv="i1", marble=adr)
    st, _ = answer(st, "choose_investigator", inv="i2")  # the Elected other Investigator
    assert prompt(st) == "granted" and st.prompts[-1].seats == ["s3"]
    st, _ = answer(st, "exploit", inv="i2")
    assert prompt(st) == "choose_horror"
    assert st.prompts[-1].seats == ["s3"]  # i2's player, not the active seat nor The Wall
    st, _ = answer(st, "choose_horror", horror=b)
    eng = Engine(st)
    assert eng.on_streets(b).drained and not eng.on_streets(a).drained  # type: ignore[union-attr]


def test_FW_INSTR_02_the_wall_decides_its_cards_options_in_the_listed_order() -> None:
    st = wall_turn(new_game("conflict", 2, 1), doom=1)
    clear_streets(st)
    set_wall(st, "W-2")  # Unique (1): Undrain a Horror, then Trigger it for free
    set_stage(st, "eye_opens")
    for i in ("i1", "i2", "i3"):
        set_hand(st, i, "M-C", "M-F")
    c = put_horror(st, "H-CULTIST", drained=True)
    put_horror(st, "H-WATCHER", drained=True)
    st, _ = do(st, "s1", "wall_unique", n=0)
    assert prompt(st) == "choose_horror" and st.prompts[-1].seats == ["s1"]
    st, ev = answer(st, "choose_horror", horror=c)
    # Undrained first, so the free Trigger can be used on the same Horror; its Target is
    # again The Wall's option.
    assert prompt(st) == "choose_target" and st.prompts[-1].seats == ["s1"]
    st, more = answer(st, "choose_investigator", inv="i2")
    st = lose_first(st)
    log = [e.text for e in ev + more]
    assert log.index("Cultist is no longer Drained.") < log.index("Cultist is Triggered.")
    assert len(inv(st, "i2").hand) == 1 and st.doom == 0
    assert st.streets[0].id == c and st.streets[0].drained  # Triggered: Drained again
    assert st.streets[1].drained  # the Horror not chosen is untouched


# ---------------------------------------------------------------- AI decision rules
def test_FW_AI_04_chosen_by_the_wall_is_a_seeded_random_pick_in_alliance() -> None:
    st = inv_turn(new_game("alliance", 1, 1), "i1")
    clear_streets(st)
    holder = st.target
    assert holder is not None
    for i in st.investigators:
        set_hand(st, i.id, *(PLAIN if i.id == holder else ("M-C", "M-F")))
    put_horror(st, "H-WATCHER", street=1)  # Trigger: Target Loses a Marble Chosen by The Wall
    lost = []
    for seed in range(12):
        s = st.model_copy(deep=True)
        s.rng.state = seed
        s2, _ = presence(s, "P-TROUBLE-1#1")
        assert prompt(s2) is None  # nobody is asked: not the Investigators, no Wall player
        gone = [m for m in inv(s, holder).hand if m not in inv(s2, holder).hand]
        assert len(gone) == 1 and gone[0] in s2.marble_discard
        assert all(len(i.hand) == 2 for i in s2.investigators if i.id != holder)
        s3, _ = presence(s, "P-TROUBLE-1#1")  # the same seed, the same pick
        assert [m for m in inv(s, holder).hand if m not in inv(s3, holder).hand] == gone
        lost.append(s.marble_cards[gone[0]])
    assert len(set(lost)) >= 4  # at random, not a fixed rule such as "the first card"
    # In Conflict the same card is a choice for The Wall (FW-TERM-13).
    c = wall_turn(new_game("conflict", 2, 1), doom=1)
    clear_streets(c)
    for i in c.investigators:
        set_hand(c, i.id, *PLAIN[:3])
    w = put_horror(c, "H-WATCHER")
    c, _ = do(c, "s1", "trigger", horror=w)
    c, _ = answer(c, "choose_investigator", inv="i1")
    while prompt(c) == "holy_window":
        c, _ = answer(c, "decline")
    assert prompt(c) == "wall_choice" and c.prompts[-1].seats == ["s1"]
