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
    """Stop 64's demo: "Watcher is placed On the Streets (Drained) (2 times)."; stop 69's
    merged form "(Drained; 2 times)" read as a count of the bracket: the count belongs to the
    sentence, before its bracket."""
    from cogs.utils.table.words import told_once

    line = "Watcher is placed On the Streets (Drained)."
    assert told_once([line, line]) == [("Watcher is placed On the Streets 2 times (Drained).",
                                        2)]
    assert told_once(["Ada rests.", "Ada rests."]) == [("Ada rests (2 times).", 2)]


def test_FW_HAND_02_a_run_of_discards_counts_the_marbles() -> None:
    """Stop 69's demo: "The Redirector discards a Clue Marble (Hand Limit; 2 times)." for
    two Hand Limit discards: a line whose one thing is "a …" counts it in plain English
    ("discards 2 Clue Marbles"), in every game; a line where counting would misread keeps
    its count apart: two "a"s (which repeats?), an "a" after a colon (the head repeats: two
    Delves are not one Delve of 2 Horrors), a verb after the thing ("a Ghoul arrives"), a
    possessive, or one thing of two names ("a Clue and Force Marble")."""
    from cogs.utils.table.words import told_once

    def twice(line: str, n: int = 2) -> str:
        return told_once([line] * n)[0][0]

    assert twice("The Redirector discards a Clue Marble (Hand Limit).") == (
        "The Redirector discards 2 Clue Marbles (Hand Limit).")
    assert twice("The Bruiser discards an Elder Sign (Hand Limit).", 3) == (
        "The Bruiser discards 3 Elder Signs (Hand Limit).")
    assert twice("The Steadfast gives a Marble to The Bruiser (free after Regrouping: it "
                 "costs no Action Point).") == (
        "The Steadfast gives 2 Marbles to The Bruiser (free after Regrouping: it costs no "
        "Action Point).")
    assert twice("The Descendant draws a clue card.") == "The Descendant draws 2 clue cards."
    assert twice("The Ghost player draws a Haunt card.", 3) == (
        "The Ghost player draws 3 Haunt cards.")
    assert twice("The spirit moves a presence die from the Kitchen into the Salon.") == (
        "The spirit moves 2 presence dice from the Kitchen into the Salon.")
    # Counting would misread: the count stays apart, never inside a bracket.
    for line in ("The spirit discards a card: a presence die in the Hall goes from 2 to 3.",
                 "No Street is free for the Ghoul: it acts as a Delve.", "Then a Ghoul arrives.",
                 "It takes a Ghoul's Marble.", "The Trade is called off (1 AP refunded).",
                 "The Redirector discards a Clue and Force Marble (Hand Limit)."):
        said = twice(line)
        assert "2 times" in said and "; 2 times)" not in said, said
        assert said.replace(" 2 times", "").replace(" (2 times)", "") == line, said


def test_FW_WALL_05_a_run_of_delves_says_the_delves_and_counts_the_horrors() -> None:
    """Stop 69's demo: "The Wall Delves: it draws a Horror (2 times)." for two Delves. The
    head's sentence repeats and the thing after the colon counts, in plain English; a line
    whose part after the colon does not take one thing keeps its count apart."""
    from cogs.utils.table.words import told_once

    def said(line: str, n: int) -> str:
        return told_once([line] * n)[0][0]

    assert said("The Wall Delves: it draws a Horror.", 2) == (
        "The Wall Delves 2 times: it draws 2 Horrors.")
    assert said("The Wall Delves: it draws a Horror.", 3) == (
        "The Wall Delves 3 times: it draws 3 Horrors.")
    for line, told in (
            ("The spirit discards a card: a presence die in the Hall goes from 2 to 3.",
             "The spirit discards a card: a presence die in the Hall goes from 2 to 3 "
             "(2 times)."),
            ("The spirit feeds on the fear: a presence die in the Salon goes from 1 to 2.",
             "The spirit feeds on the fear: a presence die in the Salon goes from 1 to 2 "
             "(2 times)."),
            ("No Street is free for the Ghoul: it acts as a Delve.",
             "No Street is free for the Ghoul: it acts as a Delve (2 times).")):
        assert said(line, 2) == told


def test_FW_WALL_07_a_walls_dm_names_every_destroy_its_advice_may_name() -> None:
    """Stop 69's demo as the Wall: its DM advised "Destroy the Clue Marble Attached to it",
    while its list of the board post's moves stopped at four ("Delve …, Destroy Regroup
    Anchor on Breaker (1 Doom), Destroy Double Draw on Breaker (1 Doom), …"), the Clue
    Marble's among those cut. A Wall turn's moves are all named."""
    from cogs.utils.table.summaries import board_moves
    from rules.fourth_wall.game import GAME
    from tests.fourth_wall.helpers import clear_streets, new_game, put_horror, wall_turn

    st = wall_turn(new_game("conflict", 3, seed=2), doom=2)
    clear_streets(st)
    put_horror(st, "H-BREAKER", attached=("M-ANCHOR", "M-DRAW2", "M-C"))
    public = GAME.public_actions(st, st.wall_seat)
    said = board_moves(GAME, st, st.wall_seat, public)
    assert "…" not in said, said
    for action in public:
        assert GAME.describe(st, st.wall_seat, action) in said, (action, said)
    assert "Destroy Clue Marble on Breaker (1 Doom)" in said, said


def test_a_dms_list_of_board_moves_sets_each_apart() -> None:
    """Stop 69's demos: "…in the game's thread: Delve: draw a Horror (1 Doom), Trigger …" and
    The Presence's "…thread: Rest: discard any, draw up to 5, Walk (movement), …": a button's
    own colon and commas ran into the list's. Each move is set in bold, as a button reads."""
    from cogs.utils.table.summaries import board_moves
    from rules.presence.game import GAME as PRESENCE
    from rules.presence.game import PresenceOptions

    st = PRESENCE.setup(["s1", "s2", "s3"], PresenceOptions(), 5)
    for _ in range(400):
        [seat] = sorted(PRESENCE.to_act(st))[:1]
        public = PRESENCE.public_actions(st, seat)
        if len(public) >= 3 and any(a.kind == "rest" for a in public):
            break
        st = PRESENCE.apply(st, seat, PRESENCE.ai_action(st, seat)).state
    said = board_moves(PRESENCE, st, seat, public)
    names = [PRESENCE.describe(st, seat, a) for a in public]
    assert any("," in n or ":" in n for n in names), names
    for name in dict.fromkeys(names):
        assert f"**{name}**" in said, said


def test_FW_ACT_05_a_run_of_attached_marbles_counts_the_marbles() -> None:
    """Stop 70's demo: a Blitz's two Holy Symbols on a Cultist read "The Holy Symbol is
    Attached to Cultist: it negates nothing 2 times (…)", one card doing nothing twice. A run
    of one kind of Marble Attached (or Anchored) counts the Marbles, and what each did; an
    Investigator's own line keeps its count apart."""
    from cogs.utils.table.words import told_once

    def said(line: str, n: int = 2) -> str:
        return told_once([line] * n)[0][0]

    assert said("The Holy Symbol is Attached to Cultist: it negates nothing (Cultist's "
                "Defeat Cost has no Clue Symbol to negate).") == (
        "2 Holy Symbols are Attached to Cultist: each negates nothing (Cultist's Defeat Cost "
        "has no Clue Symbol to negate).")
    assert said("The Clue and Force Marble is Attached to Ghoul (The Scourge): it negates "
                "nothing (it shows no Clue, Force or Science Symbol).", 3) == (
        "3 Clue and Force Marbles are Attached to Ghoul (The Scourge): each negates nothing "
        "(it shows no Clue, Force or Science Symbol).")
    assert said("The Force Marble is Attached to Ghoul.") == (
        "2 Force Marbles are Attached to Ghoul.")
    assert said("The Regroup Anchor is Anchored to the Streets.") == (
        "2 Regroup Anchors are Anchored to the Streets.")
    assert said("The Salvager is Drained.") == "The Salvager is Drained (2 times)."
