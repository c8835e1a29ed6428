"""Tests of the bot's persistence core (storage, table service, reminders) on the tiny game.

Shared helpers live here; each test module defines its own fixtures.
"""

from __future__ import annotations

from typing import Any

from bot.storage import GameRecord
from bot.tables import StartResult, TableService
from rules.core.game import Game
from tests.tinygame import GAME

GUILD = 1000
CHANNEL = 2000
HOUR = 3600.0
T0 = 1_700_000_000.0
GAMES: dict[str, Game[Any, Any]] = {GAME.name: GAME}


class FakeClock:
    """A clock the tests move by hand."""

    def __init__(self, t: float = T0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t

    def advance(self, hours: float = 0.0, seconds: float = 0.0) -> float:
        self.t += hours * HOUR + seconds
        return self.t


async def lobby(
    tables: TableService, users: tuple[int, ...] = (101, 102), *, thread: int = 3000,
    options: dict[str, Any] | None = None, game: str = GAME.name,
) -> GameRecord:
    """A lobby created by users[0] with the others joined."""
    rec = await tables.create(GUILD, CHANNEL, thread, game, options or {}, users[0])
    for user in users[1:]:
        await tables.join(rec.id, user)
    return rec


async def started(
    tables: TableService, users: tuple[int, ...] = (101, 102), *, seed: int = 7,
    thread: int = 3000, options: dict[str, Any] | None = None, game: str = GAME.name,
) -> StartResult:
    rec = await lobby(tables, users, thread=thread, options=options, game=game)
    return await tables.start(rec.id, users[0], seed=seed)
