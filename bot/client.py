"""The `commands.Bot` subclass: wires storage, the table service, reminders and the cogs.

`build_bot(settings)` builds it without starting it, so tests, the demo and anyone embedding
the bot can point it at another endpoint (the local emulator) and another database. With
`SHARD_COUNT` set it builds a `ShardedGameBot`, which connects only the process's `SHARD_IDS`
and fires only its own guilds' reminders (interactions reach a process only for its shards'
guilds, so the cogs need nothing more).
"""

from __future__ import annotations

import asyncio
import errno
import logging
import os
import re
import socket
import sqlite3
import tempfile
import time
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from pathlib import Path
from typing import Any, TypeVar

import aiohttp
import discord
import yarl
from discord.ext import commands

from bot.database import storage_for
from bot.edge import GameTree
from bot.health import Heartbeat
from bot.pressure import gauge_of
from bot.reminders import ReminderDispatcher
from bot.renderworker import return_freed_memory
from bot.settings import Settings
from bot.storage import ShardSet, Storage
from bot.tables import TableService
from bot.token_shape import PORTAL

log = logging.getLogger(__name__)
T = TypeVar("T")

UNKNOWN_COMPONENT_GRACE = 1.5
"""Seconds to let a handler answer an interaction before the bot answers it itself
(Discord's deadline is 3 s)."""

BOARD_MOVED_ON = ("That board has moved on — use the latest board post in the thread, or "
                  "`/game status`. (This button isn't one I know any more.)")
FORM_GONE = ("That form is no longer open (the bot may have restarted). Run the command "
             "again to get a fresh one.")

COGS: tuple[str, ...] = ("cogs.lobby", "cogs.exorcism", "cogs.fourth_wall", "cogs.presence",
                         "cogs.help")


def point_discord_at(api_base: str | None, gateway_url: str | None) -> None:
    """Send discord.py's REST and gateway traffic elsewhere (the emulator), process-wide."""
    if api_base:
        discord.http.Route.BASE = api_base.rstrip("/")
    if gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


class GameBot(commands.Bot):
    """The game master. Holds no game state of its own: everything lives in storage."""

    def __init__(
        self,
        settings: Settings,
        storage: Storage | None = None,
        *,
        clock: Callable[[], float] = time.time,
        cogs: Sequence[str] = COGS,
    ) -> None:
        # No privileged intents. `guild_messages` (not privileged) lets strict table talk see
        # who posted where; the text itself (the privileged message-content intent) is never
        # needed: everything else is slash commands and components.
        # The bot never joins voice (it only server-mutes players in a game's linked voice
        # channel): the missing-voice-library warnings only mislead a reader.
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        intents = discord.Intents.none()
        intents.guilds = True
        intents.guild_messages = True
        # Who is in which voice channel (not privileged): a Presence game's linked voice
        # channel mutes players who may not talk (P-DISCORD-05, cogs/utils/voice.py).
        intents.voice_states = True
        # Not `shards`: AutoShardedClient already has that name for its live connections.
        self.owned_shards: ShardSet | None = settings.shards()
        owned = self.owned_shards
        sharding: dict[str, Any] = {}
        if owned is not None:
            sharding = {"shard_count": owned.count, "shard_ids": list(owned.ids)}
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            # Checks every slash command's options against its declaration before it runs:
            # discord.py trusts what the client sends (bot/edge.py).
            tree_cls=GameTree,
            guild_ready_timeout=settings.guild_ready_timeout,
            # No message cache: the bot works from stored message ids and raw events, and
            # 1,000 cached messages are most of what a full garbage collection walks.
            max_messages=None,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
            **sharding,
        )
        self.settings = settings
        self.storage: Storage = storage or storage_for(
            settings.database_url, settings.database_path)
        self.clock = clock
        self.tables = TableService(self.storage, clock=clock,
                                   ai_level=settings.default_ai_level, snapshot_ahead=True)
        self.cog_modules = tuple(cogs)
        self.reminders: ReminderDispatcher | None = None
        # Top-level command name → its id, as the last sync gave them: a message can then
        # carry a clickable `</game mine:ID>` (empty when the bot did not sync this run).
        self.command_ids: dict[str, int] = {}
        self._component_templates: list[
            tuple[re.Pattern[str], type[discord.ui.DynamicItem[Any]]]] = []
        self._boards_caught_up = False
        self._starting: asyncio.Task[Any] | None = None
        """The start-up work under way (`on_ready`'s hooks), if any."""
        # What the cogs ask to run once the gateway is first ready, and before the bot closes,
        # by name (a cog's setup registers them; registering twice keeps one). The bot layer
        # knows nothing of what they do: the cogs sit above it.
        self.ready_hooks: dict[str, Callable[[], Awaitable[object]]] = {}
        self.close_hooks: dict[str, Callable[[], Awaitable[object]]] = {}
        # Which gateway connections are down (None: the only one of an unsharded bot), for the
        # heartbeat that `python -m bot health` reads.
        self._gateway_down: set[int | None] = {None}
        self.heartbeat = Heartbeat(settings.health_file, gateway_up=self.gateway_up,
                                   database_ping=self.storage.schema_version, clock=clock)
        for event, up in (("on_connect", True), ("on_resumed", True), ("on_disconnect", False)):
            self.add_listener(self._gateway_event(None, up), event)
        for event, up in (("on_shard_connect", True), ("on_shard_resumed", True),
                          ("on_shard_disconnect", False)):
            self.add_listener(self._shard_event(up), event)

    def _gateway_event(self, shard: int | None,
                       up: bool) -> Callable[[], Any]:
        async def seen() -> None:
            if up:
                self._gateway_down.discard(shard)
            else:
                self._gateway_down.add(shard)
            self.heartbeat.poke()
        return seen

    def _shard_event(self, up: bool) -> Callable[[int], Any]:
        async def seen(shard_id: int) -> None:
            self._gateway_down.discard(None)  # a sharded bot reports per shard
            if up:
                self._gateway_down.discard(shard_id)
            else:
                self._gateway_down.add(shard_id)
            self.heartbeat.poke()
        return seen

    def gateway_up(self) -> bool:
        """Whether every gateway connection of this process is up now."""
        if self.is_closed():
            return False
        if self.owned_shards is not None:
            shards = getattr(self, "shards", {})
            return (bool(shards) and not self._gateway_down - {None}
                    and all(not s.is_closed() for s in shards.values()))
        return not self._gateway_down

    async def setup_hook(self) -> None:
        if (owned := self.owned_shards) is not None:
            log.info("running gateway shards %s of %d", list(owned.ids), owned.count)
        await self.storage.open()
        # No worker starts here (issue #25): the render worker when a lobby opens or a picture
        # is first drawn (`bot.renderpool`), the AI worker with the first AI decision.
        for module in self.cog_modules:
            await self.load_extension(module)
        if self.settings.sync_commands:
            if self.settings.dev_guild_id:
                guild = discord.Object(id=self.settings.dev_guild_id)
                self.tree.copy_global_to(guild=guild)
                synced = await self.tree.sync(guild=guild)
            else:
                synced = await self.tree.sync()
            self.command_ids = {c.name: c.id for c in synced}
        lobby = self.get_cog("Lobby")
        notify = getattr(lobby, "send_reminder", None)
        enforce = getattr(lobby, "enforce_default", None)
        if notify is not None:
            self.reminders = ReminderDispatcher(
                self.storage,
                notify,
                clock=self.clock,
                poll_seconds=self.settings.reminder_poll_seconds,
                enforce=enforce,
                tables=self.tables,
                shards=self.owned_shards,
                # Reminders can wait a little: while the bot is busy, moves are answered first.
                calm=lambda: gauge_of(self).calm(at_most=self.settings.reminder_poll_seconds),
            )
            self.reminders.start()

    async def on_ready(self) -> None:
        """Once per process: run the cogs' ready hooks, in the order they were registered
        (the lobby's answer the moves a crash left in flight, then post the boards it left
        behind). One failing hook does not stop the others."""
        if self._boards_caught_up:
            return
        self._boards_caught_up = True
        self._starting = asyncio.current_task()
        try:
            for name, hook in list(self.ready_hooks.items()):
                try:
                    await hook()
                except Exception:
                    log.exception("ready hook %r failed", name)
        finally:
            self._starting = None
        # Start-up is over: what it freed goes back to the system (issue #15).
        return_freed_memory()

    async def on_message(self, message: discord.Message, /) -> None:
        """No prefix commands: messages only reach the cogs' listeners (strict table talk)."""

    async def close(self) -> None:
        starting = self._starting
        if starting is not None and starting is not asyncio.current_task():
            # Stopped while its start-up work runs (stop 69): that work is called off rather
            # than left to fail on the storage closed under it; the next start does it.
            starting.cancel()
            await asyncio.gather(starting, return_exceptions=True)
        await self.heartbeat.stop()
        if self.reminders is not None:
            await self.reminders.stop()
        for name, hook in list(self.close_hooks.items()):
            try:
                await hook()
            except Exception:
                log.warning("close hook %r failed", name, exc_info=True)
        try:
            await super().close()
        finally:
            await self.tables.settle()
            await self.storage.close()

    def add_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None:
        super().add_dynamic_items(*items)
        self._component_templates.extend(
            (i.__discord_ui_compiled_template__, i) for i in items)

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Every component press, modal submit and autocomplete gets an answer.

        discord.py drops, without a word, a press whose message no longer carries the
        component (two players act at once: the press arrives after the board lost its
        buttons), a press of a retired or crafted id, and a modal it does not know; an
        autocomplete whose callback fails is never answered. The player would only see
        "This interaction failed". So a stripped component's press is played here as if the
        component were still there (its handler checks it is still current), and whatever no
        handler has answered within the grace time gets a kind answer.
        """
        kind = interaction.type
        if kind not in (discord.InteractionType.component,
                        discord.InteractionType.modal_submit,
                        discord.InteractionType.autocomplete):
            return
        handling: asyncio.Task[None] | None = None
        if kind is discord.InteractionType.component:
            handling = self._press_without_component(interaction)
        # Handlers of presses and forms acknowledge at once (defer), or hold the answer for a
        # move's result for less than this grace (settings.answer_grace); suggestions are answered
        # only when computed, so they get longer before the empty answer goes out.
        grace = UNKNOWN_COMPONENT_GRACE * (1.5 if kind is discord.InteractionType.autocomplete
                                           else 1.0)
        await asyncio.sleep(grace)
        if handling is not None and not handling.done():
            await asyncio.wait({handling}, timeout=UNKNOWN_COMPONENT_GRACE / 2)
        if interaction.response.is_done() or "held" in interaction.extras:
            # A move holding its answer for its result is answered by it (or deferred).
            return
        if interaction.extras.get("late"):
            return  # refused as too late to play: Discord takes no answer (told by DM)
        try:
            if kind is discord.InteractionType.autocomplete:
                await interaction.response.autocomplete([])
            else:
                text = FORM_GONE if kind is discord.InteractionType.modal_submit \
                    else BOARD_MOVED_ON
                await interaction.response.send_message(text, ephemeral=True)
        except discord.HTTPException:
            log.info("could not answer interaction %s", interaction.id)

    def _press_without_component(
            self, interaction: discord.Interaction[Any]) -> asyncio.Task[None] | None:
        """A press of one of our templates on a message that lacks that component (discord.py
        drops those): handled by the template's item, in a task. None if discord.py will
        handle it itself, or it is no template of ours."""
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        component_type = data.get("component_type")
        found = next(((m, f) for t, f in self._component_templates
                      if (m := t.fullmatch(custom_id)) is not None), None)
        if found is None:
            return None
        match, factory = found
        message = interaction.message
        if message is not None:
            for row in message.components:
                for child in getattr(row, "children", [row]):
                    if (getattr(child, "custom_id", None) == custom_id
                            and child.type.value == component_type):
                        return None  # discord.py dispatches it
        return asyncio.create_task(self._run_item(interaction, factory, match, component_type),
                                   name=f"press-without-component-{custom_id}")

    async def _run_item(self, interaction: discord.Interaction[Any],
                        factory: type[discord.ui.DynamicItem[Any]], match: re.Match[str],
                        component_type: Any) -> None:
        custom_id = match.string
        base: discord.ui.Item[Any] = (
            discord.ui.Button(custom_id=custom_id) if component_type == 2
            else discord.ui.Select(custom_id=custom_id))
        try:
            item = await factory.from_custom_id(interaction, base, match)
            await item.callback(interaction)
        except Exception:
            log.exception("a press of %r on a message without it failed", custom_id)


class ShardedGameBot(GameBot, commands.AutoShardedBot):
    """The game master on some of the bot's gateway shards (`Settings.shards`): one gateway
    connection per shard in this process; other processes run the other shards."""


def build_bot(
    settings: Settings,
    storage: Storage | None = None,
    *,
    clock: Callable[[], float] = time.time,
    cogs: Sequence[str] = COGS,
) -> GameBot:
    """A ready-to-start bot (call `await bot.start(token)`), not yet connected."""
    point_discord_at(settings.discord_api_base, settings.discord_gateway_url)
    if settings.shard_count is not None:
        return ShardedGameBot(settings, storage, clock=clock, cogs=cogs)
    return GameBot(settings, storage, clock=clock, cogs=cogs)


def run_event_loop(main: Coroutine[Any, Any, T]) -> T:
    """Run the bot's `main` to its end on uvloop's event loop where it is installed (a
    dependency everywhere but Windows), else on asyncio's own.

    The bot's process spends much of a move in the event loop itself and its transports: every
    gateway event, REST call and answer from the storage and render threads passes through
    it. uvloop runs the same asyncio code with the loop written in C (`python -m bench --only
    games`: the bot process's CPU per move, with and without)."""
    factory: Callable[[], asyncio.AbstractEventLoop] | None = None
    if os.environ.get("HAUNT_EVENT_LOOP", "uvloop") == "uvloop":
        try:
            import uvloop
        except ImportError:
            pass
        else:
            factory = uvloop.new_event_loop
    with asyncio.Runner(loop_factory=factory) as runner:
        return runner.run(main)


def tune_process(cogs: Sequence[str] = COGS) -> None:
    """Process-wide settings for a process that runs the bot and nothing else (`python -m bot
    run`; the bench's bot process too), called once before it connects.

    - Each state's public view is built once for all the words of a move (the post's "what to
      do now", the turn card's, the picture's alt text; `rules.core.memo`): safe because the
      bot never changes a state in place. Not in `build_bot`: tests build bots beside states
      they edit by hand.
    - Start-up objects leave the garbage collector's full collections (`freeze_startup_heap`).
    - A schema upgrade runs in a child process (`bot.storage.MIGRATE_IN_CHILD`): Alembic never
      loads into this one (issue #15).
    """
    from bot import storage
    from bot.looplag import freeze_startup_heap
    from rules.core import memo

    storage.MIGRATE_IN_CHILD = True
    memo.enable()
    freeze_startup_heap(cogs)


# ---- a start that explains itself ----------------------------------------------------------------
DISCORD_API = "https://discord.com/api/v10"
"""Where the bot reaches Discord unless DISCORD_API_BASE says otherwise."""


def check_database_folder(settings: Settings) -> None:
    """Raise the OSError that opening the SQLite file would meet, before it is opened: SQLite
    needs to write its folder (the journal lives next to the file) and the file. Checked with
    real writes (a root process without its override obeys permissions; `os.access` guesses),
    and here rather than inside aiosqlite, whose failed connect leaves its thread behind."""
    if settings.database_url:
        return
    path = Path(settings.database_path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryFile(dir=path.parent):
        pass
    if path.exists():
        with path.open("r+b"):
            pass


def _walk(exc: BaseException) -> list[BaseException]:
    """The exception and its causes, outermost first (each once)."""
    seen: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and current not in seen:
        seen.append(current)
        current = current.__cause__ or current.__context__
    return seen


_DNS_ERROR: Any = getattr(aiohttp, "ClientConnectorDNSError", ())  # aiohttp 3.11+


def _reason(error: OSError) -> str:
    if isinstance(error, _DNS_ERROR) or (
            isinstance(error, aiohttp.ClientConnectorError)
            and isinstance(error.os_error, socket.gaierror)):
        return "its name could not be resolved (DNS)"
    code = error.errno
    if isinstance(error, aiohttp.ClientConnectorError):
        code = error.os_error.errno
    if isinstance(error, ConnectionRefusedError) or code == errno.ECONNREFUSED:
        return "the connection was refused"
    if code in (errno.ENETUNREACH, errno.EHOSTUNREACH):
        return "the network is unreachable"
    if isinstance(error, FileExistsError | NotADirectoryError):
        return "a file stands where a folder of that path should be"
    if isinstance(error, TimeoutError) or code == errno.ETIMEDOUT:
        return "it did not answer in time"
    text = str(getattr(error, "strerror", None) or error).strip()
    return text[:1].lower() + text[1:] if text else type(error).__name__


def _at_login(error: discord.HTTPException) -> bool:
    """Whether Discord gave this answer to the login request itself (not, say, to the command
    sync that follows it, which is a bug to show in full)."""
    url = getattr(error.response, "url", None)
    return url is not None and str(getattr(url, "path", url)).endswith("/users/@me")


def _database_where(settings: Settings) -> str:
    if settings.database_url:
        url = yarl.URL(settings.database_url)
        return f"the PostgreSQL database at {url.host}:{url.port or 5432} (DATABASE_URL)"
    return f"the game database {settings.database_path} (DATABASE_PATH)"


def _database_failure(chain: list[BaseException], settings: Settings) -> str:
    where = _database_where(settings)
    first = chain[0]
    if settings.database_url:
        for error in chain:
            if isinstance(error, OSError):
                return (f"Cannot reach {where}: {_reason(error)} — check that the database "
                        "server is running and that DATABASE_URL names it.")
        return (f"Cannot open {where}: {type(first).__name__}: {str(first)[:200]} — check "
                "the user, password and database name in DATABASE_URL.")
    folder = Path(settings.database_path).parent
    uid = os.getuid() if hasattr(os, "getuid") else "?"
    for error in chain:
        if isinstance(error, OSError | sqlite3.OperationalError):
            why = (_reason(error) if isinstance(error, OSError) else str(error))
            return (f"Cannot write {where}: {why} — make {folder} a folder the bot's user "
                    f"(uid {uid}) can write, or set DATABASE_PATH elsewhere (in Docker, mount "
                    "a volume at /data).")
    return f"Cannot open {where}: {type(first).__name__}: {str(first)[:200]}."


def explain_startup_failure(exc: BaseException, settings: Settings, *,
                            stage: str = "discord") -> str | None:
    """One sentence saying what failed at start and what to check, or None for a failure this
    does not know (the caller then shows the traceback: a bug, not a setting).

    `stage` is what was being done: "database" (opening storage) or "discord" (logging in)."""
    chain = _walk(exc)
    # Not Route.BASE: an in-process bot pointed at the emulator rewrites that class attribute.
    api = yarl.URL(settings.discord_api_base or DISCORD_API)
    if stage == "database":
        return _database_failure(chain, settings)
    for error in chain:
        if isinstance(error, discord.LoginFailure):
            return ("Discord refused the bot token (401 Unauthorized): it was mistyped or has "
                    f"been reset — press Reset Token on {PORTAL} and put the new token in "
                    "DISCORD_TOKEN.")
        if isinstance(error, discord.PrivilegedIntentsRequired):
            return ("Discord refused a privileged intent this bot does not ask for; check "
                    "that DISCORD_TOKEN is this bot's token.")
        if isinstance(error, discord.HTTPException) and _at_login(error):
            return (f"Discord answered {error.status} when the bot logged in at {api.host}: "
                    "it may be having trouble (see https://discordstatus.com) — try again "
                    "in a few minutes.")
        if isinstance(error, OSError | aiohttp.ClientError):
            # (asyncio.TimeoutError is the built-in TimeoutError, an OSError, since 3.11.)
            why = (_reason(error) if isinstance(error, OSError)
                   else str(error) or type(error).__name__)
            where = (f"{api.host}:{api.port}" if api.port not in (None, 443, 80)
                     else str(api.host))
            override = " and DISCORD_API_BASE" if settings.discord_api_base else ""
            return (f"Cannot reach Discord at {where}: {why} — check this machine's internet "
                    f"connection, DNS, proxy and firewall{override}.")
    return None
