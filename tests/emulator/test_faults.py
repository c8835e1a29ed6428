"""Injected faults: rate limits, server errors, gateway reconnects, invalid sessions,
late and doubled interaction answers."""

from __future__ import annotations

import time

from emulator import DiscordEmulator, running_bot
from tests.emulator.conftest import World
from tests.emulator.sample_bot import SampleBot


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
