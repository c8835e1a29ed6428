"""Fixtures for the emulator's own tests: a small world, the sample bot running in it,
and guards that every test leaves no task running and discord.py's endpoints restored."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass

import discord.gateway
import discord.http
import pytest
import pytest_asyncio

from emulator import (
    ChannelRecord,
    DiscordEmulator,
    GuildRecord,
    UserRecord,
    running_bot,
)
from emulator.testing import emulator  # noqa: F401  (re-exported pytest fixture)
from tests.emulator.sample_bot import SampleBot


@dataclass
class World:
    emu: DiscordEmulator
    guild: GuildRecord
    alice: UserRecord
    bob: UserRecord
    general: ChannelRecord


@pytest.fixture(autouse=True)
def discord_endpoints_restored() -> Iterator[None]:
    before = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
    yield
    after = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
    assert after == before, "discord.py endpoints were left patched"


@pytest_asyncio.fixture(autouse=True)
async def no_leaked_tasks() -> AsyncIterator[None]:
    before = asyncio.all_tasks()
    yield
    current = asyncio.current_task()
    leaked: set[asyncio.Task[object]] = set()
    for _ in range(50):
        leaked = {t for t in asyncio.all_tasks() - before if t is not current and not t.done()}
        if not leaked:
            return
        await asyncio.sleep(0.01)
    pytest.fail(f"tasks left running: {sorted(repr(t.get_coro()) for t in leaked)}")


@pytest_asyncio.fixture
async def world() -> AsyncIterator[World]:
    async with DiscordEmulator() as emu:
        guild = emu.create_guild("Haunted Table")
        alice = emu.create_user("alice")
        bob = emu.create_user("bob")
        emu.add_member(guild, alice)
        emu.add_member(guild, bob)
        general = emu.create_text_channel(guild, "general")
        yield World(emu, guild, alice, bob, general)


@pytest_asyncio.fixture
async def bot(world: World) -> AsyncIterator[SampleBot]:
    client = SampleBot()
    async with running_bot(client, world.emu):
        yield client
