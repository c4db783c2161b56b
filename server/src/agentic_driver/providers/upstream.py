"""What every network adapter shares: HTTP transport, SSE, failure mapping, retries, secret scrubbing.

An adapter maps its request to a JSON body and hands it to ``Upstream``, which
posts it with httpx and either returns the decoded JSON or yields the
Server-Sent Events of a streamed answer. A non-2xx answer becomes a
``ProviderFailure`` through the adapter's own ``Classify`` (each provider has
its own error shape), always after the API key has been scrubbed from the
text. ``retrying`` wraps a whole step: a retryable failure before the step
yielded anything is tried again after a backoff, a bounded number of times.

Each instance keeps one pooled ``httpx.AsyncClient`` (keep-alive, at most
``limits.maxConcurrentRuns`` connections, made on first use, closed with the
driver): a model call reuses a warm connection instead of paying a TCP connect
and a TLS handshake, which is at least two round trips before the model sees a
byte. A streamed answer is read to the end of its body after its last event, so
that its connection goes back to the pool.

A connection that fails before the answer's head arrived (refused, reset,
closed) is retryable. Once the provider has started a 2xx answer it has done,
and billed, the work: a reset, a stall or a body cut short after that point is
never retried, streamed or not. An answer that is not of the shape the adapter
reads is a ``PROVIDER_ERROR`` naming what is missing (``wire.checked``); any
other exception while reading is a defect of ours and surfaces as one
(``INTERNAL_ERROR``, logged with its traceback), never disguised as the
provider's.
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
    overloaded: bool = False,
) -> ProviderFailure:
    """The failure an HTTP status stands for, whatever the provider (its own error types refine this).

    ``error_type`` is the provider's own name for the error (``rate_limit_error``,
    ``RESOURCE_EXHAUSTED``); ``message`` its text, shown to the caller once scrubbed. ``overloaded``
    is the provider's own word for a status that means 503 there alone (Anthropic's 529).
    """
    label = f"HTTP {status}" + (f" {error_type}" if error_type else "")
    tail = f": {message}" if message else ""
    if status in (401, 403):
        return AuthFailure(f"the provider refused the credentials ({label}){tail}")
    if status == 429:
        if quota:  # waiting does not help a spend or quota limit: no retry, no Retry-After
            return RateLimitedFailure(f"quota or spend limit reached ({label}){tail}")
        return RateLimitedFailure(f"rate limited ({label}){tail}", retryable=True, retry_after_seconds=retry_after)
    if status == 503 or overloaded:
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
        """The event's data as JSON; data that is not JSON is the provider's failure."""
        try:
            return json.loads(self.data)
        except ValueError:
            raise ProviderFailure(f"a {self.event!r} event of the stream is not JSON") from None


async def _events(lines: AsyncIterator[str]) -> AsyncGenerator[ServerSentEvent, None]:
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


TRANSPORT_ERRORS = (httpx.HTTPError, ssl.SSLError)
"""What a broken connection raises: httpx's errors, and a TLS failure while an answer is read, which httpx
passes on as it is (a ``ssl.SSLError`` is a transport failure like a reset, never a defect of ours)."""

TAIL_MAX_CHARS = 64 * 1024
TAIL_TIMEOUT_S = 1.0
"""A streamed answer's rest after its last event (normally only the body's end) is read for the
connection's sake within these bounds; a provider sending more, or not ending its body within a second,
costs the connection (it is closed, not pooled), never the run's time."""


@dataclass(slots=True)
class Upstream:
    """One provider instance's HTTP side: base URL, auth headers, timeouts, its pool and its error mapping."""

    provider_id: str
    base_url: str
    headers: dict[str, str] = field(repr=False)
    """Includes the credentials: never shown."""
    classify: Classify
    timeout_s: float = 600.0
    """For the next bytes of an answer (``timeoutMs``)."""
    secrets: tuple[str, ...] = field(default=(), repr=False)
    transport: httpx.AsyncBaseTransport | None = field(default=None, repr=False)
    """Tests may pass an httpx transport; by default httpx opens real connections."""
    connect_timeout_s: float | None = None
    """For a new connection (TCP and TLS) or a free one from the pool (``connectTimeoutMs``); ``timeout_s`` if None."""
    max_connections: int = 64
    """The pool's bound (``limits.maxConcurrentRuns``: no more model calls are ever in flight at once)."""
    keep_alive_s: float = 4.0
    """How long an idle pooled connection is kept (``keepAliveMs``)."""
    _pool: httpx.AsyncClient | None = field(default=None, init=False, repr=False)
    _pool_loop: asyncio.AbstractEventLoop | None = field(default=None, init=False, repr=False)

    def scrub(self, text: str) -> str:
        """``text`` without any configured secret in it."""
        for secret in self.secrets:
            if secret:
                text = text.replace(secret, "[redacted]")
        return text

    def _client(self) -> httpx.AsyncClient:
        """The instance's pooled client, made on first use in the running event loop.

        Connections belong to the loop they were opened in: a driver used from a new loop (an embedding
        application's second ``asyncio.run``) gets a new pool; the old loop's is dropped with that loop.
        """
        loop = asyncio.get_running_loop()
        if self._pool is None or self._pool_loop is not loop:
            self._pool, self._pool_loop = self._new_client(), loop
        return self._pool

    def _new_client(self) -> httpx.AsyncClient:
        connect = self.timeout_s if self.connect_timeout_s is None else self.connect_timeout_s
        return httpx.AsyncClient(
            base_url=self.base_url.rstrip("/"),
            headers=self.headers,
            timeout=httpx.Timeout(self.timeout_s, connect=connect, pool=connect),
            limits=httpx.Limits(
                max_connections=self.max_connections,
                max_keepalive_connections=self.max_connections,
                keepalive_expiry=self.keep_alive_s,
            ),
            transport=self.transport,
            verify=tls_context(),
        )

    async def aclose(self) -> None:
        """Close the pooled connections (the driver's ``aclose``); a later call opens a new pool."""
        pool, self._pool, self._pool_loop = self._pool, None, None
        if pool is not None:
            await pool.aclose()

    async def post_json(self, path: str, body: dict[str, Any], params: dict[str, str] | None = None) -> Any:
        """POST ``body``; the decoded JSON of a 2xx answer, else the classified failure."""
        async with self._answer(path, body, params) as response:
            try:
                content = await response.aread()
            except TRANSPORT_ERRORS as error:
                raise self._transport_failure(error, answered=True) from None
        try:
            return json.loads(content)
        except ValueError:
            raise ProviderFailure("the provider answered with something that is not JSON") from None

    @asynccontextmanager
    async def stream(
        self, path: str, body: dict[str, Any], params: dict[str, str] | None = None
    ) -> AsyncIterator[AsyncIterator[ServerSentEvent]]:
        """POST ``body`` and read the answer as Server-Sent Events (a non-2xx answer is the failure).

        Once the reader is done with the events, the rest of the body is read (``TAIL_MAX_CHARS``,
        ``TAIL_TIMEOUT_S``) so that the connection goes back to the pool; a reader that failed leaves the
        connection to be closed, as its state is unknown.
        """
        async with self._answer(path, body, params) as response:
            lines = response.aiter_lines()
            events = self._read_events(lines)
            try:
                yield events
            finally:
                await events.aclose()
            await _read_tail(lines)

    @asynccontextmanager
    async def _answer(
        self, path: str, body: dict[str, Any], params: dict[str, str] | None
    ) -> AsyncIterator[httpx.Response]:
        """The 2xx answer with its body still to read; a failure before its head is retryable."""
        answered = False
        client = self._client()
        try:
            # The request id and (while tracing) the model call's traceparent travel on to the provider.
            headers = telemetry.outgoing_headers()
            async with client.stream("POST", path, json=body, params=params, headers=headers) as response:
                answered = True  # the head is in: whatever fails from here (closing too) is not retried
                if response.status_code >= 300:
                    try:
                        text = (await response.aread()).decode("utf-8", "replace")
                    except TRANSPORT_ERRORS as error:
                        raise self._transport_failure(error, answered=True) from None
                    raise self._failure(response.status_code, response.headers, text)
                yield response
        except TRANSPORT_ERRORS as error:
            raise self._transport_failure(error, answered=answered) from None

    async def _read_events(self, lines: AsyncIterator[str]) -> AsyncGenerator[ServerSentEvent, None]:
        try:
            async with aclosing(_events(lines)) as events:
                async for event in events:
                    yield event
        except TRANSPORT_ERRORS as error:
            raise self._transport_failure(error, answered=True) from None

    @contextmanager
    def reading(self) -> Iterator[None]:
        """Around an adapter's reading of an answer: its failures (wrong shapes included) scrubbed of secrets.

        Any other exception is left as it is: it is a defect of ours, and the run reports it as one."""
        try:
            yield
        except ProviderFailure as failure:
            raise self.scrubbed(failure) from None

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

    def _transport_failure(self, error: Exception, *, answered: bool) -> ProviderFailure:
        """A connection failure: retryable before the answer's head (unless the provider was too slow), never after."""
        what = type(error).__name__
        if isinstance(error, httpx.PoolTimeout):  # more calls in flight than limits.maxConcurrentRuns allows
            return ProviderFailure(f"no connection of the instance's pool came free in time ({what})", retryable=True)
        if isinstance(error, httpx.TimeoutException) and not isinstance(error, httpx.ConnectTimeout):
            where = "while it answered" if answered else "before it answered"
            return ProviderFailure(
                self.scrub(f"the provider sent nothing for {self.timeout_s:g} s (timeoutMs) {where} ({what})")
            )
        if answered:
            return ProviderFailure(self.scrub(f"the connection failed while the provider answered ({what}: {error})"))
        # A connection refused, reset or not made in time: the provider has not seen the request.
        retryable = isinstance(error, httpx.NetworkError | httpx.RemoteProtocolError | httpx.ConnectTimeout)
        return ProviderFailure(self.scrub(f"could not reach the provider ({what}: {error})"), retryable=retryable)


async def _read_tail(lines: AsyncIterator[str]) -> None:
    """Read what is left of a streamed answer, within ``TAIL_MAX_CHARS`` and ``TAIL_TIMEOUT_S``.

    Reaching the body's end is what lets httpx put the connection back in the pool; giving up only
    means the connection is closed with the response.
    """
    left = TAIL_MAX_CHARS
    try:
        async with asyncio.timeout(TAIL_TIMEOUT_S):
            async for line in lines:
                left -= len(line) + 1
                if left < 0:
                    return
    except (TimeoutError, *TRANSPORT_ERRORS):
        return


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
