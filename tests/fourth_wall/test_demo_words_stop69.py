"""Stop 69's reading (Conflict as The Wall, Alliance as an Investigator): the words and
pictures a player reads agree with what the engine does. Each test is named by the rule id
it checks."""

from __future__ import annotations

from rules.fourth_wall.engine import Engine
from rules.fourth_wall.game import GAME
from tests.fourth_wall.helpers import clear_streets, inv_turn, new_game, put_horror


def _four_ghouls() -> tuple[object, list[str]]:
    """A Conflict board with four Ghouls On the Streets, the third to arrive The Scourge."""
    st = inv_turn(new_game("conflict", 4, seed=2)).model_copy(deep=True)
    clear_streets(st)
    ghouls = [put_horror(st, "H-GHOUL") for _ in range(4)]
    st.scourge = ghouls[2]
    return st, ghouls


def test_FW_HORROR_the_fourth_ghoul_to_arrive_is_called_the_fourth() -> None:
    """Stop 69: with four Ghouls On the Streets, the third of them The Scourge, the fourth
    was called "Ghoul (the third to arrive)" (counted without The Scourge): a third Ghoul
    had arrived before it. Each is told by its arrival among them all, The Scourge by name;
    the view says the same for the map (`tell`)."""
    st, ghouls = _four_ghouls()
    eng = Engine(st)  # type: ignore[arg-type]
    assert [eng.horror_called(h) for h in ghouls] == [
        "Ghoul (the first to arrive)", "Ghoul (the second to arrive)", "Ghoul (The Scourge)",
        "Ghoul (the fourth to arrive)"]
    view = GAME.view(st, None)  # type: ignore[arg-type]
    assert [h["tell"] for h in view["horrors"]] == [
        "the first to arrive", "the second to arrive", "The Scourge", "the fourth to arrive"]


def test_FW_HORROR_no_two_ghouls_labels_read_alike() -> None:
    """Stop 69: two Ghouls with nothing Attached and neither Drained had the same choice
    label ("Ghoul (with nothing Attached) — needs Force×2"); each label now says which
    Ghoul it is as the log and the map do."""
    st, ghouls = _four_ghouls()
    eng = Engine(st)  # type: ignore[arg-type]
    labels = [eng.horror_label(h) for h in ghouls]
    assert len(set(labels)) == 4, labels
    assert labels[0].startswith("Ghoul (the first to arrive; with nothing Attached) — "), labels
    assert labels[2].startswith("Ghoul (with nothing Attached; The Scourge) — "), labels


def test_FW_SCOURGE_04_the_ralliers_exploit_line_says_the_branch_that_applies() -> None:
    """Stop 69: "The Rallier Exploits the Rift: Remove The Scourge Token (set the Scourge card
    aside); if there is no Scourge, draw two Marbles instead." quoted both branches where one
    applied. The line says the one that does: removing The Scourge Token while it is On the
    Streets, else drawing two Marbles; Alliance has no Scourge (FW-AMB-18): its card reads
    the draw alone."""
    from tests.fourth_wall.helpers import do, seat_of, set_card, texts

    said = {}
    for mode, scourge in (("conflict", True), ("conflict", False), ("alliance", False)):
        st = inv_turn(new_game(mode, 3, seed=2), "i1", ap=2)
        set_card(st, "i1", "INV-11")
        clear_streets(st)
        ghoul = put_horror(st, "H-GHOUL")
        st.scourge = ghoul if scourge else None
        after, events = do(st, seat_of(st, "i1"), "exploit", inv="i1")
        said[mode, scourge] = texts(events)
        if mode == "alliance":
            card = next(i for i in GAME.view(after, None)["investigators"] if i["id"] == "i1")
            assert "Scourge" not in card["text"], card["text"]
            assert "Exploit the Rift: draw two Marbles." in card["text"], card["text"]
            assert card["exploit"]["text"] == "draw two Marbles.", card["exploit"]
    assert ("The Rallier Exploits the Rift: Remove The Scourge Token (set the Scourge card "
            "aside).") in said["conflict", True]
    for key in (("conflict", False), ("alliance", False)):
        assert "The Rallier Exploits the Rift: Draw two Marbles." in said[key], said[key]
    assert not any("if there is no Scourge" in text for text in said.values()), said


def test_FW_ALLY_02_the_boards_presence_cards_are_the_next_wall_turns() -> None:
    """Stop 69: Alliance's Doom tile read 0 nearly always (the truth: each Wall turn spends
    the whole pool, a Presence card a Doom). The board says instead how many Presence cards
    the next Wall turn resolves as things stand; along random Alliance games, ending each
    Investigator's turn at once, the Wall turn that follows gathers exactly that many —
    through Exploits' Doom, Street 5's Aura, the round's last turn moving the Turn Tracker
    into The Crescendo. Conflict keeps its Doom."""
    import random
    import re

    from renders.cardwords import numbers

    checked = 0
    for seed in range(6):
        st = GAME.setup(["s1", "s2", "s3"], GAME.options_model(mode="alliance"), seed)
        rng = random.Random(seed)
        for _ in range(900):
            if GAME.result(st) is not None:
                break
            seat = rng.choice(sorted(GAME.to_act(st)))
            legal = GAME.legal_actions(st, seat)
            end = [a for a in legal if a.kind == "pass"]
            if st.phase == "investigator" and not st.prompts and end:
                cards = GAME.view(st, None)["wall"]["presence_cards"]
                assert cards is not None and not cards["this_turn"], cards
                out = GAME.apply(st, seat, end[0])
                said = [e.text for e in out.events if e.kind == "presence_doom"]
                if said:  # not the game's end
                    got = re.search(r"; (\d+) Presence card", said[0])
                    assert got and int(got.group(1)) == cards["n"], (seed, cards, said)
                    checked += 1
                    tile = [n for n in numbers("fourth_wall", GAME.view(st, None))
                            if n.label == "Presence cards"]
                    assert tile and tile[0].value == str(cards["n"]), tile
                    assert tile[0].note == "next Wall turn", tile
                st = out.state
                continue
            st = GAME.apply(st, seat, rng.choice(legal)).state
    assert checked >= 30, checked
    # The round's last turn before The Crescendo: the Turn Tracker moves first, the Wall
    # turn after it gathers one Doom more.
    st = inv_turn(new_game("alliance", 3, seed=2), "i3", ap=2)
    clear_streets(st)
    st.rank_index = 6  # the last rank of An Eye Opens
    st.revealed = True
    before = GAME.view(st, None)["wall"]["presence_cards"]
    out = GAME.apply(st, st.investigators[2].seat, next(
        a for a in GAME.legal_actions(st, st.investigators[2].seat) if a.kind == "pass"))
    said = " ".join(e.text for e in out.events)
    assert "The Crescendo" in said and f"; {before['n']} Presence cards" in said, (before, said)
    assert before == {"n": 3, "this_turn": False}  # 2, +1 in The Crescendo
    # A Wall turn with no card left (a prompt of its last card's): the next Wall turn's, Doom
    # held over from this one (FW-DOOM-06) and Street 5's Aura counted (stop 69's demo read
    # "Presence cards 0 (left this Wall turn)").
    from rules.fourth_wall.engine import Engine
    from rules.fourth_wall.state import Step

    st = inv_turn(new_game("alliance", 3, seed=2), "i3", ap=2)
    clear_streets(st)
    put_horror(st, "H-GHOUL", street=5)
    st.rank_index = 6
    st.revealed = True
    st.phase, st.wall_spending, st.doom, st.doom_deferred = "wall", True, 0, 1
    assert GAME.view(st, None)["wall"]["presence_cards"] == {"n": 5, "this_turn": False}
    eng = Engine(st)  # the Wall turn ends; the Steadfast's turn, the round's last, follows
    eng.later(Step(op="presence_next"))
    eng.run()
    st = eng.st
    assert GAME.view(st, None)["wall"]["presence_cards"] == {"n": 5, "this_turn": False}
    seat = st.investigators[2].seat
    out = GAME.apply(st, seat, next(a for a in GAME.legal_actions(st, seat)
                                    if a.kind == "pass"))
    assert "; 5 Presence cards will be resolved" in " ".join(e.text for e in out.events)
    conflict = GAME.view(new_game("conflict", 3, seed=2), None)
    assert conflict["wall"]["presence_cards"] is None
    assert "Doom" in [n.label for n in numbers("fourth_wall", conflict)]


def test_FW_WALL_07_the_walls_marble_choice_is_advised_as_the_walls() -> None:
    """Stop 69's demo, as The Wall: choosing the Marble its Destroy a Marble discards, the
    board post and the DM advised "Marbles are both your tools and your Sanity: keep the
    Symbols you need for Closing a Gate.", an Investigator's hint. The Wall is told what its
    choice does to the Investigators; an Investigator choosing a Marble keeps its hint."""
    from rules.fourth_wall.guide import PROMPTS
    from tests.fourth_wall.helpers import do, wall_turn

    st = wall_turn(new_game("conflict", 3, seed=2), doom=2)
    clear_streets(st)
    breaker = put_horror(st, "H-BREAKER", attached=("M-F",))
    put_horror(st, "H-CULTIST", attached=("M-C",))
    st, _ = do(st, st.wall_seat, "trigger", horror=breaker)  # its Trigger: Destroy a Marble
    assert st.prompts and st.prompts[-1].kind == "choose_marble", st.prompts
    for private in (False, True):
        said = GAME.guide_text(st, st.wall_seat, private=private)
        assert said is not None and "your Sanity" not in said, said
        assert "Destroy" in said, said
    assert "your Sanity" in PROMPTS["choose_marble"]


def test_FW_SCOURGE_03_the_gatewrights_unique_line_leaves_out_a_moot_proviso() -> None:
    """Stop 69's demo: "The Gatewright uses the Unique Action: Close a Gate with Marbles
    showing any two different Symbols (not while The Scourge is On the Streets)." — said
    when it Closed one, so The Scourge was not On the Streets: the proviso is left out of
    the line (the card keeps it)."""
    from tests.fourth_wall.helpers import do, seat_of, set_card, set_hand, texts

    st = inv_turn(new_game("conflict", 3, seed=2), "i1", ap=2)
    set_card(st, "i1", "INV-04")
    clear_streets(st)
    set_hand(st, "i1", "M-C", "M-F")
    _, events = do(st, seat_of(st, "i1"), "unique", inv="i1")
    said = texts(events)
    assert ("The Gatewright uses the Unique Action: Close a Gate with Marbles showing any two "
            "different Symbols.") in said, said
    card = next(i for i in GAME.view(st, None)["investigators"] if i["id"] == "i1")
    assert "(not while The Scourge is On the Streets)" in card["text"]


def test_FW_ACT_03_the_ralliers_unique_line_is_about_the_rallier() -> None:
    """Stop 69's Alliance demo: "The Rallier uses the Unique Action: You and each Regrouped
    Investigator draw one Marble." — the card's "you", addressed to its holder, read in the
    thread as the reader. The line speaks of the Investigator."""
    from tests.fourth_wall.helpers import do, seat_of, set_card, texts

    st = inv_turn(new_game("alliance", 3, seed=2), "i1", ap=2)
    set_card(st, "i1", "INV-11")
    _, events = do(st, seat_of(st, "i1"), "unique", inv="i1")
    said = texts(events)
    assert ("The Rallier uses the Unique Action: They and each Regrouped Investigator draw one "
            "Marble.") in said, said


def test_FW_WALL_16_the_walls_aura_says_it_is_the_aura() -> None:
    """Stop 69's Conflict demo: "Watcher is Defeated! • The Wall Targets The Bruiser. • The
    Bruiser loses a Clue Marble." — The Twin Maw's Aura (a Defeated Horror makes the Target
    lose a Marble) struck with no word of it. The line before says whose it is and what."""
    from tests.fourth_wall.helpers import (
        answer,
        do,
        prompt,
        seat_of,
        set_hand,
        set_stage,
        set_wall,
        texts,
    )

    st = inv_turn(new_game("conflict", 3, seed=2), "i1", ap=2)
    set_wall(st, "W-6")
    set_stage(st, "eye_opens")
    clear_streets(st)
    cultist = put_horror(st, "H-CULTIST")
    force, _ = set_hand(st, "i1", "M-F", "M-C")
    st, events = do(st, seat_of(st, "i1"), "intervene", inv="i1", marble=force)
    if prompt(st) == "choose_horror":
        st, more = answer(st, "choose_horror", horror=cultist)
        events += more
    said = texts(events)
    aura = ("The Twin Maw's Aura: when a Horror is Defeated, after its Deathrattle, Target "
            "Investigator Loses a Marble.")
    assert aura in said and said.index(aura) > said.index("Cultist is Defeated!"), said


def test_FW_WALL_07_the_walls_destroy_a_marble_says_it_is_the_walls_action() -> None:
    """Stop 69's Conflict demo: "The Wall chooses Wrath: +2 Doom (2 in the Action Pool). •
    Clue Marble on Breaker is Destroyed." — The Wall's Destroy a Marble Action (1 Doom) read
    as something that befell the Marble. It says who acted and what it cost, as its Delve,
    Manifest and Trigger do; a Trigger's Destroy keeps its line."""
    from tests.fourth_wall.helpers import do, texts, wall_turn

    st = wall_turn(new_game("conflict", 3, seed=2), doom=2)
    clear_streets(st)
    put_horror(st, "H-BREAKER", attached=("M-C",))
    clue = st.streets[0].attached[0]
    _, events = do(st, st.wall_seat, "destroy", marble=clue)
    assert "The Wall spends 1 Doom to Destroy the Clue Marble Attached to Breaker." in texts(events)


def test_FW_WALL_07_the_walls_destroy_on_the_scourge_stacks_no_brackets() -> None:
    """Stop 70's demo: "The Wall Destroys the Clue Marble Attached to Ghoul (The Scourge)
    (1 Doom)." — two brackets in a row. The cost leads the line."""
    from tests.fourth_wall.helpers import do, texts, wall_turn

    st = wall_turn(new_game("conflict", 3, seed=2), doom=2)
    clear_streets(st)
    put_horror(st, "H-GHOUL")
    ghoul = put_horror(st, "H-GHOUL", attached=("M-C",))
    st.scourge = ghoul
    clue = next(h for h in st.streets if h.id == ghoul).attached[0]
    _, events = do(st, st.wall_seat, "destroy", marble=clue)
    line = next(t for t in texts(events).split(" | ") if "Destroy" in t)
    assert ") (" not in line and line.startswith("The Wall spends 1 Doom to Destroy"), line
    assert "(The Scourge)" in line, line


def test_FW_SCOURGE_03_an_elder_signs_utilise_line_leaves_out_a_moot_proviso() -> None:
    """Stop 69's Conflict demo (seed 72): "The Steadfast Utilises an Elder Sign: Close a Gate
    by itself (not while The Scourge is On the Streets)." — said as it Closed one, with no
    Scourge out. The proviso is left out of the line, as for the Gatewright's Unique."""
    from tests.fourth_wall.helpers import do, seat_of, set_hand, take_marble, texts

    st = inv_turn(new_game("conflict", 3, seed=2), "i1", ap=2)
    clear_streets(st)
    set_hand(st, "i1", "M-C")
    sign = next(m for m, card in st.marble_cards.items() if card == "M-ELDER")
    take_marble(st, sign)
    st.investigators[0].hand.append(sign)
    _, events = do(st, seat_of(st, "i1"), "utilise", inv="i1", marble=sign)
    said = texts(events)
    assert "Utilises an Elder Sign: Close a Gate by itself. |" in said, said
    assert "not while The Scourge" not in said, said


def test_FW_WALL_07_a_marble_on_one_of_two_ghouls_names_the_ghoul_as_the_map_does() -> None:
    """Stop 69: the map now tells two Ghouls apart ("Ghoul (older)", "Ghoul (newer)"); The
    Wall's Destroy a Marble choices named them only by what each still needs ("Force Marble
    on Ghoul (needs Force)"), which the player had to work out from the map's Symbols. Each
    names its Ghoul as the map and the log do."""
    st = inv_turn(new_game("conflict", 3, seed=2)).model_copy(deep=True)
    clear_streets(st)
    put_horror(st, "H-GHOUL", attached=("M-F",))
    put_horror(st, "H-GHOUL", attached=("M-C",))
    eng = Engine(st)  # type: ignore[arg-type]
    older, newer = (h.attached[0] for h in st.streets)
    assert eng.street_marble_label(older) == (
        "Force Marble on Ghoul (the older one; needs Force)")
    assert eng.street_marble_label(newer).startswith("Clue Marble on Ghoul (the newer one; ")


def test_FW_WALL_07_a_triggers_destroy_names_the_horror_as_the_log_does() -> None:
    """Stop 69: a Trigger's Destroy a Marble read "Force Marble on Ghoul (the older one; needs
    Force) is Destroyed." — a choice's label, what the Ghoul needed before, in a log line.
    The line names the Marble and where it was, as the log names the Horror."""
    from tests.fourth_wall.helpers import answer, do, texts, wall_turn

    st = wall_turn(new_game("conflict", 3, seed=2), doom=2)
    clear_streets(st)
    breaker = put_horror(st, "H-BREAKER")
    put_horror(st, "H-GHOUL", attached=("M-F",))
    put_horror(st, "H-GHOUL", attached=("M-C",))
    force = st.streets[1].attached[0]
    st, events = do(st, st.wall_seat, "trigger", horror=breaker)
    if st.prompts:
        st, more = answer(st, "choose_marble", marble=force)
        events += more
    assert "The Force Marble Attached to Ghoul (the older one) is Destroyed." in texts(events), \
        texts(events)
