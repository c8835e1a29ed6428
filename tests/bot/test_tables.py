"""TableService on the tiny High Card game: lobby, play, locking, restart, replay, undo."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any, ClassVar

import pytest

from bot.storage import SqliteStorage
from bot.tables import StaleAction, TableError, TableService
from rules.core import Action, Event, IllegalAction
from rules.core.types import act
from tests.bot import CHANNEL, GAMES, GUILD, HOUR, FakeClock, lobby, started
from tests.tinygame import GAME, HighCard, HighCardState

A, B, C, D, E = 101, 102, 103, 104, 105


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "games.db"


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()



@pytest.fixture
def tables(storage: SqliteStorage, clock: FakeClock) -> TableService:
    return TableService(storage, GAMES, clock=clock, seed_source=lambda: 1234)


def hand(state: Any, seat: str) -> list[int]:
    assert isinstance(state, HighCardState)
    return list(state.hands[seat])


async def snapshot(storage: SqliteStorage, game_id: int) -> tuple[Any, ...]:
    rec = await storage.get_game(game_id)
    assert rec is not None
    return (rec.version, rec.state_json, rec.status, rec.next_reminder_at,
            [a.model_dump() for a in await storage.actions(game_id)])


# ---- lobby -----------------------------------------------------------------------------------
async def test_create_validates_game_and_options(tables: TableService):
    with pytest.raises(TableError, match="no game called “chess”") as err:
        await tables.create(GUILD, CHANNEL, 1, "chess", {}, A)
    assert err.value.rule == "TABLE-GAME"
    with pytest.raises(TableError, match="“rounds” must be a whole number from 1 to 5") as err:
        await tables.create(GUILD, CHANNEL, 1, "highcard", {"rounds": 9}, A)
    assert "you gave 9" in str(err.value) and err.value.rule == "TABLE-OPTIONS"
    with pytest.raises(TableError, match="“rounds” must be a whole number from 1 to 5"):
        await tables.create(GUILD, CHANNEL, 1, "highcard", {"rounds": "many"}, A)
    with pytest.raises(TableError, match="no option “speed”"):
        await tables.create(GUILD, CHANNEL, 1, "highcard", {"speed": 2}, A)
    with pytest.raises(TableError, match="“mode” must be one of: standard"):
        await tables.create(GUILD, CHANNEL, 1, "highcard", {"mode": "blitz"}, A)
    with pytest.raises(TableError, match=r"“reminder_hours” must be a number from 0\.25 to 168 "):
        await tables.create(GUILD, CHANNEL, 1, "highcard", {}, A, settings={"reminder_hours": 0})
    rec = await tables.create(GUILD, CHANNEL, 1, "highcard", {"rounds": 2}, A)
    assert rec.options == {"mode": "standard", "rounds": 2} and rec.status == "lobby"
    assert rec.engine_version == GAME.version and rec.created_by == A
    assert await tables.users_of(rec.id) == {"s1": A}
    assert await tables.list_games(GUILD) == [rec]
    assert await tables.game_in_thread(1) == rec


async def test_join_errors(tables: TableService):
    rec = await lobby(tables, (A, B))
    with pytest.raises(TableError, match=r"You are already seated in this game\."):
        await tables.join(rec.id, B)
    with pytest.raises(TableError, match="already seated"):
        await tables.join(rec.id, A)
    await tables.join(rec.id, C)
    await tables.join(rec.id, D)
    with pytest.raises(TableError, match=r"This table is full \(4 seats\)") as err:
        await tables.join(rec.id, E)
    assert err.value.rule == "TABLE-FULL"
    with pytest.raises(TableError, match="no such game"):
        await tables.join(999, A)


async def test_leave_and_creator_handover(tables: TableService):
    rec = await lobby(tables, (A, B, C))
    with pytest.raises(TableError, match="not seated"):
        await tables.leave(rec.id, D)
    after = await tables.leave(rec.id, B)
    assert after.created_by == A and await tables.users_of(rec.id) == {"s1": A, "s3": C}
    after = await tables.leave(rec.id, A)  # the creator leaves: C runs the table now
    assert after.created_by == C and after.status == "lobby"
    with pytest.raises(TableError, match="Only the player who created"):
        await tables.start(rec.id, A)
    after = await tables.leave(rec.id, C)  # the last one out: the lobby is abandoned
    assert after.status == "abandoned"
    with pytest.raises(TableError, match="over"):
        await tables.join(rec.id, A)


async def test_start_errors_and_seat_order(tables: TableService):
    rec = await lobby(tables, (A,))
    with pytest.raises(TableError, match="needs 2 to 4 players; 1 is seated") as err:
        await tables.start(rec.id, A)
    assert err.value.rule == "TABLE-COUNT"
    await tables.join(rec.id, B)
    await tables.join(rec.id, C)
    with pytest.raises(TableError, match="Only the player who created this game can start it"):
        await tables.start(rec.id, B)
    with pytest.raises(TableError, match="seed"):
        await tables.start(rec.id, A, seed=-1)
    await tables.leave(rec.id, B)  # C moves up to s2 at the start
    res = await tables.start(rec.id, A)
    assert res.users == {"s1": A, "s2": C}
    assert res.record.seed == 1234 and res.record.status == "active" and res.version == 0
    assert res.awaited == ["s1"] and res.awaited_users == {"s1": A}
    assert [e.kind for e in res.events] == ["start"]
    assert res.state.model_dump_json() == GAME.setup(
        ["s1", "s2"], GAME.options_model(), 1234).model_dump_json()
    assert await tables.seat_of(rec.id, C) == "s2" and res.result is None
    with pytest.raises(TableError, match="already started"):
        await tables.start(rec.id, A)
    with pytest.raises(TableError, match="already started"):
        await tables.join(rec.id, D)
    with pytest.raises(TableError, match="can't leave"):
        await tables.leave(rec.id, C)


async def test_start_with_a_chosen_first_seat(tables: TableService):
    rec = await lobby(tables, (A, B, C))
    with pytest.raises(TableError, match="isn't seated"):
        await tables.start(rec.id, A, first_user_id=D)
    res = await tables.start(rec.id, A, seed=4, first_user_id=C)
    assert res.users == {"s1": C, "s2": A, "s3": B}
    assert await tables.users_of(rec.id) == res.users
    assert res.awaited_users == {"s1": C}
    await tables.act(rec.id, C, act("wager", amount=1))
    assert await tables.verify(rec.id)


async def test_ai_seats(tables: TableService):
    rec = await lobby(tables, (A,))
    with pytest.raises(TableError, match="created this game can add AI"):
        await tables.add_ai(rec.id, B)
    ai = await tables.add_ai(rec.id, A)
    assert ai.is_ai and ai.seat == "s2"
    await tables.add_ai(rec.id, A)
    await tables.remove_ai(rec.id, A, "s3")
    with pytest.raises(TableError, match="no AI player in seat s1"):
        await tables.remove_ai(rec.id, A, "s1")
    res = await tables.start(rec.id, A, seed=3)
    assert res.users == {"s1": A, "s2": None}
    await tables.act(rec.id, A, act("wager", amount=2))
    out = await tables.play_ai(rec.id, "s2")
    assert out.seat == "s2" and out.version == 2
    [logged] = await tables.storage.actions(rec.id, after_seq=1)
    assert logged.user_id is None


# ---- acting ----------------------------------------------------------------------------------
async def test_act_refusals(tables: TableService, storage: SqliteStorage):
    rec = await lobby(tables, (A, B))
    with pytest.raises(TableError, match="hasn't started yet") as err:
        await tables.act(rec.id, A, act("wager", amount=1))
    assert err.value.rule == "TABLE-LOBBY"
    await tables.start(rec.id, A, seed=5)
    with pytest.raises(TableError, match="You're not playing in this game") as err:
        await tables.act(rec.id, C, act("wager", amount=1))
    assert err.value.rule == "TABLE-NOT-SEATED"
    before = await snapshot(storage, rec.id)
    with pytest.raises(IllegalAction) as illegal:  # not B's turn: the engine says so
        await tables.act(rec.id, B, act("wager", amount=1))
    assert illegal.value.rule == "CORE-TURN" and not isinstance(illegal.value, TableError)
    with pytest.raises(IllegalAction, match="Set the wager"):
        await tables.act(rec.id, A, act("wager", amount=7))
    assert await snapshot(storage, rec.id) == before  # nothing persisted
    assert await tables.verify(rec.id)


async def test_act_persists_action_and_state_together(
    tables: TableService, storage: SqliteStorage, clock: FakeClock,
):
    start = await started(tables, (A, B), seed=11)
    gid = start.record.id
    clock.advance(hours=1)
    res = await tables.act(gid, A, act("wager", amount=3), expected_version=0)
    assert (res.seat, res.version, res.record.version, res.state.step) == ("s1", 1, 1, 1)
    assert res.awaited == ["s1", "s2"] and res.awaited_users == {"s1": A, "s2": B}
    assert res.newly_awaited == ["s1", "s2"]
    assert res.result is None and [e.text for e in res.events] == ["s1 sets the wager at 3."]
    rec = await storage.get_game(gid)
    assert rec is not None and rec.state_json == res.state.model_dump_json()
    assert rec.next_reminder_at == clock() + 12 * HOUR and rec.reminder_stage == 0
    [logged] = await storage.actions(gid)
    assert (logged.seq, logged.seat, logged.user_id, logged.at) == (1, "s1", A, clock())
    assert Action.model_validate_json(logged.action_json) == act("wager", amount=3)
    card = hand(res.state, "s2")[0]
    out = await tables.act(gid, B, act("play", card=card))
    private = [e for e in out.events if not e.public]
    assert [e.audience for e in private] == [["s2"]]
    assert out.awaited == ["s1"] and out.newly_awaited == []  # s1 was already awaited


async def test_stale_expected_version_is_refused(tables: TableService, storage: SqliteStorage):
    start = await started(tables, (A, B))
    gid = start.record.id
    await tables.act(gid, A, act("wager", amount=1), expected_version=0)
    before = await snapshot(storage, gid)
    with pytest.raises(StaleAction, match="earlier turn") as err:  # a double click
        await tables.act(gid, A, act("wager", amount=2), expected_version=0)
    assert err.value.current_version == 1 and isinstance(err.value, TableError)
    with pytest.raises(StaleAction):  # a version from the future (after an undo)
        await tables.act(gid, A, act("play", card=hand(start.state, "s1")[0]),
                         expected_version=5)
    assert await snapshot(storage, gid) == before
    card = hand(start.state, "s1")[0]
    await tables.act(gid, A, act("play", card=card), expected_version=1)
    with pytest.raises(StaleAction):  # the same seat already answered this prompt
        await tables.act(gid, A, act("play", card=hand(start.state, "s1")[1]),
                         expected_version=1)
    with pytest.raises(StaleAction):  # bot moves are checked strictly
        await tables.act_as_seat(gid, "s2", act("play", card=hand(start.state, "s2")[0]),
                                 expected_version=1)


async def test_simultaneous_answers_are_serialised_and_both_land(
    tables: TableService, storage: SqliteStorage,
):
    start = await started(tables, (A, B, C))
    gid = start.record.id
    await tables.act(gid, A, act("wager", amount=2))
    # All three answer the one "play" prompt at once, with buttons made at version 1.
    plays = [act("play", card=hand(start.state, s)[0]) for s in ("s1", "s2", "s3")]
    results = await asyncio.gather(*(tables.act(gid, u, p, expected_version=1)
                                     for u, p in zip((A, B, C), plays, strict=True)))
    assert sorted(r.version for r in results) == [2, 3, 4]
    assert [a.seq for a in await storage.actions(gid)] == [1, 2, 3, 4]
    final = max(results, key=lambda r: r.version)
    assert any(e.kind == "reveal" for e in final.events)
    assert final.awaited == ["s2"]  # round 2: the next seat sets the wager
    assert await tables.verify(gid)


async def test_concurrent_acts_on_one_game_never_interleave(
    tables: TableService, monkeypatch: pytest.MonkeyPatch,
):
    start = await started(tables, (A, B))
    gid = start.record.id
    await tables.act(gid, A, act("wager", amount=1))
    inside = 0
    peak = 0
    real = tables.storage.append_action

    async def slow_append(*args: Any, **kwargs: Any) -> Any:
        nonlocal inside, peak
        inside += 1
        peak = max(peak, inside)
        await asyncio.sleep(0.01)
        try:
            return await real(*args, **kwargs)
        finally:
            inside -= 1

    monkeypatch.setattr(tables.storage, "append_action", slow_append)
    first, second = await asyncio.gather(
        tables.act(gid, A, act("play", card=hand(start.state, "s1")[0])),
        tables.act(gid, B, act("play", card=hand(start.state, "s2")[0])))
    assert (first.version, second.version) == (2, 3) and peak == 1


async def test_two_games_do_not_block_each_other(tables: TableService):
    one = await started(tables, (A, B), thread=1)
    two = await started(tables, (A, C), thread=2)
    async with tables.lock(one.record.id):
        res = await asyncio.wait_for(
            tables.act(two.record.id, A, act("wager", amount=1)), timeout=2)
        assert res.version == 1
        blocked = asyncio.create_task(tables.act(one.record.id, A, act("wager", amount=1)))
        await asyncio.sleep(0.02)
        assert not blocked.done()  # this game waits for its own lock
    assert (await blocked).version == 1


async def test_restart_continues_the_game(db_path: Path, clock: FakeClock):
    first = SqliteStorage(db_path)
    await first.open()
    t1 = TableService(first, GAMES, clock=clock)
    start = await started(t1, (A, B), seed=99, options={"rounds": 1})
    gid = start.record.id
    await t1.act(gid, A, act("wager", amount=2))
    await t1.act(gid, A, act("play", card=hand(start.state, "s1")[0]))
    await first.close()  # the bot restarts

    second = SqliteStorage(db_path)
    await second.open()
    t2 = TableService(second, GAMES, clock=clock)
    assert (await t2.get(gid)).version == 2
    assert await t2.awaited(gid) == {"s2": B}
    res = await t2.act(gid, B, act("play", card=hand(start.state, "s2")[0]),
                       expected_version=2)
    assert res.result is not None and res.record.status == "over"
    assert res.awaited == [] and res.record.next_reminder_at is None
    with pytest.raises(TableError, match="over"):
        await t2.act(gid, A, act("wager", amount=1))
    assert await t2.legal_actions(gid, A) == []
    assert await t2.verify(gid)
    await second.close()


async def test_replay_equals_stored_state(tables: TableService, storage: SqliteStorage):
    start = await started(tables, (A, B, C), seed=2024)
    gid = start.record.id
    states = {0: start.state}
    users = {"s1": A, "s2": B, "s3": C}
    state: Any = start.state
    while GAME.result(state) is None:  # play the whole game through the service
        seat = sorted(GAME.to_act(state))[0]
        res = await tables.act(gid, users[seat], GAME.legal_actions(state, seat)[-1])
        state = states[res.version] = res.state
    assert (await tables.get(gid)).status == "over"
    assert await tables.verify(gid)
    for v in (0, 1, 5, len(states) - 1):
        replayed = await tables.replay(gid, v)
        assert replayed.model_dump_json() == states[v].model_dump_json()
    # a tampered state no longer matches its log
    rec = await storage.get_game(gid)
    assert rec is not None and rec.state_json is not None
    await storage.rewrite_state(gid, rec.version, rec.state_json.replace('"round":3', '"round":2'),
                                rec.engine_version, 0.0)
    assert not await tables.verify(gid)


async def test_views_and_reads(tables: TableService):
    start = await started(tables, (A, B))
    gid = start.record.id
    mine = await tables.view(gid, A)
    assert mine["hand"] == hand(start.state, "s1")
    public = await tables.view(gid, None)
    assert "hand" not in public and "hand" not in await tables.view(gid, C)
    assert await tables.legal_actions(gid, A) == [act("wager", amount=n) for n in (1, 2, 3)]
    assert await tables.legal_actions(gid, B) == [] and await tables.legal_actions(gid, C) == []
    assert (await tables.state(gid)).step == 0
    assert await tables.users_of(gid) == {"s1": A, "s2": B}
    assert await tables.seat_of(gid, C) is None
    await tables.set_dms_ok(gid, A, True)
    assert [s.dms_ok for s in await tables.seats(gid)] == [True, False]
    await tables.set_board_message(gid, 777)
    assert (await tables.get(gid)).board_message_id == 777


async def test_state_cache_avoids_reparsing_but_sees_outside_writes(
    tables: TableService, storage: SqliteStorage, monkeypatch: pytest.MonkeyPatch,
):
    start = await started(tables, (A, B))
    gid = start.record.id
    loads: list[int] = []
    real = GAME.load_state

    def counting(data: str | bytes) -> HighCardState:
        loads.append(1)
        return real(data)

    monkeypatch.setattr(GAME, "load_state", counting)
    await tables.act(gid, A, act("wager", amount=1))
    await tables.view(gid, A)
    await tables.act(gid, A, act("play", card=hand(start.state, "s1")[0]))
    assert loads == []
    # another writer changes the stored state at the same version: it is reloaded
    rec = await storage.get_game(gid)
    assert rec is not None and rec.state_json is not None
    changed = rec.state_json.replace('"wager":1', '"wager":3')
    await storage.rewrite_state(gid, rec.version, changed, rec.engine_version, 0.0)
    assert (await tables.view(gid, None))["wager"] == 3 and loads == [1]


# ---- management --------------------------------------------------------------------------
async def test_abandon_and_settings_permissions(tables: TableService):
    start = await started(tables, (A, B))
    gid = start.record.id
    with pytest.raises(TableError, match="moderator"):
        await tables.abandon(gid, B, can_manage_threads=False)
    with pytest.raises(TableError, match="moderator"):
        await tables.update_settings(gid, B, {"policy": "enforced"})
    with pytest.raises(TableError, match="no setting “colour”"):
        await tables.update_settings(gid, A, {"colour": "red"})
    with pytest.raises(TableError, match="“policy” must be one of: advisory, enforced"):
        await tables.update_settings(gid, A, {"policy": "strict"})
    settings = await tables.update_settings(gid, B, {"policy": "enforced",
                                                     "enforce_after_hours": 30},
                                            can_manage_threads=True)
    assert settings == {"reminder_hours": 12, "policy": "enforced", "enforce_after_hours": 30,
                        "enforce_with": "default", "ai_level": "normal"}
    assert (await tables.get(gid)).settings.policy == "enforced"
    rec = await tables.abandon(gid, B, can_manage_threads=True)
    assert rec.status == "abandoned" and rec.next_reminder_at is None
    with pytest.raises(TableError, match="abandoned"):
        await tables.act(gid, A, act("wager", amount=1))
    with pytest.raises(TableError, match="already over"):
        await tables.abandon(gid, A, can_manage_threads=False)
    other = await started(tables, (A, B), thread=2)
    ended = await tables.mark_abandoned(other.record.id, "its thread was deleted")
    assert ended is not None and ended.status == "abandoned" and ended.next_reminder_at is None
    assert await tables.mark_abandoned(other.record.id, "again") == ended
    assert await tables.mark_abandoned(999, "no such game") is None


async def test_play_default_only_for_awaited_seats(tables: TableService):
    start = await started(tables, (A, B))
    gid = start.record.id
    assert await tables.play_default(gid, "s2") is None  # s2 is not awaited
    res = await tables.play_default(gid, "s1", expected_version=0)
    assert res is not None and res.action == act("wager", amount=1)
    assert await tables.play_default(gid, "s2", expected_version=0) is None  # stale
    with pytest.raises(TableError, match="no seat s9"):
        await tables.act_as_seat(gid, "s9", act("wager", amount=1))


# ---- undo ------------------------------------------------------------------------------------
async def test_undo_own_last_public_decision(
    tables: TableService, storage: SqliteStorage, clock: FakeClock,
):
    start = await started(tables, (A, B))
    gid = start.record.id
    with pytest.raises(TableError, match="nothing to undo"):
        await tables.undo(gid, A)
    await tables.act(gid, A, act("wager", amount=3))
    with pytest.raises(TableError, match="Only the player who made the last move"):
        await tables.undo(gid, B)
    with pytest.raises(TableError, match="not playing"):
        await tables.undo(gid, C)
    clock.advance(hours=2)
    undone = await tables.undo(gid, A)
    assert (undone.version, undone.seat, undone.undone) == (0, "s1", act("wager", amount=3))
    assert undone.state.model_dump_json() == start.state.model_dump_json()
    assert undone.awaited_users == {"s1": A}
    rec = await storage.get_game(gid)
    assert rec is not None and rec.version == 0 and await storage.actions(gid) == []
    assert rec.next_reminder_at == clock() + 12 * HOUR
    res = await tables.act(gid, A, act("wager", amount=1))  # play on from the undone point
    assert res.version == 1 and await tables.verify(gid)


async def test_undo_refused_after_reveal_or_another_seat(tables: TableService):
    start = await started(tables, (A, B))
    gid = start.record.id
    await tables.act(gid, A, act("wager", amount=1))
    await tables.act(gid, A, act("play", card=hand(start.state, "s1")[0]))
    with pytest.raises(TableError, match="revealed hidden information") as err:
        await tables.undo(gid, A)  # the play told s1 something privately
    assert err.value.rule == "TABLE-UNDO"
    await tables.act(gid, B, act("play", card=hand(start.state, "s2")[0]))
    with pytest.raises(TableError, match="Only the player who made the last move"):
        await tables.undo(gid, A)  # never across another seat's action
    with pytest.raises(TableError, match="revealed"):
        await tables.undo(gid, B)  # the reveal
    await tables.play_default(gid, "s2")
    with pytest.raises(TableError, match="made by the bot"):
        await tables.undo(gid, B)


class DiceCard(HighCard):
    """High Card whose wager is rolled (uses the RNG) and whose plays may be undone."""

    name: ClassVar[str] = "dicecard"

    def _apply(self, state: HighCardState, seat: str, action: Action) -> list[Event]:
        if state.phase == "wager":
            state.rng.next_u64()
        return super()._apply(state, seat, action)

    def undo_refusal(self, before: Any, seat: str, action: Action, after: Any,
                     events: list[Event]) -> str | None:
        return "Reveals can't be undone." if any(e.kind == "reveal" for e in events) else None


async def test_undo_refused_after_random_draw_and_game_hook(storage: SqliteStorage):
    dice = DiceCard()
    tables = TableService(storage, {"dicecard": dice})
    start = await started(tables, (A, B), game="dicecard")
    gid = start.record.id
    await tables.act(gid, A, act("wager", amount=1))
    with pytest.raises(TableError, match="dice or a shuffle"):
        await tables.undo(gid, A)
    await tables.act(gid, B, act("play", card=hand(start.state, "s2")[0]))
    undone = await tables.undo(gid, B)  # the game's hook allows a private-event play
    assert undone.version == 1
    await tables.act(gid, B, act("play", card=hand(start.state, "s2")[0]))
    await tables.act(gid, A, act("play", card=hand(start.state, "s1")[0]))
    with pytest.raises(TableError, match="Reveals can't be undone"):
        await tables.undo(gid, A)


# ---- engine versions -------------------------------------------------------------------------
class HighCardV2(HighCard):
    version: ClassVar[str] = "highcard-2"
    seen: ClassVar[list[str]] = []

    def migrate_state(self, data: dict[str, Any], from_version: str) -> dict[str, Any]:
        self.seen.append(from_version)
        data["scores"] = {s: v + 100 for s, v in data["scores"].items()}
        return data


class HighCardV3(HighCard):
    version: ClassVar[str] = "highcard-3"


async def test_old_game_is_migrated_on_load(
    tables: TableService, storage: SqliteStorage, caplog: pytest.LogCaptureFixture,
):
    HighCardV2.seen.clear()  # the class outlives one backend's run of this test
    start = await started(tables, (A, B))
    gid = start.record.id
    await tables.act(gid, A, act("wager", amount=2))
    caplog.set_level(logging.INFO, logger="bot.tables")
    upgraded = TableService(storage, {"highcard": HighCardV2()})  # a deploy mid-game
    assert (await upgraded.view(gid, None))["scores"] == {"s1": 100, "s2": 100}
    assert HighCardV2.seen == ["highcard-1"]
    rec = await storage.get_game(gid)
    assert rec is not None and rec.engine_version == "highcard-2" and rec.version == 1
    assert "migrating state from highcard-1 to highcard-2" in caplog.text
    again = TableService(storage, {"highcard": HighCardV2()})
    await again.view(gid, None)
    assert HighCardV2.seen == ["highcard-1"]  # migrated once
    res = await again.act(gid, A, act("play", card=hand(start.state, "s1")[0]))
    assert res.version == 2
    # no hook: loaded as-is, and logged
    plain = TableService(storage, {"highcard": HighCardV3()})
    assert (await plain.state(gid)).step == 2
    assert "loading as-is" in caplog.text
    # the log was recorded by an older engine: undo refuses rather than guess
    with pytest.raises(TableError, match="can't be replayed exactly"):
        await plain.undo(gid, A)


# ---- the AI's turns ----------------------------------------------------------------------------
async def test_the_ai_thinks_without_the_games_lock_and_looks_again_when_stale(
    tables: TableService, monkeypatch: pytest.MonkeyPatch,
):
    """The AI's decision is awaited with the game's lock free: a player's move meanwhile goes
    through, the AI's choice for the older state is stale, and the AI decides again."""
    rec = await lobby(tables, (A,))
    await tables.add_ai(rec.id, A)
    await tables.start(rec.id, A, seed=3)
    await tables.act(rec.id, A, act("wager", amount=2))  # now both seats play a card at once
    asked: list[tuple[int, str, str]] = []

    async def decide(game: Any, state: Any, seat: str, level: str) -> Action:
        asked.append((state.step, seat, level))
        assert not tables.lock(rec.id).locked()  # other moves may go through meanwhile
        if len(asked) == 1:
            await tables.act(rec.id, A, act("play", card=hand(state, "s1")[0]))
        return game.ai_action(state, seat, "easy")

    monkeypatch.setattr("bot.aipool.decide", decide)
    res = await tables.ai_turn(rec.id)
    assert res is not None and res.seat == "s2" and res.version == 3
    # The first decision (at step 1) went stale under A's card; the second saw it.
    assert asked == [(1, "s2", "normal"), (2, "s2", "normal")]
    [ai_move] = await tables.storage.actions(rec.id, after_seq=2)
    assert ai_move.seat == "s2" and ai_move.user_id is None


class Dithering(HighCard):
    """High Card where the wager can be put off: "think again" changes nothing but the step, so
    an AI that always thinks again goes round in a circle (as the Exorcism's Remote Trade,
    called off and back in hand, did at normal)."""

    name: ClassVar[str] = "dithering"

    def legal_actions(self, state: HighCardState, seat: str) -> list[Action]:
        out = super().legal_actions(state, seat)
        return [*out, act("think_again")] if state.phase == "wager" and out else out

    def _apply(self, state: HighCardState, seat: str, action: Action) -> list[Event]:
        if action.kind == "think_again" and state.phase == "wager":
            return [Event(kind="think", text=f"{seat} thinks again.")]
        return super()._apply(state, seat, action)


@pytest.mark.ai_circle
async def test_an_ai_going_round_in_a_circle_plays_the_default_and_the_game_ends(
    storage: SqliteStorage, clock: FakeClock, monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
):
    """CORE-TURN: an AI that makes the same choice among the same options again and again
    (`AI_LOOP_REPEATS` times in its game's last `AI_LOOP_WINDOW` AI moves) plays the game's
    default instead, so a table of AI seats always reaches the end."""
    from bot.tables import AI_LOOP_REPEATS

    tables = TableService(storage, {"dithering": Dithering()}, clock=clock)

    async def decide(game: Any, state: Any, seat: str, level: str) -> Action:
        legal = game.legal_actions(state, seat)
        return act("think_again") if act("think_again") in legal else legal[-1]

    monkeypatch.setattr("bot.aipool.decide", decide)
    rec = await lobby(tables, (A,), game="dithering")
    await tables.add_ai(rec.id, A)
    await tables.start(rec.id, A, seed=3)
    await tables.hand_to_ai(rec.id, "s1")  # every seat is the AI's now
    played = []
    with caplog.at_level(logging.WARNING, logger="bot.tables"):
        for _ in range(100):
            res = await tables.ai_turn(rec.id)
            if res is None:
                break
            played.append(res)
    assert played and played[-1].result is not None  # the game ended
    kinds = [Action.model_validate_json(a.action_json).kind
             for a in await tables.storage.actions(rec.id)]
    # Each wager: thought again AI_LOOP_REPEATS - 1 times, then the default (the first wager).
    assert kinds[:AI_LOOP_REPEATS] == ["think_again"] * (AI_LOOP_REPEATS - 1) + ["wager"]
    assert kinds.count("wager") == 3 and kinds.count("play") == 6
    assert "going round in a circle" in caplog.text
    assert rec.id not in tables._ai_trail  # the game's trail goes with its end


class Gathering(HighCard):
    """High Card where a seat may gather a point before the wager, up to `LIMIT` times: each
    gathering changes the scores (in every view), so choosing it again and again, among the
    same options, is progress, not a circle (as an Exorcism investigator using the Supply Room
    turn after turn). `LIMIT` None: gathering for ever (a circle whose laps each change
    something the seat sees)."""

    name: ClassVar[str] = "gathering"
    LIMIT: ClassVar[int | None] = 12

    def legal_actions(self, state: HighCardState, seat: str) -> list[Action]:
        out = super().legal_actions(state, seat)
        more = self.LIMIT is None or state.scores[seat] < self.LIMIT
        return [*out, act("gather")] if state.phase == "wager" and out and more else out

    def _apply(self, state: HighCardState, seat: str, action: Action) -> list[Event]:
        if action.kind == "gather" and state.phase == "wager":
            state.scores[seat] += 1
            return [Event(kind="gather", text=f"{seat} gathers a point.")]
        return super()._apply(state, seat, action)


class Hoarding(Gathering):
    name: ClassVar[str] = "hoarding"
    LIMIT: ClassVar[int | None] = None


@pytest.mark.ai_circle
@pytest.mark.parametrize("engine", [Gathering(), Hoarding()])
async def test_the_loop_guard_spares_a_choice_repeated_as_the_game_moves_on(
    storage: SqliteStorage, clock: FakeClock, monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture, engine: Gathering,
):
    """CORE-TURN, stop 60: the same choice among the same options is not a circle while the
    game moves on (the seat's view changes each time): all twelve gatherings stand, where the
    guard once played the default (the first wager) at the sixth. A circle that changes
    what the seat sees every lap still ends: `AI_LOOP_LOOSE` same choices in the window."""
    from bot.tables import AI_LOOP_LOOSE

    tables = TableService(storage, {engine.name: engine}, clock=clock)
    gathered = engine.LIMIT if engine.LIMIT is not None else AI_LOOP_LOOSE - 1

    async def decide(game: Any, state: Any, seat: str, level: str) -> Action:
        legal = game.legal_actions(state, seat)
        return act("gather") if act("gather") in legal else legal[-1]

    monkeypatch.setattr("bot.aipool.decide", decide)
    rec = await lobby(tables, (A,), game=engine.name)
    await tables.add_ai(rec.id, A)
    await tables.start(rec.id, A, seed=3)
    await tables.hand_to_ai(rec.id, "s1")
    with caplog.at_level(logging.WARNING, logger="bot.tables"):
        for _ in range(60):
            res = await tables.ai_turn(rec.id)
            if res is None or res.result is not None:
                break
    kinds = [Action.model_validate_json(a.action_json).kind
             for a in await tables.storage.actions(rec.id)]
    assert kinds[:gathered + 1] == ["gather"] * gathered + ["wager"], kinds
    assert ("going round in a circle" in caplog.text) == (engine.LIMIT is None)


async def test_the_ai_plays_at_the_tables_level(
    tables: TableService, monkeypatch: pytest.MonkeyPatch,
):
    levels: list[str] = []

    async def decide(game: Any, state: Any, seat: str, level: str) -> Action:
        levels.append(level)
        return game.ai_action(state, seat, "easy")

    monkeypatch.setattr("bot.aipool.decide", decide)
    rec = await tables.create(GUILD, CHANNEL, 1, "highcard", {}, A, settings={"ai_level": "hard"})
    assert rec.settings.ai_level == "hard"
    await tables.add_ai(rec.id, A)
    await tables.start(rec.id, A, seed=3)
    await tables.act(rec.id, A, act("wager", amount=1))
    assert await tables.ai_turn(rec.id) is not None
    await tables.update_settings(rec.id, A, {"ai_level": "easy"})
    # A stand-in for an absent player plays at the table's level too.
    await tables.hand_to_ai(rec.id, "s1")
    assert await tables.ai_turn(rec.id) is not None
    assert levels == ["hard", "easy"]
    with pytest.raises(TableError, match="ai_level"):
        await tables.update_settings(rec.id, A, {"ai_level": "grandmaster"})
    # A new table takes the service's default (`DEFAULT_AI_LEVEL`), normal unless set.
    assert (await tables.create(GUILD, CHANNEL, 2, "highcard", {}, B)).settings.ai_level == \
        "normal"
    quick = TableService(tables.storage, GAMES, clock=tables.clock, ai_level="easy")
    assert (await quick.create(GUILD, CHANNEL, 4, "highcard", {}, C)).settings.ai_level == "easy"


def test_told_once_says_a_run_of_one_line_once_with_its_count() -> None:
    """FW-AMB-11: a free Trade window filled a board post with five lines alike ("The
    Salvager trades a Marble with The Bruiser."): one line with its count, the rest as was."""
    from cogs.utils.table.words import told_once

    lines = ["The Salvager Regroups.", *["The Salvager trades a Marble with The Bruiser."] * 5,
             "The Bruiser is knocked out!", "A presence die moves into the Salon.",
             "A presence die moves into the Salon.", "Round 3 begins"]
    assert told_once(lines) == [
        ("The Salvager Regroups.", 1),
        ("The Salvager trades 5 Marbles with The Bruiser.", 5),
        ("The Bruiser is knocked out!", 1),
        ("A presence die moves into the Salon (2 times).", 2),
        ("Round 3 begins", 1)]
    assert told_once([]) == []


def test_a_team_line_names_who_else_sees_it_in_one_list() -> None:
    """FW-VIS-06: a team's private news says who else reads it. Stop 61's five-player demo
    read "(only you and AI Ember, AI Moth and AI Raven see this)": one list, one "and"."""
    from cogs.utils.table.dms import seen_by
    from tests.e2e.words import raw_words

    said = seen_by(["AI Ember", "AI Moth", "AI Raven"])
    assert said == "only you, AI Ember, AI Moth and AI Raven see this"
    assert seen_by(["Bea"]) == "only you and Bea see this"
    assert not raw_words(f"The Steadfast draws Force Marble. ({said})")


def test_FW_VIS_06_news_all_shared_alike_says_who_else_sees_it_once_in_its_head() -> None:
    """Stop 67's demo read: every line of a team's private news ended "(only you, AI Moth
    and AI Shade see this)", five times a DM. Lines shared alike say it once, in the news'
    head; a DM found again after a restart reads the lines back whole; mixed news keeps each
    line's own."""
    from cogs.utils.table.summaries import NEWS_HEAD, last_news, last_summary, news_block

    team = "(only you, AI Moth and AI Shade see this)"
    news = [f"The Rallier draws a Holy Symbol. {team}",
            f"The Salvager draws a Clue Marble. {team}"]
    block = news_block(news, 2000)
    assert block.count("see") == 1, block
    assert block.splitlines() == [
        "Your private news (newest last; only you, AI Moth and AI Shade see it):",
        "• The Rallier draws a Holy Symbol.", "• The Salvager draws a Clue Marble."]
    dm = f"**Head**\n{block}\n\nThe hands."
    assert last_news(dm) == news and last_summary(dm) == "The hands."
    mixed = [*news, "You draw The Candle."]
    block = news_block(mixed, 2000)
    assert block.splitlines()[0] == NEWS_HEAD and block.count("see this") == 2
    assert last_news(f"**Head**\n{block}\n\nThe hands.") == mixed

