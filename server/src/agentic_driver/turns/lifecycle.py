"""The turn lifecycle: admit, wait for a slot, call the provider, commit or stop.

    ready --admit--> running --completed--> ready (revision + 1)
                        |--cancel / failure, after model work started--> interrupted
                        '--cancel before model work started--> ready

Admission is synchronous (no await between the checks and marking the session
active), so of two runs on one revision exactly one is admitted and the other
gets SESSION_BUSY or SESSION_REVISION_CONFLICT without any model call.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

from ..clock import Clock
from ..errors import (
    DriverError,
    ProviderError,
    RunCancelled,
    SessionBusy,
    SessionInterrupted,
    SessionRevisionConflict,
)
from ..metrics import Metrics
from ..providers.base import (
    ModelRequest,
    NativeItems,
    Provider,
    ProviderFailure,
    TextDelta,
    TurnEvent,
    Usage,
    UsageReport,
    VisibleMessage,
)
from ..sessions import InterruptedTurnRecord, SessionRecord, SessionStore, TurnGrowth
from .runs import ActiveRun, RunRegistry
from .slots import RunSlots

__all__ = ["TurnLifecycle", "TurnOutcome"]


@dataclass(frozen=True, slots=True)
class TurnOutcome:
    text: str
    usage: Usage


@dataclass(slots=True)
class _Reply:
    text: str = ""
    usage: Usage = field(default_factory=Usage)
    native: tuple[str, ...] = ()


class TurnLifecycle:
    def __init__(self, slots: RunSlots, runs: RunRegistry, metrics: Metrics, clock: Clock) -> None:
        self._slots = slots
        self._runs = runs
        self._metrics = metrics
        self._clock = clock

    def admit(self, store: SessionStore, record: SessionRecord, revision: int, run: ActiveRun) -> None:
        """Make ``run`` the session's active turn, or refuse it without touching anything."""
        if record.status == "interrupted":
            raise SessionInterrupted(
                f"Session {record.id!r} was interrupted; read it to reconcile, then start a new session."
            )
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
        store.check_growth(record, run.input)
        record.active_run = run
        store.begin_turn(record)

    def session_request(self, record: SessionRecord, input_text: str) -> ModelRequest:
        """What the model sees for a session turn; the history is passed, not copied."""
        if record.mode == "native":
            imported = record.history if record.imported == len(record.history) else record.history[: record.imported]
            return ModelRequest(
                model=record.owner.model,
                input=input_text,
                instructions=record.instructions,
                messages=imported,
                native=record.native,
            )
        return ModelRequest(
            model=record.owner.model, input=input_text, instructions=record.instructions, messages=record.history
        )

    async def execute(
        self, run: ActiveRun, provider: Provider, request: ModelRequest, store: SessionStore | None
    ) -> TurnOutcome:
        """Run the turn in its own task, so cancel and delete can reach it by run id."""
        self._runs.add(run)
        task: asyncio.Task[TurnOutcome] = asyncio.create_task(self._drive(run, provider, request, store))
        task.add_done_callback(lambda done: self._cleanup_if_never_started(done, run, store))
        run.task = task
        try:
            return await task
        except asyncio.CancelledError:
            current = asyncio.current_task()
            if task.cancelled() and run.cancel_reason is not None and current is not None and not current.cancelling():
                reason = run.cancel_reason  # cancelled from outside before the turn task ever ran
                raise RunCancelled(_cancel_detail(reason), reason=reason) from None
            raise

    def _cleanup_if_never_started(
        self, task: asyncio.Task[TurnOutcome], run: ActiveRun, store: SessionStore | None
    ) -> None:
        """A task cancelled before its first step never entered ``_drive``, so its cleanup is done here."""
        if task.cancelled():
            self._stop(run, store, "cancelled")
            self._runs.remove(run)

    async def _drive(
        self, run: ActiveRun, provider: Provider, request: ModelRequest, store: SessionStore | None
    ) -> TurnOutcome:
        native = run.session is not None and run.session.mode == "native"
        try:
            async with self._slots.hold():
                reply = await self._call(run, provider, request, native)
            if run.session is not None and store is not None:
                store.commit_turn(
                    run.session,
                    TurnGrowth(
                        run_id=run.id,
                        messages=(VisibleMessage("user", run.input), VisibleMessage("assistant", reply.text)),
                        native=reply.native,
                    ),
                )
            self._metrics.runs.labels("completed").inc()
            return TurnOutcome(text=reply.text, usage=reply.usage)
        except asyncio.CancelledError:
            reason = run.cancel_reason or "cancelled"
            self._stop(run, store, "cancelled")
            raise RunCancelled(_cancel_detail(reason), reason=reason) from None
        except ProviderFailure as failure:
            self._stop(run, store, "failed")
            raise ProviderError(f"Provider {provider.id!r} failed: {failure}") from None
        except DriverError as error:  # a bound hit at commit time
            self._stop(run, store, "limit_exceeded")
            raise error
        except BaseException:
            self._stop(run, store, "failed")
            raise
        finally:
            self._runs.remove(run)

    async def _call(self, run: ActiveRun, provider: Provider, request: ModelRequest, native: bool) -> _Reply:
        run.model_work_started = True
        outcome = "failed"
        try:
            reply = await _collect(provider.turn(request, native=native))
            outcome = "completed"
            return reply
        except asyncio.CancelledError:
            outcome = "cancelled"
            raise
        finally:
            self._metrics.provider_calls.labels(provider.id, outcome).inc()

    def _stop(self, run: ActiveRun, store: SessionStore | None, outcome: str) -> None:
        self._metrics.runs.labels("cancelled" if outcome == "cancelled" else "failed").inc()
        record = run.session
        if record is None or store is None or record.deleted:
            return
        interrupted = None
        if run.model_work_started:
            interrupted = InterruptedTurnRecord(run.id, run.input, outcome, self._clock.now_ms())
        store.end_turn_without_commit(record, interrupted)


async def _collect(events: AsyncIterator[TurnEvent]) -> _Reply:
    reply = _Reply()
    parts: list[str] = []
    async for event in events:
        if isinstance(event, TextDelta):
            parts.append(event.text)
        elif isinstance(event, NativeItems):
            reply.native += event.items
        elif isinstance(event, UsageReport):
            reply.usage = event.usage
    reply.text = "".join(parts)
    return reply


def _cancel_detail(reason: str) -> str:
    if reason == "session_deleted":
        return "The run was aborted because its session was deleted."
    return "The run was cancelled."
