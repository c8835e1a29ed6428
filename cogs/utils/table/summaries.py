"""Each seat's summary DM: its private summary, its private news and, while it is awaited, its
choices (the seat's private control panel)."""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord

from bot import limits
from bot.limits import clip
from bot.storage import GameRecord
from cogs.utils.table.channels import game_place
from cogs.utils.table.components import action_view, panel_actions
from cogs.utils.table.menus import menu_key
from cogs.utils.table.words import is_guided
from rules.core import Action
from rules.core.game import Game, join_words

if TYPE_CHECKING:
    pass

log = logging.getLogger(__name__)


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


@dataclass
class Settling:
    """Summary DM edits of one game held back (`SummaryDMs.refresh_summaries`): seats whose DM
    changed while nobody waited on it, each with the time (the loop's) by which it is written.
    They are written from the newest state shown (the record, state and players of the latest
    showing), in one edit per seat however many moves came meanwhile: when that time comes,
    at once when the game comes to wait for the seat's choices there or private news comes to
    it, when its owner presses a choice that moved on, or when the bot stops."""

    record: GameRecord
    state: Any
    users: dict[str, int | None]
    due: dict[str, float] = field(default_factory=dict)
    wanted: dict[str, tuple[str, str]] = field(default_factory=dict)
    """Each held seat's DM as its latest hold would write it (words, what its buttons stand
    for): a later refresh wanting the same is no new change (`SummaryDMs.dm_counts`)."""
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    """Set when a seat is held, so the game's task looks at the earliest time again."""
    task: asyncio.Task[None] | None = None


# A game in its own channel (a game option `table_channel=channel`, P-DISCORD-03): nobody but
# the bot posts there until a game's cog allows a player (per-member overwrites, kept by an
# after-action hook). Threads cannot carry per-member overwrites, hence a channel.

AfterAction = Callable[[GameRecord, Any], Awaitable[None]]


def summary_head(game: Game[Any, Any], gid: int) -> str:
    """How every summary DM of game `gid` starts; found again by it after a restart."""
    return f"**{game.title}** (game #{gid}) — you are **"


MINE = "`/game mine`"
"""`/game mine` named in code, when its command id is not known (`mine_command`)."""


def mine_command(command_ids: dict[str, int]) -> str:
    """How a message names `/game mine`: a clickable mention once the `/game` group's id is
    known (the bot synced its commands this run), else the command in code."""
    cid = command_ids.get("game")
    return f"</game mine:{cid}>" if cid else MINE


NEWS_KEPT = 5
"""How many of a seat's latest private lines its summary DM shows (`/game log private` has
them all)."""
NEWS_LINE = 300
"""One private line on a summary DM, at most: the summary itself must still fit."""
NEWS_HEAD = "Your private news (newest last):"
_SHARED = re.compile(r" \((only you(?:,| and) .+) see this\)$")
"""A team line's own note of who else reads it (`dms.seen_by`), at the line's end."""
_SHARED_HEAD = re.compile(r"^Your private news \(newest last; (only you(?:,| and) .+) see it\):$")


def _news_head(line: str) -> str | None:
    """Who the news head says shares every line ("only you and Bea"), "" when it says
    nobody; None when `line` is no news head."""
    if line == NEWS_HEAD:
        return ""
    found = _SHARED_HEAD.match(line)
    return found.group(1) if found else None


def news_block(news: list[str], room: int) -> str:
    """`news` (a seat's latest private lines) as the summary DM shows them above its summary,
    in at most `room` characters: the oldest lines go first when they do not fit. When every
    line shown is shared with the same teammates, the head says so once instead of each line
    (stop 67: five "(only you, AI Moth and AI Shade see this)" a DM)."""
    shown = news[-NEWS_KEPT:]
    while shown:
        found = [_SHARED.search(line) for line in shown]
        who = {m.group(1) if m else "" for m in found}
        shared = who.pop() if len(who) == 1 else ""
        head = f"Your private news (newest last; {shared} see it):" if shared else NEWS_HEAD
        lines = [f"• {clip(line[:m.start()] if shared and m else line, NEWS_LINE)}"
                 for line, m in zip(shown, found, strict=True)]
        block = "\n".join([head, *lines])
        if len(block) <= room:
            return block
        shown = shown[1:]
    return ""


def last_summary(text: str) -> str:
    """The private summary a summary DM showed (its words without head, news and question)."""
    text = text.split(PANEL_MARK, 1)[0]
    lines = text.split("\n")[1:]
    if lines and _news_head(lines[0]) is not None:
        lines = lines[1:]
        while lines and lines[0].startswith("• "):
            lines = lines[1:]
        if lines and not lines[0]:
            lines = lines[1:]
    return "\n".join(lines)


def last_news(text: str) -> list[str]:
    """The private news a summary DM showed (found again after a restart, kept showing), each
    line whole again when the head said who shares them all."""
    lines = text.split(PANEL_MARK, 1)[0].split("\n")[1:]
    shared = _news_head(lines[0]) if lines else None
    if shared is None:
        return []
    tail = f" ({shared} see this)" if shared else ""
    news = []
    for line in lines[1:]:
        if not line.startswith("• "):
            break
        news.append(line.removeprefix("• ") + tail)
    return news


def summary_text(game: Game[Any, Any], gid: int, state: Any, seat: str,
                 news: list[str] | None = None, last: str | None = None,
                 mine: str = MINE, question: int = 400) -> str | None:
    """The summary DM of `seat` now: its private news (`news`, its latest private lines; a
    move's private events come here rather than as DMs of their own, #15), then its private
    summary — or, while it holds nothing hidden, the summary its DM (`last`) showed, as the
    record of what it held. None while the seat holds nothing hidden and has no news. Its head
    line ends pointing at `mine` (`/game mine`: every game of the player, in every server)."""
    summary = game.private_summary(state, seat)
    if not summary and last is not None:
        summary = last_summary(last)
    if not summary and not news:
        return None
    # On the head line, which the DM's words are read back without (`last_summary`).
    head = (f"{summary_head(game, gid)}{game.role_words(state, seat)}**. "
            f"All your games: {mine}")
    body = f"\n{summary}" if summary else ""
    # The summary and the question below it (`question` characters) keep their room; the
    # news gets what is left.
    room = limits.CONTENT - len(head) - len(body) - max(question, 400)
    block = news_block(news or [], room)
    text = head + (f"\n{block}" if block else "") + (f"\n{body}" if block and body else body)
    return clip(text, limits.CONTENT)


ANSWER_NEWS_HEAD = "Only you see this:"
"""How the mover's own answer to their move opens its private news (`answer_news`)."""
ANSWER_ROOM = limits.CONTENT - 400
"""Characters of an answer the private news may take: the move's own words keep the rest."""


def answer_news(game: Game[Any, Any], state: Any, seat: str, lines: list[str],
                room: int = ANSWER_ROOM) -> str:
    """The private news a move brought its mover (`lines`: "You draw The Candle."), as their
    own answer to the move carries it — an ephemeral message only they read, so their summary
    DM need not be written for it at once: the lines, then what the seat holds now (its
    private summary, the DM's own words), in at most `room` characters. The summary is left
    out when it does not fit (their DM, `/game hand` and **My hand** show it); the lines are
    clipped like the DM's. "" when the move brought the mover no news."""
    if not lines:
        return ""
    block = [ANSWER_NEWS_HEAD, *(f"• {clip(line, NEWS_LINE)}" for line in lines[-NEWS_KEPT:])]
    text = "\n".join(block)
    summary = game.private_summary(state, seat)
    if summary and len(text) + 1 + len(summary) <= room:
        text = f"{text}\n{summary}"
    return clip(text, room)


BOARD_MOVES_NAMED = 8
"""How many of the board post's moves a summary DM names before "…": a Wall turn's Delve, its
Triggers, its Destroys and its end (stop 69: at four, the Destroy its advice named was cut)."""


def board_moves(game: Game[Any, Any], state: Any, seat: str, public: list[Action]) -> str:
    """The board post's moves for `seat` as its buttons read, for its DM ("Trigger Breaker
    (1 Doom), Delve (1 Doom) or End the turn"): the DM's advice may name one of them (stop
    69: the Wall's DM said "strike" at a Horror whose Trigger was on the board post alone,
    beside a lone Manifest button). Each choice stays on one message, so the DM names them
    and does not repeat them; they are public, so naming them tells the seat nothing new."""
    # In bold, as a button reads: a label's own colon or commas ("Rest: discard any, draw up
    # to 5") ran into the list's (stop 69).
    names = list(dict.fromkeys(f"**{game.describe(state, seat, a)}**" for a in public))
    if len(names) > BOARD_MOVES_NAMED:
        return ", ".join(names[:BOARD_MOVES_NAMED - 1]) + ", …"
    return join_words(names, "or")


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
               last: str | None = None, news: list[str] | None = None,
               mine: str = MINE) -> SummaryNow | None:
    """`seat`'s summary DM now: its words (with its latest private `news`) and its private
    choices while the game waits for them (none otherwise). None while the seat holds nothing
    hidden, has no news and has no DM yet; with one (`last`, its words), the summary it last
    showed stays, as the record of what it held."""
    actions = panel_actions(game, state, seat)
    question = ""
    if actions:
        # Only this seat reads it: the question may name its hidden cards, like its menu.
        # A turn's public moves (Walk, Rest, Trigger, End the turn…) are buttons on the board
        # post, not here: say so, or a player reading only the DM thinks these are all it has.
        public = game.public_actions(state, seat) if game.to_act(state) == {seat} else []
        # The DM's own buttons said too where the game words them (stop 70: the Ghost player's
        # DM named the board post's Raise and Terrors, not its Haunt cards).
        own = game.panel_words(state, seat, actions)
        below = f"choose below ({own})" if own else "choose below"
        question = game.prompt_text(state, seat) or (
            f"{below}, or on the board post in {game_place(record.options)}: "
            f"{board_moves(game, state, seat, public)}." if public else f"{below}.")
        if is_guided(record, game) and (hint := game.guide_text(state, seat, private=True)):
            question = f"{question}\n{'' if game.plain_words(state) else '💡 '}{hint}"
    # A long question (a pick among cards said in full) is not cut for older news: news
    # makes room for it (stop 66: the Unknown Threat deck's last cards were cut)
    base = summary_text(game, record.id, state, seat, news, last, mine,
                        len(PANEL_MARK) + len(question))
    if base is None:
        if last is None:
            return None
        base = last.split(PANEL_MARK, 1)[0]
    if not actions:
        return SummaryNow(base, "", [], record, game, state, seat)
    return SummaryNow(clip(base + PANEL_MARK + question, limits.CONTENT),
                      menu_key(game, state, seat, record.epoch, actions), actions, record, game,
                      state, seat)
