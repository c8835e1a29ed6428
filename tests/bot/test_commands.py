"""The slash commands the bot registers, counted as Discord's `/` picker lists them (issue #22
part 5: the picker showed 101 subcommands, old names beside new ones).

The bot is built and its cogs loaded exactly as at start-up, without connecting: the tree it
would sync is the one tested here.
"""

from __future__ import annotations

from itertools import combinations
from pathlib import Path
from typing import Any

import pytest
from discord import app_commands

from bot.client import COGS, GameBot, build_bot
from bot.settings import Settings

MOST_SUBCOMMANDS = 80
"""Discord's picker lists every leaf command; past this many a player scrolls through a list
too long to read (issue #22's target was 75; issue #24 added `/game mine` and `/game record`,
`/game history`, `/game stats` and `/game privacy`, the server's ratings being an option of
`/game settings`; P-DISCORD-05 added `/presence voice`, a Presence table's own, kept out of
every game's `/game settings`)."""

GAME_GROUPS = {"exorcism": "exorcism", "fourthwall": "fourth_wall", "presence": "presence"}
"""The group of each game, named as players say it, and the game it plays."""

EVERY_GAME = ("end", "answer", "nudge", "flag")
"""The same intent, the same word in every game's group."""


def _leaves(bot: GameBot) -> list[app_commands.Command[Any, ..., Any]]:
    return [c for c in bot.tree.walk_commands() if isinstance(c, app_commands.Command)]


@pytest.fixture
async def bot(tmp_path: Path) -> GameBot:
    # Built, never started: nothing is opened, so nothing needs closing.
    built = build_bot(Settings(  # type: ignore[call-arg]
        _env_file=None, discord_token="t", database_path=tmp_path / "db.sqlite3"))
    for module in COGS:
        await built.load_extension(module)
    return built


async def test_the_picker_lists_at_most_80_commands(bot: GameBot) -> None:
    names = [c.qualified_name for c in _leaves(bot)]
    assert len(names) == len(set(names))
    assert len(names) <= MOST_SUBCOMMANDS, (len(names), names)


async def test_one_group_per_game_and_no_old_names(bot: GameBot) -> None:
    """`/fw` was the Fourth Wall's old group: every game has one group, under its own name."""
    top = {c.name for c in bot.tree.get_commands()}
    assert top == {"game", "help", *GAME_GROUPS}, top
    for name in GAME_GROUPS:
        group = bot.tree.get_command(name)
        assert isinstance(group, app_commands.Group), name
        subs = {c.name for c in group.commands}
        assert set(EVERY_GAME) <= subs, (name, subs)
        assert "pass" not in subs, name  # `end`'s old name


async def test_no_two_commands_play_the_same_action(bot: GameBot) -> None:
    """Two subcommands of a game that play the same action kinds are one action under two
    names (as `/exorcism pass` beside `/exorcism end` was)."""
    for name in GAME_GROUPS:
        group = bot.tree.get_command(name)
        assert isinstance(group, app_commands.Group)
        plays = {c.name: frozenset(c.extras["kinds"]) for c in group.commands
                 if "kinds" in c.extras}
        assert {"end", "answer"} <= set(plays), (name, sorted(plays))
        for (a, kinds_a), (b, kinds_b) in combinations(plays.items(), 2):
            assert not kinds_a & kinds_b, f"/{name} {a} and /{name} {b} both play " \
                f"{sorted(kinds_a & kinds_b)}"


async def test_a_game_group_repeats_no_game_command(bot: GameBot) -> None:
    """What every game shares lives once, under `/game` (`/game rules` is the rules lookup
    for every game; a `/presence rules` beside it was the same lookup twice)."""
    game = bot.tree.get_command("game")
    assert isinstance(game, app_commands.Group)
    shared = {c.name for c in game.commands}
    assert "rules" in shared
    for name in GAME_GROUPS:
        group = bot.tree.get_command(name)
        assert isinstance(group, app_commands.Group)
        repeated = shared & {c.name for c in group.commands}
        assert not repeated, (name, repeated)
