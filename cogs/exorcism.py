"""`/exorcism …`: the Exorcism's actions as slash commands with autocomplete.

Each subcommand is a family of action kinds from `rules.exorcism.actions.COMMAND_OF_KIND`;
the choices are exactly the caller's `legal_actions` of that family. Prompt answers (a
Lookout to rescue, a tool to give, a Terror target) come as buttons on the board or under
**My choices**, and `/exorcism answer` offers them for typists. `nudge` and `flag` are every
game's (`cogs.utils.talk`); `end` ends a turn as in every game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from discord.ext import commands

from cogs.utils.gamecog import Family, families_from, make_group
from cogs.utils.lifecycle import attach
from rules.exorcism.actions import COMMAND_OF_KIND, GHOST_PHASE_KINDS, PROMPT_ANSWERS

if TYPE_CHECKING:
    from bot.client import GameBot

HELP: dict[str, str] = {
    "move": "Move your pawn up to 2 rooms, never into or through a ghost",
    "purify": "Remove a Darkness token from your room",
    "trade": "Give or take Tools with an investigator next to you or in your room",
    "room": "Use your room's Action",
    "task": "Complete a Task you hold by spending its Tools",
    "plan": "Play a Plan card (a free action, any time)",
    "ability": "Use your Character's or an Ongoing Task's Action",
    "pickup": "Pick up Tools dropped in your room",
    "unlock": "Unlock the Locked Room you stand in",
    "end": "End your turn",
}


def families() -> list[Family]:
    haunt = Family("haunt", "Ghost player: play the Haunt phase (One vs All)",
                   frozenset(GHOST_PHASE_KINDS))
    return families_from(COMMAND_OF_KIND, PROMPT_ANSWERS, HELP, (haunt,))


class Exorcism(commands.Cog):
    """The Exorcism at the House of Monkton Falls."""

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot


async def setup(bot: GameBot) -> None:
    attach(bot)  # start-up and shut-down work (cogs.utils.lifecycle)
    await bot.add_cog(Exorcism(bot))
    bot.tree.add_command(make_group("exorcism", "The Exorcism at the House of Monkton Falls",
                                    families()))
