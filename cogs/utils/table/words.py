"""How the table names its players (escaped for message text) and guides a guided table."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.storage import GameRecord
from rules.core.game import Game

if TYPE_CHECKING:
    pass

log = logging.getLogger(__name__)


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


def is_guided(record: GameRecord, game: Game[Any, Any]) -> bool:
    """Whether the table plays guided (the `guided` option; on for a first game)."""
    try:
        return game.guided(game.options_model.model_validate(record.options))
    except ValueError:
        return False


def guide_lines(record: GameRecord, game: Game[Any, Any], state: Any, awaited: list[str],
                users: dict[str, int | None], plain: bool) -> list[str]:
    """Guided play: what each awaited player can do now and why, under the board. Public-safe
    (`guide_text` explains the kind of decision, never a hidden card); none for AI seats."""
    if not is_guided(record, game):
        return []
    lines = []
    for seat in awaited:
        if not users.get(seat):
            continue
        hint = game.guide_text(state, seat)
        if hint:
            lines.append(hint if plain else f"💡 {hint}")
    return list(dict.fromkeys(lines))
