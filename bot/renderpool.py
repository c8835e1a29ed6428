"""Board pictures rendered in worker processes, so a render never holds the bot's event loop.

Pillow drawing is mostly Python holding the GIL. Rendered in a thread of the bot's own
process (`asyncio.to_thread`), a picture takes turns with the event loop every few
milliseconds, so every acknowledgement, gateway heartbeat and other game's move waits behind
it, and two renders cannot use two cores. Worker processes have their own interpreter: the
loop sends a view (a small JSON-ready dict) and gets PNG bytes back (`python -m bench`
measures both ways).

One pool per process, shared by every bot in it, started on first use; workers come from a
fork server (forking the bot itself, which runs threads, could copy a held lock) and import
the renderers when they start. A broken pool (a worker killed) is replaced, and that one
picture is drawn in a thread instead.
"""

from __future__ import annotations

import asyncio
import importlib
import logging
import multiprocessing
import os
import threading
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from renders import render_board, render_turn_card

log = logging.getLogger(__name__)

_pool: ProcessPoolExecutor | None = None
_pool_lock = threading.Lock()

RENDERERS = ("renders.exorcism", "renders.fourth_wall", "renders.presence", "renders.turncard")


def workers() -> int:
    """Two workers at most: a render is short, and the bot's own process needs a core too."""
    return max(1, min(2, os.cpu_count() or 1))


RENDER_NICENESS = 5
"""How much less the OS favours a render worker than the bot's own process: when boards queue
up, the loop that acknowledges interactions still gets the CPU first (a late acknowledgement
fails the interaction; a late board is only late)."""


def die_with_parent() -> None:
    """Ask Linux to end this worker when its parent (the fork server) goes.

    Used twice: the fork server ties itself to the bot (`bot._forkserver_tie`), and each
    worker to the fork server. Without it a SIGKILLed bot leaves its render processes behind
    (the crash proof found them).
    """
    try:
        import ctypes
        import signal

        libc = ctypes.CDLL(None, use_errno=True)
        pr_set_pdeathsig = 1
        libc.prctl(pr_set_pdeathsig, int(signal.SIGTERM), 0, 0, 0)
        if os.getppid() == 1:  # the parent was already gone before the request took hold
            os._exit(0)
    except (OSError, AttributeError):
        log.info("cannot tie render workers to the bot's lifetime on this platform")


def _warm() -> None:
    """Worker start: end with the bot, lower the worker's priority, and import every renderer
    now rather than during a player's first move."""
    die_with_parent()
    try:
        os.nice(RENDER_NICENESS)
    except OSError:
        log.info("could not lower the render worker's priority")
    for name in RENDERERS:
        try:
            importlib.import_module(name)
        except ModuleNotFoundError:
            log.info("renderer %s not present", name)


def pool() -> ProcessPoolExecutor:
    global _pool
    with _pool_lock:
        if _pool is None:
            context = multiprocessing.get_context("forkserver")
            context.set_forkserver_preload(["bot._forkserver_tie"])
            _pool = ProcessPoolExecutor(max_workers=workers(), mp_context=context,
                                        initializer=_warm)
        return _pool


def _discard(broken: ProcessPoolExecutor) -> None:
    global _pool
    with _pool_lock:
        if _pool is broken:
            _pool = None
    broken.shutdown(wait=False, cancel_futures=True)


async def render(game: str, view: dict[str, Any]) -> bytes | None:
    """`renders.render_board(game, view)` in a worker process."""
    executor = pool()
    try:
        return await asyncio.get_running_loop().run_in_executor(
            executor, render_board, game, view)
    except BrokenProcessPool:
        log.warning("render worker died; starting a new pool", exc_info=True)
        _discard(executor)
        return await asyncio.to_thread(render_board, game, view)


async def render_card(game: str, view: dict[str, Any]) -> bytes | None:
    """`renders.render_turn_card(game, view)` (the phone-sized turn card) in a worker
    process, exactly as `render` draws the board."""
    executor = pool()
    try:
        return await asyncio.get_running_loop().run_in_executor(
            executor, render_turn_card, game, view)
    except BrokenProcessPool:
        log.warning("render worker died; starting a new pool", exc_info=True)
        _discard(executor)
        return await asyncio.to_thread(render_turn_card, game, view)


async def warm() -> None:
    """Start every worker now, so the first board after a (re)start is not kept waiting
    for processes to spawn and import the renderers."""
    executor = pool()
    loop = asyncio.get_running_loop()
    try:
        await asyncio.gather(*(loop.run_in_executor(executor, os.getpid)
                               for _ in range(workers())))
    except BrokenProcessPool:
        _discard(executor)


def shutdown() -> None:
    """Stop the workers (tests, or a process that renders no more)."""
    global _pool
    with _pool_lock:
        executor, _pool = _pool, None
    if executor is not None:
        executor.shutdown(wait=True, cancel_futures=True)
