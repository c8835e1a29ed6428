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
