"""The bot's process runs on uvloop where it is installed (`bot.client.run_event_loop`, #15),
and on asyncio's own loop when told to (`HAUNT_EVENT_LOOP=asyncio`) or where uvloop is not."""

from __future__ import annotations

import asyncio
import sys

import pytest

from bot.client import run_event_loop


async def _loop_module() -> str:
    await asyncio.sleep(0)
    return type(asyncio.get_running_loop()).__module__


@pytest.mark.skipif(sys.platform == "win32", reason="uvloop is not a dependency on Windows")
def test_the_bot_runs_on_uvloop(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("HAUNT_EVENT_LOOP", raising=False)
    assert run_event_loop(_loop_module()).startswith("uvloop")


def test_asyncio_loop_when_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HAUNT_EVENT_LOOP", "asyncio")
    assert run_event_loop(_loop_module()).startswith("asyncio")


def test_asyncio_loop_without_uvloop(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("HAUNT_EVENT_LOOP", raising=False)
    monkeypatch.setitem(sys.modules, "uvloop", None)  # import uvloop now raises ImportError
    assert run_event_loop(_loop_module()).startswith("asyncio")
