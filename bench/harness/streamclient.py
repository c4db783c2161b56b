"""A streaming SSE client for the buffering section: one keep-alive HTTP/1.1 connection whose answers are
read event by event while they arrive.

``StreamConnection.send`` writes a request and returns its ``Answer`` at once; the answer's
``events`` fill in as complete SSE blocks arrive (heartbeat comments are skipped), each stamped with
``perf_counter_ns``, so time to first event is measured from writing the request, as ``stream.c1``'s is.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field

import httptools

from .httpclient import Request, encode_request

# -- a streaming SSE client ------------------------------------------------------------------------


@dataclass(slots=True)
class Event:
    id: int | None
    type: str
    data: bytes
    at_ns: int
    """``perf_counter_ns`` when the block that completed it arrived."""


@dataclass(slots=True)
class Answer:
    """One response, readable while it arrives: its events as they complete, then its end."""

    sent_ns: int
    done: asyncio.Future[None]
    status: int = 0
    body: bytearray = field(default_factory=bytearray)
    events: list[Event] = field(default_factory=list)
    ended_ns: int = 0
    _pending: bytes = b""
    _changed: asyncio.Future[None] | None = None

    def feed(self, chunk: bytes) -> None:
        now = time.perf_counter_ns()
        self.body += chunk
        self._pending += chunk
        while (end := self._pending.find(b"\n\n")) >= 0:
            block, self._pending = self._pending[:end], self._pending[end + 2 :]
            event_id, kind, data = None, "message", b""
            for line in block.split(b"\n"):
                name, _, value = line.partition(b": ")
                if name == b"id":
                    event_id = int(value)
                elif name == b"event":
                    kind = value.decode()
                elif name == b"data":
                    data = value
            if data or event_id is not None:  # not a comment (heartbeat)
                self.events.append(Event(event_id, kind, data, now))
        self._wake()

    def finish(self) -> None:
        self.ended_ns = time.perf_counter_ns()
        if not self.done.done():
            self.done.set_result(None)
        self._wake()

    def fail(self, error: BaseException) -> None:
        if not self.done.done():
            self.done.set_exception(error)
        self._wake()

    def _wake(self) -> None:
        if self._changed is not None and not self._changed.done():
            self._changed.set_result(None)
        self._changed = None

    @property
    def last_id(self) -> int:
        return next((e.id for e in reversed(self.events) if e.id is not None), 0)

    async def until(self, event_id: int) -> None:
        """Wait until the event with this id (or a later one) arrived; raise if the response ends first."""
        while self.last_id < event_id:
            if self.done.done():
                self.done.result()  # raises a connection error
                raise AssertionError(f"the response ended at event {self.last_id}, before {event_id}: {self.text()}")
            self._changed = asyncio.get_running_loop().create_future()
            await asyncio.wait((self._changed, self.done), return_when="FIRST_COMPLETED")

    async def end(self) -> None:
        await self.done

    def text(self) -> str:
        return bytes(self.body[:300]).decode("utf-8", "replace")

    def first_event_ms(self) -> float:
        return (self.events[0].at_ns - self.sent_ns) / 1e6

    def total_ms(self) -> float:
        return (self.ended_ns - self.sent_ns) / 1e6


class _Protocol(asyncio.Protocol):
    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self.parser = httptools.HttpResponseParser(self)
        self.answer: Answer | None = None
        self.lost: BaseException | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def data_received(self, data: bytes) -> None:
        try:
            self.parser.feed_data(data)
        except httptools.HttpParserError as error:
            if self.answer is not None:
                self.answer.fail(ConnectionError(f"bad HTTP response: {error}"))

    def connection_lost(self, exc: Exception | None) -> None:
        self.lost = exc or ConnectionError("connection closed by the server")
        if self.answer is not None:
            self.answer.fail(self.lost)

    def on_headers_complete(self) -> None:
        if self.answer is not None:
            self.answer.status = self.parser.get_status_code()

    def on_body(self, body: bytes) -> None:
        if self.answer is not None:
            self.answer.feed(body)

    def on_message_complete(self) -> None:
        if self.answer is not None:
            self.answer.finish()


class StreamConnection:
    """One keep-alive HTTP/1.1 connection whose answers can be read event by event while they arrive."""

    def __init__(self, protocol: _Protocol, host: str, headers: dict[str, str]) -> None:
        self._protocol, self._host, self._headers = protocol, host, headers

    @classmethod
    async def open(cls, host: str, port: int, headers: dict[str, str]) -> StreamConnection:
        _, protocol = await asyncio.get_running_loop().create_connection(_Protocol, host, port)
        return cls(protocol, f"{host}:{port}", headers)

    def send(self, request: Request, headers: dict[str, str] | None = None) -> Answer:
        """Write the request now; the answer fills in as it arrives (one request at a time per connection)."""
        protocol = self._protocol
        if protocol.lost is not None or protocol.transport is None:
            raise ConnectionError("connection is closed")
        if protocol.answer is not None and not protocol.answer.done.done():
            raise RuntimeError("the previous answer on this connection has not ended")
        raw = encode_request(request, self._host, self._headers | (headers or {}))
        answer = Answer(time.perf_counter_ns(), asyncio.get_running_loop().create_future())
        protocol.answer = answer
        protocol.transport.write(raw)
        return answer

    async def fetch(self, request: Request, headers: dict[str, str] | None = None, expect: int = 200) -> Answer:
        answer = self.send(request, headers)
        async with asyncio.timeout(30):  # a host that stops answering fails the section, not hangs it
            await answer.end()
        if answer.status != expect:
            raise AssertionError(f"{request.method} {request.path}: {answer.status} {answer.text()}")
        return answer

    async def close(self) -> None:
        if self._protocol.transport is not None:
            self._protocol.transport.close()
