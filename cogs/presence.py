"""`/presence …`: The Presence's actions for visitors and the spirit, with autocomplete.

Each subcommand is a family of action kinds from `rules.presence.actions.COMMAND_OF_KIND`;
the engine decides who may use which (quick actions also off-turn). Every mid-effect choice
(a coloured choice, accepting a bond, a discard, a reaction) comes as buttons for exactly the
seat that must answer — under **My choices** whenever it would name hidden cards — and
through `/presence answer`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from discord.ext import commands

from cogs.utils.gamecog import families_from, make_group
from rules.presence.actions import COMMAND_OF_KIND, PROMPT_ANSWERS

if TYPE_CHECKING:
    from bot.client import GameBot

HELP: dict[str, str] = {
    "rest": "Visitor: Rest",
    "walk": "Visitor: Walk one movement point",
    "play": "Visitor: play an action card from your hand",
    "item": "Visitor: use an item",
    "room": "Visitor: use your room's action",
    "ability": "Visitor: use your character's ability",
    "trade": "Visitor: give clue or item cards (quick action)",
    "smother": "Visitor: smother your candle (quick action)",
    "pickup": "Visitor: take a succumbed visitor's item (quick action)",
    "end": "End your turn (visitor or spirit)",
    "die": "Spirit: move a Presence die",
    "increase": "Spirit: increase presence by discarding a spirit card",
    "spiritcard": "Spirit: play a spirit card",
    "pawn": "Spirit: an action of the manifested spirit pawn",
}


class Presence(commands.Cog):
    """The Presence."""

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot


async def setup(bot: GameBot) -> None:
    await bot.add_cog(Presence(bot))
    bot.tree.add_command(make_group("presence", "The Presence",
                                    families_from(COMMAND_OF_KIND, PROMPT_ANSWERS, HELP)))
