"""The end of a game in words (issue #22): for every way each game can end, who won, who lost
and why (P-WIN-01..06, P-UPKEEP-02, FW-END-01..03, EX-WIN-01/02, EX-LOSE-01, EX-TURN-04,
EX-OVA-11/12); the turning points picked from the public log; the recap's alt text."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

from rules.core.ending import (
    TURNING_POINTS_MAX,
    Ending,
    Moment,
    Part,
    pick_turning_points,
    public_moments,
)
from rules.core.players import playout
from rules.core.types import Event, Result
from rules.exorcism import ending as exorcism_ending
from rules.fourth_wall import ending as fourth_wall_ending
from rules.fourth_wall.engine import Engine
from rules.presence import ending as presence_ending
from rules.registry import GAMES

NAMES = {"s1": "Ada", "s2": "Basil", "s3": "Clara"}


@cache
def _finished(game: str, mode: str, players: int, seed: int = 3) -> Any:
    """A state at the end of a random playout: the table as it really ends up."""
    g = GAMES[game]
    seats = [f"s{i + 1}" for i in range(players)]
    return playout(g, g.options_model(mode=mode), seats, seed).state


def _ending(game: str, state: Any) -> Ending:
    g = GAMES[game]
    result = g.result(state)
    assert result is not None
    return g.ending(state, result, [], NAMES)


# ---- The Presence ------------------------------------------------------------------------
def _presence(winners: list[str], reason: str, revealed: bool = False) -> Any:
    state = _finished("presence", "session", 3)
    return state.model_copy(update={"outcome": "over", "winners": winners, "reason": reason,
                                    "script_revealed": revealed})


def test_presence_visitors_win_and_the_spirit_loses() -> None:
    """P-WIN-01/03: every secret revealed with a visitor standing."""
    state = _presence(["s2", "s3"], "The surviving visitors win.")
    end = _ending("presence", state)
    assert end.headline.startswith("Basil (") and "Clara (" in end.headline
    assert "win; Ada (the spirit" in end.headline and end.headline.endswith("loses.")
    assert "every secret of the manor was revealed with" in end.why
    assert end.winners == ["s2", "s3"] and end.losers == ["s1"]


def test_P_WIN_01_the_visitors_win_is_dated_not_the_reveals() -> None:
    """Stop 65's demo: secrets all revealed in round 7, the script's added condition held
    only at the end of round 9, and the recap said "Every secret of the manor was revealed
    in round 9"."""
    state = _presence(["s2", "s3"], "The surviving visitors win.")
    end = _ending("presence", state)
    assert "revealed in round" not in end.why
    assert end.why.startswith(f"The visitors won in round {state.round}: every secret of "
                              "the manor was revealed with "), end.why


def test_presence_spirit_wins_by_its_script() -> None:
    """P-WIN-04: the script's half that applies, named with what it means."""
    state = _presence(["s1"], "The spirit wins.", revealed=True)
    end = _ending("presence", state)
    script = presence_ending.Engine(state).pack.script(state.script)
    assert end.headline.startswith("Ada (the spirit") and end.headline.endswith("lose.")
    assert f"The spirit's script, {script.name}" in end.why and "came true in round" in end.why
    # Stop 67: the spirit's own condition, not the clause for the visitors' win.
    assert script.bottom.text.split("; the visitors also", 1)[0].rstrip(".") in end.why
    assert "also need" not in end.why
    # Stop 64: "in time" only of a game that ran out of rounds; the spirit's own win says
    # how far the visitors got.
    assert "The visitors had revealed " in end.why or "No visitor was left standing" in end.why
    assert "in time" not in end.why


def test_presence_good_script_both_win() -> None:
    """P-WIN-05: a good script — the spirit wins with the visitors."""
    state = _presence(["s2", "s1"], "The surviving visitors and the spirit win.")
    end = _ending("presence", state)
    assert "Clara (" in end.headline and end.headline.endswith("loses.")
    assert "every secret of the manor was revealed" in end.why
    assert "The spirit's script" in end.why


def test_presence_eternal_darkness_everyone_loses() -> None:
    """P-UPKEEP-02: nobody reached their goal by the end of the final round."""
    state = _presence([], "Eternal Darkness: nobody achieved their goal.")
    end = _ending("presence", state)
    assert end.headline == "Everyone loses: Eternal Darkness."
    assert "Wrightwatch Manor" in end.why and not end.winners
    assert sorted(end.losers) == ["s1", "s2", "s3"]


def test_presence_rounds_from_the_log() -> None:
    assert presence_ending.round_of(Event(kind="round", text="Round 4 begins.")) == 4
    assert presence_ending.round_of(Event(kind="turn", text="Round 4 begins.")) is None


# ---- I Am the Fourth Wall ----------------------------------------------------------------
@pytest.mark.parametrize(("outcome", "reason", "said"), [
    ("investigators", "every Gate is closed.", "the Investigators closed every Gate"),
    ("wall", "five Gates are Open after An Eye Opens.", "five Gates stood Open"),
    ("wall", "the fifth Gate opens after An Eye Opens.", "the fifth Gate opened"),
    ("wall", "five Gates are Open when An Eye Opens.", "five Gates stood Open when"),
    ("wall", "The Ancient One Awakens.", "the Ancient One Awakened"),
])
def test_fourth_wall_conflict_every_end(outcome: str, reason: str, said: str) -> None:
    """FW-END-01..03 in Conflict: the Wall player against the Investigators."""
    state = _finished("fourth_wall", "conflict", 3).model_copy(
        update={"outcome": outcome, "reason": reason})
    end = _ending("fourth_wall", state)
    wall_first = end.headline.startswith("Ada (the Wall player")
    assert wall_first == (outcome == "wall")
    assert "Basil (" in end.headline and "Clara (" in end.headline
    # An end the Tracker's move brings is said at the end of the round that ended (stop 70).
    at_end = reason in ("five Gates are Open when An Eye Opens.", "The Ancient One Awakens.")
    assert said in end.why and end.why.startswith(
        "At the end of round " if at_end else "In round ")


def test_fourth_wall_alliance_everyone_loses_to_the_wall() -> None:
    """FW-END-02 in Alliance: the Wall is nobody's seat; the whole table loses (stop 63's
    demo read "Everyone loses: the Wall, The Shredder, wins against Ada (…) and …")."""
    state = _finished("fourth_wall", "alliance", 2).model_copy(
        update={"outcome": "wall", "reason": "The Ancient One Awakens.", "revealed": True})
    end = _ending("fourth_wall", state)
    wall = Engine(state).wall().name
    assert end.headline.startswith(f"The Wall ({wall}) wins; Ada (")
    assert "Basil (" in end.headline and end.headline.endswith(" lose.")
    assert not end.winners


def test_fourth_wall_alliance_investigators_win() -> None:
    state = _finished("fourth_wall", "alliance", 2).model_copy(
        update={"outcome": "investigators", "reason": "every Gate is closed."})
    end = _ending("fourth_wall", state)
    assert end.headline.startswith("Ada (") and end.headline.endswith("win.")


def test_fourth_wall_rounds_count_the_tracker() -> None:
    """FW rounds: one more each time the Turn Tracker moves at a round's end."""
    events = [Event(kind="turn", text="The Steadfast's turn."),
              Event(kind="tracker", text="Round over: the Turn Tracker moves to 7."),
              Event(kind="gate_closed", text="A Gate is closed: 1 Open Gate.")]
    moments = public_moments([("s2", events)], fourth_wall_ending._Rounds())
    assert [m.round for m in moments] == [1, 2, 2]


# ---- The Exorcism ------------------------------------------------------------------------
LOSSES = ["the Haunt Level reaches 30.", "Doctor is Wounded and no Lookout can Rescue them.",
          "a Haunt card is drawn and no Darkness Tokens are left.",
          "a Darkness Token must be placed and none is left.",
          "Attic takes its 4th Darkness Token and no Shrouded Room card is left.",
          "dawn has come: no Time Dice are left on the Clock.", "nobody is left in the house."]
WINS = ["the Ghosts are exorcised.", "the Ghosts are exorcised and everyone escaped the manor."]


@pytest.mark.parametrize("reason", LOSSES)
def test_exorcism_core_loses_together(reason: str) -> None:
    """EX-LOSE-01 and EX-TURN-04: the co-op table loses together."""
    state = _finished("exorcism", "core", 3).model_copy(
        update={"outcome": "lost", "reason": reason})
    end = _ending("exorcism", state)
    assert end.headline == "Everyone loses: the house keeps its Ghosts."
    assert reason.rstrip(".") in end.why and "Exorcism points scored" in end.why
    assert not end.winners and sorted(end.losers) == ["s1", "s2", "s3"]


@pytest.mark.parametrize("reason", WINS)
def test_exorcism_core_wins_together(reason: str) -> None:
    """EX-WIN-01/02: the Ghosts exorcised (and, by the option, everyone out)."""
    state = _finished("exorcism", "core", 3).model_copy(
        update={"outcome": "won", "reason": reason})
    end = _ending("exorcism", state)
    assert end.headline.startswith("Ada (") and end.headline.endswith("win.")
    assert reason.rstrip(".") in end.why and "Exorcism points" in end.why
    # A win can pass the target: "with 31 Exorcism points (30 needed)", never "31 of 30".
    won = state.model_copy(update={"points": 31})
    assert "with 31 Exorcism points (30 needed), " in _ending("exorcism", won).why


def test_exorcism_ex_win_02_lost_after_the_exorcism_keeps_no_ghosts() -> None:
    """Stop 59's demo: 24 of 24 points, the Ghosts exorcised, then the Darkness ran out
    before everyone escaped, and the headline said "the house keeps its Ghosts"."""
    state = _finished("exorcism", "core", 3).model_copy(
        update={"outcome": "lost", "reason": LOSSES[0], "exorcised": True})
    end = _ending("exorcism", state)
    assert end.headline == ("Everyone loses: the Ghosts were exorcised, but not everyone "
                            "escaped the house.")


def test_exorcism_solo_loses_alone() -> None:
    state = _finished("exorcism", "solo", 1).model_copy(
        update={"outcome": "lost", "reason": LOSSES[0]})
    end = _ending("exorcism", state)
    assert end.headline.startswith("Ada (") and "loses: the house keeps its Ghosts." \
        in end.headline


@pytest.mark.parametrize("outcome", ["won", "lost"])
def test_exorcism_one_vs_all(outcome: str) -> None:
    """EX-OVA-11/12: the Ghost player wins what the investigators lose, and the reverse."""
    state = _finished("exorcism", "one_vs_all", 3).model_copy(
        update={"outcome": outcome, "reason": WINS[0] if outcome == "won" else LOSSES[0]})
    end = _ending("exorcism", state)
    if outcome == "won":
        assert end.headline.endswith("Ada (the Ghost player) loses.")
    else:
        assert end.headline.startswith("Ada (the Ghost player) wins; ")
        assert end.headline.endswith("lose.")


def test_exorcism_rounds_from_turns() -> None:
    assert exorcism_ending.round_of(
        Event(kind="turn", text="Turn 5 (round 3): Doctor to play.")) == 3


# ---- turning points and the story -------------------------------------------------------
def _moment(kind: str, text: str, rnd: int = 1) -> Moment:
    return Moment(Event(kind=kind, text=text), rnd)


def test_turning_points_heaviest_in_order_at_most_two_a_kind() -> None:
    moments = [_moment("secret", f"Secret {i} revealed.", i) for i in range(1, 5)]
    moments += [_moment("ko", "The Orphan is knocked out!", 5),
                _moment("script", "The spirit's script is revealed.", 6),
                _moment("move", "The Orphan moves.", 6),
                _moment("over", "The spirit wins.", 7)]
    picked = pick_turning_points(moments, presence_ending._weight, presence_ending._skip)
    kinds = [m.event.kind for m in picked]
    # two of a kind first; a slot left empty then takes a held-back one (stop 64)
    assert kinds.count("secret") == 3 and "script" in kinds and "ko" in kinds
    assert "move" not in kinds and "over" not in kinds
    assert [m.round for m in picked] == sorted(m.round for m in picked)
    assert len(picked) == TURNING_POINTS_MAX
    # ties go to the later moments: the secrets nearest the end
    assert [m.event.text for m in picked if m.event.kind == "secret"] == [
        "Secret 2 revealed.", "Secret 3 revealed.", "Secret 4 revealed."]


def test_presence_hope_or_nerve_lost_is_a_turning_point_time_passing_is_not() -> None:
    """P-TRACK-03: a marker meeting the time marker is lost (and may reveal the script)."""
    lost = _moment("track", "The hope marker meets the time marker and is lost!", 5)
    ticks = [_moment("track", "Time passes: the time marker moves to 5.", 5),
             _moment("track", "Hope is reduced to 3.", 4)]
    picked = pick_turning_points([*ticks, lost], presence_ending._weight)
    assert picked == [lost]


def test_private_events_never_reach_the_story() -> None:
    """Hidden information stays out: a move's private events are dropped."""
    events = [Event(kind="secret", text="Secret revealed."),
              Event(kind="private", text="You draw the Candle.", audience=["s2"])]
    moments = public_moments([("s2", events)], presence_ending.round_of)
    assert [m.event.text for m in moments] == ["Secret revealed."]


def test_real_games_tell_a_story() -> None:
    """A whole random game of each game: a length, a part for every seat, 0-5 turning points
    taken from the public events."""
    for game, mode, n in (("presence", "session", 3), ("fourth_wall", "conflict", 3),
                          ("exorcism", "one_vs_all", 3)):
        g = GAMES[game]
        seats = [f"s{i + 1}" for i in range(n)]
        state = g.setup(seats, g.options_model(mode=mode), 7)
        moves: list[tuple[str | None, list[Event]]] = []
        run = playout(g, g.options_model(mode=mode), seats, 7)
        for seat, action in run.history:
            out = g.apply(state, seat, action)
            state = out.state
            moves.append((seat, out.events))
        result = g.result(state)
        assert result is not None
        end = g.ending(state, result, moves, NAMES)
        public = {e.text for _, evs in moves for e in evs if e.public}
        assert len(end.parts) == n and all(p.line for p in end.parts)
        assert str(len(moves)) in end.length
        assert len(end.turning_points) <= TURNING_POINTS_MAX
        for point in end.turning_points:
            assert any(t.split(":")[0] in point for t in public), point


def test_alt_text_whole_sentences_within_the_limit() -> None:
    end = Ending(headline="Ada (the spirit) wins; Basil (the Orphan) loses.",
                 why="The spirit's script came true in round 7.", winners=["s1"],
                 losers=["s2"], length="7 rounds, 120 moves",
                 turning_points=["Round 3: " + "a long line " * 40, "Round 6: short."],
                 parts=[Part("s1", "Ada (the spirit)", True, "9 spirit cards played.")])
    alt = end.alt_text(300)
    assert len(alt) <= 300 and alt.endswith(".")
    assert alt.startswith("Ada (the spirit) wins;") and "The game lasted 7 rounds" in alt
    assert "a long line" not in alt and "Round 6: short." in alt  # skipped whole, not cut
    assert len(end.alt_text(1024)) <= 1024


def test_plain_telling_for_a_game_without_its_own() -> None:
    """The base `Game.ending`: who won and lost and the stored reason, rule ids out."""
    from tests.tinygame import GAME as HIGHCARD

    state = HIGHCARD.setup(["s1", "s2"], HIGHCARD.options_model(mode="standard", rounds=1), 1)
    result = Result(winners=["s1"], losers=["s2"], reason="Highest score: 9 (T-1).")
    end = HIGHCARD.ending(state, result, [("s1", []), ("s2", [])], NAMES)
    assert end.headline == "Ada wins; Basil loses."
    assert end.length == "2 moves"


def test_presence_the_spirits_part_counts_plays_knockouts_and_the_lost_apart() -> None:
    """P-SPIRIT-11, P-FEAR: a card's play counts once, not once more per power it uses (15
    "played" were 6 plays in stop 61's two-player demo); one visitor knocked out twice and then
    lost is "2 knockouts and 1 visitor lost", not "3 visitors" at a table of two. A game stored
    before the play event carried its card counts the play by its words."""
    state = _presence(["s1"], "The spirit wins.", revealed=True)
    result = GAMES["presence"].result(state)
    assert result is not None
    events = [
        Event(kind="spirit_card", text="The spirit plays Drift with the presence die showing 1 "
              "in the Salon.", data={"played": "spirit_1.drift"}),
        Event(kind="spirit_card", text="The spirit uses the top power of Drift (spends 1)."),
        Event(kind="spirit_card", text="The spirit uses the bottom power of Drift (spends 1)."),
        Event(kind="spirit_card", text="The power is hindered by light and does nothing."),
        Event(kind="spirit_card", text="The spirit plays Piano Music with the presence die "
              "showing 2 in the Hall."),  # stored before the data
        Event(kind="ko", text="The Orphan is knocked out!", data={"seat": "s2"}),
        Event(kind="ko", text="The Orphan is knocked out!", data={"seat": "s2"}),
        Event(kind="succumb", text="The Orphan succumbs to the manor and is no longer a "
              "visitor!", data={"seat": "s2"}),
    ]
    end = GAMES["presence"].ending(state, result, [("s1", events)], NAMES)
    spirit = next(p for p in end.parts if p.seat == "s1")
    assert spirit.line == ("2 spirit cards played, 2 knockouts and 1 visitor lost to the "
                           "manor; 1 move."), spirit.line
    quiet = GAMES["presence"].ending(state, result, [], NAMES)
    assert next(p for p in quiet.parts if p.seat == "s1").line == (
        "no spirit card played, no knockout and no visitor lost to the manor; 0 moves.")


def test_fw_insane_06_the_recap_counts_the_gates_an_insane_card_closed() -> None:
    """Stop 63's demos: "The Street Magician: no Gate closed" for a seat whose Gatewright had
    closed a Gate before it was driven Insane and replaced; the recap counted only the card
    the seat ended with. Conflict seed 6: the third Investigator's Gatewright closes one."""
    g = GAMES["fourth_wall"]
    seats = ["s1", "s2", "s3"]
    options = g.options_model(mode="conflict")
    history = playout(g, options, seats, 6).history
    state = g.setup(seats, options, 6)
    moves: list[tuple[str | None, Any]] = []
    for seat, action in history:
        step = g.apply(state, seat, action)
        state = step.state
        moves.append((seat, step.events))
    events = [e for _, evs in moves for e in evs]
    replaced = [e for e in events if e.kind == "replace" and e.data["inv"] == "i3"]
    assert replaced and replaced[0].data["was"] == "The Gatewright"
    closed = sum(1 for e in events if e.kind == "gate_closed" and e.data.get("inv") == "i3")
    assert closed >= 1
    result = g.result(state)
    assert result is not None
    inv = next(i for i in state.investigators if i.id == "i3")
    line = next(p.line for p in g.ending(state, result, moves, NAMES).parts
                if p.seat == inv.seat)
    now = Engine(state).inv_name(inv)
    # Stop 64: the card that went Insane is named, not the one holding the place now; stop
    # 66: "took its place", not "took the place".
    assert (f"{now}: {closed} Gate{'s' if closed > 1 else ''} closed; The Gatewright went "
            f"Insane before {now} took its place") in line, line
    assert f"{now}: {closed} Gate{'s' if closed > 1 else ''} closed, driven Insane" not in line


def test_turning_points_a_held_back_secret_beats_a_relit_candle() -> None:
    """Stop 64's two-player recap: "The Descendant's candle is relit." and an investigated
    clue token among the turning points, the game's winning secret reveals left out by the
    two-a-kind rule. Colour (weight 2 and below) never takes a heavier moment's place."""
    moments = [_moment("secret", f"Secret {i} revealed.", i) for i in range(1, 5)]
    moments += [_moment("ko", "The Orphan is knocked out!", 5),
                _moment("candle", "The Descendant's candle is relit.", 7),
                _moment("investigate", "The Descendant investigates.", 7)]
    picked = pick_turning_points(moments, presence_ending._weight, presence_ending._skip)
    kinds = [m.event.kind for m in picked]
    assert kinds.count("secret") == 4 and "ko" in kinds, kinds
    assert "candle" not in kinds and "investigate" not in kinds
