"""What the emulator remembers of one injected interaction, and Discord's numbers for its types.

Below the emulator's state (which keeps every record): a record reads the state only through
`RecordLookups`, the little it needs (the messages and users it names, and waiting).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from emulator.records import (
    EPHEMERAL,
    AttachmentRecord,
    ErrorRecord,
    MessageRecord,
    UserRecord,
)

T = TypeVar("T")


class RecordLookups(Protocol):
    """What an interaction record reads of the emulator's state."""

    messages: dict[str, MessageRecord]
    users: dict[str, UserRecord]

    async def wait_for(
        self, predicate: Callable[[], T | None], timeout: float, describe: Callable[[], str]
    ) -> T: ...


APPLICATION_COMMAND = 2
MESSAGE_COMPONENT = 3
AUTOCOMPLETE = 4
MODAL_SUBMIT = 5

CHANNEL_MESSAGE = 4
DEFERRED_CHANNEL_MESSAGE = 5
DEFERRED_UPDATE_MESSAGE = 6
UPDATE_MESSAGE = 7
AUTOCOMPLETE_RESULT = 8
MODAL = 9

CALLBACK_NAMES = {
    1: "pong",
    CHANNEL_MESSAGE: "message",
    DEFERRED_CHANNEL_MESSAGE: "deferred message (thinking)",
    DEFERRED_UPDATE_MESSAGE: "deferred update",
    UPDATE_MESSAGE: "update message",
    AUTOCOMPLETE_RESULT: "autocomplete result",
    MODAL: "modal",
}


@dataclass(eq=False)
class InteractionRecord:
    """One injected interaction and everything the bot did with its token.

    ``callback_type`` is the initial response (4 message, 5 deferred, 6 deferred
    update, 7 update message, 8 autocomplete, 9 modal); ``messages`` are the reply
    messages in their current state (the original response, then follow-ups).
    """

    id: str
    token: str
    type: int
    user_id: str
    channel_id: str
    guild_id: str | None
    name: str
    payload: dict[str, Any]
    created_at: float
    state: RecordLookups = field(repr=False)
    source_message_id: str | None = None
    callback_type: int | None = None
    callback_data: dict[str, Any] | None = None
    callback_at: float | None = None
    original_message_id: str | None = None
    followup_ids: list[str] = field(default_factory=list)
    original_edits: int = 0
    edited_ids: list[str] = field(default_factory=list)
    deleted_ids: list[str] = field(default_factory=list)
    touched: bool = False
    late: bool = False
    errors: list[ErrorRecord] = field(default_factory=list)

    # -- reading ------------------------------------------------------------------

    @property
    def responded(self) -> bool:
        return self.callback_type is not None

    @property
    def deferred(self) -> bool:
        return self.callback_type in (DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE_MESSAGE)

    @property
    def latency(self) -> float | None:
        """Seconds from injection to the initial callback."""
        if self.callback_at is None:
            return None
        return self.callback_at - self.created_at

    @property
    def original(self) -> MessageRecord | None:
        """The ``@original`` message: the reply (4/5) or the component's message (6/7)."""
        if self.original_message_id is None:
            return None
        return self.state.messages.get(self.original_message_id)

    @property
    def followups(self) -> list[MessageRecord]:
        return [self.state.messages[m] for m in self.followup_ids if m in self.state.messages]

    @property
    def messages(self) -> list[MessageRecord]:
        """Reply messages as they are now (deleted ones left out)."""
        out: list[MessageRecord] = []
        original = self.original
        if original is not None and not original.deleted:
            replied = self.callback_type in (
                CHANNEL_MESSAGE,
                DEFERRED_CHANNEL_MESSAGE,
                UPDATE_MESSAGE,
            )
            if replied or self.original_edits or self.touched:
                out.append(original)
        for msg in self.followups:
            if not msg.deleted and msg not in out:
                out.append(msg)
        return out

    @property
    def text(self) -> str:
        """Content and embed/text-display texts of every reply message, one per line."""
        return "\n".join(m.text for m in self.messages if m.text)

    @property
    def ephemeral(self) -> bool:
        """Whether the (first) reply is only visible to the user."""
        if self.callback_type in (CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE):
            return bool(int((self.callback_data or {}).get("flags") or 0) & EPHEMERAL)
        msgs = self.messages
        return bool(msgs) and msgs[0].ephemeral

    @property
    def choices(self) -> list[dict[str, Any]]:
        """The autocomplete choices the bot answered (callback type 8)."""
        if self.callback_type != AUTOCOMPLETE_RESULT:
            return []
        return list((self.callback_data or {}).get("choices") or [])

    @property
    def modal(self) -> dict[str, Any] | None:
        """The modal the bot opened (callback type 9): custom_id, title, components."""
        if self.callback_type != MODAL:
            return None
        return self.callback_data

    @property
    def files(self) -> list[AttachmentRecord]:
        """Every attachment on the reply messages."""
        return [a for m in self.messages for a in m.attachments]

    @property
    def done(self) -> bool:
        """The bot answered, and a deferral was followed by a follow-up or an edit."""
        if self.callback_type is None:
            return False
        if self.callback_type == DEFERRED_CHANNEL_MESSAGE:
            original = self.original
            loading = original is not None and original.loading and not original.deleted
            return bool(self.followup_ids) or not loading
        if self.callback_type == DEFERRED_UPDATE_MESSAGE:
            return bool(self.followup_ids or self.original_edits or self.touched)
        return True

    def describe(self) -> str:
        user = self.state.users.get(self.user_id)
        who = user.name if user else self.user_id
        return f"interaction {self.id} ({self.name} by {who})"

    # -- waiting ------------------------------------------------------------------

    async def wait_callback(self, timeout: float = 5.0) -> InteractionRecord:
        """Wait for the initial callback; ``AssertionError`` if it does not come."""

        def missing() -> str:
            return (
                f"{self.describe()}: no interaction callback within {timeout}s "
                f"(a user would see 'This interaction failed'){self._error_note()}"
            )

        await self.state.wait_for(lambda: self.responded, timeout, missing)
        return self

    async def wait_done(self, timeout: float = 5.0) -> InteractionRecord:
        """Wait until answered and, if deferred, followed up or edited."""

        def missing() -> str:
            if self.callback_type is None:
                return (
                    f"{self.describe()}: no interaction callback within {timeout}s "
                    f"(a user would see 'This interaction failed'){self._error_note()}"
                )
            kind = CALLBACK_NAMES.get(self.callback_type, str(self.callback_type))
            return (
                f"{self.describe()}: the bot answered with a {kind} (type "
                f"{self.callback_type}) but sent no follow-up or edit within {timeout}s"
                f"{self._error_note()}"
            )

        await self.state.wait_for(lambda: self.done, timeout, missing)
        return self

    def _error_note(self) -> str:
        if not self.errors:
            return ""
        return "; errors answered: " + ", ".join(
            f"{e.method} {e.path} -> {e.status} {e.message}" for e in self.errors
        )

    def __repr__(self) -> str:
        return f"<InteractionRecord {self.name} id={self.id} callback={self.callback_type}>"
