"""End-to-end harness: the real bot, through the unmodified discord.py client, against the
local Discord emulator, on a temporary SQLite file.

`table` gives a world with a server, a #general channel and three players (alice, bob,
carol), and a running bot; `table.restart()` stops the bot and starts a new process-worth of
it on the same database, as a redeploy would. The database starts as a copy of one already
migrated (`tests/dbtemplates.py`): a first start's migration is tested in `tests/bot`.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from bot.client import GameBot, build_bot
from bot.settings import Settings
from demo.rest import bot_at_rest, handler_tasks
from emulator import DiscordEmulator
from emulator.records import MessageRecord
from emulator.testing import running_bot
from rules.registry import GAMES, register, unregister
from tests.dbtemplates import migrated_sqlite
from tests.tinygame import GAME as HIGHCARD


class Table:
    """One emulated Discord server with a running bot."""

    def __init__(self, emu: DiscordEmulator, db: Path) -> None:
        self.emu = emu
        self.db = db
        self.guild = emu.create_guild("Haunted Table")
        self.alice = emu.create_user("alice")
        self.bob = emu.create_user("bob")
        self.carol = emu.create_user("carol")
        for user in (self.alice, self.bob, self.carol):
            emu.add_member(self.guild, user)
        self.general = emu.create_text_channel(self.guild, "general")
        self.bot: GameBot | None = None
        self._stack: contextlib.AsyncExitStack | None = None
        self.clock_now = 1_000_000.0

    def clock(self) -> float:
        return self.clock_now

    def settings(self, **overrides: Any) -> Settings:
        values: dict[str, Any] = {
            "discord_token": self.emu.bot_token, "database_path": self.db,
            "guild_ready_timeout": 0.05, "reminder_poll_seconds": 3600.0,
            # Tests press at machine speed: every player would always be at the table and
            # never pinged; tests/e2e/test_pings.py sets it and lets players think.
            "at_table_seconds": 0.0,
            # Tests read a player's summary DM right after a move: every DM is written at once
            # (tests/e2e/test_summary_settle.py sets a settle window and waits it out).
            "summary_settle_seconds": 0.0,
            "discord_api_base": self.emu.api_base, "discord_gateway_url": self.emu.gateway_url,
            # Whole games of AI moves stay quick: no think pause, the heuristic AI (a test
            # wanting either sets it: `table.start(ai_think_seconds=…)`, `ai_level:`).
            "ai_think_seconds": 0.0, "default_ai_level": "easy",
        }
        values.update(overrides)
        return Settings(**values)

    async def start(self, **overrides: Any) -> GameBot:
        self._stack = contextlib.AsyncExitStack()
        # What a bot stopped before left running is not this one's work (a simulated crash
        # leaves a press's task waiting for good).
        leftover = handler_tasks()
        bot = self.bot = build_bot(self.settings(**overrides), clock=self.clock)
        await self._stack.enter_async_context(running_bot(self.bot, self.emu))
        # Every settle, the emulator's own too, waits for the bot to be at rest.
        self.emu.busy = lambda: not bot_at_rest(bot, leftover)
        return self.bot

    async def stop(self) -> None:
        self.emu.busy = None
        if self._stack is not None:
            await self._stack.aclose()
            self._stack = None

    def crashed(self) -> None:
        """A test kills a move's task mid-way (a simulated crash): the bot is not at rest
        again until it restarts, so settling waits for the emulator's quiet alone."""
        self.emu.busy = None

    async def restart(self) -> GameBot:
        await self.stop()
        return await self.start()

    # ---- conveniences -------------------------------------------------------------------
    async def settle(self, timeout: float = 10.0) -> None:
        """Wait until the bot has made no request for a moment and is at rest (`bot_at_rest`),
        for `timeout` seconds at most (a test of a bot that never rests reads what it did)."""
        deadline = time.monotonic() + timeout
        while True:
            await self.emu.settle()
            if self.emu.busy is None or not self.emu.busy() or time.monotonic() >= deadline:
                return
            await asyncio.sleep(0.01)

    async def slash(self, user: Any, channel: Any, command: str, **options: Any) -> Any:
        res = await self.emu.slash(user, channel, command, options)
        await res.wait_done()
        await self.settle()
        return res

    async def click(self, user: Any, message: MessageRecord, custom_id: str | None = None,
                    *, label: str | None = None) -> Any:
        res = await self.emu.click(user, message, custom_id, label=label)
        await res.wait_callback()
        await self.settle()
        return res

    def thread(self) -> Any:
        threads = self.emu.threads_of(self.general)
        assert threads, "no game thread was opened"
        return threads[-1]

    def board(self) -> MessageRecord:
        """The newest message in the game thread that carries a board (a picture or buttons)."""
        for message in reversed(self.emu.messages_in(self.thread())):
            if message.custom_ids and any(c.startswith("hb:") and not c.startswith("hb:lobby")
                                          for c in message.custom_ids):
                return message
        raise AssertionError("no board post in the thread")

    async def lobby(self, game: str = "highcard", players: tuple[Any, ...] = (),
                    **options: Any) -> Any:
        """alice opens a game; `players` join with the lobby's Join button."""
        await self.slash(self.alice, self.general, "game new", game=game, **options)
        lobby = self.emu.messages_in(self.thread())[0]
        for user in players:
            await self.click(user, lobby, label="Join")
        return lobby

    async def game_id(self) -> int:
        assert self.bot is not None
        record = await self.bot.storage.find_game_by_thread(int(self.thread().id))
        assert record is not None
        return record.id


@pytest.fixture
def highcard() -> Any:
    register(HIGHCARD)
    yield HIGHCARD
    unregister(HIGHCARD.name)


@pytest_asyncio.fixture
async def table(tmp_path: Path, highcard: Any) -> AsyncIterator[Table]:
    async with DiscordEmulator() as emu:
        t = Table(emu, await migrated_sqlite(tmp_path / "games.sqlite3"))
        await t.start()
        try:
            yield t
        finally:
            await t.stop()
            assert "highcard" in GAMES
