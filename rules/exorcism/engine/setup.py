"""Setup after step 5 (the Characters): Lookouts, pawns, the Haunt deck, first player
(EX-SETUP-06..10, EX-SOLO-01)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.exorcism.content import (
    Pack,
)
from rules.exorcism.state import InvestigatorState, Step

if TYPE_CHECKING:
    from rules.exorcism.engine import Engine


class SetupSteps:
    """The part of `Engine` this module holds (see the module's docstring)."""

    # ------------------------------------------------------------------ setup, after step 5

    def finish_solo_setup(self: Engine, primary: str) -> None:
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


    def finish_setup(self: Engine, remaining_chars: list[str]) -> None:
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
