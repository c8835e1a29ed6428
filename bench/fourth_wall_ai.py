"""Fourth Wall AI benchmark: win rates, end reasons, game length, timings.

    python -m bench.fourth_wall_ai --games 300 --mode alliance --players 2
    python -m bench.fourth_wall_ai --games 300 --mode conflict --players 3
    python -m bench.fourth_wall_ai --games 300 --mode conflict --random-wall
    python -m bench.fourth_wall_ai --games 200 --mode alliance --players 3 --gates 5 --playout

Every seat is played by `GAME.ai_action`, the fair AI (issue #21: it decides on a state
resampled from its seat's view); ``--peeking`` plays `rules.fourth_wall.ai.choose_action` on
the real state instead (the AI before #21, which read hidden cards), for comparison.
Alliance: the Investigators' win rate against the Presence deck. Conflict: the Investigators'
win rate against the Wall AI (both sides AI); ``--random-wall`` / ``--random-investigators``
make one side play uniformly random legal moves instead (baselines that show the AI beats
random). ``--playout`` plays every seat with `rules.fourth_wall.ai.playout_action`, the search's
play-out policy (issue #23: how good the play-outs are on their own, at a fraction of a
millisecond a decision); ``--gates`` and ``--wrath-doom`` are the table options.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import re
import statistics
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from rules.core.rng import Rng
from rules.core.types import Action
from rules.fourth_wall.ai import choose_action, playout_action
from rules.fourth_wall.game import GAME
from rules.fourth_wall.state import FourthWallState

MAX_DECISIONS = 5000


def variant_pack(changes: dict[str, str]) -> str:
    """A folder holding the shipped pack with some `[options]` lines changed (a house rule to
    measure, e.g. ``{"wrath_doom": "2"}``); its path is a `pack_path` table option. Each
    change must name an option the shipped pack.toml sets, so a typo cannot pass unnoticed."""
    from rules.fourth_wall.content import DEFAULT_PACK_DIR

    tag = "-".join(f"{k}{v}" for k, v in sorted(changes.items()))
    folder = Path(tempfile.gettempdir()) / f"fw-pack-{re.sub(r'[^A-Za-z0-9_-]', '', tag)}"
    folder.mkdir(exist_ok=True)
    lines = (DEFAULT_PACK_DIR / "pack.toml").read_text().splitlines()
    for key, value in changes.items():
        at = [i for i, line in enumerate(lines) if re.match(rf"{re.escape(key)}\s*=", line)]
        if not at:
            raise ValueError(f"the shipped pack.toml sets no option {key!r}")
        lines[at[0]] = f"{key} = {value}"
    # Each file lands whole (written aside, then renamed): processes making the same variant
    # at once (bench workers, test workers) never read a half-written one.
    for f in DEFAULT_PACK_DIR.glob("*.toml"):
        text = "\n".join(lines) + "\n" if f.name == "pack.toml" else f.read_text()
        aside = folder / f".{f.name}.{os.getpid()}"
        aside.write_text(text)
        os.replace(aside, folder / f.name)
    return str(folder)


@dataclass
class GameStats:
    seed: int
    won: bool | None
    reason: str
    rounds: int
    decisions: int
    seconds: float
    decision_times: list[float] = field(default_factory=list)


def reason_key(reason: str) -> str:
    """Group end reasons (drop names) so the histogram is short."""
    return re.sub(r"\b[A-Z][a-z]+( [A-Z][a-z]+)*\b goes Insane", "an Investigator goes Insane",
                  reason)


def play(mode: str, players: int, seed: int, random_wall: bool = False,
         random_investigators: bool = False, peeking: bool = False, playout: bool = False,
         gates: int = 3, wrath_doom: int | None = None) -> GameStats:
    seats = [f"p{i}" for i in range(1, players + 1)]
    state: FourthWallState = GAME.setup(
        seats, GAME.options_model(mode=mode, gates=gates, wrath_doom=wrath_doom), seed)
    rng = Rng.from_seed(seed ^ 0xF0A11)
    times: list[float] = []
    decisions = 0
    start = time.perf_counter()
    while GAME.result(state) is None and decisions < MAX_DECISIONS:
        seat = sorted(GAME.to_act(state))[0]
        is_wall = seat == state.wall_seat
        t0 = time.perf_counter()
        if (random_wall and is_wall) or (random_investigators and not is_wall):
            action: Action = rng.choice(GAME.legal_actions(state, seat))
        else:
            action = (choose_action(state, seat, GAME) if peeking
                      else playout_action(state, seat, GAME) if playout
                      else GAME.ai_action(state, seat))
            times.append(time.perf_counter() - t0)
        state = GAME.apply(state, seat, action).state
        decisions += 1
    elapsed = time.perf_counter() - start
    result = GAME.result(state)
    won = None if result is None else state.outcome == "investigators"
    return GameStats(seed, won, reason_key(result.reason) if result else "unfinished",
                     state.round, decisions, elapsed, times)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--mode", choices=["conflict", "alliance"], default="alliance")
    ap.add_argument("--players", type=int, default=None,
                    help="seats (default: 2 for Alliance, 3 for Conflict = Wall + 2)")
    ap.add_argument("--seed", type=int, default=0, help="first seed")
    ap.add_argument("--random-wall", action="store_true",
                    help="Conflict: the Wall plays random legal moves (baseline)")
    ap.add_argument("--random-investigators", action="store_true",
                    help="the Investigators play random legal moves (baseline)")
    ap.add_argument("--peeking", action="store_true",
                    help="the AI decides on the real state (before #21), not a resample")
    ap.add_argument("--playout", action="store_true",
                    help="every seat plays the search's play-out policy (playout_action)")
    ap.add_argument("--gates", type=int, default=3, help="Open Gates at the start (3-5)")
    ap.add_argument("--wrath-doom", type=int, default=None,
                    help="Conflict: Doom per Wrath (ruling FW-LOBBY-03: 2)")
    ap.add_argument("--jobs", type=int, default=multiprocessing.cpu_count(),
                    help="worker processes (1 = in-process)")
    args = ap.parse_args(argv)
    players = args.players or (3 if args.mode == "conflict" else 2)

    t0 = time.perf_counter()
    jobs = [(args.mode, players, seed, args.random_wall, args.random_investigators,
             args.peeking, args.playout, args.gates, args.wrath_doom)
            for seed in range(args.seed, args.seed + args.games)]
    if args.jobs > 1:
        with multiprocessing.Pool(args.jobs) as pool:
            stats = pool.starmap(play, jobs)
    else:
        stats = [play(*job) for job in jobs]
    total = time.perf_counter() - t0

    n = len(stats)
    wins = sum(1 for s in stats if s.won)
    tag = "".join(name for name, on in (
        (" [peeking]", args.peeking), (" [play-out policy]", args.playout),
        (" [random Wall]", args.random_wall),
        (" [random investigators]", args.random_investigators)) if on)
    print(f"mode={args.mode} players={players} games={n} seeds={args.seed}..{args.seed + n - 1}"
          + tag)
    print(f"Investigators win: {wins}/{n} = {100.0 * wins / max(1, n):.1f}%")
    if args.mode == "conflict":
        print(f"The Wall wins: {n - wins}/{n} = {100.0 * (n - wins) / max(1, n):.1f}%")
    print("end reasons:")
    for reason, k in Counter(s.reason for s in stats).most_common(8):
        print(f"  {k:5d}  {reason}")
    print(f"game length: {statistics.fmean(s.rounds for s in stats):.1f} rounds, "
          f"{statistics.fmean(s.decisions for s in stats):.0f} decisions")
    dts = sorted(t for s in stats for t in s.decision_times)
    if dts:
        med = dts[len(dts) // 2] * 1000
        p95 = dts[int(len(dts) * 0.95)] * 1000
        print(f"time per game: {1000 * statistics.fmean(s.seconds for s in stats):.0f} ms "
              f"(total {total:.1f} s); per AI decision: median {med:.2f} ms, p95 {p95:.2f} ms,"
              f" max {dts[-1] * 1000:.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
