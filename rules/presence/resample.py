"""What a seat cannot see, dealt anew (issue #21): `deal_unseen` is `Presence.resample`.

The result is a game the seat (or the table, seat None) cannot tell from the real one: its view,
the public view, who is awaited and its own choices are the same, while everything the
hidden-information map (spec Part 5) keeps from it is shuffled back together and dealt again
from what it may know, and the state's RNG (the dice and shuffles to come) is seeded anew.

Hidden from everyone: deck orders (the clue deck H-15, the item deck H-23, each action deck
H-19, the spirit deck H-03), the spirit clue bag (H-26), face-down small clues (H-27), the fear
cards left in the box (H-14), the undrawn scripts (H-08). Hidden from the visitors (and the
table) too: the spirit's hand and face-down discard (H-02, H-04), its script (H-07), the secret
card at each unrevealed position (H-10), the clue cards removed in setup (H-13), the face-down
spirit clues and those waiting for placement (H-24, H-25), the Secret Chamber's cards (H-35,
H-36), and in Mystery Mode the face-down clue discards (H-21) but those the seat's player laid
(A-64). Hidden from all but their owner:
each visitor's hand (H-17); each hand keeps its count of action and clue cards (the backs
differ), action cards dealt from that visitor's own deck (the shared deck in a two-player game,
P-2P-01), clue cards from the clue cards nobody has seen.

The deal depends only on what the seat may know and on `rng`: each pool of unseen cards is put
in a fixed order (sorted) before it is shuffled, and dealt into slots whose number and kind the
view gives (a hidden hand is first sorted by kind: its actions, then its clue cards). The secret
cards are dealt first, an arrangement weighted by how likely the clue cards the seat has seen
make it (the clue cards removed in setup match the secret above each position, P-SETUP-21), so
the removed cards dealt next always fit. Pending prompts and queued work that name a card the
seat cannot see follow that card's slot to its new card; those the seat can see (its own prompt,
a public one) keep their cards, which then stay where they are. What the seat's inspections told
it for good stays too: a secret card at its position, a removed clue card in the box; so does a
failed Invoke's evidence in the public log (the secret there has none of the traumas that lay
face up beneath it).

Not kept (the deal is still a function of the view, only a looser one): inspections whose
knowledge goes stale (the clue deck's top cards, a clue token, the chamber's cards), public
history the view no longer shows (which hand took a revealed clue card; the capped log),
Mystery Mode's reveal tiers (the face-down discards beneath a revealed secret are dealt without
them), and the Unknown Threat's choices (H-39: the spirit's own deck, clues and secret cards
keep their identities; only where they lie is dealt anew).
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable, Iterable
from typing import Any

from rules.core.rng import Rng
from rules.presence.content import Pack
from rules.presence.engine import pack_for
from rules.presence.state import PresenceState, Step, fast_copy

Slot = tuple[list[str], int, str]
"""A place a hidden card is dealt to: (the list, its index, the kind of card it takes)."""

ANY, CLUE, FEAR, ACTION = "any", "clue", "fear", "action"
TRAUMA = "trauma:"
"""A slot kind naming a trauma: a clue card removed in setup under a secret of that trauma."""


def deal_unseen(state: PresenceState, seat: str | None, rng: Rng) -> PresenceState:
    """A copy of `state` with everything hidden from `seat` dealt anew (see the module)."""
    st: PresenceState = fast_copy(state)
    pack = pack_for(st.pack_path)
    knows = _Knowledge(st, seat)
    moved: dict[str, str] = {}
    _scripts(st, knows, rng, moved)
    secrets = _secrets(st, pack, knows, rng, moved)
    _clue_cards(st, pack, knows, secrets, rng, moved)
    _spirit_clues(st, knows, rng, moved)
    _small_clues(st, knows, rng, moved)
    _spirit_cards(st, knows, rng, moved)
    _action_cards(st, pack, knows, rng, moved)
    _items(st, pack, knows, rng)
    _follow(st, knows, moved)
    st.rng = Rng.from_seed(rng.next_u64())  # the dice and shuffles to come (H-41)
    return st


_SAW_SECRET = re.compile(r"Secret at position (\d): (.+)\.$")
_SAW_REMOVED = re.compile(r"A clue card removed in setup: (.+)\.$")
"""The engine's words for an inspected secret card and removed clue card
(`Engine.on_inspect_secret`, `Engine.eff_inspect`): the card's name, which games stored
before #22 follow with its trauma (and room) in brackets."""


def _named(said: str, names: dict[str, str]) -> str | None:
    """The card `said` names: by its whole name, or by the name before a last "(…)"."""
    if said in names:
        return names[said]
    bare = re.sub(r" \([^()]*\)$", "", said)
    return names.get(bare)


class _Knowledge:
    """Who is looking: the spirit, a visitor player (its character slots), or the table; and
    the cards it sees named in pending prompts and queued work, which stay where they are."""

    def __init__(self, st: PresenceState, seat: str | None) -> None:
        self.spirit = seat is not None and seat == st.spirit_seat
        self.mine = {s for s in st.visitors if seat is not None
                     and st.controller.get(s, s) == seat}
        if seat is not None and not self.spirit:
            self.mine.add(seat)
        self.seat = seat
        self.pinned: set[str] = set()
        for p in st.prompts:
            if self.sees_prompt(st, p.seats, p.data):
                self.pinned |= _strings(p.data)
        for step in [*st.queue, *st.declared]:
            if self.sees_step(st, step):
                self.pinned |= _strings(step.args)
        self.secrets: dict[int, str] = {}
        """Position index -> the secret card the seat inspected there (it never moves)."""
        if not self.spirit:
            self._inspected(st)
        for slot in self.mine:  # Mystery Mode's face-down cards this player laid
            v = st.visitors.get(slot)
            if v is not None:
                self.pinned |= set(v.laid)

    def _inspected(self, st: PresenceState) -> None:
        """What the seat's inspections (P-TIME-09, its `inspected` lines) told it for good: a
        secret card at a position, a clue card removed in setup (the box never changes)."""
        pack = pack_for(st.pack_path)
        secrets = {pack.secret(slot.card).name: slot.card for slot in st.secrets}
        removed = {pack.clue_card(c).name: c for c in st.clue_box if not pack.is_fear_card(c)}
        for slot in sorted(self.mine):
            for line in st.private_seen.get(slot, []):
                if (m := _SAW_SECRET.match(line)) and (card := _named(m.group(2), secrets)):
                    self.secrets[int(m.group(1)) - 1] = card
                elif (m := _SAW_REMOVED.match(line)) and (card := _named(m.group(1), removed)):
                    self.pinned.add(card)

    def sees_prompt(self, st: PresenceState, seats: list[str], data: dict[str, Any]) -> bool:
        hidden = bool(data.get("private")) or seats == [st.spirit_seat]
        return not hidden or any(self.owns(s) for s in seats)

    def sees_step(self, st: PresenceState, step: Step) -> bool:
        who = step.args.get("seat")
        return isinstance(who, str) and self.owns(who)

    def owns(self, slot: str) -> bool:
        return slot in self.mine or (self.spirit and slot == self.seat)


def _strings(obj: Any) -> set[str]:
    if isinstance(obj, str):
        return {obj}
    if isinstance(obj, dict):
        return set().union(*(_strings(v) for v in obj.values())) if obj else set()
    if isinstance(obj, (list, tuple)):
        return set().union(*(_strings(v) for v in obj)) if obj else set()
    return set()


def _deal(slots: list[Slot], rng: Rng, moved: dict[str, str],
          fits: Callable[[str, str], bool] = lambda kind, card: True,
          extra: Iterable[str] = ()) -> None:
    """Shuffle the cards in `slots` (and `extra`, cards lying nowhere) in sorted order, then
    deal them back: the most demanding slot kinds first, each the first card that fits."""
    pool = sorted([s[0][s[1]] for s in slots] + list(extra))
    rng.shuffle(pool)
    order = sorted(range(len(slots)), key=lambda i: _demand(slots[i][2]))
    for i in order:
        cards, index, kind = slots[i]
        pick = next((j for j, c in enumerate(pool) if fits(kind, c)), None)
        if pick is None:  # cannot happen for a state that keeps its invariants
            raise ValueError(f"no unseen card fits a {kind} slot")
        moved.setdefault(cards[index], pool[pick])
        cards[index] = pool.pop(pick)


def _demand(kind: str) -> int:
    return 0 if kind.startswith(TRAUMA) else {CLUE: 1, FEAR: 2, ACTION: 2}.get(kind, 3)


def _slots(cards: list[str], kind: str, knows: _Knowledge) -> list[Slot]:
    return [(cards, i, kind) for i, c in enumerate(cards) if c not in knows.pinned]


# ---- the zones --------------------------------------------------------------------------------


def _scripts(st: PresenceState, knows: _Knowledge, rng: Rng, moved: dict[str, str]) -> None:
    """H-07, H-08: the undrawn scripts; the drawn one too unless the seat is the spirit or it
    is revealed."""
    slots = _slots(st.script_pool, ANY, knows)
    holder = [st.script]
    if st.script and not st.script_revealed and not knows.spirit:
        slots += _slots(holder, ANY, knows)
    _deal(slots, rng, moved)
    st.script = holder[0]


def _secrets(st: PresenceState, pack: Pack, knows: _Knowledge, rng: Rng,
             moved: dict[str, str]) -> list[str] | None:
    """H-10: the unrevealed secret cards among their positions, for a seat that is not the
    spirit. Each arrangement is weighted by the chance that the clue cards removed in setup
    (so many of the trauma above each position, P-SETUP-21) avoided every clue card the seat
    has seen. Returns the trauma above each position (None: the seat knows them)."""
    if knows.spirit or not st.secrets:
        return None
    remove = [p.remove for p in pack.secret_board(st.n).positions]
    total: dict[str, int] = {}
    for clue in pack.clue_cards_for(st.n):
        total[clue.trauma] = total.get(clue.trauma, 0) + 1
    unseen = dict.fromkeys(total, 0)
    for card in _unseen_clue_cards(st, pack, knows):
        trauma = pack.clue_card(card).trauma
        unseen[trauma] = unseen.get(trauma, 0) + 1
    known = dict.fromkeys(total, 0)  # removed clue cards the seat inspected
    for card in st.clue_box:
        if card in knows.pinned and not pack.is_fear_card(card):
            trauma = pack.clue_card(card).trauma
            known[trauma] = known.get(trauma, 0) + 1
    # chance[k][t]: that the cards removed under position k, of trauma t, are all unseen;
    # in whole numbers over a common denominator per position
    chance: list[dict[str, int]] = []
    for r in remove:
        ways = {t: math.comb(n, r) or 1 for t, n in total.items()}
        common = math.lcm(*ways.values()) if ways else 1
        chance.append({t: (math.comb(unseen.get(t, 0), r - known[t]) if r >= known[t] else 0)
                       * (common // ways[t]) for t in total})
    hidden = [k for k, slot in enumerate(st.secrets) if not slot.revealed
              and knows.secrets.get(k) != slot.card]
    traumas = {slot.card: pack.secret(slot.card).trauma for slot in st.secrets}
    banned = _failed_invokes(st, pack, knows)
    options: list[tuple[tuple[str, ...], int]] = []
    for ban in (banned, {}):  # evidence that rules out every arrangement is set aside
        for order in itertools.permutations(sorted(st.secrets[k].card for k in hidden)):
            dealt = [slot.card for slot in st.secrets]
            for k, card in zip(hidden, order, strict=True):
                dealt[k] = card
            weight = 1
            for k, card in enumerate(dealt):
                weight *= 0 if traumas[card] in ban.get(k, ()) else chance[k].get(
                    traumas[card], 0)
            if weight:
                options.append((order, weight))
        if options:
            break
    if options:
        roll = rng.below(sum(w for _, w in options))
        for order, weight in options:
            if roll < weight:
                for k, card in zip(hidden, order, strict=True):
                    moved.setdefault(st.secrets[k].card, card)
                    st.secrets[k].card = card
                break
            roll -= weight
    return [pack.secret(s.card).trauma for s in st.secrets]


def _failed_invokes(st: PresenceState, pack: Pack, knows: _Knowledge) -> dict[int, set[str]]:
    """Position index -> traumas it cannot hold: an Invoke there failed (public, H-38;
    `SecretSlot.failed` keeps every failure) while clue cards of those traumas lay face up
    beneath it (one matching card reveals, P-SECRET-03). Mystery Mode's discards are face
    down: only the cards the seat laid itself rule anything out (A-64)."""
    out: dict[int, set[str]] = {}
    for k, slot in enumerate(st.secrets):
        if not slot.failed or slot.revealed:
            continue
        out[k] = {pack.clue_card(c).trauma for c in slot.discards[:max(slot.failed)]
                  if not pack.is_fear_card(c) and (not st.mystery or c in knows.pinned)}
    return out


def _hidden_hands(st: PresenceState, knows: _Knowledge) -> list[str]:
    """The visitor slots whose hands the seat cannot see, each hand sorted by kind (its action
    cards, then its clue cards; cards the seat saw named stay first) so that its order says
    no more than its public counts."""
    out = []
    pack = pack_for(st.pack_path)
    for s in st.visitor_seats:
        v = st.visitors.get(s)
        if v is None or knows.owns(s):
            continue
        seen = [c for c in v.hand if c in knows.pinned]
        rest = [c for c in v.hand if c not in knows.pinned]
        v.hand = (seen + [c for c in rest if _is_action(pack, c)]
                  + [c for c in rest if not _is_action(pack, c)])
        out.append(s)
    return out


def _unseen_clue_cards(st: PresenceState, pack: Pack, knows: _Knowledge) -> list[str]:
    """The clue cards (not fear cards) in the zones dealt by `_clue_cards`."""
    return [st_list[i] for st_list, i, _ in _clue_slots(st, pack, knows, None)
            if not pack.is_fear_card(st_list[i])]


def _clue_slots(st: PresenceState, pack: Pack, knows: _Knowledge,
                traumas: list[str] | None) -> list[Slot]:
    """Where unseen clue and fear cards lie: the clue deck (H-15), the fear cards left in the
    box (H-14), the other hands' clue cards (H-17); for a seat that is not the spirit also the
    removed clue cards (H-13, by the trauma of their position when `traumas` is given), the
    Secret Chamber (H-35, H-36) and Mystery Mode's face-down discards (H-21)."""
    slots = _slots(st.clue_deck, ANY, knows)
    box_clues = [c for c in st.clue_box if not pack.is_fear_card(c)]
    if knows.spirit:
        slots += [(st.clue_box, i, FEAR) for i, c in enumerate(st.clue_box)
                  if pack.is_fear_card(c) and c not in knows.pinned]
    else:
        remove = [p.remove for p in pack.secret_board(st.n).positions]
        aside = 1 if st.chamber is not None else 0
        kinds = [TRAUMA + t for t, r in zip(traumas or [], remove, strict=False)
                 for _ in range(r)]
        known = sorted(c for c in box_clues if c in knows.pinned)
        for card in known:  # an inspected removed card fills one place of its trauma
            kind = TRAUMA + pack.clue_card(card).trauma
            if kind in kinds[aside:]:
                del kinds[kinds.index(kind, aside)]
        if traumas is not None and len(box_clues) + aside == sum(remove) \
                and len(kinds) == len(box_clues) - len(known) + aside:
            # P-SETUP-21 / P-CHAMBER-01: the box holds so many cards of each secret's trauma;
            # position 1's first one lies aside at the Secret Chamber
            fears = [c for c in st.clue_box if pack.is_fear_card(c)]
            free = [c for c in box_clues if c not in knows.pinned]
            st.clue_box = known + free + fears  # reordered: its order is nobody's to see
            slots += [(st.clue_box, len(known) + i, kind)
                      for i, kind in enumerate(kinds[aside:])]
            slots += [(st.clue_box, len(box_clues) + i, FEAR) for i in range(len(fears))]
            if st.chamber is not None:
                slots.append((_ChamberAside(st), 0, kinds[0]))
        else:
            slots += [(st.clue_box, i, FEAR if pack.is_fear_card(c) else CLUE)
                      for i, c in enumerate(st.clue_box) if c not in knows.pinned]
            if st.chamber is not None and st.chamber.aside not in knows.pinned:
                slots.append((_ChamberAside(st), 0, CLUE))
        if st.chamber is not None:
            slots += _slots(st.chamber.cards, ANY, knows)
        if st.mystery:
            for secret in st.secrets:
                slots += _slots(secret.discards, CLUE, knows)
    for slot in st.visitor_seats:
        v = st.visitors.get(slot)
        if v is None or knows.owns(slot):
            continue
        slots += [(v.hand, i, CLUE) for i, c in enumerate(v.hand)
                  if c not in knows.pinned and not _is_action(pack, c)]
    return slots


class _ChamberAside(list[str]):
    """The Secret Chamber's set-aside card as a one-card list a slot can point at."""

    def __init__(self, st: PresenceState) -> None:
        assert st.chamber is not None
        super().__init__([st.chamber.aside])
        self.st = st

    def __setitem__(self, index: Any, value: Any) -> None:
        super().__setitem__(index, value)
        assert self.st.chamber is not None
        self.st.chamber.aside = value


def _clue_cards(st: PresenceState, pack: Pack, knows: _Knowledge, traumas: list[str] | None,
                rng: Rng, moved: dict[str, str]) -> None:
    _hidden_hands(st, knows)

    def fits(kind: str, card: str) -> bool:
        fear = pack.is_fear_card(card)
        if kind == ANY:
            return True
        if kind == FEAR:
            return fear
        if fear:
            return False
        return kind == CLUE or pack.clue_card(card).trauma == kind[len(TRAUMA):]

    _deal(_clue_slots(st, pack, knows, traumas), rng, moved, fits)


def _spirit_clues(st: PresenceState, knows: _Knowledge, rng: Rng,
                  moved: dict[str, str]) -> None:
    """H-26 the bag; for a seat that is not the spirit, the face-down spirit clues on the
    board (H-24) and those waiting for placement (H-25) too."""
    slots = _slots(st.spirit_clue_bag, ANY, knows)
    if not knows.spirit:
        holders = []
        for room in st.tokens:
            for t in st.tokens[room]:
                if t.kind == "spirit" and t.id not in knows.pinned:
                    holders.append(t)
        ids = [t.id for t in holders]
        slots += [(ids, i, ANY) for i in range(len(ids))]
        slots += _slots(st.drawn_spirit_clues, ANY, knows)
        _deal(slots, rng, moved)
        for t, new in zip(holders, ids, strict=True):
            t.id = new
        return
    _deal(slots, rng, moved)


def _small_clues(st: PresenceState, knows: _Knowledge, rng: Rng, moved: dict[str, str]) -> None:
    """H-27: small clues, face down on the board and in their pile, are nobody's to know."""
    holders = [t for room in st.tokens for t in st.tokens[room]
               if t.kind == "small" and t.id not in knows.pinned]
    ids = [t.id for t in holders]
    slots = [(ids, i, ANY) for i in range(len(ids))] + _slots(st.small_clue_pile, ANY, knows)
    _deal(slots, rng, moved)
    for t, new in zip(holders, ids, strict=True):
        t.id = new


def _spirit_cards(st: PresenceState, knows: _Knowledge, rng: Rng,
                  moved: dict[str, str]) -> None:
    """H-03 the spirit deck; for a seat that is not the spirit its hand (H-02) and face-down
    discard (H-04) too."""
    sp = st.spirit
    slots = _slots(sp.deck, ANY, knows)
    if not knows.spirit:
        slots += _slots(sp.hand, ANY, knows) + _slots(sp.discard, ANY, knows)
    _deal(slots, rng, moved)


def _action_cards(st: PresenceState, pack: Pack, knows: _Knowledge, rng: Rng,
                  moved: dict[str, str]) -> None:
    """H-19 each action deck; the action cards in the hands the seat cannot see (H-17) are
    dealt from the deck they came from (the shared one in a two-player game, P-2P-01)."""
    holders: dict[str, list[str]] = {}
    for s in st.visitor_seats:
        if s in st.visitors:
            holders.setdefault(st.controller.get(s, s), []).append(s)
    for holder, group in holders.items():
        if holder not in st.visitors:
            continue
        slots = _slots(st.visitors[holder].deck, ANY, knows)
        for s in group:
            if not knows.owns(s):
                hand = st.visitors[s].hand
                slots += [(hand, i, ACTION) for i, c in enumerate(hand)
                          if c not in knows.pinned and _is_action(pack, c)]
        _deal(slots, rng, moved)


def _items(st: PresenceState, pack: Pack, knows: _Knowledge, rng: Rng) -> None:
    """H-23 / H-14: the item deck's order, and which of the random items lie in it or in the
    box; the special items not yet seen are always in the deck (P-SETUP-18)."""
    seen = set(st.cellar) | {i for v in st.visitors.values() for i in v.items}
    for p in st.prompts:
        seen |= _strings(p.data)
    for step in [*st.queue, *st.declared]:
        seen |= _strings(step.args)
    specials, randoms_all = _item_kinds(pack)
    special = [i for i in specials if i not in seen]
    randoms = [i for i in randoms_all if i not in seen]
    size = len(st.item_deck)
    if len(special) > size or len(randoms) + len(special) != size + st.item_box_count:
        st.item_deck = rng.shuffled(sorted(st.item_deck))  # not one setup deals: keep its cards
        return
    rng.shuffle(randoms)
    deck = special + randoms[:size - len(special)]
    rng.shuffle(deck)
    st.item_deck = deck


_ITEM_KINDS: dict[int, tuple[Pack, list[str], list[str]]] = {}


def _item_kinds(pack: Pack) -> tuple[list[str], list[str]]:
    """The pack's special and random item instances, sorted (looked up once per pack)."""
    hit = _ITEM_KINDS.get(id(pack))
    if hit is None or hit[0] is not pack:
        hit = (pack, sorted(pack.special_item_ids()), sorted(pack.random_item_ids()))
        _ITEM_KINDS[id(pack)] = hit
    return hit[1], hit[2]


def _follow(st: PresenceState, knows: _Knowledge, moved: dict[str, str]) -> None:
    """Prompts and queued work the seat cannot see follow each card they name to the card now
    dealt in its place."""
    moved = {old: new for old, new in moved.items() if old != new}
    if not moved:
        return
    for p in st.prompts:
        if not knows.sees_prompt(st, p.seats, p.data):
            p.data = _renamed(p.data, moved)
    for step in [*st.queue, *st.declared]:
        if not knows.sees_step(st, step):
            step.args = _renamed(step.args, moved)
    for slot, v in st.visitors.items():  # another player's memory of its face-down
        if not knows.owns(slot):         # cards follows them to the cards dealt there
            v.laid = [moved.get(c, c) for c in v.laid]


def _renamed(obj: Any, moved: dict[str, str]) -> Any:
    if isinstance(obj, str):
        return moved.get(obj, obj)
    if isinstance(obj, dict):
        return {k: _renamed(v, moved) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_renamed(v, moved) for v in obj]
    return obj


def _is_action(pack: Pack, card: str) -> bool:
    try:
        pack.action_card(card)
    except KeyError:
        return False
    return True
