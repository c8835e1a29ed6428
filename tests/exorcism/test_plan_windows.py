"""Plan windows (EX-PROMPT-05, EX-ACT-09, EX-AMB-54): Plans are Free Actions "played at any
time, even during another player's turn"; every window of EX-PROMPT-05 has a place:

(a) after each Haunt card is revealed, before it resolves — a prompt for the seats holding a
    Plan playable then; (b) on each pending Wound — the Triage prompt (tests elsewhere);
(c)/(e) between Actions and at the start of the Action phase — the game rests and Plan holders
    may act without the table waiting (`may_act`); (d) after the active player's last Action,
    before the turn ends — a prompt again.

A window nobody can use does not open; it closes when every eligible seat has passed; its
default (reminders, stand-ins) is the pass.
"""

from __future__ import annotations

from typing import Any

from rules.core.types import act
from rules.exorcism import engine as E
from rules.exorcism.content import default_pack
from rules.exorcism.engine import core as engine_core
from rules.exorcism.game import GAME
from rules.exorcism.state import ExorcismState
from tests.exorcism.helpers import (
    at_rest,
    clear_board,
    do,
    kinds,
    legal,
    new_game,
    put,
    run_steps,
    top_haunt,
)

PACK = default_pack()


def quiet(mode: str = "core", n: int = 2, seed: int = 1) -> ExorcismState:
    st = new_game(mode, n=n, seed=seed)
    clear_board(st)
    return st


def hold(st: ExorcismState, seat: str, plan: str) -> None:
    st.plan_deck.remove(plan)
    st.players[seat].plans.append(plan)


def window(st: ExorcismState) -> Any:
    assert st.prompts and st.prompts[-1].kind == "plan_window", st.prompts
    return st.prompts[-1]


# ---------------------------------------------------------------- (a) a revealed Haunt card
def test_EX_PROMPT_05a_a_revealed_haunt_card_waits_for_plan_holders_before_it_resolves() -> None:
    st = quiet()
    put(st, "s1", "r2c2")
    put(st, "s2", "r3c1")
    st.ghosts["wraith"] = "r3c1"
    hold(st, "s2", "extra_move")
    top_haunt(st, "H01")  # Wraith N: r3c1 -> r2c1
    st = at_rest(st, "s1")
    st.phase = "haunt"
    st2 = run_steps(st, ("haunt_draw", {"left": 1}))
    p = window(st2)
    # only the Plan holder is asked; the card is face up, the Ghosts have not moved yet
    assert p.seats == ["s2"] and GAME.to_act(st2) == {"s2"}
    assert "Location 1" in p.text and st2.ghosts["wraith"] == "r3c1"
    assert kinds(st2, "s2") == {"no_plan", "plan"}
    assert GAME.describe(st2, "s2", act("no_plan")) == "Pass (play no Plan now)"
    assert GAME.default_action(st2, "s2") == act("no_plan")
    assert not GAME.may_act(st2, "s1")  # s1 holds nothing: it may not answer
    # s2 steps out of the Wraith's path before the card resolves
    st3, _ = do(st2, "s2", "plan", plan="extra_move")
    assert st3.prompts[-1].kind == "choose_cell"
    st4, _ = do(st3, "s2", "choose_cell", cell="r4c1")
    # the Plan is spent: nobody can use the window any more, so it does not reopen
    assert not st4.prompts and st4.ghosts["wraith"] == "r2c1"
    assert st4.investigators["s2"].cell == "r4c1" and st4.investigators["s2"].character


def test_EX_PROMPT_05a_pass_lets_the_card_resolve() -> None:
    st = quiet()
    put(st, "s1", "r4c4")
    put(st, "s2", "r2c1")
    st.ghosts["wraith"] = "r3c1"
    hold(st, "s2", "extra_move")
    top_haunt(st, "H01")
    st = at_rest(st, "s1")
    st.phase = "haunt"
    st2 = run_steps(st, ("haunt_draw", {"left": 1}))
    window(st2)
    st3, _ = do(st2, "s2", "no_plan")
    # the Wraith ends its move on s2: Wounded (the Plan was not used)
    assert st3.ghosts["wraith"] == "r2c1"
    assert st3.investigators["s2"].cell != "r2c1"
    assert "extra_move" in st3.players["s2"].plans


def test_EX_PROMPT_05a_no_window_when_nobody_holds_a_playable_plan() -> None:
    st = quiet()
    hold(st, "s2", "extra_action")  # own-turn only, and s2 is not active: useless here
    hold(st, "s2", "triage")  # on_wound only
    top_haunt(st, "H01")
    st = at_rest(st, "s1")
    st.phase = "haunt"
    st2 = run_steps(st, ("haunt_draw", {"left": 1}))
    assert not st2.prompts and "H01" in st2.haunt_discard


def test_EX_PROMPT_05a_every_holder_answers_and_the_window_closes_after_all_passed() -> None:
    st = quiet(n=3)
    hold(st, "s2", "extra_move")
    hold(st, "s3", "pawn_the_loot_key_detection")
    top_haunt(st, "H01")
    st = at_rest(st, "s1")
    st.phase = "haunt"
    st2 = run_steps(st, ("haunt_draw", {"left": 1}))
    p = window(st2)
    assert p.seats == ["s2", "s3"]
    st3, _ = do(st2, "s3", "no_plan")
    assert window(st3).id == p.id and GAME.to_act(st3) == {"s2"}
    # one holder's pass does not stale the other's buttons
    assert GAME.decision_id(st3, "s2") == GAME.decision_id(st2, "s2")
    st4, _ = do(st3, "s2", "no_plan")
    assert not st4.prompts and "H01" in st4.haunt_discard


def test_EX_PROMPT_05a_a_plan_played_in_the_window_reopens_it_for_the_others() -> None:
    st = quiet(n=3)
    hold(st, "s2", "pawn_the_loot_key_detection")
    hold(st, "s2", "pawn_the_loot_detection_occult")
    hold(st, "s3", "pawn_the_loot_occult_weapon")
    top_haunt(st, "H01")
    st = at_rest(st, "s1")
    st.phase = "haunt"
    st2 = run_steps(st, ("haunt_draw", {"left": 1}))
    # The card's own text holds a colon: "Revealed: " first, so the prompt reads as one
    # sentence (a demo read "Haunt card (Location 4): Wraith left, … is revealed.").
    assert window(st2).text.startswith("Revealed: Haunt card (Location "), window(st2).text
    st3, _ = do(st2, "s3", "no_plan")
    st4, _ = do(st3, "s2", "plan", plan="pawn_the_loot_key_detection")
    st5, _ = do(st4, "s2", "choose_tool", tool="key")
    assert st5.investigators["s2"].tools.get("key") == 1
    # s3 passed already; s2 still holds a playable Plan: the window is open for s2 alone
    assert window(st5).seats == ["s2"]
    st6, _ = do(st5, "s2", "no_plan")
    assert not st6.prompts


def test_EX_HAUNT_11_a_card_revealed_after_the_exorcism_moves_no_ghost_in_its_window_too() -> None:
    """Stop 67's demo (core seed 41, game turn 22): the log read "Haunt card (Location 5): no
    Ghost left to move." and the Plan window under it "Revealed: Haunt card (Location 5):
    Wraith up, Bull 5 spaces up, Devourer left." The window tells the card as the log does
    (EX-HAUNT-11: after the exorcism its arrows move nobody); before it, the arrows of the
    Ghosts in the house (EX-HAUNT-09)."""
    st = quiet()
    st.ghosts["wraith"] = "r3c1"
    hold(st, "s2", "extra_move")
    top_haunt(st, "H01")
    st = at_rest(st, "s1")
    st.phase = "haunt"
    before = window(run_steps(st, ("haunt_draw", {"left": 1}))).text
    assert "Wraith" in before and "Bull" not in before, before  # the Bull is not in yet
    st.points, st.exorcised = 30, True
    st.ghosts = {g: None for g in st.ghosts}
    text = window(run_steps(st, ("haunt_draw", {"left": 1}))).text
    assert text.startswith("Revealed: Haunt card (Location "), text
    assert "no Ghost left to move" in text and not any(
        g in text for g in ("Wraith", "Bull", "Devourer")), text


def test_EX_PROMPT_05a_special_cards_are_revealed_before_they_resolve() -> None:
    st = quiet()
    hold(st, "s2", "extra_move")
    bull = next(c.id for c in PACK.haunt_deck if c.kind == "bull")
    top_haunt(st, bull)
    st = at_rest(st, "s1")
    st.phase = "haunt"
    st2 = run_steps(st, ("haunt_draw", {"left": 1}))
    assert window(st2).text.startswith("Revealed: Bull card. Play a Plan"), window(st2).text
    assert st2.ghosts["bull"] is None and bull in st2.haunt_removed
    st3, _ = do(st2, "s2", "no_plan")
    assert st3.ghosts["bull"] == "attic"


def test_EX_PROMPT_05a_one_vs_all_a_played_card_waits_for_the_investigators() -> None:
    st = quiet("one_vs_all", n=3)
    put(st, "s2", "r1c4")
    put(st, "s3", "r2c2")
    hold(st, "s3", "extra_move")
    st = at_rest(st, "s2")
    st = run_steps(st, ("ghost_phase_start", {}))
    st.ghosts["wraith"] = "r3c1"
    card = st.ghost_hand[0]
    st2, _ = do(st, "s1", "ghost_move", card=card)
    p = window(st2)
    assert p.seats == ["s3"] and st2.ghosts["wraith"] == "r3c1"
    assert "s1" not in GAME.to_act(st2)
    st3, _ = do(st2, "s3", "no_plan")
    assert st3.ghosts["wraith"] != "r3c1"


# ---------------------------------------------------------------- (d) after the last Action
def test_EX_PROMPT_05d_after_the_last_action_plan_holders_may_answer_before_the_turn_ends() -> None:
    st = quiet()
    put(st, "s1", "r2c2")
    hold(st, "s2", "cleanse")
    st.darkness_supply -= 2
    st.cells["r2c1"].darkness = 2
    put(st, "s2", "r2c1")
    st = at_rest(st, "s1", actions=1)
    st2, _ = do(st, "s1", "move", to="r2c3")
    p = window(st2)
    assert p.seats == ["s2"] and st2.active == "s1" and st2.phase == "actions"
    assert GAME.to_act(st2) == {"s2"}
    st3, _ = do(st2, "s2", "plan", plan="cleanse")
    assert st3.cells["r2c1"].darkness == 0
    # the Plan spent, nobody else can answer: the turn ends
    assert st3.active == "s2"


def test_EX_PROMPT_05d_the_active_player_may_play_any_time_plans_after_the_last_action() -> None:
    st = quiet()
    put(st, "s1", "r2c2")
    hold(st, "s1", "extra_move")
    st = at_rest(st, "s1", actions=1)
    st2, _ = do(st, "s1", "move", to="r2c3")
    assert window(st2).seats == ["s1"]
    st3, _ = do(st2, "s1", "no_plan")
    assert st3.active == "s2"


def test_EX_PROMPT_05d_extra_action_in_the_closing_window_lets_the_turn_go_on() -> None:
    st = quiet()
    put(st, "s1", "r2c2")
    hold(st, "s1", "extra_action")
    hold(st, "s2", "extra_move")
    st = at_rest(st, "s1", actions=1)
    st2, _ = do(st, "s1", "move", to="r2c3")
    # s1 still holds an own-turn Plan: the turn waits for s1, others may play meanwhile (c)
    assert not st2.prompts and GAME.to_act(st2) == {"s1"} and GAME.may_act(st2, "s2")
    st3, _ = do(st2, "s1", "pass")
    # s1 passed: the closing window asks the others only
    assert window(st3).seats == ["s2"] and st3.actions_left == 0
    st4, _ = do(st3, "s2", "no_plan")
    assert st4.active == "s2"


def test_EX_PROMPT_05d_no_window_when_nobody_can_use_one() -> None:
    st = quiet()
    put(st, "s1", "r2c2")
    st = at_rest(st, "s1", actions=1)
    st2, _ = do(st, "s1", "move", to="r2c3")
    assert not st2.prompts and st2.active == "s2"


# ---------------------------------------------------------------- (c)/(e) resting windows
def test_EX_PROMPT_05c_between_actions_plans_are_played_without_the_table_waiting() -> None:
    st = quiet()
    hold(st, "s2", "pawn_the_loot_key_detection")
    st = at_rest(st, "s1")
    assert GAME.to_act(st) == {"s1"} and GAME.may_act(st, "s2")
    assert GAME.default_action(st, "s2") is None  # nobody waits for s2: no default to enforce
    st2, _ = do(st, "s2", "plan", plan="pawn_the_loot_key_detection")
    st3, _ = do(st2, "s2", "choose_tool", tool="key")
    assert st3.investigators["s2"].tools.get("key") == 1 and st3.actions_left == 3


# ---------------------------------------------------------------- hidden Plans (EX-VIS-16)
def _hidden(st: ExorcismState, monkeypatch: Any) -> None:
    pack = E.pack_for(None)
    hidden = pack.model_copy(update={"options": pack.options.model_copy(
        update={"hidden_plans": True})})
    # Patched where the engine reads it: `Engine.__init__` lives in the engine's core part.
    monkeypatch.setattr(engine_core, "pack_for", lambda path: hidden)


def test_EX_VIS_16_hidden_plans_windows_never_tell_the_ghost_who_holds_what(monkeypatch) -> None:
    st = quiet("one_vs_all", n=4)
    put(st, "s2", "r1c4")
    put(st, "s3", "r2c2")
    put(st, "s4", "r4c4")
    hold(st, "s3", "extra_move")
    hold(st, "s4", "triage")  # unplayable now, but nobody but the team may know that
    _hidden(st, monkeypatch)
    st = at_rest(st, "s2")
    st = run_steps(st, ("ghost_phase_start", {}))
    st.ghosts["wraith"] = "r3c1"
    st2, _ = do(st, "s1", "ghost_move", card=st.ghost_hand[0])
    # every investigator holding a Plan (a public count) is asked, playable or not
    assert window(st2).seats == ["s3", "s4"]
    assert kinds(st2, "s4") == {"no_plan"} and kinds(st2, "s3") == {"no_plan", "plan"}
    assert not GAME.public_choices(st2, "s3")  # Plan labels are secret here
    assert GAME.public_choices(st2, "s4")  # a lone pass names nothing


def test_EX_VIS_16_hidden_plans_triage_window_opens_for_every_plan_holder(monkeypatch) -> None:
    st = quiet("one_vs_all", n=4)
    put(st, "s2", "r1c4")
    put(st, "s3", "r2c2")
    put(st, "s4", "r4c4")
    hold(st, "s4", "extra_move")  # no Triage anywhere
    _hidden(st, monkeypatch)
    st = at_rest(st, "s2")
    st.ghosts["wraith"] = "r2c2"
    st2 = run_steps(st, ("wound", {"inv": "s3", "devour": False}))
    assert st2.prompts[-1].kind == "triage" and st2.prompts[-1].seats == ["s4"]
    assert kinds(st2, "s4") == {"no_plan"}


# ---------------------------------------------------------------- the AI in a window
def test_EX_PROMPT_05a_the_ai_steps_out_of_a_revealed_cards_way() -> None:
    st = quiet()
    put(st, "s1", "r4c4")
    put(st, "s2", "r2c1")
    st.ghosts["wraith"] = "r3c1"
    hold(st, "s2", "extra_move")
    top_haunt(st, "H01")  # Wraith N: r3c1 -> r2c1, where s2 stands
    st = at_rest(st, "s1")
    st.phase = "haunt"
    st2 = run_steps(st, ("haunt_draw", {"left": 1}))
    choice = GAME.ai_action(st2, "s2")
    assert choice == act("plan", plan="extra_move")
    st3 = GAME.apply(st2, "s2", choice).state
    st4 = GAME.apply(st3, "s2", GAME.ai_action(st3, "s2")).state
    assert st4.investigators["s2"].cell != "r2c1"
    assert st4.ghosts["wraith"] == "r2c1" and st4.investigators["s2"].character is not None
    assert "s2" not in [i.seat for i in st4.investigators.values() if i.character is None]


def test_EX_PROMPT_05_the_ai_passes_a_window_it_has_no_use_for() -> None:
    st = quiet()
    put(st, "s1", "r4c4")
    put(st, "s2", "r1c1")
    hold(st, "s2", "extra_move")
    top_haunt(st, "H01")
    st = at_rest(st, "s1")
    st.phase = "haunt"
    st2 = run_steps(st, ("haunt_draw", {"left": 1}))
    assert GAME.ai_action(st2, "s2") == act("no_plan")
    assert legal(st2, "s2")[0] == act("no_plan")


def test_EX_VIS_16_hidden_plans_a_gained_plan_is_named_to_the_team_only(monkeypatch) -> None:
    st = quiet("one_vs_all", n=3)
    _hidden(st, monkeypatch)
    eng = E.Engine(st)
    eng.eff_gain_plan(next(e for r in PACK.rooms for e in r.action if e.op == "gain_plan"),
                      {"inv": "s2", "seat": "s2"})
    name = PACK.plan(st.players["s2"].plans[-1]).name
    public = [e.text for e in eng.events if e.audience == "public"]
    team = [e for e in eng.events if e.audience != "public"]
    assert public and not any(name in t for t in public)
    assert team and name in team[0].text and team[0].audience == ["s2", "s3"]
