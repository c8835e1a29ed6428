"""ReminderDispatcher: dm → ping → daily, only awaited humans, cleared at the end, enforced."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bot.reminders import ReminderDispatcher, Stage
from bot.storage import GameRecord, SqliteStorage
from bot.tables import ActResult, TableService
from rules.core.types import act
from tests.bot import GAMES, HOUR, FakeClock, lobby, started
from tests.tinygame import HighCardState

A, B, C = 101, 102, 103


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()



@pytest.fixture
def tables(storage: SqliteStorage, clock: FakeClock) -> TableService:
    return TableService(storage, GAMES, clock=clock)


class Inbox:
    """Records what the dispatcher asked the Discord layer to send."""

    def __init__(self) -> None:
        self.sent: list[tuple[int, list[int], Stage]] = []
        self.boards: list[ActResult] = []
        self.event = asyncio.Event()

    async def notify(self, rec: GameRecord, users: list[int], stage: Stage) -> None:
        self.sent.append((rec.id, users, stage))
        self.event.set()

    async def enforce(self, rec: GameRecord, res: ActResult) -> None:
        assert rec == res.record
        self.boards.append(res)

    def take(self) -> list[tuple[int, list[int], Stage]]:
        out, self.sent = self.sent, []
        return out


@pytest.fixture
def inbox() -> Inbox:
    return Inbox()


@pytest.fixture
def dispatcher(tables: TableService, inbox: Inbox) -> ReminderDispatcher:
    return ReminderDispatcher(tables.storage, inbox.notify, tables=tables,
                              enforce=inbox.enforce)


def hand(state: Any, seat: str) -> list[int]:
    assert isinstance(state, HighCardState)
    return list(state.hands[seat])


async def test_dm_then_ping_then_daily_to_the_awaited_only(
    tables: TableService, dispatcher: ReminderDispatcher, inbox: Inbox, clock: FakeClock,
):
    start = await started(tables, (A, B, C))
    gid = start.record.id
    t0 = clock()
    assert await dispatcher.run_once(t0 + 12 * HOUR - 1) == []
    await dispatcher.run_once(t0 + 12 * HOUR)
    assert inbox.take() == [(gid, [A], "dm")]  # only s1 is awaited (the wager)
    await dispatcher.run_once(t0 + 24 * HOUR - 1)
    assert inbox.take() == []
    await dispatcher.run_once(t0 + 24 * HOUR)
    assert inbox.take() == [(gid, [A], "ping")]
    await dispatcher.run_once(t0 + 47 * HOUR)
    assert inbox.take() == []
    await dispatcher.run_once(t0 + 48 * HOUR)
    await dispatcher.run_once(t0 + 72 * HOUR)
    assert inbox.take() == [(gid, [A], "daily"), (gid, [A], "daily")]
    rec = await tables.get(gid)
    assert (rec.next_reminder_at, rec.reminder_stage) == (t0 + 96 * HOUR, 4)


async def test_a_move_resets_the_clock_and_simultaneous_laggards_keep_theirs(
    tables: TableService, dispatcher: ReminderDispatcher, inbox: Inbox, clock: FakeClock,
):
    start = await started(tables, (A, B, C))
    gid = start.record.id
    clock.advance(hours=13)
    await dispatcher.run_once()
    assert inbox.take() == [(gid, [A], "dm")]
    clock.advance(hours=1)
    t_wager = clock()
    await tables.act(gid, A, act("wager", amount=1))  # now everyone must play a card
    rec = await tables.get(gid)
    assert (rec.next_reminder_at, rec.reminder_stage) == (t_wager + 12 * HOUR, 0)
    clock.advance(hours=3)
    await tables.act(gid, B, act("play", card=hand(start.state, "s2")[0]))
    rec = await tables.get(gid)
    assert rec.next_reminder_at == t_wager + 12 * HOUR  # A and C have been waited on since
    clock.t = t_wager + 12 * HOUR
    await dispatcher.run_once()
    assert inbox.take() == [(gid, [A, C], "dm")]  # never B, who already played


async def test_ai_seats_are_never_notified(
    tables: TableService, dispatcher: ReminderDispatcher, inbox: Inbox, clock: FakeClock,
):
    rec = await lobby(tables, (A,))
    await tables.add_ai(rec.id, A)
    await tables.start(rec.id, A, seed=1)
    await tables.act(rec.id, A, act("wager", amount=1))
    state = await tables.state(rec.id)
    await tables.act(rec.id, A, act("play", card=hand(state, "s1")[0]))
    assert await tables.awaited(rec.id) == {"s2": None}
    clock.advance(hours=13)
    # A due timer that finds an AI seat awaited lets the AI move (a crash between AI moves
    # must not stall the game); nobody is pinged for it.
    sent = await dispatcher.run_once()
    assert [(s.stage, s.user_ids) for s in sent] == [("ai", [])]
    assert inbox.take() == []
    assert await tables.awaited(rec.id) == {"s1": A}
    assert inbox.boards and all(r.seat == "s2" for r in inbox.boards)


async def test_reminders_stop_when_the_game_ends_or_is_abandoned(
    tables: TableService, dispatcher: ReminderDispatcher, inbox: Inbox, clock: FakeClock,
):
    one = await started(tables, (A, B), options={"rounds": 1}, thread=1)
    two = await started(tables, (A, B), thread=2)
    gid = one.record.id
    await tables.act(gid, A, act("wager", amount=1))
    await tables.act(gid, A, act("play", card=hand(one.state, "s1")[0]))
    res = await tables.act(gid, B, act("play", card=hand(one.state, "s2")[0]))
    assert res.result is not None and res.record.next_reminder_at is None
    await tables.abandon(two.record.id, A, can_manage_threads=False)
    clock.advance(hours=100)
    assert await dispatcher.run_once() == [] and inbox.take() == []
    assert await tables.storage.due_reminders(clock()) == []


async def test_enforced_policy_plays_the_default_action(
    tables: TableService, dispatcher: ReminderDispatcher, inbox: Inbox, clock: FakeClock,
):
    start = await started(tables, (A, B))
    gid = start.record.id
    t0 = clock()
    await tables.update_settings(gid, A, {"policy": "enforced", "enforce_after_hours": 18})
    await dispatcher.run_once(t0 + 12 * HOUR)
    assert inbox.take() == [(gid, [A], "dm")]
    rec = await tables.get(gid)
    assert rec.next_reminder_at == t0 + 18 * HOUR  # enforcement comes before the ping
    clock.t = t0 + 18 * HOUR
    sent = await dispatcher.run_once()
    assert [(s.stage, s.user_ids) for s in sent] == [("enforce", [A])]
    assert inbox.take() == [(gid, [A], "enforce")]
    [board] = inbox.boards
    assert (board.seat, board.action, board.version) == ("s1", act("wager", amount=1), 1)
    [logged] = await tables.storage.actions(gid)
    assert logged.user_id is None  # the bot's move, not A's
    rec = await tables.get(gid)
    assert (rec.next_reminder_at, rec.reminder_stage) == (clock() + 12 * HOUR, 0)
    # both seats now owe a card: after 18 h both get the default
    clock.advance(hours=18)
    await dispatcher.run_once()
    assert inbox.take() == [(gid, [A, B], "enforce")]
    assert [b.seat for b in inbox.boards[1:]] == ["s1", "s2"]
    assert (await tables.get(gid)).version == 3


async def test_advisory_policy_never_plays_for_anyone(
    tables: TableService, dispatcher: ReminderDispatcher, inbox: Inbox, clock: FakeClock,
):
    start = await started(tables, (A, B))
    clock.advance(hours=24 * 10)
    for _ in range(5):
        await dispatcher.run_once()
        clock.advance(hours=24)
    assert {stage for _, _, stage in inbox.take()} == {"dm", "ping", "daily"}
    assert (await tables.get(start.record.id)).version == 0


async def test_restart_resumes_from_storage(
    tmp_path: Path, clock: FakeClock, inbox: Inbox,
):
    path = tmp_path / "games.db"
    first = SqliteStorage(path)
    await first.open()
    tables = TableService(first, GAMES, clock=clock)
    start = await started(tables, (A, B))
    clock.advance(hours=12)
    await ReminderDispatcher(first, inbox.notify, tables=tables).run_once()
    await first.close()
    second = SqliteStorage(path)
    await second.open()
    tables = TableService(second, GAMES, clock=clock)
    again = ReminderDispatcher(second, inbox.notify, tables=tables)
    assert await again.run_once() == []  # the dm is not repeated after the restart
    clock.advance(hours=12)
    await again.run_once()
    assert inbox.take() == [(start.record.id, [A], "dm"), (start.record.id, [A], "ping")]
    await second.close()


async def test_shard_filter_and_failing_notify(
    tables: TableService, inbox: Inbox, clock: FakeClock,
):
    start = await started(tables, (A, B))
    clock.advance(hours=12)
    other_shard = ReminderDispatcher(tables.storage, inbox.notify, tables=tables,
                                     owns_guild=lambda g: False)
    assert await other_shard.run_once() == []

    async def broken(rec: GameRecord, users: list[int], stage: Stage) -> None:
        raise RuntimeError("discord is down")

    failing = ReminderDispatcher(tables.storage, broken, tables=tables)
    assert await failing.run_once() == []  # logged, not raised
    rec = await tables.get(start.record.id)
    assert rec.reminder_stage == 1  # at most once: a failed send is not retried in a loop


async def test_start_and_stop_the_background_task(
    tables: TableService, inbox: Inbox, clock: FakeClock,
):
    start = await started(tables, (A, B))
    clock.advance(hours=12)
    dispatcher = ReminderDispatcher(tables.storage, inbox.notify, tables=tables,
                                    poll_seconds=0.01)
    dispatcher.start()
    dispatcher.start()  # idempotent
    assert dispatcher.running
    await asyncio.wait_for(inbox.event.wait(), timeout=2)
    await dispatcher.stop()
    assert not dispatcher.running
    assert inbox.take() == [(start.record.id, [A], "dm")]
    await dispatcher.stop()  # stopping twice is fine


async def test_without_tables_it_uses_the_game_registry(
    tables: TableService, inbox: Inbox, clock: FakeClock, monkeypatch: pytest.MonkeyPatch,
):
    from rules import registry
    from tests.tinygame import GAME

    monkeypatch.setitem(registry.GAMES, GAME.name, GAME)
    start = await started(tables, (A, B))
    clock.advance(hours=12)
    alone = ReminderDispatcher(tables.storage, inbox.notify, clock=clock)
    await alone.run_once()
    assert inbox.take() == [(start.record.id, [A], "dm")]
