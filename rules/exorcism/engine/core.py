"""Engine basics: the state it wraps, events, prompts, names and small readings."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules.core.game import join_words, the_name
from rules.core.types import PUBLIC, Audience, Event, Prompt
from rules.exorcism.content import (
    Character,
    Modifier,
    Room,
    table_options,
)
from rules.exorcism.engine.board import (
    GHOSTS,
    LOG_SIZE,
    geometry,
    pack_for,
)
from rules.exorcism.state import ExorcismState, InvestigatorState, Step

if TYPE_CHECKING:
    from rules.exorcism.engine import Engine


class Basics:
    """The part of `Engine` this module holds (see the module's docstring)."""

    def __init__(self: Engine, state: ExorcismState) -> None:
        self.st = state
        self.pack = pack_for(state.pack_path)
        self.geo = geometry(self.pack)
        self.opts = table_options(self.pack.options, state.first_game,
                                   state.shroud_returns_darkness)
        self.events: list[Event] = []


    # ------------------------------------------------------------------ small helpers
    def emit(self: Engine, text: str, kind: str = "info", audience: Audience = PUBLIC,
             **data: Any) -> None:
        self.events.append(Event(kind=kind, text=text, audience=audience, data=data))
        if audience == PUBLIC:
            self.st.log.append(text)
            if len(self.st.log) > LOG_SIZE:
                del self.st.log[: len(self.st.log) - LOG_SIZE]

    def later(self: Engine, *steps: Step) -> None:
        """Queue steps to run next, before anything already queued, in the given order."""
        self.st.queue[0:0] = list(steps)

    def push_prompt(self: Engine, kind: str, seats: list[str], text: str, **data: Any) -> None:
        self.st.prompt_seq += 1
        self.st.prompts.append(
            Prompt(id=f"p{self.st.prompt_seq}", kind=kind, seats=seats, text=text, data=data)
        )

    @property
    def solo(self: Engine) -> bool:
        return self.st.mode == "solo"

    @property
    def ova(self: Engine) -> bool:
        return self.st.mode == "one_vs_all"

    def character(self: Engine, char_id: str) -> Character:
        return self.pack.character(char_id)

    def inv(self: Engine, inv_id: str) -> InvestigatorState:
        return self.st.investigators[inv_id]

    def char_name(self: Engine, char_id: str | None) -> str:
        return self.character(char_id).name if char_id else "a Wounded investigator"

    def inv_name(self: Engine, inv: InvestigatorState) -> str:
        return self.char_name(inv.character)

    def shown_name(self: Engine, cid: str) -> str:
        """The name a cell's card shows on the board: the face-up Room's name, "Locked Room"
        for a face-down one (never its hidden face), the Attic's and the Foyer's names."""
        cell = self.st.cells[cid]
        if cell.kind == "attic":
            return self.pack.layout.attic.name
        if cell.kind == "foyer":
            return self.pack.layout.foyer.name
        if cell.face_down or cell.card is None:
            return "Locked Room"
        return self.pack.room(cell.card).name

    def cell_name(self: Engine, cid: str) -> str:
        """How players read a cell: its name alone where no other cell shows that name, else
        the name and its row and column as the board picture prints them under it (the
        face-down Locked Rooms). Players know names and the picture, not a grid."""
        name = self.shown_name(cid)
        if any(other != cid and self.shown_name(other) == name for other in self.st.cells):
            cell = self.st.cells[cid]
            return f"{name} (row {cell.row}, column {cell.col})"
        return name

    def the_cell(self: Engine, cid: str, *, capital: bool = False) -> str:
        """`cell_name` with "the" where English puts it (`the_name`): "the Weapon Room", "the
        Locked Room (row 2, column 4)", but "Task Room A", a proper name of its own."""
        return the_name(self.cell_name(cid), capital=capital)

    def seat_label(self: Engine, seat: str, *, capital: bool = False) -> str:
        """Who plays `seat`: "Ghost player", "Detective"; Solo's two Characters as the name
        lines say them, "the Psychologist and the Journalist" (stop 70: the thread read
        "Psychologist & Journalist's Actions are over" beside "Ada (the Psychologist and the
        Journalist)"). With `capital`, as a sentence starts."""
        label = self._seat_label(seat)
        return label[:1].upper() + label[1:] if capital else label

    def _seat_label(self: Engine, seat: str) -> str:
        if self.st.ghost_seat == seat:
            return "Ghost player"
        # Who plays now: an escaped Investigator is out of the game (EX-FOYER-03, EX-TURN-05),
        # so Solo's seat after the Doctor's escape is the Detective alone. A seat whose every
        # Character has escaped (the game over) keeps them all, the role as it was.
        invs = [i for i in self.invs_of(seat) if i.character]
        playing = [i for i in invs if not i.escaped] or invs
        names = [self.char_name(i.character) for i in playing if i.character]
        if len(names) > 1:
            return join_words([f"the {n}" for n in names])
        if names:
            return names[0]
        # Before a character is chosen (Solo's Primary): the role, never a number.
        return "the Investigator player"

    def seat_does(self: Engine, seat: str, verb: str) -> str:
        """The seat's label and `verb` agreeing with it, as a sentence starts: "Detective
        ends", and Solo's two Characters "The Psychologist and the Detective end"."""
        label = self.seat_label(seat, capital=True)
        if " and " in label and verb.endswith("s"):
            verb = verb[:-1]
        return f"{label} {verb}"

    def invs_of(self: Engine, seat: str) -> list[InvestigatorState]:
        return [i for i in self.st.investigators.values() if i.seat == seat]

    def in_house(self: Engine, inv: InvestigatorState) -> bool:
        return inv.character is not None and inv.cell is not None and not inv.escaped

    def active_invs(self: Engine) -> list[InvestigatorState]:
        return [i for i in self.st.investigators.values() if self.in_house(i)]

    def ghost_cells(self: Engine) -> set[str]:
        return {c for c in self.st.ghosts.values() if c is not None}

    def ghosts_in(self: Engine, cid: str) -> list[str]:
        return [g for g in GHOSTS if self.st.ghosts.get(g) == cid]

    def room_of(self: Engine, cid: str) -> Room | None:
        """The usable Room card on a cell: None on the Attic or a face-down Locked Room."""
        cell = self.st.cells[cid]
        if cell.card is None or cell.face_down:
            return None
        return self.pack.room(cell.card)

    def turn_order(self: Engine) -> list[str]:
        """Investigator seats clockwise from the active seat (EX-AMB-16)."""
        seats = [s for s in self.st.seats if s != self.st.ghost_seat]
        if self.st.active in seats:
            i = seats.index(self.st.active)
            seats = seats[i:] + seats[:i]
        return seats

    def track_value(self: Engine) -> int:
        return self.pack.clock.darkness_track[self.st.track_index]

    def can_use_cards(self: Engine, inv: InvestigatorState) -> bool:
        """Solo: only the Primary uses Tasks, Plans and Ongoing Abilities (EX-SOLO-03)."""
        return not self.solo or inv.role == "primary"

    def modifiers(self: Engine, inv: InvestigatorState) -> list[Modifier]:
        mods: list[Modifier] = []
        if inv.character:
            mods.extend(self.character(inv.character).rules)
        if self.can_use_cards(inv):
            for tid in self.st.players[inv.seat].ongoing:
                mods.extend(self.pack.task(tid).ongoing)
        return mods

    def move_range(self: Engine, inv: InvestigatorState) -> int:
        return self.opts.move_range + sum(
            m.delta for m in self.modifiers(inv) if m.kind == "move_range_delta"
        )

    def purify_amount(self: Engine, inv: InvestigatorState) -> int:
        return max(
            [self.opts.purify_amount]
            + [m.n for m in self.modifiers(inv) if m.kind == "purify_amount"]
        )

    def has_trade_rule(self: Engine, inv: InvestigatorState) -> bool:
        return any(m.kind == "trade_range" for m in self.modifiers(inv))

    def trade_range(self: Engine, inv: InvestigatorState) -> int | None:
        """None = any distance."""
        best: int | None = self.opts.trade_range
        for m in self.modifiers(inv):
            if m.kind == "trade_range":
                if m.range == "any":
                    return None
                best = max(best or 0, m.range)
        return best

    def unlock_free(self: Engine, inv: InvestigatorState) -> bool:
        return any(m.kind == "unlock_cost" and m.cost == "free" for m in self.modifiers(inv))
