"""What `GAME.resample` deals anew for each seat in I Am the Fourth Wall (issue #21, spec §5):
exactly the zones hidden from it, from sorted pools, so the result depends only on what the seat
may know."""

from __future__ import annotations

from rules.core.rng import Rng
from rules.fourth_wall.game import GAME
from rules.fourth_wall.state import FourthWallState
from tests.fourth_wall.helpers import inv_turn, new_game


def _many(st: FourthWallState, seat: str | None, n: int = 12) -> list[FourthWallState]:
    return [GAME.resample(st, seat, Rng.from_seed(k)) for k in range(n)]


def _conflict() -> FourthWallState:
    return inv_turn(new_game("conflict", 3, 1), "i1")


def test_FW_VIS_12_the_wall_card_is_dealt_anew_for_all_but_the_wall_player() -> None:
    st = _conflict()
    assert not st.revealed and st.wall_seat is not None
    assert {s.wall_card for s in _many(st, "s2")} != {st.wall_card}
    assert {s.wall_card for s in _many(st, None)} != {st.wall_card}
    assert {s.wall_card for s in _many(st, st.wall_seat)} == {st.wall_card}


def test_FW_VIS_06_FW_VIS_15_hands_are_dealt_anew_only_for_who_may_not_see_them() -> None:
    st = _conflict()
    hands = [sorted(i.hand) for i in st.investigators]
    for other in _many(st, "s2"):  # an Investigator sees the team's hands, not the Wall's
        assert [sorted(i.hand) for i in other.investigators] == hands
        assert len(other.wall_hand) == len(st.wall_hand)
    assert any(sorted(o.wall_hand) != sorted(st.wall_hand) for o in _many(st, "s2"))
    assert st.wall_seat is not None
    for other in _many(st, st.wall_seat):  # the Wall sees its hand, not theirs
        assert sorted(other.wall_hand) == sorted(st.wall_hand)
        assert [len(i.hand) for i in other.investigators] == [len(h) for h in hands]
    assert any([sorted(i.hand) for i in o.investigators] != hands
               for o in _many(st, st.wall_seat))


def test_FW_VIS_04_FW_VIS_30_deck_orders_and_the_rng_are_dealt_anew() -> None:
    st = _conflict()
    for other in _many(st, "s2", 4):
        assert sorted(other.marble_deck) == sorted(st.marble_deck)
        assert other.marble_deck != st.marble_deck
        assert other.rng != st.rng
        assert other.marble_discard == st.marble_discard  # public


def test_FW_VIS_25_the_presence_deck_order_is_dealt_anew_in_alliance() -> None:
    st = inv_turn(new_game("alliance", 2, 1), "i1")
    for other in _many(st, "s1", 4):
        assert sorted(other.presence_deck) == sorted(st.presence_deck)
        assert other.presence_deck != st.presence_deck
        assert [i.hand for i in other.investigators] == [i.hand for i in st.investigators]


def test_resampling_a_resample_is_resampling_the_original() -> None:
    st = _conflict()
    for seat in (None, "s1", "s2"):
        once = GAME.resample(st, seat, Rng.from_seed(1))
        assert (GAME.resample(once, seat, Rng.from_seed(2)).model_dump_json()
                == GAME.resample(st, seat, Rng.from_seed(2)).model_dump_json())
