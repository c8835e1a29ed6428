"""The Exorcism search AI (issue #23): its estimate at a cut-off, the blunder census of
`python -m bench ai` on constructed histories, and the heuristic's fixed blunders by seed."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from bench.blunders import census
from rules.core.rng import Rng
from rules.core.search import play_out
from rules.core.types import Action, Result, act
from rules.exorcism import actions as K
from rules.exorcism.ai import choose_action
from rules.exorcism.game import GAME
from rules.exorcism.state import ExorcismState


def uncapped(monkeypatch: pytest.MonkeyPatch) -> None:
    """The search levels without their wall-clock cap: on a loaded machine the cap cuts a
    search short at a point that depends on the load, not on the view."""
    levels = {k: dataclasses.replace(v, cap_seconds=1e9) for k, v in GAME.ai_levels().items()}
    monkeypatch.setattr(type(GAME), "ai_levels", lambda self: levels)


def _core(seed: int = 3) -> ExorcismState:
    return GAME.setup(["p1", "p2", "p3"], GAME.options_model(mode="core"), seed)


def _at_actions(st: ExorcismState) -> ExorcismState:
    """Played on (by the AI) to the first turn of round 2 in its Action phase."""
    while not (st.round >= 2 and st.phase == "actions" and not st.prompts):
        seat = sorted(GAME.to_act(st))[0]
        st = GAME.apply(st, seat, GAME.ai_action(st, seat)).state
    return st


def _walk(st: ExorcismState, cells: list[str]) -> list[tuple[Any, str, Action, Any]]:
    """A history: the active seat's pawn stepping through `cells` (state copies moved by
    hand, so the walk needs no legal path)."""
    seat = str(st.active)
    out = []
    before = st
    for left, cell in zip(range(3, 0, -1), cells, strict=False):
        before = before.model_copy(deep=True)
        before.actions_left = left
        after = before.model_copy(deep=True)
        after.investigators[seat].cell = cell
        after.actions_left = left - 1
        out.append((before, seat, act(K.MOVE, to=cell), after))
        before = after
    return out


def test_the_value_is_a_probability_rising_with_the_points_and_the_ghosts_haunt() -> None:
    st = _at_actions(_core())
    low = GAME.ai_value(st, "p1")
    ahead = st.model_copy(deep=True)
    ahead.points = 24
    assert 0.0 < low < GAME.ai_value(ahead, "p1") < 1.0
    ova = GAME.setup(["p1", "p2", "p3", "p4"], GAME.options_model(mode="one_vs_all"), 2)
    ghost = str(ova.ghost_seat)
    investigator = next(s for s in ova.seats if s != ghost)
    # Each side reads its own weights (`OVA_VALUE`, `OVA_GHOST_VALUE`); each a probability.
    assert 0.0 < GAME.ai_value(ova, ghost) < 1.0
    assert 0.0 < GAME.ai_value(ova, investigator) < 1.0
    raised = ova.model_copy(deep=True)
    raised.haunt_level, raised.darkness_supply = 20, ova.darkness_supply - 20
    assert GAME.ai_value(raised, ghost) > GAME.ai_value(ova, ghost)


def test_EX_HAUNT_12_the_core_estimate_reads_the_supply_against_the_tracks_pace() -> None:
    """The core estimate (`CORE_VALUE`, fitted by `bench.exorcism_value`) weighs the Haunt
    phases the Darkness supply lasts at the Darkness Track's pace, not the supply alone: the
    same supply is worth less with the Track further on (EX-HAUNT-12: an empty supply loses),
    and every pawn out after the exorcism is worth more than one still inside."""
    from rules.exorcism.engine import Engine

    st = _at_actions(_core())
    st.darkness_supply = 12
    track = Engine(st).pack.clock.darkness_track
    slow = st.model_copy(deep=True)
    slow.track_index = track.index(min(track))
    fast = st.model_copy(deep=True)
    fast.track_index = len(track) - 1
    assert track[fast.track_index] > track[slow.track_index]
    assert GAME.ai_value(fast, "p1") < GAME.ai_value(slow, "p1")
    out = st.model_copy(deep=True)
    out.exorcised = True
    pawn = next(iter(out.investigators.values()))
    out_one = out.model_copy(deep=True)
    out_one.investigators[pawn.id].escaped = True
    assert GAME.ai_value(out_one, "p1") > GAME.ai_value(out, "p1")


def test_EX_GHOST_09_the_one_vs_all_estimate_reads_the_exorcism_lookouts_and_clock() -> None:
    """One vs All's estimate (`OVA_VALUE` over `ova_features`, fitted by `bench.exorcism_value
    --modes ova`): the Ghosts gone after the 30th point (EX-GHOST-09: nothing Wounds any more)
    is worth more to the investigators than 30 points alone, a Lookout more than none, an
    hour more on the Clock more than less, and Temporary Possession (EX-TERROR-06) is a loss
    to them. The Ghost player's search reads the complement of `OVA_GHOST_VALUE` instead."""
    import math

    from rules.exorcism.ai import OVA_GHOST_VALUE, ova_features

    st = GAME.setup(["p1", "p2", "p3", "p4"], GAME.options_model(mode="one_vs_all"), 2)
    ghost = str(st.ghost_seat)
    seat = next(s for s in st.seats if s != ghost)
    late = st.model_copy(deep=True)
    late.points, late.dice = 27, [2]
    done = late.model_copy(deep=True)
    done.points, done.exorcised = 30, True
    assert GAME.ai_value(done, seat) > GAME.ai_value(late, seat)
    lonely = late.model_copy(deep=True)
    lonely.lookouts = []
    assert GAME.ai_value(lonely, seat) < GAME.ai_value(late, seat)
    longer = late.model_copy(deep=True)
    longer.dice = [6]
    assert GAME.ai_value(longer, seat) > GAME.ai_value(late, seat)
    possessing = st.model_copy(deep=True)
    possessing.haunt_level, possessing.darkness_supply = 20, st.darkness_supply - 20
    below = st.model_copy(deep=True)
    below.haunt_level, below.darkness_supply = 18, st.darkness_supply - 18
    assert GAME.ai_value(possessing, seat) < GAME.ai_value(below, seat)
    z = sum(w * x for w, x in zip(OVA_GHOST_VALUE, ova_features(late), strict=True))
    assert GAME.ai_value(late, ghost) == pytest.approx(1.0 - 1.0 / (1.0 + math.exp(-z)))


def test_the_one_vs_all_estimate_beats_a_coin_on_games_it_was_not_fitted_on() -> None:
    """Held-out easy One vs All games (odd seeds past the fit's, `bench.exorcism_value`):
    the estimate's log-loss on the investigators' result is under a coin's (ln 2). The
    hand-set weights it replaced (stop 44) scored 0.945 here, worse than the coin, and that is
    what let the search at normal end a turn in the Foyer before a loss a step out would have
    turned (seed 8, game turn 42)."""
    import math

    from bench.exorcism_value import positions

    rows = [row for seed in range(4001, 4021, 2) for row in positions("one_vs_all", 4, seed)]
    assert len({y for (_x, y), _p in rows}) == 2  # both outcomes among the games
    loss = 0.0
    for (_x, y), p in rows:
        p = min(1 - 1e-9, max(1e-9, p))
        loss -= y * math.log(p) + (1 - y) * math.log(1 - p)
    assert loss / len(rows) < math.log(2)


def test_one_vs_all_plays_its_last_hours_out_to_dawn() -> None:
    """On the last Time Die (`LAST_HOURS` turns left or fewer) a One vs All search's
    play-outs run to the level's horizon, past the two-turn cut (`Level.turns`), so they
    score the game's real end; earlier, and in the core game, the level stands."""
    from rules.exorcism.game import LAST_HOURS

    normal = GAME.ai_levels()["normal"]
    ova = GAME.setup(["p1", "p2", "p3", "p4"], GAME.options_model(mode="one_vs_all"), 2)
    seat = next(s for s in ova.seats if s != ova.ghost_seat)
    assert GAME.ai_budget(ova, seat, normal) == normal
    last = ova.model_copy(deep=True)
    last.dice = [0] * (len(ova.dice) - 1) + [LAST_HOURS]
    assert GAME.ai_budget(last, seat, normal).turns == 0
    assert GAME.ai_budget(last, str(ova.ghost_seat), normal).turns == 0
    core = _at_actions(_core())
    core.dice = [0] * (len(core.dice) - 1) + [LAST_HOURS]
    assert GAME.ai_budget(core, str(core.active), normal) == normal


def test_back_and_forth_counts_a_pawn_walking_back_to_where_it_stood() -> None:
    st = _at_actions(_core())
    seat = str(st.active)
    start = str(st.investigators[seat].cell)
    other = next(c for c in st.cells if c != start and st.cells[c].kind == "house")
    back = _walk(st, [other, start])
    assert census("exorcism", back, None)["back_and_forth"] == 1
    onwards = _walk(st, [other, "foyer"])
    assert census("exorcism", onwards, None)["back_and_forth"] == 0
    # a Purify between the two walks breaks the walk: not a blunder
    _before, s0, _move, x0 = back[0]
    purified = (x0, s0, act(K.PURIFY), x0.model_copy(deep=True))
    assert census("exorcism", [back[0], purified, back[1]], None)["back_and_forth"] == 0
    # a Move that ends the turn, and the Haunt phase Wounds the pawn there (the Foyer after
    # it): the game moved it, not its player (core 3p seed 390 under EX-GAP-17)
    third = next(c for c in st.cells if c not in (start, other) and st.cells[c].kind == "house")
    wounded = _walk(st, [other, third])
    wounded[-1][3].investigators[seat].cell = start
    assert census("exorcism", wounded, None)["back_and_forth"] == 0


def _forced_pass(mode: str, players: int, seed: int, at: int,
                 **options: Any) -> tuple[list[tuple[Any, str, Action, Any]], Result | None]:
    """A whole game, easy on every seat, but for an End Turn forced at decision `at`."""
    st = GAME.setup([f"p{i}" for i in range(1, players + 1)],
                    GAME.options_model(mode=mode, **options), seed)
    history: list[tuple[Any, str, Action, Any]] = []
    while GAME.result(st) is None and len(history) < 6000:
        seat = sorted(GAME.to_act(st))[0]
        action = act(K.PASS) if len(history) == at else GAME.ai_action(st, seat)
        after = GAME.apply(st, seat, action).state
        history.append((st, seat, action, after))
        st = after
    return history, GAME.result(st)


def test_EX_HAUNT_12_the_census_counts_an_idle_end_an_action_left_would_have_turned(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Core 3 players under the Shroud ruling (EX-GAP-17), seed 25, which easy wins: the
    turn of game turn 24 ended at once, all 3 Actions left, and the Relic Room's 4th token
    then finds no Shroud card left. Played on the real deal, that turn's Actions win the
    game: a blunder (`bench.blunders._wins_instead`). The game as the heuristic played it
    before stop 32 (a Wound weighed in full, `WOUND_SCALE_CORE` 1.0)."""
    import rules.exorcism.ai as ai

    monkeypatch.setattr(ai, "WOUND_SCALE_CORE", 1.0)
    history, result = _forced_pass("core", 3, 25, 112, shroud_returns_darkness=True)
    before, seat, action, _after = history[112]
    assert action.kind == K.PASS and before.actions_left == 3 and before.active == seat
    assert result is not None and seat in result.losers
    assert census("exorcism", history, result)["idle_end_before_loss"] == 1


def test_the_census_leaves_out_an_idle_end_before_a_loss_nothing_could_turn(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """One vs All 4 players, seed 40 (easy on every seat): twice a pawn waits in the Foyer
    with 3 Actions at game turns 44-45, 4 points made and dawn at 48, and the Ghost
    player's next Wound ends the game. A step out of the Foyer only moves that Wound onto a
    teammate or the loss to dawn: the outcome was settled, so the census counts none
    (stop 29's census counted both). Since a Tool source in a Ghost's Room is the last choice
    (stop 67, `GHOST_SOURCE`) the game waits so once."""
    import bench.blunders as blunders
    from bench.ai import play

    assert play("exorcism", "one_vs_all", 4, 40, None, "easy").blunders.get(
        "idle_end_before_loss", 0) == 0
    monkeypatch.setattr(blunders, "_wins_instead", lambda *_: True)
    assert play("exorcism", "one_vs_all", 4, 40, None, "easy").blunders.get(
        "idle_end_before_loss", 0) == 1


def test_idle_end_before_loss_leaves_out_won_games_spent_turns_and_later_losses() -> None:
    st = _at_actions(_core())
    seat = str(st.active)
    lost = Result(winners=[], losers=list(st.seats), reason="a Darkness Token must be placed")
    after = st.model_copy(deep=True)
    idle = [(st, seat, act(K.PASS), after)]
    assert st.actions_left > 0
    # the same pass in a game the investigators won is no blunder
    won = Result(winners=list(st.seats), losers=[], reason="escaped")
    assert census("exorcism", idle, won)["idle_end_before_loss"] == 0
    # nor when that seat's next turn came before the loss
    later = st.model_copy(deep=True)
    later.game_turn += len(st.seats)
    back_again = [*idle, (later, seat, act(K.PURIFY), later)]
    assert census("exorcism", back_again, lost)["idle_end_before_loss"] == 0
    spent = st.model_copy(deep=True)
    spent.actions_left = 0
    assert census("exorcism", [(spent, seat, act(K.PASS), spent)], lost)[
        "idle_end_before_loss"] == 0


def test_the_one_vs_all_ghost_moves_rooms_in_manipulate_the_manor() -> None:
    """Issue #23: its handler answered "done" at once though its docstring said it moves
    Rooms: now it swaps the Rooms the investigators need away from their pawns."""
    st = GAME.setup(["p1", "p2", "p3", "p4"], GAME.options_model(mode="one_vs_all"), 1)
    ghost = str(st.ghost_seat)
    assert st.prompts and st.prompts[-1].kind == "manipulate_manor"
    before = {c: st.cells[c].card for c in st.cells}
    kinds = []
    while st.prompts and st.prompts[-1].kind == "manipulate_manor":
        a = choose_action(st, ghost)
        kinds.append(a.kind)
        st = GAME.apply(st, ghost, a).state
    assert K.MANOR_SWAP in kinds and kinds[-1] == K.MANOR_DONE
    moved = [c for c in st.cells if st.cells[c].card != before[c]]
    assert 2 <= len(moved) <= 4


def test_the_one_vs_all_ghost_plays_its_whole_repertoire() -> None:
    """Issue #23: it only ever raised the Haunt Level (and won every game by turn 18)."""
    kinds: set[str] = set()
    for seed in (1, 2):
        st = GAME.setup(["p1", "p2", "p3", "p4"], GAME.options_model(mode="one_vs_all"), seed)
        steps = 0
        while GAME.result(st) is None and steps < 3000:
            seat = sorted(GAME.to_act(st))[0]
            a = GAME.ai_action(st, seat)
            if seat == st.ghost_seat:
                kinds.add(a.kind)
            st = GAME.apply(st, seat, a).state
            steps += 1
    assert {K.GHOST_MOVE, K.GHOST_DARKNESS, K.HAUNT_LEVEL, K.TERROR, K.MANOR_SWAP} <= kinds


def _wounded_after(world: ExorcismState, seat: str, action: Action) -> bool:
    """Whether `seat`'s pawn is Wounded by the next Haunt phase after `action` (every seat
    playing the heuristic meanwhile), on a private copy of `world`."""
    w = world.model_copy(deep=True)
    inv = next(i for i in w.investigators.values() if i.seat == seat)
    char = inv.character

    def hurt() -> bool:
        return (char in w.wounded or char in w.devoured
                or w.investigators[inv.id].character != char)

    GAME.apply_in_place(w, seat, action)
    for _ in range(60):
        if GAME.result(w) is not None or hurt():
            break
        if w.active != seat and w.phase == "actions" and not w.prompts:
            break
        mover = sorted(GAME.to_act(w))[0]
        GAME.apply_in_place(w, mover, GAME.choose_ai_action(w, mover))
    return hurt()


def test_the_search_guesses_where_the_hidden_haunt_card_sends_the_ghosts(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """BoardSmith's redaction test (issue #23): over deals the seat cannot tell apart (only the
    Haunt deck and the other hidden things differ), the Room safe from the next Haunt card
    changes; the search at "normal" picks the same Action in every deal, so it does not
    always find the safe one. A search that peeked at the deck would."""
    uncapped(monkeypatch)
    st = _core(2)
    scenarios = hits = deals = 0
    # core 3p seed 2, until 6 decisions that the hidden card decides (with End Turn no
    # candidate against the heuristic's Move, the first 4 picks are safe in all 5 deals)
    for _ in range(400):
        if GAME.result(st) is not None or scenarios >= 6:
            break
        seat = sorted(GAME.to_act(st))[0]
        easy = GAME.ai_action(st, seat)
        if (st.phase == "actions" and st.active == seat and not st.prompts
                and easy.kind in (K.MOVE, K.PASS)):
            walks = [a for a in GAME.legal_actions(st, seat) if a.kind in (K.MOVE, K.PASS)]
            worlds = [GAME.resample(st, seat, Rng.from_seed(k * 101 + 3)) for k in range(5)]
            safe = [{a.key() for a in walks if not _wounded_after(w, seat, a)} for w in worlds]
            if len({frozenset(s) for s in safe if s}) > 1:  # the hidden card matters here
                picks = {GAME.ai_action(w, seat, "normal").key() for w in worlds}
                assert len(picks) == 1, "the search read something the seat cannot see"
                (pick,) = picks
                if pick in {a.key() for a in walks}:
                    scenarios += 1
                    hits += sum(pick in s for s in safe if s)
                    deals += sum(1 for s in safe if s)
        st = GAME.apply(st, seat, easy).state
    assert scenarios, "no decision in this game turned on the hidden Haunt card"
    assert hits < deals, "it always found the safe Room: it peeked"


def test_the_blunders_of_issue_23_are_gone_from_the_games_that_showed_them() -> None:
    """By seed (core 3 players, `python -m bench ai`'s seeds, easy on every seat): seed 6
    ended a turn idle in the Foyer with 3 Actions left while the next Haunt cards emptied the
    Darkness supply; seeds 10 and 25 walked out of the Foyer and back within a turn (4 and 2
    times) in the endgame. The same games now show neither."""
    from bench.ai import play

    for seed in (6, 10, 25):
        played = play("exorcism", "core", 3, seed, None, "easy")
        assert not played.blunders, f"seed {seed}: {played.blunders}"


def test_a_cold_spot_counts_two_spaces_in_the_investigators_walk_plans() -> None:
    """EX-TERROR-01: a step into or out of this turn's Cold Spot costs 2 of a Move's 2 spaces.
    The plans counted 1 and walked back when the first Move fell short (One vs All seed 2: a
    pawn in the Cold Spot went out one Room and back, turn after turn)."""
    from rules.exorcism.ai import _Brain

    st = _at_actions(_core())
    seat = str(st.active)
    cur = str(st.investigators[seat].cell)
    nxt = sorted(_Brain(st, seat).geo.neighbours[cur])
    free = [c for c in nxt if c not in _Brain(st, seat).ghost_cells]
    assert free
    assert _Brain(st, seat).dist(cur, free[0]) == 1
    cold = st.model_copy(deep=True)
    cold.cold_spot = cur
    assert _Brain(cold, seat).dist(cur, free[0]) == 2
    assert _Brain(cold, seat).dist(free[0], cur) == 2


def test_a_pawn_staged_at_the_foyer_no_longer_walks_out_and_back(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """One vs All, 4 players, easy on every seat, seed 1: pawns waiting in the Foyer for the
    last points walked out for a Tool and back within their turns (10 times when a walk out
    of the stage is charged once, `STAGE_RETURN = 1`, and nothing else stops a walk back);
    charged both ways, seed 1 still showed two and seed 2 one. With the walk-back guard
    (`ExorcismState.walked`, `WALK_BACK`) neither shows any (seeds 1-40: 0 back-and-forth
    Moves, from 14). Since the Ghost stopped adding Darkness from an empty supply (stop 63)
    the games run otherwise: seeds 2, 7 and 21 show one, two and one walk back with the guard
    off, and seed 21 one more with the walk out of the stage charged once. Since the finisher
    no longer waits by the Foyer and the One vs All supply no longer hurries the wait (stop
    66), seeds 2, 7 and 20 show one, two and two with the guard off (and no seed of 1-100 one
    more with the walk out charged once). Since a Tool Moving Objects would take is no longer
    gained (stop 68), seed 7 shows one (seeds 1-30 with the guard off: 2, 7 and 20 alone).
    Since the Ghost player's Moving Objects is valued by what it takes (stop 70), seed 20 shows
    three (seeds 1-30: still 2, 7 and 20 alone)."""
    import rules.exorcism.ai as ai
    from bench.ai import play

    def walks(seed: int) -> int:
        return play("exorcism", "one_vs_all", 4, seed, None, "easy").blunders.get(
            "back_and_forth", 0)

    assert walks(2) == 0 and walks(7) == 0 and walks(20) == 0
    monkeypatch.setattr(ai, "WALK_BACK", 0.0)  # the guard off: staging alone
    assert walks(2) == 1 and walks(7) == 1 and walks(20) == 3


def test_manipulate_the_manor_ends_in_the_games_where_it_swapped_without_end(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """One vs All seeds 127, 129 and 200 (4 players): the Ghost's score read a Locked Room's
    face off the cell instead of the card that carries it, so each swap looked like a gain and
    the next one undid it, until the game's decision limit. Without the bound on swaps, each
    now finishes with at most 4 swaps (4 Rooms moved)."""
    import rules.exorcism.ai as ai

    monkeypatch.setattr(ai, "MANOR_MAX_SWAPS", 1000)
    for seed in (127, 129, 200):
        st = GAME.setup(["p1", "p2", "p3", "p4"], GAME.options_model(mode="one_vs_all"), seed)
        ghost = str(st.ghost_seat)
        swaps = 0
        while st.prompts and st.prompts[-1].kind == "manipulate_manor" and swaps < 50:
            a = choose_action(st, ghost)
            swaps += a.kind == K.MANOR_SWAP
            st = GAME.apply(st, ghost, a).state
        assert swaps <= 4, f"seed {seed}: {swaps} swaps"
        assert not (st.prompts and st.prompts[-1].kind == "manipulate_manor")


def test_trades_stay_the_heuristics_at_every_level() -> None:
    """Core 3p seed 1 at normal: the search answered a Trade offer the heuristic would accept
    with a decline, the Action came back, and the same offer was made and declined until the
    game's decision limit. A Trade under way, and the choice to start one, are not searched."""
    from rules.core.types import Prompt

    st = _at_actions(_core())
    seat = str(st.active)
    assert GAME.ai_searchable(st, seat, None)
    assert not GAME.ai_searchable(st, seat, act(K.TRADE, **{"with": "p2"}))
    assert GAME.ai_searchable(st, seat, act(K.PURIFY))
    for kind in ("trade_partner", "trade_build", "trade_consent"):
        asked = st.model_copy(deep=True)
        asked.prompts.append(Prompt(id="t", kind=kind, seats=[seat], text="Trade?"))
        assert not GAME.ai_searchable(asked, seat, None)


def test_no_idle_turn_end_before_a_loss_when_the_game_is_at_stake(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Core 3 players, easy on every seat (issue #23 census, `idle_end_before_loss`): seed 49
    hid its last pawn in the Foyer with 3 Actions while the next Haunt cards emptied the
    Darkness supply (a Wound then costs the game only if the supply lasts: `_Brain.stake`),
    and seed 61 ended a turn with the Ongoing ability that uses the adjacent Cleansing Room
    unused (`HARMLESS_OPS`, `_Brain.not_idle`). Both are gone; without the two, both are back.
    Counted by the census's first sieve (`_wins_instead` taken as true: whether those
    Actions would have won on the real deal is the census's business, not the heuristic's)."""
    import bench.blunders as blunders
    import rules.exorcism.ai as ai
    from bench.ai import play

    monkeypatch.setattr(blunders, "_wins_instead", lambda *_: True)
    # the games as the heuristic played them before stop 32 (`WOUND_SCALE_CORE` 1.0)
    monkeypatch.setattr(ai, "WOUND_SCALE_CORE", 1.0)

    def idle(seed: int) -> int:
        return play("exorcism", "core", 3, seed, None, "easy").blunders.get(
            "idle_end_before_loss", 0)

    assert idle(49) == 0 and idle(61) == 0
    monkeypatch.setattr(ai, "STAKE_EMPTY", 1.0)
    monkeypatch.setattr(ai, "STAKE_LOW", 1.0)
    monkeypatch.setattr(ai, "STAKE_DAWN", 1.0)
    assert idle(49) == 1
    monkeypatch.setattr(ai, "HARMLESS_OPS", frozenset(
        {"gain_tool", "gain_task", "gain_plan", "purify", "heal"}))
    assert idle(61) == 1


def test_a_move_never_returns_where_this_turns_walk_began() -> None:
    """The walk-back guard reads `ExorcismState.walked` (public: every Move is announced): a
    pawn's Moves this turn, since its last other Action, left these Rooms. Along whole easy
    games no investigator Move goes back to one of them, and the engine keeps the record:
    a Move adds the Room left, any other Action clears it, a new turn starts empty."""
    from rules.exorcism import actions as K

    for mode, n, seed in (("core", 3, 8), ("one_vs_all", 4, 7)):
        st = GAME.setup([f"p{i}" for i in range(1, n + 1)], GAME.options_model(mode=mode),
                        seed)
        walks = 0
        while GAME.result(st) is None:
            seat = sorted(GAME.to_act(st))[0]
            a = GAME.ai_action(st, seat)
            after = GAME.apply(st, seat, a).state
            if a.kind == K.MOVE and st.phase == "actions" and st.active == seat:
                inv = next(i for i in st.investigators.values() if i.seat == seat)
                assert str(a.p("to")) not in st.walked.get(inv.id, [])
                if after.game_turn == st.game_turn:  # the last Action may end the turn
                    assert after.walked[inv.id][-1] == inv.cell
                walks += 1
            elif st.phase == "actions" and st.active == seat and a.kind in (
                    K.PURIFY, K.PICK_UP, K.TASK, K.ROOM_ACTION):
                assert not any(after.walked.get(i.id) for i in after.investigators.values()
                               if i.seat == seat)
            if after.game_turn != st.game_turn:
                assert after.walked == {}
            st = after
        assert walks > 20


def test_the_search_never_weighs_a_walk_back_against_the_heuristic() -> None:
    """`Exorcism.ai_searchable`: the search's candidates leave out a Move back where this
    turn's walk began (the heuristic's own pick is always played when no candidate beats it,
    so its guard holds at every level)."""
    from rules.exorcism import actions as K

    st = GAME.setup(["p1", "p2", "p3"], GAME.options_model(), 8)
    for _ in range(400):
        seat = sorted(GAME.to_act(st))[0]
        if (st.phase == "actions" and st.active == seat and st.actions_left >= 2
                and not st.prompts):
            break
        st = GAME.apply(st, seat, GAME.ai_action(st, seat)).state
    seat = str(st.active)
    inv = next(i for i in st.investigators.values() if i.seat == seat)
    moves = [a for a in GAME.legal_actions(st, seat) if a.kind == K.MOVE]
    assert moves and GAME.ai_searchable(st, seat, moves[0])
    walked = GAME.apply(st, seat, moves[0]).state
    back = next(a for a in GAME.legal_actions(walked, seat)
                if a.kind == K.MOVE and a.p("to") == inv.cell)
    assert not GAME.ai_searchable(walked, seat, back)


def test_the_final_walk_never_pulls_a_pawn_back_where_its_walk_began() -> None:
    """Solo seed 125 (easy): holding the Task that completes the exorcism, the Primary left
    the Foyer to Purify r3c4, and `_Brain.final_walk` (walk to the Foyer first, then complete
    and escape) pulled it straight back: Foyer -> r3c4 -> Foyer, the only Moves the walk-back
    guard did not filter, and the game lost by the Darkness supply. The final walk now takes
    no Move back into a Room this turn's walk left: the Primary purifies, completes the
    exorcism there and both pawns escape the next turn."""
    from bench.ai import play

    played = play("exorcism", "solo", 1, 125, None, "easy")
    assert played.blunders.get("back_and_forth", 0) == 0, played.blunders
    assert played.winners == ["investigators"], played


def test_the_search_ends_a_turn_with_actions_left_only_on_the_heuristics_pick() -> None:
    """Issue #23 (normal's idle turn ends): End Turn is a search candidate other than the
    heuristic's own pick only when no useful Action is left (`Exorcism.ai_searchable`), so a
    play-out's noise never ends a turn the heuristic would have spent. Core, Shroud ruling,
    seed 9, game turn 23: the first seat waits in the Foyer with 3 Actions (its Moves out are
    useful); with 1 Action left a Move leads nowhere it could act and the Foyer's switch
    changes nothing, so End Turn may be weighed."""
    st = GAME.setup(["p1", "p2", "p3"],
                    GAME.options_model(mode="core", shroud_returns_darkness=True), 9)
    while not (st.game_turn == 23 and st.phase == "actions" and not st.prompts):
        seat = sorted(GAME.to_act(st))[0]
        st = GAME.apply(st, seat, GAME.ai_action(st, seat)).state
    seat = str(st.active)
    inv = next(i for i in st.investigators.values() if i.seat == seat)
    assert inv.cell == "foyer" and st.actions_left == 3
    legal = GAME.legal_actions(st, seat)
    end = act(K.PASS)
    assert end in legal and any(a.kind == K.MOVE for a in legal)
    assert not GAME.ai_searchable(st, seat, end)
    last = st.model_copy(deep=True)
    last.actions_left = 1
    assert {a.kind for a in GAME.legal_actions(last, seat)} <= {K.MOVE, K.ROOM_ACTION, K.PASS,
                                                                K.PLAN, K.TRADE}
    assert GAME.ai_searchable(last, seat, end)


def test_a_pawn_in_a_task_room_gains_a_task_rather_than_dodge_a_one_in_three_wound(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Stop 32 (issue #23, core 3 players by the book, `WOUND_SCALE_CORE`): seed 25, decision
    25 (game turn 6), the Psychologist stands in Task Room B (r3c1) with 2 Actions left and
    two Tasks held; the Ghost model gives the Room a 35 % chance of a Wound before its next
    turn. Weighing the Wound in full (1.05 points at 3 Lookouts), the heuristic walked away
    to r3c3 and gained nothing; the core game is a race with the Darkness supply, so it now
    takes the third Task where it stands (paired seeds 1-400: 98 games won against 87)."""
    import rules.exorcism.ai as ai

    st = _core(25)
    for _ in range(25):
        seat = sorted(GAME.to_act(st))[0]
        st = GAME.apply(st, seat, GAME.ai_action(st, seat)).state
    seat = sorted(GAME.to_act(st))[0]
    inv = st.investigators[seat]
    assert (seat, inv.character, inv.cell, st.actions_left) == ("p1", "psychologist", "r3c1", 2)
    assert len(st.players[seat].tasks) == 2
    assert GAME.ai_action(st, seat) == act(K.ROOM_ACTION)
    monkeypatch.setattr(ai, "WOUND_SCALE_CORE", 1.0)
    dodge = GAME.ai_action(st, seat)
    assert dodge.kind == K.MOVE and dodge.p("to") == "r3c3"


SEED14 = Path(__file__).resolve().parent.parent / "fixtures" / "exorcism" / \
    "core3_seed14_remote_trade_loop.json"
"""Core, 3 players, seed 14, every seat at normal (stop 32's main): the state at decision 207,
game turn 30's Haunt phase, p1 offered a Plan window with Remote Trade in hand."""


def test_EX_PROMPT_12_a_remote_trade_plan_called_off_is_not_played_again_without_end(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The search chose Remote Trade over the heuristic's No Plan (its play-outs traded on
    their worlds' Tasks), the heuristic deciding the real Trade on its own resample called it
    off, the Plan came back to hand, and the same choice came round: 5,800 decisions until the
    game's decision limit. A Plan that starts a Trade is the heuristic's, like a Trade; from
    that state the table plays on and the Trade is called off at most once."""
    uncapped(monkeypatch)
    st = ExorcismState.model_validate_json(SEED14.read_text())
    assert st.prompts[-1].kind == "plan_window" and st.game_turn == 30
    remote = act(K.PLAN, plan="remote_trade")
    assert remote in GAME.legal_actions(st, "p1")
    assert not GAME.ai_searchable(st, "p1", remote)
    called_off = 0
    start_turn = st.game_turn
    for _ in range(15):
        if GAME.result(st) is not None or st.game_turn > start_turn:
            break
        seat = sorted(GAME.to_act(st))[0]
        out = GAME.apply(st, seat, GAME.ai_action(st, seat, "normal"))
        called_off += sum(e.kind == "trade_refused" for e in out.events)
        st = out.state
    assert called_off <= 1
    assert GAME.result(st) is not None or st.game_turn > start_turn


def test_the_search_scores_every_candidate_at_the_same_point_of_the_game() -> None:
    """Stop 34: a play-out cut after a count of decisions stopped one candidate mid-turn and
    another a Clock pip later (a Move costs one decision, a Purify or a Room Action may ask
    more), and the cut-off estimate read the difference as an edge. At normal every
    play-out now runs to the same point: the Actions of the turn `Level.turns` turns on,
    the Clock ticked and the Haunt cards drawn."""
    st = _at_actions(_core(3))
    seat = st.active
    assert seat is not None
    level = GAME.ai_levels()["normal"]
    assert level.turns > 0
    until = GAME.ai_turn(st) + level.turns
    kinds: dict[str, Action] = {}
    for a in GAME.legal_actions(st, seat):
        kinds.setdefault(a.kind, a)
    assert len(kinds) >= 3
    ends = set()
    for a in kinds.values():
        world = GAME.resample(st, seat, Rng.from_seed(5))
        GAME.apply_in_place(world, seat, a)
        play_out(GAME, world, level.horizon, until)
        assert GAME.result(world) is None
        ends.add((world.game_turn, world.phase, world.actions_left, tuple(world.dice)))
    assert len(ends) == 1
    ((turn, phase, left, _),) = ends
    assert (turn, phase, left) == (st.game_turn + level.turns, "actions", 3)
