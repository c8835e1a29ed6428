"""The one error a player can cause: an illegal action, with the rule it breaks."""

from __future__ import annotations


class IllegalAction(ValueError):
    """An action the rules do not allow right now.

    `str(err)` is a sentence a player can read ("You have no Key to unlock this room");
    `err.rule` names the rule id it enforces ("EX-ACT-07"), so messages and tests can cite it.
    Raising it guarantees nothing changed: engines validate before they touch a copy.
    """

    def __init__(self, message: str, rule: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.rule = rule

    def __str__(self) -> str:
        return self.message
