"""`python -m bench ai`: how strong the AI is, side by side with today's, on paired seeds.

    python -m bench ai --games 40 --level normal
    python -m bench ai --games 400 --level hard --settings fourth_wall:conflict:4,presence:session:4
    python -m bench ai --games 20 --level normal --workers 2 --out bench/results/ai.json
    python -m bench ai --settings fourth_wall:conflict:4 --option wrath_doom=2 --sides wall

`--option key=value` sets a table option of every setting's game (`gates=4`: Fourth Wall's
Open Gates at the start; `wrath_doom=2`: Fourth Wall's Doom per Wrath, ruling FW-LOBBY-03, as a
table chooses it in `/game new`); `--pack-option key=value` plays Fourth Wall with the shipped
content pack but one pack option changed (e.g. `brood_doom=2`), written to a folder the games
read as their `pack_path`. `--sides wall,investigators` searches only those sides of an
opposing setting (the baseline is always played); `--sides all` plays `--level` on every seat
at once (a table of AIs at that level), each side's rate read off the same games.
`--progress PATH` appends every finished game to PATH as a JSON line, and `--report PATH...`
prints the summary of such files (runs over disjoint `--seed` ranges side by side, or a run cut
short), on the seeds both the baseline and the search were played:

    python -m bench ai --settings fourth_wall:conflict:4 --games 40 --seed 41 --sides wall \
        --option wrath_doom=2 --workers 1 --progress /tmp/w2.jsonl
    python -m bench ai --report /tmp/w1.jsonl /tmp/w2.jsonl

`--deal evil` plays only the seeds whose hidden deal is of that kind (`deal_of`; The
Presence's spirit script: `evil` deals are the opposing games), the first `--games` of them
from `--seed` on, so a balance figure for the opposing game is measured on opposing games
alone and a later run can repeat it seed for seed:

    python -m bench ai --settings presence:session:4 --deal evil --games 166 --sides all \
        --workers 1 --progress /tmp/evil.jsonl

For every setting (game, mode, players) each side is played in turn by the searching AI at
`--level` while every other seat plays today's heuristic (the "easy" level), and, on the same
seeds, by today's heuristic on every seat (the baseline): so a side's win rate under the new AI
is read against the same deals. A co-operative setting (one side, or the house as the other)
has its whole table play the level. Per setting and side it prints the win rate with a 95 %
Wilson interval, beside the baseline's, the CPU per decision of the searching seats (median,
p95, max) and the blunder census (`bench.blunders`: back-and-forth moves, turns ended with
useful actions left before a loss that one of them would have turned into a win, repeated
disproven Invokes, Gives into a full hand). Where a hidden part of the deal decides whether
the sides oppose each other at all (The Presence's script: a good spirit wins with the
visitors), each side's rate is also printed per kind of deal (`deal_of`: "evil script",
"good script"), the opposing games on their own line.

Game outcomes do not depend on the machine's speed (the search's budget is a count of
simulations) unless a decision hits its time cap, which is counted and printed ("capped").
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import statistics
import sys
import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from bench.blunders import census
from rules.core.game import Game
from rules.core.search import level_of
from rules.registry import GAMES

MAX_DECISIONS = 6000
DEFAULT_SETTINGS = ("exorcism:core:3", "exorcism:one_vs_all:4", "exorcism:solo:1",
                    "fourth_wall:conflict:4", "fourth_wall:alliance:3",
                    "fourth_wall:alliance:5", "presence:session:3", "presence:session:4")


def side_of(game_name: str, state: Any, seat: str) -> str:
    """The side a seat plays on, in the game's words."""
    if game_name == "presence":
        return "spirit" if seat == state.spirit_seat else "visitors"
    if game_name == "fourth_wall":
        return "wall" if seat == state.wall_seat else "investigators"
    if game_name == "exorcism":
        return "ghost" if seat == state.ghost_seat else "investigators"
    return "players"


def deal_of(game_name: str, state: Any) -> str:
    """What of the deal, hidden during play, splits a side's rate in two: The Presence's spirit
    script, good (its spirit wins with the visitors, P-WIN-05) or evil (it must be revealed and
    then beat them, P-WIN-04): only an evil script makes an opposing game. Read from the
    finished game's real state, for the report; no AI reads it. "" where nothing splits."""
    if game_name == "presence" and state.script:
        from rules.presence.engine import pack_for

        return f"{pack_for(state.pack_path).script(state.script).alignment} script"
    return ""


@dataclass
class Played:
    """One whole game: which sides won, how long it took, the searching seats' CPU."""

    seed: int
    winners: list[str]
    reason: str
    decisions: int
    cpu: list[float] = field(default_factory=list)
    capped: int = 0
    blunders: dict[str, int] = field(default_factory=dict)
    deal: str = ""
    """`deal_of` the game ("evil script"); "" where nothing splits it, and in older files."""


def play(game_name: str, mode: str, players: int, seed: int, searching: str | None,
         level: str, options: dict[str, Any] | None = None) -> Played:
    """A whole game; seats on side `searching` (every seat when "all") play `level`;
    `options` are table options on top of the mode."""
    game: Game[Any, Any] = GAMES[game_name]
    seats = [f"p{i}" for i in range(1, players + 1)]
    state = game.setup(seats, game.options_model(mode=mode, **(options or {})), seed)
    cpu: list[float] = []
    capped = 0
    cap = level_of(game, level)
    history: list[tuple[Any, str, Any, Any]] = []
    decisions = 0
    while game.result(state) is None and decisions < MAX_DECISIONS:
        seat = sorted(game.to_act(state))[0]
        side = side_of(game_name, state, seat)
        if searching in ("all", side) and level != "easy":
            t0 = time.process_time()
            action = game.ai_action(state, seat, level)
            cpu.append(time.process_time() - t0)
            if cap is not None and cpu[-1] > cap.cap_seconds:
                capped += 1
        else:
            action = game.ai_action(state, seat)
        after = game.apply(state, seat, action).state
        history.append((state, seat, action, after))
        state = after
        decisions += 1
    result = game.result(state)
    winners = sorted({side_of(game_name, state, s) for s in (result.winners if result else [])})
    return Played(seed, winners, result.reason if result else "unfinished", decisions, cpu,
                  capped, dict(census(game_name, history, result)), deal_of(game_name, state))


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a win rate."""
    if n == 0:
        return (0.0, 0.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def deal_seeds(game_name: str, mode: str, players: int, options: dict[str, Any],
               first_seed: int, games: int, deal: str) -> list[int]:
    """The first `games` seeds from `first_seed` on whose deal is `deal` ("evil" or "evil
    script", as `deal_of` names it), read off each seed's setup: the hidden part of the deal
    is fixed there, before any seat decides anything."""
    game: Game[Any, Any] = GAMES[game_name]
    seats = [f"p{i}" for i in range(1, players + 1)]
    wanted = deal if deal.endswith(" script") else f"{deal} script"
    seeds: list[int] = []
    seed = first_seed
    while len(seeds) < games:
        if seed - first_seed > 100 * max(games, 1):
            raise SystemExit(f"no {wanted!r} deal among seeds {first_seed}-{seed} of "
                             f"{game_name} ({mode}, {players} players)")
        state = game.setup(seats, game.options_model(mode=mode, **options), seed)
        if deal_of(game_name, state) == wanted:
            seeds.append(seed)
        seed += 1
    return seeds


def sides(game_name: str, mode: str, players: int) -> list[str]:
    """The sides a seat can be on in this setting (one: a co-operative table)."""
    game = GAMES[game_name]
    state = game.setup([f"p{i}" for i in range(1, players + 1)], game.options_model(mode=mode), 1)
    return sorted({side_of(game_name, state, s) for s in state.seats})


def _job(args: tuple[str, str, int, int, str | None, str, dict[str, Any]]) -> Played:
    return play(*args)


def table_options(game_name: str, options: dict[str, Any],
                  pack_options: dict[str, str]) -> dict[str, Any]:
    """The options one setting's games are set up with: `options` where the game has them,
    and for Fourth Wall a variant of the shipped pack when `pack_options` are given."""
    fields = GAMES[game_name].options_model.model_fields
    out = {k: v for k, v in options.items() if k in fields}
    if game_name == "fourth_wall" and pack_options:
        from bench.fourth_wall_ai import variant_pack

        out["pack_path"] = variant_pack(pack_options)
    return out


def run(settings: list[str], games: int, level: str, workers: int,
        first_seed: int = 1, options: dict[str, Any] | None = None,
        pack_options: dict[str, str] | None = None,
        only_sides: list[str] | None = None, progress: str | None = None,
        baseline: bool = True, deal: str | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"level": level, "games": games, "settings": {},
                           "options": options or {}, "pack_options": pack_options or {}}
    pool = multiprocessing.Pool(workers) if workers > 1 else None
    try:
        for setting in settings:
            game_name, mode, n = setting.split(":")
            players = int(n)
            chosen = table_options(game_name, options or {}, pack_options or {})
            seeds = (deal_seeds(game_name, mode, players, chosen, first_seed, games, deal)
                     if deal else list(range(first_seed, first_seed + games)))
            table_sides = sides(game_name, mode, players)
            runs: dict[str, list[Played]] = {}
            configs: list[str | None] = [None] if baseline else []
            if len(table_sides) > 1 and only_sides == ["all"]:
                configs.append("all")  # the level on every seat of an opposing table
            elif len(table_sides) > 1:
                table_sides = [s for s in table_sides if not only_sides or s in only_sides]
                configs += table_sides
            else:
                configs.append("all")
            for searching in configs:
                jobs = [(game_name, mode, players, s, searching,
                         "easy" if searching is None else level, chosen) for s in seeds]
                began = time.perf_counter()
                # each game is logged as it comes back, workers or not: a long run cut short
                # keeps what it played (with workers, `pool.map` went unlogged altogether)
                played = [_logged(p, setting, searching, progress, chosen) for p in (
                    pool.imap(_job, jobs) if pool else map(_job, jobs))]
                runs[searching or "baseline"] = played
                print(f"  {setting} {searching or 'baseline'}: {len(played)} games in "
                      f"{time.perf_counter() - began:.0f} s", file=sys.stderr)
            if not baseline:  # paired later: `--report` with a file holding the baseline
                print(f"  {setting}: no baseline played; --report this run's --progress file "
                      "with one that has it", file=sys.stderr)
                continue
            out["settings"][setting] = summarise(table_sides, runs)
            report(setting, out["settings"][setting], level)
    finally:
        if pool:
            pool.close()
    return out


def _logged(played: Played, setting: str, searching: str | None,
            progress: str | None, options: dict[str, Any] | None = None) -> Played:
    """`played`, after appending it to the `--progress` file as one JSON line (with the
    table options it was played with): a long run on a busy machine leaves every finished
    game behind, not only the summary at its end."""
    if progress:
        with open(progress, "a") as out:
            out.write(json.dumps({"setting": setting, "searching": searching or "baseline",
                                  "options": options or {}, **asdict(played)}) + "\n")
    return played


def from_progress(paths: list[str], level: str) -> dict[str, Any]:
    """The summary of games written by `--progress` (several runs over disjoint seeds, or a
    run cut short): per setting, the baseline and each searched side on the seeds both
    have, so the comparison stays paired."""
    rows: dict[str, dict[str, dict[int, Played]]] = {}
    for path in paths:
        for line in Path(path).read_text().splitlines():
            if not line.strip():
                continue
            data = json.loads(line)
            setting, searching = data.pop("setting"), data.pop("searching")
            options = data.pop("options", {})
            if options:  # the same table under other options is another setting
                setting += " " + " ".join(f"{k}={v}" for k, v in sorted(options.items()))
            rows.setdefault(setting, {}).setdefault(searching, {})[data["seed"]] = Played(
                **data)
    out: dict[str, Any] = {"level": level, "settings": {}, "from": paths}
    for setting, runs in rows.items():
        base = runs.get("baseline", {})
        game_name, mode, n = setting.split()[0].split(":")
        table_sides = sides(game_name, mode, int(n))
        # Each searched run is paired with the baseline on its own seeds: a side searched
        # alone, or every seat at once ("all"; on an opposing table its own line).
        for searching in sorted(k for k in runs if k != "baseline"):
            seeds = sorted(set(base) & set(runs[searching]))
            label = setting + (" every seat" if searching == "all" and len(table_sides) > 1
                               else "")
            if not seeds:
                print(f"{label}: no game both with and without the search yet",
                      file=sys.stderr)
                continue
            covered = table_sides if searching == "all" else [searching]
            paired = {"baseline": [base[s] for s in seeds],
                      searching: [runs[searching][s] for s in seeds]}
            summary = summarise(covered, paired)
            if label in out["settings"]:
                out["settings"][label]["sides"].update(summary["sides"])
            else:
                out["settings"][label] = summary
        for label, summary in out["settings"].items():
            if label.split(" every seat")[0] == setting:
                report(label, summary, level)
    return out


def summarise(table_sides: list[str], runs: dict[str, list[Played]]) -> dict[str, Any]:
    base = runs["baseline"]
    summary: dict[str, Any] = {"sides": {}, "baseline_reasons": Counter(
        p.reason for p in base).most_common(5)}
    for side in table_sides:
        searching = runs.get(side) or runs.get("all") or []
        n = len(searching)
        won = sum(side in p.winners for p in searching)
        base_won = sum(side in p.winners for p in base)
        cpu = sorted(c for p in searching for c in p.cpu)
        blunders: Counter[str] = Counter()
        base_blunders: Counter[str] = Counter()
        for p in searching:
            blunders.update(p.blunders)
        for p in base:
            base_blunders.update(p.blunders)
        summary["sides"][side] = {
            "games": n, "won": won, "rate": round(won / n, 3) if n else None,
            "ci95": [round(x, 3) for x in wilson(won, n)],
            "baseline_rate": round(base_won / len(base), 3) if base else None,
            "baseline_ci95": [round(x, 3) for x in wilson(base_won, len(base))],
            "nobody_wins": round(sum(not p.winners for p in searching) / n, 3) if n else None,
            "cpu_ms": {"median": round(1000 * statistics.median(cpu), 1) if cpu else None,
                       "p95": round(1000 * cpu[int(0.95 * (len(cpu) - 1))], 1) if cpu else None,
                       "max": round(1000 * cpu[-1], 1) if cpu else None,
                       "decisions": len(cpu)},
            "capped": sum(p.capped for p in searching),
            # A game cut at MAX_DECISIONS: an AI going round in a circle (a choice called
            # off and made again), which the bot cuts short (`TableService._unloop`).
            "unfinished": sum(p.reason == "unfinished" for p in searching),
            "baseline_unfinished": sum(p.reason == "unfinished" for p in base),
            "blunders": dict(blunders), "baseline_blunders": dict(base_blunders),
            "reasons": Counter(p.reason for p in searching).most_common(5),
            "by_deal": {deal: _deal_rates(side, [p for p in searching if p.deal == deal],
                                          [p for p in base if p.deal == deal])
                        for deal in sorted({p.deal for p in searching if p.deal})},
        }
    return summary


def _deal_rates(side: str, searching: list[Played], base: list[Played]) -> dict[str, Any]:
    """A side's rate on the games of one kind of deal (The Presence's evil scripts: the
    opposing games, where the issue's 35-65 % per side is read), beside easy's on them.
    Unlike the side's own line, `nobody_wins` and `alone` here are counts of games, not rates:
    a deal's sample is small, and the count is what a reader checks against the whole."""
    won = sum(side in p.winners for p in searching)
    base_won = sum(side in p.winners for p in base)
    n = len(searching)
    return {"games": n, "won": won, "rate": round(won / n, 3) if n else None,
            "ci95": [round(x, 3) for x in wilson(won, n)],
            "alone": sum(p.winners == [side] for p in searching),
            "nobody_wins": sum(not p.winners for p in searching),
            "baseline_games": len(base),
            "baseline_rate": round(base_won / len(base), 3) if base else None}


def report(setting: str, summary: dict[str, Any], level: str) -> None:
    for side, s in summary["sides"].items():
        lo, hi = s["ci95"]
        blo, bhi = s["baseline_ci95"]
        print(f"{setting:24} {side:14} {level}: {s['rate']:.0%} [{lo:.0%}–{hi:.0%}] vs easy "
              f"{s['baseline_rate']:.0%} [{blo:.0%}–{bhi:.0%}] over {s['games']} games; "
              f"nobody wins {s['nobody_wins']:.0%}; CPU/decision median {s['cpu_ms']['median']} "
              f"ms p95 {s['cpu_ms']['p95']} max {s['cpu_ms']['max']} ({s['capped']} capped); "
              f"unfinished {s['unfinished']} (easy: {s['baseline_unfinished']}); "
              f"blunders {s['blunders'] or 'none'} (easy: {s['baseline_blunders'] or 'none'})")
        for deal, d in s.get("by_deal", {}).items():
            lo, hi = d["ci95"]
            easy = (f"easy {d['baseline_rate']:.0%} over {d['baseline_games']}"
                    if d["baseline_games"] else "no easy games")
            print(f"{'':24} {'':14} {deal + ':':14} {d['rate']:.0%} [{lo:.0%}–{hi:.0%}] over "
                  f"{d['games']} games ({d['alone']} alone, nobody {d['nobody_wins']}); {easy}")


def _pair(text: str) -> tuple[str, str]:
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise SystemExit(f"expected KEY=VALUE, got {text!r}")
    return key.strip(), value.strip()


def _option_value(text: str) -> Any:
    """A command-line option value as the options model reads it (numbers as numbers)."""
    try:
        return int(text)
    except ValueError:
        return text


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench ai", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=40, help="games per setting and side")
    parser.add_argument("--level", default="normal", choices=("easy", "normal", "hard"))
    parser.add_argument("--settings", default=",".join(DEFAULT_SETTINGS),
                        help="comma-separated game:mode:players")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", type=int, default=1, help="the first of the paired seeds")
    parser.add_argument("--out", default="bench/results/ai.json")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="a table option for every setting whose game has it (gates=4)")
    parser.add_argument("--pack-option", action="append", default=[], metavar="KEY=VALUE",
                        help="Fourth Wall: play a variant of the shipped pack (brood_doom=2)")
    parser.add_argument("--progress", default=None, metavar="PATH",
                        help="append every finished game to PATH as a JSON line (one worker)")
    parser.add_argument("--sides", default="",
                        help="comma-separated sides to search in opposing settings, one at a time "
                        "(default: each side in turn); 'all': every seat at once")
    parser.add_argument("--no-baseline", action="store_true",
                        help="skip the easy-on-every-seat games (another run's --progress file "
                        "has them on the same seeds; --report both files together)")
    parser.add_argument("--deal", default=None, metavar="KIND",
                        help="only seeds whose hidden deal is KIND (The Presence: evil, good), "
                        "the first --games of them from --seed on")
    parser.add_argument("--report", nargs="+", metavar="JSONL",
                        help="play nothing: summarise games written by --progress")
    args = parser.parse_args(argv)
    if args.report:
        from_progress(args.report, args.level)
        return
    settings = [s.strip() for s in args.settings.split(",") if s.strip()]
    options = {k: _option_value(v) for k, v in (_pair(o) for o in args.option)}
    pack_options = dict(_pair(o) for o in args.pack_option)
    only = [s.strip() for s in args.sides.split(",") if s.strip()]
    results = run(settings, args.games, args.level, args.workers, args.seed, options,
                  pack_options, only, args.progress, not args.no_baseline, args.deal)
    results["when"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    results["load_average"] = round(os.getloadavg()[0], 2)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=2, default=lambda o: asdict(o)))
    print(f"written {out}")


if __name__ == "__main__":
    main()
