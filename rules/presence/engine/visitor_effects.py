"""Effect primitives of the visitors' cards: movement, light, hope, items."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules.core.game import counted, plural
from rules.core.types import Prompt
from rules.presence.state import (
    Step,
)

if TYPE_CHECKING:
    from rules.presence.engine import Engine


class VisitorEffects:
    """The part of `Engine` this module holds (see the module's docstring)."""

    # ---- visitor group
    def eff_move(self: Engine, e: Any, ctx: dict[str, Any]) -> None:
        me = ctx.get("self")
        if me:
            self.later(Step(op="movement", args={"seat": me, "points": int(e.points)}))

    def step_movement(self: Engine, seat: str, points: int, spent: int = 0) -> None:
        """PR-09: each point opens/closes a nearby door or goes through an open one.
        `spent`: the points of this movement used so far (a stop says what was left)."""
        v = self.vis(seat)
        if points <= 0 or v.knocked_out or v.succumbed:
            return
        opts: list[tuple[str, str]] = []
        for did in self.doors_of(v.room):
            d = self.st.doors[did]
            beyond = self.room_name(self.other_side(did, v.room))
            if d.open:
                opts.append((f"go:{did}", f"Go through the open door to the {beyond}"))
                opts.append((f"close:{did}", f"Close the door to the {beyond}"))
            elif not d.locked:
                opts.append((f"open:{did}", f"Open the door to the {beyond}"))
        opts.append(("stop", "Stop moving"))
        self.ask("movement", seat,
                 f"Movement: {points} "
                 f"{plural(points, 'point')} left in the {self.room_name(v.room)}.",
                 opts, "movement", seat=seat, points=points, spent=spent)

    def on_movement(self: Engine, option: str, prompt: Prompt) -> None:
        seat = str(prompt.data["seat"])
        points = int(prompt.data["points"])
        spent = int(prompt.data.get("spent", 0))
        v = self.vis(seat)
        if option == "stop":
            # Said, or a card or action spent reads as lost (stop 65's demo: "The Orphan
            # plays Hide / Move 2 for Move 2." and then nothing).
            where = f"the {self.room_name(v.room)}"
            self.emit(f"{self.name(seat)} stays in {where}: the movement is not used."
                      if not spent else f"{self.name(seat)} stops in {where}, leaving "
                      f"{counted(points, 'movement point')} unused.", "move")
            return
        act, did = option.split(":", 1)
        d = self.st.doors[did]
        # the next point waits behind any reaction this point triggers (P-VIS-12)
        self.later(Step(op="movement", args={"seat": seat, "points": points - 1,
                                             "spent": spent + 1}))
        if act == "go":
            dest = self.other_side(did, v.room)
            v.room = dest
            self.emit(f"{self.name(seat)} moves to the {self.room_name(dest)}.", "move")
            self.fire("enter_room", visitor=seat, room=dest)
        elif act == "open":
            d.open = True
            self.emit(f"{self.name(seat)} opens the door {self.door_name(did)}.", "door")
        else:
            d.open = False
            self.emit(f"{self.name(seat)} closes the door {self.door_name(did)}.", "door")
            self.fire("door_closed", rooms=list(d.rooms), by=seat)

    def door_name(self: Engine, did: str) -> str:
        a, b = self.st.doors[did].rooms
        return f"{self.room_name(a)}–{self.room_name(b)}"

    def eff_investigate(self: Engine, e: Any, ctx: dict[str, Any]) -> None:
        me = ctx.get("self")
        if not me:
            return
        room = self.vis(me).room
        toks = self.st.tokens.get(room, [])
        if not toks:
            # "Investigate Twice" in a room its first Investigate emptied: said, so the
            # table does not wonder where the second went. A kind of its own: nothing
            # happened, no turning point of the recap (stop 67's demo listed one).
            self.emit(f"{self.name(me)} finds no clue token left to investigate in the "
                      f"{self.room_name(room)}.", "investigate_none")
            return
        if len(toks) == 1:
            self.investigate(me, room, 0)
            return
        opts = [(str(k), f"{'Spirit' if t.kind == 'spirit' else 'Small'} clue #{k + 1}")
                for k, t in enumerate(toks)]
        self.ask("target", me, "Investigate which clue token?", opts, "investigate",
                 seat=me, room=room, owner=me)

    def on_investigate(self: Engine, option: str, prompt: Prompt) -> None:
        self.investigate(str(prompt.data["seat"]), str(prompt.data["room"]), int(option))

    def investigate(self: Engine, seat: str, room: str, k: int) -> None:
        """P-CLUE-02: reveal the token, resolve its effects in order, discard it."""
        st = self.st
        tok = st.tokens[room].pop(k)
        if not st.tokens[room]:
            del st.tokens[room]
        if tok.kind == "spirit":
            clue: Any = self.pack.spirit_clue_of(tok.id)
            st.spirit_clue_discard.append(tok.id)
        else:
            clue = self.pack.small_clue_of(tok.id)
            st.small_clue_discard.append(tok.id)
        # A small clue's name says its kind ("Small Clue: Action"): not "the small clue
        # Small Clue: Action".
        called = clue.name if clue.name.lower().startswith(f"{tok.kind} clue") \
            else f"the {tok.kind} clue {clue.name}"
        self.emit(f"{self.name(seat)} investigates and reveals {called}.", "investigate")
        self.later(self.effects_step(clue.effects, self.visitor_ctx(seat, clue.name)))
        self.fire("investigate", visitor=seat, room=room)
        self.fire("reveal_spirit_clue" if tok.kind == "spirit" else "reveal_small_clue",
                  visitor=seat, room=room)

    def eff_draw_clue(self: Engine, e: Any, ctx: dict[str, Any]) -> None:
        steps = [Step(op="draw_clue", args={"seat": s})
                 for s in self.who(ctx, e.who) for _ in range(e.n)]
        self.later(*steps)

    def step_draw_clue(self: Engine, seat: str) -> None:
        if not self.vis(seat).succumbed:
            self.draw_clue(seat)

    def eff_draw_item(self: Engine, e: Any, ctx: dict[str, Any]) -> None:
        st = self.st
        for s in self.who(ctx, e.who):
            drawn = [st.item_deck.pop() for _ in range(min(e.n, len(st.item_deck)))]
            if not drawn:
                continue
            keep = len(drawn) if e.keep is None else min(e.keep, len(drawn))
            if keep >= len(drawn):
                for it in drawn:
                    self.gain_item(s, it)
            else:
                self.later(Step(op="keep_items", args={"seat": s, "drawn": drawn,
                                                       "keep": keep}))

    def step_keep_items(self: Engine, seat: str, drawn: list[str], keep: int) -> None:
        if keep <= 0 or not drawn:
            self.st.cellar.extend(drawn)
            return
        self.ask("choice", seat, f"Search: keep {keep} of these items (the rest go to the "
                 "Cellar).", [(i, f"Keep {self.card_name(i)}") for i in drawn], "keep_item",
                 seat=seat, drawn=drawn, keep=keep)

    def on_keep_item(self: Engine, option: str, prompt: Prompt) -> None:
        seat = str(prompt.data["seat"])
        drawn = [x for x in prompt.data["drawn"] if x != option]
        self.gain_item(seat, option)
        self.later(Step(op="keep_items", args={"seat": seat, "drawn": drawn,
                                               "keep": int(prompt.data["keep"]) - 1}))

    def eff_draw_action(self: Engine, e: Any, ctx: dict[str, Any]) -> None:
        for s in self.who(ctx, e.who):
            got = self.draw_actions(s, e.n)
            self.emit(f"{self.name(s)} draws {counted(got, 'action card')}.", "draw")

    def eff_discard(self: Engine, e: Any, ctx: dict[str, Any]) -> None:
        why = self.source_words(ctx)
        steps = [Step(op="discard_pick", args={"seat": s, "cards": e.cards,
                                               "up_to": e.up_to, "left": e.n, "why": why})
                 for s in self.who(ctx, e.who)]
        self.later(*steps)

    def source_words(self: Engine, ctx: dict[str, Any]) -> str:
        """What an effect comes from, as players name it ("Piece Together", "the script",
        "Fear of Sleep"), or "" where its source has no such name."""
        kind, _, rest = str(ctx.get("source") or "").partition(" ")
        if kind in ("reaction", "drain"):
            name = self.card_name(rest)
            return "" if name == rest else name
        if kind == "secret":
            return f"the secret {rest}"
        return " ".join(w for w in (kind, rest) if w)

    def step_discard_pick(self: Engine, seat: str, cards: str, up_to: bool, left: int,
                          why: str = "") -> None:
        """Discard `left` more cards: the visitor's own (P-2P-04: in a two-player game its
        own action cards and the clue cards of either character), each said whose."""
        pool = [c for c in self.own_cards(seat) if cards == "any"
                or (cards == "action") == self.is_action_card(c)]
        if left <= 0 or not pool:
            return
        two = self.partner(seat) is not None
        opts = [(c, "Discard " + (f"{self.listed([seat])}'s " if two and self.is_action_card(c)
                                  else "the clue card " if two else "") + self.card_name(c))
                for c in pool]
        if up_to:
            opts.append(("done", "Discard no more"))
        self.later(Step(op="discard_pick", args={"seat": seat, "cards": cards,
                                                 "up_to": up_to, "left": left - 1, "why": why}))
        # Why, and in a two-player game whose (stop 65's demo: "Discard a card (1 to go)."
        # after Piece Together, the buttons not saying whose "Move 2 / Comfort" it was).
        lead = f"{why}: {self.listed([seat])} discards" if why else \
            f"{self.listed([seat])} discards"
        self.ask("choice", seat, f"{lead[0].upper()}{lead[1:]} a card ({left} to go).", opts,
                 "discard_pick", private=True, seat=seat)

    def on_discard_pick(self: Engine, option: str, prompt: Prompt) -> None:
        if option == "done":
            self.st.queue = [s for s in self.st.queue if s.op != "discard_pick"
                             or s.args["seat"] != prompt.data["seat"]]
            return
        self.discard_card(str(prompt.data["seat"]), option)

    def eff_suffer_fear(self: Engine, e: Any, ctx: dict[str, Any]) -> None:
        by = "spirit" if self.is_spirit_ctx(ctx) else str(ctx["owner"])
        for s in self.who(ctx, e.who):
            if ctx.get("fear_card") and self.replaced("fear_card_would_cause_fear", s):
                continue
            self.suffer_fear(s, e.n, by)

    def eff_cure_fear(self: Engine, e: Any, ctx: dict[str, Any]) -> None:
        for s in self.who(ctx, e.who):
            if self.vis(s).fear == 0:  # said, not silent (stop 65's demo: Guidance)
                self.emit(f"{self.name(s)} has no fear to cure.", "fear")
                continue
            self.cure_fear(s, e.n)

    def eff_trash_fear_card(self: Engine, e: Any, ctx: dict[str, Any]) -> None:
        # pooled: n in total among all the targets, the owner picks (the Dark Board's
        # Dining Hall, G-18); otherwise n for each; "up to" stops at the first "done"
        groups = [self.who(ctx, e.who)] if e.pooled else [[s] for s in self.who(ctx, e.who)]
        for g in groups:  # said, not silent (stop 65's demo: "Targeted: …" after Warmth)
            if g and not any(self.vis(s).fear_cards for s in g):
                self.emit(f"{self.listed(g)[0].upper()}{self.listed(g)[1:]} "
                          f"{'has' if len(g) == 1 else 'have'} no fear card to trash.", "fear")
        groups = [g for g in groups if any(self.vis(s).fear_cards for s in g)]
        self.later(*[Step(op="trash_fear", args={"seats": g, "chooser": ctx["owner"],
                                                 "up_to": e.up_to, "left": e.n})
                     for g in groups if g])

    def step_trash_fear(
        self: Engine, seats: list[str], chooser: str, up_to: bool, left: int) -> None:
        cards = [(s, c) for s in seats for c in self.vis(s).fear_cards]
        if left <= 0 or not cards:
            return
        opts = [(f"{s}|{c}", f"Trash {self.card_name(c)} ({self.name(s)})") for s, c in cards]
        if up_to:
            opts.append(("done", "Trash no more"))
        if len(opts) == 1:
            self.trash_fear(*cards[0])
            self.later(Step(op="trash_fear", args={"seats": seats, "chooser": chooser,
                                                   "up_to": up_to, "left": left - 1}))
            return
        self.ask("choice", chooser, "Trash which fear card?", opts, "trash_fear", seats=seats,
                 up_to=up_to, left=left)

    def on_trash_fear(self: Engine, option: str, prompt: Prompt) -> None:
        if option == "done":
            return
        seat, card = option.split("|", 1)
        self.trash_fear(seat, card)
        self.later(Step(op="trash_fear", args={
            "seats": list(prompt.data["seats"]), "chooser": prompt.seats[0],
            "up_to": bool(prompt.data["up_to"]), "left": int(prompt.data["left"]) - 1}))

    def trash_fear(self: Engine, seat: str, card: str) -> None:
        v = self.vis(seat)
        v.fear_cards.remove(card)
        self.st.clue_trash.append(card)  # P-FEAR-06: trashed when removed
        self.emit(f"{self.name(seat)}'s fear card {self.card_name(card)} is trashed.", "fear")

    def replaced(self: Engine, event: str, seat: str) -> bool:
        """A ``*_would_*`` window: the first live reaction of `seat` on `event` whose
        effects ``prevent`` it replaces the event (its card is discarded if it says so)."""
        v = self.vis(seat)
        if v.succumbed:
            return False
        sources: list[tuple[str, Any]] = []
        for it in v.items:
            r = self.pack.item_of(it).reaction
            if r is not None:
                sources.append((it, r))
        sources += [(c, self.pack.fear_card(c).reaction) for c in v.fear_cards]
        sources += [(f"char:{k}", r)
                    for k, r in enumerate(self.pack.visitor(v.character).reactions)]
        for src, r in sources:
            if r.trigger.event != event or not any(e.op == "prevent" for e in r.effects):
                continue
            ctx = self.visitor_ctx(seat, f"reaction {src}")
            if not all(self.cond(c, ctx) for c in r.trigger.only_if):
                continue
            self.emit(f"{self.name(seat)}'s {self.card_name(src)} prevents it "
                      "(reaction).", "reaction")
            if r.discard_this and src in v.items:
                v.items.remove(src)
                self.st.cellar.append(src)
            rest = [e for e in r.effects if e.op != "prevent"]
            if rest:
                self.later(self.effects_step(rest, ctx))
            return True
        return False

    def smother(self: Engine, seat: str, by: str) -> None:
        v = self.vis(seat)
        if not v.candle_lit:
            return
        if by != seat and self.replaced("candle_would_be_smothered", seat):
            return
        v.candle_lit = False
        self.emit(f"{self.name(seat)}'s candle is smothered.", "candle")
        self.fire("candle_smothered", visitor=seat, by=by)

    def eff_smother_candle(self: Engine, e: Any, ctx: dict[str, Any]) -> None:
        by = "spirit" if self.is_spirit_ctx(ctx) else str(ctx["owner"])
        for s in self.who(ctx, e.who):
            self.smother(s, by)

    def eff_relight_candle(self: Engine, e: Any, ctx: dict[str, Any]) -> None:
        for s in self.who(ctx, e.who):
            v = self.vis(s)
            if not v.candle_lit and not v.knocked_out:
                v.candle_lit = True
                self.emit(f"{self.name(s)}'s candle is relit.", "candle")
            else:  # said, not silent: a card played for it otherwise seemed to do nothing
                self.emit(f"{self.name(s)}'s candle is not relit: "
                          + ("the visitor is knocked out." if v.knocked_out
                             else "it is already lit."), "candle")

    def eff_light_fireplace(self: Engine, e: Any, ctx: dict[str, Any]) -> None:
        if self.origin(ctx) == self.pack.manor.fireplace_room and not self.st.fireplace_lit:
            self.st.fireplace_lit = True
            self.emit("The fireplace is lit.", "light")
