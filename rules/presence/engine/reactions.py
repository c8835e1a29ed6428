"""Reactions: room and global events that trigger cards (P-REACT-*)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules.core.types import Prompt
from rules.presence import content as C
from rules.presence.engine.board import (
    dump_effects,
)
from rules.presence.state import (
    Step,
)

if TYPE_CHECKING:
    from rules.presence.engine import Engine


class Reactions:
    """The part of `Engine` this module holds (see the module's docstring)."""

    # ------------------------------------------------------------------ reactions
    ROOM_EVENTS = frozenset({"die_enters_room", "pawn_enters_room", "door_closed"})
    GLOBAL_EVENTS = frozenset({"start_of_spirit_turn", "track_reduced", "game_start"})

    def fire(self: Engine, event: str, visitor: str | None = None, room: str | None = None,
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
                card = self.card_name(src) if ":" not in src else None  # else the character's
                label = f"{self.name(v.seat)}: {card or 'character ability'}"
                # Said as it resolves, as a drain's is: a fear card's "suffer 1 fear" read as
                # fear from nowhere.
                # A character's ability with what it does (stop 65's demo: "The Descendant's
                # ability takes effect." at game start, its effect left to guess)
                ability = self.pack.visitor(v.character).text.strip().rstrip(".")
                said = (f"{self.name(v.seat)}'s {card} takes effect." if card else
                        f"{self.name(v.seat)}'s ability takes effect"
                        + (f" ({ability})." if ability else "."))
                if r.optional:  # said once its owner uses it
                    groups.append((label, [Step(op="offer_reaction", args={
                        "seat": v.seat, "effs": dump_effects(r.effects), "ctx": ctx,
                        "name": card or "your ability", "said": said})]))
                    continue
                group = [Step(op="trigger_said", args={"text": said}),
                         self.effects_step(r.effects, ctx)]
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
                    label = (f"{self.card_name(dr.card)} (drain in the "
                             f"{self.room_name(dr.room)})")
                    # Said as it resolves: "Targeted: the Orphan. The Orphan suffers 1 fear."
                    # opened the spirit's turn with no word of the Piano Music that did it.
                    groups.append((label, [Step(op="trigger_said",
                                                args={"text": f"{label} takes effect."}),
                                           self.effects_step(r.effects, ctx)]))
        if len(groups) == 1:  # the common case: nothing to order, no prompt
            self.later(*groups[0][1])
        elif groups:
            self.later(Step(op="order_triggers", args={
                "labels": [lab for lab, _ in groups],
                "groups": [[s.model_dump() for s in g] for _, g in groups]}))

    def step_trigger_said(self: Engine, text: str) -> None:
        """A reaction (P-VIS-12: a fear card, an item, a character's ability) or a drain
        power's lasting effect (P-DRAIN-01) says itself before it resolves."""
        self.emit(text, "reaction")

    def step_order_triggers(
        self: Engine, labels: list[str], groups: list[list[dict[str, Any]]]) -> None:
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
                 "Several effects trigger at the same time: which resolves first?",
                 [(str(i), lab) for i, lab in enumerate(labels)], "order_triggers",
                 labels=labels, groups=groups)

    def on_order_triggers(self: Engine, option: str, prompt: Prompt) -> None:
        i = int(option)
        labels = list(prompt.data["labels"])
        groups = list(prompt.data["groups"])
        first = groups.pop(i)
        labels.pop(i)
        self.later(*[Step.model_validate(s) for s in first],
                   Step(op="order_triggers", args={"labels": labels, "groups": groups}))

    def step_offer_reaction(
        self: Engine, seat: str, effs: list[dict[str, Any]], ctx: dict[str, Any],
                            name: str, said: str = "") -> None:
        """PR-11: an optional reaction asks its owner."""
        v = self.vis(seat)
        if v.knocked_out or v.succumbed:
            return
        self.ask("choice", seat, f"Use the reaction of {name}?",
                 [("yes", "Use it"), ("no", "Do not use it")], "offer_reaction",
                 effs=effs, ctx=ctx, said=said)

    def on_offer_reaction(self: Engine, option: str, prompt: Prompt) -> None:
        if option == "yes":
            if prompt.data.get("said"):  # a prompt stored before it carried its line: none
                self.emit(str(prompt.data["said"]), "reaction")
            self.later(Step(op="effects", args={"effs": prompt.data["effs"], "i": 0,
                                                "ctx": dict(prompt.data["ctx"])}))

    def step_discard_item(self: Engine, seat: str, item: str) -> None:
        v = self.vis(seat)
        if item in v.items:
            v.items.remove(item)
            self.st.cellar.append(item)
            self.emit(f"{self.name(seat)} discards {self.card_name(item)} to the Cellar.",
                      "item")

    def power(self: Engine, card: str, which: str) -> C.SpiritPower:
        sc = self.pack.spirit_card(card)
        return sc.top if which == "top" else sc.bottom
