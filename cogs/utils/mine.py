"""`/game mine` (issue #24): every game a player sits in, in every server the bot shares with
them, the ones waiting for the player first, each with how long it has waited (a Discord
timestamp), what it waits for in words and a link to its thread.

Cheap on purpose: one query lists the player's seats across guilds (`Storage.player_games`,
the `seats_user` index) without any game's state; who is awaited comes from the stored board
post (`BoardPost.awaited`, current when its version is the game's). A game's state is read
only for the page shown (the public "what to do now" sentence) and for a game whose board post
is behind, both bounded, so a player in a hundred games costs a hundred small rows and at most
`MAX_STATES` state loads. Only public things are said: who is awaited and the public prompt
(`Game.doing_text`), never a hand.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict

from bot.limits import clip
from bot.storage import GameListing
from bot.tables import TableError
from cogs.utils.table import delivery_for
from cogs.utils.table.posts import BoardPost
from cogs.utils.table.words import escape_name
from cogs.utils.when import stamp
from rules.registry import GAMES

if TYPE_CHECKING:
    from bot.client import GameBot

log = logging.getLogger(__name__)

MINE_PAGE = 10
"""Games listed per answer: ten lines with links and sentences fit one message."""
MAX_STATES = 25
"""States read per answer at most (the page's sentences and behind-board fallbacks)."""
DOING_CHARS = 160
"""One game's "what it waits for" sentence, at most."""


def thread_link(guild_id: int, channel_id: int) -> str:
    """A link that opens the game's thread (or channel) from anywhere, a DM included."""
    return f"https://discord.com/channels/{guild_id}/{channel_id}"


class MineEntry(BaseModel):
    """One line of `/game mine`: public facts about one game the player sits in."""

    model_config = ConfigDict(frozen=True)

    game_id: int
    title: str
    server: str
    link: str
    status: str
    """`lobby` or `active`."""
    mine: bool
    """Whether the game waits for this player now."""
    since: float
    """When the current wait began (active), or when the lobby opened."""
    awaited: str = ""
    """What it waits for, in words (public): "alice: set the wager." or who is awaited."""
    seated: int = 0


def mine_order(entries: list[MineEntry]) -> list[MineEntry]:
    """Games waiting for the player first, longest wait first; then running games waiting for
    others (longest wait first), then lobbies (oldest first)."""
    return sorted(entries, key=lambda e: (not e.mine, e.status != "active", e.since, e.game_id))


def entry_line(entry: MineEntry) -> str:
    """`entry` as one line of the answer."""
    head = f"**{entry.title}** — game #{entry.game_id}, {entry.server}"
    if entry.status == "lobby":
        seated = f"{entry.seated} seated" if entry.seated != 1 else "1 seated"
        return (f"• {head}: in the lobby since {stamp(entry.since, 'R')} ({seated}). "
                f"{entry.link}")
    said = f" {clip(entry.awaited, DOING_CHARS)}" if entry.awaited else ""
    if entry.mine:
        return f"⏳ {head}: **waiting for you** since {stamp(entry.since, 'R')}.{said} {entry.link}"
    return f"• {head}: waiting since {stamp(entry.since, 'R')}.{said} {entry.link}"


def page_span(count: int, page: int) -> tuple[int, int, int]:
    """(the page shown, how many pages, the index of its first game) for `count` games when
    `page` (from 1) is asked: a page past the end shows the last one."""
    pages = max(1, (count + MINE_PAGE - 1) // MINE_PAGE)
    shown = min(max(page, 1), pages)
    return shown, pages, (shown - 1) * MINE_PAGE


def mine_text(entries: list[MineEntry], page: int, servers: int) -> str:
    """The whole answer for `page` (from 1) of `entries` (already in `mine_order`)."""
    if not entries:
        return ("You're not seated in any game right now. Start one with `/game new` in a "
                "server's text channel, or join one from its lobby.")
    page, pages, start = page_span(len(entries), page)
    waiting = sum(e.mine for e in entries)
    where = f"{servers} server" + ("s" if servers != 1 else "")
    games = f"{len(entries)} game" + ("s" if len(entries) != 1 else "")
    wait = (f"{waiting} {'waits' if waiting == 1 else 'wait'} for you" if waiting
            else "none waits for you")
    lines = [f"**Your games** — {games} in {where}; {wait}."]
    lines += [entry_line(e) for e in entries[start:start + MINE_PAGE]]
    if pages > 1:
        more = (f" — `/game mine page:{page + 1}` for the next." if page < pages else "")
        lines.append(f"Page {page} of {pages}{more}")
    return "\n".join(lines)


def board_awaited(listing: GameListing) -> list[str] | None:
    """The seats an active game waits for, from its stored board post; None when the post is
    behind the game (or missing), so only its state can say."""
    if listing.status != "active":
        return []
    if listing.board_version != listing.version:
        return None
    post = BoardPost.load(listing.board_post)
    return None if post is None else list(post.awaited)


async def mine_entries(bot: GameBot, user_id: int, page: int) -> tuple[list[MineEntry], int]:
    """Every live game `user_id` sits in as `MineEntry`s in `mine_order` (the sentences filled
    for `page` only), and how many servers they are in."""
    listings = await bot.storage.player_games(user_id)
    states = 0
    awaited: dict[int, list[str]] = {}
    for listing in listings:
        known = board_awaited(listing)
        if known is None and states < MAX_STATES:
            states += 1
            try:
                known = list(await bot.tables.awaited(listing.id))
            except TableError:
                known = []
        awaited[listing.id] = known or []
    entries: dict[int, MineEntry] = {}
    for listing in listings:
        mine = any(listing.seats.get(s) == user_id for s in awaited[listing.id])
        guild = bot.get_guild(listing.guild_id)
        game = GAMES.get(listing.game)
        entries[listing.id] = MineEntry(
            game_id=listing.id, title=game.title if game else listing.game,
            server=f"**{escape_name(guild.name)}**" if guild else "another server",
            link=thread_link(listing.guild_id, listing.thread_id or listing.channel_id),
            status=listing.status, mine=mine,
            since=(listing.awaited_since or listing.updated_at) if listing.status == "active"
            else listing.created_at,
            seated=len(listing.seats))
    ordered = mine_order(list(entries.values()))
    _, _, start = page_span(len(ordered), page)
    shown = {e.game_id for e in ordered[start:start + MINE_PAGE]}
    by_id = {listing.id: listing for listing in listings}
    for gid in sorted(shown):
        listing = by_id[gid]
        if listing.status != "active" or states >= MAX_STATES:
            continue
        states += 1
        words = await _awaited_words(bot, listing, awaited[gid], user_id)
        entries[gid] = entries[gid].model_copy(update={"awaited": words})
    return mine_order(list(entries.values())), len({x.guild_id for x in listings})


async def _awaited_words(bot: GameBot, listing: GameListing, seats: list[str],
                         user_id: int) -> str:
    """What the game waits for, in public words: each awaited seat's "what to do now"
    sentence, the player's own first (never a hidden card: `doing_text` is public-safe)."""
    game = GAMES.get(listing.game)
    if game is None or not seats:
        return ""
    try:
        state: Any = await bot.tables.state(listing.id)
    except TableError:
        return ""
    delivery = delivery_for(bot)
    names = await delivery.names({s: listing.seats.get(s) for s in seats})
    ordered = sorted(seats, key=lambda s: listing.seats.get(s) != user_id)
    said = [game.doing_text(state, s, names) for s in ordered[:2]]
    if len(ordered) > 2:
        said.append(f"and {len(ordered) - 2} more.")
    return " ".join(said)
