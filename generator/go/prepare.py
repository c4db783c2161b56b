"""Prepare the spec for ogen: one JSON Schema no-op that ogen needs spelled out.

    python generator/go/prepare.py openapi.yaml OUT.json

ogen reads an object schema with neither ``properties`` nor ``additionalProperties``
(``FunctionCall.arguments``, ``ToolDefinition.parameters``: any JSON object) as an
empty struct and drops every member on decoding. In JSON Schema an absent
``additionalProperties`` already allows any member, so stating
``additionalProperties: true`` changes nothing about the contract, and ogen then
generates ``map[string]jx.Raw``, which keeps the members. Everything else passes
through unchanged; the published openapi.yaml is not edited.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import yaml

_SHAPING_KEYWORDS = ("properties", "additionalProperties", "patternProperties", "allOf", "anyOf", "oneOf", "$ref")


def prepare(node: Any) -> Any:
    if isinstance(node, list):
        return [prepare(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: prepare(value) for key, value in node.items()}
    if out.get("type") == "object" and not any(key in out for key in _SHAPING_KEYWORDS):
        out["additionalProperties"] = True
    return out


def main(source: Path, target: Path) -> None:
    document = yaml.safe_load(source.read_text(encoding="utf-8"))
    target.write_text(json.dumps(prepare(document), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
