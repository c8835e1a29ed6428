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

_lock = threading.Lock()
_workers: list[Worker] = []
_ids = itertools.count(1)
_last_asked = 0.0
"""When a picture or a lobby last asked for a worker (`time.monotonic`, under `_lock`)."""
_idle_watch: threading.Thread | None = None
_idle_wake = threading.Event()
"""Set by `shutdown`: the idle watch looks again now (at its new `idle_seconds()`)."""


class WorkerDied(Exception):
    """A worker (a render or an AI worker) ended before it answered."""


def workers() -> int:
    """How many render workers (`RENDER_WORKERS`, default 1)."""
    try:
        return max(1, int(os.environ.get("RENDER_WORKERS", "1")))
    except ValueError:
        return 1


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


def idle_seconds() -> float:
    """Seconds without a picture after which the render workers stop (`RENDER_IDLE_SECONDS`,
    default 900; 0 keeps them for the process's life)."""
    try:
        return max(0.0, float(os.environ.get("RENDER_IDLE_SECONDS", "900")))
    except ValueError:
        return 900.0


def _asked() -> None:
    """A worker is wanted now (`_lock` held): it is not idle, and its idleness is watched."""
    global _last_asked, _idle_watch
    _last_asked = time.monotonic()
    if _idle_watch is None and idle_seconds() > 0:
        _idle_watch = threading.Thread(target=_stop_when_idle, daemon=True,
                                       name="render-worker-idle")
        _idle_watch.start()


def _stop_when_idle() -> None:
    """Stop the workers once nothing has asked for them for `idle_seconds()` and none is
    drawing: a bot whose games are over goes back to one process. Being asked for stamps
    `_last_asked` under the lock, so a worker just handed out is never stopped under it."""
    global _idle_watch
    while True:
        idle = idle_seconds()
        _idle_wake.wait(min(max(idle, 0.05) / 4, 60.0))
        _idle_wake.clear()
        with _lock:
            live = [w for w in _workers if w.alive]
            if live and (idle <= 0 or time.monotonic() - _last_asked < idle
                         or any(w.load for w in live)):
                continue
            _workers.clear()
            _idle_watch = None
        if live:
            log.info("render workers idle for %.0f s: stopping %s", idle,
                     [w.pid for w in live])
        for worker in live:
            worker.stop()
        return


def _worker() -> Worker:
    """The least busy live worker, starting workers up to `workers()`."""
    with _lock:
        _asked()
        _workers[:] = [w for w in _workers if w.alive]
        if len(_workers) < workers():
            _workers.append(Worker())
        return min(_workers, key=lambda w: w.load)


def _start_missing() -> None:
    with _lock:
        _asked()
        _workers[:] = [w for w in _workers if w.alive]
        while len(_workers) < workers():
            _workers.append(Worker())


def start_soon() -> None:
    """Start the render workers now, without waiting for them (a lobby opened: its first board
    follows within seconds, and the worker imports the renderers meanwhile). The spawn (10–17 ms
    measured on a busy machine) runs in a thread, off the caller's event loop; nothing happens
    when the workers already run."""
    with _lock:
        if sum(w.alive for w in _workers) >= workers():
            return
    threading.Thread(target=_start_missing, daemon=True, name="render-worker-start").start()


def queued() -> int:
    """Pictures asked of the render workers and not drawn yet (how far renders are behind)."""
    with _lock:
        return sum(w.load for w in _workers if w.alive)


def live_pids() -> list[int]:
    """The live render workers' process ids (tests and the benchmarks)."""
    with _lock:
        return [w.pid for w in _workers if w.alive]


async def _ask(what: str, game: str, view: dict[str, Any]) -> Any:
    """`what` drawn from `view` in a worker; in a thread of this process if the worker died."""
    try:
        return await _worker().ask(what, game, view)
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
    """Start the workers now and wait until they have imported the renderers (the benchmarks
    and tests; the bot itself only `start_soon`s them when a lobby opens)."""
    try:
        await asyncio.gather(*(_worker().ask("ping", "", None) for _ in range(workers())))
    except WorkerDied:
        log.warning("a render worker ended while starting", exc_info=True)


def shutdown() -> None:
    """Stop the workers (tests, or a process that renders no more)."""
    with _lock:
        stopping, _workers[:] = list(_workers), []
    _idle_wake.set()
    for worker in stopping:
        worker.stop()


atexit.register(shutdown)
