"""Two HTTP/1.1 clients with one interface: a lean raw client, and httpx.

The load generator must not be the bottleneck. ``RawConnection`` keeps one
keep-alive connection per worker, writes pre-encoded requests and parses
responses with httptools (llhttp, the parser uvicorn itself uses), so a request
costs the client a few microseconds. ``HttpxConnection`` does the same job through
``httpx.AsyncClient``; the client probe runs both against the floor to show
which side saturates first (see bench/README.md).

Each ``request`` returns ``Response(status, body, first_event_ns)`` where
``first_event_ns`` is the ``perf_counter_ns`` at which the first complete
Server-Sent Event (a block ending in a blank line) arrived, for streamed
responses, and 0 otherwise.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from typing import Protocol

import httptools

__all__ = [
    "Connection",
    "HttpxConnection",
    "RawConnection",
    "Request",
    "Response",
    "connect",
    "encode_request",
]


@dataclass(frozen=True, slots=True)
class Request:
    method: str
    path: str
    body: bytes = b""
    stream: bool = False
    """A streamed (text/event-stream) response: record when its first event arrives."""


@dataclass(frozen=True, slots=True)
class Response:
    status: int
    body: bytes
    first_event_ns: int = 0


def encode_request(request: Request, host: str, headers: dict[str, str]) -> bytes:
    """The exact bytes of an HTTP/1.1 keep-alive request."""
    lines = [f"{request.method} {request.path} HTTP/1.1", f"Host: {host}"]
    lines += [f"{name}: {value}" for name, value in headers.items()]
    if request.body or request.method in ("POST", "PUT", "PATCH"):
        lines += ["Content-Type: application/json", f"Content-Length: {len(request.body)}"]
    if request.stream:
        lines.append("Accept: text/event-stream")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + request.body


class Connection(Protocol):
    async def request(self, request: Request) -> Response: ...

    async def close(self) -> None: ...


_SSE_BOUNDARIES = (b"\n\n", b"\r\n\r\n")


class _ResponseProtocol(asyncio.Protocol):
    """One keep-alive connection; llhttp parses, callbacks fill the current response."""

    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self.parser = httptools.HttpResponseParser(self)
        self.waiter: asyncio.Future[Response] | None = None
        self.chunks: list[bytes] = []
        self.stream = False
        self.first_event_ns = 0
        self.lost: BaseException | None = None

    # -- asyncio ---------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]  # uvloop's transports are not asyncio.Transport subclasses

    def data_received(self, data: bytes) -> None:
        try:
            self.parser.feed_data(data)
        except httptools.HttpParserError as error:
            self._fail(ConnectionError(f"bad HTTP response: {error}"))

    def connection_lost(self, exc: Exception | None) -> None:
        self.lost = exc or ConnectionError("connection closed by the server")
        self._fail(self.lost)

    def _fail(self, error: BaseException) -> None:
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_exception(error)

    # -- llhttp callbacks ------------------------------------------------------

    def on_body(self, body: bytes) -> None:
        if self.stream and not self.first_event_ns:
            seen = b"".join(self.chunks) + body if self.chunks else body
            if any(boundary in seen for boundary in _SSE_BOUNDARIES):
                self.first_event_ns = time.perf_counter_ns()
        self.chunks.append(body)

    def on_message_complete(self) -> None:
        body = b"".join(self.chunks)
        if self.stream and not self.first_event_ns and body:
            self.first_event_ns = time.perf_counter_ns()
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_result(Response(self.parser.get_status_code(), body, self.first_event_ns))


class RawConnection:
    """A minimal keep-alive HTTP/1.1 client connection (one request at a time)."""

    def __init__(self, protocol: _ResponseProtocol, host: str, headers: dict[str, str]) -> None:
        self._protocol = protocol
        self._host = host
        self._headers = headers

    @classmethod
    async def open(cls, host: str, port: int, headers: dict[str, str]) -> RawConnection:
        loop = asyncio.get_running_loop()
        _, protocol = await loop.create_connection(_ResponseProtocol, host, port)
        return cls(protocol, f"{host}:{port}", headers)

    async def request(self, request: Request) -> Response:
        protocol = self._protocol
        if protocol.lost is not None or protocol.transport is None:
            raise ConnectionError("connection is closed")
        protocol.chunks = []
        protocol.stream = request.stream
        protocol.first_event_ns = 0
        protocol.waiter = asyncio.get_running_loop().create_future()
        protocol.transport.write(encode_request(request, self._host, self._headers))
        return await protocol.waiter

    async def close(self) -> None:
        if self._protocol.transport is not None:
            self._protocol.transport.close()


class HttpxConnection:
    """The same interface through ``httpx.AsyncClient`` (one client, one connection per worker)."""

    def __init__(self, client: object, base_url: str) -> None:
        self._client = client
        self._base = base_url

    @classmethod
    async def open(cls, host: str, port: int, headers: dict[str, str]) -> HttpxConnection:
        import httpx

        client = httpx.AsyncClient(
            base_url=f"http://{host}:{port}",
            headers=headers,
            limits=httpx.Limits(max_connections=1, max_keepalive_connections=1),
            timeout=60.0,
            trust_env=False,
        )
        return cls(client, f"http://{host}:{port}")

    async def request(self, request: Request) -> Response:
        import httpx

        client = self._client
        assert isinstance(client, httpx.AsyncClient)
        headers = {"Content-Type": "application/json"} if request.body or request.method == "POST" else {}
        if not request.stream:
            answer = await client.request(request.method, request.path, content=request.body, headers=headers)
            return Response(answer.status_code, answer.content)
        headers["Accept"] = "text/event-stream"
        first = 0
        seen = b""
        async with client.stream(request.method, request.path, content=request.body, headers=headers) as answer:
            async for chunk in answer.aiter_raw():
                seen += chunk
                if not first and any(boundary in seen for boundary in _SSE_BOUNDARIES):
                    first = time.perf_counter_ns()
        return Response(answer.status_code, seen, first or time.perf_counter_ns())

    async def close(self) -> None:
        import httpx

        assert isinstance(self._client, httpx.AsyncClient)
        await self._client.aclose()


async def connect(kind: str, host: str, port: int, headers: dict[str, str]) -> Connection:
    """Open one connection with the named client (``raw`` or ``httpx``)."""
    if kind == "raw":
        return await RawConnection.open(host, port, headers)
    if kind == "httpx":
        return await HttpxConnection.open(host, port, headers)
    raise ValueError(f"unknown client {kind!r}")
