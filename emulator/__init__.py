"""A local Discord (REST API v10 + Gateway on 127.0.0.1) for the real discord.py client.

The package owns everything needed to run the unmodified bot against an emulated Discord:
the server, its world (users, guilds, channels, threads, DMs, messages), interaction
injection and the records of what the bot did. Nothing here is imported by the bot.

Start, point discord.py at it, run a bot::

    from emulator import FAST_CLIENT_OPTIONS, DiscordEmulator, running_bot

    async with DiscordEmulator() as emu:          # or: emu = DiscordEmulator(); await emu.start()
        guild = emu.create_guild("Table")          # the bot is a member of every guild
        alice = emu.create_user("alice", dms_open=True)
        emu.add_member(guild, alice)               # permissions=<bits> adds a personal role
        general = emu.create_text_channel(guild, "general")  # bot_permissions=<bits>
        bot = build_bot(...)                       # e.g. commands.Bot(..., **FAST_CLIENT_OPTIONS)
        async with running_bot(bot, emu, sync_commands=True):
            res = await emu.slash(alice, general, "game new", {"game": "exorcism"})
            await res.wait_done()                  # AssertionError naming what is missing
            assert not res.ephemeral and "Exorcism" in res.text
            board = emu.last_message(emu.threads_of(general)[0])
            await (await emu.click(alice, board, "join")).wait_done()

``running_bot`` patches/restores discord.py itself; outside it use
``restore = emu.patch_discord()`` (a callable and a context manager) which sets
``discord.http.Route.BASE`` and ``DiscordWebSocket.DEFAULT_GATEWAY``.

``DiscordEmulator(*, bot_name="GameMaster", bot_token=..., strict_token=False,
shard_count=1, attachment_size_limit=10 MiB, interaction_timeout=3.0)`` (``shard_count`` is
what ``GET /gateway/bot`` recommends; the last two can also be set on a running emulator).

Lifecycle: ``await start()``, ``await stop()``, ``async with``; ``port``, ``base_url``,
``api_base``, ``gateway_url``, ``patch_discord() -> DiscordPatch``.

World (ids are snowflake strings; ``*Ref`` arguments take a record or an id):
``application_id`` (== ``bot_user.id``), ``bot_token``, ``owner``,
``create_user(name, *, dms_open=True, global_name=None) -> UserRecord`` (toggle
``user.dms_open`` any time: DMs then answer 403/50007), ``create_guild(name, *, owner=None,
shard=None, everyone_permissions=...) -> GuildRecord`` (``shard=(id, count)`` picks an id on
that shard), ``add_member(guild, user, *, permissions=None, nick=None)``,
``create_text_channel(guild, name, *, bot_permissions=GAME_BOT_PERMISSIONS, topic=None)``,
``set_bot_permissions(channel, bits)``, ``create_thread(channel, name, *, owner=None,
private=False)``, ``archive_thread(thread, *, locked=False)``, ``delete_channel(channel)``,
``dm_channel(user)``, ``thread_members(thread)``, ``users``/``guilds``/``channels`` dicts,
``remove_bot_from_guild(guild)`` (GUILD_DELETE; then 403/50001 on its channels).
Voice: ``create_voice_channel(guild, name, *, bot_permissions=VOICE_BOT_PERMISSIONS)``,
``join_voice(user, channel)``, ``leave_voice(user, guild)``, ``server_mute(guild, user,
mute=True)`` (a moderator's), ``is_server_muted(guild, user)``, ``voice_channel_of(guild,
user)``; each change is a VOICE_STATE_UPDATE, GUILD_CREATE carries ``voice_states``, and
``PATCH /guilds/{id}/members/{id}`` takes ``{"mute": bool}`` (Mute Members in the member's
voice channel; 400/40032 for a member not in voice; a server mute stays with the member).
Changes made while the bot is connected are announced on the gateway.

Interactions (each returns an ``InteractionRecord`` as soon as it is dispatched):
``await slash(user, channel, "group sub", options)`` (``channel=None``: the user's DM;
options are checked and encoded against the registered command tree, users/channels/roles
become ``resolved`` data, ``(filename, bytes)`` is an attachment),
``await autocomplete(user, channel, "cmd", options, focused="opt") -> list[choice]``,
``await click(user, message, custom_id=None, *, label=None, check=True)``,
``await select(user, message, custom_id=None, values=[...], *, label=None, check=True)``,
``await submit_modal(user, interaction_that_opened_it, {"input_id": "text"})``,
``await submit_old_modal(user, channel, custom_id, {"input_id": "text"})`` (a modal opened
long ago, e.g. before a restart).
``InteractionRecord``: ``callback_type`` (4/5/6/7/8/9), ``callback_data``, ``responded``,
``deferred``, ``done``, ``latency``, ``original``, ``followups``, ``edited_ids`` and
``deleted_ids`` (messages edited/deleted with the token), ``messages``, ``text``,
``ephemeral``, ``files``, ``choices``, ``modal``, ``errors``, ``late``;
``await wait_callback(timeout=5)``, ``await wait_done(timeout=5)``.

What the bot sent (``MessageRecord``: ``id``, ``channel_id``, ``author_id``, ``content``,
``embeds``, ``components`` (raw JSON), ``attachments`` (``AttachmentRecord`` with
``filename`` and ``data`` bytes), ``flags``, ``ephemeral``, ``order``, ``history`` of edits,
``deleted``, ``pinged_user_ids``, ``text``, ``custom_ids``, ``buttons``, ``selects``,
``component(custom_id|label=)``, ``attachment(filename)``):
``messages_in(channel, *, include_ephemeral=False, include_deleted=False)``,
``last_message(channel)``, ``dm_messages(user)``, ``threads_of(channel)``,
``all_messages()``, ``message(id)``, ``mark()``, ``await wait_for_message(predicate=None,
*, channel=None, since=None, timeout=5)``, ``await settle(quiet=0.05)``.

Bookkeeping: ``commands`` (``CommandStore``: ``paths()``, ``all_paths()``, ``syncs``,
``global_commands``, ``guild_commands``), ``stats`` (``requests`` per route, ``dispatches``,
``identifies``, ``resumes``, ``heartbeats``, ...), ``errors``, ``unknown_routes``,
``posts_to_archived``, ``tokens_seen``, ``presences``, ``interactions``,
``assert_no_errors(*, allow=codes)``.

Faults: ``fail_next(method, path_regex, status=429, retry_after=0.05, count=1,
is_global=False)`` (429s carry ``Via`` and ``retry_after`` so discord.py retries; 5xx are
retried after ~1 s), ``fail_every_route(status=429, retry_after=0.05, routes=1000)`` (the
first request of each distinct route fails), ``clear_faults()``, ``await gateway_reconnect()``
(op 7; returns once resumed),
``await invalidate_session(resumable=False)`` (op 9; discord.py waits 5 s to identify),
``await close_gateway(code=4000)``, ``connected``, ``await wait_until_connected(timeout,
*, sessions=1)``, ``sessions``.
``fail_next`` also takes ``code=``/``message=`` (the JSON error body) and ``after=`` (let that
many matching requests through first); ``fail_for(method,
path_regex, status=500, seconds=30, *, code=0)`` fails every matching request for a while
(a 503 is not retried by discord.py; 500/502/504 are, 1+3+5+7+9 s apart);
``refuse_callbacks(count=1)`` answers callbacks 404 / 10062; ``async with
gateway_outage(late_by=48)`` holds the interactions injected inside it and delivers them
``late_by`` seconds old (a replay after an outage: their callback answers 10062).
The clock: ``now``, ``advance_clock(seconds=, minutes=, hours=, days=)`` (messages and
interactions age; fault runs end), ``limit_old_edits(*, edits=3, per=6.0, lasting=0.0,
retry_after=None)`` -> ``OldEditLimit`` (``refused``, ``accepted``; switch off with
``old_edit_limit = None``): edits of messages over an hour old beyond 3 per 6 s per channel
answer 429 / 30046, ``lasting`` keeps refusing past discord.py's retries.
Moderators: ``lock_thread(thread, locked=True)`` (a bot without Manage Threads then gets
403 / 50083 on a post, an edit, and an interaction's answer, follow-up or edit there unless
ephemeral), ``revoke_bot_permissions(channel, bits)`` /
``grant_bot_permissions`` (a thread's parent; e.g. ``Perm.ATTACH_FILES``: a post with a file
answers 403 / 50013), ``delete_message(message, *, by=None)`` (MESSAGE_DELETE).

Discord behaviour it imitates: message limits (400/50035), empty messages (50006), upload
size (413/40005), missing permissions (403/50013; embeds are dropped without Embed Links),
closed DMs (403/50007), deleted channels (404/10003), edits in archived threads (50083;
an interaction's edit too; deleting is allowed), posting into an archived thread, or an
interaction's non-ephemeral answer or follow-up there, unarchives it (``posts_to_archived``;
interaction answers need no channel permission), the 3 s interaction
deadline (404/10062, ``record.late``), double acknowledgement (400/40060), the first
follow-up after a "thinking" defer replacing the loading message.

Testing helpers (``emulator.testing``): ``running_bot(client, emu=None, *, token=None,
timeout=10, sync_commands=False)`` (async context manager yielding the emulator once the
client is ready; on exit it closes the client, stops its views so no timeout task outlives
the test, awaits the connect task and restores discord.py), ``stop_views(client)``,
``FAST_CLIENT_OPTIONS`` (``guild_ready_timeout=0.05``) and the ``emulator`` pytest fixture
(``from emulator.testing import emulator`` in a conftest).
"""

from emulator.commands import CommandStore
from emulator.emulator import DiscordEmulator, DiscordPatch
from emulator.errors import ApiError, EmulatorError
from emulator.gateway import GatewaySession
from emulator.interaction_records import InteractionRecord
from emulator.permissions import (
    DEFAULT_MEMBER_PERMISSIONS,
    GAME_BOT_PERMISSIONS,
    VOICE_BOT_PERMISSIONS,
    Perm,
)
from emulator.records import (
    AttachmentRecord,
    ChannelRecord,
    ChannelType,
    ErrorRecord,
    FaultRule,
    GuildRecord,
    MemberRecord,
    MessageRecord,
    RoleRecord,
    Stats,
    UserRecord,
)
from emulator.state import OldEditLimit
from emulator.testing import FAST_CLIENT_OPTIONS, running_bot

__all__ = [
    "DEFAULT_MEMBER_PERMISSIONS",
    "FAST_CLIENT_OPTIONS",
    "GAME_BOT_PERMISSIONS",
    "VOICE_BOT_PERMISSIONS",
    "ApiError",
    "AttachmentRecord",
    "ChannelRecord",
    "ChannelType",
    "CommandStore",
    "DiscordEmulator",
    "DiscordPatch",
    "EmulatorError",
    "ErrorRecord",
    "FaultRule",
    "GatewaySession",
    "GuildRecord",
    "InteractionRecord",
    "MemberRecord",
    "MessageRecord",
    "OldEditLimit",
    "Perm",
    "RoleRecord",
    "Stats",
    "UserRecord",
    "running_bot",
]
