"""The contract, read straight from openapi.yaml: operations, documented statuses, problem codes, links.

Nothing here is hard-coded per operation: a new operation in the spec is picked
up by every consumer (metrics, coverage bars, the scenario runner, the link test).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any

import yaml
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from .resources import SPEC_PATH

HTTP_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")

# Codes the spec documents as answering requests outside every operation (ErrorCode's description says so).
OUTSIDE_OPERATIONS = frozenset(
    {"ROUTE_NOT_FOUND", "METHOD_NOT_ALLOWED", "INTERNAL_ERROR", "HEADERS_TOO_LARGE", "MALFORMED_REQUEST"}
)


@dataclass(frozen=True)
class Operation:
    operation_id: str
    method: str
    path: str
    tags: tuple[str, ...]
    path_parameters: tuple[str, ...]
    statuses: tuple[str, ...]
    """Documented response statuses, as written in the spec ("200", "404", ...)."""
    codes_by_status: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Per documented error status: the problem codes its schema allows."""
    request_schema: dict[str, Any] | None = None
    response_media_types: dict[str, tuple[str, ...]] = field(default_factory=dict)

    @property
    def label(self) -> str:
        return f"{self.method.upper()} {self.path}"


@functools.cache
def document() -> dict[str, Any]:
    with open(SPEC_PATH, encoding="utf-8") as handle:
        loaded: dict[str, Any] = yaml.safe_load(handle)
    return loaded


def resolve(node: Any, doc: dict[str, Any] | None = None) -> Any:
    """Follow local ``$ref``s until a concrete node."""
    doc = doc or document()
    while isinstance(node, dict) and "$ref" in node:
        pointer = node["$ref"]
        assert pointer.startswith("#/"), f"only local references are supported: {pointer}"
        node = doc
        for part in pointer[2:].split("/"):
            node = node[part.replace("~1", "/").replace("~0", "~")]
    return node


def problem_codes(schema: Any, doc: dict[str, Any] | None = None) -> tuple[str, ...] | None:
    """The codes a per-status problem schema lists in ``x-error-codes`` (the known codes of that answer), or None."""
    schema = resolve(schema, doc)
    codes = schema.get("x-error-codes") if isinstance(schema, dict) else None
    return tuple(codes) if isinstance(codes, list) else None


@functools.cache
def operations() -> dict[str, Operation]:
    doc = document()
    found: dict[str, Operation] = {}
    for path, item in doc["paths"].items():
        shared = item.get("parameters", [])
        for method in HTTP_METHODS:
            raw = item.get(method)
            if raw is None:
                continue
            parameters = [resolve(p, doc) for p in [*shared, *raw.get("parameters", [])]]
            codes: dict[str, tuple[str, ...]] = {}
            media: dict[str, tuple[str, ...]] = {}
            for status, response in raw.get("responses", {}).items():
                response = resolve(response, doc)
                content = response.get("content", {})
                media[status] = tuple(content)
                for body in content.values():
                    enum = problem_codes(body.get("schema"), doc)
                    if enum is not None:
                        codes[status] = enum
            request_schema = None
            body = resolve(raw.get("requestBody"), doc) if raw.get("requestBody") else None
            if body is not None:
                request_schema = body.get("content", {}).get("application/json", {}).get("schema")
            found[raw["operationId"]] = Operation(
                operation_id=raw["operationId"],
                method=method,
                path=path,
                tags=tuple(raw.get("tags", [])),
                path_parameters=tuple(p["name"] for p in parameters if p.get("in") == "path"),
                statuses=tuple(raw.get("responses", {})),
                codes_by_status=codes,
                request_schema=request_schema,
                response_media_types=media,
            )
    return found


def catalogue() -> tuple[str, ...]:
    """Every error code of the contract: the enum of components.schemas.ErrorCode (also when the schema wraps it,
    say in an ``anyOf`` that leaves the set open to codes added later). Never a list kept here."""

    def enum_of(node: Any) -> list[str] | None:
        node = resolve(node)
        if isinstance(node, dict):
            if isinstance(node.get("enum"), list):
                return list(node["enum"])
            for key in ("anyOf", "oneOf", "allOf"):
                for part in node.get(key, []):
                    found = enum_of(part)
                    if found is not None:
                        return found
        return None

    codes = enum_of(document()["components"]["schemas"]["ErrorCode"])
    assert codes is not None, "components.schemas.ErrorCode lists no codes"
    return tuple(codes)


@functools.cache
def _registry() -> Registry:
    resource = Resource.from_contents(document(), default_specification=DRAFT202012)
    return Registry().with_resources([("urn:contract", resource)])


def validator_for(schema: dict[str, Any]) -> Draft202012Validator:
    """A JSON Schema 2020-12 validator for a schema taken from the spec (its ``#/components`` refs resolve)."""
    rooted = _reroot(schema)
    return Draft202012Validator(rooted, registry=_registry())


def _reroot(node: Any) -> Any:
    if isinstance(node, dict):
        return {k: ("urn:contract" + v if k == "$ref" and v.startswith("#") else _reroot(v)) for k, v in node.items()}
    if isinstance(node, list):
        return [_reroot(item) for item in node]
    return node


@functools.cache
def request_validator(operation_id: str) -> Draft202012Validator | None:
    schema = operations()[operation_id].request_schema
    return validator_for(schema) if schema is not None else None


SESSION_LINKS = "x-session-links"
"""A response's links that hold only when its body carries a ``session`` (openapi.yaml's info.description)."""
REQUEST_BODY = "x-request-body"
"""A link's request body template: an object whose string values starting with ``$`` are runtime expressions."""


@dataclass(frozen=True)
class Link:
    source: str
    status: str
    name: str
    definition: dict[str, Any]
    published: bool = True
    """False for the links of a response's ``x-session-links``, which hold only for session results."""

    @property
    def request_body(self) -> Any:
        """The body this link sends: its ``x-request-body`` template (or a plain ``requestBody``), or None."""
        return self.definition.get(REQUEST_BODY, self.definition.get("requestBody"))


def links(doc: dict[str, Any] | None = None) -> list[Link]:
    """Every link of every response of every operation: its ``links`` and its ``x-session-links``."""
    doc = doc or document()
    found = []
    for item in doc["paths"].values():
        for method in HTTP_METHODS:
            raw = item.get(method)
            if raw is None:
                continue
            for status, response in raw.get("responses", {}).items():
                response = resolve(response, doc)
                for published, key in ((True, "links"), (False, SESSION_LINKS)):
                    for name, link in (response.get(key) or {}).items():
                        found.append(Link(raw["operationId"], status, name, resolve(link, doc), published))
    return found


def with_contract_links(raw: dict[str, Any]) -> dict[str, Any]:
    """The spec (adjusted in place) with every link as our own stateful tests follow it: the only rewrite left.

    Each response's ``x-session-links`` join its ``links`` (our stateful phase follows them from session results;
    from a stateless result schemathesis finds no ``session`` and skips the step), and each link's
    ``x-request-body`` becomes its ``requestBody``, sent exactly as written (``merge_body`` off): generated extras
    (instructions, history, attachments) would be refused before the session rules the links exist to reach.
    Nothing about schemas changes: schemathesis validates every answer against the document as published.
    """
    for item in raw.get("paths", {}).values():
        for method in HTTP_METHODS:
            for response in ((item.get(method) or {}).get("responses") or {}).values():
                if not isinstance(response, dict):
                    continue
                extra = response.pop(SESSION_LINKS, None) or {}
                if extra:
                    response["links"] = {**(response.get("links") or {}), **extra}
                for link in (response.get("links") or {}).values():
                    if REQUEST_BODY in link:
                        link["requestBody"] = link.pop(REQUEST_BODY)
                        link.setdefault("x-schemathesis", {})["merge_body"] = False
    return raw
