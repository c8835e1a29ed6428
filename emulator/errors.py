"""Errors of the Discord emulator.

Owns ``EmulatorError`` (a test asked for something Discord would not let a user do, or
the bot is not connected) and ``ApiError`` (a REST answer with a Discord error body,
raised inside route handlers and turned into the HTTP response).
"""

from __future__ import annotations

from typing import Any


class EmulatorError(Exception):
    """A test asked the emulator for something Discord would not let a user do."""


class ApiError(Exception):
    """A Discord REST error: HTTP ``status`` with JSON ``{"message", "code"[, "errors"]}``."""

    def __init__(
        self,
        status: int,
        code: int,
        message: str,
        errors: dict[str, Any] | None = None,
        *,
        extra: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors
        self.extra = extra or {}
        self.headers = headers or {}

    def body(self) -> dict[str, Any]:
        out: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors:
            out["errors"] = self.errors
        out.update(self.extra)
        return out


def unknown_channel() -> ApiError:
    return ApiError(404, 10003, "Unknown Channel")


def unknown_message() -> ApiError:
    return ApiError(404, 10008, "Unknown Message")


def missing_permissions() -> ApiError:
    return ApiError(403, 50013, "Missing Permissions")


def unknown_interaction() -> ApiError:
    return ApiError(404, 10062, "Unknown interaction")


def thread_locked() -> ApiError:
    """A post in a locked thread by a bot without Manage Threads: Discord answers 403 with
    50083 (the archived-thread code, as it does for a locked thread)."""
    return ApiError(403, 50083, "Thread is archived")


def rate_limited(code: int, message: str, retry_after: float) -> ApiError:
    """A 429 with a JSON error code (e.g. 30046), as discord.py retries it: ``Via`` header,
    ``retry_after`` in the body."""
    headers = {
        "Via": "1.1 google",
        "Retry-After": str(max(1, round(retry_after))),
        "X-RateLimit-Scope": "user",
    }
    return ApiError(429, code, message, extra={"retry_after": retry_after, "global": False},
                    headers=headers)


OLD_EDITS_CODE = 30046
OLD_EDITS_MESSAGE = (
    "Maximum number of edits to messages older than 1 hour reached. Try again later"
)


def invalid_form(path: str, code: str, message: str) -> ApiError:
    """400 / 50035 "Invalid Form Body" naming one offending field."""
    errors = {path: {"_errors": [{"code": code, "message": message}]}}
    return ApiError(400, 50035, "Invalid Form Body", errors)
