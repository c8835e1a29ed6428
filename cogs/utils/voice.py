"""Voice enforcement for The Presence (P-DISCORD-05): in the voice channel linked to a game,
a seated player who may not talk now is server-muted, and unmuted when they may talk again.

Owns the link (`/presence voice channel:`), putting and lifting the mutes as speech changes
(after every move, and when a player joins or moves between voice channels), and the record
of every mute the bot put (the `voice_mutes` table). A server mute outlives the game and the
channel, and Discord lifts one only on a member in voice (else 400 / 40032), so the record is
what makes every mute end: when its player may talk, when the link is removed or moved, when
the game ends or is abandoned, when the seat changes hands, after a restart, and, for a
player who left voice muted, the moment they join any voice channel of the server again. A
mute the bot did not put (a moderator's) is never recorded, so no game ever lifts it.

Discord saying no: 403 (Mute Members taken away) is told once in the game's thread, and the
mute to lift stays recorded and is retried at the next change; 40032 (the player just left
voice) and 10007 (they left the server) end nothing the bot still owes; any other refusal is
logged and retried at the next change, and a mute whose request failed with a 5xx stays
recorded (it may have landed). A record is written before the mute is asked for, so
no crash leaves a mute the bot does not know it put.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot.storage import GameRecord, VoiceLink, VoiceMute
from bot.tables import TableError
from cogs.utils.table import delivery_for
from rules.core.game import plural

if TYPE_CHECKING:
    from bot.client import GameBot

log = logging.getLogger(__name__)

NOT_CONNECTED = 40032
"""Discord: "Target user is not connected to voice" (a mute changes only on someone in voice)."""
UNKNOWN_MEMBER = 10007

Silenced = Callable[[Any, str], str | None]
"""Why `seat` may not talk in `state` (None: it may): the game's own rule."""


@dataclass(frozen=True)
class Unlinked:
    """What stopping a game's voice muting did: mutes lifted, mutes left on players out of
    voice (lifted when they join voice again), mutes Discord refused to lift just now."""

    link: VoiceLink
    lifted: int
    away: int
    refused: int


def _voice_of(guild: discord.Guild,
              user_id: int) -> discord.VoiceChannel | discord.StageChannel | None:
    """The voice channel `user_id` is in (None: not in voice, as far as the bot sees)."""
    member = guild.get_member(user_id)
    voice = member.voice if member is not None else None
    return voice.channel if voice is not None else None


class VoiceTable:
    """The voice channels linked to this bot's Presence games and the mutes it put there."""

    def __init__(self, bot: GameBot, silenced: Silenced) -> None:
        self.bot = bot
        self.silenced = silenced
        self._links: dict[int, VoiceLink] = {}
        self._mutes: dict[tuple[int, int], VoiceMute] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self._told: set[tuple[int, str]] = set()
        self._lifted: dict[int, int] = {}
        """Mutes lifted per game (for what stopping says it did)."""
        self._busy = 0
        self.loaded = asyncio.Event()

    # ---- start-up ---------------------------------------------------------------------
    async def load(self) -> None:
        """Read the links and mutes, then bring every game's voice channel in step: mutes
        of games that ended while the bot was away are lifted, players who joined are muted."""
        self._busy += 1
        try:
            self._links = {link.game_id: link
                           for link in await self.bot.storage.voice_links()}
            self._mutes = {(m.guild_id, m.user_id): m
                           for m in await self.bot.storage.voice_mutes()}
        finally:
            # Even unread, nothing waits for ever: voice events then find nothing to do.
            self._busy -= 1
            self.loaded.set()
        games = set(self._links) | {m.game_id for m in self._mutes.values()}
        for game_id in sorted(games):
            await self.follow(game_id)

    def busy(self) -> int:
        """Voice work under way (a gauge counter: the bot is not at rest meanwhile)."""
        return self._busy

    def link_of(self, game_id: int) -> VoiceLink | None:
        return self._links.get(game_id)

    def concerns(self, game_id: int) -> bool:
        """Whether a game has voice work at all (a link, or a mute still to lift)."""
        return game_id in self._links or any(m.game_id == game_id
                                             for m in self._mutes.values())

    # ---- linking ----------------------------------------------------------------------
    async def link(self, record: GameRecord, channel: discord.VoiceChannel,
                   by: discord.Member) -> None:
        """Link `channel` to the game (P-DISCORD-05). `by` must be able to mute members there
        (the bot mutes in their name), and so must the bot."""
        if not channel.permissions_for(by).mute_members:
            raise TableError(f"To link {channel.mention} you need **Mute Members** there: I "
                             "would be muting players in your name.", "P-DISCORD-05")
        me = channel.guild.me
        mine = channel.permissions_for(me)
        missing = [name for name, ok in (("View Channel", mine.view_channel),
                                         ("Mute Members", mine.mute_members)) if not ok]
        if missing:
            raise TableError(f"I can't mute anyone in {channel.mention}: I'm missing "
                             + " and ".join(f"**{m}**" for m in missing)
                             + " there. Ask a server admin to grant "
                             + ("it" if len(missing) == 1 else "them")
                             + " to my role in that channel.", "P-DISCORD-05")
        link = VoiceLink(game_id=record.id, guild_id=channel.guild.id, channel_id=channel.id,
                         linked_by=by.id, linked_at=self.bot.tables.clock())
        await self.bot.storage.link_voice(link)
        self._links[record.id] = link
        self._told = {t for t in self._told if t[0] != record.id}
        await self.follow(record.id)

    async def unlink(self, record: GameRecord, by: discord.Member) -> Unlinked:
        """Stop muting in the game's voice channel; every mute it put is lifted. Only a member
        who may mute members there may stop it (a muted player could otherwise unmute
        themselves)."""
        link = self._links.get(record.id)
        if link is None:
            raise TableError("No voice channel is linked to this game: `/presence voice "
                             "channel:` links one.", "P-DISCORD-05")
        guild = by.guild
        channel = guild.get_channel(link.channel_id)
        if (isinstance(channel, discord.VoiceChannel)
                and not channel.permissions_for(by).mute_members):
            raise TableError(f"Only a member who may mute members in {channel.mention} can "
                             "stop voice muting for this game.", "P-DISCORD-05")
        before = self._lifted.get(record.id, 0)
        await self.bot.storage.unlink_voice(record.id)
        self._links.pop(record.id, None)
        await self.follow(record.id)
        left = [m for m in self._mutes.values() if m.game_id == record.id]
        away = sum(1 for m in left if _voice_of(guild, m.user_id) is None)
        return Unlinked(link=link, lifted=self._lifted.get(record.id, 0) - before, away=away,
                        refused=len(left) - away)

    # ---- keeping the channel in step ------------------------------------------------------
    async def follow(self, game_id: int) -> None:
        """Mute, in the game's linked voice channel, exactly its seated players who may not
        talk now, and lift every mute of this game that is no longer owed."""
        if not self.concerns(game_id):
            return
        self._busy += 1
        try:
            record = await self.bot.storage.get_game(game_id)
            link = self._links.get(game_id)
            guild_id = (link.guild_id if link is not None else
                        next((m.guild_id for m in self._mutes.values()
                              if m.game_id == game_id), 0))
            guild = self.bot.get_guild(guild_id)
            if guild is None:
                return  # another shard's server, or the bot was removed: nothing to reach
            lock = self._locks.setdefault(guild.id, asyncio.Lock())
            async with lock:
                await self._follow(game_id, record, link, guild)
        except Exception:
            # Voice is the table's extra: a failure here never stops a move or its board.
            log.warning("game %s: keeping its voice channel in step failed", game_id,
                        exc_info=True)
        finally:
            self._busy -= 1

    async def _follow(self, game_id: int, record: GameRecord | None, link: VoiceLink | None,
                      guild: discord.Guild) -> None:
        channel = guild.get_channel(link.channel_id) if link is not None else None
        voice = channel if isinstance(channel, discord.VoiceChannel) else None
        live = record is not None and record.status == "active"
        want: dict[int, str] = {}
        if live and voice is not None and record is not None:
            state = await self.bot.tables.state(game_id)
            for seat, user_id in sorted((await self.bot.tables.users_of(game_id)).items()):
                why = self.silenced(state, seat) if user_id else None
                if user_id and why is not None:
                    want[user_id] = why
        for mute in [m for m in self._mutes.values() if m.game_id == game_id]:
            member = guild.get_member(mute.user_id)
            where = _voice_of(guild, mute.user_id)
            if (mute.user_id in want and voice is not None and where is not None
                    and where.id == voice.id):
                continue  # still silent, still in the channel: the mute stays
            await self._lift(record, guild, mute, member)
        if voice is not None:
            for user_id in want:
                member = guild.get_member(user_id)
                state_of = member.voice if member is not None else None
                if (member is None or state_of is None or state_of.channel is None
                        or state_of.channel.id != voice.id or state_of.mute
                        or (guild.id, user_id) in self._mutes):
                    # Not here, or already muted: by this game, or by someone the game
                    # must not overrule (a moderator), whose mute it never lifts.
                    continue
                await self._put(record, voice, member, want[user_id])
        ended = record is None or record.status in ("over", "abandoned")
        if link is not None and (ended or (voice is None and guild.get_channel(
                link.channel_id) is None)):
            # The game is over or its voice channel was deleted: the link goes with it.
            await self.bot.storage.unlink_voice(game_id)
            self._links.pop(game_id, None)
            self._told = {t for t in self._told if t[0] != game_id}
            self._lifted.pop(game_id, None)
            if not ended and record is not None:
                await self._tell(record, "gone", "🔇 The voice channel linked to this game "
                                 "is gone, so I no longer mute anyone: `/presence voice "
                                 "channel:` links another (rule P-DISCORD-05).")

    async def _put(self, record: GameRecord | None, voice: discord.VoiceChannel,
                   member: discord.Member, why: str) -> None:
        assert record is not None
        mute = VoiceMute(guild_id=voice.guild.id, user_id=member.id, game_id=record.id,
                         channel_id=voice.id, muted_at=self.bot.tables.clock())
        # Recorded first: a crash between the two leaves a record without a mute (lifting
        # it is then a no-op), never a mute nobody lifts.
        await self.bot.storage.add_voice_mute(mute)
        self._mutes[(mute.guild_id, mute.user_id)] = mute
        try:
            await member.edit(mute=True, reason=f"game #{record.id}: {why}"[:500])
        except discord.Forbidden:
            await self._forget(mute)
            await self._tell(record, "put", f"🔇 I can't server-mute players in "
                             f"{voice.mention} any more: I'm missing **Mute Members** there. "
                             "Until a server admin grants it, a player who may not talk must "
                             "mute themselves (rule P-DISCORD-05).")
        except discord.DiscordServerError:
            # The mute may have landed with its answer lost: the record stays, so it is
            # lifted (or found not there and dropped) when it is no longer owed.
            log.warning("game %s: Discord failed muting %s in voice", record.id, member.id,
                        exc_info=True)
        except discord.HTTPException as exc:
            await self._forget(mute)
            if exc.code != NOT_CONNECTED:  # they left voice meanwhile: nothing to mute
                log.warning("game %s: could not mute %s in voice: %s", record.id, member.id,
                            exc)

    async def _lift(self, record: GameRecord | None, guild: discord.Guild, mute: VoiceMute,
                    member: discord.Member | None) -> None:
        voice = member.voice if member is not None else None
        if member is None or voice is None or voice.channel is None:
            return  # out of voice: lifted the moment they join one (`on_voice_state_update`)
        if not voice.mute:
            await self._forget(mute)  # someone lifted it already
            return
        game = f"game #{mute.game_id}"
        try:
            await member.edit(mute=False, reason=f"{game}: may talk now, or no longer muted "
                                                 "by the game")
        except discord.NotFound:
            await self._forget(mute)
        except discord.Forbidden:
            if record is not None:
                await self._tell(record, f"lift-{member.id}",
                                 f"🔊 I can't lift <@{member.id}>'s server mute in "
                                 f"{voice.channel.mention}: I'm missing **Mute Members** "
                                 "there. A moderator can lift it; I try again at the next "
                                 "change.")
        except discord.HTTPException as exc:
            if exc.code == UNKNOWN_MEMBER:
                await self._forget(mute)
            elif exc.code != NOT_CONNECTED:
                log.warning("%s: could not lift %s's voice mute: %s", game, member.id, exc)
        else:
            await self._forget(mute)
            self._lifted[mute.game_id] = self._lifted.get(mute.game_id, 0) + 1

    async def _forget(self, mute: VoiceMute) -> None:
        await self.bot.storage.drop_voice_mute(mute.guild_id, mute.user_id)
        self._mutes.pop((mute.guild_id, mute.user_id), None)

    async def _tell(self, record: GameRecord, what: str, text: str) -> None:
        """Say `text` in the game's thread, once per game and kind of trouble."""
        if (record.id, what) in self._told:
            return
        self._told.add((record.id, what))
        try:
            channel = await delivery_for(self.bot).thread(record)
            if channel is not None:
                await channel.send(text, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException:
            log.warning("game %s: could not tell the table about voice", record.id,
                        exc_info=True)

    async def channel_gone(self, channel_id: int) -> None:
        """A voice channel was deleted: each game linked to it loses its link and its thread
        is told at once (the mutes it put are lifted as their players join voice again)."""
        for game_id in sorted(g for g, link in self._links.items()
                              if link.channel_id == channel_id):
            await self.follow(game_id)

    # ---- players moving between voice channels ------------------------------------------
    async def moved(self, member: discord.Member, before: discord.VoiceState,
                    after: discord.VoiceState) -> None:
        """A member joined, left or changed voice channel: a mute the bot owes them is lifted
        (they are in voice again, or somewhere the game does not mute), and a silent player
        who joins a linked channel is muted."""
        was = before.channel.id if before.channel is not None else None
        now = after.channel.id if after.channel is not None else None
        if was == now or now is None:
            return  # a mute or deafen switched, or they left (nothing can change then)
        games = {link.game_id for link in self._links.values() if link.channel_id == now}
        owed = self._mutes.get((member.guild.id, member.id))
        if owed is not None:
            games.add(owed.game_id)
        for game_id in sorted(games):
            await self.follow(game_id)


def voice_table(bot: GameBot, silenced: Silenced | None = None) -> VoiceTable:
    """The bot's one `VoiceTable` (made by the first caller that knows the silence rule)."""
    existing = getattr(bot, "_voice_table", None)
    if isinstance(existing, VoiceTable):
        return existing
    if silenced is None:
        raise RuntimeError("the voice table is made by the Presence cog")
    table = VoiceTable(bot, silenced)
    bot._voice_table = table  # type: ignore[attr-defined]
    return table


def linked_words(channel: discord.abc.GuildChannel, by: int) -> str:
    """The thread's post when a voice channel is linked."""
    return (f"🔊 <@{by}> linked {channel.mention} to this game: while a seated player may not "
            "talk (each board says who), I server-mute them there, and I lift it as soon as "
            "they may talk, when the game ends, and when `/presence voice` without a channel "
            "stops it (rule P-DISCORD-05). The spirit stays muted unless an effect lets it "
            "speak.")


def unlinked_words(by: int, done: Unlinked) -> str:
    """The thread's post when voice muting stops: the mutes lifted, and those still owed."""
    said = f"🔈 <@{by}> stopped voice muting in <#{done.link.channel_id}> for this game"
    if done.lifted:
        said += ("; I lifted the server mute it had put" if done.lifted == 1
                 else f"; I lifted the {done.lifted} server mutes it had put")
    if done.away:
        said += (f"; {done.away} {plural(done.away, 'player')} out of voice "
                 f"{plural(done.away, 'gets theirs', 'get theirs')} lifted on joining voice "
                 "again")
    if done.refused:
        n = done.refused
        said += (f"; Discord refused to lift {n} {plural(n, 'mute')} just now: I try again "
                 f"at the next move, and when {plural(n, 'its player', 'their players')} "
                 f"next {plural(n, 'joins', 'join')} voice")
    return said + "."
