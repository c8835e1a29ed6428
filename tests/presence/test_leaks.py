"""Hidden information never reaches a seat that may not see it (spec Part 5: H-L1, H-L4, H-L5)
over many random playouts with 3, 4 and 5 players, in the standard game and the variants.

At every step of every playout the public view, every seat's view, every seat's private
summary (its DM), the awaited seats' choice labels and prompt, the channel texts (seat labels,
the board caption, choices shown on the public board) and every Event of the step (text and
payload; public ones against the public, DMs against each seat of the audience) are searched
for what that reader may not know at that moment:

- the drawn script before it is revealed (H-07): its texts, and its name alone (the names of
  the displayed scripts are public, H-09, so a text that lists them all is no leak);
- an unrevealed secret card (H-10): its id, name, and its trauma next to its position;
- face-down clue tokens (H-24 spirit clues, H-27 small clues — small clues even from the
  spirit), spirit clues waiting for placement (H-25), clue cards removed in setup (H-13);
- another player's hand (H-02 the spirit's, H-17/H-18 a visitor's — also from the spirit),
  the decks (H-03, H-15, H-19) and the spirit's face-down discard (H-04);
- in the variants: Mystery Mode's face-down discards (H-21) and, there, the name of every clue
  card the table never saw face up, even one being played (A-64: a text naming a played card
  and one telling where it goes face down together tell what lies beneath), the Secret
  Chamber's set-aside
  card and chamber cards (H-35, H-36), Unknown Threat's spirit choices (H-39).

A seat's view may differ from the public view only in its private keys (checked), so those
keys alone are searched against that seat's secrets. Names are searched only where they
are not public anyway: a name printed on another component (an action and a spirit clue both
called "Comfort"), a name of a card the public has seen (another copy of it), a token
revealed by this very step; action cards (many copies of each name) by id only. Ids are
searched as whole JSON strings. What a seat inspected itself (P-TIME-09), held, or was offered
in a trade (PR-12) it may read again. The spirit's own view is checked to hold all of its
secrets (H-L4); the board picture drawn from it is checked in tests/renders.

``LEAK_PLAYOUTS`` (default 9: 3 each at 3/4/5 players, plus one per variant (one in 18 of
it, at least one), about 12 s of one core) sets how many playouts run; one fully checked
playout costs about 1 s of one core, so ``LEAK_PLAYOUTS=3000`` is a soak of about an hour.
``python -m bench.soak --game presence`` runs the public-view check alone
(``public_secrets``) at scale.
"""

from __future__ import annotations

import functools
import json
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from rules.core.rng import Rng
from rules.core.types import Event
from rules.presence.content import default_pack
from rules.presence.game import GAME
from rules.presence.state import PresenceState, Token
from tests.presence.helpers import SPIRIT, seats

PACK = default_pack()
PLAYOUTS = int(os.environ.get("LEAK_PLAYOUTS", "9"))


def _strings(value: Any) -> Iterator[str]:
    """Every string in a JSON-like value, dict keys included."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield str(k)
            yield from _strings(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from _strings(v)


_QUOTED = re.compile(r'"([^"\\]*(?:\\.[^"\\]*)*)"')


def _json_strings(value: Any) -> set[str]:
    """Every string (value or key) of a JSON-ready value, as JSON spells it."""
    return set(_QUOTED.findall(json.dumps(value, ensure_ascii=False)))


@functools.cache
def _printed_elsewhere() -> frozenset[str]:
    """Names that some other component prints (in its name or texts): searching for them
    would find that public component, so only their ids are searched."""
    groups: list[Any] = [PACK.secrets, PACK.clue_cards, PACK.fear_cards, PACK.items,
                         PACK.visitors, PACK.action_cards, PACK.spirits, PACK.spirit_cards,
                         PACK.spirit_clues, PACK.small_clues, PACK.scripts, PACK.manor.rooms,
                         PACK.manifestation.actions]
    kinds: dict[str, set[int]] = {}
    for k, g in enumerate(groups):
        for e in g:
            kinds.setdefault(e.name, set()).add(k)
    printed: dict[str, list[str]] = {}
    for g in groups:
        for e in g:
            printed.setdefault(e.name, []).extend(_strings(e.model_dump(mode="json")))
    everything = "\x00".join(s for texts in printed.values() for s in texts)
    return frozenset(n for n, ks in kinds.items()
                     if len(ks) > 1 or everything.count(n) > "\x00".join(printed[n]).count(n))


@functools.cache
def _token_name(token_id: str, kind: str) -> str:
    if kind == "spirit":
        return PACK.spirit_clue_of(token_id).name
    return PACK.small_clue_of(token_id).name


@functools.cache
def _card_names() -> dict[str, str]:
    cards: list[Any] = [*PACK.action_cards, *PACK.clue_cards, *PACK.fear_cards,
                        *PACK.spirit_cards]
    names = {c.id: c.name for c in reversed(cards)}
    names.update({i: PACK.item_of(i).name for i in PACK.item_instances()})
    return names


@functools.cache
def _action_ids() -> frozenset[str]:
    return frozenset(c.id for c in PACK.action_cards)


def _card_name(card: str) -> str:
    return _card_names()[card]


def _public_ids(view: dict[str, Any]) -> set[str]:
    """Card ids lying face up in a public view: once seen there, the public knows them."""
    out = {c["id"] for c in view["clue_revealed"]}
    out |= {c["id"] for s in view["secrets"] for c in s["discards"]}
    for v in view["visitors"]:
        out |= {c["id"] for c in v["discard"] + v["items"] + v["fear_cards"]}
    out |= {c["id"] for c in view["cellar"]}
    out |= {d["card"] for d in view["spirit"]["drains"]}
    return out


def _played(st: PresenceState) -> set[str]:
    """The spirit card being played is shown to all (H-05)."""
    return {st.spirit.playing} if st.spirit.playing else set()


@dataclass
class Hidden:
    """What one reader may not know now: ids (searched exactly), names and texts (searched
    where they cannot be public), and the trauma of each unrevealed secret position."""

    ids: set[str] = field(default_factory=set)
    names: set[str] = field(default_factory=set)
    positions: list[tuple[int, str, str]] = field(default_factory=list)
    """(position, trauma, secret name) of each unrevealed secret."""
    deduced: set[int] = field(default_factory=set)
    """Positions whose trauma the table can tell by elimination (A-47): a text may say it;
    a view still may not name it."""
    script: str | None = None
    """The drawn script's name while hidden: it is also on the public display (H-09), so a
    text leaks it when it names it alone, not among the other scripts."""
    others: tuple[str, ...] = ()

    def add(self, card_id: str, name: str | None, public_names: set[str]) -> None:
        self.ids.add(card_id)
        if name and name not in _printed_elsewhere() and name not in public_names:
            self.names.add(name)


def _player(st: PresenceState, slot: str) -> str:
    """The seat that plays a visitor character (P-2P: one player, two characters)."""
    return st.controller.get(slot, slot)


def hidden_from(st: PresenceState, reader: str | None, known: set[str],
                public_names: set[str], script_told: bool = False,
                held: frozenset[str] = frozenset()) -> Hidden:
    """What `reader` (None: the channel) may not know in `st`. `known`: card ids the public
    has seen; `public_names`: names public now; `script_told`: the game-end text may name
    the script; `held`: cards the reader held before this step (it knows them)."""
    h = Hidden()
    spirit = reader == st.spirit_seat
    # a name the reader holds itself (another copy of a card) is no secret to it
    # P-2P-03: the visitor player holds both characters' hands
    mine = st.spirit.hand if spirit else [c for v in st.visitors.values()
                                          if _player(st, v.seat) == reader for c in v.hand]
    public_names = public_names | {_card_name(c) for c in mine}
    # P-BASIC-04 / PR-12: the receiver of a trade offer sees the offered cards
    offered = [str(c) for p in st.prompts if p.kind == "trade_accept" and reader in p.seats
               for c in p.data.get("given", [])]
    known = known | set(offered) | held
    if not spirit:
        if st.script and not st.script_revealed and not script_told:
            sc = PACK.script(st.script)
            # its id and name are also a display script's (public, H-09): the views are
            # checked to hold no script entry, texts for its texts and its name alone
            h.names |= {x for x in (sc.top.text, sc.bottom.text, sc.text) if x}
            h.script = sc.name
            h.others = tuple(PACK.script(x).name for x in st.display_scripts if x != sc.id)
        for c in st.spirit.hand:
            h.add(c, None if c in known else _card_name(c), public_names)
        h.ids |= set(st.spirit.deck) | set(st.spirit.discard)  # H-03, H-04
        # the four secrets carry four different traumas, so the last one left is of
        # the trauma no revealed secret has: saying so is no leak (the guide tells the
        # Invoke's holder, stop 67).
        shown = {PACK.secret(s.card).trauma for s in st.secrets if s.revealed}
        deduced = sum(1 for s in st.secrets if not s.revealed) == 1 and len(shown) == 3
        for slot in st.secrets:
            if not slot.revealed:
                card = PACK.secret(slot.card)
                h.add(slot.card, card.name, public_names)
                h.positions.append((slot.position, card.trauma, card.name))
                if deduced:
                    h.deduced.add(slot.position)
            if st.mystery:  # H-21 in Mystery Mode: the discards are the spirit's, but the
                laid = {c for v in st.visitors.values()  # reader's own it remembers
                        if _player(st, v.seat) == reader for c in v.laid}
                for c in slot.discards:
                    if c not in laid:
                        h.add(c, None if c in known else _card_name(c), public_names)
        for toks in st.tokens.values():
            for t in toks:
                if t.kind == "spirit":
                    h.add(t.id, _token_name(t.id, t.kind), public_names)
        for c in st.clue_box:  # H-13 (and the fear cards left out, H-14)
            h.add(c, _card_name(c), public_names)
        for c in st.drawn_spirit_clues:  # H-25
            h.add(c, _token_name(c, "spirit"), public_names)
        if st.chamber is not None:  # H-35, H-36
            for c in [st.chamber.aside, *st.chamber.cards]:
                h.add(c, None if c in known else _card_name(c), public_names)
        if st.unknown_threat is not None:  # H-39: the spirit's own choices
            public_now = known | {d.card for d in st.drains}
            h.ids |= {c for c in st.unknown_threat.deck if c not in public_now}
            h.ids |= set(st.unknown_threat.clues)
    for toks in st.tokens.values():
        for t in toks:  # H-27: small clues are hidden from every seat
            if t.kind == "small":
                h.add(t.id, _token_name(t.id, t.kind), public_names)
    h.ids |= set(st.clue_deck)  # H-15
    for v in st.visitors.values():
        if _player(st, v.seat) == reader:
            continue
        for c in v.hand:  # H-17, H-18
            # Action card names are printed on many copies in every deck, and a card
            # discarded in public may come back through a reshuffle in the same step: action
            # cards are searched by id, clue cards (one of each) by name as well.
            action = c in _action_ids()
            h.add(c, None if action or c in known else _card_name(c), public_names)
        h.ids |= set(v.deck)  # H-19
    # P-TIME-09 (and PR-25, the chamber): what the reader inspected itself it may read again
    # (P-2P: one player controls both slots, so what either character saw, its player saw)
    slots = [s for s in st.private_seen if st.controller.get(s, s) == reader] if reader else []
    seen = "\n".join(line for s in slots for line in st.private_seen[s])
    if seen:
        h.names = {x for x in h.names if x not in seen}
        h.positions = [p for p in h.positions if p[2] not in seen]
    return h


def _names_the_script(text: str, h: Hidden) -> bool:
    return h.script is not None and h.script in text and not any(o in text for o in h.others)


def text_leaks(text: str, h: Hidden) -> list[str]:
    found = [x for x in h.ids if x in text] + [x for x in h.names if x in text]
    if _names_the_script(text, h):
        found.append(f"the script {h.script}")
    for pos, trauma, _name in h.positions:
        if pos not in h.deduced and re.search(rf"position {pos}\b[^.;]*\b{trauma}\b", text,
                                              re.IGNORECASE):
            found.append(f"position {pos} is {trauma}")
    return found


def value_leaks(value: Any, h: Hidden) -> list[str]:
    """Hidden ids (as whole JSON strings) and names (inside any string) in a JSON value."""
    strings = _json_strings(value)
    text = "\x00".join(strings)
    found = sorted(h.ids & strings) + [x for x in h.names if x in text]
    return found + [f"the script {h.script} in {x!r}" for x in strings
                    if _names_the_script(x, h)]


def view_leaks(view: dict[str, Any], h: Hidden) -> list[str]:
    """Leaks anywhere in the view but the log (past public events, each checked when it
    happened), the seat's own inspections and the display scripts (public content, H-09)."""
    found = value_leaks(dict(view, log=[], inspected=[],
                             scripts=dict(view["scripts"], display=[])), h)
    for pos, _trauma, _name in h.positions:
        slot = view["secrets"][pos - 1]
        if slot["name"] is not None or slot["trauma"] is not None:
            found.append(f"position {pos} named in the secrets list")
    return found


PRIVATE_KEYS = {"seat", "role", "hand", "spirit_private", "inspected", "prompt",
                "laid_face_down"}
"""The keys in which a seat's view may differ from the public view."""


def check_spirit_view(st: PresenceState, view: dict[str, Any]) -> None:
    """H-L4: the spirit's own view holds its script, where each secret lies, what each of its
    face-down clues is, its hand and discard, spirit clues to place and removed clue cards."""
    sp = view["spirit_private"]
    if st.script:  # (Unknown Threat draws it at the end of setup)
        assert sp["script"]["id"] == st.script
        assert sp["script"]["name"] == PACK.script(st.script).name
    else:
        assert sp["script"] is None
    assert [(x["position"], x["id"], x["trauma"]) for x in sp["secrets"]] == [
        (s.position, s.card, PACK.secret(s.card).trauma) for s in st.secrets]
    for room in st.rooms:
        mine = [PACK.spirit_clue_of(t.id).name for t in st.tokens.get(room, [])
                if t.kind == "spirit"]
        assert sp["tokens"].get(room, []) == mine, room
    assert [c["id"] for c in sp["hand"]] == st.spirit.hand
    assert sp["discard"] == [_card_name(c) for c in st.spirit.discard]
    assert sp["drawn_spirit_clues"] == [PACK.spirit_clue_of(c).name
                                        for c in st.drawn_spirit_clues]
    assert sp["removed_clues"] == [_card_name(c) for c in st.clue_box
                                   if not PACK.is_fear_card(c)]
    if st.mystery:  # H-21 in Mystery Mode
        for slot in st.secrets:
            assert [c["id"] for c in view["secrets"][slot.position - 1]["discards"]] == \
                slot.discards
    if st.chamber is not None:  # H-35, H-36
        assert sp["chamber"] == {"aside": _card_name(st.chamber.aside),
                                 "cards": [_card_name(c) for c in st.chamber.cards]}


class Playout:
    """One random playout, checked at every step."""

    def __init__(self, n: int, seed: int, **options: Any) -> None:
        self.st = GAME.setup(seats(n), GAME.options_model(**options), seed)
        self.rng = Rng.from_seed(seed * 31 + 5)
        self.where = f"{n}p seed {seed} {options}"
        self.known: set[str] = set()

    def public_names(self, *views: dict[str, Any]) -> set[str]:
        """Names of every card the public has seen: another copy with the same name is
        indistinguishable from it, so such names are searched by id only."""
        self.known |= set().union(*(_public_ids(v) for v in views)) | _played(self.st)
        return {_card_name(c) for c in self.known}

    def check_state(self, step: int, public: dict[str, Any]) -> None:
        st = self.st
        where = f"{self.where} step {step}"
        names = self.public_names(public)
        h_pub = hidden_from(st, None, self.known, names)
        assert not view_leaks(public, h_pub), (where, "public view", view_leaks(public, h_pub))
        assert public["scripts"]["script"] is None or st.script_revealed, where
        assert all("id" not in t for r in public["rooms"] for t in r["tokens"]), where
        assert "hand" not in public and "spirit_private" not in public, where  # H-L5
        channel = [GAME.board_caption(st) or "", *(GAME.seat_label(st, s) for s in st.seats)]
        hidden = {seat: hidden_from(st, seat, self.known, names) for seat in st.seats}
        for seat in sorted(GAME.to_act(st)):
            # the awaited seat's buttons and prompt (ephemeral, or by DM) ...
            labels = [GAME.describe(st, seat, a) for a in GAME.legal_actions(st, seat)]
            for line in [*labels, GAME.prompt_text(st, seat) or ""]:
                assert not text_leaks(line, hidden[seat]), (where, seat, "choices", line)
            # ... and the public part goes on the public board (issue #14)
            channel += [GAME.describe(st, seat, a) for a in GAME.public_actions(st, seat)]
        for line in channel:
            assert not text_leaks(line, h_pub), (where, "channel", line)
        for seat in st.seats:
            view = GAME.view(st, seat)
            h = hidden[seat]
            # The rest equals the public view, checked above against more secrets (each
            # seat may know a superset of what the public knows).
            own = {k: v for k, v in view.items() if k not in public or public[k] != v}
            # P-MYST-02: in Mystery Mode the spirit alone sees the discards beneath secrets
            may_differ = PRIVATE_KEYS | ({"secrets"} if st.mystery and seat == st.spirit_seat
                                         else set())
            assert set(own) <= may_differ, (where, seat, set(own) - may_differ)
            assert not value_leaks(own, h), (where, seat, value_leaks(own, h))
            summary = GAME.private_summary(st, seat) or ""
            assert not text_leaks(summary, h), (where, seat, "summary", text_leaks(summary, h))
            if seat == st.spirit_seat:
                check_spirit_view(st, view)
                assert "hand" not in view, where
            else:
                assert "spirit_private" not in view, where
                assert view["scripts"]["script"] is None or st.script_revealed, where

    def check_events(self, step: int, before: dict[str, Any], after: dict[str, Any],
                     tokens_before: list[Token], hands_before: dict[str, frozenset[str]],
                     drawn_before: bool, events: list[Event]) -> None:
        st = self.st
        names = self.public_names(before, after)
        # a token revealed by this step (investigated) may be named by its texts
        still_down = {t.id for ts in st.tokens.values() for t in ts}
        names |= {_token_name(t.id, t.kind) for t in tokens_before if t.id not in still_down}
        # the game-end text names the script; a script drawn only at the end of this step
        # (Unknown Threat, after the visitors' public choice of scripts) is in no text of it
        told = st.outcome is not None or not drawn_before
        where = f"{self.where} step {step}"
        for e in events:
            payload = _json_strings(e.data)
            readers: list[str | None] = [None] if e.public else list(e.audience)
            for reader in readers:
                held = hands_before.get(reader, frozenset()) if reader else frozenset()
                h = hidden_from(st, reader, self.known, names, script_told=told, held=held)
                leaks = text_leaks(e.text, h) + sorted(h.ids & payload)
                assert not leaks, (where, reader, e.text, leaks)

    def run(self) -> None:
        for event_text in self.st.log:  # setup's public events
            assert not text_leaks(event_text, hidden_from(self.st, None, set(), set())), \
                event_text
        public = GAME.view(self.st, None)
        for step in range(5000):
            if GAME.result(self.st) is not None:
                return
            self.check_state(step, public)
            tokens = [t for ts in self.st.tokens.values() for t in ts]
            hands = {seat: frozenset(c for v in self.st.visitors.values()
                                     if _player(self.st, v.seat) == seat for c in v.hand)
                     for seat in self.st.seats}
            drawn = bool(self.st.script)
            seat = self.rng.choice(sorted(GAME.to_act(self.st)))
            action = self.rng.choice(GAME.legal_actions(self.st, seat))
            card = str(action.p("card")) if action.kind == "play" else ""
            # a card played is shown to all (P-VIS-06) -- but in Mystery Mode a clue card is
            # played face down: its name must stay out of every text a visitor reads
            if card and not (self.st.mystery and card not in _action_ids()):
                self.known.add(card)
            out = GAME.apply(self.st, seat, action)
            self.st = out.state
            after = GAME.view(self.st, None)
            self.check_events(step, public, after, tokens, hands, drawn, out.events)
            public = after
        raise AssertionError(f"{self.where}: the game did not end")


# The fewest and the most players by default; four (18 s on a loaded two-core machine, stop 70)
# is -m soak's.
@pytest.mark.parametrize("n", [3, pytest.param(4, marks=pytest.mark.soak), 5])
def test_H_L1_H_L4_H_L5_no_reader_sees_what_it_may_not_over_random_playouts(n: int) -> None:
    for k in range(max(1, PLAYOUTS // 3)):
        Playout(n, 1000 + k).run()


VARIANTS: list[dict[str, Any]] = [{"mystery": True}, {"secret_chamber": True},
                                  {"unknown_threat": True}, {"dark_board": True},
                                  {"two_players": True}]


@pytest.mark.parametrize("options", VARIANTS, ids=[next(iter(o)) for o in VARIANTS])
def test_H_21_H_35_H_36_H_39_variants_keep_their_secrets_over_random_playouts(
        options: dict[str, Any]) -> None:
    """Mystery Mode's face-down discards (H-21), the Secret Chamber's set-aside card and
    cards (H-35, H-36), Unknown Threat's spirit choices (H-39), the Dark Board, the 2-player
    game (H-17: the visitor player sees both characters' hands)."""
    for k in range(max(1, PLAYOUTS // 18)):
        n = 2 if options.get("two_players") else 3 + k % 3
        Playout(n, 3000 + k, **options).run()


def test_H_L4_spirit_private_summary_names_its_secrets() -> None:
    from tests.presence.helpers import new_game

    st = new_game(4, 3)
    text = GAME.private_summary(st, SPIRIT) or ""
    assert PACK.script(st.script).name in text
    for slot in st.secrets:
        card = PACK.secret(slot.card)
        # The name says its trauma already ("Betrayal (Spirit I)"): never twice (#22).
        assert f"Secret {slot.position}: {card.name}\n" in text + "\n"
        assert card.trauma.lower() in card.name.lower()
    for room, toks in st.tokens.items():
        names = [PACK.spirit_clue_of(t.id).name for t in toks if t.kind == "spirit"]
        if names:  # by room name, as the players read the board
            assert f"{PACK.room(room).name}: {', '.join(names)}" in text, room
    for c in st.spirit.hand:
        assert PACK.spirit_card(c).name in text
    removed = [PACK.clue_card(c).name for c in st.clue_box if not PACK.is_fear_card(c)]
    assert removed and "Clue cards removed in setup: " + ", ".join(removed) in text  # H-13
    waiting = st.model_copy(deep=True)  # H-25: spirit clues drawn in upkeep, not yet placed
    waiting.drawn_spirit_clues = waiting.spirit_clue_bag[:2]
    names = [PACK.spirit_clue_of(c).name for c in waiting.drawn_spirit_clues]
    assert "Spirit clues to place: " + ", ".join(names) in (
        GAME.private_summary(waiting, SPIRIT) or "")
    for seat in st.visitor_seats:
        mine = GAME.private_summary(st, seat) or ""
        assert PACK.script(st.script).name not in mine
        assert not any(PACK.secret(s.card).name in mine for s in st.secrets)


def test_H_07_P_WIN_06_the_script_told_at_the_end_is_no_longer_hidden() -> None:
    """Stop 68's soak (Unknown Threat, seed 5): a good spirit won with the visitors, its script
    never revealed; the game-over post said "The spirit's script, …, came true …: Good: the
    spirit wins if the visitors win." and the secrets proof read the script's text as hidden.
    The game's end tells the script to everyone ("The spirit's script was …"), so from then
    on its texts are no secret; before the end they are."""
    from rules.presence.engine import Engine
    from tests.presence.helpers import new_game

    st = new_game(3, 5)
    assert st.script and not st.script_revealed
    script = Engine(st).pack.script(st.script)
    texts = [t for t in (script.top.text, script.bottom.text, script.text) if t]
    assert texts and all(t in GAME.public_secrets(st) for t in texts)
    eng = Engine(st)
    eng.finish([], "The game ends.")
    told = [e for e in eng.events if e.text.startswith("The spirit's script was ")]
    assert told and all(e.public for e in told), told
    assert not any(t in GAME.public_secrets(st) for t in texts)
