"""How often the search overrules the heuristic, decision by decision, in one whole game.

    python -m bench.search_overrides presence session 3 14 visitors
    python -m bench.search_overrides presence session 4 11 visitors --level hard
    python -m bench.search_overrides fourth_wall alliance 3 25 all --option gates=5

Plays one game as `python -m bench ai` does (`bench.ai.play`: the side searches at `--level`,
every other seat plays easy) and, at every decision the search weighs
(`Game.ai_searchable`), asks the easy level what it would have done there. Prints, per kind
of decision (a turn's choice, or the prompt's ``then``), how many were searched and how many
the search overruled, then each overruled decision. A search that overrules almost nothing
plays the heuristic's game: its win rate can only differ from easy by the few games those
few overrides change (#23: the visitors' search at normal).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from typing import Any

import rules.core.game as core_game
import rules.fourth_wall.game as fourth_wall_game
from bench.ai import _option_value, _pair, play
from rules.core.rng import Rng
from rules.core.search import Level
from rules.core.types import Action


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("game")
    ap.add_argument("mode")
    ap.add_argument("players", type=int)
    ap.add_argument("seed", type=int)
    ap.add_argument("side", help="the side that searches (all: every seat)")
    ap.add_argument("--level", default="normal", choices=("normal", "hard"))
    ap.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                    help="a table option, as `python -m bench ai` takes it")
    args = ap.parse_args(argv)
    options = {k: _option_value(v) for k, v in map(_pair, args.option)}
    seen: list[tuple[str, bool, str, str, Any]] = []
    searching = core_game.search_action

    def watched(game: Any, state: Any, seat: str, level: Level, rng: Rng) -> Action:
        picked = searching(game, state, seat, level, rng)
        if game.ai_searchable(state, seat, None):
            easy = game.ai_action(state, seat)
            prompts = getattr(state, "prompts", None)
            # The Presence names a prompt by the step it leads to (a string); the Fourth Wall's
            # `then` is the whole pending step (a dict, a new one per Marble selected), so it
            # is named by its kind.
            kind = "turn"
            if prompts and seat in prompts[-1].seats:
                then = prompts[-1].data.get("then")
                kind = "prompt:" + (then if isinstance(then, str) and then else prompts[-1].kind)
            seen.append((kind, easy.key() != picked.key(), easy.key(), picked.key(),
                         getattr(state, "round", None)))
        return picked

    # The Fourth Wall calls the search from its own `ai_action` (its play-out policy), so
    # both importers are watched.
    watching = (core_game, fourth_wall_game)
    for module in watching:
        module.search_action = watched  # type: ignore[attr-defined]
    try:
        played = play(args.game, args.mode, args.players, args.seed, args.side, args.level,
                      options)
    finally:
        for module in watching:
            module.search_action = searching  # type: ignore[attr-defined]
    print(f"winners {played.winners}: {played.reason}")
    counts = Counter((kind, over) for kind, over, *_ in seen)
    for kind in sorted({k for k, *_ in seen}):
        print(f"{kind:28} searched {counts[(kind, True)] + counts[(kind, False)]:4d}, "
              f"overruled {counts[(kind, True)]}")
    for kind, over, easy, picked, rnd in seen:
        if over:
            print(f"  round {rnd} {kind}: easy {easy} -> search {picked}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
