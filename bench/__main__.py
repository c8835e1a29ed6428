"""`python -m bench`: engine step, render time and state size per game and mode.

Figures are printed and written as JSON to bench/results/ (not asserted anywhere): median and
p99 of one `apply` and one `legal_actions` over whole random games, whether the cost per
action stays flat as a game grows (first vs last quarter), render time and bytes of the
public and private pictures, and the stored state's size over a whole game.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path
from typing import Any

from renders import render_board
from rules.core.rng import Rng
from rules.registry import GAMES


def pct(values: list[float], p: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def ms(values: list[float]) -> dict[str, float]:
    return {"median_ms": round(statistics.median(values) * 1000, 4) if values else 0.0,
            "p99_ms": round(pct(values, 99) * 1000, 4)}


def bench_engine(name: str, mode: str, players: int, games: int) -> dict[str, Any]:
    game = GAMES[name]
    options = game.options_model(mode=mode)
    seats = [f"s{i}" for i in range(1, players + 1)]
    apply_t: list[float] = []
    legal_t: list[float] = []
    early: list[float] = []
    late: list[float] = []
    sizes: list[int] = []
    lengths: list[int] = []
    for seed in range(games):
        state = game.setup(seats, options, seed)
        rng = Rng.from_seed(seed)
        per_game: list[float] = []
        while game.result(state) is None:
            seat = rng.choice(sorted(game.to_act(state)))
            t0 = time.perf_counter()
            legal = game.legal_actions(state, seat)
            legal_t.append(time.perf_counter() - t0)
            action = game.ai_action(state, seat) if seed % 2 else rng.choice(legal)
            t0 = time.perf_counter()
            state = game.apply(state, seat, action).state
            per_game.append(time.perf_counter() - t0)
            sizes.append(len(state.model_dump_json()))
        apply_t += per_game
        q = max(1, len(per_game) // 4)
        early += per_game[:q]
        late += per_game[-q:]
        lengths.append(len(per_game))
    return {
        "game": name, "mode": mode, "players": players, "games": games,
        "actions_per_game_median": statistics.median(lengths),
        "apply": ms(apply_t), "legal_actions": ms(legal_t),
        "apply_first_quarter": ms(early), "apply_last_quarter": ms(late),
        "state_bytes_max": max(sizes), "state_bytes_median": int(statistics.median(sizes)),
    }


def bench_render(name: str, mode: str, players: int, renders: int) -> dict[str, Any]:
    game = GAMES[name]
    options = game.options_model(mode=mode)
    seats = [f"s{i}" for i in range(1, players + 1)]
    state = game.setup(seats, options, 3)
    rng = Rng.from_seed(3)
    states = []
    while game.result(state) is None:
        seat = rng.choice(sorted(game.to_act(state)))
        state = game.apply(state, seat, game.ai_action(state, seat)).state
        states.append(state)
    picks = [states[int(i * (len(states) - 1) / max(1, renders - 1))] for i in range(renders)]
    out: dict[str, Any] = {"game": name, "mode": mode, "players": players}
    for who in ("public", "private"):
        times: list[float] = []
        sizes: list[int] = []
        for s in picks:
            view = game.view(s, None if who == "public" else s.seats[0])
            t0 = time.perf_counter()
            data = render_board(name, view)
            times.append(time.perf_counter() - t0)
            sizes.append(len(data or b""))
        out[who] = {**ms(times), "bytes_median": int(statistics.median(sizes)),
                    "bytes_max": max(sizes)}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench")
    parser.add_argument("--games", type=int, default=50, help="random games per game and mode")
    parser.add_argument("--renders", type=int, default=30)
    parser.add_argument("--out", default="bench/results")
    args = parser.parse_args()
    results: dict[str, Any] = {"engine": [], "render": []}
    for name, game in sorted(GAMES.items()):
        for mode in game.modes:
            counts = sorted(game.player_counts(game.options_model(mode=mode)))
            players = 3 if 3 in counts else counts[0]
            e = bench_engine(name, mode, players, args.games)
            results["engine"].append(e)
            print(f"{name}/{mode} {players}p: apply {e['apply']} legal {e['legal_actions']} "
                  f"first/last quarter {e['apply_first_quarter']['median_ms']}/"
                  f"{e['apply_last_quarter']['median_ms']} ms; state ≤ {e['state_bytes_max']} B; "
                  f"{e['actions_per_game_median']} actions/game")
            r = bench_render(name, mode, players, args.renders)
            results["render"].append(r)
            print(f"{name}/{mode} render public {r['public']} private {r['private']}")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"bench-{time.strftime('%Y%m%d-%H%M%S')}.json"
    path.write_text(json.dumps(results, indent=2))
    print(f"written {path}")


if __name__ == "__main__":
    main()
