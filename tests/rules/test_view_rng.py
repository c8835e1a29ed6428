"""`view_rng` (issue #23): the search's worlds are seeded from the seat's view, its facts and not
its words, so rewording an event or a prompt leaves every measured AI game as it was, while a
change of fact (or of seat, or of salt) deals other worlds."""

from __future__ import annotations

import pytest

from rules.core.game import view_rng
from rules.registry import GAMES
from tests.rules.cases import CASES, IDS


@pytest.mark.parametrize(("game", "mode", "n"), CASES, ids=IDS)
def test_rewording_the_log_and_prompts_keeps_the_worlds_a_change_of_fact_does_not(
        game: str, mode: str, n: int) -> None:
    g = GAMES[game]
    state = g.setup([f"s{i + 1}" for i in range(n)], g.options_model(mode=mode), 1)
    for _ in range(12):  # a few moves in, so the log and the prompts have words
        if g.result(state) is not None or not g.to_act(state):
            break
        seat = sorted(g.to_act(state))[0]
        state = g.apply(state, seat, g.ai_action(state, seat)).state
    seat = sorted(g.to_act(state))[0]
    first = view_rng(g, state, seat, "search-normal").next_u64()

    reworded = state.model_copy(deep=True)
    assert reworded.log, "the game has logged something by now"
    reworded.log = [line.upper() + " (as the rulebook puts it)" for line in reworded.log]
    for prompt in reworded.prompts:
        prompt.text = "Choose, in other words."
    assert g.view(reworded, seat) != g.view(state, seat)
    assert view_rng(g, reworded, seat, "search-normal").next_u64() == first

    moved = g.apply(state, seat, g.ai_action(state, seat)).state
    if g.view(moved, seat) != g.view(state, seat) and seat in g.to_act(moved):
        assert view_rng(g, moved, seat, "search-normal").next_u64() != first
    assert view_rng(g, state, seat, "search-hard").next_u64() != first
