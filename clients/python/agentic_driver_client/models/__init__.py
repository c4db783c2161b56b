# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
"""Contains all the data models used in inputs/outputs"""

from .approval_decision import ApprovalDecision
from .approvals_action import ApprovalsAction
from .attachment import Attachment
from .cancel_run_response import CancelRunResponse
from .create_session_request import CreateSessionRequest
from .create_session_response import CreateSessionResponse
from .discovery import Discovery
from .error_code import ErrorCode
from .fork_session_request import ForkSessionRequest
from .function_call import FunctionCall
from .function_call_arguments import FunctionCallArguments
from .function_calls_action import FunctionCallsAction
from .function_result import FunctionResult
from .health import Health
from .interrupt_reason import InterruptReason
from .interrupted_turn import InterruptedTurn
from .later_run_event import LaterRunEvent
from .message import Message
from .message_role import MessageRole
from .native_history_filter import NativeHistoryFilter
from .on_disconnect import OnDisconnect
from .output_delta_event import OutputDeltaEvent
from .problem import Problem
from .provider_capabilities import ProviderCapabilities
from .provider_info import ProviderInfo
from .read_session_response import ReadSessionResponse
from .readiness import Readiness
from .retrieval import Retrieval
from .retrieved_document import RetrievedDocument
from .retry_accounting import RetryAccounting
from .run_completed_event import RunCompletedEvent
from .run_event_message import RunEventMessage
from .run_failed_event import RunFailedEvent
from .run_output import RunOutput
from .run_request import RunRequest
from .run_requires_action_event import RunRequiresActionEvent
from .run_result import RunResult
from .run_started_event import RunStartedEvent
from .run_state import RunState
from .run_state_status import RunStateStatus
from .run_status import RunStatus
from .runs_policy import RunsPolicy
from .served_model_runs import ServedModelRuns
from .session_grant import SessionGrant
from .session_handle import SessionHandle
from .session_info import SessionInfo
from .session_mode import SessionMode
from .session_status import SessionStatus
from .sessions_policy import SessionsPolicy
from .snapshot_restore import SnapshotRestore
from .snapshot_restore_dropped import SnapshotRestoreDropped
from .submit_run_actions_request import SubmitRunActionsRequest
from .tool_definition import ToolDefinition
from .tool_definition_parameters import ToolDefinitionParameters
from .truncate_session_request import TruncateSessionRequest
from .turn import Turn
from .usage import Usage
from .validation_issue import ValidationIssue

__all__ = (
    "ApprovalDecision",
    "ApprovalsAction",
    "Attachment",
    "CancelRunResponse",
    "CreateSessionRequest",
    "CreateSessionResponse",
    "Discovery",
    "ErrorCode",
    "ForkSessionRequest",
    "FunctionCall",
    "FunctionCallArguments",
    "FunctionCallsAction",
    "FunctionResult",
    "Health",
    "InterruptReason",
    "InterruptedTurn",
    "LaterRunEvent",
    "Message",
    "MessageRole",
    "NativeHistoryFilter",
    "OnDisconnect",
    "OutputDeltaEvent",
    "Problem",
    "ProviderCapabilities",
    "ProviderInfo",
    "ReadSessionResponse",
    "Readiness",
    "Retrieval",
    "RetrievedDocument",
    "RetryAccounting",
    "RunCompletedEvent",
    "RunEventMessage",
    "RunFailedEvent",
    "RunOutput",
    "RunRequest",
    "RunRequiresActionEvent",
    "RunResult",
    "RunStartedEvent",
    "RunState",
    "RunStateStatus",
    "RunStatus",
    "RunsPolicy",
    "ServedModelRuns",
    "SessionGrant",
    "SessionHandle",
    "SessionInfo",
    "SessionMode",
    "SessionStatus",
    "SessionsPolicy",
    "SnapshotRestore",
    "SnapshotRestoreDropped",
    "SubmitRunActionsRequest",
    "ToolDefinition",
    "ToolDefinitionParameters",
    "TruncateSessionRequest",
    "Turn",
    "Usage",
    "ValidationIssue",
)
