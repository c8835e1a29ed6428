"""Boards rendered in worker processes (`bot.renderpool`) are the boards `renders` draws, and
a worker that dies costs one picture drawn in a thread, not the bot's pictures from then on."""

from __future__ import annotations

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
    for pid in list(renderpool.pool()._processes):  # what a crash or the OOM killer does
        os.kill(pid, signal.SIGKILL)
    assert await renderpool.render("exorcism", view) == expected  # drawn in a thread
    assert "render worker died" in caplog.text
    assert await renderpool.render("exorcism", view) == expected  # a fresh pool
    renderpool.shutdown()
