"""Async play on the tiny High Card game: reminder policy with AI hand-over, quiet hours and
vacations, "my turn is near", substitutes, spectators, rematch, undo limits, the log, and state
migrations on load (DESIGN.md, "Reminders", "Undo", "Seats", "Deploys mid-game")."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any, ClassVar

import pytest

from bot.migrations import LATEST
from bot.migrations.states import (
    MigrationMissing,
    migrate_state,
    register_state_migration,
    schema_of,
    unregister_state_migration,
)
from bot.reminders import ReminderDispatcher, Stage
from bot.storage import GameRecord, PlayerPrefs, SqliteStorage
from bot.tables import (
    ActResult,
    TableError,
    TableService,
    parse_clock,
    parse_tz,
)
from rules.core import Action, Event
from rules.core.types import act
from tests.bot import GAMES, HOUR, T0, FakeClock, started
from tests.tinygame import HighCard, HighCardState

DATABASES = Path(__file__).resolve().parents[1] / "fixtures" / "databases"

A, B, C, D = 101, 102, 103, 104


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()



@pytest.fixture
def tables(storage: SqliteStorage, clock: FakeClock) -> TableService:
    return TableService(storage, GAMES, clock=clock, seed_source=lambda: 99)


class Inbox:
    def __init__(self) -> None:
        self.sent: list[tuple[int, list[int], Stage]] = []
        self.moves: list[ActResult] = []

    async def notify(self, rec: GameRecord, users: list[int], stage: Stage) -> None:
        self.sent.append((rec.id, users, stage))

    async def enforce(self, rec: GameRecord, res: ActResult) -> None:
        self.moves.append(res)


@pytest.fixture
def inbox() -> Inbox:
    return Inbox()


@pytest.fixture
def dispatcher(tables: TableService, inbox: Inbox) -> ReminderDispatcher:
    return ReminderDispatcher(tables.storage, inbox.notify, tables=tables, enforce=inbox.enforce)


def hand(state: Any, seat: str) -> list[int]:
    assert isinstance(state, HighCardState)
    return list(state.hands[seat])


# ---- preferences -------------------------------------------------------------------------------
def test_quiet_hours_wrap_midnight_and_follow_the_offset():
    midnight = 1_700_006_400.0  # a UTC midnight
    assert midnight % 86400 == 0
    night = PlayerPrefs(user_id=A, quiet_start=22 * 60, quiet_end=7 * 60, tz_minutes=60)
    # 21:30 UTC is 22:30 at UTC+1: quiet until 07:00 local = 06:00 UTC next day
    assert night.quiet_until(midnight + 21.5 * HOUR) == midnight + 30 * HOUR
    assert night.quiet_until(midnight + 3 * HOUR) == midnight + 6 * HOUR
    assert night.quiet_until(midnight + 12 * HOUR) is None
    day = PlayerPrefs(user_id=A, quiet_start=9 * 60, quiet_end=17 * 60)
    assert day.quiet_until(midnight + 10 * HOUR) == midnight + 17 * HOUR
    assert day.quiet_until(midnight + 17 * HOUR) is None
    assert not PlayerPrefs(user_id=A, away=True).reachable(midnight)
    assert PlayerPrefs(user_id=A).reachable(midnight)


def test_typed_times_and_offsets_are_read_or_explained():
    assert [parse_clock(t) for t in ("22", "22:30", "7.05", "10pm", "12am")] == [
        1320, 1350, 425, 1320, 0]
    assert [parse_tz(t) for t in ("+2", "-5:30", "UTC+1", "0", "")] == [120, -330, 60, 0, 0]
    for bad in ("25", "noon", "7:75", "13pm"):
        with pytest.raises(TableError, match="isn't a time of day"):
            parse_clock(bad)
    for bad in ("+15", "east", "+2:99"):
        with pytest.raises(TableError, match="isn't a UTC offset"):
            parse_tz(bad)


async def test_prefs_persist_and_away_off_ends_ai_standins(tables: TableService):
    start = await started(tables, (A, B))
    await tables.set_quiet(A, 22 * 60, 7 * 60, 120)
    await tables.set_notify_near(A, True)
    await tables.hand_to_ai(start.record.id, "s1")
    prefs = await tables.set_away(A, True)
    assert (prefs.away, prefs.quiet_start, prefs.tz_minutes, prefs.notify_near) == (
        True, 1320, 120, True)
    assert (await tables.prefs(B)) == PlayerPrefs(user_id=B)
    await tables.set_away(A, False)
    seats = await tables.seats(start.record.id)
    assert not any(s.ai_standin for s in seats)
    with pytest.raises(TableError, match="tz_minutes"):
        await tables.set_quiet(A, 60, 120, 15 * 60)


# ---- reminders: quiet hours, vacations, enforced hand-over to the AI -----------------------------
async def test_quiet_hours_hold_the_reminder_until_they_end(
    tables: TableService, dispatcher: ReminderDispatcher, inbox: Inbox, clock: FakeClock,
):
    start = await started(tables, (A, B))
    gid = start.record.id
    # Quiet for the whole next day from now (UTC): the reminder must wait, not be lost.
    minute = int((clock.t // 60) % 1440)
    await tables.set_quiet(A, minute, (minute + 20 * 60) % 1440, 0)
    clock.advance(hours=13)
    assert await dispatcher.run_once() == []
    rec = await tables.get(gid)
    wake = (T0 // 60) * 60 + 20 * HOUR  # the window's end, on the minute
    assert rec.reminder_stage == 0 and rec.next_reminder_at == wake
    clock.t = wake
    await dispatcher.run_once()
    assert inbox.sent == [(gid, [A], "dm")]


async def test_away_player_is_never_reminded_and_nobody_else_is(
    tables: TableService, dispatcher: ReminderDispatcher, inbox: Inbox, clock: FakeClock,
):
    start = await started(tables, (A, B, C))
    gid = start.record.id
    await tables.set_away(A, True)
    for _ in range(4):
        clock.advance(hours=25)
        await dispatcher.run_once()
    assert inbox.sent == []  # A is awaited but away; B and C are not awaited
    assert (await tables.get(gid)).reminder_stage >= 3  # the timer still moved on
    await tables.set_away(A, False)
    clock.advance(hours=25)
    await dispatcher.run_once()
    assert inbox.sent == [(gid, [A], "daily")]


async def test_enforced_ai_takes_the_seat_until_its_player_acts_again(
    tables: TableService, dispatcher: ReminderDispatcher, inbox: Inbox, clock: FakeClock,
):
    start = await started(tables, (A, B), options={"rounds": 3})
    gid = start.record.id
    await tables.update_settings(gid, A, {"policy": "enforced", "enforce_with": "ai",
                                          "enforce_after_hours": 24})
    clock.advance(hours=24)
    sent = await dispatcher.run_once()
    assert [(s.stage, s.user_ids) for s in sent] == [("ai", [A])]
    assert inbox.sent == [(gid, [A], "ai")]
    seats = {s.seat: s for s in await tables.seats(gid)}
    assert seats["s1"].ai_standin and not seats["s2"].ai_standin
    # the AI wagered for s1 and answered the play prompt for it; only B is awaited now
    assert [r.seat for r in inbox.moves] == ["s1", "s1"]
    assert await tables.awaited(gid) == {"s2": B}
    # whenever s1 is awaited again the AI moves at once (the cog calls ai_turn after each move)
    state = await tables.state(gid)
    await tables.act(gid, B, act("play", card=hand(state, "s2")[0]))
    assert (await tables.awaited(gid)) == {"s2": B}  # round 2: B wagers (s2 is active)
    await tables.act(gid, B, act("wager", amount=2))
    res = await tables.ai_turn(gid)
    assert res is not None and res.seat == "s1" and res.action.kind == "play"
    assert await tables.ai_turn(gid) is None  # only B is awaited now
    # A comes back by using a command: the AI stops
    assert await tables.came_back(gid, A) == [gid]
    state = await tables.state(gid)
    await tables.act(gid, B, act("play", card=hand(state, "s2")[0]))
    assert await tables.awaited(gid) == {"s1": A}
    assert await tables.ai_turn(gid) is None


async def test_enforced_default_hands_an_away_player_to_the_ai(
    tables: TableService, dispatcher: ReminderDispatcher, inbox: Inbox, clock: FakeClock,
):
    start = await started(tables, (A, B))
    gid = start.record.id
    await tables.update_settings(gid, A, {"policy": "enforced", "enforce_after_hours": 24})
    await tables.set_away(A, True)
    clock.advance(hours=24)
    sent = await dispatcher.run_once()
    assert [s.stage for s in sent] == ["ai"]
    assert inbox.sent == []  # away: the DM is not sent either
    assert (await tables.seats(gid))[0].ai_standin


async def test_a_player_acting_again_takes_the_seat_back(tables: TableService):
    start = await started(tables, (A, B))
    gid = start.record.id
    await tables.hand_to_ai(gid, "s1")
    await tables.act(gid, A, act("wager", amount=1))
    assert not (await tables.seats(gid))[0].ai_standin


async def test_near_turn_tells_only_the_opted_in_next_player(tables: TableService):
    start = await started(tables, (A, B, C), options={"rounds": 2})
    gid = start.record.id
    await tables.set_notify_near(B, True)
    await tables.set_notify_near(C, True)
    res = await tables.act(gid, A, act("wager", amount=1))  # all three play now: no "next"
    assert await tables.near_turn(res) == []
    for seat, user in (("s1", A), ("s2", B)):
        res = await tables.act(gid, user, act("play", card=hand(start.state, seat)[0]))
        assert await tables.near_turn(res) == []  # an answer, not a new turn
    res = await tables.act(gid, C, act("play", card=hand(start.state, "s3")[0]))
    assert res.awaited == ["s2"]  # round 2: s2 wagers; s3 is next
    assert await tables.near_turn(res) == [C]
    await tables.set_away(C, True)
    assert await tables.near_turn(res) == []


# ---- substitutes and spectators ------------------------------------------------------------------
async def test_creator_replaces_a_player_at_once(tables: TableService):
    start = await started(tables, (A, B, C))
    gid = start.record.id
    res = await tables.replace(gid, A, B, D)
    assert res.done and res.seat == "s2"
    assert await tables.users_of(gid) == {"s1": A, "s2": D, "s3": C}
    state = await tables.state(gid)
    assert hand(state, "s2") == hand(start.state, "s2")  # the hand moved with the seat
    with pytest.raises(TableError, match="isn't seated"):
        await tables.replace(gid, A, B, 105)
    with pytest.raises(TableError, match="already has a seat"):
        await tables.replace(gid, A, D, C)
    # the creator handing their own seat over hands over running the table too
    await tables.replace(gid, A, A, 105)
    assert (await tables.get(gid)).created_by == 105


async def test_replacement_by_vote_carries_on_a_majority_of_the_other_seats(
    tables: TableService,
):
    start = await started(tables, (A, B, C, D))
    gid = start.record.id
    with pytest.raises(TableError, match="creator or its players"):
        await tables.replace(gid, 999, D, 105)
    first = await tables.replace(gid, B, D, 105)
    assert (first.done, first.votes, first.needed) == (False, 1, 2)
    other = await tables.replace(gid, C, D, 106)  # a vote for someone else doesn't add up
    assert not other.done and other.votes == 1
    assert (await tables.users_of(gid))["s4"] == D
    again = await tables.replace(gid, C, D, 105)  # C changes their vote
    assert again.done and (await tables.users_of(gid))["s4"] == 105
    with pytest.raises(TableError, match="hasn't started"):
        rec = await tables.create(1, 1, 9, "highcard", {}, A)
        await tables.replace(rec.id, A, A, B)


async def test_spectators_follow_but_cannot_hold_a_seat(tables: TableService):
    start = await started(tables, (A, B))
    gid = start.record.id
    assert await tables.spectate(gid, C)
    assert not await tables.spectate(gid, C)
    assert await tables.is_spectator(gid, C)
    with pytest.raises(TableError, match="You're playing"):
        await tables.spectate(gid, A)
    assert await tables.view(gid, C) == GAMES["highcard"].view(await tables.state(gid), None)
    assert await tables.legal_actions(gid, C) == []
    assert await tables.spectate(gid, C, follow=False)
    assert not await tables.is_spectator(gid, C)


async def test_rematch_same_seats_and_options_new_seed(tables: TableService, clock: FakeClock):
    start = await started(tables, (A, B, C), options={"rounds": 1}, seed=5)
    gid = start.record.id
    await tables.replace(gid, A, C, D)
    with pytest.raises(TableError, match="still going"):
        await tables.rematch(gid, A, 777)
    await tables.update_settings(gid, A, {"reminder_hours": 3})
    await tables.abandon(gid, A, False)
    with pytest.raises(TableError, match="Only the players"):
        await tables.rematch(gid, C, 777)  # C gave their seat away
    again = await tables.rematch(gid, B, 777, seed=6)
    assert again.record.rematch_of == gid and again.record.thread_id == 777
    assert again.users == {"s1": A, "s2": B, "s3": D}
    assert again.record.options == start.record.options
    assert again.record.settings.reminder_hours == 3
    assert again.record.seed == 6 and again.record.status == "active"
    assert hand(again.state, "s1") != hand(start.state, "s1")
    with pytest.raises(TableError, match="already has a rematch"):
        await tables.rematch(gid, A, 778)
    assert (await tables.game_in_thread(777)) == again.record


# ---- undo ----------------------------------------------------------------------------------------
class ShowCard(HighCard):
    """High Card where setting the wager shows the wagering seat's hand to the table (with no
    event saying so): the undo check must notice the secret in the public view."""

    name: ClassVar[str] = "showcard"

    def view(self, state: HighCardState, seat: str | None) -> dict[str, Any]:
        out = super().view(state, seat)
        if state.phase == "play":
            active = state.seats[state.active]
            out["shown"] = f"{active} holds {state.hands[active]}"
        return out

    def public_secrets(self, state: HighCardState) -> list[str]:
        return [f"{s} holds {h}" for s, h in state.hands.items()]


async def test_undo_refuses_a_move_that_put_a_secret_in_the_public_view(storage: SqliteStorage):
    tables = TableService(storage, {"showcard": ShowCard()})
    start = await started(tables, (A, B), game="showcard")
    await tables.act(start.record.id, A, act("wager", amount=1))
    with pytest.raises(TableError, match="revealed something hidden") as err:
        await tables.undo(start.record.id, A)
    assert err.value.rule == "TABLE-UNDO"


async def test_undo_refuses_an_event_flagged_as_a_reveal(storage: SqliteStorage):
    class FlagCard(HighCard):
        name: ClassVar[str] = "flagcard"

        def _apply(self, state: HighCardState, seat: str, action: Action) -> list[Event]:
            events = super()._apply(state, seat, action)
            return [*events, Event(kind="wager_told", text="told", data={"reveal": True})]

    tables = TableService(storage, {"flagcard": FlagCard()})
    start = await started(tables, (A, B), game="flagcard")
    await tables.act(start.record.id, A, act("wager", amount=1))
    with pytest.raises(TableError, match="revealed something to the table"):
        await tables.undo(start.record.id, A)


async def test_undo_bumps_the_epoch_so_versions_never_repeat_unseen(tables: TableService):
    start = await started(tables, (A, B))
    gid = start.record.id
    assert start.record.epoch == 0
    await tables.act(gid, A, act("wager", amount=3))
    undone = await tables.undo(gid, A)
    assert (undone.version, undone.record.epoch) == (0, 1)
    res = await tables.act(gid, A, act("wager", amount=1))
    assert (res.version, res.record.epoch) == (1, 1)  # version 1 again, but a new epoch


# ---- the log and the replay ----------------------------------------------------------------------
async def test_history_gives_each_step_its_events_and_replay_view_its_board(
    tables: TableService,
):
    start = await started(tables, (A, B), options={"rounds": 1})
    gid = start.record.id
    await tables.act(gid, A, act("wager", amount=2))
    await tables.act(gid, A, act("play", card=hand(start.state, "s1")[0]))
    entries = await tables.history(gid)
    assert [(e.seq, e.seat, e.user_id) for e in entries] == [(1, "s1", A), (2, "s1", A)]
    assert entries[0].events[0].text == "s1 sets the wager at 2."
    assert [e.audience for e in entries[1].events] == ["public", ["s1"]]
    assert len(await tables.history(gid, upto_seq=1)) == 1
    rec, view = await tables.replay_view(gid, 1)
    assert rec.id == gid and view["phase"] == "play" and "hand" not in view
    assert (await tables.replay_view(gid, 0))[1]["phase"] == "wager"
    for bad in (-1, 3):
        with pytest.raises(TableError, match=r"from 0 \(the deal\) to 2"):
            await tables.replay_view(gid, bad)


# ---- storage and state migrations ----------------------------------------------------------------
async def test_export_import_round_trip(tables: TableService, storage: SqliteStorage):
    start = await started(tables, (A, B))
    gid = start.record.id
    await tables.act(gid, A, act("wager", amount=2))
    stored = await storage.export_game(gid)
    copy = await storage.import_game(stored.model_validate_json(stored.model_dump_json()))
    assert copy.id != gid and copy.state_json == stored.game.state_json
    assert [s.user_id for s in await storage.seats(copy.id)] == [A, B]
    assert len(await storage.actions(copy.id)) == 1
    assert await tables.verify(copy.id)


def test_state_migrations_chain_by_schema_and_ignore_content_fingerprints():
    register_state_migration("highcard", "highcard-0", "highcard-05",
                             lambda d: {**d, "step05": True})
    register_state_migration("highcard", "highcard-05", "highcard-1",
                             lambda d: {**d, "step1": True})
    try:
        assert schema_of("exorcism-1+abc") == "exorcism-1"
        out = migrate_state("highcard", {}, "highcard-0+old", "highcard-1+new")
        assert out == {"step05": True, "step1": True}
        assert migrate_state("highcard", {"x": 1}, "highcard-1+a", "highcard-1+b") == {"x": 1}
        with pytest.raises(MigrationMissing):
            migrate_state("highcard", {}, "highcard-9", "highcard-1")
    finally:
        unregister_state_migration("highcard", "highcard-0")
        unregister_state_migration("highcard", "highcard-05")


async def test_a_game_stored_with_an_older_schema_is_migrated_on_load(
    tables: TableService, storage: SqliteStorage,
):
    start = await started(tables, (A, B))
    gid = start.record.id
    stored = await storage.export_game(gid)
    # What highcard-0 stored: the scores were called "points".
    old = json.loads(stored.game.state_json or "{}")
    old["points"] = old.pop("scores")
    game = stored.game.model_copy(update={"state_json": json.dumps(old),
                                          "engine_version": "highcard-0"})
    rec = await storage.import_game(stored.model_copy(update={"game": game}))

    def rename(data: dict[str, Any]) -> dict[str, Any]:
        data["scores"] = data.pop("points")
        return data

    with pytest.raises(TableError, match="older version of the bot") as err:
        await tables.state(rec.id)  # without its migration the old state cannot be read
    assert err.value.rule == "TABLE-VERSION"
    register_state_migration("highcard", "highcard-0", "highcard-1", rename)
    try:
        state = await tables.state(rec.id)
    finally:
        unregister_state_migration("highcard", "highcard-0")
    assert isinstance(state, HighCardState) and state.scores == {"s1": 0, "s2": 0}
    assert (await storage.get_game(rec.id)).engine_version == "highcard-1"  # type: ignore[union-attr]
    res = await tables.act(rec.id, A, act("wager", amount=1))
    assert res.version == 1


async def test_a_database_of_schema_1_upgrades_and_its_game_plays_on(tmp_path: Path):
    # Written by the schema-1 build (tests/fixtures/databases): a High Card game one move in.
    path = tmp_path / "old.db"
    shutil.copyfile(DATABASES / "schema-1.sqlite3", path)
    async with SqliteStorage(path) as upgraded:
        assert await upgraded.schema_version() == LATEST
        rec = await upgraded.get_game(1)
        assert rec is not None and (rec.epoch, rec.rematch_of, rec.version) == (0, None, 1)
        assert rec.settings.enforce_with == "default"
        assert not any(s.ai_standin for s in await upgraded.seats(1))
        tables = TableService(upgraded, GAMES, clock=FakeClock())
        res = await tables.play_ai(1, sorted(await tables.awaited(1))[0])
        assert res.version == 2 and await tables.verify(1)
