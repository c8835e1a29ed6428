"""Scenario tests: The Wall's turn in Conflict, Doom, and The Scourge.

Named by the spec rule ids they check (../shared/spec/fourth-wall.md §1.12-§1.14).
"""

from __future__ import annotations

import pytest

from rules.core.errors import IllegalAction
from rules.core.types import act
from rules.fourth_wall.engine import Engine
from rules.fourth_wall.game import GAME
from tests.fourth_wall.helpers import (
    answer,
    clear_streets,
    do,
    free_marble,
    inv,
    inv_turn,
    kinds,
    new_game,
    options,
    prompt,
    put_horror,
    set_card,
    set_gates,
    set_hand,
    set_stage,
    set_wall,
    take_marble,
    texts,
    wall_hand,
    wall_turn,
)


def wall(doom: int = 5, mode: str | None = "wrath", seed: int = 1):  # type: ignore[no-untyped-def]
    st = wall_turn(new_game("conflict", 2, seed), doom=doom, mode=mode)
    clear_streets(st)
    return st


def to_next_wall_turn(st):  # type: ignore[no-untyped-def]
    """From an Investigator's rest, pass to the next Wall turn."""
    a = Engine(st).active()
    assert a is not None
    st, ev = do(st, a.seat, "pass", inv=a.id)
    return st, ev


# ---------------------------------------------------------------- the turn type
def test_FW_WALL_01_FW_PROMPT_03_wrath_or_brood() -> None:
    st = wall(doom=0, mode=None)
    assert kinds(st, "s1") == {"wrath", "brood"}
    assert GAME.to_act(st) == {"s1"}
    assert GAME.default_action(st, "s1") == act("wrath")


def test_FW_WALL_02_never_brood_first_twice_or_in_the_crescendo() -> None:
    first = new_game("conflict", 2, 1)
    assert first.wall_turns == 1 and first.wall_mode == "wrath"  # no choice on turn 1
    st = inv_turn(new_game("conflict", 2, 1), "i1")
    st.last_wall_brood = True
    st.wall_turns = 3
    st, _ = to_next_wall_turn(st)
    assert st.wall_mode == "wrath" and "brood" not in kinds(st, "s1")
    st = inv_turn(new_game("conflict", 2, 1), "i1")
    st.wall_turns = 3
    set_stage(st, "crescendo")
    st, _ = to_next_wall_turn(st)
    assert st.wall_mode == "wrath"
    v = GAME.view(st, None)["turn"]
    assert not v["brood_allowed"] and "Crescendo" in v["brood_blocked_because"]


def test_FW_WALL_03_FW_DOOM_01_wrath_doom() -> None:
    first = new_game("conflict", 2, 1)
    assert first.doom == 2  # 1 + 1 on the first turn
    st = wall(doom=0, mode=None)
    st, _ = do(st, "s1", "wrath")
    assert st.doom == 1


def test_FW_WALL_03_FW_LOBBY_03_doom_per_wrath_is_a_table_option() -> None:
    """Ruling FW-LOBBY-03 as a table option: `wrath_doom=2` makes every Wrath gain 2 (3 on The
    Wall's first turn and in The Crescendo); a Brood still gains 1; empty is the book's 1."""
    first = new_game("conflict", 2, 1, wrath_doom=2)
    assert first.wrath_doom == 2 and first.doom == 3  # 2 + 1 on the first turn
    st = wall_turn(first, doom=0, mode=None)
    clear_streets(st)
    assert GAME.describe(st, "s1", act("wrath")) == "Wrath (gain 2 Doom, then take actions)"
    st, _ = do(st, "s1", "wrath")
    assert st.doom == 2
    crescendo = wall_turn(new_game("conflict", 2, 1, wrath_doom=2), doom=0, mode=None)
    set_stage(crescendo, "crescendo")
    crescendo, _ = do(crescendo, "s1", "wrath")
    assert crescendo.doom == 3
    brood = wall_turn(new_game("conflict", 2, 1, wrath_doom=2), doom=0, mode=None)
    brood, _ = do(brood, "s1", "brood")
    assert brood.doom == 1  # FW-WALL-11: the option is the Wrath's alone
    book = new_game("conflict", 2, 1, wrath_doom=1)
    assert book.doom == 2 and new_game("conflict", 2, 1).wrath_doom is None
    assert new_game("alliance", 2, 1, wrath_doom=2).wrath_doom is None  # no Wrath there


def test_FW_LOBBY_03_doom_per_wrath_options_and_old_games() -> None:
    """The option is validated (1 or 2), shown on the lobby card in words, and a game stored
    before it existed loads and plays the book's 1."""
    from pydantic import ValidationError

    model = GAME.options_model
    with pytest.raises(ValidationError):
        model(mode="conflict", wrath_doom=3)
    lines = dict(GAME.effective_options(model(mode="conflict", wrath_doom=2)))
    assert lines["Doom per Wrath"].startswith("2 (rule FW-LOBBY-03: our ruling")
    assert dict(GAME.effective_options(model(mode="conflict")))["Doom per Wrath"].startswith(
        "1, as the rulebook says")
    assert "Doom per Wrath" not in dict(GAME.effective_options(model(mode="alliance")))
    old = new_game("conflict", 2, 1).model_dump(mode="json")
    del old["wrath_doom"]
    st = wall_turn(GAME.state_model.model_validate(old), doom=0, mode=None)
    st, _ = do(st, "s1", "wrath")
    assert st.wrath_doom is None and st.doom == 1


def test_FW_WALL_04_05_spend_doom_delve_with_no_hand_limit() -> None:
    st = wall(doom=3)
    n = len(st.wall_hand)
    for _ in range(3):
        st, _ = do(st, "s1", "delve")
    assert len(st.wall_hand) == n + 3 and st.doom == 0
    assert st.phase == "investigator"  # nothing left to spend: the turn ends


def test_FW_WALL_06_manifest_costs_its_printed_doom() -> None:
    st = wall(doom=2)
    brute, cult = wall_hand(st, "H-BRUTE", "H-CULTIST")
    assert ("manifest", brute) not in [(a.kind, a.params.get("horror"))
                                       for a in GAME.legal_actions(st, "s1")]
    st, ev = do(st, "s1", "manifest", horror=cult)
    # The Doom it spent is said, as a Trigger's is (stop 65's demo).
    assert st.doom == 1 and ("The Wall Manifests Cultist (1 Doom): it is placed On the "
                             "Streets.") in texts(ev)


def test_FW_WALL_07_destroy_a_marble() -> None:
    st = wall(doom=1)
    h = put_horror(st, "H-GATEKEEPER", attached=("M-C",))
    m = Engine(st).on_streets(h).attached[0]  # type: ignore[union-attr]
    st, _ = do(st, "s1", "destroy", marble=m)
    assert m in st.marble_discard and not Engine(st).on_streets(h).attached  # type: ignore[union-attr]


def test_FW_WALL_08_trigger_pays_then_drains() -> None:
    st = wall(doom=2)
    h = put_horror(st, "H-CULTIST")
    st, _ = do(st, "s1", "trigger", horror=h)
    st, _ = answer(st, "choose_investigator", inv="i1")
    while prompt(st) in ("holy_window", "lose_choice"):
        o = options(st)[-1] if prompt(st) == "holy_window" else options(st)[0]
        st, _ = answer(st, o.kind, **o.params)
    assert st.doom == 1 and Engine(st).on_streets(h).drained  # type: ignore[union-attr]
    with pytest.raises(IllegalAction) as err:
        GAME.apply(st, "s1", act("trigger", horror=h))
    assert err.value.rule == "FW-WALL-08"


def test_FW_WALL_09_unique_after_an_eye_opens_once_per_turn() -> None:
    st = wall(doom=8)
    set_wall(st, "W-6")
    assert "wall_unique" not in kinds(st, "s1")
    set_stage(st, "eye_opens")
    uniques = [a for a in GAME.legal_actions(st, "s1") if a.kind == "wall_unique"]
    assert [a.params["n"] for a in uniques] == [0, 1]
    st, _ = do(st, "s1", "wall_unique", n=1)  # Open a Gate (cost 4)
    assert st.doom == 4 and "wall_unique" not in kinds(st, "s1")
    with pytest.raises(IllegalAction) as err:
        GAME.apply(st, "s1", act("wall_unique", n=0))
    assert err.value.rule == "FW-WALL-09"


def test_FW_WALL_10_FW_DOOM_05_wrath_loses_leftover_doom() -> None:
    st = wall(doom=3)
    st, ev = do(st, "s1", "end_turn")
    assert st.doom == 0 and "is lost" in texts(ev)


def test_FW_WALL_11_12_13_14_15_brood() -> None:
    st = wall(doom=2, mode=None)
    a = put_horror(st, "H-CULTIST", drained=True)
    b = put_horror(st, "H-GHOUL", drained=True)
    st, ev = do(st, "s1", "brood")
    assert st.doom == 3 and not any(h.drained for h in st.streets)
    assert "All Horrors On the Streets are no longer Drained." in texts(ev)
    assert prompt(st) == "scourge"  # FW-WALL-12: no Wrath actions, only the steps
    assert {o.params.get("horror") for o in options(st)} == {a, b}
    st, _ev = answer(st, "scourge", horror=b)
    assert st.scourge == b and st.phase == "investigator" and st.doom == 3  # kept
    assert st.last_wall_brood


def test_FW_AMB_08_unleash_edge_cases() -> None:
    st = wall(doom=0, mode=None)
    st, ev = do(st, "s1", "brood")
    assert "cannot be unleashed" in texts(ev) and st.scourge is None
    st = wall(doom=0, mode=None)
    only = put_horror(st, "H-CULTIST")
    st, ev = do(st, "s1", "brood")
    assert st.scourge == only  # mandatory, the only choice
    assert "no longer Drained" not in texts(ev)  # nothing was (stop 63's demo said it anyway)
    st = wall(doom=0, mode=None)
    a = put_horror(st, "H-CULTIST")
    b = put_horror(st, "H-GHOUL")
    st.scourge = a
    st, _ = do(st, "s1", "brood")
    assert {o.kind for o in options(st)} == {"keep_scourge", "scourge"}
    moved, _ = answer(st, "scourge", horror=b)
    assert moved.scourge == b
    kept, _ = answer(st, "keep_scourge")
    assert kept.scourge == a


def test_FW_WALL_16_the_aura_works_during_investigator_turns() -> None:
    st = inv_turn(new_game("conflict", 2, 1), "i1")
    clear_streets(st)
    set_wall(st, "W-3")
    set_stage(st, "eye_opens")
    assert Engine(st).action_cost("give_or_trade", inv(st, "i1")) == 2


def test_FW_DOOM_02_alliance_doom() -> None:
    st = new_game("alliance", 1, 1)
    assert "+3 Doom" in " ".join(st.log)  # 2 + 1 on the first turn


def test_FW_DOOM_06_FW_AMB_07_doom_during_the_wall_turn_is_deferred() -> None:
    st = wall(doom=3)
    set_gates(st, 5)
    h = put_horror(st, "H-CULTIST")
    for i in ("i2", "i3"):
        inv(st, i).insane = True
        st.marble_deck.extend(inv(st, i).hand)
        inv(st, i).hand = []
    set_hand(st, "i1", "M-C")
    st, _ = do(st, "s1", "trigger", horror=h)
    st, _ = answer(st, "choose_marble", marble=inv(st, "i1").hand[0]) \
        if prompt(st) == "lose_choice" else (st, [])
    assert prompt(st) == "gate_doom"
    st, _ = answer(st, "take_doom")
    assert st.doom_deferred == 1
    st, _ev = do(st, "s1", "end_turn")
    assert st.doom_deferred == 1  # kept past the end of Wrath
    st, _ = to_next_wall_turn(st)
    assert st.doom_deferred == 0 and st.doom == 1  # joined before the turn type is chosen


def test_FW_DOOM_07_doom_cap_option(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import shutil

    from rules.fourth_wall.content import DEFAULT_PACK_DIR

    dest = tmp_path / "pack"
    shutil.copytree(DEFAULT_PACK_DIR, dest)
    text = (dest / "pack.toml").read_text().replace("# doom_cap = 6", "doom_cap = 2")
    (dest / "pack.toml").write_text(text)
    st = GAME.setup(["s1", "s2"], GAME.options_model(mode="conflict", pack_path=str(dest)), 1)
    while st.prompts and st.prompts[-1].kind == "keep_investigator":
        st = GAME.apply(st, "s2", act("keep", card=st.prompts[-1].data["options"][0]["params"]
                                      ["card"])).state
    st = inv_turn(st, "i1")
    set_card(st, "i1", "INV-09")
    for _ in range(2):
        st, _ = do(st, "s2", "exploit", inv="i1")
    st.doom += 0
    eng = Engine(st)
    eng.gain_doom(5, "test")
    assert st.doom == 2
    assert GAME.invariants(st) == []


# ---------------------------------------------------------------- The Scourge
def test_FW_SCOURGE_01_02_one_scourge_on_one_horror() -> None:
    st = wall(doom=0, mode=None)
    a = put_horror(st, "H-CULTIST")
    put_horror(st, "H-GHOUL")
    st, _ = do(st, "s1", "brood")
    st, _ = answer(st, "scourge", horror=a)
    v = GAME.view(st, None)
    assert [h["scourge"] for h in v["horrors"]] == [True, False]
    assert v["scourge"]["on"] == a and v["gates"]["closing_blocked"]


def test_FW_SCOURGE_03_FW_AMB_32_card_closing_is_blocked_too() -> None:
    st = inv_turn(new_game("conflict", 2, 1), "i1")
    clear_streets(st)
    (elder,) = set_hand(st, "i1", "M-ELDER", "M-C")[:1]
    assert ("utilise", elder) in [(a.kind, a.params.get("marble"))
                                  for a in GAME.legal_actions(st, "s2")]
    st.scourge = put_horror(st, "H-CULTIST")
    assert "utilise" not in kinds(st, "s2")  # it could do nothing (FW-AMB-16)
    with pytest.raises(IllegalAction) as err:
        GAME.apply(st, "s2", act("utilise", inv="i1", marble=elder))
    assert err.value.rule == "FW-AMB-16"
    # Resolved anyway (e.g. a card already under way), the close is refused:
    eng = Engine(st)
    eng.later(*eng.card_steps(f"utilise:{elder}", "investigators", inv="i1", marble=elder))
    eng.run()
    assert len(st.gates) == 3 and "no Gate may be closed" in texts(eng.events)
    assert prompt(st) == "wall_doom"


def test_FW_SCOURGE_04_removed_otherwise_gates_close_again() -> None:
    st = inv_turn(new_game("conflict", 2, 1), "i1", ap=3)
    clear_streets(st)
    set_card(st, "i1", "INV-11")  # Exploit: remove The Scourge Token
    st.scourge = put_horror(st, "H-CULTIST")
    set_hand(st, "i1", "M-C", "M-F", "M-S")
    assert "close_gate" not in kinds(st, "s2")
    st, _ev = do(st, "s2", "exploit", inv="i1")
    assert st.scourge is None and "close_gate" in kinds(st, "s2")
    assert len(inv(st, "i1").hand) == 3  # "if there is no Scourge, draw two" did not fire


def test_FW_SCOURGE_05_no_other_effect() -> None:
    st = wall(doom=0)
    h = put_horror(st, "H-CULTIST")
    before = Engine(st).defeat_cost(h)
    st.scourge = h
    assert Engine(st).defeat_cost(h) == before


def test_FW_VIS_15_the_wall_hand_is_secret() -> None:
    st = wall(doom=1)
    secrets = GAME.public_secrets(st)
    assert all(f'"{h}"' in secrets for h in st.wall_hand)
    import json

    pub = json.dumps(GAME.view(st, None))
    assert not any(s in pub for s in secrets)
    marble = free_marble(st, "M-C")
    take_marble(st, marble)
    st.anchored.append(marble)
    assert f'"{marble}"' in json.dumps(GAME.view(st, None))  # Anchored: public
