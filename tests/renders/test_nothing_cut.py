"""Issue #13: no label or text in any picture is cut with "…", and no two pawns share a label.

Whole games of every game, mode and player count are played by the games' AI (fixed seeds);
every 25th state and the last are drawn (every 5th, on two more seeds, under `-m soak`): the
public board, one seat's own board (a different seat each time, so every seat's picture is
drawn), and the turn card. `renders.common` notes every text
it cuts; the test asserts none was.
"""

from __future__ import annotations

import pytest

from renders import render_board, render_turn_card
from renders.common import distinct_initials, reset_truncations, truncations
from renders.presence import _initials as presence_initials
from tests.renders.cardviews import every_table, names_for, sampled_states, with_turn

TABLES = every_table()


IDS = [f"{g}-{m}-{n}p" for g, m, n in TABLES]


@pytest.mark.parametrize(("name", "mode", "n"), TABLES, ids=IDS)
def test_whole_games_draw_without_cutting_a_word(name: str, mode: str, n: int) -> None:
    _draw_whole_game(name, mode, n, seed=11, every=25)


@pytest.mark.soak
@pytest.mark.parametrize("seed", [23, 47])
@pytest.mark.parametrize(("name", "mode", "n"), TABLES, ids=IDS)
def test_whole_games_draw_without_cutting_a_word_soak(name: str, mode: str, n: int,
                                                      seed: int) -> None:
    _draw_whole_game(name, mode, n, seed=seed, every=5)


def _draw_whole_game(name: str, mode: str, n: int, seed: int, every: int) -> None:
    cut: list[str] = []
    drawn = 0
    for k, (game, state, seats) in enumerate(sampled_states(name, mode, n, seed, every)):
        names = names_for(seats)
        reset_truncations()
        render_board(name, with_turn(game, state, game.view(state, None), names))
        seat = seats[k % len(seats)]
        seat_view = game.view(state, seat)
        seat_view["names"] = names
        render_board(name, seat_view)
        render_turn_card(name, with_turn(game, state, game.view(state, None), names))
        cut += [f"sample {k}: {t}" for t in truncations()]
        drawn += 1
    assert drawn >= 2
    assert not cut, "text cut with …:\n" + "\n".join(dict.fromkeys(cut))


def test_the_cut_report_notices_a_cut() -> None:
    """The report the test above relies on does record a cut."""
    from PIL import Image, ImageDraw

    from renders.common import draw_text, font

    reset_truncations()
    d = ImageDraw.Draw(Image.new("RGB", (50, 20)))
    draw_text(d, (0, 0), "Suffering (Spiritual) of the manor", font(16), (255, 255, 255),
              max_width=40)
    assert truncations() == ["Suffering (Spiritual) of the manor"]
    assert reset_truncations() == 1 and truncations() == []


def test_an_ai_players_pawn_reads_its_name_not_ai() -> None:
    """Stop 64's demo: with one AI seat its pawn read "AI" (the thread: "AI Shade")."""
    from renders.common import telling_words

    assert telling_words({"s1": "Ada", "s2": "AI Shade"}) == {"s1": "Ada", "s2": "Shade"}
    assert telling_words({"s1": "AI Moth", "s2": "AI Shade", "s3": "Ada Lovelace"}) == {
        "s1": "Moth", "s2": "Shade", "s3": "Ada"}
    assert telling_words({"s1": "AI"}) == {"s1": "AI"}  # a player named just that


def test_descendant_and_detective_pawns_differ() -> None:
    labels = distinct_initials(["The Descendant", "The Detective", "The Medium"],
                               presence_initials)
    assert labels["The Descendant"] != labels["The Detective"]
    assert len(set(labels.values())) == 3
    assert labels["The Medium"] == "Me"  # no clash, the usual initials


def test_every_characters_pawn_label_is_distinct_in_each_game() -> None:
    """Every character a pack can deal, all on one board: all labels differ."""
    from renders import exorcism, fourth_wall, presence
    from rules.exorcism.engine import pack_for as ex_pack
    from rules.fourth_wall.engine import pack_for as fw_pack
    from rules.presence.engine import pack_for as pr_pack

    packs = {
        "exorcism": ([c.name for c in ex_pack(None).characters], exorcism._initials),
        "fourth_wall": ([c.name for c in fw_pack(None).investigators], fourth_wall._initials),
        "presence": ([c.name for c in pr_pack(None).visitors], presence._initials),
    }
    for game, (names, initials) in packs.items():
        labels = distinct_initials(names, initials)
        assert len(set(labels.values())) == len(set(names)), (game, labels)
