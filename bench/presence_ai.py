"""The Presence AI benchmark: win rates per player count and script alignment, timings.

    python -m bench.presence_ai --games 100
    python -m bench.presence_ai --games 100 --players 4 --spirit random
    python -m bench.presence_ai --games 100 --visitors random
    python -m bench.presence_ai --games 100 --players 3 --seed 1 --visitors oracle

Each side is played by the built-in AI as the bot plays it, `GAME.ai_action`, which decides on
a state resampled from the seat's view and never sees the real one (``ai``, issue #21); by
`rules.presence.ai.choose_action` on the real state, as the AI played before it could no longer
peek (``peek``, for comparison); by uniformly random legal moves (``random``) or by the first
legal action (``first``), or, for a diagnosis only, by ``oracle``: today's AI on the real
state told which trauma lies at which position (it cheats: it reads the face-down secret
cards), which measures what the visitors' guessing costs them (rules.md, "AI balance"). For
every player count the
table shows, split by the alignment of the script the spirit drew: games, visitor wins,
spirit wins (a good spirit wins *with* the visitors, P-WIN-05), Eternal Darkness, secrets
revealed on average, succumbed visitors on average. Timings are per AI decision.
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from rules.core.rng import Rng
from rules.core.types import Action
from rules.presence import ai
from rules.presence.ai import choose_action
from rules.presence.engine import Engine, pack_for
from rules.presence.game import GAME
from rules.presence.state import PresenceState

MAX_DECISIONS = 20_000
POLICIES = ("ai", "peek", "random", "first", "oracle")


@dataclass
class GameStats:
    players: int
    seed: int
    alignment: str
    visitors_won: bool
    spirit_won: bool
    finished: bool
    rounds: int
    revealed: int
    succumbed: int
    decisions: int
    decision_times: list[float] = field(default_factory=list)


def pick(policy: str, state: PresenceState, seat: str, rng: Rng,
         times: list[float]) -> Action:
    if policy in ("ai", "peek"):
        t0 = time.perf_counter()
        action = (GAME.ai_action(state, seat) if policy == "ai"
                  else choose_action(state, seat, GAME))
        times.append(time.perf_counter() - t0)
        return action
    if policy == "oracle":
        with told_the_secrets(state):
            return choose_action(state, seat, GAME)
    legal = GAME.legal_actions(state, seat)
    return rng.choice(legal) if policy == "random" else legal[0]


@contextmanager
def told_the_secrets(state: PresenceState) -> Iterator[None]:
    """While inside, the AI's `Deduction` knows the real trauma at every position (a cheat
    for the ``oracle`` diagnosis: the visitors still play today's heuristic, minus the
    guessing)."""
    pack = pack_for(state.pack_path)
    truth: dict[str, int] = {str(pack.secret(s.card).trauma): s.position - 1
                             for s in state.secrets}
    plain = ai.Deduction.__init__

    def told(self: ai.Deduction, eng: Engine, seat: str | None) -> None:
        plain(self, eng, seat)
        self.perms = [(truth, 1.0)]

    ai.Deduction.__init__ = told  # type: ignore[method-assign]
    try:
        yield
    finally:
        ai.Deduction.__init__ = plain  # type: ignore[method-assign]


def play(players: int, seed: int, visitors: str = "ai", spirit: str = "ai") -> GameStats:
    seats = [f"p{i}" for i in range(1, players + 1)]
    state: PresenceState = GAME.setup(seats, GAME.options_model(), seed)
    rng = Rng.from_seed(seed ^ 0x9E55)
    times: list[float] = []
    decisions = 0
    while GAME.result(state) is None and decisions < MAX_DECISIONS:
        seat = sorted(GAME.to_act(state))[0]
        policy = spirit if seat == state.spirit_seat else visitors
        state = GAME.apply(state, seat, pick(policy, state, seat, rng, times)).state
        decisions += 1
    script = pack_for(state.pack_path).script(state.script)
    return GameStats(
        players=players, seed=seed, alignment=script.alignment,
        visitors_won=any(w != state.spirit_seat for w in state.winners),
        spirit_won=state.spirit_seat in state.winners,
        finished=GAME.result(state) is not None, rounds=state.round,
        revealed=sum(1 for s in state.secrets if s.revealed),
        succumbed=sum(1 for v in state.visitors.values() if v.succumbed),
        decisions=decisions, decision_times=times)


def _pct(k: int, n: int) -> str:
    return f"{k:4d} ({100.0 * k / max(1, n):5.1f}%)"


def report(stats: list[GameStats]) -> list[str]:
    lines = [f"{'N':>2} {'script':6} {'games':>5} {'visitors win':>14} {'spirit wins':>14} "
             f"{'darkness':>14} {'secrets':>7} {'succumb':>7}"]
    for n in sorted({s.players for s in stats}):
        for align in ("good", "evil", "all"):
            rows = [s for s in stats if s.players == n and align in ("all", s.alignment)]
            if not rows:
                continue
            g = len(rows)
            vw = sum(s.visitors_won for s in rows)
            sw = sum(s.spirit_won for s in rows)
            dark = sum(1 for s in rows if not s.visitors_won and not s.spirit_won)
            lines.append(
                f"{n:>2} {align:6} {g:5d} {_pct(vw, g):>14} {_pct(sw, g):>14} "
                f"{_pct(dark, g):>14} {statistics.fmean(s.revealed for s in rows):7.2f} "
                f"{statistics.fmean(s.succumbed for s in rows):7.2f}")
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--games", type=int, default=50, help="games per player count")
    ap.add_argument("--players", type=int, choices=[3, 4, 5], default=None,
                    help="one player count (default: 3, 4 and 5)")
    ap.add_argument("--seed", type=int, default=0, help="first seed")
    ap.add_argument("--visitors", choices=POLICIES, default="ai")
    ap.add_argument("--spirit", choices=POLICIES, default="ai")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (1 = in-process)")
    args = ap.parse_args(argv)
    counts = [args.players] if args.players else [3, 4, 5]

    t0 = time.perf_counter()
    jobs = [(n, seed, args.visitors, args.spirit) for n in counts
            for seed in range(args.seed, args.seed + args.games)]
    if args.jobs > 1:
        with multiprocessing.Pool(args.jobs) as pool:
            stats = pool.starmap(play, jobs)
    else:
        stats = [play(*job) for job in jobs]
    total = time.perf_counter() - t0

    print(f"visitors={args.visitors} spirit={args.spirit} games={args.games} per player count,"
          f" seeds {args.seed}..{args.seed + args.games - 1}")
    for line in report(stats):
        print(line)
    unfinished = sum(1 for s in stats if not s.finished)
    if unfinished:
        print(f"UNFINISHED games: {unfinished}")
    dts = sorted(t for s in stats for t in s.decision_times)
    print(f"decisions per game: {statistics.fmean(s.decisions for s in stats):.0f}; "
          f"wall time {total:.1f} s")
    if dts:
        print(f"per AI decision: mean {1000 * statistics.fmean(dts):.2f} ms, median "
              f"{1000 * dts[len(dts) // 2]:.2f} ms, p99 {1000 * dts[int(len(dts) * 0.99)]:.2f}"
              f" ms, max {1000 * dts[-1]:.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
