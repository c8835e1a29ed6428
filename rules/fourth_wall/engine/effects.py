"""Card effects, one `eff_*` per primitive of the content pack, and the quick-use windows."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rules.core.deck import put_on_top
from rules.core.game import counted, plural
from rules.core.types import Action, act
from rules.fourth_wall import actions as K
from rules.fourth_wall.engine.board import (
    CUSTOM_EFFECTS,
    SINGLE_WHO,
    symbols_text,
)
from rules.fourth_wall.engine.core import FREE_AFTER_REGROUP, listed, marbles_listed
from rules.fourth_wall.state import (
    Frame,
    Grant,
    InvestigatorState,
    Shield,
    Step,
)

if TYPE_CHECKING:
    from rules.fourth_wall.engine import Engine


class Effects:
    """The part of `Engine` this module holds (see the module's docstring)."""

    # ================================================================== effects
    def eff_lose_marble(self: Engine, eff: Any, fr: Frame, step: Step) -> None:
        who = self.resolve_who(eff.who, fr, step)
        if who is None:
            return
        if not who and eff.who in SINGLE_WHO:
            self.fail(fr, "No Investigator can be affected: the Instruction cannot be "
                          "completed.")
            return
        self.later(*[Step(op="lose", args={"f": fr.id, "inv": i, "mode": eff.mode})
                     for i in who for _ in range(eff.n)])

    def eff_draw_marbles(self: Engine, eff: Any, fr: Frame, step: Step) -> None:
        who = self.resolve_who(eff.who, fr, step)
        if who is None:
            return
        if not who and eff.who in SINGLE_WHO:
            self.fail(fr, "No Investigator can draw: the Instruction cannot be completed.")
            return
        for i in who:
            self.draw_into(self.inv(i), eff.n, fr)

    def eff_draw_to_sanity(self: Engine, eff: Any, fr: Frame, step: Step) -> None:
        who = self.resolve_who(eff.who, fr, step)
        if who is None:
            return
        if not who and eff.who in SINGLE_WHO:
            self.fail(fr)
            return
        for i in who:
            inv = self.inv(i)
            self.draw_into(inv, max(0, self.hand_limit(inv) - len(inv.hand)), fr)

    def draw_into(self: Engine, inv: InvestigatorState, n: int, fr: Frame | None) -> None:
        drawn: list[str] = []
        for _ in range(n):
            m = self.draw_marble()
            if m is None:
                self.fail(fr, "The Marble deck and discard pile are empty.")
                break
            inv.hand.append(m)
            drawn.append(m)
        if drawn:
            # "a Marble" as the rulebook says it, not "1 Marble" (stop 67's demo read)
            many = f"{len(drawn)} {plural(len(drawn), 'Marble')}" if len(drawn) > 1 else \
                "a Marble"
            self.emit_team(f"{self.inv_name(inv)} draws {many}.",
                           f"{self.inv_name(inv)} draws "
                           + marbles_listed([self.marble_name(m) for m in drawn]) + ".",
                           "draw")

    def eff_take_from_marble_discard(self: Engine, eff: Any, fr: Frame, step: Step) -> None:
        who = self.resolve_who(eff.who, fr, step)
        if who is None:
            return
        if not who:
            self.fail(fr)
            return
        self.later(*[Step(op="take_discard", args={"f": fr.id, "inv": i})
                     for i in who for _ in range(eff.n)])

    def step_take_discard(self: Engine, f: int, inv: str, marble: str | None = None) -> None:
        fr = self.frame(f)
        st = self.st
        i = self.inv(inv)
        if marble is not None:
            st.marble_discard.remove(marble)
            i.hand.append(marble)
            self.emit(f"{self.inv_name(i)} takes {self.a_marble(marble)} from the Marble "
                      "discard pile.", "take")
            return
        if not st.marble_discard or i.insane:
            self.fail(fr, "The Marble discard pile is empty.")
            return
        if fr is None:
            return
        self.choose(self.decider(fr), "choose_marble", "Take a Marble from the discard pile.",
                    [act(K.CHOOSE_MARBLE, marble=m)
                     for m in self.distinct(list(reversed(st.marble_discard)))],
                    Step(op="take_discard", args={"f": f, "inv": inv}), "marble")

    def eff_take_street_marble(self: Engine, eff: Any, fr: Frame, step: Step) -> None:
        who = self.resolve_who(eff.who, fr, step)
        if who is None:
            return
        if not who:
            self.fail(fr)
            return
        self.later(*[Step(op="take_street", args={"f": fr.id, "inv": i, "source": eff.source})
                     for i in who for _ in range(eff.n)])

    def step_take_street(self: Engine, f: int, inv: str, source: str, marble: str | None = None
                         ) -> None:
        fr = self.frame(f)
        i = self.inv(inv)
        if marble is not None:
            label = self.street_marble_label(marble)
            self.take_marble(marble)
            i.hand.append(marble)
            self.emit(f"{self.inv_name(i)} takes the {label} into hand.", "take")
            return
        cands = self.street_marbles(source)
        if not cands or fr is None:
            self.fail(fr, "There is no such Marble On the Streets.")
            return
        self.choose(self.decider(fr), "choose_marble", "Choose a Marble On the Streets.",
                    [act(K.CHOOSE_MARBLE, marble=m) for m in cands],
                    Step(op="take_street", args={"f": f, "inv": inv, "source": source}),
                    "marble")

    def eff_give_marbles(self: Engine, eff: Any, fr: Frame, step: Step) -> None:
        giver = self.resolve_who(eff.giver, fr, step, key="giver")
        if giver is None:
            return
        if not giver:
            self.fail(fr)
            return
        self.later(Step(op="give_multi", args={"f": fr.id, "giver": giver[0], "to": eff.to,
                                               "left": eff.n, "given": 0,
                                               "up_to": eff.up_to}))

    def step_give_multi(
        self: Engine, f: int, giver: str, to: str, left: int, given: int, up_to: bool,
                        marble: str | None = None, who: Any = None) -> None:
        fr = self.frame(f)
        if fr is None:
            return
        g = self.inv(giver)
        args = {"f": f, "giver": giver, "to": to, "left": left, "given": given, "up_to": up_to}
        if marble is None:
            if left <= 0:
                return
            if not g.hand or g.insane:
                if not up_to or given == 0:
                    self.fail(fr, f"{self.inv_name(g)} has no Marble to Give.")
                return
            opts = [act(K.CHOOSE_MARBLE, marble=m) for m in self.distinct(g.hand)]
            if up_to:
                opts.append(act(K.STOP))
            self.ask(g.seat, "give_marble", f"{self.inv_name(g)}: choose a Marble to Give "
                     f"({left} left).", opts, Step(op="give_multi", args=args), "marble")
            return
        if marble == "" or marble is None:
            return
        step = Step(op="give_multi", args={**args, "marble": marble})
        if who is not None:
            step.args["who"] = who
        recipients = self.resolve_who(to, fr, step)
        if recipients is None:
            return
        if not recipients:
            self.fail(fr, "No Investigator can receive the Marble.")
            return
        self.give(g, self.inv(recipients[0]), marble)
        self.later(Step(op="give_multi", args={**args, "left": left - 1, "given": given + 1}))

    def give(self: Engine, giver: InvestigatorState, to: InvestigatorState, marble: str,
             free: bool = False) -> None:
        """`free`: a Give in the window after a Regroup (FW-ACT-08 d), said to cost nothing
        in the public line; the team's DM line beside it names the Marble only (stop 67)."""
        giver.hand.remove(marble)
        to.hand.append(marble)
        why = FREE_AFTER_REGROUP if free else ""
        self.emit_team(f"{self.inv_name(giver)} gives a Marble to {self.inv_name(to)}{why}.",
                       f"{self.inv_name(giver)} gives {self.a_marble(marble)} to "
                       f"{self.inv_name(to)}.", "give")

    def eff_give_or_trade(self: Engine, eff: Any, fr: Frame, step: Step) -> None:
        if fr.inv is None:
            self.fail(fr)
            return
        inv = self.inv(fr.inv)
        partners = self.sane(exclude=inv.id)
        opts: list[Action] = []
        if inv.hand:
            opts += [act(K.GIVE_OR_TRADE_GIVE, to=p.id) for p in partners]
            opts += [act(K.GIVE_OR_TRADE_TRADE, **{"with": p.id}) for p in partners if p.hand]
        if not opts:
            self.fail(fr, "Nobody to Give or Trade with.")
            return
        self.ask(inv.seat, "give_or_trade", "Give or Trade (free).", opts,
                 Step(op="gt_choice", args={"f": fr.id, "inv": inv.id}))

    def step_gt_choice(self: Engine, f: int, inv: str, answer: dict[str, Any]) -> None:
        p = answer["params"]
        if answer["kind"] == K.GIVE_OR_TRADE_GIVE:
            self.later(Step(op="give_pick", args={"inv": inv, "to": p["to"], "pool": "free",
                                                  "cost": 0, "f": f}))
        else:
            self.later(Step(op="trade_mine", args={"inv": inv, "with": p["with"],
                                                   "pool": "free", "cost": 0, "f": f}))

    def eff_find(self: Engine, eff: Any, fr: Frame, step: Step) -> None:
        """FW-TERM-08: the discard pile first, then the deck (shuffled if searched)."""
        name = eff.name or step.args.get("name")
        if name is None:
            names = sorted({m.name for m in self.pack.marbles} if eff.deck == "marble"
                           else {h.name for h in self.pack.horrors})
            self.choose(self.decider(fr), "choose_name", "Name the card to Find.",
                        [act(K.CHOOSE_NAME, name=n) for n in names],
                        Step(op="eff", args=dict(step.args)), "name")
            return
        st = self.st
        lookup: Callable[[str], str]
        if eff.deck == "marble":
            discard, deck, lookup = st.marble_discard, st.marble_deck, self.marble_name
        else:
            discard, deck, lookup = st.horror_discard, st.horror_deck, self.horror_name
        found = next((c for c in reversed(discard) if lookup(c) == name), None)
        # Where it was found is said, and the shuffle (stop 65's demo: "Ghoul is found." then
        # "The delved Ghoul goes to the Horror discard pile.", two Ghouls, FW-TERM-08).
        where = " in the discard pile"
        if found is not None:
            discard.remove(found)
        else:
            where = " in the deck, which is then shuffled"
            found = next((c for c in reversed(deck) if lookup(c) == name), None)
            if found is not None:
                deck.remove(found)
            st.rng.shuffle(deck)
        if found is None:
            fr.stop = True  # the Action spent trying is lost; no other penalty (FW-AMB-16)
            self.emit(f"No {name} can be found: the effort is lost.", "find")
            return
        self.emit(f"{name} is found{where}.", "find")
        if eff.deck == "marble":
            if fr.inv is None or self.inv(fr.inv).insane:
                st.marble_discard.append(found)
                self.fail(fr)
                return
            self.inv(fr.inv).hand.append(found)
        elif eff.to == "streets":
            if not self.place_horror(found):
                st.horror_discard.append(found)
                self.fail(fr, f"No Street is free: the {name} is discarded.")
                return
            fr.data["same_horror"] = found
        elif self.conflict:
            st.wall_hand.append(found)
        else:
            st.horror_discard.append(found)
            self.fail(fr)

    def eff_blitz(self: Engine, eff: Any, fr: Frame, step: Step) -> None:
        act_inv = self.active()
        inv = fr.inv or (act_inv.id if act_inv is not None else None)
        self.later(Step(op="blitz", args={"f": fr.id, "inv": inv, "n": eff.n,
                                          "symbols": list(eff.symbols)}))

    def reaction_marbles(self: Engine, inv: InvestigatorState, window: str, affected: str | None
                         ) -> list[str]:
        out = []
        for mid in self.distinct(inv.hand):
            for r in self.marble(mid).reactions:
                if r.window == window and (r.scope == "any" or affected == inv.id):
                    out.append(mid)
                    break
        return out

    def use_reaction(
        self: Engine, inv: InvestigatorState, marble: str, window: str) -> dict[str, int]:
        """Discard a quick-use Marble and resolve its effects; returns the pending-event
        effects (``ignore_loss``, ``blitz_bonus``)."""
        card = self.marble(marble)
        idx = next(k for k, r in enumerate(card.reactions) if r.window == window)
        inv.hand.remove(marble)
        self.st.marble_discard.append(marble)
        self.emit(f"{self.inv_name(inv)} discards {self.a_marble(marble)} (quick use).", "react")
        result = {"ignore_loss": 0, "blitz_bonus": 0}
        others = False
        for e in card.reactions[idx].effects:
            if e.op == "ignore_loss":
                result["ignore_loss"] = 1
            elif e.op == "blitz_bonus":
                result["blitz_bonus"] += e.n
            else:
                others = True
        if others:
            self.later(*self.card_steps(f"reaction:{marble}:{idx}", "investigators",
                                        inv=inv.id))
        return result

    # ---------------------------------------------------------- quick-use windows
    def window_invs(self: Engine, window: str, affected: str | None, seat: str | None = None
                    ) -> list[InvestigatorState]:
        """Investigators a quick-use window opens for (of one seat, or all), the affected one
        first. In Conflict hands are hidden from The Wall, so who is asked depends only on what
        the board shows (FW-VIS-32): every non-Insane Investigator with a hand whom some card
        of the pack could let react, whether or not they hold one. In Alliance nothing is
        hidden: only those holding such a card are asked."""
        scopes = {r.scope for m in self.pack.marbles for r in m.reactions if r.window == window}
        out = []
        for i in self.from_active():
            if (seat is not None and i.seat != seat) or i.insane or not i.hand:
                continue
            if self.conflict:
                if "any" in scopes or (scopes and i.id == affected):
                    out.append(i)
            elif self.reaction_marbles(i, window, affected):
                out.append(i)
        out.sort(key=lambda i: i.id != affected)
        return out

    def window_seats(
        self: Engine, window: str, affected: str | None, last: bool = False) -> list[str]:
        """The seats a window asks, one prompt each, in order (the affected Investigator's
        seat first, or last when its own choice of Marble follows in the same prompt)."""
        seats: list[str] = []
        for i in self.window_invs(window, affected):
            if i.seat not in seats:
                seats.append(i.seat)
        if last and affected is not None and self.seat_of(affected) in seats:
            seats.remove(self.seat_of(affected))
            seats.append(self.seat_of(affected))
        return seats

    def window_answers(self: Engine, seat: str, window: str, affected: str | None) -> list[Action]:
        return [act(K.REACT, inv=i.id, marble=m)
                for i in self.window_invs(window, affected, seat)
                for m in self.reaction_marbles(i, window, affected)]

    def window_holder(self: Engine, seat: str, answer: dict[str, Any]) -> InvestigatorState:
        """Who plays a REACT answer (stored games may hold answers without ``inv``)."""
        p = answer["params"]
        if p.get("inv"):
            return self.inv(str(p["inv"]))
        marble = str(p["marble"])
        return next(i for i in self.invs_of(seat) if marble in i.hand)

    def window_names(self: Engine, seat: str, window: str, affected: str | None) -> str:
        return " or ".join(self.inv_name(i) for i in self.window_invs(window, affected, seat))

    def step_blitz(self: Engine, f: int, inv: str | None, n: int, symbols: list[str],
                   reactors: list[str] | None = None,
                   answer: dict[str, Any] | None = None, seats: list[str] | None = None
                   ) -> None:
        """FW-TERM-03 with the Adrenaline window first (FW-PROMPT-12, FW-VIS-32)."""
        st = self.st
        fr = self.frame(f)
        window = "before_blitz_reveal"
        if seats is None:  # ``reactors``: investigator ids, in games stored before seats
            seats = (self.window_seats(window, inv) if reactors is None
                     else list(dict.fromkeys(self.seat_of(r) for r in reactors)))
        if answer is not None and seats:
            if answer["kind"] == K.REACT:
                holder = self.window_holder(seats[0], answer)
                marble = str(answer["params"]["marble"])
                again = any(r.repeatable for r in self.marble(marble).reactions
                            if r.window == window)
                res = self.use_reaction(holder, marble, window)
                n += res["blitz_bonus"]
                self.emit(f"The Blitz now reveals {n} {plural(n, 'card')}.", "blitz")
                if not again:
                    seats = seats[1:]
            else:
                seats = seats[1:]
        seats = [s for s in seats if self.window_invs(window, inv, s)]
        if seats:
            seat = seats[0]
            opts = [*self.window_answers(seat, window, inv), act(K.DECLINE)]
            names = self.window_names(seat, window, inv)
            head = f"Blitz ({n}) [{symbols_text(symbols)}]: {names} may discard a quick-use " \
                   "Marble to reveal more cards"
            private = head + ("." if len(opts) > 1 else
                              " (you hold none: continue).")
            self.ask(seat, "blitz_window", private, opts,
                     Step(op="blitz", args={"f": f, "inv": inv, "n": n, "symbols": symbols,
                                            "seats": seats}),
                     public_text=head + ".", seat_only=True, window=window)
            return
        cards: list[str] = []
        for _ in range(n):
            m = self.draw_marble()
            if m is None:
                self.fail(fr, "The Marble deck and discard pile are empty.")
                break
            cards.append(m)
        st.revealed_cards = list(cards)
        self.emit(f"Blitz ({n}) [{symbols_text(symbols)}] reveals: "
                  + (marbles_listed([self.marble_name(m) for m in cards]) or "nothing") + ".",
                  "blitz", cards=cards)
        matching = [m for m in cards if set(self.marble(m).symbols) & set(symbols)]
        for m in cards:
            if m not in matching:
                st.marble_discard.append(m)
        unmatched = [m for m in cards if m not in matching]
        if unmatched:
            # Said (a stop 65 demo: 'reveals: 2 Clue Marbles and a Force Marble.', then only
            # the Force Marble's Attach; the Clue Marbles vanished unsaid), FW-TERM-03.
            names = marbles_listed([self.marble_name(m) for m in unmatched])
            self.emit(f"Discarded, as it shares no Symbol with the Blitz: {names}."
                      if len(unmatched) == 1 else
                      f"Discarded, as they share no Symbol with the Blitz: {names}.", "blitz")
        st.in_play.extend(matching)
        if matching:
            self.later(Step(op="blitz_place", args={"f": f, "inv": inv, "pending": matching}))

    def step_blitz_place(self: Engine, f: int, inv: str | None, pending: list[str],
                         card: str | None = None, horror: str | None = None) -> None:
        """FW-PROMPT-13: the resolving Investigator orders the cards and picks each Horror."""
        st = self.st
        fr = self.frame(f)
        pending = [m for m in pending if m in st.in_play]
        if not pending:
            return
        if not st.streets:  # FW-AMB-28
            for m in pending:
                st.in_play.remove(m)
                st.marble_discard.append(m)
            self.fail(fr, "No Horror is On the Streets: the matching Blitz cards are "
                          "discarded.")
            return
        seat = self.seat_of(inv) if inv else self.team_seat()
        args: dict[str, Any] = {"f": f, "inv": inv, "pending": pending}
        if card is None:
            self.choose(seat, "blitz_card", "Blitz: choose the next revealed card to "
                        "Intervene with.",
                        [act(K.CHOOSE_MARBLE, marble=m) for m in self.distinct(pending)],
                        Step(op="blitz_place", args=args), "card")
            return
        args["card"] = card
        if horror is None:
            self.choose(seat, "choose_horror", f"Blitz: choose the Horror for "
                        f"the {self.marble_name(card)}.",
                        [act(K.CHOOSE_HORROR, horror=h.id) for h in st.streets],
                        Step(op="blitz_place", args=args), "horror")
            return
        st.in_play.remove(card)
        self.attach(card, horror, inv)
        st.queue.insert(self.after_attach_index(), Step(
            op="blitz_place", args={"f": f, "inv": inv,
                                    "pending": [m for m in pending if m != card]}))

    def after_attach_index(self: Engine) -> int:
        """Queue position right after the steps `attach` just queued (its Intervene card and
        Defeat check), so the next Blitz card waits for them."""
        for k, s in enumerate(self.st.queue):
            if s.op == "defeat_check":
                return k + 1
        return 0  # pragma: no cover

    def eff_attach(self: Engine, eff: Any, fr: Frame, step: Step) -> None:
        if fr.inv is None:
            self.fail(fr)
            return
        self.later(Step(op="attach_multi", args={"f": fr.id, "inv": fr.inv, "left": eff.n,
                                                 "done": 0, "up_to": eff.up_to}))

    def step_attach_multi(self: Engine, f: int, inv: str, left: int, done: int, up_to: bool,
                          marble: str | None = None, horror: str | None = None) -> None:
        fr = self.frame(f)
        i = self.inv(inv)
        args: dict[str, Any] = {"f": f, "inv": inv, "left": left, "done": done,
                                "up_to": up_to}
        if marble == "":
            return
        if marble is None:
            if left <= 0:
                return
            if not i.hand or not self.st.streets or i.insane:
                if done == 0 or not up_to:
                    self.fail(fr, "No Marble can be Attached.")
                return
            opts = [act(K.CHOOSE_MARBLE, marble=m) for m in self.distinct(i.hand)]
            if up_to and done >= 1:
                opts.append(act(K.STOP))
            self.ask(i.seat, "choose_marble", f"Intervene: choose a Marble ({left} left).",
                     opts, Step(op="attach_multi", args=args), "marble")
            return
        args["marble"] = marble
        if horror is None:
            self.choose(i.seat, "choose_horror", f"Attach {self.marble_name(marble)} to which "
                        "Horror?", [act(K.CHOOSE_HORROR, horror=h.id) for h in self.st.streets],
                        Step(op="attach_multi", args=args), "horror",
                        public_text=f"{self.inv_name(i)} Intervenes: choose the Horror.",
                        seat_only=True)
            return
        i.hand.remove(marble)
        self.attach(marble, horror, inv)
        self.st.queue.insert(self.after_attach_index(), Step(
            op="attach_multi", args={"f": f, "inv": inv, "left": left - 1, "done": done + 1,
                                     "up_to": up_to}))

    def eff_move_attachment(self: Engine, eff: Any, fr: Frame, step: Step) -> None:
        self.later(*[Step(op="move_att", args={"f": fr.id}) for _ in range(eff.n)])

    def step_move_att(self: Engine, f: int, marble: str | None = None, horror: str | None = None
                      ) -> None:
        fr = self.frame(f)
        st = self.st
        if fr is None:
            return
        if marble is None:
            cands = self.street_marbles("attached") if len(st.streets) > 1 else []
            if not cands:
                self.fail(fr, "No Attached Marble can be moved to another Horror.")
                return
            self.choose(self.decider(fr), "choose_marble", "Choose an Attached Marble to move.",
                        [act(K.CHOOSE_MARBLE, marble=m) for m in cands],
                        Step(op="move_att", args={"f": f}), "marble")
            return
        src = next(h for h in st.streets if marble in h.attached)
        if horror is None:
            self.choose(self.decider(fr), "choose_horror",
                        f"Move {self.marble_name(marble)} onto which Horror?",
                        [act(K.CHOOSE_HORROR, horror=h.id) for h in st.streets if h is not src],
                        Step(op="move_att", args={"f": f, "marble": marble}), "horror")
            return
        src.attached.remove(marble)
        dest = self.on_streets(horror)
        assert dest is not None
        dest.attached.append(marble)
        self.emit(f"{self.the_marble(marble)} moves from {self.horror_called(src.id)} to "
                  f"{self.horror_called(horror)}.", "move_attachment")
        self.later(Step(op="defeat_check", args={"horror": horror}),
                   Step(op="defeat_check", args={"horror": src.id}))

    def eff_swap_with_street_marble(self: Engine, eff: Any, fr: Frame, step: Step) -> None:
        self.later(Step(op="swap_street", args={"f": fr.id}))

    def step_swap_street(self: Engine, f: int, mine: str | None = None, theirs: str | None = None
                         ) -> None:
        fr = self.frame(f)
        st = self.st
        if fr is None or fr.inv is None:
            return
        inv = self.inv(fr.inv)
        cands = self.street_marbles("any")
        if not inv.hand or not cands:
            self.fail(fr, "There is nothing to swap.")
            return
        if mine is None:
            self.choose_hidden(inv.seat, "choose_marble", "Swap: choose a Marble from your hand.",
                        [act(K.CHOOSE_MARBLE, marble=m) for m in self.distinct(inv.hand)],
                        Step(op="swap_street", args={"f": f}), "mine")
            return
        if theirs is None:
            self.choose(inv.seat, "choose_marble", "Swap: choose a Marble On the Streets.",
                        [act(K.CHOOSE_MARBLE, marble=m) for m in cands],
                        Step(op="swap_street", args={"f": f, "mine": mine}), "theirs")
            return
        inv.hand.remove(mine)
        horror = next((h for h in st.streets if theirs in h.attached), None)
        # Where it was, as the Defeat line after it names the Horror (stop 68's demo: "for the
        # Clue Marble On the Streets", then "Ghoul (The Scourge) is Defeated!", of two Ghouls).
        where = (f"Attached to {self.horror_called(horror.id)}" if horror is not None
                 else "Anchored to the Streets")
        if horror is not None:
            horror.attached[horror.attached.index(theirs)] = mine
        else:
            st.anchored[st.anchored.index(theirs)] = mine
        inv.hand.append(theirs)
        self.emit(f"{self.inv_name(inv)} swaps {self.a_marble(mine)} for "
                  f"the {self.marble_name(theirs)} {where}.", "swap")
        if horror is not None:
            self.later(Step(op="defeat_check", args={"horror": horror.id}))

    def eff_defeat(self: Engine, eff: Any, fr: Frame, step: Step) -> None:
        h = self.resolve_horror(eff.horror, fr, step, self.horror_candidates(eff, fr))
        if h is None:
            return
        if not h:
            self.fail(fr, "No Horror can be Defeated by this.")
            return
        self.later(Step(op="defeat", args={"horror": h, "deathrattle": eff.deathrattle}))

    def eff_open_gate(self: Engine, eff: Any, fr: Frame, step: Step) -> None:
        self.later(*[Step(op="open_gate") for _ in range(eff.n)])

    def eff_close_gate(self: Engine, eff: Any, fr: Frame, step: Step) -> None:
        st = self.st
        if self.scourge_blocks():  # FW-AMB-32
            self.fail(fr, "The Scourge is On the Streets: no Gate may be closed.")
            return
        inv = self.inv(fr.inv) if fr.inv else None
        if eff.cost == "none":
            self.close_gates(eff.n, inv if fr.side == "investigators" else None)
            return
        if inv is None or not self.meets(inv.hand, eff.distinct_symbols) or not st.gates:
            self.fail(fr, "The Marbles in hand cannot pay for Closing a Gate.")
            return
        self.later(Step(op="close_select", args={
            "inv": inv.id, "f": fr.id, "pool": "free", "cost": 0, "selected": [],
            "distinct": eff.distinct_symbols, "n": eff.n, "cancellable": False}))

    def eff_add_doom(self: Engine, eff: Any, fr: Frame, step: Step) -> None:
        self.gain_doom(eff.n, self.source_text(fr))

    def eff_drain(self: Engine, eff: Any, fr: Frame, step: Step) -> None:
        self.drain_or_undrain(eff, fr, step, True)

    def eff_undrain(self: Engine, eff: Any, fr: Frame, step: Step) -> None:
        self.drain_or_undrain(eff, fr, step, False)

    def drain_or_undrain(self: Engine, eff: Any, fr: Frame, step: Step, drain: bool) -> None:
        if eff.horror == "all":
            for x in self.st.streets:
                x.drained = drain
            self.emit("Every Horror On the Streets is " + ("Drained." if drain else
                                                          "no longer Drained."), "drain")
            return
        h = self.resolve_horror(eff.horror, fr, step, self.horror_candidates(eff, fr))
        if h is None:
            return
        if not h:
            self.fail(fr, "No Horror can be " + ("Drained." if drain else "Undrained."))
            return
        hs = self.on_streets(h)
        assert hs is not None
        was = hs.drained
        hs.drained = drain
        # "no longer Drained" only of a Horror that was (stop 64's demo said it of a Ghoul
        # never Drained, as The Awakener's Undrain-then-Trigger reached it).
        if drain or was:
            self.emit(f"{self.horror_called(h)} is "
                      + ("already Drained." if drain and was
                         else "Drained." if drain else "no longer Drained."), "drain")

    def eff_sacrifice(self: Engine, eff: Any, fr: Frame, step: Step) -> None:
        h = self.resolve_horror(eff.horror, fr, step, self.horror_candidates(eff, fr))
        if h is None:
            return
        if not h:
            self.fail(fr, f"There is no {eff.named or 'Horror'} On the Streets to Sacrifice.")
            return
        street = self.street_number(h) if self.alliance else 0
        # Which Street it leaves (stop 65's demo: Street 3 emptied, unsaid).
        self.emit(f"{self.horror_name(h)} is Sacrificed"
                  + (f" from Street {street}." if street else "."), "sacrifice")
        self.remove_horror(h, "discard")  # FW-HORROR-08

    def eff_return_horror(self: Engine, eff: Any, fr: Frame, step: Step) -> None:
        h = self.resolve_horror(eff.horror, fr, step, self.horror_candidates(eff, fr))
        if h is None:
            return
        if not h:
            self.fail(fr, "No Horror is On the Streets to Return.")
            return
        self.emit(f"{self.horror_called(h)} is Returned to The Wall." if self.conflict else
                  f"{self.horror_called(h)} is shuffled back into the Horror deck.", "return")
        self.remove_horror(h, "hand" if self.conflict else "deck")  # FW-HORROR-07

    def eff_manifest(self: Engine, eff: Any, fr: Frame, step: Step) -> None:
        st = self.st
        if eff.source == "hand" and self.conflict:
            hid = step.args.get("horror")
            if hid is None:
                if not st.wall_hand:
                    self.fail(fr, "The Wall has no Horror in hand to Manifest.")
                    return
                opts = [act(K.CHOOSE_HORROR, horror=h) for h in self.distinct_horrors(st.wall_hand)
                        if eff.free or self.horror(h).manifest.doom <= st.doom]
                if not opts:
                    self.fail(fr, "The Wall cannot pay to Manifest a Horror.")
                    return
                self.choose(st.wall_seat, "choose_horror", "Manifest a Horror from your hand.",
                            opts, Step(op="eff", args=dict(step.args)), "horror")
                return
            if not eff.free:
                st.doom -= self.horror(hid).manifest.doom
            st.wall_hand.remove(hid)
            self.place_horror(hid)
            fr.data["same_horror"] = hid
            return
        hid = self.draw_horror()
        if hid is None:
            self.fail(fr, "The Horror deck and discard pile are empty.")
            return
        if not eff.free and self.conflict:
            cost = self.horror(hid).manifest.doom
            if cost > st.doom:
                st.horror_discard.append(hid)
                self.fail(fr, "The Wall cannot pay to Manifest that Horror.")
                return
            st.doom -= cost
        if self.place_horror(hid):
            fr.data["same_horror"] = hid
            return
        # FW-TERM-14 {A}: no Street is free, treat it as a Delve.
        self.emit(f"No Street is free for {self.horror_name(hid)}: it acts as a Delve.",
                  "manifest")
        self.delve_steps(hid)

    def eff_trigger(self: Engine, eff: Any, fr: Frame, step: Step) -> None:
        st = self.st
        h = self.resolve_horror(eff.horror, fr, step, self.horror_candidates(eff, fr))
        if h is None:
            return
        if not h or self.ignored("trigger"):
            self.fail(fr, "No Horror can be Triggered.")
            return
        if not eff.free and self.conflict:
            cost = self.horror(h).trigger_cost
            if cost > st.doom:
                self.fail(fr, "The Wall cannot pay the Trigger Cost.")
                return
            st.doom -= cost
        self.emit(f"{self.horror_called(h)} is Triggered.", "trigger")
        self.later(*self.card_steps(f"trigger:{h}", "wall", horror=h),
                   *([Step(op="drain_after", args={"horror": h})] if self.conflict else []))

    def step_drain_after(self: Engine, horror: str) -> None:
        """FW-WALL-08: a Triggered Horror becomes Drained (Conflict only, FW-PRES-06)."""
        h = self.on_streets(horror)
        if h is not None:
            if not h.drained:  # said: the board's rows alone showed it (stop 64's demo)
                self.emit(f"{self.horror_called(horror)} is Drained.", "drain")
            h.drained = True

    def eff_destroy_marble(self: Engine, eff: Any, fr: Frame, step: Step) -> None:
        self.later(Step(op="destroy", args={"f": fr.id, "which": eff.which}))

    def step_destroy(self: Engine, f: int | None, which: str, marble: str | None = None,
                     cost: int | None = None) -> None:
        """FW-WALL-07 / FW-PRES-04 / FW-AI-03 / FW-PROMPT-23. `cost`: The Wall's own Destroy a
        Marble Action, paid in Doom."""
        fr = self.frame(f) if f is not None else None
        if marble is not None:
            horror = next((h for h in self.st.streets if marble in h.attached), None)
            where = (f"Attached to {self.horror_called(horror.id)}" if horror is not None
                     else "Anchored to the Streets")
            self.take_marble(marble)
            self.st.marble_discard.append(marble)
            # The Wall's Action says who and what it cost, as its Delve and Manifest do (stop
            # 69's demo: "Clue Marble on Breaker is Destroyed." came after "The Wall chooses
            # Wrath" with no word of the Action).
            # The cost leads the line, so it never stacks after "(The Scourge)" (stop 70's
            # demo: "… Attached to Ghoul (The Scourge) (1 Doom).").
            self.emit(f"The Wall spends {cost} Doom to Destroy the {self.marble_name(marble)} "
                      f"{where}." if cost is not None
                      else f"The {self.marble_name(marble)} {where} is Destroyed.", "destroy")
            return
        cands = self.street_marbles("any")
        if not cands:
            # Said before the failure's Regroup, as a card's failure is (stop 68's demo: a
            # Presence Destroy a Marble failed unsaid).
            self.fail(fr, "There is no Marble On the Streets to Destroy.")
            if fr is None:
                self.wall_failure()
            return
        wall_ai = self.alliance and (fr is None or fr.side == "wall")
        then = Step(op="destroy", args={"f": f, "which": which})
        if which == "most_symbols" or wall_ai:
            top = max(len(self.marble(m).symbols) for m in cands)
            cands = [m for m in cands if len(self.marble(m).symbols) == top]
            if wall_ai:
                self.choose(self.team_seat(), "destroy_tie",
                            "Destroy a Marble: choose among the tied Marbles with the most "
                            "Symbols.", [act(K.CHOOSE_MARBLE, marble=m) for m in cands],
                            then, "marble")
                return
        seat = self.decider(fr) if fr is not None else self.st.wall_seat
        self.choose(seat, "choose_marble", "Destroy a Marble On the Streets.",
                    [act(K.CHOOSE_MARBLE, marble=m) for m in cands], then, "marble")

    def eff_regroup(self: Engine, eff: Any, fr: Frame, step: Step) -> None:
        who = self.resolve_who(eff.who, fr, step)
        if who is None:
            return
        if not who:
            self.fail(fr, "No Investigator can Regroup.")
            return
        self.later(*[Step(op="regroup", args={"inv": i, "draw": eff.draw,
                                              "optional": eff.optional}) for i in who])

    def eff_grant_action(self: Engine, eff: Any, fr: Frame, step: Step) -> None:
        who = self.resolve_who(eff.who, fr, step)
        if who is None:
            return
        if not who:
            self.fail(fr, "No Investigator can act out of sequence.")
            return
        self.st.grants.append(Grant(inv=who[0], ap=eff.ap))
        self.emit(f"{self.inv_name(self.inv(who[0]))} may take {eff.ap} AP of actions out of "
                  "sequence.", "grant")
        self.later(Step(op="grant_prompt"))

    def eff_peek(self: Engine, eff: Any, fr: Frame, step: Step) -> None:
        st = self.st
        deck = st.marble_deck if eff.deck == "marble" else st.horror_deck
        n = min(eff.n, len(deck))
        if n == 0:
            self.fail(fr, "There is nothing to look at.")
            return
        st.peek = [deck.pop() for _ in range(n)]
        st.peek_deck = eff.deck
        st.peek_for = fr.inv
        name = self.marble_name if eff.deck == "marble" else self.horror_name
        who = self.inv_name(self.inv(fr.inv)) if fr.inv else "Someone"
        self.emit_team(f"{who} looks at the top {n} {eff.deck.capitalize()} "
                       f"{plural(n, 'card')}.",
                       f"{who} sees: " + (marbles_listed if eff.deck == "marble" else listed)(
                           [name(c) for c in st.peek]) + ".", "peek")
        self.later(Step(op="peek_take", args={"f": fr.id, "take": min(eff.take, n),
                                              "rest": eff.rest, "reorder": eff.reorder,
                                              "ordered": []}))

    def step_peek_take(
        self: Engine, f: int, take: int, rest: str, reorder: bool, ordered: list[str],
                       card: str | None = None) -> None:
        """Peek: take cards into hand, then choose the order the others go back in. The cards
        stay in ``state.peek`` until they are put back (``ordered`` are the ones placed)."""
        st = self.st
        fr = self.frame(f)
        seat = self.decider(fr) if fr is not None else self.team_seat()
        args: dict[str, Any] = {"f": f, "take": take, "rest": rest, "reorder": reorder,
                                "ordered": list(ordered)}
        if card is not None:
            if take > 0 and st.peek_for is not None:
                st.peek.remove(card)
                self.inv(st.peek_for).hand.append(card)
                # Said in public too: the hand grows by one (a stop 65 demo told only the team,
                # and in the passive: 'The Clue Marble is taken into hand.').
                who = self.inv_name(self.inv(st.peek_for))
                self.emit_team(f"{who} takes one of them into hand.",
                               f"{who} takes {self.the_marble(card)} into hand.", "peek")
                args["take"] = take - 1
            else:
                args["ordered"].append(card)
        left = [c for c in st.peek if c not in args["ordered"]]
        if args["take"] > 0 and left:
            self.choose(seat, "peek_take", "Choose the card to take into your hand.",
                        [act(K.CHOOSE_CARD, card=c) for c in left],
                        Step(op="peek_take", args=args), "card")
            return
        if reorder and len(left) > 1:
            where = "on top" if rest == "top" else "at the bottom"
            self.choose(seat, "peek_order", f"Choose the next card to put back {where}.",
                        [act(K.CHOOSE_CARD, card=c) for c in left],
                        Step(op="peek_take", args={**args, "take": 0}), "card")
            return
        order = [*args["ordered"], *left]
        deck = st.marble_deck if st.peek_deck == "marble" else st.horror_deck
        if order:
            # The rest's fate is said (their order stays the team's, FW-VIS-28).
            kind = "Marble" if st.peek_deck == "marble" else "Horror"
            where = "on top of" if rest == "top" else "at the bottom of"
            self.emit(f"{counted(len(order), 'card').capitalize()} "
                      f"{'goes' if len(order) == 1 else 'go'} back {where} the {kind} deck.",
                      "peek")
        if rest == "top":
            put_on_top(deck, order)
        else:
            deck[0:0] = list(reversed(order))
        st.peek = []
        st.peek_deck = None
        st.peek_for = None

    def eff_view_hand(self: Engine, eff: Any, fr: Frame, step: Step) -> None:
        st = self.st
        if eff.owner == "wall":
            if not self.conflict:
                self.fail(fr)
                return
            names = ", ".join(self.horror_name(h) for h in st.wall_hand) or "no Horrors"
            self.emit_team("The Investigators look at The Wall's hand of Horrors.",
                           f"The Wall's hand: {names}.", "view_hand")
            return
        owner = self.resolve_who(eff.owner, fr, step, key="owner")
        if owner is None:
            return
        if not owner:
            self.fail(fr)
            return
        o = self.inv(owner[0])
        self.emit_team(None, f"{self.inv_name(o)}'s hand: "
                       + (", ".join(self.marble_name(m) for m in o.hand) or "empty") + ".",
                       "view_hand")

    def eff_shield_next_loss(self: Engine, eff: Any, fr: Frame, step: Step) -> None:
        if fr.inv is None:
            self.fail(fr)
            return
        self.st.shields.append(Shield(owner=fr.inv, scope=eff.scope, n=eff.n))
        self.emit("Until the start of " + self.inv_name(self.inv(fr.inv)) + "'s next turn, "
                  "the next Lose-a-Marble effect is ignored.", "shield")

    def eff_remove_scourge(self: Engine, eff: Any, fr: Frame, step: Step) -> None:
        if self.st.scourge is None:
            self.fail(fr, "There is no Scourge On the Streets.")
            return
        self.st.scourge = None
        self.emit("The Scourge Token is removed: its card is set aside and Gates may be "
                  "closed again.", "scourge")

    def eff_ignore_loss(self: Engine, eff: Any, fr: Frame, step: Step) -> None:
        """Only meaningful inside a reaction (handled by `use_reaction`)."""

    def eff_blitz_bonus(self: Engine, eff: Any, fr: Frame, step: Step) -> None:
        """Only meaningful inside a reaction (handled by `use_reaction`)."""

    def eff_custom(self: Engine, eff: Any, fr: Frame, step: Step) -> None:
        handler = CUSTOM_EFFECTS.get(eff.name)
        if handler is None:
            self.fail(fr, f"The custom effect {eff.name!r} is not available.")
            return
        handler(self, eff, fr, step)
