"""Real games under Discord's faults (stop 69): The Presence, I Am the Fourth Wall and The
Exorcism, each at its smallest table (AI seats for the rest), pressed through Discord move by
move while the emulator rotates one fault per move through what real Discord does to a game
that lasts days:

- edits of messages over an hour old refused (429 / 30046, outlasting discord.py's retries);
- a board upload refused (503; a 500 run; 413 / 40005 too large);
- a press answered too late (10062 on its callbacks), a press replayed 48 s late after a
  gateway outage, a press whose token expired before its follow-up (401 / 50027);
- a moderator deleting the board post or the player's DM panel, archiving or locking the
  thread (403 / 50083), taking Send Messages in Threads, Attach Files or View Channel from the
  bot (403 / 50013, 403 / 50001);
- the player's DMs closed (403 / 50007); a 429 on every route; a 500; a gateway RECONNECT;
- last (the default suite), the bot removed from the server (GUILD_DELETE).

Each fault is lifted after its move (as a moderator or Discord would, sooner or later). Then:
the game ends; its stored state equals the replay of its log; every press whose move failed,
or whose answer Discord refused, left its player told the truth (by the answer, the board or a
DM), and nobody was told a move happened that did not; every line the boards show is a line
of the replayed log, in order; and the secrets audit of the secrets proof (every message,
every version, each reader) finds no hidden information anywhere a fallback put it.

Default: the first moves of each title, every fault at least once (a few seconds each);
`-m soak`: whole games of each title, several seeds.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import discord.http
import discord.webhook.async_
import pytest

from bot.client import UNKNOWN_COMPONENT_GRACE
from cogs.utils.table import _decision_token, action_hash
from cogs.utils.table.words import told_once
from demo import AutoTable
from emulator import Perm
from emulator.interaction_records import InteractionRecord
from emulator.records import MessageRecord, UserRecord
from rules.core import Action
from rules.core.game import Game
from rules.registry import GAMES
from tests.e2e.conftest import Table
from tests.e2e.test_board_faults import FastSleeps
from tests.proof.harness import board_lines, is_subsequence, public_lines_of_log
from tests.proof.test_secrets import Audit, pictures_as_one_pixel

# (game, mode, humans, AI seats, options)
TITLES: list[tuple[str, str, int, int, str | None]] = [
    ("exorcism", "solo", 1, 0, None),
    ("fourth_wall", "alliance", 1, 0, None),
    ("presence", "session", 1, 1, "two_players=yes"),
]
TITLE_IDS = [t[0] for t in TITLES]
SOAK_TITLES = [*TITLES, ("fourth_wall", "conflict", 1, 1, None),
               ("exorcism", "one_vs_all", 1, 2, None)]
"""A soak adds tables where a player hides things from another seat (The Wall; the Ghost
player), AI seats for the rest."""
SOAK_IDS = [f"{g}-{m}" for g, m, *_ in SOAK_TITLES]

FAULTS = ["none", "old-edits-refused", "upload-503", "callbacks-10062", "board-deleted",
          "thread-archived", "no-send-in-threads", "replayed-late", "upload-too-large",
          "dm-panel-deleted", "thread-locked", "token-expired", "no-attach-files",
          "dms-closed", "no-view-channel", "429-every-route", "upload-500-run",
          "gateway-reconnect", "500-next"]
"""One per press, in turn."""

COMBOS = ["dms-closed+callbacks-10062", "no-view-channel+dms-closed",
          "dms-closed+token-expired"]
"""Two faults at once (stop 70), where one takes away the way the bot tells its player of the
other: a press whose answer Discord refuses from a player whose DMs are closed; the thread out
of the bot's sight and the DMs closed (only the press's answer is left)."""
SOAK_COMBOS = [*COMBOS, "thread-locked+dms-closed", "no-send-in-threads+dms-closed",
               "upload-500-run+dms-closed", "replayed-late+dms-closed",
               "no-view-channel+callbacks-10062", "thread-archived+callbacks-10062"]
"""A soak's: every combination above and more."""

RUN_MOST = 12
"""The longest run of one press's line a post is looked through for."""
FRAMING = re.compile(r"^Turn \d+ \(round \d+\): .* to play\.$")
"""A board's own heading of a new turn (who plays it), not a move's line."""


@dataclass
class Press:
    """One move pressed under one fault, and everything its player was told about it."""

    fault: str
    seat: str
    label: str
    line: str
    version: int
    where: str = ""
    stored: bool = False
    answer: str = ""
    dms: list[str] = field(default_factory=list)
    on_board: bool = False
    delivered: bool = True
    dead_token: int = 0
    """Requests the bot made on the token of a press Discord had given up on."""
    thinking: bool = False
    """Its answer stuck at "thinking…" (Discord ends it with "The application did not
    respond"): only a DM can tell its player what happened."""
    thread: list[str] = field(default_factory=list)
    """What the thread showed after the press (for the failure message)."""
    mark: int = 0
    """The emulator's mark just before the press (what was said after it)."""


class FaultyTable:
    """One real game pressed through Discord while one fault per press is armed."""

    def __init__(self, table: Table, auto: AutoTable, game: Game[Any, Any],
                 human: UserRecord) -> None:
        self.table, self.auto, self.game, self.human = table, auto, game, human
        self.emu = table.emu
        self.presses: list[Press] = []
        self.injected: Counter[str] = Counter()
        self._undo: list[Callable[[], None]] = []
        self.served = 0
        """Injected REST faults Discord answered the bot with (moderators' and limits' aside)."""

    # ---- faults ---------------------------------------------------------------------------

    def _thread_id(self) -> str:
        return str(self.auto.thread().id)

    async def before_finding(self, fault: str, seat: str) -> None:
        """Faults a moderator causes before the player looks for the move: the board post or
        the player's DM panel deleted (the bot posts the board again; the panel is gone)."""
        emu = self.emu
        if "+" in fault:
            for part in fault.split("+"):
                await self.before_finding(part, seat)
            return
        if fault == "board-deleted":
            emu.delete_message(self.auto.board())
            await self.settle()
        elif fault == "dm-panel-deleted":
            panels = [m for m in emu.dm_messages(self.human) if m.custom_ids]
            if panels:
                emu.delete_message(panels[-1])
                await self.settle()

    def arm(self, fault: str) -> None:
        """Arm `fault` for the press about to be made; `disarm` lifts it."""
        if "+" in fault:  # two faults at once (stop 70)
            for part in fault.split("+"):
                self.arm(part)
            return
        emu, tid = self.emu, self._thread_id()
        thread = self.auto.thread()
        # A post or an edit in the thread, or a press's answer (its callback, a follow-up, an
        # edit of its message): where a board and its picture go.
        posts = (rf"^/channels/{tid}/messages(/\d+)?$|^/webhooks/\d+/[^/]+(/messages/[^/]+)?$"
                 r"|^/interactions/\d+/[^/]+/callback$")
        if fault == "old-edits-refused":
            emu.advance_clock(hours=2)  # every message is over an hour old now
            emu.limit_old_edits(edits=0, per=6.0, lasting=3.0, retry_after=0.05)
            self._undo.append(lambda: setattr(emu, "old_edit_limit", None))
        elif fault == "upload-503":
            emu.fail_next("*", posts, 503, count=2)  # the answer, then the edit in its stead
        elif fault == "upload-500-run":
            # Outlasts discord.py's five tries (its sleeps made short), not the bot's backoff.
            emu.fail_for("*", posts, 500, seconds=1.0)
        elif fault == "upload-too-large":
            limit = emu.attachment_size_limit
            emu.attachment_size_limit = 16  # smaller than any picture
            self._undo.append(lambda: setattr(emu, "attachment_size_limit", limit))
        elif fault == "callbacks-10062":
            emu.refuse_callbacks(count=2)  # the answer and the deferral after it
        elif fault == "token-expired":
            lifetime = emu.token_lifetime
            emu.token_lifetime = 0.0  # the follow-up comes after the token's 15 minutes
            # A busy bot: the press is acknowledged at once, its answer follows on the token.
            settings = self.table.bot.settings if self.table.bot is not None else None
            grace = settings.answer_grace if settings is not None else 0.0
            if settings is not None:
                settings.answer_grace = 0.0

            def restore() -> None:
                emu.token_lifetime = lifetime
                if settings is not None:
                    settings.answer_grace = grace
            self._undo.append(restore)
        elif fault == "thread-archived":
            emu.archive_thread(thread)
        elif fault == "thread-locked":
            emu.revoke_bot_permissions(thread, Perm.MANAGE_THREADS)
            emu.lock_thread(thread)

            def unlock() -> None:
                emu.lock_thread(thread, locked=False, archived=False)
                emu.grant_bot_permissions(thread, Perm.MANAGE_THREADS)
            self._undo.append(unlock)
        elif fault in ("no-send-in-threads", "no-attach-files", "no-view-channel"):
            bits = {"no-send-in-threads": Perm.SEND_MESSAGES_IN_THREADS,
                    "no-attach-files": Perm.ATTACH_FILES,
                    "no-view-channel": Perm.VIEW_CHANNEL}[fault]
            emu.revoke_bot_permissions(thread, bits)
            self._undo.append(lambda: emu.grant_bot_permissions(thread, bits))
        elif fault == "dms-closed":
            self.human.dms_open = False
            self._undo.append(lambda: setattr(self.human, "dms_open", True))
        elif fault == "429-every-route":
            emu.fail_every_route(429, retry_after=0.05)
        elif fault == "500-next":
            emu.fail_next("*", ".*", 500, count=1)
        self.injected[fault] += 1

    def disarm(self) -> None:
        self.emu.clear_faults()
        while self._undo:
            self._undo.pop()()

    # ---- pressing -------------------------------------------------------------------------

    async def settle(self) -> None:
        await self.table.settle(timeout=20)

    async def find(self, seat: str, h: str, decision: str
                   ) -> tuple[MessageRecord, str, bool, str] | None:
        """(message, custom id, is a select, where) of the component that plays `h`: on the
        board post, the player's DM panel, an open private menu, or under **My choices**."""
        auto, user = self.auto, self.human
        board = auto.board()
        for where, message in (("board", board),
                               ("dm", auto.dm_panel(user, seat, h, decision)),
                               ("open menu", auto.open_menu(user, seat, h, decision))):
            if message is not None and (t := auto._target(message, seat, h, decision)):
                return message, t[0], t[1], where
        res = await self.emu.click(user, board, label="My choices")
        await res.wait_done(timeout=15)
        for message in res.messages:
            if (t := auto._target(message, seat, h, decision)) is not None:
                return message, t[0], t[1], "my choices"
        return None

    def command_for(self, action: Action) -> str | None:
        """The game's slash command that types `action`, if one does."""
        from cogs import exorcism, fourth_wall, presence
        from cogs.utils.talk import group_of

        families = {"exorcism": exorcism.families, "fourth_wall": fourth_wall.families,
                    "presence": presence.families}[self.game.name]()
        family = next((f for f in families if action.kind in f.kinds), None)
        return None if family is None else f"{group_of(self.game.name)} {family.name}"

    async def press_one(self, fault: str, typed: bool = False) -> Press | None:
        """The AI's choice for the human's awaited seat, pressed under `fault` (`typed`: as
        the game's slash command, where one covers it); None when the game is over or awaits
        nobody the human plays."""
        bot = self.table.bot
        assert bot is not None
        gid = self.auto.game_id
        record = await bot.storage.get_game(gid)
        assert record is not None
        if record.status != "active":
            return None
        state = await bot.tables.state(gid)
        users = await bot.tables.users_of(gid)
        seats = [s for s in sorted(self.game.to_act(state))
                 if users.get(s) == int(self.human.id)]
        if not seats:
            if not await self.auto._moved_on(state.step, timeout=30):
                raise AssertionError(f"the AI did not move for {self.game.to_act(state)}")
            return await self.press_one(fault, typed)
        seat = seats[0]
        action = self.game.ai_action(state, seat)
        outcome = self.game.apply(state.model_copy(deep=True), seat, action)
        line = next((e.text for e in outcome.events if e.public), "")
        press = Press(fault, seat, self.game.describe(state, seat, action), line,
                      record.version)
        h = action_hash(action)
        decision = _decision_token(self.game.decision_id(state, seat), record.epoch)
        await self.before_finding(fault, seat)
        command = self.command_for(action) if typed else None
        if command is not None:
            # Typed (`/exorcism move choice:…`): answered "thinking…", then a follow-up.
            press.where = "typed"

            async def make() -> InteractionRecord:
                return await self.emu.slash(self.human, self.auto.thread(), command,
                                            {"choice": h})
        else:
            found = await self.find(seat, h, decision)
            assert found is not None, f"{press.label!r} is offered nowhere"
            message, cid, is_select, press.where = found

            async def make() -> InteractionRecord:
                return await self._press(message, cid, is_select, h)
        mark = press.mark = self.emu.mark()
        served = self.emu.stats.faults_served
        began = time.perf_counter()
        self.arm(fault)
        res: InteractionRecord
        parts = fault.split("+")
        if "replayed-late" in parts:
            async with self.emu.gateway_outage(late_by=48):
                res = await make()
        else:
            if "gateway-reconnect" in parts:
                await self.emu.gateway_reconnect()
            res = await make()
        await self._until_dealt_with(gid, record.version, res, mark,
                                     late="replayed-late" in parts)
        if "replayed-late" in parts:
            # Long enough for the bot's fallback answer to an unanswered press, which must
            # leave this one alone (Discord takes nothing on its token).
            await asyncio.sleep(UNKNOWN_COMPONENT_GRACE * 1.5 + 0.1)
        if os.environ.get("PROOF_VERBOSE"):
            print(f"  dealt with in {time.perf_counter() - began:.1f}s")
        # What the move sets off (its board, the DMs, the AI seats' moves after it) meets the
        # fault too; a refusal that lasts is met and kept for later.
        with contextlib.suppress(AssertionError):  # a bot retrying all along is left to it
            await self.emu.settle(timeout=0.75)
        self.served += self.emu.stats.faults_served - served
        self.disarm()
        await self.settle()
        await self.auto._delivered()
        await self.settle()
        log = await bot.storage.actions(gid, after_seq=record.version,
                                        upto_seq=record.version + 1)
        press.stored = bool(log) and log[0].seat == seat and Action.model_validate_json(
            log[0].action_json) == action
        # Late on purpose: Discord gave up on it (its callbacks refused on time are not late).
        press.delivered = "replayed-late" not in parts
        press.dead_token = 0 if press.delivered else len(res.errors)
        press.answer = res.text
        press.thinking = res.original is not None and res.original.loading
        # DMs the bot sent: not interactions' answers in the DM channel (this press's are its
        # answer; another's, the "My choices" press that looked for it, may carry notes owed
        # for earlier moves).
        press.dms = [text for m in self.emu.dm_messages(self.human) if m.interaction_id is None
                     for text in _versions_since(m, mark)]
        press.thread = [text for m in self.emu.messages_in(self.auto.thread())
                        for text in _versions_since(m, mark)]
        # A step with no public line (a Marble picked for a Close a Gate) shows as the board
        # moving on: its post written again.
        runs = _runs([line] * RUN_MOST) if line else {}
        press.on_board = any(line in _unfolded(board_lines_of(text), runs) if line else bool(text)
                             for text in press.thread)
        self.presses.append(press)
        if os.environ.get("PROOF_VERBOSE"):
            print(f"  [{fault}] {time.perf_counter() - began:.1f}s {press.label[:40]!r} "
                  f"via {press.where}: stored={press.stored} "
                  f"thread writes={len(press.thread)} errors={len(self.emu.errors)}")
        return press

    async def _press(self, message: MessageRecord, cid: str, is_select: bool,
                     h: str) -> InteractionRecord:
        if is_select:
            return await self.emu.select(self.human, message, cid, [h])
        return await self.emu.click(self.human, message, cid, check=False)

    async def _until_dealt_with(self, gid: int, version: int, res: InteractionRecord,
                                mark: int, late: bool = False,
                                timeout: float = 20.0) -> None:
        """Until the press is answered (or Discord refused its answer) and, if it was played,
        its move stored."""
        bot = self.table.bot
        assert bot is not None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            record = await bot.storage.get_game(gid)
            moved = record is not None and record.version != version
            if (res.done or res.late or res.errors) and (moved or res.text):
                return
            told = [t for m in self.emu.dm_messages(self.human) for t in _versions_since(m, mark)]
            if (res.late or late) and not moved and any("not played" in t for t in told):
                return  # Discord gave up on it; its player is told by DM
            at_rest = self.emu.busy is not None and not self.emu.busy()
            if moved and (at_rest or time.monotonic() > deadline - timeout / 2):
                return  # whatever the bot had to say of it, it said
            await asyncio.sleep(0.02)


def board_lines_of(text: str) -> list[str]:
    """The event lines ("• …") of a post's text."""
    return [line[2:] for line in text.splitlines() if line.startswith("• ")]


def _versions_since(message: MessageRecord, mark: int) -> Iterator[str]:
    """The texts of `message` written after `mark` (its current version and earlier edits)."""
    if message.written > mark:
        yield message.text
    for old in message.history:
        if old.written > mark:
            yield old.content


def _runs(lines: list[str]) -> dict[str, list[str]]:
    """How a post says a run of each of `lines` (`told_once`: "… (3 times).", "The Redirector
    discards 2 Clue Marbles (Hand Limit)."), to the lines the run stands for."""
    counted = Counter(lines)
    # A line the log says itself ("The Steadfast draws 2 Marbles.") is no run of another.
    return {said: [line] * n for line, most in counted.items() for n in range(2, most + 1)
            if (said := told_once([line] * n)[0][0]) not in counted}


def _unfolded(lines: list[str], runs: dict[str, list[str]]) -> list[str]:
    """A post's lines with each run said once (`_runs`) said again as the log has it, line by
    line."""
    out: list[str] = []
    for line in lines:
        out += runs.get(line, [line])
    return out


def _first_out_of_order(lines: list[str], replayed: list[str]) -> str:
    it = iter(replayed)
    for n, line in enumerate(lines):
        if not any(told == line for told in it):
            return f"{line!r} is not where the log has it, after {lines[max(0, n - 3):n]}"
    return ""


NOTE = ("✅ Your move “", "⚠️ Your move “")
"""How a note about an earlier move begins: what the bot owed a player it could not reach
(their DMs closed), said after the answer to a later press or command (stop 70)."""


def notes_since(emu: Any, user: UserRecord, mark: int) -> list[str]:
    """The owed notes `user` was told after `mark`, on any of their interactions' answers."""
    return [line for rec in emu.interactions if rec.user_id == user.id
            for m in rec.messages for text in _versions_since(m, mark)
            for line in text.splitlines() if line.startswith(NOTE)]


def judge(press: Press, later: list[str] | None = None) -> list[str]:
    """What was wrong with what the presser was told (empty: the truth). The notes its answer
    carries are about earlier moves, not this one; `later`: the notes told after it (a player
    the bot could not reach by answer or DM is told on their next press), which may say what
    became of this one among others'."""
    answer = "\n".join(line for line in press.answer.splitlines() if not line.startswith(NOTE))
    said = "\n".join([answer, *press.dms])
    notes = "\n".join(later or [])
    wrong: list[str] = []
    landed = answer.lstrip().startswith(("✅", "Done:")) or "was played" in said
    failed = ("not played" in said or "Nothing in the game changed" in said
              or "nothing changed" in said.lower())
    # A note said later tells what became of this press, never the opposite.
    landed_later, failed_later = "was played" in notes, "not played" in notes
    if press.thinking and not (landed or landed_later if press.stored
                               else failed or failed_later):
        wrong.append("its answer stuck at “thinking…”, and no DM said what happened")
    if press.dead_token:
        wrong.append("answered on a token Discord had given up on (10062)")
    if press.stored and not press.delivered:
        wrong.append("reached the bot after Discord showed it as failed, and was played")
    if press.stored:
        if not (press.on_board or landed or landed_later):
            wrong.append("played, and its player was never told so")
        if failed:
            wrong.append("played, and its player was told it was not")
    else:
        if landed or press.on_board:
            wrong.append("not played, and its player was told it was")
        if not (failed or answer or failed_later):
            wrong.append("not played, and its player was never told")
    return [f"{press.fault}: {press.label!r} ({press.where}): {w}; told {said[:300]!r}; "
            f"the thread showed {[t[-300:] for t in press.thread]}; line {press.line!r}"
            + (f"; in full: {press.thread}" if os.environ.get("PROOF_VERBOSE") else "")
            for w in wrong]


async def play_with_faults(table: Table, monkeypatch: pytest.MonkeyPatch, game_name: str,
                           mode: str, humans: int, ai: int, options: str | None,
                           seed: int, presses: int | None, share: int = 0) -> None:
    assert table.bot is not None
    pictures_as_one_pixel(monkeypatch)
    monkeypatch.setattr(discord.http, "asyncio", FastSleeps())
    monkeypatch.setattr(discord.webhook.async_, "asyncio", FastSleeps())  # answers' retries
    # The bot's own backoff for a refused board, small: a lifted fault is met within moments.
    await table.settle()  # the fixture's bot done starting before it stops
    await table.stop()
    await table.start(board_retry_seconds=0.05, board_retry_max_seconds=0.2)
    assert table.bot is not None
    table.bot.tables.seed_source = lambda: seed
    game = GAMES[game_name]
    users = [table.alice, table.bob, table.carol][:humans]
    auto = AutoTable(table.emu, table.bot, table.general, users)
    await auto.open(game_name, mode, options, ai=ai)
    audit = Audit(table, game, auto.game_id)
    await audit.begin()
    opening = board_lines(auto.board())  # the deal, told before any move
    faulty = FaultyTable(table, auto, game, users[0])
    began = time.perf_counter()
    misinformed: list[str] = []
    owed: list[Press] = []
    repeats = 0
    last_version = -1
    i = 0
    # The default suite shares the faults out among the titles; a soak gives each all of them.
    faults = [*FAULTS, *SOAK_COMBOS] if presses is None else [
        *FAULTS, *COMBOS][share::len(TITLES)]
    while presses is None or i < presses:
        fault = faults[i % len(faults)]
        i += 1
        mark = table.emu.mark()
        # Every third press typed: its answer is a follow-up after "thinking…", made with the
        # press's token (an expired token's press is always typed).
        press = await faulty.press_one(fault, typed=i % 3 == 2
                                      or "token-expired" in fault.split("+"))
        if press is None:
            break
        if "dms-closed" in press.fault.split("+") and judge(press):
            # Neither the answer nor a DM reached them: told on a later press (stop 70).
            owed.append(press)
        else:
            misinformed += judge(press)
        if press.stored:
            audit.watch(await table.bot.tables.state(auto.game_id), mark)
        repeats = repeats + 1 if press.version == last_version else 0
        last_version = press.version
        assert repeats < 4, f"the same move failed {repeats} times: {faulty.presses[-4:]}"
        assert i < 3000, "the game did not end"
    if owed:  # presses that owed their player the truth: they come back
        back = await table.emu.slash(users[0], auto.thread(), "game mine")
        await back.wait_done()
        await faulty.settle()
        for p in owed:
            misinformed += judge(p, later=notes_since(table.emu, users[0], p.mark))
    took = time.perf_counter() - began
    await faulty.settle()
    record = await table.bot.storage.get_game(auto.game_id)
    assert record is not None and record.seed is not None
    assert await table.bot.tables.verify(auto.game_id)
    log = await table.bot.storage.actions(auto.game_id)
    seats = sorted(await table.bot.tables.users_of(auto.game_id))
    dealt = game.setup(seats, game.options_model.model_validate(record.options), record.seed)
    replayed = public_lines_of_log(
        game, dealt, [(a.seat, Action.model_validate_json(a.action_json)) for a in log])
    boards = [m for m in table.emu.messages_in(auto.thread())
              if m.content.startswith(f"**{game.title}** — game #")]
    runs = _runs(replayed)
    shown = [line for m in boards for line in _unfolded(board_lines(m), runs)]
    outcomes = Counter((p.fault, p.stored) for p in faulty.presses)
    # Every public line of a stored move was told to everyone when it was played (the audit's
    # snapshots, one per press, miss the AI seats' moves between presses).
    audit.public_lines.update(replayed)
    audited, _, _, leaks = audit.check()
    print(f"\nREAL FAULTS {game_name}/{mode} seed={seed} presses={len(faulty.presses)} "
          f"stored={len(log)} status={record.status} took={took:.1f}s "
          f"not played={sum(1 for p in faulty.presses if not p.stored)} "
          f"errors answered={len(table.emu.errors)} (injected {faulty.served}) "
          f"audited={audited} leaks={len(leaks)}")
    for p in faulty.presses:
        if not p.stored or not p.delivered:
            print(f"  {p.fault}: {p.label[:50]!r} stored={p.stored} told "
                  f"{(p.answer or ' / '.join(p.dms))[:100]!r}")
    assert not misinformed, "\n".join(misinformed)
    assert not leaks, "\n".join(leaks[:10])
    for m in boards:  # each post's lines in the order the moves made them
        lines = [x for x in _unfolded(board_lines(m), runs)
                 if x not in opening and not FRAMING.match(x)]
        assert is_subsequence(lines, replayed), _first_out_of_order(lines, replayed)
    strays = [x for x in shown if x not in replayed and x not in opening
              and not FRAMING.match(x)]
    assert not strays, f"board lines no stored move made: {strays[:5]}"
    # And every stored move reached the thread: a refused board is kept and shown later.
    unseen = [x for x in replayed if x not in shown and not FRAMING.match(x)]
    assert not unseen, f"moves stored and never shown on a board: {unseen[:5]}"
    if presses is None:
        assert record.status == "over", "the game did not end"
        return
    assert set(faults) <= {p.fault for p in faulty.presses}, outcomes
    # Last, the bot is removed from the server mid-game (GUILD_DELETE): the game ends there,
    # abandoned with the reason kept, its log whole.
    table.emu.remove_bot_from_guild(table.guild)
    for _ in range(200):
        record = await table.bot.storage.get_game(auto.game_id)
        if record is not None and record.status == "abandoned":
            break
        await asyncio.sleep(0.025)
    assert record is not None and record.status == "abandoned", record
    assert record.settings.ended_because == "the bot was removed from the server"
    assert await table.bot.tables.verify(auto.game_id)


@pytest.mark.parametrize(("game_name", "mode", "humans", "ai", "options"), TITLES,
                         ids=TITLE_IDS)
async def test_real_games_under_discord_faults_first_moves(
        table: Table, monkeypatch: pytest.MonkeyPatch, game_name: str, mode: str,
        humans: int, ai: int, options: str | None) -> None:
    share = TITLE_IDS.index(game_name)
    await play_with_faults(table, monkeypatch, game_name, mode, humans, ai, options, seed=5,
                           presses=len([*FAULTS, *COMBOS][share::len(TITLES)]), share=share)


@pytest.mark.soak
@pytest.mark.parametrize("seed", (5, 11))
@pytest.mark.parametrize(("game_name", "mode", "humans", "ai", "options"), SOAK_TITLES,
                         ids=SOAK_IDS)
async def test_soak_whole_real_games_under_discord_faults(
        table: Table, monkeypatch: pytest.MonkeyPatch, game_name: str, mode: str,
        humans: int, ai: int, options: str | None, seed: int) -> None:
    await play_with_faults(table, monkeypatch, game_name, mode, humans, ai, options, seed=seed,
                           presses=None)


