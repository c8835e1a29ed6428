"""Card effects: the primitives the content pack's cards are made of, dispatched by op."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from rules.core.game import plural
from rules.core.types import PUBLIC, Action, Audience
from rules.exorcism import actions as K
from rules.exorcism.content import (
    Effect,
)
from rules.exorcism.engine.board import (
    CUSTOM_EFFECTS,
    _add,
    tools_text,
)
from rules.exorcism.state import InvestigatorState, Step

if TYPE_CHECKING:
    from rules.exorcism.engine import Engine


class Effects:
    """The part of `Engine` this module holds (see the module's docstring)."""

    # ------------------------------------------------------------------ effects
    def effects_of(self: Engine, src: str) -> tuple[Effect, ...]:
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

    def run_effects(self: Engine, ctx: dict[str, Any], index: int = 0) -> None:
        effects = self.effects_of(ctx["src"])
        for i in range(index, len(effects)):
            if self.over:
                return
            done = self.EFFECT_HANDLERS[effects[i].op](self, effects[i], ctx)
            if not done:
                self.later(Step(op="effects", args={"ctx": ctx, "index": i + 1}))
                return

    def step_effects(self: Engine, ctx: dict[str, Any], index: int) -> None:
        self.run_effects(ctx, index)

    def ctx_inv(self: Engine, ctx: dict[str, Any]) -> InvestigatorState:
        return self.inv(ctx["inv"])

    def ask(self: Engine, ctx: dict[str, Any], kind: str, text: str, options: list[Any],
            **data: Any) -> None:
        self.push_prompt(kind, [ctx["seat"]], text, ctx=ctx, options=options, **data)

    # -- gain_tool
    def gain_tool(self: Engine, inv: InvestigatorState, tool: str, n: int) -> int:
        got = min(n, self.st.tool_piles.get(tool, 0))  # EX-TOOL-02
        if got:
            self.st.tool_piles[tool] -= got
            _add(inv.tools, tool, got)
        return got

    def eff_gain_tool(self: Engine, eff: Any, ctx: dict[str, Any]) -> bool:
        inv = self.ctx_inv(ctx)
        types = [t for t in eff.types if self.st.tool_piles.get(t, 0) > 0]
        if not types:
            self.emit("No such Tool is left to gain.", "no_tool")
            return True
        if len(types) == 1:
            got = self.gain_tool(inv, types[0], eff.n)
            self.emit(f"{self.inv_name(inv)} gains {tools_text({types[0]: got})}.", "gain_tool")
            return True
        self.ask(ctx, "choose_tool", "Choose which Tool to gain.", types, n=eff.n)
        return False

    # -- exchange_tools
    def eff_exchange_tools(self: Engine, eff: Any, ctx: dict[str, Any]) -> bool:
        inv = self.ctx_inv(ctx)
        if not inv.tools:
            return True
        self.ask(ctx, "exchange", f"Exchange up to {eff.n} "
                                  f"{plural(eff.n, 'Tool')}: choose one to return, or "
                 "stop.", [], left=eff.n, returned=None)
        return False

    # -- gain_task
    def take_task(self: Engine, inv: InvestigatorState, task_id: str) -> None:
        st = self.st
        st.available_tasks.remove(task_id)
        st.players[inv.seat].tasks.append(task_id)
        self.emit(f"{self.inv_name(inv)} gains {self.pack.task(task_id).called}.",
                  "gain_task")
        while len(st.available_tasks) < self.opts.available_tasks and st.task_deck:
            st.available_tasks.append(st.task_deck.pop())  # EX-GAP-07

    def eff_gain_task(self: Engine, eff: Any, ctx: dict[str, Any]) -> bool:
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
    def eff_gain_plan(self: Engine, eff: Any, ctx: dict[str, Any]) -> bool:
        inv = self.ctx_inv(ctx)
        for _ in range(eff.n):
            if not self.st.plan_deck:
                self.emit("The Plan deck is empty.", "no_plan")
                break
            pid = self.st.plan_deck.pop()
            self.st.players[inv.seat].plans.append(pid)
            called = self.pack.plan(pid).called
            if self.plans_hidden:  # EX-VIS-16: the name goes to the investigators only
                self.emit(f"{self.inv_name(inv)} gains a Plan.", "gain_plan")
                self.emit(f"{self.inv_name(inv)} gains {called}.", "gain_plan_team",
                          audience=self.peek_audience())
            else:
                self.emit(f"{self.inv_name(inv)} gains {called}.", "gain_plan")
        return True

    def eff_gain_points(self: Engine, eff: Any, ctx: dict[str, Any]) -> bool:
        self.gain_points(eff.n, "a card effect")
        return True

    # -- purify
    def purify_targets(self: Engine, eff: Any, origin: str) -> list[str]:
        if eff.room == "self":
            cands = [origin]
        elif eff.room == "adjacent":
            cands = list(self.geo.neighbours[origin])
        else:
            cands = [origin, *self.geo.neighbours[origin]]
        return [c for c in cands if self.purifiable(c)]

    def purifiable(self: Engine, cid: str) -> bool:
        cell = self.st.cells[cid]
        return cell.darkness > 0 and (not cell.shrouded or self.opts.purify_shrouded)

    def purify_room(self: Engine, cid: str, n: int, by: InvestigatorState | None = None
                    ) -> None:
        """`by`: the Investigator whose Purify Action it is, named in the line (stop 63's
        demos: "1 Darkness Token removed from the Plan Room (2 times)." said nobody's)."""
        cell = self.st.cells[cid]
        took = min(n, cell.darkness)
        cell.darkness -= took
        self.st.darkness_supply += took
        tokens = f"{took} Darkness {plural(took, 'Token')}"
        why = ""
        if by is not None and n > self.opts.purify_amount:
            # what lets this Purify take more than one (stop 64's demo: 2, no reason given)
            held = [self.pack.task(t).called for t in self.st.players[by.seat].ongoing
                    if any(m.kind == "purify_amount" for m in self.pack.task(t).ongoing)]
            why = f" ({held[0]})" if held else " (their ability)"
        self.emit(f"{self.inv_name(by)} purifies {self.the_cell(cid)}: {tokens} removed"
                  f"{why}." if by is not None else
                  f"{tokens} removed from {self.the_cell(cid)}.", "purify")

    def eff_purify(self: Engine, eff: Any, ctx: dict[str, Any]) -> bool:
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
    def heal(self: Engine, char: str) -> None:
        self.st.wounded.remove(char)
        self.st.lookouts.append(char)
        self.emit(f"{self.char_name(char)} is healed and becomes a Lookout.", "heal")

    def eff_heal(self: Engine, eff: Any, ctx: dict[str, Any]) -> bool:
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
    def move_targets(self: Engine, inv: InvestigatorState, reach: int) -> list[str]:
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

    def teleport_targets(self: Engine, inv: InvestigatorState) -> list[str]:
        ghosts = self.ghost_cells()
        return [c for c in self.geo.all if c != inv.cell and c not in ghosts]

    def move_pawn(self: Engine, inv: InvestigatorState, to: str) -> None:
        inv.cell = to
        self.emit(f"{self.inv_name(inv)} moves to {self.the_cell(to)}.", "move")

    def eff_move_self(self: Engine, eff: Any, ctx: dict[str, Any]) -> bool:
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
    def trade_partners(self: Engine, inv: InvestigatorState, reach: int | None) -> list[str]:
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

    def start_trade(self: Engine, ctx: dict[str, Any], partner: str) -> None:
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

    def eff_trade(self: Engine, eff: Any, ctx: dict[str, Any]) -> bool:
        inv = self.ctx_inv(ctx)
        partners = self.trade_partners(inv, None if eff.range == "any" else eff.range)
        if not partners:
            return True
        if len(partners) == 1:
            self.start_trade(ctx, partners[0])
        else:
            self.ask(ctx, "trade_partner", "Choose who to Trade with.", partners)
        return False

    def refund(self: Engine, ctx: dict[str, Any], why: str) -> None:
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

    def do_trade(self: Engine, ctx: dict[str, Any], partner: str, give: dict[str, int],
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
    def eff_pick_up_tools(self: Engine, eff: Any, ctx: dict[str, Any]) -> bool:
        inv = self.ctx_inv(ctx)
        if inv.cell is None:
            return True
        cell = self.st.cells[inv.cell]
        if not cell.dropped or cell.shrouded:
            return True
        self.ask(ctx, "pick_up", "Pick up dropped Tools one at a time, or take them all.", [],
                 picked=0)
        return False

    def unlock_room(self: Engine, inv: InvestigatorState, free: bool) -> None:
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
            f"{self.inv_name(inv)} unlocks {self.the_cell(inv.cell)}"
            + (" without a Key." if free else " with a Key."),
            "unlock",
        )
        if tokens:
            self.gain_points(tokens, "Exorcism Tokens from the unlocked Room")

    def eff_unlock(self: Engine, eff: Any, ctx: dict[str, Any]) -> bool:
        inv = self.ctx_inv(ctx)
        if inv.cell is None or not self.st.cells[inv.cell].face_down:
            return True
        free = eff.cost == "free" or self.unlock_free(inv)
        if not free and inv.tools.get("key", 0) < 1:
            return True
        self.unlock_room(inv, free)
        return True

    # -- swap_rooms (Architect)
    def swap_targets(self: Engine, origin: str | None, constraint: str) -> list[str]:
        if constraint == "any":
            return list(self.geo.house)
        if origin is None or self.st.cells[origin].kind != "house":
            return []
        return [c for c in self.geo.neighbours[origin] if self.st.cells[c].kind == "house"]

    def swap_cells(self: Engine, a: str, b: str) -> None:
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

    def eff_swap_rooms(self: Engine, eff: Any, ctx: dict[str, Any]) -> bool:
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
    def plans_hidden(self: Engine) -> bool:
        """The house option that hides investigators' Plans from the Ghost player (EX-VIS-16)."""
        return self.ova and self.opts.hidden_plans

    def names_hidden_card(self: Engine, action: Action) -> bool:
        """Whether this answer's label names a card hidden from the thread (see above)."""
        st = self.st
        if action.kind == K.CHOOSE_CARD:
            return st.peek_team
        if action.kind in (K.GHOST_MOVE, K.GHOST_DARKNESS):
            return True
        return action.kind == K.PLAN and self.plans_hidden

    # -- peek_haunt
    def peek_audience(self: Engine) -> Audience:
        if self.ova:
            return [s for s in self.st.seats if s != self.st.ghost_seat]
        return PUBLIC

    def eff_peek_haunt(self: Engine, eff: Any, ctx: dict[str, Any]) -> bool:
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
            st.haunt_seen = max(st.haunt_seen, len(cards))
            return True
        self.ask(ctx, "peek_order", "Choose the card to put on top of the Haunt deck next.",
                 cards, ordered=[])
        return False

    def eff_prevent_wound(self: Engine, eff: Any, ctx: dict[str, Any]) -> bool:
        return True  # only meaningful inside a Triage window (handled by the prompt)

    def eff_extra_action(self: Engine, eff: Any, ctx: dict[str, Any]) -> bool:
        self.st.actions_left += eff.n
        self.emit(f"+{eff.n} {plural(eff.n, 'Action')} this turn.", "extra_action")
        return True

    # -- use_adjacent_room_action (Occult Ongoing)
    def adjacent_room_targets(self: Engine, inv: InvestigatorState) -> list[str]:
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

    def eff_use_adjacent_room_action(self: Engine, eff: Any, ctx: dict[str, Any]) -> bool:
        targets = self.adjacent_room_targets(self.ctx_inv(ctx))
        if not targets:
            return True
        self.ask(ctx, "choose_cell", "Choose the adjacent Room whose Action you use.", targets,
                 purpose="adjacent_room")
        return False

    # -- escape_or_switch (the Foyer)
    def can_escape(self: Engine) -> bool:
        return self.st.points >= self.opts.exorcism_target or self.st.exorcised

    def eff_escape_or_switch(self: Engine, eff: Any, ctx: dict[str, Any]) -> bool:
        if not self.can_escape() and not self.st.lookouts:
            return True
        # The words offer what the answers offer (EX-FOYER-02, EX-AMB-47: before the Exorcism
        # the Foyer is only a switch; with no Lookout left, only the escape).
        if not self.can_escape():
            text = ("Switch your Character with a Lookout (escaping opens once the Ghosts "
                    "are exorcised).")
        elif self.st.lookouts:
            text = "Escape the House, or switch your Character with a Lookout."
        else:
            text = "Escape the House."
        self.ask(ctx, "foyer", text, [])
        return False

    def escape(self: Engine, inv: InvestigatorState) -> None:
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

    def switch(self: Engine, inv: InvestigatorState, lookout: str) -> None:
        """EX-FOYER-01, EX-AMB-19: Tools, Tasks and Plans stay with the player."""
        st = self.st
        old = inv.character
        st.lookouts.remove(lookout)
        if old:
            st.lookouts.append(old)
        inv.character = lookout
        inv.cell = "foyer"
        self.emit(f"{self.char_name(old)} steps out; {self.char_name(lookout)} takes over in the "
                  "Foyer.", "switch", inv=inv.id, was=old, char=lookout)

    def eff_custom(self: Engine, eff: Any, ctx: dict[str, Any]) -> bool:
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
    def effect_usable(self: Engine, eff: Any, ctx: dict[str, Any]) -> bool:
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

    def effects_usable(self: Engine, effects: Iterable[Any], ctx: dict[str, Any]) -> bool:
        return any(self.effect_usable(e, ctx) for e in effects)
