"""G-04, A-66 and presence-3: a reveal's tier comes from the game's own secret board, the
pack's for its player count (where a position may print its own low tier, A-66), unless the
game was dealt under tiers its pack no longer has (`PresenceState.secret_tiers`, a 3-player
game stored before presence-3): such a game keeps resolving reveals, and replaying its
history, as it was dealt."""

from __future__ import annotations

import json

from bot.migrations.states import PRESENCE_2_TIERS_3P, migrate_state
from rules.presence.content import default_pack
from rules.presence.game import GAME
from rules.presence.state import PresenceState
from tests.presence.helpers import edit, eng, new_game, quiet
from tests.presence.test_rules_upkeep import clue_cards

PACK = default_pack()


def _revealed_tier(st: PresenceState, position: int, matching: int) -> str:
    st = edit(st)
    slot = st.secrets[position - 1]
    slot.discards = clue_cards(st, PACK.secret(slot.card).trauma, matching)
    e = eng(st)
    e.reveal_secret(position, st.visitor_seats[0])
    e.run()
    assert slot.tier is not None
    return slot.tier


def _presence_2_tier(matching: int) -> str:
    low_max, high_min = PRESENCE_2_TIERS_3P
    return "low" if matching <= low_max else "high" if matching >= high_min else "middle"


def test_A_66_one_matching_card_reveals_the_3_player_rarest_secret_at_the_middle_tier() -> None:
    st = quiet(new_game(3, 3))
    assert st.secret_tiers is None
    assert [_revealed_tier(st, 4, m) for m in range(3)] == ["low", "middle", "middle"]
    assert [_revealed_tier(st, 3, m) for m in range(4)] == ["low", "low", "middle", "high"]
    # a 4-player game's rarest position keeps the board's tiers
    four = quiet(new_game(4, 3))
    assert [_revealed_tier(four, 4, m) for m in range(4)] == ["low", "low", "middle", "middle"]


def test_A_66_a_3_player_game_dealt_under_presence_2_reveals_with_its_own_tiers() -> None:
    st = quiet(new_game(3, 3))
    pinned = edit(st)
    pinned.secret_tiers = PRESENCE_2_TIERS_3P
    for position in (1, 2, 3, 4):
        for matching in range(0, 3):
            assert _revealed_tier(pinned, position, matching) == _presence_2_tier(matching)
    # the pin is what decides at position 4 (one card: low as dealt, middle today)
    assert _revealed_tier(st, 4, 1) == "middle" != _revealed_tier(pinned, 4, 1)
    # every reader of the board reads the pinned one: the views (the board picture's tier
    # line) and so the AI's deduction, which reads the same board
    for seat in (None, *st.seats):
        shown = GAME.view(pinned, seat)["secret_board"]
        assert (shown["low_max"], shown["high_min"]) == PRESENCE_2_TIERS_3P
        assert shown["low_max_at"] == [PRESENCE_2_TIERS_3P[0]] * 4
        assert GAME.view(st, seat)["secret_board"]["low_max_at"] == [1, 1, 1, 0]


def test_A_66_presence_3_pins_only_3_player_games_of_the_shipped_pack() -> None:
    for n, pack_path, pinned in ((3, None, True), (4, None, False), (5, None, False),
                                 (3, "/some/pack", False)):
        st = new_game(n, 3)
        data = st.model_dump(mode="json")
        del data["secret_tiers"]
        data["pack_path"] = pack_path
        up = migrate_state("presence", data, "presence-2+x", GAME.version)
        assert up.get("secret_tiers") == (list(PRESENCE_2_TIERS_3P) if pinned else None), n
        if pack_path is None:
            assert GAME.load_state(json.dumps(up)).secret_tiers == (
                PRESENCE_2_TIERS_3P if pinned else None)


def test_A_66_a_replay_from_the_deal_keeps_a_pinned_game_s_tiers() -> None:
    current = edit(new_game(3, 3))
    current.secret_tiers = PRESENCE_2_TIERS_3P
    fresh = new_game(3, 3)
    assert GAME.replay_rulings(fresh, current).secret_tiers == PRESENCE_2_TIERS_3P
    assert GAME.replay_rulings(fresh, fresh).secret_tiers is None
