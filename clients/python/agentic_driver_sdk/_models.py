"""The generated models the SDK uses, imported on first use rather than with the package.

``agentic_driver_client.models`` imports every generated model module (its
``__init__`` is generated), which roughly doubles the import time of this
package. The SDK's modules therefore import from here inside functions; the
first such import loads the models once. ``SessionRunResult`` lives here too.
"""

from __future__ import annotations

from agentic_driver_client.models import (
    ApprovalsAction,
    Attachment,
    CancelRunResponse,
    CreateSessionRequest,
    CreateSessionResponse,
    Discovery,
    ForkSessionRequest,
    FunctionCallsAction,
    InterruptedTurn,
    Message,
    OutputDeltaEvent,
    Problem,
    ReadSessionResponse,
    RunCompletedEvent,
    RunFailedEvent,
    RunRequest,
    RunRequiresActionEvent,
    RunResult,
    RunStartedEvent,
    RunState,
    SessionHandle,
    SessionInfo,
    SubmitRunActionsRequest,
    ToolDefinition,
    TruncateSessionRequest,
    Turn,
)
from agentic_driver_client.types import Unset

__all__ = [
    "ApprovalsAction",
    "Attachment",
    "CancelRunResponse",
    "CreateSessionRequest",
    "CreateSessionResponse",
    "Discovery",
    "ForkSessionRequest",
    "FunctionCallsAction",
    "InterruptedTurn",
    "Message",
    "OutputDeltaEvent",
    "Problem",
    "ReadSessionResponse",
    "RunCompletedEvent",
    "RunFailedEvent",
    "RunRequest",
    "RunRequiresActionEvent",
    "RunResult",
    "RunStartedEvent",
    "RunState",
    "SessionHandle",
    "SessionInfo",
    "SessionRunResult",
    "SubmitRunActionsRequest",
    "ToolDefinition",
    "TruncateSessionRequest",
    "Turn",
    "Unset",
    "handle",
]


def handle(session: SessionInfo) -> SessionHandle:
    """``{id, revision}`` of a session, to pass to the next run (the same as ``session.handle``)."""
    return session.handle


class SessionRunResult(RunResult):
    """The result of a run sent with a session: ``.session`` is the session at its next revision, never ``None``.

    ``client.run(..., session=...)`` and ``runs.create`` / ``runs.stream(...).final_run()``
    return it when a session was given (their overloads say so to a type checker); a
    ``RunResult`` of ``runs.submit_actions`` is one when ``isinstance`` says so.
    """

    __slots__ = ()
    session: SessionInfo
    """The session after this turn; pass it (or ``.session.handle``) to the next run."""
