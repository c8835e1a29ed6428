"""DMs (open and closed), threads (create, post, archive, delete) and history."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from emulator import ChannelType
from emulator.errors import EmulatorError
from emulator.permissions import GAME_BOT_PERMISSIONS, Perm
from tests.emulator.conftest import World
from tests.emulator.sample_bot import SampleBot


async def test_dm_to_closed_user_is_forbidden(world: World, bot: SampleBot) -> None:
    emu = world.emu
    world.bob.dms_open = False
    res = await (
        await emu.slash(world.alice, world.general, "game dm", {"player": world.bob})
    ).wait_done()
    assert res.text == "bob has DMs closed"
    assert bot.dm_failures == [50007]
    assert emu.dm_messages(world.bob) == []
    assert [(e.status, e.code) for e in emu.errors] == [(403, 50007)]
    emu.assert_no_errors(allow=[50007])

    world.bob.dms_open = True
    res = await (
        await emu.slash(world.alice, world.general, "game dm", {"player": world.bob})
    ).wait_done()
    assert res.text == "sent a DM to bob"
    assert [m.content for m in emu.dm_messages(world.bob)] == ["Your secret role"]


async def test_thread_created_and_posted_into(world: World, bot: SampleBot) -> None:
    emu = world.emu
    res = await (
        await emu.slash(world.alice, world.general, "game thread", {"name": "Game 1"})
    ).wait_done()
    (thread,) = emu.threads_of(world.general)
    assert thread.type is ChannelType.PUBLIC_THREAD and thread.name == "Game 1"
    assert res.text == f"thread {thread.id}" and res.ephemeral
    assert [m.content for m in emu.messages_in(thread)] == ["Welcome to Game 1"]
    assert emu.stats.dispatches["THREAD_CREATE"] == 1

    cached = bot.get_channel(int(thread.id))
    assert isinstance(cached, discord.Thread) and cached.parent_id == int(world.general.id)

    inside = await (
        await emu.slash(world.bob, thread, "game new", {"game": "exorcism"})
    ).wait_done()
    assert inside.text == "New exorcism for 2 in #Game 1"
    assert inside.original is not None and inside.original.channel_id == thread.id
    assert inside.payload["channel"]["type"] == 11


async def test_posting_into_archived_thread_unarchives_it(world: World, bot: SampleBot) -> None:
    emu = world.emu
    await (
        await emu.slash(world.alice, world.general, "game thread", {"name": "Game 2"})
    ).wait_done()
    (thread,) = emu.threads_of(world.general)
    emu.archive_thread(thread)
    res = await (
        await emu.slash(
            world.alice, world.general, "game say", {"text": "your turn", "where": thread.id}
        )
    ).wait_done()
    assert res.text == "said"
    assert emu.posts_to_archived == [thread.id]
    assert not thread.archived
    assert emu.last_message(thread).content == "your turn"

    emu.archive_thread(thread, locked=True)
    emu.set_bot_permissions(
        world.general,
        int(
            discord.Permissions(
                view_channel=True, send_messages=True, send_messages_in_threads=True
            ).value
        ),
    )
    res = await (
        await emu.slash(
            world.alice, world.general, "game say", {"text": "locked out", "where": thread.id}
        )
    ).wait_done()
    assert res.text == "failed 403 50083"  # as Discord answers a post in a locked thread


async def test_deleted_thread_answers_unknown_channel(world: World, bot: SampleBot) -> None:
    emu = world.emu
    await (
        await emu.slash(world.alice, world.general, "game thread", {"name": "Game 3"})
    ).wait_done()
    (thread,) = emu.threads_of(world.general)
    emu.delete_channel(thread)
    assert emu.threads_of(world.general) == []
    res = await (
        await emu.slash(
            world.alice, world.general, "game say", {"text": "hello?", "where": thread.id}
        )
    ).wait_done()
    assert res.text == "failed 404 10003"
    assert isinstance(bot.post_errors[0], discord.NotFound)


async def test_history_edit_and_delete_through_the_client(world: World, bot: SampleBot) -> None:
    emu = world.emu
    channel = bot.get_channel(int(world.general.id))
    assert isinstance(channel, discord.TextChannel)
    first = await channel.send("one")
    second = await channel.send(
        "two", file=discord.File(__import__("io").BytesIO(b"abc"), filename="a.txt")
    )
    await second.edit(content="two!", attachments=[])
    await first.delete()
    history = [m.content async for m in channel.history(limit=10)]
    assert history == ["two!"]
    record = emu.message(str(second.id))
    assert record.attachments == [] and record.history[0].attachments[0].data == b"abc"
    assert emu.messages_in(world.general, include_deleted=True)[0].deleted
    fetched = await channel.fetch_message(second.id)
    assert fetched.content == "two!"


async def test_attachment_bytes_are_served(world: World, bot: SampleBot) -> None:
    emu = world.emu
    res = await (await emu.slash(world.alice, world.general, "game board")).wait_done()
    channel = bot.get_channel(int(world.general.id))
    assert isinstance(channel, discord.TextChannel)
    msg = await channel.fetch_message(int(res.messages[0].id))
    assert await msg.attachments[0].read() == res.files[0].data


async def test_channels_created_while_connected_reach_the_cache(
    world: World, bot: SampleBot
) -> None:
    emu = world.emu
    late = emu.create_text_channel(world.guild, "late")
    carol = emu.create_user("carol")
    emu.add_member(world.guild, carol)
    res = await (await emu.slash(carol, late, "game hand")).wait_done()
    assert res.text == "Your hand: 3 cards"
    assert bot.get_channel(int(late.id)) is not None
    other = emu.create_guild("Second Table")
    emu.add_member(other, carol)
    somewhere = emu.create_text_channel(other, "lobby")
    await emu.settle()
    assert bot.get_guild(int(other.id)) is not None
    assert bot.get_channel(int(somewhere.id)) is not None


async def test_thread_made_by_a_user(world: World, bot: SampleBot) -> None:
    emu = world.emu
    thread = emu.create_thread(world.general, "alice's table", owner=world.alice)
    res = await (await emu.slash(world.bob, thread, "game hand")).wait_done()
    assert res.text == "Your hand: 3 cards"
    cached = bot.get_channel(int(thread.id))
    assert isinstance(cached, discord.Thread) and cached.owner_id == int(world.alice.id)


async def test_channel_created_with_overwrites_and_members_muted_one_by_one(
    world: World, bot: SampleBot
) -> None:
    emu = world.emu
    general = bot.get_channel(int(world.general.id))
    assert isinstance(general, discord.TextChannel)
    guild = general.guild
    closed = discord.PermissionOverwrite(send_messages=False, attach_files=False)
    # the bot's role needs Manage Channels (and Manage Roles to carry overwrites)
    with pytest.raises(discord.Forbidden) as refused:
        await guild.create_text_channel("table", overwrites={guild.default_role: closed})
    assert refused.value.code == 50013
    emu.set_guild_bot_permissions(
        world.guild, GAME_BOT_PERMISSIONS | Perm.MANAGE_CHANNELS | Perm.MANAGE_ROLES)
    table = await guild.create_text_channel(
        "table", overwrites={guild.default_role: closed}, topic="a table")
    record = emu.channels[str(table.id)]
    assert record.topic == "a table" and emu.stats.dispatches["CHANNEL_CREATE"] >= 1
    assert not emu.member_permissions_in(world.alice, record) & Perm.SEND_MESSAGES
    with pytest.raises(EmulatorError):
        emu.post(world.alice, record, "hello")
    # one member allowed back: the change reaches the bot's cache as CHANNEL_UPDATE
    user = await bot.fetch_user(int(world.alice.id))
    await table.set_permissions(user, overwrite=discord.PermissionOverwrite(send_messages=True))
    await emu.settle()
    assert emu.post(world.alice, record, "hello").content == "hello"
    assert not emu.member_permissions_in(world.bob, record) & Perm.SEND_MESSAGES
    with pytest.raises(EmulatorError):  # files stay off for her: only Send Messages came back
        emu.post(world.alice, record, "look", files=[("a.png", b"x")])
    cached = bot.get_channel(table.id)
    assert isinstance(cached, discord.TextChannel)
    assert cached.overwrites_for(discord.Object(int(world.alice.id))).send_messages is True
    await table.set_permissions(user, overwrite=None)
    await emu.settle()
    assert not emu.member_permissions_in(world.alice, record) & Perm.SEND_MESSAGES


async def test_the_bot_removed_from_a_guild(world: World, bot: SampleBot) -> None:
    """GUILD_DELETE without `unavailable` (discord.py's on_guild_remove, not an outage); then
    the guild's channels answer 403/50001 and DMs to users who shared only it answer 50007."""
    emu = world.emu
    removed: list[int] = []

    async def on_guild_remove(guild: discord.Guild) -> None:
        removed.append(guild.id)

    bot.add_listener(on_guild_remove)
    gone = emu.remove_bot_from_guild(world.guild)
    await emu.settle()
    assert removed == [int(world.guild.id)] and gone.bot_removed
    assert bot.get_guild(int(world.guild.id)) is None
    with pytest.raises(discord.Forbidden) as refused:
        await bot.fetch_channel(int(world.general.id))
    assert refused.value.code == 50001
    dm = await bot.create_dm(discord.Object(int(world.alice.id)))
    with pytest.raises(discord.Forbidden) as closed:
        await dm.send("still there?")
    assert closed.value.code == 50007
    emu.assert_no_errors(allow=[50001, 50007])


async def test_a_channel_the_bot_may_not_view_answers_missing_access(
        world: World, bot: SampleBot) -> None:
    """Discord answers 403 / 50001 Missing Access (not 50013 Missing Permissions) for a
    channel, or a thread of it, the bot lacks View Channel in: the same code as after the bot
    was removed from the server, while the server is still there (stop 69)."""
    emu = world.emu
    thread = emu.create_thread(world.general, "table")
    channel = bot.get_partial_messageable(int(thread.id))
    await channel.send("before")
    emu.revoke_bot_permissions(world.general, Perm.VIEW_CHANNEL)
    for target in (channel, bot.get_partial_messageable(int(world.general.id))):
        with pytest.raises(discord.Forbidden) as refused:
            await target.send("hidden?")
        assert refused.value.code == 50001
    emu.grant_bot_permissions(world.general, Perm.VIEW_CHANNEL)
    emu.revoke_bot_permissions(world.general, Perm.SEND_MESSAGES_IN_THREADS)
    with pytest.raises(discord.Forbidden) as refused:
        await channel.send("muted?")
    assert refused.value.code == 50013
    emu.assert_no_errors(allow=[50001, 50013])


async def _game_thread(world: World, name: str) -> Any:
    emu = world.emu
    await (await emu.slash(world.alice, world.general, "game thread", {"name": name})
           ).wait_done()
    (thread,) = emu.threads_of(world.general)
    emu.revoke_bot_permissions(world.general, Perm.MANAGE_THREADS)
    return thread


async def test_a_locked_thread_refuses_an_interactions_answers_there(
        world: World, bot: SampleBot) -> None:
    """Stop 70: a locked thread refuses a bot without Manage Threads the answer to an
    interaction there, its follow-up and edits (403 / 50083 "Thread is archived":
    discord-api-docs #5517, #6884, #7707), but not an ephemeral answer, which is never in
    the thread; interaction answers need no channel permission, the thread's lock still
    applies."""
    emu = world.emu
    thread = await _game_thread(world, "Game 3")
    emu.lock_thread(thread)
    said = await emu.slash(world.alice, thread, "game move", {"to": "attic"})
    with pytest.raises(AssertionError):
        await said.wait_callback(timeout=0.5)
    assert [(e.status, e.code) for e in said.errors] == [(403, 50083)]
    hand = await (await emu.slash(world.alice, thread, "game hand")).wait_done()
    assert hand.text == "Your hand: 3 cards" and hand.ephemeral
    board = await emu.slash(world.alice, thread, "game board")
    with pytest.raises(AssertionError):
        await board.wait_callback(timeout=0.5)
    assert (403, 50083) in [(e.status, e.code) for e in board.errors]
    assert not [m for m in emu.messages_in(thread) if m.content in ("moved to attic",
                                                                   "The board")]
    emu.grant_bot_permissions(world.general, Perm.MANAGE_THREADS)
    moved = await (await emu.slash(world.alice, thread, "game move", {"to": "attic"})
                   ).wait_done()
    assert moved.text == "moved to attic"


async def test_an_archived_thread_is_unarchived_by_an_answer_and_refuses_its_edits(
        world: World, bot: SampleBot) -> None:
    """Stop 70: an interaction's message in an archived (unlocked) thread unarchives it, as a
    post does (docs/topics/threads.md: sending a message unarchives it unless locked); an
    edit there is refused (50083); deleting is the one thing an archived thread allows."""
    emu = world.emu
    thread = await _game_thread(world, "Game 4")
    made = await (await emu.slash(world.alice, thread, "game new", {"game": "exorcism"})
                  ).wait_done()
    assert made.original is not None
    emu.archive_thread(thread)
    moved = await (await emu.slash(world.alice, thread, "game move", {"to": "attic"})
                   ).wait_done()
    assert moved.text == "moved to attic" and not thread.archived
    assert emu.posts_to_archived == [thread.id]
    emu.archive_thread(thread)
    started = await emu.click(world.alice, made.original, label="Start")
    await started.wait_callback()
    await emu.settle()
    assert (400, 50083) in [(e.status, e.code) for e in started.errors]
    assert thread.archived and "Game started" not in made.original.text
    channel = await bot.fetch_channel(int(thread.id))
    assert isinstance(channel, discord.Thread)
    await channel.get_partial_message(int(made.original.id)).delete()
    assert made.original.deleted


async def test_a_malformed_answer_leaves_an_archived_thread_archived(
        world: World, bot: SampleBot) -> None:
    """Stop 70: the emulator reopened an archived thread for an interaction's answer before it
    checked the answer's body, so an answer Discord refuses (a 2,001-character message,
    50035) still unarchived it. A refused message is not sent: the thread stays archived."""
    emu = world.emu
    thread = await _game_thread(world, "Game 5")
    emu.archive_thread(thread)
    said = await (await emu.slash(world.alice, thread, "game long")).wait_done()
    assert said.text == "too long" and said.ephemeral
    assert [type(e).__name__ for e in bot.post_errors] == ["HTTPException"]
    assert thread.archived and emu.posts_to_archived == []
