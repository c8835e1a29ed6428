"""#22: the turn card's alt text says what the picture says (renders/cardwords.py).

Whole random games of every game, mode and player count (tests/rules/cases.py); at sampled
states the card's view is built as the bot builds it (display names, what the awaited player
must do, the last public lines, the result) and its alt text is held to the picture:

- at most 1,024 characters (Discord's limit), ending as a sentence ends, never cut;
- it opens with who must act and what to do (or the result), as the card does;
- each number the card draws is named with its label, value and note, in the card's units;
- the card's newest "just happened" line is told, and no line is told in part.

`Game.alt_text` (the full board's alt text) is held to the same limit and endings.
"""

from __future__ import annotations

from typing import Any

import pytest

from renders import with_card
from renders.cardwords import Number, card_alt_text, card_lines, number_words
from renders.turncard import stats_for
from rules.core.game import ALT_TEXT_LIMIT, ends_a_sentence, sentences
from rules.core.players import random_move
from rules.core.rng import Rng
from rules.registry import GAMES
from tests.rules.cases import CASES, IDS

NAMES = ("Margaret", "Theo", "Priya", "Alexandria Featherstonehaugh", "Oluwaseun")
EVERY = 7
MAX_STEPS = 700


def _card_view(game: Any, state: Any, names: dict[str, str], lines: list[str]) -> dict[str, Any]:
    """The turn card's view as `Delivery.board_file` builds it."""
    view = game.view(state, None)
    view["names"] = names
    awaited = sorted(game.to_act(state), key=state.seats.index)
    result = game.result(state)
    return with_card(view, {
        "awaited": [names.get(s) or game.seat_label(state, s) for s in awaited],
        "doing": " ".join(game.doing_text(state, s, names) for s in awaited),
        "happened": game.present(state, lines)[-4:],
        "result": game.result_text(state, result, names) if result is not None else None,
    })


def _check(name: str, view: dict[str, Any], alt: str) -> None:
    assert 0 < len(alt) <= ALT_TEXT_LIMIT, len(alt)
    assert ends_a_sentence(alt), alt[-80:]
    lead, told, happened = card_lines(name, view)
    if len(lead) <= ALT_TEXT_LIMIT:
        assert alt.startswith(lead), (lead, alt[:200])
    # The picture's numbers, as drawn (renders/turncard.py), in the alt text's words.
    drawn = stats_for(name, view)
    if len(lead) + len(told) + 1 <= ALT_TEXT_LIMIT:
        for stat in drawn:
            words = number_words(Number(stat.label, stat.value, note=stat.note))
            assert words in alt, (words, alt)
        if happened and len(lead) + len(told) + len(happened[-1]) + 17 <= ALT_TEXT_LIMIT:
            assert "Just happened: " in alt and happened[-1] in alt, (happened[-1], alt)
    # A "just happened" line is told whole or not at all: each of its sentences in order.
    for line in happened:
        parts = sentences(line)
        if parts[0] in alt:
            assert line in alt or all(p in alt for p in parts), (line, alt)


@pytest.mark.parametrize(("name", "mode", "players"), CASES, ids=IDS)
def test_alt_text_says_what_the_turn_card_shows(name: str, mode: str, players: int) -> None:
    game = GAMES[name]
    seats = [f"s{i}" for i in range(1, players + 1)]
    names = {s: NAMES[i % len(NAMES)] for i, s in enumerate(seats)}
    state = game.setup(seats, game.options_model(mode=mode), 22)
    rng = Rng.from_seed(22)
    lines: list[str] = []
    awaited = sorted(game.to_act(state))
    checked = longest = 0
    for step in range(MAX_STEPS + 1):
        over = game.result(state) is not None
        if step % EVERY == 0 or over:
            view = _card_view(game, state, names, lines)
            alt = card_alt_text(name, view, game.alt_text(state, names))
            _check(name, view, alt)
            board = game.alt_text(state, names)
            assert len(board) <= ALT_TEXT_LIMIT and ends_a_sentence(board), board[-80:]
            checked += 1
            longest = max(longest, len(alt))
        if over:
            break
        seat, action = random_move(game, state, rng)
        out = game.apply(state, seat, action)
        state = out.state
        now = sorted(game.to_act(state))
        # A post's lines: what happened since the decision last passed to someone else.
        if now != awaited:
            lines, awaited = [], now
        lines += [e.text for e in out.events if e.public]
    assert checked > 3
    print(f"\nALT {name}/{mode}/{players}p states={checked} longest={longest}")


def test_alt_text_drops_whole_parts_to_fit_and_never_cuts_a_sentence() -> None:
    view = {"turn": {"awaited": ["Ada"], "doing": "Ada (the Medium): move or end the turn.",
                     "happened": [f"Line {k} happened. It had a second sentence." for k in
                                  range(4)], "result": None}}
    board = " ".join(f"Row {k}: a long description of the room and all it holds." for k in
                     range(40))
    alt = card_alt_text("exorcism", view, board)
    assert len(alt) <= ALT_TEXT_LIMIT and ends_a_sentence(alt)
    # An empty view's clock reads "0h 00m", said "0 minutes" (a whole hour drops its
    # minutes: "6 hours", not "6 hours 0 minutes").
    assert alt.startswith("Ada (the Medium): move or end the turn. Numbers: Time left 0 "
                          "minutes;")
    assert "Just happened: Line 0 happened." in alt and "Row 0:" in alt and "Row 39" not in alt
    short = card_alt_text("exorcism", view, board, limit=260)
    assert len(short) <= 260 and ends_a_sentence(short)
    assert "Line 3 happened. It had a second sentence." in short and "Line 0" not in short


def test_a_clock_on_the_hour_is_said_without_zero_minutes() -> None:
    """The Exorcism's "Time left 6 hours 0 minutes" (stop 59's Solo demo) is said "6 hours";
    "1h 30m" stays "1 hour 30 minutes" and "0h 10m" is "10 minutes"."""
    from renders.cardwords import _value_words

    assert _value_words("6h 00m") == "6 hours"
    assert _value_words("1h 30m") == "1 hour 30 minutes"
    assert _value_words("0h 10m") == "10 minutes"
    assert _value_words("0h 00m") == "0 minutes"


@pytest.mark.parametrize(("mode", "players", "does"), [
    ("core", 3, "Haunt card"), ("one_vs_all", 4, "Ghost Action")])
def test_ex_dark_01_the_darkness_tile_says_what_the_track_does_each_turn(
        mode: str, players: int, does: str) -> None:
    """Stop 65's demo reader: the Darkness Track's value (Haunt cards drawn each turn; in One
    vs All the Ghost player's Actions, EX-OVA-05) was on no turn card, said only on the line
    where it rose. The Darkness tile's note says it, and so does the card's alt text."""
    from renders.cardwords import numbers

    game = GAMES["exorcism"]
    state = game.setup([f"p{i}" for i in range(1, players + 1)],
                       game.options_model(mode=mode), 4)
    view = game.view(state, None)
    value = view["darkness_track"]["value"]
    assert value >= 1
    tile = next(n for n in numbers("exorcism", view) if n.label == "Darkness left")
    plural = "s" if value != 1 else ""
    assert tile.note == f"{value} {does}{plural} a turn"
    assert f"({value} {does}{plural} a turn)" in number_words(tile)


def test_ex_vis_11_the_haunt_level_tile_says_how_many_cards_the_ghost_holds() -> None:
    """One vs All: the count of the Ghost player's hand is public (EX-VIS-11) and was on no
    turn card; the Haunt Level tile's note says it (never which cards)."""
    from renders.cardwords import numbers

    game = GAMES["exorcism"]
    state = game.setup(["p1", "p2", "p3", "p4"], game.options_model(mode="one_vs_all"), 4)
    view = game.view(state, None)
    held = view["ova"]["hand_count"]
    tile = next(n for n in numbers("exorcism", view) if n.label == "Haunt Level")
    assert tile.note == f"Ghost holds {held} card{'s' if held != 1 else ''}"
    assert "hand" not in view  # the public view names no card
