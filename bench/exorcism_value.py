"""Fit The Exorcism's cut-off estimates (`rules.exorcism.ai.CORE_VALUE`, `SOLO_VALUE`,
`OVA_VALUE`: the investigators' chance to win where a search's play-out stops).

    python -m bench.exorcism_value --games 200 --seed 1001
    python -m bench.exorcism_value --modes ova --games 300 --seed 2001

Plays whole games with today's AI (the easy level, `GAME.ai_action`) on every seat, core with
2, 3 and 4 players, Solo, and One vs All with 3, 4 and 5, and keeps every 3rd position: the
features the mode's estimate reads there (`rules.exorcism.ai.value_features`, One vs All's
`ova_features`) and whether the investigators went on to win.
Fits a logistic per mode (`bench.presence_value.fit`: Newton's method, light L2 on all but the
bias; a term that can only hurt the investigators is held at or below 0, one that can only
help them at or above 0) on the even seeds,
and prints the weights, the held-out log-loss (odd seeds) against the base rate and against the
estimate the AI uses today (`win_estimate`), and predicted / observed per fifth.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

from bench.presence_value import Row, base_rate, calibration, fit, log_loss
from rules.exorcism.ai import (
    OVA_FEATURES,
    VALUE_FEATURES,
    ova_features,
    value_features,
    win_estimate,
)
from rules.exorcism.game import GAME
from rules.exorcism.state import ExorcismState

HARMS = ("board", "crowded", "wounded", "escape_distance")
"""Terms that can only hurt the investigators: a positive fit is the sample's correlation
(long games see more Darkness) and a search would then court Darkness."""

HELPS = ("points", "secured", "time", "supply", "supply_turns", "lookouts", "escaped")
"""Terms that can only help them: held at or above 0 (a negative fit is collinearity, e.g.
the supply beside the Haunt phases it lasts)."""

OVA_HARMS = ("behind", "wounded", "escape_distance", "haunt", "possession", "board")
"""One vs All's terms that can only hurt the investigators (as `HARMS`)."""

OVA_HELPS = ("points", "exorcised", "time", "lookouts", "escaped")
"""One vs All's terms that can only help them (as `HELPS`)."""

SETTINGS = {"core": ((2, 3, 4), "core"), "solo": ((1,), "solo"),
            "ova": ((3, 4, 5), "one_vs_all")}


def positions(mode: str, players: int, seed: int, every: int = 3) -> list[tuple[Row, float]]:
    """Rows of one whole easy game, each with today's estimate at that position (of the
    investigators' side)."""
    seats = [f"p{i}" for i in range(1, players + 1)]
    state: ExorcismState = GAME.setup(seats, GAME.options_model(mode=mode), seed)
    features = ova_features if mode == "one_vs_all" else value_features
    investigator = next(s for s in seats if s != state.ghost_seat)
    seen: list[tuple[list[float], float]] = []
    n = 0
    while GAME.result(state) is None and n < 6000:
        if n % every == 0 and not state.prompts:
            seen.append((features(state), win_estimate(state, investigator)))
        seat = sorted(GAME.to_act(state))[0]
        state = GAME.apply(state, seat, GAME.ai_action(state, seat)).state
        n += 1
    result = GAME.result(state)
    won = float(result is not None and investigator in result.winners)
    return [((x, won), old) for x, old in seen]


def old_loss(rows: list[tuple[Row, float]]) -> float:
    out = 0.0
    for (_, y), p in rows:
        p = min(1 - 1e-9, max(1e-9, p))
        out -= y * math.log(p) + (1 - y) * math.log(1 - p)
    return out / max(1, len(rows))


def auc(scored: list[tuple[float, float]]) -> float:
    """The chance a won position scores above a lost one (ties half): how well an estimate
    tells positions apart, which is what a search's comparison of candidates needs."""
    ordered = sorted(scored)
    wins = sum(y for _, y in ordered)
    losses = len(ordered) - wins
    if not wins or not losses:
        return 0.5
    rank_sum, i = 0.0, 0
    while i < len(ordered):
        j = i
        while j < len(ordered) and ordered[j][0] == ordered[i][0]:
            j += 1
        rank_sum += (i + j + 1) / 2 * sum(y for _, y in ordered[i:j])
        i = j
    return (rank_sum - wins * (wins + 1) / 2) / (wins * losses)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--games", type=int, default=100, help="games per player count")
    ap.add_argument("--seed", type=int, default=1001)
    ap.add_argument("--l2", type=float, default=1.0)
    ap.add_argument("--modes", default="core,solo")
    ap.add_argument("--rows", type=Path, help="keep the positions played in this JSON file "
                    "and read them from it when it exists (refits without replaying)")
    args = ap.parse_args(argv)
    for name in args.modes.split(","):
        counts, mode = SETTINGS[name]
        cache = args.rows.with_suffix(f".{name}.json") if args.rows else None
        train: list[Row]
        held: list[tuple[Row, float]]
        if cache is not None and cache.exists():
            train, held = json.loads(cache.read_text())
        else:
            train, held = [], []
            for players in counts:
                for seed in range(args.seed, args.seed + args.games):
                    rows = positions(mode, players, seed)
                    if seed % 2 == 0:
                        train += [r for r, _ in rows]
                    else:
                        held += rows
            if cache is not None:
                cache.write_text(json.dumps([train, held]))
        names = OVA_FEATURES if name == "ova" else VALUE_FEATURES
        w = fit(train, args.l2, at_most_zero=OVA_HARMS if name == "ova" else HARMS,
                names=names, at_least_zero=OVA_HELPS if name == "ova" else HELPS)
        test = [r for r, _ in held]
        base, base_w = base_rate(train, len(w))
        print(f"{name}: {len(train)} train / {len(test)} held-out positions, base rate "
              f"{base:.3f}; held-out log-loss {log_loss(test, w):.4f} vs base "
              f"{log_loss(test, base_w):.4f} vs today's estimate {old_loss(held):.4f}; "
              f"predicted/observed per fifth {calibration(test, w)}")
        new_auc = auc([(sum(a * b for a, b in zip(w, x, strict=True)), y) for x, y in test])
        old_auc = auc([(p, y) for (_, y), p in held])
        print(f"  held-out AUC {new_auc:.3f} (today's estimate {old_auc:.3f})")
        print("  " + ", ".join(f"{n}={x:.2f}" for n, x in zip(names, w, strict=True)))
        print("  (" + ", ".join(f"{x:.2f}" for x in w) + ")")
    return 0


if __name__ == "__main__":
    sys.exit(main())
