"""The ``Agentic-Host`` header, derived as every client derives it (clients/BEHAVIOUR.md, "Routing").

Several host processes behind a proxy each hold their own sessions; the proxy routes a request to the owner by the
``Agentic-Host`` header (and, for clients that do not send it, by the id in the path). A ``run`` names its session
only in the body, so without the header the proxy balances it to any host, which answers 421. The kit therefore
sends the header on every request that names an existing session or run, from the same rule the clients follow
(the Python SDK's ``host_of``): the scenario player (``scenarios.py``), the schemathesis phases (``st_hooks.py``)
and the kit's own clean-up requests all ask :func:`routing_host`.

A header a request sets itself (a scenario step's ``headers``, a generated schemathesis header) wins: those
requests test the host's answer to a header naming another host.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

# The Python SDK's own rule (the kit depends on the same pinned client package): one derivation, not a copy.
from agentic_driver_sdk._base import ROUTING_HEADER, host_of

__all__ = ["ROUTING_HEADER", "has_routing_header", "owner_of", "routing_host", "with_routing_header"]

# The operations that name an existing session or run, and where (clients/BEHAVIOUR.md, the Routing table).
_PATH_ID: dict[str, str] = {
    "readSession": "sessionId",
    "deleteSession": "sessionId",
    "truncateSession": "sessionId",
    "forkSession": "sessionId",  # a fork is made on its source's host
    "submitRunActions": "runId",
    "streamRunActions": "runId",
    "cancelRun": "runId",
    "getRun": "runId",
    "streamRunEvents": "runId",
}
_BODY_SESSION = frozenset({"run", "streamRun"})


def owner_of(an_id: Any) -> str | None:
    """The host named in a session or run id (``ses_{hostId}.{random}``); None for an id that names none."""
    return host_of(an_id) if isinstance(an_id, str) else None


def routing_host(operation_id: str, path: Mapping[str, Any] | None, body: Any) -> str | None:
    """The ``Agentic-Host`` a client sends with this request, or None (it names nothing, or an id without owner)."""
    if operation_id in _PATH_ID:
        return owner_of((path or {}).get(_PATH_ID[operation_id]))
    if operation_id in _BODY_SESSION and isinstance(body, Mapping):
        session = body.get("session")
        return owner_of(session.get("id")) if isinstance(session, Mapping) else None
    return None


def has_routing_header(headers: Mapping[str, Any] | None) -> bool:
    """Whether the request sets ``Agentic-Host`` itself (header names are case-insensitive)."""
    return any(name.lower() == ROUTING_HEADER.lower() for name in headers or {})


def with_routing_header(
    headers: Mapping[str, Any] | None, operation_id: str, path: Mapping[str, Any] | None, body: Any
) -> dict[str, Any]:
    """The request's headers with the ``Agentic-Host`` its id names added, unless it sets that header itself."""
    routed = dict(headers or {})
    if not has_routing_header(routed):
        owner = routing_host(operation_id, path, body)
        if owner is not None:
            routed[ROUTING_HEADER] = owner
    return routed
