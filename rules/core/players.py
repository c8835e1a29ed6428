"""Players that need no human: the random-legal-move player used by fuzzing and playouts."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from rules.core.game import Game, GameOptions, GameState
from rules.core.rng import Rng
from rules.core.types import Action, Result


def random_move(game: Game[Any, Any], state: GameState, rng: Rng) -> tuple[str, Action]:
    """A uniformly random awaited seat and one of its legal actions."""
    awaited = sorted(game.to_act(state))
    if not awaited:
        raise ValueError("no seat is awaited")
    seat = rng.choice(awaited)
    legal = game.legal_actions(state, seat)
    if not legal:
        raise AssertionError(f"seat {seat} is awaited but has no legal action")
    return seat, rng.choice(legal)


class Playout(BaseModel):
    """One finished (or cut-off) random game."""

    model_config = {"arbitrary_types_allowed": True}

    state: Any
    steps: int
    result: Result | None
    history: list[tuple[str, Action]]


def playout(
    game: Game[Any, Any],
    options: GameOptions,
    seats: list[str],
    seed: int,
    max_steps: int = 20_000,
    ai_seats: frozenset[str] = frozenset(),
) -> Playout:
    """Play random legal moves (or the game's AI for `ai_seats`) until the game ends."""
    state = game.setup(seats, options, seed)
    rng = Rng.from_seed(seed ^ 0x5EED)
    history: list[tuple[str, Action]] = []
    for _ in range(max_steps):
        if game.result(state) is not None:
            break
        seat, action = random_move(game, state, rng)
        if seat in ai_seats:
            action = game.ai_action(state, seat)
        state = game.apply(state, seat, action).state
        history.append((seat, action))
    return Playout(state=state, steps=len(history), result=game.result(state), history=history)
