"""Hidden information never leaks (spec §5) over many random games in both modes.

FW-VIS-02: the two Investigator cards dealt at setup go to the owner and the team only;
FW-VIS-06/15: hands are hidden from the public (and the Wall's hand from the team);
FW-VIS-12: the Wall card is nobody's business but the Wall player's before An Eye Opens;
FW-VIS-24: the last Blitz reveal is a public record fixed when it is revealed.

The public view, every Investigator seat's view, every public Event text and every label of
choices shown on the public board are searched for the secrets of the moment.

``FW_LEAK_SEEDS`` (default 6) sets the random games per mode and table size in the default
suite (about a sixth of a second of one core each); ``-m soak`` plays the next
``FW_LEAK_SOAK_SEEDS`` (default 200) of each.
"""

from __future__ import annotations

import json
import os

import pytest

from rules.core.rng import Rng
from rules.core.types import act
from rules.fourth_wall.engine import Engine
from rules.fourth_wall.game import GAME
from rules.fourth_wall.state import FourthWallState
from tests.fourth_wall.helpers import new_game, seats, setup

SEEDS = int(os.environ.get("FW_LEAK_SEEDS", "6"))
SOAK_SEEDS = int(os.environ.get("FW_LEAK_SOAK_SEEDS", "200"))


def _referenced_names(st: FourthWallState) -> set[str]:
    """Horror names that printed card texts or other names mention ("Sacrifice a Cultist",
    "The Breaker of Trinkets"): a search for them would find the public card."""
    eng = Engine(st)
    pack = eng.pack
    cards = (*pack.horrors, *pack.investigators, *pack.walls, *pack.marbles)
    texts = [c.text for c in cards] + [c.name for c in cards]
    return {h.name for h in pack.horrors if any(h.name in t and h.name != t for t in texts)}


def _horror_names_in_public(st: FourthWallState) -> set[str]:
    eng = Engine(st)
    return {eng.horror(h.id).name for h in st.streets} | {
        eng.horror(h).name for h in st.horror_discard + st.horror_limbo}


def _check_state(st: FourthWallState, known: set[str], where: str) -> None:
    """Search the views and board labels of `st` for what is secret now."""
    eng = Engine(st)
    wall_ids = [f'"{h}"' for h in st.wall_hand]
    # A Horror name is a secret while no copy of it has ever been seen by the public.
    wall_names = {eng.horror(h).name for h in st.wall_hand} - known
    wall_card = eng.wall().name if st.wall_card and not st.revealed else None
    team_secrets = wall_ids + sorted(wall_names) + ([wall_card] if wall_card else [])
    public_secrets = list(team_secrets)
    if st.mode == "conflict":
        public_secrets += [f'"{m}"' for i in st.investigators for m in i.hand]
    pub = json.dumps(GAME.view(st, None))
    for s in public_secrets:
        assert s not in pub, (where, "public view", s)
    for seat in st.seats:
        if seat == st.wall_seat:
            continue
        peeked = set(st.peek) if st.peek_deck == "horror" else set()
        peeked_names = {eng.horror(h).name for h in peeked}
        text = json.dumps(GAME.view(st, seat))
        for s in team_secrets:
            if s.strip('"') in peeked or s in peeked_names:
                continue  # FW-VIS-28: the team sees what it peeks at
            assert s not in text, (where, "team view", seat, s)
    # Choices shown on the public board (one awaited seat whose choices are public).
    for seat in GAME.to_act(st):
        shown = GAME.public_actions(st, seat)  # the board's buttons (issue #14)
        if GAME.public_choices(st, seat):
            assert shown == GAME.legal_actions(st, seat), (where, seat)
        if not shown:
            continue
        labels = " | ".join(GAME.describe(st, seat, a) for a in shown)
        for s in team_secrets:
            assert s.strip('"') not in labels, (where, "public labels", seat, s)
        if st.prompts and st.prompts[-1].kind == "keep_investigator":
            raise AssertionError("the dealt Investigator cards are shown publicly")
    for label in GAME.view(st, None)["waiting_labels"]:
        if wall_card:
            assert wall_card not in label


def _run(mode: str, n: int, seed: int) -> None:
    st = GAME.setup(seats(n), GAME.options_model(mode=mode), seed)
    rng = Rng.from_seed(seed * 7919 + 13)
    known: set[str] = _referenced_names(st)
    for step in range(3000):
        known |= _horror_names_in_public(st)
        _check_state(st, known, f"{mode}/{n}/seed {seed}/step {step}")
        if GAME.result(st) is not None:
            return
        seat = rng.choice(sorted(GAME.to_act(st)))
        action = rng.choice(GAME.legal_actions(st, seat))
        out = GAME.apply(st, seat, action)
        nxt = out.state
        eng = Engine(nxt)
        wall_card = eng.wall().name if nxt.wall_card and not nxt.revealed else None
        known_after = known | _horror_names_in_public(nxt)
        hand_names = {eng.horror(h).name for h in nxt.wall_hand} | {
            eng.horror(h).name for h in st.wall_hand}
        for e in out.events:
            if e.audience != "public":
                continue
            if wall_card:
                assert wall_card not in e.text, (mode, seed, step, e.text)
            for name in hand_names - known_after:
                assert name not in e.text, (mode, seed, step, name, e.text)
            # a public text names what it makes public: later hands may hold that kind
            known_after |= {name for name in hand_names if name in e.text}
        known = known_after
        st = nxt
    raise AssertionError("the game did not end")


TABLES = [("conflict", 2), ("conflict", 3), ("conflict", 4),
          ("alliance", 1), ("alliance", 2), ("alliance", 3)]
BETWEEN = [("conflict", 3), ("alliance", 2)]


# The fewest and the most players of each mode by default; the tables between (Conflict 3,
# Alliance 2: 37 s on a loaded two-core machine, stop 70) are -m soak's.
@pytest.mark.parametrize(("mode", "n"), [
    pytest.param(m, n, marks=pytest.mark.soak) if (m, n) in BETWEEN else (m, n)
    for m, n in TABLES])
def test_FW_VIS_no_secret_in_public_or_team_views_over_random_games(mode: str, n: int) -> None:
    for seed in range(SEEDS):
        _run(mode, n, seed)


@pytest.mark.soak
@pytest.mark.parametrize(("mode", "n"), TABLES)
def test_soak_FW_VIS_no_secret_in_public_or_team_views_over_random_games(mode: str,
                                                                         n: int) -> None:
    for seed in range(SEEDS, SEEDS + SOAK_SEEDS):
        _run(mode, n, seed)


@pytest.mark.parametrize("mode", ["conflict", "alliance"])
def test_FW_VIS_02_dealt_cards_stay_off_the_public_prompt(mode: str) -> None:
    st = setup(mode, 3, 5)
    assert st.prompts and st.prompts[-1].kind == "keep_investigator"
    p = st.prompts[-1]
    eng = Engine(st)
    dealt = [eng.investigator_card(c).name for i in st.investigators for c in i.dealt]
    pub = json.dumps(GAME.view(st, None))
    assert not any(name in pub for name in dealt)
    assert "keep one of two Investigator cards" in GAME.view(st, None)["prompt"]["text"]
    owner = p.seats[0]
    full = GAME.view(st, owner)["prompt"]["text"]
    assert any(name in full for name in dealt)
    # The owner's menu: the prompt, then each dealt card with its abilities (#22).
    menu = GAME.prompt_text(st, owner) or ""
    assert menu.startswith(p.text)
    owned = next(i for i in st.investigators if i.seat == owner and i.card is None)
    for c in owned.dealt:
        card = eng.investigator_card(c)
        assert f"**{card.name}** (Sanity {card.sanity}): {card.text}" in menu
    assert not GAME.public_choices(st, owner)
    if mode == "conflict":  # the Wall is not pushed the team's setup choice
        wall = json.dumps(GAME.view(st, st.wall_seat))
        assert not any(name in wall for name in dealt)
    assert all(name not in " ".join(GAME.view(st, None)["waiting_labels"]) for name in dealt)
    assert all(name not in GAME.seat_label(st, owner) for name in dealt)


def test_FW_VIS_24_blitz_reveal_is_a_fixed_public_record() -> None:
    st = new_game("conflict", 3, 2)
    eng = Engine(st)
    cards = st.marble_deck[:3]
    st.revealed_cards = list(cards)
    before = GAME.view(st, None)["revealed"]
    assert [r["name"] for r in before] == [eng.marble_name(m) for m in cards]
    # the same cards drawn into a hand since: the record does not change, and names no id
    holder = st.investigators[0]
    for m in cards:
        st.marble_deck.remove(m)
        holder.hand.append(m)
    after = GAME.view(st, None)["revealed"]
    assert after == before
    pub = json.dumps(GAME.view(st, None))
    assert not any(f'"{m}"' in pub for m in holder.hand)


def test_FW_VIS_10_trade_offer_text_is_team_only() -> None:
    from tests.fourth_wall.helpers import clear_streets, do, inv_turn, prompt, set_hand

    st = inv_turn(new_game("conflict", 3, 1), "i1")
    clear_streets(st)
    set_hand(st, "i1", "M-HOLY", "M-C")
    partner = next(i for i in st.investigators if i.seat != st.investigators[0].seat)
    st, _ = do(st, st.investigators[0].seat, "trade", inv="i1", **{"with": partner.id})
    while prompt(st) in ("trade_mine", "trade_theirs"):
        opt = next(o for o in st.prompts[-1].data["options"] if o["kind"] == "choose_marble")
        st = GAME.apply(st, st.prompts[-1].seats[0],
                        act("choose_marble", marble=opt["params"]["marble"])).state
    assert prompt(st) == "trade_consent"
    pub = GAME.view(st, None)["prompt"]["text"]
    assert "Holy" not in pub and "offers" in pub
    assert "Holy" in GAME.view(st, partner.seat)["prompt"]["text"]
