"""bench.exorcism_oracle: the measuring stick that reads the real state (issue #23, stop 36)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.exorcism_census import main as census_main
from bench.exorcism_census import new_game, play_on, record
from bench.exorcism_oracle import Oracle, finish, play
from rules.exorcism import actions as K
from rules.exorcism.game import GAME
from rules.exorcism.state import ExorcismState


def easy_state(seed: int, decisions: int) -> ExorcismState:
    state = new_game(seed)
    for _ in range(decisions):
        seat = sorted(GAME.to_act(state))[0]
        state = GAME.apply(state, seat, GAME.ai_action(state, seat)).state
    return state


def test_the_oracle_takes_the_action_whose_real_play_out_wins_and_leaves_the_state_alone(
        ) -> None:
    # Core 3p seed 46 by the book, 99 easy decisions in (game turn 25, 31 points): the
    # heuristic's Room Action plays out to a supply loss; a Purify plays out to the escape.
    state = easy_state(46, 99)
    seat = sorted(GAME.to_act(state))[0]
    before = state.model_dump_json()
    heuristic = GAME.ai_action(state, seat)
    assert heuristic.kind == K.ROOM_ACTION
    after_heuristic = GAME.apply(state, seat, heuristic).state
    assert finish(after_heuristic)[0] == 0
    oracle = Oracle(46, width=20)
    picked = oracle.choose(state, seat)
    assert picked.kind == K.PURIFY
    assert state.model_dump_json() == before
    assert oracle.winning and oracle.overrides[-1]["wins"]
    assert finish(GAME.apply(state, seat, picked).state)[0] == 1


def test_on_a_deal_the_heuristic_wins_the_oracle_plays_its_game_and_report_reads_the_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    easy = play_on(new_game(3), 3, "easy")
    assert easy["won"]
    line = play(3, width=2)
    for key in ("won", "reason", "turn", "points", "supply", "decisions"):
        assert line[key] == easy[key], key
    # The heuristic's first play-out wins, so that line is followed without trying anything.
    assert line["playouts"] == 1 and line["tried"] == 0 and line["line_exact"]
    oracle_file, easy_file = tmp_path / "oracle.jsonl", tmp_path / "easy.jsonl"
    record([line], str(oracle_file))
    record([easy], str(easy_file))
    assert json.loads(oracle_file.read_text())["overrides"] == []
    capsys.readouterr()
    census_main(["--report", str(easy_file), str(oracle_file)])
    out = capsys.readouterr().out
    assert "games 1: won 1" in out and "paired seeds 1" in out
