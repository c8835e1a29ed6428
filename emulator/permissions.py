"""Discord permission bits as the emulator uses them.

Owns the permission flag values, the default permission sets (what a game bot needs in a
channel, what @everyone gets) and the rule that turns a member's roles into a bitfield.
"""

from __future__ import annotations

from enum import IntFlag


class Perm(IntFlag):
    """Discord permission bits (the subset a text-channel game bot meets)."""

    CREATE_INSTANT_INVITE = 1 << 0
    KICK_MEMBERS = 1 << 1
    BAN_MEMBERS = 1 << 2
    ADMINISTRATOR = 1 << 3
    MANAGE_CHANNELS = 1 << 4
    MANAGE_GUILD = 1 << 5
    ADD_REACTIONS = 1 << 6
    VIEW_AUDIT_LOG = 1 << 7
    VIEW_CHANNEL = 1 << 10
    SEND_MESSAGES = 1 << 11
    SEND_TTS_MESSAGES = 1 << 12
    MANAGE_MESSAGES = 1 << 13
    EMBED_LINKS = 1 << 14
    ATTACH_FILES = 1 << 15
    READ_MESSAGE_HISTORY = 1 << 16
    MENTION_EVERYONE = 1 << 17
    USE_EXTERNAL_EMOJIS = 1 << 18
    CONNECT = 1 << 20
    SPEAK = 1 << 21
    MUTE_MEMBERS = 1 << 22
    CHANGE_NICKNAME = 1 << 26
    MANAGE_ROLES = 1 << 28
    USE_APPLICATION_COMMANDS = 1 << 31
    MANAGE_THREADS = 1 << 34
    CREATE_PUBLIC_THREADS = 1 << 35
    CREATE_PRIVATE_THREADS = 1 << 36
    USE_EXTERNAL_STICKERS = 1 << 37
    SEND_MESSAGES_IN_THREADS = 1 << 38


ALL_PERMISSIONS = (1 << 53) - 1
"""Every permission bit Discord defines today (and a few spare)."""

GAME_BOT_PERMISSIONS = int(
    Perm.VIEW_CHANNEL
    | Perm.SEND_MESSAGES
    | Perm.SEND_MESSAGES_IN_THREADS
    | Perm.CREATE_PUBLIC_THREADS
    | Perm.CREATE_PRIVATE_THREADS
    | Perm.MANAGE_THREADS
    | Perm.MANAGE_MESSAGES
    | Perm.EMBED_LINKS
    | Perm.ATTACH_FILES
    | Perm.READ_MESSAGE_HISTORY
    | Perm.ADD_REACTIONS
    | Perm.USE_EXTERNAL_EMOJIS
    | Perm.MENTION_EVERYONE
)
"""What a game-master bot needs in a channel: post, embed, upload, run threads."""

VOICE_BOT_PERMISSIONS = int(Perm.VIEW_CHANNEL | Perm.CONNECT | Perm.MUTE_MEMBERS)
"""What a bot that server-mutes players needs in a voice channel (it never connects itself,
but Discord shows it the channel only with View Channel)."""

DEFAULT_MEMBER_PERMISSIONS = int(
    Perm.CREATE_INSTANT_INVITE
    | Perm.ADD_REACTIONS
    | Perm.VIEW_CHANNEL
    | Perm.SEND_MESSAGES
    | Perm.EMBED_LINKS
    | Perm.ATTACH_FILES
    | Perm.READ_MESSAGE_HISTORY
    | Perm.USE_EXTERNAL_EMOJIS
    | Perm.CHANGE_NICKNAME
    | Perm.USE_APPLICATION_COMMANDS
    | Perm.CREATE_PUBLIC_THREADS
    | Perm.CREATE_PRIVATE_THREADS
    | Perm.USE_EXTERNAL_STICKERS
    | Perm.SEND_MESSAGES_IN_THREADS
    | Perm.CONNECT
    | Perm.SPEAK
)
"""What @everyone may do in a fresh emulated guild."""

DM_APP_PERMISSIONS = int(
    Perm.VIEW_CHANNEL
    | Perm.SEND_MESSAGES
    | Perm.EMBED_LINKS
    | Perm.ATTACH_FILES
    | Perm.READ_MESSAGE_HISTORY
    | Perm.ADD_REACTIONS
    | Perm.USE_EXTERNAL_EMOJIS
)
"""The ``app_permissions`` Discord reports for interactions in a DM."""


def resolve(permissions: int) -> int:
    """Administrator implies every permission."""
    if permissions & Perm.ADMINISTRATOR:
        return ALL_PERMISSIONS
    return permissions


def has(permissions: int, needed: int) -> bool:
    """Whether ``permissions`` (after administrator) include every bit of ``needed``."""
    return resolve(permissions) & needed == needed


def names(bits: int) -> list[str]:
    """Readable names of the known bits set in ``bits``."""
    return [p.name for p in Perm if p.name is not None and bits & p.value]
