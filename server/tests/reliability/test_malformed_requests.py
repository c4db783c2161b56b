"""Bytes the HTTP parser rejects are answered as problems (``MALFORMED_REQUEST``, 400), never as text.

One raw-socket case per class of malformed request: each answer is an RFC 9457
problem with the code, ``Connection: close``, the connection is closed, the
host keeps serving (a following good request succeeds), and its log never
holds the raw bytes that were sent.
"""

from __future__ import annotations

import json
import socket
from collections.abc import Callable

import pytest
from e2e.conftest import ALICE, Host

from .conftest import history_config
from .test_connections import closed_by_host, connect
from .test_shutdown import _raw_request, _read_response

AUTH = f"Authorization: Bearer {ALICE}\r\n".encode()
MARKER = b"zq-marker"
"""In every malformed request, so the test can prove the host's log never repeats what was sent."""

MALFORMED: dict[str, bytes] = {
    "nul in a header value": b"GET /v1/discovery HTTP/1.1\r\nHost: x\r\nX-Bad: a\x00"
    + MARKER
    + b"\r\n"
    + AUTH
    + b"\r\n",
    "control byte in a header value": b"GET /v1/discovery HTTP/1.1\r\nX-Bad: a\x01\x7f" + MARKER + b"\r\n\r\n",
    "raw non-UTF-8 bytes in the path": b"GET /v1/\xff\xfe" + MARKER + b" HTTP/1.1\r\nHost: x\r\n\r\n",
    "a space in the path": b"GET /v1/disc " + MARKER + b" HTTP/1.1\r\nHost: x\r\n\r\n",
    "negative Content-Length": b"POST /v1/runs HTTP/1.1\r\nContent-Length: -1\r\nX-M: " + MARKER + b"\r\n\r\n",
    "30-digit Content-Length": b"POST /v1/runs HTTP/1.1\r\nContent-Length: " + b"9" * 30 + b"\r\n\r\n" + MARKER,
    "doubled Content-Length": (
        b"POST /v1/runs HTTP/1.1\r\nContent-Length: 2\r\nContent-Length: 2\r\nX-M: " + MARKER + b"\r\n\r\n{}"
    ),
    "bad chunk size": (
        b"POST /v1/runs HTTP/1.1\r\nHost: x\r\n" + AUTH + b"Content-Type: application/json\r\n"
        b"Transfer-Encoding: chunked\r\n\r\nzz" + MARKER + b"\r\n{}\r\n0\r\n\r\n"
    ),
    "garbage request line": b"\x16\x03\x01\x02\x00" + MARKER + b"\r\n\r\n",
    "header line without a colon": b"GET /v1/discovery HTTP/1.1\r\nHost: x\r\n" + MARKER + b"\r\n\r\n",
}


@pytest.fixture(scope="module")
def host(launch_reliability: Callable[..., Host]) -> Host:
    return launch_reliability("malformed", history_config("malformed", 4))


def assert_malformed_problem(sock: socket.socket) -> None:
    assert_malformed_answer(*_read_response(sock))
    assert closed_by_host(sock, 3.0)


def assert_malformed_answer(status: int, headers: dict[str, str], body: bytes) -> None:
    assert status == 400, (status, headers, body)
    assert headers["content-type"] == "application/problem+json"
    assert headers["connection"] == "close"
    problem = json.loads(body)
    assert problem["code"] == "MALFORMED_REQUEST"
    assert (problem["status"], problem["type"]) == (400, "urn:agentic-driver:problem:MALFORMED_REQUEST")
    assert problem["detail"].startswith("The request is not valid HTTP/1.1")
    assert MARKER.decode() not in problem["detail"]


@pytest.mark.parametrize("raw", MALFORMED.values(), ids=MALFORMED.keys())
def test_a_malformed_request_gets_a_problem_and_the_host_keeps_serving(host: Host, raw: bytes) -> None:
    with connect(host) as sock:
        sock.sendall(raw)
        assert_malformed_problem(sock)
    with connect(host) as sock:
        sock.sendall(_raw_request("GET", "/v1/discovery"))
        assert _read_response(sock)[0] == 200
    assert MARKER not in host.log_path.read_bytes()


def read_until_closed(sock: socket.socket) -> bytes:
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
    return data


def split_responses(data: bytes) -> list[tuple[int, dict[str, str], bytes]]:
    """Responses with Content-Length bodies, in order, from everything a connection sent."""
    responses = []
    while data:
        head, _, rest = data.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
        length = int(headers.get("content-length", "0"))
        responses.append((int(lines[0].split()[1]), headers, rest[:length]))
        data = rest[length:]
    return responses


def test_requests_before_the_malformed_one_are_answered_first(host: Host) -> None:
    with connect(host) as sock:
        sock.sendall(_raw_request("GET", "/v1/discovery") * 2 + MALFORMED["header line without a colon"])
        first, second, refusal = split_responses(read_until_closed(sock))
    assert (first[0], second[0]) == (200, 200)
    assert json.loads(first[2])["subject"] == "alice"
    assert_malformed_answer(*refusal)


def test_the_malformed_answer_is_counted(host: Host) -> None:
    def answered() -> float:
        return sum(
            value
            for sample, labels, value in host.metrics()
            if sample == "agentic_driver_errors_total" and labels.get("code") == "MALFORMED_REQUEST"
        )

    before = answered()
    with connect(host) as sock:
        sock.sendall(MALFORMED["garbage request line"])
        assert_malformed_problem(sock)
    assert answered() == before + 1
