"""Undo is never an oracle in The Presence (issue #21), rule by rule.

The table's undo rule (`TableService._undo_refusal`) applies the move to the real state and to
states resampled from the mover's view (`Presence.resample`, spec Part 5): a move that drew a
card, an item or a spirit clue shows its player something that differs between them, so it
is refused; a plain move that reveals nothing is the same everywhere and may be undone. The
RNG is checked to be untouched by each refused move, so the refusal comes from what the move
showed, not from the dice.
"""

from __future__ import annotations

from types import SimpleNamespace

from bot.tables import TableService
from rules.core.hidden import hidden_dependence
from rules.core.rng import Rng
from rules.core.types import Action, Prompt, act
from rules.presence.engine import Engine, pack_for
from rules.presence.game import GAME
from rules.presence.state import PresenceState
from tests.presence.helpers import SPIRIT, edit, new_game, to_spirit_turn

VISITOR = "s2"


def _refusal(st: PresenceState, seat: str, action: Action) -> tuple[str | None, PresenceState]:
    out = GAME.apply(st, seat, action)
    return (TableService._undo_refusal(GAME, st, seat, action, out.state, list(out.events)),
            out.state)


def _room_action(st: PresenceState, room: str) -> tuple[PresenceState, Action]:
    st = edit(st)
    st.visitors[VISITOR].room = room
    acts = [a for a in GAME.legal_actions(st, VISITOR) if a.kind == "room_action"]
    assert acts, f"no room action in {room}"
    return st, acts[0]


def test_P_ITEM_01_searching_the_kitchen_draws_an_item_and_cannot_be_undone() -> None:
    st, search = _room_action(new_game(3), "kitchen")
    reason, after = _refusal(st, VISITOR, search)
    assert after.rng == st.rng  # no dice: the item deck's top card decided it
    assert len(after.visitors[VISITOR].items) == len(st.visitors[VISITOR].items) + 1
    assert reason is not None and "can't see" in reason
    assert hidden_dependence(GAME, st, VISITOR, search) == "you"


def test_P_CLUE_06_revealing_the_top_clue_card_cannot_be_undone() -> None:
    game = new_game(4)  # the Nursery is on the West Wing
    assert "nursery" in game.rooms
    st, reveal = _room_action(game, "nursery")  # Toys: reveal the clue deck's top card
    reason, after = _refusal(st, VISITOR, reveal)
    assert after.rng == st.rng
    assert after.clue_revealed or any(v.fear_cards for v in after.visitors.values())
    assert reason is not None


def test_P_UPKEEP_04_the_spirits_end_of_turn_drawing_spirit_clues_cannot_be_undone() -> None:
    st = to_spirit_turn(new_game(3))
    st.round = 2  # an even round: upkeep draws spirit clues from the bag
    assert len(st.spirit.hand) >= st.n  # and no spirit card is drawn (P-SPIRIT-19)
    reason, after = _refusal(st, SPIRIT, act("end_spirit"))
    assert after.rng == st.rng
    assert after.drawn_spirit_clues and not st.drawn_spirit_clues
    assert after.spirit.hand == st.spirit.hand
    assert reason is not None and "can't see" in reason
    assert hidden_dependence(GAME, st, SPIRIT, act("end_spirit")) == "you"


def test_P_SPIRIT_19_the_spirits_end_of_turn_drawing_a_spirit_card_cannot_be_undone() -> None:
    st = to_spirit_turn(new_game(3))
    st.round = 1
    st.spirit.deck.append(st.spirit.hand.pop())
    reason, after = _refusal(st, SPIRIT, act("end_spirit"))
    assert after.rng == st.rng
    assert len(after.spirit.hand) == st.n
    assert reason is not None


def test_P_MOVE_02_walking_through_an_open_door_can_be_undone() -> None:
    st = edit(new_game(3))
    door = next(d for d in st.doors.values() if st.visitors[VISITOR].room in d.rooms
                and not d.locked)
    door.open = True
    reason, walking = _refusal(st, VISITOR, act("walk"))
    assert reason is None
    go = act("choose", option=f"go:{door.id}")
    assert go in GAME.legal_actions(walking, VISITOR)
    reason, moved = _refusal(walking, VISITOR, go)
    assert reason is None
    assert moved.visitors[VISITOR].room != st.visitors[VISITOR].room


def test_P_MOVE_02_opening_a_door_can_be_undone() -> None:
    st = new_game(3)
    _, walking = _refusal(st, VISITOR, act("walk"))
    door = next(d for d in walking.doors.values() if walking.visitors[VISITOR].room in d.rooms
                and not d.locked and not d.open)
    reason, after = _refusal(walking, VISITOR, act("choose", option=f"open:{door.id}"))
    assert reason is None
    assert after.doors[door.id].open


def test_P_SETUP_21_a_visitors_resample_removes_clue_cards_matching_the_secrets_it_deals() -> None:
    """The secret cards are dealt anew among their positions for a visitor (H-10); the clue
    cards removed in setup (H-13) follow: so many of each position's trauma."""
    st = new_game(5, seed=3)
    pack = pack_for(st.pack_path)
    remove = [p.remove for p in pack.secret_board(st.n).positions]
    orders = set()
    for salt in range(12):
        seen = GAME.resample(st, VISITOR, Rng.from_seed(salt))
        orders.add(tuple(s.card for s in seen.secrets))
        assert sorted(seen.visitors[VISITOR].hand) == sorted(st.visitors[VISITOR].hand)
        assert seen.spirit.hand != st.spirit.hand or seen.clue_deck != st.clue_deck
        for slot, n in zip(seen.secrets, remove, strict=True):
            trauma = pack.secret(slot.card).trauma
            assert sum(1 for c in seen.clue_box if not pack.is_fear_card(c)
                       and pack.clue_card(c).trauma == trauma) == n
        # the spirit knows its secrets: they stay
        assert GAME.resample(st, SPIRIT, Rng.from_seed(salt)).secrets == st.secrets
    assert len(orders) > 1


def test_P_SECRET_03_a_failed_invoke_rules_out_the_traumas_beneath_in_a_resample() -> None:
    """An Invoke that found nothing (public, H-38) says the secret at that position has none
    of the traumas face up beneath it: no resample deals it there."""
    st = edit(new_game(3, seed=2))
    pack = pack_for(st.pack_path)
    real = pack.secret(st.secrets[0].card).trauma
    other = next(c for c in st.clue_deck if not pack.is_fear_card(c)
                 and pack.clue_card(c).trauma != real)
    st.clue_deck.remove(other)
    st.secrets[0].discards.append(other)
    st.secrets[0].failed.append(len(st.secrets[0].discards))  # the engine's record (H-38)
    st.log.clear()  # the log forgets old lines; the failure is still known
    ruled_out = pack.clue_card(other).trauma
    dealt = set()
    for salt in range(40):
        seen = GAME.resample(st, VISITOR, Rng.from_seed(salt))
        trauma = pack.secret(seen.secrets[0].card).trauma
        assert trauma != ruled_out
        dealt.add(trauma)
    assert len(dealt) > 1


def test_P_TIME_09_a_secret_card_a_visitor_inspected_stays_in_its_resamples() -> None:
    """Inspecting a secret shows it to its player alone (H-10): that player's resamples keep
    the card at its position; another visitor's still deal it anew."""
    st = edit(new_game(5, seed=4))
    Engine(st).on_inspect_secret("2", Prompt(id="t", kind="target", seats=[VISITOR],
                                             text="", data={"seat": VISITOR}))
    assert GAME.view(st, VISITOR)["inspected"]
    mine, theirs = set(), set()
    for salt in range(30):
        seen = GAME.resample(st, VISITOR, Rng.from_seed(salt))
        assert seen.secrets[1].card == st.secrets[1].card
        mine.add(tuple(s.card for s in seen.secrets))
        theirs.add(GAME.resample(st, "s3", Rng.from_seed(salt)).secrets[1].card)
    assert len(mine) > 1 and len(theirs) > 1


def test_P_TIME_09_a_removed_clue_card_a_visitor_inspected_stays_removed() -> None:
    """The Professor's look at a clue card removed in setup (H-13): it stays in the box in
    that player's resamples, which still remove so many cards of each secret's trauma."""
    st = edit(new_game(5, seed=5))
    Engine(st).eff_inspect(SimpleNamespace(what="removed_clue", n=1),
                           {"owner": VISITOR, "self": VISITOR})
    line = GAME.view(st, VISITOR)["inspected"][-1]
    pack = pack_for(st.pack_path)
    card = next(c for c in st.clue_box if not pack.is_fear_card(c)
                and pack.clue_card(c).name in line)
    remove = [p.remove for p in pack.secret_board(st.n).positions]
    moved = 0
    for salt in range(20):
        seen = GAME.resample(st, VISITOR, Rng.from_seed(salt))
        assert card in seen.clue_box
        moved += seen.clue_box != st.clue_box
        for slot, n in zip(seen.secrets, remove, strict=True):
            trauma = pack.secret(slot.card).trauma
            assert sum(1 for c in seen.clue_box if not pack.is_fear_card(c)
                       and pack.clue_card(c).trauma == trauma) == n
    assert moved
