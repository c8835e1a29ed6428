"""Scenario tests for the effect vocabulary (spec §3.1) through the default pack's cards
(FW-GAP-01/02/03 defaults): every Investigator Unique / Exploit, the Marble instructions and
quick uses, and an `any_time_out_of_turn` quick use from a custom pack.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from rules.core.types import act
from rules.fourth_wall.content import DEFAULT_PACK_DIR
from rules.fourth_wall.engine import Engine
from rules.fourth_wall.game import GAME
from tests.fourth_wall.helpers import (
    answer,
    clear_streets,
    do,
    free_marble,
    hand_cards,
    inv,
    inv_turn,
    kinds,
    legal,
    new_game,
    options,
    pass_windows,
    prompt,
    put_horror,
    set_card,
    set_hand,
    stack_horrors,
    stack_marbles,
    take_marble,
    texts,
    wall_turn,
)


def turn(mode: str = "conflict", n: int = 2, seed: int = 1, ap: int | None = None):  # type: ignore[no-untyped-def]
    st = inv_turn(new_game(mode, n, seed), "i1", ap)
    clear_streets(st)
    return st


def test_FW_GAP_01_INV_02_unique_attach_up_to_two() -> None:
    st = turn()
    set_card(st, "i1", "INV-02")
    a = put_horror(st, "H-GATEKEEPER")
    b = put_horror(st, "H-BRUTE")
    c, s, _f = set_hand(st, "i1", "M-C", "M-S", "M-F")
    st, _ = do(st, "s2", "unique", inv="i1")
    assert prompt(st) == "choose_marble" and "stop" not in {o.kind for o in options(st)}
    st, _ = answer(st, "choose_marble", marble=c)
    st, _ = answer(st, "choose_horror", horror=a)
    assert "stop" in {o.kind for o in options(st)}
    st, _ = answer(st, "choose_marble", marble=s)
    st, _ = answer(st, "choose_horror", horror=b)
    eng = Engine(st)
    assert eng.on_streets(a).attached == [c] and eng.on_streets(b).attached == [s]  # type: ignore[union-attr]


def test_FW_GAP_01_INV_03_exploit_elected_regroup_optional() -> None:
    st = turn()
    set_card(st, "i1", "INV-03")
    st, _ = do(st, "s2", "exploit", inv="i1")
    assert prompt(st) == "elect"
    st, _ = answer(st, "choose_investigator", inv="i3")
    assert prompt(st) == "regroup_offer"
    st, ev = answer(st, "decline")
    assert not inv(st, "i3").regrouped and "does not Regroup" in texts(ev)


def test_FW_GAP_01_INV_04_unique_close_with_two_symbols() -> None:
    st = turn()
    set_card(st, "i1", "INV-04")
    c, f, _x = set_hand(st, "i1", "M-C", "M-F", "M-C")
    st, _ = do(st, "s2", "unique", inv="i1")
    assert prompt(st) == "close_select" and "cancel" not in {o.kind for o in options(st)}
    st, _ = answer(st, "select", marble=c)
    st, _ = answer(st, "select", marble=f)
    st, _ = answer(st, "confirm")
    assert len(st.gates) == 2 and st.ap == 0


def test_FW_GAP_01_INV_05_unique_take_from_the_discard() -> None:
    st = turn()
    set_card(st, "i1", "INV-05")
    set_hand(st, "i1", "M-C")
    elder = free_marble(st, "M-ELDER")
    take_marble(st, elder)
    st.marble_discard.append(elder)
    st, _ = do(st, "s2", "unique", inv="i1")
    if prompt(st) == "choose_marble":
        st, _ = answer(st, "choose_marble", marble=elder)
    assert elder in inv(st, "i1").hand


def test_FW_GAP_01_INV_06_unique_free_give_or_trade() -> None:
    st = turn()
    set_card(st, "i1", "INV-06")
    (c,) = set_hand(st, "i1", "M-C", "M-F")[:1]
    set_hand(st, "i2", "M-S")
    st, _ = do(st, "s2", "unique", inv="i1")
    assert prompt(st) == "give_or_trade" and st.ap == 2
    st, _ = answer(st, "give_to", to="i2")
    st, _ = answer(st, "choose_marble", marble=c) if prompt(st) == "give_marble" else (st, [])
    assert c in inv(st, "i2").hand


def test_FW_GAP_01_INV_07_unique_blitz_two_symbols() -> None:
    st = turn()
    set_card(st, "i1", "INV-07")
    set_hand(st, "i1", "M-F")
    set_hand(st, "i2", "M-C")  # nobody holds an Adrenaline: the windows just continue
    set_hand(st, "i3", "M-C")
    h = put_horror(st, "H-RESTLESS-SPIRIT")
    stack_marbles(st, "M-C", "M-F")
    st, ev = do(st, "s2", "unique", inv="i1")
    st, more = pass_windows(st)
    ev += more
    assert "Blitz (2) [Clue, Science] reveals: a Clue Marble and a Force Marble" in texts(ev)
    assert [st.marble_cards[m] for m in Engine(st).on_streets(h).attached] == ["M-C"]  # type: ignore[union-attr]


def test_FW_GAP_01_INV_08_move_attachment_and_defeat_a_one_symbol_horror() -> None:
    st = turn()
    set_card(st, "i1", "INV-08")
    set_hand(st, "i1", "M-C")
    a = put_horror(st, "H-GATEKEEPER", attached=("M-F",))
    b = put_horror(st, "H-GHOUL", attached=("M-F",))
    st, _ = do(st, "s2", "unique", inv="i1")
    st, ev = answer(st, "choose_marble", marble=Engine(st).on_streets(a).attached[0])  # type: ignore[union-attr]
    assert prompt(st) is None  # the only other Horror is the destination
    assert Engine(st).on_streets(b) is None and "Ghoul is Defeated" in texts(ev)
    w = put_horror(st, "H-WATCHER")
    st, ev = do(st, "s2", "exploit", inv="i1")
    assert Engine(st).on_streets(w) is None
    assert Engine(st).on_streets(a) is not None  # three Symbols: not a candidate


def test_FW_GAP_01_INV_09_shield_the_next_loss() -> None:
    st = turn()
    set_card(st, "i1", "INV-09")
    st, _ = do(st, "s2", "exploit", inv="i1")
    assert st.shields and st.shields[0].owner == "i1"
    w = wall_turn(st, doom=2)
    h = put_horror(w, "H-CULTIST")
    w, _ = do(w, "s1", "trigger", horror=h)
    w, ev = answer(w, "choose_investigator", inv="i2")
    assert "loss is ignored" in texts(ev) and not w.shields


def test_FW_GAP_01_INV_10_conflict_exploit_views_the_wall_hand() -> None:
    st = turn()
    set_card(st, "i1", "INV-10")
    st, ev = do(st, "s2", "exploit", inv="i1")
    private = [e for e in ev if e.audience == ["s2"]]
    assert any("The Wall's hand:" in e.text for e in private)
    assert any("look at The Wall's hand" in e.text for e in ev if e.audience == "public")


def test_FW_GAP_01_INV_10_alliance_exploit_reorders_the_top_horrors() -> None:
    st = turn("alliance", 1)
    set_card(st, "i1", "INV-10")
    a, b, c = stack_horrors(st, "H-CULTIST", "H-GHOUL", "H-BRUTE")
    st, _ = do(st, "s1", "exploit", inv="i1")
    assert prompt(st) == "peek_order"
    st, _ = answer(st, "choose_card", card=c)
    st, _ = answer(st, "choose_card", card=a)
    assert st.horror_deck[-3:] == [b, a, c]  # c on top, then a, then b


def test_FW_GAP_01_INV_11_unique_self_and_regrouped_draw() -> None:
    st = turn()
    set_card(st, "i1", "INV-11")
    set_hand(st, "i1", "M-C")
    set_hand(st, "i2", "M-C")
    set_hand(st, "i3", "M-C")
    inv(st, "i3").regrouped = True
    st, _ = do(st, "s2", "unique", inv="i1")
    assert [len(inv(st, i).hand) for i in ("i1", "i2", "i3")] == [2, 1, 2]


def test_FW_GAP_01_INV_12_street_magician_swap_and_take() -> None:
    st = turn()
    set_card(st, "i1", "INV-12")
    h = put_horror(st, "H-GHOUL", attached=("M-C",))
    (f,) = set_hand(st, "i1", "M-F", "M-S")[:1]
    st, _ = do(st, "s2", "unique", inv="i1")
    st, _ = answer(st, "choose_marble", marble=f) if prompt(st) == "choose_marble" else (st, [])
    while prompt(st) == "choose_marble":
        st, _ = answer(st, "choose_marble", marble=options(st)[0].params["marble"])
    att = Engine(st).on_streets(h).attached  # type: ignore[union-attr]
    assert [st.marble_cards[m] for m in att] == ["M-F"] and "M-C" in hand_cards(st, "i1")
    st, _ = do(st, "s2", "exploit", inv="i1")
    assert not Engine(st).on_streets(h).attached and "M-F" in hand_cards(st, "i1")  # type: ignore[union-attr]


def test_FW_GAP_02_molotov_blitz_then_everyone_else_loses() -> None:
    st = turn()
    (molotov,) = set_hand(st, "i1", "M-MOLOTOV", "M-C")[:1]
    set_hand(st, "i2", "M-C", "M-S")
    set_hand(st, "i3", "M-C", "M-S")
    put_horror(st, "H-CULTIST")
    stack_marbles(st, "M-C", "M-S", "M-C")
    st, ev = do(st, "s2", "utilise", inv="i1", marble=molotov)
    while prompt(st) in ("lose_choice", "holy_window", "blitz_window", "wall_doom"):
        o = options(st)[0]
        st, more = answer(st, o.kind, **o.params)
        ev += more
    assert len(inv(st, "i2").hand) == 1 and len(inv(st, "i3").hand) == 1
    assert len(inv(st, "i1").hand) == 1 and molotov in st.marble_discard


def test_FW_PROMPT_24_adrenaline_grants_an_elected_other_a_1_ap_action() -> None:
    st = turn()
    (adr,) = set_hand(st, "i1", "M-ADRENALINE", "M-C")[:1]
    set_hand(st, "i2", "M-C")
    st, _ = do(st, "s2", "utilise", inv="i1", marble=adr)
    assert prompt(st) == "elect"
    st, _ = answer(st, "choose_investigator", inv="i2")
    assert prompt(st) == "granted"
    granted = {o.kind for o in options(st)}
    assert "regroup" not in granted and "pass" in granted and "search" in granted
    assert all(o.params.get("inv") == "i2" for o in options(st))
    st, _ = answer(st, "search", inv="i2")
    assert len(inv(st, "i2").hand) == 2 and st.ap == 1 and prompt(st) is None
    assert adr in st.marble_discard


def _anytime_pack(tmp_path: Path) -> str:
    dest = tmp_path / "pack"
    shutil.copytree(DEFAULT_PACK_DIR, dest)
    path = dest / "marbles.toml"
    text = path.read_text()
    old = ('reactions = [{ window = "before_blitz_reveal", scope = "any", repeatable = true, '
           'effects = [{ op = "blitz_bonus", n = 1 }] }]')
    assert old in text
    path.write_text(text.replace(old, 'reactions = [{ window = "any_time_out_of_turn", '
                                      'effects = [{ op = "draw_marbles", who = "self", n = 2 '
                                      '}] }]'))
    return str(dest)


def test_FW_GAP_02_any_time_quick_use_off_turn(tmp_path: Path) -> None:
    pack = _anytime_pack(tmp_path)
    st = GAME.setup(["s1", "s2", "s3"], GAME.options_model(mode="conflict", pack_path=pack), 2)
    while prompt(st) == "keep_investigator":
        st = GAME.apply(st, st.prompts[-1].seats[0],
                        act("keep", card=options(st)[0].params["card"])).state
    st = inv_turn(st, "i1")  # i1 = s2, i2 = s3
    clear_streets(st)
    (adr,) = set_hand(st, "i2", "M-ADRENALINE", "M-C")[:1]
    set_hand(st, "i4", "M-C")  # s3 also plays i4
    stack_marbles(st, "M-C", "M-F")
    assert GAME.to_act(st) == {"s2"} and GAME.may_act(st, "s3")
    assert ("react", adr) in [(a.kind, a.params.get("marble")) for a in legal(st, "s3")]
    st, _ev = do(st, "s3", "react", inv="i2", marble=adr)
    assert len(inv(st, "i2").hand) == 3 and adr in st.marble_discard
    assert not GAME.may_act(st, "s3") and "react" not in kinds(st, "s3")
