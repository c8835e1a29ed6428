"""A small, plain ``commands.Bot`` that exercises what the emulator must support.

Slash command group with options, autocomplete, ephemeral replies, defer + follow-up
with a PNG, buttons in a View, a persistent View, a DynamicItem, a select menu, a modal,
DMs (open and closed), threads, and permission checks from ``app_permissions``.
"""

from __future__ import annotations

import asyncio
import re
import struct
import zlib
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from emulator import FAST_CLIENT_OPTIONS


def tiny_png() -> bytes:
    """A valid 2x1 PNG."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    raw = b"\x00" + b"\xff\x00\x00" + b"\x00\x00\xff"
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", 2, 1, 8, 2, 0, 0, 0))
        + chunk(b"IDAT", zlib.compress(raw))
        + chunk(b"IEND", b"")
    )


PNG = tiny_png()
ROOMS = ["attic", "ballroom", "cellar", "chapel", "kitchen", "library"]


class JoinView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=60)

    @discord.ui.button(label="Join", custom_id="join", style=discord.ButtonStyle.primary)
    async def join(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        await interaction.response.send_message(f"{interaction.user.name} joined", ephemeral=True)

    @discord.ui.button(label="Start", custom_id="start")
    async def start(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        await interaction.response.defer()
        await interaction.edit_original_response(content="Game started", view=None)

    @discord.ui.button(label="Later", custom_id="later")
    async def later(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        await interaction.response.defer()
        assert interaction.message is not None
        await interaction.message.edit(content="Later it is", view=None)


class PickView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=60)

    @discord.ui.select(
        custom_id="pick",
        placeholder="Pick rooms",
        min_values=1,
        max_values=2,
        options=[discord.SelectOption(label=r.title(), value=r) for r in ROOMS[:4]],
    )
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select[Any]) -> None:
        await interaction.response.send_message("picked " + ",".join(select.values))


class PersistentView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Ping", custom_id="persist:ping")
    async def ping(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        await interaction.response.send_message(f"pong from {interaction.client.user}")


class CounterButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"counter:(?P<n>\d+)"):
    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label=f"Count {n}", custom_id=f"counter:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> CounterButton:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(CounterButton(self.n + 1))
        await interaction.response.edit_message(content=f"count {self.n + 1}", view=view)


class AckView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=60)

    @discord.ui.button(label="Got it", custom_id="ack")
    async def ack(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        where = "dm" if interaction.guild is None else "guild"
        await interaction.response.send_message(f"ack in {where} by {interaction.user.name}")


class NameModal(discord.ui.Modal, title="Name your character"):
    name: discord.ui.TextInput[Any] = discord.ui.TextInput(label="Name", custom_id="name")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"Hello {self.name.value}")


class SampleBot(commands.Bot):
    """The bot under test. ``events`` records what its handlers saw."""

    def __init__(self, **options: Any) -> None:
        intents = discord.Intents.default()
        super().__init__(command_prefix="!", intents=intents, **{**FAST_CLIENT_OPTIONS, **options})
        self.events: list[str] = []
        self.dm_failures: list[int] = []
        self.post_errors: list[discord.HTTPException] = []

    async def setup_hook(self) -> None:
        self.add_view(PersistentView())
        self.add_dynamic_items(CounterButton)
        self.tree.add_command(build_game_group(self))
        self.tree.add_command(build_setup_command())
        await self.tree.sync()

    async def on_resumed(self) -> None:
        self.events.append("resumed")


def build_game_group(bot: SampleBot) -> app_commands.Group:
    game = app_commands.Group(name="game", description="Play a game")
    admin = app_commands.Group(name="admin", description="Table admin", parent=game)

    @game.command(name="new", description="Start a game here")
    @app_commands.choices(
        game=[
            app_commands.Choice(name="Exorcism", value="exorcism"),
            app_commands.Choice(name="Presence", value="presence"),
        ]
    )
    async def new(
        interaction: discord.Interaction, game: app_commands.Choice[str], players: int = 2
    ) -> None:
        perms = interaction.app_permissions
        if not perms.create_public_threads:
            await interaction.response.send_message("I need Create Public Threads", ephemeral=True)
            return
        await interaction.response.send_message(
            f"New {game.value} for {players} in #{interaction.channel}", view=JoinView()
        )

    @game.command(name="hand", description="Your hand")
    async def hand(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Your hand: 3 cards", ephemeral=True)

    @game.command(name="board", description="Render the board")
    async def board(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await asyncio.sleep(0.01)
        await interaction.followup.send(
            "The board", file=discord.File(__import__("io").BytesIO(PNG), filename="board.png")
        )

    @game.command(name="move", description="Move somewhere")
    async def move(interaction: discord.Interaction, to: str) -> None:
        await interaction.response.send_message(f"moved to {to}")

    @move.autocomplete("to")
    async def move_to(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=r.title(), value=r) for r in ROOMS if current in r]

    @game.command(name="dm", description="DM a player")
    async def dm(interaction: discord.Interaction, player: discord.User) -> None:
        try:
            await player.send("Your secret role", view=AckView())
        except discord.Forbidden as exc:
            bot.dm_failures.append(exc.code)
            await interaction.response.send_message(f"{player.name} has DMs closed")
            return
        await interaction.response.send_message(f"sent a DM to {player.name}", ephemeral=True)

    @game.command(name="thread", description="Open a game thread")
    async def thread(interaction: discord.Interaction, name: str) -> None:
        channel = interaction.channel
        assert isinstance(channel, discord.TextChannel)
        await interaction.response.defer(ephemeral=True)
        created = await channel.create_thread(name=name, type=discord.ChannelType.public_thread)
        await created.send(f"Welcome to {name}")
        await interaction.followup.send(f"thread {created.id}", ephemeral=True)

    @game.command(name="say", description="Post text into a channel or thread by id")
    async def say(interaction: discord.Interaction, text: str, where: str | None = None) -> None:
        target: Any = interaction.channel
        if where is not None:
            target = bot.get_partial_messageable(int(where))
        try:
            await target.send(text)
        except discord.HTTPException as exc:
            bot.post_errors.append(exc)
            await interaction.response.send_message(
                f"failed {exc.status} {exc.code}", ephemeral=True
            )
            return
        await interaction.response.send_message("said", ephemeral=True)

    @game.command(name="pick", description="Choose rooms")
    async def pick(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Choose", view=PickView())

    @game.command(name="counter", description="A restart-proof counter")
    async def counter(interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(CounterButton(0))
        await interaction.response.send_message("count 0", view=view)

    @game.command(name="persist", description="Post a persistent button")
    async def persist(interaction: discord.Interaction) -> None:
        assert isinstance(interaction.channel, discord.abc.Messageable)
        await interaction.channel.send("Press me any time", view=PersistentView())
        await interaction.response.send_message("posted", ephemeral=True)

    @game.command(name="ask", description="Open a modal")
    async def ask(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(NameModal())

    @game.command(name="slow", description="Answer late")
    async def slow(interaction: discord.Interaction, seconds: float) -> None:
        await asyncio.sleep(seconds)
        try:
            await interaction.response.send_message("finally")
        except discord.NotFound as exc:
            bot.post_errors.append(exc)

    @game.command(name="twice", description="Answer twice")
    async def twice(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("once")
        try:
            await interaction.followup.send("twice")
            await bot.http.request(
                discord.http.Route(
                    "POST", "/interactions/{i}/{t}/callback", i=interaction.id, t=interaction.token
                ),
                json={"type": 4, "data": {"content": "again"}},
            )
        except discord.HTTPException as exc:
            bot.post_errors.append(exc)

    @game.command(name="shard", description="Which shard am I on")
    async def shard(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"shard {bot.shard_id}")

    @game.command(name="long", description="Too long a message")
    async def long(interaction: discord.Interaction) -> None:
        try:
            await interaction.response.send_message("x" * 2001)
        except discord.HTTPException as exc:
            bot.post_errors.append(exc)
            await interaction.response.send_message("too long", ephemeral=True)

    @admin.command(name="kick", description="Remove a seat")
    async def kick(interaction: discord.Interaction, seat: int) -> None:
        await interaction.response.send_message(f"kicked seat {seat}")

    return game


def build_setup_command() -> app_commands.Command[Any, Any, Any]:
    @app_commands.command(name="setup", description="Configure the bot (managers only)")
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.guild_only()
    async def setup(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("configured")

    return setup
