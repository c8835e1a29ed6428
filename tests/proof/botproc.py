"""The bot as its own OS process, for the crash proof: `python -m tests.proof.botproc`.

Registers the test-only High Card game (tests/tinygame.py), then hands over to the real entry
point, exactly `python -m bot run`: settings come from the environment (DISCORD_TOKEN,
DATABASE_PATH, DISCORD_API_BASE, DISCORD_GATEWAY_URL, ...), so the process is the shipped bot
pointed at the local emulator. Nothing in `bot/` knows about the test game.
"""

from __future__ import annotations

import sys

from rules.registry import register
from tests.tinygame import GAME

if __name__ == "__main__":
    register(GAME)
    from bot.__main__ import main

    sys.exit(main(["run"]))
