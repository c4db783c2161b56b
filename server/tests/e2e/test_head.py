"""HEAD on every GET route of a live host, on the wire: the GET status and headers, no content bytes.

Each request is written on a raw socket with ``Connection: close`` and read to the end, so any
content the host sent after the head would be seen (an HTTP client knows HEAD has none and stops).
"""

from __future__ import annotations

import socket
from urllib.parse import urlsplit

import pytest

from .conftest import ALICE, Host, new_session

READ_TIMEOUT_S = 10.0
MAX_ANSWER_BYTES = 1 << 20


def _exchange(host: Host, method: str, path: str, token: str | None) -> tuple[int, dict[str, str], bytes]:
    """Status, headers (lower-case names) and every byte after the head, up to the host closing."""
    address = urlsplit(host.base_url)
    assert address.hostname == "127.0.0.1" and address.port is not None
    lines = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{address.port}", "Connection: close"]
    if token is not None:
        lines.append(f"Authorization: Bearer {token}")
    with socket.create_connection((address.hostname, address.port), timeout=READ_TIMEOUT_S) as connection:
        connection.sendall(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1"))
        received = b""
        while len(received) < MAX_ANSWER_BYTES:
            chunk = connection.recv(65_536)
            if not chunk:
                break
            received += chunk
    head, separator, rest = received.partition(b"\r\n\r\n")
    assert separator, f"no complete head in {received[:200]!r}"
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in header_lines:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return int(status_line.split(" ")[1]), headers, rest


def _content_length_of_get(host: Host, path: str, token: str | None) -> tuple[int, dict[str, str], int]:
    status, headers, content = _exchange(host, "GET", path, token)
    assert int(headers["content-length"]) == len(content)
    return status, headers, len(content)


def _assert_head_like_get(host: Host, path: str, token: str | None, status: int) -> None:
    get_status, get_headers, length = _content_length_of_get(host, path, token)
    head_status, head_headers, rest = _exchange(host, "HEAD", path, token)
    assert get_status == head_status == status
    assert rest == b"", f"HEAD {path} sent {len(rest)} content bytes"
    assert head_headers["content-length"] == str(length)
    assert head_headers["content-type"] == get_headers["content-type"]


@pytest.mark.parametrize(
    ("path", "token"), [("/healthz", None), ("/openapi.yaml", None), ("/openapi.json", None), ("/v1/discovery", ALICE)]
)
def test_head_on_a_get_route(main_host: Host, path: str, token: str | None) -> None:
    _assert_head_like_get(main_host, path, token, 200)


def test_head_on_metrics(main_host: Host) -> None:
    status, headers, rest = _exchange(main_host, "HEAD", "/metrics", None)
    assert status == 200 and rest == b""
    assert headers["content-type"].startswith("text/plain") and int(headers["content-length"]) > 0


def test_head_on_a_session_read(main_host: Host) -> None:
    with main_host.client(ALICE) as client:
        session = new_session(client)
    _assert_head_like_get(main_host, f"/v1/sessions/{session.id}", ALICE, 200)


@pytest.mark.parametrize(
    ("path", "token", "status"),
    [("/v1/discovery", None, 401), ("/v1/sessions/ses_missing", None, 401), ("/v1/sessions/ses_missing", ALICE, 404)],
)
def test_head_answers_the_problems_of_get(main_host: Host, path: str, token: str | None, status: int) -> None:
    _assert_head_like_get(main_host, path, token, status)
