"""INTERNAL_ERROR: only a host defect produces it, so it is provoked on a host with an injected one.

ROUTE_NOT_FOUND and METHOD_NOT_ALLOWED, which also answer outside every operation, and the served document are
checked by the kit (its probes and spec checks) on every host it runs against. INTERNAL_ERROR appears in no
operation (the ErrorCode schema says so), so the answer is checked against the Problem schema itself.
"""

from __future__ import annotations

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
