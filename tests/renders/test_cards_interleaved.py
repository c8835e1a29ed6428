"""Turn cards of many games drawn interleaved, as one render worker draws them when many games
are played at once: each card drawn with the caches equals the same card drawn afresh
(`renders.common.uncached`), pixel for pixel.

Whole games drawn one at a time (the other render tests) reuse a part only within its own game;
interleaved, with a card-part budget big enough to keep many games' parts, a part drawn for one
game's card is pasted into another's, which is where a part whose region holds more than its
key names shows. This is how the Fourth Wall tracker's stray Wall's-turn line was found."""

from __future__ import annotations

import random
from typing import Any

import pytest
from PIL import ImageChops

from renders import common
from renders.turncard import render_turn_image
from rules.core.rng import Rng
from rules.registry import GAMES

TABLES = (("exorcism", "core", 2), ("fourth_wall", "conflict", 2), ("presence", "session", 3),
          ("exorcism", "solo", 1), ("fourth_wall", "alliance", 1), ("exorcism", "one_vs_all", 3))
NAMES = {"s1": "Margaret", "s2": "Theo", "s3": "Priya"}


def _cards(name: str, mode: str, players: int, seed: int) -> list[dict[str, Any]]:
    """Each state's card view of an easy-AI game, marking what changed since the state
    before it (the bot marks against the previous post's picture)."""
    game = GAMES[name]
    state = game.setup([f"s{i}" for i in range(1, players + 1)],
                       game.options_model(mode=mode), seed)
    rng = Rng.from_seed(seed)
    out: list[dict[str, Any]] = []
    before: dict[str, Any] | None = None
    while game.result(state) is None and len(out) < 400:
        public = game.view(state, None)
        view = {**public, "names": NAMES}
        awaited = sorted(game.to_act(state))
        view["turn"] = {"awaited": [NAMES.get(s, s) for s in awaited],
                        "doing": " ".join(game.doing_text(state, s, NAMES) for s in awaited),
                        "happened": list(public.get("log") or [])[-4:], "result": None,
                        "before": before}
        before = {**public, "names": NAMES}
        out.append(view)
        seat = rng.choice(awaited)
        state = game.apply(state, seat, game.ai_action(state, seat)).state
    return out


@pytest.mark.soak
def test_cards_of_many_games_interleaved_equal_their_uncached_drawing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # A budget that keeps every game's parts: a part drawn for one game can serve another's.
    monkeypatch.setitem(common.PART_BUDGETS, "card", 64 * 1024 * 1024)
    streams = [(name, _cards(name, mode, players, seed))
               for name, mode, players in TABLES for seed in (1, 2, 3, 4)]
    rng = random.Random(1)
    at = [rng.randrange(len(cards)) for _, cards in streams]
    common.clear_layer_cache()
    try:
        for _ in range(300):
            k = rng.randrange(len(streams))
            name, cards = streams[k]
            at[k] = (at[k] + 1) % len(cards)
            view = cards[at[k]]
            cached = render_turn_image(name, view)
            with common.uncached():
                fresh = render_turn_image(name, view)
            assert ImageChops.difference(cached, fresh).getbbox() is None, (name, k, at[k])
    finally:
        common.clear_layer_cache()
