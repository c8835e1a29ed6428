"""The tables the rules tests play for every shipped game: each mode at its smallest and its
largest player count (one case when they are the same)."""

from __future__ import annotations

from rules.registry import GAMES


def table_cases() -> list[tuple[str, str, int]]:
    """(game, mode, players) for every game and mode, at the fewest and the most players."""
    out = []
    for name, game in sorted(GAMES.items()):
        for mode in game.modes:
            counts = sorted(game.player_counts(game.options_model(mode=mode)))
            for n in dict.fromkeys((counts[0], counts[-1])):
                out.append((name, mode, n))
    return out


CASES = table_cases()
IDS = [f"{g}-{m}-{n}p" for g, m, n in CASES]
