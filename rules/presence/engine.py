"""The Presence rules engine: the round loop, visitor and spirit turns, upkeep, effects.

One `Engine` wraps one (private, mutable) state for the length of one call. Everything the game
does goes through two structures held in the state:

- ``state.queue``: pending resolution steps (a turn start, the rest of an effect list, an upkeep
  step ...), run front to back by `Engine.run`;
- ``state.prompts``: a stack of pending decisions (spec Part 6). Every prompt lists its options
  as ``data["options"] = [[id, label], ...]`` (every legal answer, however many — the bot pages
  long lists; labels at most 80 characters, Discord's limit on a label) and is
  answered by ``choose {option=id}``; ``data["then"]`` names the handler (``on_<then>``) that
  continues the work. While a prompt is pending the queue waits.

When both are empty the game *rests*: in the active visitor's turn (``phase == "visitor"``) or
the spirit turn (``phase == "spirit"``). While it rests, visitors with a legal quick action may
act off-turn (`may_act`, P-VIS-10/11): this is the project's quick-action window (PR-01) —
it opens after every completed action and closes when the next action starts, so a quick action
can never interrupt one (P-VIS-05). Ties are settled by Discord's order of arrival, except
that a prompt always names exactly who answers it.

Card mechanics are never named here: every card, clue token, room, item, script and secret tier
is a list of effect primitives from the content pack, dispatched by ``op`` (`Engine.eff_<op>`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

from rules.core.errors import IllegalAction
from rules.core.types import PUBLIC, Action, Audience, Event, Prompt
from rules.presence import actions as K
from rules.presence import content as C
from rules.presence.state import (
    ChamberState,
    DieState,
    DoorState,
    DrainState,
    PresenceState,
    SecretSlot,
    Step,
    Token,
    VisitorState,
)

LOG_SIZE = 20
SPIRIT_ACTION_CAP = 60
"""Spirit actions per spirit turn (technical cap so random playouts end; A-48 in spirit)."""
RUN_CAP = 10_000
SPOKEN_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9'’-]{0,29}[.,!?…]{0,3}")
"""A word the spirit may speak (P-DISCORD-08): no mentions, links or markup."""
UT_HOPE, UT_NERVE, UT_CLUES = 2, 3, 5
"""Unknown Threat: scripts the visitors pick per type, spirit clues the spirit picks (P-UNK)."""
TRAUMAS: tuple[str, ...] = ("betrayal", "tragedy", "suffering", "death")


@lru_cache(maxsize=8)
def _load(path: str) -> C.Pack:
    return C.load_pack(Path(path))


def pack_for(path: str | None) -> C.Pack:
    return C.default_pack() if path is None else _load(path)


def _opts(pairs: list[tuple[str, str]]) -> list[list[str]]:
    # Every answer is offered: Discord's 25-option limit is the bot's to page, not a rule
    # (issue #12). A label too long for Discord is cut at a word; `ask` keeps its full
    # wording in the prompt text.
    return [[a, K.fit_label(b)] for a, b in pairs]


@lru_cache(maxsize=1)
def _effect_adapter() -> Any:
    from pydantic import TypeAdapter

    return TypeAdapter(C.Effect)


_EFFECT_CACHE: dict[str, Any] = {}


def parse_effect(data: dict[str, Any]) -> Any:
    """An effect model from its dict (cached by its JSON: effects are immutable)."""
    import json

    key = json.dumps(data, sort_keys=True)
    eff = _EFFECT_CACHE.get(key)
    if eff is None:
        eff = _EFFECT_CACHE[key] = _effect_adapter().validate_python(data)
    return eff


def dump_effects(effects: Any) -> list[dict[str, Any]]:
    """Effects as plain dicts, so a half-resolved list can wait in the state's queue."""
    return [e.model_dump(mode="json") for e in effects]


class Engine:
    """Rules over one mutable state (a private copy made by `Game.apply`)."""

    def __init__(self, state: PresenceState) -> None:
        self.st = state
        self.pack = pack_for(state.pack_path)
        self.events: list[Event] = []
        self.granted: str | None = None
        """The visitor whose off-turn main actions (P-VIS-03) are being listed or taken: their
        main actions are legal and cost nothing from the active turn's count."""

    # ------------------------------------------------------------------ small helpers
    def emit(self, text: str, kind: str = "info", audience: Audience = PUBLIC,
             **data: Any) -> None:
        self.events.append(Event(kind=kind, text=text, audience=audience, data=data))
        if audience == PUBLIC:
            self.st.log.append(text)
            if len(self.st.log) > LOG_SIZE:
                del self.st.log[: len(self.st.log) - LOG_SIZE]

    def private(self, seat: str, text: str) -> None:
        """Something only `seat` sees (an inspected card): a DM event and its view."""
        self.emit(text, "private", [seat])
        seen = self.st.private_seen.setdefault(seat, [])
        seen.append(text)
        del seen[:-5]

    def later(self, *steps: Step) -> None:
        self.st.queue[0:0] = list(steps)

    def ask(self, kind: str, to: str, text: str, options: list[tuple[str, str]], then: str,
            private: bool = False, **data: Any) -> None:
        """Push a prompt: `to` picks one of `options` (id, label); `on_<then>` continues."""
        self.st.prompt_seq += 1
        # a label cut to fit Discord loses nothing: its full wording joins the prompt text
        cut = [label for _, label in options if len(label) > K.LABEL_MAX]
        if cut:  # one line: the board picture draws the prompt as a single line
            text += " In full: " + " • ".join(cut)
        self.st.prompts.append(Prompt(
            id=f"p{self.st.prompt_seq}", kind=kind, seats=[to], text=text,
            data={"options": _opts(options), "then": then, "private": private, **data},
        ))

    def name(self, seat: str | None) -> str:
        if seat is None:
            return "nobody"
        if seat == self.st.spirit_seat:
            return "the spirit"
        v = self.st.visitors.get(seat)
        return self.pack.visitor(v.character).name if v else seat

    def room_name(self, room: str | None) -> str:
        if room is None:
            return "the supply"
        return self.pack.room(room).name

    def card_name(self, card: str) -> str:
        p = self.pack
        for look in (p.action_card, p.clue_card, p.fear_card, p.spirit_card):
            try:
                return look(card).name
            except KeyError:
                continue
        try:
            return p.item_of(card).name
        except KeyError:
            return card

    @property
    def v_count(self) -> int:
        return self.st.n - 1

    def vis(self, seat: str) -> VisitorState:
        return self.st.visitors[seat]

    # ------------------------------------------------------------------ two players (P-2P)
    def partner(self, seat: str) -> str | None:
        """The other character slot of a two-player game's visitor player, else None."""
        ctl = self.st.controller
        if seat not in ctl:
            return None
        return next((s for s in ctl if s != seat and ctl[s] == ctl[seat]), None)

    def pile_holder(self, seat: str) -> VisitorState:
        """Whose deck and discard a visitor draws from and discards to: its own, or in a
        two-player game the shared one on the first slot (P-2P-01)."""
        return self.st.visitors[self.st.controller.get(seat, seat)]

    def hand_size(self) -> int:
        """P-LIMIT-01; 7 for the two-player visitor player (P-2P-03)."""
        o = self.pack.options
        return o.two_player_hand_size if self.st.controller else o.hand_size

    def player_hand(self, seat: str) -> list[str]:
        """Every card the visitor's player holds: one hand of 7 split by colour between
        the two characters of a two-player game (P-2P-03), else the visitor's own hand."""
        other = self.partner(seat)
        cards = list(self.vis(seat).hand)
        if other is not None and other in self.st.visitors:
            cards += self.vis(other).hand
        return cards

    def holder_of(self, seat: str, card: str) -> str:
        """The slot whose hand holds `card` (the partner's, for a clue card of P-2P-04)."""
        other = self.partner(seat)
        if card not in self.vis(seat).hand and other is not None \
                and card in self.vis(other).hand:
            return other
        return seat

    def can_switch(self, seat: str) -> bool:
        """P-2P-02/06: a character the visitor player may act with now (not knocked out
        this turn, not succumbed)."""
        v = self.st.visitors.get(seat)
        return v is not None and not v.knocked_out and not v.succumbed

    def step_two_player_rest(self, seat: str) -> None:
        """A-02: both characters were knocked out; the next action is a Rest with this one."""
        st = self.st
        v = self.vis(seat)
        if st.phase == "visitor" and v.knocked_out and not v.succumbed and st.actions_left > 0:
            st.active = seat
            st.must_rest = True
            self.emit(f"{self.name(seat)} must Rest next (P-2P-07).", "turn")

    def to_action_discard(self, seat: str, card: str) -> None:
        """An action card to its discard; a succumbed two-player character's card is
        trashed instead (P-2P-08)."""
        owner = next((v for v in self.st.visitors.values()
                      if v.character == self.pack.action_card(card).owner), None)
        if self.st.controller and owner is not None and owner.succumbed:
            self.st.action_trash.append(card)
            self.emit(f"{self.card_name(card)} is trashed: its character has succumbed "
                      "(P-2P-08).", "discard")
            return
        self.pile_holder(seat).discard.append(card)

    def seat_label(self, seat: str) -> str:
        if seat == self.st.spirit_seat:
            sp = self.st.spirit.character
            return "Spirit" + (f" ({self.pack.spirit(sp).name})" if sp else "")
        v = self.st.visitors.get(seat)
        return self.pack.visitor(v.character).name if v and v.character else seat

    def over(self) -> bool:
        return self.st.outcome is not None

    # ------------------------------------------------------------------ geometry & light
    def doors_of(self, room: str) -> list[str]:
        return [d.id for d in self.st.doors.values() if room in d.rooms]

    def other_side(self, door: str, room: str) -> str:
        a, b = self.st.doors[door].rooms
        return b if a == room else a

    def die_neighbours(self, room: str) -> list[str]:
        out = self.pack.die_neighbours(room, self.st.n)
        ch = self.st.chamber
        if ch is not None and ch.passage_room is not None:
            # P-CHAMBER-07: the Secret Chamber touches only the room holding the passage
            chamber = self.chamber_room()
            if room == chamber:
                out = [ch.passage_room]
            elif room == ch.passage_room:
                out = [*out, str(chamber)]
        return [r for r in out if r in self.st.rooms]

    def chamber_room(self) -> str | None:
        """The Secret Chamber's room id when the variant is in play (P-CHAMBER)."""
        c = self.pack.manor.chamber
        return c.room if c is not None and self.st.chamber is not None else None

    def sealed(self, room: str) -> bool:
        """P-CHAMBER-03: the Secret Chamber until its passage is found (no clue, die, pawn)."""
        return self.pack.room(room).chamber and (
            self.st.chamber is None or self.st.chamber.passage_room is None)

    def side_of(self, room: str) -> C.Side:
        """The board side a room is printed on now (P-DARK-01, A-57)."""
        board = self.pack.room(room).board
        if board == "basement":
            return self.st.basement_side
        return self.st.board_side

    def lit(self, room: str) -> bool:
        """P-LIGHT-01/02: a lit candle or the lit fireplace in the room."""
        if self.st.fireplace_lit and room == self.pack.manor.fireplace_room:
            return True
        return any(v.candle_lit and v.room == room and not v.succumbed
                   for v in self.st.visitors.values())

    def dark(self, room: str) -> bool:
        return not self.lit(room)

    def active_visitors(self) -> list[VisitorState]:
        """Visitors who count as visitors and are not knocked out."""
        return [v for v in self.st.visitors.values() if not v.succumbed and not v.knocked_out]

    def surviving(self) -> list[VisitorState]:
        return [v for v in self.st.visitors.values() if not v.succumbed]

    def hearing_rooms(self, room: str) -> set[str]:
        """P-DIST-03: the room itself and rooms sharing an open door with it."""
        out = {room}
        for d in self.st.doors.values():
            if d.open and room in d.rooms:
                out.add(d.rooms[1] if d.rooms[0] == room else d.rooms[0])
        return out

    def alone(self, seat: str) -> bool:
        """P-DIST-04 with A-24: knocked-out and succumbed companions do not count."""
        v = self.st.visitors.get(seat)
        if v is None:
            return True  # P-DIST-05: the spirit is always alone
        if v.knocked_out or v.succumbed:
            return True
        rooms = self.hearing_rooms(v.room)
        ko_count = self.pack.options.ko_companions_count
        return not any(
            o.seat != seat and o.room in rooms and not o.succumbed
            and (ko_count or not o.knocked_out)
            for o in self.st.visitors.values()
        )

    def table_talk(self) -> dict[str, Any]:
        """P-COMM-04..10, P-DISCORD-01: who may talk now, from public state only."""
        st = self.st
        alone = [s for s in st.visitor_seats if self.alone(s) and not self.vis(s).succumbed]
        active_alone = (st.phase == "visitor" and st.active in st.visitors
                        and self.alone(st.active))
        speech: dict[str, str] = {st.spirit_seat: "procedural_only"}
        for s in st.visitor_seats:
            v = self.vis(s)
            if v.succumbed:
                near = any(o.room in self.hearing_rooms(v.room) for o in self.active_visitors())
                speech[s] = "free" if near and not active_alone else "procedural_only"
            else:
                speech[s] = ("free" if not self.alone(s) and not active_alone
                             else "procedural_only")
        if active_alone:
            why = (f"{self.name(st.active)} is alone and holds the active player marker: "
                   "no visitor may talk (P-COMM-06).")
        elif alone:
            why = ("Alone visitors may only talk procedurally (P-COMM-04): "
                   + ", ".join(self.name(s) for s in alone) + ".")
        else:
            why = "Every visitor is within hearing of another visitor."
        if st.open_communication or st.controller:
            # P-OPEN-01: alone or knocked out, visitors speak normally; P-DISCORD-01: the
            # two-player visitor player has nobody to confer with. The spirit stays mute.
            speech.update({s: "free" for s in st.visitor_seats})
            active_alone = False
            why = ("Two-player game: the visitor player may always talk; the spirit may not "
                   "(P-DISCORD-01)." if st.controller else
                   "Open Communication: every visitor may talk; the spirit may not "
                   "(P-OPEN-01).")
        elif st.true_horror and alone:
            # P-HORROR-01: no talking on any topic while alone
            why += " True Horror: alone visitors stay silent on every topic (P-HORROR-01)."
        if st.true_horror:
            speech = {s: "silent" if m == "procedural_only" else m for s, m in speech.items()}
        if st.speech_grant is not None:  # P-DISCORD-08: an effect lets the spirit speak
            speech[st.spirit_seat] = "free"
        return {
            "allowed": not active_alone,
            "alone": alone,
            "alone_labels": [self.name(s) for s in alone],
            "knocked_out": [s for s in st.visitor_seats if self.vis(s).knocked_out
                            and not self.vis(s).succumbed],
            "succumbed": [s for s in st.visitor_seats if self.vis(s).succumbed],
            "speech": speech,
            "why": why,
        }

    def dice_in(self, room: str) -> list[int]:
        return [d.id for d in self.st.dice if d.room == room and d.value > 0]

    def die(self, die_id: int) -> Any:
        return next(d for d in self.st.dice if d.id == die_id)

    def supply(self) -> list[int]:
        return [d.id for d in self.st.dice if d.room is None]

    def die_label(self, die_id: int) -> str:
        d = self.die(die_id)
        return f"die {d.id} ({d.value}) in the {self.room_name(d.room)}"

    # ------------------------------------------------------------------ presence dice
    def set_die(self, die_id: int, value: int) -> None:
        """P-SPIRIT-06: a die at 0 leaves the board for the supply."""
        d = self.die(die_id)
        d.value = max(0, min(self.pack.options.max_presence, value))
        if d.value == 0 and d.room is not None:
            self.emit(f"A presence die in the {self.room_name(d.room)} fades to nothing and "
                      "returns to the spirit's supply.", "die")
            d.room = None
            d.moved = False

    def place_die(self, die_id: int, room: str, value: int = 1) -> None:
        d = self.die(die_id)
        d.room = room
        d.value = value
        d.fresh = True

    def die_enters(self, die_id: int, room: str, penalty: bool) -> None:
        """Move a die into `room`; P-SPIRIT-08 light penalty; triggers die_enters_room."""
        d = self.die(die_id)
        d.room = room
        self.emit(f"A presence die moves into the {self.room_name(room)}.", "die")
        if penalty and self.lit(room):
            self.emit("The room is lit: the die loses 1 presence (P-SPIRIT-08).", "die")
            self.set_die(die_id, d.value - 1)
        if d.room is not None:
            self.fire("die_enters_room", room=room, die=die_id, by="spirit")

    # ------------------------------------------------------------------ the run loop
    def run(self) -> None:
        for _ in range(RUN_CAP):
            if self.over() or self.st.prompts or not self.st.queue:
                break
            step = self.st.queue.pop(0)
            handler: Callable[..., None] = getattr(self, "step_" + step.op)
            handler(**step.args)
        else:  # pragma: no cover - a bug, never a rule
            raise RuntimeError("resolution did not settle")

    # ------------------------------------------------------------------ round loop
    def turn_order(self) -> list[str]:
        return [s for s in self.st.visitor_seats if not self.vis(s).succumbed]

    def step_round_start(self) -> None:
        st = self.st
        self.emit(f"Round {st.round} begins.", "round")
        order = self.turn_order()
        if order:
            self.later(Step(op="visitor_turn", args={"seat": order[0]}))
        else:
            self.later(Step(op="spirit_turn"))  # P-ROUND-06 / A-51

    def step_visitor_turn(self, seat: str) -> None:
        st = self.st
        v = self.vis(seat)
        if v.succumbed:
            self.later(Step(op="next_turn", args={"after": seat}))
            return
        st.phase = "visitor"
        st.actions_left = self.pack.options.main_actions  # P-VIS-01
        other = self.partner(seat)
        if other is not None:
            # P-2P-02: one turn of 5 main actions for both characters; P-2P-07 / A-02: a
            # knocked-out character's Rest comes first
            st.actions_left = self.pack.options.two_player_main_actions
            ko = [s for s in (seat, other) if self.vis(s).knocked_out
                  and not self.vis(s).succumbed]
            seat = ko[0] if ko else seat
            v = self.vis(seat)
            self.vis(other).room_actions_used = []
        st.active = seat
        st.must_rest = v.knocked_out  # P-KO-06
        v.room_actions_used = []
        st.once_used = []
        for o in st.visitors.values():
            o.quick_used = 0
        self.emit(f"{self.name(seat)}'s turn ({st.actions_left} main actions).", "turn")

    def end_visitor_turn(self) -> None:
        """P-VIS-14: end-of-turn triggers, then the hand limit, then pass the marker."""
        st = self.st
        seat = st.active
        assert seat is not None
        st.actions_left = 0
        other = self.partner(seat)  # P-2P-02: the turn was both characters'
        self.later(Step(op="end_turn_triggers", args={"seat": seat}),
                   *([Step(op="end_turn_triggers", args={"seat": other})] if other else []),
                   Step(op="hand_limit", args={"seat": seat}),
                   Step(op="next_turn", args={"after": seat}))

    def step_end_turn_triggers(self, seat: str) -> None:
        v = self.vis(seat)
        if not v.succumbed and not v.knocked_out:
            self.fire("end_of_own_turn", visitor=seat)

    def step_hand_limit(self, seat: str) -> None:
        """P-LIMIT-01 / PR-06: discard down to the hand size, one card at a time."""
        v = self.vis(seat)
        other = self.partner(seat)  # P-2P-03: one hand of 7 for both characters
        hand = self.player_hand(seat)
        if (v.succumbed and (other is None or self.vis(other).succumbed)) \
                or len(hand) <= self.hand_size():
            return
        self.later(Step(op="hand_limit", args={"seat": seat}))
        self.ask("hand_limit", seat,
                 f"End of turn: discard down to {self.hand_size()} cards "
                 f"({len(hand)} in hand).",
                 [(c, f"Discard {self.card_name(c)}") for c in hand], "discard_card",
                 private=True, seat=seat)

    def step_next_turn(self, after: str) -> None:
        st = self.st
        if st.controller:  # A-02: the visitor player's one turn, then the spirit's
            self.later(Step(op="spirit_turn"))
            return
        order = st.visitor_seats
        i = order.index(after)
        for s in order[i + 1:]:
            if not self.vis(s).succumbed:
                self.later(Step(op="visitor_turn", args={"seat": s}))
                return
        self.later(Step(op="spirit_turn"))

    def step_spirit_turn(self) -> None:
        """P-SPIRIT-01, P-MANI-03, A-60: actions first, then start-of-turn triggers."""
        st = self.st
        st.phase = "spirit"
        st.active = st.spirit_seat
        st.spirit_actions = 0
        st.once_used = []
        for d in st.dice:
            d.moved = False
            d.fresh = False
        for o in st.visitors.values():
            o.quick_used = 0
        st.spirit.pawn_actions = (self.pack.manifestation.actions_per_turn
                                  if st.spirit.pawn_room else 0)
        st.whispered = False  # P-HORROR-02: one atmospheric line per spirit turn
        self.emit("The spirit's turn.", "turn")
        for dr in st.drains:
            dr.fresh = False
        self.fire("start_of_spirit_turn")

    def end_spirit_turn(self) -> None:
        """P-SPIRIT-19 / P-LIMIT-02: draw up to N, discard down to N, then upkeep."""
        st = self.st
        sp = st.spirit
        n = st.n
        drawn = 0
        while len(sp.hand) < n:
            if not sp.deck:
                if not sp.discard:
                    break
                sp.deck = list(sp.discard)
                sp.discard.clear()
                st.rng.shuffle(sp.deck)
            sp.hand.append(sp.deck.pop())
            drawn += 1
        st.spirit.pawn_actions = 0
        st.speech_grant = None  # P-DISCORD-08: unused speech ends with the spirit turn
        self.emit(f"The spirit ends its turn and draws {drawn} spirit card(s).", "turn")
        if drawn:  # H-02: the spirit's hand reaches only the spirit, by DM
            self.emit("You draw " + ", ".join(self.card_name(c) for c in sp.hand[-drawn:])
                      + ".", "draw", [st.spirit_seat])
        self.later(Step(op="spirit_hand_limit"), Step(op="upkeep"))

    def step_spirit_hand_limit(self) -> None:
        sp = self.st.spirit
        if len(sp.hand) <= self.st.n:
            return
        self.later(Step(op="spirit_hand_limit"))
        self.ask("hand_limit", self.st.spirit_seat,
                 f"Discard down to {self.st.n} spirit cards.",
                 [(c, f"Discard {self.card_name(c)}") for c in sp.hand], "spirit_discard",
                 private=True)

    def on_spirit_discard(self, option: str, prompt: Prompt) -> None:
        sp = self.st.spirit
        sp.hand.remove(option)
        sp.discard.append(option)
        self.emit("The spirit discards a spirit card face down.", "spirit")

    # ------------------------------------------------------------------ upkeep
    def step_upkeep(self) -> None:
        """P-UPKEEP-01: win check, spirit clues (even rounds), time, end of round (drain)."""
        st = self.st
        st.phase = "upkeep"
        st.active = st.spirit_seat
        drain = [Step(op="upkeep_drain", args={"index": 0}), Step(op="upkeep_pawn")]
        time = [Step(op="upkeep_time")]
        # A-12: the numbered list (time, then end-of-round drain) or the Round Overview order
        middle = drain + time if self.pack.options.upkeep_order == "overview" else time + drain
        self.later(Step(op="upkeep_win"), Step(op="upkeep_clues"), *middle,
                   Step(op="upkeep_end"))

    def step_upkeep_win(self) -> None:
        st = self.st
        visitors_win = self.visitors_win()
        spirit_wins = self.spirit_wins(visitors_win)
        winners: list[str] = []
        surviving = self.surviving()
        if visitors_win:
            # Results name seats, never character slots: a two-player visitor player wins
            # when either of their characters survives (P-WIN-03, P-2P-05, A-63).
            for v in surviving:
                player = st.controller.get(v.seat, v.seat)
                if player not in winners:
                    winners.append(player)
        if spirit_wins:
            winners.append(st.spirit_seat)
        if winners:
            who = []
            if visitors_win:
                who.append("the visitor player" if st.controller else "the surviving visitors")
            if spirit_wins:
                who.append("the spirit")
            verb = "wins" if len(who) == 1 and who != ["the surviving visitors"] else "win"
            reason = " and ".join(who).capitalize() + f" {verb} (P-UPKEEP-02)."
            if visitors_win and st.controller:
                names = [self.name(v.seat) for v in surviving]
                reason += (f" {' and '.join(names)} "
                           + ("survives" if len(names) == 1 else "survive")
                           + " the manor (P-2P-05).")
            self.finish(winners, reason)
            return
        if st.round >= self.pack.hope_track.final_round:
            self.finish([], "Eternal Darkness: nobody achieved their goal by the end of the "
                        "final round. The only winner is Wrightwatch Manor (P-WIN-06).")

    def finish(self, winners: list[str], reason: str) -> None:
        st = self.st
        st.outcome = "over"
        st.winners = winners
        st.reason = reason
        st.phase = "over"
        st.queue.clear()
        st.prompts.clear()
        if st.script and not st.script_revealed:
            self.emit("The spirit's script was " + self.pack.script(st.script).name + ".",
                      "script")
        self.emit(reason, "over")

    def step_upkeep_clues(self) -> None:
        """P-UPKEEP-04/05: even rounds, V spirit clues to different dark rooms, dice first."""
        st = self.st
        if st.round not in self.pack.hope_track.even_rounds:
            return
        for _ in range(self.v_count):
            if not st.spirit_clue_bag and st.spirit_clue_discard:
                st.spirit_clue_bag = list(st.spirit_clue_discard)  # A-45
                st.spirit_clue_discard.clear()
                st.rng.shuffle(st.spirit_clue_bag)
            if not st.spirit_clue_bag:
                break
            st.drawn_spirit_clues.append(st.spirit_clue_bag.pop())
        if st.drawn_spirit_clues:
            self.emit(f"The spirit draws {len(st.drawn_spirit_clues)} spirit clues.", "clue")
            self.later(Step(op="place_drawn_clue", args={"used": [], "setup": False}))

    def placement_rooms(self, used: list[str]) -> list[str]:
        """A-35: dark, different; rooms with a die first."""
        rooms = [r for r in self.st.rooms if r not in used and self.dark(r)
                 and not self.sealed(r)]
        with_die = [r for r in rooms if self.dice_in(r)]
        return with_die or rooms

    def step_place_drawn_clue(self, used: list[str], setup: bool) -> None:
        st = self.st
        if not st.drawn_spirit_clues:
            return
        clue = st.drawn_spirit_clues[0]
        if setup:
            rooms = [r for r in self.pack.clue_rooms_in_play(st.n)
                     if r in st.rooms and not st.tokens.get(r)]
        else:
            rooms = self.placement_rooms(used)
        if not rooms:
            st.drawn_spirit_clues.pop(0)
            st.spirit_clue_bag.insert(0, clue)  # A-35: back into the bag
            self.later(Step(op="place_drawn_clue", args={"used": used, "setup": setup}))
            return
        name = self.pack.spirit_clue_of(clue).name
        what = "and a presence die " if setup else ""
        self.ask("place_spirit_clue", st.spirit_seat,
                 f"Place the spirit clue {name} {what}face down in a room"
                 + (" (an empty room, P-SETUP-26)." if setup else
                    " (dark, different rooms; rooms with a die first, P-UPKEEP-05)."),
                 [(r, f"Place it in the {self.room_name(r)}") for r in rooms], "place_clue",
                 private=True, used=used, setup=setup)

    def on_place_clue(self, option: str, prompt: Prompt) -> None:
        st = self.st
        clue = st.drawn_spirit_clues.pop(0)
        st.tokens.setdefault(option, []).append(Token(kind="spirit", id=clue))
        setup = bool(prompt.data["setup"])
        if setup:
            die = self.supply()[0]
            self.place_die(die, option, 1)
            self.die(die).fresh = False
            self.emit(f"The spirit places a spirit clue and a presence die (1) in the "
                      f"{self.room_name(option)}.", "setup")
        else:
            self.emit(f"The spirit places a spirit clue in the {self.room_name(option)}.",
                      "clue")
        self.later(Step(op="place_drawn_clue",
                        args={"used": [*prompt.data["used"], option], "setup": setup}))

    def step_upkeep_time(self) -> None:
        """P-UPKEEP-06: time moves up; a marker it reaches is lost."""
        st = self.st
        st.time += 1
        self.emit(f"Time passes: the time marker moves to {st.time}.", "track")
        for marker in ("hope", "nerve"):
            val = getattr(st, marker)
            if val is not None and st.time >= val:
                self.lose_marker(marker)

    def lose_marker(self, marker: str) -> None:
        """P-TRACK-03/04: the marker is lost; the script of that type is revealed."""
        st = self.st
        setattr(st, marker, None)
        self.emit(f"The {marker} marker meets the time marker and is lost!", "track")
        if st.script and not st.script_revealed and self.pack.script(st.script).type == marker:
            self.reveal_script()

    def reveal_script(self) -> None:
        st = self.st
        script = self.pack.script(st.script)
        st.script_revealed = True
        self.emit(f"The spirit's script is revealed: {script.name} ({script.alignment}). "
                  "Its bottom half now applies (P-SCRIPT-02).", "script")
        if script.reveal:
            self.later(self.effects_step(script.reveal, self.spirit_ctx(None, None,
                                                                        "the script")))

    def step_upkeep_drain(self, index: int) -> None:
        """P-DRAIN-03 / PR-14: each marker is paid from a die in its room, or released."""
        st = self.st
        if index >= len(st.drains):
            return
        dr = st.drains[index]
        power = self.power(dr.card, dr.power)
        cost = power.drain
        payers = [d for d in self.dice_in(dr.room) if self.die(d).value >= cost]
        name = self.pack.spirit_card(dr.card).name
        opts = [(str(d), f"Pay {cost} from {self.die_label(d)}") for d in payers]
        opts.append(("release", f"Release {name} (its effect ends)"))
        self.ask("drain", st.spirit_seat,
                 f"Drain: pay {cost} presence for {name} ({dr.power}) in the "
                 f"{self.room_name(dr.room)}, or release it.", opts, "drain", index=index)

    def on_drain(self, option: str, prompt: Prompt) -> None:
        st = self.st
        index = int(prompt.data["index"])
        dr = st.drains[index]
        name = self.pack.spirit_card(dr.card).name
        if option == "release":
            st.drains.pop(index)
            if not any(o.card == dr.card for o in st.drains):
                st.spirit.discard.append(dr.card)
            self.emit(f"The spirit releases {name}; its drain effect ends.", "drain")
            self.later(Step(op="upkeep_drain", args={"index": index}))
            return
        cost = self.power(dr.card, dr.power).drain
        d = int(option)
        self.set_die(d, self.die(d).value - cost)
        self.emit(f"The spirit pays {cost} presence to keep {name}.", "drain")
        self.later(Step(op="upkeep_drain", args={"index": index + 1}))

    def step_upkeep_pawn(self) -> None:
        """P-MANI-02: pay the manifestation drain near the pawn, or remove the pawn."""
        st = self.st
        if st.spirit.pawn_room is None:
            return
        cost = self.pack.manifestation.drain
        payers = [d for d in self.dice_in(st.spirit.pawn_room) if self.die(d).value >= cost]
        opts = [(str(d), f"Pay {cost} from {self.die_label(d)}") for d in payers]
        opts.append(("release", "Remove the spirit pawn"))
        self.ask("drain", st.spirit_seat,
                 f"Manifestation drain: pay {cost} presence near the pawn or remove it.",
                 opts, "pawn_drain")

    def on_pawn_drain(self, option: str, prompt: Prompt) -> None:
        st = self.st
        if option == "release":
            st.spirit.pawn_room = None
            self.emit("The spirit pawn fades from the manor.", "drain")
            return
        d = int(option)
        self.set_die(d, self.die(d).value - self.pack.manifestation.drain)
        self.emit("The spirit pays presence to stay manifested.", "drain")

    def step_upkeep_end(self) -> None:
        st = self.st
        st.round += 1
        self.later(Step(op="round_start"))

    # ------------------------------------------------------------------ fear, KO, succumb
    def suffer_fear(self, seat: str, n: int, by: str = "any") -> None:
        """P-FEAR-01..04: one step per point; at the end: knocked out, nerve -1 or succumb."""
        v = self.vis(seat)
        track = self.pack.visitor(v.character).fear_track
        suffered = 0
        for _ in range(n):
            if v.knocked_out or v.succumbed:
                break  # P-FEAR-02 / P-FEAR-08
            v.fear += 1
            suffered += 1
            if v.fear >= track:
                v.fear = track
                break
        if not suffered:
            return
        self.emit(f"{self.name(seat)} suffers {suffered} fear ({v.fear}/{track}).", "fear",
                  seat=seat)
        bonus = suffered if self.pack.options.fear_bonus == "per_point" else 1
        steps = [Step(op="fear_bonus", args={"room": v.room})] * bonus
        if v.fear >= track:
            steps.append(Step(op="knock_out", args={"seat": seat, "nerve": True}))
        self.later(*steps)

    def step_fear_bonus(self, room: str) -> None:
        """PR-05: the spirit may +1 one die in the sufferer's room (even if lit)."""
        cap = self.pack.options.max_presence
        dice = [d for d in self.dice_in(room) if self.die(d).value < cap]
        if not dice:
            return
        opts = [(str(d), f"+1 presence on {self.die_label(d)}") for d in dice]
        opts.append(("no", "Decline"))
        self.ask("fear_bonus", self.st.spirit_seat,
                 f"Fear near your presence in the {self.room_name(room)}: increase a die by 1?",
                 opts, "fear_bonus")

    def on_fear_bonus(self, option: str, prompt: Prompt) -> None:
        if option == "no":
            return
        d = int(option)
        self.set_die(d, self.die(d).value + 1)
        self.emit(f"The spirit feeds on the fear: {self.die_label(d)}.", "die")

    def cure_fear(self, seat: str, n: int) -> None:
        v = self.vis(seat)
        before = v.fear
        v.fear = max(0, v.fear - n)  # P-FEAR-07
        if before != v.fear:
            self.emit(f"{self.name(seat)} cures {before - v.fear} fear.", "fear")

    def step_knock_out(self, seat: str, nerve: bool) -> None:
        self.knock_out(seat, nerve)

    def knock_out(self, seat: str, nerve: bool, succumb: bool = False) -> None:
        """P-KO-02: end the action, discard the hand, trash fear cards, smother the candle,
        end the turn (A-21: only on one's own turn); P-FEAR-03 nerve -1 or succumb."""
        st = self.st
        v = self.vis(seat)
        if v.succumbed:
            return
        if not v.knocked_out:
            v.knocked_out = True
            self.emit(f"{self.name(seat)} is knocked out!", "ko", seat=seat)
            st.clue_trash.extend(v.fear_cards)
            v.fear_cards.clear()
            v.candle_lit = False
            clues = [c for c in v.hand if not self.is_action_card(c)]
            for c in v.hand:
                if self.is_action_card(c):
                    self.to_action_discard(seat, c)
            v.hand = list(clues)
            # drop the rest of this visitor's own action (P-KO-02)
            st.queue = [s for s in st.queue
                        if not (s.op == "effects" and s.args["ctx"].get("self") == seat
                                and s.args["ctx"].get("owner") == seat)]
            st.prompts = [p for p in st.prompts
                          if not (p.data.get("owner") == seat and seat in p.seats)]
            steps = [Step(op="discard_clue", args={"seat": seat, "card": c}) for c in clues]
            other = self.partner(seat)
            if other is not None:  # P-2P-06: all clue cards of the shared hand go too
                steps += [Step(op="discard_clue", args={"seat": other, "card": c})
                          for c in self.vis(other).hand if not self.is_action_card(c)]
            if nerve and not succumb:
                steps.append(Step(op="ko_nerve", args={"seat": seat}))
            if st.phase == "visitor" and st.active == seat:
                steps.append(Step(op="end_turn_now", args={"seat": seat}))
            self.later(*steps)
        if succumb:
            self.succumb(seat)

    def step_ko_nerve(self, seat: str) -> None:
        """P-FEAR-03 / P-SUCC-02: nerve -1; if it cannot, succumb."""
        if self.st.nerve is None:
            self.succumb(seat)
        else:
            self.adjust_track("nerve", -1, seat)

    def step_end_turn_now(self, seat: str) -> None:
        st = self.st
        if st.phase == "visitor" and st.active == seat and st.actions_left >= 0:
            st.queue = [s for s in st.queue if s.op != "effects"
                        or s.args["ctx"].get("owner") != seat]
            other = self.partner(seat)
            if other is not None and self.can_switch(other):
                # P-2P-06: the other character may still use the turn's main actions
                st.active = other
                st.must_rest = False
                self.emit(f"{self.name(seat)} may no longer act this turn; "
                          f"{self.name(other)} carries on (P-2P-06).", "turn")
                return
            self.end_visitor_turn()
            st.actions_left = -1  # marks "turn already ending"

    def succumb(self, seat: str) -> None:
        """P-SUCC-03..05: knocked out for good; no longer a visitor; the bond returns."""
        st = self.st
        v = self.vis(seat)
        if v.succumbed:
            return
        if not v.knocked_out:
            self.knock_out(seat, nerve=False)
        v.succumbed = True
        if st.bonded == seat:
            # the marker returns (P-SUCC-05), but the win test must still see who held it
            v.succumbed_bonded = True
            st.bonded = None
        self.emit(f"{self.name(seat)} succumbs to the manor and is no longer a visitor!",
                  "succumb", seat=seat)

    def adjust_track(self, marker: str, delta: int, forced: str | None) -> None:
        """P-TRACK-02/03/05, A-28: reduce toward time (lost on meeting it) or increase."""
        st = self.st
        val = getattr(st, marker)
        if val is None:
            if marker == "nerve" and delta < 0 and forced is not None:
                self.succumb(forced)  # P-SUCC-02 (A-53: at once)
            return
        if delta > 0:
            new = min(self.pack.hope_track.spaces, val + delta)
            setattr(st, marker, new)
            self.emit(f"{marker.capitalize()} increases to {new}.", "track")
            return
        new = val + delta
        self.fire("track_reduced")
        if new <= st.time:
            self.lose_marker(marker)
        else:
            setattr(st, marker, new)
            self.emit(f"{marker.capitalize()} is reduced to {new}.", "track")

    # ------------------------------------------------------------------ cards & clues
    def is_action_card(self, card: str) -> bool:
        try:
            self.pack.action_card(card)
            return True
        except KeyError:
            return False

    def step_discard_clue(self, seat: str, card: str) -> None:
        """PR-03: the discarder picks one of the four clue discards."""
        v = self.vis(seat)
        if card not in v.hand:
            return
        opts = []
        for s in self.st.secrets:
            what = self.pack.secret(s.card).name if s.revealed else "unrevealed"
            opts.append((str(s.position), f"Beneath position {s.position} ({what}, "
                         f"{len(s.discards)} card(s))"))
        self.ask("clue_discard", seat,
                 f"Discard the clue card {self.card_name(card)}: beneath which secret?",
                 opts, "clue_discard", private=True, card=card, seat=seat)

    def on_clue_discard(self, option: str, prompt: Prompt) -> None:
        seat = str(prompt.data["seat"])
        card = str(prompt.data["card"])
        v = self.vis(seat)
        if card in v.hand:
            v.hand.remove(card)
        slot = self.st.secrets[int(option) - 1]
        slot.discards.append(card)
        cc = self.pack.clue_card(card)
        if self.st.mystery:
            # P-MYST-01/02: face down; only the spirit may inspect it (the count is public)
            self.emit(f"{self.name(seat)} discards a clue card face down beneath position "
                      f"{option}.", "clue")
            self.emit(f"Face down beneath position {option}: {cc.name} ({cc.trauma}, "
                      f"{self.room_name(cc.room)}).", "private", [self.st.spirit_seat])
            return
        self.emit(f"{self.name(seat)} discards the clue card {cc.name} ({cc.trauma}, "
                  f"{self.room_name(cc.room)}) beneath position {option}.", "clue")

    def discard_card(self, seat: str, card: str) -> None:
        """P-VIS-07: action cards to the owner's discard, clue cards by prompt (PR-03)."""
        seat = self.holder_of(seat, card)  # P-2P-03: either character's part of the hand
        v = self.vis(seat)
        if self.is_action_card(card):
            v.hand.remove(card)
            self.to_action_discard(seat, card)
            self.emit(f"{self.name(seat)} discards {self.card_name(card)}.", "discard")
        else:
            self.later(Step(op="discard_clue", args={"seat": seat, "card": card}))

    def on_discard_card(self, option: str, prompt: Prompt) -> None:
        self.discard_card(str(prompt.data["seat"]), option)

    def draw_actions(self, seat: str, n: int) -> int:
        """P-VIS-13, A-45: reshuffle the discard when needed, then stop."""
        st = self.st
        v = self.pile_holder(seat)  # P-2P-01: the shared deck of the visitor player
        got: list[str] = []
        for _ in range(n):
            if not v.deck:
                if not v.discard:
                    break
                v.deck = list(v.discard)
                v.discard.clear()
                st.rng.shuffle(v.deck)
            card = v.deck.pop()
            # P-2P-04: a drawn card sits with the character of its colour
            owner = next((o for o in st.visitors.values() if st.controller
                          and st.controller.get(o.seat) == st.controller.get(seat)
                          and o.character == self.pack.action_card(card).owner),
                         self.vis(seat))
            owner.hand.append(card)
            got.append(card)
        if got:  # hidden from the others (H-17): only the drawer is told, by DM
            self.emit("You draw " + ", ".join(self.card_name(c) for c in got) + ".",
                      "draw", [seat])
        return len(got)

    def draw_clue(self, seat: str) -> None:
        """PR-10: from the clue deck or a revealed card."""
        st = self.st
        if not st.clue_revealed:
            if st.clue_deck:
                self.take_clue(seat, st.clue_deck.pop(), from_deck=True)
            return
        opts: list[tuple[str, str]] = []
        if st.clue_deck:
            opts.append(("deck", f"Draw the top of the clue deck ({len(st.clue_deck)} left)"))
        opts += [(c, f"Take the revealed {self.card_name(c)}") for c in st.clue_revealed]
        if len(opts) == 1 and opts[0][0] == "deck":
            self.take_clue(seat, st.clue_deck.pop(), from_deck=True)
            return
        self.ask("draw_source", seat, "Draw a clue card: from the deck or a revealed card?",
                 opts, "draw_source", seat=seat)

    def on_draw_source(self, option: str, prompt: Prompt) -> None:
        st = self.st
        seat = str(prompt.data["seat"])
        if option == "deck":
            if st.clue_deck:
                self.take_clue(seat, st.clue_deck.pop(), from_deck=True)
        elif option in st.clue_revealed:
            st.clue_revealed.remove(option)
            self.take_clue(seat, option, from_deck=False)

    def take_clue(self, seat: str, card: str, from_deck: bool) -> None:
        """A clue card goes to hand; a fear card goes in front of the drawer (P-FEAR-05)."""
        v = self.vis(seat)
        if self.pack.is_fear_card(card):
            v.fear_cards.append(card)
            self.emit(f"{self.name(seat)} draws the fear card {self.card_name(card)} and "
                      "places it face up in front of them.", "fear_card", seat=seat)
            self.fire("draw_fear_card", visitor=seat, exclude=card)
            return
        v.hand.append(card)
        if from_deck:
            self.emit(f"{self.name(seat)} draws a clue card.", "clue")
            self.emit(f"You drew the clue card {self.card_name(card)}.", "private", [seat])
        else:
            self.emit(f"{self.name(seat)} takes the revealed clue card "
                      f"{self.card_name(card)}.", "clue")

    def gain_item(self, seat: str, item: str) -> None:
        v = self.vis(seat)
        v.items.append(item)
        self.emit(f"{self.name(seat)} gains the item {self.card_name(item)}.", "item")
        self.later(Step(op="item_limit", args={"seat": seat}))

    def step_item_limit(self, seat: str) -> None:
        """P-ITEM-05 / PR-07: discard one at once when above the limit."""
        v = self.vis(seat)
        if len(v.items) <= self.pack.options.item_limit:
            return
        self.later(Step(op="item_limit", args={"seat": seat}))
        self.ask("item_limit", seat, "You hold too many items: discard one to the Cellar.",
                 [(i, f"Discard {self.card_name(i)}") for i in v.items], "item_discard",
                 seat=seat)

    def on_item_discard(self, option: str, prompt: Prompt) -> None:
        seat = str(prompt.data["seat"])
        v = self.vis(seat)
        v.items.remove(option)
        self.st.cellar.append(option)
        self.emit(f"{self.name(seat)} discards {self.card_name(option)} to the Cellar.", "item")

    # ------------------------------------------------------------------ secrets & winning
    def matching(self, position: int) -> int:
        slot = self.st.secrets[position - 1]
        trauma = self.pack.secret(slot.card).trauma
        return sum(1 for c in slot.discards
                   if not self.pack.is_fear_card(c) and self.pack.clue_card(c).trauma == trauma)

    def reveal_secret(self, position: int, revealer: str) -> None:
        """P-SECRET-03..05: the tier the matching clue cards beneath reach resolves."""
        st = self.st
        slot = st.secrets[position - 1]
        card = self.pack.secret(slot.card)
        tier = self.pack.secret_board(st.n).tier(self.matching(position))
        slot.revealed = True
        slot.tier = tier
        self.emit(f"{self.name(revealer)} reveals the secret at position {position}: "
                  f"{card.name} ({card.trauma}); the {tier} effect resolves.", "secret")
        effects = getattr(card.tiers, tier)
        self.later(self.effects_step(effects, self.visitor_ctx(revealer, f"secret {card.name}")))

    def win_test(self, test: Any, visitors_win: bool) -> bool:
        st = self.st
        t = test.test
        succumbed = [v for v in st.visitors.values() if v.succumbed]
        surv = self.surviving()
        if t == "visitors_win":
            return visitors_win
        if t == "succumbed_gte":
            return len(succumbed) >= test.n
        if t == "knocked_out_gte":
            return sum(1 for v in st.visitors.values() if v.knocked_out) >= test.n
        if t == "bonded_succumbed":
            # the bond returned at the moment of succumbing (P-SUCC-05): read who held it then
            return any(v.succumbed and (v.succumbed_bonded or v.seat == st.bonded)
                       for v in st.visitors.values())
        if t == "pawn_in_room":
            return st.spirit.pawn_room == test.room
        if t == "pawn_not_on_board":
            return st.spirit.pawn_room is None
        if t == "surviving_in_light":
            return all(self.lit(v.room) for v in surv)
        if t == "no_die_with_surviving_visitor":
            return not any(self.dice_in(v.room) for v in surv)
        if t == "fear_cards_each_lte":
            return all(len(v.fear_cards) <= test.n for v in surv)
        if t == "dice_on_board_lte":
            return sum(1 for d in st.dice if d.room is not None) <= test.n
        if t == "no_die_in_room":
            return not self.dice_in(test.room)
        if t == "surviving_visitor_in_room":
            return any(v.room == test.room for v in surv)
        return False  # pragma: no cover

    def visitors_win(self) -> bool:
        """P-WIN-01/02/03."""
        st = self.st
        if not self.surviving() or not all(s.revealed for s in st.secrets):
            return False
        if st.script_revealed:
            need = self.pack.script(st.script).bottom.visitors_also_need
            return all(self.win_test(t, False) for t in need)
        return True

    def spirit_wins(self, visitors_win: bool) -> bool:
        """P-WIN-04: the top half while hidden, the bottom half once revealed."""
        st = self.st
        script = self.pack.script(st.script)
        half = script.bottom if st.script_revealed else script.top
        return any(self.win_test(t, visitors_win) for t in half.spirit_wins_if)

    # ------------------------------------------------------------------ effect contexts
    def visitor_ctx(self, seat: str, source: str, **extra: Any) -> dict[str, Any]:
        return {"owner": seat, "self": seat, "origin": self.vis(seat).room, "die": None,
                "targets": [], "source": source, **extra}

    def spirit_ctx(self, die: int | None, origin: str | None, source: str,
                   **extra: Any) -> dict[str, Any]:
        return {"owner": self.st.spirit_seat, "self": None, "origin": origin, "die": die,
                "targets": [], "source": source, **extra}

    def effects_step(self, effects: Any, ctx: dict[str, Any]) -> Step:
        return Step(op="effects", args={"effs": dump_effects(effects), "i": 0, "ctx": ctx})

    def origin(self, ctx: dict[str, Any]) -> str | None:
        """A-56: a spirit power's origin is its die's room (it moves with the die)."""
        die = ctx.get("die")
        if die is not None and ctx["owner"] == self.st.spirit_seat:
            d = self.die(int(die))
            if d.room is not None:
                return d.room
        if ctx.get("pawn") and self.st.spirit.pawn_room:
            return self.st.spirit.pawn_room
        if ctx.get("self") is not None:
            return self.vis(ctx["self"]).room
        return ctx.get("origin")

    def who(self, ctx: dict[str, Any], ref: str) -> list[str]:
        if ref == "self":
            return [ctx["self"]] if ctx.get("self") else []
        if ref == "target":
            return [t for t in ctx.get("targets", []) if not self.vis(t).succumbed]
        if ref == "trigger_visitor":
            tv = ctx.get("trigger_visitor")
            return [tv] if tv else []
        return []

    def cond(self, c: Any, ctx: dict[str, Any]) -> bool:
        res = self._cond(c, ctx)
        return res if c.value else not res

    def _cond(self, c: Any, ctx: dict[str, Any]) -> bool:
        st = self.st
        t = c.test
        room = self.origin(ctx)
        if t == "room_dark":
            return room is not None and self.dark(room)
        if t == "fireplace_lit":
            return st.fireplace_lit
        if t == "in_card_room":
            me = ctx.get("self")
            return me is not None and ctx.get("card_room") == self.vis(str(me)).room
        if t == "room_is":
            return room == c.room
        if t == "floor_is":
            return room is not None and self.pack.room(room).floor == c.floor
        if t in ("alone", "bonded", "knocked_out", "hand_size_gte", "candle_lit"):
            seats = self.who(ctx, c.who)
            if not seats:
                return False
            v = self.vis(seats[0])
            if t == "alone":
                return self.alone(v.seat)
            if t == "bonded":
                return st.bonded == v.seat
            if t == "knocked_out":
                return v.knocked_out
            if t == "candle_lit":
                return v.candle_lit
            cards = [x for x in v.hand if c.cards == "any"
                     or (c.cards == "action") == self.is_action_card(x)]
            return len(cards) >= c.n
        if t == "fear_cards_in_play_gte":
            return sum(len(v.fear_cards) for v in st.visitors.values()) >= c.n
        if t == "die_nearby":
            return room is not None and bool(self.dice_in(room))
        if t == "other_visitor_nearby":
            return any(v.room == room and v.seat != ctx.get("self")
                       for v in self.active_visitors())
        if t == "other_light_source":
            if room is None:
                return False
            if st.fireplace_lit and room == self.pack.manor.fireplace_room:
                return True
            return any(v.candle_lit and v.room == room and v.seat != ctx.get("self")
                       for v in self.surviving())
        if t == "pawn_on_board":
            return st.spirit.pawn_room is not None
        return False  # pragma: no cover

    # ------------------------------------------------------------------ the effect runner
    def step_effects(self, effs: list[dict[str, Any]], i: int, ctx: dict[str, Any]) -> None:
        if i >= len(effs):
            return
        e = parse_effect(effs[i])
        if "cid" not in ctx:
            self.st.prompt_seq += 1
            ctx["cid"] = self.st.prompt_seq
        self.later(Step(op="effects", args={"effs": effs, "i": i + 1, "ctx": ctx}))
        if not all(self.cond(c, ctx) for c in e.only_if):
            return
        handler: Callable[[Any, dict[str, Any]], None] | None = getattr(
            self, "eff_" + e.op, None)
        if handler is None:  # pragma: no cover - every op has a handler
            self.emit(f"(effect {e.op} is not supported yet)", "info")
            return
        handler(e, ctx)

    def ctx_step(self, cid: int) -> dict[str, Any] | None:
        for s in self.st.queue:
            if s.op == "effects" and s.args["ctx"].get("cid") == cid:
                ctx: dict[str, Any] = s.args["ctx"]
                return ctx
        return None

    def sub(self, effects: Any, ctx: dict[str, Any]) -> None:
        """Run a nested list (a choice branch, reveal_secret's outcome) next, same context."""
        sub_ctx = dict(ctx)
        sub_ctx.pop("cid", None)
        self.later(self.effects_step(effects, sub_ctx))

    def is_spirit_ctx(self, ctx: dict[str, Any]) -> bool:
        return bool(ctx["owner"] == self.st.spirit_seat)

    # ---- visitor group
    def eff_move(self, e: Any, ctx: dict[str, Any]) -> None:
        me = ctx.get("self")
        if me:
            self.later(Step(op="movement", args={"seat": me, "points": int(e.points)}))

    def step_movement(self, seat: str, points: int) -> None:
        """PR-09: each point opens/closes a nearby door or goes through an open one."""
        v = self.vis(seat)
        if points <= 0 or v.knocked_out or v.succumbed:
            return
        opts: list[tuple[str, str]] = []
        for did in self.doors_of(v.room):
            d = self.st.doors[did]
            beyond = self.room_name(self.other_side(did, v.room))
            if d.open:
                opts.append((f"go:{did}", f"Go through the open door to the {beyond}"))
                opts.append((f"close:{did}", f"Close the door to the {beyond}"))
            elif not d.locked:
                opts.append((f"open:{did}", f"Open the door to the {beyond}"))
        opts.append(("stop", "Stop moving"))
        self.ask("movement", seat,
                 f"Movement: {points} point(s) left in the {self.room_name(v.room)}.",
                 opts, "movement", seat=seat, points=points)

    def on_movement(self, option: str, prompt: Prompt) -> None:
        seat = str(prompt.data["seat"])
        points = int(prompt.data["points"])
        if option == "stop":
            return
        act, did = option.split(":", 1)
        v = self.vis(seat)
        d = self.st.doors[did]
        # the next point waits behind any reaction this point triggers (P-VIS-12)
        self.later(Step(op="movement", args={"seat": seat, "points": points - 1}))
        if act == "go":
            dest = self.other_side(did, v.room)
            v.room = dest
            self.emit(f"{self.name(seat)} moves to the {self.room_name(dest)}.", "move")
            self.fire("enter_room", visitor=seat, room=dest)
        elif act == "open":
            d.open = True
            self.emit(f"{self.name(seat)} opens the door {self.door_name(did)}.", "door")
        else:
            d.open = False
            self.emit(f"{self.name(seat)} closes the door {self.door_name(did)}.", "door")
            self.fire("door_closed", rooms=list(d.rooms), by=seat)

    def door_name(self, did: str) -> str:
        a, b = self.st.doors[did].rooms
        return f"{self.room_name(a)}–{self.room_name(b)}"

    def eff_investigate(self, e: Any, ctx: dict[str, Any]) -> None:
        me = ctx.get("self")
        if not me:
            return
        room = self.vis(me).room
        toks = self.st.tokens.get(room, [])
        if not toks:
            return
        if len(toks) == 1:
            self.investigate(me, room, 0)
            return
        opts = [(str(k), f"{'Spirit' if t.kind == 'spirit' else 'Small'} clue #{k + 1}")
                for k, t in enumerate(toks)]
        self.ask("target", me, "Investigate which clue token?", opts, "investigate",
                 seat=me, room=room, owner=me)

    def on_investigate(self, option: str, prompt: Prompt) -> None:
        self.investigate(str(prompt.data["seat"]), str(prompt.data["room"]), int(option))

    def investigate(self, seat: str, room: str, k: int) -> None:
        """P-CLUE-02: reveal the token, resolve its effects in order, discard it."""
        st = self.st
        tok = st.tokens[room].pop(k)
        if not st.tokens[room]:
            del st.tokens[room]
        if tok.kind == "spirit":
            clue: Any = self.pack.spirit_clue_of(tok.id)
            st.spirit_clue_discard.append(tok.id)
        else:
            clue = self.pack.small_clue_of(tok.id)
            st.small_clue_discard.append(tok.id)
        self.emit(f"{self.name(seat)} investigates and reveals the {tok.kind} clue "
                  f"{clue.name}.", "investigate")
        self.later(self.effects_step(clue.effects, self.visitor_ctx(seat, clue.name)))
        self.fire("investigate", visitor=seat, room=room)
        self.fire("reveal_spirit_clue" if tok.kind == "spirit" else "reveal_small_clue",
                  visitor=seat, room=room)

    def eff_draw_clue(self, e: Any, ctx: dict[str, Any]) -> None:
        steps = [Step(op="draw_clue", args={"seat": s})
                 for s in self.who(ctx, e.who) for _ in range(e.n)]
        self.later(*steps)

    def step_draw_clue(self, seat: str) -> None:
        if not self.vis(seat).succumbed:
            self.draw_clue(seat)

    def eff_draw_item(self, e: Any, ctx: dict[str, Any]) -> None:
        st = self.st
        for s in self.who(ctx, e.who):
            drawn = [st.item_deck.pop() for _ in range(min(e.n, len(st.item_deck)))]
            if not drawn:
                continue
            keep = len(drawn) if e.keep is None else min(e.keep, len(drawn))
            if keep >= len(drawn):
                for it in drawn:
                    self.gain_item(s, it)
            else:
                self.later(Step(op="keep_items", args={"seat": s, "drawn": drawn,
                                                       "keep": keep}))

    def step_keep_items(self, seat: str, drawn: list[str], keep: int) -> None:
        if keep <= 0 or not drawn:
            self.st.cellar.extend(drawn)
            return
        self.ask("choice", seat, f"Search: keep {keep} of these items (the rest go to the "
                 "Cellar).", [(i, f"Keep {self.card_name(i)}") for i in drawn], "keep_item",
                 seat=seat, drawn=drawn, keep=keep)

    def on_keep_item(self, option: str, prompt: Prompt) -> None:
        seat = str(prompt.data["seat"])
        drawn = [x for x in prompt.data["drawn"] if x != option]
        self.gain_item(seat, option)
        self.later(Step(op="keep_items", args={"seat": seat, "drawn": drawn,
                                               "keep": int(prompt.data["keep"]) - 1}))

    def eff_draw_action(self, e: Any, ctx: dict[str, Any]) -> None:
        for s in self.who(ctx, e.who):
            got = self.draw_actions(s, e.n)
            self.emit(f"{self.name(s)} draws {got} action card(s).", "draw")

    def eff_discard(self, e: Any, ctx: dict[str, Any]) -> None:
        steps = [Step(op="discard_pick", args={"seat": s, "cards": e.cards,
                                               "up_to": e.up_to, "left": e.n})
                 for s in self.who(ctx, e.who)]
        self.later(*steps)

    def step_discard_pick(self, seat: str, cards: str, up_to: bool, left: int) -> None:
        v = self.vis(seat)
        pool = [c for c in v.hand if cards == "any"
                or (cards == "action") == self.is_action_card(c)]
        if left <= 0 or not pool:
            return
        opts = [(c, f"Discard {self.card_name(c)}") for c in pool]
        if up_to:
            opts.append(("done", "Discard no more"))
        self.later(Step(op="discard_pick", args={"seat": seat, "cards": cards,
                                                 "up_to": up_to, "left": left - 1}))
        self.ask("choice", seat, f"Discard a card ({left} to go).", opts, "discard_pick",
                 private=True, seat=seat)

    def on_discard_pick(self, option: str, prompt: Prompt) -> None:
        if option == "done":
            self.st.queue = [s for s in self.st.queue if s.op != "discard_pick"
                             or s.args["seat"] != prompt.data["seat"]]
            return
        self.discard_card(str(prompt.data["seat"]), option)

    def eff_suffer_fear(self, e: Any, ctx: dict[str, Any]) -> None:
        by = "spirit" if self.is_spirit_ctx(ctx) else str(ctx["owner"])
        for s in self.who(ctx, e.who):
            if ctx.get("fear_card") and self.replaced("fear_card_would_cause_fear", s):
                continue
            self.suffer_fear(s, e.n, by)

    def eff_cure_fear(self, e: Any, ctx: dict[str, Any]) -> None:
        for s in self.who(ctx, e.who):
            self.cure_fear(s, e.n)

    def eff_trash_fear_card(self, e: Any, ctx: dict[str, Any]) -> None:
        # pooled: n in total among all the targets, the owner picks (the Dark Board's
        # Dining Hall, G-18); otherwise n for each; "up to" stops at the first "done"
        groups = [self.who(ctx, e.who)] if e.pooled else [[s] for s in self.who(ctx, e.who)]
        self.later(*[Step(op="trash_fear", args={"seats": g, "chooser": ctx["owner"],
                                                 "up_to": e.up_to, "left": e.n})
                     for g in groups if g])

    def step_trash_fear(self, seats: list[str], chooser: str, up_to: bool, left: int) -> None:
        cards = [(s, c) for s in seats for c in self.vis(s).fear_cards]
        if left <= 0 or not cards:
            return
        opts = [(f"{s}|{c}", f"Trash {self.card_name(c)} ({self.name(s)})") for s, c in cards]
        if up_to:
            opts.append(("done", "Trash no more"))
        if len(opts) == 1:
            self.trash_fear(*cards[0])
            self.later(Step(op="trash_fear", args={"seats": seats, "chooser": chooser,
                                                   "up_to": up_to, "left": left - 1}))
            return
        self.ask("choice", chooser, "Trash which fear card?", opts, "trash_fear", seats=seats,
                 up_to=up_to, left=left)

    def on_trash_fear(self, option: str, prompt: Prompt) -> None:
        if option == "done":
            return
        seat, card = option.split("|", 1)
        self.trash_fear(seat, card)
        self.later(Step(op="trash_fear", args={
            "seats": list(prompt.data["seats"]), "chooser": prompt.seats[0],
            "up_to": bool(prompt.data["up_to"]), "left": int(prompt.data["left"]) - 1}))

    def trash_fear(self, seat: str, card: str) -> None:
        v = self.vis(seat)
        v.fear_cards.remove(card)
        self.st.clue_trash.append(card)  # P-FEAR-06: trashed when removed
        self.emit(f"{self.name(seat)}'s fear card {self.card_name(card)} is trashed.", "fear")

    def replaced(self, event: str, seat: str) -> bool:
        """A ``*_would_*`` window: the first live reaction of `seat` on `event` whose
        effects ``prevent`` it replaces the event (its card is discarded if it says so)."""
        v = self.vis(seat)
        if v.succumbed:
            return False
        sources: list[tuple[str, Any]] = []
        for it in v.items:
            r = self.pack.item_of(it).reaction
            if r is not None:
                sources.append((it, r))
        sources += [(c, self.pack.fear_card(c).reaction) for c in v.fear_cards]
        sources += [(f"char:{k}", r)
                    for k, r in enumerate(self.pack.visitor(v.character).reactions)]
        for src, r in sources:
            if r.trigger.event != event or not any(e.op == "prevent" for e in r.effects):
                continue
            ctx = self.visitor_ctx(seat, f"reaction {src}")
            if not all(self.cond(c, ctx) for c in r.trigger.only_if):
                continue
            self.emit(f"{self.name(seat)}'s {self.card_name(src)} prevents it "
                      "(reaction).", "reaction")
            if r.discard_this and src in v.items:
                v.items.remove(src)
                self.st.cellar.append(src)
            rest = [e for e in r.effects if e.op != "prevent"]
            if rest:
                self.later(self.effects_step(rest, ctx))
            return True
        return False

    def smother(self, seat: str, by: str) -> None:
        v = self.vis(seat)
        if not v.candle_lit:
            return
        if by != seat and self.replaced("candle_would_be_smothered", seat):
            return
        v.candle_lit = False
        self.emit(f"{self.name(seat)}'s candle is smothered.", "candle")
        self.fire("candle_smothered", visitor=seat, by=by)

    def eff_smother_candle(self, e: Any, ctx: dict[str, Any]) -> None:
        by = "spirit" if self.is_spirit_ctx(ctx) else str(ctx["owner"])
        for s in self.who(ctx, e.who):
            self.smother(s, by)

    def eff_relight_candle(self, e: Any, ctx: dict[str, Any]) -> None:
        for s in self.who(ctx, e.who):
            v = self.vis(s)
            if not v.candle_lit and not v.knocked_out:
                v.candle_lit = True
                self.emit(f"{self.name(s)}'s candle is relit.", "candle")

    def eff_light_fireplace(self, e: Any, ctx: dict[str, Any]) -> None:
        if self.origin(ctx) == self.pack.manor.fireplace_room and not self.st.fireplace_lit:
            self.st.fireplace_lit = True
            self.emit("The fireplace is lit (P-LIGHT-02).", "light")

    # ---- doors, secrets, clue deck, inspect
    def door_acts(self, did: str, acts: Any) -> list[str]:
        d = self.st.doors[did]
        passage = self.pack.manor.chamber is not None and did == \
            self.pack.manor.chamber.passage_id
        out = []
        for a in acts:
            ok = {
                "open": not d.open and not d.locked,  # P-MOVE-04
                "close": d.open,
                "lock": not d.locked and not passage,  # P-MOVE-08
                "unlock": d.locked,
                "close_and_lock": (d.open or not d.locked) and not passage,
            }.get(a, False)
            if ok:
                out.append(a)
        return out

    def eff_door(self, e: Any, ctx: dict[str, Any]) -> None:
        room = self.origin(ctx)
        if room is None:
            return
        opts = [(f"{a}:{did}", f"{a.replace('_', ' ').capitalize()} the door "
                 f"{self.door_name(did)}")
                for did in self.doors_of(room) for a in self.door_acts(did, e.actions)]
        if not opts:
            return
        self.ask("target", str(ctx["owner"]), "Choose a door and what to do with it.",
                 opts, "door", then_may=list(e.then_may), by=str(ctx["owner"]))

    def on_door(self, option: str, prompt: Prompt) -> None:
        act, did = option.split(":", 1)
        d = self.st.doors[did]
        by = str(prompt.data["by"])
        if act in ("open", "close"):
            d.open = act == "open"
        if act in ("lock", "close_and_lock"):
            d.locked = True
        if act == "close_and_lock":
            d.open = False
        if act == "unlock":
            d.locked = False
        self.emit(f"The door {self.door_name(did)}: {act.replace('_', ' ')}.", "door")
        if act in ("close", "close_and_lock", "lock"):
            self.fire("door_closed", rooms=list(d.rooms),
                      by="spirit" if by == self.st.spirit_seat else by)
        then_may = prompt.data.get("then_may") or []
        free = self.door_acts(did, then_may)
        if free:
            opts = [(f"{a}:{did}", f"Also {a.replace('_', ' ')} it") for a in free]
            opts.append(("no", "Leave it"))
            self.ask("choice", by, "You may also change this door for free.", opts,
                     "door_free", by=by)

    def on_door_free(self, option: str, prompt: Prompt) -> None:
        if option != "no":
            self.on_door(option, Prompt(id="x", kind="target", seats=[], text="",
                                        data={"by": prompt.data["by"], "then_may": []}))

    def eff_reveal_secret(self, e: Any, ctx: dict[str, Any]) -> None:
        owner = str(ctx["owner"])
        opts = [(str(s.position), f"Position {s.position} ({len(s.discards)} clue card(s) "
                 "beneath)") for s in self.st.secrets if not s.revealed]
        if not opts:
            return
        data: dict[str, Any] = {"min": int(e.min_matching), "success": dump_effects(e.on_success),
                                "fail": dump_effects(e.on_fail), "ctx": dict(ctx),
                                "owner": owner}
        if owner in self.st.visitors:
            self.ask("target", owner, "Choose an unrevealed secret card.", opts,
                     "reveal_secret", revealer=owner, **data)
            return
        # A-31: a spirit effect's secret is resolved by the visitor it targets, else by a
        # visitor who is not knocked out, of the spirit's choice (P-SECRET-05)
        pool = self.who(ctx, "target") or [v.seat for v in self.active_visitors()]
        if not pool:
            return
        if len(pool) == 1:
            self.on_secret_revealer(pool[0], Prompt(id="x", kind="target", seats=[owner],
                                                    text="", data=data))
            return
        self.ask("target", owner, "Which visitor resolves the revealed secret?",
                 [(s, f"{self.name(s)} resolves it") for s in pool], "secret_revealer",
                 **data)

    def on_secret_revealer(self, option: str, prompt: Prompt) -> None:
        opts = [(str(s.position), f"Position {s.position} ({len(s.discards)} clue card(s) "
                 "beneath)") for s in self.st.secrets if not s.revealed]
        data: dict[str, Any] = {k: prompt.data[k]
                                for k in ("min", "success", "fail", "ctx", "owner")}
        self.ask("target", prompt.seats[0], "Choose an unrevealed secret card.", opts,
                 "reveal_secret", revealer=option, **data)

    def on_reveal_secret(self, option: str, prompt: Prompt) -> None:
        """H-L3: the hidden check resolves at once; only its outcome is public."""
        pos = int(option)
        ctx = dict(prompt.data["ctx"])
        ctx.pop("cid", None)
        owner = str(prompt.data.get("revealer", prompt.data["owner"]))
        if self.matching(pos) >= int(prompt.data["min"]):
            self.later(Step(op="effects", args={"effs": prompt.data["success"], "i": 0,
                                                "ctx": dict(ctx)}))
            self.reveal_secret(pos, owner)
        else:
            self.emit(f"{self.name(owner)} tries to reveal the secret at position {pos}: "
                      "nothing happens.", "secret")
            self.later(Step(op="effects", args={"effs": prompt.data["fail"], "i": 0,
                                                "ctx": ctx}))

    def eff_reveal_clue_deck(self, e: Any, ctx: dict[str, Any]) -> None:
        st = self.st
        for _ in range(e.n):
            if not st.clue_deck:
                break
            card = st.clue_deck.pop()
            st.clue_revealed.append(card)
            st.clues_shown.append(card)  # seen face up by all (P-CLUE-06, A-64)
            self.emit(f"The top clue card is revealed: {self.card_name(card)}.", "clue")

    def eff_inspect(self, e: Any, ctx: dict[str, Any]) -> None:
        """P-TIME-09: the owner alone sees it; nothing is revealed; a deck keeps its order
        unless the effect lets the owner reorder it or put the card on the bottom."""
        st = self.st
        owner = str(ctx["owner"])
        room = self.origin(ctx)
        if e.what == "clue_deck":
            top = list(reversed(st.clue_deck[-e.n:]))
            if not top:
                return
            self.private(owner, "Top of the clue deck: "
                         + ", ".join(self.card_name(c) for c in top) + ".")
            self.emit(f"{self.name(owner)} inspects the top of the clue deck.", "inspect")
            if e.reorder and len(top) > 1:
                self.later(Step(op="reorder", args={"seat": owner, "cards": top, "done": []}))
            elif e.may_bottom:
                self.ask("choice", owner, f"You inspected {self.card_name(top[0])}: leave it "
                         "on top or put it on the bottom of the clue deck?",
                         [("top", "Leave it on top"), ("bottom", "Put it on the bottom")],
                         "inspect_bottom", private=True, card=top[0])
        elif e.what in ("clue_token", "spirit_clue") and room:
            toks = [k for k, t in enumerate(st.tokens.get(room, []))
                    if e.what == "clue_token" or t.kind == "spirit"]
            if len(toks) == 1:
                self.inspect_token(owner, room, toks[0])
            elif toks:
                kinds = st.tokens[room]
                self.ask("target", owner, "Inspect which clue token?",
                         [(str(k), f"{kinds[k].kind.capitalize()} clue #{k + 1}") for k in toks],
                         "inspect_token", seat=owner, room=room)
        elif e.what == "secret":
            hidden = [s.position for s in st.secrets if not s.revealed]
            if hidden:
                self.ask("target", owner, "Inspect which secret card?",
                         [(str(p), f"Position {p}") for p in hidden], "inspect_secret",
                         seat=owner)
        elif e.what == "chamber" and st.chamber is not None and st.chamber.cards:
            self.private(owner, "In the Secret Chamber: " + ", ".join(
                self.card_name(c) for c in st.chamber.cards) + ".")  # H-36
            self.emit(f"{self.name(owner)} looks into the Secret Chamber.", "inspect")
        elif e.what == "removed_clue":
            removed = [c for c in st.clue_box if not self.pack.is_fear_card(c)]
            if removed:
                c = removed[st.rng.below(len(removed))]
                cc = self.pack.clue_card(c)
                self.private(owner, f"A clue card removed in setup: {cc.name} ({cc.trauma}, "
                             f"{self.room_name(cc.room)}).")

    def on_inspect_bottom(self, option: str, prompt: Prompt) -> None:
        card = str(prompt.data["card"])
        deck = self.st.clue_deck
        if option == "bottom" and deck and deck[-1] == card:
            deck.pop()
            deck.insert(0, card)
            self.emit("The inspected card goes to the bottom of the clue deck.", "inspect")

    def step_reorder(self, seat: str, cards: list[str], done: list[str]) -> None:
        """Put the inspected cards back in the owner's order, top first (one pick each)."""
        left = [c for c in cards if c not in done]
        if len(left) <= 1:
            order = done + left  # top first
            deck = self.st.clue_deck
            del deck[len(deck) - len(order):]
            deck.extend(reversed(order))
            return
        self.ask("choice", seat, "Reorder the clue deck: which card goes next from the top?",
                 [(c, f"{self.card_name(c)} next") for c in left], "reorder", private=True,
                 seat=seat, cards=cards, done=done)

    def on_reorder(self, option: str, prompt: Prompt) -> None:
        self.later(Step(op="reorder", args={"seat": prompt.data["seat"],
                                            "cards": prompt.data["cards"],
                                            "done": [*prompt.data["done"], option]}))

    def inspect_token(self, seat: str, room: str, k: int) -> None:
        t = self.st.tokens[room][k]
        name = (self.pack.spirit_clue_of(t.id) if t.kind == "spirit"
                else self.pack.small_clue_of(t.id)).name
        self.private(seat, f"The {t.kind} clue in the {self.room_name(room)} is {name}.")
        self.emit(f"{self.name(seat)} inspects a clue token.", "inspect")

    def on_inspect_token(self, option: str, prompt: Prompt) -> None:
        self.inspect_token(str(prompt.data["seat"]), str(prompt.data["room"]), int(option))

    def on_inspect_secret(self, option: str, prompt: Prompt) -> None:
        seat = str(prompt.data["seat"])
        slot = self.st.secrets[int(option) - 1]
        card = self.pack.secret(slot.card)
        self.private(seat, f"Secret at position {slot.position}: {card.name} ({card.trauma}).")
        self.emit(f"{self.name(seat)} inspects the secret card at position {option}.", "inspect")

    def eff_take_from_cellar(self, e: Any, ctx: dict[str, Any]) -> None:
        me = ctx.get("self")
        if me and self.st.cellar:
            for _ in range(e.n):
                self.later(Step(op="take_cellar", args={"seat": me}))

    def step_take_cellar(self, seat: str) -> None:
        if not self.st.cellar:
            return
        opts = [(i, f"Take {self.card_name(i)}") for i in dict.fromkeys(self.st.cellar)]
        self.ask("choice", seat, "Take an item card from the Cellar.", opts, "take_cellar",
                 seat=seat)

    def on_take_cellar(self, option: str, prompt: Prompt) -> None:
        self.st.cellar.remove(option)
        self.gain_item(str(prompt.data["seat"]), option)

    def eff_take_from_chamber(self, e: Any, ctx: dict[str, Any]) -> None:
        me = ctx.get("self")
        if me and self.st.chamber is not None:
            for _ in range(e.n):
                self.later(Step(op="take_chamber", args={"seat": me}))

    def step_take_chamber(self, seat: str) -> None:
        """G-17 first effect (PR-25): the visitor alone sees the chamber cards, takes one."""
        ch = self.st.chamber
        if ch is None or not ch.cards:
            return
        self.private(seat, "In the Secret Chamber: "
                     + ", ".join(self.card_name(c) for c in ch.cards) + ".")
        self.ask("choice", seat, "Take which card from the Secret Chamber?",
                 [(c, f"Take {self.card_name(c)}") for c in dict.fromkeys(ch.cards)],
                 "take_chamber", private=True, seat=seat)

    def on_take_chamber(self, option: str, prompt: Prompt) -> None:
        seat = str(prompt.data["seat"])
        ch = self.st.chamber
        assert ch is not None
        ch.cards.remove(option)
        if self.pack.is_fear_card(option):  # G-17: trashed without effect
            self.st.clue_trash.append(option)
            self.emit(f"{self.name(seat)} finds the fear card {self.card_name(option)} in the "
                      "Secret Chamber; it is trashed without effect.", "clue")
            return
        self.vis(seat).hand.append(option)
        self.emit(f"{self.name(seat)} takes a clue card from the Secret Chamber.", "clue")
        self.emit(f"You took the clue card {self.card_name(option)}.", "private", [seat])

    def eff_uncover(self, e: Any, ctx: dict[str, Any]) -> None:
        """P-CHAMBER-05 (A-33): the hidden check resolves at once (H-L3); only its outcome
        is public. On a match the passage token, open side up, joins the room to the chamber
        as a door that cannot be locked (P-CHAMBER-06)."""
        st = self.st
        me = ctx.get("self")
        ch = st.chamber
        chamber = self.chamber_room()
        if not me or ch is None or chamber is None or ch.passage_room is not None:
            return
        room = self.vis(me).room
        if self.pack.clue_card(ch.aside).room != room:
            self.emit(f"{self.name(me)} searches the {self.room_name(room)} for a secret "
                      "passage: nothing is found.", "chamber")
            return
        ch.passage_room = room
        pid = self.pack.manor.chamber.passage_id  # type: ignore[union-attr]
        st.doors[pid] = DoorState(id=pid, rooms=[room, chamber], open=True)
        self.emit(f"{self.name(me)} uncovers a secret passage in the {self.room_name(room)}: "
                  "the Secret Chamber is open!", "chamber")

    def eff_gain_main_actions(self, e: Any, ctx: dict[str, Any]) -> None:
        n = e.n
        if e.per == "fear_card_in_play":
            fear = sum(len(v.fear_cards) for v in self.st.visitors.values())
            if self.pack.options.revealed_fear_cards_count:  # A-38 option
                fear += sum(1 for c in self.st.clue_revealed if self.pack.is_fear_card(c))
            n *= fear
        if self.is_spirit_ctx(ctx):
            self.st.spirit.pawn_actions += n
            if n:
                self.emit(f"The spirit pawn gains {n} main action(s).", "spirit")
            return
        me = ctx.get("self")
        # P-2P: the two characters share the turn's main actions (A-02)
        if me and self.st.phase == "visitor" and self.st.active in (me, self.partner(me)):
            self.st.actions_left += n
            self.emit(f"{self.name(me)} gains {n} main action(s).", "turn")
        elif me in self.st.visitors and n > 0:  # P-VIS-03 / PR-18: used inside this effect
            self.emit(f"{self.name(me)} gains {n} main action(s) outside their turn, to use "
                      "now.", "turn")
            self.later(Step(op="offturn_main", args={"seat": me, "left": n}))

    def offturn_mains(self, seat: str) -> list[Action]:
        """The main actions a visitor may take with an off-turn grant (P-VIS-03): Rest, Walk,
        and the main actions of their cards, items, room and abilities."""
        self.granted = seat
        try:
            return [Action(kind=K.REST), Action(kind=K.WALK)] + [
                a for a in self.card_actions(seat) if a.params.get("speed") == "main"]
        finally:
            self.granted = None

    def step_offturn_main(self, seat: str, left: int) -> None:
        """PR-18: the visitor uses a granted main action now or lets the rest go; whatever is
        left when the effect moves on is lost (P-VIS-03)."""
        v = self.vis(seat)
        if left <= 0:
            return
        acts = [] if v.knocked_out or v.succumbed else self.offturn_mains(seat)
        if not acts:
            self.emit(f"{self.name(seat)} cannot use the granted main action(s); they are "
                      "lost (P-VIS-03).", "turn")
            return
        self.ask("choice", self.st.controller.get(seat, seat),
                 f"{left} main action(s) granted outside your turn: use one now, or let them "
                 "go (unused ones are lost when the effect ends).",
                 [(f"a{i}", self.label(seat, a)) for i, a in enumerate(acts)]
                 + [("done", "Let the granted action(s) go unused")], "offturn_main",
                 private=True, seat=seat, left=left, actions=[a.model_dump() for a in acts])

    def on_offturn_main(self, option: str, prompt: Prompt) -> None:
        seat = str(prompt.data["seat"])
        left = int(prompt.data["left"])
        if option == "done":
            self.emit(f"{self.name(seat)} lets {left} granted main action(s) go unused "
                      "(P-VIS-03).", "turn")
            return
        action = Action.model_validate(prompt.data["actions"][int(option[1:])])
        self.later(Step(op="offturn_main", args={"seat": seat, "left": left - 1}))
        self.granted = seat  # the action's steps run after this; only its cost is paid here
        try:
            self.do_visitor(seat, action)
        finally:
            self.granted = None

    def eff_adjust_track(self, e: Any, ctx: dict[str, Any]) -> None:
        forced = ctx.get("self") or next(iter(ctx.get("targets") or []), None)
        self.adjust_track(e.marker, e.delta, forced)

    def eff_end_turn(self, e: Any, ctx: dict[str, Any]) -> None:
        me = ctx.get("self")
        if me and self.st.phase == "visitor" and self.st.active == me:
            self.later(Step(op="end_turn_now", args={"seat": me}))

    def eff_return_bond(self, e: Any, ctx: dict[str, Any]) -> None:
        if self.st.bonded in self.who(ctx, e.who):
            self.st.bonded = None
            self.emit("The bonded marker returns to the spirit.", "bond")

    def eff_prevent(self, e: Any, ctx: dict[str, Any]) -> None:
        ctx["prevented"] = True

    # ---- spirit group
    def pick_die(self, e_die: str, ctx: dict[str, Any], then: str, **data: Any) -> None:
        """Resolve a die reference; `nearby` asks the spirit when several qualify."""
        room = self.origin(ctx)
        if e_die == "this":
            die = ctx.get("die")
            if die is None and room:
                near = self.dice_in(room)
                die = near[0] if near else None
            if die is not None and self.die(int(die)).room is not None:
                getattr(self, "on_" + then)(str(die), Prompt(
                    id="x", kind="target", seats=[], text="", data=data))
            return
        if e_die == "trigger_die":
            die = ctx.get("trigger_die")
            if die is not None and self.die(int(die)).room is not None:
                getattr(self, "on_" + then)(str(die), Prompt(
                    id="x", kind="target", seats=[], text="", data=data))
            return
        dice = self.dice_in(room) if room else []
        if not dice:
            return
        if len(dice) == 1:
            getattr(self, "on_" + then)(str(dice[0]), Prompt(
                id="x", kind="target", seats=[], text="", data=data))
            return
        chooser = str(ctx["owner"]) if e_die == "nearby" and then == "reduce" \
            else self.st.spirit_seat
        self.ask("target", chooser, "Choose a presence die.",
                 [(str(d), self.die_label(d)) for d in dice], then, **data)

    def eff_reduce_presence(self, e: Any, ctx: dict[str, Any]) -> None:
        self.pick_die(e.die, ctx, "reduce", n=e.n)

    def on_reduce(self, option: str, prompt: Prompt) -> None:
        d = int(option)
        self.set_die(d, self.die(d).value - int(prompt.data["n"]))
        self.emit(f"A presence die loses {prompt.data['n']} presence.", "die")

    def eff_increase_presence(self, e: Any, ctx: dict[str, Any]) -> None:
        self.pick_die(e.die, ctx, "increase_die", n=e.n)

    def on_increase_die(self, option: str, prompt: Prompt) -> None:
        d = int(option)
        self.set_die(d, self.die(d).value + int(prompt.data["n"]))
        self.emit(f"Presence grows: {self.die_label(d)}.", "die")

    def eff_move_die(self, e: Any, ctx: dict[str, Any]) -> None:
        room = self.origin(ctx)
        if e.die == "from_adjacent":
            if room is None:
                return
            cands = [d for r in self.die_neighbours(room) for d in self.dice_in(r)]
            if not cands:
                return
            opts = [(str(d), f"Move {self.die_label(d)} here") for d in cands]
            opts.append(("no", "Do not move a die"))
            self.ask("target", self.st.spirit_seat, f"Move a die into the "
                     f"{self.room_name(room)}?", opts, "die_into", room=room,
                     penalty=e.light_penalty)
            return
        self.pick_die(e.die, ctx, "die_steps", steps=e.steps, up_to=e.up_to,
                      penalty=e.light_penalty)

    def on_die_into(self, option: str, prompt: Prompt) -> None:
        if option != "no":
            self.die_enters(int(option), str(prompt.data["room"]), bool(prompt.data["penalty"]))

    def on_die_steps(self, option: str, prompt: Prompt) -> None:
        self.later(Step(op="die_step", args={"die": int(option),
                                             "steps": int(prompt.data["steps"]),
                                             "up_to": bool(prompt.data["up_to"]),
                                             "penalty": bool(prompt.data["penalty"])}))

    def step_die_step(self, die: int, steps: int, up_to: bool, penalty: bool) -> None:
        d = self.die(die)
        if steps <= 0 or d.room is None:
            return
        opts = [(r, f"Move it to the {self.room_name(r)}")
                for r in self.die_neighbours(d.room)]
        if up_to or not opts:
            opts.append(("stop", "Stop"))
        self.ask("target", self.st.spirit_seat, f"Move {self.die_label(die)}: where?", opts,
                 "die_step", die=die, steps=steps, up_to=up_to, penalty=penalty)

    def on_die_step(self, option: str, prompt: Prompt) -> None:
        if option == "stop":
            return
        die = int(prompt.data["die"])
        self.later(Step(op="die_step", args={"die": die, "steps": int(prompt.data["steps"]) - 1,
                                             "up_to": True,
                                             "penalty": bool(prompt.data["penalty"])}))
        self.die_enters(die, option, bool(prompt.data["penalty"]))

    def eff_add_die(self, e: Any, ctx: dict[str, Any]) -> None:
        n = len(self.supply()) if e.n == "all" else int(e.n)
        self.later(*[Step(op="add_die") for _ in range(n)])

    def step_add_die(self) -> None:
        if not self.supply():
            return
        rooms = [r for r in self.st.rooms if self.dark(r) and not self.sealed(r)]
        if not rooms:
            return
        self.ask("target", self.st.spirit_seat, "Add a presence die (1) to a dark room.",
                 [(r, f"Add it to the {self.room_name(r)}") for r in rooms], "add_die")

    def on_add_die(self, option: str, prompt: Prompt) -> None:
        die = self.supply()[0]
        self.place_die(die, option, 1)
        self.emit(f"A presence die (1) appears in the {self.room_name(option)}.", "die")
        self.fire("die_enters_room", room=option, die=die, by="spirit")

    def eff_bond(self, e: Any, ctx: dict[str, Any]) -> None:
        for s in self.who(ctx, e.who)[:1]:
            self.st.bonded = s  # P-BOND-01/02
            self.emit(f"{self.name(s)} is now bonded with the spirit.", "bond")

    def eff_place_pawn(self, e: Any, ctx: dict[str, Any]) -> None:
        room = self.origin(ctx)
        if room is None or self.st.spirit.pawn_room is not None:
            return
        self.st.spirit.pawn_room = room
        self.emit(f"The spirit manifests in the {self.room_name(room)}!", "manifest")
        self.fire("pawn_enters_room", room=room, by="spirit")

    def eff_move_pawn(self, e: Any, ctx: dict[str, Any]) -> None:
        self.later(Step(op="pawn_step", args={"steps": e.steps, "cost": e.light_cost}))

    def step_pawn_step(self, steps: int, cost: int) -> None:
        room = self.st.spirit.pawn_room
        if steps <= 0 or room is None:
            return
        payers = [d for d in self.dice_in(room) if self.die(d).value >= cost]
        opts = [(r, f"Glide to the {self.room_name(r)}") for r in self.die_neighbours(room)
                if self.dark(r) or cost == 0 or payers]
        opts.append(("stop", "Stop"))
        self.ask("target", self.st.spirit_seat, "Move the spirit pawn: where?", opts,
                 "pawn_step", steps=steps, cost=cost)

    def on_pawn_step(self, option: str, prompt: Prompt) -> None:
        if option == "stop":
            return
        st = self.st
        cost = int(prompt.data["cost"])
        room = st.spirit.pawn_room
        if room is not None and self.lit(option) and cost:
            payer = next(d for d in self.dice_in(room) if self.die(d).value >= cost)
            self.set_die(payer, self.die(payer).value - cost)
        st.spirit.pawn_room = option
        self.emit(f"The spirit pawn glides into the {self.room_name(option)}.", "manifest")
        self.later(Step(op="pawn_step", args={"steps": int(prompt.data["steps"]) - 1,
                                              "cost": cost}))
        self.fire("pawn_enters_room", room=option, by="spirit")

    def eff_spirit_speak(self, e: Any, ctx: dict[str, Any]) -> None:
        # P-DISCORD-08: the grant lasts until used or the spirit turn ends; the words go
        # through `speak` (the bot posts them), so the spirit never types in the thread.
        self.st.speech_grant = {"max_words": e.max_words, "vocabulary": list(e.vocabulary)}
        self.emit(f"The spirit may speak: at most {e.max_words} word(s) (P-DISCORD-08).",
                  "speak", max_words=e.max_words, vocabulary=list(e.vocabulary))

    def speak(self, seat: str, words: str) -> list[Event]:
        """The spirit says what an effect allows (P-COMM-09, P-DISCORD-08): only while a
        grant stands, at most its words, from its vocabulary if it has one."""
        st = self.st
        grant = st.speech_grant
        if seat != st.spirit_seat or grant is None:
            raise IllegalAction("The spirit may never communicate unless a game effect "
                                "allows it; nothing lets it speak now.", rule="P-COMM-09")
        said = words.split()
        if not said or len(said) > int(grant["max_words"]):
            raise IllegalAction(f"Say 1 to {grant['max_words']} word(s).",
                                rule="P-DISCORD-08")
        bad = [w for w in said if not SPOKEN_WORD.fullmatch(w)]
        if bad:
            raise IllegalAction("Only plain words may be spoken (letters, digits, ' and -, "
                                f"with . , ! ? after): not {bad[0][:30]!r}.",
                                rule="P-DISCORD-08")
        vocab = {str(w).lower() for w in grant.get("vocabulary", [])}
        if vocab and any(w.lower().rstrip(".,!?") not in vocab for w in said):
            raise IllegalAction("Those words are not among the ones this effect allows: "
                                + ", ".join(sorted(vocab)) + ".", rule="P-DISCORD-08")
        st.speech_grant = None
        self.emit(f"The spirit speaks: “{' '.join(said)}”", "speak")
        return self.events

    def whisper_lines(self) -> list[tuple[str, str]]:
        """P-HORROR-02: the atmospheric lines the spirit may have the bot post (True Horror,
        its own turn, once per turn)."""
        st = self.st
        if not (st.true_horror and st.phase == "spirit" and not st.whispered
                and self.resting()):
            return []
        return [(ln.id, ln.text) for ln in self.pack.presets.horror_lines]

    def eff_spirit_draw(self, e: Any, ctx: dict[str, Any]) -> None:
        sp = self.st.spirit
        got = 0
        for _ in range(e.n):
            if not sp.deck and sp.discard:
                sp.deck = list(sp.discard)
                sp.discard.clear()
                self.st.rng.shuffle(sp.deck)
            if sp.deck:
                sp.hand.append(sp.deck.pop())
                got += 1
        self.emit(f"The spirit draws {got} spirit card(s).", "spirit")
        if got:  # H-02: only the spirit is told which
            self.emit("You draw " + ", ".join(self.card_name(c) for c in sp.hand[-got:])
                      + ".", "draw", [self.st.spirit_seat])

    # ---- structure
    def candidates(self, e: Any, ctx: dict[str, Any]) -> list[str]:
        st = self.st
        room = self.origin(ctx)
        pool = [v for v in st.visitors.values() if not v.succumbed
                and (e.allow_knocked_out or not v.knocked_out)]  # P-KO-04
        if e.exclude_self:
            pool = [v for v in pool if v.seat != ctx.get("self")]
        sel = e.selector
        if sel == "nearby_visitor":
            pool = [v for v in pool if v.room == room]
        elif sel == "alone_nearby_visitor":
            pool = [v for v in pool if v.room == room and self.alone(v.seat)]
        elif sel == "visitor_within_hearing":
            rooms = self.hearing_rooms(room) if room else set()
            pool = [v for v in pool if v.room in rooms]
        elif sel == "bonded_visitor":
            pool = [v for v in pool if v.seat == st.bonded]
        return [v.seat for v in pool]

    def eff_target(self, e: Any, ctx: dict[str, Any]) -> None:
        """PR-04 / P-SPIRIT-13: the owner picks; none = the targeted effects do nothing."""
        cands = self.candidates(e, ctx)
        count = len(cands) if e.count == "all" else int(e.count)
        if len(cands) <= count:
            ctx["targets"] = cands
            self.note_targets(ctx)
            return
        ctx["targets"] = []
        self.ask("target", str(ctx["owner"]), "Choose a visitor.",
                 [(s, f"Target {self.name(s)}") for s in cands], "target", cid=ctx["cid"],
                 left=count, cands=cands)

    def on_target(self, option: str, prompt: Prompt) -> None:
        ctx = self.ctx_step(int(prompt.data["cid"]))
        if ctx is None:
            return
        ctx["targets"] = [*ctx["targets"], option]
        left = int(prompt.data["left"]) - 1
        cands = [c for c in prompt.data["cands"] if c != option]
        if left > 0 and cands:
            self.ask("target", prompt.seats[0], "Choose another visitor.",
                     [(s, f"Target {self.name(s)}") for s in cands], "target",
                     cid=prompt.data["cid"], left=left, cands=cands)
        else:
            self.note_targets(ctx)

    def note_targets(self, ctx: dict[str, Any]) -> None:
        if self.is_spirit_ctx(ctx):
            self.st.targeted += [t for t in ctx["targets"] if t not in self.st.targeted]
        if ctx["targets"]:
            self.emit("Targeted: " + ", ".join(self.name(s) for s in ctx["targets"]) + ".",
                      "target")

    def can_do(self, effects: Any, ctx: dict[str, Any], seat: str | None) -> bool:
        """P-TIME-12: whether a branch of an either-choice can be done at all."""
        for eff in effects:
            # each branch effect is checked on the visitor it names (Comfort's "target"),
            # not on the choice's own subject (P-TIME-12, P-DIST-02)
            ref = getattr(eff, "who", None)
            named = self.who(ctx, ref) if ref is not None else []
            subject = named[0] if named else seat
            if eff.op == "discard" and subject:
                v = self.vis(subject)
                pool = [c for c in v.hand if eff.cards == "any"
                        or (eff.cards == "action") == self.is_action_card(c)]
                if len(pool) < (1 if eff.up_to else eff.n):
                    return False
            if eff.op == "smother_candle" and subject and not self.vis(subject).candle_lit:
                return False
            if eff.op == "trash_fear_card" and subject and not self.vis(subject).fear_cards:
                return False
            if eff.op == "cure_fear" and subject and self.vis(subject).fear == 0:
                return False
        return True

    def eff_choice(self, e: Any, ctx: dict[str, Any]) -> None:
        st = self.st
        affected = self.who(ctx, e.who)
        seat = affected[0] if affected else None
        if seat is None and (e.who != "self" or self.is_spirit_ctx(ctx)):
            return  # P-TIME-03: nobody to affect
        if e.chooser == "spirit":
            chooser = st.spirit_seat
        elif e.chooser == "owner" or seat is None:
            chooser = str(ctx["owner"])
        else:
            chooser = seat
        if e.coloured and seat is not None and st.bonded == seat:
            chooser = st.spirit_seat  # P-BOND-03
        if chooser in st.visitors and st.visitors[chooser].succumbed:
            return
        if e.kind == "may":
            opts = [("0", "Yes: " + self.effects_text(e.options[0])), ("no", "No")]
        else:
            able = [k for k, br in enumerate(e.options) if self.can_do(br, ctx, seat)]
            able = able or list(range(len(e.options)))
            if len(able) == 1:
                self.sub(e.options[able[0]], ctx)
                return
            opts = [(str(k), self.effects_text(e.options[k]).capitalize()) for k in able]
        self.ask("choice", chooser, ("Coloured choice" if e.coloured else "Choose")
                 + (f" for {self.name(seat)}" if seat else "") + ":", opts, "choice",
                 branches=[dump_effects(b) for b in e.options], ctx=dict(ctx))

    def on_choice(self, option: str, prompt: Prompt) -> None:
        if option == "no":
            return
        ctx = dict(prompt.data["ctx"])
        ctx.pop("cid", None)
        self.later(Step(op="effects", args={"effs": prompt.data["branches"][int(option)],
                                            "i": 0, "ctx": ctx}))

    def eff_custom(self, e: Any, ctx: dict[str, Any]) -> None:
        self.emit(f"(custom effect {e.name} has no handler)", "info")

    def effects_text(self, effects: Any) -> str:
        """A short description of an effect list, for choice labels."""
        return ", then ".join(self.effect_text(e) for e in effects)

    def effect_text(self, e: Any) -> str:
        op = e.op
        n = getattr(e, "n", 1)
        many = f"{n} " if isinstance(n, int) and n != 1 else ""
        cards = getattr(e, "cards", "any")
        kind = {"any": "card", "action": "action card", "clue": "clue card"}.get(cards, "card")
        texts = {
            "bond": "accept the bond",
            "discard": f"discard {n} {kind}{'s' if n != 1 else ''}",
            "suffer_fear": f"suffer {n} fear",
            "cure_fear": f"cure {n} fear",
            "draw_clue": f"draw {many}clue card{'s' if n != 1 else ''}",
            "draw_item": f"draw {many}item card{'s' if n != 1 else ''}",
            "draw_action": f"draw {many}action card{'s' if n != 1 else ''}",
            "smother_candle": "smother the candle",
            "relight_candle": "relight the candle",
            "trash_fear_card": f"trash {many}fear card{'s' if n != 1 else ''}",
            "move": f"move {getattr(e, 'points', 1)}",
            "investigate": "investigate",
            "increase_presence": f"increase a die by {n}",
            "reduce_presence": f"reduce a die by {n}",
            "move_die": "move a die",
            "door": "change a door",
            "adjust_track": f"{'increase' if getattr(e, 'delta', 0) > 0 else 'reduce'} "
                            f"{getattr(e, 'marker', '')}",
        }
        return texts.get(op, op.replace("_", " "))

    # ------------------------------------------------------------------ reactions
    ROOM_EVENTS = frozenset({"die_enters_room", "pawn_enters_room", "door_closed"})
    GLOBAL_EVENTS = frozenset({"start_of_spirit_turn", "track_reduced", "game_start"})

    def fire(self, event: str, visitor: str | None = None, room: str | None = None,
             rooms: list[str] | None = None, die: int | None = None, by: str = "any",
             exclude: str | None = None) -> None:
        """P-VIS-12: queue every live reaction (fear cards, items, characters, drains);
        P-TIME-05: the active player orders those that trigger together."""
        st = self.st
        where = set(rooms or ([room] if room else []))
        groups: list[tuple[str, list[Step]]] = []  # (public label, steps) per triggered effect
        for v in st.visitors.values():
            if v.succumbed:
                continue
            if event in self.ROOM_EVENTS:
                if v.room not in where:
                    continue
            elif event not in self.GLOBAL_EVENTS and v.seat != visitor:
                continue
            sources: list[tuple[str, Any]] = []
            sources += [(c, self.pack.fear_card(c).reaction) for c in v.fear_cards
                        if c != exclude]  # G-07: never on its own draw
            for it in v.items:
                r = self.pack.item_of(it).reaction
                if r is not None:
                    sources.append((it, r))
            sources += [(f"char:{k}", r) for k, r in
                        enumerate(self.pack.visitor(v.character).reactions)]
            for src, r in sources:
                if r.trigger.event != event:
                    continue
                if r.trigger.by == "spirit" and by != "spirit":
                    continue
                if r.trigger.by == "other" and by == v.seat:
                    continue
                if r.trigger.floor is not None and (
                        room is None or self.pack.room(room).floor != r.trigger.floor):
                    continue
                if v.knocked_out and not any(e.op == "prevent" for e in r.effects):
                    continue  # P-KO-03: no reactions while knocked out
                ctx = self.visitor_ctx(v.seat, f"reaction {src}", trigger_visitor=visitor,
                                       trigger_die=die)
                if src in v.fear_cards:
                    ctx["fear_card"] = src
                if not all(self.cond(c, ctx) for c in r.trigger.only_if):
                    continue
                key = f"{v.seat}:{src}"
                if r.once_per_turn:
                    if key in st.once_used:
                        continue
                    st.once_used.append(key)
                label = f"{self.name(v.seat)}: " + (self.card_name(src) if ":" not in src
                                                     else "character ability")
                if r.optional:  # A-22
                    groups.append((label, [Step(op="offer_reaction", args={
                        "seat": v.seat, "effs": dump_effects(r.effects), "ctx": ctx,
                        "name": self.card_name(src) if ":" not in src else "your ability"})]))
                    continue
                group = [self.effects_step(r.effects, ctx)]
                if r.discard_this and src in v.items:
                    group.append(Step(op="discard_item", args={"seat": v.seat, "item": src}))
                groups.append((label, group))
        for dr in st.drains:
            power = self.power(dr.card, dr.power)
            for r in power.ongoing:
                if r.trigger.event != event:
                    continue
                if event not in self.GLOBAL_EVENTS:
                    vroom = self.vis(visitor).room if visitor else None
                    if dr.room not in where and vroom != dr.room:
                        continue
                ctx = self.spirit_ctx(None, dr.room, f"drain {dr.card}",
                                      trigger_visitor=visitor, trigger_die=die)
                if all(self.cond(c, ctx) for c in r.trigger.only_if):
                    groups.append((f"{self.card_name(dr.card)} (drain in the "
                                   f"{self.room_name(dr.room)})",
                                   [self.effects_step(r.effects, ctx)]))
        if len(groups) == 1:  # the common case: nothing to order, no prompt
            self.later(*groups[0][1])
        elif groups:
            self.later(Step(op="order_triggers", args={
                "labels": [lab for lab, _ in groups],
                "groups": [[s.model_dump() for s in g] for _, g in groups]}))

    def step_order_triggers(self, labels: list[str], groups: list[list[dict[str, Any]]]) -> None:
        """P-TIME-05 / PR-11 / PR-26: effects that trigger together resolve one at a time in
        the order the active player picks (the spirit on its turn and in upkeep, A-60); the
        first visitor at game start (P-SETUP-31). The choice is asked again after each one
        resolves, until a single effect is left."""
        if len(groups) == 1:
            self.later(*[Step.model_validate(s) for s in groups[0]])
            return
        st = self.st
        chooser = st.active or (st.visitor_seats[0] if st.visitor_seats else st.spirit_seat)
        chooser = st.controller.get(chooser, chooser)  # P-2P: the player of that character
        self.ask("choice", chooser,
                 "Several effects trigger at the same time: which resolves first? (P-TIME-05)",
                 [(str(i), lab) for i, lab in enumerate(labels)], "order_triggers",
                 labels=labels, groups=groups)

    def on_order_triggers(self, option: str, prompt: Prompt) -> None:
        i = int(option)
        labels = list(prompt.data["labels"])
        groups = list(prompt.data["groups"])
        first = groups.pop(i)
        labels.pop(i)
        self.later(*[Step.model_validate(s) for s in first],
                   Step(op="order_triggers", args={"labels": labels, "groups": groups}))

    def step_offer_reaction(self, seat: str, effs: list[dict[str, Any]], ctx: dict[str, Any],
                            name: str) -> None:
        """PR-11: an optional reaction asks its owner."""
        v = self.vis(seat)
        if v.knocked_out or v.succumbed:
            return
        self.ask("choice", seat, f"Use the reaction of {name}?",
                 [("yes", "Use it"), ("no", "Do not use it")], "offer_reaction",
                 effs=effs, ctx=ctx)

    def on_offer_reaction(self, option: str, prompt: Prompt) -> None:
        if option == "yes":
            self.later(Step(op="effects", args={"effs": prompt.data["effs"], "i": 0,
                                                "ctx": dict(prompt.data["ctx"])}))

    def step_discard_item(self, seat: str, item: str) -> None:
        v = self.vis(seat)
        if item in v.items:
            v.items.remove(item)
            self.st.cellar.append(item)
            self.emit(f"{self.name(seat)} discards {self.card_name(item)} to the Cellar.",
                      "item")

    def power(self, card: str, which: str) -> C.SpiritPower:
        sc = self.pack.spirit_card(card)
        return sc.top if which == "top" else sc.bottom

    # ------------------------------------------------------------------ who acts
    def to_act(self) -> set[str]:
        st = self.st
        if self.over():
            return set()
        if st.prompts:
            return set(st.prompts[-1].seats)
        if st.active:
            return {st.active}
        return set()

    def resting(self) -> bool:
        return not self.over() and not self.st.prompts and not self.st.queue

    # ------------------------------------------------------------------ ties (P-VIS-11)
    def window_waits(self) -> bool:
        """Declared quick actions wait on the active player's answer (the quick window)."""
        st = self.st
        return bool(st.declared) and not st.queue and len(st.prompts) == 1 \
            and st.prompts[0].data.get("then") == "quick_window" and not self.over()

    def priority(self) -> list[str]:
        """A-18: the active player, then the others counter-clockwise (to their right)."""
        seats = self.st.seats
        first = self.st.controller.get(self.st.active or "", self.st.active)
        i = seats.index(first) if first in seats else 0
        return [seats[(i - k) % len(seats)] for k in range(len(seats))]

    def tie_holder(self, seat: str) -> str | None:
        """Who a tie over `seat`'s quick action goes to (P-TIME-06, A-18): the first seat in
        priority order, ahead of `seat`, that has a quick action of its own to take first.
        None when nobody has: then nobody is asked, and the quick action resolves at once
        (a seat whose only answer would be "pass" is never asked — the spirit has no quick
        actions, A-18)."""
        for other in self.priority():
            if other == seat:
                return None
            if other in self.st.visitors and self.quick_actions(other):
                return other
        return None

    def declare_quick(self, seat: str, action: Action) -> bool:
        """P-VIS-11 / P-TIME-06: a quick action of a visitor who is not the active player is
        declared, not resolved, when a seat with precedence (the active player, then
        counter-clockwise, A-18) could take a quick action first: that seat first takes one
        or passes; then the declared ones resolve in priority order. So the order in which
        answers reach the bot never decides who goes first. Resolves at once (False) when no
        seat ahead of it has a quick action to take; a two-player game has one visitor
        player, so no tie between players."""
        st = self.st
        active = st.active
        if st.controller or active is None or seat == active:
            return False
        holder = None
        if not st.declared:
            holder = self.tie_holder(seat)
            if holder is None:
                return False
        st.declared.append(Step(op="declared_quick",
                                args={"seat": seat, "action": action.model_dump()}))
        if holder is not None:
            # the card stays hidden in hand until it resolves (H-17): only the declaration
            # shows
            self.emit(f"{self.name(seat)} declares a quick action; {self.name(holder)} acts "
                      "first or passes (P-VIS-11).", "action")
            mine = self.quick_actions(holder)
            self.ask("choice", holder,
                     "Quick actions were declared. Ties go to you: take a quick action "
                     "first, or pass and let them resolve (P-TIME-06).",
                     [("pass", "Pass: let the declared quick actions resolve")]
                     + [(f"q{i}", f"First: {self.label(holder, a)}")
                        for i, a in enumerate(mine)],
                     "quick_window", private=True,
                     actions=[a.model_dump() for a in mine])
        else:
            waiting = st.prompts[-1].seats[0] if st.prompts else active
            self.emit(f"{self.name(seat)} declares a quick action; {self.name(waiting)} acts "
                      "first or passes (P-VIS-11).", "action")
        return True

    def on_quick_window(self, option: str, prompt: Prompt) -> None:
        st = self.st
        order = self.priority()
        declared = sorted(st.declared, key=lambda d: order.index(
            st.controller.get(str(d.args["seat"]), str(d.args["seat"]))))
        st.declared = []
        self.later(*declared)
        if option != "pass":
            action = Action.model_validate(prompt.data["actions"][int(option[1:])])
            # the tie holder's quick action: its steps run before the declared ones
            self.do_visitor(prompt.seats[0], action)

    def step_declared_quick(self, seat: str, action: dict[str, Any]) -> None:
        a = Action.model_validate(action)
        if a not in self.quick_actions(seat, anytime=True):
            self.emit(f"{self.name(seat)}'s declared quick action is no longer possible.",
                      "action")
            return
        self.do_visitor(seat, a)

    def quick_actions(self, seat: str, anytime: bool = False) -> list[Action]:
        """P-VIS-10: quick actions of a visitor while the game rests, or while declared quick
        actions wait for the active player (P-VIS-11: one declaration per visitor).
        `anytime`: when a declared one comes to resolve, is it still possible?"""
        st = self.st
        v = st.visitors.get(seat)
        if v is None or v.knocked_out or v.succumbed:
            return []
        if not anytime and not self.resting() and not (
                self.window_waits() and seat not in st.prompts[-1].seats
                and all(d.args["seat"] != seat for d in st.declared)):
            return []
        if v.quick_used >= self.pack.options.quick_action_cap:
            return []
        out: list[Action] = []
        if v.candle_lit:
            out.append(Action(kind=K.SMOTHER))
        partners = [o.seat for o in self.active_visitors() if o.room == v.room
                    and o.seat != seat]
        if partners and (v.items or any(not self.is_action_card(c) for c in v.hand)):
            out += [Action(kind=K.TRADE, params={"to": p}) for p in partners]
        for o in st.visitors.values():
            if o.succumbed and o.room == v.room:
                out += [Action(kind=K.PICK_UP, params={"from": o.seat, "item": it})
                        for it in o.items]
        out += [a for a in self.card_actions(seat) if a.params.get("speed") == "quick"]
        return out

    def card_actions(self, seat: str) -> list[Action]:
        """Card, item, room and ability actions the visitor may start now."""
        v = self.vis(seat)
        out: list[Action] = []
        other = self.partner(seat)
        # P-2P-04: own-colour action cards, and clue cards held by either character
        shared = [c for c in self.vis(other).hand if not self.is_action_card(c)] \
            if other is not None and other in self.st.visitors else []
        for c in dict.fromkeys(v.hand + shared):
            card: Any = (self.pack.action_card(c) if self.is_action_card(c)
                         else self.pack.clue_card(c))
            for k, a in enumerate(card.actions):
                if self.action_ok(seat, a):
                    out.append(Action(kind=K.PLAY, params={"card": c, "side": k,
                                                           "speed": a.speed}))
        for it in v.items:
            a = self.pack.item_of(it).action
            if a is not None and self.action_ok(seat, a):
                out.append(Action(kind=K.USE_ITEM, params={"item": it, "speed": a.speed}))
        side = self.side_of(v.room)
        for k, a in enumerate(self.pack.room(v.room).actions(side)):
            key = f"room:{v.room}:{k}"
            if key not in v.room_actions_used and self.action_ok(seat, a):
                out.append(Action(kind=K.ROOM_ACTION, params={"index": k, "speed": a.speed}))
        for k, a in enumerate(self.pack.visitor(v.character).abilities):
            key = f"ability:{k}"
            if not (a.once_per_turn and key in v.room_actions_used) and self.action_ok(seat, a):
                out.append(Action(kind=K.ABILITY, params={"index": k, "speed": a.speed}))
        return out

    def action_ok(self, seat: str, a: Any) -> bool:
        st = self.st
        ctx = self.visitor_ctx(seat, a.name)
        if not all(self.cond(c, ctx) for c in a.requires):
            return False
        if a.speed == "main" and self.granted == seat:  # P-VIS-03: granted by an effect
            return True
        if a.speed == "main":
            return st.phase == "visitor" and st.active == seat and st.actions_left > 0 \
                and not st.must_rest
        return True

    def visitor_main(self, seat: str) -> list[Action]:
        st = self.st
        if not (st.phase == "visitor" and st.active == seat and self.resting()):
            return []
        out: list[Action] = []
        if st.actions_left > 0:
            out.append(Action(kind=K.REST))
            if not st.must_rest:
                out.append(Action(kind=K.WALK))
                out += [a for a in self.card_actions(seat) if a.params.get("speed") == "main"]
                ch = self.pack.manor.chamber
                # P-CHAMBER-05 / A-33: from any room, until the passage is found (public)
                if ch is not None and st.chamber is not None \
                        and st.chamber.passage_room is None and self.action_ok(seat, ch.uncover):
                    out.append(Action(kind=K.UNCOVER))
        out += self.quick_actions(seat)
        out = list(dict.fromkeys(out))
        out.append(Action(kind=K.END_TURN))
        return out

    def spirit_actions(self) -> list[Action]:
        st = self.st
        if not (st.phase == "spirit" and self.resting()):
            return []
        out: list[Action] = []
        if st.spirit_actions < SPIRIT_ACTION_CAP:
            for d in st.dice:
                if d.room is not None and not d.moved and not d.fresh:
                    out += [Action(kind=K.MOVE_DIE, params={"die": d.id, "to": r})
                            for r in self.die_neighbours(d.room)]
            can_increase = bool(self.increase_options())
            for c in dict.fromkeys(st.spirit.hand):
                if can_increase:
                    out.append(Action(kind=K.INCREASE, params={"card": c}))
                if self.playable_dice(c):
                    out.append(Action(kind=K.PLAY_SPIRIT, params={"card": c}))
            room = st.spirit.pawn_room
            if room is not None and st.spirit.pawn_actions > 0:
                best = max((self.die(d).value for d in self.dice_in(room)), default=0)
                out += [Action(kind=K.PAWN, params={"action": a.id})
                        for a in self.pack.manifestation.actions if a.cost <= best]
        out += [Action(kind=K.WHISPER, params={"line": i}) for i, _ in self.whisper_lines()]
        out.append(Action(kind=K.END_SPIRIT))
        return out

    def increase_options(self) -> list[tuple[str, str]]:
        """PR-16 / P-SPIRIT-09 / A-16."""
        st = self.st
        cap = self.pack.options.max_presence
        opts: list[tuple[str, str]] = []
        for d in st.dice:
            if d.room is not None and self.dark(d.room) and d.value < cap:
                opts.append((f"up:{d.id}", f"+1 on {self.die_label(d.id)}"))
        dark = [r for r in st.rooms if self.dark(r) and not self.sealed(r)]
        if self.supply() and dark:
            opts += [(f"add:{r}", f"Add a die (1) to the {self.room_name(r)}")
                     for r in dark]
        if dark:  # A-16: relocating is allowed even with dice in the supply
            opts += [(f"reloc:{d.id}", f"Relocate {self.die_label(d.id)} (reset to 1)")
                     for d in st.dice if d.room is not None]
        return opts

    def playable_dice(self, card: str) -> list[int]:
        sc = self.pack.spirit_card(card)
        need = min(self.power_need(sc.top), self.power_need(sc.bottom))
        return [d.id for d in self.st.dice if d.room is not None and d.value >= need]

    def power_need(self, p: C.SpiritPower) -> int:
        if p.manifestation and self.st.spirit.pawn_room is not None:
            return 99  # A-37
        # A-36; manifestation drains through the pawn, not a drain marker (P-MANI-02)
        if p.drain and not p.manifestation \
                and len(self.st.drains) >= self.pack.options.drain_markers:
            return 99
        return max(p.requirement, p.spend)

    def legal(self, seat: str) -> list[Action]:
        st = self.st
        if self.over():
            return []
        if st.prompts:
            top = st.prompts[-1]
            if seat not in top.seats:  # others may still declare a quick action (P-VIS-11)
                return self.quick_actions(seat) if self.window_waits() else []
            return [K.choose(o[0]) for o in top.data["options"]]
        if seat == st.spirit_seat:
            return self.spirit_actions()
        if st.phase == "visitor" and st.active == seat:
            return self.visitor_main(seat)
        return self.quick_actions(seat)

    # ------------------------------------------------------------------ applying
    def apply(self, seat: str, action: Action) -> list[Event]:
        if action.kind == K.SPEAK:  # free words, so never among the listed legal actions
            return self.speak(seat, str(action.p("words") or ""))
        legal = self.legal(seat)
        if action not in legal:
            raise IllegalAction(self.why_not(seat, action), rule=self.rule_of(action, seat))
        st = self.st
        if action.kind == K.CHOOSE:
            prompt = st.prompts.pop()
            handler: Callable[[str, Prompt], None] = getattr(self, "on_" + prompt.data["then"])
            handler(str(action.p("option")), prompt)
        elif seat == st.spirit_seat:
            self.do_spirit(action)
        elif not self.declare_quick(seat, action):
            self.do_visitor(seat, action)
        self.run()
        self.settle()
        return self.events

    def why_not(self, seat: str, action: Action) -> str:
        st = self.st
        if st.prompts and seat in st.prompts[-1].seats:
            return "That is not one of the choices: " + st.prompts[-1].text
        if action.kind in (K.REST, K.WALK) and st.must_rest:
            return "You are knocked out: your first action must be Rest (P-KO-06)."
        v = st.visitors.get(seat)
        if v is not None and v.quick_used >= self.pack.options.quick_action_cap:
            return (f"You have taken {v.quick_used} quick actions since the last action, the "
                    "most the game allows (A-48): wait for the next action.")
        if seat == st.spirit_seat and st.phase == "spirit" \
                and st.spirit_actions >= SPIRIT_ACTION_CAP:
            return (f"The spirit has taken {SPIRIT_ACTION_CAP} actions this turn, the most the "
                    "game allows (A-48): end the turn.")
        if action.kind == K.TRADE:
            return "You can only trade with a nearby visitor who is not knocked out."
        return "That action is not allowed right now."

    def rule_of(self, action: Action, seat: str | None = None) -> str:
        v = self.st.visitors.get(seat) if seat is not None else None
        if v is not None and not self.st.prompts:
            if v.succumbed:
                return "P-SUCC-03"  # no further action
            if v.knocked_out:  # Rest first on the own turn (P-KO-06), nothing else off-turn
                return "P-KO-06" if self.st.active == seat else "P-KO-03"
        return {K.REST: "P-KO-06", K.TRADE: "P-BASIC-04", K.MOVE_DIE: "P-SPIRIT-07",
                K.INCREASE: "P-SPIRIT-09", K.PLAY_SPIRIT: "P-SPIRIT-11",
                K.PLAY: "P-VIS-06"}.get(action.kind, "P-VIS-05")

    def settle(self) -> None:
        """Safety net after resolution: a turn never rests on a succumbed visitor (P-ROUND-06).
        A visitor whose main actions are spent still ends the turn themselves (P-VIS-14),
        since quick actions stay available."""
        st = self.st
        if not self.over() and not st.prompts and not st.queue and st.phase == "visitor" \
                and st.active in st.visitors and self.vis(st.active).succumbed:
            other = self.partner(st.active)
            if other is not None and self.can_switch(other):  # P-2P-05: the other acts on
                st.active = other
                st.must_rest = False
                return
            self.end_visitor_turn()
            self.run()

    def do_visitor(self, seat: str, action: Action) -> None:
        v = self.vis(seat)
        k = action.kind
        if k == K.END_TURN:
            self.emit(f"{self.name(seat)} ends their turn.", "turn")
            self.end_visitor_turn()
            return
        if k == K.REST:
            self.use_main()
            self.rest(seat)
            return
        if k == K.WALK:
            self.use_main()
            self.emit(f"{self.name(seat)} walks.", "action")
            points = self.pack.visitor(v.character).walk_points
            self.later(Step(op="movement", args={"seat": seat, "points": points}))
            return
        if k == K.SMOTHER:
            self.count_quick(seat)
            self.smother(seat, seat)
            return
        if k == K.TRADE:
            self.count_quick(seat)
            self.later(Step(op="trade_pick", args={"seat": seat, "to": action.p("to"),
                                                   "given": []}))
            return
        if k == K.PICK_UP:
            self.count_quick(seat)
            o = self.vis(str(action.p("from")))
            item = str(action.p("item"))
            o.items.remove(item)
            self.emit(f"{self.name(seat)} picks up {self.card_name(item)} from "
                      f"{self.name(o.seat)}.", "item")
            self.gain_item(seat, item)
            return
        # a card, item, room or ability action
        a, source, after = self.resolve_action(seat, action)
        if a.speed == "main":
            self.use_main()
        else:
            self.count_quick(seat)
        ctx = self.visitor_ctx(seat, a.name)
        if k == K.PLAY and not self.is_action_card(source):
            ctx["card_room"] = self.pack.clue_card(source).room
        effects = list(a.effects)
        if a.dark is not None and self.dark(v.room):  # P-VIS-09 / A-44
            effects = list(a.dark.effects) if a.dark.mode == "replace" \
                else effects + list(a.dark.effects)
        if k == K.PLAY and self.st.mystery and not self.is_action_card(source):
            # A-64: in Mystery Mode a clue card is played face down: the table sees the
            # action, never the trauma or room, so its face-down discard stays unknown (the
            # spirit inspects it once it lies beneath a secret, P-MYST-02; H-18 till then)
            self.emit(f"{self.name(seat)} uses a clue card (face down, Mystery Mode): "
                      f"{a.name}.", "action")
        else:
            self.emit(f"{self.name(seat)} uses {self.action_title(action)}: {a.name}.",
                      "action")
        self.later(self.effects_step(effects, ctx), *after)

    def count_quick(self, seat: str) -> None:
        """A-48: the technical cap on quick actions per character between two actions. A
        real game does not reach it (it takes trading cards back and forth); if one does, the
        player is told rather than finding the buttons gone."""
        v = self.vis(seat)
        v.quick_used += 1
        cap = self.pack.options.quick_action_cap
        if v.quick_used == cap:
            self.emit(f"{self.name(seat)} has taken {cap} quick actions since the last action, "
                      "the most the game allows (A-48): no more until the next action.",
                      "limit", [self.st.controller.get(seat, seat)])

    def action_title(self, action: Action) -> str:
        if action.kind == K.PLAY:
            return self.card_name(str(action.p("card")))
        if action.kind == K.USE_ITEM:
            return self.card_name(str(action.p("item")))
        if action.kind == K.ROOM_ACTION:
            return "the room action"
        if action.kind == K.UNCOVER:
            return "the Secret Chamber"
        return "an ability"

    def resolve_action(self, seat: str, action: Action) -> tuple[Any, str, list[Step]]:
        v = self.vis(seat)
        k = action.kind
        if k == K.UNCOVER:
            return self._peek_action(v, action)
        if k == K.PLAY:
            card = str(action.p("card"))
            side = int(action.p("side"))
            defn: Any = (self.pack.action_card(card) if self.is_action_card(card)
                         else self.pack.clue_card(card))
            self.vis(self.holder_of(seat, card)).hand.remove(card)  # P-2P-04
            v.hand.append(card)  # keep it in hand while it resolves (P-VIS-06)
            return defn.actions[side], card, [Step(op="after_card",
                                                   args={"seat": seat, "card": card})]
        if k == K.USE_ITEM:
            item = str(action.p("item"))
            a = self.pack.item_of(item).action
            assert a is not None
            return a, item, [Step(op="discard_item", args={"seat": seat, "item": item})]
        if k == K.ROOM_ACTION:
            idx = int(action.p("index"))
            v.room_actions_used.append(f"room:{v.room}:{idx}")
            return self.pack.room(v.room).actions(self.side_of(v.room))[idx], v.room, []
        idx = int(action.p("index"))
        v.room_actions_used.append(f"ability:{idx}")
        return self.pack.visitor(v.character).abilities[idx], v.character, []

    def step_after_card(self, seat: str, card: str) -> None:
        """P-VIS-06/07: discard the played card (a clue card beneath a secret, PR-03)."""
        v = self.vis(seat)
        if card not in v.hand:
            return
        if self.is_action_card(card):
            v.hand.remove(card)
            self.to_action_discard(seat, card)  # the shared discard in P-2P
        else:
            self.later(Step(op="discard_clue", args={"seat": seat, "card": card}))

    def use_main(self) -> None:
        st = self.st
        if self.granted is not None:  # P-VIS-03: paid by the effect's grant, inside it
            return
        st.actions_left -= 1
        for o in st.visitors.values():
            o.quick_used = 0

    def rest(self, seat: str) -> None:
        """P-BASIC-01/02, A-20: discard any cards, draw action cards up to 5; rise if KO."""
        st = self.st
        v = self.vis(seat)
        if v.knocked_out:
            v.knocked_out = False
            st.must_rest = False
            self.emit(f"{self.name(seat)} rises (P-KO-06).", "rest")
            self.cure_fear(seat, 1)
        self.emit(f"{self.name(seat)} rests.", "rest")
        self.fire("rest", visitor=seat)
        other = self.partner(seat)
        after = ([Step(op="two_player_rest", args={"seat": other})]
                 if other is not None and self.vis(other).knocked_out else [])  # A-02
        self.later(Step(op="rest_discard", args={"seat": seat}), *after)

    def step_rest_discard(self, seat: str) -> None:
        hand = self.player_hand(seat)  # P-2P-03: the whole hand of the visitor player
        if not hand:
            self.later(Step(op="rest_draw", args={"seat": seat}))
            return
        opts = [(c, f"Discard {self.card_name(c)}") for c in hand]
        opts.append(("done", "Keep the rest and draw"))
        self.ask("rest_discard", seat, "Rest: discard any cards, then draw up to "
                 f"{self.hand_size()}.", opts, "rest_discard", private=True,
                 seat=seat)

    def on_rest_discard(self, option: str, prompt: Prompt) -> None:
        seat = str(prompt.data["seat"])
        if option == "done":
            self.later(Step(op="rest_draw", args={"seat": seat}))
            return
        # `later` pushes to the front: queue the re-ask first so a clue card's
        # "beneath which secret?" prompt (PR-03) is answered before it.
        self.later(Step(op="rest_continue", args={"seat": seat}))
        self.discard_card(seat, option)

    def step_rest_continue(self, seat: str) -> None:
        self.later(Step(op="rest_discard", args={"seat": seat}))

    def step_rest_draw(self, seat: str) -> None:
        need = self.hand_size() - len(self.player_hand(seat))
        got = self.draw_actions(seat, need) if need > 0 else 0
        self.emit(f"{self.name(seat)} draws {got} action card(s).", "rest")

    # ---- trade (PR-12)
    def step_trade_pick(self, seat: str, to: str, given: list[str]) -> None:
        v = self.vis(seat)
        opts = [(c, f"Give {self.card_name(c)}") for c in v.hand
                if not self.is_action_card(c)]
        opts += [(i, f"Give {self.card_name(i)}") for i in v.items]
        if given:
            opts.append(("offer", f"Offer {len(given)} card(s) to {self.name(to)}"))
        opts.append(("cancel", "Call off the trade"))
        self.ask("trade_pick", seat, f"Trade with {self.name(to)}: pick cards to give.", opts,
                 "trade_pick", private=True, seat=seat, receiver=to, given=given)

    def on_trade_pick(self, option: str, prompt: Prompt) -> None:
        seat = str(prompt.data["seat"])
        to = str(prompt.data["receiver"])
        given = list(prompt.data["given"])
        if option == "cancel":
            return
        if option == "offer":
            self.offer_trade(seat, to, given)
            return
        given.append(option)
        v = self.vis(seat)
        left = [c for c in v.hand if not self.is_action_card(c) and c not in given]
        left += [i for i in v.items if i not in given]
        if left:
            self.later(Step(op="trade_pick", args={"seat": seat, "to": to, "given": given}))
        else:
            self.offer_trade(seat, to, given)

    def offer_trade(self, seat: str, to: str, given: list[str]) -> None:
        """PR-12: the receiver sees what is offered (privately) and accepts or refuses."""
        names = ", ".join(self.card_name(c) for c in given)
        self.ask("trade_accept", to, f"{self.name(seat)} offers you: {names}.",
                 [("yes", "Accept the cards"), ("no", "Refuse")], "trade_accept",
                 private=True, seat=seat, receiver=to, given=given)

    def on_trade_accept(self, option: str, prompt: Prompt) -> None:
        seat = str(prompt.data["seat"])
        to = str(prompt.data["receiver"])
        if option != "yes":
            self.emit(f"{self.name(to)} refuses the trade.", "trade")
            return
        giver, taker = self.vis(seat), self.vis(to)
        for c in prompt.data["given"]:
            if c in giver.items:
                giver.items.remove(c)
                taker.items.append(c)
            elif c in giver.hand:
                giver.hand.remove(c)
                taker.hand.append(c)
        self.emit(f"{self.name(seat)} gives {len(prompt.data['given'])} card(s) to "
                  f"{self.name(to)}.", "trade")
        self.later(Step(op="item_limit", args={"seat": to}))

    # ---- the spirit turn
    def do_spirit(self, action: Action) -> None:
        st = self.st
        k = action.kind
        if k == K.END_SPIRIT:
            self.end_spirit_turn()
            return
        if k == K.WHISPER:  # P-HORROR-02: a fixed line, not an action of the turn
            st.whispered = True
            text = dict(self.pack.presets.horror_lines_by_id())[str(action.p("line"))]
            self.emit(f"The spirit whispers: “{text}”", "speak")
            return
        st.spirit_actions += 1
        if st.spirit_actions == SPIRIT_ACTION_CAP:  # A-48: told, never silent
            self.emit(f"That was the spirit's {SPIRIT_ACTION_CAP}th action this turn, the most "
                      "the game allows (A-48): end the turn when it has resolved.", "limit",
                      [st.spirit_seat])
        for o in st.visitors.values():
            o.quick_used = 0
        if k == K.MOVE_DIE:
            d = self.die(int(action.p("die")))
            d.moved = True
            self.die_enters(d.id, str(action.p("to")), penalty=True)
            return
        if k == K.INCREASE:
            card = str(action.p("card"))
            self.ask("increase", st.spirit_seat, "Increase Presence: choose how.",
                     self.increase_options(), "increase", card=card)
            return
        if k == K.PLAY_SPIRIT:
            card = str(action.p("card"))
            self.ask("power", st.spirit_seat,
                     f"Declare a presence die for {self.card_name(card)}.",
                     [(str(d), f"Use {self.die_label(d)}") for d in self.playable_dice(card)],
                     "declare_die", card=card)
            return
        if k == K.PAWN:
            ma = self.pack.manifest_action(str(action.p("action")))
            room = st.spirit.pawn_room
            assert room is not None
            st.spirit.pawn_actions -= 1
            payers = [d for d in self.dice_in(room) if self.die(d).value >= ma.cost]
            if ma.cost and len(payers) > 1:  # P-MANI-04: paid from a nearby die first
                self.ask("target", st.spirit_seat, f"{ma.name}: pay {ma.cost} presence from "
                         "which die?", [(str(d), self.die_label(d)) for d in payers],
                         "pawn_pay", action=ma.id)
                return
            self.pawn_act(ma.id, payers[0] if payers else None)

    def on_pawn_pay(self, option: str, prompt: Prompt) -> None:
        self.pawn_act(str(prompt.data["action"]), int(option))

    def pawn_act(self, action_id: str, payer: int | None) -> None:
        ma = self.pack.manifest_action(action_id)
        room = self.st.spirit.pawn_room
        if ma.cost and payer is not None:
            self.set_die(payer, self.die(payer).value - ma.cost)
        self.emit(f"The spirit pawn acts: {ma.name}.", "manifest")
        ctx = self.spirit_ctx(payer, room, ma.name, pawn=True)
        self.later(self.effects_step(ma.effects, ctx), Step(op="targeted"))

    def on_increase(self, option: str, prompt: Prompt) -> None:
        """P-SPIRIT-09: the card is discarded face down (H-06)."""
        st = self.st
        card = str(prompt.data["card"])
        st.spirit.hand.remove(card)
        st.spirit.discard.append(card)
        self.emit(f"You discarded {self.card_name(card)} to increase presence.", "private",
                  [st.spirit_seat])
        what, arg = option.split(":", 1)
        if what == "up":
            d = int(arg)
            self.set_die(d, self.die(d).value + 1)
            self.emit(f"The spirit discards a card: {self.die_label(d)}.", "die")
        elif what == "add":
            die = self.supply()[0]
            self.place_die(die, arg, 1)
            self.emit(f"The spirit discards a card and adds a presence die (1) to the "
                      f"{self.room_name(arg)}.", "die")
            self.fire("die_enters_room", room=arg, die=die, by="spirit")
        else:
            dark = [r for r in st.rooms if self.dark(r) and not self.sealed(r)]
            self.ask("increase", st.spirit_seat, "Relocate the die to which dark room?",
                     [(f"{arg}:{r}", f"To the {self.room_name(r)}") for r in dark],
                     "relocate")

    def on_relocate(self, option: str, prompt: Prompt) -> None:
        die_s, room = option.split(":", 1)
        die = int(die_s)
        self.place_die(die, room, 1)
        self.emit(f"The spirit relocates a presence die to the {self.room_name(room)} "
                  "(reset to 1).", "die")
        self.fire("die_enters_room", room=room, die=die, by="spirit")

    def on_declare_die(self, option: str, prompt: Prompt) -> None:
        """P-SPIRIT-11: the card is shown to all; powers one at a time (A-17)."""
        st = self.st
        card = str(prompt.data["card"])
        st.spirit.hand.remove(card)
        st.spirit.playing = card
        die = int(option)
        self.emit(f"The spirit plays {self.card_name(card)} with {self.die_label(die)}.",
                  "spirit_card")
        self.later(Step(op="power_menu", args={"card": card, "die": die, "used": []}))

    def step_power_menu(self, card: str, die: int, used: list[str]) -> None:
        sc = self.pack.spirit_card(card)
        d = self.die(die)
        opts: list[tuple[str, str]] = []
        for which in ("top", "bottom"):
            p = self.power(card, which)
            if which not in used and d.room is not None and d.value >= self.power_need(p):
                cost = f"[{p.requirement}/{p.spend}{', drain ' + str(p.drain) if p.drain else ''}]"
                opts.append((which, f"{which.capitalize()} power {cost}: "
                             + (p.text or self.effects_text(p.effects))))
        if not opts:
            self.later(Step(op="card_done", args={"card": card, "used": used}))
            return
        opts.append(("done", "No more powers"))
        self.ask("power", self.st.spirit_seat, f"{sc.name}: which power?", opts, "power",
                 card=card, die=die, used=used)

    def on_power(self, option: str, prompt: Prompt) -> None:
        card = str(prompt.data["card"])
        die = int(prompt.data["die"])
        used = list(prompt.data["used"])
        if option == "done":
            self.later(Step(op="card_done", args={"card": card, "used": used}))
            return
        p = self.power(card, option)
        d = self.die(die)
        room = d.room
        self.set_die(die, d.value - p.spend)  # P-SPIRIT-12 (resolves even at 0)
        used.append(option)
        self.emit(f"The spirit uses the {option} power of {self.card_name(card)} "
                  f"(spends {p.spend}).", "spirit_card")
        next_step = Step(op="power_menu", args={"card": card, "die": die, "used": used})
        if p.hindered_by_light and room is not None and self.lit(room):
            self.emit("The power is hindered by light and does nothing (P-SPIRIT-18).",
                      "spirit_card")
            self.later(next_step)
            return
        ctx = self.spirit_ctx(die, room, self.card_name(card), card=card, power=option)
        steps = [self.effects_step(p.effects, ctx),
                 Step(op="power_done", args={"cid": 0, "card": card, "power": option,
                                             "room": room or ""})]
        self.later(*steps, next_step)

    def step_targeted(self) -> None:
        """G-07: `targeted_by_spirit` reactions fire after the power resolves."""
        seats, self.st.targeted = self.st.targeted, []
        for s in seats:
            self.fire("targeted_by_spirit", visitor=s, by="spirit")

    def step_power_done(self, cid: int, card: str, power: str, room: str) -> None:
        st = self.st
        self.later(Step(op="targeted"))
        p = self.power(card, power)
        if p.drain and not p.manifestation and room:
            st.drains.append(DrainState(card=card, power=power, room=room))
            self.emit(f"{self.card_name(card)} stays in play with a drain marker in the "
                      f"{self.room_name(room)} (P-DRAIN-01).", "drain")

    def step_card_done(self, card: str, used: list[str]) -> None:
        self.st.spirit.playing = None
        if not any(dr.card == card for dr in self.st.drains):
            self.st.spirit.discard.append(card)  # P-SPIRIT-16 / A-37

    # ------------------------------------------------------------------ labels
    def label(self, seat: str, action: Action) -> str:
        st = self.st
        k = action.kind
        p = action.params
        if k == K.CHOOSE and st.prompts:
            for oid, lab in st.prompts[-1].data["options"]:
                if oid == p.get("option"):
                    return str(lab)
        if k == K.REST:
            return (f"Rest: discard any, draw up to {self.hand_size()}"
                    + (" and rise" if st.must_rest else ""))
        if k == K.WALK:
            return "Walk (movement)"
        if k in (K.PLAY, K.USE_ITEM, K.ROOM_ACTION, K.ABILITY, K.UNCOVER):
            seat_v = self.vis(seat)
            try:
                a, _, _ = self._peek_action(seat_v, action)
            except (KeyError, IndexError, AssertionError):
                return k
            speed = " (quick)" if a.speed == "quick" else ""
            return f"{self.action_title(action)}: {a.name}{speed}"
        if k == K.TRADE:
            return f"Trade with {self.name(str(p.get('to')))} (quick)"
        if k == K.SMOTHER:
            return "Smother your candle (quick)"
        if k == K.PICK_UP:
            return f"Pick up {self.card_name(str(p.get('item')))} (quick)"
        if k == K.END_TURN:
            return "End your turn"
        if k == K.MOVE_DIE:
            return f"Move {self.die_label(int(str(p.get('die'))))} to the " \
                   f"{self.room_name(str(p.get('to')))}"
        if k == K.INCREASE:
            return f"Increase Presence by discarding {self.card_name(str(p.get('card')))}"
        if k == K.PLAY_SPIRIT:
            return f"Play {self.card_name(str(p.get('card')))}"
        if k == K.PAWN:
            ma = self.pack.manifest_action(str(p.get("action")))
            return f"Pawn: {ma.name} (cost {ma.cost})"
        if k == K.END_SPIRIT:
            return "End the spirit turn (draw up)"
        if k == K.WHISPER:
            return "Whisper: " + dict(self.pack.presets.horror_lines_by_id()).get(
                str(p.get("line")), str(p.get("line")))
        return k

    def _peek_action(self, v: VisitorState, action: Action) -> tuple[Any, str, list[Step]]:
        k = action.kind
        if k == K.UNCOVER:
            ch = self.pack.manor.chamber
            assert ch is not None
            return ch.uncover, "uncover", []
        if k == K.PLAY:
            card = str(action.p("card"))
            defn: Any = (self.pack.action_card(card) if self.is_action_card(card)
                         else self.pack.clue_card(card))
            return defn.actions[int(action.p("side"))], card, []
        if k == K.USE_ITEM:
            a = self.pack.item_of(str(action.p("item"))).action
            assert a is not None
            return a, "", []
        if k == K.ROOM_ACTION:
            return self.pack.room(v.room).actions(self.side_of(v.room))[
                int(action.p("index"))], "", []
        return self.pack.visitor(v.character).abilities[int(action.p("index"))], "", []

    # ------------------------------------------------------------------ setup prompts
    def on_choose_spirit(self, option: str, prompt: Prompt) -> None:
        self.st.spirit.character = option
        self.emit(f"The spirit player chooses {self.pack.spirit(option).name}.", "setup")
        self.ask_visitor(0)

    def ask_visitor(self, index: int) -> None:
        st = self.st
        if index >= len(st.visitor_seats):
            return
        seat = st.visitor_seats[index]
        taken = {v.character for v in st.visitors.values()}
        opts = [(c.id, f"{c.name}: {c.text}" if c.text else c.name)
                for c in self.pack.visitors if c.id not in taken]
        second = bool(st.controller) and st.controller[seat] != seat  # P-2P-01
        self.ask("setup", seat, "Choose your second visitor character (P-2P-01)." if second
                 else "Choose your visitor character (P-SETUP-15).", opts,
                 "choose_visitor", index=index)

    def on_choose_visitor(self, option: str, prompt: Prompt) -> None:
        st = self.st
        index = int(prompt.data["index"])
        seat = st.visitor_seats[index]
        st.visitors[seat] = VisitorState(
            seat=seat, character=option, room=self.pack.manor.start_room,
            deck=st.rng.shuffled(self.pack.action_deck(option)))  # P-SETUP-16/17
        if st.controller and st.controller[seat] != seat:
            # P-2P-01: the two characters' 20 action cards form one deck (the first slot's)
            pile = self.pile_holder(seat)
            pile.deck = st.rng.shuffled(pile.deck + st.visitors[seat].deck)
            st.visitors[seat].deck = []
        self.emit(f"{self.seat_label(seat)} joins the visitors.", "setup")
        self.ask_visitor(index + 1)

    def step_setup_rest(self, fear_preset: str) -> None:
        """Steps 4-12 once the characters are chosen."""
        st = self.st
        pack = self.pack
        rng = st.rng
        n = st.n
        v = n - 1
        spirit = st.spirit.character
        ut = st.unknown_threat
        # Step 4-5, 8: the spirit's four secret cards face down at random (P-SETUP-10, -19);
        # Unknown Threat: the four the spirit picked, one per trauma (P-UNK-04, A-47).
        secret_set = pack.presets.first_game.secret_set if st.first_game else spirit
        secrets = rng.shuffled(ut.secrets if ut else pack.spirit_secrets(secret_set))  # P-FIRST-06
        st.secrets = [SecretSlot(position=k + 1, card=c) for k, c in enumerate(secrets)]
        if ut:
            st.spirit_cards = list(ut.deck)  # P-UNK-03: the custom twelve
        st.spirit.deck = rng.shuffled(st.spirit_cards or pack.spirit_deck(spirit))  # P-SETUP-11
        st.dice = [DieState(id=k) for k in range(n)]  # P-SETUP-12
        # P-SETUP-13; Unknown Threat: the five chosen replace the spirit's own five (A-47)
        bag = (pack.spirit_clue_instances(pack.general_spirit_clues() + ut.clues) if ut
               else pack.spirit_clue_bag(spirit))
        st.spirit_clue_bag = rng.shuffled(bag)
        st.small_clue_pile = rng.shuffled(pack.small_clue_instances())  # P-SETUP-14
        # Step 7: the item deck (P-SETUP-18).
        special = pack.special_item_ids()
        randoms = pack.random_item_ids()
        extra = rng.sample(randoms, pack.options.item_deck[n] - len(special))  # type: ignore[index]
        st.item_deck = rng.shuffled(special + extra)
        st.item_box_count = len(randoms) - len(extra)
        # Step 9: the clue deck (P-SETUP-20..23).
        board = pack.secret_board(n)
        eligible = [c.id for c in pack.clue_cards_for(n)]
        removed: list[str] = []
        for slot, pos in zip(st.secrets, board.positions, strict=True):
            trauma = pack.secret(slot.card).trauma
            mine = [c for c in eligible if pack.clue_card(c).trauma == trauma]
            removed += rng.sample(mine, pos.remove)
        clues = [c for c in eligible if c not in removed]
        per = (pack.presets.first_game.fear_per_visitor if st.first_game  # P-FIRST-07
               else next(p for p in pack.presets.fear_presets if p.id == fear_preset).per_visitor)
        fear_ids = [f.id for f in pack.fear_cards]
        fears = rng.sample(fear_ids, min(len(fear_ids), per * v))
        st.clue_box = removed + [f for f in fear_ids if f not in fears]
        st.clue_deck = rng.shuffled(clues + fears)
        chamber = pack.manor.chamber
        if chamber is not None and chamber.room in st.rooms:
            # P-CHAMBER-01 / P-SETUP-24 (A-07, A-08): position 1's removed card is set aside
            # under the passage token; V cards from the shuffled deck go to the chamber (A-34).
            aside = removed[0]
            st.clue_box.remove(aside)
            st.chamber = ChamberState(aside=aside,
                                      cards=[st.clue_deck.pop() for _ in range(min(v, len(
                                          st.clue_deck)))])
        # Step 11: one spirit clue + one die per die, placed by the spirit (PR-15).
        for _ in range(n):
            if st.spirit_clue_bag:
                st.drawn_spirit_clues.append(st.spirit_clue_bag.pop())
        self.emit(f"The spirit is {pack.spirit(spirit).name}. The secret cards, the clue deck "
                 f"({len(st.clue_deck)} cards) and the item deck ({len(st.item_deck)} cards) are "
                 "ready.", "setup")
        self.later(Step(op="place_drawn_clue", args={"used": [], "setup": True}),
                  Step(op="setup_final"))


    def step_setup_final(self) -> None:
        """Step 11 small clues, step 12 hands, game-start abilities, round 1."""
        st = self.st
        pack = self.pack
        for room in pack.clue_rooms_in_play(st.n):
            if room in st.rooms and not st.tokens.get(room) and st.small_clue_pile:
                st.tokens[room] = [Token(kind="small", id=st.small_clue_pile.pop())]  # P-SETUP-27
        for _ in range(st.n):  # P-SETUP-28
            if st.spirit.deck:
                st.spirit.hand.append(st.spirit.deck.pop())
        for seat in st.visitor_seats:  # P-SETUP-29
            if st.controller and seat != st.controller[seat]:
                continue  # P-2P-03: the visitor player draws one hand of 7 from the shared deck
            self.draw_actions(seat, self.hand_size())
        # The spirit's deal reaches only the spirit, by DM (H-02, H-10); visitors are told their
        # hands as they draw them.
        secrets = "; ".join(f"position {s.position}: {pack.secret(s.card).name} "
                            f"({pack.secret(s.card).trauma})" for s in st.secrets)
        hand = ", ".join(self.card_name(c) for c in st.spirit.hand) or "none"
        self.emit(f"Your secret cards — {secrets}. Your spirit cards: {hand}.", "deal",
                 [st.spirit_seat])
        if st.chamber is not None:  # H-35, H-36: the spirit may look at these at any time
            self.emit(f"Secret Chamber — the passage card: {self.card_name(st.chamber.aside)}; "
                     "the cards in the chamber: "
                     + (", ".join(self.card_name(c) for c in st.chamber.cards) or "none") + ".",
                     "deal", [st.spirit_seat])
        st.active = st.visitor_seats[0]
        self.emit("Setup is complete. The visitors enter the Great Hall, candles lit.", "setup")
        self.fire("game_start")  # P-SETUP-31
        st.queue.append(Step(op="round_start"))

    # ------------------------------------------------------------------ Unknown Threat
    def ut_ask_script(self) -> None:
        """P-UNK-01 (PR-24): the visitors pick 2 hope, then 3 nerve scripts, one per prompt;
        any visitor may answer and each pick is public (H-09). Then the spirit draws one in
        secret as usual (P-UNK-05) and the visitors choose their characters."""
        st = self.st
        ut = st.unknown_threat
        assert ut is not None
        hope = sum(1 for s in ut.scripts if self.pack.script(s).type == "hope")
        kind = "hope" if hope < UT_HOPE else "nerve" \
            if len(ut.scripts) < UT_HOPE + UT_NERVE else None
        if kind is None:
            st.display_scripts = sorted(ut.scripts)
            deck = st.rng.shuffled(ut.scripts)
            st.script = deck.pop()  # P-SETUP-25
            st.script_pool = deck
            self.emit("The visitors chose the scripts " + ", ".join(
                self.pack.script(s).name for s in st.display_scripts)
                + "; the spirit draws one in secret.", "setup")
            self.ask_visitor(0)
            return
        # the chamber's room is in play from the start; its state is dealt later (P-CHAMBER-01)
        chamber = self.pack.manor.chamber is not None and self.pack.manor.chamber.room in st.rooms
        opts = [(s, f"{self.pack.script(s).name} ({self.pack.script(s).alignment}): "
                 f"{self.pack.script(s).text or self.pack.script(s).top.text}")
                for s in self.pack.scripts_of(kind, chamber=chamber) if s not in ut.scripts]
        self.ask("setup", st.visitor_seats[0], f"Unknown Threat: choose a {kind} script "
                 f"({len(ut.scripts) + 1} of {UT_HOPE + UT_NERVE}; P-UNK-01).", opts,
                 "ut_script")
        st.prompts[-1].seats = list(st.visitor_seats)  # any visitor may answer

    def on_ut_script(self, option: str, prompt: Prompt) -> None:
        ut = self.st.unknown_threat
        assert ut is not None
        ut.scripts.append(option)
        sc = self.pack.script(option)
        self.emit(f"The visitors choose the {sc.type} script {sc.name}.", "setup")
        self.ut_ask_script()

    def step_ut_spirit(self) -> None:
        """P-UNK-03/04 (PR-24): the spirit builds a 12-card deck from all spirit cards (a
        spirit, then one of its cards, per pick), then picks 5 spirit clues and one secret
        card per trauma (A-47). Private prompts (H-39)."""
        st = self.st
        ut = st.unknown_threat
        if ut is None:
            return
        pack = self.pack
        size = len(pack.spirit_deck(st.spirit.character))
        if len(ut.deck) < size:
            opts = []
            for sp in pack.spirits:
                left = [c for c in pack.spirit_deck(sp.id) if c not in ut.deck]
                if left:
                    opts.append((sp.id, f"A card of {sp.name} ({len(left)} left)"))
            self.later(Step(op="ut_spirit"))
            self.ask("setup", st.spirit_seat, f"Unknown Threat: build your spirit deck, card "
                     f"{len(ut.deck) + 1} of {size} — from whose cards? (P-UNK-03)", opts,
                     "ut_group", private=True)
            return
        if len(ut.clues) < UT_CLUES:
            opts = [(c.id, f"{c.name} ({pack.spirit(c.spirit).name}): {c.text}")
                    for c in pack.spirit_clues if c.spirit is not None and c.id not in ut.clues]
            self.later(Step(op="ut_spirit"))
            self.ask("setup", st.spirit_seat, f"Unknown Threat: choose spirit clue "
                     f"{len(ut.clues) + 1} of {UT_CLUES} for the bag (P-UNK-04).", opts,
                     "ut_clue", private=True)
            return
        have = {pack.secret(s).trauma for s in ut.secrets}
        trauma = next((s.trauma for s in pack.secrets if s.trauma not in have), None)
        if trauma is not None:
            opts = [(s.id, f"{s.name} (set {s.set})") for s in pack.secrets
                    if s.trauma == trauma]
            self.later(Step(op="ut_spirit"))
            self.ask("setup", st.spirit_seat, f"Unknown Threat: choose your {trauma} secret "
                     "card (one per trauma, P-UNK-04).", opts, "ut_secret", private=True)
            return
        self.emit("The spirit has built its deck and chosen its spirit clues and secret "
                  "cards.", "setup")

    def on_ut_group(self, option: str, prompt: Prompt) -> None:
        ut = self.st.unknown_threat
        assert ut is not None
        opts = [(c, f"{self.card_name(c)}: {self.pack.spirit_card(c).top.text}")
                for c in self.pack.spirit_deck(option) if c not in ut.deck]
        self.ask("setup", self.st.spirit_seat, f"Unknown Threat: which card of "
                 f"{self.pack.spirit(option).name}?", opts, "ut_card", private=True)

    def on_ut_card(self, option: str, prompt: Prompt) -> None:
        ut = self.st.unknown_threat
        assert ut is not None
        ut.deck.append(option)

    def on_ut_clue(self, option: str, prompt: Prompt) -> None:
        ut = self.st.unknown_threat
        assert ut is not None
        ut.clues.append(option)

    def on_ut_secret(self, option: str, prompt: Prompt) -> None:
        ut = self.st.unknown_threat
        assert ut is not None
        ut.secrets.append(option)
