"""What the cogs ask the bot to run when it is first ready and before it closes.

The bot layer sits below the cogs and never imports them: each cog's `setup` calls `attach`,
which registers these hooks by name (so loading several cogs registers them once).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from cogs.utils.answers import settle_held_answers, stop_gauge
from cogs.utils.pending import pending_for
from cogs.utils.table import delivery_for

if TYPE_CHECKING:
    from bot.client import GameBot

log = logging.getLogger(__name__)


def attach(bot: GameBot) -> None:
    """Register the cogs' start-up and shut-down work with the bot (idempotent)."""

    async def answer_moves_left_in_flight() -> None:
        # First the players a crash left on "thinking…" (their tokens expire), then boards.
        told = await pending_for(bot).answer_left_behind()
        if told:
            log.info("answered %d move(s) left in flight by the last shutdown", told)

    async def post_boards_left_behind() -> None:
        posted = await delivery_for(bot).catch_up_boards()
        if posted:
            log.info("posted %d board(s) left behind by the last shutdown", posted)

    async def forget_answered_moves() -> None:
        pending = getattr(bot, "_pending_moves", None)  # only if a move was ever recorded
        if pending is not None:
            await pending.flush()

    bot.ready_hooks.setdefault("answer moves left in flight", answer_moves_left_in_flight)
    bot.ready_hooks.setdefault("post boards left behind", post_boards_left_behind)
    async def defer_held_answers() -> None:
        # A move answered with its result holds its answer for a moment: acknowledged now,
        # it is one the next process can still answer (a crash cannot, which a clean stop can).
        await settle_held_answers(bot)

    async def stop_retrying_boards() -> None:
        # A refused board waiting for its next try: its moves are stored, the next start
        # posts it (`catch_up_boards`).
        stopped = await delivery_for(bot).stop_retrying()
        if stopped:
            log.info("left %d refused board(s) for the next start to post", stopped)

    async def write_held_summary_dms() -> None:
        # Summary DM edits held back for their settle window are written now: a clean stop
        # leaves no DM behind its game (after a crash, the next move's refresh reads each DM
        # back and writes what differs).
        games = await delivery_for(bot).flush_all_summaries()
        if games:
            log.info("wrote the held summary DMs of %d game(s) before closing", games)

    bot.close_hooks.setdefault("defer held answers", defer_held_answers)
    bot.close_hooks.setdefault("write held summary DMs", write_held_summary_dms)
    bot.close_hooks.setdefault("stop retrying boards", stop_retrying_boards)
    bot.close_hooks.setdefault("forget answered moves", forget_answered_moves)

    async def stop_load_gauge() -> None:
        await stop_gauge(bot)

    bot.close_hooks.setdefault("stop the load gauge", stop_load_gauge)
