"""Shared by the turn-card tests: public views of whole AI games, with the bot's additions
(`names`, and the card's `turn`), sampled along the way."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from renders import with_card
from rules.core.game import Game
from rules.core.players import random_move
from rules.core.rng import Rng
from rules.registry import GAMES

NAMES = ("Margaret", "Theo", "Priya", "Alexandria Featherstonehaugh", "Oluwaseun", "Jo", "Ines")

MODES: dict[str, tuple[str, ...]] = {
    "exorcism": ("core", "one_vs_all", "solo"),
    "fourth_wall": ("conflict", "alliance"),
    "presence": ("session",),
}


def every_table() -> list[tuple[str, str, int]]:
    """(game, mode, player count) for every game, mode and player count."""
    out: list[tuple[str, str, int]] = []
    for name, modes in MODES.items():
        game = GAMES[name]
        for mode in modes:
            for n in sorted(game.player_counts(game.options_model(mode=mode))):
                out.append((name, mode, n))
    return out


def names_for(seats: list[str]) -> dict[str, str]:
    return {s: NAMES[i % len(NAMES)] for i, s in enumerate(seats)}


def with_turn(game: Game[Any, Any], state: Any, view: dict[str, Any],
              names: dict[str, str]) -> dict[str, Any]:
    """`view` with `names` and the card's `turn` as the bot gives them."""
    view["names"] = names
    result = game.result(state)
    prompt = view.get("prompt") or {}
    labels = ", ".join(view.get("waiting_labels") or [])
    doing = prompt.get("text") if isinstance(prompt, dict) and prompt.get("text") else (
        f"Take your turn as {labels}." if labels else "")
    return with_card(view, {
        "awaited": [names.get(s, s) for s in sorted(game.to_act(state))],
        "doing": doing,
        "happened": list(view.get("log") or [])[-4:],
        "result": result.reason if result else None,
    })


def sampled_states(name: str, mode: str, n: int, seed: int, every: int,
                   max_steps: int = 3000) -> Iterator[tuple[Game[Any, Any], Any, list[str]]]:
    """Every `every`-th state of a whole game played by the game's AI (the seat to move
    picked at random), and the final state."""
    game = GAMES[name]
    seats = [f"s{i}" for i in range(1, n + 1)]
    state = game.setup(seats, game.options_model(mode=mode), seed)
    rng = Rng.from_seed(seed)
    for step in range(max_steps + 1):
        over = game.result(state) is not None
        if step % every == 0 or over:
            yield game, state, seats
        if over:
            return
        seat, _ = random_move(game, state, rng)
        state = game.apply(state, seat, game.ai_action(state, seat)).state
