"""Contract rules no generic schemathesis check knows, registered as schemathesis checks.

Importing this module registers them for the schemathesis CLI run (``st_hooks.py``
imports it) and for every scenario answer (``validation.py`` imports it):

- ``session_revisions_honoured``: optimistic revisions, checked against a
  shadow model of every session this process has seen in an answer. A run or
  streamed run on a revision older than one the session already reached never
  succeeds; a completed turn returns exactly the next revision; a
  ``SESSION_REVISION_CONFLICT`` names a current revision that differs from the
  one sent and is not older than one already seen. (Concurrent answers may be
  validated out of order, so the model only moves forward; idempotent replays
  are left to the next check.)
- ``idempotent_replays_honoured``: the first accepted request per caller,
  host and ``Idempotency-Key`` is remembered (each host process keeps its own
  keys: behind a proxy one key may reach several); a repeat of the same request that is
  accepted answers the same outcome (the same session, the same run), and an
  accepted request that reuses the key for another request is a failure.
- ``event_streams_well_formed``: every SSE message has an ``id`` and an
  ``event`` equal to its data's ``type``; one run per stream; exactly one
  terminal event (``run.completed``, ``run.requires_action``, ``run.failed``),
  last (unless the client closed the stream early on purpose).
- ``problem_details_consistent``: the problem envelope agrees with itself and
  with its response: ``status`` equals the HTTP status, ``type`` is the URN of
  ``code``, ``retryAfterSeconds`` equals the ``Retry-After`` header, a revision
  conflict says ``x-should-retry: false``, and ``instance`` is the request path.
- ``timestamps_utc_milliseconds``: the spec says timestamps are UTC with
  millisecond precision (``2026-11-29T18:50:42.123Z``); ``format: date-time``
  alone accepts any offset and precision.
- ``problem_codes_documented``: a problem's ``code`` is one of the codes its
  operation's answer lists for that status (``x-error-codes``). The schema
  keeps ``code`` open to codes added after this version, so it no longer
  says which known code belongs to which answer; this check does.
- ``valid_requests_refused_only_as_documented``: schemathesis'
  ``positive_data_acceptance`` judges a schema-valid request by status only
  (``schemathesis.toml`` lists the statuses per operation); this check narrows
  each refusal to the codes with which the contract refuses a valid request.

These rules cover what the schema cannot (or, being open to later codes, does not) say.
The checks are defined here, in the order they are registered. What they read of a case and its answer is in
``check_answers.py``; what they remember across answers (``SHADOW``, ``REPLAYS``) in ``check_memory.py``.
"""

from __future__ import annotations

import functools
import re
from typing import Any
from urllib.parse import unquote, urlsplit

import schemathesis
from schemathesis import CheckContext, Response

from . import spec
from .check_answers import (
    OperationCase,
    case_operation_id,
    event_data,
    header,
    is_event_stream,
    json_body,
    parse_event_stream,
    run_result,
    session_handle,
)
from .check_memory import REPLAYS, SHADOW, Accepted, SessionShadow, replay_identity, update_shadow
from .check_memory import IdempotencyMemory as IdempotencyMemory
from .check_memory import Key as Key

__all__ = [
    "REPLAYS",
    "SHADOW",
    "VALID_REQUEST_REFUSALS",
    "OperationCase",
    "SessionShadow",
    "event_streams_well_formed",
    "idempotent_replays_honoured",
    "parse_event_stream",
    "problem_codes_documented",
    "problem_details_consistent",
    "session_revisions_honoured",
    "timestamps_utc_milliseconds",
    "valid_requests_refused_only_as_documented",
]

PROBLEM_TYPE_PREFIX = "urn:agentic-driver:problem:"

TERMINAL_EVENTS = frozenset({"run.completed", "run.requires_action", "run.failed"})


@schemathesis.check
def session_revisions_honoured(ctx: CheckContext, response: Response, case: OperationCase) -> bool | None:
    """A stale revision never runs a turn; a completed turn advances the revision by exactly one."""
    operation_id = case_operation_id(case)
    status = response.status_code
    body = run_result(response) if status == 200 else json_body(response)
    if operation_id in ("run", "streamRun") and not REPLAYS.is_replay(case, response):
        handle = session_handle(case)
        if handle is not None:
            session_id, sent = handle
            known = SHADOW.get(session_id)
            if status == 200:
                if known is not None and known.revision > sent:
                    raise AssertionError(
                        f"Stale revision accepted: session {session_id} was at revision {known.revision}, "
                        f"the run sent {sent} and got 200 instead of 409 SESSION_REVISION_CONFLICT."
                    )
                # A run that waits for the application (requires_action) or a stream that ended in run.failed has
                # not completed a turn; a completed one returns the session at exactly the next revision.
                if isinstance(body, dict) and body.get("status") == "completed":
                    info = body.get("session")
                    if not isinstance(info, dict):
                        raise AssertionError("A completed session run must return the session (`session` is missing).")
                    if info.get("revision") != sent + 1:
                        raise AssertionError(
                            f"A completed turn must advance the revision by exactly one: sent {sent}, "
                            f"got {info.get('revision')}."
                        )
            elif status == 409 and isinstance(body, dict) and body.get("code") == "SESSION_REVISION_CONFLICT":
                current = body.get("currentRevision")
                if type(current) is not int or current == sent:
                    raise AssertionError(
                        f"SESSION_REVISION_CONFLICT must name a current revision other than the one sent ({sent}); "
                        f"got currentRevision={current!r}."
                    )
                if known is not None and current < known.revision:
                    raise AssertionError(
                        f"SESSION_REVISION_CONFLICT names revision {current}, but the session already reached "
                        f"{known.revision} (revisions never go back)."
                    )
    update_shadow(operation_id, case, status, body)
    return None


@schemathesis.check
def problem_details_consistent(ctx: CheckContext, response: Response, case: OperationCase) -> bool | None:
    """An RFC 9457 problem agrees with its own response."""
    if response.status_code < 400:
        return None
    body = json_body(response)
    if not isinstance(body, dict) or "code" not in body:
        return None  # not a problem at all: response_schema_conformance reports that
    code = body.get("code")
    problems = []
    if body.get("status") != response.status_code:
        problems.append(f"`status` is {body.get('status')!r} but the HTTP status is {response.status_code}")
    if body.get("type") != f"{PROBLEM_TYPE_PREFIX}{code}":
        problems.append(f"`type` is {body.get('type')!r}, expected {PROBLEM_TYPE_PREFIX}{code}")
    if "retryAfterSeconds" in body and header(response, "Retry-After") != str(body["retryAfterSeconds"]):
        problems.append(
            f"`retryAfterSeconds` is {body['retryAfterSeconds']!r} but Retry-After is "
            f"{header(response, 'Retry-After')!r}"
        )
    if code == "SESSION_REVISION_CONFLICT" and header(response, "x-should-retry") != "false":
        problems.append("SESSION_REVISION_CONFLICT must carry `x-should-retry: false`")
    if "instance" in body and response.request is not None and response.request.url is not None:
        raw = urlsplit(response.request.url).path
        instance = str(body["instance"])
        # Encoded or decoded, the instance must name the request path without losing any of it.
        if raw != instance and unquote(raw) not in (instance, unquote(instance)):
            problems.append(f"`instance` is {instance!r} but the request path is {raw!r} ({unquote(raw)!r})")
    if problems:
        raise AssertionError("Inconsistent problem details: " + "; ".join(problems) + ".")
    return None


@schemathesis.check
def problem_codes_documented(ctx: CheckContext, response: Response, case: OperationCase) -> bool | None:
    """A problem's code is one its answer documents for that status (``x-error-codes``)."""
    operation = spec.operations().get(case_operation_id(case) or "")
    body = json_body(response) if response.status_code >= 400 else None
    if operation is None or not isinstance(body, dict) or "code" not in body:
        return None
    documented = operation.codes_by_status.get(str(response.status_code))
    if documented is not None and body["code"] not in documented:
        raise AssertionError(
            f"{operation.operation_id} answered {response.status_code} with code {body['code']!r}; "
            f"that answer documents {', '.join(documented)}."
        )
    return None


# The codes with which the contract refuses a schema-valid request, per operation (the statuses are in
# schemathesis.toml with the same reasons). An operation not listed accepts every valid request.
_IDEMPOTENCY = frozenset(
    {
        # The same Idempotency-Key came with another request (generated requests reuse the spec's example key).
        "IDEMPOTENCY_KEY_REUSED",
        # The first request with this key is still running.
        "IDEMPOTENCY_KEY_IN_USE",
        # Not idempotency: a schema-valid body can still be longer than the host's limits.maxBodyBytes.
        "PAYLOAD_TOO_LARGE",
    }
)
_RUN_REFUSALS = frozenset(
    {
        # Unknown provider, model or session.
        "PROVIDER_NOT_FOUND",
        "MODEL_NOT_FOUND",
        "SESSION_NOT_FOUND",
        # A stale revision; a session an earlier turn left interrupted (a native turn over maxNativeMessages is
        # stopped after model work); a session whose turn waits for function results or approvals.
        "SESSION_REVISION_CONFLICT",
        "SESSION_INTERRUPTED",
        "SESSION_BUSY",
        # A turn over a session bound.
        "SESSION_LIMIT_EXCEEDED",
        # Declared tools must have distinct names, none a host tool's: uniqueness by a property is not
        # expressible in JSON Schema, so a schema-valid body can repeat a name.
        "TOOL_NAME_CONFLICT",
        # An attachment's media type is any string to the schema; the instance takes only the types discovery lists
        # (attachmentMediaTypes), within the host's size bounds.
        "ATTACHMENT_UNSUPPORTED",
    }
)
_ACTIONS_REFUSALS = frozenset(
    {
        # A generated run id names no run of this caller; a finished run; a replay whose session is gone.
        "RUN_NOT_FOUND",
        "SESSION_NOT_FOUND",
        # The run waits for nothing; the answer does not match what it waits for (generated call ids).
        "RUN_NOT_WAITING",
        "ACTION_MISMATCH",
        # The completed turn would outgrow the session.
        "SESSION_LIMIT_EXCEEDED",
    }
)
# A generated Agentic-Host header that names another host, or a generated id with a host part (``ses_x.y``)
# naming another host: the request is for another host process (MISDIRECTED_REQUEST, 421).
_MISDIRECTED = frozenset({"MISDIRECTED_REQUEST"})

VALID_REQUEST_REFUSALS: dict[str, frozenset[str]] = {
    # Unknown provider or model; unbound provider; mode the provider cannot keep; imported history over a bound;
    # a full store; a replay whose session was deleted since.
    "createSession": frozenset(
        {
            "PROVIDER_NOT_FOUND",
            "MODEL_NOT_FOUND",
            "SESSION_ACCOUNT_REQUIRED",
            "UNSUPPORTED_CONTINUATION",
            "SESSION_LIMIT_EXCEEDED",
            "SESSION_STORE_FULL",
            "SESSION_NOT_FOUND",
        }
    )
    | _IDEMPOTENCY,
    # A generated id names no session.
    "readSession": frozenset({"SESSION_NOT_FOUND"}) | _MISDIRECTED,
    "deleteSession": frozenset({"SESSION_NOT_FOUND"}) | _MISDIRECTED,
    # A generated id names no session; a stale revision or an active turn; keepTurns beyond the recorded turns
    # (state, not schema, decides it).
    "truncateSession": frozenset(
        {"SESSION_NOT_FOUND", "SESSION_REVISION_CONFLICT", "SESSION_BUSY", "VALIDATION_ERROR", "PAYLOAD_TOO_LARGE"}
    )
    | _MISDIRECTED,
    # A generated id names no session; a boundary the session does not hold (a generated revision, or one a
    # truncation removed) or an active turn (state, not schema, decides both); a full store, as for createSession.
    "forkSession": frozenset({"SESSION_NOT_FOUND", "SESSION_REVISION_CONFLICT", "SESSION_BUSY", "SESSION_STORE_FULL"})
    | _IDEMPOTENCY
    | _MISDIRECTED,
    # A generated id names no active run.
    "cancelRun": frozenset({"RUN_NOT_FOUND"}) | _MISDIRECTED,
    # A generated id names no run (active or kept); a Last-Event-ID the run's events have not reached yet, or no
    # longer hold, is a matter of the run's state, not of the schema.
    "getRun": frozenset({"RUN_NOT_FOUND"}) | _MISDIRECTED,
    "streamRunEvents": frozenset({"RUN_NOT_FOUND", "RUN_EVENTS_EXPIRED", "VALIDATION_ERROR"}) | _MISDIRECTED,
    "run": _RUN_REFUSALS | _IDEMPOTENCY | _MISDIRECTED,
    "streamRun": _RUN_REFUSALS | _IDEMPOTENCY | _MISDIRECTED,
    "submitRunActions": _ACTIONS_REFUSALS | _IDEMPOTENCY | _MISDIRECTED,
    "streamRunActions": _ACTIONS_REFUSALS | _IDEMPOTENCY | _MISDIRECTED,
}


def _is_schema_valid_request(case: OperationCase) -> bool:
    meta = case.meta
    if meta is None or not meta.generation.mode.is_positive:
        return False
    if any(component.mode.is_negative for component in meta.components.values()):
        return False
    operation_id = case_operation_id(case)
    validator = spec.request_validator(operation_id) if operation_id in spec.operations() else None
    # A link may replace parts of a generated body; judge what is actually sent.
    return validator is None or validator.is_valid(case.body)


@schemathesis.check
def valid_requests_refused_only_as_documented(
    ctx: CheckContext, response: Response, case: OperationCase
) -> bool | None:
    """A schema-valid request is accepted, or refused with one of the codes the contract names for that."""
    if response.status_code < 400 or not _is_schema_valid_request(case):
        return None
    body = json_body(response)
    code = body.get("code") if isinstance(body, dict) else None
    allowed = VALID_REQUEST_REFUSALS.get(case_operation_id(case) or "", frozenset())
    if code not in allowed:
        raise AssertionError(
            f"A schema-valid request was refused with {response.status_code} {code}; the contract refuses a valid "
            f"{case_operation_id(case)} request only with: {', '.join(sorted(allowed)) or 'nothing'}."
        )
    return None


_UTC_MILLISECONDS = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")


@functools.cache
def _timestamp_fields() -> frozenset[str]:
    """Names of the properties the spec declares as ``format: date-time``."""
    names: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for name, schema in (node.get("properties") or {}).items():
                if isinstance(schema, dict) and schema.get("format") == "date-time":
                    names.add(name)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(spec.document()["components"])
    return frozenset(names)


def _timestamps(node: Any, fields: frozenset[str], where: str = "") -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    if isinstance(node, dict):
        for key, value in node.items():
            if key in fields and isinstance(value, str):
                found.append((f"{where}/{key}", value))
            found += _timestamps(value, fields, f"{where}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += _timestamps(value, fields, f"{where}/{index}")
    return found


@schemathesis.check
def timestamps_utc_milliseconds(ctx: CheckContext, response: Response, case: OperationCase) -> bool | None:
    """Every timestamp the host returns is UTC with exactly millisecond precision."""
    wrong = [
        f"{where} = {value!r}"
        for where, value in _timestamps(json_body(response), _timestamp_fields())
        if not _UTC_MILLISECONDS.match(value)
    ]
    if wrong:
        raise AssertionError("Timestamps must be UTC with millisecond precision (…T18:50:42.123Z): " + ", ".join(wrong))
    return None


@schemathesis.check
def idempotent_replays_honoured(ctx: CheckContext, response: Response, case: OperationCase) -> bool | None:
    """A repeat with the same Idempotency-Key and request replays the first outcome; another request is refused."""
    if not 200 <= response.status_code < 300:
        return None  # a refusal (the spec allows re-checking access on a replay)
    identity = replay_identity(case_operation_id(case), response)
    key = REPLAYS.key_of(response, identity)
    if key is None:
        return None
    first = REPLAYS.get(key)
    fingerprint = REPLAYS.fingerprint(case)
    if first is None:
        REPLAYS.remember(key, Accepted(case.id, fingerprint, identity))
        return None
    if first.case_id == case.id:
        return None  # the same case validated again
    if first.fingerprint != fingerprint:
        raise AssertionError(
            f"Idempotency-Key {key[2]!r} was first accepted for another request, yet this one was accepted too "
            "(expected IDEMPOTENCY_KEY_REUSED)."
        )
    if identity != first.identity:
        raise AssertionError(
            f"A replay with Idempotency-Key {key[2]!r} must answer the recorded outcome ({first.identity!r}), "
            f"got {identity!r}."
        )
    return None


@schemathesis.check
def event_streams_well_formed(ctx: CheckContext, response: Response, case: OperationCase) -> bool | None:
    """Every SSE message has an id and an event equal to its data's type; one run; it ends with a terminal event."""
    if response.status_code != 200 or not is_event_stream(response):
        return None
    messages = parse_event_stream(response.content or b"")
    problems = []
    run_ids = set()
    for index, message in enumerate(messages):
        data = event_data(message)
        if data is None:
            problems.append(f"message {index}: data is not a JSON object")
            continue
        if not message.get("id"):
            problems.append(f"message {index}: no id")
        if message.get("event") != data.get("type"):
            problems.append(f"message {index}: event {message.get('event')!r} but data type {data.get('type')!r}")
        run_id = data.get("runId") or (data.get("run") or {}).get("id")
        if run_id:
            run_ids.add(run_id)
        if data.get("type") in TERMINAL_EVENTS and index != len(messages) - 1:
            problems.append(f"message {index}: {data.get('type')} is terminal but more events follow")
    if len(run_ids) > 1:
        problems.append(f"events of several runs: {sorted(run_ids)}")
    if not response.stream_cut_short:
        last = event_data(messages[-1]) if messages else None
        if last is None or last.get("type") not in TERMINAL_EVENTS:
            problems.append("the stream does not end with run.completed, run.requires_action or run.failed")
    if problems:
        raise AssertionError("Malformed event stream: " + "; ".join(problems) + ".")
    return None
