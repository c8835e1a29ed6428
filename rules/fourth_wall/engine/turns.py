"""The run loop and the turns: the Wall's turn, an Investigator's turn, the end of an
Action and of a round, entering a stage (FW-TURN-*)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules.core.types import act
from rules.fourth_wall import actions as K
from rules.fourth_wall.content import (
    STAGES,
)
from rules.fourth_wall.engine.board import (
    STAGE_INDEX,
    STAGE_NAMES,
    capital,
    slot_name,
)
from rules.fourth_wall.state import (
    InvestigatorState,
    Step,
)

if TYPE_CHECKING:
    from rules.fourth_wall.engine import Engine


class Turns:
    """The part of `Engine` this module holds (see the module's docstring)."""

    # ================================================================== the run loop
    def run(self: Engine) -> None:
        """Resolve queued steps until a decision is needed, the game rests, or it ends."""
        guard = 0
        while not self.over:
            guard += 1
            if guard > 20_000:  # pragma: no cover - a bug, never a rule
                raise RuntimeError("fourth_wall engine loop does not settle")
            if self.st.prompts:
                return
            if self.st.queue:
                step = self.st.queue.pop(0)
                getattr(self, "step_" + step.op)(**step.args)
                continue
            if self.settle():
                continue
            return

    def settle(self: Engine) -> bool:
        """At rest: end a turn that can do nothing more. True if it moved on."""
        st = self.st
        if st.phase == "investigator":
            inv = self.active()
            assert inv is not None
            if st.turn_over or inv.insane or not self.main_actions(inv, st.ap):
                self.later(Step(op="inv_turn_end"))
                return True
        elif (st.phase == "wall" and self.conflict and st.wall_mode == "wrath"
              and not self.wall_actions()):
            self.later(Step(op="wall_turn_end"))
            return True
        return False


    # ================================================================== turn flow
    def step_wall_turn_start(self: Engine) -> None:
        st = self.st
        st.phase = "wall"
        st.wall_turns += 1
        st.wall_mode = None
        st.wall_spending = False
        st.wall_unique_used = False
        if st.doom_deferred:  # FW-DOOM-06
            self.add_doom_now(st.doom_deferred)
            st.doom_deferred = 0
        nxt = self.active()
        assert nxt is not None
        self.emit(f"The Wall's turn (before {self.inv_name(nxt)}'s turn).", "wall_turn")
        self.later(Step(op="wall_ready"))
        self.fire("wall_turn_start")  # queued in front of wall_ready

    def brood_legal(self: Engine) -> str | None:
        """FW-WALL-02: None if Brood is legal, else why not."""
        if self.st.wall_turns <= 1:
            return "not on The Wall's first turn"
        if self.st.last_wall_brood:
            return "never on two Wall turns in a row"
        if self.stage_at_least("crescendo"):
            return "not during The Crescendo"
        return None

    def step_wall_ready(self: Engine) -> None:
        if self.alliance:
            self.later(Step(op="ally_doom"))
            return
        if self.brood_legal() is not None:
            self.start_wrath()

    def doom_bonus(self: Engine) -> int:
        extra = 0
        if self.st.wall_turns == 1:
            extra += self.opts.first_turn_extra_doom
        if self.stage_at_least("crescendo"):
            extra += self.opts.crescendo_extra_doom
        return extra

    def wrath_doom(self: Engine) -> int:
        """Doom a Wrath gains before its bonuses (FW-WALL-03's +1): the table's option
        `wrath_doom` (FW-LOBBY-03: 2 for a closer game) when set, else the pack's (the book's 1)."""
        chosen = self.st.wrath_doom
        return self.opts.wrath_doom if chosen is None else chosen

    def wrath_gain(self: Engine) -> int:
        """Doom a Wrath chosen now gains, bonuses included (FW-WALL-03, FW-DOOM-01)."""
        return self.wrath_doom() + self.doom_bonus()

    def start_wrath(self: Engine) -> None:
        st = self.st
        st.wall_mode = "wrath"
        gain = self.wrath_gain()  # FW-WALL-03
        self.add_doom_now(gain)
        st.wall_spending = True
        self.emit(f"The Wall chooses Wrath: +{gain} Doom ({st.doom} in the Action Pool).",
                  "wrath")

    def start_brood(self: Engine) -> None:
        st = self.st
        st.wall_mode = "brood"
        self.add_doom_now(self.opts.brood_doom)  # FW-WALL-11
        st.wall_spending = True
        self.emit(f"The Wall Broods: +{self.opts.brood_doom} Doom ({st.doom} kept).", "brood")
        drained = [h for h in st.streets if h.drained]
        for h in st.streets:  # FW-WALL-13
            h.drained = False
        if drained:  # said only when something was Drained (stop 63's demo)
            self.emit("All Horrors On the Streets are no longer Drained.", "undrain")
        self.later(Step(op="end_action"), Step(op="unleash"), Step(op="end_action"),
                   Step(op="wall_turn_end"))

    def step_unleash(self: Engine, horror: str | None = None, answer: dict[str, Any] | None = None
                     ) -> None:
        """FW-WALL-14 / FW-AMB-08 / FW-PROMPT-05."""
        st = self.st
        if answer is not None:
            kind = answer["kind"]
            if kind == K.SCOURGE:
                horror = str(answer["params"]["horror"])
            else:
                if kind == K.KEEP_SCOURGE:
                    self.emit("The Scourge stays where it is.", "scourge")
                return
        if horror is not None:
            moved = st.scourge is not None
            # Which of two of a name, said before it becomes "(The Scourge)" (stop 67's demo).
            called = self.horror_called(horror)
            st.scourge = horror
            self.emit(f"The Scourge {'moves to' if moved else 'is unleashed on'} "
                      f"{called}: no Gate may be closed while it is On the Streets.", "scourge")
            return
        if not st.streets:
            self.emit("No Horror is On the Streets: The Scourge cannot be unleashed.",
                      "scourge")
            return
        options = [act(K.SCOURGE, horror=h.id) for h in st.streets if h.id != st.scourge]
        if st.scourge is not None:
            options.insert(0, act(K.KEEP_SCOURGE))
        elif self.opts.scourge_optional:
            options.append(act(K.DECLINE))
        if len(options) == 1 and options[0].kind == K.SCOURGE:
            self.step_unleash(horror=str(options[0].params["horror"]))
            return
        if len(options) == 1:
            return
        assert st.wall_seat is not None
        self.ask(st.wall_seat, "scourge", "Unleash the Scourge: choose the Horror that "
                 "becomes The Scourge.", options, Step(op="unleash"))

    def step_wall_turn_end(self: Engine) -> None:
        st = self.st
        if self.conflict and st.wall_mode == "wrath" and st.doom:  # FW-WALL-10
            self.emit(f"The Wall's turn ends: {st.doom} unspent Doom is lost.", "doom_lost")
            st.doom = 0
        elif self.conflict and st.wall_mode == "brood":
            self.emit(f"The Wall's turn ends, keeping {st.doom} Doom.", "wall_turn_end")
        st.last_wall_brood = st.wall_mode == "brood"
        st.wall_mode = None
        st.wall_spending = False
        self.later(Step(op="inv_turn_start"))

    def step_inv_turn_start(self: Engine) -> None:
        """FW-AP-03: replace an Insane Investigator, un-Regroup, then the Action Points."""
        st = self.st
        st.phase = "investigator"
        inv = self.active()
        assert inv is not None
        st.shields = [s for s in st.shields if s.owner != inv.id]
        if inv.insane:
            self.replace_insane(inv)
        if inv.regrouped:
            inv.regrouped = False
        st.ap = self.opts.action_points + (
            self.opts.crescendo_extra_ap if self.stage_at_least("crescendo") else 0)
        st.uniques_used = []
        st.refunds = 0
        st.declined_trades = []
        st.turn_over = False
        self.emit(f"{self.inv_name(inv)}'s turn ({st.ap} Action Points).", "turn")

    def replace_insane(self: Engine, inv: InvestigatorState) -> None:
        """FW-INSANE-06: a new card at random, Marbles equal to its Sanity, the Insane card
        shuffled back (after the draw, so it cannot come straight back)."""
        st = self.st
        old = inv.card
        if st.investigator_deck:
            new = st.investigator_deck.pop(st.rng.below(len(st.investigator_deck)))
            inv.card = new
        if old and old != inv.card:
            st.investigator_deck.append(old)
            st.rng.shuffle(st.investigator_deck)
        inv.insane = False
        inv.regrouped = False
        was = self.investigator_card(old).name if old else capital(slot_name(int(inv.id[1:]) - 1))
        self.emit(f"{was} was Insane and returns as {self.inv_name(inv)}.", "replace",
                  inv=inv.id, was=was)
        self.draw_into(inv, self.investigator_card(inv.card or "").sanity, None)

    def step_inv_turn_end(self: Engine) -> None:
        st = self.st
        inv = self.active()
        assert inv is not None
        st.ap = 0
        st.grants = []
        self.emit(f"{self.inv_name(inv)}'s turn ends.", "turn_end")
        st.turn_index += 1
        if st.turn_index >= len(st.investigators):  # FW-TURN-03
            st.turn_index = 0
            self.round_end()
            if self.over:
                return
        self.later(Step(op="wall_turn_start"))

    def round_end(self: Engine) -> None:
        """FW-TRACK-01: the Wall card moves up one rank; stage events fire on arrival."""
        st = self.st
        ranks = self.layout_ranks()
        before = self.stage()
        st.rank_index = min(st.rank_index + 1, len(ranks) - 1)
        st.round += 1
        rank, after = ranks[st.rank_index]
        self.emit(f"Round over: the Turn Tracker moves to {rank} ({STAGE_NAMES[after]}).",
                  "tracker")
        if after == before:
            return
        for stage in STAGES[STAGE_INDEX[before] + 1: STAGE_INDEX[after] + 1]:
            self.enter_stage(stage)
            if self.over:
                return

    def enter_stage(self: Engine, stage: str) -> None:
        st = self.st
        if stage == "eye_opens":  # FW-TRACK-03 / FW-TRACK-04
            st.revealed = True
            w = self.wall()
            self.emit(f"An Eye Opens: The Wall is revealed — {w.name}. {w.text}", "reveal",
                      card=w.id)
            if len(st.gates) >= self.max_gates:
                self.finish("wall", "five Gates are Open when An Eye Opens.")
        elif stage == "crescendo":  # FW-TRACK-05..08
            for h in st.streets:
                h.drained = False
            self.emit("The Crescendo: every Horror is no longer Drained; The Wall gains an "
                      "extra Doom each turn" + (" and may no longer Brood" if self.conflict
                                                else "")
                      + "; Investigators get an extra Action Point.", "crescendo")
        elif stage == "awakens":  # FW-TRACK-09
            self.finish("wall", "The Ancient One Awakens.")


    # ================================================================== end of an Action
    def step_end_action(self: Engine) -> None:
        """FW-TURN-06: Defeat check, Hand Limits, Insanity, Gates — in that order."""
        st = self.st
        for h in st.streets:  # FW-AMB-12
            if h.id not in st.defeating and self.is_defeated(h):
                self.later(Step(op="defeat", args={"horror": h.id, "deathrattle": True}),
                           Step(op="end_action"))
                return
        for inv in self.from_active():  # FW-HAND-02
            if not inv.insane and len(inv.hand) > self.hand_limit(inv):
                self.later(Step(op="hand_limit", args={"inv": inv.id}), Step(op="end_action"))
                return
        newly = [i for i in self.from_active() if i.card and not i.insane and not i.hand]
        if not newly:
            return
        act_inv = self.active()
        for inv in newly:  # FW-INSANE-01..05
            inv.insane = True
            inv.regrouped = False
            self.emit(f"{self.inv_name(inv)} has lost every Marble and is driven Insane; "
                      "The Wall must Open a Gate.", "insane", inv=inv.id)
            if st.phase == "investigator" and act_inv is not None and inv.id == act_inv.id:
                st.turn_over = True  # FW-INSANE-04
        if st.target is not None and self.inv(st.target).insane:
            self.normalise_target()
        self.later(*[Step(op="open_gate") for _ in newly], Step(op="end_action"))

    def step_hand_limit(self: Engine, inv: str, marble: str | None = None) -> None:
        """FW-HAND-02 / FW-PROMPT-14: the owner discards one Marble at a time."""
        i = self.inv(inv)
        if marble is not None:
            if marble in i.hand:
                i.hand.remove(marble)
                self.st.marble_discard.append(marble)
                self.emit(f"{self.inv_name(i)} discards {self.a_marble(marble)} (Hand "
                          "Limit).", "discard")
            self.later(Step(op="hand_limit", args={"inv": inv}))
            return
        if i.insane or len(i.hand) <= self.hand_limit(i):
            return
        over = len(i.hand) - self.hand_limit(i)
        self.choose_hidden(
            i.seat, "discard_excess",
            f"{self.inv_name(i)} is over the Hand Limit by {over}: discard a Marble.",
            [act(K.CHOOSE_MARBLE, marble=m) for m in self.distinct(i.hand)],
            Step(op="hand_limit", args={"inv": inv}), "marble")
