"""The testing helpers themselves: the fixture, ``running_bot`` failures, ping records."""

from __future__ import annotations

import discord
import pytest

from emulator import FAST_CLIENT_OPTIONS, DiscordEmulator, running_bot
from tests.emulator.conftest import World
from tests.emulator.sample_bot import SampleBot


async def test_emulator_fixture_points_discord_here(emulator: DiscordEmulator) -> None:
    assert emulator.api_base == discord.http.Route.BASE
    assert str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY) == emulator.gateway_url
    assert not emulator.connected


async def test_running_bot_surfaces_setup_errors() -> None:
    class Broken(discord.Client):
        async def setup_hook(self) -> None:
            raise RuntimeError("boom in setup_hook")

    client = Broken(intents=discord.Intents.default(), **FAST_CLIENT_OPTIONS)
    with pytest.raises(RuntimeError, match="boom in setup_hook"):
        async with running_bot(client):
            pass
    assert client.is_closed()


async def test_allowed_mentions_decide_who_is_pinged(world: World, bot: SampleBot) -> None:
    emu = world.emu
    channel = bot.get_channel(int(world.general.id))
    assert isinstance(channel, discord.TextChannel)
    text = f"{world.alice.mention} and {world.bob.mention}, your turn"
    only_alice = discord.AllowedMentions(users=[discord.Object(int(world.alice.id))])
    first = await channel.send(text, allowed_mentions=only_alice)
    second = await channel.send(text)
    silent = await channel.send(text, allowed_mentions=discord.AllowedMentions.none())
    assert emu.message(str(first.id)).pinged_user_ids == [world.alice.id]
    assert emu.message(str(second.id)).pinged_user_ids == [world.alice.id, world.bob.id]
    assert emu.message(str(silent.id)).pinged_user_ids == []
    assert emu.message(str(silent.id)).mentioned_user_ids == [world.alice.id, world.bob.id]
