"""The turn lifecycle: wait for a slot, call the provider, answer tool calls, commit or stop.

    ready --admit--> running --completed--> ready (revision + 1)
                        |--cancel / disconnect / failure / idle timeout / action timeout,
                        |  after model work started--> interrupted
                        '--cancel or disconnect before model work started--> ready

A run reaches ``start`` admitted (``admission.RunAdmission``: checks done, places
reserved, the session's active turn set); from then on its outcome is published
here, and recorded under the request's idempotency key when it sent one.

A turn runs in its own task and publishes signals on the run's channel. When
the model calls functions the turn pauses (still the session's active turn,
retention still suspended, its run slot given back) until the application
answers: approvals first for host tools that need them, then the application's
own function results. The turn then calls the model again with the exchange.
A run with ``actionTimeoutMs`` waits that long for each required action; then it
ends as cancelled (reason ``action_timeout``), and its session is interrupted.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from contextlib import aclosing
from dataclasses import dataclass, field
from typing import Any

from .. import request_context, telemetry, views
from ..clock import Clock
from ..errors import (
    DriverError,
    InternalError,
    ProviderTimeout,
    RunCancelled,
)
from ..metrics import Metrics
from ..models import RunResult
from ..pricing import Prices
from ..providers.base import (
    ModelRequest,
    NativeFiltering,
    NativeItems,
    Provider,
    ProviderFailure,
    RetryReport,
    TextDelta,
    ToolCall,
    ToolExchange,
    ToolSpec,
    Usage,
    UsageReport,
    VisibleMessage,
)
from ..sessions import InterruptedTurnRecord, RunFigures, SessionStore, TurnGrowth
from ..tools import HostTool
from .guard import checked
from .idempotency import IdempotencyStore, json_digest
from .log import Started
from .runs import ActiveRun, Outcome, PendingAction, RunRegistry
from .slots import RunSlots

__all__ = ["TurnLifecycle"]

log = logging.getLogger("agentic_driver.turns")


class _IdleTimeout(Exception):
    """The run's own idleTimeoutMs passed without provider progress."""


class _ActionTimeout(Exception):
    """The run's own actionTimeoutMs passed without an answer to its required action."""


@dataclass(slots=True)
class _Step:
    """What one provider call produced."""

    calls: list[ToolCall] = field(default_factory=list)
    native: tuple[str, ...] = ()
    usage: Usage = field(default_factory=Usage)


@dataclass(slots=True)
class _Progress:
    """What the turn has produced so far, across provider calls (usage counts as it is reported)."""

    provider: Provider
    model: str
    tools: Sequence[ToolSpec] = ()
    text: list[str] = field(default_factory=list)
    native: tuple[str, ...] = ()
    usage: Usage = field(default_factory=Usage)
    retries: int = 0
    retry_usage: Usage = field(default_factory=Usage)
    served_model: str | None = None

    def add(self, step: _Step) -> None:
        self.native += step.native


_ModelCall = Callable[[ActiveRun, Provider, ModelRequest, bool, int | None, _Progress], Awaitable[_Step]]
"""One model call of a turn: ``TurnLifecycle._step``, or ``_traced_step`` while tracing."""


class TurnLifecycle:
    def __init__(
        self,
        slots: RunSlots,
        runs: RunRegistry,
        metrics: Metrics,
        clock: Clock,
        host_tools: Mapping[str, HostTool],
        idempotency: IdempotencyStore,
        host_id: str,
        prices: Mapping[tuple[str, str], Prices],
        compact_max_chars: int = 500,
    ) -> None:
        self.slots = slots
        self.runs = runs
        self._metrics = metrics
        self._clock = clock
        self.host_tools = host_tools
        self._idempotency = idempotency
        self.host_id = host_id
        self._prices = prices
        self._compact_max_chars = compact_max_chars
        self._failure_codes: dict[str, str] = {}
        """While tracing: the code a failing run answered with, for its turn span."""
        self._resumed_by: dict[str, request_context.RequestContext] = {}
        """The request that answered a paused run, until the run's task picks it up (see ``_wait_for``)."""

    # -- starting and answering a run ----------------------------------------------

    def start(
        self,
        run: ActiveRun,
        provider: Provider,
        request: ModelRequest,
        store: SessionStore | None,
        idle_timeout_ms: int | None = None,
    ) -> None:
        """Start the admitted run in its own task, so cancel, delete and actions reach it by id; its first
        event, ``run.started``, carries the session as it is now (``running``)."""
        session = run.session
        run.log.append(Started(views.session_view(session) if session is not None else None, self.host_id))
        self.runs.add(run)
        request_context.note_run(run.id, run.session.id if run.session is not None else None)
        run.task = asyncio.create_task(self._drive(run, provider, request, store, idle_timeout_ms))
        run.task.add_done_callback(lambda task: self._task_done(task, run, store))

    def answer(self, run: ActiveRun, answer: dict[str, Any]) -> None:
        """Resume a paused run with validated answers keyed by call id."""
        assert run.answer is not None and run.pending is not None
        request_context.note_run(run.id, run.session.id if run.session is not None else None)
        resumer = request_context.current()
        if resumer is not None:
            self._resumed_by[run.id] = resumer
        run.pending = None  # a second submission now sees RUN_NOT_WAITING
        run.answer.set_result(answer)

    # -- the turn ------------------------------------------------------------------

    async def _drive(
        self,
        run: ActiveRun,
        provider: Provider,
        request: ModelRequest,
        store: SessionStore | None,
        idle_timeout_ms: int | None,
    ) -> None:
        native = run.session is not None and run.session.mode == "native"
        progress = _Progress(provider=provider, model=request.model, tools=request.tools)
        holding = False
        outcome = "failed"
        turn_span = None
        model_call: _ModelCall = self._step
        if telemetry.tracer is not None:
            turn_span = self._start_turn_span(run, provider, request.model)
            model_call = self._traced_step
        try:
            await self.slots.acquire()
            holding = True
            run.state = "running"
            exchange: list[ToolExchange] = []
            while True:
                step = await model_call(
                    run, provider, request.with_exchange(exchange, progress.native), native, idle_timeout_ms, progress
                )
                progress.add(step)
                if not step.calls:
                    break
                self.slots.release()
                holding = False
                exchange += await self._answer_calls(run, step.calls, progress)
                run.state = "queued"
                await self.slots.acquire(reserved=False)
                holding = True
                run.state = "running"
            self._commit(run, provider, store, progress, native)
            outcome = "completed"
            self._account(run, store, progress)
            self._answer_with(run, Outcome(result=self._describe(run, None, progress)))
        except asyncio.CancelledError:
            outcome = "cancelled"
            reason = run.cancel_reason or "cancelled"
            self._stop(run, store, progress, _interrupt_reason(reason))
            self._fail(run, RunCancelled(_cancel_detail(reason), reason=reason))
        except _ActionTimeout:
            outcome = "cancelled"
            self._stop(run, store, progress, "action_timeout")
            self._fail(
                run,
                RunCancelled(
                    f"The run was cancelled: its required action was not answered within {run.action_timeout_ms} ms.",
                    reason="action_timeout",
                ),
            )
        except _IdleTimeout:
            outcome = "timeout"
            self._stop(run, store, progress, "idle_timeout")
            self._fail(run, ProviderTimeout(f"Provider {provider.id!r} made no progress for {idle_timeout_ms} ms."))
        except ProviderFailure as failure:  # the failure's class picks the code (rate limited, rejected, ...)
            self._stop(run, store, progress, "failed")
            self._fail(run, failure.driver_error(f"Provider {provider.id!r} failed: {failure}"))
        except DriverError as error:  # a bound hit when the completed turn was committed
            self._stop(run, store, progress, "limit_exceeded")
            self._fail(run, error)
        except Exception:
            log.exception("run %s failed unexpectedly", run.id)
            self._metrics.run_defects.inc()
            self._stop(run, store, progress, "failed")
            self._fail(run, InternalError("The run failed unexpectedly."))
        finally:
            if holding:
                self.slots.release()
            self._metrics.run_ended(outcome, provider.id if run.model_work_started else None)
            run.state = "completed" if outcome == "completed" else "cancelled" if outcome == "cancelled" else "failed"
            self.runs.remove(run)
            if turn_span is not None:
                code = self._failure_codes.pop(run.id, None)
                telemetry.end_turn(*turn_span, outcome, code, progress.usage.input_tokens, progress.usage.output_tokens)

    async def _traced_step(
        self,
        run: ActiveRun,
        provider: Provider,
        request: ModelRequest,
        native: bool,
        idle_timeout_ms: int | None,
        progress: _Progress,
    ) -> _Step:
        """``_step`` (the model call) inside its GenAI client span."""
        step = _Step()
        session_id = run.session.id if run.session is not None else None
        span = telemetry.start_model_call(provider, request.model, session_id, run.id, request.input)
        before, texts = progress.usage, len(progress.text)
        code: str | None = None
        try:
            return await self._step(run, provider, request, native, idle_timeout_ms, progress, step)
        except ProviderFailure as failure:
            code = failure.error_class.code.value
            raise
        except _IdleTimeout:
            code = "PROVIDER_TIMEOUT"
            raise
        except BaseException as error:
            code = error.code.value if isinstance(error, DriverError) else type(error).__name__
            raise
        finally:
            used = progress.usage
            telemetry.end_model_call(
                *span,
                response_model=progress.served_model,
                input_tokens=used.input_tokens - before.input_tokens,
                output_tokens=used.output_tokens - before.output_tokens,
                tool_calls=len(step.calls),
                text="".join(progress.text[texts:]),
                code=code,
            )

    async def _step(
        self,
        run: ActiveRun,
        provider: Provider,
        request: ModelRequest,
        native: bool,
        idle_timeout_ms: int | None,
        progress: _Progress,
        step: _Step | None = None,
    ) -> _Step:
        """One provider call (into ``step``, a fresh one by default); no progress for ``idle_timeout_ms``
        raises ``_IdleTimeout``. Untraced turns call it directly: one coroutine per model call, not two.
        Its duration, time to first output and usage are observed (``Metrics.model_call_ended``)."""
        run.model_work_started = True
        if step is None:
            step = _Step()
        started, first_output, outcome, usage_before = time.perf_counter(), None, "failed", progress.usage
        # Without an idle timeout there is no deadline at all: asyncio.timeout costs a timer and several
        # running-loop look-ups per event, which a run that set none should not pay.
        idle = asyncio.timeout(None) if idle_timeout_ms is not None else contextlib.nullcontext()
        try:
            async with idle as deadline, aclosing(provider.turn(request, native=native)) as events:
                _arm(deadline, idle_timeout_ms)
                async for event in events:
                    text = _take(event, step, progress)
                    if first_output is None and (text is not None or step.calls):
                        first_output = time.perf_counter()
                    if text is not None:
                        if deadline is not None:
                            deadline.reschedule(None)  # a slow reader is not a stalled provider
                        await run.publish_delta(text)
                    if not isinstance(event, RetryReport):  # a retried attempt is not progress of the answer
                        _arm(deadline, idle_timeout_ms)
            outcome = "completed"
        except TimeoutError:
            if isinstance(idle, asyncio.Timeout) and idle.expired():
                outcome = "timeout"
                raise _IdleTimeout from None
            raise ProviderFailure("the provider call timed out") from None
        except asyncio.CancelledError:
            outcome = "cancelled"
            raise
        finally:
            self._metrics.model_call_ended(
                provider, request.model, outcome, started, first_output, usage_before, progress.usage
            )
        return step

    async def _answer_calls(self, run: ActiveRun, calls: list[ToolCall], progress: _Progress) -> list[ToolExchange]:
        host_calls = [c for c in calls if c.name in self.host_tools]
        app_calls = tuple(c for c in calls if c.name not in self.host_tools)
        needs_approval = tuple(c for c in host_calls if self.host_tools[c.name].approval == "required")
        decisions: dict[str, Any] = {}
        if needs_approval:
            decisions = await self._wait_for(run, PendingAction("approvals", needs_approval), progress)
        outputs: dict[str, str] = {}
        for call in host_calls:
            approve, reason = decisions.get(call.call_id, (True, None))
            if approve:
                outputs[call.call_id] = await self.host_tools[call.name].call(call.arguments)
            else:
                outputs[call.call_id] = f"denied: {reason or 'a person declined this call'}"
        if app_calls:
            outputs.update(await self._wait_for(run, PendingAction("function_calls", app_calls), progress))
        return [ToolExchange(c.call_id, c.name, c.arguments, outputs[c.call_id]) for c in calls]

    async def _wait_for(self, run: ActiveRun, action: PendingAction, progress: _Progress) -> dict[str, Any]:
        run.answer = asyncio.get_running_loop().create_future()
        run.pending = action
        run.state = "requires_action"
        self._answer_with(run, Outcome(result=self._describe(run, action, progress)))
        try:
            if run.action_timeout_ms is None:
                return await run.answer
            try:
                async with asyncio.timeout(run.action_timeout_ms / 1000):
                    return await run.answer
            except TimeoutError:
                run.cancel_reason = run.cancel_reason or "action_timeout"  # a late answer sees RUN_NOT_WAITING
                raise _ActionTimeout from None
        finally:
            run.pending = None
            run.answer = None
            if run.state == "requires_action":
                run.state = "running"  # answered: host tools answer, then the model is called again
            resumer = self._resumed_by.pop(run.id, None)
            if resumer is not None:  # from now on the run works for the request that answered it
                request_context.enter(resumer)

    # -- endings -------------------------------------------------------------------

    def _task_done(self, task: asyncio.Task[None], run: ActiveRun, store: SessionStore | None) -> None:
        """The run's task is done. A finished task keeps its context (the request that started it) alive, and a
        run kept for rejoining must not keep that request: the run lets go of its task. A task cancelled before
        its first step never entered ``_drive``: the run is settled here."""
        run.task = None
        if task.cancelled():
            self._settle_never_started(run, store)

    def _settle_never_started(self, run: ActiveRun, store: SessionStore | None) -> None:
        self.slots.unreserve()
        reason = run.cancel_reason or "cancelled"
        self._stop(run, store, None, _interrupt_reason(reason))
        self._fail(run, RunCancelled(_cancel_detail(reason), reason=reason))
        self._metrics.run_ended("cancelled", None)
        run.state = "cancelled"
        self.runs.remove(run)

    def _commit(
        self, run: ActiveRun, provider: Provider, store: SessionStore | None, progress: _Progress, native: bool
    ) -> None:
        record = run.session
        if record is None or store is None:
            return
        items = progress.native if native else ()  # history mode keeps only visible text
        if items and record.native_filter != "full" and isinstance(provider, NativeFiltering):
            items = provider.filter_native(items, record.native_filter, self._compact_max_chars)
        growth = TurnGrowth(
            run_id=run.id,
            messages=(VisibleMessage("user", run.input), VisibleMessage("assistant", "".join(progress.text))),
            native=items,
            tools_fingerprint=tools_fingerprint(progress.tools),
        )
        store.commit_turn(record, growth)

    def figures(self, progress: _Progress) -> RunFigures:
        """The run's usage, retries and cost (cost only where the host prices the model)."""
        prices = self._prices.get((progress.provider.id, progress.model))
        return RunFigures(
            usage=progress.usage,
            cost=prices.cost(progress.usage) if prices is not None else None,
            retries=progress.retries,
            retry_usage=progress.retry_usage,
            retry_cost=prices.cost(progress.retry_usage) if prices is not None else None,
            served_model=progress.served_model,
        )

    def _account(self, run: ActiveRun, store: SessionStore | None, progress: _Progress) -> None:
        """A turn that reached the model was billed, however it ended: add it to its session."""
        record = run.session
        if run.model_work_started and record is not None and store is not None:
            store.account(record, self.figures(progress))

    def _stop(self, run: ActiveRun, store: SessionStore | None, progress: _Progress | None, reason: str) -> None:
        if progress is not None:
            self._account(run, store, progress)
        record = run.session
        if record is None or store is None or record.deleted:
            return
        interrupted = None
        if run.model_work_started:
            interrupted = InterruptedTurnRecord(run.id, run.input, reason, self._clock.now_ms())
        store.end_turn_without_commit(record, interrupted)

    def _describe(self, run: ActiveRun, action: PendingAction | None, progress: _Progress) -> RunResult:
        """The API result of a run that paused (with its action) or finished."""
        record = run.session
        session = views.session_info(record, self.host_id) if record is not None and not record.deleted else None
        return views.run_result(run.id, action, "".join(progress.text), self.figures(progress), session)

    def _fail(self, run: ActiveRun, error: DriverError) -> None:
        if telemetry.tracer is not None:
            self._failure_codes[run.id] = error.code.value
        self._answer_with(run, Outcome(error=error))

    def _start_turn_span(self, run: ActiveRun, provider: Provider, model: str) -> tuple[Any, object]:
        session = run.session
        return telemetry.start_turn(
            run.id,
            provider,
            provider.id,
            model,
            session.id if session is not None else None,
            session.revision if session is not None else None,
        )

    def _answer_with(self, run: ActiveRun, outcome: Outcome) -> None:
        """Hand the outcome to whoever answers the run now, after every delta before it; a request that
        came with an idempotency key has it recorded under that key first."""
        key, run.idempotency_key = run.idempotency_key, None
        if key is not None:
            session = run.session
            self._idempotency.record(
                run.subject,
                key,
                result=outcome.result,
                error=outcome.error,
                session_id=session.id if session is not None else None,
                provider=run.provider,
                grant="continue" if session is not None else None,
                run_id=run.id,
                event_id=run.log.last_id + 1,
            )
        run.publish_outcome(outcome)


def _take(event: object, step: _Step, progress: _Progress) -> str | None:
    """Record one checked provider event; the text of a delta, which the run then publishes."""
    checked(event)
    if isinstance(event, TextDelta):
        progress.text.append(event.text)
        return event.text
    if isinstance(event, ToolCall):
        step.calls.append(event)
    elif isinstance(event, NativeItems):
        step.native += event.items
    elif isinstance(event, UsageReport):
        progress.usage += event.usage
        progress.served_model = event.model or progress.served_model
    elif isinstance(event, RetryReport):
        progress.retries += 1
        progress.retry_usage += event.usage
    return None


def _arm(deadline: asyncio.Timeout | None, idle_timeout_ms: int | None) -> None:
    """Move the idle deadline to ``idle_timeout_ms`` from now (after progress)."""
    if deadline is not None and idle_timeout_ms is not None:
        deadline.reschedule(asyncio.get_running_loop().time() + idle_timeout_ms / 1000)


def tools_fingerprint(tools: Sequence[ToolSpec]) -> str:
    """A digest of a tool surface, independent of declaration order."""
    return json_digest(sorted((t.name, t.description, t.parameters) for t in tools))


def _interrupt_reason(cancel_reason: str) -> str:
    """The interrupted turn's reason for a run stopped from outside (a deleted session keeps no record)."""
    return cancel_reason if cancel_reason in ("disconnected", "shutdown") else "cancelled"


def _cancel_detail(reason: str) -> str:
    if reason == "session_deleted":
        return "The run was aborted because its session was deleted."
    if reason == "disconnected":
        return "The run was stopped because its client disconnected."
    if reason == "shutdown":
        return "The run was stopped because the host is shutting down and its drain timeout passed."
    return "The run was cancelled."
