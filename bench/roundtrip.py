"""Round trips through the local Discord emulator with the real discord.py client.

The emulator and the simulated players run here; the bot runs in its own process
(`bench.botproc`) against the emulator's REST and gateway on 127.0.0.1, as it would against
Discord. For N games played at once, each game's awaited player picks the built-in AI's move
after a think time and types it as the game's slash command (`/exorcism walk choice:…`; a
move no command covers is pressed as its board button). Measured per move, from the moment
the emulator sends the interaction:

- ack: until the bot's first answer to the interaction (Discord's 3-second clock);
- board: until the new board picture is posted in the game's thread.

`bare_roundtrip` measures the same two steps for a bare discord.py client whose `/ping`
defers at once: the emulator's and discord.py's own cost, the yardstick. The bot's loop-lag
probe reports the longest the bot's event loop was held while the games ran; the same probe in
an idle process alongside shows what the shared machine alone does to a loop, and one in the
emulator's process how late the players' side itself was (it delays the measured times too).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import re
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.stats import ms_full
from bot.looplag import LagSummary, LoopLagProbe
from cogs.utils.gamecog import Family
from cogs.utils.table import action_hash
from emulator import DiscordEmulator
from emulator.records import ChannelRecord, MessageRecord, UserRecord
from rules.core import Action
from rules.registry import GAMES

ROOT = Path(__file__).resolve().parent.parent

# The tables a benchmark run deals, in turn: every game and mode at a small table.
TABLES: tuple[tuple[str, str, int], ...] = (
    ("exorcism", "core", 2), ("fourth_wall", "conflict", 2), ("presence", "session", 3),
    ("exorcism", "solo", 1), ("fourth_wall", "alliance", 1), ("exorcism", "one_vs_all", 3),
)


def slash_families() -> dict[str, tuple[str, list[Family]]]:
    """Each game's slash group name and families, built as its cog builds them."""
    from cogs import exorcism, fourth_wall, presence

    return {"exorcism": ("exorcism", exorcism.families()),
            "fourth_wall": ("fourthwall", fourth_wall.families()),
            "presence": ("presence", presence.families())}


class Stamps:
    """Stamps the emulator's clock on every board the bot writes and wakes whoever waits for
    one (the emulator's own `wait_for_message` rescans every message on each change, which
    would make the players' side, not the bot, the bottleneck at 200 games).

    A board is written when a thread message carrying a picture is created, or edited with a
    new picture uploaded (the same decider's post is edited in place, `Delivery.post_board`).
    """

    def __init__(self, emu: DiscordEmulator) -> None:
        self.loop = asyncio.get_running_loop()
        self._waiters: dict[str, list[tuple[Callable[[MessageRecord], bool],
                                            asyncio.Future[float]]]] = {}
        self.latest: dict[str, MessageRecord] = {}
        """Each channel's newest board post (the one with the buttons)."""
        state: Any = emu._state
        original_create, original_edit = state.create_message, state.edit_message

        def create_message(*args: Any, **kwargs: Any) -> MessageRecord:
            msg: MessageRecord = original_create(*args, **kwargs)
            if _is_board(msg):
                self.latest[msg.channel_id] = msg
            self._written(msg)
            return msg

        def edit_message(msg: MessageRecord, body: dict[str, Any], files: Any = (),
                         **kwargs: Any) -> MessageRecord:
            out: MessageRecord = original_edit(msg, body, files, **kwargs)
            # The board of a newer move: new words or a new picture (a buttons strip has
            # neither; an edit whose picture did not change sends none, stop 68)
            if files or "content" in body:
                self._written(out)
            return out

        state.create_message = create_message
        state.edit_message = edit_message

    def _written(self, msg: MessageRecord) -> None:
        now = self.loop.time()
        for predicate, future in list(self._waiters.get(msg.channel_id, [])):
            if not future.done() and predicate(msg):
                future.set_result(now)

    def expect(self, channel_id: str,
               predicate: Callable[[MessageRecord], bool]) -> asyncio.Future[float]:
        """A future set to the emulator's clock when the next matching message is written."""
        future: asyncio.Future[float] = self.loop.create_future()
        waiters = self._waiters.setdefault(channel_id, [])
        entry = (predicate, future)
        waiters.append(entry)
        future.add_done_callback(lambda _: waiters.remove(entry))
        return future


BOARD_PICTURES = ("turn.png", "board.png", "recap.png")
"""What a move's picture is called: the turn card, the whole board, or (the move that ends
the game) the game-over post's recap."""


def _is_board(msg: MessageRecord) -> bool:
    return any(a.filename in BOARD_PICTURES for a in msg.attachments)


def _proc_table() -> dict[int, tuple[int, float]]:
    """pid -> (parent pid, user + system CPU seconds so far), for every process (/proc)."""
    tick = os.sysconf("SC_CLK_TCK")
    out: dict[int, tuple[int, float]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        out[int(entry.name)] = (int(fields[1]), (int(fields[11]) + int(fields[12])) / tick)
    return out


def tree_pids(root: int, table: dict[int, tuple[int, float]] | None = None) -> list[int]:
    """`root` and every live descendant (the bot, its fork server, its render workers and
    multiprocessing's resource tracker)."""
    table = table if table is not None else _proc_table()
    children: dict[int, list[int]] = {}
    for pid, (parent, _) in table.items():
        children.setdefault(parent, []).append(pid)
    found, stack = [], [root]
    while stack:
        pid = stack.pop()
        if pid in table:
            found.append(pid)
        stack.extend(children.get(pid, []))
    return found


def cpu_seconds(root: int, *, alone: bool = False) -> float:
    """User + system CPU seconds used so far by process `root` and every live descendant
    (`alone`: by `root` only). A descendant that ended took its seconds with it: the render
    workers live as long as the bot, so nothing of the measured work is lost."""
    table = _proc_table()
    if alone:
        return table[root][1] if root in table else 0.0
    return sum(table[pid][1] for pid in tree_pids(root, table))


def tree_memory(root: int) -> dict[str, Any]:
    """Resident memory of `root`'s process tree: RSS summed (pages shared between processes
    counted in each, the figure `ps` and the issue use) and PSS (shared pages split between
    their sharers: what the tree really costs the machine), in MiB, and the process count."""
    rss = pss = 0
    pids = tree_pids(root)
    for pid in pids:
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    rss += int(line.split()[1])
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    pss += int(line.split()[1])
    return {"processes": len(pids), "rss_mib": round(rss / 1024, 1),
            "pss_mib": round(pss / 1024, 1)}


@contextlib.contextmanager
def busy_core(enabled: bool = True) -> Iterator[int | None]:
    """A competing process holding one core busy for as long as the block runs (a plain
    spin loop at normal priority, as another tenant of the machine would); yields its pid."""
    if not enabled:
        yield None
        return
    spinner = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        yield spinner.pid
    finally:
        spinner.terminate()
        spinner.wait(10)


def quarter_growth(values: list[float]) -> float | None:
    """Median of the last quarter over the median of the first (in time order): above 1 the
    work queues up faster than it is done."""
    if len(values) < 8:
        return None
    q = len(values) // 4
    first, last = statistics.median(values[:q]), statistics.median(values[-q:])
    return round(last / max(first, 1e-9), 2)


def request_counts(emu: DiscordEmulator) -> Counter[str]:
    return Counter(emu.stats.requests)


TOKEN_ROUTES = ("POST /interactions/", "GET /webhooks/{application_id}/{token}",
                "POST /webhooks/{application_id}/{token}",
                "PATCH /webhooks/{application_id}/{token}",
                "DELETE /webhooks/{application_id}/{token}")
"""Routes an interaction's own token pays for (its answer, follow-ups and edits of them):
outside Discord's global limit of 50 requests a second per bot token."""


def past_3s(interactions: list[Any]) -> int:
    """Interactions answered after Discord's 3 s, or refused as late: the player saw "This
    interaction failed" (the move then counts as failed)."""
    return sum(1 for r in interactions
               if r.late or (r.latency is not None and r.latency > 3.0))


def answer_kinds(interactions: list[Any]) -> dict[str, int]:
    """How the moves' interactions were first answered: with the result ("Done: …" or the
    pressed post edited), the move's words ("Playing: …"), a deferral, or not in time."""
    out: Counter[str] = Counter()
    for r in interactions:
        if r.late or r.callback_type is None:
            out["late or never"] += 1
        elif r.callback_type == 4:
            text = str((r.callback_data or {}).get("content") or "")
            out["words" if text.startswith("Playing:") else "result"] += 1
        elif r.callback_type == 7:
            out["result"] += 1
        else:
            out["deferred"] += 1
    return dict(out)


def bot_token_requests(requests: Counter[str]) -> int:
    """Requests made with the bot's token: what Discord's global rate limit counts."""
    return sum(n for route, n in requests.items() if not route.startswith(TOKEN_ROUTES))


@dataclass
class Sample:
    game: str
    how: str
    ack: float
    board: float | None
    at: float = 0.0
    """When the move was sent (the emulator's clock): samples sort by it."""


@dataclass
class BotProcess:
    """The bot (or the bare client) in a child process, steered by signals."""

    emu: DiscordEmulator
    bare: bool
    workdir: Path
    proc: asyncio.subprocess.Process | None = None
    idle: bool = False
    probe_interval: float = 0.005
    """The loop-lag probe's period: 5 ms to time stalls finely; 50 ms (as `python -m bot run`
    probes) where the bot's CPU is what is measured — a 5 ms probe costs ~2 ms per move."""

    @property
    def lag_file(self) -> Path:
        return self.workdir / "lag.json"

    @property
    def db(self) -> Path:
        return self.workdir / "bot.sqlite3"

    async def start(self, timeout: float = 60.0) -> None:
        args = [sys.executable, "-m", "bench.botproc", "--api-base", self.emu.api_base,
                "--gateway", self.emu.gateway_url, "--token", self.emu.bot_token,
                "--db", str(self.db), "--lag-out", str(self.lag_file),
                "--probe-interval", str(self.probe_interval)]
        if self.bare:
            args.append("--bare")
        if self.idle:
            args.append("--idle")
        if os.environ.get("BENCH_NO_FREEZE") and not self.idle:
            args.append("--no-freeze")
        if os.environ.get("BENCH_NO_ORJSON") and not self.idle:
            args.append("--no-orjson")
        if os.environ.get("BENCH_THREAD_RENDERS") and not self.idle:
            args.append("--thread-renders")
        if os.environ.get("BENCH_STALL_STACKS") and not self.idle:
            args.append("--stall-stacks")
        if os.environ.get("BENCH_PROFILE") and not self.idle:
            args += ["--profile", os.environ["BENCH_PROFILE"]]
        if os.environ.get("BENCH_SAMPLE_CPU") and not self.idle:
            args += ["--sample-cpu", os.environ["BENCH_SAMPLE_CPU"]]
        if os.environ.get("BENCH_SLOW_CALLBACK_MS"):
            args += ["--slow-callback-ms", os.environ["BENCH_SLOW_CALLBACK_MS"]]
        self.proc = await asyncio.create_subprocess_exec(*args, cwd=str(ROOT))
        wanted = "ping" if self.bare else "game new"
        deadline = time.monotonic() + timeout
        while (not self.lag_file.exists() if self.idle else
               wanted not in self.emu.commands.all_paths() or not self.emu.connected):
            if self.proc.returncode is not None:
                raise RuntimeError(f"the bot process exited with {self.proc.returncode}")
            if time.monotonic() > deadline:
                raise RuntimeError("the bot process did not connect and sync its commands")
            await asyncio.sleep(0.05)

    def reset_lag(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGUSR1)

    async def lag(self) -> tuple[LagSummary, dict[str, Any]]:
        assert self.proc is not None
        self.lag_file.unlink(missing_ok=True)
        self.proc.send_signal(signal.SIGUSR2)
        for _ in range(200):
            if self.lag_file.exists() and self.lag_file.stat().st_size:
                with contextlib.suppress(ValueError):
                    data = json.loads(self.lag_file.read_text())
                    phases = dict(data["phases"])
                    if data.get("heap"):
                        phases["heap"] = data["heap"]
                    if data.get("summary_dms"):
                        phases["summary_dms"] = data["summary_dms"]
                    if data.get("stall_stacks"):
                        phases["stall_stacks"] = data["stall_stacks"]
                    return LagSummary.model_validate(data["lag"]), phases
            await asyncio.sleep(0.05)
        raise RuntimeError("the bot process wrote no loop-lag summary")

    async def stop(self) -> None:
        if self.proc is None or self.proc.returncode is not None:
            return
        self.proc.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(self.proc.wait(), 20)
        except TimeoutError:
            self.proc.kill()
            await self.proc.wait()


@contextlib.asynccontextmanager
async def bot_against_emulator(bare: bool, probe_interval: float = 0.005,
                               ) -> AsyncIterator[tuple[DiscordEmulator, BotProcess]]:
    with tempfile.TemporaryDirectory() as tmp:
        async with DiscordEmulator() as emu:
            proc = BotProcess(emu, bare, Path(tmp), probe_interval=probe_interval)
            try:
                await proc.start()
                yield emu, proc
            finally:
                await proc.stop()


async def bare_roundtrip(pings: int = 200) -> dict[str, Any]:
    """The emulator's own round trip: `/ping` → the bare client's deferral, one at a time."""
    async with bot_against_emulator(bare=True) as (emu, proc):
        guild = emu.create_guild("Bench")
        user = emu.create_user("pinger")
        emu.add_member(guild, user)
        channel = emu.create_text_channel(guild, "ping")
        await emu.settle()
        acks: list[float] = []
        for i in range(pings + 5):
            res = await emu.slash(user, channel, "ping")
            await res.wait_done(timeout=10)
            if i == 4:  # the first calls warm discord.py's caches and connections
                proc.reset_lag()
            if i < 5:
                continue
            assert res.latency is not None
            acks.append(res.latency)
            # A pause, so each ping finds the client idle, as a player's move finds the bot.
            await asyncio.sleep(0.02)
        lag, _ = await proc.lag()
        return {"pings": pings, "ack": ms_full(acks), "loop_lag": lag.model_dump()}


@dataclass
class Table:
    """One game played through Discord by emulated players."""

    emu: DiscordEmulator
    stamps: Stamps
    db: sqlite3.Connection
    channel: ChannelRecord
    name: str
    mode: str
    users: list[UserRecord]
    commands: dict[str, tuple[str, list[Family]]]
    game_id: int = 0
    thread_id: str = ""
    seat_users: dict[str, UserRecord] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)
    style: str = "type"
    """How the players move: `type` (slash commands) or `press` (the board's buttons, and
    those of the private menu the bot offers a presser whose next choices are private)."""
    presses: dict[str, Any] = field(default_factory=dict)
    """Each seat's last press: the private menu the bot may offer with it follows the game."""
    menus: dict[str, MessageRecord] = field(default_factory=dict)
    """Each seat's private menu, once offered."""
    new_options: dict[str, Any] = field(default_factory=dict)
    """More options of `/game new` (`ai`, `ai_level`: AI seats beside the players)."""
    planned: dict[int, tuple[str, Action]] = field(default_factory=dict)
    """Moves decided before the clock started (`plan`), by the game's step they are for."""

    def plan(self, moves: int) -> None:
        """Decide the game's next `moves` moves now, as `move` would (the easy AI of the
        awaited seat), on the engine alone: the emulated players' thinking then costs the
        measured stretch nothing. On a two-core machine it would otherwise share the cores with
        the bot it measures (about 2 ms a move, a third of the emulated side's CPU), which real
        players do on their own machines."""
        _, state = self._state()
        game = GAMES[self.name]
        for _ in range(moves):
            if state is None or game.result(state) is not None or not game.to_act(state):
                return
            seat = sorted(game.to_act(state))[0]
            action = game.ai_action(state, seat)
            self.planned[state.step] = (seat, action)
            state = game.apply(state, seat, action).state

    async def open(self) -> None:
        res = await self.emu.slash(self.users[0], self.channel, "game new",
                                   {"game": self.name, "mode": self.mode, **self.new_options})
        await res.wait_done(timeout=60)
        found = re.search(r"Game #(\d+) is open in <#(\d+)>", res.text)
        if found is None:
            raise RuntimeError(f"/game new failed: {res.text}")
        self.game_id, self.thread_id = int(found[1]), found[2]
        lobby = self.emu.messages_in(self.thread_id)[0]
        for user in self.users[1:]:
            await (await self.emu.click(user, lobby, label="Join")).wait_done(timeout=60)
        start = await self.emu.slash(self.users[0], self.thread_id, "game start")
        await start.wait_done(timeout=60)
        if "Started" not in start.text:
            raise RuntimeError(f"/game start failed: {start.text}")
        by_id = {int(u.id): u for u in self.users}
        rows = self.db.execute("SELECT seat, user_id FROM seats WHERE game_id = ?",
                               (self.game_id,)).fetchall()
        self.seat_users = {seat: by_id[uid] for seat, uid in rows if uid in by_id}

    def _state(self) -> tuple[str, Any]:
        status, text = self.db.execute("SELECT status, state FROM games WHERE id = ?",
                                       (self.game_id,)).fetchone()
        return status, GAMES[self.name].load_state(text) if text else None

    async def move(self) -> Sample | None:
        """One AI move typed or pressed by the awaited player; None once the game is over."""
        status, state = self._state()
        game = GAMES[self.name]
        if status != "active" or state is None or not game.to_act(state):
            return None
        seat = sorted(game.to_act(state))[0]
        user = self.seat_users[seat]
        planned = self.planned.pop(state.step, None)
        if planned is not None and planned[0] == seat \
                and planned[1] in game.legal_actions(state, seat):
            action = planned[1]
        else:  # not planned (or the game went elsewhere): decided now
            action = game.ai_action(state, seat)
        posted = self.stamps.expect(self.thread_id, _is_board)
        try:
            res, how = await self._send(user, seat, action)
            await res.wait_callback(timeout=30)
            board_at = await asyncio.wait_for(posted, 30)
            await res.wait_done(timeout=30)
            if how == "button":
                self.presses[seat] = res  # the menu it may bring follows the answer
        except Exception as exc:  # a failed move is counted and reported, not fatal
            posted.cancel()
            self.failures.append(f"{self.name}/{self.mode} {action.kind}: {exc}")
            return None
        assert res.latency is not None
        return Sample(self.name, how, res.latency, board_at - res.created_at, res.created_at)

    def _menu(self, seat: str) -> MessageRecord | None:
        """The private menu the bot offered `seat` (or kept following its presses), if any."""
        res = self.presses.get(seat)
        mine = (f"hb:a:{self.game_id}:{seat}:", f"hb:s:{self.game_id}:{seat}:")
        for msg in reversed(res.messages if res is not None else []):
            if msg.ephemeral and any(c.startswith(mine) for c in msg.custom_ids):
                self.menus[seat] = msg
                break
        menu = self.menus.get(seat)
        return menu if menu is not None and not menu.deleted else None

    async def _send(self, user: UserRecord, seat: str, action: Action) -> tuple[Any, str]:
        """Type the move as its slash command, or press its button on the board: `press`
        players press whenever the board, or the private menu the bot offered them, offers the
        move (as the design expects most players to), `type` players type whenever a command
        covers it."""
        group, families = self.commands[self.name]
        family = next((f for f in families if action.kind in f.kinds), None)
        h = action_hash(action)
        if self.style == "press" or family is None:
            board = self.stamps.latest.get(self.thread_id)
            menu = self._menu(seat) if self.style == "press" else None
            prefix = f"hb:a:{self.game_id}:{seat}:"
            for where in (board, menu):
                if where is None or where.deleted:
                    continue
                for cid in where.custom_ids:
                    if cid.startswith(prefix) and cid.endswith(h):
                        return await self.emu.click(user, where, cid), "button"  # type: ignore[arg-type]
                for select in where.selects:  # many choices: menus of 25
                    cid = str(select.get("custom_id", ""))
                    if cid.startswith(f"hb:s:{self.game_id}:{seat}:") and any(
                            o.get("value") == h for o in select.get("options", [])):
                        return await self.emu.select(user, where, cid, [h]), "button"  # type: ignore[arg-type]
        if family is not None:
            res = await self.emu.slash(user, self.thread_id, f"{group} {family.name}",
                                       {"choice": h})
            return res, "slash"
        raise RuntimeError(f"no command or button plays {action.kind}")


def _new_tables(emu: DiscordEmulator, stamps: Stamps, db: sqlite3.Connection, games: int,
                kinds: tuple[tuple[str, str, int], ...] = TABLES,
                prefix: str = "p", styles: tuple[str, ...] = ("type",)) -> list[Table]:
    guild = emu.create_guild("Bench")
    channels = [emu.create_text_channel(guild, f"tables-{i}")
                for i in range(max(1, games // 25 + 1))]
    commands = slash_families()
    tables: list[Table] = []
    for n in range(games):
        name, mode, players = kinds[n % len(kinds)]
        users = [emu.create_user(f"{prefix}{n}-{i}") for i in range(players)]
        for user in users:
            emu.add_member(guild, user)
        tables.append(Table(emu, stamps, db, channels[n % len(channels)], name, mode,
                            users, commands, style=styles[n % len(styles)]))
    return tables


def _writes(emu: DiscordEmulator, channels: list[str]) -> dict[str, int]:
    """Bot messages posted and edits made in a game's thread and its players' DMs."""
    out = {"thread_posts": 0, "thread_edits": 0, "dm_posts": 0, "dm_edits": 0}
    bot_id = emu.bot_user.id
    for channel in channels:
        where = "dm" if emu.channels[channel].recipient_id else "thread"
        for msg in emu.messages_in(channel):
            if msg.author_id == bot_id and not msg.interaction_id:
                out[f"{where}_posts"] += 1
                out[f"{where}_edits"] += len(msg.history)
    return out


def _players_db(proc: BotProcess) -> sqlite3.Connection:
    # The players read each game's state as the bot stored it (the bot migrated its
    # database before it synced its commands, so the file is there).
    return sqlite3.connect(f"file:{proc.db}?mode=ro", uri=True, check_same_thread=False)


async def games_roundtrip(games: int, think: float, seconds: float,
                          setup_concurrency: int = 8, seed: int = 1,
                          busy: bool = False, warmup: float = 0.0,
                          plan: bool = True) -> dict[str, Any]:
    """`games` games at once, each moving after a think time of about `think` seconds, for
    `seconds` seconds; ack and board-posted latency per move, the bot's loop lag, the whole
    process tree's CPU and memory, and Discord requests per move. `busy`: a competing process
    holds one core busy meanwhile (`busy_core`). `warmup`: the games play as long first,
    unmeasured but under the same load, so the measured stretch sees games under way rather
    than their openings alone (a game's first moves send its seats' first DMs: one request per
    seat and game, which a stretch of four moves a game would count ×N for a game of N moves);
    what the warm-up cost is reported beside (`warmup`). `plan`: the players decide their
    moves during the setup (`Table.plan`), not on the clock."""
    rng = random.Random(seed)
    async with bot_against_emulator(bare=False, probe_interval=0.05 if busy else 0.005,
                                    ) as (emu, proc):
        assert proc.proc is not None
        await emu.settle(quiet=0.3, timeout=30)
        memory_started = tree_memory(proc.proc.pid)
        stamps = Stamps(emu)
        db = _players_db(proc)
        tables = _new_tables(emu, stamps, db, games)
        await emu.settle()
        began = time.perf_counter()
        gate = asyncio.Semaphore(setup_concurrency)

        # Enough moves for every game to move as often as its players could think.
        planned = min(40, int((warmup + seconds) / (0.5 * think)) + 2) if plan else 0

        async def open_one(table: Table) -> None:
            async with gate:
                await table.open()
                table.plan(planned)

        await asyncio.gather(*(open_one(t) for t in tables))
        setup_s = time.perf_counter() - began
        await emu.settle(quiet=0.2, timeout=60)
        control = BotProcess(emu, bare=False, workdir=proc.workdir / "idle", idle=True)
        control.workdir.mkdir()
        await control.start()
        ended = 0
        over: set[int] = set()  # tables whose game ended (or failed for good)

        async def play(table: Table, deadline: float, into: list[Sample]) -> None:
            nonlocal ended
            if id(table) in over:
                return
            await asyncio.sleep(min(rng.uniform(0, think),
                                    max(0.0, deadline - time.perf_counter())))
            while time.perf_counter() < deadline:
                sample = await table.move()
                if sample is None:
                    if not table.failures or len(table.failures) >= 3:
                        ended += not table.failures
                        over.add(id(table))
                        return
                else:
                    into.append(sample)
                # Never past the deadline: the measured stretch starts with every game idle.
                await asyncio.sleep(min(rng.uniform(0.5 * think, 1.5 * think),
                                        max(0.0, deadline - time.perf_counter())))

        with busy_core(busy) as spinner:
            warm: dict[str, Any] = {}
            if warmup > 0:
                warm_samples: list[Sample] = []
                warm_first = len(emu.interactions)
                warm_requests = request_counts(emu)
                w0 = time.perf_counter()
                await asyncio.gather(*(play(t, w0 + warmup, warm_samples) for t in tables))
                warm_moves = len(warm_samples)
                warm_spent = request_counts(emu) - warm_requests
                warm = {"seconds": round(time.perf_counter() - w0, 2), "moves": warm_moves,
                        "requests_per_move": (round(warm_spent.total() / warm_moves, 2)
                                              if warm_moves else 0.0),
                        "first_dms": warm_spent.get("POST /channels/{channel_id}/messages", 0),
                        "interactions_past_3s": past_3s(
                            list(emu.interactions)[warm_first:]),
                        "games_ended": ended}
                ended = 0
            control.reset_lag()
            proc.reset_lag()
            harness = LoopLagProbe().start()
            first_interaction = len(emu.interactions)
            load_began = os.getloadavg()[0]
            requests_before = request_counts(emu)
            cpu_before = cpu_seconds(proc.proc.pid)
            main_before = cpu_seconds(proc.proc.pid, alone=True)
            samples: list[Sample] = []
            own_before = time.process_time()
            t0 = time.perf_counter()
            await asyncio.gather(*(play(t, t0 + seconds, samples) for t in tables))
            took = time.perf_counter() - t0
            # The emulated side (Discord, the players) runs in this process, on the same cores.
            own_cpu = time.process_time() - own_before
            bot_cpu = cpu_seconds(proc.proc.pid) - cpu_before
            main_cpu = cpu_seconds(proc.proc.pid, alone=True) - main_before
        load_ended = os.getloadavg()[0]
        # Every interaction of the measured stretch answered after Discord's 3 s, or refused
        # as late (the player saw "This interaction failed"; the move then counts as failed).
        measured = list(emu.interactions)[first_interaction:]
        late = past_3s(measured)
        answers = answer_kinds(measured)
        memory_games = tree_memory(proc.proc.pid)
        lag, phases = await proc.lag()
        floor, _ = await control.lag()
        players_lag = await harness.stop()
        await control.stop()
        db.close()
        # Summary DM edits the bot held back belong to the moves measured: the bot is stopped
        # cleanly, which writes them, before the requests are counted (its other closing
        # requests count too). That overstates a long run: a mover's DM held for their next
        # decision is written by that decision's own edit, not one of its own — so the count
        # before the stop is kept too (it leaves out edits held for a few seconds).
        await emu.settle(quiet=0.2, timeout=30)
        held_back = request_counts(emu) - requests_before
        await proc.stop()
        await emu.settle(quiet=0.2, timeout=30)
        requests = request_counts(emu) - requests_before
        failures = [f for t in tables for f in t.failures]
        samples.sort(key=lambda s: s.at)
        boards = [s.board for s in samples if s.board is not None]
        moves = len(samples)
        return {
            "games": games, "think_s_mean": think, "seconds": round(took, 2),
            "warmup": warm,
            "competing_busy_core": spinner is not None,
            "setup_s": round(setup_s, 2), "moves": moves,
            "moves_per_s": round(moves / took, 2) if took else 0.0,
            # CPU the bot and its render workers spent per move: unlike wall times, not
            # inflated by other processes on a shared machine; 1000 / this = moves per second
            # one core sustains at saturation.
            "bot_cpu_ms_per_move": round(bot_cpu * 1000 / moves, 1) if moves else 0.0,
            # The bot's own process alone (the rest of the tree is its render worker).
            "bot_process_cpu_ms_per_move": round(main_cpu * 1000 / moves, 1) if moves else 0.0,
            "moves_per_s_per_core_at_saturation": (
                round(moves / bot_cpu, 1) if moves and bot_cpu else 0.0),
            "bot_cpu_share_of_2_cores": round(bot_cpu / took / 2, 3) if took else 0.0,
            # What the emulated Discord and players spent per move meanwhile (not the bot's:
            # on a real server it is Discord's and the players' own machines').
            "emulator_cpu_ms_per_move": round(own_cpu * 1000 / moves, 1) if moves else 0.0,
            "requests_per_move": round(requests.total() / moves, 2) if moves else 0.0,
            "requests_per_move_bot_token": (
                round(bot_token_requests(requests) / moves, 2) if moves else 0.0),
            "requests_by_route": dict(requests.most_common(12)),
            "requests_per_move_before_stop": (
                round(held_back.total() / moves, 2) if moves else 0.0),
            "interactions_past_3s": late,
            "first_answers": answers,
            "load_average": round((load_began + load_ended) / 2, 2),
            "memory_after_start": memory_started,
            "memory_with_games": memory_games,
            "memory_per_game_mib": round(
                (memory_games["rss_mib"] - memory_started["rss_mib"]) / max(1, games), 3),
            "games_ended": ended, "failures": len(failures), "failure_examples": failures[:3],
            "ack": ms_full([s.ack for s in samples]),
            "acks_over_3s": sum(s.ack > 3.0 for s in samples),
            "ack_slash": ms_full([s.ack for s in samples if s.how == "slash"]),
            "ack_button": ms_full([s.ack for s in samples if s.how == "button"]),
            "board": ms_full(boards),
            "board_last_over_first_quarter": quarter_growth(boards),
            "loop_lag": lag.model_dump(),
            "idle_process_loop_lag": floor.model_dump(),
            "emulator_process_loop_lag": players_lag.model_dump(),
            "bot_phases": phases,
            "summary_dms": phases.get("summary_dms", {}),
        }


async def whole_games(per_kind: int = 1,
                      styles: tuple[str, ...] = ("type", "press")) -> dict[str, Any]:
    """Whole games, one at a time, of every game and mode in `TABLES` (`per_kind` of each, for
    each style of play: players who `type` every move a command covers, players who `press`
    the board's buttons, or those of the private menu the bot offered them after a press,
    whenever these offer their move), each from `/game new` to its end with
    no think time: per game, the CPU the bot's whole process tree spent per move (render,
    engine, storage, discord.py, DMs — everything) and the requests the bot made to Discord
    per move (the lobby and the deal included)."""
    rows: list[dict[str, Any]] = []
    plan = [(kind, style) for style in styles for kind in TABLES for _ in range(per_kind)]
    async with bot_against_emulator(bare=False, probe_interval=0.05) as (emu, proc):
        assert proc.proc is not None
        await emu.settle(quiet=0.3, timeout=30)
        memory_started = tree_memory(proc.proc.pid)
        stamps = Stamps(emu)
        db = _players_db(proc)
        tables = _new_tables(emu, stamps, db, len(plan), tuple(k for k, _ in plan), prefix="w")
        for table, (_, style) in zip(tables, plan, strict=True):
            table.style = style
        await emu.settle()
        for table in tables:
            requests_before = request_counts(emu)
            cpu_before = cpu_seconds(proc.proc.pid)
            main_before = cpu_seconds(proc.proc.pid, alone=True)
            t0 = time.perf_counter()
            await table.open()
            setup_requests = (request_counts(emu) - requests_before).total()
            moves = 0
            while await table.move() is not None:
                moves += 1
                if moves > 2000:
                    break
            await emu.settle(quiet=0.1, timeout=30)
            cpu = cpu_seconds(proc.proc.pid) - cpu_before
            main = cpu_seconds(proc.proc.pid, alone=True) - main_before
            requests = request_counts(emu) - requests_before
            writes = _writes(emu, [table.thread_id, *(
                u.dm_channel_id for u in table.users if u.dm_channel_id)])
            rows.append({
                "game": table.name, "mode": table.mode, "players": len(table.users),
                "style": table.style, "moves": moves, "ended": table._state()[0] != "active",
                "failures": table.failures[:3], "seconds": round(time.perf_counter() - t0, 1),
                "cpu_ms_per_move": round(cpu * 1000 / max(1, moves), 1),
                "cpu_ms_per_move_bot_process": round(main * 1000 / max(1, moves), 1),
                "requests": requests.total(),
                "requests_per_move": round(requests.total() / max(1, moves), 2),
                "setup_requests": setup_requests,
                "requests_by_route": dict(requests.most_common(8)),
                "messages": writes,
            })
        db.close()
        memory_played = tree_memory(proc.proc.pid)

    def per_move(chosen: list[dict[str, Any]]) -> float:
        moves = sum(r["moves"] for r in chosen)
        return round(sum(r["requests"] for r in chosen) / max(1, moves), 2)

    return {
        "games": rows,
        "cpu_ms_per_move_median": round(statistics.median(r["cpu_ms_per_move"] for r in rows), 1),
        "cpu_ms_per_move_max": max(r["cpu_ms_per_move"] for r in rows),
        "requests_per_move_mean": per_move(rows),
        "requests_per_move_by_style": {
            style: per_move([r for r in rows if r["style"] == style]) for style in styles},
        "requests_per_move_max": max(r["requests_per_move"] for r in rows),
        "failures": sum(len(r["failures"]) for r in rows),
        "memory_after_start": memory_started,
        "memory_after_games": memory_played,
    }


def load_average() -> float:
    return os.getloadavg()[0]
