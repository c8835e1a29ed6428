"""Boards rendered in the worker process (`bot.renderpool`) are the boards `renders` draws, and
a worker that dies costs one picture drawn in a thread, not the bot's pictures from then on."""

from __future__ import annotations

import asyncio
import os
import pickle
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from bot import renderpool
from bot.renderworker import frame, read_frame
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


async def test_no_worker_until_the_first_picture_which_starts_one_and_is_right() -> None:
    """Issue #25: nothing starts a worker but a picture (or a lobby, below); the first picture
    waits for the worker's start and is the renderers' picture."""
    renderpool.shutdown()
    view = _public_view()
    assert renderpool.live_pids() == []
    assert await renderpool.render("exorcism", view) == render_board("exorcism", view)
    [pid] = renderpool.live_pids()
    assert pid != os.getpid()
    renderpool.shutdown()


async def test_start_soon_starts_the_worker_once_without_waiting_for_it() -> None:
    renderpool.shutdown()
    renderpool.start_soon()
    renderpool.start_soon()  # a second lobby meanwhile: still one worker
    for _ in range(500):
        if renderpool.live_pids():
            break
        await asyncio.sleep(0.01)
    [pid] = renderpool.live_pids()
    renderpool.start_soon()
    await asyncio.sleep(0.1)
    assert renderpool.live_pids() == [pid]
    view = _public_view()
    assert await renderpool.render("exorcism", view) == render_board("exorcism", view)
    assert renderpool.live_pids() == [pid]  # the picture went to the worker already started
    renderpool.shutdown()


async def test_a_worker_started_early_and_killed_before_its_first_picture_costs_nothing(
) -> None:
    """A lobby's worker that dies (the OOM killer) before the game's first board: the board is
    still drawn, in a thread or by a new worker, and later pictures get a worker again."""
    renderpool.shutdown()
    renderpool.start_soon()
    for _ in range(500):
        if renderpool.live_pids():
            break
        await asyncio.sleep(0.01)
    [pid] = renderpool.live_pids()
    os.kill(pid, signal.SIGKILL)
    view = _public_view()
    expected = render_board("exorcism", view)
    assert await renderpool.render("exorcism", view) == expected
    assert await renderpool.render("exorcism", view) == expected
    [fresh] = renderpool.live_pids()
    assert fresh != pid
    renderpool.shutdown()


@pytest.mark.xdist_group("timing")  # pictures 0.5 s apart must beat a 1 s idle stop
async def test_idle_workers_stop_and_the_next_picture_starts_one_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every game over: after `RENDER_IDLE_SECONDS` without a picture the worker stops (the bot
    is one process again); a picture meanwhile keeps it; the next picture after starts one."""
    renderpool.shutdown()
    monkeypatch.setenv("RENDER_IDLE_SECONDS", "1.0")
    view = _public_view()
    expected = render_board("exorcism", view)
    assert await renderpool.render("exorcism", view) == expected
    [pid] = renderpool.live_pids()
    for _ in range(3):  # pictures every 0.5 s: never idle for 1 s
        await asyncio.sleep(0.5)
        assert await renderpool.render("exorcism", view) == expected
        assert renderpool.live_pids() == [pid]
    for _ in range(100):
        if not renderpool.live_pids():
            break
        await asyncio.sleep(0.05)
    assert renderpool.live_pids() == []
    with pytest.raises(ProcessLookupError):  # ended and reaped, not a zombie
        for _ in range(100):
            os.kill(pid, 0)
            await asyncio.sleep(0.05)
    assert await renderpool.render("exorcism", view) == expected
    [fresh] = renderpool.live_pids()
    assert fresh != pid
    renderpool.shutdown()


def _worker(code: str) -> subprocess.Popen[bytes]:
    root = str(Path(renderpool.__file__).resolve().parents[1])
    return subprocess.Popen([sys.executable, "-c", f"import sys; sys.path.insert(0, {root!r}); "
                             + code], stdin=subprocess.PIPE, stdout=subprocess.PIPE)


def _ping(proc: subprocess.Popen[bytes]) -> object:
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(frame((7, "ping", "", None)))
    proc.stdin.flush()
    body = read_frame(proc.stdout)
    proc.stdin.close()
    proc.wait(timeout=30)
    return None if body is None else pickle.loads(body)


def test_a_worker_whose_bot_is_process_1_keeps_drawing() -> None:
    """In a container without an init the bot is process 1: its worker's `getppid()` is 1 and
    the worker must not take that for "my bot is gone" (issue #20: every picture fell back to a
    thread in the bot's process). Simulated: the worker's getppid answers 1, the bot's pid."""
    proc = _worker("import os; os.getppid = lambda: 1; "
                   "from bot.renderworker import main; main(parent=1)")
    answer = _ping(proc)
    assert answer == (7, True, proc.pid)


def test_a_worker_whose_bot_is_gone_before_it_starts_ends_at_once() -> None:
    # The bot that started it (pid 1 here, pretending) is not its parent any more.
    proc = _worker("from bot.renderworker import main; main(parent=1)")
    assert _ping(proc) is None
    assert proc.returncode == 0


def test_the_pool_hands_the_worker_the_bots_own_pid() -> None:
    from bot.renderworker import parent_gone

    assert not parent_gone(os.getppid())
    assert parent_gone(os.getppid() + 1)
    worker = renderpool.Worker()
    try:
        # What the worker was started with (its Popen arguments: /proc's copy reads empty
        # should the worker end first on a loaded machine).
        assert f"main(parent={os.getpid()}, role='render')" in str(worker.proc.args)
    finally:
        worker.stop()


_AS_PROCESS_1 = """
import asyncio, logging, os, sys
sys.path.insert(0, {root!r})
logging.basicConfig(level=logging.WARNING)
from bot import renderpool
from rules.registry import GAMES

async def main() -> None:
    assert os.getpid() == 1, os.getpid()
    game = GAMES["exorcism"]
    view = game.view(game.setup(["s1"], game.options_model(mode="solo"), 5), None)
    first = await renderpool.render("exorcism", view)
    [pid] = renderpool.live_pids()
    await asyncio.sleep(0.5)
    again = await renderpool.render("exorcism", view)
    assert first and again == first
    assert renderpool.live_pids() == [pid], "the worker was replaced"
    renderpool.shutdown()
    print("kept", pid)

asyncio.run(main())
"""


def test_a_real_process_1_keeps_its_render_worker() -> None:
    """The container case for real, without Docker: the bot's process is process 1 of a new
    PID namespace (`unshare`), as in an image without an init. Its worker must keep drawing
    (issue #20: it used to exit at once, and every picture fell back to a thread)."""
    import shutil

    unshare = shutil.which("unshare")
    if unshare is None:
        pytest.skip("unshare is not installed")
    probe = subprocess.run([unshare, "-p", "-f", "--mount-proc", "true"], capture_output=True)
    if probe.returncode != 0:
        pytest.skip(f"no PID namespace here: {probe.stderr.decode(errors='replace')[:200]}")
    root = str(Path(renderpool.__file__).resolve().parents[1])
    run = subprocess.run([unshare, "-p", "-f", "--mount-proc", sys.executable, "-c",
                          _AS_PROCESS_1.format(root=root)], capture_output=True, timeout=120)
    err = run.stderr.decode(errors="replace")
    assert run.returncode == 0, err
    assert run.stdout.decode().startswith("kept"), (run.stdout, err)
    assert "render worker died" not in err, err
