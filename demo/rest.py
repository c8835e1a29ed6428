"""When a bot driven through the emulator is at rest: nothing a move set off is still under
way. The end-to-end tests' settle (`tests/e2e/conftest.py`) and the demo (`demo.autoplay`) wait
on it: the emulator's quiet alone is not enough, since drawing a board can outlast its 50 ms."""

from __future__ import annotations

import asyncio
from collections.abc import Collection
from typing import Any

from bot.client import GameBot
from bot.pressure import gauge_of


def bot_at_rest(bot: GameBot, ignore: Collection[asyncio.Task[Any]] = ()) -> bool:
    """Whether nothing a move set off is still under way in `bot`: no move waiting for its
    game's lock, no board queued or being drawn or sent (one waiting out Discord's refusal is
    at rest), no picture asked of the render worker, no answer held open, no press's or
    command's callback still running (`handlers_running`). The emulator's quiet alone is not
    enough on a loaded machine: drawing a board can outlast its 50 ms."""
    if any(counter() for counter in gauge_of(bot).counters.values()):
        return False
    if handlers_running(ignore):
        return False
    delivery = getattr(bot, "_delivery", None)
    if delivery is None:
        return True
    return all(task.done() or gid in delivery._waiting_to_retry
               for gid, task in list(delivery._showing_tasks.items()))


HANDLER_TASKS = ("discord-ui-view-dispatch-", "discord-ui-dynamic-item-",
                 "discord-ui-modal-dispatch-", "CommandTree-invoker", "discord.py: on_",
                 "press-without-component-")
"""The names discord.py gives the tasks that run a press's, a menu's, a modal's or a slash
command's callback, and a gateway event's listener; and the bot's own for a press of a
stripped component (`GameBot._press_without_component`)."""

NOT_HANDLERS = ("discord.py: on_interaction",)
"""`GameBot.on_interaction` only watches, for its grace, that some handler answers: it makes
no request of its own unless none did (the handler's task is counted)."""


def handlers_running(ignore: Collection[asyncio.Task[Any]] = ()) -> bool:
    """Whether a callback of a press or command, or a gateway event's listener, is still
    running. Its answer may be out while it goes on (a lobby button answers, then edits the
    card; a deleted thread's listener abandons the game, then DMs): with the machine loaded
    the next request can come after the emulator's 50 ms of quiet, and a test would read the
    world before it (seen in CI: `test_add_and_remove_ai_buttons`). `ignore`: tasks of a bot
    stopped since (a simulated crash leaves some pending for good)."""
    return any(task not in ignore for task in handler_tasks())


def handler_tasks() -> set[asyncio.Task[Any]]:
    """The tasks running a callback or listener now (`handlers_running`)."""
    return {task for task in asyncio.all_tasks()
            if not task.done() and task.get_name().startswith(HANDLER_TASKS)
            and not task.get_name().startswith(NOT_HANDLERS)}
