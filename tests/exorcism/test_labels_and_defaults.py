"""Every legal action has a short label; every awaited seat has a legal default (EX-PROMPT-*).

Random games in every mode: each offered action is described in at most 80 characters, every
prompt offers at most 25 answers (one Discord select), and `default_action` of an awaited
seat is one of its legal actions.
"""

from __future__ import annotations

import itertools
import re

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


RULE_ID_IN_WORDS = re.compile(r"\b[A-Z]{1,4}-[A-Z]+-\d|\(rule ")


def test_EX_LOBBY_01_no_rule_id_in_the_lobby_or_option_texts_of_any_mode() -> None:
    """A stop 65 demo: the lobby post read "…stay under the Shroud, as the rulebook reads (rule
    EX-DARK-07)" and "(rule EX-OVA-08)", and the option menus "(rule EX-GAP-17)". A player
    cannot look a checklist id up: the lobby card's lines, the option descriptions its menus
    show, its summary and its conflicts say it in words, in every mode and every ruling."""
    told: list[str] = []
    for field in GAME.options_model.model_fields.values():
        told.append(field.description or "")
    for mode in GAME.modes:
        for flags in itertools.product((False, True), repeat=3):
            first, shroud, cooldown = flags
            opts = GAME.options_model(mode=mode, first_game=first,
                                      shroud_returns_darkness=shroud,
                                      haunt_level_cooldown=cooldown)
            told += [f"{k}: {v}" for k, v in GAME.effective_options(opts)]
            told.append(GAME.options_summary(opts) or "")
            told += GAME.option_conflicts(opts)
        told.append(GAME.mode_words(mode))
    bad = [t for t in told if RULE_ID_IN_WORDS.search(t)]
    assert not bad, bad
    assert any("as the rulebook reads" in t for t in told)
