"""When the render worker starts (issue #25): a bot that has just started is one process; the
first lobby starts the worker (`renderpool.start_soon`) so the game's first board finds it ready,
and that board is the picture the renderers draw."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any

import pytest

from bot import aipool, renderpool
from demo import AutoTable
from renders import render_board, render_turn_card
from tests.e2e.conftest import Table


def render_workers_running() -> list[int]:
    """This process's child processes that are render workers, read from /proc (not from the
    pool's own bookkeeping, which could be wrong)."""
    children: set[int] = set()
    for task in Path(f"/proc/{os.getpid()}/task").iterdir():
        with open(task / "children") as f:
            children.update(int(pid) for pid in f.read().split())
    found = []
    for pid in children:
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue  # ended meanwhile
        if b"bot.renderworker" in cmdline and b"role='render'" in cmdline:
            found.append(pid)
    return sorted(found)


async def _until(check: Any, seconds: float = 30.0) -> None:
    # Generous: a worker's start (its interpreter and Pillow) on a 2-core machine another
    # process keeps busy took over 10 s once; what is checked is that it starts, not how fast.
    deadline = asyncio.get_running_loop().time() + seconds
    while not check():
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0.02)


async def test_a_started_bot_has_no_render_worker_until_a_lobby_opens(
    table: Table, monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Workers left by earlier tests of this process: gone, then the bot starts afresh.
    await table.stop()
    renderpool.shutdown()
    aipool.shutdown()
    bot = await table.start()
    await table.emu.settle()
    await asyncio.sleep(0.3)  # anything started in the background would be spawned by now
    assert renderpool.live_pids() == [] and render_workers_running() == []
    assert aipool.live_pids() == []

    drawn: list[tuple[str, bytes | None]] = []
    for name in ("render", "render_card"):
        original = getattr(renderpool, name)

        async def spy(game: str, view: dict[str, Any], _original: Any = original,
                      _name: str = name) -> bytes | None:
            data: bytes | None = await _original(game, view)
            inline = (render_board if _name == "render" else render_turn_card)(game, view)
            drawn.append((_name, data))
            assert data == inline, f"{_name}: the worker's picture is not the renderers'"
            return data

        monkeypatch.setattr(renderpool, name, spy)

    bot.tables.seed_source = lambda: 5
    auto = AutoTable(table.emu, bot, table.general, [table.alice, table.bob, table.carol])
    res = await table.emu.slash(table.alice, table.general, "game new",
                                {"game": "exorcism", "mode": "core"})
    await res.wait_done(timeout=15)
    assert "is open in" in res.text
    # The lobby started the worker, before any picture was asked of it.
    await _until(lambda: len(render_workers_running()) == 1)
    assert drawn == []
    assert renderpool.live_pids() == render_workers_running()
    [worker] = render_workers_running()

    lobby = table.emu.messages_in(auto.thread())[0]
    for user in (table.bob, table.carol):
        join = await table.emu.click(user, lobby, label="Join")
        await join.wait_done()
    start = await table.emu.click(table.alice, lobby, label="Start")
    await start.wait_done(timeout=30)
    await table.emu.settle()
    # The first board came from that worker, and is the renderers' picture (the spy checks).
    # (The table's first post is its turn card, the board drawn for a phone.)
    assert drawn and all(data for _, data in drawn)
    assert render_workers_running() == [worker]
    posted = auto.pictures()
    assert posted and all(data in posted for _, data in drawn)
