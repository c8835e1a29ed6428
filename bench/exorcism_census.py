"""Exorcism core end-game census: how the escape goes (issue #23, rules.md "Stop 33").

    python -m bench.exorcism_census --seeds 1-200 [--level easy] [--option k=v] [--out F]
    python -m bench.exorcism_census --report F [G]

Every seat plays `GAME.ai_action(state, seat, level)` (the baseline rows of `python -m bench
ai`, as `bench.ai.play` plays them; `bench.exorcism_ai.play` is the same loop without levels).
One JSON line a game: won, end reason, game turn, points, Wounds, and at the moment the 30th
Exorcism point came (EX-WIN-01): the game turn, the Darkness supply, the Haunt track's value and
each pawn's distance to the Foyer (spaces, ignoring Ghosts), and how many Haunt phases ran from
then to the end. Then a summary: wins with a Wilson 95 % interval, end reasons, "made the 30
points and lost". `--report F G` summarises saved lines and compares two runs on the seeds
both played (won by one side only, the exact two-sided sign test's p).
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from rules.core.types import Action
from rules.exorcism.engine import Engine
from rules.exorcism.game import GAME
from rules.exorcism.state import ExorcismState

MAX_DECISIONS = 6000


def reason_key(reason: str) -> str:
    """Group end reasons into a few kinds."""
    if "Wounded" in reason:
        return "wound"
    if "4th Darkness" in reason:
        return "shroud cards"
    if "Darkness Token" in reason:
        return "supply"
    if "dawn" in reason.lower():
        return "dawn"
    if "escape" in reason.lower() or "exorcis" in reason.lower():
        return "won"
    return reason[:40]


def foyer_distances(state: ExorcismState) -> list[int]:
    """Each pawn still in the house: its distance to the Foyer, in spaces, Ghosts ignored."""
    eng = Engine(state)
    return sorted(eng.geo.dist[inv.cell or "foyer"].get("foyer", 99)
                  for inv in eng.active_invs())


def parse_seeds(text: str) -> list[int]:
    seeds: list[int] = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        seeds.extend(range(int(lo), int(hi or lo) + 1))
    return seeds


def play(seed: int, level: str = "easy", players: int = 3,
         options: dict[str, Any] | None = None) -> dict[str, Any]:
    """One whole core game, every seat the AI at `level`; the census line."""
    return play_on(new_game(seed, players, options), seed, level)


def new_game(seed: int, players: int = 3, options: dict[str, Any] | None = None
             ) -> ExorcismState:
    """A core game of `players` seats (p1, p2, ...) dealt from `seed`."""
    seats = [f"p{i}" for i in range(1, players + 1)]
    return GAME.setup(seats, GAME.options_model(mode="core", **(options or {})), seed)


def play_on(state: ExorcismState, seed: int, level: str, decisions: int = 0,
            choose: Callable[[ExorcismState, str], Action] | None = None) -> dict[str, Any]:
    """The census line of the game `state` is in, played on to its end, every seat the AI at
    `level` (`decisions` already taken before `state`, as `bench.exorcism_snapshots` resumes a
    saved game; the Wounds and the CPU are counted from `state` on). `choose` replaces the AI
    (`bench.exorcism_oracle`: the same line for a team that reads the real state)."""
    times: list[float] = []
    wounds = 0
    at30: dict[str, Any] | None = None
    if state.points >= 30:
        at30 = {"turn30": state.game_turn, "supply30": state.darkness_supply,
                "track30": Engine(state).track_value(), "dist30": foyer_distances(state)}
    haunts_after = 0
    last_turn = state.game_turn
    while GAME.result(state) is None and decisions < MAX_DECISIONS:
        seat = sorted(GAME.to_act(state))[0]
        t0 = time.process_time()
        action = choose(state, seat) if choose else GAME.ai_action(state, seat, level)
        times.append(time.process_time() - t0)
        before = sum(1 for i in state.investigators.values() if i.character is None)
        state = GAME.apply(state, seat, action).state
        after = sum(1 for i in state.investigators.values() if i.character is None)
        wounds += max(0, after - before)
        decisions += 1
        if at30 is not None and state.game_turn != last_turn:
            haunts_after += 1
        last_turn = state.game_turn
        if at30 is None and state.points >= 30:
            at30 = {"turn30": state.game_turn, "supply30": state.darkness_supply,
                    "track30": Engine(state).track_value(), "dist30": foyer_distances(state)}
    result = GAME.result(state)
    times.sort()
    line: dict[str, Any] = {
        "seed": seed, "won": state.outcome == "won",
        "reason": reason_key(result.reason) if result else "unfinished",
        "turn": state.game_turn, "points": state.points, "supply": state.darkness_supply,
        "wounds": wounds, "decisions": decisions,
        "turn30": None, "supply30": None, "track30": None, "dist30": None,
        "turns_after30": None,
        "med_ms": round(1000 * times[len(times) // 2], 3) if times else 0.0,
        "max_ms": round(1000 * times[-1], 3) if times else 0.0,
    }
    if at30 is not None:
        line.update(at30)
        line["turns_after30"] = haunts_after
    return line


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    c = (p + z * z / (2 * n)) / (1 + z * z / n)
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return c - h, c + h


def sign_p(a: int, b: int) -> float:
    """Exact two-sided sign test on a seeds won by one side only against b by the other."""
    n, k = a + b, min(a, b)
    if n == 0:
        return 1.0
    return min(1.0, 2 * sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n)


def summary(lines: list[dict[str, Any]], label: str = "") -> list[str]:
    n = len(lines)
    wins = sum(1 for x in lines if x["won"])
    lo, hi = wilson(wins, n)
    out = [f"{label}games {n}: won {wins} = {100 * wins / max(1, n):.1f} % "
           f"[{100 * lo:.1f}-{100 * hi:.1f}]"]
    reasons = Counter(x["reason"] for x in lines if not x["won"])
    out.append("  losses: " + ", ".join(f"{k} {v}" for k, v in reasons.most_common()))
    made = [x for x in lines if x["turn30"] is not None]
    lost30 = [x for x in made if not x["won"]]
    lost_by = Counter(x["reason"] for x in lost30)
    out.append(f"  made 30 points: {len(made)}; of them lost: {len(lost30)} ("
               + ", ".join(f"{k} {v}" for k, v in lost_by.most_common()) + ")")
    for name, group in (("won", [x for x in made if x["won"]]), ("30, lost", lost30)):
        if group:
            supply = statistics.fmean(x["supply30"] for x in group)
            out.append(
                f"  at the 30th point ({name}): supply {supply:.1f}, "
                f"track {statistics.fmean(x['track30'] for x in group):.1f}, farthest pawn "
                f"{statistics.fmean(max(x['dist30'] or [0]) for x in group):.1f}, pawns' sum "
                f"{statistics.fmean(sum(x['dist30'] or [0]) for x in group):.1f}, turns after "
                f"{statistics.fmean(x['turns_after30'] for x in group):.1f}")
    if n:
        out.append(f"  Wounds a game {statistics.fmean(x['wounds'] for x in lines):.2f}; points "
                   f"{statistics.fmean(x['points'] for x in lines):.1f}; game turn "
                   f"{statistics.fmean(x['turn'] for x in lines):.1f}; ms a decision (median of "
                   f"medians) {statistics.median(x['med_ms'] for x in lines):.2f}")
    return out


def compare(a: dict[int, dict[str, Any]], b: dict[int, dict[str, Any]]) -> list[str]:
    common = sorted(set(a) & set(b))
    only_a = [s for s in common if a[s]["won"] and not b[s]["won"]]
    only_b = [s for s in common if b[s]["won"] and not a[s]["won"]]
    return [f"paired seeds {len(common)}: won only by the first {len(only_a)} {only_a}",
            f"  won only by the second {len(only_b)} {only_b}",
            f"  exact two-sided sign test p = {sign_p(len(only_a), len(only_b)):.3f}"]


def load(path: str) -> dict[int, dict[str, Any]]:
    return {r["seed"]: r for r in map(json.loads, Path(path).read_text().splitlines()) if r}


def record(lines: Iterable[dict[str, Any]], out: str | None) -> list[dict[str, Any]]:
    """Print each census line as JSON as it comes (and append it to `out`); all of them."""
    kept = []
    sink = open(out, "a") if out else None  # noqa: SIM115
    try:
        for line in lines:
            kept.append(line)
            text = json.dumps(line)
            print(text, flush=True)
            if sink:
                sink.write(text + "\n")
                sink.flush()
    finally:
        if sink:
            sink.close()
    return kept


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seeds", default="1-200", help="e.g. 1-200 or 1-10,50")
    ap.add_argument("--level", default="easy")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--option", action="append", default=[], help="table option key=value")
    ap.add_argument("--out", default=None, help="append the JSON lines to this file too")
    ap.add_argument("--report", nargs="+", default=None, help="summarise saved JSON lines")
    args = ap.parse_args(argv)
    if args.report:
        runs = [load(p) for p in args.report]
        common = set.intersection(*(set(r) for r in runs))
        for path, run in zip(args.report, runs, strict=True):
            print("\n".join(summary([run[s] for s in sorted(common)], f"{path}: ")))
        if len(runs) == 2:
            print("\n".join(compare(runs[0], runs[1])))
        return 0
    options = dict(o.split("=", 1) for o in args.option)
    lines = record((play(seed, args.level, args.players, options)
                    for seed in parse_seeds(args.seeds)), args.out)
    print("\n".join(summary(lines)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
