"""`python -m bench.botproc`: the bot (or a bare discord.py client) as its own process.

The round-trip benchmark runs the emulator and the simulated players in one process and the
bot in this one, so the bot's event loop carries only the bot's work — as it would against
the real Discord. A loop-lag probe (`bot.looplag`) runs inside the bot's loop; signals steer
it: SIGUSR1 forgets what it measured so far (set-up is over), SIGUSR2 writes its summary
(and the wall time of each step of a move, `time_phases`) as JSON to `--lag-out`, SIGTERM
closes the client and exits.

`--idle` runs the probe alone in an otherwise idle process: what the shared machine itself
does to an event loop, the floor under the bot's figure. `--bare` runs a bare
`discord.Client` with one `/ping` command that defers and then follows up at once: the
emulator's and discord.py's own round trip, the yardstick for the bot's.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import gc
import json
import logging
import signal
import sys
import tempfile
import threading
import time
import traceback
from collections import Counter
from pathlib import Path
from typing import Any

import discord
from discord import app_commands

from bench.stats import ms_full
from bot.client import COGS, build_bot, point_discord_at, run_event_loop, tune_process
from bot.looplag import LoopLagProbe
from bot.settings import Settings
from rules.core import memo

PHASES: dict[str, list[float]] = {}
"""Wall time of the bot's steps (see `time_phases`), reset with the probe."""


def _timed(owner: Any, attr: str, phase: str) -> None:
    original = getattr(owner, attr)

    if asyncio.iscoroutinefunction(original):
        async def wrapper(*args: Any, **kwargs: Any) -> Any:
            t0 = time.perf_counter()
            try:
                return await original(*args, **kwargs)
            finally:
                PHASES.setdefault(phase, []).append(time.perf_counter() - t0)
    else:
        def wrapper(*args: Any, **kwargs: Any) -> Any:  # type: ignore[misc]
            t0 = time.perf_counter()
            try:
                return original(*args, **kwargs)
            finally:
                PHASES.setdefault(phase, []).append(time.perf_counter() - t0)

    setattr(owner, attr, wrapper)


class StallSampler:
    """Where the loop thread was when the loop stalled: a watchdog thread samples the loop
    thread's stack whenever the loop has not ticked for `after` seconds (profiling aid)."""

    def __init__(self, after: float = 0.05, every: float = 0.01) -> None:
        self.after, self.every = after, every
        self.last_tick = time.perf_counter()
        self.stacks: collections.Counter[str] = collections.Counter()
        self._thread_id = threading.get_ident()
        self._stop = threading.Event()

    async def ticker(self) -> None:
        while True:
            self.last_tick = time.perf_counter()
            await asyncio.sleep(self.every)

    def start(self) -> None:
        asyncio.get_running_loop().create_task(self.ticker())
        threading.Thread(target=self._watch, daemon=True, name="stall-sampler").start()

    def _watch(self) -> None:
        while not self._stop.wait(self.every):
            if time.perf_counter() - self.last_tick < self.after:
                continue
            frame = sys._current_frames().get(self._thread_id)
            if frame is None:
                continue
            where = [f"{Path(f.filename).name}:{f.lineno} {f.name}"
                     for f in traceback.extract_stack(frame)[-6:]]
            self.stacks[" < ".join(reversed(where))] += 1

    def top(self, n: int = 12) -> list[tuple[str, int]]:
        return self.stacks.most_common(n)


class CpuSampler:
    """Where the process spends its CPU: SIGPROF fires every `every` seconds of CPU time (all
    threads) and the main thread's stack at that moment is counted (profiling aid; unlike
    cProfile it adds no cost per call, so call-heavy code is not over-weighted)."""

    def __init__(self, every: float = 0.001) -> None:
        self.every = every
        self.stacks: collections.Counter[tuple[str, ...]] = collections.Counter()
        self.gc_cpu: dict[int, list[float]] = {}
        """CPU seconds of each garbage collection, by generation (the sampler cannot see
        them: a signal handler only runs between bytecodes)."""
        self._gc_started = 0.0

    def start(self) -> None:
        signal.signal(signal.SIGPROF, self._sample)
        signal.setitimer(signal.ITIMER_PROF, self.every, self.every)
        gc.callbacks.append(self._gc)

    def _gc(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._gc_started = time.thread_time()
        else:
            self.gc_cpu.setdefault(info["generation"], []).append(
                time.thread_time() - self._gc_started)

    def stop(self) -> None:
        signal.setitimer(signal.ITIMER_PROF, 0, 0)

    def _sample(self, signum: int, frame: Any) -> None:
        out: list[str] = []
        while frame is not None:
            code = frame.f_code
            out.append(f"{code.co_filename}:{code.co_firstlineno}:{code.co_name}")
            frame = frame.f_back
        self.stacks[tuple(reversed(out))] += 1

    def dump(self, path: str) -> None:
        """Collapsed stacks, one per line: `outer;...;inner count` (flame-graph input)."""
        with open(path, "w") as f:
            for gen, times in sorted(self.gc_cpu.items()):
                f.write(f"# gc generation {gen}: {len(times)} collections, "
                        f"{sum(times) * 1000:.0f} ms CPU\n")
            for stack, n in self.stacks.most_common():
                f.write(";".join(stack) + f" {n}\n")


def without_orjson() -> None:
    """Before/after comparisons where orjson is installed by hand (discord.utils picks it
    whenever it is): discord.py's JSON through the standard library. orjson is no dependency:
    it gained about 3 % of the bot's CPU, within noise, and it refuses a number past a double's
    range that the standard library reads as infinity, which crashed the bot's gateway loop
    (tests/proof/test_hostile_payloads.py)."""
    import json

    from discord import utils

    def to_json(obj: Any) -> str:
        return json.dumps(obj, separators=(",", ":"), ensure_ascii=True)

    utils._to_json = to_json
    utils._from_json = json.loads  # type: ignore[assignment]
    utils.HAS_ORJSON = False


def time_gc() -> None:
    """Time the garbage collector's pauses per generation (they stop the loop too)."""
    started: list[float] = []

    def callback(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            started[:] = [time.perf_counter()]
        elif started:
            PHASES.setdefault(f"gc pause, generation {info['generation']}", []).append(
                time.perf_counter() - started[0])

    gc.callbacks.append(callback)


def heap(client: discord.Client | None) -> dict[str, int]:
    """What the process holds: objects the garbage collector tracks (a full collection walks
    them all) and discord.py's caches that grow with play."""
    out = {"gc_tracked_objects": len(gc.get_objects())}
    state: Any = getattr(client, "_connection", None)
    if state is not None:
        store = state._view_store
        out["cached_messages"] = len(state._messages or ())
        out["stored_views"] = len(store._views)
        out["synced_message_views"] = len(store._synced_message_views)
    return out


def render_in_threads() -> None:
    """Before/after comparisons: draw boards in the bot's own process (worker threads), as
    the bot did before `bot.renderpool`."""
    from bot import renderpool
    from renders import render_board

    async def in_a_thread(game: str, view: dict[str, Any]) -> bytes | None:
        return await asyncio.to_thread(render_board, game, view)

    renderpool.render = in_a_thread  # type: ignore[assignment]


def time_phases() -> None:
    """Time the steps of a move inside the bot: where the time to a posted board goes."""
    import cogs.utils.table as table
    from bot import renderpool
    from bot.storage import SqliteStorage
    from bot.tables import TableService

    _timed(TableService, "act", "tables.act (load, apply, persist)")
    _timed(SqliteStorage, "append_action", "storage.append_action")
    _timed(table.Delivery, "after_action", "delivery.after_action (DMs + board)")
    _timed(table.Delivery, "post_board", "delivery.post_board")
    _timed(table.Delivery, "picture", "delivery.picture (render off the loop)")
    _timed(renderpool, "render", "renderpool.render")
    _timed(discord.abc.Messageable, "send", "channel.send (REST)")


class BareClient(discord.Client):
    """The least a bot can do with a slash command: acknowledge it, then answer it."""

    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.none(), guild_ready_timeout=0.05)
        self.tree = app_commands.CommandTree(self)

        @self.tree.command(name="ping", description="Answer at once")
        async def ping(interaction: discord.Interaction[Any]) -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            await interaction.followup.send("pong", ephemeral=True)

    async def setup_hook(self) -> None:
        await self.tree.sync()


def summary_dm_counts(client: discord.Client | None) -> Counter[str]:
    """What became of the summary DM changes since the probe's reset (`SummaryDMs.dm_counts`:
    changes, writes, held); empty for the bare client."""
    delivery = getattr(client, "_delivery", None)
    counts = getattr(delivery, "dm_counts", None)
    return counts if isinstance(counts, Counter) else Counter()


async def run(args: argparse.Namespace) -> None:
    probe = LoopLagProbe(interval=args.probe_interval)
    loop = asyncio.get_running_loop()
    if args.slow_callback_ms is not None:
        loop.slow_callback_duration = args.slow_callback_ms / 1000
    stop = asyncio.Event()

    sampler = StallSampler() if args.stall_stacks else None
    held: dict[str, discord.Client] = {}

    def write_summary() -> None:
        out = {"lag": probe.summary().model_dump(),
               "phases": {k: ms_full(v) for k, v in PHASES.items()},
               "stall_stacks": sampler.top() if sampler else [],
               "heap": heap(held.get("client")),
               "summary_dms": dict(summary_dm_counts(held.get("client")))}
        Path(args.lag_out).write_text(json.dumps(out))

    def reset() -> None:
        probe.reset()
        PHASES.clear()
        summary_dm_counts(held.get("client")).clear()
        if sampler is not None:
            sampler.stacks.clear()

    loop.add_signal_handler(signal.SIGUSR1, reset)
    loop.add_signal_handler(signal.SIGUSR2, write_summary)
    loop.add_signal_handler(signal.SIGTERM, stop.set)
    probe.start()
    if sampler is not None:
        sampler.start()
    if args.idle:
        write_summary()  # tells the parent the probe runs
        await stop.wait()
        await probe.stop()
        return
    client: discord.Client
    with tempfile.TemporaryDirectory() as tmp:
        if args.bare:
            point_discord_at(args.api_base, args.gateway)
            client = BareClient()
        else:
            settings = Settings(
                discord_token=args.token, database_path=Path(args.db or Path(tmp) / "b.db"),
                discord_api_base=args.api_base, discord_gateway_url=args.gateway,
                guild_ready_timeout=0.05, reminder_poll_seconds=3600.0, dev_guild_id=None,
                sync_commands=True)
            client = build_bot(settings)
            held["client"] = client
            if args.thread_renders:
                render_in_threads()
            if args.no_orjson:
                without_orjson()
            time_phases()
            time_gc()
            if args.no_freeze:
                memo.enable()  # all but the freeze
            else:
                tune_process(COGS)  # as `python -m bot run` does
        async with client:
            task = asyncio.create_task(client.start(args.token))
            stopping = asyncio.create_task(stop.wait())
            await asyncio.wait({task, stopping}, return_when=asyncio.FIRST_COMPLETED)
            await client.close()
            if task.done() and task.exception() is not None:
                raise task.exception()  # type: ignore[misc]
        await probe.stop()


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.botproc")
    parser.add_argument("--api-base", default="")
    parser.add_argument("--gateway", default="")
    parser.add_argument("--token", default="")
    parser.add_argument("--db", default=None, help="SQLite file (default: a temporary one)")
    parser.add_argument("--lag-out", required=True, help="where SIGUSR2 writes the lag summary")
    parser.add_argument("--probe-interval", type=float, default=0.005)
    parser.add_argument("--bare", action="store_true")
    parser.add_argument("--idle", action="store_true",
                        help="no client at all: the probe alone, the machine's own noise")
    parser.add_argument("--thread-renders", action="store_true",
                        help="render in threads of the bot's process (the old way)")
    parser.add_argument("--no-orjson", action="store_true",
                        help="discord.py's JSON through the standard library (the old way)")
    parser.add_argument("--no-freeze", action="store_true",
                        help="leave start-up objects in the garbage collector's generations")
    parser.add_argument("--stall-stacks", action="store_true",
                        help="profile: sample the loop thread's stack during stalls")
    parser.add_argument("--slow-callback-ms", type=float, default=None,
                        help="profile: log every loop callback that runs longer than this")
    parser.add_argument("--profile", default=None,
                        help="profile: write the bot process's cProfile stats here at exit")
    parser.add_argument("--sample-cpu", default=None,
                        help="profile: sample the stack every ms of CPU, write collapsed "
                             "stacks here at exit")
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    if args.sample_cpu:
        cpu_sampler = CpuSampler()
        cpu_sampler.start()
        try:
            run_event_loop(run(args))
        finally:
            cpu_sampler.stop()
            cpu_sampler.dump(args.sample_cpu)
        return
    if args.profile:
        import cProfile

        profiler = cProfile.Profile(time.process_time)  # CPU, not wall: a loaded machine
        profiler.enable()
        try:
            run_event_loop(run(args))
        finally:
            profiler.disable()
            profiler.dump_stats(args.profile)
        return
    if args.slow_callback_ms is not None:
        # asyncio's debug mode names each callback that held the loop too long.
        logging.getLogger("asyncio").setLevel(logging.WARNING)
        asyncio.run(run(args), debug=True)
    else:
        run_event_loop(run(args))  # as `python -m bot run` does


if __name__ == "__main__":
    main()
