"""Whether a move's outcome depends on what its player cannot see (issue #21).

Undo must never be an oracle: a player who could take back a move that drew, peeked or revealed
would read a hidden card and play on as if they had not. Which events a move happened to emit
says too little (a turn end that reveals a Haunt card emits it under another name), so the
question is asked of the outcome itself: the move is applied to `state` and to states
resampled from its player's view (`Game.resample`: the same for that player, everything hidden
dealt anew). If any seat, or the table, sees the move change anything differently in one of
them, the outcome depends on something hidden from the mover, and the move showed it.

The same resampling makes the AI fair (`Game.ai_action`): `view_rng` seeds it from the view
alone, so the AI's choice is a function of what its seat may know.
"""

from __future__ import annotations

import json
from typing import Any

from rules.core.errors import IllegalAction
from rules.core.game import Game, GameState, view_rng
from rules.core.rng import Rng
from rules.core.types import Action, Event

UNDO_SAMPLES = 8
"""Resampled states an undo is checked against. A draw from a deck of two different cards
shows in a resample half the time, so eight miss it one time in 256; decks of more kinds are
caught more surely. The tests check every move undo allows against many more."""

_MISSING = "\x00missing"


def flatten(obj: Any, prefix: str = "") -> dict[str, Any]:
    """A JSON-ready value as {path: leaf}: lists by index, dicts by key."""
    out: dict[str, Any] = {}
    if isinstance(obj, dict):
        if not obj:
            out[prefix] = "{}"
        for key, value in obj.items():
            out.update(flatten(value, f"{prefix}/{key}"))
    elif isinstance(obj, (list, tuple)):
        if not obj:
            out[prefix] = "[]"
        for i, value in enumerate(obj):
            out.update(flatten(value, f"{prefix}[{i}]"))
    else:
        out[prefix] = obj
    return out


def view_change(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """What changed from one view to the next: each changed path and its new value.

    The same as comparing `flatten(before)` with `flatten(after)` path by path, but it only
    walks into the parts that differ: undo compares many views that are mostly the same."""
    out: dict[str, Any] = {}
    _changes(before, after, "", out)
    return out


def _changes(old: Any, new: Any, prefix: str, out: dict[str, Any]) -> None:
    if old == new:
        return
    if isinstance(old, dict) and isinstance(new, dict) and old and new:
        for key in old.keys() | new.keys():
            if key in old and key in new:
                _changes(old[key], new[key], f"{prefix}/{key}", out)
            else:
                _leaves(old.get(key, _MISSING), new.get(key, _MISSING), f"{prefix}/{key}", out)
        return
    if isinstance(old, (list, tuple)) and isinstance(new, (list, tuple)) and old and new:
        for i in range(max(len(old), len(new))):
            if i < len(old) and i < len(new):
                _changes(old[i], new[i], f"{prefix}[{i}]", out)
            else:
                _leaves(old[i] if i < len(old) else _MISSING,
                        new[i] if i < len(new) else _MISSING, f"{prefix}[{i}]", out)
        return
    _leaves(old, new, prefix, out)


def _leaves(old: Any, new: Any, prefix: str, out: dict[str, Any]) -> None:
    """Compare two parts leaf by leaf (either may be missing)."""
    was = {} if old is _MISSING else flatten(old, prefix)
    now = {} if new is _MISSING else flatten(new, prefix)
    for path in was.keys() | now.keys():
        if was.get(path, _MISSING) != now.get(path, _MISSING):
            out[path] = now.get(path, _MISSING)


def seen_outcome(game: Game[Any, Any], before: GameState, after: GameState,
                 events: list[Event], observer: str | None) -> str:
    """The move's outcome as `observer` (None: the table) sees it: how its view changed and
    the events it may read, as one comparable string."""
    change = view_change(game.view(before, observer), game.view(after, observer))
    told = [(e.kind, e.text) for e in events if e.visible_to(observer)]
    return json.dumps([change, told, game.result(after) is not None], sort_keys=True,
                      default=str)


def hidden_dependence(game: Game[Any, Any], state: GameState, seat: str, action: Action,
                      samples: int = UNDO_SAMPLES, salt: str = "undo") -> str | None:
    """Who would see `action`'s outcome differ had what `seat` cannot see been otherwise:
    "you" (the mover), "the table" or "another player"; None when nobody does in `samples`
    states resampled from the seat's view. `state` is the state before the move."""
    outcome = game.apply(state, seat, action)
    observers: list[str | None] = [seat, None, *(s for s in state.seats if s != seat)]
    real = {o: seen_outcome(game, state, outcome.state, list(outcome.events), o)
            for o in observers}
    rng = view_rng(game, state, seat, salt)
    for _ in range(samples):
        other = game.resample(state, seat, Rng.from_seed(rng.next_u64()))
        try:
            moved = game.apply(other, seat, action)
        except IllegalAction:
            return "you"  # even whether the move is legal turned on something hidden
        for o in observers:
            if seen_outcome(game, other, moved.state, list(moved.events), o) != real[o]:
                return "you" if o == seat else "the table" if o is None else "another player"
    return None


def shown_by_events(game: Game[Any, Any], before: GameState, after: GameState,
                    events: list[Event]) -> str | None:
    """Why a move's own events showed something hidden, in a sentence for its player (undo's
    checks on what a move did emit, beside `hidden_dependence` on what it could): a reveal
    event, a secret of `before` in the public view after, or a private event. None if none."""
    if any(e.data.get("reveal") or "reveal" in e.kind for e in events):
        return "That move revealed something to the table, so it can't be undone."
    public_after = json.dumps(game.view(after, None), sort_keys=True)
    if any(secret in public_after for secret in game.public_secrets(before)):
        return "That move revealed something hidden to the table, so it can't be undone."
    if any(not e.public for e in events):
        return "That move revealed hidden information, so it can't be undone."
    return None
