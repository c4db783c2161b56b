"""Stored state -> the response models generated from ``openapi.yaml``."""

from __future__ import annotations

from typing import Any, NamedTuple, Protocol

from .clock import format_ms
from .config import DEFAULT_MAX_ENTRIES, DEFAULT_MAX_MESSAGES, DEFAULT_MAX_NATIVE_MESSAGES, DEFAULT_MAX_RECORD_BYTES
from .errors import DriverError
from .models import (
    ApprovalsAction,
    FunctionCall,
    FunctionCallsAction,
    InterruptedTurn,
    Message,
    OutputDeltaEvent,
    Problem,
    ProviderCapabilities,
    ProviderInfo,
    ReadSessionResponse,
    RetryAccounting,
    RunCompletedEvent,
    RunFailedEvent,
    RunOutput,
    RunRequiresActionEvent,
    RunResult,
    RunsPolicy,
    RunStartedEvent,
    RunState,
    SessionInfo,
    SessionsPolicy,
    Turn,
    Usage,
)
from .providers.base import Provider
from .providers.base import Usage as UsageFigures
from .sessions import RunFigures, SessionRecord, SessionStore
from .turns.runs import ActiveRun, PendingAction, RunRegistry

__all__ = [
    "NumberedEvents",
    "SessionView",
    "StreamEvent",
    "delta_event",
    "failed_event",
    "outcome_event",
    "provider_info",
    "read_session_view",
    "render_session",
    "run_result",
    "run_state",
    "runs_policy",
    "session_info",
    "session_view",
    "started_event",
]

StreamEvent = RunStartedEvent | OutputDeltaEvent | RunRequiresActionEvent | RunCompletedEvent | RunFailedEvent


class NumberedEvents(Protocol):
    """A run's events that know their ids: ``event_id`` is the id (among the run's events) of the one last
    returned, what a stream sends as its SSE ``id``."""

    event_id: int

    def __aiter__(self) -> NumberedEvents: ...

    async def __anext__(self) -> StreamEvent: ...


class SessionView(NamedTuple):
    """What a ``SessionInfo`` shows of a record at one moment: cheap to take, rendered only when read.

    A run's ``run.started`` carries its session as it was then, but is read only by a stream or a rejoin;
    a run answered as JSON would otherwise build that model for nobody (``render_session`` builds it). A
    named tuple, because one is taken for every session run: it is about half the work of a dataclass.
    """

    record: SessionRecord
    revision: int
    status: str
    updated_ms: int
    expires_ms: int | None
    message_count: int
    record_bytes: int
    native_filter: str
    runs: int
    usage: UsageFigures
    cost: float | None
    retries: int
    retry_usage: UsageFigures
    retry_cost: float | None
    served_runs: tuple[tuple[str, int], ...]
    recent_models: tuple[str, ...]
    """The accounting's served models as they were (immutable tuples: the view keeps what it saw)."""


def session_view(record: SessionRecord) -> SessionView:
    accounting = record.accounting
    return SessionView(
        record,
        record.revision,
        record.status,
        record.updated_ms,
        record.expires_ms,
        len(record.history),
        record.record_bytes,
        record.native_filter,
        accounting.runs,
        accounting.usage,
        accounting.cost,
        accounting.retries,
        accounting.retry_usage,
        accounting.retry_cost,
        accounting.served_runs,
        accounting.recent_models,
    )


def session_info(record: SessionRecord, host_id: str) -> SessionInfo:
    return render_session(session_view(record), host_id)


def render_session(view: SessionView, host_id: str) -> SessionInfo:
    record = view.record
    return SessionInfo(
        id=record.id,
        revision=view.revision,
        status=view.status,
        provider=record.owner.provider,
        model=record.owner.model,
        mode=record.mode,
        createdAt=format_ms(record.created_ms),
        updatedAt=format_ms(view.updated_ms),
        expiresAt=None if view.expires_ms is None else format_ms(view.expires_ms),
        messageCount=view.message_count,
        recordBytes=view.record_bytes,
        hostId=host_id,
        nativeHistory=view.native_filter,
        runCount=view.runs,
        usage=usage_view(view.usage),
        cost=view.cost,
        retries=RetryAccounting(
            count=view.retries,
            inputTokens=view.retry_usage.input_tokens,
            outputTokens=view.retry_usage.output_tokens,
            cost=view.retry_cost,
        ),
        servedModels=list(view.recent_models),
        # plain dicts: pydantic validates them natively, about half the cost of building each model in Python
        servedModelRuns=[{"model": model, "runs": runs} for model, runs in view.served_runs],
    )


def usage_view(usage: UsageFigures) -> Usage:
    return Usage(
        inputTokens=usage.input_tokens,
        outputTokens=usage.output_tokens,
        cachedInputTokens=usage.cached_input_tokens,
        cacheWriteTokens=usage.cache_write_tokens,
        reasoningTokens=usage.reasoning_tokens,
    )


def read_session_view(record: SessionRecord, host_id: str) -> ReadSessionResponse:
    response = ReadSessionResponse(
        session=session_info(record, host_id),
        instructions=record.instructions,
        history=[Message(role=m.role, content=m.content) for m in record.history],
        turns=[
            Turn(revision=t.revision, runId=t.run_id, start=t.start, end=t.end, at=format_ms(t.at_ms))
            for t in record.turns
        ],
    )
    if record.interrupted_turn is not None:
        turn = record.interrupted_turn
        response.interruptedTurn = InterruptedTurn(
            runId=turn.run_id,
            input=turn.input,
            reason=turn.reason,
            at=format_ms(turn.at_ms),
        )
    return response


def sessions_policy(store: SessionStore | None) -> SessionsPolicy:
    """What discovery says of sessions: off (with the default bounds), or the store's retention and bounds."""
    if store is None:
        return SessionsPolicy(
            enabled=False,
            retentionMs=None,
            maxEntries=DEFAULT_MAX_ENTRIES,
            maxMessages=DEFAULT_MAX_MESSAGES,
            maxRecordBytes=DEFAULT_MAX_RECORD_BYTES,
            maxNativeMessages=DEFAULT_MAX_NATIVE_MESSAGES,
        )
    policy = store.policy
    return SessionsPolicy(
        enabled=True,
        retentionMs=policy.retentionMs,
        maxEntries=policy.maxEntries,
        maxMessages=policy.maxMessages,
        maxRecordBytes=policy.maxRecordBytes,
        maxNativeMessages=policy.maxNativeMessages,
    )


def provider_info(provider: Provider) -> ProviderInfo:
    capabilities = provider.capabilities
    return ProviderInfo(
        id=provider.id,
        kind=provider.kind,
        models=list(provider.models),
        accountBound=provider.account_id is not None,
        capabilities=ProviderCapabilities(
            historyContinuation=capabilities.history_continuation,
            nativeContinuation=capabilities.native_continuation,
            streaming=capabilities.streaming,
            applicationFunctions=capabilities.application_functions,
            nativeHistoryFilters=list(capabilities.native_filters),
            attachmentMediaTypes=list(capabilities.attachment_media_types),
        ),
    )


def run_result(
    run_id: str,
    action: PendingAction | None,
    text: str,
    figures: RunFigures,
    session: SessionInfo | None,
) -> RunResult:
    result = RunResult(
        id=run_id,
        status="completed" if action is None else "requires_action",
        output=RunOutput(text=text),
        usage=usage_view(figures.usage),
        cost=figures.cost,
        retries=RetryAccounting(
            count=figures.retries,
            inputTokens=figures.retry_usage.input_tokens,
            outputTokens=figures.retry_usage.output_tokens,
            cost=figures.retry_cost,
        ),
        servedModel=figures.served_model,
    )
    if action is not None:
        calls = [FunctionCall(callId=c.call_id, name=c.name, arguments=c.arguments) for c in action.calls]
        result.requiredAction = (
            FunctionCallsAction(type="function_calls", calls=calls)
            if action.kind == "function_calls"
            else ApprovalsAction(type="approvals", approvals=calls)
        )
    if session is not None:
        result.session = session
    return result


def run_state(run: ActiveRun, host_id: str) -> RunState:
    """What ``getRun`` says of a run: its state, its session now, and the outcome it ended or paused with."""
    state = RunState(
        id=run.id,
        status=run.state,
        onDisconnect=run.on_disconnect,
        firstEventId=max(run.log.first_id, 1),
        lastEventId=max(run.log.last_id, 1),
    )
    record = run.session
    if record is not None and not record.deleted:
        state.session = session_info(record, host_id)
    outcome = run.last_outcome
    if outcome is not None and run.state in ("completed", "requires_action") and outcome.result is not None:
        state.result = outcome.result
    elif outcome is not None and run.state in ("failed", "cancelled") and outcome.error is not None:
        state.problem = Problem.model_validate(outcome.error.problem())
    return state


def runs_policy(runs: RunRegistry) -> RunsPolicy:
    return RunsPolicy(
        onDisconnect=["cancel", "continue"],
        maxRunEventBytes=runs.max_event_bytes,
        retentionMs=runs.retention_ms,
        maxEntries=runs.max_ended,
    )


def started_event(run_id: str, session: SessionInfo | None) -> RunStartedEvent:
    event = RunStartedEvent(type="run.started", runId=run_id)
    if session is not None:
        event.session = session
    return event


def delta_event(run_id: str, text: str) -> OutputDeltaEvent:
    return OutputDeltaEvent(type="output.delta", runId=run_id, text=text)


def failed_event(run_id: str, error: DriverError) -> RunFailedEvent:
    return RunFailedEvent(type="run.failed", runId=run_id, problem=Problem.model_validate(error.problem()))


def outcome_event(run_id: str, result: Any, error: DriverError | None) -> StreamEvent:
    """The event that ends a stream: the run paused, completed or failed."""
    if error is not None:
        return failed_event(run_id, error)
    assert isinstance(result, RunResult)
    if result.status == "requires_action":
        return RunRequiresActionEvent(type="run.requires_action", run=result)
    return RunCompletedEvent(type="run.completed", run=result)
