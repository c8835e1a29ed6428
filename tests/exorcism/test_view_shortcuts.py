"""The view's shortcuts (stop 67) change nothing: `build_view` works each cell's Ghosts, Room
and each seat's label out once per view and keeps each Task card's dict, and over seeded games
of every mode every such part is what the engine itself says, and no two views share a Task's
dict (a reader that changes one view changes no other)."""

from __future__ import annotations

from typing import Any

import pytest

from rules.core.rng import Rng
from rules.exorcism.engine import Engine
from rules.exorcism.game import GAME
from rules.exorcism.state import ExorcismState
from rules.exorcism.view import _task_dict_of, build_view


def _states(mode: str, n: int, seed: int, steps: int = 160) -> list[ExorcismState]:
    st = GAME.setup([f"s{i}" for i in range(1, n + 1)], GAME.options_model(mode=mode), seed)
    rng = Rng.from_seed(seed)
    out = [st]
    for step in range(steps):
        if GAME.result(st) is not None:
            break
        seat = rng.choice(sorted(GAME.to_act(st)))
        action = (GAME.ai_action(st, seat) if step % 2
                  else rng.choice(GAME.legal_actions(st, seat)))
        st = GAME.apply(st, seat, action).state
        out.append(st)
    return out


def _tasks_of(view: dict[str, Any]) -> list[dict[str, Any]]:
    return [*view["available_tasks"],
            *(t for info in view["seats_info"] for t in [*info["tasks"], *info["ongoing"]])]


@pytest.mark.parametrize(("mode", "n"), [("core", 3), ("one_vs_all", 4), ("solo", 1)])
def test_view_shortcuts_say_what_the_engine_says(mode: str, n: int) -> None:
    ghosts_seen = rooms_seen = tasks_seen = 0
    for st in _states(mode, n, seed=3):
        eng = Engine(st)
        for seat in [None, *st.seats]:
            view = build_view(st, seat)
            for cell in view["cells"]:
                assert cell["ghosts"] == eng.ghosts_in(cell["id"]), (cell["id"], st.ghosts)
                room = eng.room_of(cell["id"])
                assert (cell["room_id"], cell["location"], cell["action_text"]) == (
                    (room.id, room.location, room.text) if room else (None, None, None))
                ghosts_seen += bool(cell["ghosts"])
                rooms_seen += room is not None
            labels = {info["seat"]: info["label"] for info in view["seats_info"]}
            assert labels == {s: eng.seat_label(s) for s in st.seats}
            assert view["active_label"] == (eng.seat_label(st.active) if st.active else None)
            assert view["waiting_labels"] == [eng.seat_label(s) for s in sorted(eng.to_act())]
            for task in _tasks_of(view):
                assert task == _task_dict_of(eng.pack.task(task["id"]))
                tasks_seen += 1
    assert ghosts_seen and rooms_seen and tasks_seen


def test_two_views_share_no_task_dict() -> None:
    st = _states("core", 3, seed=3, steps=20)[-1]
    first, second = build_view(st, None), build_view(st, None)
    assert _tasks_of(first) and _tasks_of(first) == _tasks_of(second)
    for a, b in zip(_tasks_of(first), _tasks_of(second), strict=True):
        assert a is not b and a["to_complete"] is not b["to_complete"]
    _tasks_of(first)[0]["to_complete"].append("changed")
    _tasks_of(first)[0]["name"] = "changed"
    assert build_view(st, None) == second
