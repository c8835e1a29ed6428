"""The Exorcism rules engine: turn flow, the clock, haunting, ghosts, wounds, actions, effects.

One `Engine` wraps one (private, mutable) state for the length of one call. Everything the
game does goes through two structures held in the state:

- ``state.queue``: pending resolution steps (turn start, a Haunt draw, a Wound, the rest of
  an effect list ...), run front to back by `Engine.run`;
- ``state.prompts``: a stack of pending decisions. While a prompt is pending the queue waits;
  answering it may push further prompts or queue steps.

When both are empty the game *rests* in the active seat's Action phase (``phase ==
"actions"``) or, in One vs All, in the Ghost player's Haunt phase (``phase == "ghost"``).

Card mechanics are never named here: Room, Character, Task and Plan effects are read from the
content pack and dispatched by their ``op`` (`Engine.EFFECT_HANDLERS`); standing rules are
content modifiers read by ``kind``. The three Ghosts and the six Terror Abilities are rules of
the game itself (EX-GHOST-*, EX-TERROR-*), so they are implemented by their fixed ids.

Plans "at any time" (EX-ACT-09) — the project's reading of EX-AMB-54 and the windows of
EX-PROMPT-05:

- (c) between the active player's Actions, (e) at the start of the Action phase, and between
  the Ghost player's Haunt actions: the game *rests*, the table only waits for the seats named
  by `to_act`, and a seat holding a Plan playable right now may also act (`Game.may_act`)
  without being awaited — nobody is stalled;
- (a) after each Haunt card is revealed (drawn in core and Solo, played or drawn by the Ghost
  player in One vs All), before it resolves, and (d) after the active player's last Action,
  before the turn ends: a real prompt (``plan_window``) that opens only for the seats that hold
  a Plan playable then (under the `hidden_plans` house option: every investigator holding any
  Plan, which is public, so the window never tells the Ghost player who holds what), all at
  once, and closes when each has passed (default: pass). A seat that plays a Plan keeps its
  place in the window: it reopens after the Plan resolves for those who have not passed;
- (b) on every pending Wound: the Triage prompt (EX-PROMPT-06) for `on_wound` Plans.

A Plan played while another prompt is pending is not allowed (the pending decision comes
first).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from functools import lru_cache
from pathlib import Path
from typing import Any

from rules.core.errors import IllegalAction
from rules.core.types import PUBLIC, Action, Audience, Event, Prompt, act
from rules.exorcism import actions as K
from rules.exorcism.content import (
    TOOL_TYPES,
    ActionAbility,
    Character,
    Effect,
    Modifier,
    Pack,
    Room,
    default_pack,
    load_pack,
)
from rules.exorcism.state import ExorcismState, InvestigatorState, Step

GHOSTS: tuple[str, ...] = ("wraith", "bull", "devourer")
GHOST_NAMES: dict[str, str] = {"wraith": "Wraith", "bull": "Bull", "devourer": "Devourer"}
TOOL_NAMES: dict[str, str] = {
    "weapon": "Weapon",
    "holy_relic": "Holy Relic",
    "key": "Key",
    "detection": "Detection Tool",
    "occult": "Occult Item",
}
LOG_SIZE = 20
MANOR_ROOMS = 4
"""Manipulate the Manor: "you may change the location of up to 4 Rooms" (EX-OVA-03)."""

CustomHandler = Callable[["Engine", Any, dict[str, Any]], bool]
CUSTOM_EFFECTS: dict[str, CustomHandler] = {}
"""Python handlers of named custom effects (content.register_custom_effect); none by default."""


# --------------------------------------------------------------------------- pack + geometry


@lru_cache(maxsize=8)
def _load(path: str) -> Pack:
    return load_pack(Path(path))


def pack_for(path: str | None) -> Pack:
    """The content pack a game uses: the shipped default, or a pack folder."""
    return default_pack() if path is None else _load(path)


def cell_id_of(pack: Pack, rc: tuple[int, int]) -> str:
    if rc == pack.layout.attic.cell:
        return "attic"
    if rc == pack.layout.foyer.cell:
        return "foyer"
    return f"r{rc[0]}c{rc[1]}"


class Geometry:
    """Cell ids, neighbours, distances and Ghost moves of one layout, computed once."""

    def __init__(self, pack: Pack) -> None:
        lay = pack.layout
        self.house: list[str] = [cell_id_of(pack, rc) for rc in lay.house_cells()]
        self.all: list[str] = [*self.house, "attic", "foyer"]
        self.rc: dict[str, tuple[int, int]] = {
            cell_id_of(pack, rc): rc for rc in lay.all_cells()
        }
        self.by_rc: dict[tuple[int, int], str] = {rc: cid for cid, rc in self.rc.items()}
        self.neighbours: dict[str, list[str]] = {
            cid: [self.by_rc[n] for n in lay.neighbours(rc)] for cid, rc in self.rc.items()
        }
        self.edge: list[str] = [cell_id_of(pack, rc) for rc in lay.edge_cells()]
        self.dist: dict[str, dict[str, int]] = {}
        for start in self.all:
            seen = {start: 0}
            q = deque([start])
            while q:
                cur = q.popleft()
                for n in self.neighbours[cur]:
                    if n not in seen:
                        seen[n] = seen[cur] + 1
                        q.append(n)
            self.dist[start] = seen
        self.order = {cid: i for i, cid in enumerate(self.all)}
        self._lay = lay

    def ghost_move(self, ghost: str, cell: str, direction: str, steps: int) -> str:
        return self.by_rc[self._lay.ghost_move(ghost, self.rc[cell], direction, steps)]


_GEO: dict[int, tuple[Pack, Geometry]] = {}


def geometry(pack: Pack) -> Geometry:
    # Keyed by identity (hashing a whole pack per call is slow); the entry keeps its pack
    # alive and is checked, so a recycled id() can never hand back another pack's layout.
    entry = _GEO.get(id(pack))
    if entry is None or entry[0] is not pack:
        entry = _GEO[id(pack)] = (pack, Geometry(pack))
    return entry[1]


def tools_text(tools: dict[str, int]) -> str:
    parts = [f"{n} {TOOL_NAMES.get(t, t)}{'s' if n > 1 else ''}" for t, n in tools.items() if n]
    return ", ".join(parts) if parts else "nothing"


def _add(bag: dict[str, int], tool: str, n: int = 1) -> None:
    bag[tool] = bag.get(tool, 0) + n
    if bag[tool] <= 0:
        del bag[tool]


# --------------------------------------------------------------------------- the engine


class Engine:
    """Rules over one mutable state (a private copy made by `Game.apply`)."""

    def __init__(self, state: ExorcismState) -> None:
        self.st = state
        self.pack = pack_for(state.pack_path)
        self.geo = geometry(self.pack)
        self.opts = self.pack.options
        self.events: list[Event] = []

    # ------------------------------------------------------------------ small helpers
    def emit(self, text: str, kind: str = "info", audience: Audience = PUBLIC,
             **data: Any) -> None:
        self.events.append(Event(kind=kind, text=text, audience=audience, data=data))
        if audience == PUBLIC:
            self.st.log.append(text)
            if len(self.st.log) > LOG_SIZE:
                del self.st.log[: len(self.st.log) - LOG_SIZE]

    def later(self, *steps: Step) -> None:
        """Queue steps to run next, before anything already queued, in the given order."""
        self.st.queue[0:0] = list(steps)

    def push_prompt(self, kind: str, seats: list[str], text: str, **data: Any) -> None:
        self.st.prompt_seq += 1
        self.st.prompts.append(
            Prompt(id=f"p{self.st.prompt_seq}", kind=kind, seats=seats, text=text, data=data)
        )

    @property
    def solo(self) -> bool:
        return self.st.mode == "solo"

    @property
    def ova(self) -> bool:
        return self.st.mode == "one_vs_all"

    def character(self, char_id: str) -> Character:
        return self.pack.character(char_id)

    def inv(self, inv_id: str) -> InvestigatorState:
        return self.st.investigators[inv_id]

    def char_name(self, char_id: str | None) -> str:
        return self.character(char_id).name if char_id else "a Wounded investigator"

    def inv_name(self, inv: InvestigatorState) -> str:
        return self.char_name(inv.character)

    def cell_name(self, cid: str) -> str:
        """How players read a cell: the face-up Room's name and its id, never a hidden face."""
        cell = self.st.cells[cid]
        if cell.kind == "attic":
            return self.pack.layout.attic.name
        if cell.kind == "foyer":
            return self.pack.layout.foyer.name
        if cell.face_down or cell.card is None:
            return f"Locked Room ({cid})"
        return f"{self.pack.room(cell.card).name} ({cid})"

    def seat_label(self, seat: str) -> str:
        if self.st.ghost_seat == seat:
            return "Ghost player"
        names = [self.char_name(i.character) for i in self.invs_of(seat) if i.character]
        if names:
            return " & ".join(names)
        # Before a character is chosen (Solo's Primary): the role, never a number.
        return "the Investigator player"

    def invs_of(self, seat: str) -> list[InvestigatorState]:
        return [i for i in self.st.investigators.values() if i.seat == seat]

    def in_house(self, inv: InvestigatorState) -> bool:
        return inv.character is not None and inv.cell is not None and not inv.escaped

    def active_invs(self) -> list[InvestigatorState]:
        return [i for i in self.st.investigators.values() if self.in_house(i)]

    def ghost_cells(self) -> set[str]:
        return {c for c in self.st.ghosts.values() if c is not None}

    def ghosts_in(self, cid: str) -> list[str]:
        return [g for g in GHOSTS if self.st.ghosts.get(g) == cid]

    def room_of(self, cid: str) -> Room | None:
        """The usable Room card on a cell: None on the Attic or a face-down Locked Room."""
        cell = self.st.cells[cid]
        if cell.card is None or cell.face_down:
            return None
        return self.pack.room(cell.card)

    def turn_order(self) -> list[str]:
        """Investigator seats clockwise from the active seat (EX-AMB-16)."""
        seats = [s for s in self.st.seats if s != self.st.ghost_seat]
        if self.st.active in seats:
            i = seats.index(self.st.active)
            seats = seats[i:] + seats[:i]
        return seats

    def track_value(self) -> int:
        return self.pack.clock.darkness_track[self.st.track_index]

    def can_use_cards(self, inv: InvestigatorState) -> bool:
        """Solo: only the Primary uses Tasks, Plans and Ongoing Abilities (EX-SOLO-03)."""
        return not self.solo or inv.role == "primary"

    def modifiers(self, inv: InvestigatorState) -> list[Modifier]:
        mods: list[Modifier] = []
        if inv.character:
            mods.extend(self.character(inv.character).rules)
        if self.can_use_cards(inv):
            for tid in self.st.players[inv.seat].ongoing:
                mods.extend(self.pack.task(tid).ongoing)
        return mods

    def move_range(self, inv: InvestigatorState) -> int:
        return self.opts.move_range + sum(
            m.delta for m in self.modifiers(inv) if m.kind == "move_range_delta"
        )

    def purify_amount(self, inv: InvestigatorState) -> int:
        return max(
            [self.opts.purify_amount]
            + [m.n for m in self.modifiers(inv) if m.kind == "purify_amount"]
        )

    def has_trade_rule(self, inv: InvestigatorState) -> bool:
        return any(m.kind == "trade_range" for m in self.modifiers(inv))

    def trade_range(self, inv: InvestigatorState) -> int | None:
        """None = any distance."""
        best: int | None = self.opts.trade_range
        for m in self.modifiers(inv):
            if m.kind == "trade_range":
                if m.range == "any":
                    return None
                best = max(best or 0, m.range)
        return best

    def unlock_free(self, inv: InvestigatorState) -> bool:
        return any(m.kind == "unlock_cost" and m.cost == "free" for m in self.modifiers(inv))

    # ------------------------------------------------------------------ outcome
    def lose(self, reason: str) -> None:
        """The investigators lose (One vs All: the Ghost player wins)."""
        if self.st.outcome is not None:
            return
        self.st.outcome = "lost"
        self.st.phase = "over"
        self.st.reason = reason
        who = "The Ghost player wins: " if self.ova else "The investigators lose: "
        self.emit(who + reason, "game_over")

    def win(self, reason: str) -> None:
        if self.st.outcome is not None:
            return
        self.st.outcome = "won"
        self.st.phase = "over"
        self.st.reason = reason
        self.emit("The investigators win: " + reason, "game_over")

    @property
    def over(self) -> bool:
        return self.st.outcome is not None

    def check_exorcism(self) -> None:
        """EX-WIN-01 / EX-GHOST-09: at the target, every Ghost leaves the house, once."""
        if self.st.exorcised or self.st.points < self.opts.exorcism_target:
            return
        self.st.exorcised = True
        for g in GHOSTS:
            self.st.ghosts[g] = None
        self.emit(
            f"{self.st.points} Exorcism points: the Ghosts are exorcised and leave the house. "
            "Now escape through the Foyer!",
            "exorcised",
        )
        if self.ova and not self.opts.ova_escape_required:
            self.win("the Ghosts are exorcised (EX-OVA-12).")
        self.check_escape_win()

    def check_escape_win(self) -> None:
        """EX-WIN-02: exorcised and every investigator pawn out of the house."""
        if not self.st.exorcised or self.over:
            return
        if all(i.escaped for i in self.st.investigators.values()):
            self.win("the Ghosts are exorcised and everyone escaped the manor.")

    def gain_points(self, n: int, why: str) -> None:
        self.st.points += n
        self.emit(f"+{n} Exorcism points ({why}); total {self.st.points}.", "points")
        self.check_exorcism()

    # ------------------------------------------------------------------ the run loop
    def run(self) -> None:
        """Resolve queued steps until a decision is needed, the game rests, or it ends."""
        guard = 0
        while not self.over:
            guard += 1
            if guard > 10_000:  # pragma: no cover - a bug, never a rule
                raise RuntimeError("exorcism engine loop does not settle")
            if self.st.prompts:
                return
            if self.st.queue:
                step = self.st.queue.pop(0)
                getattr(self, "step_" + step.op)(**step.args)
                continue
            if self.settle():
                continue
            return

    def settle(self) -> bool:
        """At rest: end the turn when the active seat can do nothing more. True if it moved on."""
        st = self.st
        if st.phase != "actions" or st.active is None:
            return False
        if not self.turn_goes_on():
            self.close_turn()
            return True
        return False

    def turn_goes_on(self) -> bool:
        """Whether the active seat can still act this turn (an Action, or an own-turn Plan)."""
        st = self.st
        assert st.active is not None
        acting = [i for i in self.invs_of(st.active) if self.in_house(i)]
        return not (
            st.turn_lost
            or not acting
            or (st.actions_left <= 0 and not self.own_turn_plans(st.active))
        )

    def close_turn(self, passed: list[str] | None = None) -> None:
        """The active player's Actions are over: a Plan window (EX-PROMPT-05 (d)), then the
        turn ends — unless a Plan in the window gave the active player more Actions."""
        st = self.st
        self.later(Step(op="plan_window", args={"reason": "end", "passed": passed or []}),
                   Step(op="turn_end", args={"actions": st.actions_left}))

    def step_turn_end(self, actions: int) -> None:
        st = self.st
        if st.phase != "actions" or st.active is None:
            return  # pragma: no cover - nothing but the window runs between
        if st.actions_left > actions and self.turn_goes_on():
            return  # an Extra Action played in the window: the turn goes on (EX-ACT-09)
        self.end_turn()

    # ------------------------------------------------------------------ turn flow
    def start_first_turn(self) -> None:
        self.later(Step(op="turn_start"))

    def step_turn_start(self) -> None:
        st = self.st
        seat = st.active
        assert seat is not None
        # EX-TURN-04: the loss check comes before Reduce the Timer.
        if all(p == 0 for p in st.dice):
            self.lose("dawn has come: no Time Dice are left on the Clock (EX-TURN-04).")
            return
        st.game_turn += 1
        player = st.players[seat]
        player.turns_taken += 1
        st.turn_delta = player.pending_delta
        player.pending_delta = 0
        st.turn_lost = False
        st.refunds = 0
        st.once_used = []
        st.terror_used = 0
        st.cold_spot = None
        st.haunting_sounds = None
        st.walls_bleed = False
        st.actions_left = 0
        st.phase = "haunt"
        self.emit(
            f"Turn {st.game_turn} (round {st.round}): {self.seat_label(seat)} to play.",
            "turn",
        )
        self.reduce_timer()
        if self.over:
            return
        if self.ova:
            if st.round >= self.opts.ova_ghost_from_round:  # EX-AMB-29
                self.later(Step(op="ghost_phase_start"))  # its end queues begin_actions
            else:
                self.later(Step(op="begin_actions"))
        elif st.round >= self.opts.haunt_from_round:  # EX-HAUNT-01
            # EX-HAUNT-02, EX-AMB-44: the count is fixed when the step begins.
            self.later(Step(op="haunt_draw", args={"left": self.track_value()}),
                       Step(op="begin_actions"))
        else:
            self.later(Step(op="begin_actions"))

    def reduce_timer(self) -> None:
        """EX-CLOCK-02/03 and the Time Action of EX-TIME-01."""
        st = self.st
        i = next(k for k, p in enumerate(st.dice) if p > 0)
        if st.dice[i] > 1:
            st.dice[i] -= 1
            self.emit(f"The clock ticks: Time Die {i + 1} shows {st.dice[i]}.", "clock")
            return
        st.dice[i] = 0
        n = len(st.dice)
        hour = i + 1 if self.opts.time_action_hours_from == "first" else n - i
        left = sum(1 for p in st.dice if p > 0)
        self.emit(f"Time Die {i + 1} is discarded; {left} hour(s) remain.", "clock")
        if hour in self.pack.clock.action_hours:
            self.time_action(hour)

    def time_action(self, hour: int) -> None:
        tokens = self.pack.clock.time_action_tokens
        rooms = [c for c in self.geo.house if self.st.cells[c].face_down]
        for cid in rooms:
            self.st.cells[cid].exorcism_tokens += tokens
        self.emit(
            f"Time Action (hour {hour}): {tokens} Exorcism Token(s) on each of "
            f"{len(rooms)} face-down Locked Room(s).",
            "time_action",
        )

    def step_begin_actions(self) -> None:
        st = self.st
        st.phase = "actions"
        if st.turn_lost:
            st.actions_left = 0
            return  # settle() ends the turn
        base = self.opts.solo_actions_per_turn if self.solo else self.opts.actions_per_turn
        st.actions_left = max(0, base + st.turn_delta)
        st.phase = "actions"

    def end_turn(self) -> None:
        st = self.st
        seat = st.active
        assert seat is not None
        self.emit(f"{self.seat_label(seat)} ends the turn.", "turn_end")
        st.actions_left = 0
        seats = [s for s in st.seats if s != st.ghost_seat]
        first = st.first_seat or seats[0]
        fi = seats.index(first)
        rel = {s: (seats.index(s) - fi) % len(seats) for s in seats}
        i = seats.index(seat)
        nxt = None
        for k in range(1, len(seats) + 1):
            cand = seats[(i + k) % len(seats)]
            if not st.players[cand].out:
                nxt = cand
                break
        if nxt is None:
            self.check_escape_win()
            if not self.over:  # pragma: no cover - everyone out without a win cannot happen
                self.lose("nobody is left in the house.")
            return
        if rel[nxt] <= rel[seat]:
            st.round += 1
        st.active = nxt
        st.phase = "haunt"
        self.later(Step(op="turn_start"))

    # ------------------------------------------------------------------ the Haunt deck
    def draw_haunt(self) -> str | None:
        st = self.st
        if not st.haunt_deck and st.haunt_discard:
            # EX-HAUNT-10: only the standard cards come back.
            st.haunt_deck = list(st.haunt_discard)
            st.haunt_discard = []
            st.rng.shuffle(st.haunt_deck)
            self.emit("The Haunt deck ran out: its standard cards are reshuffled.", "reshuffle")
        return st.haunt_deck.pop() if st.haunt_deck else None

    def haunt_card_text(self, card_id: str) -> str:
        card = self.pack.haunt_card(card_id)
        if card.kind == "haunt":
            a = card.arrows
            return (
                f"Haunt card: Location {card.location}, Die Value {card.die_value}; "
                f"Wraith {a.wraith}, Bull {a.bull}, Devourer {a.devourer}"
            )
        return {"darkness": "Darkness card", "bull": "Bull card", "devourer": "Devourer card"}[
            card.kind
        ]

    def resolve_special(self, card_id: str) -> None:
        """Darkness, Bull and Devourer cards (EX-HAUNT-05..07, EX-AMB-25); the card is already
        out of the game (`reveal_haunt`)."""
        st = self.st
        card = self.pack.haunt_card(card_id)
        if card.kind == "darkness":
            last = len(self.pack.clock.darkness_track) - 1
            st.track_index = min(st.track_index + 1, last)  # EX-DARK-02
            self.emit(
                f"Darkness card: the Darkness Track advances to {self.track_value()}.", "darkness"
            )
        elif card.kind in ("bull", "devourer"):
            name = GHOST_NAMES[card.kind]
            if st.exorcised:
                self.emit(f"{name} card: the house is exorcised, it has no effect.", "ghost")
            elif st.ghosts.get(card.kind) is None:
                st.ghosts[card.kind] = "attic"
                self.emit(f"{name} card: the {name} enters the house in the Attic.", "ghost")
                # Our ruling on EX-GHOST-07 (rules.md, EX-GHOST-11): arriving in the Attic
                # ends the Monster's movement there, so Characters in the Attic are Wounded.
                self.later(*self.wound_check())

    def step_haunt_draw(self, left: int) -> None:
        if left <= 0:
            return
        st = self.st
        if st.darkness_supply == 0 and self.opts.darkness_out_loss == "on_any_haunt_draw" and (
            not self.ova
        ):
            self.lose("a Haunt card is drawn and no Darkness Tokens are left (EX-LOSE-01).")
            return
        card_id = self.draw_haunt()
        if card_id is None:
            return
        self.later(Step(op="haunt_draw", args={"left": left - 1}))
        self.reveal_haunt(card_id)
        # EX-PROMPT-05 (a): Plans may answer the revealed card before it resolves.
        self.later(Step(op="plan_window", args={"reason": "haunt", "card": card_id}),
                   Step(op="haunt_resolve", args={"card": card_id}))

    def reveal_haunt(self, card_id: str) -> None:
        """Turn a drawn card face up: a standard card goes to the discard pile, a Darkness,
        Bull or Devourer card out of the game (EX-AMB-10); it resolves in `step_haunt_resolve`."""
        st = self.st
        card = self.pack.haunt_card(card_id)
        if card.kind != "haunt":
            st.haunt_removed.append(card_id)
            return
        st.haunt_discard.append(card_id)
        st.last_haunt = self.haunt_card_text(card_id)
        self.emit(st.last_haunt + ".", "haunt_card")

    def step_haunt_resolve(self, card: str) -> None:
        face = self.pack.haunt_card(card)
        if face.kind != "haunt":
            self.resolve_special(card)
            return
        steps = self.move_ghosts(card)
        self.later(*steps, Step(op="place_darkness", args={"location": face.location}))

    def move_ghosts(self, card_id: str) -> list[Step]:
        """EX-GHOST-03..07: every Ghost in the house moves, then the Wound check."""
        st = self.st
        card = self.pack.haunt_card(card_id)
        if card.kind != "haunt" or st.exorcised:
            return []
        moved = []
        for g in GHOSTS:
            pos = st.ghosts.get(g)
            if pos is None:
                continue  # EX-HAUNT-09
            direction = getattr(card.arrows, g)
            steps = card.die_value if g == "bull" else 1  # EX-GHOST-05
            new = self.geo.ghost_move(g, pos, direction, steps)
            st.ghosts[g] = new
            moved.append(f"{GHOST_NAMES[g]} → {self.cell_name(new)}")
        if moved:
            self.emit("The Ghosts move: " + "; ".join(moved) + ".", "ghosts_move")
        return self.wound_check()

    def wound_check(self) -> list[Step]:
        """Every Character sharing a Room with a Ghost is Wounded (EX-GHOST-07, EX-AMB-16)."""
        out: list[Step] = []
        ghost_cells = self.ghost_cells()
        if not ghost_cells:
            return out
        order = self.turn_order()
        invs = sorted(
            (i for i in self.active_invs() if i.cell in ghost_cells),
            key=lambda i: (order.index(i.seat), 0 if i.role != "secondary" else 1),
        )
        for inv in invs:
            cid = inv.cell
            assert cid is not None
            devour = "devourer" in self.ghosts_in(cid)
            protected = False
            for other in self.active_invs():
                if other.cell != cid:
                    continue
                for m in self.modifiers(other):
                    if m.kind == "protect_roommates" and (other.id != inv.id or m.protects_self):
                        protected = True
            if protected:
                # The spec's Bodyguard text is silent on where the saved pawn goes; the
                # rulebook FAQ wins: "Anytime an Ability or card stops a player from being
                # Wounded, their Character Pawn is returned to the Foyer" (or an edge Room).
                self.emit(f"{self.inv_name(inv)} is protected from the Wound.", "protected")
                out.append(Step(op="relocate", args={"inv": inv.id}))
            else:
                out.append(Step(op="wound", args={"inv": inv.id, "devour": devour}))
        return out

    def step_place_darkness(self, location: int) -> None:
        """Haunt the Rooms (EX-HAUNT-04 step 2, EX-HAUNT-08)."""
        st = self.st
        hit = []
        for cid in self.geo.house:
            cell = st.cells[cid]
            if cell.face_down or cell.shrouded or cell.card is None:
                continue
            if self.pack.room(cell.card).location != location:
                continue
            if not self.place_token(cid):
                return
            hit.append(cid)
        if hit:
            self.emit(
                f"Darkness spreads to every Room with Location {location}: "
                + ", ".join(self.cell_name(c) for c in hit)
                + ".",
                "darkness_placed",
            )

    def place_token(self, cid: str) -> bool:
        """One Darkness Token onto a Room; False when the game ended (EX-HAUNT-12, EX-DARK-05)."""
        st = self.st
        cell = st.cells[cid]
        if st.darkness_supply <= 0:
            if self.ova:
                self.emit(f"No Darkness Token is left for {self.cell_name(cid)}.", "darkness")
                return True  # EX-OVA-13
            self.lose("a Darkness Token must be placed and none is left (EX-HAUNT-12).")
            return False
        st.darkness_supply -= 1
        cell.darkness += 1
        if cell.darkness >= self.opts.shroud_at:
            return self.shroud_room(cid)
        return True

    def shroud_room(self, cid: str) -> bool:
        """EX-DARK-04/05/07."""
        st = self.st
        cell = st.cells[cid]
        if st.shrouds_left <= 0:
            if not self.ova:
                self.lose(
                    f"{self.cell_name(cid)} takes its 4th Darkness Token and no Shrouded Room "
                    "card is left (EX-DARK-05)."
                )
                return False
        else:
            st.shrouds_left -= 1
        cell.shrouded = True
        if self.opts.shroud_returns_darkness:
            st.darkness_supply += cell.darkness
            cell.darkness = 0
        self.emit(f"{self.cell_name(cid)} is Shrouded: the Wraith has taken it.", "shroud")
        return True

    # ------------------------------------------------------------------ wounds and rescue
    def triage_holders(self, devour: bool) -> list[str]:
        """Seats holding an `on_wound` Plan that can prevent this Wound (EX-PROMPT-06). Under
        `hidden_plans` every investigator holding a Plan: who holds a Triage stays secret."""
        if self.plans_hidden:
            return [s for s in self.turn_order() if self.holds_usable_plans(s)]
        out = []
        for seat in self.turn_order():
            if self.triage_plans(seat, devour):
                out.append(seat)
        return out

    def holds_usable_plans(self, seat: str) -> bool:
        """Public knowledge: the seat holds Plans and has a Character who may play them."""
        player = self.st.players[seat]
        return (not player.out and bool(player.plans)
                and any(self.can_use_cards(i) for i in self.invs_of(seat)))

    def triage_plans(self, seat: str, devour: bool) -> list[str]:
        player = self.st.players[seat]
        if player.out or not any(self.can_use_cards(i) for i in self.invs_of(seat)):
            return []
        out = []
        for pid in dict.fromkeys(player.plans):
            plan = self.pack.plan(pid)
            if plan.timing != "on_wound":
                continue
            for eff in plan.effect:
                if eff.op == "prevent_wound" and (eff.includes_devourer or not devour):
                    out.append(pid)
                    break
        return out

    def step_wound(self, inv: str, devour: bool) -> None:
        target = self.inv(inv)
        if not self.in_house(target):
            return
        holders = self.triage_holders(devour)
        if holders:
            ghost = "the Devourer's" if devour else "a Ghost's"
            self.push_prompt(
                "triage",
                holders,
                f"{self.inv_name(target)} is about to suffer {ghost} Wound. Play a Plan to "
                "prevent it, or pass.",
                inv=inv,
                devour=devour,
                passed=[],
            )
            return
        self.wound_character(target, devour)

    def wound_character(self, inv: InvestigatorState, devour: bool) -> None:
        """EX-WOUND-01, EX-GHOST-06, then the Rescue (EX-RESCUE-01..03)."""
        st = self.st
        cid = inv.cell
        char = inv.character
        assert cid is not None and char is not None
        dropped = dict(inv.tools)
        for t, n in inv.tools.items():
            _add(st.cells[cid].dropped, t, n)
        inv.tools = {}
        inv.character = None
        inv.cell = None
        if devour:
            st.devoured.append(char)
            how = "devoured by the Devourer and removed from the game"
        else:
            st.wounded.append(char)
            how = "Wounded"
        self.emit(
            f"{self.char_name(char)} is {how} in {self.cell_name(cid)}"
            + (f", dropping {tools_text(dropped)}." if dropped else "."),
            "wound",
        )
        if inv.seat == st.active and st.phase in ("haunt", "actions", "ghost"):
            st.turn_lost = True  # EX-TURN-06
            st.actions_left = 0
        if not st.lookouts:
            self.lose(f"{self.char_name(char)} is Wounded and no Lookout can Rescue them.")
            return
        if len(st.lookouts) == 1:
            self.rescue_with_lookout(inv, st.lookouts[0])
            return
        self.push_prompt(
            "rescue",
            [inv.seat],
            f"{self.char_name(char)} was Wounded: choose the Lookout who rescues you.",
            inv=inv.id,
        )

    def rescue_with_lookout(self, inv: InvestigatorState, lookout: str) -> None:
        st = self.st
        st.lookouts.remove(lookout)
        inv.character = lookout
        self.emit(f"{self.char_name(lookout)} comes to the rescue.", "rescue")
        self.place_at_foyer(inv)

    def place_at_foyer(self, inv: InvestigatorState) -> None:
        """Into the Foyer, or an edge Room if a Ghost is there (EX-RESCUE-02, EX-WOUND-03)."""
        if not self.ghosts_in("foyer"):
            inv.cell = "foyer"
            self.emit(f"{self.inv_name(inv)} is placed in the Foyer.", "placed")
            return
        ghosts = self.ghost_cells()
        options = [c for c in self.geo.edge if c not in ghosts]
        if not options:  # EX-AMB-48
            options = [c for c in self.geo.all if c not in ghosts]
        if len(options) == 1:
            inv.cell = options[0]
            self.emit(f"{self.inv_name(inv)} is placed in {self.cell_name(options[0])}.", "placed")
            return
        inv.cell = None
        self.push_prompt(
            "place_pawn",
            [inv.seat],
            f"A Ghost is in the Foyer: choose an edge Room for {self.inv_name(inv)}.",
            inv=inv.id,
            cells=options,
        )

    def step_relocate(self, inv: str) -> None:
        target = self.inv(inv)
        if self.in_house(target):
            self.place_at_foyer(target)

    # ------------------------------------------------------------------ One vs All: Ghost
    def step_ghost_refill(self) -> None:
        """Draw up to the hand size, one card a step; a Darkness, Bull or Devourer card is
        revealed, resolves (after a Plan window, EX-PROMPT-05 (a)) and is replaced (EX-AMB-35).
        Ends because every card drawn either fills the hand or leaves the game."""
        st = self.st
        assert st.ghost_seat is not None
        if len(st.ghost_hand) >= self.opts.ova_hand_size:
            return
        card_id = self.draw_haunt()
        if card_id is None:
            return
        card = self.pack.haunt_card(card_id)
        if card.kind == "haunt":
            st.ghost_hand.append(card_id)
            self.emit("The Ghost player draws a Haunt card.", "ghost_draw")
            self.emit(
                f"You draw {card_id}: {self.haunt_card_text(card_id)}.",
                "ghost_hand",
                audience=[st.ghost_seat],
            )
            self.later(Step(op="ghost_refill"))
            return
        self.emit(f"The Ghost player draws and reveals a {self.haunt_card_text(card_id)}.",
                  "ghost_reveal")
        self.reveal_haunt(card_id)
        self.later(Step(op="plan_window", args={"reason": "haunt", "card": card_id}),
                   Step(op="haunt_resolve", args={"card": card_id}),
                   Step(op="ghost_refill"))

    def step_ghost_setup_hand(self) -> None:
        """Setup step 10 (EX-OVA-04): the Ghost player's hidden hand."""
        self.later(Step(op="ghost_refill"))

    def step_ghost_phase_start(self) -> None:
        st = self.st
        st.ghost_budget = self.track_value()  # EX-AMB-56
        st.phase = "ghost"
        self.emit(
            f"Haunt phase: the Ghost player has {st.ghost_budget} action(s).", "ghost_phase"
        )

    def step_ghost_card(self, card: str, move: bool) -> None:
        """A Haunt card the Ghost player played resolves: Move the Ghosts (EX-OVA-06) or Add
        Darkness (EX-OVA-07)."""
        face = self.pack.haunt_card(card)
        if move:
            self.later(*self.move_ghosts(card))
        elif face.kind == "haunt":
            self.later(Step(op="place_darkness", args={"location": face.location}))

    def step_ghost_continue(self) -> None:
        if self.st.phase == "ghost" and self.st.ghost_budget <= 0:
            self.step_ghost_phase_end()

    def step_ghost_phase_end(self) -> None:
        st = self.st
        if st.phase != "ghost":
            return
        st.ghost_budget = 0
        st.phase = "haunt"
        self.emit("The Ghost player ends the Haunt phase.", "ghost_phase_end")
        self.later(Step(op="ghost_refill"), Step(op="begin_actions"))

    # ------------------------------------------------------------------ effects
    def effects_of(self, src: str) -> tuple[Effect, ...]:
        kind, _, ident = src.partition(":")
        if kind == "room":
            return self.pack.room(ident).action
        if kind == "char":
            ab = self.character(ident).ability_action
            return ab.effects if ab else ()
        if kind == "ongoing":
            ab2 = self.pack.task(ident).ongoing_action
            return ab2.effects if ab2 else ()
        if kind == "reward":
            return self.pack.task(ident).rewards
        if kind == "plan":
            return self.pack.plan(ident).effect
        raise KeyError(src)

    def run_effects(self, ctx: dict[str, Any], index: int = 0) -> None:
        effects = self.effects_of(ctx["src"])
        for i in range(index, len(effects)):
            if self.over:
                return
            done = self.EFFECT_HANDLERS[effects[i].op](self, effects[i], ctx)
            if not done:
                self.later(Step(op="effects", args={"ctx": ctx, "index": i + 1}))
                return

    def step_effects(self, ctx: dict[str, Any], index: int) -> None:
        self.run_effects(ctx, index)

    def ctx_inv(self, ctx: dict[str, Any]) -> InvestigatorState:
        return self.inv(ctx["inv"])

    def ask(self, ctx: dict[str, Any], kind: str, text: str, options: list[Any],
            **data: Any) -> None:
        self.push_prompt(kind, [ctx["seat"]], text, ctx=ctx, options=options, **data)

    # -- gain_tool
    def gain_tool(self, inv: InvestigatorState, tool: str, n: int) -> int:
        got = min(n, self.st.tool_piles.get(tool, 0))  # EX-TOOL-02
        if got:
            self.st.tool_piles[tool] -= got
            _add(inv.tools, tool, got)
        return got

    def eff_gain_tool(self, eff: Any, ctx: dict[str, Any]) -> bool:
        inv = self.ctx_inv(ctx)
        types = [t for t in eff.types if self.st.tool_piles.get(t, 0) > 0]
        if not types:
            self.emit("No such Tool is left to gain (EX-TOOL-02).", "no_tool")
            return True
        if len(types) == 1:
            got = self.gain_tool(inv, types[0], eff.n)
            self.emit(f"{self.inv_name(inv)} gains {tools_text({types[0]: got})}.", "gain_tool")
            return True
        self.ask(ctx, "choose_tool", "Choose which Tool to gain.", types, n=eff.n)
        return False

    # -- exchange_tools
    def eff_exchange_tools(self, eff: Any, ctx: dict[str, Any]) -> bool:
        inv = self.ctx_inv(ctx)
        if not inv.tools:
            return True
        self.ask(ctx, "exchange", f"Exchange up to {eff.n} Tool(s): choose one to return, or "
                 "stop.", [], left=eff.n, returned=None)
        return False

    # -- gain_task
    def take_task(self, inv: InvestigatorState, task_id: str) -> None:
        st = self.st
        st.available_tasks.remove(task_id)
        st.players[inv.seat].tasks.append(task_id)
        self.emit(f"{self.inv_name(inv)} gains the Task {self.pack.task(task_id).name}.",
                  "gain_task")
        while len(st.available_tasks) < self.opts.available_tasks and st.task_deck:
            st.available_tasks.append(st.task_deck.pop())  # EX-GAP-07

    def eff_gain_task(self, eff: Any, ctx: dict[str, Any]) -> bool:
        inv = self.ctx_inv(ctx)
        left = ctx.get("_left", eff.n)
        while left > 0:
            if not self.st.available_tasks:
                return True
            if len(self.st.available_tasks) == 1:
                self.take_task(inv, self.st.available_tasks[0])
                left -= 1
                continue
            self.ask(ctx, "choose_task", "Choose an Available Task to gain.",
                     list(self.st.available_tasks), left=left)
            return False
        return True

    # -- gain_plan
    def eff_gain_plan(self, eff: Any, ctx: dict[str, Any]) -> bool:
        inv = self.ctx_inv(ctx)
        for _ in range(eff.n):
            if not self.st.plan_deck:
                self.emit("The Plan deck is empty (EX-AMB-53).", "no_plan")
                break
            pid = self.st.plan_deck.pop()
            self.st.players[inv.seat].plans.append(pid)
            name = self.pack.plan(pid).name
            if self.plans_hidden:  # EX-VIS-16: the name goes to the investigators only
                self.emit(f"{self.inv_name(inv)} gains a Plan.", "gain_plan")
                self.emit(f"{self.inv_name(inv)} gains the Plan {name}.", "gain_plan_team",
                          audience=self.peek_audience())
            else:
                self.emit(f"{self.inv_name(inv)} gains the Plan {name}.", "gain_plan")
        return True

    def eff_gain_points(self, eff: Any, ctx: dict[str, Any]) -> bool:
        self.gain_points(eff.n, "a card effect")
        return True

    # -- purify
    def purify_targets(self, eff: Any, origin: str) -> list[str]:
        if eff.room == "self":
            cands = [origin]
        elif eff.room == "adjacent":
            cands = list(self.geo.neighbours[origin])
        else:
            cands = [origin, *self.geo.neighbours[origin]]
        return [c for c in cands if self.purifiable(c)]

    def purifiable(self, cid: str) -> bool:
        cell = self.st.cells[cid]
        return cell.darkness > 0 and (not cell.shrouded or self.opts.purify_shrouded)

    def purify_room(self, cid: str, n: int) -> None:
        cell = self.st.cells[cid]
        took = min(n, cell.darkness)
        cell.darkness -= took
        self.st.darkness_supply += took
        self.emit(f"{took} Darkness Token(s) removed from {self.cell_name(cid)}.", "purify")

    def eff_purify(self, eff: Any, ctx: dict[str, Any]) -> bool:
        targets = self.purify_targets(eff, ctx["origin"])
        if not targets:
            return True
        amount = 99 if eff.n == "all" else eff.n
        if len(targets) == 1:
            self.purify_room(targets[0], amount)
            return True
        self.ask(ctx, "choose_cell", "Choose the Room to purify.", targets, purpose="purify",
                 amount=amount)
        return False

    # -- heal
    def heal(self, char: str) -> None:
        self.st.wounded.remove(char)
        self.st.lookouts.append(char)
        self.emit(f"{self.char_name(char)} is healed and becomes a Lookout.", "heal")

    def eff_heal(self, eff: Any, ctx: dict[str, Any]) -> bool:
        left = ctx.get("_left", eff.n)
        while left > 0 and self.st.wounded:
            if len(self.st.wounded) == 1:
                self.heal(self.st.wounded[0])
                left -= 1
                continue
            self.ask(ctx, "choose_character", "Choose the Wounded Character to heal.",
                     list(self.st.wounded), left=left)
            return False
        return True

    # -- move_self
    def move_targets(self, inv: InvestigatorState, reach: int) -> list[str]:
        """EX-ACT-01, EX-AMB-14, Cold Spot and The Walls Bleed (EX-TERROR-01/04)."""
        start = inv.cell
        assert start is not None
        st = self.st
        ghosts = self.ghost_cells()
        cold = st.cold_spot
        best = {start: 0}
        frontier = [start]
        while frontier:
            nxt = []
            for cur in frontier:
                for nb in self.geo.neighbours[cur]:
                    if nb in ghosts:
                        continue
                    cost = best[cur] + (2 if cold in (cur, nb) else 1)
                    if cost <= reach and cost < best.get(nb, 99):
                        best[nb] = cost
                        nxt.append(nb)
            frontier = nxt
        out = []
        for cid in self.geo.all:
            if cid == start or cid not in best:
                continue
            cell = st.cells[cid]
            if st.walls_bleed and cell.darkness == 3 and not cell.shrouded:
                continue
            out.append(cid)
        return out

    def teleport_targets(self, inv: InvestigatorState) -> list[str]:
        ghosts = self.ghost_cells()
        return [c for c in self.geo.all if c != inv.cell and c not in ghosts]

    def move_pawn(self, inv: InvestigatorState, to: str) -> None:
        inv.cell = to
        self.emit(f"{self.inv_name(inv)} moves to {self.cell_name(to)}.", "move")

    def eff_move_self(self, eff: Any, ctx: dict[str, Any]) -> bool:
        inv = self.ctx_inv(ctx)
        if eff.mode == "teleport_no_ghost":
            targets = self.teleport_targets(inv)
        else:
            targets = self.move_targets(inv, eff.n)
        if not targets:
            return True
        self.ask(ctx, "choose_cell", "Choose where to move.", targets, purpose="move")
        return False

    # -- trade
    def trade_partners(self, inv: InvestigatorState, reach: int | None) -> list[str]:
        """EX-ACT-03, EX-AMB-12/13, Haunting Sounds (EX-TERROR-02, EX-AMB-31/36)."""
        out = []
        for other in self.active_invs():
            if other.id == inv.id or inv.cell is None or other.cell is None:
                continue
            if not inv.tools and not other.tools:
                continue
            rng = reach
            sounds = self.st.haunting_sounds
            if sounds is not None and sounds in (inv.seat, other.seat):
                target = inv if inv.seat == sounds else other
                rng = 1 if self.has_trade_rule(target) else 0
            d = self.geo.dist[inv.cell].get(other.cell, 99)
            if rng is None or d <= rng:
                out.append(other.id)
        return out

    def start_trade(self, ctx: dict[str, Any], partner: str) -> None:
        self.push_prompt(
            "trade_build",
            [ctx["seat"]],
            f"Trade with {self.inv_name(self.inv(partner))}: add Tools to give or take one at "
            "a time, then offer.",
            ctx=ctx,
            partner=partner,
            give={},
            take={},
        )

    def eff_trade(self, eff: Any, ctx: dict[str, Any]) -> bool:
        inv = self.ctx_inv(ctx)
        partners = self.trade_partners(inv, None if eff.range == "any" else eff.range)
        if not partners:
            return True
        if len(partners) == 1:
            self.start_trade(ctx, partners[0])
        else:
            self.ask(ctx, "trade_partner", "Choose who to Trade with.", partners)
        return False

    def refund(self, ctx: dict[str, Any], why: str) -> None:
        """A cancelled or declined Trade: its Action (or Plan) comes back (EX-PROMPT-12)."""
        st = self.st
        st.refunds += 1
        if ctx.get("paid"):
            st.actions_left += 1
        plan = ctx.get("plan")
        if plan:
            st.plan_discard.remove(plan)
            st.players[self.inv(ctx["inv"]).seat].plans.append(plan)
        self.emit(why, "trade_refused")

    def do_trade(self, ctx: dict[str, Any], partner: str, give: dict[str, int],
                 take: dict[str, int]) -> None:
        a, b = self.inv(ctx["inv"]), self.inv(partner)
        for t, n in give.items():
            _add(a.tools, t, -n)
            _add(b.tools, t, n)
        for t, n in take.items():
            _add(b.tools, t, -n)
            _add(a.tools, t, n)
        self.emit(
            f"{self.inv_name(a)} trades with {self.inv_name(b)}: gives {tools_text(give)}, "
            f"takes {tools_text(take)}.",
            "trade",
        )

    # -- pick up, unlock
    def eff_pick_up_tools(self, eff: Any, ctx: dict[str, Any]) -> bool:
        inv = self.ctx_inv(ctx)
        if inv.cell is None:
            return True
        cell = self.st.cells[inv.cell]
        if not cell.dropped or cell.shrouded:
            return True
        self.ask(ctx, "pick_up", "Pick up dropped Tools one at a time, or take them all.", [],
                 picked=0)
        return False

    def unlock_room(self, inv: InvestigatorState, free: bool) -> None:
        """EX-ACT-07, EX-TIME-02, EX-AMB-58."""
        st = self.st
        assert inv.cell is not None
        cell = st.cells[inv.cell]
        if not free:
            _add(inv.tools, "key", -1)
            st.tool_piles["key"] = st.tool_piles.get("key", 0) + 1
        cell.face_down = False
        tokens = cell.exorcism_tokens
        cell.exorcism_tokens = 0
        self.emit(
            f"{self.inv_name(inv)} unlocks {self.cell_name(inv.cell)}"
            + (" without a Key." if free else " with a Key."),
            "unlock",
        )
        if tokens:
            self.gain_points(tokens, "Exorcism Tokens from the unlocked Room")

    def eff_unlock(self, eff: Any, ctx: dict[str, Any]) -> bool:
        inv = self.ctx_inv(ctx)
        if inv.cell is None or not self.st.cells[inv.cell].face_down:
            return True
        free = eff.cost == "free" or self.unlock_free(inv)
        if not free and inv.tools.get("key", 0) < 1:
            return True
        self.unlock_room(inv, free)
        return True

    # -- swap_rooms (Architect)
    def swap_targets(self, origin: str | None, constraint: str) -> list[str]:
        if constraint == "any":
            return list(self.geo.house)
        if origin is None or self.st.cells[origin].kind != "house":
            return []
        return [c for c in self.geo.neighbours[origin] if self.st.cells[c].kind == "house"]

    def swap_cells(self, a: str, b: str) -> None:
        """Two cards change places with everything on them (EX-GAP-04, EX-AMB-28)."""
        st = self.st
        ca, cb = st.cells[a], st.cells[b]
        for f in ("card", "face_down", "darkness", "shrouded", "exorcism_tokens", "dropped"):
            va, vb = getattr(ca, f), getattr(cb, f)
            setattr(ca, f, vb)
            setattr(cb, f, va)
        for inv in st.investigators.values():
            if inv.cell == a:
                inv.cell = b
            elif inv.cell == b:
                inv.cell = a
        for g, pos in st.ghosts.items():
            if pos == a:
                st.ghosts[g] = b
            elif pos == b:
                st.ghosts[g] = a
        if st.cold_spot in (a, b):
            st.cold_spot = b if st.cold_spot == a else a

    def eff_swap_rooms(self, eff: Any, ctx: dict[str, Any]) -> bool:
        inv = self.ctx_inv(ctx)
        targets = self.swap_targets(inv.cell, eff.constraint)
        if not targets:
            return True
        purpose = "swap" if eff.constraint != "any" else "swap_first"
        self.ask(ctx, "choose_cell", "Choose the Room to swap places with.", targets,
                 purpose=purpose)
        return False

    # -- what a label may name that the public may not know
    @property
    def plans_hidden(self) -> bool:
        """The house option that hides investigators' Plans from the Ghost player (EX-VIS-16)."""
        return self.ova and self.opts.hidden_plans

    def names_hidden_card(self, action: Action) -> bool:
        """Whether this answer's label names a card hidden from the thread (see above)."""
        st = self.st
        if action.kind == K.CHOOSE_CARD:
            return st.peek_team
        if action.kind in (K.GHOST_MOVE, K.GHOST_DARKNESS):
            return True
        return action.kind == K.PLAN and self.plans_hidden

    # -- peek_haunt
    def peek_audience(self) -> Audience:
        if self.ova:
            return [s for s in self.st.seats if s != self.st.ghost_seat]
        return PUBLIC

    def eff_peek_haunt(self, eff: Any, ctx: dict[str, Any]) -> bool:
        st = self.st
        cards = list(reversed(st.haunt_deck[-eff.n:])) if eff.n > 0 else []
        if not cards:
            return True
        st.peek = cards
        st.peek_team = self.ova
        text = "; ".join(f"{k + 1}. {self.haunt_card_text(c)}" for k, c in enumerate(cards))
        self.emit(f"The top Haunt cards, top first: {text}.", "peek",
                  audience=self.peek_audience())
        if not eff.reorder or len(cards) == 1:
            st.peek = []
            return True
        self.ask(ctx, "peek_order", "Choose the card to put on top of the Haunt deck next.",
                 cards, ordered=[])
        return False

    def eff_prevent_wound(self, eff: Any, ctx: dict[str, Any]) -> bool:
        return True  # only meaningful inside a Triage window (handled by the prompt)

    def eff_extra_action(self, eff: Any, ctx: dict[str, Any]) -> bool:
        self.st.actions_left += eff.n
        self.emit(f"+{eff.n} Action(s) this turn.", "extra_action")
        return True

    # -- use_adjacent_room_action (Occult Ongoing)
    def adjacent_room_targets(self, inv: InvestigatorState) -> list[str]:
        if inv.cell is None:
            return []
        out = []
        for c in self.geo.neighbours[inv.cell]:
            room = self.room_of(c)
            if room is None or self.st.cells[c].shrouded:
                continue
            if any(e.op == "escape_or_switch" for e in room.action):
                continue  # escaping happens in the Foyer itself
            sub = {"src": f"room:{room.id}", "inv": inv.id, "seat": inv.seat, "origin": c}
            if self.effects_usable(room.action, sub):
                out.append(c)
        return out

    def eff_use_adjacent_room_action(self, eff: Any, ctx: dict[str, Any]) -> bool:
        targets = self.adjacent_room_targets(self.ctx_inv(ctx))
        if not targets:
            return True
        self.ask(ctx, "choose_cell", "Choose the adjacent Room whose Action you use.", targets,
                 purpose="adjacent_room")
        return False

    # -- escape_or_switch (the Foyer)
    def can_escape(self) -> bool:
        return self.st.points >= self.opts.exorcism_target or self.st.exorcised

    def eff_escape_or_switch(self, eff: Any, ctx: dict[str, Any]) -> bool:
        if not self.can_escape() and not self.st.lookouts:
            return True
        self.ask(ctx, "foyer", "Escape the House, or switch your Character with a Lookout.", [])
        return False

    def escape(self, inv: InvestigatorState) -> None:
        """EX-FOYER-03, EX-WIN-02."""
        st = self.st
        inv.escaped = True
        inv.cell = None
        if inv.character:
            st.escaped.append(inv.character)
        self.emit(f"{self.inv_name(inv)} escapes the house through the Foyer.", "escape")
        if all(i.escaped for i in self.invs_of(inv.seat)):
            st.players[inv.seat].out = True
        self.check_escape_win()

    def switch(self, inv: InvestigatorState, lookout: str) -> None:
        """EX-FOYER-01, EX-AMB-19: Tools, Tasks and Plans stay with the player."""
        st = self.st
        old = inv.character
        st.lookouts.remove(lookout)
        if old:
            st.lookouts.append(old)
        inv.character = lookout
        inv.cell = "foyer"
        self.emit(f"{self.char_name(old)} steps out; {self.char_name(lookout)} takes over in the "
                  "Foyer.", "switch")

    def eff_custom(self, eff: Any, ctx: dict[str, Any]) -> bool:
        handler = CUSTOM_EFFECTS.get(eff.name)
        if handler is None:
            self.emit(f"The custom effect {eff.name!r} is not available here.", "custom")
            return True
        return handler(self, eff, ctx)

    EFFECT_HANDLERS: dict[str, Callable[[Engine, Any, dict[str, Any]], bool]] = {
        "gain_tool": eff_gain_tool,
        "exchange_tools": eff_exchange_tools,
        "gain_task": eff_gain_task,
        "gain_plan": eff_gain_plan,
        "gain_points": eff_gain_points,
        "purify": eff_purify,
        "heal": eff_heal,
        "move_self": eff_move_self,
        "trade": eff_trade,
        "pick_up_tools": eff_pick_up_tools,
        "unlock": eff_unlock,
        "swap_rooms": eff_swap_rooms,
        "peek_haunt": eff_peek_haunt,
        "prevent_wound": eff_prevent_wound,
        "extra_action": eff_extra_action,
        "use_adjacent_room_action": eff_use_adjacent_room_action,
        "escape_or_switch": eff_escape_or_switch,
        "custom": eff_custom,
    }

    # -- usability: an Action or Plan is offered only when it would do something
    def effect_usable(self, eff: Any, ctx: dict[str, Any]) -> bool:
        st = self.st
        inv = self.ctx_inv(ctx)
        op = eff.op
        if op == "gain_tool":
            return any(st.tool_piles.get(t, 0) > 0 for t in eff.types)
        if op == "exchange_tools":
            return bool(inv.tools)
        if op == "gain_task":
            return bool(st.available_tasks)
        if op == "gain_plan":
            return bool(st.plan_deck)
        if op == "gain_points":
            return True
        if op == "purify":
            return bool(self.purify_targets(eff, ctx["origin"]))
        if op == "heal":
            return bool(st.wounded)
        if op == "move_self":
            if inv.cell is None:
                return False
            if eff.mode == "teleport_no_ghost":
                return bool(self.teleport_targets(inv))
            return bool(self.move_targets(inv, eff.n))
        if op == "trade":
            return bool(self.trade_partners(inv, None if eff.range == "any" else eff.range))
        if op == "pick_up_tools":
            cell = st.cells[inv.cell] if inv.cell else None
            return cell is not None and bool(cell.dropped) and not cell.shrouded
        if op == "unlock":
            cell = st.cells[inv.cell] if inv.cell else None
            return (
                cell is not None
                and cell.face_down
                and (eff.cost == "free" or self.unlock_free(inv) or inv.tools.get("key", 0) > 0)
            )
        if op == "swap_rooms":
            return bool(self.swap_targets(inv.cell, eff.constraint))
        if op == "peek_haunt":
            return bool(st.haunt_deck)
        if op == "prevent_wound":
            return False
        if op == "extra_action":
            return True
        if op == "use_adjacent_room_action":
            return bool(self.adjacent_room_targets(inv))
        if op == "escape_or_switch":
            return self.can_escape() or bool(st.lookouts)
        if op == "custom":
            return eff.name in CUSTOM_EFFECTS
        return False  # pragma: no cover

    def effects_usable(self, effects: Iterable[Any], ctx: dict[str, Any]) -> bool:
        return any(self.effect_usable(e, ctx) for e in effects)

    # ------------------------------------------------------------------ Plans
    def plan_window(self, seat: str) -> bool:
        """Whether `seat` may play a Plan now: while the game rests (EX-PROMPT-05 (c)/(e)), or
        in an open `plan_window` prompt that waits for it ((a)/(d))."""
        st = self.st
        if self.over:
            return False
        if st.prompts:
            top = st.prompts[-1]
            return top.kind == "plan_window" and seat in top.seats and (
                seat not in top.data["passed"])
        return not st.queue and st.phase in ("actions", "ghost")

    def window_seats(self, passed: list[str]) -> list[str]:
        """Who a Plan window opens for, active player first then clockwise: the seats holding
        a Plan playable then — or, under `hidden_plans`, every investigator holding a Plan
        (public), so the window never tells the Ghost player what anyone holds (EX-VIS-16)."""
        out = []
        for seat in self.turn_order():
            if seat in passed or self.plan_user(seat) is None:
                continue
            if self.plans_hidden:
                if self.holds_usable_plans(seat):
                    out.append(seat)
            elif self.playable_plans(seat, in_window=True):
                out.append(seat)
        return out

    def step_plan_window(self, reason: str, passed: list[str] | None = None,
                         card: str | None = None) -> None:
        passed = list(passed or [])
        seats = self.window_seats(passed)
        if not seats:
            return  # a window nobody can use does not open
        st = self.st
        if reason == "haunt" and card is not None:
            # The card is face up for everyone by now (EX-VIS-10).
            text = (f"{self.haunt_card_text(card)} is revealed. Play a Plan before it "
                    "resolves, or pass.")
        else:
            who = self.seat_label(st.active) if st.active else "The active player"
            text = f"{who}'s Actions are over: play a Plan before the turn ends, or pass."
        self.push_prompt("plan_window", seats, text, reason=reason, passed=passed, card=card)

    def plan_user(self, seat: str) -> InvestigatorState | None:
        """The investigator who plays the seat's Plans (Solo: the Primary, EX-SOLO-03)."""
        for inv in self.invs_of(seat):
            if self.in_house(inv) and self.can_use_cards(inv):
                return inv
        return None

    def playable_plans(self, seat: str, own_turn_only: bool = False,
                       in_window: bool = False) -> list[str]:
        """The seat's Plans it may play now (`in_window`: as a Plan window opens)."""
        st = self.st
        player = st.players.get(seat)
        if player is None or player.out or not player.plans:
            return []
        if not in_window and not self.plan_window(seat):
            return []
        inv = self.plan_user(seat)
        if inv is None:
            return []
        out = []
        for pid in dict.fromkeys(player.plans):
            plan = self.pack.plan(pid)
            if plan.timing == "on_wound":
                continue
            if plan.timing == "own_turn_only":
                if seat != st.active or st.phase != "actions" or st.turn_lost:
                    continue
            elif own_turn_only:
                continue
            ctx = {"src": f"plan:{pid}", "inv": inv.id, "seat": seat, "origin": inv.cell}
            if self.effects_usable(plan.effect, ctx):
                out.append(pid)
        return out

    def window_play(self, seat: str, pid: str) -> None:
        """A Plan played in a Plan window: the window steps aside while the Plan resolves,
        then opens again for whoever has not passed (EX-AMB-54: the last Plan played resolves
        first, before the event that opened the window goes on)."""
        prompt = self.st.prompts.pop()
        d = prompt.data
        self.later(Step(op="plan_window", args={"reason": d["reason"], "passed": d["passed"],
                                                "card": d.get("card")}))
        self.play_plan(seat, pid)

    def own_turn_plans(self, seat: str) -> list[str]:
        return self.playable_plans(seat, own_turn_only=True)

    def play_plan(self, seat: str, pid: str) -> None:
        st = self.st
        inv = self.plan_user(seat)
        assert inv is not None
        st.players[seat].plans.remove(pid)
        st.plan_discard.append(pid)
        plan = self.pack.plan(pid)
        self.emit(f"{self.inv_name(inv)} plays the Plan {plan.name}.", "plan")
        ctx = {"src": f"plan:{pid}", "inv": inv.id, "seat": seat, "origin": inv.cell,
               "plan": pid}
        self.run_effects(ctx)

    # ------------------------------------------------------------------ investigator Actions
    def who_param(self, inv: InvestigatorState) -> str | None:
        return inv.id if self.solo else None

    def main_actions(self, inv: InvestigatorState, possessed: bool = False) -> list[Action]:
        """Every Action `inv` may take now (EX-ACT-01..08), without Plans and pass."""
        st = self.st
        if not self.in_house(inv):
            return []
        if not possessed and st.actions_left <= 0:
            return []
        who = None if possessed else self.who_param(inv)
        out: list[Action] = []
        cid = inv.cell
        assert cid is not None
        cell = st.cells[cid]
        for to in self.move_targets(inv, self.move_range(inv)):
            out.append(K.with_who(act(K.MOVE, to=to), who))
        if self.purifiable(cid):
            out.append(K.with_who(act(K.PURIFY), who))
        for partner in self.trade_partners(inv, self.trade_range(inv)):
            out.append(K.with_who(act(K.TRADE, **{"with": partner}), who))
        room = self.room_of(cid)
        base_ctx = {"inv": inv.id, "seat": inv.seat, "origin": cid}
        if room is not None and not cell.shrouded and self.effects_usable(
            room.action, {**base_ctx, "src": f"room:{room.id}"}
        ):
            out.append(K.with_who(act(K.ROOM_ACTION), who))
        if self.can_use_cards(inv):
            player = st.players[inv.seat]
            for tid in dict.fromkeys(player.tasks):
                cost = self.pack.task(tid).cost()
                if all(inv.tools.get(t, 0) >= n for t, n in cost.items()):
                    out.append(K.with_who(act(K.TASK, task=tid), who))
        for source, ability in self.abilities(inv):
            if ability.once_per_turn and source in st.once_used:
                continue
            if ability.only_in is not None and (room is None or room.id not in ability.only_in):
                continue
            src = f"char:{source}" if source == inv.character else f"ongoing:{source}"
            if self.effects_usable(ability.effects, {**base_ctx, "src": src}):
                out.append(K.with_who(act(K.ABILITY, source=source), who))
        if cell.dropped and not cell.shrouded:
            out.append(K.with_who(act(K.PICK_UP), who))
        if cell.face_down and (self.unlock_free(inv) or inv.tools.get("key", 0) > 0):
            out.append(K.with_who(act(K.UNLOCK), who))
        return out

    def abilities(self, inv: InvestigatorState) -> list[tuple[str, ActionAbility]]:
        out: list[tuple[str, ActionAbility]] = []
        if inv.character:
            ab = self.character(inv.character).ability_action
            if ab is not None:
                out.append((inv.character, ab))
        if self.can_use_cards(inv):
            for tid in self.st.players[inv.seat].ongoing:
                ab2 = self.pack.task(tid).ongoing_action
                if ab2 is not None:
                    out.append((tid, ab2))
        return out

    def do_main(self, seat: str, inv: InvestigatorState, action: Action,
                possessed: bool = False) -> None:
        """Carry out one validated investigator Action."""
        st = self.st
        if not possessed:
            st.actions_left -= 1
        cid = inv.cell
        assert cid is not None
        ctx: dict[str, Any] = {"inv": inv.id, "seat": seat, "origin": cid, "paid": not possessed,
                               "possessed": possessed}
        kind = action.kind
        if kind == K.MOVE:
            self.move_pawn(inv, action.p("to"))
        elif kind == K.PURIFY:
            self.purify_room(cid, self.purify_amount(inv))
        elif kind == K.TRADE:
            self.start_trade(ctx, action.p("with"))
        elif kind == K.ROOM_ACTION:
            room = self.room_of(cid)
            assert room is not None
            self.emit(f"{self.inv_name(inv)} uses the {room.name}.", "room_action")
            self.run_effects({**ctx, "src": f"room:{room.id}"})
        elif kind == K.TASK:
            self.complete_task(inv, action.p("task"))
        elif kind == K.ABILITY:
            source = action.p("source")
            ab = dict(self.abilities(inv))[source]
            if ab.once_per_turn:
                st.once_used.append(source)
            src = f"char:{source}" if source == inv.character else f"ongoing:{source}"
            name = (self.character(source).name if source == inv.character
                    else self.pack.task(source).name)
            self.emit(f"{self.inv_name(inv)} uses the ability of {name}.", "ability")
            self.run_effects({**ctx, "src": src})
        elif kind == K.PICK_UP:
            self.eff_pick_up_tools(None, ctx)
        elif kind == K.UNLOCK:
            self.unlock_room(inv, self.unlock_free(inv))

    def complete_task(self, inv: InvestigatorState, tid: str) -> None:
        """EX-ACT-05, EX-TASK-03/04, EX-AMB-10/21/51/53."""
        st = self.st
        task = self.pack.task(tid)
        for t, n in task.cost().items():
            _add(inv.tools, t, -n)
            st.tool_piles[t] = st.tool_piles.get(t, 0) + n
        player = st.players[inv.seat]
        player.tasks.remove(tid)
        if task.has_ongoing:
            player.ongoing.append(tid)
        else:
            st.task_discard.append(tid)
        assert inv.character is not None
        ch = self.character(inv.character)
        bonus = ch.specialization_bonus if ch.specialization == task.subtype else 0
        self.emit(f"{ch.name} completes the Task {task.name}.", "task")
        self.gain_points(task.points + bonus,
                         task.name + (" with the Specialization bonus" if bonus else ""))
        if task.rewards and not self.over:
            self.run_effects({"src": f"reward:{tid}", "inv": inv.id, "seat": inv.seat,
                              "origin": inv.cell})

    # ------------------------------------------------------------------ One vs All actions
    def ghost_actions(self) -> list[Action]:
        st = self.st
        out: list[Action] = []
        if st.ghost_budget <= 0:
            return [act(K.END_HAUNT)]
        if self.ghost_cells():
            out.extend(act(K.GHOST_MOVE, card=c) for c in dict.fromkeys(st.ghost_hand))
        out.extend(act(K.GHOST_DARKNESS, card=c) for c in dict.fromkeys(st.ghost_hand))
        if not self.opts.haunt_level_uses_supply or st.darkness_supply >= (
            self.opts.haunt_level_step
        ):
            out.append(act(K.HAUNT_LEVEL))
        if st.terror_used < self.opts.terror_per_turn:
            for ab in self.pack.terror:
                if st.haunt_level >= ab.threshold and self.terror_usable(ab.id):
                    out.append(act(K.TERROR, ability=ab.id))
        out.append(act(K.END_HAUNT))
        return out

    def terror_targets(self, ability: str) -> list[str]:
        st = self.st
        seats = [s for s in self.turn_order() if not st.players[s].out]
        if ability == "moving_objects":
            return [s for s in seats if any(i.tools for i in self.invs_of(s) if self.in_house(i))]
        if ability == "temporary_possession":
            return [s for s in seats
                    if any(self.main_actions(i, possessed=True) for i in self.invs_of(s))]
        return seats

    def terror_usable(self, ability: str) -> bool:
        if ability in ("cold_spot", "walls_bleed"):
            return True
        if ability == "amnesia":
            return len(self.terror_targets(ability)) >= 2
        return bool(self.terror_targets(ability))

    def room_cells(self) -> list[str]:
        """Cells holding a Room card (the Attic is not one, EX-AMB-42)."""
        return [c for c in self.geo.all if self.st.cells[c].card is not None]

    def do_terror(self, ability: str) -> None:
        st = self.st
        name = self.pack.terror_ability(ability).name
        st.terror_used += 1
        self.emit(f"The Ghost player causes Terror: {name}.", "terror")
        gs = [st.ghost_seat or ""]
        if ability == "walls_bleed":
            st.walls_bleed = True
        elif ability == "cold_spot":
            self.push_prompt("terror_cell", gs, "A Cold Spot: choose the Room.",
                             ability=ability, options=self.room_cells())
        elif ability == "amnesia":
            self.push_prompt("terror_seat", gs, "Amnesia: choose the player who loses 1 Action "
                             "on their next turn.", ability=ability, stage=1,
                             options=self.terror_targets(ability))
        else:
            texts = {
                "haunting_sounds": "Haunting Sounds: choose the player.",
                "moving_objects": "Moving Objects: choose the player who gives you a Tool.",
                "temporary_possession": "Temporary Possession: choose the player to possess.",
            }
            self.push_prompt("terror_seat", gs, texts[ability], ability=ability, stage=1,
                             options=self.terror_targets(ability))

    # ------------------------------------------------------------------ prompt answers
    def prompt_answers(self, prompt: Prompt, seat: str) -> list[Action]:
        st = self.st
        d = prompt.data
        k = prompt.kind
        if k == "choose_primary":
            return [act(K.CHOOSE_PRIMARY, character=c.id) for c in self.pack.characters]
        if k == "manipulate_manor" and "start" in d:
            start: dict[str, str | None] = d["start"]
            first = d["first"]
            if first is None:
                picks = [c for c in self.geo.house
                         if any(self.manor_ok(start, c, o) for o in self.geo.house if o != c)]
                return [act(K.MANOR_DONE)] + [act(K.MANOR_PICK, cell=c) for c in picks]
            return [act(K.MANOR_SWAP, cell=o) for o in self.geo.house
                    if o != first and self.manor_ok(start, first, o)]
        if k == "manipulate_manor":  # a prompt stored before the arrangement was recorded
            touched: list[str] = d["touched"]
            full = len(touched) >= 4
            pool = [c for c in self.geo.house if not full or c in touched]
            if d["first"] is None:
                return [act(K.MANOR_PICK, cell=c) for c in pool] + [act(K.MANOR_DONE)]
            first = d["first"]
            if first not in touched and len(touched) >= 3:
                pool = [c for c in pool if c in touched]
            return [act(K.MANOR_SWAP, cell=c) for c in pool if c != first]
        if k == "plan_window":
            # the Plans themselves come from `playable_plans` (see `legal`)
            return [] if seat in d["passed"] else [act(K.NO_PLAN)]
        if k == "triage":
            if seat in d["passed"]:
                return []
            who = self.who_param(self.plan_user(seat) or self.invs_of(seat)[0])
            return [K.with_who(act(K.PLAN, plan=p), who)
                    for p in self.triage_plans(seat, d["devour"])] + [act(K.NO_PLAN)]
        if k == "rescue":
            return [act(K.RESCUE, lookout=c) for c in st.lookouts]
        if k == "place_pawn":
            return [act(K.PLACE, cell=c) for c in d["cells"]]
        if k == "trade_partner":
            return [act(K.TRADE_WITH, **{"with": p}) for p in d["options"]]
        if k == "trade_build":
            a, b = self.inv(d["ctx"]["inv"]), self.inv(d["partner"])
            give, take = d["give"], d["take"]
            out = [act(K.TRADE_GIVE, tool=t) for t in TOOL_TYPES
                   if a.tools.get(t, 0) > give.get(t, 0)]
            out += [act(K.TRADE_TAKE, tool=t) for t in TOOL_TYPES
                    if b.tools.get(t, 0) > take.get(t, 0)]
            if give or take:
                out.append(act(K.TRADE_OFFER))
            out.append(act(K.TRADE_CANCEL))
            return out
        if k == "trade_consent":
            return [act(K.TRADE_ACCEPT), act(K.TRADE_DECLINE)]
        if k == "choose_tool":
            return [act(K.CHOOSE_TOOL, tool=t) for t in d["options"]]
        if k == "choose_task":
            return [act(K.CHOOSE_TASK, task=t) for t in d["options"]]
        if k == "choose_cell":
            return [act(K.CHOOSE_CELL, cell=c) for c in d["options"]]
        if k == "choose_character":
            return [act(K.CHOOSE_CHARACTER, character=c) for c in d["options"]]
        if k == "peek_order":
            return [act(K.CHOOSE_CARD, card=c) for c in d["options"]]
        if k == "exchange":
            inv = self.inv(d["ctx"]["inv"])
            if d["returned"] is None:
                return [act(K.EXCHANGE_RETURN, tool=t) for t in TOOL_TYPES
                        if inv.tools.get(t, 0) > 0] + [act(K.EXCHANGE_DONE)]
            return [act(K.EXCHANGE_GAIN, tool=t) for t in TOOL_TYPES
                    if t != d["returned"] and st.tool_piles.get(t, 0) > 0] or [
                act(K.EXCHANGE_DONE)]
        if k == "pick_up":
            inv = self.inv(d["ctx"]["inv"])
            cell = st.cells[inv.cell] if inv.cell else None
            tools = cell.dropped if cell else {}
            out = [act(K.PICK_TOOL, tool=t) for t in TOOL_TYPES if tools.get(t, 0) > 0]
            out.append(act(K.PICK_ALL))
            if d["picked"]:
                out.append(act(K.PICK_DONE))
            return out
        if k == "foyer":
            out = [act(K.ESCAPE)] if self.can_escape() else []
            return out + [act(K.SWITCH, lookout=c) for c in st.lookouts]
        if k == "terror_seat":
            return [act(K.CHOOSE_SEAT, seat=s) for s in d["options"]]
        if k == "terror_cell":
            return [act(K.CHOOSE_CELL, cell=c) for c in d["options"]]
        if k == "possession":
            return self.main_actions(self.inv(d["inv"]), possessed=True)
        return []  # pragma: no cover

    def answer(self, seat: str, action: Action) -> None:
        """Apply one validated prompt answer."""
        st = self.st
        prompt = st.prompts[-1]
        d = prompt.data
        k = prompt.kind
        kind = action.kind
        if k == "plan_window":
            d["passed"].append(seat)  # only a pass is answered here; Plans: `window_play`
            if all(s in d["passed"] for s in prompt.seats):
                st.prompts.pop()  # every eligible seat passed: the window closes
            return
        if k == "triage":
            if kind == K.NO_PLAN:
                d["passed"].append(seat)
                if all(s in d["passed"] for s in prompt.seats):
                    st.prompts.pop()
                    self.wound_character(self.inv(d["inv"]), d["devour"])
                return
            st.prompts.pop()
            pid = action.p("plan")
            st.players[seat].plans.remove(pid)
            st.plan_discard.append(pid)
            target = self.inv(d["inv"])
            self.emit(f"{self.seat_label(seat)} plays {self.pack.plan(pid).name}: "
                      f"{self.inv_name(target)} is not Wounded.", "plan")
            self.place_at_foyer(target)  # EX-WOUND-03
            return
        st.prompts.pop()
        if k == "choose_primary":
            self.finish_solo_setup(action.p("character"))
        elif k == "manipulate_manor":
            self.answer_manor(prompt, action)
        elif k == "rescue":
            self.rescue_with_lookout(self.inv(d["inv"]), action.p("lookout"))
        elif k == "place_pawn":
            inv = self.inv(d["inv"])
            inv.cell = action.p("cell")
            self.emit(f"{self.inv_name(inv)} is placed in {self.cell_name(inv.cell or '')}.",
                      "placed")
        elif k == "trade_partner":
            self.start_trade(d["ctx"], action.p("with"))
        elif k == "trade_build":
            self.answer_trade_build(prompt, action)
        elif k == "trade_consent":
            if kind == K.TRADE_ACCEPT:
                self.do_trade(d["ctx"], d["partner"], d["give"], d["take"])
            else:
                self.refund(d["ctx"], f"{self.seat_label(seat)} declines the Trade; the Action "
                            "is refunded.")
        elif k == "choose_tool":
            inv = self.inv(d["ctx"]["inv"])
            tool = action.p("tool")
            got = self.gain_tool(inv, tool, d["n"])
            self.emit(f"{self.inv_name(inv)} gains {tools_text({tool: got})}.", "gain_tool")
        elif k == "choose_task":
            self.take_task(self.inv(d["ctx"]["inv"]), action.p("task"))
            self.continue_counted(d, "gain_task")
        elif k == "choose_character":
            self.heal(action.p("character"))
            self.continue_counted(d, "heal")
        elif k == "choose_cell":
            self.answer_cell(prompt, action.p("cell"))
        elif k == "peek_order":
            card = action.p("card")
            ordered = [*d["ordered"], card]
            rest = [c for c in d["options"] if c != card]
            if len(rest) > 1:
                self.ask(d["ctx"], "peek_order", "Choose the card to go next.", rest,
                         ordered=ordered)
            else:
                ordered += rest
                n = len(ordered)
                st.haunt_deck[-n:] = list(reversed(ordered))
                st.peek = []
                self.emit("The top Haunt cards are put back in a chosen order.", "peek_done")
        elif k == "exchange":
            self.answer_exchange(prompt, action)
        elif k == "pick_up":
            self.answer_pick_up(prompt, action)
        elif k == "foyer":
            inv = self.inv(d["ctx"]["inv"])
            if kind == K.ESCAPE:
                self.escape(inv)
            else:
                self.switch(inv, action.p("lookout"))
        elif k == "terror_seat":
            self.answer_terror_seat(prompt, action.p("seat"))
        elif k == "terror_cell":
            self.answer_terror_cell(prompt, action.p("cell"))
        elif k == "possession":
            inv = self.inv(d["inv"])
            self.emit(f"The Ghost player possesses {self.inv_name(inv)}.", "possession")
            self.do_main(seat, inv, action, possessed=True)

    def continue_counted(self, d: dict[str, Any], op: str) -> None:
        """A multi-count effect (gain n Tasks, heal n): ask again while some are left."""
        left = d["left"] - 1
        if left <= 0:
            return
        ctx = {**d["ctx"], "_left": left}
        effects = self.effects_of(ctx["src"])
        eff = next(e for e in effects if e.op == op)
        self.EFFECT_HANDLERS[op](self, eff, ctx)

    def manor_moved(self, start: dict[str, str | None],
                    swap: tuple[str, str] | None = None) -> set[str]:
        """Cells whose card is not the one they held before Manipulate the Manor began (after
        the swap, if given)."""
        cards = {c: self.st.cells[c].card for c in self.geo.house}
        if swap is not None:
            a, b = swap
            cards[a], cards[b] = cards[b], cards[a]
        return {c for c in self.geo.house if cards[c] != start.get(c)}

    def manor_ok(self, start: dict[str, str | None], a: str, b: str) -> bool:
        """EX-AMB-28: a swap is allowed while at most 4 Rooms end up away from where they
        were; the Ghost player may swap as often as they like within that (swapping back
        included), and finishes when they choose."""
        return len(self.manor_moved(start, (a, b))) <= MANOR_ROOMS

    def answer_manor(self, prompt: Prompt, action: Action) -> None:
        d = prompt.data
        if action.kind == K.MANOR_DONE:
            self.emit("The Ghost player is done manipulating the manor.", "manor")
            return
        touched = list(d["touched"])
        start = d.get("start")
        if action.kind == K.MANOR_PICK:
            self.push_prompt("manipulate_manor", prompt.seats,
                             "Choose the Room to swap it with.", touched=touched,
                             first=action.p("cell"), swaps=d["swaps"],
                             **({"start": start} if start is not None else {}))
            return
        a, b = d["first"], action.p("cell")
        self.swap_cells(a, b)
        for c in (a, b):
            if c not in touched:
                touched.append(c)
        swaps = d["swaps"] + 1
        self.emit(f"The Ghost player swaps the Rooms at {a} and {b}.", "manor")
        if start is not None:
            moved = len(self.manor_moved(start))
            self.push_prompt("manipulate_manor", prompt.seats,
                             f"Manipulate the Manor: {moved} of {MANOR_ROOMS} Rooms moved. "
                             "Pick a Room to move (or to put back), or finish.",
                             touched=touched, first=None, swaps=swaps, start=start)
        elif swaps < 3:  # a prompt stored before the arrangement was recorded
            self.push_prompt("manipulate_manor", prompt.seats,
                             "Manipulate the Manor: pick another Room to move, or finish.",
                             touched=touched, first=None, swaps=swaps)

    def answer_trade_build(self, prompt: Prompt, action: Action) -> None:
        d = prompt.data
        ctx = d["ctx"]
        kind = action.kind
        if kind == K.TRADE_CANCEL:
            self.refund(ctx, "The Trade is called off; the Action is refunded.")
            return
        give, take = dict(d["give"]), dict(d["take"])
        if kind in (K.TRADE_GIVE, K.TRADE_TAKE):
            _add(give if kind == K.TRADE_GIVE else take, action.p("tool"))
            self.push_prompt(prompt.kind, prompt.seats,
                             f"Trade: give {tools_text(give)}; take {tools_text(take)}. Add more "
                             "or offer.", ctx=ctx, partner=d["partner"], give=give, take=take)
            return
        partner = self.inv(d["partner"])
        needs_consent = (self.opts.trade_consent and partner.seat != ctx["seat"]
                         and not ctx.get("possessed"))
        if not needs_consent:
            self.do_trade(ctx, d["partner"], give, take)
            return
        self.push_prompt(
            "trade_consent", [partner.seat],
            f"{self.inv_name(self.inv(ctx['inv']))} offers a Trade: you receive "
            f"{tools_text(give)} and give {tools_text(take)}. Accept?",
            ctx=ctx, partner=d["partner"], give=give, take=take,
        )

    def answer_cell(self, prompt: Prompt, cid: str) -> None:
        d = prompt.data
        ctx = d["ctx"]
        inv = self.inv(ctx["inv"])
        purpose = d["purpose"]
        if purpose == "purify":
            self.purify_room(cid, d["amount"])
        elif purpose == "move":
            self.move_pawn(inv, cid)
        elif purpose == "swap":
            origin = inv.cell
            assert origin is not None
            self.swap_cells(origin, cid)
            self.emit(f"{self.inv_name(inv)} swaps the Rooms at {origin} and {cid}.", "swap")
        elif purpose == "swap_first":
            self.ask(ctx, "choose_cell", "Choose the second Room.",
                     [c for c in self.geo.house if c != cid], purpose="swap_second", first=cid)
        elif purpose == "swap_second":
            self.swap_cells(d["first"], cid)
            self.emit(f"The Rooms at {d['first']} and {cid} change places.", "swap")
        elif purpose == "adjacent_room":
            room = self.room_of(cid)
            assert room is not None
            self.emit(f"{self.inv_name(inv)} uses the Action of the adjacent {room.name}.",
                      "room_action")
            self.run_effects({**ctx, "src": f"room:{room.id}", "origin": cid})

    def answer_exchange(self, prompt: Prompt, action: Action) -> None:
        d = prompt.data
        ctx = d["ctx"]
        inv = self.inv(ctx["inv"])
        st = self.st
        if action.kind == K.EXCHANGE_DONE:
            return
        if action.kind == K.EXCHANGE_RETURN:
            tool = action.p("tool")
            _add(inv.tools, tool, -1)
            st.tool_piles[tool] = st.tool_piles.get(tool, 0) + 1
            self.ask(ctx, "exchange", f"Returned 1 {TOOL_NAMES[tool]}: choose the Tool to gain.",
                     [], left=d["left"], returned=tool)
            return
        tool = action.p("tool")
        self.gain_tool(inv, tool, 1)
        self.emit(f"{self.inv_name(inv)} exchanges 1 {TOOL_NAMES[d['returned']]} for 1 "
                  f"{TOOL_NAMES[tool]}.", "exchange")
        left = d["left"] - 1
        if left > 0 and inv.tools:
            self.ask(ctx, "exchange", "Exchange another Tool, or stop.", [], left=left,
                     returned=None)

    def answer_pick_up(self, prompt: Prompt, action: Action) -> None:
        d = prompt.data
        inv = self.inv(d["ctx"]["inv"])
        assert inv.cell is not None
        cell = self.st.cells[inv.cell]
        if action.kind == K.PICK_DONE:
            return
        if action.kind == K.PICK_ALL:
            took = dict(cell.dropped)
            for t, n in took.items():
                _add(inv.tools, t, n)
            cell.dropped = {}
            self.emit(f"{self.inv_name(inv)} picks up {tools_text(took)}.", "pick_up")
            return
        tool = action.p("tool")
        _add(cell.dropped, tool, -1)
        _add(inv.tools, tool, 1)
        self.emit(f"{self.inv_name(inv)} picks up 1 {TOOL_NAMES[tool]}.", "pick_up")
        if cell.dropped:
            self.ask(d["ctx"], "pick_up", "Pick up another Tool, or stop.", [],
                     picked=d["picked"] + 1)

    def answer_terror_seat(self, prompt: Prompt, target: str) -> None:
        st = self.st
        d = prompt.data
        ability = d["ability"]
        label = self.seat_label(target)
        gs = [st.ghost_seat or ""]
        if ability == "haunting_sounds":
            st.haunting_sounds = target
            self.emit(f"Haunting Sounds: {label} may only Trade within their Room this turn.",
                      "terror")
        elif ability == "amnesia":
            if d["stage"] == 1:
                st.players[target].pending_delta -= 1
                self.emit(f"Amnesia: {label} loses 1 Action on their next turn.", "terror")
                self.push_prompt("terror_seat", gs, "Amnesia: choose another player, who gains "
                                 "1 Action on their next turn.", ability=ability, stage=2,
                                 options=[s for s in d["options"] if s != target])
            else:
                st.players[target].pending_delta += 1
                self.emit(f"Amnesia: {label} gains 1 Action on their next turn.", "terror")
        elif ability == "moving_objects":
            inv = next(i for i in self.invs_of(target) if self.in_house(i) and i.tools)
            bag = [t for t in TOOL_TYPES for _ in range(inv.tools.get(t, 0))]
            tool = st.rng.choice(bag)
            self.emit(f"Moving Objects: a {TOOL_NAMES[tool]} is taken from {label}.", "terror")
            rooms = [c for c in self.room_cells() if not st.cells[c].shrouded]
            self.push_prompt("terror_cell", gs, f"Moving Objects: choose the Room where the "
                             f"{TOOL_NAMES[tool]} appears.", ability=ability, options=rooms,
                             inv=inv.id, tool=tool)
        elif ability == "temporary_possession":
            inv = next(i for i in self.invs_of(target)
                       if self.main_actions(i, possessed=True))
            self.push_prompt("possession", gs, f"Temporary Possession: choose one Action for "
                             f"{self.inv_name(inv)}.", inv=inv.id)

    def answer_terror_cell(self, prompt: Prompt, cid: str) -> None:
        st = self.st
        d = prompt.data
        if d["ability"] == "cold_spot":
            st.cold_spot = cid
            self.emit(f"A Cold Spot chills {self.cell_name(cid)}: moving in or out costs 2 "
                      "spaces this turn.", "terror")
            return
        inv = self.inv(d["inv"])
        tool = d["tool"]
        _add(inv.tools, tool, -1)
        _add(st.cells[cid].dropped, tool, 1)
        self.emit(f"The {TOOL_NAMES[tool]} appears in {self.cell_name(cid)}.", "terror")

    # ------------------------------------------------------------------ queries
    def to_act(self) -> set[str]:
        st = self.st
        if self.over:
            return set()
        if st.prompts:
            p = st.prompts[-1]
            if p.kind in ("triage", "plan_window"):
                return {s for s in p.seats if s not in p.data["passed"]}
            return set(p.seats)
        if st.queue:
            return set()  # pragma: no cover - the engine always runs the queue dry
        if st.phase == "actions" and st.active:
            return {st.active}
        if st.phase == "ghost" and st.ghost_seat:
            return {st.ghost_seat}
        return set()

    def legal(self, seat: str) -> list[Action]:
        st = self.st
        if self.over:
            return []
        out: list[Action] = []
        if seat in self.to_act():
            if st.prompts:
                out = self.prompt_answers(st.prompts[-1], seat)
            elif st.phase == "actions":
                for inv in self.invs_of(seat):
                    out.extend(self.main_actions(inv))
                out.append(act(K.PASS))
            elif st.phase == "ghost":
                out = self.ghost_actions()
        for pid in self.playable_plans(seat):
            user = self.plan_user(seat)
            assert user is not None
            out.append(K.with_who(act(K.PLAN, plan=pid), self.who_param(user)))
        return out

    # ------------------------------------------------------------------ apply
    def apply(self, seat: str, action: Action) -> list[Event]:
        st = self.st
        legal = self.legal(seat)
        if not any(a.kind == action.kind and a.params == action.params for a in legal):
            msg, rule = self.explain(seat, action)
            raise IllegalAction(msg, rule)
        top = st.prompts[-1].kind if st.prompts else None
        if action.kind == K.PLAN and top == "plan_window":
            self.window_play(seat, action.p("plan"))
        elif action.kind == K.PLAN and top != "triage":
            self.play_plan(seat, action.p("plan"))
        elif st.prompts:
            self.answer(seat, action)
        elif st.phase == "ghost":
            self.do_ghost(action)
        elif action.kind == K.PASS:
            st.actions_left = 0  # the rest of the turn's Actions are given up
            self.close_turn(passed=[seat])  # the passing player has had their say
        else:
            who = action.p("who")
            inv = self.inv(who) if who else self.invs_of(seat)[0]
            self.do_main(seat, inv, action)
        self.run()
        return self.events

    def do_ghost(self, action: Action) -> None:
        st = self.st
        kind = action.kind
        if kind == K.END_HAUNT:
            self.step_ghost_phase_end()
            return
        st.ghost_budget -= 1
        if kind in (K.GHOST_MOVE, K.GHOST_DARKNESS):
            card_id = action.p("card")
            st.ghost_hand.remove(card_id)
            st.haunt_discard.append(card_id)
            st.last_haunt = self.haunt_card_text(card_id)
            if kind == K.GHOST_MOVE:
                self.emit(f"The Ghost player moves the Ghosts with {st.last_haunt}.", "ghost_act")
            else:
                self.emit(f"The Ghost player adds Darkness with {st.last_haunt}.", "ghost_act")
            # EX-PROMPT-05 (a): the played card is public; Plans may answer it first.
            self.later(Step(op="plan_window", args={"reason": "haunt", "card": card_id}),
                       Step(op="ghost_card", args={"card": card_id, "move": kind == K.GHOST_MOVE}),
                       Step(op="ghost_continue"))
        elif kind == K.HAUNT_LEVEL:
            step = self.opts.haunt_level_step
            if self.opts.haunt_level_uses_supply:
                st.darkness_supply -= step
            st.haunt_level += step
            self.emit(f"The Ghost player raises the Haunt Level to {st.haunt_level}.",
                      "haunt_level")
            if st.haunt_level >= self.opts.haunt_level_win:
                self.lose(f"the Haunt Level reaches {st.haunt_level} (EX-OVA-11).")
                return
            self.later(Step(op="ghost_continue"))
        elif kind == K.TERROR:
            self.do_terror(action.p("ability"))
            self.later(Step(op="ghost_continue"))

    # ------------------------------------------------------------------ messages
    def explain(self, seat: str, action: Action) -> tuple[str, str]:
        """Why an action is refused, in words a player can act on, with the rule id."""
        st = self.st
        kind = action.kind
        if st.prompts and seat in self.to_act():
            p = st.prompts[-1]
            return (f"Answer the pending choice first: {p.text}", "EX-PROMPT-05")
        if kind == K.PLAN:
            pid = action.p("plan")
            if pid not in st.players.get(seat, st.players[st.seats[0]]).plans:
                return ("You do not hold that Plan; play one of your own Plans.", "EX-TASK-02")
            return ("That Plan cannot be played right now: Plans are played while the game "
                    "waits between Actions, or when a Plan window asks you (a Haunt card "
                    "revealed, a turn ending); Extra Action only on your own turn.", "EX-ACT-09")
        if st.phase == "ghost" and seat == st.ghost_seat:
            if kind == K.TERROR:
                return ("That Terror Ability is not available: one per turn, and the Haunt "
                        "Level must reach its threshold.", "EX-OVA-09")
            if kind == K.HAUNT_LEVEL:
                return ("Raising the Haunt Level needs 2 Darkness Tokens in the supply.",
                        "EX-OVA-08")
            return ("Play a Haunt card from your hand, raise the Haunt Level, cause Terror or "
                    "end the Haunt phase.", "EX-OVA-05")
        if st.phase != "actions" or seat != st.active:
            return ("It is not your turn; you may only play a Plan now.", "EX-TURN-02")
        who = action.p("who")
        if self.solo and who not in ("primary", "secondary") and kind != K.PASS:
            return ("Say which Character acts: who = primary or secondary.", "EX-SOLO-02")
        if st.actions_left <= 0 and kind != K.PASS:
            return ("You have no Actions left this turn; end your turn.", "EX-TURN-02")
        inv = self.inv(who) if who in st.investigators else self.invs_of(seat)[0]
        if not self.in_house(inv):
            return ("That Character is not in the house.", "EX-TURN-05")
        cell = st.cells[inv.cell or "foyer"]
        if kind == K.MOVE:
            to = action.p("to")
            if to not in st.cells:
                return (f"There is no Room {to!r}; use a cell id like r2c3.", "EX-ACT-01")
            ghosts = self.ghosts_in(to)
            if ghosts:
                return (f"That Room holds the {GHOST_NAMES[ghosts[0]]} — Ghosts block movement; "
                        "choose another Room.", "EX-ACT-01")
            if st.walls_bleed and st.cells[to].darkness == 3:
                return ("The Walls Bleed: you may not end a Move in a Room with 3 Darkness "
                        "Tokens.", "EX-TERROR-04")
            return (f"{self.cell_name(to)} is out of reach: move up to {self.move_range(inv)} "
                    "spaces up, down, left or right, never through a Ghost.", "EX-ACT-01")
        if kind == K.PURIFY:
            if cell.shrouded:
                return ("A Shrouded Room cannot be Purified; move to another Room.", "EX-DARK-06")
            return ("There is no Darkness here to Purify.", "EX-ACT-02")
        if kind == K.TRADE:
            return ("You can only Trade Tools with a player in your Room or next to it.",
                    "EX-ACT-03")
        if kind == K.ROOM_ACTION:
            if cell.face_down:
                return ("A Locked Room cannot be used until it is unlocked.", "EX-ACT-04")
            if cell.shrouded:
                return ("A Shrouded Room's Action cannot be used.", "EX-DARK-06")
            return ("This Room's Action would do nothing now.", "EX-ACT-04")
        if kind == K.TASK:
            if not self.can_use_cards(inv):
                return ("Only the Primary Investigator completes Tasks.", "EX-SOLO-03")
            return ("You need exactly the Tools the Task lists, and the Task must be yours.",
                    "EX-ACT-05")
        if kind == K.PICK_UP:
            if cell.shrouded:
                return ("Tools in a Shrouded Room cannot be picked up.", "EX-WOUND-02")
            return ("There are no dropped Tools in your Room.", "EX-ACT-06")
        if kind == K.UNLOCK:
            if not cell.face_down:
                return ("Stand in a face-down Locked Room to unlock it.", "EX-ACT-07")
            return ("Unlocking needs a Key.", "EX-ACT-07")
        if kind == K.ABILITY:
            return ("That ability cannot be used here and now.", "EX-ACT-08")
        return ("That is not a legal action now; choose one of the offered actions.",
                "EX-PROMPT-09")

    # ------------------------------------------------------------------ setup, after step 5

    def finish_solo_setup(self, primary: str) -> None:
        """EX-SOLO-01 steps 1-3, then the rest of setup."""
        state = self.st
        seat = state.seats[0]
        rest = state.rng.shuffled([c.id for c in self.pack.characters if c.id != primary])
        secondary = rest.pop()
        state.investigators["primary"] = InvestigatorState(id="primary", seat=seat, role="primary",
                                                           character=primary)
        state.investigators["secondary"] = InvestigatorState(id="secondary", seat=seat,
                                                             role="secondary", character=secondary)
        self.emit(f"Primary Investigator: {self.char_name(primary)}; Secondary (drawn at random): "
                 f"{self.char_name(secondary)}.", "setup")
        self.finish_setup(rest)


    def finish_setup(self, remaining_chars: list[str]) -> None:
        """Lookouts, pawns, the Wraith, the Haunt deck, first player; One vs All steps 9-10."""
        state = self.st
        pack: Pack = self.pack
        opts = pack.options
        state.lookouts = [remaining_chars.pop() for _ in range(min(opts.lookouts,
                                                                   len(remaining_chars)))]
        state.out_of_play = list(remaining_chars)  # EX-AMB-45
        # Step 6 (EX-SETUP-06/07): pawns on their Starting Locations, the Wraith in the Attic.
        where = {cell.card: cid for cid, cell in state.cells.items() if cell.card}
        for inv in state.investigators.values():
            assert inv.character is not None
            inv.cell = where[self.character(inv.character).start]
        state.ghosts["wraith"] = "attic"
        # Step 7: the Haunt deck.
        state.haunt_deck = state.rng.shuffled(pack.haunt_deck_ids())
        # Optional initial Darkness (EX-GAP-13): only the Haunt-the-Rooms part of the top cards.
        for _ in range(opts.initial_darkness_cards):
            idx = next((i for i in range(len(state.haunt_deck) - 1, -1, -1)
                        if pack.haunt_card(state.haunt_deck[i]).kind == "haunt"), None)
            if idx is None:
                break
            card_id = state.haunt_deck.pop(idx)
            state.haunt_discard.append(card_id)
            card = pack.haunt_card(card_id)
            if card.kind == "haunt":
                self.step_place_darkness(card.location)
        # Step 8: points at 0, a random first player (EX-TURN-07).
        investigators = [s for s in state.seats if s != state.ghost_seat]
        state.first_seat = state.rng.choice(investigators)
        state.active = state.first_seat
        names = ", ".join(f"{self.char_name(i.character)}" for i in state.investigators.values())
        self.emit(f"The investigators enter the manor: {names}. Lookouts: "
                 + ", ".join(self.char_name(c) for c in state.lookouts) + ".", "setup")
        state.queue.append(Step(op="turn_start"))
        if state.mode == "one_vs_all":
            assert state.ghost_seat is not None
            # Step 10 waits behind step 9's prompt: queue it before the first turn.
            state.queue.insert(0, Step(op="ghost_setup_hand"))
            self.push_prompt(
                "manipulate_manor", [state.ghost_seat],
                "Manipulate the Manor: pick a Room to move (up to 4 Rooms, never the Attic or the "
                "Foyer), or finish.",
                touched=[], first=None, swaps=0,
                start={c: state.cells[c].card for c in self.geo.house},
            )
        self.run()
