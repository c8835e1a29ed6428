"""The value types of the engine contract: Action, Prompt, Event (with audience), Outcome, Result.

They are pydantic models so they round-trip through JSON (storage keeps actions and states as
JSON) and frozen so an engine cannot change one it was handed.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cached_property
from typing import Any, Literal, Self

from pydantic import BaseModel, ConfigDict, Field

JSONScalar = str | int | bool | None
ParamValue = JSONScalar | list[JSONScalar]

PUBLIC: Literal["public"] = "public"
Audience = Literal["public"] | list[str]
"""Who may see an event: everyone at the table (`"public"`) or exactly these seats."""


class Action(BaseModel):
    """One decision by one seat: a move, a prompt answer, a pass.

    `kind` names it in the game's own words (`move`, `purify`, `play_plan`); `params` are small
    JSON scalars so an action fits a Discord custom id and compares by value.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: str
    params: dict[str, ParamValue] = Field(default_factory=dict)

    def key(self) -> str:
        """A canonical string for this action: equal actions give equal keys."""
        return self._canonical

    @cached_property
    def _canonical(self) -> str:
        # Cached: the search compares and hashes the same actions thousands of times a
        # decision (a fresh json.dumps each time was an eighth of a Presence search's CPU).
        # Safe because an Action is frozen and its params are never changed in place.
        return json.dumps([self.kind, self.params], sort_keys=True, separators=(",", ":"))

    def model_copy(self, *, update: Mapping[str, Any] | None = None,
                   deep: bool = False) -> Self:
        """A copy; one with changed fields computes its own key (the cache is not carried)."""
        copied = super().model_copy(update=update, deep=deep)
        if update:
            copied.__dict__.pop("_canonical", None)
        return copied

    def __hash__(self) -> int:
        # Not the key's hash: deduplicating legal actions hashes fresh Actions by the thousand,
        # and this is several times cheaper than writing their JSON. Equal actions (`__eq__`)
        # have equal params, so equal hashes. Not cached: a str's hash differs from process to
        # process, and an Action is pickled to and from the AI's worker processes.
        return hash((self.kind, frozenset((k, tuple(v) if isinstance(v, list) else v)
                                          for k, v in self.params.items())))

    def __eq__(self, other: object) -> bool:
        # By value, without building keys: `action in legal` compares against every legal
        # action, thousands of times a search. Equal exactly when the keys are (True and 1
        # are equal in a dict, not in a key, so the types are compared too).
        return (isinstance(other, Action) and self.kind == other.kind
                and self.params == other.params
                and all(_same_json(v, other.params[k]) for k, v in self.params.items()))

    def p(self, name: str, default: Any = None) -> Any:
        """A parameter by name (engines read params through this for brevity)."""
        return self.params.get(name, default)


def _same_json(a: ParamValue, b: ParamValue) -> bool:
    """Whether two equal parameter values also write the same JSON (their types match)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, list) and isinstance(b, list):
        return all(type(x) is type(y) for x, y in zip(a, b, strict=True))
    return True


def act(kind: str, **params: ParamValue) -> Action:
    """Shorthand to build an Action: `act("move", to="r2c3")`."""
    return Action(kind=kind, params=dict(params))


class Prompt(BaseModel):
    """A decision the game is waiting for in the middle of an effect.

    The state holds pending prompts; `seats` are those who must answer (several seats may
    answer one prompt at once); `legal_actions` lists the answers.
    """

    model_config = ConfigDict(extra="forbid")

    id: str
    kind: str
    seats: list[str]
    text: str
    data: dict[str, Any] = Field(default_factory=dict)


class Event(BaseModel):
    """Something that happened, told as a sentence, with who may see it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: str
    text: str
    audience: Audience = PUBLIC
    data: dict[str, Any] = Field(default_factory=dict)

    @property
    def public(self) -> bool:
        return self.audience == PUBLIC

    def visible_to(self, seat: str | None) -> bool:
        """Whether `seat` (None = the public channel) may see this event."""
        if self.audience == PUBLIC:
            return True
        return seat is not None and seat in self.audience


class Result(BaseModel):
    """How a finished game ended."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    winners: list[str]
    losers: list[str]
    reason: str


class Outcome(BaseModel):
    """What `apply` returns: the new state and the events it produced, in order."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    state: Any
    events: list[Event] = Field(default_factory=list)
