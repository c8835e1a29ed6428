"""The bot as its own OS process, for the crash proof: `python -m tests.proof.botproc`.

Registers the test-only High Card game (tests/tinygame.py), then hands over to the real entry
point, exactly `python -m bot run`: settings come from the environment (DISCORD_TOKEN,
DATABASE_PATH, DISCORD_API_BASE, DISCORD_GATEWAY_URL, ...), so the process is the shipped bot
pointed at the local emulator. Nothing in `bot/` knows about the test game.

`PROOF_HOLD_MOVE=S` (the proof's aimed processes): every move waits S seconds in the moment a
kill must find it in, by turns before it is stored and after it is stored but not yet answered,
so an aimed kill lands there rather than after "Done:" (a real bot is seldom that slow; the
restart's answers to such moves are what the proof is for).
"""

from __future__ import annotations

import asyncio
import os
import sys
from typing import Any

from rules.registry import register
from tests.tinygame import GAME


def hold_every_move(seconds: float) -> None:
    """`TableService.act` waits `seconds` before storing the move (odd moves) or after it
    (even moves): the move is acknowledged ("thinking…") and not yet answered meanwhile."""
    from bot.tables import TableService

    act = TableService.act
    moves = 0

    async def held_act(self: TableService, *args: Any, **kwargs: Any) -> Any:
        nonlocal moves
        moves += 1
        before = moves % 2 == 1
        if before:
            await asyncio.sleep(seconds)
        result = await act(self, *args, **kwargs)
        if not before:
            await asyncio.sleep(seconds)
        return result

    TableService.act = held_act  # type: ignore[method-assign]


if __name__ == "__main__":
    register(GAME)
    hold = float(os.environ.get("PROOF_HOLD_MOVE") or 0)
    if hold > 0:
        hold_every_move(hold)
    from bot.__main__ import main

    sys.exit(main(["run"]))
