"""Slash command payloads checked at the edge, before any command runs (issue #21, part 4).

discord.py trusts Discord: it hands a command's callback the option values the interaction
carries without checking them against the command's own declaration (its type, its choices,
its minimum and maximum), so a client that sends `reminder_hours:"abc"`, `ai:-1` or a number
where a text choice belongs reaches the command with it, and the command either fails
("Something went wrong", an error logged) or reads it as something else. Discord's own
client never sends such payloads, but a bot must not trust the client: every application
command interaction is checked here against what the bot registered, and one that does not
fit is refused with a sentence saying what to send instead. Nothing runs, nothing changes.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands
from discord.enums import AppCommandOptionType as T

SNOWFLAKE_MAX = 2**63 - 1
"""The largest id (user, channel, role, attachment) the bot accepts. Discord's ids are 64-bit
numbers whose top bits are a timestamp, so real ones stay below 2^63 until 2084; the store
keeps them as signed 64-bit integers, which a larger one would overflow."""

_KIND_WORDS = {
    T.string: "text", T.integer: "a whole number", T.number: "a number",
    T.boolean: "true or false", T.user: "a member", T.channel: "a channel",
    T.role: "a role", T.mentionable: "a member or a role", T.attachment: "a file",
}


class BadOption(app_commands.CheckFailure):
    """An interaction whose options do not fit the command (the message says what does)."""


def _is_snowflake(value: Any) -> bool:
    text = str(value)
    return text.isascii() and text.isdigit() and 0 < int(text) <= SNOWFLAKE_MAX


def _fits(kind: T, value: Any) -> bool:
    """Whether `value` is what Discord sends for an option of type `kind`."""
    if kind is T.string:
        return isinstance(value, str)
    if kind is T.integer:
        return isinstance(value, int) and not isinstance(value, bool)
    if kind is T.number:
        # An int is always finite (and may be too large for a float: no conversion).
        return (isinstance(value, int) and not isinstance(value, bool)) or (
            isinstance(value, float) and math.isfinite(value))
    if kind is T.boolean:
        return isinstance(value, bool)
    if kind in (T.user, T.channel, T.role, T.mentionable, T.attachment):
        return isinstance(value, str | int) and not isinstance(value, bool) \
            and _is_snowflake(value)
    return False


_RESOLVED = {T.user: ("users",), T.channel: ("channels",), T.role: ("roles",),
             T.mentionable: ("users", "roles"), T.attachment: ("attachments",)}
"""Where Discord describes the object an id option names (`data.resolved`): an id it does not
describe reaches the command as a bare id, which is no member, channel or role to use."""
_THING = {T.user: "member", T.channel: "channel", T.role: "role",
          T.mentionable: "member or role", T.attachment: "file"}


def problem(command: app_commands.Command[Any, ..., Any],
            options: Sequence[dict[str, Any]], *, autocomplete: bool = False,
            resolved: dict[str, Any] | None = None) -> str | None:
    """What is wrong with `options` (the leaf options of an invocation of `command`), in
    words a player can act on; None when they fit. While a player types (`autocomplete`),
    the focused option holds whatever was typed so far and required options may be missing."""
    shown = f"/{command.qualified_name}"
    params = {p.display_name: p for p in command.parameters}
    seen: set[str] = set()
    for option in options:
        if not isinstance(option, dict):
            return f"`{shown}` got an option I can't read. Run it again from Discord's menu."
        name = str(option.get("name", ""))
        param = params.get(name)
        if param is None:
            known = ", ".join(f"`{n}`" for n in params) or "none"
            return (f"`{shown}` has no option `{name[:40]}` (its options: {known}). "
                    "Run it again from Discord's command menu.")
        if name in seen:
            return f"`{shown}` got the option `{name}` twice. Give it once."
        seen.add(name)
        value: Any = option.get("value")
        if autocomplete:
            # While a player types, Discord sends every option as typed so far (a number
            # option may hold "1."): only a value that is no scalar at all is refused, and
            # suggestions read the others as text; the text being typed is text.
            typed_text = option.get("focused") and param.type is T.string
            if not isinstance(value, str if typed_text else str | int | float | bool):
                return f"`{name}` takes {_KIND_WORDS.get(param.type, 'a value')}."
            continue
        if not _fits(param.type, value):
            return (f"`{name}` takes {_KIND_WORDS.get(param.type, 'a value')}. "
                    f"Run `{shown}` again and pick or type one.")
        if param.type in _RESOLVED and not any(
                isinstance(part := (resolved or {}).get(key), dict) and str(value) in part
                for key in _RESOLVED[param.type]):
            return (f"I couldn't find the {_THING[param.type]} given for `{name}`. Run "
                    f"`{shown}` again and pick one from Discord's list.")
        if param.choices and value not in [c.value for c in param.choices]:
            names = ", ".join(f"`{c.name}`" for c in param.choices[:10])
            return f"`{name}` must be one of its choices: {names}."
        if param.type in (T.integer, T.number):
            low, high = param.min_value, param.max_value
            number: float = value  # compared as it is: a huge int fits no float
            if (low is not None and number < low) or (high is not None and number > high):
                span = (f"from {low:g} to {high:g}" if low is not None and high is not None
                        else f"at least {low:g}" if low is not None else f"at most {high:g}")
                return f"`{name}` must be {span}. Run `{shown}` again with a value in range."
    if not autocomplete:
        missing = [p.display_name for p in command.parameters
                   if p.required and p.display_name not in seen]
        if missing:
            return (f"`{shown}` needs {', '.join(f'`{n}`' for n in missing)}. Run it again "
                    "and fill in every required option.")
    return None


def well_formed(options: Any) -> bool:
    """Whether `options` (an invocation's `data.options`, subcommands included) has the shape
    Discord gives it: a list of objects, each with a name, nested options again a list.
    discord.py walks it before any check of ours could answer otherwise."""
    if not isinstance(options, list):
        return False
    for option in options:
        if not isinstance(option, dict) or not isinstance(option.get("name"), str):
            return False
        if "options" in option and not well_formed(option["options"]):
            return False
    return True


class GameTree(app_commands.CommandTree[Any]):
    """The bot's command tree: every application command interaction is checked against the
    command's declaration before discord.py runs it (`problem`)."""

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        data: dict[str, Any] = dict(interaction.data or {})  # type: ignore[arg-type]
        if data.get("type", 1) != 1:
            return True  # a context menu command (the bot registers none)
        autocomplete = interaction.type is discord.InteractionType.autocomplete
        resolved = data.get("resolved")
        try:
            if not isinstance(data.get("name"), str) \
                    or not well_formed(data.get("options", [])) \
                    or (resolved is not None and not (isinstance(resolved, dict) and all(
                        isinstance(v, dict) for v in resolved.values()))):
                # discord.py would look the command up again from this payload to report
                # the error (`Interaction.command`) and fail there: it is no command.
                interaction._cs_command = None  # type: ignore[attr-defined]
                raise BadOption("I couldn't read that command. Type `/` and run it again "
                                "from Discord's list.")
            # Raises CommandNotFound for a name or subcommand the bot does not have:
            # answered by the error handler like every refusal.
            command, options = self._get_app_command_options(data)  # type: ignore[arg-type]
            wrong = problem(command, [dict(o) for o in options], autocomplete=autocomplete,
                            resolved=resolved if isinstance(resolved, dict) else None)
            if wrong is not None:
                raise BadOption(wrong)
        except app_commands.AppCommandError:
            if not autocomplete:
                raise
            # Nothing to suggest for a payload that does not fit (an autocomplete takes no
            # message, only suggestions): none, and no error.
            with contextlib.suppress(discord.HTTPException):
                await interaction.response.autocomplete([])
            return False
        return True
