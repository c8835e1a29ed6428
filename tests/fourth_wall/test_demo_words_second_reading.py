"""Stop 65's second demo reading: the words a player reads agree with what the engine does.

Each test is named by the rule id it checks (../shared/spec/fourth-wall.md) and quotes the
demo line it answers.
"""

from __future__ import annotations

from rules.fourth_wall.engine import Engine
from rules.fourth_wall.game import GAME
from tests.fourth_wall.helpers import (
    answer,
    clear_streets,
    do,
    inv_turn,
    new_game,
    prompt,
    put_horror,
    set_card,
    set_hand,
    setup,
    texts,
)
from tests.fourth_wall.test_alliance import presence


def _keep_text(mode: str, dealt: list[str]) -> str:
    st = setup(mode, 3, seed=5)
    top = st.prompts[-1]
    assert top.kind == "keep_investigator"
    seat = top.seats[0]
    who = next(i for i in st.investigators if i.seat == seat and i.card is None and i.dealt)
    who.dealt = list(dealt)
    return GAME.prompt_text(st, seat) or ""


def test_fw_amb_18_keep_card_text_is_this_modes() -> None:
    """A stop 65 demo (Conflict): '• The Seer (Sanity 4): … Exploit the Rift: Conflict - look at The
    Wall's hand of Horrors; Alliance - look at the top three Horrors …' — the choice shows only
    the game's mode; Alliance has no Scourge, so its proviso is not shown there (FW-AMB-18)."""
    conflict = _keep_text("conflict", ["INV-10", "INV-04"])
    assert "Exploit the Rift: look at The Wall's hand of Horrors." in conflict
    assert "Alliance -" not in conflict and "Conflict -" not in conflict
    assert "(not while The Scourge is On the Streets)" in conflict
    alliance = _keep_text("alliance", ["INV-10", "INV-04"])
    assert "Exploit the Rift: look at the top three Horrors and put them back in any order." \
        in alliance
    assert "The Wall's hand" not in alliance and "Scourge" not in alliance


def test_fw_pres_05_a_trigger_that_cannot_be_used_says_why() -> None:
    """Stop 65 (Alliance): 'Cult Leader cannot use its Trigger Action: nothing happens.' — the
    Ghoul's line says why ('every Street is taken'); the Cult Leader's must too: there is no
    Cultist On the Streets to Sacrifice (FW-PRES-05, FW-GAP-11)."""
    st = inv_turn(new_game("alliance", 1, seed=1), "i1")
    clear_streets(st)
    st.doom = 0
    put_horror(st, "H-CULT-LEADER", street=4)
    _st2, ev = presence(st, "P-TROUBLE-4#1")
    assert ("Cult Leader cannot use its Trigger Action (no Cultist is On the Streets to "
            "Sacrifice): nothing happens.") in texts(ev), texts(ev)


def test_fw_vis_28_the_seers_take_and_put_back_are_said() -> None:
    """Stop 65: 'The Seer looks at the top 3 Marble cards.' then, in public, nothing; the team
    read only 'The Clue Marble is taken into hand.' The table hears that the Seer took one
    and that 2 cards went to the bottom of the Marble deck; which card stays the team's
    (FW-VIS-28)."""
    st = inv_turn(new_game("conflict", 2, 1), "i1")
    clear_streets(st)
    set_card(st, "i1", "INV-10")
    set_hand(st, "i1", "M-C")
    st, ev = do(st, "s2", "unique", inv="i1")
    taken = st.peek[0]
    name = Engine(st).the_marble(taken)
    st, more = answer(st, "choose_card", card=taken)
    ev += more
    while prompt(st) == "peek_order":
        st, more = answer(st, "choose_card",
                          card=st.prompts[-1].data["options"][0]["params"]["card"])
        ev += more
    public = [e.text for e in ev if e.public]
    team = [e.text for e in ev if e.audience == ["s2"]]
    assert "The Seer takes one of them into hand." in public, public
    assert "2 cards go back at the bottom of the Marble deck." in public, public
    assert f"The Seer takes {name} into hand." in team, team
    assert not any(name in t for t in public if "takes" in t)


def test_fw_term_03_blitz_says_the_unmatched_cards_are_discarded() -> None:
    """A stop 65 demo: 'Blitz (3) [Force] reveals: 2 Clue Marbles and a Force Marble.' then only the
    Force Marble's Attach: the Clue Marbles vanished unsaid. A revealed card that shares no
    Symbol with the Blitz is discarded, and the table is told (FW-TERM-03)."""
    from tests.fourth_wall.helpers import pass_windows, stack_marbles

    st = inv_turn(new_game("conflict", 4, 1), "i1")
    clear_streets(st)
    set_card(st, "i1", "INV-07")  # Unique: Blitz (2) [Clue, Science]
    set_hand(st, "i1", "M-F")
    set_hand(st, "i2", "M-C")
    set_hand(st, "i3", "M-C")
    put_horror(st, "H-RESTLESS-SPIRIT")
    stack_marbles(st, "M-C", "M-F")
    st, ev = do(st, "s2", "unique", inv="i1")
    st, more = pass_windows(st)
    ev += more
    assert "Blitz (2) [Clue, Science] reveals: a Clue Marble and a Force Marble" in texts(ev)
    assert "Discarded, as it shares no Symbol with the Blitz: a Force Marble." in texts(ev), \
        texts(ev)
