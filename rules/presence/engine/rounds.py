"""The run loop and the round loop: rounds, the visitors' turns, the spirit's turn
(P-ROUND-*, P-TURN-*)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from rules.core.game import counted
from rules.core.types import Prompt
from rules.presence.engine.board import (
    RUN_CAP,
)
from rules.presence.state import (
    Step,
)

if TYPE_CHECKING:
    from rules.presence.engine import Engine


class Rounds:
    """The part of `Engine` this module holds (see the module's docstring)."""

    # ------------------------------------------------------------------ the run loop
    def run(self: Engine) -> None:
        for _ in range(RUN_CAP):
            if self.over() or self.st.prompts or not self.st.queue:
                break
            step = self.st.queue.pop(0)
            handler: Callable[..., None] = getattr(self, "step_" + step.op)
            handler(**step.args)
        else:  # pragma: no cover - a bug, never a rule
            raise RuntimeError("resolution did not settle")


    # ------------------------------------------------------------------ round loop
    def turn_order(self: Engine) -> list[str]:
        return [s for s in self.st.visitor_seats if not self.vis(s).succumbed]

    def step_round_start(self: Engine) -> None:
        st = self.st
        self.emit(f"Round {st.round} begins.", "round")
        order = self.turn_order()
        if order:
            self.later(Step(op="visitor_turn", args={"seat": order[0]}))
        else:
            self.later(Step(op="spirit_turn"))  # P-ROUND-06 / A-51

    def step_visitor_turn(self: Engine, seat: str) -> None:
        st = self.st
        v = self.vis(seat)
        if v.succumbed:
            self.later(Step(op="next_turn", args={"after": seat}))
            return
        st.phase = "visitor"
        st.actions_left = self.pack.options.main_actions  # P-VIS-01
        other = self.partner(seat)
        if other is not None:
            # P-2P-02: one turn of 5 main actions for both characters; P-2P-07 / A-02: a
            # knocked-out character's Rest comes first
            st.actions_left = self.pack.options.two_player_main_actions
            ko = [s for s in (seat, other) if self.vis(s).knocked_out
                  and not self.vis(s).succumbed]
            seat = ko[0] if ko else seat
            v = self.vis(seat)
            self.vis(other).room_actions_used = []
        st.active = seat
        st.must_rest = v.knocked_out  # P-KO-06
        v.room_actions_used = []
        st.once_used = []
        for o in st.visitors.values():
            o.quick_used = 0
        other = self.partner(seat)
        # P-2P-02: one turn for both characters, said as such (stop 63's demo headed it with
        # one name while the other acted too).
        whose = (f"{self.name(seat)} and {self.listed([other])}'s turn" if other is not None
                 and not self.vis(other).succumbed else f"{self.name(seat)}'s turn")
        self.emit(f"{whose} ({st.actions_left} main actions).", "turn")

    def end_visitor_turn(self: Engine) -> None:
        """P-VIS-14: end-of-turn triggers, then the hand limit, then pass the marker."""
        st = self.st
        seat = st.active
        assert seat is not None
        st.actions_left = 0
        other = self.partner(seat)  # P-2P-02: the turn was both characters'
        self.later(Step(op="end_turn_triggers", args={"seat": seat}),
                   *([Step(op="end_turn_triggers", args={"seat": other})] if other else []),
                   Step(op="hand_limit", args={"seat": seat}),
                   Step(op="next_turn", args={"after": seat}))

    def step_end_turn_triggers(self: Engine, seat: str) -> None:
        v = self.vis(seat)
        if not v.succumbed and not v.knocked_out:
            self.fire("end_of_own_turn", visitor=seat)

    def step_hand_limit(self: Engine, seat: str) -> None:
        """P-LIMIT-01 / PR-06: discard down to the hand size, one card at a time."""
        v = self.vis(seat)
        other = self.partner(seat)  # P-2P-03: one hand of 7 for both characters
        hand = self.player_hand(seat)
        if (v.succumbed and (other is None or self.vis(other).succumbed)) \
                or len(hand) <= self.hand_size():
            return
        self.later(Step(op="hand_limit", args={"seat": seat}))
        self.ask("hand_limit", seat,
                 f"End of turn: discard down to {self.hand_size()} cards "
                 f"({len(hand)} in hand).",
                 [(c, f"Discard {self.card_name(c)}") for c in hand], "discard_card",
                 private=True, seat=seat)

    def step_next_turn(self: Engine, after: str) -> None:
        st = self.st
        if st.controller:  # the visitor player's one turn, then the spirit's
            self.later(Step(op="spirit_turn"))
            return
        order = st.visitor_seats
        i = order.index(after)
        for s in order[i + 1:]:
            if not self.vis(s).succumbed:
                self.later(Step(op="visitor_turn", args={"seat": s}))
                return
        self.later(Step(op="spirit_turn"))

    def step_spirit_turn(self: Engine) -> None:
        """P-SPIRIT-01, P-MANI-03, A-60: actions first, then start-of-turn triggers."""
        st = self.st
        st.phase = "spirit"
        st.active = st.spirit_seat
        st.spirit_actions = 0
        st.once_used = []
        for d in st.dice:
            d.moved = False
            d.fresh = False
        for o in st.visitors.values():
            o.quick_used = 0
        st.spirit.pawn_actions = (self.pack.manifestation.actions_per_turn
                                  if st.spirit.pawn_room else 0)
        st.whispered = False  # P-HORROR-02: one atmospheric line per spirit turn
        self.emit("The spirit's turn.", "turn")
        for dr in st.drains:
            dr.fresh = False
        self.fire("start_of_spirit_turn")

    def end_spirit_turn(self: Engine) -> None:
        """P-SPIRIT-19 / P-LIMIT-02: draw up to N, discard down to N, then upkeep."""
        st = self.st
        sp = st.spirit
        n = st.n
        drawn = 0
        while len(sp.hand) < n:
            if not sp.deck:
                if not sp.discard:
                    break
                sp.deck = list(sp.discard)
                sp.discard.clear()
                st.rng.shuffle(sp.deck)
            sp.hand.append(sp.deck.pop())
            drawn += 1
        st.spirit.pawn_actions = 0
        st.speech_grant = None  # P-DISCORD-08: unused speech ends with the spirit turn
        self.emit(f"The spirit ends its turn and draws {counted(drawn, 'spirit card')}.",
                  "turn")
        if drawn:  # H-02: the spirit's hand reaches only the spirit, by DM
            self.emit("You draw " + self.cards_text(sp.hand[-drawn:]) + ".", "draw",
                      [st.spirit_seat])
        self.later(Step(op="spirit_hand_limit"), Step(op="upkeep"))

    def step_spirit_hand_limit(self: Engine) -> None:
        sp = self.st.spirit
        if len(sp.hand) <= self.st.n:
            return
        self.later(Step(op="spirit_hand_limit"))
        self.ask("hand_limit", self.st.spirit_seat,
                 f"Discard down to {self.st.n} spirit cards.",
                 [(c, f"Discard {self.card_name(c)}") for c in sp.hand], "spirit_discard",
                 private=True)

    def on_spirit_discard(self: Engine, option: str, prompt: Prompt) -> None:
        sp = self.st.spirit
        sp.hand.remove(option)
        sp.discard.append(option)
        self.emit("The spirit discards a spirit card face down.", "spirit")
