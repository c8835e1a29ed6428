"""`/game list`: a server's open games, a page at a time, with Previous and Next buttons.

A page is read from storage's index (`Storage.open_games`): public facts only (the game, its
mode, lobby or waiting since when, seats taken, where it is played), never a state. Active
games come first, the one waiting longest at the top (the table most in need of its players),
then lobbies, oldest first.

The list is the presser's own (an ephemeral answer), and what it shows is public to the
server, so the buttons are shared: anyone's press shows the asked page of the server the press
comes from. The custom id names only the page: a press never reads another server's games.
The buttons outlive a restart, like every component of the bot.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from bot import limits
from bot.limits import clip
from bot.storage import GameListPage, ListedGame
from cogs.utils.errors import reply
from cogs.utils.when import stamp
from rules.registry import GAMES

if TYPE_CHECKING:
    from bot.client import GameBot

PER_PAGE = 20
"""Games a page: 20 lines of at most `LINE` characters fit one embed description (4,096)."""
LINE = limits.EMBED_DESCRIPTION // PER_PAGE - 1
"""Characters a game's line may take (a long title or mode is clipped, never the page)."""
PAGE = "[0-9]{1,6}"
"""A page number in a custom id (digits only: the client is not trusted)."""
EMPTY = "No games are open in this server. Start one with `/game new`."


def listed_line(game: ListedGame) -> str:
    """One game as the list shows it: `#12 **Presence** (Standard) — waiting since 2 hours
    ago — 4 seats (1 AI) — #thread`."""
    engine = GAMES.get(game.game)
    title = engine.title if engine is not None else game.game
    mode = ""
    if game.mode:
        mode = f" ({engine.mode_words(game.mode) if engine is not None else game.mode})"
    if game.status == "active":
        state = (f"waiting since {stamp(game.awaited_since, 'R')}"
                 if game.awaited_since is not None else "playing")
    else:
        state = "lobby, open to join"
    seats = f"{game.seats} seat{'s' if game.seats != 1 else ''}"
    if game.ai_seats:
        seats += f" ({game.ai_seats} AI)"
    where = f"<#{game.thread_id or game.channel_id}>"
    head = f"#{game.id} **{title}**{mode}"
    # The channel mention and the counts go whole; only the title and mode give way.
    tail = f" — {state} — {seats} — {where}"
    return clip(head, max(8, LINE - len(tail))) + tail


def list_embed(page: GameListPage) -> discord.Embed:
    embed = discord.Embed(title="Open games in this server",
                          description="\n".join(listed_line(g) for g in page.games))
    counts = f"{page.active} active, {page.lobbies} in the lobby"
    footer = (f"Page {page.page + 1} of {page.pages} · {counts}" if page.pages > 1 else counts)
    embed.set_footer(text=clip(footer + " · active games waiting longest first, then lobbies",
                               limits.EMBED_FOOTER))
    return embed


class ListPageButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                     template=rf"hb:list:(?P<way>prev|next):(?P<page>{PAGE})"):
    """Previous / Next under `/game list`: shows page `page` (from 0) in place."""

    def __init__(self, way: str, page: int, disabled: bool = False) -> None:
        self.way, self.page = way, page
        label = "◀ Previous" if way == "prev" else "Next ▶"
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.secondary,
                                           custom_id=f"hb:list:{way}:{page}",
                                           disabled=disabled))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]
                             ) -> ListPageButton:
        return cls(match["way"], int(match["page"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        bot: GameBot = interaction.client  # type: ignore[assignment]
        page = await bot.storage.open_games(interaction.guild_id or 0, self.page, PER_PAGE)
        if not page.games:  # every game closed since the list was shown
            await interaction.response.edit_message(content=EMPTY, embed=None, view=None)
            return
        await interaction.response.edit_message(content=None, embed=list_embed(page),
                                                view=list_view(page))


def list_view(page: GameListPage) -> discord.ui.View | None:
    """Previous and Next, each disabled at its end; none for a single page."""
    if page.pages <= 1:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(ListPageButton("prev", max(0, page.page - 1), disabled=page.page == 0))
    view.add_item(ListPageButton("next", min(page.pages - 1, page.page + 1),
                                 disabled=page.page >= page.pages - 1))
    return view


async def show_list(bot: GameBot, interaction: discord.Interaction[Any]) -> None:
    """`/game list`'s answer: the first page (ephemeral), or how to open a game."""
    page = await bot.storage.open_games(interaction.guild_id or 0, 0, PER_PAGE)
    if not page.games:
        await reply(interaction, EMPTY)
        return
    view = list_view(page)
    if view is None:
        await interaction.response.send_message(embed=list_embed(page), ephemeral=True)
    else:
        await interaction.response.send_message(embed=list_embed(page), view=view,
                                                ephemeral=True)
