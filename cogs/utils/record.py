"""A finished game's record (issue #24): `/game record` opens an over or abandoned game of this
server, privately — the result in words (`Game.ending`, told from the public log), the recap
picture of the end (`renders/recap.py`, as the game-over post draws it), how to see any step
with `/game replay`, and the full public log as a text file. The finished games are offered by
autocomplete (newest first, by title, date and players: public facts only), and `/game replay`
takes the same `game` option.

Nothing hidden leaves here: the log keeps only public events, the pictures are drawn from the
public view, and a game still running is not opened at all (its thread is linked instead).
"""

from __future__ import annotations

import io
import logging
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot import limits
from bot.limits import clip
from bot.storage import GameListing, GameRecord
from bot.tables import LogEntry, TableError
from cogs.utils.ending import recap_file, result_words
from cogs.utils.mine import thread_link
from cogs.utils.table import delivery_for, game_of
from cogs.utils.table.posts import has_board_picture
from cogs.utils.when import stamp
from rules.core.game import Game, join_words
from rules.registry import GAMES

if TYPE_CHECKING:
    from bot.client import GameBot

log = logging.getLogger(__name__)

CHOICES = 25
"""Discord shows at most 25 autocomplete choices."""
SCANNED = 200
"""Finished games an autocomplete looks through for typed words (the newest): a server with
10,000 finished games is still answered at once; a number finds any game."""
MAX_GAME_ID = 10 ** 18
"""Game ids are at most 18 digits (as in custom ids)."""


def game_ref(text: str) -> int | None:
    """The game number a player gave (`12`, `#12`, `game #12`, a choice's value): None when it
    is no number (ASCII digits only, at most 18)."""
    raw = text.strip().lower().removeprefix("game").strip().lstrip("#").strip()
    if not raw or not raw.isascii() or not raw.isdigit() or len(raw) > 18:
        return None
    return int(raw)


def finished_label(listing: GameListing, names: dict[str, str]) -> str:
    """An autocomplete choice for a finished game: number, title, date, players (`names`:
    plain, as a choice shows no markdown), how it ended (at most 100 characters, Discord's
    limit on a choice's name)."""
    game = GAMES.get(listing.game)
    title = game.title if game else listing.game
    day = time.strftime("%Y-%m-%d", time.gmtime(listing.updated_at))
    players = ", ".join(names[s] for s in listing.seats if s in names)
    ended = "abandoned" if listing.status == "abandoned" else "over"
    head = f"#{listing.id} {title} — {day} — {ended}"
    return clip(f"{head} — {players}" if players else head, 100)


async def finished_choices(bot: GameBot, guild_id: int | None,
                           current: str) -> list[app_commands.Choice[str]]:
    """This server's finished games matching what is typed (a number, or words of the title,
    the date or a player's name), newest first."""
    if guild_id is None:
        return []
    typed = current.strip()
    number = game_ref(typed)
    listings = await bot.storage.finished_games(
        guild_id, CHOICES if number is not None else SCANNED,
        id_prefix=str(number) if number is not None else "")
    delivery = delivery_for(bot)
    words = typed.casefold().split()
    out: list[app_commands.Choice[str]] = []
    for listing in listings:
        label = finished_label(listing, delivery.plain(delivery.known_names(listing.seats)))
        if number is None and not all(w in label.casefold() for w in words):
            continue
        out.append(app_commands.Choice(name=label, value=str(listing.id)))
        if len(out) == CHOICES:
            break
    return out


async def finished_game(bot: GameBot, guild_id: int | None, typed: str,
                        replay_in: int | None = None) -> GameRecord:
    """The finished game of this server `typed` names, or a clear refusal: no such game here
    (another server's is not found either), or one still running (its record opens when it
    ends; `replay_in`, the channel asked from: a running game is replayed in its own thread)."""
    gid = game_ref(typed)
    record = await bot.storage.get_game(gid) if gid is not None else None
    if record is None or guild_id is None or record.guild_id != guild_id:
        raise TableError(f"There's no finished game `{clip(typed, 40)}` in this server. Pick "
                         "one from the list as you type (`/game list` shows the running ones).")
    if record.status in ("lobby", "active"):
        where = thread_link(record.guild_id, record.thread_id or record.channel_id)
        if replay_in is not None and replay_in == (record.thread_id or record.channel_id):
            return record
        if replay_in is not None:
            raise TableError(f"Game #{record.id} is still running: `/game replay` it in its "
                             f"own thread, {where}")
        raise TableError(f"Game #{record.id} is still running: its record opens when it ends. "
                         f"Its thread: {where}")
    return record


def log_lines(game: Game[Any, Any], gid: int, entries: list[LogEntry], state: Any,
              names: dict[str, str]) -> list[str]:
    """The public log as `/game log` numbers it: a head line, then every public event as the
    thread told it (`Game.event_text`; `names` plain, for a file)."""
    lines = [f"{game.title} — game #{gid} — public log"]
    for entry in entries:
        for event in entry.events:
            if event.public:
                lines.append(f"{entry.seq:>4}. {game.event_text(state, event, names)}")
    if len(lines) == 1:
        lines.append("Nothing happened: no move was made.")
    return lines


@dataclass
class GameRecordAnswer:
    """What `/game record` answers: its words and its files (recap picture, public log)."""

    text: str
    files: list[discord.File] = field(default_factory=list)


async def open_record(bot: GameBot, record: GameRecord) -> GameRecordAnswer:
    """The record of a finished game: result, recap picture, replay hint, public log file."""
    game = game_of(record)
    delivery = delivery_for(bot)
    users = await bot.tables.users_of(record.id)
    names = await delivery.names(users)
    head = (f"**{game.title}** — game #{record.id}, "
            + ("abandoned" if record.status == "abandoned" else "finished")
            + f" {stamp(record.updated_at)}. Thread: "
            + thread_link(record.guild_id, record.thread_id or record.channel_id))
    players = "Players: " + join_words(list(names.values())) + "." if names else ""
    if record.seed is None:
        why = record.settings.ended_because
        text = "\n".join(p for p in (
            head, f"It was abandoned before it started{f' ({why})' if why else ''}: no moves, "
            "no log.", players) if p)
        return GameRecordAnswer(clip(text, limits.CONTENT))
    state = await bot.tables.state(record.id)
    try:
        entries: list[LogEntry] | None = await bot.tables.history(record.id)
    except TableError:
        entries = None  # recorded by older rules: the result stands, the log cannot be told
    files: list[discord.File] = []
    result = game.result(state)
    if result is not None:
        moves = [(e.seat, [ev for ev in e.events if ev.public]) for e in entries or []]
        ending = game.ending(state, result, moves, names)
        outcome = f"🏁 {result_words(game, state, ending)} It lasted {ending.length}."
        if has_board_picture(record.game):
            plain = delivery.plain(names)
            drawn = game.ending(state, result, moves, plain)
            if (picture := await recap_file(record, game, state, drawn, plain)) is not None:
                files.append(picture)
    else:
        why = record.settings.ended_because
        outcome = (f"It was abandoned{f' ({why})' if why else ''} after "
                   f"{record.version} move{'s' if record.version != 1 else ''}: nobody won.")
        if has_board_picture(record.game):
            view = game.view(state, None)
            view["names"] = delivery.plain(names)
            board = await delivery.picture(record.game, view, "final-board.png",
                                           game.alt_text(state, view["names"]))
            if board is not None:
                files.append(board)
    steps = (f"See the board at any step: `/game replay game:{record.id} step:0` (the deal) to "
             f"`step:{record.version}` (the end).")
    if entries is not None:
        lines = log_lines(game, record.id, entries, state, delivery.plain(names))
        files.append(discord.File(io.BytesIO("\n".join(lines).encode()),
                                  filename=f"game-{record.id}-log.txt", description=lines[0]))
    told = ("The whole public log is attached." if entries is not None else
            "Its log was recorded by an older version of the rules and can't be replayed.")
    text = "\n".join(p for p in (head, outcome, players, steps, told) if p)
    return GameRecordAnswer(clip(text, limits.CONTENT), files)
