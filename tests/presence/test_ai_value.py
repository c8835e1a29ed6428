"""The Presence's estimate where a search play-out stops (`Presence.ai_value`,
`rules.presence.ai.win_estimate`): a probability, moved by each side's public progress, and
blind to what the seat may not see."""

from __future__ import annotations

from rules.core.rng import Rng
from rules.presence.game import GAME
from tests.presence.helpers import SPIRIT, VISITOR, new_game


def test_ai_value_follows_the_secrets_revealed_and_the_rounds_left() -> None:
    st = new_game(4, 3)
    start = GAME.ai_value(st, VISITOR)
    assert 0.0 < start < 1.0
    ahead = st.model_copy(deep=True)
    for slot in ahead.secrets[:3]:
        slot.revealed, slot.tier = True, "middle"
    late = st.model_copy(deep=True)
    late.round = late.time = 8
    assert GAME.ai_value(ahead, VISITOR) > start + 0.2
    assert GAME.ai_value(late, VISITOR) < start
    assert GAME.ai_value(ahead, SPIRIT) < GAME.ai_value(st, SPIRIT)
    succumbed = st.model_copy(deep=True)
    succumbed.visitors["s3"].succumbed = True
    assert GAME.ai_value(succumbed, SPIRIT) > GAME.ai_value(st, SPIRIT)


def test_ai_value_reads_nothing_hidden_from_the_seat() -> None:
    st = new_game(4, 3)
    for seat in (VISITOR, "s3", SPIRIT):
        values = {GAME.ai_value(GAME.resample(st, seat, Rng.from_seed(salt)), seat)
                  for salt in range(6)}
        assert values == {GAME.ai_value(st, seat)}, seat
