"""Effect primitives on the house: doors, secrets, the clue deck, inspecting."""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING, Any

from rules.core.game import plural
from rules.core.types import Action, Prompt
from rules.presence import actions as K
from rules.presence.engine.board import (
    dump_effects,
)
from rules.presence.engine.core import clue_title, secret_title
from rules.presence.state import (
    DoorState,
    Step,
)

if TYPE_CHECKING:
    from rules.presence.engine import Engine


class HouseEffects:
    """The part of `Engine` this module holds (see the module's docstring)."""

    # ---- doors, secrets, clue deck, inspect
    def door_acts(self: Engine, did: str, acts: Any) -> list[str]:
        d = self.st.doors[did]
        passage = self.pack.manor.chamber is not None and did == \
            self.pack.manor.chamber.passage_id
        out = []
        for a in acts:
            ok = {
                "open": not d.open and not d.locked,  # P-MOVE-04
                "close": d.open,
                "lock": not d.locked and not passage,  # P-MOVE-08
                "unlock": d.locked,
                "close_and_lock": (d.open or not d.locked) and not passage,
            }.get(a, False)
            if ok:
                out.append(a)
        return out

    def eff_door(self: Engine, e: Any, ctx: dict[str, Any]) -> None:
        room = self.origin(ctx)
        if room is None:
            return
        opts = [(f"{a}:{did}", f"{a.replace('_', ' ').capitalize()} the door "
                 f"{self.door_name(did)}")
                for did in self.doors_of(room) for a in self.door_acts(did, e.actions)]
        if not opts:
            return
        self.ask("target", str(ctx["owner"]), "Choose a door and what to do with it.",
                 opts, "door", then_may=list(e.then_may), by=str(ctx["owner"]))

    def on_door(self: Engine, option: str, prompt: Prompt) -> None:
        act, did = option.split(":", 1)
        d = self.st.doors[did]
        by = str(prompt.data["by"])
        if act in ("open", "close"):
            d.open = act == "open"
        if act in ("lock", "close_and_lock"):
            d.locked = True
        if act == "close_and_lock":
            d.open = False
        if act == "unlock":
            d.locked = False
        done = {"open": "opens", "close": "closes", "lock": "is locked", "unlock": "is unlocked",
                "close_and_lock": "is closed and locked"}[act]
        self.emit(f"The door {self.door_name(did)} {done}.", "door")
        if act in ("close", "close_and_lock", "lock"):
            self.fire("door_closed", rooms=list(d.rooms),
                      by="spirit" if by == self.st.spirit_seat else by)
        then_may = prompt.data.get("then_may") or []
        free = self.door_acts(did, then_may)
        if free:
            opts = [(f"{a}:{did}", f"Also {a.replace('_', ' ')} it") for a in free]
            opts.append(("no", "Leave it"))
            self.ask("choice", by, "You may also change this door for free.", opts,
                     "door_free", by=by)

    def on_door_free(self: Engine, option: str, prompt: Prompt) -> None:
        if option != "no":
            self.on_door(option, Prompt(id="x", kind="target", seats=[], text="",
                                        data={"by": prompt.data["by"], "then_may": []}))

    def eff_reveal_secret(self: Engine, e: Any, ctx: dict[str, Any]) -> None:
        owner = str(ctx["owner"])
        opts = [(str(s.position), f"Position {s.position} ({len(s.discards)} clue "
                                  f"{plural(len(s.discards), 'card')} "
                 "beneath)") for s in self.st.secrets if not s.revealed]
        if not opts:
            return
        data: dict[str, Any] = {"min": int(e.min_matching), "success": dump_effects(e.on_success),
                                "fail": dump_effects(e.on_fail), "ctx": dict(ctx),
                                "owner": owner}
        if owner in self.st.visitors:
            self.ask("target", owner, "Choose an unrevealed secret card.", opts,
                     "reveal_secret", revealer=owner, **data)
            return
        # a spirit effect's secret is resolved by the visitor it targets, else by a
        # visitor who is not knocked out, of the spirit's choice (P-SECRET-05)
        pool = self.who(ctx, "target") or [v.seat for v in self.active_visitors()]
        if not pool:
            return
        if len(pool) == 1:
            self.on_secret_revealer(pool[0], Prompt(id="x", kind="target", seats=[owner],
                                                    text="", data=data))
            return
        self.ask("target", owner, "Which visitor resolves the revealed secret?",
                 [(s, f"{self.name(s)} resolves it") for s in pool], "secret_revealer",
                 **data)

    def on_secret_revealer(self: Engine, option: str, prompt: Prompt) -> None:
        opts = [(str(s.position), f"Position {s.position} ({len(s.discards)} clue "
                                  f"{plural(len(s.discards), 'card')} "
                 "beneath)") for s in self.st.secrets if not s.revealed]
        data: dict[str, Any] = {k: prompt.data[k]
                                for k in ("min", "success", "fail", "ctx", "owner")}
        self.ask("target", prompt.seats[0], "Choose an unrevealed secret card.", opts,
                 "reveal_secret", revealer=option, **data)

    def on_reveal_secret(self: Engine, option: str, prompt: Prompt) -> None:
        """H-L3: the hidden check resolves at once; only its outcome is public."""
        pos = int(option)
        ctx = dict(prompt.data["ctx"])
        ctx.pop("cid", None)
        owner = str(prompt.data.get("revealer", prompt.data["owner"]))
        if self.matching(pos) >= int(prompt.data["min"]):
            self.later(Step(op="effects", args={"effs": prompt.data["success"], "i": 0,
                                                "ctx": dict(ctx)}))
            self.reveal_secret(pos, owner)
        else:
            slot = self.st.secrets[pos - 1]
            slot.failed.append(len(slot.discards))
            # H-38: the reason is said, but never in Mystery Mode (its discards lie face
            # down). It names no trauma: that the clue cards beneath (face up) miss it is
            # what the failure itself tells.
            need = int(prompt.data["min"])
            why = "" if self.st.mystery else (
                ", as no clue card of its trauma lies beneath it" if need <= 1 else
                f", as fewer than {need} clue cards of its trauma lie beneath it")
            self.emit(f"{self.name(owner)} tries to reveal the secret at position {pos}: "
                      f"nothing happens{why}.", "secret_fail")
            self.later(Step(op="effects", args={"effs": prompt.data["fail"], "i": 0,
                                                "ctx": ctx}))

    def eff_reveal_clue_deck(self: Engine, e: Any, ctx: dict[str, Any]) -> None:
        st = self.st
        for _ in range(e.n):
            if not st.clue_deck:  # said, not silent (stop 63's demo: Echo revealed nothing)
                self.emit("The clue deck is empty: no clue card is revealed.", "clue")
                break
            card = st.clue_deck.pop()
            st.clue_revealed.append(card)
            st.clues_shown.append(card)  # seen face up by all (P-CLUE-06, A-64)
            self.emit(f"The top clue card is revealed: {self.card_name(card)}.", "clue")

    def eff_inspect(self: Engine, e: Any, ctx: dict[str, Any]) -> None:
        """P-TIME-09: the owner alone sees it; nothing is revealed; a deck keeps its order
        unless the effect lets the owner reorder it or put the card on the bottom."""
        st = self.st
        owner = str(ctx["owner"])
        room = self.origin(ctx)
        if e.what == "clue_deck":
            top = list(reversed(st.clue_deck[-e.n:]))
            if not top:
                return
            self.private(owner, "Top of the clue deck: "
                         + ", ".join(self.card_name(c) for c in top) + ".")
            self.emit(f"{self.name(owner)} inspects the top of the clue deck.", "inspect")
            if e.reorder and len(top) > 1:
                self.later(Step(op="reorder", args={"seat": owner, "cards": top, "done": []}))
            elif e.may_bottom:
                self.ask("choice", owner, f"You inspected {self.card_name(top[0])}: leave it "
                         "on top or put it on the bottom of the clue deck?",
                         [("top", "Leave it on top"), ("bottom", "Put it on the bottom")],
                         "inspect_bottom", private=True, card=top[0])
        elif e.what in ("clue_token", "spirit_clue") and room:
            toks = [k for k, t in enumerate(st.tokens.get(room, []))
                    if e.what == "clue_token" or t.kind == "spirit"]
            if len(toks) == 1:
                self.inspect_token(owner, room, toks[0])
            elif toks:
                kinds = st.tokens[room]
                self.ask("target", owner, "Inspect which clue token?",
                         [(str(k), f"{kinds[k].kind.capitalize()} clue #{k + 1}") for k in toks],
                         "inspect_token", seat=owner, room=room)
        elif e.what == "secret":
            hidden = [s.position for s in st.secrets if not s.revealed]
            if hidden:
                self.ask("target", owner, "Inspect which secret card?",
                         [(str(p), f"Position {p}") for p in hidden], "inspect_secret",
                         seat=owner)
        elif e.what == "chamber" and st.chamber is not None and st.chamber.cards:
            self.private(owner, "In the Secret Chamber: " + ", ".join(
                self.card_name(c) for c in st.chamber.cards) + ".")  # H-36
            self.emit(f"{self.name(owner)} looks into the Secret Chamber.", "inspect")
        elif e.what == "removed_clue":
            removed = [c for c in st.clue_box if not self.pack.is_fear_card(c)]
            if removed:
                c = removed[st.rng.below(len(removed))]
                cc = self.pack.clue_card(c)
                # The public half (stop 65's demo: "The Professor's ability takes effect."
                # and nothing more); which card it is stays the owner's (H-13).
                self.emit(f"{self.name(owner)} looks at a clue card removed in setup.",
                          "inspect")
                self.private(owner, "A clue card removed in setup: "
                             f"{clue_title(cc.name, cc.trauma, self.room_name(cc.room))}.")

    def on_inspect_bottom(self: Engine, option: str, prompt: Prompt) -> None:
        card = str(prompt.data["card"])
        deck = self.st.clue_deck
        if option == "bottom" and deck and deck[-1] == card:
            deck.pop()
            deck.insert(0, card)
            self.emit("The inspected card goes to the bottom of the clue deck.", "inspect")

    def step_reorder(self: Engine, seat: str, cards: list[str], done: list[str]) -> None:
        """Put the inspected cards back in the owner's order, top first (one pick each)."""
        left = [c for c in cards if c not in done]
        if len(left) <= 1:
            order = done + left  # top first
            deck = self.st.clue_deck
            del deck[len(deck) - len(order):]
            deck.extend(reversed(order))
            return
        self.ask("choice", seat, "Reorder the clue deck: which card goes next from the top?",
                 [(c, f"{self.card_name(c)} next") for c in left], "reorder", private=True,
                 seat=seat, cards=cards, done=done)

    def on_reorder(self: Engine, option: str, prompt: Prompt) -> None:
        self.later(Step(op="reorder", args={"seat": prompt.data["seat"],
                                            "cards": prompt.data["cards"],
                                            "done": [*prompt.data["done"], option]}))

    def inspect_token(self: Engine, seat: str, room: str, k: int) -> None:
        t = self.st.tokens[room][k]
        name = (self.pack.spirit_clue_of(t.id) if t.kind == "spirit"
                else self.pack.small_clue_of(t.id)).name
        self.private(seat, f"The {t.kind} clue in the {self.room_name(room)} is {name}.")
        self.emit(f"{self.name(seat)} inspects a clue token.", "inspect")

    def on_inspect_token(self: Engine, option: str, prompt: Prompt) -> None:
        self.inspect_token(str(prompt.data["seat"]), str(prompt.data["room"]), int(option))

    def on_inspect_secret(self: Engine, option: str, prompt: Prompt) -> None:
        seat = str(prompt.data["seat"])
        slot = self.st.secrets[int(option) - 1]
        card = self.pack.secret(slot.card)
        self.private(seat, f"Secret at position {slot.position}: "
                           f"{secret_title(card.name, card.trauma)}.")
        self.emit(f"{self.name(seat)} inspects the secret card at position {option}.", "inspect")

    def eff_take_from_cellar(self: Engine, e: Any, ctx: dict[str, Any]) -> None:
        me = ctx.get("self")
        if me and self.st.cellar:
            for _ in range(e.n):
                self.later(Step(op="take_cellar", args={"seat": me}))

    def step_take_cellar(self: Engine, seat: str) -> None:
        if not self.st.cellar:
            return
        opts = [(i, f"Take {self.card_name(i)}") for i in dict.fromkeys(self.st.cellar)]
        self.ask("choice", seat, "Take an item card from the Cellar.", opts, "take_cellar",
                 seat=seat)

    def on_take_cellar(self: Engine, option: str, prompt: Prompt) -> None:
        self.st.cellar.remove(option)
        self.gain_item(str(prompt.data["seat"]), option)

    def eff_take_from_chamber(self: Engine, e: Any, ctx: dict[str, Any]) -> None:
        me = ctx.get("self")
        if me and self.st.chamber is not None:
            for _ in range(e.n):
                self.later(Step(op="take_chamber", args={"seat": me}))

    def step_take_chamber(self: Engine, seat: str) -> None:
        """G-17 first effect (PR-25): the visitor alone sees the chamber cards, takes one."""
        ch = self.st.chamber
        if ch is None or not ch.cards:
            return
        self.private(seat, "In the Secret Chamber: "
                     + ", ".join(self.card_name(c) for c in ch.cards) + ".")
        self.ask("choice", seat, "Take which card from the Secret Chamber?",
                 [(c, f"Take {self.card_name(c)}") for c in dict.fromkeys(ch.cards)],
                 "take_chamber", private=True, seat=seat)

    def on_take_chamber(self: Engine, option: str, prompt: Prompt) -> None:
        seat = str(prompt.data["seat"])
        ch = self.st.chamber
        assert ch is not None
        ch.cards.remove(option)
        if self.pack.is_fear_card(option):  # G-17: trashed without effect
            self.st.clue_trash.append(option)
            self.emit(f"{self.name(seat)} finds the fear card {self.card_name(option)} in the "
                      "Secret Chamber; it is trashed without effect.", "clue")
            return
        self.vis(seat).hand.append(option)
        self.emit(f"{self.name(seat)} takes a clue card from the Secret Chamber.", "clue")
        self.emit(f"You took the clue card {self.card_name(option)}.", "private", [seat])

    def passage_rooms(self: Engine, trauma: str, seen: Collection[str]) -> list[str]:
        """P-CHAMBER-04: where the passage may be if the secret at position 1 is of `trauma`:
        "the only room missing among the clue cards matching that secret's trauma". Every
        room of this game's clue cards of `trauma` (public content, H-12) but those of the
        cards in `seen` (face up, or in the reader's own hand: not the one set aside) and
        those an Uncover searched in vain."""
        st = self.st
        searched = set(st.chamber.searched) if st.chamber is not None else set()
        return sorted({c.room for c in self.pack.clue_cards_for(st.n)
                       if c.trauma == trauma and c.id not in seen and c.room in st.rooms
                       and c.room not in searched})

    def public_clue_cards(self: Engine) -> set[str]:
        """The clue cards the whole table has seen face up: the revealed row, every card once
        in it (taken into a hand since: the table still knows it, so the passage's rooms never
        grow back, stop 67) and, unless Mystery Mode turns them face down (P-MYST-02), the
        discards beneath the secrets. Never a hand's card nobody saw face up."""
        st = self.st
        out = set(st.clue_revealed) | set(st.clues_shown)
        if not st.mystery:
            out.update(c for s in st.secrets for c in s.discards)
        return out

    def eff_uncover(self: Engine, e: Any, ctx: dict[str, Any]) -> None:
        """P-CHAMBER-05 (A-33): the hidden check resolves at once (H-L3); only its outcome
        is public. On a match the passage token, open side up, joins the room to the chamber
        as a door that cannot be locked (P-CHAMBER-06)."""
        st = self.st
        me = ctx.get("self")
        ch = st.chamber
        chamber = self.chamber_room()
        if not me or ch is None or chamber is None or ch.passage_room is not None:
            return
        room = self.vis(me).room
        if self.pack.clue_card(ch.aside).room != room:
            if room not in ch.searched:  # the table saw it: nobody need search there again
                ch.searched.append(room)
            self.emit(f"{self.name(me)} searches the {self.room_name(room)} for a secret "
                      "passage: nothing is found.", "chamber")
            return
        ch.passage_room = room
        pid = self.pack.manor.chamber.passage_id  # type: ignore[union-attr]
        st.doors[pid] = DoorState(id=pid, rooms=[room, chamber], open=True)
        self.emit(f"{self.name(me)} uncovers a secret passage in the {self.room_name(room)}: "
                  "the Secret Chamber is open!", "chamber")

    def eff_gain_main_actions(self: Engine, e: Any, ctx: dict[str, Any]) -> None:
        n = e.n
        if e.per == "fear_card_in_play":
            fear = sum(len(v.fear_cards) for v in self.st.visitors.values())
            if self.pack.options.revealed_fear_cards_count:  # A-38 option
                fear += sum(1 for c in self.st.clue_revealed if self.pack.is_fear_card(c))
            n *= fear
        if self.is_spirit_ctx(ctx):
            self.st.spirit.pawn_actions += n
            if n:
                self.emit(f"The spirit pawn gains {n} main {plural(n, 'action')}.", "spirit")
            return
        me = ctx.get("self")
        # P-2P: the two characters share the turn's main actions
        if me and self.st.phase == "visitor" and self.st.active in (me, self.partner(me)):
            self.st.actions_left += n
            self.emit(f"{self.name(me)} gains {n} main {plural(n, 'action')}.", "turn")
        elif me in self.st.visitors and n > 0:  # P-VIS-03 / PR-18: used inside this effect
            self.emit(f"{self.name(me)} gains {n} main "
                      f"{plural(n, 'action')} outside their turn, to use "
                      "now.", "turn")
            self.later(Step(op="offturn_main", args={"seat": me, "left": n}))

    def offturn_mains(self: Engine, seat: str) -> list[Action]:
        """The main actions a visitor may take with an off-turn grant (P-VIS-03): Rest, Walk,
        and the main actions of their cards, items, room and abilities."""
        self.granted = seat
        try:
            return [Action(kind=K.REST), Action(kind=K.WALK)] + [
                a for a in self.card_actions(seat) if a.params.get("speed") == "main"]
        finally:
            self.granted = None

    def step_offturn_main(self: Engine, seat: str, left: int) -> None:
        """PR-18: the visitor uses a granted main action now or lets the rest go; whatever is
        left when the effect moves on is lost (P-VIS-03)."""
        v = self.vis(seat)
        if left <= 0:
            return
        acts = [] if v.knocked_out or v.succumbed else self.offturn_mains(seat)
        if not acts:
            self.emit(f"{self.name(seat)} cannot use the granted main "
                      f"{plural(left, 'action; it is', 'actions; they are')} lost.", "turn")
            return
        self.ask("choice", self.st.controller.get(seat, seat),
                 f"{left} main "
                 f"{plural(left, 'action')} granted outside your turn: use one now, or let them "
                 "go (unused ones are lost when the effect ends).",
                 [(f"a{i}", self.label(seat, a)) for i, a in enumerate(acts)]
                 + [("done", f"Let the granted {plural(left, 'action')} go unused")],
                 "offturn_main",
                 private=True, seat=seat, left=left, actions=[a.model_dump() for a in acts])

    def on_offturn_main(self: Engine, option: str, prompt: Prompt) -> None:
        seat = str(prompt.data["seat"])
        left = int(prompt.data["left"])
        if option == "done":
            self.emit(f"{self.name(seat)} lets {left} granted main "
                      f"{plural(left, 'action')} go unused.", "turn")
            return
        action = Action.model_validate(prompt.data["actions"][int(option[1:])])
        self.later(Step(op="offturn_main", args={"seat": seat, "left": left - 1}))
        self.granted = seat  # the action's steps run after this; only its cost is paid here
        try:
            self.do_visitor(seat, action)
        finally:
            self.granted = None

    def eff_adjust_track(self: Engine, e: Any, ctx: dict[str, Any]) -> None:
        forced = ctx.get("self") or next(iter(ctx.get("targets") or []), None)
        self.adjust_track(e.marker, e.delta, forced)

    def eff_end_turn(self: Engine, e: Any, ctx: dict[str, Any]) -> None:
        me = ctx.get("self")
        if me and self.st.phase == "visitor" and self.st.active == me:
            self.later(Step(op="end_turn_now", args={"seat": me}))

    def eff_return_bond(self: Engine, e: Any, ctx: dict[str, Any]) -> None:
        if self.st.bonded in self.who(ctx, e.who):
            self.st.bonded = None
            self.emit("The bonded marker returns to the spirit.", "bond")

    def eff_prevent(self: Engine, e: Any, ctx: dict[str, Any]) -> None:
        ctx["prevented"] = True
