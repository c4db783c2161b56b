"""Down-convert openapi.yaml (OpenAPI 3.1) to the OpenAPI 3.0 that progenitor reads.

    python generator/rust/downconvert.py openapi.yaml OUT.json

progenitor parses documents with the ``openapiv3`` crate, which knows only 3.0.
Every rewrite below keeps the meaning of the contract for a client; the
published openapi.yaml stays 3.1 and is not edited.

- ``openapi: 3.1.0`` -> ``3.0.3``; ``info.summary`` and ``info.license.identifier``
  (3.1 only) are dropped, they are documentation.
- ``type: [T, "null"]`` -> ``type: T`` + ``nullable: true``.
- ``const: V`` -> ``enum: [V]`` (3.0 has no ``const``; a one-value enum is the same
  constraint, and typify still turns it into a tag).
- schema ``examples: [...]`` (a JSON Schema list) -> ``example:`` its first item.
  Media-type ``examples`` (a map of Example objects) are valid 3.0 and stay.
- ``dependentSchemas`` is dropped: the spec uses it only for cross-field rules that no
  generated type can express and the host enforces (a session run carries no
  instructions, history, attachments or retrieval: ``SESSION_OVERRIDE_REJECTED``,
  ``SESSION_CONTEXT_UNSUPPORTED``; a ``nativeHistory`` other than ``full`` needs mode
  ``native``: ``VALIDATION_ERROR``).
- ``contentEncoding: base64`` is dropped: the value stays a string (as in the other
  clients); its description says it is base64.
- An open enum, ``anyOf: [{$ref: <a string enum>}, {type: string}]`` (``Problem.code``: a
  catalogue code or one added later), becomes a plain ``type: string``: typify would make
  the anyOf a struct of two optional members, and the enum alone a closed Rust enum that
  fails on a later code. The referenced enum (``ErrorCode``) is still generated, and the
  hand-written ``ProblemKind`` maps a known string onto it.

Anything else 3.1-only makes the script fail, so a new spec feature is noticed here
rather than silently mistranslated.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import yaml

# Keywords that exist in 3.1 schemas but not in 3.0 and that this script does not translate.
_UNSUPPORTED = (
    "prefixItems",
    "unevaluatedProperties",
    "unevaluatedItems",
    "$defs",
    "if",
    "dependentRequired",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "patternProperties",
    "contains",
)


def _schema_keyword_check(node: dict[str, Any], where: str) -> None:
    if not isinstance(node.get("type"), (str, list)):
        return  # not a schema (or a schema this check cannot recognise: they all state a type here)
    for keyword in _UNSUPPORTED:
        value = node.get(keyword)
        # exclusiveMinimum/Maximum are booleans in 3.0 and numbers in 3.1: only the number form is new.
        if value is not None and not (keyword.startswith("exclusive") and isinstance(value, bool)):
            raise SystemExit(f"downconvert.py: {where}: `{keyword}` has no translation to OpenAPI 3.0 here")


_LITERALS = ("example", "examples", "value")  # their contents are data, not OpenAPI


def convert(node: Any, where: str = "#") -> Any:
    if isinstance(node, list):
        return [convert(item, f"{where}/{index}") for index, item in enumerate(node)]
    if not isinstance(node, dict):
        return node
    _schema_keyword_check(node, where)
    out = {
        key: value if key in _LITERALS and not isinstance(value, list) else convert(value, f"{where}/{key}")
        for key, value in node.items()
    }
    kinds = out.get("type")
    if isinstance(kinds, list):
        concrete = [kind for kind in kinds if kind != "null"]
        if len(concrete) != 1:
            raise SystemExit(f"downconvert.py: {where}: type {kinds} has no OpenAPI 3.0 form")
        out["type"] = concrete[0]
        if "null" in kinds:
            out["nullable"] = True
    if "const" in out:
        out["enum"] = [out.pop("const")]
    if isinstance(out.get("examples"), list):
        examples = out.pop("examples")
        if examples:
            out["example"] = examples[0]
    out.pop("dependentSchemas", None)
    out.pop("contentEncoding", None)
    if _is_open_enum(out):
        return {"type": "string", **({"description": out["description"]} if "description" in out else {})}
    return out


def _is_open_enum(node: dict[str, Any]) -> bool:
    options = node.get("anyOf")
    if not (isinstance(options, list) and len(options) == 2):
        return False
    reference, other = options
    return set(reference) == {"$ref"} and other.get("type") == "string" and "enum" not in other


def downconvert(document: dict[str, Any]) -> dict[str, Any]:
    if not str(document.get("openapi", "")).startswith("3.1"):
        raise SystemExit(f"downconvert.py: expected an OpenAPI 3.1 document, got {document.get('openapi')!r}")
    converted = convert(document)
    converted["openapi"] = "3.0.3"
    converted["info"].pop("summary", None)
    converted["info"].get("license", {}).pop("identifier", None)
    for keyword in ("webhooks", "jsonSchemaDialect"):
        if keyword in converted:
            raise SystemExit(f"downconvert.py: `{keyword}` has no translation to OpenAPI 3.0 here")
    return converted


def main(source: Path, target: Path) -> None:
    document = yaml.safe_load(source.read_text(encoding="utf-8"))
    target.write_text(json.dumps(downconvert(document), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
