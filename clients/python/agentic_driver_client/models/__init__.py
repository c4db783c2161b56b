# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
"""Contains all the data models used in inputs/outputs"""

from .actions_conflict_problem import ActionsConflictProblem
from .actions_conflict_problem_code import ActionsConflictProblemCode
from .actions_invalid_problem import ActionsInvalidProblem
from .actions_invalid_problem_code import ActionsInvalidProblemCode
from .actions_not_found_problem import ActionsNotFoundProblem
from .actions_not_found_problem_code import ActionsNotFoundProblemCode
from .approval_decision import ApprovalDecision
from .approvals_action import ApprovalsAction
from .attachment import Attachment
from .cancel_run_response import CancelRunResponse
from .create_session_invalid_problem import CreateSessionInvalidProblem
from .create_session_invalid_problem_code import CreateSessionInvalidProblemCode
from .create_session_not_found_problem import CreateSessionNotFoundProblem
from .create_session_not_found_problem_code import CreateSessionNotFoundProblemCode
from .create_session_request import CreateSessionRequest
from .create_session_response import CreateSessionResponse
from .create_session_unavailable_problem import CreateSessionUnavailableProblem
from .create_session_unavailable_problem_code import CreateSessionUnavailableProblemCode
from .discovery import Discovery
from .error_code import ErrorCode
from .function_call import FunctionCall
from .function_call_arguments import FunctionCallArguments
from .function_calls_action import FunctionCallsAction
from .function_result import FunctionResult
from .health import Health
from .interrupt_reason import InterruptReason
from .interrupted_turn import InterruptedTurn
from .message import Message
from .message_role import MessageRole
from .native_history_filter import NativeHistoryFilter
from .output_delta_event import OutputDeltaEvent
from .payload_too_large_problem import PayloadTooLargeProblem
from .payload_too_large_problem_code import PayloadTooLargeProblemCode
from .permission_denied_problem import PermissionDeniedProblem
from .permission_denied_problem_code import PermissionDeniedProblemCode
from .problem import Problem
from .provider_capabilities import ProviderCapabilities
from .provider_error_problem import ProviderErrorProblem
from .provider_error_problem_code import ProviderErrorProblemCode
from .provider_info import ProviderInfo
from .provider_overloaded_problem import ProviderOverloadedProblem
from .provider_overloaded_problem_code import ProviderOverloadedProblemCode
from .provider_rate_limited_problem import ProviderRateLimitedProblem
from .provider_rate_limited_problem_code import ProviderRateLimitedProblemCode
from .provider_timeout_problem import ProviderTimeoutProblem
from .provider_timeout_problem_code import ProviderTimeoutProblemCode
from .read_session_response import ReadSessionResponse
from .request_timeout_problem import RequestTimeoutProblem
from .request_timeout_problem_code import RequestTimeoutProblemCode
from .retrieval import Retrieval
from .retrieved_document import RetrievedDocument
from .retry_accounting import RetryAccounting
from .run_completed_event import RunCompletedEvent
from .run_conflict_problem import RunConflictProblem
from .run_conflict_problem_code import RunConflictProblemCode
from .run_event_message import RunEventMessage
from .run_failed_event import RunFailedEvent
from .run_invalid_problem import RunInvalidProblem
from .run_invalid_problem_code import RunInvalidProblemCode
from .run_not_found_problem import RunNotFoundProblem
from .run_not_found_problem_code import RunNotFoundProblemCode
from .run_output import RunOutput
from .run_request import RunRequest
from .run_requires_action_event import RunRequiresActionEvent
from .run_result import RunResult
from .run_started_event import RunStartedEvent
from .run_status import RunStatus
from .run_target_not_found_problem import RunTargetNotFoundProblem
from .run_target_not_found_problem_code import RunTargetNotFoundProblemCode
from .run_unavailable_problem import RunUnavailableProblem
from .run_unavailable_problem_code import RunUnavailableProblemCode
from .session_account_required_problem import SessionAccountRequiredProblem
from .session_account_required_problem_code import SessionAccountRequiredProblemCode
from .session_grant import SessionGrant
from .session_handle import SessionHandle
from .session_info import SessionInfo
from .session_mode import SessionMode
from .session_not_found_problem import SessionNotFoundProblem
from .session_not_found_problem_code import SessionNotFoundProblemCode
from .session_status import SessionStatus
from .sessions_disabled_problem import SessionsDisabledProblem
from .sessions_disabled_problem_code import SessionsDisabledProblemCode
from .sessions_policy import SessionsPolicy
from .stream_actions_conflict_problem import StreamActionsConflictProblem
from .stream_actions_conflict_problem_code import StreamActionsConflictProblemCode
from .stream_actions_invalid_problem import StreamActionsInvalidProblem
from .stream_actions_invalid_problem_code import StreamActionsInvalidProblemCode
from .stream_run_conflict_problem import StreamRunConflictProblem
from .stream_run_conflict_problem_code import StreamRunConflictProblemCode
from .submit_run_actions_request import SubmitRunActionsRequest
from .tool_definition import ToolDefinition
from .tool_definition_parameters import ToolDefinitionParameters
from .truncate_conflict_problem import TruncateConflictProblem
from .truncate_conflict_problem_code import TruncateConflictProblemCode
from .truncate_invalid_problem import TruncateInvalidProblem
from .truncate_invalid_problem_code import TruncateInvalidProblemCode
from .truncate_session_request import TruncateSessionRequest
from .turn import Turn
from .unauthenticated_problem import UnauthenticatedProblem
from .unauthenticated_problem_code import UnauthenticatedProblemCode
from .unsupported_media_type_problem import UnsupportedMediaTypeProblem
from .unsupported_media_type_problem_code import UnsupportedMediaTypeProblemCode
from .usage import Usage
from .validation_issue import ValidationIssue

__all__ = (
    "ActionsConflictProblem",
    "ActionsConflictProblemCode",
    "ActionsInvalidProblem",
    "ActionsInvalidProblemCode",
    "ActionsNotFoundProblem",
    "ActionsNotFoundProblemCode",
    "ApprovalDecision",
    "ApprovalsAction",
    "Attachment",
    "CancelRunResponse",
    "CreateSessionInvalidProblem",
    "CreateSessionInvalidProblemCode",
    "CreateSessionNotFoundProblem",
    "CreateSessionNotFoundProblemCode",
    "CreateSessionRequest",
    "CreateSessionResponse",
    "CreateSessionUnavailableProblem",
    "CreateSessionUnavailableProblemCode",
    "Discovery",
    "ErrorCode",
    "FunctionCall",
    "FunctionCallArguments",
    "FunctionCallsAction",
    "FunctionResult",
    "Health",
    "InterruptReason",
    "InterruptedTurn",
    "Message",
    "MessageRole",
    "NativeHistoryFilter",
    "OutputDeltaEvent",
    "PayloadTooLargeProblem",
    "PayloadTooLargeProblemCode",
    "PermissionDeniedProblem",
    "PermissionDeniedProblemCode",
    "Problem",
    "ProviderCapabilities",
    "ProviderErrorProblem",
    "ProviderErrorProblemCode",
    "ProviderInfo",
    "ProviderOverloadedProblem",
    "ProviderOverloadedProblemCode",
    "ProviderRateLimitedProblem",
    "ProviderRateLimitedProblemCode",
    "ProviderTimeoutProblem",
    "ProviderTimeoutProblemCode",
    "ReadSessionResponse",
    "RequestTimeoutProblem",
    "RequestTimeoutProblemCode",
    "Retrieval",
    "RetrievedDocument",
    "RetryAccounting",
    "RunCompletedEvent",
    "RunConflictProblem",
    "RunConflictProblemCode",
    "RunEventMessage",
    "RunFailedEvent",
    "RunInvalidProblem",
    "RunInvalidProblemCode",
    "RunNotFoundProblem",
    "RunNotFoundProblemCode",
    "RunOutput",
    "RunRequest",
    "RunRequiresActionEvent",
    "RunResult",
    "RunStartedEvent",
    "RunStatus",
    "RunTargetNotFoundProblem",
    "RunTargetNotFoundProblemCode",
    "RunUnavailableProblem",
    "RunUnavailableProblemCode",
    "SessionAccountRequiredProblem",
    "SessionAccountRequiredProblemCode",
    "SessionGrant",
    "SessionHandle",
    "SessionInfo",
    "SessionMode",
    "SessionNotFoundProblem",
    "SessionNotFoundProblemCode",
    "SessionStatus",
    "SessionsDisabledProblem",
    "SessionsDisabledProblemCode",
    "SessionsPolicy",
    "StreamActionsConflictProblem",
    "StreamActionsConflictProblemCode",
    "StreamActionsInvalidProblem",
    "StreamActionsInvalidProblemCode",
    "StreamRunConflictProblem",
    "StreamRunConflictProblemCode",
    "SubmitRunActionsRequest",
    "ToolDefinition",
    "ToolDefinitionParameters",
    "TruncateConflictProblem",
    "TruncateConflictProblemCode",
    "TruncateInvalidProblem",
    "TruncateInvalidProblemCode",
    "TruncateSessionRequest",
    "Turn",
    "UnauthenticatedProblem",
    "UnauthenticatedProblemCode",
    "UnsupportedMediaTypeProblem",
    "UnsupportedMediaTypeProblemCode",
    "Usage",
    "ValidationIssue",
)
