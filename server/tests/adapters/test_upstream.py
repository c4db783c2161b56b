"""The shared transport pieces: SSE parsing, Retry-After, status mapping, bounded retries, key scrubbing, config."""

from __future__ import annotations

import ssl
from collections.abc import AsyncGenerator, AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest

from agentic_driver.config import ConfigError, parse_config
from agentic_driver.errors import ErrorCode
from agentic_driver.providers import anthropic, build_provider
from agentic_driver.providers.base import (
    AuthFailure,
    OverloadedFailure,
    ProviderFailure,
    RateLimitedFailure,
    RejectedFailure,
    RetryReport,
    TextDelta,
    TurnEvent,
)
from agentic_driver.providers.upstream import (
    RetryPolicy,
    Upstream,
    _events,
    duration_seconds,
    failure_for_status,
    retry_after_from_headers,
    retrying,
    tls_context,
)


async def _lines(*lines: str) -> AsyncIterator[str]:
    for line in lines:
        yield line


async def test_sse_events_take_their_name_from_the_event_line_and_join_multiline_data() -> None:
    events = [e async for e in _events(_lines(": comment", "event: ping", "data: {}", "", "data: a", "data: b", ""))]

    assert [(e.event, e.data) for e in events] == [("ping", "{}"), ("message", "a\nb")]


async def test_an_event_the_stream_ends_inside_is_discarded_not_dispatched() -> None:
    events = [e async for e in _events(_lines("data: {}", "", 'data: {"type": "response.output_te'))]

    assert [e.data for e in events] == ["{}"]


@pytest.mark.parametrize(
    ("headers", "seconds"),
    [
        ({"retry-after": "20"}, 20),
        ({"retry-after": "1.5"}, 2),  # a fractional ask is waited out in full, never cut short
        ({"retry-after": "0.2"}, 1),
        ({"retry-after-ms": "1500"}, 2),
        ({"retry-after-ms": "1000.4"}, 2),
        ({"retry-after-ms": "nan"}, None),
        ({"retry-after": "inf"}, None),
        ({"retry-after": "soon"}, None),
        ({}, None),
    ],
)
def test_retry_after_comes_from_the_header_in_whole_seconds(headers: dict[str, str], seconds: int | None) -> None:
    assert retry_after_from_headers(headers) == seconds


def test_an_http_date_retry_after_is_the_whole_seconds_until_it_rounded_up() -> None:
    date = {"retry-after": "Wed, 21 Oct 2015 07:28:00 GMT"}
    moment = datetime(2015, 10, 21, 7, 28, tzinfo=UTC)

    assert retry_after_from_headers(date, now=moment - timedelta(seconds=29.0005)) == 30  # never cut short
    assert retry_after_from_headers(date, now=moment - timedelta(seconds=30)) == 30
    assert retry_after_from_headers(date, now=moment + timedelta(seconds=5)) == 0  # a date already past


def test_a_protobuf_duration_is_whole_seconds_rounded_up() -> None:
    assert (duration_seconds("27s"), duration_seconds("0.2s"), duration_seconds("1.5s"), duration_seconds("x")) == (
        27,
        1,
        2,
        None,
    )


@pytest.mark.parametrize(
    ("status", "quota", "kind", "code", "retryable"),
    [
        (401, False, AuthFailure, ErrorCode.PROVIDER_AUTH_FAILED, False),
        (403, False, AuthFailure, ErrorCode.PROVIDER_AUTH_FAILED, False),
        (429, False, RateLimitedFailure, ErrorCode.PROVIDER_RATE_LIMITED, True),
        (429, True, RateLimitedFailure, ErrorCode.PROVIDER_RATE_LIMITED, False),
        (503, False, OverloadedFailure, ErrorCode.PROVIDER_OVERLOADED, True),
        (400, False, RejectedFailure, ErrorCode.PROVIDER_REJECTED, False),
        (500, False, ProviderFailure, ErrorCode.PROVIDER_ERROR, True),
        (501, False, ProviderFailure, ErrorCode.PROVIDER_ERROR, False),
    ],
)
def test_each_status_maps_to_one_failure_and_one_code(
    status: int, quota: bool, kind: type[ProviderFailure], code: ErrorCode, retryable: bool
) -> None:
    failure = failure_for_status(status, "some_error", "went wrong", retry_after=7, quota=quota)

    assert type(failure) is kind
    assert failure.retryable is retryable
    error = failure.driver_error("Provider 'p' failed: x")
    assert error.code is code
    assert error.retry_after_seconds == (7 if status in (429, 503) and not quota else None)


def test_529_is_overloaded_from_anthropic_alone() -> None:
    """529 is Anthropic's word for 503; elsewhere it is one of the 5xx a provider's proxy may send (retried)."""
    body = {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}
    from_anthropic = anthropic.classify(529, {"retry-after": "7"}, body)
    elsewhere = failure_for_status(529, "some_error", "went wrong", retry_after=7)

    assert type(from_anthropic) is OverloadedFailure and from_anthropic.retryable
    assert from_anthropic.driver_error("x").code is ErrorCode.PROVIDER_OVERLOADED
    assert from_anthropic.driver_error("x").retry_after_seconds == 7
    assert type(elsewhere) is ProviderFailure and elsewhere.retryable
    assert elsewhere.driver_error("x").code is ErrorCode.PROVIDER_ERROR


class _Flaky:
    """A step that fails ``failures`` times (optionally after yielding text), then answers."""

    def __init__(self, failures: list[ProviderFailure], text_first: bool = False) -> None:
        self.failures = failures
        self.text_first = text_first
        self.calls = 0

    async def step(self) -> AsyncGenerator[TurnEvent, None]:
        self.calls += 1
        if self.failures:
            if self.text_first:
                yield TextDelta("partial")
            raise self.failures.pop(0)
        yield TextDelta("done")


async def _drain(events: AsyncGenerator[TurnEvent, None]) -> list[Any]:
    return [event async for event in events]


async def test_a_retryable_failure_before_output_is_retried_within_the_bound() -> None:
    flaky = _Flaky([OverloadedFailure("busy", retryable=True), OverloadedFailure("busy", retryable=True)])

    events = await _drain(retrying(flaky.step, RetryPolicy(max_retries=2, base_s=0), "p"))

    assert events == [RetryReport(), RetryReport(), TextDelta("done")] and flaky.calls == 3


async def test_retries_stop_at_the_bound() -> None:
    flaky = _Flaky([OverloadedFailure("busy", retryable=True)] * 3)

    with pytest.raises(OverloadedFailure):
        await _drain(retrying(flaky.step, RetryPolicy(max_retries=2, base_s=0), "p"))
    assert flaky.calls == 3


async def test_a_failure_after_output_is_never_retried() -> None:
    flaky = _Flaky([OverloadedFailure("busy", retryable=True)], text_first=True)

    with pytest.raises(OverloadedFailure):
        await _drain(retrying(flaky.step, RetryPolicy(max_retries=2, base_s=0), "p"))
    assert flaky.calls == 1


@pytest.mark.parametrize(
    "failure",
    [
        RateLimitedFailure("quota", retryable=False),
        RateLimitedFailure("later", retryable=True, retry_after_seconds=60),  # longer than max_wait_s
        RejectedFailure("bad"),
    ],
)
async def test_quota_rejections_and_long_waits_are_not_retried(failure: ProviderFailure) -> None:
    flaky = _Flaky([failure])

    with pytest.raises(type(failure)):
        await _drain(retrying(flaky.step, RetryPolicy(max_retries=2, base_s=0, max_wait_s=30), "p"))
    assert flaky.calls == 1


async def test_the_api_key_is_scrubbed_from_upstream_errors_and_transport_failures() -> None:
    secret = "sk-very-secret"

    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(500, json={"error": {"message": f"bad key {request.headers['authorization']}"}})

    def classify(status: int, headers: Any, payload: Any) -> ProviderFailure:
        return failure_for_status(status, "", payload["error"]["message"])

    upstream = Upstream(
        "p",
        "http://upstream.invalid",
        {"authorization": secret},
        classify,
        secrets=(secret,),
        transport=httpx.MockTransport(answer),
    )

    with pytest.raises(ProviderFailure) as caught:
        await upstream.post_json("/x", {})

    assert secret not in str(caught.value) and "[redacted]" in str(caught.value)
    assert caught.value.retryable


def test_provider_kinds_validate_with_json_paths() -> None:
    with pytest.raises(ConfigError) as caught:
        parse_config({"providers": [{"id": "a", "kind": "anthropic", "models": ["m"], "baseUrl": "ftp://x"}]})

    assert caught.value.problems[0].startswith("providers[0].baseUrl: ")


def test_an_unset_api_key_variable_is_a_config_error_at_build_time() -> None:
    config = parse_config(
        {"providers": [{"id": "g", "kind": "gemini", "models": ["m"], "apiKeyEnv": "NOT_SET_ANYWHERE_123"}]}
    )

    with pytest.raises(ConfigError) as caught:
        build_provider(config.providers[0], "providers[0]", env={})

    assert caught.value.problems == ["providers[0].apiKeyEnv: environment variable 'NOT_SET_ANYWHERE_123' is not set"]


def test_the_key_never_appears_in_a_providers_repr() -> None:
    config = parse_config({"providers": [{"id": "o", "kind": "openai-responses", "models": ["m"], "apiKeyEnv": "K"}]})

    provider = build_provider(config.providers[0], "providers[0]", env={"K": "sk-in-env"})

    assert "sk-in-env" not in repr(provider)


def test_an_html_error_page_is_reported_as_its_text() -> None:
    upstream = Upstream("p", "http://x", {}, lambda status, headers, payload: failure_for_status(status, "", payload))
    page = "<html><head><style>p{}</style><title>502 Bad Gateway</title></head><body><p>nginx &amp; co</p></body>"

    failure = upstream._failure(502, httpx.Headers({"content-type": "text/html"}), page)

    assert str(failure) == "upstream error (HTTP 502): 502 Bad Gateway nginx & co"


async def test_instances_share_one_tls_context_and_each_keeps_one_bounded_pool(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    built: list[ssl.SSLContext] = []
    real = ssl.create_default_context

    def counting(*args: Any, **kwargs: Any) -> ssl.SSLContext:
        built.append(real(*args, **kwargs))
        return built[-1]

    tls_context.cache_clear()
    monkeypatch.setattr(ssl, "create_default_context", counting)
    instances = [
        Upstream(name, "https://upstream.invalid", {}, lambda *_: failure_for_status(500), max_connections=3)
        for name in ("p", "q")
    ]

    clients = [upstream._client() for upstream in instances for _ in range(3)]

    assert len(built) == 1  # loading the CA bundle per model call cost 20-300 ms of CPU
    assert len({id(client) for client in clients}) == 2  # one pool per instance, not one client per call
    for client in clients:
        pool = client._transport._pool  # type: ignore[attr-defined]
        assert pool._ssl_context is built[0]
        assert (pool._max_connections, pool._max_keepalive_connections) == (3, 3)
    for upstream in instances:
        await upstream.aclose()
    assert all(client.is_closed for client in clients)


class _BrokenBody(httpx.AsyncByteStream):
    """A body the connection breaks under, and whose close fails too."""

    async def __aiter__(self) -> AsyncIterator[bytes]:
        yield b'{"partial": '
        raise httpx.ReadError("connection reset by peer")

    async def aclose(self) -> None:
        raise httpx.ReadError("connection reset by peer")


async def test_a_connection_broken_after_the_head_is_never_retryable_even_if_closing_it_fails() -> None:
    upstream = Upstream(
        "p",
        "http://upstream.invalid",
        {},
        lambda *_: failure_for_status(500),
        transport=httpx.MockTransport(lambda request: httpx.Response(200, stream=_BrokenBody())),
    )

    with pytest.raises(ProviderFailure) as caught:
        await upstream.post_json("/x", {})

    assert "while the provider answered" in str(caught.value)
    assert not caught.value.retryable  # the provider did (and billed) the work: a retry would run it twice


class _TlsBrokenBody(httpx.AsyncByteStream):
    """A body whose TLS record fails mid-answer: httpx passes the ``ssl.SSLError`` on unwrapped."""

    async def __aiter__(self) -> AsyncIterator[bytes]:
        yield b'data: {"partial": true}\n\n'
        raise ssl.SSLError(1, "[SSL: DECRYPTION_FAILED_OR_BAD_RECORD_MAC] decryption failed")


@pytest.mark.parametrize("streamed", [True, False])
async def test_a_tls_failure_while_the_provider_answers_is_a_transport_failure_not_a_defect(streamed: bool) -> None:
    upstream = Upstream(
        "p",
        "https://upstream.invalid",
        {},
        lambda *_: failure_for_status(500),
        transport=httpx.MockTransport(lambda request: httpx.Response(200, stream=_TlsBrokenBody())),
    )

    with pytest.raises(ProviderFailure) as caught:
        if streamed:
            async with upstream.stream("/x", {}) as events:
                async for _ in events:
                    pass
        else:
            await upstream.post_json("/x", {})

    assert "the connection failed while the provider answered (SSLError" in str(caught.value)
    assert not caught.value.retryable
    await upstream.aclose()
