"""The stats picture on Discord (issue #24, item 5): a `StatsPicture` as an upload with its
alt text, drawn in the render worker so the event loop never draws, and its figures as words.

API (for `/game stats` and anything else that shows a record):

- `await stats_file(bot, model, filename=STATS_FILE) -> discord.File | None`: the picture
  (`renders/stats.py`) drawn by `bot.renderpool.render_stats` in the render worker (in a thread
  only if the worker died), shrunk under the bot's upload limit, carrying
  `renders.statswords.stats_alt_text(model)` as its description. None when it could not be
  drawn: the message goes without it, since `stats_text` says the same figures.
- `stats_text(model) -> str`: `renders.statswords.stats_words(model)` made safe for message
  content (names' markdown and mentions escaped; 1,800 characters before escaping).

Build the model from `renders.statswords` (`StatsPicture`, `RoleBar`, `RatingLine`,
`RatingPoint`): that module has no Pillow, so the bot's process imports no drawing code.
"""

from __future__ import annotations

import asyncio
import io
import logging
from typing import TYPE_CHECKING

import discord

from bot import renderpool
from cogs.utils.table.posts import _shrink_png
from cogs.utils.table.words import escape_name
from renders.statswords import StatsPicture, stats_alt_text, stats_words

if TYPE_CHECKING:
    from bot.client import GameBot

__all__ = ["STATS_FILE", "stats_file", "stats_text"]

log = logging.getLogger(__name__)

STATS_FILE = "stats.png"


async def stats_file(bot: GameBot, model: StatsPicture,
                     filename: str = STATS_FILE) -> discord.File | None:
    """The stats picture of `model` as an upload with its alt text, or None when it could not
    be drawn (logged; the words carry every figure)."""
    try:
        data = await renderpool.render_stats(model.model_dump(mode="json"))
    except Exception:  # a failed picture must not keep the figures from the player
        log.exception("the stats picture of %r could not be drawn", model.subject)
        return None
    limit = bot.settings.max_image_bytes
    if len(data) > limit:
        data = await asyncio.to_thread(_shrink_png, data, limit)
    return discord.File(io.BytesIO(data), filename=filename, description=stats_alt_text(model))


def stats_text(model: StatsPicture) -> str:
    """The picture's figures as message lines, names escaped so they read literally."""
    return escape_name(stats_words(model))
