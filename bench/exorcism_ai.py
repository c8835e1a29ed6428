"""Exorcism AI benchmark: AI-vs-house games, win rate, loss reasons, game length, timings.

    python -m bench.exorcism_ai --games 500 --mode core --players 3
    python -m bench.exorcism_ai --games 200 --mode solo
    python -m bench.exorcism_ai --games 200 --mode one_vs_all --players 3

Every seat is played by the built-in AI as the bot runs it, `GAME.ai_action` (One vs All: the
Ghost player too): `rules.exorcism.ai.choose_action` deciding on a state resampled from the
seat's view (issue #21). With ``--peek`` it decides on the real state instead, as it did before
(a comparison: what seeing the hidden cards was worth).
Prints the investigators' win rate, a histogram of the reasons games end, the average game
length (game turns and decisions), the time per game and the per-decision time (median, p95,
max). With ``--random`` the investigators play uniformly random legal moves instead (a
baseline; the One vs All Ghost player stays the AI).
"""

from __future__ import annotations

import argparse
import multiprocessing
import re
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass, field

from rules.core.rng import Rng
from rules.core.types import Action
from rules.exorcism.ai import choose_action
from rules.exorcism.game import GAME
from rules.exorcism.state import ExorcismState

MAX_DECISIONS = 5000


@dataclass
class GameStats:
    seed: int
    won: bool | None
    reason: str
    points: int
    turns: int
    decisions: int
    seconds: float
    decision_times: list[float] = field(default_factory=list)


def reason_key(reason: str) -> str:
    """Group end reasons: drop Character names and Room names so the histogram is short."""
    r = re.sub(r"^[A-Z][a-z]+ is Wounded", "a Character is Wounded", reason)
    r = re.sub(r"^.* takes its 4th Darkness Token", "a Room takes its 4th Darkness Token", r)
    return r


def play(mode: str, players: int, seed: int, random_investigators: bool = False,
         peek: bool = False) -> GameStats:
    seats = [f"p{i}" for i in range(1, players + 1)]
    state: ExorcismState = GAME.setup(seats, GAME.options_model(mode=mode), seed)
    rng = Rng.from_seed(seed ^ 0xBE7C4)
    times: list[float] = []
    decisions = 0
    start = time.perf_counter()
    while GAME.result(state) is None and decisions < MAX_DECISIONS:
        seat = sorted(GAME.to_act(state))[0]
        t0 = time.perf_counter()
        if random_investigators and seat != state.ghost_seat:
            action: Action = rng.choice(GAME.legal_actions(state, seat))
        elif peek:
            action = choose_action(state, seat)
        else:
            action = GAME.ai_action(state, seat)
        times.append(time.perf_counter() - t0)
        state = GAME.apply(state, seat, action).state
        decisions += 1
    elapsed = time.perf_counter() - start
    result = GAME.result(state)
    won = None if result is None else state.outcome == "won"
    return GameStats(seed, won, reason_key(result.reason) if result else "unfinished",
                     state.points, state.game_turn, decisions, elapsed, times)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--mode", choices=["core", "solo", "one_vs_all"], default="core")
    ap.add_argument("--players", type=int, default=None,
                    help="seats (default: 3 for core and One vs All, 1 for Solo)")
    ap.add_argument("--seed", type=int, default=0, help="first seed")
    ap.add_argument("--random", action="store_true",
                    help="investigators play random legal moves (baseline)")
    ap.add_argument("--peek", action="store_true",
                    help="the AI decides on the real state, hidden cards and all (the old way)")
    ap.add_argument("--jobs", type=int, default=1,
                    help="worker processes (1 = in-process; per-decision times are only "
                    "meaningful with 1)")
    args = ap.parse_args(argv)
    players = args.players or (1 if args.mode == "solo" else 3)

    t0 = time.perf_counter()
    jobs = [(args.mode, players, seed, args.random, args.peek)
            for seed in range(args.seed, args.seed + args.games)]
    if args.jobs > 1:
        with multiprocessing.Pool(args.jobs) as pool:
            stats = pool.starmap(play, jobs)
    else:
        stats = [play(*job) for job in jobs]
    total = time.perf_counter() - t0

    n = len(stats)
    wins = sum(1 for s in stats if s.won)
    who = "investigators" if args.mode != "one_vs_all" else "investigators (vs the Ghost AI)"
    print(f"mode={args.mode} players={players} games={n} seeds={args.seed}..{args.seed + n - 1}"
          + (" [random investigators]" if args.random else "")
          + (" [AI on the real state]" if args.peek else ""))
    print(f"win rate ({who}): {wins}/{n} = {100.0 * wins / max(1, n):.1f}%")
    if args.mode == "one_vs_all":
        print(f"Ghost player wins: {n - wins}/{n} = {100.0 * (n - wins) / max(1, n):.1f}%")
    print("end reasons:")
    for reason, k in Counter(s.reason for s in stats).most_common():
        print(f"  {k:5d}  {reason}")
    pts = [s.points for s in stats]
    print(f"exorcism points: mean {statistics.fmean(pts):.1f}, median "
          f"{statistics.median(pts):.0f}, >=30 in {sum(p >= 30 for p in pts)}/{n}")
    print(f"game length: {statistics.fmean(s.turns for s in stats):.1f} game turns, "
          f"{statistics.fmean(s.decisions for s in stats):.0f} decisions")
    dts = sorted(t for s in stats for t in s.decision_times)
    if dts:
        med = dts[len(dts) // 2] * 1000
        p95 = dts[int(len(dts) * 0.95)] * 1000
        print(f"time per game: {1000 * statistics.fmean(s.seconds for s in stats):.0f} ms "
              f"(total {total:.1f} s); per decision: median {med:.2f} ms, p95 {p95:.2f} ms, "
              f"max {dts[-1] * 1000:.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
