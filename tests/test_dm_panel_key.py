"""Why the awaited mover's summary DM is written at once (#25): after a move that leaves its
mover awaited with private choices on their DM, those choices' buttons (`menu_key`: the
decision's token and the actions' hashes) always differ from the ones the DM showed before
the move, because every game's decision id is its state's step (Exorcism's shared prompts
aside, which the mover leaves by answering). A press on a button of the old decision is
refused ("That has moved on", `current_choice`), so holding that DM back would leave the
player buttons that play nothing: it is never held (`SummaryDMs.refresh_summaries`).

Should a game come to keep its decision across its mover's own move, this test fails, and
that DM could then wait like the mover's other own changes (its buttons still current)."""

from __future__ import annotations

import pytest

from cogs.utils.table.components import panel_actions
from cogs.utils.table.menus import menu_key
from rules.core.rng import Rng
from rules.registry import GAMES

MODES = [(name, mode) for name, game in sorted(GAMES.items()) for mode in game.modes]


@pytest.mark.parametrize(("name", "mode"), MODES)
def test_the_awaited_movers_dm_buttons_always_change_with_their_move(name: str,
                                                                     mode: str) -> None:
    game = GAMES[name]
    options = game.options_model(mode=mode)
    counts = sorted(game.player_counts(options))
    seats = [f"s{i}" for i in range(1, (3 if 3 in counts else counts[0]) + 1)]
    stayed = 0
    for seed in range(2):
        state = game.setup(seats, options, seed)
        rng = Rng.from_seed(seed)
        for _ in range(400):
            if game.result(state) is not None:
                break
            seat = rng.choice(sorted(game.to_act(state)))
            before = panel_actions(game, state, seat)
            shown = menu_key(game, state, seat, 0, before) if before else ""
            state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat))).state
            after = panel_actions(game, state, seat)
            if after:
                stayed += 1
                assert menu_key(game, state, seat, 0, after) != shown, (seed, seat)
    # Modes whose DMs carry choices do reach the case (the Exorcism's core and Solo, and the
    # Fourth Wall's Alliance, put every choice on the board post).
    assert stayed or (name, mode) in {("exorcism", "core"), ("exorcism", "solo"),
                                      ("fourth_wall", "alliance")}
