"""The Exorcism oracle: could ANY team win the core game with today's heuristic plus the future?

    python -m bench.exorcism_oracle --seeds 1-30 [--option shroud_returns_darkness=true]
        [--width N] [--players 3] --out F
    python -m bench.exorcism_census --report EASY F

Issue #23's question for the book's Shroud (EX-DARK-07): is the co-operative team losing core
3p deals to its own play, or to the rules (the Darkness supply race)? This team cheats on
purpose. It is a measuring stick that reads the real state (the true Haunt/Task/Plan deck
orders and the state's own RNG, so the dice and draws to come are the real ones), never an AI
the bot uses. At every decision where the awaited seat has more than one distinct legal action
it tries candidates on a copy of the real state and plays the rest of the game out exactly as it
will go, every seat the easy heuristic (`GAME.ai_action`, deterministic given the state). It
takes an action whose play-out wins; else the one with the best play-out, by (won, Exorcism
points made, game turn reached); ties go to the heuristic's own pick. That is one step of
policy improvement with perfect information, as `bench.fourth_wall_oracle` is for The Wall.

Cost. The heuristic's pick is tried first, in the order `rules.core.search` uses (the pick, the
game's `ai_plans`, the rest in a seeded order), at most `--width` candidates. A play-out's
result is the result of the state after its first action played on by the heuristic, so the
chosen candidate's result is the next decision's heuristic result: it is not played again.
Once a play-out wins, the rest of the game IS that play-out (the heuristic on every seat, the
engine deterministic), so the oracle then plays the heuristic without trying anything; each
line records `line_exact`, whether the game ended as the oracle's last play-out said.

Not tried: Trades and the Plans that start one, and the answers at a Trade's prompts (the
search's loop guard, `ExorcismGame.ai_searchable`: a Trade the partner declines gives the Action
back and the same decision comes round again).

One JSON line a seed, the `bench.exorcism_census` line plus: `cpu` (s), `tried` (decisions
where candidates were played out), `playouts`, `cut` (decisions where `--width` left legal
candidates untried), `overrides` (each: game turn, phase, the Action's kind, whether it found
the win), `win_turn` (the game turn where a winning play-out was found) and `line_exact`.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from bench.exorcism_census import MAX_DECISIONS, new_game, parse_seeds, play_on, record, summary
from rules.core.errors import IllegalAction
from rules.core.rng import Rng
from rules.core.types import Action
from rules.exorcism import actions as K
from rules.exorcism.engine import pack_for
from rules.exorcism.game import GAME
from rules.exorcism.state import ExorcismState

# A play-out's worth: (won, Exorcism points, game turn reached). A lost game that made more
# points was nearer the 30 (EX-WIN-01); one that lasted longer held the supply off longer.
Worth = tuple[int, int, int]


def finish(state: ExorcismState, budget: int = MAX_DECISIONS) -> Worth:
    """Play `state` (in place) to its end with the easy heuristic on every seat, at most
    `budget` decisions (the census's limit less the decisions already played): its worth."""
    n = 0
    while GAME.result(state) is None and n < budget:
        seat = sorted(GAME.to_act(state))[0]
        try:
            GAME.apply_in_place(state, seat, GAME.ai_action(state, seat))
        except IllegalAction:  # pragma: no cover - the heuristic plays legal moves
            break
        n += 1
    return worth(state)


def worth(state: ExorcismState) -> Worth:
    return (1 if state.outcome == "won" else 0), state.points, state.game_turn


def starts_trade(state: ExorcismState, action: Action) -> bool:
    """A Trade, or a Plan whose effect starts one (see the module: never tried)."""
    if action.kind == K.TRADE:
        return True
    if action.kind == K.PLAN:
        plan = pack_for(state.pack_path).plan(str(action.params.get("plan")))
        return any(eff.op == "trade" for eff in plan.effect)
    return False


class Oracle:
    """The cheating chooser for one game (`choose`), with its counters."""

    def __init__(self, seed: int, width: int = 6) -> None:
        self.seed = seed
        self.width = max(2, width)
        self.decisions = 0  # decisions played so far in the real game
        self.known: Worth | None = None  # the heuristic's play-out from the current state
        self.winning = False  # on a line whose play-out wins: the heuristic from here on
        self.win_turn: int | None = None
        self.tried = 0
        self.playouts = 0
        self.cut = 0
        self.overrides: list[dict[str, Any]] = []

    def candidates(self, state: ExorcismState, seat: str, blueprint: Action) -> list[Action]:
        """The heuristic's pick, the game's plans, the rest in a seeded order (as
        `rules.core.search.search_action` orders them); Trades left out; all of them, the
        caller cuts to the width."""
        unique = list({a.key(): a for a in GAME.legal_actions(state, seat)}.values())
        others = [a for a in unique if a.key() != blueprint.key() and not starts_trade(state, a)]
        Rng.from_seed(self.seed * 1_000_003 + state.step).shuffle(others)
        planned = [a.key() for a in GAME.ai_plans(state, seat)]
        others.sort(key=lambda a: planned.index(a.key()) if a.key() in planned else len(planned))
        return [blueprint, *others]

    def play_out(self, state: ExorcismState, seat: str, action: Action) -> Worth | None:
        world = state.model_copy(deep=True)
        self.playouts += 1
        try:
            GAME.apply_in_place(world, seat, action)
        except IllegalAction:
            return None
        return finish(world, MAX_DECISIONS - self.decisions - 1)

    def choose(self, state: ExorcismState, seat: str) -> Action:
        blueprint = GAME.ai_action(state, seat)
        action = blueprint if self.winning else self._search(state, seat, blueprint)
        self.decisions += 1
        return action

    def _search(self, state: ExorcismState, seat: str, blueprint: Action) -> Action:
        if state.prompts and state.prompts[-1].kind in ("trade_partner", "trade_build",
                                                         "trade_consent"):
            return blueprint  # the heuristic's Trade (see the module); `known` still holds
        every = self.candidates(state, seat, blueprint)
        if len(every) == 1:
            return blueprint
        if self.known is None:
            self.known = self.play_out(state, seat, blueprint)
            assert self.known is not None, "the heuristic's pick is legal"
        if self.known[0]:
            self.winning, self.win_turn = True, state.game_turn
            return blueprint
        self.tried += 1
        if len(every) > self.width:
            self.cut += 1
        best, best_worth = blueprint, self.known
        for a in every[1:self.width]:
            got = self.play_out(state, seat, a)
            if got is not None and got > best_worth:
                best, best_worth = a, got
                if got[0]:
                    break
        if best is not blueprint:
            self.known = best_worth
            if best_worth[0]:
                self.winning, self.win_turn = True, state.game_turn
            self.overrides.append({"turn": state.game_turn, "phase": state.phase,
                                   "prompt": state.prompts[-1].kind if state.prompts else None,
                                   "kind": best.kind, "wins": bool(best_worth[0]),
                                   "was": blueprint.kind})
        return best


def play(seed: int, width: int = 6, players: int = 3,
         options: dict[str, Any] | None = None) -> dict[str, Any]:
    """One whole core game, every seat the oracle: the census line plus the oracle's fields."""
    oracle = Oracle(seed, width)
    t0 = time.process_time()
    line = play_on(new_game(seed, players, options), seed, "oracle", choose=oracle.choose)
    line.update({
        "cpu": round(time.process_time() - t0, 1), "width": oracle.width,
        "tried": oracle.tried, "playouts": oracle.playouts, "cut": oracle.cut,
        "overrides": oracle.overrides, "win_turn": oracle.win_turn,
        "line_exact": oracle.known is None
        or oracle.known == (int(line["won"]), line["points"], line["turn"])})
    return line


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--seeds", default="1-30", help="e.g. 1-30 or 1-10,50")
    ap.add_argument("--width", type=int, default=6,
                    help="candidates at most a decision, the heuristic's pick included")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--option", action="append", default=[], help="table option key=value")
    ap.add_argument("--out", default=None, help="append the JSON lines to this file too")
    args = ap.parse_args(argv)
    options = dict(o.split("=", 1) for o in args.option)
    lines = record((play(seed, args.width, args.players, options)
                    for seed in parse_seeds(args.seeds)), args.out)
    print("\n".join(summary(lines, f"oracle width {args.width}: ")))
    tried = sum(x["tried"] for x in lines)
    print(f"  decisions tried {tried}, cut by the width {sum(x['cut'] for x in lines)}; "
          f"overrides {sum(len(x['overrides']) for x in lines)}; CPU "
          f"{sum(x['cpu'] for x in lines):.0f} s; lines exact "
          f"{sum(x['line_exact'] for x in lines)}/{len(lines)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
