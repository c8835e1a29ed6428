"""`python -m bench.soak --games 2000`: seeded random legal playouts per game and mode.

Every game must end, never raise, keep every invariant after every action and keep the
game's current secrets out of the public view. Prints, per mode: games, failures, actions
per game, how games ended, time. Runs on all cores; exits non-zero on any failure.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from rules.core.rng import Rng
from rules.registry import GAMES


def play_one(args: tuple[str, str, int, int, bool]) -> dict[str, Any]:
    name, mode, players, seed, check_views = args
    game = GAMES[name]
    seats = [f"s{i}" for i in range(1, players + 1)]
    try:
        state = game.setup(seats, game.options_model(mode=mode), seed)
        rng = Rng.from_seed(seed * 7919 + 1)
        steps = 0
        while game.result(state) is None:
            broken = game.invariants(state)
            if broken:
                return {"ok": False, "seed": seed, "error": f"step {steps}: {broken}"}
            if check_views:
                public = json.dumps(game.view(state, None))
                leaks = [s for s in game.public_secrets(state) if s in public]
                if leaks:
                    return {"ok": False, "seed": seed, "error": f"step {steps}: leaks {leaks}"}
            seat = rng.choice(sorted(game.to_act(state)))
            state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat))).state
            steps += 1
            if steps > 20_000:
                return {"ok": False, "seed": seed, "error": "did not end in 20000 actions"}
        result = game.result(state)
        assert result is not None
        return {"ok": True, "seed": seed, "steps": steps, "reason": result.reason}
    except Exception as exc:  # a soak reports every failure instead of stopping at one
        return {"ok": False, "seed": seed, "error": f"{type(exc).__name__}: {exc}"}


def _ending(reason: str) -> str:
    """Group endings: "Doctor is Wounded and …" and "Medium is Wounded and …" are one kind."""
    head, sep, rest = reason.partition(" is Wounded")
    return ("<someone> is Wounded" + rest if sep and " " not in head else reason)[:70]


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.soak")
    parser.add_argument("--games", type=int, default=2000, help="playouts per game and mode")
    parser.add_argument("--game", default=None)
    parser.add_argument("--no-views", action="store_true", help="skip the public-view leak check")
    args = parser.parse_args()
    failures = 0
    for name, game in sorted(GAMES.items()):
        if args.game and name != args.game:
            continue
        for mode in game.modes:
            counts = sorted(game.player_counts(game.options_model(mode=mode)))
            jobs = [(name, mode, counts[seed % len(counts)], seed, not args.no_views)
                    for seed in range(args.games)]
            began = time.perf_counter()
            with ProcessPoolExecutor() as pool:
                results = list(pool.map(play_one, jobs, chunksize=25))
            took = time.perf_counter() - began
            bad = [r for r in results if not r["ok"]]
            good = [r for r in results if r["ok"]]
            failures += len(bad)
            steps = [r["steps"] for r in good]
            endings = Counter(_ending(r["reason"]) for r in good)
            print(f"{name}/{mode} ({counts[0]}-{counts[-1]} players): {len(results)} games, "
                  f"{len(bad)} failed, {took:.1f} s; actions/game median "
                  f"{statistics.median(steps) if steps else 0}, max {max(steps, default=0)}")
            for reason, n in endings.most_common(6):
                print(f"    {n:5d}  {reason}")
            for r in bad[:5]:
                print(f"    FAILED seed {r['seed']}: {r['error']}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
