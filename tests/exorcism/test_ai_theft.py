"""One vs All: the investigators' heuristic and the Ghost player's Moving Objects (rules.md
"Stop 68"). Moving Objects (EX-TERROR-03) takes a random Tool of a player's in each Haunt phase
the Ghost player causes it, and the Ghost player puts it under the Wraith, where no pawn may
go (EX-ACT-01) and which it then never moves (its one Ghost Action a phase goes to the Terror,
EX-OVA-05, EX-OVA-09)."""

from __future__ import annotations

from pathlib import Path

from rules.exorcism import actions as K
from rules.exorcism import ai
from rules.exorcism.engine import Engine
from rules.exorcism.engine.board import LOG_SIZE
from rules.exorcism.state import ExorcismState
from tests.exorcism.test_ai_escape import play_seat_turn

SEED53 = Path(__file__).resolve().parent.parent / "fixtures" / "exorcism" / \
    "ova3_seed53_moving_objects_loop.json"
"""One vs All, 3 players (seats p1-p3, p1 the Ghost player), seed 53, every seat easy, as
`bench.exorcism_ai` plays it before stop 68: game turn 18, p2 (the Detective) to act with 3
Actions, 11 of 30 points, Haunt Level 14. The Wraith stands in the Supply Room (row 1, column
1) on 4 Keys, 3 Holy Relics and a Detection Tool, all taken by Moving Objects; the Relic Room
is next to it. The Detective and the Psychologist stand in the Locked Room (row 2, column 3)
with no Tool: this turn's Haunt phase took the Psychologist's Holy Relic. p2 holds Holy Relic
Task 3 (2 Holy Relics and a Key), p3 Holy Relic Tasks 5 and 4."""


def team_tools(st: ExorcismState) -> int:
    return sum(sum(i.tools.values()) for i in st.investigators.values())


def test_EX_TERROR_03_no_tool_is_gained_for_the_next_haunt_phase_to_take() -> None:
    """Before stop 68 p2 walked into the Relic Room, gained one Holy Relic and walked back out,
    and the team ended the turn holding that one Tool: fewer than the two Haunt phases before
    p2's next turn take (p3's and p2's own), so the Ghost player took it, and the next turn
    did it again (game turns 14-36: 15 Keys and 10 Holy Relics under the Wraith, the game lost
    at dawn with 15 points). Now no turn ends holding a Tool gained for a later turn that the
    coming phases would take: the Actions go where Moving Objects cannot reach (a Task, a
    Plan, a Key spent at once)."""
    st = ExorcismState.model_validate_json(SEED53.read_text())
    assert (st.game_turn, st.active, st.actions_left, st.points) == (18, "p2", 3, 11)
    assert st.ghosts["wraith"] == "r1c1" and team_tools(st) == 0
    after, kinds = play_seat_turn(st, "p2")
    assert K.PASS not in kinds[:2], kinds  # the Actions are spent, not saved
    held = team_tools(after)
    phases = 2  # p3's Haunt phase and p2's own, one Terror each (EX-OVA-05, EX-OVA-09)
    assert held == 0 or held > phases, (kinds, after.investigators)
    assert ai._Brain(st, "p2").theft_phases() == phases


def test_EX_TERROR_03_a_ghost_player_whose_last_terror_took_nothing_is_not_feared() -> None:
    """One Terror a turn (EX-OVA-09): a Ghost player whose last Terror (public, in the log) was
    Amnesia takes no Tool with it, and below Moving Objects' Haunt Level none can be taken:
    then the Tools are gathered as before stop 68."""
    st = ExorcismState.model_validate_json(SEED53.read_text())
    st.log = [line.replace("Moving Objects", "Amnesia") for line in st.log]
    assert ai._Brain(st, "p2").theft_phases() == 0
    st = ExorcismState.model_validate_json(SEED53.read_text())
    st.haunt_level = 12
    assert ai._Brain(st, "p2").theft_phases() == 0


def test_EX_TERROR_03_a_tool_among_enough_others_is_not_charged() -> None:
    """Moving Objects takes one Tool a phase, whoever holds how many: a team that already holds
    as many Tools as the coming phases take loses no more for one Tool gained (the charge is
    the extra Tools taken, not a share of them)."""
    st = ExorcismState.model_validate_json(SEED53.read_text())
    assert ai._Brain(st, "p2").theft_loss(1) == 1
    assert ai._Brain(st, "p2").theft_loss(3) == 2
    st.investigators["p3"].tools = {"key": 1}
    st.tool_piles["key"] -= 1
    assert ai._Brain(st, "p2").theft_loss(1) == 1
    assert ai._Brain(st, "p2").theft_loss(3) == 1
    st.investigators["p3"].tools = {"key": 2}
    st.tool_piles["key"] -= 1
    assert ai._Brain(st, "p2").theft_loss(1) == 0


def test_EX_TERROR_03_the_ghost_players_last_terror_is_remembered_past_the_logs_window() -> None:
    """Stop 69's demo (One vs All 3p seed 53, the investigators at normal): the Medium gained an
    Occult Item and ended its turn holding it two turns after the last Moving Objects, and the
    next Haunt phase took it. The habit was read off the log, whose last 20 lines had lost the
    Terror's line after a busy turn (a quarter of the decisions it mattered to, seeds 0-39);
    what every player saw announced is remembered however long ago."""
    st = ExorcismState.model_validate_json(SEED53.read_text())
    st.investigators["p3"].tools = {"key": 1}
    st.tool_piles["key"] -= 1
    eng = Engine(st)
    eng.do_terror("moving_objects")
    st.prompts = []
    assert ai._Brain(st, "p2").theft_phases() == 2
    for _ in range(LOG_SIZE):
        eng.emit("Detective moves to the Key Room.", "move")
    assert not any("Terror" in line for line in st.log)
    assert ai._Brain(st, "p2").theft_phases() == 2
    eng.do_terror("amnesia")
    st.prompts = []
    for _ in range(LOG_SIZE):
        eng.emit("Detective moves to the Key Room.", "move")
    assert ai._Brain(st, "p2").theft_phases() == 0


def _ghost_phase(tasks: list[str], tools: dict[str, int], turn: int = 20) -> ExorcismState:
    """One vs All 3p at game turn `turn`, 10 points, the Ghost player's Haunt phase with its
    one Ghost Action (Darkness value 1); Haunt Level 16 (at turn 20 a raise is within the pace,
    `ai.HAUNT_PACE`; at 16 ahead of it). Moving Objects and a raise both legal. s2's Character
    holds `tools` and s2 the Tasks `tasks`; s3 holds nothing."""
    from tests.exorcism.helpers import new_game

    st = new_game("one_vs_all", n=3, seed=5).model_copy(deep=True)
    gs = st.ghost_seat or "s1"
    st.phase, st.active, st.ghost_budget, st.terror_used = "ghost", gs, 1, 0
    st.game_turn, st.haunt_level, st.points, st.last_terror = turn, 16, 10, "moving_objects"
    for inv in st.investigators.values():
        inv.tools = {}
    for s in st.players:
        if s != gs:
            st.players[s].tasks = []
    st.players["s2"].tasks = list(tasks)
    inv = next(i for i in st.investigators.values() if i.seat == "s2")
    inv.tools = dict(tools)
    return st


def test_EX_TERROR_03_the_ghost_player_takes_no_tool_the_team_does_not_need() -> None:
    """Stop 70: the Ghost player's Moving Objects scored the same whatever it took (1.8, halved
    for the phase's last Action, above a raise within the pace), so it spent Actions on Tools
    no Task of the team wanted (One vs All 3p, every seat easy, seeds 0-119: 544 taken). A
    Tool no Task wants costs the team nothing, and a needed one at 10 of 30 points less of
    its way than a raise is of the Ghost's (2 of the 14 Levels left): the Ghost player raises
    the Haunt Level. Ahead of the pace (no raise wanted) it takes the needed Tool."""
    for tasks in ([], ["weapon-6"]):
        st = _ghost_phase(tasks, {"weapon": 3, "holy_relic": 1})
        gs = st.ghost_seat or "s1"
        legal = Engine(st).legal(gs)
        assert K.HAUNT_LEVEL in {a.kind for a in legal}
        assert any(a.kind == K.TERROR and a.p("ability") == "moving_objects" for a in legal)
        assert ai.choose_action(st, gs).kind == K.HAUNT_LEVEL, tasks
    st = _ghost_phase(["weapon-6"], {"weapon": 3, "holy_relic": 1}, turn=16)
    got = ai.choose_action(st, st.ghost_seat or "s1")
    assert got.kind == K.TERROR and got.p("ability") == "moving_objects"
    st = _ghost_phase([], {"weapon": 3, "holy_relic": 1}, turn=16)
    got = ai.choose_action(st, st.ghost_seat or "s1")
    assert not (got.kind == K.TERROR and got.p("ability") == "moving_objects")
