"""Application commands as the bot registered them, and slash-command option encoding.

Owns ``CommandStore`` (what ``PUT /applications/{app}/commands`` and the guild variant
registered, with stable ids per name as Discord keeps them) and ``encode_invocation``,
which turns ``"game new", {"game": "exorcism"}`` into the nested ``data.options``
structure of an INTERACTION_CREATE, checked against the registered option schema.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from emulator.errors import EmulatorError
from emulator.ids import SnowflakeFactory

SUB_COMMAND = 1
SUB_COMMAND_GROUP = 2
STRING = 3
INTEGER = 4
BOOLEAN = 5
USER = 6
CHANNEL = 7
ROLE = 8
MENTIONABLE = 9
NUMBER = 10
ATTACHMENT = 11

OPTION_TYPE_NAMES = {
    SUB_COMMAND: "subcommand",
    SUB_COMMAND_GROUP: "subcommand group",
    STRING: "string",
    INTEGER: "integer",
    BOOLEAN: "boolean",
    USER: "user",
    CHANNEL: "channel",
    ROLE: "role",
    MENTIONABLE: "mentionable",
    NUMBER: "number",
    ATTACHMENT: "attachment",
}

Resolver = Callable[[dict[str, Any], Any], str]
"""Turns a user/channel/role/mentionable/attachment option value into its id
(recording it in the interaction's ``resolved`` data)."""


@dataclass
class CommandStore:
    """Registered application commands: global ones and per guild.

    ``syncs`` lists every bulk overwrite as ``(guild_id or None, number of commands)``.
    """

    global_commands: list[dict[str, Any]] = field(default_factory=list)
    guild_commands: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    syncs: list[tuple[str | None, int]] = field(default_factory=list)

    def scope(self, guild_id: str | None) -> list[dict[str, Any]]:
        if guild_id is None:
            return self.global_commands
        return self.guild_commands.setdefault(guild_id, [])

    def overwrite(
        self,
        guild_id: str | None,
        payloads: list[dict[str, Any]],
        application_id: str,
        ids: SnowflakeFactory,
    ) -> list[dict[str, Any]]:
        """Replace a scope's commands (bulk overwrite), keeping ids of same-named commands."""
        old = {(c["name"], c.get("type", 1)): c["id"] for c in self.scope(guild_id)}
        stored = [
            self._complete(p, application_id, ids, guild_id, old.get((p["name"], p.get("type", 1))))
            for p in payloads
        ]
        if guild_id is None:
            self.global_commands = stored
        else:
            self.guild_commands[guild_id] = stored
        self.syncs.append((guild_id, len(stored)))
        return stored

    def upsert(
        self,
        guild_id: str | None,
        payload: dict[str, Any],
        application_id: str,
        ids: SnowflakeFactory,
    ) -> dict[str, Any]:
        """Create or replace one command by name."""
        commands = self.scope(guild_id)
        for i, cmd in enumerate(commands):
            if cmd["name"] == payload["name"] and cmd.get("type", 1) == payload.get("type", 1):
                commands[i] = self._complete(payload, application_id, ids, guild_id, cmd["id"])
                return commands[i]
        stored = self._complete(payload, application_id, ids, guild_id, None)
        commands.append(stored)
        return stored

    def delete(self, guild_id: str | None, command_id: str) -> bool:
        commands = self.scope(guild_id)
        for i, cmd in enumerate(commands):
            if cmd["id"] == command_id:
                del commands[i]
                return True
        return False

    @staticmethod
    def _complete(
        payload: dict[str, Any],
        application_id: str,
        ids: SnowflakeFactory,
        guild_id: str | None,
        command_id: str | None,
    ) -> dict[str, Any]:
        stored: dict[str, Any] = {
            "type": 1,
            "description": "",
            "options": [],
            "default_member_permissions": None,
            "dm_permission": True,
            "nsfw": False,
            **payload,
        }
        stored["id"] = command_id or ids.next()
        stored["application_id"] = application_id
        stored["version"] = ids.next()
        if guild_id is not None:
            stored["guild_id"] = guild_id
        return stored

    def find(self, name: str, guild_id: str | None) -> dict[str, Any] | None:
        """The chat-input command a user in this guild (or DM, ``None``) would get."""
        scopes = ([self.guild_commands.get(guild_id, [])] if guild_id else []) + [
            self.global_commands
        ]
        for commands in scopes:
            for cmd in commands:
                if cmd["name"] == name and cmd.get("type", 1) == 1:
                    return cmd
        return None

    def paths(self, guild_id: str | None = None) -> list[str]:
        """Every invocable slash path (``"game new"``) visible in a guild (or DMs)."""
        out: list[str] = []
        seen: set[str] = set()
        scopes = ([self.guild_commands.get(guild_id, [])] if guild_id else []) + [
            self.global_commands
        ]
        for commands in scopes:
            for cmd in commands:
                if cmd.get("type", 1) != 1 or cmd["name"] in seen:
                    continue
                seen.add(cmd["name"])
                out.extend(_paths(cmd["name"], cmd.get("options") or []))
        return out

    def all_paths(self) -> list[str]:
        """Slash paths across the global scope and every guild scope."""
        out = self.paths(None)
        for gid in self.guild_commands:
            out.extend(p for p in self.paths(gid) if p not in out)
        return out


def _paths(prefix: str, options: list[dict[str, Any]]) -> list[str]:
    subs = [o for o in options if o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP)]
    if not subs:
        return [prefix]
    out: list[str] = []
    for sub in subs:
        out.extend(_paths(f"{prefix} {sub['name']}", sub.get("options") or []))
    return out


def encode_invocation(
    command: dict[str, Any],
    path: list[str],
    options: dict[str, Any],
    resolve: Resolver,
    *,
    focused: str | None = None,
) -> list[dict[str, Any]]:
    """Build ``data.options`` for invoking ``path`` (``["game", "new"]``) of ``command``.

    With ``focused`` set (autocomplete), the focused option is marked and required
    options may be missing, as while a user is still typing.
    """
    shown = "/" + " ".join(path)
    schema: list[dict[str, Any]] = command.get("options") or []
    chain: list[dict[str, Any]] = []
    for i, part in enumerate(path[1:], start=1):
        subs = [o for o in schema if o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP)]
        sub = next((o for o in subs if o["name"] == part), None)
        if sub is None:
            where = "/" + " ".join(path[:i])
            raise EmulatorError(
                f"{where} has no subcommand {part!r}; it has {[o['name'] for o in subs]}"
            )
        chain.append(sub)
        schema = sub.get("options") or []
    subs = [o for o in schema if o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP)]
    if subs:
        raise EmulatorError(f"{shown} needs a subcommand: {[o['name'] for o in subs]}")

    by_name = {o["name"]: o for o in schema}
    values = dict(options)
    if focused is not None:
        if focused not in by_name:
            raise EmulatorError(f"{shown} has no option {focused!r}; it has {sorted(by_name)}")
        if not by_name[focused].get("autocomplete"):
            raise EmulatorError(f"option {focused!r} of {shown} has no autocomplete")
        values.setdefault(focused, "")

    encoded: list[dict[str, Any]] = []
    for name, value in values.items():
        opt = by_name.get(name)
        if opt is None:
            raise EmulatorError(f"{shown} has no option {name!r}; it has {sorted(by_name)}")
        entry: dict[str, Any] = {"type": opt["type"], "name": name}
        if name == focused:
            entry["value"] = value if isinstance(value, str | int | float) else str(value)
            entry["focused"] = True
        else:
            entry["value"] = _encode_value(shown, opt, value, resolve)
        encoded.append(entry)

    if focused is None:
        missing = [o["name"] for o in schema if o.get("required") and o["name"] not in values]
        if missing:
            raise EmulatorError(f"{shown} is missing required options {missing}")

    for sub in reversed(chain):
        encoded = [{"type": sub["type"], "name": sub["name"], "options": encoded}]
    return encoded


def _encode_value(shown: str, opt: dict[str, Any], value: Any, resolve: Resolver) -> Any:
    kind = opt["type"]
    name = opt["name"]
    label = f"option {name!r} of {shown} ({OPTION_TYPE_NAMES.get(kind, kind)})"
    if kind == STRING:
        if not isinstance(value, str):
            raise EmulatorError(f"{label} needs a str, got {value!r}")
        if "min_length" in opt and len(value) < opt["min_length"]:
            raise EmulatorError(f"{label} must be at least {opt['min_length']} characters")
        if "max_length" in opt and len(value) > opt["max_length"]:
            raise EmulatorError(f"{label} must be at most {opt['max_length']} characters")
        _check_choice(label, opt, value)
        return value
    if kind == INTEGER:
        if isinstance(value, bool) or not isinstance(value, int):
            raise EmulatorError(f"{label} needs an int, got {value!r}")
        _check_range(label, opt, value)
        _check_choice(label, opt, value)
        return value
    if kind == NUMBER:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise EmulatorError(f"{label} needs a number, got {value!r}")
        _check_range(label, opt, value)
        _check_choice(label, opt, value)
        return value
    if kind == BOOLEAN:
        if not isinstance(value, bool):
            raise EmulatorError(f"{label} needs a bool, got {value!r}")
        return value
    if kind in (USER, CHANNEL, ROLE, MENTIONABLE, ATTACHMENT):
        return resolve(opt, value)
    raise EmulatorError(f"{label}: unsupported option type {kind}")


def _check_range(label: str, opt: dict[str, Any], value: float) -> None:
    if opt.get("min_value") is not None and value < opt["min_value"]:
        raise EmulatorError(f"{label} must be >= {opt['min_value']}")
    if opt.get("max_value") is not None and value > opt["max_value"]:
        raise EmulatorError(f"{label} must be <= {opt['max_value']}")


def _check_choice(label: str, opt: dict[str, Any], value: Any) -> None:
    choices = opt.get("choices")
    if choices and value not in [c["value"] for c in choices]:
        raise EmulatorError(f"{label} must be one of {[c['value'] for c in choices]}")
