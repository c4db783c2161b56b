"""Client-side helpers for the end-to-end tests: requests, calls, polling and checks on the answers.

Request builders (``create_request``, ``run_request``, ``messages``), calls through
the generated client that assert success (``new_session``, ``run_ok``, ``read_ok``,
``truncate_ok``, ``fork_ok``, ``submit_ok`` and their async twins), bounded polling
(``wait_for_status``, ``wait_until``, ``settle``, ``slot_taken``), assertions on
answers (``body_of``, ``assert_problem``, ``visible_bytes``), builders for
application functions and approvals, and a strict reader of raw SSE lines.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

from agentic_driver_client import AuthenticatedClient
from agentic_driver_client.api.runs import run, submit_run_actions
from agentic_driver_client.api.sessions import (
    create_session,
    delete_session,
    fork_session,
    read_session,
    truncate_session,
)
from agentic_driver_client.models import (
    ApprovalDecision,
    CreateSessionRequest,
    CreateSessionResponse,
    ForkSessionRequest,
    FunctionResult,
    Message,
    MessageRole,
    NativeHistoryFilter,
    ReadSessionResponse,
    RunRequest,
    RunResult,
    SessionHandle,
    SessionInfo,
    SessionMode,
    SubmitRunActionsRequest,
    ToolDefinition,
    ToolDefinitionParameters,
    TruncateSessionRequest,
)
from agentic_driver_client.types import UNSET

TIMESTAMP = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")
POLL_INTERVAL_S = 0.02
WAIT_TIMEOUT_S = 10.0


# -- request builders -------------------------------------------------------------


def messages(*texts: str) -> list[Message]:
    """Alternating user/assistant messages, starting with the user."""
    roles = (MessageRole.USER, MessageRole.ASSISTANT)
    return [Message(role=roles[i % 2], content=text) for i, text in enumerate(texts)]


def create_request(
    provider: str = "echo",
    mode: str = "history",
    model: str = "echo-1",
    *,
    instructions: str | None = None,
    history: list[Message] | None = None,
    native_history: str | None = None,
) -> CreateSessionRequest:
    return CreateSessionRequest(
        provider=provider,
        model=model,
        mode=SessionMode(mode),
        instructions=UNSET if instructions is None else instructions,
        history=UNSET if history is None else history,
        native_history=UNSET if native_history is None else NativeHistoryFilter(native_history),
    )


def run_request(
    text: str,
    session: SessionInfo | None = None,
    *,
    revision: int | None = None,
    provider: str | None = None,
    model: str | None = None,
    **extra: Any,
) -> RunRequest:
    """A run; with ``session``, a session run at that session's (or the given) revision."""
    handle = UNSET
    if session is not None:
        handle = SessionHandle(id=session.id, revision=session.revision if revision is None else revision)
    return RunRequest(
        provider=provider or (session.provider if session is not None else "echo"),
        model=model or (session.model if session is not None else "echo-1"),
        input_=text,
        session=handle,
        **extra,
    )


# -- client helpers ----------------------------------------------------------------


def new_session(client: AuthenticatedClient, **kwargs: Any) -> SessionInfo:
    response = create_session.sync_detailed(client=client, body=create_request(**kwargs))
    assert response.status_code == 201, response.content
    assert response.parsed is not None
    return response.parsed.session


async def anew_session(client: AuthenticatedClient, **kwargs: Any) -> SessionInfo:
    response = await create_session.asyncio_detailed(client=client, body=create_request(**kwargs))
    assert response.status_code == 201, response.content
    assert response.parsed is not None
    return response.parsed.session


def run_ok(client: AuthenticatedClient, body: RunRequest) -> RunResult:
    response = run.sync_detailed(client=client, body=body)
    assert response.status_code == 200, response.content
    assert isinstance(response.parsed, RunResult)
    return response.parsed


async def arun_ok(client: AuthenticatedClient, body: RunRequest) -> RunResult:
    response = await run.asyncio_detailed(client=client, body=body)
    assert response.status_code == 200, response.content
    assert isinstance(response.parsed, RunResult)
    return response.parsed


def read_ok(client: AuthenticatedClient, session_id: str) -> ReadSessionResponse:
    response = read_session.sync_detailed(session_id, client=client)
    assert response.status_code == 200, response.content
    assert isinstance(response.parsed, ReadSessionResponse)
    return response.parsed


async def aread_ok(client: AuthenticatedClient, session_id: str) -> ReadSessionResponse:
    response = await read_session.asyncio_detailed(session_id, client=client)
    assert response.status_code == 200, response.content
    assert isinstance(response.parsed, ReadSessionResponse)
    return response.parsed


def truncate(client: AuthenticatedClient, session_id: str, revision: int, keep_turns: int) -> Any:
    """truncateSession through the generated client (the detailed response, whatever its status)."""
    body = TruncateSessionRequest(revision=revision, keep_turns=keep_turns)
    return truncate_session.sync_detailed(session_id, client=client, body=body)


def truncate_ok(client: AuthenticatedClient, session_id: str, revision: int, keep_turns: int) -> SessionInfo:
    response = truncate(client, session_id, revision, keep_turns)
    assert response.status_code == 200, response.content
    assert isinstance(response.parsed, CreateSessionResponse)
    return response.parsed.session


async def atruncate(client: AuthenticatedClient, session_id: str, revision: int, keep_turns: int) -> Any:
    body = TruncateSessionRequest(revision=revision, keep_turns=keep_turns)
    return await truncate_session.asyncio_detailed(session_id, client=client, body=body)


async def atruncate_ok(client: AuthenticatedClient, session_id: str, revision: int, keep_turns: int) -> SessionInfo:
    response = await atruncate(client, session_id, revision, keep_turns)
    assert response.status_code == 200, response.content
    assert isinstance(response.parsed, CreateSessionResponse)
    return response.parsed.session


def fork(client: AuthenticatedClient, session_id: str, revision: int | None = None, key: str | None = None) -> Any:
    """forkSession through the generated client (the detailed response, whatever its status)."""
    body = ForkSessionRequest() if revision is None else ForkSessionRequest(revision=revision)
    return fork_session.sync_detailed(session_id, client=client, body=body, idempotency_key=key or UNSET)


def fork_ok(client: AuthenticatedClient, session_id: str, revision: int | None = None) -> SessionInfo:
    response = fork(client, session_id, revision)
    assert response.status_code == 201, response.content
    assert isinstance(response.parsed, CreateSessionResponse)
    return response.parsed.session


async def afork(client: AuthenticatedClient, session_id: str, revision: int | None = None) -> Any:
    body = ForkSessionRequest() if revision is None else ForkSessionRequest(revision=revision)
    return await fork_session.asyncio_detailed(session_id, client=client, body=body)


async def wait_for_status(
    client: AuthenticatedClient, session_id: str, status: str, timeout_s: float = WAIT_TIMEOUT_S
) -> ReadSessionResponse:
    """Poll readSession (bounded in count and time) until the session reports ``status``."""
    deadline = time.monotonic() + timeout_s
    seen = None
    for _ in range(int(timeout_s / POLL_INTERVAL_S) + 1):
        current = await aread_ok(client, session_id)
        seen = current.session.status.value
        if seen == status:
            return current
        if time.monotonic() > deadline:
            break
        await asyncio.sleep(POLL_INTERVAL_S)
    raise AssertionError(f"session {session_id} never reached status {status!r} (last seen {seen!r})")


async def settle(task: asyncio.Task[Any], timeout_s: float = WAIT_TIMEOUT_S) -> Any:
    """The result of an in-flight request task, bounded in time."""
    return await asyncio.wait_for(task, timeout_s)


async def wait_until(condition: Callable[[], bool], what: str, timeout_s: float = WAIT_TIMEOUT_S) -> None:
    """Poll ``condition`` (bounded in count and time) until it holds."""
    deadline = time.monotonic() + timeout_s
    for _ in range(int(timeout_s / POLL_INTERVAL_S) + 1):
        if condition():
            return
        if time.monotonic() > deadline:
            break
        await asyncio.sleep(POLL_INTERVAL_S)
    raise AssertionError(f"timed out waiting until {what}")


@dataclass
class Holder:
    session: SessionInfo
    run_id: str


@asynccontextmanager
async def slot_taken(client: AuthenticatedClient) -> AsyncIterator[Holder]:
    """A run that sleeps 60 s holds a run slot for the block (the only one on ``queue_host``).

    Yields the holder's session and run id (cancel it to free the slot early);
    afterwards its session is deleted, which aborts the run at once.
    """
    create = await create_session.asyncio_detailed(client=client, body=create_request())
    assert create.status_code == 201 and create.parsed is not None, create.content
    session = create.parsed.session
    holding = asyncio.create_task(run.asyncio_detailed(client=client, body=run_request("!sleep 60000\nHold", session)))
    try:
        # running means admitted, and the admitted run's task took the free slot before any later request
        await wait_for_status(client, session.id, "running")
        probe = await run.asyncio_detailed(client=client, body=run_request("Probe", session))
        assert probe.status_code == 409, probe.content
        yield Holder(session, body_of(probe)["activeRunId"])
    finally:
        deleted = await delete_session.asyncio_detailed(session.id, client=client)
        assert deleted.status_code == 204, deleted.content
        aborted = await settle(holding)
        assert aborted.status_code == 409 and body_of(aborted)["code"] == "RUN_CANCELLED", aborted.content


# -- assertions ----------------------------------------------------------------------


def body_of(response: Any) -> dict[str, Any]:
    """The decoded JSON body of a generated-client or httpx response."""
    decoded: dict[str, Any] = json.loads(response.content)
    return decoded


def assert_problem(response: Any, status: int, code: str, **fields: Any) -> dict[str, Any]:
    """An RFC 9457 problem with this status and code (and these code-specific members); returns its body."""
    assert int(response.status_code) == status, (int(response.status_code), response.content[:600])
    media_type = response.headers.get("content-type", "").split(";", 1)[0].strip()
    assert media_type == "application/problem+json", media_type
    body = body_of(response)
    assert body["type"] == f"urn:agentic-driver:problem:{code}"
    assert body["code"] == code
    assert body["status"] == status
    assert isinstance(body["title"], str) and body["title"]
    assert isinstance(body["detail"], str) and body["detail"]
    for name, expected in fields.items():
        assert body.get(name) == expected, (name, body)
    if hasattr(response, "parsed"):  # the generated client parsed it into its per-status problem model
        assert response.parsed is not None
        assert response.parsed.code.value == code
    return body


def visible_bytes(role: str, content: str) -> int:
    """How many bytes one visible message counts against maxRecordBytes (compact JSON, UTF-8)."""
    return len(json.dumps({"role": role, "content": content}, separators=(",", ":"), ensure_ascii=False).encode())


# -- streams, functions and approvals ---------------------------------------------------


def function_tool(name: str, parameters: dict[str, Any] | None = None) -> ToolDefinition:
    """An application-owned function declared on a run."""
    schema = parameters if parameters is not None else {"type": "object", "properties": {"city": {"type": "string"}}}
    return ToolDefinition(
        name=name, description=f"The application's {name}.", parameters=ToolDefinitionParameters.from_dict(schema)
    )


def function_results(*answers: tuple[str, str]) -> SubmitRunActionsRequest:
    """``functionResults`` from (callId, output) pairs."""
    return SubmitRunActionsRequest(function_results=[FunctionResult(call_id=c, output=o) for c, o in answers])


def approvals(*decisions: tuple[str, bool, str | None]) -> SubmitRunActionsRequest:
    """``approvals`` from (callId, approve, reason or None) triples."""
    return SubmitRunActionsRequest(
        approvals=[
            ApprovalDecision(call_id=call_id, approve=approve, reason=UNSET if reason is None else reason)
            for call_id, approve, reason in decisions
        ]
    )


def submit_ok(
    client: AuthenticatedClient, run_id: str, body: SubmitRunActionsRequest, idempotency_key: str | None = None
) -> RunResult:
    response = submit_run_actions.sync_detailed(
        run_id, client=client, body=body, idempotency_key=UNSET if idempotency_key is None else idempotency_key
    )
    assert response.status_code == 200, response.content
    assert isinstance(response.parsed, RunResult)
    return response.parsed


async def asubmit_ok(client: AuthenticatedClient, run_id: str, body: SubmitRunActionsRequest) -> RunResult:
    response = await submit_run_actions.asyncio_detailed(run_id, client=client, body=body)
    assert response.status_code == 200, response.content
    assert isinstance(response.parsed, RunResult)
    return response.parsed


async def acollect(events: Any, limit: int = 1_000) -> list[Any]:
    """Every event of an ``astream_*`` iterator, bounded in count."""
    collected = []
    async for event in events:
        collected.append(event)
        assert len(collected) <= limit, "the stream does not end"
    return collected


def kinds(events: list[Any]) -> list[str]:
    """The ``type`` of each typed event."""
    return [event.type_ if hasattr(event, "type_") else f"unknown:{event.type}" for event in events]


@dataclass
class SseMessage:
    """One SSE message as sent on the wire (raw httpx), or a comment line when ``comment`` is set."""

    id: str | None = None
    event: str | None = None
    data: str | None = None
    comment: str | None = None

    def json(self) -> dict[str, Any]:
        assert self.data is not None
        decoded: dict[str, Any] = json.loads(self.data)
        return decoded


def read_sse(lines: Iterator[str]) -> list[SseMessage]:
    """SSE lines -> messages and comments, in arrival order (a strict reader: unknown fields fail)."""
    messages_: list[SseMessage] = []
    current = SseMessage()
    for line in lines:
        if line == "":
            if current != SseMessage():
                messages_.append(current)
            current = SseMessage()
        elif line.startswith(":"):
            messages_.append(SseMessage(comment=line))
        else:
            field_name, _, value = line.partition(": ")
            assert field_name in ("id", "event", "data"), line
            assert getattr(current, field_name) is None, f"repeated {field_name} in one message: {line!r}"
            setattr(current, field_name, value)
    assert current == SseMessage(), "the stream ended inside a message"
    return messages_
