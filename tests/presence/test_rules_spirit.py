"""Scenario tests for the spirit's rules: the spirit turn (P-SPIRIT), bonding (P-BOND), drain
(P-DRAIN), manifestation (P-MANI), and the components they use (P-COMP).

Each test builds a real game with a fixed seed, edits the state into the situation the rule is
about, drives the engine through `GAME.apply` (or one engine step), and asserts on the state.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from pydantic import ValidationError

from rules.core.errors import IllegalAction
from rules.core.types import act
from rules.presence.content import DEFAULT_PACK_DIR, default_pack
from rules.presence.game import GAME
from rules.presence.state import DieState, DrainState, PresenceState
from tests.presence.helpers import (
    SPIRIT,
    active_visitor,
    answer,
    do,
    edit,
    eng,
    new_game,
    options,
    prompt_kind,
    put_die,
    quiet,
    settle,
    to_spirit_turn,
)

PACK = default_pack()


def scene(n: int = 3, seed: int = 1, **opts: object) -> PresenceState:
    """The spirit's turn of round 1, no dice or clue tokens on the board, doors closed."""
    return to_spirit_turn(quiet(new_game(n, seed, **opts)))


def die_of(st: PresenceState, die: int) -> DieState:
    return next(d for d in st.dice if d.id == die)


def give(st: PresenceState, card: str) -> None:
    """Put a spirit card in the spirit's hand (from its deck or discard)."""
    sp = st.spirit
    for pile in (sp.deck, sp.discard):
        if card in pile:
            pile.remove(card)
            sp.hand.append(card)
    assert card in sp.hand


def kinds(st: PresenceState, seat: str) -> set[str]:
    return {a.kind for a in GAME.legal_actions(st, seat)}


def play(st: PresenceState, card: str, die: int, power: str) -> PresenceState:
    """Play `card` declaring `die` and announce one power."""
    give(st, card)
    st, _ = do(st, SPIRIT, act("play_spirit", card=card))
    st = answer(st, str(die))
    return answer(st, power)


# ---------------------------------------------------------------- the spirit turn


def test_p_spirit_01_the_spirit_turn_begins_after_the_last_visitor_turn() -> None:
    st = quiet(new_game(3, 1))
    assert GAME.legal_actions(st, SPIRIT) == []  # no spirit action during a visitor turn
    with pytest.raises(IllegalAction) as err:
        GAME.apply(st, SPIRIT, act("end_spirit"))
    assert err.value.rule == "CORE-TURN"  # refused before the engine: not its turn
    st, _ = do(st, "s2", act("end_turn"))
    st = settle(st)
    assert st.phase == "visitor" and st.active == "s3"  # one visitor still to play
    st, _ = do(st, "s3", act("end_turn"))
    st = settle(st)
    assert st.phase == "spirit" and st.active == SPIRIT  # the marker goes to the spirit
    assert GAME.to_act(st) == {SPIRIT} and "end_spirit" in kinds(st, SPIRIT)


def test_p_spirit_02_the_spirit_acts_until_it_ends_its_own_turn() -> None:
    st = edit(scene())
    dice = [put_die(st, room, 3) for room in ("salon", "library", "kitchen")]
    for d, to in zip(dice, ("kitchen", "great_hall", "cellar"), strict=True):
        st, _ = do(st, SPIRIT, act("move_die", die=d, to=to))
        st = settle(st)
    st, _ = do(st, SPIRIT, act("increase", card=st.spirit.hand[0]))
    st = answer(st, f"up:{dice[0]}")
    # four actions taken (more than a visitor's three): the turn goes on until it is ended
    assert st.spirit_actions == 4 and st.phase == "spirit" and st.active == SPIRIT
    assert {"increase", "end_spirit"} <= kinds(st, SPIRIT)
    st, _ = do(st, SPIRIT, act("end_spirit"))
    st = settle(st)
    assert (st.round, st.phase, st.active) == (2, "visitor", "s2")  # ended by the spirit


def test_p_spirit_03_a_quick_action_window_opens_between_spirit_actions() -> None:
    st = edit(scene())
    d = put_die(st, "salon", 4)
    assert GAME.may_act(st, "s2")  # at rest in the spirit turn: a candle may be smothered
    st, _ = do(st, SPIRIT, act("move_die", die=d, to="kitchen"))
    assert GAME.may_act(st, "s2") and "smother" in kinds(st, "s2")
    give(st, "spirit_1.drift")
    st, _ = do(st, SPIRIT, act("play_spirit", card="spirit_1.drift"))
    # once the spirit has announced a card it is too late for a quick action
    assert prompt_kind(st) == "power"
    assert not GAME.may_act(st, "s2") and GAME.legal_actions(st, "s2") == []
    st = settle(st, prefer=("done",))
    st, _ = do(st, "s2", act("smother"))
    st = answer(st, "pass")  # the spirit, active, passes the tie first (P-VIS-11)
    assert not st.visitors["s2"].candle_lit and st.phase == "spirit" and st.active == SPIRIT


def test_p_spirit_04_every_spirit_action_needs_a_presence_die_on_the_board() -> None:
    st = edit(scene())
    assert all(d.room is None for d in st.dice)
    legal = GAME.legal_actions(st, SPIRIT)
    assert not any(a.kind in ("move_die", "play_spirit") for a in legal)
    st, _ = do(st, SPIRIT, act("increase", card=st.spirit.hand[0]))
    assert options(st) and all(o.startswith("add:") for o in options(st))  # only from supply
    st = edit(scene())
    d = put_die(st, "salon", 2)
    give(st, "spirit_1.gloom")  # needs 2 presence
    legal = GAME.legal_actions(st, SPIRIT)
    assert any(a.kind == "play_spirit" and a.params["card"] == "spirit_1.gloom" for a in legal)
    assert {a.params["to"] for a in legal if a.kind == "move_die"} == {"great_hall", "kitchen"}
    del d


def test_p_spirit_05_dice_in_one_room_are_used_one_at_a_time() -> None:
    st = edit(scene())
    a = put_die(st, "salon", 3)
    b = put_die(st, "salon", 3)
    give(st, "spirit_1.broken_form")
    st, _ = do(st, SPIRIT, act("play_spirit", card="spirit_1.broken_form"))
    assert set(options(st)) == {str(a), str(b)}  # one die is declared, not the room
    st = answer(st, str(a))
    st = answer(st, "bottom")  # [1/1] move this die
    st = answer(st, "kitchen")
    st = settle(st, prefer=("done",))
    assert (die_of(st, a).room, die_of(st, a).value) == ("kitchen", 2)
    assert (die_of(st, b).room, die_of(st, b).value) == ("salon", 3)  # untouched


def test_p_spirit_10_fear_bonus_is_no_action_and_ignores_light() -> None:
    st = active_visitor(quiet(new_game(3, 1)), "s2")
    d = put_die(st, "great_hall", 2)
    assert eng(st).lit("great_hall")
    e = eng(st)
    e.suffer_fear("s2", 1)
    e.run()
    # a visitor's turn, a lit room: the spirit is still offered its bonus
    assert prompt_kind(st) == "fear_bonus" and st.prompts[-1].seats == [SPIRIT]
    st = answer(st, str(d))
    assert die_of(st, d).value == 3
    assert st.phase == "visitor" and st.active == "s2" and st.spirit_actions == 0


def test_p_spirit_14_a_power_resolves_as_much_as_it_can() -> None:
    st = edit(scene())
    for v in st.visitors.values():
        v.room = "kitchen"
        v.candle_lit = False  # nothing left to smother
    d = put_die(st, "kitchen", 4)
    st = play(st, "spirit_1.chill", d, "bottom")  # smother every candle; each suffers 1
    st = settle(st, prefer=("no", "done"))
    assert [v.fear for v in st.visitors.values()] == [1, 1]


def test_p_spirit_15_a_moved_die_resolves_the_rest_from_its_new_room() -> None:
    st = edit(scene())
    st.visitors["s2"].room = "kitchen"
    st.visitors["s3"].room = "salon"
    d = put_die(st, "salon", 3)
    e = eng(st)
    # one power: move this die one room, then a nearby visitor suffers 1 fear
    e.step_effects([{"op": "move_die", "die": "this", "steps": 1},
                    {"op": "target", "selector": "nearby_visitor"},
                    {"op": "suffer_fear", "who": "target"}], 0,
                   e.spirit_ctx(d, "salon", "test power"))
    e.run()
    st = answer(st, "kitchen")
    st = settle(st, prefer=("no",))
    assert die_of(st, d).room == "kitchen"
    assert (st.visitors["s2"].fear, st.visitors["s3"].fear) == (1, 0)  # from the new room
    # the card's other power also uses the declared die where it now is
    st = edit(scene())
    d = put_die(st, "salon", 5)
    st = play(st, "spirit_1.broken_form", d, "bottom")  # [1/1] move this die
    st = answer(st, "kitchen")
    assert prompt_kind(st) == "power" and "top" in options(st)
    st = answer(st, "top")  # [4/2] manifest in this die's room
    st = settle(st, prefer=("done",))
    assert st.spirit.pawn_room == "kitchen" and die_of(st, d).value == 2


def test_p_spirit_16_a_resolved_card_goes_face_down_to_the_spirit_discard() -> None:
    st = edit(scene())
    d = put_die(st, "salon", 2)
    st = play(st, "spirit_1.drift", d, "top")
    st = answer(st, "kitchen")
    st = settle(st, prefer=("done",))
    assert st.spirit.playing is None and "spirit_1.drift" in st.spirit.discard
    public = GAME.view(st, None)["spirit"]
    assert public["discard_count"] == len(st.spirit.discard) and "discard" not in public
    assert "Drift" in GAME.view(st, SPIRIT)["spirit_private"]["discard"]


def test_p_spirit_17_a_visitor_choice_inside_a_power_goes_to_that_visitor() -> None:
    st = edit(scene())
    d = put_die(st, "great_hall", 3)
    st = play(st, "spirit_1.whisper", d, "bottom")  # a nearby visitor may draw 1 clue card
    assert prompt_kind(st) == "target" and st.prompts[-1].seats == [SPIRIT]
    st = answer(st, "s3")
    assert prompt_kind(st) == "choice" and st.prompts[-1].seats == ["s3"]
    # Its words, on the board's turn line too, after "Ada (the Orphan):": not "for" the
    # very visitor choosing (stop 66's demo; stop 60's read "Choose for The Orphan:") ...
    name = eng(st).name("s3")
    assert name.startswith("The ")
    assert name[4:] not in st.prompts[-1].text, st.prompts[-1].text
    # ... and what it is about (stop 64: "…: yes or no?" said nothing outside the buttons)
    assert st.prompts[-1].text.endswith(": draw a clue card? Yes or no."), st.prompts[-1].text
    before = len(st.visitors["s3"].hand) + len(st.visitors["s3"].fear_cards)
    st = answer(st, "0")
    assert len(st.visitors["s3"].hand) + len(st.visitors["s3"].fear_cards) == before + 1


def test_p_spirit_20_the_spirit_sees_its_secrets_and_spirit_clues_at_any_time() -> None:
    st = edit(quiet(new_game(3, 1)))  # a visitor's turn
    clue = st.spirit_clue_bag[-1]
    from tests.presence.helpers import put_token

    put_token(st, "salon", "spirit", clue)
    mine = GAME.view(st, SPIRIT)["spirit_private"]
    assert [s["id"] for s in mine["secrets"]] == [s.card for s in st.secrets]
    assert mine["tokens"]["salon"] == [PACK.spirit_clue_of(clue).name]
    for who in (None, "s2"):
        view = GAME.view(st, who)
        assert "spirit_private" not in view
        assert all(s["name"] is None for s in view["secrets"])


def test_p_spirit_21_the_spirit_has_no_quick_actions_and_no_speech() -> None:
    st = quiet(new_game(3, 1))
    assert not eng(st).alone("s2")  # the visitors may talk together ...
    talk = eng(st).table_talk()
    assert talk["speech"]["s2"] == "free" and talk["speech"][SPIRIT] == "procedural_only"
    assert GAME.legal_actions(st, SPIRIT) == [] and not GAME.may_act(st, SPIRIT)
    st = scene()
    assert eng(st).table_talk()["speech"][SPIRIT] == "procedural_only"  # its own turn too


# ---------------------------------------------------------------- bonding


def test_p_bond_04_lonely_touch_needs_an_alone_visitor() -> None:
    st = edit(scene())
    d = put_die(st, "great_hall", 3)  # both visitors are here: neither is alone
    st = play(st, "spirit_1.lonely_touch", d, "top")
    assert prompt_kind(st) != "choice"
    st = settle(st, prefer=("done",))
    assert st.bonded is None


def test_p_bond_05_a_visitor_who_cannot_discard_must_accept_the_bond() -> None:
    st = edit(scene())
    st.visitors["s3"].room = "library"  # s2 is alone in the great hall
    v = st.visitors["s2"]
    actions = [c for c in v.hand if eng(st).is_action_card(c)]
    v.discard += actions[2:]
    v.hand = actions[:2]  # not enough to discard 3 action cards
    d = put_die(st, "great_hall", 3)
    st = play(st, "spirit_1.lonely_touch", d, "top")
    assert prompt_kind(st) != "choice"  # no choice offered: the only option is taken
    st = settle(st, prefer=("done",))
    assert st.bonded == "s2" and len(st.visitors["s2"].hand) == 2


def test_p_bond_06_the_bond_lasts_across_rounds_until_moved() -> None:
    st = edit(scene())
    st.bonded = "s3"
    st, _ = do(st, SPIRIT, act("end_spirit"))
    st = settle(st)
    assert st.round == 2 and st.bonded == "s3"  # upkeep and a new round do not remove it
    st = active_visitor(st, "s3")
    e = eng(st)
    e.suffer_fear("s3", 1)
    e.run()
    assert st.bonded == "s3"  # nor does suffering fear


# ---------------------------------------------------------------- drain


def drain_pack(tmp_path: Path) -> str:
    """The shipped pack with Echo's bottom power given a drain cost too."""
    folder = tmp_path / "pack"
    shutil.copytree(DEFAULT_PACK_DIR, folder)
    path = folder / "spirit_cards.toml"
    old = ('requirement = 3\nspend = 2\neffects = [{ op = "reveal_clue_deck", n = 1 }]')
    text = path.read_text()
    assert text.count(old) >= 1
    path.write_text(text.replace(old, 'requirement = 3\nspend = 2\ndrain = 1\n'
                                 'effects = [{ op = "reveal_clue_deck", n = 1 }]', 1))
    return str(folder)


def to_drain_prompt(st: PresenceState) -> PresenceState:
    while prompt_kind(st) != "drain":
        st = answer(st, options(st)[0])
    return st


def test_p_drain_02_two_drain_powers_on_one_card_each_get_a_marker(tmp_path: Path) -> None:
    st = scene(pack_path=drain_pack(tmp_path))
    assert st.spirit.character == "spirit_1"
    d = put_die(st, "salon", 6)
    st = play(st, "spirit_1.echo", d, "top")  # [2/1, drain 1]
    st = answer(st, "bottom")  # [3/2, drain 1 in this pack]
    st = settle(st, prefer=("done",))
    assert [(x.card, x.power) for x in st.drains] == [("spirit_1.echo", "top"),
                                                       ("spirit_1.echo", "bottom")]
    assert "spirit_1.echo" not in st.spirit.discard
    st, _ = do(st, SPIRIT, act("end_spirit"))
    st = to_drain_prompt(st)
    st = answer(st, "release")
    assert len(st.drains) == 1 and "spirit_1.echo" not in st.spirit.discard  # still marked
    st = to_drain_prompt(st)
    st = answer(st, "release")
    assert not st.drains and "spirit_1.echo" in st.spirit.discard  # no marker left


def test_p_drain_04_play_cost_now_drain_cost_in_this_round_upkeep() -> None:
    st = edit(scene())
    d = put_die(st, "salon", 4)
    st = play(st, "spirit_1.echo", d, "top")  # costs 1 to play, drains 1 each upkeep
    st = settle(st, prefer=("done",))
    assert die_of(st, d).value == 3
    st, _ = do(st, SPIRIT, act("end_spirit"))
    st = to_drain_prompt(st)
    assert st.round == 1  # the first drain is paid in the upkeep of the round it was played
    st = answer(st, str(d))
    assert die_of(st, d).value == 2 and [x.card for x in st.drains] == ["spirit_1.echo"]


# ---------------------------------------------------------------- manifestation


def test_p_mani_02_manifesting_uses_the_pawn_not_a_drain_marker() -> None:
    st = edit(scene())
    others = [c for c in PACK.spirit_deck("spirit_1") if c != "spirit_1.broken_form"][:6]
    for c in others:
        for pile in (st.spirit.deck, st.spirit.discard, st.spirit.hand):
            if c in pile:
                pile.remove(c)
    st.drains = [DrainState(card=c, power="top", room="salon") for c in others]  # all six
    d = put_die(st, "salon", 5)
    st = play(st, "spirit_1.broken_form", d, "top")  # still offered: no marker needed
    st = settle(st, prefer=("done",))
    assert st.spirit.pawn_room == "salon" and len(st.drains) == 6
    st, _ = do(st, SPIRIT, act("end_spirit"))
    st = settle(st, prefer=("release",))  # upkeep: the drains, then the pawn's own drain
    assert st.spirit.pawn_room is None and not st.drains


def test_p_mani_06_a_manifested_spirit_speaks_only_through_an_action_that_says_so() -> None:
    st = edit(scene())
    put_die(st, "great_hall", 3)
    st.spirit.pawn_room = "great_hall"
    st.spirit.pawn_actions = 3
    assert eng(st).table_talk()["speech"][SPIRIT] == "procedural_only"  # manifested, silent
    st, ev = do(st, SPIRIT, act("pawn", action="manifest.touch"))
    st = settle(st, prefer=("s2", "no"))
    assert not any(e.kind == "speak" for e in ev)
    st, ev = do(st, SPIRIT, act("pawn", action="manifest.speak"))
    speak = [e for e in ev if e.kind == "speak"]
    assert len(speak) == 1 and speak[0].data["max_words"] == 5 and speak[0].public


# ---------------------------------------------------------------- components


def test_p_comp_03_a_session_uses_no_campaign_component() -> None:
    with pytest.raises(ValidationError):
        GAME.options_model(mode="campaign")  # session is the only mode (G-21)
    st = new_game(5, 2)
    for v in st.visitors.values():  # no memory action cards: exactly the 10 personal cards
        acts = v.deck + v.discard + [c for c in v.hand if eng(st).is_action_card(c)]
        assert sorted(acts) == sorted(PACK.action_deck(v.character)) and len(acts) == 10
    sp = st.spirit
    assert sorted(sp.deck + sp.hand) == sorted(PACK.spirit_deck(sp.character))
    assert {s.card for s in st.secrets} == set(PACK.spirit_secrets(sp.character))
    assert set(st.spirit_clue_bag) | {t.id for toks in st.tokens.values() for t in toks
                                      if t.kind == "spirit"} <= \
        set(PACK.spirit_clue_bag(sp.character))  # no campaign spirit clue
    fields = " ".join(PresenceState.model_fields)
    assert not any(w in fields for w in ("campaign", "chronicle", "dark_lady", "scenario"))


def test_p_comp_05_one_spirit_and_one_visitor_character_per_other_seat() -> None:
    st = new_game(5, 2)
    assert st.spirit_seat == SPIRIT and st.spirit.character
    assert sorted(st.visitors) == ["s2", "s3", "s4", "s5"] and SPIRIT not in st.visitors
    assert len({v.character for v in st.visitors.values()}) == 4


def test_p_comp_10_presence_runs_from_one_to_six() -> None:
    st = edit(scene())
    top = put_die(st, "salon", 6)
    opts = dict(eng(st).increase_options())
    assert f"up:{top}" not in opts  # no seventh pip
    st, _ = do(st, SPIRIT, act("increase", card=st.spirit.hand[0]))
    st = answer(st, "add:kitchen")
    added = next(d for d in st.dice if d.room == "kitchen")
    assert added.value == 1  # a placed die shows its lowest value
    st = active_visitor(st, "s2")
    st.visitors["s2"].room = "salon"
    e = eng(st)
    e.suffer_fear("s2", 1)
    e.run()
    assert prompt_kind(st) != "fear_bonus" and die_of(st, top).value == 6  # capped


def test_p_comp_13_the_fireplace_starts_dark_in_the_dining_hall() -> None:
    st = new_game(3, 1)
    assert PACK.manor.fireplace_room == "dining_hall" and not st.fireplace_lit
    room = next(r for r in GAME.view(st, None)["rooms"] if r["id"] == "dining_hall")
    assert room["fireplace"] and not room["fireplace_lit"] and not room["lit"]


def test_p_comp_14_the_active_player_marker_counts_main_actions() -> None:
    st = quiet(new_game(3, 1))
    assert GAME.view(st, None)["actions_left"] == 3
    st, _ = do(st, "s2", act("walk"))
    st = settle(st)
    assert st.actions_left == 2 and GAME.view(st, None)["actions_left"] == 2
    assert GAME.view(st, None)["active_seat"] == "s2"


def test_p_comp_15_six_drain_markers() -> None:
    st = edit(scene())
    assert PACK.options.drain_markers == 6
    others = [c for c in PACK.spirit_deck("spirit_1")
              if c not in ("spirit_1.piano_music",)][:6]
    for c in others:
        for pile in (st.spirit.deck, st.spirit.discard, st.spirit.hand):
            if c in pile:
                pile.remove(c)
    st.drains = [DrainState(card=c, power="top", room="salon") for c in others[:5]]
    d = put_die(st, "salon", 4)
    give(st, "spirit_1.piano_music")
    st, _ = do(st, SPIRIT, act("play_spirit", card="spirit_1.piano_music"))
    st = answer(st, str(d))
    assert "top" in options(st)  # the sixth marker is free
    st = edit(scene())
    st.drains = [DrainState(card=c, power="top", room="salon") for c in others]
    for c in others:
        for pile in (st.spirit.deck, st.spirit.discard, st.spirit.hand):
            if c in pile:
                pile.remove(c)
    d = put_die(st, "salon", 4)
    give(st, "spirit_1.piano_music")
    st, _ = do(st, SPIRIT, act("play_spirit", card="spirit_1.piano_music"))
    st = answer(st, str(d))
    assert "top" not in options(st) and "bottom" in options(st)  # all six in use


def test_p_comp_17_the_clue_board_holds_deck_revealed_cards_and_trash() -> None:
    st = edit(quiet(new_game(3, 1)))
    fear = next(c for c in st.clue_deck if PACK.is_fear_card(c))
    st.clue_deck.remove(fear)
    st.visitors["s3"].fear_cards.append(fear)
    e = eng(st)
    e.knock_out("s3", nerve=False)  # a knocked-out visitor's fear cards are trashed
    e.run()
    assert st.clue_trash == [fear]
    deck = len(st.clue_deck)
    e = eng(st)
    e.step_effects([{"op": "reveal_clue_deck", "n": 1}], 0, e.visitor_ctx("s2", "test"))
    e.run()
    view = GAME.view(st, None)
    assert view["clue_trash"] == 1 and view["clue_deck"] == deck - 1
    assert len(view["clue_revealed"]) == 1


def test_p_comp_18_item_discards_go_to_the_cellar() -> None:
    st = edit(quiet(new_game(3, 1)))
    st = active_visitor(st, "s2")
    items = [st.item_deck.pop() for _ in range(3)]
    st.visitors["s2"].items = items[:2]
    e = eng(st)
    e.gain_item("s2", items[2])
    e.run()
    assert prompt_kind(st) == "item_limit"
    st = answer(st, items[0])
    assert st.cellar == [items[0]]
    assert [i["id"] for i in GAME.view(st, None)["cellar"]] == [items[0]]


# ---------------------------------------------------------------- refusals and rulings


def test_p_spirit_07_11_refusals_name_the_rule() -> None:
    st = edit(scene())
    d = put_die(st, "salon", 1)
    st, _ = do(st, SPIRIT, act("move_die", die=d, to="kitchen"))
    with pytest.raises(IllegalAction) as err:  # one Move per die per turn
        GAME.apply(st, SPIRIT, act("move_die", die=d, to="cellar"))
    assert err.value.rule == "P-SPIRIT-07"
    give(st, "spirit_1.torment")  # needs 3 presence; the only die shows 1
    with pytest.raises(IllegalAction) as err:
        GAME.apply(st, SPIRIT, act("play_spirit", card="spirit_1.torment"))
    assert err.value.rule == "P-SPIRIT-11"


def test_p_spirit_19_an_empty_spirit_deck_is_refilled_from_the_discard() -> None:
    st = edit(scene())
    sp = st.spirit
    sp.discard += sp.deck + sp.hand[1:]
    sp.deck = []
    sp.hand = sp.hand[:1]
    st, _ = do(st, SPIRIT, act("end_spirit"))
    assert len(st.spirit.hand) == 3 and st.spirit.deck  # reshuffled, then drawn from
    assert not st.spirit.discard
    assert sorted(st.spirit.hand + st.spirit.deck) == sorted(PACK.spirit_deck("spirit_1"))


def test_p_drain_03_a_drain_is_paid_only_from_a_die_in_its_room() -> None:
    st = edit(scene())
    card = "spirit_1.piano_music"
    for pile in (st.spirit.deck, st.spirit.discard, st.spirit.hand):
        if card in pile:
            pile.remove(card)
    st.drains = [DrainState(card=card, power="top", room="salon")]
    near = put_die(st, "salon", 2)
    far = put_die(st, "kitchen", 5)
    st, _ = do(st, SPIRIT, act("end_spirit"))
    st = to_drain_prompt(st)
    assert options(st) == [str(near), "release"]  # the kitchen die is not nearby
    st = answer(st, str(near))
    assert die_of(st, near).value == 1 and die_of(st, far).value == 5 and st.drains


def test_p_spirit_12_the_power_is_said_before_its_spend_fades_the_die() -> None:
    """Stop 60's demo: "A presence die in the Salon fades to nothing …" came before "The
    spirit uses the top power of Guidance (spends 1)": the spend that faded it, said after."""
    st = edit(scene())
    d = put_die(st, "cellar", 1)  # a dark room: Guidance's top power needs 1 and spends 1
    give(st, "spirit_1.guidance")
    st, _ = do(st, SPIRIT, act("play_spirit", card="spirit_1.guidance"))
    st = answer(st, str(d))
    out = GAME.apply(st, SPIRIT, act("choose", option="top"))
    texts = [e.text for e in out.events]
    used = next(i for i, t in enumerate(texts) if "uses the top power of Guidance" in t)
    faded = next(i for i, t in enumerate(texts) if "fades to nothing" in t)
    assert used < faded, texts


def test_p_spirit_12_a_power_that_spends_nothing_says_so_and_a_full_hand_draws_none() -> None:
    """Stop 61's two-player demo read "(spends 0)" and "draws 0 spirit cards": a count of
    nothing, said as "spends nothing" and "draws no spirit card"."""
    st = edit(scene())
    d = put_die(st, "cellar", 1)  # Piano Music's top power needs 1 and spends nothing
    give(st, "spirit_1.piano_music")
    st, _ = do(st, SPIRIT, act("play_spirit", card="spirit_1.piano_music"))
    st = answer(st, str(d))
    texts = [e.text for e in GAME.apply(st, SPIRIT, act("choose", option="top")).events]
    assert any("uses the top power of Piano Music (spends nothing)." in t for t in texts), texts
    st = edit(scene())
    spirit = st.spirit
    while len(spirit.hand) < st.n and spirit.deck:  # a full hand: the turn's end draws none
        spirit.hand.append(spirit.deck.pop())
    _, events = do(st, SPIRIT, act("end_spirit"))
    ended = [e.text for e in events if "ends its turn" in e.text]
    assert ended == ["The spirit ends its turn and draws no spirit card."], ended


def _random_moves(games: int, players: Callable[[int], int]) -> Iterator[tuple[int, list[str]]]:
    """(seed, the move's public lines) for every move of `games` random legal games."""
    import random

    for seed in range(games):
        n = players(seed)
        st = GAME.setup([f"s{i}" for i in range(1, n + 1)], GAME.options_model(), seed)
        rng = random.Random(seed)
        for _ in range(3000):
            if GAME.result(st) is not None:
                break
            seat = rng.choice(sorted(GAME.to_act(st)))
            out = GAME.apply(st, seat, rng.choice(GAME.legal_actions(st, seat)))
            yield seed, [e.text for e in out.events if e.public]
            st = out.state


CAUSE_OF_FADE = re.compile(r"loses \d+ presence|\(spends \d+\)|pays .*presence|"
                           r"The spirit pawn (?:acts|glides)")


def test_p_spirit_06_a_die_fades_only_after_what_spent_it_is_said() -> None:
    """P-SPIRIT-06: a die brought to 0 fades to the supply. Stop 61's demo read "A presence
    die in the Salon fades to nothing" before "The spirit pays 1 presence to keep Piano
    Music" that faded it (stop 60 fixed one such order, a power's spend). Over random games,
    every fade comes right after the line of what spent the die: a lit room, a power's
    spend, a drain or the manifestation paid, a reduction, the pawn's paid act or glide."""
    fades = 0
    for seed, texts in _random_moves(24, players=lambda seed: 3 + seed % 3):
        for i, text in enumerate(texts):
            if "fades to nothing" in text:
                fades += 1
                assert i > 0 and CAUSE_OF_FADE.search(texts[i - 1]), (seed, texts)
    assert fades > 50  # the games faded dice in every way the test reads


def test_p_drain_01_p_vis_12_a_lasting_effect_or_a_reaction_says_itself() -> None:
    """Stop 61's demo opened the spirit's turn with "Targeted: the Orphan. The Orphan suffers
    1 fear." and no word of the Piano Music in play that did it: its line comes first. So
    does a reaction's (P-VIS-12): "The Descendant's Fear of Solitude takes effect." before
    the fear it makes the Descendant suffer."""
    said = 0
    reactions: set[str] = set()
    for seed, texts in _random_moves(30, players=lambda seed: 4):
        for i, text in enumerate(texts[:-1]):
            if text == "The spirit's turn." and texts[i + 1].startswith("Targeted"):
                raise AssertionError((seed, texts))  # a cause left unsaid
            if "(drain in the" in text and text.endswith("takes effect."):
                said += 1
            elif "'s " in text and (text.endswith(" takes effect.")
                                    or "'s ability takes effect (" in text):
                reactions.add(text.split("'s ", 1)[1].split(" (", 1)[0].rstrip(".") + ".")
    assert said > 0
    assert "ability takes effect." in reactions and any(r.startswith("Fear of")
                                                         for r in reactions), reactions
