"""The spec as the SSE-aware client generators read it: each event stream's schema is its events' ``data``.

    python generator/event_streams.py openapi.yaml OUT.json

openapi.yaml describes a ``text/event-stream`` answer the OpenAPI 3.2 way: its schema is one SSE message
(``RunEventMessage``: ``id``, ``event``, and ``data`` whose ``contentMediaType: application/json`` +
``contentSchema`` is ``RunEvent``). ogen and @hey-api/openapi-ts model event streams the pre-3.2 way
instead: they read the schema of an event-stream answer as the schema of each message's ``data`` (ogen
generates ``{ID, Type, Data RunEvent, Retry}`` from it, openapi-ts an SSE method yielding ``RunEvent``),
and progenitor answers any event stream with a byte stream. So for those generators each event-stream
schema that is such a message envelope is replaced by its ``data``'s ``contentSchema``, and the envelope
component is dropped once nothing refers to it. Their output is then what it was before the spec spelled
the envelope out, and the hand-written stream layers keep their generated ``RunEvent`` union.

The ``contentSchema`` is open: ``anyOf: [RunEvent, LaterRunEvent]``, the union of the event types this
version defines, or an event of a type added later. The generators get the first option only: a typed
union of the known events is what their stream methods can yield, and each hand-written stream layer
keeps an event of another type itself (``UnknownEvent``, tested in every client). A component that
nothing refers to any more (the envelope, ``LaterRunEvent``) is dropped.

Anything else about an event stream (a schema that is not such an envelope) makes this fail, so a new
shape is noticed here rather than passed on misread. openapi-python-client and datamodel-code-generator
read openapi.yaml itself: neither streams, and the envelope is an accurate type for one message.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import yaml

EVENT_STREAM = "text/event-stream"
_COMPONENT = "#/components/schemas/"


def _resolve(document: dict[str, Any], node: Any) -> Any:
    while isinstance(node, dict) and "$ref" in node:
        reference = node["$ref"]
        if not reference.startswith(_COMPONENT):
            raise SystemExit(f"event_streams.py: unsupported reference {reference!r}")
        node = document["components"]["schemas"][reference.removeprefix(_COMPONENT)]
    return node


def _data_schema(document: dict[str, Any], schema: Any, where: str) -> Any:
    envelope = _resolve(document, schema)
    data = (envelope.get("properties") or {}).get("data") if isinstance(envelope, dict) else None
    if not (
        isinstance(data, dict)
        and data.get("type") == "string"
        and data.get("contentMediaType") == "application/json"
        and "contentSchema" in data
    ):
        raise SystemExit(f"event_streams.py: {where}: the schema is not an SSE message with JSON `data`")
    content = data["contentSchema"]
    options = content.get("anyOf") if isinstance(content, dict) else None
    if options is None:
        return content
    if not (options and all(isinstance(option, dict) and set(option) == {"$ref"} for option in options)):
        raise SystemExit(f"event_streams.py: {where}: an open `contentSchema` must be an anyOf of references")
    return options[0]


def _references(node: Any) -> set[str]:
    if isinstance(node, list):
        return set().union(*(_references(item) for item in node)) if node else set()
    if not isinstance(node, dict):
        return set()
    found = {node["$ref"]} if isinstance(node.get("$ref"), str) else set()
    return found.union(*(_references(value) for value in node.values()))


def events_as_data(document: dict[str, Any]) -> dict[str, Any]:
    """A copy of ``document`` whose event-stream schemas are their messages' ``data`` schemas."""
    out: dict[str, Any] = json.loads(json.dumps(document))
    dropped: set[str] = set()
    for path, item in out.get("paths", {}).items():
        for method, operation in item.items():
            responses = operation.get("responses", {}) if isinstance(operation, dict) else {}
            for status, response in responses.items():
                media = (response.get("content") or {}).get(EVENT_STREAM)
                if media is None or "schema" not in media:
                    continue
                where = f"{method.upper()} {path} {status}"
                schema = media["schema"]
                if isinstance(schema, dict) and "$ref" in schema:
                    dropped.add(schema["$ref"])
                media["schema"] = _data_schema(out, schema, where)
                dropped |= _references(_resolve(out, schema)) - _references(media["schema"])
                # The examples show whole messages; the data schema would not match them.
                media.pop("example", None)
                media.pop("examples", None)
    schemas = out.get("components", {}).get("schemas", {})
    while unused := {ref for ref in dropped if ref.removeprefix(_COMPONENT) in schemas} - _references(out):
        for reference in unused:
            del schemas[reference.removeprefix(_COMPONENT)]
    return out


def main(source: Path, target: Path) -> None:
    document = yaml.safe_load(source.read_text(encoding="utf-8"))
    target.write_text(json.dumps(events_as_data(document), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
