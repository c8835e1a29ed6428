"""`Delivery`: sends what happened in a game to the right places, one game at a time."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.storage import GameRecord
from cogs.utils.answers import HeldAnswer
from cogs.utils.table.boards import BoardPosts
from cogs.utils.table.components import game_of
from cogs.utils.table.posts import Showing, _done, shown_or_delayed
from rules.core import Event, Result

if TYPE_CHECKING:
    from bot.client import GameBot

log = logging.getLogger(__name__)


class Delivery(BoardPosts):
    """Sends what happened in a game to the right places, one game at a time."""

    async def guild_gone(self, guild_id: int) -> list[int]:
        """The bot was removed from a server (GUILD_DELETE without `unavailable`: a kick, a ban,
        the server deleted; an outage is not this): none of its games there can be shown or
        played again, so each live one is marked abandoned with the reason kept and its
        reminders end. Its players are not DMed: Discord refuses DMs to users who share no
        server with the bot (50007). Returns the games ended."""
        ended: list[int] = []
        for record in await self.bot.storage.list_games(guild_id, ["lobby", "active"]):
            await self.bot.tables.mark_abandoned(record.id, "the bot was removed from the server")
            ended.append(record.id)
        if ended:
            log.info("removed from guild %s: games %s abandoned", guild_id, ended)
        return ended

    async def run_ai(self, gid: int, *, wait_boards: bool = True) -> list[asyncio.Future[None]]:
        """Let the AI move for every awaited seat it plays (AI seats and stand-ins), posting
        each move like any other. Call with the game's delivery lock held. `wait_boards=False`:
        the boards are left to show (await the futures returned, outside the lock).

        The AI thinks in a worker (`TableService.ai_turn`), so other games go on meanwhile. A
        move decided quicker than `ai_think_seconds` after the post before it waits the rest
        before it is shown: AI moves arriving all at once read as one jumble, not as turns."""
        shown: list[asyncio.Future[None]] = []
        loop = asyncio.get_running_loop()
        pause = self.bot.settings.ai_think_seconds
        previous = loop.time()  # the post this call follows is being shown now
        self.ai_running += 1
        try:
            for _ in range(200):
                res = await self.bot.tables.ai_turn(gid)
                if res is None:
                    break
                if (rest := pause - (loop.time() - previous)) > 0:
                    await asyncio.sleep(rest)
                shown.append(await self.after_action(res.record, res.state, res.events,
                                                     res.result, actor=res.seat,
                                                     wait_board=wait_boards))
                previous = loop.time()
                await self.tell_near(res)
        finally:
            self.ai_running -= 1
        return shown

    async def tell_near(self, res: Any) -> None:
        """DM the players who asked to hear when their turn is near (`/game notify`)."""
        users = await self.bot.tables.near_turn(res)
        if not users:
            return
        game = game_of(res.record)
        where = f"<#{res.record.thread_id}>" if res.record.thread_id else "the game's thread"
        bell = "" if game.plain_words(res.state) else "🔔 "
        # The player before you by name and character, as the thread names them.
        names = await self.names(await self.bot.tables.users_of(res.record.id))
        before = game.player_name(res.state, res.awaited[0], names)
        for user_id in users:
            await self.dm(user_id, f"{bell}Your turn is near in **{game.title}** (game "
                          f"#{res.record.id}): you're next after {before} — {where}.")

    async def after_action(self, record: GameRecord, state: Any, events: list[Event],
                           result: Result | None, actor: str | None = None,
                           previous_awaited: set[str] | None = None, *,
                           wait_board: bool = True,
                           held: HeldAnswer | None = None,
                           noted: bool = False) -> asyncio.Future[None]:
        """Note private events for the summary DMs (`note_private`; `noted`: done already),
        then show the public events, the summaries and the board (`show`): awaited here, or
        (`wait_board=False`) by the caller through the future returned, once it has let go of
        the game's lock."""
        game = game_of(record)
        if not noted:
            await self.note_private(record, state, events)
        users = await self.bot.tables.users_of(record.id)
        # Where the table knows its players' names, a line about a seat may name its player
        # (the Exorcism's turn headers), never by mention.
        names = await self.names(users)
        public_lines = [game.event_text(state, e, names) for e in events if e.public]
        channel = await self.thread(record)
        if channel is None:
            return _done()
        for hook in self.after_hooks:
            try:
                await hook(record, state)
            except discord.HTTPException:
                log.warning("game %s: an after-action step failed", record.id, exc_info=True)
        shown = self.show(Showing(record, game, state, public_lines, result, channel, users,
                                  actor, [], answers=[held] if held is not None else []))
        if wait_board:
            await shown_or_delayed(shown)
        return shown


def delivery_for(bot: GameBot) -> Delivery:
    existing = getattr(bot, "_delivery", None)
    if isinstance(existing, Delivery):
        return existing
    delivery = Delivery(bot)
    bot._delivery = delivery  # type: ignore[attr-defined]
    return delivery
