"""rules/core: the RNG, decks and the error type."""

from __future__ import annotations

from rules.core import Action, Event, IllegalAction, Rng
from rules.core.deck import draw, peek, put_on_top, refill
from rules.core.types import act


def test_rng_same_seed_same_sequence_and_state_round_trips() -> None:
    a, b = Rng.from_seed(42), Rng.from_seed(42)
    assert [a.below(100) for _ in range(50)] == [b.below(100) for _ in range(50)]
    c = Rng.model_validate_json(a.model_dump_json())
    assert c.next_u64() == a.next_u64()


def test_rng_shuffle_is_a_permutation_and_randint_in_range() -> None:
    r = Rng.from_seed(1)
    items = list(range(30))
    r.shuffle(items)
    assert sorted(items) == list(range(30)) and items != list(range(30))
    assert all(1 <= r.randint(1, 6) <= 6 for _ in range(500))
    assert {r.randint(1, 6) for _ in range(500)} == set(range(1, 7))


def test_deck_helpers() -> None:
    deck = [1, 2, 3, 4]
    assert peek(deck, 2) == [4, 3]
    assert draw(deck, 3) == [4, 3, 2]
    assert draw(deck, 5) == [1] and deck == []
    put_on_top(deck, [9, 8])
    assert draw(deck, 1) == [9]
    discard = [5, 6, 7]
    refill(deck, discard, Rng.from_seed(3))
    assert sorted(deck) == [5, 6, 7, 8] and discard == []


def test_illegal_action_reads_well_and_names_its_rule() -> None:
    err = IllegalAction("You have no Key.", rule="EX-ACT-07")
    assert str(err) == "You have no Key." and err.rule == "EX-ACT-07"
    assert isinstance(err, ValueError)


def test_action_equality_is_by_value_and_hashable() -> None:
    assert act("move", to="r1c2") == Action(kind="move", params={"to": "r1c2"})
    assert len({act("a", x=1), act("a", x=1), act("a", x=2)}) == 2


def test_event_audience() -> None:
    assert Event(kind="k", text="t").visible_to(None)
    private = Event(kind="k", text="t", audience=["s1"])
    assert private.visible_to("s1") and not private.visible_to("s2")
    assert not private.visible_to(None)


def test_rulebook_quotes_a_rule_by_id(tmp_path) -> None:
    from rules.core.rulebook import load_rulebook

    book = tmp_path / "rules.md"
    book.write_text(
        "# Rules\n\n- **XX-ACT-01 Move** [T] Move up to 2.\n  * Never diagonally.\n"
        "- **XX-ACT-02** [D] Purify one token.\n\n## Next\n"
    )
    rules = load_rulebook(book)
    assert rules["XX-ACT-01"] == "Move: [T] Move up to 2.\n* Never diagonally."
    assert rules["XX-ACT-02"] == "[D] Purify one token."


def test_an_actions_key_is_canonical_and_a_changed_copy_has_its_own() -> None:
    """`Action.key` is cached: a copy with other params must not carry the original's key, and
    the cache must not reach the action's JSON (storage and custom ids read that)."""
    move = act("move", to="r1", n=2)
    assert move.key() == '["move",{"n":2,"to":"r1"}]' == act("move", n=2, to="r1").key()
    moved = move.model_copy(update={"params": {"to": "r2"}})
    assert moved.key() == '["move",{"to":"r2"}]' and moved != move
    assert move.model_copy().key() == move.key() and hash(move.model_copy()) == hash(move)
    assert Action.model_validate_json(move.model_dump_json()) == move
    assert move.model_dump() == {"kind": "move", "params": {"to": "r1", "n": 2}}


def test_actions_are_equal_exactly_when_their_keys_are() -> None:
    """`Action.__eq__` and `__hash__` work by value without building keys (the search's
    `action in legal`, the legal lists' deduplication), yet must agree with the keys: True is
    not 1, [True] is not [1], and equal actions hash alike."""
    pairs = [
        (act("move", to="r1", n=2), act("move", n=2, to="r1")),
        (act("move", to="r1"), act("purify", to="r1")),
        (act("move", to="r1"), act("move", to="r2")),
        (act("give", flag=True), act("give", flag=1)),
        (act("pick", cards=[1, 2]), act("pick", cards=[True, 2])),
        (act("pick", cards=[1, 2]), act("pick", cards=[1, 2])),
        (act("pick", cards=[1, 2]), act("pick", cards=[2, 1])),
        (act("pass"), act("pass")),
        (act("pass"), act("pass", n=None)),
    ]
    for a, b in pairs:
        assert (a == b) is (a.key() == b.key()) is (b == a), (a, b)
        assert a != b or hash(a) == hash(b), (a, b)
    assert len({*[a for a, _ in pairs], *[b for _, b in pairs]}) == len(
        {*[a.key() for a, _ in pairs], *[b.key() for _, b in pairs]})
    assert act("give", flag=True) != act("give", flag=1)
    assert act("pick", cards=[1]) in [act("move", to="r1"), act("pick", cards=[1])]
    assert act("move", to="r1") != "move"
