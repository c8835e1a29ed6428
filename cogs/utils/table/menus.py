"""Private menus (**My choices**) for seats without a summary DM: ephemeral messages that follow
the game until their token dies (`PrivateMenus`)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot import limits
from bot.limits import clip
from bot.storage import GameRecord
from cogs.utils.answers import HeldAnswer
from cogs.utils.table.components import (
    _decision_token,
    _seat_index,
    action_hash,
    action_view,
    board_actions,
    game_of,
)
from cogs.utils.table.words import is_guided
from cogs.utils.tokens import edit_original, token_webhook
from rules.core import Action
from rules.core.game import Game

if TYPE_CHECKING:
    from bot.client import GameBot

log = logging.getLogger(__name__)


def menu_content(game: Game[Any, Any], state: Any, seat: str, gid: int, epoch: int,
                 actions: list[Action], guided: bool = False) -> tuple[str, discord.ui.View]:
    """A private menu: the question (or "Your choices") and every choice of `seat`; at a
    guided table also why it matters."""
    text = game.prompt_text(state, seat) or f"Your choices, {game.seat_label(state, seat)}:"
    if guided:
        # Only this seat reads it: the hint may explain a hidden prompt's purpose too.
        hint = game.guide_text(state, seat, private=True)
        text = f"{text}\n{'' if game.plain_words(state) else '💡 '}{hint}" if hint else text
    return clip(text, limits.CONTENT), action_view(gid, game, state, seat, actions,
                                                   extras=False, epoch=epoch)


def menu_key(game: Game[Any, Any], state: Any, seat: str, epoch: int,
             actions: list[Action]) -> str:
    """What a private menu shows, to skip edits that would change nothing."""
    return _decision_token(game.decision_id(state, seat), epoch) + ":" + ",".join(
        action_hash(a) for a in actions)


GONE_MENU = ("You no longer play this seat in game #{gid}, so its choices are no longer "
             "shown here.")
"""What an old player's private menu says once their seat is handed to someone else."""

MENU_TOKEN_LIFE = 14 * 60.0
"""Seconds an interaction token may still edit its messages (Discord allows 15 minutes)."""


@dataclass
class MenuRef:
    """One seat's private menu: the ephemeral message and the token that may edit it, and
    the user who opened it (an ephemeral message is read by its user only, whoever holds the
    seat now: issue #21)."""

    user_id: int
    token: str
    message_id: int
    original: bool  # the token's @original (else one of its follow-ups)
    at: float
    shown: str = ""
    label: str = ""  # the choice just made on it, for its "done" line


class PrivateMenus:
    """Private menus (**My choices**) that follow the game instead of piling up (issue #14).

    The newest menu of each seat is remembered (in memory: after a restart **My choices**
    opens a new one) with the newest token allowed to edit it. After every delivered move it is
    edited to show the seat's choices now while the game waits for the seat, so a player who
    opened it makes each further private move with one click; when nothing waits for the seat
    it says so in one line (no "✅" litter). A menu a
    newer one replaces is deleted. When a board button leaves its presser with choices that
    are all private, the menu is offered at once (an ephemeral follow-up of that press)."""

    def __init__(self, bot: GameBot, has_panel: Callable[[int, str], bool]) -> None:
        self.bot = bot
        # Whether a seat's summary DM carries its choices (delivery's `has_panel`): then no
        # menu is offered, the DM shows them one click away.
        self.has_panel = has_panel
        self.refs: dict[tuple[int, str], MenuRef] = {}
        # token -> the open answer of a press on that token's menu: the menu's next edit is
        # that answer (type 7), not a request of its own.
        self.held: dict[str, HeldAnswer] = {}
        # (game id, seat) -> (its lines, their words: `answer_news`): the private news a
        # press on the seat's own menu brought it, for that menu's next edit to carry — an
        # ephemeral message only the presser reads, like a typed move's answer — so their
        # summary DM need not be written for it at once (`SummaryDMs.note_private`).
        self.news: dict[tuple[int, str], tuple[int, str]] = {}
        # (game id, seat) -> (lines, whether the menu's edit carried them), for the press to
        # report (`SummaryDMs.answer_sent`: the DM is written at once if not).
        self.told: dict[tuple[int, str], tuple[int, bool]] = {}

    def live(self, gid: int, seat: str, user_id: int | None = None) -> MenuRef | None:
        """The seat's open menu (opened by `user_id`, when given), if its token still edits."""
        ref = self.refs.get((gid, seat))
        if ref is None or asyncio.get_running_loop().time() - ref.at > MENU_TOKEN_LIFE:
            return None
        if user_id is not None and ref.user_id != user_id:
            return None
        return ref

    async def keep(self, gid: int, seat: str, user_id: int, token: str, message_id: int, *,
                   original: bool, shown: str = "", label: str = "") -> None:
        old = self.refs.get((gid, seat))
        same = old is not None and old.message_id == message_id
        self.refs[(gid, seat)] = MenuRef(user_id, token, message_id, original,
                                         asyncio.get_running_loop().time(),
                                         shown=old.shown if same and old else shown,
                                         label=label)
        if old is not None and not same:
            await self._delete(old)

    async def release(self, gid: int, seat: str, user_id: int | None = None) -> None:
        """The seat changed hands (`/game replace`): its menu stops following the game. The
        menu is the old player's own ephemeral message, so it is blanked to one line with no
        choices (not left showing what it showed, nor rewritten with what the seat holds
        next) and forgotten; the new player opens their own with **My choices**."""
        ref = self.refs.get((gid, seat))
        if ref is None or (user_id is not None and ref.user_id != user_id):
            return
        self.refs.pop((gid, seat), None)
        self.held.pop(ref.token, None)
        try:
            await self._edit(ref, GONE_MENU.format(gid=gid), None)
        except discord.HTTPException:
            # Its token is too old to edit (and so to show anything new): deleting it is the
            # last resort, best effort too.
            await self._delete(ref)

    def unlabel(self, gid: int, seat: str) -> None:
        ref = self.refs.get((gid, seat))
        if ref is not None:
            ref.label = ""

    async def offer(self, interaction: discord.Interaction[Any], gid: int, seat: str) -> None:
        """After a board press: the presser's next choices, if none of them is on the board."""
        if self.live(gid, seat, interaction.user.id) is not None:
            return  # their open menu shows them already (refreshed with the move)
        if self.has_panel(gid, seat):
            return  # their summary DM shows them (refreshed with the move), one click away
        record = await self.bot.storage.get_game(gid)
        if record is None or record.status != "active":
            return
        game = game_of(record)
        state = await self.bot.tables.state(gid)
        awaited = sorted(game.to_act(state), key=lambda s: _seat_index(state, s))
        if seat not in awaited:
            return
        actions = game.legal_actions(state, seat)
        users = await self.bot.tables.users_of(gid)
        if not actions or board_actions(game, state, seat, awaited, users):
            return
        text, view = menu_content(game, state, seat, gid, record.epoch, actions,
                                  guided=is_guided(record, game))
        try:
            menu = await interaction.followup.send(text, view=view, ephemeral=True, wait=True)
        except discord.HTTPException:
            log.info("game %s: could not offer %s its private choices", gid, seat)
            return
        await self.keep(gid, seat, interaction.user.id, interaction.token, menu.id,
                        original=False, shown=menu_key(game, state, seat, record.epoch, actions))

    async def refresh(self, record: GameRecord, state: Any) -> None:
        """After a move: every live menu of this game shows its seat's choices now."""
        game = game_of(record)
        over = record.status != "active" or game.result(state) is not None
        mine = [(seat, ref) for (gid, seat), ref in self.refs.items() if gid == record.id]
        # Who holds each seat now: a menu is rewritten only for the player who holds its seat
        # (read only when a menu is open; the store keeps it between moves). A seat that
        # changed hands without `release` (another process replaced the player) is blanked.
        users = await self.bot.tables.users_of(record.id) if mine else {}
        for seat, ref in mine:
            gid = record.id
            if self.live(gid, seat) is None:
                self.refs.pop((gid, seat), None)
                continue
            if users.get(seat) != ref.user_id:
                await self.release(gid, seat, ref.user_id)
                continue
            # Only an awaited seat's menu follows every move: an idle one is told once that
            # nothing waits for it (its optional off-turn actions are a My choices press away).
            actions = ([] if over or seat not in game.to_act(state)
                       else game.legal_actions(state, seat))
            done = f"Done: {ref.label}. " if ref.label else ""
            view: discord.ui.View | None = None
            if over:
                text, shown = f"{done}The game is over.", "over"
            elif actions:
                text, view = menu_content(game, state, seat, gid, record.epoch, actions,
                                          guided=is_guided(record, game))
                shown = menu_key(game, state, seat, record.epoch, actions)
            else:
                text = (f"{done}Nothing for you to choose right now; {game.waiting_text(state)} "
                        "Your next choices will show here.")
                shown = "idle"
            lines, news = self.news.pop((gid, seat), (0, ""))
            held = self.held.get(ref.token) if ref.original else None
            if lines and (len(news) + 2 + len(text) > limits.CONTENT or (
                    shown == ref.shown and (held is None or not held.open))):
                # No room beside the question (a long prompt), or an edit made for the news
                # alone that would cost a request of its own (the press's answer is spent: a
                # loaded bot deferred it), as dear as the DM's: the DM carries the news.
                self.told[(gid, seat)] = (lines, False)
                lines, news = 0, ""
            if shown == ref.shown and not lines:
                continue
            try:
                # Below the menu's own words ("Done: …", its question), as a typed move's
                # answer says what was done first.
                await self._edit(ref, clip(f"{text}\n\n{news}" if lines else text,
                                           limits.CONTENT), view)
            except discord.HTTPException:
                self.refs.pop((gid, seat), None)
                if lines:
                    self.told[(gid, seat)] = (lines, False)
                continue
            if lines:
                self.told[(gid, seat)] = (lines, True)
            ref.shown, ref.label = shown, ""
            if over:
                self.refs.pop((gid, seat), None)

    def carried(self, gid: int, seat: str) -> tuple[int, bool]:
        """After a press on `seat`'s menu was delivered: how many private lines its news was
        (0: none) and whether the menu's edit carried them (not if the menu was gone, could
        not be edited, or had no room: then the summary DM must be written at once)."""
        lines, _ = self.news.pop((gid, seat), (0, ""))
        if lines:
            return lines, False
        return self.told.pop((gid, seat), (0, False))

    async def _edit(self, ref: MenuRef, text: str, view: discord.ui.View | None) -> None:
        held = self.held.get(ref.token) if ref.original else None
        if held is not None and await held.take():
            try:
                await held.interaction.response.edit_message(
                    content=text, view=view, allowed_mentions=discord.AllowedMentions.none())
                return
            except discord.HTTPException:
                log.info("could not answer a menu press with its menu; editing it instead")
        if ref.original:
            await edit_original(self.bot, ref.token, text, view)
            return
        await token_webhook(self.bot, ref.token).edit_message(
            ref.message_id, content=text, view=view,
            allowed_mentions=discord.AllowedMentions.none())

    async def _delete(self, ref: MenuRef) -> None:
        """Take away a menu a newer one replaced (best effort: its token may be too old)."""
        try:
            await token_webhook(self.bot, ref.token).delete_message(ref.message_id)
        except discord.HTTPException:
            log.info("could not delete a replaced private menu")
