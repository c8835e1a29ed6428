"""The board post's "⏳" lines: what each awaited player must do, players asked the same
thing at once on one line (`cogs.utils.table.boards.awaited_lines`)."""

from __future__ import annotations

from cogs.utils.table.boards import awaited_lines
from rules.presence.game import GAME as PRESENCE
from tests.presence.helpers import fresh


def test_players_asked_the_same_thing_share_one_line_and_keep_their_mentions() -> None:
    """Stop 63's Unknown Threat demo: while the visitors chose the scripts, every post read
    four lines alike ("⏳ Ada (a visitor): Unknown Threat: choose a hope script (1 of 5)…",
    then Basil's, Clara's, Dave's)."""
    st = fresh(4, 2, unknown_threat=True)
    awaited = sorted(PRESENCE.to_act(st))
    assert len(awaited) == 3
    names = {"s1": "Ada", "s2": "Basil", "s3": "Clara", "s4": "Dave"}
    users: dict[str, int | None] = {"s1": 1, "s2": 2, "s3": 3, "s4": None}
    lines = awaited_lines(PRESENCE, st, awaited, ["s2", "s3"], users, names)
    whos = [PRESENCE.player_name(st, s, names) for s in awaited]
    what = PRESENCE.doing_text(st, awaited[0], names)[len(whos[0]) + 2:]
    assert lines == [f"{whos[0]}, {whos[1]} and {whos[2]}: {what} <@2> <@3>"], lines
    # Different questions stay on lines of their own.
    one = awaited_lines(PRESENCE, st, awaited[:1], [], users, names)
    assert one == [PRESENCE.doing_text(st, awaited[0], names)]


def test_a_run_of_a_line_ending_in_brackets_merges_its_count() -> None:
    """Stop 64's demo: "Watcher is placed On the Streets (Drained) (2 times)."."""
    from cogs.utils.table.words import told_once

    line = "Watcher is placed On the Streets (Drained)."
    assert told_once([line, line]) == [("Watcher is placed On the Streets (Drained; 2 times).",
                                        2)]
    assert told_once(["Ada rests.", "Ada rests."]) == [("Ada rests (2 times).", 2)]
