"""I Am the Fourth Wall: the engine object the registry imports (`GAME`).

Modes (option ``mode``): ``conflict`` (one seat is The Wall against 1-6 Investigator players)
and ``alliance`` (1-6 players, The Wall is the Presence deck AI). One or two Investigator
players play three or four Investigators (FW-PLAY-01); option ``investigators`` overrides the
count. The rules live in `rules.fourth_wall.engine`; setup in `rules.fourth_wall.setup`;
redaction in `rules.fourth_wall.view`; action kinds and labels in `rules.fourth_wall.actions`.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from typing import Any, ClassVar, Literal

from pydantic import Field

from rules.core.ending import Ending
from rules.core.errors import IllegalAction
from rules.core.game import (
    ALT_TEXT_LIMIT,
    Game,
    GameOptions,
    fit_words,
    guided_words,
    view_rng,
)
from rules.core.hidden import shown_by_events
from rules.core.rng import Rng
from rules.core.search import Level, level_of, search_action
from rules.core.types import Action, Event, Prompt, Result, act
from rules.fourth_wall import actions as K
from rules.fourth_wall import ending as fourth_wall_ending
from rules.fourth_wall import guide, words
from rules.fourth_wall.actions import (
    HIDDEN_HAND_PROMPTS,
    INVESTIGATOR_PUBLIC,
    WALL_PUBLIC,
    WALL_PUBLIC_PROMPTS,
)
from rules.fourth_wall.content import default_pack, pack_fingerprint
from rules.fourth_wall.engine import STAGE_NAMES, Engine, capital, pack_for, symbols_text
from rules.fourth_wall.engine.investigators import card_text_for_mode
from rules.fourth_wall.labels import describe_action
from rules.fourth_wall.resample import hidden_cards, resample_state, strings
from rules.fourth_wall.result import result_of
from rules.fourth_wall.setup import investigator_count, setup_game
from rules.fourth_wall.state import FourthWallState
from rules.fourth_wall.view import build_view


class FourthWallOptions(GameOptions):
    """Setup options (FW-PROMPT-02)."""

    mode: Literal["conflict", "alliance"] = Field(
        default="conflict",
        description="conflict: one player is The Wall against the Investigators; alliance: "
        "everyone is an Investigator against the Presence deck.",
    )
    investigators: int | None = Field(
        default=None, ge=3, le=6,
        description="How many Investigators to play (3-6); empty: 3 for one Investigator "
        "player, 4 for two, otherwise one each.",
    )
    gates: int = Field(
        default=3, ge=3, le=5,
        description="Open Gates at the start: 3 (recommended), 4 (quite a challenge) or 5 "
        "(really push them).",
    )
    wall_seat: int = Field(
        default=0, ge=0, le=6,
        description="Conflict: which seat, in table order (0 = the first seat), is The Wall.",
    )
    wrath_doom: int | None = Field(
        default=None, ge=1, le=2, title="Doom per Wrath",
        description="Doom per Wrath (Conflict): the Doom The Wall gains each Wrath turn. 1 as "
        "the rulebook says (The Wall rarely wins); 2, ruling FW-LOBBY-03, for a closer game; "
        "empty: the rulebook's 1.",
    )
    first_game: bool = Field(
        default=False,
        description="First game: take The Street Magician out of the Investigator deck.",
    )
    guided: bool | None = Field(
        default=None,
        description="Guided game: every board post says what you can do now and why it "
        "matters; empty: on for a first game.",
    )
    pack_path: str | None = Field(
        default=None,
        description="Folder of a content pack to play with (printed cards a group owns); "
        "empty for the shipped default pack.",
        json_schema_extra={"lobby": False},
    )


def wrath_doom_of(options: FourthWallOptions, book: int) -> int:
    """The Doom a Conflict Wrath gains before its bonuses at this table: the option when set,
    else `book` (the pack's, 1 in the shipped one: FW-WALL-03)."""
    return book if options.wrath_doom is None else options.wrath_doom


def wrath_words(options: FourthWallOptions, book: int) -> str:
    """The lobby card's "Doom per Wrath" line (FW-LOBBY-03): the number and what it means."""
    if options.mode != "conflict":
        return "not used: Alliance has no Wrath"
    n = wrath_doom_of(options, book)
    if n == 1:
        return "1, as the rulebook says (The Wall rarely wins)"
    ruling = " (rule FW-LOBBY-03: our ruling, for a closer game)" if n == 2 else ""
    return (f"{n}{ruling}: The Wall gains {n} Doom each Wrath, {n + 1} on its first turn "
            "and in The Crescendo")


PLAYOUT_TURNS = {"normal": 3, "hard": 4}
"""How many turns (a Wall turn or an Investigator's, `_turn_clock`) a play-out runs past the
decision at each search level: from a Wall decision, normal sees the next Investigator's turn
and The Wall's answer to it (a Brood, The Scourge placed); `Level.horizon` caps the decisions."""


CRITICAL_WORLDS = {"normal": 3.0, "hard": 1.5}
"""How many times its level's worlds the search spends on an Alliance decision once An Eye
Opened with `CRITICAL_GATES` or more Gates Open (`FourthWall.ai_budget`), and two candidates
more: 24 of the 30 games the normal level lost at stop 39 (seeds 21-200) were lost there, by
a fifth Gate (FW-END-02), at about one turn start in nine. Normal's CPU a decision over a
game stays at a median of 0.32 s (p95 0.7 s; 11 of 14,394 decisions stopped by the 2 s cap,
stop 40); hard gets half again, its median search being three times normal's."""

CRITICAL_GATES = 3
"""Open Gates from which an Alliance decision after An Eye Opens gets `CRITICAL_WORLDS`: two
Investigators driven Insane from losing (FW-INSANE-05, FW-END-02)."""

CRITICAL_TURNS = 2
"""Turns a play-out runs past `PLAYOUT_TURNS` at such a decision (`FourthWall.ai_budget`): two
Wall turns rather than one. The Target Token passes on at every Loss (FW-TARGET-03), so a hand
left at one Marble is often hit only at the second Wall turn after the decision; a play-out
stopping after the first scored that hand by the cut-off estimate alone (stop 47)."""



def _own_prompt(state: FourthWallState, seat: str) -> Prompt | None:
    """The prompt on top when it asks `seat`, else None."""
    return state.prompts[-1] if state.prompts and seat in state.prompts[-1].seats else None

class FourthWall(Game[FourthWallOptions, FourthWallState]):
    name: ClassVar[str] = "fourth_wall"
    title: ClassVar[str] = "I Am the Fourth Wall"
    version: ClassVar[str] = "fourth_wall-1+" + pack_fingerprint(default_pack())
    modes: ClassVar[tuple[str, ...]] = ("conflict", "alliance")
    rule_prefix: ClassVar[str] = "FW"
    options_model = FourthWallOptions
    state_model = FourthWallState

    # ---- contract -----------------------------------------------------------------------
    def player_counts(self, options: FourthWallOptions) -> set[int]:
        """FW-PLAY-01/02: Conflict = the Wall + 1..6 Investigator players; Alliance = 1..6."""
        opts = pack_for(options.pack_path).options
        out: set[int] = set()
        for players in range(1, opts.max_investigators + 1):
            n = investigator_count(players, options.investigators, options.pack_path)
            if not opts.min_investigators <= n <= opts.max_investigators or n < players:
                continue
            seats = players + (1 if options.mode == "conflict" else 0)
            if options.mode == "conflict" and options.wall_seat >= seats:
                continue
            out.add(seats)
        return out

    def setup(self, seats: list[str], options: FourthWallOptions, seed: int
              ) -> FourthWallState:
        counts = self.player_counts(options)
        if len(seats) not in counts:
            raise IllegalAction(
                f"{options.mode} takes {min(counts, default=0)} to {max(counts, default=0)} "
                f"players with these options, not {len(seats)}.", rule="FW-PLAY-02")
        return setup_game(list(seats), options.mode, seed, options.pack_path,
                          options.wall_seat, options.investigators, options.gates,
                          options.first_game, options.wrath_doom)

    def replay_rulings(self, fresh: FourthWallState, current: FourthWallState
                       ) -> FourthWallState:
        """FW-TURN-06's Elected Regroup after the failed Action (stop 63) applies to games
        begun under it: an older game's log replays (undo, checks) electing at once."""
        if fresh.elect_after_action == current.elect_after_action:
            return fresh
        return fresh.model_copy(update={"elect_after_action": current.elect_after_action})

    def effective_options(self, options: FourthWallOptions) -> list[tuple[str, str]]:
        """What `setup_game` will use, in words (FW-LOBBY-01)."""
        opts = pack_for(options.pack_path).options
        conflict = options.mode == "conflict"
        counts = sorted(self.player_counts(options))
        players = (str(counts[0]) if len(counts) == 1 else f"{counts[0]} to {counts[-1]}")
        out = [("Mode", "Conflict: one player is The Wall against the Investigators"
                if conflict else "Alliance: everyone is an Investigator against the "
                "Presence deck"),
               ("Players", players + (" (The Wall and the Investigator players)"
                                      if conflict else ""))]
        if conflict:
            out.append(("The Wall", f"seat {options.wall_seat + 1} in table order"))
        if options.investigators is not None:
            invs = f"{options.investigators}, shared among the Investigator players"
        else:
            invs = (f"{opts.solo_investigators} for one Investigator player, "
                    f"{2 * opts.duo_investigators_each} for two, otherwise one each")
        out.append(("Investigators", invs))
        out.append(("Open Gates at the start", f"{options.gates}"
                    + (" (recommended)" if options.gates == 3 else "")))
        if conflict or options.wrath_doom is not None:
            out.append(("Doom per Wrath", wrath_words(options, opts.wrath_doom)))
        remove = (pack_for(options.pack_path).investigator(opts.first_game_remove).name
                  if options.first_game and opts.first_game_remove else None)
        out.append(("First game", f"yes: {remove} is taken out (not with 6 "
                    "Investigators)" if remove else "no"))
        out.append(("Guided", guided_words(options)))
        return out

    def option_conflicts(self, options: FourthWallOptions) -> list[str]:
        out = super().option_conflicts(options)
        free = self.player_counts(options.model_copy(update={"wall_seat": 0}))
        if out and options.mode == "conflict" and free:
            # FW-AMB-29: The Wall is one of the seats
            out = [f"Conflict seats at most {max(free)} players with these options, so The "
                   f"Wall can't be seat {options.wall_seat + 1}."]
        return out

    def role_seat(self, options: FourthWallOptions) -> tuple[str, str, str] | None:
        if options.mode != "conflict":
            return None
        return ("wall_seat", "the Wall player", "an Investigator player")

    def advice(self, view: dict[str, Any], seat: str) -> str | None:
        return guide.advice(view, seat)

    def to_act(self, state: FourthWallState) -> set[str]:
        return Engine(state).to_act()

    def may_act(self, state: FourthWallState, seat: str) -> bool:
        eng = Engine(state)
        return seat in eng.to_act() or bool(eng.anytime_reactions(seat))

    def legal_actions(self, state: FourthWallState, seat: str) -> list[Action]:
        # Listing the moves changes nothing (the contract checks it), so the standing rules
        # are worked out once for the whole list: a tenth of a search's play-outs.
        return Engine(state).freeze().legal(seat)

    def _apply(self, state: FourthWallState, seat: str, action: Action) -> list[Event]:
        return Engine(state).apply(seat, action)

    def view(self, state: FourthWallState, seat: str | None) -> dict[str, Any]:
        return build_view(state, seat)

    def result(self, state: FourthWallState) -> Result | None:
        return result_of(state)

    # ---- optional hooks -----------------------------------------------------------------
    def seat_label(self, state: FourthWallState, seat: str) -> str:
        return Engine(state).seat_label(seat)

    # ---- words (rules.fourth_wall.words): the game for players who cannot see the picture
    def player_name(self, state: FourthWallState, seat: str, names: dict[str, str]) -> str:
        return words.player(state, seat, names)

    def doing_text(self, state: FourthWallState, seat: str,
                   names: dict[str, str] | None = None) -> str:
        return words.doing_text(state, seat, names or {})

    def status_lines(self, state: FourthWallState, seat: str | None,
                     names: dict[str, str]) -> list[str]:
        res = self.result(state)
        return words.status_lines(state, seat, names,
                                  self.result_text(state, res, names) if res else None)

    def alt_text(self, state: FourthWallState, names: dict[str, str]) -> str:
        res = self.result(state)
        return fit_words(words.alt_lines(
            state, names, self.result_text(state, res, names) if res else None), ALT_TEXT_LIMIT)

    def ending(self, state: FourthWallState, result: Result,
               moves: Sequence[tuple[str | None, Sequence[Event]]],
               names: dict[str, str]) -> Ending:
        return fourth_wall_ending.ending(state, result, moves, names)

    def result_text(self, state: FourthWallState, result: Result,
                    names: dict[str, str]) -> str:
        return words.result_text(state, result, names)

    def describe(self, state: FourthWallState, seat: str, action: Action) -> str:
        return describe_action(Engine(state), seat, action)

    def prompt_text(self, state: FourthWallState, seat: str) -> str | None:
        if state.prompts and seat in state.prompts[-1].seats:
            top = state.prompts[-1]
            if top.kind == "keep_investigator":
                # The two cards with what each does, above the choices (a choice between
                # names alone is a guess); the seat's own menu, as the prompt itself is.
                eng = Engine(state)
                dealt = next((i.dealt for i in state.investigators
                              if i.seat == seat and i.card is None and i.dealt), [])
                cards = [eng.investigator_card(c) for c in dealt]
                return top.text + "".join(
                    f"\n• **{c.name}** (Sanity {c.sanity}): "
                    f"{card_text_for_mode(c.text, eng.conflict)}" for c in cards)
            return top.text
        return None

    def public_choices(self, state: FourthWallState, seat: str) -> bool:
        """False when the labels name hidden cards: always for the Wall seat (its hand, the
        hands it looks at), and for an Investigator seat whose choices name hand cards in
        Conflict (FW-VIS-06/15); and in both modes for the setup choice between two dealt
        Investigator cards, which the public view does not name (FW-VIS-02)."""
        if state.prompts and state.prompts[-1].kind == "keep_investigator" \
                and seat in state.prompts[-1].seats:
            return False
        if state.mode == "alliance":
            return True
        if seat == state.wall_seat:
            return False
        if state.prompts and state.prompts[-1].kind in HIDDEN_HAND_PROMPTS:
            # Whether these answers happen to be safe depends on the hand (a window with
            # nothing to use, a selection that took every card): never show them publicly.
            return False
        # Close a Gate is offered only when the hand shows the Symbols: not "safe" (#14)
        return all(a.kind in INVESTIGATOR_PUBLIC for a in self.legal_actions(state, seat))

    def choices_all_public(self, state: FourthWallState, seat: str) -> bool:
        """Alliance plays every choice on the board post but the Investigator card kept at
        setup (`public_actions`): the thread's DM line is left out there (stop 63's demo: "📬
        Ada: your private choices are in your DMs." on every turn of a DM without controls)."""
        top = _own_prompt(state, seat)
        return state.mode == "alliance" and (top is None or top.kind != "keep_investigator")

    def public_actions(self, state: FourthWallState, seat: str) -> list[Action]:
        """Per action (issue #14), by kind and the public state only, never by a hand's
        contents. The dealt Investigator cards are never public (FW-VIS-02), nor a prompt over
        a hidden hand (FW-VIS-34). In Conflict an Investigator's public kinds are
        `INVESTIGATOR_PUBLIC` (not Intervene/Utilise, which name a hand Marble, nor Close a
        Gate, whose availability shows the hand's Symbols); the Wall's are its turn choices
        that name no Horror in its hand (`WALL_PUBLIC`, FW-VIS-15/22) and the answers about
        the Streets (`WALL_PUBLIC_PROMPTS`: a Horror answer only when On the Streets)."""
        top = _own_prompt(state, seat)
        if top is not None and top.kind == "keep_investigator":
            return []
        legal = self.legal_actions(state, seat)
        if state.mode == "alliance":
            return legal
        if top is not None and top.kind in HIDDEN_HAND_PROMPTS:
            return []
        if seat != state.wall_seat:
            return [a for a in legal if a.kind in INVESTIGATOR_PUBLIC]
        if top is not None:
            if top.kind not in WALL_PUBLIC_PROMPTS:
                return []
            streets = {h.id for h in state.streets}
            return [a for a in legal if a.kind in WALL_PUBLIC and (
                a.kind != K.CHOOSE_HORROR or str(a.params.get("horror")) in streets)]
        kinds = WALL_PUBLIC | ({K.WALL_UNIQUE} if state.revealed else set())
        return [a for a in legal if a.kind in kinds]

    def default_action(self, state: FourthWallState, seat: str) -> Action | None:
        """The §6 "Default on timeout" of whatever the seat is awaited for."""
        eng = Engine(state)
        if seat not in eng.to_act():
            return None
        legal = eng.legal(seat)
        if not legal:
            return None
        by_kind: dict[str, list[Action]] = {}
        for a in legal:
            by_kind.setdefault(a.kind, []).append(a)
        rnd = Rng(state=state.rng.state)
        if not state.prompts:
            for pref in (K.PASS, K.WRATH, K.END_TURN):
                if pref in by_kind:
                    return by_kind[pref][0]
            return legal[0]
        p = state.prompts[-1]
        kind = p.kind
        if kind == "lose_choice":  # the quick use offered with it is declined (FW-PROMPT-11)
            return rnd.choice(by_kind.get(K.CHOOSE_MARBLE) or legal)
        if kind in ("keep_investigator", "choose_target", "wall_choice", "discard_excess",
                    "destroy_tie"):
            return rnd.choice(legal)
        if kind == "scourge":  # keep it where it is, else the lowest-placed Horror
            return (by_kind.get(K.KEEP_SCOURGE) or by_kind.get(K.SCOURGE) or legal)[0]
        if kind == "regroup_draw":
            n_limit = int(p.data.get("n_limit", 0))
            return act(K.REGROUP_DRAW, mode="limit" if n_limit >= 2 else "n")
        for pref in (K.KEEP_SCOURGE, K.ACCEPT if kind == "regroup_offer" else "",
                     K.TAKE_DOOM, K.DONE, K.STOP, K.CANCEL, K.PASS, K.DECLINE):
            if pref and pref in by_kind:
                return by_kind[pref][0]
        if kind == "choose_horror":
            # the lowest effective Defeat Cost first (FW-PROMPT-13)
            return min(legal, key=lambda a: sum(
                eng.defeat_cost(str(a.p("horror"))).values()))
        return legal[0]

    def _resample(self, state: FourthWallState, seat: str | None, rng: Rng
                  ) -> FourthWallState:
        """Everything hidden from `seat` dealt anew (`rules.fourth_wall.resample`): deck
        orders, the Wall's hand, the Wall card before An Eye Opens, the Gates, the Presence
        deck, outside the team the Investigators' hands, and the RNG."""
        return resample_state(state, seat, rng)

    def undo_refusal(self, before: FourthWallState, seat: str, action: Action,
                     after: FourthWallState, events: list[Event]) -> str | None:
        """Why this move may not be taken back (None: it may), once `Tables` found that its
        outcome does not differ on states resampled from the mover's view (issue #21).

        A move that hands another seat a choice over cards the mover cannot see is refused
        outright: a new prompt naming such a card, or in Conflict a private prompt (over a hidden
        hand, FW-VIS-06/32) for a seat across the Wall/team divide, whose text reads that hand
        even where a few resamples happen to agree. Then the table's generic checks: a reveal,
        a hidden name reaching the public view, a private event."""
        known = {p.id for p in before.prompts}
        hidden = hidden_cards(after, seat)
        for p in after.prompts:
            if p.id in known or seat in p.seats:
                continue
            private = (p.kind in HIDDEN_HAND_PROMPTS or p.data.get("seat_only")
                       or p.data.get("public_text"))
            across = after.mode == "conflict" and any(
                (s == after.wall_seat) != (seat == after.wall_seat) for s in p.seats)
            if (across and private) or hidden & set(strings(p.data)):
                return ("That move gave another player a choice over cards you can't see, so "
                        "it can't be undone.")
        return shown_by_events(self, before, after, events)

    def ai_value(self, state: FourthWallState, seat: str) -> float:
        """The search AI's estimate where its play-outs stop (`rules.fourth_wall.ai.win_chance`):
        the heuristic's evaluation squashed into [0, 1], or for the Conflict Wall a logistic of
        the public board; The Wall reads no hands."""
        from rules.fourth_wall.ai import win_chance

        return win_chance(state, seat)

    def ai_plans(self, state: FourthWallState, seat: str) -> list[Action]:
        """The play-out policy's pick and The Scourge's plans (`rules.fourth_wall.ai.plans`),
        weighed at every search whatever its width."""
        from rules.fourth_wall.ai import plans

        return plans(state, seat, self)

    def ai_levels(self) -> dict[str, Level]:
        """Play-outs run `rules.fourth_wall.ai.playout_action` (no look-ahead: about 0.3 ms a
        decision profiled, against several ms for the heuristic's) for `PLAYOUT_TURNS` turns,
        `horizon` decisions at most — a Close a Gate alone is five decisions, a Wall turn two
        to five. Sized by
        process CPU time per decision (2 cores shared with other work): normal 96 simulations,
        about 0.1–0.3 s (budget 0.3 s); hard 240, about 0.7–1 s (budget 1 s, cap 2 s)."""
        return {"normal": Level("normal", simulations=96, horizon=48, width=8),
                "hard": Level("hard", simulations=240, horizon=72, width=10)}

    def ai_budget(self, state: FourthWallState, seat: str, level: Level) -> Level:
        """`CRITICAL_WORLDS` times the level's worlds, two candidates more and twice the
        decisions a play-out may run (it runs `CRITICAL_TURNS` turns longer, `ai_action`), for an
        Alliance decision after An Eye Opens with `CRITICAL_GATES` or more Gates Open
        (`ai_critical`); the level as it is elsewhere. Reads only the public board, so the
        budget is the same in every world the seat cannot tell apart."""
        if not self.ai_critical(state):
            if eye_round(state):
                # Only as far: the play-outs run past the Tracker's move (`ai_action`).
                return replace(level, horizon=level.horizon * 2)
            return level
        return replace(level, simulations=round(level.simulations * CRITICAL_WORLDS[level.name]),
                       width=level.width + 2, horizon=level.horizon * 2)

    @staticmethod
    def ai_critical(state: FourthWallState) -> bool:
        """An Alliance position after An Eye Opens with `CRITICAL_GATES` or more Gates Open
        (public, so every world the seat cannot tell apart agrees)."""
        return state.mode == "alliance" and state.revealed and len(state.gates) >= CRITICAL_GATES

    def ai_action(self, state: FourthWallState, seat: str, level: str = "easy") -> Action:
        """As `Game.ai_action`; at the search levels its play-outs use the cheap policy
        (`_Playouts`), the one-ply look-ahead of `choose_ai_action` staying the root's
        blueprint. Still fair by construction: the search sees only resampled worlds."""
        searching = level_of(self, level)
        if searching is None:
            return super().ai_action(state, seat, level)
        legal = self.legal_actions(state, seat)
        if not legal:
            raise IllegalAction("Nothing to do.", rule="CORE-TURN")
        turns = PLAYOUT_TURNS[searching.name] + (CRITICAL_TURNS if self.ai_critical(state) else 0)
        if eye_round(state):
            turns = max(turns, turns_to_eye(state))
        searching = self.ai_budget(state, seat, searching)
        picked = search_action(_Playouts(self, turns), state, seat,
                               searching,
                               view_rng(self, state, seat, f"search-{level}"))
        if picked.key() not in {a.key() for a in legal}:
            return legal[0]
        from rules.fourth_wall.ai import gives_into_full_hand

        if gives_into_full_hand(state, picked):
            # A Marble handed into a full hand is discarded at once (FW-HAND-02): a few noisy
            # play-outs can favour it, never the game; the heuristic's own choice stands.
            return super().ai_action(state, seat, "easy")
        return picked

    def choose_ai_action(self, state: FourthWallState, seat: str) -> Action:
        """The built-in AI (`rules.fourth_wall.ai`): a one-ply lookahead with a heuristic
        evaluation, for either side in either mode."""
        from rules.fourth_wall.ai import choose_action

        return choose_action(state, seat, self)

    def summary(self) -> str:
        return (
            "I Am the Fourth Wall — the Investigators must close every Gate before The Wall "
            "opens five after An Eye Opens, or The Ancient One Awakens on the Turn Tracker.\n"
            "The Wall takes a turn before each Investigator (Conflict: Wrath — spend Doom to "
            "Delve, Manifest, Trigger, Destroy a Marble, its Unique Action — or Brood; Alliance: "
            "one Presence card per Doom). Investigators spend 2 Action Points (3 in The "
            "Crescendo): Search, Intervene, Utilise, Give or Trade, Regroup (2), Close a Gate "
            "(2: Marbles with a Clue, a Force and a Science), Exploit the Rift (+Doom) and "
            "their Unique Action once a turn. Your hand is your Sanity: lose every Marble and "
            "you go Insane, and a Gate opens."
        )

    def invariants(self, state: FourthWallState) -> list[str]:
        eng = Engine(state)
        pack = eng.pack
        bad: list[str] = []
        st = state
        marbles = (st.marble_deck + st.marble_discard + st.in_play + st.anchored
                   + [m for i in st.investigators for m in i.hand]
                   + [m for h in st.streets for m in h.attached]
                   + (st.peek if st.peek_deck == "marble" else []))
        if sorted(marbles) != sorted(st.marble_cards):
            c = Counter(marbles)
            dup = [m for m, n in c.items() if n > 1]
            bad.append(f"marbles not conserved: {len(marbles)} of {len(st.marble_cards)}"
                       f" (duplicates {dup})")
        horrors = (st.horror_deck + st.horror_discard + st.wall_hand + st.horror_limbo
                   + [h.id for h in st.streets]
                   + (st.peek if st.peek_deck == "horror" else []))
        if sorted(horrors) != sorted(st.horror_cards):
            bad.append(f"horrors not conserved: {len(horrors)} of {len(st.horror_cards)}")
        invs = (st.investigator_deck + st.removed_investigators
                + [i.card for i in st.investigators if i.card]
                + [c for i in st.investigators for c in i.dealt])
        if sorted(invs) != sorted(c.id for c in pack.investigators):
            bad.append("investigator cards not conserved")
        walls = [st.wall_card, *st.gates, *st.gate_supply]
        if sorted(walls) != sorted(w.id for w in pack.walls):
            bad.append("wall cards not conserved")
        if not 0 <= len(st.gates) <= eng.max_gates:
            bad.append(f"{len(st.gates)} Open Gates")
        if st.outcome is None and st.phase != "setup" and not st.gates:
            bad.append("no Gate is open but the game goes on")
        if st.doom < 0 or st.doom_deferred < 0:
            bad.append("negative Doom")
        if st.ap < 0:
            bad.append("negative Action Points")
        if any(g.ap < 0 for g in st.grants):
            bad.append("negative granted Action Points")
        if st.mode == "alliance":
            numbers = [h.street for h in st.streets]
            if None in numbers or len(set(numbers)) != len(numbers):
                bad.append("Alliance Streets hold more than one Horror or a Horror off-Street")
            if st.scourge is not None or st.wall_hand:
                bad.append("Alliance has no Scourge and no Wall hand")
            if st.target is None or not eng.has_inv(st.target):
                bad.append("the Target Token is lost")
        elif any(h.street is not None for h in st.streets):
            bad.append("Conflict Horrors do not sit on Streets")
        if st.scourge is not None and eng.on_streets(st.scourge) is None:
            bad.append("The Scourge is on a Horror that is not On the Streets")
        for inv in st.investigators:
            if inv.insane and inv.hand:
                bad.append(f"{inv.id} is Insane but holds Marbles")
        ranks = eng.layout_ranks()
        if not 0 <= st.rank_index < len(ranks):
            bad.append("Turn Tracker out of range")
        if st.outcome is None and st.rank_index == len(ranks) - 1 and st.phase != "setup":
            bad.append("The Ancient One Awakened but the game goes on")
        resting = not st.prompts and not st.queue and st.outcome is None
        if resting and st.phase != "setup":
            for inv in st.investigators:
                if not inv.insane and inv.card and len(inv.hand) > eng.hand_limit(inv):
                    bad.append(f"{inv.id} rests above the Hand Limit")
                if inv.card and not inv.insane and not inv.hand:
                    bad.append(f"{inv.id} rests with no Marble but is not Insane")
        if st.in_play and resting:
            bad.append("Marbles left in play at rest")
        return bad

    def public_secrets(self, state: FourthWallState) -> list[str]:
        """The Wall card before An Eye Opens while the game lasts (both modes; at its end the
        card is turned over), and in Conflict the Investigators'
        hands and the Wall's hand of Horrors (by instance id), and any peeked cards (§5).

        Also a pending prompt's private text (the one its ``public_text`` stands in for), and in
        Conflict a selection in progress: the names of hand Marbles a pending choice has already
        picked (Close a Gate, a Trade's offered Marble, the Marble an Intervene is Attaching)
        unless the board shows that name anyway (FW-VIS-06)."""
        eng = Engine(state)
        out: list[str] = []
        if not state.revealed and state.wall_card and state.outcome is None:
            out.append(eng.wall().name)
            out.append(f'"{state.wall_card}"')
        if state.mode == "conflict":
            out += [f'"{m}"' for i in state.investigators for m in i.hand]
            out += [f'"{h}"' for h in state.wall_hand]
        out += [f'"{c}"' for c in state.peek]
        if state.prompts:
            top = state.prompts[-1]
            public_text = top.data.get("public_text")
            if public_text and public_text != top.text:
                out.append(top.text)
            if state.mode == "conflict":
                out += self._selection_names(state, eng)
        return out

    def _selection_names(self, state: FourthWallState, eng: Engine) -> list[str]:
        """Names of the hand Marbles the pending prompt's selection holds so far, that the
        public view would not show without the prompt."""
        in_hand = {m for i in state.investigators for m in i.hand}
        args = state.prompts[-1].data.get("then", {}).get("args", {})
        picked: list[str] = []
        for key in ("selected", "mine", "marble", "theirs"):
            value = args.get(key)
            for mid in value if isinstance(value, list) else [value]:
                if isinstance(mid, str) and mid in in_hand:
                    picked.append(mid)
        if not picked:
            return []
        board = json.dumps(build_view(state.model_copy(update={"prompts": []}), None))
        return sorted({eng.marble_name(m) for m in picked} - {
            n for n in (eng.marble_name(m) for m in picked) if n in board})

    def private_summary(self, state: FourthWallState, seat: str) -> str | None:
        eng = Engine(state)
        if seat == state.wall_seat:
            w = eng.wall()
            hand = ", ".join(
                f"{eng.horror_name(h)} (Manifest {eng.horror(h).manifest.doom}"
                f"{' + Drain' if eng.horror(h).manifest.drain else ''}, Trigger "
                f"{eng.horror(h).trigger_cost})" for h in state.wall_hand) or "none"
            # FW-TRACK-02/03: in Slumber the card's Unique and Aura do nothing; a Wall player
            # reading its Aura ("Close a Gate also needs a second Clue Symbol") would otherwise
            # take a Gate closed without it for a broken rule.
            # At game over the card is shown to all, and no Eye is to open: its DM's "What you
            # held at the end" read "(secret until An Eye Opens)" (stop 70's demo).
            if state.outcome is not None:
                return f"You were The Wall: {w.name}.\n{w.text}\nYour hand of Horrors: {hand}."
            return (f"You are The Wall: {w.name}" + ("" if state.revealed else
                                                      " (secret until An Eye Opens)")
                    + f".\n{w.text}"
                    + ("" if state.revealed else
                       "\nIts Unique and Aura work once An Eye Opens, not before.")
                    + f"\nYour hand of Horrors: {hand}.")
        if seat not in state.seats:
            return None
        lines = []
        # Before the deal a chosen Investigator's empty hand is no news (stop 70's demo read
        # "The Scrounger (Hand Limit 6): no Marbles" while others still chose).
        dealing = any(i.dealt for i in state.investigators)
        for inv in state.investigators:
            mine = " (yours)" if inv.seat == seat else ""
            if inv.dealt:
                options = " or ".join(
                    f"{eng.pack.investigator(c).name} (Sanity {eng.pack.investigator(c).sanity})"
                    for c in inv.dealt)
                lines.append(f"• {capital(eng.inv_name(inv))}{mine}: choose {options}")
                continue
            if not inv.card:
                continue
            status = " — Insane" if inv.insane else (" — Regrouped" if inv.regrouped else "")
            hand = ", ".join(
                f"{eng.marble_name(m)} [{symbols_text(list(eng.marble(m).symbols))}]"
                for m in inv.hand) or ("Marbles dealt once every Investigator is chosen"
                                       if dealing else "no Marbles")
            # One bracket: "The Steadfast (yours, Hand Limit 6): …".
            yours = "yours, " if inv.seat == seat else ""
            lines.append(f"• {eng.inv_name(inv)} ({yours}Hand Limit {eng.hand_limit(inv)})"
                         f"{status}: {hand}")
        if not lines:
            return None
        head = ("The Investigators' hands (shared by the team; The Wall cannot see them):"
                if state.mode == "conflict" else "The Investigators' hands:")
        stage = STAGE_NAMES[eng.stage()]
        return head + "\n" + "\n".join(lines) + f"\nTurn Tracker: {stage}."



class _Playouts:
    """The game as `rules.core.search` sees it at the search levels: every hook is the game's
    own, except two that make a play-out a few *turns* long rather than a count of decisions.

    - `choose_ai_action` answers the search's first call — the root's blueprint, asked before
      any play-out (`search_action`) — with the full heuristic, and every later one (the
      play-outs) with `rules.fourth_wall.ai.playout_action`, many times cheaper.
    - `to_act` says nobody is awaited once a play-out is `turns` Wall or Investigator turns past
      the root, so the search scores it there with `ai_value`. A horizon counted in decisions
      rewards whatever spends decisions: measured on seed 2 (Conflict, 4 players), a Wall turn
      of three Manifests pushed the Investigators' Close a Gate past 36 decisions, and ending
      the turn at once let them win inside it — the search preferred doing nothing.
    - `legal_actions` leaves out The Wall's moves no play-out can make better: ending a Wrath
      with Doom left while it could Delve (`rules.fourth_wall.ai.without_wasted_doom`); and a
      Trade offered again to a partner who declined one this turn
      (`rules.fourth_wall.ai.without_declined_trades`).
    - `apply_in_place` does not look up again, in the legal list, the move a play-out just
      picked from that list on the same world (an identity check, so anything else, the
      root's candidates included, is still checked): about a tenth of a search's CPU.
    One is made per decision, so nothing carries from one decision to the next."""

    def __init__(self, game: FourthWall, turns: int) -> None:
        self._game = game
        self._turns = turns
        self._root: int | None = None
        # (world, its step, seat, action) of the last play-out pick taken from the legal list
        self._picked: tuple[FourthWallState, int, str, Action] | None = None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)

    def choose_ai_action(self, state: FourthWallState, seat: str) -> Action:
        if self._root is None:
            self._root = _turn_clock(state)
            return self._game.choose_ai_action(state, seat)
        from rules.fourth_wall.ai import playout_action

        legal = self._game.legal_actions(state, seat)
        picked = playout_action(state, seat, self._game, legal)
        if any(picked is a for a in legal):
            self._picked = (state, state.step, seat, picked)
        return picked

    def ai_play_in_place(self, state: FourthWallState, seat: str) -> None:
        # Here, not through `__getattr__`: the game's own would pick with the full heuristic
        # and apply with the checked `apply_in_place`, past this wrapper's.
        self.apply_in_place(state, seat, self.choose_ai_action(state, seat))

    def apply_in_place(self, state: FourthWallState, seat: str, action: Action) -> list[Event]:
        picked, self._picked = self._picked, None
        if (picked is not None and picked[0] is state and picked[1] == state.step
                and picked[2] == seat and picked[3] is action
                and self._game.result(state) is None):
            # `play_out` asks `choose_ai_action` for an awaited seat of an unfinished world
            # and applies its pick at once: legal by construction.
            events = Engine(state).apply(seat, action, known_legal=True)
            state.step += 1
            return events
        return self._game.apply_in_place(state, seat, action)

    def legal_actions(self, state: FourthWallState, seat: str) -> list[Action]:
        from rules.fourth_wall.ai import without_declined_trades, without_wasted_doom

        return without_declined_trades(
            state, without_wasted_doom(state, self._game.legal_actions(state, seat)))

    def to_act(self, state: FourthWallState) -> set[str]:
        if self._root is not None and _turn_clock(state) >= self._root + self._turns:
            return set()
        return self._game.to_act(state)


def eye_round(state: FourthWallState) -> bool:
    """Alliance, `CRITICAL_GATES` or more Gates Open in the last round of Slumber: the Turn
    Tracker reaches An Eye Opens at this round's end (FW-TRACK-03), and five Open Gates then
    lose at once, four to any Gate the next Wall turn Opens (FW-TRACK-04, FW-END-02). Public."""
    if state.mode != "alliance" or state.revealed or len(state.gates) < CRITICAL_GATES:
        return False
    ranks = Engine(state).layout_ranks()
    return state.rank_index + 1 < len(ranks) and ranks[state.rank_index + 1][1] == "eye_opens"


def turns_to_eye(state: FourthWallState) -> int:
    """The turns (`_turn_clock`) from `state` to the end of the first Wall turn of the next
    round. Stop 69: in the last round of Slumber (`eye_round`) the play-outs run that far, so
    the search sees the Tracker move and that Wall turn; they stopped three turns on, where the
    cut-off read five Gates Open in Slumber, which cost nothing yet."""
    n = max(1, len(state.investigators))
    return (state.round + 1) * n * 2 + 1 - _turn_clock(state)


def _turn_clock(state: FourthWallState) -> int:
    """Turns so far: each Investigator's turn and the Wall turn before it count one each, and
    a round's last turn is followed by the next round's first Wall turn with no gap between
    (FW-TURN-01). Stop 66: counted as eight Investigators a round, the clock jumped at every
    round's end, so a play-out from the round's last Investigator stopped at the end of that
    turn, before the Wall turn that follows (Alliance, 4 Investigators: a quarter of the
    turns searched without the Presence cards that answer them)."""
    return ((state.round * max(1, len(state.investigators)) + state.turn_index) * 2
            + (state.phase == "investigator"))

GAME = FourthWall()

__all__ = ["GAME", "FourthWall", "FourthWallOptions", "result_of"]
