"""bench.exorcism_snapshots: a game saved at the endgame and resumed is the same game."""

from __future__ import annotations

from pathlib import Path

import pytest

import rules.exorcism.ai as exorcism_ai
from bench.exorcism_census import play
from bench.exorcism_snapshots import resume, save, set_constant


def test_a_saved_endgame_resumed_ends_as_the_whole_game_does(tmp_path: Path) -> None:
    whole = play(3, "easy")
    saved = save(3, 20, "easy", tmp_path)
    assert 0 < saved["decisions"] < whole["decisions"] and not saved["over"]
    assert 30 - saved["points"] <= 20
    resumed = resume(3, "easy", tmp_path)
    for key in ("won", "reason", "turn", "points", "supply", "decisions", "turn30", "supply30"):
        assert resumed[key] == whole[key], key
    assert resumed["from_turn"] == saved["turn"]


def test_a_trials_constant_is_set_in_its_own_type_and_an_unknown_one_is_refused(
        monkeypatch: pytest.MonkeyPatch) -> None:
    name = next(n for n, v in vars(exorcism_ai).items()
                if n.isupper() and type(v) is float)
    monkeypatch.setattr(exorcism_ai, name, getattr(exorcism_ai, name))
    set_constant(f"rules.exorcism.ai.{name}=2.5")
    assert getattr(exorcism_ai, name) == 2.5
    with pytest.raises(AttributeError):
        set_constant("rules.exorcism.ai.NO_SUCH_KNOB=1")
