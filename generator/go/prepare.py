"""Prepare the spec for ogen: two rewrites that ogen needs and that keep the contract's meaning for Go.

    python generator/go/prepare.py openapi.yaml OUT.json

ogen reads an object schema with neither ``properties`` nor ``additionalProperties``
(``FunctionCall.arguments``, ``ToolDefinition.parameters``: any JSON object) as an
empty struct and drops every member on decoding. In JSON Schema an absent
``additionalProperties`` already allows any member, so stating
``additionalProperties: true`` changes nothing about the contract, and ogen then
generates ``map[string]jx.Raw``, which keeps the members.

An open enum, ``anyOf: [{$ref: <a string enum>}, {type: string}]`` (``Problem.code``: a catalogue
code, or a code added after this version), is a "complex anyOf" that ogen does not implement. It
becomes the ``$ref`` alone: ogen generates a string enum as ``type ErrorCode string`` with one
constant per known value, and its decoder keeps any other string, so the Go type is as open as the
contract (the hand-written problem parser never validates it against the known values).

The ``X-Request-Id`` response header that every answer declares is left out: ogen turns a response
with a declared header into a ``<Name>Headers`` wrapper type, which would change every operation's
result type for one string that the hand-written layer reads from the HTTP response anyway
(``RequestID`` on ``*Problem`` errors, and the raw response on success).

Everything else passes through unchanged; the published openapi.yaml is not edited.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import yaml

_SHAPING_KEYWORDS = ("properties", "additionalProperties", "patternProperties", "allOf", "anyOf", "oneOf", "$ref")


def _open_enum_reference(node: dict[str, Any]) -> dict[str, Any] | None:
    """The ``$ref`` of an open enum (``anyOf`` of a reference and a plain string), else None."""
    options = node.get("anyOf")
    if not (isinstance(options, list) and len(options) == 2):
        return None
    reference, other = options
    if set(reference) == {"$ref"} and other.get("type") == "string" and "enum" not in other:
        return {"$ref": reference["$ref"]}
    return None


def prepare(node: Any) -> Any:
    if isinstance(node, list):
        return [prepare(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: prepare(value) for key, value in node.items()}
    reference = _open_enum_reference(out)
    if reference is not None:
        return reference
    if out.get("type") == "object" and not any(key in out for key in _SHAPING_KEYWORDS):
        out["additionalProperties"] = True
    return out


REQUEST_ID_HEADER = "X-Request-Id"


def _responses(document: dict[str, Any]) -> list[dict[str, Any]]:
    found = list(document.get("components", {}).get("responses", {}).values())
    for operations in document.get("paths", {}).values():
        for operation in operations.values():
            if isinstance(operation, dict):
                found += operation.get("responses", {}).values()
    return [response for response in found if isinstance(response, dict)]


def without_request_id_header(document: dict[str, Any]) -> dict[str, Any]:
    for response in _responses(document):
        headers = response.get("headers")
        if isinstance(headers, dict) and REQUEST_ID_HEADER in headers:
            del headers[REQUEST_ID_HEADER]
            if not headers:
                del response["headers"]
    return document


def main(source: Path, target: Path) -> None:
    document = without_request_id_header(yaml.safe_load(source.read_text(encoding="utf-8")))
    target.write_text(json.dumps(prepare(document), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
