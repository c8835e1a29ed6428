"""Guided play on Discord (issue #22.6): whether a table plays guided, the advice lines under a
board post, and what the lobby tells newcomers (guided play, the first-game setup, a gentle
seat).

One meaning of "guided": the `guided` option. Chosen (`/game new guided:`, the lobby's
Variants menu) it is what was chosen; left empty, the start settles it
(`TableService._settle_guided`): on while any seated person has not finished a game of this
title, or for a first-game setup. The lobby card says that same thing before the start. The
advice itself is each game's (`Game.guide_text`, read from a view alone).
"""

from __future__ import annotations

from typing import Any

from bot.storage import GameRecord
from rules.core.game import Game

GUIDED_NAME = "Guided"
"""The lobby card's name for the option's line (the games' `effective_options` use it too)."""


def is_guided(record: GameRecord, game: Game[Any, Any]) -> bool:
    """Whether the table plays guided (the `guided` option, settled at the start)."""
    try:
        return game.guided(game.options_model.model_validate(record.options))
    except ValueError:
        return False


def guide_lines(record: GameRecord, game: Game[Any, Any], state: Any, awaited: list[str],
                users: dict[str, int | None], plain: bool) -> list[str]:
    """Guided play: advice for each awaited person's decision, under the board. Public-safe:
    `guide_text` without `private` reads the public view only. None for AI seats; a line two
    seats share (a prompt they answer together) is said once."""
    if not is_guided(record, game):
        return []
    lines = []
    for seat in awaited:
        if not users.get(seat):
            continue
        hint = game.guide_text(state, seat)
        if hint:
            lines.append(hint if plain else f"💡 {hint}")
    return list(dict.fromkeys(lines))


def guided_default(game: Game[Any, Any], options: Any, newcomers: list[int]) -> bool:
    """What the start will settle `guided` to when it is left empty (the lobby's menus show
    it): on for a newcomer at the table or a first-game setup."""
    chosen = getattr(options, "guided", None)
    if chosen is not None:
        return bool(chosen)
    return bool(newcomers) or game.guided(options)


def guided_line(game: Game[Any, Any], options: Any, newcomers: list[int]) -> str:
    """The lobby card's "Guided" line: the answer the start will settle, and why."""
    chosen = getattr(options, "guided", None)
    if chosen is not None:
        return f"{GUIDED_NAME}: {'yes' if chosen else 'no'} (chosen)"
    if newcomers:
        who = ", ".join(f"<@{u}>" for u in newcomers[:5]) + (" …" if len(newcomers) > 5 else "")
        return (f"{GUIDED_NAME}: yes — a first game of {game.title} for {who} (on while anyone "
                "seated hasn't finished one)")
    if game.guided(options):
        return f"{GUIDED_NAME}: yes (first game)"
    return f"{GUIDED_NAME}: no — everyone seated has finished a game of {game.title}"


def with_guided_line(lines: list[str], line: str) -> list[str]:
    """The engine's option lines with its "Guided" line replaced by the table's own."""
    prefix = f"{GUIDED_NAME}:"
    out = [line if text.startswith(prefix) else text for text in lines]
    return out if line in out else [*out, line]


def role_holder(game: Game[Any, Any], options: Any, seated: list[int | None]) -> int | None:
    """Who (a user id; None for an AI or nobody yet) sits in the opposing role's seat, where
    the mode has one: `seated` is the lobby's users in table order."""
    role = game.role_seat(options)
    if role is None:
        return None
    index = getattr(options, role[0])
    return seated[index] if index < len(seated) else None


def _part(role: str) -> str:
    """The part a player plays, from a role's name: "an Investigator player" → "an
    Investigator", "the Wall player" → "the Wall"."""
    return role.removesuffix(" player")


def newcomer_tips(game: Game[Any, Any], options: Any, in_role: bool) -> list[str]:
    """What the lobby suggests to a table with a newcomer: the first-game setup where the game
    has one and it is off, and the gentler side when a newcomer sits in the opposing role
    (`in_role`)."""
    tips = []
    if "first_game" in game.options_model.model_fields and not options.first_game:
        tips.append("the creator can turn on **First game** in the Variants menu: the "
                    "learning setup, easier to win")
    role = game.role_seat(options)
    if role is not None and in_role:
        # One plays an Investigator, not "an Investigator player" (stop 65's lobby).
        tips.append(f"a newcomer would rather play {_part(role[2])} than {_part(role[1])}, "
                    "the harder side to learn (the creator's **Your seat** menu)")
    tips.append("every board post will say what your choice is about (guided play)")
    return tips


def newcomer_text(game: Game[Any, Any], options: Any, in_role: bool) -> str:
    """The lobby card's note and a newcomer's join answer: the tips in one paragraph."""
    tips = "; ".join(newcomer_tips(game, options, in_role))
    return f"New to {game.title}? {tips[:1].upper()}{tips[1:]}."
