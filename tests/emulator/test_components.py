"""Buttons, selects, persistent views and dynamic items, in guild channels and DMs."""

from __future__ import annotations

import pytest

from emulator import EmulatorError, running_bot
from tests.emulator.conftest import World
from tests.emulator.sample_bot import SampleBot


async def test_button_click_runs_the_view_callback(world: World, bot: SampleBot) -> None:
    emu = world.emu
    res = await (
        await emu.slash(world.alice, world.general, "game new", {"game": "exorcism"})
    ).wait_done()
    board = res.original
    assert board is not None
    click = await (await emu.click(world.bob, board, "join")).wait_done()
    assert click.callback_type == 4 and click.ephemeral
    assert click.text == "bob joined"
    by_label = await (await emu.click(world.alice, board, label="Join")).wait_done()
    assert by_label.text == "alice joined"
    assert click.payload["message"]["id"] == board.id
    assert "member" in click.payload and "user" not in click.payload


async def test_deferred_update_then_edit_original(world: World, bot: SampleBot) -> None:
    emu = world.emu
    res = await (
        await emu.slash(world.alice, world.general, "game new", {"game": "presence"})
    ).wait_done()
    board = res.original
    assert board is not None
    start = await (await emu.click(world.alice, board, "start")).wait_done()
    assert start.callback_type == 6
    assert board.content == "Game started" and board.components == []
    assert len(board.history) == 1 and board.history[0].content.startswith("New presence")
    assert start.messages == [board]
    assert start.edited_ids == [board.id] and start.deleted_ids == []
    with pytest.raises(EmulatorError, match="has no component 'start'"):
        await emu.click(world.alice, board, "start")


async def test_deferred_update_then_channel_edit(world: World, bot: SampleBot) -> None:
    emu = world.emu
    res = await (
        await emu.slash(world.alice, world.general, "game new", {"game": "presence"})
    ).wait_done()
    board = res.original
    assert board is not None
    later = await (await emu.click(world.alice, board, "later")).wait_done()
    assert later.callback_type == 6 and later.touched
    assert board.content == "Later it is"


async def test_select_menu_values(world: World, bot: SampleBot) -> None:
    emu = world.emu
    res = await (await emu.slash(world.alice, world.general, "game pick")).wait_done()
    menu = res.original
    assert menu is not None and menu.selects[0]["custom_id"] == "pick"
    chosen = await (await emu.select(world.alice, menu, "pick", ["cellar", "attic"])).wait_done()
    assert chosen.text == "picked cellar,attic"
    with pytest.raises(EmulatorError, match="has no options"):
        await emu.select(world.alice, menu, "pick", ["moon"])
    with pytest.raises(EmulatorError, match=r"takes 1\.\.2 values"):
        await emu.select(world.alice, menu, "pick", ["cellar", "attic", "chapel"])


async def test_dynamic_item_updates_message(world: World, bot: SampleBot) -> None:
    emu = world.emu
    res = await (await emu.slash(world.alice, world.general, "game counter")).wait_done()
    msg = res.original
    assert msg is not None and msg.custom_ids == ["counter:0"]
    first = await (await emu.click(world.bob, msg, "counter:0")).wait_done()
    assert first.callback_type == 7
    assert msg.content == "count 1" and msg.custom_ids == ["counter:1"]
    await (await emu.click(world.bob, msg, "counter:1")).wait_done()
    assert msg.content == "count 2"


async def test_persistent_view_and_dynamic_item_survive_a_restart(world: World) -> None:
    emu = world.emu
    first = SampleBot()
    async with running_bot(first, emu):
        await (await emu.slash(world.alice, world.general, "game persist")).wait_done()
        counter = await (await emu.slash(world.alice, world.general, "game counter")).wait_done()
    posted = await emu.wait_for_message(lambda m: m.text == "Press me any time")
    assert posted.interaction_id is None, "posted with channel.send, not as a reply"
    assert not emu.connected

    second = SampleBot()
    async with running_bot(second, emu):
        ping = await (await emu.click(world.bob, posted, "persist:ping")).wait_done()
        assert ping.text == "pong from GameMaster"
        assert counter.original is not None
        bump = await (await emu.click(world.bob, counter.original, "counter:0")).wait_done()
        assert bump.callback_type == 7
    assert emu.stats.identifies == 2


async def test_buttons_in_a_dm(world: World, bot: SampleBot) -> None:
    emu = world.emu
    await (
        await emu.slash(world.alice, world.general, "game dm", {"player": world.bob})
    ).wait_done()
    (dm,) = emu.dm_messages(world.bob)
    ack = await (await emu.click(world.bob, dm, "ack")).wait_done()
    assert ack.text == "ack in dm by bob"
    assert "user" in ack.payload and "member" not in ack.payload
    assert ack.payload["channel"]["type"] == 1
    with pytest.raises(EmulatorError, match="cannot see DM channel"):
        await emu.click(world.alice, dm, "ack")


async def test_unanswered_press_fails_like_discord(world: World, bot: SampleBot) -> None:
    emu = world.emu
    res = await (
        await emu.slash(world.alice, world.general, "game new", {"game": "presence"})
    ).wait_done()
    board = res.original
    assert board is not None
    stale = await emu.click(world.alice, board, "ghost", check=False)
    with pytest.raises(AssertionError, match="This interaction failed"):
        await stale.wait_done(timeout=0.2)
