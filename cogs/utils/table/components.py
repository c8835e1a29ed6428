"""The buttons and menus of a table: restart-proof `DynamicItem`s whose custom ids name the game,
the seat and the decision, and the views built from a seat's legal actions."""

from __future__ import annotations

import hashlib
import logging
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot import limits
from bot.limits import clip
from bot.storage import GameRecord
from bot.tables import TableError
from cogs.utils.ending import RematchButton
from cogs.utils.errors import answer_error, reply
from cogs.utils.tokens import ID, SMALL, picked, readable
from rules.core import Action
from rules.core.game import Game
from rules.registry import GAMES

if TYPE_CHECKING:
    pass

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



# ---- what a press does ---------------------------------------------------------------------

Press = Callable[[discord.Interaction[Any], int, str, str, str], Awaitable[None]]
TurnPage = Callable[[discord.Interaction[Any], int, str, str, int], Awaitable[None]]
ShowPrivately = Callable[[discord.Interaction[Any], int], Awaitable[None]]


@dataclass(frozen=True)
class PlayPath:
    """What a press of a table component does: the play path (`presses`), which sits above
    delivery, while these components sit below it (delivery builds them into board posts), so
    the play path hands itself down once at import (`serve_play_path`) rather than the
    components importing it."""

    press: Press
    turn_page: TurnPage
    show_hand: ShowPrivately
    show_choices: ShowPrivately
    show_full_board: ShowPrivately


_served: list[PlayPath] = []


def serve_play_path(path: PlayPath) -> None:
    """The play path answers every press from now on (called once, by `presses`)."""
    _served[:] = [path]


def play_path() -> PlayPath:
    if not _served:
        raise RuntimeError("cogs.utils.table.presses was never imported: no play path to press")
    return _served[0]


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
        await play_path().press(interaction, self.gid, self.seat, self.decision, self.h)


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
        await play_path().press(interaction, self.gid, self.seat, self.decision, str(values[0]))


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
            await play_path().show_hand(interaction, self.gid)
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
            await play_path().show_choices(interaction, self.gid)
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
        await play_path().turn_page(interaction, self.gid, self.seat, self.decision, self.page)




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
            await play_path().show_full_board(interaction, self.gid)
        except Exception as exc:
            await answer_error(interaction, exc)


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    ActionButton, ActionSelect, HandButton, ChoicesButton, PageButton,
    FullBoardButton, RematchButton)


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



def _seat_index(state: Any, seat: str) -> int:
    seats = list(getattr(state, "seats", []) or [])
    return seats.index(seat) if seat in seats else len(seats)
