"""Helpers for tests that drive a real discord.py bot against the emulator.

Owns ``running_bot`` (log a ``discord.Client``/``commands.Bot`` in against an emulator,
wait until ready, and tear everything down: bot closed, connect task finished, discord.py
endpoints restored, emulator stopped if the helper started it), ``FAST_CLIENT_OPTIONS``
(client keyword arguments that make start-up fast) and, when pytest-asyncio is installed,
the ``emulator`` pytest fixture (import it into a conftest to use it).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import discord

from emulator.emulator import DiscordEmulator

FAST_CLIENT_OPTIONS: dict[str, Any] = {"guild_ready_timeout": 0.05}
"""Pass to a test client: ``on_ready`` comes 50 ms after the last GUILD_CREATE."""


async def _wait_ready(client: discord.Client, task: asyncio.Task[None], timeout: float) -> None:
    ready = asyncio.create_task(client.wait_until_ready())
    done, _ = await asyncio.wait(
        {ready, task}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
    )
    if ready not in done:
        ready.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await ready
        if task in done:
            exc = task.exception()
            raise AssertionError(f"the bot stopped before it was ready: {exc!r}") from exc
        raise AssertionError(f"the bot was not ready within {timeout}s")


def stop_views(client: discord.Client) -> int:
    """Stop every View/Modal the client still listens to (their timeout tasks would
    outlive ``client.close()``). Returns how many were stopped."""
    store: Any = getattr(getattr(client, "_connection", None), "_view_store", None)
    if store is None:
        return 0
    views: dict[int, Any] = {}
    for items in list(getattr(store, "_views", {}).values()):
        for item in list(items.values()):
            if item.view is not None:
                views[id(item.view)] = item.view
    for view in list(getattr(store, "_synced_message_views", {}).values()):
        views[id(view)] = view
    for modal in list(getattr(store, "_modals", {}).values()):
        views[id(modal)] = modal
    for view in views.values():
        view.stop()
    return len(views)


@contextlib.asynccontextmanager
async def running_bot(
    client: discord.Client,
    emulator: DiscordEmulator | None = None,
    *,
    token: str | None = None,
    timeout: float = 10.0,
    sync_commands: bool = False,
) -> AsyncIterator[DiscordEmulator]:
    """Run ``client`` against ``emulator`` (a fresh one if ``None``) until the block ends.

    Yields the emulator once the client is ready (``on_ready`` fired). With
    ``sync_commands``, ``client.tree.sync()`` runs first (global commands). On exit the
    client is closed, its views are stopped (``stop_views``), its connect task awaited and
    discord.py's endpoints restored. A crash of the client's connection loop is re-raised
    at the end of the block.
    """
    own = emulator is None
    emu = emulator if emulator is not None else DiscordEmulator()
    if own:
        await emu.start()
    patch = emu.patch_discord()
    task: asyncio.Task[None] | None = None
    body_failed = False
    try:
        await client.login(token or emu.bot_token)
        task = asyncio.create_task(client.connect(), name="emulator-client-connect")
        await _wait_ready(client, task, timeout)
        if sync_commands:
            tree = getattr(client, "tree", None)
            if tree is None:
                raise AssertionError("sync_commands needs a client with a command tree")
            await tree.sync()
        try:
            yield emu
        except BaseException:
            body_failed = True
            raise
    finally:
        await client.close()
        stop_views(client)
        crash: BaseException | None = None
        if task is not None:
            try:
                await asyncio.wait_for(task, timeout)
            except asyncio.CancelledError:
                pass
            except Exception as exc:
                crash = exc
        patch.restore()
        if own:
            await emu.stop()
        if crash is not None and not body_failed:
            raise AssertionError(f"the bot's connection loop crashed: {crash!r}") from crash


try:
    import pytest_asyncio
except ImportError:  # pytest is a dev dependency; the helpers above work without it
    pass
else:

    @pytest_asyncio.fixture
    async def emulator() -> AsyncIterator[DiscordEmulator]:
        """A started emulator with discord.py pointed at it (restored afterwards)."""
        async with DiscordEmulator() as emu:
            with emu.patch_discord():
                yield emu
