"""Delivery of board posts: one queue per game, posting or editing the board post, ping policy,
old-message policy and retries when Discord refuses."""

from __future__ import annotations

import asyncio
import hashlib
import io
import logging
import re
from typing import TYPE_CHECKING, Any

import discord

from bot import limits
from bot.limits import clip
from bot.pressure import gauge_of
from bot.storage import GameRecord
from cogs.utils.answers import HeldAnswer
from cogs.utils.ending import game_over_post, send_spill
from cogs.utils.pending import drop_owed, owe
from cogs.utils.pictures import picture_refused
from cogs.utils.table.components import (
    FullBoardButton,
    _seat_index,
    action_view,
    board_actions,
    game_of,
    table_buttons,
)
from cogs.utils.table.core import Pictured
from cogs.utils.table.dms import SummaryDMs
from cogs.utils.table.posts import (
    DELETE,
    FULL_BOARDS_KEPT,
    MAX_POST_LINES,
    OLD_EDITS_CODE,
    STRIP,
    BoardDelayed,
    BoardPost,
    Showing,
    _bot_permissions,
    _channel_id,
    _has_choices,
    _settle,
    _Superseded,
    _TooOld,
    _without_picture,
    blocked_reason,
    has_board_picture,
    no_picture_note,
    retryable,
    shown_or_delayed,
)
from cogs.utils.table.words import guide_lines, told_once
from renders import with_card
from renders.cardwords import card_alt_text
from rules.core import Result
from rules.core.game import Game, join_words, plural, strip_rule_ids

if TYPE_CHECKING:
    pass

log = logging.getLogger(__name__)


def _digest(file: discord.File | None) -> str | None:
    """A digest of a picture about to be sent (None: no picture, or not one in memory)."""
    if file is None or not isinstance(file.fp, io.BytesIO):
        return None
    return hashlib.sha1(file.fp.getbuffer()).hexdigest()


DEFERRED_UPDATE = discord.InteractionResponseType.deferred_message_update


def awaited_lines(game: Game[Any, Any], state: Any, awaited: list[str], pinged: list[str],
                  users: dict[str, int | None], names: dict[str, str]) -> list[str]:
    """What each awaited player must do, one line each, but players asked the same thing at
    once share one line ("Ada (a visitor), Basil (a visitor) and Clara (a visitor): Unknown
    Threat: choose a hope script…"; stop 63's demo posted four lines alike), each one's
    mention kept."""
    groups: list[tuple[list[str], str, list[str]]] = []  # (whos, what, mentions)
    for seat in awaited:
        text = game.doing_text(state, seat, names)
        who = game.player_name(state, seat, names)
        mention = [f"<@{users[seat]}>"] if seat in pinged and users.get(seat) else []
        what = text[len(who) + 2:] if text.startswith(f"{who}: ") else None
        if what is not None and groups and groups[-1][1] == what:
            groups[-1][0].append(who)
            groups[-1][2].extend(mention)
        elif what is not None:
            groups.append(([who], what, mention))
        else:
            groups.append(([], text, mention))
    return [" ".join([f"{join_words(whos)}: {what}" if whos else what, *mentions])
            for whos, what, mentions in groups]


class BoardPosts(SummaryDMs):
    """Board posts in the game's thread, one queue per game."""

    def show(self, showing: Showing) -> asyncio.Future[None]:
        """Put a move's public lines and board in line to be shown in the game's thread.

        One board at a time per game, in the order of the moves. Back-pressure: when boards
        fall behind (renders queue up, Discord is slow), the moves that arrive meanwhile are
        merged into one showing — the newest state's board, every move's lines in order — so a
        board that is already out of date is never drawn, and no move's words are lost. The
        future is done once a board with this move's lines is posted (or failed: its error).

        Nothing is lost when Discord refuses: a refused board is kept, with every later move's
        lines merged into it, and tried again with backoff until it goes through; meanwhile
        the futures fail at once with `BoardDelayed` (the mover is told the truth and not
        kept waiting), and the held presses are left to their movers to answer.
        """
        gid = showing.record.id
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        delayed = self._delayed.get(gid)
        if delayed is not None:
            showing.answers = []
            future.set_exception(BoardDelayed(delayed.reason))
        waiting = self._showings.get(gid)
        if waiting is None:
            showing.waiters = [future]
            self._showings[gid] = showing
        else:
            waiting.merge(showing)
            waiting.waiters.append(future)
        if delayed is not None:
            return future
        wake = self._wake.get(gid)
        if wake is not None:
            wake.set()  # the task waits to tidy old messages: the board goes first
        if gid not in self._showing_tasks:
            self._showing_tasks[gid] = asyncio.create_task(self._show_in_turn(gid),
                                                           name=f"boards-of-game-{gid}")
        return future

    async def _show_in_turn(self, gid: int) -> None:
        tidy_tries = 0
        due: float | None = None
        try:
            while True:
                await self._show_queued(gid)
                if not self._stale.get(gid):
                    break
                # Old messages whose choices Discord refused to take away (`_stale`): tried
                # again with the boards' backoff, in this task, so one game's requests stay
                # in order; a board that comes meanwhile is shown first, the wait going on.
                if due is None:
                    tidy_tries += 1
                    due = asyncio.get_running_loop().time() + self._retry_delay(tidy_tries)
                if await self._sleep_until(gid, due):
                    continue
                due = None
                if await self._tidy(gid):
                    tidy_tries = 0
        finally:
            self._showing_tasks.pop(gid, None)
            self._wake.pop(gid, None)

    async def _sleep_until(self, gid: int, due: float) -> bool:
        """Wait until `due` (the loop's time); True as soon as a showing arrives instead."""
        wake = self._wake.setdefault(gid, asyncio.Event())
        wake.clear()
        if gid in self._showings:
            return True
        self._waiting_to_retry.add(gid)
        try:
            await asyncio.wait_for(wake.wait(), max(0.0, due - asyncio.get_running_loop().time()))
        except TimeoutError:
            return False
        finally:
            self._waiting_to_retry.discard(gid)
        return True

    async def _tidy(self, gid: int) -> bool:
        """Try again what old messages of game `gid` are owed (`_stale`): choices taken off a
        replaced board post, a replaced summary DM deleted. True when nothing is owed any
        more. A channel that refuses one is not asked again this round (its limit is on)."""
        owed = self._stale.get(gid, {})
        refused: set[int] = set()
        for message_id, (channel_id, what) in list(owed.items()):
            if channel_id in refused or (what == STRIP and self._refusing(channel_id)):
                continue
            message = self.bot.get_partial_messageable(channel_id).get_partial_message(
                message_id)
            try:
                if what == DELETE:
                    await message.delete()
                else:
                    await message.edit(view=None)
            except discord.NotFound:
                pass  # deleted meanwhile: nothing live is left on it
            except discord.HTTPException as exc:
                log.info("game %s: message %s still refused (%s)", gid, message_id, exc)
                self._note_refusal(channel_id, exc)
                refused.add(channel_id)
                continue
            owed.pop(message_id, None)
            log.info("game %s: old message %s tidied (%s)", gid, message_id, what)
        if not owed:
            self._stale.pop(gid, None)
        return not owed

    async def _show_queued(self, gid: int) -> None:
        """Show the game's waiting boards in turn; a refused one is kept and tried again."""
        tries = 0
        while (showing := self._showings.pop(gid, None)) is not None:
            try:
                await self._show(showing)
            except _Superseded:
                # A newer move came while this board was drawn: one board for both.
                newer = self._showings.pop(gid)
                showing.merge(newer)
                showing.waiters += newer.waiters
                self._showings[gid] = showing
                continue
            except Exception as exc:
                if not retryable(exc):
                    self._delayed.pop(gid, None)
                    _settle(showing.waiters, exc)
                    continue
                tries += 1
                delay = self._retry_delay(tries)
                log.warning("game %s: Discord refused its board (%s); trying again in "
                            "%.1f s (try %d)", gid, exc, delay, tries)
                blocked = blocked_reason(showing.channel, exc)
                delayed = BoardDelayed(
                    "Discord refused the new board post just now" if blocked is None
                    else f"I can't post in the thread: {blocked[0]} ({blocked[1]})")
                self._delayed[gid] = delayed
                _settle(showing.waiters, delayed)
                # Kept, first in line: later moves merge into it while it waits (their
                # movers are told at once, `show`).
                later = self._showings.pop(gid, None)
                if later is not None:
                    _settle(later.waiters, delayed)
                    showing.merge(later)
                showing.waiters, showing.answers = [], []
                self._showings[gid] = showing
                if blocked is not None:
                    try:
                        await self._tell_blocked(showing, *blocked)
                    except discord.HTTPException:
                        log.warning("game %s: could not tell its players that the thread "
                                    "is blocked", gid, exc_info=True)
                self._waiting_to_retry.add(gid)
                try:
                    await asyncio.sleep(delay)
                finally:
                    self._waiting_to_retry.discard(gid)
                current = await self.bot.storage.get_game(gid)
                if current is None or current.status == "abandoned":
                    # Nobody is waiting for this board any more.
                    dropped = self._showings.pop(gid, None)
                    if dropped is not None:
                        _settle(dropped.waiters, delayed)
                    self._delayed.pop(gid, None)
                    self.lift_blocked(gid)
            else:
                tries = 0
                self._delayed.pop(gid, None)
                if self.lift_blocked(gid):
                    log.info("game %s: its thread takes posts again", gid)
                _settle(showing.waiters, None)

    async def stop_retrying(self) -> int:
        """Before the bot closes: stop waiting to try refused boards again (their moves are
        stored; the next start posts them, `catch_up_boards`). A try under way is left to
        finish. Returns how many waits were ended."""
        tasks = [task for gid, task in self._showing_tasks.items()
                 if gid in self._waiting_to_retry]
        tasks += list(self._ping_later.values())  # the reminders nudge after a restart
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        return len(tasks)

    def _retry_delay(self, tries: int) -> float:
        settings = self.bot.settings
        return float(min(settings.board_retry_seconds * 2 ** (tries - 1),
                         settings.board_retry_max_seconds))

    async def _tell_blocked(self, showing: Showing, what: str, fix: str) -> None:
        """The thread refuses every post (locked, a permission taken away): the awaited players
        and the game's creator are told by DM what is wrong and what fixes it, once until it
        is fixed (or something else blocks it)."""
        game = showing.game
        awaited = [] if showing.result is not None else game.to_act(showing.state)
        users = {u for s in awaited if (u := showing.users.get(s))}
        await self.tell_blocked(showing.record, users, what, fix)

    async def tell_blocked(self, record: GameRecord, users: set[int], what: str,
                           fix: str) -> None:
        """`users` and the game's creator are told by DM that the thread refuses the bot's
        posts (`what`) and what fixes it, once until it is fixed (or something else blocks
        it): a refused board, or a reminder's ping (stop 70)."""
        if self._told_blocked.get(record.id) != what:
            self._told_blocked[record.id] = what
            game = game_of(record)
            users = {*users, record.created_by}
            where = f"<#{record.thread_id}>" if record.thread_id else "the game's channel"
            text = (f"⚠️ I can't post in {where}, the thread of your game of **{game.title}** "
                    f"(game #{record.id}): {what}. To fix it, {fix}. Your moves are kept; "
                    "the board (and whose turn it is) will show there as soon as I can post.")
            old = self._blocked_notes.get(record.id)
            if old is not None:
                drop_owed(self.bot, old)  # something else blocks it now
            self._blocked_notes[record.id] = text
            for user_id in sorted(users):
                try:
                    if await self.dm(user_id, text):
                        continue
                    owe(self.bot, user_id, text)  # DMs closed: at their next press (stop 70)
                except discord.HTTPException as exc:  # a 5xx run: dropped, not raised
                    log.warning("game %s: could not tell user %s by DM that the thread is "
                                "blocked (Discord answered %s)", record.id, user_id, exc.status)
                    continue
                log.info("game %s: could not tell user %s by DM that the thread is "
                         "blocked", record.id, user_id)

    def thread_takes_posts(self, gid: int) -> None:
        """A post went through in the game's thread: whatever blocked it is over (told again
        should it come back)."""
        if self.lift_blocked(gid):
            log.info("game %s: its thread takes posts again", gid)

    async def board_deleted(self, record: GameRecord, message_id: int) -> None:
        """Someone (a moderator) deleted the game's current board post: it is posted again,
        with its lines and buttons, pinging nobody (the awaited players were pinged already)."""
        if record.status != "active" or record.board_message_id != message_id:
            return
        _, posted = self._board_ids.get(record.id, (None, None))
        if posted is not None and posted != message_id:
            return  # this process has posted a newer board since
        state = await self.bot.tables.state(record.id)
        channel = await self.thread(record)
        if channel is None:
            return
        users = await self.bot.tables.users_of(record.id)
        game = game_of(record)
        log.info("game %s: its board post %s was deleted; posting it again", record.id,
                 message_id)
        await shown_or_delayed(self.show(Showing(
            record, game, state, [], game.result(state), channel, users, None, [],
            repost=message_id)))

    async def _show(self, showing: Showing) -> None:
        record = showing.record
        # A board this process posted since this move's record was read (the previous
        # showing) is the one to edit or to strip.
        replaced, posted = self._board_ids.get(record.id, (None, None))
        if posted is not None and record.board_message_id == replaced != posted:
            record = record.model_copy(update={"board_message_id": posted})
        channel = showing.channel
        repost = showing.repost is not None and record.board_message_id == showing.repost
        if showing.repost is not None and not repost and not showing.lines:
            return  # the deleted post had been replaced already: nothing to show again
        # The summary DMs follow the newest state too: moves merged into one showing (an AI
        # chain, boards behind) cost one summary edit per seat at most, not one per move. An
        # awaited seat's DM is written now, before the post that may ping it; the others
        # settle for a few seconds, one edit carrying every move meanwhile.
        await self.refresh_summaries(record, showing.state, showing.users, settle=True,
                                     actor=showing.actor)
        # Private news that reached no summary DM (DMs closed): the thread says where to read it.
        fresh = self._fresh.get(record.id, set())
        closed = showing.closed + [f"<@{showing.users[seat]}>" for seat in sorted(fresh)
                                   if showing.users.get(seat)
                                   and not self.has_summary_dm(record.id, seat)]
        try:
            await self.post_board(record, showing.game, showing.state, showing.lines,
                                  showing.result, channel, showing.users, actor=showing.actor,
                                  fresh=showing.fresh, answers=showing.answers,
                                  repost=repost)
        except discord.NotFound as exc:
            if exc.code != 10003:  # Unknown Channel: the thread is gone
                raise
            await self.thread_gone(record)
            return
        self._fresh.pop(record.id, None)
        if closed:
            try:
                await channel.send(clip(
                    f"I couldn't DM {', '.join(closed)} (DMs closed). Something "
                    "private happened for them: press **My hand** or use `/game hand` to "
                    "see what you hold, `/game log private` for what happened.",
                    limits.CONTENT),
                    allowed_mentions=discord.AllowedMentions(users=False))
            except discord.HTTPException:  # the board is out: it is not posted again for this
                log.warning("game %s: could not name the seats with closed DMs", record.id,
                            exc_info=True)

    async def catch_up_boards(self) -> int:
        """Bring the board of every game with moves stored after its last board post up to date.

        A crash between storing a move and posting its board would otherwise leave the table
        looking at the old board (whose buttons now say "earlier turn"). The missed moves'
        public lines are rebuilt from the action log; the post follows the usual policy (the
        same decider's post is edited, a new decider gets a new post). Returns how many boards
        were brought up to date.
        """
        posted = 0
        for stale, board_version in await self.bot.storage.boards_behind(self.bot.owned_shards):
            try:
                async with self.lock(stale.id):
                    record = await self.bot.tables.get(stale.id)
                    if record.status != "active":
                        continue
                    history = await self.bot.tables.history(record.id)
                    missed = [e for entry in history for e in entry.events
                              if e.public and entry.seq > board_version]
                    state = await self.bot.tables.state(record.id)
                    users = await self.bot.tables.users_of(record.id)
                    game = game_of(record)
                    names = await self.names(users)
                    lines = ["(The bot restarted; these moves were stored before it went down.)",
                             *(game.event_text(state, e, names) for e in missed)]
                    channel = await self.thread(record)
                    if channel is None:
                        continue
                    # A new post, not an edit: the restart notice heads its own post, and the
                    # moves it repeats are not mixed into the lines the table already read.
                    # The summary DMs (and their private choices) follow, as for any board;
                    # a refused post is kept and tried again, as for any board.
                    try:
                        await self.show(Showing(
                            record, game, state, lines, game.result(state), channel, users,
                            None, [], fresh=True))
                    except BoardDelayed as delayed:
                        log.info("a board is delayed: %s", delayed.reason)
                    else:
                        await self._strip_orphans(record.id, channel)
                    posted += 1
            except Exception:  # one game's trouble must not stop the others catching up
                log.exception("could not catch up the board of game %s", stale.id)
        return posted

    async def _strip_orphans(self, gid: int, channel: discord.abc.Messageable,
                             look_back: int = 10) -> None:
        """Take the choices off every recent post of game `gid` but its current board. A crash
        between a board post reaching Discord and its id being stored leaves a post nobody
        knows of, whose buttons would stay live beside the restarted bot's new board: two sets
        of buttons for one decision (issue #20). Read once per board caught up after a start."""
        current = self._board_ids.get(gid, (None, None))[1]
        me = self.bot.user.id if self.bot.user is not None else None
        choice = re.compile(rf"^hb:(?:a|s|pg):{gid}:")
        try:
            async for message in channel.history(limit=look_back):  # type: ignore[attr-defined]
                if message.id == current or message.author.id != me:
                    continue
                ids = [getattr(item, "custom_id", None) or ""
                       for row in message.components for item in getattr(row, "children", [])]
                if any(choice.match(i) for i in ids):
                    try:
                        await message.edit(view=None)
                    except discord.HTTPException as exc:
                        if exc.code != OLD_EDITS_CODE and exc.status < 500:
                            raise
                        # Refused for now (an old post): owed, and tried again (`_tidy`).
                        self._owe(gid, message.id, _channel_id(channel), STRIP)
        except discord.HTTPException:
            log.info("game %s: could not look for board posts left by a crash", gid,
                     exc_info=True)

    async def current_post(self, record: GameRecord) -> BoardPost | None:
        """What the game's current board post stands for: as this process last wrote it when
        the record still names that post, else read from storage (another shard process may
        have posted for this game since; a restart)."""
        if not record.board_message_id:
            return None
        known = self._posts.get(record.id)
        if known is not None and known[0] == record.board_message_id:
            post = known[1]
            return BoardPost(awaited=list(post.awaited), turn=post.turn, lines=list(post.lines),
                             pinged=list(post.pinged), buttons=post.buttons,
                             turn_pinged=list(post.turn_pinged))
        return BoardPost.load(await self.bot.storage.board_post(record.id))

    async def post_board(self, record: GameRecord, game: Game[Any, Any], state: Any,
                         lines: list[str], result: Result | None,
                         channel: discord.abc.Messageable,
                         users: dict[str, int | None], actor: str | None = None,
                         fresh: bool = False, answers: list[HeldAnswer] | None = None,
                         repost: bool = False) -> None:
        """Show the board after a move: one new post per change of decider (pinging whoever
        newly has to decide, but not `actor`, who just acted and is watching: an undo), else
        the current post edited in place, pinging nobody. `fresh`: a new post even for the
        same decider (the catch-up after a restart), still pinging only newcomers. `answers`:
        open answers of presses on board posts, which an edit of the pressed post goes
        through. `repost`: the current post was deleted: a new one (never an edit), its
        buttons not stripped."""
        answers = answers or []
        names = await self.names(users)
        if result is not None:
            # The end (#22): its own post — every player pinged, the result in words, the
            # recap picture, Rematch — then the result DMs and the summary DMs closed.
            message = await game_over_post(self, record, game, state, lines, result, channel,
                                           users, names, [FullBoardButton(record.id)],
                                           picture=has_board_picture(record.game))
            self.saw(message.id)
            self._spilled.pop(record.id, None)
            self._newest.pop(_channel_id(channel), None)  # no board follows the end
            previous_id = record.board_message_id
            await self._remember(record, message.id, BoardPost(
                awaited=[], turn=game.turn_key(state), lines=lines[-MAX_POST_LINES:], pinged=[],
                buttons=False))
            if previous_id and previous_id != message.id and not repost:
                await self._take_choices_off(record.id, channel, previous_id, answers)
            return
        awaited = ([] if result is not None else
                   sorted(game.to_act(state), key=lambda s: _seat_index(state, s)))
        turn = game.turn_key(state)
        previous = await self.current_post(record)
        same_decider = (not fresh and previous is not None and result is None
                        and turn == previous.turn and set(awaited) <= set(previous.awaited))
        if same_decider and previous is not None and record.board_message_id:
            post = BoardPost(awaited=awaited, turn=turn, lines=previous.lines + lines,
                             pinged=[s for s in previous.pinged if s in awaited],
                             turn_pinged=previous.turn_pinged)
            # An hour-old post is not edited (Discord limits edits of old messages, and a
            # refusal could outlast every retry), nor one these lines would overflow (its
            # first lines would go): a fresh post follows it, pinging nobody and carrying
            # only the new lines — the old post keeps the ones the table read.
            old = not repost and (self.is_old(record.board_message_id)
                                  or self._overflows(record, game, state, post, result, users,
                                                     names))
            if not repost and not old:
                try:
                    if await self._edit_board(record, game, state, post, result, channel,
                                              users, names, answers):
                        return
                except _TooOld:
                    # Refused as old after all (the bot's clock lagged Discord's): the same.
                    log.info("game %s: an edit of board %s was refused as old; posting anew",
                             record.id, record.board_message_id)
                    old = True
            # Else the post is gone (deleted by a moderator): a new one with all its lines.
            post = BoardPost(awaited=awaited, turn=turn, lines=lines if old else post.lines,
                             pinged=[], turn_pinged=previous.turn_pinged)
        else:
            newcomers = [s for s in awaited if previous is None or s not in previous.awaited]
            # A decision coming back to a seat mid-turn (after another seat's prompt) pings it
            # again only if its player is not at the table (`_to_ping`): in a game played over
            # days the prompt may have taken hours, and they would not know otherwise.
            told = (previous.turn_pinged if turn and previous is not None
                    and previous.turn == turn else [])
            pinged = await self._to_ping(
                record, [s for s in newcomers if s != actor], users)
            post = BoardPost(awaited=awaited, turn=turn, lines=lines,
                             pinged=pinged, turn_pinged=sorted({*told, *pinged}))
            # A new post exists to notify whoever now decides. One that would ping nobody (the
            # AI's turn, Solo, a player at the table, a decision staying with a seat already
            # awaited) is no news: while the current post is still the thread's last message
            # it takes the new decider's board in place, keeping every line it showed — one
            # edit instead of a post and its old buttons taken away (#25).
            if not pinged and previous is not None and not fresh and not repost:
                grown = await self._grow_in_place(record, game, state, previous, post, lines,
                                                  result, channel, users, names, answers)
                if grown is None:
                    return
                post = grown
        # The post it replaces keeps its buttons when none of them can go stale (My hand, My
        # choices and Full board work on any post): one request less.
        strip = (previous is None or previous.buttons) and not repost
        await self._new_board(record, game, state, post, result, channel, users, names,
                              answers, strip=strip)

    def _overflows(self, record: GameRecord, game: Game[Any, Any], state: Any, post: BoardPost,
                   result: Result | None, users: dict[str, int | None],
                   names: dict[str, str]) -> bool:
        """Whether `post` would lose event lines: more than `MAX_POST_LINES`, or more words
        than a message holds."""
        return (len(post.lines) > MAX_POST_LINES
                or self._board_words(record, game, state, post, result, users, names)[1] > 0)

    async def _grow_in_place(self, record: GameRecord, game: Game[Any, Any], state: Any,
                             previous: BoardPost, post: BoardPost, lines: list[str],
                             result: Result | None, channel: discord.abc.Messageable,
                             users: dict[str, int | None], names: dict[str, str],
                             answers: list[HeldAnswer]) -> BoardPost | None:
        """Show an unpinged change of decider by editing the current post, when that loses
        nothing: the post is young, still the thread's last message (nobody has to scroll up
        to find it, `is_last`), and its lines and the new ones all fit in it. None when it
        was edited; else the post to send as new (`post`, or every line if the current one is
        gone)."""
        message_id = record.board_message_id
        if (not message_id or self.is_old(message_id)
                or not self.is_last(_channel_id(channel), message_id)):
            return post
        grown = BoardPost(awaited=post.awaited, turn=post.turn, lines=previous.lines + lines,
                          # A seat still awaited keeps the mention its player was pinged by.
                          pinged=[s for s in previous.pinged if s in post.awaited],
                          turn_pinged=post.turn_pinged)
        if self._overflows(record, game, state, grown, result, users, names):
            return post
        content = self.board_text(record, game, state, grown, result, users, names)
        try:
            if await self._edit_board(record, game, state, grown, result, channel, users,
                                      names, answers, content=content):
                return None
        except _TooOld:
            log.info("game %s: an edit of board %s was refused as old; posting anew",
                     record.id, message_id)
            return post
        # Gone (deleted by a moderator): a new post with every line it would have shown.
        return BoardPost(awaited=post.awaited, turn=post.turn, lines=grown.lines, pinged=[],
                         turn_pinged=post.turn_pinged)

    async def _to_ping(self, record: GameRecord, seats: list[str],
                       users: dict[str, int | None]) -> list[str]:
        """Which of `seats` (newly awaited) a new post pings: players, not the AI; nobody at a
        table with one player left (Solo, all-AI-but-one), who is watching anyway; nobody away
        or in quiet hours; nobody who moved, took a seat or started this game moments ago
        (`at_table`: reading the thread already). The reminder policy's nudges are the only
        repeats."""
        if not seats:
            return []
        records = await self.bot.storage.seats(record.id)
        humans = {s.seat for s in records if not s.ai_driven}
        if len(humans) <= 1:
            return []
        wanted = [s for s in seats if s in humans and users.get(s)]
        reachable = await self.bot.tables.reachable(u for s in wanted if (u := users.get(s)))
        pinged = []
        for seat in wanted:
            user_id = users.get(seat)
            if user_id not in reachable:
                continue
            if self.at_table(record.id, user_id):
                self._ping_if_gone(record.id, seat, user_id)
            else:
                pinged.append(seat)
        return pinged

    def _ping_if_gone(self, gid: int, seat: str, user_id: int) -> None:
        """A player at the table was named, not pinged: should they not move within
        `at_table_seconds`, they drifted off after all, and one short post pings them then."""
        key = (gid, user_id)
        since = self._moved_at.get(key, 0.0)
        old = self._ping_later.pop(key, None)
        if old is not None:
            old.cancel()
        self._ping_later[key] = asyncio.create_task(self._ping_later_run(gid, seat, user_id,
                                                                         since),
                                                    name=f"ping-if-gone-{gid}-{seat}")

    async def _ping_later_run(self, gid: int, seat: str, user_id: int, since: float) -> None:
        try:
            await asyncio.sleep(self.bot.settings.at_table_seconds)
            # A busy bot answers moves first: the ping waits (a minute at most).
            await gauge_of(self.bot).calm(at_most=60.0)
            if self._moved_at.get((gid, user_id), 0.0) > since:
                return  # they moved: they were at the table
            record = await self.bot.storage.get_game(gid)
            if record is None or record.status != "active":
                return
            game = game_of(record)
            state = await self.bot.tables.state(gid)
            if seat not in game.to_act(state):
                return
            channel = await self.thread(record)
            if channel is None:
                return
            users = await self.bot.tables.users_of(gid)
            names = await self.names(users)
            doing = game.doing_text(state, seat, names)
            await channel.send(f"⏳ <@{user_id}>: {doing}",
                               allowed_mentions=discord.AllowedMentions(
                                   users=[discord.Object(user_id)]))
        except asyncio.CancelledError:
            raise
        except Exception:  # a ping that fails leaves the reminders to nudge them
            log.info("game %s: the late ping of %s failed", gid, seat, exc_info=True)
        finally:
            if self._ping_later.get((gid, user_id)) is asyncio.current_task():
                self._ping_later.pop((gid, user_id), None)

    def board_text(self, record: GameRecord, game: Game[Any, Any], state: Any, post: BoardPost,
                   result: Result | None, users: dict[str, int | None],
                   names: dict[str, str]) -> str:
        """The post's words: what happened this stretch, the table's caption, and what the
        awaited players must do (or who won and why)."""
        return self._board_words(record, game, state, post, result, users, names)[0]

    def _board_words(self, record: GameRecord, game: Game[Any, Any], state: Any,
                     post: BoardPost, result: Result | None, users: dict[str, int | None],
                     names: dict[str, str], *, spill: bool = False
                     ) -> tuple[str, int, list[str]]:
        """`board_text`, how many of the post's event lines did not fit, and those lines as
        the post would show them. Without `spill` they are left to `/game log` (the post says
        how many); with it the caller posts them just before (`_spill`), so the post neither
        says so nor keeps more than `MAX_POST_LINES` of them."""
        plain = game.plain_words(state)
        header = f"**{game.title}** — game #{record.id}"
        if result is not None:
            footer = game.result_text(state, result, names)
            footer = f"Game over. {footer}" if plain else f"🏁 **Game over.** {footer}"
            caption = None
        else:
            doing = [text if plain else f"⏳ {text}"
                     for text in awaited_lines(game, state, post.awaited, post.pinged, users,
                                               names)]
            footer = "\n".join(doing + self.dm_lines(record, game, state, post.awaited,
                                                      users, names, plain)
                               + guide_lines(record, game, state, post.awaited, users, plain))
            caption = game.board_caption(state)
        # The game's presentation hook may quieten the lines (e.g. True Horror, P-HORROR); a
        # table that asked for plain words reads no rule ids anywhere in the post.
        shown = game.present(state, post.lines)
        if plain:
            shown = [strip_rule_ids(line) for line in shown]
            caption = strip_rule_ids(caption) if caption else caption
            footer = "\n".join(strip_rule_ids(line) for line in footer.split("\n"))
        # A run of the same line is said once ("… (5 times)."); `dropped` still counts the
        # log's lines, which `/game log` lists one by one.
        told = told_once(shown)
        body = [f"• {line}" for line, _ in told]
        kept = sum(n for _, n in told)
        dropped = 0
        spilled: list[str] = []
        while True:
            lead = ([f"• … ({dropped} earlier {plural(dropped, 'line')}: `/game log`)"]
                    if dropped and not spill else [])
            content = "\n".join(p for p in (header, *lead, *body, caption, footer) if p)
            if not body or (len(content) <= limits.CONTENT
                            and (not spill or kept <= MAX_POST_LINES)):
                break
            spilled.append(body.pop(0))
            gone = told.pop(0)[1]
            dropped += gone
            kept -= gone
        return clip(content, limits.CONTENT), dropped, spilled

    def board_components(self, record: GameRecord, game: Game[Any, Any], state: Any,
                         awaited: list[str], result: Result | None,
                         users: dict[str, int | None]) -> discord.ui.View | None:
        if result is not None:
            return None
        for seat in awaited:
            public = board_actions(game, state, seat, awaited, users)
            if public:
                return action_view(record.id, game, state, seat, public, epoch=record.epoch)
        return table_buttons(record.id)

    async def board_file(self, record: GameRecord, game: Game[Any, Any], state: Any,
                         post: BoardPost, result: Result | None,
                         names: dict[str, str], *, fresh: bool = True) -> discord.File | None:
        """The post's inline picture, described in words (alt text): the phone-sized turn card
        (whose move, what to do, the board itself, what just happened) for a game with a board
        picture — the detailed full board is one tap away (**Full board**) — else nothing.
        The card marks what changed since the previous post's last picture (`fresh`: this is a
        new post; an edit in place keeps marking against the same picture, so the marks grow
        with the post's event lines)."""
        if not has_board_picture(record.game):
            return None
        escaped, names = names, self.plain(names)  # drawn and described, not markdown
        view = game.view(state, None)
        view["names"] = names
        plain = game.plain_words(state)
        happened = game.present(state, post.lines)
        for seat, name in escaped.items():  # a line the bot wrote with a name (an undo)
            if name != names[seat]:
                happened = [line.replace(name, names[seat]) for line in happened]
        with_card(view, {
            "awaited": [names.get(s) or game.seat_label(state, s) for s in post.awaited],
            "doing": " ".join(game.doing_text(state, s, names) for s in post.awaited),
            "happened": [strip_rule_ids(line) if plain else line
                         for line, _ in told_once(happened)][-4:],
            "result": game.result_text(state, result, names) if result is not None else None,
        })
        shown, before = self._pictured.get(record.id, (None, None))
        if fresh:
            before = shown
        if result is None:
            public = Pictured({k: v for k, v in view.items() if k != "turn"})
            self._pictured[record.id] = (public, before)
        else:  # the game is over: nothing more to mark against
            self._pictured.pop(record.id, None)
        if before is not None:
            view["turn"]["before"] = before.view()
        data = await self.render_card(record.game, view)
        if data is None:
            return None
        # Alt text says what the card says, in its order and units (renders/cardwords.py),
        # then as much of the rest of the board as fits.
        return discord.File(io.BytesIO(data), filename="turn.png",
                            description=card_alt_text(record.game, view,
                                                      game.alt_text(state, names))
                            or game.title)

    async def full_board(self, record: GameRecord, game: Game[Any, Any], state: Any,
                         names: dict[str, str]) -> bytes | None:
        """The full public board at the game's current version, rendered once per version:
        the board post and every **Full board** press at that version share one render.
        `names` as the picture shows them (`plain`)."""
        key = (record.epoch, state.step, tuple(sorted(names.items())))
        known = self._full.get(record.id)
        if known is not None and known[0] == key:
            return await asyncio.shield(known[1])
        public = game.view(state, None)
        public["names"] = names
        task = asyncio.ensure_future(self.render(record.game, public))
        self._full.pop(record.id, None)
        self._full[record.id] = (key, task)
        while len(self._full) > FULL_BOARDS_KEPT:  # the least recently rendered go first
            self._full.pop(next(iter(self._full)))
        try:
            return await asyncio.shield(task)
        except Exception:
            self._full.pop(record.id, None)
            raise

    async def _new_board(self, record: GameRecord, game: Game[Any, Any], state: Any,
                         post: BoardPost, result: Result | None,
                         channel: discord.abc.Messageable, users: dict[str, int | None],
                         names: dict[str, str], answers: list[HeldAnswer] | None = None, *,
                         strip: bool = True) -> None:
        content = await self._spill(record, game, state, post, result, channel, users, names)
        pictured = self._pictured.get(record.id)
        self._unless_superseded(record.id, result, pictured)  # not even drawn
        file = await self.board_file(record, game, state, post, result, names)
        self._unless_superseded(record.id, result, pictured)
        view = self.board_components(record, game, state, post.awaited, result, users)
        post.buttons = _has_choices(view)
        kwargs: dict[str, Any] = {
            "allowed_mentions": discord.AllowedMentions(
                users=[discord.Object(u) for s in post.pinged if (u := users.get(s))]),
        }
        if view is not None:
            kwargs["view"] = view
        if file is not None and not self._may_attach(channel):
            file = None
            content = _without_picture(content, no_picture_note(channel))
        if file is not None:
            try:
                message = await channel.send(content, file=file, **kwargs)
            except discord.HTTPException as exc:
                note = picture_refused(exc)
                if note is None:
                    raise
                # Attach Files was taken away (or Send Messages: then this fails too), or the
                # picture is over the server's upload limit
                log.info("game %s: a board post with its picture was refused (%s); posting "
                         "the words alone", record.id, exc)
                message = await channel.send(_without_picture(content, note), **kwargs)
        else:
            message = await channel.send(content, **kwargs)
        self._pictured_on(record.id, message.id,
                          _digest(file) if file is not None and message.attachments else None)
        self.saw(message.id)
        self.posted_board(_channel_id(channel), message.id)
        old = record.board_message_id
        await self._remember(record, message.id, post)
        self._spilled.pop(record.id, None)
        if old and old != message.id and strip:
            await self._take_choices_off(record.id, channel, old, answers)

    async def _spill(self, record: GameRecord, game: Game[Any, Any], state: Any,
                     post: BoardPost, result: Result | None, channel: discord.abc.Messageable,
                     users: dict[str, int | None], names: dict[str, str]) -> str:
        """A new post's words. Event lines that do not fit in it (a long stretch: an AI's
        whole turn, moves merged while Discord was slow, a deleted post's lines posted anew)
        go first in posts of their own, in order and pinging nobody, and `post` keeps only
        the rest: a line a table never saw in the thread is a move it cannot follow. A game
        whose presentation regroups its lines (True Horror's quiet post) cuts as before."""
        shown = game.present(state, post.lines)
        if len(shown) != len(post.lines):
            post.lines = post.lines[-MAX_POST_LINES:]  # what is stored stays bounded
            return self.board_text(record, game, state, post, result, users, names)
        content, dropped, spilled = self._board_words(record, game, state, post, result,
                                                      users, names, spill=True)
        if not spilled:
            return content
        # Sent before the board: a refusal here is the board's own (kept and tried again
        # whole), never a post that silently lacks these lines; a retry does not send again
        # the lines already through.
        await send_spill(self, channel, record.id, game, state, spilled)
        post.lines = post.lines[dropped:]
        return content

    async def _take_choices_off(self, gid: int, channel: discord.abc.Messageable,
                                message_id: int, answers: list[HeldAnswer] | None) -> None:
        """Take the choices off a replaced board post: in a press's answer on it (type 7) when
        the post is young, else by editing it. An hour-old post is never a press's answer —
        Discord may refuse the edit for longer than the 3 s an answer has, so the press is
        deferred instead — and an edit Discord refuses is owed (`_stale`) and tried again
        with backoff (`_tidy`); meanwhile a press on it is refused as an earlier moment's."""
        young = not self.is_old(message_id)
        channel_id = _channel_id(channel)
        try:
            if young and await self._answer(answers, message_id, view=None):
                return
        except discord.HTTPException as exc:
            self._note_refusal(channel_id, exc)
            log.info("game %s: a press's answer could not strip board %s; editing it", gid,
                     message_id)
        try:
            if self._refusing(channel_id):
                raise _TooOld  # refused moments ago: owed at once, no request
            await channel.get_partial_message(message_id).edit(view=None)  # type: ignore[attr-defined]
        except discord.NotFound:
            return  # deleted meanwhile: no buttons left
        except (discord.HTTPException, _TooOld) as exc:
            self._note_refusal(channel_id, exc)
            log.info("game %s: could not strip buttons from board %s (%r); trying again "
                     "later", gid, message_id, exc)
            self._owe(gid, message_id, channel_id, STRIP)

    async def _edit_board(self, record: GameRecord, game: Game[Any, Any], state: Any,
                          post: BoardPost, result: Result | None,
                          channel: discord.abc.Messageable, users: dict[str, int | None],
                          names: dict[str, str], answers: list[HeldAnswer] | None = None,
                          content: str | None = None) -> bool:
        """Edit the current post in place (new words, picture, buttons); False if it is gone.
        A press on that post whose answer is still open is answered with the edit itself.
        `content`: the post's words, when the caller has them already."""
        assert record.board_message_id is not None
        if content is None:
            content = self.board_text(record, game, state, post, result, users, names)
        pictured = self._pictured.get(record.id)
        self._unless_superseded(record.id, result, pictured)  # not even drawn
        file = await self.board_file(record, game, state, post, result, names, fresh=False)
        self._unless_superseded(record.id, result, pictured)
        view = self.board_components(record, game, state, post.awaited, result, users)
        post.buttons = _has_choices(view)
        if file is not None and not self._may_attach(channel):
            file, content = None, _without_picture(content, no_picture_note(channel))
        message_id = record.board_message_id
        digest = _digest(file)
        # The same picture is not sent again: an edit without attachments keeps the post's
        # (Discord's and discord.py's "missing" means unchanged).
        pictures: dict[str, Any] = (
            {} if digest is not None and self._uploaded.get(record.id) == (message_id, digest)
            else {"attachments": [file] if file else []})
        self._uploaded.pop(record.id, None)  # unknown until this edit goes through
        try:
            if await self._answer(answers, message_id, content=content, view=view,
                                  **pictures):
                self._pictured_on(record.id, message_id, digest)
                await self._remember(record, message_id, post)
                return True
        except discord.HTTPException as exc:
            if exc.code == OLD_EDITS_CODE:
                self._note_refusal(_channel_id(channel), exc)
                raise _TooOld from exc  # editing it ourselves would be refused the same
            log.info("game %s: could not answer a press with its board; editing it instead",
                     record.id)
            if file is not None:
                file.reset()
        message = channel.get_partial_message(message_id)  # type: ignore[attr-defined]
        try:
            try:
                await message.edit(content=content, view=view,
                                   allowed_mentions=discord.AllowedMentions.none(), **pictures)
                self._pictured_on(record.id, message_id, digest)
            except discord.HTTPException as exc:
                note = picture_refused(exc)
                if file is None or note is None:
                    raise
                await message.edit(content=_without_picture(content, note), attachments=[],
                                   view=view, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as exc:
            if exc.code == OLD_EDITS_CODE:
                self._note_refusal(_channel_id(channel), exc)
                raise _TooOld from exc
            if not isinstance(exc, discord.NotFound) or exc.code == 10003:
                raise  # Unknown Channel: the thread is gone (the caller handles it)
            log.info("game %s: its board post %s is gone; posting anew", record.id,
                     record.board_message_id)
            return False
        await self._remember(record, record.board_message_id, post)
        return True

    def _unless_superseded(self, gid: int, result: Result | None,
                           pictured: tuple[Pictured, Pictured | None] | None,
                           ) -> None:
        """Raise `_Superseded` when the bot is busy and a newer move's board already waits:
        the picture just drawn is dropped (the card marks its changes against what was
        really shown, `pictured`) and no request is spent on a board already out of date."""
        if result is not None or gid not in self._showings:
            return
        if not gauge_of(self.bot).read().busy:
            return
        if pictured is None:
            self._pictured.pop(gid, None)
        else:
            self._pictured[gid] = pictured
        raise _Superseded

    def _pictured_on(self, gid: int, message_id: int, digest: str | None) -> None:
        """Board post `message_id` of game `gid` now shows the picture of `digest` (None:
        no picture, or one not known)."""
        if digest is None:
            self._uploaded.pop(gid, None)
        else:
            self._uploaded[gid] = (message_id, digest)

    @staticmethod
    def _may_attach(channel: Any) -> bool:
        """False when the gateway cache says the bot lacks Attach Files there (the post then
        goes without its picture, saying so); True when it may, or nobody knows."""
        perms = _bot_permissions(channel)
        return perms is None or perms.attach_files

    @staticmethod
    async def _answer(answers: list[HeldAnswer] | None, message_id: int, **edit: Any) -> bool:
        """Edit board post `message_id` as the answer to a press on it (type 7, one request
        for the answer and the edit), if one is open; through the press's own token if it was
        deferred (a busy bot): the edit then costs nothing of the bot token's global limit.
        False if no press on that post is in hand (edit it yourself)."""
        edit.setdefault("allowed_mentions", discord.AllowedMentions.none())
        for held in answers or []:
            pressed = held.interaction.message
            if pressed is None or pressed.id != message_id:
                continue
            if held.open and await held.take():
                await held.interaction.response.edit_message(**edit)
                return True
            if held.interaction.response.type is DEFERRED_UPDATE:
                # The deferred press's @original is the post it pressed.
                await held.interaction.edit_original_response(**edit)
                return True
        return False

    async def _remember(self, record: GameRecord, message_id: int, post: BoardPost) -> None:
        await self.bot.storage.set_board_message(record.id, message_id, record.version,
                                                 post.dump())
        self._board_ids[record.id] = (record.board_message_id, message_id)
        self._posts[record.id] = (message_id, post)
