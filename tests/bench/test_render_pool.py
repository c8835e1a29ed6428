"""Boards rendered in the worker process (`bot.renderpool`) are the boards `renders` draws, and
a worker that dies costs one picture drawn in a thread, not the bot's pictures from then on."""

from __future__ import annotations

import asyncio
import os
import signal

import pytest

from bot import renderpool
from renders import render_board
from rules.registry import GAMES


def _public_view() -> dict[str, object]:
    game = GAMES["exorcism"]
    state = game.setup(["s1"], game.options_model(mode="solo"), 5)
    return game.view(state, None)


async def test_a_pool_render_is_the_same_picture_as_an_inline_render() -> None:
    view = _public_view()
    assert await renderpool.render("exorcism", view) == render_board("exorcism", view)


async def test_a_dead_render_worker_is_replaced(caplog: pytest.LogCaptureFixture) -> None:
    view = _public_view()
    expected = render_board("exorcism", view)
    assert await renderpool.render("exorcism", view) == expected
    [pid] = renderpool.live_pids()  # one worker by default
    drawing = asyncio.create_task(renderpool.render("exorcism", view))
    await asyncio.sleep(0)  # the request is on its way
    os.kill(pid, signal.SIGKILL)  # what a crash or the OOM killer does
    assert await drawing == expected  # drawn in a thread instead
    assert "render worker died" in caplog.text
    assert await renderpool.render("exorcism", view) == expected  # a fresh worker
    [fresh] = renderpool.live_pids()
    assert fresh != pid
    renderpool.shutdown()
    assert renderpool.live_pids() == []
