"""One object per bot, made on first use: the bot's clock (`bot.clock`) and its load gauge
(`bot.pressure`) live on the bot itself, so every cog and helper holding the bot finds the
same one without wiring (tests pass stand-in bots)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


def one_per_bot(bot: Any, attr: str, make: Callable[[], T]) -> T:
    """`bot`'s object kept at `attr`, made by `make` the first time it is asked for."""
    found: T | None = getattr(bot, attr, None)
    if found is None:
        found = make()
        setattr(bot, attr, found)
    return found
