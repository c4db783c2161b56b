"""Schemathesis hooks for the schema-wide run (``SCHEMATHESIS_HOOKS=agentic_driver_conformance.st_hooks``).

1. ``before_load_schema`` turns the spec's link extensions into links
   (``spec.with_contract_links``: ``x-session-links``, ``x-request-body``) and
   adds two test-only links to the in-memory copy of the spec: after a completed
   session run (``replayStaleRevision``) or a truncation (``replayStaleAfterTruncate``)
   a run replays the revision that request started from (now stale). Two ways in,
   because a stateful step may follow a link from any earlier answer, whose session
   may have been deleted since (then the replay is SESSION_NOT_FOUND, as it should
   be): with one link, which step the exploration followed it from decided whether
   any replay reached the revision check at all. The published ``openapi.yaml`` stays clean; the stateful
   phase reaches ``SESSION_REVISION_CONFLICT`` and the
   ``session_revisions_honoured`` check (``checks.py``) judges the answer.
   ``forkSession`` needs a real session id too (a generated one names no session) and no spec link leads to
   it, but schemathesis' dependency analysis infers links to it from every answer that holds a session, so the
   stateful phase forks real sessions; a test-only link would replace those inferred links and fork less often.
   Schemas are not touched: every answer is validated as the spec publishes it.
2. A janitor keeps the stateful phase able to reach deep states: in that
   phase every request with an Idempotency-Key gets a key of its own (the
   generated ones are mostly the spec's single example key), and a generated
   ``Agentic-Host`` header (naming some other host) is dropped. And it keeps the
   session store usable without hiding its bound: the
   store (``maxEntries``) may fill within a phase (that is how
   ``SESSION_STORE_FULL`` is reached), and each phase starts from an empty
   store; in the stateful phase, where every scenario starts with
   ``createSession``, the oldest sessions of earlier scenarios are deleted so
   that live sessions stay under half the bound (before a ``forkSession`` too,
   which makes a session: the source it forks is spared). Every decision
   depends only on the request sequence, so runs stay deterministic.
3. Requests route as a client's do (``routing.py``): a request that names an
   existing session or run and sets no ``Agentic-Host`` of its own (a generated
   one wins in the unit phases: it tests the 421) gets the header its id names,
   so the phases work through a proxy in front of several hosts. The spec's
   example ids are made to name the host discovery answered with
   (``CONTRACT_HOST_ID``), so requests seeded from them reach that host's rules.
4. ``ObservationsHandler`` turns the engine's events into the figures of
   the metrics report: statuses and codes per operation, checks
   passed and failed, links covered, cases generated, and a SHA-256 of the
   generated request sequence (ids the host minted are normalised).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import threading
from collections import Counter, defaultdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import schemathesis
from schemathesis.cli import EventHandler, handler
from schemathesis.core.parameters import ParameterLocation
from schemathesis.engine import Status, events

from . import checks, routing, spec  # checks registers the contract checks

if TYPE_CHECKING:
    from schemathesis.cli.context import BaseExecutionContext

BASE_URL = os.environ.get("CONTRACT_BASE_URL", "").rstrip("/")
TOKEN = os.environ.get("CONTRACT_TOKEN_FULL", "")
HOST_ID = os.environ.get("CONTRACT_HOST_ID", "")
OBSERVATIONS_PATH = os.environ.get("CONTRACT_ST_OBSERVATIONS")

STALE_LINKS = ("replayStaleRevision", "replayStaleAfterTruncate")

# -- 1. the test-only stale-revision links -------------------------------------------------------------------------


@schemathesis.hook
def before_load_schema(context: schemathesis.HookContext, raw_schema: dict[str, Any]) -> None:
    spec.with_contract_links(raw_schema)
    _examples_name_the_contract_host(raw_schema)
    for methods in raw_schema.get("paths", {}).values():
        for operation in methods.values():
            if isinstance(operation, dict) and operation.get("operationId") in _STALE_FROM:
                answer = operation["responses"]["200"]
                assert "$ref" not in answer, "the 200 response is expected inline"
                link, revision = _STALE_FROM[operation["operationId"]]
                answer.setdefault("links", {})[link] = _stale_replay(revision)


# The operation a test-only stale link starts from -> (the link, where its request held the now stale revision).
_STALE_FROM = {
    "run": (STALE_LINKS[0], "$request.body#/session/revision"),
    "truncateSession": (STALE_LINKS[1], "$request.body#/revision"),
}


def _stale_replay(revision: str) -> dict[str, Any]:
    return {
        "operationId": "run",
        "description": "Test-only (contract-tests): replay the revision this request started from, now stale.",
        "requestBody": {
            "provider": "$response.body#/session/provider",
            "model": "$response.body#/session/model",
            "input": "stale replay",
            "session": {"id": "$response.body#/session/id", "revision": revision},
        },
        # Send exactly this body: generated extras (instructions, attachments) would be refused before the
        # revision is even looked at, and the link exists to reach the revision check.
        "x-schemathesis": {"merge_body": False},
    }


EXAMPLE_HOST, CONTRACT_HOST = "local-host", "contract-host"


def _examples_name_the_contract_host(raw_schema: dict[str, Any]) -> None:
    """The spec's example ids name the example host (``ses_local-host.…``); the host under test (``hostId`` of
    its discovery, ``CONTRACT_HOST_ID``; else ``contract-host``, host.json's) answers every request naming another
    host MISDIRECTED_REQUEST. Sent as written, the examples that seed generated requests made most of them 421 and
    the stateful phase ran about 30 scenarios instead of about 380. In the in-memory copy the example ids name the
    host under test, so they reach the operations' own rules (SESSION_NOT_FOUND for an unknown id; behind a proxy,
    their Agentic-Host takes them to that host); 421 is still reached by the generated Agentic-Host headers."""
    text = json.dumps(raw_schema)
    for prefix in ("ses_", "run_"):
        text = text.replace(f"{prefix}{EXAMPLE_HOST}.", f"{prefix}{HOST_ID or CONTRACT_HOST}.")
    raw_schema.clear()
    raw_schema.update(json.loads(text))


# -- 2. the janitor -------------------------------------------------------------------------------------------------


class Janitor:
    def __init__(self) -> None:
        self.live: list[str] = []
        self.phase: str | None = None
        self.max_entries: int | None = None
        self.keys = 0
        self.lock = threading.Lock()

    def _http(self) -> httpx.Client:
        return httpx.Client(
            base_url=BASE_URL, headers={"Authorization": f"Bearer {TOKEN}"}, trust_env=False, timeout=10.0
        )

    def _delete(self, http: httpx.Client, session_id: str) -> None:
        http.delete(
            f"/v1/sessions/{session_id}",
            headers=routing.with_routing_header({}, "deleteSession", {"sessionId": session_id}, None),
        )
        checks.SHADOW.forget(session_id)

    def before(self, case: checks.OperationCase) -> None:
        phase = case.meta.phase.name.value if case.meta is not None else None
        operation_id = case.operation.schema.get_operation_id(case.operation)
        with self.lock:
            if phase == "stateful" and case.headers and "Idempotency-Key" in case.headers:
                # Generated keys are mostly the spec's example key: most link steps would then be refused with
                # IDEMPOTENCY_KEY_REUSED before the session rules they exist to reach. Each stateful request gets a
                # key of its own instead (numbered in request order, so runs stay identical); the unit phases keep
                # the generated keys and exercise reuse.
                self.keys += 1
                case.headers["Idempotency-Key"] = f"contract-stateful-{self.keys}"
            if phase == "stateful" and case.headers:
                # A generated Agentic-Host names some other host: the step would be MISDIRECTED_REQUEST before
                # the session rules it exists to reach. The ids the links carry name the host already.
                case.headers.pop(routing.ROUTING_HEADER, None)
            add_routing_header(case, operation_id or "")
            if self.max_entries is None:
                with self._http() as http:
                    self.max_entries = int(http.get("/v1/discovery").json()["sessions"]["maxEntries"])
            if phase != self.phase:
                self.phase = phase
                self._purge(len(self.live))
            elif phase == "stateful" and operation_id in ("createSession", "forkSession"):
                # A fork is a new session too; its source is spared (the step exists to fork it).
                source = (case.path_parameters or {}).get("sessionId") if operation_id == "forkSession" else None
                self._purge(len(self.live) - self.max_entries // 2 + 1, spare=source)

    def _purge(self, count: int, spare: Any = None) -> None:
        if count <= 0:
            return
        candidates = [session_id for session_id in self.live if session_id != spare]
        doomed = candidates[:count]
        self.live = [session_id for session_id in self.live if session_id not in doomed]
        with self._http() as http:
            for session_id in doomed:
                self._delete(http, session_id)

    def finish(self) -> None:
        """At the end of the run, delete every session the run created and has not deleted (nothing left behind)."""
        with self.lock:
            self._purge(len(self.live))

    def after(self, case: checks.OperationCase, status: int, body: Any) -> None:
        operation_id = case.operation.schema.get_operation_id(case.operation)
        with self.lock:
            if operation_id in ("createSession", "forkSession") and status == 201:
                self.live.append(body["session"]["id"])
            elif operation_id == "deleteSession" and status in (204, 404):
                session_id = (case.path_parameters or {}).get("sessionId")
                if session_id in self.live:
                    self.live.remove(session_id)


JANITOR = Janitor()


def add_routing_header(case: checks.OperationCase, operation_id: str) -> None:
    """As a client: ``Agentic-Host`` from the id the request names, unless the case has its own (unit phases).

    The header is like the token the configuration adds: part of how the request is sent, not an edit of the
    generated values. Schemathesis revalidates a case whose generated headers a ``before_call`` hook changed, and
    that relabels a negative case (a malformed ``Authorization``) as positive, whose 401 then fails
    ``positive_data_acceptance``. So when the headers were as generated, they stay the baseline with the routing
    header in them (schemathesis 4.32, pinned: ``Case._record_starting_state`` does the same for auth).
    """
    routed = routing.with_routing_header(case.headers, operation_id, case.path_parameters, case.body)
    if routed == dict(case.headers or {}):
        return
    meta, location = case._meta, ParameterLocation.HEADER
    as_generated = (
        meta is not None
        and location in meta.components
        and meta._last_validated_hashes.get(location) == case._hash_container(case.get_container(location))
    )
    if case.headers is None:
        case.headers = routed
    else:
        case.headers[routing.ROUTING_HEADER] = routed[routing.ROUTING_HEADER]
    if as_generated:
        assert meta is not None
        meta.update_validated_hash(location, case._hash_container(case.get_container(location)))


@schemathesis.hook
def before_call(context: schemathesis.HookContext, case: checks.OperationCase, kwargs: dict[str, Any]) -> None:
    JANITOR.before(case)


@schemathesis.hook
def after_call(context: schemathesis.HookContext, case: checks.OperationCase, response: schemathesis.Response) -> None:
    try:
        body = json.loads(response.content or b"null")
    except ValueError:
        body = None
    JANITOR.after(case, response.status_code, body)


# -- 4. observations ------------------------------------------------------------------------------------------------

LOADED: dict[str, Any] = {}


@schemathesis.hook
def after_load_schema(context: schemathesis.HookContext, schema: Any) -> None:
    LOADED["schema"] = schema


_MINTED_IDS = re.compile(r"\b(ses|run)_(?:[a-z0-9-]{1,63}\.)?[A-Za-z0-9_-]{22}(?![A-Za-z0-9_-])")


def normalise(text: str) -> str:
    """Request text without what differs between runs by design: ids the host minted and the base URL."""
    if BASE_URL:
        text = text.replace(BASE_URL, "")
    return _MINTED_IDS.sub(lambda match: f"{match.group(1)}_<minted>", text)


def _request_fingerprint(request: Any) -> str:
    body = request.body
    if isinstance(body, bytes):
        body = body.decode("utf-8", errors="backslashreplace")
    content_type = request.headers.get("Content-Type", request.headers.get("content-type", [""]))
    content_type = content_type[0] if isinstance(content_type, list) and content_type else content_type
    authorization = request.headers.get("Authorization", request.headers.get("authorization"))
    return normalise(f"{request.method} {request.uri} ct={content_type!r} auth={bool(authorization)} {body or ''}")


def _link_labels(schema: Any) -> list[str]:
    """Every link of the loaded schema (spec, test-only and inferred), labelled as schemathesis labels transitions."""
    raw = schema.raw_schema
    labels_by_id: dict[str, str] = {}
    for path, methods in raw.get("paths", {}).items():
        for method, operation in methods.items():
            if isinstance(operation, dict) and "operationId" in operation:
                labels_by_id[operation["operationId"]] = f"{method.upper()} {path}"
                pointer = "#/paths/" + path.replace("~", "~0").replace("/", "~1") + "/" + method
                labels_by_id[pointer] = f"{method.upper()} {path}"
    found = []
    for path, methods in raw.get("paths", {}).items():
        for method, operation in methods.items():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            for status, response in operation["responses"].items():
                if not isinstance(response, dict):
                    continue
                for name, link in (response.get("links") or {}).items():
                    target = labels_by_id.get(link.get("operationId") or link.get("operationRef", ""), "?")
                    found.append(f"{method.upper()} {path} -> [{status}] {name} -> {target}")
    return sorted(set(found))


@handler()
class ObservationsHandler(EventHandler["BaseExecutionContext"]):
    def __init__(self, *args: Any, **params: Any) -> None:
        self.statuses: dict[str, Counter[str]] = defaultdict(Counter)
        self.codes: dict[str, Counter[str]] = defaultdict(Counter)
        self.phase_cases: Counter[str] = Counter()
        self.checks: dict[str, Counter[str]] = defaultdict(Counter)
        self.links_covered: set[str] = set()
        self.failures: list[dict[str, Any]] = []
        self.errors: list[str] = []
        self.sequence = hashlib.sha256()
        self.requests = 0
        self.stale_replays: Counter[str] = Counter()
        self.stateful_payload: dict[str, int] = {}
        self.finished: dict[str, Any] = {}

    def handle_event(self, ctx: BaseExecutionContext, event: events.EngineEvent) -> None:
        if isinstance(event, events.ScenarioFinished):
            self._scenario(event)
        elif isinstance(event, events.PhaseStarted) and event.payload is not None:
            self.stateful_payload = {
                "inferred": event.payload.inferred_transitions,
                "total": event.payload.transitions_total,
                "selected": event.payload.transitions_selected,
            }
        elif isinstance(event, events.NonFatalError):
            self.errors.append(f"{event.label}: {event.info.title}: {event.info.message}")
        elif isinstance(event, events.FatalError):
            self.errors.append(f"fatal: {event.exception}")
        elif isinstance(event, events.EngineFinished):
            self.finished = {"running_time": event.running_time, "stop_reason": str(event.stop_reason.value)}

    def _scenario(self, event: events.ScenarioFinished) -> None:
        recorder = event.recorder
        for case_id, node in recorder.cases.items():
            case = node.value
            operation_id = case.operation.schema.get_operation_id(case.operation) or case.operation.label
            phase = case.meta.phase.name.value if case.meta is not None else str(event.phase.value)
            interaction = recorder.interactions.get(case_id)
            self.phase_cases[phase] += 1
            if interaction is not None:
                self.requests += 1
                self.sequence.update(_request_fingerprint(interaction.request).encode("utf-8", "backslashreplace"))
                self.sequence.update(b"\n")
                if interaction.response is not None:
                    status = str(interaction.response.status_code)
                    self.statuses[operation_id][status] += 1
                    code = _problem_code(interaction.response.content)
                    if code is not None:
                        self.codes[operation_id][f"{status} {code}"] += 1
            if node.transition is not None and node.is_transition_applied:
                self.links_covered.add(node.transition.id)
                stale = any(f"] {link} ->" in node.transition.id for link in STALE_LINKS)
                if stale and interaction and interaction.response is not None:
                    replayed = interaction.response.status_code
                    self.stale_replays[f"{replayed} {_problem_code(interaction.response.content) or ''}".strip()] += 1
            for check in recorder.checks.get(case_id, []):
                outcome = "passed" if check.status == Status.SUCCESS else check.status.value
                self.checks[check.name][outcome] += 1
                if check.status == Status.FAILURE and check.failure_info is not None:
                    failure = check.failure_info.failure
                    self.failures.append(
                        {
                            "check": check.name,
                            "operation": operation_id,
                            "phase": phase,
                            "title": failure.title,
                            "message": failure.message,
                            "reproduce": check.failure_info.code_sample,
                        }
                    )

    def shutdown(self, ctx: BaseExecutionContext) -> None:
        if BASE_URL:
            JANITOR.finish()
        if not OBSERVATIONS_PATH:
            return
        schema = LOADED.get("schema")
        document = {
            "statuses": {op: dict(sorted(counts.items())) for op, counts in sorted(self.statuses.items())},
            "codes": {op: dict(sorted(counts.items())) for op, counts in sorted(self.codes.items())},
            "casesByPhase": dict(sorted(self.phase_cases.items())),
            "requests": self.requests,
            "requestSequenceSha256": self.sequence.hexdigest(),
            "checks": {name: dict(sorted(counts.items())) for name, counts in sorted(self.checks.items())},
            "links": {
                "all": _link_labels(schema) if schema is not None else [],
                "covered": sorted(self.links_covered),
                "engine": self.stateful_payload,
                "staleReplays": dict(sorted(self.stale_replays.items())),
            },
            "failures": self.failures,
            "errors": self.errors,
            "engine": self.finished,
        }
        path = Path(OBSERVATIONS_PATH)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")


def _problem_code(content: bytes | None) -> str | None:
    try:
        body = json.loads(content or b"null")
    except ValueError:
        return None
    code = body.get("code") if isinstance(body, dict) else None
    return code if isinstance(code, str) else None
