"""What the sync and async clients share: options, routing, the retry policy, logging.

Request plans live in ``_plans``, the attempt loop in ``_attempts``.
"""

from __future__ import annotations

import logging
import os
import random
import re
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import httpx

from ._exceptions import (
    AgenticDriverError,
    APIConnectionError,
    APIStatusError,
    APITimeoutError,
    MisdirectedRequestError,
    SessionBusyError,
)
from ._tokens import AsyncTokenProvider, TokenProvider

__all__ = [
    "DEFAULT_STREAM_IDLE_TIMEOUT",
    "DEFAULT_TIMEOUT",
    "ROUTING_HEADER",
    "USER_AGENT",
    "Options",
    "backoff",
    "host_of",
    "log_attempt",
    "misdirected_owner",
    "retry_delay",
]

__version__ = "0.2.0"
USER_AGENT = f"agentic-driver-python/{__version__}"
DEFAULT_BASE_URL = "http://127.0.0.1:8080"
DEFAULT_TIMEOUT = httpx.Timeout(connect=5.0, read=600.0, write=30.0, pool=30.0)
"""A turn may take minutes; connecting should not."""
DEFAULT_STREAM_IDLE_TIMEOUT = 60.0
"""The longest silence between two events of a stream (the host sends a keep-alive every 15 s)."""
DEFAULT_MAX_RETRIES = 2
INITIAL_RETRY_DELAY = 0.5
MAX_RETRY_DELAY = 8.0
"""The longest backoff between attempts when the host does not say how long to wait."""
MAX_RETRY_AFTER = 60.0
"""The longest ``Retry-After`` the client waits out by itself; a longer ask is raised to the caller."""
RETRIED_CODES = frozenset(
    {"HOST_BUSY", "SESSION_STORE_FULL", "SHUTTING_DOWN", "HOST_UNAVAILABLE", "IDEMPOTENCY_KEY_IN_USE"}
)
"""Problem codes retried (after ``Retry-After``); every other code of ours never is (``clients/BEHAVIOUR.md``)."""
PROXY_STATUSES = frozenset({502, 503, 504})
"""Statuses retried when the answer is not a problem document of ours (a proxy's page)."""

ROUTING_HEADER = "Agentic-Host"
"""Names the host that owns the session or run a request is about (``clients/BEHAVIOUR.md``, Routing)."""
_ROUTED_ID = re.compile(r"(?:ses|run)_([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)\.")
_HOST_LABEL = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?")


def host_of(object_id: str) -> str | None:
    """The owning host of a session or run id (``ses_{hostId}.{random}``, ``run_{hostId}.{random}``).

    None for an id in the old form (no ``.``) or whose host part is not a DNS label:
    such a request carries no ``Agentic-Host`` header. Only routing reads this;
    applications treat ids as opaque.
    """
    found = _ROUTED_ID.match(object_id)
    return found.group(1) if found else None


def misdirected_owner(error: AgenticDriverError, followed: bool) -> str | None:
    """The host to send the same request to at once, when ``error`` is the first 421 of this call."""
    if followed or not isinstance(error, MisdirectedRequestError):
        return None
    owner = error.owner_host_id
    return owner if _HOST_LABEL.fullmatch(owner) else None


log = logging.getLogger("agentic_driver_sdk")
"""One debug line per attempt: method, path, status or failure, attempt, wait, request id. Never a token or body."""


def configure_logging() -> None:
    """``AGENTIC_DRIVER_LOG=debug`` (read when a client is built): debug lines on standard error."""
    if os.environ.get("AGENTIC_DRIVER_LOG", "").strip().lower() != "debug":
        return
    log.setLevel(logging.DEBUG)
    if not any(getattr(h, "_agentic_driver", False) for h in log.handlers):
        handler = logging.StreamHandler()  # standard error
        handler.setFormatter(logging.Formatter("%(asctime)s %(name)s %(levelname)s %(message)s"))
        handler._agentic_driver = True  # type: ignore[attr-defined]
        log.addHandler(handler)


def log_attempt(
    method: str, path: str, attempt: int, outcome: httpx.Response | AgenticDriverError, wait: float | None
) -> None:
    """The attempt's debug line (only the method, path, status, attempt, wait and request id)."""
    if not log.isEnabledFor(logging.DEBUG):
        return
    response = outcome if isinstance(outcome, httpx.Response) else getattr(outcome, "response", None)
    if response is not None:
        status = str(response.status_code)
    else:  # no answer: the SDK's error and the httpx failure behind it, by class name only
        cause = outcome.__cause__ if isinstance(outcome, BaseException) else None
        status = type(outcome).__name__ + (f"({type(cause).__name__})" if cause is not None else "")
    request_id = response.headers.get("x-request-id") if response is not None else None
    retry = f" retry_in={wait:.3f}s" if wait is not None else ""
    log.debug("%s %s status=%s attempt=%d%s request_id=%s", method, path, status, attempt + 1, retry, request_id)


@dataclass(frozen=True)
class Options:
    """A client's configuration; ``with_options(...)`` copies it with some fields changed."""

    base_url: str
    """The host's base URL, without a trailing slash."""
    token: str | TokenProvider | AsyncTokenProvider | None = field(repr=False)
    """The bearer token, a token provider asked for every attempt (``clients/BEHAVIOUR.md``, Tokens), or None
    to send no ``Authorization`` header."""
    timeout: httpx.Timeout
    """Connect (default 5 s), read (600 s), write and pool timeouts (``httpx.Timeout(10, connect=2)``)."""
    max_retries: int
    """Attempts after the first, for failures that are safe to retry (default 2; 0 turns retries off)."""
    default_headers: Mapping[str, str] = field(default_factory=dict)
    """Sent with every request (a ``User-Agent`` here replaces the client's; ``Authorization`` never wins)."""
    stream_idle_timeout: float = DEFAULT_STREAM_IDLE_TIMEOUT
    """The longest silence between two events of a stream, in seconds (default 60)."""

    @classmethod
    def resolve(
        cls,
        base_url: str | None,
        token: str | TokenProvider | AsyncTokenProvider | None,
        timeout: float | httpx.Timeout | None,
        max_retries: int,
        default_headers: Mapping[str, str] | None,
        stream_idle_timeout: float,
    ) -> Options:
        """Arguments first, then ``AGENTIC_DRIVER_URL`` / ``AGENTIC_DRIVER_TOKEN``, then defaults."""
        if max_retries < 0:
            raise ValueError("max_retries must be 0 or more")
        if stream_idle_timeout <= 0:
            raise ValueError("stream_idle_timeout must be positive")
        return cls(
            base_url=(base_url or os.environ.get("AGENTIC_DRIVER_URL") or DEFAULT_BASE_URL).rstrip("/"),
            token=token if token is not None else os.environ.get("AGENTIC_DRIVER_TOKEN"),
            timeout=timeout if isinstance(timeout, httpx.Timeout) else _timeout(timeout),
            max_retries=max_retries,
            default_headers=dict(default_headers or {}),
            stream_idle_timeout=float(stream_idle_timeout),
        )

    def headers(self) -> httpx.Headers:
        """``Accept`` and ``User-Agent``, then the default headers, then ``Authorization`` (case-insensitively last)."""
        headers = httpx.Headers({"Accept": "application/json", "User-Agent": USER_AGENT})
        headers.update(self.default_headers)
        if isinstance(self.token, str) and self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        return headers

    @property
    def token_provider(self) -> TokenProvider | AsyncTokenProvider | None:
        """The token provider, when the token comes from one (then each attempt sets its own header)."""
        return None if self.token is None or isinstance(self.token, str) else self.token

    def evolve(self, **changes: Any) -> Options:
        unknown = set(changes) - {f for f in self.__dataclass_fields__}
        if unknown:
            raise TypeError(f"unknown options: {', '.join(sorted(unknown))}")
        if "timeout" in changes and not isinstance(changes["timeout"], httpx.Timeout):
            changes["timeout"] = _timeout(changes["timeout"])
        if "base_url" in changes:
            changes["base_url"] = str(changes["base_url"]).rstrip("/")
        if changes.get("max_retries", 0) < 0:
            raise ValueError("max_retries must be 0 or more")
        if changes.get("stream_idle_timeout", 1.0) <= 0:
            raise ValueError("stream_idle_timeout must be positive")
        return replace(self, **changes)


def _timeout(seconds: float | None) -> httpx.Timeout:
    return DEFAULT_TIMEOUT if seconds is None else httpx.Timeout(seconds, connect=min(seconds, 5.0))


def connection_error(error: httpx.TransportError) -> APIConnectionError:
    """The SDK's error for an httpx transport failure (the httpx error is its ``__cause__``)."""
    try:
        request: httpx.Request | None = error.request
    except RuntimeError:  # httpx raises when the error was made without a request
        request = None
    if isinstance(error, httpx.TimeoutException):
        failure: APIConnectionError = APITimeoutError(f"timed out: {error!r}", request=request)
    else:
        failure = APIConnectionError(f"connection failed: {error!r}", request=request)
    failure.__cause__ = error
    # A read timeout means we hung up on a request the host may have accepted: the host
    # stops (and records) a run whose client went away, so another attempt could only
    # replay that cancellation. Other transport errors either never delivered the request
    # or lost an answer that a replay with the same Idempotency-Key brings back.
    failure.hung_up = isinstance(error, httpx.ReadTimeout)
    return failure


def retryable(error: AgenticDriverError, method: str) -> bool:
    """Whether another attempt is safe and can help: the table of ``clients/BEHAVIOUR.md``."""
    if isinstance(error, APIConnectionError):
        return not (error.hung_up and method == "POST")
    if isinstance(error, APIStatusError):
        if error.headers.get("x-should-retry", "").strip().lower() == "false":
            return False
        if error.code is not None:  # a problem document of ours
            return error.code in RETRIED_CODES
        return error.status_code in PROXY_STATUSES
    return False


def retry_delay(error: AgenticDriverError, attempt: int, options: Options, method: str = "POST") -> float | None:
    """Seconds to wait before the next attempt, or None when this error must not be retried."""
    if attempt >= options.max_retries or not retryable(error, method):
        return None
    asked = error.retry_after if isinstance(error, APIStatusError) else None
    if asked is not None:
        return asked if asked <= MAX_RETRY_AFTER else None
    return backoff(attempt)


def backoff(attempt: int) -> float:
    """The wait before retry ``attempt`` (from 0) when the host does not say: ``min(0.5 s * 2^n, 8 s)``, jittered."""
    return min(INITIAL_RETRY_DELAY * (1 << attempt), MAX_RETRY_DELAY) * random.uniform(0.75, 1.0)


IDLE_FIRST_WAIT = 0.1
IDLE_MAX_WAIT = 1.0
DEFAULT_IDLE_TIMEOUT = 30.0


def idle_waits(busy: SessionBusyError | None) -> Iterator[float]:
    """``wait_until_idle``'s intervals: the busy error's ``Retry-After`` (or 0.1 s), then doubling up to 1 s."""
    first = busy.retry_after if busy is not None else None
    wait = IDLE_FIRST_WAIT if first is None else first
    yield wait
    while True:
        wait = min(max(wait, IDLE_FIRST_WAIT) * 2, IDLE_MAX_WAIT)
        yield wait


def idle_schedule(session_id: str, busy: SessionBusyError | None, timeout: float) -> Iterator[float]:
    """The waits before each read of ``wait_until_idle``, within ``timeout``; past it, ``APITimeoutError``."""
    deadline = time.monotonic() + timeout
    for wait in idle_waits(busy):
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise APITimeoutError(f"session {session_id} was still running after {timeout:g} s (wait_until_idle)")
        yield min(wait, remaining)
