"""Event-loop lag probe: how late the bot's asyncio loop wakes a task that asked to sleep.

Every interaction the bot acknowledges, every board it posts and every heartbeat it sends runs
on one event loop; anything that holds the loop (a render or a JSON parse done inline, a
blocking call) delays all of them at once. The probe sleeps `interval` seconds in a loop and
records how much later than asked it woke: that lateness is exactly how long any other
coroutine could have been kept waiting. The bot can run it in production and log stalls
(`warn_ms`); the benchmarks read its `summary()`; a move's held answer reads `recent_ms()`
(the worst lateness of the last moment, a stall under way included) to decide whether the loop
can afford to keep it open (cogs/utils/answers.py).

`freeze_startup_heap` keeps full garbage collections, the one stall the bot's own code
cannot avoid by going off the loop, short.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import importlib
import logging
import time
from collections import deque
from collections.abc import Iterable

from pydantic import BaseModel

log = logging.getLogger(__name__)


class LagSummary(BaseModel):
    """Lateness of the probe's wake-ups over its run, in milliseconds."""

    samples: int
    median_ms: float
    p99_ms: float
    max_ms: float
    over_20ms: int
    """Wake-ups more than 20 ms late (the bot's stall target)."""
    seconds: float


def _pct(ordered: list[float], p: float) -> float:
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


class LoopLagProbe:
    """Measures event-loop stalls from inside the loop (start it in the loop it watches)."""

    def __init__(self, interval: float = 0.005, warn_ms: float | None = None,
                 keep: int = 200_000) -> None:
        self.interval = interval
        self.warn_ms = warn_ms
        self.keep = keep
        self.lags_ms: list[float] = []
        self._task: asyncio.Task[None] | None = None
        self._began = 0.0
        self._ended: float | None = None
        self._woke = 0.0
        # (when it woke, how late in ms): the last moment's wake-ups, for `recent_ms`.
        self._recent: deque[tuple[float, float]] = deque(maxlen=max(8, int(2.0 / interval)))

    def start(self) -> LoopLagProbe:
        if self._task is None:
            self._began = time.perf_counter()
            self._ended = None
            self._task = asyncio.get_running_loop().create_task(self._run(),
                                                                name="loop-lag-probe")
        return self

    async def stop(self) -> LagSummary:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
            self._ended = time.perf_counter()
        return self.summary()

    def reset(self) -> None:
        """Forget what was measured so far (e.g. after start-up, before the part that counts)."""
        self.lags_ms.clear()
        self._began = time.perf_counter()

    def recent_ms(self, window: float = 1.0) -> float:
        """The worst lateness of the last `window` seconds, in ms, counting a stall under way
        (the probe is overdue now: whoever asks runs on the same loop, so it only sees one
        that some other callback is still holding when its own turn came late)."""
        now = time.perf_counter()
        worst = max((late for when, late in self._recent if now - when <= window), default=0.0)
        if self._task is not None and self._woke:
            worst = max(worst, (now - self._woke - self.interval) * 1000)
        return max(0.0, worst)

    def typical_ms(self, window: float = 1.0) -> float:
        """The mean lateness of the last `window` seconds, in ms: how slow the loop is on the
        whole, which one long pause (a full garbage collection) hardly moves."""
        now = time.perf_counter()
        recent = [late for when, late in self._recent if now - when <= window]
        return sum(recent) / len(recent) if recent else 0.0

    async def _run(self) -> None:
        self._woke = time.perf_counter()
        while True:
            asked = time.perf_counter()
            await asyncio.sleep(self.interval)
            self._woke = time.perf_counter()
            late_ms = max(0.0, (self._woke - asked - self.interval) * 1000)
            self._recent.append((self._woke, late_ms))
            if len(self.lags_ms) < self.keep:
                self.lags_ms.append(late_ms)
            if self.warn_ms is not None and late_ms > self.warn_ms:
                log.warning("event loop stalled %.1f ms", late_ms)

    def summary(self) -> LagSummary:
        ordered = sorted(self.lags_ms)
        end = self._ended if self._ended is not None else time.perf_counter()
        return LagSummary(
            samples=len(ordered),
            median_ms=round(_pct(ordered, 50), 3),
            p99_ms=round(_pct(ordered, 99), 3),
            max_ms=round(ordered[-1], 3) if ordered else 0.0,
            over_20ms=sum(1 for x in ordered if x > 20.0),
            seconds=round(end - self._began, 3),
        )


def freeze_startup_heap(modules: Iterable[str] = ()) -> int:
    """Import `modules`, collect, then move every object alive now into the collector's
    permanent generation; returns how many objects were frozen.

    Call once at start-up, before the bot connects. Modules, pydantic schemas, content and
    fonts live as long as the process, yet every full collection walked them all: with the
    bot's ~90,000 start-up objects a full collection stalled the loop for 0.7 s on a busy
    machine (bench: "gc pause, generation 2"). Frozen, they are never walked again.
    """
    for name in modules:
        importlib.import_module(name)
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()
