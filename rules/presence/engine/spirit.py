"""The spirit turn: the spirit's actions and powers."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.core.types import Action, Prompt
from rules.presence import actions as K
from rules.presence.engine.board import (
    SPIRIT_ACTION_CAP,
)
from rules.presence.state import (
    DrainState,
    Step,
)

if TYPE_CHECKING:
    from rules.presence.engine import Engine


class SpiritTurn:
    """The part of `Engine` this module holds (see the module's docstring)."""

    # ---- the spirit turn
    def do_spirit(self: Engine, action: Action) -> None:
        st = self.st
        k = action.kind
        if k == K.END_SPIRIT:
            self.end_spirit_turn()
            return
        if k == K.WHISPER:  # P-HORROR-02: a fixed line, not an action of the turn
            st.whispered = True
            text = dict(self.pack.presets.horror_lines_by_id())[str(action.p("line"))]
            self.emit(f"The spirit whispers: “{text}”", "speak")
            return
        st.spirit_actions += 1
        if st.spirit_actions == SPIRIT_ACTION_CAP:  # told, never silent
            self.emit(f"That was the spirit's {SPIRIT_ACTION_CAP}th action this turn, the most "
                      "the game allows (rule A-48): end the turn when it has resolved.", "limit",
                      [st.spirit_seat])
        for o in st.visitors.values():
            o.quick_used = 0
        if k == K.MOVE_DIE:
            d = self.die(int(action.p("die")))
            d.moved = True
            # said with its mover (stop 65's demo: "The spirit's turn. A presence die moves
            # from the Salon into the Great Hall" read as moved by nothing)
            self.die_enters(d.id, str(action.p("to")), penalty=True, by="The spirit")
            return
        if k == K.INCREASE:
            card = str(action.p("card"))
            self.ask("increase", st.spirit_seat, "Increase Presence: choose how.",
                     self.increase_options(), "increase", card=card)
            return
        if k == K.PLAY_SPIRIT:
            card = str(action.p("card"))
            self.ask("power", st.spirit_seat,
                     f"Declare a presence die for {self.card_name(card)}.",
                     [(str(d), f"Use {self.die_label(d)}") for d in self.playable_dice(card)],
                     "declare_die", card=card)
            return
        if k == K.PAWN:
            ma = self.pack.manifest_action(str(action.p("action")))
            room = st.spirit.pawn_room
            assert room is not None
            st.spirit.pawn_actions -= 1
            payers = [d for d in self.dice_in(room) if self.die(d).value >= ma.cost]
            if ma.cost and len(payers) > 1:  # P-MANI-04: paid from a nearby die first
                self.ask("target", st.spirit_seat, f"{ma.name}: pay {ma.cost} presence from "
                         "which die?", [(str(d), self.die_label(d)) for d in payers],
                         "pawn_pay", action=ma.id)
                return
            self.pawn_act(ma.id, payers[0] if payers else None)

    def on_pawn_pay(self: Engine, option: str, prompt: Prompt) -> None:
        self.pawn_act(str(prompt.data["action"]), int(option))

    def pawn_act(self: Engine, action_id: str, payer: int | None) -> None:
        ma = self.pack.manifest_action(action_id)
        room = self.st.spirit.pawn_room
        # Said before the payment: a die paid to 0 fades (P-SPIRIT-06), said after its cause.
        # What it costs, as every other spend is told (stop 64's demo: a die gained from fear
        # and "still showed 3", the pawn's payment never said).
        if ma.cost and payer is not None:
            was = self.die(payer)
            where = f" from the presence die in the {self.room_name(was.room)}" if was.room else ""
            left = was.value - ma.cost
            self.emit(f"The spirit pawn acts: {ma.name} (spends {ma.cost}{where}"
                      + (f", which now shows {left}" if left > 0 else "") + ").", "pawn")
            self.set_die(payer, left)
        else:
            self.emit(f"The spirit pawn acts: {ma.name}.", "pawn")
        ctx = self.spirit_ctx(payer, room, ma.name, pawn=True)
        self.later(self.effects_step(ma.effects, ctx), Step(op="targeted"))

    def on_increase(self: Engine, option: str, prompt: Prompt) -> None:
        """P-SPIRIT-09: the card is discarded face down (H-06)."""
        st = self.st
        card = str(prompt.data["card"])
        st.spirit.hand.remove(card)
        st.spirit.discard.append(card)
        self.emit(f"You discarded {self.card_name(card)} to increase presence.", "private",
                  [st.spirit_seat])
        what, arg = option.split(":", 1)
        if what == "up":
            d = int(arg)
            was = self.die(d).value
            self.set_die(d, was + 1)
            self.emit(f"The spirit discards a card: {self.die_now(d, was)}.", "die")
        elif what == "add":
            die = self.supply()[0]
            self.place_die(die, arg, 1)
            self.emit(f"The spirit discards a card and adds a presence die showing 1 to the "
                      f"{self.room_name(arg)}.", "die")
            self.fire("die_enters_room", room=arg, die=die, by="spirit")
        else:
            dark = [r for r in st.rooms if self.dark(r) and not self.sealed(r)]
            self.ask("increase", st.spirit_seat, "Relocate the die to which dark room?",
                     [(f"{arg}:{r}", f"To the {self.room_name(r)}") for r in dark],
                     "relocate")

    def on_relocate(self: Engine, option: str, prompt: Prompt) -> None:
        die_s, room = option.split(":", 1)
        die = int(die_s)
        self.place_die(die, room, 1)
        self.emit(f"The spirit relocates a presence die to the {self.room_name(room)} "
                  "(reset to 1).", "die")
        self.fire("die_enters_room", room=room, die=die, by="spirit")

    def on_declare_die(self: Engine, option: str, prompt: Prompt) -> None:
        """P-SPIRIT-11: the card is shown to all; powers one at a time (A-17)."""
        st = self.st
        card = str(prompt.data["card"])
        st.spirit.hand.remove(card)
        st.spirit.playing = card
        die = int(option)
        self.emit(f"The spirit plays {self.card_name(card)} with {self.die_label(die)}.",
                  "spirit_card", played=card)  # the recap counts plays by it, not its powers
        self.later(Step(op="power_menu", args={"card": card, "die": die, "used": []}))

    def step_power_menu(self: Engine, card: str, die: int, used: list[str]) -> None:
        sc = self.pack.spirit_card(card)
        d = self.die(die)
        opts: list[tuple[str, str]] = []
        for which in ("top", "bottom"):
            p = self.power(card, which)
            if which not in used and d.room is not None and d.value >= self.power_need(p):
                cost = f"[{p.requirement}/{p.spend}{', drain ' + str(p.drain) if p.drain else ''}]"
                opts.append((which, f"{which.capitalize()} power {cost}: "
                             + (p.text or self.effects_text(p.effects))))
        if not opts:
            self.later(Step(op="card_done", args={"card": card, "used": used}))
            return
        opts.append(("done", "No more powers"))
        self.ask("power", self.st.spirit_seat, f"{sc.name}: which power?", opts, "power",
                 card=card, die=die, used=used)

    def on_power(self: Engine, option: str, prompt: Prompt) -> None:
        card = str(prompt.data["card"])
        die = int(prompt.data["die"])
        used = list(prompt.data["used"])
        if option == "done":
            self.later(Step(op="card_done", args={"card": card, "used": used}))
            return
        p = self.power(card, option)
        d = self.die(die)
        room = d.room
        # Said before the spend: a die spent to 0 fades (P-SPIRIT-06), and the log read "fades
        # to nothing" before the power that spent it.
        spends = f"spends {p.spend}" if p.spend else "spends nothing"  # not "(spends 0)"
        self.emit(f"The spirit uses the {option} power of {self.card_name(card)} "
                  f"({spends}).", "spirit_card")
        self.set_die(die, d.value - p.spend)  # P-SPIRIT-12 (resolves even at 0)
        used.append(option)
        next_step = Step(op="power_menu", args={"card": card, "die": die, "used": used})
        if p.hindered_by_light and room is not None and self.lit(room):
            self.emit("The power is hindered by light and does nothing.",
                      "spirit_card")
            self.later(next_step)
            return
        ctx = self.spirit_ctx(die, room, self.card_name(card), card=card, power=option)
        steps = [self.effects_step(p.effects, ctx),
                 Step(op="power_done", args={"cid": 0, "card": card, "power": option,
                                             "room": room or ""})]
        self.later(*steps, next_step)

    def step_targeted(self: Engine) -> None:
        """G-07: `targeted_by_spirit` reactions fire after the power resolves."""
        seats, self.st.targeted = self.st.targeted, []
        for s in seats:
            self.fire("targeted_by_spirit", visitor=s, by="spirit")

    def step_power_done(self: Engine, cid: int, card: str, power: str, room: str) -> None:
        st = self.st
        self.later(Step(op="targeted"))
        p = self.power(card, power)
        if p.drain and not p.manifestation and room:
            st.drains.append(DrainState(card=card, power=power, room=room))
            self.emit(f"{self.card_name(card)} stays in play with a drain marker in the "
                      f"{self.room_name(room)}.", "drain")

    def step_card_done(self: Engine, card: str, used: list[str]) -> None:
        self.st.spirit.playing = None
        if not any(dr.card == card for dr in self.st.drains):
            self.st.spirit.discard.append(card)  # P-SPIRIT-16 / A-37
