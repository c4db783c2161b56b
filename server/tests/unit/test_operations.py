"""The route table (``http.operations.OPERATIONS``) is the contract's operations, and each handler can be
called on its own: a ``Served`` and a Starlette ``Request``, no app around it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest
import yaml
from starlette.requests import Request

from agentic_driver import Driver, TokenPolicy, embedded_default
from agentic_driver.bearer import Authenticator, BearerPolicy
from agentic_driver.errors import Unauthenticated
from agentic_driver.http import create_app, operations
from agentic_driver.http.app import OperationRoute, openapi_document
from agentic_driver.http.limits import Drain
from agentic_driver.http.metrics_access import MetricsAccess
from agentic_driver.http.owner import OwnerCheck

SPEC = Path(__file__).resolve().parents[3] / "openapi.yaml"
HOST_ONLY = {"getOpenapiYaml", "getOpenapiJson"}
"""Served beside the contract (the document itself), not operations of it."""
TOKEN = "operations-test-token-01"


def spec_operations() -> dict[str, tuple[str, str]]:
    spec = yaml.safe_load(SPEC.read_text(encoding="utf-8"))
    return {
        op["operationId"]: (method.upper(), path)
        for path, item in spec["paths"].items()
        for method, op in item.items()
        if isinstance(op, dict) and "operationId" in op
    }


def served(drain: Drain | None = None) -> operations.Served:
    config, _ = embedded_default(token=TOKEN)
    driver = Driver.from_config(config)
    return operations.Served(
        driver,
        Authenticator(BearerPolicy(TokenPolicy(config.tokens))),
        OwnerCheck(driver.host_id),
        drain or Drain(),
        openapi_document(),
        MetricsAccess(),
    )


def request(path: str, method: str = "GET", headers: dict[str, str] | None = None) -> Request:
    raw = [(k.lower().encode(), v.encode()) for k, v in (headers or {}).items()]
    scope: dict[str, Any] = {"type": "http", "method": method, "path": path, "raw_path": path.encode()}
    scope.update({"headers": raw, "query_string": b"", "path_params": {}})
    return Request(scope)


def test_the_table_is_every_operation_of_the_contract_once_with_its_method_and_path() -> None:
    rows = {row.operation_id: (row.method, row.template) for row in operations.OPERATIONS}
    assert len(rows) == len(operations.OPERATIONS)
    assert {k: v for k, v in rows.items() if k not in HOST_ONLY} | {
        operations.METRICS.operation_id: (operations.METRICS.method, operations.METRICS.template)
    } == spec_operations() | {"getMetrics": ("GET", "/metrics")}


def test_each_route_is_named_by_its_operation_id() -> None:
    config, _ = embedded_default(token=TOKEN)
    app = create_app(Driver.from_config(config), TokenPolicy(config.tokens))
    named = [route.name for route in app.router.routes if isinstance(route, OperationRoute)]
    assert named[: len(operations.OPERATIONS)] == [row.operation_id for row in operations.OPERATIONS]


async def test_a_handler_answers_on_its_own() -> None:
    response = await operations.get_health(served(), request("/healthz"))
    assert (response.status_code, response.body) == (200, b'{"status":"ok"}')


async def test_readiness_alone_reports_a_drain_as_its_problem() -> None:
    drain = Drain()
    drain.draining = True
    response = await operations.get_readiness(served(drain), request("/readyz"))
    assert response.status_code == 503
    assert orjson.loads(response.body)["code"] == "SHUTTING_DOWN"


async def test_discovery_alone_authenticates_its_caller() -> None:
    response = await operations.get_discovery(
        served(), request("/v1/discovery", headers={"Authorization": f"Bearer {TOKEN}"})
    )
    assert response.status_code == 200
    assert "echo" in [p["id"] for p in orjson.loads(response.body)["providers"]]
    with pytest.raises(Unauthenticated):  # raised, as from every handler; the app renders it as a problem
        await operations.get_discovery(served(), request("/v1/discovery"))
