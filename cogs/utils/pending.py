"""Moves in flight across a crash: no player is left on "thinking…" for good (issue #12, 13).

A move's interaction is recorded (`Storage.add_pending_move`, one small write) *before* it is
acknowledged (unless that write queues past the answer's deadline, `hold_move`: then the
acknowledgement goes first and the record just after), and the transaction that stores the move
marks the row with the move's seq. So whenever the bot dies, every move a player was told
"thinking…" about has a row, and the row says whether the move was stored. When the restarted
bot is ready it answers each row with the interaction's token (valid for 15 minutes, and usable
without the Interaction object): the move was not played and nothing changed, try again — or it
was played, and what it did. Rows older than 15 minutes are forgotten unanswered (Discord no
longer takes the token).

A row is deleted once its move is answered, without a write of its own: answered tokens are
deleted in the transaction of the next recorded move (and at a clean shutdown). A refused move
(a rule said no, a stale button) is deleted at once, so a restart never overwrites the reason
with "the bot restarted".

Before answering a row the restarted bot reads what its player saw (the token's original
response, one request): a player already told in the response a notice would overwrite ("Done:
…" for that very move, by a typed command's answer or the menu it pressed; the answered tokens
a crash left undeleted) is left alone. A move stored but never acknowledged — killed in the
moment between storing it and answering — showed "This interaction failed", and its token can
no longer answer (Discord has no message for it): the player is told by DM that it was played,
so they don't play it twice (issue #20).
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Literal

import discord

from bot import limits
from bot.limits import clip
from bot.perbot import one_per_bot
from bot.storage import PENDING_TTL, PendingMove
from bot.tables import TableError
from cogs.utils.answers import DEFER_BY, SEND_MARGIN, HeldAnswer, age_of
from cogs.utils.tokens import edit_original, original_response, picked, token_webhook

if TYPE_CHECKING:
    from bot.client import GameBot

log = logging.getLogger(__name__)

_HASH = re.compile(r"[0-9a-f]{10}")
LOADING = 1 << 7
"""Message flag of a deferred reply still "thinking…"."""


def pressed_label(interaction: discord.Interaction[Any]) -> str:
    """The label of the button (or menu option) the player pressed, read from the message."""
    data: dict[str, Any] = dict(interaction.data or {})
    custom_id = str(data.get("custom_id", ""))
    values = picked(interaction) or []
    message = interaction.message
    for row in message.components if message is not None else []:
        for item in getattr(row, "children", [row]):
            if getattr(item, "custom_id", None) != custom_id:
                continue
            if values:
                for option in getattr(item, "options", []):
                    if option.value == values[0]:
                        return str(option.label)
            label = getattr(item, "label", None)
            if label:
                return str(label)
    return "your choice"


def command_label(interaction: discord.Interaction[Any], choice: object = None) -> str:
    """`/exorcism move` (with the typed choice, not the hash autocomplete fills in). The
    choice is read as text whatever the payload carried (the edge refuses a non-text choice,
    bot/edge.py; this label must not be what fails if one gets through)."""
    command = interaction.command
    name = f"/{command.qualified_name}" if command is not None else "your command"
    typed = "" if choice is None else str(choice)
    if typed and not _HASH.fullmatch(typed):
        name += f" {typed}"
    return name[:200]


class PendingMoves:
    """The bot's side of `pending_moves`: record, answer, forget."""

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot
        self._answered: set[str] = set()
        # Tokens this process recorded: a restart's catch-up must not answer moves of its own.
        self._mine: set[str] = set()

    async def record(self, interaction: discord.Interaction[Any], *, game_id: int | None,
                     what: str, answer: Literal["original", "followup"]) -> None:
        now = self.bot.clock()
        forget, self._answered = self._answered, set()
        move = PendingMove(
            token=interaction.token, interaction_id=interaction.id,
            guild_id=interaction.guild_id or 0, channel_id=interaction.channel_id or 0,
            game_id=game_id, user_id=interaction.user.id, what=what[:200], answer=answer,
            created_at=now)
        try:
            await self.bot.storage.add_pending_move(move, forget=forget,
                                                    expired_before=now - PENDING_TTL)
        except BaseException:
            self._answered |= forget
            raise
        self._mine.add(interaction.token)

    def played(self, token: str) -> None:
        """The player has their answer: the row goes with the next recorded move."""
        self._answered.add(token)
        self._mine.discard(token)

    async def not_played(self, token: str) -> None:
        """Answered without a move (a refusal, a menu to choose from): the row goes now, so a
        restart cannot overwrite that answer. A row whose move was stored after all goes with
        the next recorded move, like a played one."""
        try:
            await self.bot.storage.forget_pending_moves([token], unstored_only=True)
        except Exception:
            log.warning("could not forget the unplayed move %s", token, exc_info=True)
        self.played(token)

    async def flush(self) -> None:
        """At a clean shutdown: delete the rows of answered moves."""
        forget, self._answered = self._answered, set()
        if forget:
            await self.bot.storage.forget_pending_moves(forget)

    async def answer_left_behind(self) -> int:
        """Once ready after a start: answer every move a previous run left in flight (or
        forget it, past the token's 15 minutes). Returns how many players were answered."""
        rows = [r for r in await self.bot.storage.pending_moves(self.bot.owned_shards)
                if r.token not in self._mine]
        if not rows:
            return 0
        now = self.bot.clock()
        answered = 0
        lines = await self._what_happened([r for r in rows if r.stored_seq is not None])
        for row in rows:
            if now - row.created_at >= PENDING_TTL:
                continue
            try:
                told = await self._told(row)
            except discord.HTTPException as exc:
                log.info("could not read the answer of the move left in flight %s: %s",
                         row.token, exc)
                told = "waiting"
            if told == "told" and row.stored_seq is not None and row.answer == "original":
                # "Done: …" or the menu after the move: a notice would overwrite that clearer
                # answer. (A press on the board is told by a follow-up, which overwrites
                # nothing: its board may have changed for another seat's move.)
                continue
            if told == "never":
                # Discord showed "This interaction failed". A move not stored is just that;
                # a stored one must not look failed, or its player plays it twice.
                if row.stored_seq is not None and await self._dm_played(
                        row, lines.get(row.token)):
                    answered += 1
                continue
            try:
                await self._answer(row, self.text(row, lines.get(row.token)))
                answered += 1
            except discord.HTTPException as exc:
                log.info("could not answer the move left in flight %s: %s", row.token, exc)
                if row.stored_seq is not None and await self._dm_played(
                        row, lines.get(row.token)):
                    answered += 1
        await self.bot.storage.forget_pending_moves(r.token for r in rows)
        return answered

    @staticmethod
    def text(row: PendingMove, happened: list[str] | None) -> str:
        where = f" in game #{row.game_id}" if row.game_id is not None else ""
        if row.stored_seq is None:
            return (f"⚠️ The bot restarted before your move “{row.what}”{where} could be "
                    "played, so it was **not played** and nothing changed. Please try it "
                    "again: press **My choices** on the game's newest board post.")
        body = "".join(f"\n• {line}" for line in happened or [])
        return clip(f"✅ Your move “{row.what}”{where} was played just before the bot "
                    f"restarted; the game's newest board post shows the board after it.{body}",
                    limits.CONTENT)

    async def _told(self, row: PendingMove) -> Literal["never", "waiting", "told"]:
        """What the player of a move left in flight saw: `never` acknowledged ("This
        interaction failed"), still `waiting` ("thinking…", or a deferred press not answered
        since), or `told`: its original response says "Done: …" for this very move (a typed
        command's answer, or the menu it pressed naming the choice). A menu that merely changed
        since is not enough: menus follow the game, so another seat's move rewrites them."""
        data = await original_response(self.bot, row.token)
        if data is None:
            return "never"
        if int(str(data.get("flags") or 0)) & LOADING:
            return "waiting"
        content = str(data.get("content") or "")
        typed = row.what.startswith("/")
        if "Done: " in content and (typed or f"Done: {row.what}" in content):
            return "told"
        return "waiting"

    async def _dm_played(self, row: PendingMove, happened: list[str] | None) -> bool:
        """Tell the player by DM that a move Discord showed as failed was played."""
        where = f" in game #{row.game_id}" if row.game_id is not None else ""
        body = "".join(f"\n• {line}" for line in happened or [])
        return await _dm(self.bot, row.user_id, (
            f"✅ Your move “{row.what}”{where} **was played**, just before the bot restarted, "
            "even if Discord showed “This interaction failed”: please don't play it again. "
            f"The thread shows the board after it.{body}"))

    async def _what_happened(self, rows: Iterable[PendingMove]) -> dict[str, list[str]]:
        """token → the public lines its stored move produced (rebuilt from the log)."""
        out: dict[str, list[str]] = {}
        by_game: dict[int, list[PendingMove]] = {}
        for row in rows:
            if row.game_id is not None:
                by_game.setdefault(row.game_id, []).append(row)
        for game_id, mine in by_game.items():
            try:
                history = await self.bot.tables.history(
                    game_id, upto_seq=max(r.stored_seq or 0 for r in mine))
            except Exception:  # one game's trouble must not keep the others unanswered
                log.info("could not rebuild what happened in game %s", game_id, exc_info=True)
                continue
            events = {entry.seq: [e.text for e in entry.events if e.public]
                      for entry in history}
            for row in mine:
                out[row.token] = events.get(row.stored_seq or 0, [])
        return out

    async def _answer(self, row: PendingMove, text: str) -> None:
        if row.answer == "followup":
            await token_webhook(self.bot, row.token).send(
                text, ephemeral=True, allowed_mentions=discord.AllowedMentions.none())
            return
        # The deferred reply ("thinking…") or the ephemeral menu pressed: edit it and take
        # its buttons away.
        await edit_original(self.bot, row.token, text)


LATE_AFTER = 10.0
"""Seconds after which a move's interaction is too old to play. Discord takes an answer within
3 seconds of the press; a press that reaches the bot later (replayed by the gateway after an
outage: 45–53 s) was already shown to its player as "This interaction failed", so playing it
would play a move its player saw fail. Between 3 s and this (clock skew, a slow loop) the move
is played and, if its answer is refused, its player is told by DM (`tell_played`)."""


class LateInteraction(TableError):
    """A move's interaction reached the bot after Discord gave up on it: not played."""


def lateness(interaction: discord.Interaction[Any]) -> float:
    """Seconds since the player pressed or typed (Discord stamps the interaction's id), by
    Discord's time as the bot knows it (`discord_now`): a host clock running behind Discord's
    would make a press replayed after an outage look fresh, and play a move its player saw
    fail (stop 69)."""
    return age_of(interaction)


async def refuse_if_late(interaction: discord.Interaction[Any], *, game_id: int | None,
                         what: str) -> None:
    """Raise `LateInteraction` (after telling the player by DM) when the interaction is too old
    to answer: Discord showed its player that it failed, so it must not be played."""
    late = lateness(interaction)
    if late <= LATE_AFTER:
        return
    where = f" in game #{game_id}" if game_id is not None else ""
    text = (f"⚠️ Your move “{what}”{where} reached me {late:.0f} s after you made it (Discord "
            "was having trouble) and Discord showed it as failed, so it was **not played** and "
            "nothing changed. Make it again if you still want it.")
    # Nothing goes on its token any more, the bot's fallback answer included
    # (`GameBot.on_interaction`): Discord takes none.
    interaction.extras["late"] = True
    await _dm(interaction.client, interaction.user.id, text)  # type: ignore[arg-type]
    log.info("interaction %s arrived %.1f s late: not played", interaction.id, late)
    raise LateInteraction(text)


async def tell_played(interaction: discord.Interaction[Any], *, game_id: int | None,
                      what: str, shown: str = "This interaction failed") -> None:
    """The move is stored, but Discord refused its answer: its player saw `shown` ("This
    interaction failed"; "The application did not respond" under a "thinking…" never
    followed up). Tell them by DM that it was played, so they don't play it twice."""
    where = f" in game #{game_id}" if game_id is not None else ""
    await _dm(interaction.client, interaction.user.id,  # type: ignore[arg-type]
              f"✅ Your move “{what}”{where} **was played**, even if Discord showed “{shown}”: "
              "please don't play it again. The game's newest board post shows the board "
              "after it.")


async def _dm(bot: GameBot, user_id: int, text: str) -> bool:
    """DM what happened to a move its player could not be answered about; when the DM cannot
    go either (their DMs closed, a 5xx run), it is owed: said on their next press or command
    (`tell_owed`)."""
    try:
        user = bot.get_user(user_id) or await bot.fetch_user(user_id)
        await user.send(clip(text, limits.CONTENT), allowed_mentions=discord.AllowedMentions.none())
    except discord.HTTPException as exc:
        log.info("could not DM %s: %s; told at their next interaction", user_id, exc)
        owe(bot, user_id, text)
        return False
    return True


OWED_MOST = 5
"""Notes kept for one player who cannot be told anything now (the newest)."""

_DONE_TYPES = (discord.InteractionResponseType.channel_message,
               discord.InteractionResponseType.message_update,
               discord.InteractionResponseType.deferred_message_update)
"""An interaction's answers after which a follow-up is a message of its own (after a
"thinking…" the first follow-up would take the place of the answer its handler owes)."""


def owed_notes(bot: Any) -> dict[int, list[str]]:
    """user id → what the bot could not tell them (answer refused, DMs closed): stop 70."""
    return one_per_bot(bot, "_owed_notes", dict[int, list[str]])


def owe(bot: Any, user_id: int, text: str) -> None:
    notes = owed_notes(bot).setdefault(user_id, [])
    notes.append(text)
    del notes[:-OWED_MOST]


def drop_owed(bot: Any, text: str) -> None:
    """`text` is no longer true (the thread it said was blocked takes posts again): nobody
    is told it any more."""
    book = owed_notes(bot)
    for user_id, notes in list(book.items()):
        kept = [n for n in notes if n != text]
        if kept:
            book[user_id] = kept
        else:
            del book[user_id]


async def tell_owed(interaction: discord.Interaction[Any], *, finished: bool = False,
                    wait: float = 3.0) -> None:
    """A player the bot owes notes to (`owe`: neither an answer nor a DM reached them) pressed
    or typed something: once its handler has answered, the notes follow privately, on its
    token (an answer needs no open DMs). `finished`: the handler is done (a command's
    completion), whatever its answer. Kept for the next one when this cannot carry them
    (an autocomplete, an answer refused, a "thinking…" whose handler is still at work)."""
    bot = interaction.client
    book = owed_notes(bot)
    if interaction.user.id not in book or interaction.type not in (
            discord.InteractionType.application_command, discord.InteractionType.component,
            discord.InteractionType.modal_submit):
        return
    loop = asyncio.get_running_loop()
    deadline = loop.time() + wait
    while not (interaction.response.is_done() if finished
               else interaction.response.type in _DONE_TYPES):
        if finished or loop.time() > deadline:
            return
        await asyncio.sleep(0.05)
    notes = book.pop(interaction.user.id, [])
    if not notes:
        return
    try:
        await interaction.followup.send(
            clip("\n".join(notes), limits.CONTENT), ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none())
    except discord.HTTPException as exc:
        log.info("could not tell user %s what they were owed: %s", interaction.user.id, exc)
        for note in notes:
            owe(bot, interaction.user.id, note)


def pending_for(bot: GameBot) -> PendingMoves:
    existing = getattr(bot, "_pending_moves", None)
    if isinstance(existing, PendingMoves):
        return existing
    pending = PendingMoves(bot)
    bot._pending_moves = pending  # type: ignore[attr-defined]
    return pending


async def defer_move(interaction: discord.Interaction[Any], *, game_id: int | None,
                     what: str, thinking: bool = False) -> None:
    """Record the move's interaction, then acknowledge it (`thinking`: an ephemeral
    "thinking…" reply; else a deferred update of the pressed message). The caller ends with
    `played` once the player has their answer, or `not_played` when nothing was stored."""
    bot: GameBot = interaction.client  # type: ignore[assignment]
    await refuse_if_late(interaction, game_id=game_id, what=what)
    message = interaction.message
    on_menu = message is not None and message.flags.ephemeral
    answer: Literal["original", "followup"] = (
        "original" if thinking or on_menu or message is None else "followup")
    await pending_for(bot).record(interaction, game_id=game_id, what=what, answer=answer)
    if thinking:
        await interaction.response.defer(ephemeral=True, thinking=True)
    else:
        await interaction.response.defer()


async def hold_move(interaction: discord.Interaction[Any], *, game_id: int | None,
                    what: str, thinking: bool = False) -> HeldAnswer:
    """Record the move's interaction, then keep its first answer open for the move's result
    (`HeldAnswer`: deferred as `defer_move` would if the result is not ready within the
    bot's `answer_grace`). The caller ends with `played` or `not_played` as after
    `defer_move`."""
    bot: GameBot = interaction.client  # type: ignore[assignment]
    await refuse_if_late(interaction, game_id=game_id, what=what)
    message = interaction.message
    on_menu = message is not None and message.flags.ephemeral
    answer: Literal["original", "followup"] = (
        "original" if thinking or on_menu or message is None else "followup")
    recording = asyncio.ensure_future(
        pending_for(bot).record(interaction, game_id=game_id, what=what, answer=answer))
    # The record goes first, but Discord's clock does not wait for it: when the write queues
    # behind other games' (a busy disk) until the answer's deadline, the move is deferred at
    # once and its record lands just after — a crash in that moment is the only loss.
    within = DEFER_BY - SEND_MARGIN - age_of(interaction)
    try:
        await asyncio.wait_for(asyncio.shield(recording), max(0.0, within))
    except TimeoutError:
        late = HeldAnswer(interaction, 0.0, thinking=thinking)
        await recording
        return late
    # A typed move's words ("Playing: …") can answer it once it is chosen (`HeldAnswer.words`).
    return HeldAnswer(interaction, bot.settings.answer_grace, thinking=thinking,
                      words=thinking)
