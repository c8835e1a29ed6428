"""Setup's prompts: the spirit's and the visitors' characters, then the rest of setup
(P-SETUP-*)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.core.types import Prompt
from rules.presence.engine.core import secret_title
from rules.presence.state import (
    ChamberState,
    DieState,
    SecretSlot,
    Step,
    Token,
    VisitorState,
)

if TYPE_CHECKING:
    from rules.presence.engine import Engine


class SetupSteps:
    """The part of `Engine` this module holds (see the module's docstring)."""

    # ------------------------------------------------------------------ setup prompts
    def on_choose_spirit(self: Engine, option: str, prompt: Prompt) -> None:
        self.st.spirit.character = option
        self.emit(f"The spirit player chooses {self.pack.spirit(option).name}.", "setup")
        self.ask_visitor(0)

    def ask_visitor(self: Engine, index: int) -> None:
        st = self.st
        if index >= len(st.visitor_seats):
            return
        seat = st.visitor_seats[index]
        taken = {v.character for v in st.visitors.values()}
        opts = [(c.id, f"{c.name}: {c.text}" if c.text else c.name)
                for c in self.pack.visitors if c.id not in taken]
        second = bool(st.controller) and st.controller[seat] != seat  # P-2P-01
        self.ask("setup", seat, "Choose your second visitor character." if second
                 else "Choose your visitor character.", opts,
                 "choose_visitor", index=index)

    def on_choose_visitor(self: Engine, option: str, prompt: Prompt) -> None:
        st = self.st
        index = int(prompt.data["index"])
        seat = st.visitor_seats[index]
        st.visitors[seat] = VisitorState(
            seat=seat, character=option, room=self.pack.manor.start_room,
            deck=st.rng.shuffled(self.pack.action_deck(option)))  # P-SETUP-16/17
        if st.controller and st.controller[seat] != seat:
            # P-2P-01: the two characters' 20 action cards form one deck (the first slot's)
            pile = self.pile_holder(seat)
            pile.deck = st.rng.shuffled(pile.deck + st.visitors[seat].deck)
            st.visitors[seat].deck = []
        self.emit(f"{self.seat_label(seat)} joins the visitors.", "setup")
        self.ask_visitor(index + 1)

    def step_setup_rest(self: Engine, fear_preset: str) -> None:
        """Steps 4-12 once the characters are chosen."""
        st = self.st
        pack = self.pack
        rng = st.rng
        n = st.n
        v = n - 1
        spirit = st.spirit.character
        ut = st.unknown_threat
        # Step 4-5, 8: the spirit's four secret cards face down at random (P-SETUP-10, -19);
        # Unknown Threat: the four the spirit picked, one per trauma (P-UNK-04, A-47).
        secret_set = pack.presets.first_game.secret_set if st.first_game else spirit
        secrets = rng.shuffled(ut.secrets if ut else pack.spirit_secrets(secret_set))  # P-FIRST-06
        st.secrets = [SecretSlot(position=k + 1, card=c) for k, c in enumerate(secrets)]
        if ut:
            st.spirit_cards = list(ut.deck)  # P-UNK-03: the custom twelve
        st.spirit.deck = rng.shuffled(st.spirit_cards or pack.spirit_deck(spirit))  # P-SETUP-11
        st.dice = [DieState(id=k) for k in range(n)]  # P-SETUP-12
        # P-SETUP-13; Unknown Threat: the five chosen replace the spirit's own five
        bag = (pack.spirit_clue_instances(pack.general_spirit_clues() + ut.clues) if ut
               else pack.spirit_clue_bag(spirit))
        st.spirit_clue_bag = rng.shuffled(bag)
        st.small_clue_pile = rng.shuffled(pack.small_clue_instances())  # P-SETUP-14
        # Step 7: the item deck (P-SETUP-18).
        special = pack.special_item_ids()
        randoms = pack.random_item_ids()
        extra = rng.sample(randoms, pack.options.item_deck[n] - len(special))  # type: ignore[index]
        st.item_deck = rng.shuffled(special + extra)
        st.item_box_count = len(randoms) - len(extra)
        # Step 9: the clue deck (P-SETUP-20..23).
        board = pack.secret_board(n)
        eligible = [c.id for c in pack.clue_cards_for(n)]
        removed: list[str] = []
        for slot, pos in zip(st.secrets, board.positions, strict=True):
            trauma = pack.secret(slot.card).trauma
            mine = [c for c in eligible if pack.clue_card(c).trauma == trauma]
            removed += rng.sample(mine, pos.remove)
        clues = [c for c in eligible if c not in removed]
        per = (pack.presets.first_game.fear_per_visitor if st.first_game  # P-FIRST-07
               else next(p for p in pack.presets.fear_presets if p.id == fear_preset).per_visitor)
        fear_ids = [f.id for f in pack.fear_cards]
        fears = rng.sample(fear_ids, min(len(fear_ids), per * v))
        st.clue_box = removed + [f for f in fear_ids if f not in fears]
        st.clue_deck = rng.shuffled(clues + fears)
        chamber = pack.manor.chamber
        if chamber is not None and chamber.room in st.rooms:
            # P-CHAMBER-01 / P-SETUP-24 (A-07, A-08): position 1's removed card is set aside
            # under the passage token; V cards from the shuffled deck go to the chamber.
            aside = removed[0]
            st.clue_box.remove(aside)
            st.chamber = ChamberState(aside=aside,
                                      cards=[st.clue_deck.pop() for _ in range(min(v, len(
                                          st.clue_deck)))])
        # Step 11: one spirit clue + one die per die, placed by the spirit (PR-15).
        for _ in range(n):
            if st.spirit_clue_bag:
                st.drawn_spirit_clues.append(st.spirit_clue_bag.pop())
        self.emit(f"The spirit is {pack.spirit(spirit).name}. The secret cards, the clue deck "
                 f"({len(st.clue_deck)} cards) and the item deck ({len(st.item_deck)} cards) are "
                 "ready.", "setup")
        if st.chamber is not None:
            # P-CHAMBER-01/05: what the table sees of the chamber's setup, and how it opens
            # (stop 65's demo never named the chamber; which cards lie there is H-35/H-36's)
            k = len(st.chamber.cards)
            self.emit(f"The Secret Chamber is sealed: {k} clue card{'s' if k != 1 else ''} "
                      "lie face down inside, and the card naming the room of its passage is "
                      "set aside face down. A visitor may Uncover it (a main action) from the "
                      "room missing among the clue cards of the trauma of the secret at "
                      "position 1.", "setup")
        self.later(Step(op="place_drawn_clue", args={"used": [], "setup": True}),
                  Step(op="setup_final"))


    def step_setup_final(self: Engine) -> None:
        """Step 11 small clues, step 12 hands, game-start abilities, round 1."""
        st = self.st
        pack = self.pack
        for room in pack.clue_rooms_in_play(st.n):
            if room in st.rooms and not st.tokens.get(room) and st.small_clue_pile:
                st.tokens[room] = [Token(kind="small", id=st.small_clue_pile.pop())]  # P-SETUP-27
        for _ in range(st.n):  # P-SETUP-28
            if st.spirit.deck:
                st.spirit.hand.append(st.spirit.deck.pop())
        for seat in st.visitor_seats:  # P-SETUP-29
            if st.controller and seat != st.controller[seat]:
                continue  # P-2P-03: the visitor player draws one hand of 7 from the shared deck
            self.draw_actions(seat, self.hand_size())
        # The spirit's deal reaches only the spirit, by DM (H-02, H-10); visitors are told their
        # hands as they draw them.
        secrets = "; ".join(f"position {s.position}: "
                            f"{secret_title(pack.secret(s.card).name, pack.secret(s.card).trauma)}"
                            for s in st.secrets)
        hand = ", ".join(self.card_name(c) for c in st.spirit.hand) or "none"
        self.emit(f"Your secret cards — {secrets}. Your spirit cards: {hand}.", "deal",
                 [st.spirit_seat])
        if st.chamber is not None:  # H-35, H-36: the spirit may look at these at any time
            self.emit(f"Secret Chamber — the passage card: {self.card_name(st.chamber.aside)}; "
                     "the cards in the chamber: "
                     + (", ".join(self.card_name(c) for c in st.chamber.cards) or "none") + ".",
                     "deal", [st.spirit_seat])
        st.active = st.visitor_seats[0]
        self.emit("Setup is complete. The visitors enter the Great Hall, candles lit.", "setup")
        self.fire("game_start")  # P-SETUP-31
        st.queue.append(Step(op="round_start"))
