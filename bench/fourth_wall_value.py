"""Fit Fourth Wall's Alliance cut-off estimate (`rules.fourth_wall.ai.ALLIANCE_LOGIT`) on the
games of a given AI level.

    python -m bench.fourth_wall_value collect --level normal --seed 2001 --games 50 --out F
    python -m bench.fourth_wall_value fit F [F ...] [--keep can_close cover ...]

`collect` plays whole Alliance games (3 players, 5 Open Gates unless told) with `--level` on
every seat and appends one JSON line a game to `--out`: the seed, whether the Investigators
won, and `alliance_features` at every Investigator turn's start. The search reads its estimate
three turns on from where it stands; stop 39 fitted it on the heuristic's games, which rarely
reach the Turn Tracker's last rank, and this reads how well it fits the search's own. `fit`
fits a logistic (`bench.presence_value.fit`, light L2) on the even seeds and prints the weights
as an `ALLIANCE_LOGIT` dict, the held-out log-loss on the odd seeds against the base rate and
against the shipped weights, and predicted / observed win rates per fifth of the prediction.
`--keep` holds named terms at the shipped weights (terms the sample cannot tell: rules.md "Stop
46"). The stop 46 refit was measured and not kept.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from bench.presence_value import Row, base_rate, calibration, fit, log_loss
from rules.fourth_wall.ai import ALLIANCE_FEATURES, ALLIANCE_LOGIT, alliance_features
from rules.fourth_wall.game import GAME
from rules.fourth_wall.state import FourthWallState

MAX_DECISIONS = 5000

NOT_POSITIVE = ("gate", "gate_time", "doom", "one_marble", "two_marbles",
                "one_marble_at_the_brink")
"""Terms that can only hurt the Investigators (an Open Gate, Doom to spend, a hand one or two
Losses from Insanity): a positive fit is a correlation of the sample (e.g. long games that
happen to be won), and a search would court it. Such a term is dropped and the rest refitted."""

NOT_NEGATIVE = ("can_close", "cover")
"""Terms that can only help them (a hand that can Close a Gate, or is nearer one): a negative
fit (games still going because nothing was Closed yet) would have the search break up hands."""


def positions(seed: int, level: str, players: int = 3, gates: int = 5) -> tuple[bool, list[
        list[float]]]:
    """One whole Alliance game with `level` on every seat: whether the Investigators won, and
    the features at each Investigator turn's start."""
    seats = [f"p{i}" for i in range(1, players + 1)]
    state: FourthWallState = GAME.setup(
        seats, GAME.options_model(mode="alliance", gates=gates), seed)
    rows: list[list[float]] = []
    seen: set[tuple[int, int]] = set()
    n = 0
    while GAME.result(state) is None and n < MAX_DECISIONS:
        turn = (state.round, state.turn_index)
        if state.phase == "investigator" and turn not in seen:
            seen.add(turn)
            rows.append(alliance_features(state))
        seat = sorted(GAME.to_act(state))[0]
        state = GAME.apply(state, seat, GAME.ai_action(state, seat, level)).state
        n += 1
    return state.outcome == "investigators", rows


def collect(args: argparse.Namespace) -> int:
    with open(args.out, "a") as out:
        for seed in range(args.seed, args.seed + args.games):
            t0 = time.process_time()
            won, rows = positions(seed, args.level, args.players, args.gates)
            out.write(json.dumps({"seed": seed, "won": won, "level": args.level,
                                  "features": list(ALLIANCE_FEATURES), "rows": rows}) + "\n")
            out.flush()
            print(f"seed {seed}: {'won' if won else 'lost'}, {len(rows)} turn starts, "
                  f"{time.process_time() - t0:.0f} s", flush=True)
    return 0


def read(paths: list[str]) -> tuple[list[Row], list[Row]]:
    """Rows of the files' games: (train on even seeds, held out on odd)."""
    train: list[Row] = []
    held: list[Row] = []
    for path in paths:
        with open(path) as f:
            for line in f:
                game = json.loads(line)
                if game["features"] != list(ALLIANCE_FEATURES):
                    raise ValueError(f"{path}: collected with other features")
                into = train if game["seed"] % 2 == 0 else held
                into += [(x, float(game["won"])) for x in game["rows"]]
    return train, held


def fit_files(args: argparse.Namespace) -> int:
    train, held = read(args.files)
    w = fit(train, args.l2, names=ALLIANCE_FEATURES, at_most_zero=NOT_POSITIVE,
            at_least_zero=NOT_NEGATIVE,
            fixed={n: ALLIANCE_LOGIT[n] for n in args.keep})
    shipped = [ALLIANCE_LOGIT[n] for n in ALLIANCE_FEATURES]
    base, base_w = base_rate(train, len(w))
    print(f"{len(train)} train / {len(held)} held-out turn starts, base rate {base:.2f}")
    for name, weights in (("fitted", w), ("shipped", shipped), ("base rate", base_w)):
        print(f"  {name:9}: held-out log-loss {log_loss(held, weights):.3f}; predicted/observed"
              f" per fifth {calibration(held, weights)}")
    print("ALLIANCE_LOGIT = {" + ", ".join(
        f'"{n}": {x:.2f}' for n, x in zip(ALLIANCE_FEATURES, w, strict=True)) + "}")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect", help="play games and append their turn starts to --out")
    c.add_argument("--level", default="normal", choices=("easy", "normal", "hard"))
    c.add_argument("--seed", type=int, default=2001)
    c.add_argument("--games", type=int, default=50)
    c.add_argument("--players", type=int, default=3)
    c.add_argument("--gates", type=int, default=5)
    c.add_argument("--out", required=True)
    f = sub.add_parser("fit", help="fit ALLIANCE_LOGIT on collected files")
    f.add_argument("files", nargs="+")
    f.add_argument("--l2", type=float, default=1.0)
    f.add_argument("--keep", nargs="*", default=[], choices=ALLIANCE_FEATURES, help=(
        "terms kept at the shipped weight (ones the sample cannot tell), the rest fitted"))
    args = ap.parse_args(argv)
    return collect(args) if args.command == "collect" else fit_files(args)


if __name__ == "__main__":
    sys.exit(main())
