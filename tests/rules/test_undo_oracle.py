"""Undo is never an oracle (issue #21): a move may be taken back only if its outcome, as every
seat and the table see it, cannot depend on anything hidden from its player.

For every game and mode, along seeded random playouts and AI playouts, every move is put to
the bot's own undo rule (`Tables._undo_refusal`). Each move it would let its player undo is then
checked independently: applied to many more states resampled from the mover's view (with
another salt than undo's), nobody may see its outcome differ. Both kinds of move must occur:
undo that refused everything would pass the check and help nobody.
"""

from __future__ import annotations

import os
from typing import Any

import pytest

from bot.tables import TableService as Tables
from rules.core.game import Game
from rules.core.hidden import hidden_dependence
from rules.core.rng import Rng
from rules.registry import GAMES
from tests.rules.cases import CASES, IDS

SEEDS = int(os.environ.get("UNDO_SEEDS", "1"))
STEPS = int(os.environ.get("UNDO_STEPS", "90"))
VERIFY_SAMPLES = int(os.environ.get("UNDO_VERIFY", "16"))
"""The default suite's share (its CPU budget, #15): per mode, the smallest table with random
moves, and one largest table with the AI (Fourth Wall Conflict's seven). The other modes'
largest tables with the AI (33-45 s each on a loaded two-core machine, stop 70) are -m soak's,
which also plays every table both ways, longer, against 24 resamples (`SOAK_*`)."""
SOAK_SEEDS, SOAK_STEPS, SOAK_VERIFY = 3, 200, 24


def undo_refusal(game: Game[Any, Any], st: Any, seat: str, action: Any) -> tuple[str | None,
                                                                                   Any]:
    out = game.apply(st, seat, action)
    return Tables._undo_refusal(game, st, seat, action, out.state, list(out.events)), out.state


def _default_cases() -> list[tuple[str, str, int, bool]]:
    """Per mode: the smallest table with random moves, the largest with the AI."""
    out = []
    for name, mode, n in CASES:
        counts = [c for g, m, c in CASES if (g, m) == (name, mode)]
        out.append((name, mode, n, n == max(counts) and len(counts) > 1))
    return out


DEFAULT = _default_cases()
AI_BY_DEFAULT = ("fourth_wall", "conflict")
"""The one mode whose largest table the default suite plays with the AI (the cheapest)."""


@pytest.mark.parametrize(("name", "mode", "n", "ai"), [
    pytest.param(g, m, n, a, marks=[pytest.mark.soak] if a and (g, m) != AI_BY_DEFAULT else [],
                 id=f"{g}-{m}-{n}p-{'ai' if a else 'random'}") for g, m, n, a in DEFAULT])
def test_undo_allows_only_moves_whose_outcome_hides_nothing(name: str, mode: str, n: int,
                                                            ai: bool) -> None:
    _check_undo(name, mode, n, ai, range(SEEDS), STEPS, VERIFY_SAMPLES)


@pytest.mark.soak
@pytest.mark.parametrize("ai", [False, True], ids=["random", "ai"])
@pytest.mark.parametrize(("name", "mode", "n"), CASES, ids=IDS)
def test_soak_undo_allows_only_moves_whose_outcome_hides_nothing(name: str, mode: str, n: int,
                                                                 ai: bool) -> None:
    _check_undo(name, mode, n, ai, range(SEEDS, SEEDS + SOAK_SEEDS), SOAK_STEPS, SOAK_VERIFY)


def _check_undo(name: str, mode: str, n: int, ai: bool, seeds: range, steps: int,
                verify: int) -> None:
    game = GAMES[name]
    options = game.options_model(mode=mode)
    allowed = refused = 0
    for seed in seeds:
        st = game.setup([f"s{i}" for i in range(1, n + 1)], options, seed)
        rng = Rng.from_seed(seed + 57)
        for step in range(steps):
            if game.result(st) is not None:
                break
            seat = rng.choice(sorted(game.to_act(st)))
            action = (game.ai_action(st, seat) if ai
                      else rng.choice(game.legal_actions(st, seat)))
            reason, after = undo_refusal(game, st, seat, action)
            if reason is None:
                allowed += 1
                who = hidden_dependence(game, st, seat, action, samples=verify,
                                        salt=f"verify{seed}")
                assert who is None, (
                    f"{name}/{mode}/{n}p seed {seed} step {step}: undo allows {action} by "
                    f"{seat}, but {who} would see its outcome differ with hidden things changed")
            else:
                refused += 1
            st = after
    assert allowed, "undo refused every move"
    assert refused, "undo allowed every move"
