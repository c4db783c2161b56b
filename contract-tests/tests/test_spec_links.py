"""Every link of openapi.yaml points at an existing operation, with parameters and fields that exist.

No linter checks link targets, so this test does: the target operationId (or operationRef) exists;
each parameter names a parameter of the target (in the location given, if any); a requestBody names only
properties of the target's request body and supplies every required one; and every runtime expression
reads something the source operation really has ($request.path/query/header parameters, $request.body
and $response.body pointers through the documented schemas, $response.header names).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from agentic_driver_conformance import spec

LINKS = spec.links()
EXPRESSION = re.compile(
    r"^\$(?P<source>request|response)\.(?P<where>body|path|query|header)(?:#(?P<pointer>/.*)|\.(?P<name>.+))?$"
)


def _label(link: spec.Link) -> str:
    return f"{link.source}.{link.status}.{link.name}"


def _target(link: spec.Link) -> spec.Operation:
    operations = spec.operations()
    if "operationId" in link.definition:
        operation_id = link.definition["operationId"]
        assert operation_id in operations, f"operationId {operation_id!r} does not exist"
        return operations[operation_id]
    reference = link.definition.get("operationRef", "")
    for operation in operations.values():
        pointer = "#/paths/" + operation.path.replace("~", "~0").replace("/", "~1") + "/" + operation.method
        if reference == pointer:
            return operation
    raise AssertionError(f"operationRef {reference!r} names no operation")


def _schema_at(schema: Any, parts: list[str]) -> Any:
    """The subschema a JSON pointer reaches through properties, items and allOf; None if it cannot exist."""
    schema = spec.resolve(schema)
    if not parts:
        return schema
    if not isinstance(schema, dict):
        return None
    head, rest = parts[0], parts[1:]
    for part in schema.get("allOf", []):
        found = _schema_at(part, parts)
        if found is not None:
            return found
    if head in schema.get("properties", {}):
        return _schema_at(schema["properties"][head], rest)
    if head.isdigit() and "items" in schema:
        return _schema_at(schema["items"], rest)
    return None


def _response_schema(operation_id: str, status: str) -> Any:
    raw = _raw_operation(operation_id)
    response = spec.resolve(raw["responses"][status])
    return response.get("content", {}).get("application/json", {}).get("schema")


def _raw_operation(operation_id: str) -> dict[str, Any]:
    operation = spec.operations()[operation_id]
    raw: dict[str, Any] = spec.document()["paths"][operation.path][operation.method]
    return raw


def _check_expression(expression: str, link: spec.Link) -> None:
    match = EXPRESSION.match(expression)
    assert match is not None, f"unsupported runtime expression {expression!r}"
    source = spec.operations()[link.source]
    where, pointer, name = match["where"], match["pointer"], match["name"]
    if match["source"] == "response":
        if where == "body":
            schema = _response_schema(link.source, link.status)
            parts = [p.replace("~1", "/").replace("~0", "~") for p in (pointer or "/")[1:].split("/") if p]
            assert _schema_at(schema, parts) is not None, f"{expression}: the {link.status} response has no such field"
        else:
            assert where == "header", expression
            headers = spec.resolve(_raw_operation(link.source)["responses"][link.status]).get("headers", {})
            assert name and name.lower() in {h.lower() for h in headers}, f"{expression}: undocumented header"
        return
    if where == "body":
        parts = [p for p in (pointer or "/")[1:].split("/") if p]
        assert source.request_schema is not None, f"{expression}: {link.source} has no request body"
        assert _schema_at(source.request_schema, parts) is not None, f"{expression}: no such request field"
        return
    raw = _raw_operation(link.source)
    item = spec.document()["paths"][source.path]
    declared = [spec.resolve(p) for p in [*item.get("parameters", []), *raw.get("parameters", [])]]
    assert any(p["in"] == where and p["name"] == name for p in declared), f"{expression}: no such parameter"


def _expressions(value: Any) -> list[str]:
    if isinstance(value, str) and value.startswith("$"):
        return [value]
    if isinstance(value, dict):
        return [e for item in value.values() for e in _expressions(item)]
    if isinstance(value, list):
        return [e for item in value for e in _expressions(item)]
    return []


def _check_body(template: Any, schema: Any, where: str) -> None:
    schema = spec.resolve(schema)
    if not isinstance(template, dict) or not isinstance(schema, dict):
        return
    properties: dict[str, Any] = {}
    required: set[str] = set()
    for part in [schema, *[spec.resolve(p) for p in schema.get("allOf", [])]]:
        properties.update(part.get("properties", {}))
        required.update(part.get("required", []))
    unknown = set(template) - set(properties)
    assert not unknown, f"{where}: the target body has no {sorted(unknown)}"
    missing = required - set(template)
    assert not missing, f"{where}: the link leaves out required {sorted(missing)}"
    for key, value in template.items():
        if not (isinstance(value, str) and value.startswith("$")):
            _check_body(value, properties[key], f"{where}.{key}")


def test_the_spec_has_links() -> None:
    assert LINKS, "openapi.yaml defines no links"


@pytest.mark.parametrize("link", LINKS, ids=[_label(link) for link in LINKS])
def test_link_points_at_an_existing_operation_with_existing_parameters(link: spec.Link) -> None:
    target = _target(link)
    parameters = link.definition.get("parameters", {})
    item = spec.document()["paths"][target.path]
    raw = item[target.method]
    declared = [spec.resolve(p) for p in [*item.get("parameters", []), *raw.get("parameters", [])]]
    for key in parameters:
        location, _, name = key.rpartition(".")
        assert any(p["name"] == name and (not location or p["in"] == location) for p in declared), (
            f"{target.operation_id} has no parameter {key!r}"
        )
    required_path = set(target.path_parameters)
    assert required_path <= {key.rpartition(".")[2] for key in parameters}, (
        f"the link must supply every path parameter of {target.operation_id}: {sorted(required_path)}"
    )
    if link.request_body is not None:
        assert target.request_schema is not None, f"{target.operation_id} takes no request body"
        _check_body(link.request_body, target.request_schema, "requestBody")
    for expression in _expressions(parameters) + _expressions(link.request_body):
        _check_expression(expression, link)


PUBLISHED = [link for link in LINKS if link.published]


@pytest.mark.parametrize("link", PUBLISHED, ids=[_label(link) for link in PUBLISHED])
def test_published_link_bodies_are_what_openapi_defines(link: spec.Link) -> None:
    """OpenAPI defines a link's requestBody as a literal or one runtime expression for the whole body.

    An object with expressions inside is neither (openapi-generator refuses it: "requestBody is not of type
    string"); such a template belongs in the link's x-request-body, which only our harness reads.
    """
    body = link.definition.get("requestBody")
    nested = not isinstance(body, str) and bool(_expressions(body))
    assert not nested, f"requestBody {body!r} nests runtime expressions: move it to {spec.REQUEST_BODY}"


@pytest.mark.parametrize("link", PUBLISHED, ids=[_label(link) for link in PUBLISHED])
def test_published_links_read_only_fields_every_answer_has(link: spec.Link) -> None:
    """A tool follows every link of a response, so each $response.body field it reads must be required there.

    A link that holds only for some bodies (a run's `session`, present for session runs only) belongs in the
    response's x-session-links.
    """
    schema = _response_schema(link.source, link.status)
    expressions = _expressions(link.definition.get("parameters", {})) + _expressions(link.request_body)
    for expression in expressions:
        match = EXPRESSION.match(expression)
        if match is None or match["source"] != "response" or match["where"] != "body":
            continue
        parts = [p.replace("~1", "/").replace("~0", "~") for p in (match["pointer"] or "/")[1:].split("/") if p]
        assert _required_at(schema, parts), (
            f"{expression}: not every {link.status} answer of {link.source} has it; use {spec.SESSION_LINKS}"
        )


def test_session_links_are_the_links_of_session_results() -> None:
    """The moved links are still there for the harness (and a reader), and each reads the answer's session."""
    session_links = [link for link in LINKS if not link.published]
    assert {(link.source, link.name) for link in session_links} >= {("run", "nextRun"), ("run", "readRunSession")}
    for link in session_links:
        reads = _expressions(link.definition.get("parameters", {})) + _expressions(link.request_body)
        assert any(expression.startswith("$response.body#/session/") for expression in reads), link.name


def _required_at(schema: Any, parts: list[str]) -> bool:
    """Whether every instance of ``schema`` has the member a JSON pointer names (required at every step)."""
    schema = spec.resolve(schema)
    if not parts:
        return True
    if not isinstance(schema, dict):
        return False
    head, rest = parts[0], parts[1:]
    for part in schema.get("allOf", []):
        if _required_at(part, parts):
            return True
    if head in schema.get("properties", {}) and head in schema.get("required", []):
        return _required_at(schema["properties"][head], rest)
    return False
