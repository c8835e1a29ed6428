"""The Presence AI: a sensible legal move for any seat, visitor or spirit (issue #5).

`choose_action(state, seat)` always returns one of ``GAME.legal_actions(state, seat)``. It
never mutates the state and uses no randomness (ties go to the first legal action), so the
same state always gives the same answer. It looks nothing ahead with `apply`: every choice is
a score read off the content's effect lists (``op`` by ``op``), which keeps a decision to a
millisecond or two and keeps the visitors honest.

What each side may read (spec Part 5). A visitor reads only what its own view holds: the
public board (rooms, face-down token *kinds*, dice, doors, candles, fear, hand counts), the
public secret board (clue discards beneath each position, revealed secrets, the printed
``in_deck`` counts), the revealed clue row, the public log, and its own hand. It never reads
an unrevealed secret card, the clue deck's order, another hand or a token's identity. The
spirit reads what the spirit may see: its script, the secret cards, its hand and the board;
it does not read visitors' hands either (only their counts). For the search AI
(`rules.core.search`) the module also gives `win_estimate`: the chance of the seat's side
winning, read off the public progress of the game, where a play-out stops.

The visitors' plan (P-WIN-01, P-SECRET, P-CLUE). Which trauma lies at which position is
inferred from public counts: position k's trauma has ``in_deck[k]`` clue cards in the deck,
so every assignment of the four traumas to the four positions is weighted by the
multivariate hypergeometric likelihood of the clue cards seen so far (own hand, discards,
revealed row), with revealed secrets fixed and every failed Invoke of the game ruled out
(`Deduction`, reading `SecretSlot.failed`, never the log, which keeps only its last lines).
A clue card goes beneath the position where it is worth most over the assignments still
possible: the chance its trauma lies there times what one more matching card adds there (the
first lets an Invoke reveal it, the next lift the tier), so the rarest trauma's few cards
are not piled onto a guess that already has enough (`Deduction.placement`, #23), and that
worth shrinks with the cards of its trauma still to come there, so a card is spent where it is
likeliest to be the one an Invoke needs (the rare traumas' positions); a clue card whose place
is still a guess is kept in hand rather than spent. A middle reveal's bonus goes to nerve
unless hope is much nearer the time marker: nerve is what keeps the visitors from
succumbing (`NERVE_WEIGHT`).
Invoke targets the position whose reveal has the best expected tier and waits until the
reveal is likely to succeed (a low tier only from round 7 on); from round 7 the Invoke card's
keeping value runs out (`scarcity`), so a late turn tries any chance rather than ending idle
with it in hand. A visitor without
its Invoke card while a secret is ready Rests with a thin hand to dig for it. Between reveals
the visitors walk to rooms with clue tokens or to the rooms of the clue cards they hold (a
clue card played in its room draws another), Investigate, draw clue cards, cure fear before
a knock-out (more so once the nerve marker is near the time marker), relight candles, take
a revealed clue card when its trauma still helps, and Rest when their hand runs low. Once
the script is revealed they also work toward its extra condition where an effect can (light,
fear cards). With the Secret Chamber in play (P-CHAMBER) they Uncover its passage where it is
likely to be (`passage_odds`: a room of position 1's likely trauma whose clue card nobody has
seen face up or holds, and no Uncover searched in vain), walk to a room likely enough, and once
it is open go in for its clue cards.

The spirit's plan (P-WIN-04, P-SCRIPT). The active half of its script decides. *Harm* (an
evil script, any revealed script, whose win is a succumbed or knocked-out visitor): powers
that cause fear, smother candles and isolate visitors, dice moved and raised next to the
visitors, fear cards set off (a die entering the room, a door closed, a visitor targeted),
every fear bonus taken, drains paid, with most weight on the visitor whose knock-out would
cost the nerve marker or make them succumb; spirit clues (which draw the visitors clue
cards) go far from them. *Help* (a good script while hidden, which wins with the visitors):
spirit clues go next to the visitors, no fear bonus, drains released, and only powers that
help (cure, trash a fear card, draw or reveal clue cards) are played, with presence gathered
by the visitors for them. A good spirit turns to its bottom half early when its marker is
about to be lost or the visitors fall behind (more than one unrevealed secret per two
rounds left): that half wins by a succumbed visitor once the script is revealed.
"""

from __future__ import annotations

import functools
import itertools
import math
import statistics
from collections import Counter
from typing import Any

from rules.core.errors import IllegalAction
from rules.core.game import Game
from rules.core.types import Action
from rules.presence import actions as K
from rules.presence.engine import Engine, dump_effects
from rules.presence.engine.unknown_threat import UT_PAGE
from rules.presence.state import PresenceState, VisitorState

TRAUMAS: tuple[str, ...] = ("betrayal", "tragedy", "suffering", "death")

INVESTIGATE = 7.0
"""Revealing a clue token: it draws clue cards (spirit clues) or cards/items (small clues).
Worth less than two clue cards drawn outright (``DRAW_CLUE`` each: evidence the seat reads
at once, #23 stop 33; it was 10, level with them)."""
DRAW_CLUE = 5.0
CARD_COST = 1.0
"""Playing an action card uses it up until the deck reshuffles."""
INVOKE_CARD_COST = 5.0
"""An Invoke card is scarce (one per deck in the shipped pack): spending it costs more."""
PROGRESS_BASE = 6.0
PROGRESS_PER_ROUND = 2.0
"""A revealed secret is worth more as the rounds run out (P-WIN-01: all four by round 9)."""
TIER_VALUE = {"low": -5.0, "middle": 3.0, "high": 5.0}
"""Low costs hope and nerve, middle raises one, high both (G-05 default secrets)."""
INVOKE_FAIL = 10.0
"""A failed Invoke wastes the scarce Invoke card that a later, surer reveal needed."""
LATE_ROUND = 7
"""From this round on a low-tier reveal beats no reveal (four are needed by round 9)."""
SURE = 0.6
"""A clue card goes beneath a secret willingly once its trauma's place is this likely."""
DIG = 5.0
"""Extra worth of a Rest that digs for the Invoke card a ready secret needs."""
DIG_KEEP = 3.5
"""While digging, action cards kept through a Rest must be worth at least this."""
NEED = 8.0
"""Meeting the revealed script's extra visitor condition (P-WIN-02) is worth this much."""
UNCOVER = 12.0
"""Opening the Secret Chamber (G-17: its clue cards to take into hand, a secret to inspect),
times the chance the passage is in the room (`passage_odds`); an Uncover that finds nothing
costs the main action (`UNCOVER_MISS`), so a long shot waits for a turn with nothing better."""
UNCOVER_MISS = 2.0
PASSAGE_SURE = 0.34
"""A room at least this likely to hold the passage is worth walking to, to Uncover it."""
QUICK_MIN = 0.5
"""A quick action is free: take it when it helps at all."""
CARD_FIRST = 10.0
"""One matching clue card beneath a secret lets an Invoke reveal it (G-09)."""
CARD_TIER = {"middle": 6.0, "high": 2.0}
"""A further matching card that lifts the reveal to this tier (G-05: low costs hope and
nerve, middle raises one, high both)."""
SCARCE = 1.0
"""How much a clue card's worth beneath a position shrinks with every card of its trauma
still to come there (`Deduction.placement`): if its trauma is that position's, each of the
``in_deck`` cards not yet seen could still be the one matching card an Invoke needs, so this
card is likelier to be *the* one where few are left (G-04, #23 stop 33)."""
NERVE_WEIGHT = 2.0
"""A visitor weighs the nerve marker this much above hope: once nerve is lost every
knock-out and every low reveal makes a visitor succumb (P-FEAR-03, P-TRACK-05), and nearly
every revealed script wins on a succumbed visitor (P-WIN-04; #23 stop 33)."""
INF = 10**6

_EFFECTS_CACHE: dict[int, tuple[Any, list[dict[str, Any]]]] = {}


def _dicts(effects: Any) -> list[dict[str, Any]]:
    """Effect models as plain dicts (cached per content object: packs are frozen)."""
    if not effects:
        return []
    if isinstance(effects, list) and effects and isinstance(effects[0], dict):
        return effects
    key = id(effects)
    hit = _EFFECTS_CACHE.get(key)
    if hit is not None and hit[0] is effects:
        return hit[1]
    out = dump_effects(effects)
    _EFFECTS_CACHE[key] = (effects, out)
    return out


_DIST_CACHE: dict[tuple[Any, ...], dict[str, int]] = {}
"""`Board.dist_to`'s maps by (every door's id, rooms, open, locked; the target room): the
distances depend on nothing else, and a search's play-outs ask for the same few thousand
times a decision (a tenth of a play-out's CPU was spent finding them anew)."""
_DIST_CACHE_SIZE = 4096
_MATCHING_CACHE: dict[tuple[Any, ...], tuple[Any, dict[int, float]]] = {}
"""`Deduction.matching_dist` by (its assignments, which `_weighted_assignments` keeps and
hands out again for the same evidence; the position; the traumas beneath it)."""
_MATCHING_CACHE_SIZE = 4096


# ====================================================================== shared reading


class Board:
    """Geometry and people, read from public state only."""

    def __init__(self, eng: Engine) -> None:
        self.eng = eng
        self.st = eng.st
        self._dist: dict[str, dict[str, int]] = {}
        self._doors_key: tuple[tuple[Any, ...], ...] | None = None
        self.targets: dict[str, str | None] = {}
        self.pull: dict[str, float] = {}
        self.plays: dict[str, tuple[float, int | None]] = {}
        self.passage: dict[str, dict[str, float]] = {}

    def door_cost(self, did: str) -> int:
        d = self.st.doors[did]
        if d.open:
            return 1
        return INF if d.locked else 2

    def dist_to(self, target: str) -> dict[str, int]:
        """Movement points from every room to `target` (open door 1, closed 2). Read-only:
        the same map is handed to every caller (and kept across boards whose doors stand
        the same way, `_DIST_CACHE`)."""
        hit = self._dist.get(target)
        if hit is not None:
            return hit
        if self._doors_key is None:
            self._doors_key = tuple((d.id, *d.rooms, d.open, d.locked)
                                    for d in self.st.doors.values())
        key = (self._doors_key, target)
        hit = _DIST_CACHE.get(key)
        if hit is not None:
            self._dist[target] = hit
            return hit
        dist = {target: 0}
        frontier = [target]
        while frontier:
            frontier.sort(key=lambda r: dist[r])
            room = frontier.pop(0)
            for did in self.eng.doors_of(room):
                c = self.door_cost(did)
                if c >= INF:
                    continue
                other = self.eng.other_side(did, room)
                nd = dist[room] + c
                if nd < dist.get(other, INF):
                    dist[other] = nd
                    frontier.append(other)
        self._dist[target] = dist
        if len(_DIST_CACHE) >= _DIST_CACHE_SIZE:
            _DIST_CACHE.clear()
        _DIST_CACHE[key] = dist
        return dist

    def dist(self, a: str, b: str) -> int:
        return self.dist_to(b).get(a, INF)

    def danger(self, v: VisitorState) -> float:
        """How close a visitor is to a knock-out (0 far .. 1 next fear knocks out)."""
        track = self.eng.pack.visitor(v.character).fear_track
        left = track - v.fear
        return 1.0 if left <= 1 else 1.0 / left

    def fear_cost(self, v: VisitorState, n: int) -> float:
        """What `n` fear costs the visitors: more near a knock-out, most when it succumbs."""
        if v.knocked_out or v.succumbed or n <= 0:
            return 0.0
        track = self.eng.pack.visitor(v.character).fear_track
        left = track - v.fear
        cost = 2.0 * min(n, left)
        if n >= left:
            cost += 25.0 if self.st.nerve is None else 10.0
        elif left - n == 1:
            cost += 2.0
        return cost


# ====================================================================== deduction


@functools.lru_cache(maxsize=512)  # a whole search meets ~100 evidences; ~10 KB each
def _weighted_assignments(in_deck: tuple[int, ...], seen: tuple[int, ...],
                          fixed: tuple[tuple[str, int], ...],
                          banned: tuple[tuple[int, tuple[str, ...]], ...]
                          ) -> list[tuple[dict[str, int], float]]:
    """Every trauma->position assignment the evidence allows, with its probability
    (`Deduction`). Memoized: a search builds a Deduction thousands of times a decision from a
    handful of distinct evidences. The caller never changes the list or its dicts."""
    fixed_at = dict(fixed)
    banned_at = {p: set(ts) for p, ts in banned}
    seen_of = dict(zip(TRAUMAS, seen, strict=True))
    perms: list[tuple[dict[str, int], float]] = []
    total = 0.0
    for perm in itertools.permutations(range(4)):
        sigma = dict(zip(TRAUMAS, perm, strict=True))
        if any(sigma[t] != p for t, p in fixed_at.items()):
            continue
        if any(t in banned_at.get(sigma[t], set()) for t in TRAUMAS):
            continue
        w = 1.0
        for t in TRAUMAS:
            w *= math.comb(in_deck[sigma[t]], seen_of[t])
        if w > 0:
            perms.append((sigma, w))
            total += w
    if not perms:  # inconsistent evidence (a custom pack): fall back to uniform
        perms = [(dict(zip(TRAUMAS, perm, strict=True)), 1.0)
                 for perm in itertools.permutations(range(4))]
        total = 24.0
    return [(s, w / total) for s, w in perms]


_DEDUCTION_CACHE: dict[tuple[Any, ...], Deduction] = {}
"""`deduction`'s answers by everything a Deduction reads (`_deduction_key`): a search's
play-outs build one for nearly every visitor decision from a few dozen distinct evidences."""
_DEDUCTION_CACHE_SIZE = 4096


def _deduction_key(eng: Engine, seat: str | None) -> tuple[Any, ...]:
    """Everything `Deduction.__init__` reads of the game: the pack and board, who looks (the
    spirit sees Mystery Mode's face-down discards), the revealed secrets' cards, every
    secret's position, discards and failures, the revealed clue cards and the clue cards in
    the seat's player's hand."""
    st = eng.st
    hand: tuple[str, ...] = ()
    if seat is not None and seat in st.visitors:
        hand = tuple(sorted(c for c in eng.player_hand(seat) if not eng.is_action_card(c)))
    laid: tuple[str, ...] = ()
    if st.mystery and seat is not None and seat in st.visitors:
        laid = tuple(sorted(eng.player_laid(seat)))
    return (st.pack_path, st.n, st.secret_tiers, st.mystery and seat != st.spirit_seat,
            tuple((s.card if s.revealed else "", s.position, tuple(s.discards),
                   tuple(s.failed)) for s in st.secrets),
            tuple(st.clue_revealed), hand, laid)


def deduction(eng: Engine, seat: str | None) -> Deduction:
    """`Deduction(eng, seat)`, shared by every caller with the same evidence (its answers
    depend on that alone, and callers only read it)."""
    key = _deduction_key(eng, seat)
    hit = _DEDUCTION_CACHE.get(key)
    if hit is None:
        if len(_DEDUCTION_CACHE) >= _DEDUCTION_CACHE_SIZE:
            _DEDUCTION_CACHE.clear()
        hit = _DEDUCTION_CACHE[key] = Deduction(eng, seat)
    return hit


class Deduction:
    """Which trauma lies at which position, from what `seat` may see (P-SECRET-01).

    Weights every trauma->position assignment by the hypergeometric likelihood of the clue
    cards seen so far; revealed secrets fix their position, every failed Invoke (public,
    `SecretSlot.failed`) excludes the traumas that lay beneath that position at that moment.
    """

    def __init__(self, eng: Engine, seat: str | None) -> None:
        st = eng.st
        pack = eng.pack
        board = eng.secret_board()
        self.board = board
        in_deck = [p.in_deck for p in board.positions]
        self.in_deck = in_deck
        seen: Counter[str] = Counter()
        self.beneath: list[list[str]] = []
        # Mystery Mode (P-MYST-02): the discards lie face down and a visitor may not look,
        # but it knows those its player laid (A-67): forgetting them (stop 69) read every
        # clue card of a trauma as its first and stacked them all beneath one guess.
        face_down = st.mystery and seat != st.spirit_seat
        self.face_down = face_down
        laid = eng.player_laid(seat) if face_down and seat in st.visitors else set()
        self.known: list[list[tuple[int, str]]] = []
        """Per position: (index beneath it, trauma) of each clue card the seat knows there."""
        for slot in st.secrets:
            known: list[tuple[int, str]] = [
                (i, pack.clue_card(c).trauma) for i, c in enumerate(slot.discards)
                if not pack.is_fear_card(c) and (not face_down or c in laid)]
            tr: list[str] = [t for _, t in known]
            seen.update(tr)
            self.known.append(known)
            self.beneath.append(tr)
        seen.update(pack.clue_card(c).trauma for c in st.clue_revealed
                    if not pack.is_fear_card(c))
        if seat is not None and seat in st.visitors:  # both hands of a 2-player visitor
            seen.update(pack.clue_card(c).trauma for c in eng.player_hand(seat)
                        if not eng.is_action_card(c))
        self.seen = seen
        fixed: dict[str, int] = {}
        for slot in st.secrets:
            if slot.revealed:
                fixed[pack.secret(slot.card).trauma] = slot.position - 1
        banned = self._failed_invokes(st)
        self.revealed = [s.revealed for s in st.secrets]
        self._placement = {}
        self._matching: dict[int, dict[int, float]] = {}
        self.perms = _weighted_assignments(
            tuple(in_deck), tuple(seen[t] for t in TRAUMAS), tuple(sorted(fixed.items())),
            tuple(sorted((p, tuple(sorted(ts))) for p, ts in banned.items())))

    def _failed_invokes(self, st: PresenceState) -> dict[int, set[str]]:
        """Position -> traumas that lay beneath it when an Invoke there failed (every failure
        of the game, `SecretSlot.failed`: the log keeps only its last lines)."""
        banned: dict[int, set[str]] = {}
        for p, slot in enumerate(st.secrets):
            if slot.failed and not slot.revealed:
                banned[p] = {t for i, t in self.known[p] if i < max(slot.failed)}
        return banned

    def where(self, trauma: str) -> list[float]:
        """P(trauma lies at position k) for k = 0..3."""
        out = [0.0] * 4
        for sigma, w in self.perms:
            out[sigma[trauma]] += w
        return out

    def matching_dist(self, pos: int) -> dict[int, float]:
        """Distribution of the matching clue cards beneath position `pos` (0-based). Kept
        per position (the evidence is fixed once read): callers only read it."""
        hit = self._matching.get(pos)
        if hit is not None:
            return hit
        beneath = self.beneath[pos]
        key = (id(self.perms), pos, tuple(beneath))
        kept = _MATCHING_CACHE.get(key)
        if kept is not None and kept[0] is self.perms:  # the same evidence, not a reused id
            self._matching[pos] = kept[1]
            return kept[1]
        out: dict[int, float] = {}
        for sigma, w in self.perms:
            t = next(x for x in TRAUMAS if sigma[x] == pos)
            m = sum(1 for b in beneath if b == t)
            out[m] = out.get(m, 0.0) + w
        self._matching[pos] = out
        if len(_MATCHING_CACHE) >= _MATCHING_CACHE_SIZE:
            _MATCHING_CACHE.clear()
        _MATCHING_CACHE[key] = (self.perms, out)
        return out

    def tier(self, matching: int, pos: int) -> str:
        """The tier a reveal at 0-based position `pos` with `matching` cards resolves."""
        return self.board.tier(matching, pos + 1)

    def invoke_value(self, pos: int, st: PresenceState, fail_cost: float) -> float:
        """Expected worth of Invoking position `pos` (needs 1 matching card, G-09). A low
        tier costs hope and nerve: worth it only when the rounds run out."""
        v = 0.0
        gain = progress(st)
        late = 1.0 if st.round >= LATE_ROUND else 0.0
        for m, p in self.matching_dist(pos).items():
            if m < 1:
                v -= p * (fail_cost + INVOKE_FAIL * scarcity(st))
                continue
            tier = self.tier(m, pos)
            v += p * (TIER_VALUE[tier] + (gain if tier != "low" else gain * late))
        return v

    def plan(self) -> dict[str, int]:
        """The assignment the visitors stack clue cards by: the likeliest one, nudged
        toward where cards of a trauma already lie (matching cards only count together)."""
        if self._plan is None:
            best, best_v = self.perms[0][0], -1.0
            for sigma, w in self.perms:
                v = w
                for t in TRAUMAS:
                    v *= 1.0 + 0.15 * self.beneath[sigma[t]].count(t)
                if v > best_v:
                    best, best_v = sigma, v
            self._plan = best
        return self._plan

    _plan: dict[str, int] | None = None
    _placement: dict[str, int]
    face_down: bool
    """Mystery Mode, a visitor's view: the discards' traumas are unseen (P-MYST-02)."""

    def confidence(self, trauma: str) -> float:
        """P(a clue card of `trauma` lands beneath its own secret where `placement` puts
        it); 1.0 once it cannot help (its secret is revealed)."""
        k = self.placement(trauma)
        if self.revealed[k]:
            return 1.0
        return self.where(trauma)[k]

    def placement(self, trauma: str) -> int:
        """The 0-based position a clue card of `trauma` is worth most beneath: over every
        assignment still possible, the chance the card is right there times what one more
        matching card there adds (`CARD_GAIN`: the first enables an Invoke, the next lift
        the tier), so a card goes where it is likely right *and* still needed, and the
        rarest trauma's few cards are not piled onto a guess that already has enough.
        That worth shrinks with the cards of its trauma still unseen if it lies there
        (`SCARCE`): at the position printing 5 four more may come, any of which can do the
        job, at the one printing 2 one more at most, so the card is far likelier to be the
        one that counts there (#23 stop 33: the secrets left hidden were positions 3 and 4).
        Ties go to the plan's position (every visitor reads the same public discards, so
        their stacks agree)."""
        hit = self._placement.get(trauma)
        if hit is not None:
            return hit
        gains = [0.0] * 4
        for sigma, w in self.perms:
            k = sigma[trauma]
            if self.revealed[k]:
                continue
            left = max(0, self.in_deck[k] - self.seen[trauma])
            gains[k] += w * self.card_gain(self.beneath[k].count(trauma), k) / (1.0 + SCARCE * left)
        planned = self.plan()[trauma]
        best = max(range(4), key=lambda k: (gains[k] + (1e-6 if k == planned else 0.0)))
        if gains[best] <= 0.0:
            best = planned
        self._placement[trauma] = best
        return best

    def card_gain(self, matching: int, pos: int) -> float:
        """What one more matching clue card beneath the secret at 0-based `pos` adds with
        `matching` there."""
        if matching <= 0:
            return CARD_FIRST
        before, after = self.tier(matching, pos), self.tier(matching + 1, pos)
        return 0.0 if before == after else CARD_TIER[after]

    def best_position(self, trauma: str) -> str:
        """Beneath which position a clue card of `trauma` goes (PR-03): `placement`."""
        return str(self.placement(trauma) + 1)


# ====================================================================== effect scoring


class Scorer:
    """Scores effect lists in the game's own effect vocabulary, from one side's point of
    view: ``side="visitors"`` (a visitor or a helping spirit) or ``"spirit"`` (harming)."""

    def __init__(self, eng: Engine, board: Board, actor: str | None, origin: str | None,
                 ded: Deduction | None, spirit_view: bool = False) -> None:
        self.spirit_view = spirit_view  # the spirit knows its script; a visitor does not
        self.eng = eng
        self.st = eng.st
        self.board = board
        self.actor = actor
        self.origin = origin
        self.ded = ded

    # ---- people the effect may touch
    def candidates(self, e: dict[str, Any]) -> list[VisitorState]:
        st = self.st
        pool = [v for v in st.visitors.values() if not v.succumbed
                and (e.get("allow_knocked_out") or not v.knocked_out)]
        if e.get("exclude_self") and self.actor:
            pool = [v for v in pool if v.seat != self.actor]
        if e.get("candle_lit") is not None:
            pool = [v for v in pool if v.candle_lit == e.get("candle_lit")]
        sel = e.get("selector")
        room = self.origin
        if sel == "nearby_visitor":
            pool = [v for v in pool if v.room == room]
        elif sel == "alone_nearby_visitor":
            pool = [v for v in pool if v.room == room and self.eng.alone(v.seat)]
        elif sel == "visitor_within_hearing":
            rooms = self.eng.hearing_rooms(room) if room else set()
            pool = [v for v in pool if v.room in rooms]
        elif sel == "bonded_visitor":
            pool = [v for v in pool if v.seat == st.bonded]
        return pool

    def cond_ok(self, e: dict[str, Any], targets: list[VisitorState]) -> bool:
        for c in e.get("only_if") or []:
            t = c.get("test")
            want = bool(c.get("value", True))
            me = self.st.visitors.get(self.actor or "")
            who = targets[0] if c.get("who") == "target" and targets else me
            res: bool | None = None
            if t == "in_card_room":
                res = me is not None and self.card_room == me.room
            elif t == "room_dark":
                res = self.origin is not None and self.eng.dark(self.origin)
            elif t == "alone" and who is not None:
                res = self.eng.alone(who.seat)
            elif t == "bonded" and who is not None:
                res = self.st.bonded == who.seat
            elif t == "candle_lit" and who is not None:
                res = who.candle_lit
            elif t == "die_nearby":
                res = self.origin is not None and bool(self.eng.dice_in(self.origin))
            if res is not None and res != want:
                return False
        return True

    card_room: str | None = None

    @property
    def needs(self) -> dict[str, int]:
        """The revealed script's extra visitor conditions (P-WIN-02): test -> its n."""
        st = self.st
        if not st.script_revealed:
            return {}
        half = self.eng.pack.script(st.script).bottom
        return {t.test: int(getattr(t, "n", 0)) for t in half.visitors_also_need}

    # ---- the visitors' worth of an effect list (positive = good for the visitors)
    def worth(self, effs: list[dict[str, Any]], targets: list[VisitorState] | None = None,
              owner_visitor: bool = True) -> float:
        st = self.st
        eng = self.eng
        me = st.visitors.get(self.actor or "")
        targets = list(targets or [])
        total = 0.0
        tokens_left = len(st.tokens.get(me.room, [])) if me else 0
        for e in effs:
            op = e.get("op")
            if not self.cond_ok(e, targets):
                continue
            who = e.get("who", "self")
            people: list[VisitorState]
            if who == "target":
                people = targets
            elif who == "self":
                people = [me] if me else []
            else:
                people = []
            n = int(e.get("n", 1)) if isinstance(e.get("n", 1), int) else 1
            if op == "target":
                cands = self.candidates(e)
                count = len(cands) if e.get("count") == "all" else int(e.get("count", 1))
                if owner_visitor:
                    cands.sort(key=lambda v: -(v.fear + 2 * len(v.fear_cards)))
                else:  # the spirit picks the most vulnerable
                    cands.sort(key=lambda v: -self.board.danger(v))
                targets = cands[:count]
            elif op == "investigate":
                if me and tokens_left > 0:
                    total += INVESTIGATE
                    tokens_left -= 1
            elif op == "draw_clue":
                avail = st.clue_deck or any(not eng.pack.is_fear_card(c)
                                            for c in st.clue_revealed)
                if avail:
                    total += DRAW_CLUE * n * max(1, len(people))
            elif op == "draw_item":
                for v in people:
                    if st.item_deck and len(v.items) < eng.pack.options.item_limit:
                        total += 1.5
            elif op == "draw_action":
                for v in people:
                    total += 1.5 * min(n, max(0, eng.hand_size()
                                              - len(eng.player_hand(v.seat))))
            elif op == "discard":
                for v in people:
                    clue = sum(1 for c in v.hand if not eng.is_action_card(c))
                    k = min(n, len(v.hand))
                    total -= 0.5 * min(k, clue) + 2.0 * max(0, k - clue)
            elif op == "suffer_fear":
                total -= sum(self.board.fear_cost(v, n) for v in people)
            elif op == "cure_fear":
                # once nerve is gone a knock-out is a succumbed visitor (P-FEAR-03)
                brink = 3.0 if st.nerve is None or st.nerve - st.time <= 1 else 1.0
                for v in people:
                    if not v.succumbed:
                        total += min(n, v.fear) * (1.5 + 4.0 * self.board.danger(v)) * brink
            elif op == "trash_fear_card":
                cap = self.needs.get("fear_cards_each_lte")
                for v in people:
                    total += 4.0 * min(n, len(v.fear_cards))
                    if cap is not None and len(v.fear_cards) > cap:
                        total += NEED  # P-WIN-02: the revealed script asks for it
            elif op == "smother_candle":
                total -= sum(2.5 for v in people if v.candle_lit)
            elif op == "relight_candle":
                bonus = NEED if "surviving_in_light" in self.needs else 0.0
                total += sum(3.0 + bonus for v in people
                             if not v.candle_lit and not v.knocked_out)
            elif op == "light_fireplace":
                if not st.fireplace_lit and self.origin == eng.pack.manor.fireplace_room:
                    total += 2.0
            elif op == "reveal_secret":
                total += self.invoke_worth(e)
            elif op == "adjust_track":
                total += self.track_worth(str(e.get("marker")), int(e.get("delta", 0)))
            elif op == "gain_main_actions":
                total += 4.0 * n if owner_visitor else -1.0 * n
            elif op == "end_turn":
                total -= 3.0 * max(0, st.actions_left - 1)
            elif op == "bond":
                total -= 3.0 * len(people or targets)
            elif op == "reveal_clue_deck":
                total += 1.5 * n  # public clue cards: evidence, and drawable (P-CLUE-06)
            elif op in ("inspect", "take_from_cellar", "door"):
                total += 0.3
            elif op == "take_from_chamber":  # G-17: a clue card of the chamber into hand
                if me and st.chamber is not None and st.chamber.cards:
                    total += DRAW_CLUE
            elif op == "move":
                total += self.move_worth(int(e.get("points", 1)))
            elif op == "choice":
                branches = [self.worth(_dicts(b), targets, owner_visitor)
                            for b in e.get("options") or []]
                if not branches:
                    continue
                chooser = e.get("chooser", "affected")
                spirit_picks = chooser == "spirit" or (e.get("coloured") and targets
                                                       and st.bonded == targets[0].seat)
                if e.get("kind") == "may":
                    branches.append(0.0)
                total += min(branches) if spirit_picks and self.harming() else max(branches)
            elif op in ("increase_presence", "add_die", "move_die", "place_pawn"):
                total -= 1.0
            elif op == "reduce_presence":
                total += 1.0
        return total

    def harming(self) -> bool:
        """Whether the spirit picks against the visitors: the spirit knows (its script);
        a visitor may not read the hidden script (H-07), so it expects the worst."""
        return spirit_mode(self.eng) == "harm" if self.spirit_view else True

    def track_worth(self, marker: str, delta: int) -> float:
        val = getattr(self.st, marker)
        if val is None:
            return 0.0
        gap = val - self.st.time
        urgency = 1.0 + 3.0 / max(1, gap)
        if delta < 0 and gap + delta <= 0:
            urgency += 4.0  # the marker would be lost (P-TRACK-03)
        if marker == "nerve" and not self.spirit_view:
            urgency *= NERVE_WEIGHT  # a visitor's reading: nerve keeps them alive
        return 2.0 * delta * urgency

    def invoke_worth(self, e: dict[str, Any]) -> float:
        if self.ded is None:
            return 0.0
        st = self.st
        fail = 1.0
        dark = self.origin is not None and self.eng.dark(self.origin)
        me = st.visitors.get(self.actor or "")
        if dark and me is not None:
            fail += self.board.fear_cost(me, 1)
        best = -INF * 1.0
        for k, slot in enumerate(st.secrets):
            if slot.revealed:
                continue
            best = max(best, self.ded.invoke_value(k, st, fail))
        return 0.0 if best <= -INF else best

    def move_worth(self, points: int) -> float:
        me = self.st.visitors.get(self.actor or "")
        if me is None:
            return 0.0
        target = visitor_target(self.eng, self.board, me)
        if target is None:
            return 0.0
        d0 = self.board.dist(me.room, target)
        if d0 <= 0 or d0 >= INF:
            return 0.0
        gone = min(points, d0)
        return 3.0 * gone + (6.0 if gone == d0 else 0.0)


def scarcity(st: PresenceState) -> float:
    """How much keeping the Invoke card for a surer reveal is still worth: fully until
    round 7, then less each round and nothing in the last, nor once the unrevealed secrets
    are as many as the rounds left (a reveal a round is then the only way to win). An
    Invoke card kept to the end reveals nothing. A long shot can still score below keeping
    the card in rounds 7 and 8; a late turn about to end with actions left plays it anyway
    (`_last_chance_invoke`), so no late turn ends idle with a chance in hand."""
    if st.round < LATE_ROUND:
        return 1.0
    final = pack_final_round(st)
    left = sum(1 for s in st.secrets if not s.revealed)
    if left >= final - st.round + 1:
        return 0.0
    return max(0.0, (final - st.round) / max(1, final - LATE_ROUND + 1))


def pack_final_round(st: PresenceState) -> int:
    return Engine(st).pack.hope_track.final_round


def progress(st: PresenceState) -> float:
    return PROGRESS_BASE + PROGRESS_PER_ROUND * st.round


def wins_with_visitors(eng: Engine) -> bool:
    """Whether the spirit's active script half wins with the visitors (P-WIN-04/05: a good
    script while hidden, or a bottom half that does); otherwise the spirit wins only by a
    succumbed visitor."""
    st = eng.st
    if not st.script:
        return False
    script = eng.pack.script(st.script)
    half = script.bottom if st.script_revealed else script.top
    return any(t.test == "visitors_win" for t in half.spirit_wins_if)


def spirit_mode(eng: Engine) -> str:
    """``help`` while the active half wins with the visitors (a good hidden script), else
    ``harm`` (P-WIN-04: an evil script must be revealed and then wants a visitor to
    succumb; a revealed good script wants the same)."""
    st = eng.st
    if not wins_with_visitors(eng):
        return "harm"
    script = eng.pack.script(st.script)
    # A good script whose marker is about to be lost, with the visitors far from their
    # goal, turns to its bottom half early: that half wins by a succumbed visitor.
    marker = getattr(st, script.type)
    left = sum(1 for s in st.secrets if not s.revealed)
    rounds = eng.pack.hope_track.final_round - st.round + 1
    if script.bottom.spirit_wins_if and left >= 2 and (
            marker is None or marker - st.time <= FLIP_GAP or left > ON_TRACK * rounds):
        return "harm"
    return "help"


# ====================================================================== visitors


def visitor_target(eng: Engine, board: Board, me: VisitorState) -> str | None:
    """The room worth walking to: clue tokens, nearer first, fewer companions there."""
    if me.seat not in board.targets:
        board.targets[me.seat] = _visitor_target(eng, board, me)
    return board.targets[me.seat]


def passage_odds(eng: Engine, board: Board, seat: str) -> dict[str, float]:
    """P-CHAMBER-04/05: the chance the sealed passage is in each room, as `seat` may reckon
    it. The card set aside is position 1's one removed clue card, so it names a room of
    position 1's trauma whose card nobody has seen; the trauma is weighed as `Deduction`
    weighs it (fixed once revealed), the rooms searched in vain are out, and what the seat
    may see is the table's face-up cards and its player's own hand — never the set-aside
    card, nor the chamber's. Empty once the passage is found or without the chamber."""
    hit = board.passage.get(seat)
    if hit is not None:
        return hit
    st = eng.st
    out: dict[str, float] = {}
    if st.chamber is not None and st.chamber.passage_room is None \
            and eng.chamber_room() is not None and seat in st.visitors:
        ded = deduction(eng, seat)
        seen = eng.public_clue_cards() | {c for c in eng.player_hand(seat)
                                          if not eng.is_action_card(c)}
        total = 0.0
        for t in TRAUMAS:
            w = ded.where(t)[0]
            rooms = eng.passage_rooms(t, seen) if w > 0 else []
            for r in rooms:
                out[r] = out.get(r, 0.0) + w / len(rooms)
            total += w if rooms else 0.0
        out = {r: p / total for r, p in out.items()} if total > 0 else {}
    board.passage[seat] = out
    return out


def _visitor_target(eng: Engine, board: Board, me: VisitorState) -> str | None:
    st = eng.st
    held: Counter[str] = Counter(eng.pack.clue_card(c).room for c in me.hand
                                 if not eng.is_action_card(c))
    can_draw = bool(st.clue_deck) or any(not eng.pack.is_fear_card(c) for c in st.clue_revealed)
    rooms = {r for r, toks in st.tokens.items() if toks} | (set(held) if can_draw else set())
    # The Secret Chamber (P-CHAMBER): a room likely to hold its passage, to Uncover there;
    # once open, the chamber while cards lie inside (its Hidden Papers, G-17)
    odds = {r: p for r, p in passage_odds(eng, board, me.seat).items() if p >= PASSAGE_SURE}
    chamber = eng.chamber_room()
    inside = (len(st.chamber.cards) if st.chamber is not None and chamber is not None
              and st.chamber.passage_room is not None else 0)
    rooms |= set(odds) | ({chamber} if inside and chamber else set())
    best, best_v = None, 0.0
    elsewhere = Counter(o.room for o in eng.active_visitors() if o.seat != me.seat)
    for room in sorted(rooms):
        if room not in st.rooms:
            continue
        d = board.dist(me.room, room)
        if d >= INF:
            continue
        toks = st.tokens.get(room, [])
        # a clue card played in its own room draws another (P-CLUE-07)
        v = 10.0 * min(2, len(toks)) + (DRAW_CLUE * min(2, held[room]) if can_draw else 0.0)
        v += UNCOVER * odds.get(room, 0.0) + (DRAW_CLUE * min(2, inside) if room == chamber
                                               else 0.0)
        v -= 4.0 * elsewhere[room] if toks else 0.0
        if eng.dark(room):
            v -= 0.5 * max((eng.die(x).value for x in eng.dice_in(room)), default=0)
        v /= 1.0 + d
        if v > best_v + 1e-9:
            best, best_v = room, v
    return best


def _action_effects(eng: Engine, v: VisitorState, action: Action) -> tuple[Any, str]:
    """The effect list an action would resolve (its dark banner applied, P-VIS-09)."""
    a, _, _ = eng._peek_action(v, action)
    effects = _dicts(a.effects)
    if a.dark is not None and eng.dark(v.room):
        dark = _dicts(a.dark.effects)
        effects = dark if a.dark.mode == "replace" else effects + dark
    card = str(action.p("card")) if action.kind == K.PLAY else ""
    return effects, card


def _clue_keep(eng: Engine, ded: Deduction, card: str) -> float:
    """Worth of keeping a clue card in hand rather than discarding it now: negative when
    its place is known (discarding it is progress, P-CLUE-05), positive while its trauma's
    position is still a guess (a card beneath the wrong secret is lost)."""
    sure = ded.confidence(eng.pack.clue_card(card).trauma)
    return -1.0 if sure >= SURE else 2.5 * (SURE - sure) / SURE + 0.5


def _card_cost(eng: Engine, ded: Deduction, card: str, action: Action) -> float:
    """What playing `card` (by `action`) gives up. An Invoke card played for its Invoke costs
    the surer reveal it could wait for (`scarcity`: nothing once the rounds run out); played
    for its other side it costs the Invoke itself while a secret it could reveal is left
    (`INVOKE_CARD_COST`): in the late rounds the other side looked free and a visitor moved
    with its Invoke card rather than a plain Move card (#23 stop 52, seed 4, round 7)."""
    if not card:
        return 0.0
    if not eng.is_action_card(card):
        return _clue_keep(eng, ded, card)
    defn = eng.pack.action_card(card)
    if any(e.op == "reveal_secret" for a in defn.actions for e in a.effects):
        if _is_invoke_play(eng, action):
            return INVOKE_CARD_COST * scarcity(eng.st)
        if any(not s.revealed and not _failed_before(eng, k)
               for k, s in enumerate(eng.st.secrets)):
            return INVOKE_CARD_COST
    return CARD_COST


def _score_visitor_action(eng: Engine, board: Board, ded: Deduction, seat: str,
                          action: Action) -> float:
    v = eng.vis(seat)
    k = action.kind
    if k == K.END_TURN:
        return 0.0
    if k == K.REST:
        return _rest_worth(eng, board, ded, seat)
    if k == K.WALK:
        return Scorer(eng, board, seat, v.room, ded).move_worth(
            eng.pack.visitor(v.character).walk_points) - 0.5
    if k in (K.TRADE, K.SMOTHER, K.PICK_UP):
        return -INF
    if k == K.UNCOVER:  # P-CHAMBER-05: worth the chance the passage is here
        return UNCOVER * passage_odds(eng, board, seat).get(v.room, 0.0) - UNCOVER_MISS
    try:
        effects, card = _action_effects(eng, v, action)
    except (KeyError, IndexError, AssertionError):
        return -INF
    sc = Scorer(eng, board, seat, v.room, ded)
    if card and not eng.is_action_card(card):
        sc.card_room = eng.pack.clue_card(card).room
    if k == K.PLAY and _cures_nobody(sc, _dicts(effects)):
        return -INF
    value = sc.worth(effects)
    if k == K.PLAY:
        value -= _card_cost(eng, ded, card, action)
    elif k == K.USE_ITEM:
        value -= 1.0
    return value


CURES = frozenset({"target", "cure_fear", "trash_fear_card", "choice"})
"""The ops of a side that only cures (Comfort, Reassure): a target, then fear or a fear card
taken away, maybe as a choice between the two."""


def _cures_nobody(sc: Scorer, effects: list[dict[str, Any]]) -> bool:
    """Whether a card side only cures (`CURES`) and no visitor it may pick has fear or a fear
    card to lose: playing it spends the card for nothing (stop 69: Reassure played with
    nobody afraid; its clue card would go beneath a secret at the next Rest all the same,
    and the cure is kept for a fear still to come)."""
    ops: set[str] = set()
    stack = list(effects)
    while stack:
        e = stack.pop()
        ops.add(str(e.get("op")))
        for branch in e.get("options") or []:
            stack += _dicts(branch)
    if not effects or not ops <= CURES or not ops & {"cure_fear", "trash_fear_card"}:
        return False
    aim = next((e for e in effects if e.get("op") == "target"), None)
    me = sc.st.visitors.get(sc.actor or "")
    people = sc.candidates(aim) if aim is not None else [me] if me else []
    return not any(v.fear > 0 or v.fear_cards for v in people)


def _rest_worth(eng: Engine, board: Board, ded: Deduction, seat: str) -> float:
    """A Rest (A-20) as the Rest would go (`_rest_let_go`): the cards it would draw that the
    deck and discard still hold, the clue cards it puts beneath their secrets (progress, as a
    clue card played for nothing would: stop 67's AI played one for an Investigate with no
    clue token left where a Rest let it go and drew), digging for the Invoke a ready secret
    needs only where the cards it draws may hold one (`_invoke_within`), less a fear card's
    fear on a Rest (Fear of Sleep). Stop 67: the flat bonus for digging took three Rests in
    one turn, each a fear from Fear of Sleep and most a draw from a deck with no Invoke in
    it, over a useful play."""
    st = eng.st
    v = eng.vis(seat)
    if st.must_rest:
        return 100.0
    # A two-player visitor player's one hand of 7 is split between its characters
    # (P-2P-03): Rest draws to 7 over both, so this character's share says nothing.
    hand = eng.player_hand(seat)
    gone = _rest_plan(eng, board, ded, seat)
    pile = eng.pile_holder(seat)  # P-2P-01: the shared deck of the visitor player
    back = [c for c in gone if eng.is_action_card(c)]
    stock = len(pile.deck) + len(pile.discard) + len(back)
    need = eng.hand_size() - len(hand)
    draws = min(need + len(gone), stock)
    gain = 2.0 * min(max(0, need), stock)
    gain += sum(-_clue_keep(eng, ded, c) for c in gone if not eng.is_action_card(c))
    # Digging for an Invoke cycles the deck only if the Rest draws: a full hand it would
    # keep whole draws nothing, and the action is spent for nothing.
    if draws > 0 and _digging(eng, ded, v):
        gain += DIG if _invoke_within(eng, seat, back, draws) else 0.0
    if not v.knocked_out:
        gain -= _triggered_fear(eng, board, v, "rest")
    return gain - 1.5


def _rest_plan(eng: Engine, board: Board, ded: Deduction, seat: str) -> list[str]:
    """The cards a Rest would let go, one prompt after another (`_rest_discard`)."""
    hand = eng.player_hand(seat)
    left = list(eng.own_cards(seat))
    gone: list[str] = []
    while True:
        card = _rest_let_go(eng, board, ded, seat, left, hand)
        if card is None:
            return gone
        gone.append(card)
        left.remove(card)
        hand = [c for c in hand if c != card]


def _invoke_within(eng: Engine, seat: str, back: list[str], draws: int) -> bool:
    """Whether `draws` cards drawn after a Rest lets the action cards `back` go may hold an
    Invoke card: the deck's first, then the discard shuffled anew with them (A-45). The
    deck's order is hidden; what it holds is not (the player's own cards less its hand and
    its discard)."""
    pile = eng.pile_holder(seat)

    def invoke(c: str) -> bool:
        return eng.is_action_card(c) and any(e.op == "reveal_secret" for a in
                                             eng.pack.action_card(c).actions for e in a.effects)

    reach = pile.deck if draws <= len(pile.deck) else pile.deck + pile.discard + back
    return any(invoke(c) for c in reach)


def _visitor_turn(eng: Engine, seat: str, legal: list[Action]) -> Action:
    st = eng.st
    board = Board(eng)
    ded = deduction(eng, seat)
    by_kind = {a.kind: a for a in legal}
    if st.must_rest and K.REST in by_kind:
        return by_kind[K.REST]
    quick: list[tuple[float, int, Action]] = []
    main: list[tuple[float, int, Action]] = []
    for i, a in enumerate(legal):
        if a.kind == K.END_TURN:
            continue
        s = _score_visitor_action(eng, board, ded, seat, a)
        is_quick = a.params.get("speed") == "quick" or a.kind in (K.TRADE, K.SMOTHER,
                                                                  K.PICK_UP)
        (quick if is_quick else main).append((s, -i, a))
    # A card's quick side spends the card: not while its main side is worth more (stop 67's
    # demo: a visitor one fear from succumbing played Comfort / Relight for Relight, quick
    # and first, and lost the Comfort that would have cured it).
    mains: dict[str, float] = {}
    for s, _i, a in main:
        if a.kind == K.PLAY:
            card = str(a.p("card"))
            mains[card] = max(mains.get(card, -float(INF)), s)
    quick = [q for q in quick if q[2].kind != K.PLAY
             or mains.get(str(q[2].p("card")), -float(INF)) <= q[0]]
    if quick:
        best_q = max(quick, key=lambda x: (x[0], x[1]))
        if best_q[0] >= QUICK_MIN:
            return best_q[2]
    if main:
        best = max(main, key=lambda x: (x[0], x[1]))
        if best[0] > 0.0:
            return best[2]
    last = _last_chance_invoke(eng, ded, main)
    if last is not None:
        return last
    return by_kind.get(K.END_TURN, legal[0])


def _is_invoke_play(eng: Engine, action: Action) -> bool:
    """Whether `action` plays an action card's Invoke side (its effects reveal a secret)."""
    if action.kind != K.PLAY:
        return False
    card = str(action.p("card"))
    if not eng.is_action_card(card):
        return False
    side = action.p("side")
    index = int(side) if isinstance(side, int) or str(side).isdigit() else -1
    actions = eng.pack.action_card(card).actions
    return 0 <= index < len(actions) and any(e.op == "reveal_secret"
                                             for e in actions[index].effects)


def invoke_chance(eng: Engine, ded: Deduction, k: int) -> float:
    """P(an Invoke at 0-based position `k` reveals its secret), from what the seat may see:
    the chance that a clue card of the secret's own trauma lies beneath it (G-09) over the
    assignments `ded` still allows (a failed Invoke excludes the traumas that lay beneath
    then). Mystery Mode (P-MYST-02: the discards lie face down to a visitor): the cards its
    player laid there count as above (A-67); each other card that went beneath since the
    position's last failure is of the secret's trauma one time in four."""
    slot = eng.st.secrets[k]
    if slot.revealed:
        return 0.0
    none = ded.matching_dist(k).get(0, 0.0)
    if ded.face_down:
        mine = {i for i, _ in ded.known[k]}
        new = sum(1 for i in range(max(slot.failed, default=0), len(slot.discards))
                  if i not in mine)
        return 1.0 - none * 0.75 ** new
    return 1.0 - none


def _last_chance_invoke(eng: Engine, ded: Deduction,
                        main: list[tuple[float, int, Action]]) -> Action | None:
    """A late turn (round `LATE_ROUND` on) about to end with main actions left: the Invoke
    card in hand is played rather than kept when some secret may match (`invoke_chance`),
    so no late turn ends idle with a chance in hand (#23, `bench.blunders`
    ``idle_with_invoke``). `invoke_value` weighs keeping the card for a surer reveal
    against a long shot, and in rounds 7 and 8 it keeps it for a chance below about a
    half; but the action it would spend is otherwise wasted, a failure is public evidence
    that narrows where every trauma lies for the whole table, and a card kept to the end
    reveals nothing. None when the turn is early, no Invoke is playable, or no secret can
    match as far as the seat can tell."""
    st = eng.st
    if st.round < LATE_ROUND or st.actions_left <= 0:
        return None
    invokes = [(s, i, a) for s, i, a in main if _is_invoke_play(eng, a)]
    if not invokes:
        return None
    if not any(invoke_chance(eng, ded, k) > 0.0 for k in range(len(st.secrets))):
        return None
    return max(invokes, key=lambda x: (x[0], x[1]))[2]


# ---- visitor prompt answers


def _card_keep_value(eng: Engine, board: Board, ded: Deduction, seat: str, card: str) -> float:
    """How much a card in hand is worth keeping (lowest is discarded first)."""
    v = eng.vis(seat)
    if not eng.is_action_card(card):
        return _clue_keep(eng, ded, card)
    defn = eng.pack.action_card(card)
    best = 0.0
    sc = Scorer(eng, board, seat, v.room, ded)
    for a in defn.actions:
        effs = _dicts(a.effects)
        if any(e.get("op") == "reveal_secret" for e in effs):
            return 20.0
        ops = {e.get("op") for e in effs}
        base = 1.0
        if "investigate" in ops:
            base = 4.0
        if "draw_clue" in ops:
            base = max(base, 4.0)
        if ops & {"cure_fear", "trash_fear_card"}:
            base = max(base, 2.0 + 4.0 * board.danger(v))
        if "relight_candle" in ops:
            base = max(base, 3.0 if not v.candle_lit else 1.5)
        best = max(best, base, sc.worth(effs) * 0.3)
    return best


def _discard_pick(eng: Engine, seat: str, legal: list[Action], allow_done: bool) -> Action:
    board = Board(eng)
    ded = deduction(eng, seat)
    cards = [a for a in legal if a.p("option") not in ("done", "offer", "cancel")]
    done = next((a for a in legal if a.p("option") == "done"), None)
    if not cards:
        return done or legal[0]
    scored = sorted(((_card_keep_value(eng, board, ded, seat, str(a.p("option"))), -i, a)
                     for i, a in enumerate(cards)), key=lambda x: (x[0], x[1]))
    low = scored[0]
    if done is not None and allow_done and low[0] > 0.0:
        return done
    return low[2]


def _rest_let_go(eng: Engine, board: Board, ded: Deduction, seat: str,
                 cards: list[str], hand: list[str] | None = None) -> str | None:
    """Of `cards` in the player's hand, the one a Rest lets go of next (A-20): a clue card
    whose place is beneath a secret (progress), else the weakest action card while the hand
    would still draw (or, digging for an Invoke, any weak one); None: keep the rest.
    `hand`: the player's hand as it will be then (`_rest_plan`), else as it is."""
    v = eng.vis(seat)
    if hand is None:
        hand = eng.player_hand(seat)  # P-2P-03: both characters' cards in a 2-player game
    for c in cards:
        if c in hand and not eng.is_action_card(c) and _clue_keep(eng, ded, c) < 0:
            return c
    dig = _digging(eng, ded, v)
    weak = [(_card_keep_value(eng, board, ded, seat, c), -i, c) for i, c in enumerate(cards)]
    weak = [w for w in weak if w[0] <= (DIG_KEEP if dig else 1.0)]
    if weak and (dig or len(hand) >= eng.hand_size() - 1):
        return min(weak, key=lambda x: (x[0], x[1]))[2]
    return None


def _rest_discard(eng: Engine, seat: str, legal: list[Action]) -> Action:
    """Rest (A-20): clue cards go beneath secrets (progress); weak action cards make room
    for new ones only while the hand would still draw; then draw."""
    done = next((a for a in legal if a.p("option") == "done"), legal[-1])
    options = [a for a in legal if a.p("option") != "done"]
    card = _rest_let_go(eng, Board(eng), deduction(eng, seat), seat,
                        [str(a.p("option")) for a in options])
    return next((a for a in options if str(a.p("option")) == card), done)


def _has_invoke(eng: Engine, v: VisitorState) -> bool:
    """Whether the visitor's player holds an Invoke (a 2-player player's other character
    may play its own, P-2P-04)."""
    return any(eng.is_action_card(c) and any(
        e.op == "reveal_secret" for a in eng.pack.action_card(c).actions for e in a.effects)
        for c in eng.player_hand(v.seat))


def _digging(eng: Engine, ded: Deduction, v: VisitorState) -> bool:
    """A secret is ready to reveal but this visitor holds no Invoke card (there is about
    one per deck, G-09): Rest with a thin hand to cycle the deck toward it."""
    st = eng.st
    if _has_invoke(eng, v):
        return False
    return any(not s.revealed and ded.invoke_value(k, st, 1.0) > 0
               for k, s in enumerate(st.secrets))


def _movement(eng: Engine, seat: str, legal: list[Action]) -> Action:
    v = eng.vis(seat)
    board = Board(eng)
    stop = next((a for a in legal if a.p("option") == "stop"), legal[-1])
    target = visitor_target(eng, board, v)
    if target is None or target == v.room:
        return stop
    dist = board.dist_to(target)
    here = dist.get(v.room, INF)
    best, best_d = stop, here
    for a in legal:
        opt = str(a.p("option"))
        if ":" not in opt:
            continue
        act, did = opt.split(":", 1)
        other = eng.other_side(did, v.room)
        od = dist.get(other, INF)
        if act == "go" and od + 1 <= here and od < best_d:
            best, best_d = a, od
        elif act == "open" and od + 2 <= here and od + 1 < best_d:
            best, best_d = a, od + 1
    return best


def _reveal_target(eng: Engine, seat: str, legal: list[Action]) -> Action:
    ded = deduction(eng, seat)
    st = eng.st
    best, best_v = legal[0], -float(INF)
    best_c = -1.0
    for a in legal:
        k = int(str(a.p("option"))) - 1
        val = ded.invoke_value(k, st, 1.0)
        # ties (Mystery Mode: values all alike; or no position can match): the likelier
        # position, and never one where the same evidence already failed (#23)
        chance = invoke_chance(eng, ded, k) - (0.5 if _failed_before(eng, k) else 0.0)
        if val > best_v + 1e-9 or (val > best_v - 1e-9 and chance > best_c + 1e-9):
            best, best_v, best_c = a, val, chance
    return best


def _failed_before(eng: Engine, k: int) -> bool:
    """Whether an Invoke at 0-based position `k` failed (public, H-38) with every clue card
    now beneath it of a trauma that lay there then (Mystery Mode: nothing added since), so
    the same evidence fails again (the repeated-Invoke blunder, `bench.blunders`)."""
    slot = eng.st.secrets[k]
    if slot.revealed or not slot.failed:
        return False
    seen = max(slot.failed)
    if len(slot.discards) <= seen:
        return True
    if eng.st.mystery:
        return False
    pack = eng.pack

    def traumas(cards: list[str]) -> set[str]:
        return {pack.clue_card(c).trauma for c in cards if not pack.is_fear_card(c)}
    return traumas(slot.discards) <= traumas(slot.discards[:seen])


def _draw_source(eng: Engine, seat: str, legal: list[Action]) -> Action:
    """PR-10: a revealed clue card whose trauma still helps beats the unknown top card."""
    pack = eng.pack
    ded = deduction(eng, seat)
    best, best_v = None, 0.55
    for a in legal:
        c = str(a.p("option"))
        if c == "deck" or pack.is_fear_card(c):
            continue
        probs = ded.where(pack.clue_card(c).trauma)
        v = max(p for k, p in enumerate(probs) if not ded.revealed[k]) if not all(
            ded.revealed) else 0.0
        if v > best_v:
            best, best_v = a, v
    if best is not None:
        return best
    deck = next((a for a in legal if a.p("option") == "deck"), None)
    if deck is not None:
        return deck
    clue = [a for a in legal if not pack.is_fear_card(str(a.p("option")))]
    return clue[0] if clue else legal[0]


def _visitor_prompt(eng: Engine, seat: str, legal: list[Action]) -> Action:
    st = eng.st
    p = st.prompts[-1]
    then = str(p.data.get("then", ""))
    opts = [str(a.p("option")) for a in legal]
    if then == "clue_discard":
        ded = deduction(eng, seat)
        card = str(p.data.get("card", ""))
        want = ded.best_position(eng.pack.clue_card(card).trauma) if card else opts[0]
        return next((a for a in legal if a.p("option") == want), legal[0])
    if then == "movement":
        return _movement(eng, seat, legal)
    if then == "rest_discard":
        return _rest_discard(eng, seat, legal)
    if then in ("discard_card", "discard_pick"):
        return _discard_pick(eng, seat, legal, allow_done=True)
    if then == "reveal_secret":
        return _reveal_target(eng, seat, legal)
    if then == "draw_source":
        return _draw_source(eng, seat, legal)
    if then == "investigate":
        toks = st.tokens.get(str(p.data.get("room")), [])
        for a in legal:
            k = int(str(a.p("option")))
            if k < len(toks) and toks[k].kind == "spirit":
                return a
        return legal[0]
    if then == "target":  # a visitor's own effect (Comfort, Reassure): the most afraid
        def need(a: Action) -> float:
            o = st.visitors.get(str(a.p("option")))
            return -1.0 if o is None else o.fear + 2.0 * len(o.fear_cards)
        return max(legal, key=need)
    if then in ("choice", "offer_reaction"):
        return _choice(eng, seat, legal, helping_visitors=True)
    if then == "trade_accept":
        return next((a for a in legal if a.p("option") == "yes"), legal[0])
    if then == "trade_pick":
        return next((a for a in legal if a.p("option") == "cancel"), legal[-1])
    if then in ("door_free",):
        return next((a for a in legal if a.p("option") == "no"), legal[0])
    if then == "door":
        for want in ("open", "unlock"):
            for a in legal:
                if str(a.p("option")).startswith(want + ":"):
                    return a
        return legal[0]
    if then in ("item_discard",):
        return legal[-1]
    if then == "reduce":  # a visitor's effect lowers a die: the strongest one
        return max(legal, key=lambda a: eng.die(int(str(a.p("option")))).value
                   if str(a.p("option")).isdigit() else -1)
    for stop in ("done", "no", "stop", "cancel"):
        for a in legal:
            if a.p("option") == stop and then in ("inspect_bottom", "reorder", "take_cellar"):
                return a
    return legal[0]


def _choice(eng: Engine, seat: str, legal: list[Action], helping_visitors: bool) -> Action:
    """A choice between effect branches (PR-02, PR-11, PR-13): the branch worth most to
    the side the chooser plays for."""
    st = eng.st
    p = st.prompts[-1]
    then = str(p.data.get("then", ""))
    board = Board(eng)
    if then == "offer_reaction":
        effs = list(p.data.get("effs") or [])
        ctx = dict(p.data.get("ctx") or {})
        sc = Scorer(eng, board, ctx.get("self"), ctx.get("origin"), None,
                    spirit_view=seat == st.spirit_seat)
        val = sc.worth(effs)
        want = "yes" if (val >= 0) == helping_visitors else "no"
        return next((a for a in legal if a.p("option") == want), legal[0])
    branches = p.data.get("branches")
    if then != "choice" or not branches:
        if then == "trash_fear":  # any fear card goes
            return next((a for a in legal if a.p("option") != "done"), legal[0])
        if then == "keep_item":
            return legal[0]
        if then == "discard_pick":
            return _discard_pick(eng, seat, legal, allow_done=True)
        return legal[0]
    ctx = dict(p.data.get("ctx") or {})
    actor = ctx.get("self")
    targets = [st.visitors[t] for t in ctx.get("targets") or [] if t in st.visitors]
    origin = eng.origin(ctx) if ctx.get("owner") else ctx.get("origin")
    ded = deduction(eng, seat if seat in st.visitors else None)
    sc = Scorer(eng, board, actor if actor else (targets[0].seat if targets else seat),
                origin, ded, spirit_view=seat == st.spirit_seat)
    best, best_v = legal[0], -float(INF)
    for a in legal:
        opt = str(a.p("option"))
        if opt == "no":
            val = 0.0
        else:
            try:
                effs = list(branches[int(opt)])
            except (ValueError, IndexError):
                continue
            val = sc.worth(effs, targets, owner_visitor=helping_visitors)
        val = val if helping_visitors else -val
        if val > best_v + 1e-9:
            best, best_v = a, val
    return best


# ====================================================================== the spirit


def _room_pull(eng: Engine, board: Board, room: str) -> float:
    """How much the harming spirit wants presence in `room`: visitors there (the most
    vulnerable count most), fewer when the room is lit."""
    hit = board.pull.get(room)
    if hit is not None:
        return hit
    v = 0.0
    for o in eng.active_visitors():
        if o.room == room:
            v += 1.0 + 2.0 * board.danger(o)
        elif o.room in eng.hearing_rooms(room):
            v += 0.3
    board.pull[room] = v
    return v


def _triggered_fear(eng: Engine, board: Board, v: VisitorState, event: str) -> float:
    """A fear card of `v` that frightens on `event` (G-07): what setting it off is worth
    to a harming spirit."""
    for c in v.fear_cards:
        r = eng.pack.fear_card(c).reaction
        if r.trigger.event == event and r.trigger.by != "other":
            return board.fear_cost(v, 1)
    return 0.0


def _entry_bonus(eng: Engine, board: Board, room: str) -> float:
    """A die entering `room` sets off "die enters room" fear cards there."""
    return sum(_triggered_fear(eng, board, v, "die_enters_room")
               for v in eng.active_visitors() if v.room == room)


def _power_worth(eng: Engine, board: Board, card: str, which: str, die_id: int) -> float:
    """Worth of one power for the spirit's side when played with die `die_id`."""
    power = eng.power(card, which)
    d = eng.die(die_id)
    if d.room is None or d.value < eng.power_need(power):
        return -float(INF)
    harm = spirit_mode(eng) == "harm"
    if power.hindered_by_light and eng.lit(d.room):
        return -1.0
    effs = _dicts(power.effects)
    if d.value <= power.spend and effs and all(
            e.get("op") == "move_die" and e.get("die", "this") == "this" for e in effs):
        # The spend fades the die it would move: the power does nothing (stop 66's demos,
        # Broken Form's bottom power with a die showing 1)
        return -float(INF)
    if effs and all(e.get("op") == "move_die" and e.get("die", "this") == "this"
                    for e in effs) and _move_fades(eng, d.room, d.value - power.spend,
                                                   effs[0]):
        # Every room the spent die may end in is lit and takes its last presence: the die
        # fades on the way (stop 68's demo, Broken Form's bottom power with a die showing 2
        # next to lit rooms only, three times in one game)
        return -float(INF)
    if effs and effs[0].get("op") == "target" and all(
            e.get("who") == "target" for e in effs[1:]) and not eng.candidates(
            power.effects[0], {"owner": eng.st.spirit_seat, "die": die_id}):
        # Every effect is on a target and nobody is one: the card and the spend go for
        # nothing (stop 67's demos, Whisper's bottom power in an empty room)
        return -float(INF)
    sc = Scorer(eng, board, None, d.room, None, spirit_view=True)
    val = -sc.worth(effs, owner_visitor=False)
    ops = {e.get("op") for e in effs}
    if power.ongoing:
        heard = sum(1 for o in eng.active_visitors() if o.room in eng.hearing_rooms(d.room))
        val += 3.0 + 2.0 * heard
    if "place_pawn" in ops:
        val += 4.0 + _room_pull(eng, board, d.room)
    if "bond" in ops:
        val += 2.0
    if "move_die" in ops or "increase_presence" in ops:
        val += 1.0 + 1.0  # undo the visitors' small discount: presence is the spirit's
    if harm and any(e.get("op") == "move_die" and e.get("die", "this") == "this"
                    for e in effs) and all(_leaves_the_pawn(eng, die_id, to)
                                           for to in eng.die_neighbours(d.room)):
        # Wherever it goes, the pawn's last die leaves it with nothing to pay its drain
        # (P-MANI-02; stop 69's demo: Broken Form's bottom power right after manifesting)
        val -= PAWN_STRANDED
    near = [v for v in eng.active_visitors() if v.room == d.room]
    if "target" in ops and near:
        val += max(_triggered_fear(eng, board, v, "targeted_by_spirit") for v in near)
    if "door" in ops:
        val += sum(_triggered_fear(eng, board, v, "door_closed") for v in eng.active_visitors()
                   if v.room in eng.hearing_rooms(d.room))
    if "place_pawn" in ops:
        val += sum(_triggered_fear(eng, board, v, "pawn_enters_room") for v in near)
    if harm:
        val -= 0.8 * power.spend  # presence spent is fear not yet caused
    else:
        val = -val - 0.2 * power.spend
    return val


def _move_fades(eng: Engine, room: str, value: int, move: dict[str, Any]) -> bool:
    """Whether a die showing `value` in `room`, moved by `move` (P-SPIRIT-07: a number of
    rooms, "up to" or all of them), fades on every way it may go: each lit room entered
    costs it 1 presence (P-SPIRIT-08, unless the power waives it) and at 0 it is gone."""
    steps = int(move.get("steps", 1))
    up_to = bool(move.get("up_to", False))
    penalty = bool(move.get("light_penalty", True))

    def lives(at: str, left: int, to_go: int) -> bool:
        if to_go == 0 or (up_to and to_go < steps):
            return True
        ways = eng.die_neighbours(at)
        if not ways:
            return True  # it cannot move, so it stays as it is
        return any(lives(r, after, to_go - 1) for r in ways
                   if (after := left - (1 if penalty and eng.lit(r) else 0)) > 0)

    return not lives(room, value, steps)


def _card_play_worth(eng: Engine, board: Board, card: str) -> tuple[float, int | None]:
    hit = board.plays.get(card)
    if hit is not None:
        return hit
    best, best_die = -float(INF), None
    for die_id in eng.playable_dice(card):
        total = 0.0
        for which in ("top", "bottom"):
            w = _power_worth(eng, board, card, which, die_id)
            if w > 0:
                total += w
        if total > best + 1e-9:
            best, best_die = total, die_id
    board.plays[card] = (best, best_die)
    return best, best_die


def _spirit_turn(eng: Engine, legal: list[Action]) -> Action:
    st = eng.st
    board = Board(eng)
    harm = spirit_mode(eng) == "harm"
    end = next((a for a in legal if a.kind == K.END_SPIRIT), legal[-1])
    best, best_v = end, 0.5
    inc_gain: float | None = None
    # a helping spirit only gathers presence by the visitors to play a helping power
    gather = harm or any(_helps(eng, c) for c in st.spirit.hand)
    for a in legal:
        if a.kind == K.PLAY_SPIRIT:
            v, _ = _card_play_worth(eng, board, str(a.p("card")))
        elif not gather or (not harm and (a.kind == K.PAWN or (
                a.kind == K.INCREASE and _helps(eng, str(a.p("card")))))):
            continue
        elif a.kind == K.MOVE_DIE:
            d = eng.die(int(str(a.p("die"))))
            to = str(a.p("to"))
            if d.room is None:
                continue
            gain = _room_pull(eng, board, to) - _room_pull(eng, board, d.room)
            if eng.lit(to):
                gain -= 0.7 if d.value > 1 else 5.0
            survives = d.value > 1 or not eng.lit(to)  # P-SPIRIT-08: at 0 it is gone
            v = 2.0 * gain + (_entry_bonus(eng, board, to) if harm and survives else 0.0)
            if harm and _leaves_the_pawn(eng, d.id, to):
                v -= PAWN_STRANDED
        elif a.kind == K.INCREASE:
            card = str(a.p("card"))
            play, _ = _card_play_worth(eng, board, card)
            if inc_gain is None:
                inc_gain = max((_increase_gain(eng, board, o) for o, _ in
                                eng.increase_options()), default=0.0)
            gain = inc_gain
            v = gain - max(0.0, play) * 0.5 - 0.6
        elif a.kind == K.PAWN:
            v = _pawn_worth(eng, board, str(a.p("action")))
        else:
            continue
        if v > best_v + 1e-9:
            best, best_v = a, v
    return best


FLIP_GAP = 2
"""A good spirit prepares its bottom half when its marker is this close to the time."""
ON_TRACK = 0.5
"""Secrets per remaining round the visitors must keep up for a good spirit to help them."""
HELPING_OPS = frozenset({"draw_clue", "cure_fear", "trash_fear_card", "reveal_clue_deck"})


def _helps(eng: Engine, card: str) -> bool:
    """A spirit card with a power that helps the visitors (a good spirit keeps it)."""
    sc = eng.pack.spirit_card(card)
    return any(str(e.get("op")) in HELPING_OPS or any(
        str(x.get("op")) in HELPING_OPS for b in e.get("options") or [] for x in b)
        for p in (sc.top, sc.bottom) for e in _dicts(p.effects))


def _increase_gain(eng: Engine, board: Board, option: str) -> float:
    what, arg = option.split(":", 1)
    if what == "up":
        d = eng.die(int(arg))
        if d.room is None:
            return 0.0
        return 1.0 + 1.5 * _room_pull(eng, board, d.room) + (0.5 if d.value < 3 else 0.0)
    if what == "add":
        return 1.2 + 1.5 * _room_pull(eng, board, arg) + _entry_bonus(eng, board, arg)
    return 0.0  # relocating resets a die: only through its own prompt


def _pawn_worth(eng: Engine, board: Board, action_id: str) -> float:
    ma = eng.pack.manifest_action(action_id)
    room = eng.st.spirit.pawn_room
    sc = Scorer(eng, board, None, room, None, spirit_view=True)
    val = -sc.worth(_dicts(ma.effects), owner_visitor=False) - 0.8 * ma.cost
    glide = next((e for e in ma.effects if e.op == "move_pawn"), None)
    if glide is not None and room is not None:
        # A Glide is worth the step it will take (`_spirit_prompt` takes that very one), or
        # nothing: stop 68's AI glided towards lit rooms it could not pay for, then stopped.
        harm = spirit_mode(eng) == "harm"
        val = max((_pawn_step_worth(eng, board, r, glide.light_cost, harm)
                   for r in eng.pawn_steps(room, glide.light_cost)), default=-float(INF)
                  ) - _pawn_step_worth(eng, board, room, glide.light_cost, harm) - 0.3
    return val


def _pawn_step_worth(eng: Engine, board: Board, room: str, cost: int, harm: bool) -> float:
    """The spirit pawn standing in `room` after a step (`room` its own: staying put), on the
    scale of the spirit's turn: the one valuation both of a Glide and of the step it takes.
    Entering a lit room spends `cost` presence; entering sets off "pawn enters" fear cards."""
    v = 2.0 * _spirit_room_value(eng, board, room, harm)
    if room != eng.st.spirit.pawn_room:
        if cost and eng.lit(room):
            v -= 0.8 * cost  # presence spent is fear not yet caused
        if harm:
            v += sum(_triggered_fear(eng, board, o, "pawn_enters_room")
                     for o in eng.active_visitors() if o.room == room)
            if _pawn_stranded(eng, room):
                v -= PAWN_STRANDED
    return v


PAWN_STRANDED = 10.0
"""What a harming spirit's pawn left where no die can pay its drain costs (P-MANI-02: it is
removed at upkeep), by a Glide or by moving its last die away (`_leaves_the_pawn`): more
than a step's worth. 6 let a die next to three visitors go (stop 69). Easy, every seat, 4
players, seeds 1-160: pawns removed for want of a die 28 -> 25, spirit wins 101 -> 101 (5
players, seeds 1-30: 12 -> 11, 23 -> 23)."""


def _leaves_the_pawn(eng: Engine, die_id: int, to: str) -> bool:
    """Whether moving the die `die_id` into `to` leaves the spirit pawn with no die to pay its
    drain at upkeep (P-MANI-02), as a Glide away from it would (`_pawn_stranded`): it was the
    last one in the pawn's room, and the pawn cannot glide after it this turn (no action
    left, or `to` is lit and no die stays behind to pay the step, G-13)."""
    st = eng.st
    pawn = st.spirit.pawn_room
    if pawn is None or eng.die(die_id).room != pawn:
        return False
    drain = eng.pack.manifestation.drain
    if any(d != die_id and eng.die(d).value >= drain for d in eng.dice_in(pawn)):
        return False
    return st.spirit.pawn_actions <= 0 or eng.lit(to)


def _pawn_stranded(eng: Engine, room: str) -> bool:
    """Whether the pawn in `room` would find no die there to pay its drain at upkeep
    (P-MANI-02). Stop 68: the pawn glided away from its only die and was removed. A die that
    might still step in is not counted: the dice's moves do not follow the pawn (easy, every
    seat, 4 players, seeds 1-80: 8 of 23 Glides went where no die stood, 17 pawns were
    removed for want of one; counting such dice changed none)."""
    drain = eng.pack.manifestation.drain
    return not any(eng.die(d).value >= drain for d in eng.dice_in(room))


def _spirit_room_value(eng: Engine, board: Board, room: str, harm: bool) -> float:
    pull = _room_pull(eng, board, room)
    return pull if harm else -pull


def _place_clue(eng: Engine, board: Board, legal: list[Action], harm: bool) -> Action:
    """P-UPKEEP-05: the spirit knows the clue it places. One worth more to the visitors
    than it hurts them (most draw clue cards) goes near them when helping and far when
    harming; one that mostly frightens goes the other way."""
    st = eng.st
    clue = st.drawn_spirit_clues[0] if st.drawn_spirit_clues else None
    worth = 5.0
    people = eng.active_visitors()
    if clue is not None and people:
        effs = _dicts(eng.pack.spirit_clue_of(clue).effects)
        worth = statistics.fmean(
            Scorer(eng, board, v.seat, v.room, None, spirit_view=True).worth(effs)
            for v in people)
    sign = (-1.0 if harm else 1.0) * (1.0 if worth >= 0 else -1.0)

    def key(i_a: tuple[int, Action]) -> tuple[float, int]:
        i, a = i_a
        room = str(a.p("option"))
        d = min((board.dist(v.room, room) for v in people), default=0)
        return (sign / (1.0 + min(d, 30)), -i)

    return max(enumerate(legal), key=key)[1]


def _spirit_prompt(eng: Engine, seat: str, legal: list[Action]) -> Action:
    st = eng.st
    p = st.prompts[-1]
    then = str(p.data.get("then", ""))
    harm = spirit_mode(eng) == "harm"
    board = Board(eng)
    opt = {str(a.p("option")): a for a in legal}
    if then == "fear_bonus":
        if not harm:
            return opt.get("no", legal[-1])
        return max((a for a in legal if a.p("option") != "no"),
                   key=lambda a: -eng.die(int(str(a.p("option")))).value, default=legal[0])
    if then == "place_clue":
        return _place_clue(eng, board, legal, harm)
    if then in ("ut_card", "ut_clue") and st.unknown_threat is not None:
        # P-UNK-03/04: cards alike are offered once (a kind can be taken again): a kind
        # not yet taken first, so the deck is twelve different cards while it can be
        ut = st.unknown_threat
        kind = eng.ut_card_kind if then == "ut_card" else eng.ut_clue_kind
        have = {kind(c) for c in (ut.deck if then == "ut_card" else ut.clues)}
        # The deck's cards come in pages (`ut_ask_cards`): turn on while this page has no new
        # kind, but only forward, so a page of cards taken already is left for good
        picks = [a for a in legal if not str(a.p("option")).startswith(UT_PAGE)]
        turn = [a for a in legal if str(a.p("option")).startswith(UT_PAGE)
                and int(str(a.p("option")).removeprefix(UT_PAGE)) > 0]
        return next((a for a in picks if kind(str(a.p("option"))) not in have),
                    turn[0] if turn else picks[0])
    if then in ("drain", "pawn_drain"):
        if not harm:
            return opt.get("release", legal[-1])
        payers = [a for a in legal if a.p("option") != "release"]
        if payers:
            return max(payers, key=lambda a: eng.die(int(str(a.p("option")))).value)
        return opt.get("release", legal[-1])
    if then == "spirit_discard":
        return min(legal, key=lambda a: _card_play_worth(eng, board, str(a.p("option")))[0])
    if then == "declare_die":
        card = str(p.data.get("card"))
        def die_worth(a: Action) -> float:
            d = int(str(a.p("option")))
            return sum(max(0.0, _power_worth(eng, board, card, w, d)) for w in ("top", "bottom"))
        return max(legal, key=die_worth)
    if then == "power":
        card = str(p.data.get("card"))
        die = int(p.data.get("die", 0))
        best, best_v = opt.get("done", legal[-1]), 0.0
        for a in legal:
            w = str(a.p("option"))
            if w in ("top", "bottom"):
                v = _power_worth(eng, board, card, w, die)
                if v > best_v + 1e-9:
                    best, best_v = a, v
        return best
    if then == "increase":
        return max(legal, key=lambda a: _increase_gain(eng, board, str(a.p("option"))))
    if then == "relocate":
        def reloc(a: Action) -> float:
            room = str(a.p("option")).split(":", 1)[1]
            return _spirit_room_value(eng, board, room, True) + _entry_bonus(eng, board, room)
        return max(legal, key=reloc)
    if then == "pawn_step":
        cost = int(p.data.get("cost", 0))
        here = eng.st.spirit.pawn_room

        def step_v(a: Action) -> float:
            o = str(a.p("option"))
            if o == "stop":
                return _pawn_step_worth(eng, board, here, cost, harm) + 0.01 if here else 0.0
            return _pawn_step_worth(eng, board, o, cost, harm)
        return max(legal, key=step_v)
    if then in ("die_step", "add_die"):
        def room_v(a: Action) -> float:
            o = str(a.p("option"))
            if o == "stop":
                here = eng.die(int(p.data.get("die", 0))).room if then == "die_step" else None
                return _spirit_room_value(eng, board, here, harm) + 0.01 if here else 0.0
            v = _spirit_room_value(eng, board, o, harm)
            if eng.lit(o):
                if then == "die_step" and p.data.get("penalty", True) and eng.die(
                        int(p.data.get("die", 0))).value <= 1:
                    # Its last presence goes to the light and the die fades (stop 68's demo:
                    # Broken Form moved a die showing 1 into a lit room beside a dark one)
                    return -float(INF)
                v -= 0.5
            return v
        return max(legal, key=room_v)
    if then == "die_into":
        if not harm:
            return opt.get("no", legal[-1])
        return next((a for a in legal if a.p("option") != "no"), legal[0])
    if then == "target":  # a visitor to target with a spirit effect
        def vul(a: Action) -> float:
            o = st.visitors.get(str(a.p("option")))
            if o is None:
                return 0.0
            v = board.danger(o) + (2.0 if st.nerve is None else 0.0) * board.danger(o)
            return v if harm else -v
        return max(legal, key=vul)
    if then in ("door", "door_free"):
        if then == "door_free":
            return opt.get("no", legal[0])
        pref = ("close_and_lock", "lock", "close") if harm else ("open", "unlock")
        for want in pref:
            for a in legal:
                if str(a.p("option")).startswith(want + ":"):
                    return a
        return legal[0]
    if then in ("choice", "offer_reaction", "trash_fear", "keep_item"):
        return _choice(eng, seat, legal, helping_visitors=not harm)
    if then in ("increase_die", "reduce", "pawn_pay"):
        return max(legal, key=lambda a: eng.die(int(str(a.p("option")))).value
                   if str(a.p("option")).isdigit() else 0)
    for stop in ("done", "no", "stop"):
        if stop in opt:
            return opt[stop]
    return legal[0]


# ====================================================================== entry point


def choose_action(state: PresenceState, seat: str, game: Game[Any, Any],
                  legal: list[Action] | None = None) -> Action:
    """The AI's action for `seat` (one of `game`'s legal actions, `legal` when the caller
    has them already). The game object is handed in by `Game.ai_action`, so the AI plays by
    the game's contract without importing it."""
    if legal is None:
        legal = game.legal_actions(state, seat)
    if not legal:
        raise IllegalAction("Nothing to do.", rule="CORE-TURN")
    if len(legal) == 1:
        return legal[0]
    eng = Engine(state)  # read only: the AI calls no method that changes the state
    if state.prompts and seat in state.prompts[-1].seats:
        if seat == state.spirit_seat:
            picked = _spirit_prompt(eng, seat, legal)
        else:
            picked = _visitor_prompt(eng, seat, legal)
    elif seat == state.spirit_seat:
        picked = _spirit_turn(eng, legal)
    else:
        picked = _visitor_turn(eng, seat, legal)
    return picked if picked in legal else legal[0]


def last_chance_invoke(state: PresenceState, seat: str, legal: list[Action]) -> Action | None:
    """The Invoke `seat` would play rather than let a late turn end with main actions left
    (`_last_chance_invoke`), from its own `legal` actions; None if it would not. A two-player
    visitor player asks it of the character that holds the card (P-2P-04) before ending the
    turn (`Presence.choose_ai_action`)."""
    eng = Engine(state)
    main = [(0.0, -i, a) for i, a in enumerate(legal) if a.params.get("speed") != "quick"]
    return _last_chance_invoke(eng, deduction(eng, seat), main)


def visitor_plans(state: PresenceState, seat: str, game: Game[Any, Any]) -> list[Action]:
    """The whole plans a visitor's search weighs beside the heuristic's pick (#23,
    `Presence.ai_plans`), best first: on a turn, Invoke now (its timing: the heuristic keeps
    the card for a surer reveal until `scarcity` runs out), then the other actions in the
    heuristic's own order (a clue card played is a placement beneath a secret); Trade,
    Smother and Pick up, which the heuristic never takes, come last. At a ``clue_discard`` the
    positions by the chance the card's trauma lies there; at a ``reveal_secret`` by the
    Invoke's expected worth. Read from the state it is given (a resample of the seat's
    view), as `choose_action` is."""
    legal: list[Action] = game.legal_actions(state, seat)
    if len(legal) < 2 or seat == state.spirit_seat or seat not in state.visitors:
        return []
    if state.prompts and seat not in state.prompts[-1].seats:
        return []  # another seat's question: nothing of this visitor's to plan
    eng = Engine(state)
    ded = deduction(eng, seat)
    if state.prompts:
        p = state.prompts[-1]
        then = str(p.data.get("then", ""))
        if then == "clue_discard" and p.data.get("card"):
            where = ded.where(eng.pack.clue_card(str(p.data["card"])).trauma)

            def likely(a: Action) -> float:
                opt = str(a.p("option"))
                return where[int(opt) - 1] if opt.isdigit() and 1 <= int(opt) <= 4 else -1.0
            return sorted(legal, key=lambda a: -likely(a))
        if then == "reveal_secret":
            def worth(a: Action) -> float:
                opt = str(a.p("option"))
                if not opt.isdigit() or not 1 <= int(opt) <= 4:
                    return -float(INF)
                return ded.invoke_value(int(opt) - 1, state, 1.0)
            return sorted(legal, key=lambda a: -worth(a))
        return []
    board = Board(eng)
    scored: list[tuple[float, float, int, Action]] = []
    for i, a in enumerate(legal):
        if a.kind == K.END_TURN:
            continue
        card = str(a.p("card")) if a.kind == K.PLAY else ""
        invoke = bool(card) and eng.is_action_card(card) and any(
            e.op == "reveal_secret" for x in eng.pack.action_card(card).actions
            for e in x.effects)
        try:
            score = _score_visitor_action(eng, board, ded, seat, a)
        except (KeyError, IndexError, AssertionError):
            score = -float(INF)
        scored.append((0.0 if invoke else 1.0, -score, i, a))
    return [a for *_, a in sorted(scored, key=lambda x: (x[0], x[1], x[2]))]


def weighty(state: PresenceState, seat: str) -> bool:
    """Whether a visitor's decision is one that wins or loses the secrets (#23): where a clue
    card goes (``clue_discard``), which secret an Invoke reveals (``reveal_secret``), and a
    turn with an Invoke card in hand (when to reveal). Read off the seat's own view: the
    prompt and its own hand. The search spends more worlds there (`Presence.ai_budget`)."""
    if seat == state.spirit_seat or seat not in state.visitors:
        return False
    if state.prompts and seat in state.prompts[-1].seats:
        return str(state.prompts[-1].data.get("then", "")) in ("clue_discard", "reveal_secret")
    eng = Engine(state)
    return _has_invoke(eng, eng.vis(seat))


__all__ = ["Deduction", "choose_action", "invoke_chance", "spirit_mode", "visitor_plans",
           "weighty"]


# ====================================================================== the search's estimate


VALUE_FEATURES = ("bias", "revealed", "secured", "short", "tiered", "hope_gap", "nerve_gap",
                  "hope_lost", "nerve_lost", "succumbed", "knocked_out", "fear")
"""What `win_estimate` weighs: the public board and tracks, plus the world's secret cards (see
`value_features`)."""


def value_features(eng: Engine, low_costs: bool = False) -> list[float]:
    """Each side's progress, scaled to about 0..1: secrets revealed; secrets revealed or
    revealable now (an unrevealed secret with at least one clue card of its own trauma
    beneath it, so an Invoke there succeeds, G-09); secrets still lacking any matching card
    per round left; secrets that would reveal above the low tier; the markers' distance from
    the time marker, lost markers, the visitors down or out, and how near the worst-off
    visitor is to a knock-out.

    "Revealable" reads the secret cards of the state it is given. The search calls this only
    at the cut-off of a play-out on a world dealt from the seat's view (`Game.resample`),
    whose secret cards are drawn from what the seat may know, weighted by the clue cards it
    has seen: it scores the world as a play-out to the end would (a finished play-out's
    result reads the same cards), so a clue card placed beneath the right secret counts
    where it is right, in the worlds where it is right (#23: the public deduction read at
    the cut-off saw a placement only as a shift of the odds, and a reveal as a loss: the
    revealed secret stopped counting as "ready"). `secured` never falls on a reveal.

    `low_costs` (the visitors' estimate): a revealable secret whose matching cards reach only
    the low tier is read with the hope and nerve its reveal will cost (G-05: the low tier's
    track effects) already paid, so revealing it moves only "revealed", upward. Without it a
    low reveal *lowered* the visitors' estimate at every round (nerve's weight against one
    more secret revealed), and a search that could overrule the heuristic held its Invokes
    to the end: Eternal Darkness (#23, stop 31)."""
    st = eng.st
    pack = eng.pack
    board = eng.secret_board()
    final = pack.hope_track.final_round
    revealed = sum(1 for s in st.secrets if s.revealed)
    rounds_left = max(1, final - st.round + 1)
    ready = tiered = 0
    cost = {"hope": 0, "nerve": 0}
    face_down = st.mystery  # P-MYST-02: the discards' traumas are the engine's to judge
    for pos, slot in enumerate(st.secrets, 1):
        if slot.revealed:
            if slot.tier != "low":
                tiered += 1
            continue
        secret = pack.secret(slot.card)
        trauma = secret.trauma
        matching = sum(1 for c in slot.discards if not pack.is_fear_card(c)
                       and pack.clue_card(c).trauma == trauma)
        if matching >= 1 and not face_down:
            ready += 1
            if board.tier(matching, pos) != "low":
                tiered += 1
            elif low_costs:
                for e in _dicts(secret.tiers.low):
                    if e.get("op") == "adjust_track" and e.get("marker") in cost:
                        cost[str(e["marker"])] -= min(0, int(e.get("delta", 0)))
    hope = None if st.hope is None else st.hope - cost["hope"]
    nerve = None if st.nerve is None else st.nerve - cost["nerve"]
    if hope is not None and hope < st.time:
        hope = None  # paid down past the time marker: lost (P-TRACK)
    if nerve is not None and nerve < st.time:
        nerve = None
    active = [v for v in st.visitors.values() if not v.succumbed]
    fear = max((fear_share(eng, v) for v in active), default=1.0)
    return [
        1.0,
        revealed / 4.0,
        (revealed + ready) / 4.0,
        min(2.0, (4 - revealed - ready) / rounds_left),
        tiered / 4.0,
        0.0 if hope is None else min(6, hope - st.time) / 6.0,
        0.0 if nerve is None else min(6, nerve - st.time) / 6.0,
        1.0 if hope is None else 0.0,
        1.0 if nerve is None else 0.0,
        float(sum(1 for v in st.visitors.values() if v.succumbed)),
        float(sum(1 for v in active if v.knocked_out)),
        fear,
    ]


VISITORS_WIN = (-3.74, 2.64, 0.83, -5.35, 1.75, 1.45, 4.34, -0.98, -0.01, 0.0, 0.0, -0.8)
SPIRIT_HARMS = (4.85, -3.3, -0.38, -2.45, -2.73, 0.87, -4.29, -0.34, -0.26, 1.89, 0.14, -0.05)
SPIRIT_HELPS = (-1.12, 0.9, -0.29, -5.07, 1.09, 0.8, 3.72, 0.5, -1.28, 0.0, -0.36, -0.24)
"""Logistic weights over `VALUE_FEATURES`: the visitors' estimate, and the spirit's while its
script harms the visitors and while it helps them (`spirit_mode`: a good hidden script wins
with them, so their progress is its own). Fitted by `python -m bench.presence_value --games
100 --seed 1001` (Newton, light L2; every 4th position of 200 whole games of the easy AI on
every seat, 3 and 4 players; fitted on the even seeds, checked on the odd). The visitors'
weights on what can only hurt them (lost markers, knock-outs, succumbing, fear) are held at
or below 0, as are a harming spirit's on the visitors' progress: a fit of the other sign is
the sample's correlation, and a search would court it. Held out (log-loss against the base
rate; predicted/observed per fifth of the prediction):

- visitors: 0.550 against 0.683 (base 41 %); 0.04/0.09, 0.20/0.31, 0.38/0.36, 0.52/0.56,
  0.84/0.83;
- spirit, harming: 0.623 against 0.668 (base 61 %); 0.29/0.33, 0.54/0.58, 0.62/0.67,
  0.72/0.73, 0.86/0.75;
- spirit, helping: 0.487 against 0.527 (base 76 %); 0.61/0.65, 0.75/0.66, 0.77/0.83,
  0.85/0.82, 0.93/0.94.

(The estimate before #23's refit, on the public odds alone and one spirit estimate: 0.43
against 0.50 and 0.64 against 0.68, on the visitors of before `Deduction.placement`.) A
harming spirit's odds fall with the visitors' reveals, but not with a secret made
revealable: an evil script wins only by a succumbed visitor, and Eternal Darkness, where
secrets go unrevealed, is its loss too (P-WIN-04, P-WIN-06)."""


FEAR_PRICE = 0.7
"""What a harming spirit's estimate adds per fear track filled, summed over the visitors up
and about (`fear_progress`), while only a succumbed visitor can make it win
(`wins_with_visitors`): a full track knocks a visitor out and costs the visitors a nerve
space (P-FEAR-03), worth 4.29 / 6 = 0.72 of `SPIRIT_HARMS`'s logit through ``nerve_gap``,
rounded. The fitted weights see fear only through the worst-off visitor's track, at -0.05:
fear short of a knock-out earned a play-out nothing, and the search overruled the
heuristic's frightening card plays for die moves, increases and early ends of its turn
(#23, stop 54: 4 players, evil scripts, 39 games at normal: 91 of the 189 overrides of the
spirit's turn). Priced, the 4-player spirit at normal won 75 of the 166 evil-script deals
of seeds 1-400 where it won 62 (easy: 70), and 275 of all 400 where it won 262; on a second
stream of search worlds 65 of the 166 where it won 65 (rules.md, stop 54): a small gain,
not a sure one."""


def fear_progress(eng: Engine) -> float:
    """The fear tracks filled so far, summed over the visitors neither succumbed nor knocked
    out (a knock-out has paid its nerve already; its track refills from the top)."""
    return sum(fear_share(eng, v) for v in eng.st.visitors.values()
               if not v.succumbed and not v.knocked_out)


def fear_share(eng: Engine, v: VisitorState) -> float:
    """How much of `v`'s fear track is filled (1: the next knock-out is due)."""
    return v.fear / max(1, eng.pack.visitor(v.character).fear_track)


def _reveal_needs_a_match(pack: Any) -> bool:
    """Whether every reveal effect of the pack needs at least one matching clue card beneath
    (G-09: the shipped Invoke needs one); a custom pack's ``min_matching = 0`` reveals any."""
    key = id(pack)
    hit = _NEEDS_MATCH.get(key)
    if hit is None:
        def walk(x: Any) -> bool:
            if isinstance(x, dict):
                if x.get("op") == "reveal_secret" and int(x.get("min_matching", 1)) < 1:
                    return False
                return all(walk(v) for v in x.values())
            if isinstance(x, list | tuple):
                return all(walk(v) for v in x)
            return True
        hit = walk(pack.model_dump())
        _NEEDS_MATCH[key] = hit
    return hit


_NEEDS_MATCH: dict[int, bool] = {}


def dead_secrets(eng: Engine) -> int:
    """Unrevealed secrets no Invoke can ever reveal in this world: no clue card of the
    secret's own trauma beneath it, and every one of that trauma's clue cards (the secret
    board's printed ``in_deck`` for its position, G-04) already beneath *other* positions,
    where no rule takes it back. The visitors need all four (P-WIN-01), so such a world is
    lost for them, however far the rest has come (#23: 4 players at normal, Eternal
    Darkness in seeds 3, 10 and 14 of stop 30 with position 4's three cards all beneath
    other secrets by round 5-7). Reads the world's secret cards, as `value_features` does;
    Mystery Mode's face-down discards and a pack whose reveal needs no match count none."""
    st = eng.st
    pack = eng.pack
    if st.mystery or not _reveal_needs_a_match(pack):
        return 0
    in_deck = [p.in_deck for p in pack.secret_board(st.n).positions]
    dead = 0
    for k, slot in enumerate(st.secrets):
        if slot.revealed:
            continue
        trauma = pack.secret(slot.card).trauma
        mine = elsewhere = 0
        for j, other in enumerate(st.secrets):
            n = sum(1 for c in other.discards if not pack.is_fear_card(c)
                    and pack.clue_card(c).trauma == trauma)
            if j == k:
                mine = n
            else:
                elsewhere += n
        if mine == 0 and elsewhere >= in_deck[k]:
            dead += 1
    return dead


def win_estimate(state: PresenceState, seat: str) -> float:
    """P(the seat's side wins): a logistic of the progress terms (`value_features`, which
    read the world's secret cards); the spirit's estimate also reads its script's mood, and
    a harming spirit's prices every visitor's fear (`FEAR_PRICE`) once only a succumbed
    visitor can make it win (`wins_with_visitors`; not while a good hidden script turns
    early, whose own marker a knock-out's nerve may cost). A world with a secret no Invoke
    can reveal (`dead_secrets`) is a sure loss for the visitors: 0, whatever the logistic
    says (its features cannot see it)."""
    eng = Engine(state)
    if seat != state.spirit_seat:
        if dead_secrets(eng):
            return 0.0
        weights = VISITORS_WIN
    else:  # a helping (good, hidden) script wins with the visitors: two estimates
        weights = SPIRIT_HELPS if spirit_mode(eng) == "help" else SPIRIT_HARMS
    visitors = seat != state.spirit_seat
    z = sum(w * x for w, x in zip(weights, value_features(eng, low_costs=visitors),
                                  strict=True))
    if weights is SPIRIT_HARMS and not wins_with_visitors(eng):
        z += FEAR_PRICE * fear_progress(eng)
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
