"""Resuming a stream (``clients/BEHAVIOUR.md``): a ``continue`` run's stream rejoins its run after a drop.

Mock hosts answer each request from a script, so every drop (a reset, a clean end
before the last event, a stream-idle timeout, a body cut inside a chunk) lands at a
known event; a live host proves the rejoin end to end (one turn, every event once),
and ``runs.retrieve`` / ``runs.events`` against it. The shared client scenarios
(``resume-*``) play the same rules behind the fault proxy.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import httpx
import pytest

import agentic_driver_sdk as sdk
from agentic_driver_client.models import OutputDeltaEvent, RunCompletedEvent, RunStartedEvent, RunState

from .conftest import Host, config, d, driver_for, mock_client, problem

ECHO = {"provider": "echo", "model": "echo-1"}
RUN = "run_beta.AAECAwQFBgcICQoLDA0ODw"
SESSION = {"id": "ses_beta.k3Jx9_Qw-Zp0aBcDeFgHiJ", "revision": 0}
CONTINUE = {**ECHO, "input": "Hello", "on_disconnect": "continue"}
WORDS = ["echo: ", "Hel", "lo", " the", "re", "!"]
TEXT = "".join(WORDS)


def result(status: str = "completed") -> dict[str, Any]:
    return {
        "id": RUN,
        "status": status,
        "output": {"text": TEXT},
        "usage": {"inputTokens": 1, "outputTokens": 6, "cachedInputTokens": 0, "cacheWriteTokens": 0,
                  "reasoningTokens": 0},
        "cost": None,
        "retries": {"count": 0, "inputTokens": 0, "outputTokens": 0, "cost": None},
        "servedModel": "echo-1",
    }  # fmt: skip


def event(event_id: int) -> dict[str, Any]:
    """The run's events: 1 run.started, 2..7 output.delta, 8 run.completed."""
    if event_id == 1:
        return {"type": "run.started", "runId": RUN}
    if event_id <= 7:
        return {"type": "output.delta", "runId": RUN, "text": WORDS[event_id - 2]}
    return {"type": "run.completed", "run": result()}


def message(event_id: int, data: dict[str, Any] | None = None) -> bytes:
    data = data or event(event_id)
    return f"id: {event_id}\nevent: {data['type']}\ndata: {json.dumps(data)}\n\n".encode()


class Body(httpx.SyncByteStream, httpx.AsyncByteStream):
    """An event stream's body: these chunks, then ``end`` raised (None: the body ends cleanly)."""

    def __init__(self, chunks: list[bytes], end: Exception | None) -> None:
        self.chunks = chunks
        self.end = end

    def __iter__(self) -> Iterator[bytes]:
        yield from self.chunks
        if self.end is not None:
            raise self.end

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for chunk in self.chunks:
            yield chunk
        if self.end is not None:
            raise self.end


def events(ids: range | list[int], end: str | Exception | None = None, *, keep_alive: bool = False) -> httpx.Response:
    """A ``200`` event stream of these event ids; ``end`` says how it stops: None (cleanly), ``"reset"`` (a
    connection reset), ``"idle"`` (a stream-idle timeout), ``"cut"`` (a chunked body cut short), or an error."""
    endings: dict[str, Exception] = {
        "reset": httpx.ReadError("connection reset (test)"),
        "idle": httpx.ReadTimeout("stream idle (test)"),
        "cut": httpx.RemoteProtocolError("peer closed connection without sending complete message body (test)"),
    }
    error = endings[end] if isinstance(end, str) else end
    chunks = [message(i) for i in ids]
    if keep_alive:
        chunks.insert(0, b": keep-alive\n\n")
    return httpx.Response(200, headers={"content-type": "text/event-stream"}, stream=Body(chunks, error))


Answer = httpx.Response | Exception | Callable[[httpx.Request], httpx.Response]


class Script:
    """A mock host: the n-th request gets the n-th answer (a response, or a transport error raised)."""

    def __init__(self, *answers: Answer) -> None:
        self.answers = list(answers)
        self.requests: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        assert self.answers, f"an unexpected request: {request.method} {request.url.path}"
        answer = self.answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer(request) if callable(answer) else answer

    def sent(self) -> list[tuple[str, str, str | None, str | None]]:
        """Each request as (method, path, Last-Event-ID, Agentic-Host)."""
        return [
            (r.method, r.url.path, r.headers.get("last-event-id"), r.headers.get("agentic-host")) for r in self.requests
        ]


async def read(kind: str, stream: Any) -> list[Any]:
    """Every event of a stream, through the stream's own idiom (a context manager, iterated)."""
    found: list[Any] = []
    if kind == "sync":
        with stream as opened:
            found.extend(opened)
    else:
        async with stream as opened:
            found.extend([e async for e in opened])
    return found


def delivered(found: list[Any]) -> list[str]:
    """The events as their type (and text, for a delta)."""
    return [f"delta {e.text}" if isinstance(e, OutputDeltaEvent) else str(e.type_) for e in found]


ALL = ["run.started", *[f"delta {w}" for w in WORDS], "run.completed"]
EVENTS_PATH = f"/v1/runs/{RUN}/events"


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


async def iterate(kind: str, stream: Any) -> AsyncIterator[Any]:
    if kind == "sync":
        with stream as opened:
            for each in opened:
                yield each
    else:
        async with stream as opened:
            async for each in opened:
                yield each


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


# -- bounded: the retry budget, given back by progress ------------------------------------------------------------


async def test_rejoins_that_fail_are_retried_within_the_budget_then_the_last_failure_is_raised(
    kind: str, no_sleep: list[float]
) -> None:
    """The first rejoin goes at once and is not a retry; its refusals are, two of them (the default budget)."""
    refusals = [httpx.ConnectError(f"connection refused {n} (test)") for n in range(3)]
    script = Script(events(range(1, 3), "reset"), *refusals)
    client = mock_client(kind, script)
    found: list[Any] = []
    with pytest.raises(sdk.APIConnectionError) as caught:
        async for each in iterate(kind, client.runs.stream(**CONTINUE)):
            found.append(each)
    await d(client.close())
    assert str(caught.value.__cause__) == "connection refused 2 (test)"
    assert len(found) == 2 and [m for m, *_ in script.sent()] == ["POST", "GET", "GET", "GET"]
    assert len(no_sleep) == 2 and 0.375 <= no_sleep[0] <= 0.5 and 0.75 <= no_sleep[1] <= 1.0  # retries 0 and 1


async def test_a_rejoin_that_ends_again_without_a_new_event_uses_the_budget(kind: str, no_sleep: list[float]) -> None:
    script = Script(events(range(1, 3), "reset"), events(range(1, 3)), events([2], "reset"), events([]))
    client = mock_client(kind, script)
    with pytest.raises(sdk.APIConnectionError, match="ended before the run's last event"):
        await read(kind, client.runs.stream(**CONTINUE))
    await d(client.close())
    assert [last for _, _, last, _ in script.sent()] == [None, "2", "2", "2"]
    assert len(no_sleep) == 2  # the second and third rejoins are retries 0 and 1; a fourth is not allowed


async def test_a_rejoin_that_delivers_a_new_event_gives_the_budget_back(kind: str, no_sleep: list[float]) -> None:
    """One retry allowed, and it is needed twice: the rejoin between them delivered an event."""
    gateway = [httpx.Response(502, text="bad gateway") for _ in range(2)]
    script = Script(events(range(1, 3), "reset"), gateway[0], events([3], "reset"), gateway[1], events(range(4, 9)))
    client = mock_client(kind, script, max_retries=1)
    stream = client.runs.stream(**CONTINUE)
    assert delivered(await read(kind, stream)) == ALL
    assert (await d(stream.final_run())).output.text == TEXT
    await d(client.close())
    assert [last for _, _, last, _ in script.sent()] == [None, "2", "2", "3", "3"]
    assert len(no_sleep) == 2 and all(0.375 <= wait <= 0.5 for wait in no_sleep)  # retry 0, twice


async def test_every_drop_after_progress_rejoins_at_once(kind: str, no_sleep: list[float]) -> None:
    script = Script(events(range(1, 3), "reset"), *[events([i], "idle") for i in range(3, 8)], events([8]))
    client = mock_client(kind, script, max_retries=0)
    assert delivered(await read(kind, client.runs.stream(**CONTINUE))) == ALL
    await d(client.close())
    assert [last for _, _, last, _ in script.sent()] == [None, "2", "3", "4", "5", "6", "7"] and no_sleep == []


async def test_zero_retries_still_rejoins_once_after_a_drop_and_raises_the_first_rejoin_that_fails(
    kind: str, no_sleep: list[float]
) -> None:
    script = Script(events(range(1, 5), "reset"), events(range(5, 9)))
    client = mock_client(kind, script, max_retries=0)
    assert delivered(await read(kind, client.runs.stream(**CONTINUE))) == ALL

    script = Script(events(range(1, 5), "reset"), httpx.ConnectError("refused (test)"))
    failing = mock_client(kind, script, max_retries=0)
    with pytest.raises(sdk.APIConnectionError) as caught:
        await read(kind, failing.runs.stream(**CONTINUE))
    assert str(caught.value.__cause__) == "refused (test)" and len(script.requests) == 2 and no_sleep == []
    await d(client.close())
    await d(failing.close())


REFUSALS: dict[str, Callable[[], httpx.Response]] = {
    "502 page": lambda: httpx.Response(502, text="<html>bad gateway</html>"),
    "504 page": lambda: httpx.Response(504, text="<html>gateway timeout</html>"),
    "HOST_UNAVAILABLE": lambda: problem(503, "HOST_UNAVAILABLE", {"Retry-After": "1"}, ownerHostId="beta"),
}


@pytest.mark.parametrize("refusal", list(REFUSALS))
async def test_a_proxy_error_or_a_dead_owner_on_the_rejoin_is_retried(
    kind: str, no_sleep: list[float], refusal: str
) -> None:
    script = Script(events(range(1, 5), "reset"), REFUSALS[refusal](), events(range(5, 9)))
    client = mock_client(kind, script)
    assert delivered(await read(kind, client.runs.stream(**CONTINUE))) == ALL
    await d(client.close())
    assert [last for _, _, last, _ in script.sent()] == [None, "4", "4"]
    assert len(no_sleep) == 1 and (no_sleep[0] == 1.0 if refusal == "HOST_UNAVAILABLE" else no_sleep[0] <= 0.5)


async def test_a_421_on_the_rejoin_is_followed_once_at_once_to_the_owner(kind: str, no_sleep: list[float]) -> None:
    misdirected = problem(421, "MISDIRECTED_REQUEST", hostId="beta", ownerHostId="alpha-1")
    script = Script(events(range(1, 5), "reset"), misdirected, events(range(5, 7), "reset"), events(range(7, 9)))
    client = mock_client(kind, script, max_retries=0)  # the hop is not one of the retries
    assert delivered(await read(kind, client.runs.stream(**CONTINUE))) == ALL
    await d(client.close())
    assert [(last, host) for _, _, last, host in script.sent()[1:]] == [("4", "beta"), ("4", "alpha-1"),
                                                                         ("6", "alpha-1")]  # fmt: skip
    assert no_sleep == []  # two drops after progress (rejoined at once) and a hop (which waits for nothing)


# -- refusals ---------------------------------------------------------------------------------------------------


async def test_run_events_expired_on_the_rejoin_is_raised_with_the_first_event_id(
    kind: str, no_sleep: list[float]
) -> None:
    expired = problem(410, "RUN_EVENTS_EXPIRED", firstEventId=40)
    script = Script(events(range(1, 5), "reset"), expired)
    client = mock_client(kind, script)
    stream = client.runs.stream(**CONTINUE)
    with pytest.raises(sdk.RunEventsExpiredError) as caught:
        await read(kind, stream)
    assert caught.value.first_event_id == 40 and caught.value.status_code == 410
    assert stream.last_event_id == 4 and len(script.requests) == 2
    with pytest.raises(sdk.RunEventsExpiredError):
        await d(stream.final_run())  # the stream is over: final_run does not send anything again
    await d(client.close())
    assert len(script.requests) == 2


async def test_run_not_found_on_the_rejoin_is_raised(kind: str, no_sleep: list[float]) -> None:
    script = Script(events(range(1, 5), "reset"), problem(404, "RUN_NOT_FOUND"))
    client = mock_client(kind, script)
    with pytest.raises(sdk.RunNotFoundError):
        await read(kind, client.runs.stream(**CONTINUE))
    await d(client.close())


def test_run_events_expired_without_its_first_event_id_falls_back_to_the_status_class() -> None:
    response = problem(410, "RUN_EVENTS_EXPIRED")
    error = sdk.error_from_response(response, response.content)
    assert type(error) is sdk.APIStatusError and error.code == "RUN_EVENTS_EXPIRED"
    response = problem(410, "RUN_EVENTS_EXPIRED", firstEventId=3)
    found = sdk.error_from_response(response, response.content)
    assert isinstance(found, sdk.RunEventsExpiredError) and found.first_event_id == 3


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


# -- a live host ------------------------------------------------------------------------------------------------------


class Cutting(httpx.HTTPTransport):
    """The network transport; the first answer of ``path`` is cut (a reset) after ``after`` events."""

    def __init__(self, path: str, after: int) -> None:
        super().__init__()
        self.path, self.after = path, after
        self.requests: list[httpx.Request] = []

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        response = super().handle_request(request)
        if request.url.path != self.path or self.after < 0:
            return response
        after, self.after = self.after, -1
        return httpx.Response(response.status_code, headers=response.headers, stream=CutAfter(response, after))


class AsyncCutting(httpx.AsyncHTTPTransport):
    def __init__(self, path: str, after: int) -> None:
        super().__init__()
        self.path, self.after = path, after
        self.requests: list[httpx.Request] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        response = await super().handle_async_request(request)
        if request.url.path != self.path or self.after < 0:
            return response
        after, self.after = self.after, -1
        return httpx.Response(response.status_code, headers=response.headers, stream=CutAfter(response, after))


class CutAfter(httpx.SyncByteStream, httpx.AsyncByteStream):
    """A live body relayed up to the end of its ``after``-th event, then a connection reset."""

    def __init__(self, response: httpx.Response, after: int) -> None:
        self.response, self.after = response, after

    def _cut(self, buffer: bytes) -> bytes | None:
        """The body up to the end of its ``after``-th event, once that much arrived (keep-alives not counted)."""
        at, found = 0, 0
        while (end := buffer.find(b"\n\n", at)) >= 0:
            block, at = buffer[at:end], end + 2
            if block.startswith(b"id: ") or b"\nid: " in block:
                found += 1
                if found == self.after:
                    return buffer[:at]
        return None

    def __iter__(self) -> Iterator[bytes]:
        buffer = b""
        for chunk in self.response.stream:  # type: ignore[union-attr]
            buffer += chunk
            if (head := self._cut(buffer)) is not None:
                self.response.close()
                yield head
                raise httpx.ReadError("connection reset after an event (test)")
        yield buffer

    async def __aiter__(self) -> AsyncIterator[bytes]:
        buffer = b""
        async for chunk in self.response.stream:  # type: ignore[union-attr]
            buffer += chunk
            if (head := self._cut(buffer)) is not None:
                await self.response.aclose()
                yield head
                raise httpx.ReadError("connection reset after an event (test)")
        yield buffer


def cutting(kind: str, path: str, after: int) -> Any:
    return Cutting(path, after) if kind == "sync" else AsyncCutting(path, after)


# An instance no other test makes model calls on: its call counter is this test's alone.
FIXED = {"provider": "echo-history", "model": "echo-2"}
SLOW = "!chunks 6\n!sleep 30\nHello there my friend"


async def test_a_live_continue_stream_cut_after_its_third_event_resumes_with_one_turn(kind: str, host: Host) -> None:
    transport = cutting(kind, "/v1/runs/stream", after=3)
    async with driver_for(kind, host, transport=transport) as driver:
        session = await d(driver.client.sessions.create(**FIXED))
        calls = host.provider_calls("echo-history")
        stream = driver.client.runs.stream(**FIXED, input=SLOW, session=session, on_disconnect="continue")
        found = await driver.collect(stream)
        final = await d(stream.final_run())
        read_back = await d(driver.client.sessions.read(session.id))
        state = await d(driver.client.runs.retrieve(final.id))
        replay = await driver.collect(driver.client.runs.events(final.id, last_event_id=6))
        await d(driver.client.sessions.delete(session.id))

    assert isinstance(found[0], RunStartedEvent) and isinstance(found[-1], RunCompletedEvent)
    assert "".join(e.text for e in found if isinstance(e, OutputDeltaEvent)) == "echo: Hello there my friend"
    assert len(found) == 8 and final.session.revision == 1 and read_back.session.revision == 1
    assert host.provider_calls("echo-history") - calls == 1, "one turn"
    rejoins = [r for r in transport.requests if r.url.path.endswith("/events")]
    assert [r.headers.get("last-event-id") for r in rejoins] == ["3", "6"]  # the stream's rejoin, then the replay
    assert rejoins[0].headers["agentic-host"] == "sdk-main"
    assert (str(state.status), state.last_event_id, str(state.on_disconnect)) == ("completed", 8, "continue")
    assert state.result.output.text == final.output.text
    assert [type(e).__name__ for e in replay] == ["OutputDeltaEvent", "RunCompletedEvent"]


@pytest.fixture(scope="module")
def small_log_host(launch: Callable[[str, dict[str, Any]], Host]) -> Host:
    """A host that buffers 4 KiB of events per run."""
    return launch("smalllog", config("sdk-smalllog", limits={"maxRunEventBytes": 4096}))


async def test_a_live_events_stream_of_a_run_whose_old_events_are_gone_raises_expired(
    kind: str, small_log_host: Host
) -> None:
    async with driver_for(kind, small_log_host) as driver:
        stream = driver.client.runs.stream(**ECHO, input="!chunks 40\n" + "word " * 400, on_disconnect="continue")
        found = await driver.collect(stream)
        run_id = (await d(stream.final_run())).id
        state = await d(driver.client.runs.retrieve(run_id))
        with pytest.raises(sdk.RunEventsExpiredError) as caught:
            await driver.collect(driver.client.runs.events(run_id, last_event_id=1))
    assert len(found) == 42 and state.first_event_id > 2
    assert caught.value.first_event_id == state.first_event_id
