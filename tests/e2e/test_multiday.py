"""A game that lasts days, through the emulator with Discord's limit on edits of old messages
(#20, item 1): whole games of each game, hours between players and minutes between one
player's moves, every edit of an hour-old message past 3 per 6 s per channel refused for
longer than discord.py retries (429 / 30046).

Checked after every move: no decision offers its choices on two messages (thread and DMs);
every newly awaited player is pinged in a post or DM'd. At the end: every move's public lines
reached the thread in order (against the stored history), every stale set of buttons was
taken away in the end, and the stored game equals its replay. The measurements (requests per
move, posts per decider, edits refused and how each was recovered) are printed.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import pytest

from cogs.utils.table import _decision_token
from cogs.utils.table.words import told_once
from demo import AutoTable
from emulator.records import MessageRecord, UserRecord
from rules.core.game import Game
from rules.registry import GAMES
from tests.e2e.conftest import Table
from tests.e2e.posting import told_lines

CHOICE = re.compile(r"^hb:(?:a|s|pg):(\d+):([\w-]+):([\w.-]+):")


def _live_choices(messages: list[MessageRecord], gid: int) -> dict[tuple[str, str], list[str]]:
    """(seat, decision) -> the messages whose components offer that seat's choices at it."""
    out: dict[tuple[str, str], list[str]] = {}
    for message in messages:
        keys = {(m[2], m[3]) for c in message.custom_ids
                if (m := CHOICE.match(c)) and int(m[1]) == gid}
        for key in keys:
            out.setdefault(key, []).append(message.id)
    return out


def _two_sets(thread: list[MessageRecord], dms: list[MessageRecord], gid: int) -> list[str]:
    """Decisions offered twice. A seat's choices at one decision are one set, which may be
    split in two by design: the public ones on the board post, the private ones on its summary
    DM (`panel_actions`). So: at most one message in the thread and one in the DMs per seat and
    decision, and no single choice (button, or menu option) on two messages."""
    found = []
    for where, messages in (("thread", thread), ("DMs", dms)):
        for key, ids in _live_choices(messages, gid).items():
            if len(ids) > 1:
                found.append(f"{key} offered on {len(ids)} messages in the {where}")
    seen: dict[tuple[str, ...], str] = {}
    for message in thread + dms:
        choices = [tuple(c.split(":")[3:]) for c in message.custom_ids
                   if c.startswith(f"hb:a:{gid}:")]
        for select in message.selects:
            cid = str(select.get("custom_id", ""))
            if cid.startswith(f"hb:s:{gid}:"):
                seat, decision = cid.split(":")[3:5]
                choices += [(seat, decision, str(o["value"])) for o in select.get("options", [])]
        for choice in choices:
            if seen.setdefault(choice, message.id) != message.id:
                found.append(f"{choice} offered on two messages")
    return found


def _words(text: str) -> str:
    return " ".join(text.split())


@dataclass
class Days:
    """Paces a game over days and checks each move (`before` and `watch` of `play_to_end`)."""

    auto: AutoTable
    game: Game[Any, Any]
    users: dict[str, int | None]
    state: Any
    last_seat: str | None = None
    moves: int = 0
    changes: int = 0
    hours: float = 0.0
    problems: list[str] = field(default_factory=list)

    def before(self, state: Any, seat: str) -> None:
        # The next player hours later; the same player's next move minutes later.
        if seat != self.last_seat:
            self.auto.emu.advance_clock(hours=3)
            self.hours += 3
        else:
            self.auto.emu.advance_clock(minutes=4)
            self.hours += 4 / 60
        self.last_seat = seat

    def awaited(self, state: Any) -> set[int]:
        if self.game.result(state) is not None:
            return set()
        return {u for s in self.game.to_act(state) if (u := self.users.get(s))}

    def watch(self, state: Any, mark: int) -> None:
        emu = self.auto.emu
        self.moves += 1
        before, after = self.awaited(self.state), self.awaited(state)
        if (self.game.to_act(state) - self.game.to_act(self.state)
                or self.game.turn_key(state) != self.game.turn_key(self.state)
                or self.game.result(state) is not None):
            self.changes += 1
        # Every newly awaited player is told: pinged by a post, or sent a DM.
        for user_id in after - before:
            pinged = any(str(user_id) in m.pinged_user_ids or user_id in m.pinged_user_ids
                         for m in emu.messages_in(self.auto.thread()) if m.order > mark)
            user = emu.users[str(user_id)]
            dmed = any(m.order > mark for m in emu.dm_messages(user))
            if not (pinged or dmed):
                self.problems.append(f"move {self.moves}: {user.name} awaited, not told")
        # One live set of choices per decision, in the thread and the DMs together.
        thread = list(emu.messages_in(self.auto.thread()))
        dms = [m for user in self.auto.users for m in emu.dm_messages(user) if not m.ephemeral]
        self.problems += [f"move {self.moves}: {p}"
                          for p in _two_sets(thread, dms, self.auto.game_id)]
        self.state = state


def _thread_stream(auto: AutoTable, title: str, lines: list[str]) -> str:
    """Every version of every board post in the thread, in the order written, each run said
    once (`told_once`) said as the `lines` it stands for."""
    versions: list[tuple[int, str]] = []
    for message in auto.emu.messages_in(auto.thread()):
        if not message.content.startswith(f"**{title}**"):
            continue
        for h in message.history:
            versions.append((h.written or message.order, h.content))
        versions.append((message.written or message.order, message.content))
    versions.sort(key=lambda v: v[0])
    runs = _runs(lines)
    return _words("\n".join(_each_line(text, runs) for _, text in versions))


def _runs(lines: list[str]) -> dict[str, str]:
    """How a post says a run of each line (`told_once`: "… (3 times).", "… discards 2 Clue
    Marbles …"), to the run's lines."""
    return {told_once([line] * n)[0][0]: "\n".join(f"• {line}" for _ in range(n))
            for line, most in Counter(lines).items() for n in range(2, most + 1)}


def _each_line(text: str, runs: dict[str, str]) -> str:
    """A post's text with each run said once said as the lines it stands for, as the stored
    history has them."""
    return "\n".join(runs.get(row[2:], row) if row.startswith("• ") else row
                     for row in text.split("\n"))


async def _lines_in_order(auto: AutoTable, game: Game[Any, Any], check: bool = True) -> int:
    """Every public line of the stored history is in the thread, in order; returns how many
    (`check=False`: how many of them are)."""
    bot = auto.bot
    history = await bot.tables.history(auto.game_id)
    state = await bot.tables.state(auto.game_id)
    told = [game.present(state, await told_lines(bot, auto.game_id, entry.events))
            for entry in history]
    stream = _thread_stream(auto, game.title, [line for lines in told for line in lines])
    at = 0
    count = 0
    for entry, lines in zip(history, told, strict=True):
        for line in lines:
            found = stream.find(_words(line), at)
            if found < 0 and not check:
                continue
            assert found >= 0, (f"move {entry.seq}: line not in the thread after position "
                                f"{at}: {line!r}")
            at = found + len(_words(line))
            count += 1
    return count


async def _no_stale_buttons(auto: AutoTable, game: Game[Any, Any],
                            timeout: float = 10.0) -> None:
    """Once Discord takes edits again, every stale set of choices is taken away (only the
    current decision's remain, none once the game is over): Discord's own limit (3 per 6 s
    per channel) while the clock runs on, 7 s every 0.05 s."""
    auto.emu.limit_old_edits(edits=3, per=6.0, retry_after=0.01)  # (discord.py sleeps it)
    record = await auto.bot.storage.get_game(auto.game_id)
    state = await auto.bot.tables.state(auto.game_id)
    assert record is not None
    current = set() if record.status != "active" else {
        (seat, _decision_token(game.decision_id(state, seat), record.epoch))
        for seat in game.to_act(state)}
    deadline = time.monotonic() + timeout
    while True:
        auto.emu.advance_clock(seconds=7)
        messages = list(auto.emu.messages_in(auto.thread()))
        for user in auto.users:
            messages += [m for m in auto.emu.dm_messages(user) if not m.ephemeral]
        live = {k: v for k, v in _live_choices(messages, auto.game_id).items()
                if k not in current}
        if not live:
            return
        assert time.monotonic() < deadline, f"buttons left: {live}"
        await asyncio.sleep(0.05)


@dataclass
class Plan:
    game: str
    mode: str | None
    players: int
    options: str | None = None
    seed: int = 5


PLANS = {
    "presence": Plan("presence", None, 3, seed=11),
    "fourth_wall": Plan("fourth_wall", "conflict", 3, seed=3),
    "exorcism": Plan("exorcism", "core", 2, seed=5),
}


STRICT = {"edits": 1, "per": 900.0, "age": 600.0, "lasting": 600.0, "retry_after": 0.01}
"""Discord's limit, stricter than the bot assumes so that it is met often: edits of messages
over 10 minutes old (the bot counts an hour), one per 15 minutes per channel; once hit, a
channel refuses them for 10 minutes (the same player's next moves), with 0.01 s between
discord.py's tries: every refusal outlasts its retries."""

AS_DOCUMENTED = {"edits": 3, "per": 6.0, "age": 3600.0, "lasting": 600.0, "retry_after": 0.01}
"""Discord's limit as documented (3 per 6 s per channel, messages over an hour old), each
refusal lasting 10 minutes (for the measurements)."""


async def play_over_days(table: Table, plan: Plan, caplog: pytest.LogCaptureFixture,
                         moves: int | None = None, limit: dict[str, float] | None = None,
                         check: bool = True) -> dict[str, Any]:
    """Play `plan`'s game over days (`moves`: only that many moves, else to its end) under
    `limit` (`STRICT` by default). `check=False` (measuring the bot as it was) counts what
    goes wrong instead of failing on it."""
    # Refused boards and owed strips are tried again after 0.05 s, then 0.1, 0.2... 1 s.
    await table.stop()
    bot = await table.start(board_retry_seconds=0.05, board_retry_max_seconds=1.0)
    bot.tables.seed_source = lambda: plan.seed
    users: list[UserRecord] = [table.alice, table.bob, table.carol][:plan.players]
    auto = AutoTable(table.emu, bot, table.general, users)
    await auto.open(plan.game, plan.mode, plan.options)
    game = GAMES[plan.game]
    chosen = STRICT if limit is None else limit
    old_edits = table.emu.limit_old_edits(
        edits=int(chosen["edits"]), per=chosen["per"], age=chosen["age"],
        lasting=chosen["lasting"], retry_after=chosen["retry_after"])
    days = Days(auto, game, await bot.tables.users_of(auto.game_id),
                await bot.tables.state(auto.game_id))
    caplog.set_level(logging.INFO, logger="cogs.utils.table")
    requests = table.emu.stats.total_requests()
    began = time.perf_counter()
    played = await auto.play_to_end(
        watch=days.watch, before=days.before,
        until=None if moves is None else (lambda _: days.moves >= moves))
    await table.emu.settle()
    took = time.perf_counter() - began
    requests = table.emu.stats.total_requests() - requests
    record = await bot.storage.get_game(auto.game_id)
    assert record is not None and record.status == ("over" if moves is None else "active")
    assert not check or days.problems == [], days.problems[:10]
    lines = await _lines_in_order(auto, game, check)
    assert await bot.tables.verify(auto.game_id)  # the stored game equals its replay
    # Every press was answered, none failed in its player's eyes.
    presses = [r for r in table.emu.interactions if r.type == 3]
    assert not check or (presses and all(r.responded and not r.late for r in presses)), [
        (r.name, r.callback_type, r.late) for r in presses if not r.responded or r.late]
    answers = Counter(r.callback_type for r in presses)
    # The limit ends (a quiet hour): every stale set of buttons goes.
    table.emu.advance_clock(hours=1)
    if check:
        await _no_stale_buttons(auto, game)
    boards = [m for m in table.emu.messages_in(auto.thread())
              if m.content.startswith(f"**{game.title}**")]
    logs: Counter[str] = Counter()
    for rec in caplog.records:
        text = rec.getMessage()
        for key, pattern in (("strip owed", "trying again later"),
                             ("tidied", "tidied"),
                             ("DM replaced", "replacing it"),
                             ("edit refused as old", "refused as old")):
            if pattern in text:
                logs[key] += 1
    deleted_dms = sum(1 for u in users for m in table.emu.dm_messages(u, include_deleted=True)
                      if m.deleted)
    stats = {
        "moves": played, "hours": round(days.hours, 1), "lines": lines,
        "requests/move": round(requests / played, 2),
        "requests/move less refused": round((requests - old_edits.refused) / played, 2),
        "posts": len(boards), "changes": days.changes,
        "posts/decider": round(len(boards) / max(1, days.changes), 2),
        "edits refused": old_edits.refused, "old edits accepted": old_edits.accepted,
        "problems": len(days.problems),
        "deleted DMs": deleted_dms, **logs,
        "presses updated (7) / deferred (6) / answered (4,5)": (
            answers[7], answers[6], answers[4] + answers[5]),
        "seconds": round(took, 1),
    }
    print(f"\n{plan.game}: {stats}")
    return stats


async def test_a_whole_exorcism_over_days_with_old_edits_refused(
        table: Table, caplog: pytest.LogCaptureFixture) -> None:
    stats = await play_over_days(table, PLANS["exorcism"], caplog)
    assert stats["edits refused"] > 0  # the limit was met, and outlasted the retries


@pytest.mark.parametrize("name", ["presence", "fourth_wall"])
async def test_forty_moves_over_days_with_old_edits_refused(
        table: Table, name: str, caplog: pytest.LogCaptureFixture) -> None:
    """The default suite's share of the longer games (whole games: `-m soak`)."""
    stats = await play_over_days(table, PLANS[name], caplog, moves=40)
    assert stats["edits refused"] > 0


@pytest.mark.soak
@pytest.mark.parametrize("name", ["presence", "fourth_wall"])
async def test_a_whole_game_over_days_with_old_edits_refused(
        table: Table, name: str, caplog: pytest.LogCaptureFixture) -> None:
    stats = await play_over_days(table, PLANS[name], caplog)
    assert stats["edits refused"] > 0


# ---- each case on its own ------------------------------------------------------------------


async def _exorcism(table: Table) -> AutoTable:
    await table.stop()
    bot = await table.start(board_retry_seconds=0.05, board_retry_max_seconds=0.2)
    bot.tables.seed_source = lambda: 5
    auto = AutoTable(table.emu, bot, table.general, [table.alice, table.bob])
    await auto.open("exorcism", "core")
    return auto


def _boards(auto: AutoTable) -> list[MessageRecord]:
    return [m for m in auto.emu.messages_in(auto.thread())
            if m.content.startswith("**The Exorcism")]


async def test_the_same_player_an_hour_later_gets_a_fresh_post_not_an_edit(
        table: Table) -> None:
    """An hour-old board post is not edited for its own decider's next move: a new post
    follows, pinging nobody, with the new lines only; the old one loses its choices; the
    press is answered (deferred: Discord may refuse an old message's update for longer than
    an answer may wait)."""
    auto = await _exorcism(table)
    game = GAMES["exorcism"]
    seen: list[tuple[str, int, int]] = []  # (seat, boards before, mark)
    last: list[str] = []

    def before(state: Any, seat: str) -> None:
        auto.emu.advance_clock(hours=2)
        seen.append((seat, len(_boards(auto)), auto.emu.mark()))
        last.append(seat)

    checked = 0
    moves = 0

    def watch(state: Any, mark: int) -> None:
        nonlocal checked, moves
        moves += 1
        if len(last) >= 2 and last[-1] == last[-2] and game.result(state) is None \
                and set(game.to_act(state)) == {last[-1]}:
            new = [m for m in _boards(auto) if m.order > mark]
            assert len(new) == 1 and not new[0].pinged_user_ids, [m.content for m in new]
            old = [m for m in _boards(auto) if m.order < mark]
            assert not any(c.startswith("hb:a:") for m in old for c in m.custom_ids)
            checked += 1

    await auto.play_to_end(watch=watch, before=before, until=lambda _: moves >= 12)
    assert checked >= 2
    presses = [r for r in table.emu.interactions if re.search(r"'hb:[as]:", r.name)]
    assert presses and all(r.callback_type == 6 for r in presses)  # deferred, never failed


async def test_a_refused_strip_is_retried_and_a_press_on_it_refused_kindly(
        table: Table) -> None:
    """Discord refuses every old edit for a while: the replaced post keeps its buttons for
    now (they are an earlier moment's), a press on them changes nothing and says so, and
    once Discord takes edits again the buttons go."""
    auto = await _exorcism(table)
    first = auto.board()
    table.emu.advance_clock(hours=2)
    table.emu.limit_old_edits(edits=0, lasting=3600, retry_after=0.01)
    version = (await auto.bot.tables.state(auto.game_id)).step
    moves = 0

    def watch(state: Any, mark: int) -> None:
        nonlocal moves
        moves += 1

    await auto.play_to_end(watch=watch, until=lambda _: moves >= 1)
    await table.emu.settle()
    assert auto.board().id != first.id  # a fresh post, the old one hour-old
    stale = table.emu.message(first.id)
    live = [c for c in stale.custom_ids if c.startswith("hb:a:")]
    assert live, "the refusal lasts: the old post still shows its (stale) buttons"
    res = await table.emu.click(table.alice, stale, live[0])
    await res.wait_done()
    assert "earlier moment" in res.text and res.ephemeral
    assert (await auto.bot.tables.state(auto.game_id)).step == version + 1
    table.emu.old_edit_limit = None  # Discord takes edits again
    for _ in range(100):
        if not any(c.startswith("hb:a:") for c in table.emu.message(first.id).custom_ids):
            break
        await asyncio.sleep(0.05)
    else:
        raise AssertionError("the stale buttons were never taken away")


async def test_a_refused_summary_dm_edit_replaces_the_dm(table: Table) -> None:
    """A seat's summary DM (its private choices) whose edit Discord refuses is deleted — a
    delete is no edit — and sent anew: never two DMs with the seat's choices."""
    await table.stop()
    bot = await table.start(board_retry_seconds=0.05, board_retry_max_seconds=0.2)
    bot.tables.seed_source = lambda: 3
    auto = AutoTable(table.emu, bot, table.general, [table.alice, table.bob, table.carol])
    await auto.open("fourth_wall", "conflict")
    table.emu.advance_clock(hours=2)
    table.emu.limit_old_edits(edits=0, lasting=3600, retry_after=0.01)
    moves = 0

    def watch(state: Any, mark: int) -> None:
        nonlocal moves
        moves += 1
        for user in auto.users:
            dms = [m for m in table.emu.dm_messages(user) if not m.ephemeral]
            with_choices = [m for m in dms if any(CHOICE.match(c) for c in m.custom_ids)]
            assert len(with_choices) <= 1, [m.content[:80] for m in with_choices]

    await auto.play_to_end(watch=watch, until=lambda _: moves >= 12)
    deleted = [m for u in auto.users for m in table.emu.dm_messages(u, include_deleted=True)
               if m.deleted]
    assert deleted, "some summary DM edit was refused and the DM replaced"
