"""The engine contract every game follows (DESIGN.md, "The engine contract").

A game is one object subclassing `Game`. Its public methods are the contract; the base class
adds what is the same for every game: refusing a seat that is not awaited, copying the state so
`apply` never mutates its input, and stamping the state's version after each action.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from abc import ABC, abstractmethod
from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar, Generic, TypeVar

from pydantic import BaseModel, ConfigDict

from rules.core.ending import Ending, Part, count, moves_by_seat
from rules.core.errors import IllegalAction
from rules.core.memo import forget
from rules.core.rng import Rng
from rules.core.rulebook import load_rulebook
from rules.core.search import Level, level_of, search_action
from rules.core.types import Action, Event, Outcome, Result


class GameOptions(BaseModel):
    """Base of every game's setup options. `options_model()` is the standard game."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    mode: str


class GameState(BaseModel):
    """Fields every game state carries, so the platform can read them without knowing the game.

    `step` counts applied actions (the table service checks it against storage's version);
    `seats` are the seat ids in table order.
    """

    seats: list[str]
    step: int = 0


Opt = TypeVar("Opt", bound=GameOptions)
S = TypeVar("S", bound=GameState)


class Game(ABC, Generic[Opt, S]):
    """One game's rules. Subclasses set the class attributes and implement the hooks."""

    name: ClassVar[str]
    """Registry id, e.g. `exorcism`."""
    title: ClassVar[str]
    """Human title, e.g. `The Exorcism at the House of Monkton Falls`."""
    version: ClassVar[str]
    """Engine + content version stored with each game, for migrations on load."""
    options_model: type[Opt]
    state_model: type[S]
    modes: ClassVar[tuple[str, ...]]
    rule_prefix: ClassVar[str]
    """Rule id prefix of this game (`EX`, `FW`, `P`)."""

    # ---- the contract -------------------------------------------------------------------
    @abstractmethod
    def player_counts(self, options: Opt) -> set[int]:
        """How many seats the game takes with these options."""

    @abstractmethod
    def setup(self, seats: list[str], options: Opt, seed: int) -> S:
        """A new game. All randomness comes from `seed` through the state's RNG."""

    @abstractmethod
    def to_act(self, state: S) -> set[str]:
        """Seats whose decision the game waits for now (empty when over)."""

    @abstractmethod
    def legal_actions(self, state: S, seat: str) -> list[Action]:
        """Every legal action or prompt answer for `seat`; [] if none."""

    @abstractmethod
    def view(self, state: S, seat: str | None) -> dict[str, Any]:
        """JSON-ready view; seat None is the public view, safe for the channel."""

    @abstractmethod
    def result(self, state: S) -> Result | None:
        """How the game ended, or None while it goes on."""

    @abstractmethod
    def _apply(self, state: S, seat: str, action: Action) -> list[Event]:
        """Apply `action` to `state` IN PLACE (the base hands over a private copy).

        Raise IllegalAction before changing anything when the action is not allowed.
        """

    # ---- shared behaviour ---------------------------------------------------------------
    def setup_events(self, state: S) -> list[Event]:
        """The public lines `setup` told (who enters the house, the first turn, the clock's
        first tick), posted with the game's start: a fresh state's public log. A game whose
        setup stops at a prompt tells the rest with the answer. (Stop 63: the Exorcism's first
        turn, first tick and Lookouts and The Presence's possible scripts were never posted.)"""
        return [Event(kind="setup", text=text) for text in getattr(state, "log", [])]

    def apply(self, state: S, seat: str, action: Action) -> Outcome:
        """Apply one seat's action; never mutates `state`; raises IllegalAction if refused."""
        if self.result(state) is not None:
            raise IllegalAction("This game is over.", rule="CORE-OVER")
        if seat not in state.seats:
            raise IllegalAction("You are not seated in this game.", rule="CORE-SEAT")
        if not self.may_act(state, seat):
            raise IllegalAction(
                "The game is not waiting for you right now; "
                + self.waiting_text(state),
                rule="CORE-TURN",
            )
        work = state.model_copy(deep=True)
        events = self._apply(work, seat, action)
        work.step = state.step + 1
        return Outcome(state=work, events=events)

    def apply_in_place(self, state: S, seat: str, action: Action) -> list[Event]:
        """`apply` without the copy, for a search's private world (`rules.core.search`): the
        caller owns `state` and wants it changed. Same checks; raises IllegalAction if refused
        (then `state` may be half-changed: throw it away)."""
        if self.result(state) is not None:
            raise IllegalAction("This game is over.", rule="CORE-OVER")
        if not self.may_act(state, seat):
            raise IllegalAction("The game is not waiting for you right now.", rule="CORE-TURN")
        events = self._apply(state, seat, action)
        state.step += 1
        return events

    def ai_play_in_place(self, state: S, seat: str) -> None:
        """One play-out step of the search (`rules.core.search.play_out`): the heuristic's
        action for `seat`, an awaited seat, applied in place on the search's private world.
        Raises IllegalAction if refused. A game may override it to skip work the heuristic
        already did (The Presence: it hands the engine the legal list its pick came from)."""
        self.apply_in_place(state, seat, self.choose_ai_action(state, seat))

    def may_act(self, state: S, seat: str) -> bool:
        """Whether `seat` may act now. The awaited seats always may; a game can let others take
        optional free actions (a Plan "at any time") without the table waiting for them."""
        return seat in self.to_act(state)

    def turn_key(self, state: S) -> str:
        """Which turn the game is in (e.g. round and active seat): the bot opens a new board
        post when it changes, even for the same player (a Solo game reads as one post per turn).
        By default the state's `round`, `game_turn`, `turn_index` and `active` fields, joined."""
        return ".".join(str(getattr(state, name)) for name in TURN_FIELDS
                        if hasattr(state, name))

    def decision_id(self, state: S, seat: str) -> str:
        """Names the decision `seat` faces now, for stale-button checks.

        By default the state's step: any later action makes old buttons stale. A game where
        several seats answer one prompt at once returns the prompt's id for them instead, so one
        seat's answer does not turn the others' buttons stale.
        """
        return str(state.step)

    def public_choices(self, state: S, seat: str) -> bool:
        """Whether `seat`'s choices may be shown to the whole table as buttons.

        False when the labels would reveal something hidden (cards in a secret hand): then the
        seat reads its choices ephemerally.
        """
        return True

    def choices_all_public(self, state: S, seat: str) -> bool:
        """Whether every choice `seat` has now is a button on the board post, decided by public
        facts alone (the mode, the prompt's kind), so the thread need not send the seat to its
        DMs for them. Default False: the thread's "your private choices are in your DMs" line
        is said of every awaited seat with a summary DM, whatever it holds."""
        return False

    def public_actions(self, state: S, seat: str) -> list[Action]:
        """The part of `seat`'s legal actions that may be buttons on the public board post:
        those whose labels reveal nothing hidden (move, search, end the turn). The rest are
        read through **My choices** (an ephemeral menu). By default all of them when
        `public_choices`, else none.

        Which actions are public must not itself depend on hidden information (a "Play a card"
        button shown only while the seat holds a playable card tells everyone so): decide by
        the kind of action and the public state, never by what a hidden hand holds.
        """
        return self.legal_actions(state, seat) if self.public_choices(state, seat) else []

    def prompt_text(self, state: S, seat: str) -> str | None:
        """What `seat` is being asked right now, in a sentence (None: just list the choices)."""
        return None

    def panel_words(self, state: S, seat: str, actions: list[Action]) -> str | None:
        """`seat`'s private choices (`actions`, the buttons on its own DM) said in a few words
        for the DM's question, beside the board post's moves it names ("**Move the Ghosts** or
        **Add Darkness** with a Haunt card from your hand"). None: "choose below" alone."""
        return None

    def board_caption(self, state: S) -> str | None:
        """One public line the table should read with every board (who may talk now)."""
        return None

    def options_summary(self, options: Opt) -> str | None:
        """One line on what the chosen options add up to, shown on the lobby card before the
        start (e.g. a difficulty name), or None."""
        return None

    def effective_options(self, options: Opt) -> list[tuple[str, str]]:
        """The options as they will really be played, after presets and variants apply, in
        words: (name, value) pairs for the lobby card ("Hope Track", "side A (first game)").

        It must say what `setup` will use, never the raw field when a preset overrides it. The
        default lists each option a table may set (not the mode), yes/no for switches."""
        out: list[tuple[str, str]] = []
        for name, field in type(options).model_fields.items():
            extra = field.json_schema_extra
            if name == "mode" or (isinstance(extra, dict) and extra.get("lobby") is False):
                continue
            out.append((option_title(type(options), name),
                        option_words(getattr(options, name))))
        return out

    def option_conflicts(self, options: Opt) -> list[str]:
        """Why these options cannot make a game, one sentence each (variants that exclude each
        other, a role seat no table can have); [] when they can. The lobby refuses them before
        the game opens. The default: a game needs some player count."""
        if not self.player_counts(options):
            return [f"No table of {self.title} can be seated with these options."]
        return []

    def role_seat(self, options: Opt) -> tuple[str, str, str] | None:
        """Where the options give one seat the opposing role: (the option naming that seat's
        index in table order, the role's name, what the other seats play), e.g.
        `("ghost_seat", "the Ghost player", "an investigator")`; None when this mode has no
        opposing role. The lobby lets the creator choose their side with it."""
        return None

    def guided(self, options: Opt) -> bool:
        """Whether board posts carry `guide_text`: the `guided` option when it is set. Left
        empty, the lobby sets it at the start (on while any seated player hasn't finished a
        game of this title, `bot.tables`); a table set up without the lobby is guided for its
        first-game setup only."""
        chosen = getattr(options, "guided", None)
        if chosen is not None:
            return bool(chosen)
        return bool(getattr(options, "first_game", False))

    def guide_text(self, state: S, seat: str, private: bool = False) -> str | None:
        """Guided play: a sentence or two of advice for the decision `seat` faces now, read
        from a view and nothing more: the public view when the table reads it (the board
        post), `seat`'s own view when only `seat` does (`private=True`: its **My choices**
        and DM panel). None: no advice (also when `seat` is not awaited)."""
        if seat not in self.to_act(state):
            return None
        return self.advice(self.view(state, seat if private else None), seat)

    def advice(self, view: dict[str, Any], seat: str) -> str | None:
        """The game's advice for `seat`'s decision, from `view` alone (a pure function of the
        view: whatever the view does not show cannot leak). None: no advice."""
        return None

    def event_text(self, state: S, event: Event, names: dict[str, str]) -> str:
        """A public event's line as the thread shows it, where the table knows its players'
        names (`names`: seat -> display name, as message text carries it). The engine knows
        seats, never names: a game may name the player its line is about (the Exorcism's turn
        headers). Never a mention; unchanged by default."""
        return event.text

    def present(self, state: S, lines: list[str]) -> list[str]:
        """The public event lines of a board post as the game wants them presented (a
        quieter style, fewer lines); unchanged by default."""
        return lines

    def private_summary(self, state: S, seat: str) -> str | None:
        """A few lines on what only `seat` may know now (a hand, a secret), or None if nothing.

        Sent by DM when the game starts and after private events; `/game hand` shows it too.
        """
        return None

    def waiting_text(self, state: S) -> str:
        awaited = sorted(self.to_act(state))
        if not awaited:
            return "nobody is to act."
        return "waiting for " + ", ".join(self.seat_label(state, s) for s in awaited) + "."

    # ---- words: the whole game in sentences (screen readers, /game status, alt text) --------
    def player_name(self, state: S, seat: str, names: dict[str, str]) -> str:
        """A seat as players name it: "Margaret (the Medium)" — display name, then role.

        Falls back to the role alone when `names` lacks the seat (a bot seat, a test). Never the
        seat id, unless the game gives no role either.
        """
        label = self.seat_label(state, seat)
        name = names.get(seat)
        if not name:
            return label
        if label in (seat, name):
            return name
        return f"{name} ({label})"

    def role_words(self, state: S, seat: str) -> str:
        """A seat's role as a sentence says it after "You are": "the Ghost player", "the
        Doctor and the Detective", "the spirit" — the words `player_name` puts in brackets
        after a display name, so every game reads the same; the seat label otherwise."""
        marker = "\x00"
        named = self.player_name(state, seat, {seat: marker})
        if named.startswith(marker + " (") and named.endswith(")"):
            return named[len(marker) + 2:-1]
        return self.seat_label(state, seat)

    def plain_words(self, state: S) -> bool:
        """Whether the table asked for plain words: no emoji and no rule ids in what it reads
        (Presence's True Horror). False by default."""
        return False

    def doing_text(self, state: S, seat: str, names: dict[str, str] | None = None) -> str:
        """One sentence on what the awaited `seat` must do now, in the game's words, naming the
        player ("Margaret: take up to 3 actions in the Library, or end your turn.").

        Public-safe: it may be posted in the channel, so it never names a hidden card. The
        default says the player must choose; games override it with their turn structure.
        """
        who = self.player_name(state, seat, names or {})
        return f"{who}: make your choice."

    def status_lines(self, state: S, seat: str | None, names: dict[str, str]) -> list[str]:
        """The whole state `seat` may know, in words (seat None: exactly what the public view
        shows). Feeds `/game status`, `/game hand` and the alt text of pictures, so a player who
        cannot see the picture loses nothing. The default: who is seated, whose move it is and
        what they must do, the result when over, and the seat's private summary."""
        lines: list[str] = []
        result = self.result(state)
        if result is not None:
            lines.append(self.result_text(state, result, names))
        else:
            for s in sorted(self.to_act(state), key=state.seats.index):
                lines.append("Waiting for " + self.doing_text(state, s, names))
        lines.append(f"{self.title}.")
        lines.append("Players: " + ", ".join(self.player_name(state, s, names) for s in state.seats)
                     + ".")
        if seat is not None:
            private = self.private_summary(state, seat)
            if private:
                lines.append("Only you know: " + private)
        return lines

    def alt_text(self, state: S, names: dict[str, str]) -> str:
        """The public board picture in at most 1,024 characters (a Discord attachment
        description): the most important first, cut only between words."""
        return fit_words(self.status_lines(state, None, names), ALT_TEXT_LIMIT)

    def result_text(self, state: S, result: Result, names: dict[str, str]) -> str:
        """The game-over sentence: who won and why, naming players and their roles, in words:
        no rule id (a reason stored with one loses it)."""
        winners = [self.player_name(state, s, names) for s in result.winners]
        head = ("The game is over: " + join_words(winners) + (" win." if len(winners) > 1
                                                              else " wins.")
                if winners else "The game is over and nobody wins.")
        reason = strip_rule_ids(result.reason)
        return f"{head} {reason}".strip()

    def ending(self, state: S, result: Result,
               moves: Sequence[tuple[str | None, Sequence[Event]]],
               names: dict[str, str]) -> Ending:
        """The story of the finished game (issue #22) from its public record: `moves` holds,
        per applied action, who moved and the events it caused (private ones are ignored).
        Games tell their own (`rules/<game>/ending.py`); this is the plain telling: who won and
        lost, the stored reason, the moves made, no turning points."""
        made = moves_by_seat(moves)
        won = [self.player_name(state, s, names) for s in result.winners]
        lost = [self.player_name(state, s, names) for s in result.losers]
        head = (f"{join_words(won)} {'wins' if len(won) == 1 else 'win'}"
                + (f"; {join_words(lost)} {'loses' if len(lost) == 1 else 'lose'}."
                   if lost else ".")) if won else "Nobody wins."
        return Ending(headline=head, why=strip_rule_ids(result.reason),
                      winners=list(result.winners), losers=list(result.losers),
                      length=count(len(moves), "move"),
                      parts=[Part(s, self.player_name(state, s, names), s in result.winners,
                                  count(made.get(s, 0), "move") + ".")
                             for s in state.seats])

    def seat_label(self, state: S, seat: str) -> str:
        """How the game names a seat to players (a role or character); the seat id by default."""
        return seat

    def describe(self, state: S, seat: str, action: Action) -> str:
        """A short label for a button or a choice (at most 80 characters)."""
        params = ", ".join(f"{k}={v}" for k, v in action.params.items())
        return short_label(f"{action.kind} {params}".strip())

    def default_action(self, state: S, seat: str) -> Action | None:
        """The rule-defined default when an awaited seat times out (enforced reminders)."""
        legal = self.legal_actions(state, seat)
        return legal[0] if legal else None

    def ai_action(self, state: S, seat: str, level: str = "easy") -> Action:
        """The built-in AI's legal action for `seat`, decided only from what the seat may know.

        `level`: "easy" is the game's heuristic alone (`choose_ai_action`, about a millisecond);
        "normal" and "hard" search on top of it (`rules.core.search`, `ai_levels`), a fraction
        of a second to a second of CPU: the bot runs those in a worker process.

        Fair by construction: the game's AI (`choose_ai_action`) never sees `state` itself, only
        a state resampled from `view(state, seat)` with an RNG seeded from that same view, so
        its choice is a function of the seat's view alone (the real deck order, other hands and
        the dice to come cannot move it). Deterministic for a state, as the contract asks.
        """
        legal = self.legal_actions(state, seat)
        if not legal:
            raise IllegalAction("Nothing to do.", rule="CORE-TURN")
        searching = level_of(self, level)
        if searching is not None and self.ai_searchable(state, seat, None):
            searching = self.ai_budget(state, seat, searching)
            # Salted by the settings' own name: a decision a game gives another level's
            # settings (`ai_budget`) plays that level's very search, world for world.
            picked = search_action(self, state, seat, searching,
                                   view_rng(self, state, seat, f"search-{searching.name}"))
        else:
            seen = self.resample(state, seat, view_rng(self, state, seat, "ai"))
            picked = self.choose_ai_action(seen, seat)
        keys = {a.key() for a in legal}
        # The seat's legal choices are part of its view, so they are the same in every resample;
        # should a game ever break that, stay legal with a choice the seat can see.
        return picked if picked.key() in keys else legal[0]

    def choose_ai_action(self, state: S, seat: str) -> Action:
        """The game's AI: a sensible legal action for `seat`. Called by `ai_action` on a state
        resampled from the seat's view, never on the real one. Games override this."""
        legal = self.legal_actions(state, seat)
        if not legal:
            raise IllegalAction("Nothing to do.", rule="CORE-TURN")
        return legal[0]

    def ai_value(self, state: S, seat: str) -> float:
        """How good an unfinished `state` looks for `seat`, in [0, 1] (1/2: even), where the
        search AI's play-outs stop. Read only what `seat` may know: the search calls it on a
        world resampled from the seat's view, but a value that reads other hands would still
        steer by cards the seat only imagines. The default knows nothing: 1/2."""
        return 0.5

    def ai_searchable(self, state: S, seat: str, action: Action | None) -> bool:
        """Whether the search may weigh `action` against the heuristic's pick (`action` None:
        whether this decision is searched at all). A game answers False where an override
        could loop: an action undone at no cost (a declined or cancelled offer that gives the
        Action back) brings the very same decision round again, and the same view always gets
        the same answer. The default: everything is searched. For an action, `state` is the
        search's resampled world (the blueprint's): read what the seat may know."""
        return True

    def ai_budget(self, state: S, seat: str, level: Level) -> Level:
        """The search settings for this one decision: a game may spend more worlds (or ask a
        surer edge) where a decision shapes the game and fewer where it does not, within the
        level's budget per decision on the whole. Read only what `seat` may know (the
        decision's kind, its own hand, public tracks): the budget is part of the choice. The
        default: the level as it is."""
        return level

    def ai_plans(self, state: S, seat: str) -> list[Action]:
        """Actions the search must weigh whatever `Level.width` leaves out, best first (the
        heuristic's own pick is always weighed). Called on a state resampled from `seat`'s
        view, as `choose_ai_action` is. The default: none."""
        return []

    def ai_turn(self, state: S) -> int | None:
        """The game's public turn counter where the search's play-outs may stop
        (`Level.turns`): it must grow by one at a point of the game that is the same for every
        candidate (a turn's first own decision, say). None: the game has no such counter
        (the default), play-outs stop after `Level.horizon` decisions."""
        return None

    def ai_levels(self) -> dict[str, Level]:
        """The search's settings per level ("normal", "hard"; "easy" is the heuristic alone),
        sized so a decision costs about 0.3 s ("normal") and 1 s ("hard") of CPU."""
        return {"normal": Level("normal", simulations=24, horizon=12),
                "hard": Level("hard", simulations=80, horizon=20)}

    def resample(self, state: S, seat: str | None, rng: Rng) -> S:
        """A state `seat` cannot tell from `state` (None: the public), with everything hidden
        from it dealt anew at random from what it may know.

        The contract (`tests/rules/test_resample.py` checks it for every game and mode):
        - `view(result, seat)` and `view(result, None)` equal those of `state` (as JSON), the
          seat's legal actions and `to_act` are the same, and `invariants(result)` is empty;
        - everything hidden from `seat` is redrawn: deck orders, other seats' hands, face-down
          cards, bag contents, secret cards, and every RNG inside the state (the dice to come);
        - it depends only on what `seat` may know and on `rng`: two states with the same view
          give the same result for the same `rng` (so an AI deciding on it is fair);
        - `state` itself is never changed.
        Used by the AI (`ai_action`) and by undo, which refuses a move whose outcome differs
        between `state` and its resamples (`rules.core.hidden.hidden_dependence`).
        """
        result = self._resample(state, seat, rng)
        forget(result)  # worked out half-way through the resample: never given back
        return result

    def _resample(self, state: S, seat: str | None, rng: Rng) -> S:
        """The game's resampling (see `resample`). The default suits a game with nothing
        hidden: a copy."""
        return state.model_copy(deep=True)

    def load_state(self, data: str | bytes) -> S:
        """A stored state back from JSON."""
        return self.state_model.model_validate_json(data)

    def replay_rulings(self, fresh: S, current: S) -> S:
        """`fresh` (from `setup`, for replaying a stored game's log) played under the rulings
        `current` (that game's stored state) was: a ruling that changes what an action leads
        to is a state flag that new games set and older stored states lack, so their logs,
        recorded under the old ruling, replay exactly. By default: no such ruling."""
        return fresh

    def summary(self) -> str:
        """A few lines on what the game is and how a turn goes (for `/game rules`)."""
        return self.title

    def invariants(self, state: S) -> list[str]:
        """Broken invariants of `state` (cards conserved, counters in range); [] when all hold.

        The contract suite checks this after every random move.
        """
        return []

    def public_secrets(self, state: S) -> list[str]:
        """Strings that are hidden right now and must never appear in the public view.

        The contract suite searches the JSON of `view(state, None)` for each of them.
        """
        return []

    def rulebook(self) -> dict[str, str]:
        """Every rule id of this game and its text, from the bundled `rules.md` checklist."""
        module = sys.modules[type(self).__module__]
        return load_rulebook(Path(module.__file__ or ".").parent / "rules.md")

    def mode_words(self, mode: str) -> str:
        """A mode as players read it in the lobby ("One vs All", never "one_vs_all")."""
        words: dict[str, str] = getattr(self, "MODE_WORDS", {})
        return words.get(mode) or mode.replace("_", " ").capitalize()

    def glossary(self) -> dict[str, str]:
        """The game's named things a player may look up by name (rooms, cards, characters):
        name -> what it is and does, in the words of its card. `/game rules` finds these by
        name before the rules that merely mention them."""
        return {}

    def rule_text(self, rule_id: str) -> str | None:
        """The text of one rule by id, or None if this game has no such rule."""
        return self.rulebook().get(rule_id.strip().upper())


ALT_TEXT_LIMIT = 1024
"""Discord's limit on an attachment's description."""

_RULE_ID = re.compile(r"\s*[\(\[]?\b(?:[A-Z]{1,4}-)+[A-Z0-9]+(?:-[A-Z0-9]+)*\b[\)\]]?")


def strip_rule_ids(text: str) -> str:
    """`text` without rule ids such as "(P-UPKEEP-02)" (for tables that asked for plain words)."""
    return re.sub(r"\s+([.,;:!?])", r"\1", _RULE_ID.sub("", text)).strip()


TURN_FIELDS = ("round", "game_turn", "turn_index", "active")
"""The state fields `Game.turn_key` reads by default."""


def option_title(model: type[BaseModel], name: str) -> str:
    """An option's name as players read it: its `title` when the model gives one ("Doom per
    Wrath" for `wrath_doom`), the name its description opens with when that is the option's
    own name ("True Horror: …" for `true_horror`), else the name in words."""
    plain = name.replace("_", " ")
    field = model.model_fields.get(name)
    if field is not None and field.title:
        return field.title
    head = (field.description or "").split(":", 1)[0] if field is not None else ""
    if head.lower() == plain.lower():
        return head
    return plain.capitalize()


def option_words(value: Any) -> str:
    """An option's value as players read it: yes/no, "not set" for an empty value."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "not set"
    return str(value)


def plural(n: int, noun: str, many: str | None = None) -> str:
    """`noun` for a count of `n`: "card" for 1, "cards" otherwise (`many` when it is not
    `noun` + "s"). Players read "2 cards", never "2 card(s)"."""
    return noun if n == 1 else (many or noun + "s")


def counted(n: int, noun: str, many: str | None = None) -> str:
    """`n` of `noun` as a sentence says it: "2 action cards", "1 action card", and for none
    "no action card" (a "0 action cards" reads as a count the game forgot to fill)."""
    return f"no {noun}" if n == 0 else f"{n} {plural(n, noun, many)}"


def score_of(n: int, target: int, noun: str) -> str:
    """A score toward its target: "6 of 24 points", and past it "27 points (24 needed)" ("27 of
    24" reads as a slip, stop 63's demo)."""
    if n > target:
        return f"{n} {plural(n, noun)} ({target} needed)"
    return f"{n} of {target} {plural(target, noun)}"


def a_noun(noun: str) -> str:
    """`noun` with its indefinite article: "a Key", "an Occult Item"."""
    return ("an " if noun[:1].lower() in "aeiou" else "a ") + noun


# A name that ends in its own letter or number ("Task Room A", "Room 101") is a proper name:
# it takes no article, as "Task Room A" never reads "the Task Room A". What follows in
# brackets (a cell's "(row 2, column 4)") is not part of the name.
_OWN_MARK = re.compile(r"\s(?:[A-Z]|[0-9]+)$")


def the_name(name: str, *, capital: bool = False) -> str:
    """`name` with "the" where English puts it: "the Weapon Room", "the Locked Room (row 2,
    column 4)", but "Task Room A". `capital`: at a sentence's start, "The Weapon Room"."""
    if _OWN_MARK.search(name.split(" (", 1)[0]):
        return name
    return ("The " if capital else "the ") + name


def join_words(items: list[str], last: str = "and") -> str:
    """"a", "a and b", "a, b and c"."""
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + f" {last} " + items[-1]


LABEL_LIMIT = 80
"""Discord's limit on a button's label (a select option's is 100)."""

_SENTENCE_END = re.compile(r"(?<=[.!?…])\s+(?=[^a-z\s])")


def short_label(text: str, limit: int = LABEL_LIMIT) -> str:
    """`text` as a label of at most `limit` characters: whole when it fits, else cut at the
    last word that fits and ended with "…", so a player sees that something was left out."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text[:limit].rsplit(" ", 1)[0] if " " in text[:limit] else text[:limit - 1]
    cut = cut[:limit - 1].rstrip(" ,;:–—-(")
    return cut + "…"


def sentences(text: str) -> list[str]:
    """`text` split into its sentences (at ". ", "! ", "? " before a capital, a digit or a
    symbol), each keeping its own end."""
    return [s for s in _SENTENCE_END.split(" ".join(text.split())) if s]


def ends_a_sentence(text: str) -> bool:
    """Whether `text` ends as a sentence does (".", "!", "?", or a closing quote or bracket
    after one)."""
    return bool(re.search(r"[.!?](?:[\"')\]]*)$", text.strip()))


def fit_words(lines: list[str], limit: int) -> str:
    """Join `lines` (most important first) into at most `limit` characters without ever
    cutting a sentence: each line's sentences are taken whole while they fit; a line whose
    next sentence does not fit is left there (its first sentences kept), and the lines after
    it are still tried, so a short lower line may fill the room a long one left. A line that
    does not end a sentence gets its full stop."""
    out = ""
    for line in lines:
        line = line.strip()
        if not line:
            continue
        if not ends_a_sentence(line):
            line = line.rstrip(" ,;:") + "."
        for sentence in sentences(line):
            if not ends_a_sentence(sentence):
                sentence = sentence.rstrip(" ,;:") + "."
            candidate = f"{out} {sentence}" if out else sentence
            if len(candidate) > limit:
                break
            out = candidate
    return out


def guided_words(options: GameOptions) -> str:
    """The lobby's "Guided" line for options that do not know who sits at the table: the
    lobby says more once it knows (`cogs.utils.guide.guided_line`)."""
    chosen = getattr(options, "guided", None)
    if chosen is not None:
        return "yes" if chosen else "no"
    if getattr(options, "first_game", False):
        return "yes (first game)"
    return "on while anyone seated hasn't finished a game of this title"


WORDS_KEYS = frozenset({"log", "text", "aura_text", "tell"})
"""The view's keys that hold words, not facts: the public log's sentences and every prompt's,
card's or ability's text (and a Fourth Wall Horror's `aura_text`, what a Street's Aura adds to
its Defeat Cost, told from its Street and cost, and its `tell`, which of its name it is, told
from the order On the Streets). Each says in words what other keys (kinds,
ids, counts) hold."""


DERIVED_KEYS = frozenset({"presence_cards"})
"""The view's keys that hold a number worked out from its other facts for the pictures (a
Fourth Wall Alliance board's Presence cards to come): no new fact, so left out of the facts
as words are, and a seed's worlds stay as they were dealt."""


def _facts(value: Any) -> Any:
    """`value` (a view or a part of one) without its words (`WORDS_KEYS`) and what it works
    out from its facts (`DERIVED_KEYS`)."""
    if isinstance(value, dict):
        return {k: _facts(v) for k, v in value.items()
                if k not in WORDS_KEYS and k not in DERIVED_KEYS}
    if isinstance(value, list):
        return [_facts(v) for v in value]
    return value


def seen_position(game: Game[Any, Any], state: GameState, seat: str) -> str:
    """Where the game stands as `seat` sees it, as text: its view's facts (`_facts`) without
    the move counter (`step`) and the open prompt's id, which every move renews. Two moves
    apart, the same text says the seat is back where it was (the bot's AI loop guard)."""
    seen = _facts(game.view(state, seat))
    seen.pop("step", None)
    if isinstance(seen.get("prompt"), dict):
        seen["prompt"].pop("id", None)
    return json.dumps(seen, sort_keys=True, default=str)


def view_rng(game: Game[Any, Any], state: GameState, seat: str | None, salt: str) -> Rng:
    """An RNG seeded from `seat`'s view of `state` (and `salt`) alone: whatever is hidden from
    the seat, the same view gives the same numbers. Seeded from the view's facts, not its
    words (`WORDS_KEYS`): an event or a prompt worded anew does not re-deal every search's
    worlds, so an AI measured on a seed plays that seed's game again after a change of words
    (stop 58 re-dealt them all that way). A subset of the view, so still nothing hidden."""
    seen = json.dumps(_facts(game.view(state, seat)), sort_keys=True, default=str)
    digest = hashlib.sha256(f"{salt}|{seat}|{seen}".encode()).digest()
    return Rng.from_seed(int.from_bytes(digest[:8], "big"))
