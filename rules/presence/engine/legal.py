"""Who acts now, ties (P-VIS-11), quick actions and every seat's legal actions."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules.core.types import Action, Prompt
from rules.presence import actions as K
from rules.presence import content as C
from rules.presence.engine.board import (
    SPIRIT_ACTION_CAP,
)
from rules.presence.state import (
    Step,
)

if TYPE_CHECKING:
    from rules.presence.engine import Engine


class LegalActions:
    """The part of `Engine` this module holds (see the module's docstring)."""

    # ------------------------------------------------------------------ who acts
    def to_act(self: Engine) -> set[str]:
        st = self.st
        if self.over():
            return set()
        if st.prompts:
            return set(st.prompts[-1].seats)
        if st.active:
            return {st.active}
        return set()

    def resting(self: Engine) -> bool:
        return not self.over() and not self.st.prompts and not self.st.queue


    # ------------------------------------------------------------------ ties (P-VIS-11)
    def window_waits(self: Engine) -> bool:
        """Declared quick actions wait on the active player's answer (the quick window)."""
        st = self.st
        return bool(st.declared) and not st.queue and len(st.prompts) == 1 \
            and st.prompts[0].data.get("then") == "quick_window" and not self.over()

    def priority(self: Engine) -> list[str]:
        """A-18: the active player, then the others counter-clockwise (to their right)."""
        seats = self.st.seats
        first = self.st.controller.get(self.st.active or "", self.st.active)
        i = seats.index(first) if first in seats else 0
        return [seats[(i - k) % len(seats)] for k in range(len(seats))]

    def tie_holder(self: Engine, seat: str) -> str | None:
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

    def declare_quick(self: Engine, seat: str, action: Action) -> bool:
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
                      "first or passes.", "action")
            mine = self.quick_actions(holder)
            self.ask("choice", holder,
                     "Quick actions were declared. Ties go to you: take a quick action "
                     "first, or pass and let them resolve.",
                     [("pass", "Pass: let the declared quick actions resolve")]
                     + [(f"q{i}", f"First: {self.label(holder, a)}")
                        for i, a in enumerate(mine)],
                     "quick_window", private=True,
                     actions=[a.model_dump() for a in mine])
        else:
            waiting = st.prompts[-1].seats[0] if st.prompts else active
            self.emit(f"{self.name(seat)} declares a quick action; {self.name(waiting)} acts "
                      "first or passes.", "action")
        return True

    def on_quick_window(self: Engine, option: str, prompt: Prompt) -> None:
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

    def step_declared_quick(self: Engine, seat: str, action: dict[str, Any]) -> None:
        a = Action.model_validate(action)
        if a not in self.quick_actions(seat, anytime=True):
            self.emit(f"{self.name(seat)}'s declared quick action is no longer possible.",
                      "action")
            return
        self.do_visitor(seat, a)

    def quick_actions(self: Engine, seat: str, anytime: bool = False,
                      cards: list[Action] | None = None) -> list[Action]:
        """P-VIS-10: quick actions of a visitor while the game rests, or while declared quick
        actions wait for the active player (P-VIS-11: one declaration per visitor).
        `anytime`: when a declared one comes to resolve, is it still possible? `cards`: the
        seat's `card_actions` when the caller has them already (the AI's play-outs list a
        visitor's actions thousands of times a decision)."""
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
        if cards is None:
            cards = self.card_actions(seat)
        out += [a for a in cards if a.params.get("speed") == "quick"]
        return out

    def card_actions(self: Engine, seat: str) -> list[Action]:
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

    def action_ok(self: Engine, seat: str, a: Any) -> bool:
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

    def visitor_main(self: Engine, seat: str) -> list[Action]:
        st = self.st
        if not (st.phase == "visitor" and st.active == seat and self.resting()):
            return []
        out: list[Action] = []
        cards: list[Action] | None = None
        if st.actions_left > 0:
            out.append(Action(kind=K.REST))
            if not st.must_rest:
                out.append(Action(kind=K.WALK))
                cards = self.card_actions(seat)
                out += [a for a in cards if a.params.get("speed") == "main"]
                ch = self.pack.manor.chamber
                # P-CHAMBER-05 / A-33: from any room, until the passage is found (public)
                if ch is not None and st.chamber is not None \
                        and st.chamber.passage_room is None and self.action_ok(seat, ch.uncover):
                    out.append(Action(kind=K.UNCOVER))
        out += self.quick_actions(seat, cards=cards)
        out = list(dict.fromkeys(out))
        out.append(Action(kind=K.END_TURN))
        return out

    def spirit_actions(self: Engine) -> list[Action]:
        st = self.st
        if not (st.phase == "spirit" and self.resting()):
            return []
        out: list[Action] = []
        if st.spirit_actions < SPIRIT_ACTION_CAP:
            for d in st.dice:
                if d.room is not None and not d.moved and not d.fresh:
                    out += [Action(kind=K.MOVE_DIE, params={"die": d.id, "to": r})
                            for r in self.die_neighbours(d.room)]
            can_increase = self.can_increase()
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

    def can_increase(self: Engine) -> bool:
        """Whether `increase_options` offers anything, without writing its labels (the
        spirit's legal actions ask it every time; the search asks it thousands of times)."""
        st = self.st
        cap = self.pack.options.max_presence
        on_board = [d for d in st.dice if d.room is not None]
        if any(d.value < cap and self.dark(str(d.room)) for d in on_board):
            return True
        if not (on_board or any(d.room is None for d in st.dice)):
            return False
        return any(self.dark(r) and not self.sealed(r) for r in st.rooms)

    def increase_options(self: Engine) -> list[tuple[str, str]]:
        """PR-16 / P-SPIRIT-09 / A-16."""
        st = self.st
        cap = self.pack.options.max_presence
        opts: list[tuple[str, str]] = []
        for d in st.dice:
            if d.room is not None and self.dark(d.room) and d.value < cap:
                opts.append((f"up:{d.id}", f"+1 on {self.die_label(d.id)}"))
        dark = [r for r in st.rooms if self.dark(r) and not self.sealed(r)]
        if self.supply() and dark:
            opts += [(f"add:{r}", f"Add a die showing 1 to the {self.room_name(r)}")
                     for r in dark]
        if dark:  # relocating is allowed even with dice in the supply
            opts += [(f"reloc:{d.id}", f"Relocate {self.die_label(d.id)} (it restarts at 1)")
                     for d in st.dice if d.room is not None]
        return opts

    def playable_dice(self: Engine, card: str) -> list[int]:
        sc = self.pack.spirit_card(card)
        need = min(self.power_need(sc.top), self.power_need(sc.bottom))
        return [d.id for d in self.st.dice if d.room is not None and d.value >= need]

    def power_need(self: Engine, p: C.SpiritPower) -> int:
        if p.manifestation and self.st.spirit.pawn_room is not None:
            return 99
        # A-36; manifestation drains through the pawn, not a drain marker (P-MANI-02)
        if p.drain and not p.manifestation \
                and len(self.st.drains) >= self.pack.options.drain_markers:
            return 99
        return max(p.requirement, p.spend)

    def legal(self: Engine, seat: str) -> list[Action]:
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
