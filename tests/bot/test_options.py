"""Lobby options as players type them (bot/options.py)."""

from __future__ import annotations

import pytest

from bot.options import OptionsError, option_fields, parse_options
from rules.registry import GAMES
from tests.tinygame import GAME as HIGHCARD


def test_options_parse_and_validate() -> None:
    assert parse_options(HIGHCARD, None, "rounds=2") == {"mode": "standard", "rounds": 2}
    with pytest.raises(OptionsError, match="rounds"):
        parse_options(HIGHCARD, None, "rounds=9")
    with pytest.raises(OptionsError, match=r"no option by that name.*`colour`"):
        parse_options(HIGHCARD, None, "colour=red")
    with pytest.raises(OptionsError, match="key=value"):
        parse_options(HIGHCARD, None, "rounds")
    with pytest.raises(OptionsError, match="no mode"):
        parse_options(HIGHCARD, "blitz", None)


def test_server_only_options_are_not_settable_from_the_lobby() -> None:
    exorcism = GAMES["exorcism"]
    assert "pack_path" not in option_fields(exorcism)
    with pytest.raises(OptionsError, match=r"no option by that name.*`pack_path`"):
        parse_options(exorcism, "core", "pack_path=/etc")
    assert parse_options(exorcism, "one_vs_all", "ghost_seat=1")["ghost_seat"] == 1


def test_option_suggestions_fit_discord_for_any_typing() -> None:
    from bot.limits import CHOICE_NAME, CHOICE_VALUE, CHOICES
    from bot.options import suggest_options
    from rules.registry import GAMES

    typings = ["", "f", "fear=", "x" * 150, "a=b " * 40, "mystery=yes " * 12 + "tr",
               "strict_table_talk=yes table_channel=channel mystery=yes unknown_threat=yes "
               "dark_board=yes secret_chamber=yes two_players=yes first_game=yes tr"]
    for game in [*GAMES.values(), HIGHCARD]:
        for typed in typings:
            out = suggest_options(game, typed)
            assert len(out) <= CHOICES
            for name, value in out:
                assert 1 <= len(name) <= CHOICE_NAME and len(value) <= CHOICE_VALUE
                try:
                    parse_options(game, None, value)  # every suggestion is accepted as it is
                except OptionsError as exc:
                    # ...unless what was typed combines variants that exclude each other
                    assert "can't make a game" in str(exc), (typed, value, exc)


def test_clip_and_excerpt() -> None:
    from bot.limits import clip, excerpt

    assert clip("abc", 3) == "abc" and clip("abcd", 3) == "ab…" and len(clip("x" * 500, 80)) == 80
    assert excerpt("y" * 2500) == "y" * 39 + "…"
    assert excerpt("a `b`\nc") == "a 'b' c"
