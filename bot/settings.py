"""Process settings, read from the environment or a `.env` file (pydantic-settings).

Every field is one row of the README's settings table; keep the two in step.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Annotated, Any, Self

from pydantic import Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from bot.storage import AiLevel, ShardSet


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: SecretStr | None = Field(
        default=None, description="The bot token from the Discord developer portal."
    )
    database_path: Path = Field(
        default=Path("data/hauntbot.sqlite3"),
        description="SQLite file holding every game (created with its folder on first start).",
    )
    database_url: str | None = Field(
        default=None,
        description="PostgreSQL URL (postgresql://user:pass@host/db); when set it replaces "
        "the SQLite file, and several bot processes can share it.",
    )
    dev_guild_id: int | None = Field(
        default=None,
        description="Sync slash commands to this one server instantly (global sync can take "
        "up to an hour to show).",
    )
    sync_commands: bool = Field(
        default=True, description="Sync the slash commands with Discord at start."
    )
    log_level: str = Field(default="INFO", description="Logging level.")
    reminder_poll_seconds: float = Field(
        default=60.0, gt=0, description="How often the reminder dispatcher looks for due games."
    )
    default_reminder_hours: float = Field(
        default=12.0, gt=0, description="Hours before an awaited player is first nudged by DM."
    )
    answer_grace: float = Field(
        default=0.25, ge=0, le=1.2,
        description="Seconds after the press within which a move's result may still be its "
        "first answer (one request); later, the move's words answer it or it is deferred. A "
        "busy bot holds less or nothing (cogs/utils/answers.py; Discord allows 3 s in all).",
    )
    at_table_seconds: float = Field(
        default=300.0, ge=0,
        description="A player who moved in a game this many seconds ago is at the table: a "
        "decision of theirs that comes up is named on the board post, not pinged; should they "
        "not move within as long, a short post pings them then. 0: always ping.",
    )
    summary_settle_seconds: float = Field(
        default=3.0, ge=0, le=30,
        description="A summary DM whose owner the game does not wait for is edited this many "
        "seconds after it changes, one edit carrying every change meanwhile (a burst of moves "
        "costs one edit, not one per move); the mover's own DM, changed only by their move "
        "(its private news told in their own answer to a typed move) and offering no choices "
        "now, follows their next decision (by at_table_seconds at the latest); an awaited "
        "player's DM with choices is edited at once, before any ping. 0: "
        "every DM at once.",
    )
    board_retry_seconds: float = Field(
        default=5.0, gt=0,
        description="A board post Discord refused (5xx, 429, a locked thread, a missing "
        "permission) is tried again after this many seconds, then twice as long each time.",
    )
    default_ai_level: AiLevel = Field(
        default="normal",
        description="A new game's AI level when `/game new` names none (easy, normal, hard).",
    )
    ai_think_seconds: float = Field(
        default=0.6, ge=0, le=10,
        description="An AI move appears at least this many seconds after the post before it "
        "(a quick decision waits the rest), so a table can follow the AI's moves one by one.",
    )
    board_retry_max_seconds: float = Field(
        default=300.0, gt=0, description="The longest wait between two tries of a board post.",
    )
    max_image_bytes: int = Field(
        default=2_000_000, gt=10_000, description="A board picture larger than this is re-encoded."
    )
    discord_api_base: str | None = Field(
        default=None,
        description="Override Discord's REST base URL (the local emulator and the demo use it).",
    )
    discord_gateway_url: str | None = Field(
        default=None, description="Override the gateway URL (the local emulator and the demo)."
    )
    guild_ready_timeout: float = Field(
        default=2.0, ge=0, description="Seconds discord.py waits for guilds before on_ready."
    )
    health_file: Path = Field(
        default=Path(tempfile.gettempdir()) / "hauntbot-health.json",
        description="The heartbeat file the running bot rewrites and `python -m bot health` "
        "reads (one per process).",
    )
    shard_count: int | None = Field(
        default=None,
        ge=1,
        description="Total gateway shards across every bot process (unset: one process, "
        "no sharding).",
    )
    shard_ids: Annotated[list[int], NoDecode] = Field(
        default_factory=list,
        description="The shards this process runs, e.g. `0,1` (empty: all of SHARD_COUNT). "
        "It owns those shards' servers, their games and their reminders.",
    )

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _comma_separated(cls, value: Any) -> Any:
        # "0,1" in the environment or .env; a list when built in code.
        if isinstance(value, str):
            return [int(part) for part in value.replace(" ", "").split(",") if part]
        return value

    @model_validator(mode="after")
    def _shards_in_range(self) -> Self:
        if self.shard_ids and self.shard_count is None:
            raise ValueError("SHARD_IDS needs SHARD_COUNT (the total across all processes)")
        count = self.shard_count or 1
        wrong = [i for i in self.shard_ids if not 0 <= i < count]
        if wrong:
            raise ValueError(f"SHARD_IDS {wrong} are not shards of SHARD_COUNT={count} "
                             f"(0 to {count - 1})")
        if len(set(self.shard_ids)) != len(self.shard_ids):
            raise ValueError(f"SHARD_IDS repeats a shard: {self.shard_ids}")
        return self

    def shards(self) -> ShardSet | None:
        """The shards this process runs; None when the bot is not sharded (one process)."""
        if self.shard_count is None:
            return None
        ids = tuple(sorted(self.shard_ids)) or tuple(range(self.shard_count))
        return ShardSet(count=self.shard_count, ids=ids)

    def token(self) -> str | None:
        return self.discord_token.get_secret_value() if self.discord_token else None
