"""`/presence …`: The Presence's actions for visitors and the spirit, with autocomplete.

Each subcommand is a family of action kinds from `rules.presence.actions.COMMAND_OF_KIND`;
the engine decides who may use which (quick actions also off-turn). Every mid-effect choice
(a coloured choice, accepting a bond, a discard, a reaction) comes as buttons for exactly the
seat that must answer — under **My choices** whenever it would name hidden cards — and
through `/presence answer`.

Strict table talk (the game option `strict_table_talk`, P-DISCORD-04): a message posted (or
edited) in the
game's thread by a seated player whose speech is not `free` at that moment (the engine's
public `table_talk`, P-DISCORD-01) is deleted, and its author is told by DM which rule applies
and what they can still do. The bot needs only who posted where — never the text.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.tables import TableError
from cogs.utils.errors import reply
from cogs.utils.gamecog import families_from, make_group
from cogs.utils.table import delivery_for, play
from rules.core.types import Action
from rules.presence.actions import COMMAND_OF_KIND, PROMPT_ANSWERS, SPEAK
from rules.presence.engine import Engine
from rules.presence.state import PresenceState

if TYPE_CHECKING:
    from bot.client import GameBot

HELP: dict[str, str] = {
    "rest": "Visitor: Rest",
    "walk": "Visitor: Walk one movement point",
    "play": "Visitor: play an action card from your hand",
    "item": "Visitor: use an item",
    "room": "Visitor: use your room's action (or Uncover, with the Secret Chamber)",
    "ability": "Visitor: use your character's ability",
    "trade": "Visitor: give clue or item cards (quick action)",
    "smother": "Visitor: smother your candle (quick action)",
    "pickup": "Visitor: take a succumbed visitor's item (quick action)",
    "end": "End your turn (visitor or spirit)",
    "die": "Spirit: move a Presence die",
    "increase": "Spirit: increase presence by discarding a spirit card",
    "spiritcard": "Spirit: play a spirit card",
    "pawn": "Spirit: an action of the manifested spirit pawn",
    "whisper": "Spirit (True Horror): have the bot post one of the set atmospheric lines",
}


log = logging.getLogger(__name__)

# Player talk; every other message type (thread created, pins, ...) is Discord's own.
TALK_TYPES = (discord.MessageType.default, discord.MessageType.reply)

STILL_YOURS = (
    "While you may not talk, you can still play: buttons, **My choices** and `/presence` "
    "commands are not talk (P-DISCORD-10); the board already describes every action and says "
    "whose turn it is (P-COMM-05); `/game rules` answers rules questions privately. Each "
    "board post says who is alone and whether table talk is allowed."
)


def silence_reason(state: PresenceState, seat: str) -> str | None:
    """Why `seat` may not talk at the table now, naming the rule; None when it may
    (speech `free`, P-DISCORD-01). Public information only: it goes to the author by DM."""
    spirit_mute = "the spirit may never communicate unless a game effect allows it (P-COMM-09)"
    if len(state.visitors) < len(state.visitor_seats):
        # Setup: characters are still being chosen, so nobody is alone yet; only the spirit
        # is mute, as always.
        return spirit_mute if seat == state.spirit_seat else None
    eng = Engine(state)
    talk = eng.table_talk()
    if talk["speech"].get(seat, "free") == "free":
        return None
    if seat == state.spirit_seat:
        if state.true_horror:
            return (f"{spirit_mute}; in True Horror it may have the bot post an atmospheric "
                    "line with `/presence whisper` on its turn (P-HORROR-02)")
        return spirit_mute
    if not talk["allowed"]:
        return str(talk["why"])
    if state.visitors[seat].succumbed:
        return ("a succumbed character speaks with a ghostly voice only to a visitor within "
                "hearing, and none is within hearing of yours (P-COMM-10)")
    if state.true_horror:
        return (f"{eng.name(seat)} is alone, and in True Horror nobody talks on any topic "
                "while alone (P-HORROR-01)")
    return (f"{eng.name(seat)} is alone — no other visitor is within hearing — so you may "
            "not communicate (P-COMM-04)")


class Presence(commands.Cog):
    """The Presence."""

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        """Strict table talk: remove what a seated player says while they may not talk."""
        await self.police(message, edited=False)

    @commands.Cog.listener()
    async def on_raw_message_edit(self, payload: discord.RawMessageUpdateEvent) -> None:
        """An edit is talk too (P-DISCORD-04), judged at the moment it is made. Discord also
        sends updates when link previews load: those carry no edit time and are no talk."""
        if payload.data.get("edited_timestamp"):
            await self.police(payload.message, edited=True)

    async def police(self, message: discord.Message, *, edited: bool) -> None:
        # Games live in threads; a thread missing from the cache arrives as a partial channel.
        if (message.author.bot or message.guild is None or message.type not in TALK_TYPES
                or isinstance(message.channel, discord.TextChannel)):
            return
        record = await self.bot.storage.find_game_by_thread(message.channel.id)
        if (record is None or record.game != "presence" or record.status != "active"
                or not record.options.get("strict_table_talk")):
            return
        seat = await self.bot.tables.seat_of(record.id, message.author.id)
        if seat is None:
            return
        # Judge against the board the author saw: under the game's delivery lock the stored
        # state and the newest board post agree, and a message older than that board was
        # written under an earlier state, so it gets the benefit of the doubt.
        async with delivery_for(self.bot).lock(record.id):
            current = await self.bot.storage.get_game(record.id)
            if current is None or current.status != "active":
                return
            if (not edited and current.board_message_id
                    and message.id < current.board_message_id):
                return
            state = await self.bot.tables.state(record.id)
            reason = (silence_reason(state, seat) if isinstance(state, PresenceState)
                      else None)
            if reason is None:
                return
            try:
                await message.delete()
                removed = True
            except discord.NotFound:
                removed = True
            except discord.HTTPException:
                log.warning("strict table talk: cannot delete message %s in game %s (is "
                            "Manage Messages missing?)", message.id, record.id)
                removed = False
        what = "your edited message" if edited else "your message"
        where = f"<#{message.channel.id}>"
        head = (f"🤫 I removed {what} in {where}: **The Presence** (game #{record.id}) "
                if removed else
                f"🤫 Please take back {what} in {where}: **The Presence** (game "
                f"#{record.id}) ")
        await delivery_for(self.bot).dm(
            message.author.id,
            f"{head}plays with strict table talk, and right now {reason}.\n{STILL_YOURS}")


async def speak(interaction: discord.Interaction[Any], words: str) -> None:
    """`/presence speak words:…` — the spirit says what an effect allows (P-DISCORD-08): the
    engine checks the grant, the word limit and the vocabulary; the bot posts the words."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    bot: GameBot = interaction.client  # type: ignore[assignment]
    channel = interaction.channel
    record = await bot.storage.find_game_by_thread(channel.id) if channel else None
    if record is None or record.game != "presence" or record.status != "active":
        raise TableError("Run this in the thread of a Presence game you are playing.")
    state = await bot.tables.state(record.id)
    await play(interaction, record, Action(kind=SPEAK, params={"words": words}),
               expected_version=state.step)
    await reply(interaction, "The table hears you.")


def speak_command() -> app_commands.Command[Any, Any, Any]:
    command: app_commands.Command[Any, Any, Any] = app_commands.Command(
        name="speak", description="Spirit: say the few words an effect allows (P-DISCORD-08)",
        callback=speak)
    command._params["words"].description = "Up to the effect's word limit, plain words only"
    return command


async def setup(bot: GameBot) -> None:
    await bot.add_cog(Presence(bot))
    group = make_group("presence", "The Presence",
                       families_from(COMMAND_OF_KIND, PROMPT_ANSWERS, HELP))
    group.add_command(speak_command())
    bot.tree.add_command(group)
