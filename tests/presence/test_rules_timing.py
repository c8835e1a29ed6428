"""Timing rules of The Presence (P-TIME-05/06, P-SETUP-31, P-VIS-03, P-VIS-11).

Effects that trigger together wait for the active player's order; main actions granted
outside a visitor's turn are used inside the granting effect; quick actions declared by
several players at once resolve with the active player first and the others
counter-clockwise, whatever order their answers reach the engine in.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from rules.core.types import act
from rules.presence.content import DEFAULT_PACK_DIR
from rules.presence.engine import Engine
from rules.presence.game import GAME
from rules.presence.state import DrainState, PresenceState
from tests.presence.helpers import (
    SPIRIT,
    active_visitor,
    answer,
    choose,
    do,
    fresh,
    new_game,
    options,
    quiet,
    settle,
    to_spirit_turn,
)

# ---------------------------------------------------------------- helpers


def smothered_order(st: PresenceState) -> list[str]:
    """Whose candles went out, in the order the public log tells it."""
    seat_of = {Engine(st).name(s): s for s in st.visitors}
    return [seat_of[line.removesuffix("'s candle is smothered.")] for line in st.log
            if line.endswith("'s candle is smothered.")]


def copy_pack(tmp_path: Path, file: str, old: str, new: str) -> str:
    folder = tmp_path / "pack"
    shutil.copytree(DEFAULT_PACK_DIR, folder)
    path = folder / file
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))
    return str(folder)


def setup_with(n: int, characters: dict[str, str], order: str | None = None) -> PresenceState:
    """Answer the setup prompts with the first option, except the visitors' characters;
    stop at the game-start ordering prompt when there is one."""
    st = fresh(n)
    for _ in range(40):
        if not st.prompts or st.phase != "setup":
            break
        p = st.prompts[-1]
        if p.data["then"] == "order_triggers":
            return st
        pick = characters.get(p.seats[0], options(st)[0]) \
            if p.data["then"] == "choose_visitor" else options(st)[0]
        st = answer(st, pick)
    return st


# ---------------------------------------------------------------- P-TIME-05 / P-SETUP-31


def test_p_setup_31_game_start_abilities_resolve_in_the_active_visitors_order() -> None:
    st = setup_with(3, {"s2": "descendant", "s3": "caretaker"})
    p = st.prompts[-1]
    # the first visitor holds the active player marker at game start (P-SETUP-30)
    assert p.kind == "choice" and p.seats == ["s2"]
    labels = [lab for _, lab in p.data["options"]]
    assert labels == ["The Descendant: character ability", "The Caretaker: character ability"]
    before = len(st.item_deck)
    out = GAME.apply(st, "s2", choose("1"))  # the Caretaker's item first
    texts = [e.text for e in out.events if e.audience == "public"]
    item = next(i for i, t in enumerate(texts) if "item" in t.lower())
    clue = next(i for i, t in enumerate(texts) if "clue card" in t.lower())
    assert item < clue
    st = out.state
    assert len(st.item_deck) == before - 1 and len(st.visitors["s3"].items) == 1
    assert st.phase == "visitor" and not st.prompts  # one effect left: no second prompt


def test_p_setup_31_the_other_order_draws_the_clue_card_first() -> None:
    st = setup_with(3, {"s2": "descendant", "s3": "caretaker"})
    out = GAME.apply(st, "s2", choose("0"))
    texts = [e.text for e in out.events if e.audience == "public"]
    item = next(i for i, t in enumerate(texts) if "item" in t.lower())
    clue = next(i for i, t in enumerate(texts) if "clue card" in t.lower())
    assert clue < item


def test_p_time_05_a_single_triggered_effect_needs_no_ordering_prompt() -> None:
    st = new_game(3)  # only the Descendant has a game-start ability here
    assert st.visitors["s2"].character == "descendant"
    e = Engine(st)
    clues = [c for c in st.visitors["s2"].hand if not e.is_action_card(c)]
    assert not st.prompts and len(clues) == 1 and len(st.visitors["s2"].hand) == 6


def two_drains(tmp_path: Path) -> PresenceState:
    """The spirit turn is next; Piano Music drains in the Salon (the Descendant) and Echo,
    changed in this pack to hurt at the start of the spirit turn too, in the Kitchen
    (the Orphan)."""
    pack = copy_pack(tmp_path, "spirit_cards.toml",
                     'trigger = { event = "investigate" }\n'
                     'effects = [{ op = "suffer_fear", who = "trigger_visitor" }]',
                     'trigger = { event = "start_of_spirit_turn" }\n'
                     'effects = [{ op = "target", selector = "visitor_within_hearing" }, '
                     '{ op = "suffer_fear", who = "target" }]')
    st = active_visitor(quiet(new_game(3, pack_path=pack)), "s3")
    sp = st.spirit
    for card in ("spirit_1.piano_music", "spirit_1.echo"):
        for pile in (sp.hand, sp.deck, sp.discard):
            if card in pile:
                pile.remove(card)
    st.drains = [DrainState(card="spirit_1.piano_music", power="top", room="salon"),
                 DrainState(card="spirit_1.echo", power="top", room="kitchen")]
    st.visitors["s2"].room = "salon"
    st.visitors["s3"].room = "kitchen"
    st.visitors["s3"].hand = st.visitors["s3"].hand[:5]
    st, _ = do(st, "s3", act("end_turn"))
    return st


def test_p_time_05_the_spirit_orders_its_start_of_turn_drains(tmp_path: Path) -> None:
    st = two_drains(tmp_path)
    p = st.prompts[-1]
    assert st.phase == "spirit" and p.seats == [SPIRIT]  # the spirit is the active player
    assert [lab for _, lab in p.data["options"]] == ["Piano Music (drain in the Salon)",
                                                      "Echo (drain in the Kitchen)"]
    out = GAME.apply(st, SPIRIT, choose("1"))
    fear = [e.text for e in out.events if "suffers 1 fear" in e.text]
    assert fear == ["The Orphan suffers 1 fear (1/5).", "The Descendant suffers 1 fear (1/5)."]
    assert not out.state.prompts and GAME.invariants(out.state) == []


def test_p_time_05_the_first_pick_resolves_fully_before_the_rest(tmp_path: Path) -> None:
    st = two_drains(tmp_path)
    out = GAME.apply(st, SPIRIT, choose("0"))
    fear = [e.text for e in out.events if "suffers 1 fear" in e.text]
    assert fear == ["The Descendant suffers 1 fear (1/5).", "The Orphan suffers 1 fear (1/5)."]


# ---------------------------------------------------------------- P-VIS-03


GRANT = ('[[visitor.abilities]]\nname = "Second Wind"\nspeed = "quick"\n'
         'effects = [{ op = "gain_main_actions", n = 1 }, { op = "cure_fear" }]\n'
         'text = "Quick: gain 1 main action, then cure 1 fear."\n\n')


def grant_pack(tmp_path: Path) -> str:
    """The Descendant gets a quick ability granting one main action, then curing fear."""
    return copy_pack(tmp_path, "visitors.toml", '[[visitor]]\nid = "orphan"',
                     GRANT + '[[visitor]]\nid = "orphan"')


def offturn_grant(tmp_path: Path) -> PresenceState:
    """The Orphan's turn; the Descendant (afraid, 2) uses Second Wind off-turn."""
    st = active_visitor(quiet(new_game(3, pack_path=grant_pack(tmp_path))), "s3")
    st.visitors["s2"].fear = 2
    st, _ = do(st, "s2", act("ability", index=0, speed="quick"))
    st = answer(st, "pass")  # the Orphan, active, lets the declared quick action resolve
    return st


def test_p_vis_03_an_off_turn_main_action_is_used_inside_the_effect(tmp_path: Path) -> None:
    st = offturn_grant(tmp_path)
    p = st.prompts[-1]
    assert p.seats == ["s2"] and p.data["then"] == "offturn_main"
    labels = dict(p.data["options"])
    assert labels["a0"].startswith("Rest") and labels["a1"].startswith("Walk")
    assert "done" in labels
    st = answer(st, "a1")  # Walk, in the middle of Second Wind
    assert st.prompts[-1].data["then"] == "movement" and st.prompts[-1].seats == ["s2"]
    assert st.visitors["s2"].fear == 2  # the effect has not ended: the cure comes after
    st = answer(st, "stop")
    assert st.visitors["s2"].fear == 1  # the effect ended after its main action
    # the active turn keeps its own count and its player
    assert st.active == "s3" and st.actions_left == 3 and st.phase == "visitor"
    assert not any(a.kind in ("rest", "walk") for a in GAME.legal_actions(st, "s2"))


def test_p_vis_03_unused_granted_main_actions_are_lost(tmp_path: Path) -> None:
    st = offturn_grant(tmp_path)
    out = GAME.apply(st, "s2", choose("done"))
    assert any("go unused" in e.text for e in out.events)
    st = out.state
    assert not st.prompts and st.visitors["s2"].fear == 1
    assert st.actions_left == 3 and st.active == "s3"
    assert not any(a.kind in ("rest", "walk") for a in GAME.legal_actions(st, "s2"))


def test_p_vis_03_on_your_own_turn_the_grant_adds_to_your_main_actions(
        tmp_path: Path) -> None:
    st = active_visitor(quiet(new_game(3, pack_path=grant_pack(tmp_path))), "s2")
    st, _ = do(st, "s2", act("ability", index=0, speed="quick"))
    assert not st.prompts and st.actions_left == 4


# ---------------------------------------------------------------- P-VIS-11 / P-TIME-06


def test_p_vis_11_the_active_visitor_goes_first_in_either_arrival_order() -> None:
    st = new_game(3)  # the Descendant (s2) is active; the Orphan (s3) acts off-turn
    # the Orphan's press arrives first: declared, the active player answers first
    a, _ = do(st, "s3", act("smother"))
    assert a.visitors["s3"].candle_lit and GAME.to_act(a) == {"s2"}
    assert "q0" in options(a)
    a, _ = do(a, "s2", choose("q0"))  # "First: Smother your candle"
    # the active player's press arrives first: it resolves at once
    b, _ = do(st, "s2", act("smother"))
    b, _ = do(b, "s3", act("smother"))
    b = settle(b, prefer=("pass",))
    assert smothered_order(a) == smothered_order(b) == ["s2", "s3"]


def test_p_time_06_ties_resolve_counter_clockwise_from_the_active_player() -> None:
    # seats clockwise s1 (spirit), s2, s3, s4; s2 active: then s1, s4, s3
    for first, second in (("s3", "s4"), ("s4", "s3")):
        st = new_game(4)
        st, _ = do(st, first, act("smother"))
        assert GAME.may_act(st, second) and not GAME.may_act(st, first)
        st, _ = do(st, second, act("smother"))
        assert all(v.candle_lit for v in st.visitors.values())
        st = answer(st, "pass")
        assert smothered_order(st) == ["s4", "s3"], (first, second)


def test_p_time_06_on_the_spirit_turn_ties_start_on_the_spirits_right() -> None:
    """Seats s1 (spirit), s2, s3, s4: on the spirit's turn the order is s4, s3, s2 (A-18).
    The spirit has no quick actions, so it is never asked; the tie goes to s4, the first
    seat with precedence that has a quick action of its own."""
    for first, second in (("s2", "s3"), ("s3", "s2")):
        st = to_spirit_turn(new_game(4))
        st, _ = do(st, first, act("smother"))
        st, _ = do(st, second, act("smother"))
        assert GAME.to_act(st) == {"s4"} and options(st)[0] == "pass" and len(options(st)) > 1
        st = answer(st, "pass")
        assert smothered_order(st) == ["s3", "s2"], (first, second)
        assert st.phase == "spirit" and not st.prompts


def test_p_time_06_a_18_the_spirit_is_never_asked_to_pass_on_a_visitors_quick_action() -> None:
    """The spirit has no quick action in its own turn (A-18): a visitor's quick action never
    opens a "ties go to you" choice for it whose only answer is pass (issue #12, 9a)."""
    st = to_spirit_turn(new_game(3))  # s1 spirit, then s3, s2 in priority
    st, events = do(st, "s3", act("smother"))  # s3 is first among the visitors: at once
    assert not st.prompts and not st.visitors["s3"].candle_lit
    assert GAME.to_act(st) == {SPIRIT}
    assert not any("declares" in e.text for e in events)
    # s2 behind s3, who has no quick action left (candle out, no quick card): at once too
    st.visitors["s3"].hand = []
    st, _ = do(st, "s2", act("smother"))
    assert not st.prompts and not st.visitors["s2"].candle_lit


def test_p_time_06_only_a_seat_with_a_quick_action_is_offered_the_tie() -> None:
    """In a visitor's turn whose active player has no quick action left, the tie goes to
    the next seat counter-clockwise that has one (A-18), never to the active player."""
    st = new_game(4)  # s2 active; priority s2, s1, s4, s3
    s2 = st.visitors["s2"]
    s2.candle_lit = False
    s2.hand = []
    st, _ = do(st, "s3", act("smother"))
    assert GAME.to_act(st) == {"s4"}
    assert all(o[0] == "pass" or o[1].startswith("First: ")
               for o in st.prompts[-1].data["options"])
    st = answer(st, "q0")  # s4 smothers first
    assert smothered_order(st) == ["s4", "s3"] and st.active == "s2" and not st.prompts


def test_p_vis_11_the_active_player_answers_before_any_main_action() -> None:
    st = new_game(3)
    st, _ = do(st, "s3", act("smother"))
    legal = {a.kind for a in GAME.legal_actions(st, "s2")}
    assert legal == {"choose"}  # no main action while a quick action is declared (P-TIME-07)
    assert GAME.legal_actions(st, "s3") == []  # one declaration per window
    st = answer(st, "pass")
    assert not st.visitors["s3"].candle_lit and not st.prompts
    assert "walk" in {a.kind for a in GAME.legal_actions(st, "s2")}


def test_p_vis_11_without_a_possible_rival_a_quick_action_resolves_at_once() -> None:
    st = new_game(3)
    s2 = st.visitors["s2"]
    s2.candle_lit = False  # the active Descendant has no quick action left to race with
    s2.hand = []
    st, _ = do(st, "s3", act("smother"))
    assert not st.prompts and not st.visitors["s3"].candle_lit
