"""A worker: a small process of its own that draws the bot's pictures (`bot.renderpool`) or,
started with `role="ai"`, decides the built-in AI's moves (`bot.aipool`).

Started by the bot as `python -c "…renderworker.main()"` with pipes for stdin and stdout. Each
request and each answer is one frame: a 4-byte big-endian length, then a pickle. A request is
`(id, what, game, body)`; the answer is `(id, ok, result)`: the result, or the exception the
request raised. Requests are served one at a time, in order.

- A render worker: `what` is `board`, `card` or `recap`, `body` a view; the result is the
  PNG bytes (or None: the game has no picture). `what` may also be `stats`, `body` a
  `StatsPicture` as a dict (`renders.render_stats`).
- An AI worker: `what` is `ai`, `body` is `(state_json, seat, level)`; the result is the
  action `Game.ai_action` chose, as JSON. It imports the rules only, never Pillow.
- Either: `ping` answers the worker's process id (the bot's `warm` waits for it).

The worker ends when the bot does: its stdin reaches end-of-file when the bot exits, however it
exits (a SIGKILL included), and it asks Linux for SIGTERM when its parent dies as well.

Whether the bot is still there is judged against the bot's own process id, which the bot hands
the worker (`main(parent=…)`), never against "my parent is process 1": in a container without
an init the bot *is* process 1, and a worker that took `getppid() == 1` for "orphaned" exited
at once, every picture falling back to a thread in the bot's process (issue #20).
"""

from __future__ import annotations

import contextlib
import os
import pickle
import queue
import struct
import sys
import threading
import time
from typing import IO, Any

HEADER = struct.Struct(">I")
NICENESS = int(os.environ.get("RENDER_NICENESS", "0"))
"""How much less the OS favours the render worker (`RENDER_NICENESS`). Not at all by default:
niceness counts against every process on the machine, not only the bot, so on a busy machine
a niced worker starved behind the neighbours' work (`python -m bench --only saturation` with
a competing process: board median 1.5 s at niceness 5, 0.4 s at 0) while the bot's
acknowledgements were no faster. Boards that fall behind are merged instead
(`Delivery.show`)."""

TRIM_SECONDS = 2.0
"""At most this often, when no request waits, the worker hands its allocator's free pages back
(`return_freed_memory`, 0.1-2 ms): a board's scratch images (6 MiB each) and the layers and
parts its bounded caches dropped otherwise stay in its resident memory as free heap, and the
worker grew by ~1 MiB per active game over the first twenty (issue #25)."""

IDLE_TRIM_SECONDS = 0.25
"""And once a worker that served requests since its last trim has had none for this long
(one trim per quiet spell): a busy stretch's freed pages go back when it ends, not with
the next request, however long away that is."""

RENDERERS = ("renders.exorcism", "renders.fourth_wall", "renders.presence", "renders.turncard",
             "renders.recap", "renders.stats")


def read_frame(stream: IO[bytes]) -> bytes | None:
    """One frame's body from `stream`, or None at end-of-file."""
    header = _read_exact(stream, HEADER.size)
    if header is None:
        return None
    return _read_exact(stream, HEADER.unpack(header)[0])


def _read_exact(stream: IO[bytes], n: int) -> bytes | None:
    chunks: list[bytes] = []
    while n:
        chunk = stream.read(n)
        if not chunk:
            return None
        chunks.append(chunk)
        n -= len(chunk)
    return b"".join(chunks)


def frame(obj: Any) -> bytes:
    body = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    return HEADER.pack(len(body)) + body


def die_with_parent() -> None:
    """Ask Linux to SIGTERM this process when its parent goes (belt and braces beside the
    end-of-file on stdin)."""
    try:
        import ctypes
        import signal

        libc = ctypes.CDLL(None, use_errno=True)
        pr_set_pdeathsig = 1
        libc.prctl(pr_set_pdeathsig, int(signal.SIGTERM), 0, 0, 0)
    except (OSError, AttributeError):
        pass


def return_freed_memory() -> bool:
    """Hand the C allocator's free pages back to the system (glibc `malloc_trim(0)`): what
    start-up built and dropped (migrations, schemas, font and image loading) otherwise stays
    in the process's resident memory (issue #15). False, nothing done, where the C library
    has no malloc_trim (not Linux/glibc)."""
    try:
        import ctypes

        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError, ImportError):
        return False
    trim.argtypes = [ctypes.c_size_t]
    trim(0)
    return True


def parent_gone(parent: int) -> bool:
    """Whether the process that started this worker has ended: this process was handed to
    another (an init or a subreaper) when its parent died. `parent` is the bot's own pid,
    which may well be 1 in a container, where the bot is the first process."""
    return os.getppid() != parent


class UnknownGame(Exception):
    """An AI worker was asked about a game its registry lacks (one registered at run time)."""


def decide(game: str, body: tuple[str, str, str]) -> str:
    """The AI's action for one seat, as JSON: the state arrives as JSON and is loaded here, so
    the bot's process never holds a search's copies of it."""
    from rules.registry import GAMES

    state_json, seat, level = body
    engine = GAMES.get(game)
    if engine is None:
        raise UnknownGame(game)
    return engine.ai_action(engine.load_state(state_json), seat, level).model_dump_json()


def _serving(role: str) -> dict[str, Any]:
    """What a worker of `role` answers, its modules imported now rather than during a
    player's first move."""
    import importlib

    if role == "ai":
        import rules.registry  # noqa: F401  (every game's engine and AI)

        return {"ai": decide}
    from renders import render_board, render_recap, render_stats, render_turn_card

    for name in RENDERERS:
        with contextlib.suppress(ModuleNotFoundError):
            importlib.import_module(name)
    return {"board": render_board, "card": render_turn_card, "recap": render_recap,
            "stats": render_stats}


def main(parent: int | None = None, role: str = "render") -> None:
    """Serve requests until stdin ends. `parent` is the bot's pid as the bot saw it (None:
    whatever this process's parent is now); `role` is "render" or "ai"."""
    if parent is None:
        parent = os.getppid()
    # Frames go to the real stdout; anything a library prints goes to stderr instead.
    out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    source = sys.stdin.buffer
    die_with_parent()
    if parent_gone(parent):
        return  # the bot was gone before the worker asked to die with it
    if NICENESS:
        with contextlib.suppress(OSError):
            os.nice(NICENESS)
    serve = _serving(role)
    return_freed_memory()
    # A thread drains stdin as requests arrive, so the bot's writes never wait on a render.
    requests: queue.SimpleQueue[bytes | None] = queue.SimpleQueue()

    def drain() -> None:
        while (body := read_frame(source)) is not None:
            requests.put(body)
        requests.put(None)

    threading.Thread(target=drain, daemon=True, name="requests").start()
    trimmed = time.monotonic()
    untrimmed = False  # requests were served since the last trim
    while True:
        try:
            # After work, wait only so long for the next request: then hand back its pages.
            body = requests.get(timeout=IDLE_TRIM_SECONDS) if untrimmed else requests.get()
        except queue.Empty:
            return_freed_memory()
            trimmed, untrimmed = time.monotonic(), False
            continue
        if body is None:
            break
        rid, what, game, request = pickle.loads(body)
        try:
            result: Any = os.getpid() if what == "ping" else serve[what](game, request)
            answer = frame((rid, True, result))
        except Exception as exc:  # the bot re-raises it where the render was asked for
            try:
                answer = frame((rid, False, exc))
            except Exception:
                answer = frame((rid, False, RuntimeError(repr(exc))))
        out.write(answer)
        out.flush()
        untrimmed = True
        if requests.empty() and time.monotonic() - trimmed >= TRIM_SECONDS:
            return_freed_memory()  # idle for now: nobody waits behind the trim
            trimmed, untrimmed = time.monotonic(), False


if __name__ == "__main__":
    main()
