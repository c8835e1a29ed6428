"""Deck helpers: a deck is a plain list whose end is the top card.

Keeping decks as lists of ids inside the pydantic state keeps them serialisable; these helpers
give the few operations games need with the reshuffle rules spelled out by the caller.
"""

from __future__ import annotations

from typing import TypeVar

from rules.core.rng import Rng

T = TypeVar("T")


def draw(deck: list[T], n: int = 1) -> list[T]:
    """Take up to `n` cards from the top; fewer if the deck runs out."""
    taken: list[T] = []
    for _ in range(n):
        if not deck:
            break
        taken.append(deck.pop())
    return taken


def draw_one(deck: list[T]) -> T | None:
    return deck.pop() if deck else None


def peek(deck: list[T], n: int) -> list[T]:
    """The top `n` cards, top first, without taking them."""
    return list(reversed(deck[-n:])) if n > 0 else []


def put_on_top(deck: list[T], cards_top_first: list[T]) -> None:
    """Return cards to the top so that `cards_top_first[0]` is drawn next."""
    deck.extend(reversed(cards_top_first))


def refill(deck: list[T], discard: list[T], rng: Rng) -> None:
    """Shuffle the discard pile into an empty deck (the common reshuffle rule)."""
    deck.extend(discard)
    discard.clear()
    rng.shuffle(deck)
