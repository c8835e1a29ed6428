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
    with pytest.raises(OptionsError, match="no option `colour`"):
        parse_options(HIGHCARD, None, "colour=red")
    with pytest.raises(OptionsError, match="key=value"):
        parse_options(HIGHCARD, None, "rounds")
    with pytest.raises(OptionsError, match="no mode"):
        parse_options(HIGHCARD, "blitz", None)


def test_server_only_options_are_not_settable_from_the_lobby() -> None:
    exorcism = GAMES["exorcism"]
    assert "pack_path" not in option_fields(exorcism)
    with pytest.raises(OptionsError, match="no option `pack_path`"):
        parse_options(exorcism, "core", "pack_path=/etc")
    assert parse_options(exorcism, "one_vs_all", "ghost_seat=1")["ghost_seat"] == 1
