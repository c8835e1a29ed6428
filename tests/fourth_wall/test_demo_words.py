"""Stop 65's demo reading: the words a player reads agree with what the engine does.

Each test is named by the rule id it checks (../shared/spec/fourth-wall.md) and quotes the
demo line it answers.
"""

from __future__ import annotations

from rules.fourth_wall.engine import Engine
from rules.fourth_wall.game import GAME
from rules.fourth_wall.words import status_lines
from tests.fourth_wall.helpers import (
    answer,
    clear_streets,
    do,
    free_horror,
    free_marble,
    inv,
    inv_turn,
    new_game,
    options,
    prompt,
    put_horror,
    set_card,
    set_hand,
    set_stage,
    set_wall,
    take_horror,
    take_marble,
    texts,
    wall_hand,
    wall_turn,
)


def ally(n: int = 1, seed: int = 1, iid: str = "i1", ap: int | None = None):  # type: ignore[no-untyped-def]
    st = inv_turn(new_game("alliance", n, seed), iid, ap)
    clear_streets(st)
    st.doom = 0
    return st


def conflict_turn(iid: str = "i1", seed: int = 1, ap: int | None = None):  # type: ignore[no-untyped-def]
    st = inv_turn(new_game("conflict", 2, seed), iid, ap)
    clear_streets(st)
    return st


# ---------------------------------------------------------------- Close a Gate under an Aura
def test_FW_ACT_01_g_close_a_gate_says_the_breaker_of_trinkets_second_clue() -> None:
    """Stop 65's demo: "Close a Gate: The Rallier selects Marbles showing a Clue, a Force and
    a Science." and its tip, while The Breaker of Trinkets' Aura asked a second Clue: the
    prompt, its public text, the tip and the turn advice say what `meets` enforces."""
    st = conflict_turn()
    set_wall(st, "W-5")  # Aura: Close a Gate also needs a second Clue Symbol
    set_stage(st, "eye_opens")
    c1, c2, f, s = set_hand(st, "i1", "M-C", "M-C", "M-F", "M-S")
    distinct, extra = Engine(st).gate_requirement()
    assert extra["clue"] == 1  # the engine's own requirement
    turn = GAME.advice(GAME.view(st, "s2"), "s2") or ""
    assert "Your hand shows 2 Clue Symbols, a Force and a Science" in turn, turn
    st, _ = do(st, "s2", "close_gate", inv="i1")
    assert prompt(st) == "close_select"
    needs = "2 Clue Symbols, a Force and a Science"
    assert needs in st.prompts[-1].text
    assert needs in GAME.view(st, None)["prompt"]["text"]  # the public text
    tip = GAME.advice(GAME.view(st, "s2"), "s2") or ""
    assert f"show {needs}" in tip and "show a Clue, a Force" not in tip, tip
    for m in (c1, f, s):
        st, _ = answer(st, "select", marble=m)
    assert "confirm" not in {o["kind"] for o in st.prompts[-1].data["options"]}
    st, _ = answer(st, "select", marble=c2)  # the words were enough to reach Confirm
    assert "confirm" in {o["kind"] for o in st.prompts[-1].data["options"]}
    assert distinct == 3


# ---------------------------------------------------------------- Street Auras said
def test_FW_STREET_01_every_street_aura_is_said_when_a_horror_lands_there() -> None:
    """Stop 65's demo: "Breaker is placed On the Streets on Street 2." — Street 2's Aura (Give
    or Trade costs 2 AP) and Streets 1, 4 and 5's were never said; Street 3's was. Each
    arrival says its Street's Aura, in the Street card's words."""
    want = {
        1: "Street 1's Aura: Exploit the Rift adds 1 more Doom",
        2: "Street 2's Aura: Give or Trade costs 2 AP",
        3: "Street 3's Aura: 1 more Science in its Defeat Cost",
        4: "Street 4's Aura: Regroup draws one fewer Marble",
        5: "Street 5's Aura: at the start of each Wall turn, add 1 Doom",
    }
    st = ally()
    eng = Engine(st)
    for street, said in want.items():
        hid = free_horror(st, "H-CULTIST") if street == 3 else free_horror(st, "H-WATCHER")
        take_horror(st, hid)
        assert eng.place_horror(hid, street)
        line = eng.events[-1].text
        assert line.startswith(f"{eng.horror_name(hid)} is placed On the Streets on Street "
                               f"{street} (") and line.endswith(f"{said})."), line
        assert "(" not in said and "[" not in line  # no nested aside, no rule id


def test_FW_STREET_01_FW_ACT_03_a_cost_raised_by_an_aura_is_said_where_it_drops_out() -> None:
    """Stop 65's demo: "1 AP left for the Rallier — Search (draw a Marble), Intervene with a
    Marble or Utilise — or end the turn." with Give or Trade gone and no word why (Street
    2's Aura); and the Exploit button said "+Doom" while Street 1's Aura made it 2."""
    st = ally(2, ap=1)
    put_horror(st, "H-WATCHER", street=2)
    seat = st.investigators[0].seat
    line = GAME.doing_text(st, seat, {})
    assert "Give or Trade a Marble" not in line
    assert line.endswith("— or end the turn; Give or Trade costs 2 AP (Street 2's Aura)."), line
    set_hand(st, "i1", "M-C", "M-F", "M-S")
    view = GAME.view(st, None)
    view["horrors"] = []  # the tip's last resort, read as it is worded
    tip = GAME.advice(view, seat) or ""
    assert "Give or Trade costs 2 AP now (Street 2's Aura)" in tip, tip
    st = ally(2, ap=2)
    put_horror(st, "H-WATCHER", street=2)
    assert "Give or Trade costs" not in GAME.doing_text(st, seat, {})  # 2 AP pay for it
    st = ally(2)
    put_horror(st, "H-WATCHER", street=1)
    labels = [GAME.describe(st, seat, a) for a in GAME.legal_actions(st, seat)]
    assert any("Exploit the Rift (" in x and x.endswith(", +2 Doom)")
               for x in labels), labels


# ---------------------------------------------------------------- a Trade offered, then answered
def test_FW_AMB_27_a_trade_offer_is_logged_before_its_answer() -> None:
    """Stop 65's demo: "The Rallier trades a Marble with The Demolitionist." then "The
    Demolitionist declines The Rallier's offer of a Trade." — the second offer was never
    logged. Each offer is, before its answer, and the log never says "trades" of a refusal."""
    for reply in ("decline", "accept"):
        st = inv_turn(new_game("conflict", 3, 1), "i1")  # i1 = s2, i2 = s3
        clear_streets(st)
        (c,) = set_hand(st, "i1", "M-C")
        (f,) = set_hand(st, "i2", "M-F")
        eng = Engine(st)
        a, b = eng.inv_name(inv(st, "i1")), eng.inv_name(inv(st, "i2"))
        st, ev = do(st, "s2", "trade", inv="i1", **{"with": "i2"})
        while prompt(st) in ("trade_mine", "trade_theirs"):
            st, more = answer(st, "choose_marble", marble=c if prompt(st) == "trade_mine" else f)
            ev += more
        assert prompt(st) == "trade_consent"
        st, more = answer(st, reply)
        public = [e.text for e in ev + more if e.audience == "public"]
        offer = public.index(f"{a} offers {b} a Trade.")
        if reply == "decline":
            assert any(f"{b} declines {a}'s offer of a Trade" in x
                       for x in public[offer + 1:]), public
            assert not any("trades" in x for x in public), public
        else:
            assert f"{a} trades a Marble with {b}." in public[offer + 1:], public


# ---------------------------------------------------------------- who a card Elects
def test_FW_TERM_07_FW_INSTR_05_a_cards_election_names_who_is_elected() -> None:
    """Stop 65's demo: "The Quartermaster Exploits the Rift: An Elected Investigator may
    Regroup for free." then "The Quartermaster Regroups." — who was Elected was never said."""
    st = conflict_turn()
    set_card(st, "i1", "INV-03")  # Exploit: an Elected Investigator may Regroup for free
    st, ev = do(st, "s2", "exploit", inv="i1")
    assert prompt(st) == "elect" and "is elected" not in texts(ev)  # not chosen yet
    st, ev = answer(st, "choose_investigator", inv="i3")
    name = Engine(st).inv_name(inv(st, "i3"))
    assert f"{name} is elected and may Regroup." in texts(ev), texts(ev)
    assert prompt(st) == "regroup_offer"
    st, ev = answer(st, "decline")
    assert "elected" not in texts(ev)  # said once


def test_FW_INSANE_03_FW_INSTR_05_the_only_sane_investigator_may_regroup() -> None:
    """Stop 65's demo: "The Wall could not complete an Instruction: The Steadfast is elected
    and may Regroup." with nobody left to choose: it reads as The Wall's choice."""
    st = conflict_turn()
    set_card(st, "i1", "INV-03")
    for other in st.investigators[1:]:
        other.insane = True
        st.marble_deck.extend(other.hand)
        other.hand = []
    st, ev = do(st, "s2", "exploit", inv="i1")
    name = Engine(st).inv_name(inv(st, "i1"))
    assert f"{name}, the only sane Investigator, may Regroup." in texts(ev), texts(ev)
    assert prompt(st) == "regroup_offer"


# ---------------------------------------------------------------- the Regroup question
def test_FW_ACT_08_b_the_regroup_question_counts_the_hand_limit_draw_in_marbles() -> None:
    """Stop 65's demo: "The Steadfast Regroups: draw 1 Marble, or draw up to the Hand Limit
    (0)?" with a Hand Limit of 6: the "(0)" was the draw, and the worse of the two."""
    st = ally()
    set_card(st, "i1", "INV-09")  # The Steadfast
    limit = Engine(st).hand_limit(inv(st, "i1"))
    set_hand(st, "i1", *(["M-C", "M-F", "M-S", "M-C", "M-F", "M-S"][: limit - 1]))
    put_horror(st, "H-CULTIST", street=4)  # Regroup draws one fewer: 1, or up to the limit: 0
    st, _ = do(st, "s1", "regroup", inv="i1")
    assert prompt(st) == "regroup_draw"
    text = st.prompts[-1].text
    assert text.endswith("draw 1 Marble, or draw up to the Hand Limit (no Marble, so drawing "
                         "1 gives more)?"), text
    labels = [GAME.describe(st, "s1", a) for a in GAME.legal_actions(st, "s1")]
    assert any(x.endswith("Draw up to your Hand Limit (no Marble)") for x in labels), labels


# ---------------------------------------------------------------- the Target Token
def test_FW_TARGET_04_the_target_token_stays_with_the_only_sane_investigator() -> None:
    """Stop 65's demo: "The Steadfast is the Target; the Target Token passes to The
    Steadfast." — with the others Insane the Token does not move; the line says it stays."""
    st = ally(3)
    for other in st.investigators[1:]:
        other.insane = True
        st.marble_deck.extend(other.hand)
        other.hand = []
    st.target = "i1"
    eng = Engine(st)
    assert eng.take_target() == "i1" and st.target == "i1"
    name = eng.inv_name(inv(st, "i1"))
    assert eng.events[-1].text == (f"{name} is the Target; the Target Token stays with {name}, "
                                   "the only sane Investigator.")
    st = ally(3)
    st.target = "i1"
    eng = Engine(st)
    assert eng.take_target() == "i1" and st.target != "i1"
    assert "passes to" in eng.events[-1].text


# ---------------------------------------------------------------- a free Unique at 0 AP
def test_FW_ACT_03_no_nothing_left_to_spend_beside_a_free_unique_action() -> None:
    """Stop 65's demo: "The Fixer has 0 of 2 AP ... Nothing is left to spend this turn: end
    the turn." beside the button "Unique Action (0 AP)" (The Fixer's Give or Trade)."""
    st = conflict_turn(ap=0)
    set_card(st, "i1", "INV-06")  # The Fixer: Unique (0 AP): Give or Trade
    set_hand(st, "i1", "M-C", "M-F")
    assert "unique" in {a.kind for a in GAME.legal_actions(st, "s2")}
    for seat in ("s2", None):
        tip = GAME.advice(GAME.view(st, seat), "s2") or ""
        assert "Nothing is left to spend" not in tip, tip
        assert "Unique Action costs no AP" in tip, tip
    st.uniques_used = ["i1"]
    tip = GAME.advice(GAME.view(st, "s2"), "s2") or ""
    assert "Nothing is left to spend this turn: end the turn." in tip, tip


# ---------------------------------------------------------------- Manifest's Doom
def test_FW_WALL_06_a_manifest_line_says_the_doom_spent() -> None:
    """Stop 65's demo: "The Wall chooses Wrath: +2 Doom (2 in the Action Pool)." then
    "Breaker is placed On the Streets." — the Doom spent untold, while "The Wall Triggers
    Breaker (1 Doom): ..." said its own."""
    st = wall_turn(new_game("conflict", 2, 1), doom=3)
    clear_streets(st)
    (watcher,) = wall_hand(st, "H-WATCHER")
    cost = Engine(st).horror(watcher).manifest.doom
    st, ev = do(st, "s1", "manifest", horror=watcher)
    said = [e.text for e in ev if e.audience == "public" and "On the Streets" in e.text]
    assert said and said[0].startswith(f"The Wall Manifests Watcher ({cost} Doom): it is "
                                       "placed On the Streets"), said
    assert st.doom == 3 - cost


# ---------------------------------------------------------------- Symbols counted in plural
def test_FW_HORROR_04_the_guide_counts_symbols_in_the_plural() -> None:
    """Stop 65's demo: "The Breaker On the Streets still needs 2 Clue to be Defeated"."""
    st = conflict_turn()
    put_horror(st, "H-BREAKER")  # Defeat Cost: Clue, Clue
    tip = GAME.advice(GAME.view(st, None), "s2") or ""
    assert "still needs 2 Clue Symbols to be Defeated" in tip, tip
    lines = status_lines(st, None, {}, None)
    assert any("defeat needs 2 Clue Symbols" in line for line in lines), lines
    assert not any("2 Clue " in line and "2 Clue Symbols" not in line for line in lines)


# ---------------------------------------------------------------- advice and The Scourge
def test_FW_SCOURGE_03_the_investigator_tip_points_at_the_scourge() -> None:
    """Stop 65's demo: "The Cultist On the Streets still needs a Force to be Defeated:
    Intervene before The Wall Triggers it." while The Scourge on Breaker blocked every Gate."""
    st = conflict_turn()
    breaker = put_horror(st, "H-BREAKER")  # Clue, Clue
    put_horror(st, "H-CULTIST")  # Force: nearer to Defeat, but blocks nothing
    st.scourge = breaker
    for seat in (None, "s2"):  # the public view and the player's own
        tip = GAME.advice(GAME.view(st, seat), "s2") or ""
        assert "The Breaker bears The Scourge" in tip and "Cultist" not in tip, tip
        assert "still needs 2 Clue Symbols to be Defeated" in tip, tip


def test_FW_WALL_07_FW_SCOURGE_03_the_wall_tip_destroys_the_marble_on_the_scourge() -> None:
    """Stop 65's demo: "Manifest a Horror On the Streets: each one left there presses the
    team." nine times, while the Wall's one Doom Destroying the Force Marble on Brute (The
    Scourge) was all that kept the last Gate open."""
    st = wall_turn(new_game("conflict", 2, 1), doom=1)
    clear_streets(st)
    brute = put_horror(st, "H-BRUTE", attached=("M-F",))  # Force, Science, Science
    st.scourge = brute
    wall_hand(st, "H-WATCHER")
    seat = st.wall_seat
    assert seat is not None
    tip = GAME.advice(GAME.view(st, seat), seat) or ""
    assert "Destroy the Force Marble Attached to it" in tip and "Brute bears The Scourge" in tip
    assert "Manifest" not in tip, tip
    st.scourge = None  # no Scourge, the Brute 2 Symbols from Defeat: Manifest as before
    tip = GAME.advice(GAME.view(st, seat), seat) or ""
    assert "Destroy" not in tip, tip


# ---------------------------------------------------------------- small unsaid details
def test_FW_TERM_08_a_find_says_where_the_card_was_found() -> None:
    """Stop 65's demo: "Ghoul is found." — from the discard pile, or the deck, then
    shuffled? (FW-TERM-08)."""
    for pile in ("discard", "deck"):
        st = conflict_turn()
        set_card(st, "i1", "INV-01")  # Exploit: Find a Marble you name
        set_hand(st, "i1", "M-C")
        holy = free_marble(st, "M-HOLY")
        for m in [m for m in st.marble_discard if st.marble_cards[m] == "M-HOLY"]:
            st.marble_discard.remove(m)
            st.marble_deck.insert(0, m)
        if pile == "discard":
            take_marble(st, holy)
            st.marble_discard.append(holy)
        st, _ = do(st, "s2", "exploit", inv="i1")
        st, ev = answer(st, "choose_name", name="Holy Symbol")
        want = ("Holy Symbol is found in the discard pile." if pile == "discard"
                else "Holy Symbol is found in the deck, which is then shuffled.")
        assert want in texts(ev), texts(ev)


def test_FW_HORROR_08_FW_PROMPT_06_a_sacrifice_names_its_street_and_the_wall_its_target(
        ) -> None:
    """Stop 65's demo: "Cultist is Sacrificed." (Street 3 emptied, unsaid) and "The Wall
    Triggers Cultist ... Target Investigator Loses a Marble." then "The Steadfast loses a
    Force Marble." — The Wall's Target never said as its choice."""
    from tests.fourth_wall.test_alliance import presence

    st = ally()
    put_horror(st, "H-CULTIST", street=3)
    put_horror(st, "H-CULT-LEADER", street=5)
    st, ev = presence(st, "P-TROUBLE-5#1")
    while prompt(st) in ("lose_choice", "holy_window", "elect", "regroup_offer"):
        o = options(st)[-1] if prompt(st) == "holy_window" else options(st)[0]
        st, more = answer(st, o.kind, **o.params)
        ev += more
    assert "Cultist is Sacrificed from Street 3." in texts(ev), texts(ev)
    st = conflict_turn()
    put_horror(st, "H-BREAKER", attached=("M-C",))  # Deathrattle: Target Loses a Marble
    (c,) = set_hand(st, "i1", "M-C", "M-F")[:1]
    st, ev = do(st, "s2", "intervene", inv="i1", marble=c)
    assert prompt(st) == "choose_target" and "Targets" not in texts(ev)
    st, ev = answer(st, "choose_investigator", inv="i2")
    assert f"The Wall Targets {Engine(st).inv_name(inv(st, 'i2'))}." in texts(ev), texts(ev)
