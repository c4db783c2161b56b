"""Header and connection abuse on loopback, bounded by the host's ``limits``, while others are served.

- a request head beyond ``maxHeaderBytes``: ``HEADERS_TOO_LARGE`` (431), connection closed;
- connections beyond ``maxConnections``: ``HOST_BUSY`` (``limit: maxConnections``), closed at once,
  while the open connections keep being answered;
- idle and trickling connections: closed after ``requestHeadTimeoutMs`` without a complete head;
- a slow request body: ``REQUEST_TIMEOUT`` (408) after ``bodyTimeoutMs``.

Afterwards the host's open-connection gauge is back where it started.
"""

from __future__ import annotations

import json
import select
import socket
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack

import httpx
import pytest
from e2e.conftest import ALICE, Host, parse_metrics

from .conftest import history_config
from .test_shutdown import _address, _raw_request, _read_response

MAX_CONNECTIONS = 24
MAX_HEADER_BYTES = 8_192
HEAD_TIMEOUT_MS = 800
BODY_TIMEOUT_MS = 500


@pytest.fixture(scope="module")
def guarded(launch_reliability: Callable[..., Host]) -> Host:
    config = history_config("guarded", 8)
    config["limits"].update(
        maxConnections=MAX_CONNECTIONS,
        maxHeaderBytes=MAX_HEADER_BYTES,
        requestHeadTimeoutMs=HEAD_TIMEOUT_MS,
        keepAliveTimeoutMs=5_000,
        bodyTimeoutMs=BODY_TIMEOUT_MS,
    )
    return launch_reliability("guarded", config)


def gauge(host: Host, name: str) -> float:
    with httpx.Client(trust_env=False) as http:
        text = http.get(host.base_url + "/metrics", headers={"Connection": "close"}).text
    return next(value for sample, _, value in parse_metrics(text) if sample == name)


def connect(host: Host) -> socket.socket:
    return socket.create_connection(_address(host), timeout=5)


def closed_by_host(sock: socket.socket, within_s: float) -> bool:
    """True when the host closes ``sock`` within ``within_s`` (reading and discarding whatever it sent)."""
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        ready, _, _ = select.select([sock], [], [], max(0.0, deadline - time.monotonic()))
        if ready:
            try:
                if not sock.recv(65536):
                    return True
            except ConnectionResetError:
                return True
    return False


def ask(sock: socket.socket) -> int:
    sock.sendall(_raw_request("GET", "/v1/discovery"))
    return _read_response(sock)[0]


@pytest.fixture
def baseline(guarded: Host) -> Iterator[None]:
    time.sleep(0.05)
    before = gauge(guarded, "agentic_driver_open_connections")
    yield
    deadline = time.monotonic() + 5
    while gauge(guarded, "agentic_driver_open_connections") > before and time.monotonic() < deadline:
        time.sleep(0.05)
    assert gauge(guarded, "agentic_driver_open_connections") <= before
    assert guarded.healthy()


@pytest.mark.parametrize("size", [MAX_HEADER_BYTES * 2, 2_000_000])
def test_an_oversized_request_head_is_refused(guarded: Host, baseline: None, size: int) -> None:
    with connect(guarded) as sock:
        head = _raw_request("GET", "/v1/discovery")[:-2] + b"X-Padding: " + b"a" * size + b"\r\n\r\n"
        sent = 0
        while sent < len(head):  # stop sending once the host has answered
            if select.select([sock], [], [], 0)[0]:
                break
            try:
                sent += sock.send(head[sent : sent + 4096])
            except (BrokenPipeError, ConnectionResetError):
                break
        status, headers, body = _read_response(sock)
        problem = json.loads(body)
        assert (status, problem.get("code")) == (431, "HEADERS_TOO_LARGE"), (status, headers, body)
        assert (problem["limit"], problem["maximum"]) == ("maxHeaderBytes", MAX_HEADER_BYTES)
        assert headers["content-type"] == "application/problem+json"
        assert closed_by_host(sock, 2.0)
    with connect(guarded) as sock:  # a head just within the bound is fine
        sock.sendall(_raw_request("GET", "/v1/discovery")[:-2] + b"X-Padding: " + b"a" * 4000 + b"\r\n\r\n")
        assert _read_response(sock)[0] == 200


def test_connections_beyond_the_maximum_are_refused_while_open_ones_are_served(guarded: Host, baseline: None) -> None:
    with ExitStack() as stack:
        active = stack.enter_context(connect(guarded))
        assert ask(active) == 200
        opened = int(gauge(guarded, "agentic_driver_open_connections")) - 1  # not the scrape's own connection
        idle = [stack.enter_context(connect(guarded)) for _ in range(MAX_CONNECTIONS - opened)]
        time.sleep(0.1)
        with connect(guarded) as extra:
            status, headers, body = _read_response(extra)
            problem = json.loads(body)
            assert (status, problem["code"], problem["limit"]) == (503, "HOST_BUSY", "maxConnections")
            assert headers["retry-after"] == "1"
            assert closed_by_host(extra, 2.0)
        assert ask(active) == 200  # the open connections are still answered
        # the idle ones never asked anything: the host closes them after requestHeadTimeoutMs
        assert all(closed_by_host(sock, HEAD_TIMEOUT_MS / 1000 + 2.0) for sock in idle)
        with connect(guarded) as again:
            assert ask(again) == 200


def test_a_trickled_request_head_is_cut_off(guarded: Host, baseline: None) -> None:
    with connect(guarded) as sock:
        head = _raw_request("GET", "/v1/discovery")
        started = time.monotonic()
        closed = False
        for byte in head:
            try:
                sock.send(bytes([byte]))
            except (BrokenPipeError, ConnectionResetError):
                closed = True
                break
            if closed_by_host(sock, 0.1):
                closed = True
                break
        assert closed
        assert time.monotonic() - started < HEAD_TIMEOUT_MS / 1000 + 2.0


def test_a_slow_request_body_times_out_while_others_are_served(guarded: Host, baseline: None) -> None:
    body = json.dumps({"provider": "echo", "model": "echo-1", "input": "slow"}).encode()
    with connect(guarded) as slow, httpx.Client(base_url=guarded.base_url, trust_env=False) as others:
        head = _raw_request("POST", "/v1/runs", {"x": "y" * (len(body) - 12)})
        head = head[: head.index(b"\r\n\r\n") + 4]
        slow.sendall(head + body[:10])  # and never the rest
        started = time.monotonic()
        assert others.get("/v1/discovery", headers={"Authorization": f"Bearer {ALICE}"}).status_code == 200
        status, _, answer = _read_response(slow)
        problem = json.loads(answer)
        assert (status, problem["code"], problem["maximum"]) == (408, "REQUEST_TIMEOUT", BODY_TIMEOUT_MS)
        assert BODY_TIMEOUT_MS / 1000 - 0.05 <= time.monotonic() - started < BODY_TIMEOUT_MS / 1000 + 2.0
