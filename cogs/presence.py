"""`/presence …`: The Presence's actions for visitors and the spirit, with autocomplete.

Each subcommand is a family of action kinds from `rules.presence.actions.COMMAND_OF_KIND`;
the engine decides who may use which (quick actions also off-turn). Every mid-effect choice
(a coloured choice, accepting a bond, a discard, a reaction) comes as buttons for exactly the
seat that must answer — under **My choices** whenever it would name hidden cards — and
through `/presence answer`.

Strict table talk (the game option `strict_table_talk`, P-DISCORD-04): a message posted (or
edited) in the game's thread by a seated player whose speech is not `free` at that moment
(the engine's public `table_talk`, P-DISCORD-01) is deleted, and its author is told by DM
which rule applies and what they can still do. So is any post by a member who is not seated
(P-DISCORD-09: a spectator could advise an alone visitor), and any seated player's post that
forwards a message or carries files (P-DISCORD-07: it could show a hand). The bot needs only
who posted where and what kind of message it is — never the text.

A game in its own channel (the option `table_channel=channel`, P-DISCORD-03) mutes before
anyone posts: after every move each seat's member overwrite follows its speech (only changed
members are edited), and nobody else may post there.

What silent players may always do comes as fixed-text commands (`cogs.utils.talk`,
P-DISCORD-06, P-COMM-05): `/presence nudge` pings the awaited players, `/game rules` answers
privately from the bundled rules (in the thread: this game's), `/presence flag` names a rule
id publicly. None takes free text.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.pressure import gauge_of
from bot.storage import GameRecord
from bot.tables import TableError
from cogs.utils.errors import reply
from cogs.utils.gamecog import Family, families_from, make_group
from cogs.utils.lifecycle import attach
from cogs.utils.pending import command_label, defer_move, pending_for
from cogs.utils.table import TABLE_TALK, delivery_for, is_table_channel, play
from cogs.utils.voice import linked_words, unlinked_words, voice_table
from rules.core.types import Action
from rules.presence.actions import COMMAND_OF_KIND, PROMPT_ANSWERS, SPEAK
from rules.presence.engine import Engine
from rules.presence.state import PresenceState

if TYPE_CHECKING:
    from bot.client import GameBot

HELP: dict[str, str] = {
    "rest": "Visitor: Rest",
    "walk": "Visitor: Walk one movement point",
    "play": "Visitor: play an action card from your hand",
    "item": "Visitor: use an item",
    "room": "Visitor: use your room's action (or Uncover, with the Secret Chamber)",
    "ability": "Visitor: use your character's ability",
    "trade": "Visitor: give clue or item cards (quick action)",
    "smother": "Visitor: smother your candle (quick action)",
    "pickup": "Visitor: take a succumbed visitor's item (quick action)",
    "end": "End your turn (visitor or spirit)",
    "die": "Spirit: move a Presence die",
    "increase": "Spirit: increase presence by discarding a spirit card",
    "spiritcard": "Spirit: play a spirit card",
    "pawn": "Spirit: an action of the manifested spirit pawn",
    "whisper": "Spirit (True Horror): have the bot post one of the set atmospheric lines",
}


log = logging.getLogger(__name__)

# Player talk; every other message type (thread created, pins, ...) is Discord's own.
TALK_TYPES = (discord.MessageType.default, discord.MessageType.reply)

STILL_YOURS = (
    "While you may not talk, you can still play: buttons, **My choices** and `/presence` "
    "commands are not talk; the board already describes every action and says "
    "whose turn it is; `/game rules` answers rules questions privately. Each "
    "board post says who is alone and whether table talk is allowed."
)


NOT_SEATED = ("only its seated players may post in its thread: someone watching could "
              "advise a visitor who is alone (rule P-DISCORD-09)")
NOT_SEATED_STILL = ("You can follow the game in the thread; talk about it in another "
                    "channel.")
SHOWN = ("no post in its thread may forward a message or carry files: it could show a hand, "
         "and hands are never shown (rule P-DISCORD-07)")
SHOWN_STILL = ("When you may talk, say what you hold in words; a hand is read "
               "only with **My hand** or `/game hand`.")


def silence_reason(state: PresenceState, seat: str) -> str | None:
    """Why `seat` may not talk at the table now, naming the rule; None when it may
    (speech `free`, P-DISCORD-01). Public information only: it goes to the author by DM."""
    spirit_mute = "the spirit may never communicate unless a game effect allows it (rule P-COMM-09)"
    if len(state.visitors) < len(state.visitor_seats):
        # Setup: characters are still being chosen, so nobody is alone yet; only the spirit
        # is mute, as always.
        return spirit_mute if seat == state.spirit_seat else None
    eng = Engine(state)
    talk = eng.table_talk()
    if talk["speech"].get(seat, "free") == "free":
        return None
    if seat == state.spirit_seat:
        if state.true_horror:
            return (f"{spirit_mute}; in True Horror it may have the bot post an atmospheric "
                    "line with `/presence whisper` on its turn (rule P-HORROR-02)")
        return spirit_mute
    if not talk["allowed"]:
        # Only an alone active visitor silences the whole table.
        return f"{str(talk['why']).rstrip('.')} (rule P-COMM-06)"
    if state.visitors[seat].succumbed:
        return ("a succumbed character speaks with a ghostly voice only to a visitor within "
                "hearing, and none is within hearing of yours (rule P-COMM-10)")
    if state.true_horror:
        return (f"{eng.name(seat)} is alone, and in True Horror nobody talks on any topic "
                "while alone (rule P-HORROR-01)")
    return (f"{eng.name(seat)} is alone — no other visitor is within hearing — so you may "
            "not communicate (rule P-COMM-04)")


def silenced(state: Any, seat: str) -> str | None:
    """Why `seat` may not talk now (None: it may), for the voice channel's mutes."""
    return silence_reason(state, seat) if isinstance(state, PresenceState) else None


class Presence(commands.Cog):
    """The Presence."""

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot
        self.voice = voice_table(bot, silenced)

    async def cog_load(self) -> None:
        delivery_for(self.bot).after_hooks.extend((self.keep_table_channel, self.keep_voice))
        self.bot.tables.change_hooks.append(self.voice.follow)
        gauge_of(self.bot).count("voice", self.voice.busy)
        self.bot.ready_hooks.setdefault("voice mutes in step", self.voice.load)

    async def cog_unload(self) -> None:
        hooks = delivery_for(self.bot).after_hooks
        for hook in (self.keep_table_channel, self.keep_voice):
            if hook in hooks:
                hooks.remove(hook)
        if self.voice.follow in self.bot.tables.change_hooks:
            self.bot.tables.change_hooks.remove(self.voice.follow)

    async def keep_voice(self, record: GameRecord, state: Any) -> None:
        """P-DISCORD-05: after each move, the linked voice channel mutes exactly the seated
        players who may not talk now."""
        await self.voice.follow(record.id)

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        """A linked voice channel was deleted (P-DISCORD-05): its games are told at once."""
        if isinstance(channel, discord.VoiceChannel):
            await self.voice.loaded.wait()
            await self.voice.channel_gone(channel.id)

    @commands.Cog.listener()
    async def on_voice_state_update(self, member: discord.Member, before: discord.VoiceState,
                                    after: discord.VoiceState) -> None:
        """A player joined or moved between voice channels (P-DISCORD-05)."""
        await self.voice.loaded.wait()
        await self.voice.moved(member, before, after)

    async def keep_table_channel(self, record: GameRecord, state: Any) -> None:
        """P-DISCORD-03: in a game's own channel, a seat may post exactly while its speech is
        `free`; after each move only the members whose right changed are edited (one
        overwrite each). Once the game is over everyone may talk."""
        if (record.game != "presence" or record.options.get("table_channel") != "channel"
                or not isinstance(state, PresenceState)):
            return
        channel = self.bot.get_channel(record.thread_id or 0)
        if not isinstance(channel, discord.TextChannel):
            return
        users = await self.bot.tables.users_of(record.id)
        for seat, user_id in sorted(users.items()):
            if not user_id:
                continue
            free = record.status != "active" or silence_reason(state, seat) is None
            want = discord.PermissionOverwrite(**dict.fromkeys(TABLE_TALK, free))
            if channel.overwrites_for(discord.Object(user_id)) == want:
                continue
            # discord.py takes any User as a member target (it only needs the id and the
            # overwrite type); its stubs say Member, which would cost a member fetch here.
            user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
            await channel.set_permissions(
                user, overwrite=want,  # type: ignore[call-overload]
                reason=f"game #{record.id}: {'may talk' if free else 'may not talk'} now")

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        """Strict table talk: remove what a seated player says while they may not talk."""
        await self.police(message, edited=False)

    @commands.Cog.listener()
    async def on_raw_message_edit(self, payload: discord.RawMessageUpdateEvent) -> None:
        """An edit is talk too (P-DISCORD-04), judged at the moment it is made. Discord also
        sends updates when link previews load: those carry no edit time and are no talk."""
        if payload.data.get("edited_timestamp"):
            await self.police(payload.message, edited=True)

    async def police(self, message: discord.Message, *, edited: bool) -> None:
        # Games live in threads; a thread missing from the cache arrives as a partial channel.
        # Every message of the server arrives here: plain text channels are no game's.
        if (message.author.bot or message.guild is None or message.type not in TALK_TYPES
                or (isinstance(message.channel, discord.TextChannel)
                    and not is_table_channel(message.channel))):
            return
        record = await self.bot.storage.find_game_by_thread(message.channel.id)
        if (record is None or record.game != "presence" or record.status != "active"
                or not record.options.get("strict_table_talk")):
            return
        seat = await self.bot.tables.seat_of(record.id, message.author.id)
        async with delivery_for(self.bot).lock(record.id):
            current = await self.bot.storage.get_game(record.id)
            if current is None or current.status != "active":
                return
            if seat is None:
                rule, still = NOT_SEATED, NOT_SEATED_STILL
            elif shows_more_than_words(message):
                rule, still = SHOWN, SHOWN_STILL
            else:
                # Judge talk against the board the author saw: under the game's delivery
                # lock the stored state and the newest board post agree, and a message older
                # than that board was written under an earlier state, so it gets the benefit
                # of the doubt.
                if (not edited and current.board_message_id
                        and message.id < current.board_message_id):
                    return
                state = await self.bot.tables.state(record.id)
                reason = (silence_reason(state, seat) if isinstance(state, PresenceState)
                          else None)
                if reason is None:
                    return
                rule, still = f"right now {reason}", STILL_YOURS
            try:
                await message.delete()
                removed = True
            except discord.NotFound:
                removed = True
            except discord.HTTPException:
                log.warning("strict table talk: cannot delete message %s in game %s (is "
                            "Manage Messages missing?)", message.id, record.id)
                removed = False
        what = "your edited message" if edited else "your message"
        where = f"<#{message.channel.id}>"
        head = (f"🤫 I removed {what} in {where}: **The Presence** (game #{record.id}) "
                if removed else
                f"🤫 Please take back {what} in {where}: **The Presence** (game "
                f"#{record.id}) ")
        await delivery_for(self.bot).dm(
            message.author.id, f"{head}plays with strict table talk, and {rule}.\n{still}")


def shows_more_than_words(message: discord.Message) -> bool:
    """A forwarded message or a post with files: it could show a hand (P-DISCORD-07).

    Forwards are recognised by their reference type and flag, which Discord sends without the
    privileged message-content intent. Attachments are blanked for bots without that intent
    (unless the bot is mentioned), so without it only forwards are caught."""
    reference = message.reference
    return bool(message.attachments or message.flags.forwarded
                or (reference is not None
                    and reference.type is discord.MessageReferenceType.forward))


async def speak(interaction: discord.Interaction[Any], words: str) -> None:
    """`/presence speak words:…` — the spirit says what an effect allows (P-DISCORD-08): the
    engine checks the grant, the word limit and the vocabulary; the bot posts the words."""
    bot: GameBot = interaction.client  # type: ignore[assignment]
    await defer_move(interaction, game_id=None, what=command_label(interaction), thinking=True)
    try:
        channel = interaction.channel
        record = await bot.storage.find_game_by_thread(channel.id) if channel else None
        if record is None or record.game != "presence" or record.status != "active":
            raise TableError("Run this in the thread of a Presence game you are playing.")
        state = await bot.tables.state(record.id)
        await play(interaction, record, Action(kind=SPEAK, params={"words": words}),
                   expected_version=state.step)
        await reply(interaction, "The table hears you.")
    except Exception:
        await pending_for(bot).not_played(interaction.token)
        raise
    pending_for(bot).played(interaction.token)


async def voice(interaction: discord.Interaction[Any],
                channel: discord.VoiceChannel | None = None) -> None:
    """`/presence voice channel:…` links a voice channel to the game: its seated players who
    may not talk are server-muted there (P-DISCORD-05); without a channel it stops."""
    bot: GameBot = interaction.client  # type: ignore[assignment]
    where = interaction.channel
    record = await bot.storage.find_game_by_thread(where.id) if where is not None else None
    if record is None or record.game != "presence":
        raise TableError("Run `/presence voice` in the thread of a Presence game.")
    if record.status not in ("lobby", "active"):
        raise TableError("This game is over: there is no one left to mute.")
    member = interaction.user
    if not isinstance(member, discord.Member):
        raise TableError("Run `/presence voice` in the game's thread, on its server.")
    # Acknowledged first: a start-up still reading the voice records must not outlast
    # Discord's three seconds for an answer (10062 would leave the member untold).
    await interaction.response.defer(ephemeral=True, thinking=True)
    table = voice_table(bot)
    await table.loaded.wait()
    if channel is None:
        said = unlinked_words(member.id, await table.unlink(record, member))
    else:
        await table.link(record, channel, member)
        said = linked_words(channel, member.id)
    # The table hears of it in the thread; if Discord refuses that post, the link stands and
    # whoever ran the command is told, with the words to pass on.
    posted = False
    try:
        thread = await delivery_for(bot).thread(record)
        if thread is not None:
            await thread.send(said, allowed_mentions=discord.AllowedMentions.none())
            posted = True
    except discord.HTTPException:
        log.warning("game %s: could not post the voice link in its thread", record.id,
                    exc_info=True)
    await reply(interaction, "Done: the thread says so." if posted else
                f"{said}\nI couldn't post this in the game's thread (Discord refused it): "
                "please tell the table.")


def voice_command() -> app_commands.Command[Any, Any, Any]:
    command: app_commands.Command[Any, Any, Any] = app_commands.Command(
        name="voice", description="Mute players who may not talk in a voice channel "
        "(no channel: stop)", callback=voice)
    command._params["channel"].description = ("The voice channel your table talks in; "
                                              "empty: stop muting")
    return command


def speak_command() -> app_commands.Command[Any, Any, Any]:
    command: app_commands.Command[Any, Any, Any] = app_commands.Command(
        name="speak", description="Spirit: say the few words an effect allows",
        callback=speak)
    command._params["words"].description = "Up to the effect's word limit, plain words only"
    return command


async def setup(bot: GameBot) -> None:
    attach(bot)  # start-up and shut-down work (cogs.utils.lifecycle)
    await bot.add_cog(Presence(bot))
    group = make_group("presence", "The Presence", families())
    group.add_command(speak_command())
    group.add_command(voice_command())
    bot.tree.add_command(group)


def families() -> list[Family]:
    return families_from(COMMAND_OF_KIND, PROMPT_ANSWERS, HELP)
