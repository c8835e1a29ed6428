"""A game's own channel: its topic and who may talk there."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord

if TYPE_CHECKING:
    pass

log = logging.getLogger(__name__)


TABLE_TOPIC = "A game table: only its players may post here, and only while they may talk."
TABLE_TALK = ("send_messages", "add_reactions", "use_external_emojis", "use_external_stickers",
              "send_polls")
"""What a player who may talk gets; files and links stay off for all (P-DISCORD-07)."""
TABLE_CLOSED = (*TABLE_TALK, "attach_files", "embed_links", "create_public_threads",
                "create_private_threads", "send_messages_in_threads")


async def open_table_channel(channel: discord.TextChannel, name: str) -> discord.TextChannel:
    """A new text channel next to `channel` (same category) for one game: everyone keeps
    reading as in `channel`, nobody posts but the bot. Needs Manage Channels + Manage Roles."""
    guild = channel.guild
    overwrites: dict[Any, discord.PermissionOverwrite] = {
        guild.default_role: discord.PermissionOverwrite(**dict.fromkeys(TABLE_CLOSED, False)),
        guild.me: discord.PermissionOverwrite(
            view_channel=True, send_messages=True, attach_files=True, embed_links=True,
            read_message_history=True),
    }
    return await guild.create_text_channel(
        name, category=channel.category, overwrites=overwrites, topic=TABLE_TOPIC,
        reason="a game table of its own (table_channel=channel)")


def is_table_channel(channel: Any) -> bool:
    """Whether `channel` is a game's own channel (known by its topic, without storage)."""
    return isinstance(channel, discord.TextChannel) and channel.topic == TABLE_TOPIC


def game_place(options: dict[str, Any]) -> str:
    """Where a game is played, as a player reads it: "the game's channel" for a game in its
    own channel (`table_channel=channel`), else "the game's thread"."""
    return "the game's channel" if options.get("table_channel") == "channel" \
        else "the game's thread"
