"""Login, command sync and slash commands of every kind against the emulator."""

from __future__ import annotations

import discord
import pytest

from emulator import GAME_BOT_PERMISSIONS, EmulatorError, Perm
from emulator.commands import CommandStore, encode_invocation
from emulator.ids import SnowflakeFactory
from tests.emulator.conftest import World
from tests.emulator.sample_bot import PNG, SampleBot


async def test_login_ready_and_command_sync(world: World, bot: SampleBot) -> None:
    emu = world.emu
    assert bot.user is not None and str(bot.user.id) == emu.application_id
    assert emu.connected
    assert [g.name for g in bot.guilds] == ["Haunted Table"]
    guild = bot.get_guild(int(world.guild.id))
    assert guild is not None and guild.get_channel(int(world.general.id)) is not None
    assert guild.member_count == 3 and guild.me is not None
    assert emu.stats.identifies == 1
    assert emu.tokens_seen == [emu.bot_token]
    assert "game new" in emu.commands.paths()
    assert "game admin kick" in emu.commands.paths()
    assert emu.commands.syncs == [(None, 2)]
    assert emu.stats.requests["PUT /applications/{application_id}/commands"] == 1
    emu.assert_no_errors()


@pytest.mark.xdist_group("timing")  # a wall-clock bound: not beside a lag test
async def test_slash_command_message_reply(world: World, bot: SampleBot) -> None:
    emu = world.emu
    res = await emu.slash(
        world.alice, world.general, "game new", {"game": "exorcism", "players": 4}
    )
    await res.wait_done()
    assert res.callback_type == 4
    assert not res.ephemeral
    assert res.text == "New exorcism for 4 in #general"
    msg = emu.last_message(world.general)
    assert msg is res.original
    assert msg.interaction_user_id == world.alice.id
    assert msg.custom_ids == ["join", "start", "later"]
    assert res.latency is not None and res.latency < 1


async def test_ephemeral_reply_is_not_in_the_channel(world: World, bot: SampleBot) -> None:
    emu = world.emu
    res = await (await emu.slash(world.alice, world.general, "game hand")).wait_done()
    assert res.ephemeral
    assert res.text == "Your hand: 3 cards"
    assert emu.messages_in(world.general) == []
    assert emu.messages_in(world.general, include_ephemeral=True) == res.messages


async def test_defer_then_followup_with_png(world: World, bot: SampleBot) -> None:
    emu = world.emu
    res = await emu.slash(world.alice, world.general, "game board")
    await res.wait_callback()
    assert res.callback_type == 5
    await res.wait_done()
    assert res.text == "The board"
    assert len(res.messages) == 1, "the first follow-up replaces the thinking message"
    (att,) = res.files
    assert att.filename == "board.png" and att.data == PNG
    assert not res.messages[0].loading


async def test_subcommand_group_and_autocomplete(world: World, bot: SampleBot) -> None:
    emu = world.emu
    res = await (
        await emu.slash(world.bob, world.general, "game admin kick", {"seat": 3})
    ).wait_done()
    assert res.text == "kicked seat 3"
    choices = await emu.autocomplete(
        world.bob, world.general, "game move", {"to": "ll"}, focused="to"
    )
    assert choices == [
        {"name": "Ballroom", "value": "ballroom"},
        {"name": "Cellar", "value": "cellar"},
    ]
    everything = await emu.autocomplete(world.bob, world.general, "game move", focused="to")
    assert len(everything) == 6


async def test_modal_round_trip(world: World, bot: SampleBot) -> None:
    emu = world.emu
    res = await (await emu.slash(world.alice, world.general, "game ask")).wait_done()
    assert res.modal is not None and res.modal["title"] == "Name your character"
    answer = await emu.submit_modal(world.alice, res, {"name": "Ada"})
    await answer.wait_done()
    assert answer.text == "Hello Ada"


async def test_user_option_is_resolved_and_dm_sent(world: World, bot: SampleBot) -> None:
    emu = world.emu
    res = await (
        await emu.slash(world.alice, world.general, "game dm", {"player": world.bob})
    ).wait_done()
    assert res.text == "sent a DM to bob" and res.ephemeral
    (dm,) = emu.dm_messages(world.bob)
    assert dm.content == "Your secret role"


async def test_invalid_invocations_are_refused(world: World, bot: SampleBot) -> None:
    emu = world.emu
    with pytest.raises(EmulatorError, match="no slash command /nope"):
        await emu.slash(world.alice, world.general, "nope")
    with pytest.raises(EmulatorError, match="needs a subcommand"):
        await emu.slash(world.alice, world.general, "game")
    with pytest.raises(EmulatorError, match="has no option 'color'"):
        await emu.slash(world.alice, world.general, "game move", {"to": "x", "color": 1})
    with pytest.raises(EmulatorError, match="missing required options"):
        await emu.slash(world.alice, world.general, "game move")
    with pytest.raises(EmulatorError, match="must be one of"):
        await emu.slash(world.alice, world.general, "game new", {"game": "chess"})
    with pytest.raises(EmulatorError, match="needs an int"):
        await emu.slash(
            world.alice, world.general, "game new", {"game": "exorcism", "players": "4"}
        )
    with pytest.raises(EmulatorError, match="has no subcommand 'old'"):
        await emu.slash(world.alice, world.general, "game old")
    with pytest.raises(EmulatorError, match="lacks the default_member_permissions"):
        await emu.slash(world.alice, world.general, "setup")
    with pytest.raises(EmulatorError, match="not available in DMs"):
        await emu.slash(world.alice, None, "setup")
    stranger = emu.create_user("stranger")
    with pytest.raises(EmulatorError, match="not a member"):
        await emu.slash(stranger, world.general, "game hand")
    assert emu.interactions == []


async def test_member_permissions_reach_the_bot(world: World, bot: SampleBot) -> None:
    emu = world.emu
    boss = emu.create_user("boss")
    emu.add_member(world.guild, boss, permissions=int(Perm.MANAGE_GUILD))
    res = await (await emu.slash(boss, world.general, "setup")).wait_done()
    assert res.text == "configured"


async def test_app_permissions_follow_channel_bot_permissions(world: World, bot: SampleBot) -> None:
    emu = world.emu
    locked = emu.create_text_channel(
        world.guild,
        "no-threads",
        bot_permissions=GAME_BOT_PERMISSIONS & ~Perm.CREATE_PUBLIC_THREADS,
    )
    res = await (await emu.slash(world.alice, locked, "game new", {"game": "presence"})).wait_done()
    assert res.ephemeral and res.text == "I need Create Public Threads"
    guild = bot.get_guild(int(world.guild.id))
    assert guild is not None
    channel = guild.get_channel(int(locked.id))
    assert isinstance(channel, discord.TextChannel)
    perms = channel.permissions_for(guild.me)
    assert perms.send_messages and not perms.create_public_threads


async def test_message_limits_are_enforced(world: World, bot: SampleBot) -> None:
    emu = world.emu
    res = await (await emu.slash(world.alice, world.general, "game long")).wait_done()
    assert res.text == "too long"
    (exc,) = bot.post_errors
    assert exc.status == 400 and exc.code == 50035
    assert [e.code for e in emu.errors] == [50035]
    assert res.errors == emu.errors


async def test_unknown_route_is_recorded(world: World, bot: SampleBot) -> None:
    emu = world.emu
    with pytest.raises(discord.NotFound):
        await bot.http.request(discord.http.Route("GET", "/voice/regions"))
    assert emu.unknown_routes == ["GET /voice/regions"]
    with pytest.raises(AssertionError, match="error answers"):
        emu.assert_no_errors()


async def test_dm_slash_command(world: World, bot: SampleBot) -> None:
    emu = world.emu
    res = await (await emu.slash(world.alice, None, "game hand")).wait_done()
    assert res.text == "Your hand: 3 cards"
    assert res.payload["context"] == 1 and "user" in res.payload and "member" not in res.payload



async def test_dm_context_follows_a_commands_contexts(world: World, bot: SampleBot) -> None:
    """Where a command runs is its `contexts` (discord.py's `allowed_contexts`): a command for
    guilds and the bot's DMs ([0, 1], as the bot's `/game` group is since `/game mine`) runs in
    both, one for guilds alone is refused in a DM, one for DMs alone in a guild — as Discord's
    client offers them. `dm_permission` (left true) does not override `contexts`."""
    emu = world.emu
    state = emu._state
    for name, contexts in (("both", [0, 1]), ("guilds", [0]), ("dms", [1])):
        emu.commands.upsert(None, {"name": name, "type": 1, "description": name,
                                   "contexts": contexts, "dm_permission": True},
                            state.application_id, state.ids)
    dm = await emu.slash(world.alice, None, "both")
    assert dm.payload["context"] == 1 and dm.payload["user"]["id"] == world.alice.id
    assert "guild_id" not in dm.payload and "member" not in dm.payload
    here = await emu.slash(world.alice, world.general, "both")
    assert here.payload["context"] == 0 and here.payload["guild_id"] == world.guild.id
    with pytest.raises(EmulatorError, match="not available in DMs"):
        await emu.slash(world.alice, None, "guilds")
    with pytest.raises(EmulatorError, match="not available in guilds"):
        await emu.slash(world.alice, world.general, "dms")
    assert (await emu.slash(world.alice, None, "dms")).payload["context"] == 1

def test_encode_invocation_builds_nested_options() -> None:
    store = CommandStore()
    ids = SnowflakeFactory()
    (cmd,) = store.overwrite(
        None,
        [
            {
                "name": "game",
                "description": "g",
                "options": [
                    {
                        "type": 2,
                        "name": "admin",
                        "description": "a",
                        "options": [
                            {
                                "type": 1,
                                "name": "kick",
                                "description": "k",
                                "options": [
                                    {
                                        "type": 4,
                                        "name": "seat",
                                        "description": "s",
                                        "required": True,
                                        "min_value": 1,
                                        "max_value": 6,
                                    },
                                    {"type": 5, "name": "quiet", "description": "q"},
                                ],
                            }
                        ],
                    }
                ],
            }
        ],
        "1",
        ids,
    )
    encoded = encode_invocation(
        cmd, ["game", "admin", "kick"], {"seat": 2, "quiet": True}, lambda opt, value: str(value)
    )
    assert encoded == [
        {
            "type": 2,
            "name": "admin",
            "options": [
                {
                    "type": 1,
                    "name": "kick",
                    "options": [
                        {"type": 4, "name": "seat", "value": 2},
                        {"type": 5, "name": "quiet", "value": True},
                    ],
                }
            ],
        }
    ]
    with pytest.raises(EmulatorError, match="must be <= 6"):
        encode_invocation(cmd, ["game", "admin", "kick"], {"seat": 9}, lambda o, v: "")
    again = store.overwrite(None, [{"name": "game", "description": "g2"}], "1", ids)
    assert again[0]["id"] == cmd["id"], "re-sync keeps the command id"
