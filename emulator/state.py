"""The emulator's mutable world and every change to it.

Owns ``EmulatorState``: the users, guilds, channels, threads, DM channels, messages,
attachments, interactions and registered commands, the counters and error log, and the
operations that change them (create a thread, post/edit/delete a message, archive a
thread, ...). Each change that Discord would announce on the gateway is handed to the
``Dispatcher`` (the gateway hub) as the matching dispatch event. It also owns waiting:
``wait_for`` re-checks a predicate after every change until it holds or times out.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from emulator import payloads
from emulator.commands import CommandStore
from emulator.errors import OLD_EDITS_CODE, OLD_EDITS_MESSAGE, EmulatorError, rate_limited
from emulator.ids import SnowflakeFactory, iso_at, iso_now
from emulator.interaction_records import InteractionRecord
from emulator.permissions import (
    ALL_PERMISSIONS,
    DEFAULT_MEMBER_PERMISSIONS,
    DM_APP_PERMISSIONS,
    GAME_BOT_PERMISSIONS,
    VOICE_BOT_PERMISSIONS,
    resolve,
)
from emulator.records import (
    EPHEMERAL,
    LOADING,
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
    UploadedFile,
    UserRecord,
    VoiceStateRecord,
    mentioned_user_ids,
)

T = TypeVar("T")

INTENT_GUILDS = 1 << 0
INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_VOICE_STATES = 1 << 7
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DIRECT_MESSAGES = 1 << 12
INTENT_MESSAGE_CONTENT = 1 << 15  # privileged: without it, others' guild messages arrive empty

# What a session without the message-content intent gets instead of another user's message
# body (Discord's rule: not for DMs, the bot's own messages, or messages mentioning the bot).
REDACTED_BODY: dict[str, Any] = {"content": "", "embeds": [], "attachments": [], "components": []}

DEFAULT_ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024

ChannelRef = ChannelRecord | str | int
UserRef = UserRecord | str | int
GuildRef = GuildRecord | str | int
MessageRef = MessageRecord | str | int


class Dispatcher(Protocol):
    """Where gateway events go (the gateway hub)."""

    def dispatch(
        self,
        event: str,
        data: dict[str, Any],
        *,
        guild_id: str | None,
        intent: int | None = None,
        all_of: int = 0,
        none_of: int = 0,
    ) -> int:
        """Send ``event`` to every session that should see it (``intent``: any of those bits;
        ``all_of``: every one of these; ``none_of``: none of these); return how many did."""
        ...


class _NoGateway:
    def dispatch(
        self,
        event: str,
        data: dict[str, Any],
        *,
        guild_id: str | None,
        intent: int | None = None,
        all_of: int = 0,
        none_of: int = 0,
    ) -> int:
        return 0


@dataclass
class OldEditLimit:
    """Discord's limit on edits of old messages: at most ``edits`` edits per ``per`` seconds
    per channel of messages older than ``age`` seconds, refused with 429 / 30046 beyond.

    ``lasting``: once the limit is hit in a channel, every old-message edit there is refused
    for that many seconds (a refusal that outlasts discord.py's five tries).
    ``retry_after``: the ``retry_after`` the refusals carry (default: until the window frees).
    ``refused`` counts refusals; ``accepted`` the old-message edits let through.
    """

    edits: int = 3
    per: float = 6.0
    age: float = 3600.0
    lasting: float = 0.0
    retry_after: float | None = None
    refused: int = 0
    accepted: int = 0
    recent: dict[str, list[float]] = field(default_factory=dict)
    stuck_until: dict[str, float] = field(default_factory=dict)


class EmulatorState:
    """Everything the emulated Discord knows, and the operations that change it."""

    def __init__(
        self,
        *,
        bot_name: str,
        cdn_base: Callable[[], str],
        attachment_size_limit: int = DEFAULT_ATTACHMENT_SIZE_LIMIT,
        interaction_timeout: float = 3.0,
    ) -> None:
        # Seconds the emulator's clock is ahead of the wall clock (``advance_clock``).
        self.clock_offset = 0.0
        self.ids = SnowflakeFactory(self.now)
        self.old_edit_limit: OldEditLimit | None = None
        self.application_id = self.ids.next()
        self.bot_user = UserRecord(id=self.application_id, name=bot_name, bot=True)
        self.owner = UserRecord(id=self.ids.next(), name="app-owner")
        self.users: dict[str, UserRecord] = {u.id: u for u in (self.bot_user, self.owner)}
        self.guilds: dict[str, GuildRecord] = {}
        self.channels: dict[str, ChannelRecord] = {}
        self.messages: dict[str, MessageRecord] = {}
        self.attachments: dict[str, AttachmentRecord] = {}
        self.interactions: dict[str, InteractionRecord] = {}
        self.interactions_by_token: dict[str, InteractionRecord] = {}
        # message id -> the interactions answered by deferring an update of it (type 6): an
        # edit or delete of that message is their answer (`touch_deferred`). An index, so an
        # edit costs the same after 10,000 interactions as after 10.
        self.deferred_updates: dict[str, list[InteractionRecord]] = {}
        self.commands = CommandStore()
        self.stats = Stats()
        self.errors: list[ErrorRecord] = []
        self.unknown_routes: list[str] = []
        self.posts_to_archived: list[str] = []
        self.audit_log: list[tuple[int, str, str]] = []
        """(message order when it happened, route, reason) of each request that carried an
        X-Audit-Log-Reason: what the server's audit log shows its moderators."""
        self.faults: list[FaultRule] = []
        self.tokens_seen: list[str] = []
        self.presences: list[dict[str, Any]] = []
        self.dispatcher: Dispatcher = _NoGateway()
        self.attachment_size_limit = attachment_size_limit
        self.interaction_timeout = interaction_timeout
        # Seconds an interaction's token works for follow-ups and edits (Discord: 15 min).
        self.token_lifetime = 15 * 60.0
        self.last_activity = time.monotonic()
        self._cdn_base = cdn_base
        self._order = 0
        self._changed = asyncio.Event()

    # -- the clock ---------------------------------------------------------------------

    def now(self) -> float:
        """The emulator's time: seconds since the Unix epoch, plus ``clock_offset``."""
        return time.time() + self.clock_offset

    def loop_now(self) -> float:
        """The event loop's clock plus ``clock_offset`` (interaction ages are measured on it)."""
        return asyncio.get_running_loop().time() + self.clock_offset

    def check_old_edit(self, msg: MessageRecord) -> None:
        """Raise 429 / 30046 if editing ``msg`` now would break the old-edit limit; else count
        the edit (when ``msg`` is old enough to count)."""
        limit = self.old_edit_limit
        if limit is None:
            return
        now = self.now()
        if now - msg.created_clock < limit.age:
            return
        cid = msg.channel_id
        recent = [t for t in limit.recent.get(cid, []) if now - t < limit.per]
        limit.recent[cid] = recent
        stuck = limit.stuck_until.get(cid, 0.0)
        if now < stuck or len(recent) >= limit.edits:
            if now >= stuck and limit.lasting > 0:
                stuck = limit.stuck_until[cid] = now + limit.lasting
            if limit.retry_after is not None:
                wait = limit.retry_after
            elif now < stuck:
                wait = stuck - now
            else:
                wait = max(0.001, recent[0] + limit.per - now)
            limit.refused += 1
            raise rate_limited(OLD_EDITS_CODE, OLD_EDITS_MESSAGE, round(wait, 3))
        recent.append(now)
        limit.accepted += 1

    # -- change notification -------------------------------------------------------

    def defer_update(self, rec: InteractionRecord, message_id: str) -> None:
        """`rec` was answered by deferring an update of message `message_id`."""
        self.deferred_updates.setdefault(message_id, []).append(rec)

    def touch_deferred(self, message_id: str) -> None:
        """Message `message_id` was edited or deleted: the deferred updates of it are
        answered (Discord counts the edit as the deferral's follow-through)."""
        for rec in self.deferred_updates.pop(message_id, ()):
            rec.touched = True

    def notify(self) -> None:
        """Wake every ``wait_for``: something changed."""
        self.last_activity = time.monotonic()
        changed, self._changed = self._changed, asyncio.Event()
        changed.set()

    async def wait_for(
        self, predicate: Callable[[], T | None], timeout: float, describe: Callable[[], str]
    ) -> T:
        """Return ``predicate()`` once it is truthy; raise ``AssertionError`` after ``timeout``."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            result = predicate()
            if result:
                return result
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise AssertionError(describe())
            changed = self._changed
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(changed.wait(), remaining)

    # -- lookups ------------------------------------------------------------------

    def user(self, ref: UserRef) -> UserRecord:
        uid = ref.id if isinstance(ref, UserRecord) else str(ref)
        try:
            return self.users[uid]
        except KeyError:
            raise EmulatorError(f"unknown user {uid}") from None

    def guild(self, ref: GuildRef) -> GuildRecord:
        gid = ref.id if isinstance(ref, GuildRecord) else str(ref)
        try:
            return self.guilds[gid]
        except KeyError:
            raise EmulatorError(f"unknown guild {gid}") from None

    def channel(self, ref: ChannelRef) -> ChannelRecord:
        cid = ref.id if isinstance(ref, ChannelRecord) else str(ref)
        try:
            return self.channels[cid]
        except KeyError:
            raise EmulatorError(f"unknown channel {cid}") from None

    def message(self, ref: MessageRef) -> MessageRecord:
        mid = ref.id if isinstance(ref, MessageRecord) else str(ref)
        try:
            return self.messages[mid]
        except KeyError:
            raise EmulatorError(f"unknown message {mid}") from None

    # -- users, guilds, members, channels -----------------------------------------

    def create_user(
        self, name: str, *, dms_open: bool = True, global_name: str | None = None, bot: bool = False
    ) -> UserRecord:
        user = UserRecord(
            id=self.ids.next(), name=name, global_name=global_name, dms_open=dms_open, bot=bot
        )
        self.users[user.id] = user
        return user

    def create_guild(
        self,
        name: str,
        *,
        owner: UserRecord | None = None,
        shard: tuple[int, int] | None = None,
        everyone_permissions: int = DEFAULT_MEMBER_PERMISSIONS,
        locale: str = "en-US",
    ) -> GuildRecord:
        gid = self.ids.next_on_shard(*shard) if shard else self.ids.next_on_shard(0, 1)
        guild = GuildRecord(id=gid, name=name, owner_id=(owner or self.owner).id, locale=locale)
        guild.roles[gid] = RoleRecord(
            id=gid, guild_id=gid, name="@everyone", permissions=everyone_permissions
        )
        bot_role = RoleRecord(
            id=self.ids.next(),
            guild_id=gid,
            name=self.bot_user.name,
            permissions=GAME_BOT_PERMISSIONS,
            position=1,
            managed=True,
            bot_id=self.bot_user.id,
        )
        guild.roles[bot_role.id] = bot_role
        guild.members[self.bot_user.id] = MemberRecord(
            user=self.bot_user, guild_id=gid, role_ids=[bot_role.id], joined_at=iso_now()
        )
        self.guilds[gid] = guild
        if owner is not None:
            self.add_member(guild, owner, announce=False)
        self.dispatcher.dispatch(
            "GUILD_CREATE", self.guild_create(guild), guild_id=gid, intent=INTENT_GUILDS
        )
        self.notify()
        return guild

    def remove_bot(self, guild: GuildRef) -> GuildRecord:
        """The bot is removed from ``guild`` (not an outage): GUILD_DELETE without
        ``unavailable``, as Discord sends for a kick, a ban or a deleted server."""
        g = self.guild(guild)
        if g.bot_removed:
            return g
        self.dispatcher.dispatch("GUILD_DELETE", {"id": g.id}, guild_id=g.id,
                                 intent=INTENT_GUILDS)
        g.bot_removed = True
        g.members.pop(self.bot_user.id, None)
        self.notify()
        return g

    def shares_no_guild(self, user: UserRecord) -> bool:
        """Whether the bot lost every server it shared with ``user`` (Discord then refuses
        DMs to them, 50007). A user in no server at all is left alone."""
        guilds = [g for g in self.guilds.values() if user.id in g.members]
        return bool(guilds) and all(g.bot_removed for g in guilds)

    def guild_create(self, guild: GuildRecord) -> dict[str, Any]:
        """The GUILD_CREATE payload for a guild as it is now."""
        channels = [self.channels[c] for c in guild.channel_ids if not self.channels[c].deleted]
        texts = [c for c in channels if c.type in (ChannelType.GUILD_TEXT, ChannelType.GUILD_VOICE)]
        threads = [c for c in channels if c.is_thread and not c.archived]
        out = payloads.guild_create_payload(guild, texts, threads, self.bot_user.id)
        out["voice_states"] = [self.voice_state_json(guild, vs, in_guild=False)
                               for vs in guild.voice_states.values()]
        return out

    # -- voice (P-DISCORD-05: the bot server-mutes players; it never connects itself) ---

    def create_voice_channel(self, guild: GuildRef, name: str, *,
                             bot_permissions: int = VOICE_BOT_PERMISSIONS) -> ChannelRecord:
        g = self.guild(guild)
        ch = ChannelRecord(id=self.ids.next(), type=ChannelType.GUILD_VOICE, name=name,
                           guild_id=g.id, bot_permissions=bot_permissions,
                           position=len(g.channel_ids), created_at=iso_now())
        self.channels[ch.id] = ch
        g.channel_ids.append(ch.id)
        self.dispatcher.dispatch("CHANNEL_CREATE", self.channel_json(ch), guild_id=g.id,
                                 intent=INTENT_GUILDS)
        self.notify()
        return ch

    def voice_state_json(self, guild: GuildRecord, vs: VoiceStateRecord, *,
                         in_guild: bool = True) -> dict[str, Any]:
        """A voice state as Discord sends it: in GUILD_CREATE (`in_guild` False) without
        the guild and member, in VOICE_STATE_UPDATE with them."""
        member = guild.members[vs.user_id]
        out: dict[str, Any] = {
            "channel_id": vs.channel_id, "user_id": vs.user_id, "session_id": vs.session_id,
            "deaf": False, "mute": member.mute, "self_deaf": False,
            "self_mute": vs.self_mute, "self_video": False, "suppress": False,
            "request_to_speak_timestamp": None,
        }
        if in_guild:
            out["guild_id"] = guild.id
            out["member"] = payloads.member_payload(member)
        return out

    def _voice_update(self, guild: GuildRecord, vs: VoiceStateRecord, *, left: bool) -> None:
        data = self.voice_state_json(guild, vs)
        if left:
            data["channel_id"] = None
        self.dispatcher.dispatch("VOICE_STATE_UPDATE", data, guild_id=guild.id,
                                 intent=INTENT_GUILD_VOICE_STATES)
        self.notify()

    def join_voice(self, user: UserRef, channel: ChannelRef) -> VoiceStateRecord:
        """`user` connects to a voice channel (moving there from any other); a server mute
        they carry applies at once, as on Discord."""
        ch = self.channel(channel)
        if ch.type is not ChannelType.GUILD_VOICE or ch.guild_id is None:
            raise EmulatorError(f"{ch!r} is not a voice channel")
        g = self.guild(ch.guild_id)
        u = self.user(user)
        if u.id not in g.members:
            raise EmulatorError(f"{u!r} is not a member of {g!r}")
        vs = g.voice_states.get(u.id)
        if vs is None:
            vs = g.voice_states[u.id] = VoiceStateRecord(user_id=u.id, channel_id=ch.id,
                                                         session_id=self.ids.next())
        vs.channel_id = ch.id
        self._voice_update(g, vs, left=False)
        return vs

    def leave_voice(self, user: UserRef, guild: GuildRef) -> None:
        """`user` disconnects from voice (their server mute, if any, stays theirs)."""
        g = self.guild(guild)
        vs = g.voice_states.pop(self.user(user).id, None)
        if vs is not None:
            self._voice_update(g, vs, left=True)

    def set_server_mute(self, guild: GuildRef, user: UserRef, mute: bool) -> MemberRecord:
        """Server-mute or unmute a member (a moderator, or the bot's PATCH): a member in
        voice gets a VOICE_STATE_UPDATE."""
        g = self.guild(guild)
        member = g.members[self.user(user).id]
        member.mute = mute
        vs = g.voice_states.get(member.id)
        if vs is not None:
            self._voice_update(g, vs, left=False)
        else:
            self.notify()
        return member

    def add_member(
        self,
        guild: GuildRef,
        user: UserRef,
        *,
        permissions: int | None = None,
        nick: str | None = None,
        announce: bool = True,
    ) -> MemberRecord:
        g = self.guild(guild)
        u = self.user(user)
        role_ids: list[str] = []
        if permissions is not None:
            role = RoleRecord(
                id=self.ids.next(),
                guild_id=g.id,
                name=f"{u.name}-role",
                permissions=permissions,
                position=1,
            )
            g.roles[role.id] = role
            role_ids.append(role.id)
            if announce:
                self.dispatcher.dispatch(
                    "GUILD_ROLE_CREATE",
                    {"guild_id": g.id, "role": payloads.role_payload(role)},
                    guild_id=g.id,
                    intent=INTENT_GUILDS,
                )
        member = MemberRecord(
            user=u, guild_id=g.id, role_ids=role_ids, joined_at=iso_now(), nick=nick
        )
        g.members[u.id] = member
        if announce:
            self.dispatcher.dispatch(
                "GUILD_MEMBER_ADD",
                {**payloads.member_payload(member), "guild_id": g.id},
                guild_id=g.id,
                intent=INTENT_GUILD_MEMBERS,
            )
        self.notify()
        return member

    def member_permissions(self, guild: GuildRecord, user_id: str) -> int:
        """A member's guild-level permissions (roles, owner, administrator)."""
        if user_id == guild.owner_id:
            return ALL_PERMISSIONS
        member = guild.members.get(user_id)
        bits = guild.everyone.permissions
        if member is not None:
            for rid in member.role_ids:
                role = guild.roles.get(rid)
                if role is not None:
                    bits |= role.permissions
        return resolve(bits)

    def create_text_channel(
        self,
        guild: GuildRef,
        name: str,
        *,
        bot_permissions: int = GAME_BOT_PERMISSIONS,
        topic: str | None = None,
        overwrites: dict[str, tuple[int, int, int]] | None = None,
    ) -> ChannelRecord:
        g = self.guild(guild)
        ch = ChannelRecord(
            id=self.ids.next(),
            type=ChannelType.GUILD_TEXT,
            name=name,
            guild_id=g.id,
            bot_permissions=bot_permissions,
            topic=topic,
            position=len(g.channel_ids),
            created_at=iso_now(),
            overwrites=dict(overwrites or {}),
        )
        self.channels[ch.id] = ch
        g.channel_ids.append(ch.id)
        self.dispatcher.dispatch(
            "CHANNEL_CREATE", self.channel_json(ch), guild_id=g.id, intent=INTENT_GUILDS
        )
        self.notify()
        return ch

    def member_channel_permissions(self, ch: ChannelRecord, user_id: str) -> int:
        """A member's permissions in a channel (threads: their parent's): guild roles, then
        the channel's @everyone overwrite, then the member's own overwrite, as Discord
        computes them (role overwrites other than @everyone are not modelled)."""
        if ch.guild_id is None:
            return 0
        guild = self.guild(ch.guild_id)
        bits = self.member_permissions(guild, user_id)
        if bits == ALL_PERMISSIONS:  # owner or administrator
            return bits
        target = self.channels[ch.parent_id] if ch.is_thread and ch.parent_id else ch
        for oid in (guild.id, user_id):
            overwrite = target.overwrites.get(oid)
            if overwrite is not None:
                _, allow, deny = overwrite
                bits = (bits & ~deny) | allow
        return bits

    def set_overwrite(self, ch: ChannelRecord, target_id: str,
                      overwrite: tuple[int, int, int] | None) -> None:
        """Set (or with ``None`` remove) one permission overwrite and announce the change."""
        if overwrite is None:
            ch.overwrites.pop(target_id, None)
        else:
            ch.overwrites[target_id] = overwrite
        self.dispatcher.dispatch(
            "CHANNEL_UPDATE", self.channel_json(ch), guild_id=ch.guild_id, intent=INTENT_GUILDS
        )
        self.notify()

    def set_bot_permissions(self, channel: ChannelRef, bot_permissions: int) -> None:
        ch = self.channel(channel)
        if ch.type not in (ChannelType.GUILD_TEXT, ChannelType.GUILD_VOICE):
            raise EmulatorError("bot permissions are set on guild text and voice channels "
                                "(threads inherit)")
        ch.bot_permissions = bot_permissions
        self.dispatcher.dispatch(
            "CHANNEL_UPDATE", self.channel_json(ch), guild_id=ch.guild_id, intent=INTENT_GUILDS
        )
        self.notify()

    def create_thread(
        self,
        parent: ChannelRecord,
        name: str,
        *,
        private: bool = False,
        owner_id: str | None = None,
        thread_id: str | None = None,
        auto_archive_duration: int = 1440,
        invitable: bool = True,
    ) -> ChannelRecord:
        now = iso_now()
        owner = owner_id or self.bot_user.id
        thread = ChannelRecord(
            id=thread_id or self.ids.next(),
            type=ChannelType.PRIVATE_THREAD if private else ChannelType.PUBLIC_THREAD,
            name=name,
            guild_id=parent.guild_id,
            parent_id=parent.id,
            owner_id=owner,
            auto_archive_duration=auto_archive_duration,
            invitable=invitable,
            archive_timestamp=now,
            created_at=now,
            member_ids={owner},
        )
        self.channels[thread.id] = thread
        if parent.guild_id is not None:
            self.guild(parent.guild_id).channel_ids.append(thread.id)
        self.dispatcher.dispatch(
            "THREAD_CREATE",
            {**payloads.thread_payload(thread), "newly_created": True},
            guild_id=thread.guild_id,
            intent=INTENT_GUILDS,
        )
        self.notify()
        return thread

    def update_thread(
        self,
        thread: ChannelRecord,
        *,
        archived: bool | None = None,
        locked: bool | None = None,
        name: str | None = None,
        auto_archive_duration: int | None = None,
        invitable: bool | None = None,
    ) -> ChannelRecord:
        if archived is not None and archived != thread.archived:
            thread.archived = archived
            thread.archive_timestamp = iso_now()
        if locked is not None:
            thread.locked = locked
        if name is not None:
            thread.name = name
        if auto_archive_duration is not None:
            thread.auto_archive_duration = auto_archive_duration
        if invitable is not None:
            thread.invitable = invitable
        self.dispatcher.dispatch(
            "THREAD_UPDATE",
            payloads.thread_payload(thread),
            guild_id=thread.guild_id,
            intent=INTENT_GUILDS,
        )
        self.notify()
        return thread

    def dm_channel(self, user: UserRef) -> ChannelRecord:
        """The bot's DM channel with a user (created on first use)."""
        u = self.user(user)
        if u.dm_channel_id is None:
            ch = ChannelRecord(
                id=self.ids.next(),
                type=ChannelType.DM,
                name=f"dm-{u.name}",
                recipient_id=u.id,
                created_at=iso_now(),
            )
            self.channels[ch.id] = ch
            u.dm_channel_id = ch.id
        return self.channels[u.dm_channel_id]

    def delete_channel(self, channel: ChannelRef) -> ChannelRecord:
        ch = self.channel(channel)
        if ch.deleted:
            return ch
        ch.deleted = True
        if ch.is_thread:
            self.dispatcher.dispatch(
                "THREAD_DELETE",
                {
                    "id": ch.id,
                    "guild_id": ch.guild_id,
                    "parent_id": ch.parent_id,
                    "type": int(ch.type),
                },
                guild_id=ch.guild_id,
                intent=INTENT_GUILDS,
            )
        elif not ch.is_dm:
            for thread in self.channels.values():
                if thread.parent_id == ch.id:
                    thread.deleted = True
            guild = self.guilds.get(ch.guild_id or "")
            if guild is not None and ch.type is ChannelType.GUILD_VOICE:
                # Everyone in a deleted voice channel is disconnected (mutes stay theirs).
                for vs in [v for v in guild.voice_states.values() if v.channel_id == ch.id]:
                    del guild.voice_states[vs.user_id]
                    self._voice_update(guild, vs, left=True)
            self.dispatcher.dispatch(
                "CHANNEL_DELETE", self.channel_json(ch), guild_id=ch.guild_id, intent=INTENT_GUILDS
            )
        self.notify()
        return ch

    def effective_bot_permissions(self, ch: ChannelRecord) -> int:
        """What the bot may do in a channel; threads inherit their parent's."""
        if ch.is_dm:
            return DM_APP_PERMISSIONS
        if ch.is_thread and ch.parent_id is not None:
            return resolve(self.channels[ch.parent_id].bot_permissions)
        return resolve(ch.bot_permissions)

    def channel_json(self, ch: ChannelRecord) -> dict[str, Any]:
        recipient = self.users.get(ch.recipient_id) if ch.recipient_id else None
        return payloads.channel_payload(ch, bot_id=self.bot_user.id, recipient=recipient)

    def threads_of(
        self, channel: ChannelRef, *, include_deleted: bool = False
    ) -> list[ChannelRecord]:
        parent = self.channel(channel)
        return [
            c
            for c in self.channels.values()
            if c.parent_id == parent.id and (include_deleted or not c.deleted)
        ]

    # -- messages -----------------------------------------------------------------

    def message_json(self, msg: MessageRecord) -> dict[str, Any]:
        author = self.users.get(msg.author_id, self.bot_user)
        pinged = [self.users[u] for u in msg.pinged_user_ids if u in self.users]
        interaction_user = (
            self.users.get(msg.interaction_user_id) if msg.interaction_user_id else None
        )
        out = payloads.message_payload(
            msg, author, pinged=pinged, interaction_user=interaction_user
        )
        guild = self.guilds.get(msg.guild_id) if msg.guild_id else None
        member = guild.members.get(msg.author_id) if guild is not None else None
        if member is not None and msg.author_id != self.bot_user.id:
            # Discord attaches the author's member object to a member's guild message.
            out["member"] = payloads.member_payload(member, with_user=False)
        return out

    @property
    def last_order(self) -> int:
        """The newest position in the order: the newest message's ``order`` or, if later,
        the newest edit's ``written`` (0 before any)."""
        return self._order

    def create_message(
        self,
        channel: ChannelRecord,
        body: dict[str, Any],
        files: Sequence[UploadedFile] = (),
        *,
        author_id: str | None = None,
        flags: int | None = None,
        interaction: InteractionRecord | None = None,
        message_type: int = 0,
        message_id: str | None = None,
    ) -> MessageRecord:
        """Record a new message from a (validated) create payload and announce it."""
        self._order += 1
        msg = MessageRecord(
            id=message_id or self.ids.next(),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author_id=author_id or self.bot_user.id,
            order=self._order,
            written=self._order,
            timestamp=iso_at(self.now()),
            created_clock=self.now(),
            content=str(body.get("content") or ""),
            embeds=list(body.get("embeds") or []),
            components=list(body.get("components") or []),
            flags=int(body.get("flags") or 0) if flags is None else flags,
            type=message_type,
            tts=bool(body.get("tts", False)),
            message_reference=body.get("message_reference"),
        )
        msg.attachments = self._attachments(msg, body, files, existing=[]) or []
        if interaction is not None:
            msg.webhook_id = self.application_id
            msg.interaction_id = interaction.id
            msg.interaction_type = interaction.type
            msg.interaction_user_id = interaction.user_id
        if not msg.ephemeral and not msg.loading:
            msg.pinged_user_ids, msg.everyone_pinged = self._pings(msg, body)
        self.messages[msg.id] = msg
        if not msg.ephemeral:
            channel.last_message_id = msg.id
            channel.message_count += 1
            self._announce("MESSAGE_CREATE", msg, self.message_json(msg))
        self.notify()
        return msg

    def edit_message(
        self,
        msg: MessageRecord,
        body: dict[str, Any],
        files: Sequence[UploadedFile] = (),
        *,
        keep_loading: bool = False,
    ) -> MessageRecord:
        """Apply an edit payload (only the keys present change) and keep the old state."""
        msg.history.append(msg.snapshot())
        self._order += 1  # the edit's own position (``written``); creations stay increasing
        msg.written = self._order
        if "content" in body:
            msg.content = str(body["content"] or "")
        if "embeds" in body:
            msg.embeds = list(body["embeds"] or [])
        if "components" in body:
            msg.components = list(body["components"] or [])
        if "flags" in body and body["flags"] is not None:
            kept = msg.flags & (EPHEMERAL | LOADING)
            msg.flags = (int(body["flags"]) & ~(EPHEMERAL | LOADING)) | kept
        was_loading = msg.loading
        if not keep_loading:
            msg.flags &= ~LOADING
        attachments = self._attachments(msg, body, files, existing=msg.attachments)
        if attachments is not None:
            msg.attachments = attachments
        msg.edited_timestamp = iso_at(self.now())
        if was_loading and not msg.loading and not msg.ephemeral:
            msg.pinged_user_ids, msg.everyone_pinged = self._pings(msg, body)
        if not msg.ephemeral:
            data = self.message_json(msg)
            self._announce("MESSAGE_UPDATE", msg, data)
        self.notify()
        return msg

    def delete_message(self, msg: MessageRecord) -> None:
        if msg.deleted:
            return
        msg.deleted = True
        if not msg.ephemeral:
            data: dict[str, Any] = {"id": msg.id, "channel_id": msg.channel_id}
            if msg.guild_id is not None:
                data["guild_id"] = msg.guild_id
            self._announce("MESSAGE_DELETE", msg, data)
        self.notify()

    def _announce(self, event: str, msg: MessageRecord, data: dict[str, Any]) -> None:
        intent = INTENT_GUILD_MESSAGES if msg.guild_id else INTENT_DIRECT_MESSAGES
        privileged = (
            event in ("MESSAGE_CREATE", "MESSAGE_UPDATE")
            and msg.guild_id is not None
            and msg.author_id != self.bot_user.id
            and self.bot_user.id not in msg.pinged_user_ids
        )
        if not privileged:
            self.dispatcher.dispatch(event, data, guild_id=msg.guild_id, intent=intent)
            return
        self.dispatcher.dispatch(
            event, data, guild_id=msg.guild_id, intent=intent, all_of=INTENT_MESSAGE_CONTENT
        )
        self.dispatcher.dispatch(
            event,
            {**data, **REDACTED_BODY},
            guild_id=msg.guild_id,
            intent=intent,
            none_of=INTENT_MESSAGE_CONTENT,
        )

    def _pings(self, msg: MessageRecord, body: dict[str, Any]) -> tuple[list[str], bool]:
        mentioned = mentioned_user_ids(msg.content)
        everyone_text = "@everyone" in msg.content or "@here" in msg.content
        allowed = body.get("allowed_mentions")
        if not isinstance(allowed, dict):
            return mentioned, everyone_text
        parse = allowed.get("parse") or []
        allowed_users = {str(u) for u in allowed.get("users") or []}
        users = [u for u in mentioned if "users" in parse or u in allowed_users]
        return users, everyone_text and "everyone" in parse

    def _attachments(
        self,
        msg: MessageRecord,
        body: dict[str, Any],
        files: Sequence[UploadedFile],
        *,
        existing: list[AttachmentRecord],
    ) -> list[AttachmentRecord] | None:
        """The message's attachments after this payload, or ``None`` if unchanged."""
        by_index = {f.index: f for f in files}
        used: set[int] = set()
        out: list[AttachmentRecord] = []
        entries = body.get("attachments")
        if entries is None and not files:
            return None
        if entries is None:
            out.extend(existing)
            entries = []
        old = {a.id: a for a in existing}
        for entry in entries:
            raw_id = str(entry.get("id"))
            if raw_id in old:
                out.append(old[raw_id])
                continue
            try:
                index = int(raw_id)
            except ValueError:
                continue
            upload = by_index.get(index)
            if upload is None:
                continue
            used.add(index)
            out.append(self._store_attachment(msg, upload, entry))
        for index in sorted(by_index):
            if index not in used:
                out.append(self._store_attachment(msg, by_index[index], {}))
        return out

    def attachment_url(self, channel_id: str, attachment_id: str, filename: str) -> str:
        """Where the emulator serves an attachment's bytes (its fake CDN)."""
        return f"{self._cdn_base()}/attachments/{channel_id}/{attachment_id}/{filename}"

    def _store_attachment(
        self, msg: MessageRecord, upload: UploadedFile, entry: dict[str, Any]
    ) -> AttachmentRecord:
        aid = self.ids.next()
        filename = str(entry.get("filename") or upload.filename)
        att = AttachmentRecord(
            id=aid,
            filename=filename,
            data=upload.data,
            url=self.attachment_url(msg.channel_id, aid, filename),
            content_type=upload.content_type,
            description=entry.get("description"),
        )
        self.attachments[aid] = att
        return att

    def messages_in(
        self,
        channel: ChannelRef,
        *,
        include_ephemeral: bool = False,
        include_deleted: bool = False,
    ) -> list[MessageRecord]:
        cid = channel.id if isinstance(channel, ChannelRecord) else str(channel)
        return [
            m
            for m in self.messages.values()
            if m.channel_id == cid
            and (include_ephemeral or not m.ephemeral)
            and (include_deleted or not m.deleted)
        ]

    # -- errors -------------------------------------------------------------------

    def record_error(
        self, method: str, path: str, status: int, code: int, message: str, *, injected: bool
    ) -> None:
        self.errors.append(ErrorRecord(method, path, status, code, message, injected))
        self.notify()
