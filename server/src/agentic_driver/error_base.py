"""The root of the host's exception tree and its groups; ``error_classes`` (generated) holds a class per code,
and ``errors`` draws the whole tree and re-exports it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from .error_table import CATALOGUE, ErrorCode

__all__ = ["Conflict", "DriverError", "NotFound", "ProviderFailed", "RetryLater", "Unprocessable", "present"]


class DriverError(Exception):
    """A failure with a stable code; ``fields`` are the code-specific problem members."""

    code: ClassVar[ErrorCode] = ErrorCode.INTERNAL_ERROR

    def __init__(self, detail: str, *, retry_after_seconds: int | None = None, **fields: Any) -> None:
        super().__init__(detail)
        self.detail = detail
        self.retry_after_seconds = retry_after_seconds
        self.fields = fields

    @property
    def status(self) -> int:
        return CATALOGUE[self.code].status

    @property
    def title(self) -> str:
        return CATALOGUE[self.code].title

    def problem(self, instance: str | None = None) -> dict[str, Any]:
        """The RFC 9457 problem body for this error."""
        body: dict[str, Any] = {
            "type": f"urn:agentic-driver:problem:{self.code.value}",
            "title": self.title,
            "status": self.status,
            "code": self.code.value,
            "detail": self.detail,
        }
        if instance is not None:
            body["instance"] = instance
        if self.retry_after_seconds is not None:
            body["retryAfterSeconds"] = self.retry_after_seconds
        body.update(self.fields)
        return body

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code.value}: {self.detail!r})"


class NotFound(DriverError):
    """404: the session, run, provider, model or route named does not exist for this caller."""


class Conflict(DriverError):
    """409: the request conflicts with the current state of a session, a run or an idempotency key."""


class Unprocessable(DriverError):
    """422: the request is well-formed but cannot be carried out as sent; nothing was done."""


class ProviderFailed(DriverError):
    """The model provider failed after model work started (every ``PROVIDER_*`` code but ``PROVIDER_NOT_FOUND``,
    which is a lookup); a session turn is left interrupted. Adapters raise ``providers.base.ProviderFailure``."""


class RetryLater(DriverError):
    """503 from the host side: no new work is taken now (slots, store, drain, or the proxy cannot reach the
    host); ``Retry-After`` says when to try again, and nothing was started."""


def present(members: Mapping[str, Any]) -> dict[str, Any]:
    """The problem members that are set: an optional one left as None is not sent."""
    return {name: value for name, value in members.items() if value is not None}
