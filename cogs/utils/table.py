"""Playing a game on Discord: restart-proof components, one play path, and event delivery.

Every choice the engine offers becomes a button or a select built from `legal_actions`: the
public part of the awaited player's choices (`Game.public_actions`) on the board post itself, one
click; the rest (choices that name hidden cards) on the seat's summary DM, its private control
panel (`panel_actions`, `Delivery.refresh_summaries`), also one click, at any time: a DM is a
normal message the bot may edit for as long as the game runs, where an ephemeral menu's token
dies after 15 minutes. A press there is answered by updating that DM in the interaction's own
response (`press_in_dm`). Seats without a summary DM (DMs closed) read them in a private menu
(**My choices**) that follows the game (`PrivateMenus`). Custom
ids name the game, the seat and the decision the seat faced (`Game.decision_id`), so a press
from an earlier turn is refused kindly and components keep working after a restart
(`DynamicItem`s are matched by template, not by a live View).

Delivery: public events go to the game's thread. A new board post (pinging whoever newly has to
decide; the previous post loses its buttons) comes only when the decision passes to someone
else or a new turn begins; while the same seats keep deciding, their post is edited in place
(new turn card, the stretch's event lines growing) and pings nobody (`Delivery.post_board`,
`BoardPost`, stored so a restart keeps the policy) — while it is younger than an hour: Discord
limits edits of older messages, so an old post is followed by a fresh one (`OLD_MESSAGE`). The
inline picture is the phone-sized turn card; **Full board** shows the whole board ephemerally,
rendered once per game version. Every upload carries alt text (`Game.alt_text`). Private events
go by DM to the seats allowed to see them; a DM that fails is reported in the thread without
the secret. Each seat's private summary (its hand and other secrets, `Game.private_summary`)
lives in one DM that is edited whenever the summary changes (H-02), so a hand that changes
every move costs no new DM.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import importlib.util
import io
import json
import logging
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord

from bot import limits, renderpool
from bot.limits import clip
from bot.storage import GameRecord
from bot.tables import TableError, ai_seat_name
from cogs.utils.answers import HeldAnswer
from cogs.utils.errors import answer_error, reply
from cogs.utils.pending import (
    hold_move,
    pending_for,
    pressed_label,
    refuse_if_late,
    tell_played,
)
from cogs.utils.tokens import ID, SMALL, edit_original, picked, readable, token_webhook
from renders.cardwords import card_alt_text
from rules.core import Action, Event, Result
from rules.core.game import ALT_TEXT_LIMIT, Game, fit_words, join_words, strip_rule_ids
from rules.registry import GAMES

if TYPE_CHECKING:
    from bot.client import GameBot

log = logging.getLogger(__name__)

MAX_BUTTONS = 20  # four rows of five; the fifth row holds "My hand" and "My choices"
SELECT_SIZE = limits.SELECT_OPTIONS
SELECTS_PER_PAGE = limits.ACTION_ROWS - 1  # the last row holds Back/More… and the extras
PAGE_SIZE = SELECT_SIZE * SELECTS_PER_PAGE


def action_hash(action: Action) -> str:
    """A short stable id for an action inside a custom id (ids are capped at 100 chars)."""
    return hashlib.sha1(action.key().encode()).hexdigest()[:10]


def game_of(record: GameRecord) -> Game[Any, Any]:
    game = GAMES.get(record.game)
    if game is None:
        raise TableError(f"This server's bot no longer knows the game `{record.game}`.")
    return game


def _decision_token(decision: str, epoch: int = 0) -> str:
    # Custom ids carry it between colons: keep it short and colon-free. Versions repeat after an
    # undo, so the game's undo count (`epoch`, never lowered) goes in too: a button from before
    # an undo never matches the decision the game reaches again afterwards.
    token = re.sub(r"[^A-Za-z0-9_.-]", "_", decision)
    token = token if len(token) <= 40 else hashlib.sha1(decision.encode()).hexdigest()[:16]
    return f"{token}.e{epoch}" if epoch else token


# ---- components ------------------------------------------------------------------------


class ActionButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                   template=rf"hb:a:(?P<gid>{ID}):(?P<seat>[\w-]+):(?P<dec>[\w.-]+):(?P<h>[0-9a-f]{{10}})"):
    """One legal action of one seat at one decision."""

    def __init__(self, gid: int, seat: str, decision: str, h: str, label: str = "…",
                 style: discord.ButtonStyle = discord.ButtonStyle.primary,
                 epoch: int = 0, *, token: str | None = None) -> None:
        """`decision` is the game's decision id; `token` the one read back from a custom id."""
        self.gid, self.seat, self.h = gid, seat, h
        self.decision = token if token is not None else _decision_token(decision, epoch)
        super().__init__(discord.ui.Button(
            label=clip(label, limits.BUTTON_LABEL), style=style,
            custom_id=f"hb:a:{gid}:{seat}:{self.decision}:{h}"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> ActionButton:
        return cls(int(match["gid"]), match["seat"], "", match["h"], token=match["dec"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await press(interaction, self.gid, self.seat, self.decision, self.h)


class ActionSelect(discord.ui.DynamicItem[discord.ui.Select[Any]],
                   template=rf"hb:s:(?P<gid>{ID}):(?P<seat>[\w-]+):(?P<dec>[\w.-]+):(?P<n>{SMALL})"):
    """A menu of legal actions when there are too many for buttons."""

    def __init__(self, gid: int, seat: str, decision: str, n: int = 0,
                 options: list[discord.SelectOption] | None = None,
                 placeholder: str = "Choose…", epoch: int = 0, *,
                 token: str | None = None) -> None:
        self.gid, self.seat = gid, seat
        self.decision = token if token is not None else _decision_token(decision, epoch)
        super().__init__(discord.ui.Select(
            custom_id=f"hb:s:{gid}:{seat}:{self.decision}:{n}",
            options=options or [discord.SelectOption(label="…", value="0")],
            placeholder=clip(placeholder, limits.PLACEHOLDER), min_values=1, max_values=1))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> ActionSelect:
        return cls(int(match["gid"]), match["seat"], "", int(match["n"]), token=match["dec"])

    def _refresh_state(self, interaction: discord.Interaction[Any], data: dict[str, Any]) -> None:
        # discord.py reads the values before our callback: malformed ones must not crash it.
        super()._refresh_state(interaction, readable(data))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        values = picked(interaction)
        if not values:
            await reply(interaction, "Pick one of the options in the menu.")
            return
        await press(interaction, self.gid, self.seat, self.decision, str(values[0]))


class HandButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                 template=rf"hb:hand:(?P<gid>{ID})"):
    """Answers ephemerally with what only the presser's seat may see."""

    def __init__(self, gid: int) -> None:
        self.gid = gid
        super().__init__(discord.ui.Button(label="My hand", emoji="🂠",
                                           style=discord.ButtonStyle.secondary,
                                           custom_id=f"hb:hand:{gid}"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> HandButton:
        return cls(int(match["gid"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            await show_hand(interaction, self.gid)
        except Exception as exc:
            await answer_error(interaction, exc)


class ChoicesButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                    template=rf"hb:play:(?P<gid>{ID})"):
    """Answers ephemerally with the presser's own legal actions as components."""

    def __init__(self, gid: int) -> None:
        self.gid = gid
        super().__init__(discord.ui.Button(label="My choices", emoji="🎲",
                                           style=discord.ButtonStyle.success,
                                           custom_id=f"hb:play:{gid}"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> ChoicesButton:
        return cls(int(match["gid"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            await show_choices(interaction, self.gid)
        except Exception as exc:
            await answer_error(interaction, exc)


class PageButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                 template=rf"hb:pg:(?P<gid>{ID}):(?P<seat>[\w-]+):(?P<dec>[\w.-]+):(?P<page>{SMALL})"):
    """More…/Back between pages of one seat's choices when they do not fit one message."""

    def __init__(self, gid: int, seat: str, decision: str, page: int, label: str = "…",
                 *, token: str | None = None, epoch: int = 0) -> None:
        self.gid, self.seat, self.page = gid, seat, page
        self.decision = token if token is not None else _decision_token(decision, epoch)
        super().__init__(discord.ui.Button(
            label=clip(label, limits.BUTTON_LABEL), style=discord.ButtonStyle.secondary,
            custom_id=f"hb:pg:{gid}:{seat}:{self.decision}:{page}"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> PageButton:
        return cls(int(match["gid"]), match["seat"], "", int(match["page"]), token=match["dec"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await turn_page(interaction, self.gid, self.seat, self.decision, self.page)




class FullBoardButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                      template=rf"hb:full:(?P<gid>{ID})"):
    """Answers ephemerally with the whole public board (anyone may look: it is public)."""

    def __init__(self, gid: int) -> None:
        self.gid = gid
        super().__init__(discord.ui.Button(label="Full board",
                                           style=discord.ButtonStyle.secondary,
                                           custom_id=f"hb:full:{gid}"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> FullBoardButton:
        return cls(int(match["gid"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            await show_full_board(interaction, self.gid)
        except Exception as exc:
            await answer_error(interaction, exc)


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    ActionButton, ActionSelect, HandButton, ChoicesButton, PageButton,
    FullBoardButton)


def action_view(gid: int, game: Game[Any, Any], state: Any, seat: str,
                actions: list[Action], *, extras: bool = True, epoch: int = 0,
                page: int = 0) -> discord.ui.View:
    """Components for `seat`'s `actions`: buttons when few, menus when many, in pages of four
    menus of 25 with More…/Back buttons when even those do not hold them all (every answer
    stays reachable). `epoch` is the game record's undo count; `page` counts from 0."""
    view = discord.ui.View(timeout=None)
    decision = game.decision_id(state, seat)
    # One entry per answer: a repeated value would make Discord refuse the whole message.
    unique = list({action_hash(a): a for a in actions}.items())
    if len(unique) <= MAX_BUTTONS:
        for i, (h, action) in enumerate(unique):
            style = (discord.ButtonStyle.secondary if action.kind in ("pass", "end_turn", "decline")
                     else discord.ButtonStyle.primary)
            button = ActionButton(gid, seat, decision, h,
                                  game.describe(state, seat, action), style, epoch=epoch)
            button.item.row = i // 5
            view.add_item(button)
    else:
        pages = (len(unique) + PAGE_SIZE - 1) // PAGE_SIZE
        page = max(0, min(page, pages - 1))
        start = page * PAGE_SIZE
        shown = unique[start:start + PAGE_SIZE]
        for row, first in enumerate(range(0, len(shown), SELECT_SIZE)):
            chunk = shown[first:first + SELECT_SIZE]
            n = (start + first) // SELECT_SIZE  # unique across pages: it names the menu
            options = [discord.SelectOption(
                label=clip(game.describe(state, seat, a), limits.SELECT_LABEL), value=h)
                for h, a in chunk]
            low, high = start + first + 1, start + first + len(chunk)
            select = ActionSelect(gid, seat, decision, n, options,
                                  placeholder=f"Choose ({low}–{high} of {len(unique)})",
                                  epoch=epoch)
            select.item.row = row
            view.add_item(select)
        if page > 0:
            back = PageButton(gid, seat, decision, page - 1, f"Back (page {page} of {pages})",
                              epoch=epoch)
            back.item.row = SELECTS_PER_PAGE
            view.add_item(back)
        if page < pages - 1:
            more = PageButton(gid, seat, decision, page + 1,
                              f"More… (page {page + 2} of {pages})", epoch=epoch)
            more.item.row = SELECTS_PER_PAGE
            view.add_item(more)
    if extras:
        for item in (HandButton(gid), ChoicesButton(gid), FullBoardButton(gid)):
            item.item.row = limits.ACTION_ROWS - 1
            view.add_item(item)
    return view


def table_buttons(gid: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(HandButton(gid))
    view.add_item(ChoicesButton(gid))
    view.add_item(FullBoardButton(gid))
    return view


def board_actions(game: Game[Any, Any], state: Any, seat: str, awaited: list[str],
                  users: dict[str, int | None]) -> list[Action]:
    """`seat`'s choices that are buttons on the public board post: the public part of its
    legal actions (`Game.public_actions`) when it alone is awaited and a person plays it. The
    rest are read under **My choices**, whose button every board post carries whatever the
    seat holds, so its presence tells nobody anything."""
    if awaited != [seat] or not users.get(seat):
        return []
    return game.public_actions(state, seat)


def panel_actions(game: Game[Any, Any], state: Any, seat: str) -> list[Action]:
    """`seat`'s private choices now, for the buttons on its summary DM (a person plays it):
    while the game waits for it, every legal action the board post does not offer it. None
    when it is not awaited (its optional off-turn actions stay a **My choices** press away)."""
    if game.result(state) is not None:
        return []
    awaited = sorted(game.to_act(state), key=lambda s: _seat_index(state, s))
    if seat not in awaited:
        return []
    on_board = {action_hash(a) for a in board_actions(game, state, seat, awaited, {seat: 1})}
    return [a for a in game.legal_actions(state, seat) if action_hash(a) not in on_board]


# ---- the play path ---------------------------------------------------------------------


async def current_choice(interaction: discord.Interaction[Any], gid: int, seat: str,
                         decision: str) -> tuple[GameRecord, Game[Any, Any], Any]:
    """The game, for a press on `seat`'s components at `decision`: refused (TableError) unless
    the presser plays that seat and the decision is still the game's."""
    bot: GameBot = interaction.client  # type: ignore[assignment]
    record = await bot.storage.get_game(gid)
    if record is None:
        raise TableError("That game no longer exists.")
    game = game_of(record)
    my_seat = await bot.tables.seat_of(gid, interaction.user.id)
    if my_seat is None:
        await refuse_spectator(bot, gid, interaction.user.id)
        raise TableError("You're not playing in this game — these buttons are for its "
                         "players. You can follow along in the thread.")
    await bot.tables.came_back(gid, interaction.user.id)
    state = await bot.tables.state(gid)
    if my_seat != seat:
        # Named as every post names a seat, player and character together ("bob (the
        # Psychologist)"), never the character alone. A crafted id may name a seat the game
        # does not have: no name to look up.
        names = await delivery_for(bot).names(await bot.tables.users_of(gid))
        whose = (game.player_name(state, seat, names) if seat in state.seats
                 else "another player")
        raise TableError(f"These choices are for {whose}. "
                         "Press **My choices** to see yours.")
    if record.status != "active":
        raise TableError("This game is over; nothing more can be played in it.")
    if _decision_token(game.decision_id(state, seat), record.epoch) != decision:
        message = interaction.message
        if in_dm(interaction):
            raise TableError("That has moved on: the game changed since these buttons were "
                             "shown, so nothing was played. This message shows your choices "
                             "now (it follows every move), or press **My choices** on the "
                             "newest board post.")
        if message is not None and not message.components:
            # The press raced the board losing its buttons (another move came first).
            raise TableError("That board has moved on — use the latest board post in the "
                             "thread, or press **My choices**.")
        raise TableError("That button is from an earlier moment of the game and no longer "
                         "applies. Use the newest board post, or press **My choices**.")
    return record, game, state


def in_dm(interaction: discord.Interaction[Any]) -> bool:
    """Whether the press came from a seat's summary DM (its private control panel): a normal
    message in a DM, not an ephemeral menu."""
    message = interaction.message
    return (interaction.guild_id is None and message is not None
            and not message.flags.ephemeral)


DM_ANSWER_WITHIN = 2.0
"""Seconds a DM press waits for its move before acknowledging plainly (Discord allows 3)."""


async def press_in_dm(interaction: discord.Interaction[Any], gid: int, seat: str,
                      decision: str, h: str) -> None:
    """A press on a seat's summary DM: play it, and answer by updating that DM to the seat's
    summary and choices after the move, in the same request (`Delivery.answer_in_dm`).

    The answer is held for the move (`HeldAnswer`, 2 s at most), so a crash in those
    milliseconds leaves the press unacknowledged ("This interaction failed") and its pending
    row unanswerable; the restarted bot's catch-up then rewrites the DM to the game as stored,
    which is the player's answer."""
    bot: GameBot = interaction.client  # type: ignore[assignment]
    pending = pending_for(bot)
    answer = HeldAnswer(interaction, DM_ANSWER_WITHIN, thinking=False)
    try:
        # Recorded before the answer, like every move (cogs/utils/pending.py); a restart's
        # news comes as a follow-up, never over the summary.
        await refuse_if_late(interaction, game_id=gid, what=pressed_label(interaction))
        await pending.record(interaction, game_id=gid, what=pressed_label(interaction),
                             answer="followup")
        record, game, state = await current_choice(interaction, gid, seat, decision)
        matches = [a for a in game.legal_actions(state, seat) if action_hash(a) == h]
        if not matches:
            raise TableError("That choice is no longer available; this message shows your "
                             "choices now.")
        await play(interaction, record, matches[0], expected_version=state.step,
                   dm_answer=answer)
        await answer.settle()  # nothing to update: the move still landed
        if not interaction.response.is_done():  # Discord refused every answer: say so
            await tell_played(interaction, game_id=gid, what=pressed_label(interaction))
        pending.played(interaction.token)
    except Exception as exc:
        await pending.not_played(interaction.token)
        await answer_error(interaction, exc)


async def press(interaction: discord.Interaction[Any], gid: int, seat: str, decision: str,
                h: str) -> None:
    """A button or menu press: check it is the presser's and still current, then play it."""
    bot: GameBot = interaction.client  # type: ignore[assignment]
    if in_dm(interaction):
        await press_in_dm(interaction, gid, seat, decision, h)
        return
    held: HeldAnswer | None = None
    menus = delivery_for(bot).menus
    try:
        # Recorded before the answer: a crash from here on still gets the player an answer
        # after the restart (cogs/utils/pending.py). The answer itself is held for the move's
        # result: the pressed board post or menu, edited (one request, `HeldAnswer`).
        held = await hold_move(interaction, game_id=gid, what=pressed_label(interaction))
        record, game, state = await current_choice(interaction, gid, seat, decision)
        matches = [a for a in game.legal_actions(state, seat) if action_hash(a) == h]
        if not matches:
            raise TableError("That choice is no longer available. Press **My choices** "
                             "for what you can do now.")
        message = interaction.message
        on_menu = message is not None and message.flags.ephemeral
        if on_menu and message is not None:
            # The used menu is not left behind as litter: it follows the game (this press's
            # token can edit it for 15 minutes), showing the seat's next choices, or a line
            # saying there are none, once the move is delivered (`PrivateMenus.refresh`) —
            # in this press's answer when that comes within its grace.
            await menus.keep(gid, seat, interaction.user.id, interaction.token, message.id,
                             original=True, label=game.describe(state, seat, matches[0]))
            menus.held[interaction.token] = held
        await play(interaction, record, matches[0], expected_version=state.step,
                   held=None if on_menu else held)
        # Nothing took the answer (the move changed nothing this press shows): defer it.
        await held.settle()
        if not interaction.response.is_done():  # Discord refused every answer: say so
            await tell_played(interaction, game_id=gid, what=pressed_label(interaction))
        if not on_menu:
            await menus.offer(interaction, gid, seat)
        pending_for(bot).played(interaction.token)
    except Exception as exc:
        # A refused move is not "done": the menu's next refresh must not say it was.
        menus.unlabel(gid, seat)
        if held is not None:
            await held.take()
        await pending_for(bot).not_played(interaction.token)
        await answer_error(interaction, exc)
    finally:
        menus.held.pop(interaction.token, None)


async def turn_page(interaction: discord.Interaction[Any], gid: int, seat: str, decision: str,
                    page: int) -> None:
    """More…/Back: another page of `seat`'s choices. An ephemeral menu turns in place; a page
    of the public board comes to the presser alone (the board stays as everyone sees it)."""
    message = interaction.message
    dm = in_dm(interaction)
    in_place = dm or (message is not None and message.flags.ephemeral)
    try:
        if in_place:
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=True, thinking=True)
        record, game, state = await current_choice(interaction, gid, seat, decision)
        # A menu pages through all the seat's choices, a DM through its private ones, the
        # board's More… through the board's.
        actions = (panel_actions(game, state, seat) if dm
                   else game.legal_actions(state, seat) if in_place
                   else game.public_actions(state, seat))
        view = action_view(gid, game, state, seat, actions, extras=False, epoch=record.epoch,
                           page=page)
        if in_place:
            await interaction.edit_original_response(view=view)
        else:
            text = game.prompt_text(state, seat) or f"Your choices, {game.seat_label(state, seat)}:"
            await reply(interaction, text, view=view)
    except Exception as exc:
        await answer_error(interaction, exc)


async def play(interaction: discord.Interaction[Any], record: GameRecord, action: Action,
               expected_version: int | None = None, held: HeldAnswer | None = None,
               dm_answer: HeldAnswer | None = None) -> None:
    """Apply the interaction user's action and deliver what happened. `held`: the press's
    answer, still open, which the board post it pressed is edited through if it can be.
    `dm_answer`: pressed on the seat's summary DM, which the press's answer updates as soon
    as the move is stored."""
    bot: GameBot = interaction.client  # type: ignore[assignment]
    delivery = delivery_for(bot)
    delivery.saw(interaction.id)  # Discord's time now: which messages are old
    try:
        async with delivery.lock(record.id):
            # The token marks the move's pending interaction as stored, in the move's
            # transaction.
            result = await bot.tables.act(record.id, interaction.user.id, action,
                                          expected_version=expected_version,
                                          interaction_token=interaction.token)
            # The move's private news first: the DM press's answer carries the presser's.
            await delivery.note_private(result.record, result.state, result.events)
            if dm_answer is not None:
                await delivery.answer_in_dm(dm_answer, result.record, result.state,
                                            result.seat)
            shown = [await delivery.after_action(result.record, result.state, result.events,
                                                 result.result, actor=result.seat,
                                                 wait_board=False, held=held, noted=True)]
            await delivery.tell_near(result)
            shown += await delivery.run_ai(record.id, wait_boards=False)
        # The boards are awaited outside the game's lock: the game's next move may be
        # applied while this board is drawn, and then one board shows both (`Delivery.show`).
        for board in shown:
            await board
    except BoardDelayed as delayed:
        # The move is stored and its board is kept: it is tried again until Discord takes it.
        if held is not None:
            await held.take()
        await reply(interaction, f"✅ Your move is recorded, but {delayed.reason}. I'll keep "
                    "trying: the board will show this move's lines as soon as Discord takes "
                    "it. `/game status` shows the board meanwhile.")
    except discord.HTTPException:
        # The move is stored: an error answer saying "nothing changed" would be a lie.
        log.warning("game %s: the move is stored but showing it failed", record.id,
                    exc_info=True)
        if held is not None:
            await held.take()
        await reply(interaction, "✅ Your move is recorded, but Discord refused part of what "
                    "I sent just now. `/game status` shows the board.")


async def refuse_spectator(bot: GameBot, gid: int, user_id: int) -> None:
    """A spectator asking for hands or choices gets told why not (TableError)."""
    if await bot.tables.is_spectator(gid, user_id):
        raise TableError("You're spectating this game: you see the public board in the thread. "
                         "Hands and choices are only for its players.")


async def show_hand(interaction: discord.Interaction[Any], gid: int) -> None:
    bot: GameBot = interaction.client  # type: ignore[assignment]
    await interaction.response.defer(ephemeral=True, thinking=True)
    record = await bot.storage.get_game(gid)
    if record is None or record.status == "lobby":
        raise TableError("This game hasn't started yet — nothing has been dealt.")
    seat = await bot.tables.seat_of(gid, interaction.user.id)
    if seat is None:
        await refuse_spectator(bot, gid, interaction.user.id)
        raise TableError("You're not playing in this game, so you hold nothing in it. "
                         "The thread shows the public board.")
    await bot.tables.came_back(gid, interaction.user.id)
    game = game_of(record)
    state = await bot.tables.state(gid)
    delivery = delivery_for(bot)
    names = await delivery.names(await bot.tables.users_of(gid))
    # What only this seat may see, in words: its status lines that the public ones lack.
    public = set(game.status_lines(state, None, names))
    mine = game.status_lines(state, seat, names)
    secret = [line for line in mine if line not in public]
    text = f"**You are {game.role_words(state, seat)}.**\n" + ("\n".join(secret) or (
        "Nothing in this game is hidden from the others right now — it's all on the board."))
    view = game.view(state, seat)
    plain = delivery.plain(names)
    view["names"] = plain
    file = await delivery.picture(record.game, view, "hand.png",
                                  fit_words(game.status_lines(state, seat, plain),
                                            ALT_TEXT_LIMIT))
    if file is not None:
        await interaction.followup.send(clip(text, limits.CONTENT), ephemeral=True, file=file)
    else:
        await interaction.followup.send(clip(text, limits.CONTENT), ephemeral=True)


async def show_full_board(interaction: discord.Interaction[Any], gid: int) -> None:
    """The whole public board, rendered once per game version however many press."""
    bot: GameBot = interaction.client  # type: ignore[assignment]
    await interaction.response.defer(ephemeral=True, thinking=True)
    record = await bot.storage.get_game(gid)
    if record is None or record.status == "lobby":
        raise TableError("This game hasn't started yet — there is no board to show.")
    game = game_of(record)
    state = await bot.tables.state(gid)
    delivery = delivery_for(bot)
    names = await delivery.names(await bot.tables.users_of(gid))
    data = await delivery.full_board(record, game, state, delivery.plain(names))
    text = f"**{game.title}** — game #{gid}: the full board now."
    if data is None:
        await interaction.followup.send(
            text + "\n" + "\n".join(game.status_lines(state, None, names)), ephemeral=True)
        return
    file = discord.File(io.BytesIO(data), filename="full-board.png",
                        description=game.alt_text(state, delivery.plain(names)))
    await interaction.followup.send(text, ephemeral=True, file=file)


async def show_choices(interaction: discord.Interaction[Any], gid: int) -> None:
    bot: GameBot = interaction.client  # type: ignore[assignment]
    # Acknowledged first: storage reads may queue behind other games' writes.
    await interaction.response.defer(ephemeral=True, thinking=True)
    record = await bot.storage.get_game(gid)
    if record is None or record.status != "active":
        raise TableError("This game isn't being played right now.")
    seat = await bot.tables.seat_of(gid, interaction.user.id)
    if seat is None:
        await refuse_spectator(bot, gid, interaction.user.id)
        raise TableError("You're not playing in this game. You can follow it in the thread.")
    await bot.tables.came_back(gid, interaction.user.id)
    game = game_of(record)
    state = await bot.tables.state(gid)
    actions = game.legal_actions(state, seat)
    if not actions:
        await reply(interaction, f"Nothing for you to do right now; {game.waiting_text(state)}")
        return
    text, view = menu_content(game, state, seat, gid, record.epoch, actions,
                              guided=is_guided(record, game))
    try:
        menu = await interaction.followup.send(text, view=view, ephemeral=True, wait=True)
    except discord.HTTPException:
        log.warning("could not answer interaction %s", interaction.id, exc_info=True)
        return
    # The deferred "thinking…" reply became the menu: it is this interaction's @original.
    await delivery_for(bot).menus.keep(gid, seat, interaction.user.id, interaction.token,
                                       menu.id, original=True,
                                       shown=menu_key(game, state, seat, record.epoch, actions))


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

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot
        self.refs: dict[tuple[int, str], MenuRef] = {}
        # token -> the open answer of a press on that token's menu: the menu's next edit is
        # that answer (type 7), not a request of its own.
        self.held: dict[str, HeldAnswer] = {}

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
        if delivery_for(self.bot).has_panel(gid, seat):
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
            if shown == ref.shown:
                continue
            try:
                await self._edit(ref, clip(text, limits.CONTENT), view)
            except discord.HTTPException:
                self.refs.pop((gid, seat), None)
                continue
            ref.shown, ref.label = shown, ""
            if over:
                self.refs.pop((gid, seat), None)

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


# ---- guided play -------------------------------------------------------------------------

MISSING_ACCESS = 50001
"""Discord's code for a channel the bot may not see at all (removed from the server, or no
View Channel): treated like a deleted thread."""

AI_NAME = "AI"
"""How an AI seat is named where no seat is meant ("AI players"); each AI seat has its own
name, `bot.tables.ai_seat_name` ("AI Shade (the Medium)")."""


def escape_name(name: str) -> str:
    """A player's display name as message text must carry it to read literally (issue #20):
    Discord renders markdown and mentions in content and embeds, so a player named
    `[x](https://evil)`, `**Ada**`, `||Ada||` or `@everyone` would otherwise become a masked
    link, bold, a spoiler or a ping in every post that names them. Markdown is escaped,
    mention syntax broken (a zero-width space after `@`), and `<` escaped so `<#…>`, `<t:…>`
    and `<:emoji:…>` stay text; a masked link loses both its brackets' and its parenthesis'
    meaning. For text only: pictures (Pillow draws the characters), alt text and button labels
    (plain text on Discord) take the name as it is (`Delivery.plain`)."""
    text = discord.utils.escape_markdown(name)
    text = discord.utils.escape_mentions(text)
    return text.replace("<", "\\<").replace("](", "]\\(")


def is_guided(record: GameRecord, game: Game[Any, Any]) -> bool:
    """Whether the table plays guided (the `guided` option; on for a first game)."""
    try:
        return game.guided(game.options_model.model_validate(record.options))
    except ValueError:
        return False


def guide_lines(record: GameRecord, game: Game[Any, Any], state: Any, awaited: list[str],
                users: dict[str, int | None], plain: bool) -> list[str]:
    """Guided play: what each awaited player can do now and why, under the board. Public-safe
    (`guide_text` explains the kind of decision, never a hidden card); none for AI seats."""
    if not is_guided(record, game):
        return []
    lines = []
    for seat in awaited:
        if not users.get(seat):
            continue
        hint = game.guide_text(state, seat)
        if hint:
            lines.append(hint if plain else f"💡 {hint}")
    return list(dict.fromkeys(lines))


# ---- delivery ----------------------------------------------------------------------------


@dataclass
class Posted:
    message_id: int
    version: int


class BoardDelayed(Exception):
    """Discord refused a board post for now (a 5xx, a rate limit, a locked thread, a missing
    permission): the showing is kept and tried again with backoff (`Delivery._show_in_turn`).
    `reason` says what went wrong, in a player's words."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class _TooOld(Exception):
    """Discord refused an edit of a board post as too old (30046): a fresh post follows it."""


RETRYABLE_CODES = (50083, 160005)
"""Thread is archived (a locked thread) / Thread is locked: a moderator may lift it."""


def retryable(exc: BaseException) -> bool:
    """Whether a refused board post may go through later: Discord's server errors, rate limits
    that outlasted discord.py's retries, a lost permission or a locked thread, a dropped
    connection. A malformed request (400) or a deleted thread (404) would fail for ever."""
    if isinstance(exc, discord.HTTPException):
        return (exc.status >= 500 or exc.status in (403, 429)
                or exc.code in RETRYABLE_CODES)
    return isinstance(exc, OSError | TimeoutError)


def _bot_permissions(channel: Any) -> discord.Permissions | None:
    """The bot's permissions in `channel` as the gateway cache knows them (None: unknown)."""
    guild = getattr(channel, "guild", None)
    me = getattr(guild, "me", None)
    if me is None:
        return None
    try:
        perms: discord.Permissions = channel.permissions_for(me)
    except Exception:  # a partial channel, a thread whose parent is not cached
        return None
    return perms


def blocked_reason(channel: Any, exc: BaseException) -> tuple[str, str] | None:
    """When the thread refuses every post from the bot (locked, or a permission taken away):
    what is wrong and what fixes it, in words a moderator acts on. None: not that kind of
    refusal (Discord failing for a while)."""
    if not isinstance(exc, discord.HTTPException):
        return None
    is_thread = isinstance(channel, discord.Thread)
    if exc.code in RETRYABLE_CODES or (is_thread and getattr(channel, "locked", False)
                                       and exc.status == 403):
        return ("the game's thread is locked",
                "a moderator can unlock the thread, or give the bot the **Manage Threads** "
                "permission")
    if not isinstance(exc, discord.Forbidden):
        return None
    send = "Send Messages in Threads" if is_thread else "Send Messages"
    perms = _bot_permissions(channel)
    missing = []
    if perms is not None:
        if not perms.view_channel:
            missing.append("View Channel")
        if not (perms.send_messages_in_threads if is_thread else perms.send_messages):
            missing.append(send)
    if perms is not None and not missing:
        return None  # the bot may post there as far as it knows: nothing to ask anyone to fix
    missing = missing or ["View Channel", send]
    parent = getattr(channel, "parent", None) if is_thread else channel
    where = f" in <#{parent.id}>" if parent is not None else ""
    named = " and ".join(f"**{m}**" for m in missing)
    return (f"the bot may not post in the game's thread (it lacks {named})",
            f"a moderator can give the bot {named}{where}")


@dataclass
class Showing:
    """A move's public lines and the board after it, waiting to be shown (`Delivery.show`)."""

    record: GameRecord
    game: Game[Any, Any]
    state: Any
    lines: list[str]
    result: Result | None
    channel: discord.abc.Messageable
    users: dict[str, int | None]
    actor: str | None
    closed: list[str]
    waiters: list[asyncio.Future[None]] = field(default_factory=list)
    answers: list[HeldAnswer] = field(default_factory=list)
    """Presses on board posts whose answers are still open: the edit of the pressed post (the
    board edited in place, or its buttons taken away) can be that answer (`Delivery._answer`)."""
    repost: int | None = None
    """The board post a moderator deleted: if it is still the current one, it is posted again
    (pinging nobody); if a newer post replaced it meanwhile, nothing is."""
    fresh: bool = False
    """A new post even for the same decider (the catch-up after a restart)."""

    def merge(self, later: Showing) -> None:
        """`later` (the same game's next move) supersedes this board; the lines add up."""
        self.lines = self.lines + later.lines
        self.answers = self.answers + later.answers
        self.repost = self.repost or later.repost
        self.fresh = self.fresh or later.fresh
        self.closed = self.closed + [c for c in later.closed if c not in self.closed]
        self.record, self.state, self.result = later.record, later.state, later.result
        self.channel, self.users, self.actor = later.channel, later.users, later.actor


def _settle(waiters: list[asyncio.Future[None]], outcome: BaseException | None) -> None:
    for waiter in waiters:
        if waiter.done():
            continue
        if outcome is None:
            waiter.set_result(None)
        else:
            waiter.set_exception(outcome)


async def shown_or_delayed(shown: asyncio.Future[None]) -> None:
    """Await a board (`Delivery.show`); a board Discord refused for now is kept and tried again
    (`BoardDelayed`), which is no error for the caller."""
    try:
        await shown
    except BoardDelayed as delayed:
        log.info("a board is delayed: %s", delayed.reason)


NO_PICTURE = "(No picture: the bot lacks the **Attach Files** permission here.)"


def _without_picture(content: str) -> str:
    """A board post's words when its picture may not be attached, saying why."""
    if NO_PICTURE in content:
        return content
    room = limits.CONTENT - len(NO_PICTURE) - 1
    return f"{clip(content, room)}\n{NO_PICTURE}"


def _done() -> asyncio.Future[None]:
    future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    future.set_result(None)
    return future


@dataclass
class SummaryDM:
    """The DM holding one seat's private summary, to edit in place when it changes (H-02), and
    its private choices while the game waits for the seat (its control panel)."""

    user_id: int
    message_id: int | None  # None: it could not be sent (DMs closed)
    text: str
    panel: str | None = ""
    """What its buttons stand for (`menu_key`; "" none); None: not known (found after a
    restart), so the next refresh writes them."""


# A game in its own channel (a game option `table_channel=channel`, P-DISCORD-03): nobody but
# the bot posts there until a game's cog allows a player (per-member overwrites, kept by an
# after-action hook). Threads cannot carry per-member overwrites, hence a channel.
TABLE_TOPIC = "A game table: only its players may post here, and only while they may talk."
TABLE_TALK = ("send_messages", "add_reactions", "use_external_emojis", "use_external_stickers",
              "send_polls")
"""What a player who may talk gets; files and links stay off for all (P-DISCORD-07)."""
TABLE_CLOSED = (*TABLE_TALK, "attach_files", "embed_links", "create_public_threads",
                "create_private_threads", "send_messages_in_threads")


async def open_table_channel(channel: discord.TextChannel, name: str) -> discord.TextChannel:
    """A new text channel next to `channel` (same category) for one game: everyone keeps
    reading as in `channel`, nobody posts but the bot. Needs Manage Channels + Manage Roles."""
    guild = channel.guild
    overwrites: dict[Any, discord.PermissionOverwrite] = {
        guild.default_role: discord.PermissionOverwrite(**dict.fromkeys(TABLE_CLOSED, False)),
        guild.me: discord.PermissionOverwrite(
            view_channel=True, send_messages=True, attach_files=True, embed_links=True,
            read_message_history=True),
    }
    return await guild.create_text_channel(
        name, category=channel.category, overwrites=overwrites, topic=TABLE_TOPIC,
        reason="a game table of its own (table_channel=channel)")


def is_table_channel(channel: Any) -> bool:
    """Whether `channel` is a game's own channel (known by its topic, without storage)."""
    return isinstance(channel, discord.TextChannel) and channel.topic == TABLE_TOPIC


AfterAction = Callable[[GameRecord, Any], Awaitable[None]]


def summary_head(game: Game[Any, Any], gid: int) -> str:
    """How every summary DM of game `gid` starts; found again by it after a restart."""
    return f"**{game.title}** (game #{gid}) — you are **"


NEWS_KEPT = 5
"""How many of a seat's latest private lines its summary DM shows (`/game log private` has
them all)."""
NEWS_LINE = 300
"""One private line on a summary DM, at most: the summary itself must still fit."""
NEWS_HEAD = "Your private news (newest last):"


def news_block(news: list[str], room: int) -> str:
    """`news` (a seat's latest private lines) as the summary DM shows them above its summary,
    in at most `room` characters: the oldest lines go first when they do not fit."""
    lines = [f"• {clip(line, NEWS_LINE)}" for line in news[-NEWS_KEPT:]]
    while lines:
        block = "\n".join([NEWS_HEAD, *lines])
        if len(block) <= room:
            return block
        lines.pop(0)
    return ""


def last_summary(text: str) -> str:
    """The private summary a summary DM showed (its words without head, news and question)."""
    text = text.split(PANEL_MARK, 1)[0]
    lines = text.split("\n")[1:]
    if lines and lines[0] == NEWS_HEAD:
        lines = lines[1:]
        while lines and lines[0].startswith("• "):
            lines = lines[1:]
        if lines and not lines[0]:
            lines = lines[1:]
    return "\n".join(lines)


def last_news(text: str) -> list[str]:
    """The private news a summary DM showed (found again after a restart, kept showing)."""
    lines = text.split(PANEL_MARK, 1)[0].split("\n")[1:]
    if not lines or lines[0] != NEWS_HEAD:
        return []
    news = []
    for line in lines[1:]:
        if not line.startswith("• "):
            break
        news.append(line.removeprefix("• "))
    return news


def summary_text(game: Game[Any, Any], gid: int, state: Any, seat: str,
                 news: list[str] | None = None, last: str | None = None) -> str | None:
    """The summary DM of `seat` now: its private news (`news`, its latest private lines; a
    move's private events come here rather than as DMs of their own, #15), then its private
    summary — or, while it holds nothing hidden, the summary its DM (`last`) showed, as the
    record of what it held. None while the seat holds nothing hidden and has no news."""
    summary = game.private_summary(state, seat)
    if not summary and last is not None:
        summary = last_summary(last)
    if not summary and not news:
        return None
    head = f"{summary_head(game, gid)}{game.role_words(state, seat)}**."
    body = f"\n{summary}" if summary else ""
    # The summary (and the question below it) keeps its room; the news gets what is left.
    room = limits.CONTENT - len(head) - len(body) - 400
    block = news_block(news or [], room)
    text = head + (f"\n{block}" if block else "") + (f"\n{body}" if block and body else body)
    return clip(text, limits.CONTENT)


PANEL_MARK = "\n\n**Your move:** "
"""Where a summary DM's own words end and its private choices' question begins."""


@dataclass
class SummaryNow:
    """What `seat`'s summary DM should show now (`summary_dm`)."""

    text: str
    panel: str
    """What its buttons stand for (`menu_key` of its private choices; "" none)."""
    actions: list[Action]
    record: GameRecord
    game: Game[Any, Any]
    state: Any
    seat: str

    def view(self) -> discord.ui.View | None:
        """Its buttons (built only when the DM is written: most refreshes change nothing)."""
        if not self.actions:
            return None
        return action_view(self.record.id, self.game, self.state, self.seat, self.actions,
                           extras=False, epoch=self.record.epoch)


def summary_dm(record: GameRecord, game: Game[Any, Any], state: Any, seat: str,
               last: str | None = None, news: list[str] | None = None) -> SummaryNow | None:
    """`seat`'s summary DM now: its words (with its latest private `news`) and its private
    choices while the game waits for them (none otherwise). None while the seat holds nothing
    hidden, has no news and has no DM yet; with one (`last`, its words), the summary it last
    showed stays, as the record of what it held."""
    base = summary_text(game, record.id, state, seat, news, last)
    if base is None:
        if last is None:
            return None
        base = last.split(PANEL_MARK, 1)[0]
    actions = panel_actions(game, state, seat)
    if not actions:
        return SummaryNow(base, "", [], record, game, state, seat)
    # Only this seat reads it: the question may name its hidden cards, like its menu.
    question = game.prompt_text(state, seat) or "choose below."
    if is_guided(record, game) and (hint := game.guide_text(state, seat, private=True)):
        question = f"{question}\n{'' if game.plain_words(state) else '💡 '}{hint}"
    return SummaryNow(clip(base + PANEL_MARK + question, limits.CONTENT),
                      menu_key(game, state, seat, record.epoch, actions), actions, record, game,
                      state, seat)


class Delivery:
    """Sends what happened in a game to the right places, one game at a time."""

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
        # (game id, seat) -> its latest private lines, shown on its summary DM (`note_private`).
        self._news: dict[tuple[int, str], list[str]] = {}
        # game id -> seats with private news not yet shown (a closed DM is reported for them).
        self._fresh: dict[int, set[str]] = {}
        # Cogs' own follow-ups of every delivered move (e.g. a game channel's permissions).
        self.after_hooks: list[AfterAction] = []
        # Open private menus follow every delivered move (`PrivateMenus.refresh`).
        self.menus = PrivateMenus(bot)
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
        # Games whose refused board waits for its next try (`stop_retrying` ends the wait).
        self._waiting_to_retry: set[int] = set()
        # Discord's clock as the newest snowflake seen shows it (`discord_now`).
        self._discord_clock = 0.0
        # game id -> {message id: (its channel's id, STRIP or DELETE)}: old messages whose
        # choices are still to be taken away, Discord having refused it so far (`_tidy`).
        self._stale: dict[int, dict[int, tuple[int, str]]] = {}
        # game id -> set when a showing arrives while its task waits to tidy (`_sleep_until`).
        self._wake: dict[int, asyncio.Event] = {}
        # channel id -> when (the loop's time) Discord last refused an old edit there: for
        # `board_retry_seconds` nothing old is edited there (`_refusing`). Each refusal
        # outlasted discord.py's five tries, and Discord counts every 429 against the bot.
        self._refused: dict[int, float] = {}

    def saw(self, snowflake: int) -> None:
        """Note Discord's time as `snowflake` (an interaction's or a message's id) shows it."""
        seen = discord.utils.snowflake_time(snowflake).timestamp()
        self._discord_clock = max(self._discord_clock, seen)

    def discord_now(self) -> float:
        """Discord's time now, as well as the bot can tell: its own clock, or the newest
        snowflake Discord sent, if that is later (a host clock running behind; in tests, the
        emulator's clock moved on by hours). Ages of messages are measured against it."""
        return max(time.time(), self._discord_clock)

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

    def remember_name(self, user: discord.abc.User) -> None:
        """A user the gateway gave (an interaction's user) is named without a lookup: the
        name `fetch_user` would give (the account's, not a server nickname)."""
        if user.id not in self._names and not user.bot:
            self._names[user.id] = getattr(user, "global_name", None) or user.name

    def lock(self, gid: int) -> asyncio.Lock:
        """Serialises act + post per game so boards appear in the order moves happened."""
        return self._locks.setdefault(gid, asyncio.Lock())

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

    async def thread_gone(self, record: GameRecord, *, seen: bool = True) -> None:
        """The game's thread was deleted (gateway event or 404 on a post), or Discord no
        longer lets the bot see it (`seen=False`: 403/50001 Missing Access, as after the bot
        was removed from the server): the game is marked abandoned, the reason kept, its
        reminders ended, and its players told by DM, once."""
        current = await self.bot.storage.get_game(record.id)
        if current is None or current.status not in ("lobby", "active"):
            return
        reason = "its thread was deleted" if seen else "the bot can no longer see its thread"
        await self.bot.tables.mark_abandoned(record.id, reason)
        game = GAMES.get(record.game)
        title = game.title if game else record.game
        what = ("was deleted" if seen else "is out of my sight (Discord says Missing Access: "
                "I was removed from the server, or may no longer view the channel)")
        await self.tell_players(record, f"The thread of your game of **{title}** (game "
                                f"#{record.id}) {what}, so the game was marked abandoned. "
                                "Start a new one with `/game new`.")

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
        the boards are left to show (await the futures returned, outside the lock)."""
        shown: list[asyncio.Future[None]] = []
        for _ in range(200):
            res = await self.bot.tables.ai_turn(gid)
            if res is None:
                break
            shown.append(await self.after_action(res.record, res.state, res.events, res.result,
                                                 actor=res.seat, wait_board=wait_boards))
            await self.tell_near(res)
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

    async def tell_players(self, record: GameRecord, text: str) -> None:
        users = await self.bot.tables.users_of(record.id)
        for user_id in {u for u in users.values() if u}:
            await self.dm(user_id, text)

    async def dm(self, user_id: int, text: str, **kwargs: Any) -> bool:
        """Send a DM; False if the user's DMs are closed (the caller says so in the thread)."""
        try:
            channel = await self._dm_channel(user_id)
            await channel.send(clip(text, limits.CONTENT), **kwargs)
            return True
        except (discord.Forbidden, discord.NotFound):
            return False

    async def send_summary(self, record: GameRecord, state: Any, seat: str,
                           user_id: int) -> bool:
        """Deal: DM `seat` its private summary (with its private choices, when the game
        starts by waiting for them) as a new message and keep it current from now on. False
        if the DM could not be sent (DMs closed)."""
        now = summary_dm(record, game_of(record), state, seat,
                         news=self._news.get((record.id, seat)))
        if now is None:
            return True
        message = await self._send(user_id, now.text, now.view())
        self._summaries[(record.id, seat)] = SummaryDM(
            user_id, message.id if message else None, now.text, now.panel)
        return message is not None

    def dealt_without_summary(self, gid: int, seat: str, user_id: int) -> None:
        """Deal: `seat` got no summary DM from this process, so it has none to find: the DM
        history is read only after a restart (`_find_summary`)."""
        self._summaries.setdefault((gid, seat), SummaryDM(user_id, None, ""))

    def has_panel(self, gid: int, seat: str) -> bool:
        """Whether `seat`'s summary DM carries its private choices now (as last written)."""
        known = self._summaries.get((gid, seat))
        return known is not None and known.message_id is not None and bool(known.panel)

    def has_summary_dm(self, gid: int, seat: str) -> bool:
        """Whether `seat` has a summary DM this process can write to (its DMs are open)."""
        known = self._summaries.get((gid, seat))
        return known is not None and known.message_id is not None

    async def refresh_summaries(self, record: GameRecord, state: Any,
                                users: dict[str, int | None]) -> None:
        """H-02: the summary DM of every seat whose private summary or private choices changed
        is edited in place (a new one is sent only when there is none to edit). Its buttons
        change with the words, so they cost no edit of their own unless only they changed
        (the game comes to wait for the seat's private choices, or stops waiting)."""
        game = game_of(record)
        for seat, user_id in users.items():
            if not user_id:
                continue
            known = self._summaries.get((record.id, seat))
            if known is not None and known.user_id != user_id and known.panel != "" \
                    and known.message_id is not None:
                # The seat changed hands (`/game replace`): its old player's DM keeps the
                # summary they had, not buttons they may no longer press.
                try:
                    old = await self._dm_channel(known.user_id)
                    await old.get_partial_message(known.message_id).edit(view=None)
                except discord.HTTPException:
                    log.info("game %s: could not take the buttons off a replaced player's DM",
                             record.id)
            if known is None or known.user_id != user_id:
                # Looked up once per seat and process; "none" is remembered too.
                known = (await self._find_summary(game, record.id, user_id)
                         or SummaryDM(user_id, None, ""))
                self._summaries[(record.id, seat)] = known
                # Its news stays (before this process's own, noted since it started).
                if old_news := last_news(known.text):
                    self._news[(record.id, seat)] = (
                        old_news + self._news.get((record.id, seat), []))[-NEWS_KEPT:]
            news = self._news.get((record.id, seat))
            now = summary_dm(record, game, state, seat,
                             known.text if known.message_id is not None else None, news)
            if now is None:
                continue  # nothing hidden, and no DM to take buttons off
            text, panel, view = now.text, now.panel, None
            if known.text == text and known.panel == panel:
                continue
            view = now.view()
            message_id: int | None = None
            replaced: int | None = None
            if known.message_id is not None:
                try:
                    channel = await self._dm_channel(user_id)
                    if self._refusing(channel.id) and self.is_old(known.message_id):
                        raise _TooOld  # refused moments ago: replaced at once, no request
                    # `view=None` takes away buttons the game no longer waits for.
                    await channel.get_partial_message(known.message_id).edit(content=text,
                                                                             view=view)
                    message_id = known.message_id
                except discord.NotFound:
                    log.info("game %s: the summary DM of %s is gone; sending anew",
                             record.id, seat)
                except (discord.HTTPException, _TooOld) as exc:
                    if (channel_id := self._dm_channels.get(user_id)) is not None:
                        self._note_refusal(channel_id, exc)
                    # Refused (an old DM past Discord's limit on old edits, a 5xx): a new DM
                    # replaces it, and the old one is deleted — a delete is no edit, so the
                    # limit does not stop it — lest two DMs offer the seat's choices.
                    log.info("game %s: could not edit the summary DM of %s (%s); replacing "
                             "it", record.id, seat, exc)
                    replaced = known.message_id
            if replaced is not None:
                await self._retire_dm(record.id, user_id, replaced)
            if message_id is None:
                if summary_text(game, record.id, state, seat, news) is None:
                    continue  # nothing hidden: no new DM just for buttons
                message = await self._send(user_id, text, view)
                message_id = message.id if message else None
            self._summaries[(record.id, seat)] = SummaryDM(user_id, message_id, text, panel)

    async def _retire_dm(self, gid: int, user_id: int, message_id: int) -> None:
        """Delete a summary DM a new one replaces; if Discord refuses, it is owed (`_tidy`)."""
        try:
            channel = await self._dm_channel(user_id)
            await channel.get_partial_message(message_id).delete()
        except discord.NotFound:
            pass
        except discord.HTTPException as exc:
            log.info("game %s: could not delete a replaced summary DM (%s); trying again "
                     "later", gid, exc)
            channel_id = self._dm_channels.get(user_id)
            if channel_id is not None:
                self._owe(gid, message_id, channel_id, DELETE)

    async def answer_in_dm(self, answer: HeldAnswer, record: GameRecord, state: Any,
                           seat: str) -> None:
        """A move pressed on `seat`'s summary DM is stored: answer the press by updating that
        DM to the seat's summary and choices now, in the interaction's response (no request of
        its own; the summary refresh after the move then finds nothing to change)."""
        interaction = answer.interaction
        message = interaction.message
        if message is None:
            return
        if self.is_old(message.id):
            # Not in the answer: Discord may refuse an hour-old DM's edit for longer than the
            # 3 s an answer has. The press is acknowledged now; the summary refresh edits the
            # DM (or replaces it, if Discord refuses).
            if await answer.take():
                with contextlib.suppress(discord.HTTPException):
                    await interaction.response.defer()
            return
        now = summary_dm(record, game_of(record), state, seat, message.content,
                         self._news.get((record.id, seat)))
        if now is None:
            return
        view = now.view()
        if not await answer.take():
            return
        try:
            await interaction.response.edit_message(
                content=now.text, view=view, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException:
            log.info("game %s: could not update the summary DM of %s in the press's answer",
                     record.id, seat)
            return
        self._summaries[(record.id, seat)] = SummaryDM(interaction.user.id, message.id,
                                                       now.text, now.panel)

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

    async def _find_summary(self, game: Game[Any, Any], gid: int,
                            user_id: int) -> SummaryDM | None:
        """After a restart: the newest summary DM of game `gid` among the last DMs."""
        head = summary_head(game, gid)
        me = self.bot.user
        try:
            channel = await self._dm_channel(user_id)
            async for message in channel.history(limit=25):
                if me is not None and message.author.id == me.id \
                        and message.content.startswith(head):
                    # Its buttons are not read back: the next refresh writes the current ones.
                    return SummaryDM(user_id, message.id, message.content,
                                     None if message.components else "")
        except discord.HTTPException:
            log.info("could not read the DMs of %s for game %s", user_id, gid)
        return None

    async def note_private(self, record: GameRecord, state: Any, events: list[Event]) -> None:
        """A move's private events join the news of each seat that reads them (its audience:
        a team's shared lines reach every teammate's own DM), to be shown on its summary DM by
        the next refresh — one edit that also carries the changed hand, not a DM of its own."""
        game = game_of(record)
        private = [e for e in events if not e.public]
        if not private:
            return
        teams = any(len(e.audience) > 1 for e in private)
        names = await self.names(await self.bot.tables.users_of(record.id)) if teams else {}
        for event in private:
            for seat in event.audience:
                others = sorted((names.get(s) or game.seat_label(state, s)
                                 for s in event.audience if s != seat and s in state.seats),
                                key=str.lower)
                shared = f" (only you and {join_words(others)} see this)" if others else ""
                line = " ".join(event.text.split()) + shared
                news = self._news.setdefault((record.id, seat), [])
                news.append(line)
                del news[:-NEWS_KEPT]
                self._fresh.setdefault(record.id, set()).add(seat)

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
        public_lines = [e.text for e in events if e.public]
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

    def show(self, showing: Showing) -> asyncio.Future[None]:
        """Put a move's public lines and board in line to be shown in the game's thread.

        One board at a time per game, in the order of the moves. Back-pressure: when boards
        fall behind (renders queue up, Discord is slow), the moves that arrive meanwhile are
        merged into one showing — the newest state's board, every move's lines in order — so a
        board that is already out of date is never drawn, and no move's words are lost. The
        future is done once a board with this move's lines is posted (or failed: its error).

        Nothing is lost when Discord refuses: a refused board is kept, with every later move's
        lines merged into it, and tried again with backoff until it goes through; meanwhile
        the futures fail at once with `BoardDelayed` (the mover is told the truth and not
        kept waiting), and the held presses are left to their movers to answer.
        """
        gid = showing.record.id
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        delayed = self._delayed.get(gid)
        if delayed is not None:
            showing.answers = []
            future.set_exception(BoardDelayed(delayed.reason))
        waiting = self._showings.get(gid)
        if waiting is None:
            showing.waiters = [future]
            self._showings[gid] = showing
        else:
            waiting.merge(showing)
            waiting.waiters.append(future)
        if delayed is not None:
            return future
        wake = self._wake.get(gid)
        if wake is not None:
            wake.set()  # the task waits to tidy old messages: the board goes first
        if gid not in self._showing_tasks:
            self._showing_tasks[gid] = asyncio.create_task(self._show_in_turn(gid),
                                                           name=f"boards-of-game-{gid}")
        return future

    async def _show_in_turn(self, gid: int) -> None:
        tidy_tries = 0
        due: float | None = None
        try:
            while True:
                await self._show_queued(gid)
                if not self._stale.get(gid):
                    break
                # Old messages whose choices Discord refused to take away (`_stale`): tried
                # again with the boards' backoff, in this task, so one game's requests stay
                # in order; a board that comes meanwhile is shown first, the wait going on.
                if due is None:
                    tidy_tries += 1
                    due = asyncio.get_running_loop().time() + self._retry_delay(tidy_tries)
                if await self._sleep_until(gid, due):
                    continue
                due = None
                if await self._tidy(gid):
                    tidy_tries = 0
        finally:
            self._showing_tasks.pop(gid, None)
            self._wake.pop(gid, None)

    def _owe(self, gid: int, message_id: int, channel_id: int, what: str) -> None:
        """Note what an old message is still owed (`STRIP`, `DELETE`), to be tried again with
        backoff by the game's showing task (started if none runs)."""
        self._stale.setdefault(gid, {})[message_id] = (channel_id, what)
        if gid not in self._showing_tasks:
            self._showing_tasks[gid] = asyncio.create_task(self._show_in_turn(gid),
                                                           name=f"boards-of-game-{gid}")

    async def _sleep_until(self, gid: int, due: float) -> bool:
        """Wait until `due` (the loop's time); True as soon as a showing arrives instead."""
        wake = self._wake.setdefault(gid, asyncio.Event())
        wake.clear()
        if gid in self._showings:
            return True
        self._waiting_to_retry.add(gid)
        try:
            await asyncio.wait_for(wake.wait(), max(0.0, due - asyncio.get_running_loop().time()))
        except TimeoutError:
            return False
        finally:
            self._waiting_to_retry.discard(gid)
        return True

    async def _tidy(self, gid: int) -> bool:
        """Try again what old messages of game `gid` are owed (`_stale`): choices taken off a
        replaced board post, a replaced summary DM deleted. True when nothing is owed any
        more. A channel that refuses one is not asked again this round (its limit is on)."""
        owed = self._stale.get(gid, {})
        refused: set[int] = set()
        for message_id, (channel_id, what) in list(owed.items()):
            if channel_id in refused or (what == STRIP and self._refusing(channel_id)):
                continue
            message = self.bot.get_partial_messageable(channel_id).get_partial_message(
                message_id)
            try:
                if what == DELETE:
                    await message.delete()
                else:
                    await message.edit(view=None)
            except discord.NotFound:
                pass  # deleted meanwhile: nothing live is left on it
            except discord.HTTPException as exc:
                log.info("game %s: message %s still refused (%s)", gid, message_id, exc)
                self._note_refusal(channel_id, exc)
                refused.add(channel_id)
                continue
            owed.pop(message_id, None)
            log.info("game %s: old message %s tidied (%s)", gid, message_id, what)
        if not owed:
            self._stale.pop(gid, None)
        return not owed

    async def _show_queued(self, gid: int) -> None:
        """Show the game's waiting boards in turn; a refused one is kept and tried again."""
        tries = 0
        while (showing := self._showings.pop(gid, None)) is not None:
            try:
                await self._show(showing)
            except Exception as exc:
                if not retryable(exc):
                    self._delayed.pop(gid, None)
                    _settle(showing.waiters, exc)
                    continue
                tries += 1
                delay = self._retry_delay(tries)
                log.warning("game %s: Discord refused its board (%s); trying again in "
                            "%.1f s (try %d)", gid, exc, delay, tries)
                blocked = blocked_reason(showing.channel, exc)
                delayed = BoardDelayed(
                    "Discord refused the new board post just now" if blocked is None
                    else f"I can't post in the thread: {blocked[0]} ({blocked[1]})")
                self._delayed[gid] = delayed
                _settle(showing.waiters, delayed)
                # Kept, first in line: later moves merge into it while it waits (their
                # movers are told at once, `show`).
                later = self._showings.pop(gid, None)
                if later is not None:
                    _settle(later.waiters, delayed)
                    showing.merge(later)
                showing.waiters, showing.answers = [], []
                self._showings[gid] = showing
                if blocked is not None:
                    try:
                        await self._tell_blocked(showing, *blocked)
                    except discord.HTTPException:
                        log.warning("game %s: could not tell its players that the thread "
                                    "is blocked", gid, exc_info=True)
                self._waiting_to_retry.add(gid)
                try:
                    await asyncio.sleep(delay)
                finally:
                    self._waiting_to_retry.discard(gid)
                current = await self.bot.storage.get_game(gid)
                if current is None or current.status == "abandoned":
                    # Nobody is waiting for this board any more.
                    dropped = self._showings.pop(gid, None)
                    if dropped is not None:
                        _settle(dropped.waiters, delayed)
                    self._delayed.pop(gid, None)
                    self._told_blocked.pop(gid, None)
            else:
                tries = 0
                self._delayed.pop(gid, None)
                if self._told_blocked.pop(gid, None) is not None:
                    log.info("game %s: its thread takes posts again", gid)
                _settle(showing.waiters, None)

    async def stop_retrying(self) -> int:
        """Before the bot closes: stop waiting to try refused boards again (their moves are
        stored; the next start posts them, `catch_up_boards`). A try under way is left to
        finish. Returns how many waits were ended."""
        tasks = [task for gid, task in self._showing_tasks.items()
                 if gid in self._waiting_to_retry]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        return len(tasks)

    def _retry_delay(self, tries: int) -> float:
        settings = self.bot.settings
        return float(min(settings.board_retry_seconds * 2 ** (tries - 1),
                         settings.board_retry_max_seconds))

    async def _tell_blocked(self, showing: Showing, what: str, fix: str) -> None:
        """The thread refuses every post (locked, a permission taken away): the awaited players
        and the game's creator are told by DM what is wrong and what fixes it, once until it
        is fixed (or something else blocks it)."""
        record = showing.record
        if self._told_blocked.get(record.id) != what:
            self._told_blocked[record.id] = what
            game = showing.game
            awaited = [] if showing.result is not None else game.to_act(showing.state)
            users = {u for s in awaited if (u := showing.users.get(s))}
            users.add(record.created_by)
            where = f"<#{record.thread_id}>" if record.thread_id else "the game's channel"
            text = (f"⚠️ I can't post in {where}, the thread of your game of **{game.title}** "
                    f"(game #{record.id}): {what}. To fix it, {fix}. Your moves are kept; "
                    "the board (and whose turn it is) will show there as soon as I can post.")
            for user_id in sorted(users):
                if not await self.dm(user_id, text):
                    log.info("game %s: could not tell user %s by DM that the thread is "
                             "blocked", record.id, user_id)

    async def board_deleted(self, record: GameRecord, message_id: int) -> None:
        """Someone (a moderator) deleted the game's current board post: it is posted again,
        with its lines and buttons, pinging nobody (the awaited players were pinged already)."""
        if record.status != "active" or record.board_message_id != message_id:
            return
        _, posted = self._board_ids.get(record.id, (None, None))
        if posted is not None and posted != message_id:
            return  # this process has posted a newer board since
        state = await self.bot.tables.state(record.id)
        channel = await self.thread(record)
        if channel is None:
            return
        users = await self.bot.tables.users_of(record.id)
        game = game_of(record)
        log.info("game %s: its board post %s was deleted; posting it again", record.id,
                 message_id)
        await shown_or_delayed(self.show(Showing(
            record, game, state, [], game.result(state), channel, users, None, [],
            repost=message_id)))

    async def _show(self, showing: Showing) -> None:
        record = showing.record
        # A board this process posted since this move's record was read (the previous
        # showing) is the one to edit or to strip.
        replaced, posted = self._board_ids.get(record.id, (None, None))
        if posted is not None and record.board_message_id == replaced != posted:
            record = record.model_copy(update={"board_message_id": posted})
        channel = showing.channel
        repost = showing.repost is not None and record.board_message_id == showing.repost
        if showing.repost is not None and not repost and not showing.lines:
            return  # the deleted post had been replaced already: nothing to show again
        # The summary DMs follow the newest state too: moves merged into one showing (an AI
        # chain, boards behind) cost one summary edit per seat at most, not one per move.
        await self.refresh_summaries(record, showing.state, showing.users)
        # Private news that reached no summary DM (DMs closed): the thread says where to read it.
        fresh = self._fresh.get(record.id, set())
        closed = showing.closed + [f"<@{showing.users[seat]}>" for seat in sorted(fresh)
                                   if showing.users.get(seat)
                                   and not self.has_summary_dm(record.id, seat)]
        try:
            await self.post_board(record, showing.game, showing.state, showing.lines,
                                  showing.result, channel, showing.users, actor=showing.actor,
                                  fresh=showing.fresh, answers=showing.answers,
                                  repost=repost)
        except discord.NotFound as exc:
            if exc.code != 10003:  # Unknown Channel: the thread is gone
                raise
            await self.thread_gone(record)
            return
        self._fresh.pop(record.id, None)
        if closed:
            try:
                await channel.send(clip(
                    f"I couldn't DM {', '.join(closed)} (DMs closed). Something "
                    "private happened for them: press **My hand** or use `/game hand` to "
                    "see what you hold, `/game log private` for what happened.",
                    limits.CONTENT),
                    allowed_mentions=discord.AllowedMentions(users=False))
            except discord.HTTPException:  # the board is out: it is not posted again for this
                log.warning("game %s: could not name the seats with closed DMs", record.id,
                            exc_info=True)

    async def catch_up_boards(self) -> int:
        """Bring the board of every game with moves stored after its last board post up to date.

        A crash between storing a move and posting its board would otherwise leave the table
        looking at the old board (whose buttons now say "earlier turn"). The missed moves'
        public lines are rebuilt from the action log; the post follows the usual policy (the
        same decider's post is edited, a new decider gets a new post). Returns how many boards
        were brought up to date.
        """
        posted = 0
        for stale, board_version in await self.bot.storage.boards_behind(self.bot.owned_shards):
            try:
                async with self.lock(stale.id):
                    record = await self.bot.tables.get(stale.id)
                    if record.status != "active":
                        continue
                    history = await self.bot.tables.history(record.id)
                    missed = [e for entry in history for e in entry.events
                              if e.public and entry.seq > board_version]
                    state = await self.bot.tables.state(record.id)
                    lines = ["(The bot restarted; these moves were stored before it went down.)",
                             *(e.text for e in missed)]
                    channel = await self.thread(record)
                    if channel is None:
                        continue
                    users = await self.bot.tables.users_of(record.id)
                    game = game_of(record)
                    # A new post, not an edit: the restart notice heads its own post, and the
                    # moves it repeats are not mixed into the lines the table already read.
                    # The summary DMs (and their private choices) follow, as for any board;
                    # a refused post is kept and tried again, as for any board.
                    try:
                        await self.show(Showing(
                            record, game, state, lines, game.result(state), channel, users,
                            None, [], fresh=True))
                    except BoardDelayed as delayed:
                        log.info("a board is delayed: %s", delayed.reason)
                    else:
                        await self._strip_orphans(record.id, channel)
                    posted += 1
            except Exception:  # one game's trouble must not stop the others catching up
                log.exception("could not catch up the board of game %s", stale.id)
        return posted

    async def _strip_orphans(self, gid: int, channel: discord.abc.Messageable,
                             look_back: int = 10) -> None:
        """Take the choices off every recent post of game `gid` but its current board. A crash
        between a board post reaching Discord and its id being stored leaves a post nobody
        knows of, whose buttons would stay live beside the restarted bot's new board: two sets
        of buttons for one decision (issue #20). Read once per board caught up after a start."""
        current = self._board_ids.get(gid, (None, None))[1]
        me = self.bot.user.id if self.bot.user is not None else None
        choice = re.compile(rf"^hb:(?:a|s|pg):{gid}:")
        try:
            async for message in channel.history(limit=look_back):  # type: ignore[attr-defined]
                if message.id == current or message.author.id != me:
                    continue
                ids = [getattr(item, "custom_id", None) or ""
                       for row in message.components for item in getattr(row, "children", [])]
                if any(choice.match(i) for i in ids):
                    try:
                        await message.edit(view=None)
                    except discord.HTTPException as exc:
                        if exc.code != OLD_EDITS_CODE and exc.status < 500:
                            raise
                        # Refused for now (an old post): owed, and tried again (`_tidy`).
                        self._owe(gid, message.id, _channel_id(channel), STRIP)
        except discord.HTTPException:
            log.info("game %s: could not look for board posts left by a crash", gid,
                     exc_info=True)

    async def current_post(self, record: GameRecord) -> BoardPost | None:
        """What the game's current board post stands for: as this process last wrote it when
        the record still names that post, else read from storage (another shard process may
        have posted for this game since; a restart)."""
        if not record.board_message_id:
            return None
        known = self._posts.get(record.id)
        if known is not None and known[0] == record.board_message_id:
            post = known[1]
            return BoardPost(awaited=list(post.awaited), turn=post.turn, lines=list(post.lines),
                             pinged=list(post.pinged), buttons=post.buttons)
        return BoardPost.load(await self.bot.storage.board_post(record.id))

    async def post_board(self, record: GameRecord, game: Game[Any, Any], state: Any,
                         lines: list[str], result: Result | None,
                         channel: discord.abc.Messageable,
                         users: dict[str, int | None], actor: str | None = None,
                         fresh: bool = False, answers: list[HeldAnswer] | None = None,
                         repost: bool = False) -> None:
        """Show the board after a move: one new post per change of decider (pinging whoever
        newly has to decide, but not `actor`, who just acted and is watching: an undo), else
        the current post edited in place, pinging nobody. `fresh`: a new post even for the
        same decider (the catch-up after a restart), still pinging only newcomers. `answers`:
        open answers of presses on board posts, which an edit of the pressed post goes
        through. `repost`: the current post was deleted: a new one (never an edit), its
        buttons not stripped."""
        answers = answers or []
        names = await self.names(users)
        awaited = ([] if result is not None else
                   sorted(game.to_act(state), key=lambda s: _seat_index(state, s)))
        turn = game.turn_key(state)
        previous = await self.current_post(record)
        same_decider = (not fresh and previous is not None and result is None
                        and turn == previous.turn and set(awaited) <= set(previous.awaited))
        if same_decider and previous is not None and record.board_message_id:
            post = BoardPost(awaited=awaited, turn=turn,
                             lines=(previous.lines + lines)[-MAX_POST_LINES:],
                             pinged=[s for s in previous.pinged if s in awaited])
            # An hour-old post is not edited (Discord limits edits of old messages, and a
            # refusal could outlast every retry): a fresh post follows it, pinging nobody and
            # carrying only the new lines — the old post keeps the ones the table read.
            old = not repost and self.is_old(record.board_message_id)
            if not repost and not old:
                try:
                    if await self._edit_board(record, game, state, post, result, channel,
                                              users, names, answers):
                        return
                except _TooOld:
                    # Refused as old after all (the bot's clock lagged Discord's): the same.
                    log.info("game %s: an edit of board %s was refused as old; posting anew",
                             record.id, record.board_message_id)
                    old = True
            # Else the post is gone (deleted by a moderator): a new one with all its lines.
            post = BoardPost(awaited=awaited, turn=turn,
                             lines=lines[-MAX_POST_LINES:] if old else post.lines, pinged=[])
        else:
            newcomers = [s for s in awaited if previous is None or s not in previous.awaited]
            post = BoardPost(awaited=awaited, turn=turn, lines=lines[-MAX_POST_LINES:],
                             pinged=await self._to_ping(
                                 record, [s for s in newcomers if s != actor], users))
        # The post it replaces keeps its buttons when none of them can go stale (My hand, My
        # choices and Full board work on any post): one request less.
        strip = (previous is None or previous.buttons) and not repost
        await self._new_board(record, game, state, post, result, channel, users, names,
                              answers, strip=strip)

    async def _to_ping(self, record: GameRecord, seats: list[str],
                       users: dict[str, int | None]) -> list[str]:
        """Which of `seats` (newly awaited) a new post pings: players, not the AI; nobody at a
        table with one player left (Solo, all-AI-but-one), who is watching anyway; nobody away
        or in quiet hours. The reminder policy's nudges are the only repeats."""
        if not seats:
            return []
        records = await self.bot.storage.seats(record.id)
        humans = {s.seat for s in records if not s.ai_driven}
        if len(humans) <= 1:
            return []
        wanted = [s for s in seats if s in humans and users.get(s)]
        reachable = await self.bot.tables.reachable(u for s in wanted if (u := users.get(s)))
        return [s for s in wanted if users.get(s) in reachable]

    def board_text(self, record: GameRecord, game: Game[Any, Any], state: Any, post: BoardPost,
                   result: Result | None, users: dict[str, int | None],
                   names: dict[str, str]) -> str:
        """The post's words: what happened this stretch, the table's caption, and what the
        awaited players must do (or who won and why)."""
        plain = game.plain_words(state)
        header = f"**{game.title}** — game #{record.id}"
        if result is not None:
            footer = game.result_text(state, result, names)
            footer = f"Game over. {footer}" if plain else f"🏁 **Game over.** {footer}"
            caption = None
        else:
            doing = []
            for seat in post.awaited:
                text = game.doing_text(state, seat, names)
                if seat in post.pinged and users.get(seat):
                    text = f"{text} <@{users[seat]}>"
                doing.append(text if plain else f"⏳ {text}")
            footer = "\n".join(doing + self.dm_lines(record, game, state, post.awaited,
                                                      users, names, plain)
                               + guide_lines(record, game, state, post.awaited, users, plain))
            caption = game.board_caption(state)
        # The game's presentation hook may quieten the lines (e.g. True Horror, P-HORROR); a
        # table that asked for plain words reads no rule ids anywhere in the post.
        shown = game.present(state, post.lines)
        if plain:
            shown = [strip_rule_ids(line) for line in shown]
            caption = strip_rule_ids(caption) if caption else caption
            footer = "\n".join(strip_rule_ids(line) for line in footer.split("\n"))
        body = [f"• {line}" for line in shown]
        dropped = 0
        while True:
            lead = [f"• … ({dropped} earlier lines: `/game log`)"] if dropped else []
            content = "\n".join(p for p in (header, *lead, *body, caption, footer) if p)
            if len(content) <= limits.CONTENT or not body:
                break
            body.pop(0)
            dropped += 1
        return clip(content, limits.CONTENT)

    def dm_lines(self, record: GameRecord, game: Game[Any, Any], state: Any,
                 awaited: list[str], users: dict[str, int | None], names: dict[str, str],
                 plain: bool) -> list[str]:
        """Where the awaited players find their private choices: their summary DM. Said of
        every awaited player who has one (their DMs are open and the game deals them
        something hidden), whatever they hold and whatever they may do now, so the line
        tells the table nothing it does not know (whose DMs are closed is said openly)."""
        who = [names.get(seat) or game.seat_label(state, seat) for seat in awaited
               if users.get(seat) and self.has_summary_dm(record.id, seat)]
        if not who:
            return []
        return [f"{'' if plain else '📬 '}{', '.join(who)}: your private choices are in "
                "your DMs."]

    def board_components(self, record: GameRecord, game: Game[Any, Any], state: Any,
                         awaited: list[str], result: Result | None,
                         users: dict[str, int | None]) -> discord.ui.View | None:
        if result is not None:
            return None
        for seat in awaited:
            public = board_actions(game, state, seat, awaited, users)
            if public:
                return action_view(record.id, game, state, seat, public, epoch=record.epoch)
        return table_buttons(record.id)

    async def board_file(self, record: GameRecord, game: Game[Any, Any], state: Any,
                         post: BoardPost, result: Result | None,
                         names: dict[str, str]) -> discord.File | None:
        """The post's inline picture, described in words (alt text): the phone-sized turn card
        (whose move, what to do, what just happened) for a game with a board picture — the
        full board is one tap away (**Full board**) — else nothing."""
        if not has_board_picture(record.game):
            return None
        escaped, names = names, self.plain(names)  # drawn and described, not markdown
        view = game.view(state, None)
        view["names"] = names
        plain = game.plain_words(state)
        happened = game.present(state, post.lines)
        for seat, name in escaped.items():  # a line the bot wrote with a name (an undo)
            if name != names[seat]:
                happened = [line.replace(name, names[seat]) for line in happened]
        view["turn"] = {
            "awaited": [names.get(s) or game.seat_label(state, s) for s in post.awaited],
            "doing": " ".join(game.doing_text(state, s, names) for s in post.awaited),
            "happened": [strip_rule_ids(line) if plain else line for line in happened][-4:],
            "result": game.result_text(state, result, names) if result is not None else None,
        }
        data = await self.render_card(record.game, view)
        if data is None:
            return None
        # Alt text says what the card says, in its order and units (renders/cardwords.py),
        # then as much of the rest of the board as fits.
        return discord.File(io.BytesIO(data), filename="turn.png",
                            description=card_alt_text(record.game, view,
                                                      game.alt_text(state, names))
                            or game.title)

    async def full_board(self, record: GameRecord, game: Game[Any, Any], state: Any,
                         names: dict[str, str]) -> bytes | None:
        """The full public board at the game's current version, rendered once per version:
        the board post and every **Full board** press at that version share one render.
        `names` as the picture shows them (`plain`)."""
        key = (record.epoch, state.step, tuple(sorted(names.items())))
        known = self._full.get(record.id)
        if known is not None and known[0] == key:
            return await asyncio.shield(known[1])
        public = game.view(state, None)
        public["names"] = names
        task = asyncio.ensure_future(self.render(record.game, public))
        self._full.pop(record.id, None)
        self._full[record.id] = (key, task)
        while len(self._full) > FULL_BOARDS_KEPT:  # the least recently rendered go first
            self._full.pop(next(iter(self._full)))
        try:
            return await asyncio.shield(task)
        except Exception:
            self._full.pop(record.id, None)
            raise

    async def _new_board(self, record: GameRecord, game: Game[Any, Any], state: Any,
                         post: BoardPost, result: Result | None,
                         channel: discord.abc.Messageable, users: dict[str, int | None],
                         names: dict[str, str], answers: list[HeldAnswer] | None = None, *,
                         strip: bool = True) -> None:
        content = self.board_text(record, game, state, post, result, users, names)
        file = await self.board_file(record, game, state, post, result, names)
        view = self.board_components(record, game, state, post.awaited, result, users)
        post.buttons = _has_choices(view)
        kwargs: dict[str, Any] = {
            "allowed_mentions": discord.AllowedMentions(
                users=[discord.Object(u) for s in post.pinged if (u := users.get(s))]),
        }
        if view is not None:
            kwargs["view"] = view
        if file is not None and not self._may_attach(channel):
            file = None
            content = _without_picture(content)
        if file is not None:
            try:
                message = await channel.send(content, file=file, **kwargs)
            except discord.Forbidden as exc:
                if exc.code != 50013:
                    raise
                # Attach Files was taken away (or Send Messages: then this fails too)
                log.info("game %s: a board post with its picture was refused; posting the "
                         "words alone", record.id)
                message = await channel.send(_without_picture(content), **kwargs)
        else:
            message = await channel.send(content, **kwargs)
        self.saw(message.id)
        old = record.board_message_id
        await self._remember(record, message.id, post)
        if old and old != message.id and strip:
            await self._take_choices_off(record.id, channel, old, answers)

    async def _take_choices_off(self, gid: int, channel: discord.abc.Messageable,
                                message_id: int, answers: list[HeldAnswer] | None) -> None:
        """Take the choices off a replaced board post: in a press's answer on it (type 7) when
        the post is young, else by editing it. An hour-old post is never a press's answer —
        Discord may refuse the edit for longer than the 3 s an answer has, so the press is
        deferred instead — and an edit Discord refuses is owed (`_stale`) and tried again
        with backoff (`_tidy`); meanwhile a press on it is refused as an earlier moment's."""
        young = not self.is_old(message_id)
        channel_id = _channel_id(channel)
        try:
            if young and await self._answer(answers, message_id, view=None):
                return
        except discord.HTTPException as exc:
            self._note_refusal(channel_id, exc)
            log.info("game %s: a press's answer could not strip board %s; editing it", gid,
                     message_id)
        try:
            if self._refusing(channel_id):
                raise _TooOld  # refused moments ago: owed at once, no request
            await channel.get_partial_message(message_id).edit(view=None)  # type: ignore[attr-defined]
        except discord.NotFound:
            return  # deleted meanwhile: no buttons left
        except (discord.HTTPException, _TooOld) as exc:
            self._note_refusal(channel_id, exc)
            log.info("game %s: could not strip buttons from board %s (%r); trying again "
                     "later", gid, message_id, exc)
            self._owe(gid, message_id, channel_id, STRIP)

    async def _edit_board(self, record: GameRecord, game: Game[Any, Any], state: Any,
                          post: BoardPost, result: Result | None,
                          channel: discord.abc.Messageable, users: dict[str, int | None],
                          names: dict[str, str], answers: list[HeldAnswer] | None = None,
                          ) -> bool:
        """Edit the current post in place (new words, picture, buttons); False if it is gone.
        A press on that post whose answer is still open is answered with the edit itself."""
        assert record.board_message_id is not None
        content = self.board_text(record, game, state, post, result, users, names)
        file = await self.board_file(record, game, state, post, result, names)
        view = self.board_components(record, game, state, post.awaited, result, users)
        post.buttons = _has_choices(view)
        if file is not None and not self._may_attach(channel):
            file, content = None, _without_picture(content)
        try:
            if await self._answer(answers, record.board_message_id, content=content,
                                  attachments=[file] if file else [], view=view):
                await self._remember(record, record.board_message_id, post)
                return True
        except discord.HTTPException as exc:
            if exc.code == OLD_EDITS_CODE:
                self._note_refusal(_channel_id(channel), exc)
                raise _TooOld from exc  # editing it ourselves would be refused the same
            log.info("game %s: could not answer a press with its board; editing it instead",
                     record.id)
            if file is not None:
                file.reset()
        message = channel.get_partial_message(record.board_message_id)  # type: ignore[attr-defined]
        try:
            try:
                await message.edit(content=content, attachments=[file] if file else [],
                                   view=view, allowed_mentions=discord.AllowedMentions.none())
            except discord.Forbidden as exc:
                if file is None or exc.code != 50013:
                    raise
                await message.edit(content=_without_picture(content), attachments=[],
                                   view=view, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as exc:
            if exc.code == OLD_EDITS_CODE:
                self._note_refusal(_channel_id(channel), exc)
                raise _TooOld from exc
            if not isinstance(exc, discord.NotFound) or exc.code == 10003:
                raise  # Unknown Channel: the thread is gone (the caller handles it)
            log.info("game %s: its board post %s is gone; posting anew", record.id,
                     record.board_message_id)
            return False
        await self._remember(record, record.board_message_id, post)
        return True

    @staticmethod
    def _may_attach(channel: Any) -> bool:
        """False when the gateway cache says the bot lacks Attach Files there (the post then
        goes without its picture, saying so); True when it may, or nobody knows."""
        perms = _bot_permissions(channel)
        return perms is None or perms.attach_files

    @staticmethod
    async def _answer(answers: list[HeldAnswer] | None, message_id: int, **edit: Any) -> bool:
        """Edit board post `message_id` as the answer to a press on it (type 7, one request
        for the answer and the edit), if one is open; False if none is (edit it yourself)."""
        for held in answers or []:
            pressed = held.interaction.message
            if pressed is None or pressed.id != message_id or not held.open:
                continue
            if not await held.take():
                return False
            edit.setdefault("allowed_mentions", discord.AllowedMentions.none())
            await held.interaction.response.edit_message(**edit)
            return True
        return False

    async def _remember(self, record: GameRecord, message_id: int, post: BoardPost) -> None:
        await self.bot.storage.set_board_message(record.id, message_id, record.version,
                                                 post.dump())
        self._board_ids[record.id] = (record.board_message_id, message_id)
        self._posts[record.id] = (message_id, post)


FULL_BOARDS_KEPT = 32
"""Full-board renders kept (one per game, the newest games'): a press at the same version
costs no render; older games render again when pressed."""

MAX_POST_LINES = 60
"""Event lines one board post keeps (a long turn's oldest lines stay in `/game log`)."""

OLD_MESSAGE = 50 * 60.0
"""Seconds after which the bot treats a message as old. Discord allows few edits of messages
older than an hour (about 3 per 6 s per channel, then 429 / 30046, and a refusal can outlast
discord.py's retries), and in a game spread over days most edits would hit them: an old board
post is not edited but followed by a fresh one, a press on it is not answered by editing it.
Ten minutes short of the hour: the bot's idea of Discord's clock may lag a little."""

OLD_EDITS_CODE = 30046
"""Discord's "Maximum number of edits to messages older than 1 hour reached"."""

STRIP, DELETE = "strip", "delete"
"""What is still owed to an old message (`Delivery._stale`): its choices taken off, or (a
summary DM replaced by a new one) the message deleted."""


@dataclass
class BoardPost:
    """What the current board post stands for: the seats it waits for, in which turn, the event
    lines it shows and the seats it pinged (stored, so a restart keeps the policy)."""

    awaited: list[str]
    turn: str
    lines: list[str]
    pinged: list[str]
    buttons: bool = True
    """Whether the post carries choices that go stale (a seat's action buttons or menus), to
    take away when a newer post replaces it; the table's own buttons never go stale."""

    def dump(self) -> str:
        return json.dumps({"awaited": self.awaited, "turn": self.turn, "lines": self.lines,
                           "pinged": self.pinged, "buttons": self.buttons})

    @classmethod
    def load(cls, text: str | None) -> BoardPost | None:
        if not text:
            return None
        try:
            data = json.loads(text)
            return cls(awaited=[str(s) for s in data["awaited"]], turn=str(data["turn"]),
                       lines=[str(line) for line in data["lines"]],
                       pinged=[str(s) for s in data["pinged"]],
                       buttons=bool(data.get("buttons", True)))
        except (ValueError, KeyError, TypeError):
            return None


@functools.cache
def has_board_picture(game: str) -> bool:
    """Whether `renders/<game>.py` draws this game's board (looked up, not imported: the
    renderers live in the worker processes)."""
    return importlib.util.find_spec(f"renders.{game}") is not None


def _has_choices(view: discord.ui.View | None) -> bool:
    """Whether a board post's components include a seat's choices (which go stale)."""
    return view is not None and any(
        isinstance(item, ActionButton | ActionSelect | PageButton) for item in view.children)


def _channel_id(channel: Any) -> int:
    return int(channel.id)


def _seat_index(state: Any, seat: str) -> int:
    seats = list(getattr(state, "seats", []) or [])
    return seats.index(seat) if seat in seats else len(seats)


def _shrink_png(data: bytes, limit: int) -> bytes:
    from PIL import Image

    image: Image.Image = Image.open(io.BytesIO(data))
    while True:
        image = image.resize((image.width * 3 // 4, image.height * 3 // 4))
        out = io.BytesIO()
        image.save(out, "PNG", optimize=True)
        if out.tell() <= limit or image.width < 400:
            return out.getvalue()


def delivery_for(bot: GameBot) -> Delivery:
    existing = getattr(bot, "_delivery", None)
    if isinstance(existing, Delivery):
        return existing
    delivery = Delivery(bot)
    bot._delivery = delivery  # type: ignore[attr-defined]
    return delivery
