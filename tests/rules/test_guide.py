"""Guided play's advice (issue #22.6): for every decision along random playouts of every game
and mode, advice exists, is read from a view alone (a state resampled from what the public —
or the seat — may know gives the same advice, so nothing hidden shaped it), never carries a
hidden string, and follows the moment instead of repeating one paragraph. Also the Exorcism's
first-game setup (EX-FIRST-01..03)."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from rules.core.rng import Rng
from rules.registry import GAMES
from tests.rules.cases import CASES, IDS


def _play(game: str, mode: str, n: int, seed: int, steps: int) -> list[tuple[Any, str]]:
    """(state, awaited seat) along one seeded playout: mostly the AI's moves, some random."""
    g = GAMES[game]
    state = g.setup([f"s{i + 1}" for i in range(n)], g.options_model(mode=mode), seed)
    rng = random.Random(seed)
    out = []
    for _ in range(steps):
        if g.result(state) is not None or not g.to_act(state):
            break
        awaited = sorted(g.to_act(state))
        out.extend((state, seat) for seat in awaited)
        seat = awaited[0]
        legal = g.legal_actions(state, seat)
        action = g.ai_action(state, seat) if rng.random() < 0.8 else rng.choice(legal)
        state = g.apply(state, seat, action).state
    return out


@pytest.mark.parametrize("game,mode,n", CASES, ids=IDS)
def test_advice_is_read_from_the_view_alone_and_follows_the_moment(game: str, mode: str,
                                                                    n: int) -> None:
    g = GAMES[game]
    said: dict[str, set[str]] = {}  # advice → the decisions it was given for
    turns: set[str] = set()
    for k, (state, seat) in enumerate(_play(game, mode, n, seed=7, steps=400)):
        public = g.guide_text(state, seat)
        private = g.guide_text(state, seat, private=True)
        assert public and private, (seat, state.prompts[-1].kind if state.prompts else "turn")
        assert 20 <= len(public) <= 400 and public.endswith((".", ")", "!")), public
        assert not [s for s in g.public_secrets(state) if s and s in public], public
        if k % 7 == 0:  # resampling is slow: every 7th decision
            # What the public cannot tell apart, the board post's advice cannot either.
            again = g.resample(state, None, Rng.from_seed(k))
            assert g.guide_text(again, seat) == public
            # Nor the seat its own advice.
            mine = g.resample(state, seat, Rng.from_seed(k + 1))
            assert g.guide_text(mine, seat, private=True) == private
        said.setdefault(public, set()).add(g.decision_id(state, seat))
        if not state.prompts:
            turns.add(public)
    # Advice for this moment: whole turns read the table (actions left, what is near), so
    # one game's turns are not all told the same paragraph.
    assert len(turns) >= 3, turns
    assert len(said) >= 4, list(said)


def test_turn_advice_counts_the_actions_left() -> None:
    """An Exorcism turn's advice changes as its Actions are spent (EX-TURN-02)."""
    g = GAMES["exorcism"]
    state = g.setup(["s1", "s2"], g.options_model(mode="core"), 3)
    seen = []
    for _ in range(60):
        seat = sorted(g.to_act(state))[0]
        if not state.prompts and state.phase == "actions":
            text = g.guide_text(state, seat)
            assert text is not None
            left = g.view(state, None)["actions_left"]
            assert text.startswith(f"{left} of 3 Actions left"), text
            seen.append(left)
        state = g.apply(state, seat, g.ai_action(state, seat)).state
    assert len(set(seen)) >= 2


def test_the_investigators_own_advice_reads_their_hand() -> None:
    """I Am the Fourth Wall: only the Investigator's own advice says what its hand lacks for
    Closing a Gate (FW-CLOSE); the board post's never does."""
    g = GAMES["fourth_wall"]
    told = 0
    for state, seat in _play("fourth_wall", "alliance", 2, seed=3, steps=200):
        if state.prompts or state.phase != "investigator":
            continue
        public = g.guide_text(state, seat) or ""
        private = g.guide_text(state, seat, private=True) or ""
        assert "Your hand" not in public and "you still lack" not in public
        told += "Your hand" in private or "you still lack" in private
    assert told


def test_exorcism_first_game_setup() -> None:
    """EX-FIRST-01: 24 points exorcise; EX-FIRST-02: no Haunt draw before round 3."""
    g = GAMES["exorcism"]
    opts = g.options_model(mode="core", first_game=True)
    state = g.setup(["s1", "s2"], opts, 5)
    assert state.first_game
    assert g.view(state, None)["exorcism"]["target"] == 24
    standard = g.setup(["s1", "s2"], g.options_model(mode="core"), 5)
    assert g.view(standard, None)["exorcism"]["target"] == 30
    haunt = len(state.haunt_deck)
    while state.round < 3 and g.result(state) is None:
        assert len(state.haunt_deck) == haunt, (state.round, state.log[-3:])
        seat = sorted(g.to_act(state))[0]
        state = g.apply(state, seat, g.ai_action(state, seat)).state
    words = dict(g.effective_options(opts))
    assert "24" in words["First game"] and "EX-FIRST" not in words["First game"]
    assert words["Guided"] == "yes (first game)"
    assert g.guided(opts) and not g.guided(opts.model_copy(update={"guided": False}))
    assert {"EX-FIRST-01", "EX-FIRST-02", "EX-FIRST-03"} <= set(g.rulebook())


def test_fw_act_01_the_close_a_gate_advice_counts_its_ap_and_the_auras_extra() -> None:
    """FW-ACT-01: Close a Gate costs 2 AP and, under The Breaker of Trinkets' Aura (W-5), a
    second Clue. An Investigator whose hand shows the three Symbols with 1 AP left is told it
    costs 2 and to keep the Marbles (the DM panel offers no Close a Gate then); with 2 AP it
    is told to Close now; under W-5 with one Clue it is told it lacks another Clue, whatever
    its AP."""
    from rules.fourth_wall.engine import Engine
    from tests.fourth_wall.helpers import clear_streets, inv_turn, new_game, seat_of, set_hand

    g = GAMES["fourth_wall"]
    st = inv_turn(new_game("conflict", 2, 1), "i1", ap=1)
    clear_streets(st)
    set_hand(st, "i1", "M-C", "M-F", "M-S")
    seat = seat_of(st, "i1")
    assert "close_gate" not in {a.kind for a in g.legal_actions(st, seat)}
    short = g.guide_text(st, seat, private=True) or ""
    assert "Close a Gate costs 2 AP" in short and "Close a Gate now" not in short, short
    st.ap = 2
    assert "close_gate" in {a.kind for a in g.legal_actions(st, seat)}
    assert (g.guide_text(st, seat, private=True) or "").endswith("Close a Gate now.")
    st.wall_card, st.revealed = "W-5", True  # Aura: a second Clue Symbol
    assert not Engine(st).meets(st.investigators[0].hand)
    extra = g.guide_text(st, seat, private=True) or ""
    assert extra.endswith("you still lack another Clue: Search draws a Marble (1 AP)."), extra
    set_hand(st, "i1", "M-C", "M-F", "M-CS")
    assert (g.guide_text(st, seat, private=True) or "").endswith("Close a Gate now.")


@pytest.mark.parametrize(("mode", "players"), [("conflict", 4), ("alliance", 3)])
def test_fw_act_01_close_a_gate_now_is_advised_exactly_when_it_is_legal(
        mode: str, players: int) -> None:
    """Over whole AI games: an Investigator's own advice says "Close a Gate now" exactly when
    Close a Gate is among its legal actions (its AP, the Aura's extra and The Scourge
    counted), and names Search or Regroup only when its AP pays for them, so the advice never
    names a button the player cannot find."""
    g = GAMES["fourth_wall"]
    now = cannot = 0
    for seed in (1, 2):
        for state, seat in _play("fourth_wall", mode, players, seed=seed, steps=400):
            if state.prompts or state.phase != "investigator":
                continue
            advice = g.guide_text(state, seat, private=True) or ""
            kinds = {a.kind for a in g.legal_actions(state, seat)}
            legal = "close_gate" in kinds
            assert advice.endswith("Close a Gate now.") == legal, (seed, advice)
            if "before a loss empties the hand" in advice:  # FW-ACT-04, FW-ACT-08 at their AP
                assert ("Regroup" not in advice or "regroup" in kinds) and (
                    "Search" not in advice or "search" in kinds), (seed, advice, kinds)
            if "your Unique Action Closes one" in advice:  # the Gatewright's (stop 63)
                assert "unique" in kinds, (seed, advice, kinds)
            now += legal
            cannot += "costs" in advice
    assert now and cannot, (now, cannot)


def test_fw_act_unique_the_gatewright_is_told_its_unique_closes_a_gate() -> None:
    """Stop 63's demo: "To Close a Gate you still lack Science." while the Gatewright's Unique
    Action (any two different Symbols) could Close one — and then did."""
    from rules.fourth_wall.guide import advice

    view = GAMES["fourth_wall"].view(
        GAMES["fourth_wall"].setup(["s1", "s2"], GAMES["fourth_wall"].options_model(), 1),
        None)
    text = ("Unique (2 AP): Close a Gate with Marbles showing any two different Symbols (not "
            "while The Scourge is On the Streets).")
    me = {"id": "i1", "unique": {"cost": 2, "text": text, "closes_with": 2},
          "hand": [{"symbols": ["clue"]}, {"symbols": ["force"]}]}
    view = {**view, "phase": "investigator", "prompt": None, "investigators": [me],
            "gates": {**view["gates"], "closing_blocked": False},
            "turn": {**view["turn"], "active": "i1", "active_name": "The Gatewright", "ap": 2,
                     "ap_per_turn": 2, "unique_used": False, "active_seat": "s2"}}
    said = advice(view, "s2") or ""
    assert "your Unique Action Closes one with any 2 different Symbols: use it now." in said, said
    view["turn"]["ap"] = 1  # short of its 2 AP: not advised
    assert "you still lack" in (advice(view, "s2") or "")
    # The view reads the requirement off the card's content, not its words.
    from tests.fourth_wall.helpers import new_game, set_card

    st = new_game("conflict", 3, 1)
    set_card(st, "i1", "INV-04")
    set_card(st, "i2", "INV-03")
    unique = {i["id"]: i["unique"]["closes_with"]
              for i in GAMES["fourth_wall"].view(st, None)["investigators"]}
    assert unique["i1"] == 2 and unique["i2"] is None


def test_p_succ_01_a_lost_marker_is_said_lost_in_the_advice() -> None:
    """The Presence: a visitor's turn advice that names where hope and nerve stand says a
    marker the time has caught is lost (the view's None), never "at None"."""
    g = GAMES["presence"]
    for state, seat in _play("presence", "session", 3, seed=5, steps=400):
        if "discard clue cards beneath" in (g.guide_text(state, seat, private=True) or ""):
            break
    else:
        raise AssertionError("no turn came to the hope-and-nerve advice")
    texts = {}
    for hope, nerve in ((None, 8), (7, None), (None, None)):
        lost = state.model_copy(deep=True)
        lost.hope, lost.nerve = hope, nerve
        texts[(hope, nerve)] = g.guide_text(lost, seat, private=True) or ""
    assert "Hope is lost and Nerve stands at 8" in texts[(None, 8)], texts
    assert "Hope stands at 7 and Nerve is lost" in texts[(7, None)], texts
    # Both lost: the game goes on (P-TRACK-06), and what still wins it is said.
    assert ("Hope and Nerve are lost, but revealing every secret still wins: discard clue "
            "cards beneath the secret whose trauma they match, so an Invoke can reveal it."
            in texts[(None, None)]), texts
    assert not any("None" in t for t in texts.values()), texts
    # P-WIN-02, stop 63's demos: with the script revealed, the secrets alone no longer win,
    # and the advice says what the script's bottom half adds.
    shown = state.model_copy(deep=True)
    shown.script_revealed = True
    bottom = g.view(shown, seat)["scripts"]["script"]["bottom"]
    need = bottom.split("the visitors also need ")[1].rstrip(".").replace(" to have ",
                                                                          " having ")
    assert (f"The revealed script asks more: the secrets win only with {need}."
            in (g.guide_text(shown, seat, private=True) or ""))
    shown.hope = shown.nerve = None
    assert (f"Hope and Nerve are lost, but revealing every secret still wins with {need}: "
            in (g.guide_text(shown, seat, private=True) or ""))


def test_p_vis_a_visitors_own_advice_names_an_action_it_can_take() -> None:
    """The Presence: a visitor's own advice to Investigate comes only with an Investigate
    among its choices; holding no card that Investigates, it is told to Rest and draw (P-BASIC:
    Rest is always there), never to press a button it does not have. The board post's advice
    cannot see the hand and keeps the general word."""
    g = GAMES["presence"]
    rest = 0
    for n, seed in ((3, 1), (4, 2), (5, 3)):
        for state, seat in _play("presence", "session", n, seed=seed, steps=600):
            advice = g.guide_text(state, seat, private=True) or ""
            labels = [g.describe(state, seat, a) for a in g.legal_actions(state, seat)]
            if "Investigate to move toward" in advice:
                assert any("Investigate" in label for label in labels), (advice, labels)
            if "Rest to draw" in advice:
                assert any(label.startswith("Rest") for label in labels), (advice, labels)
                rest += 1
    assert rest


@pytest.mark.parametrize(("mode", "n"), [("core", 3), ("solo", 1), ("one_vs_all", 4)])
def test_ex_act_an_investigators_own_advice_names_an_action_it_can_take(mode: str,
                                                                        n: int) -> None:
    """The Exorcism: advice to complete a Task comes only when one investigator who may
    complete it holds its Tools (EX-ACT-05; in Solo the Primary, EX-SOLO-03) with an Action
    left (EX-TURN-02); advice to Purify only where Purify is a choice (never in a Shrouded
    Room, EX-DARK-06)."""
    g = GAMES["exorcism"]
    told = 0
    for seed in (1, 2, 3):
        for state, seat in _play("exorcism", mode, n, seed=seed, steps=400):
            advice = g.guide_text(state, seat, private=True) or ""
            labels = " | ".join(g.describe(state, seat, a) for a in g.legal_actions(state, seat))
            if "completing it earns" in advice:
                assert "Complete" in labels, (advice, labels)
                told += 1
            if "Purify it" in advice:
                assert "Purify" in labels, (advice, labels)
                # A Room named at a sentence's start has its article (a demo read
                # "… 17 of 30 points. Occult Room holds 1 Darkness"), but for one named by
                # its own letter, a proper name ("Task Room A holds 1 Darkness").
                assert re.search(r"\. (The [A-Z][^.:]*|Task Room [AB]) holds \d+ Darkness",
                                 advice), advice
                told += 1
            if "with you: a Ghost" in advice:
                assert re.search(r" is in (the |Task Room [AB]\b)", advice), advice
    assert told


def test_fw_wall_and_p_spirit_advice_names_an_action_they_can_take() -> None:
    """The Wall (Conflict) is told to Trigger only a Horror its Doom can Trigger (not a
    Drained one), to Manifest only what its Doom can buy, to Wrath or Brood while it chooses
    its turn, and to end the turn once its Doom is spent; The Presence's spirit is told to
    Increase Presence only with a spirit card in hand to pay with (P-SPIRIT-09). One seed per
    table in the default suite; `-m soak` plays two more."""
    _wall_and_spirit_advice((1,))


@pytest.mark.soak
def test_soak_fw_wall_and_p_spirit_advice_names_an_action_they_can_take() -> None:
    _wall_and_spirit_advice((2, 3))


def _wall_and_spirit_advice(seeds: tuple[int, ...]) -> None:
    cues = {"fourth_wall": (("strike before", "Trigger"), (": Manifest a Horror", "Manifest"),
                            ("Wrath, then", "Wrath"), ("Brood to gather", "Brood"),
                            ("Doom is spent", "End")),
            "presence": (("Increase Presence where", "Increase"),)}
    told = empty = supply = 0
    for game, mode, n in (("fourth_wall", "conflict", 2), ("fourth_wall", "conflict", 4),
                          ("presence", "session", 3), ("presence", "session", 4)):
        g = GAMES[game]
        for seed in seeds:
            for state, seat in _play(game, mode, n, seed=seed, steps=500):
                advice = g.guide_text(state, seat, private=True) or ""
                labels = " | ".join(g.describe(state, seat, a)
                                    for a in g.legal_actions(state, seat))
                for cue, word in cues[game]:
                    if cue in advice:
                        assert word in labels, (advice, labels)
                        told += 1
                if game == "presence" and "in hand; round" in advice and \
                        seat == state.spirit_seat and not state.spirit.hand:
                    # A count of nothing says "no" (a demo read "0 spirit cards in hand").
                    assert ", no spirit card in hand; round" in advice, advice
                    assert advice.count("no spirit card") == 1, advice  # said once
                    empty += 1
                if game == "presence" and "in hand; round" in advice and \
                        seat == state.spirit_seat:
                    # Only dice on the board count (stop 63: "3 presence dice worth 0 in
                    # all" with the three in the supply).
                    on = sum(1 for d in state.dice if d.room)
                    said = re.match(r"(no|\d+) presence dic?e on the board", advice)
                    assert said and said[1] == (str(on) if on else "no"), advice
                    spare = len(state.dice) - on
                    assert (f"({spare} in your supply)" in advice) == bool(spare), advice
                    supply += bool(spare)
    assert told and empty and supply


@pytest.mark.parametrize("preset", ["two_players", "open_communication"])
def test_p_2p_p_open_an_alone_visitor_is_not_sent_to_let_the_table_talk(preset: str) -> None:
    """The Presence: a visitor out of hearing is told to walk toward the others so the table
    may talk (P-COMM) only where being alone silences it: not in a two-player game (one
    visitor player, P-2P) nor under Open Communication (the alone may speak, P-OPEN-01); there
    the reason is the spirit's fear."""
    g = GAMES["presence"]
    n = 2 if preset == "two_players" else 3
    state = g.setup([f"s{i + 1}" for i in range(n)],
                    g.options_model(mode="session", **{preset: True}), 3)
    alone = 0
    for _ in range(600):
        if g.result(state) is not None:
            break
        for seat in g.to_act(state):
            advice = g.guide_text(state, seat, private=True) or ""
            assert "so the table may talk" not in advice, advice
            alone += "You are alone" in advice
        seat = sorted(g.to_act(state))[0]
        state = g.apply(state, seat, g.ai_action(state, seat)).state
    assert alone


def test_ex_terror_ex_ova_one_prompt_kind_two_questions_two_answers() -> None:
    """`terror_cell` asks for a Cold Spot's Room and for where Moving Objects puts a taken
    Tool; `terror_seat` for Amnesia's loser and then its gainer; `manipulate_manor` for a
    Room to move and then for the one it swaps with.
    The Tool's advice is the other way round from the Cold Spot's (far from the
    investigators), and the second pick offers no finishing: each is told its own. The
    advice tells them apart by the prompt's public text, so the playouts must still reach
    both (an engine rewording would silently fall back to the kind's advice)."""
    from rules.exorcism import guide as ex_guide

    g = GAMES["exorcism"]
    seen: set[str] = set()
    for seed in range(1, 13):
        for state, seat in _play("exorcism", "one_vs_all", 3, seed=seed, steps=500):
            top = state.prompts[-1] if state.prompts else None
            if top is None or top.kind not in ("terror_cell", "terror_seat",
                                               "manipulate_manor"):
                continue
            advice = g.guide_text(state, seat)
            tool = top.kind == "terror_cell" and top.data.get("ability") == "moving_objects"
            second = top.kind == "manipulate_manor" and top.data.get("first") is not None
            gain = (top.kind == "terror_seat" and top.data.get("ability") == "amnesia"
                    and top.data.get("stage") == 2)
            want = (ex_guide.MOVING_OBJECTS if tool else ex_guide.MANOR_SECOND if second
                    else ex_guide.AMNESIA_GAIN if gain else ex_guide.PROMPTS[top.kind])
            assert advice == want, (top.kind, top.text, advice)
            seen.add("tool" if tool else "second" if second else "gain" if gain else top.kind)
        if {"tool", "second", "gain"} <= seen:
            break
    assert {"tool", "second", "gain"} <= seen, seen


def test_fw_prompt_15_close_a_gate_advice_asks_what_its_prompt_asks() -> None:
    """Stop 63's demo: the Gatewright's Unique asked for "at least 2 different Symbols" while
    the advice under it said "together show a Clue, a Force and a Science"; and the Blitz
    window's advice spoke of Intervening where the prompt asks for a quick-use discard."""
    from rules.fourth_wall.guide import advice

    def asked(kind: str, text: str) -> str:
        view = {"prompt": {"kind": kind, "text": text, "seats": ["s2"]}}
        return advice(view, "s2") or ""

    two = asked("close_select", "Close a Gate: select Marbles showing at least 2 different "
                "Symbols (selected: nothing yet).")
    three = asked("close_select", "Close a Gate: select Marbles showing a Clue, a Force and "
                  "a Science (selected: nothing yet).")
    assert "at least 2 different Symbols" in two and "a Clue, a Force and a Science" not in two
    assert "a Clue, a Force and a Science" in three
    blitz = asked("blitz_window", "Blitz (3) [Force]: The Fixer may discard a quick-use Marble "
                  "to reveal more cards.")
    assert "quick-use Marble" in blitz and "must Intervene" in blitz



def _calm_visitor_view() -> tuple[dict[str, Any], str, dict[str, Any]]:
    """The Presence 3p seed 2's active visitor's own view, neither alone nor afraid: (the
    view, the seat, the seat's visitor in it) for the guide's turn advice."""
    from tests.presence.helpers import new_game

    g = GAMES["presence"]
    st = new_game(3, seed=2)
    seat = st.active
    view = g.view(st, seat)
    me = next(v for v in view["visitors"] if v["seat"] == seat)
    me.update(alone=False, fear=0)
    return view, seat, me


def test_p_move_02_the_advice_names_the_nearest_clue_tokens_and_walks_only_where_one_reaches(
        ) -> None:
    """Stop 65's demo: "Clue tokens wait on your floor in the West Bedroom and the Nursery:
    Walk there." named two rooms 2 and 3 rooms off, in view order, and left out the Gallery
    next door; one Walk (1 movement point, P-BASIC-03) reaches neither. The advice now names
    the nearest by movement points through the doors (P-MOVE-02: open 1, closed 2, locked
    never) and says "Walk there" only where one point gets there."""
    from rules.presence.guide import _visitor_turn, _walk_distances

    view, seat, me = _calm_visitor_view()
    here = me["room"]
    for d in view["doors"]:
        d.update(open=False, locked=False)
    door = next(d for d in view["doors"] if here in d["rooms"])
    door["open"] = True
    next_door = next(r for r in door["rooms"] if r != here)
    far = _walk_distances(view, here)
    farthest = max(far, key=lambda r: far[r])
    assert far[next_door] == 1 and far[farthest] > 2
    rooms = {r["id"]: r for r in view["rooms"]}
    for r in view["rooms"]:
        r["tokens"] = []
    rooms[farthest]["tokens"] = [{"kind": "small"}]
    rooms[next_door]["tokens"] = [{"kind": "small"}]
    view["rooms"].sort(key=lambda r: r["id"] != farthest)  # the far room listed first
    advice = _visitor_turn(view, seat)
    assert f"Clue tokens wait next door in the {rooms[next_door]['name']}: Walk there." \
        in advice, advice
    assert rooms[farthest]["name"] not in advice
    rooms[next_door]["tokens"] = []
    advice = _visitor_turn(view, seat)
    assert "Walk there" not in advice
    assert (f"The nearest clue tokens wait in the {rooms[farthest]['name']}, {far[farthest]} "
            "movement points away: head toward them") in advice, advice
    door["locked"], door["open"] = True, False  # no way out but through closed doors
    assert _walk_distances(view, here).get(next_door, 0) != 1


def test_fw_conflict_lobby_tip_says_play_an_investigator_not_an_investigator_player() -> None:
    """Stop 65's lobby: "a newcomer would rather play an Investigator player than the Wall
    player": one plays an Investigator (and the Wall), not a player."""
    from cogs.utils.guide import newcomer_tips

    g = GAMES["fourth_wall"]
    tips = " ".join(newcomer_tips(g, g.options_model(mode="conflict"), True))
    assert "a newcomer would rather play an Investigator than the Wall, the harder side" in tips
    assert "player" not in tips.split("would rather play", 1)[1].split(",", 1)[0]


def test_p_clue_03_a_visitor_holding_no_clue_card_is_told_how_to_draw_one() -> None:
    """Stop 68's demo: with no clue token in reach, a visitor's own advice said "discard clue
    cards beneath the secret whose trauma they match" three turns running to a player holding
    none. Its own view shows its hand: it is told how to get one instead (the card in hand
    that draws clue cards, by its action's name, else a Rest), and only a player holding one
    is told to discard it. The board post, which shows no hand, keeps the general word."""
    from rules.presence.guide import _visitor_turn

    view, seat, _me = _calm_visitor_view()
    for r in view["rooms"]:
        r["tokens"] = []
    discard = "discard clue cards beneath the secret whose trauma they match"
    deduce = {"id": "x.deduce", "name": "Deduce / Move 2", "kind": "action", "actions": [
        {"name": "Deduce", "speed": "main", "text": "Draw 1 clue card."},
        {"name": "Move 2", "speed": "main", "text": "Move up to 2 rooms."}]}
    walk = {"id": "x.move", "name": "Move 2 / Comfort", "kind": "action", "actions": [
        {"name": "Move 2", "speed": "main", "text": "Move up to 2 rooms."}]}
    clue = {"id": "x.clue", "name": "Death: Salon", "kind": "clue", "trauma": "death",
            "room": "salon", "actions": []}
    view["hand"] = [walk, deduce]
    advice = _visitor_turn(view, seat)
    assert discard not in advice, advice
    assert "play Deduce to draw one, then discard it beneath the secret" in advice, advice
    view["hand"] = [walk]
    advice = _visitor_turn(view, seat)
    assert discard not in advice and "Rest to draw new action cards" in advice, advice
    view["hand"] = [walk, clue]
    assert discard in _visitor_turn(view, seat)
    del view["hand"]
    assert discard in _visitor_turn(view, seat)
