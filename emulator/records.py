"""The emulator's world: plain records of users, guilds, channels and messages.

Owns the data classes tests read and hand back to the emulator: ``UserRecord``,
``GuildRecord``, ``MemberRecord``, ``RoleRecord``, ``ChannelRecord``, ``MessageRecord``
(with its ``AttachmentRecord`` files and edit history), plus the bookkeeping records
(``ErrorRecord``, ``FaultRule``, ``Stats``). Ids are snowflake strings. Records hold no
behaviour beyond reading themselves; mutations go through ``EmulatorState``.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any

from emulator.permissions import GAME_BOT_PERMISSIONS

EPHEMERAL = 1 << 6
LOADING = 1 << 7
HAS_SNAPSHOT = 1 << 14  # a forwarded message (message forwarding)
COMPONENTS_V2 = 1 << 15


class ChannelType(IntEnum):
    """The Discord channel types the emulator models."""

    GUILD_TEXT = 0
    DM = 1
    GUILD_VOICE = 2
    PUBLIC_THREAD = 11
    PRIVATE_THREAD = 12


@dataclass(eq=False)
class UserRecord:
    """A Discord user. Set ``dms_open`` to ``False`` to make DMs to them fail (50007)."""

    id: str
    name: str
    global_name: str | None = None
    bot: bool = False
    dms_open: bool = True
    locale: str = "en-US"
    dm_channel_id: str | None = None

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def __repr__(self) -> str:
        return f"<UserRecord {self.name} id={self.id}>"


@dataclass(eq=False)
class RoleRecord:
    """A guild role. The @everyone role has the guild's id."""

    id: str
    guild_id: str
    name: str
    permissions: int
    position: int = 0
    managed: bool = False
    bot_id: str | None = None


@dataclass(eq=False)
class MemberRecord:
    """A user's membership of a guild."""

    user: UserRecord
    guild_id: str
    role_ids: list[str]
    joined_at: str
    nick: str | None = None
    mute: bool = False
    """Server-muted: a member property on Discord, kept while they are out of voice and
    applied in whichever voice channel they join next."""

    @property
    def id(self) -> str:
        return self.user.id


@dataclass(eq=False)
class VoiceStateRecord:
    """A member connected to a voice channel (their server mute is their member's)."""

    user_id: str
    channel_id: str
    session_id: str
    self_mute: bool = False


@dataclass(eq=False)
class GuildRecord:
    """A guild (server) with its roles, members and channels."""

    id: str
    name: str
    owner_id: str
    roles: dict[str, RoleRecord] = field(default_factory=dict)
    members: dict[str, MemberRecord] = field(default_factory=dict)
    channel_ids: list[str] = field(default_factory=list)
    locale: str = "en-US"
    bot_permissions: int = GAME_BOT_PERMISSIONS
    """The bot's role: what it may do server-wide, e.g. create channels (Manage Channels)."""
    voice_states: dict[str, VoiceStateRecord] = field(default_factory=dict)
    """Who is connected to which of the guild's voice channels, by user id."""
    bot_removed: bool = False
    """The bot was removed (kicked, banned, the server deleted): GUILD_DELETE was sent, the
    guild is left out of READY, and its channels answer 403/50001 Missing Access."""

    @property
    def everyone(self) -> RoleRecord:
        return self.roles[self.id]

    def __repr__(self) -> str:
        return f"<GuildRecord {self.name} id={self.id}>"


@dataclass(eq=False)
class ChannelRecord:
    """A guild text channel, a thread (type 11/12) or a DM channel (type 1).

    ``bot_permissions`` is what the bot may do in a guild channel; threads use their
    parent's. ``archived``/``locked`` apply to threads; ``deleted`` makes later requests
    answer 404 Unknown Channel.
    """

    id: str
    type: ChannelType
    name: str
    guild_id: str | None = None
    parent_id: str | None = None
    bot_permissions: int = GAME_BOT_PERMISSIONS
    recipient_id: str | None = None
    owner_id: str | None = None
    topic: str | None = None
    position: int = 0
    archived: bool = False
    locked: bool = False
    invitable: bool = True
    auto_archive_duration: int = 1440
    archive_timestamp: str = ""
    created_at: str = ""
    deleted: bool = False
    member_ids: set[str] = field(default_factory=set)
    message_count: int = 0
    last_message_id: str | None = None
    overwrites: dict[str, tuple[int, int, int]] = field(default_factory=dict)
    """Permission overwrites of a text channel other than the bot's own (its own are
    ``bot_permissions``): role or member id -> (type 0 role / 1 member, allow, deny)."""

    @property
    def is_thread(self) -> bool:
        return self.type in (ChannelType.PUBLIC_THREAD, ChannelType.PRIVATE_THREAD)

    @property
    def is_dm(self) -> bool:
        return self.type is ChannelType.DM

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    def __repr__(self) -> str:
        return f"<ChannelRecord {self.type.name} {self.name!r} id={self.id}>"


@dataclass(eq=False)
class AttachmentRecord:
    """A file the bot uploaded, with its bytes."""

    id: str
    filename: str
    data: bytes
    url: str
    content_type: str | None = None
    description: str | None = None

    @property
    def size(self) -> int:
        return len(self.data)


@dataclass(frozen=True)
class UploadedFile:
    """One ``files[N]`` part of a multipart request."""

    index: int
    filename: str
    data: bytes
    content_type: str | None = None


@dataclass(frozen=True)
class MessageSnapshot:
    """A message as it was before one of its edits."""

    content: str
    embeds: list[dict[str, Any]]
    components: list[dict[str, Any]]
    attachments: list[AttachmentRecord]
    flags: int
    edited_timestamp: str | None
    written: int = 0
    """The position in the global order at which this version was written."""


def embed_text(embed: dict[str, Any]) -> list[str]:
    """The human-readable strings of one embed, in reading order."""
    out: list[str] = []
    author = embed.get("author")
    if isinstance(author, dict) and author.get("name"):
        out.append(str(author["name"]))
    for key in ("title", "description"):
        if embed.get(key):
            out.append(str(embed[key]))
    for fld in embed.get("fields") or []:
        out.append(f"{fld.get('name', '')}: {fld.get('value', '')}")
    footer = embed.get("footer")
    if isinstance(footer, dict) and footer.get("text"):
        out.append(str(footer["text"]))
    return out


def walk_components(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every component in a component tree, depth first (rows, containers, sections)."""
    for comp in components:
        yield comp
        for key in ("components",):
            children = comp.get(key)
            if isinstance(children, list):
                yield from walk_components(children)
        for key in ("component", "accessory"):
            child = comp.get(key)
            if isinstance(child, dict):
                yield from walk_components([child])


_MENTION_RE = re.compile(r"<@!?(\d+)>")


def mentioned_user_ids(content: str) -> list[str]:
    """User ids mentioned as ``<@id>`` in a message text, in order, without repeats."""
    seen: list[str] = []
    for uid in _MENTION_RE.findall(content):
        if uid not in seen:
            seen.append(uid)
    return seen


@dataclass(eq=False)
class MessageRecord:
    """A message the bot sent (or an interaction reply), with its current state.

    Edits replace the fields and push the previous state onto ``history``; a delete
    sets ``deleted``. ``order`` is a global creation counter across all channels.
    ``pinged_user_ids`` are the users Discord would notify, after ``allowed_mentions``.
    """

    id: str
    channel_id: str
    guild_id: str | None
    author_id: str
    order: int
    timestamp: str
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[AttachmentRecord] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    edited_timestamp: str | None = None
    webhook_id: str | None = None
    interaction_id: str | None = None
    interaction_type: int | None = None
    interaction_user_id: str | None = None
    message_reference: dict[str, Any] | None = None
    written: int = 0
    """Where the current version sits in the global order: ``order`` until the first edit,
    then the edit's own position (edits take a position too, so a message can be audited
    against what was known when each version was written)."""
    pinged_user_ids: list[str] = field(default_factory=list)
    everyone_pinged: bool = False
    tts: bool = False
    deleted: bool = False
    history: list[MessageSnapshot] = field(default_factory=list)
    created_clock: float = 0.0
    """When it was created on the emulator's clock (``EmulatorState.now``; seconds since the
    Unix epoch, moved by ``advance_clock``): Discord limits edits of messages over an hour old."""

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        """A deferred reply still "thinking"."""
        return bool(self.flags & LOADING)

    @property
    def edited(self) -> bool:
        return bool(self.history)

    @property
    def mentioned_user_ids(self) -> list[str]:
        return mentioned_user_ids(self.content)

    @property
    def text(self) -> str:
        """Content, embed texts and text-display components, one per line."""
        parts: list[str] = []
        if self.content:
            parts.append(self.content)
        for embed in self.embeds:
            parts.extend(embed_text(embed))
        for comp in walk_components(self.components):
            if comp.get("type") == 10 and comp.get("content"):
                parts.append(str(comp["content"]))
        return "\n".join(parts)

    def all_components(self) -> list[dict[str, Any]]:
        """Every component on the message, flattened."""
        return list(walk_components(self.components))

    @property
    def custom_ids(self) -> list[str]:
        """The custom ids of every interactive component, in order."""
        return [str(c["custom_id"]) for c in self.all_components() if "custom_id" in c]

    @property
    def buttons(self) -> list[dict[str, Any]]:
        return [c for c in self.all_components() if c.get("type") == 2]

    @property
    def selects(self) -> list[dict[str, Any]]:
        return [c for c in self.all_components() if c.get("type") in (3, 5, 6, 7, 8)]

    def component(
        self, custom_id: str | None = None, *, label: str | None = None
    ) -> dict[str, Any] | None:
        """The component with this custom id, or the first whose label/placeholder matches."""
        for comp in self.all_components():
            if custom_id is not None and comp.get("custom_id") == custom_id:
                return comp
            if label is not None and label in (comp.get("label"), comp.get("placeholder")):
                return comp
        return None

    def attachment(self, filename: str) -> AttachmentRecord:
        """The attachment with this file name."""
        for att in self.attachments:
            if att.filename == filename:
                return att
        names = [a.filename for a in self.attachments]
        raise KeyError(f"message {self.id} has no attachment {filename!r} (has {names})")

    def snapshot(self) -> MessageSnapshot:
        return MessageSnapshot(
            content=self.content,
            embeds=list(self.embeds),
            components=list(self.components),
            attachments=list(self.attachments),
            flags=self.flags,
            edited_timestamp=self.edited_timestamp,
            written=self.written,
        )

    def __repr__(self) -> str:
        text = self.text.replace("\n", " | ")
        if len(text) > 60:
            text = text[:57] + "..."
        return f"<MessageRecord id={self.id} channel={self.channel_id} {text!r}>"


@dataclass
class ErrorRecord:
    """A non-2xx answer the emulator gave to the bot."""

    method: str
    path: str
    status: int
    code: int
    message: str
    injected: bool = False


@dataclass
class FaultRule:
    """An injected failure: the next ``count`` matching requests get ``status``."""

    method: str
    path_regex: re.Pattern[str]
    status: int
    retry_after: float
    count: int
    is_global: bool
    per_route: bool = False
    """Fail only the first request of each distinct route (``count`` routes at most)."""
    routes_failed: set[str] = field(default_factory=set)
    until: float | None = None
    """A run of failures: every matching request until this time on the emulator's clock
    (``count`` is then not used up)."""
    code: int = 0
    """The JSON error code of the answer (0: Discord's bare 5xx body)."""
    message: str | None = None
    after: int = 0
    """Matching requests to let through before failing (a refusal part way through a run of
    posts)."""

    def matches(self, method: str, path: str, now: float | None = None) -> bool:
        if self.until is not None:
            if now is not None and now >= self.until:
                return False
        elif self.count <= 0:
            return False
        if self.method not in ("*", method.upper()):
            return False
        return self.path_regex.search(path) is not None


@dataclass
class Stats:
    """Counters for what the bot did against the emulator."""

    requests: Counter[str] = field(default_factory=Counter)
    dispatches: Counter[str] = field(default_factory=Counter)
    identifies: int = 0
    resumes: int = 0
    heartbeats: int = 0
    gateway_connections: int = 0
    resume_url_connections: int = 0
    faults_served: int = 0
    member_requests: int = 0

    def total_requests(self) -> int:
        return sum(self.requests.values())
