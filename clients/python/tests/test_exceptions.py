"""Every exception class, raised by reaching its condition the way a user would.

Live hosts produce every catalogue code a client can cause. Conditions this SDK
cannot produce by design (it always sends JSON to routes and methods of the
contract, and the reference host never answers 429 or fails) are answered by
``httpx.MockTransport`` with the problem a host would send; so are problems with
codes newer than this client, which must fall back to their status class.
"""

from __future__ import annotations

import asyncio
import base64
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml
from agentic_driver_testing import free_port

import agentic_driver_sdk as sdk
from agentic_driver_sdk import CODE_ERRORS
from agentic_driver_sdk._exceptions import _STATUS_ERRORS

from .conftest import NO_GRANTS, Driver, Host, d, driver_for, mock_client, problem, wait_for_status

SPEC = Path(__file__).resolve().parents[3] / "openapi.yaml"
ECHO = {"provider": "echo", "model": "echo-1"}
SLOW = "!sleep 1500\nslow turn"


def spec_codes() -> list[str]:
    spec = yaml.safe_load(SPEC.read_text(encoding="utf-8"))
    codes: list[str] = spec["components"]["schemas"]["ErrorCode"]["enum"]
    return codes


def test_every_code_in_the_spec_has_its_own_class() -> None:
    """Fails when openapi.yaml's ErrorCode gains a code that CODE_ERRORS does not map."""
    assert sorted(spec_codes()) == sorted(CODE_ERRORS), "CODE_ERRORS and openapi.yaml's ErrorCode differ"
    assert len(set(CODE_ERRORS.values())) == len(CODE_ERRORS), "two codes share a class"
    for name in sdk.__all__:
        getattr(sdk, name)  # every public name resolves


@pytest.mark.parametrize("code", spec_codes())
def test_each_code_class_opens_its_docstring_with_the_code_and_its_shared_fix_it_text(code: str) -> None:
    """The text comes from _fix_it.py (generated from openapi.yaml x-error-table), never written a second time."""
    from agentic_driver_sdk._fix_it import FIX_IT

    doc = CODE_ERRORS[code].__doc__ or ""

    assert doc.startswith(f"``{code}``: {FIX_IT[code]}"), f"{code}: run make generate"
    assert code in (sdk._exceptions.__doc__ or ""), f"{code} is missing from the tree drawn in _exceptions.py"


@pytest.mark.parametrize("code", spec_codes())
def test_each_code_class_sits_under_its_status_class(code: str) -> None:
    """A code's class is a subclass of the class for the status the spec gives it."""
    spec = yaml.safe_load(SPEC.read_text(encoding="utf-8"))
    statuses = {
        schema["properties"]["status"].get("const")
        for schema in spec["components"]["schemas"].values()
        if isinstance(schema, dict) and code in str(schema.get("properties", {}).get("code", {}))
    } - {None}
    for status in statuses:
        parent = sdk.InternalServerError if status >= 500 else _STATUS_ERRORS[status]
        assert issubclass(CODE_ERRORS[code], parent), (code, status)


GROUPS = {
    "NotFound": sdk.NotFoundError,
    "Conflict": sdk.ConflictError,
    "Unprocessable": sdk.UnprocessableEntityError,
    "ProviderFailed": sdk.ProviderFailedError,
    "RetryLater": sdk.RetryLaterError,
}
"""openapi.yaml's x-error-table groups (the server's, and every client's) -> this client's class for each."""


@pytest.mark.parametrize("code", spec_codes())
def test_each_code_class_is_in_the_group_the_error_table_gives_it_and_no_other(code: str) -> None:
    table = yaml.safe_load(SPEC.read_text(encoding="utf-8"))["components"]["schemas"]["ErrorCode"]["x-error-table"]
    group = table[code].get("group")

    inside = {name for name, cls in GROUPS.items() if issubclass(CODE_ERRORS[code], cls)}
    assert inside == ({group} if group else set()), (code, inside, group)


async def raised(driver: Driver, call: Any, error: type[Exception]) -> Any:
    with pytest.raises(error) as caught:
        await d(call())
    return caught.value


# -- 401 / 403 / 404 ----------------------------------------------------------------


async def test_unauthenticated(kind: str, host: Host) -> None:
    async with driver_for(kind, host, token="not-a-configured-token") as driver:
        error = await raised(driver, driver.client.discovery, sdk.UnauthenticatedError)
    assert isinstance(error, sdk.AuthenticationError)
    assert (error.status_code, error.code) == (401, "UNAUTHENTICATED")
    assert error.detail and error.response.headers["www-authenticate"].startswith("Bearer")


async def test_permission_denied(kind: str, host: Host) -> None:
    async with driver_for(kind, host, token=NO_GRANTS) as driver:
        error = await raised(
            driver, lambda: driver.client.sessions.create(**ECHO, mode="history"), sdk.PermissionDeniedError
        )
    assert (error.status_code, error.code) == (403, "PERMISSION_DENIED")


async def test_session_not_found(driver: Driver) -> None:
    error = await raised(driver, lambda: driver.client.sessions.read("ses_missing"), sdk.SessionNotFoundError)
    assert isinstance(error, sdk.NotFoundError) and error.status_code == 404


async def test_run_not_found(driver: Driver) -> None:
    await raised(driver, lambda: driver.client.runs.cancel("run_missing"), sdk.RunNotFoundError)


async def test_provider_and_model_not_found(driver: Driver) -> None:
    await raised(
        driver, lambda: driver.client.run(provider="nope", model="echo-1", input="x"), sdk.ProviderNotFoundError
    )
    await raised(driver, lambda: driver.client.run(provider="echo", model="nope", input="x"), sdk.ModelNotFoundError)


async def test_route_not_found_behind_a_wrong_base_url(kind: str, host: Host) -> None:
    """A base URL with a path the host does not serve reaches ROUTE_NOT_FOUND."""
    async with driver_for(kind, host, base_url=f"{host.base_url}/not-the-api") as driver:
        error = await raised(driver, driver.client.discovery, sdk.RouteNotFoundError)
    assert error.code == "ROUTE_NOT_FOUND"


# -- 409 -----------------------------------------------------------------------------


async def test_session_revision_conflict(driver: Driver) -> None:
    session = await d(driver.client.sessions.create(**ECHO))
    await d(driver.client.run(**ECHO, input="one", session=session))
    error = await raised(
        driver, lambda: driver.client.run(**ECHO, input="stale", session=session), sdk.SessionRevisionConflictError
    )
    assert error.current_revision == 1
    assert error.response.headers["x-should-retry"] == "false"


async def start_slow_turn(driver: Driver, session: Any, **extra: Any) -> tuple[asyncio.Future[Any], str]:
    """A session turn that takes a while, and its run id (learned from SESSION_BUSY once it is active)."""
    slow = driver.background(lambda: driver.client.run(**ECHO, input=SLOW, session=session, **extra))
    await wait_for_status(driver, session.id, "running")
    with pytest.raises(sdk.SessionBusyError) as busy:
        await d(driver.with_options(max_retries=0).client.run(**ECHO, input="probe", session=session))
    assert busy.value.active_run_id is not None
    return slow, busy.value.active_run_id


async def test_session_busy(driver: Driver) -> None:
    session = await d(driver.client.sessions.create(**ECHO))
    slow, run_id = await start_slow_turn(driver, session)
    error = await raised(driver, lambda: driver.client.run(**ECHO, input="now", session=session), sdk.SessionBusyError)
    assert error.active_run_id == run_id and error.retry_after == 1.0
    assert (await asyncio.wait_for(slow, 10)).session.revision == 1


async def test_session_interrupted(driver: Driver) -> None:
    session = await d(driver.client.sessions.create(**ECHO))
    await raised(driver, lambda: driver.client.run(**ECHO, input="!fail", session=session), sdk.ProviderError)
    error = await raised(
        driver, lambda: driver.client.run(**ECHO, input="again", session=session), sdk.SessionInterruptedError
    )
    assert error.code == "SESSION_INTERRUPTED"


async def test_session_account_required(driver: Driver) -> None:
    call = lambda: driver.client.sessions.create(provider="echo-unbound", model="echo-1")  # noqa: E731
    await raised(driver, call, sdk.SessionAccountRequiredError)


async def test_run_cancelled(driver: Driver) -> None:
    session = await d(driver.client.sessions.create(**ECHO))
    slow, run_id = await start_slow_turn(driver, session)
    cancelled = await d(driver.client.runs.cancel(run_id))
    assert cancelled.model_work_started is True
    with pytest.raises(sdk.RunCancelledError) as caught:
        await asyncio.wait_for(slow, 10)
    assert caught.value.reason == "cancelled"


async def test_an_unanswered_run_ends_on_its_action_timeout(driver: Driver) -> None:
    session = await d(driver.client.sessions.create(**ECHO))
    tools = [{"name": "lookup", "parameters": {"type": "object"}}]
    ask = '!call lookup {"q": 1}\nfind it'
    waiting = await d(driver.client.run(**ECHO, input=ask, session=session, tools=tools, action_timeout_ms=200))
    assert str(waiting.status) == "requires_action"
    read = await wait_for_status(driver, session.id, "interrupted")
    assert str(read.interrupted_turn.reason) == "action_timeout"
    call_id = waiting.required_action.calls[0].call_id
    late = lambda: driver.client.runs.submit_actions(waiting.id, function_results={call_id: "x"})  # noqa: E731
    await raised(driver, late, sdk.RunNotFoundError)


async def test_run_not_waiting(driver: Driver) -> None:
    session = await d(driver.client.sessions.create(**ECHO))
    slow, run_id = await start_slow_turn(driver, session)
    call = lambda: driver.client.runs.submit_actions(run_id, function_results={"call_1": "x"})  # noqa: E731
    await raised(driver, call, sdk.RunNotWaitingError)
    await asyncio.wait_for(slow, 10)


async def test_idempotency_key_in_use(driver: Driver) -> None:
    """The caller's own key, reused while its first request runs (retries off to see it)."""
    session = await d(driver.client.sessions.create(**ECHO))
    key = f"in-use-{driver.kind}-{session.id}"
    slow = driver.background(lambda: driver.client.run(**ECHO, input=SLOW, session=session, idempotency_key=key))
    await wait_for_status(driver, session.id, "running")
    impatient = driver.with_options(max_retries=0)
    call = lambda: impatient.client.run(**ECHO, input=SLOW, session=session, idempotency_key=key)  # noqa: E731
    error = await raised(driver, call, sdk.IdempotencyKeyInUseError)
    assert error.retry_after == 1.0
    assert (await asyncio.wait_for(slow, 10)).output.text == "echo: slow turn"


# -- 413 / 422 -------------------------------------------------------------------------


async def test_payload_too_large(kind: str, tight_host: Host) -> None:
    async with driver_for(kind, tight_host) as driver:
        error = await raised(driver, lambda: driver.client.run(**ECHO, input="x" * 10_000), sdk.PayloadTooLargeError)
    assert error.status_code == 413


async def test_validation_error(driver: Driver) -> None:
    call = lambda: driver.client.run(**ECHO, input="x", idempotency_key="k" * 300)  # noqa: E731
    error = await raised(driver, call, sdk.ValidationError)
    assert isinstance(error, sdk.UnprocessableEntityError)
    assert error.errors and error.errors[0]["location"] == "header.Idempotency-Key"


async def test_unsupported_continuation(driver: Driver) -> None:
    call = lambda: driver.client.sessions.create(provider="echo-history", model="echo-1", mode="native")  # noqa: E731
    await raised(driver, call, sdk.UnsupportedContinuationError)


async def test_session_context_unsupported(driver: Driver) -> None:
    session = await d(driver.client.sessions.create(**ECHO))
    attachment = {"name": "a.txt", "mediaType": "text/plain", "data": base64.b64encode(b"hi").decode()}
    call = lambda: driver.client.run(**ECHO, input="x", session=session, attachments=[attachment])  # noqa: E731
    await raised(driver, call, sdk.SessionContextUnsupportedError)


async def test_session_override_rejected(driver: Driver) -> None:
    session = await d(driver.client.sessions.create(**ECHO))
    call = lambda: driver.client.run(**ECHO, input="x", session=session, instructions="be terse")  # noqa: E731
    await raised(driver, call, sdk.SessionOverrideRejectedError)


async def test_session_limit_exceeded(kind: str, tight_host: Host) -> None:
    history = [{"role": ("user", "assistant")[i % 2], "content": f"m{i}"} for i in range(6)]
    async with driver_for(kind, tight_host) as driver:
        call = lambda: driver.client.sessions.create(**ECHO, history=history)  # noqa: E731
        error = await raised(driver, call, sdk.SessionLimitExceededError)
    assert (error.limit, error.maximum) == ("maxMessages", 4)


async def test_action_mismatch(driver: Driver) -> None:
    tools = [{"name": "lookup", "parameters": {"type": "object"}}]
    waiting = await d(driver.client.run(**ECHO, input='!call lookup {"q": 1}\nfind it', tools=tools))
    assert str(waiting.status) == "requires_action"
    call_id = waiting.required_action.calls[0].call_id
    call = lambda: driver.client.runs.submit_actions(waiting.id, approvals={call_id: True})  # noqa: E731
    await raised(driver, call, sdk.ActionMismatchError)
    done = await d(driver.client.runs.submit_actions(waiting.id, function_results={call_id: "found"}))
    assert done.output.text.endswith("lookup -> found")


async def test_idempotency_key_reused(driver: Driver) -> None:
    key = f"reused-{driver.kind}-{id(driver)}"
    await d(driver.client.run(**ECHO, input="first", idempotency_key=key))
    call = lambda: driver.client.run(**ECHO, input="second", idempotency_key=key)  # noqa: E731
    await raised(driver, call, sdk.IdempotencyKeyReusedError)


# -- 5xx -------------------------------------------------------------------------------


async def test_sessions_disabled(kind: str, nosessions_host: Host) -> None:
    async with driver_for(kind, nosessions_host) as driver:
        error = await raised(driver, lambda: driver.client.sessions.create(**ECHO), sdk.SessionsDisabledError)
    assert isinstance(error, sdk.InternalServerError) and error.status_code == 501


async def test_provider_error(driver: Driver) -> None:
    error = await raised(driver, lambda: driver.client.run(**ECHO, input="!fail"), sdk.ProviderError)
    assert error.status_code == 502


async def test_session_store_full(kind: str, full_host: Host) -> None:
    """The store's Retry-After (the retention, 600 s) is longer than the SDK waits: raised at once."""
    async with driver_for(kind, full_host) as driver:
        first = await d(driver.client.sessions.create(**ECHO))
        try:
            error = await raised(driver, lambda: driver.client.sessions.create(**ECHO), sdk.SessionStoreFullError)
        finally:
            await d(driver.client.sessions.delete(first.id))
    assert error.status_code == 503 and error.retry_after is not None and error.retry_after > 60


async def test_host_busy(kind: str, busy_host: Host) -> None:
    async with driver_for(kind, busy_host) as driver:
        session = await d(driver.client.sessions.create(**ECHO))
        slow = driver.background(lambda: driver.client.run(**ECHO, input=SLOW, session=session))
        await wait_for_status(driver, session.id, "running")  # it holds the only slot
        call = lambda: driver.with_options(max_retries=0).client.run(**ECHO, input="another")  # noqa: E731
        error = await raised(driver, call, sdk.HostBusyError)
        assert error.retry_after == 1.0 and error.status_code == 503
        await asyncio.wait_for(slow, 10)


async def test_provider_timeout(driver: Driver) -> None:
    call = lambda: driver.client.run(**ECHO, input="!sleep 3000\nlate", idle_timeout_ms=100)  # noqa: E731
    error = await raised(driver, call, sdk.ProviderTimeoutError)
    assert error.status_code == 504


# -- no answer ---------------------------------------------------------------------------


async def test_connection_error(kind: str, host: Host) -> None:
    closed = f"http://127.0.0.1:{free_port()}"
    async with driver_for(kind, host, base_url=closed, max_retries=0) as driver:
        error = await raised(driver, driver.client.discovery, sdk.APIConnectionError)
    assert not isinstance(error, sdk.APITimeoutError)
    assert isinstance(error.__cause__, httpx.ConnectError)


async def test_timeout_on_a_turn_longer_than_the_read_timeout(kind: str, host: Host) -> None:
    timeout = httpx.Timeout(10.0, read=0.3)
    async with driver_for(kind, host, timeout=timeout) as driver:
        error = await raised(driver, lambda: driver.client.run(**ECHO, input="!sleep 2000\nlate"), sdk.APITimeoutError)
    assert isinstance(error, sdk.APIConnectionError) and isinstance(error.__cause__, httpx.ReadTimeout)


async def test_a_stream_refusal_is_in_the_one_error_tree(kind: str, host: Host) -> None:
    """No second error class for streams: a refused stream raises the same typed error as a plain call."""
    async with driver_for(kind, host, token="not-a-configured-token") as driver:
        with pytest.raises(sdk.UnauthenticatedError) as caught:
            await driver.collect(driver.client.runs.stream(**ECHO, input="x"))
    assert isinstance(caught.value, sdk.AgenticDriverError)
    assert (caught.value.status_code, caught.value.code) == (401, "UNAUTHENTICATED")
    assert not hasattr(sdk, "ProblemError") and not hasattr(sdk, "stream_run")


# -- what the SDK cannot cause: canned answers -------------------------------------------------


CANNED = [
    (405, "METHOD_NOT_ALLOWED", sdk.MethodNotAllowedError),
    (400, "MALFORMED_REQUEST", sdk.MalformedRequestError),
    (415, "UNSUPPORTED_MEDIA_TYPE", sdk.UnsupportedMediaTypeError),
    (404, "ROUTE_NOT_FOUND", sdk.RouteNotFoundError),
    (500, "INTERNAL_ERROR", sdk.InternalError),
    (429, None, sdk.RateLimitError),
    # codes whose guaranteed fields are missing fall back to their status class (with them: test_routing.py)
    (421, "MISDIRECTED_REQUEST", sdk.APIStatusError),
    # HOST_UNAVAILABLE guarantees no field: without ownerHostId the proxy had no host for new work
    (503, "HOST_UNAVAILABLE", sdk.HostUnavailableError),
    # codes newer than this client fall back to their status class, code kept
    (401, "SOMETHING_NEW", sdk.AuthenticationError),
    (404, "SOMETHING_NEW", sdk.NotFoundError),
    (409, "SOMETHING_NEW", sdk.ConflictError),
    (422, "SOMETHING_NEW", sdk.UnprocessableEntityError),
    (507, "SOMETHING_NEW", sdk.InternalServerError),
    (418, None, sdk.APIStatusError),
]


@pytest.mark.parametrize(("status", "code", "error"), CANNED)
async def test_canned_problem(kind: str, status: int, code: str | None, error: type[Exception]) -> None:
    client = mock_client(kind, lambda request: problem(status, code), max_retries=0)
    with pytest.raises(error) as caught:
        await d(client.discovery())
    assert type(caught.value) is error
    assert caught.value.status_code == status and caught.value.code == code
    await d(client.close())


async def test_the_request_id_comes_from_the_header_or_else_the_problem_body(kind: str) -> None:
    answers = iter(
        [
            problem(404, "SESSION_NOT_FOUND", {"x-request-id": "from-header"}, requestId="from-header"),
            problem(404, "SESSION_NOT_FOUND", requestId="from-body"),  # a proxy that dropped the header
            problem(404, "SESSION_NOT_FOUND"),
        ]
    )
    client = mock_client(kind, lambda request: next(answers), max_retries=0)
    seen = []
    for _ in range(3):
        with pytest.raises(sdk.SessionNotFoundError) as caught:
            await d(client.sessions.read("ses_1"))
        seen.append(caught.value.request_id)
    assert seen == ["from-header", "from-body", None]
    await d(client.close())


async def test_a_live_host_answers_with_the_request_id_it_was_sent(driver: Driver) -> None:
    tagged = driver.client.with_options(default_headers={"X-Request-Id": "sdk-test-42"})
    with pytest.raises(sdk.SessionNotFoundError) as caught:
        await d(tagged.sessions.read("ses_no"))
    await d(tagged.close())
    assert caught.value.request_id == "sdk-test-42" == caught.value.problem["requestId"]
    raw = await d(driver.client.with_raw_response.discovery())
    assert raw.request_id is not None and len(raw.request_id) == 32


async def test_a_non_json_error_body_still_raises_by_status(kind: str) -> None:
    client = mock_client(kind, lambda request: httpx.Response(502, text="<html>bad gateway</html>"), max_retries=0)
    with pytest.raises(sdk.InternalServerError) as caught:
        await d(client.discovery())
    assert caught.value.code is None and "bad gateway" in caught.value.detail
    await d(client.close())
