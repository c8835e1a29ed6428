"""The Exorcism at the House of Monkton Falls: the engine object the registry imports (`GAME`).

Modes (option ``mode``): ``core`` (co-op, 2-5 players), ``one_vs_all`` (one seat plays the
Ghosts against 2-4 investigators, 3-5 players) and ``solo`` (one player, a Primary and a
Secondary Investigator). The rules live in `rules.exorcism.engine`; setup in
`rules.exorcism.setup`; redaction in `rules.exorcism.view`; action kinds and labels in
`rules.exorcism.actions`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any, ClassVar, Literal

from pydantic import Field

from rules.core.ending import Ending
from rules.core.errors import IllegalAction
from rules.core.game import ALT_TEXT_LIMIT, Game, GameOptions, fit_words, guided_words
from rules.core.rng import Rng
from rules.core.search import Level
from rules.core.types import Action, Event, Result, act
from rules.exorcism import actions as K
from rules.exorcism import ending as exorcism_ending
from rules.exorcism import guide, words
from rules.exorcism.content import default_pack, pack_fingerprint, table_options
from rules.exorcism.engine import GHOSTS, Engine, pack_for
from rules.exorcism.engine.turns import turn_header
from rules.exorcism.labels import describe_action, hidden_labels
from rules.exorcism.resample import redeal_unseen
from rules.exorcism.result import result_of
from rules.exorcism.setup import setup_game
from rules.exorcism.state import ExorcismState
from rules.exorcism.view import build_view, remembered_view

TRADE_PROMPTS = ("trade_partner", "trade_build", "trade_consent")
"""The prompts of a Trade under way (EX-PROMPT-12): answered by the heuristic at every level."""

LAST_HOURS = 6
"""One vs All: from this many turns left on the Clock (the last Time Die) the search's
play-outs run to dawn (`Exorcism.ai_budget`)."""


class ExorcismOptions(GameOptions):
    """Setup options (EX-PROMPT-01)."""

    mode: Literal["core", "one_vs_all", "solo"] = Field(
        default="core",
        description="core: everyone against the house; one_vs_all: one player controls the "
        "Ghosts; solo: one player with a Primary and a Secondary Investigator.",
    )
    ghost_seat: int = Field(
        default=0,
        ge=0,
        le=4,
        description="One vs All: which seat, in table order (0 = the first seat), plays the "
        "Ghosts.",
    )
    first_game: bool = Field(
        default=False,
        description="First game: the Exorcism needs 24 points instead of 30 and the Haunt "
        "cards wait until round 3 (a ruling: the rulebook prints no first-game setup).",
    )
    shroud_returns_darkness: bool = Field(
        default=False,
        # Rule ids (EX-GAP-17, EX-DARK-07) stay here, never in what the lobby shows.
        description="Shroud ruling, ours: when a Room is Shrouded its 4 Darkness "
        "tokens go back to the supply, so the Shroud cards, not the supply, limit the team. "
        "no: they stay under the Shroud, as the rulebook reads; core 3 players "
        "win about twice as often with yes.",
    )
    haunt_level_cooldown: bool = Field(
        default=False,
        # EX-AMB-59 (the id stays out of what the lobby shows).
        description="One vs All, Haunt Level ruling, ours: the Ghost player "
        "raises the Haunt Level at most once a Haunt phase and not in two phases in a row, "
        "so a Ghost that only races can't win by turn 18. no: as the rulebook reads.",
    )
    guided: bool | None = Field(
        default=None,
        description="Guided game: every board post says what you can do now and why it "
        "matters; empty: on while anyone seated hasn't finished a game of this title.",
    )
    pack_path: str | None = Field(
        default=None,
        description="Folder of a content pack to play with (printed cards a group owns); "
        "empty for the shipped default pack.",
        # A path on the bot's machine: set by whoever runs the bot, never from the lobby.
        json_schema_extra={"lobby": False},
    )


class Exorcism(Game[ExorcismOptions, ExorcismState]):
    name: ClassVar[str] = "exorcism"
    title: ClassVar[str] = "The Exorcism at the House of Monkton Falls"
    version: ClassVar[str] = "exorcism-1+" + pack_fingerprint(default_pack())
    modes: ClassVar[tuple[str, ...]] = ("core", "one_vs_all", "solo")
    rule_prefix: ClassVar[str] = "EX"
    options_model = ExorcismOptions
    state_model = ExorcismState

    # ---- contract -----------------------------------------------------------------------
    def player_counts(self, options: ExorcismOptions) -> set[int]:
        opts = pack_for(options.pack_path).options
        lo, hi = {"core": opts.core_players, "one_vs_all": opts.ova_players,
                  "solo": opts.solo_players}[options.mode]
        return set(range(lo, hi + 1))

    def setup(self, seats: list[str], options: ExorcismOptions, seed: int) -> ExorcismState:
        counts = self.player_counts(options)
        if len(seats) not in counts:
            rule = {"core": "EX-PLAY-01", "one_vs_all": "EX-PLAY-02", "solo": "EX-PLAY-03"}
            raise IllegalAction(
                f"{options.mode} takes {min(counts)} to {max(counts)} players, not "
                f"{len(seats)}.", rule=rule[options.mode])
        if options.mode == "one_vs_all" and options.ghost_seat >= len(seats):
            raise IllegalAction("The Ghost player must be one of the seats.", rule="EX-AMB-57")
        state, _ = setup_game(list(seats), options.mode, seed, options.pack_path,
                              options.ghost_seat, options.first_game,
                              options.shroud_returns_darkness,
                              options.haunt_level_cooldown)
        return state

    MODE_WORDS: ClassVar[dict[str, str]] = {
        "core": "Core: everyone together against the house",
        "one_vs_all": "One vs All: one player controls the Ghosts",
        "solo": "Solo: one player with a Primary and a Secondary Investigator",
    }

    def effective_options(self, options: ExorcismOptions) -> list[tuple[str, str]]:
        """What `setup_game` will use, in words (EX-LOBBY-01)."""
        counts = sorted(self.player_counts(options))
        players = (str(counts[0]) if len(counts) == 1 else f"{counts[0]} to {counts[-1]}")
        out = [("Mode", self.MODE_WORDS[options.mode]), ("Players", players)]
        if options.mode == "one_vs_all":
            out.append(("The Ghost player", f"seat {options.ghost_seat + 1} in table order"))
        out.append(("Actions per turn", "5, shared by your two Investigators"
                    if options.mode == "solo" else "3"))
        fg = table_options(pack_for(options.pack_path).options, True)
        out.append(("First game", f"yes: the Exorcism needs {fg.exorcism_target} points, and "
                    f"Haunt cards start in round {fg.haunt_from_round} (our ruling: the "
                    "rulebook prints no first-game setup)"  # EX-FIRST-01, EX-FIRST-02
                    if options.first_game else "no"))
        pack_returns = pack_for(options.pack_path).options.shroud_returns_darkness
        if options.shroud_returns_darkness:
            out.append(("Shrouded Rooms", "their 4 Darkness tokens go back to the supply "
                        "(our ruling, chosen)"))  # EX-GAP-17
        elif pack_returns:
            out.append(("Shrouded Rooms", "their 4 Darkness tokens go back to the supply "
                        "(this content pack's rule)"))
        else:
            out.append(("Shrouded Rooms", "their 4 Darkness tokens stay under the Shroud, as "
                        "the rulebook reads"))  # EX-DARK-07
        if options.mode == "one_vs_all":
            out.append(("Haunt Level", "raised at most once a Haunt phase, never in two "
                        "phases in a row (our ruling, chosen)"  # EX-AMB-59
                        if options.haunt_level_cooldown else
                        "raised as often as the Ghost player's Actions allow, as the rulebook "
                        "reads"))  # EX-OVA-08
        out.append(("Guided", guided_words(options)))
        return out

    def option_conflicts(self, options: ExorcismOptions) -> list[str]:
        out = super().option_conflicts(options)
        if options.mode == "one_vs_all" and options.ghost_seat >= max(
                self.player_counts(options), default=0):
            out.append(f"One vs All seats at most {max(self.player_counts(options))} players, "
                       f"so the Ghost player can't be seat {options.ghost_seat + 1}.")
        if options.haunt_level_cooldown and options.mode != "one_vs_all":
            out.append("The Haunt Level ruling (haunt_level_cooldown) is for One vs All: only "
                       "there does a Ghost player raise the Haunt Level.")
        return out

    def role_seat(self, options: ExorcismOptions) -> tuple[str, str, str] | None:
        if options.mode != "one_vs_all":
            return None
        return ("ghost_seat", "the Ghost player", "an investigator")

    def advice(self, view: dict[str, Any], seat: str) -> str | None:
        return guide.advice(view, seat)

    def to_act(self, state: ExorcismState) -> set[str]:
        return Engine(state).to_act()

    def may_act(self, state: ExorcismState, seat: str) -> bool:
        eng = Engine(state)
        return seat in eng.to_act() or bool(eng.playable_plans(seat))

    def legal_actions(self, state: ExorcismState, seat: str) -> list[Action]:
        return Engine(state).legal(seat)

    def _apply(self, state: ExorcismState, seat: str, action: Action) -> list[Event]:
        return Engine(state).apply(seat, action)

    def view(self, state: ExorcismState, seat: str | None) -> dict[str, Any]:
        return build_view(state, seat)

    def result(self, state: ExorcismState) -> Result | None:
        return result_of(state)

    # ---- optional hooks -----------------------------------------------------------------
    def seat_label(self, state: ExorcismState, seat: str) -> str:
        return Engine(state).seat_label(seat)

    def setup_events(self, state: ExorcismState) -> list[Event]:
        """The fresh state's public log, its first turn header carrying its seat, as every
        later turn's does (`event_text` names the player there)."""
        events = super().setup_events(state)
        seat = state.active
        if seat is None or not state.game_turn:
            return events
        who = self.seat_label(state, seat)
        head = turn_header(state.game_turn, state.round, who)
        return [e.model_copy(update={"data": {"seat": seat, "turn": state.game_turn,
                                              "round": state.round, "who": who}})
                if e.text == head else e for e in events]

    def event_text(self, state: ExorcismState, event: Event, names: dict[str, str]) -> str:
        """A turn's header names the player as well as the Character, where the table knows
        the name: "Turn 12 (round 3): Psychologist (Ada) to play." A reader of the thread
        tells whose turn it is from the header itself; the name is plain text, never a
        mention (`names` is escaped for message text)."""
        data = event.data
        seat, who = data.get("seat"), data.get("who")
        name = names.get(seat) if isinstance(seat, str) else None
        if not name or not isinstance(who, str) or "turn" not in data or "round" not in data:
            return event.text
        return turn_header(int(data["turn"]), int(data["round"]), f"{who} ({name})")

    # ---- words (rules.exorcism.words): the game for players who cannot see the picture
    def player_name(self, state: ExorcismState, seat: str, names: dict[str, str]) -> str:
        return words.player(state, seat, names)

    def doing_text(self, state: ExorcismState, seat: str,
                   names: dict[str, str] | None = None) -> str:
        return words.doing_text(state, seat, names or {})

    def status_lines(self, state: ExorcismState, seat: str | None,
                     names: dict[str, str]) -> list[str]:
        res = self.result(state)
        return words.status_lines(
            state, seat, names, self.result_text(state, res, names) if res else None,
            self.private_summary(state, seat) if seat is not None else None)

    def alt_text(self, state: ExorcismState, names: dict[str, str]) -> str:
        res = self.result(state)
        return fit_words(words.alt_lines(
            state, names, self.result_text(state, res, names) if res else None), ALT_TEXT_LIMIT)

    def glossary(self) -> dict[str, str]:
        """Rooms, Locked Rooms, Characters and Plans of the shipped pack by name, each with
        what its card does (a Room's Action, a Character's ability and Specialization)."""
        pack = default_pack()
        tools = {t.type: t.name for t in pack.tools}
        out: dict[str, str] = {}
        for room in pack.rooms:
            where = f"Location {room.location}" if room.location is not None else "no Location"
            out[room.name] = f"A Room ({where}). Its Action: {room.text}"
        for room in pack.locked_rooms:
            out[room.name] = (f"A Locked Room, behind an Exorcism lock (Location "
                              f"{room.location}). Its Action: {room.text}")
        for ch in pack.characters:
            out[ch.name] = (f"A Character. {ch.text} Specialization: "
                            f"{tools.get(ch.specialization, ch.specialization)}.")
        plans: dict[str, list[str]] = {}
        for plan in pack.plans:
            if plan.text not in plans.setdefault(plan.name, []):
                plans[plan.name].append(plan.text)
        for name, texts in plans.items():
            out.setdefault(name, "A Plan card. " + (texts[0] if len(texts) == 1 else
                                                      "One of: " + " / ".join(texts)))
        return out

    def ending(self, state: ExorcismState, result: Result,
               moves: Sequence[tuple[str | None, Sequence[Event]]],
               names: dict[str, str]) -> Ending:
        return exorcism_ending.ending(state, result, moves, names)

    def result_text(self, state: ExorcismState, result: Result, names: dict[str, str]) -> str:
        return words.result_text(state, result, names)

    def describe(self, state: ExorcismState, seat: str, action: Action) -> str:
        return describe_action(Engine(state), seat, action)

    def default_action(self, state: ExorcismState, seat: str) -> Action | None:
        """The §6 "Default on timeout" of whatever the seat is awaited for."""
        eng = Engine(state)
        if seat not in eng.to_act():
            return None  # an optional Plan window: doing nothing is the default
        legal = eng.legal(seat)
        if not legal:
            return None
        kinds = {a.kind: a for a in legal}
        for preferred in (K.PASS, K.END_HAUNT, K.NO_PLAN, K.TRADE_DECLINE, K.TRADE_CANCEL,
                          K.MANOR_DONE, K.PICK_ALL, K.EXCHANGE_DONE):
            if preferred in kinds:
                return kinds[preferred]
        if state.prompts and state.prompts[-1].kind == "foyer":
            # never escape by default (irreversible, EX-PROMPT-17): switch if possible
            switch = [a for a in legal if a.kind == K.SWITCH]
            return switch[0] if switch else legal[0]
        if state.prompts and state.prompts[-1].kind in ("rescue", "choose_primary"):
            # "random Lookout" / "random Primary", from the state's RNG without advancing it.
            return Rng(state=state.rng.state).choice(legal)
        return legal[0]

    def _resample(self, state: ExorcismState, seat: str | None, rng: Rng) -> ExorcismState:
        """Everything hidden from `seat` dealt anew: Locked Room faces, the Haunt deck (and the
        Ghost player's hand, an unseen peek), the Task and Plan decks (hidden Plans), the RNG
        (`rules.exorcism.resample`)."""
        return redeal_unseen(state, seat, rng)

    def choose_ai_action(self, state: ExorcismState, seat: str) -> Action:
        from rules.exorcism.ai import choose_action  # the AI imports the engine, not game.py

        return choose_action(state, seat)

    def ai_value(self, state: ExorcismState, seat: str) -> float:
        """The seat's side's chance to win from public progress (`rules.exorcism.ai`)."""
        from rules.exorcism.ai import win_estimate  # the AI imports the engine, not game.py

        return win_estimate(state, seat)

    def ai_searchable(self, state: ExorcismState, seat: str, action: Action | None) -> bool:
        """Trades stay the heuristic's (and so does never walking back, see below): a Trade it
        would not propose, or an answer to an offer other than its own, is declined or
        cancelled, the Action comes back, and the same decision comes round again with the same
        answer, without end (core 3p seed 1 at normal: one Trade offered and declined until the
        game's decision limit). A Plan that starts a Trade (Remote Trade) is the heuristic's too:
        a play-out trades on its world's Tasks, the heuristic deciding the real Trade on its own
        resample may call it off, the Plan comes back, and the search chose it again without end
        (core 3p seed 14 at normal, game turn 30: 5,800 decisions of Plan, partner, call off)."""
        if action is None:
            return not (state.prompts and state.prompts[-1].kind in TRADE_PROMPTS)
        if action.kind == K.PLAN:
            plan = pack_for(state.pack_path).plan(str(action.params.get("plan")))
            return not any(eff.op == "trade" for eff in plan.effect)
        if action.kind == K.MOVE and not state.prompts:
            # Nor a Move back where this turn's walk began (the heuristic's guard,
            # `ExorcismState.walked`): a play-out's noise must not walk a pawn back and forth
            # (core 3p seed 1 at normal under the Shroud ruling: one such walk).
            who = action.params.get("who")
            pawns = [i for i in state.investigators.values()
                     if i.seat == seat and (who is None or i.id == who)]
            if any(str(action.params.get("to")) in state.walked.get(i.id, ()) for i in pawns):
                return False
        if action.kind == K.PASS and not state.prompts and state.phase == "actions":
            # Nor End Turn while a useful Action is left: the heuristic's pick is always a
            # candidate, so a turn ends with Actions left only when the heuristic itself ends
            # it (it weighs waiting in the Foyer, `_Brain.not_idle`), never on a play-out's
            # noise against an Action it chose (issue #23: idle turn ends before a loss).
            return not self._useful_left(state, seat)
        return action.kind != K.TRADE

    def _useful_left(self, state: ExorcismState, seat: str) -> bool:
        """Whether `seat` has an Action left that could change the game this turn (the census's
        reading, `bench.blunders._useful`): not a Plan (free), nor a Trade (the heuristic's
        alone, see `ai_searchable`), nor the Foyer's Action (a switch changes no Darkness,
        Tool or point), and a Move only with an Action left after it, and not back where
        this turn's walk began."""
        if state.actions_left <= 0 or state.active != seat:
            return False
        for a in Engine(state).legal(seat):
            if a.kind in (K.PASS, K.PLAN, K.TRADE):
                continue
            who = a.params.get("who")
            pawns = [i for i in state.investigators.values()
                     if i.seat == seat and (who is None or i.id == who)]
            if a.kind == K.ROOM_ACTION and all(i.cell == "foyer" for i in pawns):
                continue
            if a.kind == K.MOVE and (state.actions_left < 2 or not self.ai_searchable(
                    state, seat, a)):
                continue
            return True
        return False

    def ai_turn(self, state: ExorcismState) -> int | None:
        """The turns whose Haunt phase (One vs All: the Ghost's) is over: a play-out stopped
        when this grows (`Level.turns`) stops as a turn's Actions begin, the Clock ticked and
        the Haunt cards drawn, the same point for every candidate (issue #23, stop 34)."""
        return state.game_turn - (1 if state.phase in ("setup", "haunt", "ghost") else 0)

    def ai_budget(self, state: ExorcismState, seat: str, level: Level) -> Level:
        """One vs All on the last Time Die (`LAST_HOURS` or fewer turns left): the play-outs
        run to the level's horizon, which reaches dawn, and score the game's real end, not the
        estimate two turns on (`Level.turns`). The estimate squeezes every candidate toward 0
        there: seed 8 at game turn 42, a step out of the Foyer that drew the Ghost player's
        Temporary Possession off a teammate won 3 worlds in 4 played to the end, ending the
        turn 1 in 4, and two turns on the estimate put both under 0.11 (stop 44). Reads the
        public Clock only."""
        if state.mode != "one_vs_all" or level.turns <= 0 or sum(state.dice) > LAST_HOURS:
            return level
        return replace(level, turns=0)

    def ai_levels(self) -> dict[str, Level]:
        """Sized to this game's heuristic, about 3 ms of CPU a decision (issue #23 budgets:
        normal about 0.3 s, hard about 1 s, 2 s at most): a play-out of `horizon` decisions
        costs `horizon` heuristic calls, so `simulations` x `horizon` stays near 200 / 700
        (measured on a core 3p game: normal 0.29 s, hard 0.65 s median CPU a decision)."""
        # The margin and the confidence: with 20 play-outs a candidate beats the heuristic by
        # 0.02 on noise alone, and such overrides walked the One vs All investigators back and
        # forth (bench: 24 back-and-forth Moves in 10 games at normal against 7 for easy), so
        # the search overrides the heuristic only on a difference two standard errors clear
        # of the world-to-world noise (core 3p, seeds 1-50: normal won 7, easy 5 - both far
        # below 35 %, see rules.md EX-GAP-17; CPU a decision on a loaded machine: normal
        # median 88-170 ms, 551 ms at most; hard median 652 ms, 1.0 s at most).
        # Normal's play-outs stop 2 turns on, as that turn's Actions begin (`turns`, `ai_turn`),
        # not after 10 decisions: every candidate is then scored at the same Clock pip and
        # Haunt phase (rules.md, stop 34: core 3p seeds 1-60, 13 won against 7 for the cut
        # after 10 decisions and 14 for easy; CPU median 125 ms a decision).
        return {"normal": Level("normal", simulations=20, horizon=40, width=6, margin=0.05,
                                turns=2, cap_seconds=2.0, confidence=2.0),
                "hard": Level("hard", simulations=60, horizon=12, width=8, margin=0.03,
                              cap_seconds=2.0, confidence=2.0)}

    def summary(self) -> str:
        return (
            "The Exorcism at the House of Monkton Falls — investigators must gain 30 Exorcism "
            "points by completing Tasks, then escape through the Foyer before the 8 Time Dice "
            "run out (48 turns).\n"
            "Each turn: the clock loses a pip; from round 2 Haunt cards move the Ghosts and "
            "spread Darkness (One vs All: the Ghost player acts instead); then take up to 3 "
            "Actions (Solo: 5): move up to 2, purify, trade, use your Room, complete a Task, "
            "pick up Tools, unlock, use your ability. Plans are free, any time.\n"
            "You lose if time runs out, Darkness or Shrouds run out, or a Wounded Character "
            "has no Lookout left to rescue them."
        )

    def invariants(self, state: ExorcismState) -> list[str]:
        eng = Engine(state)
        pack = eng.pack
        opts = pack.options
        bad: list[str] = []
        dark = state.darkness_supply + state.haunt_level + sum(
            c.darkness for c in state.cells.values())
        if dark != opts.darkness_supply:
            bad.append(f"darkness not conserved: {dark} != {opts.darkness_supply}")
        if state.darkness_supply < 0:
            bad.append("negative darkness supply")
        for tdef in pack.tools:
            t = tdef.type
            held = state.tool_piles.get(t, 0)
            held += sum(i.tools.get(t, 0) for i in state.investigators.values())
            held += sum(c.dropped.get(t, 0) for c in state.cells.values())
            if held != tdef.count:
                bad.append(f"{t} tools not conserved: {held} != {tdef.count}")
        for bag in [state.tool_piles, *(i.tools for i in state.investigators.values()),
                    *(c.dropped for c in state.cells.values())]:
            if any(n < 0 for n in bag.values()):
                bad.append("negative tool count")
        if state.points < 0:
            bad.append("negative points")
        if any(not 0 <= p <= 6 for p in state.dice):
            bad.append("die pips out of range")
        if sum(1 for c in state.cells.values() if c.shrouded) + state.shrouds_left < opts.shrouds:
            bad.append("shrouds lost")
        for c in state.cells.values():
            if c.darkness > opts.shroud_at or (c.darkness >= opts.shroud_at and not c.shrouded):
                bad.append(f"{c.id} holds {c.darkness} darkness unshrouded")
        tasks = (len(state.task_deck) + len(state.available_tasks) + len(state.task_discard)
                 + sum(len(p.tasks) + len(p.ongoing) for p in state.players.values()))
        if tasks != len(pack.tasks):
            bad.append(f"tasks not conserved: {tasks}")
        plans = (len(state.plan_deck) + len(state.plan_discard)
                 + sum(len(p.plans) for p in state.players.values()))
        if plans != len(pack.plan_deck()):
            bad.append(f"plans not conserved: {plans}")
        haunt = (len(state.haunt_deck) + len(state.haunt_discard) + len(state.haunt_removed)
                 + len(state.ghost_hand))
        if (state.haunt_deck or state.haunt_discard or state.haunt_removed) and haunt != len(
            pack.haunt_deck
        ):
            bad.append(f"haunt cards not conserved: {haunt}")
        if state.investigators:
            chars = [i.character for i in state.investigators.values()
                     if i.character and not i.escaped]
            chars += state.lookouts + state.wounded + state.devoured + state.out_of_play
            chars += state.escaped
            if sorted(chars) != sorted(c.id for c in pack.characters):
                bad.append(f"characters not conserved: {sorted(chars)}")
        ghosts = eng.ghost_cells()
        for inv in eng.active_invs():
            if inv.cell not in state.cells:
                bad.append(f"{inv.id} on unknown cell {inv.cell}")
        if state.exorcised and ghosts:
            bad.append("ghosts remain after the exorcism")
        if state.track_index >= len(pack.clock.darkness_track):
            bad.append("darkness track overflow")
        if state.haunt_level % max(1, opts.haunt_level_step):
            bad.append("odd haunt level")
        if any(g not in GHOSTS for g in state.ghosts):
            bad.append("unknown ghost")
        return bad

    def public_secrets(self, state: ExorcismState) -> list[str]:
        """Face-down and boxed Locked Room names, the Ghost hand, the Task deck (§5), and every
        answer label that names a hidden card (a One vs All peek, the Ghost hand, hidden Plans)
        as a button would print it."""
        eng = Engine(state)
        pack = eng.pack
        out = [pack.room(c.card).name for c in state.cells.values()
               if c.face_down and c.card]
        out += [pack.room(r).name for r in state.unused_locked]
        out += [f'"{c}"' for c in state.ghost_hand]
        out += [f'"{t}"' for t in state.task_deck]
        out += hidden_labels(eng)
        return out

    def public_choices(self, state: ExorcismState, seat: str) -> bool:
        """Decided from what the choices would print (EX-VIS-11/12/16): never public when an
        answer names a hidden card or any label or the question holds a current secret,
        whoever answers. The Ghost player's choices stay private in any case: they act from
        their hidden hand."""
        if seat == state.ghost_seat:
            return False
        eng = Engine(state)
        legal = eng.legal(seat)
        if any(eng.names_hidden_card(a) for a in legal):
            return False
        texts = [describe_action(eng, seat, a) for a in legal]
        texts.append(self.prompt_text(state, seat) or "")
        return not _prints_a_secret(texts, self.public_secrets(state))

    def choices_all_public(self, state: ExorcismState, seat: str) -> bool:
        """The Ghost player's Terror and Manipulate the Manor questions ask for a Room or a
        player, every answer a board button: the thread does not send them to their DMs
        for it (stop 64's demo: "📬 … private choices are in your DMs" beside "Moving
        Objects: choose the Room…", a DM holding no such choice). By the prompt's kind."""
        top = state.prompts[-1] if state.prompts else None
        if not (seat == state.ghost_seat and top is not None and seat in top.seats
                and top.kind in GHOST_BOARD_PROMPTS):
            return False
        # as the board shows them (`public_actions` keeps none when a label would print a
        # secret): only then is every choice on the board
        return len(self.public_actions(state, seat)) == len(Engine(state).legal(seat))

    def public_actions(self, state: ExorcismState, seat: str) -> list[Action]:
        """Per action (issue #14): every answer but those naming a hidden card (the Ghost
        player's hand, a One vs All peek, hidden Plans: `names_hidden_card`, decided by kind
        and the public mode, EX-VIS-11/12/16). The rest must print no current secret, nor may
        the question: else none of them is public (as `public_choices`)."""
        eng = Engine(state)
        shown = [a for a in eng.legal(seat) if not eng.names_hidden_card(a)]
        texts = [describe_action(eng, seat, a) for a in shown]
        texts.append(self.prompt_text(state, seat) or "")
        if _prints_a_secret(texts, self.public_secrets(state)):
            return []
        return shown

    def decision_id(self, state: ExorcismState, seat: str) -> str:
        # A prompt several seats answer at once (Triage holders) keeps its id while the
        # others answer, so one holder's pass does not stale the other's buttons.
        if state.prompts and seat in state.prompts[-1].seats and len(state.prompts[-1].seats) > 1:
            return f"p{state.prompts[-1].id}"
        return str(state.step)

    def prompt_text(self, state: ExorcismState, seat: str) -> str | None:
        if state.prompts and seat in state.prompts[-1].seats:
            top = state.prompts[-1]
            if top.kind == "choose_primary":
                # Each Character with its ability and Specialization, above the choices: a
                # button's label holds only the start of it.
                pack = Engine(state).pack
                tools = {t.type: t.name for t in pack.tools}
                return top.text + "".join(
                    f"\n• **{c.name}** ({tools.get(c.specialization, c.specialization)}): "
                    f"{c.text}" for c in pack.characters)
            return top.text
        return None

    def panel_words(self, state: ExorcismState, seat: str,
                    actions: list[Action]) -> str | None:
        """The Ghost player's Haunt-card buttons, in DMs only (EX-VIS-11): its question named
        only the board post's moves, the Raise and the Terrors (stop 70)."""
        kinds = {a.kind for a in actions}
        if seat != state.ghost_seat or not kinds or not kinds <= {K.GHOST_MOVE,
                                                                   K.GHOST_DARKNESS}:
            return None
        names = [f"**{name}**" for kind, name in ((K.GHOST_MOVE, "Move the Ghosts"),
                                                   (K.GHOST_DARKNESS, "Add Darkness"))
                 if kind in kinds]
        return f"{' or '.join(names)} with a Haunt card from your hand"

    def private_summary(self, state: ExorcismState, seat: str) -> str | None:
        if seat != state.ghost_seat or not state.ghost_hand:
            return None
        # Each card as its buttons play it ("Location 2: Wraith right (not in the house yet:
        # Bull …)"), the Ghosts not yet come marked (stop 70).
        cards = [str(card["in_hand"]) for card in remembered_view(state, seat).get("hand", [])]
        return "Your hand of Haunt cards (hidden from the investigators):\n" + "\n".join(
            f"• {c}" for c in cards)


GAME = Exorcism()

__all__ = ["GAME", "Exorcism", "ExorcismOptions", "act"]


def _prints_a_secret(texts: list[str], secrets: Iterable[str]) -> bool:
    """Whether any of `texts` contains any of `secrets` (the empty ones left out). The texts
    are searched as one, joined by a character none of them holds, so no match spans two: one
    search per secret rather than one per secret and text (every button label of a board post,
    each move)."""
    wanted = [s for s in secrets if s]
    if any("\0" in t for t in texts) or any("\0" in s for s in wanted):
        return any(s in t for t in texts for s in wanted)
    joined = "\0".join(texts)
    return any(s in joined for s in wanted)


GHOST_BOARD_PROMPTS = frozenset({"terror_seat", "terror_cell", "possession", "manipulate_manor"})
"""The Ghost player's questions about the board (a Room, a player, the manor's arrangement):
every answer is a public button (`Exorcism.choices_all_public`)."""
