"""The Haunt phase: drawing and resolving Haunt cards, moving Ghosts, Darkness (EX-HAUNT-*)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.core.game import join_words
from rules.exorcism.engine.board import (
    GHOST_NAMES,
    GHOSTS,
)
from rules.exorcism.state import Step

if TYPE_CHECKING:
    from rules.exorcism.engine import Engine



class HauntPhase:
    """The part of `Engine` this module holds (see the module's docstring)."""

    # ------------------------------------------------------------------ the Haunt deck
    def draw_haunt(self: Engine) -> str | None:
        st = self.st
        if not st.haunt_deck and st.haunt_discard:
            # EX-HAUNT-10: only the standard cards come back.
            st.haunt_deck = list(st.haunt_discard)
            st.haunt_discard = []
            st.rng.shuffle(st.haunt_deck)
            st.haunt_seen = 0
            self.emit("The Haunt deck ran out: its standard cards are reshuffled.", "reshuffle")
        if not st.haunt_deck:
            return None
        st.haunt_seen = max(0, st.haunt_seen - 1)
        return st.haunt_deck.pop()

    def haunt_card_face(self: Engine, card_id: str, *, in_house: bool = False) -> str:
        """A standard Haunt card's face as players read it: "Location 6: Wraith right, Bull 6
        spaces right, Devourer left". The Bull's steps are the card's Die Value (EX-GHOST-05),
        said as what they do; the arrows as the board picture shows them (north is up). With
        `in_house`, the card as played now: only the arrows of the Ghosts in the house, the
        others' ignored (EX-HAUNT-09; stop 70: the Ghost player's buttons showed the Bull's
        and the Devourer's arrows before either had come)."""
        card = self.pack.haunt_card(card_id)
        if card.kind != "haunt":
            return self.haunt_card_text(card_id)
        arrows = self.haunt_arrows(card_id)
        if in_house:
            arrows = {g: t for g, t in arrows.items() if self.ghost_in_house(g)}
        if not arrows:  # after the exorcism only Add Darkness is left (`ghost_actions`)
            return f"Location {card.location}"
        return f"Location {card.location}: " + ", ".join(arrows.values())

    def haunt_arrows(self: Engine, card_id: str) -> dict[str, str]:
        """A standard Haunt card's arrows, each Ghost's as `haunt_card_face` says it (none on
        a Darkness, Bull or Devourer card)."""
        card = self.pack.haunt_card(card_id)
        if card.kind != "haunt":
            return {}
        a = card.arrows
        way = {"N": "up", "E": "right", "S": "down", "W": "left"}
        steps = f"{card.die_value} space{'' if card.die_value == 1 else 's'}"
        return {"wraith": f"Wraith {way[a.wraith]}", "bull": f"Bull {steps} {way[a.bull]}",
                "devourer": f"Devourer {way[a.devourer]}"}

    def ghost_in_house(self: Engine, ghost: str) -> bool:
        """Whether `ghost`'s arrow moves it now (EX-HAUNT-09): it has come, none exorcised."""
        return not self.st.exorcised and self.st.ghosts.get(ghost) is not None

    def haunt_card_in_hand(self: Engine, card_id: str) -> str:
        """A card of the Ghost player's hand as its DM lists it: as its buttons play it now
        (`haunt_card_face(in_house=True)`), then the arrows they leave out, marked (stop 70:
        the list showed every arrow beside buttons showing the Wraith's alone)."""
        face = self.haunt_card_face(card_id, in_house=True)
        if self.pack.haunt_card(card_id).kind == "haunt" and self.st.exorcised:
            return f"{face} (the Ghosts are exorcised: its arrows move none)"
        absent = [t for g, t in self.haunt_arrows(card_id).items()
                  if not self.ghost_in_house(g)]
        if not absent:
            return face
        return f"{face} (not in the house yet: {', '.join(absent)})"

    def haunt_card_text(self: Engine, card_id: str) -> str:
        card = self.pack.haunt_card(card_id)
        if card.kind == "haunt":
            face = self.haunt_card_face(card_id)
            location, arrows = face.split(": ", 1)
            return f"Haunt card ({location}): {arrows}"
        return {"darkness": "Darkness card", "bull": "Bull card", "devourer": "Devourer card"}[
            card.kind
        ]

    def resolve_special(self: Engine, card_id: str) -> None:
        """Darkness, Bull and Devourer cards (EX-HAUNT-05..07, EX-AMB-25); the card is already
        out of the game (`reveal_haunt`)."""
        st = self.st
        card = self.pack.haunt_card(card_id)
        if card.kind == "darkness":
            last = len(self.pack.clock.darkness_track) - 1
            before = self.track_value()

            def does(value: int) -> str:
                # A value in what it does (a stop 65 demo: "(value 1)" meant nothing to a
                # player): Ghost Actions in One vs All, Haunt cards drawn otherwise.
                return (f"{value} Ghost Action{'' if value == 1 else 's'} a turn" if self.ova
                        else f"{value} Haunt card{'' if value == 1 else 's'} a turn")

            if st.track_index >= last:  # EX-DARK-02: it cannot pass the final space
                self.emit("Darkness card: the Darkness Track is already on its last space "
                          f"(still {does(before)}).", "darkness")
                return
            st.track_index += 1
            # Several spaces share a value (EX-GAP-11): say where the marker is, and what a
            # new value changes, so three cards never read as one that did not move.
            value = self.track_value()
            where = f"Darkness card: the Darkness Track moves to space {st.track_index + 1}"
            if value == before:
                self.emit(f"{where} (still {does(value)}).", "darkness")
            else:
                what = (f"the Ghost player takes {value} Action{'' if value == 1 else 's'} a "
                        "turn" if self.ova else
                        f"{value} Haunt card{'' if value == 1 else 's'} are drawn each turn")
                self.emit(f"{where}: its value rises to {value}, so {what}.", "darkness")
        elif card.kind in ("bull", "devourer"):
            name = GHOST_NAMES[card.kind]
            if st.exorcised:  # EX-AMB-25; told as a card's line, no turning point (a stop 65 demo)
                self.emit(f"{name} card: the house is exorcised, so it has no effect.",
                          "haunt_card")
            elif st.ghosts.get(card.kind) is None:
                st.ghosts[card.kind] = "attic"
                self.emit(f"{name} card: the {name} enters the house in the Attic.", "ghost")
                # Our ruling on EX-GHOST-07 (rules.md, EX-GHOST-11): arriving in the Attic
                # ends the Monster's movement there, so Characters in the Attic are Wounded.
                self.later(*self.wound_check())

    def step_haunt_draw(self: Engine, left: int) -> None:
        if left <= 0:
            return
        st = self.st
        if st.darkness_supply == 0 and self.opts.darkness_out_loss == "on_any_haunt_draw" and (
            not self.ova
        ):
            self.lose("a Haunt card is drawn and no Darkness Tokens are left.")
            return
        card_id = self.draw_haunt()
        if card_id is None:
            return
        self.later(Step(op="haunt_draw", args={"left": left - 1}))
        told = self.reveal_haunt(card_id)
        # EX-PROMPT-05 (a): Plans may answer the revealed card before it resolves.
        self.later(Step(op="plan_window", args={"reason": "haunt", "card": card_id}),
                   Step(op="haunt_resolve", args={"card": card_id, "told": told}))

    def reveal_haunt(self: Engine, card_id: str) -> dict[str, str]:
        """Turn a drawn card face up: a standard card goes to the discard pile, a Darkness,
        Bull or Devourer card out of the game (EX-AMB-10); it resolves in `step_haunt_resolve`.
        Returns the Ghosts its line told as staying, and where (`ghosts_staying`)."""
        st = self.st
        card = self.pack.haunt_card(card_id)
        if card.kind != "haunt":
            st.haunt_removed.append(card_id)
            return {}
        st.haunt_discard.append(card_id)
        st.last_haunt = self.haunt_card_text(card_id)
        self.emit(self.haunt_card_told(card_id, stays=True) + ".", "haunt_card")
        return self.ghosts_staying(card_id)

    def haunt_card_told(self: Engine, card_id: str, *, stays: bool = False) -> str:
        """A revealed standard card's line: its arrows for the Ghosts in the house only
        (EX-HAUNT-09, EX-HAUNT-11, EX-AMB-25). A stop 65 demo: "Wraith up, Bull 3 spaces down,
        Devourer left." after the exorcism, and arrows of Ghosts not yet come. With `stays`,
        the Ghosts the arrows leave where they are follow (`ghosts_staying`)."""
        card = self.pack.haunt_card(card_id)
        text = self.haunt_card_text(card_id)
        if card.kind != "haunt":
            return text
        head = text.split(": ", 1)[0]
        if self.st.exorcised:
            return f"{head}: no Ghost left to move"
        arrows = text.split(": ", 1)[1].split(", ")
        here = [a for a, g in zip(arrows, GHOSTS, strict=True)
                if self.st.ghosts.get(g) is not None]
        if not here:
            return f"{head}: no Ghost in the house to move"
        told = f"{head}: " + ", ".join(here)
        staying = self.ghosts_staying(card_id) if stays else {}
        if not staying:
            return told
        # A Ghost no Room lies beyond in its arrow's way stays (EX-GAP-16), said with the card
        # (stop 69's demo: "The Bull stays in the Attic, with nothing to its left." on a line
        # of its own after almost every Haunt card); the moves line then leaves it out. Where
        # it stays the picture and the status show.
        if len(staying) == len(here):
            who = {1: "it stays", 2: "both stay"}.get(len(here), "all three stay")
        else:
            who = join_words([f"the {GHOST_NAMES[g]}" for g in staying]) + (
                " stays" if len(staying) == 1 else " stay")
        way = "that way" if len(staying) == 1 else "their way"
        return f"{told} — nothing lies {way}: {who} put"

    def ghosts_staying(self: Engine, card_id: str) -> dict[str, str]:
        """The Ghosts in the house that `card_id`'s arrows leave in their Room: nothing lies
        that way (EX-GAP-16; the Wraith wraps only where a cell lies the other way)."""
        card = self.pack.haunt_card(card_id)
        if card.kind != "haunt" or self.st.exorcised:
            return {}
        out: dict[str, str] = {}
        for g in GHOSTS:
            pos = self.st.ghosts.get(g)
            steps = card.die_value if g == "bull" else 1  # EX-GHOST-05
            if pos is not None and self.geo.ghost_move(
                    g, pos, getattr(card.arrows, g), steps) == pos:
                out[g] = pos
        return out

    def step_haunt_resolve(self: Engine, card: str, told: dict[str, str] | None = None
                           ) -> None:
        face = self.pack.haunt_card(card)
        if face.kind != "haunt":
            self.resolve_special(card)
            return
        steps = self.move_ghosts(card, told)
        self.later(*steps, Step(op="place_darkness", args={"location": face.location}))

    def move_ghosts(self: Engine, card_id: str, told: dict[str, str] | None = None
                    ) -> list[Step]:
        """EX-GHOST-03..07: every Ghost in the house moves, then the Wound check. `told`: the
        Ghosts the card's line already said stay, and where; those go unsaid here."""
        st = self.st
        card = self.pack.haunt_card(card_id)
        if card.kind != "haunt" or st.exorcised:
            return []
        moved: list[str] = []
        went: dict[str, list[str]] = {}  # destination -> the Ghosts that moved there
        for g in GHOSTS:
            pos = st.ghosts.get(g)
            if pos is None:
                continue  # EX-HAUNT-09
            direction = getattr(card.arrows, g)
            steps = card.die_value if g == "bull" else 1  # EX-GHOST-05
            new = self.geo.ghost_move(g, pos, direction, steps)
            st.ghosts[g] = new
            # A Ghost the board's edge holds in place stays: "moves to the Attic" when it was
            # there already reads as a move the picture does not show. The card's line said
            # so and why (`haunt_card_told`); said here only where it did not.
            if new == pos:
                if (told or {}).get(g) != pos:
                    moved.append(f"the {GHOST_NAMES[g]} stays in {self.the_cell(new)}")
                continue
            # Ghosts that end in one Room are told once (EX-GHOST-10; stop 68's demo named
            # the Locked Room (row 3, column 2) three times in one line).
            if new not in went:
                went[new] = []
                moved.append(new)
            went[new].append(f"the {GHOST_NAMES[g]}")
        moved = [f"{join_words(went[m])} {'moves' if len(went[m]) == 1 else 'move'} to "
                 f"{self.the_cell(m)}" if m in went else m for m in moved]
        if moved:
            # The card's line names the arrows of the Ghosts in the house only
            # (`haunt_card_told`): a Ghost not yet come (EX-GHOST-02) goes unsaid here too.
            text = "; ".join(moved)
            self.emit(text[:1].upper() + text[1:] + ".", "ghosts_move")
        return self.wound_check()

    def wound_check(self: Engine) -> list[Step]:
        """Every Character sharing a Room with a Ghost is Wounded (EX-GHOST-07, EX-AMB-16)."""
        out: list[Step] = []
        ghost_cells = self.ghost_cells()
        if not ghost_cells:
            return out
        order = self.turn_order()
        invs = sorted(
            (i for i in self.active_invs() if i.cell in ghost_cells),
            key=lambda i: (order.index(i.seat), 0 if i.role != "secondary" else 1),
        )
        shields: list[str] = []
        hurt: dict[str, list[str]] = {}
        for inv in invs:
            cid = inv.cell
            assert cid is not None
            devour = "devourer" in self.ghosts_in(cid)
            protected = False
            by: str | None = None
            for other in self.active_invs():
                if other.cell != cid:
                    continue
                for m in self.modifiers(other):
                    if m.kind == "protect_roommates" and (other.id != inv.id or m.protects_self):
                        protected = True
                        by = self.inv_name(other) if other.id != inv.id else None
            if protected:
                # The spec's Bodyguard text is silent on where the saved pawn goes; the
                # rulebook FAQ wins: "Anytime an Ability or card stops a player from being
                # Wounded, their Character Pawn is returned to the Foyer" (or an edge Room).
                # Who shields whom (stop 63's demo: "Medium is protected from the Wound.");
                # the placement says where the pawn goes.
                # Said with the shield where it goes (a stop 65 demo: "Photographer is placed in the
                # Foyer." four lines after its shield, with no word why); the `relocate` step
                # still moves it after the Wounds, and is silent where this line said it all.
                # With a Ghost in the Foyer and several edge Rooms free, the Room is chosen
                # later: this line then moves nobody, and the placement says it is the same
                # move (stop 66: "goes to an edge Room" then "is placed in the Locked Room"
                # read as two moves).
                name = self.inv_name(inv)
                options = self.foyer_or_edge()
                told = options is None or len(options) == 1
                goes = ("goes to the Foyer" if options is None
                        else f"goes to {self.the_cell(options[0])} (a Ghost is in the Foyer)"
                        if told else f"a Ghost is in the Foyer, so an edge Room is chosen "
                        f"for {name}")
                if told:
                    shields.append(f"{by} shields {name} from the Wound: {name} {goes}." if by
                                   else f"{name} is shielded from the Wound and {goes}.")
                else:
                    shields.append(f"{by} shields {name} from the Wound: {goes}." if by
                                   else f"{name} is shielded from the Wound: {goes}.")
                out.append(Step(op="relocate", args={"inv": inv.id, "told": told}))
            else:
                hurt.setdefault(cid, []).append(inv.id)
                out.append(Step(op="wound", args={"inv": inv.id, "devour": devour}))
        # One Ghost move Wounds every Character it catches at once (EX-GHOST-07, EX-AMB-16):
        # said together before each Wound and its Rescue are told in turn order (a stop 65 demo told
        # the game-losing second Wound after the first one's Rescue, as if a later event).
        if sum(len(v) for v in hurt.values()) > 1:
            for cid, ids in hurt.items():
                self.emit(self.wounds_told(cid, ids), "wounds")
        for line in shields:
            self.emit(line, "protected")
        return out

    def wounds_told(self: Engine, cid: str, ids: list[str]) -> str:
        """"The Bull wounds the Doctor and the Psychologist in the Foyer." A Plan held may
        still prevent one (EX-PROMPT-06): then the line says so."""
        ghosts = self.ghosts_in(cid)
        devour = "devourer" in ghosts
        who = join_words(["the " + self.inv_name(self.inv(i)) for i in ids])
        by = "The Devourer" if devour else join_words(
            [f"the {GHOST_NAMES[g]}" for g in ghosts])
        by = by[:1].upper() + by[1:]
        many = not devour and len(ghosts) > 1
        if self.triage_holders(devour):
            return (f"{by} {'reach' if many else 'reaches'} {who} in {self.the_cell(cid)}: "
                    f"{'devoured' if devour else 'a Wound'} for each, unless a Plan prevents "
                    "it.")
        verb = "devours" if devour else ("wound" if many else "wounds")
        return f"{by} {verb} {who} in {self.the_cell(cid)}."

    def step_place_darkness(self: Engine, location: int) -> None:
        """Haunt the Rooms (EX-HAUNT-04 step 2, EX-HAUNT-08). The spread is told first and
        each Room it Shrouds after it, and in One vs All a Room the empty supply skips
        (EX-OVA-13) is never said to take Darkness (stop 63's demos)."""
        st = self.st
        hit: list[str] = []
        empty: list[str] = []
        shrouded: list[str] = []
        for cid in self.geo.house:
            cell = st.cells[cid]
            if cell.face_down or cell.shrouded or cell.card is None:
                continue
            if self.pack.room(cell.card).location != location:
                continue
            if self.ova and st.darkness_supply <= 0:
                empty.append(cid)
                continue
            if hit and st.darkness_supply <= 0:
                # EX-HAUNT-12, EX-LOSE-01: the Rooms that took the last Tokens are told before
                # the loss (a stop 65 demo lost on the Key Room with the Cleansing Room's Token
                # unsaid).
                self.emit(f"Darkness spreads to {self.rooms_called(hit)} (Location {location}), "
                          f"and no Darkness Token is left for {self.the_cell(cid)}.",
                          "darkness_placed")
                for done in shrouded:
                    self.tell_shrouded(done)
            if not self.place_token(cid):
                return
            hit.append(cid)
            if cell.shrouded:
                shrouded.append(cid)
        if hit and not empty:
            self.emit(f"Darkness spreads to every Room with Location {location}: "
                      + ", ".join(self.cell_name(c) for c in hit) + ".", "darkness_placed",
                      supply=st.darkness_supply)
        elif hit:
            self.emit(f"Darkness spreads to {self.rooms_called(hit)} (Location {location}), "
                      f"and no Darkness Token is left for {self.rooms_called(empty)}.",
                      "darkness_placed", supply=st.darkness_supply)
        elif empty:
            self.emit(f"No Darkness Token is left for {self.rooms_called(empty)} "
                      f"(Location {location}).", "darkness")
        else:
            # Said, not silent (stop 64's demo: a Haunt card then nothing): from the board
            # alone, a face-down Room's Location being hidden.
            covered = [cid for cid in self.geo.house
                       if st.cells[cid].shrouded and not st.cells[cid].face_down
                       and st.cells[cid].card is not None
                       and self.pack.room(st.cells[cid].card or "").location == location]
            why = (f": {self.rooms_called(covered)} "
                   f"{'is' if len(covered) == 1 else 'are'} Shrouded" if covered else "")
            self.emit(f"No Room with Location {location} takes Darkness{why}.", "darkness")
        for cid in shrouded:
            self.tell_shrouded(cid)

    def rooms_called(self: Engine, cids: list[str]) -> str:
        """'the Supply Room and the Detection Room'."""
        return join_words([self.the_cell(c) for c in cids])

    def place_token(self: Engine, cid: str) -> bool:
        """One Darkness Token onto a Room; False when the game ended (EX-HAUNT-12, EX-DARK-05).
        The caller tells the spread and any Shroud it causes (`step_place_darkness`), and in
        One vs All skips a Room the empty supply cannot reach (EX-OVA-13)."""
        st = self.st
        cell = st.cells[cid]
        if st.darkness_supply <= 0:
            self.lose("a Darkness Token must be placed and none is left.")
            return False
        st.darkness_supply -= 1
        cell.darkness += 1
        if cell.darkness >= self.opts.shroud_at:
            return self.shroud_room(cid)
        return True

    def shroud_room(self: Engine, cid: str) -> bool:
        """EX-DARK-04/05/07 (told by the caller, after the spread: `tell_shrouded`)."""
        st = self.st
        cell = st.cells[cid]
        if st.shrouds_left <= 0:
            if not self.ova:
                self.lose(
                    f"{self.the_cell(cid, capital=True)} takes its 4th Darkness Token and no "
                    "Shrouded Room card is left."
                )
                return False
        else:
            st.shrouds_left -= 1
        cell.shrouded = True
        if self.opts.shroud_returns_darkness:
            st.darkness_supply += cell.darkness
            cell.darkness = 0
        return True

    def tell_shrouded(self: Engine, cid: str) -> None:
        # Once exorcised the Ghosts have left the house (EX-WIN-01) and the Spirit's dying curse
        # drags it on (EX-HAUNT-11, the rulebook's words; stop 69's demo read "the Wraith has
        # taken it" two lines after "the Ghosts are exorcised and leave the house").
        by = "the Spirit's curse" if self.st.exorcised else "the Wraith"
        self.emit(f"{self.the_cell(cid, capital=True)} is Shrouded: {by} has taken it.",
                  "shroud")
