"""The pleasant layer over the generated ``agentic_driver_client`` (which is never edited).

    from agentic_driver_sdk import AgenticDriver, SessionRevisionConflictError

    with AgenticDriver(base_url="http://127.0.0.1:8080", token="...") as client:
        session = client.sessions.create(provider="echo", model="echo-1", mode="history")
        first = client.run(provider="echo", model="echo-1", input="My name is Ada.", session=session)
        second = client.run(provider="echo", model="echo-1", input="!recall", session=first.session)

- ``AgenticDriver`` / ``AsyncAgenticDriver``: every operation as keyword-argument
  methods returning the generated models, implementing ``clients/BEHAVIOUR.md``:
  safe retries (one idempotency key per logical call), timeouts, one error tree,
  ``sessions.wait_until_idle`` for a busy session, raw responses
  (``client.with_raw_response``), debug logging, and the recovery helpers
  ``reconcile`` and ``fork`` (a new session from the part of the visible history
  you choose; ``sessions.fork`` instead copies a session, native state included,
  up to a turn boundary inside its host).
- ``client.runs.stream(...)`` returns a ``RunStream`` (``AsyncRunStream``):
  iterable, a context manager, and ``final_run()``. Sent with
  ``on_disconnect="continue"``, it resumes itself after a dropped connection;
  ``client.runs.retrieve(run_id)`` reads a run's state and ``client.runs.events(run_id,
  last_event_id=...)`` rejoins its events.
- A run sent with a session returns a ``SessionRunResult``: its ``.session`` is a
  ``SessionInfo``, never ``None``. ``SessionInfo.handle`` is ``SessionHandle(id, revision)``.
- A member an answer may leave out (``RunResult.session``, an event's ``run.session``,
  ``ReadSessionResponse.interrupted_turn``) reads ``None`` when absent: check it with
  ``is not None``. (The generated client's ``Unset`` is ``None``'s type.)
- The exception tree is drawn on ``AgenticDriverError``.

The generated models are imported on first use, not with this package, which
keeps ``import agentic_driver_sdk`` about as fast as ``import httpx``.
"""

from __future__ import annotations

import base64
from typing import TYPE_CHECKING, Any

from ._base import USER_AGENT, Options, __version__
from ._client import AgenticDriver, AsyncAgenticDriver
from ._events import Event, UnknownEvent, parse_event
from ._exceptions import *  # noqa: F403 - the exception tree is public API
from ._exceptions import __all__ as _exception_names
from ._raw import RawResponse
from ._recovery import UNCHANGED, Keep, Reconciliation
from ._stream import AsyncRunStream, RunStream
from ._tokens import AsyncTokenProvider, TokenProvider

if TYPE_CHECKING:
    from agentic_driver_client.models import Attachment, SessionHandle, SessionInfo

    from ._models import SessionRunResult

__all__ = [
    "UNCHANGED",
    "USER_AGENT",
    "AgenticDriver",
    "AsyncAgenticDriver",
    "AsyncRunStream",
    "AsyncTokenProvider",
    "Event",
    "Keep",
    "Options",
    "RawResponse",
    "Reconciliation",
    "RunStream",
    "TokenProvider",
    "UnknownEvent",
    "__version__",
    "attachment",
    "handle",
    "parse_event",
    *_exception_names,
]

if TYPE_CHECKING:
    # Exported for type checkers; at run time it loads on first use (``__getattr__`` below),
    # which is also why the API reference (pdoc) does not list it: see ``_models.SessionRunResult``.
    __all__ += ["SessionRunResult"]


def attachment(name: str, media_type: str, content: bytes | str) -> Attachment:
    """A file for a run's ``attachments=``: ``content`` (bytes, or text sent as UTF-8) base64-encoded.

    ``attachment("notes.txt", "text/plain", Path("notes.txt").read_bytes())``; which media types a provider
    instance takes is in discovery's ``attachmentMediaTypes``.
    """
    from ._models import Attachment

    data = content.encode() if isinstance(content, str) else content
    return Attachment(name=name, media_type=media_type, data=base64.b64encode(data).decode("ascii"))


def handle(session: SessionInfo) -> SessionHandle:
    """``{id, revision}`` of a session, to pass to the next run (the same as ``session.handle``)."""
    return session.handle


def __getattr__(name: str) -> Any:
    # SessionRunResult subclasses a generated model: loaded on first use, like the models.
    if name == "SessionRunResult":
        from ._models import SessionRunResult

        return SessionRunResult
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
