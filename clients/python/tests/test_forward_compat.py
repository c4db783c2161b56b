"""A newer host may add enum values, event types and action types: an older client must not crash.

The answers come from ``httpx.MockTransport``: the reference host only sends what today's contract says.
"""

from __future__ import annotations

import json
from typing import Any

import httpx

import agentic_driver_sdk as sdk
from agentic_driver_client.models import OutputDeltaEvent, RunCompletedEvent, RunFailedEvent
from agentic_driver_sdk._events import parse_event_data

from .conftest import Driver, d, mock_client

SESSION = {
    "id": "ses_1",
    "revision": 3,
    "status": "archived",  # not in today's SessionStatus
    "provider": "echo",
    "model": "echo-1",
    "mode": "summarised",  # not in today's SessionMode
    "createdAt": "2026-01-01T00:00:00.000Z",
    "updatedAt": "2026-01-01T00:00:00.000Z",
    "expiresAt": None,
    "messageCount": 0,
    "recordBytes": 0,
    "hostId": "newer-host",
    "nativeHistory": "keep_everything_twice",  # not in today's NativeHistoryFilter
    "runCount": 3,
    "usage": {"inputTokens": 1, "outputTokens": 1, "cachedInputTokens": 0, "cacheWriteTokens": 0, "reasoningTokens": 0},
    "cost": None,
    "retries": {"count": 0, "inputTokens": 0, "outputTokens": 0, "cost": None},
    "servedModels": ["echo-1"],
    "somethingNew": {"nested": True},  # an unknown member
}
RESULT = {
    "id": "run_1",
    "status": "paused_for_review",  # not in today's RunStatus
    "output": {"text": "hi"},
    "usage": {"inputTokens": 1, "outputTokens": 1, "cachedInputTokens": 0, "cacheWriteTokens": 0, "reasoningTokens": 0},
    "cost": None,
    "retries": {"count": 0, "inputTokens": 0, "outputTokens": 0, "cost": None},
    "servedModel": "echo-1",
    "session": SESSION,
}


def json_answer(body: Any) -> httpx.Response:
    return httpx.Response(200, json=body)


async def test_unknown_enum_values_parse(kind: str) -> None:
    client = mock_client(kind, lambda request: json_answer(RESULT))
    result = await d(client.run(provider="echo", model="echo-1", input="x"))
    await d(client.close())
    assert str(result.status) == "paused_for_review" and result.status == "paused_for_review"
    assert str(result.session.status) == "archived" and str(result.session.mode) == "summarised"
    assert result.session.handle.revision == 3


async def test_an_unknown_required_action_type_keeps_the_result_readable(kind: str) -> None:
    body = {**RESULT, "status": "requires_action", "requiredAction": {"type": "signature", "document": "d"}}
    client = mock_client(kind, lambda request: json_answer(body))
    result = await d(client.run(provider="echo", model="echo-1", input="x"))
    await d(client.close())
    assert result.id == "run_1" and str(result.status) == "requires_action"
    assert result.required_action == {"type": "signature", "document": "d"}


async def test_unknown_event_types_arrive_as_unknown_event(kind: str) -> None:
    completed = {"type": "run.completed", "run": RESULT}
    stream = (
        "".join(
            f"event: {kind_}\nid: {i}\ndata: {json.dumps(data)}\n\n"
            for i, (kind_, data) in enumerate(
                [
                    ("run.started", {"type": "run.started", "runId": "run_1"}),
                    ("reasoning.delta", {"type": "reasoning.delta", "text": "thinking"}),
                    ("output.delta", {"type": "output.delta", "runId": "run_1", "text": "hi"}),
                    ("run.completed", completed),
                ]
            )
        )
        + ": keep-alive\n\n"
    )

    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=stream.encode())

    client = mock_client(kind, answer)
    events = await Driver(kind, client, None).collect(  # type: ignore[arg-type]
        client.runs.stream(provider="echo", model="echo-1", input="x")
    )
    await d(client.close())
    unknown = [e for e in events if isinstance(e, sdk.UnknownEvent)]
    assert [u.type for u in unknown] == ["reasoning.delta"] and unknown[0].data["text"] == "thinking"
    assert isinstance(events[2], OutputDeltaEvent) and isinstance(events[3], RunCompletedEvent)
    assert str(events[3].run.status) == "paused_for_review"


async def test_an_unknown_error_code_keeps_its_code(kind: str) -> None:
    body = {"type": "urn:x", "title": "t", "status": 409, "code": "SESSION_FROZEN", "detail": "frozen", "until": 5}
    client = mock_client(kind, lambda request: httpx.Response(409, json=body), max_retries=0)
    try:
        await d(client.discovery())
    except sdk.ConflictError as error:
        assert error.code == "SESSION_FROZEN" and error.problem["until"] == 5 and error.detail == "frozen"
    else:
        raise AssertionError("expected ConflictError")
    finally:
        await d(client.close())


def test_a_run_failed_event_keeps_a_later_code() -> None:
    # Problem.code is open in the spec: an event may carry a code this client does not know.
    problem = {"type": "urn:x", "title": "t", "status": 503, "code": "PROVIDER_ON_FIRE", "detail": "d"}
    event = parse_event_data("run.failed", {"type": "run.failed", "runId": "run_1", "problem": problem})
    assert isinstance(event, RunFailedEvent)
    assert event.problem.code == "PROVIDER_ON_FIRE" and event.problem.status == 503
