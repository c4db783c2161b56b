# Generated from openapi.yaml by generator/operations.py. DO NOT EDIT.
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
    "cancelRun": Operation("POST", "/v1/runs/{runId}/cancel", False, routing_param="runId"),
    "createSession": Operation("POST", "/v1/sessions", True),
    "deleteSession": Operation("DELETE", "/v1/sessions/{sessionId}", False, routing_param="sessionId"),
    "forkSession": Operation("POST", "/v1/sessions/{sessionId}/fork", True, routing_param="sessionId"),
    "getDiscovery": Operation("GET", "/v1/discovery", False),
    "getHealth": Operation("GET", "/healthz", False),
    "getReadiness": Operation("GET", "/readyz", False),
    "getRun": Operation("GET", "/v1/runs/{runId}", False, routing_param="runId"),
    "readSession": Operation("GET", "/v1/sessions/{sessionId}", False, routing_param="sessionId"),
    "run": Operation("POST", "/v1/runs", True, routing_pointer=("session", "id")),
    "streamRun": Operation("POST", "/v1/runs/stream", True, routing_pointer=("session", "id")),
    "streamRunActions": Operation("POST", "/v1/runs/{runId}/actions/stream", True, routing_param="runId"),
    "streamRunEvents": Operation("GET", "/v1/runs/{runId}/events", False, routing_param="runId"),
    "submitRunActions": Operation("POST", "/v1/runs/{runId}/actions", True, routing_param="runId"),
    "truncateSession": Operation("POST", "/v1/sessions/{sessionId}/truncate", False, routing_param="sessionId"),
}
