"""Resuming a stream (``clients/BEHAVIOUR.md``), drops: a ``continue`` run's stream dropped before its
last event rejoins its run after the last event it delivered, each event once; a run without
``continue`` is never resumed; a drop before ``run.started`` sends the same request again with the
same key; a read timeout before the head is not a drop.

Mock hosts answer each request from a script, so every drop (a reset, a clean end before the last
event, a stream-idle timeout, a body cut inside a chunk) lands at a known event.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

import agentic_driver_sdk as sdk

from .conftest import d, mock_client
from .resume_support import (
    ALL,
    CONTINUE,
    ECHO,
    EVENTS_PATH,
    RUN,
    SESSION,
    TEXT,
    Script,
    delivered,
    events,
    iterate,
    message,
    read,
)

# -- when: a drop before the last event is resumed, each event once -----------------------------------------------


@pytest.mark.parametrize("end", ["reset", "idle", "cut", None])
async def test_a_continue_stream_dropped_mid_way_rejoins_after_the_last_event_it_delivered(
    kind: str, no_sleep: list[float], end: str | None
) -> None:
    """A reset, a stream-idle timeout, a body cut short, or the body simply ending: the same rejoin."""
    script = Script(events(range(1, 5), end), events(range(3, 9)))  # the rejoin starts earlier: 3 and 4 are skipped
    client = mock_client(kind, script)
    stream = client.runs.stream(**CONTINUE)
    found = await read(kind, stream)
    final = await d(stream.final_run())
    await d(client.close())

    assert delivered(found) == ALL
    assert final.output.text == TEXT and stream.last_event_id == 8
    assert script.sent() == [("POST", "/v1/runs/stream", None, None), ("GET", EVENTS_PATH, "4", "beta")]
    rejoin = script.requests[1]
    assert rejoin.headers["accept"] == "text/event-stream" and "idempotency-key" not in rejoin.headers
    assert no_sleep == []  # the first rejoin after a drop is not a retry: at once


@pytest.mark.parametrize("on_disconnect", [None, "cancel"])
async def test_a_run_without_continue_is_never_resumed(kind: str, no_sleep: list[float], on_disconnect: str) -> None:
    script = Script(events(range(1, 5), "reset"))
    client = mock_client(kind, script)
    arguments = {**ECHO, "input": "Hello"} | ({"on_disconnect": on_disconnect} if on_disconnect else {})
    found: list[Any] = []
    with pytest.raises(sdk.APIConnectionError) as caught:
        async for each in iterate(kind, client.runs.stream(**arguments)):
            found.append(each)
    await d(client.close())
    assert isinstance(caught.value.__cause__, httpx.ReadError)
    assert len(found) == 4 and len(script.requests) == 1 and no_sleep == []


async def test_a_run_without_continue_that_ends_early_is_not_resumed_and_is_a_connection_error(kind: str) -> None:
    """A truncated answer is never a quiet end (the body ended cleanly, but before the run's last event)."""
    script = Script(events(range(1, 5)))
    client = mock_client(kind, script)
    stream = client.runs.stream(**ECHO, input="Hello")
    found: list[Any] = []
    with pytest.raises(sdk.APIConnectionError, match="ended before the run's last event") as caught:
        async for each in iterate(kind, stream):
            found.append(each)
    with pytest.raises(sdk.APIConnectionError) as again:
        await d(stream.final_run())
    await d(client.close())
    assert len(found) == 4 and len(script.requests) == 1 and again.value is caught.value


async def test_a_stream_whose_last_event_is_of_an_unknown_type_may_end_there(kind: str) -> None:
    """It may be a newer event that ends a run: the stream ends quietly (``final_run`` still says it has none)."""
    newer = {"type": "run.paused_for_a_newer_reason", "runId": RUN}
    body = b"".join([message(1), message(2), message(3, newer)])
    answer = httpx.Response(200, headers={"content-type": "text/event-stream"}, content=body)
    client = mock_client(kind, Script(answer))
    stream = client.runs.stream(**ECHO, input="Hello")
    found = await read(kind, stream)
    await d(client.close())
    assert isinstance(found[-1], sdk.UnknownEvent) and found[-1].type == "run.paused_for_a_newer_reason"
    with pytest.raises(sdk.APIConnectionError):
        await d(stream.final_run())


async def test_a_session_continue_run_sends_on_disconnect_and_rejoins_with_the_runs_host(
    kind: str, no_sleep: list[float]
) -> None:
    script = Script(events(range(1, 3), "reset"), events(range(3, 9), keep_alive=True))
    client = mock_client(kind, script)
    stream = client.runs.stream(**CONTINUE, session=SESSION)
    assert delivered(await read(kind, stream)) == ALL
    await d(client.close())
    assert json.loads(script.requests[0].content) == {**ECHO, "input": "Hello", "session": SESSION,
                                                      "onDisconnect": "continue"}  # fmt: skip
    assert script.sent()[1] == ("GET", EVENTS_PATH, "2", "beta")


# -- before the first event: the same request again, with the same key ------------------------------------------


@pytest.mark.parametrize("end", ["reset", None])
async def test_a_drop_before_run_started_sends_the_stream_again_with_the_same_key(
    kind: str, no_sleep: list[float], end: str | None
) -> None:
    """The host joins the run the first attempt started, from event 1; nothing is delivered twice."""
    script = Script(events([], end), events(range(1, 9)))
    client = mock_client(kind, script)
    assert delivered(await read(kind, client.runs.stream(**CONTINUE, idempotency_key="key-1"))) == ALL
    await d(client.close())
    first, again = script.requests
    assert [r.url.path for r in script.requests] == ["/v1/runs/stream", "/v1/runs/stream"]
    assert first.headers["idempotency-key"] == again.headers["idempotency-key"] == "key-1"
    assert first.content == again.content and "last-event-id" not in again.headers
    assert no_sleep == []


@pytest.mark.parametrize("arguments", [CONTINUE, {**ECHO, "input": "Hello"}])
async def test_a_read_timeout_before_the_head_is_not_a_drop_and_not_retried(
    kind: str, no_sleep: list[float], arguments: dict[str, Any]
) -> None:
    """No stream was opened, so nothing is resumed; the retry table's POST read-timeout row applies to both."""
    script = Script(httpx.ReadTimeout("no head (test)"))
    client = mock_client(kind, script)
    with pytest.raises(sdk.APITimeoutError):
        await read(kind, client.runs.stream(**arguments))
    await d(client.close())
    assert len(script.requests) == 1
