"""What a scenario step says about an answer, for the scenario player (``scenarios.py``).

Values (``resolve``: ``$name.path`` references to captured values, ``$$`` escapes, ``$repeat``), RFC 6901
``pointer``s into an answer (``MISSING`` where there is nothing), the step's ``expect`` (``check_expect``: status,
code, body pointers with their ``$exists``/``$len``/``$in``/``$ne``/``$type`` matchers, headers) and whether the
generated client parsed the answer into the model the spec documents for its status (``check_parsed``).
The format is documented in scenarios/README.md and scenarios/schema.json.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from . import validation
from .scenario_client import ClientParseError, Exchange, ScenarioFailure
from .spec import operations

MISSING = object()
"""What ``pointer`` finds where the answer has nothing."""


def _lookup(variables: dict[str, Any], reference: str) -> Any:
    name, *parts = reference.split(".")
    if name not in variables:
        raise ScenarioFailure(f"${reference}: nothing was captured as {name!r}")
    value = variables[name]
    for part in parts:
        if isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        elif isinstance(value, dict) and part in value:
            value = value[part]
        else:
            raise ScenarioFailure(f"${reference}: {part!r} is not in the captured value {value!r}")
    return value


def resolve(value: Any, variables: dict[str, Any]) -> Any:
    if isinstance(value, str):
        if value.startswith("$$"):
            return value[1:]
        if value.startswith("$") and re.fullmatch(r"\$[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)*", value):
            return _lookup(variables, value[1:])
        return value
    if isinstance(value, dict):
        if set(value) == {"$repeat"}:
            spec = value["$repeat"]
            return str(resolve(spec["text"], variables)) * int(resolve(spec["times"], variables))
        return {key: resolve(item, variables) for key, item in value.items()}
    if isinstance(value, list):
        return [resolve(item, variables) for item in value]
    return value


def pointer(document: Any, location: str) -> Any:
    """RFC 6901; a missing location is MISSING."""
    if location == "":
        return document
    value = document
    for raw in location[1:].split("/"):
        part = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(value, dict) and part in value:
            value = value[part]
        elif isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        else:
            return MISSING
    return value


_JSON_TYPES: dict[str, Callable[[Any], bool]] = {
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "null": lambda v: v is None,
}


def _matches(actual: Any, expected: Any, variables: dict[str, Any]) -> bool:
    if isinstance(expected, dict) and len(expected) == 1 and next(iter(expected)).startswith("$"):
        ((operator, argument),) = expected.items()
        if operator != "$repeat":
            argument = resolve(argument, variables)
            if operator == "$exists":
                return bool((actual is not MISSING) == argument)
            if actual is MISSING:
                return False
            if operator == "$len":
                return hasattr(actual, "__len__") and len(actual) == int(argument)
            if operator == "$in":
                return actual in argument
            if operator == "$ne":
                return bool(actual != argument)
            if operator == "$type":
                return _JSON_TYPES[argument](actual)
            raise ScenarioFailure(f"unknown matcher {operator}")
    return actual is not MISSING and actual == resolve(expected, variables)


def check_expect(exchange: Exchange, expect: dict[str, Any], variables: dict[str, Any]) -> list[str]:
    problems = []
    response = exchange.response
    if response.status_code != expect["status"]:
        problems.append(f"status {response.status_code}, expected {expect['status']}")
    if "code" in expect:
        wanted = expect["code"] if isinstance(expect["code"], list) else [expect["code"]]
        code = validation.problem_code(response)
        if code not in wanted:
            problems.append(f"code {code}, expected {' or '.join(wanted)}")
    body = exchange.json
    for location, expected in expect.get("body", {}).items():
        actual = pointer(body, location)
        if not _matches(actual, expected, variables):
            shown = "(missing)" if actual is MISSING else json.dumps(actual)[:300]
            problems.append(f"body {location or '(whole)'} is {shown}, expected {json.dumps(expected)[:300]}")
    for name, expected in expect.get("headers", {}).items():
        actual = response.headers.get(name, MISSING)
        if not _matches(actual, expected, variables):
            problems.append(f"header {name} is {actual if actual is not MISSING else '(missing)'}, expected {expected}")
    return problems


def check_parsed(exchange: Exchange) -> list[str]:
    """The generated client understood the answer as the spec documents it."""
    status = str(exchange.response.status_code)
    operation = operations()[exchange.operation_id]
    if isinstance(exchange.parsed, ClientParseError):
        error = exchange.parsed.error
        return [f"the generated client could not parse the {status} answer: {type(error).__name__}: {error}"]
    if status not in operation.statuses:
        return []  # undocumented: schemathesis' status_code_conformance reports it
    media = operation.response_media_types.get(status, ())
    if not media:
        return (
            []
            if exchange.parsed is None
            else [f"the client parsed a {status} without content into {exchange.parsed!r}"]
        )
    if exchange.parsed is None:
        return [f"the generated client did not parse the documented {status} answer"]
    if exchange.is_stream:
        from agentic_driver_sdk import UnknownEvent

        unknown = [event.type for event in exchange.parsed if isinstance(event, UnknownEvent)]
        return [f"the client layer does not know the event types {unknown}"] if unknown else []
    wire_code = validation.problem_code(exchange.response)
    if status in operation.codes_by_status:
        parsed_code = getattr(getattr(exchange.parsed, "code", None), "value", None)
        if parsed_code != wire_code:
            parsed_type = type(exchange.parsed).__name__
            return [f"the client parsed code {parsed_code!r} (as {parsed_type}), the wire says {wire_code!r}"]
    return []
