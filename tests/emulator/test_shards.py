"""Several shard connections against one emulator."""

from __future__ import annotations

import contextlib
from typing import Any

import discord
import pytest
from discord.ext import commands

from emulator import FAST_CLIENT_OPTIONS, DiscordEmulator, running_bot
from tests.emulator.sample_bot import SampleBot


async def test_two_shards_each_get_their_own_guilds() -> None:
    async with DiscordEmulator() as emu:
        alice = emu.create_user("alice")
        g0 = emu.create_guild("Even", shard=(0, 2))
        g1 = emu.create_guild("Odd", shard=(1, 2))
        assert (emu.shard_of(g0, 2), emu.shard_of(g1, 2)) == (0, 1)
        channels = []
        for guild in (g0, g1):
            emu.add_member(guild, alice)
            channels.append(emu.create_text_channel(guild, "general"))
        bot0 = SampleBot(shard_id=0, shard_count=2)
        bot1 = SampleBot(shard_id=1, shard_count=2)
        async with contextlib.AsyncExitStack() as stack:
            await stack.enter_async_context(running_bot(bot0, emu))
            await stack.enter_async_context(running_bot(bot1, emu))
            await emu.wait_until_connected(sessions=2)
            assert [g.name for g in bot0.guilds] == ["Even"]
            assert [g.name for g in bot1.guilds] == ["Odd"]
            on_odd = await (await emu.slash(alice, channels[1], "game shard")).wait_done()
            on_even = await (await emu.slash(alice, channels[0], "game shard")).wait_done()
            in_dm = await (await emu.slash(alice, None, "game shard")).wait_done()
            assert (on_even.text, on_odd.text, in_dm.text) == ("shard 0", "shard 1", "shard 0")
            late = emu.create_guild("Late odd", shard=(1, 2))
            await emu.settle()
            assert bot1.get_guild(int(late.id)) is not None
            assert bot0.get_guild(int(late.id)) is None
            assert sorted((s.shard_id, s.shard_count) for s in emu.sessions) == [(0, 2), (1, 2)]


async def test_auto_sharded_bot_asks_gateway_bot() -> None:
    async with DiscordEmulator() as emu:
        emu.create_guild("Solo")
        options: dict[str, Any] = {"intents": discord.Intents.default(), **FAST_CLIENT_OPTIONS}
        client = commands.AutoShardedBot(command_prefix="!", **options)
        async with running_bot(client, emu):
            assert client.shard_count == 1
            assert [g.name for g in client.guilds] == ["Solo"]
        assert emu.stats.requests["GET /gateway/bot"] == 1


async def test_strict_token_refuses_other_tokens() -> None:
    async with DiscordEmulator(strict_token=True) as emu:
        client = SampleBot()
        with pytest.raises(discord.LoginFailure):
            async with running_bot(client, emu, token="wrong"):
                pass
        assert emu.tokens_seen == ["wrong"]
