"""Scenario tests for Presence rule ids that no test named before (spec `presence.md`).

Each test sets up a real game with a fixed seed, edits the state into the scene the rule
speaks of, and drives the engine through `GAME.apply` (or one engine step), so it fails if the
rule is broken:

* P-BOND-02: one bonded visitor at a time; a new bond moves the marker;
* P-CHAMBER-03: nothing enters the Secret Chamber (visitor, presence die, spirit pawn) until
  the passage is found, and all of them may once it is;
* P-FIRST-01 / P-FIRST-09: the first game is the session game plus the first-game
  deviations, with setup steps 8-12 applied;
* P-ROUND-04: the spirit takes its turn once all visitors have taken theirs;
* P-TRACK-04: losing the marker of the script's type reveals the script at once and resolves
  its effect.

Not tested here: P-HORROR-03 (table advice: lighting, music, devices, role-play), P-CAMPAIGN-01
(the campaign is not shipped), P-DISCORD-05 (voice enforcement is not implemented).
"""

from __future__ import annotations

from collections import Counter

import pytest

from rules.core.types import act
from rules.presence.content import default_pack
from rules.presence.engine import Engine
from rules.presence.game import GAME
from rules.presence.state import PresenceState
from tests.presence.helpers import (
    SPIRIT,
    VISITOR,
    active_visitor,
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
CHAMBER = "secret_chamber"


def give_spirit_card(st: PresenceState, card: str) -> None:
    sp = st.spirit
    for pile in (sp.deck, sp.discard):
        if card in pile:
            pile.remove(card)
            sp.hand.append(card)


def lonely_touch_bond(st: PresenceState, room: str, target: str) -> PresenceState:
    """The spirit plays Lonely Touch's top power from a die in `room`; `target` (alone
    there) is offered the coloured choice and accepts the bond."""
    give_spirit_card(st, "spirit_1.lonely_touch")
    d = put_die(st, room, 3)
    st, _ = do(st, SPIRIT, act("play_spirit", card="spirit_1.lonely_touch"))
    st = answer(st, str(d))
    st = answer(st, "top")
    assert prompt_kind(st) == "choice" and st.prompts[-1].seats == [target]
    bond = next(o for o, label in st.prompts[-1].data["options"] if "bond" in label.lower())
    return settle(answer(st, bond))


# ---------------------------------------------------------------- bonding
def test_P_BOND_02_one_bonded_visitor_a_new_bond_moves_the_marker() -> None:
    st = to_spirit_turn(quiet(new_game(3, 1)))
    assert st.spirit.character == "spirit_1" and st.bonded is None
    st.visitors["s3"].room = "library"  # doors closed: s2 and s3 are each alone
    st = lonely_touch_bond(st, "library", "s3")
    assert st.bonded == "s3"
    st = lonely_touch_bond(st, "great_hall", "s2")
    assert st.bonded == "s2"  # the marker moved; it was not added
    view = GAME.view(st, None)
    assert view["bonded"] == "s2"
    assert [v["seat"] for v in view["visitors"] if v["bonded"]] == ["s2"]
    assert not GAME.invariants(st)


# ---------------------------------------------------------------- the Secret Chamber
def _ways_in(st: PresenceState, room: str) -> dict[str, list[str]]:
    """Where, from `room`, a walking visitor, a presence die, an added or relocated die and
    the spirit pawn could go (visitor s2 stands in `room`)."""
    walk, _ = do(st, "s2", act("walk"))
    sp = to_spirit_turn(quiet(st))
    d = put_die(sp, room, 3)
    dice = sorted(a.p("to") for a in GAME.legal_actions(sp, SPIRIT)
                  if a.kind == "move_die" and a.p("die") == d)
    inc, _ = do(sp, SPIRIT, act("increase", card=sp.spirit.hand[0]))
    adds = [o.split(":", 1)[1] for o in options(inc) if o.startswith("add:")]
    reloc = answer(inc, f"reloc:{d}")
    relocs = [o.split(":", 1)[1] for o in options(reloc)]
    pawn = edit(sp)
    pawn.spirit.pawn_room = room
    Engine(pawn).step_pawn_step(1, 0)
    return {"walk": options(walk), "die": dice, "add": adds, "relocate": relocs,
            "pawn": options(pawn)}


def test_P_CHAMBER_03_nothing_enters_the_chamber_until_the_passage_is_found() -> None:
    st = edit(new_game(4, 3, secret_chamber=True))
    assert st.chamber is not None and CHAMBER in st.rooms
    room = PACK.clue_card(st.chamber.aside).room  # where the passage will be found
    st.visitors["s2"].room = room
    sealed = _ways_in(st, room)
    assert not any("passage" in o for o in sealed["walk"])  # no door into it
    assert CHAMBER not in sealed["die"] and CHAMBER not in sealed["pawn"]
    assert CHAMBER not in sealed["add"] and CHAMBER not in sealed["relocate"]
    assert Engine(st).dark(CHAMBER)  # dark, so only the seal keeps the dice out
    assert sealed["add"] and sealed["die"] and sealed["pawn"] != ["stop"]
    # Once opened, visitors and spirit alike may enter.
    opened, _ = do(st, "s2", act("uncover"))
    assert opened.chamber is not None and opened.chamber.passage_room == room
    found = _ways_in(opened, room)
    assert "go:passage" in found["walk"]
    assert CHAMBER in found["die"] and CHAMBER in found["pawn"]
    assert CHAMBER in found["add"] and CHAMBER in found["relocate"]
    walk, _ = do(opened, "s2", act("walk"))
    inside = answer(walk, "go:passage")
    assert inside.visitors["s2"].room == CHAMBER


# ---------------------------------------------------------------- the first game
def test_P_FIRST_01_the_first_game_is_the_session_game_with_its_deviations() -> None:
    """No scenario of its own (G-20): the first-game preset is the session game with
    P-FIRST-02..08, whatever the other options say."""
    assert GAME.modes == ("session",)
    opts = GAME.options_model(first_game=True, hope_track="B", fear="hard",
                              open_communication=False)
    assert opts.mode == "session"
    first = new_game(4, 4, first_game=True, hope_track="B", fear="hard",
                     open_communication=False)
    # the session game with the same side, fear count and table talk as the preset
    session = new_game(4, 4, hope_track="A", fear="easy", open_communication=True)
    same = ("rooms", "n", "visitor_seats", "fireplace_lit", "board_side", "basement_side",
            "track_side", "time", "hope", "nerve", "round", "phase", "active",
            "open_communication", "mystery", "chamber", "item_box_count", "bonded")
    for field in same:
        assert getattr(first, field) == getattr(session, field), field
    assert {d: (x.open, x.locked) for d, x in first.doors.items()} == {
        d: (x.open, x.locked) for d, x in session.doors.items()}
    for pile in ("item_deck", "dice", "clue_deck", "clue_box", "spirit_clue_bag",
                 "small_clue_pile"):
        assert len(getattr(first, pile)) == len(getattr(session, pile)), pile
    assert len(first.spirit.hand) == len(session.spirit.hand) == 4
    assert {s: v.character for s, v in first.visitors.items()} == {
        s: v.character for s, v in session.visitors.items()}
    assert {r: len(t) for r, t in first.tokens.items()} == {
        r: len(t) for r, t in session.tokens.items()}
    # ... and the deviations are the listed ones
    fg = PACK.presets.first_game
    assert first.first_game and not session.first_game
    assert (first.track_side, first.hope, first.nerve) == (
        "A", PACK.hope_track.sides["A"].hope, PACK.hope_track.sides["A"].nerve)  # -02
    assert first.spirit.character == fg.spirit == "spirit_5"  # -03
    assert first.display_scripts == ["A1", "A2"]  # -04
    cards = first.spirit.hand + first.spirit.deck + first.spirit.discard
    assert len(cards) == 10 and all("A" in PACK.spirit_card(c).marks for c in cards)  # -05
    assert sorted(s.card for s in first.secrets) == sorted(PACK.spirit_secrets("A"))  # -06
    fear = [c for c in first.clue_deck if PACK.is_fear_card(c)] + [
        c for v in first.visitors.values() for c in v.fear_cards]
    assert len(fear) == 3  # -07: one per visitor
    assert first.open_communication  # -08
    assert GAME.guided(opts) and not GAME.guided(GAME.options_model())  # taught as it plays


@pytest.mark.parametrize("n", [3, 5])
def test_P_FIRST_09_the_first_game_goes_on_with_setup_steps_8_to_12(n: int) -> None:
    st = new_game(n, 6, first_game=True)
    v = n - 1
    # Step 8: the four secret cards face down on positions 1-4
    assert [s.position for s in st.secrets] == [1, 2, 3, 4]
    assert not any(s.revealed for s in st.secrets)
    assert sorted(s.card for s in st.secrets) == sorted(PACK.spirit_secrets("A"))
    # Step 9: the clue deck for N, less the secret board's removals, plus the fear cards
    board = PACK.secret_board(n)
    removed = Counter(PACK.clue_card(c).trauma for c in st.clue_box if not PACK.is_fear_card(c))
    for slot, pos in zip(st.secrets, board.positions, strict=True):
        assert removed[PACK.secret(slot.card).trauma] == pos.remove
    clue_ids = {c.id for c in PACK.clue_cards}
    held = [c for vis in st.visitors.values() for c in vis.hand + vis.fear_cards
            if c in clue_ids or PACK.is_fear_card(c)]  # a game-start ability may draw one
    deck = st.clue_deck + held
    assert sum(not PACK.is_fear_card(c) for c in deck) == {3: 14, 5: 26}[n]
    assert sum(PACK.is_fear_card(c) for c in deck) == v * PACK.presets.first_game.fear_per_visitor
    # Step 10: one of the displayed scripts drawn in secret
    assert st.script in st.display_scripts and st.script_pool == [
        s for s in st.display_scripts if s != st.script]
    assert not st.script_revealed
    # Step 11: one spirit clue and one die at 1 per die; a small clue in every other room
    spirit_rooms = {r for r, toks in st.tokens.items() if toks[0].kind == "spirit"}
    assert len(spirit_rooms) == n == len(st.dice)
    assert {d.room for d in st.dice} == spirit_rooms and {d.value for d in st.dice} == {1}
    start = PACK.manor.start_room
    assert start not in st.tokens
    assert all(len(st.tokens.get(r, [])) == 1 for r in st.rooms if r != start)
    # Step 12: hands, and the visitor left of the spirit starts round 1
    assert len(st.spirit.hand) == n
    for vis in st.visitors.values():
        assert sum(c.startswith(vis.character + ".") for c in vis.hand) == 5
    assert st.active == st.visitor_seats[0] == "s2" and st.round == 1
    assert st.phase == "visitor" and not GAME.invariants(st)


# ---------------------------------------------------------------- round structure
@pytest.mark.parametrize("spirit_seat", [0, 2])
def test_P_ROUND_04_the_spirit_takes_its_turn_once_all_visitors_have(spirit_seat: int) -> None:
    st = new_game(4, 3, spirit_seat=spirit_seat)
    spirit = st.spirit_seat
    played = []
    for seat in list(st.visitor_seats):
        assert st.phase == "visitor" and st.active == seat
        assert GAME.legal_actions(st, spirit) == []  # the spirit waits
        played.append(seat)
        st, _ = do(st, seat, act("end_turn"))
        st = settle(st)
    assert played == st.visitor_seats and len(played) == 3
    assert st.phase == "spirit" and st.active == spirit and st.round == 1
    assert "end_spirit" in {a.kind for a in GAME.legal_actions(st, spirit)}


# ---------------------------------------------------------------- the Hope Track
def test_P_TRACK_04_losing_the_scripts_marker_reveals_it_and_resolves_its_effect() -> None:
    # A1 is a hope script whose reveal makes every visitor suffer 1 fear.
    assert PACK.script("A1").type == "hope" and PACK.script("A1").reveal
    st = active_visitor(quiet(new_game(3, 3)), VISITOR, 3)
    st.script, st.time, st.hope = "A1", 3, 5
    fear = {s: v.fear for s, v in st.visitors.items()}
    e = eng(st)
    e.adjust_track("hope", -2, None)  # mid-round: meets the time marker
    e.run()
    assert st.hope is None and st.script_revealed
    assert st.phase == "visitor" and st.active == VISITOR  # at once, not at upkeep
    assert {s: v.fear for s, v in st.visitors.items()} == {s: f + 1 for s, f in fear.items()}
    assert any("script is revealed" in line for line in st.log)
    # the other marker lost: the hope script stays hidden and nothing happens
    other = active_visitor(quiet(new_game(3, 3)), VISITOR, 3)
    other.script, other.time, other.nerve = "A1", 3, 4
    e = eng(other)
    e.adjust_track("nerve", -1, VISITOR)
    e.run()
    assert other.nerve is None and not other.script_revealed
    assert all(v.fear == 0 for v in other.visitors.values())
    # a nerve script (B2: every visitor discards 1 card) is revealed by the nerve marker
    assert PACK.script("B2").type == "nerve"
    nerve = active_visitor(quiet(new_game(3, 3)), VISITOR, 3)
    nerve.script, nerve.time, nerve.nerve = "B2", 3, 4
    hands = {s: len(v.hand) for s, v in nerve.visitors.items()}
    e = eng(nerve)
    e.adjust_track("nerve", -1, VISITOR)
    e.run()
    nerve = settle(nerve)
    assert nerve.script_revealed
    assert {s: len(v.hand) for s, v in nerve.visitors.items()} == {
        s: h - 1 for s, h in hands.items()}
