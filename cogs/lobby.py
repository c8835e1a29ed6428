"""The lobby: `/game new|join|leave|start|status|hand|abandon|list|rules|settings`.

One thread per game, opened from the channel where `/game new` ran. Thin: every decision is the
table service's or the engine's; this cog turns them into messages.
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.options import describe_field, option_fields, parse_options
from bot.storage import GameRecord
from bot.tables import TableError
from cogs.utils.errors import answer_error, on_app_command_error, reply
from cogs.utils.table import DYNAMIC_ITEMS, delivery_for, game_of, show_hand
from rules.core.game import Game
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

TEST_DM = ("You joined **{title}** (game #{gid}) in {where}. I'll send anything only you may "
           "see here — keep DMs from this server open.")


def _closed_dm_text(mention: str) -> str:
    return (f"I couldn't DM {mention}: their DMs are closed. They can still play — private "
            "things can be read with **My hand** or `/game hand` — or open DMs "
            "(Server menu → Privacy Settings → Direct Messages).")


class LobbyButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=r"hb:lobby:(?P<what>join|leave|start):(?P<gid>\d+)"):
    """Join / Leave / Start on the lobby post; restart-proof like every component."""

    LABELS = {"join": ("Join", discord.ButtonStyle.success),
              "leave": ("Leave", discord.ButtonStyle.secondary),
              "start": ("Start", discord.ButtonStyle.primary)}

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
            else:
                await cog.do_start(interaction, self.gid, None)
        except Exception as exc:
            await answer_error(interaction, exc)


def game_choices(current: str) -> list[app_commands.Choice[str]]:
    wanted = current.lower()
    return [app_commands.Choice(name=g.title[:100], value=name)
            for name, g in sorted(GAMES.items())
            if wanted in name or wanted in g.title.lower()][:25]


def lobby_components(gid: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for what in ("join", "leave", "start"):
        view.add_item(LobbyButton(what, gid))
    return view


class Lobby(commands.Cog):
    """Starting, joining and looking after games."""

    game = app_commands.Group(name="game", description="Start, join and manage board games",
                              guild_only=True)

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(LobbyButton, *DYNAMIC_ITEMS)
        self.bot.tree.error(on_app_command_error)

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
        return record

    async def lobby_embed(self, record: GameRecord) -> discord.Embed:
        game = game_of(record)
        seats = await self.bot.storage.seats(record.id)
        options = dict(record.options)
        mode = options.pop("mode", None)
        embed = discord.Embed(title=f"{game.title} — game #{record.id}",
                              description=f"Mode: **{mode}**" if mode else None,
                              colour=discord.Colour.dark_purple())
        counts = sorted(game.player_counts(game.options_model.model_validate(record.options)))
        players = "\n".join(f"{i + 1}. <@{s.user_id}>" for i, s in enumerate(seats) if s.user_id)
        embed.add_field(name=f"Players ({len(seats)}; needs {counts[0]}–{counts[-1]})",
                        value=players or "nobody yet", inline=False)
        if options:
            embed.add_field(name="Options", value="\n".join(
                f"{k} = {v}" for k, v in options.items())[:1000], inline=False)
        status = {"lobby": "Press **Join** to take a seat; the creator presses **Start**.",
                  "active": "Playing.", "over": "Finished.",
                  "abandoned": "Abandoned."}.get(record.status, record.status)
        embed.set_footer(text=status)
        return embed

    async def refresh_lobby(self, interaction: discord.Interaction[Any], gid: int) -> None:
        record = await self.bot.storage.get_game(gid)
        if record is None or interaction.message is None:
            return
        view = lobby_components(gid) if record.status == "lobby" else None
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

    # ---- actions shared by commands and buttons -----------------------------------------
    async def do_join(self, interaction: discord.Interaction[Any], gid: int) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        record = await self.bot.storage.get_game(gid)
        if record is None:
            raise TableError("That game no longer exists.")
        await self.bot.tables.join(gid, interaction.user.id)
        ok = await self.test_dm(interaction.user, record)
        text = "You're in! " + ("I sent you a test DM." if ok else
                                "But I couldn't DM you — your DMs are closed. You can still "
                                "play and read private things with `/game hand`.")
        await reply(interaction, text)
        if interaction.message is not None and self._is_mine(interaction.message):
            await self.refresh_lobby(interaction, gid)

    async def do_leave(self, interaction: discord.Interaction[Any], gid: int) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.bot.tables.leave(gid, interaction.user.id)
        await reply(interaction, "You left the game.")
        if interaction.message is not None and self._is_mine(interaction.message):
            await self.refresh_lobby(interaction, gid)

    async def do_start(self, interaction: discord.Interaction[Any], gid: int,
                       first: discord.abc.User | None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        delivery = delivery_for(self.bot)
        async with delivery.lock(gid):
            started = await self.bot.tables.start(
                gid, interaction.user.id, first_user_id=first.id if first else None)
            record = started.record
            game = game_of(record)
            channel = await delivery.thread(record)
            seats = await self.bot.storage.seats(gid)
            closed = [f"<@{s.user_id}>" for s in seats if s.user_id and not s.dms_ok]
            # Deal: each seat with something private gets it by DM now.
            for seat in seats:
                if not seat.user_id:
                    continue
                summary = game.private_summary(started.state, seat.seat)
                if summary:
                    label = game.seat_label(started.state, seat.seat)
                    ok = await delivery.dm(
                        seat.user_id, f"**{game.title}** (game #{gid}) — you are **{label}**."
                        f"\n{summary}")
                    if not ok and f"<@{seat.user_id}>" not in closed:
                        closed.append(f"<@{seat.user_id}>")
            if channel is not None:
                roster = "\n".join(
                    f"• <@{s.user_id}> — {game.seat_label(started.state, s.seat)}"
                    for s in seats if s.user_id)
                await channel.send(f"**The game begins!**\n{roster}",
                                   allowed_mentions=discord.AllowedMentions(users=False))
                if closed:
                    await channel.send(_closed_dm_text(", ".join(closed)),
                                       allowed_mentions=discord.AllowedMentions(users=False))
            await delivery.after_action(record, started.state, started.events, started.result)
        await reply(interaction, "Started.")
        if interaction.message is not None and self._is_mine(interaction.message):
            await self.refresh_lobby(interaction, gid)

    # ---- commands ------------------------------------------------------------------------
    @game.command(name="new", description="Start a new game in a thread of this channel")
    @app_commands.describe(game="Which game", mode="Game mode (depends on the game)",
                           options="More options as key=value, e.g. rounds=3")
    async def new(self, interaction: discord.Interaction[Any], game: str,
                  mode: str | None = None, options: str | None = None) -> None:
        engine = GAMES.get(game)
        if engine is None:
            raise TableError(f"I don't know the game `{game}`. Games: "
                             + ", ".join(sorted(GAMES)) + ".")
        channel = interaction.channel
        if not isinstance(channel, discord.TextChannel):
            raise TableError("Run `/game new` in a server text channel (not a thread or DM): "
                             "I open a thread there for the game.")
        perms = interaction.app_permissions
        missing = [why for name, why in NEEDED_PERMISSIONS.items() if not getattr(perms, name)]
        if missing:
            names = [n.replace("_", " ").title() for n, why in NEEDED_PERMISSIONS.items()
                     if not getattr(perms, n)]
            raise TableError("I can't run a game in this channel. I'm missing: "
                             + "; ".join(f"**{n}** (to {w})" for n, w in zip(names, missing,
                                                                             strict=True))
                             + ". Ask a server admin to grant them to my role here.")
        parsed = parse_options(engine, mode, options)
        await interaction.response.defer(ephemeral=True, thinking=True)
        thread = await channel.create_thread(
            name=f"{engine.title[:70]} — {interaction.user.display_name}"[:100],
            type=discord.ChannelType.public_thread, auto_archive_duration=10080)
        record = await self.bot.tables.create(interaction.guild_id or 0, channel.id, thread.id,
                                              game, parsed, interaction.user.id)
        await thread.send(embed=await self.lobby_embed(record), view=lobby_components(record.id))
        ok = await self.test_dm(interaction.user, record)
        dm_note = "" if ok else (" I couldn't DM you — your DMs are closed; use `/game hand` "
                                 "during the game for anything private.")
        await reply(interaction, f"Game #{record.id} is open in {thread.mention}. Others join "
                    f"there with **Join** or `/game join`.{dm_note}")

    @new.autocomplete("game")
    async def new_game_autocomplete(self, interaction: discord.Interaction[Any],
                                    current: str) -> list[app_commands.Choice[str]]:
        return game_choices(current)

    @new.autocomplete("mode")
    async def new_mode_autocomplete(self, interaction: discord.Interaction[Any],
                                    current: str) -> list[app_commands.Choice[str]]:
        engine = GAMES.get(str(interaction.namespace.game or ""))
        modes: list[str] = (list(engine.modes) if engine else
                            sorted({m for g in GAMES.values() for m in g.modes}))
        return [app_commands.Choice(name=m, value=m) for m in modes
                if current.lower() in m.lower()][:25]

    @new.autocomplete("options")
    async def new_options_autocomplete(self, interaction: discord.Interaction[Any],
                                       current: str) -> list[app_commands.Choice[str]]:
        engine = GAMES.get(str(interaction.namespace.game or ""))
        if engine is None:
            return []
        prefix = current.rsplit(" ", 1)[0] + " " if " " in current else ""
        out = []
        for name in option_fields(engine):
            hint = describe_field(engine.options_model, name).replace("`", "")
            default = engine.options_model.model_fields[name].default
            out.append(app_commands.Choice(name=hint[:100], value=f"{prefix}{name}={default}"))
        return out[:25]

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
        result = game.result(state)
        text = (f"**{game.title}** — game #{record.id} ({record.status}).\n"
                + (f"Over: {result.reason}" if result else game.waiting_text(state).capitalize()))
        file = await delivery_for(self.bot).picture(record.game, game.view(state, None),
                                                    "board.png")
        if file is not None:
            await interaction.followup.send(text, ephemeral=True, file=file)
        else:
            await interaction.followup.send(text, ephemeral=True)

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
        records = await self.bot.storage.list_games(interaction.guild_id or 0,
                                                    ["lobby", "active"])
        if not records:
            await reply(interaction, "No games are open in this server. Start one with "
                        "`/game new`.")
            return
        lines = []
        for r in records[:25]:
            where = f"<#{r.thread_id}>" if r.thread_id else f"<#{r.channel_id}>"
            title = GAMES[r.game].title if r.game in GAMES else r.game
            lines.append(f"#{r.id} **{title}** ({r.options.get('mode', '')}) — {r.status} — "
                         f"{where}")
        await reply(interaction, "\n".join(lines))

    @game.command(name="rules", description="A rule by id (e.g. EX-ACT-01), or a summary")
    @app_commands.describe(rule="A rule id such as EX-ACT-01", game="Which game (default: this "
                           "thread's)")
    async def rules(self, interaction: discord.Interaction[Any], rule: str | None = None,
                    game: str | None = None) -> None:
        engine = await self._engine_for(interaction, game, rule)
        if rule:
            text = engine.rule_text(rule)
            if text is None:
                raise TableError(f"{engine.title} has no rule `{rule}`. Rule ids look like "
                                 f"`{engine.rule_prefix}-ACT-01`; start typing for a list.")
            await reply(interaction, f"**{rule.upper()}** — {text}"[:2000])
        else:
            await reply(interaction, f"**{engine.title}**\n{engine.summary()}"[:2000])

    async def _engine_for(self, interaction: discord.Interaction[Any], game: str | None,
                          rule: str | None) -> Game[Any, Any]:
        if game:
            if game not in GAMES:
                raise TableError(f"I don't know the game `{game}`. Games: "
                                 + ", ".join(sorted(GAMES)) + ".")
            return GAMES[game]
        if rule:
            prefix = rule.upper().split("-")[0]
            for engine in GAMES.values():
                if engine.rule_prefix == prefix:
                    return engine
        channel = interaction.channel
        record = (await self.bot.storage.find_game_by_thread(channel.id)
                  if channel is not None else None)
        if record is not None and record.game in GAMES:
            return GAMES[record.game]
        raise TableError("Which game? Pick one in the `game` option (or run this in a "
                         "game's thread).")

    @rules.autocomplete("game")
    async def rules_game_autocomplete(self, interaction: discord.Interaction[Any],
                                      current: str) -> list[app_commands.Choice[str]]:
        return game_choices(current)

    @rules.autocomplete("rule")
    async def rules_autocomplete(self, interaction: discord.Interaction[Any],
                                 current: str) -> list[app_commands.Choice[str]]:
        wanted = current.upper()
        out = []
        for engine in GAMES.values():
            for rid, text in engine.rulebook().items():
                if wanted in rid or wanted.lower() in text.lower():
                    out.append(app_commands.Choice(name=f"{rid} {text}"[:100], value=rid))
                    if len(out) == 25:
                        return out
        return out

    @game.command(name="settings", description="Reminders for this game (the creator only)")
    @app_commands.describe(reminder_hours="Hours before the awaited player is nudged (1–168)",
                           policy="advisory: nudge only; enforced: after the deadline the "
                           "game plays the rule's default for them")
    @app_commands.choices(policy=[app_commands.Choice(name="advisory", value="advisory"),
                                  app_commands.Choice(name="enforced", value="enforced")])
    async def settings(self, interaction: discord.Interaction[Any],
                       reminder_hours: app_commands.Range[float, 1, 168] | None = None,
                       policy: str | None = None) -> None:
        record = await self.game_here(interaction)
        changes: dict[str, Any] = {}
        if reminder_hours is not None:
            changes["reminder_hours"] = float(reminder_hours)
        if policy is not None:
            changes["policy"] = policy
        settings = await self.bot.tables.update_settings(record.id, interaction.user.id, changes)
        await reply(interaction, "Reminders: every "
                    f"{settings.get('reminder_hours')} h, {settings.get('policy')}.")

    # ---- reminders (called by the dispatcher) -------------------------------------------
    async def send_reminder(self, record: GameRecord, user_ids: list[int], stage: str) -> None:
        """Nudge exactly the awaited players: by DM first, then a ping in the thread."""
        if not user_ids:
            return
        game = game_of(record)
        where = f"<#{record.thread_id}>" if record.thread_id else "the game's thread"
        delivery = delivery_for(self.bot)
        if stage == "ping":
            channel = await delivery.thread(record)
            if channel is not None:
                mentions = " ".join(f"<@{u}>" for u in user_ids)
                await channel.send(
                    f"{mentions} — the table is waiting for your move in {game.title}.",
                    allowed_mentions=discord.AllowedMentions(
                        users=[discord.Object(u) for u in user_ids]))
            return
        for user_id in user_ids:
            await delivery.dm(user_id, f"⏳ It's your move in **{game.title}** "
                              f"(game #{record.id}) — {where}.")

    async def enforce_default(self, record: GameRecord, result: Any) -> None:
        """After an enforced deadline the dispatcher played a default; show what happened."""
        await delivery_for(self.bot).after_action(result.record, result.state, result.events,
                                                  result.result)


async def setup(bot: GameBot) -> None:
    await bot.add_cog(Lobby(bot))
