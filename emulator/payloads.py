"""JSON payloads of Discord objects, built from the emulator's records.

Owns the exact shapes discord.py 2.7 reads (users, members, roles, channels, threads,
DM channels, guilds for GUILD_CREATE, messages, attachments): every key it indexes
without ``.get`` is present, snowflakes are strings, permissions are decimal strings.
Functions are pure: they take the records they need and return fresh dicts.
"""

from __future__ import annotations

from typing import Any

from emulator.permissions import ALL_PERMISSIONS
from emulator.records import (
    AttachmentRecord,
    ChannelRecord,
    ChannelType,
    GuildRecord,
    MemberRecord,
    MessageRecord,
    RoleRecord,
    UserRecord,
)


def user_payload(user: UserRecord) -> dict[str, Any]:
    return {
        "id": user.id,
        "username": user.name,
        "discriminator": "0",
        "global_name": user.global_name,
        "avatar": None,
        "bot": user.bot,
        "system": False,
        "public_flags": 0,
        "flags": 0,
        "banner": None,
        "accent_color": None,
        "avatar_decoration_data": None,
    }


def role_payload(role: RoleRecord) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": role.id,
        "name": role.name,
        "permissions": str(role.permissions),
        "position": role.position,
        "color": 0,
        "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
        "hoist": False,
        "icon": None,
        "unicode_emoji": None,
        "managed": role.managed,
        "mentionable": False,
        "flags": 0,
    }
    if role.bot_id is not None:
        out["tags"] = {"bot_id": role.bot_id}
    return out


def member_payload(
    member: MemberRecord, *, with_user: bool = True, permissions: int | None = None
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "roles": list(member.role_ids),
        "nick": member.nick,
        "avatar": None,
        "banner": None,
        "joined_at": member.joined_at,
        "premium_since": None,
        "deaf": False,
        "mute": member.mute,
        "pending": False,
        "flags": 0,
        "communication_disabled_until": None,
    }
    if with_user:
        out["user"] = user_payload(member.user)
    if permissions is not None:
        out["permissions"] = str(permissions)
    return out


def text_channel_payload(channel: ChannelRecord, bot_id: str) -> dict[str, Any]:
    """A guild text (or voice) channel, the bot's own permissions as its member overwrite."""
    allow = channel.bot_permissions
    out: dict[str, Any] = {
        "id": channel.id,
        "type": int(channel.type),
        "guild_id": channel.guild_id,
        "name": channel.name,
        "position": channel.position,
        "parent_id": None,
        "topic": channel.topic,
        "nsfw": False,
        "last_message_id": channel.last_message_id,
        "rate_limit_per_user": 0,
        "default_auto_archive_duration": 1440,
        "default_thread_rate_limit_per_user": 0,
        "flags": 0,
        "permission_overwrites": [
            {
                "id": bot_id,
                "type": 1,
                "allow": str(allow),
                "deny": str(ALL_PERMISSIONS & ~allow),
            },
            *(
                {"id": oid, "type": kind, "allow": str(a), "deny": str(d)}
                for oid, (kind, a, d) in channel.overwrites.items()
            ),
        ],
    }
    if channel.type is ChannelType.GUILD_VOICE:
        out |= {"bitrate": 64000, "user_limit": 0, "rtc_region": None}
    return out


def thread_payload(channel: ChannelRecord) -> dict[str, Any]:
    return {
        "id": channel.id,
        "type": int(channel.type),
        "guild_id": channel.guild_id,
        "parent_id": channel.parent_id,
        "owner_id": channel.owner_id,
        "name": channel.name,
        "last_message_id": channel.last_message_id,
        "rate_limit_per_user": 0,
        "message_count": channel.message_count,
        "total_message_sent": channel.message_count,
        "member_count": len(channel.member_ids),
        "flags": 0,
        "applied_tags": [],
        "thread_metadata": {
            "archived": channel.archived,
            "auto_archive_duration": channel.auto_archive_duration,
            "archive_timestamp": channel.archive_timestamp,
            "locked": channel.locked,
            "invitable": channel.invitable,
            "create_timestamp": channel.created_at,
        },
    }


def dm_channel_payload(channel: ChannelRecord, recipient: UserRecord) -> dict[str, Any]:
    return {
        "id": channel.id,
        "type": int(ChannelType.DM),
        "last_message_id": channel.last_message_id,
        "flags": 0,
        "recipients": [user_payload(recipient)],
    }


def channel_payload(
    channel: ChannelRecord, *, bot_id: str, recipient: UserRecord | None = None
) -> dict[str, Any]:
    """Any channel record as Discord's channel object."""
    if channel.is_thread:
        return thread_payload(channel)
    if channel.is_dm:
        if recipient is None:
            raise ValueError(f"DM channel {channel.id} needs its recipient")
        return dm_channel_payload(channel, recipient)
    return text_channel_payload(channel, bot_id)


def resolved_channel_payload(channel: ChannelRecord, permissions: int) -> dict[str, Any]:
    """A channel as it appears in ``resolved.channels`` of a slash command."""
    if channel.is_thread:
        out = thread_payload(channel)
    else:
        out = {
            "id": channel.id,
            "type": int(channel.type),
            "guild_id": channel.guild_id,
            "position": channel.position,
            "topic": channel.topic,
            "nsfw": False,
            "parent_id": channel.parent_id,
            "last_message_id": channel.last_message_id,
        }
    out["name"] = channel.name
    out["permissions"] = str(permissions)
    return out


def guild_create_payload(
    guild: GuildRecord,
    channels: list[ChannelRecord],
    threads: list[ChannelRecord],
    bot_id: str,
) -> dict[str, Any]:
    """The full GUILD_CREATE payload (also what ``GET /guilds/{id}`` answers, plus extras)."""
    members = list(guild.members.values())
    return {
        **guild_payload(guild),
        "unavailable": False,
        "large": False,
        "member_count": len(members),
        "joined_at": members[0].joined_at if members else None,
        "channels": [text_channel_payload(c, bot_id) for c in channels],
        "threads": [thread_payload(t) for t in threads],
        "members": [member_payload(m) for m in members],
        "presences": [],
        "voice_states": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
    }


def guild_payload(guild: GuildRecord) -> dict[str, Any]:
    return {
        "id": guild.id,
        "name": guild.name,
        "icon": None,
        "splash": None,
        "discovery_splash": None,
        "banner": None,
        "description": None,
        "owner_id": guild.owner_id,
        "afk_channel_id": None,
        "afk_timeout": 300,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "mfa_level": 0,
        "nsfw_level": 0,
        "premium_tier": 0,
        "premium_subscription_count": 0,
        "premium_progress_bar_enabled": False,
        "preferred_locale": guild.locale,
        "system_channel_id": None,
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "public_updates_channel_id": None,
        "safety_alerts_channel_id": None,
        "vanity_url_code": None,
        "widget_enabled": False,
        "max_members": 500000,
        "max_presences": None,
        "max_video_channel_users": 25,
        "max_stage_video_channel_users": 50,
        "features": [],
        "roles": [role_payload(r) for r in guild.roles.values()],
        "emojis": [],
        "stickers": [],
        "incidents_data": None,
    }


def attachment_payload(att: AttachmentRecord) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": att.id,
        "filename": att.filename,
        "size": att.size,
        "url": att.url,
        "proxy_url": att.url,
        "content_type": att.content_type,
        "flags": 0,
    }
    if att.description is not None:
        out["description"] = att.description
    return out


def message_payload(
    msg: MessageRecord,
    author: UserRecord,
    *,
    pinged: list[UserRecord],
    interaction_user: UserRecord | None = None,
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": msg.id,
        "channel_id": msg.channel_id,
        "author": user_payload(author),
        "content": msg.content,
        "timestamp": msg.timestamp,
        "edited_timestamp": msg.edited_timestamp,
        "tts": msg.tts,
        "mention_everyone": msg.everyone_pinged,
        "mentions": [user_payload(u) for u in pinged],
        "mention_roles": [],
        "attachments": [attachment_payload(a) for a in msg.attachments],
        "embeds": [{"type": "rich", **e} for e in msg.embeds],
        "components": msg.components,
        "pinned": False,
        "type": msg.type,
        "flags": msg.flags,
    }
    if msg.guild_id is not None:
        out["guild_id"] = msg.guild_id
    if msg.webhook_id is not None:
        out["webhook_id"] = msg.webhook_id
        out["application_id"] = msg.webhook_id
    if msg.message_reference is not None:
        out["message_reference"] = msg.message_reference
    if msg.interaction_id is not None and interaction_user is not None:
        owners = {"0": msg.guild_id} if msg.guild_id else {"1": interaction_user.id}
        out["interaction_metadata"] = {
            "id": msg.interaction_id,
            "type": msg.interaction_type or 2,
            "user": user_payload(interaction_user),
            "authorizing_integration_owners": owners,
        }
    return out
