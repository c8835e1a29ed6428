"""Card resolution: a card's instruction as frames of steps, who and which Horror it
selects, and the effect step."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules.core.types import act
from rules.fourth_wall import actions as K
from rules.fourth_wall.content import (
    Instruction,
)
from rules.fourth_wall.state import (
    Frame,
    Step,
)

if TYPE_CHECKING:
    from rules.fourth_wall.engine import Engine


class Cards:
    """The part of `Engine` this module holds (see the module's docstring)."""

    # ================================================================== card resolution
    def card_steps(self: Engine, src: str, side: str, inv: str | None = None,
                   horror: str | None = None, marble: str | None = None,
                   no_penalty: bool = False) -> list[Step]:
        return [Step(op="card_begin", args={"src": src, "side": side, "inv": inv,
                                            "horror": horror, "marble": marble,
                                            "no_penalty": no_penalty})]

    def instruction(self: Engine, src: str) -> Instruction:
        kind, _, rest = src.partition(":")
        if kind == "unique":
            return self.investigator_card(self.inv(rest).card or "").unique.instruction
        if kind == "exploit":
            return self.investigator_card(self.inv(rest).card or "").exploit.instruction
        if kind == "utilise":
            return self.marble(rest).utilise
        if kind == "intervene":
            return self.marble(rest).intervene
        if kind == "trigger":
            return self.horror(rest).trigger
        if kind == "deathrattle":
            return self.horror(rest).deathrattle
        if kind == "wall_unique":
            return self.wall().uniques[int(rest)].instruction
        if kind == "reaction":
            mid, _, idx = rest.partition(":")
            return (self.marble(mid).reactions[int(idx)].effects,)
        if kind == "mod":
            return self.modifier_instruction(rest)
        raise KeyError(src)  # pragma: no cover

    def modifier_instruction(self: Engine, src: str) -> Instruction:
        kind, _, rest = src.partition(":")
        parts = rest.split(":")
        if kind == "aura":
            mods: Any = self.wall().aura
        elif kind == "street":
            mods = self.pack.street(int(parts[0])).aura
        elif kind == "hmod":
            mods = self.horror(parts[0]).modifiers
        elif kind == "scourge":
            mods = self.pack.scourge.modifiers
        elif kind == "anchor":
            mods = self.marble(parts[0]).anchored
        elif kind == "imod":
            mods = self.investigator_card(self.inv(parts[0]).card or "").modifiers
        else:  # pragma: no cover
            raise KeyError(src)
        instr: Instruction = mods[int(parts[-1])].instruction
        return instr

    def frame(self: Engine, fid: int) -> Frame | None:
        for f in self.st.frames:
            if f.id == fid:
                return f
        return None

    def fail(self: Engine, fr: Frame | None, why: str = "") -> None:
        if fr is not None:
            fr.failed = True
        if why:
            self.emit(why, "cannot_complete")

    def step_card_begin(self: Engine, src: str, side: str, inv: str | None, horror: str | None,
                        marble: str | None, no_penalty: bool) -> None:
        st = self.st
        st.frame_seq += 1
        fr = Frame(id=st.frame_seq, src=src, side="wall" if side == "wall" else "investigators",
                   inv=inv, horror=horror, marble=marble, no_penalty=no_penalty)
        st.frames.append(fr)
        steps = [Step(op="eff", args={"f": fr.id, "s": s, "e": e})
                 for s, sentence in enumerate(self.instruction(src))
                 for e in range(len(sentence))]
        steps.append(Step(op="card_end", args={"f": fr.id}))
        self.later(*steps)

    def step_card_end(self: Engine, f: int) -> None:
        """FW-INSTR-04 / FW-INSTR-05 / FW-AMB-16: once per card, the side that could not
        complete it pays."""
        st = self.st
        fr = self.frame(f)
        if fr is None:
            return
        st.frames.remove(fr)
        if not fr.failed or fr.no_penalty:
            return
        if fr.side == "investigators":
            self.investigator_failure()
        else:
            self.wall_failure()

    def investigator_failure(self: Engine) -> None:
        """FW-INSTR-04 / FW-PROMPT-21: The Wall may place a Doom for its next turn."""
        st = self.st
        if self.conflict and st.wall_seat is not None:
            self.ask(st.wall_seat, "wall_doom", "An Investigator could not complete an "
                     "Instruction: place a Doom Token for your next turn?",
                     [act(K.TAKE_DOOM), act(K.DECLINE)], Step(op="wall_doom"))
        else:
            self.gain_doom(1, "an Investigator could not complete an Instruction")

    def step_wall_doom(self: Engine, answer: dict[str, Any]) -> None:
        if answer["kind"] == K.TAKE_DOOM:
            self.gain_doom(1, "an Investigator could not complete an Instruction")
        else:
            self.emit("The Wall declines the Doom.", "doom")

    def wall_failure(self: Engine) -> None:
        """FW-INSTR-05: an Elected Investigator may Regroup (free, out of turn): an Action of
        its own (FW-TURN-06), elected once the failed Action's end-of-Action checks are done,
        so an Investigator they drive Insane is not Elected (stop 63's demo: an empty-handed
        Investigator Regrouped instead of going Insane)."""
        st = self.st
        if st.elect_after_action:
            at = next((k for k, step in enumerate(st.queue) if step.op == "end_action"), None)
            if at is not None:
                st.queue.insert(at + 1, Step(op="wall_failure_elect"))
                return
        self.step_wall_failure_elect()

    def step_wall_failure_elect(self: Engine) -> None:
        """The Elected Investigator is named once elected (a demo read "an Elected
        Investigator may Regroup", then "The Fixer Regroups", the election never said): by
        this line when only one may be Elected, else by the Regroup that follows the team's
        choice (``elected``)."""
        pool = self.sane()
        if not pool:
            return
        if len(pool) == 1:  # nobody chose (stop 65's demo: "...: The Steadfast is elected")
            self.emit("The Wall could not complete an Instruction: "
                      f"{self.inv_name(pool[0])}, the only sane Investigator, may Regroup.",
                      "wall_failure", inv=pool[0].id)
        else:
            self.emit("The Wall could not complete an Instruction: an Elected Investigator "
                      "may Regroup.", "wall_failure")
        self.choose(self.team_seat(), "elect",
                    "The Wall could not complete an Instruction: elect the Investigator who "
                    "may Regroup for free.",
                    [act(K.CHOOSE_INVESTIGATOR, inv=i.id) for i in pool],
                    Step(op="regroup", args={"draw": self.opts.regroup_draw,
                                             "optional": True, "action": True,
                                             "elected": len(pool) > 1}), "inv")

    # ---- selectors
    def decider(self: Engine, fr: Frame) -> str | None:
        """Who decides a card's options (FW-INSTR-02): its player; The Wall's cards: the Wall
        player in Conflict, the AI (None) in Alliance (FW-AMB-13, FW-AMB-36)."""
        if fr.side == "investigators":
            if fr.inv is not None:
                return self.seat_of(fr.inv)
            return self.team_seat()
        return self.st.wall_seat if self.conflict else None

    def resolve_who(self: Engine, sel: str, fr: Frame, step: Step, key: str = "who"
                    ) -> list[str] | None:
        """The investigators a selector names, or None while a prompt decides it."""
        st = self.st
        if key in step.args:
            val = step.args[key]
            out = [val] if isinstance(val, str) else list(val or [])
            if step.args.pop("target_said", None) == key and out:  # The Wall's choice
                self.emit(f"The Wall Targets {self.inv_name(self.inv(out[0]))}.", "target",
                          inv=out[0])
            if step.args.pop("elect_said", None) == key and out:  # the team's choice
                self.emit(f"{self.inv_name(self.inv(out[0]))} is elected"
                          f"{self._elected_for(fr, step)}.", "elect", inv=out[0])
            if out:
                fr.data["same_inv"] = out[-1]
            return out
        then = Step(op=step.op, args=dict(step.args))
        who: list[str]
        if sel == "self":
            who = [fr.inv] if fr.inv is not None and not self.inv(fr.inv).insane else []
        elif sel == "target":
            if self.alliance:  # FW-TARGET-01..04
                holder = self.take_target()
                who = [holder] if holder else []
            else:  # FW-PROMPT-06
                pool = self.sane()
                if len(pool) > 1 and st.wall_seat is not None:
                    # Said as The Wall's choice (stop 65's demo: "The Steadfast loses a
                    # Force Marble." after a Trigger, no word of whom The Wall Targeted).
                    then.args["target_said"] = key
                    self.ask(st.wall_seat, "choose_target",
                             f"Choose the Target Investigator ({self.source_text(fr)}).",
                             [act(K.CHOOSE_INVESTIGATOR, inv=i.id) for i in pool], then, key)
                    return None
                who = [i.id for i in pool]
        elif sel in ("elected", "elected_other"):
            pool = self.sane(exclude=fr.inv if sel == "elected_other" else None)
            # Who is Elected is said (stop 65's demo: "An Elected Investigator may Regroup
            # for free." then "The Quartermaster Regroups.", FW-TERM-07).
            if len(pool) > 1:
                then.args["elect_said"] = key
                self.ask(self.team_seat(), "elect",
                         f"Elect an Investigator ({self.source_text(fr)}).",
                         [act(K.CHOOSE_INVESTIGATOR, inv=i.id) for i in pool], then, key)
                return None
            if pool:
                other = " other" if sel == "elected_other" else ""
                tail = self._elected_for(fr, step)
                self.emit(f"{self.inv_name(pool[0])}, the only{other} sane Investigator, "
                          + ("may Regroup." if tail else "is the Elected Investigator."),
                          "elect", inv=pool[0].id)
            who = [i.id for i in pool]
        elif sel in ("chosen_investigator", "chosen_other_investigator"):
            pool = self.sane(exclude=fr.inv if sel == "chosen_other_investigator" else None)
            seat = self.decider(fr)
            if len(pool) > 1:
                if seat is None:
                    who = [self.st.rng.choice(pool).id]
                else:
                    self.ask(seat, "choose_investigator",
                             f"Choose an Investigator ({self.source_text(fr)}).",
                             [act(K.CHOOSE_INVESTIGATOR, inv=i.id) for i in pool], then, key)
                    return None
            else:
                who = [i.id for i in pool]
        elif sel == "each_investigator":
            who = [i.id for i in self.sane()]
        elif sel == "each_other_investigator":
            who = [i.id for i in self.sane(exclude=fr.inv)]
        elif sel == "self_and_regrouped":
            who = [i.id for i in self.sane() if i.id == fr.inv or i.regrouped]
        elif sel == "same":
            same = fr.data.get("same_inv")
            who = [same] if isinstance(same, str) and not self.inv(same).insane else []
        else:  # pragma: no cover - closed vocabulary
            who = []
        step.args[key] = who
        if who:
            fr.data["same_inv"] = who[-1]
        return who

    def _elected_for(self: Engine, fr: Frame, step: Step) -> str:
        """" and may Regroup" when the effect Electing is a Regroup, else ""."""
        if step.op != "eff":
            return ""
        eff = self.instruction(fr.src)[int(step.args["s"])][int(step.args["e"])]
        return " and may Regroup" if eff.op == "regroup" else ""

    def take_target(self: Engine) -> str | None:
        """{A} The Target Token holder, then the token passes anticlockwise to the next
        non-Insane Investigator (FW-TARGET-03/04)."""
        self.normalise_target()
        holder = self.st.target
        if holder is None or self.inv(holder).insane:
            return None
        nxt = self.next_sane_anticlockwise(holder) or holder
        self.st.target = nxt
        name = self.inv_name(self.inv(holder))
        if nxt == holder:  # nowhere to pass (stop 65's demo: "passes to" the Target itself)
            self.emit(f"{name} is the Target; the Target Token stays with {name}, the only "
                      "sane Investigator.", "target")
        else:
            self.emit(f"{name} is the Target; the Target Token passes to "
                      f"{self.inv_name(self.inv(nxt))}.", "target")
        return holder

    def next_sane_anticlockwise(self: Engine, start: str) -> str | None:
        invs = self.st.investigators
        k = next(i for i, x in enumerate(invs) if x.id == start)
        for step in range(1, len(invs) + 1):
            cand = invs[(k - step) % len(invs)]
            if not cand.insane:
                return cand.id
        return None

    def normalise_target(self: Engine) -> None:
        st = self.st
        if not self.alliance or st.target is None:
            return
        if self.inv(st.target).insane:
            nxt = self.next_sane_anticlockwise(st.target)
            if nxt is not None:
                st.target = nxt

    def horror_candidates(self: Engine, eff: Any, fr: Frame) -> list[str]:
        op = eff.op
        out = []
        for h in self.st.streets:
            if h.id in self.st.defeating and op != "drain":
                continue
            if op == "trigger" and h.drained:
                continue
            if op == "drain" and h.drained:
                continue
            if op == "sacrifice" and eff.named and self.horror_name(h.id) != eff.named:
                continue
            if op == "defeat" and eff.defeat_cost_symbols is not None and sum(
                    self.defeat_cost(h.id).values()) != eff.defeat_cost_symbols:
                continue
            out.append(h.id)
        return out

    def lowest(self: Engine, candidates: list[str]) -> str:
        if self.alliance:
            return min(candidates, key=self.street_number)
        return candidates[0]

    def street_number(self: Engine, hid: str) -> int:
        h = self.on_streets(hid)
        return h.street or 0 if h is not None else 0

    def resolve_horror(self: Engine, sel: str, fr: Frame, step: Step, candidates: list[str],
                       key: str = "horror") -> str | None:
        """The Horror a selector names ("" = none possible), or None while a prompt decides."""
        if key in step.args:
            val = step.args[key]
            if val:
                fr.data["same_horror"] = val
            return str(val or "")
        pick = ""
        if sel == "this":
            pick = fr.horror if fr.horror in candidates else ""
        elif sel == "same":
            same = fr.data.get("same_horror")
            pick = same if same in candidates else ""
        elif sel == "lowest_street":
            pick = self.lowest(candidates) if candidates else ""
        elif candidates:  # chosen
            seat = self.decider(fr)
            if len(candidates) > 1 and seat is not None:
                self.ask(seat, "choose_horror",
                         f"Choose a Horror On the Streets ({self.source_text(fr)}).",
                         [act(K.CHOOSE_HORROR, horror=h) for h in candidates],
                         Step(op=step.op, args=dict(step.args)), key)
                return None
            pick = self.lowest(candidates) if seat is None else candidates[0]
        step.args[key] = pick
        if pick:
            fr.data["same_horror"] = pick
        return pick

    def source_text(self: Engine, fr: Frame) -> str:
        kind, _, rest = fr.src.partition(":")
        if kind in ("unique", "exploit"):
            name = self.inv_name(self.inv(rest))
            return f"{name}'s " + ("Unique Action" if kind == "unique" else "Exploit the Rift")
        if kind in ("utilise", "intervene", "reaction"):
            return self.marble_name(rest.partition(":")[0])
        if kind in ("trigger", "deathrattle"):
            return f"{self.horror_name(rest)} {'Trigger' if kind == 'trigger' else 'Deathrattle'}"
        if kind == "wall_unique":
            return "The Wall's Unique Action"
        if kind == "mod":
            sub, _, more = rest.partition(":")
            if sub == "street":  # which Street (stop 63's demo: "(a Street Aura)")
                return f"Street {more.partition(':')[0]}'s Aura"
            return {"aura": "The Wall's Aura"}.get(sub, "an effect")
        return "a card"

    # ---- the effect step
    def step_eff(self: Engine, f: int, s: int, e: int, **args: Any) -> None:
        fr = self.frame(f)
        if fr is None or fr.stop or self.over:
            return
        eff = self.instruction(fr.src)[s][e]
        if e == 0 and not args.get("entered"):
            fr.data.pop("same_inv", None)
            fr.data.pop("same_horror", None)
        if not args.get("entered"):
            if not self.conds(eff.only_if):
                return
            args["entered"] = True
        step = Step(op="eff", args={"f": f, "s": s, "e": e, **args})
        getattr(self, "eff_" + eff.op)(eff, fr, step)
