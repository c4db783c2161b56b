"""The pleasant layer over the generated ``agentic_driver_client`` (which is never edited).

    from agentic_driver_sdk import AgenticDriver, SessionRevisionConflictError

    with AgenticDriver(base_url="http://127.0.0.1:8080", token="...") as client:
        session = client.sessions.create(provider="echo", model="echo-1", mode="history")
        first = client.run(provider="echo", model="echo-1", input="My name is Ada.", session=session)
        second = client.run(provider="echo", model="echo-1", input="!recall", session=first.session.handle)

- ``AgenticDriver`` / ``AsyncAgenticDriver``: every operation as keyword-argument
  methods returning the generated models, with safe retries (one idempotency key
  per logical call), typed exceptions, streaming and the recovery helpers
  ``reconcile`` and ``fork``.
- The exception tree is drawn in ``agentic_driver_sdk._exceptions``.
- ``stream_run`` and friends stream through a plain generated ``AuthenticatedClient``.

Importing this package gives the generated ``SessionInfo`` a ``handle`` property
(``SessionHandle(id, revision)``); ``session=`` also accepts a ``SessionInfo`` directly.
"""

from agentic_driver_client.models import SessionHandle, SessionInfo

from ._base import Options
from ._client import AgenticDriver, AsyncAgenticDriver
from ._exceptions import *  # noqa: F403 - the exception tree is public API
from ._exceptions import __all__ as _exception_names
from ._recovery import UNCHANGED, Reconciliation
from .streaming import (
    Event,
    ProblemError,
    UnknownEvent,
    astream_run,
    astream_run_actions,
    stream_run,
    stream_run_actions,
)


def _handle(session: SessionInfo) -> SessionHandle:
    return SessionHandle(id=session.id, revision=session.revision)


def handle(session: SessionInfo) -> SessionHandle:
    """``{id, revision}`` of a session, to pass to the next run."""
    return _handle(session)


SessionInfo.handle = property(_handle)  # type: ignore[attr-defined]

__all__ = [
    "UNCHANGED",
    "AgenticDriver",
    "AsyncAgenticDriver",
    "Event",
    "Options",
    "ProblemError",
    "Reconciliation",
    "UnknownEvent",
    "astream_run",
    "astream_run_actions",
    "handle",
    "stream_run",
    "stream_run_actions",
    *_exception_names,
]
