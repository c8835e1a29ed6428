"""`python -m bot content check PATH`: validate a content pack folder for one of the games.

Each game's `rules/<game>/content.py` offers `check_pack(path) -> list[Finding]`; a finding
names the rule id it breaks. The game is detected from the files a pack holds.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any, Protocol


class Finding(Protocol):
    rule: str
    severity: str
    message: str


# Files that only one game's pack has, so a folder can be recognised without being told.
SIGNATURES: dict[str, tuple[str, ...]] = {
    "exorcism": ("haunt_deck.toml", "locked_rooms.toml"),
    "fourth_wall": ("marbles.toml", "horrors.toml"),
    "presence": ("spirits.toml", "scripts.toml"),
}


def detect_game(path: Path) -> str | None:
    for game, files in SIGNATURES.items():
        if any((path / f).exists() for f in files):
            return game
    return None


def check_content(path: Path, game: str | None = None) -> tuple[str, list[Any]]:
    """Which game the pack is for, and every finding about it."""
    game = game or detect_game(path)
    if game is None:
        raise SystemExit(f"{path} doesn't look like a content pack of any game I know; "
                         "pass --game exorcism (or fourth_wall, presence).")
    try:
        module = importlib.import_module(f"rules.{game}.content")
    except ModuleNotFoundError:
        raise SystemExit(f"The game `{game}` has no content packs to check.") from None
    return game, list(module.check_pack(path))
