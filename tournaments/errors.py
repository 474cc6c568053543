"""Errors of the tournament services. The web layer maps them to 400, 403, 404 and 409."""

from __future__ import annotations

from typing import Any


class ServiceError(Exception):
    """Bad input for a service: ``field_errors`` maps each bad field (JSON path) to messages."""

    def __init__(self, field_errors: dict[str, list[str]], message: str | None = None) -> None:
        self.field_errors = field_errors
        first = next(iter(field_errors.items()), ("", [""]))
        super().__init__(message or f"{first[0]}: {first[1][0]}" if first[0] else (message or "invalid input"))

    @classmethod
    def one(cls, field: str, message: str) -> ServiceError:
        return cls({field: [message]})


class StaleVersion(Exception):
    """The writer saw an older version of the match: nothing was written (HTTP 409)."""

    def __init__(self, current: dict[str, Any]) -> None:
        self.current = current
        super().__init__(f"stale version: the match is at version {current.get('version')}")


class CorrectionRefused(Exception):
    """A correction would change a finished match whose winner already played on (HTTP 409)."""

    def __init__(self, message: str, affected: list[str]) -> None:
        self.affected = affected
        super().__init__(message)


class NotAllowed(Exception):
    """The actor may not do this (HTTP 403)."""
