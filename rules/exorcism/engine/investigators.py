"""The investigators' main Actions: move, purify, trade, Room Actions, Tasks (EX-ACT-*)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from rules.core.game import the_name
from rules.core.types import Action, act
from rules.exorcism import actions as K
from rules.exorcism.content import (
    ActionAbility,
)
from rules.exorcism.engine.board import (
    _add,
)
from rules.exorcism.state import InvestigatorState, Step

if TYPE_CHECKING:
    from rules.exorcism.engine import Engine


def third_person(card_text: str) -> str:
    """A Character card's words told of its owner in the thread: its "your Room" is the
    owner's, not the reader's (stop 69's demo: "the Architect's ability: swap your Room …")."""
    text = re.sub(r"\byours\b", "theirs", card_text)
    return re.sub(r"\byour\b", "their", text)


class InvestigatorActions:
    """The part of `Engine` this module holds (see the module's docstring)."""

    # ------------------------------------------------------------------ investigator Actions
    def who_param(self: Engine, inv: InvestigatorState) -> str | None:
        return inv.id if self.solo else None

    def main_actions(self: Engine, inv: InvestigatorState, possessed: bool = False) -> list[Action]:
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

    def abilities(self: Engine, inv: InvestigatorState) -> list[tuple[str, ActionAbility]]:
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

    def do_main(self: Engine, seat: str, inv: InvestigatorState, action: Action,
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
        if not possessed:
            if kind == K.MOVE:
                st.walked.setdefault(inv.id, []).append(cid)
            else:
                st.walked.pop(inv.id, None)
        if kind == K.MOVE:
            self.move_pawn(inv, action.p("to"))
        elif kind == K.PURIFY:
            self.purify_room(cid, self.purify_amount(inv), by=inv)
        elif kind == K.TRADE:
            self.start_trade(ctx, action.p("with"))
        elif kind == K.ROOM_ACTION:
            room = self.room_of(cid)
            assert room is not None
            self.emit(f"{self.inv_name(inv)} uses {the_name(room.name)}.", "room_action")
            self.run_effects({**ctx, "src": f"room:{room.id}"})
        elif kind == K.TASK:
            self.complete_task(inv, action.p("task"))
        elif kind == K.ABILITY:
            source = action.p("source")
            ab = dict(self.abilities(inv))[source]
            if ab.once_per_turn:
                st.once_used.append(source)
            src = f"char:{source}" if source == inv.character else f"ongoing:{source}"
            if source == inv.character:
                # Named, with what it does (stop 65: "Journalist uses their own ability." left
                # a reader to know the Character cards, EX-GAP-04).
                ch = self.character(source)
                does = third_person(ch.text.split(": ", 1)[-1].rstrip("."))
                whose = f"the {ch.name}'s ability: {does[:1].lower()}{does[1:]}"
            else:
                whose = f"the ability of {self.pack.task(source).called}"
            self.emit(f"{self.inv_name(inv)} uses {whose}.", "ability")
            self.run_effects({**ctx, "src": src})
        elif kind == K.PICK_UP:
            self.eff_pick_up_tools(None, ctx)
        elif kind == K.UNLOCK:
            self.unlock_room(inv, self.unlock_free(inv))

    def complete_task(self: Engine, inv: InvestigatorState, tid: str) -> None:
        """EX-ACT-05, EX-TASK-03/04, EX-AMB-10/21/51/53."""
        st = self.st
        task = self.pack.task(tid)
        for t, n in task.cost().items():
            _add(inv.tools, t, -n)
            st.tool_piles[t] = st.tool_piles.get(t, 0) + n
        player = st.players[inv.seat]
        player.tasks.remove(tid)
        inv.tasks_done += 1
        if task.has_ongoing:
            player.ongoing.append(tid)
        else:
            st.task_discard.append(tid)
        assert inv.character is not None
        ch = self.character(inv.character)
        bonus = ch.specialization_bonus if ch.specialization == task.subtype else 0
        self.emit(f"{ch.name} completes {task.called}.", "task")
        _, ongoing, lasting = task.text.partition("Ongoing: ")
        if task.has_ongoing and ongoing:
            # What the kept Task now lets its holder do (stop 63's demos: nothing said why a
            # Purify later took 2 Tokens).
            # The card speaks to its holder ("your Purify"); the log speaks of them.
            lasting = re.sub(r"\byour\b", "their", re.sub(r"\byou\b", "they",
                                                            lasting.strip()))
            self.emit(f"{ch.name} keeps {task.called}: from now on, {lasting[:1].lower()}"
                      f"{lasting[1:]}", "task_ongoing")
        # Whose Task it was, so the recap's turning point names who scored (stop 64).
        why = f"{ch.name}'s {task.name}" + (" with the Specialization bonus" if bonus else "")
        if not task.rewards:
            self.gain_points(task.points + bonus, why)
            return
        # EX-ACT-05: "Gain your Rewards … Then move the Exorcism Point Tracker" (stop 64's
        # demo told the exorcism before the Task's Plan was gained). Queued first, so a
        # reward's own prompt and the rest of its effects still come before the points.
        self.later(Step(op="task_points", args={"n": task.points + bonus, "why": why}))
        self.run_effects({"src": f"reward:{tid}", "inv": inv.id, "seat": inv.seat,
                          "origin": inv.cell})

    def step_task_points(self: Engine, n: int, why: str) -> None:
        self.gain_points(n, why)
