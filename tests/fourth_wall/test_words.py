"""I Am the Fourth Wall in words (issue #13): status, what the awaited player must do, alt text
and the game-over sentence name players by display name and role, and keep the Wall card and
the hands where they belong (FW-VIS-06, FW-VIS-12, FW-VIS-15)."""

from __future__ import annotations

import re

import pytest

from rules.core.game import ALT_TEXT_LIMIT
from rules.fourth_wall.engine import Engine
from rules.fourth_wall.game import GAME
from tests.fourth_wall.helpers import new_game, set_gates, set_stage

NAMES = {"s1": "Margaret", "s2": "Theo", "s3": "Ines"}


def test_FW_VIS_12_wall_card_in_words_only_for_the_wall_before_an_eye_opens() -> None:
    st = new_game("conflict", 3, seed=2)
    wall = Engine(st).wall().name
    public = "\n".join(GAME.status_lines(st, None, NAMES)) + GAME.alt_text(st, NAMES)
    investigator = "\n".join(GAME.status_lines(st, "s2", NAMES))
    mine = "\n".join(GAME.status_lines(st, st.wall_seat or "s1", NAMES))
    assert wall not in public and wall not in investigator
    assert f"Only you know: you are {wall}." in mine
    assert "the Wall card is still secret" in public
    st = st.model_copy(deep=True)
    set_stage(st, "eye_opens")
    assert f"{wall} is revealed" in "\n".join(GAME.status_lines(st, None, NAMES))


def test_FW_VIS_06_marbles_in_hand_are_counts_in_public_and_named_for_the_team() -> None:
    st = new_game("conflict", 3, seed=2)
    inv = next(i for i in st.investigators if i.seat == "s2")
    eng = Engine(st)
    names = [eng.marble_name(m) for m in inv.hand]
    team = "\n".join(GAME.status_lines(st, "s3", NAMES))
    public = "\n".join(GAME.status_lines(st, None, NAMES))
    wall = "\n".join(GAME.status_lines(st, "s1", NAMES))
    assert f"{len(inv.hand)} Marbles in hand" in public
    assert "hand: " + names[0] in team
    assert "hand: " not in public and "hand: " not in wall


def test_FW_turn_says_whose_investigator_and_how_much_ap() -> None:
    st = new_game("conflict", 3, seed=2)
    seat = next(iter(GAME.to_act(st)))
    text = GAME.doing_text(st, seat, NAMES)
    assert text.startswith(NAMES[seat] + " (")
    if st.phase == "investigator":
        assert "AP left for the " in text and "or end the turn" in text
    else:
        assert "take the Wall's turn" in text


def test_FW_END_01_result_names_the_winning_players_and_why() -> None:
    st = new_game("conflict", 3, seed=2).model_copy(deep=True)
    Engine(st).finish("investigators", "every Gate is closed (FW-END-01).")
    text = GAME.result_text(st, GAME.result(st), NAMES)  # type: ignore[arg-type]
    assert text.startswith("Theo (the ") and "Ines (the " in text
    assert text.endswith("win: every Gate is closed.")  # the stored rule id is not shown
    assert "Margaret" not in text


def test_FW_END_03_alliance_loss_names_the_wall_and_the_whole_table() -> None:
    st = new_game("alliance", 2, seed=2).model_copy(deep=True)
    Engine(st).finish("wall", "The Ancient One Awakens (FW-END-03).")
    text = GAME.result_text(st, GAME.result(st), NAMES)  # type: ignore[arg-type]
    assert text.startswith("The Wall (the ") and "wins and every Investigator loses" in text
    assert "the Ancient One Awakens." in text and "FW-" not in text


def test_alt_text_puts_the_decision_first_and_fits() -> None:
    st = new_game("conflict", 7, seed=4)
    names = {f"s{i}": f"Player Number {i}" for i in range(1, 8)}
    alt = GAME.alt_text(st, names)
    assert len(alt) <= ALT_TEXT_LIMIT and alt.startswith("Now: Player Number ")
    assert alt.index("Gates: ") < alt.index("Turn Tracker")


def test_FW_ACT_01_08_the_turn_lists_only_what_the_ap_left_can_pay_for() -> None:
    """The awaited Investigator's line names the actions its AP can pay for: with 1 AP left
    neither Regroup nor Close a Gate (2 AP each); Intervene only with a Horror On the
    Streets; Close a Gate not while The Scourge blocks it. Public things only: the same
    words whatever the hand holds."""
    from tests.fourth_wall.helpers import clear_streets, inv_turn, put_horror, seat_of, set_hand

    st = inv_turn(new_game("conflict", 3, seed=2), "i1", ap=2)
    clear_streets(st)
    seat = seat_of(st, "i1")
    full = GAME.doing_text(st, seat, NAMES)
    assert full.endswith("Search (draw a Marble), Utilise, Give or Trade a Marble, Regroup or "
                         "Close a Gate — or end the turn."), full
    st.ap = 1
    one = GAME.doing_text(st, seat, NAMES)
    assert "Regroup" not in one and "Close a Gate" not in one, one
    assert one.endswith("Search (draw a Marble), Utilise or Give or Trade a Marble — or end "
                        "the turn."), one
    put_horror(st, "H-CULTIST")
    assert "Intervene with a Marble" in GAME.doing_text(st, seat, NAMES)
    st.ap = 2
    st.scourge = st.streets[0].id
    blocked = GAME.doing_text(st, seat, NAMES)
    assert "Regroup" in blocked and "Close a Gate" not in blocked, blocked
    set_hand(st, "i1", "M-C", "M-F", "M-S")
    assert GAME.doing_text(st, seat, NAMES) == blocked


def test_FW_HORROR_two_same_named_horrors_are_told_apart_in_labels() -> None:
    """Conflict has no Streets to name a Horror by: with two Ghouls On the Streets, each one's
    label says what is Attached to it, and a Marble on one names the Symbols that Ghoul still
    needs, so two different choices never read alike. A lone Ghoul keeps its short label."""
    from tests.fourth_wall.helpers import clear_streets, put_horror

    st = new_game("conflict", 3, seed=2)
    clear_streets(st)
    lone = put_horror(st, "H-GHOUL")
    eng = Engine(st)
    assert eng.horror_label(lone).startswith("Ghoul — needs ")
    bare = lone
    held = put_horror(st, "H-GHOUL", attached=("M-F",))
    eng = Engine(st)
    assert eng.horror_label(bare).startswith("Ghoul (the older one; with nothing Attached) — "
                                             "needs ")
    assert eng.horror_label(held).startswith("Ghoul (the newer one; with Force Marble) — needs ")
    other = put_horror(st, "H-GHOUL", attached=("M-F", "M-F"))
    eng = Engine(st)
    one = next(m for h in st.streets if h.id == held for m in h.attached)
    two = next(m for h in st.streets if h.id == other for m in h.attached)
    assert eng.street_marble_label(one) != eng.street_marble_label(two)
    assert eng.street_marble_label(one).startswith("Force Marble on Ghoul (the second to "
                                                   "arrive; needs ")


def test_FW_HORROR_drained_and_the_scourge_read_in_the_bracket_not_as_a_symbol() -> None:
    """"Watcher — needs Science Drained" and "Brute — needs Force, Science×2 Scourge" read
    as if Drained and Scourge were Symbols the Horror needs; they go in its bracket."""
    from tests.fourth_wall.helpers import clear_streets, put_horror

    st = new_game("conflict", 3, seed=2)
    clear_streets(st)
    hid = put_horror(st, "H-GHOUL")
    st.streets[0].drained = True
    st.scourge = hid
    label = Engine(st).horror_label(hid)
    assert label.startswith("Ghoul (Drained; The Scourge) — needs "), label
    assert not label.endswith(("Drained", "Scourge")), label


def test_FW_ELECT_choosing_an_investigator_does_not_name_it_twice() -> None:
    """A seat playing two Investigators (Alliance, fewer players than Investigators) had its
    answers to "which Investigator?" read "The Bruiser: The Bruiser": the acting-Investigator
    prefix took the chosen one for the actor."""
    from rules.core.types import act

    st = new_game("alliance", 1, seed=3)
    seat = st.seats[0]
    invs = Engine(st).invs_of(seat)
    assert len(invs) > 1
    for inv in invs:
        label = GAME.describe(st, seat, act("choose_investigator", inv=inv.id))
        assert label == Engine(st).inv_name(inv), label


def test_FW_END_the_recap_counts_a_gate_closed_by_an_elder_sign() -> None:
    """Stop 59's 5-player demo: The Street Magician Utilised the Elder Sign (it closes a
    Gate by itself) and the recap read "0 Gates closed": only the Close a Gate action was
    counted. Every Gate closed goes to the Investigator whose event came just before it."""
    from rules.core.ending import Moment
    from rules.core.types import Event, Result
    from rules.fourth_wall.ending import parts

    st = new_game("conflict", 3, seed=2)
    eng = Engine(st)
    first, second = [i for i in st.investigators if i.card][:2]
    a, b = eng.inv_name(first), eng.inv_name(second)

    def m(kind: str, text: str) -> Moment:
        return Moment(Event(kind=kind, text=text), 1, first.seat)

    moments = [
        m("utilise", f"{a} Utilises Elder Sign: No Symbols."),
        m("gate_closed", "A Gate is closed: 2 Open Gates."),
        m("wall", "The Wall chooses Wrath: +1 Doom (1 in the Action Pool)."),
        m("close", f"{b} discards Science Marble, Holy Symbol, Force Marble to Close a Gate."),
        m("gate_closed", "A Gate is closed: 1 Open Gate."),
    ]
    result = Result(winners=[], losers=list(st.seats), reason="")
    lines = {p.seat: p.line for p in parts(st, result, moments, {}, {})}
    # Two Investigators a seat at 3 players: each is named before its count.
    assert f"{a}: 1 Gate closed" in lines[first.seat], lines
    assert f"{b}: 1 Gate closed" in lines[second.seat], lines


def test_FW_END_a_gate_closed_names_who_closed_it() -> None:
    """Stop 59 credited a closed Gate to whoever the latest event named: a Gate closed on
    another's turn or right after another Investigator's line went to the wrong one. The
    event now names its closer: the Investigator who paid for Close a Gate (FW-ACT-01) or
    Utilised the Elder Sign; the recap reads that, whatever line came before."""
    from rules.core.ending import Moment
    from rules.core.types import Event, Result
    from rules.fourth_wall.ending import parts
    from tests.fourth_wall.helpers import answer, clear_streets, do, inv_turn, set_hand

    # Close a Gate, paid with three Marbles.
    st = inv_turn(new_game("conflict", 2, 1), "i1")
    clear_streets(st)
    name = Engine(st).inv_name(Engine(st).inv("i1"))
    paid = set_hand(st, "i1", "M-C", "M-F", "M-S")
    st, _ = do(st, "s2", "close_gate", inv="i1")
    for marble in paid:
        st, _ = answer(st, "select", marble=marble)
    st, ev = answer(st, "confirm")
    [closed] = [e for e in ev if e.kind == "gate_closed"]
    assert closed.data["by"] == name

    # The Elder Sign closes one by itself.
    st = inv_turn(new_game("conflict", 2, 1), "i1")
    clear_streets(st)
    (elder,) = set_hand(st, "i1", "M-ELDER", "M-C")[:1]
    st, ev = do(st, "s2", "utilise", inv="i1", marble=elder)
    [closed] = [e for e in ev if e.kind == "gate_closed"]
    assert closed.data["by"] == name

    # A closer named in the event wins over the line before it; a Wall card's ("") counts
    # for nobody.
    st = new_game("conflict", 3, seed=2)
    eng = Engine(st)
    first, second = [i for i in st.investigators if i.card][:2]
    a, b = eng.inv_name(first), eng.inv_name(second)
    moments = [Moment(Event(kind="search", text=f"{b} Searches."), 1, second.seat),
               Moment(Event(kind="gate_closed", text="A Gate is closed: 2 Open Gates.",
                            data={"by": a}), 1, second.seat),
               Moment(Event(kind="gate_closed", text="A Gate is closed: 1 Open Gate.",
                            data={"by": ""}), 1, second.seat)]
    result = Result(winners=[], losers=list(st.seats), reason="")
    lines = {p.seat: p.line for p in parts(st, result, moments, {}, {})}
    assert f"{a}: 1 Gate closed" in lines[first.seat], lines
    assert f"{b}: no Gate closed" in lines[second.seat], lines


def test_FW_TRACK_02_the_secret_walls_dm_says_its_card_waits_for_an_eye_opens() -> None:
    """In Slumber the Wall card's Unique and Aura do nothing (FW-TRACK-02): the Wall player's
    DM, which prints the card, says so, or a Gate closed without the Aura's extra Symbol
    reads as a broken rule; once An Eye Opens the note goes."""
    st = new_game("conflict", 3, seed=2)
    wall_seat = st.wall_seat or "s1"
    secret = GAME.private_summary(st, wall_seat) or ""
    assert "(secret until An Eye Opens)" in secret
    assert "Its Unique and Aura work once An Eye Opens, not before." in secret
    st = st.model_copy(deep=True)
    set_stage(st, "eye_opens")
    assert st.revealed
    assert "not before" not in (GAME.private_summary(st, wall_seat) or "")


def test_FW_GATE_the_advice_counts_one_open_gate_as_one() -> None:
    """"1 of 5 Gates is Open", "2 of 5 Gates are Open": the advice's verb follows the count."""
    from rules.fourth_wall.guide import advice

    st = new_game("conflict", 3, seed=2)
    wall_seat = st.wall_seat or "s1"
    set_gates(st, 1)
    said = advice(GAME.view(st, wall_seat), wall_seat) or ""
    assert "1 of 5 Gates is Open" in said, said
    set_gates(st, 2)
    assert "2 of 5 Gates are Open" in (advice(GAME.view(st, wall_seat), wall_seat) or "")


def _turn_view(who: str, ap: int, horror: str, remaining: dict[str, int]) -> dict[str, object]:
    """A public view's parts the Investigator's turn advice reads: `who` with `ap` of 2 AP, one
    Open Gate (closing blocked) and `horror` still needing `remaining`."""
    return {"turn": {"active": "i1", "active_name": who, "ap": ap, "ap_per_turn": 2},
            "gates": {"open": 1, "max": 5, "closing_blocked": True}, "symbol_names": {
                "clue": "Clue", "force": "Force", "science": "Science"},
            "symbols": ["clue", "force", "science"], "investigators": [],
            "horrors": [{"name": horror, "remaining": remaining, "drained": False,
                         "trigger_cost": 1}]}


def test_FW_HORROR_the_advice_says_what_a_horror_still_needs() -> None:
    """Stop 61's demo advised "The Watcher On the Streets needs a Science more to be
    Defeated": it "still needs a Science"."""
    from rules.fourth_wall.guide import _investigator_turn

    said = _investigator_turn(_turn_view("The Scrounger", 2, "Watcher", {"science": 1}), "s2")
    assert "The Watcher On the Streets still needs a Science to be Defeated" in said, said


_BARE_MARBLE = re.compile(
    r"\b(loses|discards|gives|takes|trades|swaps|Utilises|offers) (?!(?:a|an|the|The|\d+|no|"
    r"every|one|two|its|their|all|[A-Z]\w* Marbles?\b)\b)[A-Z]")


@pytest.mark.parametrize("mode", ["conflict", "alliance"])
def test_fw_a_marble_in_a_sentence_has_its_article(mode: str) -> None:
    """Stop 63's demos: "The Gatewright loses Holy Symbol.", "The Scrounger discards Force
    Marble (Hand Limit).", "The Fixer gives Science Marble to …", "… takes Adrenaline on
    Breaker into hand."; every Marble a sentence names has its article (`a_marble`)."""
    from rules.core.players import playout

    seats = ["s1", "s2", "s3", "s4"]
    options = GAME.options_model(mode=mode)
    bare: list[str] = []
    told = 0
    for seed in (3, 5, 7):
        st = GAME.setup(seats, options, seed)
        for seat, action in playout(GAME, options, seats, seed).history:
            step = GAME.apply(st, seat, action)
            st = step.state
            for e in step.events:
                told += bool(re.search(r"\b(loses|discards|gives|takes) (a|an|the) ", e.text))
                if _BARE_MARBLE.search(e.text):
                    bare.append(e.text)
    assert told and not bare, bare


def test_fw_horror_09_twin_horrors_are_told_apart_by_their_street() -> None:
    """Stop 63's Alliance demo: "Double Draw is Attached to Watcher. Watcher is Defeated!"
    with Watchers on Streets 3 and 5. A Horror whose name another On the Streets shares is
    named with its Street in the log; alone, by its name."""
    from rules.fourth_wall.state import HorrorOnStreets

    st = new_game("alliance", 2, seed=3).model_copy(deep=True)
    eng = Engine(st)
    by_def: dict[str, list[str]] = {}
    for hid, did in st.horror_cards.items():
        by_def.setdefault(did, []).append(hid)
    a, b = next(hids for hids in by_def.values() if len(hids) >= 2)[:2]
    for hid in (a, b):
        for pile in (st.horror_deck, st.horror_discard):
            if hid in pile:
                pile.remove(hid)
    st.streets = [HorrorOnStreets(id=a, street=3), HorrorOnStreets(id=b, street=5)]
    name = eng.horror_name(a)
    assert eng.horror_called(a) == f"{name} on Street 3"
    assert eng.horror_called(b) == f"{name} on Street 5"
    st.streets.pop()
    assert eng.horror_called(a) == name


def test_fw_horror_09_conflict_twins_are_told_apart_by_the_scourge_or_arrival() -> None:
    """Stop 64's Conflict demo: "The Force Marble is Attached to Ghoul. Ghoul is Defeated!"
    with two Ghouls, one of them The Scourge. Conflict has no Streets: The Scourge is named
    as such, other twins by their order of arrival."""
    from tests.fourth_wall.helpers import put_horror

    st = new_game("conflict", 3, seed=2).model_copy(deep=True)
    st.streets = []
    eng = Engine(st)
    first = put_horror(st, "H-GHOUL")
    assert eng.horror_called(first) == "Ghoul"
    second = put_horror(st, "H-GHOUL")
    assert eng.horror_called(first) == "Ghoul (the older one)"
    assert eng.horror_called(second) == "Ghoul (the newer one)"
    third = put_horror(st, "H-GHOUL")
    assert eng.horror_called(third) == "Ghoul (the third to arrive)"
    st.scourge = first
    assert eng.horror_called(first) == "Ghoul (The Scourge)"
    assert eng.horror_called(second) == "Ghoul (the older one)"


def test_fw_a_deathrattle_an_exploit_and_a_unique_say_what_their_card_does() -> None:
    """Stop 64's demos: "Breaker is Defeated! • The Steadfast loses a Science Marble." (whose
    loss?), "Brute is Defeated! • The Seer Regroups.", "The Redirector Exploits the Rift." and
    "The Wall uses its Unique Action: The Shredder." named no ability."""
    from rules.fourth_wall.engine.investigators import ability_clauses
    from rules.fourth_wall.state import Step
    from tests.fourth_wall.helpers import do, inv_turn, put_horror, set_card, set_wall

    st = inv_turn(new_game("conflict", 3, seed=2), "i1", ap=3)
    hid = put_horror(st, "H-BREAKER")
    eng = Engine(st)
    eng.later(Step(op="defeat", args={"horror": hid, "deathrattle": True}))
    eng.run()
    said = [e.text for e in eng.events]
    assert said[:2] == ["Breaker is Defeated!",
                        "Breaker's Deathrattle: Target Investigator Loses a Marble."], said
    st2 = inv_turn(new_game("conflict", 3, seed=2), "i1", ap=3)
    set_card(st2, "i1", "INV-08")  # The Redirector
    put_horror(st2, "H-CULTIST")
    seat = next(i.seat for i in st2.investigators if i.id == "i1")
    _st3, ev = do(st2, seat, "exploit", inv="i1")
    assert ("The Redirector Exploits the Rift: Defeat a Horror whose current Defeat Cost is "
            "exactly one Symbol, without its Deathrattle.") in [e.text for e in ev]
    st4 = new_game("conflict", 3, seed=2).model_copy(deep=True)
    set_wall(st4, "W-6")  # The Twin Maw: two Unique Actions, each its own clause
    assert ability_clauses(Engine(st4).wall().text, "Unique") == [
        "Target Investigator Loses a Marble. Target Investigator Loses a Marble.",
        "Open a Gate."]


def test_fw_pres_06_no_longer_drained_only_of_a_horror_that_was() -> None:
    """Stop 64's demo: "Ghoul on Street 1 is no longer Drained." of a Ghoul never Drained (The
    Awakener's Undrain-then-Trigger)."""
    from rules.fourth_wall.state import Frame, Step
    from tests.fourth_wall.helpers import put_horror, set_wall

    st = new_game("alliance", 2, seed=3).model_copy(deep=True)
    st.streets = []
    awake = put_horror(st, "H-GHOUL", street=1)
    tired = put_horror(st, "H-CULTIST", street=2, drained=True)
    set_wall(st, "W-2")  # The Awakener: "Undrain a Horror On the Streets, then Trigger it"
    eng = Engine(st)
    undrain = eng.wall().uniques[0].instruction[0][0]
    fr = Frame(id=1, src="", side="wall")
    for hid, told in ((awake, []), (tired, ["Cultist is no longer Drained."])):
        eng.events.clear()
        eng.drain_or_undrain(undrain, fr, Step(op="eff", args={"horror": hid}), False)
        said = [e.text for e in eng.events]
        assert said == told, said


def test_fw_the_advice_at_0_ap_is_to_end_the_turn() -> None:
    """Stop 64's demo: "0 AP left — end the turn." beside "💡 … Intervene before The Wall
    Triggers it."."""
    from rules.fourth_wall.guide import _investigator_turn

    said = _investigator_turn(_turn_view("The Fixer", 0, "Ghoul", {"force": 2}), "s2")
    assert said.endswith("Nothing is left to spend this turn: end the turn."), said
    assert "Intervene" not in said


def test_fw_amb_18_alliance_lines_leave_out_the_scourge() -> None:
    """Stop 64's Alliance demo: "Utilises an Elder Sign: Close a Gate by itself (not while The
    Scourge is On the Streets)." — Alliance has no Scourge."""
    from rules.fourth_wall.engine.investigators import for_mode

    clause = "Close a Gate by itself (not while The Scourge is On the Streets)."
    assert for_mode(clause, conflict=False) == "Close a Gate by itself."
    assert for_mode(clause, conflict=True) == clause
    seer = ("Conflict - look at The Wall's hand of Horrors; Alliance - look at the top three "
            "Horrors and put them back in any order.")
    assert for_mode(seer, conflict=True) == "Look at The Wall's hand of Horrors."
    assert for_mode(seer, conflict=False) == ("Look at the top three Horrors and put them back "
                                             "in any order.")


def test_fw_a_trigger_a_skipped_deathrattle_a_delve_and_an_aura_say_why() -> None:
    """Stop 64's last demos: "The Wall Triggers Cultist." said neither its cost, its Trigger
    nor that it is now Drained; an Elder Sign's Defeat read as a Deathrattle forgotten; a
    Delve that placed its Horror read as if Delve meant "place"; a Regroup drew 1 Marble, the
    Street 4 Aura unnamed."""
    from rules.fourth_wall.state import Step
    from tests.fourth_wall.helpers import (
        answer,
        clear_streets,
        do,
        inv_turn,
        options,
        prompt,
        put_horror,
        set_hand,
        stack_horrors,
        wall_seat,
        wall_turn,
    )

    st = wall_turn(new_game("conflict", 3, seed=2), doom=3)
    for i in st.investigators:
        set_hand(st, i.id, "M-C", "M-F")
    h = put_horror(st, "H-CULTIST")
    st2, ev = do(st, wall_seat(st), "trigger", horror=h)
    while prompt(st2) in ("choose_target", "lose_choice", "holy_window", "wall_choice"):
        o = options(st2)[-1] if prompt(st2) == "holy_window" else options(st2)[0]
        st2, more = answer(st2, o.kind, **o.params)
        ev += more
    told = [e.text for e in ev]
    assert "The Wall Triggers Cultist (1 Doom): Target Investigator Loses a Marble." in told
    assert "Cultist is Drained." in told, told
    st = new_game("conflict", 3, seed=2).model_copy(deep=True)
    b = put_horror(st, "H-BREAKER")
    eng = Engine(st)
    eng.later(Step(op="defeat", args={"horror": b, "deathrattle": False}))
    eng.run()
    assert eng.events[0].text == "Breaker is Defeated without its Deathrattle!"
    ally = inv_turn(new_game("alliance", 1, seed=1), "i1")
    clear_streets(ally)
    (leader,) = stack_horrors(ally, "H-CULT-LEADER")  # no Cultist to Sacrifice
    eng = Engine(ally)
    eng.delve_steps(leader)
    assert eng.events[0].text == ("Cult Leader cannot use its Trigger Action (no Cultist is "
                                  "On the Streets to Sacrifice), so it is placed On the "
                                  "Streets instead.")
    ally = inv_turn(new_game("alliance", 1, seed=1), "i1")
    clear_streets(ally)
    put_horror(ally, "H-CULTIST", street=4)  # Street 4's Aura: Regroup draws one fewer
    _a2, ev = do(ally, "s1", "regroup", inv="i1")
    assert any(e.text.endswith("Regroups (Street 4's Aura: 1 Marble fewer).") for e in ev), \
        [e.text for e in ev]


def test_fw_vis_12_the_wall_card_is_turned_over_at_the_games_end() -> None:
    """Stop 64's recap: "The Wall: hidden" of the Ancient One the Investigators had just
    beaten; a table turns the card over at the end (never before: FW-VIS-12)."""
    st = new_game("conflict", 3, seed=2).model_copy(deep=True)
    name = Engine(st).wall().name
    assert GAME.view(st, None)["wall"]["name"] is None and name in GAME.public_secrets(st)
    st.outcome = "investigators"
    assert GAME.view(st, None)["wall"]["name"] == name
    assert name not in GAME.public_secrets(st)
    from renders.fourth_wall_phone import _read

    assert _read(GAME.view(st, None)).wall_name == name  # the recap's board draws it


def test_fw_act_03_a_quoted_ability_reads_in_the_third_person() -> None:
    """Stop 65's demo: "The Seer uses the Unique Action: Look at the top three Marbles; take
    one into your hand…" — a line about the Seer quoting the card to its holder. Quoted in a
    line about an Investigator, the card's "your" and "you" read "their" and "they"."""
    from rules.fourth_wall.engine.investigators import third_person
    from tests.fourth_wall.helpers import do, inv_turn, set_card

    st = inv_turn(new_game("conflict", 3, seed=2), "i1", ap=3)
    set_card(st, "i1", "INV-10")  # The Seer
    seat = next(i.seat for i in st.investigators if i.id == "i1")
    _st2, ev = do(st, seat, "unique", inv="i1")
    said = next(e.text for e in ev if "uses the Unique Action" in e.text)
    assert "take one into their hand" in said and "your" not in said, said
    assert third_person("Find a Marble you name and take it into your hand.") == (
        "Find a Marble they name and take it into their hand.")


@pytest.mark.parametrize("stage, gates, said", [
    ("awakens", 2, "At the end of round {n}, the Turn Tracker ran out and the Ancient One "
                   "Awakened."),
    ("eye_opens", 5, "At the end of round {n}, five Gates stood Open when An Eye Opened.")])
def test_FW_END_03_a_game_ended_by_the_tracker_lasted_the_rounds_played(
        stage: str, gates: int, said: str) -> None:
    """Stop 70's demo (Conflict, seed 24): nine rounds were played, the Tracker reached The
    Ancient One Awakens at the ninth's end, and the recap read "In round 10, the Turn Tracker
    ran out … The game lasted 10 rounds": round 10 never began. An end the Tracker's move
    brings (FW-END-03, FW-TRACK-04) is said at the end of the round that ended."""
    from rules.fourth_wall.ending import ending

    st = new_game("conflict", 4, seed=2)
    set_gates(st, gates)
    eng = Engine(st)
    ranks = eng.layout_ranks()
    st.rank_index = next(k for k, (_, s) in enumerate(ranks) if s == stage) - 1
    st.round = st.rank_index + 1
    played = st.round
    eng.round_end()
    result = GAME.result(st)
    assert result is not None and eng.stage() == stage
    told = ending(st, result, [], NAMES)
    assert told.why == said.format(n=played), told.why
    assert told.length == f"{played} rounds, 0 moves"


def test_FW_SETUP_a_chosen_investigators_dm_says_its_marbles_come_with_the_deal() -> None:
    """Stop 70's demo: while the others still chose, a seat's DM read "The Quartermaster
    (yours, Hand Limit 5): no Marbles", as if its hand were empty for good. Before the deal
    it says when the Marbles come; after it, an empty hand is "no Marbles"."""
    st = GAME.setup(["s1", "s2", "s3", "s4"], GAME.options_model(mode="conflict"), 5)
    seat = sorted(GAME.to_act(st))[0]
    st = GAME.apply(st, seat, GAME.legal_actions(st, seat)[0]).state
    said = GAME.private_summary(st, seat) or ""
    assert "(yours, Hand Limit" in said and "no Marbles" not in said, said
    assert "Marbles dealt once every Investigator is chosen" in said, said
    while any(i.dealt for i in st.investigators):
        who = sorted(GAME.to_act(st))[0]
        st = GAME.apply(st, who, GAME.legal_actions(st, who)[0]).state
    said = GAME.private_summary(st, seat) or ""
    assert "dealt once" not in said, said
