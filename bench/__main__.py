"""`python -m bench`: measured speed of the engine, the renders, storage and the bot on Discord.

Sections (all by default; `--only engine,render,storage,memory,roundtrip` picks some):

- engine: median and p99 of one `apply` and one `legal_actions` per game and mode over whole
  random games, and whether the cost per action stays flat as a game grows (last-quarter
  median over first-quarter median);
- render: public board and private pictures per game and mode, median/p99 ms and bytes;
- storage: stored bytes per whole game and the time of one persisted action (SQLite);
- memory: RSS growth per loaded game over many games;
- roundtrip: the real bot in its own process against the local Discord emulator with the real
  discord.py client — slash command → acknowledgement and → board posted, p50/p99, with 1, 50
  and 200 games played at once, as a multiple of the bare emulator round trip, and the bot's
  event-loop lag meanwhile (beside the same probe in an idle process: the shared machine's
  own stalls, and in the emulator's process).

Figures are printed, checked against the targets (issue #8) and written as JSON to
`bench/results/latest.json` and a timestamped copy (or `--out PATH`). `--quick` runs every
section small and fast. Timings on a shared machine are noisy: the JSON records the load
average at the start and end.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import time
from pathlib import Path
from typing import Any

from bench.engine import bench_engine, bench_render, default_players, modes
from bench.footprint import bench_memory, bench_storage
from bench.roundtrip import bare_roundtrip, games_roundtrip

SECTIONS = ("engine", "render", "storage", "memory", "roundtrip")


class Plan:
    """How much of each section to run."""

    def __init__(self, quick: bool, args: argparse.Namespace) -> None:
        self.engine_games = args.games or (3 if quick else 50)
        self.renders = args.renders or (4 if quick else 30)
        self.storage_games = 1
        self.memory_games = args.memory_games or (50 if quick else 1000)
        self.pings = 30 if quick else 300
        self.think = args.think
        # (games at once, mean think time s, measured seconds)
        self.scenarios: list[tuple[int, float, float]] = (
            [(1, 0.2, 4.0), (5, 1.0, 6.0)] if quick else
            [(1, 0.3, 20.0), (50, args.think, args.seconds),
             (200, args.think, args.seconds)])
        if args.scenarios:
            self.scenarios = [(int(n), args.think if n != "1" else 0.3, args.seconds)
                              for n in args.scenarios.split(",")]


def run_engine(plan: Plan) -> list[dict[str, Any]]:
    out = []
    for name, mode in modes():
        e = bench_engine(name, mode, default_players(name, mode), plan.engine_games)
        out.append(e)
        print(f"engine {name}/{mode} {e['players']}p: apply {e['apply']} legal "
              f"{e['legal_actions']}; last/first quarter ×{e['apply_growth_last_over_first']} "
              f"(legal ×{e['legal_growth_last_over_first']}); state ≤ {e['state_bytes_max']} B;"
              f" {e['actions_per_game_median']} actions/game", flush=True)
    return out


def run_render(plan: Plan) -> list[dict[str, Any]]:
    out = []
    for name, mode in modes():
        r = bench_render(name, mode, default_players(name, mode), plan.renders)
        out.append(r)
        print(f"render {name}/{mode}: public {r['public']} private {r['private']}", flush=True)
    return out


def run_storage(plan: Plan) -> dict[str, Any]:
    s = bench_storage(plan.storage_games)
    print(f"storage: {s['stored_bytes_per_game_median']} B/game (db growth, median), "
          f"append_action {s['append_action']}, CPU {s['append_action_cpu']}", flush=True)
    return s


def run_memory(plan: Plan) -> dict[str, Any]:
    m = bench_memory(plan.memory_games)
    print(f"memory: {m['rss_per_game_kb']} KiB RSS per loaded game over {m['games']} games",
          flush=True)
    return m


def run_roundtrip(plan: Plan) -> dict[str, Any]:
    bare = asyncio.run(bare_roundtrip(plan.pings))
    print(f"roundtrip bare emulator: ack {bare['ack']}, client loop lag {bare['loop_lag']}",
          flush=True)
    out: dict[str, Any] = {"bare": bare, "scenarios": []}
    base = bare["ack"]["p50_ms"] or 1e-9
    for games, think, seconds in plan.scenarios:
        r = asyncio.run(games_roundtrip(games, think, seconds))
        r["ack_p50_over_bare"] = round(r["ack"]["p50_ms"] / base, 1)
        r["board_p50_over_bare"] = round(r["board"]["p50_ms"] / base, 1)
        r["load_average_after"] = round(os.getloadavg()[0], 2)
        out["scenarios"].append(r)
        print(f"roundtrip {games} games (think {think}s, {r['moves']} moves, "
              f"{r['moves_per_s']}/s, {r['failures']} failed): ack {r['ack']} "
              f"(×{r['ack_p50_over_bare']} bare) board {r['board']} bot loop lag "
              f"{r['loop_lag']}; an idle process meanwhile {r['idle_process_loop_lag']}",
              flush=True)
    return out


def check_targets(results: dict[str, Any]) -> list[dict[str, Any]]:
    """Issue #8's targets against what was measured; `met` is None where not measured."""
    checks: list[dict[str, Any]] = []

    def add(target: str, value: float | None, limit: float, where: str) -> None:
        checks.append({"target": target, "where": where, "value": value, "limit": limit,
                       "met": None if value is None else value < limit})

    for e in results.get("engine", []):
        where = f"{e['game']}/{e['mode']}"
        add("apply median < 1 ms", e["apply"]["median_ms"], 1.0, where)
        add("apply cost flat over a game (last/first quarter < 1.5)",
            e["apply_growth_last_over_first"], 1.5, where)
    for r in results.get("render", []):
        where = f"{r['game']}/{r['mode']}"
        add("board render < 150 ms (median wall)", r["public"]["median_ms"], 150.0, where)
        add("private picture < 150 ms (median wall)", r["private"]["median_ms"], 150.0, where)
        if "cpu_median_ms" in r["public"]:
            add("board render < 150 ms (median CPU)", r["public"]["cpu_median_ms"], 150.0,
                where)
    for s in results.get("roundtrip", {}).get("scenarios", []):
        where = f"{s['games']} games"
        if s["games"] >= 200:
            add("ack p99 < 100 ms with 200 games", s["ack"]["p99_ms"], 100.0, where)
        add("move → board posted median < 100 ms", s["board"]["p50_ms"], 100.0, where)
        add("event-loop stall < 20 ms at any time", s["loop_lag"]["max_ms"], 20.0, where)
        if "idle_process_loop_lag" in s:
            add("(the machine: an idle process's stall, same window)",
                s["idle_process_loop_lag"]["max_ms"], 20.0, where)
    return checks


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="every section, small and fast")
    parser.add_argument("--only", default=",".join(SECTIONS),
                        help=f"comma-separated sections of {', '.join(SECTIONS)}")
    parser.add_argument("--games", type=int, default=0, help="random games per game and mode")
    parser.add_argument("--renders", type=int, default=0, help="pictures per game and mode")
    parser.add_argument("--memory-games", type=int, default=0)
    parser.add_argument("--think", type=float, default=15.0,
                        help="round trip: mean seconds a player thinks between moves")
    parser.add_argument("--seconds", type=float, default=60.0,
                        help="round trip: measured seconds per scenario")
    parser.add_argument("--scenarios", default="",
                        help="round trip: games at once, comma-separated (default 1,50,200)")
    parser.add_argument("--out", default="bench/results/latest.json")
    args = parser.parse_args()
    plan = Plan(args.quick, args)
    wanted = [s.strip() for s in args.only.split(",") if s.strip()]
    unknown = [s for s in wanted if s not in SECTIONS]
    if unknown:
        parser.error(f"unknown section(s) {unknown}; known: {', '.join(SECTIONS)}")
    results: dict[str, Any] = {
        "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                    "load_average_start": round(os.getloadavg()[0], 2)},
        "quick": args.quick,
    }
    runners = {"engine": run_engine, "render": run_render, "storage": run_storage,
               "memory": run_memory, "roundtrip": run_roundtrip}
    for section in SECTIONS:
        if section in wanted:
            began = time.perf_counter()
            results[section] = runners[section](plan)
            results.setdefault("section_seconds", {})[section] = round(
                time.perf_counter() - began, 1)
    results["machine"]["load_average_end"] = round(os.getloadavg()[0], 2)
    results["targets"] = check_targets(results)
    for c in results["targets"]:
        mark = {True: "met ", False: "MISS", None: "  - "}[c["met"]]
        print(f"[{mark}] {c['target']} — {c['where']}: {c['value']} (limit {c['limit']})")
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(results, indent=2)
    out.write_text(text)
    stamped = out.with_name(f"bench-{time.strftime('%Y%m%d-%H%M%S')}.json")
    stamped.write_text(text)
    print(f"written {out} and {stamped}")


if __name__ == "__main__":
    main()
