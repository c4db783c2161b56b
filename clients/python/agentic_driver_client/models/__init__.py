# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
"""Contains all the data models used in inputs/outputs"""

from .attachment import Attachment
from .cancel_run_response import CancelRunResponse
from .create_session_invalid_problem import CreateSessionInvalidProblem
from .create_session_invalid_problem_code import CreateSessionInvalidProblemCode
from .create_session_request import CreateSessionRequest
from .create_session_response import CreateSessionResponse
from .discovery import Discovery
from .error_code import ErrorCode
from .health import Health
from .interrupt_reason import InterruptReason
from .interrupted_turn import InterruptedTurn
from .message import Message
from .message_role import MessageRole
from .payload_too_large_problem import PayloadTooLargeProblem
from .payload_too_large_problem_code import PayloadTooLargeProblemCode
from .permission_denied_problem import PermissionDeniedProblem
from .permission_denied_problem_code import PermissionDeniedProblemCode
from .problem import Problem
from .provider_capabilities import ProviderCapabilities
from .provider_error_problem import ProviderErrorProblem
from .provider_error_problem_code import ProviderErrorProblemCode
from .provider_info import ProviderInfo
from .provider_or_model_not_found_problem import ProviderOrModelNotFoundProblem
from .provider_or_model_not_found_problem_code import ProviderOrModelNotFoundProblemCode
from .read_session_response import ReadSessionResponse
from .retrieval import Retrieval
from .retrieved_document import RetrievedDocument
from .run_conflict_problem import RunConflictProblem
from .run_conflict_problem_code import RunConflictProblemCode
from .run_invalid_problem import RunInvalidProblem
from .run_invalid_problem_code import RunInvalidProblemCode
from .run_not_found_problem import RunNotFoundProblem
from .run_not_found_problem_code import RunNotFoundProblemCode
from .run_output import RunOutput
from .run_request import RunRequest
from .run_result import RunResult
from .run_status import RunStatus
from .run_target_not_found_problem import RunTargetNotFoundProblem
from .run_target_not_found_problem_code import RunTargetNotFoundProblemCode
from .session_account_required_problem import SessionAccountRequiredProblem
from .session_account_required_problem_code import SessionAccountRequiredProblemCode
from .session_grant import SessionGrant
from .session_handle import SessionHandle
from .session_info import SessionInfo
from .session_mode import SessionMode
from .session_not_found_problem import SessionNotFoundProblem
from .session_not_found_problem_code import SessionNotFoundProblemCode
from .session_status import SessionStatus
from .session_store_full_problem import SessionStoreFullProblem
from .session_store_full_problem_code import SessionStoreFullProblemCode
from .sessions_disabled_problem import SessionsDisabledProblem
from .sessions_disabled_problem_code import SessionsDisabledProblemCode
from .sessions_policy import SessionsPolicy
from .turn import Turn
from .unauthenticated_problem import UnauthenticatedProblem
from .unauthenticated_problem_code import UnauthenticatedProblemCode
from .unsupported_media_type_problem import UnsupportedMediaTypeProblem
from .unsupported_media_type_problem_code import UnsupportedMediaTypeProblemCode
from .usage import Usage
from .validation_issue import ValidationIssue

__all__ = (
    "Attachment",
    "CancelRunResponse",
    "CreateSessionInvalidProblem",
    "CreateSessionInvalidProblemCode",
    "CreateSessionRequest",
    "CreateSessionResponse",
    "Discovery",
    "ErrorCode",
    "Health",
    "InterruptReason",
    "InterruptedTurn",
    "Message",
    "MessageRole",
    "PayloadTooLargeProblem",
    "PayloadTooLargeProblemCode",
    "PermissionDeniedProblem",
    "PermissionDeniedProblemCode",
    "Problem",
    "ProviderCapabilities",
    "ProviderErrorProblem",
    "ProviderErrorProblemCode",
    "ProviderInfo",
    "ProviderOrModelNotFoundProblem",
    "ProviderOrModelNotFoundProblemCode",
    "ReadSessionResponse",
    "Retrieval",
    "RetrievedDocument",
    "RunConflictProblem",
    "RunConflictProblemCode",
    "RunInvalidProblem",
    "RunInvalidProblemCode",
    "RunNotFoundProblem",
    "RunNotFoundProblemCode",
    "RunOutput",
    "RunRequest",
    "RunResult",
    "RunStatus",
    "RunTargetNotFoundProblem",
    "RunTargetNotFoundProblemCode",
    "SessionAccountRequiredProblem",
    "SessionAccountRequiredProblemCode",
    "SessionGrant",
    "SessionHandle",
    "SessionInfo",
    "SessionMode",
    "SessionNotFoundProblem",
    "SessionNotFoundProblemCode",
    "SessionStatus",
    "SessionStoreFullProblem",
    "SessionStoreFullProblemCode",
    "SessionsDisabledProblem",
    "SessionsDisabledProblemCode",
    "SessionsPolicy",
    "Turn",
    "UnauthenticatedProblem",
    "UnauthenticatedProblemCode",
    "UnsupportedMediaTypeProblem",
    "UnsupportedMediaTypeProblemCode",
    "Usage",
    "ValidationIssue",
)
