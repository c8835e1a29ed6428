"""What every test process shares, kept to itself: under `pytest -n` (pytest-xdist, the README's
test command) each worker is a process of its own running tests beside the others.

A running bot rewrites its heartbeat file (`bot/health.py`) and removes it when it stops; the
default path is one per machine (`Settings.health_file`, in the temporary folder). Two workers'
bots would then overwrite and remove each other's file, so each test session (each worker)
gets a heartbeat file of its own through `HEALTH_FILE`, which every `Settings()` reads.

How many workers `-n logical` starts is decided here too (`pytest_xdist_auto_num_workers`).

And no test may pass while the AI search raised in a worker (`_no_hidden_ai_failure`).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator

import pytest

WORKERS_PER_CORE_PLUS = 1
"""`-n logical` (the README's command) starts one worker more than the machine has cores
(`PYTEST_XDIST_AUTO_NUM_WORKERS` still sets the count). The end-to-end tests mostly wait on
the emulator, the bot and the render workers: on two cores with two workers the e2e folder
kept 0.9 of a core busy (220 s), with four 1.5 (123 s). Stop 57, the whole suite on two
cores: two workers 652 s, three 536 s, four 502 s, every test passing. One more than the
cores leaves the lag and wall-clock tests (`xdist_group("timing")`, one worker) the least
company that still fills the idle time."""


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None  # pytest-xdist's own hook reads it
    return len(os.sched_getaffinity(0)) + WORKERS_PER_CORE_PLUS


@pytest.fixture(scope="session", autouse=True)
def _own_heartbeat_file(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("HEALTH_FILE", str(tmp_path_factory.mktemp("health") / "health.json"))
        yield


class _AiFailures(logging.Handler):
    """Keeps the records of an AI that misplayed unseen: `bot.aipool`'s "AI worker failed" (a
    search that raised) and `bot.tables`' "going round in a circle" (the loop guard played
    the default instead of the AI's choice)."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.failures: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        text = str(record.msg)  # a log call may pass any object as its message
        if text.startswith("AI worker failed") or "going round in a circle" in text:
            self.failures.append(record.getMessage())


@pytest.fixture(autouse=True)
def _no_hidden_ai_failure(request: pytest.FixtureRequest) -> Iterator[None]:
    """The bot lets the easy level decide a move whose search raised (`bot.aipool.decide`), and
    plays the default for an AI it finds going round in a circle (`TableService._unloop`), so
    a table never sees either, and neither would a test of the table: the two-player Presence
    search raised on every question of the second character unnoticed (stop 59), and the
    loop guard ended Exorcism turns for AI seats using the Supply Room (stop 60). Any such
    record fails the test that played it, but for a test marked `ai_circle` (it plays a
    circle on purpose). (A worker killed or over its time is another record, tested in
    `tests/bot/test_aipool.py`.)"""
    handler = _AiFailures()
    logs = [logging.getLogger("bot.aipool"), logging.getLogger("bot.tables")]
    for log in logs:
        log.addHandler(handler)
    try:
        yield
    finally:
        for log in logs:
            log.removeHandler(handler)
    if request.node.get_closest_marker("ai_circle") is not None:
        handler.failures = [f for f in handler.failures if "going round" not in f]
    assert not handler.failures, f"an AI misplayed unseen: {handler.failures}"
