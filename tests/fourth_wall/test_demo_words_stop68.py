"""Stop 68's demo reading (Conflict, 4 players, seed 68, as The Wall; Alliance, 3 players,
seed 68): the words a player reads agree with what the engine does. Each test is named by the
rule id it checks."""

from __future__ import annotations

from rules.fourth_wall.engine import Engine
from rules.fourth_wall.game import GAME
from tests.fourth_wall.helpers import (
    answer,
    clear_streets,
    do,
    free_marble,
    inv_turn,
    new_game,
    put_horror,
    seat_of,
    set_card,
    set_gates,
    set_hand,
    set_stage,
    set_wall,
    take_marble,
    texts,
    wall_turn,
)


def test_FW_ACT_01_the_board_posts_advice_names_close_a_gate_beside_a_horror() -> None:
    """Stop 68's Alliance demo: the guided player's board post said "The Cultist On the
    Streets still needs a Force to be Defeated: Intervene before The Wall Triggers it." while
    its hand showed a Clue, a Force and a Science with 3 Gates Open; the player Closed a Gate
    (the way the Investigators win) against the advice. The board post reads the public view,
    so it cannot know the hand: it names Close a Gate for a hand that shows the three Symbols
    as well as the Horror, and still names no Marble of the hand."""
    for mode in ("alliance", "conflict"):
        st = inv_turn(new_game(mode, 3, 68), "i1", ap=2)
        clear_streets(st)
        put_horror(st, "H-CULTIST")
        set_hand(st, "i1", "M-C", "M-F", "M-DRAW2")
        seat = seat_of(st, "i1")
        assert "close_gate" in {a.kind for a in GAME.legal_actions(st, seat)}
        public = GAME.guide_text(st, seat) or ""
        assert "Close a Gate" in public and "a Clue, a Force and a Science" in public, public
        assert "Cultist" in public and "Intervene" in public, public
        assert "Double Draw" not in public and "Your hand" not in public, public
        # The player's own advice reads the hand: Close a Gate now.
        assert (GAME.guide_text(st, seat, private=True) or "").endswith("Close a Gate now.")
        # Short of the AP Close a Gate costs, the board post names the Horror alone.
        st.ap = 1
        public = GAME.guide_text(st, seat) or ""
        assert "Close a Gate" not in public and "Intervene" in public, public


def test_FW_WALL_03_the_wrath_or_brood_advice_strikes_only_with_doom_that_pays() -> None:
    """Stop 68's Conflict demo, twice: "You hold 0 Doom and 4 Horror cards; 2 of 5 Gates are
    Open. Wrath, then strike: the Ghoul On the Streets Triggers for 2 Doom before the
    Investigators Defeat it." beside the button "Wrath (gain 1 Doom, then take actions)": a
    Wrath then holds 1 Doom, short of the Ghoul's 2. Strike is advised only when the Doom held
    and a Wrath's together pay the Trigger; else Brood, which keeps its Doom for the next Wrath
    and unleashes The Scourge."""
    st = wall_turn(new_game("conflict", 4, 68), doom=0, mode=None)
    clear_streets(st)
    put_horror(st, "H-GHOUL")  # Trigger 2
    seat = st.wall_seat
    assert seat is not None
    view = GAME.view(st, None)
    assert view["turn"]["brood_allowed"] and view["turn"]["wrath_gain"] == 1
    for v in (view, GAME.view(st, seat)):
        tip = GAME.advice(v, seat) or ""
        assert "strike" not in tip and "Brood" in tip, tip
        assert "Scourge" in tip, tip  # what the Brood does here, with a Horror On the Streets
    st.doom = 1  # 1 held and a Wrath's 1 pay the Ghoul's 2
    tip = GAME.advice(GAME.view(st, None), seat) or ""
    assert "Wrath, then strike: the Ghoul On the Streets Triggers for 2 Doom" in tip, tip
    # On The Wall's first turn a Wrath gains 2 (FW-WALL-03): strike is paid for.
    st.doom, st.wall_turns = 0, 1
    assert GAME.view(st, None)["turn"]["wrath_gain"] == 2
    assert "Wrath, then strike" in (GAME.advice(GAME.view(st, None), seat) or "")


def test_FW_GAP_01_the_street_magicians_swap_says_where_the_marble_was() -> None:
    """Stop 68's Conflict demo (seed 71): "The Street Magician swaps a Force Marble for the
    Clue Marble On the Streets." then "Ghoul (The Scourge) is Defeated!", the Clue Marble
    having been Attached to that Ghoul, one of two. The line names the Horror it was Attached
    to as the next line does, or the Streets it was Anchored to."""
    st = inv_turn(new_game("conflict", 2, 68), "i1", ap=2)
    clear_streets(st)
    set_card(st, "i1", "INV-12")
    put_horror(st, "H-GHOUL")
    scourge = put_horror(st, "H-GHOUL", attached=("M-C", "M-F"))
    st.scourge = scourge
    (force,) = set_hand(st, "i1", "M-F", "M-S")[:1]
    st, _ = do(st, "s2", "unique", inv="i1")
    st, _ = answer(st, "choose_marble", marble=force)
    clue = next(m for m in Engine(st).on_streets(scourge).attached  # type: ignore[union-attr]
                if st.marble_cards[m] == "M-C")
    st, ev = answer(st, "choose_marble", marble=clue)
    said = texts([e for e in ev if e.public])
    assert ("swaps a Force Marble for the Clue Marble Attached to Ghoul (The Scourge)."
            in said), said
    assert "Ghoul (The Scourge) is Defeated!" in said, said
    # A Marble Anchored to the Streets.
    st = inv_turn(new_game("conflict", 2, 68), "i1", ap=2)
    clear_streets(st)
    set_card(st, "i1", "INV-12")
    anchor = free_marble(st, "M-ANCHOR")
    take_marble(st, anchor)
    st.anchored.append(anchor)
    (force,) = set_hand(st, "i1", "M-F", "M-S")[:1]
    st, _ = do(st, "s2", "unique", inv="i1")
    st, ev = answer(st, "choose_marble", marble=force)  # the only Marble to swap with: taken
    said = texts([e for e in ev if e.public])
    assert "swaps a Force Marble for the Regroup Anchor Anchored to the Streets." in said, said


def test_FW_GATE_07_the_wall_is_told_the_unique_that_opens_the_fifth_gate() -> None:
    """Stop 68's Conflict demo (seed 71), The Wall's last turn: "You hold 2 Doom and 2
    Horror cards; 4 of 5 Gates are Open. The Ghoul On the Streets Triggers for 2 Doom: strike
    before the Investigators Defeat it." The High Priest's Unique Action (2 Doom) opens a Gate,
    and the fifth Gate opening after An Eye Opens wins the game (FW-GATE-07): the AI used it
    and won, the guided player was sent to the Ghoul. The advice names the button that wins,
    on the board post and in The Wall's own panel, and a Horror whose Trigger opens a Gate
    where no Unique does."""
    st = wall_turn(new_game("conflict", 4, 68), doom=2)
    clear_streets(st)
    set_wall(st, "W-4")  # The High Priest: Unique (2): Sacrifice a Cultist. Open a Gate.
    set_stage(st, "crescendo")
    set_gates(st, 4)
    put_horror(st, "H-GHOUL")
    seat = st.wall_seat
    assert seat is not None
    labels = [GAME.describe(st, seat, a) for a in GAME.legal_actions(st, seat)]
    assert "Unique Action 1 (2 Doom)" in labels, labels
    for v in (GAME.view(st, None), GAME.view(st, seat)):
        tip = GAME.advice(v, seat) or ""
        assert tip.startswith("You hold 2 Doom") and "Use Unique Action 1 (2 Doom)" in tip, tip
        assert "wins the game" in tip and "Ghoul" not in tip, tip
    # Choosing the turn with 1 Doom: a Wrath's 2 (The Crescendo) pay for it.
    st.wall_mode, st.wall_spending, st.doom = None, False, 1
    tip = GAME.advice(GAME.view(st, None), seat) or ""
    assert "Wrath, then use Unique Action 1 (2 Doom)" in tip and "wins the game" in tip, tip
    # Three Gates Open: a fourth wins nothing; as before.
    set_gates(st, 3)
    assert "wins the game" not in (GAME.advice(GAME.view(st, None), seat) or "")
    # No Unique that opens a Gate (The Collector), a Gatekeeper (Trigger 3: Open a Gate).
    st = wall_turn(new_game("conflict", 4, 68), doom=3)
    clear_streets(st)
    set_wall(st, "W-1")
    set_stage(st, "eye_opens")
    set_gates(st, 4)
    put_horror(st, "H-GHOUL")
    put_horror(st, "H-GATEKEEPER")
    labels = [GAME.describe(st, seat, a) for a in GAME.legal_actions(st, seat)]
    assert any(x.startswith("Trigger Gatekeeper") and x.endswith("(3 Doom)") for x in labels)
    tip = GAME.advice(GAME.view(st, None), seat) or ""
    assert "Trigger the Gatekeeper (3 Doom)" in tip and "wins the game" in tip, tip


def test_FW_PRES_04_destroy_with_nothing_to_destroy_says_why_it_failed() -> None:
    """Stop 68's Alliance demo (seed 69): "Presence: Destroy a Marble." then "The Wall could
    not complete an Instruction: an Elected Investigator may Regroup." with no word of what
    could not be done, where a Delve's or a Trouble's failure says it ("no Marble is Attached
    or Anchored") and a Wall card's Sacrifice too ("There is no Cultist On the Streets to
    Sacrifice."). The reason comes first, as theirs do."""
    from tests.fourth_wall.test_alliance import ally, presence

    _st, ev = presence(ally(), "P-DESTROY#1")
    said = [e.text for e in ev if e.public]
    why = "There is no Marble On the Streets to Destroy."
    assert why in said, said
    fail = next(k for k, t in enumerate(said) if t.startswith("The Wall could not complete"))
    assert said.index(why) < fail, said


def test_FW_SCOURGE_04_the_rallier_is_told_its_exploit_removes_the_scourge() -> None:
    """Stop 68's Conflict demo as an Investigator (seed 71): "The Rallier has 2 of 2 AP; 2 of
    5 Gates are Open. The Ghoul bears The Scourge: no Gate may close while it is On the
    Streets. It still needs 2 Force Symbols to be Defeated: Intervene on it first." to the
    Rallier, whose Exploit the Rift removes The Scourge Token (its card sets it aside, Gates
    may close again, FW-SCOURGE-04) and whose hand held no Force. Its advice names that
    Exploit the Rift, on the board post and in its own panel; another Investigator's stays."""
    st = inv_turn(new_game("conflict", 3, 68), "i1", ap=2)
    clear_streets(st)
    set_card(st, "i1", "INV-11")  # The Rallier
    st.scourge = put_horror(st, "H-GHOUL")
    set_hand(st, "i1", "M-C", "M-S")
    seat = seat_of(st, "i1")
    labels = [GAME.describe(st, seat, a) for a in GAME.legal_actions(st, seat)]
    assert any(x.endswith("Exploit the Rift (1 AP, +1 Doom)") for x in labels), labels
    for private in (False, True):
        tip = GAME.guide_text(st, seat, private=private) or ""
        assert "bears The Scourge" in tip and "Exploit the Rift (1 AP)" in tip, tip
        assert "removes The Scourge Token" in tip and "Intervene on it first" not in tip, tip
    set_card(st, "i1", "INV-04")  # not the Rallier: as before
    tip = GAME.guide_text(st, seat) or ""
    assert "Intervene on it first" in tip and "Exploit" not in tip, tip
