"""Snowflake ids and timestamps for the Discord emulator.

Owns how the emulator mints ids: Discord snowflakes as decimal strings, monotonic,
with the creation time in the top bits (so discord.py's ``created_at`` is sane) and
a way to mint a guild id that lands on a chosen shard (``(guild_id >> 22) % count``).
"""

from __future__ import annotations

import datetime as dt
import secrets
import time
from collections.abc import Callable

DISCORD_EPOCH_MS = 1_420_070_400_000
"""Milliseconds between the Unix epoch and Discord's epoch (2015-01-01)."""


class SnowflakeFactory:
    """Mints unique, increasing snowflakes as strings (on ``clock``: seconds since the Unix
    epoch, the wall clock unless the emulator's clock was advanced)."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self._last_ms = 0
        self._increment = 0
        self._backdated = 0
        self.clock = clock

    def _now_ms(self) -> int:
        return int(self.clock() * 1000) - DISCORD_EPOCH_MS

    def at(self, when: float) -> str:
        """A unique snowflake whose time part is ``when`` (seconds since the Unix epoch),
        earlier than the newest ones: an interaction created before a gateway outage."""
        self._backdated += 1
        ms = int(when * 1000) - DISCORD_EPOCH_MS
        return str((ms << 22) | (1 << 21) | (self._backdated % (1 << 21)))

    def next(self) -> str:
        """A fresh snowflake, later than every one minted before."""
        ms = self._now_ms()
        if ms <= self._last_ms:
            ms = self._last_ms
            self._increment += 1
            if self._increment >= 4096:
                ms += 1
                self._increment = 0
        else:
            self._increment = 0
        self._last_ms = ms
        return str((ms << 22) | self._increment)

    def next_on_shard(self, shard_id: int, shard_count: int) -> str:
        """A fresh snowflake whose timestamp part falls on ``shard_id`` of ``shard_count``.

        Every call moves to a new millisecond, so consecutive calls without a shard
        constraint (``shard_count=1``) still spread over shards when counted later.
        """
        if shard_count < 1 or not 0 <= shard_id < shard_count:
            raise ValueError(f"invalid shard {shard_id} of {shard_count}")
        ms = max(self._now_ms(), self._last_ms + 1)
        while ms % shard_count != shard_id:
            ms += 1
        self._last_ms = ms
        self._increment = 0
        return str(ms << 22)


def shard_for(snowflake: str | int, shard_count: int) -> int:
    """The shard that owns a guild id, as Discord computes it."""
    return (int(snowflake) >> 22) % shard_count


def iso_now() -> str:
    """The current UTC time in Discord's ISO-8601 form."""
    return dt.datetime.now(dt.UTC).isoformat()


def iso_at(when: float) -> str:
    """``when`` (seconds since the Unix epoch) in Discord's ISO-8601 form."""
    return dt.datetime.fromtimestamp(when, dt.UTC).isoformat()


def new_token(prefix: str) -> str:
    """An opaque random token (interaction tokens, session ids)."""
    return f"{prefix}{secrets.token_hex(16)}"
