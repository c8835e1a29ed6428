"""Delivery's base: names, renders, the game's thread, DMs and Discord's clock."""

from __future__ import annotations

import abc
import asyncio
import contextlib
import io
import logging
import pickle
import zlib
from collections import Counter
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

import discord

from bot import limits, renderpool
from bot.clock import clock_of
from bot.limits import clip
from bot.pressure import gauge_of
from bot.storage import GameRecord
from bot.tables import ai_seat_name
from cogs.utils.answers import held_answers
from cogs.utils.pending import drop_owed, owe
from cogs.utils.table.menus import PrivateMenus
from cogs.utils.table.posts import (
    MISSING_ACCESS,
    OLD_EDITS_CODE,
    OLD_MESSAGE,
    BoardDelayed,
    BoardPost,
    Showing,
    _shrink_png,
)
from cogs.utils.table.summaries import AfterAction, Settling, SummaryDM
from cogs.utils.table.words import AI_NAME, escape_name
from rules.core.game import ALT_TEXT_LIMIT, fit_words
from rules.registry import GAMES

if TYPE_CHECKING:
    from bot.client import GameBot

log = logging.getLogger(__name__)


class Pictured:
    """A public view a board picture drew, kept between moves as its pickle: the card marks
    what changed against it, so every active game holds one or two. As dicts a mid-game view
    is 10-26 KB of Python objects; pickled and deflated, 2-4 KB (issue #25: memory per active
    game; 50-100 µs a board). A pickle, not JSON, so the view comes back exactly as it was
    (tuples, int keys)."""

    __slots__ = ("_data",)

    def __init__(self, view: dict[str, Any]) -> None:
        self._data = zlib.compress(pickle.dumps(view, protocol=pickle.HIGHEST_PROTOCOL), 1)

    def view(self) -> dict[str, Any]:
        """A fresh copy of the view, as it was kept."""
        loaded: dict[str, Any] = pickle.loads(zlib.decompress(self._data))
        return loaded

    def __len__(self) -> int:
        return len(self._data)


NO_VIEW_BLOCK = "Discord says I may not view it (the **View Channel** permission was taken)"
"""Why a game's thread is out of the bot's sight while the bot is still in the server."""


class DeliveryCore(abc.ABC):
    """Names, renders, threads and DMs: what every part of delivery uses."""

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot
        self._locks: dict[int, asyncio.Lock] = {}
        self._names: dict[int, str] = {}
        # A name as `names` gives it (escaped for message text) -> the name itself.
        self._plain: dict[str, str] = {AI_NAME: AI_NAME}
        # user id -> their DM channel's id (a DM channel's id never changes).
        self._dm_channels: dict[int, int] = {}
        # (game id, seat) -> its summary DM. Lost on restart: found again in the DM history.
        self._summaries: dict[tuple[int, str], SummaryDM] = {}
        # game id -> its summary DM edits held back while their owners are not awaited, and
        # the task that writes them when the settle window ends (`SummaryDMs.refresh_summaries`).
        self._settling: dict[int, Settling] = {}
        # game id -> serialises the writes of its summary DMs (the showing task, the settle
        # window's flush, a seat handed over), so an older text never lands after a newer one.
        self._dm_locks: dict[int, asyncio.Lock] = {}
        # Summary DM changes (what writing every DM at once would write), writes (requests)
        # and changes held back (`SummaryDMs.refresh_summaries`): changes less writes are
        # the requests the settle window saved.
        self.dm_counts: Counter[str] = Counter()
        # (game id, seat) -> its latest private lines, shown on its summary DM (`note_private`).
        self._news: dict[tuple[int, str], list[str]] = {}
        # game id -> seats with private news not yet shown (a closed DM is reported for them).
        self._fresh: dict[int, set[str]] = {}
        # (game id, seat) -> how many of its private lines no write of its summary DM has
        # looked at yet and no answer of its own carries (`SummaryDMs.note_private`): while
        # any is untold, the mover's DM is not held back for their next decision.
        self._untold: dict[tuple[int, str], int] = {}
        # (game id, seat) -> its private lines the mover's own answer to their move is to
        # carry, not sent yet (`SummaryDMs.answer_sent` writes the DM should it fail).
        self._promised: dict[tuple[int, str], int] = {}
        # Cogs' own follow-ups of every delivered move (e.g. a game channel's permissions).
        self.after_hooks: list[AfterAction] = []
        # Open private menus follow every delivered move (`PrivateMenus.refresh`).
        self.menus = PrivateMenus(bot, self.has_panel)
        self.after_hooks.append(self.menus.refresh)
        # game id -> (version key, the full board's render): one render per version.
        self._full: dict[int, tuple[Any, asyncio.Future[bytes | None]]] = {}
        # Boards waiting to be shown, one merged showing per game, and the task showing them.
        self._showings: dict[int, Showing] = {}
        self._showing_tasks: dict[int, asyncio.Task[None]] = {}
        # game id -> (the board post it replaced, the board post this process last posted or
        # edited), and what that post stands for.
        self._board_ids: dict[int, tuple[int | None, int]] = {}
        self._posts: dict[int, tuple[int, BoardPost]] = {}
        # game id -> why its board could not be shown, while it waits to be tried again.
        self._delayed: dict[int, BoardDelayed] = {}
        # game id -> what blocked the thread, once its players were told by DM.
        self._told_blocked: dict[int, str] = {}
        # game id -> that DM's text, owed to the players whose DMs are closed (told at their
        # next press or command; dropped once the thread takes posts again).
        self._blocked_notes: dict[int, str] = {}
        # Games whose refused board waits for its next try (`stop_retrying` ends the wait).
        self._waiting_to_retry: set[int] = set()
        # Discord's clock as the newest snowflake seen shows it (`discord_now`).
        self._discord_clock = clock_of(bot)
        # game id -> {message id: (its channel's id, STRIP or DELETE)}: old messages whose
        # choices are still to be taken away, Discord having refused it so far (`_tidy`).
        self._stale: dict[int, dict[int, tuple[int, str]]] = {}
        # game id -> set when a showing arrives while its task waits to tidy (`_sleep_until`).
        self._wake: dict[int, asyncio.Event] = {}
        # channel id -> when (the loop's time) Discord last refused an old edit there: for
        # `board_retry_seconds` nothing old is edited there (`_refusing`). Each refusal
        # outlasted discord.py's five tries, and Discord counts every 429 against the bot.
        self._refused: dict[int, float] = {}
        # game id -> (the public view its last board picture drew, the view the current post
        # marks its changes against): the card highlights what changed (`board_file`). Lost
        # on restart: the first picture after one marks nothing.
        # Kept pickled (`Pictured`): for every active game, in a quarter of the memory.
        self._pictured: dict[int, tuple[Pictured, Pictured | None]] = {}
        # game id -> (its board post's id, a digest of the picture on it): an edit whose
        # picture is the same sends none, and the post keeps its attachment (stop 68: each
        # Marble picked for a Close a Gate uploaded the same picture again). Lost on restart:
        # the first edit after one uploads.
        self._uploaded: dict[int, tuple[int, str]] = {}
        # Per game: the event lines already posted ahead of a board that did not go through
        # yet (`send_spill`): its retry does not post them twice.
        self._spilled: dict[int, tuple[str, ...]] = {}
        # (game id, user id) -> Discord's time of that player's last move in that game: a
        # player who moved moments ago is at the table and needs no ping (`at_table`).
        self._moved_at: dict[tuple[int, int], float] = {}
        # (game id, user id) -> the task that pings a player named (not pinged) at the table,
        # should they not move after all (`_ping_if_gone`).
        self._ping_later: dict[tuple[int, int], asyncio.Task[None]] = {}
        # channel id -> the newest message seen there, kept for the threads where this
        # process posted a board: whether a board post is still its thread's last message
        # (`is_last`). Lost on restart: until the next post, no post counts as last.
        self._newest: dict[int, int] = {}
        # Moves waiting for their game's lock (`move_turn`): with the boards waiting and the
        # answers held, what the load gauge reads to tell a busy bot (bot/pressure.py).
        self.moves_waiting = 0
        # Games whose AI seats are deciding or showing their moves now (`run_ai`).
        self.ai_running = 0
        gauge = gauge_of(bot)
        gauge.count("moves", lambda: self.moves_waiting)
        gauge.count("boards", lambda: len(self._showings))
        gauge.count("held", lambda: len(held_answers(bot)))
        gauge.count("ai", lambda: self.ai_running)

    def saw(self, snowflake: int) -> None:
        """Note Discord's time as `snowflake` (an interaction's or a message's id) shows it."""
        self._discord_clock.saw(snowflake)

    def discord_now(self) -> float:
        """Discord's time now, as well as the bot can tell: its own clock, or the newest
        snowflake Discord sent, if that is later (a host clock running behind; in tests, the
        emulator's clock moved on by hours). Ages of messages are measured against it."""
        return self._discord_clock.now()

    def heard(self, channel_id: int, message_id: int) -> None:
        """A message appeared in a channel (the gateway's MESSAGE_CREATE, anyone's, the bot's
        own included): noted where a board post of this process may be buried by it."""
        known = self._newest.get(channel_id)
        if known is not None and message_id > known:
            self._newest[channel_id] = message_id

    def posted_board(self, channel_id: int, message_id: int) -> None:
        """This process posted a board in `channel_id`: from now on its messages are noted
        (`heard`). Snowflakes grow with time, so the newest is the largest."""
        self._newest[channel_id] = max(message_id, self._newest.get(channel_id, 0))

    def is_last(self, channel_id: int, message_id: int) -> bool:
        """Whether `message_id` is, as far as the gateway told, the newest message of its
        channel: nothing was said there since (False when not known)."""
        return self._newest.get(channel_id) == message_id

    def moved(self, gid: int, user_id: int, snowflake: int) -> None:
        """A player made a move in game `gid` (an interaction with id `snowflake`), or took a
        seat in it, or started it: they are at the table (`at_table`)."""
        seen = discord.utils.snowflake_time(snowflake).timestamp()
        self._moved_at[(gid, user_id)] = max(seen, self._moved_at.get((gid, user_id), 0.0))

    def at_table(self, gid: int, user_id: int) -> bool:
        """Whether the player moved in this game within `at_table_seconds` (Discord's time):
        they are watching the thread, so their next decision is named, not pinged (and pinged
        by a short post should they not move within as long, `_ping_if_gone`)."""
        window = self.bot.settings.at_table_seconds
        return self.discord_now() - self._moved_at.get((gid, user_id), -window) < window

    def is_old(self, message_id: int) -> bool:
        """Whether Discord limits edits of `message_id` (older than an hour, `OLD_MESSAGE`)."""
        made = discord.utils.snowflake_time(message_id).timestamp()
        return self.discord_now() - made >= OLD_MESSAGE

    def _note_refusal(self, channel_id: int, exc: BaseException) -> None:
        if isinstance(exc, discord.HTTPException) and exc.code == OLD_EDITS_CODE:
            self._refused[channel_id] = asyncio.get_running_loop().time()

    def _refusing(self, channel_id: int) -> bool:
        """Whether `channel_id` refused an old edit moments ago (try again later, not now)."""
        at = self._refused.get(channel_id)
        return at is not None and (asyncio.get_running_loop().time() - at
                                   < self.bot.settings.board_retry_seconds)

    async def names(self, users: dict[str, int | None]) -> dict[str, str]:
        """Seat -> the player's display name as message text carries it, markdown and mentions
        escaped (`escape_name`; fetched once per user). The one place names come from: a
        picture, alt text or a label takes `plain(names)`."""
        out: dict[str, str] = {}
        for seat, user_id in users.items():
            if not user_id:
                # An AI seat is named as such, and apart from any other AI seat: "AI Shade
                # (the Medium)", never a bare role.
                out[seat] = ai_seat_name(seat)
                continue
            if user_id not in self._names:
                user = self.bot.get_user(user_id)
                if user is None:
                    try:
                        user = await self.bot.fetch_user(user_id)
                    except discord.HTTPException:
                        continue
                self._names[user_id] = user.display_name
            raw = self._names[user_id]
            out[seat] = escape_name(raw)
            self._plain[out[seat]] = raw
        return out

    def plain(self, names: dict[str, str]) -> dict[str, str]:
        """`names` as a picture, alt text or a button label shows them: the names themselves,
        unescaped (Pillow draws characters; labels and alt text render no markdown)."""
        return {seat: self._plain.get(name, name) for seat, name in names.items()}

    def known_names(self, users: dict[str, int | None]) -> dict[str, str]:
        """`names` without a lookup: the seats whose players this process has already named
        (an autocomplete has 3 seconds and lists 25 games: no user is fetched for it)."""
        out: dict[str, str] = {}
        for seat, user_id in users.items():
            if not user_id:
                out[seat] = ai_seat_name(seat)
            elif (raw := self._names.get(user_id) or getattr(
                    self.bot.get_user(user_id), "display_name", None)) is not None:
                out[seat] = escape_name(raw)
                self._plain[out[seat]] = raw
        return out

    def remember_name(self, user: discord.abc.User) -> None:
        """A user the gateway gave (an interaction's user) is named without a lookup: the
        name `fetch_user` would give (the account's, not a server nickname)."""
        if user.id not in self._names and not user.bot:
            self._names[user.id] = getattr(user, "global_name", None) or user.name

    def lock(self, gid: int) -> asyncio.Lock:
        """Serialises act + post per game so boards appear in the order moves happened."""
        return self._locks.setdefault(gid, asyncio.Lock())

    @contextlib.asynccontextmanager
    async def move_turn(self, gid: int) -> AsyncIterator[None]:
        """The game's lock for a player's move, counted while it is waited for."""
        lock = self.lock(gid)
        self.moves_waiting += 1
        try:
            await lock.acquire()
        finally:
            self.moves_waiting -= 1
        try:
            yield
        finally:
            lock.release()

    async def render(self, game: str, view: dict[str, Any]) -> bytes | None:
        """PNG bytes of `view`, small enough to upload."""
        # In a worker process: a render in a thread would hold the GIL the loop needs.
        data = await renderpool.render(game, view)
        if data is None:
            return None
        if len(data) > self.bot.settings.max_image_bytes:
            data = await asyncio.to_thread(_shrink_png, data, self.bot.settings.max_image_bytes)
        return data

    async def render_card(self, game: str, view: dict[str, Any]) -> bytes | None:
        """The turn card of `view` (its `turn` filled in), small enough to upload."""
        data = await renderpool.render_card(game, view)
        if data is not None and len(data) > self.bot.settings.max_image_bytes:
            data = await asyncio.to_thread(_shrink_png, data, self.bot.settings.max_image_bytes)
        return data

    async def picture(self, game: str, view: dict[str, Any], name: str,
                      description: str) -> discord.File | None:
        """An upload of `view` carrying `description`, its alt text (what it shows, in words)."""
        data = await self.render(game, view)
        if data is None:
            return None
        return discord.File(io.BytesIO(data), filename=name,
                            description=fit_words([description], ALT_TEXT_LIMIT)
                            or "The game board.")

    async def thread(self, record: GameRecord) -> discord.abc.Messageable | None:
        """The game's thread, unarchived; None (and the game abandoned) if it was deleted."""
        tid = record.thread_id or record.channel_id
        channel = self.bot.get_channel(tid)
        try:
            if channel is None:
                channel = await self.bot.fetch_channel(tid)
        except discord.NotFound:
            await self.thread_gone(record)
            return None
        except discord.Forbidden as exc:
            if exc.code != MISSING_ACCESS:
                raise
            await self.thread_gone(record, seen=False)
            return None
        if isinstance(channel, discord.Thread) and channel.archived:
            try:
                await channel.edit(archived=False)
            except discord.HTTPException:
                log.info("could not unarchive thread %s; posting will reopen it", channel.id)
        return channel if isinstance(channel, discord.abc.Messageable) else None

    async def tell_players(self, record: GameRecord, text: str) -> set[int]:
        """DM `text` to every player of the game; the players it did not reach because Discord
        failed (5xx, after discord.py's own tries), not because their DMs are closed. Nothing
        raises: this runs inside a reminder's ping and the removal paths (stop 70: a 5xx run
        raised out of the ping and the reminder failed)."""
        users = await self.bot.tables.users_of(record.id)
        failed: set[int] = set()
        for user_id in sorted({u for u in users.values() if u}):
            try:
                if not await self.dm(user_id, text):
                    # DMs closed: said at their next press or command (stop 70).
                    owe(self.bot, user_id, text)
            except discord.HTTPException as exc:
                failed.add(user_id)
                log.warning("game %s: could not tell user %s by DM (Discord answered %s %s); "
                            "dropped", record.id, user_id, exc.status, exc.code)
        return failed

    async def dm(self, user_id: int, text: str, **kwargs: Any) -> bool:
        """Send a DM; False if the user's DMs are closed (the caller says so in the thread)."""
        try:
            channel = await self._dm_channel(user_id)
            await channel.send(clip(text, limits.CONTENT), **kwargs)
            return True
        except (discord.Forbidden, discord.NotFound):
            return False

    async def _dm_channel(self, user_id: int) -> discord.PartialMessageable:
        """The DM channel with `user_id`: opened once per user and process (one request), then
        addressed by its id. No user lookup before a DM: the bot has no member cache, so
        `get_user` misses and `fetch_user` would cost a request per DM."""
        known = self._dm_channels.get(user_id)
        if known is None:
            channel = await self.bot.create_dm(discord.Object(id=user_id))
            known = self._dm_channels[user_id] = channel.id
        return self.bot.get_partial_messageable(known, type=discord.ChannelType.private)

    async def _send(self, user_id: int, text: str,
                    view: discord.ui.View | None = None) -> discord.Message | None:
        try:
            channel = await self._dm_channel(user_id)
            if view is not None:
                return await channel.send(clip(text, limits.CONTENT), view=view)
            return await channel.send(clip(text, limits.CONTENT))
        except (discord.Forbidden, discord.NotFound):
            return None

    async def thread_gone(self, record: GameRecord, *, seen: bool = True) -> None:
        """The game's thread was deleted (gateway event or 404 on a post), or Discord no
        longer lets the bot see it (`seen=False`: 403/50001 Missing Access, as after the bot
        was removed from the server): the game is marked abandoned, the reason kept, its
        reminders ended, and its players told by DM, once."""
        current = await self.bot.storage.get_game(record.id)
        if current is None or current.status not in ("lobby", "active"):
            return
        if not seen and self.bot.get_guild(record.guild_id) is not None:
            # Still in the server: Discord answers Missing Access for a channel the bot may
            # not view, too — a moderator took View Channel (stop 69). The game waits for it
            # to be given back; a refused board post tells its players what to fix.
            log.warning("game %s: its thread is out of the bot's sight (no View Channel?); "
                        "the game is kept", record.id)
            if self._told_blocked.get(record.id) != NO_VIEW_BLOCK:
                # Told once, as a refused board post is (`_tell_blocked`): until a post goes
                # through again (stop 69: told to nobody but the log).
                self._told_blocked[record.id] = NO_VIEW_BLOCK
                game = GAMES.get(record.game)
                where = f"<#{record.thread_id}>" if record.thread_id else "the game's channel"
                text = (f"⚠️ I can no longer see {where}, the thread of your game of "
                        f"**{game.title if game else record.game}** (game #{record.id}): "
                        f"{NO_VIEW_BLOCK}. To fix it, a moderator gives me **View Channel** "
                        "there again. Your game is kept; it goes on as soon as I can see it.")
                self._blocked_notes[record.id] = text
                failed = await self.tell_players(record, text)
                if failed:
                    # Discord failed, not the players' DMs: told at the next try (the next
                    # reminder's ping meets Missing Access again).
                    self._told_blocked.pop(record.id, None)
            return
        self._newest.pop(record.thread_id or record.channel_id, None)
        reason = "its thread was deleted" if seen else "the bot can no longer see its thread"
        await self.bot.tables.mark_abandoned(record.id, reason)
        game = GAMES.get(record.game)
        title = game.title if game else record.game
        what = ("was deleted" if seen else "is out of my sight (Discord says Missing Access: "
                "I was removed from the server, or may no longer view the channel)")
        await self.tell_players(record, f"The thread of your game of **{title}** (game "
                                f"#{record.id}) {what}, so the game was marked abandoned. "
                                "Start a new one with `/game new`.")

    @abc.abstractmethod
    async def _show_in_turn(self, gid: int) -> None:
        """The game's showing task (`BoardPosts._show_in_turn`): shows its queued boards and
        pays what old messages are still owed."""

    def _owe(self, gid: int, message_id: int, channel_id: int, what: str) -> None:
        """Note what an old message is still owed (`STRIP`, `DELETE`), to be tried again with
        backoff by the game's showing task (started if none runs)."""
        self._stale.setdefault(gid, {})[message_id] = (channel_id, what)
        if gid not in self._showing_tasks:
            self._showing_tasks[gid] = asyncio.create_task(self._show_in_turn(gid),
                                                           name=f"boards-of-game-{gid}")

    def lift_blocked(self, gid: int) -> bool:
        """Whatever blocked the game's thread is over (a post went through, or the game
        ended): told again should it come back, and no longer owed to anyone. Whether
        something was."""
        note = self._blocked_notes.pop(gid, None)
        if note is not None:
            drop_owed(self.bot, note)
        return self._told_blocked.pop(gid, None) is not None

    def has_panel(self, gid: int, seat: str) -> bool:
        """Whether `seat`'s summary DM carries its private choices now (as last written)."""
        known = self._summaries.get((gid, seat))
        return known is not None and known.message_id is not None and bool(known.panel)
