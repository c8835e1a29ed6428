"""The lobby and the table's housekeeping: `/game new|join|leave|start|status|hand|abandon|list|
rules|settings`, players' preferences (`away|quiet|notify`), seats (`replace|spectate|rematch`),
history (`undo|log|replay`) and a player's games across servers and finished records
(`mine|record`, issue #24; `/game mine` also runs in a DM with the bot), the memory of finished
games (`history|stats|privacy` and `settings ratings:`, worded by cogs/utils/memory.py, with
players' ratings on the lobby card); the reminder callbacks, the thread-deleted listener and
the board-post-deleted one.

One thread per game, opened from the channel where `/game new` ran. Thin: every decision is the
table service's or the engine's; this cog turns them into messages.
"""

from __future__ import annotations

import io
import logging
import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import limits, renderpool
from bot.limits import clip, excerpt
from bot.options import (
    YES,
    OptionsError,
    choice_options,
    effective_lines,
    parse_options,
    suggest_options,
    switches,
)
from bot.quiet import suggest_zones
from bot.ratings import Rating
from bot.storage import GameRecord, PlayerPrefs, SeatRecord
from bot.tables import (
    StartResult,
    TableError,
    ai_name,
    ai_seat_name,
    clock_text,
    parse_clock,
    parse_zone,
)
from cogs.utils.answers import HeldAnswer, in_time
from cogs.utils.errors import answer_error, on_app_command_error, reply
from cogs.utils.gamelist import ListPageButton, show_list
from cogs.utils.guide import (
    guided_default,
    guided_line,
    newcomer_text,
    role_holder,
    with_guided_line,
)
from cogs.utils.lifecycle import attach
from cogs.utils.memory import (
    HistoryPager,
    seat_ratings,
    set_privacy,
    set_server_ratings,
    show_history,
    show_stats,
)
from cogs.utils.mine import mine_entries, mine_text
from cogs.utils.pending import owed_notes, tell_owed
from cogs.utils.record import finished_choices, finished_game, open_record
from cogs.utils.table import (
    DYNAMIC_ITEMS,
    MISSING_ACCESS,
    blocked_reason,
    delivery_for,
    escape_name,
    game_of,
    open_table_channel,
    show_hand,
    table_buttons,
)
from cogs.utils.talk import engines_for, rule_choices, rules_answer
from cogs.utils.tokens import ID, picked, readable
from cogs.utils.when import deadline_of, deadline_text, stamp, waiting_since, when
from rules.core import Event
from rules.core.game import Game, option_title
from rules.registry import GAMES

if TYPE_CHECKING:
    from bot.client import GameBot

log = logging.getLogger(__name__)

# What the bot needs in a channel to run a game there, and why (the README lists the same).
NEEDED_PERMISSIONS: dict[str, str] = {
    "view_channel": "see the channel",
    "send_messages": "post in the channel",
    "create_public_threads": "open a thread for the game",
    "send_messages_in_threads": "post boards in the game's thread",
    "attach_files": "post the board picture",
    "embed_links": "show the lobby",
    "read_message_history": "find its own board posts again",
}

IN_DMS = frozenset({"game mine"})
"""The commands that also run in a DM with the bot."""

TEST_DM = ("You joined **{title}** (game #{gid}) in {where}. I'll send anything only you may "
           "see here — keep DMs from this server open.")


def _closed_dm_text(mention: str) -> str:
    return (f"I couldn't DM {mention}: their DMs are closed. They can still play — private "
            "things can be read with **My hand** or `/game hand` — or open DMs "
            "(Server menu → Privacy Settings → Direct Messages).")


class LobbyButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=rf"hb:lobby:(?P<what>join|leave|start|addai|rmai):(?P<gid>{ID})"):
    """Join / Leave / Start / Add AI / Remove AI on the lobby post; restart-proof like every
    component. Add and Remove AI are the creator's (practice games, the table's empty seats)."""

    LABELS = {"join": ("Join", discord.ButtonStyle.success),
              "leave": ("Leave", discord.ButtonStyle.secondary),
              "start": ("Start", discord.ButtonStyle.primary),
              "addai": ("Add AI", discord.ButtonStyle.secondary),
              "rmai": ("Remove AI", discord.ButtonStyle.secondary)}

    def __init__(self, what: str, gid: int) -> None:
        self.what, self.gid = what, gid
        label, style = self.LABELS[what]
        super().__init__(discord.ui.Button(label=label, style=style,
                                           custom_id=f"hb:lobby:{what}:{gid}"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> LobbyButton:
        return cls(match["what"], int(match["gid"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        cog: Lobby | None = interaction.client.get_cog("Lobby")  # type: ignore[attr-defined]
        if cog is None:
            return
        try:
            if self.what == "join":
                await cog.do_join(interaction, self.gid)
            elif self.what == "leave":
                await cog.do_leave(interaction, self.gid)
            elif self.what == "addai":
                await cog.do_add_ai(interaction, self.gid)
            elif self.what == "rmai":
                await cog.do_remove_ai(interaction, self.gid)
            else:
                await cog.do_start(interaction, self.gid, None)
        except Exception as exc:
            await answer_error(interaction, exc)


class LobbyMenu(discord.ui.DynamicItem[discord.ui.Select[Any]],
                template=rf"hb:lobbyopt:(?P<what>var|preset|seat):(?P<gid>{ID})"):
    """The lobby card's option menus (the creator's, before the start): variants on or off,
    one preset or number, and which side the creator plays. The text `options:` of
    `/game new` says the same for those who prefer typing."""

    def __init__(self, what: str, gid: int, select: discord.ui.Select[Any] | None = None) -> None:
        self.what, self.gid = what, gid
        super().__init__(select or discord.ui.Select(custom_id=f"hb:lobbyopt:{what}:{gid}",
                                                     options=[discord.SelectOption(label="-")]))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> LobbyMenu:
        return cls(match["what"], int(match["gid"]))

    def _refresh_state(self, interaction: discord.Interaction[Any], data: dict[str, Any]) -> None:
        # discord.py reads the values before our callback: malformed ones must not crash it.
        super()._refresh_state(interaction, readable(data))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        cog: Lobby | None = interaction.client.get_cog("Lobby")  # type: ignore[attr-defined]
        if cog is None:
            return
        values = picked(interaction)
        try:
            if values is None:
                raise TableError("That isn't one of the menu's choices. Pick one from the "
                                 "menus on the lobby card.")
            await cog.do_options(interaction, self.gid, self.what, values)
        except Exception as exc:
            await answer_error(interaction, exc)
            # The menu shows what was picked even when refused: put the card back as it is.
            await cog.refresh_lobby(interaction, self.gid)


def unknown_game(typed: str) -> str:
    return (f"I don't know the game you named. Games: {', '.join(sorted(GAMES))}. "
            f"(You wrote `{excerpt(typed)}`.)")


def game_choices(current: str) -> list[app_commands.Choice[str]]:
    wanted = current.lower()
    return [app_commands.Choice(name=clip(g.title, limits.CHOICE_NAME), value=name)
            for name, g in sorted(GAMES.items())
            if wanted in name or wanted in g.title.lower()][:limits.CHOICES]


PLAY_AS = {"role": "the opposing role", "team": "a visitor / investigator"}
"""`/game new as:` — which side the creator plays where the mode has an opposing role."""

AI_LEVELS = {"easy": "easy: a quick heuristic", "normal": "normal: looks a few moves ahead",
             "hard": "hard: looks further ahead (about a second a move)"}
"""`/game new ai_level:` and `/game settings ai_level:`: the table's AI level, as Discord's
list shows each (`GameSettings.ai_level`)."""
AI_LEVEL_CHOICES = [app_commands.Choice(name=text, value=level)
                    for level, text in AI_LEVELS.items()]


def _value_text(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def lobby_components(record: GameRecord, guided_now: bool | None = None) -> discord.ui.View:
    """The lobby card's controls: the buttons, and the creator's menus for the options.
    `guided_now`: what an empty `guided` comes to at this table (`guided_default`), so the
    Variants menu shows the same answer as the card."""
    gid = record.id
    game = game_of(record)
    options = game.options_model.model_validate(record.options)
    view = discord.ui.View(timeout=None)
    for what in ("join", "leave", "start", "addai", "rmai"):
        view.add_item(LobbyButton(what, gid))
    names = switches(game)
    fields = game.options_model.model_fields
    if names:
        picks = []
        for name in names[:limits.SELECT_OPTIONS]:
            on = bool(getattr(options, name))
            if name == "guided":
                on = game.guided(options) if guided_now is None else guided_now
            picks.append(discord.SelectOption(
                label=clip(option_title(game.options_model, name), limits.SELECT_LABEL),
                value=name,
                description=clip(fields[name].description or name, limits.SELECT_DESCRIPTION),
                default=on))
        view.add_item(LobbyMenu("var", gid, discord.ui.Select(
            custom_id=f"hb:lobbyopt:var:{gid}", placeholder="Variants (the creator picks)",
            min_values=0, max_values=len(picks), options=picks, row=1)))
    role = game.role_seat(options)
    presets: list[discord.SelectOption] = []
    if len(game.modes) > 1:
        for mode in game.modes:
            presets.append(discord.SelectOption(
                label=clip(f"Mode: {game.mode_words(mode)}", limits.SELECT_LABEL),
                value=f"mode={mode}"))
    for name, values in {**choice_options(game), **_numbers(game)}.items():
        if name.endswith("_seat") or name == "mode":
            continue  # a seat's side is the "Your seat" menu; the mode is listed above
        for value in values:
            if len(presets) < limits.SELECT_OPTIONS:
                presets.append(discord.SelectOption(
                    label=clip(f"{option_title(game.options_model, name)}: "
                               f"{value or 'as the rules say'}", limits.SELECT_LABEL),
                    value=f"{name}={value}"))
    if presets:
        view.add_item(LobbyMenu("preset", gid, discord.ui.Select(
            custom_id=f"hb:lobbyopt:preset:{gid}", placeholder="Mode, presets and numbers",
            options=presets, row=2)))
    if role is not None:
        view.add_item(LobbyMenu("seat", gid, discord.ui.Select(
            custom_id=f"hb:lobbyopt:seat:{gid}", placeholder="Your seat (the creator's side)",
            options=[discord.SelectOption(label=clip(f"I play {role[1]}", limits.SELECT_LABEL),
                                          value="role"),
                     discord.SelectOption(label=clip(f"I play {role[2]}", limits.SELECT_LABEL),
                                          value="team")], row=3)))
    return view


def _numbers(game: Game[Any, Any]) -> dict[str, list[str]]:
    """Whole-number options with a short range (e.g. `gates` 3–5), as menu values."""
    out: dict[str, list[str]] = {}
    for name in game.options_model.model_fields:
        field = game.options_model.model_fields[name]
        if name == "mode" or field.annotation not in (int, int | None):
            continue
        lo = hi = None
        for meta in field.metadata:
            lo = getattr(meta, "ge", lo) if getattr(meta, "ge", None) is not None else lo
            hi = getattr(meta, "le", hi) if getattr(meta, "le", None) is not None else hi
        if isinstance(lo, int) and isinstance(hi, int) and hi - lo < 8:
            # An option that may be left empty ("as the rules say") can be emptied again.
            empty = [""] if field.annotation is not int and field.default is None else []
            out[name] = [*empty, *(str(n) for n in range(lo, hi + 1))]
    return out


def seat_lines(game: Game[Any, Any], record: GameRecord, seats: list[SeatRecord],
               ratings: dict[int, Rating] | None = None) -> list[str]:
    """The lobby's seats in table order, the side each will play where the options say, and
    AI players named as such."""
    options = game.options_model.model_validate(record.options)
    role = game.role_seat(options)
    lines = []
    for i, seat in enumerate(seats):
        who = f"<@{seat.user_id}>" if seat.user_id else ai_name(i + 1)
        side = ""
        if role is not None:
            side = f" — {role[1] if i == getattr(options, role[0]) else role[2]}"
        rated = (ratings or {}).get(seat.user_id) if seat.user_id else None
        rating = f" — rating {rated.text()}" if rated is not None else ""
        lines.append(f"{i + 1}. {who}{side}{rating}")
    return lines


class Lobby(commands.Cog):
    """Starting, joining and looking after games."""

    # In servers, and in a DM with the bot for `/game mine` alone (Discord sets where a command
    # may run on the whole group; `interaction_check` answers every other one in a DM).
    game = app_commands.Group(
        name="game", description="Start, join and manage board games",
        allowed_contexts=app_commands.AppCommandContext(guild=True, dm_channel=True,
                                                        private_channel=False),
        allowed_installs=app_commands.AppInstallationType(guild=True, user=False))

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(LobbyButton, LobbyMenu, HistoryPager, ListPageButton,
                                   *DYNAMIC_ITEMS)
        self.bot.tree.error(on_app_command_error)

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        """In a DM only `/game mine` runs: every other command is about one server's table."""
        command = interaction.command
        if interaction.guild_id is None and (command is None
                                             or command.qualified_name not in IN_DMS):
            raise app_commands.CheckFailure(
                "That command works in a server (most of them in a game's thread). Here, in "
                "our DMs, `/game mine` lists every game you sit in, in every server.")
        return True

    # ---- helpers ---------------------------------------------------------------------
    def _is_mine(self, message: discord.Message) -> bool:
        return self.bot.user is not None and message.author.id == self.bot.user.id

    async def game_here(self, interaction: discord.Interaction[Any]) -> GameRecord:
        """The game whose thread this interaction came from, or a clear refusal."""
        channel = interaction.channel
        record = None
        if channel is not None:
            record = await self.bot.storage.find_game_by_thread(channel.id)
        if record is None:
            raise TableError("There's no game in this channel. Start one with `/game new` in a "
                             "text channel, or run this inside a game's thread.")
        # Any command in a game's thread means its player is back: the AI stops standing in.
        await self.bot.tables.came_back(record.id, interaction.user.id)
        return record

    async def lobby_embed(self, record: GameRecord) -> discord.Embed:
        game = game_of(record)
        seats = await self.bot.storage.seats(record.id)
        options = game.options_model.model_validate(record.options)
        lines = effective_lines(game, record.options)
        newcomers = await self.bot.tables.newcomers(record.id) if record.status == "lobby" else []
        if record.status == "lobby":
            # Guided play as the start will settle it, from who is seated (cogs.utils.guide).
            lines = with_guided_line(lines, guided_line(game, options, newcomers))
        # The mode is named once: in the game's words when its options list says it.
        mode = None if any(line.startswith("Mode:") for line in lines) else (
            f"Mode: **{game.mode_words(options.mode)}**" if len(game.modes) > 1 else None)
        embed = discord.Embed(title=clip(f"{game.title} — game #{record.id}", limits.EMBED_TITLE),
                              description=mode, colour=discord.Colour.dark_purple())
        counts = sorted(game.player_counts(options)) or [0]
        # Each seated player's rating in this game, unless the server turned ratings off.
        ratings = await seat_ratings(self.bot, record.guild_id, record.game, seats)
        needs = str(counts[0]) if counts[0] == counts[-1] else f"{counts[0]}–{counts[-1]}"
        embed.add_field(name=f"Players ({len(seats)}; needs {needs})",
                        value=clip("\n".join(seat_lines(game, record, seats, ratings))
                                   or "nobody yet",
                                   limits.EMBED_FIELD_VALUE), inline=False)
        # The options as they will really be played (presets and variants applied), from the
        # engine: the card can't contradict setup.
        # The AI's level is the table's, not the rules': it plays AI seats and any stand-in.
        lines = [*lines, f"AI: {record.settings.ai_level}"]
        embed.add_field(name="Options", value=clip("\n".join(lines), limits.EMBED_FIELD_VALUE),
                        inline=False)
        # What the options add up to, in the game's words (e.g. "Difficulty: Standard").
        summary = game.options_summary(options)
        if summary:
            embed.add_field(name="Setup", value=clip(summary, limits.EMBED_FIELD_VALUE),
                            inline=False)
        if newcomers:
            holder = role_holder(game, options, [s.user_id for s in seats])
            tips = newcomer_text(game, options, holder is not None and holder in newcomers)
            embed.add_field(name="First time?", value=clip(tips, limits.EMBED_FIELD_VALUE),
                            inline=False)
        status = {"lobby": "Press Join to take a seat. The creator can seat AI players (Add AI) "
                           "to practise alone, change the options with the menus, and press "
                           "Start.",
                  "active": "Playing.", "over": "Finished.",
                  "abandoned": "Abandoned."}.get(record.status, record.status)
        embed.set_footer(text=clip(status, limits.EMBED_FOOTER))
        return embed

    async def lobby_view(self, record: GameRecord) -> discord.ui.View:
        """The lobby card's controls, its Variants menu showing guided play as the card does."""
        game = game_of(record)
        options = game.options_model.model_validate(record.options)
        newcomers = await self.bot.tables.newcomers(record.id)
        return lobby_components(record, guided_default(game, options, newcomers))

    async def refresh_lobby(self, interaction: discord.Interaction[Any], gid: int) -> None:
        record = await self.bot.storage.get_game(gid)
        if record is None or interaction.message is None or not self._is_mine(
                interaction.message):
            return
        view = await self.lobby_view(record) if record.status == "lobby" else None
        try:
            await interaction.message.edit(embed=await self.lobby_embed(record), view=view)
        except discord.HTTPException:
            log.info("could not refresh lobby of game %s", gid)

    async def test_dm(self, user: discord.abc.User, record: GameRecord) -> bool:
        game = game_of(record)
        where = f"<#{record.thread_id}>" if record.thread_id else "this server"
        ok = await delivery_for(self.bot).dm(
            user.id, TEST_DM.format(title=game.title, gid=record.id, where=where))
        await self.bot.storage.set_dms_ok(record.id, user.id, ok)
        return ok

    def hold(self, interaction: discord.Interaction[Any]) -> HeldAnswer:
        """A lobby answer as a move's (`HeldAnswer`): the result is the one initial response
        when the work is done within the grace (one request), else "thinking…" goes out as
        before and the result follows it (two). An error answer takes it first
        (`answer_error`)."""
        return HeldAnswer(interaction, self.bot.settings.answer_grace, thinking=True)

    # ---- actions shared by commands and buttons -----------------------------------------
    async def do_join(self, interaction: discord.Interaction[Any], gid: int) -> None:
        held = self.hold(interaction)
        record = await self.bot.storage.get_game(gid)
        if record is None:
            raise TableError("That game no longer exists.")
        await self.bot.tables.join(gid, interaction.user.id)
        # Taking a seat moments ago is being at the table, as a move is: the game's first
        # decision that comes to them is named, not pinged (pinged later should they not move
        # within `at_table_seconds`, `Delivery._ping_if_gone`).
        delivery_for(self.bot).moved(gid, interaction.user.id, interaction.id)
        ok = await self.test_dm(interaction.user, record)
        text = "You're in! " + ("I sent you a test DM." if ok else
                                "But I couldn't DM you — your DMs are closed. You can still "
                                "play and read private things with `/game hand`.")
        if interaction.user.id in await self.bot.tables.newcomers(gid):
            game = game_of(record)
            options = game.options_model.model_validate(record.options)
            seated = [s.user_id for s in await self.bot.storage.seats(gid)]
            holder = role_holder(game, options, seated)
            text += "\n" + newcomer_text(game, options, holder == interaction.user.id)
        await held.take()
        await reply(interaction, text)
        await self.refresh_lobby(interaction, gid)

    async def do_add_ai(self, interaction: discord.Interaction[Any], gid: int) -> None:
        held = self.hold(interaction)
        await self.bot.tables.add_ai(gid, interaction.user.id)
        await held.take()
        await reply(interaction, "An AI player took a seat. It plays its turns at once, by the "
                    "same rules.")
        await self.refresh_lobby(interaction, gid)

    async def do_remove_ai(self, interaction: discord.Interaction[Any], gid: int) -> None:
        held = self.hold(interaction)
        seats = await self.bot.storage.seats(gid)
        ai = [s for s in seats if s.user_id is None]
        if not ai:
            record = await self.bot.storage.get_game(gid)
            if record is not None and record.created_by != interaction.user.id:
                raise TableError("Only the player who created this game can remove AI players.")
            raise TableError("There is no AI player at this table. **Add AI** seats one.")
        await self.bot.tables.remove_ai(gid, interaction.user.id, ai[-1].seat)
        await held.take()
        await reply(interaction, "The last AI player left the table.")
        await self.refresh_lobby(interaction, gid)

    async def do_options(self, interaction: discord.Interaction[Any], gid: int, what: str,
                         values: list[str]) -> None:
        """A lobby menu was used: variants on/off, a preset or number, or the creator's side."""
        held = self.hold(interaction)
        record = await self.bot.storage.get_game(gid)
        if record is None:
            raise TableError("That game no longer exists.")
        game = game_of(record)
        # A menu's values come back from the client: only the values its menu offers are
        # read (a junk value would otherwise read as "every variant off", or the other side).
        offered = {str(option.value) for item in lobby_components(record).children
                   if isinstance(item, LobbyMenu) and item.what == what
                   for option in getattr(item.item, "options", [])}
        if any(value not in offered for value in values) or (what == "seat" and not values):
            raise TableError("That isn't one of the menu's choices. Pick one from the menus "
                             "on the lobby card, or type `options:` with `/game new`.")
        changes: dict[str, Any] = {}
        if what == "var":
            chosen = set(values)
            changes = {name: name in chosen for name in switches(game)}
            options = game.options_model.model_validate(record.options)
            if "guided" in changes and getattr(options, "guided", None) is None:
                # Guided play left as the table's default stays the table's while the menu
                # shows it unchanged: a newcomer who joins later still turns it on.
                now = guided_default(game, options, await self.bot.tables.newcomers(gid))
                if changes["guided"] == now:
                    del changes["guided"]
        elif what == "preset":
            for value in values:
                key, _, typed = value.partition("=")
                changes[key] = YES.get(typed.lower(), typed) if typed else None
        else:
            options = game.options_model.model_validate(record.options)
            role = game.role_seat(options)
            if role is None:
                raise TableError(f"Nobody plays an opposing role in {game.title} "
                                 f"({options.mode}): every seat is on the same side.")
            changes[role[0]] = await self._role_index(record, values[:1] == ["role"])
        updated = await self.bot.tables.set_options(gid, interaction.user.id, changes)
        lines = effective_lines(game, updated.options)
        await held.take()
        await reply(interaction, "Options changed. The game will be played with:\n"
                    + "\n".join(lines))
        await self.refresh_lobby(interaction, gid)

    async def _role_index(self, record: GameRecord, creator_plays_role: bool) -> int:
        """The seat index (table order) that takes the opposing role when the creator plays it,
        or when the creator plays on the other side (the next seat)."""
        seats = await self.bot.storage.seats(record.id)
        mine = next((i for i, s in enumerate(seats) if s.user_id == record.created_by), 0)
        if creator_plays_role:
            return mine
        return 1 if mine == 0 else 0

    async def do_leave(self, interaction: discord.Interaction[Any], gid: int) -> None:
        held = self.hold(interaction)
        await self.bot.tables.leave(gid, interaction.user.id)
        await held.take()
        await reply(interaction, "You left the game.")
        await self.refresh_lobby(interaction, gid)

    async def do_start(self, interaction: discord.Interaction[Any], gid: int,
                       first: discord.abc.User | None) -> None:
        held = self.hold(interaction)
        delivery = delivery_for(self.bot)
        async with delivery.lock(gid):
            started = await self.bot.tables.start(
                gid, interaction.user.id, first_user_id=first.id if first else None)
            delivery.moved(gid, interaction.user.id, interaction.id)  # at the table, as joins
            await self.announce_start(started, ai=False)
        await held.take()
        await reply(interaction, "Started.")
        await self.refresh_lobby(interaction, gid)
        # AI seats move after the answer: a practice game's opening AI turns can take a while.
        async with delivery.lock(gid):
            await delivery.run_ai(gid)

    async def announce_start(self, started: StartResult, ai: bool = True) -> None:
        """Deal by DM, post the roster and the first board (the caller holds the game's
        delivery lock), then let any AI seat move (unless `ai` is False: the caller does)."""
        delivery = delivery_for(self.bot)
        record = started.record
        gid = record.id
        game = game_of(record)
        channel = await delivery.thread(record)
        seats = await self.bot.storage.seats(gid)
        closed = [f"<@{s.user_id}>" for s in seats if s.user_id and not s.dms_ok]
        # Deal: each seat with something private gets it by DM now, the deal's private news
        # in the same DM (#15).
        await delivery.note_private(record, started.state, started.events)
        for seat in seats:
            if not seat.user_id:
                continue
            summary = game.private_summary(started.state, seat.seat)
            if summary:
                # The summary DM is kept current after every move (H-02).
                ok = await delivery.send_summary(record, started.state, seat.seat,
                                                 seat.user_id)
                if not ok and f"<@{seat.user_id}>" not in closed:
                    closed.append(f"<@{seat.user_id}>")
            else:
                delivery.dealt_without_summary(gid, seat.seat, seat.user_id)
        if channel is not None:
            # Each player as every post names them: "@Ada (the Wall player)", an AI seat as
            # "AI Wisp (the Architect)"; a role, never the bare seat id (a visitor still choosing).
            roster = "\n".join(
                "• " + game.player_name(started.state, s.seat,
                                        {s.seat: f"<@{s.user_id}>" if s.user_id
                                         else ai_seat_name(s.seat)})
                for s in seats)
            await channel.send(clip(f"**The game begins!**\n{roster}", limits.CONTENT),
                               allowed_mentions=discord.AllowedMentions(users=False))
            if closed:
                await channel.send(clip(_closed_dm_text(", ".join(closed)), limits.CONTENT),
                                   allowed_mentions=discord.AllowedMentions(users=False))
        await delivery.after_action(record, started.state, started.events, started.result,
                                    noted=True)
        if ai:
            await delivery.run_ai(gid)

    # ---- commands ------------------------------------------------------------------------
    @game.command(name="new", description="Start a new game in a thread of this channel")
    @app_commands.describe(game="Which game", mode="Game mode (each game has its own)",
                           ai="AI players to seat now: practise alone, or fill empty seats",
                           play_as="Where the mode has an opposing role (Spirit, The Wall, "
                           "the Ghost player): your side",
                           guided="Every post advises on the decision at hand (default: on "
                           "while anyone seated hasn't finished a game of this title)",
                           ai_level="How hard the AI plays its seats and stand-ins (default: "
                           "normal)",
                           options="More options as key=value, e.g. gates=4 (the lobby card "
                           "has menus too)")
    @app_commands.rename(play_as="as")
    @app_commands.choices(
        game=[app_commands.Choice(name=clip(g.title, limits.CHOICE_NAME), value=name)
              for name, g in sorted(GAMES.items())],
        mode=[app_commands.Choice(name=clip(f"{g.title}: {m.replace('_', ' ')}",
                                            limits.CHOICE_NAME), value=m)
              for _, g in sorted(GAMES.items()) for m in g.modes][:limits.CHOICES],
        play_as=[app_commands.Choice(name=f"I play {text}", value=key)
                 for key, text in PLAY_AS.items()],
        ai_level=AI_LEVEL_CHOICES)
    async def new(self, interaction: discord.Interaction[Any], game: str,
                  mode: str | None = None, ai: app_commands.Range[int, 0, 6] = 0,
                  play_as: str | None = None, guided: bool | None = None,
                  options: str | None = None, ai_level: str | None = None) -> None:
        engine = GAMES.get(game)
        if engine is None:
            raise TableError(unknown_game(game))
        channel = interaction.channel
        if not isinstance(channel, discord.TextChannel):
            raise TableError("Run `/game new` in a server text channel (not a thread or DM): "
                             "I open a thread there for the game.")
        parsed = self.new_options(engine, mode, options, int(ai), play_as, guided)
        needed = dict(NEEDED_PERMISSIONS)
        if parsed.get("strict_table_talk"):
            needed["manage_messages"] = ("delete posts of players who may not talk now "
                                         "(strict table talk)")
        own_channel = parsed.get("table_channel") == "channel"
        if own_channel:
            needed["manage_channels"] = "open the game's own channel (table_channel=channel)"
            needed["manage_roles"] = ("let only the players who may talk post in that "
                                      "channel (table_channel=channel)")
        perms = interaction.app_permissions
        missing = [why for name, why in needed.items() if not getattr(perms, name)]
        if missing:
            names = [n.replace("_", " ").title() for n, why in needed.items()
                     if not getattr(perms, n)]
            raise TableError("I can't run a game in this channel. I'm missing: "
                             + "; ".join(f"**{n}** (to {w})" for n, w in zip(names, missing,
                                                                             strict=True))
                             + ". Ask a server admin to grant them to my role here.")
        held = self.hold(interaction)
        name = clip(f"{clip(engine.title, 70)} — {interaction.user.display_name}",
                    limits.THREAD_NAME)
        thread: discord.Thread | discord.TextChannel
        if own_channel:
            # A channel of its own (P-DISCORD-03); channel names are lower-case slugs.
            slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "game"
            thread = await open_table_channel(channel, clip(slug, limits.CHANNEL_NAME))
        else:
            thread = await channel.create_thread(
                name=name, type=discord.ChannelType.public_thread, auto_archive_duration=10080)
        record = await self.bot.tables.create(
            interaction.guild_id or 0, channel.id, thread.id, game, parsed, interaction.user.id,
            settings={"ai_level": ai_level} if ai_level is not None else None)
        # A lobby is open: its first board follows within seconds, so the render worker starts
        # now and imports the renderers while players join (not at the bot's start: issue #25).
        renderpool.start_soon()
        for _ in range(int(ai)):
            await self.bot.tables.add_ai(record.id, interaction.user.id)
        await thread.send(embed=await self.lobby_embed(record), view=await self.lobby_view(record))
        ok = await self.test_dm(interaction.user, record)
        dm_note = "" if ok else (" I couldn't DM you — your DMs are closed; use `/game hand` "
                                 "during the game for anything private.")
        if interaction.user.id in await self.bot.tables.newcomers(record.id):
            dm_note += (f" First game of {engine.title}? The lobby card suggests how to start "
                        "gently.")
        await held.take()
        await reply(interaction, f"Game #{record.id} is open in {thread.mention}. Others join "
                    f"there with **Join** or `/game join`.{dm_note}")

    @staticmethod
    def new_options(engine: Game[Any, Any], mode: str | None, text: str | None, ai: int,
                    play_as: str | None, guided: bool | None) -> dict[str, Any]:
        """`/game new`'s options from its native choices and the typed `options:`, refused
        before the game opens when they can't make a game (counts, roles, variants)."""
        if mode is not None and mode not in engine.modes:
            raise OptionsError(f"{engine.title} has no {mode.replace('_', ' ')} mode. Its "
                               f"modes: {', '.join(engine.modes)}.")
        chosen: dict[str, Any] = {}
        fields = engine.options_model.model_fields
        if "guided" in fields and guided is not None:
            chosen["guided"] = guided
        parsed = parse_options(engine, mode, text, chosen)
        model = engine.options_model.model_validate(parsed)
        gentle = engine.role_seat(model)
        if play_as is None and gentle is not None and not re.search(
                rf"\b{gentle[0]}\s*=", text or ""):
            # The opposing role (the spirit, The Wall, the Ghost player) is the hardest seat
            # to learn: the creator plays on the other side unless they choose (`as:`).
            play_as = "team"
        if play_as is not None and play_as not in PLAY_AS:
            # Refused at the edge already (bot/edge.py); never read as "team" here either.
            raise OptionsError(f"`as` is one of: {', '.join(PLAY_AS)}.")
        if play_as is not None:
            role = engine.role_seat(model)
            if role is None:
                raise OptionsError(f"Nobody plays an opposing role in {engine.title} "
                                   f"({model.mode}): every seat is on the same side, so leave "
                                   "`as` empty.")
            # The creator is the first seat; "team" gives the role to the next seat.
            chosen[role[0]] = 0 if play_as == "role" else 1
            parsed = parse_options(engine, mode, text, chosen)
            model = engine.options_model.model_validate(parsed)
        counts = engine.player_counts(model)
        if 1 + ai > max(counts):
            raise OptionsError(f"{engine.title} ({model.mode}) seats at most {max(counts)} "
                               f"players, so you and {ai} AI player{'s' if ai != 1 else ''} "
                               "don't fit.")
        role = engine.role_seat(model)
        if role is not None and getattr(model, role[0]) >= max(counts):
            raise OptionsError(f"No table of {engine.title} ({model.mode}) has a seat "
                               f"{getattr(model, role[0]) + 1} for {role[1]}.")
        return parsed

    @new.autocomplete("options")
    async def new_options_autocomplete(self, interaction: discord.Interaction[Any],
                                       current: str) -> list[app_commands.Choice[str]]:
        engine = GAMES.get(str(interaction.namespace.game or ""))
        if engine is None:
            return []
        return [app_commands.Choice(name=name, value=value)
                for name, value in suggest_options(engine, current)]

    @game.command(name="join", description="Take a seat in this thread's game")
    async def join(self, interaction: discord.Interaction[Any]) -> None:
        record = await self.game_here(interaction)
        await self.do_join(interaction, record.id)

    @game.command(name="leave", description="Leave this thread's game before it starts")
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        record = await self.game_here(interaction)
        await self.do_leave(interaction, record.id)

    @game.command(name="start", description="Deal and begin (the creator only)")
    @app_commands.describe(first="Who takes the first seat — the opposing role where the "
                           "game has one (e.g. the Ghost player)")
    async def start(self, interaction: discord.Interaction[Any],
                    first: discord.User | None = None) -> None:
        record = await self.game_here(interaction)
        await self.do_start(interaction, record.id, first)

    @game.command(name="status", description="The board and whose turn it is")
    async def status(self, interaction: discord.Interaction[Any]) -> None:
        record = await self.game_here(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        game = game_of(record)
        if record.status == "lobby":
            await interaction.followup.send(embed=await self.lobby_embed(record), ephemeral=True)
            return
        state = await self.bot.tables.state(record.id)
        delivery = delivery_for(self.bot)
        names = await delivery.names(await self.bot.tables.users_of(record.id))
        # The whole public state in words: a player who cannot see the picture loses nothing.
        lines = [f"**{game.title}** — game #{record.id} ({record.status}).",
                 *game.status_lines(state, None, names)]
        if (since := waiting_since(record)) is not None:
            lines.append(f"Waiting since {stamp(since, 'f')} ({stamp(since, 'R')})."
                         + deadline_text(record))
        chunks = _chunks(lines, 2000)
        view = game.view(state, None)
        view["names"] = delivery.plain(names)
        file = await delivery.picture(record.game, view, "board.png",
                                      game.alt_text(state, view["names"]))
        for i, chunk in enumerate(chunks):
            if i == len(chunks) - 1 and file is not None:
                await interaction.followup.send(chunk, ephemeral=True, file=file)
            else:
                await interaction.followup.send(chunk, ephemeral=True)

    @game.command(name="hand", description="What only you may see in this game (only you)")
    async def hand(self, interaction: discord.Interaction[Any]) -> None:
        record = await self.game_here(interaction)
        await show_hand(interaction, record.id)

    @game.command(name="abandon", description="End this game for everyone (creator or mods)")
    async def abandon(self, interaction: discord.Interaction[Any]) -> None:
        record = await self.game_here(interaction)
        perms = getattr(interaction.user, "guild_permissions", None)
        manage = bool(perms and perms.manage_threads)
        await self.bot.tables.abandon(record.id, interaction.user.id, manage)
        await reply(interaction, "Game abandoned.", ephemeral=False)

    @game.command(name="list", description="Games in this server")
    async def list_games(self, interaction: discord.Interaction[Any]) -> None:
        await show_list(self.bot, interaction)

    @game.command(name="mine", description="Your games in every server, the ones waiting for "
                  "you first (only you; works in DMs)")
    @app_commands.describe(page="Which page of your games (10 a page)")
    async def mine(self, interaction: discord.Interaction[Any],
                   page: app_commands.Range[int, 1, 1000] = 1) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        # Any `/game` command means the player is back: the AI stops standing in for them.
        await self.bot.tables.came_back(None, interaction.user.id)
        entries, servers = await mine_entries(self.bot, interaction.user.id, int(page))
        await reply(interaction, mine_text(entries, int(page), servers))

    @game.command(name="record", description="A finished game of this server: result, recap, "
                  "replay, public log (only you)")
    @app_commands.describe(game="The finished game (type a number, a title or a player)")
    async def record(self, interaction: discord.Interaction[Any], game: str) -> None:
        record = await finished_game(self.bot, interaction.guild_id, game)
        await interaction.response.defer(ephemeral=True, thinking=True)
        answer = await open_record(self.bot, record)
        await interaction.followup.send(answer.text, files=answer.files, ephemeral=True)

    @record.autocomplete("game")
    async def record_autocomplete(self, interaction: discord.Interaction[Any],
                                  current: str) -> list[app_commands.Choice[str]]:
        return await in_time(interaction,
                             finished_choices(self.bot, interaction.guild_id, current))

    @game.command(name="rules", description="A rule by id or by words (any game; default: "
                  "this thread's), or how the game goes")
    @app_commands.describe(rule="A rule id such as EX-ACT-01, or words to look for (e.g. alone)",
                           game="Which game (default: this thread's)")
    async def rules(self, interaction: discord.Interaction[Any], rule: str | None = None,
                    game: str | None = None) -> None:
        engines = await engines_for(interaction, game, rule)
        if rule:
            await reply(interaction, rules_answer(engines, rule))
        elif len(engines) == 1:
            engine = engines[0]
            await reply(interaction, f"**{engine.title}**\n{engine.summary()}\n`/help` has "
                        "how to play it in two minutes; `/game rules rule:` finds any rule.")
        else:
            raise TableError("Which game? Pick one in the `game` option, or run this in a "
                             "game's thread.")

    @rules.autocomplete("game")
    async def rules_game_autocomplete(self, interaction: discord.Interaction[Any],
                                      current: str) -> list[app_commands.Choice[str]]:
        return game_choices(current)

    @rules.autocomplete("rule")
    async def rules_autocomplete(self, interaction: discord.Interaction[Any],
                                 current: str) -> list[app_commands.Choice[str]]:
        # Inside a game's thread only that game's rules (unless another game is named).
        async def suggest() -> list[app_commands.Choice[str]]:
            try:
                engines = await engines_for(interaction,
                                            str(interaction.namespace.game or "") or None)
            except TableError:
                return []
            return rule_choices(engines, current)
        return await in_time(interaction, suggest())

    @game.command(name="settings",
                  description="Reminders and the AI's level for this game (the creator only); "
                              "ratings for the server")
    @app_commands.describe(reminder_hours="Hours before the awaited player is nudged (1–168)",
                           policy="advisory: nudge only; enforced: act for them after the "
                           "deadline",
                           deadline_hours="Enforced: hours of waiting before the bot acts "
                           "(1–336)",
                           at_deadline="Enforced: play the rule's default move, or hand the "
                           "seat to the AI until the player is back",
                           ai_level="How hard the AI plays its seats and stand-ins",
                           ratings="This whole server: ratings on or off (Manage Server)")
    @app_commands.choices(
        ratings=[app_commands.Choice(name="on", value="on"),
                 app_commands.Choice(name="off", value="off")],
        policy=[app_commands.Choice(name="advisory", value="advisory"),
                app_commands.Choice(name="enforced", value="enforced")],
        at_deadline=[app_commands.Choice(name="play the default move", value="default"),
                     app_commands.Choice(name="hand the seat to the AI", value="ai")],
        ai_level=AI_LEVEL_CHOICES)
    async def settings(self, interaction: discord.Interaction[Any],
                       reminder_hours: app_commands.Range[float, 1, 168] | None = None,
                       policy: str | None = None,
                       deadline_hours: app_commands.Range[float, 1, 336] | None = None,
                       at_deadline: str | None = None, ai_level: str | None = None,
                       ratings: str | None = None) -> None:
        table_changes = (reminder_hours, policy, deadline_hours, at_deadline, ai_level)
        if ratings is not None:
            # The server's setting, not the table's: it needs no game thread.
            said = await set_server_ratings(self.bot, interaction, ratings)
            if all(v is None for v in table_changes):
                await reply(interaction, said)
                return
            await reply(interaction, said)
        record = await self.game_here(interaction)
        changes: dict[str, Any] = {}
        if reminder_hours is not None:
            changes["reminder_hours"] = float(reminder_hours)
        if policy is not None:
            changes["policy"] = policy
        if deadline_hours is not None:
            changes["enforce_after_hours"] = float(deadline_hours)
        if at_deadline is not None:
            changes["enforce_with"] = at_deadline
        if ai_level is not None:
            changes["ai_level"] = ai_level
        perms = getattr(interaction.user, "guild_permissions", None)
        settings = await self.bot.tables.update_settings(
            record.id, interaction.user.id, changes, bool(perms and perms.manage_threads))
        text = (f"Reminders: a DM after {settings['reminder_hours']:g} h of waiting, then a "
                "ping in the thread, then a DM a day (a ping instead for a player whose DMs "
                "are closed). Policy: **"
                f"{settings['policy']}**")
        if settings["policy"] == "enforced":
            action = ("the rule's default move is played" if settings["enforce_with"] ==
                      "default" else "the AI plays the seat until its player is back")
            text += f" — after {settings['enforce_after_hours']:g} h, {action}"
        text += f". AI: **{settings['ai_level']}**."
        current = await self.bot.storage.get_game(record.id) or record
        if (since := waiting_since(current)) is not None:
            text += f"\nThis wait began {stamp(since, 'R')}."
            if current.next_reminder_at is not None:
                text += f" Next reminder: {when(current.next_reminder_at)}."
            text += deadline_text(current)
        await reply(interaction, text)

    # ---- players' preferences ------------------------------------------------------------
    @game.command(name="away", description="Vacation: no reminders or pings for you anywhere")
    @app_commands.describe(state="on: you're away; off: you're back")
    @app_commands.choices(state=[app_commands.Choice(name="on", value="on"),
                                 app_commands.Choice(name="off", value="off")])
    async def away(self, interaction: discord.Interaction[Any], state: str) -> None:
        if state not in ("on", "off"):
            raise TableError("Choose `on` (you're away) or `off` (you're back).")
        await self.bot.tables.set_away(interaction.user.id, state == "on")
        if state == "on":
            await reply(interaction, "You're away: no reminders or pings until `/game away "
                        "off`. Where a table enforces deadlines, the AI plays your seat at the "
                        "deadline until you're back.")
        else:
            await reply(interaction, "Welcome back! Reminders resume, and the AI no longer "
                        "plays for you.")

    @game.command(name="quiet", description="Quiet hours: no reminders or pings in this window")
    @app_commands.describe(start="When quiet begins, e.g. 22 or 22:30 (or `off`)",
                           end="When quiet ends, e.g. 7 or 07:00",
                           tz="Your time zone, e.g. Europe/Paris (follows daylight saving) "
                              "or an offset like +2 (default: the one you gave last)")
    async def quiet(self, interaction: discord.Interaction[Any], start: str,
                    end: str | None = None, tz: str | None = None) -> None:
        if start.strip().lower() in ("off", "none", "no"):
            await self.bot.tables.set_quiet(interaction.user.id, None, None, 0)
            await reply(interaction, "Quiet hours are off.")
            return
        begin = parse_clock(start)
        if end is None:
            raise TableError("Give both ends of your quiet hours, e.g. `start:22 end:7 "
                             "tz:Europe/Paris` (or `start:off` to turn them off).")
        finish = parse_clock(end)
        if begin == finish:
            raise TableError("Quiet hours need a start and an end that differ.")
        if tz:
            offset, name = parse_zone(tz)
        else:
            known = await self.bot.tables.prefs(interaction.user.id)
            offset, name = known.tz_minutes, known.tz_name
        prefs = await self.bot.tables.set_quiet(interaction.user.id, begin, finish, offset, name)
        await reply(interaction, quiet_text(prefs, self.bot.clock()))

    @quiet.autocomplete("tz")
    async def _quiet_tz(self, interaction: discord.Interaction[Any],
                        current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=z, value=z) for z in suggest_zones(current)]

    @game.command(name="notify", description="Get a DM when your turn is near")
    @app_commands.describe(near="on: DM me when I'm next after the player to move")
    @app_commands.choices(near=[app_commands.Choice(name="on", value="on"),
                                app_commands.Choice(name="off", value="off")])
    async def notify(self, interaction: discord.Interaction[Any], near: str) -> None:
        if near not in ("on", "off"):
            raise TableError("Choose `on` or `off`.")
        await self.bot.tables.set_notify_near(interaction.user.id, near == "on")
        await reply(interaction, "I'll DM you when you're next to move." if near == "on" else
                    "No more “your turn is near” DMs.")

    # ---- seats ---------------------------------------------------------------------------
    # ---- the memory of finished games (cogs/utils/memory.py) -----------------------------
    @game.command(name="history", description="Finished games in this server, newest first "
                                              "(only you)")
    @app_commands.describe(player="Only the games this player sat in",
                           game="Only games of this title")
    @app_commands.choices(
        game=[app_commands.Choice(name=clip(g.title, limits.CHOICE_NAME), value=name)
              for name, g in sorted(GAMES.items())])
    async def history(self, interaction: discord.Interaction[Any],
                      player: discord.User | None = None, game: str | None = None) -> None:
        await show_history(self.bot, interaction, player, game)

    @game.command(name="stats", description="Games played, won and lost, streaks, ratings "
                                            "(only you)")
    @app_commands.describe(player="Whose stats (default: yours)",
                           server="True: this server's figures (most played games, win rates "
                           "per role, busiest players)")
    async def stats(self, interaction: discord.Interaction[Any],
                    player: discord.User | None = None, server: bool = False) -> None:
        await show_stats(self.bot, interaction, player, server)

    @game.command(name="privacy", description="Keep your stats and history to yourself")
    @app_commands.describe(stats="hidden: others are told you keep them private; shown: "
                           "anyone may look")
    @app_commands.choices(stats=[app_commands.Choice(name="hidden", value="hidden"),
                                 app_commands.Choice(name="shown", value="shown")])
    async def privacy(self, interaction: discord.Interaction[Any], stats: str) -> None:
        await reply(interaction, await set_privacy(self.bot, interaction.user.id, stats))

    @game.command(name="replace", description="Give a player's seat to someone else "
                  "(creator, or a vote of the other players)")
    @app_commands.describe(old="The player leaving the table", new="Who takes their seat")
    async def replace(self, interaction: discord.Interaction[Any], old: discord.User,
                      new: discord.User) -> None:
        record = await self.game_here(interaction)
        if new.bot:
            raise TableError("A bot can't take a seat. To let the built-in AI play it, use "
                             "`/game settings policy:enforced at_deadline:ai`.")
        perms = getattr(interaction.user, "guild_permissions", None)
        await interaction.response.defer(ephemeral=True, thinking=True)
        delivery = delivery_for(self.bot)
        async with delivery.lock(record.id):
            res = await self.bot.tables.replace(record.id, interaction.user.id, old.id, new.id,
                                                bool(perms and perms.manage_threads))
            game = game_of(res.record)
            label = game.seat_label(res.state, res.seat)
            channel = await delivery.thread(res.record)
            quiet = discord.AllowedMentions.none()
            if not res.done:
                if channel is not None:
                    await channel.send(clip(
                        f"<@{interaction.user.id}> votes to give <@{old.id}>'s seat ({label}) "
                        f"to <@{new.id}>: {res.votes} of {res.needed} votes. Other players "
                        "agree by running the same `/game replace`.", limits.CONTENT),
                        allowed_mentions=quiet)
                await reply(interaction, f"Your vote is in ({res.votes} of {res.needed}).")
                return
            if isinstance(channel, discord.Thread):
                try:
                    await channel.add_user(discord.Object(new.id))
                except discord.HTTPException:
                    log.info("could not add %s to thread %s", new.id, channel.id)
            summary = game.private_summary(res.state, res.seat)
            text = (f"You now play **{label}** in **{game.title}** (game #{record.id}), taking "
                    f"over from {escape_name(old.display_name)} — <#{res.record.thread_id}>."
                    + (f"\n{summary}" if summary else ""))
            ok = await delivery.dm(new.id, text, view=table_buttons(record.id))
            await self.bot.storage.set_dms_ok(record.id, new.id, ok)
            await delivery.dm(old.id, f"Your seat ({label}) in **{game.title}** (game "
                              f"#{record.id}) was handed to {escape_name(new.display_name)}. "
                              "Thanks for playing!")
            # Every private surface of the seat belongs to its player as well (issue #21): the
            # old player's open menu is blanked and forgotten, so no later move rewrites it
            # with the seat's new choices, and the new player's own **My choices** opens one.
            await delivery.menus.release(record.id, res.seat, old.id)
            # The seat's summary DM (and its private choices) moves to the new player now,
            # and the old player's loses its buttons.
            await delivery.refresh_summaries(res.record, res.state,
                                             await self.bot.tables.users_of(record.id))
            if channel is not None:
                note = "" if ok else " " + _closed_dm_text(f"<@{new.id}>")
                await channel.send(clip(f"<@{new.id}> takes over **{label}** from <@{old.id}>."
                                        + note, limits.CONTENT), allowed_mentions=quiet)
        await reply(interaction, f"Done: {escape_name(new.display_name)} now plays {label}.")

    @game.command(name="spectate", description="Follow this game's thread (public view only)")
    @app_commands.describe(stop="True to stop following")
    async def spectate(self, interaction: discord.Interaction[Any], stop: bool = False) -> None:
        record = await self.game_here(interaction)
        changed = await self.bot.tables.spectate(record.id, interaction.user.id, not stop)
        channel = await delivery_for(self.bot).thread(record)
        if isinstance(channel, discord.Thread) and changed:
            try:
                if stop:
                    await channel.remove_user(discord.Object(interaction.user.id))
                else:
                    await channel.add_user(discord.Object(interaction.user.id))
            except discord.HTTPException:
                log.info("could not change thread membership of %s", interaction.user.id)
        if stop:
            await reply(interaction, "You stopped following this game." if changed else
                        "You weren't following this game.")
        else:
            await reply(interaction, "You're following this game: you'll see every public "
                        "board here. Hands and choices stay with the players." if changed else
                        "You're already following this game.")

    @game.command(name="rematch", description="Play again: same seats and options, new deal")
    async def rematch(self, interaction: discord.Interaction[Any]) -> None:
        record = await self.game_here(interaction)
        where = await self.open_rematch(interaction, record)
        await reply(interaction, f"Rematch started in {where}.")

    async def open_rematch(self, interaction: discord.Interaction[Any],
                           record: GameRecord) -> str:
        """Start the rematch of `record` for the player who asked (`/game rematch`, or
        **Rematch** on the game-over post): a new thread, the same seats and options, a new
        deal, announced as any new game is and pointed to from the old thread. Defers the
        interaction; returns the new thread's mention."""
        await self.bot.tables.check_rematch(record.id, interaction.user.id)
        await interaction.response.defer(ephemeral=True, thinking=True)
        parent = self.bot.get_channel(record.channel_id)
        if parent is None:
            try:
                parent = await self.bot.fetch_channel(record.channel_id)
            except discord.NotFound:
                parent = None
        if not isinstance(parent, discord.TextChannel):
            raise TableError("The channel this game was started in is gone; start a new game "
                             "with `/game new` in a text channel.")
        game = game_of(record)
        thread = await parent.create_thread(
            name=clip(f"{clip(game.title, 60)} — rematch of #{record.id}", limits.THREAD_NAME),
            type=discord.ChannelType.public_thread, auto_archive_duration=10080)
        try:
            started = await self.bot.tables.rematch(record.id, interaction.user.id, thread.id)
        except TableError:
            await thread.delete()
            raise
        async with delivery_for(self.bot).lock(started.record.id):
            await self.announce_start(started)
        old = await delivery_for(self.bot).thread(record)
        if old is not None:
            plain = game.plain_words(started.state)  # True Horror: no emoji in its thread
            await old.send(f"{'' if plain else '🔁 '}Rematch: game #{started.record.id} in "
                           f"{thread.mention}.",
                           allowed_mentions=discord.AllowedMentions.none())
        return thread.mention

    # ---- history -------------------------------------------------------------------------
    @game.command(name="undo", description="Take back your own last move (if nothing was "
                  "revealed or drawn)")
    async def undo(self, interaction: discord.Interaction[Any]) -> None:
        record = await self.game_here(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        delivery = delivery_for(self.bot)
        async with delivery.lock(record.id):
            res = await self.bot.tables.undo(record.id, interaction.user.id)
            game = game_of(res.record)
            # Named as every post names a player: the display name, then the role.
            names = await delivery.names(await self.bot.tables.users_of(res.record.id))
            label = game.player_name(res.state, res.seat, names)
            event = Event(kind="undo", text=f"{label} took back their last move "
                          f"({game.describe(res.state, res.seat, res.undone)}).")
            await delivery.after_action(res.record, res.state, [event], None, actor=res.seat)
        await reply(interaction, "Undone. The board is back as it was before your move.")

    @game.command(name="log", description="The game so far as text")
    @app_commands.describe(private="True: send your own private events by DM")
    async def log_cmd(self, interaction: discord.Interaction[Any], private: bool = False) -> None:
        record = await self.game_here(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        game = game_of(record)
        entries = await self.bot.tables.history(record.id)
        seat = await self.bot.tables.seat_of(record.id, interaction.user.id)
        if private and seat is None:
            raise TableError("You're not playing in this game, so it has no private events "
                             "for you. `/game log` shows the public ones.")
        state = await self.bot.tables.state(record.id)
        names = await delivery_for(self.bot).names(await self.bot.tables.users_of(record.id))

        def told(names: dict[str, str]) -> list[str]:
            # Each line as the thread told it (a turn's header names its player).
            lines = [f"{game.title} — game #{record.id}"
                     + (f" — your private events as {game.role_words(state, seat)}"
                        if private and seat else " — public log")]
            for entry in entries:
                for event in entry.events:
                    if private and (event.public or seat not in event.audience):
                        continue
                    if not private and not event.public:
                        continue
                    lines.append(f"{entry.seq:>4}. {game.event_text(state, event, names)}")
            if len(lines) == 1:
                lines.append("Nothing yet." if not private else "Nothing private has happened "
                             "to you yet.")
            return lines

        lines = told(names)
        text = "\n".join(lines)
        # A file shows no markdown: its names are plain.
        file = (discord.File(io.BytesIO("\n".join(told(delivery_for(self.bot).plain(names)))
                                        .encode()),
                             filename=f"game-{record.id}-log.txt", description=lines[0])
                if len(text) > 1900 else None)
        body = text if file is None else lines[0] + " (attached)"
        if private:
            ok = await delivery_for(self.bot).dm(interaction.user.id, body,
                                                 **({"file": file} if file else {}))
            await reply(interaction, "Sent to your DMs." if ok else "I couldn't DM you (your "
                        "DMs are closed). Open them and try again, or read `/game hand`.")
            return
        if file is not None:
            await interaction.followup.send(clip(body, limits.CONTENT), file=file, ephemeral=True)
        else:
            await reply(interaction, body)

    @game.command(name="replay", description="The board as it was after a step (only you)")
    @app_commands.describe(step="0 is the deal; `/game log` numbers every step",
                           game="A finished game of this server (default: this thread's game)")
    async def replay(self, interaction: discord.Interaction[Any],
                     step: app_commands.Range[int, 0, 100000], game: str | None = None) -> None:
        record = (await self.game_here(interaction) if game is None else
                  await finished_game(self.bot, interaction.guild_id, game,
                                      replay_in=interaction.channel_id))
        await interaction.response.defer(ephemeral=True, thinking=True)
        rec, state = await self.bot.tables.replay_state(record.id, int(step))
        engine = game_of(rec)
        delivery = delivery_for(self.bot)
        names = await delivery.names(await self.bot.tables.users_of(rec.id))
        view = engine.view(state, None)
        view["names"] = delivery.plain(names)
        text = f"**{engine.title}** — game #{rec.id}, the board after step {step} of {rec.version}."
        file = await delivery.picture(rec.game, view, f"step-{step}.png",
                                      engine.alt_text(state, view["names"]))
        if file is not None:
            await interaction.followup.send(clip(text, limits.CONTENT), file=file, ephemeral=True)
        else:
            await reply(interaction, text)

    @replay.autocomplete("game")
    async def replay_autocomplete(self, interaction: discord.Interaction[Any],
                                  current: str) -> list[app_commands.Choice[str]]:
        return await in_time(interaction,
                             finished_choices(self.bot, interaction.guild_id, current))

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Every player who uses the bot is named from the interaction, not a user lookup;
        one the bot could tell nothing (a refused answer, DMs closed) is told now."""
        delivery_for(self.bot).remember_name(interaction.user)
        if (interaction.user.id in owed_notes(self.bot)
                and interaction.type is not discord.InteractionType.application_command):
            await tell_owed(interaction)

    @commands.Cog.listener()
    async def on_app_command_completion(self, interaction: discord.Interaction[Any],
                                        command: Any) -> None:
        """A command answered (its "Done", its follow-ups): what the bot owes its caller
        follows it (stop 70: told nothing else could reach them)."""
        if interaction.user.id in owed_notes(self.bot):
            await tell_owed(interaction, finished=True)

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        """Whatever is said in a game's thread after its board post buries that post: the
        next board is then a new post, not an edit of one scrolled out of sight."""
        delivery_for(self.bot).heard(message.channel.id, message.id)

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        """A moderator deleted a game's thread: the game is abandoned and its players told."""
        record = await self.bot.storage.find_game_by_thread(payload.thread_id)
        if record is not None:
            await delivery_for(self.bot).thread_gone(record)

    @commands.Cog.listener()
    async def on_raw_message_delete(self, payload: discord.RawMessageDeleteEvent) -> None:
        """A moderator deleted a game's current board post: it is posted again, unpinged."""
        if payload.guild_id is None:
            return
        record = await self.bot.storage.find_game_by_thread(payload.channel_id)
        if record is not None and record.board_message_id == payload.message_id:
            await delivery_for(self.bot).board_deleted(record, payload.message_id)

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """The bot was removed from a server (discord.py calls this only for a GUILD_DELETE
        without `unavailable`; an outage is `on_guild_unavailable`): its games there end."""
        await delivery_for(self.bot).guild_gone(guild.id)

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        """A game's own channel (`table_channel=channel`) was deleted: as for a thread."""
        record = await self.bot.storage.find_game_by_thread(channel.id)
        if record is not None and record.status in ("lobby", "active"):
            await delivery_for(self.bot).thread_gone(record)

    # ---- reminders (called by the dispatcher) -------------------------------------------
    async def send_reminder(self, record: GameRecord, user_ids: list[int], stage: str) -> None:
        """Nudge exactly the awaited players: by DM first, then a ping in the thread, then a DM
        a day (`bot/reminders.py`). A player whose DMs are closed (known from their seat, or
        refused now: 50007) is pinged in the thread instead of each DM that never arrives
        (issue #20: one reminder in five days)."""
        if not user_ids:
            return
        game = game_of(record)
        where = f"<#{record.thread_id}>" if record.thread_id else "the game's thread"
        # A table that asked for plain words (True Horror) reads no emoji from the bot.
        plain = game.plain_words(await self.bot.tables.state(record.id))
        deadline = deadline_of(record)
        since = waiting_since(record)
        waited = f" It has waited since {stamp(since, 'R')}." if since is not None else ""
        if stage in ("enforce", "ai"):
            what = ("the rule's default move was played for you" if stage == "enforce" else
                    "the built-in AI now plays your seat until you're back — any `/game` "
                    "command in the thread or **My choices** takes it back")
            passed = f" ({stamp(deadline, 'f')})" if deadline is not None else ""
            told = await self._dm_or_none(record, user_ids, (
                f"{'' if plain else '⌛ '}The table's deadline{passed} passed in "
                f"**{game.title}** (game #{record.id}): {what}. {where}"))
            closed = [u for u in user_ids if u not in told]
            if closed:
                await self._ping(record, closed, f"the table's deadline{passed} passed: {what}.")
            return
        if stage in ("dm", "daily"):
            told = await self._dm_or_none(record, user_ids, (
                f"{'' if plain else '⏳ '}It's your move in **{game.title}** "
                f"(game #{record.id}) — {where}.{waited}{deadline_text(record)}"))
            user_ids = [u for u in user_ids if u not in told]  # DMs closed: a ping instead
            if not user_ids:
                return
        await self._ping(record, user_ids, f"the table is waiting for your move in "
                         f"{game.title}.{waited}{deadline_text(record)}")

    async def _dm_or_none(self, record: GameRecord, user_ids: list[int],
                          text: str) -> set[int]:
        """DM `text` to each of `user_ids` whose DMs are open; the ones told. A seat known to
        have closed DMs is not tried; a DM refused now marks the seat closed."""
        delivery = delivery_for(self.bot)
        closed = {s.user_id for s in await self.bot.storage.seats(record.id)
                  if s.user_id and not s.dms_ok}
        told: set[int] = set()
        for user_id in user_ids:
            if user_id in closed:
                continue
            try:
                ok = await delivery.dm(user_id, text)
            except discord.HTTPException as exc:
                # Discord failed (a 5xx run), not their DMs: pinged in the thread instead this
                # time, their seat's DMs not marked closed (stop 70: it raised out of the
                # reminder).
                log.warning("game %s: reminder DM to user %s failed (Discord answered %s %s)",
                            record.id, user_id, exc.status, exc.code)
                continue
            if ok:
                told.add(user_id)
            else:
                await self.bot.storage.set_dms_ok(record.id, user_id, False)
        return told

    async def _ping(self, record: GameRecord, user_ids: list[int], text: str) -> None:
        """Ping `user_ids` in the game's thread: "@Ada — `text`"."""
        channel = await delivery_for(self.bot).thread(record)
        if channel is None:
            return
        mentions = " ".join(f"<@{u}>" for u in user_ids)
        delivery = delivery_for(self.bot)
        try:
            await channel.send(clip(f"{mentions} — {text}", limits.CONTENT),
                               allowed_mentions=discord.AllowedMentions(
                                   users=[discord.Object(u) for u in user_ids]))
        except discord.NotFound as exc:
            if exc.code != 10003:  # Unknown Channel: the thread is gone
                raise
            await delivery.thread_gone(record)
        except discord.Forbidden as exc:
            if exc.code == MISSING_ACCESS:  # out of the bot's sight: as if gone
                await delivery.thread_gone(record, seen=False)
                return
            blocked = blocked_reason(channel, exc)
            if blocked is None:
                raise
            # Locked, or a permission taken (stop 70: it raised out of every reminder and
            # nobody was told): the pinged players and the creator learn it by DM, once.
            log.warning("game %s: the reminder's ping was refused: %s", record.id, blocked[0])
            await delivery.tell_blocked(record, set(user_ids), *blocked)
        else:
            delivery.thread_takes_posts(record.id)

    async def enforce_default(self, record: GameRecord, result: Any) -> None:
        """After an enforced deadline the dispatcher played a default or AI move; show it."""
        delivery = delivery_for(self.bot)
        async with delivery.lock(record.id):
            await delivery.after_action(result.record, result.state, result.events,
                                        result.result, actor=result.seat)
            await delivery.tell_near(result)


def quiet_text(prefs: PlayerPrefs, now: float) -> str:
    """What `/game quiet` answers: the window in the player's words, and when it next begins
    and ends as Discord timestamps (each reader's own clock: a wrong zone shows at once)."""
    window = prefs.quiet_window(now)
    if window is None or prefs.quiet_start is None or prefs.quiet_end is None:
        return "Quiet hours are off."
    begins, ends = window
    text = (f"Quiet hours: {clock_text(prefs.quiet_start)}–{clock_text(prefs.quiet_end)} "
            f"({prefs.zone_text()}). ")
    if begins <= now:
        text += f"Quiet now, until {stamp(ends, 't')} ({stamp(ends, 'R')})."
    else:
        text += f"Next: {stamp(begins, 'f')} to {stamp(ends, 't')}."
    text += " Reminders and pings wait until they end."
    if prefs.tz_name is None:
        text += (" A UTC offset does not follow daylight saving: give a zone name such as "
                 "`tz:Europe/Paris` for that.")
    return text


def _chunks(lines: list[str], limit: int) -> list[str]:
    """`lines` joined into as few messages of at most `limit` characters as they fit in."""
    out: list[str] = []
    current = ""
    for line in lines:
        line = line if len(line) <= limit else line[:limit - 1] + "…"
        if current and len(current) + 1 + len(line) > limit:
            out.append(current)
            current = line
        else:
            current = f"{current}\n{line}" if current else line
    if current:
        out.append(current)
    return out


async def setup(bot: GameBot) -> None:
    attach(bot)  # start-up and shut-down work (cogs.utils.lifecycle)
    await bot.add_cog(Lobby(bot))
