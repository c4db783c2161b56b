"""Security, forbidden fields: no request field carries identity, permissions or native provider state.

The schema has no such property and refuses unknown members everywhere, and the host refuses each
such field in each body position with VALIDATION_ERROR naming it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import yaml
from e2e.conftest import REPO_ROOT

from .inprocess import Rig
from .properties import tally

# -- no identity, permissions or native state from a client --------------------------------------

FORBIDDEN = [
    "subject",
    "account",
    "accountId",
    "permissions",
    "grants",
    "sessionGrants",
    "principal",
    "owner",
    "native",
    "nativeState",
    "providerState",
    "state",
    "signature",
    "encryptedContent",
    "thinking",
    "reasoning",
    "items",
]


def _schemas() -> dict[str, Any]:
    spec = yaml.safe_load((REPO_ROOT / "openapi.yaml").read_text("utf-8"))
    schemas: dict[str, Any] = spec["components"]["schemas"]
    return schemas


def _request_schemas() -> set[str]:
    """Every schema reachable from a request body."""
    schemas, found = _schemas(), set()
    todo = ["CreateSessionRequest", "RunRequest", "SubmitRunActionsRequest"]
    while todo:
        name = todo.pop()
        if name in found:
            continue
        found.add(name)
        todo += re.findall(r"#/components/schemas/(\w+)", json.dumps(schemas[name]))
    return found


def test_the_schema_has_no_identity_permission_or_native_fields_and_refuses_unknown_members() -> None:
    schemas = _schemas()
    names = _request_schemas()
    assert {"CreateSessionRequest", "RunRequest", "SessionHandle", "Message", "FunctionResult"} <= names
    for name in names:
        schema = schemas[name]
        if schema.get("type") != "object":
            continue
        assert schema.get("additionalProperties") is False, name
        assert not set(schema.get("properties", {})) & set(FORBIDDEN), name


BODIES: dict[str, dict[str, Any]] = {
    "/v1/sessions": {
        "provider": "echo",
        "model": "echo-1",
        "mode": "native",
        "history": [{"role": "user", "content": "Hi"}],
    },
    "/v1/runs": {
        "provider": "echo",
        "model": "echo-1",
        "input": "Hi",
        "session": {"id": "<session>", "revision": 0},
        "tools": [{"name": "lookup", "parameters": {"type": "object"}}],
    },
    "/v1/runs/stream": {
        "provider": "echo",
        "model": "echo-1",
        "input": "Hi",
        "history": [{"role": "user", "content": "Hi"}],
    },
    "/v1/runs/<run>/actions": {"functionResults": [{"callId": "call_1", "output": "ok"}]},
    "/v1/runs/<run>/actions/stream": {"approvals": [{"callId": "call_1", "approve": True}]},
}


def _placements(body: dict[str, Any]) -> Iterator[tuple[str, list[Any]]]:
    """Every object in the body: (its location, the path to it)."""
    yield "body", []
    for key, value in body.items():
        if isinstance(value, dict):
            yield f"body.{key}", [key]
        if isinstance(value, list):
            for index, item in enumerate(value):
                if isinstance(item, dict):
                    yield f"body.{key}.{index}", [key, index]


async def test_each_forbidden_field_in_each_body_position_is_refused(rigs: Any) -> None:
    rig: Rig = rigs()
    session = await rig.new_session()
    calls = rig.provider_calls()
    tried = 0
    for path, template in BODIES.items():
        for location, steps in _placements(template):
            for field in FORBIDDEN:
                body = json.loads(json.dumps(template).replace("<session>", session["id"]))
                target: Any = body
                for step in steps:
                    target = target[step]
                target[field] = {"subject": "bob", "revision": 99} if field.endswith("State") else "bob"
                answer = await rig.request("POST", path.replace("<run>", "run_none"), body)
                problem = answer.json()
                assert (answer.status, problem["code"]) == (422, "VALIDATION_ERROR"), (path, location, field, problem)
                assert f"{location}.{field}" in [e["location"] for e in problem["errors"]], (path, location, field)
                tried += 1
    assert rig.provider_calls() == calls
    assert (await rig.read(session["id"]))["session"]["revision"] == 0
    assert tried >= 150
    tally("security", f"forbidden field cases ({tried})")
