"""A TLS fake model provider on loopback that counts what it accepts (``make bench-upstream``).

    ../.venv/bin/python -m harness.fakeprovider --cert-dir DIR --api-key KEY

It makes its own CA and a leaf certificate for 127.0.0.1 and ``localhost`` at
start (``trustme``, into memory; only the CA is written, to ``DIR/ca.pem``, for
clients to trust through ``SSL_CERT_FILE``), then serves HTTP/1.1 over TLS with
keep-alive, for the four wire protocols the host's network adapters speak,
streamed (Server-Sent Events in a chunked body, each event its own chunk, then
the terminating chunk) and not:

- openai-chat: ``POST /v1/chat/completions`` (``stream`` in the body);
- anthropic: ``POST /v1/messages`` (``stream`` in the body);
- openai-responses: ``POST /v1/responses`` (``stream`` in the body);
- gemini: ``POST /v1beta/models/{model}:generateContent``, or
  ``:streamGenerateContent?alt=sse``.

Each answer is the smallest one its adapter reads as a completed turn with the
text ``REPLY`` (the shapes follow the providers' APIs; the bodies are fixed, so
the fake spends as little as it can per request). Requests must carry the API
key where the provider expects it.

It counts exactly, in the event loop that accepts them: TCP connections
accepted, TLS handshakes completed (and how many resumed a session, and how
many failed), connections ended, and requests served, per protocol. The
counting is why this is a hand-written server: the plain TCP accept comes first
and the TLS handshake is started on the accepted connection (``start_tls``),
so both are seen. As a child of the benchmark (``jsonpipe``) it answers
``{"op": "counters"}`` with the counts, and ends when its stdin closes.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import ssl
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import h11
import trustme

from .jsonpipe import Document, serve_commands

__all__ = [
    "MODEL",
    "PROTOCOLS",
    "REPLY",
    "Answer",
    "Counters",
    "FakeProvider",
    "answer_for",
    "main",
    "make_certificates",
]

PROTOCOLS = ("openai-chat", "anthropic", "openai-responses", "gemini")
MODEL = "bench-model"
REPLY_PIECES = ("bench reply: ", "the quick brown fox ", "jumps over the lazy dog")
REPLY = "".join(REPLY_PIECES)
"""Every answer's text; streamed answers carry it in these three deltas."""

IDLE_TIMEOUT_S = 120.0
"""An idle keep-alive connection is closed after this: longer than any benchmark phase, so the
fake never decides whether a connection is reused; the client does."""
HANDSHAKE_TIMEOUT_S = 10.0


# -- the answers -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Answer:
    status: int
    body: bytes = b""
    """A whole JSON body, or empty for a stream."""
    frames: tuple[bytes, ...] = ()
    """A stream's Server-Sent Events, each sent as its own chunk."""


def _json(value: Any) -> bytes:
    return json.dumps(value, separators=(",", ":")).encode()


def _sse(data: Any, event: str | None = None, newline: str = "\n") -> bytes:
    head = f"event: {event}{newline}" if event else ""
    return f"{head}data: {json.dumps(data, separators=(',', ':'))}{newline}{newline}".encode()


def _openai_chat(stream: bool) -> Answer:
    usage = {"prompt_tokens": 8, "completion_tokens": 9, "total_tokens": 17}
    base = {"id": "chatcmpl-bench", "created": 1_700_000_000, "model": MODEL}
    if not stream:
        message = {"role": "assistant", "content": REPLY, "refusal": None}
        choice = {"index": 0, "message": message, "logprobs": None, "finish_reason": "stop"}
        return Answer(200, _json({**base, "object": "chat.completion", "choices": [choice], "usage": usage}))

    def chunk(delta: dict[str, Any], finish: str | None = None) -> bytes:
        choice = {"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}
        return _sse({**base, "object": "chat.completion.chunk", "choices": [choice]})

    frames = [chunk({"role": "assistant", "content": ""})]
    frames += [chunk({"content": piece}) for piece in REPLY_PIECES]
    frames.append(chunk({}, "stop"))
    frames.append(_sse({**base, "object": "chat.completion.chunk", "choices": [], "usage": usage}))
    frames.append(b"data: [DONE]\n\n")
    return Answer(200, frames=tuple(frames))


def _anthropic(stream: bool) -> Answer:
    usage = {"input_tokens": 8, "output_tokens": 9}
    message = {
        "id": "msg_bench",
        "type": "message",
        "role": "assistant",
        "model": MODEL,
        "content": [{"type": "text", "text": REPLY}],
        "stop_reason": "end_turn",
        "stop_sequence": None,
        "usage": usage,
    }
    if not stream:
        return Answer(200, _json(message))

    def event(kind: str, **data: Any) -> bytes:
        return _sse({"type": kind, **data}, kind)

    started = {**message, "content": [], "stop_reason": None, "usage": {**usage, "output_tokens": 1}}
    frames = [
        event("message_start", message=started),
        event("content_block_start", index=0, content_block={"type": "text", "text": ""}),
    ]
    frames += [
        event("content_block_delta", index=0, delta={"type": "text_delta", "text": piece}) for piece in REPLY_PIECES
    ]
    frames += [
        event("content_block_stop", index=0),
        event("message_delta", delta={"stop_reason": "end_turn", "stop_sequence": None}, usage={"output_tokens": 9}),
        event("message_stop"),
    ]
    return Answer(200, frames=tuple(frames))


def _openai_responses(stream: bool) -> Answer:
    usage = {"input_tokens": 8, "output_tokens": 9, "total_tokens": 17}
    text = {"type": "output_text", "text": REPLY, "annotations": []}
    item = {"id": "msg_bench", "type": "message", "status": "completed", "role": "assistant", "content": [text]}
    response = {
        "id": "resp_bench",
        "object": "response",
        "created_at": 1_700_000_000,
        "status": "completed",
        "model": MODEL,
        "output": [item],
        "usage": usage,
    }
    if not stream:
        return Answer(200, _json(response))
    sequence = iter(range(1_000))

    def event(kind: str, **data: Any) -> bytes:
        return _sse({"type": kind, "sequence_number": next(sequence), **data}, kind)

    pending = {**response, "status": "in_progress", "output": [], "usage": None}
    frames = [
        event("response.created", response=pending),
        event("response.output_item.added", output_index=0, item={**item, "status": "in_progress", "content": []}),
    ]
    frames += [
        event("response.output_text.delta", item_id="msg_bench", output_index=0, content_index=0, delta=piece)
        for piece in REPLY_PIECES
    ]
    frames += [
        event("response.output_item.done", output_index=0, item=item),
        event("response.completed", response=response),
    ]
    return Answer(200, frames=tuple(frames))


def _gemini(stream: bool) -> Answer:
    usage = {"promptTokenCount": 8, "candidatesTokenCount": 9, "totalTokenCount": 17}

    def chunk(text: str, finish: str | None) -> dict[str, Any]:
        candidate: dict[str, Any] = {"content": {"role": "model", "parts": [{"text": text}]}, "index": 0}
        if finish is not None:
            candidate["finishReason"] = finish
        return {"candidates": [candidate], "usageMetadata": usage, "modelVersion": MODEL}

    if not stream:
        return Answer(200, _json(chunk(REPLY, "STOP")))
    last = len(REPLY_PIECES) - 1
    # Google delimits its events with CRLF pairs; the host's SSE reader must take both line ends.
    return Answer(
        200,
        frames=tuple(
            _sse(chunk(piece, "STOP" if i == last else None), newline="\r\n") for i, piece in enumerate(REPLY_PIECES)
        ),
    )


_BUILDERS = {
    "openai-chat": _openai_chat,
    "anthropic": _anthropic,
    "openai-responses": _openai_responses,
    "gemini": _gemini,
}
_ANSWERS = {(protocol, stream): build(stream) for protocol, build in _BUILDERS.items() for stream in (True, False)}


def answer_for(protocol: str, stream: bool) -> Answer:
    """The fixed answer of ``protocol``, streamed or not."""
    return _ANSWERS[(protocol, stream)]


def _error(status: int, message: str) -> Answer:
    return Answer(status, _json({"error": {"message": message, "type": "invalid_request_error", "code": status}}))


# -- routing ---------------------------------------------------------------------------------

_CREDENTIAL = {
    "openai-chat": b"authorization",
    "anthropic": b"x-api-key",
    "openai-responses": b"authorization",
    "gemini": b"x-goog-api-key",
}


def _protocol_of(method: bytes, target: bytes) -> tuple[str, bool | None] | None:
    """(protocol, streamed?) for a request line; streamed is None where the body's ``stream`` decides."""
    if method != b"POST":
        return None
    path, _, query = target.partition(b"?")
    if path == b"/v1/chat/completions":
        return "openai-chat", None
    if path == b"/v1/messages":
        return "anthropic", None
    if path == b"/v1/responses":
        return "openai-responses", None
    if path.startswith(b"/v1beta/models/"):
        if path.endswith(b":generateContent"):
            return "gemini", False
        if path.endswith(b":streamGenerateContent") and b"alt=sse" in query.split(b"&"):
            return "gemini", True
    return None


def _credential_ok(protocol: str, headers: dict[bytes, bytes], api_key: str) -> bool:
    presented = headers.get(_CREDENTIAL[protocol], b"").decode("latin-1")
    return presented in (api_key, f"Bearer {api_key}")


# -- the server --------------------------------------------------------------------------------


@dataclass(slots=True)
class Counters:
    connections: int = 0
    """TCP connections accepted."""
    handshakes: int = 0
    """TLS handshakes completed."""
    resumed: int = 0
    """Of the handshakes, those that resumed an earlier TLS session (cheaper, still a round trip)."""
    failed_handshakes: int = 0
    closed: int = 0
    """Connections ended, by either side."""
    requests: int = 0
    served: Counter[str] = field(default_factory=Counter)
    """Requests answered 200, per ``protocol/sse`` or ``protocol/json``."""
    refused: int = 0
    """Requests answered with an error (unknown route, bad credential, body not JSON)."""

    def snapshot(self) -> Document:
        document = asdict(self)
        document["served"] = dict(self.served)
        return document


class FakeProvider:
    """The TLS listener: each connection is a ``_Connection`` protocol, its requests answered one after another."""

    def __init__(self, tls: ssl.SSLContext, api_key: str) -> None:
        self.counters = Counters()
        self.tls = tls
        self.api_key = api_key
        self.open: set[_Connection] = set()
        self.idle = asyncio.Event()
        """Set while no connection is open: every count of the connections so far is final."""
        self.idle.set()
        self._server: asyncio.Server | None = None

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> int:
        """Listen on plain TCP (each connection then starts its own handshake, so both are seen); the port."""
        loop = asyncio.get_running_loop()
        self._server = await loop.create_server(lambda: _Connection(self), host, port)
        return int(self._server.sockets[0].getsockname()[1])

    async def close(self) -> None:
        """Stop listening and end every open connection."""
        if self._server is not None:
            self._server.close()
        for connection in list(self.open):
            connection.abort()

    def answer(self, request: h11.Request, body: bytes) -> Answer:
        """The answer to one request, counted."""
        self.counters.requests += 1
        route = _protocol_of(request.method, request.target)
        if route is None:
            self.counters.refused += 1
            return _error(404, f"no route {request.method.decode()} {request.target.decode('latin-1')}")
        protocol, stream = route
        if not _credential_ok(protocol, dict(request.headers), self.api_key):
            self.counters.refused += 1
            return _error(401, "a missing or wrong API key")
        try:
            document = json.loads(body)
        except ValueError:
            document = None
        if not isinstance(document, dict):
            self.counters.refused += 1
            return _error(400, "the body is not a JSON object")
        streamed = stream if stream is not None else document.get("stream") is True
        self.counters.served[f"{protocol}/{'sse' if streamed else 'json'}"] += 1
        return answer_for(protocol, streamed)


class _Connection(asyncio.Protocol):
    """One accepted TCP connection: the TLS handshake, then HTTP/1.1 requests parsed by h11, answered in order.

    Reading is paused the moment the connection is accepted, so that the client's first TLS bytes stay in the
    socket for ``loop.start_tls`` (read early, they would be lost to the handshake, which would then stall).
    """

    def __init__(self, provider: FakeProvider) -> None:
        self._provider = provider
        self._counters = provider.counters
        self._transport: asyncio.BaseTransport | None = None
        self._http = h11.Connection(h11.SERVER)
        self._body: list[bytes] = []
        self._request: h11.Request | None = None
        self._idle: asyncio.TimerHandle | None = None
        self._handshake: asyncio.Task[None] | None = None
        """Held so that the task is not collected while it runs."""
        self._early: list[bytes] | None = []
        """Requests that arrived before ``start_tls`` returned (None once it has)."""
        self._lost = False

    # -- asyncio -----------------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._counters.connections += 1
        self._provider.open.add(self)
        self._provider.idle.clear()
        assert isinstance(transport, asyncio.Transport)
        transport.pause_reading()
        self._transport = transport
        self._handshake = asyncio.get_running_loop().create_task(self._start_tls(transport))

    async def _start_tls(self, transport: asyncio.Transport) -> None:
        loop = asyncio.get_running_loop()
        try:
            tls = await loop.start_tls(
                transport, self, self._provider.tls, server_side=True, ssl_handshake_timeout=HANDSHAKE_TIMEOUT_S
            )
        except (OSError, ssl.SSLError, TimeoutError):
            tls = None
        if tls is None:  # refused, timed out, or the client went away during the handshake
            self._counters.failed_handshakes += 1
            transport.abort()
            self.connection_lost(None)  # the TLS layer that failed does not tell this protocol
            return
        self._counters.handshakes += 1
        tls_object = tls.get_extra_info("ssl_object")
        if tls_object is not None and tls_object.session_reused:
            self._counters.resumed += 1
        self._transport = tls
        early, self._early = self._early or [], None
        for data in early:
            self.data_received(data)
        self._arm_idle_timer()

    def data_received(self, data: bytes) -> None:
        if self._early is not None:
            # The TLS layer hands over the first request as the handshake completes, before ``start_tls`` has
            # returned the TLS transport: an answer now would go out on the plain one.
            self._early.append(data)
            return
        self._arm_idle_timer()
        try:
            self._http.receive_data(data)
            self._process()
        except h11.ProtocolError:
            self.abort()

    def eof_received(self) -> bool | None:
        self._http.receive_data(b"")
        return None  # close our side too

    def connection_lost(self, exc: Exception | None) -> None:
        if self._lost:
            return
        self._lost = True
        self._counters.closed += 1
        self._provider.open.discard(self)
        if not self._provider.open:
            self._provider.idle.set()
        if self._idle is not None:
            self._idle.cancel()

    # -- HTTP --------------------------------------------------------------------------

    def _process(self) -> None:
        """Handle every complete event h11 has; bounded by the bytes received."""
        while True:
            event = self._http.next_event()
            if event is h11.NEED_DATA or event is h11.PAUSED:
                return
            if isinstance(event, h11.Request):
                self._request, self._body = event, []
            elif isinstance(event, h11.Data):
                self._body.append(bytes(event.data))
            elif isinstance(event, h11.EndOfMessage):
                assert self._request is not None
                self._send(self._provider.answer(self._request, b"".join(self._body)))
                if self._http.our_state is not h11.DONE or self._http.their_state is not h11.DONE:
                    self.close()
                    return
                self._http.start_next_cycle()
            elif isinstance(event, h11.ConnectionClosed):
                self.close()
                return

    def _send(self, answer: Answer) -> None:
        transport = self._transport
        assert isinstance(transport, asyncio.WriteTransport)
        http = self._http
        if not answer.frames:
            headers = [(b"content-type", b"application/json"), (b"content-length", str(len(answer.body)).encode())]
            head = http.send(h11.Response(status_code=answer.status, headers=headers)) or b""
            transport.write(head + (http.send(h11.Data(data=answer.body)) or b"") + _end(http))
            return
        # No length: h11 frames the body chunked (HTTP/1.1). Each event is its own chunk and write (its own TLS
        # record), as a provider sends them while it generates; the terminating chunk comes last, on its own, so a
        # client that stops reading at the last event has not read the end of the body and cannot reuse the
        # connection.
        headers = [(b"content-type", b"text/event-stream"), (b"cache-control", b"no-cache")]
        transport.write(http.send(h11.Response(status_code=answer.status, headers=headers)) or b"")
        for frame in answer.frames:
            transport.write(http.send(h11.Data(data=frame)) or b"")
        transport.write(_end(http))

    def _arm_idle_timer(self) -> None:
        if self._idle is not None:
            self._idle.cancel()
        self._idle = asyncio.get_running_loop().call_later(IDLE_TIMEOUT_S, self.close)

    def close(self) -> None:
        if self._transport is not None:
            self._transport.close()

    def abort(self) -> None:
        if isinstance(self._transport, asyncio.Transport):
            self._transport.abort()


def _end(connection: h11.Connection) -> bytes:
    return connection.send(h11.EndOfMessage()) or b""


# -- certificates and the child process -----------------------------------------------------------


def make_certificates(directory: Path) -> tuple[ssl.SSLContext, Path]:
    """A fresh CA and a leaf for 127.0.0.1 and localhost: the server's TLS context, and the CA file clients trust."""
    authority = trustme.CA(organization_name="agentic-driver bench-upstream")
    leaf = authority.issue_cert("127.0.0.1", "localhost")
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.set_alpn_protocols(["http/1.1"])  # what a provider offers an HTTP/1.1 client; no HTTP/2 here
    leaf.configure_cert(context)
    ca_file = directory / "ca.pem"
    authority.cert_pem.write_to_path(str(ca_file))
    return context, ca_file


async def _serve_as_child(cert_dir: Path, api_key: str, host: str) -> None:
    context, ca_file = make_certificates(cert_dir)
    provider = FakeProvider(context, api_key)
    port = await provider.start(host)

    async def handle(command: Document) -> Document:
        if command.get("op") == "counters":
            return provider.counters.snapshot()
        raise ValueError(f"unknown command {command!r}")

    try:
        await serve_commands({"port": port, "ca_file": str(ca_file)}, handle)
    finally:
        await provider.close()


def run_loop(coroutine: Any) -> None:
    """Run ``coroutine`` on uvloop where it is installed (the host's loop), else on asyncio's own.

    Not for the fake: uvloop's server-side ``start_tls`` stalls handshakes of connections that arrive together.
    """
    try:
        import uvloop
    except ImportError:
        asyncio.run(coroutine)
        return
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        runner.run(coroutine)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m harness.fakeprovider", description=__doc__.splitlines()[0])
    parser.add_argument("--cert-dir", type=Path, required=True, help="where the CA certificate (ca.pem) is written")
    parser.add_argument("--api-key", required=True, help="the key every request must present")
    parser.add_argument("--host", default="127.0.0.1")
    options = parser.parse_args(argv)
    asyncio.run(_serve_as_child(options.cert_dir, options.api_key, options.host))
    return 0


if __name__ == "__main__":
    sys.exit(main())
