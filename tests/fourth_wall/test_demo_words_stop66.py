"""Stop 66's demo reading: the words a player reads agree with what the engine does.

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
    inv,
    inv_turn,
    new_game,
    options,
    prompt,
    put_horror,
    set_hand,
    wall_turn,
)

FREE = "(free after Regrouping: it costs no Action Point)"


def _elected_regroup_window():  # type: ignore[no-untyped-def]
    """Conflict, The Wall's turn: a Cult Leader with no Cultist to Sacrifice cannot complete
    its Trigger, so the team Elects The second Investigator, who Regroups for free while the
    third is still Regrouped: the free Give and Trade window opens (FW-INSTR-05, FW-ACT-08)."""
    st = wall_turn(new_game("conflict", 2, seed=1), doom=5)
    clear_streets(st)
    set_hand(st, "i2", "M-C", "M-F")
    set_hand(st, "i3", "M-S")
    inv(st, "i3").regrouped = True
    leader = put_horror(st, "H-CULT-LEADER")
    st, _ = do(st, "s1", "trigger", horror=leader)
    st, _ = answer(st, "choose_investigator", inv="i2")
    st, _ = answer(st, "accept")
    while prompt(st) in ("regroup_draw", "discard_excess"):
        o = options(st)[0]
        st, _ = answer(st, o.kind, **o.params)
    assert prompt(st) == "free_trade"
    return st


def test_FW_ACT_08_d_a_give_after_an_elected_regroup_says_it_is_free() -> None:
    """Stop 66's demo, during The Wall's turn: "The Salvager is elected and may Regroup. The
    Salvager Regroups. … The Salvager gives a Marble to The Fixer." — nothing said the Give
    cost no Action Point (FW-ACT-08 d: "freely Give and Trade")."""
    st = _elected_regroup_window()
    eng = Engine(st)
    giver, to = eng.inv_name(inv(st, "i2")), eng.inv_name(inv(st, "i3"))
    assert "costs no Action Point" in st.prompts[-1].text
    labels = [GAME.describe(st, "s2", a) for a in options(st)]
    assert f"Give a Marble to {to} (free: no Action Point)" in labels, labels
    assert f"Trade a Marble with {to} (free: no Action Point)" in labels, labels
    st, _ = answer(st, "free_give", to="i3")
    assert prompt(st) == "give_marble"
    marble = options(st)[0].params["marble"]
    st, ev = answer(st, "choose_marble", marble=marble)
    public = [e.text for e in ev if e.public]
    assert f"{giver} gives a Marble to {to} {FREE}." in public, public


def test_FW_ACT_08_d_the_free_note_is_not_repeated_where_it_adds_nothing() -> None:
    """Stop 67: the note "(free after Regrouping: …)" stays in the window's prompt, its
    buttons and the public line of the free Give or Trade, but not in the Marble prompt that
    follows the "(free: no Action Point)" button, nor in the team's DM line beside the public
    one: DMs stay short."""
    st = _elected_regroup_window()
    eng = Engine(st)
    giver, to = eng.inv_name(inv(st, "i2")), eng.inv_name(inv(st, "i3"))
    st, _ = answer(st, "free_give", to="i3")
    assert prompt(st) == "give_marble"
    assert st.prompts[-1].text == f"Give which Marble to {to}?", st.prompts[-1].text
    st, ev = answer(st, "choose_marble", marble=options(st)[0].params["marble"])
    team = [e.text for e in ev if not e.public and "gives" in e.text]
    assert team and all("free" not in t and t.startswith(f"{giver} gives ") for t in team), team
    st, _ = answer(st, "free_trade", **{"with": "i3"})
    st, _ = answer(st, "choose_marble", marble=options(st)[0].params["marble"])
    assert "free" not in st.prompts[-1].text, st.prompts[-1].text
    st, ev = answer(st, "choose_marble", marble=options(st)[0].params["marble"])
    assert any(FREE in e.text for e in ev if e.public and "trades" in e.text)
    team = [e.text for e in ev if not e.public and "trades" in e.text]
    assert team and all("free" not in t for t in team), team


def test_FW_ACT_08_d_a_trade_after_an_elected_regroup_says_it_is_free() -> None:
    st = _elected_regroup_window()
    eng = Engine(st)
    a, b = eng.inv_name(inv(st, "i2")), eng.inv_name(inv(st, "i3"))
    st, _ = answer(st, "free_trade", **{"with": "i3"})
    st, _ = answer(st, "choose_marble", marble=options(st)[0].params["marble"])
    st, ev = answer(st, "choose_marble", marble=options(st)[0].params["marble"])
    # One player holds both Investigators: the Trade needs no consent (FW-AMB-27).
    assert prompt(st) == "free_trade"
    public = [e.text for e in ev if e.public]
    assert f"{a} trades a Marble with {b} {FREE}." in public, public


def test_FW_ACT_07_a_give_on_your_turn_says_nothing_of_free() -> None:
    """A Give paid with Action Points is not called free."""
    st = inv_turn(new_game("conflict", 2, seed=1), "i2")
    clear_streets(st)
    set_hand(st, "i2", "M-C")
    st, _ = do(st, "s2", "give", inv="i2", to="i3")
    assert prompt(st) == "give_marble" and "free" not in st.prompts[-1].text
    _, ev = answer(st, "choose_marble", marble=options(st)[0].params["marble"])
    assert any("gives" in e.text for e in ev)
    assert not any("free" in e.text for e in ev), [e.text for e in ev]


# ---------------------------------------------------------------- an Intervene that negates nothing
def _intervene(marble: str, horror: str, attached: tuple[str, ...] = ()) -> str:
    """The public lines of the first Investigator Intervening with `marble` on `horror`."""
    st = inv_turn(new_game("conflict", 2, seed=1), "i1")
    clear_streets(st)
    (mid,) = set_hand(st, "i1", marble)
    hid = put_horror(st, horror, attached=attached)
    st, ev = do(st, "s2", "intervene", inv="i1", marble=mid)
    if prompt(st) == "choose_horror":
        st, more = answer(st, "choose_horror", horror=hid)
        ev += more
    return " | ".join(e.text for e in ev if e.public)


def test_FW_HORROR_01_an_intervene_that_negates_nothing_says_so_and_why() -> None:
    """Stop 66's demo: "The Rallier Intervenes. The … is Attached to …" read as progress when
    the Marble's Symbols negated nothing of the Horror's Defeat Cost (FW-HORROR-01: each
    Symbol negates one of its type; "any additional Symbols do nothing")."""
    assert ("The Clue Marble is Attached to Ghoul: it negates nothing (Ghoul's Defeat Cost "
            "has no Clue Symbol to negate).") in _intervene("M-C", "H-GHOUL")
    assert ("The Force Marble is Attached to Brute: it negates nothing (Brute's Force Symbol "
            "is already negated, and any additional Symbols do nothing).") in _intervene(
                "M-F", "H-BRUTE", attached=("M-F",))
    assert ("The Clue and Force Marble is Attached to Brute: it negates nothing (Brute's "
            "Defeat Cost has no Clue Symbol, and its Force Symbol is already negated: any "
            "additional Symbols do nothing).") in _intervene("M-CF", "H-BRUTE",
                                                            attached=("M-F",))
    assert ("The Science Marble is Attached to Brute: it negates nothing (Brute's 2 Science "
            "Symbols are already negated, and any additional Symbols do nothing).") in \
        _intervene("M-S", "H-BRUTE", attached=("M-S", "M-S"))


def test_FW_HORROR_01_an_intervene_that_negates_a_symbol_says_nothing_more() -> None:
    lines = _intervene("M-CF", "H-BRUTE")  # its Force negates Brute's Force
    assert "The Clue and Force Marble is Attached to Brute." in lines, lines
    # The Elder Sign shows no Symbol, but its Intervene Instructions Defeat the Horror.
    lines = _intervene("M-ELDER", "H-GHOUL")
    assert "The Elder Sign is Attached to Ghoul." in lines and "negates" not in lines, lines
