"""Engine basics: the state it wraps, events, names, stages, label lookups, decks, the outcome."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from rules.core.game import join_words
from rules.core.types import PUBLIC, Action, Audience, Event
from rules.fourth_wall import actions as K
from rules.fourth_wall.content import (
    Horror,
    Investigator,
    Marble,
    WallCard,
)
from rules.fourth_wall.engine.board import (
    LOG_SIZE,
    STAGE_INDEX,
    ModSource,
    defs_of,
    pack_for,
    slot_name,
    symbols_text,
)
from rules.fourth_wall.state import (
    FourthWallState,
    HorrorOnStreets,
    InvestigatorState,
    Step,
)

if TYPE_CHECKING:
    from rules.fourth_wall.engine import Engine



def listed(names: list[str]) -> str:
    """Names in a sentence, joined with "and"; with a serial comma when a name holds an "and"
    of its own, so a dual Marble stays one item: "Clue and Force Marble, and Science Marble"
    (without it, "Clue and Force Marble and Science Marble" reads as three)."""
    if len(names) > 1 and any(" and " in n for n in names):
        return ", ".join(names[:-1]) + ", and " + names[-1]
    return join_words(names)


# A Give or Trade in the window after a Regroup says it is free (stop 66's demo: "The
# Salvager gives a Marble to The Fixer." during The Wall's turn read as spending an Action).
# Said in the window's prompt, its buttons and the move's public line only (stop 67).
FREE_AFTER_REGROUP = " (free after Regrouping: it costs no Action Point)"


def marbles_listed(names: list[str]) -> str:
    """Marbles in a sentence, each behind its article or its count, so a dual Marble reads
    as one: "a Force and Science Marble and a Clue Marble", "2 Clue Marbles and an Elder
    Sign" ("" for none)."""
    counts: dict[str, int] = {}
    for name in names:
        counts[name] = counts.get(name, 0) + 1
    return join_words([(f"an {name}" if name[:1] in "AEIOU" else f"a {name}") if n == 1
                       else f"{n} {name}s" for name, n in counts.items()])

class Basics:
    """The part of `Engine` this module holds (see the module's docstring)."""

    def __init__(self: Engine, state: FourthWallState) -> None:
        self.st = state
        self.pack = pack_for(state.pack_path)
        self.defs = defs_of(self.pack)
        self.opts = self.pack.options
        self.events: list[Event] = []
        self._mods_key: tuple[Any, ...] | None = None
        self._mods: dict[str, list[ModSource]] = {}
        self._frozen = False
        self._ranks: tuple[tuple[int, str], ...] = ()
        self._ranks_for = -1

    def freeze(self: Engine) -> Engine:
        """Promise that the state will not change while this engine reads it (a view): the
        standing rules are then worked out once instead of checked at every lookup."""
        self._frozen = True
        return self


    # ================================================================== small helpers
    def emit(self: Engine, text: str, kind: str = "info", audience: Audience = PUBLIC,
             **data: Any) -> None:
        self.events.append(Event(kind=kind, text=text, audience=audience, data=data))
        if audience == PUBLIC:
            self.st.log.append(text)
            if len(self.st.log) > LOG_SIZE:
                del self.st.log[: len(self.st.log) - LOG_SIZE]

    def emit_team(self: Engine, public: str | None, private: str, kind: str = "info") -> None:
        """A public line plus the same with hidden details for the Investigator team
        (FW-VIS-06/09/10: the Wall sees only counts)."""
        if public:
            self.emit(public, kind)
        self.emit(private, kind, audience=self.team_seats())

    def later(self: Engine, *steps: Step) -> None:
        """Queue steps to run next, before anything already queued, in the given order."""
        self.st.queue[0:0] = list(steps)

    @property
    def conflict(self: Engine) -> bool:
        return self.st.mode == "conflict"

    @property
    def alliance(self: Engine) -> bool:
        return self.st.mode == "alliance"

    @property
    def over(self: Engine) -> bool:
        return self.st.outcome is not None

    # ---- cards
    def investigator_card(self: Engine, card: str) -> Investigator:
        return self.defs.investigators[card]

    def marble(self: Engine, mid: str) -> Marble:
        return self.defs.marbles[self.st.marble_cards[mid]]

    def marble_name(self: Engine, mid: str) -> str:
        return self.marble(mid).name if mid in self.st.marble_cards else mid

    def a_marble(self: Engine, mid: str) -> str:
        """A Marble as a sentence's object: "a Force Marble", "an Elder Sign" (stop 63's demos
        read "The Gatewright loses Holy Symbol.")."""
        return marbles_listed([self.marble_name(mid)])

    def the_marble(self: Engine, mid: str) -> str:
        """A Marble opening a sentence: "The Molotov Cocktail is Attached to …"."""
        return f"The {self.marble_name(mid)}"

    def horror(self: Engine, hid: str) -> Horror:
        return self.defs.horrors[self.st.horror_cards[hid]]

    def horror_name(self: Engine, hid: str) -> str:
        return self.horror(hid).name if hid in self.st.horror_cards else hid

    def wall(self: Engine) -> WallCard:
        return self.defs.walls[self.st.wall_card]

    # ---- investigators
    def has_inv(self: Engine, iid: str) -> bool:
        return any(i.id == iid for i in self.st.investigators)

    def inv(self: Engine, iid: str) -> InvestigatorState:
        for i in self.st.investigators:
            if i.id == iid:
                return i
        raise KeyError(iid)

    def invs_of(self: Engine, seat: str) -> list[InvestigatorState]:
        return [i for i in self.st.investigators if i.seat == seat]

    def inv_name(self: Engine, inv: InvestigatorState) -> str:
        if inv.card:
            return self.investigator_card(inv.card).name
        return slot_name(int(inv.id[1:]) - 1)

    def seat_of(self: Engine, iid: str) -> str:
        return self.inv(iid).seat

    def team_seats(self: Engine) -> list[str]:
        seen: list[str] = []
        for i in self.st.investigators:
            if i.seat not in seen:
                seen.append(i.seat)
        return seen

    def active(self: Engine) -> InvestigatorState | None:
        """The investigator whose turn it is, or whose turn the Wall turn precedes."""
        invs = self.st.investigators
        if not invs or self.st.phase in ("setup", "over"):
            return None
        return invs[self.st.turn_index % len(invs)]

    def team_seat(self: Engine) -> str:
        """Who submits the team's collective choices (Elected, FW-PROMPT-07)."""
        act_inv = self.active()
        return act_inv.seat if act_inv else self.st.investigators[0].seat

    def from_active(self: Engine) -> list[InvestigatorState]:
        invs = self.st.investigators
        k = self.st.turn_index % len(invs)
        return invs[k:] + invs[:k]

    def sane(self: Engine, exclude: str | None = None) -> list[InvestigatorState]:
        """Investigators that may be chosen or affected (FW-INSANE-03), from the active seat."""
        return [i for i in self.from_active() if not i.insane and i.card and i.id != exclude]

    def seat_label(self: Engine, seat: str) -> str:
        if self.st.wall_seat == seat:
            if self.st.revealed:
                return f"Wall player ({self.wall().name})"
            return "Wall player"
        names = [self.inv_name(i) for i in self.invs_of(seat)]
        return " & ".join(names) if names else "an Investigator player"

    def hand_limit(self: Engine, inv: InvestigatorState) -> int:
        """FW-HAND-01: Sanity as modified by effects (never below 1)."""
        if not inv.card:
            return 0
        base = self.investigator_card(inv.card).sanity
        for src in self.modifier_sources():
            m = src[1]
            if m.kind == "hand_limit_delta" and (
                m.scope == "each_investigator" or src[3] is None or src[3] == inv.id
            ):
                base += m.n
        return max(1, base)


    # ================================================================== stages, gates
    def layout_ranks(self: Engine) -> tuple[tuple[int, str], ...]:
        if self._ranks_for != self.st.tracker_size:
            self._ranks = self.pack.tracker(self.st.tracker_size).ranks()
            self._ranks_for = self.st.tracker_size
        return self._ranks

    def stage(self: Engine) -> str:
        ranks = self.layout_ranks()
        return ranks[min(self.st.rank_index, len(ranks) - 1)][1]

    def stage_at_least(self: Engine, stage: str) -> bool:
        return STAGE_INDEX[self.stage()] >= STAGE_INDEX[stage]

    @property
    def max_gates(self: Engine) -> int:
        return self.opts.max_open_gates

    def scourge_blocks(self: Engine) -> bool:
        """FW-SCOURGE-03: no Gate may be closed while The Scourge is On the Streets."""
        return self.conflict and self.st.scourge is not None


    # ================================================================== lookups for labels
    def horror_label(self: Engine, hid: str, needs: bool = True) -> str:
        """The Horror's name, which of its name it is On the Streets, and (``needs``) the
        Symbols it still needs to be Defeated: the Investigators' measure, not a cost of
        the Wall's (stop 70: "Trigger Cultist — needs Force" read as Force to Trigger)."""
        h = self.on_streets(hid)
        name = self.horror_name(hid)
        if h is None:
            return name
        tags = [f"Street {h.street}"] if h.street is not None else []
        if not tags and self._twin_named(h):  # which of two Ghouls: as the log and map say,
            # and what each holds (stop 69: two Ghouls with nothing Attached read alike)
            held = ", ".join(self.marble_name(m) for m in h.attached) or "nothing Attached"
            tell = self.horror_tell(hid)
            tags += [tell] if tell and self.st.scourge != hid else []
            tags.append(f"with {held}")
        # In the bracket, not after the Symbols: "needs Force Drained" read as a Symbol.
        tags += ["Drained"] if h.drained else []
        tags += ["The Scourge"] if self.st.scourge == hid else []
        where = f" ({'; '.join(tags)})" if tags else ""
        if not needs:
            return f"{name}{where}"
        return f"{name}{where} — needs {symbols_text(self._needs_left(h))}"

    def _needs_left(self: Engine, h: HorrorOnStreets) -> Counter[str]:
        """The Symbols `h` still needs to be Defeated (its Defeat Cost less what is Attached)."""
        att = self.attached_symbols(h)
        return Counter({s: n - att[s] for s, n in self.defeat_cost(h.id).items() if n > att[s]})

    def horror_called(self: Engine, hid: str) -> str:
        """A Horror On the Streets as a log line names it: with its Street when another of
        its name is On the Streets ("Watcher on Street 3"; stop 63's demo read "Double Draw
        is Attached to Watcher. Watcher is Defeated!" with Watchers on Streets 3 and 5).
        Conflict has no Streets: its name and `horror_tell`."""
        h = self.on_streets(hid)
        name = self.horror_name(hid)
        if h is None or not self._twin_named(h):
            return name
        if h.street is not None:
            return f"{name} on Street {h.street}"
        tell = self.horror_tell(hid)
        return f"{name} ({tell})" if tell else name

    def horror_tell(self: Engine, hid: str) -> str | None:
        """Which of the Conflict Horrors On the Streets of one name `hid` is, in words (the
        log's, the map's, the labels'): The Scourge, else by order of arrival, which holds
        while both stay (stop 64's demo: "Attached to Ghoul. Ghoul is Defeated!" with two
        Ghouls, one The Scourge). None for a Horror with no twin, or on a Street (Alliance
        names the Street)."""
        h = self.on_streets(hid)
        if h is None or h.street is not None or not self._twin_named(h):
            return None
        if self.st.scourge == hid:
            return "The Scourge"
        name = self.horror_name(hid)
        alike = [o.id for o in self.st.streets if self.horror_name(o.id) == name]
        same = [o for o in alike if o != self.st.scourge]
        if len(same) == 1:
            return None
        if len(same) == 2:
            return f"the {'older' if same.index(hid) == 0 else 'newer'} one"
        # Counted among them all, The Scourge too: "the third to arrive" is the third that
        # did (stop 69: a fourth Ghoul was "the third" beside an older Scourge).
        k = alike.index(hid)
        nth = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")
        return f"the {nth[k] if k < len(nth) else f'{k + 1}th'} to arrive"

    def _twin_named(self: Engine, h: HorrorOnStreets) -> bool:
        """Whether another Horror On the Streets has `h`'s name (Conflict has no Streets to
        tell them apart by)."""
        name = self.horror_name(h.id)
        return any(o.id != h.id and self.horror_name(o.id) == name for o in self.st.streets)

    def on_streets(self: Engine, hid: str) -> HorrorOnStreets | None:
        for h in self.st.streets:
            if h.id == hid:
                return h
        return None

    def on_streets_marble(self: Engine, mid: str) -> bool:
        return mid in self.st.anchored or any(mid in h.attached for h in self.st.streets)

    def street_marble_label(self: Engine, mid: str) -> str:
        name = self.marble_name(mid)
        if mid in self.st.anchored:
            return f"{name} (Anchored)"
        for h in self.st.streets:
            if mid in h.attached:
                tell = self.horror_tell(h.id)  # the map's and the log's word for it (stop 69)
                which = (f" ({tell + '; ' if tell else ''}needs "
                         f"{symbols_text(self._needs_left(h))})"
                         if h.street is None and self._twin_named(h) else "")
                return f"{name} on {self.horror_name(h.id)}{which}"
        return name

    def cost_text(self: Engine, action: Action) -> str:
        iid = action.p("inv")
        if not isinstance(iid, str) or not self.has_inv(iid):
            return "?"
        name = {K.SEARCH: "search", K.INTERVENE: "intervene", K.UTILISE: "utilise",
                K.GIVE: "give_or_trade", K.TRADE: "give_or_trade", K.REGROUP: "regroup",
                K.CLOSE_GATE: "close_gate", K.EXPLOIT: "exploit", K.UNIQUE: "unique"}
        if action.kind not in name:
            return "?"
        return f"{self.action_cost(name[action.kind], self.inv(iid))} AP"


    # ================================================================== decks
    def draw_marble(self: Engine) -> str | None:
        """Top Marble; an empty deck is rebuilt from the discard pile (FW-HORROR-10)."""
        st = self.st
        if not st.marble_deck and st.marble_discard:
            st.marble_deck = list(st.marble_discard)
            st.marble_discard = []
            st.rng.shuffle(st.marble_deck)
            self.emit("The Marble deck ran out: the discard pile is shuffled into a new deck.",
                      "reshuffle")
        return st.marble_deck.pop() if st.marble_deck else None

    def draw_horror(self: Engine) -> str | None:
        st = self.st
        if not st.horror_deck and st.horror_discard:
            st.horror_deck = list(st.horror_discard)
            st.horror_discard = []
            st.rng.shuffle(st.horror_deck)
            self.emit("The Horror deck ran out: the discard pile is shuffled into a new deck.",
                      "reshuffle")
        return st.horror_deck.pop() if st.horror_deck else None

    def can_draw_marble(self: Engine) -> bool:
        return bool(self.st.marble_deck or self.st.marble_discard)

    def can_draw_horror(self: Engine) -> bool:
        return bool(self.st.horror_deck or self.st.horror_discard)

    def distinct(self: Engine, marbles: list[str]) -> list[str]:
        """One Marble per card type (copies are interchangeable), in hand order."""
        seen: set[str] = set()
        out: list[str] = []
        for mid in marbles:
            card = self.st.marble_cards[mid]
            if card not in seen:
                seen.add(card)
                out.append(mid)
        return out

    def distinct_horrors(self: Engine, horrors: list[str]) -> list[str]:
        seen: set[str] = set()
        out: list[str] = []
        for hid in horrors:
            card = self.st.horror_cards[hid]
            if card not in seen:
                seen.add(card)
                out.append(hid)
        return out


    # ================================================================== outcome
    def finish(self: Engine, winner: str, reason: str) -> None:
        if self.over:
            return
        self.st.outcome = "investigators" if winner == "investigators" else "wall"
        self.st.phase = "over"
        self.st.reason = reason
        self.st.prompts = []
        self.st.queue = []
        if winner == "investigators":
            self.emit("The Investigators win: " + reason, "game_over")
        else:
            self.emit("The Wall wins: " + reason, "game_over")
