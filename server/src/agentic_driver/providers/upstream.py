"""What every network adapter shares: HTTP transport, SSE, failure mapping, retries, secret scrubbing.

An adapter maps its request to a JSON body and hands it to ``Upstream``, which
posts it with httpx and either returns the decoded JSON or yields the
Server-Sent Events of a streamed answer. A non-2xx answer becomes a
``ProviderFailure`` through the adapter's own ``Classify`` (each provider has
its own error shape), always after the API key has been scrubbed from the
text. ``retrying`` wraps a whole step: a retryable failure before the step
yielded anything is tried again after a backoff, a bounded number of times.

A connection that fails before the answer's head arrived (refused, reset,
closed) is retryable. Once the provider has started a 2xx answer it has done,
and billed, the work: a reset, a stall or a body cut short after that point is
never retried, streamed or not. ``Upstream.reading`` turns anything else an
adapter trips over while reading an answer (a shape it did not expect) into a
``PROVIDER_ERROR`` that names it, never an internal error.
"""

from __future__ import annotations

import asyncio
import functools
import html
import json
import logging
import math
import random
import re
import ssl
import traceback
from collections.abc import AsyncGenerator, AsyncIterator, Callable, Iterator, Mapping
from contextlib import aclosing, asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Any

import httpx

from .. import telemetry
from .base import (
    AuthFailure,
    OverloadedFailure,
    ProviderFailure,
    RateLimitedFailure,
    RejectedFailure,
    RetryReport,
    TurnEvent,
)

__all__ = [
    "Classify",
    "RetryPolicy",
    "ServerSentEvent",
    "Upstream",
    "failure_for_status",
    "read_api_key",
    "retry_after_from_headers",
    "retrying",
]

log = logging.getLogger("agentic_driver.providers")

MAX_DETAIL_CHARS = 500
"""Upstream error text beyond this is cut: enough to act on, not a dump of the provider's body."""

Classify = Callable[[int, Mapping[str, str], Any], ProviderFailure]
"""(HTTP status, response headers, decoded error body or text) -> the failure to raise."""


def read_api_key(env: Mapping[str, str], name: str | None, where: str) -> str | None:
    """The key named by ``apiKeyEnv``; a missing variable is a startup error naming the config path."""
    if name is None:
        return None
    value = env.get(name)
    if not value:
        from ..config import ConfigError

        raise ConfigError([f"{where}.apiKeyEnv: environment variable {name!r} is not set"])
    return value


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    max_retries: int = 2
    base_s: float = 0.5
    max_wait_s: float = 30.0

    def delay(self, attempt: int, failure: ProviderFailure) -> float | None:
        """Seconds to wait before retry ``attempt`` (1-based), or None when it must not be retried."""
        if not failure.retryable or attempt > self.max_retries:
            return None
        if failure.retry_after_seconds is not None:
            wait = float(failure.retry_after_seconds)
        else:
            wait = self.base_s * 2 ** (attempt - 1) * (1 + random.random() / 4)  # jitter: spread retrying hosts
        return wait if wait <= self.max_wait_s else None


async def retrying(
    step: Callable[[], AsyncGenerator[TurnEvent, None]], policy: RetryPolicy, provider_id: str
) -> AsyncGenerator[TurnEvent, None]:
    """``step``'s events; a retryable failure before its first event starts it again (bounded).

    Each retried attempt is reported (``RetryReport``) so that run and session retry figures are
    real. It carries no usage: an attempt is retried only when it failed before the provider
    answered anything, and a refused or unanswered request is not billed.
    """
    attempt = 0
    while True:
        produced = False
        try:
            async with aclosing(step()) as events:
                async for event in events:
                    produced = True
                    yield event
            return
        except ProviderFailure as failure:
            attempt += 1
            wait = None if produced else policy.delay(attempt, failure)
            if wait is None:
                raise
            log.warning("provider %s: %s; retry %d in %.2f s", provider_id, failure, attempt, wait)
            if telemetry.tracer is not None:
                telemetry.retry_event(attempt, wait, failure.error_class.code.value)
            yield RetryReport()
            await asyncio.sleep(wait)


def retry_after_from_headers(headers: Mapping[str, str], now: datetime | None = None) -> int | None:
    """Whole seconds from ``retry-after`` (seconds or an HTTP date) or ``retry-after-ms``, rounded up:
    a fractional ask is waited out in full, never cut short. ``now`` is the clock an HTTP date is read against."""
    milliseconds = headers.get("retry-after-ms")
    if milliseconds is not None:
        try:
            return max(0, math.ceil(float(milliseconds) / 1000))
        except (ValueError, OverflowError):  # not a number, or nan / inf
            pass
    value = headers.get("retry-after")
    if value is None:
        return None
    try:
        return max(0, math.ceil(float(value)))
    except (ValueError, OverflowError):
        pass
    try:
        moment = parsedate_to_datetime(value)
        return max(0, math.ceil((moment - (now or datetime.now(UTC))).total_seconds()))
    except (TypeError, ValueError):
        return None


def failure_for_status(
    status: int,
    error_type: str = "",
    message: str = "",
    *,
    retry_after: int | None = None,
    quota: bool = False,
) -> ProviderFailure:
    """The failure an HTTP status stands for, whatever the provider (its own error types refine this).

    ``error_type`` is the provider's own name for the error (``rate_limit_error``,
    ``RESOURCE_EXHAUSTED``); ``message`` its text, shown to the caller once scrubbed.
    """
    label = f"HTTP {status}" + (f" {error_type}" if error_type else "")
    tail = f": {message}" if message else ""
    if status in (401, 403):
        return AuthFailure(f"the provider refused the credentials ({label}){tail}")
    if status == 429:
        if quota:  # waiting does not help a spend or quota limit: no retry, no Retry-After
            return RateLimitedFailure(f"quota or spend limit reached ({label}){tail}")
        return RateLimitedFailure(f"rate limited ({label}){tail}", retryable=True, retry_after_seconds=retry_after)
    if status in (503, 529):
        return OverloadedFailure(f"overloaded ({label}){tail}", retryable=True, retry_after_seconds=retry_after)
    if status in (400, 404, 409, 413, 422):
        return RejectedFailure(f"the provider rejected the request ({label}){tail}")
    retryable = status in (408, 500, 502, 504) or status >= 520
    return ProviderFailure(f"upstream error ({label}){tail}", retryable=retryable)


@dataclass(frozen=True, slots=True)
class ServerSentEvent:
    event: str
    data: str

    def json(self) -> Any:
        return json.loads(self.data)


async def _events(lines: AsyncIterator[str]) -> AsyncIterator[ServerSentEvent]:
    """The WHATWG event-stream format: ``event:``/``data:`` fields, a blank line dispatches.

    An event the stream ends inside (no blank line after it) is discarded, as the
    format says: it may be cut mid-line, and half an event is no event.
    """
    event, data = "", list[str]()
    async for line in lines:
        if not line:
            if data:
                yield ServerSentEvent(event or "message", "\n".join(data))
            event, data = "", []
            continue
        if line.startswith(":"):
            continue
        name, _, value = line.partition(":")
        value = value.removeprefix(" ")
        if name == "event":
            event = value
        elif name == "data":
            data.append(value)


@dataclass(slots=True)
class Upstream:
    """One provider instance's HTTP side: base URL, auth headers, timeouts and its error mapping."""

    provider_id: str
    base_url: str
    headers: dict[str, str] = field(repr=False)
    """Includes the credentials: never shown."""
    classify: Classify
    timeout_s: float = 600.0
    secrets: tuple[str, ...] = field(default=(), repr=False)
    transport: httpx.AsyncBaseTransport | None = field(default=None, repr=False)
    """Tests may pass an httpx transport; by default httpx opens real connections."""

    def scrub(self, text: str) -> str:
        """``text`` without any configured secret in it."""
        for secret in self.secrets:
            if secret:
                text = text.replace(secret, "[redacted]")
        return text

    def _client(self) -> httpx.AsyncClient:
        return httpx.AsyncClient(
            base_url=self.base_url.rstrip("/"),
            headers=self.headers,
            timeout=httpx.Timeout(self.timeout_s),
            transport=self.transport,
            verify=tls_context(),
        )

    async def post_json(self, path: str, body: dict[str, Any], params: dict[str, str] | None = None) -> Any:
        """POST ``body``; the decoded JSON of a 2xx answer, else the classified failure."""
        async with self._answer(path, body, params) as response:
            try:
                content = await response.aread()
            except httpx.HTTPError as error:
                raise self._transport_failure(error, answered=True) from None
        try:
            return json.loads(content)
        except ValueError:
            raise ProviderFailure("the provider answered with something that is not JSON") from None

    @asynccontextmanager
    async def stream(
        self, path: str, body: dict[str, Any], params: dict[str, str] | None = None
    ) -> AsyncIterator[AsyncIterator[ServerSentEvent]]:
        """POST ``body`` and read the answer as Server-Sent Events (a non-2xx answer is the failure)."""
        async with self._answer(path, body, params) as response:
            yield self._read_events(response)

    @asynccontextmanager
    async def _answer(
        self, path: str, body: dict[str, Any], params: dict[str, str] | None
    ) -> AsyncIterator[httpx.Response]:
        """The 2xx answer with its body still to read; a failure before its head is retryable."""
        answered = False
        async with self._client() as client:
            try:
                # The request id and (while tracing) the model call's traceparent travel on to the provider.
                headers = telemetry.outgoing_headers()
                async with client.stream("POST", path, json=body, params=params, headers=headers) as response:
                    answered = True  # the head is in: whatever fails from here (closing too) is not retried
                    if response.status_code >= 300:
                        try:
                            text = (await response.aread()).decode("utf-8", "replace")
                        except httpx.HTTPError as error:
                            raise self._transport_failure(error, answered=True) from None
                        raise self._failure(response.status_code, response.headers, text)
                    yield response
            except httpx.HTTPError as error:
                raise self._transport_failure(error, answered=answered) from None

    async def _read_events(self, response: httpx.Response) -> AsyncIterator[ServerSentEvent]:
        try:
            async for event in _events(response.aiter_lines()):
                yield event
        except httpx.HTTPError as error:
            raise self._transport_failure(error, answered=True) from None

    @contextmanager
    def reading(self) -> Iterator[None]:
        """Around an adapter's reading of an answer: failures scrubbed, and any exception the
        adapter did not expect (an answer of a shape it does not know) a ``PROVIDER_ERROR`` naming it."""
        try:
            yield
        except ProviderFailure as failure:
            raise self.scrubbed(failure) from None
        except Exception as error:  # the point: no adapter slip becomes an internal error
            where = _innermost(error)
            log.warning("provider %s: unreadable answer: %s at %s", self.provider_id, self.scrub(_name(error)), where)
            raise self.scrubbed(
                ProviderFailure(
                    f"the provider's answer could not be read ({_name(error)}); it is not of the shape "
                    "this adapter expects"
                )
            ) from None

    def _failure(self, status: int, headers: httpx.Headers, text: str) -> ProviderFailure:
        try:
            payload: Any = json.loads(text)
        except ValueError:
            html_page = "html" in headers.get("content-type", "") or text.lstrip().startswith("<")
            payload = _plain(text) if html_page else text
        failure = self.classify(status, headers, payload)
        return self.scrubbed(failure)

    def scrubbed(self, failure: ProviderFailure) -> ProviderFailure:
        """The same failure with every secret removed from its message (and the message cut to size)."""
        message = self.scrub(str(failure))
        if len(message) > MAX_DETAIL_CHARS:
            message = message[: MAX_DETAIL_CHARS - 1] + "…"
        if message == str(failure):
            return failure
        clean = type(failure)(message, retryable=failure.retryable, retry_after_seconds=failure.retry_after_seconds)
        return clean

    def _transport_failure(self, error: httpx.HTTPError, *, answered: bool) -> ProviderFailure:
        """A connection failure: retryable before the answer's head (unless the provider was too slow), never after."""
        what = type(error).__name__
        if isinstance(error, httpx.TimeoutException) and not isinstance(error, httpx.ConnectTimeout):
            where = "while it answered" if answered else "before it answered"
            return ProviderFailure(
                self.scrub(f"the provider sent nothing for {self.timeout_s:g} s (timeoutMs) {where} ({what})")
            )
        if answered:
            return ProviderFailure(self.scrub(f"the connection failed while the provider answered ({what}: {error})"))
        retryable = isinstance(error, httpx.NetworkError | httpx.RemoteProtocolError)
        return ProviderFailure(self.scrub(f"could not reach the provider ({what}: {error})"), retryable=retryable)


def _name(error: Exception) -> str:
    return f"{type(error).__name__}: {error}" if str(error) else type(error).__name__


def _innermost(error: BaseException) -> str:
    """Where ``error`` was raised (file:line in function): enough for a bug report, no data."""
    frames = traceback.extract_tb(error.__traceback__)
    if not frames:
        return "unknown"
    frame = frames[-1]
    return f"{frame.filename.rsplit('/', 1)[-1]}:{frame.lineno} in {frame.name}"


_TAG = re.compile(r"<(script|style)\b.*?</\1\s*>|<[^>]*>", re.IGNORECASE | re.DOTALL)


def _plain(markup: str) -> str:
    """The text of an HTML error page (a gateway's 502), without its markup."""
    return " ".join(html.unescape(_TAG.sub(" ", markup)).split())


@functools.cache
def tls_context() -> ssl.SSLContext:
    """The verifying TLS context every upstream call shares (httpx's default: certifi, or SSL_CERT_FILE/DIR).

    Built once: building it loads the whole CA bundle, 20 to 300 ms of CPU that a client made per call would
    spend before every model call (and before a run's ``idleTimeoutMs`` could see any progress).
    """
    return httpx.create_ssl_context()


def error_text(payload: Any, *paths: tuple[str, ...]) -> str:
    """The first string found at one of ``paths`` in a decoded error body ('' when none)."""
    for path in paths:
        node = payload
        for key in path:
            node = node.get(key) if isinstance(node, dict) else None
        if isinstance(node, str) and node:
            return node
    return payload.strip()[:MAX_DETAIL_CHARS] if isinstance(payload, str) else ""


_DURATION = re.compile(r"^(\d+(?:\.\d+)?)s$")


def duration_seconds(value: Any) -> int | None:
    """A protobuf JSON duration (``"27s"``, ``"0.5s"``) in whole seconds, rounded up."""
    match = _DURATION.match(value) if isinstance(value, str) else None
    return None if match is None else max(0, math.ceil(float(match.group(1))))
