"""`python -m bench ai`'s table and pack options (issue #23): a house rule a balance note
proposes (rules/fourth_wall/rules.md, FW-LOBBY-03) is measured on the shipped pack with one option
changed, and a misspelt option is refused rather than silently measuring the book."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bench.ai import table_options
from bench.fourth_wall_ai import variant_pack
from rules.fourth_wall.engine import Engine
from tests.fourth_wall.helpers import new_game


def test_a_pack_option_changes_the_wall_s_doom_and_nothing_else() -> None:
    book = new_game("conflict", 4, 1)
    house = new_game("conflict", 4, 1, pack_path=variant_pack({"wrath_doom": "2"}))
    # The Wall's first turn is a Wrath (no Brood on it, FW-WALL-02): 1 + 1 by the book,
    # 2 + 1 with the house rule; the deal is the same.
    assert (book.phase, book.doom) == ("wall", 2)
    assert (house.phase, house.doom) == ("wall", 3)
    assert Engine(house).opts.wrath_doom == 2 and Engine(house).opts.brood_doom == 1
    assert [i.hand for i in house.investigators] == [i.hand for i in book.investigators]
    assert house.wall_hand == book.wall_hand


def test_a_misspelt_pack_option_is_refused() -> None:
    with pytest.raises(ValueError, match="wrath_dom"):
        variant_pack({"wrath_dom": "2"})


def test_table_options_go_only_to_games_that_have_them() -> None:
    fw = table_options("fourth_wall", {"gates": 4}, {"wrath_doom": "2"})
    assert fw["gates"] == 4 and Engine(new_game("conflict", 4, 1, **fw)).opts.wrath_doom == 2
    assert "gates" not in table_options("presence", {"gates": 4}, {"wrath_doom": "2"})
    assert "pack_path" not in table_options("presence", {}, {"wrath_doom": "2"})


def test_FW_LOBBY_03_the_table_option_plays_as_the_pack_option_does() -> None:
    """`--option wrath_doom=2` (the table's choice in `/game new`) deals and plays the same
    game as the pack variant the ruling was first measured with."""
    from rules.fourth_wall.game import GAME

    table = table_options("fourth_wall", {"wrath_doom": 2}, {})
    pack = table_options("fourth_wall", {}, {"wrath_doom": "2"})
    a, b = new_game("conflict", 4, 3, **table), new_game("conflict", 4, 3, **pack)
    for _ in range(25):
        if GAME.result(a) is not None:
            break
        seat = sorted(GAME.to_act(a))[0]
        action = GAME.ai_action(a, seat)
        assert action == GAME.ai_action(b, seat)
        a, b = GAME.apply(a, seat, action).state, GAME.apply(b, seat, action).state
        assert (a.doom, a.gates, a.log[-1:]) == (b.doom, b.gates, b.log[-1:])


def test_progress_lines_make_the_same_report(tmp_path: Any) -> None:
    """`--progress` keeps every finished game; `--report` summarises them as the run would,
    on the seeds every run has (two runs over disjoint seeds, one cut short)."""
    from bench.ai import Played, _logged, from_progress, summarise

    progress = str(tmp_path / "games.jsonl")
    games = {"baseline": [Played(1, ["investigators"], "every Gate is closed.", 50),
                          Played(2, ["wall"], "The Ancient One Awakens.", 80),
                          Played(3, ["wall"], "The Ancient One Awakens.", 70)],
             "wall": [Played(1, ["wall"], "The Ancient One Awakens.", 90, [0.1, 0.2]),
                      Played(2, ["wall"], "The Ancient One Awakens.", 60, [0.3],
                             blunders={"give_into_full_hand": 1})]}
    for searching, played in games.items():
        for p in played:
            _logged(p, "fourth_wall:conflict:4", searching, progress, {"wrath_doom": 2})
    _logged(games["wall"][0], "fourth_wall:conflict:4", "wall", progress)  # by the book
    settings = from_progress([progress], "normal")["settings"]
    assert set(settings) == {"fourth_wall:conflict:4 wrath_doom=2"}  # no baseline by the book
    report = settings["fourth_wall:conflict:4 wrath_doom=2"]
    expected = summarise(["wall"], {"baseline": games["baseline"][:2], "wall": games["wall"]})
    assert json.loads(json.dumps(report)) == json.loads(json.dumps(expected))
    assert report["sides"]["wall"]["won"] == 2 and report["sides"]["wall"]["games"] == 2


def test_sides_all_and_a_shared_baseline(tmp_path: Any, monkeypatch: Any) -> None:
    """`--sides all` plays the level on every seat of an opposing table; `--no-baseline` runs
    skip the easy games, and `--report` pairs them with another run's baseline."""
    import bench.ai as bench_ai
    from bench.ai import Played, from_progress, run

    calls: list[tuple[int, str | None, str]] = []

    def fake(game_name: str, mode: str, players: int, seed: int, searching: str | None,
             level: str, options: dict[str, Any] | None = None) -> Played:
        calls.append((seed, searching, level))
        return Played(seed, ["wall"] if seed == 1 or searching is None else ["investigators"],
                      "r", 10, [0.1] if searching else [])

    monkeypatch.setattr(bench_ai, "play", fake)
    shared = str(tmp_path / "base.jsonl")
    run(["fourth_wall:conflict:4"], 2, "normal", 1, only_sides=["wall"], progress=shared)
    alone = str(tmp_path / "all.jsonl")
    calls.clear()
    run(["fourth_wall:conflict:4"], 2, "normal", 1, only_sides=["all"], progress=alone,
        baseline=False)
    assert calls == [(1, "all", "normal"), (2, "all", "normal")]
    settings = from_progress([shared, alone], "normal")["settings"]
    assert set(settings["fourth_wall:conflict:4"]["sides"]) == {"wall"}
    every = settings["fourth_wall:conflict:4 every seat"]["sides"]
    assert {side: s["won"] for side, s in every.items()} == {"investigators": 1, "wall": 1}
    assert every["wall"]["baseline_rate"] == 1.0 and every["wall"]["games"] == 2


def test_progress_keeps_every_game_as_it_finishes_with_workers_too(
        tmp_path: Any, monkeypatch: Any) -> None:
    """`--workers 2 --progress F`: every game is in F as it comes back from its worker (the
    workers' games used to go unlogged altogether, so such a run, stopped or not, left F
    empty)."""
    import bench.ai as bench_ai
    from bench.ai import Played, from_progress, run

    progress = str(tmp_path / "games.jsonl")

    def fake(game_name: str, mode: str, players: int, seed: int, searching: str | None,
             level: str, options: dict[str, Any] | None = None) -> Played:
        if searching is not None and seed == 3:  # the searched game of seed 3 was cut
            with open(progress) as f:  # short here: what came back before is kept
                done = [json.loads(line) for line in f]
            assert {(d["seed"], d["searching"]) for d in done} >= {
                (s, "baseline") for s in (1, 2, 3, 4)}
            raise RuntimeError("cut short")
        return Played(seed, ["wall"] if searching else ["investigators"], "r", 10,
                      [0.1] if searching else [])

    monkeypatch.setattr(bench_ai, "play", fake)
    with pytest.raises(RuntimeError, match="cut short"):
        run(["fourth_wall:conflict:4"], 4, "normal", 2, only_sides=["wall"],
            progress=progress)
    with open(progress) as f:
        lines = [json.loads(line) for line in f]
    assert sorted(d["seed"] for d in lines if d["searching"] == "baseline") == [1, 2, 3, 4]
    assert [d["seed"] for d in lines if d["searching"] == "wall"][:2] == [1, 2]
    settings = from_progress([progress], "normal")["settings"]
    assert settings["fourth_wall:conflict:4"]["sides"]["wall"]["games"] >= 2


def test_a_game_cut_at_the_decision_limit_is_reported_unfinished() -> None:
    """An AI going round in a circle never ends its game: `bench.ai.play` cuts it at
    MAX_DECISIONS and the summary counts it, for the searching side and for easy."""
    from bench.ai import MAX_DECISIONS, Played, summarise

    summary = summarise(["wall"], {
        "baseline": [Played(1, [], "unfinished", MAX_DECISIONS), Played(2, ["wall"], "r", 9)],
        "wall": [Played(1, ["wall"], "r", 80), Played(2, [], "unfinished", MAX_DECISIONS)]})
    side = summary["sides"]["wall"]
    assert (side["unfinished"], side["baseline_unfinished"]) == (1, 1)


def test_P_WIN_05_a_presence_side_s_rate_is_also_read_per_script() -> None:
    """A good script's spirit wins with the visitors (P-WIN-05), so The Presence's sides are
    opposed only under an evil script (P-WIN-04): the summary splits each side's rate by the
    script the game was dealt, read from the finished game and from nothing an AI sees."""
    from bench.ai import Played, deal_of, summarise
    from rules.presence.engine import pack_for
    from rules.registry import GAMES

    game = GAMES["presence"]
    kinds = set()
    for seed in range(1, 9):
        state = game.setup(["p1", "p2", "p3", "p4"], game.options_model(mode="session"), seed)
        deal = deal_of("presence", state)
        assert deal == f"{pack_for(None).script(state.script).alignment} script"
        kinds.add(deal)
    assert kinds == {"good script", "evil script"}
    assert deal_of("fourth_wall", object()) == ""

    games = [Played(1, ["spirit", "visitors"], "r", 9, deal="good script"),
             Played(2, ["visitors"], "r", 9, deal="evil script"),
             Played(3, ["spirit"], "r", 9, deal="evil script"),
             Played(4, [], "r", 9, deal="evil script")]
    summary = summarise(["spirit", "visitors"], {"baseline": games[:2], "all": games})
    spirit = summary["sides"]["spirit"]
    assert spirit["won"] == 2 and set(spirit["by_deal"]) == {"good script", "evil script"}
    evil = spirit["by_deal"]["evil script"]
    assert (evil["games"], evil["won"], evil["alone"], evil["nobody_wins"]) == (3, 1, 1, 1)
    assert (evil["baseline_games"], evil["baseline_rate"]) == (1, 0.0)
    assert summary["sides"]["visitors"]["by_deal"]["evil script"]["won"] == 1
    assert summarise(["wall"], {"baseline": [], "wall": [Played(1, ["wall"], "r", 9)]})[
        "sides"]["wall"]["by_deal"] == {}


def test_p_win_04_deal_evil_plays_only_the_opposing_deals_seed_for_seed(
        monkeypatch: Any) -> None:
    """`--deal evil` (#23's opposing Presence game): only seeds dealt an evil script are
    played, the first `--games` of them from `--seed` on; the good deals between are skipped.
    A game with no such deal is refused rather than measured on nothing."""
    import bench.ai as bench_ai
    from bench.ai import Played, deal_of, deal_seeds, run
    from rules.presence.game import GAME

    seats = ["p1", "p2", "p3", "p4"]

    def dealt(seed: int) -> str:
        return deal_of("presence", GAME.setup(seats, GAME.options_model(mode="session"), seed))

    evil = deal_seeds("presence", "session", 4, {}, 1, 6, "evil")
    assert len(evil) == 6 and evil == sorted(evil)
    assert all(dealt(s) == "evil script" for s in evil)
    skipped = [s for s in range(1, evil[-1]) if s not in evil]
    assert skipped and all(dealt(s) == "good script" for s in skipped)
    assert deal_seeds("presence", "session", 4, {}, evil[2], 2, "evil script") == evil[2:4]

    calls: list[int] = []

    def fake(game_name: str, mode: str, players: int, seed: int, searching: str | None,
             level: str, options: dict[str, Any] | None = None) -> Played:
        calls.append(seed)
        return Played(seed, ["spirit"], "r", 10, [], deal="evil script")

    monkeypatch.setattr(bench_ai, "play", fake)
    run(["presence:session:4"], 3, "normal", 1, only_sides=["all"], baseline=False,
        deal="evil")
    assert calls == evil[:3]
    with pytest.raises(SystemExit, match="no 'evil script' deal"):
        deal_seeds("fourth_wall", "conflict", 4, {}, 1, 1, "evil")
