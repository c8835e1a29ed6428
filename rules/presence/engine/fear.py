"""Fear, knock-outs and succumbing (P-FEAR-*, P-KO-*)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.core.game import counted, join_words
from rules.core.types import Prompt
from rules.presence.state import (
    Step,
)

if TYPE_CHECKING:
    from rules.presence.engine import Engine


NERVE_LOST = "Nerve is already lost"
"""Why a fright that would cost nerve makes a visitor succumb (P-SUCC-02)."""


class Fear:
    """The part of `Engine` this module holds (see the module's docstring)."""

    # ------------------------------------------------------------------ fear, KO, succumb
    def suffer_fear(self: Engine, seat: str, n: int, by: str = "any") -> None:
        """P-FEAR-01..04: one step per point; at the end: knocked out, nerve -1 or succumb."""
        v = self.vis(seat)
        track = self.pack.visitor(v.character).fear_track
        suffered = 0
        for _ in range(n):
            if v.knocked_out or v.succumbed:
                break  # P-FEAR-02 / P-FEAR-08
            v.fear += 1
            suffered += 1
            if v.fear >= track:
                v.fear = track
                break
        if not suffered:
            return
        self.emit(f"{self.name(seat)} suffers {suffered} fear ({v.fear}/{track}).", "fear",
                  seat=seat)
        bonus = suffered if self.pack.options.fear_bonus == "per_point" else 1
        steps = [Step(op="fear_bonus", args={"room": v.room})] * bonus
        if v.fear >= track:
            steps.append(Step(op="knock_out", args={"seat": seat, "nerve": True}))
        self.later(*steps)

    def step_fear_bonus(self: Engine, room: str, declined: int = 0) -> None:
        """PR-05: the spirit may +1 one die in the sufferer's room (even if lit). `declined`:
        the bonuses of the same fear the spirit let pass just before, said with this one."""
        cap = self.pack.options.max_presence
        dice = [d for d in self.dice_in(room) if self.die(d).value < cap]
        if not dice:
            self._no_feeding(room, declined)
            return
        opts = [(str(d), f"+1 presence on {self.die_label(d)}") for d in dice]
        opts.append(("no", "Decline"))
        self.ask("fear_bonus", self.st.spirit_seat,
                 f"Fear near your presence in the {self.room_name(room)}: increase a die by 1?",
                 opts, "fear_bonus", room=room, declined=declined)

    def _no_feeding(self: Engine, room: str | None, times: int) -> None:
        """Public (H-29: die values are public, so the choice shows on the board anyway;
        PR-05 on public dice, H-40): said, not left to comparing dice by hand (stop 65). One
        sentence that reads true said twice ("… in the Salon (2 times).", as `told_once`
        says a run): "lets it pass: no die grows (2 times)" did not."""
        if times <= 0:
            return
        where = f" in the {self.room_name(str(room))}" if room else ""
        self.emit(f"The spirit does not feed on the fear{where}"
                  + (f" ({times} times)." if times > 1 else "."), "die")

    def on_fear_bonus(self: Engine, option: str, prompt: Prompt) -> None:
        room = prompt.data.get("room")
        declined = int(prompt.data.get("declined") or 0)
        if option == "no":
            # The next bonus of the same fear asked at once: said with it, as one line (stop
            # 68's demo: two passes in a row ended one board post and began the next, and
            # read as the same pass told twice).
            queue = self.st.queue
            if queue and queue[0].op == "fear_bonus" and queue[0].args.get("room") == room:
                queue[0] = Step(op="fear_bonus",
                                args={**queue[0].args, "declined": declined + 1})
                return
            self._no_feeding(None if room is None else str(room), declined + 1)
            return
        self._no_feeding(None if room is None else str(room), declined)
        d = int(option)
        was = self.die(d).value
        self.set_die(d, was + 1)
        self.emit(f"The spirit feeds on the fear: {self.die_now(d, was)}.", "die")

    def cure_fear(self: Engine, seat: str, n: int) -> None:
        v = self.vis(seat)
        before = v.fear
        v.fear = max(0, v.fear - n)  # P-FEAR-07
        if before != v.fear:
            self.emit(f"{self.name(seat)} cures {before - v.fear} fear.", "fear")

    def step_knock_out(self: Engine, seat: str, nerve: bool) -> None:
        self.knock_out(seat, nerve)

    def knock_out(self: Engine, seat: str, nerve: bool, succumb: bool = False,
                  because: str = "") -> None:
        """P-KO-02: end the action, discard the hand, trash fear cards, smother the candle,
        end the turn (A-21: only on one's own turn); P-FEAR-03 nerve -1 or succumb.
        `because` leads the line when no line before says why ("Nerve is already lost")."""
        st = self.st
        v = self.vis(seat)
        if v.succumbed:
            return
        if not v.knocked_out:
            v.knocked_out = True
            who = f"{because}: {self.listed([seat])}" if because else self.name(seat)
            self.emit(f"{who} is knocked out!", "ko", seat=seat)
            # What the knockout costs, from public things only (fear cards lie face up, the
            # candle is on the board; how many action cards a hand held is not said): stop
            # 63's demo said nothing of it.
            lost = ([f"{counted(len(v.fear_cards), 'fear card')} trashed"] if v.fear_cards
                    else []) + (["the candle smothered"] if v.candle_lit else [])
            # On their own turn the action under way stops (P-KO-02): said, or a secret's
            # second half left undone reads as the bot forgetting it (stop 64's demo). Said
            # whether or not anything was left of it: what was left may be a hidden card's.
            ends = ("; the rest of the action under way does not happen, and the turn ends"
                    if st.phase == "visitor" and st.active == seat else "")
            self.emit("Knocked out: " + join_words([*lost, "every action card in hand "
                                                    "discarded"]) + ends + ".", "ko_cost",
                      seat=seat)
            st.clue_trash.extend(v.fear_cards)
            v.fear_cards.clear()
            v.candle_lit = False
            clues = [c for c in v.hand if not self.is_action_card(c)]
            for c in v.hand:
                if self.is_action_card(c):
                    self.to_action_discard(seat, c)
            v.hand = list(clues)
            # drop the rest of this visitor's own action (P-KO-02)
            st.queue = [s for s in st.queue
                        if not (s.op == "effects" and s.args["ctx"].get("self") == seat
                                and s.args["ctx"].get("owner") == seat)]
            st.prompts = [p for p in st.prompts
                          if not (p.data.get("owner") == seat and seat in p.seats)]
            steps = [Step(op="discard_clue", args={"seat": seat, "card": c}) for c in clues]
            other = self.partner(seat)
            if other is not None:  # P-2P-06: all clue cards of the shared hand go too
                steps += [Step(op="discard_clue", args={"seat": other, "card": c})
                          for c in self.vis(other).hand if not self.is_action_card(c)]
            if nerve and not succumb:
                steps.append(Step(op="ko_nerve", args={"seat": seat}))
            if st.phase == "visitor" and st.active == seat:
                steps.append(Step(op="end_turn_now", args={"seat": seat}))
            self.later(*steps)
        if succumb:
            self.succumb(seat)

    def step_ko_nerve(self: Engine, seat: str) -> None:
        """P-FEAR-03 / P-SUCC-02: nerve -1; if it cannot, succumb."""
        if self.st.nerve is None:
            self.succumb(seat, NERVE_LOST)
        else:
            self.adjust_track("nerve", -1, seat)

    def step_end_turn_now(self: Engine, seat: str) -> None:
        st = self.st
        if st.phase == "visitor" and st.active == seat and st.actions_left >= 0:
            st.queue = [s for s in st.queue if s.op != "effects"
                        or s.args["ctx"].get("owner") != seat]
            other = self.partner(seat)
            if other is not None and self.can_switch(other):
                # P-2P-06: the other character may still use the turn's main actions
                st.active = other
                st.must_rest = False
                self.emit(f"{self.name(seat)} may no longer act this turn. "
                          f"{self.name(other)} carries on.", "turn")
                return
            self.end_visitor_turn()
            st.actions_left = -1  # marks "turn already ending"

    def succumb(self: Engine, seat: str, because: str = "") -> None:
        """P-SUCC-03..05: knocked out for good; no longer a visitor; the bond returns.
        `because` leads the line ("Nerve is already lost", P-SUCC-02)."""
        st = self.st
        v = self.vis(seat)
        if v.succumbed:
            return
        if not v.knocked_out:
            # The cause comes first (stop 66's demo: "The Descendant is knocked out!", its
            # cost, then "Nerve is already lost: the Descendant succumbs"): it leads the
            # knock-out's line, and the succumbing that follows needs it no more.
            self.knock_out(seat, nerve=False, because=because)
            because = ""
        v.succumbed = True
        if st.bonded == seat:
            # the marker returns (P-SUCC-05), but the win test must still see who held it
            v.succumbed_bonded = True
            st.bonded = None
        # After a colon the name reads mid-sentence: "…: the Descendant succumbs" (stop 65)
        who = f"{because}: {self.listed([seat])}" if because else self.name(seat)
        self.emit(f"{who} succumbs to the manor and is no longer a visitor!", "succumb",
                  seat=seat)

    def adjust_track(self: Engine, marker: str, delta: int, forced: str | None) -> None:
        """P-TRACK-02/03/05, A-28: reduce toward time (lost on meeting it) or increase."""
        st = self.st
        val = getattr(st, marker)
        if val is None:
            if marker == "nerve" and delta < 0 and forced is not None:
                self.succumb(forced, NERVE_LOST)  # P-SUCC-02 (A-53: at once)
                return
            # P-TRACK-03: a lost marker cannot return, and the line says so (stop 65's demo:
            # a secret's "hope +1 or nerve +1" with both lost was followed by silence).
            self.emit(f"{marker.capitalize()} is already lost: the "
                      f"{'increase' if delta > 0 else 'reduction'} does nothing.", "track")
            return
        if delta > 0:
            new = min(self.pack.hope_track.spaces, val + delta)
            setattr(st, marker, new)
            # At the track's top nothing moves, and the line says so (stop 63's demo: "Nerve
            # increases to 12." with nerve already at 12).
            self.emit(f"{marker.capitalize()} increases to {new}." if new > val else
                      f"{marker.capitalize()} stays at {new}, the top of the track.", "track")
            return
        new = val + delta
        self.fire("track_reduced")
        if new <= st.time:
            self.lose_marker(marker, -delta)
        else:
            setattr(st, marker, new)
            # By how much, and to what: as a reduction that loses the marker says it (stop 66's
            # demo read "Hope is reduced to 7." beside "Nerve is reduced by 1: …").
            self.emit(f"{marker.capitalize()} is reduced by {-delta}, to {new}.", "track")
