"""Scenario tests for the round (P-ROUND), upkeep (P-UPKEEP), the Hope Track (P-TRACK),
winning (P-WIN), secrets (P-SECRET), scripts (P-SCRIPT), clues (P-CLUE) and the engine side of
Discord talk enforcement (P-DISCORD).

Each test builds a real game with a fixed seed, edits the state into the situation the rule is
about, drives the engine through `GAME.apply` (or one engine step), and asserts on the state.
"""

from __future__ import annotations

import json

from rules.core.types import act
from rules.presence.content import default_pack
from rules.presence.game import GAME
from rules.presence.state import DrainState, PresenceState
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
    put_token,
    quiet,
    settle,
    to_spirit_turn,
)

PACK = default_pack()


def upkeep(st: PresenceState) -> PresenceState:
    """Run the upkeep phase of the current round from its first step."""
    st = edit(st)
    st.prompts = []
    st.queue = []
    e = eng(st)
    e.step_upkeep()
    e.run()
    return st


def script_of(kind: str, alignment: str) -> str:
    return next(s.id for s in PACK.scripts if s.type == kind and s.alignment == alignment
                and not s.needs_chamber)


def clue_cards(st: PresenceState, trauma: str, k: int) -> list[str]:
    """`k` clue cards of `trauma` taken out of wherever they are (deck, box, hands)."""
    out = [c.id for c in PACK.clue_cards_for(st.n) if c.trauma == trauma][:k]
    for c in out:
        for pile in (st.clue_deck, st.clue_box, *(v.hand for v in st.visitors.values())):
            if c in pile:
                pile.remove(c)
    assert len(out) == k
    return out


# ---------------------------------------------------------------- round & upkeep


def test_p_round_02_visitor_turns_then_spirit_turn_then_upkeep_then_a_new_round() -> None:
    st = quiet(new_game(3, 1))
    phases: list[tuple[int, str, str | None]] = []
    for _ in range(40):
        if st.round == 2 and st.phase == "visitor":
            break
        if st.prompts:
            st = settle(st, prefer=("no", "stop", "done", "release"))
            continue
        if not phases or phases[-1] != (st.round, st.phase, st.active):
            phases.append((st.round, st.phase, st.active))
        end = "end_spirit" if st.active == SPIRIT else "end_turn"
        st, ev = do(st, st.active or "", act(end))
        texts = [e.text for e in ev]
        if end == "end_spirit":
            time = next(i for i, t in enumerate(texts) if t.startswith("Time passes"))
            begins = texts.index("Round 2 begins.")
            assert time < begins  # upkeep closes the round before the next one starts
    assert phases == [(1, "visitor", "s2"), (1, "visitor", "s3"), (1, "spirit", SPIRIT)]
    assert (st.round, st.phase, st.active) == (2, "visitor", "s2")


def test_p_upkeep_01_win_check_then_clues_then_time_then_drain() -> None:
    st = to_spirit_turn(quiet(new_game(3, 3)))
    st.round = 2
    st.time = 2
    d = put_die(st, "salon", 3)
    for c in ("spirit_1.echo",):
        for pile in (st.spirit.deck, st.spirit.discard, st.spirit.hand):
            if c in pile:
                pile.remove(c)
    st.drains = [DrainState(card="spirit_1.echo", power="top", room="salon", fresh=False)]
    st = upkeep(st)
    assert st.outcome is None  # step 1: nobody wins
    assert prompt_kind(st) == "place_spirit_clue" and st.time == 2  # step 2 before time
    while prompt_kind(st) == "place_spirit_clue":
        st = answer(st, options(st)[0])
    assert prompt_kind(st) == "drain" and st.time == 3  # step 3 before step 4
    st = answer(st, str(d))
    assert st.round == 3


def test_p_upkeep_02_a_win_at_step_one_ends_the_game_before_the_other_steps() -> None:
    st = edit(quiet(new_game(3, 3)))
    st.script = script_of("hope", "evil")
    st.round = 2
    st.time = 2
    for s in st.secrets:
        s.revealed = True
    bag = len(st.spirit_clue_bag)
    st = upkeep(st)
    res = GAME.result(st)
    assert res is not None and sorted(res.winners) == ["s2", "s3"]
    assert st.time == 2 and len(st.spirit_clue_bag) == bag and not st.drawn_spirit_clues


def test_p_upkeep_08_the_marker_goes_to_the_visitor_left_of_the_spirit() -> None:
    st = new_game(4, 2, spirit_seat=1)  # seats s1..s4 clockwise, the spirit is s2
    assert st.spirit_seat == "s2" and st.visitor_seats == ["s3", "s4", "s1"]
    assert st.active == "s3"
    st = edit(quiet(st))
    st.phase = "spirit"
    st.active = "s2"
    st, _ = do(st, "s2", act("end_spirit"))
    st = settle(st)
    assert st.round == 2 and st.phase == "visitor" and st.active == "s3"


def test_p_upkeep_05_an_empty_bag_is_refilled_and_unplaceable_clues_go_back() -> None:
    st = edit(quiet(new_game(3, 3)))
    st.round = 2
    st.spirit_clue_discard = st.spirit_clue_bag[:3]
    st.spirit_clue_bag = []
    st = upkeep(st)
    assert prompt_kind(st) == "place_spirit_clue"  # drawn from the refilled bag
    assert len(st.drawn_spirit_clues) == 2 and not st.spirit_clue_discard
    assert len(st.spirit_clue_bag) == 1
    # a single dark room in play: the second clue cannot be placed and returns to the bag
    st = edit(quiet(new_game(3, 3)))
    st.round = 2
    bag = len(st.spirit_clue_bag)
    st.rooms = ["great_hall", "salon"]  # the great hall is lit by the visitors' candles
    st = upkeep(st)
    assert options(st) == ["salon"]
    st = answer(st, "salon")
    assert prompt_kind(st) != "place_spirit_clue" and not st.drawn_spirit_clues
    assert len(st.spirit_clue_bag) == bag - 1  # two drawn, one placed, one back


# ---------------------------------------------------------------- Hope Track


def test_p_track_02_increase_moves_away_from_time_reduce_moves_toward_it() -> None:
    st = edit(quiet(new_game(3, 3)))
    st.script = script_of("nerve", "good")
    assert (st.time, st.hope, st.nerve) == (1, 7, 8)
    e = eng(st)
    e.adjust_track("hope", 2, None)
    e.adjust_track("nerve", -3, "s2")
    assert (st.hope, st.nerve) == (9, 5)
    e.adjust_track("hope", 10, None)
    assert st.hope == PACK.hope_track.spaces  # the top space is the cap


def test_p_track_06_losing_both_markers_does_not_end_the_game() -> None:
    st = edit(quiet(new_game(3, 3)))
    st.script = script_of("hope", "evil")  # revealed by the loss; nobody has succumbed
    e = eng(st)
    e.adjust_track("hope", -10, "s2")
    e.adjust_track("nerve", -10, "s2")
    e.run()
    st = settle(st, prefer=("no",))
    assert st.hope is None and st.nerve is None and st.script_revealed
    assert not any(v.succumbed for v in st.visitors.values())
    st = upkeep(st)
    st = settle(st)
    assert GAME.result(st) is None and st.round == 2 and st.phase == "visitor"


# ---------------------------------------------------------------- secrets & scripts


def test_p_secret_04_too_few_matching_cards_reduce_hope_and_nerve() -> None:
    st = edit(quiet(new_game(3, 3)))
    st.script = script_of("nerve", "good")
    assert not st.secrets[0].discards  # no matching card beneath: the low effect
    hope, nerve = st.hope, st.nerve
    e = eng(st)
    e.reveal_secret(1, "s2")
    e.run()
    st = settle(st)
    assert st.secrets[0].tier == "low"
    assert (st.hope, st.nerve) == ((hope or 0) - 1, (nerve or 0) - 1)


def test_p_secret_05_the_revealing_visitor_resolves_the_secret() -> None:
    st = edit(quiet(new_game(3, 3)))
    slot = st.secrets[2]
    board = PACK.secret_board(3)
    slot.discards = clue_cards(st, PACK.secret(slot.card).trauma, board.low_max + 1)
    e = eng(st)
    e.reveal_secret(3, "s3")
    e.run()
    assert slot.tier == "middle"
    assert prompt_kind(st) == "choice" and st.prompts[-1].seats == ["s3"]
    hope = st.hope
    st = answer(st, "0")
    assert st.hope == (hope or 0) + 1


def middle_secret(st: PresenceState, position: int) -> None:
    slot = st.secrets[position - 1]
    slot.discards = clue_cards(st, PACK.secret(slot.card).trauma,
                               PACK.secret_board(st.n).low_max + 1)


def test_p_secret_05_a_spirit_effect_secret_goes_to_its_target_else_the_spirits_pick() -> None:
    # a spirit power that reveals a secret; the targeted visitor resolves it
    st = to_spirit_turn(quiet(new_game(3, 3)))
    st.visitors["s3"].room = "salon"
    middle_secret(st, 2)
    d = put_die(st, "salon", 3)
    e = eng(st)
    e.step_effects([{"op": "target", "selector": "nearby_visitor"},
                    {"op": "reveal_secret", "min_matching": 0}], 0,
                   e.spirit_ctx(d, "salon", "test power"))
    e.run()
    assert prompt_kind(st) == "target" and st.prompts[-1].seats == [SPIRIT]
    assert options(st) == ["1", "2", "3", "4"]  # the owner of the effect picks the secret
    st = answer(st, "2")
    assert st.secrets[1].revealed and st.secrets[1].tier == "middle"
    assert prompt_kind(st) == "choice" and st.prompts[-1].seats == ["s3"]
    # no target: a visitor who is not knocked out, of the spirit's choice
    st = to_spirit_turn(quiet(new_game(4, 3)))
    st.visitors["s2"].knocked_out = True
    middle_secret(st, 1)
    e = eng(st)
    e.step_effects([{"op": "reveal_secret", "min_matching": 0}], 0,
                   e.spirit_ctx(None, "salon", "test power"))
    e.run()
    assert st.prompts[-1].seats == [SPIRIT] and options(st) == ["s3", "s4"]
    st = answer(st, "s4")
    st = answer(st, "1")
    assert st.secrets[0].revealed and st.prompts[-1].seats == ["s4"]


def test_p_secret_06_a_revealed_secret_cannot_be_revealed_again() -> None:
    st = active_visitor(quiet(new_game(3, 3)), "s2")
    st.secrets[1].revealed = True
    st.secrets[1].tier = "low"
    e = eng(st)
    e.step_effects([{"op": "reveal_secret", "min_matching": 0}], 0,
                   e.visitor_ctx("s2", "Invoke"))
    e.run()
    assert prompt_kind(st) == "target" and options(st) == ["1", "3", "4"]
    st = answer(st, "1")
    st = settle(st)
    assert st.secrets[1].revealed and st.secrets[1].tier == "low"  # stays face up
    assert GAME.view(st, None)["secrets"][1]["name"] == PACK.secret(st.secrets[1].card).name


def test_p_script_01_top_section_while_hidden_bottom_section_once_revealed() -> None:
    assert {s.type for s in PACK.scripts} == {"hope", "nerve"}
    sid = script_of("nerve", "good")  # top: wins with the visitors; bottom: a succumbing
    st = edit(quiet(new_game(3, 3)))
    st.script = sid
    st.visitors["s2"].succumbed = True
    st.visitors["s2"].knocked_out = True
    assert not eng(st).spirit_wins(False)  # hidden: the bottom condition does not count
    st.script_revealed = True
    assert eng(st).spirit_wins(False)  # revealed: the bottom overrides the top
    st = upkeep(st)
    res = GAME.result(st)
    assert res is not None and res.winners == [SPIRIT]


def test_p_script_02_losing_the_marker_reveals_the_script_and_runs_its_reveal() -> None:
    st = active_visitor(quiet(new_game(3, 3)), "s2")
    st.script = "A1"  # hope, evil; reveal: each visitor suffers 1 fear
    assert PACK.script("A1").type == "hope" and PACK.script("A1").reveal
    e = eng(st)
    e.adjust_track("hope", -10, "s2")  # mid-round, by an effect
    e.run()
    st = settle(st, prefer=("no",))
    assert st.hope is None and st.script_revealed
    assert [v.fear for v in st.visitors.values()] == [1, 1]
    assert GAME.view(st, None)["scripts"]["script"]["id"] == "A1"


def test_p_script_03_the_display_scripts_are_public() -> None:
    st = new_game(3, 3)
    shown = GAME.view(st, None)["scripts"]["display"]
    assert [s["id"] for s in shown] == st.display_scripts and st.script in st.display_scripts
    assert GAME.view(st, None)["scripts"]["script"] is None


def test_p_script_04_no_public_output_depends_on_the_hidden_script() -> None:
    st = quiet(new_game(3, 3))
    other = next(s for s in st.display_scripts if s != st.script)
    twin = edit(st)
    twin.script = other
    for who in (None, "s2", "s3"):
        assert json.dumps(GAME.view(st, who)) == json.dumps(GAME.view(twin, who))
    a, _ = do(st, "s2", act("end_turn"))
    b, _ = do(twin, "s2", act("end_turn"))
    assert json.dumps(GAME.view(a, None)) == json.dumps(GAME.view(b, None))


# ---------------------------------------------------------------- clues


def test_p_clue_01_spirit_clues_are_known_to_the_spirit_small_clues_to_nobody() -> None:
    st = edit(quiet(new_game(3, 3)))
    spirit_clue = st.spirit_clue_bag[-1]
    small = st.small_clue_pile[-1]
    put_token(st, "salon", "spirit", spirit_clue)
    put_token(st, "salon", "small", small)
    mine = GAME.view(st, SPIRIT)
    assert mine["spirit_private"]["tokens"]["salon"] == [PACK.spirit_clue_of(spirit_clue).name]
    for who in (None, SPIRIT, "s2"):
        view = GAME.view(st, who)
        salon = next(r for r in view["rooms"] if r["id"] == "salon")
        assert salon["tokens"] == [{"kind": "spirit"}, {"kind": "small"}]
        text = json.dumps(view)
        assert f'"{small}"' not in text and PACK.small_clue_of(small).name not in text


def test_p_clue_04_clue_cards_count_toward_hand_size_and_play_like_actions() -> None:
    st = active_visitor(quiet(new_game(3, 3)), "s3")
    v = st.visitors["s3"]
    clue = clue_cards(st, "death", 1)[0]
    v.room = PACK.clue_card(clue).room
    v.hand.append(clue)
    assert len(v.hand) == 6
    plays = [a for a in GAME.legal_actions(st, "s3")
             if a.kind == "play" and a.params["card"] == clue]
    assert {a.params["side"] for a in plays} == {0, 1}  # two actions, choose one
    st, _ = do(st, "s3", act("end_turn"))
    assert prompt_kind(st) == "hand_limit" and clue in options(st)


def test_p_clue_08_clue_cards_may_be_traded_action_cards_may_not() -> None:
    st = active_visitor(quiet(new_game(3, 3)), "s2")
    v = st.visitors["s2"]
    clue = next(c for c in v.hand if not eng(st).is_action_card(c))
    st, _ = do(st, "s2", act("trade", to="s3"))
    assert prompt_kind(st) == "trade_pick"
    gives = [o for o in options(st) if o not in ("offer", "cancel")]
    assert gives == [clue]  # no action card is offered
    st = answer(st, clue)
    st = answer(st, "yes", seat="s3")
    assert clue in st.visitors["s3"].hand and clue not in st.visitors["s2"].hand


def test_p_clue_09_revealed_secrets_still_take_clue_discards() -> None:
    st = active_visitor(quiet(new_game(3, 3)), "s2")
    st.secrets[0].revealed = True
    clue = next(c for c in st.visitors["s2"].hand if not eng(st).is_action_card(c))
    e = eng(st)
    e.step_discard_clue("s2", clue)
    assert options(st) == ["1", "2", "3", "4"]
    st = answer(st, "1")
    assert st.secrets[0].discards == [clue]


# ---------------------------------------------------------------- Discord talk (engine side)


def test_p_discord_02_speech_follows_the_state_point_by_point() -> None:
    st = active_visitor(quiet(new_game(3, 3)), "s3")  # the orphan: 2 movement points
    st.doors["D02"].open = True
    st.visitors["s3"].room = "library"  # hears the great hall through the open door
    assert eng(st).table_talk()["speech"]["s3"] == "free"
    st, _ = do(st, "s3", act("walk"))
    st = answer(st, "close:D02")
    assert prompt_kind(st) == "movement"  # still moving: one point left
    talk = eng(st).table_talk()
    assert talk["speech"] == {SPIRIT: "procedural_only", "s2": "procedural_only",
                              "s3": "procedural_only"}
    assert not talk["allowed"] and GAME.view(st, None)["table_talk"]["speech"]["s3"] == \
        "procedural_only"


def test_p_discord_04_the_moderated_thread_judges_each_author_by_public_speech() -> None:
    # The cog's judge (the deletion itself is the e2e suite's): it removes a message exactly
    # when the author's speech is not `free`, and names the rule.
    from cogs.presence import silence_reason

    st = active_visitor(quiet(new_game(4, 3)), "s2")
    assert silence_reason(st, "s2") is None and silence_reason(st, "s3") is None
    assert "P-COMM-09" in (silence_reason(st, SPIRIT) or "")
    st.visitors["s4"].room = "library"  # alone, but not the active visitor
    assert "P-COMM-04" in (silence_reason(st, "s4") or "")
    assert silence_reason(st, "s2") is None
    st.visitors["s2"].room = "salon"  # now the active visitor is alone: all are silent
    assert "P-COMM-06" in (silence_reason(st, "s3") or "")
    for seat in st.visitor_seats:
        assert (silence_reason(st, seat) is None) == (
            eng(st).table_talk()["speech"][seat] == "free")


def test_p_discord_10_a_silenced_player_can_still_answer_prompts() -> None:
    st = active_visitor(quiet(new_game(3, 3)), "s3")
    st.visitors["s3"].room = "library"
    assert eng(st).table_talk()["speech"]["s3"] == "procedural_only"
    st, _ = do(st, "s3", act("walk"))
    assert prompt_kind(st) == "movement" and GAME.legal_actions(st, "s3")
    st = answer(st, "open:D02")
    assert st.doors["D02"].open

