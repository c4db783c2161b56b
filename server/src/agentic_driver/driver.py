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

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Self

from pydantic import MISSING, BaseModel

from . import envelope, views
from ._version import __version__
from .attachments import AttachmentLimits
from .auth import SessionPrincipal
from .clock import Clock, SystemClock
from .config import (
    DEFAULT_MAX_RUN_EVENT_BYTES,
    ConfigError,
    HostConfig,
    IdempotencyConfig,
    PerSubjectConfig,
    RunsConfig,
    SessionsConfig,
)
from .errors import SessionBusy
from .ids import HostIds
from .metrics import Metrics
from .models import (
    CancelRunResponse,
    CreateSessionRequest,
    CreateSessionResponse,
    Discovery,
    ForkSessionRequest,
    ProviderInfo,
    ReadSessionResponse,
    RunRequest,
    RunResult,
    RunState,
    SubmitRunActionsRequest,
    TruncateSessionRequest,
)
from .pricing import Prices
from .providers import Provider, build_provider
from .providers.base import HoldsConnections, ToolSpec
from .qualification import NativeQualification
from .quotas import SubjectQuotas
from .reach import Reach
from .sessions import SessionRecord, SessionStore
from .sessions.creation import create_session
from .snapshot import RestoreReport
from .tools import HostTool, import_handler
from .turns import ActiveRun, RunRegistry, RunSlots, TurnLifecycle
from .turns.admission import RunAdmission, refuse_stale_or_busy
from .turns.idempotency import IdempotencyStore, KeyedRequests
from .turns.lifecycle import tools_fingerprint
from .views import NumberedEvents

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
        runs: RunsConfig | None = None,
        max_run_event_bytes: int = DEFAULT_MAX_RUN_EVENT_BYTES,
        tools: Iterable[HostTool] = (),
        prices: Mapping[tuple[str, str], Prices] | None = None,
        clock: Clock | None = None,
        attachment_limits: AttachmentLimits | None = None,
        qualification: NativeQualification | None = None,
        per_subject: PerSubjectConfig | None = None,
    ) -> None:
        self.host_id = host_id
        self.restored: RestoreReport | None = None
        """What the host took back from its restart snapshot at start (``snapshot.restore_at_start``), if any."""
        self._qualification = qualification
        self.ids = HostIds(host_id)
        self.metrics = Metrics()
        self._clock = clock or SystemClock()
        self._providers = {p.id: p for p in providers}
        self.metrics.declare_models((p, model) for p in self._providers.values() for model in p.models)
        self.quotas = SubjectQuotas(per_subject or PerSubjectConfig(), self._clock, self.metrics.subject_quota_refused)
        """``limits.perSubject``: what one subject may hold on this host process."""
        self._store = (
            SessionStore(sessions, self._clock, self.metrics.sessions_stored.set, ids=self.ids, quotas=self.quotas)
            if sessions is not None
            else None
        )
        self._reach = Reach(self._providers, self._store)
        bounds = idempotency or IdempotencyConfig()
        self._keys = KeyedRequests(IdempotencyStore(bounds.maxKeys, bounds.ttlMs, self._clock), self._reach)
        self._host_tools: dict[str, HostTool] = {}
        for tool in tools:
            self.register_tool(tool)
        kept = runs or RunsConfig()
        self._runs = RunRegistry(
            max_waiting_runs,
            clock=self._clock,
            retention_ms=kept.retentionMs,
            max_ended=kept.maxEntries,
            max_event_bytes=max_run_event_bytes,
        )
        lifecycle = TurnLifecycle(
            RunSlots(max_concurrent_runs, max_queued_runs, self.metrics.run_slot_waited),
            self._runs,
            self.metrics,
            self._clock,
            self._host_tools,
            self._keys.store,
            host_id,
            dict(prices or {}),
            compact_max_chars=sessions.compactToolResultsMaxChars if sessions is not None else 500,
        )
        self._turns = RunAdmission(
            lifecycle, self._reach, self._keys, self.ids, attachment_limits or AttachmentLimits(), self.quotas
        )
        slots, store, registry = lifecycle.slots, self._store, self._runs
        self.metrics.watch(
            lambda: len(registry),
            lambda: slots.in_use,
            lambda: slots.waiting,
            lambda: store.pending_timers() if store is not None else 0,
            lambda: registry.may_wait,
            registry.event_bytes,
            lambda: registry.retained,
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
            [
                build_provider(p, f"providers[{i}]", max_connections=config.limits.maxConcurrentRuns)
                for i, p in enumerate(config.providers)
            ],
            host_id=config.hostId,
            sessions=config.sessions,
            max_concurrent_runs=config.limits.maxConcurrentRuns,
            max_queued_runs=config.limits.maxQueuedRuns,
            max_waiting_runs=config.limits.maxWaitingRuns,
            idempotency=config.idempotency,
            runs=config.runs,
            max_run_event_bytes=config.limits.maxRunEventBytes,
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
            per_subject=config.limits.perSubject,
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
    def clock(self) -> Clock:
        return self._clock

    @property
    def providers(self) -> Mapping[str, Provider]:
        """The configured provider instances by id."""
        return self._providers

    @property
    def idempotency(self) -> IdempotencyStore:
        """Every caller's idempotency keys and their recorded outcomes."""
        return self._keys.store

    @property
    def slots(self) -> RunSlots:
        return self._turns.lifecycle.slots

    def active_runs(self) -> list[ActiveRun]:
        """Runs that have not ended (waiting for a slot, running, or paused for the application)."""
        return self._runs.all()

    def forget_ended_runs(self) -> None:
        """Free every ended run kept for ``get_run`` and ``stream_run_events`` (the host drained)."""
        self._runs.forget_ended()

    async def aclose(self) -> None:
        """Close what the providers hold open (network adapters' pooled connections); the host calls it after
        its drain. An embedding application calls it when it is done with the driver, or uses the driver as
        an async context manager (``async with Driver.from_config(config) as driver:``)."""
        for provider in self._providers.values():
            if isinstance(provider, HoldsConnections):
                await provider.aclose()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    def register_tool(self, tool: HostTool) -> None:
        """Offer a host tool to the model on every run."""
        if tool.name in self._host_tools:
            raise ValueError(f"a host tool named {tool.name!r} is already registered")
        self._host_tools[tool.name] = tool

    def bind_account(self, provider_id: str, account_id: str | None) -> None:
        """Change an instance's account binding; sessions bound to the old account stop continuing."""
        self._reach.provider(provider_id).account_id = account_id

    # -- discovery and sessions ------------------------------------------------------

    async def discovery(self, principal: SessionPrincipal = LOCAL_PRINCIPAL) -> Discovery:
        return Discovery(
            hostId=self.host_id,
            version=__version__,
            subject=principal.subject,
            sessionGrants=[g for g in ("create", "read", "continue", "delete") if g in principal.grants],
            providers=[self._provider_info(p) for p in self._providers.values() if principal.may_use(p.id)],
            sessions=views.sessions_policy(self._store),
            runs=views.runs_policy(self._runs),
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
        return self._made_once(
            principal, idempotency_key, ("createSession", "", request), lambda: self._create_session(request, principal)
        )

    def _made_once(
        self,
        principal: SessionPrincipal,
        key: str | None,
        keyed: tuple[str, str, BaseModel],
        make: Callable[[], SessionRecord],
    ) -> CreateSessionResponse:
        """A session made by ``make``, once per idempotency key: a repeat replays the first answer, a refusal
        forgets the key. ``keyed`` is what the key is bound to: the operation, its path target and its body."""
        replay = self._keys.claim(principal, key, *keyed)
        if replay is not None:
            result: CreateSessionResponse = self._keys.replay(replay, principal)
            return result
        try:
            record = make()
        except BaseException:
            self._keys.release(principal, key)
            raise
        response = CreateSessionResponse(session=views.session_info(record, self.host_id))
        if key is not None:
            self._keys.store.record(
                principal.subject,
                key,
                result=response,
                session_id=record.id,
                provider=record.owner.provider,
                grant="create",
            )
        return response

    async def read_session(self, session_id: str, principal: SessionPrincipal = LOCAL_PRINCIPAL) -> ReadSessionResponse:
        principal.require_grant("read")
        return views.read_session_view(self._reach.owned_session(principal, session_id), self.host_id)

    async def truncate_session(
        self, session_id: str, request: TruncateSessionRequest, principal: SessionPrincipal = LOCAL_PRINCIPAL
    ) -> CreateSessionResponse:
        """Keep the first ``keepTurns`` turns; the revision advances, accounting stays."""
        principal.require_grant("continue")
        record = self._reach.owned_session(principal, session_id)
        refuse_stale_or_busy(record, request.revision)
        self._reach.require_store().truncate(record, request.keepTurns)
        return CreateSessionResponse(session=views.session_info(record, self.host_id))

    async def fork_session(
        self,
        session_id: str,
        request: ForkSessionRequest,
        principal: SessionPrincipal = LOCAL_PRINCIPAL,
        *,
        idempotency_key: str | None = None,
    ) -> CreateSessionResponse:
        """A new session holding this one up to the turn boundary ``request.revision`` (default: now)."""
        return self._made_once(
            principal,
            idempotency_key,
            ("forkSession", session_id, request),
            lambda: self._fork(session_id, request, principal),
        )

    def _fork(self, session_id: str, request: ForkSessionRequest, principal: SessionPrincipal) -> SessionRecord:
        principal.require_grant("read")
        principal.require_grant("create")
        source = self._reach.owned_session(principal, session_id)
        store = self._reach.require_store()
        if source.active_run is not None:
            raise SessionBusy(
                f"Run {source.active_run.id!r} is active in this session; fork it when the turn has ended.",
                active_run_id=source.active_run.id,
            )
        return store.fork(source, source.revision if request.revision is MISSING else request.revision)

    def export_session(
        self, session_id: str, principal: SessionPrincipal = LOCAL_PRINCIPAL, *, include_instructions: bool = False
    ) -> dict[str, Any]:
        """A versioned, JSON-clean envelope of the session (embedded use only; the host stores nothing)."""
        principal.require_grant("read")
        record = self._reach.owned_session(principal, session_id)
        return envelope.export_record(record, include_instructions, self._reach.provider(record.owner.provider).kind)

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
        envelope.refuse_another_owner(parsed, self._reach.granted_provider(principal, parsed.provider, parsed.model))
        surface = tuple(tools) + tuple(tool.spec for tool in self._host_tools.values())
        record, report = envelope.restore(
            self._reach.require_store(), parsed, principal.subject, instructions, tools_fingerprint(surface)
        )
        return dataclasses.replace(report, session=views.session_info(record, self.host_id))

    async def delete_session(self, session_id: str, principal: SessionPrincipal = LOCAL_PRINCIPAL) -> None:
        principal.require_grant("delete")
        record = self._reach.owned_session(principal, session_id)
        self._reach.require_store().delete(record)
        self._runs.forget_session(record.id)
        run = record.active_run
        if run is not None:
            run.cancel("session_deleted")
            await run.settled()

    # -- runs ------------------------------------------------------------------------

    async def run(
        self, request: RunRequest, principal: SessionPrincipal = LOCAL_PRINCIPAL, *, idempotency_key: str | None = None
    ) -> RunResult:
        return await self._turns.run(request, principal, idempotency_key)

    async def stream_run(
        self, request: RunRequest, principal: SessionPrincipal = LOCAL_PRINCIPAL, *, idempotency_key: str | None = None
    ) -> NumberedEvents:
        """Admit the run (raising any refusal now), then return its events."""
        return self._turns.stream(request, principal, idempotency_key)

    async def submit_run_actions(
        self,
        run_id: str,
        request: SubmitRunActionsRequest,
        principal: SessionPrincipal = LOCAL_PRINCIPAL,
        *,
        idempotency_key: str | None = None,
    ) -> RunResult:
        return await self._turns.submit(run_id, request, principal, idempotency_key)

    async def stream_run_actions(
        self,
        run_id: str,
        request: SubmitRunActionsRequest,
        principal: SessionPrincipal = LOCAL_PRINCIPAL,
        *,
        idempotency_key: str | None = None,
    ) -> NumberedEvents:
        return self._turns.stream_submit(run_id, request, principal, idempotency_key)

    async def get_run(self, run_id: str, principal: SessionPrincipal = LOCAL_PRINCIPAL) -> RunState:
        """The run's state and outcome, while it is active and for ``runs.retentionMs`` after its end."""
        return views.run_state(self._turns.lookup(run_id, principal), self.host_id)

    async def stream_run_events(
        self, run_id: str, principal: SessionPrincipal = LOCAL_PRINCIPAL, *, after: int = 0
    ) -> NumberedEvents:
        """The run's events after event ``after`` (0: from its first), replayed then followed to its next pause
        or end; refusals (RUN_NOT_FOUND, RUN_EVENTS_EXPIRED) are raised now. Reading never stops the run."""
        return self._turns.rejoin(run_id, principal, after)

    async def cancel_run(self, run_id: str, principal: SessionPrincipal = LOCAL_PRINCIPAL) -> CancelRunResponse:
        run = self._turns.find(run_id, principal)
        run.cancel("cancelled")
        await run.settled()
        response = CancelRunResponse(id=run.id, status="cancelled", modelWorkStarted=run.model_work_started)
        if run.session is not None and not run.session.deleted:
            response.session = views.session_info(run.session, self.host_id)
        return response

    # -- helpers ------------------------------------------------------------------------

    def _create_session(self, request: CreateSessionRequest, principal: SessionPrincipal) -> SessionRecord:
        provider = self._reach.granted_provider(principal, request.provider, request.model)
        principal.require_grant("create")
        refusal = None  # host JSON's qualification may refuse native on an instance and model
        if request.mode == "native" and self._qualification is not None:
            refusal = self._qualification.refusal(provider, request.model)
        return create_session(self._reach.require_store(), provider, principal.subject, request, native_refusal=refusal)
