"""What every test process shares, kept to itself: under `pytest -n` (pytest-xdist, the README's
test command) each worker is a process of its own running tests beside the others.

A running bot rewrites its heartbeat file (`bot/health.py`) and removes it when it stops; the
default path is one per machine (`Settings.health_file`, in the temporary folder). Two workers'
bots would then overwrite and remove each other's file, so each test session (each worker)
gets a heartbeat file of its own through `HEALTH_FILE`, which every `Settings()` reads.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture(scope="session", autouse=True)
def _own_heartbeat_file(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("HEALTH_FILE", str(tmp_path_factory.mktemp("health") / "health.json"))
        yield
