"""Delivery of private things: each seat's summary DM (its control panel) and private news."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.storage import GameRecord
from cogs.utils.answers import HeldAnswer
from cogs.utils.table.components import game_of
from cogs.utils.table.core import DeliveryCore
from cogs.utils.table.posts import DELETE, _TooOld
from cogs.utils.table.summaries import (
    NEWS_KEPT,
    Settling,
    SummaryDM,
    last_news,
    mine_command,
    summary_dm,
    summary_head,
    summary_text,
)
from rules.core import Event
from rules.core.game import Game, join_words

if TYPE_CHECKING:
    pass

log = logging.getLogger(__name__)


class SummaryDMs(DeliveryCore):
    """Each seat's summary DM and its private news."""

    async def send_summary(self, record: GameRecord, state: Any, seat: str,
                           user_id: int) -> bool:
        """Deal: DM `seat` its private summary (with its private choices, when the game
        starts by waiting for them) as a new message and keep it current from now on. False
        if the DM could not be sent (DMs closed)."""
        now = summary_dm(record, game_of(record), state, seat,
                         news=self._news.get((record.id, seat)),
                         mine=mine_command(self.bot.command_ids))
        if now is None:
            return True
        message = await self._send(user_id, now.text, now.view())
        self._summaries[(record.id, seat)] = SummaryDM(
            user_id, message.id if message else None, now.text, now.panel)
        return message is not None

    def dealt_without_summary(self, gid: int, seat: str, user_id: int) -> None:
        """Deal: `seat` got no summary DM from this process, so it has none to find: the DM
        history is read only after a restart (`_find_summary`)."""
        self._summaries.setdefault((gid, seat), SummaryDM(user_id, None, ""))

    def has_summary_dm(self, gid: int, seat: str) -> bool:
        """Whether `seat` has a summary DM this process can write to (its DMs are open)."""
        known = self._summaries.get((gid, seat))
        return known is not None and known.message_id is not None

    async def refresh_summaries(self, record: GameRecord, state: Any,
                                users: dict[str, int | None], *, settle: bool = False,
                                actor: str | None = None,
                                only: set[str] | None = None) -> None:
        """H-02: the summary DM of every seat whose private summary or private choices changed
        is edited in place (a new one is sent only when there is none to edit). Its buttons
        change with the words, so they cost no edit of their own unless only they changed
        (the game comes to wait for the seat's private choices, or stops waiting). A DM whose
        words and buttons would not change is not written (`dm_counts`: "changes", what
        writing every DM at once would write; "writes", the requests; "held").

        `settle` (a move's showing): the DM of a seat the game does not wait for now is held
        back for `summary_settle_seconds` (`Settling`), so a burst of moves costs it one edit
        carrying every change. The DM of the seat that just moved (`actor`), when it offers
        no choices now (the turn passed, or every choice is on the board post) and no private
        news came to it, follows the mover's next decision: the write that brings carries it,
        else it is written by `at_table_seconds`. Any other awaited seat's DM is written at
        once, before the board post that may ping it. `only`: these seats alone (the settle
        window's flush)."""
        async with self._dm_lock(record.id):
            await self._refresh(record, state, users, settle=settle, actor=actor, only=only)

    def _dm_lock(self, gid: int) -> asyncio.Lock:
        return self._dm_locks.setdefault(gid, asyncio.Lock())

    async def _refresh(self, record: GameRecord, state: Any, users: dict[str, int | None], *,
                       settle: bool, actor: str | None = None,
                       only: set[str] | None = None) -> None:
        game = game_of(record)
        over = game.result(state) is not None
        window = self.bot.settings.summary_settle_seconds if settle and not over else 0.0
        awaited = set() if over else set(game.to_act(state))
        for seat, user_id in users.items():
            if not user_id or (only is not None and seat not in only):
                continue
            known = self._summaries.get((record.id, seat))
            if known is not None and known.user_id != user_id and known.panel != "" \
                    and known.message_id is not None:
                # The seat changed hands (`/game replace`): its old player's DM keeps the
                # summary they had, not buttons they may no longer press.
                try:
                    old = await self._dm_channel(known.user_id)
                    await old.get_partial_message(known.message_id).edit(view=None)
                except discord.HTTPException:
                    log.info("game %s: could not take the buttons off a replaced player's DM",
                             record.id)
            if known is None or known.user_id != user_id:
                # Looked up once per seat and process; "none" is remembered too.
                known = (await self._find_summary(game, record.id, user_id)
                         or SummaryDM(user_id, None, ""))
                self._summaries[(record.id, seat)] = known
                # Its news stays (before this process's own, noted since it started).
                if old_news := last_news(known.text):
                    self._news[(record.id, seat)] = (
                        old_news + self._news.get((record.id, seat), []))[-NEWS_KEPT:]
            since, wanted = self._unsettle(record.id, seat)
            news = self._news.get((record.id, seat))
            # Every private line noted so far is looked at now: the DM is written with it,
            # found showing it, or held (keeping its earliest time). Lines the mover's own
            # answer carries (`note_private`'s `answered`) are not untold.
            untold = self._untold.pop((record.id, seat), 0)
            now = summary_dm(record, game, state, seat,
                             known.text if known.message_id is not None else None, news,
                             mine_command(self.bot.command_ids))
            if now is None:
                continue  # nothing hidden, and no DM to take buttons off
            text, panel, view = now.text, now.panel, None
            # A change: what every-DM-at-once would write now (`dm_counts`: changes less
            # writes are the requests saved).
            if (text, panel) != (wanted or (known.text, known.panel)):
                self.dm_counts["changes"] += 1
            if known.text == text and known.panel == panel:
                # Nothing a player would see changes (a change held back may have come back
                # to what the DM shows): no request.
                self._promised.pop((record.id, seat), None)  # it shows the news already
                continue
            # The mover's own DM offering no choices now (the game waits for others, or for
            # the mover's choices on the board post), with no news for it but what their own
            # answer to the move carries (`note_private`): changed only by what the mover
            # just did, and told to them, it follows the mover's next decision (the write
            # that decision brings carries it). Any DM of a seat the game does not wait for
            # settles for a few seconds.
            own = seat == actor and not panel and not untold
            if window > 0 and (own or seat not in awaited) and known.message_id is not None:
                # Held back: written when the moves settle (`window`: one edit for all of
                # them), at once should the game come to wait for its choices there or news
                # come to it; the mover's own at the latest once it is no longer at the table
                # (`at_table_seconds`, when a late ping would find it gone).
                delay = max(window, self.bot.settings.at_table_seconds) if own else window
                self._hold(record, state, users, seat, delay, since, wanted, (text, panel))
                self.dm_counts["held"] += wanted is None
                self.dm_counts["held for the mover"] += own and wanted is None
                continue
            self.dm_counts["writes"] += 1
            # Why it could not wait (the saturation bench prints these).
            self.dm_counts["writes: " + (
                "held, now due" if not settle
                else "over, or no DM yet" if window <= 0 or known.message_id is None
                else "choices on it (the mover)" if panel and seat == actor
                else "choices on it" if panel
                else "the mover's news" if seat == actor and untold
                else "awaited")] += 1
            # Written now, news and all: an answer still to carry some news need not.
            self._promised.pop((record.id, seat), None)
            view = now.view()
            message_id: int | None = None
            replaced: int | None = None
            if known.message_id is not None:
                try:
                    channel = await self._dm_channel(user_id)
                    if self._refusing(channel.id) and self.is_old(known.message_id):
                        raise _TooOld  # refused moments ago: replaced at once, no request
                    # `view=None` takes away buttons the game no longer waits for.
                    await channel.get_partial_message(known.message_id).edit(content=text,
                                                                             view=view)
                    message_id = known.message_id
                except discord.NotFound:
                    log.info("game %s: the summary DM of %s is gone; sending anew",
                             record.id, seat)
                except (discord.HTTPException, _TooOld) as exc:
                    if (channel_id := self._dm_channels.get(user_id)) is not None:
                        self._note_refusal(channel_id, exc)
                    # Refused (an old DM past Discord's limit on old edits, a 5xx): a new DM
                    # replaces it, and the old one is deleted — a delete is no edit, so the
                    # limit does not stop it — lest two DMs offer the seat's choices.
                    log.info("game %s: could not edit the summary DM of %s (%s); replacing "
                             "it", record.id, seat, exc)
                    replaced = known.message_id
            if replaced is not None:
                await self._retire_dm(record.id, user_id, replaced)
            if message_id is None:
                if summary_text(game, record.id, state, seat, news) is None:
                    continue  # nothing hidden: no new DM just for buttons
                message = await self._send(user_id, text, view)
                message_id = message.id if message else None
            self._summaries[(record.id, seat)] = SummaryDM(user_id, message_id, text, panel)

    def _hold(self, record: GameRecord, state: Any, users: dict[str, int | None], seat: str,
              delay: float, since: float | None, before: tuple[str, str] | None,
              wanted: tuple[str, str]) -> None:
        """Hold `seat`'s DM edit (`wanted`: its words and buttons' key) back for `delay`
        seconds, or less: a change held before (`since`, when it was due; `before`, what it
        would have written) keeps its time — holding again never pushes a DM further behind
        its game, so a game that keeps moving still has its DMs written — and a new change
        is written by `delay` from now at the latest."""
        loop = asyncio.get_running_loop()
        settling = self._settling.get(record.id)
        if settling is None:
            settling = self._settling[record.id] = Settling(record, state, users)
        # The newest showing's state is the one to write (showings come in the moves' order).
        settling.record, settling.state, settling.users = record, state, users
        due = loop.time() + delay
        if since is not None:
            # No new change (others moved, the DM would read the same): it keeps its time.
            due = since if before == wanted else min(since, due)
        settling.due[seat] = due
        settling.wanted[seat] = wanted
        settling.wake.set()
        if settling.task is None or settling.task.done():
            settling.task = asyncio.create_task(self._settle_in_time(record.id),
                                                name=f"summary-dms-of-game-{record.id}")

    def _unsettle(self, gid: int, seat: str) -> tuple[float | None, tuple[str, str] | None]:
        """Forget `seat`'s held DM edit (the caller writes the DM, finds it current, or holds
        it again): when it was due and what it would have written, if one was held."""
        settling = self._settling.get(gid)
        if settling is None:
            return None, None
        return settling.due.pop(seat, None), settling.wanted.pop(seat, None)

    async def _settle_in_time(self, gid: int) -> None:
        """The game's held DM edits, each written when its time comes."""
        loop = asyncio.get_running_loop()
        while (settling := self._settling.get(gid)) is not None:
            if not settling.due:
                self._settling.pop(gid, None)
                return
            wait = min(settling.due.values()) - loop.time()
            if wait > 0:
                settling.wake.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(settling.wake.wait(), wait)
                continue
            try:
                await self.flush_summaries(gid, due_only=True)
            except Exception:  # the next move's refresh writes it (it compares with the DM)
                log.warning("game %s: could not write its held summary DMs", gid,
                            exc_info=True)
                self._settling.pop(gid, None)
                return

    async def flush_summaries(self, gid: int, seat: str | None = None, *,
                              due_only: bool = False) -> None:
        """Write game `gid`'s held summary DM edits now (`seat`: that seat's alone;
        `due_only`: those whose time has come), from the newest state shown."""
        async with self._dm_lock(gid):
            settling = self._settling.get(gid)
            if settling is None:
                return
            now = asyncio.get_running_loop().time()
            seats = {s for s, due in settling.due.items()
                     if (seat is None or s == seat) and (not due_only or due <= now)}
            if seats:
                # Each seat's held edit is forgotten as it is written (`_unsettle`, which
                # also tells the count it is no new change).
                await self._refresh(settling.record, settling.state, settling.users,
                                    settle=False, only=seats)
            for held in seats:  # a seat no longer played by anyone is not written
                self._unsettle(gid, held)
            if not settling.due and not due_only and seat is None:
                self._settling.pop(gid, None)
                if settling.task is not None and settling.task is not asyncio.current_task():
                    settling.task.cancel()

    async def flush_all_summaries(self) -> int:
        """Before the bot closes: every held summary DM edit is written now (nothing waits
        for a process that is going away). Returns how many games had some."""
        games = [gid for gid, settling in self._settling.items() if settling.due]
        for gid in list(self._settling):
            try:
                await self.flush_summaries(gid)
            except Exception:
                log.warning("game %s: could not write its held summary DMs before closing",
                            gid, exc_info=True)
        return len(games)

    async def _retire_dm(self, gid: int, user_id: int, message_id: int) -> None:
        """Delete a summary DM a new one replaces; if Discord refuses, it is owed (`_tidy`)."""
        try:
            channel = await self._dm_channel(user_id)
            await channel.get_partial_message(message_id).delete()
        except discord.NotFound:
            pass
        except discord.HTTPException as exc:
            log.info("game %s: could not delete a replaced summary DM (%s); trying again "
                     "later", gid, exc)
            channel_id = self._dm_channels.get(user_id)
            if channel_id is not None:
                self._owe(gid, message_id, channel_id, DELETE)

    async def answer_in_dm(self, answer: HeldAnswer, record: GameRecord, state: Any,
                           seat: str) -> None:
        """A move pressed on `seat`'s summary DM is stored: answer the press by updating that
        DM to the seat's summary and choices now, in the interaction's response (no request of
        its own; the summary refresh after the move then finds nothing to change)."""
        interaction = answer.interaction
        message = interaction.message
        if message is None:
            return
        if self.is_old(message.id):
            # Not in the answer: Discord may refuse an hour-old DM's edit for longer than the
            # 3 s an answer has. The press is acknowledged now; the summary refresh edits the
            # DM (or replaces it, if Discord refuses).
            if await answer.take():
                with contextlib.suppress(discord.HTTPException):
                    await interaction.response.defer()
            return
        now = summary_dm(record, game_of(record), state, seat, message.content,
                         self._news.get((record.id, seat)), mine_command(self.bot.command_ids))
        if now is None:
            return
        view = now.view()
        if not await answer.take():
            return
        try:
            await interaction.response.edit_message(
                content=now.text, view=view, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException:
            log.info("game %s: could not update the summary DM of %s in the press's answer",
                     record.id, seat)
            return
        self._summaries[(record.id, seat)] = SummaryDM(interaction.user.id, message.id,
                                                       now.text, now.panel)
        self._unsettle(record.id, seat)  # written: nothing of it is held back any more
        self._untold.pop((record.id, seat), None)  # its news is on it now
        self._promised.pop((record.id, seat), None)

    async def _find_summary(self, game: Game[Any, Any], gid: int,
                            user_id: int) -> SummaryDM | None:
        """After a restart: the newest summary DM of game `gid` among the last DMs."""
        head = summary_head(game, gid)
        me = self.bot.user
        try:
            channel = await self._dm_channel(user_id)
            async for message in channel.history(limit=25):
                if me is not None and message.author.id == me.id \
                        and message.content.startswith(head):
                    # Its buttons are not read back: the next refresh writes the current ones.
                    return SummaryDM(user_id, message.id, message.content,
                                     None if message.components else "")
        except discord.HTTPException:
            log.info("could not read the DMs of %s for game %s", user_id, gid)
        return None

    async def note_private(self, record: GameRecord, state: Any, events: list[Event], *,
                           answered: str | None = None) -> list[str]:
        """A move's private events join the news of each seat that reads them (its audience:
        a team's shared lines reach every teammate's own DM), to be shown on its summary DM by
        the next refresh — one edit that also carries the changed hand, not a DM of its own.

        `answered`: the mover, whose own answer to the move (ephemeral: theirs alone) will
        carry their lines (`answer_news`). Those lines are then not untold: the mover's DM
        may follow their next decision like any change of their own (`refresh_summaries`),
        unless the answer fails (`answer_sent`). Returns the lines noted for `answered`."""
        game = game_of(record)
        private = [e for e in events if not e.public]
        if not private:
            return []
        carried: list[str] = []
        teams = any(len(e.audience) > 1 for e in private)
        names = await self.names(await self.bot.tables.users_of(record.id)) if teams else {}
        for event in private:
            for seat in event.audience:
                others = sorted((names.get(s) or game.seat_label(state, s)
                                 for s in event.audience if s != seat and s in state.seats),
                                key=str.lower)
                shared = f" ({seen_by(others)})" if others else ""
                line = " ".join(event.text.split()) + shared
                news = self._news.setdefault((record.id, seat), [])
                news.append(line)
                del news[:-NEWS_KEPT]
                self._fresh.setdefault(record.id, set()).add(seat)
                key = (record.id, seat)
                if seat == answered:
                    carried.append(line)
                    self._promised[key] = self._promised.get(key, 0) + 1
                else:
                    self._untold[key] = self._untold.get(key, 0) + 1
        return carried

    async def answer_sent(self, gid: int, seat: str, lines: int, told: bool) -> None:
        """The mover's own answer to their move was to carry `lines` private lines
        (`note_private`'s `answered`); `told`: it did. If it did not (Discord refused it, 10062
        or a 5xx; it went in words before the move was stored), the mover is not left untold:
        their summary DM is written now if it was held back, else the refresh still to come
        writes it at once (the lines count as untold)."""
        key = (gid, seat)
        left = self._promised.get(key, 0)
        if left <= 0:
            return  # the DM was written meanwhile, news and all
        if left > lines:
            self._promised[key] = left - lines
        else:
            self._promised.pop(key, None)
        if told:
            self.dm_counts["news in the answer"] += 1
            return
        self.dm_counts["news the answer could not carry"] += 1
        log.info("game %s: the answer to %s's move could not carry their private news; "
                 "writing their summary DM now", gid, seat)
        self._untold[key] = self._untold.get(key, 0) + lines
        await self.flush_summaries(gid, seat)

    def dm_lines(self, record: GameRecord, game: Game[Any, Any], state: Any,
                 awaited: list[str], users: dict[str, int | None], names: dict[str, str],
                 plain: bool) -> list[str]:
        """Where the awaited players find their private choices: their summary DM. Said of
        every awaited player who has one (their DMs are open and the game deals them
        something hidden), whatever they hold and whatever they may do now, so the line
        tells the table nothing it does not know (whose DMs are closed is said openly)."""
        who = [names.get(seat) or game.seat_label(state, seat) for seat in awaited
               if users.get(seat) and self.has_summary_dm(record.id, seat)
               and not game.choices_all_public(state, seat)]
        if not who:
            return []
        return [f"{'' if plain else '📬 '}{', '.join(who)}: your private choices are in "
                "your DMs."]


def seen_by(others: list[str]) -> str:
    """Who else reads a team's private line: "only you, AI Ember, AI Moth and AI Raven see
    this", one list with one "and" ("only you and AI Ember, AI Moth and AI Raven" read as a
    list inside a list)."""
    return f"only {join_words(['you', *others])} see this"
