"""Every legal action has a short label; every awaited seat has a legal default (EX-PROMPT-*).

Random games in every mode: each offered action is described in at most 80 characters, every
prompt offers at most 25 answers (one Discord select), and `default_action` of an awaited
seat is one of its legal actions.
"""

from __future__ import annotations

import pytest

from rules.core.rng import Rng
from rules.exorcism.actions import COMMAND_OF_KIND, PROMPT_ANSWERS
from rules.exorcism.game import GAME
from tests.exorcism.helpers import seats

MODES = [("core", 2), ("core", 4), ("solo", 1), ("one_vs_all", 3), ("one_vs_all", 4)]


@pytest.mark.parametrize(("mode", "n"), MODES)
def test_EX_PROMPT_labels_limits_and_defaults(mode: str, n: int) -> None:
    for seed in range(6):
        st = GAME.setup(seats(n), GAME.options_model(mode=mode), seed)
        rng = Rng.from_seed(seed + 100)
        while GAME.result(st) is None:
            awaited = sorted(GAME.to_act(st))
            for seat in st.seats:
                legal = GAME.legal_actions(st, seat)
                for a in legal:
                    label = GAME.describe(st, seat, a)
                    assert 0 < len(label) <= 80, (a, label)
                if st.prompts and seat in awaited:
                    kind = st.prompts[-1].kind
                    assert len(legal) <= 25, (kind, len(legal))
                    allowed = set(PROMPT_ANSWERS[kind]) | {"plan"}
                    assert {a.kind for a in legal} <= allowed, kind
                elif seat in awaited and st.phase == "actions":
                    assert {a.kind for a in legal} <= set(COMMAND_OF_KIND)
                if seat in awaited:
                    default = GAME.default_action(st, seat)
                    assert default in legal
            seat = rng.choice(awaited)
            st = GAME.apply(st, seat, rng.choice(GAME.legal_actions(st, seat))).state
