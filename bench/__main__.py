"""`python -m bench`: measured speed of the engine, the renders, storage and the bot on Discord.

Sections (all but `suite` by default; `--only games,saturation` picks some):

- engine: median and p99 of one `apply` and one `legal_actions` per game and mode over whole
  random games, and whether the cost per action stays flat as a game grows (last-quarter
  median over first-quarter median);
- render: the turn card, the public board and a seat's board per game and mode, move after
  move and spread over a game, CPU and wall ms and bytes, the render caches' sizes and the
  encoders compared (bench/render.py; issue #15's target: 12 ms of CPU at the median);
- cards: the turn card as one render worker draws it when many games are played at once
  (bench/render.py `bench_cards_interleaved`: 20 AI games of every kind in turn, 600 cards
  drawn in a random interleaving of their moves), CPU per card: the render worker's share of
  a move at saturation (the render section's one-game figure is what its caches make of it);
- storage: stored bytes per whole game and the time of one persisted action (SQLite);
- memory: RSS growth per loaded game over many games;
- roundtrip: the real bot in its own process against the local Discord emulator with the real
  discord.py client — slash command → acknowledgement and → board posted, p50/p99, with 1, 50
  and 200 games played at once, as a multiple of the bare emulator round trip, and the bot's
  event-loop lag meanwhile (beside the same probe in an idle process: the shared machine's
  own stalls, and in the emulator's process);
- games: whole games of every game and mode through the emulator, one at a time, typed and
  pressed: CPU of the bot's whole process tree (bot + render worker) per move, median over the
  games; requests to Discord per move; the tree's memory after start;
- list: `/game list` with 10,000 stored games, 1,700 open in one server (bench/gamelist.py):
  p50/p99 of the bot's work for a page (storage's page, the embed and buttons) at the first,
  middle and last pages, beside the whole-row read it replaced; and the bot's start-up (process
  started → connected, commands synced) with that database and with an empty one;
- saturation: 500 games at 15 s think time while a competing process holds one of the cores
  busy (started and stopped by the bench; `--quiet-machine`: 1,000 games, no competing
  process, for a machine nobody else uses), measured after a minute's warm-up under the same
  load (`--warmup`: games under way, not only their openings; the warm-up's own requests per
  move, first DMs included, are printed beside): interactions answered past Discord's 3 s (or
  refused as late), first-answer p99, board p99, whether boards queue up (last quarter's board
  median over the first's), requests per move (with the bot's token, and all), moves per second
  per core, memory per active game — each beside its target (issue #25) and the load average;
- pergame: the real bot against the emulator, games opened one after another (each started
  and played a few moves, all left running) and every process of the bot's tree measured
  after each (bench/pergame.py): RSS growth per active game over games 2–21 and 21–41, per
  process (bot, render worker, AI worker if started) and for the tree, beside issue #25's
  0.3 MiB target (the saturation figure averages 500 games, where the render worker's filled
  caches weigh nothing);
- history: `/game log`, `/game replay` and `/game undo` at move 20 and at move 2,000 of a long
  game (bench/history.py: a real game dealt again round after round), CPU and wall, the first
  log of a game without snapshots, a fresh process's first log, the worst place between two
  snapshots, the event loop's worst lag meanwhile, at a few snapshot intervals; the ratio at
  2,000 over 20 beside issue #25's 1.5× target;
- `python -m bench ai` (its own command, bench/ai.py): the AI's strength per game, mode,
  side and level on paired seeds, with CPU per decision and a blunder census;
- `python -m bench memory` (its own command, bench/memory_stats.py): `/game stats` and
  `/game history` on a server with 10,000 finished games, p50/p99 beside the 1 s target;
- suite (only when asked): the default test suite's CPU (user + system of pytest and its
  children: the xdist workers, as the README's command runs it) and its wall time.

Figures are printed beside their targets (issues #8, #15 and #25) with the load average of the
section that measured them, and written as JSON to `bench/results/latest.json` and a
timestamped copy (or `--out PATH`). `--quick` runs every section small and fast. Timings on a
shared machine are noisy, so a missed target fails the run (exit status 1) only with `--check`,
meant for a quiet machine.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from bench.engine import bench_engine, bench_render, default_players, modes
from bench.footprint import bench_memory, bench_storage
from bench.gamelist import bench_list
from bench.history import bench_history
from bench.pergame import ROLES, bench_pergame
from bench.render import bench_cards_interleaved
from bench.roundtrip import TABLES, bare_roundtrip, games_roundtrip, whole_games
from bot.tables import SNAPSHOT_EVERY

SECTIONS = ("engine", "render", "cards", "storage", "memory", "history", "games", "list",
            "roundtrip", "saturation", "pergame", "suite")
DEFAULT_SECTIONS = SECTIONS[:-1]


class Plan:
    """How much of each section to run."""

    def __init__(self, quick: bool, args: argparse.Namespace) -> None:
        self.engine_games = args.games or (3 if quick else 50)
        self.renders = args.renders or (4 if quick else 30)
        self.storage_games = 1
        # (AI games of each kind in TABLES, turn cards drawn interleaved)
        self.cards = (1, 12) if quick else (20, 600)
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
        self.whole_games = args.whole_games or 1
        # (snapshot intervals, repeats per figure) of the history section
        self.history: tuple[tuple[int, ...], int] = (
            ((SNAPSHOT_EVERY,), 5) if quick else ((16, SNAPSHOT_EVERY, 32), 15))
        # (stored games, open in the busy server, timed calls per page, start-ups timed)
        self.list_games = (2_000, 340, 30, 1) if quick else (10_000, 1_700, 200, 3)
        self.styles: tuple[str, ...] = ("press",) if quick else ("type", "press")
        # (games at once, mean think time s, measured seconds), with one core kept busy
        # unless the machine is quiet (then twice the games)
        games = args.saturation_games or (1000 if args.quiet_machine else 500)
        self.saturation = ((24, 1.5, 10.0) if quick else (games, args.think, args.seconds))
        self.saturation_busy_core = not args.quiet_machine
        # Seconds the saturation's games play before the measured stretch (their openings)
        self.saturation_warmup = 3.0 if quick else args.warmup
        # (games opened one after another, moves played in each)
        self.pergame = (args.pergame_games or (22 if quick else 41), 2 if quick else 4,
                        args.pergame_ai)


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
        print(f"render {name}/{mode}: turn card {r['card']} public {r['public']} seat "
              f"{r['private']}; caches {r['caches']}", flush=True)
    return out


def run_cards(plan: Plan) -> dict[str, Any]:
    games, cards = plan.cards
    c = bench_cards_interleaved(TABLES, games, cards)
    print(f"cards: {c['cards']} turn cards of {c['games']} games drawn interleaved (one render "
          f"worker at saturation): CPU mean {c['cpu_mean_ms']} ms, median "
          f"{c['cpu_median_ms']} ms, p99 {c['cpu_p99_ms']} ms; {c['bytes_median']} B median; "
          f"caches {c['caches']}", flush=True)
    return c


def run_storage(plan: Plan) -> dict[str, Any]:
    s = bench_storage(plan.storage_games)
    print(f"storage: {s['stored_bytes_per_game_median']} B/game (db growth, median; its "
          f"snapshots {s['snapshot_json_bytes_per_game_median']} B of JSON before zlib), "
          f"append_action {s['append_action']}, CPU {s['append_action_cpu']}", flush=True)
    return s


def run_memory(plan: Plan) -> dict[str, Any]:
    m = bench_memory(plan.memory_games)
    print(f"memory: {m['rss_per_game_kb']} KiB RSS per loaded game over {m['games']} games",
          flush=True)
    return m


def run_history(plan: Plan) -> dict[str, Any]:
    everies, repeats = plan.history
    h = asyncio.run(bench_history(everies=everies, repeats=repeats))
    for row in h["by_snapshot_every"]:
        every = row["snapshot_every"]
        for move in (str(h["short"]), str(h["long"])):
            r = row[move]
            worst = (f"; {r['worst_step'] % every} past a snapshot (move {r['worst_step']}): "
                     f"log {r['log_worst']['cpu_ms']} replay {r['replay_worst']['cpu_ms']}"
                     if "log_worst" in r else "")
            print(f"history every {every}, move {r['move']}: CPU ms log {r['log']['cpu_ms']} "
                  f"(a fresh process {r['log_fresh_service']['cpu_ms']}, a game without "
                  f"snapshots {r['first_log']['cpu_ms']}), replay {r['replay']['cpu_ms']}, "
                  f"undo {r['undo']['cpu_ms']}{worst}; loop lag ≤ "
                  f"{max(v['loop_lag_max_ms'] for v in r.values() if isinstance(v, dict))} ms",
                  flush=True)
        ratios = ", ".join(f"{op} ×{v}" for op, v in row["ratio_long_over_short_cpu"].items())
        print(f"history every {every}: move {h['long']} over move {h['short']} (CPU): {ratios} "
              f"(target ≤ ×{h['target_ratio']}); the loop idle lags ≤ "
              f"{h['idle_loop_lag_max_ms']} ms", flush=True)
    return h


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


def run_games(plan: Plan) -> dict[str, Any]:
    g = asyncio.run(whole_games(plan.whole_games, plan.styles))
    for row in g["games"]:
        print(f"game {row['game']}/{row['mode']} {row['players']}p ({row['style']}): "
              f"{row['moves']} moves, CPU {row['cpu_ms_per_move']} ms/move (bot process "
              f"{row['cpu_ms_per_move_bot_process']}), {row['requests_per_move']} requests/move "
              f"({row['setup_requests']} to set up); {row['messages']}", flush=True)
    print(f"games: CPU {g['cpu_ms_per_move_median']} ms/move (median), requests/move "
          f"{g['requests_per_move_mean']} {g['requests_per_move_by_style']}; memory after "
          f"start {g['memory_after_start']}, after the games {g['memory_after_games']}",
          flush=True)
    return g


def run_list(plan: Plan) -> dict[str, Any]:
    total, open_here, calls, starts = plan.list_games
    r = bench_list(total, open_here, calls, starts)
    seeded, listed, start = r["seeded"], r["list"], r["start_up_s"]
    print(f"list: {seeded['games']} stored games ({seeded['busy_server']} in the busy server, "
          f"state {seeded['state_kb_mean']} KiB mean, {seeded['db_mib']} MiB), "
          f"{listed['pages']} pages of {listed['per_page']}", flush=True)
    for where in ("first page", "middle page", "last page"):
        t = listed[where]
        print(f"list: /game list {where}: p50 {t['p50_ms']} ms, p99 {t['p99_ms']} ms "
              f"(CPU p50 {t['cpu_p50_ms']} ms; target ≤ 10 ms)", flush=True)
    print(f"list: whole rows read as before: p50 {listed['whole_rows_before']['p50_ms']} ms; "
          f"start-up {start['stored_games']} s with the stored games (runs {start['runs']}), "
          f"{start['empty_database']} s empty (target ≤ 3 s)", flush=True)
    return r


SATURATION_TARGETS: tuple[tuple[str, str, float | None], ...] = (
    # (figure, what it is, the most it may be; None: reported, no target)
    ("interactions_past_3s", "interactions answered past Discord's 3 s", 0),
    ("first_answer_p99_ms", "first answer p99, ms", 500),
    ("board_p99_ms", "board posted p99, ms", 2000),
    ("board_last_over_first_quarter", "last/first quarter board median", 1.5),
    ("requests_per_move_bot_token", "requests per move with the bot's token", 1.9),
    ("requests_per_move", "requests per move, all", 2.5),
    ("moves_per_s_per_core_at_saturation", "moves per second per core", None),
)
"""Issue #25's targets for the saturation section."""


def run_saturation(plan: Plan) -> dict[str, Any]:
    games, think, seconds = plan.saturation
    busy = plan.saturation_busy_core
    r = asyncio.run(games_roundtrip(games, think, seconds, busy=busy,
                                    warmup=plan.saturation_warmup))
    r["first_answer_p99_ms"] = r["ack"]["p99_ms"]
    r["board_p99_ms"] = r["board"]["p99_ms"]
    # Each figure beside its target and the load average it was measured under.
    r["targets"] = {key: {"what": what, "value": r.get(key), "at_most": limit,
                          "met": None if limit is None or r.get(key) is None
                          else r[key] <= limit,
                          "load_average": r["load_average"]}
                    for key, what, limit in SATURATION_TARGETS}
    print(f"saturation {games} games (think {think}s, "
          f"{'one core busy' if busy else 'no competing process'}, {r['moves']} moves, "
          f"{r['failures']} failed, load average {r['load_average']}): board {r['board']}, "
          f"last/first quarter ×{r['board_last_over_first_quarter']}; first answer {r['ack']}, "
          f"{r['interactions_past_3s']} past 3 s (answered: {r['first_answers']}); "
          f"{r['moves_per_s_per_core_at_saturation']} "
          f"moves/s per core ({r['bot_cpu_ms_per_move']} ms of the tree's CPU per move, "
          f"{r['bot_process_cpu_ms_per_move']} in the bot's own process; the emulated Discord "
          f"and players {r['emulator_cpu_ms_per_move']} ms beside it); "
          f"{r['requests_per_move_bot_token']} bot-token requests/move, "
          f"{r['requests_per_move']} in all; memory {r['memory_with_games']} "
          f"({r['memory_per_game_mib']} MiB/game)", flush=True)
    if warm := r.get("warmup"):
        print(f"  warm-up, unmeasured (the games' openings, same load): {warm['seconds']} s, "
              f"{warm['moves']} moves, {warm['requests_per_move']} requests/move in all "
              f"({warm['first_dms']} first DMs), {warm['interactions_past_3s']} past 3 s",
              flush=True)
    print(f"  requests by route: {r['requests_by_route']}; per move before the bot's clean "
          f"stop wrote its held summary DMs: {r['requests_per_move_before_stop']}", flush=True)
    print(f"  summary DMs: {r['summary_dms']} (changes: what writing every DM at once would "
          "write; writes: the requests; held: changes kept back to settle)", flush=True)
    for target in r["targets"].values():
        limit = "" if target["at_most"] is None else f" (target ≤ {target['at_most']})"
        print(f"  {target['what']}: {target['value']}{limit}", flush=True)
    return r


def run_pergame(plan: Plan) -> dict[str, Any]:
    games, moves, ai_every = plan.pergame
    r = asyncio.run(bench_pergame(games, moves, ai_every=ai_every))
    ai = f", an easy AI seat every {ai_every} games" if ai_every else ""
    print(f"pergame: {games} games of {moves} moves{ai}, one after another "
          f"({r['failures']} failed moves, load average {r['load_average']}); after start "
          f"{r['after_start']}, after the last game {r['after_games'][-1]['rss_mib']}",
          flush=True)
    for window, per in r["mib_per_game"].items():
        kinds = ", ".join(f"{k} {per[k]}" for k in (*ROLES, "other") if k in per)
        target = ("(each kind's first game in it: what it loads once, no target)"
                  if window in r.get("one_time_windows", ())
                  else f"(target ≤ {r['target_mib_per_game']})")
        print(f"  games {window}: {per['tree']} MiB per game for the tree ({kinds}; PSS "
              f"{per.get('tree_pss')}) {target}", flush=True)
    return r


def run_suite(plan: Plan) -> dict[str, Any]:
    """The default test suite's CPU, user + system, pytest and every process it started."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    # The README's test command (`-n logical --dist loadgroup`: a worker per core).
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-n", "logical",
                           "--dist", "loadgroup", "-p", "no:cacheprovider", "--durations=15"],
                          cwd=ROOT, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    tail = done.stdout.strip().splitlines()[-18:]
    print("\n".join(tail))
    out = {"cpu_s": round(cpu, 1), "wall_s": round(time.perf_counter() - began, 1),
           "passed": done.returncode == 0, "tail": tail}
    print(f"suite: {out['cpu_s']} s CPU, {out['wall_s']} s wall, "
          f"{'passed' if out['passed'] else 'FAILED'}", flush=True)
    return out


ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def check_targets(results: dict[str, Any]) -> list[dict[str, Any]]:
    """Issues #8, #15 and #25's targets against what was measured; `met` is None where not
    measured. Each check carries the load average of the section that measured it."""
    checks: list[dict[str, Any]] = []
    loads: dict[str, Any] = results.get("section_load", {})
    section = ""

    def add(target: str, value: float | None, limit: float, where: str,
            at_most: bool = False) -> None:
        met = None if value is None else (value <= limit if at_most else value < limit)
        checks.append({"target": target, "where": where, "value": value, "limit": limit,
                       "met": met, "load_average": loads.get(section)})

    section = "engine"
    for e in results.get("engine", []):
        where = f"{e['game']}/{e['mode']}"
        add("apply median < 1 ms", e["apply"]["median_ms"], 1.0, where)
        add("apply cost flat over a game (last/first quarter < 1.5)",
            e["apply_growth_last_over_first"], 1.5, where)
    section = "render"
    for r in results.get("render", []):
        where = f"{r['game']}/{r['mode']}"
        add("board render < 150 ms (median wall)", r["public"]["median_ms"], 150.0, where)
        add("private picture < 150 ms (median wall)", r["private"]["median_ms"], 150.0, where)
        for kind, what in (("card", "turn card"), ("public", "public board"),
                           ("private", "seat board")):  # issue #15
            if kind in r:
                add(f"{what} render < 12 ms (median CPU)", r[kind]["cpu_median_ms"], 12.0,
                    where)
    section = "history"
    for row in results.get("history", {}).get("by_snapshot_every", []):
        if row["snapshot_every"] != SNAPSHOT_EVERY:
            continue  # the others are there to choose the interval by
        for op, words in (("log", "/game log"), ("replay", "/game replay"),
                          ("undo", "/game undo"), ("log_worst", "/game log, worst place"),
                          ("replay_worst", "/game replay, worst place")):
            if op in row["ratio_long_over_short_cpu"]:
                add(f"{words} at move 2,000 within 1.5× its cost at move 20 (CPU)",
                    row["ratio_long_over_short_cpu"][op], 1.5,
                    f"every {SNAPSHOT_EVERY} moves", at_most=True)
    section = "roundtrip"
    for s in results.get("roundtrip", {}).get("scenarios", []):
        where = f"{s['games']} games"
        if s["games"] >= 200:
            add("ack p99 < 100 ms with 200 games", s["ack"]["p99_ms"], 100.0, where)
        add("move → board posted median < 100 ms", s["board"]["p50_ms"], 100.0, where)
        add("event-loop stall < 20 ms at any time", s["loop_lag"]["max_ms"], 20.0, where)
        if "idle_process_loop_lag" in s:
            add("(the machine: an idle process's stall, same window)",
                s["idle_process_loop_lag"]["max_ms"], 20.0, where)
    section = "games"
    if (g := results.get("games")) is not None:
        add("CPU per move, whole process tree, median over whole games ≤ 30 ms",
            g["cpu_ms_per_move_median"], 30.0, "whole games", at_most=True)
        add("requests to Discord per move ≤ 2.5 (mean, whole games)",
            g["requests_per_move_mean"], 2.5, "whole games", at_most=True)
        add("memory: the whole tree ≤ 110 MiB RSS after start (issue #25)",
            g["memory_after_start"]["rss_mib"], 110.0, "after start", at_most=True)
    section = "list"
    if (li := results.get("list")) is not None:
        where = f"{li['seeded']['games']} stored games"
        for page in ("first page", "middle page", "last page"):
            add(f"/game list ≤ 10 ms (p50, {page})", li["list"][page]["p50_ms"], 10.0, where,
                at_most=True)
        add("start-up ≤ 3 s with the stored games", li["start_up_s"]["stored_games"], 3.0,
            where, at_most=True)
    section = "saturation"
    if (s := results.get("saturation")) is not None:
        where = (f"{s['games']} games, "
                 f"{'one core busy' if s['competing_busy_core'] else 'quiet machine'}")
        add("board p99 ≤ 2 s", s["board"]["p99_ms"] / 1000, 2.0, where, at_most=True)
        add("no interaction answered past 3 s (or refused as late)",
            s.get("interactions_past_3s", s["acks_over_3s"]), 0, where, at_most=True)
        add("first answer p99 ≤ 500 ms", s["ack"]["p99_ms"], 500.0, where, at_most=True)
        add("no growing queue: last/first quarter board median ≤ 1.5",
            s["board_last_over_first_quarter"], 1.5, where, at_most=True)
        if "requests_per_move_bot_token" in s:
            add("requests per move with the bot's token ≤ 1.9",
                s["requests_per_move_bot_token"], 1.9, where, at_most=True)
        add("requests per move, all ≤ 2.5", s["requests_per_move"], 2.5, where, at_most=True)
        add("memory ≤ 0.5 MiB per active game", s["memory_per_game_mib"], 0.5, where,
            at_most=True)
        add("no failed moves", s["failures"], 0, where, at_most=True)
    section = "pergame"
    if (p := results.get("pergame")) is not None:
        for window, per in p["mib_per_game"].items():
            if window in p.get("one_time_windows", ()):
                continue  # each kind's first game: loaded once per process (bench/pergame.py)
            add(f"memory ≤ {p['target_mib_per_game']} MiB per active game (tree RSS, "
                f"games {window} one after another)", per["tree"], p["target_mib_per_game"],
                f"{p['moves_per_game']} moves a game", at_most=True)
    section = "suite"
    if (u := results.get("suite")) is not None:
        add("default test suite ≤ 6 min of CPU", u["cpu_s"] / 60, 6.0, "pytest -q",
            at_most=True)
    return checks


def main() -> None:
    if sys.argv[1:2] == ["ai"]:  # `python -m bench ai`: the AI's strength (bench/ai.py)
        from bench.ai import main as ai_main

        ai_main(sys.argv[2:])
        return
    if sys.argv[1:2] == ["memory"]:  # `python -m bench memory`: stats and history (issue #24)
        from bench.memory_stats import main as memory_main

        memory_main(sys.argv[2:])
        return
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="every section, small and fast")
    parser.add_argument("--only", default=",".join(DEFAULT_SECTIONS),
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
    parser.add_argument("--whole-games", type=int, default=0,
                        help="games: whole games per game, mode and style of play (default 1)")
    parser.add_argument("--warmup", type=float, default=60.0,
                        help="saturation: seconds the games play, unmeasured, before the "
                        "measured stretch (their openings: first DMs)")
    parser.add_argument("--saturation-games", type=int, default=0,
                        help="saturation: games at once (default 500; 1,000 with "
                        "--quiet-machine)")
    parser.add_argument("--pergame-games", type=int, default=0,
                        help="pergame: games opened one after another (default 41)")
    parser.add_argument("--pergame-ai", type=int, default=0, metavar="K",
                        help="pergame: an easy AI seat in every K-th game (the first "
                        "included), so the AI worker starts and is measured (default: none; "
                        "5 gives every game and mode one in turn, 6 only the Exorcism's core)")
    parser.add_argument("--quiet-machine", action="store_true",
                        help="saturation: nobody else uses the machine — no competing busy "
                        "process, 1,000 games")
    parser.add_argument("--check", action="store_true",
                        help="exit 1 if a target is missed (for a quiet machine)")
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
    runners = {"engine": run_engine, "render": run_render, "cards": run_cards,
               "storage": run_storage,
               "memory": run_memory, "history": run_history, "games": run_games,
               "list": run_list,
               "roundtrip": run_roundtrip,
               "saturation": run_saturation, "pergame": run_pergame, "suite": run_suite}
    for section in SECTIONS:
        if section in wanted:
            began = time.perf_counter()
            load_before = os.getloadavg()[0]
            results[section] = runners[section](plan)
            results.setdefault("section_seconds", {})[section] = round(
                time.perf_counter() - began, 1)
            # The 1-minute load average over the section (start and end averaged): how busy
            # the machine was while these figures were measured.
            results.setdefault("section_load", {})[section] = round(
                (load_before + os.getloadavg()[0]) / 2, 2)
    results["machine"]["load_average_end"] = round(os.getloadavg()[0], 2)
    results["targets"] = check_targets(results)
    for c in results["targets"]:
        mark = {True: "met ", False: "MISS", None: "  - "}[c["met"]]
        print(f"[{mark}] {c['target']} — {c['where']}: {c['value']} (limit {c['limit']}; "
              f"load average {c['load_average']} on {os.cpu_count()} cores)")
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(results, indent=2)
    out.write_text(text)
    stamped = out.with_name(f"bench-{time.strftime('%Y%m%d-%H%M%S')}.json")
    stamped.write_text(text)
    print(f"written {out} and {stamped}")
    missed = [c for c in results["targets"] if c["met"] is False]
    if args.check and missed:
        print(f"--check: {len(missed)} target(s) missed")
        sys.exit(1)


if __name__ == "__main__":
    main()
