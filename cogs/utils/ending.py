"""The end of a game on Discord (issue #22): the game-over post, the result DMs, the closed
summary DMs and the **Rematch** button.

When a move ends a game, the board post (`Delivery.post_board`) hands over to `game_over_post`
here: a new post that pings every human player, says in words who won, who lost and why
(`Game.ending`, told from the public log), carries the recap picture (`renders/recap.py`,
drawn in the render worker) with its alt text, and a **Rematch** button. Then each human player
gets a DM with the result, and their summary DM is closed: its private choices taken off, its
words left as the final state of what they held, headed "Game over".

The **Rematch** button is a `DynamicItem` (`hb:rematch:<game>`), so it works after a restart.
A seated player's press opens the rematch exactly as `/game rematch` does (`Lobby.open_rematch`,
found through the bot's cogs: this module imports no cog); a later press is told where the
rematch already is; anyone else is told, privately, that only the players can start it.
"""

from __future__ import annotations

import io
import logging
import re
from typing import TYPE_CHECKING, Any, Protocol

import discord

from bot import limits
from bot.limits import clip
from bot.renderpool import render_recap
from bot.storage import GameRecord
from bot.tables import TableError
from cogs.utils.errors import answer_error
from cogs.utils.pictures import picture_refused
from cogs.utils.tokens import ID
from rules.core.ending import Ending
from rules.core.game import Game, strip_rule_ids
from rules.core.types import Event, Result

if TYPE_CHECKING:
    from bot.client import GameBot

log = logging.getLogger(__name__)

ALT_TEXT_LIMIT = 1024
"""Discord's limit on an attachment's description."""
RECAP_FILE = "recap.png"
GAME_OVER_HEAD = "Game over"
"""How a closed summary DM starts after its game's name."""


class Rematches(Protocol):
    """What the lobby cog offers this module (found with `bot.get_cog("Lobby")`)."""

    async def open_rematch(self, interaction: discord.Interaction[Any],
                           record: GameRecord) -> str: ...


class RematchButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                    template=rf"hb:rematch:(?P<gid>{ID})"):
    """**Rematch** on a game-over post: the same game, mode, options and players, new deal."""

    def __init__(self, gid: int) -> None:
        self.gid = gid
        super().__init__(discord.ui.Button(label="Rematch", emoji="🔁",
                                           style=discord.ButtonStyle.primary,
                                           custom_id=f"hb:rematch:{gid}"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> RematchButton:
        return cls(int(match["gid"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            await press_rematch(interaction, self.gid)
        except Exception as exc:
            await answer_error(interaction, exc)


async def _already(bot: GameBot, gid: int) -> str | None:
    """Where the rematch of game `gid` is, if one was started: "<#thread>" or its number."""
    existing = await bot.storage.find_game_by_rematch(gid)
    if existing is None:
        return None
    return f"<#{existing.thread_id}>" if existing.thread_id else f"game #{existing.id}"


async def press_rematch(interaction: discord.Interaction[Any], gid: int) -> None:
    """A press on **Rematch**: a seated player opens the rematch (once); others are told no."""
    bot: GameBot = interaction.client  # type: ignore[assignment]
    record = await bot.tables.get(gid)
    if await bot.tables.seat_of(gid, interaction.user.id) is None:
        await interaction.response.send_message(
            "Only this game's players can start its rematch. You can open a game of your own "
            "with `/game new`.", ephemeral=True)
        return
    if (where := await _already(bot, gid)) is not None:
        await interaction.response.send_message(f"The rematch has already started: {where}.",
                                                ephemeral=True)
        return
    lobby: Rematches | None = bot.get_cog("Lobby")  # type: ignore[assignment]
    if lobby is None:
        raise TableError("Rematches are not available right now; try `/game rematch` in the "
                         "game's thread.")
    try:
        where = await lobby.open_rematch(interaction, record)
    except TableError:
        # Two presses at once: the other one started it.
        if (where := await _already(bot, gid)) is None:
            raise
        await interaction.followup.send(f"The rematch has already started: {where}.",
                                        ephemeral=True)
        return
    await interaction.followup.send(f"Rematch started in {where}.", ephemeral=True)


async def public_log(bot: GameBot, record: GameRecord
                     ) -> list[tuple[str | None, list[Event]]]:
    """Each move of the game with its public events, replayed from the log (what the story is
    told from); empty when the log cannot be replayed (the plain telling follows)."""
    try:
        history = await bot.tables.history(record.id)
    except TableError:
        log.info("game %s: its log cannot be replayed; the ending is told without it",
                 record.id)
        return []
    return [(entry.seat, [e for e in entry.events if e.public]) for entry in history]


def result_words(game: Game[Any, Any], state: Any, ending: Ending) -> str:
    """The result as the post and the DMs say it: who won and lost, then why."""
    text = ending.sentence
    return strip_rule_ids(text) if game.plain_words(state) else text


def spill_pieces(game: Game[Any, Any], state: Any, gid: int,
                 lines: list[str]) -> list[tuple[str, int]]:
    """Posts for event lines a board or game-over post has no room for (sent just before
    it, in order), each headed as the post they lead to and with how many of `lines` it
    finishes: whole lines go into a post (a line longer than a post, never seen in play, is
    cut across posts and counts in its last one), so a retry knows which lines are through."""
    if not lines:
        return []
    head = f"{game.title} — game #{gid} (continued below)"
    if not game.plain_words(state):
        head = f"**{game.title}** — game #{gid} (continued below)"
    room = limits.CONTENT - len(head) - 1
    pieces: list[tuple[str, int]] = []
    body: list[str] = []
    for line in lines:
        if body and len("\n".join([*body, line])) > room:
            pieces.append(("\n".join(body), len(body)))
            body = []
        if len(line) > room:
            cut = limits.split(line, room)
            pieces.extend((piece, 0) for piece in cut[:-1])
            pieces.append((cut[-1], 1))
            continue
        body.append(line)
    if body:
        pieces.append(("\n".join(body), len(body)))
    return [(f"{head}\n{text}", count) for text, count in pieces]


async def send_spill(delivery: Delivering, channel: discord.abc.Messageable, gid: int,
                     game: Game[Any, Any], state: Any, lines: list[str]) -> None:
    """Post `lines` (that the post they lead to has no room for) just before it, pinging
    nobody. Each post is remembered as it lands (`_spilled`): when Discord refuses one part
    way, or the post they lead to, the retry sends only the lines not yet through."""
    sent = delivery._spilled.get(gid, ())
    if sent and tuple(lines[:len(sent)]) == sent:
        lines = lines[len(sent):]
    else:
        sent = ()
    for text, count in spill_pieces(game, state, gid, lines):
        message = await channel.send(text, allowed_mentions=discord.AllowedMentions.none())
        delivery.saw(message.id)
        sent, lines = sent + tuple(lines[:count]), lines[count:]
        delivery._spilled[gid] = sent


def post_text(record: GameRecord, game: Game[Any, Any], state: Any, lines: list[str],
              ending: Ending, pings: list[int]) -> str:
    """The game-over post's words: the last moves' lines, the result, who played, and what
    the **Rematch** button does."""
    return post_words(record, game, state, lines, ending, pings)[0]


def post_words(record: GameRecord, game: Game[Any, Any], state: Any, lines: list[str],
               ending: Ending, pings: list[int]) -> tuple[str, list[str]]:
    """`post_text`, and the event lines (as shown) it had no room for, oldest first."""
    plain = game.plain_words(state)
    header = f"**{game.title}** — game #{record.id}"
    shown = game.present(state, lines)
    if plain:
        shown = [strip_rule_ids(line) for line in shown]
    result = result_words(game, state, ending)
    over = f"Game over. {result}" if plain else f"🏁 **Game over.** {result}"
    who = (("Thanks for playing, " if plain else "🎲 Thanks for playing, ")
           + ", ".join(f"<@{u}>" for u in pings) + "!") if pings else ""
    tail = (f"It lasted {ending.length}. Press **Rematch** to play again: same game, options "
            "and players, a new deal.")
    body = [f"• {line}" for line in shown]
    spilled: list[str] = []
    while True:
        content = "\n".join(p for p in (header, *body, over, who, tail) if p)
        if len(content) <= limits.CONTENT or not body:
            return clip(content, limits.CONTENT), spilled
        spilled.append(body.pop(0))


def recap_view(game: Game[Any, Any], state: Any, ending: Ending,
               names: dict[str, str]) -> dict[str, Any]:
    """What the recap picture is drawn from: the public view at game over, the players' plain
    names and the ending (told from public events only)."""
    view = game.view(state, None)
    view["names"] = names
    view["ending"] = ending.as_view()
    return view


async def recap_file(record: GameRecord, game: Game[Any, Any], state: Any, ending: Ending,
                     names: dict[str, str]) -> discord.File | None:
    """The recap picture with its alt text, or None when it cannot be drawn (the post goes
    without it: the words say everything the picture does)."""
    try:
        data = await render_recap(record.game, recap_view(game, state, ending, names))
    except Exception:  # a render failure must not keep the result from the table
        log.exception("game %s: the recap picture could not be drawn", record.id)
        return None
    if not data:
        return None
    return discord.File(io.BytesIO(data), filename=RECAP_FILE,
                        description=ending.alt_text(ALT_TEXT_LIMIT))


def closed_summary(game: Game[Any, Any], gid: int, state: Any, seat: str,
                   last: str | None) -> str:
    """A seat's summary DM once the game is over: headed "Game over", then what it held at the
    end (its private summary now, else what the DM last showed) and no question."""
    from_last = ""
    if last:
        # What the DM showed, without its head line and without the question of its choices.
        words = last.split("\n\n**Your move:** ", 1)[0].split("\n", 1)
        from_last = words[1] if len(words) > 1 else ""
    summary = game.private_summary(state, seat) or from_last
    head = (f"**{game.title}** (game #{gid}) — **{GAME_OVER_HEAD}.** You were "
            f"**{game.role_words(state, seat)}**.")
    final = f"\n\nWhat you held at the end:\n{summary}" if summary else ""
    return clip(head + final, limits.CONTENT)


def result_dm(record: GameRecord, game: Game[Any, Any], state: Any, seat: str,
              ending: Ending, link: str | None) -> str:
    """The DM each human player gets when the game ends: the result and their own side of it."""
    if seat in ending.winners:
        mine = "You won!"
    elif seat in ending.losers:
        mine = "You lost."
    else:
        mine = ""
    where = f" The recap and a **Rematch** button: {link}" if link else ""
    text = (f"**{game.title}** (game #{record.id}) is over. {result_words(game, state, ending)}"
            f" {mine}{where}")
    return clip(" ".join(text.split(" ")).strip(), limits.CONTENT)


class Summaries(Protocol):
    """A seat's summary DM as the delivery keeps it (`table.SummaryDM`)."""

    user_id: int
    message_id: int | None
    text: str
    panel: str | None


class Delivering(Protocol):
    """What the game-over post needs of the table's delivery (`table.Delivery`)."""

    bot: GameBot
    _summaries: dict[tuple[int, str], Any]
    _spilled: dict[int, tuple[str, ...]]

    def plain(self, names: dict[str, str]) -> dict[str, str]: ...

    def saw(self, snowflake: int) -> None: ...

    def _may_attach(self, channel: Any) -> bool: ...

    async def _dm_channel(self, user_id: int) -> discord.PartialMessageable: ...

    async def dm(self, user_id: int, text: str, **kwargs: Any) -> bool: ...


async def human_players(bot: GameBot, gid: int, users: dict[str, int | None]) -> list[str]:
    """The seats a person plays (not the AI), in table order."""
    records = await bot.storage.seats(gid)
    humans = {s.seat for s in records if not s.ai_driven}
    return [s for s in users if s in humans and users.get(s)]


async def game_over_post(delivery: Delivering, record: GameRecord, game: Game[Any, Any],
                         state: Any, lines: list[str], result: Result,
                         channel: discord.abc.Messageable, users: dict[str, int | None],
                         names: dict[str, str], extras: list[discord.ui.Item[Any]], *,
                         picture: bool = True) -> discord.Message:
    """Post the game-over post (pinging every human player, the result in words, the recap
    picture, **Rematch** and `extras`), then DM each human player the result and close their
    summary DM. Returns the post. `picture`: whether the game has pictures (a game without
    one gets no recap picture either: its words say it all)."""
    bot = delivery.bot
    moves = await public_log(bot, record)
    # Told twice from one replay: with markdown-safe names for the words, plain names for
    # the picture and its alt text (which show no markdown).
    ending = game.ending(state, result, moves, names)
    plain = delivery.plain(names)
    drawn = game.ending(state, result, moves, plain)
    humans = await human_players(bot, record.id, users)
    pings = [u for s in humans if (u := users.get(s))]
    content, spilled = post_words(record, game, state, lines, ending, pings)
    # The last moves' lines it has no room for go just before it, never lost (a long last
    # turn: the Haunt phase that ends the game, an AI's whole turn).
    await send_spill(delivery, channel, record.id, game, state, spilled)
    view = discord.ui.View(timeout=None)
    view.add_item(RematchButton(record.id))
    for item in extras:
        view.add_item(item)
    mentions = discord.AllowedMentions(users=[discord.Object(u) for u in pings])
    file = (await recap_file(record, game, state, drawn, plain)
            if picture and delivery._may_attach(channel) else None)
    try:
        message = await (channel.send(content, file=file, view=view, allowed_mentions=mentions)
                         if file is not None else
                         channel.send(content, view=view, allowed_mentions=mentions))
    except discord.HTTPException as exc:
        note = picture_refused(exc) if file is not None else None
        if note is None:
            raise
        log.info("game %s: the game-over post with its recap was refused (%s); posting the "
                 "words alone", record.id, exc)
        message = await channel.send(f"{clip(content, limits.CONTENT - len(note) - 1)}\n{note}",
                                     view=view, allowed_mentions=mentions)
    link = getattr(message, "jump_url", None)
    for seat in humans:
        user_id = users.get(seat)
        if not user_id:
            continue
        await close_summary(delivery, record, game, state, seat, user_id)
        try:
            await delivery.dm(user_id, result_dm(record, game, state, seat, ending, link))
        except discord.HTTPException:
            # The post is out and names everyone: a refused DM must not send the whole
            # showing round again (that would post the game over twice).
            log.info("game %s: could not DM the result to %s", record.id, seat)
    return message


async def close_summary(delivery: Delivering, record: GameRecord, game: Game[Any, Any],
                        state: Any, seat: str, user_id: int) -> None:
    """Edit `seat`'s summary DM to its final state: "Game over", what it held, no buttons."""
    known: Summaries | None = delivery._summaries.get((record.id, seat))
    if known is None or known.message_id is None or known.user_id != user_id:
        return
    text = closed_summary(game, record.id, state, seat, known.text)
    try:
        dm = await delivery._dm_channel(user_id)
    except discord.HTTPException:
        log.info("game %s: no DM channel to close the summary of %s", record.id, seat)
        return
    try:
        await dm.get_partial_message(known.message_id).edit(content=text, view=None)
    except discord.HTTPException as exc:
        # An old DM past Discord's limit on old edits (or gone): the closed summary goes as a
        # new DM and the old one is deleted (a delete is no edit), as a refused summary edit
        # is replaced during the game — so no DM is left looking as if the game went on.
        log.info("game %s: could not close the summary DM of %s (%s); sending it anew",
                 record.id, seat, exc)
        try:
            sent = await dm.send(text)
            if not isinstance(exc, discord.NotFound):
                await dm.get_partial_message(known.message_id).delete()
        except discord.HTTPException:
            log.info("game %s: could not replace the summary DM of %s", record.id, seat)
            return
        known.message_id = sent.id
    known.text, known.panel = text, ""
