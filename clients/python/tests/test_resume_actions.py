"""Resuming a stream (``clients/BEHAVIOUR.md``): answering actions with ``continue`` (the actions stream
rejoins too, and ``on_disconnect`` is sent), and ``runs.retrieve`` / ``runs.events`` against mock hosts.
"""

from __future__ import annotations

import json

import httpx
import pytest

from agentic_driver_client.models import RunState

from .conftest import d, mock_client
from .resume_support import (
    ALL,
    EVENTS_PATH,
    RUN,
    TEXT,
    Script,
    delivered,
    events,
    read,
    result,
)

# -- answering actions, with continue --------------------------------------------------------------------------------


async def test_a_continue_actions_stream_rejoins_after_its_last_event(kind: str, no_sleep: list[float]) -> None:
    """``streamRunActions`` continues the run's numbering: its events are 5.. here."""
    script = Script(events(range(5, 7), "reset"), events(range(7, 9)))
    client = mock_client(kind, script)
    stream = client.runs.stream_actions(RUN, function_results={"call_1": "42"}, on_disconnect="continue")
    assert delivered(await read(kind, stream)) == ALL[4:]
    await d(client.close())
    assert json.loads(script.requests[0].content) == {
        "functionResults": [{"callId": "call_1", "output": "42"}],
        "onDisconnect": "continue",
    }
    assert script.sent() == [
        ("POST", f"/v1/runs/{RUN}/actions/stream", None, "beta"),
        ("GET", EVENTS_PATH, "6", "beta"),
    ]


async def test_a_continue_actions_stream_dropped_before_its_first_event_is_sent_again(
    kind: str, no_sleep: list[float]
) -> None:
    script = Script(events([], "reset"), events(range(5, 9)))
    client = mock_client(kind, script)
    stream = client.runs.stream_actions(RUN, approvals={"call_1": True}, on_disconnect="continue", idempotency_key="k")
    assert delivered(await read(kind, stream)) == ALL[4:]
    await d(client.close())
    assert [(r.url.path, r.headers["idempotency-key"]) for r in script.requests] == [
        (f"/v1/runs/{RUN}/actions/stream", "k")
    ] * 2


async def test_submit_actions_sends_on_disconnect(kind: str) -> None:
    script = Script(httpx.Response(200, json=result()))
    client = mock_client(kind, script)
    done = await d(client.runs.submit_actions(RUN, function_results={"c": "1"}, on_disconnect="continue"))
    await d(client.close())
    assert done.id == RUN
    assert json.loads(script.requests[0].content)["onDisconnect"] == "continue"


# -- runs.retrieve and runs.events ------------------------------------------------------------------------------------


async def test_retrieve_reads_the_run_state_with_the_runs_host(kind: str) -> None:
    state = {"id": RUN, "status": "completed", "onDisconnect": "continue", "firstEventId": 1, "lastEventId": 8,
             "result": result()}  # fmt: skip
    script = Script(httpx.Response(503, text="proxy"), httpx.Response(200, json=state), httpx.Response(200, json=state))
    client = mock_client(kind, script)
    found = await d(client.runs.retrieve(RUN))
    raw = await d(client.with_raw_response.runs.retrieve(RUN))
    await d(client.close())
    assert isinstance(found, RunState) and found.to_dict() == state and raw.parse().last_event_id == 8
    assert str(found.status) == "completed" and found.result.output.text == TEXT
    assert script.sent() == [("GET", f"/v1/runs/{RUN}", None, "beta")] * 3  # a proxy's 503 retried, then raw


async def test_events_replays_after_last_event_id_and_resumes_itself(kind: str, no_sleep: list[float]) -> None:
    script = Script(events(range(4, 6), "idle"), events(range(6, 9)))
    client = mock_client(kind, script)
    stream = client.runs.events(RUN, last_event_id=3)
    assert delivered(await read(kind, stream)) == ALL[3:]
    final = await d(stream.final_run())
    await d(client.close())
    assert final.id == RUN and stream.last_event_id == 8
    assert script.sent() == [("GET", EVENTS_PATH, "3", "beta"), ("GET", EVENTS_PATH, "5", "beta")]


async def test_events_without_last_event_id_starts_at_the_first(kind: str, no_sleep: list[float]) -> None:
    script = Script(events([], "reset"), events(range(1, 9)))
    client = mock_client(kind, script)
    assert delivered(await read(kind, client.runs.events(RUN))) == ALL
    await d(client.close())
    assert script.sent() == [("GET", EVENTS_PATH, None, "beta")] * 2


@pytest.mark.parametrize("bad", [0, -1, True])
def test_events_takes_a_positive_event_id(bad: int) -> None:
    client = mock_client("sync", Script())
    with pytest.raises(ValueError, match="positive"):
        client.runs.events(RUN, last_event_id=bad)
    client.close()
