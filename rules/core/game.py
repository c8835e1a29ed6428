"""The engine contract every game follows (DESIGN.md, "The engine contract").

A game is one object subclassing `Game`. Its public methods are the contract; the base class
adds what is the same for every game: refusing a seat that is not awaited, copying the state so
`apply` never mutates its input, and stamping the state's version after each action.
"""

from __future__ import annotations

import sys
from abc import ABC, abstractmethod
from pathlib import Path
from typing import Any, ClassVar, Generic, TypeVar

from pydantic import BaseModel, ConfigDict

from rules.core.errors import IllegalAction
from rules.core.rulebook import load_rulebook
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

    def may_act(self, state: S, seat: str) -> bool:
        """Whether `seat` may act now. The awaited seats always may; a game can let others take
        optional free actions (a Plan "at any time") without the table waiting for them."""
        return seat in self.to_act(state)

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

    def prompt_text(self, state: S, seat: str) -> str | None:
        """What `seat` is being asked right now, in a sentence (None: just list the choices)."""
        return None

    def board_caption(self, state: S) -> str | None:
        """One public line the table should read with every board (who may talk now)."""
        return None

    def options_summary(self, options: Opt) -> str | None:
        """One line on what the chosen options add up to, shown on the lobby card before the
        start (e.g. a difficulty name), or None."""
        return None

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

    def seat_label(self, state: S, seat: str) -> str:
        """How the game names a seat to players (a role or character); the seat id by default."""
        return seat

    def describe(self, state: S, seat: str, action: Action) -> str:
        """A short label for a button or a choice (at most 80 characters)."""
        params = ", ".join(f"{k}={v}" for k, v in action.params.items())
        return f"{action.kind} {params}".strip()[:80]

    def default_action(self, state: S, seat: str) -> Action | None:
        """The rule-defined default when an awaited seat times out (enforced reminders)."""
        legal = self.legal_actions(state, seat)
        return legal[0] if legal else None

    def ai_action(self, state: S, seat: str) -> Action:
        """A sensible legal action for `seat` (the built-in AI). Games override this."""
        legal = self.legal_actions(state, seat)
        if not legal:
            raise IllegalAction("Nothing to do.", rule="CORE-TURN")
        return legal[0]

    def load_state(self, data: str | bytes) -> S:
        """A stored state back from JSON."""
        return self.state_model.model_validate_json(data)

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

    def rule_text(self, rule_id: str) -> str | None:
        """The text of one rule by id, or None if this game has no such rule."""
        return self.rulebook().get(rule_id.strip().upper())
