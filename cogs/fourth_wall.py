"""`/fourthwall …`: I Am the Fourth Wall's actions, for Investigators and the Wall player
alike.

Each subcommand is a family of action kinds from `rules.fourth_wall.actions.COMMAND_OF_KIND`
with autocomplete from the caller's `legal_actions`; the engine decides who may use which.
Prompt answers come as buttons (for the Wall player's hidden choices, only under
**My choices**) and through `/fourthwall answer`. `end` ends an Investigator's or the Wall's turn;
`nudge` and `flag` are every game's (`cogs.utils.talk`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from discord.ext import commands

from cogs.utils.gamecog import Family, families_from, make_group
from cogs.utils.lifecycle import attach
from rules.fourth_wall.actions import COMMAND_OF_KIND, PROMPT_ANSWERS

if TYPE_CHECKING:
    from bot.client import GameBot

HELP: dict[str, str] = {
    "search": "Investigator: draw Marbles",
    "intervene": "Investigator: Intervene against a Horror on the Streets",
    "utilise": "Investigator: Utilise a Marble",
    "give": "Investigator: give Marbles to another Investigator",
    "trade": "Investigator: trade Marbles with another Investigator",
    "regroup": "Investigator: Regroup",
    "close": "Investigator: Close a Gate with one of each Symbol",
    "exploit": "Investigator: Exploit the Rift (adds Doom)",
    "unique": "Investigator: your Unique Action (once a turn)",
    "react": "Play a reaction (Holy Symbol, Adrenaline…) now",
    "wrath": "Wall: a Wrath turn",
    "brood": "Wall: a Brood turn",
    "delve": "Wall: Delve",
    "manifest": "Wall: Manifest a Horror from your hand",
    "trigger": "Wall: Trigger a Horror (and Drain it)",
    "destroy": "Wall: Destroy a Marble",
    "power": "Wall: your Unique Action (after An Eye Opens)",
    "end": "End your turn (an Investigator's or the Wall's)",
}


def families() -> list[Family]:
    return families_from(COMMAND_OF_KIND, PROMPT_ANSWERS, HELP)


class FourthWall(commands.Cog):
    """I Am the Fourth Wall."""

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot


async def setup(bot: GameBot) -> None:
    attach(bot)  # start-up and shut-down work (cogs.utils.lifecycle)
    await bot.add_cog(FourthWall(bot))
    bot.tree.add_command(make_group("fourth_wall", "I Am the Fourth Wall", families()))
