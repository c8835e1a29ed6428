"""Applying an action: the visitors' actions, Rest and Trade (PR-12), refusals."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rules.core.errors import IllegalAction
from rules.core.game import counted, plural
from rules.core.types import Action, Event, Prompt
from rules.presence import actions as K
from rules.presence.engine.board import (
    SPIRIT_ACTION_CAP,
)
from rules.presence.state import (
    Step,
)

if TYPE_CHECKING:
    from rules.presence.engine import Engine


class VisitorActions:
    """The part of `Engine` this module holds (see the module's docstring)."""

    # ------------------------------------------------------------------ applying
    def apply(self: Engine, seat: str, action: Action, known_legal: bool = False) -> list[Event]:
        """`seat`'s action resolved; refused with IllegalAction unless legal now.
        `known_legal`: the caller took `action` from `legal(seat)` on this very state (the
        search's play-out, `Presence.ai_play_in_place`), so the list is not built twice."""
        if action.kind == K.SPEAK:  # free words, so never among the listed legal actions
            return self.speak(seat, str(action.p("words") or ""))
        if not known_legal and action not in self.legal(seat):
            raise IllegalAction(self.why_not(seat, action), rule=self.rule_of(action, seat))
        st = self.st
        if action.kind == K.CHOOSE:
            prompt = st.prompts.pop()
            handler: Callable[[str, Prompt], None] = getattr(self, "on_" + prompt.data["then"])
            handler(str(action.p("option")), prompt)
        elif seat == st.spirit_seat:
            self.do_spirit(action)
        elif not self.declare_quick(seat, action):
            self.do_visitor(seat, action)
        self.run()
        self.settle()
        return self.events

    def why_not(self: Engine, seat: str, action: Action) -> str:
        st = self.st
        if st.prompts and seat in st.prompts[-1].seats:
            return "That is not one of the choices: " + st.prompts[-1].text
        if action.kind in (K.REST, K.WALK) and st.must_rest:
            return "You are knocked out: your first action must be Rest."
        v = st.visitors.get(seat)
        if v is not None and v.quick_used >= self.pack.options.quick_action_cap:
            return (f"You have taken {v.quick_used} quick actions since the last action, the "
                    "most the game allows (rule A-48): wait for the next action.")
        if seat == st.spirit_seat and st.phase == "spirit" \
                and st.spirit_actions >= SPIRIT_ACTION_CAP:
            return (f"The spirit has taken {SPIRIT_ACTION_CAP} actions this turn, the most the "
                    "game allows (rule A-48): end the turn.")
        if action.kind == K.TRADE:
            return "You can only trade with a nearby visitor who is not knocked out."
        return "That action is not allowed right now."

    def rule_of(self: Engine, action: Action, seat: str | None = None) -> str:
        v = self.st.visitors.get(seat) if seat is not None else None
        if v is not None and not self.st.prompts:
            if v.succumbed:
                return "P-SUCC-03"  # no further action
            if v.knocked_out:  # Rest first on the own turn (P-KO-06), nothing else off-turn
                return "P-KO-06" if self.st.active == seat else "P-KO-03"
        return {K.REST: "P-KO-06", K.TRADE: "P-BASIC-04", K.MOVE_DIE: "P-SPIRIT-07",
                K.INCREASE: "P-SPIRIT-09", K.PLAY_SPIRIT: "P-SPIRIT-11",
                K.PLAY: "P-VIS-06"}.get(action.kind, "P-VIS-05")

    def settle(self: Engine) -> None:
        """After resolution: a turn never rests on a succumbed visitor (P-ROUND-06), and a
        turn whose main actions are spent ends by itself (A-65) unless `holds_spent_turn`."""
        st = self.st
        if self.over() or st.prompts or st.queue or st.phase != "visitor" \
                or st.active not in st.visitors:
            return
        if self.vis(st.active).succumbed:
            other = self.partner(st.active)
            if other is not None and self.can_switch(other):  # P-2P-05: the other acts on
                st.active = other
                st.must_rest = False
                return
            self.end_visitor_turn()
            self.run()
            return
        if st.spent_turns_end and st.actions_left == 0 and self.granted is None \
                and not self.holds_spent_turn(st.active):
            self.emit(f"{self.name(st.active)} has no main actions left: the turn ends.",
                      "turn")
            self.end_visitor_turn()
            self.run()
            self.settle()  # the next visitor's turn may itself need settling

    def holds_spent_turn(self: Engine, seat: str) -> bool:
        """A-65: whether a visitor turn whose main actions are spent stays open for quick
        actions before its end. Quick actions may be taken on any turn (P-VIS-10), so they
        stay available after it ends; only what happens *at* the end makes one worth taking
        first: the hand limit (P-LIMIT-01: a quick card played now is not discarded) and a
        reaction that triggers at the end of the own turn (a fear card's, which a relit candle
        or a companion may avoid). Both are read from public components (hand size, fear
        cards, items, characters), never from what the hand holds, so whether a turn stays
        open tells nobody anything hidden."""
        seats = [seat] + [o for o in [self.partner(seat)] if o is not None]  # P-2P-02
        if len(self.player_hand(seat)) > self.hand_size():
            return True
        for s in seats:
            v = self.vis(s)
            if v.succumbed or v.knocked_out:
                continue
            reactions = [self.pack.fear_card(c).reaction for c in v.fear_cards]
            reactions += [r for it in v.items if (r := self.pack.item_of(it).reaction)]
            reactions += list(self.pack.visitor(v.character).reactions)
            if any(r.trigger.event == "end_of_own_turn" for r in reactions):
                return True
        return False

    def do_visitor(self: Engine, seat: str, action: Action) -> None:
        v = self.vis(seat)
        k = action.kind
        if k == K.END_TURN:
            self.emit(f"{self.name(seat)} ends their turn.", "turn")
            self.end_visitor_turn()
            return
        if k == K.REST:
            self.use_main()
            self.rest(seat)
            return
        if k == K.WALK:
            self.use_main()
            self.emit(f"{self.name(seat)} walks.", "action")
            points = self.pack.visitor(v.character).walk_points
            self.later(Step(op="movement", args={"seat": seat, "points": points}))
            return
        if k == K.SMOTHER:
            self.count_quick(seat)
            self.smother(seat, seat)
            return
        if k == K.TRADE:
            self.count_quick(seat)
            self.later(Step(op="trade_pick", args={"seat": seat, "to": action.p("to"),
                                                   "given": []}))
            return
        if k == K.PICK_UP:
            self.count_quick(seat)
            o = self.vis(str(action.p("from")))
            item = str(action.p("item"))
            o.items.remove(item)
            self.emit(f"{self.name(seat)} picks up {self.card_name(item)} from "
                      f"{self.name(o.seat)}.", "item")
            self.gain_item(seat, item)
            return
        # a card, item, room or ability action
        a, source, after = self.resolve_action(seat, action)
        if a.speed == "main":
            self.use_main()
        else:
            self.count_quick(seat)
        ctx = self.visitor_ctx(seat, a.name)
        if k == K.PLAY and not self.is_action_card(source):
            ctx["card_room"] = self.pack.clue_card(source).room
        effects = list(a.effects)
        if a.dark is not None and self.dark(v.room):  # P-VIS-09 / A-44
            effects = list(a.dark.effects) if a.dark.mode == "replace" \
                else effects + list(a.dark.effects)
        if k == K.PLAY and self.st.mystery and not self.is_action_card(source):
            # in Mystery Mode a clue card is played face down: the table sees the
            # action, never the trauma or room, so its face-down discard stays unknown (the
            # spirit inspects it once it lies beneath a secret, P-MYST-02; H-18 till then)
            self.emit(f"{self.name(seat)} uses a clue card (face down, Mystery Mode): "
                      f"{a.name}.", "action")
        else:
            self.emit(f"{self.name(seat)} {self.action_done(action, a.name)}.", "action")
        self.later(self.effects_step(effects, ctx), *after)

    def count_quick(self: Engine, seat: str) -> None:
        """A-48: the technical cap on quick actions per character between two actions. A
        real game does not reach it (it takes trading cards back and forth); if one does, the
        player is told rather than finding the buttons gone."""
        v = self.vis(seat)
        v.quick_used += 1
        cap = self.pack.options.quick_action_cap
        if v.quick_used == cap:
            self.emit(f"{self.name(seat)} has taken {cap} quick actions since the last action, "
                      "the most the game allows (rule A-48): no more until the next action.",
                      "limit", [self.st.controller.get(seat, seat)])

    def action_title(self: Engine, action: Action) -> str:
        if action.kind == K.PLAY:
            return self.card_name(str(action.p("card")))
        if action.kind == K.USE_ITEM:
            return self.card_name(str(action.p("item")))
        if action.kind == K.ROOM_ACTION:
            return "the room action"
        if action.kind == K.UNCOVER:
            return "the Secret Chamber"
        return "an ability"

    def action_source(self: Engine, action: Action, name: str) -> str:
        """An action named first, then what it comes from, as a player would say it: "Move 3
        (play Move 3 / Investigate)", "Spare Candle" (an item named as its action), "Relight
        (the room action)". A two-action card is named whole, so which card leaves the hand is
        plain, but never as "card: action"."""
        if action.kind == K.PLAY:
            return f"{name} (play {self.card_name(str(action.p('card')))})"
        if action.kind == K.USE_ITEM:
            item = self.card_name(str(action.p("item")))
            return name if name == item else f"{name} (use {item})"
        return f"{name} ({self.action_title(action)})"

    def action_done(self: Engine, action: Action, name: str) -> str:
        """What a visitor did, after their name: "plays Move 3 / Investigate for Move 3",
        "uses the Spare Candle", "takes the room action Relight"."""
        if action.kind == K.PLAY:
            return f"plays {self.card_name(str(action.p('card')))} for {name}"
        if action.kind == K.USE_ITEM:
            item = self.card_name(str(action.p("item")))
            return f"uses {item}" if name == item else f"uses {item} for {name}"
        if action.kind == K.ROOM_ACTION:
            return f"takes the room action {name}"
        if action.kind == K.UNCOVER:
            # Not "uses the Secret Chamber for Uncover" (stop 66's demo): the chamber is
            # sealed; the visitor looks for its passage here (`eff_uncover` says the outcome)
            return f"tries to {name} the passage to the {self.room_name(self.chamber_room())}"
        return f"uses an ability: {name}"

    def resolve_action(self: Engine, seat: str, action: Action) -> tuple[Any, str, list[Step]]:
        v = self.vis(seat)
        k = action.kind
        if k == K.UNCOVER:
            return self._peek_action(v, action)
        if k == K.PLAY:
            card = str(action.p("card"))
            side = int(action.p("side"))
            defn: Any = (self.pack.action_card(card) if self.is_action_card(card)
                         else self.pack.clue_card(card))
            self.vis(self.holder_of(seat, card)).hand.remove(card)  # P-2P-04
            v.hand.append(card)  # keep it in hand while it resolves (P-VIS-06)
            return defn.actions[side], card, [Step(op="after_card",
                                                   args={"seat": seat, "card": card})]
        if k == K.USE_ITEM:
            item = str(action.p("item"))
            a = self.pack.item_of(item).action
            assert a is not None
            return a, item, [Step(op="discard_item", args={"seat": seat, "item": item})]
        if k == K.ROOM_ACTION:
            idx = int(action.p("index"))
            v.room_actions_used.append(f"room:{v.room}:{idx}")
            return self.pack.room(v.room).actions(self.side_of(v.room))[idx], v.room, []
        idx = int(action.p("index"))
        v.room_actions_used.append(f"ability:{idx}")
        return self.pack.visitor(v.character).abilities[idx], v.character, []

    def step_after_card(self: Engine, seat: str, card: str) -> None:
        """P-VIS-06/07: discard the played card (a clue card beneath a secret, PR-03)."""
        v = self.vis(seat)
        if card not in v.hand:
            return
        if self.is_action_card(card):
            v.hand.remove(card)
            self.to_action_discard(seat, card)  # the shared discard in P-2P
        else:
            self.later(Step(op="discard_clue", args={"seat": seat, "card": card}))

    def use_main(self: Engine) -> None:
        st = self.st
        if self.granted is not None:  # P-VIS-03: paid by the effect's grant, inside it
            return
        st.actions_left -= 1
        for o in st.visitors.values():
            o.quick_used = 0

    def rest(self: Engine, seat: str) -> None:
        """P-BASIC-01/02, A-20: discard any cards, draw action cards up to 5; rise if KO."""
        st = self.st
        v = self.vis(seat)
        if v.knocked_out:
            v.knocked_out = False
            st.must_rest = False
            self.emit(f"{self.name(seat)} rises.", "rest")
            self.cure_fear(seat, 1)
        self.emit(f"{self.name(seat)} rests.", "rest")
        self.fire("rest", visitor=seat)
        other = self.partner(seat)
        after = ([Step(op="two_player_rest", args={"seat": other})]
                 if other is not None and self.vis(other).knocked_out else [])
        self.later(Step(op="rest_discard", args={"seat": seat}), *after)

    def step_rest_discard(self: Engine, seat: str) -> None:
        # P-2P-04: the resting character's own action cards and either's clue cards
        hand = self.own_cards(seat)
        if not hand:
            self.later(Step(op="rest_draw", args={"seat": seat}))
            return
        # A two-player hand is split by colour (P-2P-03): say whose card each is, as both
        # decks hold cards of one name (stop 64's demo).
        two = self.partner(seat) is not None
        opts = [(c, "Discard " + (f"{self.listed([self.holder_of(seat, c)])}'s " if two else "")
                 + self.card_name(c)) for c in hand]
        opts.append(("done", "Keep the rest and draw"))
        self.ask("rest_discard", seat, "Rest: discard any cards, then draw up to "
                 f"{self.hand_size()}.", opts, "rest_discard", private=True,
                 seat=seat)

    def on_rest_discard(self: Engine, option: str, prompt: Prompt) -> None:
        seat = str(prompt.data["seat"])
        if option == "done":
            self.later(Step(op="rest_draw", args={"seat": seat}))
            return
        # `later` pushes to the front: queue the re-ask first so a clue card's
        # "beneath which secret?" prompt (PR-03) is answered before it.
        self.later(Step(op="rest_continue", args={"seat": seat}))
        self.discard_card(seat, option)

    def step_rest_continue(self: Engine, seat: str) -> None:
        self.later(Step(op="rest_discard", args={"seat": seat}))

    def step_rest_draw(self: Engine, seat: str) -> None:
        need = self.hand_size() - len(self.player_hand(seat))
        got = self.draw_actions(seat, need) if need > 0 else 0
        self.emit(f"{self.name(seat)} draws {counted(got, 'action card')}.", "rest")


    # ---- trade (PR-12)
    def step_trade_pick(self: Engine, seat: str, to: str, given: list[str]) -> None:
        v = self.vis(seat)
        opts = [(c, f"Give {self.card_name(c)}") for c in v.hand
                if not self.is_action_card(c)]
        opts += [(i, f"Give {self.card_name(i)}") for i in v.items]
        if given:
            opts.append(("offer", f"Offer {len(given)} "
                                  f"{plural(len(given), 'card')} to {self.name(to)}"))
        opts.append(("cancel", "Call off the trade"))
        self.ask("trade_pick", seat, f"Trade with {self.name(to)}: pick cards to give.", opts,
                 "trade_pick", private=True, seat=seat, receiver=to, given=given)

    def on_trade_pick(self: Engine, option: str, prompt: Prompt) -> None:
        seat = str(prompt.data["seat"])
        to = str(prompt.data["receiver"])
        given = list(prompt.data["given"])
        if option == "cancel":
            return
        if option == "offer":
            self.offer_trade(seat, to, given)
            return
        given.append(option)
        v = self.vis(seat)
        left = [c for c in v.hand if not self.is_action_card(c) and c not in given]
        left += [i for i in v.items if i not in given]
        if left:
            self.later(Step(op="trade_pick", args={"seat": seat, "to": to, "given": given}))
        else:
            self.offer_trade(seat, to, given)

    def offer_trade(self: Engine, seat: str, to: str, given: list[str]) -> None:
        """PR-12: the receiver sees what is offered (privately) and accepts or refuses."""
        names = ", ".join(self.card_name(c) for c in given)
        self.ask("trade_accept", to, f"{self.name(seat)} offers you: {names}.",
                 [("yes", "Accept the cards"), ("no", "Refuse")], "trade_accept",
                 private=True, seat=seat, receiver=to, given=given)

    def on_trade_accept(self: Engine, option: str, prompt: Prompt) -> None:
        seat = str(prompt.data["seat"])
        to = str(prompt.data["receiver"])
        if option != "yes":
            self.emit(f"{self.name(to)} refuses the trade.", "trade")
            return
        giver, taker = self.vis(seat), self.vis(to)
        for c in prompt.data["given"]:
            if c in giver.items:
                giver.items.remove(c)
                taker.items.append(c)
            elif c in giver.hand:
                giver.hand.remove(c)
                taker.hand.append(c)
        self.emit(f"{self.name(seat)} gives {len(prompt.data['given'])} "
                  f"{plural(len(prompt.data['given']), 'card')} to "
                  f"{self.name(to)}.", "trade")
        self.later(Step(op="item_limit", args={"seat": to}))
