"""The AI decides in worker processes (`bot.aipool`): the same action `Game.ai_action` chooses,
the bot's event loop free meanwhile, and a worker that dies or overruns costs the move its
search, never the move."""

from __future__ import annotations

import asyncio
import functools
import logging
import os
import signal
from collections.abc import Iterator

import pytest

from bot import aipool, renderpool
from rules.core.game import GameState
from rules.registry import GAMES
from tests.tinygame import GAME as HIGHCARD

# Measures the event loop's lag or a wall-clock bound: under `pytest -n` these tests run
# on one worker, one at a time (`--dist loadgroup`), never beside each other.
pytestmark = pytest.mark.xdist_group("timing")

SLACK = 60.0
"""A decision's time allowed where a test compares answers: a shared test machine can take
several times the search's CPU budget in wall time (the fallback has its own test)."""


@pytest.fixture(autouse=True)
def _fresh_pool() -> Iterator[None]:
    yield
    aipool.shutdown()


@functools.cache
def _midgame(name: str = "fourth_wall", moves: int = 12) -> tuple[GameState, str]:
    """A Fourth Wall Conflict game some moves in (the easy AI on every seat), and its awaited
    seat."""
    game = GAMES[name]
    state = game.setup(["s1", "s2", "s3"], game.options_model(mode="conflict"), 11)
    for _ in range(moves):
        seat = sorted(game.to_act(state))[0]
        state = game.apply(state, seat, game.ai_action(state, seat, "easy")).state
    return state, sorted(game.to_act(state))[0]


async def test_the_worker_chooses_what_the_engine_chooses() -> None:
    game = GAMES["fourth_wall"]
    state, seat = _midgame()
    for level in ("easy", "normal"):
        decided = await aipool.decide(game, state, seat, level, timeout=SLACK)
        assert decided.key() == game.ai_action(state, seat, level).key()
    [pid] = aipool.live_pids()  # one AI worker by default
    assert pid != os.getpid() and pid not in renderpool.live_pids()


async def test_the_loop_runs_while_the_worker_searches() -> None:
    """A hard decision is ~1 s of CPU; the loop keeps ticking every few milliseconds."""
    game = GAMES["fourth_wall"]
    state, seat = _midgame()
    await aipool.warm()
    loop = asyncio.get_running_loop()
    gaps: list[float] = []

    async def probe() -> None:
        while True:
            before = loop.time()
            await asyncio.sleep(0.01)
            gaps.append(loop.time() - before - 0.01)

    ticking = asyncio.create_task(probe())
    began = loop.time()
    decided = await aipool.decide(game, state, seat, "hard", timeout=SLACK)
    took = loop.time() - began
    ticking.cancel()
    assert decided.key() in {a.key() for a in game.legal_actions(state, seat)}
    assert len(gaps) >= took / 0.05  # it really ticked all along
    # A search on the loop would be one gap as long as the decision. (Not a fixed bound on the
    # worst gap: a shared machine preempts the loop now and then, the AI nowhere near it.)
    assert max(gaps) < took / 2, f"the loop stalled {max(gaps) * 1000:.0f} ms of {took:.2f} s"


async def test_a_killed_worker_costs_the_search_not_the_move(
    caplog: pytest.LogCaptureFixture,
) -> None:
    game = GAMES["fourth_wall"]
    state, seat = _midgame()
    await aipool.warm()
    [pid] = aipool.live_pids()
    deciding = asyncio.create_task(aipool.decide(game, state, seat, "hard"))
    await asyncio.sleep(0.05)  # the request is on its way
    os.kill(pid, signal.SIGKILL)  # what a crash or the OOM killer does
    with caplog.at_level(logging.WARNING, logger="bot.aipool"):
        decided = await deciding
    assert decided.key() == game.ai_action(state, seat, "easy").key()
    assert "AI worker died" in caplog.text
    # The next decision starts a new worker and searches again.
    again = await aipool.decide(game, state, seat, "normal", timeout=SLACK)
    assert again.key() == game.ai_action(state, seat, "normal").key()
    [fresh] = aipool.live_pids()
    assert fresh != pid


async def test_a_worker_that_overruns_is_stopped_and_the_easy_level_plays(
    caplog: pytest.LogCaptureFixture,
) -> None:
    game = GAMES["fourth_wall"]
    state, seat = _midgame()
    await aipool.warm()
    [pid] = aipool.live_pids()
    with caplog.at_level(logging.WARNING, logger="bot.aipool"):
        decided = await aipool.decide(game, state, seat, "hard", timeout=0.02)
    assert decided.key() == game.ai_action(state, seat, "easy").key()
    assert "took over" in caplog.text
    assert pid not in aipool.live_pids()  # stopped: the next decision gets a fresh worker
    assert (await aipool.decide(game, state, seat, "easy")).key() == decided.key()
    assert aipool.live_pids() and aipool.live_pids()[0] != pid


async def test_a_game_the_worker_lacks_is_decided_here() -> None:
    """A game registered at run time (the tests' High Card) is not in the worker's registry."""
    state = HIGHCARD.setup(["s1", "s2"], HIGHCARD.options_model(), 3)
    for level in ("easy", "hard"):
        decided = await aipool.decide(HIGHCARD, state, "s1", level)
        assert decided.key() == HIGHCARD.ai_action(state, "s1", level).key()


async def test_an_unknown_level_plays_easy() -> None:
    game = GAMES["fourth_wall"]
    state, seat = _midgame()
    decided = await aipool.decide(game, state, seat, "grandmaster")
    assert decided.key() == game.ai_action(state, seat, "easy").key()


async def test_idle_ai_workers_stop_and_the_next_decision_starts_one_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue #25: no AI decision for `AI_IDLE_SECONDS` and the AI worker stops (the bot is one
    process again); a decision meanwhile keeps it; the next decision after starts one, and
    it decides as the engine does."""
    aipool.shutdown()
    monkeypatch.setenv("AI_IDLE_SECONDS", "1.0")
    game = GAMES["fourth_wall"]
    state, seat = _midgame()
    expected = game.ai_action(state, seat, "easy").key()
    assert (await aipool.decide(game, state, seat, "easy", timeout=SLACK)).key() == expected
    [pid] = aipool.live_pids()
    for _ in range(3):  # decisions every 0.5 s: never idle for 1 s
        await asyncio.sleep(0.5)
        assert (await aipool.decide(game, state, seat, "easy", timeout=SLACK)).key() == expected
        assert aipool.live_pids() == [pid]
    for _ in range(100):
        if not aipool.live_pids():
            break
        await asyncio.sleep(0.05)
    assert aipool.live_pids() == []
    with pytest.raises(ProcessLookupError):  # ended and reaped, not a zombie
        for _ in range(100):
            os.kill(pid, 0)
            await asyncio.sleep(0.05)
    assert (await aipool.decide(game, state, seat, "easy", timeout=SLACK)).key() == expected
    [fresh] = aipool.live_pids()
    assert fresh != pid


async def test_an_ai_worker_busy_deciding_is_not_stopped_as_idle(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
) -> None:
    """A hard decision outlasting `AI_IDLE_SECONDS` is searched to its end by the same worker:
    the idle stop waits for an empty queue."""
    monkeypatch.setenv("AI_IDLE_SECONDS", "0.1")
    game = GAMES["fourth_wall"]
    state, seat = _midgame()
    await aipool.warm()
    [pid] = aipool.live_pids()
    loop = asyncio.get_running_loop()
    began = loop.time()
    with caplog.at_level(logging.WARNING, logger="bot.aipool"):
        decided = await aipool.decide(game, state, seat, "hard", timeout=SLACK)
    assert loop.time() - began > 0.2  # longer than the idle time, watched meanwhile
    assert "AI worker" not in caplog.text  # not stopped under the search, no easy fallback
    assert decided.key() == game.ai_action(state, seat, "hard").key()
    assert aipool.live_pids() in ([pid], [])  # the same worker, or stopped once idle after
