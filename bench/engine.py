"""Engine and render benchmarks: the pure parts of a move, measured without Discord.

`bench_engine` times one `apply` and one `legal_actions` over whole random games (half the
games pick random legal moves, half the built-in AI's) and compares the first and last quarter
of each game, so a cost that grows with the game's length shows up as a ratio above 1.
`bench_render` (in bench/render.py, re-exported here) times the turn card, the public board
and a seat's board at points spread over a whole game (CPU and wall time), with their bytes.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

from bench.render import bench_render
from bench.stats import ms
from rules.core.rng import Rng
from rules.registry import GAMES

__all__ = ["bench_engine", "bench_render", "default_players", "modes"]


def default_players(name: str, mode: str) -> int:
    """Three seats where the mode allows it (a typical table), else its smallest count."""
    game = GAMES[name]
    counts = sorted(game.player_counts(game.options_model(mode=mode)))
    return 3 if 3 in counts else counts[0]


def modes() -> list[tuple[str, str]]:
    return [(name, mode) for name, game in sorted(GAMES.items()) for mode in game.modes]


def _growth(early: list[float], late: list[float]) -> float:
    if not early or not late:
        return 1.0
    return round(statistics.median(late) / max(statistics.median(early), 1e-9), 3)


def bench_engine(name: str, mode: str, players: int, games: int) -> dict[str, Any]:
    game = GAMES[name]
    options = game.options_model(mode=mode)
    seats = [f"s{i}" for i in range(1, players + 1)]
    apply_t: list[float] = []
    legal_t: list[float] = []
    early: list[float] = []
    late: list[float] = []
    legal_early: list[float] = []
    legal_late: list[float] = []
    sizes: list[int] = []
    lengths: list[int] = []
    for seed in range(games):
        state = game.setup(seats, options, seed)
        rng = Rng.from_seed(seed)
        per_game: list[float] = []
        legal_game: list[float] = []
        while game.result(state) is None:
            seat = rng.choice(sorted(game.to_act(state)))
            t0 = time.perf_counter()
            legal = game.legal_actions(state, seat)
            legal_game.append(time.perf_counter() - t0)
            action = game.ai_action(state, seat) if seed % 2 else rng.choice(legal)
            t0 = time.perf_counter()
            state = game.apply(state, seat, action).state
            per_game.append(time.perf_counter() - t0)
            sizes.append(len(state.model_dump_json()))
        apply_t += per_game
        legal_t += legal_game
        q = max(1, len(per_game) // 4)
        early += per_game[:q]
        late += per_game[-q:]
        legal_early += legal_game[:q]
        legal_late += legal_game[-q:]
        lengths.append(len(per_game))
    return {
        "game": name, "mode": mode, "players": players, "games": games,
        "actions_per_game_median": statistics.median(lengths) if lengths else 0,
        "actions_per_game_max": max(lengths, default=0),
        "apply": ms(apply_t), "legal_actions": ms(legal_t),
        "apply_first_quarter": ms(early), "apply_last_quarter": ms(late),
        "apply_growth_last_over_first": _growth(early, late),
        "legal_growth_last_over_first": _growth(legal_early, legal_late),
        "state_bytes_max": max(sizes, default=0),
        "state_bytes_median": int(statistics.median(sizes)) if sizes else 0,
    }
