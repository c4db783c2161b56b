"""Write each client's table of per-operation facts from openapi.yaml, or check that none has drifted.

    python generator/operations.py          # write the generated tables (part of make generate)
    python generator/operations.py --check  # fail, naming each file, if a committed table differs

Per operation, from the spec: its method and path template; whether it takes an ``Idempotency-Key`` (it
declares that header parameter); and which id routes it (``x-routing-id``: a path parameter, or a JSON pointer
into the request body, for the operations that declare the ``Agentic-Host`` header). The transports of the
TypeScript and Go clients, which see every request (their raw generated calls too), look an outgoing request
up in the table instead of matching paths of their own:

- clients/typescript/src/operations.gen.ts
- clients/go/operations_gen.go

and the Python SDK and the Rust client build each call from its row (clients/python/agentic_driver_sdk/_operations.py,
clients/rust/src/operations.rs).
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "generator"))  # also when a test loads this file by its path

from outputs import gofmt, run_table_generator  # noqa: E402
from rustfmt import rustfmt  # noqa: E402

SPEC = ROOT / "openapi.yaml"
METHODS = ("get", "post", "put", "patch", "delete")
IDEMPOTENCY_HEADER = "Idempotency-Key"
ROUTING_HEADER = "Agentic-Host"


class OperationsError(Exception):
    """The spec's operations cannot be tabled; the message names the operation and why."""


@dataclass(frozen=True, slots=True)
class Operation:
    id: str
    method: str
    path: str
    idempotency_key: bool
    routing_param: str | None
    """The path parameter whose id routes the request."""
    routing_pointer: tuple[str, ...] | None
    """The body members whose id routes the request (``("session", "id")``)."""

    @property
    def pattern(self) -> str:
        """The path template as an anchored regular expression, each parameter one segment (a named group)."""
        parts = re.split(r"\{(\w+)\}", self.path)
        return (
            "^" + "".join(re.escape(part) if i % 2 == 0 else f"(?P<{part}>[^/]+)" for i, part in enumerate(parts)) + "$"
        )


def load_operations(spec_path: Path = SPEC) -> list[Operation]:
    spec = yaml.safe_load(spec_path.read_text(encoding="utf-8"))
    parameters: dict[str, dict[str, Any]] = spec.get("components", {}).get("parameters", {})
    schemas: dict[str, dict[str, Any]] = spec["components"]["schemas"]
    found = [
        _operation(path, method, item, op, parameters, schemas)
        for path, item in spec["paths"].items()
        for method, op in item.items()
        if method in METHODS
    ]
    _check_paths_route_alike(found)
    # Literal paths before templated ones, so /v1/runs/stream is streamRun before it could be getRun's {runId}.
    return sorted(found, key=lambda op: (op.path.count("{"), op.path, op.method))


def _check_paths_route_alike(operations: list[Operation]) -> None:
    """The operations of one path route by the same id, so a request's path alone says how it routes."""
    by_path: dict[str, Operation] = {}
    for op in operations:
        first = by_path.setdefault(op.path, op)
        if (op.routing_param, op.routing_pointer) != (first.routing_param, first.routing_pointer):
            raise OperationsError(f"{op.id}: routes otherwise than {first.id}, on the same path {op.path}")


def _operation(
    path: str,
    method: str,
    item: dict[str, Any],
    op: dict[str, Any],
    parameters: dict[str, dict[str, Any]],
    schemas: dict[str, dict[str, Any]],
) -> Operation:
    name = op["operationId"]
    declared = [_resolve(p, parameters) for p in [*item.get("parameters", []), *op.get("parameters", [])]]
    headers = {p["name"] for p in declared if p["in"] == "header"}
    path_params = {p["name"] for p in declared if p["in"] == "path"}
    routing = op.get("x-routing-id")
    if (routing is not None) != (ROUTING_HEADER in headers):
        raise OperationsError(f"{name}: x-routing-id and the {ROUTING_HEADER} header parameter go together")
    param, pointer = None, None
    if routing is not None:
        param, pointer = _routing(name, routing, path_params, _body_schema(op, schemas), schemas)
    return Operation(name, method.upper(), path, IDEMPOTENCY_HEADER in headers, param, pointer)


def _routing(
    name: str,
    routing: dict[str, Any],
    path_params: set[str],
    body: dict[str, Any] | None,
    schemas: dict[str, dict[str, Any]],
) -> tuple[str | None, tuple[str, ...] | None]:
    where = f"{name}: x-routing-id"
    if routing.get("in") == "path":
        if routing.get("name") not in path_params:
            raise OperationsError(f"{where}: {routing.get('name')!r} is not a path parameter of the operation")
        return str(routing["name"]), None
    if routing.get("in") == "body" and isinstance(routing.get("pointer"), str):
        members = tuple(part for part in str(routing["pointer"]).split("/") if part)
        schema = body
        for member in members:
            schema = _resolve_schema(schema, schemas)
            properties = (schema or {}).get("properties", {})
            if member not in properties:
                raise OperationsError(f"{where}: the request body has no {routing['pointer']}")
            schema = properties[member]
        return None, members
    raise OperationsError(f"{where}: {{in: path, name: P}} or {{in: body, pointer: /a/b}}, not {routing!r}")


def _resolve(parameter: dict[str, Any], parameters: dict[str, dict[str, Any]]) -> dict[str, Any]:
    return parameters[parameter["$ref"].rsplit("/", 1)[1]] if "$ref" in parameter else parameter


def _resolve_schema(schema: dict[str, Any] | None, schemas: dict[str, dict[str, Any]]) -> dict[str, Any] | None:
    while schema is not None and "$ref" in schema:
        schema = schemas[schema["$ref"].rsplit("/", 1)[1]]
    if schema is not None and "anyOf" in schema:  # an optional member: {anyOf: [{$ref}, {type: null}]}
        schema = next((s for s in schema["anyOf"] if "$ref" in s or "properties" in s), schema)
        return _resolve_schema(schema, schemas)
    return schema


def _body_schema(op: dict[str, Any], schemas: dict[str, dict[str, Any]]) -> dict[str, Any] | None:
    content = op.get("requestBody", {}).get("content", {})
    return _resolve_schema(content.get("application/json", {}).get("schema"), schemas)


# -- TypeScript ---------------------------------------------------------------------------------------------------


def render_typescript(operations: list[Operation]) -> str:
    rows = "".join(_ts_row(op) for op in operations)
    return (
        "// Generated from openapi.yaml by generator/operations.py. DO NOT EDIT.\n"
        "// Per operation: its method and path, whether it takes an Idempotency-Key, and the id that routes it\n"
        "// (x-routing-id). The transport looks every outgoing request up here (operationOf).\n\n"
        "/** Where the id that routes a request is: a path parameter, or members of the JSON body. */\n"
        "export type Routing =\n"
        "  | { readonly in: 'path'; readonly name: string }\n"
        "  | { readonly in: 'body'; readonly pointer: readonly string[] };\n\n"
        "export interface OperationFacts {\n"
        "  readonly id: string;\n  readonly method: string;\n  readonly path: RegExp;\n"
        "  readonly idempotencyKey: boolean;\n  readonly routing?: Routing;\n}\n\n"
        f"export const OPERATIONS: readonly OperationFacts[] = [\n{rows}];\n\n"
        "/**\n"
        " * The operation a request is (by its method and path), or undefined for one outside the contract.\n"
        " * Without a method, the first operation on the path: every operation of a path routes alike.\n"
        " */\n"
        "export function operationOf(method: string | undefined, path: string): OperationFacts | undefined {\n"
        "  return OPERATIONS.find((op) => (method === undefined || op.method === method) && op.path.test(path));\n"
        "}\n"
    )


def _ts_row(op: Operation) -> str:
    pattern = op.pattern.replace("/", "\\/").replace("(?P<", "(?<")
    routing = ""
    if op.routing_param is not None:
        routing = f", routing: {{ in: 'path', name: {json.dumps(op.routing_param)} }}"
    elif op.routing_pointer is not None:
        routing = f", routing: {{ in: 'body', pointer: {json.dumps(list(op.routing_pointer))} }}"
    key = "true" if op.idempotency_key else "false"
    return (
        f"  {{ id: {json.dumps(op.id)}, method: {json.dumps(op.method)}, path: /{pattern}/, "
        f"idempotencyKey: {key}{routing} }},\n"
    )


# -- Go -----------------------------------------------------------------------------------------------------------


def render_go(operations: list[Operation]) -> str:
    rows = "".join(_go_row(op) for op in operations)
    source = (
        "// Code generated from openapi.yaml by generator/operations.py. DO NOT EDIT.\n\n"
        "package agenticdriver\n\n"
        'import "regexp"\n\n'
        "// operationFacts is what the transport needs of one operation: its method and path, whether it\n"
        "// takes an Idempotency-Key, and the id that routes it (x-routing-id): a path parameter\n"
        "// (routingParam) or members of the JSON body (routingPointer).\n"
        "type operationFacts struct {\n"
        "\tid             string\n\tmethod         string\n\tpath           *regexp.Regexp\n"
        "\tidempotencyKey bool\n\troutingParam   string\n\troutingPointer []string\n}\n\n"
        f"var operations = []operationFacts{{\n{rows}}}\n\n"
        "// operationOf is the operation a request is, by its method and (escaped) path, or nil.\n"
        "func operationOf(method, path string) *operationFacts {\n"
        "\tfor i := range operations {\n"
        "\t\tif operations[i].method == method && operations[i].path.MatchString(path) {\n"
        "\t\t\treturn &operations[i]\n\t\t}\n\t}\n\treturn nil\n}\n"
    )
    return gofmt(source, "the operations table", OperationsError)


def _go_row(op: Operation) -> str:
    pointer = (
        "nil" if op.routing_pointer is None else "[]string{" + ", ".join(map(json.dumps, op.routing_pointer)) + "}"
    )
    key, param = "true" if op.idempotency_key else "false", json.dumps(op.routing_param or "")
    return (
        f"\t{{id: {json.dumps(op.id)}, method: {json.dumps(op.method)}, path: regexp.MustCompile(`{op.pattern}`), "
        f"idempotencyKey: {key}, routingParam: {param}, routingPointer: {pointer}}},\n"
    )


# -- Python -------------------------------------------------------------------------------------------------------

PYTHON_HEADER = '''# Generated from openapi.yaml by generator/operations.py. DO NOT EDIT.
"""Per operation: its method and path template, whether it takes an Idempotency-Key, and the id that routes it
(x-routing-id: a path parameter, or members of the JSON body). ``_plans`` builds every call from it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Operation:
    method: str
    path: str
    """The path template (``/v1/sessions/{sessionId}``)."""
    idempotency_key: bool
    routing_param: str | None = None
    routing_pointer: tuple[str, ...] | None = None


OPERATIONS: Mapping[str, Operation] = {
'''


def render_python(operations: list[Operation]) -> str:
    rows = "".join(_python_row(op) for op in sorted(operations, key=lambda op: op.id))
    return PYTHON_HEADER + rows + "}\n"


def _python_row(op: Operation) -> str:
    routing = ""
    if op.routing_param is not None:
        routing = f", routing_param={json.dumps(op.routing_param)}"
    elif op.routing_pointer is not None:
        routing = f", routing_pointer={tuple(op.routing_pointer)!r}".replace("'", '"')
    facts = f"{json.dumps(op.method)}, {json.dumps(op.path)}, {op.idempotency_key}{routing}"
    return f"    {json.dumps(op.id)}: Operation({facts}),\n"


# -- Rust ---------------------------------------------------------------------------------------------------------

RUST_HEADER = """// Generated from openapi.yaml by generator/operations.py. DO NOT EDIT.

//! Per operation: its method and path template, whether it takes an `Idempotency-Key`, and the id
//! that routes it (`x-routing-id`: a path parameter, or members of the JSON body). Each method of
//! [`crate::Client`] builds its call from its operation's row (`call.rs`).

// The client wraps not every operation (`Client::raw` has them all), and only its tests read some facts.
#![allow(dead_code)]

/// Where the id that routes a request is: `Agentic-Host` names the host that owns it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Routing {
    /// The request names no session or run.
    None,
    /// The path parameter of this name.
    PathParam(&'static str),
    /// These members of the JSON body (`["session", "id"]`).
    BodyPointer(&'static [&'static str]),
}

/// The facts of one operation of openapi.yaml.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Operation {
    /// The `operationId`.
    pub(crate) id: &'static str,
    pub(crate) method: &'static str,
    /// The path template (`/v1/sessions/{sessionId}`).
    pub(crate) path: &'static str,
    /// The operation declares the `Idempotency-Key` header.
    pub(crate) takes_idempotency_key: bool,
    pub(crate) routing: Routing,
}
"""


def render_rust(operations: list[Operation]) -> str:
    consts = "".join(_rust_row(op) for op in operations)
    listed = ", ".join(f"&{_rust_name(op)}" for op in operations)
    source = (
        f"{RUST_HEADER}{consts}\n"
        "/// Every operation, literal paths before templated ones.\n"
        f"pub(crate) const OPERATIONS: [&Operation; {len(operations)}] = [{listed}];\n"
    )
    return rustfmt(source, "the Rust operations table", OperationsError)


def _rust_name(op: Operation) -> str:
    """``streamRunEvents`` -> ``STREAM_RUN_EVENTS``."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", op.id).upper()


def _rust_row(op: Operation) -> str:
    routing = "Routing::None"
    if op.routing_param is not None:
        routing = f"Routing::PathParam({json.dumps(op.routing_param)})"
    elif op.routing_pointer is not None:
        routing = f"Routing::BodyPointer(&[{', '.join(map(json.dumps, op.routing_pointer))}])"
    key = "true" if op.idempotency_key else "false"
    return (
        f"\n/// `{op.method} {op.path}` (`{op.id}`).\n"
        f"pub(crate) const {_rust_name(op)}: Operation = Operation {{ id: {json.dumps(op.id)}, "
        f"method: {json.dumps(op.method)}, path: {json.dumps(op.path)}, takes_idempotency_key: {key}, "
        f"routing: {routing} }};\n"
    )


# -- writing and checking -----------------------------------------------------------------------------------------

OUTPUTS: dict[str, Callable[[list[Operation]], str]] = {
    "clients/typescript/src/operations.gen.ts": render_typescript,
    "clients/go/operations_gen.go": render_go,
    "clients/python/agentic_driver_sdk/_operations.py": render_python,
    "clients/rust/src/operations.rs": render_rust,
}


def main() -> int:
    return run_table_generator(
        __doc__,
        load_operations,
        OUTPUTS,
        refusal=OperationsError,
        name="operations",
        source="openapi.yaml's operations",
    )


if __name__ == "__main__":
    sys.exit(main())
