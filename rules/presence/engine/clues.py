"""Cards and clues: drawing, the clue deck, spirit clues, items."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.core.game import plural
from rules.core.types import Prompt
from rules.presence.engine.core import clue_title
from rules.presence.state import (
    Step,
)

if TYPE_CHECKING:
    from rules.presence.engine import Engine


class Clues:
    """The part of `Engine` this module holds (see the module's docstring)."""

    # ------------------------------------------------------------------ cards & clues
    def is_action_card(self: Engine, card: str) -> bool:
        return self.pack.is_action_card(card)

    def step_discard_clue(self: Engine, seat: str, card: str) -> None:
        """PR-03: the discarder picks one of the four clue discards."""
        v = self.vis(seat)
        if card not in v.hand:
            return
        opts = []
        for s in self.st.secrets:
            what = self.pack.secret(s.card).name if s.revealed else "unrevealed"
            opts.append((str(s.position), f"Beneath position {s.position} ({what}, "
                         f"{len(s.discards)} {plural(len(s.discards), 'card')})"))
        self.ask("clue_discard", seat,
                 f"Beneath which secret does the clue card {self.card_name(card)} go?",
                 opts, "clue_discard", private=True, card=card, seat=seat)

    def on_clue_discard(self: Engine, option: str, prompt: Prompt) -> None:
        seat = str(prompt.data["seat"])
        card = str(prompt.data["card"])
        v = self.vis(seat)
        if card in v.hand:
            v.hand.remove(card)
        slot = self.st.secrets[int(option) - 1]
        slot.discards.append(card)
        cc = self.pack.clue_card(card)
        if self.st.mystery:
            # P-MYST-01/02: face down; only the spirit may inspect it (the count is public),
            # but the visitor who laid it saw it and remembers it
            v.laid.append(card)
            self.emit(f"{self.name(seat)} discards a clue card face down beneath position "
                      f"{option}.", "clue")
            self.emit(f"Face down beneath position {option}: "
                      f"{clue_title(cc.name, cc.trauma, self.room_name(cc.room))}.", "private",
                      [self.st.spirit_seat])
            return
        self.emit(f"{self.name(seat)} discards the clue card "
                  f"{clue_title(cc.name, cc.trauma, self.room_name(cc.room))} beneath position "
                  f"{option}.", "clue")

    def discard_card(self: Engine, seat: str, card: str) -> None:
        """P-VIS-07: action cards to the owner's discard, clue cards by prompt (PR-03)."""
        seat = self.holder_of(seat, card)  # P-2P-03: either character's part of the hand
        v = self.vis(seat)
        if self.is_action_card(card):
            v.hand.remove(card)
            self.to_action_discard(seat, card)
            self.emit(f"{self.name(seat)} discards {self.card_name(card)}.", "discard")
        else:
            self.later(Step(op="discard_clue", args={"seat": seat, "card": card}))

    def on_discard_card(self: Engine, option: str, prompt: Prompt) -> None:
        self.discard_card(str(prompt.data["seat"]), option)

    def draw_actions(self: Engine, seat: str, n: int) -> int:
        """P-VIS-13, A-45: reshuffle the discard when needed, then stop."""
        st = self.st
        v = self.pile_holder(seat)  # P-2P-01: the shared deck of the visitor player
        got: list[str] = []
        for _ in range(n):
            if not v.deck:
                if not v.discard:
                    break
                v.deck = list(v.discard)
                v.discard.clear()
                st.rng.shuffle(v.deck)
            card = v.deck.pop()
            # P-2P-04: a drawn card sits with the character of its colour
            owner = next((o for o in st.visitors.values() if st.controller
                          and st.controller.get(o.seat) == st.controller.get(seat)
                          and o.character == self.pack.action_card(card).owner),
                         self.vis(seat))
            owner.hand.append(card)
            got.append(card)
        if got:  # hidden from the others (H-17): only the drawer is told, by DM
            self.emit("You draw " + self.cards_text(got) + ".",
                      "draw", [seat])
        return len(got)

    def draw_clue(self: Engine, seat: str) -> None:
        """PR-10: from the clue deck or a revealed card."""
        st = self.st
        if not st.clue_revealed:
            if st.clue_deck:
                self.take_clue(seat, st.clue_deck.pop(), from_deck=True)
            else:  # said, not silent (stop 64's demo: Wail's two draws came to nothing)
                self.emit(f"The clue deck is empty: {self.listed([seat])} draws no clue card.",
                          "clue")
            return
        opts: list[tuple[str, str]] = []
        if st.clue_deck:
            opts.append(("deck", f"Draw the top of the clue deck ({len(st.clue_deck)} left)"))
        opts += [(c, f"Take the revealed {self.card_name(c)}") for c in st.clue_revealed]
        if len(opts) == 1 and opts[0][0] == "deck":
            self.take_clue(seat, st.clue_deck.pop(), from_deck=True)
            return
        self.ask("draw_source", seat, "Draw a clue card: from the deck or a revealed card?",
                 opts, "draw_source", seat=seat)

    def on_draw_source(self: Engine, option: str, prompt: Prompt) -> None:
        st = self.st
        seat = str(prompt.data["seat"])
        if option == "deck":
            if st.clue_deck:
                self.take_clue(seat, st.clue_deck.pop(), from_deck=True)
        elif option in st.clue_revealed:
            st.clue_revealed.remove(option)
            self.take_clue(seat, option, from_deck=False)

    def take_clue(self: Engine, seat: str, card: str, from_deck: bool) -> None:
        """A clue card goes to hand; a fear card goes in front of the drawer (P-FEAR-05)."""
        v = self.vis(seat)
        if self.pack.is_fear_card(card):
            v.fear_cards.append(card)
            # H-22: a drawn fear card is announced in full, its text with its name
            text = self.pack.fear_card(card).text.strip()
            self.emit(f"{self.name(seat)} draws the fear card {self.card_name(card)} and "
                      "places it face up in front of them" + (f": {text}" if text else "."),
                      "fear_card", seat=seat)
            self.fire("draw_fear_card", visitor=seat, exclude=card)
            return
        v.hand.append(card)
        if from_deck:
            self.emit(f"{self.name(seat)} draws a clue card.", "clue")
            self.emit(f"You drew the clue card {self.card_name(card)}.", "private", [seat])
        else:
            self.emit(f"{self.name(seat)} takes the revealed clue card "
                      f"{self.card_name(card)}.", "clue")

    def gain_item(self: Engine, seat: str, item: str) -> None:
        v = self.vis(seat)
        v.items.append(item)
        self.emit(f"{self.name(seat)} gains the item {self.card_name(item)}.", "item")
        self.later(Step(op="item_limit", args={"seat": seat}))

    def step_item_limit(self: Engine, seat: str) -> None:
        """P-ITEM-05 / PR-07: discard one at once when above the limit."""
        v = self.vis(seat)
        if len(v.items) <= self.pack.options.item_limit:
            return
        self.later(Step(op="item_limit", args={"seat": seat}))
        self.ask("item_limit", seat, "You hold too many items: discard one to the Cellar.",
                 [(i, f"Discard {self.card_name(i)}") for i in v.items], "item_discard",
                 seat=seat)

    def on_item_discard(self: Engine, option: str, prompt: Prompt) -> None:
        seat = str(prompt.data["seat"])
        v = self.vis(seat)
        v.items.remove(option)
        self.st.cellar.append(option)
        self.emit(f"{self.name(seat)} discards {self.card_name(option)} to the Cellar.", "item")
