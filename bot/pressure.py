"""How busy the bot is right now: the event loop's recent lag and the work queued behind it.

Discord's 3 seconds for an answer run from the moment the player pressed or typed, whatever the
bot is doing. A move may hold its answer open to carry its result (cogs/utils/answers.py), but
only while the bot can afford it: a loop that wakes its tasks late, or a pile of moves, boards
and renders waiting, means the result will be late and the answer must not wait for it. Work
that can wait (reminders, late pings) waits here too while the bot is busy, so answers go first.

`LoadGauge` is one per bot (`gauge_of`): it runs a light loop-lag probe (`bot.looplag`) in the
bot's loop and reads the queues the layers above register (`count`): moves waiting on a game's
lock, boards waiting to be shown, answers held open; renders waiting for the render worker it
reads itself (`bot.renderpool.queued`).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

from bot import renderpool
from bot.looplag import LoopLagProbe
from bot.perbot import one_per_bot

PROBE_INTERVAL = 0.025
"""The gauge's probe period: 40 wake-ups a second, a few microseconds each."""

BUSY_LAG_MS = 20.0
"""Typical (mean) loop lag of the last second past which the bot is busy: every step of a
move's result (storage, the render's answer, the request) wakes this late, several times
over. One long pause (a garbage collection) hardly moves a mean; a starved CPU does."""

BUSY_DEPTH = 24
"""Queued work (moves waiting on game locks, boards waiting, renders waiting, answers held)
past which the bot is busy: the results of the moves arriving now wait behind all that."""

SWAMPED_LAG_MS = 150.0
"""Typical loop lag past which nothing is held at all: every answer goes out at once."""


class Pressure(BaseModel):
    """What the gauge read at one moment."""

    lag_ms: float
    """The worst loop lag of the last second, a stall under way included: what a deadline
    must allow for."""
    typical_lag_ms: float = 0.0
    """The mean loop lag of the last second: how slow the loop is on the whole."""
    queued: dict[str, int]
    """Work waiting, by kind (`moves`, `boards`, `renders`, `held`, `ai`: games whose AI
    seats are deciding)."""

    @property
    def depth(self) -> int:
        return sum(self.queued.values())

    @property
    def busy(self) -> bool:
        """Whether results come late now: answers don't wait for them, work that can wait
        waits."""
        return self.typical_lag_ms >= BUSY_LAG_MS or self.depth >= BUSY_DEPTH

    @property
    def swamped(self) -> bool:
        """Whether the loop itself is too slow to keep anything open."""
        return self.typical_lag_ms >= SWAMPED_LAG_MS


class LoadGauge:
    """The bot's recent loop lag and queue depth (start it in the loop it watches)."""

    def __init__(self, interval: float = PROBE_INTERVAL) -> None:
        self.probe = LoopLagProbe(interval=interval, keep=0)
        self.counters: dict[str, Callable[[], int]] = {"renders": renderpool.queued}
        self.fake: Pressure | None = None
        """Set by tests: what `read` returns instead of measuring."""

    def count(self, kind: str, counter: Callable[[], int]) -> None:
        """Register a queue to read: `counter()` is how much `kind` of work waits now."""
        self.counters[kind] = counter

    def read(self) -> Pressure:
        if self.fake is not None:
            return self.fake
        self.probe.start()  # started on first use, in the loop that asks
        return Pressure(lag_ms=round(self.probe.recent_ms(), 1),
                        typical_lag_ms=round(self.probe.typical_ms(), 1),
                        queued={kind: counter() for kind, counter in self.counters.items()})

    async def calm(self, at_most: float, step: float = 0.5) -> None:
        """Wait while the bot is busy, for `at_most` seconds at most: what can wait goes
        after the answers and boards queued now."""
        until = time.monotonic() + at_most
        while self.read().busy and time.monotonic() < until:
            await asyncio.sleep(step)

    async def stop(self) -> None:
        await self.probe.stop()


def gauge_of(bot: Any) -> LoadGauge:
    """`bot`'s gauge (made on first use)."""
    return one_per_bot(bot, "_load_gauge", LoadGauge)
