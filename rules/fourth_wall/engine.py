"""The I Am the Fourth Wall rules engine: turn flow, the Wall, Investigators, Horrors, effects.

One `Engine` wraps one (private, mutable) state for the length of one call. Everything the
game does goes through two structures held in the state:

- ``state.queue``: pending resolution steps (a Wall turn, an Investigator's Action, one
  sentence of a card, a Lose-a-Marble, the end-of-Action checks ...), run front to back by
  `Engine.run`; `Engine.later` puts steps in front of what is already queued, so nested
  effects resolve before the rest of the card that caused them;
- ``state.prompts``: a stack of pending decisions (spec §6). Every prompt is a list of answer
  actions plus the step to continue with (``then``) and where to put the answer (``into``),
  so a restart can resume in the middle of any card.

When both are empty the game *rests*: in the active Investigator's turn (``phase ==
"investigator"``) or, in Conflict, in the Wall player's turn (``phase == "wall"``).

Cards are never named here: Instructions are read from the content pack and dispatched by
``effect.op`` (`Engine.eff_*`), standing rules by ``modifier.kind``, conditions by
``condition.test`` and Presence cards by ``presence.action``.

Action boundaries (FW-TURN-06, FW-AMB-21): every Investigator action, Wall action, Brood step,
Presence card and out-of-turn Regroup / granted action ends with the ``end_action`` step: the
state-based Defeat check (FW-AMB-12), Hand Limits (FW-HAND-02), Insanity (FW-INSANE-01) and a
Gate per newly Insane Investigator, one at a time with a win check after each (FW-INSANE-05).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

from rules.core.deck import put_on_top
from rules.core.errors import IllegalAction
from rules.core.types import PUBLIC, Action, Audience, Event, Prompt, act
from rules.fourth_wall import actions as K
from rules.fourth_wall.content import (
    STAGES,
    SYMBOLS,
    Horror,
    Instruction,
    Investigator,
    Marble,
    Pack,
    WallCard,
    default_pack,
    load_pack,
)
from rules.fourth_wall.state import (
    FourthWallState,
    Frame,
    Grant,
    HorrorOnStreets,
    InvestigatorState,
    Shield,
    Step,
)

LOG_SIZE = 20
# No cap on answers, cancelled attempts or free exchanges lives here: the engine offers every
# legal answer (a Discord front end pages long lists), a player may call off a Trade or Close a
# Gate as often as they like, and the free window after a Regroup is "freely" (FW-AMB-11). Loop
# guards for machine players live with them (`rules.fourth_wall.ai`).

STAGE_INDEX: dict[str, int] = {s: i for i, s in enumerate(STAGES)}
STAGE_NAMES: dict[str, str] = {
    "slumber": "Slumber",
    "eye_opens": "An Eye Opens",
    "crescendo": "The Crescendo",
    "awakens": "The Ancient One Awakens",
}
SYMBOL_NAMES: dict[str, str] = {"clue": "Clue", "force": "Force", "science": "Science"}

CustomHandler = Callable[["Engine", Any, Frame, Step], None]
CUSTOM_EFFECTS: dict[str, CustomHandler] = {}
"""Python handlers of named custom effects (``content.register_custom_effect``); none by
default. A handler gets the engine, the effect, its frame and its step."""

SINGLE_WHO = {"self", "target", "elected", "elected_other", "chosen_investigator",
              "chosen_other_investigator", "same"}


@lru_cache(maxsize=8)
def _load(path: str) -> Pack:
    return load_pack(Path(path))


def pack_for(path: str | None) -> Pack:
    """The content pack a game uses: the shipped default, or a pack folder."""
    return default_pack() if path is None else _load(path)


def symbols_text(symbols: Counter[str] | list[str] | tuple[str, ...]) -> str:
    counts = Counter(symbols)
    parts = [SYMBOL_NAMES[s] + (f"×{counts[s]}" if counts[s] > 1 else "")
             for s in SYMBOLS if counts[s]]
    return ", ".join(parts) if parts else "no Symbols"


class _Defs:
    """Plain-dict card lookups of one pack (pydantic private attributes are slow to read)."""

    def __init__(self, pack: Pack) -> None:
        self.pack = pack
        self.marbles: dict[str, Marble] = {m.id: m for m in pack.marbles}
        self.horrors: dict[str, Horror] = {h.id: h for h in pack.horrors}
        self.investigators: dict[str, Investigator] = {i.id: i for i in pack.investigators}
        self.walls: dict[str, WallCard] = {w.id: w for w in pack.walls}


_DEFS: dict[int, _Defs] = {}


def defs_of(pack: Pack) -> _Defs:
    entry = _DEFS.get(id(pack))
    if entry is None or entry.pack is not pack:
        entry = _DEFS[id(pack)] = _Defs(pack)
    return entry


ModSource = tuple[str, Any, str | None, str | None, str]


ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")


def slot_name(k: int) -> str:
    """An Investigator not yet chosen, in words: "the first Investigator" (never an id)."""
    return f"the {ORDINALS[k] if k < len(ORDINALS) else f'{k + 1}th'} Investigator"


def capital(text: str) -> str:
    return text[:1].upper() + text[1:]


class Engine:
    """Rules over one mutable state (a private copy made by `Game.apply`)."""

    def __init__(self, state: FourthWallState) -> None:
        self.st = state
        self.pack = pack_for(state.pack_path)
        self.defs = defs_of(self.pack)
        self.opts = self.pack.options
        self.events: list[Event] = []
        self._mods_key: tuple[Any, ...] | None = None
        self._mods: dict[str, list[ModSource]] = {}

    # ================================================================== small helpers
    def emit(self, text: str, kind: str = "info", audience: Audience = PUBLIC,
             **data: Any) -> None:
        self.events.append(Event(kind=kind, text=text, audience=audience, data=data))
        if audience == PUBLIC:
            self.st.log.append(text)
            if len(self.st.log) > LOG_SIZE:
                del self.st.log[: len(self.st.log) - LOG_SIZE]

    def emit_team(self, public: str | None, private: str, kind: str = "info") -> None:
        """A public line plus the same with hidden details for the Investigator team
        (FW-VIS-06/09/10: the Wall sees only counts)."""
        if public:
            self.emit(public, kind)
        self.emit(private, kind, audience=self.team_seats())

    def later(self, *steps: Step) -> None:
        """Queue steps to run next, before anything already queued, in the given order."""
        self.st.queue[0:0] = list(steps)

    @property
    def conflict(self) -> bool:
        return self.st.mode == "conflict"

    @property
    def alliance(self) -> bool:
        return self.st.mode == "alliance"

    @property
    def over(self) -> bool:
        return self.st.outcome is not None

    # ---- cards
    def investigator_card(self, card: str) -> Investigator:
        return self.defs.investigators[card]

    def marble(self, mid: str) -> Marble:
        return self.defs.marbles[self.st.marble_cards[mid]]

    def marble_name(self, mid: str) -> str:
        return self.marble(mid).name if mid in self.st.marble_cards else mid

    def horror(self, hid: str) -> Horror:
        return self.defs.horrors[self.st.horror_cards[hid]]

    def horror_name(self, hid: str) -> str:
        return self.horror(hid).name if hid in self.st.horror_cards else hid

    def wall(self) -> WallCard:
        return self.defs.walls[self.st.wall_card]

    # ---- investigators
    def has_inv(self, iid: str) -> bool:
        return any(i.id == iid for i in self.st.investigators)

    def inv(self, iid: str) -> InvestigatorState:
        for i in self.st.investigators:
            if i.id == iid:
                return i
        raise KeyError(iid)

    def invs_of(self, seat: str) -> list[InvestigatorState]:
        return [i for i in self.st.investigators if i.seat == seat]

    def inv_name(self, inv: InvestigatorState) -> str:
        if inv.card:
            return self.investigator_card(inv.card).name
        return slot_name(int(inv.id[1:]) - 1)

    def seat_of(self, iid: str) -> str:
        return self.inv(iid).seat

    def team_seats(self) -> list[str]:
        seen: list[str] = []
        for i in self.st.investigators:
            if i.seat not in seen:
                seen.append(i.seat)
        return seen

    def active(self) -> InvestigatorState | None:
        """The investigator whose turn it is, or whose turn the Wall turn precedes."""
        invs = self.st.investigators
        if not invs or self.st.phase in ("setup", "over"):
            return None
        return invs[self.st.turn_index % len(invs)]

    def team_seat(self) -> str:
        """Who submits the team's collective choices (Elected, FW-PROMPT-07)."""
        act_inv = self.active()
        return act_inv.seat if act_inv else self.st.investigators[0].seat

    def from_active(self) -> list[InvestigatorState]:
        invs = self.st.investigators
        k = self.st.turn_index % len(invs)
        return invs[k:] + invs[:k]

    def sane(self, exclude: str | None = None) -> list[InvestigatorState]:
        """Investigators that may be chosen or affected (FW-INSANE-03), from the active seat."""
        return [i for i in self.from_active() if not i.insane and i.card and i.id != exclude]

    def seat_label(self, seat: str) -> str:
        if self.st.wall_seat == seat:
            if self.st.revealed:
                return f"Wall player ({self.wall().name})"
            return "Wall player"
        names = [self.inv_name(i) for i in self.invs_of(seat)]
        return " & ".join(names) if names else "an Investigator player"

    def hand_limit(self, inv: InvestigatorState) -> int:
        """FW-HAND-01: Sanity as modified by effects (never below 1)."""
        if not inv.card:
            return 0
        base = self.investigator_card(inv.card).sanity
        for src in self.modifier_sources():
            m = src[1]
            if m.kind == "hand_limit_delta" and (
                m.scope == "each_investigator" or src[3] is None or src[3] == inv.id
            ):
                base += m.n
        return max(1, base)

    # ================================================================== stages, gates
    def layout_ranks(self) -> tuple[tuple[int, str], ...]:
        return self.pack.tracker(self.st.tracker_size).ranks()

    def stage(self) -> str:
        ranks = self.layout_ranks()
        return ranks[min(self.st.rank_index, len(ranks) - 1)][1]

    def stage_at_least(self, stage: str) -> bool:
        return STAGE_INDEX[self.stage()] >= STAGE_INDEX[stage]

    @property
    def max_gates(self) -> int:
        return self.opts.max_open_gates

    def scourge_blocks(self) -> bool:
        """FW-SCOURGE-03: no Gate may be closed while The Scourge is On the Streets."""
        return self.conflict and self.st.scourge is not None

    # ================================================================== modifiers
    def cond(self, c: Any) -> bool:
        t = c.test
        if t == "stage_at_least":
            return self.stage_at_least(c.stage)
        if t == "open_gates_at_least":
            return len(self.st.gates) >= c.n
        if t == "street_occupied":
            return any(h.street == c.street for h in self.st.streets)
        if t == "scourge_on_streets":
            return (self.st.scourge is not None) == c.value
        if t == "mode":
            return bool(self.st.mode == c.mode)
        return False  # pragma: no cover - the content vocabulary is closed

    def conds(self, conds: Any) -> bool:
        return all(self.cond(c) for c in conds)

    def modifier_sources(self) -> list[ModSource]:
        return self._all_mods().get("", [])

    def mods(self, kind: str) -> list[ModSource]:
        return self._all_mods().get(kind, [])

    def _all_mods(self) -> dict[str, list[ModSource]]:
        """The active modifiers grouped by kind ("" = all), recomputed only when something
        they depend on changed (the Wall card's state, the Streets, Anchored Marbles, the
        Investigators' cards and sanity, the stage, the Gates, The Scourge)."""
        st = self.st
        key = (st.revealed, st.wall_card, st.rank_index, len(st.gates), st.scourge,
               tuple((h.id, h.street) for h in st.streets), tuple(st.anchored),
               tuple((i.card, i.insane) for i in st.investigators))
        if key != self._mods_key:
            grouped: dict[str, list[ModSource]] = {"": self._compute_modifier_sources()}
            for src in grouped[""]:
                grouped.setdefault(src[1].kind, []).append(src)
            self._mods = grouped
            self._mods_key = key
        return self._mods

    def _compute_modifier_sources(self) -> list[ModSource]:
        """Every active standing rule: (source, modifier, its Horror "this", its owning
        investigator, side). Auras after An Eye Opens (FW-TRACK-03), Street Auras while
        occupied (FW-STREET-01), Anchored Marbles (FW-TERM-02), Horrors' own rules, the
        Scourge (FW-GAP-05) and Investigator cards."""
        st = self.st
        out: list[ModSource] = []
        if st.revealed and st.wall_card:
            for i, m in enumerate(self.wall().aura):
                out.append((f"aura:{i}", m, None, None, "wall"))
        for h in st.streets:
            if h.street is not None and self.alliance:
                for i, m in enumerate(self.pack.street(h.street).aura):
                    out.append((f"street:{h.street}:{i}", m, h.id, None, "wall"))
            for i, m in enumerate(self.horror(h.id).modifiers):
                out.append((f"hmod:{h.id}:{i}", m, h.id, None, "wall"))
        if self.conflict and st.scourge is not None:
            for i, m in enumerate(self.pack.scourge.modifiers):
                out.append((f"scourge:{i}", m, st.scourge, None, "wall"))
        for mid in st.anchored:
            for i, m in enumerate(self.marble(mid).anchored):
                out.append((f"anchor:{mid}:{i}", m, None, None, "investigators"))
        for inv in st.investigators:
            if inv.card and not inv.insane:
                for i, m in enumerate(self.investigator_card(inv.card).modifiers):
                    out.append((f"imod:{inv.id}:{i}", m, None, inv.id, "investigators"))
        return [s for s in out if self.conds(s[1].only_if)]

    def ignored(self, instruction_kind: str) -> bool:
        return any(s[1].instruction == instruction_kind
                   for s in self.mods("ignore_instruction_kind"))

    def action_cost(self, name: str, inv: InvestigatorState) -> int:
        """AP cost of an Investigator action with every cost modifier (never below 0)."""
        if name in ("unique", "exploit"):
            card = self.investigator_card(inv.card or "")
            base = card.unique.cost if name == "unique" else card.exploit.cost
        else:
            base = getattr(self.opts.action_costs, name)
        for _, m, _, owner, _ in self.mods("action_cost_delta"):
            if m.action == name and (owner is None or owner == inv.id):
                base += m.n
        return max(0, base)

    def defeat_cost(self, hid: str) -> Counter[str]:
        """FW-HORROR-04: the effective Defeat Cost (printed + every active modifier)."""
        cost: Counter[str] = Counter(self.horror(hid).defeat)
        for _, m, this, _, _ in self.mods("defeat_cost_delta"):
            if m.scope == "all_on_streets" or this == hid:
                cost[m.symbol] += m.n
        return cost

    def attached_symbols(self, h: HorrorOnStreets) -> Counter[str]:
        c: Counter[str] = Counter()
        for mid in h.attached:
            c.update(self.marble(mid).symbols)
        return c

    def is_defeated(self, h: HorrorOnStreets) -> bool:
        """FW-HORROR-01: every Symbol of the Defeat Cost negated by an Attached one."""
        att = self.attached_symbols(h)
        return all(att[s] >= n for s, n in self.defeat_cost(h.id).items())

    def gate_requirement(self, distinct: int = 3) -> tuple[int, Counter[str]]:
        extra: Counter[str] = Counter()
        for _, m, _, _, _ in self.mods("gate_requirement_extra"):
            extra[m.symbol] += m.n
        return distinct, extra

    def meets(self, marbles: list[str], distinct: int = 3) -> bool:
        """Close a Gate: the Marbles show `distinct` different Symbols plus every Aura extra
        (FW-ACT-01 a, g)."""
        need, extra = self.gate_requirement(distinct)
        have: Counter[str] = Counter()
        for mid in marbles:
            have.update(self.marble(mid).symbols)
        for s, n in extra.items():
            have[s] -= n
            if have[s] < 0:
                return False
        return sum(1 for s in SYMBOLS if have[s] > 0) >= need

    # ================================================================== lookups for labels
    def horror_label(self, hid: str) -> str:
        h = self.on_streets(hid)
        name = self.horror_name(hid)
        if h is None:
            return name
        where = f" (Street {h.street})" if h.street is not None else ""
        att = self.attached_symbols(h)
        need = self.defeat_cost(hid)
        left = Counter({s: n - att[s] for s, n in need.items() if n > att[s]})
        tags = " Drained" if h.drained else ""
        tags += " Scourge" if self.st.scourge == hid else ""
        return f"{name}{where} — needs {symbols_text(left)}{tags}"

    def on_streets(self, hid: str) -> HorrorOnStreets | None:
        for h in self.st.streets:
            if h.id == hid:
                return h
        return None

    def on_streets_marble(self, mid: str) -> bool:
        return mid in self.st.anchored or any(mid in h.attached for h in self.st.streets)

    def street_marble_label(self, mid: str) -> str:
        name = self.marble_name(mid)
        if mid in self.st.anchored:
            return f"{name} (Anchored)"
        for h in self.st.streets:
            if mid in h.attached:
                return f"{name} on {self.horror_name(h.id)}"
        return name

    def cost_text(self, action: Action) -> str:
        iid = action.p("inv")
        if not isinstance(iid, str) or not self.has_inv(iid):
            return "?"
        name = {K.SEARCH: "search", K.INTERVENE: "intervene", K.UTILISE: "utilise",
                K.GIVE: "give_or_trade", K.TRADE: "give_or_trade", K.REGROUP: "regroup",
                K.CLOSE_GATE: "close_gate", K.EXPLOIT: "exploit", K.UNIQUE: "unique"}
        if action.kind not in name:
            return "?"
        return f"{self.action_cost(name[action.kind], self.inv(iid))} AP"

    # ================================================================== decks
    def draw_marble(self) -> str | None:
        """Top Marble; an empty deck is rebuilt from the discard pile (FW-HORROR-10)."""
        st = self.st
        if not st.marble_deck and st.marble_discard:
            st.marble_deck = list(st.marble_discard)
            st.marble_discard = []
            st.rng.shuffle(st.marble_deck)
            self.emit("The Marble deck ran out: the discard pile is shuffled into a new deck.",
                      "reshuffle")
        return st.marble_deck.pop() if st.marble_deck else None

    def draw_horror(self) -> str | None:
        st = self.st
        if not st.horror_deck and st.horror_discard:
            st.horror_deck = list(st.horror_discard)
            st.horror_discard = []
            st.rng.shuffle(st.horror_deck)
            self.emit("The Horror deck ran out: the discard pile is shuffled into a new deck.",
                      "reshuffle")
        return st.horror_deck.pop() if st.horror_deck else None

    def can_draw_marble(self) -> bool:
        return bool(self.st.marble_deck or self.st.marble_discard)

    def can_draw_horror(self) -> bool:
        return bool(self.st.horror_deck or self.st.horror_discard)

    def distinct(self, marbles: list[str]) -> list[str]:
        """One Marble per card type (copies are interchangeable), in hand order."""
        seen: set[str] = set()
        out: list[str] = []
        for mid in marbles:
            card = self.st.marble_cards[mid]
            if card not in seen:
                seen.add(card)
                out.append(mid)
        return out

    def distinct_horrors(self, horrors: list[str]) -> list[str]:
        seen: set[str] = set()
        out: list[str] = []
        for hid in horrors:
            card = self.st.horror_cards[hid]
            if card not in seen:
                seen.add(card)
                out.append(hid)
        return out

    # ================================================================== outcome
    def finish(self, winner: str, reason: str) -> None:
        if self.over:
            return
        self.st.outcome = "investigators" if winner == "investigators" else "wall"
        self.st.phase = "over"
        self.st.reason = reason
        self.st.prompts = []
        self.st.queue = []
        if winner == "investigators":
            self.emit("The Investigators win: " + reason, "game_over")
        else:
            self.emit("The Wall wins: " + reason, "game_over")

    # ================================================================== prompts
    def ask(self, seat: str, kind: str, text: str, options: list[Action], then: Step,
            into: str = "answer", **data: Any) -> None:
        """Push a prompt: `options` are the answers; the chosen one resumes `then` with
        ``then.args[into]`` = the answer (``"answer"``: the whole action as a dict; any other
        key: the answer's single parameter value). ``public_text`` in `data` is what the
        views without the team's secrets show instead of `text` (FW-VIS-02/10); with
        ``seat_only=True`` only the answering seat reads `text` (a selection in progress,
        FW-VIS-06: the rest of the team, the Wall and the channel read ``public_text``)."""
        self.st.prompt_seq += 1
        self.st.prompts.append(Prompt(
            id=f"p{self.st.prompt_seq}", kind=kind, seats=[seat], text=text,
            data={"options": [o.model_dump() for o in options],
                  "then": then.model_dump(), "into": into, **data},
        ))

    def resume(self, then: Step, into: str, answer: Action) -> None:
        args = dict(then.args)
        if into == "answer":
            args["answer"] = {"kind": answer.kind, "params": dict(answer.params)}
        else:  # "" marks an answer without a value (stop, cancel)
            args[into] = next(iter(answer.params.values())) if answer.params else ""
        self.later(Step(op=then.op, args=args))

    def choose(self, seat: str | None, kind: str, text: str, options: list[Action], then: Step,
               into: str, ai: str = "random", **data: Any) -> None:
        """Ask `seat` to pick one of `options`, or pick at once when there is only one, or when
        the chooser is the Alliance AI (seat None: `ai` = "random" (FW-AI-07) or "first")."""
        if not options:
            return
        if len(options) == 1:
            self.resume(then, into, options[0])
        elif seat is None:
            pick = options[0] if ai == "first" else self.st.rng.choice(options)
            self.resume(then, into, pick)
        else:
            self.ask(seat, kind, text, options, then, into, **data)

    def choose_hidden(self, seat: str, kind: str, text: str, options: list[Action], then: Step,
                      into: str, **data: Any) -> None:
        """`choose` over cards of a hidden hand (Conflict): always asked, even with one answer,
        since skipping the question would tell The Wall the hand holds one kind of card."""
        if self.conflict and options:
            self.ask(seat, kind, text, options, then, into, **data)
        else:
            self.choose(seat, kind, text, options, then, into, **data)

    def prompt_answers(self, seat: str) -> list[Action]:
        if not self.st.prompts:
            return []
        p = self.st.prompts[-1]
        if seat not in p.seats:
            return []
        return [Action(kind=o["kind"], params=o["params"]) for o in p.data["options"]]

    def answer(self, action: Action) -> None:
        p = self.st.prompts.pop()
        self.resume(Step.model_validate(p.data["then"]), p.data["into"], action)

    # ================================================================== the run loop
    def run(self) -> None:
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

    def settle(self) -> bool:
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

    # ================================================================== setup flow
    def step_setup_choose(self, k: int) -> None:
        """FW-SETUP-04 / FW-PROMPT-01: each Investigator keeps one of its two cards."""
        st = self.st
        if k >= len(st.investigators):
            self.later(Step(op="setup_finish"))
            return
        inv = st.investigators[k]
        opts = [act(K.KEEP, card=c) for c in inv.dealt]
        names = " or ".join(self.investigator_card(c).name for c in inv.dealt)
        slot = capital(slot_name(k))
        self.ask(inv.seat, "keep_investigator",
                 f"{slot}: keep one of your two Investigator cards ({names}); "
                 "the team may discuss it openly.",
                 opts, Step(op="setup_keep", args={"k": k}), into="card",
                 public_text=f"{slot}: keep one of two Investigator cards "
                 "(FW-VIS-02: the team sees which).")

    def step_setup_keep(self, k: int, card: str) -> None:
        st = self.st
        inv = st.investigators[k]
        inv.card = card
        st.investigator_deck.extend(c for c in inv.dealt if c != card)
        inv.dealt = []
        self.emit(f"{capital(slot_name(k))} is {self.investigator_card(card).name}.", "setup",
                  inv=inv.id, seat=inv.seat)
        self.later(Step(op="setup_choose", args={"k": k + 1}))

    def step_setup_finish(self) -> None:
        st = self.st
        st.rng.shuffle(st.investigator_deck)  # FW-GAP-09
        for inv in st.investigators:  # FW-SETUP-05
            self.draw_into(inv, self.investigator_card(inv.card or "").sanity, None)
        self.emit(f"The game begins: {len(st.gates)} Open Gates; the Turn Tracker is in "
                  "Slumber.", "setup")
        self.later(Step(op="wall_turn_start"))

    # ================================================================== turn flow
    def step_wall_turn_start(self) -> None:
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

    def brood_legal(self) -> str | None:
        """FW-WALL-02: None if Brood is legal, else why not."""
        if self.st.wall_turns <= 1:
            return "not on The Wall's first turn"
        if self.st.last_wall_brood:
            return "never on two Wall turns in a row"
        if self.stage_at_least("crescendo"):
            return "not during The Crescendo"
        return None

    def step_wall_ready(self) -> None:
        if self.alliance:
            self.later(Step(op="ally_doom"))
            return
        if self.brood_legal() is not None:
            self.start_wrath()

    def doom_bonus(self) -> int:
        extra = 0
        if self.st.wall_turns == 1:
            extra += self.opts.first_turn_extra_doom
        if self.stage_at_least("crescendo"):
            extra += self.opts.crescendo_extra_doom
        return extra

    def start_wrath(self) -> None:
        st = self.st
        st.wall_mode = "wrath"
        gain = self.opts.wrath_doom + self.doom_bonus()  # FW-WALL-03
        self.add_doom_now(gain)
        st.wall_spending = True
        self.emit(f"The Wall chooses Wrath: +{gain} Doom ({st.doom} in the Action Pool).",
                  "wrath")

    def start_brood(self) -> None:
        st = self.st
        st.wall_mode = "brood"
        self.add_doom_now(self.opts.brood_doom)  # FW-WALL-11
        st.wall_spending = True
        self.emit(f"The Wall Broods: +{self.opts.brood_doom} Doom ({st.doom} kept).", "brood")
        for h in st.streets:  # FW-WALL-13
            h.drained = False
        if st.streets:
            self.emit("All Horrors On the Streets are no longer Drained.", "undrain")
        self.later(Step(op="end_action"), Step(op="unleash"), Step(op="end_action"),
                   Step(op="wall_turn_end"))

    def step_unleash(self, horror: str | None = None, answer: dict[str, Any] | None = None
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
            st.scourge = horror
            self.emit(f"The Scourge {'moves to' if moved else 'is unleashed on'} "
                      f"{self.horror_name(horror)}: no Gate may be closed while it is On the "
                      "Streets.", "scourge")
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

    def step_wall_turn_end(self) -> None:
        st = self.st
        if self.conflict and st.wall_mode == "wrath" and st.doom:  # FW-WALL-10
            self.emit(f"The Wall's turn ends: {st.doom} unspent Doom is lost.", "doom_lost")
            st.doom = 0
        elif self.conflict and st.wall_mode == "brood":
            self.emit(f"The Wall's turn ends: {st.doom} Doom is kept.", "wall_turn_end")
        st.last_wall_brood = st.wall_mode == "brood"
        st.wall_mode = None
        st.wall_spending = False
        self.later(Step(op="inv_turn_start"))

    def step_inv_turn_start(self) -> None:
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
        st.turn_over = False
        self.emit(f"{self.inv_name(inv)}'s turn ({st.ap} Action Points).", "turn")

    def replace_insane(self, inv: InvestigatorState) -> None:
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
        self.emit(f"{was} was Insane and returns as {self.inv_name(inv)}.", "replace")
        self.draw_into(inv, self.investigator_card(inv.card or "").sanity, None)

    def step_inv_turn_end(self) -> None:
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

    def round_end(self) -> None:
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

    def enter_stage(self, stage: str) -> None:
        st = self.st
        if stage == "eye_opens":  # FW-TRACK-03 / FW-TRACK-04
            st.revealed = True
            w = self.wall()
            self.emit(f"An Eye Opens: The Wall is revealed — {w.name}. {w.text}", "reveal",
                      card=w.id)
            if len(st.gates) >= self.max_gates:
                self.finish("wall", "five Gates are Open when An Eye Opens (FW-END-02).")
        elif stage == "crescendo":  # FW-TRACK-05..08
            for h in st.streets:
                h.drained = False
            self.emit("The Crescendo: every Horror is no longer Drained; The Wall gains an "
                      "extra Doom each turn" + (" and may no longer Brood" if self.conflict
                                                else "")
                      + "; Investigators get an extra Action Point.", "crescendo")
        elif stage == "awakens":  # FW-TRACK-09
            self.finish("wall", "The Ancient One Awakens (FW-END-03).")

    # ================================================================== doom and gates
    def add_doom_now(self, n: int) -> None:
        st = self.st
        st.doom += n
        if self.opts.doom_cap is not None:
            st.doom = min(st.doom, self.opts.doom_cap)

    def gain_doom(self, n: int, why: str) -> None:
        """Doom for The Wall: deferred to its next turn when gained while The Wall is spending
        its own turn (FW-DOOM-06), else into the Action Pool."""
        st = self.st
        if st.phase == "wall" and st.wall_spending:
            st.doom_deferred += n
            if self.opts.doom_cap is not None:
                st.doom_deferred = min(st.doom_deferred, self.opts.doom_cap)
            self.emit(f"+{n} Doom for The Wall's next turn ({why}).", "doom")
        else:
            self.add_doom_now(n)
            self.emit(f"+{n} Doom to The Wall's Action Pool ({why}); {st.doom} in the pool.",
                      "doom")

    def step_open_gate(self, answer: dict[str, Any] | None = None) -> None:
        """FW-GATE-04..07."""
        st = self.st
        if answer is not None:
            if answer["kind"] == K.TAKE_DOOM:
                self.gain_doom(1, "instead of a sixth Gate")
            else:
                self.emit("The Wall declines the Doom.", "gate")
            return
        if len(st.gates) >= self.max_gates:
            if self.stage_at_least("eye_opens"):  # pragma: no cover - the game already ended
                self.finish("wall", "five Gates are Open after An Eye Opens (FW-END-02).")
                return
            self.emit("A Gate would open but five are already Open.", "gate")
            if self.conflict and st.wall_seat is not None:  # FW-PROMPT-22 / FW-AMB-39
                self.ask(st.wall_seat, "gate_doom", "Five Gates are already Open: place a "
                         "Doom Token for your next turn instead?",
                         [act(K.TAKE_DOOM), act(K.DECLINE)], Step(op="open_gate"))
            else:  # FW-AI-06
                self.gain_doom(1, "instead of a sixth Gate")
            return
        if st.gate_supply:
            st.gates.append(st.gate_supply.pop())
        self.emit(f"A Gate opens: {len(st.gates)} Open Gates.", "gate_opened",
                  gates=len(st.gates))
        if len(st.gates) >= self.max_gates and self.stage_at_least("eye_opens"):
            self.finish("wall", "the fifth Gate opens after An Eye Opens (FW-END-02).")
            return
        self.fire("gate_opened")

    def close_gates(self, n: int) -> None:
        st = self.st
        for _ in range(n):
            if not st.gates:
                break
            st.gate_supply.append(st.gates.pop())
            self.emit(f"A Gate is closed: {len(st.gates)} Open Gates.", "gate_closed",
                      gates=len(st.gates))
            if not st.gates:  # FW-END-01
                self.finish("investigators", "every Gate is closed (FW-END-01).")
                return

    # ================================================================== end of an Action
    def step_end_action(self) -> None:
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

    def step_hand_limit(self, inv: str, marble: str | None = None) -> None:
        """FW-HAND-02 / FW-PROMPT-14: the owner discards one Marble at a time."""
        i = self.inv(inv)
        if marble is not None:
            if marble in i.hand:
                i.hand.remove(marble)
                self.st.marble_discard.append(marble)
                self.emit(f"{self.inv_name(i)} discards {self.marble_name(marble)} (Hand "
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

    # ================================================================== horrors
    def place_horror(self, hid: str, street: int | None = None) -> bool:
        """Put a Horror On the Streets ({A}: on `street` or the lowest free one); Drained if its
        Manifest Cost says Drain (FW-HORROR-06, FW-AMB-14). False if no Street is free."""
        st = self.st
        if self.alliance:
            if street is None:
                street = self.lowest_free_street()
            if street is None:
                return False
        drained = self.horror(hid).manifest.drain
        st.streets.append(HorrorOnStreets(id=hid, street=street, drained=drained))
        if self.alliance:
            st.streets.sort(key=lambda h: h.street or 0)
        where = f" on Street {street}" if street is not None else ""
        self.emit(f"{self.horror_name(hid)} is placed On the Streets{where}"
                  + (" (Drained)." if drained else "."), "manifest", horror=hid)
        return True

    def lowest_free_street(self) -> int | None:
        used = {h.street for h in self.st.streets}
        for n in self.pack.street_numbers():
            if n not in used:
                return n
        return None

    def remove_horror(self, hid: str, to: str) -> None:
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

    def step_defeat(self, horror: str, deathrattle: bool) -> None:
        """FW-HORROR-02: the Deathrattle first, then discard the Horror and its Marbles."""
        st = self.st
        if self.on_streets(horror) is None or horror in st.defeating:
            return
        st.defeating.append(horror)
        self.emit(f"{self.horror_name(horror)} is Defeated!", "defeat", horror=horror)
        steps: list[Step] = []
        if deathrattle and self.horror(horror).deathrattle and not self.ignored("deathrattle"):
            steps.extend(self.card_steps(f"deathrattle:{horror}", "wall", horror=horror))
        steps.append(Step(op="defeat_done", args={"horror": horror}))
        self.later(*steps)

    def step_defeat_done(self, horror: str) -> None:
        st = self.st
        if horror in st.defeating:
            st.defeating.remove(horror)
        self.remove_horror(horror, "discard")
        self.fire("horror_defeated")

    def step_defeat_check(self, horror: str) -> None:
        h = self.on_streets(horror)
        if h is not None and horror not in self.st.defeating and self.is_defeated(h):
            self.later(Step(op="defeat", args={"horror": horror, "deathrattle": True}))

    def attach(self, marble: str, horror: str, inv: str | None) -> None:
        """FW-ACT-05: Attach, resolve the Intervene Instructions, then the Defeat check."""
        st = self.st
        h = self.on_streets(horror)
        if h is None:  # pragma: no cover - callers check
            st.marble_discard.append(marble)
            return
        h.attached.append(marble)
        self.emit(f"{self.marble_name(marble)} is Attached to {self.horror_name(horror)}.",
                  "attach", marble=marble, horror=horror)
        steps: list[Step] = []
        if self.marble(marble).intervene and not self.ignored("intervene"):
            steps.extend(self.card_steps(f"intervene:{marble}", "investigators", inv=inv,
                                         horror=horror, marble=marble))
        steps.append(Step(op="defeat_check", args={"horror": horror}))
        self.later(*steps)

    def take_marble(self, mid: str) -> None:
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

    def street_marbles(self, source: str = "any") -> list[str]:
        out: list[str] = []
        if source in ("attached", "any"):
            for h in self.st.streets:
                out.extend(h.attached)
        if source in ("anchored", "any"):
            out.extend(self.st.anchored)
        return out

    # ================================================================== events ("on")
    def fire(self, event: str) -> None:
        """Resolve every active ``on`` modifier for `event` (FW-WALL-16 Auras, Street 5 ...)."""
        steps: list[Step] = []
        for src, m, this, owner, side in self.mods("on"):
            if m.event == event:
                steps.extend(self.card_steps(f"mod:{src}", side, horror=this, inv=owner))
        if steps:
            self.later(*steps)

    # ================================================================== card resolution
    def card_steps(self, src: str, side: str, inv: str | None = None,
                   horror: str | None = None, marble: str | None = None,
                   no_penalty: bool = False) -> list[Step]:
        return [Step(op="card_begin", args={"src": src, "side": side, "inv": inv,
                                            "horror": horror, "marble": marble,
                                            "no_penalty": no_penalty})]

    def instruction(self, src: str) -> Instruction:
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

    def modifier_instruction(self, src: str) -> Instruction:
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

    def frame(self, fid: int) -> Frame | None:
        for f in self.st.frames:
            if f.id == fid:
                return f
        return None

    def fail(self, fr: Frame | None, why: str = "") -> None:
        if fr is not None:
            fr.failed = True
        if why:
            self.emit(why, "cannot_complete")

    def step_card_begin(self, src: str, side: str, inv: str | None, horror: str | None,
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

    def step_card_end(self, f: int) -> None:
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

    def investigator_failure(self) -> None:
        """FW-INSTR-04 / FW-PROMPT-21: The Wall may place a Doom for its next turn."""
        st = self.st
        if self.conflict and st.wall_seat is not None:
            self.ask(st.wall_seat, "wall_doom", "An Investigator could not complete an "
                     "Instruction: place a Doom Token for your next turn?",
                     [act(K.TAKE_DOOM), act(K.DECLINE)], Step(op="wall_doom"))
        else:
            self.gain_doom(1, "an Investigator could not complete an Instruction")

    def step_wall_doom(self, answer: dict[str, Any]) -> None:
        if answer["kind"] == K.TAKE_DOOM:
            self.gain_doom(1, "an Investigator could not complete an Instruction")
        else:
            self.emit("The Wall declines the Doom.", "doom")

    def wall_failure(self) -> None:
        """FW-INSTR-05: an Elected Investigator may Regroup (free, out of turn)."""
        if not self.sane():
            return
        self.emit("The Wall could not complete an Instruction: an Elected Investigator may "
                  "Regroup.", "wall_failure")
        self.choose(self.team_seat(), "elect",
                    "The Wall could not complete an Instruction: elect the Investigator who "
                    "may Regroup for free.",
                    [act(K.CHOOSE_INVESTIGATOR, inv=i.id) for i in self.sane()],
                    Step(op="regroup", args={"draw": self.opts.regroup_draw,
                                             "optional": True, "action": True}), "inv")

    # ---- selectors
    def decider(self, fr: Frame) -> str | None:
        """Who decides a card's options (FW-INSTR-02): its player; The Wall's cards: the Wall
        player in Conflict, the AI (None) in Alliance (FW-AMB-13, FW-AMB-36)."""
        if fr.side == "investigators":
            if fr.inv is not None:
                return self.seat_of(fr.inv)
            return self.team_seat()
        return self.st.wall_seat if self.conflict else None

    def resolve_who(self, sel: str, fr: Frame, step: Step, key: str = "who"
                    ) -> list[str] | None:
        """The investigators a selector names, or None while a prompt decides it."""
        st = self.st
        if key in step.args:
            val = step.args[key]
            out = [val] if isinstance(val, str) else list(val or [])
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
                    self.ask(st.wall_seat, "choose_target",
                             f"Choose the Target Investigator ({self.source_text(fr)}).",
                             [act(K.CHOOSE_INVESTIGATOR, inv=i.id) for i in pool], then, key)
                    return None
                who = [i.id for i in pool]
        elif sel in ("elected", "elected_other"):
            pool = self.sane(exclude=fr.inv if sel == "elected_other" else None)
            if len(pool) > 1:
                self.ask(self.team_seat(), "elect",
                         f"Elect an Investigator ({self.source_text(fr)}).",
                         [act(K.CHOOSE_INVESTIGATOR, inv=i.id) for i in pool], then, key)
                return None
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

    def take_target(self) -> str | None:
        """{A} The Target Token holder, then the token passes anticlockwise to the next
        non-Insane Investigator (FW-TARGET-03/04)."""
        self.normalise_target()
        holder = self.st.target
        if holder is None or self.inv(holder).insane:
            return None
        nxt = self.next_sane_anticlockwise(holder) or holder
        self.st.target = nxt
        self.emit(f"{self.inv_name(self.inv(holder))} is the Target; the Target Token passes "
                  f"to {self.inv_name(self.inv(nxt))}.", "target")
        return holder

    def next_sane_anticlockwise(self, start: str) -> str | None:
        invs = self.st.investigators
        k = next(i for i, x in enumerate(invs) if x.id == start)
        for step in range(1, len(invs) + 1):
            cand = invs[(k - step) % len(invs)]
            if not cand.insane:
                return cand.id
        return None

    def normalise_target(self) -> None:
        st = self.st
        if not self.alliance or st.target is None:
            return
        if self.inv(st.target).insane:
            nxt = self.next_sane_anticlockwise(st.target)
            if nxt is not None:
                st.target = nxt

    def horror_candidates(self, eff: Any, fr: Frame) -> list[str]:
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

    def lowest(self, candidates: list[str]) -> str:
        if self.alliance:
            return min(candidates, key=self.street_number)
        return candidates[0]

    def street_number(self, hid: str) -> int:
        h = self.on_streets(hid)
        return h.street or 0 if h is not None else 0

    def resolve_horror(self, sel: str, fr: Frame, step: Step, candidates: list[str],
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

    def source_text(self, fr: Frame) -> str:
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
            sub = rest.partition(":")[0]
            return {"aura": "The Wall's Aura", "street": "a Street Aura"}.get(sub, "an effect")
        return "a card"

    # ---- the effect step
    def step_eff(self, f: int, s: int, e: int, **args: Any) -> None:
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

    # ================================================================== effects
    def eff_lose_marble(self, eff: Any, fr: Frame, step: Step) -> None:
        who = self.resolve_who(eff.who, fr, step)
        if who is None:
            return
        if not who and eff.who in SINGLE_WHO:
            self.fail(fr, "No Investigator can be affected: the Instruction cannot be "
                          "completed.")
            return
        self.later(*[Step(op="lose", args={"f": fr.id, "inv": i, "mode": eff.mode})
                     for i in who for _ in range(eff.n)])

    def eff_draw_marbles(self, eff: Any, fr: Frame, step: Step) -> None:
        who = self.resolve_who(eff.who, fr, step)
        if who is None:
            return
        if not who and eff.who in SINGLE_WHO:
            self.fail(fr, "No Investigator can draw: the Instruction cannot be completed.")
            return
        for i in who:
            self.draw_into(self.inv(i), eff.n, fr)

    def eff_draw_to_sanity(self, eff: Any, fr: Frame, step: Step) -> None:
        who = self.resolve_who(eff.who, fr, step)
        if who is None:
            return
        if not who and eff.who in SINGLE_WHO:
            self.fail(fr)
            return
        for i in who:
            inv = self.inv(i)
            self.draw_into(inv, max(0, self.hand_limit(inv) - len(inv.hand)), fr)

    def draw_into(self, inv: InvestigatorState, n: int, fr: Frame | None) -> None:
        drawn: list[str] = []
        for _ in range(n):
            m = self.draw_marble()
            if m is None:
                self.fail(fr, "The Marble deck and discard pile are empty (FW-GAP-12).")
                break
            inv.hand.append(m)
            drawn.append(m)
        if drawn:
            self.emit_team(f"{self.inv_name(inv)} draws {len(drawn)} Marble(s).",
                           f"{self.inv_name(inv)} draws "
                           + ", ".join(self.marble_name(m) for m in drawn) + ".", "draw")

    def eff_take_from_marble_discard(self, eff: Any, fr: Frame, step: Step) -> None:
        who = self.resolve_who(eff.who, fr, step)
        if who is None:
            return
        if not who:
            self.fail(fr)
            return
        self.later(*[Step(op="take_discard", args={"f": fr.id, "inv": i})
                     for i in who for _ in range(eff.n)])

    def step_take_discard(self, f: int, inv: str, marble: str | None = None) -> None:
        fr = self.frame(f)
        st = self.st
        i = self.inv(inv)
        if marble is not None:
            st.marble_discard.remove(marble)
            i.hand.append(marble)
            self.emit(f"{self.inv_name(i)} takes {self.marble_name(marble)} from the Marble "
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

    def eff_take_street_marble(self, eff: Any, fr: Frame, step: Step) -> None:
        who = self.resolve_who(eff.who, fr, step)
        if who is None:
            return
        if not who:
            self.fail(fr)
            return
        self.later(*[Step(op="take_street", args={"f": fr.id, "inv": i, "source": eff.source})
                     for i in who for _ in range(eff.n)])

    def step_take_street(self, f: int, inv: str, source: str, marble: str | None = None
                         ) -> None:
        fr = self.frame(f)
        i = self.inv(inv)
        if marble is not None:
            label = self.street_marble_label(marble)
            self.take_marble(marble)
            i.hand.append(marble)
            self.emit(f"{self.inv_name(i)} takes {label} into hand.", "take")
            return
        cands = self.street_marbles(source)
        if not cands or fr is None:
            self.fail(fr, "There is no such Marble On the Streets.")
            return
        self.choose(self.decider(fr), "choose_marble", "Choose a Marble On the Streets.",
                    [act(K.CHOOSE_MARBLE, marble=m) for m in cands],
                    Step(op="take_street", args={"f": f, "inv": inv, "source": source}),
                    "marble")

    def eff_give_marbles(self, eff: Any, fr: Frame, step: Step) -> None:
        giver = self.resolve_who(eff.giver, fr, step, key="giver")
        if giver is None:
            return
        if not giver:
            self.fail(fr)
            return
        self.later(Step(op="give_multi", args={"f": fr.id, "giver": giver[0], "to": eff.to,
                                               "left": eff.n, "given": 0,
                                               "up_to": eff.up_to}))

    def step_give_multi(self, f: int, giver: str, to: str, left: int, given: int, up_to: bool,
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

    def give(self, giver: InvestigatorState, to: InvestigatorState, marble: str) -> None:
        giver.hand.remove(marble)
        to.hand.append(marble)
        self.emit_team(f"{self.inv_name(giver)} gives a Marble to {self.inv_name(to)}.",
                       f"{self.inv_name(giver)} gives {self.marble_name(marble)} to "
                       f"{self.inv_name(to)}.", "give")

    def eff_give_or_trade(self, eff: Any, fr: Frame, step: Step) -> None:
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

    def step_gt_choice(self, f: int, inv: str, answer: dict[str, Any]) -> None:
        p = answer["params"]
        if answer["kind"] == K.GIVE_OR_TRADE_GIVE:
            self.later(Step(op="give_pick", args={"inv": inv, "to": p["to"], "pool": "free",
                                                  "cost": 0, "f": f}))
        else:
            self.later(Step(op="trade_mine", args={"inv": inv, "with": p["with"],
                                                   "pool": "free", "cost": 0, "f": f}))

    def eff_find(self, eff: Any, fr: Frame, step: Step) -> None:
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
        if found is not None:
            discard.remove(found)
        else:
            found = next((c for c in reversed(deck) if lookup(c) == name), None)
            if found is not None:
                deck.remove(found)
            st.rng.shuffle(deck)
        if found is None:
            fr.stop = True  # the Action spent trying is lost; no other penalty (FW-AMB-16)
            self.emit(f"No {name} can be found: the effort is lost.", "find")
            return
        self.emit(f"{name} is found.", "find")
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

    def eff_blitz(self, eff: Any, fr: Frame, step: Step) -> None:
        act_inv = self.active()
        inv = fr.inv or (act_inv.id if act_inv is not None else None)
        self.later(Step(op="blitz", args={"f": fr.id, "inv": inv, "n": eff.n,
                                          "symbols": list(eff.symbols)}))

    def reaction_marbles(self, inv: InvestigatorState, window: str, affected: str | None
                         ) -> list[str]:
        out = []
        for mid in self.distinct(inv.hand):
            for r in self.marble(mid).reactions:
                if r.window == window and (r.scope == "any" or affected == inv.id):
                    out.append(mid)
                    break
        return out

    def use_reaction(self, inv: InvestigatorState, marble: str, window: str) -> dict[str, int]:
        """Discard a quick-use Marble and resolve its effects; returns the pending-event
        effects (``ignore_loss``, ``blitz_bonus``)."""
        card = self.marble(marble)
        idx = next(k for k, r in enumerate(card.reactions) if r.window == window)
        inv.hand.remove(marble)
        self.st.marble_discard.append(marble)
        self.emit(f"{self.inv_name(inv)} discards {card.name} (quick use).", "react")
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
    def window_invs(self, window: str, affected: str | None, seat: str | None = None
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

    def window_seats(self, window: str, affected: str | None, last: bool = False) -> list[str]:
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

    def window_answers(self, seat: str, window: str, affected: str | None) -> list[Action]:
        return [act(K.REACT, inv=i.id, marble=m)
                for i in self.window_invs(window, affected, seat)
                for m in self.reaction_marbles(i, window, affected)]

    def window_holder(self, seat: str, answer: dict[str, Any]) -> InvestigatorState:
        """Who plays a REACT answer (stored games may hold answers without ``inv``)."""
        p = answer["params"]
        if p.get("inv"):
            return self.inv(str(p["inv"]))
        marble = str(p["marble"])
        return next(i for i in self.invs_of(seat) if marble in i.hand)

    def window_names(self, seat: str, window: str, affected: str | None) -> str:
        return " or ".join(self.inv_name(i) for i in self.window_invs(window, affected, seat))

    def step_blitz(self, f: int, inv: str | None, n: int, symbols: list[str],
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
                self.emit(f"The Blitz now reveals {n} cards.", "blitz")
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
                self.fail(fr, "The Marble deck and discard pile are empty (FW-GAP-12).")
                break
            cards.append(m)
        st.revealed_cards = list(cards)
        self.emit(f"Blitz ({n}) [{symbols_text(symbols)}] reveals: "
                  + (", ".join(self.marble_name(m) for m in cards) or "nothing") + ".",
                  "blitz", cards=cards)
        matching = [m for m in cards if set(self.marble(m).symbols) & set(symbols)]
        for m in cards:
            if m not in matching:
                st.marble_discard.append(m)
        st.in_play.extend(matching)
        if matching:
            self.later(Step(op="blitz_place", args={"f": f, "inv": inv, "pending": matching}))

    def step_blitz_place(self, f: int, inv: str | None, pending: list[str],
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
                        f"{self.marble_name(card)}.",
                        [act(K.CHOOSE_HORROR, horror=h.id) for h in st.streets],
                        Step(op="blitz_place", args=args), "horror")
            return
        st.in_play.remove(card)
        self.attach(card, horror, inv)
        st.queue.insert(self.after_attach_index(), Step(
            op="blitz_place", args={"f": f, "inv": inv,
                                    "pending": [m for m in pending if m != card]}))

    def after_attach_index(self) -> int:
        """Queue position right after the steps `attach` just queued (its Intervene card and
        Defeat check), so the next Blitz card waits for them."""
        for k, s in enumerate(self.st.queue):
            if s.op == "defeat_check":
                return k + 1
        return 0  # pragma: no cover

    def eff_attach(self, eff: Any, fr: Frame, step: Step) -> None:
        if fr.inv is None:
            self.fail(fr)
            return
        self.later(Step(op="attach_multi", args={"f": fr.id, "inv": fr.inv, "left": eff.n,
                                                 "done": 0, "up_to": eff.up_to}))

    def step_attach_multi(self, f: int, inv: str, left: int, done: int, up_to: bool,
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

    def eff_move_attachment(self, eff: Any, fr: Frame, step: Step) -> None:
        self.later(*[Step(op="move_att", args={"f": fr.id}) for _ in range(eff.n)])

    def step_move_att(self, f: int, marble: str | None = None, horror: str | None = None
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
        self.emit(f"{self.marble_name(marble)} moves from {self.horror_name(src.id)} to "
                  f"{self.horror_name(horror)}.", "move_attachment")
        self.later(Step(op="defeat_check", args={"horror": horror}),
                   Step(op="defeat_check", args={"horror": src.id}))

    def eff_swap_with_street_marble(self, eff: Any, fr: Frame, step: Step) -> None:
        self.later(Step(op="swap_street", args={"f": fr.id}))

    def step_swap_street(self, f: int, mine: str | None = None, theirs: str | None = None
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
        if horror is not None:
            horror.attached[horror.attached.index(theirs)] = mine
        else:
            st.anchored[st.anchored.index(theirs)] = mine
        inv.hand.append(theirs)
        self.emit(f"{self.inv_name(inv)} swaps {self.marble_name(mine)} for "
                  f"{self.marble_name(theirs)} On the Streets.", "swap")
        if horror is not None:
            self.later(Step(op="defeat_check", args={"horror": horror.id}))

    def eff_defeat(self, eff: Any, fr: Frame, step: Step) -> None:
        h = self.resolve_horror(eff.horror, fr, step, self.horror_candidates(eff, fr))
        if h is None:
            return
        if not h:
            self.fail(fr, "No Horror can be Defeated by this.")
            return
        self.later(Step(op="defeat", args={"horror": h, "deathrattle": eff.deathrattle}))

    def eff_open_gate(self, eff: Any, fr: Frame, step: Step) -> None:
        self.later(*[Step(op="open_gate") for _ in range(eff.n)])

    def eff_close_gate(self, eff: Any, fr: Frame, step: Step) -> None:
        st = self.st
        if self.scourge_blocks():  # FW-AMB-32
            self.fail(fr, "The Scourge is On the Streets: no Gate may be closed.")
            return
        if eff.cost == "none":
            self.close_gates(eff.n)
            return
        inv = self.inv(fr.inv) if fr.inv else None
        if inv is None or not self.meets(inv.hand, eff.distinct_symbols) or not st.gates:
            self.fail(fr, "The Marbles in hand cannot pay for Closing a Gate.")
            return
        self.later(Step(op="close_select", args={
            "inv": inv.id, "f": fr.id, "pool": "free", "cost": 0, "selected": [],
            "distinct": eff.distinct_symbols, "n": eff.n, "cancellable": False}))

    def eff_add_doom(self, eff: Any, fr: Frame, step: Step) -> None:
        self.gain_doom(eff.n, self.source_text(fr))

    def eff_drain(self, eff: Any, fr: Frame, step: Step) -> None:
        self.drain_or_undrain(eff, fr, step, True)

    def eff_undrain(self, eff: Any, fr: Frame, step: Step) -> None:
        self.drain_or_undrain(eff, fr, step, False)

    def drain_or_undrain(self, eff: Any, fr: Frame, step: Step, drain: bool) -> None:
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
        hs.drained = drain
        self.emit(f"{self.horror_name(h)} is " + ("Drained." if drain else
                                                   "no longer Drained."), "drain")

    def eff_sacrifice(self, eff: Any, fr: Frame, step: Step) -> None:
        h = self.resolve_horror(eff.horror, fr, step, self.horror_candidates(eff, fr))
        if h is None:
            return
        if not h:
            self.fail(fr, f"There is no {eff.named or 'Horror'} On the Streets to Sacrifice.")
            return
        self.emit(f"{self.horror_name(h)} is Sacrificed.", "sacrifice")
        self.remove_horror(h, "discard")  # FW-HORROR-08

    def eff_return_horror(self, eff: Any, fr: Frame, step: Step) -> None:
        h = self.resolve_horror(eff.horror, fr, step, self.horror_candidates(eff, fr))
        if h is None:
            return
        if not h:
            self.fail(fr, "No Horror is On the Streets to Return.")
            return
        self.emit(f"{self.horror_name(h)} is Returned to The Wall.", "return")
        self.remove_horror(h, "hand" if self.conflict else "deck")  # FW-HORROR-07

    def eff_manifest(self, eff: Any, fr: Frame, step: Step) -> None:
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
            self.fail(fr, "The Horror deck and discard pile are empty (FW-GAP-12).")
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

    def eff_trigger(self, eff: Any, fr: Frame, step: Step) -> None:
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
        self.emit(f"{self.horror_name(h)} is Triggered.", "trigger")
        self.later(*self.card_steps(f"trigger:{h}", "wall", horror=h),
                   *([Step(op="drain_after", args={"horror": h})] if self.conflict else []))

    def step_drain_after(self, horror: str) -> None:
        """FW-WALL-08: a Triggered Horror becomes Drained (Conflict only, FW-PRES-06)."""
        h = self.on_streets(horror)
        if h is not None:
            h.drained = True

    def eff_destroy_marble(self, eff: Any, fr: Frame, step: Step) -> None:
        self.later(Step(op="destroy", args={"f": fr.id, "which": eff.which}))

    def step_destroy(self, f: int | None, which: str, marble: str | None = None) -> None:
        """FW-WALL-07 / FW-PRES-04 / FW-AI-03 / FW-PROMPT-23."""
        fr = self.frame(f) if f is not None else None
        if marble is not None:
            label = self.street_marble_label(marble)
            self.take_marble(marble)
            self.st.marble_discard.append(marble)
            self.emit(f"{label} is Destroyed.", "destroy")
            return
        cands = self.street_marbles("any")
        if not cands:
            if fr is not None:
                self.fail(fr, "There is no Marble On the Streets to Destroy.")
            else:
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

    def eff_regroup(self, eff: Any, fr: Frame, step: Step) -> None:
        who = self.resolve_who(eff.who, fr, step)
        if who is None:
            return
        if not who:
            self.fail(fr, "No Investigator can Regroup.")
            return
        self.later(*[Step(op="regroup", args={"inv": i, "draw": eff.draw,
                                              "optional": eff.optional}) for i in who])

    def eff_grant_action(self, eff: Any, fr: Frame, step: Step) -> None:
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

    def eff_peek(self, eff: Any, fr: Frame, step: Step) -> None:
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
        self.emit_team(f"{who} looks at the top {n} {eff.deck.capitalize()} cards.",
                       f"{who} sees: " + ", ".join(name(c) for c in st.peek) + ".", "peek")
        self.later(Step(op="peek_take", args={"f": fr.id, "take": min(eff.take, n),
                                              "rest": eff.rest, "reorder": eff.reorder,
                                              "ordered": []}))

    def step_peek_take(self, f: int, take: int, rest: str, reorder: bool, ordered: list[str],
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
                self.emit_team(None, f"{self.marble_name(card)} is taken into hand.", "peek")
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
        if rest == "top":
            put_on_top(deck, order)
        else:
            deck[0:0] = list(reversed(order))
        st.peek = []
        st.peek_deck = None
        st.peek_for = None

    def eff_view_hand(self, eff: Any, fr: Frame, step: Step) -> None:
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

    def eff_shield_next_loss(self, eff: Any, fr: Frame, step: Step) -> None:
        if fr.inv is None:
            self.fail(fr)
            return
        self.st.shields.append(Shield(owner=fr.inv, scope=eff.scope, n=eff.n))
        self.emit("Until the start of " + self.inv_name(self.inv(fr.inv)) + "'s next turn, "
                  "the next Lose-a-Marble effect is ignored.", "shield")

    def eff_remove_scourge(self, eff: Any, fr: Frame, step: Step) -> None:
        if self.st.scourge is None:
            self.fail(fr, "There is no Scourge On the Streets.")
            return
        self.st.scourge = None
        self.emit("The Scourge Token is removed: its card is set aside and Gates may be "
                  "closed again.", "scourge")

    def eff_ignore_loss(self, eff: Any, fr: Frame, step: Step) -> None:
        """Only meaningful inside a reaction (handled by `use_reaction`)."""

    def eff_blitz_bonus(self, eff: Any, fr: Frame, step: Step) -> None:
        """Only meaningful inside a reaction (handled by `use_reaction`)."""

    def eff_custom(self, eff: Any, fr: Frame, step: Step) -> None:
        handler = CUSTOM_EFFECTS.get(eff.name)
        if handler is None:
            self.fail(fr, f"The custom effect {eff.name!r} is not available.")
            return
        handler(self, eff, fr, step)

    # ================================================================== Lose a Marble
    def step_lose(self, f: int, inv: str, mode: str, stage: str = "start",
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
                self.emit(f"{self.inv_name(i)} loses {self.marble_name(marble)}.", "lose",
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
    def step_regroup(self, draw: int, optional: bool, inv: str | None = None,
                     answer: dict[str, Any] | None = None, action: bool = False) -> None:
        """FW-ACT-08 (and the free Regroups of FW-INSTR-05 / cards, FW-PROMPT-08)."""
        if inv is None:
            return
        i = self.inv(inv)
        if i.insane:
            return
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
        self.emit(f"{self.inv_name(i)} Regroups.", "regroup", inv=inv)
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

    def step_regroup_draw(self, inv: str, n_draw: int, n_limit: int,
                          mode: str | None = None) -> None:
        i = self.inv(inv)
        if mode is None:
            self.ask(i.seat, "regroup_draw", f"{self.inv_name(i)} Regroups: draw {n_draw} "
                     f"Marble(s), or draw up to the Hand Limit ({n_limit})?",
                     [act(K.REGROUP_DRAW, mode="n"), act(K.REGROUP_DRAW, mode="limit")],
                     Step(op="regroup_draw", args={"inv": inv, "n_draw": n_draw,
                                                   "n_limit": n_limit}), "mode",
                     n_draw=n_draw, n_limit=n_limit)
            return
        self.draw_into(i, n_draw if mode == "n" else n_limit, None)

    def step_draw_n(self, inv: str, n: int) -> None:
        self.draw_into(self.inv(inv), n, None)

    def step_free_trade(self, inv: str, count: int, answer: dict[str, Any] | None = None
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
            if kind == K.FREE_GIVE:
                self.later(Step(op="give_pick", args={"inv": inv, "to": p["to"],
                                                      "pool": "free", "cost": 0}), nxt)
            else:
                self.later(Step(op="trade_mine", args={"inv": inv, "with": p["with"],
                                                       "pool": "free", "cost": 0}), nxt)
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
                 "other Regrouped Investigators.", opts,
                 Step(op="free_trade", args={"inv": inv, "count": count}))

    # ================================================================== Give / Trade
    def refund(self, pool: str, cost: int, why: str) -> None:
        st = self.st
        if pool == "turn":
            st.ap += cost
        elif pool == "grant" and st.grants:
            st.grants[-1].ap += cost
        if pool in ("turn", "grant"):
            st.refunds += 1
        self.emit(why + (f" ({cost} AP refunded)." if cost else "."), "refund")

    def step_give_pick(self, inv: str, to: str, pool: str, cost: int, f: int | None = None,
                       marble: str | None = None) -> None:
        i = self.inv(inv)
        t = self.inv(to)
        if marble is None:
            if not i.hand or t.insane or i.insane:
                self.fail(self.frame(f) if f is not None else None)
                return
            self.choose_hidden(i.seat, "give_marble", f"Give which Marble to {self.inv_name(t)}?",
                        [act(K.CHOOSE_MARBLE, marble=m) for m in self.distinct(i.hand)],
                        Step(op="give_pick", args={"inv": inv, "to": to, "pool": pool,
                                                   "cost": cost, "f": f}), "marble")
            return
        self.give(i, t, marble)

    def step_trade_mine(self, inv: str, pool: str, cost: int, f: int | None = None,
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

    def step_trade_theirs(self, inv: str, pool: str, cost: int, mine: str,
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
        self.ask(t.seat, "trade_consent",  # FW-AMB-27
                 f"{self.inv_name(i)} offers {self.marble_name(mine)} for your "
                 f"{self.marble_name(marble)} ({self.inv_name(t)}). Accept the Trade?",
                 [act(K.ACCEPT), act(K.DECLINE)], Step(op="trade_do", args=base),
                 public_text=f"{self.inv_name(i)} offers {self.inv_name(t)} a Trade of one "
                 "Marble for one (FW-VIS-10). Accept the Trade?")

    def step_trade_do(self, inv: str, pool: str, cost: int, mine: str, theirs: str,
                      answer: dict[str, Any], f: int | None = None, **kw: Any) -> None:
        partner = str(kw["with"])
        i = self.inv(inv)
        t = self.inv(partner)
        if answer["kind"] != K.ACCEPT:
            if pool in ("turn", "grant"):
                self.refund(pool, cost, f"{self.inv_name(t)} declines the Trade")
            else:
                self.emit(f"{self.inv_name(t)} declines the Trade.", "trade")
                if f is not None:
                    self.fail(self.frame(f))
            return
        i.hand.remove(mine)
        t.hand.remove(theirs)
        i.hand.append(theirs)
        t.hand.append(mine)
        self.emit_team(f"{self.inv_name(i)} trades a Marble with {self.inv_name(t)}.",
                       f"{self.inv_name(i)} trades {self.marble_name(mine)} for "
                       f"{self.inv_name(t)}'s {self.marble_name(theirs)}.", "trade")

    # ================================================================== Close a Gate
    def step_close_select(self, inv: str, pool: str, cost: int, selected: list[str],
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
                          + ", ".join(self.marble_name(m) for m in selected)
                          + " to Close a Gate.", "close")
                self.close_gates(n)
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
        self.ask(i.seat, "close_select", f"Close a Gate: select Marbles showing at least "
                 f"{distinct} different Symbols (selected: {picked}).", opts,
                 Step(op="close_select", args=args), refund=pool in ("turn", "grant"),
                 public_text=f"Close a Gate: {self.inv_name(i)} selects Marbles showing at "
                 f"least {distinct} different Symbols.", seat_only=True)

    # ================================================================== Investigator actions
    def main_actions(self, inv: InvestigatorState, budget: int) -> list[Action]:
        """The Investigator actions `inv` can take with `budget` AP (FW-AP-02, FW-AMB-24);
        ``pass`` not included."""
        st = self.st
        if inv.insane or not inv.card:
            return []
        out: list[Action] = []
        iid = inv.id
        hand = self.distinct(inv.hand)
        cost = self.action_cost
        if cost("search", inv) <= budget and self.can_draw_marble():
            out.append(act(K.SEARCH, inv=iid))
        if st.streets and cost("intervene", inv) <= budget:
            out += [act(K.INTERVENE, inv=iid, marble=m) for m in hand]
        if cost("utilise", inv) <= budget and not self.ignored("utilise"):
            for m in hand:
                card = self.marble(m)
                if card.anchor or (card.utilise and self.card_usable(card.utilise, inv, m)):
                    out.append(act(K.UTILISE, inv=iid, marble=m))
        if cost("give_or_trade", inv) <= budget and inv.hand:
            partners = self.sane(exclude=iid)
            out += [act(K.GIVE, inv=iid, to=p.id) for p in partners]
            out += [act(K.TRADE, inv=iid, **{"with": p.id}) for p in partners if p.hand]
        if cost("regroup", inv) <= budget:
            out.append(act(K.REGROUP, inv=iid))
        if (st.gates and not self.scourge_blocks() and cost("close_gate", inv) <= budget
                and self.meets(inv.hand)):
            out.append(act(K.CLOSE_GATE, inv=iid))
        mine = self.investigator_card(inv.card)
        if cost("exploit", inv) <= budget and self.card_usable(mine.exploit.instruction, inv):
            out.append(act(K.EXPLOIT, inv=iid))
        if (iid not in st.uniques_used and cost("unique", inv) <= budget
                and self.card_usable(mine.unique.instruction, inv)):
            out.append(act(K.UNIQUE, inv=iid))
        return out

    COST_NAME = {K.SEARCH: "search", K.INTERVENE: "intervene", K.UTILISE: "utilise",
                 K.GIVE: "give_or_trade", K.TRADE: "give_or_trade", K.REGROUP: "regroup",
                 K.CLOSE_GATE: "close_gate", K.EXPLOIT: "exploit", K.UNIQUE: "unique"}

    def do_main(self, inv: InvestigatorState, action: Action, pool: str) -> list[Step]:
        """Pay for an Investigator action and return the steps that resolve it, ending with
        the end-of-Action checks."""
        st = self.st
        kind = action.kind
        cost = self.action_cost(self.COST_NAME[kind], inv)
        if pool == "turn":
            st.ap -= cost
        elif pool == "grant":
            st.grants[-1].ap -= cost
        iid = inv.id
        name = self.inv_name(inv)
        end = Step(op="end_action")
        if kind == K.SEARCH:
            self.emit(f"{name} Searches.", "search")
            return [Step(op="draw_n", args={"inv": iid, "n": 1}), end]
        if kind == K.INTERVENE:
            return [Step(op="intervene", args={"inv": iid, "marble": action.p("marble")}), end]
        if kind == K.UTILISE:
            mid = str(action.p("marble"))
            inv.hand.remove(mid)
            st.in_play.append(mid)
            self.emit(f"{name} Utilises {self.marble_name(mid)}: "
                      f"{self.marble(mid).text}", "utilise", marble=mid)
            return [*self.card_steps(f"utilise:{mid}", "investigators", inv=iid, marble=mid),
                    Step(op="utilise_done", args={"marble": mid}), end]
        if kind == K.GIVE:
            return [Step(op="give_pick", args={"inv": iid, "to": action.p("to"), "pool": pool,
                                               "cost": cost}), end]
        if kind == K.TRADE:
            return [Step(op="trade_mine", args={"inv": iid, "with": action.p("with"),
                                                "pool": pool, "cost": cost}), end]
        if kind == K.REGROUP:
            return [Step(op="regroup", args={"inv": iid, "draw": self.opts.regroup_draw,
                                             "optional": False}), end]
        if kind == K.CLOSE_GATE:
            return [Step(op="close_select", args={
                "inv": iid, "pool": pool, "cost": cost, "selected": [], "distinct": 3,
                "n": 1, "cancellable": True}), end]
        if kind == K.EXPLOIT:
            self.emit(f"{name} Exploits the Rift.", "exploit")
            return [*self.card_steps(f"exploit:{iid}", "investigators", inv=iid),
                    Step(op="exploit_doom", args={"inv": iid}), end]
        if kind == K.UNIQUE:
            st.uniques_used.append(iid)
            self.emit(f"{name} uses the Unique Action.", "unique")
            return [*self.card_steps(f"unique:{iid}", "investigators", inv=iid), end]
        raise IllegalAction("Unknown action.", "FW-ACT-09")  # pragma: no cover

    def step_intervene(self, inv: str, marble: str, horror: str | None = None) -> None:
        i = self.inv(inv)
        if marble not in i.hand:
            return
        if not self.st.streets:  # pragma: no cover - offered only with a Horror out
            return
        if horror is None:
            self.choose(i.seat, "choose_horror", f"Attach {self.marble_name(marble)} to which "
                        "Horror?", [act(K.CHOOSE_HORROR, horror=h.id) for h in self.st.streets],
                        Step(op="intervene", args={"inv": inv, "marble": marble}), "horror",
                        public_text=f"{self.inv_name(i)} Intervenes: choose the Horror.",
                        seat_only=True)
            return
        i.hand.remove(marble)
        self.emit(f"{self.inv_name(i)} Intervenes.", "intervene")
        self.attach(marble, horror, inv)

    def step_utilise_done(self, marble: str) -> None:
        """FW-ACT-06 (c) / FW-TERM-02: discard the Utilised Marble, or Anchor it."""
        st = self.st
        if marble not in st.in_play:
            return
        st.in_play.remove(marble)
        if self.marble(marble).anchor:
            st.anchored.append(marble)
            self.emit(f"{self.marble_name(marble)} is Anchored to the Streets.", "anchor")
        else:
            st.marble_discard.append(marble)

    def step_exploit_doom(self, inv: str) -> None:
        """FW-ACT-02 (b) / FW-DOOM-03: +Doom right after Exploit the Rift."""
        n = self.opts.exploit_doom + sum(m.n for _, m, _, _, _ in self.mods("exploit_doom_delta"))
        if n > 0:
            self.gain_doom(n, "Exploit the Rift")

    def step_grant_prompt(self, answer: dict[str, Any] | None = None) -> None:
        """FW-PROMPT-24: the granted Investigator takes actions worth the granted AP."""
        st = self.st
        if not st.grants:
            return
        g = st.grants[-1]
        inv = self.inv(g.inv)
        if answer is not None:
            action = Action(kind=answer["kind"], params=answer["params"])
            if action.kind == K.PASS:
                st.grants.pop()
                return
            self.later(*self.do_main(inv, action, "grant"), Step(op="grant_prompt"))
            return
        options = self.main_actions(inv, g.ap)
        if not options:
            st.grants.pop()
            return
        options.append(act(K.PASS, inv=inv.id))
        self.ask(inv.seat, "granted", f"{self.inv_name(inv)} may take {g.ap} AP of actions "
                 "out of sequence now.", options, Step(op="grant_prompt"), purpose="grant")

    # ================================================================== The Wall (Conflict)
    def wall_actions(self) -> list[Action]:
        st = self.st
        if st.wall_mode is None:
            return [act(K.WRATH), act(K.BROOD)]
        out: list[Action] = []
        if st.doom >= self.opts.delve_cost and self.can_draw_horror():
            out.append(act(K.DELVE))
        for h in self.distinct_horrors(st.wall_hand):
            if self.horror(h).manifest.doom <= st.doom:
                out.append(act(K.MANIFEST, horror=h))
        if not self.ignored("trigger"):
            for hs in st.streets:
                if not hs.drained and self.horror(hs.id).trigger_cost <= st.doom:
                    out.append(act(K.TRIGGER, horror=hs.id))
        if st.doom >= self.opts.destroy_marble_cost:
            out += [act(K.DESTROY, marble=m) for m in self.street_marbles("any")]
        if st.revealed and not st.wall_unique_used:
            for n, u in enumerate(self.wall().uniques):
                if u.cost <= st.doom:
                    out.append(act(K.WALL_UNIQUE, n=n))
        if out:
            out.append(act(K.END_TURN))
        return out

    def do_wall(self, action: Action) -> None:
        st = self.st
        kind = action.kind
        end = Step(op="end_action")
        if kind == K.WRATH:
            self.start_wrath()
        elif kind == K.BROOD:
            self.start_brood()
        elif kind == K.END_TURN:
            self.later(Step(op="wall_turn_end"))
        elif kind == K.DELVE:
            st.doom -= self.opts.delve_cost
            hid = self.draw_horror()
            if hid is not None:
                st.wall_hand.append(hid)
                self.emit("The Wall Delves: it draws a Horror.", "delve")
                self.emit(f"You draw {self.horror_name(hid)}.", "delve",
                          audience=[st.wall_seat or ""])
            self.later(end)
        elif kind == K.MANIFEST:
            hid = str(action.p("horror"))
            st.doom -= self.horror(hid).manifest.doom
            st.wall_hand.remove(hid)
            self.place_horror(hid)
            self.later(end)
        elif kind == K.TRIGGER:
            hid = str(action.p("horror"))
            st.doom -= self.horror(hid).trigger_cost
            self.emit(f"The Wall Triggers {self.horror_name(hid)}.", "trigger")
            self.later(*self.card_steps(f"trigger:{hid}", "wall", horror=hid),
                       Step(op="drain_after", args={"horror": hid}), end)
        elif kind == K.DESTROY:
            st.doom -= self.opts.destroy_marble_cost
            self.later(Step(op="destroy", args={"f": None, "which": "chosen",
                                                "marble": action.p("marble")}), end)
        elif kind == K.WALL_UNIQUE:
            n = int(action.p("n") or 0)
            st.doom -= self.wall().uniques[n].cost
            st.wall_unique_used = True
            self.emit(f"The Wall uses its Unique Action: {self.wall().name}.", "wall_unique")
            self.later(*self.card_steps(f"wall_unique:{n}", "wall"), end)

    # ================================================================== Alliance Presence
    def step_ally_doom(self) -> None:
        """FW-ALLY-02 / FW-ALLY-03 (a)."""
        st = self.st
        gain = self.opts.alliance_doom + self.doom_bonus()
        self.add_doom_now(gain)
        st.wall_spending = True
        st.presence_deck.extend(st.presence_discard)
        st.presence_discard = []
        st.rng.shuffle(st.presence_deck)
        self.emit(f"The Presence gathers: +{gain} Doom; {st.doom} Presence card(s) will be "
                  "resolved.", "presence_doom")
        self.later(Step(op="presence_next"))

    def step_presence_next(self) -> None:
        """FW-ALLY-03 (b)-(d): one Presence card per Doom, each resolved completely."""
        st = self.st
        if st.doom <= 0:
            self.later(Step(op="wall_turn_end"))
            return
        st.doom -= 1
        if not st.presence_deck and self.opts.presence_reshuffle:  # FW-AMB-34
            st.presence_deck = list(st.presence_discard)
            st.presence_discard = []
            st.rng.shuffle(st.presence_deck)
        if not st.presence_deck:  # pragma: no cover - only with presence_reshuffle off
            st.doom = 0
            self.later(Step(op="wall_turn_end"))
            return
        card = st.presence_deck.pop()
        st.presence_discard.append(card)
        pc = self.pack.presence_card(card)
        st.last_presence = pc.name
        self.emit(f"Presence: {pc.name}.", "presence", card=card)
        self.later(Step(op="presence_resolve", args={"card": card}), Step(op="end_action"),
                   Step(op="presence_next"))

    def step_presence_resolve(self, card: str) -> None:
        st = self.st
        pc = self.pack.presence_card(card)
        if pc.action == "delve":  # FW-PRES-02
            hid = self.draw_horror()
            if hid is None:
                self.emit("The Horror deck and discard pile are empty: nothing happens.",
                          "presence")
                return
            self.emit(f"Delve reveals {self.horror_name(hid)}.", "presence")
            self.delve_steps(hid)
        elif pc.action == "wrath":  # FW-PRES-03
            if not st.revealed:
                self.emit("The Ancient One slumbers: nothing happens.", "presence")
                return
            self.emit(f"Wrath: {self.wall().name} uses its top Unique Action.", "presence")
            self.later(*self.card_steps("wall_unique:0", "wall"))
        elif pc.action == "destroy_marble":  # FW-PRES-04
            self.later(Step(op="destroy", args={"f": None, "which": "most_symbols"}))
        elif pc.action == "trouble":  # FW-PRES-05
            n = int(getattr(pc, "street", 0))
            here = next((h for h in st.streets if h.street == n), None)
            if here is None:
                hid = self.draw_horror()
                if hid is None:
                    self.emit("The Horror deck is empty: nothing happens (FW-GAP-12).",
                              "presence")
                    return
                self.place_horror(hid, n)
            elif here.drained:
                here.drained = False
                self.emit(f"{self.horror_name(here.id)} on Street {n} is no longer Drained.",
                          "undrain")
            elif self.trigger_possible(here.id) and not self.ignored("trigger"):
                self.emit(f"{self.horror_name(here.id)} on Street {n} is Triggered.",
                          "trigger")
                self.later(*self.card_steps(f"trigger:{here.id}", "wall", horror=here.id))
            else:
                self.emit(f"{self.horror_name(here.id)} cannot use its Trigger Action: nothing "
                          "happens.", "presence")

    def delve_steps(self, hid: str) -> None:
        """{A} Delve: use the Trigger Action then discard; if it cannot be used, place the
        Horror on the lowest free Street; if none, discard it (FW-PRES-02, FW-AMB-44)."""
        st = self.st
        if self.trigger_possible(hid) and not self.ignored("trigger"):
            st.horror_limbo.append(hid)
            self.later(*self.card_steps(f"trigger:{hid}", "wall", horror=hid),
                       Step(op="delve_done", args={"horror": hid}))
            return
        if not self.place_horror(hid):
            st.horror_discard.append(hid)
            self.emit(f"{self.horror_name(hid)} cannot act and no Street is free: it is "
                      "discarded.", "presence")

    def step_delve_done(self, horror: str) -> None:
        st = self.st
        if horror in st.horror_limbo:
            st.horror_limbo.remove(horror)
            st.horror_discard.append(horror)

    def trigger_possible(self, hid: str) -> bool:
        """Whether a Horror's Trigger Action can be used at all (FW-PRES-02/05)."""
        for sentence in self.horror(hid).trigger:
            for eff in sentence:
                if not self.conds(eff.only_if):
                    continue
                if not self.effect_possible(eff, hid):
                    return False
        return True

    def effect_possible(self, eff: Any, this: str) -> bool:
        st = self.st
        op = eff.op
        if op in ("sacrifice", "drain", "undrain", "return_horror", "trigger", "defeat"):
            fr = Frame(id=0, src="", side="wall", horror=this)
            cands = self.horror_candidates(eff, fr)
            if getattr(eff, "horror", "chosen") == "this":
                return this in cands
            return bool(cands) or getattr(eff, "horror", "") == "all"
        if op == "destroy_marble" or op == "take_street_marble":
            return bool(self.street_marbles("any"))
        if op == "lose_marble":
            return any(i.hand for i in self.sane())
        if op == "manifest":
            return self.can_draw_horror() or bool(st.wall_hand)
        if op == "remove_scourge":
            return st.scourge is not None
        return True

    def card_usable(self, instruction: Instruction, inv: InvestigatorState,
                    this_marble: str | None = None) -> bool:
        """FW-AMB-16 / FW-AMB-24: an Investigator card is offered only if at least one of its
        effects can do something now (a card that is only partly possible may be played; the
        impossible part then "cannot complete")."""
        effects = [e for sentence in instruction for e in sentence if self.conds(e.only_if)]
        if not effects:
            return not instruction
        return any(self.inv_effect_possible(e, inv, this_marble) for e in effects)

    def inv_effect_possible(self, eff: Any, inv: InvestigatorState, this_marble: str | None
                            ) -> bool:
        st = self.st
        op = eff.op
        hand = [m for m in inv.hand if m != this_marble]
        others = self.sane(exclude=inv.id)
        if op == "close_gate":
            return bool(st.gates) and not self.scourge_blocks() and (
                eff.cost == "none" or self.meets(hand, eff.distinct_symbols))
        if op == "attach":
            return bool(hand and st.streets)
        if op == "move_attachment":
            return len(st.streets) > 1 and bool(self.street_marbles("attached"))
        if op == "swap_with_street_marble":
            return bool(hand and self.street_marbles("any"))
        if op == "take_street_marble":
            return bool(self.street_marbles(eff.source))
        if op == "take_from_marble_discard":
            return bool(st.marble_discard)
        if op in ("draw_marbles", "draw_to_sanity", "blitz"):
            return self.can_draw_marble()
        if op == "give_marbles":
            return bool(hand and others)
        if op == "give_or_trade":
            return bool(hand and others)
        if op == "peek":
            return bool(st.marble_deck if eff.deck == "marble" else st.horror_deck)
        if op == "view_hand":
            return eff.owner != "wall" or self.conflict
        if op in ("regroup", "grant_action", "lose_marble") and eff.who == "elected_other":
            return bool(others)
        return self.effect_possible(eff, "")

    # ================================================================== quick use at rest
    def anytime_reactions(self, seat: str) -> list[Action]:
        """``any_time_out_of_turn`` quick uses (FW-GAP-02) of `seat`'s Investigators other than
        the active one, while the active Investigator's turn rests."""
        st = self.st
        if st.phase != "investigator" or st.prompts or st.queue or self.over:
            return []
        act_inv = self.active()
        out: list[Action] = []
        for inv in self.invs_of(seat):
            if (act_inv is not None and inv.id == act_inv.id) or inv.insane:
                continue
            for m in self.reaction_marbles(inv, "any_time_out_of_turn", inv.id):
                out.append(act(K.REACT, inv=inv.id, marble=m))
        return out

    # ================================================================== contract queries
    def to_act(self) -> set[str]:
        st = self.st
        if self.over:
            return set()
        if st.prompts:
            return set(st.prompts[-1].seats)
        if st.queue:
            return set()  # pragma: no cover - the engine always runs the queue dry
        if st.phase == "investigator":
            inv = self.active()
            return {inv.seat} if inv is not None else set()
        if st.phase == "wall" and self.conflict and st.wall_seat is not None:
            return {st.wall_seat}
        return set()

    def legal(self, seat: str) -> list[Action]:
        st = self.st
        if self.over:
            return []
        if st.prompts:
            return self.prompt_answers(seat)
        out: list[Action] = []
        if st.phase == "investigator":
            inv = self.active()
            assert inv is not None
            if seat == inv.seat:
                out = self.main_actions(inv, st.ap)
                out.append(act(K.PASS, inv=inv.id))
            out += self.anytime_reactions(seat)
        elif st.phase == "wall" and self.conflict and seat == st.wall_seat:
            out = self.wall_actions()
        return out

    def apply(self, seat: str, action: Action) -> list[Event]:
        st = self.st
        legal = self.legal(seat)
        if action not in legal:
            msg, rule = self.explain(seat, action)
            raise IllegalAction(msg, rule)
        if st.prompts:
            self.answer(action)
        elif action.kind == K.REACT:
            inv = self.inv(str(action.p("inv")))
            self.use_reaction(inv, str(action.p("marble")), "any_time_out_of_turn")
            self.later(Step(op="end_action"))
        elif st.phase == "investigator":
            inv = self.inv(str(action.p("inv")))
            if action.kind == K.PASS:
                self.later(Step(op="inv_turn_end"))
            else:
                self.later(*self.do_main(inv, action, "turn"))
        elif st.phase == "wall":
            self.do_wall(action)
        self.run()
        return self.events

    # ================================================================== messages
    def explain(self, seat: str, action: Action) -> tuple[str, str]:
        """Why an action is refused, in words a player can act on, with the rule id."""
        st = self.st
        kind = action.kind
        if st.prompts:
            p = st.prompts[-1]
            if seat in p.seats:
                return (f"Answer the pending choice first: {p.text}", "FW-INSTR-02")
            return ("The game is waiting for another player's choice.", "FW-TURN-01")
        if st.phase == "wall":
            if seat != st.wall_seat:
                return ("It is The Wall's turn.", "FW-TURN-01")
            if st.wall_mode is None:
                return ("Choose Wrath or Brood first.", "FW-WALL-01")
            if kind == K.BROOD or kind == K.WRATH:
                return ("You already chose this turn's type.", "FW-WALL-01")
            if kind == K.WALL_UNIQUE:
                if not st.revealed:
                    return ("The Unique Action can only be used after An Eye Opens.",
                            "FW-WALL-09")
                if st.wall_unique_used:
                    return ("The Unique Action may only be used once per turn.", "FW-WALL-09")
            if kind == K.TRIGGER:
                return ("Only an un-Drained Horror On the Streets whose Trigger Cost you can "
                        "pay can be Triggered.", "FW-WALL-08")
            return ("You do not have enough Doom for that (or it has no target).", "FW-WALL-04")
        inv = self.active()
        if inv is None or seat != inv.seat:
            return ("It is not your turn.", "FW-TURN-02")
        if action.p("inv") not in (None, inv.id):
            return (f"It is {self.inv_name(inv)}'s turn: act as that Investigator "
                    f"(inv={inv.id}).", "FW-PLAY-03")
        name = self.COST_NAME.get(kind)
        if name is not None and self.action_cost(name, inv) > st.ap:
            return (f"You have {st.ap} Action Point(s) left; that costs "
                    f"{self.action_cost(name, inv)}.", "FW-AP-02")
        if kind == K.CLOSE_GATE:
            if self.scourge_blocks():
                return ("The Scourge is On the Streets: no Gate may be closed.",
                        "FW-SCOURGE-03")
            return ("Closing a Gate needs Marbles that together show a Clue, a Force and a "
                    "Science Symbol.", "FW-ACT-01")
        if kind == K.UNIQUE and inv.id in st.uniques_used:
            return ("The Unique Action may only be used once per turn.", "FW-ACT-03")
        if kind in (K.UNIQUE, K.EXPLOIT, K.UTILISE):
            return ("That card could not do anything right now; choose another action.",
                    "FW-AMB-16")
        if kind == K.INTERVENE:
            if not st.streets:
                return ("There is no Horror On the Streets to Intervene on.", "FW-AMB-24")
            return ("Intervene with a Marble from your hand.", "FW-ACT-05")
        if kind == K.UTILISE:
            return ("Only a Marble with a Utilise Instruction can be Utilised.", "FW-ACT-06")
        if kind in (K.GIVE, K.TRADE):
            return ("Give or Trade needs a Marble and another non-Insane Investigator.",
                    "FW-ACT-07")
        if kind == K.SEARCH:
            return ("The Marble deck and discard pile are empty.", "FW-GAP-12")
        return ("That is not a legal action now; choose one of the offered actions.",
                "FW-AP-02")
