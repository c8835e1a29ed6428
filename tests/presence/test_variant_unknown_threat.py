"""Unknown Threat (P-UNK-01..05, A-47, H-09, H-39, PR-24): the game starts with the lobby
steps as prompts — the visitors pick 2 hope and 3 nerve scripts, the spirit (always the 5th)
builds a 12-card deck from every spirit's cards and picks 5 spirit clues and one secret card
per trauma, privately — then setup goes on as usual."""

from __future__ import annotations

import json

import pytest

from rules.core.types import PUBLIC, Event
from rules.presence.content import default_pack
from rules.presence.game import GAME
from rules.presence.state import PresenceState
from tests.presence.helpers import SPIRIT, choose, fresh, options
from tests.presence.variants import ai_playout, first_choice_playout, random_playout

PACK = default_pack()


def _answer(st: PresenceState, option: str, seat: str) -> tuple[PresenceState, list[Event]]:
    out = GAME.apply(st, seat, choose(option))
    return out.state, out.events


def _pick_scripts(st: PresenceState, picks: list[str]) -> tuple[PresenceState, list[Event]]:
    events: list[Event] = []
    for k, script in enumerate(picks):
        seat = st.visitor_seats[k % len(st.visitor_seats)]  # any visitor may answer
        st, ev = _answer(st, script, seat)
        events += ev
    return st, events


def _choose_characters(st: PresenceState) -> PresenceState:
    while st.prompts and st.prompts[-1].data["then"] == "choose_visitor":
        seat = st.prompts[-1].seats[0]
        st, _ = _answer(st, options(st)[0], seat)
    return st


# Cards and clues by name: the shipped spirits hold the same ones, each offered once (stop 66)
DECK = [c.name for c in PACK.spirit_cards][:4] * 3
CLUES = ["Wail", "Calling", "Gift", "Wail", "Cold Hand"]


def _pick(st: PresenceState, name: str) -> str:
    """The offered card or clue called `name` (once each: alike ones are offered once)."""
    found = [o for o in options(st) if not o.startswith("page:") and (
        PACK.spirit_card(o).name if "." in o and not
                                        o.startswith("sclue.") else PACK.spirit_clue_of(o).name)
             == name]
    assert len(found) == 1, (name, options(st))
    return found[0]


def _pages(st: PresenceState) -> list[str]:
    """Every card the deck's question offers, on each of its pages (each page turned on a
    copy: `st` stays as it is)."""
    cards: list[str] = []
    for _ in range(12):
        cards += [o for o in options(st) if not o.startswith("page:")]
        turn = [o for o in options(st) if o.startswith("page:")]
        if not turn or turn[0] == "page:0":
            break
        st, _ = _answer(st, turn[0], SPIRIT)
    return cards


def _take(st: PresenceState, name: str) -> PresenceState:
    """The spirit takes the deck card called `name`, turning the question's pages to it."""
    for _ in range(12):
        found = [o for o in options(st) if not o.startswith("page:")
                 and PACK.spirit_card(o).name == name]
        if found:
            return _answer(st, found[0], SPIRIT)[0]
        st, _ = _answer(st, next(o for o in options(st) if o.startswith("page:")), SPIRIT)
    raise AssertionError(name)


def _deck(st: PresenceState) -> tuple[PresenceState, list[Event], list[str]]:
    """The spirit builds DECK: one card of the name asked each time."""
    events: list[Event] = []
    taken = []
    for name in DECK:
        assert st.prompts[-1].data["then"] == "ut_card"
        while not any(o for o in options(st) if not o.startswith("page:")
                      and PACK.spirit_card(o).name == name):
            st, ev = _answer(st, next(o for o in options(st) if o.startswith("page:")),
                             SPIRIT)
            events += ev
        taken.append(_pick(st, name))
        st, ev = _answer(st, taken[-1], SPIRIT)
        events += ev
    return st, events, taken


def _build(st: PresenceState) -> tuple[PresenceState, list[Event], list[str]]:
    """The spirit's private choices: DECK, CLUES, then the last secret offered per trauma."""
    st, events, _ = _deck(st)
    for clue in CLUES:
        assert st.prompts[-1].data["then"] == "ut_clue"
        st, ev = _answer(st, _pick(st, clue), SPIRIT)
        events += ev
    secrets = []
    for _ in range(4):
        assert st.prompts[-1].data["then"] == "ut_secret"
        pick = options(st)[-1]
        traumas = {PACK.secret(o).trauma for o in options(st)}
        assert len(traumas) == 1  # one prompt per trauma
        secrets.append(pick)
        st, ev = _answer(st, pick, SPIRIT)
        events += ev
    return st, events, secrets


def test_p_unk_01_p_unk_02_visitors_pick_2_hope_3_nerve_and_the_spirit_is_the_fifth() -> None:
    st = fresh(4, 2, unknown_threat=True)
    assert st.spirit.character == "spirit_5"  # P-UNK-02: no spirit choice is asked
    top = st.prompts[-1]
    assert top.kind == "setup" and top.seats == st.visitor_seats and SPIRIT not in top.seats
    assert set(options(st)) == {"A1", "B1", "B3", "C1"}  # hope, no chamber scripts
    st, events = _pick_scripts(st, ["B1", "C1"])
    assert set(options(st)) == {"A2", "B2", "B4", "C2"}  # then nerve
    st, more = _pick_scripts(st, ["A2", "B2", "C2"])
    events += more
    assert sorted(st.display_scripts) == ["A2", "B1", "B2", "C1", "C2"]
    # P-UNK-05: "Setup the game normally. The spirit then draws their script": not yet.
    assert st.script == "" and sorted(st.script_pool) == sorted(st.display_scripts)
    public = " ".join(e.text for e in events if e.audience == PUBLIC)
    assert all(PACK.script(s).name in public for s in st.display_scripts)  # H-09
    # Said as a list (a demo read "chose the scripts Script A1, Script A2, …, Script B4").
    names = [PACK.script(s).name for s in sorted(st.display_scripts)]
    assert (f"The visitors have chosen their scripts: {', '.join(names[:-1])} and "
            f"{names[-1]}; the spirit draws one of them in secret once its deck is built."
            ) in public, public
    assert st.prompts[-1].data["then"] == "choose_visitor"


def test_p_unk_01_the_secret_chamber_adds_its_scripts_to_the_choice() -> None:
    st = fresh(3, 2, unknown_threat=True, secret_chamber=True)
    assert "C3" in options(st)
    # the board already shows the sealed chamber while the lobby steps are answered
    assert GAME.view(st, None)["chamber"] == {"room": "secret_chamber", "cards": 0,
                                              "passage_room": None, "searched": [],
                                              "passage_may_be": None}


def test_p_unk_03_p_unk_04_h_39_the_spirit_builds_its_deck_clues_and_secrets() -> None:
    st = fresh(3, 4, unknown_threat=True)
    st, _ = _pick_scripts(st, ["A1", "B3", "A2", "B4", "C2"])
    st = _choose_characters(st)
    assert st.prompts[-1].seats == [SPIRIT] and st.prompts[-1].data["private"]
    # P-UNK-03: from all spirit cards (each kind once)
    assert {PACK.spirit_card(o).name for o in _pages(st)} == {c.name for c in PACK.spirit_cards}
    public_before = GAME.view(st, None)["prompt"]["text"]
    assert "is making a choice" in public_before  # H-40
    assert not GAME.public_choices(st, SPIRIT)
    assert not st.script  # P-UNK-05: the deck is built without the script (stop 63)
    assert "script" not in (GAME.private_summary(st, SPIRIT) or "").lower()
    st, events, secrets = _build(st)
    # ... which is drawn once the deck, clues and secrets are chosen
    assert st.script in st.display_scripts and len(st.script_pool) == 4
    assert "The spirit has built its deck and chosen its spirit clues and secret cards, and " \
        "draws its script in secret." in [e.text for e in events]
    assert st.phase == "setup"  # the spirit's DM lists its choices while setup goes on
    assert DECK[0] in (GAME.private_summary(st, SPIRIT) or "")
    assert DECK[0] not in (GAME.private_summary(st, "s2") or "")
    # P-UNK-03: the custom twelve, a card taken three times from three spirits
    held = st.spirit.hand + st.spirit.deck
    assert sorted(held) == sorted(st.spirit_cards) and len(set(held)) == 12
    assert [PACK.spirit_card(c).name for c in st.spirit_cards] == DECK
    # P-UNK-04 / A-47: the five chosen replace the spirit's own five; general clues stay
    bag = {PACK.spirit_clue_of(c).id for c in st.spirit_clue_bag + [
        t.id for toks in st.tokens.values() for t in toks if t.kind == "spirit"]}
    own = {c.id for c in PACK.spirit_clues if c.spirit == "spirit_5"}
    assert st.unknown_threat is not None
    chosen = set(st.unknown_threat.clues)
    assert [PACK.spirit_clue_of(c).name for c in st.unknown_threat.clues] == CLUES
    assert bag <= chosen | set(PACK.general_spirit_clues())
    assert not (bag & (own - chosen))
    assert sorted(s.card for s in st.secrets) == sorted(secrets)
    assert len({PACK.secret(s.card).trauma for s in st.secrets}) == 4
    # P-UNK-05: setup then goes on as usual
    while st.prompts:
        st, _ = _answer(st, options(st)[0], st.prompts[-1].seats[0])
    assert st.phase == "visitor" and len(st.spirit.hand) == 3 and not GAME.invariants(st)
    # H-39: the choices reached no one but the spirit
    public = json.dumps([e.text for e in events if e.audience != [SPIRIT]])
    for name in DECK:
        assert name not in public
    for who in (None, "s2", "s3"):
        view = json.dumps(GAME.view(st, who))
        for card in st.spirit.hand:
            assert f'"{card}"' not in view


def test_p_unk_03_a_card_is_taken_at_most_once_from_each_spirit() -> None:
    st = fresh(3, 4, unknown_threat=True)
    st, _ = _pick_scripts(st, ["A1", "B3", "A2", "B4", "C2"])
    st = _choose_characters(st)
    name = PACK.spirit_cards[0].name
    for _ in PACK.spirits:  # each spirit holds one: taken as often as spirits hold it
        st = _take(st, name)
    assert st.unknown_threat is not None
    assert len(set(st.unknown_threat.deck)) == len(PACK.spirits)
    assert name not in {PACK.spirit_card(o).name for o in _pages(st)}
    assert len(_pages(st)) == 11


def test_p_unk_03_cards_alike_are_offered_once_and_whose_is_never_asked() -> None:
    """Stop 66's demo: building the deck asked "from whose cards?" twelve times, though
    every shipped spirit holds the same 12 cards, so the answer changed nothing. Cards alike
    are offered once, straight away, and the question says once that they may be taken
    again."""
    st = fresh(3, 4, unknown_threat=True)
    st, _ = _pick_scripts(st, ["A1", "B3", "A2", "B4", "C2"])
    st = _choose_characters(st)
    asked = []
    first: list[str] = []
    while st.prompts[-1].data["then"] in ("ut_group", "ut_card"):
        asked.append(st.prompts[-1].data["then"])
        offered = [PACK.spirit_card(o).name for o in _pages(st)]
        assert len(offered) == len(set(offered)), offered  # each card once
        # ... each in its place: a card taken keeps it (the demo's moved to the end)
        first = first or offered
        assert offered == [x for x in first if x in offered], offered
        if len(asked) == 1:
            assert len(offered) == 12
            mine = GAME.view(st, SPIRIT)["prompt"]["text"]
            assert mine.startswith("Unknown Threat: deck card 1 of 12 (every spirit holds "
                                   f"these: each up to {len(PACK.spirits)} times). "), mine
            assert "whose" not in mine and "Spirit I" not in mine
        st, _ = _answer(st, options(st)[0], SPIRIT)
    assert asked == ["ut_card"] * 12
    # the spirit clues alike are offered once each too, by name, not "Wail (Spirit I)"…
    assert st.prompts[-1].data["then"] == "ut_clue"
    labels = [GAME.describe(st, SPIRIT, choose(o)) for o in options(st)]
    names = [PACK.spirit_clue_of(o).name for o in options(st)]
    assert len(names) == len(set(names)) and not any("(Spirit" in x for x in labels), labels


def test_p_unk_03_whose_cards_is_asked_where_the_spirits_cards_differ(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A pack whose spirits hold cards of their own (every card its own kind) keeps the
    two-step choice, a spirit and then one of its cards: 60 cards are too many for one."""
    from rules.presence.engine import Engine

    monkeypatch.setattr(Engine, "ut_card_kind", lambda self, card: card)
    st = fresh(3, 4, unknown_threat=True)
    st, _ = _pick_scripts(st, ["A1", "B3", "A2", "B4", "C2"])
    st = _choose_characters(st)
    assert st.prompts[-1].data["then"] == "ut_group"
    assert len(options(st)) == len(PACK.spirits)
    st, _ = _answer(st, "spirit_2", SPIRIT)
    assert _pages(st) == PACK.spirit_deck("spirit_2")


@pytest.mark.parametrize(("n", "seed"), [(3, 0), (4, 1)])
def test_p_unk_random_playouts_end_and_keep_invariants(n: int, seed: int) -> None:
    st = random_playout(n, seed, unknown_threat=True)
    assert GAME.result(st) is not None and len(st.spirit_cards) == 12


def test_p_unk_first_choice_and_ai_tables_reach_the_end() -> None:
    assert GAME.result(first_choice_playout(4, 1, unknown_threat=True)) is not None
    st = ai_playout(4, 2, unknown_threat=True)
    assert GAME.result(st) is not None
    # the AI's spirit builds twelve different cards, never one card alike five times
    assert len({PACK.spirit_card(c).name for c in st.spirit_cards}) == 12
    assert st.unknown_threat is not None
    assert len({PACK.spirit_clue_of(c).name for c in st.unknown_threat.clues}) == 4


def test_p_unk_03_h_39_each_deck_card_offered_shows_the_whole_card_to_the_spirit_only() -> None:
    """Players reading a demo game: building the custom deck, the spirit's choice among a
    spirit's cards showed each card's top power only, and a card's bottom power — half of
    what it is worth — could not be weighed. Each choice now reads the whole card, both
    powers with what each needs and spends (in the question, its button reading its name),
    and only the spirit reads it (H-39: the public is told the
    spirit is making a choice, and nothing of the cards)."""
    st = fresh(3, 4, unknown_threat=True)
    st, _ = _pick_scripts(st, ["A1", "B3", "A2", "B4", "C2"])
    st = _choose_characters(st)
    assert st.prompts[-1].data["then"] == "ut_card"
    cards = _pages(st)
    assert cards and len(cards) == len(PACK.spirit_deck("spirit_2"))
    # the question's pages (`_pages`), each read with the labels of its own cards
    labels: dict[str, str] = {}
    pages: dict[str, str] = {}
    at = st
    while len(labels) < len(cards):
        mine = GAME.view(at, SPIRIT)["prompt"]["text"]
        assert len(mine) <= 2000  # a private menu's text holds it whole
        for c in options(at):
            if not c.startswith("page:"):
                labels[c], pages[c] = GAME.describe(at, SPIRIT, choose(c)), mine
        at, _ = _answer(at, next(o for o in options(at) if o.startswith("page:")), SPIRIT)
    for card in cards:
        sc = PACK.spirit_card(card)
        top, bottom = sc.top.text, sc.bottom.text
        assert top and bottom
        mine = pages[card]
        said = labels[card] + " " + mine
        assert labels[card].startswith(sc.name), labels[card]
        assert bottom in said and top in said, said
        assert f" Top {sc.top.requirement}/{sc.top.spend}" in said
        assert f" Bottom {sc.bottom.requirement}/{sc.bottom.spend}" in said
    assert "needs/spends" in mine  # the cost's notation, said once
    assert len(mine) <= 2000  # a private menu's text holds it whole
    for who in (None, "s2", "s3"):
        seen = json.dumps(GAME.view(st, who)) + (GAME.private_summary(st, who) or ""
                                                  if who else "")
        for card in cards:
            assert PACK.spirit_card(card).bottom.text not in seen


def test_p_unk_04_h_39_each_secret_card_offered_shows_its_tiers_without_set_ids() -> None:
    """Stop 65's demo: the secret-card choice read "Betrayal (Spirit I) (set spirit_1)", an
    internal set id in player text, and no tier's effect, so the spirit chose blind. Each
    choice now reads the card's name and what each tier does, to the spirit only (H-39)."""
    st = fresh(3, 4, unknown_threat=True)
    st, _ = _pick_scripts(st, ["A1", "B3", "A2", "B4", "C2"])
    st = _choose_characters(st)
    st, _, _ = _deck(st)
    for clue in CLUES:
        st, _ = _answer(st, _pick(st, clue), SPIRIT)
    assert st.prompts[-1].data["then"] == "ut_secret"
    secrets = options(st)
    assert len(secrets) > 1
    mine = GAME.view(st, SPIRIT)["prompt"]["text"]
    for secret in secrets:
        card = PACK.secret(secret)
        label = GAME.describe(st, SPIRIT, choose(secret))
        said = label + " " + mine
        assert "(set " not in said and card.set not in label.replace(card.name, ""), label
        assert label.startswith(card.name), label
        for tier in ("High:", "Middle:", "Low:"):
            assert tier in said, said
        assert card.text in said
    for who in (None, "s2", "s3"):
        seen = json.dumps(GAME.view(st, who)) + (GAME.private_summary(st, who) or ""
                                                  if who else "")
        assert "Middle:" not in seen and "(set " not in seen


@pytest.mark.parametrize("guided", [False, True])
def test_p_unk_03_h_39_the_spirits_dm_holds_every_deck_card_whole(guided: bool) -> None:
    """Stop 66's demo: the deck question listed the twelve cards in full (about 1,900
    characters); with its DM's head line and summary the tail of the list was cut with "…",
    so the spirit could not read the last cards it might take. The DM now holds every card,
    both powers and their costs, whole, guided table or not (its hint too)."""
    from bot.storage import GameRecord, GameSettings
    from cogs.utils.table.summaries import PANEL_MARK, summary_dm

    st = fresh(3, 4, unknown_threat=True)
    st, _ = _pick_scripts(st, ["A1", "B3", "A2", "B4", "C2"])
    st = _choose_characters(st)
    assert st.prompts[-1].data["then"] == "ut_card"
    record = GameRecord(id=12345, guild_id=1, channel_id=1, thread_id=None, game="presence",
                        options={"unknown_threat": True, "guided": guided}, status="active",
                        state_json=None, version=0, seed=3, created_by=1, engine_version="1",
                        settings=GameSettings(), board_message_id=None, created_at=0.0,
                        updated_at=0.0, next_reminder_at=None, reminder_stage=0,
                        awaited_since=None)
    news = ["You hold a long private line that fills the summary DM's news block. " * 4] * 5
    said = ""
    for _ in range(3):  # every page of the question, each read in the DM as it is
        now = summary_dm(record, GAME, st, SPIRIT, news=news,
                         mine="</game mine:123456789012345678>")
        assert now is not None and now.actions
        text = now.text
        assert len(text) <= 2000 and not text.endswith("…"), text[-200:]
        question = text.split(PANEL_MARK, 1)[1]
        said += question
        if guided:
            assert "build for what they have in common" in question
        turn = [o for o in options(st) if o.startswith("page:")]
        if not turn:
            break
        st, _ = _answer(st, turn[0], SPIRIT)
    cards = {PACK.spirit_card(c).name: c for c in PACK.spirit_deck("spirit_1")}
    for card in cards.values():
        sc = PACK.spirit_card(card)
        assert sc.name in said
        for power in (sc.top, sc.bottom):
            assert power.text in said, power.text
            assert f"{power.requirement}/{power.spend}" in said
