"""The Exorcism in words (issue #13): status, what the awaited player must do, alt text and the
game-over sentence name players by display name and character, place rooms by row and column,
and keep the Ghost player's hand out of every other reader's lines (EX-VIS-11)."""

from __future__ import annotations

import re

from rules.core.game import ALT_TEXT_LIMIT
from rules.core.types import act
from rules.exorcism.engine import Engine
from rules.exorcism.game import GAME
from rules.exorcism.state import ExorcismState
from rules.exorcism.words import player
from tests.exorcism.helpers import new_game, top_haunt

NAMES = {"s1": "Margaret", "s2": "Theo", "s3": "Ines"}


def test_EX_TURN_actions_say_who_where_and_how_many() -> None:
    st = new_game("core", 2, seed=3)
    text = GAME.doing_text(st, "s1", NAMES)
    inv = Engine(st).invs_of("s1")[0]
    cell = st.cells[inv.cell] if inv.cell else None
    assert text.startswith("Margaret (the ")
    assert f"take up to {st.actions_left} more actions in the " in text
    assert cell is not None and Engine(st).cell_name(inv.cell or "") in text
    assert text.endswith("or end the turn.")
    status = GAME.status_lines(st, None, NAMES)
    assert status[0] == "Now: " + text
    assert any(line.startswith("Row 1: ") for line in status)
    assert not any("r1c" in line for line in status)


def test_EX_WORDS_01_the_status_places_a_room_by_row_and_column_only_when_its_name_is_shared(
) -> None:
    """Stop 69: the status line said "the Key Room (row 3, column 2)" on a board with one Key
    Room; only a name several cells show (the face-down Locked Rooms) needs its place."""
    st = new_game("core", 3, seed=3).model_copy(deep=True)
    eng = Engine(st)
    unique = next(c for c in st.cells if st.cells[c].kind == "house" and not st.cells[c].face_down
                  and eng.cell_name(c) == eng.shown_name(c))
    locked = next(c for c in st.cells if st.cells[c].face_down)
    a, b = eng.invs_of("s1")[0], eng.invs_of("s2")[0]
    a.cell, b.cell = unique, locked
    status = "\n".join(GAME.status_lines(st, None, NAMES))
    room = eng.shown_name(unique)
    assert f"is in the {room}: " in status, status
    assert f"{room} (row" not in status, status
    cell = st.cells[locked]
    assert f"is in the Locked Room (row {cell.row}, column {cell.col}): " in status, status
    assert f"more actions in the {room}, or end the turn." in GAME.doing_text(st, "s1", NAMES)


def test_EX_WORDS_03_the_status_names_the_last_haunt_card_as_the_card_is_named() -> None:
    """Stop 69: the status read "Last haunt card (Location 2): ..." where every other line
    says "Haunt card", the card's name."""
    st = new_game("core", 3, seed=3).model_copy(deep=True)
    card = next(c for c in Engine(st).pack.haunt_deck if c.kind == "haunt")
    top_haunt(st, card.id)
    eng = Engine(st)
    eng.step_haunt_draw(1)
    eng.run()
    status = GAME.status_lines(st, None, NAMES)
    assert f"Last {eng.haunt_card_text(card.id)}." in status, status
    assert not any("haunt card" in line for line in status), status


def test_EX_VIS_11_ghost_hand_only_in_the_ghost_players_lines() -> None:
    st = new_game("one_vs_all", 3, seed=2)
    ghost = st.ghost_seat
    assert ghost is not None and st.ghost_hand
    mine = "\n".join(GAME.status_lines(st, ghost, NAMES))
    assert "Your hand of Haunt cards" in mine
    hand = [line for line in mine.splitlines() if line.startswith("Location ")]
    assert hand
    for seat in [None, *[s for s in st.seats if s != ghost]]:
        other = "\n".join(GAME.status_lines(st, seat, NAMES))
        assert "Your hand of Haunt cards" not in other
        assert not any(line in other.splitlines() for line in hand)
        assert f"{len(st.ghost_hand)} Haunt card" in other


def test_EX_OVA_11_ghost_win_names_the_ghost_player_and_the_losers() -> None:
    st = new_game("one_vs_all", 3, seed=2).model_copy(deep=True)
    # A reason as games stored before #14 kept it, with its rule id: players read words only.
    Engine(st).lose("the Haunt Level reaches 30 (EX-OVA-11).")
    text = GAME.result_text(st, GAME.result(st), NAMES)  # type: ignore[arg-type]
    assert text.startswith("Margaret (the Ghost player) wins and Theo (the ")
    assert "Ines (the " in text and text.endswith("lose: the Haunt Level reaches 30.")


def test_EX_LOSE_01_core_loss_and_win_name_the_team() -> None:
    st = new_game("core", 2, seed=3).model_copy(deep=True)
    lost = st.model_copy(deep=True)
    Engine(lost).lose("a Haunt card is drawn and no Darkness Tokens are left (EX-LOSE-01).")
    text = GAME.result_text(lost, GAME.result(lost), NAMES)  # type: ignore[arg-type]
    assert text.startswith("Margaret (the ") and " and Theo (the " in text
    assert " lose: a Haunt card is drawn" in text
    Engine(st).win("the Ghosts are exorcised and everyone escaped the manor.")
    text = GAME.result_text(st, GAME.result(st), NAMES)  # type: ignore[arg-type]
    assert " win: the Ghosts are exorcised" in text


def test_solo_names_one_player_with_two_characters() -> None:
    st = new_game("solo", 1, seed=1)
    who = GAME.player_name(st, "s1", NAMES)
    assert who.startswith("Margaret (the Doctor and the ")
    alt = GAME.alt_text(st, NAMES)
    assert len(alt) <= ALT_TEXT_LIMIT and alt.startswith("Now: Margaret (the Doctor and the ")


def test_EX_DARK_02_each_darkness_card_says_which_space_the_track_reaches() -> None:
    """The first four spaces all read 1 (EX-GAP-11): three Darkness cards in the One vs All
    opening hand move the marker three spaces, and each line must say so, not "advances to 1"
    three times as if it had not moved; and the value is said as what it does (stop 65: "(value
    1)" meant nothing to a player)."""
    st = GAME.setup(["s1", "s2", "s3"], GAME.options_model(mode="one_vs_all"), 4)
    darkness = [c.id for c in Engine(st).pack.haunt_deck if c.kind == "darkness"]
    standard = [c.id for c in Engine(st).pack.haunt_deck if c.kind == "haunt"]
    top_haunt(st, *darkness[:4], *standard[:3])
    out = GAME.apply(st, st.ghost_seat or "s1", act("manor_done"))
    lines = [e.text for e in out.events if "Darkness Track" in e.text]
    assert out.state.track_index == 4
    assert lines == [
        "Darkness card: the Darkness Track moves to space 2 (still 1 Ghost Action a turn).",
        "Darkness card: the Darkness Track moves to space 3 (still 1 Ghost Action a turn).",
        "Darkness card: the Darkness Track moves to space 4 (still 1 Ghost Action a turn).",
        "Darkness card: the Darkness Track moves to space 5: its value rises to 2, so the "
        "Ghost player takes 2 Actions a turn.",
    ]
    # At the final space the track cannot move on (EX-DARK-02), and the line says so.
    last = out.state.model_copy(deep=True)
    last.track_index = len(Engine(last).pack.clock.darkness_track) - 1
    eng = Engine(last)
    eng.resolve_special(darkness[5])
    assert last.track_index == len(eng.pack.clock.darkness_track) - 1
    assert "Darkness card: the Darkness Track is already on its last space (still 3 Ghost " \
        "Actions a turn)." in [e.text for e in eng.events]


def test_EX_SOLO_the_log_reads_as_english_over_a_whole_solo_game() -> None:
    """A Solo game read as its player reads it (stop 59's demo): the two Characters "end
    the turn" (never "Psychologist & Detective ends"), a Task is named once ("gains Key Task
    6", not "gains the Task Key Task 6"), and a pawn moves to *the* Room, as the Ghosts do
    (but to Task Room A: a proper name of its own takes no article)."""
    st = GAME.setup(["s1"], GAME.options_model(mode="solo"), 3)
    lines: list[str] = []
    for _ in range(400):
        if GAME.result(st) is not None:
            break
        seat = sorted(GAME.to_act(st))[0]
        out = GAME.apply(st, seat, GAME.ai_action(st, seat))
        lines += [e.text for e in out.events if e.public]
        st = out.state
    assert GAME.result(st) is not None
    text = "\n".join(lines)
    # Two Characters "end"; one left in the house once the other escaped "ends" (EX-FOYER-03).
    assert " end the turn." in text and not re.search(r"& \w+ ends the turn\.", text)
    assert not re.search(r"the Task (?!Room)", text) and " completes " in text
    assert re.search(r" gains (Weapon|Holy Relic|Key|Detection|Occult) Task \d\.", text)
    moves = [line for line in lines if " moves to " in line and "Track" not in line]
    # ... and to a Room named by its own letter without one: "moves to Task Room A", and
    # "Secret Passage A" (stop 66's AI walks there in this game).
    assert moves and all(re.search(r" moves to (the |[A-Z][a-z]+( [A-Z][a-z]+)* [A-Z]\.$)",
                                   line) for line in moves), moves
    assert "the Task Room" not in text


def test_EX_TASK_a_pack_task_not_named_task_is_called_the_task() -> None:
    task = Engine(new_game("core", 2, seed=3)).pack.tasks[0]
    assert task.called == task.name  # the shipped "Weapon Task 1"
    assert task.model_copy(update={"name": "Lantern Vigil"}).called == "the Task Lantern Vigil"


def test_EX_LOSE_02_EX_RESCUE_the_recap_names_the_character_a_seat_last_played() -> None:
    """One vs All, stop 59's demo: a seat whose Character was Wounded with no Lookout left
    read "AI Moth (an investigator)" in the game-over line and recap, and a seat whose first
    Character completed a Task before being Wounded and Rescued read "0 Tasks completed"
    (the count went by the current Character's name). The slot keeps its last Character
    and its own counts."""
    from rules.core.ending import Moment
    from rules.exorcism.ending import parts

    st = new_game("core", 2, seed=3).model_copy(deep=True)
    eng = Engine(st)
    s1 = eng.invs_of("s1")[0]
    first = s1.character
    assert first is not None and st.counts_kept
    s1.tasks_done = 1  # as `complete_task` counts it
    eng.wound_character(s1, devour=False)  # three Lookouts: one rescues s1
    if st.prompts:  # the Rescue choice
        eng.rescue_with_lookout(s1, st.lookouts[0])
        st.prompts.clear()
    assert s1.character not in (None, first) and s1.wounds == 1
    # Whose place the rescuer takes (stop 63's demo: "Bodyguard comes to the rescue.")
    assert (f"{eng.char_name(s1.character or '')} comes to the rescue, taking the place of "
            f"{eng.char_name(first)}.") in [e.text for e in eng.events]
    s2 = eng.invs_of("s2")[0]
    last = s2.character
    st.lookouts.clear()
    eng.wound_character(s2, devour=False)  # no Lookout: the game is lost
    result = GAME.result(st)
    assert result is not None and s2.character is None
    assert GAME.player_name(st, "s2", NAMES) == f"Theo (the {eng.char_name(last or '')})"
    lines = {p.seat: p.line for p in parts(st, result, list[Moment](), {}, NAMES)}
    assert lines["s1"].startswith("1 Task completed, Wounded once"), lines
    assert lines["s2"].startswith("no Task completed, Wounded once"), lines


def test_EX_TOOL_tools_listed_with_and() -> None:
    """Stop 60's One vs All demo: "Bodyguard picks up 1 Detection Tool, 1 Key, 1 Occult
    Item." (the pick-up, a Trade, a Wound's drop all list Tools the same way)."""
    from rules.exorcism.engine.board import tools_text

    assert tools_text({"detection": 1, "key": 1, "occult": 1}) == \
        "1 Detection Tool, 1 Key and 1 Occult Item"
    assert tools_text({"key": 2, "weapon": 1}) == "2 Keys and 1 Weapon"
    assert tools_text({"key": 1}) == "1 Key" and tools_text({}) == "nothing"


def test_EX_GHOST_02_EX_HAUNT_09_a_haunt_cards_line_names_only_ghosts_in_the_house() -> None:
    """Only the Ghosts in the house follow a Haunt card's arrows (EX-GHOST-02/03, EX-HAUNT-09).
    Stop 61's Solo demo read "Wraith up, Bull 1 space up, Devourer left." then only "The
    Wraith moves to …"; a stop 65 demo read the same card line and "…; the Bull and the Devourer are
    not in the house yet." some twenty times. The card's line names the arrows of the Ghosts
    in the house, and the moves line the moves."""
    st = new_game("core", n=2, seed=3)
    eng = Engine(st)
    card = next(c for c in eng.pack.haunt_deck if c.kind == "haunt")
    face = eng.haunt_card_text(card.id)  # the card itself: all three arrows
    assert "Wraith " in face and "Bull " in face and "Devourer " in face
    st.ghosts = {"wraith": "attic", "bull": None, "devourer": None}
    assert eng.haunt_card_told(card.id) == face.split(", Bull")[0]
    eng.move_ghosts(card.id)
    said = [e.text for e in eng.events if e.kind == "ghosts_move"]
    assert len(said) == 1 and said[0].startswith("The Wraith ")
    assert "not in the house" not in said[0] and "Bull" not in said[0], said
    st.ghosts = {**st.ghosts, "bull": "attic"}
    told = eng.haunt_card_told(card.id)
    assert "Bull " in told and "Devourer" not in told, told
    st.ghosts = {**st.ghosts, "devourer": "attic"}
    assert eng.haunt_card_told(card.id) == face


def test_EX_HAUNT_11_EX_AMB_25_after_the_exorcism_a_card_moves_no_ghost_and_turns_nothing(
) -> None:
    """A stop 65 demo's Solo: "Haunt card (Location 3): Wraith up, Bull 3 spaces down, Devourer
    left." after "the Ghosts are exorcised and leave the house"; "Bull card: the house is
    exorcised, it has no effect." (a comma splice) named a turning point in the recap."""
    from rules.core.types import Result
    from rules.exorcism.ending import ending

    st = new_game("core", n=2, seed=3).model_copy(deep=True)
    st.exorcised = True
    st.ghosts = dict.fromkeys(st.ghosts)
    eng = Engine(st)
    card = next(c for c in eng.pack.haunt_deck if c.kind == "haunt")
    eng.reveal_haunt(card.id)
    assert eng.events[-1].text == f"Haunt card (Location {card.location}): no Ghost left to move."
    bull = next(c for c in eng.pack.haunt_deck if c.kind == "bull")
    eng.resolve_special(bull.id)
    assert eng.events[-1].text == "Bull card: the house is exorcised, so it has no effect."
    result = Result(winners=list(st.seats), losers=[], reason="x")
    points = ending(st, result, [(None, list(eng.events))], NAMES).turning_points
    assert not any("no effect" in p or "no Ghost left" in p for p in points), points


def test_EX_OVA_TERROR_the_recap_counts_each_terror_once() -> None:
    """Stop 63's One vs All demo: the Ghost player's recap read "19 Terrors caused" after 7
    Terrors: a Terror's after-effects (Amnesia, a Cold Spot, a Tool appearing) share its
    event kind, and every such line was counted as a Terror."""
    from rules.core.ending import Moment
    from rules.core.types import Event, Result
    from rules.exorcism.ending import parts

    st = new_game("one_vs_all", 3, seed=2)
    ghost = st.ghost_seat
    assert ghost is not None
    result = Result(winners=[ghost], losers=[s for s in st.seats if s != ghost], reason="x")
    terror = [Event(kind="terror", text="The Ghost player causes Terror: Amnesia."),
              Event(kind="terror", text="Amnesia: Medium loses 1 Action on their next turn."),
              Event(kind="terror", text="The Ghost player causes Terror: Cold Spot."),
              Event(kind="terror", text="A Cold Spot chills the Attic.")]
    lines = {p.seat: p.line for p in parts(st, result, [Moment(e, 3) for e in terror], {}, NAMES)}
    assert lines[ghost].startswith("2 Terrors caused"), lines[ghost]


def _rooms_at(st: object) -> tuple[int, list[str]]:
    """A Location two or more face-up Rooms share, and those Rooms."""
    eng = Engine(st)  # type: ignore[arg-type]
    by: dict[int, list[str]] = {}
    for cid in eng.geo.house:
        cell = eng.st.cells[cid]
        if cell.card and not cell.face_down and not cell.shrouded:
            by.setdefault(eng.pack.room(cell.card).location, []).append(cid)
    location, cids = max(by.items(), key=lambda kv: len(kv[1]))
    assert len(cids) >= 2
    return location, cids


def test_EX_HAUNT_11_after_the_exorcism_a_shroud_is_the_spirits_curse_not_the_wraith() -> None:
    """Stop 69's demo: "32 Exorcism points: the Ghosts are exorcised and leave the house." then
    "The Relic Room is Shrouded: the Wraith has taken it." Haunt cards still darken the house
    after the exorcism because the Spirit's dying curse drags it on (EX-HAUNT-11); the Wraith
    has gone (EX-WIN-01)."""
    st = new_game("core", 3, seed=3).model_copy(deep=True)
    location, cids = _rooms_at(st)
    eng = Engine(st)
    st.exorcised = True
    st.cells[cids[1]].darkness = eng.opts.shroud_at - 1
    eng.step_place_darkness(location)
    said = [e.text for e in eng.events if e.kind == "shroud"]
    assert said == [f"The {eng.cell_name(cids[1])} is Shrouded: the Spirit's curse has taken "
                    "it."], said


def test_EX_HAUNT_08_EX_DARK_04_the_spread_is_told_before_the_shroud_it_causes() -> None:
    """Stop 63's demos: "The Bathroom is Shrouded…" came before "Darkness spreads to every
    Room with Location 1: Task Room A, Bathroom.", the cause after its effect."""
    st = new_game("core", 3, seed=3).model_copy(deep=True)
    location, cids = _rooms_at(st)
    eng = Engine(st)
    st.cells[cids[1]].darkness = eng.opts.shroud_at - 1
    eng.step_place_darkness(location)
    texts = [e.text for e in eng.events]
    assert texts[0].startswith(f"Darkness spreads to every Room with Location {location}: ")
    assert texts[1] == f"The {eng.cell_name(cids[1])} is Shrouded: the Wraith has taken it."
    assert len(texts) == 2 and st.cells[cids[1]].shrouded


def test_EX_OVA_13_a_room_the_empty_supply_skips_is_never_said_to_take_darkness() -> None:
    """Stop 63's One vs All demo: "No Darkness Token is left for the Supply Room." and then
    "Darkness spreads to every Room with Location 5: Supply Room, Detection Room."."""
    st = new_game("one_vs_all", 3, seed=2).model_copy(deep=True)
    location, cids = _rooms_at(st)
    eng = Engine(st)
    st.darkness_supply = 1
    eng.step_place_darkness(location)
    assert [e.text for e in eng.events] == [
        f"Darkness spreads to the {eng.cell_name(cids[0])} (Location {location}), and no "
        f"Darkness Token is left for {eng.rooms_called(cids[1:])}."]
    assert st.darkness_supply == 0 and st.cells[cids[0]].darkness >= 1
    eng.events.clear()
    eng.step_place_darkness(location)
    assert [e.text for e in eng.events] == [
        f"No Darkness Token is left for {eng.rooms_called(cids)} (Location {location})."]


def test_EX_SETUP_the_start_post_tells_the_first_turn_the_clock_and_the_lookouts() -> None:
    """Stop 63's demos: a core game's thread went from "… begins with 3 players." straight to
    the first move; the setup's "The investigators enter the manor: … Lookouts: …", "Turn 1
    (round 1): … to play." and the clock's first tick were never posted (`setup_events`, which
    the table service posts with the start)."""
    st = new_game("core", 3, seed=5)
    told = [e.text for e in GAME.setup_events(st)]
    assert told[0].startswith("The investigators enter the manor: ") and "Lookouts: " in told[0]
    assert any(t.startswith("Turn 1 (round 1): ") for t in told)
    assert any(t.startswith("The clock ticks: Time Die 1 shows ") for t in told)
    assert all(e.audience == "public" for e in GAME.setup_events(st))


def test_EX_WIN_a_score_past_its_target_reads_as_one() -> None:
    """Stop 63's first-game demo: the card's numbers read "Exorcism 27 of 24" once the
    points passed the target; now "Exorcism 27 (24 needed)", and the words alike."""
    from renders.cardwords import number_words, numbers
    from rules.core.game import score_of

    assert score_of(6, 24, "point") == "6 of 24 points"
    assert score_of(24, 24, "point") == "24 of 24 points"
    assert score_of(27, 24, "point") == "27 points (24 needed)"
    st = new_game("core", 3, seed=5)
    target = Engine(st).opts.exorcism_target
    st = st.model_copy(update={"points": target + 3}, deep=True)
    view = GAME.view(st, None)
    said = [number_words(n) for n in numbers("exorcism", view) if n.label == "Exorcism"]
    assert said == [f"Exorcism {target + 3} ({target} needed)"]
    status = "\n".join(GAME.status_lines(st, None, NAMES))
    assert f"Exorcism: {target + 3} points ({target} needed)" in status


def test_EX_TASK_04_a_kept_task_says_what_it_lets_its_holder_do() -> None:
    """Stop 63's demos: "Psychologist completes Occult Task 6." and nothing said that the
    Psychologist may now use an adjacent Room's Action once per turn (nor, for Holy Relic Task
    6, why a later Purify took 2 Tokens)."""
    st = new_game("core", 3, seed=5).model_copy(deep=True)
    eng = Engine(st)
    inv = eng.invs_of(st.active)[0]
    task = eng.pack.task("occult-6")
    st.players[inv.seat].tasks.append(task.id)
    for tool, n in task.cost().items():
        inv.tools[tool] = inv.tools.get(tool, 0) + n
    eng.complete_task(inv, task.id)
    name = eng.char_name(inv.character or "")
    assert f"{name} keeps Occult Task 6: from now on, once per turn, use the Action of an " \
        "adjacent Room that is neither Locked nor Shrouded." in [e.text for e in eng.events]


def test_EX_ACT_purify_says_who_purifies() -> None:
    """Stop 63's demos: "1 Darkness Token removed from the Plan Room (2 times)." named nobody:
    a Purify Action, a Plan and a Room's Action read alike."""
    st = new_game("core", 3, seed=5).model_copy(deep=True)
    inv = Engine(st).invs_of(st.active)[0]
    assert inv.cell is not None
    st.cells[inv.cell].darkness = 2
    assert act("purify") in GAME.legal_actions(st, st.active)
    out = GAME.apply(st, st.active, act("purify"))
    name = Engine(st).char_name(inv.character or "")
    room = Engine(st).cell_name(inv.cell)
    assert any(e.text.startswith(f"{name} purifies the {room}: ") and " removed" in e.text
               for e in out.events), [e.text for e in out.events]


def test_EX_SOLO_the_turn_says_which_investigator_stands_where() -> None:
    """Stop 63's Solo demo: "take up to 1 more action in the Supply Room (row 1, column 1) and
    the Key Room (row 2, column 3)" said neither pawn, and "in the Key Room (…) and the Key
    Room (…)" when both stood in one Room."""
    st = new_game("solo", 1, seed=3).model_copy(deep=True)
    eng = Engine(st)
    a, b = eng.invs_of("s1")
    text = GAME.doing_text(st, "s1", NAMES)
    assert (f" with the {eng.char_name(a.character or '')} in the "
            f"{eng.cell_name(a.cell or '')}") in text, text
    assert f" and the {eng.char_name(b.character or '')} in the " in text, text
    b.cell = a.cell
    text = GAME.doing_text(st, "s1", NAMES)
    assert (f" with the {eng.char_name(a.character or '')} and the "
            f"{eng.char_name(b.character or '')} both in the {eng.cell_name(a.cell or '')}"
            ) in text, text


def test_EX_GHOST_a_devouring_says_where_it_happened_before_what_it_costs() -> None:
    """Stop 63's demo: "Detective is devoured by the Devourer and removed from the game in
    the Supply Room, dropping 3 Detection Tools." put the Room after "removed from the game"."""
    st = new_game("core", 3, seed=5).model_copy(deep=True)
    eng = Engine(st)
    inv = eng.invs_of(st.active)[0]
    name, room = eng.char_name(inv.character or ""), eng.cell_name(inv.cell or "")
    inv.tools = {"detection": 3}
    eng.wound_character(inv, devour=True)
    assert (f"{name} is devoured by the Devourer in the {room}, dropping 3 Detection Tools, "
            "and is out of the game for good.") in [e.text for e in eng.events]


def test_EX_HAUNT_08_a_location_whose_rooms_are_all_shrouded_says_so() -> None:
    """Stop 64's demo: "Haunt card (Location 2): …" and then nothing, both Location-2 Rooms
    Shrouded already."""
    st = new_game("core", 3, seed=3).model_copy(deep=True)
    location, cids = _rooms_at(st)
    for cid in cids:
        st.cells[cid].shrouded = True
    eng = Engine(st)
    eng.step_place_darkness(location)
    assert [e.text for e in eng.events] == [
        f"No Room with Location {location} takes Darkness: {eng.rooms_called(cids)} are "
        "Shrouded."]


def test_EX_TASK_03_the_advice_counts_the_specialization_bonus() -> None:
    """Stop 64's demos: "completing it earns 2 points", then "+3 Exorcism points (Key Task 2
    with the Specialization bonus)"; and the points line names whose Task it was."""
    from rules.exorcism.guide import advice
    from tests.exorcism.helpers import at_rest, give

    st = at_rest(new_game("core", 2, seed=4), "s1")
    eng = Engine(st)
    inv = st.investigators["s1"]
    ch = eng.character(inv.character or "")
    tid = next(t for t in eng.pack.tasks if t.subtype == ch.specialization).id
    st.players["s1"].tasks = [tid]
    task = eng.pack.task(tid)
    for tool, n in task.cost().items():
        give(st, "s1", tool, n)
    said = advice(GAME.view(st, "s1"), "s1") or ""
    assert (f"completing it earns {task.points} point{'s' if task.points != 1 else ''}, plus "
            "the Specialization bonus.") in said, said
    eng = Engine(st)
    eng.complete_task(inv, tid)
    points = next(e.text for e in eng.events if e.kind == "points")
    assert f"({ch.name}'s {task.name} with the Specialization bonus)" in points, points


def test_EX_END_the_recap_counts_the_turn_the_setup_announced() -> None:
    """Stop 64's core demos: "Turn 26 (round 13)" in the thread, "25 turns" in the recap (the
    first turn is announced by the setup, outside any move)."""
    from rules.core.types import Result
    from rules.exorcism.ending import ending

    st = new_game("core", 2, seed=4).model_copy(deep=True)
    st.game_turn = 26
    result = Result(winners=list(st.seats), losers=[], reason="x")
    assert ", 26 turns, " in ending(st, result, [], NAMES).length


def test_EX_OVA_the_ghosts_advice_after_the_exorcism_and_with_the_supply_empty() -> None:
    """Stop 64's demo: the exorcised Ghost player was told to "Play Haunt cards where the
    investigators stand to wound them", and nothing said Add Darkness places nothing with the
    supply at 0."""
    from rules.exorcism.guide import _ghost_turn

    st = new_game("one_vs_all", 3, seed=2).model_copy(deep=True)
    st.exorcised = True
    st.darkness_supply = 0
    said = _ghost_turn(GAME.view(st, st.ghost_seat))
    assert "The Ghosts are exorcised: they wound no one now" in said, said
    assert "The Darkness supply is empty: Add Darkness places nothing" in said
    assert "to wound them" not in said


def test_EX_OVA_a_ghost_question_about_the_board_sends_nobody_to_the_dms() -> None:
    """Stop 64's demo: "📬 Ada: your private choices are in your DMs." beside the Ghost
    player's "Moving Objects: choose the Room where …", a choice on the board, not in the DM."""
    st = new_game("one_vs_all", 3, seed=2).model_copy(deep=True)
    ghost = st.ghost_seat
    assert ghost is not None
    eng = Engine(st)
    eng.push_prompt("terror_cell", [ghost], "A Cold Spot: choose the Room.",
                    ability="cold_spot", options=eng.room_cells())
    assert GAME.public_actions(st, ghost) and GAME.choices_all_public(st, ghost)
    assert not GAME.choices_all_public(st, st.seats[0] if st.seats[0] != ghost
                                       else st.seats[1])


def test_EX_ACT_05_a_tasks_reward_comes_before_its_points() -> None:
    """Stop 64's demo: "+4 Exorcism points (Occult Task 5); total 32.", "32 Exorcism points:
    the Ghosts are exorcised…", then "Photographer gains the Plan …": EX-ACT-05 gains the
    Rewards, then moves the Exorcism Point Tracker."""
    from tests.exorcism.helpers import at_rest, do, give

    st = at_rest(new_game("core", 2, seed=4), "s1")
    eng = Engine(st)
    tid = "weapon-5"
    for pile in (st.task_deck, st.available_tasks, st.task_discard,
                 *(p.tasks for p in st.players.values())):
        if tid in pile:
            pile.remove(tid)
    st.task_deck.extend(st.players["s1"].tasks)
    st.players["s1"].tasks = [tid]
    for tool, n in eng.pack.task(tid).cost().items():
        give(st, "s1", tool, n)
    st2, events = do(st, "s1", "task", task=tid)
    kinds = [e.kind for e in events]
    said = [e.text for e in events]
    plan = next(i for i, t in enumerate(said) if "gains the Plan" in t)
    points = kinds.index("points")
    assert kinds.index("task") < plan < points, said
    assert st2.points == st.points + eng.pack.task(tid).points + (
        eng.character(st.investigators["s1"].character or "").specialization_bonus
        if eng.character(st.investigators["s1"].character or "").specialization == "weapon"
        else 0)


def test_EX_END_a_places_counts_name_every_character_it_carried() -> None:
    """Stop 64's Solo recap: "Photographer: 9 Tasks completed, Wounded 2 times" — the
    Psychologist and the Bodyguard had done and suffered those before the Photographer took
    the place. The recap names the Characters the place carried, in turn."""
    from rules.core.ending import Moment
    from rules.core.types import Event, Result
    from rules.exorcism.ending import parts

    st = new_game("solo", 1, seed=2).model_copy(deep=True)
    inv = next(i for i in st.investigators.values() if i.role == "primary")
    inv.character, inv.tasks_done, inv.wounds = "photographer", 9, 2
    moments = [Moment(Event(kind="rescue", text="Bodyguard comes to the rescue.",
                            data={"inv": inv.id, "was": "psychologist", "char": "bodyguard"}), 3),
               Moment(Event(kind="rescue", text="Photographer comes to the rescue.",
                            data={"inv": inv.id, "was": "bodyguard", "char": "photographer"}),
                      5)]
    result = Result(winners=list(st.seats), losers=[], reason="x")
    line = parts(st, result, moments, {}, NAMES)[0].line
    assert "Psychologist → Bodyguard → Photographer: 9 Tasks completed, Wounded 2 times" \
        in line, line


def test_EX_TURN_06_a_turn_lost_to_a_wound_says_so() -> None:
    """Stop 64's demos: "Psychologist is Wounded …" then "Journalist ends the turn." with no
    Action taken and no word why (EX-TURN-06: the rest of the turn is lost)."""
    st = new_game("core", 2, seed=2).model_copy(deep=True)
    eng = Engine(st)
    inv = st.investigators[st.active or "s1"]
    eng.wound_character(inv, devour=False)
    said = [e.text for e in eng.events]
    assert any(t.endswith("was Wounded on their own turn: the rest of this turn is lost.")
               for t in said), said
    eng.end_turn()
    assert [e.text for e in eng.events][-1].endswith("'s turn is over."), eng.events[-1].text


def test_EX_ACT_a_purify_of_more_than_one_says_why() -> None:
    """Stop 64's Solo demo: "Photographer purifies the Supply Room: 2 Darkness Tokens
    removed." — the rulebook's Purify takes one; the 2 came from a kept Holy Relic Task 6."""
    st = new_game("core", 3, seed=5).model_copy(deep=True)
    eng = Engine(st)
    inv = eng.invs_of(st.active)[0]
    assert inv.cell is not None
    st.cells[inv.cell].darkness = 3
    eng.purify_room(inv.cell, 2, by=inv)
    assert " removed (" in eng.events[-1].text, eng.events[-1].text
    eng.events.clear()
    eng.purify_room(inv.cell, 1, by=inv)
    assert eng.events[-1].text.endswith(" removed."), eng.events[-1].text


def test_EX_guide_the_room_to_gain_a_tool_is_the_nearest_that_gives_it() -> None:
    """Stop 64's demo: "the Occult Room gains an Occult Item" sent a player across the house
    with the Supply Room ("Gain 1 Tool of any type") next door."""
    import re as _re

    from rules.exorcism.guide import advice
    from tests.exorcism.helpers import at_rest

    st = at_rest(new_game("core", 2, seed=4), "s1")
    eng = Engine(st)
    inv = st.investigators["s1"]
    inv.tools = {}
    st.players["s1"].tasks = ["occult-1"]  # a Task that needs an Occult Item, none held
    # one step from the Room that gives any Tool, two from the Occult Room
    inv.cell = next(c["id"] for c in GAME.view(st, "s1")["cells"]
                    if c["name"] == "Task Room B")
    view = GAME.view(st, "s1")
    said = advice(view, "s1") or ""
    found = _re.search(r"; the ([^;]+?) gains an? ([A-Z][\w ]+?)\.", said)
    assert found is not None, said
    tool = found.group(2)
    here = next(c for c in view["cells"] if c["id"] == inv.cell)
    givers = [c for c in view["cells"] if c.get("action_text") and "Gain" in c["action_text"]
              and (tool in c["action_text"] or "of any type" in c["action_text"])]
    nearest = min(abs(c["row"] - here["row"]) + abs(c["col"] - here["col"]) for c in givers)
    named = next(c for c in givers if c["name"] == found.group(1))
    assert abs(named["row"] - here["row"]) + abs(named["col"] - here["col"]) == nearest, said
    assert eng.pack.task("occult-1")


def test_EX_TURN_01_a_turn_header_names_the_player_where_the_table_knows_the_name() -> None:
    """Players reading a demo game's thread: "Turn 12 (round 3): Psychologist to play." named
    the Character only, and whose turn it was could be told only from the ⏳ line. The engine
    names seats, never people: its turn line carries the seat, and the table's `event_text`
    names the player beside the Character — as plain text, never a mention."""
    st = new_game("core", 3, seed=5)
    setup = [e for e in GAME.setup_events(st) if e.text.startswith("Turn 1 (round 1): ")]
    assert len(setup) == 1
    seat = st.active
    assert seat is not None
    label = GAME.seat_label(st, seat)
    said = GAME.event_text(st, setup[0], NAMES)
    assert said == f"Turn 1 (round 1): {label} ({NAMES[seat]}) to play."
    assert "<@" not in said
    # A later turn's header, from the events a move gives back.
    for _ in range(60):
        awaited = sorted(GAME.to_act(st))
        out = GAME.apply(st, awaited[0], GAME.legal_actions(st, awaited[0])[-1])
        st = out.state
        heads = [e for e in out.events if e.kind == "turn"]
        if heads:
            break
    else:
        raise AssertionError("no second turn began")
    head = heads[0]
    seat = str(head.data["seat"])
    label = GAME.seat_label(st, seat)
    assert head.text == f"Turn 2 (round 1): {label} to play."  # the engine: no names
    assert GAME.event_text(st, head, NAMES) == \
        f"Turn 2 (round 1): {label} ({NAMES[seat]}) to play."
    # A seat the table has no name for (a test, a seat not yet named) keeps the engine's line.
    assert GAME.event_text(st, head, {}) == head.text
    # Any other line is the engine's own.
    other = next(e for e in out.events if e.kind != "turn")
    assert GAME.event_text(st, other, NAMES) == other.text


def test_a_room_named_by_its_own_letter_takes_no_article() -> None:
    """Players reading demo games: "moves to the Task Room A". A name that ends in its own
    letter or number is a proper name: "Task Room A", as "the Weapon Room" keeps its "the";
    a cell's "(row 2, column 4)" is not part of the name."""
    from rules.core.game import the_name

    assert the_name("Task Room A") == "Task Room A"
    assert the_name("Task Room B", capital=True) == "Task Room B"
    assert the_name("Task Room A (row 1, column 2)") == "Task Room A (row 1, column 2)"
    assert the_name("Weapon Room") == "the Weapon Room"
    assert the_name("Weapon Room", capital=True) == "The Weapon Room"
    assert the_name("Locked Room (row 2, column 4)") == "the Locked Room (row 2, column 4)"
    assert the_name("Room 101") == "Room 101"


def test_EX_ACT_01_EX_ACT_04_lines_name_task_room_a_without_the() -> None:
    """A move into Task Room A, its Action's button and line, the status words and a move
    refused read "Task Room A", never "the Task Room A"; the Weapon Room keeps its "the"."""
    from tests.exorcism.helpers import clear_board, do, legal, place_room, put, texts

    st = new_game("core", 2, seed=3)
    clear_board(st)
    put(st, "s1", "r3c3")
    place_room(st, "R07", "r2c3")  # Task Room A, next to s1
    st, events = do(st, "s1", "move", to="r2c3")
    said = texts(events)
    assert "moves to Task Room A." in said, said
    use = next(a for a in legal(st, "s1") if a.kind == "room_action")
    assert GAME.describe(st, "s1", use).startswith("Use Task Room A: ")
    st2, events = do(st, "s1", "room_action", **use.params)
    said = texts(events) + " | " + " | ".join(GAME.status_lines(st2, None, NAMES))
    assert "uses Task Room A." in said, said
    status = " ".join(GAME.status_lines(st, None, NAMES))
    assert "in Task Room A" in status, status
    assert "the Task Room" not in said + status
    eng = Engine(st)
    assert eng.the_cell("r2c3") == "Task Room A"
    assert eng.the_cell("r2c3", capital=True) == "Task Room A"
    weapon = next(cid for cid, c in st.cells.items() if c.card == "R02")
    assert eng.the_cell(weapon) == "the Weapon Room"
    assert eng.the_cell(weapon, capital=True) == "The Weapon Room"


def test_EX_FOYER_03_EX_TURN_05_solo_escaped_investigator_no_longer_plays() -> None:
    """A stop 65 demo's Solo: "Turn 16 (round 16): Doctor & Detective (Ada) to play." the turn after
    the Doctor escaped, and "⏳ Ada (the Doctor and the Detective): …". An escaped pawn is out
    of the game: the header, the ending of a turn and the awaited line name the Characters
    still in the house; the game-over line names the role as it was."""
    st = new_game("solo", 1, seed=3).model_copy(deep=True)
    st.points = 31
    st.exorcised = True
    eng = Engine(st)
    first, second = eng.invs_of("s1")
    assert first.character and second.character
    gone, stays = eng.char_name(first.character), eng.char_name(second.character)
    eng.escape(first)
    assert eng.seat_label("s1") == stays
    assert eng.seat_does("s1", "ends") == f"{stays} ends"
    eng.end_turn()
    eng.run()
    st = eng.st
    heads = [e for e in eng.events if e.kind == "turn"]
    assert heads and gone not in heads[-1].text, heads[-1].text
    assert GAME.event_text(st, heads[-1], {"s1": "Ada"}).endswith(f": {stays} (Ada) to play.")
    now = GAME.doing_text(st, "s1", {"s1": "Ada"})
    assert now.startswith(f"Ada (the {stays}): "), now
    # Over: every Character the seat played won with it.
    eng = Engine(st)
    eng.escape(eng.invs_of("s1")[1])
    assert st.outcome == "won"
    assert player(st, "s1", {"s1": "Ada"}) in (f"Ada (the {gone} and the {stays})",
                                                f"Ada (the {stays} and the {gone})")


def test_EX_HAUNT_12_the_advice_with_the_darkness_supply_empty_names_the_loss() -> None:
    """A stop 65 demo's core game: "The Relic Room holds 3 Darkness: Purify it before it piles up
    into a Shroud and the supply runs low." with "Darkness left 0 of 30": the supply is empty,
    and in core the next Darkness Token that must be placed loses the game (EX-LOSE-01)."""
    from rules.exorcism.guide import advice

    st = _darkness_at_hand()
    st.darkness_supply = 0
    said = advice(GAME.view(st, "s1"), "s1") or ""
    assert "The Darkness supply is empty: the next Darkness Token that must be placed loses " \
        "the game." in said, said
    assert "runs low" not in said and "Purify it" in said, said
    st.darkness_supply = 5
    assert "empty" not in (advice(GAME.view(st, "s1"), "s1") or "")


def test_EX_TASK_03_EX_WIN_01_the_ready_task_worth_most_and_the_one_that_exorcises() -> None:
    """A stop 65 demo's Solo: "You hold every Tool Key Task 3 asks for: completing it earns 3
    points." with the Doctor's Holy Relic Task 4 (3 plus the Specialization bonus) ready too;
    and at 28 of 30 no word that the ready Task exorcises the Ghosts."""
    from rules.exorcism.guide import advice
    from tests.exorcism.helpers import at_rest, give

    st = at_rest(new_game("core", 2, seed=4), "s1")
    for g in st.ghosts:
        st.ghosts[g] = None
    eng = Engine(st)
    inv = st.investigators["s1"]
    inv.tools = {}
    ch = eng.character(inv.character or "")
    spec = next(t for t in eng.pack.tasks if t.subtype == ch.specialization
                and not t.ongoing)
    other = next(t for t in eng.pack.tasks if t.subtype != ch.specialization
                 and t.points == spec.points and not t.ongoing)
    st.players["s1"].tasks = [other.id, spec.id]  # the plain one first, as the old sort kept
    for t in (other, spec):
        for tool, n in t.cost().items():
            give(st, "s1", tool, n)
    target = GAME.view(st, "s1")["exorcism"]["target"]
    said = advice(GAME.view(st, "s1"), "s1") or ""
    assert f"You hold every Tool {spec.name} asks for" in said, said
    assert "plus the Specialization bonus." in said and "exorcises" not in said, said
    gain = spec.points + ch.specialization_bonus
    st.points = target - gain
    said = advice(GAME.view(st, "s1"), "s1") or ""
    assert (f"{spec.name} asks for: completing it earns {spec.points} points, plus the "
            f"Specialization bonus, which brings the Exorcism to {target} points and exorcises "
            f"the Ghosts ({target} needed).") in said, said


def test_EX_ACT_01_04_a_room_to_gain_a_tool_is_named_for_now_only_within_the_actions_left(
) -> None:
    """A stop 65 demo's core game: 1 Action left in the Foyer, told "the Occult Room gains an Occult
    Item", a Move and a Room Action away: that Room is for the next turn."""
    import re as _re

    from rules.exorcism.guide import advice
    from tests.exorcism.helpers import at_rest

    st = at_rest(new_game("core", 2, seed=4), "s1", actions=1)
    for g in st.ghosts:
        st.ghosts[g] = None
    inv = st.investigators["s1"]
    inv.tools = {}
    inv.cell = "foyer"
    st.players["s1"].tasks = ["occult-1"]
    said = advice(GAME.view(st, "s1"), "s1") or ""
    found = _re.search(r"; (?:the )?([^;]+?) gains an? [A-Z][\w ]+?: a goal for your next "
                       r"turn \((\d) Moves? and its Action need more than 1 Action\)\.", said)
    assert found is not None and int(found.group(2)) >= 1, said
    # In that Room, its Action is the 1 Action left: named for now.
    inv.cell = next(c["id"] for c in GAME.view(st, "s1")["cells"]
                    if c["name"] == found.group(1))
    said = advice(GAME.view(st, "s1"), "s1") or ""
    assert f"{found.group(1)} gains a" in said and "next turn" not in said, said


def test_EX_GAP_04_a_characters_own_ability_is_named_with_what_it_does() -> None:
    """A stop 65 demo: "Journalist uses their own ability. / Journalist gains Key Task 2." — a
    reader had to know the Character cards to learn what was used."""
    from tests.exorcism.helpers import at_rest, do, set_character

    st = at_rest(new_game("core", 2, seed=4), "s1")
    set_character(st, "s1", "journalist")
    for g in st.ghosts:
        st.ghosts[g] = None
    st, events = do(st, "s1", "ability", source="journalist")
    said = [e.text for e in events]
    assert "Journalist uses the Journalist's ability: gain 1 Available Task, then refill the " \
        "row." in said, said
    assert not any("their own ability" in line for line in said)


def test_EX_OVA_11_EX_RESCUE_03_the_ghosts_advice_says_one_wound_wins_with_no_lookout() -> None:
    """A stop 65 demo: the board read "Lookouts 0" and the Ghost player's advice only said "Play
    Haunt cards where the investigators stand to wound them.", never that the next Wound
    wins the game (no Lookout can Rescue)."""
    from rules.exorcism.guide import _ghost_turn

    st = new_game("one_vs_all", 3, seed=2).model_copy(deep=True)
    said = _ghost_turn(GAME.view(st, st.ghost_seat))
    assert "No Lookout is left" not in said, said
    st.lookouts = []
    said = _ghost_turn(GAME.view(st, st.ghost_seat))
    assert "No Lookout is left: the next investigator a Ghost wounds cannot be rescued, " \
        "and you win." in said, said
    st.exorcised = True  # exorcised Ghosts wound no one (EX-GHOST-09)
    assert "No Lookout" not in _ghost_turn(GAME.view(st, st.ghost_seat))


def test_EX_OVA_08_EX_AMB_30_the_ghosts_advice_says_the_haunt_level_needs_two_tokens() -> None:
    """A stop 65 demo: "the Haunt Level is 28 of the 30 that wins" with the supply at 0 for eight
    turns, never that Increase the Haunt Level takes 2 Tokens from the supply."""
    from rules.exorcism.guide import _ghost_turn

    st = new_game("one_vs_all", 3, seed=2).model_copy(deep=True)
    assert "cannot rise" not in _ghost_turn(GAME.view(st, st.ghost_seat))
    for left in (0, 1):
        st.darkness_supply = left
        said = _ghost_turn(GAME.view(st, st.ghost_seat))
        assert ("Raising the Haunt Level takes 2 Darkness Tokens from the supply: it cannot "
                "rise until the investigators Purify some back." if left else
                "The Darkness supply is empty: Add Darkness places nothing, and the Haunt "
                "Level (2 Tokens a raise) cannot rise until the investigators Purify some "
                "back.") in said, said


def test_EX_LOSE_01_EX_DARK_01_the_advice_warns_of_a_supply_one_turn_can_empty() -> None:
    """A stop 65 demo: "Darkness left 2 of 30 (3 Haunt cards a turn)" and the advice "Purify it
    before it piles up into a Shroud and the supply runs low."; the next Haunt phase lost the
    game for want of a Darkness Token."""
    from rules.exorcism.guide import advice

    st = _darkness_at_hand()
    st.track_index = len(Engine(st).pack.clock.darkness_track) - 1  # 3 Haunt cards a turn
    st.darkness_supply = 2
    said = advice(GAME.view(st, "s1"), "s1") or ""
    assert "Only 2 Darkness Tokens left, and 3 Haunt cards a turn: a Token to place with " \
        "none left loses the game." in said, said
    assert "runs low" not in said and "Purify it to put Tokens back in the supply." in said
    st.darkness_supply = 20
    said = advice(GAME.view(st, "s1"), "s1") or ""
    assert "Only" not in said and "runs low" in said, said


def test_EX_HAUNT_12_EX_LOSE_01_the_rooms_that_took_the_last_tokens_are_told_before_the_loss(
) -> None:
    """A stop 65 demo: a Location 4 card with 1 Token left put it on the Cleansing Room, then lost
    on the Key Room; only "The investigators lose: a Darkness Token must be placed and none
    is left." was said."""
    st = new_game("core", 2, seed=4).model_copy(deep=True)
    eng = Engine(st)
    rooms: dict[int, list[str]] = {}
    for cid in eng.geo.house:
        cell = st.cells[cid]
        if cell.card is not None and not cell.face_down and not cell.shrouded:
            rooms.setdefault(eng.pack.room(cell.card).location, []).append(cid)
    location, cids = next((k, v) for k, v in rooms.items() if len(v) >= 2)
    for cid in cids:
        st.cells[cid].darkness = 0
    st.darkness_supply = 1
    eng.step_place_darkness(location)
    texts = [e.text for e in eng.events]
    first, second = cids[0], cids[1]
    said = (f"Darkness spreads to {eng.the_cell(first)} (Location {location}), and no Darkness "
            f"Token is left for {eng.the_cell(second)}.")
    assert said in texts, texts
    assert texts.index(said) < next(i for i, t in enumerate(texts) if "none is left" in t)


def test_EX_OVA_05_the_haunt_phase_line_says_ghost_actions_as_the_advice_does() -> None:
    """A stop 65 demo: "Haunt phase: the Ghost player has 1 action." beside the advice's "1 Ghost
    Action left" and the board's "1 Ghost Action a turn"."""
    st = new_game("one_vs_all", 3, seed=2).model_copy(deep=True)
    eng = Engine(st)
    eng.step_ghost_phase_start()
    texts = [e.text for e in eng.events if e.text.startswith("Haunt phase:")]
    assert texts and re.fullmatch(
        r"Haunt phase: the Ghost player has \d Ghost Actions?\.", texts[0]), texts


def test_EX_DARK_01_the_status_line_says_the_track_value_as_what_it_does() -> None:
    """Stop 65: "Darkness Track at space 1 (value 1)" in `/game status` and the alt text; the
    value is said as what it does: Haunt cards a turn, or the Ghost player's Actions."""
    from rules.exorcism.words import _darkness_line

    core = GAME.setup(["s1", "s2"], GAME.options_model(mode="core"), 4)
    assert "Darkness Track at space 1 (1 Haunt card a turn);" in _darkness_line(
        GAME.view(core, None))
    ova = GAME.setup(["s1", "s2", "s3"], GAME.options_model(mode="one_vs_all"), 4)
    assert "Darkness Track at space 1 (1 Ghost Action a turn);" in _darkness_line(
        GAME.view(ova, None))


def _darkness_at_hand() -> ExorcismState:
    """Core, 2 players, s1 at rest with no Tools, no Task and no Ghost in the house, standing
    in a Room that holds 3 Darkness: what the advice says then turns on the supply alone."""
    from tests.exorcism.helpers import at_rest

    st = at_rest(new_game("core", 2, seed=4), "s1")
    st.investigators["s1"].tools = {}
    st.players["s1"].tasks = []
    cell = st.investigators["s1"].cell
    assert cell is not None
    for g in st.ghosts:
        st.ghosts[g] = None
    st.cells[cell].darkness, st.cells[cell].shrouded = 3, False
    return st


def _told(kind: str, text: str, **data: object) -> object:
    from rules.core.types import Event

    return Event(kind=kind, text=text, data=data)


def test_EX_RESCUE_03_EX_LOSE_01_the_recap_turning_points_are_the_ones_that_mattered() -> None:
    """Stop 65's recaps: the turning points were routine Wounds, Rescues and possessions (core
    seed 102: "Round 12: Doctor is Wounded in the Foyer." / "Medium comes to the rescue…" /
    "Psychologist is Wounded…"). They are the Rescue that took the last Lookout, the
    possession that walked a pawn into its Wound, the last points of a game lost and the
    Darkness supply at its lowest; routine ones only fill empty slots."""
    from rules.core.types import Result
    from rules.exorcism.ending import ending

    st = new_game("core", n=3, seed=3).model_copy(deep=True)
    st.lookouts = []
    st.points = 22
    moves = [
        ("s1", [_told("turn", "Turn 4 (round 2): Doctor to play."),
                _told("wound", "Doctor is Wounded in the Attic."),
                _told("rescue", "Medium comes to the rescue, taking the place of Doctor."),
                _told("points", "+4 Exorcism points (Medium's Weapon Task 4); total 4.")]),
        ("s2", [_told("turn", "Turn 5 (round 2): Bodyguard to play."),
                _told("wound", "Bodyguard is Wounded in the Bathroom."),
                _told("rescue", "Photographer comes to the rescue, taking the place of "
                                "Bodyguard.")]),
        ("s3", [_told("turn", "Turn 6 (round 2): Detective to play."),
                _told("heal", "Doctor is healed and becomes a Lookout."),
                _told("points", "+3 Exorcism points (Detective's Key Task 1); total 22."),
                _told("darkness_placed", "Darkness spreads to every Room with Location 2: "
                                         "Task Room B.", supply=1)]),
        ("s1", [_told("turn", "Turn 7 (round 3): Medium to play."),
                _told("darkness_placed", "Darkness spreads to every Room with Location 3: "
                                         "Relic Room.", supply=4),
                _told("wound", "Photographer is Wounded in the Foyer."),
                _told("rescue", "Doctor comes to the rescue, taking the place of "
                                "Photographer."),
                _told("wound", "Medium is Wounded in the Foyer."),
                _told("game_over", "The investigators lose.")]),
    ]
    result = Result(winners=[], losers=list(st.seats), reason="x")
    points = ending(st, result, moves, NAMES).turning_points
    assert "Round 3: Doctor comes to the rescue, taking the place of Photographer. No Lookout " \
           "is left." in points, points
    assert "Round 2: +3 Exorcism points (Detective's Key Task 1); total 22. No more points " \
           "were scored." in points, points
    assert "Round 2: Darkness spreads to every Room with Location 2: Task Room B. 1 Darkness " \
           "Token is left in the supply." in points, points
    # Doctor is healed back after it: this Rescue too left no Lookout for a while
    assert "Round 2: Photographer comes to the rescue, taking the place of Bodyguard. No " \
           "Lookout is left." in points, points
    routine = ["Doctor is Wounded in the Attic.", "Medium comes to the rescue",
               "Bodyguard is Wounded", "Medium is Wounded"]
    assert not any(r in p for p in points for r in routine), points


def test_EX_OVA_TERROR_a_possession_that_cost_a_wound_is_a_turning_point() -> None:
    """A possession counts when the pawn it walked is Wounded before the turn is out; a
    routine one (stop 65's One vs All recap: three of five turning points in one round) does
    not take a slot from it, and the Haunt Level nearest the Ghost player's win is told."""
    from rules.core.types import Result
    from rules.exorcism.ending import ending

    st = new_game("one_vs_all", n=3, seed=3).model_copy(deep=True)
    moves = [
        ("s2", [_told("turn", "Turn 18 (round 9): Architect to play."),
                _told("points", "+4 Exorcism points (Architect's Key Task 3); total 24."),
                _told("points", "+4 Exorcism points (Architect's Key Task 5); total 28."),
                _told("shroud", "The Key Room is Shrouded: the Wraith has taken it.")]),
        ("s1", [_told("turn", "Turn 20 (round 10): Bodyguard to play."),
                _told("haunt_level", "The Ghost player raises the Haunt Level to 28."),
                _told("possession", "The Ghost player possesses Bodyguard."),
                _told("move", "Bodyguard moves to Task Room A.")]),
        ("s1", [_told("turn", "Turn 21 (round 11): Architect to play."),
                _told("possession", "The Ghost player possesses Architect."),
                _told("move", "Architect moves to the Cleansing Room."),
                _told("ghosts_move", "The Wraith moves to the Cleansing Room."),
                _told("wound", "Architect is Wounded in the Cleansing Room.")]),
    ]
    result = Result(winners=["s1"], losers=["s2", "s3"], reason="x")
    points = ending(st, result, moves, NAMES).turning_points
    assert "Round 11: The Ghost player possesses Architect, who is Wounded before the turn " \
           "is out." in points, points
    assert "Round 10: The Ghost player raises the Haunt Level to 28, 2 short of the 30 that " \
           "wins." in points, points
    assert not any("possesses Bodyguard" in p for p in points), points


def test_EX_TIME_02_a_time_action_whose_tokens_no_one_gained_is_no_turning_point() -> None:
    """Stop 68's demo (core, 2 players, seed 68): the recap of a game lost to the empty
    Darkness supply ended "Round 12: Time Action (hour 4): 1 Exorcism Token on each of 5
    face-down Locked Rooms." after "The Darkness supply is empty.", though no Room was
    unlocked after it: its tokens (EX-TIME-02) never became a point. A Time Action is a
    turning point only when points follow it; the lighter moments fill the slot."""
    from rules.core.types import Result
    from rules.exorcism.ending import ending

    st = new_game("core", n=2, seed=68).model_copy(deep=True)
    st.points = 21
    moves = [
        ("s1", [_told("turn", "Turn 3 (round 2): Doctor to play."),
                _told("time_action", "Time Action (hour 1): 1 Exorcism Token on each of 5 "
                                     "face-down Locked Rooms."),
                _told("points", "+2 Exorcism points (Exorcism Tokens from the unlocked "
                                "Room); total 2.")]),
        ("s2", [_told("turn", "Turn 14 (round 7): Journalist to play."),
                _told("points", "+5 Exorcism points (Journalist's Key Task 5 with the "
                                "Specialization bonus); total 21."),
                _told("wound", "Medium is Wounded in the Occult Room."),
                _told("rescue", "Bodyguard comes to the rescue, taking the place of "
                                "Medium.")]),
        ("s1", [_told("turn", "Turn 23 (round 12): Medium to play."),
                _told("darkness_placed", "Darkness spreads to every Room with Location 6: "
                                         "Occult Room.", supply=0)]),
        ("s2", [_told("turn", "Turn 24 (round 12): Journalist to play."),
                _told("time_action", "Time Action (hour 4): 1 Exorcism Token on each of 5 "
                                     "face-down Locked Rooms."),
                _told("game_over", "The investigators lose: a Darkness Token must be placed "
                                   "and none is left.")]),
    ]
    result = Result(winners=[], losers=list(st.seats), reason="x")
    points = ending(st, result, moves, NAMES).turning_points
    assert not any("hour 4" in p for p in points), points
    assert "Round 2: Time Action (hour 1): 1 Exorcism Token on each of 5 face-down Locked " \
           "Rooms." in points, points
    assert "Round 12: Darkness spreads to every Room with Location 6: Occult Room. The " \
           "Darkness supply is empty." in points, points


def _drawn(st: ExorcismState, card: str, ghosts: dict[str, str | None]) -> tuple[Engine,
                                                                                 list[str]]:
    """`card` drawn in a Haunt phase with the Ghosts at `ghosts`: the engine and its lines."""
    st = st.model_copy(deep=True)
    st.ghosts, st.queue = dict(ghosts), []
    top_haunt(st, card)
    eng = Engine(st)
    before = dict(st.ghosts)
    eng.step_haunt_draw(1)
    eng.run()
    assert eng.haunt_card_told(card).startswith("Haunt card (")
    st.ghosts = before  # the card's arrows as they were read
    return eng, [f"{e.kind}: {e.text}" for e in eng.events
                 if e.kind in ("haunt_card", "ghosts_move")]


def test_EX_GAP_16_a_ghost_that_cannot_move_is_told_why_it_stays() -> None:
    """Stop 68's demo (core, 2 players, seed 68) read "Haunt card (Location 6): Wraith right."
    then "The Wraith stays in the Attic.": the arrow pointed somewhere and the pawn did not
    go. Nothing lies that way (the Wraith wraps only where a cell lies the other way, the Bull
    and the Devourer stop at the edge, EX-GAP-16). Stop 69's demo then read "The Bull stays in
    the Attic, with nothing to its left." on a line of its own after almost every Haunt card:
    the card's own line now says who stays and why, and the moves line names the moves only."""
    st = new_game("core", n=2, seed=68)
    eng = Engine(st)
    cards = {c.id: c for c in eng.pack.haunt_deck if c.kind == "haunt"}
    right = next(cid for cid, c in cards.items() if c.arrows.wraith == "E"
                 and c.arrows.bull == "N")
    eng, said = _drawn(st, right, {"wraith": "attic", "bull": None, "devourer": None})
    assert said == [f"haunt_card: {eng.haunt_card_told(right)} — nothing lies that way: it "
                    "stays put."], said
    eng, said = _drawn(st, right, {"wraith": "attic", "bull": "attic", "devourer": None})
    assert said == [f"haunt_card: {eng.haunt_card_told(right)} — nothing lies their way: "
                    "both stay put."], said
    # Told by the moves line where the card's line did not say it.
    eng.events.clear()
    eng.move_ghosts(right)
    assert [e.text for e in eng.events if e.kind == "ghosts_move"] == [
        "The Wraith stays in the Attic; the Bull stays in the Attic."]
    down = next(cid for cid, c in cards.items() if c.arrows.wraith == "S"
                and c.arrows.bull in "EW")
    eng, said = _drawn(st, down, {"wraith": "attic", "bull": "attic", "devourer": None})
    assert len(said) == 2, said
    assert said[0].endswith(" — nothing lies that way: the Bull stays put."), said
    assert said[1].startswith("ghosts_move: The Wraith moves to "), said
    assert "Bull" not in said[1] and "nothing" not in said[1], said


def test_EX_OVA_06_a_played_haunt_card_says_who_stays_once() -> None:
    """The Ghost player's Move the Ghosts (EX-OVA-06) reads as a drawn card does: the arrows
    of the Ghosts in the house, who stays and why, and no second line for it."""
    st = new_game("one_vs_all", 3, seed=2).model_copy(deep=True)
    eng = Engine(st)
    ghost = st.ghost_seat
    assert ghost is not None
    st.ghosts = {"wraith": "attic", "bull": None, "devourer": None}
    card = next(c for c in eng.pack.haunt_deck if c.kind == "haunt" and c.arrows.wraith == "E")
    st.ghost_hand = [card.id]
    st.phase, st.ghost_budget, st.queue, st.prompts = "ghost", 1, [], []
    move = next(a for a in GAME.legal_actions(st, ghost)
                if a.kind == "ghost_move" and a.p("card") == card.id)
    out = GAME.apply(st, ghost, move)
    said = [e.text for e in out.events if e.audience == "public"]
    assert any(t.startswith("The Ghost player moves the Ghosts with the Haunt card (")
               and t.endswith(": Wraith right — nothing lies that way: it stays put.")
               for t in said), said
    assert not [e for e in out.events if e.kind == "ghosts_move"], said


def test_EX_GHOST_10_ghosts_that_end_in_one_room_are_told_together() -> None:
    """Stop 68's demo: "The Wraith moves to the Locked Room (row 3, column 2); the Bull moves
    to the Locked Room (row 3, column 2); the Devourer moves to the Locked Room (row 3,
    column 2)." Ghosts may share a Room (EX-GHOST-10): those that end their move in the same
    one are told once, "The Wraith and the Devourer move to ..."; one alone as before."""
    st = new_game("core", n=2, seed=68)
    eng = Engine(st)
    card = next(c for c in eng.pack.haunt_deck if c.kind == "haunt" and c.arrows.wraith == "S"
                and c.arrows.devourer == "S")
    st.ghosts = {"wraith": "r1c2", "bull": None, "devourer": "r1c2"}
    where = eng.the_cell(eng.geo.ghost_move("wraith", "r1c2", "S", 1))
    eng.move_ghosts(card.id)
    said = [e.text for e in eng.events if e.kind == "ghosts_move"][-1]
    assert said == f"The Wraith and the Devourer move to {where}.", said
    st.ghosts = {"wraith": "r1c2", "bull": None, "devourer": "r3c3"}
    eng.move_ghosts(card.id)
    said = [e.text for e in eng.events if e.kind == "ghosts_move"][-1]
    assert said.startswith("The Wraith moves to ") and "; the Devourer moves to " in said, said


def test_EX_GAP_04_an_ability_line_tells_the_card_in_the_third_person() -> None:
    """Stop 69's demo: "Architect uses the Architect's ability: swap your Room with one
    adjacent Room …" — the card's "your" read as the reader's own Room in the thread."""
    from rules.exorcism.engine.investigators import third_person
    from tests.exorcism.helpers import at_rest, do, set_character

    st = at_rest(new_game("core", 2, seed=4), "s1")
    set_character(st, "s1", "architect")
    for g in st.ghosts:
        st.ghosts[g] = None
    st, events = do(st, "s1", "ability", source="architect")
    said = " ".join(e.text for e in events)
    assert "the Architect's ability: swap their Room with one adjacent Room" in said, said
    assert " your " not in said, said
    assert third_person("remove 1 Darkness Token from a non-Shrouded Room adjacent to "
                        "yours") == "remove 1 Darkness Token from a non-Shrouded Room " \
        "adjacent to theirs"


def test_EX_SOLO_the_two_characters_are_named_the_same_way_everywhere_in_the_thread() -> None:
    """Stop 70's brief: Solo's thread read "Psychologist & Journalist's Actions are over" beside
    name lines "Ada (the Psychologist and the Journalist)". Every line says them one way."""
    st = GAME.setup(["s1"], GAME.options_model(mode="solo"), 3)
    st = GAME.apply(st, "s1", GAME.legal_actions(st, "s1")[0]).state
    names = {"s1": "Ada"}
    both = player(st, "s1", names).removeprefix("Ada (").removesuffix(")")
    assert both.startswith("the ") and " and the " in both
    assert Engine(st).seat_label("s1") == both
    lines: list[str] = []
    for _ in range(300):
        if GAME.result(st) is not None:
            break
        seat = sorted(GAME.to_act(st))[0]
        lines += [GAME.doing_text(st, seat, names), GAME.prompt_text(st, seat) or ""]
        out = GAME.apply(st, seat, GAME.ai_action(st, seat))
        lines += [GAME.event_text(out.state, e, names) for e in out.events if e.public]
        st = out.state
    text = "\n".join(lines)
    assert " & " not in text
    assert both[:1].upper() + both[1:] + " end the turn." in text
    assert f"Turn 2 (round 2): {both} (Ada) to play." in text
    assert "Actions are over" not in text or (
        f"{both[:1].upper() + both[1:]}'s Actions are over" in text)
