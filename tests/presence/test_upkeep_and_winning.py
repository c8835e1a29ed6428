"""Upkeep (win check, spirit clues, time, drain), the Hope Track, scripts, secrets, winning."""

from __future__ import annotations

from rules.presence.content import default_pack
from rules.presence.game import GAME
from rules.presence.state import PresenceState
from tests.presence.helpers import (
    SPIRIT,
    answer,
    edit,
    eng,
    new_game,
    options,
    prompt_kind,
    put_die,
    quiet,
    settle,
)

PACK = default_pack()


def upkeep(st: object) -> object:
    st = edit(st)  # type: ignore[arg-type]
    st.prompts = []
    st.queue = []
    e = eng(st)
    e.step_upkeep()
    e.run()
    return st


def script_of(kind: str, alignment: str) -> str:
    return next(s.id for s in PACK.scripts if s.type == kind and s.alignment == alignment
                and not s.needs_chamber)


def test_P_UPKEEP_04_05_even_round_spirit_clues_dark_rooms_with_dice_first() -> None:
    st = edit(quiet(new_game(4, 3)))
    st.round = 2
    put_die(st, "kitchen", 2)
    put_die(st, "great_hall", 2)  # lit by the visitors' candles: not eligible
    st = upkeep(st)
    assert prompt_kind(st) == "place_spirit_clue" and st.prompts[-1].seats == [SPIRIT]
    assert options(st) == ["kitchen"]  # the only dark room with a die comes first
    st = answer(st, "kitchen")
    second = options(st)
    assert "kitchen" not in second and "great_hall" not in second  # different, dark
    st = answer(st, second[0])
    st = answer(st, options(st)[0])
    assert sum(1 for toks in st.tokens.values() for t in toks if t.kind == "spirit") == 3
    assert not st.drawn_spirit_clues


def test_P_UPKEEP_06_P_TRACK_03_04_time_meets_hope_and_reveals_a_hope_script() -> None:
    st = edit(quiet(new_game(3, 3)))
    st.script = script_of("hope", "evil")
    st.round = 6
    st.time = 6
    st = upkeep(st)
    while prompt_kind(st) == "place_spirit_clue":
        st = answer(st, options(st)[0])
    assert st.time == 7 and st.hope is None and st.nerve == 8
    assert st.script_revealed
    assert any("script is revealed" in line for line in st.log)


def test_P_TRACK_03_reduction_meeting_time_loses_the_marker_mid_round() -> None:
    st = edit(quiet(new_game(3, 3)))
    st.script = script_of("hope", "evil")
    st.time = 5
    st.nerve = 7
    e = eng(st)
    e.adjust_track("nerve", -3, "s2")  # passing the time marker also meets it
    assert st.nerve is None and not st.script_revealed  # a hope script stays hidden
    assert not st.visitors["s2"].succumbed


def test_P_UPKEEP_03_P_WIN_06_eternal_darkness_after_round_nine() -> None:
    st = edit(quiet(new_game(3, 3)))
    st.script = script_of("hope", "evil")
    st.round = 9
    st = upkeep(st)
    res = GAME.result(st)
    assert res is not None and res.winners == [] and "Eternal Darkness" in res.reason


def test_P_WIN_01_P_WIN_05_all_secrets_revealed_visitors_win_with_a_good_spirit() -> None:
    st = edit(quiet(new_game(3, 3)))
    st.script = script_of("nerve", "good")
    for s in st.secrets:
        s.revealed = True
    st = upkeep(st)
    res = GAME.result(st)
    assert res is not None and set(res.winners) == {"s1", "s2", "s3"}


def test_P_WIN_02_revealed_script_adds_a_condition_for_the_visitors() -> None:
    st = edit(quiet(new_game(3, 3)))
    sid = script_of("hope", "evil")
    st.script = sid
    st.script_revealed = True
    for s in st.secrets:
        s.revealed = True
    need = PACK.script(sid).bottom.visitors_also_need
    ok = all(eng(st).win_test(t, False) for t in need)
    st = upkeep(st)
    res = GAME.result(st)
    if ok:
        assert res is not None and "s2" in res.winners
    else:
        assert res is None or "s2" not in res.winners


def test_P_WIN_04_evil_spirit_cannot_win_while_hidden_then_wins_by_bottom() -> None:
    st = edit(quiet(new_game(3, 3)))
    sid = script_of("hope", "evil")
    st.script = sid
    st.visitors["s2"].succumbed = True
    st.visitors["s2"].knocked_out = True
    st = upkeep(st)
    assert GAME.result(st) is None  # hidden evil script: cannot win (P-WIN-04)
    st = edit(quiet(new_game(3, 3)))
    st.script = sid
    st.script_revealed = True
    st.visitors["s2"].succumbed = True
    st.visitors["s2"].knocked_out = True
    st = upkeep(st)
    res = GAME.result(st)
    assert res is not None and res.winners == [SPIRIT]  # bottom: >= 1 succumbed


def test_P_WIN_03_succumbed_visitors_do_not_win() -> None:
    st = edit(quiet(new_game(3, 3)))
    st.script = script_of("nerve", "good")
    st.visitors["s3"].succumbed = True
    for s in st.secrets:
        s.revealed = True
    st = upkeep(st)
    res = GAME.result(st)
    assert res is not None and "s3" not in res.winners and "s2" in res.winners


def test_P_SECRET_03_tiers_by_matching_cards_beneath() -> None:
    st = edit(quiet(new_game(4, 3)))
    board = PACK.secret_board(4)
    slot = st.secrets[1]
    trauma = PACK.secret(slot.card).trauma
    mine = [c.id for c in PACK.clue_cards_for(4) if c.trauma == trauma]
    slot.discards = mine[: board.high_min]
    for c in slot.discards:
        for pile in (st.clue_deck, st.clue_box):
            if c in pile:
                pile.remove(c)
        for v in st.visitors.values():
            if c in v.hand:
                v.hand.remove(c)
    hope, nerve = st.hope, st.nerve
    e = eng(st)
    e.reveal_secret(2, "s2")
    e.run()
    st = settle(st)
    assert slot.card and st.secrets[1].tier == "high"
    assert (st.hope or 0) + (st.nerve or 0) > (hope or 0) + (nerve or 0)


def test_P_ROUND_03_04_05_turn_order_visitors_then_spirit_then_upkeep() -> None:
    st = new_game(4, 3)
    seen = []
    for _ in range(200):
        if st.round == 2:
            break
        if st.prompts:
            st = settle(st, prefer=("no", "stop", "done", "release", "1"))
            continue
        seat = st.active
        if not seen or seen[-1] != seat:
            seen.append(seat)
        end = "end_spirit" if seat == SPIRIT else "end_turn"
        st = GAME.apply(st, seat, next(a for a in GAME.legal_actions(st, seat)
                                       if a.kind == end)).state
    assert seen[:4] == ["s2", "s3", "s4", SPIRIT]
    assert st.round == 2 and st.active == "s2"


# ---------------------------------------------------------------- win tests read the right moment
# Each script condition below is reached through the engine's own effects (not by editing the
# flag the test reads), then the upkeep win check runs: an effect that tidies up as it happens
# (the bond returning, fear cards trashed on a knock-out) must not hide what the script asks.


def _revealed_script(test: str) -> PresenceState:
    sid = next(s.id for s in PACK.scripts if not s.needs_chamber
               and any(t.test == test for t in s.bottom.spirit_wins_if))
    st = edit(quiet(new_game(3, 3)))
    st.script = sid
    st.script_revealed = True
    return st


def test_P_SUCC_05_A_39_spirit_wins_when_the_bonded_visitor_has_succumbed() -> None:
    """Script B4 (bottom): "the spirit wins if the bonded visitor has succumbed". Succumbing
    returns the bonded marker at once (P-SUCC-05), yet the upkeep win check must still see
    that the visitor who succumbed was the bonded one (it used to read the cleared bond)."""
    st = _revealed_script("bonded_succumbed")
    st.bonded = "s3"
    st.nerve = None  # nerve lost: the next forced reduction makes the visitor succumb
    e = eng(st)
    e.adjust_track("nerve", -1, "s3")  # P-SUCC-02 through the engine
    e.run()
    st = settle(st)
    assert st.visitors["s3"].succumbed and st.bonded is None  # the bond returned
    st = upkeep(st)
    res = GAME.result(st)
    assert res is not None and res.winners == [SPIRIT], res
    assert "spirit" in res.reason.lower()


def test_A_39_a_succumbed_visitor_who_was_not_bonded_does_not_count_as_the_bonded_one() -> None:
    st = _revealed_script("bonded_succumbed")
    st.bonded = "s2"
    st.nerve = None
    e = eng(st)
    e.adjust_track("nerve", -1, "s3")
    e.run()
    st = settle(st)
    assert st.visitors["s3"].succumbed and st.bonded == "s2"
    assert not any(eng(st).win_test(t, False)
                   for t in PACK.script(st.script).bottom.spirit_wins_if
                   if t.test == "bonded_succumbed")


def test_P_WIN_04_succumbed_count_reached_through_the_engine_wins_for_the_spirit() -> None:
    st = _revealed_script("succumbed_gte")
    st.nerve = None
    e = eng(st)
    e.adjust_track("nerve", -1, "s2")
    e.run()
    st = settle(st)
    assert st.visitors["s2"].succumbed
    st = upkeep(st)
    res = GAME.result(st)
    assert res is not None and SPIRIT in res.winners


def test_P_WIN_04_knocked_out_count_reached_through_the_engine_wins_for_the_spirit() -> None:
    """Script B3 (bottom): "at least 2 visitors are knocked out": knocking out clears fear
    cards and the candle, not the knocked-out state the win check reads."""
    st = _revealed_script("knocked_out_gte")
    st.nerve = 8  # plenty: knock-outs cost nerve but nobody succumbs
    e = eng(st)
    e.knock_out("s2", nerve=True)
    e.knock_out("s3", nerve=True)
    e.run()
    st = settle(st)
    assert all(v.knocked_out and not v.succumbed for v in st.visitors.values())
    st = upkeep(st)
    res = GAME.result(st)
    assert res is not None and res.winners == [SPIRIT], res


def test_P_WIN_04_pawn_condition_is_read_before_the_upkeep_removes_the_pawn() -> None:
    """The manifestation drain (which may remove the pawn) comes after the win check in
    upkeep (P-UPKEEP-01): a "pawn not on the board" visitors' condition is read then."""
    sid = next(s.id for s in PACK.scripts if not s.needs_chamber and any(
        t.test == "pawn_not_on_board" for t in s.bottom.visitors_also_need))
    st = edit(quiet(new_game(3, 3)))
    st.script = sid
    st.script_revealed = True
    for s in st.secrets:
        s.revealed = True
    st.spirit.pawn_room = st.visitors["s2"].room
    st = upkeep(st)
    res = GAME.result(st)
    # the pawn was on the board at the check: the visitors have not won (yet)
    assert res is None or "s2" not in res.winners
