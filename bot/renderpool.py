"""Board pictures rendered in a worker process, so a render never holds the bot's event loop.

Pillow drawing is mostly Python holding the GIL. Rendered in a thread of the bot's own
process (`asyncio.to_thread`), a picture takes turns with the event loop every few
milliseconds, so every acknowledgement, gateway heartbeat and other game's move waits behind
it. A worker process has its own interpreter: the loop sends a view (a small JSON-ready dict)
and gets PNG bytes back (`python -m bench` measures both ways).

One render worker by default (`RENDER_WORKERS` for more): a card takes ~5 ms of CPU, so one
worker draws far more boards than a two-core machine's games ask for, and each worker costs
its own interpreter, Pillow and picture caches in memory. The worker is a plain child process
(`bot.renderworker`) spoken to over its stdin and stdout — no fork server, no resource
tracker, no executor threads in the bot — and shared by every bot and event loop in the process.

It starts when pictures are first coming, not with the bot (issue #25: a bot with no running
game is one process, 26–55 MiB lighter): `start_soon` when a lobby opens, so the game's first
board finds it ready, or else the first picture itself (it then waits for the worker's start,
0.2–0.3 s more for that board in the bot, 0.3–1.2 s for a bare first picture on this busy
machine). Idle for `RENDER_IDLE_SECONDS` (15 minutes by default) — every game over, or only
slow ones — the workers stop, and the bot is one process again until the next picture or lobby.
A worker that dies costs the pictures it was drawing, drawn in a thread instead; the next
picture starts a new worker. The bot's process never imports Pillow or the renderers unless it
has to draw in a thread.

`Pool` is that machinery for one role — start on demand, least-busy choice, idle stop,
shutdown — and `bot.aipool` keeps its AI workers in a `Pool` of their own (`AI_WORKERS`,
`AI_IDLE_SECONDS`).
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import itertools
import logging
import os
import pickle
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import IO, Any

from bot.renderworker import frame, read_frame

log = logging.getLogger(__name__)

ROOT = Path(__file__).resolve().parent.parent

_ids = itertools.count(1)


class WorkerDied(Exception):
    """A worker (a render or an AI worker) ended before it answered."""


class Worker:
    """One worker process and the requests it has not answered yet. `role` is what it serves:
    "render" (pictures, this module's pool) or "ai" (the AI's decisions, `bot.aipool`): the
    same process, frames and replacement, with only what the role needs imported."""

    def __init__(self, role: str = "render") -> None:
        self.role = role
        code = (f"import sys; sys.path.insert(0, {str(ROOT)!r}); "
                f"from bot.renderworker import main; main(parent={os.getpid()}, role={role!r})")
        self.proc = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, close_fds=True)
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self._stdin: IO[bytes] = self.proc.stdin
        self._pending: dict[int, asyncio.Future[Any]] = {}
        self._pending_lock = threading.Lock()
        self.alive = True
        self.answered = 0
        """Answers read so far: none yet, the worker may still be importing what it serves."""
        self.answered_at = 0.0
        """When the last answer came (`time.monotonic`): idleness counts from then too."""
        threading.Thread(target=self._read, args=(self.proc.stdout,), daemon=True,
                         name=f"{role}-worker-{self.proc.pid}").start()

    @property
    def pid(self) -> int:
        return self.proc.pid

    @property
    def load(self) -> int:
        return len(self._pending)

    def ask(self, what: str, game: str, view: Any) -> asyncio.Future[Any]:
        """Send one request; the future gets its answer on the caller's loop."""
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        rid = next(_ids)
        with self._pending_lock:
            if not self.alive:
                raise WorkerDied(f"the {self.role} worker is gone")
            self._pending[rid] = future
        try:
            self._stdin.write(frame((rid, what, game, view)))
            self._stdin.flush()
        except (OSError, ValueError) as exc:
            with self._pending_lock:
                self._pending.pop(rid, None)
            self._ended()
            raise WorkerDied(f"the {self.role} worker is gone") from exc
        return future

    def _read(self, stdout: IO[bytes]) -> None:
        """The reader thread: hand each answer to the loop that asked for it."""
        try:
            while (body := read_frame(stdout)) is not None:
                rid, ok, result = pickle.loads(body)
                self.answered += 1
                self.answered_at = time.monotonic()
                with self._pending_lock:
                    future = self._pending.pop(rid, None)
                if future is not None:
                    _settle(future, ok, result)
        except Exception:
            log.warning("%s worker %s: unreadable answer", self.role, self.pid, exc_info=True)
        finally:
            self._ended()

    def _ended(self) -> None:
        with self._pending_lock:
            self.alive = False
            pending, self._pending = self._pending, {}
        for future in pending.values():
            _settle(future, False, WorkerDied(f"the {self.role} worker ended"))

    def kill(self) -> None:
        """End the process now (a decision that overran its time): what it was asked fails
        with WorkerDied, and the pool starts a new worker for the next request."""
        with contextlib.suppress(OSError):
            self.proc.kill()
        self._ended()
        threading.Thread(target=self.proc.wait, daemon=True).start()  # reaped, no zombie

    def stop(self, wait: float = 5.0) -> None:
        with self._pending_lock:
            self.alive = False
        with contextlib.suppress(OSError):
            self._stdin.close()  # end-of-file: the worker finishes and exits
        try:
            self.proc.wait(wait)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def _settle(future: asyncio.Future[Any], ok: bool, result: Any) -> None:
    def settle() -> None:
        if future.done():
            return
        if ok:
            future.set_result(result)
        else:
            future.set_exception(result if isinstance(result, BaseException)
                                 else RuntimeError(str(result)))

    with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits any more
        future.get_loop().call_soon_threadsafe(settle)


def _env_number(name: str, default: float, least: float) -> float:
    try:
        return max(least, float(os.environ.get(name, str(default))))
    except ValueError:
        return default


class Pool:
    """Worker processes of one role, started on demand and stopped when idle: the render
    workers (this module) and the AI workers (`bot.aipool`) are two of these.

    `count_env` names how many workers to keep (default 1); `idle_env` how many seconds
    without a request before they stop (`default_idle`; 0 keeps them for the process's
    life). Both are read when used, so a test or an operator's change applies at once. Being
    asked for stamps the time under the pool's lock, so a worker just handed out is never
    stopped under its caller; the next request after a stop starts a worker again."""

    def __init__(self, role: str, count_env: str, idle_env: str,
                 default_idle: float = 900.0) -> None:
        self.role, self.count_env, self.idle_env = role, count_env, idle_env
        self.default_idle = default_idle
        self._lock = threading.Lock()
        self._workers: list[Worker] = []
        self._last_asked = 0.0
        """When a request last asked for a worker (`time.monotonic`, under `_lock`)."""
        self._idle_watch: threading.Thread | None = None
        self._idle_wake = threading.Event()
        """Set by `shutdown`: the idle watch looks again now (at its new `idle_seconds()`)."""

    def workers(self) -> int:
        """How many workers (`count_env`, default 1)."""
        return int(_env_number(self.count_env, 1, 1))

    def idle_seconds(self) -> float:
        """Seconds without a request after which the workers stop (`idle_env`)."""
        return _env_number(self.idle_env, self.default_idle, 0.0)

    def _asked(self) -> None:
        """A worker is wanted now (`_lock` held): it is not idle, and its idleness is
        watched."""
        self._last_asked = time.monotonic()
        if self._idle_watch is None and self.idle_seconds() > 0:
            self._idle_watch = threading.Thread(target=self._stop_when_idle, daemon=True,
                                                name=f"{self.role}-worker-idle")
            self._idle_watch.start()

    def _stop_when_idle(self) -> None:
        """Stop the workers once nothing has asked for them for `idle_seconds()`, none is busy
        and none answered within as long (a start, a search or a picture that outlasted the
        idle time counts from its end): a bot whose games are over goes back to one
        process."""
        while True:
            idle = self.idle_seconds()
            self._idle_wake.wait(min(max(idle, 0.05) / 4, 60.0))
            self._idle_wake.clear()
            with self._lock:
                live = [w for w in self._workers if w.alive]
                busy_until = max([self._last_asked, *(w.answered_at for w in live)])
                if live and (idle <= 0 or time.monotonic() - busy_until < idle
                             or any(w.load for w in live)):
                    continue
                self._workers.clear()
                self._idle_watch = None
            if live:
                log.info("%s workers idle for %.0f s: stopping %s", self.role, idle,
                         [w.pid for w in live])
            for worker in live:
                worker.stop()
            return

    def worker(self) -> Worker:
        """The least busy live worker, starting workers up to `workers()`."""
        with self._lock:
            self._asked()
            self._workers[:] = [w for w in self._workers if w.alive]
            if len(self._workers) < self.workers():
                self._workers.append(Worker(self.role))
            return min(self._workers, key=lambda w: w.load)

    def start_missing(self) -> None:
        """Start workers up to `workers()` (without waiting for their imports)."""
        with self._lock:
            self._asked()
            self._workers[:] = [w for w in self._workers if w.alive]
            while len(self._workers) < self.workers():
                self._workers.append(Worker(self.role))

    def running(self) -> int:
        with self._lock:
            return sum(w.alive for w in self._workers)

    def queued(self) -> int:
        """Requests asked of the workers and not answered yet."""
        with self._lock:
            return sum(w.load for w in self._workers if w.alive)

    def live_pids(self) -> list[int]:
        """The live workers' process ids (tests and the benchmarks)."""
        with self._lock:
            return [w.pid for w in self._workers if w.alive]

    async def warm(self) -> None:
        """Start the workers now and wait until they have imported what they serve."""
        try:
            await asyncio.gather(*(self.worker().ask("ping", "", None)
                                   for _ in range(self.workers())))
        except WorkerDied:
            log.warning("a %s worker ended while starting", self.role, exc_info=True)

    def shutdown(self) -> None:
        """Stop the workers (tests, or a process that needs them no more)."""
        with self._lock:
            stopping, self._workers[:] = list(self._workers), []
        self._idle_wake.set()
        for worker in stopping:
            worker.stop()


POOL = Pool("render", "RENDER_WORKERS", "RENDER_IDLE_SECONDS")
"""The render workers: `RENDER_WORKERS` of them (default 1), stopped after
`RENDER_IDLE_SECONDS` (default 900) without a picture."""


def workers() -> int:
    """How many render workers (`RENDER_WORKERS`, default 1)."""
    return POOL.workers()


def idle_seconds() -> float:
    """Seconds without a picture after which the render workers stop (`RENDER_IDLE_SECONDS`,
    default 900; 0 keeps them for the process's life)."""
    return POOL.idle_seconds()


def start_soon() -> None:
    """Start the render workers now, without waiting for them (a lobby opened: its first board
    follows within seconds, and the worker imports the renderers meanwhile). The spawn (10–17 ms
    measured on a busy machine) runs in a thread, off the caller's event loop; nothing happens
    when the workers already run."""
    if POOL.running() >= POOL.workers():
        return
    threading.Thread(target=POOL.start_missing, daemon=True, name="render-worker-start").start()


def queued() -> int:
    """Pictures asked of the render workers and not drawn yet (how far renders are behind)."""
    return POOL.queued()


def live_pids() -> list[int]:
    """The live render workers' process ids (tests and the benchmarks)."""
    return POOL.live_pids()


async def _ask(what: str, game: str, view: dict[str, Any]) -> Any:
    """`what` drawn from `view` in a worker; in a thread of this process if the worker died."""
    try:
        return await POOL.worker().ask(what, game, view)
    except WorkerDied:
        log.warning("render worker died; drawing this picture in a thread and starting a "
                    "new worker", exc_info=True)
        import renders  # only here: the bot's process does not hold Pillow otherwise

        draw = {"board": renders.render_board, "card": renders.render_turn_card,
                "recap": renders.render_recap, "stats": renders.render_stats}[what]
        return await asyncio.to_thread(draw, game, view)


async def render(game: str, view: dict[str, Any]) -> bytes | None:
    """`renders.render_board(game, view)` in the render worker."""
    data: bytes | None = await _ask("board", game, view)
    return data


async def render_card(game: str, view: dict[str, Any]) -> bytes | None:
    """`renders.render_turn_card(game, view)` (the phone-sized turn card) in the render
    worker, exactly as `render` draws the board."""
    data: bytes | None = await _ask("card", game, view)
    return data


async def render_recap(game: str, view: dict[str, Any]) -> bytes | None:
    """`renders.render_recap(game, view)` (the game-over recap picture) in the render worker."""
    data: bytes | None = await _ask("recap", game, view)
    return data


async def render_stats(picture: dict[str, Any]) -> bytes:
    """`renders.render_stats` (the stats picture) in the render worker. `picture` is a
    `renders.statswords.StatsPicture` as `model_dump()` gives it: plain data crosses the pipe,
    and the bot's process never imports the drawing code."""
    data: bytes = await _ask("stats", "", picture)
    return data


async def warm() -> None:
    """Start the render workers now and wait until they have imported the renderers (the
    benchmarks and tests; the bot itself only `start_soon`s them when a lobby opens)."""
    await POOL.warm()


def shutdown() -> None:
    """Stop the render workers (tests, or a process that renders no more)."""
    POOL.shutdown()


atexit.register(shutdown)
