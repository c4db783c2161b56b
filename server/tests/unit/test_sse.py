"""Server-Sent Events: event encoding, heartbeats during silence, and disconnect detection.

``EventStreamResponse`` is driven as a bare ASGI app with a fake ``receive``
(an asyncio.Queue the test feeds ``http.disconnect`` into) and a ``send`` that
records messages; waits are on asyncio events signalled from ``send``.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import orjson
from pydantic import BaseModel

from agentic_driver import Driver, EchoProvider, ManualClock, SessionsConfig
from agentic_driver.http.sse import HEARTBEAT, EventStreamResponse, encode_event
from agentic_driver.models import (
    CreateSessionRequest,
    OutputDeltaEvent,
    RunRequest,
    RunStartedEvent,
    SessionHandle,
)

SCOPE: dict[str, Any] = {"type": "http", "method": "POST", "path": "/v1/runs/stream", "headers": []}


class Wire:
    """The fake connection: what the response sent, and a receive channel the test controls."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []
        self.incoming: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.changed = asyncio.Event()

    async def receive(self) -> dict[str, Any]:
        return await self.incoming.get()

    async def send(self, message: dict[str, Any]) -> None:
        self.sent.append(message)
        self.changed.set()

    def disconnect(self) -> None:
        self.incoming.put_nowait({"type": "http.disconnect"})

    @property
    def bodies(self) -> list[bytes]:
        return [m["body"] for m in self.sent if m["type"] == "http.response.body"]

    @property
    def events(self) -> list[bytes]:
        return [b for b in self.bodies if b.startswith(b"id: ")]

    async def wait_for(self, predicate: Any, within_s: float = 5.0) -> None:
        async with asyncio.timeout(within_s):
            while not predicate(self):
                self.changed.clear()
                await self.changed.wait()


class Numbered:
    """An async generator's events numbered from 1, as the driver's run readers number a run's events."""

    def __init__(self, events: AsyncIterator[BaseModel]) -> None:
        self._events = events
        self.event_id = 0

    def __aiter__(self) -> Numbered:
        return self

    async def __anext__(self) -> BaseModel:
        event = await anext(self._events)
        self.event_id += 1
        return event

    async def aclose(self) -> None:
        await self._events.aclose()  # type: ignore[attr-defined]


def delta(text: str) -> OutputDeltaEvent:
    return OutputDeltaEvent(type="output.delta", runId="run_1", text=text)


def parse(body: bytes) -> tuple[str, str, dict[str, Any]]:
    lines = body.decode().removesuffix("\n\n").split("\n")
    fields = dict(line.split(": ", 1) for line in lines)
    return fields["id"], fields["event"], orjson.loads(fields["data"])


# -- encoding ----------------------------------------------------------------------------


def test_an_event_is_encoded_with_its_sequence_id_its_type_and_its_json() -> None:
    body = encode_event(7, delta("hi\nthere"))

    assert body == b'id: 7\nevent: output.delta\ndata: {"type":"output.delta","runId":"run_1","text":"hi\\nthere"}\n\n'
    assert body.count(b"\n\n") == 1  # a newline in the text never ends the SSE message early


def test_unset_optional_members_are_left_out_of_the_data() -> None:
    _, kind, data = parse(encode_event(1, RunStartedEvent(type="run.started", runId="run_1")))

    assert kind == "run.started"
    assert data == {"type": "run.started", "runId": "run_1"}


def test_a_model_without_a_type_is_sent_as_a_plain_message() -> None:
    class Note(BaseModel):
        text: str

    assert encode_event(1, Note(text="x")) == b'id: 1\nevent: message\ndata: {"text":"x"}\n\n'


# -- the response ---------------------------------------------------------------------------


async def test_every_event_is_sent_in_order_with_rising_ids_and_the_body_then_ends() -> None:
    async def events() -> AsyncIterator[BaseModel]:
        yield delta("a")
        yield delta("b")

    wire = Wire()

    await asyncio.wait_for(EventStreamResponse(Numbered(events()), 60)(SCOPE, wire.receive, wire.send), 5)

    start = wire.sent[0]
    assert start["type"] == "http.response.start"
    assert start["status"] == 200
    assert dict(start["headers"]) == {
        b"content-type": b"text/event-stream; charset=utf-8",
        b"cache-control": b"no-cache",
        b"x-accel-buffering": b"no",
    }
    assert [parse(b)[:2] for b in wire.events] == [("1", "output.delta"), ("2", "output.delta")]
    assert [parse(b)[2]["text"] for b in wire.events] == ["a", "b"]
    assert wire.sent[-1] == {"type": "http.response.body", "body": b"", "more_body": False}
    assert all(m.get("more_body") is True for m in wire.sent[1:-1])


async def test_a_heartbeat_comment_is_sent_during_a_silence_and_ids_continue_after_it() -> None:
    gate = asyncio.Event()

    async def events() -> AsyncIterator[BaseModel]:
        yield delta("before")
        await gate.wait()  # silent until the test has seen a heartbeat
        yield delta("after")

    wire = Wire()
    responding = asyncio.create_task(EventStreamResponse(Numbered(events()), 0.01)(SCOPE, wire.receive, wire.send))

    await wire.wait_for(lambda w: HEARTBEAT in w.bodies)
    gate.set()
    await asyncio.wait_for(responding, 5)

    bodies = wire.bodies
    assert HEARTBEAT == b": keep-alive\n\n"  # an SSE comment: clients ignore it
    first, second = bodies.index(wire.events[0]), bodies.index(wire.events[1])
    assert HEARTBEAT in bodies[first + 1 : second]
    assert set(bodies[first + 1 : second]) == {HEARTBEAT}
    assert [parse(b)[0] for b in wire.events] == ["1", "2"]
    assert bodies[-1] == b""


async def test_a_disconnect_during_a_silence_closes_the_event_iterator_and_sends_no_end() -> None:
    closed = asyncio.Event()
    never = asyncio.Event()

    async def events() -> AsyncIterator[BaseModel]:
        try:
            yield delta("only")
            await never.wait()
            yield delta("unreachable")
        finally:
            closed.set()

    iterator = events()
    wire = Wire()
    responding = asyncio.create_task(EventStreamResponse(Numbered(iterator), 60)(SCOPE, wire.receive, wire.send))
    await wire.wait_for(lambda w: len(w.events) == 1)

    wire.disconnect()
    await asyncio.wait_for(responding, 5)

    assert closed.is_set()  # the iterator's finally ran: this is how the driver learns of a disconnect
    assert [parse(b)[2]["text"] for b in wire.events] == ["only"]
    assert not any(m.get("more_body") is False for m in wire.sent)
    assert iterator.ag_frame is None  # the generator is finished, not merely suspended


async def test_a_disconnect_before_the_first_event_closes_the_iterator_too() -> None:
    closed = asyncio.Event()
    never = asyncio.Event()

    async def events() -> AsyncIterator[BaseModel]:
        try:
            await never.wait()
            yield delta("unreachable")
        finally:
            closed.set()

    wire = Wire()
    wire.incoming.put_nowait({"type": "http.request", "body": b"", "more_body": False})  # not a disconnect
    responding = asyncio.create_task(EventStreamResponse(Numbered(events()), 60)(SCOPE, wire.receive, wire.send))
    await wire.wait_for(lambda w: len(w.sent) == 1)  # the response has started
    await asyncio.sleep(0)
    assert not responding.done()

    wire.disconnect()
    await asyncio.wait_for(responding, 5)

    assert closed.is_set()
    assert wire.events == []


async def test_an_iterator_without_aclose_is_relayed_as_well() -> None:
    class Two:
        def __init__(self) -> None:
            self.left = [delta("x"), delta("y")]
            self.event_id = 0

        def __aiter__(self) -> Two:
            return self

        async def __anext__(self) -> BaseModel:
            if not self.left:
                raise StopAsyncIteration
            self.event_id += 1
            return self.left.pop(0)

    wire = Wire()

    await asyncio.wait_for(EventStreamResponse(Two(), 60)(SCOPE, wire.receive, wire.send), 5)

    assert [parse(b)[2]["text"] for b in wire.events] == ["x", "y"]


# -- with the driver ------------------------------------------------------------------------


async def test_a_client_that_disconnects_from_a_streamed_session_run_leaves_it_interrupted() -> None:
    driver = Driver(
        [EchoProvider(id="echo", models=("echo-1",), account_id="acct-1")],
        sessions=SessionsConfig(retentionMs=60_000),
        clock=ManualClock(),
    )
    session = (
        await driver.create_session(CreateSessionRequest(provider="echo", model="echo-1", mode="history"))
    ).session
    record = driver.store.get(session.id)
    events = await driver.stream_run(
        RunRequest(
            provider="echo",
            model="echo-1",
            input="!sleep 10000\nslow",
            session=SessionHandle(id=session.id, revision=0),
        )
    )
    run = record.active_run
    wire = Wire()
    responding = asyncio.create_task(EventStreamResponse(events, 60)(SCOPE, wire.receive, wire.send))
    await wire.wait_for(lambda w: len(w.events) == 1)
    assert parse(wire.events[0])[1] == "run.started"
    for _ in range(100):  # bounded: the turn task starts its provider call within a few loop turns
        if run.model_work_started:
            break
        await asyncio.sleep(0)
    assert run.model_work_started

    wire.disconnect()
    await asyncio.wait_for(responding, 5)
    await run.settled()

    read = await driver.read_session(session.id)
    assert read.session.status == "interrupted"
    assert read.interruptedTurn.reason == "disconnected"
