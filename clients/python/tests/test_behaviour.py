"""clients/BEHAVIOUR.md, row by row, through both clients (mock transports, a silent socket, and live hosts)."""

from __future__ import annotations

import email.utils
import logging
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

import agentic_driver_sdk as sdk
from agentic_driver_sdk._base import DEFAULT_STREAM_IDLE_TIMEOUT, USER_AGENT, __version__

from .conftest import Driver, Host, Seen, d, driver_for, mock_client, problem, recording, wait_for_status

ECHO = {"provider": "echo", "model": "echo-1"}


def counting(answer: httpx.Response | None = None, **kwargs: Any) -> tuple[Seen, Any]:
    seen = Seen()

    def handler(request: httpx.Request) -> httpx.Response:
        seen.add(request)
        return answer if answer is not None else httpx.Response(**kwargs)

    return seen, handler


# -- the retry table ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("status", "code", "headers", "attempts"),
    [
        (503, "HOST_BUSY", {"Retry-After": "0"}, 3),
        (429, "HOST_BUSY", {"Retry-After": "0"}, 3),
        (503, "SESSION_STORE_FULL", {"Retry-After": "0"}, 3),
        (503, "SHUTTING_DOWN", {"Retry-After": "0"}, 3),
        (409, "IDEMPOTENCY_KEY_IN_USE", {"Retry-After": "0"}, 3),
        (503, "HOST_BUSY", {"Retry-After": "0", "x-should-retry": "false"}, 1),
        (429, "PROVIDER_RATE_LIMITED", {"Retry-After": "0"}, 1),
        (503, "PROVIDER_OVERLOADED", {"Retry-After": "0"}, 1),
        (502, "PROVIDER_ERROR", {}, 1),
        (504, "PROVIDER_TIMEOUT", {}, 1),
        (502, "PROVIDER_AUTH_FAILED", {}, 1),
        (502, "PROVIDER_REJECTED", {}, 1),
        (409, "SESSION_BUSY", {"Retry-After": "0"}, 1),
        (409, "SESSION_INTERRUPTED", {}, 1),
        (503, "SOMETHING_NEWER", {"Retry-After": "0"}, 1),  # a problem of ours with a code we do not know
        (500, "INTERNAL_ERROR", {}, 1),
        (429, None, {"Retry-After": "0"}, 1),  # every other 4xx: a proxy's 429 too
        (400, None, {}, 1),
    ],
)
async def test_which_answers_are_retried(
    kind: str, no_sleep: list[float], status: int, code: str | None, headers: dict[str, str], attempts: int
) -> None:
    fields = {"activeRunId": "run_1"} if code == "SESSION_BUSY" else {}
    seen, handler = counting(problem(status, code, headers, **fields))
    client = mock_client(kind, handler)
    with pytest.raises(sdk.APIStatusError) as caught:
        await d(client.run(**ECHO, input="x"))
    await d(client.close())
    assert len(seen.requests) == attempts, "the default is 2 retries, and only where the table says so"
    assert len({r.headers["idempotency-key"] for r in seen.requests}) == 1
    assert caught.value.code == code and caught.value.status_code == status


@pytest.mark.parametrize("status", [502, 503, 504])
async def test_a_proxy_error_page_is_retried(kind: str, no_sleep: list[float], status: int) -> None:
    seen, handler = counting(status_code=status, headers={"content-type": "text/html"}, text="<h1>Bad Gateway</h1>")
    client = mock_client(kind, handler)
    with pytest.raises(sdk.InternalServerError) as caught:
        await d(client.sessions.read("ses_1"))
    await d(client.close())
    assert len(seen.requests) == 3 and caught.value.code is None and len(no_sleep) == 2


async def test_zero_retries_turns_retries_off(kind: str, no_sleep: list[float]) -> None:
    seen, handler = counting(problem(503, "HOST_BUSY", {"Retry-After": "0"}))
    client = mock_client(kind, handler, max_retries=0)
    with pytest.raises(sdk.HostBusyError):
        await d(client.run(**ECHO, input="x"))
    await d(client.close())
    assert len(seen.requests) == 1 and no_sleep == []


async def test_a_connect_timeout_is_retried_and_raised_as_the_timeout_error(
    kind: str, no_sleep: list[float], caplog: pytest.LogCaptureFixture
) -> None:
    seen = Seen()

    def handler(request: httpx.Request) -> httpx.Response:
        seen.add(request)
        raise httpx.ConnectTimeout("connect timed out (injected)", request=request)

    client = mock_client(kind, handler)
    with caplog.at_level(logging.DEBUG, logger="agentic_driver_sdk"), pytest.raises(sdk.APITimeoutError) as caught:
        await d(client.run(**ECHO, input="x"))
    await d(client.close())
    assert len(seen.requests) == 3 and len({r.headers["idempotency-key"] for r in seen.requests}) == 1
    lines = [r.getMessage() for r in caplog.records if r.name == "agentic_driver_sdk"]
    assert [line.split(" retry_in=")[0] for line in lines] == [
        f"POST /v1/runs status=APITimeoutError(ConnectTimeout) attempt={n}" for n in (1, 2)
    ] + ["POST /v1/runs status=APITimeoutError(ConnectTimeout) attempt=3 request_id=None"]
    assert isinstance(caught.value, sdk.APIConnectionError) and isinstance(caught.value.__cause__, httpx.ConnectTimeout)


def test_retry_after_as_an_http_date_is_waited(no_sleep: list[float]) -> None:
    when = email.utils.formatdate(time.time() + 3, usegmt=True)
    cancelled = httpx.Response(200, json={"id": "run_1", "status": "cancelled", "modelWorkStarted": False})
    answers = [problem(503, "HOST_BUSY", {"Retry-After": when}), cancelled]
    client = mock_client("sync", lambda request: answers.pop(0))
    assert client.runs.cancel("run_1").id == "run_1"
    client.close()
    assert len(no_sleep) == 1 and 1.0 <= no_sleep[0] <= 3.0


def test_retry_after_parsing() -> None:
    assert sdk.parse_retry_after("2") == 2.0
    assert sdk.parse_retry_after("-5") == 0.0
    assert sdk.parse_retry_after("soon") is None
    assert sdk.parse_retry_after(None) is None
    assert sdk.parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT") == 0.0  # in the past: no wait


# -- errors -------------------------------------------------------------------------------------------------------


def test_guaranteed_fields_are_not_optional_and_a_problem_without_them_falls_back_to_its_status_class() -> None:
    def error(code: str, **fields: Any) -> sdk.APIStatusError:
        response = problem(409, code, **fields)
        return sdk.error_from_response(response, response.content)

    conflict = error("SESSION_REVISION_CONFLICT", currentRevision=3)
    busy = error("SESSION_BUSY", activeRunId="run_9")
    assert isinstance(conflict, sdk.SessionRevisionConflictError) and conflict.current_revision == 3
    assert isinstance(busy, sdk.SessionBusyError) and busy.active_run_id == "run_9"
    broken = error("SESSION_REVISION_CONFLICT")
    assert type(broken) is sdk.ConflictError and broken.code == "SESSION_REVISION_CONFLICT"
    assert type(error("SESSION_BUSY", activeRunId=7)) is sdk.ConflictError


async def test_errors_carry_their_answer(kind: str) -> None:
    response = problem(404, "SESSION_NOT_FOUND", {"x-request-id": "req_42"})
    client = mock_client(kind, lambda request: response)
    with pytest.raises(sdk.SessionNotFoundError) as caught:
        await d(client.sessions.read("ses_gone"))
    await d(client.close())
    assert caught.value.headers["x-request-id"] == "req_42" == caught.value.request_id
    assert caught.value.response.request.url.path == "/v1/sessions/ses_gone"


# -- headers ------------------------------------------------------------------------------------------------------


async def test_user_agent_default_headers_and_authorization_last(kind: str) -> None:
    seen, handler = counting(status_code=200, json={"id": "run_1", "status": "cancelled", "modelWorkStarted": False})
    default_headers = {"authorization": "Bearer stolen", "X-App": "billing"}
    client = mock_client(kind, handler, default_headers=default_headers)
    await d(client.runs.cancel("run_1"))
    mine = mock_client(kind, handler, default_headers={"User-Agent": "my-app/1.0"})
    await d(mine.runs.cancel("run_1"))
    await d(client.close())
    await d(mine.close())
    first, second = seen.requests
    assert first.headers["user-agent"] == f"agentic-driver-python/{__version__}" == USER_AGENT
    assert first.headers.get_list("authorization") == ["Bearer t"], "default headers never replace the token"
    assert first.headers["x-app"] == "billing"
    assert "idempotency-key" not in first.headers, "cancelRun takes no key"
    assert second.headers["user-agent"] == "my-app/1.0"


def test_the_version_is_the_distributions() -> None:
    import tomllib
    from pathlib import Path

    pyproject = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text(encoding="utf-8"))
    assert pyproject["project"]["version"] == __version__ == sdk.__version__


# -- logging ------------------------------------------------------------------------------------------------------


async def test_debug_lines_say_what_happened_and_never_the_token_or_a_body(
    kind: str, no_sleep: list[float], caplog: pytest.LogCaptureFixture
) -> None:
    answers = [
        problem(503, "HOST_BUSY", {"Retry-After": "0"}),
        httpx.Response(
            200,
            headers={"x-request-id": "req_7"},
            json={"id": "run_1", "status": "cancelled", "modelWorkStarted": False},
        ),
    ]
    transport = httpx.MockTransport(lambda request: answers.pop(0))
    options: dict[str, Any] = {"base_url": "http://mock.invalid", "token": "secret-token-value-123"}
    client = (
        sdk.AgenticDriver(**options, transport=transport)
        if kind == "sync"
        else sdk.AsyncAgenticDriver(**options, transport=transport)
    )
    with caplog.at_level(logging.DEBUG, logger="agentic_driver_sdk"):
        await d(client.runs.cancel("run_1"))
    await d(client.close())
    lines = [r.getMessage() for r in caplog.records if r.name == "agentic_driver_sdk"]
    assert lines == [
        "POST /v1/runs/run_1/cancel status=503 attempt=1 retry_in=0.000s request_id=None",
        "POST /v1/runs/run_1/cancel status=200 attempt=2 request_id=req_7",
    ]
    assert not any("secret-token" in line or "modelWorkStarted" in line for line in lines)


def test_agentic_driver_log_debug_turns_on_a_standard_error_handler() -> None:
    code = (
        "import httpx, agentic_driver_sdk as sdk\n"
        "ok = httpx.Response(200, json={'id': 'r', 'status': 'cancelled', 'modelWorkStarted': False})\n"
        "t = httpx.MockTransport(lambda r: ok)\n"
        "c = sdk.AgenticDriver(base_url='http://h.invalid', token='tok-never-logged-000', transport=t)\n"
        "c.runs.cancel('run_1')\n"
    )
    quiet = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    env = {"AGENTIC_DRIVER_LOG": "debug", "PATH": ""}
    loud = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60, env=env)
    assert quiet.stderr == ""
    assert "POST /v1/runs/run_1/cancel status=200 attempt=1" in loud.stderr
    assert "tok-never-logged" not in loud.stderr and "Authorization" not in loud.stderr


# -- raw responses ------------------------------------------------------------------------------------------------


async def test_with_raw_response_gives_status_headers_and_the_parsed_value(driver: Driver) -> None:
    raw_session = await d(driver.client.with_raw_response.sessions.create(**ECHO))
    session = raw_session.parse()
    assert raw_session.status_code == 201 and raw_session.headers["content-type"].startswith("application/json")
    raw_run = await d(driver.client.with_raw_response.run(**ECHO, input="raw", session=session))
    assert raw_run.status_code == 200 and raw_run.headers["content-type"].startswith("application/json")
    assert raw_run.parse().session.revision == 1 and raw_run.parse().output.text == "echo: raw"
    raw_read = await d(driver.client.with_raw_response.sessions.read(session.id))
    assert raw_read.parse().session.revision == 1
    assert (await d(driver.client.with_raw_response.sessions.delete(session.id))).status_code == 204


# -- timeouts -----------------------------------------------------------------------------------------------------


class SilentStream:
    """A loopback server that sends a stream's head (after ``head_delay``) and one event, then goes silent."""

    def __init__(self, head_delay: float) -> None:
        self.head_delay = head_delay
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self.release = threading.Event()
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    def serve(self) -> None:
        connection, _ = self.server.accept()
        with connection:
            connection.recv(65536)
            self.release.wait(self.head_delay)
            head = b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n"
            event = b'event: run.started\ndata: {"type": "run.started", "runId": "run_1"}\n\n'
            connection.sendall(head + f"{len(event):x}\r\n".encode() + event + b"\r\n")
            self.release.wait(30)  # silent until the test ends

    def close(self) -> None:
        self.release.set()
        self.thread.join(5)
        self.server.close()


@pytest.fixture
def silent() -> Iterator[Any]:
    servers: list[SilentStream] = []

    def make(head_delay: float) -> SilentStream:
        servers.append(SilentStream(head_delay))
        return servers[-1]

    yield make
    for server in servers:
        server.close()


async def test_a_silent_stream_fails_after_the_idle_timeout_not_the_read_timeout(kind: str, silent: Any) -> None:
    """The head waits under ``read`` (2 s here, the head takes 0.6 s); events under ``stream_idle_timeout`` (0.3 s)."""
    server = silent(0.6)
    options = {"timeout": httpx.Timeout(30.0, read=2.0), "stream_idle_timeout": 0.3, "max_retries": 0}
    client = (sdk.AgenticDriver if kind == "sync" else sdk.AsyncAgenticDriver)(
        base_url=f"http://127.0.0.1:{server.port}", token="t", **options
    )
    driver = Driver(kind, client, None)  # type: ignore[arg-type]
    started = time.monotonic()
    events: list[Any] = []
    with pytest.raises(sdk.APITimeoutError):
        await driver.collect(client.runs.stream(**ECHO, input="x"), sink=events)
    elapsed = time.monotonic() - started
    await d(client.close())
    assert [type(e).__name__ for e in events] == ["RunStartedEvent"]
    assert 0.85 <= elapsed < 1.9, elapsed


def test_default_timeouts() -> None:
    with sdk.AgenticDriver(base_url="http://h.invalid") as client:
        assert client.options.timeout.connect == 5.0 and client.options.timeout.read == 600.0
        assert client.options.stream_idle_timeout == DEFAULT_STREAM_IDLE_TIMEOUT == 60.0
        assert client.options.max_retries == 2


# -- the busy helper ----------------------------------------------------------------------------------------------


async def test_wait_until_idle_waits_retry_after_first_then_doubles_up_to_a_second(
    kind: str, no_sleep: list[float]
) -> None:
    from .test_package import SESSION

    statuses = ["running"] * 6 + ["ready"]

    def handler(request: httpx.Request) -> httpx.Response:
        session = {**SESSION, "status": statuses.pop(0)}
        return httpx.Response(200, json={"session": session, "instructions": None, "history": [], "turns": []})

    client = mock_client(kind, handler)
    busy_response = problem(409, "SESSION_BUSY", {"Retry-After": "0.3"}, activeRunId="run_1")
    busy = sdk.error_from_response(busy_response, busy_response.content)
    assert isinstance(busy, sdk.SessionBusyError)
    read = await d(client.sessions.wait_until_idle("ses_1", busy=busy))
    await d(client.close())
    assert str(read.session.status) == "ready"
    assert no_sleep == pytest.approx([0.3, 0.6, 1.0, 1.0, 1.0, 1.0, 1.0])


async def test_wait_until_idle_without_an_error_starts_at_a_tenth(kind: str, no_sleep: list[float]) -> None:
    from .test_package import SESSION

    statuses = ["running", "running", "interrupted"]
    client = mock_client(
        kind,
        lambda request: httpx.Response(
            200,
            json={"session": {**SESSION, "status": statuses.pop(0)}, "instructions": None, "history": [], "turns": []},
        ),
    )
    read = await d(client.sessions.wait_until_idle("ses_1"))
    await d(client.close())
    assert str(read.session.status) == "interrupted" and no_sleep == pytest.approx([0.1, 0.2, 0.4])


async def test_wait_until_idle_is_bounded(kind: str, host: Host) -> None:
    async with driver_for(kind, host) as driver:
        session = await d(driver.client.sessions.create(**ECHO))
        slow = driver.background(lambda: driver.client.run(**ECHO, input="!sleep 1500\nslow", session=session))
        await wait_for_status(driver, session.id, "running")
        started = time.monotonic()
        with pytest.raises(sdk.APITimeoutError, match="still running"):
            await d(driver.client.sessions.wait_until_idle(session.id, timeout=0.3))
        assert time.monotonic() - started < 1.0
        assert (await slow).session.revision == 1


# -- truncate, sessions and streams -------------------------------------------------------------------------------


async def test_truncate_keeps_the_first_turns_and_sends_no_idempotency_key(kind: str, host: Host) -> None:
    seen = Seen()
    async with driver_for(kind, host, transport=recording(kind, seen)) as driver:
        session = await d(driver.client.sessions.create(**ECHO))
        first = await d(driver.client.run(**ECHO, input="My name is Ada.", session=session))
        second = await d(driver.client.run(**ECHO, input="I like tea.", session=first.session))
        cut = await d(driver.client.sessions.truncate(second.session, keep_turns=1))
        assert cut.revision == 3 and cut.message_count == 2
        recall = await d(driver.client.run(**ECHO, input="!recall", session=cut))
        assert recall.output.text == "recall: 2 messages; last user: My name is Ada."
        with pytest.raises(sdk.SessionRevisionConflictError) as caught:
            await d(driver.client.sessions.truncate(second.session, keep_turns=0))
        assert caught.value.current_revision == 4
    truncations = [r for r in seen.requests if r.url.path.endswith("/truncate")]
    assert len(truncations) == 2 and all("idempotency-key" not in r.headers for r in truncations)


async def test_a_session_run_result_has_its_session_and_a_stateless_one_has_none(driver: Driver) -> None:
    from agentic_driver_client.types import Unset

    session = await d(driver.client.sessions.create(**ECHO))
    result = await d(driver.client.run(**ECHO, input="hi", session=session))
    assert isinstance(result, sdk.SessionRunResult) and result.session.handle.revision == 1
    stateless = await d(driver.client.run(**ECHO, input="hi"))
    assert not isinstance(stateless, sdk.SessionRunResult) and isinstance(stateless.session, Unset)


async def test_final_run_returns_the_session_run_and_a_failed_run_raises_its_typed_error(driver: Driver) -> None:
    session = await d(driver.client.sessions.create(**ECHO))
    stream = driver.client.runs.stream(**ECHO, input="!chunks 2\none two", session=session)
    final = await d(stream.final_run())
    assert isinstance(final, sdk.SessionRunResult) and final.session.revision == 1
    assert final.output.text == "echo: one two"
    failing = driver.client.runs.stream(**ECHO, input="!fail")
    with pytest.raises(sdk.ProviderError) as caught:
        await d(failing.final_run())
    assert caught.value.code == "PROVIDER_ERROR" and caught.value.status_code == 502


async def test_a_stream_is_a_context_manager_with_its_response(driver: Driver) -> None:
    stream = driver.client.runs.stream(**ECHO, input="hello")
    if driver.kind == "sync":
        with stream:
            assert stream.response.status_code == 200
            assert stream.response.headers["content-type"].startswith("text/event-stream")
            kinds = [type(e).__name__ for e in stream]
    else:
        async with stream:
            assert stream.response.status_code == 200
            kinds = [type(e).__name__ async for e in stream]
    assert kinds[0] == "RunStartedEvent" and kinds[-1] == "RunCompletedEvent"
    assert (await d(stream.final_run())).output.text == "echo: hello", "final_run after the events were read"


async def test_a_backoff_wait_ends_with_the_callers_cancellation() -> None:
    """A 30 s Retry-After is being waited out; the caller's asyncio.timeout ends the wait at once, unretried."""
    import asyncio

    seen, handler = counting(problem(503, "HOST_BUSY", {"Retry-After": "30"}))
    client = mock_client("async", handler)
    started = time.monotonic()
    with pytest.raises(TimeoutError):
        async with asyncio.timeout(0.3):
            await client.run(**ECHO, input="x")
    elapsed = time.monotonic() - started
    await client.close()
    assert elapsed < 2.0 and len(seen.requests) == 1
