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
        self, status: int, code: int, message: str, errors: dict[str, Any] | None = None
    ) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors

    def body(self) -> dict[str, Any]:
        out: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors:
            out["errors"] = self.errors
        return out


def unknown_channel() -> ApiError:
    return ApiError(404, 10003, "Unknown Channel")


def unknown_message() -> ApiError:
    return ApiError(404, 10008, "Unknown Message")


def missing_permissions() -> ApiError:
    return ApiError(403, 50013, "Missing Permissions")


def invalid_form(path: str, code: str, message: str) -> ApiError:
    """400 / 50035 "Invalid Form Body" naming one offending field."""
    errors = {path: {"_errors": [{"code": code, "message": message}]}}
    return ApiError(400, 50035, "Invalid Form Body", errors)
