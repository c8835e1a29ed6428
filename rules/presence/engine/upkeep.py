"""Upkeep: the start and end of a round, candles, the Hope Track (P-UPKEEP-*)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.core.game import plural
from rules.core.types import Prompt
from rules.presence.state import (
    Step,
    Token,
)

if TYPE_CHECKING:
    from rules.presence.engine import Engine


class Upkeep:
    """The part of `Engine` this module holds (see the module's docstring)."""

    # ------------------------------------------------------------------ upkeep
    def step_upkeep(self: Engine) -> None:
        """P-UPKEEP-01: win check, spirit clues (even rounds), time, end of round (drain)."""
        st = self.st
        st.phase = "upkeep"
        st.active = st.spirit_seat
        drain = [Step(op="upkeep_drain", args={"index": 0}), Step(op="upkeep_pawn")]
        time = [Step(op="upkeep_time")]
        # the numbered list (time, then end-of-round drain) or the Round Overview order
        middle = drain + time if self.pack.options.upkeep_order == "overview" else time + drain
        self.later(Step(op="upkeep_win"), Step(op="upkeep_clues"), *middle,
                   Step(op="upkeep_end"))

    def step_upkeep_win(self: Engine) -> None:
        st = self.st
        visitors_win = self.visitors_win()
        spirit_wins = self.spirit_wins(visitors_win)
        winners: list[str] = []
        surviving = self.surviving()
        if visitors_win:
            # Results name seats, never character slots: a two-player visitor player wins
            # when either of their characters survives (P-WIN-03, P-2P-05, A-63).
            for v in surviving:
                player = st.controller.get(v.seat, v.seat)
                if player not in winners:
                    winners.append(player)
        if spirit_wins:
            winners.append(st.spirit_seat)
        if winners:
            who = []
            if visitors_win:
                who.append("the visitor player" if st.controller else "the surviving visitors")
            if spirit_wins:
                who.append("the spirit")
            verb = "wins" if len(who) == 1 and who != ["the surviving visitors"] else "win"
            reason = " and ".join(who).capitalize() + f" {verb}."
            if visitors_win and st.controller:
                listed = self.listed([v.seat for v in surviving])  # "The Descendant and the
                reason += (f" {listed[:1].upper() + listed[1:]} "  # Orphan", one capital
                           + ("survives" if len(surviving) == 1 else "survive")
                           + " the manor.")
            self.finish(winners, reason)
            return
        if st.round >= self.pack.hope_track.final_round:
            self.finish([], "Eternal Darkness: nobody achieved their goal by the end of the "
                        "final round. The only winner is Wrightwatch Manor.")

    def finish(self: Engine, winners: list[str], reason: str) -> None:
        st = self.st
        st.outcome = "over"
        st.winners = winners
        st.reason = reason
        st.phase = "over"
        st.queue.clear()
        st.prompts.clear()
        if st.script and not st.script_revealed:
            script = self.pack.script(st.script)
            self.emit(f"The spirit's script was {script.name} ({script.alignment}).", "script")
        self.emit(reason, "over")

    def step_upkeep_clues(self: Engine) -> None:
        """P-UPKEEP-04/05: even rounds, V spirit clues to different dark rooms, dice first."""
        st = self.st
        if st.round not in self.pack.hope_track.even_rounds:
            return
        for _ in range(self.v_count):
            if not st.spirit_clue_bag and st.spirit_clue_discard:
                st.spirit_clue_bag = list(st.spirit_clue_discard)
                st.spirit_clue_discard.clear()
                st.rng.shuffle(st.spirit_clue_bag)
            if not st.spirit_clue_bag:
                break
            st.drawn_spirit_clues.append(st.spirit_clue_bag.pop())
        if st.drawn_spirit_clues:
            drawn = len(st.drawn_spirit_clues)
            self.emit(f"The spirit draws {drawn} spirit {plural(drawn, 'clue')}.", "clue")
            self.later(Step(op="place_drawn_clue", args={"used": [], "setup": False}))

    def placement_rooms(self: Engine, used: list[str]) -> list[str]:
        """A-35: dark, different; rooms with a die first."""
        rooms = [r for r in self.st.rooms if r not in used and self.dark(r)
                 and not self.sealed(r)]
        with_die = [r for r in rooms if self.dice_in(r)]
        return with_die or rooms

    def step_place_drawn_clue(self: Engine, used: list[str], setup: bool) -> None:
        st = self.st
        if not st.drawn_spirit_clues:
            return
        clue = st.drawn_spirit_clues[0]
        if setup:
            rooms = [r for r in self.pack.clue_rooms_in_play(st.n)
                     if r in st.rooms and not st.tokens.get(r)]
        else:
            rooms = self.placement_rooms(used)
        if not rooms:
            st.drawn_spirit_clues.pop(0)
            st.spirit_clue_bag.insert(0, clue)  # back into the bag
            self.later(Step(op="place_drawn_clue", args={"used": used, "setup": setup}))
            return
        name = self.pack.spirit_clue_of(clue).name
        # The clue lies face down; at setup a presence die showing 1 joins it (the die is
        # never face down: "and a presence die face down" read so).
        self.ask("place_spirit_clue", st.spirit_seat,
                 f"Place the spirit clue {name} face down in "
                 + ("an empty room, with a presence die showing 1." if setup else
                    "a dark room (each clue to a different room, which may already hold "
                    "clue tokens; rooms with a presence die first)."),
                 [(r, f"Place it in the {self.room_name(r)}") for r in rooms], "place_clue",
                 private=True, used=used, setup=setup)

    def on_place_clue(self: Engine, option: str, prompt: Prompt) -> None:
        st = self.st
        clue = st.drawn_spirit_clues.pop(0)
        st.tokens.setdefault(option, []).append(Token(kind="spirit", id=clue))
        setup = bool(prompt.data["setup"])
        if setup:
            die = self.supply()[0]
            self.place_die(die, option, 1)
            self.die(die).fresh = False
            self.emit(f"The spirit places a spirit clue and a presence die showing 1 in the "
                      f"{self.room_name(option)}.", "setup")
        else:
            self.emit(f"The spirit places a spirit clue in the {self.room_name(option)}.",
                      "clue")
        self.later(Step(op="place_drawn_clue",
                        args={"used": [*prompt.data["used"], option], "setup": setup}))

    def step_upkeep_time(self: Engine) -> None:
        """P-UPKEEP-06: time moves up; a marker it reaches is lost."""
        st = self.st
        st.time += 1
        self.emit(f"Time passes: the time marker moves to {st.time}.", "track")
        for marker in ("hope", "nerve"):
            val = getattr(st, marker)
            if val is not None and st.time >= val:
                self.lose_marker(marker)

    def lose_marker(self: Engine, marker: str, reduced: int = 0) -> None:
        """P-TRACK-03/04: the marker is lost; the script of that type is revealed. `reduced`:
        the reduction that took it there, said first (stop 65's demo: a secret's "nerve -1"
        lost the marker with no word of the reduction)."""
        st = self.st
        setattr(st, marker, None)
        cause = f"{marker.capitalize()} is reduced by {reduced}: the" if reduced > 0 else "The"
        self.emit(f"{cause} {marker} marker meets the time marker and is lost!", "track")
        if st.script and not st.script_revealed and self.pack.script(st.script).type == marker:
            self.reveal_script()

    def reveal_script(self: Engine) -> None:
        st = self.st
        script = self.pack.script(st.script)
        st.script_revealed = True
        self.emit(f"The spirit's script is revealed: {script.name} ({script.alignment}). "
                  f"Its bottom half now applies: {script.bottom.text}", "script")
        if script.reveal:
            # Said before it resolves (stop 65's demo: "Targeted: the Orphan and the
            # Detective." came from nowhere): the "Reveal: …" clause of the script's text.
            clause = script.text.partition("Reveal:")[2].strip()
            self.emit("The script's reveal effect: " + (clause or "it resolves now."),
                      "script")
            self.later(self.effects_step(script.reveal, self.spirit_ctx(None, None,
                                                                        "the script")))

    def step_upkeep_drain(self: Engine, index: int) -> None:
        """P-DRAIN-03 / PR-14: each marker is paid from a die in its room, or released."""
        st = self.st
        if index >= len(st.drains):
            return
        dr = st.drains[index]
        power = self.power(dr.card, dr.power)
        cost = power.drain
        payers = [d for d in self.dice_in(dr.room) if self.die(d).value >= cost]
        name = self.pack.spirit_card(dr.card).name
        opts = [(str(d), f"Pay {cost} from {self.die_label(d)}") for d in payers]
        opts.append(("release", f"Release {name} (its effect ends)"))
        self.ask("drain", st.spirit_seat,
                 f"Drain: pay {cost} presence for {name} ({dr.power}) in the "
                 f"{self.room_name(dr.room)}, or release it.", opts, "drain", index=index)

    def on_drain(self: Engine, option: str, prompt: Prompt) -> None:
        st = self.st
        index = int(prompt.data["index"])
        dr = st.drains[index]
        name = self.pack.spirit_card(dr.card).name
        if option == "release":
            st.drains.pop(index)
            if not any(o.card == dr.card for o in st.drains):
                st.spirit.discard.append(dr.card)
            self.emit(f"The spirit releases {name}; its drain effect ends.", "drain")
            self.later(Step(op="upkeep_drain", args={"index": index}))
            return
        cost = self.power(dr.card, dr.power).drain
        d = int(option)
        # Said before the payment: a die paid to 0 fades (P-SPIRIT-06), said after its cause.
        # from which die (stop 65's demo: "…to keep Echo." then "A presence die in the Great
        # Hall fades…" left the payer to guess; die values are public, H-29)
        self.emit(f"The spirit pays {cost} presence from {self.die_label(d)} to keep {name}.",
                  "drain")
        self.set_die(d, self.die(d).value - cost)
        self.later(Step(op="upkeep_drain", args={"index": index + 1}))

    def step_upkeep_pawn(self: Engine) -> None:
        """P-MANI-02: pay the manifestation drain near the pawn, or remove the pawn."""
        st = self.st
        if st.spirit.pawn_room is None:
            return
        cost = self.pack.manifestation.drain
        payers = [d for d in self.dice_in(st.spirit.pawn_room) if self.die(d).value >= cost]
        opts = [(str(d), f"Pay {cost} from {self.die_label(d)}") for d in payers]
        opts.append(("release", "Remove the spirit pawn"))
        self.ask("drain", st.spirit_seat,
                 f"Manifestation drain: pay {cost} presence near the pawn or remove it.",
                 opts, "pawn_drain")

    def on_pawn_drain(self: Engine, option: str, prompt: Prompt) -> None:
        st = self.st
        if option == "release":
            st.spirit.pawn_room = None
            self.emit("The spirit pawn fades from the manor.", "drain")
            return
        d = int(option)
        # How much and from which die (stop 65's demo: "The spirit pays presence to stay
        # manifested." named neither; die values are public, H-29), then any fade.
        self.emit(f"The spirit pays {self.pack.manifestation.drain} presence from "
                  f"{self.die_label(d)} to stay manifested.", "drain")
        self.set_die(d, self.die(d).value - self.pack.manifestation.drain)

    def step_upkeep_end(self: Engine) -> None:
        st = self.st
        st.round += 1
        self.later(Step(op="round_start"))
