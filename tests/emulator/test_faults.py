"""Injected faults: rate limits, server errors, gateway reconnects, invalid sessions,
late and doubled interaction answers."""

from __future__ import annotations

import asyncio
import io
import time

import discord
import pytest

from emulator import ChannelRecord, DiscordEmulator, EmulatorError, Perm, running_bot
from tests.emulator.conftest import World
from tests.emulator.sample_bot import PNG, SampleBot


async def test_429_is_retried_and_the_message_lands_once(world: World, bot: SampleBot) -> None:
    emu = world.emu
    rule = emu.fail_next("POST", r"^/channels/\d+/messages$", status=429, retry_after=0.05)
    res = await (
        await emu.slash(world.alice, world.general, "game say", {"text": "hello"})
    ).wait_done()
    assert res.text == "said"
    assert [m.content for m in emu.messages_in(world.general)] == ["hello"]
    assert rule.count == 0 and emu.stats.faults_served == 1
    assert emu.stats.requests["POST /channels/{channel_id}/messages"] == 1
    (fault,) = emu.errors
    assert fault.injected and fault.status == 429
    emu.assert_no_errors()


async def test_global_429_on_interaction_callback(world: World, bot: SampleBot) -> None:
    emu = world.emu
    emu.fail_next("POST", r"/callback$", status=429, retry_after=0.02, is_global=True)
    res = await (await emu.slash(world.alice, world.general, "game hand")).wait_done()
    assert res.text == "Your hand: 3 cards"
    assert emu.stats.faults_served == 1


async def test_500_is_retried(world: World, bot: SampleBot) -> None:
    emu = world.emu
    emu.fail_next("POST", r"^/channels/\d+/messages$", status=500)
    started = time.monotonic()
    res = await (
        await emu.slash(world.alice, world.general, "game say", {"text": "after a 500"})
    ).wait_done(timeout=5)
    assert res.text == "said"
    assert [m.content for m in emu.messages_in(world.general)] == ["after a 500"]
    assert time.monotonic() - started >= 1.0, "discord.py waits a second before retrying"


async def test_reconnect_resumes_and_replays(world: World, bot: SampleBot) -> None:
    emu = world.emu
    session = emu.sessions[0]
    await emu.gateway_reconnect()
    assert emu.stats.resumes == 1 and emu.stats.identifies == 1
    assert emu.stats.resume_url_connections == 1
    assert emu.sessions == [session]
    res = await (await emu.slash(world.alice, world.general, "game hand")).wait_done()
    assert res.text == "Your hand: 3 cards"
    assert bot.events == ["resumed"]

    await emu.gateway_reconnect(wait=False)
    missed = await emu.slash(world.bob, world.general, "game hand")
    await missed.wait_done()
    assert emu.stats.resumes == 2
    assert missed.text == "Your hand: 3 cards"


async def test_close_code_4000_resumes(world: World, bot: SampleBot) -> None:
    emu = world.emu
    await emu.close_gateway(4000)
    assert emu.stats.resumes == 1
    res = await (await emu.slash(world.alice, world.general, "game hand")).wait_done()
    assert res.responded


async def test_invalid_session_reidentifies(world: World, bot: SampleBot) -> None:
    emu = world.emu
    old = emu.sessions[0]
    await emu.invalidate_session(resumable=False, timeout=10)
    assert emu.stats.identifies == 2
    assert old not in emu.sessions and len(emu.sessions) == 1
    res = await (await emu.slash(world.alice, world.general, "game hand")).wait_done()
    assert res.text == "Your hand: 3 cards"


async def test_late_answer_gets_unknown_interaction() -> None:
    async with DiscordEmulator(interaction_timeout=0.05) as emu:
        guild = emu.create_guild("G")
        alice = emu.create_user("alice")
        emu.add_member(guild, alice)
        channel = emu.create_text_channel(guild, "general")
        client = SampleBot()
        async with running_bot(client, emu):
            res = await emu.slash(alice, channel, "game slow", {"seconds": 0.1})
            await emu.settle(quiet=0.15)
            assert res.late and not res.responded
            assert [e.code for e in res.errors] == [10062]
            assert client.post_errors and client.post_errors[0].code == 10062


async def test_double_acknowledgement_is_refused(world: World, bot: SampleBot) -> None:
    emu = world.emu
    res = await (await emu.slash(world.alice, world.general, "game twice")).wait_done()
    await emu.settle()
    assert [m.content for m in res.messages] == ["once", "twice"]
    assert [e.code for e in res.errors] == [40060]
    assert bot.post_errors[0].code == 40060


# ---- Discord saying no (#20): the clock and old edits, 5xx runs, refused callbacks, late
# replays, permission changes, moderators' deletes -----------------------------------------


def _channel(bot: SampleBot, channel: ChannelRecord) -> discord.PartialMessageable:
    return bot.get_partial_messageable(int(channel.id))


async def test_the_clock_ages_messages_and_ids(world: World, bot: SampleBot) -> None:
    emu = world.emu
    sent = await _channel(bot, world.general).send("old news")
    before = emu.now
    assert emu.advance_clock(hours=2) >= before + 7200
    fresh = await _channel(bot, world.general).send("new news")
    old, new = emu.message(str(sent.id)), emu.message(str(fresh.id))
    assert new.created_clock - old.created_clock >= 7200
    assert (fresh.created_at - sent.created_at).total_seconds() >= 7200  # the snowflakes say so
    with pytest.raises(EmulatorError):
        emu.advance_clock(seconds=-1)


async def test_old_edits_beyond_three_per_six_seconds_are_refused_with_30046(
    world: World, bot: SampleBot
) -> None:
    emu = world.emu
    channel = _channel(bot, world.general)
    old = await channel.send("posted long ago")
    emu.advance_clock(hours=1, seconds=1)
    limit = emu.limit_old_edits(retry_after=0.01)  # 3 per 6 s; retries come too soon
    new = await channel.send("posted now")
    for i in range(3):
        await old.edit(content=f"edit {i}")
    # the fourth edit of an old message in 6 s: discord.py retries the 429 five times, then
    # gives up with Discord's code
    with pytest.raises(discord.HTTPException) as caught:
        await old.edit(content="edit 3")
    assert caught.value.status == 429 and caught.value.code == 30046
    assert "older than 1 hour" in caught.value.text
    assert limit.refused == 5 and limit.accepted == 3
    assert emu.message(str(old.id)).content == "edit 2"
    refusal = emu.errors[-1]
    assert (refusal.status, refusal.code, refusal.injected) == (429, 30046, False)
    # messages younger than an hour are not limited
    for i in range(5):
        await new.edit(content=f"new edit {i}")
    # each channel has its own count
    other = _channel(bot, emu.create_thread(world.general, "other"))
    elsewhere = await other.send("elsewhere")
    emu.advance_clock(hours=1, seconds=1)
    await elsewhere.edit(content="an old edit in another channel")
    emu.old_edit_limit = None
    await old.edit(content="after the limit is off")
    assert emu.message(str(old.id)).content == "after the limit is off"


async def test_a_short_old_edit_refusal_is_waited_out_by_discord_py(
    world: World, bot: SampleBot
) -> None:
    emu = world.emu
    old = await _channel(bot, world.general).send("old")
    emu.advance_clock(hours=3)
    limit = emu.limit_old_edits(edits=1, per=0.2)  # retry_after: until the window frees
    await old.edit(content="one")
    await old.edit(content="two")  # refused once, retried after ~0.2 s, lands
    assert limit.refused >= 1 and emu.message(str(old.id)).content == "two"


async def test_a_lasting_old_edit_refusal_outlasts_retries_then_ends(
    world: World, bot: SampleBot
) -> None:
    emu = world.emu
    old = await _channel(bot, world.general).send("old")
    emu.advance_clock(hours=3)
    emu.limit_old_edits(edits=0, lasting=600, retry_after=0.01)
    with pytest.raises(discord.HTTPException) as caught:
        await old.edit(content="refused")
    assert caught.value.code == 30046
    emu.advance_clock(minutes=11)  # the refusal ran out; the window is free again
    emu.limit_old_edits(edits=3)
    await old.edit(content="accepted")
    assert emu.message(str(old.id)).content == "accepted"


async def test_an_update_message_answer_on_an_old_message_counts_as_an_edit(
    world: World, bot: SampleBot
) -> None:
    emu = world.emu
    res = await (await emu.slash(world.alice, world.general, "game counter")).wait_done()
    counter = res.original
    assert counter is not None
    emu.advance_clock(hours=2)
    emu.limit_old_edits(edits=0, retry_after=0.01)
    press = await emu.click(world.alice, counter, "counter:0")
    await emu.settle(quiet=0.2)
    assert not press.responded and {e.code for e in press.errors} == {30046}
    assert emu.message(counter.id).content == "count 0"
    emu.old_edit_limit = None
    press = await emu.click(world.alice, counter, "counter:0")
    await press.wait_callback()
    assert emu.message(counter.id).content == "count 1"


async def test_503_is_not_retried_by_discord_py(world: World, bot: SampleBot) -> None:
    emu = world.emu
    emu.fail_next("POST", r"^/channels/\d+/messages$", status=503)
    with pytest.raises(discord.DiscordServerError) as caught:
        await _channel(bot, world.general).send("lost")
    assert caught.value.status == 503
    assert emu.stats.faults_served == 1 and emu.messages_in(world.general) == []
    (fault,) = emu.errors
    assert fault.injected and fault.status == 503 and "Service Unavailable" in fault.message


async def test_a_run_of_failures_lasts_its_seconds_on_the_clock(
    world: World, bot: SampleBot
) -> None:
    emu = world.emu
    rule = emu.fail_for("POST", r"^/channels/\d+/messages$", status=503, seconds=30)
    for _ in range(3):
        with pytest.raises(discord.DiscordServerError):
            await _channel(bot, world.general).send("refused")
    assert emu.stats.faults_served == 3 and rule.until is not None
    emu.advance_clock(seconds=31)
    await _channel(bot, world.general).send("through")
    assert [m.content for m in emu.messages_in(world.general)] == ["through"]


async def test_a_refused_callback_answers_10062(world: World, bot: SampleBot) -> None:
    emu = world.emu
    emu.refuse_callbacks()
    res = await emu.slash(world.alice, world.general, "game hand")
    await emu.settle(quiet=0.1)
    assert res.late and not res.responded
    assert [e.code for e in res.errors] == [10062]
    again = await (await emu.slash(world.alice, world.general, "game hand")).wait_done()
    assert again.text == "Your hand: 3 cards"


async def test_an_interaction_replayed_after_a_gateway_outage_is_too_old_to_answer(
    world: World, bot: SampleBot
) -> None:
    emu = world.emu
    seen: list[discord.Interaction] = []

    async def on_interaction(interaction: discord.Interaction) -> None:
        seen.append(interaction)

    bot.add_listener(on_interaction)
    async with emu.gateway_outage(late_by=48):
        res = await emu.slash(world.alice, world.general, "game hand")
        await asyncio.sleep(0.05)
        assert not seen, "held while the gateway is out"
    await emu.settle(quiet=0.1)
    (interaction,) = seen
    age = (discord.utils.utcnow() - interaction.created_at).total_seconds()
    assert 45 <= age <= 53
    assert res.late and not res.responded and [e.code for e in res.errors] == [10062]


async def test_a_locked_thread_refuses_a_bot_without_manage_threads(
    world: World, bot: SampleBot
) -> None:
    emu = world.emu
    thread = emu.create_thread(world.general, "game")
    emu.revoke_bot_permissions(thread, Perm.MANAGE_THREADS)
    emu.lock_thread(thread)
    with pytest.raises(discord.Forbidden) as caught:
        await _channel(bot, thread).send("in a locked thread")
    assert caught.value.code == 50083
    emu.grant_bot_permissions(thread, Perm.MANAGE_THREADS)  # moderators may post
    await _channel(bot, thread).send("as a moderator")
    emu.revoke_bot_permissions(thread, Perm.MANAGE_THREADS)
    emu.lock_thread(thread, locked=False)
    await _channel(bot, thread).send("unlocked")
    assert [m.content for m in emu.messages_in(thread)] == ["as a moderator", "unlocked"]


async def test_lost_attach_files_and_send_in_threads(world: World, bot: SampleBot) -> None:
    emu = world.emu
    thread = emu.create_thread(world.general, "game")
    channel = _channel(bot, thread)
    emu.revoke_bot_permissions(world.general, Perm.ATTACH_FILES)
    with pytest.raises(discord.Forbidden) as caught:
        await channel.send("with a picture", file=discord.File(io.BytesIO(PNG), "board.png"))
    assert caught.value.code == 50013
    text = await channel.send("words only")
    with pytest.raises(discord.Forbidden):
        await text.edit(attachments=[discord.File(io.BytesIO(PNG), "board.png")])
    emu.revoke_bot_permissions(world.general, Perm.SEND_MESSAGES_IN_THREADS)
    with pytest.raises(discord.Forbidden) as caught:
        await channel.send("words only")
    assert caught.value.code == 50013
    await _channel(bot, world.general).send("the channel itself still works")
    emu.grant_bot_permissions(world.general, Perm.SEND_MESSAGES_IN_THREADS | Perm.ATTACH_FILES)
    await channel.send("back", file=discord.File(io.BytesIO(PNG), "board.png"))


async def test_a_moderator_deletes_a_bot_message(world: World, bot: SampleBot) -> None:
    emu = world.emu
    sent = await _channel(bot, world.general).send("the board")
    waiting = asyncio.ensure_future(bot.wait_for("raw_message_delete", timeout=5))
    emu.delete_message(str(sent.id), by=world.guild.owner_id)
    payload = await waiting
    assert payload.message_id == sent.id and payload.channel_id == sent.channel.id
    assert emu.messages_in(world.general) == []
    with pytest.raises(EmulatorError):
        emu.delete_message(str(sent.id))
    plain = await _channel(bot, world.general).send("another")
    with pytest.raises(EmulatorError):
        emu.delete_message(str(plain.id), by=world.bob)  # bob may not manage messages


async def test_a_webhook_edit_of_an_old_message_counts_as_an_edit(
    world: World, bot: SampleBot
) -> None:
    emu = world.emu
    res = await (
        await emu.slash(world.alice, world.general, "game new", {"game": "exorcism"})
    ).wait_done()
    lobby = res.original
    assert lobby is not None and lobby.component("start") is not None
    emu.advance_clock(hours=2)
    limit = emu.limit_old_edits(edits=0, retry_after=0.01)
    press = await emu.click(world.alice, lobby, "start")  # defer, then edit @original
    await emu.settle(quiet=0.2)
    assert press.deferred and 30046 in {e.code for e in press.errors}
    assert emu.message(lobby.id).content != "Game started" and limit.refused == 5
