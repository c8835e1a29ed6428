"""The effect runner: effect contexts, running a card's effect primitives, and the
structural primitives (sequences, choices, conditions)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rules.core.types import Prompt
from rules.presence.engine.board import (
    dump_effects,
    parse_effect,
)
from rules.presence.state import (
    Step,
)

if TYPE_CHECKING:
    from rules.presence.engine import Engine


class Effects:
    """The part of `Engine` this module holds (see the module's docstring)."""

    # ------------------------------------------------------------------ effect contexts
    def visitor_ctx(self: Engine, seat: str, source: str, **extra: Any) -> dict[str, Any]:
        return {"owner": seat, "self": seat, "origin": self.vis(seat).room, "die": None,
                "targets": [], "source": source, **extra}

    def spirit_ctx(self: Engine, die: int | None, origin: str | None, source: str,
                   **extra: Any) -> dict[str, Any]:
        return {"owner": self.st.spirit_seat, "self": None, "origin": origin, "die": die,
                "targets": [], "source": source, **extra}

    def effects_step(self: Engine, effects: Any, ctx: dict[str, Any]) -> Step:
        return Step(op="effects", args={"effs": dump_effects(effects), "i": 0, "ctx": ctx})

    def origin(self: Engine, ctx: dict[str, Any]) -> str | None:
        """A-56: a spirit power's origin is its die's room (it moves with the die)."""
        die = ctx.get("die")
        if die is not None and ctx["owner"] == self.st.spirit_seat:
            d = self.die(int(die))
            if d.room is not None:
                return d.room
        if ctx.get("pawn") and self.st.spirit.pawn_room:
            return self.st.spirit.pawn_room
        if ctx.get("self") is not None:
            return self.vis(ctx["self"]).room
        return ctx.get("origin")

    def who(self: Engine, ctx: dict[str, Any], ref: str) -> list[str]:
        if ref == "self":
            return [ctx["self"]] if ctx.get("self") else []
        if ref == "target":
            return [t for t in ctx.get("targets", []) if not self.vis(t).succumbed]
        if ref == "trigger_visitor":
            tv = ctx.get("trigger_visitor")
            return [tv] if tv else []
        return []

    def cond(self: Engine, c: Any, ctx: dict[str, Any]) -> bool:
        res = self._cond(c, ctx)
        return res if c.value else not res

    def _cond(self: Engine, c: Any, ctx: dict[str, Any]) -> bool:
        st = self.st
        t = c.test
        room = self.origin(ctx)
        if t == "room_dark":
            return room is not None and self.dark(room)
        if t == "fireplace_lit":
            return st.fireplace_lit
        if t == "in_card_room":
            me = ctx.get("self")
            return me is not None and ctx.get("card_room") == self.vis(str(me)).room
        if t == "room_is":
            return room == c.room
        if t == "floor_is":
            return room is not None and self.pack.room(room).floor == c.floor
        if t in ("alone", "bonded", "knocked_out", "hand_size_gte", "candle_lit"):
            seats = self.who(ctx, c.who)
            if not seats:
                return False
            v = self.vis(seats[0])
            if t == "alone":
                return self.alone(v.seat)
            if t == "bonded":
                return st.bonded == v.seat
            if t == "knocked_out":
                return v.knocked_out
            if t == "candle_lit":
                return v.candle_lit
            cards = [x for x in v.hand if c.cards == "any"
                     or (c.cards == "action") == self.is_action_card(x)]
            return len(cards) >= c.n
        if t == "fear_cards_in_play_gte":
            return sum(len(v.fear_cards) for v in st.visitors.values()) >= c.n
        if t == "die_nearby":
            return room is not None and bool(self.dice_in(room))
        if t == "other_visitor_nearby":
            return any(v.room == room and v.seat != ctx.get("self")
                       for v in self.active_visitors())
        if t == "visitor_nearby":
            return any(v.room == room and (c.candle_lit is None or v.candle_lit == c.candle_lit)
                       for v in self.active_visitors())
        if t == "other_light_source":
            if room is None:
                return False
            if st.fireplace_lit and room == self.pack.manor.fireplace_room:
                return True
            return any(v.candle_lit and v.room == room and v.seat != ctx.get("self")
                       for v in self.surviving())
        if t == "pawn_on_board":
            return st.spirit.pawn_room is not None
        return False  # pragma: no cover


    # ------------------------------------------------------------------ the effect runner
    def step_effects(self: Engine, effs: list[dict[str, Any]], i: int, ctx: dict[str, Any]) -> None:
        if i >= len(effs):
            return
        e = parse_effect(effs[i])
        if "cid" not in ctx:
            self.st.prompt_seq += 1
            ctx["cid"] = self.st.prompt_seq
        self.later(Step(op="effects", args={"effs": effs, "i": i + 1, "ctx": ctx}))
        if not all(self.cond(c, ctx) for c in e.only_if):
            return
        handler: Callable[[Any, dict[str, Any]], None] | None = getattr(
            self, "eff_" + e.op, None)
        if handler is None:  # pragma: no cover - every op has a handler
            self.emit(f"(effect {e.op} is not supported yet)", "info")
            return
        handler(e, ctx)

    def ctx_step(self: Engine, cid: int) -> dict[str, Any] | None:
        for s in self.st.queue:
            if s.op == "effects" and s.args["ctx"].get("cid") == cid:
                ctx: dict[str, Any] = s.args["ctx"]
                return ctx
        return None

    def sub(self: Engine, effects: Any, ctx: dict[str, Any]) -> None:
        """Run a nested list (a choice branch, reveal_secret's outcome) next, same context."""
        sub_ctx = dict(ctx)
        sub_ctx.pop("cid", None)
        self.later(self.effects_step(effects, sub_ctx))

    def is_spirit_ctx(self: Engine, ctx: dict[str, Any]) -> bool:
        return bool(ctx["owner"] == self.st.spirit_seat)


    # ---- structure
    def candidates(self: Engine, e: Any, ctx: dict[str, Any]) -> list[str]:
        st = self.st
        room = self.origin(ctx)
        pool = [v for v in st.visitors.values() if not v.succumbed
                and (e.allow_knocked_out or not v.knocked_out)]  # P-KO-04
        if e.exclude_self:
            pool = [v for v in pool if v.seat != ctx.get("self")]
        if e.candle_lit is not None:
            pool = [v for v in pool if v.candle_lit == e.candle_lit]
        sel = e.selector
        if sel == "nearby_visitor":
            pool = [v for v in pool if v.room == room]
        elif sel == "alone_nearby_visitor":
            pool = [v for v in pool if v.room == room and self.alone(v.seat)]
        elif sel == "visitor_within_hearing":
            rooms = self.hearing_rooms(room) if room else set()
            pool = [v for v in pool if v.room in rooms]
        elif sel == "bonded_visitor":
            pool = [v for v in pool if v.seat == st.bonded]
        return [v.seat for v in pool]

    def eff_target(self: Engine, e: Any, ctx: dict[str, Any]) -> None:
        """PR-04 / P-SPIRIT-13: the owner picks; none = the targeted effects do nothing."""
        cands = self.candidates(e, ctx)
        count = len(cands) if e.count == "all" else int(e.count)
        if len(cands) <= count:
            ctx["targets"] = cands
            if cands:
                self.note_targets(ctx)
            else:
                self.note_no_target(e, ctx)
            return
        ctx["targets"] = []
        self.ask("target", str(ctx["owner"]), "Choose a visitor.",
                 [(s, f"Target {self.name(s)}") for s in cands], "target", cid=ctx["cid"],
                 left=count, cands=cands)

    def on_target(self: Engine, option: str, prompt: Prompt) -> None:
        ctx = self.ctx_step(int(prompt.data["cid"]))
        if ctx is None:
            return
        ctx["targets"] = [*ctx["targets"], option]
        left = int(prompt.data["left"]) - 1
        cands = [c for c in prompt.data["cands"] if c != option]
        if left > 0 and cands:
            self.ask("target", prompt.seats[0], "Choose another visitor.",
                     [(s, f"Target {self.name(s)}") for s in cands], "target",
                     cid=prompt.data["cid"], left=left, cands=cands)
        else:
            self.note_targets(ctx)

    def note_targets(self: Engine, ctx: dict[str, Any]) -> None:
        if self.is_spirit_ctx(ctx):
            self.st.targeted += [t for t in ctx["targets"] if t not in self.st.targeted]
        if ctx["targets"]:
            self.emit("Targeted: " + self.listed(ctx["targets"]) + ".",
                      "target")

    def note_no_target(self: Engine, e: Any, ctx: dict[str, Any]) -> None:
        """Say that a power found nobody to target (P-SPIRIT-13), or a table reads a spent
        power followed by silence. Its words come from the selector, whose tests (rooms,
        hearing, alone, the bond) are all on the board, as its "Targeted:" line is."""
        room = self.origin(ctx)
        where = f"the {self.room_name(room)}" if room else None
        other = "other " if e.exclude_self else ""
        why = {
            "nearby_visitor": f"no {other}visitor is in {where}" if where else None,
            "alone_nearby_visitor": f"no {other}visitor in {where} is alone" if where else None,
            "visitor_within_hearing": (f"no {other}visitor is within hearing of {where}"
                                       if where else None),
            "bonded_visitor": "no visitor is bonded to the spirit",
        }.get(e.selector) or f"no {other}visitor can be targeted"
        if not e.allow_knocked_out and self.candidates(
                e.model_copy(update={"allow_knocked_out": True}), ctx):
            why = "a knocked-out visitor cannot be targeted"  # P-KO-04
        self.emit(f"Nobody to target: {why}, so the effects on a target do nothing.", "target")

    def can_do(self: Engine, effects: Any, ctx: dict[str, Any], seat: str | None) -> bool:
        """P-TIME-12: whether a branch of an either-choice can be done at all."""
        for eff in effects:
            # each branch effect is checked on the visitor it names (Comfort's "target"),
            # not on the choice's own subject (P-TIME-12, P-DIST-02)
            ref = getattr(eff, "who", None)
            named = self.who(ctx, ref) if ref is not None else []
            subject = named[0] if named else seat
            if eff.op == "discard" and subject:
                v = self.vis(subject)
                pool = [c for c in v.hand if eff.cards == "any"
                        or (eff.cards == "action") == self.is_action_card(c)]
                if len(pool) < (1 if eff.up_to else eff.n):
                    return False
            if eff.op == "smother_candle" and subject and not self.vis(subject).candle_lit:
                return False
            if eff.op == "trash_fear_card" and subject and not self.vis(subject).fear_cards:
                return False
            if eff.op == "cure_fear" and subject and self.vis(subject).fear == 0:
                return False
            if eff.op in ("increase_presence", "reduce_presence", "move_die") \
                    and eff.die == "nearby":
                room = self.origin(ctx)
                if room is None or not self.dice_in(room):
                    return False
        return True

    def eff_choice(self: Engine, e: Any, ctx: dict[str, Any]) -> None:
        st = self.st
        affected = self.who(ctx, e.who)
        seat = affected[0] if affected else None
        if seat is None and (e.who != "self" or self.is_spirit_ctx(ctx)):
            return  # P-TIME-03: nobody to affect
        if e.chooser == "spirit":
            chooser = st.spirit_seat
        elif e.chooser == "owner" or seat is None:
            chooser = str(ctx["owner"])
        else:
            chooser = seat
        if e.coloured and seat is not None and st.bonded == seat:
            chooser = st.spirit_seat  # P-BOND-03
        if chooser in st.visitors and st.visitors[chooser].succumbed:
            return
        if e.kind == "may":
            if not self.can_do(e.options[0], ctx, seat):
                # Nothing to choose (stop 66's demo: Memory's "the spirit may increase a
                # presence die in this room" asked, and "chosen", where no die stood): not
                # asked, the branch says what it cannot do ("… has no fear to cure."), but a
                # discard it cannot make whole is a price not paid in part
                if not any(x.op == "discard" for x in e.options[0]):
                    self.sub(e.options[0], ctx)
                return
            opts = [("0", "Yes: " + self.effects_text(e.options[0])), ("no", "No")]
        else:
            able = [k for k, br in enumerate(e.options) if self.can_do(br, ctx, seat)]
            able = able or list(range(len(e.options)))
            if len(able) == 1:
                self.sub(e.options[able[0]], ctx)
                return
            opts = [(str(k), self.effects_text(e.options[k]).capitalize()) for k in able]
        # "Choose for the Orphan: yes or no?" (it read "Choose for The Orphan:", a capital
        # mid-line and a colon with nothing after it, on the board's turn line).
        # The spirit's own "may" in a visitor's effect (Memory's die) is not made for the
        # visitor (stop 66's demo: "Choose for the Descendant: increase a presence die…")
        # Nor for the very visitor who chooses (stop 66's demo: the Orphan's own player read
        # "Choose for the Orphan: …" after "Ada (the Orphan):").
        whom = (f" for {self.listed([seat])}"
                if seat and e.chooser != "spirit" and chooser != seat else "")
        # What the choice is about, from the effect's own (public) card text, every branch
        # named whether or not it can be done now (stop 63's demo: "…: yes or no?" alone).
        ask = (f"{self.effects_text(e.options[0])}? Yes or no." if e.kind == "may"
               else " or ".join(self.effects_text(o) for o in e.options) + "?")
        self.ask("choice", chooser, ("Coloured choice" if e.coloured else "Choose")
                 + f"{whom}: {ask}", opts, "choice",
                 branches=[dump_effects(b) for b in e.options], ctx=dict(ctx),
                 said=self.effects_text(e.options[0]), may=e.kind == "may",
                 whom=None if e.chooser == "spirit" else seat)  # "for" only whom it affects

    def on_choice(self: Engine, option: str, prompt: Prompt) -> None:
        if option == "no":
            # A declined "may" is said (stop 65's demo: Guidance's "Targeted: the
            # Descendant." was followed by silence); coloured choices are public (H-40).
            said = prompt.data.get("said")
            if said:
                chooser = prompt.seats[0]
                who = (self.name(chooser) if chooser in self.st.visitors else "The spirit")
                whom = prompt.data.get("whom")
                other = (f" for {self.listed([str(whom)])}"
                         if whom and whom != chooser else "")
                self.emit(f"{who} chooses{other} not to {said}.", "choice")
            return
        ctx = dict(prompt.data["ctx"])
        ctx.pop("cid", None)
        said = prompt.data.get("said")
        branch = prompt.data["branches"][int(option)]
        speaks = [b.get("op") for b in branch] == ["move_die"] and \
            branch[0].get("die") == "from_adjacent"  # its own question says what it does
        if (said and prompt.data.get("may") and prompt.seats[0] == self.st.spirit_seat
                and not self.is_spirit_ctx(ctx) and not speaks):
            # The spirit's "may" inside a visitor's effect (a spirit clue's "the spirit may
            # move a die") is told as the spirit's (stop 65's demo: Cold Hand's die move came
            # mid-turn with no cause).
            whom = prompt.data.get("whom")
            other = f" for {self.listed([str(whom)])}" if whom else ""
            self.emit(f"The spirit chooses{other} to {said}.", "choice")
        self.later(Step(op="effects", args={"effs": prompt.data["branches"][int(option)],
                                            "i": 0, "ctx": ctx}))

    def eff_custom(self: Engine, e: Any, ctx: dict[str, Any]) -> None:
        self.emit(f"(custom effect {e.name} has no handler)", "info")

    def effects_text(self: Engine, effects: Any) -> str:
        """A short description of an effect list, for choice labels."""
        return ", then ".join(self.effect_text(e) for e in effects)

    def effect_text(self: Engine, e: Any) -> str:
        op = e.op
        n = getattr(e, "n", 1)
        many = f"{n} " if isinstance(n, int) and n != 1 else "a "  # "draw a clue card"
        cards = getattr(e, "cards", "any")
        kind = {"any": "card", "action": "action card", "clue": "clue card"}.get(cards, "card")
        texts = {
            "bond": "accept the bond",
            "discard": f"discard {n} {kind}{'s' if n != 1 else ''}",
            "suffer_fear": f"suffer {n} fear",
            "cure_fear": f"cure {n} fear",
            "draw_clue": f"draw {many}clue card{'s' if n != 1 else ''}",
            "draw_item": f"draw {'an ' if many == 'a ' else many}item card{'s' if n != 1 else ''}",
            "draw_action": f"draw {'an ' if many == 'a ' else many}action card"
                           f"{'s' if n != 1 else ''}",
            "smother_candle": "smother the candle",
            "relight_candle": "relight the candle",
            "trash_fear_card": f"trash {many}fear card{'s' if n != 1 else ''}",
            "move": f"move {getattr(e, 'points', 1)}",
            "investigate": "investigate",
            "increase_presence": f"increase a presence die by {n}",
            "reduce_presence": f"reduce a presence die by {n}",
            "move_die": "move a presence die",
            "door": "change a door",
            "adjust_track": f"{'increase' if getattr(e, 'delta', 0) > 0 else 'reduce'} "
                            f"{getattr(e, 'marker', '')}",
        }
        return texts.get(op, op.replace("_", " "))
