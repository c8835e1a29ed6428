"""A move's interaction answered with its result when the move is quick, deferred when not.

Discord wants an interaction answered within 3 seconds of the press. Deferring at once and
sending the result afterwards costs two requests per move (the deferral, then a follow-up or an
edit); a move that is played and shown within a short grace can instead carry its result in the
one initial response: "Done: …" for a typed command (type 4), the edited board post or private
menu for a press (type 7, UPDATE_MESSAGE). A `HeldAnswer` keeps the initial response open for
that grace; when the grace runs out first it defers exactly as before (type 5 or 6), and the
result goes out the old way. Whoever answers first `take`s the response, so it is never
answered twice.

Holding is only done while the bot can afford it (`hold_plan`): Discord's clock counts from the
press, so the interaction's own age comes off the grace, and the fallback must be out by
`DEFER_BY` seconds of age at worst, the loop's lag counted in (its timer wakes that late, and so
does the request). A busy bot (`bot.pressure`: loop lag, moves, boards and renders queued,
answers held) waits for no result it can do without: a typed move is answered with its words
as soon as the move is stored ("Playing: …", one request and final — the board in the thread
shows the result; stored first so the words carry the mover's private news, `stored`), or
`BUSY_GRACE` after the press should storing take longer; a press, which has no words, waits
`BUSY_GRACE` after the press at most. A swamped loop holds nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable
from typing import Any

import discord
from discord import app_commands
from pydantic import BaseModel

from bot.clock import clock_of
from bot.pressure import Pressure, gauge_of

log = logging.getLogger(__name__)

DEFER_BY = 1.5
"""Seconds of an interaction's age by which its answer (or the deferral standing in for it) has
gone out at worst: half of Discord's 3, the other half for a loop that stalls meanwhile."""

SEND_MARGIN = 0.15
"""Seconds kept for the answer's own request to leave a slow machine."""

MIN_HOLD = 0.02
"""A hold shorter than this is no hold: the fallback goes at once."""

BUSY_GRACE = 0.25
"""Seconds after the press a busy bot still waits for a result that has no words to stand in
for it (a press's edited post), however long the quiet grace (a DM press's 2 s)."""


class HoldPlan(BaseModel):
    """How long an answer is held open, and for what (seconds from the hold's start)."""

    seconds: float
    """Until when the move's result may still be the answer; 0: it is not waited for."""
    words_by: float
    """Until when the move's words may still be the answer (a typed move still being chosen
    when the result's time is up); then, at the latest, the deferral goes. 0: at once."""
    for_result: bool
    """Whether to wait for the move's result (quiet) or answer with its words as soon as they
    are known (busy)."""


NO_HOLD = HoldPlan(seconds=0.0, words_by=0.0, for_result=False)


def hold_plan(age: float, grace: float, pressure: Pressure) -> HoldPlan:
    """How long an interaction `age` seconds old may hold its answer, given `grace` (how long
    after the press a quiet bot answers at the latest; 0: never hold) and the bot's
    `pressure` now."""
    lag = pressure.lag_ms / 1000
    # The timer wakes about one lag late and the request needs the loop once more.
    budget = DEFER_BY - age - SEND_MARGIN - 2 * lag
    if grace <= 0 or pressure.swamped or budget < MIN_HOLD:
        return NO_HOLD
    # The grace counts from the press too: time the move spent reaching the hold (a slow
    # gateway, its record queued behind other writes) is not added to the player's wait.
    seconds = min(grace - age, budget)
    if pressure.busy:
        seconds = min(seconds, BUSY_GRACE - age)
    if seconds < MIN_HOLD:
        seconds = 0.0
    return HoldPlan(seconds=round(seconds, 3), words_by=round(budget, 3),
                    for_result=seconds > 0 and not pressure.busy)


def age_of(interaction: discord.Interaction[Any]) -> float:
    """Seconds since the player pressed or typed (Discord stamps the interaction's id), by
    Discord's time as the bot knows it (`bot.clock`): a host clock behind Discord's made a
    press look younger than it was, and its answer held past Discord's 3 s (stop 69)."""
    return max(0.0, clock_of(interaction.client).now() - interaction.created_at.timestamp())


class HeldAnswer:
    """The initial response of `interaction`, kept open for `grace` seconds at most — less,
    or not at all, when the bot cannot afford it (`hold_plan`).

    `thinking`: the fallback is an ephemeral "thinking…" reply (a typed command), else a
    deferred update of the pressed message (a button or menu press)."""

    def __init__(self, interaction: discord.Interaction[Any], grace: float,
                 *, thinking: bool, words: bool = False) -> None:
        self.interaction = interaction
        self.thinking = thinking
        self._firing = False
        self._words: str | None = None
        self._words_known = asyncio.Event()
        self.in_words = False
        """Answered with the move's words (`words`), final: no "Done" follows."""
        self.news = ""
        """The mover's private news (`answer_news`), known once the move is stored
        (`stored`): every answer sent from then on carries it, its words or its "Done"."""
        self.news_lines = 0
        """How many private lines `news` carries (0: none, or none promised to it)."""
        self.news_sent = False
        """Whether the answer in words carried `news`."""
        self._stored = False
        # The bot's fallback for presses nobody answers (`GameBot.on_interaction`) leaves
        # this one alone: it is answered, by its taker or by the deferral.
        interaction.extras["held"] = self
        bot = interaction.client
        self._book = held_answers(bot)
        plan = hold_plan(age_of(interaction), grace, gauge_of(bot).read())
        if not (thinking and words):
            # No words will come (a press answers with what it pressed, edited): the result
            # is waited for as long as the plan allows (a sleeping timer costs the loop
            # nothing; a busy bot's plan is short), then the deferral goes.
            plan = plan.model_copy(update={"words_by": plan.seconds,
                                           "for_result": plan.seconds > 0})
        self.plan = plan
        self._book.add(self)
        self._timer: asyncio.Task[None] | None = asyncio.get_running_loop().create_task(
            self._defer_later(), name=f"defer-{interaction.id}")

    async def _defer_later(self) -> None:
        plan = self.plan
        await asyncio.sleep(plan.seconds)
        if self._words is None and plan.words_by > plan.seconds:
            # The result's time is up and the move is still being chosen: its words, when
            # they come in time, answer it in one request (and no edit after it).
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._words_known.wait(), plan.words_by - plan.seconds)
        self._firing = True
        if self.interaction.response.is_done():
            return
        if self._words is not None and plan.words_by > 0:
            await self._send_words(self._words)
            return
        with contextlib.suppress(discord.HTTPException):
            if self.thinking:
                await self.interaction.response.defer(ephemeral=True, thinking=True)
            else:
                await self.interaction.response.defer()

    async def _send_words(self, text: str) -> None:
        news = self.news
        with contextlib.suppress(discord.HTTPException):
            await self.interaction.response.send_message(
                f"{text}\n{news}" if news else text, ephemeral=True,
                allowed_mentions=discord.AllowedMentions.none())
            self.in_words = True
            self.news_sent = bool(news)

    async def words(self, text: str) -> None:
        """The move's answer in words, known before its result (a typed command's "Playing:
        …"): sent now, final, when the bot is too busy to wait for the result; else kept, to
        go instead of the deferral should the result come late."""
        if not self.thinking:
            return  # a press answers with what it pressed, edited: it has no words
        self._words = text
        self._words_known.set()
        if self.plan.for_result or self.plan.words_by == 0 or not self.open:
            return  # waiting for the result (the timer sends them if it is late); or deferred
        if not self._stored:
            # Busy: the words go once the move is stored (`stored`), carrying the mover's
            # private news so their summary DM need not be written at once for it; or by
            # the plan's time (`BUSY_GRACE` after the press), should storing take longer.
            return
        if await self.take():
            await self._send_words(text)

    async def stored(self, news: str = "", lines: int = 0) -> None:
        """The move is stored: `news`, the mover's private news (`lines` of it, promised to
        this answer), rides on whichever answer goes from now on; a busy bot's words that
        waited for this go now."""
        self.news, self.news_lines, self._stored = news, lines, True
        if self._words is not None and not self.plan.for_result and self.plan.words_by > 0 \
                and self.open and await self.take():
            await self._send_words(self._words)

    @property
    def open(self) -> bool:
        """Whether the initial response may still be taken (no deferral sent or on its way)."""
        return self._timer is not None and not self._firing

    async def take(self) -> bool:
        """True: the caller now owns the initial response and must send it (the deferral is
        called off). False: the interaction was deferred (that request has completed), so
        the result goes out as a follow-up or an edit."""
        timer, self._timer = self._timer, None
        self._book.discard(self)
        if timer is None:
            return False
        if not self._firing:
            timer.cancel()
            return True
        with contextlib.suppress(asyncio.CancelledError):
            await timer
        return False

    async def settle(self) -> None:
        """Make sure the interaction is answered one way or the other: if nobody answered it
        (nobody took the response, or whoever took it could not send it), defer it now."""
        await self.take()
        if not self.interaction.response.is_done():
            with contextlib.suppress(discord.HTTPException):
                if self.thinking:
                    await self.interaction.response.defer(ephemeral=True, thinking=True)
                else:
                    await self.interaction.response.defer()


def held_answers(bot: Any) -> set[HeldAnswer]:
    """The answers `bot` holds open now."""
    book: set[HeldAnswer] | None = getattr(bot, "_held_answers", None)
    if book is None:
        book = set()
        bot._held_answers = book
    return book


async def stop_gauge(bot: Any) -> None:
    """Before the bot closes: stop its load gauge's probe."""
    gauge = getattr(bot, "_load_gauge", None)
    if gauge is not None:
        await gauge.stop()


async def settle_held_answers(bot: Any) -> None:
    """Before the bot closes: defer every answer it holds, so the moves in flight are
    acknowledged and the next process can answer them by token (cogs/utils/pending.py)."""
    held = list(held_answers(bot))
    if held:
        await asyncio.gather(*(h.settle() for h in held), return_exceptions=True)


def _drop_late(task: asyncio.Task[Any]) -> None:
    if not task.cancelled() and (exc := task.exception()) is not None:
        log.info("late suggestions failed: %r", exc)


async def in_time(interaction: discord.Interaction[Any],
                  suggest: Awaitable[list[app_commands.Choice[str]]]
                  ) -> list[app_commands.Choice[str]]:
    """`suggest`'s choices, or none when they are not ready by `DEFER_BY` seconds of the
    interaction's age: Discord drops an autocomplete not answered within 3 s, and the bot's
    own fallback answers at 2.25 s, late under load (stop 70: storage reads queued behind
    other games' writes). The late read is left to finish, not cancelled mid-statement."""
    task = asyncio.ensure_future(suggest)
    budget = max(DEFER_BY - age_of(interaction), 0.05)
    done, _ = await asyncio.wait({task}, timeout=budget)
    if task in done:
        return task.result()
    task.add_done_callback(_drop_late)
    log.info("autocomplete %s answered with no suggestions: not ready within %.2fs",
             interaction.id, budget)
    return []
