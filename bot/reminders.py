"""Reminders: one dispatcher task per process over persisted per-game timers.

Each active game row carries `next_reminder_at`, `reminder_stage` and `awaited_since`. The table
service arms the timer whenever the game starts waiting for someone new (now + the game's
`reminder_hours`, stage 0) and clears it when the game ends; this dispatcher only fires due
timers and advances them. Policy per game (`GameSettings`):

- stage 0 → "dm": the bot DMs the awaited players; next after another `reminder_hours`;
- stage 1 → "ping": the bot pings them in the thread; next after 24 h;
- stage ≥2 → "daily": a DM every 24 h (a DM, not the whole table pinged each day);
- a player whose DMs are closed (known from the seat's test DM, or refused now: 50007) is
  pinged in the thread instead of each DM, so they too are reminded every day (issue #20);
- policy "enforced": once `enforce_after_hours` have passed since the wait began, the bot plays
  each awaited human seat's rule-defined `default_action` through the table service ("enforce"),
  or — with `enforce_with = "ai"` — hands the seat to the built-in AI until its player comes
  back (acts, or uses any `/game` command) and lets the AI move ("ai").

Players' own preferences (`PlayerPrefs`) bend this:
- quiet hours: a player in their quiet window is not reminded. When everyone due a reminder is
  quiet, the stage waits (the timer moves to the earliest window's end) instead of being lost;
  enforcement is not delayed by quiet hours (the table's deadline is the table's).
- away (vacation): never reminded. Under the enforced policy an away player's seat is handed
  to the AI at the deadline whatever `enforce_with` says — a vacation must not stall a table
  that chose deadlines, and the AI keeps their position alive better than a default move.
  Under the advisory policy the table simply waits (or votes a `/game replace`).

Only awaited seats are ever named, and AI seats (no user) never. A process running some of the
bot's gateway shards (`Settings.shards`) only fires the timers of its own guilds' games, so
several processes can share one database. Everything is read from storage, so a restart
resumes where it stopped. Each timer advance is a compare-and-set on the game's version and
stage, made *before* notifying: a move that lands meanwhile wins, and a
reminder is never sent twice (at worst one is lost in a crash). An awaited seat the bot plays
(an AI seat or stand-in) found by a due timer is played here too, so a crash between two AI
moves never stalls a game.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Literal

from bot.storage import GameRecord, ShardSet, Storage
from bot.tables import ActResult, TableService

log = logging.getLogger(__name__)

Stage = Literal["dm", "ping", "daily", "enforce", "ai"]
Notify = Callable[[GameRecord, list[int], Stage], Awaitable[None]]
"""notify(record, awaited user ids, stage): the Discord layer sends the DM or the ping."""
Enforce = Callable[[GameRecord, ActResult], Awaitable[None]]
"""enforce(record, result): called with each default or AI move the dispatcher played, so the cog
can post what happened and the new board."""

MAX_AI_MOVES = 200
"""AI moves played in one go before the dispatcher yields (a game of only AI seats)."""

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
        shards: ShardSet | None = None,
        batch: int = 100,
        calm: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        """Pass the process's `tables` so default moves share its per-game locks (without it a
        private TableService is made; storage's version check still keeps moves whole).
        `shards` limits a shard process to its own guilds' games, in the storage query (so
        other processes' games never fill its batch); `owns_guild` is a further filter."""
        self.storage = storage
        self.tables = tables or TableService(storage, clock=clock or time.time)
        self.notify = notify
        self.enforce = enforce
        self.clock = clock or self.tables.clock
        self.poll_seconds = poll_seconds
        self.owns_guild = owns_guild
        self.shards = shards
        self.batch = batch
        self.calm = calm
        """Awaited before each pass: a busy bot answers moves first (bot/pressure.py)."""
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
                if self.calm is not None:
                    await self.calm()
                await self.run_once()
            except Exception:
                log.exception("reminder pass failed")
            await asyncio.sleep(self.poll_seconds)

    # ---- one pass -------------------------------------------------------------------------
    async def run_once(self, now: float | None = None) -> list[Sent]:
        """Fire every due reminder once; returns what was sent."""
        now = self.clock() if now is None else now
        sent: list[Sent] = []
        for rec in await self.storage.due_reminders(now, self.batch, self.shards):
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
        seats = {s.seat: s for s in await self.storage.seats(rec.id)}
        if any(seats[s].ai_driven for s in awaited if s in seats):
            moved = await self._play_ai(rec)
            if moved:
                return [Sent(rec.id, "ai", [])]
        humans = {seat: u for seat, u in awaited.items()
                  if u is not None and seat in seats and not seats[seat].ai_driven}
        prefs = await self.storage.prefs(humans.values())
        settings = rec.settings
        since = rec.awaited_since if rec.awaited_since is not None else rec.updated_at
        enforce_at = since + settings.enforce_after_hours * HOUR
        enforced = settings.policy == "enforced"
        if enforced and now >= enforce_at and humans:
            done = await self._enforce(rec, humans, now)
            if done is not None:
                return [done]
        stage = rec.reminder_stage
        name = stage_name(stage)
        quiet = {u: p.quiet_until(now) for u, p in prefs.items() if not p.away}
        targets = [u for u, until in quiet.items() if until is None]
        if not targets and quiet:
            # Everyone due this reminder is in quiet hours: it waits for the first to wake.
            wake = min(until for until in quiet.values() if until is not None)
            if enforced and enforce_at > now:
                wake = min(wake, enforce_at)
            await self.storage.set_reminder(rec.id, wake, stage, expected_version=rec.version,
                                            expected_stage=stage)
            return []
        next_at = now + (settings.reminder_hours * HOUR if stage == 0 else DAILY)
        if enforced and enforce_at > now:
            next_at = min(next_at, enforce_at)
        if not await self.storage.set_reminder(rec.id, next_at, stage + 1,
                                               expected_version=rec.version,
                                               expected_stage=stage):
            return []  # a move or another pass got there first
        if not targets:
            return []  # only away players (or AI seats) are awaited: nobody to nudge
        log.info("game %s (guild %s): %s reminder to %s", rec.id, rec.guild_id, name, targets)
        await self.notify(rec, targets, name)
        return [Sent(rec.id, name, targets)]

    async def _play_ai(self, rec: GameRecord) -> list[ActResult]:
        """Let the AI move for every awaited seat it plays, posting each move."""
        results: list[ActResult] = []
        while len(results) < MAX_AI_MOVES:
            res = await self.tables.ai_turn(rec.id)
            if res is None:
                break
            results.append(res)
            if self.enforce is not None:
                await self.enforce(res.record, res)
        return results

    async def _enforce(self, rec: GameRecord, humans: dict[str, int],
                       now: float) -> Sent | None:
        """At the deadline: hand seats to the AI (the table's choice, or the player is away)
        and play the rule's default for the rest. None if no move could be made."""
        prefs = await self.storage.prefs(humans.values())
        results: list[ActResult] = []
        handed: list[int] = []
        version = rec.version
        for seat, user in humans.items():
            if rec.settings.enforce_with == "ai" or prefs[user].away:
                await self.tables.hand_to_ai(rec.id, seat)
                handed.append(user)
                continue
            res = await self.tables.play_default(rec.id, seat, expected_version=version)
            if res is None:
                continue
            results.append(res)
            version = res.version
            if self.enforce is not None:
                await self.enforce(res.record, res)
            if res.result is not None:
                break
        ai_moves = await self._play_ai(rec) if handed else []
        if not results and not ai_moves:
            return None
        stage: Stage = "ai" if handed else "enforce"
        told = [u for u in humans.values() if u in handed or any(
            r.seat in humans and humans[r.seat] == u for r in results)]
        # A DM is a nudge too: the away and the quiet read it in the thread later.
        reachable = [u for u in told if prefs[u].reachable(now)]
        log.info("game %s: deadline passed; defaults for %s, AI for %s", rec.id,
                 [r.seat for r in results], handed)
        if reachable:
            await self.notify(rec, reachable, stage)
        return Sent(rec.id, stage, reachable)
