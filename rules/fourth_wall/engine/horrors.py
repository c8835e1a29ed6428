"""Horrors On the Streets: placing, removing, Defeat, attaching Marbles; "on" events."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.core.game import join_words
from rules.fourth_wall.content import SYMBOLS
from rules.fourth_wall.engine.board import SYMBOL_NAMES
from rules.fourth_wall.engine.investigators import ability_clauses
from rules.fourth_wall.state import (
    HorrorOnStreets,
    Step,
)

if TYPE_CHECKING:
    from rules.fourth_wall.engine import Engine


class Horrors:
    """The part of `Engine` this module holds (see the module's docstring)."""

    # ================================================================== horrors
    def place_horror(self: Engine, hid: str, street: int | None = None,
                     manifest_doom: int | None = None) -> bool:
        """Put a Horror On the Streets ({A}: on `street` or the lowest free one); Drained if its
        Manifest Cost says Drain (FW-HORROR-06, FW-AMB-14). False if no Street is free.
        `manifest_doom`: The Wall's Manifest action paid this much Doom, which is said as a
        Trigger's is (FW-WALL-06)."""
        st = self.st
        if self.alliance:
            if street is None:
                street = self.lowest_free_street()
            if street is None:
                return False
        drained = self.horror(hid).manifest.drain
        name = self.horror_name(hid)
        # Conflict has no Street to say: a second of a name is "another" (stop 67's demo: two
        # "The Wall Manifests Watcher" lines in a row read as one line posted twice).
        another = street is None and any(self.horror_name(o.id) == name for o in st.streets)
        st.streets.append(HorrorOnStreets(id=hid, street=street, drained=drained))
        if self.alliance:
            st.streets.sort(key=lambda h: h.street or 0)
        where = f" on Street {street}" if street is not None else ""
        # Every Street's Aura is said when it switches on, not Street 3's alone (stop 65's
        # demo, FW-STREET-01).
        aura = self.street_aura_cost_text(hid) or (
            self.street_aura_said(street) if street is not None and self.alliance else "")
        notes = (["Drained"] if drained else []) + ([aura] if aura else [])
        # The Doom a Manifest spent is said (stop 65's demo: "Breaker is placed On the
        # Streets." after Wrath, the Action Pool untold, while Triggers said theirs).
        head = (f"The Wall Manifests {'another ' if another else ''}{name} ({manifest_doom} "
                "Doom): it is placed" if manifest_doom is not None
                else f"{'Another ' if another else ''}{name} is placed")
        self.emit(f"{head} On the Streets{where}"
                  + (f" ({'; '.join(notes)})." if notes else "."), "manifest", horror=hid)
        return True

    def lowest_free_street(self: Engine) -> int | None:
        used = {h.street for h in self.st.streets}
        for n in self.pack.street_numbers():
            if n not in used:
                return n
        return None

    def remove_horror(self: Engine, hid: str, to: str) -> None:
        """Take a Horror off the Streets: its Attached Marbles are discarded; the Horror goes to
        the discard / The Wall's hand / the deck (FW-HORROR-02/07/08, FW-SCOURGE-04)."""
        st = self.st
        h = self.on_streets(hid)
        if h is None:
            return
        st.streets.remove(h)
        st.marble_discard.extend(h.attached)
        if to == "hand":
            st.wall_hand.append(hid)
        elif to == "deck":
            st.horror_deck.append(hid)
            st.rng.shuffle(st.horror_deck)
        else:
            st.horror_discard.append(hid)
        if st.scourge == hid:
            st.scourge = None
            self.emit("The Scourge is no longer On the Streets: its card is set aside and "
                      "Gates may be closed again.", "scourge")

    def step_defeat(self: Engine, horror: str, deathrattle: bool) -> None:
        """FW-HORROR-02: the Deathrattle first, then discard the Horror and its Marbles."""
        st = self.st
        if self.on_streets(horror) is None or horror in st.defeating:
            return
        st.defeating.append(horror)
        # A Deathrattle skipped is said (stop 64's demo: an Elder Sign's Defeat read as the
        # Deathrattle forgotten).
        skipped = not deathrattle and bool(self.horror(horror).deathrattle)
        # Its Defeat Cost paid with a Street's Aura's extra Symbol: said.
        h = self.on_streets(horror)
        aura = self.street_aura_cost_text(horror) if h and self.is_defeated(h) else ""
        self.emit(f"{self.horror_called(horror)} is Defeated"
                  + (f" ({aura})" if aura else "")
                  + (" without its Deathrattle!" if skipped else "!"), "defeat", horror=horror)
        steps: list[Step] = []
        if deathrattle and self.horror(horror).deathrattle and not self.ignored("deathrattle"):
            said = ability_clauses(self.horror(horror).text, "Deathrattle")
            if said:  # what follows is the card's, not a stray loss (stop 64's demo)
                self.emit(f"{self.horror_called(horror)}'s Deathrattle: {said[0]}",
                          "deathrattle", horror=horror)
            steps.extend(self.card_steps(f"deathrattle:{horror}", "wall", horror=horror))
        steps.append(Step(op="defeat_done", args={"horror": horror}))
        self.later(*steps)

    def step_defeat_done(self: Engine, horror: str) -> None:
        st = self.st
        if horror in st.defeating:
            st.defeating.remove(horror)
        self.remove_horror(horror, "discard")
        self.fire("horror_defeated")

    def step_defeat_check(self: Engine, horror: str) -> None:
        h = self.on_streets(horror)
        if h is not None and horror not in self.st.defeating and self.is_defeated(h):
            self.later(Step(op="defeat", args={"horror": horror, "deathrattle": True}))

    def attach(self: Engine, marble: str, horror: str, inv: str | None) -> None:
        """FW-ACT-05: Attach, resolve the Intervene Instructions, then the Defeat check."""
        st = self.st
        h = self.on_streets(horror)
        if h is None:  # pragma: no cover - callers check
            st.marble_discard.append(marble)
            return
        instructions = bool(self.marble(marble).intervene) and not self.ignored("intervene")
        # An Attach that negates nothing says so, and why (stop 66's demo: a Marble Attached
        # to a Horror whose Defeat Cost had none of its Symbols left read as a step forward).
        why = "" if instructions else self.negates_nothing(marble, h)
        h.attached.append(marble)
        self.emit(f"{self.the_marble(marble)} is Attached to {self.horror_called(horror)}"
                  f"{why}.", "attach", marble=marble, horror=horror)
        steps: list[Step] = []
        if instructions:
            steps.extend(self.card_steps(f"intervene:{marble}", "investigators", inv=inv,
                                         horror=horror, marble=marble))
        steps.append(Step(op="defeat_check", args={"horror": horror}))
        self.later(*steps)

    def negates_nothing(self: Engine, marble: str, h: HorrorOnStreets) -> str:
        """": it negates nothing (…)" when no Symbol of `marble` would negate one still left
        in `h`'s Defeat Cost (FW-HORROR-01: each Symbol negates one of its type; "any
        additional Symbols do nothing"), else ""."""
        cost = self.defeat_cost(h.id)
        have = self.attached_symbols(h)
        shown = [s for s in SYMBOLS if s in self.marble(marble).symbols]
        if any(cost[s] > have[s] for s in shown):
            return ""
        if not shown:
            return ": it negates nothing (it shows no Clue, Force or Science Symbol)"
        name = self.horror_name(h.id)
        missing = [SYMBOL_NAMES[s] + " Symbol" for s in shown if cost[s] == 0]
        spent = [s for s in shown if cost[s] > 0]
        done = join_words([f"{SYMBOL_NAMES[s]} Symbol" if cost[s] == 1
                           else f"{cost[s]} {SYMBOL_NAMES[s]} Symbols" for s in spent])
        verb = "is" if len(spent) == 1 and cost[spent[0]] == 1 else "are"
        if not spent:
            why = f"{name}'s Defeat Cost has no {join_words(missing, 'or')} to negate"
        elif not missing:
            why = (f"{name}'s {done} {verb} already negated, and any additional Symbols do "
                   "nothing")
        else:
            why = (f"{name}'s Defeat Cost has no {join_words(missing, 'or')}, and its {done} "
                   f"{verb} already negated: any additional Symbols do nothing")
        return f": it negates nothing ({why})"

    def take_marble(self: Engine, mid: str) -> None:
        """Remove a Marble from wherever it is (hand, limbo, a Horror, Anchored)."""
        st = self.st
        for inv in st.investigators:
            if mid in inv.hand:
                inv.hand.remove(mid)
                return
        if mid in st.in_play:
            st.in_play.remove(mid)
            return
        if mid in st.anchored:
            st.anchored.remove(mid)
            return
        for h in st.streets:
            if mid in h.attached:
                h.attached.remove(mid)
                return

    def street_marbles(self: Engine, source: str = "any") -> list[str]:
        out: list[str] = []
        if source in ("attached", "any"):
            for h in self.st.streets:
                out.extend(h.attached)
        if source in ("anchored", "any"):
            out.extend(self.st.anchored)
        return out


    # ================================================================== events ("on")
    def fire(self: Engine, event: str) -> None:
        """Resolve every active ``on`` modifier for `event` (FW-WALL-16 Auras, Street 5 ...)."""
        steps: list[Step] = []
        for src, m, this, owner, side in self.mods("on"):
            if m.event == event:
                said = (ability_clauses(self.wall().text, "Aura")
                        if src.startswith("aura:") else [])
                if said:  # what follows is the Aura's (stop 69's demo: "Watcher is Defeated!
                    # The Wall Targets The Bruiser." read as a Target from nowhere)
                    self.emit(f"{self.wall().name}'s Aura: {said[0][:1].lower()}{said[0][1:]}",
                              "aura")
                steps.extend(self.card_steps(f"mod:{src}", side, horror=this, inv=owner))
        if steps:
            self.later(*steps)
