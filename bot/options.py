"""Game options as players type them: `rounds=3 hard=yes`, validated with the game's model.

The lobby shows each option with its description and allowed range; a mistake names the
option and what it accepts.
"""

from __future__ import annotations

import shlex
from typing import Any

from pydantic import BaseModel, ValidationError
from pydantic.fields import FieldInfo

from rules.core.game import Game


class OptionsError(ValueError):
    """Options a player typed that the game does not accept; the text says what would."""


def describe_field(model: type[BaseModel], name: str) -> str:
    """`rounds` (int, 1–5, default 3): Rounds to play."""
    field = model.model_fields[name]
    bits = []
    lo = hi = None
    for meta in field.metadata:
        lo = getattr(meta, "ge", lo) if getattr(meta, "ge", None) is not None else lo
        hi = getattr(meta, "le", hi) if getattr(meta, "le", None) is not None else hi
    ann = field.annotation
    args = getattr(ann, "__args__", None)
    if args and all(isinstance(a, str) for a in args):
        bits.append(" | ".join(args))
    elif ann is bool:
        bits.append("yes/no")
    elif ann is not None:
        bits.append(getattr(ann, "__name__", str(ann)))
    if lo is not None or hi is not None:
        bits.append(f"{lo if lo is not None else ''}–{hi if hi is not None else ''}")
    bits.append(f"default {field.default}")
    desc = f": {field.description}" if field.description else ""
    return f"`{name}` ({', '.join(bits)}){desc}"


def lobby_allows(field: FieldInfo) -> bool:
    """False for options only whoever runs the bot may set (`json_schema_extra={"lobby": False}`,
    e.g. a folder on the bot's machine)."""
    extra = field.json_schema_extra
    return not (isinstance(extra, dict) and extra.get("lobby") is False)


def option_fields(game: Game[Any, Any]) -> list[str]:
    """Every option a table may set besides the mode."""
    return [n for n, f in game.options_model.model_fields.items()
            if n != "mode" and lobby_allows(f)]


def parse_options(game: Game[Any, Any], mode: str | None, text: str | None) -> dict[str, Any]:
    """Parse `key=value ...` into a validated options dict (JSON-ready)."""
    raw: dict[str, Any] = {}
    if mode:
        raw["mode"] = mode
    try:
        parts = shlex.split(text or "")
    except ValueError as exc:
        raise OptionsError(
            f"I couldn't read those options ({exc}). Write them as key=value.") from None
    fields = game.options_model.model_fields
    for part in parts:
        key, sep, value = part.partition("=")
        key = key.strip().lower().replace("-", "_")
        if not sep or not key:
            raise OptionsError(f"`{part}` is not key=value. Options for {game.title}: "
                               + ", ".join(option_fields(game)))
        if key not in fields or key == "mode" or not lobby_allows(fields[key]):
            known = ", ".join(option_fields(game)) or "none besides the mode"
            raise OptionsError(f"{game.title} has no option `{key}`. Its options: {known}.")
        raw[key] = {"yes": True, "no": False, "true": True, "false": False}.get(
            value.lower(), value)
    if "mode" in raw and raw["mode"] not in game.modes:
        raise OptionsError(f"{game.title} has no mode `{raw['mode']}`. "
                           f"Modes: {', '.join(game.modes)}.")
    try:
        options = game.options_model.model_validate(raw)
    except ValidationError as exc:
        problems = []
        for err in exc.errors():
            name = str(err["loc"][0]) if err["loc"] else "options"
            hint = describe_field(game.options_model, name) if name in fields else ""
            problems.append(f"{name}: {err['msg']}. {hint}".strip())
        raise OptionsError("Those options don't work: " + "; ".join(problems)) from None
    return options.model_dump(mode="json")
