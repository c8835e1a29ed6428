"""Game options as players type them: `rounds=3 hard=yes`, validated with the game's model.

The lobby shows each option with its description and allowed range; a mistake names the
option and what it accepts.
"""

from __future__ import annotations

import shlex
import typing
from typing import Any

from pydantic import BaseModel, ValidationError
from pydantic.fields import FieldInfo

from bot.limits import CHOICE_NAME, CHOICE_VALUE, CHOICES, clip, excerpt
from rules.core.game import Game

YES = {"yes": True, "no": False, "true": True, "false": False}


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
    elif ann is bool or [a for a in (args or ()) if a is not type(None)] == [bool]:
        bits.append("yes/no")
    elif ann is not None:
        bits.append(getattr(ann, "__name__", str(ann)))
    if lo is not None or hi is not None:
        bits.append(f"{lo if lo is not None else ''}–{hi if hi is not None else ''}")
    default = _default_text(field)
    bits.append(f"default {default}" if default else "no default")
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


def parse_options(game: Game[Any, Any], mode: str | None, text: str | None,
                  chosen: dict[str, Any] | None = None) -> dict[str, Any]:
    """Parse `key=value ...` into a validated options dict (JSON-ready). `chosen`: options
    picked with Discord's own controls, which win over the same key typed in the text. A
    combination no game can be set up with is refused with the reason (`check_options`)."""
    raw: dict[str, Any] = {}
    if mode:
        raw["mode"] = mode
    try:
        parts = shlex.split(text or "")
    except ValueError as exc:
        raise OptionsError(
            f"I couldn't read those options ({exc}). Write them as key=value.") from None
    fields = game.options_model.model_fields
    known = ", ".join(option_fields(game)) or "none besides the mode"
    # Each message explains first and quotes the player's typing last, as a short excerpt:
    # a long token must not push the explanation past Discord's 2,000 characters.
    for part in parts:
        key, sep, value = part.partition("=")
        key = key.strip().lower().replace("-", "_")
        if not sep or not key:
            raise OptionsError(f"Options are written as key=value; this is not key=value: "
                               f"`{excerpt(part)}`. Options for {game.title}: {known}.")
        if key not in fields or key == "mode" or not lobby_allows(fields[key]):
            raise OptionsError(f"{game.title} has no option by that name. Its options: "
                               f"{known}. (You wrote `{excerpt(key)}`.)")
        raw[key] = YES.get(value.lower(), value)
    raw.update(chosen or {})
    return check_options(game, raw)


def check_options(game: Game[Any, Any], raw: dict[str, Any]) -> dict[str, Any]:
    """Validate an options dict with the game's model and its rules on combinations; the
    JSON-ready options, or OptionsError saying what is wrong and what would work."""
    fields = game.options_model.model_fields
    if "mode" in raw and raw["mode"] not in game.modes:
        raise OptionsError(f"{game.title} has no mode by that name. Modes: "
                           f"{', '.join(game.modes)}. (You wrote `{excerpt(str(raw['mode']))}`.)")
    try:
        options = game.options_model.model_validate(raw)
    except ValidationError as exc:
        problems = []
        for err in exc.errors():
            name = str(err["loc"][0]) if err["loc"] else "options"
            hint = describe_field(game.options_model, name) if name in fields else ""
            problems.append(f"{name}: {err['msg']}. {hint}".strip())
        raise OptionsError("Those options don't work: " + "; ".join(problems)) from None
    conflicts = game.option_conflicts(options)
    if conflicts:
        raise OptionsError("Those options can't make a game: " + " ".join(conflicts))
    return options.model_dump(mode="json")


def options_words(game: Game[Any, Any], options: dict[str, Any]) -> list[str]:
    """The options a table chose, as players type them (`strict_table_talk=yes`): only those
    a table may set and that differ from the default; yes/no for switches, never a Python
    value or an option only the bot's host sets."""
    fields = game.options_model.model_fields
    out = []
    for name in option_fields(game):
        if name not in options:
            continue
        value = options[name]
        field = fields[name]
        if value is None or value == field.default:
            continue
        shown = ("yes" if value else "no") if isinstance(value, bool) else str(value)
        out.append(f"`{name}={shown}`")
    return out


def effective_lines(game: Game[Any, Any], options: dict[str, Any]) -> list[str]:
    """The options as they will really be played, one "Name: value" line each (the lobby
    card): from the engine, after presets and variants apply."""
    model = game.options_model.model_validate(options)
    return [f"{name}: {value}" for name, value in game.effective_options(model)]


def switches(game: Game[Any, Any]) -> list[str]:
    """The yes/no options a table may set (variants), for the lobby card's menu."""
    return [n for n in option_fields(game)
            if game.options_model.model_fields[n].annotation in (bool, bool | None)]


def choice_options(game: Game[Any, Any]) -> dict[str, list[str]]:
    """Options with a few named values (presets such as `scripts`, `fear`), for the lobby
    card's menus: option → its values."""
    out: dict[str, list[str]] = {}
    for name in option_fields(game):
        field = game.options_model.model_fields[name]
        args = [a for a in typing.get_args(field.annotation) if a is not type(None)]
        if args and all(isinstance(a, str) for a in args) and len(args) <= CHOICES:
            out[name] = list(args)
    return out


# ---- suggestions as the options are typed (autocomplete) ---------------------------------


def _norm_key(key: str) -> str:
    return key.strip().lower().replace("-", "_")


def _values_of(field: FieldInfo) -> list[str]:
    """The values an option takes when they are few enough to list (choices, yes/no, a short
    range of numbers); [] otherwise."""
    ann = field.annotation
    args = [a for a in typing.get_args(ann) if a is not type(None)]
    if ann is bool or args == [bool]:
        return ["yes", "no"]
    if args and all(isinstance(a, str) for a in args):
        return list(args)
    lo = hi = None
    for meta in field.metadata:
        lo = getattr(meta, "ge", None) if getattr(meta, "ge", None) is not None else lo
        hi = getattr(meta, "le", None) if getattr(meta, "le", None) is not None else hi
    if isinstance(lo, int) and isinstance(hi, int) and hi - lo < CHOICES:
        return [str(n) for n in range(lo, hi + 1)]
    return []


def _default_text(field: FieldInfo) -> str:
    default = field.default
    if isinstance(default, bool):
        return "yes" if default else "no"
    if default is None:
        values = _values_of(field)
        return values[0] if values else ""
    return str(default)


def _is_default(field: FieldInfo, value: str) -> bool:
    default = field.default
    if isinstance(default, bool):
        return YES.get(value.lower()) is default
    if default is None and _values_of(field) == ["yes", "no"]:
        return False  # "empty" (e.g. guided: the game decides) is neither yes nor no
    return default is not None and value == str(default)


def suggest_options(game: Game[Any, Any], typed: str) -> list[tuple[str, str]]:
    """Autocomplete for `/game new options:`: (label, value) pairs, at most 25, each within
    Discord's 100 characters.

    The word being typed is completed (an option name, or a value after `name=`); the value
    of a suggestion is the whole text with that word completed, since picking a suggestion
    replaces what was typed. When that is too long, the options typed so far are written
    shortest: each option once (the last one typed), options left at their default and words
    that are no option dropped. If even then the completed word does not fit, the suggestion
    still names the option and its value is the shortened text, so picking it loses nothing.
    """
    model = game.options_model
    fields = model.model_fields
    names = option_fields(game)
    words = typed.split()
    partial = words.pop() if words and typed and not typed[-1].isspace() else ""
    pkey, psep, pvalue = partial.partition("=")
    pkey = _norm_key(pkey)
    done: dict[str, str] = {}
    for word in words:
        key, sep, value = word.partition("=")
        if sep and _norm_key(key) in names:
            done.pop(_norm_key(key), None)
            done[_norm_key(key)] = value
    matching = [n for n in names if pkey and pkey in n]
    if not psep and len(matching) == 1:
        # Only one option is meant: offer its values at once.
        pkey, psep, pvalue = matching[0], "=", ""
    candidates: list[tuple[str, str, str]] = []  # (option, value, label)
    if psep and pkey in names:
        field = fields[pkey]
        values = [v for v in _values_of(field) if v.lower().startswith(pvalue.lower())]
        for value in values or [pvalue or _default_text(field)]:
            default = " (default)" if _is_default(field, value) else ""
            why = f" — {field.description}" if field.description else ""
            candidates.append((pkey, value, f"{pkey}={value}{default}{why}"))
    else:
        for name in names:
            if (name in done and not pkey) or (pkey and pkey not in name):
                continue
            hint = describe_field(model, name).replace("`", "")
            candidates.append((name, _default_text(fields[name]), hint))

    def shortest(skip: str, tight: bool) -> str:
        # `tight`: yes/no as 1/0, which the options accept too, when words are scarce.
        def written(key: str, value: str) -> str:
            flag = (YES.get(value.lower()) if _values_of(fields[key]) == ["yes", "no"]
                    else None)
            return f"{key}={int(flag)}" if tight and flag is not None else f"{key}={value}"
        return " ".join(written(k, v) for k, v in done.items()
                        if k != skip and not _is_default(fields[k], v))

    out: list[tuple[str, str]] = []
    for name, value, label in candidates:
        token = f"{name}={value}" if value else f"{name}="
        forms = [" ".join([*words, token]), *(f"{shortest(name, t)} {token}".strip()
                                               for t in (False, True))]
        fits = [f for f in forms if len(f) <= CHOICE_VALUE]
        if fits:
            out.append((clip(label, CHOICE_NAME), fits[0]))
            continue
        # Picking this keeps what was typed; its name says what to add by hand.
        kept = [f for f in (shortest("", False), shortest("", True)) if len(f) <= CHOICE_VALUE]
        if kept and kept[0]:
            note = f"no room to add {token} here: type it — {label}"
            out.append((clip(note, CHOICE_NAME), kept[0]))
        if len(out) == CHOICES:
            break
    return out
