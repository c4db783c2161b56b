"""The embedded API: every remote operation is one method here.

    driver = Driver.from_config(config)
    created = await driver.create_session(
        CreateSessionRequest(provider="echo", model="echo-1", mode="history")
    )
    result = await driver.run(
        RunRequest(provider="echo", model="echo-1", input="Hi",
                   session=SessionHandle(id=created.session.id, revision=created.session.revision))
    )

Methods take the request models generated from ``openapi.yaml`` and a trusted
``SessionPrincipal`` (default: subject ``local`` with every grant) and return the
generated response models; ``stream_run`` and ``stream_run_actions`` return an
async iterator of the generated event models once the run is admitted. Failures
raise ``errors.DriverError`` subclasses, the same codes the HTTP host answers with.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterator, Iterable, Mapping
from typing import Any

from pydantic import MISSING, BaseModel

from . import envelope, views
from ._version import __version__
from .attachments import AttachmentLimits, check_attachments
from .auth import SessionGrant, SessionPrincipal
from .clock import Clock, SystemClock
from .config import (
    DEFAULT_MAX_ENTRIES,
    DEFAULT_MAX_MESSAGES,
    DEFAULT_MAX_NATIVE_MESSAGES,
    DEFAULT_MAX_RECORD_BYTES,
    ConfigError,
    HostConfig,
    IdempotencyConfig,
    SessionsConfig,
)
from .errors import (
    ActionMismatch,
    DriverError,
    ModelNotFound,
    ProviderNotFound,
    RunNotFound,
    RunNotWaiting,
    SessionAccountRequired,
    SessionContextUnsupported,
    SessionNotFound,
    SessionOverrideRejected,
    SessionPrefixChanged,
    SessionsDisabled,
    ToolNameConflict,
    UnsupportedContinuation,
    ValidationFailed,
)
from .ids import HostIds
from .metrics import Metrics
from .models import (
    CancelRunResponse,
    CreateSessionRequest,
    CreateSessionResponse,
    Discovery,
    ProviderInfo,
    ReadSessionResponse,
    RunRequest,
    RunResult,
    SessionsPolicy,
    SubmitRunActionsRequest,
    TruncateSessionRequest,
)
from .pricing import Prices
from .providers import ModelRequest, Provider, VisibleMessage, build_provider
from .providers.base import NativeFiltering, ToolSpec
from .qualification import NativeQualification
from .sessions import Owner, RunFigures, SessionRecord, SessionStore
from .tools import HostTool, import_handler
from .turns import ActiveRun, RunRegistry, RunSlots, TurnLifecycle
from .turns.idempotency import IdempotencyStore, Recorded, fingerprint, json_digest
from .turns.lifecycle import refuse_stale_or_busy, tools_fingerprint
from .turns.runs import Delta, Outcome, PendingAction
from .views import StreamEvent

__all__ = ["LOCAL_PRINCIPAL", "Driver"]

LOCAL_PRINCIPAL = SessionPrincipal()


class Driver:
    """Runs turns on configured provider instances and keeps opt-in sessions."""

    def __init__(
        self,
        providers: list[Provider],
        *,
        host_id: str = "local-host",
        sessions: SessionsConfig | None = None,
        max_concurrent_runs: int = 64,
        max_queued_runs: int = 256,
        max_waiting_runs: int = 256,
        idempotency: IdempotencyConfig | None = None,
        tools: Iterable[HostTool] = (),
        prices: Mapping[tuple[str, str], Prices] | None = None,
        clock: Clock | None = None,
        attachment_limits: AttachmentLimits | None = None,
        qualification: NativeQualification | None = None,
    ) -> None:
        self.host_id = host_id
        self._qualification = qualification
        self._attachment_limits = attachment_limits or AttachmentLimits()
        self.ids = HostIds(host_id)
        self.metrics = Metrics()
        self._clock = clock or SystemClock()
        self._providers = {p.id: p for p in providers}
        self._store = (
            SessionStore(sessions, self._clock, self.metrics.sessions_stored.set, ids=self.ids)
            if sessions is not None
            else None
        )
        keys = idempotency or IdempotencyConfig()
        self._idempotency = IdempotencyStore(keys.maxKeys, keys.ttlMs, self._clock)
        self._host_tools: dict[str, HostTool] = {}
        for tool in tools:
            self.register_tool(tool)
        self._runs = RunRegistry(max_waiting_runs)
        self._prices = dict(prices or {})
        self._turns = TurnLifecycle(
            RunSlots(max_concurrent_runs, max_queued_runs),
            self._runs,
            self.metrics,
            self._clock,
            self._host_tools,
            describe=self._describe,
            prices=lambda provider, model: self._prices.get((provider, model)),
            compact_max_chars=sessions.compactToolResultsMaxChars if sessions is not None else 500,
        )
        slots, store, runs = self._turns.slots, self._store, self._runs
        self.metrics.watch(
            lambda: len(runs),
            lambda: slots.in_use,
            lambda: slots.waiting,
            lambda: store.pending_timers() if store is not None else 0,
            lambda: runs.may_wait,
        )

    @classmethod
    def from_config(cls, config: HostConfig, *, clock: Clock | None = None) -> Driver:
        tools = []
        for index, tool in enumerate(config.tools):
            try:
                handler = import_handler(tool.handler)
            except ValueError as error:
                raise ConfigError([f"tools[{index}].handler: {error}"]) from None
            tools.append(HostTool(tool.name, handler, tool.parameters, tool.description, tool.approval))
        return cls(
            [build_provider(p, f"providers[{i}]") for i, p in enumerate(config.providers)],
            host_id=config.hostId,
            sessions=config.sessions,
            max_concurrent_runs=config.limits.maxConcurrentRuns,
            max_queued_runs=config.limits.maxQueuedRuns,
            max_waiting_runs=config.limits.maxWaitingRuns,
            idempotency=config.idempotency,
            tools=tools,
            prices={
                (provider.id, model): Prices(
                    price.inputPerMillion,
                    price.outputPerMillion,
                    price.cachedInputPerMillion,
                    price.cacheWritePerMillion,
                )
                for provider in config.providers
                for model, price in provider.prices.items()
            },
            clock=clock,
            attachment_limits=AttachmentLimits(config.limits.maxAttachmentBytes, config.limits.maxRunAttachmentBytes),
            qualification=(
                None
                if config.qualification is None
                else NativeQualification(config.qualification, {p.id: p for p in config.providers}, clock)
            ),
        )

    @property
    def store(self) -> SessionStore | None:
        """The session store, or None when sessions are disabled."""
        return self._store

    @property
    def slots(self) -> RunSlots:
        return self._turns.slots

    def active_runs(self) -> list[ActiveRun]:
        """Runs that have not ended (waiting for a slot, running, or paused for the application)."""
        return self._runs.all()

    def register_tool(self, tool: HostTool) -> None:
        """Offer a host tool to the model on every run."""
        if tool.name in self._host_tools:
            raise ValueError(f"a host tool named {tool.name!r} is already registered")
        self._host_tools[tool.name] = tool

    def bind_account(self, provider_id: str, account_id: str | None) -> None:
        """Change an instance's account binding; sessions bound to the old account stop continuing."""
        self._provider(provider_id).account_id = account_id

    # -- discovery and sessions ------------------------------------------------------

    async def discovery(self, principal: SessionPrincipal = LOCAL_PRINCIPAL) -> Discovery:
        return Discovery(
            hostId=self.host_id,
            version=__version__,
            subject=principal.subject,
            sessionGrants=[g for g in ("create", "read", "continue", "delete") if g in principal.grants],
            providers=[self._provider_info(p) for p in self._providers.values() if principal.may_use(p.id)],
            sessions=self._sessions_policy(),
        )

    def _provider_info(self, provider: Provider) -> ProviderInfo:
        """What discovery says of an instance: native only while host JSON's qualification allows it."""
        info = views.provider_info(provider)
        if self._qualification is None or not info.capabilities.nativeContinuation:
            return info
        if self._qualification.advertises(provider):
            return info
        unqualified = info.capabilities.model_copy(update={"nativeContinuation": False})
        return info.model_copy(update={"capabilities": unqualified})

    async def create_session(
        self,
        request: CreateSessionRequest,
        principal: SessionPrincipal = LOCAL_PRINCIPAL,
        *,
        idempotency_key: str | None = None,
    ) -> CreateSessionResponse:
        replay = self._claim(principal, idempotency_key, "createSession", "", request)
        if replay is not None:
            result: CreateSessionResponse = self._replay(replay, principal)
            return result
        try:
            response = self._create_session(request, principal)
        except BaseException:
            self._release(principal, idempotency_key)
            raise
        if idempotency_key is not None:
            self._idempotency.record(
                principal.subject,
                idempotency_key,
                result=response,
                session_id=response.session.id,
                provider=request.provider,
                grant="create",
            )
        return response

    async def read_session(self, session_id: str, principal: SessionPrincipal = LOCAL_PRINCIPAL) -> ReadSessionResponse:
        principal.require_grant("read")
        return views.read_session_view(self._owned_session(principal, session_id), self.host_id)

    async def truncate_session(
        self, session_id: str, request: TruncateSessionRequest, principal: SessionPrincipal = LOCAL_PRINCIPAL
    ) -> CreateSessionResponse:
        """Keep the first ``keepTurns`` turns; the revision advances, accounting stays."""
        principal.require_grant("continue")
        record = self._owned_session(principal, session_id)
        refuse_stale_or_busy(record, request.revision)
        self._require_store().truncate(record, request.keepTurns)
        return CreateSessionResponse(session=views.session_info(record, self.host_id))

    def export_session(
        self, session_id: str, principal: SessionPrincipal = LOCAL_PRINCIPAL, *, include_instructions: bool = False
    ) -> dict[str, Any]:
        """A versioned, JSON-clean envelope of the session (embedded use only; the host stores nothing)."""
        principal.require_grant("read")
        record = self._owned_session(principal, session_id)
        return envelope.export_record(record, include_instructions, self._provider(record.owner.provider).kind)

    def import_session(
        self,
        data: Mapping[str, Any],
        principal: SessionPrincipal = LOCAL_PRINCIPAL,
        *,
        instructions: str | None = None,
        tools: Iterable[ToolSpec] = (),
    ) -> envelope.ImportReport:
        """Restore an exported session into this driver's store (bounds apply).

        Refuses another provider or account (``envelope.ImportRejected``); reports,
        without refusing, instructions or a tool surface whose fingerprint changed.
        ``instructions`` supplies them when the envelope was exported without them.
        """
        principal.require_grant("create")
        parsed = envelope.parse(data)
        if parsed.provider not in self._providers:
            raise envelope.ImportRejected(
                f"The session belongs to provider {parsed.provider!r}, which this host does not configure."
            )
        provider = self._granted_provider(principal, parsed.provider, parsed.model)
        if parsed.provider_kind is not None and parsed.provider_kind != provider.kind:
            raise envelope.ImportRejected(
                f"The session was kept by a {parsed.provider_kind!r} provider; {provider.id!r} is {provider.kind!r}."
            )
        if provider.account_id is None or provider.account_id != parsed.account:
            raise envelope.ImportRejected(
                f"The session belongs to account {parsed.account!r}; provider {provider.id!r} is bound to "
                f"{provider.account_id!r}. Sessions never move between accounts."
            )
        surface = tuple(tools) + tuple(tool.spec for tool in self._host_tools.values())
        record, report = envelope.restore(
            self._require_store(), parsed, principal.subject, instructions, tools_fingerprint(surface)
        )
        return dataclasses.replace(report, session=views.session_info(record, self.host_id))

    async def delete_session(self, session_id: str, principal: SessionPrincipal = LOCAL_PRINCIPAL) -> None:
        principal.require_grant("delete")
        record = self._owned_session(principal, session_id)
        self._require_store().delete(record)
        run = record.active_run
        if run is not None:
            run.cancel("session_deleted")
            await run.settled()

    # -- runs ------------------------------------------------------------------------

    async def run(
        self, request: RunRequest, principal: SessionPrincipal = LOCAL_PRINCIPAL, *, idempotency_key: str | None = None
    ) -> RunResult:
        replay = self._claim(principal, idempotency_key, "run", "", request)
        if replay is not None:
            result: RunResult = self._replay(replay, principal)
            return result
        run = self._admitted(principal, idempotency_key, lambda: self._begin_run(request, principal))
        return await self._answer(run)

    async def stream_run(
        self, request: RunRequest, principal: SessionPrincipal = LOCAL_PRINCIPAL, *, idempotency_key: str | None = None
    ) -> AsyncIterator[StreamEvent]:
        """Admit the run (raising any refusal now), then return its events."""
        replay = self._claim(principal, idempotency_key, "run", "", request)
        if replay is not None:
            return self._replayed_stream(replay, principal)
        run = self._admitted(principal, idempotency_key, lambda: self._begin_run(request, principal))
        session = views.session_info(run.session, self.host_id) if run.session is not None else None
        return self._stream(run, views.started_event(run.id, session))

    async def submit_run_actions(
        self,
        run_id: str,
        request: SubmitRunActionsRequest,
        principal: SessionPrincipal = LOCAL_PRINCIPAL,
        *,
        idempotency_key: str | None = None,
    ) -> RunResult:
        replay = self._claim(principal, idempotency_key, "submitRunActions", run_id, request)
        if replay is not None:
            result: RunResult = self._replay(replay, principal)
            return result
        run = self._admitted(principal, idempotency_key, lambda: self._begin_submit(run_id, request, principal))
        return await self._answer(run)

    async def stream_run_actions(
        self,
        run_id: str,
        request: SubmitRunActionsRequest,
        principal: SessionPrincipal = LOCAL_PRINCIPAL,
        *,
        idempotency_key: str | None = None,
    ) -> AsyncIterator[StreamEvent]:
        replay = self._claim(principal, idempotency_key, "submitRunActions", run_id, request)
        if replay is not None:
            return self._replayed_stream(replay, principal)
        run = self._admitted(principal, idempotency_key, lambda: self._begin_submit(run_id, request, principal))
        return self._stream(run, None)

    async def cancel_run(self, run_id: str, principal: SessionPrincipal = LOCAL_PRINCIPAL) -> CancelRunResponse:
        run = self._active_run(run_id, principal)
        run.cancel("cancelled")
        await run.settled()
        response = CancelRunResponse(id=run.id, status="cancelled", modelWorkStarted=run.model_work_started)
        if run.session is not None and not run.session.deleted:
            response.session = views.session_info(run.session, self.host_id)
        return response

    # -- admission -------------------------------------------------------------------

    def _begin_run(self, request: RunRequest, principal: SessionPrincipal) -> ActiveRun:
        provider = self._granted_provider(principal, request.provider, request.model)
        tools = self._tool_specs(request, provider)
        idle = None if request.idleTimeoutMs is MISSING else request.idleTimeoutMs
        run = ActiveRun(
            id=self.ids.new_run_id(),
            subject=principal.subject,
            provider=provider.id,
            input=request.input,
            may_wait=self._may_wait(request, tools),
            action_timeout_ms=None if request.actionTimeoutMs is MISSING else request.actionTimeoutMs,
        )
        if request.session is MISSING:
            if request.attachments is not MISSING:
                check_attachments(provider, request.attachments, self._attachment_limits)
            self._turns.reserve(run)
            self._turns.start(run, provider, _stateless_request(request, tools), None, idle)
            return run
        principal.require_grant("continue")
        store = self._require_store()
        _refuse_session_overrides(request)
        record = self._owned_session(principal, request.session.id, provider=provider.id, model=request.model)
        if record.owner.account != provider.account_id:
            raise SessionNotFound(
                f"Session {record.id!r} is bound to an account that provider {provider.id!r} no longer uses; "
                "it can be read or deleted but not continued."
            )
        prefix = self._check_prefix(record, provider, tools)
        run.session = record
        self._turns.admit(store, record, request.session.revision, run, prefix)
        self._turns.start(run, provider, self._turns.session_request(record, request.input, tools), store, idle)
        return run

    def _begin_submit(self, run_id: str, request: SubmitRunActionsRequest, principal: SessionPrincipal) -> ActiveRun:
        run = self._active_run(run_id, principal)
        # A run being stopped (cancel, delete, disconnect) still shows its pending action until its task
        # processes the cancellation; its answer future is already done then, and answering it must not be tried.
        if run.pending is None or run.answer is None or run.answer.done() or run.cancel_reason is not None:
            raise RunNotWaiting(f"Run {run.id!r} is not waiting for an action.")
        answer = _match_answer(run.pending, request)
        self._turns.answer(run, answer)
        return run

    def _admitted(self, principal: SessionPrincipal, key: str | None, begin: Any) -> ActiveRun:
        """Run ``begin``; a refusal forgets the idempotency key, an admission records its outcome."""
        try:
            run: ActiveRun = begin()
        except BaseException:
            self._release(principal, key)
            raise
        if key is not None:
            subject, session_id = principal.subject, run.session.id if run.session is not None else None
            grant: SessionGrant | None = "continue" if run.session is not None else None

            def record(outcome: Outcome) -> None:
                self._idempotency.record(
                    subject,
                    key,
                    result=outcome.result,
                    error=outcome.error,
                    session_id=session_id,
                    provider=run.provider,
                    grant=grant,
                    run_id=run.id,
                )

            run.on_outcome = record
        return run

    async def _answer(self, run: ActiveRun) -> RunResult:
        """Wait for the run to pause, finish or fail, and answer the request with that."""
        run.streamed = False
        try:
            outcome = await run.outcome()
        except asyncio.CancelledError as cancelled:  # the request was cancelled: do not leave its turn running
            run.cancel("disconnected" if "disconnected" in cancelled.args else "cancelled")
            raise
        if outcome.error is not None:
            raise outcome.error
        result: RunResult = outcome.result
        return result

    def _stream(self, run: ActiveRun, first: StreamEvent | None) -> RunEvents:
        run.streamed = True
        return RunEvents(run, first)

    def _describe(self, run: ActiveRun, action: PendingAction | None, text: str, figures: RunFigures) -> RunResult:
        record = run.session
        session = views.session_info(record, self.host_id) if record is not None and not record.deleted else None
        return views.run_result(run.id, action, text, figures, session)

    # -- idempotency ------------------------------------------------------------------

    def _claim(
        self, principal: SessionPrincipal, key: str | None, operation: str, target: str, body: BaseModel
    ) -> Recorded | None:
        if key is None:
            return None
        digest = fingerprint(operation, target, body.model_dump(mode="json"))
        return self._idempotency.claim(principal.subject, key, digest)

    def _release(self, principal: SessionPrincipal, key: str | None) -> None:
        if key is not None:
            self._idempotency.release(principal.subject, key)

    def _replay(self, recorded: Recorded, principal: SessionPrincipal) -> Any:
        """The recorded outcome, after checking that the caller may still reach it."""
        if recorded.provider is not None:
            principal.require_provider(recorded.provider)
        if recorded.grant is not None:
            principal.require_grant(recorded.grant)
        if recorded.session_id is not None:
            self._owned_session(principal, recorded.session_id)
        if recorded.error is not None:
            raise recorded.error
        return recorded.result

    def _replayed_stream(self, recorded: Recorded, principal: SessionPrincipal) -> AsyncIterator[StreamEvent]:
        """One event with the recorded outcome; access is checked now, before any event is sent."""
        try:
            result = self._replay(recorded, principal)
        except DriverError as error:
            if error is not recorded.error:
                raise  # a failed access check, not the recorded outcome
            result = None
        return _single(views.outcome_event(recorded.run_id or "", result, recorded.error))

    # -- helpers ------------------------------------------------------------------------

    def _create_session(self, request: CreateSessionRequest, principal: SessionPrincipal) -> CreateSessionResponse:
        provider = self._granted_provider(principal, request.provider, request.model)
        principal.require_grant("create")
        store = self._require_store()
        if provider.account_id is None:
            raise SessionAccountRequired(
                f"Provider {provider.id!r} has no account binding; it serves stateless runs only."
            )
        capabilities = provider.capabilities
        supported = capabilities.native_continuation if request.mode == "native" else capabilities.history_continuation
        if not supported:
            raise UnsupportedContinuation(f"Provider {provider.id!r} does not support {request.mode} continuation.")
        if request.mode == "native" and self._qualification is not None:
            refusal = self._qualification.refusal(provider, request.model)  # host JSON's qualification block
            if refusal is not None:
                raise UnsupportedContinuation(refusal)
        native_filter = "full" if request.nativeHistory is MISSING else request.nativeHistory
        _check_native_filter(provider, request.mode, native_filter)
        history = [] if request.history is MISSING else [VisibleMessage(m.role, m.content) for m in request.history]
        record = store.create(
            Owner(principal.subject, provider.id, provider.account_id, request.model),
            request.mode,
            None if request.instructions is MISSING else request.instructions,
            history,
            native_filter=native_filter,
        )
        return CreateSessionResponse(session=views.session_info(record, self.host_id))

    def _active_run(self, run_id: str, principal: SessionPrincipal) -> ActiveRun:
        run = self._runs.find(run_id, principal.subject)
        if run is None:
            raise RunNotFound(f"No active run {run_id!r} for this caller.")
        principal.require_provider(run.provider)
        if run.session is not None:
            principal.require_grant("continue")
        return run

    def _check_prefix(self, record: SessionRecord, provider: Provider, tools: tuple[ToolSpec, ...]) -> str | None:
        """Refuse, before any model work, a native turn that would change a provider's fixed request prefix.

        Anthropic replays thinking blocks only under the exact system prompt and
        tool definitions they were made with; a changed prefix is a provider 400
        at best and a silent cache miss at worst, so the session records the
        prefix of its first turn and later turns must match it.
        """
        if record.mode != "native" or not provider.capabilities.fixed_native_prefix:
            return record.prefix_fingerprint
        surface = {
            "instructions": record.instructions,
            "tools": [{"name": t.name, "description": t.description, "parameters": t.parameters} for t in tools],
        }
        digest = json_digest(surface)
        if record.prefix_fingerprint is not None and record.prefix_fingerprint != digest:
            raise SessionPrefixChanged(
                f"Session {record.id!r} is a native session on provider {provider.id!r}, whose request prefix "
                "(instructions and tool definitions) must stay byte-identical; this run's tools differ from its "
                "first turn's. Send the same tools, or start a new session."
            )
        return digest

    def _tool_specs(self, request: RunRequest, provider: Provider) -> tuple[ToolSpec, ...]:
        declared = [] if request.tools is MISSING else request.tools
        if not provider.capabilities.application_functions:
            if declared:
                raise ValidationFailed(
                    f"Provider {provider.id!r} does not take application functions.",
                    errors=[{"location": "body.tools", "message": "the provider does not take functions"}],
                )
            return ()
        problems = []
        seen: set[str] = set()
        for index, tool in enumerate(declared):
            if tool.name in self._host_tools:
                problems.append({"location": f"body.tools.{index}.name", "message": f"{tool.name!r} is a host tool"})
            elif tool.name in seen:
                problems.append({"location": f"body.tools.{index}.name", "message": f"{tool.name!r} is declared twice"})
            seen.add(tool.name)
        if problems:
            raise ToolNameConflict(
                f"Tool names must be unique and differ from the host's tools: {problems[0]['message']}.",
                errors=problems,
            )
        own = tuple(ToolSpec(t.name, "" if t.description is MISSING else t.description, t.parameters) for t in declared)
        return own + tuple(tool.spec for tool in self._host_tools.values())

    def _may_wait(self, request: RunRequest, tools: tuple[ToolSpec, ...]) -> bool:
        """Whether the run could pause for the application: it offers its own functions or a host tool needing
        approval (host tools that need none are answered by the host itself)."""
        if request.tools is not MISSING and request.tools:
            return True
        offered = {t.name for t in tools}
        return any(tool.approval == "required" for name, tool in self._host_tools.items() if name in offered)

    def _provider(self, provider_id: str) -> Provider:
        provider = self._providers.get(provider_id)
        if provider is None:
            raise ProviderNotFound(f"No provider instance {provider_id!r} on this host.")
        return provider

    def _granted_provider(self, principal: SessionPrincipal, provider_id: str, model: str) -> Provider:
        provider = self._provider(provider_id)
        principal.require_provider(provider.id)
        if model not in provider.models:
            raise ModelNotFound(f"Provider {provider.id!r} does not serve model {model!r}.")
        return provider

    def _require_store(self) -> SessionStore:
        if self._store is None:
            raise SessionsDisabled("This host keeps no sessions (it sets no sessions.retentionMs).")
        return self._store

    def _owned_session(
        self, principal: SessionPrincipal, session_id: str, *, provider: str | None = None, model: str | None = None
    ) -> SessionRecord:
        """The caller's session; any other identity's is reported exactly like a missing one."""
        record = self._require_store().get(session_id)
        owner = record.owner if record is not None else None
        if (
            record is None
            or owner is None
            or owner.subject != principal.subject
            or (provider is not None and owner.provider != provider)
            or (model is not None and owner.model != model)
        ):
            scope = "this caller" if provider is None else "this caller, provider and model"
            raise SessionNotFound(f"No session {session_id!r} for {scope}.")
        principal.require_provider(owner.provider)
        return record

    def _sessions_policy(self) -> SessionsPolicy:
        if self._store is None:
            return SessionsPolicy(
                enabled=False,
                retentionMs=None,
                maxEntries=DEFAULT_MAX_ENTRIES,
                maxMessages=DEFAULT_MAX_MESSAGES,
                maxRecordBytes=DEFAULT_MAX_RECORD_BYTES,
                maxNativeMessages=DEFAULT_MAX_NATIVE_MESSAGES,
            )
        policy = self._store.policy
        return SessionsPolicy(
            enabled=True,
            retentionMs=policy.retentionMs,
            maxEntries=policy.maxEntries,
            maxMessages=policy.maxMessages,
            maxRecordBytes=policy.maxRecordBytes,
            maxNativeMessages=policy.maxNativeMessages,
        )


class RunEvents:
    """A run's events for one reader. Closing it before the last event disconnects the reader,
    which stops the run (interrupted if model work had started), even if it was never read."""

    def __init__(self, run: ActiveRun, first: StreamEvent | None) -> None:
        self._run = run
        self._first = first
        self._finished = False

    def __aiter__(self) -> RunEvents:
        return self

    async def __anext__(self) -> StreamEvent:
        if self._finished:
            raise StopAsyncIteration
        if self._first is not None:
            first, self._first = self._first, None
            return first
        try:
            signal = await self._run.next_signal()
        except asyncio.CancelledError:
            await self.aclose()
            raise
        if isinstance(signal, Delta):
            return views.delta_event(self._run.id, signal.text)
        self._finished = True
        return views.outcome_event(self._run.id, signal.result, signal.error)

    async def aclose(self) -> None:
        if not self._finished:
            self._finished = True
            self._run.cancel("disconnected")


async def _single(event: StreamEvent) -> AsyncIterator[StreamEvent]:
    yield event


def _stateless_request(request: RunRequest, tools: tuple[ToolSpec, ...]) -> ModelRequest:
    return ModelRequest(
        model=request.model,
        input=request.input,
        instructions=None if request.instructions is MISSING else request.instructions,
        messages=() if request.history is MISSING else [VisibleMessage(m.role, m.content) for m in request.history],
        attachments=()
        if request.attachments is MISSING
        else [(a.name, a.mediaType, a.data) for a in request.attachments],
        retrieval=() if request.retrieval is MISSING else [(d.id, d.text) for d in request.retrieval.documents],
        tools=tools,
    )


def _check_native_filter(provider: Provider, mode: str, native_filter: str) -> None:
    if native_filter == "full":
        return
    if mode != "native":
        raise ValidationFailed(
            "nativeHistory filters apply to native sessions only.",
            errors=[{"location": "body.nativeHistory", "message": "requires mode native"}],
        )
    if native_filter not in provider.capabilities.native_filters or not isinstance(provider, NativeFiltering):
        raise UnsupportedContinuation(f"Provider {provider.id!r} does not support the {native_filter} native history.")


def _refuse_session_overrides(request: RunRequest) -> None:
    overrides = [name for name in ("instructions", "history") if getattr(request, name) is not MISSING]
    if overrides:
        raise SessionOverrideRejected(
            f"A session run cannot send {' or '.join(overrides)}: they belong to the session since its creation."
        )
    context = [name for name in ("attachments", "retrieval") if getattr(request, name) is not MISSING]
    if context:
        raise SessionContextUnsupported(
            f"Sessions accept text input only; {' and '.join(context)} need a stateless run."
        )


def _match_answer(pending: PendingAction, request: SubmitRunActionsRequest) -> dict[str, Any]:
    """The answers keyed by call id, exactly matching what the run asked for."""
    results, approvals = request.functionResults, request.approvals
    if (results is MISSING) == (approvals is MISSING):
        raise ValidationFailed(
            "Send exactly one of functionResults or approvals.",
            errors=[{"location": "body", "message": "exactly one of functionResults, approvals"}],
        )
    answers: list[tuple[str, Any]]
    if pending.kind == "function_calls":
        if results is MISSING:
            raise ActionMismatch("The run waits for function results, not approvals.")
        answers = [(r.callId, r.output) for r in results]
    else:
        if approvals is MISSING:
            raise ActionMismatch("The run waits for approvals, not function results.")
        answers = [(a.callId, (a.approve, None if a.reason is MISSING else a.reason)) for a in approvals]
    ids = [call_id for call_id, _ in answers]
    duplicated = sorted({i for i in ids if ids.count(i) > 1})
    missing = sorted(pending.call_ids - set(ids))
    extra = sorted(set(ids) - pending.call_ids)
    problems = []
    if missing:
        problems.append(f"missing answers for call ids: {', '.join(missing)}")
    if extra:
        problems.append(f"answers for call ids not asked for: {', '.join(extra)}")
    if duplicated:
        problems.append(f"call ids answered twice: {', '.join(duplicated)}")
    if problems:
        raise ActionMismatch("The answers do not match the run's required action: " + "; ".join(problems) + ".")
    return dict(answers)
