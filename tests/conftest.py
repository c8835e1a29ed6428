"""What every test process shares, kept to itself: under `pytest -n` (pytest-xdist, the README's
test command) each worker is a process of its own running tests beside the others.

A running bot rewrites its heartbeat file (`bot/health.py`) and removes it when it stops; the
default path is one per machine (`Settings.health_file`, in the temporary folder). Two workers'
bots would then overwrite and remove each other's file, so each test session (each worker)
gets a heartbeat file of its own through `HEALTH_FILE`, which every `Settings()` reads.

How many workers `-n logical` starts is decided here too (`pytest_xdist_auto_num_workers`):
three for every two cores. Much of a worker's time is waiting (the emulator's quiet windows,
bots starting and stopping, subprocesses, PostgreSQL), so one worker per core leaves the
cores a third idle; a third worker fills that (`PYTEST_XDIST_AUTO_NUM_WORKERS` still overrides).
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

WORKERS_PER_CORE = 1.5


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None  # xdist's own hook reads it
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return max(1, round((cores or 1) * WORKERS_PER_CORE))


@pytest.fixture(scope="session", autouse=True)
def _own_heartbeat_file(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("HEALTH_FILE", str(tmp_path_factory.mktemp("health") / "health.json"))
        yield
