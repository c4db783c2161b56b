"""Auth and error-shape probes: requests a conforming host refuses before any model work (safe in read-only mode).

Each answer is validated against the kit's openapi.yaml (every schemathesis check plus the contract's own) or, for
requests outside every operation, against the Problem schema. Operations, methods and codes come from the spec.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import httpx
import pytest

from agentic_driver_conformance import spec, validation
from agentic_driver_conformance.profile import Plan
from agentic_driver_conformance.suite.conftest import record, require

TIMEOUT_S = 10.0
UNKNOWN_TOKEN = "conformance-token-no-host-knows"
PROBE_IDS = {"sessionId": "ses_0000000000000000000000", "runId": "run_0000000000000000000000"}
PROBLEM = spec.validator_for({"$ref": "#/components/schemas/Problem"})


def _bearer_operations() -> list[spec.Operation]:
    document = spec.document()
    default = document.get("security", [])
    found = []
    for operation in spec.operations().values():
        raw = document["paths"][operation.path][operation.method]
        if any("bearerAuth" in requirement for requirement in raw.get("security", default)):
            found.append(operation)
    return found


def _example_body(operation: spec.Operation) -> Any:
    raw = spec.document()["paths"][operation.path][operation.method]
    body = spec.resolve(raw.get("requestBody"))
    if not body:
        return None
    media = body["content"].get("application/json", {})
    if "example" in media:
        return media["example"]
    examples = list((media.get("examples") or {}).values())
    return spec.resolve(examples[0])["value"] if examples else {}


def _url(operation: spec.Operation) -> tuple[str, dict[str, str]]:
    path = {name: PROBE_IDS.get(name, "probe") for name in operation.path_parameters}
    url = operation.path
    for name, value in path.items():
        url = url.replace("{" + name + "}", quote(value, safe=""))
    return url, path


def _send(plan: Plan, operation: spec.Operation, token: str | None, body: Any = None) -> httpx.Response:
    url, _ = _url(operation)
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    with httpx.Client(base_url=plan.base_url, trust_env=False, timeout=TIMEOUT_S) as http:
        response = http.request(operation.method.upper(), url, headers=headers, json=body)
    record(response, operation.operation_id, "probes")
    return response


def _outside(response: httpx.Response, status: int, code: str) -> list[str]:
    record(response, "(outside operations)", "outside-operations")
    problems = []
    if response.status_code != status:
        problems.append(f"status {response.status_code}, expected {status}")
    if response.headers.get("content-type") != "application/problem+json":
        problems.append(f"content-type {response.headers.get('content-type')!r}, expected application/problem+json")
    try:
        body = response.json()
    except ValueError:
        return [*problems, "the body is not JSON"]
    problems += [f"not a Problem: {error.message}" for error in PROBLEM.iter_errors(body)]
    if isinstance(body, dict) and body.get("code") != code:
        problems.append(f"code {body.get('code')!r}, expected {code}")
    return problems


def _unauthenticated(plan: Plan, token: str | None) -> None:
    problems = []
    for operation in _bearer_operations():
        body = _example_body(operation)
        response = _send(plan, operation, token, body)
        _, path = _url(operation)
        try:
            validation.validate(operation.operation_id, response, path=path, body=body)
        except Exception as failure:  # schemathesis' FailureGroup: every failed check, listed
            problems.append(f"{operation.label}: {failure}")
        if response.status_code != 401 or validation.problem_code(response) != "UNAUTHENTICATED":
            problems.append(f"{operation.label}: {response.status_code} {validation.problem_code(response)}")
    assert not problems, "expected 401 UNAUTHENTICATED:\n" + "\n".join(problems)


def _route_not_found(plan: Plan) -> None:
    headers = {"Authorization": f"Bearer {plan.token('full')}"}
    problems = []
    with httpx.Client(base_url=plan.base_url, trust_env=False, timeout=TIMEOUT_S, headers=headers) as http:
        for path in ("/v1/conformance-no-such-route", "/v0/sessions"):
            problems += [f"GET {path}: {p}" for p in _outside(http.get(path), 404, "ROUTE_NOT_FOUND")]
    assert not problems, "\n".join(problems)


def _method_not_allowed(plan: Plan) -> None:
    headers = {"Authorization": f"Bearer {plan.token('full')}"}
    problems = []
    with httpx.Client(base_url=plan.base_url, trust_env=False, timeout=TIMEOUT_S, headers=headers) as http:
        for path, item in spec.document()["paths"].items():
            documented = [m for m in spec.HTTP_METHODS if m in item]
            method = next(m for m in ("put", "patch", "post", "delete", "get") if m not in documented)
            concrete = path
            for name, value in PROBE_IDS.items():
                concrete = concrete.replace("{" + name + "}", value)
            response = http.request(method.upper(), concrete)
            found = _outside(response, 405, "METHOD_NOT_ALLOWED")
            allow = {m.strip().lower() for m in response.headers.get("allow", "").split(",") if m.strip()}
            if not set(documented) <= allow:
                found.append(f"Allow {response.headers.get('allow')!r} lacks some of {documented}")
            problems += [f"{method.upper()} {path}: {p}" for p in found]
    assert not problems, "\n".join(problems)


def _session_not_found(plan: Plan) -> None:
    operation = spec.operations()["readSession"]
    response = _send(plan, operation, plan.token("full"))
    _, path = _url(operation)
    validation.validate("readSession", response, path=path, body=None)
    expected = (404, "SESSION_NOT_FOUND") if plan.sessions_enabled else (501, "SESSIONS_DISABLED")
    got = (response.status_code, validation.problem_code(response))
    assert got == expected, f"GET {operation.path} with an unknown id answered {got}, expected {expected}"


def _permission_denied(plan: Plan) -> None:
    operation = spec.operations()["createSession"]
    body = _example_body(operation)
    response = _send(plan, operation, plan.token("no-grants"), body)
    if response.status_code == 201:  # a broken host made a session: remove it, then fail
        session_id = response.json()["session"]["id"]
        with httpx.Client(base_url=plan.base_url, trust_env=False, timeout=TIMEOUT_S) as http:
            http.delete(
                f"/v1/sessions/{quote(session_id, safe='')}", headers={"Authorization": f"Bearer {plan.token('full')}"}
            )
    validation.validate("createSession", response, path={}, body=body)
    expected = (403, "PERMISSION_DENIED") if plan.sessions_enabled else (501, "SESSIONS_DISABLED")
    got = (response.status_code, validation.problem_code(response))
    assert got == expected, f"createSession without the create grant answered {got}, expected {expected}"


PROBES = {
    "unauthenticated": lambda plan: _unauthenticated(plan, None),
    "invalid-token": lambda plan: _unauthenticated(plan, UNKNOWN_TOKEN),
    "route-not-found": _route_not_found,
    "method-not-allowed": _method_not_allowed,
    "session-not-found": _session_not_found,
    "permission-denied": _permission_denied,
}


@pytest.mark.parametrize("name", list(PROBES))
def test_probe(plan: Plan, name: str) -> None:
    require(plan, f"probe {name}")
    PROBES[name](plan)
