"""The Conflict oracle: how often could ANY Wall win against the easy Investigators?

    python -m bench.fourth_wall_oracle --games 30 --seed 1 --players 4 [--wrath-doom 2]

Issue #23's question for the book's Doom income: is The Wall losing to its own play, or to
the rules? This Wall cheats on purpose (it is a measuring stick, never an opponent a table
meets): at every decision with a choice it tries each of its legal actions on a copy of the
*real* state and plays the rest of the game out exactly as it will go — the Investigators
play today's easy AI (`GAME.ai_action`, deterministic given the state), The Wall its own easy
heuristic afterwards — so it knows every hand, the deck orders and the Investigators' replies.
It picks the action whose play-out The Wall wins, else the one that keeps the game going
longest (more Investigator turns survived), else the heuristic's own. That is one step of
policy improvement with perfect information and a perfect model of the opponent: if even it
loses most deals, the deals are lost to the rules, not to the Wall's play.

``--seeing`` measures a milder cheat: The Wall plays the normal search (`rules.core.search`)
on the real state instead of worlds resampled from its view — it reads every hand and the deck
orders, but still models the Investigators by the play-out policy, not by their real replies.
That is the "Wall given the Investigators' hands" of issue #23 (the exact oracle above also
knows their replies, which no Wall could).

``--baseline`` also plays The Wall's easy heuristic on the same seeds.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from typing import Any

from rules.core.errors import IllegalAction
from rules.core.types import Action
from rules.fourth_wall.game import GAME
from rules.fourth_wall.state import FourthWallState

MAX_DECISIONS = 3000


def _finish(state: FourthWallState) -> tuple[float, int]:
    """Play `state` (in place) to the end with the easy AI on every seat: (The Wall's score,
    decisions played). The score is 1 for a Wall win, 0 for a loss."""
    n = 0
    while GAME.result(state) is None and n < MAX_DECISIONS:
        seat = sorted(GAME.to_act(state))[0]
        try:
            GAME.apply_in_place(state, seat, GAME.ai_action(state, seat))
        except IllegalAction:  # pragma: no cover - the easy AI plays legal moves
            break
        n += 1
    return (1.0 if state.outcome == "wall" else 0.0), n


def oracle_action(state: FourthWallState, seat: str) -> Action:
    """The Wall's action that wins the exact play-out, else survives longest."""
    legal = list({a.key(): a for a in GAME.legal_actions(state, seat)}.values())
    blueprint = GAME.ai_action(state, seat)
    if len(legal) == 1:
        return legal[0]
    best, best_key = blueprint, (-1.0, -1, 1)
    for a in [blueprint, *[x for x in legal if x.key() != blueprint.key()]]:
        world = state.model_copy(deep=True)
        try:
            GAME.apply_in_place(world, seat, a)
        except IllegalAction:
            continue
        won, length = _finish(world)
        key = (won, length, 1 if a.key() == blueprint.key() else 0)
        if key > best_key:
            best, best_key = a, key
    return best


def seeing_action(state: FourthWallState, seat: str) -> Action:
    """The normal search for The Wall, its worlds all the real state (see the module)."""
    real = GAME.resample

    def no_resample(st: Any, who: str | None, rng: Any) -> Any:
        return st.model_copy(deep=True) if who == seat else real(st, who, rng)

    GAME.resample = no_resample  # type: ignore[method-assign,assignment]  # a measuring stick
    try:
        return GAME.ai_action(state, seat, "normal")
    finally:
        del GAME.resample


def play(seed: int, players: int, wrath_doom: int | None, oracle: str) -> dict[str, Any]:
    seats = [f"p{i}" for i in range(1, players + 1)]
    state: FourthWallState = GAME.setup(
        seats, GAME.options_model(mode="conflict", gates=3, wrath_doom=wrath_doom), seed)
    n = 0
    t0 = time.process_time()
    while GAME.result(state) is None and n < MAX_DECISIONS:
        seat = sorted(GAME.to_act(state))[0]
        wall = seat == state.wall_seat
        if wall and oracle == "oracle":
            action = oracle_action(state, seat)
        elif wall and oracle == "seeing":
            action = seeing_action(state, seat)
        else:
            action = GAME.ai_action(state, seat)
        state = GAME.apply(state, seat, action).state
        n += 1
    result = GAME.result(state)
    return {"seed": seed, "wall_won": state.outcome == "wall", "rounds": state.round,
            "reason": result.reason if result else "unfinished",
            "cpu": round(time.process_time() - t0, 2)}


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, c - h), min(1.0, c + h)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--games", type=int, default=30)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--wrath-doom", type=int, default=None)
    ap.add_argument("--baseline", action="store_true", help="also the easy Wall, same seeds")
    ap.add_argument("--seeing", action="store_true",
                    help="the normal search on the real state instead of the exact oracle")
    ap.add_argument("--progress", default=None, help="append each game as a JSON line")
    args = ap.parse_args(argv)
    rows: dict[str, list[dict[str, Any]]] = {"seeing" if args.seeing else "oracle": []}
    if args.baseline:
        rows["easy"] = []
    for seed in range(args.seed, args.seed + args.games):
        for name in rows:
            row = play(seed, args.players, args.wrath_doom, name)
            row["wall"] = name
            rows[name].append(row)
            if args.progress:
                with open(args.progress, "a") as f:
                    f.write(json.dumps(row) + "\n")
    for name, games in rows.items():
        k, n = sum(g["wall_won"] for g in games), len(games)
        lo, hi = wilson(k, n)
        won = [g["seed"] for g in games if g["wall_won"]]
        print(f"{name} Wall, Conflict {args.players}p, wrath_doom={args.wrath_doom or 1}, "
              f"seeds {args.seed}-{args.seed + n - 1}: {k}/{n} ({100 * k / max(1, n):.0f} %, "
              f"{100 * lo:.0f}-{100 * hi:.0f} %); won {won}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
