"""The gateway's heartbeat as discord.py measures it: the emulator's HEARTBEAT_ACK comes a
round trip after the heartbeat (`emulator.gateway.HEARTBEAT_ACK_SECONDS`), as Discord's does.
An instant ACK could beat discord.py's keep-alive thread to noting its send, so the client
measured its latency from the thread's start: "Can't keep up, websocket is 41.3s behind" at
the first heartbeat of a demo, and a `latency` a whole heartbeat interval long."""

from __future__ import annotations

import asyncio
from typing import Any

import discord.gateway
import pytest

import emulator.gateway
from emulator import running_bot
from tests.emulator.conftest import World
from tests.emulator.sample_bot import SampleBot

pytestmark = pytest.mark.xdist_group("timing")  # a keep-alive thread starved by a busy core
# would be late to note its send, which is the very race this checks

INTERVAL_MS = 400
BEATS = 5


async def test_every_heartbeat_latency_is_the_ack_delay_not_the_interval(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(emulator.gateway, "HEARTBEAT_INTERVAL_MS", INTERVAL_MS)
    measured: list[float] = []
    ack = discord.gateway.KeepAliveHandler.ack

    def noted(self: Any) -> None:
        ack(self)
        measured.append(self.latency)

    monkeypatch.setattr(discord.gateway.KeepAliveHandler, "ack", noted)
    client = SampleBot()
    async with running_bot(client, world.emu):
        for _ in range(200):
            if len(measured) >= BEATS:
                break
            await asyncio.sleep(0.05)
    assert len(measured) >= BEATS, measured
    # The race measured a whole interval (0.4 s and more); the ACK's delay is 0.1 s.
    assert all(lat < 0.75 * INTERVAL_MS / 1000 for lat in measured), measured
    assert min(measured) >= emulator.gateway.HEARTBEAT_ACK_SECONDS * 0.9, measured
