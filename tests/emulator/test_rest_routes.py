"""The remaining REST routes and gateway requests, driven through discord.py's own API."""

from __future__ import annotations

from typing import Any

import discord
import pytest
from discord.ext import commands

from emulator import FAST_CLIENT_OPTIONS, DiscordEmulator, running_bot
from tests.emulator.conftest import World
from tests.emulator.sample_bot import SampleBot


def text_channel(bot: SampleBot, world: World) -> discord.TextChannel:
    channel = bot.get_channel(int(world.general.id))
    assert isinstance(channel, discord.TextChannel)
    return channel


async def test_guild_routes(world: World, bot: SampleBot) -> None:
    guild = await bot.fetch_guild(int(world.guild.id))
    assert guild.name == "Haunted Table"
    channels = await guild.fetch_channels()
    assert [c.name for c in channels] == ["general"]
    member = await guild.fetch_member(int(world.alice.id))
    assert member.name == "alice"
    with pytest.raises(discord.NotFound):
        await guild.fetch_member(12345)
    fetched = await bot.fetch_channel(int(world.general.id))
    assert isinstance(fetched, discord.TextChannel) and fetched.name == "general"
    user = await bot.fetch_user(int(world.bob.id))
    assert user.name == "bob"
    info = await bot.application_info()
    assert str(info.owner.id) == world.emu.owner.id
    world.emu.assert_no_errors(allow=[10007])


async def test_typing_reply_and_reactions(world: World, bot: SampleBot) -> None:
    emu = world.emu
    channel = text_channel(bot, world)
    async with channel.typing():
        first = await channel.send("first")
    reply = await first.reply("second")
    await reply.add_reaction("\N{GHOST}")
    record = emu.message(str(reply.id))
    assert record.message_reference is not None
    assert record.message_reference["message_id"] == str(first.id)
    assert emu.stats.requests["POST /channels/{channel_id}/typing"] == 1
    emu.assert_no_errors()


async def test_threads_through_the_client(world: World, bot: SampleBot) -> None:
    emu = world.emu
    channel = text_channel(bot, world)
    starter = await channel.send("Game 7 starts here")
    thread = await starter.create_thread(name="Game 7")
    assert str(thread.id) == str(starter.id), "a message's thread shares its id"
    await thread.add_user(discord.Object(int(world.alice.id)))
    assert emu.thread_members(str(thread.id)) == {emu.application_id, world.alice.id}
    private = await channel.create_thread(name="Secrets")
    assert private.type is discord.ChannelType.private_thread

    await thread.edit(archived=True, locked=True)
    record = emu.channels[str(thread.id)]
    assert record.archived and record.locked
    await thread.edit(archived=False, locked=False)
    await thread.send("back")
    assert emu.posts_to_archived == []

    await thread.delete()
    with pytest.raises(discord.NotFound) as caught:
        await thread.send("gone")
    assert caught.value.code == 10003
    assert [t.name for t in emu.threads_of(world.general)] == ["Secrets"]
    with pytest.raises(discord.HTTPException) as again:
        await starter.create_thread(name="Again")
    assert again.value.code == 160004


async def test_missing_permissions_are_forbidden(world: World, bot: SampleBot) -> None:
    emu = world.emu
    quiet = emu.create_text_channel(
        world.guild,
        "read-only",
        bot_permissions=discord.Permissions(view_channel=True, read_message_history=True).value,
    )
    await emu.settle()
    channel = bot.get_channel(int(quiet.id))
    assert isinstance(channel, discord.TextChannel)
    with pytest.raises(discord.Forbidden) as caught:
        await channel.send("hello")
    assert caught.value.code == 50013
    with pytest.raises(discord.Forbidden):
        await channel.create_thread(name="nope", type=discord.ChannelType.public_thread)


async def test_empty_and_oversized_messages_are_rejected(world: World, bot: SampleBot) -> None:
    channel = text_channel(bot, world)
    with pytest.raises(discord.HTTPException) as empty:
        await channel.send(embeds=[])
    assert empty.value.code == 50006
    world.emu.attachment_size_limit = 10
    with pytest.raises(discord.HTTPException) as big:
        await channel.send(file=discord.File(__import__("io").BytesIO(b"x" * 11), "big.bin"))
    assert big.value.status == 413
    row = {"type": 1, "components": [{"type": 2, "style": 1, "label": "b", "custom_id": "b"}]}
    route = discord.http.Route("POST", "/channels/{channel_id}/messages", channel_id=channel.id)
    with pytest.raises(discord.HTTPException) as rows:
        await bot.http.request(route, json={"content": "six rows", "components": [row] * 6})
    assert rows.value.code == 50035
    assert "components" in rows.value.text


async def test_guild_commands_and_member_chunks() -> None:
    async with DiscordEmulator() as emu:
        guild = emu.create_guild("Guild scoped")
        alice = emu.create_user("alice")
        emu.add_member(guild, alice)
        channel = emu.create_text_channel(guild, "general")
        intents = discord.Intents.default()
        intents.members = True
        options: dict[str, Any] = {"chunk_guilds_at_startup": False, **FAST_CLIENT_OPTIONS}
        client = commands.Bot(command_prefix="!", intents=intents, **options)

        @client.tree.command(
            name="hello", description="Say hello", guild=discord.Object(int(guild.id))
        )
        async def hello(interaction: discord.Interaction) -> None:
            await interaction.response.send_message(f"hello {interaction.user.name}")

        async with running_bot(client, emu):
            await client.tree.sync(guild=discord.Object(int(guild.id)))
            assert emu.commands.paths(guild.id) == ["hello"]
            assert emu.commands.paths(None) == []
            res = await (await emu.slash(alice, channel, "hello")).wait_done()
            assert res.text == "hello alice"
            assert res.payload["data"]["guild_id"] == guild.id
            cached = client.get_guild(int(guild.id))
            assert cached is not None
            members = await cached.query_members(user_ids=[int(alice.id)])
            assert [m.name for m in members] == ["alice"]
            assert emu.stats.member_requests == 1


async def test_user_select_resolves_members(world: World, bot: SampleBot) -> None:
    emu = world.emu
    channel = text_channel(bot, world)
    seen: list[str] = []

    class Who(discord.ui.View):
        @discord.ui.select(cls=discord.ui.UserSelect, custom_id="who", max_values=2)
        async def who(
            self, interaction: discord.Interaction, select: discord.ui.UserSelect[Any]
        ) -> None:
            seen.extend(u.name for u in select.values)
            await interaction.response.send_message("noted")

    sent = await channel.send("Who plays?", view=Who())
    res = await emu.select(world.alice, str(sent.id), "who", [world.alice, world.bob])
    await res.wait_done()
    assert seen == ["alice", "bob"]
    assert set(res.payload["data"]["resolved"]["members"]) == {world.alice.id, world.bob.id}
