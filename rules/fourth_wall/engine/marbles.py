"""Marble procedures: losing a Marble, Regroup, Give / Trade, closing a Gate."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules.core.game import counted, plural
from rules.core.types import Action, act
from rules.fourth_wall import actions as K
from rules.fourth_wall.engine.board import gate_needs_text
from rules.fourth_wall.engine.core import FREE_AFTER_REGROUP, marbles_listed
from rules.fourth_wall.state import (
    Step,
)

if TYPE_CHECKING:
    from rules.fourth_wall.engine import Engine


class Marbles:
    """The part of `Engine` this module holds (see the module's docstring)."""

    # ================================================================== Lose a Marble
    def step_lose(self: Engine, f: int, inv: str, mode: str, stage: str = "start",
                  reactors: list[str] | None = None, answer: dict[str, Any] | None = None,
                  marble: str | None = None, seats: list[str] | None = None) -> None:
        """FW-TERM-11..13 with the Holy Symbol window first (FW-PROMPT-11, FW-AMB-38,
        FW-VIS-32)."""
        st = self.st
        window = "before_lose_marble"
        fr = self.frame(f)
        i = self.inv(inv)
        if marble is not None:
            if marble in i.hand:
                i.hand.remove(marble)
                st.marble_discard.append(marble)
                self.emit(f"{self.inv_name(i)} loses {self.a_marble(marble)}.", "lose",
                          inv=inv)
                self.fire("marble_lost")
            return
        if stage == "start":
            if i.insane or not i.hand:
                self.fail(fr, f"{self.inv_name(i)} has no Marble to lose.")
                return
            shield = next((s for s in st.shields
                           if s.scope == "any_investigator" or s.owner == inv), None)
            if shield is not None:
                shield.n -= 1
                if shield.n <= 0:
                    st.shields.remove(shield)
                self.emit(f"The loss is ignored ({self.inv_name(self.inv(shield.owner))}'s "
                          "protection).", "shield")
                return
            stage = "window"
            seats = self.window_seats(window, inv, last=self.conflict and mode == "own_choice")
        if seats is None:  # ``reactors``: investigator ids, in games stored before seats
            seats = list(dict.fromkeys(self.seat_of(r) for r in reactors or []))
        if answer is not None and seats:
            if answer["kind"] == K.REACT:
                holder = self.window_holder(seats[0], answer)
                res = self.use_reaction(holder, str(answer["params"]["marble"]), window)
                if res["ignore_loss"]:
                    self.emit(f"{self.inv_name(i)} ignores the loss.", "ignore_loss")
                    return
            elif answer["kind"] == K.CHOOSE_MARBLE:  # the own choice asked with the window
                self.later(Step(op="lose", args={"f": f, "inv": inv, "mode": mode,
                                                 "stage": "done",
                                                 "marble": str(answer["params"]["marble"])}))
                return
            seats = seats[1:]
        seats = [s for s in seats if self.window_invs(window, inv, s)]
        if seats and i.hand:
            seat = seats[0]
            reacts = self.window_answers(seat, window, inv)
            names = self.window_names(seat, window, inv)
            then = Step(op="lose", args={"f": f, "inv": inv, "mode": mode, "stage": "window",
                                         "seats": seats})
            if self.conflict and mode == "own_choice" and seats == [i.seat]:
                # FW-VIS-32: the quick use is offered inside the own choice, which is asked
                # whether or not a Holy Symbol is held.
                head = f"{self.inv_name(i)} Loses a Marble: choose which"
                self.ask(i.seat, "lose_choice",
                         head + (" (or discard a quick-use Marble to ignore the loss)."
                                 if reacts else "."),
                         [act(K.CHOOSE_MARBLE, marble=m) for m in self.distinct(i.hand)]
                         + reacts, then, public_text=head + ".", seat_only=True,
                         window=window)
                return
            head = (f"{self.inv_name(i)} is about to Lose a Marble"
                    + ("" if names == self.inv_name(i) else f"; {names} may help")
                    + ": discard a quick-use Marble to ignore it?")
            self.ask(seat, "holy_window",
                     head + ("" if reacts else " (You hold none: continue.)"),
                     [*reacts, act(K.DECLINE)], then, public_text=head, seat_only=True,
                     window=window)
            return
        if not i.hand:  # a quick use emptied the hand
            self.fail(fr, f"{self.inv_name(i)} has no Marble to lose.")
            return
        then = Step(op="lose", args={"f": f, "inv": inv, "mode": mode, "stage": "done"})
        if mode == "own_choice":
            self.choose_hidden(
                i.seat, "lose_choice", f"{self.inv_name(i)} Loses a Marble: choose which.",
                [act(K.CHOOSE_MARBLE, marble=m) for m in self.distinct(i.hand)], then, "marble")
        elif mode == "wall_choice" and self.conflict and st.wall_seat is not None:
            self.emit(f"The Wall looks at {self.inv_name(i)}'s hand.", "wall_looks")
            self.emit(f"{self.inv_name(i)}'s hand: "
                      + ", ".join(self.marble_name(m) for m in i.hand) + ".", "wall_looks",
                      audience=[st.wall_seat])
            self.choose(st.wall_seat, "wall_choice", f"Choose the Marble {self.inv_name(i)} "
                        "loses.", [act(K.CHOOSE_MARBLE, marble=m) for m in self.distinct(i.hand)],
                        then, "marble")
        else:  # random, and "Chosen by The Wall" in Alliance (FW-AMB-06)
            self.later(Step(op="lose", args={**then.args, "marble": st.rng.choice(i.hand)}))

    # ================================================================== Regroup
    def step_regroup(self: Engine, draw: int, optional: bool, inv: str | None = None,
                     answer: dict[str, Any] | None = None, action: bool = False,
                     elected: bool = False) -> None:
        """FW-ACT-08 (and the free Regroups of FW-INSTR-05 / cards, FW-PROMPT-08);
        ``elected``: the team has just Elected `inv` (FW-INSTR-05), which is said."""
        if inv is None:
            return
        i = self.inv(inv)
        if i.insane:
            return
        if elected:
            self.emit(f"{self.inv_name(i)} is elected and may Regroup.", "wall_failure",
                      inv=inv)
        if optional and answer is None:
            self.ask(i.seat, "regroup_offer", f"{self.inv_name(i)} may Regroup for free now.",
                     [act(K.ACCEPT), act(K.DECLINE)],
                     Step(op="regroup", args={"draw": draw, "optional": True, "inv": inv,
                                              "action": action}))
            return
        if answer is not None and answer["kind"] == K.DECLINE:
            self.emit(f"{self.inv_name(i)} does not Regroup.", "regroup")
            return
        i.regrouped = True
        delta = sum(m.n for _, m, _, _, _ in self.mods("regroup_draw_delta"))
        n_draw = max(0, draw + delta)
        limit = self.hand_limit(i) if self.opts.regroup_to == "hand_limit" else \
            self.investigator_card(i.card or "").sanity
        n_limit = max(0, limit - len(i.hand) + delta)
        # A Street's Aura that changes the draw is said (stop 64's demo: "Regroups" then
        # "draws 1 Marble", against the rulebook's two, the Aura unnamed).
        streets = sorted({src.split(":")[1] for src, *_ in self.mods("regroup_draw_delta")
                          if src.startswith("street:")})
        why = (f" (Street {' and '.join(streets)}'s Aura: {abs(delta)} Marble"
               f"{'s' if abs(delta) != 1 else ''} {'fewer' if delta < 0 else 'more'})"
               if streets and delta else "")
        self.emit(f"{self.inv_name(i)} Regroups{why}.", "regroup", inv=inv)
        steps = []
        if n_draw == n_limit:
            steps.append(Step(op="draw_n", args={"inv": inv, "n": n_draw}))
        else:
            steps.append(Step(op="regroup_draw", args={"inv": inv, "n_draw": n_draw,
                                                       "n_limit": n_limit}))
        steps += [Step(op="hand_limit", args={"inv": inv}),
                  Step(op="free_trade", args={"inv": inv, "count": 0})]
        if action:
            steps.append(Step(op="end_action"))
        self.later(*steps)

    def step_regroup_draw(self: Engine, inv: str, n_draw: int, n_limit: int,
                          mode: str | None = None) -> None:
        i = self.inv(inv)
        if mode is None:
            # The Hand Limit's draw counted as Marbles, and said when it is the worse way
            # (stop 65's demo: "draw up to the Hand Limit (0)" read as a Hand Limit of 0).
            up_to = counted(n_limit, "Marble") + (
                f", so drawing {n_draw} gives more" if n_limit < n_draw else "")
            self.ask(i.seat, "regroup_draw", f"{self.inv_name(i)} Regroups: draw {n_draw} "
                     f"{plural(n_draw, 'Marble')}, or draw up to the Hand Limit ({up_to})?",
                     [act(K.REGROUP_DRAW, mode="n"), act(K.REGROUP_DRAW, mode="limit")],
                     Step(op="regroup_draw", args={"inv": inv, "n_draw": n_draw,
                                                   "n_limit": n_limit}), "mode",
                     n_draw=n_draw, n_limit=n_limit)
            return
        self.draw_into(i, n_draw if mode == "n" else n_limit, None)

    def step_draw_n(self: Engine, inv: str, n: int) -> None:
        self.draw_into(self.inv(inv), n, None)

    def step_free_trade(self: Engine, inv: str, count: int, answer: dict[str, Any] | None = None
                        ) -> None:
        """FW-ACT-08 (d) / FW-AMB-11 / FW-PROMPT-17: free Gives and Trades with Regrouped
        Investigators, until "done"."""
        i = self.inv(inv)
        if answer is not None:
            kind = answer["kind"]
            p = answer["params"]
            if kind == K.DONE:
                return
            nxt = Step(op="free_trade", args={"inv": inv, "count": count + 1})
            # Pool "regroup": free as "free" is, and said so (`FREE_AFTER_REGROUP`).
            if kind == K.FREE_GIVE:
                self.later(Step(op="give_pick", args={"inv": inv, "to": p["to"],
                                                      "pool": "regroup", "cost": 0}), nxt)
            else:
                self.later(Step(op="trade_mine", args={"inv": inv, "with": p["with"],
                                                       "pool": "regroup", "cost": 0}), nxt)
            return
        if i.insane:
            return
        partners = [p for p in self.sane(exclude=inv) if p.regrouped]
        opts: list[Action] = []
        if i.hand:
            opts += [act(K.FREE_GIVE, to=p.id) for p in partners]
            opts += [act(K.FREE_TRADE, **{"with": p.id}) for p in partners if p.hand]
        if not opts:
            return
        opts.append(act(K.DONE))
        self.ask(i.seat, "free_trade", f"{self.inv_name(i)} may now freely Give and Trade with "
                 "other Regrouped Investigators: it costs no Action Point.", opts,
                 Step(op="free_trade", args={"inv": inv, "count": count}))

    # ================================================================== Give / Trade
    def refund(self: Engine, pool: str, cost: int, why: str) -> None:
        st = self.st
        if pool == "turn":
            st.ap += cost
        elif pool == "grant" and st.grants:
            st.grants[-1].ap += cost
        if pool in ("turn", "grant"):
            st.refunds += 1
        self.emit(why + (f" ({cost} AP refunded)." if cost else "."), "refund")

    def step_give_pick(self: Engine, inv: str, to: str, pool: str, cost: int, f: int | None = None,
                       marble: str | None = None) -> None:
        i = self.inv(inv)
        t = self.inv(to)
        if marble is None:
            if not i.hand or t.insane or i.insane:
                self.fail(self.frame(f) if f is not None else None)
                return
            # Not said free here: the button just pressed said so (stop 67: DMs stay short).
            self.choose_hidden(i.seat, "give_marble", f"Give which Marble to {self.inv_name(t)}?",
                        [act(K.CHOOSE_MARBLE, marble=m) for m in self.distinct(i.hand)],
                        Step(op="give_pick", args={"inv": inv, "to": to, "pool": pool,
                                                   "cost": cost, "f": f}), "marble")
            return
        self.give(i, t, marble, free=pool == "regroup")

    def step_trade_mine(self: Engine, inv: str, pool: str, cost: int, f: int | None = None,
                        marble: str | None = None, **kw: Any) -> None:
        partner = str(kw["with"])
        i = self.inv(inv)
        t = self.inv(partner)
        base = {"inv": inv, "with": partner, "pool": pool, "cost": cost, "f": f}
        if marble == "":
            self.refund(pool, cost, "The Trade is called off")
            return
        if marble is None:
            if not i.hand or not t.hand or t.insane or i.insane:
                self.fail(self.frame(f) if f is not None else None)
                return
            opts = [act(K.CHOOSE_MARBLE, marble=m) for m in self.distinct(i.hand)]
            if pool in ("turn", "grant"):
                opts.append(act(K.CANCEL))
            self.ask(i.seat, "trade_mine", f"Trade with {self.inv_name(t)}: which of your "
                     "Marbles do you offer?", opts, Step(op="trade_mine", args=base),
                     "marble", refund=pool in ("turn", "grant"))
            return
        self.later(Step(op="trade_theirs", args={**base, "mine": marble}))

    def step_trade_theirs(self: Engine, inv: str, pool: str, cost: int, mine: str,
                          f: int | None = None, marble: str | None = None, **kw: Any) -> None:
        partner = str(kw["with"])
        i = self.inv(inv)
        t = self.inv(partner)
        base = {"inv": inv, "with": partner, "pool": pool, "cost": cost, "f": f, "mine": mine}
        if marble == "":
            self.refund(pool, cost, "The Trade is called off")
            return
        if marble is None:
            opts = [act(K.CHOOSE_MARBLE, marble=m) for m in self.distinct(t.hand)]
            if pool in ("turn", "grant"):
                opts.append(act(K.CANCEL))
            self.ask(i.seat, "trade_theirs", f"Trade with {self.inv_name(t)}: which of their "
                     "Marbles do you ask for?", opts, Step(op="trade_theirs", args=base),
                     "marble", refund=pool in ("turn", "grant"))
            return
        base["theirs"] = marble
        if t.seat == i.seat:
            self.later(Step(op="trade_do", args={**base, "answer": {"kind": K.ACCEPT,
                                                                    "params": {}}}))
            return
        # The offer is logged before its answer (stop 65's demo: "trades a Marble with", then
        # "declines ... a Trade", a second offer never said, read as one Trade undone).
        self.emit(f"{self.inv_name(i)} offers {self.inv_name(t)} a Trade.", "trade")
        self.ask(t.seat, "trade_consent",  # FW-AMB-27
                 f"{self.inv_name(i)} offers {self.a_marble(mine)} for your "
                 f"{self.marble_name(marble)} ({self.inv_name(t)}). Accept the Trade?",
                 [act(K.ACCEPT), act(K.DECLINE)], Step(op="trade_do", args=base),
                 public_text=f"{self.inv_name(i)} offers {self.inv_name(t)} a Trade of one "
                 "Marble for one. Accept the Trade?")

    def step_trade_do(self: Engine, inv: str, pool: str, cost: int, mine: str, theirs: str,
                      answer: dict[str, Any], f: int | None = None, **kw: Any) -> None:
        partner = str(kw["with"])
        i = self.inv(inv)
        t = self.inv(partner)
        if answer["kind"] != K.ACCEPT:
            self.st.declined_trades.append(f"{inv}>{partner}")
            # Whose offer it was (stop 63's demo: "The Rallier trades a Marble with The
            # Scrounger. The Scrounger declines the Trade." were two offers, read as one).
            declined = f"{self.inv_name(t)} declines {self.inv_name(i)}'s offer of a Trade"
            if pool in ("turn", "grant"):
                self.refund(pool, cost, declined)
            else:
                self.emit(f"{declined}.", "trade")
                if f is not None:
                    self.fail(self.frame(f))
            return
        i.hand.remove(mine)
        t.hand.remove(theirs)
        i.hand.append(theirs)
        t.hand.append(mine)
        free = FREE_AFTER_REGROUP if pool == "regroup" else ""
        self.emit_team(f"{self.inv_name(i)} trades a Marble with {self.inv_name(t)}{free}.",
                       f"{self.inv_name(i)} trades {self.a_marble(mine)} for "
                       f"{self.inv_name(t)}'s {self.marble_name(theirs)}.", "trade")

    # ================================================================== Close a Gate
    def step_close_select(self: Engine, inv: str, pool: str, cost: int, selected: list[str],
                          distinct: int, n: int, cancellable: bool, f: int | None = None,
                          answer: dict[str, Any] | None = None) -> None:
        """FW-ACT-01 / FW-PROMPT-15: pick Marbles one at a time, then confirm."""
        st = self.st
        i = self.inv(inv)
        fr = self.frame(f) if f is not None else None
        args: dict[str, Any] = {"inv": inv, "pool": pool, "cost": cost, "selected": selected,
                                "distinct": distinct, "n": n, "cancellable": cancellable,
                                "f": f}
        if answer is not None:
            kind = answer["kind"]
            if kind == K.CANCEL:
                if pool in ("turn", "grant"):
                    self.refund(pool, cost, "Closing the Gate is called off")
                else:
                    self.fail(fr)
                return
            if kind == K.SELECT:
                args["selected"] = [*selected, str(answer["params"]["marble"])]
            elif kind == K.CONFIRM:
                if self.scourge_blocks():
                    self.fail(fr, "The Scourge is On the Streets: no Gate may be closed.")
                    return
                for mid in selected:
                    i.hand.remove(mid)
                    st.marble_discard.append(mid)
                self.emit(f"{self.inv_name(i)} discards "
                          + marbles_listed([self.marble_name(m) for m in selected])
                          + " to Close a Gate.", "close")
                self.close_gates(n, i)
                return
        chosen = args["selected"]
        rest = [m for m in i.hand if m not in chosen]
        opts = [act(K.SELECT, marble=m) for m in self.distinct(rest)]
        if self.meets(chosen, distinct):
            opts.insert(0, act(K.CONFIRM))
        if cancellable:
            opts.append(act(K.CANCEL))
        if not opts:  # pragma: no cover - the whole hand always meets the requirement
            self.fail(fr)
            return
        picked = ", ".join(self.marble_name(m) for m in chosen) or "nothing yet"
        # The rulebook's words where they are the same thing: "at least one of each Symbol"
        # (stop 64's demo); the Gatewright's two of any stay a count. Every Aura extra is
        # said as `meets` counts it (stop 65's demo: The Breaker of Trinkets' second Clue
        # was asked for but never said, FW-ACT-01 g).
        needs = gate_needs_text(*self.gate_requirement(distinct))
        self.ask(i.seat, "close_select", f"Close a Gate: select Marbles showing {needs} "
                 f"(selected: {picked}).", opts,
                 Step(op="close_select", args=args), refund=pool in ("turn", "grant"),
                 public_text=f"Close a Gate: {self.inv_name(i)} selects Marbles showing "
                 f"{needs}.", seat_only=True)
