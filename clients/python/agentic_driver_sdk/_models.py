"""The generated models the SDK uses, imported on first use rather than with the package.

``agentic_driver_client.models`` imports every generated model module (its
``__init__`` is generated), which roughly doubles the import time of this
package. The SDK's modules therefore import from here inside functions; the
first such import loads the models once, and gives ``SessionInfo`` its
``handle`` property.
"""

from __future__ import annotations

from agentic_driver_client.models import (
    ApprovalsAction,
    CancelRunResponse,
    CreateSessionRequest,
    CreateSessionResponse,
    Discovery,
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
    SessionHandle,
    SessionInfo,
    SubmitRunActionsRequest,
    ToolDefinition,
    Turn,
)
from agentic_driver_client.types import Unset

__all__ = [
    "ApprovalsAction",
    "CancelRunResponse",
    "CreateSessionRequest",
    "CreateSessionResponse",
    "Discovery",
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
    "SessionHandle",
    "SessionInfo",
    "SubmitRunActionsRequest",
    "ToolDefinition",
    "Turn",
    "Unset",
    "handle",
]


def handle(session: SessionInfo) -> SessionHandle:
    """``{id, revision}`` of a session, to pass to the next run."""
    return SessionHandle(id=session.id, revision=session.revision)


# The generator has no extension point for methods on models, so the property is
# attached here, once, when the models are first loaded through the SDK.
SessionInfo.handle = property(handle)  # type: ignore[attr-defined]
