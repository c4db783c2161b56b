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
generated response models. Failures raise ``errors.DriverError`` subclasses,
the same codes the HTTP host answers with.
"""

from __future__ import annotations

from pydantic import MISSING

from . import __version__
from .auth import SessionPrincipal
from .clock import Clock, SystemClock, format_ms
from .config import (
    DEFAULT_MAX_ENTRIES,
    DEFAULT_MAX_MESSAGES,
    DEFAULT_MAX_NATIVE_MESSAGES,
    DEFAULT_MAX_RECORD_BYTES,
    HostConfig,
    SessionsConfig,
)
from .errors import (
    ModelNotFound,
    ProviderNotFound,
    RunNotFound,
    SessionAccountRequired,
    SessionContextUnsupported,
    SessionNotFound,
    SessionOverrideRejected,
    SessionsDisabled,
    UnsupportedContinuation,
)
from .metrics import Metrics
from .models import (
    CancelRunResponse,
    CreateSessionRequest,
    CreateSessionResponse,
    Discovery,
    InterruptedTurn,
    Message,
    ProviderCapabilities,
    ProviderInfo,
    ReadSessionResponse,
    RunOutput,
    RunRequest,
    RunResult,
    SessionInfo,
    SessionsPolicy,
    Turn,
)
from .models import Usage as UsageModel
from .providers import ModelRequest, Provider, VisibleMessage, build_provider
from .sessions import Owner, SessionRecord, SessionStore
from .turns import ActiveRun, RunRegistry, RunSlots, TurnLifecycle

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
        clock: Clock | None = None,
    ) -> None:
        self.host_id = host_id
        self.metrics = Metrics()
        self._clock = clock or SystemClock()
        self._providers = {p.id: p for p in providers}
        self._store = (
            SessionStore(sessions, self._clock, self.metrics.sessions_stored.set) if sessions is not None else None
        )
        self._runs = RunRegistry()
        self._turns = TurnLifecycle(RunSlots(max_concurrent_runs), self._runs, self.metrics, self._clock)

    @classmethod
    def from_config(cls, config: HostConfig, *, clock: Clock | None = None) -> Driver:
        return cls(
            [build_provider(p) for p in config.providers],
            host_id=config.hostId,
            sessions=config.sessions,
            max_concurrent_runs=config.limits.maxConcurrentRuns,
            clock=clock,
        )

    @property
    def store(self) -> SessionStore | None:
        """The session store, or None when sessions are disabled."""
        return self._store

    def bind_account(self, provider_id: str, account_id: str | None) -> None:
        """Change an instance's account binding; sessions bound to the old account stop continuing."""
        self._provider(provider_id).account_id = account_id

    # -- operations -----------------------------------------------------------

    async def discovery(self, principal: SessionPrincipal = LOCAL_PRINCIPAL) -> Discovery:
        providers = [_provider_info(p) for p in self._providers.values() if principal.may_use(p.id)]
        return Discovery(
            hostId=self.host_id,
            version=__version__,
            subject=principal.subject,
            sessionGrants=[g for g in ("create", "read", "continue", "delete") if g in principal.grants],
            providers=providers,
            sessions=self._sessions_policy(),
        )

    async def create_session(
        self, request: CreateSessionRequest, principal: SessionPrincipal = LOCAL_PRINCIPAL
    ) -> CreateSessionResponse:
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
        history = [] if request.history is MISSING else [VisibleMessage(m.role, m.content) for m in request.history]
        record = store.create(
            Owner(principal.subject, provider.id, provider.account_id, request.model),
            request.mode,
            None if request.instructions is MISSING else request.instructions,
            history,
        )
        return CreateSessionResponse(session=self._session_info(record))

    async def read_session(self, session_id: str, principal: SessionPrincipal = LOCAL_PRINCIPAL) -> ReadSessionResponse:
        principal.require_grant("read")
        record = self._owned_session(principal, session_id)
        response = ReadSessionResponse(
            session=self._session_info(record),
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
                runId=turn.run_id, input=turn.input, reason=turn.reason, at=format_ms(turn.at_ms)
            )
        return response

    async def delete_session(self, session_id: str, principal: SessionPrincipal = LOCAL_PRINCIPAL) -> None:
        principal.require_grant("delete")
        record = self._owned_session(principal, session_id)
        store = self._require_store()
        store.delete(record)
        run = record.active_run
        if run is not None:
            run.cancel("session_deleted")
            await run.settled()

    async def run(self, request: RunRequest, principal: SessionPrincipal = LOCAL_PRINCIPAL) -> RunResult:
        provider = self._granted_provider(principal, request.provider, request.model)
        if request.session is MISSING:
            return await self._stateless_run(provider, request, principal)
        principal.require_grant("continue")
        store = self._require_store()
        _refuse_session_overrides(request)
        record = self._owned_session(principal, request.session.id, provider=provider.id, model=request.model)
        if record.owner.account != provider.account_id:
            raise SessionNotFound(
                f"Session {record.id!r} is bound to an account that provider {provider.id!r} no longer uses; "
                "it can be read or deleted but not continued."
            )
        run = ActiveRun(subject=principal.subject, provider=provider.id, input=request.input, session=record)
        self._turns.admit(store, record, request.session.revision, run)
        outcome = await self._turns.execute(run, provider, self._turns.session_request(record, request.input), store)
        return RunResult(
            id=run.id,
            status="completed",
            output=RunOutput(text=outcome.text),
            usage=UsageModel(inputTokens=outcome.usage.input_tokens, outputTokens=outcome.usage.output_tokens),
            session=self._session_info(record),
        )

    async def cancel_run(self, run_id: str, principal: SessionPrincipal = LOCAL_PRINCIPAL) -> CancelRunResponse:
        run = self._runs.find(run_id, principal.subject)
        if run is None:
            raise RunNotFound(f"No active run {run_id!r} for this caller.")
        principal.require_provider(run.provider)
        if run.session is not None:
            principal.require_grant("continue")
        run.cancel("cancelled")
        await run.settled()
        response = CancelRunResponse(id=run.id, status="cancelled", modelWorkStarted=run.model_work_started)
        if run.session is not None and not run.session.deleted:
            response.session = self._session_info(run.session)
        return response

    # -- helpers --------------------------------------------------------------

    async def _stateless_run(self, provider: Provider, request: RunRequest, principal: SessionPrincipal) -> RunResult:
        model_request = ModelRequest(
            model=request.model,
            input=request.input,
            instructions=None if request.instructions is MISSING else request.instructions,
            messages=() if request.history is MISSING else [VisibleMessage(m.role, m.content) for m in request.history],
            attachments=()
            if request.attachments is MISSING
            else [(a.name, a.mediaType, a.data) for a in request.attachments],
            retrieval=() if request.retrieval is MISSING else [(d.id, d.text) for d in request.retrieval.documents],
        )
        run = ActiveRun(subject=principal.subject, provider=provider.id, input=request.input)
        outcome = await self._turns.execute(run, provider, model_request, None)
        return RunResult(
            id=run.id,
            status="completed",
            output=RunOutput(text=outcome.text),
            usage=UsageModel(inputTokens=outcome.usage.input_tokens, outputTokens=outcome.usage.output_tokens),
        )

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

    def _session_info(self, record: SessionRecord) -> SessionInfo:
        return SessionInfo(
            id=record.id,
            revision=record.revision,
            status=record.status,
            provider=record.owner.provider,
            model=record.owner.model,
            mode=record.mode,
            createdAt=format_ms(record.created_ms),
            updatedAt=format_ms(record.updated_ms),
            expiresAt=None if record.expires_ms is None else format_ms(record.expires_ms),
            messageCount=len(record.history),
            recordBytes=record.record_bytes,
            hostId=self.host_id,
        )

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


def _provider_info(provider: Provider) -> ProviderInfo:
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
        ),
    )


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
