"""Interactions injected as a user, and the record of how the bot answered each one.

Owns ``InteractionFactory`` (builds complete INTERACTION_CREATE payloads for slash
commands, autocomplete, button clicks, select choices and modal submits, refusing what
a Discord client would not let a user do) and ``InteractionRecord`` (the initial
callback, the reply messages, follow-ups, edits and deletes that the bot made with the
interaction's token, plus ``wait_callback``/``wait_done``).
"""

from __future__ import annotations

from typing import Any

from emulator import payloads
from emulator.commands import (
    ATTACHMENT,
    CHANNEL,
    MENTIONABLE,
    ROLE,
    USER,
    encode_invocation,
)
from emulator.errors import EmulatorError
from emulator.ids import new_token
from emulator.interaction_records import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    InteractionRecord,
)
from emulator.permissions import has
from emulator.records import (
    AttachmentRecord,
    ChannelRecord,
    GuildRecord,
    MessageRecord,
    RoleRecord,
    UserRecord,
)
from emulator.state import EmulatorState


class InteractionFactory:
    """Builds interaction payloads the way a Discord client would send them."""

    def __init__(self, state: EmulatorState) -> None:
        self.state = state

    # -- entry points -------------------------------------------------------------

    def slash(
        self,
        user: UserRecord,
        channel: ChannelRecord,
        path: str,
        options: dict[str, Any],
        *,
        focused: str | None = None,
    ) -> InteractionRecord:
        state = self.state
        guild = self._guild_of(channel)
        parts = path.strip().lstrip("/").split()
        if not parts:
            raise EmulatorError("empty command path")
        command = state.commands.find(parts[0], guild.id if guild else None)
        if command is None:
            known = state.commands.paths(guild.id if guild else None)
            raise EmulatorError(
                f"no slash command /{parts[0]} is registered here (registered: {known})"
            )
        self._check_command_usable(command, user, guild, "/" + " ".join(parts))
        resolved: dict[str, dict[str, Any]] = {}

        def resolve(opt: dict[str, Any], value: Any) -> str:
            return self._resolve_option(opt, value, guild, user, resolved)

        encoded = encode_invocation(command, parts, options, resolve, focused=focused)
        data: dict[str, Any] = {
            "id": command["id"],
            "name": command["name"],
            "type": 1,
            "options": encoded,
        }
        if resolved:
            data["resolved"] = resolved
        if command.get("guild_id"):
            data["guild_id"] = command["guild_id"]
        itype = AUTOCOMPLETE if focused is not None else APPLICATION_COMMAND
        name = "/" + " ".join(parts) + (f" (autocomplete {focused!r})" if focused else "")
        return self._build(itype, user, channel, data, name=name)

    def raw_slash(
        self,
        user: UserRecord,
        channel: ChannelRecord,
        name: str,
        options: list[dict[str, Any]],
        *,
        resolved: dict[str, Any] | None = None,
        autocomplete: bool = False,
    ) -> InteractionRecord:
        """A slash command interaction with ``data.options`` exactly as given: no check
        against the registered command (its name may be unknown, its options of the wrong
        type, out of range or missing), as a hostile or broken client could send it.
        ``autocomplete``: sent as an autocomplete (mark an option ``"focused": True``)."""
        guild = self._guild_of(channel)
        command = self.state.commands.find(name, guild.id if guild else None)
        data: dict[str, Any] = {
            "id": command["id"] if command is not None else self.state.ids.next(),
            "name": name,
            "type": 1,
            "options": options,
        }
        if resolved:
            data["resolved"] = resolved
        if command is not None and command.get("guild_id"):
            data["guild_id"] = command["guild_id"]
        itype = AUTOCOMPLETE if autocomplete else APPLICATION_COMMAND
        return self._build(itype, user, channel, data, name=f"/{name} (raw)")

    def raw_component(
        self, user: UserRecord, message: MessageRecord, data: dict[str, Any]
    ) -> InteractionRecord:
        """A component interaction on ``message`` with ``data`` exactly as given (its
        ``custom_id``, ``component_type`` and ``values`` unchecked), as a hostile client
        could send it."""
        if message.deleted:
            raise EmulatorError(f"message {message.id} was deleted")
        channel = self.state.channel(message.channel_id)
        return self._build(MESSAGE_COMPONENT, user, channel, dict(data),
                           name=f"raw press {data.get('custom_id')!r}", message=message)

    def component(
        self,
        user: UserRecord,
        message: MessageRecord,
        custom_id: str | None,
        *,
        label: str | None = None,
        values: list[Any] | None = None,
        check: bool = True,
    ) -> InteractionRecord:
        state = self.state
        if message.deleted:
            raise EmulatorError(f"message {message.id} was deleted")
        channel = state.channel(message.channel_id)
        if message.ephemeral and message.interaction_user_id not in (None, user.id):
            raise EmulatorError(f"message {message.id} is ephemeral: only its user can see it")
        comp = message.component(custom_id, label=label)
        if comp is None:
            if check or custom_id is None:
                wanted = repr(custom_id) if custom_id is not None else f"labelled {label!r}"
                raise EmulatorError(
                    f"message {message.id} has no component {wanted}; it has {message.custom_ids}"
                )
            comp = {"type": 2 if values is None else 3, "custom_id": custom_id}
        if check and comp.get("disabled"):
            raise EmulatorError(f"component {comp.get('custom_id')!r} is disabled")
        kind = int(comp["type"])
        cid = str(comp.get("custom_id"))
        data: dict[str, Any] = {"custom_id": cid, "component_type": kind}
        if "id" in comp:
            data["id"] = comp["id"]
        if values is None:
            if kind != 2:
                raise EmulatorError(f"component {cid!r} is not a button (type {kind}); use select")
            if comp.get("style") == 5:
                raise EmulatorError(
                    f"button {cid!r} is a link button; clicking sends no interaction"
                )
            name = f"click {cid!r}"
        else:
            if kind not in (3, 5, 6, 7, 8):
                raise EmulatorError(f"component {cid!r} is not a select menu (type {kind})")
            guild = self._guild_of(channel)
            data["values"], resolved = self._select_values(comp, values, guild, user, check)
            if resolved:
                data["resolved"] = resolved
            name = f"select {cid!r} {data['values']}"
        return self._build(MESSAGE_COMPONENT, user, channel, data, name=name, message=message)

    def modal_submit(
        self, user: UserRecord, source: InteractionRecord, values: dict[str, Any]
    ) -> InteractionRecord:
        modal = source.modal
        if modal is None:
            raise EmulatorError(f"{source.describe()} did not answer with a modal")
        remaining = dict(values)
        components: list[dict[str, Any]] = []
        for top in modal.get("components") or []:
            if top.get("type") == 1:
                inner = (top.get("components") or [{}])[0]
                components.append({"type": 1, "components": [self._modal_answer(inner, remaining)]})
            elif top.get("type") == 18 and isinstance(top.get("component"), dict):
                components.append(
                    {"type": 18, "component": self._modal_answer(top["component"], remaining)}
                )
        if remaining:
            raise EmulatorError(
                f"modal {modal.get('custom_id')!r} has no inputs {sorted(remaining)}"
            )
        data = {"custom_id": modal.get("custom_id"), "components": components}
        channel = self.state.channel(source.channel_id)
        message = (
            self.state.messages.get(source.source_message_id) if source.source_message_id else None
        )
        return self._build(
            MODAL_SUBMIT,
            user,
            channel,
            data,
            name=f"modal {modal.get('custom_id')!r}",
            message=message,
        )

    def old_modal_submit(
        self, user: UserRecord, channel: ChannelRecord, custom_id: str, values: dict[str, str]
    ) -> InteractionRecord:
        components = [
            {"type": 1, "components": [{"type": 4, "custom_id": k, "value": str(v)}]}
            for k, v in values.items()
        ]
        data = {"custom_id": custom_id, "components": components}
        return self._build(MODAL_SUBMIT, user, channel, data, name=f"modal {custom_id!r}")

    # -- helpers ------------------------------------------------------------------

    def _guild_of(self, channel: ChannelRecord) -> GuildRecord | None:
        return self.state.guilds.get(channel.guild_id) if channel.guild_id else None

    def _check_command_usable(
        self, command: dict[str, Any], user: UserRecord, guild: GuildRecord | None, shown: str
    ) -> None:
        contexts = command.get("contexts")
        if guild is None:
            no_dm = contexts is not None and 1 not in contexts
            if command.get("dm_permission") is False or no_dm:
                raise EmulatorError(f"{shown} is not available in DMs")
            return
        if contexts is not None and 0 not in contexts:
            raise EmulatorError(f"{shown} is not available in guilds")
        needed = command.get("default_member_permissions")
        if needed is not None:
            perms = self.state.member_permissions(guild, user.id)
            if not has(perms, int(needed)):
                raise EmulatorError(
                    f"{user.name} lacks the default_member_permissions of "
                    f"{shown}; Discord would not offer the command"
                )

    def _build(
        self,
        itype: int,
        user: UserRecord,
        channel: ChannelRecord,
        data: dict[str, Any],
        *,
        name: str,
        message: MessageRecord | None = None,
    ) -> InteractionRecord:
        state = self.state
        if channel.deleted:
            raise EmulatorError(f"channel {channel.id} was deleted")
        guild = self._guild_of(channel)
        payload: dict[str, Any] = {
            "id": state.ids.next(),
            "application_id": state.application_id,
            "type": itype,
            "token": new_token("emu-interaction-"),
            "version": 1,
            "data": data,
            "channel_id": channel.id,
            "channel": state.channel_json(channel),
            "app_permissions": str(state.effective_bot_permissions(channel)),
            "locale": user.locale,
            "entitlements": [],
            "attachment_size_limit": state.attachment_size_limit,
        }
        if guild is not None:
            member = guild.members.get(user.id)
            if member is None:
                raise EmulatorError(f"{user.name} is not a member of guild {guild.name!r}")
            perms = state.member_permissions(guild, user.id)
            payload.update(
                guild_id=guild.id,
                guild={"id": guild.id, "locale": guild.locale, "features": []},
                guild_locale=guild.locale,
                member=payloads.member_payload(member, permissions=perms),
                authorizing_integration_owners={"0": guild.id},
                context=0,
            )
        else:
            if channel.recipient_id != user.id:
                raise EmulatorError(f"{user.name} cannot see DM channel {channel.id}")
            payload.update(
                user=payloads.user_payload(user),
                authorizing_integration_owners={"1": user.id},
                context=1,
            )
        if message is not None:
            payload["message"] = state.message_json(message)
        record = InteractionRecord(
            id=payload["id"],
            token=payload["token"],
            type=itype,
            user_id=user.id,
            channel_id=channel.id,
            guild_id=guild.id if guild else None,
            name=name,
            payload=payload,
            created_at=state.loop_now(),
            state=state,
            source_message_id=message.id if message else None,
        )
        state.interactions[record.id] = record
        state.interactions_by_token[record.token] = record
        return record

    def _resolve_option(
        self,
        opt: dict[str, Any],
        value: Any,
        guild: GuildRecord | None,
        invoker: UserRecord,
        resolved: dict[str, dict[str, Any]],
    ) -> str:
        kind = opt["type"]
        if kind == USER or (kind == MENTIONABLE and not isinstance(value, RoleRecord)):
            if kind == MENTIONABLE and guild is not None and self._is_role(value, guild):
                return self._resolve_role(value, guild, resolved)
            user = self.state.user(value)
            resolved.setdefault("users", {})[user.id] = payloads.user_payload(user)
            if guild is not None and user.id in guild.members:
                member = guild.members[user.id]
                perms = self.state.member_permissions(guild, user.id)
                resolved.setdefault("members", {})[user.id] = payloads.member_payload(
                    member, with_user=False, permissions=perms
                )
            return user.id
        if kind in (ROLE, MENTIONABLE):
            if guild is None:
                raise EmulatorError(f"option {opt['name']!r}: roles exist only in guilds")
            return self._resolve_role(value, guild, resolved)
        if kind == CHANNEL:
            ch = self.state.channel(value)
            types = opt.get("channel_types")
            if types and int(ch.type) not in types:
                raise EmulatorError(
                    f"option {opt['name']!r} accepts channel types {types}, not {int(ch.type)}"
                )
            perms = self.state.member_permissions(guild, invoker.id) if guild else 0
            resolved.setdefault("channels", {})[ch.id] = payloads.resolved_channel_payload(
                ch, perms
            )
            return ch.id
        if kind == ATTACHMENT:
            if not (isinstance(value, tuple) and len(value) == 2):
                raise EmulatorError(f"option {opt['name']!r} takes (filename, bytes)")
            filename, data = value
            aid = self.state.ids.next()
            att = AttachmentRecord(
                id=aid,
                filename=str(filename),
                data=bytes(data),
                url=self.state.attachment_url("0", aid, str(filename)),
            )
            self.state.attachments[aid] = att
            resolved.setdefault("attachments", {})[aid] = payloads.attachment_payload(att)
            return aid
        raise EmulatorError(f"option {opt['name']!r}: unsupported type {kind}")

    @staticmethod
    def _is_role(value: Any, guild: GuildRecord) -> bool:
        return isinstance(value, RoleRecord) or str(value) in guild.roles

    def _resolve_role(
        self, value: Any, guild: GuildRecord, resolved: dict[str, dict[str, Any]]
    ) -> str:
        rid = value.id if isinstance(value, RoleRecord) else str(value)
        role = guild.roles.get(rid)
        if role is None:
            raise EmulatorError(f"guild {guild.name!r} has no role {rid}")
        resolved.setdefault("roles", {})[rid] = payloads.role_payload(role)
        return rid

    def _select_values(
        self,
        comp: dict[str, Any],
        values: list[Any],
        guild: GuildRecord | None,
        invoker: UserRecord,
        check: bool,
    ) -> tuple[list[str], dict[str, dict[str, Any]]]:
        kind = int(comp["type"])
        cid = comp.get("custom_id")
        out = [
            v.id if isinstance(v, UserRecord | ChannelRecord | RoleRecord) else str(v)
            for v in values
        ]
        if check:
            low, high = int(comp.get("min_values", 1)), int(comp.get("max_values", 1))
            if not low <= len(out) <= high:
                raise EmulatorError(f"select {cid!r} takes {low}..{high} values, got {len(out)}")
            if kind == 3:
                allowed = [str(o.get("value")) for o in comp.get("options") or []]
                bad = [v for v in out if v not in allowed]
                if bad:
                    raise EmulatorError(f"select {cid!r} has no options {bad}; it has {allowed}")
        resolved: dict[str, dict[str, Any]] = {}
        if kind == 5:
            for v in out:
                self._resolve_option({"type": USER, "name": str(cid)}, v, guild, invoker, resolved)
        elif kind == 6 and guild is not None:
            for v in out:
                self._resolve_role(v, guild, resolved)
        elif kind == 7:
            for v in out:
                self._resolve_option(
                    {"type": MENTIONABLE, "name": str(cid)}, v, guild, invoker, resolved
                )
        elif kind == 8:
            for v in out:
                self._resolve_option(
                    {"type": CHANNEL, "name": str(cid)}, v, guild, invoker, resolved
                )
        return out, resolved

    @staticmethod
    def _modal_answer(inner: dict[str, Any], remaining: dict[str, Any]) -> dict[str, Any]:
        cid = str(inner.get("custom_id"))
        kind = int(inner.get("type", 4))
        if kind == 4:
            value = remaining.pop(cid, inner.get("value"))
            if value is None:
                if inner.get("required", True):
                    raise EmulatorError(f"modal text input {cid!r} is required")
                value = ""
            return {"type": 4, "custom_id": cid, "value": str(value)}
        chosen = remaining.pop(cid, [])
        values = chosen if isinstance(chosen, list) else [chosen]
        return {"type": kind, "custom_id": cid, "values": [str(v) for v in values]}
