"""Members posting in channels and threads (`DiscordEmulator.post`, `edit_post`): MESSAGE_CREATE
and MESSAGE_UPDATE by intent, the privileged message-content intent, and deleting another
user's message."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import discord
import pytest

from emulator import FAST_CLIENT_OPTIONS, DiscordEmulator, running_bot
from emulator.errors import EmulatorError
from emulator.permissions import GAME_BOT_PERMISSIONS, Perm


class Listener(discord.Client):
    """Records every message it is told about, and deletes any that says "delete me"
    (by id: without the content intent it could not read that)."""

    def __init__(self, intents: discord.Intents) -> None:
        super().__init__(intents=intents, **FAST_CLIENT_OPTIONS)
        self.seen: list[discord.Message] = []
        self.to_delete: set[int] = set()
        self.delete_errors: list[int] = []
        self.edits: list[discord.RawMessageUpdateEvent] = []

    async def on_raw_message_edit(self, payload: discord.RawMessageUpdateEvent) -> None:
        self.edits.append(payload)

    async def on_message(self, message: discord.Message) -> None:
        self.seen.append(message)
        if message.id in self.to_delete:
            try:
                await message.delete()
            except discord.Forbidden as exc:
                self.delete_errors.append(exc.code)


def _intents(content: bool) -> discord.Intents:
    intents = discord.Intents.none()
    intents.guilds = True
    intents.guild_messages = True
    intents.message_content = content
    return intents


async def _wait(predicate: Any) -> None:
    for _ in range(200):
        if predicate():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("timed out")


async def test_posts_reach_bots_with_text_only_with_the_content_intent() -> None:
    async with DiscordEmulator() as emu:
        guild = emu.create_guild("G")
        alice = emu.create_user("alice")
        emu.add_member(guild, alice)
        general = emu.create_text_channel(guild, "general")
        thread = emu.create_thread(general, "game", owner=alice)
        plain, reader = Listener(_intents(False)), Listener(_intents(True))
        async with contextlib.AsyncExitStack() as stack:
            await stack.enter_async_context(running_bot(plain, emu))
            await stack.enter_async_context(running_bot(reader, emu))
            await emu.wait_until_connected(sessions=2)
            posted = emu.post(alice, thread, "a secret plan")
            await _wait(lambda: plain.seen and reader.seen)
        got, full = plain.seen[0], reader.seen[0]
        # who, where and when arrive either way; the words need the privileged intent
        assert (got.id, got.author.id, got.channel.id) == (
            int(posted.id), int(alice.id), int(thread.id))
        assert got.content == "" and full.content == "a secret plan"
        assert isinstance(got.author, discord.Member) and not got.author.bot
        assert alice.id in emu.thread_members(thread)


async def test_a_member_edits_their_own_post() -> None:
    async with DiscordEmulator() as emu:
        guild = emu.create_guild("G")
        alice, bob = emu.create_user("alice"), emu.create_user("bob")
        emu.add_member(guild, alice)
        emu.add_member(guild, bob)
        general = emu.create_text_channel(guild, "general")
        plain = Listener(_intents(False))
        async with running_bot(plain, emu):
            posted = emu.post(alice, general, "hi")
            emu.edit_post(alice, posted, "hi all")
            await _wait(lambda: plain.edits)
            with pytest.raises(EmulatorError, match="their own"):
                emu.edit_post(bob, posted, "mine now")
        edit = plain.edits[0]
        assert edit.message.id == int(posted.id) and edit.message.author.id == int(alice.id)
        assert edit.data.get("edited_timestamp") and edit.message.content == ""
        assert emu.message(posted.id).content == "hi all"


async def test_mentioning_the_bot_shows_it_the_text() -> None:
    async with DiscordEmulator() as emu:
        guild = emu.create_guild("G")
        alice = emu.create_user("alice")
        emu.add_member(guild, alice)
        general = emu.create_text_channel(guild, "general")
        plain = Listener(_intents(False))
        async with running_bot(plain, emu):
            emu.post(alice, general, f"hey <@{emu.bot_user.id}>")
            await _wait(lambda: plain.seen)
        assert plain.seen[0].content == f"hey <@{emu.bot_user.id}>"


async def test_deleting_a_members_post_needs_manage_messages() -> None:
    async with DiscordEmulator() as emu:
        guild = emu.create_guild("G")
        alice = emu.create_user("alice")
        emu.add_member(guild, alice)
        general = emu.create_text_channel(guild, "general")
        thread = emu.create_thread(general, "game", owner=alice)
        bot = Listener(_intents(False))
        async with running_bot(bot, emu):
            first = emu.post(alice, thread, "delete me")
            bot.to_delete.add(int(first.id))
            await _wait(lambda: emu.message(first.id).deleted)
            emu.set_bot_permissions(general, GAME_BOT_PERMISSIONS & ~Perm.MANAGE_MESSAGES)
            second = emu.post(alice, thread, "delete me too")
            bot.to_delete.add(int(second.id))
            await _wait(lambda: bot.delete_errors)
        assert bot.delete_errors == [50013] and not emu.message(second.id).deleted


async def test_who_may_post_where() -> None:
    async with DiscordEmulator() as emu:
        guild = emu.create_guild("G")
        alice, stranger = emu.create_user("alice"), emu.create_user("stranger")
        emu.add_member(guild, alice)
        general = emu.create_text_channel(guild, "general")
        thread = emu.create_thread(general, "game", owner=alice)
        with pytest.raises(EmulatorError, match="not a member"):
            emu.post(stranger, general, "hi")
        emu.archive_thread(thread)
        emu.post(alice, thread, "back again")  # a post reopens an archived thread
        assert not emu.channels[thread.id].archived
        emu.archive_thread(thread, locked=True)
        with pytest.raises(EmulatorError, match="locked"):
            emu.post(alice, thread, "let me in")
        with pytest.raises(EmulatorError, match="guild channel"):
            emu.post(alice, emu.dm_channel(alice), "hi")


async def test_files_need_the_content_intent_but_a_forward_shows_without_it() -> None:
    async with DiscordEmulator() as emu:
        guild = emu.create_guild("G")
        alice = emu.create_user("alice")
        emu.add_member(guild, alice)
        general = emu.create_text_channel(guild, "general")
        thread = emu.create_thread(general, "game", owner=alice)
        plain, reader = Listener(_intents(False)), Listener(_intents(True))
        async with contextlib.AsyncExitStack() as stack:
            await stack.enter_async_context(running_bot(plain, emu))
            await stack.enter_async_context(running_bot(reader, emu))
            await emu.wait_until_connected(sessions=2)
            shot = emu.post(alice, thread, "look", files=[("hand.png", b"\x89PNG")])
            source = emu.post(alice, general, "my cards")
            forward = emu.post(alice, thread, "ignored", forward=source)
            await _wait(lambda: len(plain.seen) == 3 and len(reader.seen) == 3)
        assert [a.filename for a in emu.message(shot.id).attachments] == ["hand.png"]
        # attachments are message content: blank without the privileged intent
        assert plain.seen[0].attachments == []
        assert [a.filename for a in reader.seen[0].attachments] == ["hand.png"]
        # a forward is known by its reference type and flag, intent or not
        for seen in (plain.seen[2], reader.seen[2]):
            assert seen.id == int(forward.id) and seen.content == ""
            assert seen.reference is not None and seen.reference.message_id == int(source.id)
            assert seen.reference.type is discord.MessageReferenceType.forward
            assert seen.flags.forwarded
