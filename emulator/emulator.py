"""``DiscordEmulator``: the public face of the local Discord emulator.

Owns the aiohttp server on 127.0.0.1 (REST under ``/api/v10``, the gateway websocket at
``/gateway`` and ``/resume-gateway``, attachment bytes under ``/attachments``), pointing
discord.py at it (``patch_discord``), and the test-facing API: building the world
(users, guilds, members, channels), injecting interactions as a user, reading what the
bot sent, waiting for it, and injecting faults. State lives in ``EmulatorState``;
routing in ``RestApi`` and ``GatewayHub``.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import socket
import time
from collections.abc import AsyncIterator, Callable, Iterable
from types import TracebackType
from typing import Any

from aiohttp import web

from emulator.commands import CommandStore
from emulator.errors import EmulatorError
from emulator.gateway import (
    FATAL_CLOSE_CODES,
    UNRESUMABLE_CLOSE_CODES,
    GatewayHub,
    GatewaySession,
)
from emulator.ids import shard_for
from emulator.interaction_records import InteractionRecord
from emulator.interactions import InteractionFactory
from emulator.permissions import (
    DEFAULT_MEMBER_PERMISSIONS,
    GAME_BOT_PERMISSIONS,
    VOICE_BOT_PERMISSIONS,
    Perm,
    has,
)
from emulator.records import (
    HAS_SNAPSHOT,
    ChannelRecord,
    ErrorRecord,
    FaultRule,
    GuildRecord,
    MemberRecord,
    MessageRecord,
    Stats,
    UploadedFile,
    UserRecord,
)
from emulator.rest import RestApi, json_response
from emulator.state import (
    DEFAULT_ATTACHMENT_SIZE_LIMIT,
    ChannelRef,
    EmulatorState,
    GuildRef,
    MessageRef,
    OldEditLimit,
    UserRef,
)

DEFAULT_TOKEN = "emulator.bot.token"


class DiscordPatch:
    """Points discord.py at an emulator; ``restore()`` (or calling it, or leaving the
    ``with`` block) puts the previous endpoints back."""

    def __init__(self, api_base: str, gateway_url: str) -> None:
        import discord.gateway
        import discord.http
        import yarl

        self._route = discord.http.Route
        self._ws = discord.gateway.DiscordWebSocket
        self._old_base = self._route.BASE
        self._old_gateway = self._ws.DEFAULT_GATEWAY
        self._route.BASE = api_base
        self._ws.DEFAULT_GATEWAY = yarl.URL(gateway_url)
        self.restored = False

    def restore(self) -> None:
        if not self.restored:
            self._route.BASE = self._old_base
            self._ws.DEFAULT_GATEWAY = self._old_gateway
            self.restored = True

    def __call__(self) -> None:
        self.restore()

    def __enter__(self) -> DiscordPatch:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.restore()


class DiscordEmulator:
    """A local Discord (REST API v10 + Gateway) that the real discord.py client can use.

    Ids are snowflake strings. Start it with ``await emu.start()`` (or ``async with``),
    point discord.py at it with ``emu.patch_discord()``, then run the bot with any token
    (``emu.bot_token`` is a fine one; ``strict_token=True`` makes others fail).
    """

    def __init__(
        self,
        *,
        bot_name: str = "GameMaster",
        bot_token: str = DEFAULT_TOKEN,
        strict_token: bool = False,
        shard_count: int = 1,
        attachment_size_limit: int = DEFAULT_ATTACHMENT_SIZE_LIMIT,
        interaction_timeout: float = 3.0,
    ) -> None:
        self.bot_token = bot_token
        self.strict_token = strict_token
        self.shard_count = shard_count
        self.port = 0
        self._state = EmulatorState(
            bot_name=bot_name,
            cdn_base=lambda: self.base_url,
            attachment_size_limit=attachment_size_limit,
            interaction_timeout=interaction_timeout,
        )
        self._hub = GatewayHub(
            self._state,
            resume_url=lambda: self.resume_gateway_url,
            expected_token=self._expected_token,
        )
        self._state.dispatcher = self._hub
        self._rest = RestApi(
            self._state,
            gateway_url=lambda: self.gateway_url,
            expected_token=self._expected_token,
            recommended_shards=lambda: self.shard_count,
        )
        self._interactions = InteractionFactory(self._state)
        self._runner: web.AppRunner | None = None
        # Interactions held back while the gateway is out (``gateway_outage``).
        self._outage: list[InteractionRecord] | None = None
        self.busy: Callable[[], bool] | None = None
        """Set by a test harness: whether the bot still has work under way that may yet make
        requests (a callback that answered and edits next). ``settle`` waits for it as well
        as for quiet, to its timeout at most."""

    def _expected_token(self) -> str | None:
        return self.bot_token if self.strict_token else None

    # -- lifecycle --------------------------------------------------------------------

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        """What ``discord.http.Route.BASE`` should be."""
        return f"{self.base_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    @property
    def resume_gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/resume-gateway"

    async def start(self) -> DiscordEmulator:
        """Bind 127.0.0.1 on a free port and serve."""
        if self._runner is not None:
            raise EmulatorError("emulator already started")
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self._hub.handle)
        app.router.add_get("/gateway/", self._hub.handle)
        app.router.add_get("/resume-gateway", self._hub.handle)
        app.router.add_get("/resume-gateway/", self._hub.handle)
        app.router.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", self._cdn)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._rest.handle)
        app.router.add_route("*", "/{tail:.*}", self._unknown)
        runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await runner.setup()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", 0))
        self.port = sock.getsockname()[1]
        site = web.SockSite(runner, sock)
        await site.start()
        self._runner = runner
        return self

    async def stop(self) -> None:
        """Close every gateway connection and the server."""
        if self._runner is None:
            return
        await self._hub.shutdown()
        await self._runner.cleanup()
        self._runner = None

    async def __aenter__(self) -> DiscordEmulator:
        return await self.start()

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.stop()

    def patch_discord(self) -> DiscordPatch:
        """Point discord.py's REST base and default gateway here; returns the restorer."""
        if self._runner is None:
            raise EmulatorError("start the emulator before patching discord.py")
        return DiscordPatch(self.api_base, self.gateway_url)

    async def _cdn(self, request: web.Request) -> web.StreamResponse:
        att = self._state.attachments.get(request.match_info["attachment_id"])
        if att is None:
            return web.Response(status=404, text="not found")
        return web.Response(
            body=att.data, content_type=att.content_type or "application/octet-stream"
        )

    async def _unknown(self, request: web.Request) -> web.StreamResponse:
        self._state.unknown_routes.append(f"{request.method} {request.path}")
        self._state.record_error(
            request.method, request.path, 404, 0, "404: Not Found", injected=False
        )
        return json_response(404, {"message": "404: Not Found", "code": 0})

    # -- the world --------------------------------------------------------------------

    @property
    def application_id(self) -> str:
        """The application id, equal to the bot user's id."""
        return self._state.application_id

    @property
    def bot_user(self) -> UserRecord:
        return self._state.bot_user

    @property
    def owner(self) -> UserRecord:
        """The application's owner (``bot.is_owner`` is true for them)."""
        return self._state.owner

    @property
    def users(self) -> dict[str, UserRecord]:
        return self._state.users

    @property
    def guilds(self) -> dict[str, GuildRecord]:
        return self._state.guilds

    @property
    def channels(self) -> dict[str, ChannelRecord]:
        return self._state.channels

    def create_user(
        self, name: str, *, dms_open: bool = True, global_name: str | None = None
    ) -> UserRecord:
        """A new user (not yet in any guild). Toggle ``user.dms_open`` at any time."""
        return self._state.create_user(name, dms_open=dms_open, global_name=global_name)

    def create_guild(
        self,
        name: str,
        *,
        owner: UserRecord | None = None,
        shard: tuple[int, int] | None = None,
        everyone_permissions: int = DEFAULT_MEMBER_PERMISSIONS,
        locale: str = "en-US",
    ) -> GuildRecord:
        """A guild the bot is in. ``shard=(id, count)`` picks an id on that shard.

        Created after the bot connected, it arrives as a GUILD_CREATE (a join).
        """
        return self._state.create_guild(
            name, owner=owner, shard=shard, everyone_permissions=everyone_permissions, locale=locale
        )

    def add_member(
        self,
        guild: GuildRef,
        user: UserRef,
        *,
        permissions: int | None = None,
        nick: str | None = None,
    ) -> MemberRecord:
        """Make ``user`` a member; ``permissions`` become a personal role on top of @everyone."""
        return self._state.add_member(guild, user, permissions=permissions, nick=nick)

    def create_text_channel(
        self,
        guild: GuildRef,
        name: str,
        *,
        bot_permissions: int = GAME_BOT_PERMISSIONS,
        topic: str | None = None,
    ) -> ChannelRecord:
        """A guild text channel where the bot has exactly ``bot_permissions``."""
        return self._state.create_text_channel(
            guild, name, bot_permissions=bot_permissions, topic=topic
        )

    def create_voice_channel(
        self, guild: GuildRef, name: str, *, bot_permissions: int = VOICE_BOT_PERMISSIONS
    ) -> ChannelRecord:
        """A guild voice channel where the bot has exactly ``bot_permissions`` (by default
        View Channel, Connect and Mute Members)."""
        return self._state.create_voice_channel(guild, name, bot_permissions=bot_permissions)

    def join_voice(self, user: UserRef, channel: ChannelRef) -> None:
        """``user`` connects to a voice channel (or moves there): VOICE_STATE_UPDATE."""
        self._state.join_voice(user, channel)

    def leave_voice(self, user: UserRef, guild: GuildRef) -> None:
        """``user`` disconnects from voice in ``guild``: VOICE_STATE_UPDATE without a channel."""
        self._state.leave_voice(user, guild)

    def server_mute(self, guild: GuildRef, user: UserRef, mute: bool = True) -> None:
        """A moderator server-mutes (or unmutes) a member, as from Discord's own menu."""
        self._state.set_server_mute(guild, user, mute)

    def is_server_muted(self, guild: GuildRef, user: UserRef) -> bool:
        """Whether ``user`` carries a server mute in ``guild`` (in voice or not)."""
        g = self._state.guild(guild)
        return g.members[self._state.user(user).id].mute

    def voice_channel_of(self, guild: GuildRef, user: UserRef) -> str | None:
        """The id of the voice channel ``user`` is connected to in ``guild``, if any."""
        vs = self._state.guild(guild).voice_states.get(self._state.user(user).id)
        return vs.channel_id if vs is not None else None

    def set_bot_permissions(self, channel: ChannelRef, bot_permissions: int) -> None:
        """Change what the bot may do in a text channel (and its threads) or a voice channel."""
        self._state.set_bot_permissions(channel, bot_permissions)

    def set_guild_bot_permissions(self, guild: GuildRef, bot_permissions: int) -> None:
        """What the bot's role may do server-wide (e.g. Manage Channels to create one)."""
        self._state.guild(guild).bot_permissions = bot_permissions

    def member_permissions_in(self, user: UserRef, channel: ChannelRef) -> int:
        """What a member may do in a channel, after its permission overwrites."""
        return self._state.member_channel_permissions(
            self._state.channel(channel), self._state.user(user).id)

    def create_thread(
        self,
        channel: ChannelRef,
        name: str,
        *,
        owner: UserRef | None = None,
        private: bool = False,
    ) -> ChannelRecord:
        """A thread made by someone other than the bot (the bot made its own via REST)."""
        owner_id = self._state.user(owner).id if owner is not None else None
        return self._state.create_thread(
            self._state.channel(channel), name, private=private, owner_id=owner_id
        )

    def archive_thread(self, thread: ChannelRef, *, locked: bool = False) -> ChannelRecord:
        """Archive a thread as Discord's auto-archive would (THREAD_UPDATE is sent)."""
        ch = self._state.channel(thread)
        if not ch.is_thread:
            raise EmulatorError(f"{ch!r} is not a thread")
        return self._state.update_thread(ch, archived=True, locked=locked)

    def delete_channel(self, channel: ChannelRef) -> ChannelRecord:
        """Delete a channel or thread as a moderator would; later posts get 10003."""
        return self._state.delete_channel(channel)

    def remove_bot_from_guild(self, guild: GuildRef) -> GuildRecord:
        """The bot is removed from ``guild`` (kicked, banned, the server deleted): GUILD_DELETE
        without ``unavailable``; from then on the guild's channels answer 403/50001 Missing
        Access, DMs to users who shared only removed servers with the bot answer 50007, and a
        new session's READY leaves the guild out."""
        return self._state.remove_bot(guild)

    def dm_channel(self, user: UserRef) -> ChannelRecord:
        """The bot's DM channel with ``user`` (created on first use)."""
        return self._state.dm_channel(user)

    def thread_members(self, thread: ChannelRef) -> set[str]:
        return set(self._state.channel(thread).member_ids)

    def shard_of(self, guild: GuildRef, shard_count: int) -> int:
        return shard_for(self._state.guild(guild).id, shard_count)

    # -- commands ---------------------------------------------------------------------

    @property
    def commands(self) -> CommandStore:
        """The ``CommandStore`` of registered commands (``.paths()``, ``.syncs``, ...)."""
        return self._state.commands

    # -- interactions -----------------------------------------------------------------

    def _resolve_channel(self, user: UserRecord, channel: ChannelRef | None) -> ChannelRecord:
        if channel is None:
            return self._state.dm_channel(user)
        return self._state.channel(channel)

    def _inject(self, record: InteractionRecord) -> InteractionRecord:
        if self._outage is not None:
            self._outage.append(record)  # delivered when the outage ends (``gateway_outage``)
            return record
        return self._dispatch_interaction(record)

    def _dispatch_interaction(self, record: InteractionRecord) -> InteractionRecord:
        sent = self._hub.dispatch("INTERACTION_CREATE", record.payload, guild_id=record.guild_id)
        if not sent:
            del self._state.interactions[record.id]
            del self._state.interactions_by_token[record.token]
            where = f"guild {record.guild_id}" if record.guild_id else "DMs (shard 0)"
            raise EmulatorError(f"no gateway session receives {where}; is the bot connected?")
        self._state.notify()
        return record

    async def slash(
        self,
        user: UserRef,
        channel: ChannelRef | None,
        command: str,
        options: dict[str, Any] | None = None,
    ) -> InteractionRecord:
        """Run ``/command`` (``"game new"``: space-separated path) as ``user`` in ``channel``
        (``None``: the user's DM). Returns at once; ``await res.wait_done()`` for the answer.
        """
        u = self._state.user(user)
        record = self._interactions.slash(
            u, self._resolve_channel(u, channel), command, dict(options or {})
        )
        return self._inject(record)

    async def slash_raw(
        self,
        user: UserRef,
        channel: ChannelRef | None,
        name: str,
        options: list[dict[str, Any]] | None = None,
        *,
        resolved: dict[str, Any] | None = None,
        autocomplete: bool = False,
    ) -> InteractionRecord:
        """Send ``/name`` with ``options`` as the raw ``data.options`` list (subcommands
        included, e.g. ``[{"type": 1, "name": "replay", "options": [...]}]``), unchecked: a
        payload Discord's own client would not send (an unknown command or subcommand, an
        option of the wrong type, out of range, missing), to test that a bot does not trust
        its client. ``autocomplete``: sent as an autocomplete of the option marked
        ``"focused": True``."""
        u = self._state.user(user)
        record = self._interactions.raw_slash(
            u, self._resolve_channel(u, channel), name, list(options or []),
            resolved=resolved, autocomplete=autocomplete)
        return self._inject(record)

    async def autocomplete(
        self,
        user: UserRef,
        channel: ChannelRef | None,
        command: str,
        options: dict[str, Any] | None = None,
        *,
        focused: str,
        timeout: float = 5.0,
    ) -> list[dict[str, Any]]:
        """Type into option ``focused`` and return the choices the bot offered."""
        u = self._state.user(user)
        record = self._interactions.slash(
            u, self._resolve_channel(u, channel), command, dict(options or {}), focused=focused
        )
        self._inject(record)
        await record.wait_callback(timeout)
        return record.choices

    async def click(
        self,
        user: UserRef,
        message: MessageRef,
        custom_id: str | None = None,
        *,
        label: str | None = None,
        check: bool = True,
    ) -> InteractionRecord:
        """Press a button (by ``custom_id`` or ``label``) on a message the bot sent.

        ``check=False`` sends the press even if the button is gone or disabled (a client
        with a stale view).
        """
        u = self._state.user(user)
        record = self._interactions.component(
            u, self._state.message(message), custom_id, label=label, check=check
        )
        return self._inject(record)

    async def select(
        self,
        user: UserRef,
        message: MessageRef,
        custom_id: str | None = None,
        values: Iterable[Any] = (),
        *,
        label: str | None = None,
        check: bool = True,
    ) -> InteractionRecord:
        """Choose ``values`` in a select menu (string values, or users/channels/roles)."""
        u = self._state.user(user)
        record = self._interactions.component(
            u,
            self._state.message(message),
            custom_id,
            label=label,
            values=list(values),
            check=check,
        )
        return self._inject(record)

    async def press_raw(
        self, user: UserRef, message: MessageRef, data: dict[str, Any]
    ) -> InteractionRecord:
        """Send a component interaction on ``message`` whose ``data`` (``custom_id``,
        ``component_type``, ``values``) is exactly ``data``: what a hostile or broken client
        could send (values that are not a list of texts, a type the component is not)."""
        u = self._state.user(user)
        return self._inject(
            self._interactions.raw_component(u, self._state.message(message), data))

    async def submit_modal(
        self, user: UserRef, interaction: InteractionRecord, values: dict[str, Any]
    ) -> InteractionRecord:
        """Fill in and submit the modal the bot opened in answer to ``interaction``."""
        u = self._state.user(user)
        return self._inject(self._interactions.modal_submit(u, interaction, values))

    async def submit_old_modal(
        self, user: UserRef, channel: ChannelRef | None, custom_id: str,
        values: dict[str, str] | None = None,
    ) -> InteractionRecord:
        """Submit a modal the bot opened long ago (before a restart, or a retired one):
        Discord still delivers it, with text inputs ``values``, to a bot that may have
        forgotten it."""
        u = self._state.user(user)
        return self._inject(self._interactions.old_modal_submit(
            u, self._resolve_channel(u, channel), custom_id, dict(values or {})))

    @property
    def interactions(self) -> list[InteractionRecord]:
        return list(self._state.interactions.values())

    def post(
        self,
        user: UserRef,
        channel: ChannelRef,
        content: str,
        *,
        files: Iterable[tuple[str, bytes]] = (),
        forward: MessageRef | None = None,
    ) -> MessageRecord:
        """``user`` types ``content`` into a guild channel or thread, as in the Discord app.

        The bot sees it as MESSAGE_CREATE if it has the guild-messages intent, with the text
        (and attachments) only if it also has the privileged message-content intent (or is
        mentioned). ``files`` are ``(filename, bytes)`` uploads. ``forward`` makes the post a
        forward of that message instead, as the app's Forward does: no text of its own, a
        ``message_reference`` of type FORWARD and the HAS_SNAPSHOT flag, both sent without
        the content intent (the forwarded snapshot itself is not modelled). Posting in an
        archived thread reopens it; a locked thread, a channel the user may not send in, or a
        user outside the guild is refused with an ``EmulatorError``.
        """
        u = self._state.user(user)
        ch = self._state.channel(channel)
        if ch.is_dm or ch.guild_id is None or ch.deleted:
            raise EmulatorError(f"{u.name} can only post in an existing guild channel or thread")
        guild = self._state.guild(ch.guild_id)
        if u.id not in guild.members:
            raise EmulatorError(f"{u.name} is not a member of {guild.name}")
        send = Perm.SEND_MESSAGES_IN_THREADS if ch.is_thread else Perm.SEND_MESSAGES
        if files:
            send |= Perm.ATTACH_FILES
        if not has(self._state.member_channel_permissions(ch, u.id), Perm.VIEW_CHANNEL | send):
            raise EmulatorError(f"{u.name} may not send messages in {ch.name}")
        if ch.is_thread:
            if ch.archived and ch.locked:
                raise EmulatorError(f"{ch.name} is archived and locked")
            if ch.archived:
                self._state.update_thread(ch, archived=False)
            ch.member_ids.add(u.id)
        body: dict[str, Any] = {"content": content}
        flags = 0
        if forward is not None:
            source = self._state.message(forward)
            body = {"content": "", "message_reference": {
                "type": 1, "message_id": source.id, "channel_id": source.channel_id,
                **({"guild_id": source.guild_id} if source.guild_id else {})}}
            flags = HAS_SNAPSHOT
        uploads = [UploadedFile(i, name, data) for i, (name, data) in enumerate(files)]
        return self._state.create_message(ch, body, uploads, author_id=u.id, flags=flags)

    def edit_post(self, user: UserRef, message: MessageRef, content: str) -> MessageRecord:
        """``user`` edits their own message (MESSAGE_UPDATE, with an edit time)."""
        u = self._state.user(user)
        msg = self._state.message(message)
        if msg.author_id != u.id or msg.deleted:
            raise EmulatorError(f"{u.name} can only edit their own messages that still exist")
        return self._state.edit_message(msg, {"content": content})

    # -- what the bot sent ------------------------------------------------------------

    def message(self, message_id: MessageRef) -> MessageRecord:
        return self._state.message(message_id)

    def messages_in(
        self,
        channel: ChannelRef,
        *,
        include_ephemeral: bool = False,
        include_deleted: bool = False,
    ) -> list[MessageRecord]:
        """Messages in a channel/thread/DM, oldest first (public, not deleted, by default)."""
        return self._state.messages_in(
            channel, include_ephemeral=include_ephemeral, include_deleted=include_deleted
        )

    def last_message(self, channel: ChannelRef) -> MessageRecord:
        msgs = self.messages_in(channel)
        if not msgs:
            raise AssertionError(f"no messages in channel {channel!r}")
        return msgs[-1]

    def dm_messages(self, user: UserRef, *, include_deleted: bool = False) -> list[MessageRecord]:
        """Messages the bot sent to ``user`` by DM (DM interaction replies included)."""
        u = self._state.user(user)
        if u.dm_channel_id is None:
            return []
        return self._state.messages_in(
            u.dm_channel_id, include_ephemeral=True, include_deleted=include_deleted
        )

    def threads_of(self, channel: ChannelRef) -> list[ChannelRecord]:
        """Threads (not deleted) whose parent is ``channel``, oldest first."""
        return self._state.threads_of(channel)

    def all_messages(
        self, *, include_ephemeral: bool = False, include_deleted: bool = False
    ) -> list[MessageRecord]:
        return [
            m
            for m in self._state.messages.values()
            if (include_ephemeral or not m.ephemeral) and (include_deleted or not m.deleted)
        ]

    def plant_bot_message(
        self,
        channel: ChannelRef,
        content: str = "",
        *,
        components: list[dict[str, Any]] | None = None,
    ) -> MessageRecord:
        """A message as if the bot had posted it long ago (an older version of the bot, with
        buttons it no longer makes). Discord only sends component interactions for components
        a message really carries, so retired and forged custom ids are pressed through one."""
        ch = self._state.channel(channel)
        return self._state.create_message(
            ch, {"content": content, "components": list(components or [])}
        )

    def mark(self) -> int:
        """A position in the message order; pass it as ``since=`` to see only newer ones."""
        return self._state.last_order

    async def wait_for_message(
        self,
        predicate: Callable[[MessageRecord], bool] | None = None,
        *,
        channel: ChannelRef | None = None,
        since: int | None = None,
        include_ephemeral: bool = False,
        timeout: float = 5.0,
    ) -> MessageRecord:
        """The first message (oldest first) matching, waiting until one exists."""
        cid = None if channel is None else self._state.channel(channel).id

        def find() -> MessageRecord | None:
            # Messages are kept in creation order: with ``since``, walk back from the newest
            # only as far as the mark (a long game holds thousands of older ones).
            if since is None:
                candidates: Iterable[MessageRecord] = self._state.messages.values()
            else:
                newer = []
                for msg in reversed(self._state.messages.values()):
                    if msg.order <= since:
                        break
                    newer.append(msg)
                candidates = reversed(newer)
            for msg in candidates:
                if msg.deleted or (msg.ephemeral and not include_ephemeral):
                    continue
                if cid is not None and msg.channel_id != cid:
                    continue
                if predicate is None or predicate(msg):
                    return msg
            return None

        def missing() -> str:
            where = f" in channel {cid}" if cid else ""
            return f"no matching message{where} within {timeout}s"

        return await self._state.wait_for(find, timeout, missing)

    async def wait_for_write(
        self, channel: ChannelRef, message: MessageRecord | None, *, since: int,
        timeout: float = 5.0,
    ) -> MessageRecord:
        """A message written in ``channel`` after the mark ``since``: ``message`` edited, or
        else a newer message (a bot that edits its post in place instead of posting anew)."""
        ch = self._state.channel(channel)

        def find() -> MessageRecord | None:
            if message is not None and message.written > since:
                return message
            last = ch.last_message_id
            newest = self._state.messages.get(last) if last else None
            return newest if newest is not None and newest.order > since else None

        def missing() -> str:
            return f"nothing written in channel {ch.id} within {timeout}s"

        return await self._state.wait_for(find, timeout, missing)

    async def settle(self, quiet: float = 0.05, timeout: float = 5.0) -> None:
        """Wait until the bot has made no request for ``quiet`` seconds and is not ``busy``
        (a bot busy past ``timeout`` but quiet is left to it: the caller reads what it did)."""
        deadline = time.monotonic() + timeout
        while True:
            idle = time.monotonic() - self._state.last_activity
            if idle >= quiet:
                if self.busy is None or time.monotonic() >= deadline or not self.busy():
                    return
                await asyncio.sleep(0.01)
                continue
            if time.monotonic() >= deadline:
                raise AssertionError(f"the bot kept making requests for {timeout}s")
            await asyncio.sleep(quiet - idle)

    # -- bookkeeping ------------------------------------------------------------------

    @property
    def attachment_size_limit(self) -> int:
        """Largest upload accepted (bytes); larger files answer 413 / 40005."""
        return self._state.attachment_size_limit

    @attachment_size_limit.setter
    def attachment_size_limit(self, value: int) -> None:
        self._state.attachment_size_limit = value

    @property
    def interaction_timeout(self) -> float:
        """Seconds the bot has for the initial callback before 404 / 10062."""
        return self._state.interaction_timeout

    @interaction_timeout.setter
    def interaction_timeout(self, value: float) -> None:
        self._state.interaction_timeout = value

    @property
    def token_lifetime(self) -> float:
        """Seconds an interaction token takes follow-ups and edits (401 / 50027 after)."""
        return self._state.token_lifetime

    @token_lifetime.setter
    def token_lifetime(self, value: float) -> None:
        self._state.token_lifetime = value

    @property
    def stats(self) -> Stats:
        return self._state.stats

    @property
    def errors(self) -> list[ErrorRecord]:
        """Every non-2xx answer given to the bot (injected faults marked ``injected``)."""
        return self._state.errors

    @property
    def unknown_routes(self) -> list[str]:
        return self._state.unknown_routes

    @property
    def audit_log(self) -> list[tuple[int, str, str]]:
        """(message order when made, route, reason) of every accepted request that gave an
        audit-log reason: what the server's moderators read in its audit log."""
        return self._state.audit_log

    @property
    def posts_to_archived(self) -> list[str]:
        """Thread ids, once per message the bot posted into an archived thread."""
        return self._state.posts_to_archived

    @property
    def tokens_seen(self) -> list[str]:
        return self._state.tokens_seen

    @property
    def presences(self) -> list[dict[str, Any]]:
        """Presence updates (op 3) the bot sent."""
        return self._state.presences

    def assert_no_errors(self, *, allow: Iterable[int] = ()) -> None:
        """Fail if the bot met an unknown route or an error answer (other than injected
        faults and the Discord error ``codes`` in ``allow``)."""
        allowed = set(allow)
        bad = [e for e in self._state.errors if not e.injected and e.code not in allowed]
        if self._state.unknown_routes or bad:
            lines = [f"{e.method} {e.path} -> {e.status} {e.code} {e.message}" for e in bad]
            raise AssertionError("the bot got error answers:\n" + "\n".join(lines))

    # -- faults -----------------------------------------------------------------------

    def fail_next(
        self,
        method: str,
        path_regex: str,
        status: int = 429,
        retry_after: float = 0.05,
        count: int = 1,
        is_global: bool = False,
        *,
        code: int = 0,
        message: str | None = None,
        after: int = 0,
    ) -> FaultRule:
        """Answer the next ``count`` requests matching ``method`` (``"*"`` for any) and
        ``path_regex`` (searched in the path after ``/api/v10``) with ``status`` (any: 429
        with ``retry_after``, 500, 502, 503, 504...), its body carrying JSON error ``code``
        and ``message`` (default: Discord's bare text for the status, code 0), once
        ``after`` matching requests went through.
        """
        rule = FaultRule(
            method=method.upper(),
            path_regex=re.compile(path_regex),
            status=status,
            retry_after=retry_after,
            count=count,
            is_global=is_global,
            code=code,
            message=message,
            after=after,
        )
        self._state.faults.append(rule)
        return rule

    def fail_every_route(
        self, status: int = 429, retry_after: float = 0.05, routes: int = 1000
    ) -> FaultRule:
        """Answer the first request of every distinct route (by template, e.g. ``POST
        /channels/{channel_id}/messages``) with ``status``, for up to ``routes`` routes; later
        requests on a route that failed once go through. 429s carry ``retry_after``."""
        rule = FaultRule(
            method="*",
            path_regex=re.compile(".*"),
            status=status,
            retry_after=retry_after,
            count=routes,
            is_global=False,
            per_route=True,
        )
        self._state.faults.append(rule)
        return rule

    def fail_for(
        self,
        method: str,
        path_regex: str,
        status: int = 500,
        seconds: float = 30.0,
        *,
        code: int = 0,
        message: str | None = None,
    ) -> FaultRule:
        """A run of failures: answer every request matching ``method`` and ``path_regex``
        with ``status`` for ``seconds`` on the emulator's clock (``advance_clock`` ends it
        early). 500/502/504 are retried by discord.py (1, 3, 5, 7, 9 s apart), 503 is not."""
        rule = FaultRule(
            method=method.upper(),
            path_regex=re.compile(path_regex),
            status=status,
            retry_after=0.0,
            count=1,
            is_global=False,
            until=self._state.now() + seconds,
            code=code,
            message=message,
        )
        self._state.faults.append(rule)
        return rule

    def refuse_callbacks(self, count: int = 1) -> FaultRule:
        """Answer the next ``count`` interaction callbacks 404 / 10062 "Unknown interaction",
        as Discord does when it no longer knows the interaction (the user saw "This
        interaction failed"); the interaction is marked ``late`` and stays unanswered."""
        rule = FaultRule(
            method="POST",
            path_regex=re.compile(r"^/interactions/\d+/[^/]+/callback$"),
            status=404,
            retry_after=0.0,
            count=count,
            is_global=False,
            code=10062,
            message="Unknown interaction",
        )
        self._state.faults.append(rule)
        return rule

    @contextlib.asynccontextmanager
    async def gateway_outage(self, late_by: float = 48.0) -> AsyncIterator[None]:
        """Interactions injected inside the block are held, as Discord holds events while a
        bot's gateway connection is down, then delivered when the block ends, each
        ``late_by`` seconds after its creation (its id and age say so: Discord replays them
        45-53 s late after an outage), so its callback answers 404 / 10062."""
        if self._outage is not None:
            raise EmulatorError("a gateway outage is already under way")
        held: list[InteractionRecord] = []
        self._outage = held
        try:
            yield
        finally:
            self._outage = None
        state = self._state
        for record in held:
            created = state.now() - late_by
            new_id = state.ids.at(created)
            del state.interactions[record.id]
            record.id = new_id
            record.payload["id"] = new_id
            state.interactions[new_id] = record
            record.created_at -= late_by
            self._dispatch_interaction(record)

    # -- the clock ----------------------------------------------------------------------

    @property
    def now(self) -> float:
        """The emulator's time (seconds since the Unix epoch): the wall clock plus every
        ``advance_clock``. Message ages, interaction ages and fault runs use it."""
        return self._state.now()

    def advance_clock(
        self, *, seconds: float = 0.0, minutes: float = 0.0, hours: float = 0.0,
        days: float = 0.0,
    ) -> float:
        """Move the emulator's clock forward (never back): every message and interaction
        becomes that much older. Returns the new ``now``."""
        step = seconds + 60 * minutes + 3600 * hours + 86400 * days
        if step < 0:
            raise EmulatorError("the clock only moves forward")
        self._state.clock_offset += step
        self._state.notify()
        return self._state.now()

    def limit_old_edits(
        self,
        *,
        edits: int = 3,
        per: float = 6.0,
        lasting: float = 0.0,
        retry_after: float | None = None,
        age: float = 3600.0,
    ) -> OldEditLimit:
        """Switch on Discord's limit on edits of old messages: beyond ``edits`` edits per
        ``per`` seconds per channel of messages older than ``age`` (an hour), an edit
        (PATCH of a message, an UPDATE_MESSAGE callback, a webhook edit of an interaction's
        message) is refused 429 / 30046 "Maximum number of edits to messages older than 1
        hour reached. Try again later" with ``retry_after``. ``lasting``: once hit, the channel
        refuses old edits that long (with a small ``retry_after`` the refusal outlasts
        discord.py's retries, and the edit fails). ``limit_old_edits`` again replaces it;
        ``old_edit_limit = None`` switches it off."""
        limit = OldEditLimit(
            edits=edits, per=per, lasting=lasting, retry_after=retry_after, age=age
        )
        self._state.old_edit_limit = limit
        return limit

    @property
    def old_edit_limit(self) -> OldEditLimit | None:
        return self._state.old_edit_limit

    @old_edit_limit.setter
    def old_edit_limit(self, value: OldEditLimit | None) -> None:
        self._state.old_edit_limit = value

    # -- moderators -----------------------------------------------------------------------

    def lock_thread(self, thread: ChannelRef, *, locked: bool = True,
                    archived: bool | None = None) -> ChannelRecord:
        """A moderator locks (or, ``locked=False``, unlocks) a thread (THREAD_UPDATE). A bot
        without Manage Threads may then not post there: 403 / 50083."""
        ch = self._state.channel(thread)
        if not ch.is_thread:
            raise EmulatorError(f"{ch.name} is not a thread")
        return self._state.update_thread(ch, locked=locked, archived=archived)

    def revoke_bot_permissions(self, channel: ChannelRef, bits: int) -> None:
        """A moderator takes ``bits`` from the bot in a text channel (or a thread's parent):
        e.g. ``Perm.ATTACH_FILES`` (a post with a file then answers 403 / 50013)."""
        ch = self._text_channel_of(channel)
        self._state.set_bot_permissions(ch, ch.bot_permissions & ~int(bits))

    def grant_bot_permissions(self, channel: ChannelRef, bits: int) -> None:
        """A moderator gives ``bits`` back to the bot in a text channel (or a thread's parent)."""
        ch = self._text_channel_of(channel)
        self._state.set_bot_permissions(ch, ch.bot_permissions | int(bits))

    def _text_channel_of(self, channel: ChannelRef) -> ChannelRecord:
        ch = self._state.channel(channel)
        if ch.is_thread and ch.parent_id is not None:
            ch = self._state.channel(ch.parent_id)
        return ch

    def delete_message(self, message: MessageRef, *, by: UserRef | None = None) -> None:
        """A moderator (``by``, default the guild owner) deletes a message, the bot's own
        included; the bot receives MESSAGE_DELETE."""
        msg = self._state.message(message)
        if msg.deleted:
            raise EmulatorError(f"message {msg.id} is already deleted")
        if by is not None and msg.guild_id is not None:
            u = self._state.user(by)
            ch = self._state.channel(msg.channel_id)
            if msg.author_id != u.id and not has(
                self._state.member_channel_permissions(ch, u.id), Perm.MANAGE_MESSAGES
            ):
                raise EmulatorError(f"{u.name} may not delete others' messages here")
        self._state.delete_message(msg)

    def clear_faults(self) -> None:
        """Drop every injected REST fault not yet served."""
        self._state.faults.clear()

    @property
    def sessions(self) -> list[GatewaySession]:
        """Gateway sessions (live or resumable)."""
        return list(self._hub.sessions.values())

    @property
    def connected(self) -> bool:
        """Some bot session is connected (READY and its GUILD_CREATEs were sent)."""
        return bool(self._hub.live_sessions())

    async def wait_until_connected(self, timeout: float = 5.0, *, sessions: int = 1) -> None:
        await self._state.wait_for(
            lambda: len(self._hub.live_sessions()) >= sessions,
            timeout,
            lambda: (
                f"{sessions} gateway session(s) not connected within {timeout}s "
                f"(live: {len(self._hub.live_sessions())})"
            ),
        )

    async def gateway_reconnect(self, *, wait: bool = True, timeout: float = 5.0) -> None:
        """Send op 7 RECONNECT; with ``wait``, return once every session has resumed."""
        live = self._hub.live_sessions()
        before = {s.id: s.resumes for s in live}
        self._hub.send_reconnect()
        if wait:
            await self._wait_resumed(live, before, timeout)

    async def invalidate_session(
        self, *, resumable: bool = False, wait: bool = True, timeout: float = 10.0
    ) -> None:
        """Send op 9 INVALID_SESSION. Not resumable: discord.py waits 5 s, then identifies."""
        live = self._hub.live_sessions()
        before = {s.id: s.resumes for s in live}
        identifies = self.stats.identifies
        self._hub.send_invalid_session(resumable)
        if not wait:
            return
        if resumable:
            await self._wait_resumed(live, before, timeout)
        else:
            await self._wait_reidentified(identifies, len(live), timeout)

    async def close_gateway(
        self, code: int = 4000, *, wait: bool = True, timeout: float = 10.0
    ) -> None:
        """Close the live gateway connections with ``code``; with ``wait``, return once the
        client resumed (re-identified for 4007/4009, or just closed for fatal codes)."""
        live = self._hub.live_sessions()
        before = {s.id: s.resumes for s in live}
        identifies = self.stats.identifies
        conns = self._hub.close_live(code)
        if not wait:
            return
        if code in FATAL_CLOSE_CODES:
            for conn in conns:
                await asyncio.wait_for(conn.finished.wait(), timeout)
        elif code in UNRESUMABLE_CLOSE_CODES:
            await self._wait_reidentified(identifies, len(live), timeout)
        else:
            await self._wait_resumed(live, before, timeout)

    async def _wait_resumed(
        self, sessions: list[GatewaySession], before: dict[str, int], timeout: float
    ) -> None:
        def resumed() -> bool:
            return all(s.live and s.resumes > before[s.id] for s in sessions)

        await self._state.wait_for(
            resumed, timeout, lambda: f"the bot did not resume within {timeout}s"
        )

    async def _wait_reidentified(self, identifies: int, count: int, timeout: float) -> None:
        def back() -> bool:
            return (
                self.stats.identifies >= identifies + count
                and len(self._hub.live_sessions()) >= count
            )

        await self._state.wait_for(
            back, timeout, lambda: f"the bot did not identify again within {timeout}s"
        )
