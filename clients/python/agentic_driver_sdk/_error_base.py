"""The roots of the error tree (``_exceptions`` draws the whole tree and holds a class per code): no answer, or an
error answer, and the ``Retry-After`` reading both use."""

from __future__ import annotations

from typing import Any

import httpx

__all__ = ["APIConnectionError", "APIStatusError", "APITimeoutError", "AgenticDriverError", "parse_retry_after"]


class AgenticDriverError(Exception):
    """The root of every error this client raises."""


class APIConnectionError(AgenticDriverError):
    """No answer: the connection failed or broke before a response arrived."""

    def __init__(self, message: str, *, request: httpx.Request | None = None) -> None:
        super().__init__(message)
        self.request = request
        """The request that got no answer, when known."""
        self.hung_up = False
        """The client stopped waiting for an answer (a read timeout) after the host had the request."""


class APITimeoutError(APIConnectionError):
    """No answer within the configured timeout."""


class APIStatusError(AgenticDriverError):
    """The host answered with an error status and (normally) a problem document."""

    def __init__(self, response: httpx.Response, problem: dict[str, Any]) -> None:
        self.response = response
        """The whole answer (its ``.request`` too); the body was read."""
        self.status_code = response.status_code
        self.problem = problem
        """The problem document as sent (a dict), with the fields this client has no accessor for."""
        self.code: str | None = problem.get("code") if isinstance(problem.get("code"), str) else None
        """The catalogue code as the host sent it, also one newer than this client; None for a proxy's page."""
        self.detail: str = str(problem.get("detail", response.reason_phrase))
        body_id = problem.get("requestId")
        self.request_id: str | None = response.headers.get("x-request-id") or (
            body_id if isinstance(body_id, str) else None
        )
        """The host's id for this request (``X-Request-Id``, else the problem's ``requestId``): every host log
        line and trace span of the request carries it, so quote it when reporting a problem."""
        super().__init__(f"{self.status_code} {self.code or response.reason_phrase}: {self.detail}")

    @property
    def headers(self) -> httpx.Headers:
        """The answer's headers (``Retry-After``, ``X-Request-Id``, ``x-should-retry``, ...)."""
        return self.response.headers

    @property
    def retry_after(self) -> float | None:
        """Seconds the host asks to wait (``Retry-After``, delta-seconds or an HTTP date), when it says so."""
        return parse_retry_after(self.response.headers.get("retry-after"))


def parse_retry_after(header: str | None) -> float | None:
    """``Retry-After`` in seconds: delta-seconds, or an HTTP date (counted from now); None when absent or invalid."""
    if header is None:
        return None
    try:
        return max(float(header), 0.0)
    except ValueError:
        pass
    from email.utils import parsedate_to_datetime

    try:
        when = parsedate_to_datetime(header)
    except (TypeError, ValueError):
        return None
    import datetime

    if when.tzinfo is None:
        when = when.replace(tzinfo=datetime.UTC)
    return max((when - datetime.datetime.now(datetime.UTC)).total_seconds(), 0.0)
