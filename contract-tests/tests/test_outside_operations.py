"""INTERNAL_ERROR and MALFORMED_REQUEST: answers outside every operation, checked against the Problem schema.

INTERNAL_ERROR and MALFORMED_REQUEST appear in no operation (the ErrorCode schema says so), so schemathesis
cannot validate them against an operation: these tests check them against the Problem schema itself.
INTERNAL_ERROR only answers a host defect, so it is provoked on a host with an injected one; MALFORMED_REQUEST
answers bytes no HTTP client sends, so they go over a raw socket. ROUTE_NOT_FOUND and METHOD_NOT_ALLOWED, which
also answer outside every operation, and the served document are checked by the kit (its probes and spec
checks) on every host it runs against.
"""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from urllib.parse import urlsplit

import httpx
import pytest

from agentic_driver_conformance import observations
from agentic_driver_conformance.spec import validator_for
from harness import hosts
from harness.paths import HOST_CONFIG

PROBLEM = validator_for({"$ref": "#/components/schemas/Problem"})


def _client(host: hosts.Host, token: str | None = "full") -> httpx.Client:
    headers = {"Authorization": f"Bearer {hosts.TOKENS[token]}"} if token else {}
    return httpx.Client(base_url=host.base_url, headers=headers, trust_env=False, timeout=10.0)


@pytest.fixture(scope="module")
def outside_host() -> Iterator[hosts.Host]:
    with hosts.running([("outside", HOST_CONFIG, None)]) as (host,):
        yield host


def _raw_exchange(host: hosts.Host, raw: bytes) -> tuple[int, dict[str, str], bytes]:
    """Send ``raw`` on a fresh connection; the host's answer (it closes the connection after it)."""
    address = urlsplit(host.base_url)
    with socket.create_connection((address.hostname, address.port), timeout=10.0) as sock:
        sock.sendall(raw)
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {name.strip().lower(): value.strip() for name, _, value in (line.partition(":") for line in lines[1:])}
    return int(lines[0].split()[1]), headers, body


@pytest.mark.parametrize(
    "raw",
    [
        b"GET /v1/discovery HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n",
        b"GET /v1/discovery HTTP/1.1\r\nX-Bad: a\x00b\r\n\r\n",
        b"POST /v1/runs HTTP/1.1\r\nContent-Length: -1\r\n\r\n",
    ],
    ids=["header-without-colon", "nul-in-header", "negative-content-length"],
)
def test_bytes_that_are_not_http_are_malformed_request(outside_host: hosts.Host, raw: bytes) -> None:
    status, headers, body = _raw_exchange(outside_host, raw)
    observations.record(
        "response",
        operation="(outside operations)",
        status=status,
        code=json.loads(body).get("code"),
        source="outside-operations",
    )
    assert (status, headers["content-type"], headers["connection"]) == (400, "application/problem+json", "close")
    problem = json.loads(body)
    assert not [error.message for error in PROBLEM.iter_errors(problem)]
    assert (problem["code"], problem["status"]) == ("MALFORMED_REQUEST", 400)
    with _client(outside_host, None) as http:
        assert http.get("/healthz").status_code == 200, "the host keeps serving"


@pytest.mark.slow
def test_a_host_defect_is_internal_error() -> None:
    with hosts.running([("defect", HOST_CONFIG, "defect")]) as (host,):
        with _client(host) as http:
            response = http.get("/v1/discovery")
        observations.record(
            "response",
            operation="(outside operations)",
            status=response.status_code,
            code=response.json().get("code"),
            source="fault-injection",
        )
        assert response.status_code == 500, response.text
        assert response.headers["content-type"] == "application/problem+json"
        body = response.json()
        errors = [error.message for error in PROBLEM.iter_errors(body)]
        assert not errors, errors
        assert body["code"] == "INTERNAL_ERROR"
        assert body["type"] == "urn:agentic-driver:problem:INTERNAL_ERROR"
        assert "injected defect" not in body["detail"], "a defect's details must not leak to the caller"
        # A fresh connection: after an unhandled exception the server drops the one that carried it.
        with _client(host, None) as http:
            assert http.get("/healthz").status_code == 200, "the host keeps serving after a defect"
