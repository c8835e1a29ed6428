"""The load gauge (bot/pressure.py) and how long a move's answer is held (`hold_plan`)."""

from __future__ import annotations

import asyncio
import time

import pytest

from bot.looplag import LoopLagProbe
from bot.pressure import BUSY_DEPTH, LoadGauge, Pressure
from cogs.utils.answers import DEFER_BY, hold_plan

# Measures the event loop's lag or a wall-clock bound: under `pytest -n` these tests run
# on one worker, one at a time (`--dist loadgroup`), never beside each other.
pytestmark = pytest.mark.xdist_group("timing")

QUIET = Pressure(lag_ms=2.0, typical_lag_ms=1.0, queued={"moves": 0, "held": 1})


def test_a_quiet_bot_holds_for_the_result_until_the_grace_after_the_press() -> None:
    plan = hold_plan(0.05, 0.25, QUIET)
    assert plan.seconds == 0.2 and plan.for_result


def test_the_interactions_age_comes_off_the_hold_and_the_deadline_is_kept() -> None:
    # Discord's clock runs from the press: an interaction 1.2 s old keeps only what is left
    # before DEFER_BY, less the send margin.
    plan = hold_plan(1.2, 2.0, QUIET)  # a DM press may hold 2 s when quick
    assert 0 < plan.seconds < 0.3 and 1.2 + plan.seconds < DEFER_BY
    assert hold_plan(1.4, 2.0, QUIET).seconds == 0.0
    assert hold_plan(2.7, 2.0, QUIET).seconds == 0.0
    # The grace counts from the press as well: a move 0.2 s old has 0.05 s of 0.25 left.
    assert hold_plan(0.2, 0.25, QUIET).seconds == 0.05
    late = hold_plan(0.3, 0.25, QUIET)
    # Too late for the result, in time for the move's words (one request), by DEFER_BY.
    assert late.seconds == 0.0 and late.words_by > 0 and 0.3 + late.words_by < DEFER_BY


def test_loop_lag_shortens_the_hold_twice_over() -> None:
    lagged = Pressure(lag_ms=300.0, typical_lag_ms=5.0, queued={})
    plan = hold_plan(0.5, 2.0, lagged)
    # The timer wakes one lag late and the request needs the loop again: both fit.
    assert 0.5 + plan.seconds + 2 * 0.3 <= DEFER_BY


def test_a_busy_bot_answers_without_waiting_for_the_result() -> None:
    deep = Pressure(lag_ms=5.0, typical_lag_ms=2.0, queued={"moves": BUSY_DEPTH})
    slow = Pressure(lag_ms=80.0, typical_lag_ms=30.0, queued={})
    for pressure in (deep, slow):
        assert pressure.busy and not pressure.swamped
        plan = hold_plan(0.05, 0.25, pressure)
        assert not plan.for_result and plan.seconds > 0
    swamped = Pressure(lag_ms=500.0, typical_lag_ms=200.0, queued={})
    assert hold_plan(0.0, 0.25, swamped).words_by == 0.0


def test_a_busy_bot_waits_for_a_press_result_a_short_grace_at_most() -> None:
    busy = Pressure(lag_ms=5.0, typical_lag_ms=2.0, queued={"moves": BUSY_DEPTH})
    # A DM press may wait 2 s on a quiet bot; a busy one waits BUSY_GRACE after the press.
    assert hold_plan(0.05, 2.0, QUIET).seconds > 1.0
    assert hold_plan(0.05, 2.0, busy).seconds == 0.2


def test_no_grace_holds_nothing() -> None:
    assert hold_plan(0.0, 0.0, QUIET).words_by == 0.0


async def test_the_probe_sees_a_stall_under_way_and_the_recent_lag() -> None:
    probe = LoopLagProbe(interval=0.01, keep=0).start()
    await asyncio.sleep(0.05)
    assert probe.typical_ms() < 50
    time.sleep(0.2)  # the loop held: whoever asks now sees the stall still under way
    assert probe.recent_ms() >= 150
    await asyncio.sleep(0.03)
    assert probe.recent_ms() >= 150 and probe.typical_ms() > 0  # remembered for a second
    assert probe.lags_ms == []  # keep=0: nothing piles up
    await probe.stop()


async def test_the_gauge_reads_the_queues_registered_and_calm_waits_while_busy() -> None:
    gauge = LoadGauge(interval=0.01)
    waiting = [BUSY_DEPTH]
    gauge.count("moves", lambda: waiting[0])
    read = gauge.read()
    assert read.queued["moves"] == BUSY_DEPTH and "renders" in read.queued and read.busy
    began = time.monotonic()
    await gauge.calm(at_most=0.2, step=0.05)  # busy all along: waits its limit
    assert time.monotonic() - began >= 0.19
    waiting[0] = 0
    began = time.monotonic()
    await gauge.calm(at_most=5.0, step=0.05)
    assert time.monotonic() - began < 1.0
    await gauge.stop()


def test_an_answers_age_is_told_by_discords_time_as_the_bot_knows_it() -> None:
    """Stop 69: with the host clock two hours behind Discord's (the snowflakes it sees say
    so), a press made 2 s ago looked 0 s old (the future clamped to 0), so the bot held its
    answer up to Discord's 3 s deadline. The press's lateness check already read Discord's
    clock (`bot.clock`); the hold's age reads it too."""
    from types import SimpleNamespace

    import discord

    from bot.clock import clock_of
    from cogs.utils.answers import age_of

    ahead = time.time() + 7200
    client = SimpleNamespace()
    clock_of(client).saw(discord.utils.time_snowflake(
        discord.utils.utcnow().fromtimestamp(ahead, tz=discord.utils.utcnow().tzinfo)))
    pressed = discord.utils.utcnow().fromtimestamp(ahead - 2, tz=discord.utils.utcnow().tzinfo)
    interaction = SimpleNamespace(client=client, created_at=pressed)
    assert 1.5 <= age_of(interaction) <= 3.0  # type: ignore[arg-type]
