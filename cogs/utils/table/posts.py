"""What a board post is (`BoardPost`, stored so a restart keeps the calm-table policy), the queue
entry that shows one (`Showing`), and how Discord's refusals are read (`retryable`,
`blocked_reason`)."""

from __future__ import annotations

import asyncio
import functools
import importlib.util
import io
import json
import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord

from bot import limits
from bot.limits import clip
from bot.storage import GameRecord
from cogs.utils.answers import HeldAnswer
from cogs.utils.pictures import NO_PICTURE, NO_VIEW, NOTES
from cogs.utils.table.components import ActionButton, ActionSelect, PageButton
from rules.core import Result
from rules.core.game import Game

if TYPE_CHECKING:
    pass

log = logging.getLogger(__name__)


MISSING_ACCESS = 50001
"""Discord's code for a channel the bot may not see at all (removed from the server, or no
View Channel): treated like a deleted thread."""


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


class _Superseded(Exception):
    """A busy bot drew a board a newer move already replaces: it is not sent, the newer one
    goes with both moves' lines (`BoardPosts._show_queued`)."""


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


def no_picture_note(channel: Any) -> str:
    """Why a post goes without its picture when the gateway cache says the bot may not attach
    one: without View Channel the cache denies it everything there, Attach Files included,
    and View Channel is then the permission to give back (stop 69)."""
    perms = _bot_permissions(channel)
    return NO_VIEW if perms is not None and not perms.view_channel else NO_PICTURE


def _without_picture(content: str, note: str = NO_PICTURE) -> str:
    """A board post's words when its picture may not be attached, saying why."""
    if any(n in content for n in NOTES):
        return content
    room = limits.CONTENT - len(note) - 1
    return f"{clip(content, room)}\n{note}"


def _done() -> asyncio.Future[None]:
    future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    future.set_result(None)
    return future



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
    turn_pinged: list[str] = field(default_factory=list)
    """Every seat pinged by this turn's posts so far: none is pinged twice in one turn."""

    def dump(self) -> str:
        return json.dumps({"awaited": self.awaited, "turn": self.turn, "lines": self.lines,
                           "pinged": self.pinged, "buttons": self.buttons,
                           "turn_pinged": self.turn_pinged})

    @classmethod
    def load(cls, text: str | None) -> BoardPost | None:
        if not text:
            return None
        try:
            data = json.loads(text)
            return cls(awaited=[str(s) for s in data["awaited"]], turn=str(data["turn"]),
                       lines=[str(line) for line in data["lines"]],
                       pinged=[str(s) for s in data["pinged"]],
                       buttons=bool(data.get("buttons", True)),
                       turn_pinged=[str(s) for s in data.get("turn_pinged", data["pinged"])])
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



def _shrink_png(data: bytes, limit: int) -> bytes:
    from PIL import Image

    image: Image.Image = Image.open(io.BytesIO(data))
    while True:
        image = image.resize((image.width * 3 // 4, image.height * 3 // 4))
        out = io.BytesIO()
        image.save(out, "PNG", optimize=True)
        if out.tell() <= limit or image.width < 400:
            return out.getvalue()
