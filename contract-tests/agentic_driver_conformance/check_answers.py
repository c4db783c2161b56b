"""Reading what the contract checks (``checks.py``) judge: a schemathesis case and the answer to it.

The operationId of a case, the session handle (id, revision) a run request sends, an answer's JSON body and
headers, its SSE messages (``parse_event_stream``, also how the scenario player reads a stream) and the run a
200 answers with, from the body or from a stream's terminal event.
"""

from __future__ import annotations

import json
from typing import Any, TypeAlias

from schemathesis import APIOperation, BaseSchema, Response
from schemathesis.generation.case import Case

OperationCase: TypeAlias = Case[APIOperation[Any, Any, Any, BaseSchema]]
"""A case schemathesis generated for one operation of a loaded schema (``Case`` is generic in its operation)."""


def case_operation_id(case: OperationCase) -> str | None:
    return case.operation.schema.get_operation_id(case.operation)


def json_body(response: Response) -> Any:
    try:
        return json.loads(response.content or b"null")
    except ValueError:
        return None


def header(response: Response, name: str) -> str | None:
    values = response.headers.get(name.lower())
    return values[0] if values else None


def parse_event_stream(content: bytes) -> list[dict[str, str]]:
    """SSE messages as ``{"id", "event", "data", ...}`` fields (comment lines and data-less messages skipped)."""
    messages: list[dict[str, str]] = []
    current: dict[str, str] = {}
    for raw_line in content.decode("utf-8", "replace").splitlines():
        if not raw_line:
            if "data" in current:
                messages.append(current)
            current = {}
            continue
        if raw_line.startswith(":"):
            continue
        name, _, value = raw_line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        current[name] = f"{current[name]}\n{value}" if name == "data" and "data" in current else value
    if "data" in current:
        messages.append(current)
    return messages


def is_event_stream(response: Response) -> bool:
    content_type = header(response, "Content-Type") or ""
    return content_type.split(";", 1)[0].strip().lower() == "text/event-stream"


def event_data(message: dict[str, str]) -> dict[str, Any] | None:
    try:
        data = json.loads(message.get("data", ""))
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def run_result(response: Response) -> Any:
    """The run a 200 answers with: the JSON body, or for a stream the run of its terminal event."""
    if not is_event_stream(response):
        return json_body(response)
    for message in reversed(parse_event_stream(response.content or b"")):
        try:
            data = json.loads(message["data"])
        except ValueError:
            return None
        if isinstance(data, dict) and data.get("type") in ("run.completed", "run.requires_action"):
            return data.get("run")
        return None
    return None


def session_handle(case: OperationCase) -> tuple[str, int] | None:
    body = case.body
    if not isinstance(body, dict):
        return None
    handle = body.get("session")
    if not isinstance(handle, dict):
        return None
    session_id, revision = handle.get("id"), handle.get("revision")
    if not isinstance(session_id, str) or type(revision) is not int:
        return None
    return session_id, revision
