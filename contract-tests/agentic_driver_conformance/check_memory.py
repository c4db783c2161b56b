"""What the contract checks (``checks.py``) remember across answers, per process (thread-safe).

- ``SHADOW`` (``SessionShadow``): the revision and status this process last saw of each session in an answer,
  moved only forward (``update_shadow``); ``session_revisions_honoured`` judges a run's revision against it.
- ``REPLAYS`` (``IdempotencyMemory``): the first accepted request per caller, host and ``Idempotency-Key``
  and the outcome it must replay (``replay_identity``: the session a create or a fork made, the run a run
  request started); ``idempotent_replays_honoured`` judges a repeat against it, and
  ``session_revisions_honoured`` leaves a replay (``IdempotencyMemory.is_replay``) to that check.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from typing import Any

from schemathesis import Response

from . import routing
from .check_answers import OperationCase, case_operation_id, event_data, is_event_stream, json_body, parse_event_stream


@dataclass
class _Known:
    revision: int
    status: str


class SessionShadow:
    """What this process last saw of each session: its revision and status (thread-safe)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._sessions: dict[str, _Known] = {}

    def get(self, session_id: str) -> _Known | None:
        with self._lock:
            return self._sessions.get(session_id)

    def saw(self, info: Any) -> None:
        if isinstance(info, dict) and isinstance(info.get("id"), str) and isinstance(info.get("revision"), int):
            with self._lock:
                known = self._sessions.get(info["id"])
                # Revisions never go back; concurrent answers may be validated out of order.
                if known is None or info["revision"] >= known.revision:
                    self._sessions[info["id"]] = _Known(info["revision"], str(info.get("status")))

    def forget(self, session_id: str) -> None:
        with self._lock:
            self._sessions.pop(session_id, None)

    def clear(self) -> None:
        with self._lock:
            self._sessions.clear()


SHADOW = SessionShadow()


def update_shadow(operation_id: str | None, case: OperationCase, status: int, body: Any) -> None:
    if operation_id in (
        "createSession",
        "forkSession",
        "readSession",
        "run",
        "streamRun",
        "cancelRun",
        "getRun",
        "submitRunActions",
        "streamRunActions",
    ) and status in (200, 201):
        if isinstance(body, dict):
            SHADOW.saw(body.get("session"))
    elif operation_id == "deleteSession" and status == 204:
        session_id = (case.path_parameters or {}).get("sessionId")
        if isinstance(session_id, str):
            SHADOW.forget(session_id)


@dataclass(frozen=True)
class Accepted:
    case_id: str
    fingerprint: str
    identity: Any


Key = tuple[str, str, str | bytes]
"""(caller, host, Idempotency-Key): see :meth:`IdempotencyMemory.key_of` (the key as the request holds it)."""


class IdempotencyMemory:
    """The first accepted (2xx) request this process saw per caller, host and Idempotency-Key (thread-safe)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._accepted: dict[Key, Accepted] = {}

    @staticmethod
    def key_of(response: Response, identity: Any = None) -> Key | None:
        """Each host process remembers the keys it saw, and behind a proxy requests with one key reach different
        hosts (one routed by its session's ``Agentic-Host``, another balanced by the key), so a key is scoped to
        the host that answered: the one its outcome's id names (``identity``), else the one the request named."""
        request = response.request
        if request is None:
            return None
        key = request.headers.get("Idempotency-Key")
        if not key:
            return None
        host = routing.owner_of(identity) or request.headers.get(routing.ROUTING_HEADER) or ""
        return str(request.headers.get("Authorization", "")), str(host), key

    @staticmethod
    def fingerprint(case: OperationCase) -> str:
        body = case.body if isinstance(case.body, dict | list | str | int | float | bool) else None
        return json.dumps([case_operation_id(case), dict(case.path_parameters or {}), body], sort_keys=True)

    def get(self, key: Key) -> Accepted | None:
        with self._lock:
            return self._accepted.get(key)

    def remember(self, key: Key, accepted: Accepted) -> None:
        with self._lock:
            self._accepted.setdefault(key, accepted)

    def is_replay(self, case: OperationCase, response: Response) -> bool:
        """A repeat of an accepted request with the same key and the same request: it replays, it does not run."""
        identity = replay_identity(case_operation_id(case), response) if 200 <= response.status_code < 300 else None
        key = self.key_of(response, identity)
        first = self.get(key) if key is not None else None
        return first is not None and first.case_id != case.id and first.fingerprint == self.fingerprint(case)

    def clear(self) -> None:
        with self._lock:
            self._accepted.clear()


REPLAYS = IdempotencyMemory()


def replay_identity(operation_id: str | None, response: Response) -> Any:
    """What a replay must reproduce: the session a create or a fork made, or the run a run request started."""
    if operation_id in ("createSession", "forkSession"):
        body = json_body(response)
        return (body.get("session") or {}).get("id") if isinstance(body, dict) else None
    if is_event_stream(response):
        for message in parse_event_stream(response.content or b""):
            with_run = event_data(message)
            if with_run is not None:
                return with_run.get("runId") or (with_run.get("run") or {}).get("id")
        return None
    body = json_body(response)
    return body.get("id") if isinstance(body, dict) else None
