"""Effect primitives of the spirit's cards and powers."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules.core.errors import IllegalAction
from rules.core.game import counted, plural
from rules.core.types import Event, Prompt
from rules.presence.engine.board import (
    SPOKEN_WORD,
)
from rules.presence.state import (
    Step,
)

if TYPE_CHECKING:
    from rules.presence.engine import Engine


class SpiritEffects:
    """The part of `Engine` this module holds (see the module's docstring)."""

    # ---- spirit group
    def pick_die(self: Engine, e_die: str, ctx: dict[str, Any], then: str, **data: Any) -> None:
        """Resolve a die reference; `nearby` asks the spirit when several qualify."""
        room = self.origin(ctx)
        if e_die == "this":
            die = ctx.get("die")
            if die is None and room:
                near = self.dice_in(room)
                die = near[0] if near else None
            if die is not None and self.die(int(die)).room is not None:
                getattr(self, "on_" + then)(str(die), Prompt(
                    id="x", kind="target", seats=[], text="", data=data))
            elif then == "die_steps":  # said, not silent (stop 65's demo: Broken Form)
                self.emit("The die cannot move: it faded." if die is not None else
                          "No presence die is there to move.", "die")
            return
        if e_die == "trigger_die":
            die = ctx.get("trigger_die")
            if die is not None and self.die(int(die)).room is not None:
                getattr(self, "on_" + then)(str(die), Prompt(
                    id="x", kind="target", seats=[], text="", data=data))
            return
        dice = self.dice_in(room) if room else []
        if not dice:
            if then == "die_steps":
                self.emit("No presence die is there to move.", "die")
            return
        if len(dice) == 1:
            getattr(self, "on_" + then)(str(dice[0]), Prompt(
                id="x", kind="target", seats=[], text="", data=data))
            return
        chooser = str(ctx["owner"]) if e_die == "nearby" and then == "reduce" \
            else self.st.spirit_seat
        self.ask("target", chooser, "Choose a presence die.",
                 [(str(d), self.die_label(d)) for d in dice], then, **data)

    def eff_reduce_presence(self: Engine, e: Any, ctx: dict[str, Any]) -> None:
        self.pick_die(e.die, ctx, "reduce", n=e.n)

    def on_reduce(self: Engine, option: str, prompt: Prompt) -> None:
        d = int(option)
        self.emit(f"A presence die loses {prompt.data['n']} presence.", "die")  # then fades
        self.set_die(d, self.die(d).value - int(prompt.data["n"]))

    def eff_increase_presence(self: Engine, e: Any, ctx: dict[str, Any]) -> None:
        self.pick_die(e.die, ctx, "increase_die", n=e.n)

    def on_increase_die(self: Engine, option: str, prompt: Prompt) -> None:
        d = int(option)
        was = self.die(d).value
        self.set_die(d, was + int(prompt.data["n"]))
        self.emit(f"Presence grows: {self.die_now(d, was)}.", "die")

    def eff_move_die(self: Engine, e: Any, ctx: dict[str, Any]) -> None:
        room = self.origin(ctx)
        if e.die == "from_adjacent":
            if room is None:
                return
            cands = [d for r in self.die_neighbours(room) for d in self.dice_in(r)]
            if not cands:  # said, not silent (stop 65's demo: Cold Hand)
                self.emit(f"No presence die is next to the {self.room_name(room)}: none can "
                          "move in.", "die")
                return
            opts = [(str(d), f"Move {self.die_label(d)} here") for d in cands]
            opts.append(("no", "Do not move a die"))
            self.ask("target", self.st.spirit_seat, f"Move a die into the "
                     f"{self.room_name(room)}?", opts, "die_into", room=room,
                     penalty=e.light_penalty)
            return
        self.pick_die(e.die, ctx, "die_steps", steps=e.steps, up_to=e.up_to,
                      penalty=e.light_penalty)

    def on_die_into(self: Engine, option: str, prompt: Prompt) -> None:
        # The spirit's pick is said either way (stop 65's demo: Cold Hand's die came in
        # mid-turn with no cause, or its "may" ended in silence); die values are public.
        room = str(prompt.data["room"])
        self.emit(f"The spirit chooses {'not ' if option == 'no' else ''}to move a presence "
                  f"die into the {self.room_name(room)}.", "die")
        if option != "no":
            self.die_enters(int(option), room, bool(prompt.data["penalty"]))

    def on_die_steps(self: Engine, option: str, prompt: Prompt) -> None:
        self.later(Step(op="die_step", args={"die": int(option),
                                             "steps": int(prompt.data["steps"]),
                                             "up_to": bool(prompt.data["up_to"]),
                                             "penalty": bool(prompt.data["penalty"])}))

    def step_die_step(self: Engine, die: int, steps: int, up_to: bool, penalty: bool,
                      moved: int = 0) -> None:
        """One room a step; `moved`: the rooms this move has gone so far."""
        d = self.die(die)
        if steps <= 0 or d.room is None:
            return
        opts = [(r, f"Move it to the {self.room_name(r)}")
                for r in self.die_neighbours(d.room)]
        if up_to or not opts:
            opts.append(("stop", "Stop"))
        self.ask("target", self.st.spirit_seat, f"Move {self.die_label(die)}: where?", opts,
                 "die_step", die=die, steps=steps, up_to=up_to, penalty=penalty, moved=moved)

    def on_die_step(self: Engine, option: str, prompt: Prompt) -> None:
        die = int(prompt.data["die"])
        steps = int(prompt.data["steps"])
        moved = int(prompt.data.get("moved", 0))
        if option == "stop":
            # Said, or the power reads as lost (stop 65's demo: Drift's "Move this die up
            # to 2 rooms" and then nothing).
            label = self.die_label(die)
            self.emit(f"{label[0].upper()}{label[1:]} does not move."
                      if not moved else f"{label[0].upper()}{label[1:]} moves no further "
                      f"({counted(steps, 'room')} of the move unused).", "die")
            return
        self.later(Step(op="die_step", args={"die": die, "steps": steps - 1, "up_to": True,
                                             "penalty": bool(prompt.data["penalty"]),
                                             "moved": moved + 1}))
        self.die_enters(die, option, bool(prompt.data["penalty"]))

    def eff_add_die(self: Engine, e: Any, ctx: dict[str, Any]) -> None:
        n = len(self.supply()) if e.n == "all" else int(e.n)
        self.later(*[Step(op="add_die") for _ in range(n)])

    def step_add_die(self: Engine) -> None:
        if not self.supply():
            return
        rooms = [r for r in self.st.rooms if self.dark(r) and not self.sealed(r)]
        if not rooms:
            return
        self.ask("target", self.st.spirit_seat, "Add a presence die showing 1 to a dark room.",
                 [(r, f"Add it to the {self.room_name(r)}") for r in rooms], "add_die")

    def on_add_die(self: Engine, option: str, prompt: Prompt) -> None:
        die = self.supply()[0]
        self.place_die(die, option, 1)
        self.emit(f"A presence die showing 1 appears in the {self.room_name(option)}.", "die")
        self.fire("die_enters_room", room=option, die=die, by="spirit")

    def eff_bond(self: Engine, e: Any, ctx: dict[str, Any]) -> None:
        for s in self.who(ctx, e.who)[:1]:
            self.st.bonded = s  # P-BOND-01/02
            self.emit(f"{self.name(s)} is now bonded with the spirit.", "bond")

    def eff_place_pawn(self: Engine, e: Any, ctx: dict[str, Any]) -> None:
        room = self.origin(ctx)
        if room is None or self.st.spirit.pawn_room is not None:
            return
        self.st.spirit.pawn_room = room
        self.emit(f"The spirit manifests in the {self.room_name(room)}!", "manifest")
        self.fire("pawn_enters_room", room=room, by="spirit")

    def eff_move_pawn(self: Engine, e: Any, ctx: dict[str, Any]) -> None:
        self.later(Step(op="pawn_step", args={"steps": e.steps, "cost": e.light_cost}))

    def step_pawn_step(self: Engine, steps: int, cost: int, moved: int = 0) -> None:
        """One room a step; `moved`: the rooms this glide has gone so far."""
        room = self.st.spirit.pawn_room
        if steps <= 0:
            return
        if room is None:
            if not moved:
                self.emit("The spirit pawn is not on the board: it cannot glide.", "pawn")
            return
        opts = [(r, f"Glide to the {self.room_name(r)}") for r in self.pawn_steps(room, cost)]
        opts.append(("stop", "Stop"))
        self.ask("target", self.st.spirit_seat, "Move the spirit pawn: where?", opts,
                 "pawn_step", steps=steps, cost=cost, moved=moved)

    def pawn_steps(self: Engine, room: str, cost: int) -> list[str]:
        """The rooms the pawn in `room` may glide into (G-13): a dark one, or a lit one paid
        with `cost` presence from a die in its own room (P-MANI-04)."""
        payers = [d for d in self.dice_in(room) if self.die(d).value >= cost]
        return [r for r in self.die_neighbours(room) if self.dark(r) or cost == 0 or payers]

    def on_pawn_step(self: Engine, option: str, prompt: Prompt) -> None:
        st = self.st
        moved = int(prompt.data.get("moved", 0))
        if option == "stop":
            # Said, or the Glide reads as lost (stop 65's demo: "The spirit pawn acts:
            # Glide." and then nothing).
            if st.spirit.pawn_room is not None:
                where = f"the {self.room_name(st.spirit.pawn_room)}"
                self.emit(f"The spirit pawn stays in {where}." if not moved else
                          f"The spirit pawn stops in {where}.", "pawn")
            return
        cost = int(prompt.data["cost"])
        room = st.spirit.pawn_room
        payer = None
        if room is not None and self.lit(option) and cost:
            payer = next(d for d in self.dice_in(room) if self.die(d).value >= cost)
        st.spirit.pawn_room = option
        self.emit(f"The spirit pawn glides into the {self.room_name(option)}.", "pawn")
        if payer is not None:  # paid after the glide is said: a die paid to 0 fades after it
            self.set_die(payer, self.die(payer).value - cost)
        self.later(Step(op="pawn_step", args={"steps": int(prompt.data["steps"]) - 1,
                                              "cost": cost, "moved": moved + 1}))
        self.fire("pawn_enters_room", room=option, by="spirit")

    def eff_spirit_speak(self: Engine, e: Any, ctx: dict[str, Any]) -> None:
        # P-DISCORD-08: the grant lasts until used or the spirit turn ends; the words go
        # through `speak` (the bot posts them), so the spirit never types in the thread.
        self.st.speech_grant = {"max_words": e.max_words, "vocabulary": list(e.vocabulary)}
        self.emit(f"The spirit may speak: at most {e.max_words} {plural(e.max_words, 'word')}.",
                  "speak", max_words=e.max_words, vocabulary=list(e.vocabulary))

    def speak(self: Engine, seat: str, words: str) -> list[Event]:
        """The spirit says what an effect allows (P-COMM-09, P-DISCORD-08): only while a
        grant stands, at most its words, from its vocabulary if it has one."""
        st = self.st
        grant = st.speech_grant
        if seat != st.spirit_seat or grant is None:
            raise IllegalAction("The spirit may never communicate unless a game effect "
                                "allows it; nothing lets it speak now.", rule="P-COMM-09")
        said = words.split()
        if not said or len(said) > int(grant["max_words"]):
            raise IllegalAction(f"Say 1 to {grant['max_words']} "
                                f"{plural(grant['max_words'], 'word')}.",
                                rule="P-DISCORD-08")
        bad = [w for w in said if not SPOKEN_WORD.fullmatch(w)]
        if bad:
            raise IllegalAction("Only plain words may be spoken (letters, digits, ' and -, "
                                f"with . , ! ? after): not {bad[0][:30]!r}.",
                                rule="P-DISCORD-08")
        vocab = {str(w).lower() for w in grant.get("vocabulary", [])}
        if vocab and any(w.lower().rstrip(".,!?") not in vocab for w in said):
            raise IllegalAction("Those words are not among the ones this effect allows: "
                                + ", ".join(sorted(vocab)) + ".", rule="P-DISCORD-08")
        st.speech_grant = None
        self.emit(f"The spirit speaks: “{' '.join(said)}”", "speak")
        return self.events

    def whisper_lines(self: Engine) -> list[tuple[str, str]]:
        """P-HORROR-02: the atmospheric lines the spirit may have the bot post (True Horror,
        its own turn, once per turn)."""
        st = self.st
        if not (st.true_horror and st.phase == "spirit" and not st.whispered
                and self.resting()):
            return []
        return [(ln.id, ln.text) for ln in self.pack.presets.horror_lines]

    def eff_spirit_draw(self: Engine, e: Any, ctx: dict[str, Any]) -> None:
        sp = self.st.spirit
        got = 0
        for _ in range(e.n):
            if not sp.deck and sp.discard:
                sp.deck = list(sp.discard)
                sp.discard.clear()
                self.st.rng.shuffle(sp.deck)
            if sp.deck:
                sp.hand.append(sp.deck.pop())
                got += 1
        self.emit(f"The spirit draws {counted(got, 'spirit card')}.", "spirit")
        if got:  # H-02: only the spirit is told which
            self.emit("You draw " + self.cards_text(sp.hand[-got:]) + ".", "draw",
                      [self.st.spirit_seat])
