"""The search levels answer every decision of every mode and variant (issue #23).

The bot asks a worker for a searched decision and, should the search raise, lets the easy level
decide that move (`bot.aipool`). So a search that raises on one mode's questions never shows at
a table: the two-player Presence search raised on the second character's every question
(stop 59) and nobody saw it, the visitor player there simply never searched. Here whole games
of every mode and variant are played with every seat at the search levels, on a search shrunk
to two play-outs of four decisions (`_tiny`) so the default suite can afford them: the budget
changes how well the search plays, not which code it runs (the game's `ai_budget`,
`ai_searchable`, `ai_plans`, its resample, `apply_in_place`, the play-outs and `ai_value`).
"""

from __future__ import annotations

import dataclasses
import os
from typing import Any

import pytest

import rules.core.game
import rules.fourth_wall.game
from rules.core import search
from rules.core.search import Level
from rules.core.types import Action
from rules.registry import GAMES

VARIANTS: list[tuple[str, str, int, dict[str, Any]]] = [
    ("presence", "session", 4, {}),
    ("presence", "session", 3, {"secret_chamber": True}),
    ("presence", "session", 3, {"dark_board": True}),
    ("presence", "session", 3, {"unknown_threat": True}),
    ("presence", "session", 3, {"mystery": True}),
    ("presence", "session", 3, {"first_game": True}),
    ("presence", "session", 3, {"true_horror": True}),
    ("presence", "session", 5, {}),
    ("presence", "session", 2, {"two_players": True}),
    ("presence", "session", 4, {"scripts": "expert", "fear": "hard", "hope_track": "A"}),
    ("presence", "session", 3, {"scripts": "cooperative", "open_communication": True}),
    ("exorcism", "core", 2, {}),
    ("exorcism", "core", 3, {"first_game": True}),
    ("exorcism", "core", 4, {"shroud_returns_darkness": True}),
    ("exorcism", "solo", 1, {}),
    ("exorcism", "one_vs_all", 3, {}),
    ("exorcism", "one_vs_all", 4, {"haunt_level_cooldown": True}),
    ("fourth_wall", "conflict", 3, {"first_game": True}),
    ("fourth_wall", "conflict", 4, {"wrath_doom": 2}),
    ("fourth_wall", "conflict", 5, {}),
    ("fourth_wall", "alliance", 1, {"gates": 5}),
    ("fourth_wall", "alliance", 2, {"gates": 3}),
]
IDS = ["-".join([g, m, f"{n}p", *(k if v is True else f"{k}={v}" for k, v in o.items())])
       for g, m, n, o in VARIANTS]
SOAK_SEEDS = int(os.environ.get("LEVELS_SOAK_SEEDS", "4"))
"""Seeds after the first that `-m soak` plays at normal and at hard."""
CAP = 5000
"""Decisions after which a game counts as never ending (the longest seen are about 350)."""


def _tiny(real: Any) -> Any:
    def shrunk(game: Any, state: Any, seat: str, level: Level, rng: Any) -> Action:
        return real(game, state, seat,
                    dataclasses.replace(level, simulations=2, horizon=4, width=2), rng)
    return shrunk


@pytest.fixture
def tiny_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every search (the core's and Fourth Wall's own `ai_action`) at two play-outs."""
    shrunk = _tiny(search.search_action)
    monkeypatch.setattr(rules.core.game, "search_action", shrunk)
    monkeypatch.setattr(rules.fourth_wall.game, "search_action", shrunk)


def _whole_game(name: str, mode: str, n: int, options: dict[str, Any], seed: int,
                level: str) -> None:
    game = GAMES[name]
    state = game.setup([f"s{i}" for i in range(1, n + 1)], game.options_model(mode=mode,
                                                                               **options), seed)
    for step in range(CAP):
        if game.result(state) is not None:
            return
        seat = sorted(game.to_act(state))[0]
        where = f"{name}/{mode}/{n}p {options} seed {seed} step {step} seat {seat} at {level}"
        try:
            picked = game.ai_action(state, seat, level)
        except Exception as exc:  # the bot would hide this behind the easy level
            raise AssertionError(f"{where}: the search raised {exc!r}") from exc
        assert picked.key() in {a.key() for a in game.legal_actions(state, seat)}, where
        state = game.apply(state, seat, picked).state
    raise AssertionError(f"{name}/{mode}/{n}p {options} seed {seed}: no end in {CAP} decisions")


@pytest.mark.usefixtures("tiny_search")
@pytest.mark.parametrize(("name", "mode", "n", "options"), VARIANTS, ids=IDS)
def test_ai_search_answers_every_decision_of_every_variant(name: str, mode: str, n: int,
                                                           options: dict[str, Any]) -> None:
    _whole_game(name, mode, n, options, 1, "normal")


@pytest.mark.soak
@pytest.mark.usefixtures("tiny_search")
@pytest.mark.parametrize("level", ["normal", "hard"])
@pytest.mark.parametrize(("name", "mode", "n", "options"), VARIANTS, ids=IDS)
def test_soak_ai_search_answers_every_decision_of_every_variant(
        name: str, mode: str, n: int, options: dict[str, Any], level: str) -> None:
    for seed in range(2, 2 + SOAK_SEEDS):
        _whole_game(name, mode, n, options, seed, level)


def test_the_shrunk_search_is_still_the_search(tiny_search: None) -> None:
    """The fixture shrinks the search rather than skipping it: a searched decision reaches
    the game's plans (the two-player Presence crash was raised there)."""
    game = GAMES["presence"]
    asked: list[str] = []
    real_plans = type(game).ai_plans

    def plans(self: Any, state: Any, seat: str) -> list[Action]:
        asked.append(seat)
        return real_plans(self, state, seat)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(type(game), "ai_plans", plans)
        _whole_game("presence", "session", 2, {"two_players": True}, 1, "normal")
    assert len(asked) > 50
