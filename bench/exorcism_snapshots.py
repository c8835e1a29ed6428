"""Exorcism endgame trials on saved games: play to the endgame once, try variants from there.

    python -m bench.exorcism_snapshots save --seeds 1-60 --short 12 --dir D [--level normal]
    python -m bench.exorcism_snapshots resume --seeds 1-60 --dir D --out F [--level normal] \\
        [--set rules.exorcism.ai.WOUND_SCALE=2.0]
    python -m bench.exorcism_census --report F G      # two variants on the same seeds

Every seat's decision is a function of the game state (the search's worlds are seeded from
the seat's view, `view_rng`), so a change that plays differently only in the endgame plays
the same game up to it. `save` plays core games with every seat the AI at `--level` until the
team is `--short` Exorcism points or fewer from 30 (or the exorcism is done, or the game is
over) and saves that state, one JSON file a seed; `resume` plays each saved game on to its
end, with a trial's module constants set by `--set MODULE.NAME=VALUE`, and writes census lines
(`bench.exorcism_census`: won, end reason, the 30th point's supply, CPU a decision). At normal
on a loaded 2-core machine, saving seeds 1-60 took 32 minutes and each variant's resume 11-12
(rules/exorcism/rules.md, stop 35), against about 30 minutes a variant from the start.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import time
from pathlib import Path
from typing import Any

from bench.exorcism_census import MAX_DECISIONS, new_game, parse_seeds, play_on, record, summary
from rules.exorcism.game import GAME
from rules.exorcism.state import ExorcismState


def in_endgame(state: ExorcismState, short: int) -> bool:
    """Saved here: at most `short` points to go, the exorcism done, or the game over."""
    return GAME.result(state) is not None or state.exorcised or 30 - state.points <= short


def save(seed: int, short: int, level: str, folder: Path, players: int = 3) -> dict[str, Any]:
    """Play core seed `seed` at `level` to the endgame and save it as `folder/SEED.json`."""
    state = new_game(seed, players)
    decisions = 0
    cpu = 0.0
    while not in_endgame(state, short) and decisions < MAX_DECISIONS:
        seat = sorted(GAME.to_act(state))[0]
        t0 = time.process_time()
        action = GAME.ai_action(state, seat, level)
        cpu += time.process_time() - t0
        state = GAME.apply(state, seat, action).state
        decisions += 1
    saved = {"seed": seed, "level": level, "short": short, "decisions": decisions,
             "cpu": round(cpu, 3), "state": state.model_dump(mode="json")}
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{seed}.json").write_text(json.dumps(saved))
    return {k: v for k, v in saved.items() if k != "state"} | {
        "turn": state.game_turn, "points": state.points, "supply": state.darkness_supply,
        "over": GAME.result(state) is not None}


def resume(seed: int, level: str, folder: Path) -> dict[str, Any]:
    """The census line of saved game `seed`, played on at `level`."""
    saved = json.loads((folder / f"{seed}.json").read_text())
    state = ExorcismState.model_validate(saved["state"])
    return play_on(state, seed, level, saved["decisions"]) | {"from_turn": state.game_turn}


def set_constant(assignment: str) -> None:
    """`MODULE.NAME=VALUE`: a trial's knob, VALUE read as the constant's own type."""
    target, _, text = assignment.partition("=")
    module_name, _, name = target.rpartition(".")
    module = importlib.import_module(module_name)
    current = getattr(module, name)  # an unknown name is an error, not a silent no-op
    value: Any
    if isinstance(current, bool):
        value = text.lower() in ("1", "true", "yes")
    else:
        value = type(current)(text)
    setattr(module, name, value)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("command", choices=("save", "resume"))
    ap.add_argument("--seeds", default="1-60", help="e.g. 1-60 or 1-10,50")
    ap.add_argument("--dir", required=True, help="the saved games' folder")
    ap.add_argument("--level", default="normal")
    ap.add_argument("--short", type=int, default=12, help="save: points short of 30")
    ap.add_argument("--set", action="append", default=[], metavar="MODULE.NAME=VALUE")
    ap.add_argument("--out", default=None, help="resume: append the census lines here")
    args = ap.parse_args(argv)
    folder = Path(args.dir)
    for assignment in args.set:
        set_constant(assignment)
    if args.command == "save":
        for seed in parse_seeds(args.seeds):
            print(json.dumps(save(seed, args.short, args.level, folder)), flush=True)
        return 0
    lines = record((resume(seed, args.level, folder) for seed in parse_seeds(args.seeds)),
                   args.out)
    print("\n".join(summary(lines)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
