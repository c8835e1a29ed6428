"""The emulated Discord REST API v10 (``/api/v10/...``) and its fake CDN.

Owns routing, request parsing (JSON, or multipart with ``payload_json`` + ``files[N]``),
Discord-shaped answers (``Content-Type: application/json`` exactly, error bodies with
``message``/``code``), injected faults (429 with ``Via`` and ``retry_after``, 5xx), the
permission and state checks Discord makes (missing permissions, closed DMs, deleted
channels, archived threads, message limits), and every route handler: users, the
application, gateway discovery, command registration, interaction callbacks and
webhooks, DM channels, channels, messages, threads, guilds. Unknown routes answer
404 and are recorded in ``state.unknown_routes``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote

from aiohttp import BodyPartReader, web
from multidict import MultiMapping

from emulator import payloads
from emulator.errors import (
    ApiError,
    invalid_form,
    missing_permissions,
    thread_locked,
    unknown_channel,
    unknown_interaction,
    unknown_message,
)
from emulator.interaction_records import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    AUTOCOMPLETE_RESULT,
    CHANNEL_MESSAGE,
    DEFERRED_CHANNEL_MESSAGE,
    DEFERRED_UPDATE_MESSAGE,
    MESSAGE_COMPONENT,
    MODAL,
    MODAL_SUBMIT,
    UPDATE_MESSAGE,
    InteractionRecord,
)
from emulator.permissions import Perm, has
from emulator.records import (
    EPHEMERAL,
    LOADING,
    ChannelRecord,
    ChannelType,
    MessageRecord,
    UploadedFile,
)
from emulator.state import EmulatorState
from emulator.validation import (
    check_channel_name,
    check_choices,
    check_command_choices,
    check_message,
    check_modal,
)

API_PREFIX = "/api/v10"
JSON_HEADERS = {"Content-Type": "application/json"}

# Flags a bot may set when creating a message: SUPPRESS_EMBEDS, EPHEMERAL,
# SUPPRESS_NOTIFICATIONS, IS_COMPONENTS_V2.
SETTABLE_FLAGS = (1 << 2) | EPHEMERAL | (1 << 12) | (1 << 15)

ALLOWED_CALLBACKS = {
    APPLICATION_COMMAND: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, MODAL},
    MESSAGE_COMPONENT: {
        CHANNEL_MESSAGE,
        DEFERRED_CHANNEL_MESSAGE,
        DEFERRED_UPDATE_MESSAGE,
        UPDATE_MESSAGE,
        MODAL,
    },
    AUTOCOMPLETE: {AUTOCOMPLETE_RESULT},
    MODAL_SUBMIT: {
        CHANNEL_MESSAGE,
        DEFERRED_CHANNEL_MESSAGE,
        DEFERRED_UPDATE_MESSAGE,
        UPDATE_MESSAGE,
    },
}

_STATUS_MESSAGES = {
    500: "500: Internal Server Error",
    502: "502: Bad Gateway",
    503: "503: Service Unavailable",
    504: "504: Gateway Timeout",
}

_COMMAND_NAME = re.compile(r"^[-_\w]{1,32}$")


@dataclass
class ApiRequest:
    """A parsed REST request."""

    method: str
    path: str
    params: dict[str, str]
    query: MultiMapping[str]
    body: Any
    files: list[UploadedFile]
    interaction: InteractionRecord | None = field(default=None)

    def json_dict(self) -> dict[str, Any]:
        if not isinstance(self.body, dict):
            raise ApiError(400, 50109, "The request body contains invalid JSON.")
        return self.body

    def flag(self, name: str) -> bool:
        return self.query.get(name, "").lower() in ("1", "true")


Handler = Callable[[ApiRequest], Awaitable[tuple[int, Any]]]


def _compile(template: str) -> re.Pattern[str]:
    def group(match: re.Match[str]) -> str:
        name = match.group(1)
        if name == "message_ref":
            pattern = r"\d+|@original"
        elif name == "user_ref":
            pattern = r"\d+|@me"
        elif name.endswith("_id"):
            pattern = r"\d+"
        else:
            pattern = r"[^/]+"
        return f"(?P<{name}>{pattern})"

    return re.compile("^" + re.sub(r"\{(\w+)\}", group, template) + "$")


def json_response(status: int, data: Any) -> web.Response:
    if status == 204 or data is None:
        return web.Response(status=204)
    return web.Response(status=status, body=json.dumps(data).encode(), headers=JSON_HEADERS)


class RestApi:
    """Route table and handlers for the REST API."""

    def __init__(
        self,
        state: EmulatorState,
        *,
        gateway_url: Callable[[], str],
        expected_token: Callable[[], str | None],
        recommended_shards: Callable[[], int],
    ) -> None:
        self.state = state
        self._gateway_url = gateway_url
        self._expected_token = expected_token
        self._recommended_shards = recommended_shards
        self.routes: list[tuple[str, re.Pattern[str], str, Handler, bool]] = []
        r = self._route
        r("GET", "/users/@me", self.get_me)
        r("GET", "/users/{user_id}", self.get_user)
        r("POST", "/users/@me/channels", self.create_dm)
        r("GET", "/oauth2/applications/@me", self.get_application)
        r("GET", "/applications/@me", self.get_application)
        r("GET", "/gateway", self.get_gateway)
        r("GET", "/gateway/bot", self.get_gateway_bot)
        for prefix in (
            "/applications/{application_id}",
            "/applications/{application_id}/guilds/{guild_id}",
        ):
            r("GET", prefix + "/commands", self.get_commands)
            r("PUT", prefix + "/commands", self.put_commands)
            r("POST", prefix + "/commands", self.post_command)
            r("GET", prefix + "/commands/{command_id}", self.get_command)
            r("DELETE", prefix + "/commands/{command_id}", self.delete_command)
        r("POST", "/interactions/{interaction_id}/{token}/callback", self.callback, auth=False)
        r("POST", "/webhooks/{application_id}/{token}", self.followup, auth=False)
        r(
            "GET",
            "/webhooks/{application_id}/{token}/messages/{message_ref}",
            self.get_webhook_message,
            auth=False,
        )
        r(
            "PATCH",
            "/webhooks/{application_id}/{token}/messages/{message_ref}",
            self.edit_webhook_message,
            auth=False,
        )
        r(
            "DELETE",
            "/webhooks/{application_id}/{token}/messages/{message_ref}",
            self.delete_webhook_message,
            auth=False,
        )
        r("GET", "/channels/{channel_id}", self.get_channel)
        r("PATCH", "/channels/{channel_id}", self.edit_channel)
        r("DELETE", "/channels/{channel_id}", self.delete_channel)
        r("GET", "/channels/{channel_id}/messages", self.get_messages)
        r("POST", "/channels/{channel_id}/messages", self.post_message)
        r("GET", "/channels/{channel_id}/messages/{message_id}", self.get_message)
        r("PATCH", "/channels/{channel_id}/messages/{message_id}", self.edit_message)
        r("DELETE", "/channels/{channel_id}/messages/{message_id}", self.delete_message)
        r("POST", "/channels/{channel_id}/threads", self.create_thread)
        r(
            "POST",
            "/channels/{channel_id}/messages/{message_id}/threads",
            self.create_thread_from_message,
        )
        r("PUT", "/channels/{channel_id}/thread-members/{user_ref}", self.add_thread_member)
        r("DELETE", "/channels/{channel_id}/thread-members/{user_ref}", self.remove_thread_member)
        r("POST", "/channels/{channel_id}/typing", self.no_content)
        r(
            "PUT",
            "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me",
            self.no_content,
        )
        r(
            "DELETE",
            "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me",
            self.no_content,
        )
        r("PUT", "/channels/{channel_id}/pins/{message_id}", self.no_content)
        r("DELETE", "/channels/{channel_id}/pins/{message_id}", self.no_content)
        r("GET", "/guilds/{guild_id}", self.get_guild)
        r("GET", "/guilds/{guild_id}/channels", self.get_guild_channels)
        r("POST", "/guilds/{guild_id}/channels", self.create_guild_channel)
        r("PUT", "/channels/{channel_id}/permissions/{target_id}", self.put_overwrite)
        r("DELETE", "/channels/{channel_id}/permissions/{target_id}", self.delete_overwrite)
        r("GET", "/guilds/{guild_id}/threads/active", self.get_active_threads)
        r("GET", "/guilds/{guild_id}/roles", self.get_roles)
        r("GET", "/guilds/{guild_id}/members", self.get_members)
        r("GET", "/guilds/{guild_id}/members/{user_id}", self.get_member)
        r("PATCH", "/guilds/{guild_id}/members/{user_id}", self.modify_member)

    def _route(self, method: str, template: str, handler: Handler, *, auth: bool = True) -> None:
        self.routes.append((method, _compile(template), f"{method} {template}", handler, auth))

    # -- entry point ------------------------------------------------------------------

    async def handle(self, request: web.Request) -> web.StreamResponse:
        state = self.state
        method = request.method.upper()
        path = "/" + request.match_info.get("tail", "")
        state.notify()
        now = state.now()
        for rule in state.faults:
            if rule.matches(method, path, now):
                if rule.after > 0:  # let this one through: the rule fails a later one
                    rule.after -= 1
                    continue
                if rule.per_route:
                    key = self._route_key(method, path)
                    if key in rule.routes_failed:
                        continue
                    rule.routes_failed.add(key)
                if rule.until is None:
                    rule.count -= 1
                if rule.code == 10062:
                    self._mark_refused(path)
                return self._fault(method, path, rule.status, rule.retry_after, rule.is_global,
                                   code=rule.code, message=rule.message)
        for route_method, pattern, key, handler, auth in self.routes:
            if route_method != method:
                continue
            match = pattern.match(path)
            if match is None:
                continue
            state.stats.requests[key] += 1
            if auth:
                denied = self._check_token(request)
                if denied is not None:
                    state.record_error(method, path, 401, 0, "401: Unauthorized", injected=False)
                    return denied
            req = ApiRequest(method, path, match.groupdict(), request.query, None, [])
            try:
                req.body, req.files = await self._parse_body(request)
                status, data = await handler(req)
                reason = request.headers.get("X-Audit-Log-Reason")
                if reason is not None:
                    # The server's audit log: read by its moderators, players among them.
                    state.audit_log.append((state.last_order, key, unquote(reason)))
            except ApiError as exc:
                state.record_error(method, path, exc.status, exc.code, exc.message, injected=False)
                if req.interaction is not None:
                    req.interaction.errors.append(state.errors[-1])
                response = json_response(exc.status, exc.body())
                response.headers.update(exc.headers)
                return response
            finally:
                state.notify()
            return json_response(status, data)
        state.unknown_routes.append(f"{method} {path}")
        state.record_error(method, path, 404, 0, "404: Not Found", injected=False)
        return json_response(404, {"message": "404: Not Found", "code": 0})

    def _route_key(self, method: str, path: str) -> str:
        """The route template a request hits (``POST /channels/{channel_id}/messages``)."""
        for route_method, pattern, key, _handler, _auth in self.routes:
            if route_method == method and pattern.match(path) is not None:
                return key
        return f"{method} {path}"

    def _check_token(self, request: web.Request) -> web.Response | None:
        auth = request.headers.get("Authorization", "")
        token = auth[4:] if auth.startswith("Bot ") else auth
        if token and token not in self.state.tokens_seen:
            self.state.tokens_seen.append(token)
        expected = self._expected_token()
        if expected is not None and token != expected:
            return json_response(401, {"message": "401: Unauthorized", "code": 0})
        return None

    def _mark_refused(self, path: str) -> None:
        """A refused interaction callback: the interaction is marked late (not answered)."""
        match = re.match(r"^/interactions/(\d+)/", path)
        rec = self.state.interactions.get(match.group(1)) if match else None
        if rec is not None:
            rec.late = True

    def _fault(
        self, method: str, path: str, status: int, retry_after: float, is_global: bool,
        *, code: int = 0, message: str | None = None,
    ) -> web.Response:
        state = self.state
        state.stats.faults_served += 1
        if status == 429:
            message = message or "You are being rate limited."
            body: dict[str, Any] = {
                "message": message,
                "retry_after": retry_after,
                "global": is_global,
            }
            if code:
                body["code"] = code
            headers = {
                **JSON_HEADERS,
                "Via": "1.1 google",
                "Retry-After": str(max(1, round(retry_after))),
                "X-RateLimit-Scope": "global" if is_global else "user",
            }
            if is_global:
                headers["X-RateLimit-Global"] = "true"
        else:
            message = message or _STATUS_MESSAGES.get(status, f"{status}: Emulated server error")
            body = {"message": message, "code": code}
            headers = dict(JSON_HEADERS)
        state.record_error(method, path, status, code, message, injected=True)
        if code:
            match = re.match(r"^/interactions/(\d+)/", path)
            rec = state.interactions.get(match.group(1)) if match else None
            if rec is not None:
                rec.errors.append(state.errors[-1])
        return web.Response(status=status, body=json.dumps(body).encode(), headers=headers)

    @staticmethod
    async def _parse_body(request: web.Request) -> tuple[Any, list[UploadedFile]]:
        if not request.can_read_body:
            return None, []
        ctype = request.content_type
        if ctype.startswith("multipart/"):
            body: Any = None
            files: list[UploadedFile] = []
            reader = await request.multipart()
            while True:
                part = await reader.next()
                if part is None:
                    break
                if not isinstance(part, BodyPartReader):
                    continue
                name = part.name or ""
                raw = bytes(await part.read())
                if name == "payload_json":
                    body = json.loads(raw.decode())
                elif name.startswith("files[") and name.endswith("]"):
                    files.append(
                        UploadedFile(
                            index=int(name[6:-1]),
                            filename=part.filename or f"file{name[6:-1]}",
                            data=raw,
                            content_type=part.headers.get("Content-Type"),
                        )
                    )
            return body, files
        text = await request.text()
        if not text:
            return None, []
        try:
            return json.loads(text), []
        except ValueError:
            raise ApiError(400, 50109, "The request body contains invalid JSON.") from None

    # -- helpers ----------------------------------------------------------------------

    def _channel(self, req: ApiRequest) -> ChannelRecord:
        ch = self.state.channels.get(req.params["channel_id"])
        if ch is None or ch.deleted:
            raise unknown_channel()
        guild = self.state.guilds.get(ch.guild_id) if ch.guild_id else None
        if guild is not None and guild.bot_removed:
            raise ApiError(403, 50001, "Missing Access")
        if guild is not None and not has(self.state.effective_bot_permissions(ch),
                                         Perm.VIEW_CHANNEL):
            # A channel (or a thread of one) the bot may not view: Discord answers Missing
            # Access for it, not Missing Permissions.
            raise ApiError(403, 50001, "Missing Access")
        return ch

    def _require(self, ch: ChannelRecord, needed: int) -> None:
        if not has(self.state.effective_bot_permissions(ch), needed):
            raise missing_permissions()

    def _message_in(self, ch: ChannelRecord, message_id: str) -> MessageRecord:
        msg = self.state.messages.get(message_id)
        if msg is None or msg.deleted or msg.channel_id != ch.id or msg.ephemeral:
            raise unknown_message()
        return msg

    def _writable_thread(self, ch: ChannelRecord) -> None:
        """Editing in an archived thread fails, as on Discord; in a locked one too, for a bot
        without Manage Threads (docs/topics/threads.md, "Locked Threads": no creating or
        updating messages; Discord answers 403 / 50083 "Thread is archived" for a locked
        thread, discord-api-docs #6884 and #7707, not the 160005 "Thread is locked" its
        table lists)."""
        self._unlocked(ch)
        if ch.is_thread and ch.archived:
            raise ApiError(400, 50083, "Thread is archived")

    def _unlocked(self, ch: ChannelRecord) -> None:
        if ch.is_thread and ch.locked and not has(
            self.state.effective_bot_permissions(ch), Perm.MANAGE_THREADS
        ):
            raise thread_locked()

    def _deletable_in(self, ch: ChannelRecord) -> None:
        """Deleting is the one thing an archived thread allows; a locked thread only while it
        is active (docs/topics/threads.md)."""
        if ch.is_thread and ch.archived:
            self._unlocked(ch)

    def _thread_answer(self, rec: InteractionRecord, *, creating: bool,
                       ephemeral: bool) -> None:
        """An interaction's answer that writes in its thread: the answer, a follow-up, an edit
        of a message there. Not subject to the bot's channel permissions (the interaction's
        token stands for them), but to the thread's state: a locked thread refuses it (403 /
        50083, discord-api-docs #5517, #6884, #7707); an archived one refuses an edit and is
        unarchived by a new message, as a post unarchives it. An ephemeral message is never
        in the thread: it passes."""
        ch = self.state.channels.get(rec.channel_id)
        if ch is None or not ch.is_thread or ephemeral:
            return
        if not creating:
            self._writable_thread(ch)
            return
        self._unlocked(ch)
        if ch.archived:
            self.state.posts_to_archived.append(ch.id)
            self.state.update_thread(ch, archived=False)

    def _strip_embeds_without_permission(self, ch: ChannelRecord, body: dict[str, Any]) -> None:
        if "embeds" in body and not has(self.state.effective_bot_permissions(ch), Perm.EMBED_LINKS):
            body["embeds"] = []

    def _message(self, msg: MessageRecord) -> dict[str, Any]:
        return self.state.message_json(msg)

    async def no_content(self, req: ApiRequest) -> tuple[int, Any]:
        if "channel_id" in req.params:
            self._channel(req)
        return 204, None

    # -- users, application, gateway --------------------------------------------------

    async def get_me(self, req: ApiRequest) -> tuple[int, Any]:
        me = payloads.user_payload(self.state.bot_user)
        return 200, {**me, "verified": True, "mfa_enabled": False, "locale": "en-US", "email": None}

    async def get_user(self, req: ApiRequest) -> tuple[int, Any]:
        user = self.state.users.get(req.params["user_id"])
        if user is None:
            raise ApiError(404, 10013, "Unknown User")
        return 200, payloads.user_payload(user)

    async def get_application(self, req: ApiRequest) -> tuple[int, Any]:
        state = self.state
        return 200, {
            "id": state.application_id,
            "name": state.bot_user.name,
            "icon": None,
            "description": "Emulated application",
            "summary": "",
            "rpc_origins": [],
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": payloads.user_payload(state.owner),
            "team": None,
            "verify_key": "0" * 64,
            "flags": 0,
            "bot": payloads.user_payload(state.bot_user),
            "redirect_uris": [],
            "interactions_endpoint_url": None,
            "approximate_guild_count": len(state.guilds),
        }

    async def get_gateway(self, req: ApiRequest) -> tuple[int, Any]:
        return 200, {"url": self._gateway_url()}

    async def get_gateway_bot(self, req: ApiRequest) -> tuple[int, Any]:
        return 200, {
            "url": self._gateway_url(),
            "shards": self._recommended_shards(),
            "session_start_limit": {
                "total": 1000,
                "remaining": 999,
                "reset_after": 0,
                "max_concurrency": 1,
            },
        }

    async def create_dm(self, req: ApiRequest) -> tuple[int, Any]:
        body = req.json_dict()
        user = self.state.users.get(str(body.get("recipient_id")))
        if user is None or user is self.state.bot_user:
            raise ApiError(400, 50033, "Invalid Recipient(s)")
        return 200, self.state.channel_json(self.state.dm_channel(user))

    # -- application commands -----------------------------------------------------------

    def _command_scope(self, req: ApiRequest) -> str | None:
        if req.params["application_id"] != self.state.application_id:
            raise ApiError(403, 50001, "Missing Access")
        guild_id = req.params.get("guild_id")
        if guild_id is not None and guild_id not in self.state.guilds:
            raise ApiError(404, 10004, "Unknown Guild")
        return guild_id

    async def get_commands(self, req: ApiRequest) -> tuple[int, Any]:
        return 200, list(self.state.commands.scope(self._command_scope(req)))

    async def put_commands(self, req: ApiRequest) -> tuple[int, Any]:
        scope = self._command_scope(req)
        body = req.body
        if not isinstance(body, list):
            raise ApiError(400, 50035, "Invalid Form Body")
        for i, cmd in enumerate(body):
            _check_command(cmd, f"{i}.")
        state = self.state
        stored = state.commands.overwrite(scope, body, state.application_id, state.ids)
        return 200, stored

    async def post_command(self, req: ApiRequest) -> tuple[int, Any]:
        scope = self._command_scope(req)
        body = req.json_dict()
        _check_command(body, "")
        state = self.state
        return 201, state.commands.upsert(scope, body, state.application_id, state.ids)

    async def get_command(self, req: ApiRequest) -> tuple[int, Any]:
        scope = self._command_scope(req)
        for cmd in self.state.commands.scope(scope):
            if cmd["id"] == req.params["command_id"]:
                return 200, cmd
        raise ApiError(404, 10063, "Unknown application command")

    async def delete_command(self, req: ApiRequest) -> tuple[int, Any]:
        scope = self._command_scope(req)
        if not self.state.commands.delete(scope, req.params["command_id"]):
            raise ApiError(404, 10063, "Unknown application command")
        return 204, None

    # -- interaction callback and webhooks ------------------------------------------------

    async def callback(self, req: ApiRequest) -> tuple[int, Any]:
        state = self.state
        rec = state.interactions.get(req.params["interaction_id"])
        if rec is None or rec.token != req.params["token"]:
            raise unknown_interaction()
        req.interaction = rec
        if rec.callback_type is not None:
            raise ApiError(400, 40060, "Interaction has already been acknowledged.")
        age = state.loop_now() - rec.created_at
        if age > state.interaction_timeout:
            rec.late = True
            raise unknown_interaction()
        body = req.json_dict()
        ctype = body.get("type")
        data: dict[str, Any] = body.get("data") or {}
        if ctype not in ALLOWED_CALLBACKS.get(rec.type, set()):
            raise invalid_form(
                "type",
                "INTERACTION_RESPONSE_TYPE_INVALID",
                f"Response type {ctype} is not valid for interaction type {rec.type}",
            )
        channel = state.channels[rec.channel_id]
        source = state.messages.get(rec.source_message_id) if rec.source_message_id else None
        original: MessageRecord | None = None
        sizes = [len(f.data) for f in req.files]
        if ctype == CHANNEL_MESSAGE:
            # A message Discord refuses is never sent, so it reopens no archived thread.
            check_message(data, sizes, creating=True, size_limit=state.attachment_size_limit)
        if ctype in (CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE):
            self._thread_answer(rec, creating=True,
                                ephemeral=bool(int(data.get("flags") or 0) & EPHEMERAL))
        elif ctype == UPDATE_MESSAGE and source is not None:
            self._thread_answer(rec, creating=False, ephemeral=source.ephemeral)
        if ctype == CHANNEL_MESSAGE:
            original = state.create_message(
                channel,
                data,
                req.files,
                flags=int(data.get("flags") or 0) & SETTABLE_FLAGS,
                interaction=rec,
                message_type=20 if rec.type == APPLICATION_COMMAND else 0,
            )
        elif ctype == DEFERRED_CHANNEL_MESSAGE:
            flags = LOADING | (int(data.get("flags") or 0) & EPHEMERAL)
            original = state.create_message(
                channel,
                {},
                flags=flags,
                interaction=rec,
                message_type=20 if rec.type == APPLICATION_COMMAND else 0,
            )
        elif ctype in (DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE):
            if source is None:
                raise ApiError(400, 40004, "This interaction has no message to update")
            if ctype == UPDATE_MESSAGE:
                check_message(data, sizes, creating=False, size_limit=state.attachment_size_limit)
                state.check_old_edit(source)
                state.edit_message(source, data, req.files)
            original = source
        elif ctype == AUTOCOMPLETE_RESULT:
            check_choices(data.get("choices"))
        elif ctype == MODAL:
            check_modal(data)
        rec.callback_type = ctype
        rec.callback_data = data
        rec.callback_at = state.loop_now()
        if original is not None:
            rec.original_message_id = original.id
            if ctype == DEFERRED_UPDATE_MESSAGE:
                state.defer_update(rec, original.id)
        state.notify()
        if not req.flag("with_response"):
            return 204, None
        interaction: dict[str, Any] = {"id": rec.id, "type": rec.type}
        if original is not None:
            interaction.update(
                response_message_id=original.id,
                response_message_loading=original.loading,
                response_message_ephemeral=original.ephemeral,
            )
        resource: dict[str, Any] = {"type": ctype}
        if original is not None and ctype != DEFERRED_UPDATE_MESSAGE:
            resource["message"] = self._message(original)
        return 200, {"interaction": interaction, "resource": resource}

    def _webhook_interaction(self, req: ApiRequest) -> InteractionRecord:
        state = self.state
        if req.params["application_id"] != state.application_id:
            raise ApiError(404, 10015, "Unknown Webhook")
        rec = state.interactions_by_token.get(req.params["token"])
        if rec is None:
            raise ApiError(404, 10015, "Unknown Webhook")
        req.interaction = rec
        if rec.callback_type is None:
            raise ApiError(404, 10015, "Unknown Webhook")
        # The token outlives the bot process (a restarted bot may still answer) but not
        # Discord's 15 minutes.
        if state.loop_now() - rec.created_at > state.token_lifetime:
            raise ApiError(401, 50027, "Invalid Webhook Token")
        return rec

    def _webhook_message(self, req: ApiRequest, rec: InteractionRecord) -> MessageRecord:
        ref = req.params["message_ref"]
        mid = rec.original_message_id if ref == "@original" else ref
        if mid is None or (mid != rec.original_message_id and mid not in rec.followup_ids):
            raise unknown_message()
        msg = self.state.messages.get(mid)
        if msg is None or msg.deleted:
            raise unknown_message()
        return msg

    async def followup(self, req: ApiRequest) -> tuple[int, Any]:
        state = self.state
        rec = self._webhook_interaction(req)
        data = req.json_dict()
        sizes = [len(f.data) for f in req.files]
        check_message(data, sizes, creating=True, size_limit=state.attachment_size_limit)
        original = rec.original
        if (
            rec.callback_type == DEFERRED_CHANNEL_MESSAGE
            and original is not None
            and original.loading
            and not original.deleted
            and not rec.followup_ids
        ):
            # "Thinking…" becomes the message: in the thread unless it was ephemeral.
            self._thread_answer(rec, creating=True, ephemeral=original.ephemeral)
            msg = state.edit_message(original, data, req.files)
        else:
            self._thread_answer(rec, creating=True,
                                ephemeral=bool(int(data.get("flags") or 0) & EPHEMERAL))
            channel = state.channels[rec.channel_id]
            msg = state.create_message(
                channel,
                data,
                req.files,
                flags=int(data.get("flags") or 0) & SETTABLE_FLAGS,
                interaction=rec,
                message_type=20 if rec.type == APPLICATION_COMMAND else 0,
            )
        rec.followup_ids.append(msg.id)
        state.notify()
        if not req.flag("wait"):
            return 204, None
        return 200, self._message(msg)

    async def get_webhook_message(self, req: ApiRequest) -> tuple[int, Any]:
        rec = self._webhook_interaction(req)
        return 200, self._message(self._webhook_message(req, rec))

    async def edit_webhook_message(self, req: ApiRequest) -> tuple[int, Any]:
        state = self.state
        rec = self._webhook_interaction(req)
        msg = self._webhook_message(req, rec)
        data = req.json_dict()
        check_message(
            data,
            [len(f.data) for f in req.files],
            creating=False,
            size_limit=state.attachment_size_limit,
        )
        self._thread_answer(rec, creating=False, ephemeral=msg.ephemeral)
        state.check_old_edit(msg)
        state.edit_message(msg, data, req.files)
        rec.edited_ids.append(msg.id)
        if msg.id == rec.original_message_id:
            rec.original_edits += 1
        state.notify()
        return 200, self._message(msg)

    async def delete_webhook_message(self, req: ApiRequest) -> tuple[int, Any]:
        rec = self._webhook_interaction(req)
        msg = self._webhook_message(req, rec)
        ch = self.state.channels.get(rec.channel_id)
        if ch is not None and not msg.ephemeral:
            self._deletable_in(ch)
        self.state.delete_message(msg)
        rec.deleted_ids.append(msg.id)
        if msg.id == rec.original_message_id:
            rec.original_edits += 1
        return 204, None

    # -- channels ---------------------------------------------------------------------

    async def get_channel(self, req: ApiRequest) -> tuple[int, Any]:
        return 200, self.state.channel_json(self._channel(req))

    async def edit_channel(self, req: ApiRequest) -> tuple[int, Any]:
        state = self.state
        ch = self._channel(req)
        body = req.json_dict()
        if ch.is_thread:
            perms = state.effective_bot_permissions(ch)
            manage = has(perms, Perm.MANAGE_THREADS)
            if "locked" in body and not manage:
                raise missing_permissions()
            if ch.locked and body.get("archived") is False and not manage:
                raise missing_permissions()
            if "name" in body:
                check_channel_name(body.get("name"))
            changes_more = not set(body) <= {"archived", "locked"}
            if ch.archived and body.get("archived") is not False and changes_more:
                raise ApiError(400, 50083, "Thread is archived")
            state.update_thread(
                ch,
                archived=body.get("archived"),
                locked=body.get("locked"),
                name=body.get("name"),
                auto_archive_duration=body.get("auto_archive_duration"),
                invitable=body.get("invitable"),
            )
        elif ch.type is ChannelType.GUILD_TEXT:
            self._require(ch, Perm.MANAGE_CHANNELS)
            if "name" in body:
                check_channel_name(body.get("name"))
                ch.name = str(body["name"])
            if "topic" in body:
                ch.topic = body["topic"]
            state.dispatcher.dispatch(
                "CHANNEL_UPDATE", state.channel_json(ch), guild_id=ch.guild_id
            )
            state.notify()
        else:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        return 200, state.channel_json(ch)

    async def delete_channel(self, req: ApiRequest) -> tuple[int, Any]:
        ch = self._channel(req)
        if ch.is_thread:
            self._require(ch, Perm.MANAGE_THREADS)
        elif not ch.is_dm:
            self._require(ch, Perm.MANAGE_CHANNELS)
        payload = self.state.channel_json(ch)
        if not ch.is_dm:
            self.state.delete_channel(ch)
        return 200, payload

    # -- messages ---------------------------------------------------------------------

    async def post_message(self, req: ApiRequest) -> tuple[int, Any]:
        state = self.state
        ch = self._channel(req)
        body = req.json_dict()
        if ch.is_dm:
            recipient = state.users.get(ch.recipient_id or "")
            if (recipient is None or not recipient.dms_open
                    or state.shares_no_guild(recipient)):
                raise ApiError(403, 50007, "Cannot send messages to this user")
        else:
            send = Perm.SEND_MESSAGES_IN_THREADS if ch.is_thread else Perm.SEND_MESSAGES
            self._require(ch, Perm.VIEW_CHANNEL | send)
            if req.files:
                self._require(ch, Perm.ATTACH_FILES)
            self._strip_embeds_without_permission(ch, body)
        check_message(
            body,
            [len(f.data) for f in req.files],
            creating=True,
            size_limit=state.attachment_size_limit,
        )
        self._unlocked(ch)
        if ch.is_thread and ch.archived:
            state.posts_to_archived.append(ch.id)
            state.update_thread(ch, archived=False)
        reference = body.get("message_reference")
        if isinstance(reference, dict):
            reference = {
                k: str(v) if k.endswith("_id") and v is not None else v
                for k, v in reference.items()
            }
            body["message_reference"] = reference
        if isinstance(reference, dict) and reference.get("message_id"):
            target = state.messages.get(str(reference["message_id"]))
            if (target is None or target.deleted) and reference.get("fail_if_not_exists", True):
                raise invalid_form(
                    "message_reference", "REPLIES_UNKNOWN_MESSAGE", "Unknown message"
                )
        msg = state.create_message(
            ch,
            body,
            req.files,
            flags=int(body.get("flags") or 0) & SETTABLE_FLAGS & ~EPHEMERAL,
            message_type=19 if reference else 0,
        )
        return 200, self._message(msg)

    async def get_messages(self, req: ApiRequest) -> tuple[int, Any]:
        ch = self._channel(req)
        if not ch.is_dm and not has(
            self.state.effective_bot_permissions(ch), Perm.READ_MESSAGE_HISTORY
        ):
            return 200, []
        limit = max(1, min(100, int(req.query.get("limit", "50"))))
        msgs = self.state.messages_in(ch)
        before, after, around = (req.query.get(k) for k in ("before", "after", "around"))
        if before:
            msgs = [m for m in msgs if int(m.id) < int(before)]
        if after:
            msgs = [m for m in msgs if int(m.id) > int(after)]
            msgs = msgs[:limit]
        if around:
            older = [m for m in msgs if int(m.id) <= int(around)]
            newer = [m for m in msgs if int(m.id) > int(around)]
            msgs = older[-((limit + 1) // 2) :] + newer[: limit // 2]
        msgs = msgs[-limit:]
        return 200, [self._message(m) for m in reversed(msgs)]

    async def get_message(self, req: ApiRequest) -> tuple[int, Any]:
        ch = self._channel(req)
        return 200, self._message(self._message_in(ch, req.params["message_id"]))

    async def edit_message(self, req: ApiRequest) -> tuple[int, Any]:
        state = self.state
        ch = self._channel(req)
        msg = self._message_in(ch, req.params["message_id"])
        if msg.author_id != state.bot_user.id:
            raise ApiError(403, 50005, "Cannot edit a message authored by another user")
        self._writable_thread(ch)
        body = req.json_dict()
        if not ch.is_dm:
            if req.files:
                self._require(ch, Perm.ATTACH_FILES)
            self._strip_embeds_without_permission(ch, body)
        check_message(
            body,
            [len(f.data) for f in req.files],
            creating=False,
            size_limit=state.attachment_size_limit,
        )
        state.check_old_edit(msg)
        state.edit_message(msg, body, req.files)
        state.touch_deferred(msg.id)
        state.notify()
        return 200, self._message(msg)

    async def delete_message(self, req: ApiRequest) -> tuple[int, Any]:
        state = self.state
        ch = self._channel(req)
        msg = self._message_in(ch, req.params["message_id"])
        if msg.author_id != state.bot_user.id:
            self._require(ch, Perm.MANAGE_MESSAGES)
        self._deletable_in(ch)
        state.delete_message(msg)
        state.touch_deferred(msg.id)
        return 204, None

    # -- threads ----------------------------------------------------------------------

    def _thread_args(self, body: dict[str, Any]) -> tuple[str, int]:
        name = str(body.get("name") or "")
        if not 1 <= len(name) <= 100:
            raise invalid_form(
                "name", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length."
            )
        duration = int(body.get("auto_archive_duration") or 1440)
        if duration not in (60, 1440, 4320, 10080):
            raise invalid_form(
                "auto_archive_duration",
                "BASE_TYPE_CHOICES",
                "Value must be one of (60, 1440, 4320, 10080).",
            )
        return name, duration

    async def create_thread(self, req: ApiRequest) -> tuple[int, Any]:
        ch = self._channel(req)
        if ch.type is not ChannelType.GUILD_TEXT:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        body = req.json_dict()
        name, duration = self._thread_args(body)
        private = int(body.get("type") or ChannelType.PRIVATE_THREAD) == ChannelType.PRIVATE_THREAD
        needed = Perm.CREATE_PRIVATE_THREADS if private else Perm.CREATE_PUBLIC_THREADS
        self._require(ch, Perm.VIEW_CHANNEL | needed)
        thread = self.state.create_thread(
            ch,
            name,
            private=private,
            auto_archive_duration=duration,
            invitable=bool(body.get("invitable", True)),
        )
        return 201, self.state.channel_json(thread)

    async def create_thread_from_message(self, req: ApiRequest) -> tuple[int, Any]:
        state = self.state
        ch = self._channel(req)
        if ch.type is not ChannelType.GUILD_TEXT:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        msg = self._message_in(ch, req.params["message_id"])
        body = req.json_dict()
        name, duration = self._thread_args(body)
        self._require(ch, Perm.VIEW_CHANNEL | Perm.CREATE_PUBLIC_THREADS)
        if msg.id in state.channels:
            raise ApiError(400, 160004, "A thread has already been created for this message")
        thread = state.create_thread(ch, name, thread_id=msg.id, auto_archive_duration=duration)
        return 201, state.channel_json(thread)

    def _thread_user(self, req: ApiRequest) -> tuple[ChannelRecord, str]:
        ch = self._channel(req)
        if not ch.is_thread:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        ref = req.params["user_ref"]
        uid = self.state.bot_user.id if ref == "@me" else ref
        guild = self.state.guilds.get(ch.guild_id or "")
        if guild is None or uid not in guild.members:
            raise ApiError(404, 10007, "Unknown Member")
        return ch, uid

    async def add_thread_member(self, req: ApiRequest) -> tuple[int, Any]:
        ch, uid = self._thread_user(req)
        self._writable_thread(ch)
        ch.member_ids.add(uid)
        self.state.notify()
        return 204, None

    async def remove_thread_member(self, req: ApiRequest) -> tuple[int, Any]:
        ch, uid = self._thread_user(req)
        ch.member_ids.discard(uid)
        self.state.notify()
        return 204, None

    # -- guilds -----------------------------------------------------------------------

    def _guild(self, req: ApiRequest) -> Any:
        guild = self.state.guilds.get(req.params["guild_id"])
        if guild is None:
            raise ApiError(404, 10004, "Unknown Guild")
        return guild

    async def get_guild(self, req: ApiRequest) -> tuple[int, Any]:
        guild = self._guild(req)
        return 200, {
            **payloads.guild_payload(guild),
            "approximate_member_count": len(guild.members),
            "approximate_presence_count": 0,
        }

    async def get_guild_channels(self, req: ApiRequest) -> tuple[int, Any]:
        guild = self._guild(req)
        state = self.state
        return 200, [
            state.channel_json(state.channels[c])
            for c in guild.channel_ids
            if state.channels[c].type is ChannelType.GUILD_TEXT and not state.channels[c].deleted
        ]

    async def create_guild_channel(self, req: ApiRequest) -> tuple[int, Any]:
        """A text channel (type 0 only), with its permission overwrites. Needs Manage
        Channels, and Manage Roles to carry overwrites, from the bot's role."""
        guild = self._guild(req)
        body = req.json_dict()
        if int(body.get("type") or 0) != ChannelType.GUILD_TEXT:
            raise ApiError(400, 50035, "Invalid Form Body: only text channels are emulated")
        overwrites = self._overwrites(guild.id, body.get("permission_overwrites") or [])
        needed = Perm.MANAGE_CHANNELS | (Perm.MANAGE_ROLES if overwrites else 0)
        if not has(guild.bot_permissions, needed):
            raise missing_permissions()
        name = str(body.get("name") or "")
        check_channel_name(name)
        ch = self.state.create_text_channel(
            guild, name, bot_permissions=guild.bot_permissions, topic=body.get("topic"),
            overwrites=overwrites)
        return 201, self.state.channel_json(ch)

    def _overwrites(self, guild_id: str, entries: list[Any]) -> dict[str, tuple[int, int, int]]:
        """Overwrites from a request body; the bot's own are its ``bot_permissions``."""
        out: dict[str, tuple[int, int, int]] = {}
        for entry in entries:
            oid = str(entry.get("id"))
            if oid == self.state.bot_user.id:
                continue
            out[oid] = (int(entry.get("type") or 0), int(entry.get("allow") or 0),
                        int(entry.get("deny") or 0))
        return out

    async def put_overwrite(self, req: ApiRequest) -> tuple[int, Any]:
        ch = self._channel(req)
        if ch.type is not ChannelType.GUILD_TEXT:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        self._require(ch, Perm.MANAGE_ROLES)
        body = req.json_dict()
        entry = {**body, "id": req.params["target_id"]}
        overwrite = self._overwrites(ch.guild_id or "", [entry]).get(req.params["target_id"])
        if overwrite is not None:
            self.state.set_overwrite(ch, req.params["target_id"], overwrite)
        return 204, None

    async def delete_overwrite(self, req: ApiRequest) -> tuple[int, Any]:
        ch = self._channel(req)
        self._require(ch, Perm.MANAGE_ROLES)
        self.state.set_overwrite(ch, req.params["target_id"], None)
        return 204, None

    async def get_active_threads(self, req: ApiRequest) -> tuple[int, Any]:
        guild = self._guild(req)
        state = self.state
        threads = [state.channels[c] for c in guild.channel_ids]
        active = [t for t in threads if t.is_thread and not t.archived and not t.deleted]
        return 200, {"threads": [payloads.thread_payload(t) for t in active], "members": []}

    async def get_roles(self, req: ApiRequest) -> tuple[int, Any]:
        guild = self._guild(req)
        return 200, [payloads.role_payload(r) for r in guild.roles.values()]

    async def get_members(self, req: ApiRequest) -> tuple[int, Any]:
        guild = self._guild(req)
        limit = max(1, min(1000, int(req.query.get("limit", "1"))))
        after = int(req.query.get("after", "0"))
        members = sorted(guild.members.values(), key=lambda m: int(m.id))
        return 200, [payloads.member_payload(m) for m in members if int(m.id) > after][:limit]

    async def modify_member(self, req: ApiRequest) -> tuple[int, Any]:
        """Server-mute or unmute a member (the only field modelled): needs Mute Members in the
        voice channel they are in; a member not connected to voice answers 400 / 40032, as
        on Discord (a server mute is set only on someone in voice)."""
        guild = self._guild(req)
        if guild.bot_removed:
            raise ApiError(403, 50001, "Missing Access")
        member = guild.members.get(req.params["user_id"])
        if member is None:
            raise ApiError(404, 10007, "Unknown Member")
        body = req.json_dict()
        if set(body) != {"mute"} or not isinstance(body["mute"], bool):
            raise ApiError(400, 50035, "Invalid Form Body (the emulator models only "
                                       "{\"mute\": true|false})")
        vs = guild.voice_states.get(member.id)
        if vs is None:
            raise ApiError(400, 40032, "Target user is not connected to voice.")
        self._require(self.state.channel(vs.channel_id), Perm.MUTE_MEMBERS)
        self.state.set_server_mute(guild, member.user, body["mute"])
        return 200, payloads.member_payload(member)

    async def get_member(self, req: ApiRequest) -> tuple[int, Any]:
        guild = self._guild(req)
        member = guild.members.get(req.params["user_id"])
        if member is None:
            raise ApiError(404, 10007, "Unknown Member")
        return 200, payloads.member_payload(member)


def _check_command(cmd: Any, prefix: str) -> None:
    errors: dict[str, Any] = {}

    def bad(path: str, message: str) -> None:
        errors[prefix + path] = {
            "_errors": [{"code": "APPLICATION_COMMAND_INVALID", "message": message}]
        }

    if not isinstance(cmd, dict):
        raise ApiError(400, 50035, "Invalid Form Body")
    name = str(cmd.get("name") or "")
    kind = cmd.get("type", 1)
    if kind == 1:
        if not _COMMAND_NAME.match(name) or name != name.lower():
            bad("name", "Command name is invalid")
        if not 1 <= len(str(cmd.get("description") or "")) <= 100:
            bad("description", "Must be between 1 and 100 in length.")
    _check_options(cmd.get("options") or [], "options", bad)
    for path, problem in _choice_problems(cmd.get("options") or [], "options").items():
        errors[prefix + path] = problem
    if errors:
        raise ApiError(400, 50035, "Invalid Form Body", errors)


def _choice_problems(options: list[dict[str, Any]], path: str) -> dict[str, Any]:
    """Option names (1-32), descriptions (1-100) and fixed choices, as Discord checks them."""
    out: dict[str, Any] = {}
    for i, opt in enumerate(options):
        here = f"{path}.{i}"
        if not _COMMAND_NAME.match(str(opt.get("name") or "")):
            out[f"{here}.name"] = {"_errors": [{"code": "APPLICATION_COMMAND_INVALID_NAME",
                                                "message": "Command name is invalid"}]}
        if not 1 <= len(str(opt.get("description") or "")) <= 100:
            out[f"{here}.description"] = {"_errors": [{
                "code": "BASE_TYPE_BAD_LENGTH", "message": "Must be between 1 and 100 in length."}]}
        out.update(check_command_choices(opt.get("choices"), f"{here}.choices"))
        out.update(_choice_problems(opt.get("options") or [], f"{here}.options"))
    return out


def _check_options(
    options: list[dict[str, Any]], path: str, bad: Callable[[str, str], None]
) -> None:
    if len(options) > 25:
        bad(path, "Must be 25 or fewer in length.")
    seen_optional = False
    for i, opt in enumerate(options):
        if opt.get("type") in (1, 2):
            _check_options(opt.get("options") or [], f"{path}.{i}.options", bad)
            continue
        if opt.get("required"):
            if seen_optional:
                bad(
                    f"{path}.{i}.required",
                    "Required options must be placed before non-required options",
                )
        else:
            seen_optional = True
        if len(opt.get("choices") or []) > 25:
            bad(f"{path}.{i}.choices", "Must be 25 or fewer in length.")
        if opt.get("autocomplete") and opt.get("choices"):
            bad(f"{path}.{i}.autocomplete", "Autocomplete cannot be set with choices")
