"""The host serving HTTPS itself: ``agentic-driver serve --tls-cert --tls-key`` on a free loopback port.

The certificate comes from a throwaway CA (trustme) for 127.0.0.1 and localhost. Through TLS the
host answers the generated client, negotiates TLS 1.2 or later, still answers connection-level
refusals (a head too large) as problems, and serves no plain HTTP on that port.
"""

from __future__ import annotations

import json
import socket
import ssl
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import agentic_driver_testing as testing
import httpx
import pytest
import trustme
from agentic_driver_client import AuthenticatedClient
from agentic_driver_client.types import Unset
from agentic_driver_testing import free_port

from .conftest import (
    ALICE,
    SERVE,
    STARTUP_TIMEOUT_S,
    echo_provider,
    new_session,
    run_ok,
    run_request,
)

MAX_HEADER_BYTES = 4096


@dataclass
class TlsHost:
    port: int
    trusting: ssl.SSLContext
    metrics_port: int

    @property
    def base_url(self) -> str:
        return f"https://127.0.0.1:{self.port}"


@pytest.fixture(scope="module")
def tls_host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TlsHost]:
    directory = tmp_path_factory.mktemp("tls-host")
    ca = trustme.CA()
    issued = ca.issue_cert("127.0.0.1", "localhost")
    cert, key = directory / "server.pem", directory / "server.key"
    issued.private_key_and_cert_chain_pem.write_to_path(str(cert))
    issued.private_key_pem.write_to_path(str(key))
    metrics_port = free_port()
    config = {
        "providers": [echo_provider("echo")],
        "sessions": {"retentionMs": 60_000},
        "limits": {"maxHeaderBytes": MAX_HEADER_BYTES},
        "tokens": [{"subject": "alice", "token": ALICE, "providers": ["*"], "sessions": ["create", "continue"]}],
        "tls": {"certFile": str(cert), "keyFile": str(key)},
        "metrics": {"listen": {"host": "127.0.0.1", "port": metrics_port}},
    }
    (directory / "host.json").write_text(json.dumps(config), encoding="utf-8")
    trusting = ssl.create_default_context()
    ca.configure_trust(trusting)
    started = testing.start(
        lambda port: testing.serve_command(port, "--config", str(directory / "host.json")),
        lambda attempt, port: directory / f"host-{attempt}.log",
        name="the TLS host",
        timeout_s=STARTUP_TIMEOUT_S,
        tls=trusting,
    )
    try:
        yield TlsHost(started.port, trusting, metrics_port)
    finally:
        started.stop()


def test_the_generated_client_trusting_the_ca_completes_a_session_turn(tls_host: TlsHost) -> None:
    client = AuthenticatedClient(
        base_url=tls_host.base_url, token=ALICE, verify_ssl=tls_host.trusting, raise_on_unexpected_status=True
    )
    with client:
        session = new_session(client)
        result = run_ok(client, run_request("hi", session))

    assert result.output.text == "echo: hi"
    assert not isinstance(result.session, Unset) and result.session.revision == session.revision + 1


def _tls_socket(host: TlsHost, context: ssl.SSLContext) -> ssl.SSLSocket:
    raw = socket.create_connection(("127.0.0.1", host.port), timeout=5.0)
    return context.wrap_socket(raw, server_hostname="localhost")


def test_the_host_negotiates_tls_1_2_or_later(tls_host: TlsHost) -> None:
    with _tls_socket(tls_host, tls_host.trusting) as connection:
        assert connection.version() in ("TLSv1.2", "TLSv1.3")


def test_a_connection_level_refusal_is_still_a_problem_over_tls(tls_host: TlsHost) -> None:
    head = f"GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Big: {'a' * MAX_HEADER_BYTES}\r\n\r\n".encode()
    with _tls_socket(tls_host, tls_host.trusting) as connection:
        connection.sendall(head)
        answer = b""
        for _ in range(100):  # bounded: until the host closes
            chunk = connection.recv(65_536)
            if not chunk:
                break
            answer += chunk

    status, _, body = answer.partition(b"\r\n\r\n")
    assert status.startswith(b"HTTP/1.1 431 ")
    assert json.loads(body)["code"] == "HEADERS_TOO_LARGE"


def test_plain_http_on_the_tls_port_gets_no_answer(tls_host: TlsHost) -> None:
    with pytest.raises(httpx.TransportError):
        httpx.get(f"http://127.0.0.1:{tls_host.port}/healthz", timeout=5.0)


def test_a_client_without_the_ca_fails_verification(tls_host: TlsHost) -> None:
    with pytest.raises(ssl.SSLCertVerificationError):
        _tls_socket(tls_host, ssl.create_default_context()).close()


def test_serve_without_tls_on_a_network_address_exits_2_before_binding(tmp_path: Path) -> None:
    # The real command as an operator runs it. It refuses before binding: if it did bind
    # (the check missing), it would serve until the timeout and the assertion would fail.
    finished = subprocess.run(
        [*SERVE, "--host", "0.0.0.0", "--port", str(free_port())],
        capture_output=True,
        text=True,
        timeout=STARTUP_TIMEOUT_S,
        cwd=tmp_path,
        check=False,
    )

    assert finished.returncode == 2
    assert "refusing to serve plain HTTP on a non-loopback address" in finished.stderr
    assert "bearer token" not in finished.stdout


def test_the_separate_metrics_address_is_served_over_the_same_tls(tls_host: TlsHost) -> None:
    # A scrape secret would otherwise cross the network in the clear on the metrics address.
    url = f"https://127.0.0.1:{tls_host.metrics_port}/metrics"
    answer = httpx.get(url, verify=tls_host.trusting, timeout=5.0)
    assert answer.status_code == 200 and "agentic_driver" in answer.text
    with pytest.raises(httpx.TransportError):
        httpx.get(f"http://127.0.0.1:{tls_host.metrics_port}/metrics", timeout=5.0)
