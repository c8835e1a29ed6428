"""Engine basics: the state it wraps, events, names, two-player slots (P-2P), the house's
geometry and light, presence dice."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from rules.core.game import join_words
from rules.core.types import PUBLIC, Audience, Event, Prompt
from rules.presence import actions as K
from rules.presence import content as C
from rules.presence.engine.board import (
    LOG_SIZE,
    _opts,
    pack_for,
)
from rules.presence.state import (
    PresenceState,
    Step,
    VisitorState,
)

if TYPE_CHECKING:
    from rules.presence.engine import Engine


def secret_title(name: str, trauma: str) -> str:
    """A secret card as players read it: its name, with its trauma only when the name does
    not already say it ("Betrayal (Spirit I)", not "Betrayal (Spirit I) (betrayal)")."""
    return name if trauma.lower() in name.lower() else f"{name} ({trauma})"


_TIER_TEXT = re.compile(r"\b(High|Middle|Low):\s*(.*?)\s*(?=\b(?:High|Middle|Low):|$)", re.S)


def tier_text(text: str, tier: str) -> str:
    """What one tier of a secret card does, read from its printed text ("High: hope +1 and
    nerve +1. Middle: … Low: hope -1 and nerve -1." gives "hope -1 and nerve -1" for the
    low tier); empty when the text names no such tier."""
    for label, said in _TIER_TEXT.findall(text):
        if label.lower() == tier.lower():
            return said.strip().rstrip(".")
    return ""


def clue_title(name: str, trauma: str, room: str) -> str:
    """A clue card as players read it: "Betrayal: Salon" names its trauma and room already;
    a card whose name does not gets them in brackets."""
    said = trauma.lower() in name.lower() and room.lower() in name.lower()
    return name if said else f"{name} ({trauma}, {room})"



def listed_names(names: list[str]) -> str:
    """Names inside a sentence, joined with "and": a visitor's "The Orphan" reads "the
    Orphan" there (a capital "The" mid-line reads as a new sentence)."""
    return join_words(["t" + n[1:] if n.startswith("The ") else n for n in names])


class Basics:
    """The part of `Engine` this module holds (see the module's docstring)."""

    def __init__(self: Engine, state: PresenceState) -> None:
        self.st = state
        self.pack = pack_for(state.pack_path)
        self.events: list[Event] = []
        self.granted: str | None = None
        """The visitor whose off-turn main actions (P-VIS-03) are being listed or taken: their
        main actions are legal and cost nothing from the active turn's count."""

    def secret_board(self: Engine) -> C.SecretBoard:
        """This game's secret board (G-04): the pack's for its player count, or, in a game
        dealt under reveal tiers the pack no longer has (`PresenceState.secret_tiers`, a
        3-player game stored before presence-3), those tiers at every position."""
        board = self.pack.secret_board(self.st.n)
        pinned = self.st.secret_tiers
        if pinned is None:
            return board
        return board.model_copy(update={
            "low_max": pinned[0], "high_min": pinned[1],
            "positions": tuple(p.model_copy(update={"low_max": None})
                               for p in board.positions)})

    # ------------------------------------------------------------------ small helpers
    def emit(self: Engine, text: str, kind: str = "info", audience: Audience = PUBLIC,
             **data: Any) -> None:
        self.events.append(Event(kind=kind, text=text, audience=audience, data=data))
        if audience == PUBLIC:
            self.st.log.append(text)
            if len(self.st.log) > LOG_SIZE:
                del self.st.log[: len(self.st.log) - LOG_SIZE]

    def private(self: Engine, seat: str, text: str) -> None:
        """Something only `seat` sees (an inspected card): a DM event and its view."""
        self.emit(text, "private", [seat])
        seen = self.st.private_seen.setdefault(seat, [])
        seen.append(text)
        del seen[:-5]

    def later(self: Engine, *steps: Step) -> None:
        self.st.queue[0:0] = list(steps)

    def ask(self: Engine, kind: str, to: str, text: str, options: list[tuple[str, str]], then: str,
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

    def name(self: Engine, seat: str | None) -> str:
        if seat is None:
            return "nobody"
        if seat == self.st.spirit_seat:
            return "the spirit"
        v = self.st.visitors.get(seat)
        return self.pack.visitor(v.character).name if v else seat

    def listed(self: Engine, seats: list[str]) -> str:
        """Several people in one sentence, after its start: "the Orphan and the Detective"."""
        return listed_names([self.name(s) for s in seats])

    def room_name(self: Engine, room: str | None) -> str:
        if room is None:
            return "the supply"
        return self.pack.room(room).name

    def card_name(self: Engine, card: str) -> str:
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

    def cards_text(self: Engine, cards: list[str]) -> str:
        """Cards drawn, as a sentence names them: "1 card: Slam", "3 cards: Move 3 /
        Investigate; Hide / Move 2; Invoke / Move 2" (semicolons, since a two-action card's
        own name holds a slash)."""
        names = [self.card_name(c) for c in cards]
        return f"{len(names)} card{'' if len(names) == 1 else 's'}: " + "; ".join(names)

    @property
    def v_count(self: Engine) -> int:
        return self.st.n - 1

    def vis(self: Engine, seat: str) -> VisitorState:
        return self.st.visitors[seat]


    # ------------------------------------------------------------------ two players (P-2P)
    def partner(self: Engine, seat: str) -> str | None:
        """The other character slot of a two-player game's visitor player, else None."""
        ctl = self.st.controller
        if seat not in ctl:
            return None
        return next((s for s in ctl if s != seat and ctl[s] == ctl[seat]), None)

    def pile_holder(self: Engine, seat: str) -> VisitorState:
        """Whose deck and discard a visitor draws from and discards to: its own, or in a
        two-player game the shared one on the first slot (P-2P-01)."""
        return self.st.visitors[self.st.controller.get(seat, seat)]

    def hand_size(self: Engine) -> int:
        """P-LIMIT-01; 7 for the two-player visitor player (P-2P-03)."""
        o = self.pack.options
        return o.two_player_hand_size if self.st.controller else o.hand_size

    def player_hand(self: Engine, seat: str) -> list[str]:
        """Every card the visitor's player holds: one hand of 7 split by colour between
        the two characters of a two-player game (P-2P-03), else the visitor's own hand."""
        other = self.partner(seat)
        cards = list(self.vis(seat).hand)
        if other is not None and other in self.st.visitors:
            cards += self.vis(other).hand
        return cards

    def player_laid(self: Engine, seat: str) -> set[str]:
        """Mystery Mode: the clue cards the visitor's player laid face down (both characters
        of a two-player game, P-2P-03): it saw each one (A-64), so it knows where they lie."""
        other = self.partner(seat)
        cards = set(self.vis(seat).laid) if seat in self.st.visitors else set()
        if other is not None and other in self.st.visitors:
            cards |= set(self.vis(other).laid)
        return cards

    def own_cards(self: Engine, seat: str) -> list[str]:
        """The cards `seat` itself may discard (P-2P-04): its own hand, and in a two-player
        game the clue cards its partner holds ("a clue card may be played or discarded with
        either character"), never the partner's action cards, unless the partner has
        succumbed: its blank cards are discarded by the Rest of the other (P-2P-08)."""
        other = self.partner(seat)
        cards = list(self.vis(seat).hand)
        if other is not None and other in self.st.visitors:
            o = self.vis(other)
            cards += [c for c in o.hand if o.succumbed or not self.is_action_card(c)]
        return cards

    def holder_of(self: Engine, seat: str, card: str) -> str:
        """The slot whose hand holds `card` (the partner's, for a clue card of P-2P-04)."""
        other = self.partner(seat)
        if card not in self.vis(seat).hand and other is not None \
                and card in self.vis(other).hand:
            return other
        return seat

    def can_switch(self: Engine, seat: str) -> bool:
        """P-2P-02/06: a character the visitor player may act with now (not knocked out
        this turn, not succumbed)."""
        v = self.st.visitors.get(seat)
        return v is not None and not v.knocked_out and not v.succumbed

    def step_two_player_rest(self: Engine, seat: str) -> None:
        """A-02: both characters were knocked out; the next action is a Rest with this one."""
        st = self.st
        v = self.vis(seat)
        if st.phase == "visitor" and v.knocked_out and not v.succumbed and st.actions_left > 0:
            st.active = seat
            st.must_rest = True
            self.emit(f"{self.name(seat)} must Rest next.", "turn")

    def to_action_discard(self: Engine, seat: str, card: str) -> None:
        """An action card to its discard; a succumbed two-player character's card is
        trashed instead (P-2P-08)."""
        owner = next((v for v in self.st.visitors.values()
                      if v.character == self.pack.action_card(card).owner), None)
        if self.st.controller and owner is not None and owner.succumbed:
            self.st.action_trash.append(card)
            self.emit(f"{self.card_name(card)} is trashed: its character has succumbed.", "discard")
            return
        self.pile_holder(seat).discard.append(card)

    def seat_label(self: Engine, seat: str) -> str:
        if seat == self.st.spirit_seat:
            sp = self.st.spirit.character
            return "Spirit" + (f" ({self.pack.spirit(sp).name})" if sp else "")
        v = self.st.visitors.get(seat)
        return self.pack.visitor(v.character).name if v and v.character else seat

    def over(self: Engine) -> bool:
        return self.st.outcome is not None


    # ------------------------------------------------------------------ geometry & light
    def doors_of(self: Engine, room: str) -> list[str]:
        return [d.id for d in self.st.doors.values() if room in d.rooms]

    def other_side(self: Engine, door: str, room: str) -> str:
        a, b = self.st.doors[door].rooms
        return b if a == room else a

    def die_neighbours(self: Engine, room: str) -> list[str]:
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

    def chamber_room(self: Engine) -> str | None:
        """The Secret Chamber's room id when the variant is in play (P-CHAMBER)."""
        c = self.pack.manor.chamber
        return c.room if c is not None and self.st.chamber is not None else None

    def sealed(self: Engine, room: str) -> bool:
        """P-CHAMBER-03: the Secret Chamber until its passage is found (no clue, die, pawn)."""
        return self.pack.room(room).chamber and (
            self.st.chamber is None or self.st.chamber.passage_room is None)

    def side_of(self: Engine, room: str) -> C.Side:
        """The board side a room is printed on now (P-DARK-01, A-57)."""
        board = self.pack.room(room).board
        if board == "basement":
            return self.st.basement_side
        return self.st.board_side

    def lit(self: Engine, room: str) -> bool:
        """P-LIGHT-01/02: a lit candle or the lit fireplace in the room."""
        if self.st.fireplace_lit and room == self.pack.manor.fireplace_room:
            return True
        return any(v.candle_lit and v.room == room and not v.succumbed
                   for v in self.st.visitors.values())

    def dark(self: Engine, room: str) -> bool:
        return not self.lit(room)

    def active_visitors(self: Engine) -> list[VisitorState]:
        """Visitors who count as visitors and are not knocked out."""
        return [v for v in self.st.visitors.values() if not v.succumbed and not v.knocked_out]

    def surviving(self: Engine) -> list[VisitorState]:
        return [v for v in self.st.visitors.values() if not v.succumbed]

    def hearing_rooms(self: Engine, room: str) -> set[str]:
        """P-DIST-03: the room itself and rooms sharing an open door with it."""
        out = {room}
        for d in self.st.doors.values():
            if d.open and room in d.rooms:
                out.add(d.rooms[1] if d.rooms[0] == room else d.rooms[0])
        return out

    def alone(self: Engine, seat: str) -> bool:
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

    def table_talk(self: Engine) -> dict[str, Any]:
        """P-COMM-04..10, P-DISCORD-01: who may talk now, from public state only."""
        st = self.st
        # Each visitor's `alone` worked out once (every view asks, stop 67).
        by_seat = {s: self.alone(s) for s in st.visitor_seats}
        alone = [s for s in st.visitor_seats if by_seat[s] and not self.vis(s).succumbed]
        active_alone = (st.phase == "visitor" and st.active in st.visitors
                        and (by_seat[st.active] if st.active in by_seat
                             else self.alone(st.active)))
        speech: dict[str, str] = {st.spirit_seat: "procedural_only"}
        for s in st.visitor_seats:
            v = self.vis(s)
            if v.succumbed:
                near = any(o.room in self.hearing_rooms(v.room) for o in self.active_visitors())
                speech[s] = "free" if near and not active_alone else "procedural_only"
            else:
                speech[s] = ("free" if not by_seat[s] and not active_alone
                             else "procedural_only")
        if not self.surviving():  # every visitor succumbed (stop 63's demo)
            why = "No visitor remains in the manor."
        elif active_alone:
            why = (f"{self.name(st.active)} is alone and holds the active player marker: "
                   "no visitor may talk.")
        elif alone and st.true_horror:  # P-HORROR-01: not even procedural talk
            why = ("True Horror: alone visitors stay silent on every topic: "
                   + self.listed(alone) + ".")
        elif alone:
            why = "Alone visitors may only talk procedurally: " + self.listed(alone) + "."
        else:
            why = "Every visitor is within hearing of another visitor."
        if st.open_communication or st.controller:
            # P-OPEN-01: alone or knocked out, visitors speak normally; P-DISCORD-01: the
            # two-player visitor player has nobody to confer with. The spirit stays mute.
            speech.update({s: "free" for s in st.visitor_seats})
            active_alone = False
            why = ("Two-player game: the visitor player may always talk; the spirit may not."
                   if st.controller else
                   "Open Communication: every visitor may talk; the spirit may not.")
        elif st.true_horror and alone and active_alone:
            # P-HORROR-01: no talking on any topic while alone, after the marker's silence
            why += " True Horror: alone visitors stay silent on every topic."
        if st.true_horror:
            speech = {s: "silent" if m == "procedural_only" else m for s, m in speech.items()}
        if st.speech_grant is not None:  # P-DISCORD-08: an effect lets the spirit speak
            speech[st.spirit_seat] = "free"
        return {
            "allowed": not active_alone,
            # Whether anyone at the table may talk freely now: not when every visitor still
            # standing is alone, though no alone visitor holds the marker.
            "heard": any(speech[s] == "free" for s in st.visitor_seats),
            "alone": alone,
            "alone_labels": [self.name(s) for s in alone],
            "knocked_out": [s for s in st.visitor_seats if self.vis(s).knocked_out
                            and not self.vis(s).succumbed],
            "succumbed": [s for s in st.visitor_seats if self.vis(s).succumbed],
            "speech": speech,
            "why": why,
        }

    def dice_in(self: Engine, room: str) -> list[int]:
        return [d.id for d in self.st.dice if d.room == room and d.value > 0]

    def die(self: Engine, die_id: int) -> Any:
        return next(d for d in self.st.dice if d.id == die_id)

    def supply(self: Engine) -> list[int]:
        return [d.id for d in self.st.dice if d.room is None]

    def die_label(self: Engine, die_id: int) -> str:
        """A presence die as the board shows it: by the number it shows and its room (players
        never see the dice's ids; two dice alike in one room are alike for every choice)."""
        d = self.die(die_id)
        if d.room is None:
            return "a presence die from the supply"
        return f"the presence die showing {d.value} in the {self.room_name(d.room)}"

    def die_now(self: Engine, die_id: int, was: int) -> str:
        """A die after a change, as a sentence's end, with the change itself: "the presence
        die in the Kitchen goes from 2 to 3" (or leaves the board, at 0); "a presence die in
        the Salon …" where the room holds others. A run of such lines said once with its count
        ("(2 times)", `cogs.utils.table.words.told_once`) then reads true: two dice that each
        went from 1 to 2, never one die that "now shows 2" twice (stop 65's demo, H-29)."""
        d = self.die(die_id)
        if d.room is None:
            return "a presence die goes back to the supply"
        which = "a" if len(self.dice_in(d.room)) > 1 else "the"
        return (f"{which} presence die in the {self.room_name(d.room)} goes from {was} to "
                f"{d.value}")


    # ------------------------------------------------------------------ presence dice
    def set_die(self: Engine, die_id: int, value: int) -> None:
        """P-SPIRIT-06: a die at 0 leaves the board for the supply."""
        d = self.die(die_id)
        d.value = max(0, min(self.pack.options.max_presence, value))
        if d.value == 0 and d.room is not None:
            self.emit(f"A presence die in the {self.room_name(d.room)} fades to nothing and "
                      "returns to the spirit's supply.", "die")
            d.room = None
            d.moved = False

    def place_die(self: Engine, die_id: int, room: str, value: int = 1) -> None:
        d = self.die(die_id)
        d.room = room
        d.value = value
        d.fresh = True

    def die_enters(self: Engine, die_id: int, room: str, penalty: bool,
                   by: str | None = None) -> None:
        """Move a die into `room`; P-SPIRIT-08 light penalty; triggers die_enters_room.
        `by`: who moves it, said where no earlier line gives the cause (the spirit's own
        Move Presence Die, P-SPIRIT-07)."""
        d = self.die(die_id)
        # Where from and what it shows, so the table can follow it (stop 63's demo: "A
        # presence die moves into the Dining Hall (2 times)." said neither).
        was = f" from the {self.room_name(d.room)}" if d.room and d.room != room else ""
        d.room = room
        self.emit((f"{by} moves a presence die" if by else "A presence die moves")
                  + f"{was} into the {self.room_name(room)}, showing {d.value}.", "die")
        if penalty and self.lit(room):
            # with what it shows now: a die that joined others was otherwise lost to sight
            self.emit("The room is lit: the die loses 1 presence"
                      + (f" and now shows {d.value - 1}." if d.value > 1 else "."), "die")
            self.set_die(die_id, d.value - 1)
        if d.room is not None:
            self.fire("die_enters_room", room=room, die=die_id, by="spirit")
