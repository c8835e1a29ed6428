"""Reminders: one dispatcher task per process over persisted per-game timers.

Each active game row carries `next_reminder_at`, `reminder_stage` and `awaited_since`. The table
service arms the timer whenever the game starts waiting for someone new (now + the game's
`reminder_hours`, stage 0) and clears it when the game ends; this dispatcher only fires due
timers and advances them. Policy per game (`GameSettings`):

- stage 0 → "dm": the bot DMs the awaited players; next after another `reminder_hours`;
- stage 1 → "ping": the bot pings them in the thread; next after 24 h;
- stage ≥2 → "daily": a ping every 24 h;
- policy "enforced": once `enforce_after_hours` have passed since the wait began, the bot plays
  each awaited human seat's rule-defined `default_action` through the table service ("enforce").

Only awaited seats are ever named, and AI seats (no user) never. Everything is read from
storage, so a restart resumes where it stopped. Each timer advance is a compare-and-set on the
game's version and stage, made *before* notifying: a move that lands meanwhile wins, and a
reminder is never sent twice (at worst one is lost in a crash).

Quiet hours and vacations (later) slot in at `_handle`: push `next_reminder_at` to the end of the
quiet window, or drop a vacationing user from `users`, before the compare-and-set.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Literal

from bot.storage import GameRecord, Storage
from bot.tables import ActResult, TableService

log = logging.getLogger(__name__)

Stage = Literal["dm", "ping", "daily", "enforce"]
Notify = Callable[[GameRecord, list[int], Stage], Awaitable[None]]
"""notify(record, awaited user ids, stage): the Discord layer sends the DM or the ping."""
Enforce = Callable[[GameRecord, ActResult], Awaitable[None]]
"""enforce(record, result): called with each default move the dispatcher played, so the cog
can post what happened and the new board."""

HOUR = 3600.0
DAILY = 24 * HOUR


def stage_name(stage: int) -> Stage:
    return "dm" if stage <= 0 else "ping" if stage == 1 else "daily"


@dataclass(frozen=True)
class Sent:
    """One reminder the dispatcher sent (returned by `run_once`, for logs and tests)."""

    game_id: int
    stage: Stage
    user_ids: list[int]


class ReminderDispatcher:
    def __init__(
        self,
        storage: Storage,
        notify: Notify,
        *,
        tables: TableService | None = None,
        enforce: Enforce | None = None,
        clock: Callable[[], float] | None = None,
        poll_seconds: float = 60.0,
        owns_guild: Callable[[int], bool] | None = None,
        batch: int = 100,
    ) -> None:
        """Pass the process's `tables` so default moves share its per-game locks (without it a
        private TableService is made; storage's version check still keeps moves whole).
        `owns_guild` limits a shard process to its own guilds' games."""
        self.storage = storage
        self.tables = tables or TableService(storage, clock=clock or time.time)
        self.notify = notify
        self.enforce = enforce
        self.clock = clock or self.tables.clock
        self.poll_seconds = poll_seconds
        self.owns_guild = owns_guild
        self.batch = batch
        self._task: asyncio.Task[None] | None = None

    # ---- lifecycle ------------------------------------------------------------------------
    def start(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run(), name="reminder-dispatcher")

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    async def _run(self) -> None:
        while True:
            try:
                await self.run_once()
            except Exception:
                log.exception("reminder pass failed")
            await asyncio.sleep(self.poll_seconds)

    # ---- one pass -------------------------------------------------------------------------
    async def run_once(self, now: float | None = None) -> list[Sent]:
        """Fire every due reminder once; returns what was sent."""
        now = self.clock() if now is None else now
        sent: list[Sent] = []
        for rec in await self.storage.due_reminders(now, self.batch):
            if self.owns_guild is not None and not self.owns_guild(rec.guild_id):
                continue
            try:
                sent.extend(await self._handle(rec, now))
            except Exception:
                log.exception("reminder for game %s failed", rec.id)
        return sent

    async def _handle(self, rec: GameRecord, now: float) -> list[Sent]:
        awaited = await self.tables.awaited(rec.id)
        if not awaited:
            await self.storage.set_reminder(rec.id, None, 0, expected_version=rec.version,
                                            expected_stage=rec.reminder_stage)
            return []
        settings = rec.settings
        since = rec.awaited_since if rec.awaited_since is not None else rec.updated_at
        enforce_at = since + settings.enforce_after_hours * HOUR
        if settings.policy == "enforced" and now >= enforce_at:
            done = await self._enforce(rec, awaited)
            if done is not None:
                return [done]
        stage = rec.reminder_stage
        name = stage_name(stage)
        next_at = now + (settings.reminder_hours * HOUR if stage == 0 else DAILY)
        if settings.policy == "enforced" and enforce_at > now:
            next_at = min(next_at, enforce_at)
        if not await self.storage.set_reminder(rec.id, next_at, stage + 1,
                                               expected_version=rec.version,
                                               expected_stage=stage):
            return []  # a move or another pass got there first
        users = [u for u in awaited.values() if u is not None]
        if not users:
            return []
        await self.notify(rec, users, name)
        return [Sent(rec.id, name, users)]

    async def _enforce(self, rec: GameRecord, awaited: dict[str, int | None]) -> Sent | None:
        """Play the default action for each awaited human seat; None if none could be played."""
        results: list[ActResult] = []
        version = rec.version
        for seat, user in awaited.items():
            if user is None:
                continue  # AI seats are the AI driver's job
            res = await self.tables.play_default(rec.id, seat, expected_version=version)
            if res is None:
                continue
            results.append(res)
            version = res.version
            if res.result is not None:
                break
        if not results:
            return None
        users = [u for r in results if (u := awaited.get(r.seat)) is not None]
        log.info("game %s: played default moves for %s", rec.id, [r.seat for r in results])
        await self.notify(rec, users, "enforce")
        if self.enforce is not None:
            for res in results:
                await self.enforce(res.record, res)
        return Sent(rec.id, "enforce", users)
