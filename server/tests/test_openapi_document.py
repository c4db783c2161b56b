"""The contract document itself: valid, linked correctly, every error documented with a narrowed code."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from openapi_spec_validator import validate

from agentic_driver.errors import CATALOGUE, ErrorCode

SPEC_PATH = Path(__file__).resolve().parents[2] / "openapi.yaml"
SPEC: dict[str, Any] = yaml.safe_load(SPEC_PATH.read_text(encoding="utf-8"))
METHODS = ("get", "put", "post", "delete", "patch")


def _operations() -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (path, method, item[method]) for path, item in SPEC["paths"].items() for method in METHODS if method in item
    ]


def _resolve(node: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        target: Any = SPEC
        for part in node["$ref"].removeprefix("#/").split("/"):
            target = target[part]
        node = target
    return node


def test_document_is_valid_openapi_3_1() -> None:
    assert SPEC["openapi"] == "3.1.0"
    validate(SPEC)


def test_every_link_targets_an_existing_operation_and_its_parameters() -> None:
    operations = {op["operationId"]: (path, op) for path, _, op in _operations()}
    # Links that read a session only some answers have live in x-session-links (see info.description).
    links = [
        (op["operationId"], name, link)
        for _, _, op in _operations()
        for response in op["responses"].values()
        for kind in ("links", "x-session-links")
        for name, link in _resolve(response).get(kind, {}).items()
    ]
    assert len(links) >= 5
    for source, name, link in links:
        assert link["operationId"] in operations, f"{source}.{name} targets an unknown operation"
        path, target = operations[link["operationId"]]
        parameters = SPEC["paths"][path].get("parameters", []) + target.get("parameters", [])
        declared = {_resolve(p)["name"] for p in parameters}
        for parameter in link.get("parameters", {}):
            assert parameter in declared, f"{source}.{name} sets unknown parameter {parameter}"
        if "requestBody" in link or "x-request-body" in link:
            assert "requestBody" in target, f"{source}.{name} sends a body to an operation without one"


def test_every_request_body_has_examples() -> None:
    for path, method, op in _operations():
        if "requestBody" in op:
            media = op["requestBody"]["content"]["application/json"]
            assert media.get("examples") or media.get("example"), f"{method.upper()} {path} has no example"


def test_every_request_body_schema_is_closed() -> None:
    for path, method, op in _operations():
        if "requestBody" in op:
            schema = _resolve(op["requestBody"]["content"]["application/json"]["schema"])
            assert schema.get("additionalProperties") is False, f"{method.upper()} {path} accepts unknown fields"


@pytest.mark.parametrize(("path", "method", "op"), _operations(), ids=lambda v: v if isinstance(v, str) else "")
def test_error_responses_use_the_problem_schema_with_codes_of_their_status(
    path: str, method: str, op: dict[str, Any]
) -> None:
    if op.get("security", SPEC["security"]):
        assert "401" in op["responses"], f"{method.upper()} {path} is authenticated but documents no 401"
    assert "default" not in op["responses"]
    for status, response in op["responses"].items():
        if int(status) < 400:
            continue
        media = _resolve(response)["content"]["application/problem+json"]
        schema = _resolve(media["schema"])
        assert schema["allOf"] == [{"$ref": "#/components/schemas/Problem"}]
        assert schema["x-error-codes"], f"{status} of {path} lists no code"
        for code in schema["x-error-codes"]:
            assert CATALOGUE[ErrorCode(code)].status == int(status), f"{code} under {status} of {path}"


def test_catalogue_matches_the_spec_error_codes() -> None:
    assert set(SPEC["components"]["schemas"]["ErrorCode"]["enum"]) == {code.value for code in ErrorCode}
