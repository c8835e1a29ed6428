"""The built-in AI's decisions made in worker processes, so a search never holds the event loop.

A "normal" or "hard" decision (`Game.ai_action` with a search level, `rules.core.search`) is
a third of a second to a second of CPU, two at most. On the bot's event loop that would stall
every acknowledgement, gateway heartbeat and other game's move for as long; so the loop sends
the state (as JSON) to an AI worker and awaits the action it chose, while everything else goes
on.

AI workers are `bot.renderpool`'s worker processes started with the "ai" role
(`bot.renderworker`): the same frames, the same death and replacement, but processes of their
own, so a one-second search never holds a board picture up. One by default (`AI_WORKERS` for
more), shared by every bot and event loop in the process. It starts with the first decision
(a worker holds ~50 MiB, the games imported: a bot whose tables have no AI seat never starts
one) and, like the render workers, stops after `AI_IDLE_SECONDS` (15 minutes by default)
without a decision; the next decision starts it again, allowed `STARTING` for its imports.

"easy" (the game's heuristic alone) goes to the worker too: measured on this (shared, busy)
machine over one game each, its median is 2–3 ms but its p99 20–31 ms and its worst 52 ms
(Exorcism core; Fourth Wall 21 ms, Presence 19 ms), over the loop-stall target, while the
round trip (the state's JSON out, the action's back) costs a few milliseconds of the loop's.

A decision is never lost: a worker that dies, refuses (an error inside the search) or overruns
`TIMEOUT` (it is then killed, and the next decision starts a new worker) costs this decision
its search, and the easy level decides it here instead, logged. A game the worker does not
know (one registered at run time, as the tests' tiny game is) is decided here at the level
asked.
"""

from __future__ import annotations

import asyncio
import atexit
import logging
import os
from typing import Any

from bot.renderpool import Pool, WorkerDied
from bot.renderworker import UnknownGame
from rules.core.game import Game, GameState
from rules.core.types import Action

log = logging.getLogger(__name__)

LEVELS = ("easy", "normal", "hard")
"""The AI's levels, weakest first (`Game.ai_action`); a table picks one (`GameSettings`)."""

DEFAULT_LEVEL = "normal"

def _timeout() -> float:
    try:
        return max(0.1, float(os.environ.get("AI_TIMEOUT_SECONDS", "5")))
    except ValueError:
        return 5.0


TIMEOUT = _timeout()
"""Wall-clock seconds a worker may take for one decision (`AI_TIMEOUT_SECONDS`, default 5)
before it is killed and the easy level decides. The search caps itself at 2 s of its own CPU
(`Level.cap_seconds`); the rest is for a machine whose other processes share the cores (on a
2-core machine at load 10 a hard decision took 2.2–2.8 s of wall time)."""

STARTING = 30.0
"""Seconds a new worker may take to import the games before its first decision."""

POOL = Pool("ai", "AI_WORKERS", "AI_IDLE_SECONDS")
"""The AI workers: `AI_WORKERS` of them (default 1), stopped after `AI_IDLE_SECONDS` (default
900; 0 keeps them for the process's life) without a decision."""

_unknown: set[str] = set()
"""Games the workers' registry lacks (registered at run time): decided in the bot's process."""


def workers() -> int:
    """How many AI workers (`AI_WORKERS`, default 1)."""
    return POOL.workers()


def idle_seconds() -> float:
    """Seconds without a decision after which the AI workers stop (`AI_IDLE_SECONDS`)."""
    return POOL.idle_seconds()


def live_pids() -> list[int]:
    """The live AI workers' process ids (tests)."""
    return POOL.live_pids()


async def decide(game: Game[Any, Any], state: GameState, seat: str, level: str,
                 timeout: float = TIMEOUT) -> Action:
    """`game.ai_action(state, seat, level)`, decided in an AI worker. `timeout` is per
    decision: one queued behind others on the same worker is allowed theirs as well."""
    if level not in LEVELS:
        level = "easy"
    if game.name in _unknown:
        return game.ai_action(state, seat, level)
    worker = POOL.worker()
    allowed = STARTING
    try:
        if not worker.answered:
            # A new worker imports the games first (seconds on a busy machine): that is not
            # the decision's time.
            await asyncio.wait_for(worker.ask("ping", "", None), allowed)
        allowed = timeout * (1 + worker.load)
        asked = worker.ask("ai", game.name, (state.model_dump_json(), seat, level))
        answer = await asyncio.wait_for(asked, allowed)
        return Action.model_validate_json(answer)
    except UnknownGame:
        # The worker imports the shipped games only: one registered at run time is ours.
        log.debug("AI worker does not know %s: deciding here", game.name)
        _unknown.add(game.name)
        return game.ai_action(state, seat, level)
    except TimeoutError:
        log.warning("AI worker %s took over %.1f s for %s (%s, seat %s): stopped; the easy "
                    "level decides this move", worker.pid, allowed, game.name, level, seat)
        worker.kill()
    except WorkerDied:
        log.warning("AI worker died deciding for %s (%s, seat %s); the easy level decides this "
                    "move and a new worker starts", game.name, level, seat, exc_info=True)
    except Exception:
        log.warning("AI worker failed deciding for %s (%s, seat %s); the easy level decides "
                    "this move", game.name, level, seat, exc_info=True)
    return game.ai_action(state, seat, "easy")


async def warm() -> None:
    """Start the AI workers now and wait until they have imported the games, so the next AI
    move does not wait for that (tests and benchmarks)."""
    await POOL.warm()


def shutdown() -> None:
    """Stop the AI workers (tests, or a process that plays no more)."""
    POOL.shutdown()


atexit.register(shutdown)
