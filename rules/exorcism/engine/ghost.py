"""One vs All: the Ghost player's hand, Haunt phase and Terror (EX-OVA-*, EX-TERROR-*)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.core.game import join_words, plural
from rules.core.types import Action, act
from rules.exorcism import actions as K
from rules.exorcism.state import Step

if TYPE_CHECKING:
    from rules.exorcism.engine import Engine


class GhostPlayer:
    """The part of `Engine` this module holds (see the module's docstring)."""

    # ------------------------------------------------------------------ One vs All: Ghost
    def step_ghost_refill(self: Engine) -> None:
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
                # The card in words, as the hand lists it: never its id (H19).
                f"You draw a {self.haunt_card_text(card_id)}.",
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

    def step_ghost_setup_hand(self: Engine) -> None:
        """Setup step 10 (EX-OVA-04): the Ghost player's hidden hand."""
        self.later(Step(op="ghost_refill"))

    def step_ghost_phase_start(self: Engine) -> None:
        st = self.st
        st.ghost_budget = self.track_value()  # EX-AMB-56
        st.phase = "ghost"
        st.raised_last_phase = st.raised_in_phase > 0
        st.raised_in_phase = 0
        self.emit(
            f"Haunt phase: the Ghost player has {st.ghost_budget} "
            f"Ghost {plural(st.ghost_budget, 'Action')}.", "ghost_phase"
        )

    def step_ghost_card(self: Engine, card: str, move: bool,
                        told: dict[str, str] | None = None) -> None:
        """A Haunt card the Ghost player played resolves: Move the Ghosts (EX-OVA-06) or Add
        Darkness (EX-OVA-07). `told`: the Ghosts its line said stay (`move_ghosts`)."""
        face = self.pack.haunt_card(card)
        if move:
            self.later(*self.move_ghosts(card, told))
        elif face.kind == "haunt":
            self.later(Step(op="place_darkness", args={"location": face.location}))

    def step_ghost_continue(self: Engine) -> None:
        if self.st.phase == "ghost" and self.st.ghost_budget <= 0:
            self.step_ghost_phase_end()

    def step_ghost_phase_end(self: Engine) -> None:
        st = self.st
        if st.phase != "ghost":
            return
        st.ghost_budget = 0
        st.phase = "haunt"
        self.emit("The Ghost player ends the Haunt phase.", "ghost_phase_end")
        self.later(Step(op="ghost_refill"), Step(op="begin_actions"))


    # ------------------------------------------------------------------ One vs All actions
    def ghost_actions(self: Engine) -> list[Action]:
        st = self.st
        out: list[Action] = []
        if st.ghost_budget <= 0:
            return [act(K.END_HAUNT)]
        if self.ghost_cells():
            out.extend(act(K.GHOST_MOVE, card=c) for c in dict.fromkeys(st.ghost_hand))
        out.extend(act(K.GHOST_DARKNESS, card=c) for c in dict.fromkeys(st.ghost_hand))
        if (not self.opts.haunt_level_uses_supply or st.darkness_supply >= (
            self.opts.haunt_level_step
        )) and not self.haunt_level_resting():
            out.append(act(K.HAUNT_LEVEL))
        if st.terror_used < self.opts.terror_per_turn:
            for ab in self.pack.terror:
                if st.haunt_level >= ab.threshold and self.terror_usable(ab.id):
                    out.append(act(K.TERROR, ability=ab.id))
        out.append(act(K.END_HAUNT))
        return out

    def haunt_level_resting(self: Engine) -> bool:
        """The table's EX-AMB-59 ruling (`haunt_level_cooldown`): the Haunt Level was raised
        already this Haunt phase, or in the one before."""
        st = self.st
        return st.haunt_level_cooldown and (st.raised_in_phase > 0 or st.raised_last_phase)

    def terror_targets(self: Engine, ability: str) -> list[str]:
        st = self.st
        seats = [s for s in self.turn_order() if not st.players[s].out]
        if ability == "moving_objects":
            return [s for s in seats if any(i.tools for i in self.invs_of(s) if self.in_house(i))]
        if ability == "temporary_possession":
            return [s for s in seats
                    if any(self.main_actions(i, possessed=True) for i in self.invs_of(s))]
        return seats

    def terror_usable(self: Engine, ability: str) -> bool:
        if ability in ("cold_spot", "walls_bleed"):
            return True
        if ability == "amnesia":
            return len(self.terror_targets(ability)) >= 2
        return bool(self.terror_targets(ability))

    def room_cells(self: Engine) -> list[str]:
        """Cells holding a Room card (the Attic is not one, EX-AMB-42)."""
        return [c for c in self.geo.all if self.st.cells[c].card is not None]

    def do_terror(self: Engine, ability: str) -> None:
        st = self.st
        name = self.pack.terror_ability(ability).name
        st.terror_used += 1
        st.last_terror = ability
        self.emit(f"The Ghost player causes Terror: {name}.", "terror")
        gs = [st.ghost_seat or ""]
        if ability == "walls_bleed":
            st.walls_bleed = True
            # The bare name told nobody what it forbids (stop 67): say the rule and where.
            bleeding = [self.the_cell(c) for c in self.room_cells()
                        if st.cells[c].darkness == 3 and not st.cells[c].shrouded]
            where = (f"now {join_words(bleeding)}" if bleeding else "no Room has 3 now")
            self.emit(f"The walls bleed: this turn nobody may end a Move in a Room with 3 "
                      f"Darkness Tokens ({where}).", "terror")
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
