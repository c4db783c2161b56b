"""Retries: safe by construction (one Idempotency-Key per logical call), bounded, and only where they can help."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx
import pytest
from agentic_driver_testing import free_port

import agentic_driver_sdk as sdk
from agentic_driver_sdk._base import INITIAL_RETRY_DELAY, MAX_RETRY_DELAY

from .conftest import Driver, Host, Seen, d, driver_for, mock_client, problem, recording, wait_for_status

# A provider instance no other test makes model calls on, so its call counter is this file's alone.
COUNTED = {"provider": "echo-history", "model": "echo-1"}
ECHO = {"provider": "echo", "model": "echo-1"}


def keys(requests: list[httpx.Request]) -> set[str | None]:
    return {r.headers.get("idempotency-key") for r in requests}


@pytest.mark.parametrize("path", ["/v1/runs", "/v1/runs/stream"])
async def test_a_run_retried_after_a_dropped_connection_runs_its_turn_once(kind: str, host: Host, path: str) -> None:
    seen = Seen()
    async with driver_for(kind, host, transport=recording(kind, seen, drop_first=path)) as driver:
        session = await d(driver.client.sessions.create(**COUNTED))
        calls_before = host.provider_calls("echo-history")
        if path == "/v1/runs":
            result = await d(driver.client.run(**COUNTED, input="hello once", session=session))
            assert result.output.text == "echo: hello once"
            assert result.session.revision == 1
        else:
            events = await driver.collect(driver.client.runs.stream(**COUNTED, input="hello once", session=session))
            completed = [e for e in events if type(e).__name__ == "RunCompletedEvent"]
            assert [e.run.session.revision for e in completed] == [1]  # the replay: one run.completed
        read = await d(driver.client.sessions.read(session.id))

    assert read.session.revision == 1, "the revision advanced exactly once"
    assert [m.content for m in read.history] == ["hello once", "echo: hello once"]
    assert host.provider_calls("echo-history") - calls_before == 1, "exactly one model call"
    attempts = seen.posts(path)
    assert len(attempts) == 2
    assert len(keys(attempts)) == 1 and None not in keys(attempts), "every attempt carries the same key"


async def test_each_logical_call_has_its_own_key(kind: str, host: Host) -> None:
    seen = Seen()
    async with driver_for(kind, host, transport=recording(kind, seen)) as driver:
        await d(driver.client.run(**ECHO, input="a"))
        await d(driver.client.run(**ECHO, input="b"))
        await d(driver.client.run(**ECHO, input="c", idempotency_key="chosen-by-the-caller"))
    found = [r.headers["idempotency-key"] for r in seen.posts("/v1/runs")]
    assert len(set(found)) == 3 and found[2] == "chosen-by-the-caller"


async def test_retry_after_is_honoured_and_retries_stop_at_max_retries(kind: str, no_sleep: list[float]) -> None:
    seen = Seen()

    def busy(request: httpx.Request) -> httpx.Response:
        seen.add(request)
        return problem(503, "HOST_BUSY", {"Retry-After": "2"}, retryAfterSeconds=2)

    client = mock_client(kind, busy, max_retries=3)
    with pytest.raises(sdk.HostBusyError):
        await d(client.run(**ECHO, input="x"))
    await d(client.close())
    assert no_sleep == [2.0, 2.0, 2.0]
    assert len(seen.requests) == 4 and len(keys(seen.requests)) == 1


async def test_backoff_without_retry_after_is_exponential_jittered_and_capped(kind: str, no_sleep: list[float]) -> None:
    client = mock_client(kind, lambda request: httpx.Response(502, text="bad gateway"), max_retries=6)
    with pytest.raises(sdk.InternalServerError):
        await d(client.discovery())
    await d(client.close())
    assert len(no_sleep) == 6
    for attempt, slept in enumerate(no_sleep):
        ceiling = min(INITIAL_RETRY_DELAY * 2**attempt, MAX_RETRY_DELAY)
        assert 0.75 * ceiling <= slept <= ceiling


async def test_a_retry_after_longer_than_a_minute_is_left_to_the_caller(kind: str, no_sleep: list[float]) -> None:
    client = mock_client(kind, lambda request: problem(503, "SESSION_STORE_FULL", {"Retry-After": "3600"}))
    with pytest.raises(sdk.SessionStoreFullError) as caught:
        await d(client.sessions.create(**ECHO))
    await d(client.close())
    assert no_sleep == [] and caught.value.retry_after == 3600


async def test_a_busy_host_is_waited_out_for_real(kind: str, busy_host: Host) -> None:
    """Live: HOST_BUSY says Retry-After: 1; the client waits that long and then gets through."""
    seen = Seen()
    async with (
        driver_for(kind, busy_host) as holder,
        driver_for(kind, busy_host, max_retries=5, transport=recording(kind, seen)) as waiter,
    ):
        session = await d(holder.client.sessions.create(**ECHO))
        slow = holder.background(lambda: holder.client.run(**ECHO, input="!sleep 1200\nhold it", session=session))
        await wait_for_status(holder, session.id, "running")  # it holds the only slot
        started = time.monotonic()
        result = await d(waiter.client.run(**ECHO, input="waited"))
        elapsed = time.monotonic() - started
        await asyncio.wait_for(slow, 10)
    attempts = seen.posts("/v1/runs")
    assert result.output.text == "echo: waited"
    assert len(attempts) >= 2 and len(keys(attempts)) == 1
    assert elapsed >= 1.0 * (len(attempts) - 1)


@pytest.mark.parametrize(
    ("status", "code", "error"),
    [
        (409, "SESSION_REVISION_CONFLICT", sdk.SessionRevisionConflictError),
        (409, "SESSION_INTERRUPTED", sdk.SessionInterruptedError),
        (409, "RUN_CANCELLED", sdk.RunCancelledError),
        (400, None, sdk.APIStatusError),
        (404, "SESSION_NOT_FOUND", sdk.SessionNotFoundError),
        (422, "VALIDATION_ERROR", sdk.ValidationError),
        (500, "INTERNAL_ERROR", sdk.InternalError),
        (502, "PROVIDER_ERROR", sdk.ProviderError),
        (504, "PROVIDER_TIMEOUT", sdk.ProviderTimeoutError),
        (503, None, sdk.InternalServerError),  # x-should-retry: false wins over a retryable status
    ],
)
async def test_never_retried(kind: str, no_sleep: list[float], status: int, code: str | None, error: type) -> None:
    seen = Seen()

    def answer(request: httpx.Request) -> httpx.Response:
        seen.add(request)
        fields = {"currentRevision": 1} if code == "SESSION_REVISION_CONFLICT" else {}
        return problem(status, code, {"x-should-retry": "false"} if code is None and status == 503 else {}, **fields)

    client = mock_client(kind, answer, max_retries=3)
    with pytest.raises(error):
        await d(client.run(**ECHO, input="x"))
    await d(client.close())
    assert len(seen.requests) == 1 and no_sleep == []


async def test_live_conflict_and_interruption_are_not_retried(kind: str, host: Host) -> None:
    seen = Seen()
    async with driver_for(kind, host, max_retries=3, transport=recording(kind, seen)) as driver:
        session = await d(driver.client.sessions.create(**ECHO))
        await d(driver.client.run(**ECHO, input="one", session=session))
        with pytest.raises(sdk.SessionRevisionConflictError):
            await d(driver.client.run(**ECHO, input="stale", session=session))
        broken = await d(driver.client.sessions.create(**ECHO))
        with pytest.raises(sdk.ProviderError):
            await d(driver.client.run(**ECHO, input="!fail", session=broken))
        with pytest.raises(sdk.SessionInterruptedError):
            await d(driver.client.run(**ECHO, input="again", session=broken))
    assert len(seen.posts("/v1/runs")) == 4, "one attempt each"


async def test_session_busy_is_never_retried_and_wait_until_idle_returns_the_state_to_go_on_from(
    kind: str, host: Host
) -> None:
    seen = Seen()
    async with (
        driver_for(kind, host) as driver,
        driver_for(kind, host, max_retries=5, transport=recording(kind, seen)) as plain,
    ):
        session = await d(driver.client.sessions.create(**ECHO))
        slow = driver.background(lambda: driver.client.run(**ECHO, input="!sleep 1200\nfirst", session=session))
        await wait_for_status(driver, session.id, "running")
        with pytest.raises(sdk.SessionBusyError) as caught:
            await d(plain.client.run(**ECHO, input="second", session=session))
        assert caught.value.active_run_id.startswith("run_")
        read = await d(plain.client.sessions.wait_until_idle(session.id, busy=caught.value, timeout=10))
        assert str(read.session.status) == "ready" and read.session.revision == 1
        assert [m.content for m in read.history] == ["!sleep 1200\nfirst", "echo: first"]
        after = await d(plain.client.run(**ECHO, input="second", session=read.session))
        assert after.session.revision == 2
        await asyncio.wait_for(slow, 10)
    assert len(seen.posts("/v1/runs")) == 2, "the busy answer was not retried"


async def test_a_read_timeout_on_a_post_is_not_retried(kind: str, host: Host) -> None:
    """The host stops a run whose client hung up; a retry could only replay that cancellation."""
    seen = Seen()
    timeout = httpx.Timeout(10.0, read=0.3)
    async with driver_for(kind, host, timeout=timeout, max_retries=3, transport=recording(kind, seen)) as driver:
        with pytest.raises(sdk.APITimeoutError):
            await d(driver.client.run(**ECHO, input="!sleep 2000\nslow"))
    assert len(seen.posts("/v1/runs")) == 1


async def test_a_read_timeout_on_a_get_is_retried(kind: str, no_sleep: list[float]) -> None:
    seen = Seen()

    def slow(request: httpx.Request) -> httpx.Response:
        seen.add(request)
        raise httpx.ReadTimeout("timed out (injected)", request=request)

    client = mock_client(kind, slow, max_retries=2)
    with pytest.raises(sdk.APITimeoutError):
        await d(client.discovery())
    await d(client.close())
    assert len(seen.requests) == 3 and len(no_sleep) == 2


async def test_connection_failures_are_retried_up_to_max_retries(kind: str, host: Host, no_sleep: list[float]) -> None:
    async with driver_for(kind, host, base_url=f"http://127.0.0.1:{free_port()}", max_retries=2) as driver:
        with pytest.raises(sdk.APIConnectionError):
            await d(driver.client.run(**ECHO, input="x"))
    assert len(no_sleep) == 2


async def test_a_delete_retried_after_a_lost_answer_succeeds(kind: str, host: Host) -> None:
    seen = Seen()
    async with driver_for(kind, host) as driver:
        session = await d(driver.client.sessions.create(**ECHO))
        path = f"/v1/sessions/{session.id}"
        async with driver_for(kind, host, transport=recording(kind, seen, drop_first=path)) as dropping:
            assert await d(dropping.client.sessions.delete(session.id)) is None
        with pytest.raises(sdk.SessionNotFoundError):
            await d(driver.client.sessions.read(session.id))
    assert [r.method for r in seen.requests] == ["DELETE", "DELETE"]


def test_max_retries_must_not_be_negative(host: Host) -> None:
    with pytest.raises(ValueError, match="max_retries"):
        sdk.AgenticDriver(base_url=host.base_url, max_retries=-1)


async def test_stream_refusals_are_retried_like_plain_calls(kind: str, no_sleep: list[float]) -> None:
    seen = Seen()
    answers: list[httpx.Response] = [
        problem(503, "HOST_BUSY", {"Retry-After": "1"}),
        httpx.Response(
            200,
            headers={"content-type": "text/event-stream"},
            content=b'event: run.started\ndata: {"type": "run.started", "runId": "run_1"}\n\n',
        ),
    ]

    def answer(request: httpx.Request) -> httpx.Response:
        seen.add(request)
        return answers.pop(0)

    client = mock_client(kind, answer)
    events: list[Any] = []
    driver = Driver(kind, client, None)  # type: ignore[arg-type]
    events = await driver.collect(client.runs.stream(**ECHO, input="x"), stop_after=1)  # the canned body stops there
    await d(client.close())
    assert [type(e).__name__ for e in events] == ["RunStartedEvent"]
    assert no_sleep == [1.0] and len(keys(seen.requests)) == 1
