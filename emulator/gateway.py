"""The emulated Discord Gateway (websocket at ``/gateway``).

Owns sessions and connections: HELLO, IDENTIFY -> READY + GUILD_CREATE (only the guilds
of the identified shard), heartbeats, RESUME (replaying missed dispatches by sequence
number, then RESUMED), member requests (op 8 -> GUILD_MEMBERS_CHUNK), and the faults a
test can cause (op 7 RECONNECT, op 9 INVALID_SESSION, a close code). ``GatewayHub`` is
the ``Dispatcher`` the state hands events to: it routes each event to the sessions whose
shard owns the guild (DMs go to shard 0), filtered by intents, each with its own ``seq``.
Frames are text JSON (discord.py only decompresses binary frames).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from emulator import payloads
from emulator.ids import new_token, shard_for
from emulator.state import EmulatorState

_log = logging.getLogger(__name__)

HEARTBEAT_INTERVAL_MS = 41250
HEARTBEAT_ACK_SECONDS = 0.1
"""How long the HEARTBEAT_ACK takes, as a round trip to Discord does. An instant ACK reached
discord.py's keep-alive thread before it had noted the heartbeat's send, so the client
measured its latency from its start and warned "Can't keep up, websocket is 41.3s behind"
at every first heartbeat."""
BACKLOG = 5000
FATAL_CLOSE_CODES = frozenset({4004, 4010, 4011, 4012, 4013, 4014})
UNRESUMABLE_CLOSE_CODES = frozenset({4007, 4009})


@dataclass(frozen=True)
class _Close:
    code: int | None


class GatewayConnection:
    """One websocket. Everything sent to it goes through one ordered queue."""

    def __init__(self, ws: web.WebSocketResponse, *, via_resume_url: bool) -> None:
        self.ws = ws
        self.via_resume_url = via_resume_url
        self.queue: asyncio.Queue[str | _Close] = asyncio.Queue()
        self.session: GatewaySession | None = None
        self.server_close_code: int | None = None
        self.finished = asyncio.Event()

    def send_op(self, op: int, data: Any) -> None:
        self.queue.put_nowait(json.dumps({"op": op, "d": data, "s": None, "t": None}))

    def close(self, code: int) -> None:
        """Close after everything queued before has been sent."""
        if self.server_close_code is None:
            self.server_close_code = code
        self.queue.put_nowait(_Close(code))

    async def run_writer(self) -> None:
        while True:
            item = await self.queue.get()
            if isinstance(item, _Close):
                if item.code is not None and not self.ws.closed:
                    with contextlib.suppress(Exception):
                        await self.ws.close(code=item.code)
                return
            if self.ws.closed:
                continue
            try:
                await self.ws.send_str(item)
            except (ConnectionError, RuntimeError):
                return


@dataclass(eq=False)
class GatewaySession:
    """A gateway session: survives its connection until resumed, invalidated or replaced."""

    id: str
    shard_id: int
    shard_count: int
    intents: int
    token: str
    seq: int = 0
    backlog: deque[tuple[int, str]] = field(default_factory=lambda: deque(maxlen=BACKLOG))
    conn: GatewayConnection | None = None
    invalidated: bool = False
    resumes: int = 0

    @property
    def live(self) -> bool:
        return self.conn is not None and not self.invalidated

    def owns(self, guild_id: str | None) -> bool:
        if guild_id is None:
            return self.shard_id == 0
        return shard_for(guild_id, self.shard_count) == self.shard_id

    def push(self, event: str, body: str) -> None:
        """Queue a dispatch (``body`` is the JSON of ``d``) with the next sequence number."""
        self.seq += 1
        frame = f'{{"op":0,"s":{self.seq},"t":"{event}","d":{body}}}'
        self.backlog.append((self.seq, frame))
        if self.conn is not None:
            self.conn.queue.put_nowait(frame)

    def can_replay_from(self, seq: int) -> bool:
        if seq > self.seq:
            return False
        if not self.backlog:
            return True
        return self.backlog[0][0] <= seq + 1


class GatewayHub:
    """Routes dispatches to sessions and serves the gateway websocket."""

    def __init__(
        self,
        state: EmulatorState,
        *,
        resume_url: Callable[[], str],
        expected_token: Callable[[], str | None],
    ) -> None:
        self.state = state
        self.sessions: dict[str, GatewaySession] = {}
        self.connections: set[GatewayConnection] = set()
        self._resume_url = resume_url
        self._expected_token = expected_token

    # -- Dispatcher -----------------------------------------------------------------

    def dispatch(
        self,
        event: str,
        data: dict[str, Any],
        *,
        guild_id: str | None,
        intent: int | None = None,
        all_of: int = 0,
        none_of: int = 0,
    ) -> int:
        targets = [
            s
            for s in self.sessions.values()
            if not s.invalidated
            and s.owns(guild_id)
            and (intent is None or s.intents & intent)
            and s.intents & all_of == all_of
            and not s.intents & none_of
        ]
        if not targets:
            return 0
        body = json.dumps(data)
        for session in targets:
            session.push(event, body)
        self.state.stats.dispatches[event] += 1
        return len(targets)

    # -- status ---------------------------------------------------------------------

    def live_sessions(self) -> list[GatewaySession]:
        return [s for s in self.sessions.values() if s.live]

    # -- websocket --------------------------------------------------------------------

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await ws.prepare(request)
        via_resume = request.path.rstrip("/").endswith("resume-gateway")
        stats = self.state.stats
        stats.gateway_connections += 1
        if via_resume:
            stats.resume_url_connections += 1
        conn = GatewayConnection(ws, via_resume_url=via_resume)
        self.connections.add(conn)
        writer = asyncio.create_task(conn.run_writer(), name="emulator-gateway-writer")
        conn.send_op(10, {"heartbeat_interval": HEARTBEAT_INTERVAL_MS, "_trace": ["emulator"]})
        try:
            async for msg in ws:
                if msg.type is WSMsgType.TEXT:
                    try:
                        payload = json.loads(msg.data)
                    except ValueError:
                        conn.close(4002)
                        continue
                    self._on_payload(conn, payload)
                elif msg.type is WSMsgType.ERROR:
                    break
        finally:
            self._detach(conn, ws.close_code)
            conn.queue.put_nowait(_Close(None))
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer, 5)
            self.connections.discard(conn)
            conn.finished.set()
            self.state.notify()
        return ws

    def _detach(self, conn: GatewayConnection, close_code: int | None) -> None:
        session = conn.session
        if session is None or session.conn is not conn:
            return
        session.conn = None
        client_closed_cleanly = conn.server_close_code is None and close_code in (1000, 1001)
        if client_closed_cleanly:
            session.invalidated = True
            self.sessions.pop(session.id, None)

    def _on_payload(self, conn: GatewayConnection, payload: dict[str, Any]) -> None:
        op = payload.get("op")
        data = payload.get("d")
        if op == 1:
            self.state.stats.heartbeats += 1
            asyncio.get_running_loop().call_later(HEARTBEAT_ACK_SECONDS, conn.send_op, 11, None)
        elif op == 2 and isinstance(data, dict):
            self._identify(conn, data)
        elif op == 6 and isinstance(data, dict):
            self._resume(conn, data)
        elif op == 8 and isinstance(data, dict):
            self._request_members(conn, data)
        elif op == 3:
            self.state.presences.append(data if isinstance(data, dict) else {})
        elif op == 4:
            pass
        else:
            _log.debug("emulator gateway ignores op %s", op)

    def _identify(self, conn: GatewayConnection, data: dict[str, Any]) -> None:
        state = self.state
        state.stats.identifies += 1
        token = str(data.get("token", ""))
        if token not in state.tokens_seen:
            state.tokens_seen.append(token)
        expected = self._expected_token()
        if expected is not None and token != expected:
            conn.close(4004)
            return
        if conn.session is not None:
            conn.close(4005)
            return
        raw_shard = data.get("shard")
        shard_id, shard_count = (int(raw_shard[0]), int(raw_shard[1])) if raw_shard else (0, 1)
        if shard_count < 1 or not 0 <= shard_id < shard_count:
            conn.close(4010)
            return
        for old in list(self.sessions.values()):
            if (old.shard_id, old.shard_count) == (shard_id, shard_count) and old.conn is None:
                old.invalidated = True
                del self.sessions[old.id]
        session = GatewaySession(
            id=new_token(""),
            shard_id=shard_id,
            shard_count=shard_count,
            intents=int(data.get("intents", (1 << 17) - 1)),
            token=token,
        )
        self.sessions[session.id] = session
        session.conn = conn
        conn.session = session
        guilds = [g for g in state.guilds.values() if session.owns(g.id) and not g.bot_removed]
        ready: dict[str, Any] = {
            "v": 10,
            "user": {
                **payloads.user_payload(state.bot_user),
                "verified": True,
                "mfa_enabled": False,
                "locale": "en-US",
            },
            "guilds": [{"id": g.id, "unavailable": True} for g in guilds],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": self._resume_url(),
            "application": {"id": state.application_id, "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "geo_ordered_rtc_regions": [],
            "_trace": ["emulator"],
        }
        if raw_shard:
            ready["shard"] = [shard_id, shard_count]
        session.push("READY", json.dumps(ready))
        for guild in guilds:
            session.push("GUILD_CREATE", json.dumps(state.guild_create(guild)))
        state.notify()

    def _resume(self, conn: GatewayConnection, data: dict[str, Any]) -> None:
        session = self.sessions.get(str(data.get("session_id")))
        seq = data.get("seq")
        expected = self._expected_token()
        if (
            session is None
            or session.invalidated
            or not isinstance(seq, int)
            or not session.can_replay_from(seq)
            or (expected is not None and data.get("token") != expected)
        ):
            conn.send_op(9, False)
            return
        if session.conn is not None and session.conn is not conn:
            old = session.conn
            old.session = None
            old.close(4000)
        session.conn = conn
        conn.session = session
        for frame_seq, frame in session.backlog:
            if frame_seq > seq:
                conn.queue.put_nowait(frame)
        session.push("RESUMED", json.dumps({"_trace": ["emulator"]}))
        session.resumes += 1
        self.state.stats.resumes += 1
        self.state.notify()

    def _request_members(self, conn: GatewayConnection, data: dict[str, Any]) -> None:
        session = conn.session
        if session is None:
            conn.close(4003)
            return
        self.state.stats.member_requests += 1
        guild = self.state.guilds.get(str(data.get("guild_id")))
        members = list(guild.members.values()) if guild else []
        not_found: list[str] = []
        user_ids = data.get("user_ids")
        if user_ids:
            wanted = [str(u) for u in (user_ids if isinstance(user_ids, list) else [user_ids])]
            not_found = [u for u in wanted if guild is None or u not in guild.members]
            members = [m for m in members if m.id in wanted]
        elif data.get("query"):
            query = str(data["query"]).lower()
            members = [m for m in members if m.user.name.lower().startswith(query)]
        limit = int(data.get("limit") or 0)
        if limit:
            members = members[:limit]
        chunk: dict[str, Any] = {
            "guild_id": str(data.get("guild_id")),
            "members": [payloads.member_payload(m) for m in members],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": not_found,
        }
        if data.get("nonce") is not None:
            chunk["nonce"] = data["nonce"]
        session.push("GUILD_MEMBERS_CHUNK", json.dumps(chunk))

    # -- faults -----------------------------------------------------------------------

    def send_reconnect(self) -> int:
        live = self.live_sessions()
        for session in live:
            assert session.conn is not None
            session.conn.send_op(7, None)
        return len(live)

    def send_invalid_session(self, resumable: bool) -> int:
        live = self.live_sessions()
        for session in live:
            assert session.conn is not None
            session.conn.send_op(9, resumable)
            if not resumable:
                session.invalidated = True
                self.sessions.pop(session.id, None)
        return len(live)

    def close_live(self, code: int) -> list[GatewayConnection]:
        live = self.live_sessions()
        closed: list[GatewayConnection] = []
        for session in live:
            conn = session.conn
            assert conn is not None
            if code in UNRESUMABLE_CLOSE_CODES or code in FATAL_CLOSE_CODES:
                session.invalidated = True
                self.sessions.pop(session.id, None)
            conn.close(code)
            closed.append(conn)
        return closed

    async def shutdown(self) -> None:
        """Close every websocket (going away) and wait for their handlers to finish."""
        conns = list(self.connections)
        for conn in conns:
            conn.close(1001)
        for conn in conns:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(conn.finished.wait(), 5)
        for session in self.sessions.values():
            session.invalidated = True
        self.sessions.clear()
