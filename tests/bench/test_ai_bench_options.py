"""`python -m bench ai`'s table and pack options (issue #23): a house rule a balance note
proposes (rules/fourth_wall/rules.md, FW-AI-01) is measured on the shipped pack with one option
changed, and a misspelt option is refused rather than silently measuring the book."""

from __future__ import annotations

import pytest

from bench.ai import table_options
from bench.fourth_wall_ai import variant_pack
from rules.fourth_wall.engine import Engine
from tests.fourth_wall.helpers import new_game


def test_a_pack_option_changes_the_wall_s_doom_and_nothing_else() -> None:
    book = new_game("conflict", 4, 1)
    house = new_game("conflict", 4, 1, pack_path=variant_pack({"wrath_doom": "2"}))
    # The Wall's first turn is a Wrath (no Brood on it, FW-WALL-02): 1 + 1 by the book,
    # 2 + 1 with the house rule; the deal is the same.
    assert (book.phase, book.doom) == ("wall", 2)
    assert (house.phase, house.doom) == ("wall", 3)
    assert Engine(house).opts.wrath_doom == 2 and Engine(house).opts.brood_doom == 1
    assert [i.hand for i in house.investigators] == [i.hand for i in book.investigators]
    assert house.wall_hand == book.wall_hand


def test_a_misspelt_pack_option_is_refused() -> None:
    with pytest.raises(ValueError, match="wrath_dom"):
        variant_pack({"wrath_dom": "2"})


def test_table_options_go_only_to_games_that_have_them() -> None:
    fw = table_options("fourth_wall", {"gates": 4}, {"wrath_doom": "2"})
    assert fw["gates"] == 4 and Engine(new_game("conflict", 4, 1, **fw)).opts.wrath_doom == 2
    assert "gates" not in table_options("presence", {"gates": 4}, {"wrath_doom": "2"})
    assert "pack_path" not in table_options("presence", {}, {"wrath_doom": "2"})
