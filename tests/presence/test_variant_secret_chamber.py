"""The Secret Chamber (P-CHAMBER-01..08, P-SETUP-24, P-BASIC-07, P-DARK-02, G-17, A-33, A-34,
H-35, H-36, PR-25): set up aside and sealed, found by Uncover, joined by the passage token (a
door that cannot be locked, the only way in for dice too), with its two helpful actions."""

from __future__ import annotations

import json

import pytest

from rules.core.types import PUBLIC, act
from rules.presence.content import default_pack
from rules.presence.engine import Engine
from rules.presence.game import GAME
from rules.presence.state import PresenceState
from tests.presence.helpers import (
    SPIRIT,
    answer,
    do,
    edit,
    new_game,
    options,
    put_die,
    quiet,
    to_spirit_turn,
)
from tests.presence.variants import ai_playout, first_choice_playout, random_playout

PACK = default_pack()
CHAMBER = "secret_chamber"
UNCOVER = act("uncover")


def _passage_room(st: PresenceState) -> str:
    assert st.chamber is not None
    return PACK.clue_card(st.chamber.aside).room


def _uncovered(n: int = 4, seed: int = 3) -> PresenceState:
    st = edit(new_game(n, seed, secret_chamber=True))
    st.visitors["s2"].room = _passage_room(st)
    st, _ = do(st, "s2", UNCOVER)
    return st


def test_p_chamber_01_p_setup_24_a_34_setup_sets_aside_position_1_and_deals_v_cards() -> None:
    for n in (3, 4, 5):
        st = new_game(n, 2, secret_chamber=True)
        ch = st.chamber
        assert ch is not None and ch.passage_room is None
        aside = PACK.clue_card(ch.aside)
        assert aside.trauma == PACK.secret(st.secrets[0].card).trauma  # position 1
        assert ch.aside not in st.clue_box and ch.aside not in st.clue_deck
        assert len(ch.cards) == n - 1  # V cards, from the shuffled deck
        assert not set(ch.cards) & set(st.clue_deck)
        assert CHAMBER in st.rooms and not GAME.invariants(st)


def test_p_chamber_04_the_passage_room_is_the_one_missing_from_the_trauma() -> None:
    st = new_game(4, 2, secret_chamber=True)
    assert st.chamber is not None
    trauma = PACK.secret(st.secrets[0].card).trauma
    clue_ids = {c.id for c in PACK.clue_cards}
    elsewhere = [c for c in st.clue_deck + st.chamber.cards + [
        c for v in st.visitors.values() for c in v.hand] if c in clue_ids]
    rooms = {PACK.clue_card(c).room for c in elsewhere if PACK.clue_card(c).trauma == trauma}
    assert _passage_room(st) not in rooms


def test_p_chamber_02_03_nothing_enters_the_sealed_chamber() -> None:
    st = new_game(4, 2, secret_chamber=True)
    eng = Engine(st)
    assert not st.tokens.get(CHAMBER) and not eng.dice_in(CHAMBER)
    assert eng.sealed(CHAMBER) and not any(CHAMBER in d.rooms for d in st.doors.values())
    assert all(CHAMBER not in eng.die_neighbours(r) for r in st.rooms)
    sp = to_spirit_turn(st)
    assert all(a.p("to") != CHAMBER for a in GAME.legal_actions(sp, SPIRIT))
    assert not any(CHAMBER in o[0] for o in Engine(sp).increase_options())


def _sealed_check(st: PresenceState) -> None:
    if st.chamber is not None and st.chamber.passage_room is None:
        assert all(v.room != CHAMBER for v in st.visitors.values())
        assert all(d.room != CHAMBER for d in st.dice) and st.spirit.pawn_room != CHAMBER
        assert not st.tokens.get(CHAMBER)


def test_p_chamber_05_a_33_uncover_is_legal_from_the_start_and_wasted_elsewhere() -> None:
    st = edit(new_game(4, 3, secret_chamber=True))
    wrong = next(r for r in ("great_hall", "salon", "library") if r != _passage_room(st))
    st.visitors["s2"].room = wrong
    assert UNCOVER in GAME.legal_actions(st, "s2")  # before any secret is revealed
    for room in st.rooms:  # H-L2: its legality never tells where the passage is
        probe = edit(st)
        probe.visitors["s2"].room = room
        assert UNCOVER in GAME.legal_actions(probe, "s2") or room == CHAMBER
    st, events = do(st, "s2", UNCOVER)
    assert st.chamber is not None and st.chamber.passage_room is None
    assert st.actions_left == 2 and "passage" not in st.doors
    assert any("nothing is found" in e.text for e in events if e.audience == PUBLIC)
    assert UNCOVER not in GAME.legal_actions(new_game(4, 3), "s2")  # variant off


def test_p_chamber_05_06_uncover_in_the_right_room_opens_the_passage() -> None:
    st = _uncovered()
    room = _passage_room(st)
    assert st.chamber is not None and st.chamber.passage_room == room
    door = st.doors["passage"]
    assert door.open and not door.locked and sorted(door.rooms) == sorted([room, CHAMBER])
    assert UNCOVER not in GAME.legal_actions(st, "s2")
    view = GAME.view(st, None)
    assert view["chamber"]["passage_room"] == room
    assert any(d["passage"] for d in view["doors"])


def test_p_chamber_06_the_passage_is_a_door_that_cannot_be_locked() -> None:
    st = _uncovered()
    eng = Engine(st)
    acts = ["lock", "close_and_lock", "close", "open", "unlock"]
    assert eng.door_acts("passage", acts) == ["close"]
    st, _ = do(st, "s2", act("walk"))
    assert "go:passage" in options(st) and "close:passage" in options(st)
    st = answer(st, "go:passage")
    assert st.visitors["s2"].room == CHAMBER and not Engine(st).sealed(CHAMBER)


def test_p_chamber_07_dice_reach_the_chamber_only_through_the_passage() -> None:
    st = _uncovered()
    eng = Engine(st)
    room = _passage_room(st)
    assert eng.die_neighbours(CHAMBER) == [room]
    assert CHAMBER in eng.die_neighbours(room)
    assert all(CHAMBER not in eng.die_neighbours(r) for r in st.rooms if r != room)
    sp = to_spirit_turn(quiet(st))
    put_die(sp, CHAMBER, 2)
    moves = {a.p("to") for a in GAME.legal_actions(sp, SPIRIT) if a.kind == "move_die"}
    assert moves == {room}


def _in_chamber(cards: list[str]) -> PresenceState:
    st = edit(_uncovered())
    assert st.chamber is not None
    st.clue_deck += st.chamber.cards  # keep the cards conserved
    st.chamber.cards = []
    for c in cards:
        st.clue_deck.remove(c)
        st.chamber.cards.append(c)
    st.visitors["s2"].room = CHAMBER
    return st


def _chamber_actions(st: PresenceState) -> list[str]:
    return [GAME.describe(st, "s2", a) for a in GAME.legal_actions(st, "s2")
            if a.kind == "room_action"]


def test_p_chamber_08_g_17_hidden_papers_take_a_card_privately() -> None:
    base = new_game(4, 3, secret_chamber=True)
    clue = next(c for c in base.clue_deck if not PACK.is_fear_card(c))
    fear = next(c for c in base.clue_deck if PACK.is_fear_card(c))
    st = _in_chamber([clue, fear])
    labels = _chamber_actions(st)
    assert any("Hidden Papers" in x for x in labels) and any("Old Portrait" in x for x in labels)
    st, events = do(st, "s2", act("room_action", index=0, speed="main"))
    assert st.prompts[-1].data["private"] and sorted(options(st)) == sorted([clue, fear])
    assert any(PACK.clue_card(clue).name in e.text for e in events if e.audience == ["s2"])
    took = answer(st, clue)
    assert clue in took.visitors["s2"].hand and took.chamber is not None
    assert took.chamber.cards == [fear] and not GAME.invariants(took)
    trashed = answer(st, fear)  # a fear card taken this way is trashed without effect
    assert fear in trashed.clue_trash and not trashed.visitors["s2"].fear_cards
    assert trashed.visitors["s2"].fear == st.visitors["s2"].fear


def test_p_chamber_08_g_17_old_portrait_inspects_an_unrevealed_secret() -> None:
    base = new_game(4, 3, secret_chamber=True)
    st = _in_chamber(base.chamber.cards if base.chamber else [])
    st, _ = do(st, "s2", act("room_action", index=1, speed="main"))
    st = answer(st, "3")
    name = PACK.secret(st.secrets[2].card).name
    assert any(name in line for line in st.private_seen["s2"])
    assert name not in json.dumps(GAME.view(st, None))
    assert name not in json.dumps(GAME.view(st, "s3"))


def test_h_35_h_36_the_chamber_cards_and_passage_card_are_the_spirits() -> None:
    st = new_game(4, 3, secret_chamber=True)
    assert st.chamber is not None
    hidden = [st.chamber.aside, *st.chamber.cards]
    for who in (None, "s2", "s3"):
        view = json.dumps(GAME.view(st, who))
        assert all(f'"{c}"' not in view for c in hidden)
    assert GAME.view(st, None)["chamber"]["cards"] == 3
    sp = GAME.view(st, SPIRIT)["spirit_private"]["chamber"]
    assert sp["aside"] == PACK.clue_card(st.chamber.aside).name
    summary = GAME.private_summary(st, SPIRIT) or ""
    assert PACK.clue_card(st.chamber.aside).name in summary
    assert all(f'"{c}"' in GAME.public_secrets(st) for c in hidden)


def test_p_dark_02_scripts_needing_the_chamber_join_only_with_it() -> None:
    with_chamber = set()
    for seed in range(12):
        with_chamber |= set(GAME.setup(["s1", "s2", "s3"], GAME.options_model(
            secret_chamber=True, scripts="expert"), seed).display_scripts)
        assert not {"C3", "C4"} & set(GAME.setup(["s1", "s2", "s3"], GAME.options_model(
            scripts="expert"), seed).display_scripts)
    assert {"C3", "C4"} & with_chamber


@pytest.mark.parametrize(("n", "seed"), [(3, 0), (5, 1)])
def test_p_chamber_random_playouts_end_keep_it_sealed_and_keep_invariants(n: int,
                                                                         seed: int) -> None:
    st = random_playout(n, seed, check=_sealed_check, secret_chamber=True)
    assert GAME.result(st) is not None


def test_p_chamber_first_choice_and_ai_tables_reach_the_end() -> None:
    assert GAME.result(first_choice_playout(4, 1, secret_chamber=True)) is not None
    st = ai_playout(4, 2, secret_chamber=True, dark_board=True, mystery=True,
                    unknown_threat=True)
    assert GAME.result(st) is not None


def test_p_chamber_render_shows_it_sealed_then_open() -> None:
    from renders.presence import render_board

    sealed = GAME.view(new_game(4, 3, secret_chamber=True), None)
    opened = GAME.view(_uncovered(), None)
    assert render_board(sealed) != render_board(opened)


def test_p_chamber_01_05_the_table_is_told_the_chamber_is_sealed_and_how_it_opens() -> None:
    """Stop 65's demo (Secret Chamber on): the thread never named the chamber, its cards or
    the Uncover action; the count is public, the cards are the spirit's (H-35, H-36)."""
    st = new_game(4, 3, secret_chamber=True)
    assert st.chamber is not None
    line = next((x for x in st.log if x.startswith("The Secret Chamber is sealed")), None)
    assert line == ("The Secret Chamber is sealed: 3 clue cards lie face down inside, and the "
                    "card naming the room of its passage is set aside face down. A visitor may "
                    "Uncover it (a main action) from the room missing among the clue cards of "
                    "the trauma of the secret at position 1."), st.log
    eng = Engine(st)
    for c in [st.chamber.aside, *st.chamber.cards]:
        assert eng.card_name(c) not in line
    assert not any("Secret Chamber is sealed" in x for x in new_game(4, 3).log)


def _deducible(n: int = 4, seed: int = 3) -> PresenceState:
    """A quiet board where the secret at position 1 is revealed and every other clue card
    of its trauma lies face up in the revealed row: its trauma's cards name every room but
    the passage's (P-CHAMBER-04)."""
    st = edit(quiet(new_game(n, seed, secret_chamber=True)))
    assert st.chamber is not None
    trauma = PACK.secret(st.secrets[0].card).trauma
    st.secrets[0].revealed = True
    for c in PACK.clue_cards_for(st.n):
        if c.trauma != trauma or c.id == st.chamber.aside:
            continue
        for pile in (st.clue_deck, st.chamber.cards, *(v.hand for v in st.visitors.values()),
                     *(s.discards for s in st.secrets)):
            if c.id in pile:
                pile.remove(c.id)
        st.clue_revealed.append(c.id)
    return st


def test_p_chamber_04_05_the_ai_uncovers_where_the_passage_must_be() -> None:
    """Stop 66's demos: nobody, the AI included, ever Uncovered the Secret Chamber. Once
    position 1's trauma is known and its other clue cards are seen, a visitor in the one
    room left Uncovers it; elsewhere it does not waste the action there."""
    from rules.presence.ai import Board, choose_action, passage_odds

    st = _deducible()
    room = _passage_room(st)
    seat = st.active
    assert passage_odds(Engine(st), Board(Engine(st)), seat) == {room: 1.0}
    st.visitors[seat].room = room
    assert choose_action(st, seat, GAME) == UNCOVER
    wrong = edit(st)
    wrong.visitors[seat].room = next(r for r in ("great_hall", "salon", "library")
                                     if r != room)
    assert choose_action(wrong, seat, GAME) != UNCOVER


def test_p_chamber_05_a_room_searched_in_vain_is_not_searched_again() -> None:
    """A failed Uncover is public: the AI's odds drop the room, and the table's view says
    where it was searched. The thread says what the visitor tried, and where."""
    from rules.presence.ai import Board, passage_odds

    st = edit(quiet(new_game(4, 3, secret_chamber=True)))
    seat = st.active
    wrong = next(r for r in ("great_hall", "salon", "library") if r != _passage_room(st))
    st.visitors[seat].room = wrong
    before = passage_odds(Engine(st), Board(Engine(st)), seat)
    name = Engine(st).name(seat)
    st, events = do(st, seat, UNCOVER)
    # said as what it is (the demo's "uses the Secret Chamber for Uncover" was not)
    assert [e.text for e in events][:2] == [
        f"{name} tries to Uncover the passage to the Secret Chamber.",
        f"{name} searches the {PACK.room(wrong).name} for a secret passage: nothing is found."]
    assert st.chamber is not None and st.chamber.searched == [wrong]
    assert GAME.view(st, None)["chamber"]["searched"] == [wrong]
    after = passage_odds(Engine(st), Board(Engine(st)), seat)
    assert wrong not in after and abs(sum(after.values()) - 1.0) < 1e-9
    assert set(after) <= set(before)


def test_p_chamber_04_05_the_advice_suggests_uncovering_when_it_is_legal_and_likely() -> None:
    """Stop 66's demos: the advice never named the Uncover action. Once position 1 is
    revealed and its trauma's face-up cards leave few rooms, the visitor's turn advice says
    where the passage may be and to Uncover it; before that, it says nothing of it."""
    from rules.presence.guide import advice

    st = _deducible()
    room = _passage_room(st)
    seat = st.active
    name = PACK.room(room).name
    trauma = PACK.secret(st.secrets[0].card).trauma.capitalize()
    st.visitors[seat].room = room
    view = GAME.view(st, None)
    assert view["chamber"]["passage_may_be"] == [room]
    said = advice(view, seat) or ""
    assert (f"The Secret Chamber's passage may be here: the {trauma} clue cards seen so far "
            "leave only this room. Uncover it (a main action)") in said, said
    away = edit(st)
    away.visitors[seat].room = "great_hall" if room != "great_hall" else "salon"
    said = advice(GAME.view(away, None), seat) or ""
    assert f"The Secret Chamber's passage is in the {name}" in said and "Uncover" in said, said
    two = edit(away)  # one more of its cards unseen: two rooms left, said as a choice
    card = two.clue_revealed.pop()
    two.clue_deck.append(card)
    other = PACK.room(PACK.clue_card(card).room).name
    said = advice(GAME.view(two, None), seat) or ""
    assert any(f"The Secret Chamber's passage is in the {a} or the {b}: " in said
               for a, b in ((name, other), (other, name))), said
    hidden = edit(st)
    hidden.secrets[0].revealed = False  # nothing to deduce from yet (P-CHAMBER-04)
    view = GAME.view(hidden, None)
    assert view["chamber"]["passage_may_be"] is None
    assert "Uncover" not in (advice(view, seat) or "")


def test_p_chamber_04_h_35_the_passage_rooms_are_read_from_face_up_cards_only() -> None:
    """The public reckoning never reads a hand, the chamber's cards or Mystery Mode's
    face-down discards: the same for every seat's view."""
    st = _deducible()
    assert st.chamber is not None
    trauma = PACK.secret(st.secrets[0].card).trauma
    card = next(c for c in st.clue_revealed if PACK.clue_card(c).trauma == trauma)
    st.clue_revealed.remove(card)
    st.visitors["s3"].hand.append(card)  # held, not face up: the table does not know it
    rooms = GAME.view(st, None)["chamber"]["passage_may_be"]
    assert sorted(rooms) == sorted([_passage_room(st), PACK.clue_card(card).room])
    for seat in (SPIRIT, *st.visitor_seats):
        assert GAME.view(st, seat)["chamber"] == GAME.view(st, None)["chamber"]
    st.secrets[1].discards.append(st.clue_revealed.pop())
    st.mystery = True  # face down beneath a secret: unseen by the table
    assert len(GAME.view(st, None)["chamber"]["passage_may_be"]) == 3


def _hidden_swapped(st: PresenceState) -> PresenceState:
    """`st` with every clue card nobody saw face up moved: those in the visitors' hands, the
    chamber's cards and (Mystery Mode) face-down discards rotated among themselves and the
    clue deck. The table cannot tell the two states apart."""
    out = edit(st)
    shown = set(out.clue_revealed) | set(out.clues_shown)
    if not out.mystery:
        shown |= {c for s in out.secrets for c in s.discards}
    piles = [v.hand for v in out.visitors.values()] + [out.clue_deck]
    if out.chamber is not None:
        piles.append(out.chamber.cards)
    if out.mystery:
        piles += [s.discards for s in out.secrets]
    spots = [(pile, k) for pile in piles for k, c in enumerate(pile)
             if c not in shown and c in {x.id for x in PACK.clue_cards_for(out.n)}]
    cards = [pile[k] for pile, k in spots]
    for (pile, k), card in zip(spots, cards[1:] + cards[:1], strict=True):
        pile[k] = card
    return out


@pytest.mark.parametrize(("seed", "mystery"), [(6, False), (5, False), (5, True)])
def test_p_chamber_04_h_35_the_passage_rooms_only_shrink_and_read_nothing_hidden(
        seed: int, mystery: bool) -> None:
    """Stop 67: a clue card once face up in the revealed row, then taken into a hand, counted
    as unseen again, and the rooms the passage may be in grew back (seed 38's AI game of
    that day). The table remembers what it saw face up: over a whole game the list only
    shrinks, always holds the passage's room, and is the same however the cards nobody saw
    lie."""
    st = GAME.setup([SPIRIT, "s2", "s3", "s4"],
                    GAME.options_model(secret_chamber=True, mystery=mystery), seed)
    before: list[str] | None = None
    lists = 0
    while GAME.result(st) is None:
        seat = sorted(GAME.to_act(st))[0]
        st = GAME.apply(st, seat, GAME.ai_action(st, seat)).state
        rooms = GAME.view(st, None)["chamber"]["passage_may_be"]
        if rooms is None:
            assert before is None or st.chamber is None or st.chamber.passage_room is not None
            continue
        lists += 1
        assert _passage_room(st) in rooms
        if before is not None:
            assert set(rooms) <= set(before), (before, rooms)
        before = rooms
        if lists % 5 == 1:
            assert GAME.view(_hidden_swapped(st), None)["chamber"]["passage_may_be"] == rooms
    assert lists > 0


def test_p_chamber_04_a_revealed_card_taken_into_a_hand_stays_seen() -> None:
    """Stop 67: the revealed row's card of position 1's trauma, drawn into a visitor's hand
    (P-CLUE-03), put its room back among the passage's rooms: the table saw it face up."""
    from tests.presence.helpers import choose

    st = _deducible()
    st.clues_shown = list(st.clue_revealed)  # as the engine's reveal records them
    room = _passage_room(st)
    assert GAME.view(st, None)["chamber"]["passage_may_be"] == [room]
    trauma = PACK.secret(st.secrets[0].card).trauma
    card = next(c for c in st.clue_revealed if PACK.clue_card(c).trauma == trauma)
    eng = Engine(st)
    eng.draw_clue(st.active or "s2")
    st = GAME.apply(eng.st, st.active or "s2", choose(card)).state
    assert card in st.visitors[st.active or "s2"].hand and card not in st.clue_revealed
    for seat in (None, SPIRIT, *st.visitor_seats):
        assert GAME.view(st, seat)["chamber"]["passage_may_be"] == [room]
