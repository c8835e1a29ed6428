"""`/help`: what the bot does, how a game runs on Discord, and each game in two minutes.

Only the asker sees it. A menu under the page picks another page; the menu is a restart-proof
component (its custom id names nothing but "help"), so an old `/help` keeps working after a
redeploy. Every page is fixed text written for players: no ids, and each game's page points
to the full rules (`/game rules` and the rulebook's name).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import limits
from bot.limits import clip
from cogs.utils.tokens import picked, readable

if TYPE_CHECKING:
    from bot.client import GameBot

# (key, menu label, menu description, title, text)
PAGES: list[tuple[str, str, str, str, str]] = [
    ("bot", "What Haunt Bot does", "The games, and how to start one",
     "Haunt Bot", """\
Haunt Bot is the game master for three board games with hidden information: **The \
Exorcism at the House of Monkton Falls**, **I Am the Fourth Wall** and **The Presence**. It \
deals the cards, keeps every secret, checks every move against the rules, draws the board \
and tells the table whose turn it is. Games can last days: everything is kept as it happens.

**Start a game:** `/game new game:` in a text channel. The bot opens a thread for it with a \
lobby card; players press **Join** (or `/game join`), and the creator presses **Start**.
**Practise first:** `/game new game: ai:` seats AI players (`ai:2`, say), so you can learn a \
game alone before playing with people; the lobby's **Add AI** fills empty seats the same way. \
Your first game of each title is guided: every post says what your choice is about.
**Find your way:** `/game list` shows open games, `/game status` the board in words, \
`/game rules` any rule, and this `/help` how to play each game.
**Look back:** `/game history` lists the server's finished games, `/game stats` your record \
and ratings (`/game privacy` keeps them to yourself)."""),
    ("discord", "How a game runs here", "Threads, DMs, buttons, reminders, undo",
     "How a game runs on Discord", """\
**One thread per game.** Every move is posted there with a picture of the board. A new post \
comes when the decision passes to someone else, and it pings only whoever must decide now.
**DMs are private.** Your hand and anything only you may know come by direct message, and \
that message is kept up to date. Keep DMs from the server open; **My hand** or `/game hand` \
shows the same thing if they are closed.
**Buttons.** When it is your choice and nothing in it is secret, the buttons are on the board \
post. Choices that show your hidden cards are buttons on that DM while the game waits for you: \
one press plays, however long the game runs. With DMs closed, press **My choices** on the \
board: only you see your buttons. **Full board** shows the whole picture, only to you.
**Commands.** Each game has a command group named after it (`/exorcism`, `/fourthwall`, \
`/presence`) whose commands offer exactly your legal options as you type. In every game \
`end` ends your turn, `answer` answers what the game asks you, `nudge` reminds the players \
the table waits for, and `flag` points the table to a rule; `/game rules` finds any rule.
**Reminders.** If the table waits for you, you get a DM after a while, then a ping in the \
thread, then a DM a day (with your DMs closed, a ping instead of each DM). `/game away on` \
pauses them everywhere; `/game quiet` sets quiet hours; the creator can make deadlines \
binding with `/game settings`.
**Undo.** `/game undo` takes back your own last move if nobody moved since and nothing in its \
outcome could depend on what you can't see: no card drawn, peeked at or revealed (also by a \
step the move set off, like the end of a turn), no dice or shuffle. `/game log` and \
`/game replay` show the game so far.
**All your games.** `/game mine` lists every game you sit in, in every server, the ones \
waiting for you first (it works in a DM with me too). `/game record` opens a finished game: \
its result, its recap, its public log and `/game replay` at any step."""),
    ("exorcism", "The Exorcism in two minutes", "Co-op ghost hunt; One vs All; Solo",
     "The Exorcism at the House of Monkton Falls — in two minutes", """\
**The goal.** You are Investigators in a haunted manor. Together you must earn 30 Exorcism \
points by completing Tasks, then get out through the Foyer before the eight Time Dice run \
out.
**A turn.** The clock loses a pip. From the second round, Haunt cards move the three Ghosts \
and spread Darkness (in One vs All a player plays the Ghosts instead). Then you take up to 3 \
actions (5 in Solo): `/exorcism move` up to two rooms, `purify` Darkness in your room, \
`trade` Tools with a neighbour, use your `room`, complete a `task` with the Tools it asks \
for, `pickup` dropped Tools, `unlock` a Locked Room or use your character's `ability`. Plan \
cards are free and can be played any time with `/exorcism plan`. `/exorcism end` ends your \
turn.
**Watch out.** A Ghost entering your room wounds you, and a wounded Investigator needs a \
Lookout to rescue them. You lose if time runs out, the Darkness or the Shrouds run out, or \
nobody can rescue a wounded friend.
**Modes:** `core` (2–5, everyone together), `one_vs_all` (3–5, one player is the Ghosts), \
`solo` (one player, two Investigators).
**Full rules:** `/game rules` (try `rule:wounded`) and the rulebook, *The Exorcism at the \
House of Monkton Falls Rulebook*."""),
    ("fourth_wall", "I Am the Fourth Wall in two minutes", "Investigators against The Wall",
     "I Am the Fourth Wall — in two minutes", """\
**The goal.** Investigators try to close every Gate before five are open after An Eye \
Opens, or before The Ancient One awakens at the end of the Turn Tracker.
**Your hand is your mind.** Investigators hold Marbles, each showing Symbols (Clue, Force, \
Science). Your hand size is your Sanity: lose every Marble and you go Insane, and a Gate \
opens.
**An Investigator's turn.** 2 Action Points (3 in the Crescendo): `/fourthwall search` for \
Marbles, `intervene` against a Horror on the Streets, `utilise` a Marble's power, `give` or \
`trade` Marbles, `regroup`, `close` a Gate with a Clue, a Force and a Science, `exploit` the \
Rift (it adds Doom) or your `unique` action. `/fourthwall end` ends your turn.
**The Wall.** In `conflict` one player is The Wall and takes a turn before each Investigator: \
`wrath` (spend Doom to `delve`, `manifest` and `trigger` Horrors, `destroy` a Marble, use its \
`power`) or `brood`. In `alliance` everyone plays the Investigators and the game plays The \
Wall with Presence cards.
**Full rules:** `/game rules` (try `rule:insane`) and the rulebook, *I Am the Fourth Wall \
Rulebook* (the Investigator Tome, the Wall's Grimoire and the Presence Manuscript)."""),
    ("presence", "The Presence in two minutes", "A spirit and the visitors of a manor",
     "The Presence — in two minutes", """\
**The goal.** One player is the spirit haunting Wrightwatch Manor; the others are visitors. \
The visitors uncover the four secret cards of the spirit's past; whether the spirit helps or \
hinders them depends on its secret script. The spirit wins by its script; after round 9 \
Eternal Darkness falls.
**A visitor's turn.** 3 main actions: `/presence rest`, `walk` one step, `play` an action \
card, use an `item`, your `room`'s action or your `ability`. Quick actions (`trade` cards, \
`smother` your candle, `pickup` a fallen visitor's item) can come any time. `/presence end` \
ends your turn.
**The spirit's turn.** Move a presence `die`, `increase` presence by discarding a card, play \
a `spiritcard`, act with its manifested `pawn`, then `end`.
**Talking.** A visitor who is alone may not talk, and the spirit never may (unless a card \
lets it `speak`). Each board post says who may talk now. Buttons and commands are not talk: \
`/presence nudge`, `/presence flag` and `/game rules` work even when you must stay silent. \
Playing in a voice channel? `/presence voice channel:` (someone with Mute Members there) \
has the bot server-mute exactly who may not talk, and unmute them when they may.
**Full rules:** `/game rules` (inside a game's thread, try `rule:alone`) and the rulebook, \
*The Presence Rulebook* (Session Mode)."""),
]

PAGE_KEYS = [p[0] for p in PAGES]
TEMPLATE = r"hb:help:(?P<page>[a-z_]+)"


def page_embed(key: str) -> discord.Embed:
    _, _, _, title, text = next(p for p in PAGES if p[0] == key)
    embed = discord.Embed(title=clip(title, limits.EMBED_TITLE),
                          description=clip(text, limits.EMBED_DESCRIPTION),
                          colour=discord.Colour.dark_purple())
    embed.set_footer(text="Pick another page below. Only you see this.")
    return embed


class HelpMenu(discord.ui.DynamicItem[discord.ui.Select[Any]], template=TEMPLATE):
    """The page picker under a help page (restart-proof: its id names only the page shown)."""

    def __init__(self, page: str) -> None:
        self.page = page
        options = [discord.SelectOption(label=clip(label, limits.SELECT_LABEL),
                                        description=clip(desc, limits.SELECT_DESCRIPTION),
                                        value=key, default=key == page)
                   for key, label, desc, _, _ in PAGES]
        super().__init__(discord.ui.Select(custom_id=f"hb:help:{page}",
                                           placeholder="Another help page…", options=options))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> HelpMenu:
        return cls(match["page"] if match["page"] in PAGE_KEYS else PAGE_KEYS[0])

    def _refresh_state(self, interaction: discord.Interaction[Any], data: dict[str, Any]) -> None:
        # discord.py reads the values before our callback: malformed ones must not crash it.
        super()._refresh_state(interaction, readable(data))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        values = picked(interaction) or [self.page]
        page = str(values[0]) if str(values[0]) in PAGE_KEYS else PAGE_KEYS[0]
        await interaction.response.edit_message(embed=page_embed(page), view=help_view(page))


def help_view(page: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(HelpMenu(page))
    return view


def _page_for(topic: str | None) -> str:
    if topic in PAGE_KEYS:
        return str(topic)
    return PAGE_KEYS[0]


class Help(commands.Cog):
    """`/help`."""

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(HelpMenu)

    @app_commands.command(name="help", description="What Haunt Bot does, how a game runs "
                          "here, and each game in two minutes (only you see it)")
    @app_commands.describe(topic="Which page to open first")
    @app_commands.choices(topic=[app_commands.Choice(name=label, value=key)
                                 for key, label, _, _, _ in PAGES])
    async def help(self, interaction: discord.Interaction[Any],
                   topic: str | None = None) -> None:
        page = _page_for(topic)
        if topic is None and interaction.channel is not None:
            # Inside a game's thread, open on that game's page.
            record = await self.bot.storage.find_game_by_thread(interaction.channel.id)
            if record is not None and record.game in PAGE_KEYS:
                page = record.game
        await interaction.response.send_message(embed=page_embed(page), view=help_view(page),
                                                ephemeral=True)


async def setup(bot: GameBot) -> None:
    await bot.add_cog(Help(bot))
