"""Render benchmark: what a move costs the render workers, per game and mode (issue #15).

Move after move of an AI game it draws what the bot draws: the turn card that goes inline
with every board post, the full public board (the **Full board** button) and a seat's own
board (DMs; every seat in turn, so the opposing role's picture counts too). Each is timed in
CPU (`time.process_time`, what the worker's core spends) and wall time, with its PNG bytes.
The renders run in sequence in this one process, as in a worker, whose caches (static layers,
unchanged parts, text runs) start empty; `caches` reports what they then hold. `spread` times
states spread over the whole game instead (the caches help least there).

`encoders` compares ways to turn the same pictures into bytes Discord shows inline, by CPU
time and bytes: the palette PNG the renderers use now (palette chosen from a sample, deflated
by ISA-L when the isal package is installed: `png_deflate` says which), the same palette
deflated by zlib, the PNG they wrote before issue #15 (palette from every pixel, zlib 6), and
lossless WebP.
"""

from __future__ import annotations

import io
import random
import statistics
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from PIL import Image

from bench.stats import ms
from renders import common, render_board, render_turn_card, with_card
from renders.turncard import render_turn_image
from rules.core.rng import Rng
from rules.registry import GAMES

CPU_TARGET_MS = 12.0


def _turn(game: Any, state: Any, view: dict[str, Any], names: dict[str, str]) -> dict[str, Any]:
    """`view` with the names and the card's `turn` as the bot gives them (cogs/utils/table/)."""
    view["names"] = names
    result = game.result(state)
    awaited = sorted(game.to_act(state))
    return with_card(view, {
        "awaited": [names.get(s, s) for s in awaited],
        "doing": " ".join(game.doing_text(state, s, names) for s in awaited),
        "happened": list(view.get("log") or [])[-4:],
        "result": game.result_text(state, result, names) if result is not None else None,
    })


def _states(name: str, mode: str, players: int, seed: int = 3) -> list[Any]:
    game = GAMES[name]
    state = game.setup([f"s{i}" for i in range(1, players + 1)], game.options_model(mode=mode),
                       seed)
    rng = Rng.from_seed(seed)
    states = [state]
    while game.result(state) is None:
        seat = rng.choice(sorted(game.to_act(state)))
        state = game.apply(state, seat, game.ai_action(state, seat)).state
        states.append(state)
    return states


def _summary(cpu: list[float], wall: list[float], sizes: list[int]) -> dict[str, Any]:
    return {**ms(wall), "max_ms": round(max(wall) * 1000, 3),
            "cpu_median_ms": ms(cpu)["median_ms"], "cpu_p99_ms": ms(cpu)["p99_ms"],
            "bytes_median": int(statistics.median(sizes)), "bytes_max": max(sizes)}


def _names() -> dict[str, str]:
    return {f"s{i}": n for i, n in enumerate(
        ("Margaret", "Theo", "Priya", "Alexandria Featherstonehaugh", "Oluwaseun"), start=1)}


def _time_renders(name: str, game: Any, states: list[Any], names: dict[str, str]
                  ) -> dict[str, Any]:
    """Turn card, public board and a seat's board of each state in turn (CPU, wall, bytes)."""
    kinds: dict[str, tuple[list[float], list[float], list[int]]] = {
        k: ([], [], []) for k in ("card", "public", "private")}
    for i, s in enumerate(states):
        seat = s.seats[i % len(s.seats)]  # every seat in turn: the opposing role counts too
        jobs: list[tuple[str, Callable[[], bytes | None]]] = [
            ("card", partial(render_turn_card, name,
                             _turn(game, s, game.view(s, None), names))),
            ("public", partial(render_board, name, {**game.view(s, None), "names": names})),
            ("private", partial(render_board, name, {**game.view(s, seat), "names": names})),
        ]
        for kind, job in jobs:
            cpu, wall, sizes = kinds[kind]
            c0, t0 = time.process_time(), time.perf_counter()
            data = job()
            wall.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
            sizes.append(len(data or b""))
    return {kind: _summary(cpu, wall, sizes) for kind, (cpu, wall, sizes) in kinds.items()}


def bench_render(name: str, mode: str, players: int, renders: int) -> dict[str, Any]:
    """`card`, `public`, `private` (a seat's board): `renders` consecutive moves from the middle
    of an AI game, each drawn as the bot draws it after a move, in a process whose caches
    start empty (a worker meeting the game). `spread`: `renders` states spread over the whole
    game instead, each far from the last (a worker that sees this game only now and then,
    between many others: the caches help least)."""
    game = GAMES[name]
    states = _states(name, mode, players)
    names = _names()
    out: dict[str, Any] = {"game": name, "mode": mode, "players": players, "renders": renders,
                           "moves_in_game": len(states) - 1, "png_deflate": common.DEFLATE_NAME}
    start = max(0, (len(states) - renders) // 2)
    common.clear_layer_cache()
    common.clear_glyph_cache()
    out.update(_time_renders(name, game, states[start:start + renders], names))
    out["caches"] = common.cache_stats()
    picks = [states[int(i * (len(states) - 1) / max(1, renders - 1))] for i in range(renders)]
    common.clear_layer_cache()
    common.clear_glyph_cache()
    spread = _time_renders(name, game, picks, names)
    out["spread"] = {kind: {k: v for k, v in r.items() if k in ("cpu_median_ms", "cpu_p99_ms")}
                     for kind, r in spread.items()}
    out["encoders"] = bench_encoders(name, game, picks, names)
    return out


def _webp(img: Image.Image) -> bytes:
    buf = io.BytesIO()
    img.save(buf, format="WEBP", lossless=True, method=0, quality=0)
    return buf.getvalue()


def _png_before(img: Image.Image) -> bytes:
    """Issue #15's starting point: palette chosen from every pixel, zlib level 6."""
    pal = img.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    buf = io.BytesIO()
    pal.save(buf, format="PNG", compress_level=6)
    return buf.getvalue()


def _png_zlib(img: Image.Image) -> bytes:
    """Today's palette, deflated by zlib (level 3) instead: what a machine without isal does."""
    pal = img.quantize(palette=common.palette_of(img, 256), dither=Image.Dither.NONE)
    buf = io.BytesIO()
    pal.save(buf, format="PNG", compress_level=3)
    return buf.getvalue()


ENCODERS: dict[str, Callable[[Image.Image], bytes]] = {
    "png_palette_sampled (now)": lambda img: common.encode_png(img, max_bytes=10**9),
    "png_palette_sampled_zlib3": _png_zlib,
    "png_palette_full_zlib6 (before)": _png_before,
    "webp_lossless_m0": _webp,
}


def bench_encoders(name: str, game: Any, picks: list[Any], names: dict[str, str],
                   samples: int = 6) -> dict[str, Any]:
    """The same board pictures encoded each way: CPU ms and bytes (medians)."""
    module = __import__(f"renders.{name}", fromlist=["render_image"])
    chosen = picks[:: max(1, len(picks) // samples)][:samples]
    images = [module.render_image({**game.view(s, None), "names": names}) for s in chosen]
    images += [render_turn_image(name, _turn(game, s, game.view(s, None), names))
               for s in chosen]
    out: dict[str, Any] = {}
    for label, encode in ENCODERS.items():
        for kind, imgs in (("board", images[:len(chosen)]), ("card", images[len(chosen):])):
            cpu: list[float] = []
            sizes: list[int] = []
            for img in imgs:
                c0 = time.process_time()
                sizes.append(len(encode(img)))
                cpu.append(time.process_time() - c0)
            out[f"{kind} {label}"] = {"cpu_median_ms": ms(cpu)["median_ms"],
                                      "bytes_median": int(statistics.median(sizes))}
    return out


def bench_cards_interleaved(tables: tuple[tuple[str, str, int], ...], games_per_kind: int,
                            cards: int, seed: int = 1) -> dict[str, Any]:
    """The turn card as one render worker draws it when many games are played at once (the
    saturation section's load): `games_per_kind` AI games of each of `tables` (game, mode,
    players), and `cards` cards drawn in a random interleaving of their moves, each marking
    what changed since that game's previous card, in one process whose caches start empty.
    CPU per card (`time.process_time`). `bench_render` times one game's consecutive moves,
    where the caches hold that game's parts and text; here they hold little of any game, and
    a bigger card-part budget buys no CPU back (measured: 3 against 24 MiB, 600 cards of 120
    games, 15.5 against 16.4 ms)."""
    names = _names()
    streams = [(name, GAMES[name], _states(name, mode, players, seed=s))
               for name, mode, players in tables for s in range(1, games_per_kind + 1)]
    rng = random.Random(seed)
    at = [rng.randrange(len(states)) for _, _, states in streams]
    common.clear_layer_cache()
    common.clear_glyph_cache()
    cpu: list[float] = []
    sizes: list[int] = []
    for _ in range(cards):
        k = rng.randrange(len(streams))
        name, game, states = streams[k]
        at[k] = (at[k] + 1) % len(states)
        view = _turn(game, states[at[k]], game.view(states[at[k]], None), names)
        if at[k] > 0:
            view["turn"]["before"] = {**game.view(states[at[k] - 1], None), "names": names}
        c0 = time.process_time()
        data = render_turn_card(name, view)
        cpu.append(time.process_time() - c0)
        sizes.append(len(data or b""))
    out = {"games": len(streams), "cards": cards, **_summary(cpu, cpu, sizes)}
    out["cpu_mean_ms"] = round(1000 * statistics.mean(cpu), 3)
    out["caches"] = common.cache_stats()
    return out
