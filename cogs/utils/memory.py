"""The memory of finished games on Discord (issue #24): `/game history`, `/game stats`,
`/game privacy`, the server's `/game settings ratings:` and the ratings on the lobby card.

Thin: storage answers every question from the rows a game left when it ended (`bot.memory`);
this module only words them. Every answer is ephemeral. A player who hides their stats
(`/game privacy stats:hidden`) is answered about politely to anyone else, masked in others'
history pages and left out of the busiest players; their own stats always work. Ratings are
shown only where the server has them on.

History pages turn with **Newer** / **Older** buttons (`HistoryPager`, a `DynamicItem`
carrying the page and filters in its custom id, so a page still turns after a restart).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from bot import limits
from bot.limits import clip
from bot.memory import (
    HISTORY_PAGE,
    GameResult,
    HistoryPage,
    PlayerStats,
    SeatResult,
    ServerStats,
    outcome_words,
)
from bot.ratings import Rating
from bot.storage import SeatRecord
from bot.tables import TableError, ai_name
from cogs.utils.errors import answer_error, reply
from cogs.utils.stats_picture import stats_file
from cogs.utils.when import stamp
from renders.statswords import RatingLine, RatingPoint, RoleBar, StatsPicture
from rules.core.game import plural
from rules.registry import GAMES

if TYPE_CHECKING:
    from bot.client import GameBot

QUIET = discord.AllowedMentions.none()
"""Names in these answers are mentions for reading, never pings."""
PRIVATE_PLAYER = "a player who keeps their stats private"
BUSIEST = 5


def title_of(game: str) -> str:
    return GAMES[game].title if game in GAMES else game


def mode_of(game: str, mode: str) -> str:
    if game in GAMES:
        return GAMES[game].mode_words(mode).split(":")[0]
    return mode


def span(seconds: float | None) -> str:
    """A duration as players say it: "40 s", "12 min", "3 h 5 min", "2 d 4 h"."""
    if seconds is None:
        return "—"
    s = round(seconds)
    if s < 60:
        return f"{s} s"
    minutes = s // 60
    if minutes < 60:
        return f"{minutes} min"
    hours, minutes = divmod(minutes, 60)
    if hours < 24:
        return f"{hours} h {minutes} min" if minutes else f"{hours} h"
    days, hours = divmod(hours, 24)
    return f"{days} d {hours} h" if hours else f"{days} d"


def percent(won: int, played: int) -> str:
    return f"{round(100 * won / played)}%" if played else "—"


def private_text(user_id: int) -> str:
    return (f"<@{user_id}> keeps their stats private, so I can't show their games or figures. "
            "(Everyone can hide their own with `/game privacy stats:hidden`.)")


async def _hidden(bot: GameBot, user_ids: set[int], viewer: int) -> set[int]:
    """Of these people, those whose stats the viewer may not see (never the viewer)."""
    others = {u for u in user_ids if u != viewer}
    if not others:
        return set()
    prefs = await bot.storage.prefs(others)
    return {u for u, p in prefs.items() if p.stats_hidden}


# ---- /game history ------------------------------------------------------------------------
def _who(seat: SeatResult, hidden: set[int]) -> str:
    if seat.user_id is None:
        return ai_name(seat.position + 1)
    if seat.user_id in hidden:
        return "(private player)"
    return f"<@{seat.user_id}>"


def _seat_words(seat: SeatResult, hidden: set[int]) -> str:
    who = _who(seat, hidden)
    role = seat.role + (f" ({seat.character})" if seat.character else "")
    done = {"won": "won", "lost": "lost", "drew": "drew"}.get(seat.outcome or "", "")
    return f"{who} {role}" + (f" — {done}" if done else "")


def entry_text(entry: GameResult, hidden: set[int]) -> str:
    """One finished game: when, how long, who sat where, the result, where to look."""
    where = f"<#{entry.thread_id}>" if entry.thread_id else "its thread is gone"
    mode = mode_of(entry.game, entry.mode)
    head = (f"**#{entry.game_id} {title_of(entry.game)}** ({mode}) — "
            f"{stamp(entry.finished_at, 'd')} · {span(entry.finished_at - entry.started_at)} · "
            f"{entry.moves} {plural(entry.moves, 'move')}" + (" · with AI" if entry.has_ai else "")
            + (" · abandoned" if entry.abandoned else ""))
    seats = "; ".join(_seat_words(s, hidden) for s in entry.seats)
    outcome = outcome_words(entry.outcome, {s.seat: _who(s, hidden) for s in entry.seats})
    return (f"{head}\n{seats}\n{clip(outcome, 300)}\n"
            f"{where} · `/game record game:{entry.game_id}`")


def history_embed(page: HistoryPage, number: int, per_page: int, hidden: set[int],
                  whose: str) -> discord.Embed:
    """A history page: an embed (a page of games outgrows a message's 2,000 characters)."""
    if not page.entries:
        text = (f"No finished games {whose} in this server yet." if number == 0 else
                "There are no older games.")
        return discord.Embed(title="Finished games", description=text)
    pages = max(1, -(-page.total // per_page))
    body = "\n\n".join(entry_text(e, hidden) for e in page.entries)
    if whose != "here":  # a mention reads as a name in the description, not in a title
        body = f"Games {whose}\n\n{body}"
    embed = discord.Embed(title="Finished games",
                          description=clip(body, limits.EMBED_DESCRIPTION),
                          colour=discord.Colour.dark_purple())
    embed.set_footer(text=f"{page.total} in all, newest first · page {number + 1} of {pages}")
    return embed


class HistoryPager(discord.ui.DynamicItem[discord.ui.Button[Any]],
                   template=r"hb:hist:(?P<page>[0-9]{1,5}):(?P<user>[0-9]{1,20}):"
                            r"(?P<game>[a-z_]{0,24})"):
    """**Newer** / **Older** under a history page: the page to show and the filters (user 0:
    everyone; game empty: every game). A user id is a Discord snowflake (up to 20 digits);
    what comes back is only read as numbers and a game's name, and answers for the presser
    alone."""

    def __init__(self, page: int, user: int, game: str, label: str) -> None:
        self.page, self.user, self.game = page, user, game
        super().__init__(discord.ui.Button(
            label=label, style=discord.ButtonStyle.secondary,
            custom_id=f"hb:hist:{page}:{user}:{game}"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]
                             ) -> HistoryPager:
        label = item.label if isinstance(item, discord.ui.Button) and item.label else "Page"
        return cls(int(match["page"]), int(match["user"]), match["game"], label)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            bot: GameBot = interaction.client  # type: ignore[assignment]
            text, embed, view = await history_answer(
                bot, interaction.guild_id or 0, interaction.user.id, self.user or None,
                self.game or None, self.page)
            await interaction.response.edit_message(content=text, embed=embed, view=view,
                                                    allowed_mentions=QUIET)
        except Exception as exc:
            await answer_error(interaction, exc)


async def history_answer(bot: GameBot, guild_id: int, viewer: int, player: int | None,
                         game: str | None, page: int
                         ) -> tuple[str | None, discord.Embed | None, discord.ui.View | None]:
    """A history page (an embed) and its buttons (None when there is one page); words
    instead about a player who keeps their stats private."""
    if player is not None and await _hidden(bot, {player}, viewer):
        return private_text(player), None, None
    per_page = HISTORY_PAGE
    found = await bot.storage.history(guild_id, user_id=player, game=game, page=page,
                                      per_page=per_page)
    people = {s.user_id for e in found.entries for s in e.seats if s.user_id is not None}
    hidden = await _hidden(bot, people, viewer)
    whose = (f"of <@{player}>" if player is not None else "") + (
        f" of {title_of(game)}" if game is not None else "")
    embed = history_embed(found, page, per_page, hidden, whose.strip() or "here")
    view = discord.ui.View(timeout=None)
    if page > 0:
        view.add_item(HistoryPager(page - 1, player or 0, game or "", "Newer"))
    if (page + 1) * per_page < found.total:
        view.add_item(HistoryPager(page + 1, player or 0, game or "", "Older"))
    return None, embed, view if view.children else None


async def show_history(bot: GameBot, interaction: discord.Interaction[Any],
                       player: discord.abc.User | None, game: str | None) -> None:
    if game is not None and game not in GAMES:
        raise TableError(f"I don't know that game. Games: {', '.join(sorted(GAMES))}.")
    text, embed, view = await history_answer(bot, interaction.guild_id or 0,
                                             interaction.user.id,
                                             None if player is None else player.id, game, 0)
    extra: dict[str, Any] = {"view": view} if view is not None else {}
    if embed is not None:
        extra["embed"] = embed
    await reply(interaction, text or "", allowed_mentions=QUIET, **extra)


# ---- /game stats --------------------------------------------------------------------------
def player_text(stats: PlayerStats, show_ratings: bool) -> str:
    who = f"<@{stats.user_id}>"
    if not stats.games:
        return f"{who} hasn't finished a game in this server yet."
    apart = sum(g.with_ai for g in stats.games)
    dropped = sum(g.abandoned for g in stats.games)
    games = f"{stats.played} {plural(stats.played, 'game')}"
    lines = [f"**Stats of {who}** in this server — {games} finished"
             + (f" (and {apart} with AI seats" if apart else "")
             + (f", {dropped} abandoned" if apart and dropped else
                f" (and {dropped} abandoned" if dropped else "")
             + (")" if apart or dropped else "") + "."]
    if stats.move_seconds is not None:
        lines.append(f"Median time to move: **{span(stats.move_seconds)}** (quiet hours and "
                     "away time left out).")
    for g in stats.games:
        parts = [f"{g.played} played, {g.won} won ({percent(g.won, g.played)})"]
        if g.played:
            parts.append(f"win streak {g.streak} (best {g.best_streak})")
        if show_ratings and g.rating is not None:
            parts.append(f"rating **{g.rating.text()}** after {g.rating.games} rated "
                         f"{plural(g.rating.games, 'game')}")
        if g.characters:
            parts.append("favourite characters: " + ", ".join(
                f"{name} ({n})" for name, n in g.characters))
        lines.append(f"\n**{title_of(g.game)}** — " + " · ".join(parts))
        for r in (r for r in stats.roles if r.game == g.game):
            line = (f"• {r.role}: {r.played} played, {r.won} won, {r.lost} lost"
                    + (f", {r.drew} drawn" if r.drew else ""))
            if r.move_seconds is not None:
                line += f" · median move {span(r.move_seconds)}"
            lines.append(line)
        if g.with_ai:
            lines.append(f"• With AI seats (counted apart): {g.with_ai} played, "
                         f"{g.won_with_ai} won")
        if g.abandoned:
            lines.append(f"• Abandoned: {g.abandoned}")
    if not show_ratings:
        lines.append("\nThis server has ratings turned off.")
    return "\n".join(lines)


def server_text(stats: ServerStats, hidden: set[int]) -> str:
    if not (stats.finished or stats.with_ai or stats.abandoned):
        return "No game has finished in this server yet."
    lines = [f"**This server's games** — {stats.finished} finished"
             + (f", {stats.with_ai} more with AI seats" if stats.with_ai else "")
             + (f", {stats.abandoned} abandoned" if stats.abandoned else "") + "."]
    if stats.games:
        lines.append("Most played: " + ", ".join(f"{title_of(g)} ({n})"
                                                 for g, n in stats.games[:5]) + ".")
    if stats.roles:
        lines.append("\n**Win rates by role** (tables without AI seats):")
        current = None
        for r in stats.roles:
            key = (r.game, r.mode)
            if key != current:
                lines.append(f"__{title_of(r.game)} — {mode_of(r.game, r.mode)}__")
                current = key
            lines.append(f"• {r.role}: {percent(r.won, r.played)} of {r.played} "
                         f"{plural(r.played, 'seat')} won")
    shown = [(u, n) for u, n in stats.busiest if u not in hidden][:BUSIEST]
    if shown:
        lines.append("\n**Busiest players:** " + ", ".join(f"<@{u}> ({n})" for u, n in shown)
                     + ".")
    return "\n".join(lines)


NOTE = "Games with AI seats and abandoned games are counted apart."


async def player_picture(bot: GameBot, stats: PlayerStats, name: str,
                         show_ratings: bool) -> StatsPicture:
    """The stats picture's model (`renders.statswords`): a bar per game and role, a rating
    line per game title (unless the server turned ratings off)."""
    bars = [RoleBar(game_title=title_of(r.game), role=r.role, played=r.played, won=r.won,
                    lost=r.lost) for r in stats.roles]
    lines: list[RatingLine] = []
    if show_ratings:
        for g in stats.games:
            if g.rating is None:
                continue
            points = [RatingPoint(at=at, rating=r.shown)
                      for at, r in await bot.storage.rating_line(stats.user_id, g.game)]
            if points:
                lines.append(RatingLine(game_title=title_of(g.game), points=points))
    return StatsPicture(subject=name, bars=bars, ratings=lines, note=NOTE)


def server_picture(stats: ServerStats) -> StatsPicture:
    bars = [RoleBar(game_title=title_of(r.game), role=f"{r.role} ({mode_of(r.game, r.mode)})",
                    played=r.played, won=r.won, lost=r.lost) for r in stats.roles]
    return StatsPicture(subject="This server", bars=bars, note=NOTE)


async def show_stats(bot: GameBot, interaction: discord.Interaction[Any],
                     player: discord.abc.User | None, server: bool) -> None:
    """The figures in words, with the same figures as a picture (per-role win bars, rating
    lines) when it can be drawn (`cogs.utils.stats_picture`)."""
    guild = interaction.guild_id or 0
    viewer = interaction.user.id
    if server and player is None:
        figures = await bot.storage.server_stats(guild)
        hidden = await _hidden(bot, {u for u, _ in figures.busiest}, viewer)
        text = server_text(figures, hidden)
        model = server_picture(figures) if figures.roles else None
    else:
        who = player if player is not None else interaction.user
        if await _hidden(bot, {who.id}, viewer):
            await reply(interaction, private_text(who.id), allowed_mentions=QUIET)
            return
        show = await bot.storage.ratings_on(guild)
        stats = await bot.storage.player_stats(guild, who.id, show_ratings=show)
        text = player_text(stats, show)
        model = (await player_picture(bot, stats, who.display_name, show)
                 if stats.roles else None)
    picture = await stats_file(bot, model) if model is not None else None
    extra: dict[str, Any] = {"file": picture} if picture is not None else {}
    await reply(interaction, text, allowed_mentions=QUIET, **extra)


# ---- /game privacy, /game settings ratings: ------------------------------------------------
async def set_privacy(bot: GameBot, user_id: int, stats: str) -> str:
    if stats not in ("hidden", "shown"):
        raise TableError("Choose `hidden` (only you see your stats) or `shown`.")
    prefs = await bot.tables.prefs(user_id)
    await bot.storage.set_prefs(prefs.model_copy(update={"stats_hidden": stats == "hidden"}),
                                bot.tables.clock())
    if stats == "hidden":
        return ("Your stats are private now: others asking `/game stats` or `/game history` "
                "about you are told so, and history shows you as a private player. You still "
                "see your own. `/game privacy stats:shown` shares them again.")
    return "Your stats are shown again: anyone in the server can see them."


async def set_server_ratings(bot: GameBot, interaction: discord.Interaction[Any],
                             ratings: str) -> str:
    """`/game settings ratings:on|off`: this server's choice (Manage Server only)."""
    if ratings not in ("on", "off"):
        raise TableError("Choose `on` or `off` for ratings.")
    perms = getattr(interaction.user, "guild_permissions", None)
    if not (perms and perms.manage_guild):
        raise TableError("Only someone with the Manage Server permission can turn this "
                         "server's ratings on or off.")
    await bot.storage.set_ratings_on(interaction.guild_id or 0, ratings == "on",
                                     bot.tables.clock())
    if ratings == "on":
        return ("Ratings are on in this server: finished games move them, and `/game stats` "
                "and lobby cards show them.")
    return ("Ratings are off in this server: games here no longer move them, and `/game "
            "stats` and lobby cards don't show them.")


# ---- the lobby card -----------------------------------------------------------------------
async def seat_ratings(bot: GameBot, guild_id: int, game: str, seats: list[SeatRecord]
                       ) -> dict[int, Rating]:
    """The seated people's ratings in this game title, for the lobby card: none where the
    server turned ratings off, nor for a player who hides their stats."""
    people = [s.user_id for s in seats if s.user_id is not None]
    if not people or not await bot.storage.ratings_on(guild_id):
        return {}
    found = await bot.storage.table_ratings(people, game)
    prefs = await bot.storage.prefs(found)
    return {u: r for u, r in found.items() if not prefs[u].stats_hidden}
