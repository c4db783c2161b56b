"""Admission: a run request becomes an admitted, started turn (or a refusal that touched nothing).

    driver.run -> RunAdmission.run -> replay? -> checks -> reserve (+ begin_turn) -> TurnLifecycle.start
               -> the outcome the lifecycle publishes (RunAdmission._result, or _events for a stream)

Stateless and session runs, and answers to a paused run, all enter here. The
checks run in the order their refusals are reported (provider, tools, grant,
session, prefix, revision, bounds, places) and admission is synchronous, so of
two runs on one revision exactly one is admitted. An idempotency key is
forgotten when its request is refused, and otherwise recorded by the lifecycle
with the outcome it publishes (``ActiveRun.idempotency_key``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pydantic import MISSING

from ..attachments import AttachmentLimits, check_attachments
from ..auth import SessionGrant, SessionPrincipal
from ..errors import (
    ActionMismatch,
    IdempotencyKeyInUse,
    RunEventsExpired,
    RunNotFound,
    RunNotWaiting,
    SessionBusy,
    SessionContextUnsupported,
    SessionInterrupted,
    SessionNotFound,
    SessionOverrideRejected,
    SessionPrefixChanged,
    SessionRevisionConflict,
    ToolNameConflict,
    ValidationFailed,
)
from ..ids import HostIds
from ..models import RunRequest, RunResult, SubmitRunActionsRequest
from ..providers.base import ModelRequest, Provider, ToolSpec, VisibleMessage
from ..quotas import SubjectQuotas
from ..reach import Reach
from ..sessions import SessionRecord, SessionStore
from ..tools import HostTool
from ..views import NumberedEvents
from .events import RunEvents
from .idempotency import KeyedRequests, Recorded, json_digest
from .lifecycle import TurnLifecycle
from .runs import ActiveRun, PendingAction

__all__ = ["RunAdmission", "match_answer", "refuse_stale_or_busy"]


class RunAdmission:
    """Admits runs and answers to paused runs, and reads what they answer with."""

    def __init__(
        self,
        lifecycle: TurnLifecycle,
        reach: Reach,
        keys: KeyedRequests,
        ids: HostIds,
        attachment_limits: AttachmentLimits,
        quotas: SubjectQuotas | None = None,
    ) -> None:
        self.lifecycle = lifecycle
        self._runs = lifecycle.runs
        self._host_tools = lifecycle.host_tools
        self._reach = reach
        self._keys = keys
        self._ids = ids
        self._attachment_limits = attachment_limits
        self._quotas = quotas

    # -- the operations (each replays a finished outcome of its idempotency key first) --------

    async def run(self, request: RunRequest, principal: SessionPrincipal, key: str | None) -> RunResult:
        """Admit and start a stateless or session run, and answer with its outcome."""
        try:
            replay = self._keys.claim(principal, key, "run", "", request)
        except IdempotencyKeyInUse as in_use:
            return await self._result(self._joined(in_use, principal), after=in_use.after)
        if replay is not None:
            replayed: RunResult = self._keys.replay(replay, principal)
            return replayed
        return await self._result(self._admitted(principal, key, lambda: self._begin_run(request, principal)))

    def stream(self, request: RunRequest, principal: SessionPrincipal, key: str | None) -> NumberedEvents:
        """Admit and start a run (raising any refusal now), and return its events."""
        try:
            replay = self._keys.claim(principal, key, "run", "", request)
        except IdempotencyKeyInUse as in_use:
            return RunEvents(self._joined(in_use, principal), in_use.after)
        if replay is not None:
            return self._replayed_stream(replay, principal)
        return self._events(self._admitted(principal, key, lambda: self._begin_run(request, principal)))

    async def submit(
        self, run_id: str, request: SubmitRunActionsRequest, principal: SessionPrincipal, key: str | None
    ) -> RunResult:
        """Resume a paused run with the application's answers, and answer with its next outcome."""
        try:
            replay = self._keys.claim(principal, key, "submitRunActions", run_id, request)
        except IdempotencyKeyInUse as in_use:
            return await self._result(self._joined(in_use, principal), after=in_use.after)
        if replay is not None:
            replayed: RunResult = self._keys.replay(replay, principal)
            return replayed
        return await self._result(
            self._admitted(principal, key, lambda: self._begin_submit(run_id, request, principal))
        )

    def stream_submit(
        self, run_id: str, request: SubmitRunActionsRequest, principal: SessionPrincipal, key: str | None
    ) -> NumberedEvents:
        """Resume a paused run (raising any refusal now), and return its events."""
        try:
            replay = self._keys.claim(principal, key, "submitRunActions", run_id, request)
        except IdempotencyKeyInUse as in_use:
            return RunEvents(self._joined(in_use, principal), in_use.after)
        if replay is not None:
            return self._replayed_stream(replay, principal)
        return self._events(self._admitted(principal, key, lambda: self._begin_submit(run_id, request, principal)))

    def find(self, run_id: str, principal: SessionPrincipal) -> ActiveRun:
        """The caller's active run, with the grants acting on it needs."""
        run = self._runs.find(run_id, principal.subject)
        if run is None:
            raise RunNotFound(f"No active run {run_id!r} for this caller.")
        return _granted(run, principal, "continue")

    def lookup(self, run_id: str, principal: SessionPrincipal) -> ActiveRun:
        """The caller's run, active or retained after its end, with the grants reading it needs."""
        run = self._runs.lookup(run_id, principal.subject)
        if run is None:
            raise RunNotFound(f"No run {run_id!r} for this caller.")
        return _granted(run, principal, "read")

    def rejoin(self, run_id: str, principal: SessionPrincipal, after: int) -> RunEvents:
        """The caller's run's events after event ``after``, replayed, then followed to its next outcome."""
        run = self.lookup(run_id, principal)
        log = run.log
        if after > log.last_id:
            raise ValidationFailed(
                f"Last-Event-ID {after} names no event of run {run.id!r} yet (its last is {log.last_id}).",
                errors=[{"location": "header.Last-Event-ID", "message": "after the run's last event"}],
            )
        if after < log.first_id - 1:
            raise RunEventsExpired(
                f"Events after {after} of run {run.id!r} are no longer buffered; the oldest held is {log.first_id}.",
                first_event_id=log.first_id,
            )
        return RunEvents(run, after)

    def _joined(self, in_use: IdempotencyKeyInUse, principal: SessionPrincipal) -> ActiveRun:
        """The still-active run a retried request's key started, when that run continues on disconnect:
        the retry follows it instead of being refused (and no second turn starts)."""
        run = self._runs.find(in_use.run_id, principal.subject) if in_use.run_id is not None else None
        if run is None or run.on_disconnect != "continue":
            raise in_use
        return run

    def _replayed_stream(self, recorded: Recorded, principal: SessionPrincipal) -> NumberedEvents:
        """A finished stream replayed: its original events while its run still holds them all, else the outcome."""
        replay = self._keys.replayed_stream(recorded, principal)  # checks access first
        run = self._runs.lookup(recorded.run_id, principal.subject) if recorded.run_id is not None else None
        if run is None or recorded.event_id is None or run.log.first_id > recorded.after + 1:
            return replay
        return RunEvents(run, recorded.after, until=recorded.event_id)

    async def _result(self, run: ActiveRun, after: int | None = None) -> RunResult:
        """Wait for the run to pause, finish or fail (after event ``after``: by default, from now on), and answer
        the request with that. A request cancelled meanwhile stops the run, unless it continues on disconnect."""
        try:
            outcome = await run.outcome(run.log.last_id if after is None else after)
        except asyncio.CancelledError as cancelled:
            disconnected = "disconnected" in cancelled.args
            if not (disconnected and run.on_disconnect == "continue"):
                run.cancel("disconnected" if disconnected else "cancelled")
            raise
        if outcome.error is not None:
            raise outcome.error
        result: RunResult = outcome.result
        return result

    def _events(self, run: ActiveRun) -> RunEvents:
        """The run's events from where the request now answering it begins, for that request's stream."""
        return RunEvents(run, run.answering_from, attached=True)

    # -- admission -------------------------------------------------------------------

    def admit(
        self, store: SessionStore, record: SessionRecord, revision: int, run: ActiveRun, prefix: str | None
    ) -> None:
        """Make ``run`` the session's active turn (holding it to ``prefix``), or refuse it without touching anything."""
        if record.status == "interrupted":
            raise SessionInterrupted(
                f"Session {record.id!r} was interrupted; read it to reconcile, then start a new session."
            )
        refuse_stale_or_busy(record, revision)
        store.check_growth(record, run.input)
        self.reserve(run)
        store.begin_turn(record, run, prefix_fingerprint=prefix)

    def reserve(self, run: ActiveRun) -> None:
        """Claim the run's places (its subject's quota, a waiting place if it may wait, a run slot or a place in
        line), or refuse it."""
        quotas = self._quotas
        if quotas is not None:
            quotas.check_run(run.subject, self._runs.active_of(run.subject))
        self._runs.check_waiting_place(run)
        self.lifecycle.slots.reserve()
        if quotas is not None:
            quotas.note_run(run.subject)

    def _begin_run(self, request: RunRequest, principal: SessionPrincipal) -> ActiveRun:
        provider = self._reach.granted_provider(principal, request.provider, request.model)
        tools = tool_specs(request, provider, self._host_tools)
        idle = None if request.idleTimeoutMs is MISSING else request.idleTimeoutMs
        run = ActiveRun(
            id=self._ids.new_run_id(),
            subject=principal.subject,
            provider=provider.id,
            input=request.input,
            log=self._runs.new_log(),
            on_disconnect="cancel" if request.onDisconnect is MISSING else request.onDisconnect,
            may_wait=may_wait(request, tools, self._host_tools),
            action_timeout_ms=None if request.actionTimeoutMs is MISSING else request.actionTimeoutMs,
        )
        if request.session is MISSING:
            if request.attachments is not MISSING:
                check_attachments(provider, request.attachments, self._attachment_limits)
            self.reserve(run)
            self.lifecycle.start(run, provider, stateless_request(request, tools), None, idle)
            return run
        principal.require_grant("continue")
        store = self._reach.require_store()
        refuse_session_overrides(request)
        record = self._reach.owned_session(principal, request.session.id, provider=provider.id, model=request.model)
        if record.owner.account != provider.account_id:
            raise SessionNotFound(
                f"Session {record.id!r} is bound to an account that provider {provider.id!r} no longer uses; "
                "it can be read or deleted but not continued."
            )
        prefix = check_prefix(record, provider, tools)
        run.session = record
        self.admit(store, record, request.session.revision, run, prefix)
        self.lifecycle.start(run, provider, session_request(record, request.input, tools), store, idle)
        return run

    def _begin_submit(self, run_id: str, request: SubmitRunActionsRequest, principal: SessionPrincipal) -> ActiveRun:
        run = self.find(run_id, principal)
        # A run being stopped (cancel, delete, disconnect) still shows its pending action until its task
        # processes the cancellation; its answer future is already done then, and answering it must not be tried.
        if run.pending is None or run.answer is None or run.answer.done() or run.cancel_reason is not None:
            raise RunNotWaiting(f"Run {run.id!r} is not waiting for an action.")
        answer = match_answer(run.pending, request)
        if request.onDisconnect is not MISSING:
            run.on_disconnect = request.onDisconnect
        run.answering_from = run.log.last_id  # this answer's events follow the run.requires_action it answers
        self.lifecycle.answer(run, answer)
        return run

    def _admitted(self, principal: SessionPrincipal, key: str | None, begin: Callable[[], ActiveRun]) -> ActiveRun:
        """Run ``begin``; a refusal forgets the idempotency key, an admission has its outcome recorded under it."""
        try:
            run = begin()
        except BaseException:
            self._keys.release(principal, key)
            raise
        if key is not None:
            run.idempotency_key = key
            self._keys.store.note_run(principal.subject, key, run.id, run.answering_from)
        return run


def _granted(run: ActiveRun, principal: SessionPrincipal, session_grant: SessionGrant) -> ActiveRun:
    """``run``, once the caller holds its provider grant and, for a session run, ``session_grant``."""
    principal.require_provider(run.provider)
    if run.session is not None:
        principal.require_grant(session_grant)
    return run


def refuse_stale_or_busy(record: SessionRecord, revision: int) -> None:
    """The checks every change to a session makes first: the caller's revision is current, no turn is active."""
    if revision != record.revision:
        raise SessionRevisionConflict(
            f"The session is at revision {record.revision}, not {revision}.",
            current_revision=record.revision,
        )
    if record.active_run is not None:
        raise SessionBusy(
            f"Run {record.active_run.id!r} is active in this session.",
            active_run_id=record.active_run.id,
        )


def refuse_session_overrides(request: RunRequest) -> None:
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


def check_prefix(record: SessionRecord, provider: Provider, tools: tuple[ToolSpec, ...]) -> str | None:
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


def tool_specs(request: RunRequest, provider: Provider, host_tools: Mapping[str, HostTool]) -> tuple[ToolSpec, ...]:
    """The run's tool surface: its own functions (checked), then the host's tools."""
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
        if tool.name in host_tools:
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
    return own + tuple(tool.spec for tool in host_tools.values())


def may_wait(request: RunRequest, tools: tuple[ToolSpec, ...], host_tools: Mapping[str, HostTool]) -> bool:
    """Whether the run could pause for the application: it offers its own functions or a host tool needing
    approval (host tools that need none are answered by the host itself)."""
    if request.tools is not MISSING and request.tools:
        return True
    offered = {t.name for t in tools}
    return any(tool.approval == "required" for name, tool in host_tools.items() if name in offered)


def stateless_request(request: RunRequest, tools: tuple[ToolSpec, ...]) -> ModelRequest:
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


def session_request(record: SessionRecord, input_text: str, tools: Sequence[ToolSpec] = ()) -> ModelRequest:
    """What the model sees for a session turn; the history is passed, not copied."""
    if record.mode == "native":
        imported = record.history if record.imported == len(record.history) else record.history[: record.imported]
        return ModelRequest(
            model=record.owner.model,
            input=input_text,
            instructions=record.instructions,
            messages=imported,
            native=record.native,
            tools=tools,
        )
    return ModelRequest(
        model=record.owner.model,
        input=input_text,
        instructions=record.instructions,
        messages=record.history,
        tools=tools,
    )


def match_answer(pending: PendingAction, request: SubmitRunActionsRequest) -> dict[str, Any]:
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
