"""Is the bot alive? A heartbeat file the running bot rewrites, and `python -m bot health`.

The running bot (`Heartbeat`, started in `GameBot.setup_hook`) rewrites a small JSON file every
`HEARTBEAT_SECONDS`: its process id, when it wrote, whether its gateway connection is up (and
since when it last was), and whether the database answered a query just now. `check()` reads
that file and says, in one line, whether the process is healthy: the file is fresh, the process
is alive, the database answered, and the gateway has not been down for longer than discord.py
needs to reconnect. The container's HEALTHCHECK runs it (`python -m bot health`, exit 0 or 1),
so an orchestrator restarts a bot that hangs, lost its database or cannot reach Discord.

The file is per process and says nothing about games, so it lives outside the data volume (a
temporary folder by default, `HEALTH_FILE` to move it).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import time
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass
from pathlib import Path

log = logging.getLogger(__name__)

HEARTBEAT_SECONDS = 15.0
"""How often the running bot rewrites its heartbeat."""
STALE_SECONDS = 60.0
"""A heartbeat older than this means the process hangs (or is gone)."""
GATEWAY_GRACE_SECONDS = 180.0
"""How long the gateway may be down (discord.py reconnects with back-off) before unhealthy."""
DATABASE_TIMEOUT = 10.0


@dataclass(frozen=True)
class Beat:
    """One heartbeat, as written to the file."""

    pid: int
    at: float
    started_at: float
    gateway_up: bool
    gateway_seen_at: float | None
    """When the gateway was last seen up (None: not yet since start)."""
    database_ok: bool
    database_error: str | None = None


class Heartbeat:
    """Rewrites the heartbeat file every `interval` seconds while the bot runs."""

    def __init__(self, path: Path, *, gateway_up: Callable[[], bool],
                 database_ping: Callable[[], Awaitable[object]],
                 clock: Callable[[], float] = time.time,
                 interval: float = HEARTBEAT_SECONDS) -> None:
        self.path = path
        self.gateway_up = gateway_up
        self.database_ping = database_ping
        self.clock = clock
        self.interval = interval
        self.started_at = clock()
        self.gateway_seen_at: float | None = None
        self._task: asyncio.Task[None] | None = None
        self._poked = asyncio.Event()

    def poke(self) -> None:
        """Beat now (the gateway went up or down), not at the next interval."""
        self._poked.set()

    async def beat(self) -> Beat:
        """Check the gateway and the database now and write the file."""
        now = self.clock()
        up = self.gateway_up()
        if up:
            self.gateway_seen_at = now
        error: str | None = None
        try:
            # asyncio.timeout, not wait_for: 3.11's wait_for swallows a cancel that arrives as
            # the ping ends, and stopping the bot would then wait for ever.
            async with asyncio.timeout(DATABASE_TIMEOUT):
                await self.database_ping()
        except Exception as exc:  # whatever the database says, the check reports it
            error = f"{type(exc).__name__}: {exc}"[:300]
        beat = Beat(pid=os.getpid(), at=now, started_at=self.started_at, gateway_up=up,
                    gateway_seen_at=self.gateway_seen_at, database_ok=error is None,
                    database_error=error)
        write_beat(self.path, beat)
        return beat

    def start(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run(), name="heartbeat")

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is None:
            return
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        # A stopped bot is not healthy: no file, no doubt.
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()

    async def _run(self) -> None:
        while True:
            try:
                await self.beat()
            except Exception:
                log.exception("could not write the heartbeat to %s", self.path)
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self.interval):
                    await self._poked.wait()
            self._poked.clear()


def write_beat(path: Path, beat: Beat) -> None:
    """Replace the file whole (a reader never sees half a heartbeat)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(asdict(beat)), encoding="utf-8")
    os.replace(tmp, path)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # it exists, run by another user
    return True


def check(path: Path, now: float | None = None) -> tuple[bool, str]:
    """(healthy, one line saying why) from the heartbeat file at `path`."""
    now = time.time() if now is None else now
    try:
        beat = Beat(**json.loads(path.read_text(encoding="utf-8")))
    except FileNotFoundError:
        return False, (f"unhealthy: no heartbeat at {path} — the bot is not running, is still "
                       "starting, or writes its HEALTH_FILE elsewhere.")
    except (ValueError, TypeError) as exc:
        return False, f"unhealthy: the heartbeat at {path} is unreadable ({exc})."
    age = now - beat.at
    if not _alive(beat.pid):
        return False, f"unhealthy: the bot process {beat.pid} that wrote {path} is gone."
    if age > STALE_SECONDS:
        return False, (f"unhealthy: the last heartbeat is {age:.0f} s old (process {beat.pid} "
                       "hangs or its event loop is blocked).")
    if not beat.database_ok:
        return False, f"unhealthy: the database did not answer: {beat.database_error}"
    if not beat.gateway_up:
        since = beat.gateway_seen_at if beat.gateway_seen_at is not None else beat.started_at
        down = beat.at - since
        if down > GATEWAY_GRACE_SECONDS:
            seen = "since start" if beat.gateway_seen_at is None else f"for {down:.0f} s"
            return False, f"unhealthy: not connected to Discord's gateway {seen}."
        return True, (f"healthy: reconnecting to Discord's gateway ({down:.0f} s so far); "
                      f"database answered; heartbeat {age:.0f} s ago.")
    return True, (f"healthy: connected to Discord's gateway; database answered; heartbeat "
                  f"{age:.0f} s ago (process {beat.pid}).")
