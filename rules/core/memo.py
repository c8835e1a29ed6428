"""What one game state yields, worked out once while the bot holds that state (issue #15).

A move's board post asks the same state for the same things several times: the public view for
the picture, again for its alt text, again for each awaited seat's "what to do now" line in
the post and on the turn card. Each is a pure function of the state, so the answer is kept
with the state object that gave it and given back while that same object is asked again.

Off unless `enable()` is called: only a process that never changes a state in place may turn
it on. The bot is one (its states are shared through its state cache and never mutated:
`Game.apply` works on a copy and returns a new state), so `python -m bot run` enables it;
tests that build a state and then edit it by hand do not. An entry also holds the state's
`step`: `Game.apply` stamps its working copy's step once the action is applied, so what was
worked out from that copy half-way through is never given back for the finished state.

Callers get the remembered object itself: what is remembered must be read, never changed.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

T = TypeVar("T")

KEPT = 16
"""States remembered per thread, the most recently asked first: a move asks about one or two,
and every game in flight at once has its own."""

_enabled = False


class _Entries(threading.local):
    def __init__(self) -> None:
        # id(state) -> (the state itself, its step, what was worked out from it). Holding the
        # state keeps its id from being reused by another object while the entry lives.
        self.entries: OrderedDict[int, tuple[Any, int, dict[Hashable, Any]]] = OrderedDict()


_local = _Entries()


def enable(on: bool = True) -> None:
    """Remember results per state from now on (or stop, and forget them all)."""
    global _enabled
    _enabled = on
    _local.entries.clear()


def enabled() -> bool:
    return _enabled


def remembered(state: Any, key: Hashable, compute: Callable[[], T]) -> T:
    """`compute()`, or what it gave last time for this same state object and `key`."""
    if not _enabled:
        return compute()
    entries = _local.entries
    entry = entries.get(id(state))
    if entry is None or entry[0] is not state or entry[1] != state.step:
        results: dict[Hashable, Any] = {}
        entries[id(state)] = (state, state.step, results)
        entries.move_to_end(id(state))
        while len(entries) > KEPT:
            entries.popitem(last=False)
    else:
        results = entry[2]
        entries.move_to_end(id(state))
    try:
        value: T = results[key]
    except KeyError:
        value = results[key] = compute()
    return value


def forget(state: Any) -> None:
    """Drop what was remembered about `state` (it is about to change, or has changed)."""
    if _enabled:
        _local.entries.pop(id(state), None)
