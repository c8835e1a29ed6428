"""Fit The Presence's cut-off estimates (`rules.presence.ai.VISITORS_WIN`, `SPIRIT_HARMS`,
`SPIRIT_HELPS`).

    python -m bench.presence_value --games 100 --seed 1001

Plays whole games with today's AI (the easy level, `GAME.ai_action`) on every seat, 3 and 4
players, and keeps every 4th position: the features `rules.presence.ai.value_features` reads
there and whether the visitors, and the spirit, went on to win. Fits a logistic per estimate
(the visitors'; the spirit's while its script harms the visitors, and while it helps them:
`spirit_mode`) by Newton's method, light L2 on all but the bias, on the even seeds, and prints
the weights, the log-loss on the odd seeds against the base rate, and predicted / observed
win rates per fifth of the prediction: what `win_estimate` should use and how calibrated it
is.
"""

from __future__ import annotations

import argparse
import math
import sys

from rules.presence.ai import VALUE_FEATURES, spirit_mode, value_features
from rules.presence.engine import Engine
from rules.presence.game import GAME
from rules.presence.state import PresenceState

Row = tuple[list[float], float]


def positions(players: int, seed: int, every: int = 4) -> dict[str, list[Row]]:
    """Rows of one whole easy game, by estimate ("visitors", and "spirit harms" or "spirit
    helps" by the script's mood at that position): features and the side's result."""
    seats = [f"p{i}" for i in range(1, players + 1)]
    state: PresenceState = GAME.setup(seats, GAME.options_model(), seed)
    seen: list[tuple[list[float], str]] = []
    n = 0
    while GAME.result(state) is None and n < 20_000:
        if n % every == 0:
            eng = Engine(state)
            seen.append((value_features(eng), f"spirit {spirit_mode(eng)}s"))
        seat = sorted(GAME.to_act(state))[0]
        state = GAME.apply(state, seat, GAME.ai_action(state, seat)).state
        n += 1
    v_won = float(any(w != state.spirit_seat for w in state.winners))
    s_won = float(state.spirit_seat in state.winners)
    out: dict[str, list[Row]] = {side: [] for side in SIDES}
    for x, mood in seen:
        out["visitors"].append((x, v_won))
        out[mood].append((x, s_won))
    return out


def _sig(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (a small dense system)."""
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        if abs(m[c][c]) < 1e-12:
            continue
        for r in range(n):
            if r != c:
                f = m[r][c] / m[c][c]
                if f:
                    for k in range(c, n + 1):
                        m[r][k] -= f * m[c][k]
    return [m[i][n] / m[i][i] if abs(m[i][i]) > 1e-12 else 0.0 for i in range(n)]


SIDES = ("visitors", "spirit harms", "spirit helps")
"""The three estimates: `VISITORS_WIN`, `SPIRIT_HARMS`, `SPIRIT_HELPS`."""

HARMS_VISITORS = ("hope_lost", "nerve_lost", "succumbed", "knocked_out", "fear")
"""Features that can only hurt the visitors: their weight for the visitors is kept at or
below 0 (a positive fit is a correlation of the sample, e.g. games long enough for a
knock-out, and a search would then court knock-outs)."""


HELPS_VISITORS = ("revealed", "secured", "tiered")
"""The visitors' progress: a harming spirit's weight on it is kept at or below 0."""


def fit(rows: list[Row], l2: float = 1.0, iters: int = 25,
        at_most_zero: tuple[str, ...] = (),
        names: tuple[str, ...] = VALUE_FEATURES,
        at_least_zero: tuple[str, ...] = (),
        fixed: dict[str, float] | None = None) -> list[float]:
    """Logistic regression by Newton's method with an L2 penalty on all but the bias; a
    feature (named by `names`) in `at_most_zero` whose weight comes out positive, or in
    `at_least_zero` negative, is dropped and the rest refitted. A feature in `fixed` keeps the
    weight given there (one the sample cannot tell, set from elsewhere); the rest are fitted
    around it."""
    fixed = fixed or {}
    held = {i: fixed[n] for i, n in enumerate(names) if n in fixed}
    offsets = [sum(v * x[i] for i, v in held.items()) for x, _ in rows]
    dropped: set[int] = set(held)
    while True:
        w = _fit(rows, l2, iters, dropped, offsets)
        wrong = [i for i, n in enumerate(names) if i not in dropped and (
            (n in at_most_zero and w[i] > 0) or (n in at_least_zero and w[i] < 0))]
        if not wrong:
            return [held.get(i, x) for i, x in enumerate(w)]
        dropped.update(wrong)


def _fit(rows: list[Row], l2: float, iters: int, dropped: set[int],
         offsets: list[float] | None = None) -> list[float]:
    d = len(rows[0][0])
    rows = [([0.0 if i in dropped else v for i, v in enumerate(x)], y) for x, y in rows]
    base = offsets or [0.0] * len(rows)
    w = [0.0] * d
    for _ in range(iters):
        grad = [0.0] * d
        hess = [[0.0] * d for _ in range(d)]
        for (x, y), z0 in zip(rows, base, strict=True):
            p = _sig(z0 + sum(wi * xi for wi, xi in zip(w, x, strict=True)))
            r = p - y
            s = p * (1 - p)
            for i in range(d):
                if x[i]:
                    grad[i] += r * x[i]
                    xs = s * x[i]
                    hi = hess[i]
                    for j in range(d):
                        if x[j]:
                            hi[j] += xs * x[j]
        for i in range(1, d):
            grad[i] += l2 * w[i]
            hess[i][i] += l2
        hess[0][0] += 1e-6
        for i in dropped:
            hess[i][i] += 1.0
        step = _solve(hess, grad)
        w = [wi - si for wi, si in zip(w, step, strict=True)]
        if max(abs(si) for si in step) < 1e-6:
            break
    return w


def base_rate(rows: list[Row], d: int) -> tuple[float, list[float]]:
    """The sample's win rate and the weights of an estimate that always says it (the yardstick
    a fitted estimate's held-out log-loss is read against)."""
    base = sum(y for _, y in rows) / len(rows)
    return base, [math.log(base / (1 - base))] + [0.0] * (d - 1)


def log_loss(rows: list[Row], w: list[float]) -> float:
    out = 0.0
    for x, y in rows:
        p = min(1 - 1e-9, max(1e-9, _sig(sum(a * b for a, b in zip(w, x, strict=True)))))
        out -= y * math.log(p) + (1 - y) * math.log(1 - p)
    return out / max(1, len(rows))


def calibration(rows: list[Row], w: list[float]) -> str:
    scored = sorted((_sig(sum(a * b for a, b in zip(w, x, strict=True))), y) for x, y in rows)
    parts = []
    for q in range(5):
        chunk = scored[q * len(scored) // 5:(q + 1) * len(scored) // 5]
        if chunk:
            parts.append(f"{sum(p for p, _ in chunk) / len(chunk):.2f}/"
                         f"{sum(y for _, y in chunk) / len(chunk):.2f}")
    return ", ".join(parts)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--games", type=int, default=60, help="games per player count")
    ap.add_argument("--seed", type=int, default=1001)
    ap.add_argument("--l2", type=float, default=1.0)
    args = ap.parse_args(argv)
    train: dict[str, list[Row]] = {side: [] for side in SIDES}
    test: dict[str, list[Row]] = {side: [] for side in SIDES}
    for players in (3, 4):
        for seed in range(args.seed, args.seed + args.games):
            into = train if seed % 2 == 0 else test
            for side, rows in positions(players, seed).items():
                into[side] += rows
    for side, rows in train.items():
        w = fit(rows, args.l2, at_most_zero=HARMS_VISITORS if side == "visitors" else
                HELPS_VISITORS if side == "spirit harms" else ())
        held = test[side]
        base, base_w = base_rate(rows, len(w))
        print(f"{side}: {len(rows)} train / {len(held)} held-out positions, base rate "
              f"{base:.2f}; held-out log-loss {log_loss(held, w):.3f} vs base "
              f"{log_loss(held, base_w):.3f}; predicted/observed per fifth "
              f"{calibration(held, w)}")
        print("  " + ", ".join(f"{n}={x:.2f}" for n, x in zip(VALUE_FEATURES, w, strict=True)))
        print("  (" + ", ".join(f"{x:.2f}" for x in w) + ")")
    return 0


if __name__ == "__main__":
    sys.exit(main())
