"""What the contract says about requests outside its operations, and about the document the host serves.

ROUTE_NOT_FOUND, METHOD_NOT_ALLOWED, INTERNAL_ERROR and MALFORMED_REQUEST appear in no operation (the
ErrorCode schema says so), so schemathesis cannot validate them against an operation: these tests check them
against the Problem schema itself. INTERNAL_ERROR only answers a host defect, so it is provoked on a host with
an injected one; MALFORMED_REQUEST answers bytes no HTTP client sends, so they go over a raw socket.
"""

from __future__ import annotations

import json
import socket
from urllib.parse import urlsplit

import httpx
import pytest
import yaml

from harness import hosts, observations
from harness.paths import HOST_CONFIG, SPEC_PATH
from harness.spec import validator_for

PROBLEM = validator_for({"$ref": "#/components/schemas/Problem"})


def _client(host: hosts.Host, token: str | None = "full") -> httpx.Client:
    headers = {"Authorization": f"Bearer {hosts.TOKENS[token]}"} if token else {}
    return httpx.Client(base_url=host.base_url, headers=headers, trust_env=False, timeout=10.0)


def _problem(response: httpx.Response, status: int, code: str, source: str = "outside-operations") -> dict:
    observations.record(
        "response",
        operation="(outside operations)",
        status=response.status_code,
        code=response.json().get("code") if response.headers.get("content-type", "").endswith("json") else None,
        source=source,
    )
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/problem+json"
    body = response.json()
    errors = [error.message for error in PROBLEM.iter_errors(body)]
    assert not errors, errors
    assert body["code"] == code
    assert body["status"] == status
    assert body["type"] == f"urn:agentic-driver:problem:{code}"
    return body


def test_the_host_serves_the_contract(live_hosts: dict[str, hosts.Host]) -> None:
    expected = yaml.safe_load(SPEC_PATH.read_text(encoding="utf-8"))
    with _client(live_hosts["main"], None) as http:
        assert json.loads(http.get("/openapi.json").text) == expected
        assert yaml.safe_load(http.get("/openapi.yaml").text) == expected


@pytest.mark.parametrize("path", ["/v1/nope", "/", "/v2/sessions/a/b"])
def test_unknown_route_is_route_not_found(live_hosts: dict[str, hosts.Host], path: str) -> None:
    with _client(live_hosts["main"]) as http:
        _problem(http.get(path), 404, "ROUTE_NOT_FOUND")


@pytest.mark.parametrize(
    ("method", "path", "allowed"),
    [
        ("PUT", "/v1/sessions", "POST"),
        ("GET", "/v1/runs", "POST"),
        ("PATCH", "/v1/sessions/ses_x", "DELETE, GET, HEAD"),
        ("GET", "/v1/runs/run_x/cancel", "POST"),
        ("POST", "/v1/discovery", "GET, HEAD"),
    ],
)
def test_unsupported_method_is_method_not_allowed(
    live_hosts: dict[str, hosts.Host], method: str, path: str, allowed: str
) -> None:
    with _client(live_hosts["main"]) as http:
        response = http.request(method, path)
    _problem(response, 405, "METHOD_NOT_ALLOWED")
    assert response.headers["allow"] == allowed


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
def test_bytes_that_are_not_http_are_malformed_request(live_hosts: dict[str, hosts.Host], raw: bytes) -> None:
    status, headers, body = _raw_exchange(live_hosts["main"], raw)
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
    with _client(live_hosts["main"], None) as http:
        assert http.get("/healthz").status_code == 200, "the host keeps serving"


@pytest.mark.slow
def test_a_host_defect_is_internal_error() -> None:
    with hosts.running([("defect", HOST_CONFIG, "defect")]) as (host,):
        with _client(host) as http:
            body = _problem(http.get("/v1/discovery"), 500, "INTERNAL_ERROR", source="fault-injection")
        assert "injected defect" not in body["detail"], "a defect's details must not leak to the caller"
        # A fresh connection: after an unhandled exception the server drops the one that carried it.
        with _client(host, None) as http:
            assert http.get("/healthz").status_code == 200, "the host keeps serving after a defect"
