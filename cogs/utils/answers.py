"""A move's interaction answered with its result when the move is quick, deferred when not.

Discord wants an interaction answered within 3 seconds. Deferring at once and sending the
result afterwards costs two requests per move (the deferral, then a follow-up or an edit); a
move that is played and shown within a short grace can instead carry its result in the one
initial response: "Done: …" for a typed command (type 4), the edited board post or private
menu for a press (type 7, UPDATE_MESSAGE). A `HeldAnswer` keeps the initial response open
for that grace; when the grace runs out first it defers exactly as before (type 5 or 6), and
the result goes out the old way. Whoever answers first `take`s the response, so it is never
answered twice.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import discord


class HeldAnswer:
    """The initial response of `interaction`, kept open for `grace` seconds.

    `thinking`: the fallback is an ephemeral "thinking…" reply (a typed command), else a
    deferred update of the pressed message (a button or menu press)."""

    def __init__(self, interaction: discord.Interaction[Any], grace: float,
                 *, thinking: bool) -> None:
        self.interaction = interaction
        self.thinking = thinking
        self._firing = False
        # The bot's fallback for presses nobody answers (`GameBot.on_interaction`) leaves
        # this one alone: it is answered, by its taker or by the deferral.
        interaction.extras["held"] = self
        self._book = held_answers(interaction.client)
        self._book.add(self)
        self._timer: asyncio.Task[None] | None = asyncio.get_running_loop().create_task(
            self._defer_later(grace), name=f"defer-{interaction.id}")

    async def _defer_later(self, grace: float) -> None:
        await asyncio.sleep(grace)
        self._firing = True
        if self.interaction.response.is_done():
            return
        with contextlib.suppress(discord.HTTPException):
            if self.thinking:
                await self.interaction.response.defer(ephemeral=True, thinking=True)
            else:
                await self.interaction.response.defer()

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


async def settle_held_answers(bot: Any) -> None:
    """Before the bot closes: defer every answer it holds, so the moves in flight are
    acknowledged and the next process can answer them by token (cogs/utils/pending.py)."""
    held = list(held_answers(bot))
    if held:
        await asyncio.gather(*(h.settle() for h in held), return_exceptions=True)
