"""Shared machinery of the proof tests: the bot as a killable OS process, a player who presses
buttons the way a person would and records what the bot acknowledged, and the checks that
tie what players were told to what storage holds.

`PROOF_SCALE` (an integer, default 1) multiplies the size of every proof run; the default
keeps the suite fast, `PROOF_SCALE=10` is the big run quoted in the closing note.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.tables import TableService
from cogs.utils.table import _decision_token, action_hash
from emulator import DiscordEmulator
from emulator.errors import EmulatorError
from emulator.interaction_records import InteractionRecord
from emulator.records import ChannelRecord, MessageRecord, UserRecord
from rules.core import Action, IllegalAction
from rules.core.game import Game

ROOT = Path(__file__).resolve().parents[2]


def scale() -> int:
    """How many times bigger than the default this run is (env PROOF_SCALE)."""
    return max(1, int(os.environ.get("PROOF_SCALE", "1")))


def is_board(message: MessageRecord, game_title: str) -> bool:
    return message.content.startswith(f"**{game_title}** — game #")


def board_lines(message: MessageRecord) -> list[str]:
    """The public event lines of one board post ("• …")."""
    return [line[2:] for line in message.content.splitlines() if line.startswith("• ")]


def public_lines_of_log(game: Game[Any, Any], state: Any, log: list[tuple[str, Action]]
                        ) -> list[str]:
    """Every public event line the stored action log produces, in order (a replay)."""
    out: list[str] = []
    for seat, action in log:
        outcome = game.apply(state, seat, action)
        out += [e.text for e in outcome.events if e.public]
        state = outcome.state
    return out


def is_subsequence(small: list[str], big: list[str]) -> bool:
    it = iter(big)
    return all(any(x == y for y in it) for x in small)


# ---- the bot as a process --------------------------------------------------------------------


class BotProcess:
    """`python -m tests.proof.botproc` (the real `python -m bot run`) against an emulator."""

    def __init__(self, emu: DiscordEmulator, db: Path, logdir: Path) -> None:
        self.emu = emu
        self.db = db
        self.logdir = logdir
        self.proc: subprocess.Popen[bytes] | None = None
        self.generation = 0
        self.kills = 0
        self.startup_seconds: list[float] = []
        self.hold_move = 0.4
        """Seconds each move of an aimed process lingers acknowledged but unanswered."""

    def env(self) -> dict[str, str]:
        env = dict(os.environ)
        env.update({
            "DISCORD_TOKEN": self.emu.bot_token, "DATABASE_PATH": str(self.db),
            "DISCORD_API_BASE": self.emu.api_base, "DISCORD_GATEWAY_URL": self.emu.gateway_url,
            "GUILD_READY_TIMEOUT": "0.05", "REMINDER_POLL_SECONDS": "3600",
            "LOG_LEVEL": "INFO", "PYTHONPATH": str(ROOT),
            # One heartbeat file per process (`python -m bot health`), not the shared default.
            "HEALTH_FILE": str(self.logdir / "health.json"),
        })
        # Every other process acknowledges each move at once (as a slow move is), the others
        # answer a quick move with its result (the default grace): kills land on both ways.
        env.pop("ANSWER_GRACE", None)
        env.pop("PROOF_HOLD_MOVE", None)
        if self.generation % 2:
            env["ANSWER_GRACE"] = "0"
            # The aimed kills land in these processes: each move lingers acknowledged and
            # unanswered a moment, before or after it is stored (tests/proof/botproc.py).
            env["PROOF_HOLD_MOVE"] = str(self.hold_move)
        return env

    async def start(self, timeout: float = 60.0) -> None:
        assert self.proc is None or self.proc.poll() is not None
        self.generation += 1
        log = (self.logdir / f"bot-{self.generation}.log").open("wb")
        began = time.monotonic()
        # cwd is the log folder so no developer `.env` leaks into the run.
        # Its own process group: the render pool's fork server and workers die with it, as
        # everything in a container does when the container is killed.
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tests.proof.botproc"], env=self.env(), cwd=self.logdir,
            stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        log.close()
        identifies = self.emu.stats.identifies
        deadline = time.monotonic() + timeout
        while not (self.emu.stats.identifies > identifies and self.emu.connected
                   and self.emu.commands.paths()):
            if self.proc.poll() is not None:
                raise AssertionError(f"the bot process exited with {self.proc.returncode}: "
                                     + self.log_text()[-2000:])
            if time.monotonic() > deadline:
                raise AssertionError("the bot process did not connect in time")
            await asyncio.sleep(0.05)
        # Slash commands are synced in setup_hook, before the gateway connects.
        self.startup_seconds.append(time.monotonic() - began)

    def kill(self) -> None:
        """SIGKILL the process this harness started and its children (its own process group,
        by the pid it was started with), and reap it."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.kills += 1
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait()

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def log_text(self) -> str:
        return "\n".join(p.read_text(errors="replace")
                         for p in sorted(self.logdir.glob("bot-*.log")))


# ---- a player who presses buttons ------------------------------------------------------------


@dataclass
class Press:
    """One move a player pressed, and what the bot told them about it."""

    game_id: int
    seat: str
    action: Action
    version: int
    line: str
    """The public event line the board shows when this move lands."""
    outcome: str = "pending"
    """acked (a board with its line appeared), answered (only an ephemeral answer: a refusal,
    or "recorded, but the board post failed"), lost (neither: the bot died), undelivered (no
    bot was connected to receive the press: Discord would say "This interaction failed")."""
    answer: str = ""
    interaction: InteractionRecord | None = None
    """The press's interaction: what the bot did with its token, in this process or after."""


@dataclass
class Player:
    """Drives one game's moves through Discord: the AI chooses, the player presses."""

    emu: DiscordEmulator
    tables: TableService
    game: Game[Any, Any]
    game_id: int
    thread: ChannelRecord
    users: dict[str, UserRecord]
    presses: list[Press] = field(default_factory=list)
    ack_timeout: float = 10.0
    generation: Callable[[], int] = lambda: 0
    """Which bot process runs now: a press whose bot died is lost, no need to wait longer."""

    def board(self) -> MessageRecord | None:
        for message in reversed(self.emu.messages_in(self.thread)):
            if any(c.startswith("hb:") and not c.startswith("hb:lobby")
                   for c in message.custom_ids):
                return message
        return None

    async def _inject(self, coro_factory: Any) -> InteractionRecord | None:
        """Inject an interaction; None when no bot is connected to receive it (killed)."""
        try:
            res: InteractionRecord = await coro_factory()
            return res
        except EmulatorError:
            return None

    async def next_move(self) -> Press | None:
        """Read the stored game, let the AI choose for an awaited seat, press it and wait for
        the bot's word. None when the game is over."""
        record = await self.tables.storage.get_game(self.game_id)
        assert record is not None
        if record.status != "active":
            return None
        state = await self.tables.state(self.game_id)
        awaited = sorted(self.game.to_act(state))
        if not awaited:
            return None
        seat = awaited[len(self.presses) % len(awaited)]
        action = self.game.ai_action(state, seat)
        try:
            outcome = self.game.apply(state.model_copy(deep=True), seat, action)
        except IllegalAction as exc:  # the AI must only choose legal moves
            raise AssertionError(f"AI chose an illegal move: {exc}") from exc
        line = next((e.text for e in outcome.events if e.public), "")
        press = Press(self.game_id, seat, action, state.step, line)
        user = self.users[seat]
        h = action_hash(action)
        token = _decision_token(self.game.decision_id(state, seat), getattr(record, "epoch", 0))
        wanted = f"hb:a:{self.game_id}:{seat}:{token}:{h}"
        menu_prefix = f"hb:s:{self.game_id}:{seat}:{token}:"

        def control(message: MessageRecord) -> tuple[str, bool] | None:
            """(custom id, is a menu) of this move's button or menu on `message`."""
            if wanted in message.custom_ids:
                return wanted, False
            for select in message.selects:
                if str(select.get("custom_id", "")).startswith(menu_prefix) and any(
                        o.get("value") == h for o in select.get("options", [])):
                    return str(select["custom_id"]), True
            return None

        board = self.board()
        if board is None:
            raise AssertionError(f"game {self.game_id}: no board to press on")
        target, found = board, control(board)
        if found is None:
            menu_res = await self._inject(
                lambda: self.emu.click(user, board, label="My choices", check=False))
            if menu_res is None:
                return await self._lost(press, None)
            try:
                await menu_res.wait_done(timeout=self.ack_timeout)
            except AssertionError:
                return await self._lost(press, menu_res)
            for message in menu_res.messages:
                if (found := control(message)) is not None:
                    target = message
                    break
            if found is None:
                press.outcome, press.answer = "no-choice", menu_res.text
                self.presses.append(press)
                return press
        cid, is_menu = found
        mark = self.emu.mark()
        if is_menu:
            res = await self._inject(lambda: self.emu.select(user, target, cid, [h]))
        else:
            res = await self._inject(lambda: self.emu.click(user, target, cid, check=False))
        self.presses.append(press)
        if res is None:
            press.outcome = "undelivered"
            return press
        press.interaction = res
        await self._await_word(press, res, mark)
        return press

    async def _lost(self, press: Press, res: InteractionRecord | None) -> Press:
        press.outcome = "lost" if res is not None else "undelivered"
        press.answer = res.text if res is not None else ""
        self.presses.append(press)
        return press

    async def _await_word(self, press: Press, res: InteractionRecord, mark: int) -> None:
        """acked: a thread post after the press carries the move's line; answered: the bot
        answered the presser ephemerally only; lost: neither came (the bot died)."""
        deadline = time.monotonic() + self.ack_timeout
        generation = self.generation()
        while time.monotonic() < deadline and self.generation() == generation:
            # a new post, or the current one edited in place (the same player acts on)
            for m in self.emu.messages_in(self.thread):
                if m.written > mark and f"• {press.line}" in m.content:
                    press.outcome = "acked"
                    return
            if res.done and any(m.ephemeral for m in res.followups):
                press.outcome, press.answer = "answered", res.text
                return
            await asyncio.sleep(0.03)
        # One last look: the board may have been posted just before the bot died.
        if any(m.written > mark and f"• {press.line}" in m.content
               for m in self.emu.messages_in(self.thread)):
            press.outcome = "acked"
            return
        press.outcome, press.answer = "lost", res.text


async def open_game(emu: DiscordEmulator, channel: ChannelRecord, users: list[UserRecord],
                    game: str, options: str | None = None, timeout: float = 15.0
                    ) -> ChannelRecord:
    """/game new, Join for the others, /game start; returns the game's thread."""
    opts: dict[str, Any] = {"game": game}
    if options:
        opts["options"] = options
    before = {t.id for t in emu.threads_of(channel)}
    res = await emu.slash(users[0], channel, "game new", opts)
    await res.wait_done(timeout)
    assert "is open in" in res.text, res.text
    [thread] = [t for t in emu.threads_of(channel) if t.id not in before]
    lobby = emu.messages_in(thread)[0]
    for user in users[1:]:
        join = await emu.click(user, lobby, label="Join")
        await join.wait_done(timeout)
        assert "You're in" in join.text, join.text
    start = await emu.slash(users[0], thread, "game start")
    await start.wait_done(timeout)
    assert "Started" in start.text, start.text
    return thread
