"""How the table names its players (escaped for message text) and guides a guided table
(guided play itself lives in `cogs.utils.guide`; its names are re-exported here)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord

from cogs.utils.guide import guide_lines, is_guided

if TYPE_CHECKING:
    pass

log = logging.getLogger(__name__)

__all__ = ["AI_NAME", "escape_name", "guide_lines", "is_guided"]


AI_NAME = "AI"
"""How an AI seat is named where no seat is meant ("AI players"); each AI seat has its own
name, `bot.tables.ai_seat_name` ("AI Shade (the Medium)")."""


def escape_name(name: str) -> str:
    """A player's display name as message text must carry it to read literally (issue #20):
    Discord renders markdown and mentions in content and embeds, so a player named
    `[x](https://evil)`, `**Ada**`, `||Ada||` or `@everyone` would otherwise become a masked
    link, bold, a spoiler or a ping in every post that names them. Markdown is escaped,
    mention syntax broken (a zero-width space after `@`), and `<` escaped so `<#…>`, `<t:…>`
    and `<:emoji:…>` stay text; a masked link loses both its brackets' and its parenthesis'
    meaning. For text only: pictures (Pillow draws the characters), alt text and button labels
    (plain text on Discord) take the name as it is (`Delivery.plain`)."""
    text = discord.utils.escape_markdown(name)
    text = discord.utils.escape_mentions(text)
    return text.replace("<", "\\<").replace("](", "]\\(")
