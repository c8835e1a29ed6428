"""Why an action is not legal now, in words a player can read (with the rule id)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.core.types import Action
from rules.exorcism import actions as K
from rules.exorcism.engine.board import (
    GHOST_NAMES,
)

if TYPE_CHECKING:
    from rules.exorcism.engine import Engine


class Refusals:
    """The part of `Engine` this module holds (see the module's docstring)."""

    # ------------------------------------------------------------------ messages
    def explain(self: Engine, seat: str, action: Action) -> tuple[str, str]:
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
            if kind == K.HAUNT_LEVEL and self.haunt_level_resting():
                return ("This table plays the Haunt Level ruling: one Increase per Haunt "
                        "phase, and none in the phase after one that had it.", "EX-AMB-59")
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
                return (f"There is no Room {to!r} in the house; pick one from the list.",
                        "EX-ACT-01")
            ghosts = self.ghosts_in(to)
            if ghosts:
                return (f"That Room holds the {GHOST_NAMES[ghosts[0]]} — Ghosts block movement; "
                        "choose another Room.", "EX-ACT-01")
            if st.walls_bleed and st.cells[to].darkness == 3:
                return ("The Walls Bleed: you may not end a Move in a Room with 3 Darkness "
                        "Tokens.", "EX-TERROR-04")
            return (f"{self.the_cell(to, capital=True)} is out of reach: move up to "
                    f"{self.move_range(inv)} spaces up, down, left or right, never through a "
                    "Ghost.", "EX-ACT-01")
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
