"""Prompt answers: what each pending prompt offers and what each answer does (EX-PROMPT-*)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules.core.game import a_noun, the_name
from rules.core.types import Action, Prompt, act
from rules.exorcism import actions as K
from rules.exorcism.content import (
    TOOL_TYPES,
)
from rules.exorcism.engine.board import (
    MANOR_ROOMS,
    TOOL_NAMES,
    _add,
    tools_text,
)

if TYPE_CHECKING:
    from rules.exorcism.engine import Engine


class PromptAnswers:
    """The part of `Engine` this module holds (see the module's docstring)."""

    # ------------------------------------------------------------------ prompt answers
    def prompt_answers(self: Engine, prompt: Prompt, seat: str) -> list[Action]:
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

    def answer(self: Engine, seat: str, action: Action) -> None:
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
            self.emit(f"{self.seat_does(seat, 'plays')} {self.pack.plan(pid).called}: "
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
            # A shield's edge Room, said as the move its line announced (stop 66)
            why = ", shielded from the Wound," if d.get("shielded") else ""
            self.emit(f"{self.inv_name(inv)}{why} is placed in "
                      f"{self.the_cell(inv.cell or '')}.", "placed")
        elif k == "trade_partner":
            self.start_trade(d["ctx"], action.p("with"))
        elif k == "trade_build":
            self.answer_trade_build(prompt, action)
        elif k == "trade_consent":
            if kind == K.TRADE_ACCEPT:
                self.do_trade(d["ctx"], d["partner"], d["give"], d["take"])
            else:
                self.refund(d["ctx"], f"{self.seat_does(seat, 'declines')} the Trade; the Action "
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
                st.haunt_seen = max(st.haunt_seen, n)
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

    def continue_counted(self: Engine, d: dict[str, Any], op: str) -> None:
        """A multi-count effect (gain n Tasks, heal n): ask again while some are left."""
        left = d["left"] - 1
        if left <= 0:
            return
        ctx = {**d["ctx"], "_left": left}
        effects = self.effects_of(ctx["src"])
        eff = next(e for e in effects if e.op == op)
        self.EFFECT_HANDLERS[op](self, eff, ctx)

    def manor_moved(self: Engine, start: dict[str, str | None],
                    swap: tuple[str, str] | None = None) -> set[str]:
        """Cells whose card is not the one they held before Manipulate the Manor began (after
        the swap, if given)."""
        cards = {c: self.st.cells[c].card for c in self.geo.house}
        if swap is not None:
            a, b = swap
            cards[a], cards[b] = cards[b], cards[a]
        return {c for c in self.geo.house if cards[c] != start.get(c)}

    def manor_ok(self: Engine, start: dict[str, str | None], a: str, b: str) -> bool:
        """EX-AMB-28: a swap is allowed while at most 4 Rooms end up away from where they
        were; the Ghost player may swap as often as they like within that (swapping back
        included), and finishes when they choose."""
        return len(self.manor_moved(start, (a, b))) <= MANOR_ROOMS

    def answer_manor(self: Engine, prompt: Prompt, action: Action) -> None:
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
        names = (self.the_cell(a), self.the_cell(b))  # before they trade places
        self.swap_cells(a, b)
        for c in (a, b):
            if c not in touched:
                touched.append(c)
        swaps = d["swaps"] + 1
        self.emit(f"The Ghost player swaps {names[0]} and {names[1]}.", "manor")
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

    def answer_trade_build(self: Engine, prompt: Prompt, action: Action) -> None:
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

    def answer_cell(self: Engine, prompt: Prompt, cid: str) -> None:
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
            names = (self.the_cell(origin), self.the_cell(cid))  # before they trade places
            self.swap_cells(origin, cid)
            # where each now stands, in the board's words (stop 64's demo: "swaps the Weapon
            # Room and the Locked Room (row 2, column 4)" read as one place for both)
            at = {c: f"row {self.st.cells[c].row}, column {self.st.cells[c].col}"
                  for c in (origin, cid)}
            self.emit(f"{self.inv_name(inv)} swaps {names[0]} and {names[1]}: "
                      f"{the_name(self.shown_name(cid))} now stands at {at[cid]}, "
                      f"{the_name(self.shown_name(origin))} at {at[origin]}.", "swap")
        elif purpose == "swap_first":
            self.ask(ctx, "choose_cell", "Choose the second Room.",
                     [c for c in self.geo.house if c != cid], purpose="swap_second", first=cid)
        elif purpose == "swap_second":
            self.swap_cells(d["first"], cid)
            self.emit(f"The Rooms at {d['first']} and {cid} change places.", "swap")
        elif purpose == "adjacent_room":
            room = self.room_of(cid)
            assert room is not None
            self.emit(f"{self.inv_name(inv)} uses the Action of the adjacent Room, "
                      f"{the_name(room.name)}.", "room_action")
            self.run_effects({**ctx, "src": f"room:{room.id}", "origin": cid})

    def answer_exchange(self: Engine, prompt: Prompt, action: Action) -> None:
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

    def answer_pick_up(self: Engine, prompt: Prompt, action: Action) -> None:
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

    def answer_terror_seat(self: Engine, prompt: Prompt, target: str) -> None:
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
            self.emit(f"Moving Objects: {a_noun(TOOL_NAMES[tool])} is taken from {label}.",
                      "terror")
            rooms = [c for c in self.room_cells() if not st.cells[c].shrouded]
            self.push_prompt("terror_cell", gs, f"Moving Objects: choose the Room where the "
                             f"{TOOL_NAMES[tool]} appears.", ability=ability, options=rooms,
                             inv=inv.id, tool=tool)
        elif ability == "temporary_possession":
            inv = next(i for i in self.invs_of(target)
                       if self.main_actions(i, possessed=True))
            self.push_prompt("possession", gs, f"Temporary Possession: choose one Action for "
                             f"{self.inv_name(inv)}.", inv=inv.id)

    def answer_terror_cell(self: Engine, prompt: Prompt, cid: str) -> None:
        st = self.st
        d = prompt.data
        if d["ability"] == "cold_spot":
            st.cold_spot = cid
            self.emit(f"A Cold Spot chills {self.the_cell(cid)}: moving in or out costs 2 "
                      "spaces this turn.", "terror")
            return
        inv = self.inv(d["inv"])
        tool = d["tool"]
        _add(inv.tools, tool, -1)
        _add(st.cells[cid].dropped, tool, 1)
        self.emit(f"The {TOOL_NAMES[tool]} appears in {self.the_cell(cid)}.", "terror")
