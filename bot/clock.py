"""Discord's time as the bot can tell it: its own clock, or the newest snowflake Discord sent if
that is later. A host clock running behind Discord's would make a press replayed after an
outage look fresh (stop 69), and old messages young; ages are measured against this clock.
One per bot (`clock_of`), fed by the table's delivery and read wherever an age is judged."""

from __future__ import annotations

import time
from typing import Any

import discord

from bot.perbot import one_per_bot


class DiscordClock:
    """The newest time a snowflake showed, and now by it."""

    def __init__(self) -> None:
        self._seen = 0.0

    def saw(self, snowflake: int) -> None:
        """Note Discord's time as `snowflake` (an interaction's or a message's id) shows it."""
        self._seen = max(self._seen, discord.utils.snowflake_time(snowflake).timestamp())

    def now(self) -> float:
        return max(time.time(), self._seen)


def clock_of(bot: Any) -> DiscordClock:
    """`bot`'s clock (made on first use)."""
    return one_per_bot(bot, "_discord_clock", DiscordClock)
