"""A fault-injecting HTTP/1.1 proxy on loopback, for the client scenarios and the adapters' tests (a test fixture).

    python contract-tests/harness/faultproxy.py --upstream http://127.0.0.1:HOSTPORT [--port 0]

Prints ``listening on http://127.0.0.1:PORT`` once it accepts connections. Every
request is forwarded to the upstream host unchanged unless an armed fault
matches it; each answer goes back with ``Connection: close`` (one request per
connection keeps the framing trivially right, streams included). The control
API lives under ``/__faults`` on the same port and is described, with the fault
actions, in ``contract-tests/scenarios/clients/README.md``. The client scenarios
put it in front of a host; the server's adapter tests put it in front of a fake
model provider (``abort`` and ``cut`` are the network faults those need).

Only the standard library, so that any player can start it with any Python 3.11.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import socket
import struct
import sys
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Any
from urllib.parse import urlsplit

__all__ = ["Fault", "FaultProxy", "main"]

MAX_HEAD_BYTES = 64 * 1024
RELAY_CHUNK = 64 * 1024
ACTIONS = frozenset({"abort", "cut", "drop-response", "hangup", "reset", "respond"})
CUT_ENDS = frozenset({"close", "finish", "reset", "stall"})
STALL_LIMIT_S = 60.0
"""A stalled answer is held until the client gives up, but never longer than this."""


def _path_matches(pattern: str, path: str) -> bool:
    """The exact path, where a segment ``*`` of the pattern stands for any one segment (an id not known yet)."""
    if "*" not in pattern:
        return pattern == path
    wanted, got = pattern.split("/"), path.split("/")
    return len(wanted) == len(got) and all(w == "*" or w == g for w, g in zip(wanted, got, strict=True))


@dataclass
class Fault:
    """One armed fault: what it matches, what it does, and how many more matches it takes."""

    method: str
    path: str
    action: str
    times: int = 1
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    body: Any = None
    after: str | None = None
    """``cut``: the answer is relayed up to the end of the event (blank line) after this text, or to the text's
    end when no event boundary follows it; without it, only the head is relayed."""
    plus: int = 0
    """``cut``: further bytes relayed past that point (into the next event: a line cut in the middle)."""
    end: str = "reset"
    """``cut``: how the answer then ends: ``reset`` (TCP reset), ``close`` (the connection closes inside a
    chunk: a chunked body cut short), ``finish`` (the body ends cleanly right there), ``stall`` (nothing more
    is sent and the connection stays open until the client closes it)."""

    @classmethod
    def from_json(cls, value: dict[str, Any]) -> Fault:
        action = str(value["action"])
        if action not in ACTIONS:
            raise ValueError(f"unknown fault action {action!r}; known: {', '.join(sorted(ACTIONS))}")
        times = int(value.get("times", 1))
        if times < 1:
            raise ValueError("times must be at least 1")
        end = str(value.get("end", "reset"))
        if end not in CUT_ENDS:
            raise ValueError(f"unknown cut end {end!r}; known: {', '.join(sorted(CUT_ENDS))}")
        after = value.get("after")
        return cls(
            method=str(value["method"]).upper(),
            path=str(value["path"]),
            action=action,
            times=times,
            status=int(value.get("status", 200)),
            headers={str(k): str(v) for k, v in dict(value.get("headers", {})).items()},
            body=value.get("body"),
            after=None if after is None else str(after),
            plus=max(0, int(value.get("plus", 0))),
            end=end,
        )

    def matches(self, method: str, path: str) -> bool:
        return self.times > 0 and self.method == method and _path_matches(self.path, path)


@dataclass
class Request:
    method: str
    target: str
    version: str
    headers: list[tuple[str, str]]
    body: bytes

    @property
    def path(self) -> str:
        return urlsplit(self.target).path

    def header(self, name: str) -> str | None:
        lowered = name.lower()
        return next((v for k, v in self.headers if k.lower() == lowered), None)


class BadRequest(Exception):
    pass


async def read_request(reader: asyncio.StreamReader) -> Request | None:
    """One request, its body read whole (Content-Length or chunked); None on a clean EOF."""
    try:
        head = await reader.readuntil(b"\r\n\r\n")
    except asyncio.IncompleteReadError as error:
        if error.partial.strip():
            raise BadRequest("request head cut short") from error
        return None
    except asyncio.LimitOverrunError as error:
        raise BadRequest("request head too large") from error
    lines = head.decode("latin-1").split("\r\n")
    try:
        method, target, version = lines[0].split(" ", 2)
    except ValueError as error:
        raise BadRequest(f"bad request line {lines[0]!r}") from error
    headers = []
    for line in lines[1:]:
        if not line:
            continue
        name, sep, value = line.partition(":")
        if not sep:
            raise BadRequest(f"bad header line {line!r}")
        headers.append((name.strip(), value.strip()))
    request = Request(method.upper(), target, version, headers, b"")
    request.body = await read_body(reader, request)
    return request


async def read_body(reader: asyncio.StreamReader, request: Request) -> bytes:
    if (request.header("transfer-encoding") or "").lower() == "chunked":
        return await read_chunked(reader)
    length = request.header("content-length")
    return await reader.readexactly(int(length)) if length else b""


async def read_chunked(reader: asyncio.StreamReader) -> bytes:
    body = bytearray()
    while True:
        size_line = await reader.readuntil(b"\r\n")
        size = int(size_line.split(b";", 1)[0].strip(), 16)
        if size == 0:
            while (await reader.readuntil(b"\r\n")) != b"\r\n":  # trailers
                pass
            return bytes(body)
        body += await reader.readexactly(size)
        await reader.readexactly(2)


def encode_response(status: int, headers: dict[str, str], body: bytes) -> bytes:
    try:
        reason = HTTPStatus(status).phrase
    except ValueError:
        reason = "Status"
    lines = [f"HTTP/1.1 {status} {reason}"]
    lines += [f"{k}: {v}" for k, v in headers.items() if k.lower() not in ("content-length", "connection")]
    lines += [f"Content-Length: {len(body)}", "Connection: close", "", ""]
    return "\r\n".join(lines).encode("latin-1") + body


def canned_body(fault: Fault) -> tuple[dict[str, str], bytes]:
    headers = dict(fault.headers)
    if isinstance(fault.body, str):
        body = fault.body.encode()
    elif fault.body is None:
        body = b""
    else:
        body = json.dumps(fault.body).encode()
        if not any(k.lower() == "content-type" for k in headers):
            headers["Content-Type"] = "application/json"
    return headers, body


class FaultProxy:
    """The proxy's state: the upstream, the armed faults and the log since they were armed."""

    def __init__(self, upstream: str) -> None:
        parts = urlsplit(upstream)
        if parts.scheme != "http" or not parts.hostname:
            raise ValueError(f"--upstream must be an http:// URL, got {upstream!r}")
        self.upstream_host = parts.hostname
        self.upstream_port = parts.port or 80
        self.faults: list[Fault] = []
        self.log: list[dict[str, Any]] = []
        self.started = time.monotonic()

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            request = await read_request(reader)
            if request is not None:
                await self.answer(request, reader, writer)
        except BadRequest as error:
            writer.write(encode_response(400, {"Content-Type": "text/plain"}, str(error).encode()))
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        finally:
            with contextlib.suppress(ConnectionError):
                await writer.drain()
            writer.close()
            with contextlib.suppress(ConnectionError):
                await writer.wait_closed()

    async def answer(self, request: Request, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if request.path == "/__faults" or request.path.startswith("/__faults/"):
            writer.write(self.control(request))
            return
        fault = next((f for f in self.faults if f.matches(request.method, request.path)), None)
        entry = self.record(request, fault)
        if fault is None:
            entry["status"] = await self.forward(request, writer)
            return
        fault.times -= 1
        if fault.action == "respond":
            headers, body = canned_body(fault)
            writer.write(encode_response(fault.status, headers, body))
            entry["status"] = fault.status
        elif fault.action == "drop-response":
            await self.forward(request, None)
        elif fault.action == "abort":  # nothing is forwarded; the client's connection is reset
            abort(writer)
        elif fault.action == "cut":
            entry["status"] = await self.cut(request, reader, writer, fault)
        elif fault.action == "hangup":
            entry["status"] = await self.hangup(request, writer, fault)
        # "reset": nothing is forwarded and nothing is sent; the connection just closes.

    def record(self, request: Request, fault: Fault | None) -> dict[str, Any]:
        entry = {
            "method": request.method,
            "path": request.path,
            "idempotencyKey": request.header("idempotency-key"),
            "agenticHost": request.header("agentic-host"),
            "lastEventId": request.header("last-event-id"),
            "userAgent": request.header("user-agent"),
            "authorization": request.header("authorization") is not None,
            "atMs": round((time.monotonic() - self.started) * 1000, 3),
            "fault": None if fault is None else fault.action,
            "status": None,
        }
        self.log.append(entry)
        return entry

    def control(self, request: Request) -> bytes:
        if request.method == "POST" and request.path == "/__faults":
            try:
                armed = [Fault.from_json(f) for f in json.loads(request.body or b"{}").get("faults", [])]
            except (ValueError, KeyError, TypeError, AttributeError) as error:
                return encode_response(400, {"Content-Type": "text/plain"}, f"bad faults: {error}".encode())
            self.faults, self.log = armed, []
            return encode_response(204, {}, b"")
        if request.method == "GET" and request.path == "/__faults/log":
            body = json.dumps({"requests": self.log}).encode()
            return encode_response(200, {"Content-Type": "application/json"}, body)
        return encode_response(404, {"Content-Type": "text/plain"}, b"no such control endpoint")

    async def exchange(
        self, request: Request, writer: asyncio.StreamWriter | None
    ) -> tuple[bytes, asyncio.StreamReader, asyncio.StreamWriter] | None:
        """Send ``request`` upstream and read its answer's head; None, with a 502 sent to ``writer``, when the
        upstream is down. The caller closes the upstream connection (``close_quietly``)."""
        try:
            up_reader, up_writer = await asyncio.open_connection(self.upstream_host, self.upstream_port)
        except OSError as error:  # what any proxy does when its upstream is down
            if writer is not None:
                writer.write(encode_response(502, {"Content-Type": "text/plain"}, f"upstream: {error}".encode()))
            return None
        try:
            up_writer.write(self.upstream_head(request) + request.body)
            await up_writer.drain()
            return await up_reader.readuntil(b"\r\n\r\n"), up_reader, up_writer
        except BaseException:
            await close_quietly(up_writer)
            raise

    async def forward(self, request: Request, writer: asyncio.StreamWriter | None) -> int | None:
        """Send the request upstream and relay the answer (or, with no writer, read it whole and drop it)."""
        opened = await self.exchange(request, writer)
        if opened is None:
            return 502
        head, up_reader, up_writer = opened
        try:
            status = int(head.split(b" ", 2)[1])
            if writer is None:
                await up_reader.read()  # the host finishes its answer; the client never sees it
                return None
            writer.write(with_connection_close(head))
            while chunk := await up_reader.read(RELAY_CHUNK):
                writer.write(chunk)
                await writer.drain()
            return status
        finally:
            await close_quietly(up_writer)

    async def cut(
        self, request: Request, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, fault: Fault
    ) -> int | None:
        """Forward the request, relay the answer's head and the start of its body, then end it as ``fault.end``.

        The upstream's answer is read whole first, so the cut lands at the same place every time; the body
        is relayed chunked whatever its own framing was.
        """
        opened = await self.exchange(request, writer)
        if opened is None:
            return 502
        head, up_reader, up_writer = opened
        try:
            body = await read_answer_body(up_reader, head)
        finally:
            await close_quietly(up_writer)
        offset = cut_offset(body, fault.after, fault.plus)
        writer.write(chunked_head(head) + (chunk(body[:offset]) if offset else b""))
        await writer.drain()
        if fault.end == "reset":
            abort(writer)
        elif fault.end == "close":  # a chunk announced and never finished, then the connection closes
            rest = body[offset:] or b"x" * 64
            writer.write(f"{len(rest):x}\r\n".encode() + rest[: len(rest) // 2])
        elif fault.end == "finish":
            writer.write(b"0\r\n\r\n")
        else:  # stall: wait for the client to give up (it closes its side), bounded
            with contextlib.suppress(TimeoutError, ConnectionError):
                await asyncio.wait_for(reader.read(), STALL_LIMIT_S)
        return int(head.split(b" ", 2)[1])

    async def hangup(self, request: Request, writer: asyncio.StreamWriter, fault: Fault) -> int | None:
        """Forward the request and relay the answer as it arrives, up to the end of the event after
        ``fault.after``; then drop both connections (a reset to the client, a close to the host), as a network
        that fails mid-stream does: unlike ``cut``, the host sees its client go away while it is still answering.
        """
        opened = await self.exchange(request, writer)
        if opened is None:
            return 502
        head, up_reader, up_writer = opened
        writer.write(chunked_head(head))
        seen = bytearray()
        try:
            async for data in answer_chunks(up_reader, head):
                seen += data
                offset = hangup_offset(bytes(seen), fault.after)
                if offset is None:
                    writer.write(chunk(data))
                    await writer.drain()
                    continue
                writer.write(chunk(data[: len(data) - (len(seen) - offset)]))
                await writer.drain()
                break
        finally:
            await close_quietly(up_writer)
            abort(writer)
        return int(head.split(b" ", 2)[1])

    def upstream_head(self, request: Request) -> bytes:
        skip = {"connection", "keep-alive", "transfer-encoding", "content-length", "host"}
        lines = [f"{request.method} {request.target} HTTP/1.1", f"Host: {self.upstream_host}:{self.upstream_port}"]
        lines += [f"{k}: {v}" for k, v in request.headers if k.lower() not in skip]
        if request.body or request.method in ("POST", "PUT", "PATCH"):
            lines.append(f"Content-Length: {len(request.body)}")
        lines += ["Connection: close", "", ""]
        return "\r\n".join(lines).encode("latin-1")


async def read_answer_body(reader: asyncio.StreamReader, head: bytes) -> bytes:
    """An answer's whole body, decoded from its framing (chunked, Content-Length, or until the close)."""
    fields = {}
    for line in head.decode("latin-1").split("\r\n")[1:]:
        name, sep, value = line.partition(":")
        if sep:
            fields[name.strip().lower()] = value.strip()
    if fields.get("transfer-encoding", "").lower() == "chunked":
        return await read_chunked(reader)
    if "content-length" in fields:
        return await reader.readexactly(int(fields["content-length"]))
    return await reader.read()


async def answer_chunks(reader: asyncio.StreamReader, head: bytes) -> AsyncIterator[bytes]:
    """An answer's body as it arrives: its chunks' data when chunked, else what each read returns."""
    if b"transfer-encoding: chunked" not in head.lower():
        while data := await reader.read(RELAY_CHUNK):
            yield data
        return
    while True:
        size = int((await reader.readuntil(b"\r\n")).split(b";", 1)[0].strip(), 16)
        if size == 0:
            return
        yield await reader.readexactly(size)
        await reader.readexactly(2)


def hangup_offset(seen: bytes, after: str | None) -> int | None:
    """Where a ``hangup`` stops relaying: the end of the event after ``after``, once that has arrived."""
    found = seen.find(after.encode()) if after is not None else 0
    if found < 0:
        return None
    boundary = seen.find(b"\n\n", found + len(after or ""))
    return None if boundary < 0 else boundary + 2


def cut_offset(body: bytes, after: str | None, plus: int) -> int:
    """Where a ``cut`` fault stops relaying ``body`` (see ``Fault.after`` and ``Fault.plus``)."""
    if after is None:
        return min(plus, len(body))
    found = body.find(after.encode())
    if found < 0:
        raise BadRequest(f"cut: {after!r} is not in the answer")
    offset = found + len(after)
    boundaries = [i + len(b) for b in (b"\n\n", b"\r\n\r\n") if (i := body.find(b, offset)) >= 0]
    return min(min(boundaries, default=offset) + plus, len(body))


def chunk(data: bytes) -> bytes:
    return f"{len(data):x}\r\n".encode() + data + b"\r\n"


def chunked_head(head: bytes) -> bytes:
    """An answer's head re-framed as chunked (its own length or framing no longer applies)."""
    lines = head.decode("latin-1").split("\r\n")
    skip = ("connection:", "keep-alive:", "content-length:", "transfer-encoding:")
    kept = [line for line in lines[1:] if line and not line.lower().startswith(skip)]
    return "\r\n".join([lines[0], *kept, "Transfer-Encoding: chunked", "Connection: close", "", ""]).encode("latin-1")


async def close_quietly(writer: asyncio.StreamWriter) -> None:
    writer.close()
    with contextlib.suppress(ConnectionError):
        await writer.wait_closed()


def abort(writer: asyncio.StreamWriter) -> None:
    """Close with a TCP reset (RST, not FIN): what a crashed peer or a dropped NAT entry looks like."""
    sock = writer.get_extra_info("socket")
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    writer.transport.abort()


def with_connection_close(head: bytes) -> bytes:
    lines = head.decode("latin-1").split("\r\n")
    kept = [line for line in lines[1:] if line and not line.lower().startswith(("connection:", "keep-alive:"))]
    return "\r\n".join([lines[0], *kept, "Connection: close", "", ""]).encode("latin-1")


async def serve(proxy: FaultProxy, host: str, port: int) -> None:
    server = await asyncio.start_server(proxy.handle, host, port, limit=MAX_HEAD_BYTES)
    bound = server.sockets[0].getsockname()
    print(f"listening on http://{bound[0]}:{bound[1]}", flush=True)
    async with server:
        await server.serve_forever()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--upstream", required=True, help="the host's base URL, http://127.0.0.1:PORT")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port")
    args = parser.parse_args(argv)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(serve(FaultProxy(args.upstream), args.host, args.port))
    return 0


if __name__ == "__main__":
    sys.exit(main())
