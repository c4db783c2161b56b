"""Runs: the active ones (what cancel, delete and action submissions reach) and, for a while, the ended ones.

A run's task publishes its start, deltas and outcomes into the run's ``RunLog``
(``log.py``); whoever answers the run (a JSON request, its stream, an action
submission, a rejoining reader) reads from there: a JSON answer waits for the
next ``Outcome`` (paused, finished or failed), a stream reads every entry. An
ended run stays readable (``getRun``, ``streamRunEvents``) for ``runs.retentionMs``,
``runs.maxEntries`` of them at most, until its session is deleted, or the host drains.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from contextvars import Context
from dataclasses import dataclass, field
from typing import Any, Literal

from ..clock import Clock
from ..errors import HostBusy
from ..providers.base import ToolCall
from ..sessions.records import SessionRecord
from .log import Delta, Outcome, RunLog

__all__ = [
    "ActiveRun",
    "Delta",
    "Outcome",
    "PendingAction",
    "RunRegistry",
    "RunState",
]

UNREAD_EVENTS = 64
"""Events the run's own stream may fall behind before the model's output waits for it (backpressure)."""

RunState = Literal["queued", "running", "requires_action", "completed", "failed", "cancelled"]
OnDisconnect = Literal["cancel", "continue"]


@dataclass(frozen=True, slots=True)
class PendingAction:
    """What a paused run waits for."""

    kind: Literal["function_calls", "approvals"]
    calls: tuple[ToolCall, ...]

    @property
    def call_ids(self) -> set[str]:
        return {c.call_id for c in self.calls}


@dataclass(slots=True, eq=False)
class ActiveRun:
    id: str
    """``run_{hostId}.{random}`` (``ids.HostIds``)."""
    subject: str
    provider: str
    input: str
    session: SessionRecord | None = None
    model_work_started: bool = False
    """Set when the first provider call begins; decides interrupted versus ready on a stop."""
    cancel_reason: str | None = None
    """Why the run was stopped from outside: ``cancelled``, ``session_deleted``, ``disconnected``, ``shutdown``."""
    task: asyncio.Task[None] | None = None
    log: RunLog = field(default_factory=lambda: RunLog(1024 * 1024))
    """Every event of the run, numbered from 1 (``log.py``)."""
    state: RunState = "queued"
    on_disconnect: OnDisconnect = "cancel"
    """What a disconnect of the client answering the run does: stop it, or let it go on (``onDisconnect``)."""
    last_outcome: Outcome | None = None
    """The latest outcome published (paused, finished or failed): what ``getRun`` reports."""
    last_outcome_id: int = 0
    """Its event id."""
    pending: PendingAction | None = None
    """Set while the run waits for function results or approvals."""
    answer: asyncio.Future[dict[str, Any]] | None = None
    idempotency_key: str | None = None
    """The key of the request being answered now, if it sent one: its outcome is recorded under it once."""
    may_wait: bool = False
    """Whether the run offers functions, so it may pause for the application: it holds a waiting place."""
    action_timeout_ms: int | None = None
    """How long the run waits for each required action before it ends as cancelled (``action_timeout``)."""
    answering_from: int = 0
    """The event after which the events of the request answering the run now begin (0 for the request that
    started it; the ``run.requires_action`` answered, for an action submission)."""
    _caught_up: asyncio.Future[None] | None = None
    """What the run's task awaits while held back (only that task waits on it)."""
    _outcome_waiters: list[asyncio.Future[None]] | None = None
    """One future per request waiting for the next outcome (a JSON answer, and any retry that joined it)."""

    @property
    def ended(self) -> bool:
        return self.state in ("completed", "failed", "cancelled")

    def cancel(self, reason: str) -> None:
        if self.cancel_reason is None:
            self.cancel_reason = reason
        if self.task is not None:
            self.task.cancel()

    async def settled(self) -> None:
        """Wait until the run's task has finished, without cancelling it if this waiter is."""
        if self.task is not None:
            await asyncio.wait([self.task])

    async def publish_delta(self, text: str) -> None:
        """Log a delta; while an attached stream is ``UNREAD_EVENTS`` behind, wait for it first."""
        log = self.log
        log.append(text)
        while log.held_from is not None and log.last_id - (log.held_from - 1) > UNREAD_EVENTS:
            self._caught_up = asyncio.get_running_loop().create_future()
            await self._caught_up

    def publish_outcome(self, outcome: Outcome) -> None:
        self.last_outcome = outcome
        self.log.append(outcome)
        self.last_outcome_id = self.log.last_id
        if self._outcome_waiters:
            waiters, self._outcome_waiters = self._outcome_waiters, None
            for waiter in waiters:
                if not waiter.done():
                    waiter.set_result(None)

    async def outcome(self, after: int = 0) -> Outcome:
        """The first outcome published after event ``after`` (the run paused, finished or failed)."""
        while self.last_outcome is None or self.last_outcome_id <= after:
            waiter = asyncio.get_running_loop().create_future()
            if self._outcome_waiters is None:
                self._outcome_waiters = [waiter]
            else:
                self._outcome_waiters.append(waiter)
            await waiter
        return self.last_outcome

    @property
    def held_back(self) -> bool:
        """Whether the run waits for its attached stream, ``UNREAD_EVENTS`` behind (backpressure)."""
        return self._caught_up is not None and not self._caught_up.done()

    @property
    def reader_at(self) -> int | None:
        """The last event id the run's attached stream has read (None: no stream is attached to the run)."""
        held = self.log.held_from
        return None if held is None else held - 1

    @property
    def unread(self) -> int:
        """Events the attached stream has not read yet (0 without one)."""
        return 0 if self.reader_at is None else self.log.last_id - self.reader_at

    def attach_reader(self, at: int) -> None:
        """The stream answering the run's request reads it from event ``at`` on (it holds the run back)."""
        self.log.held_from = at + 1

    def reader_read(self, event_id: int) -> None:
        self.log.held_from = event_id + 1
        if self.log.last_id - event_id <= UNREAD_EVENTS // 2:
            self._let_run_go_on()

    def detach_reader(self) -> None:
        """The attached stream went away: the run no longer waits for it, nor keeps events for it."""
        self.log.held_from = None
        self.log.drop_oldest()
        self._let_run_go_on()

    def _let_run_go_on(self) -> None:
        waiter, self._caught_up = self._caught_up, None
        if waiter is not None and not waiter.done():  # done: the run's task was cancelled while held back
            waiter.set_result(None)


class RunRegistry:
    """The active runs, the bound on those that may wait for the application (``maxWaitingRuns``), and the
    ended runs kept readable (``runs.retentionMs`` after their end, ``runs.maxEntries`` at most)."""

    def __init__(
        self,
        max_waiting: int = 256,
        *,
        clock: Clock | None = None,
        retention_ms: int = 5 * 60 * 1000,
        max_ended: int = 1_000,
        max_event_bytes: int = 1024 * 1024,
    ) -> None:
        self._runs: dict[str, ActiveRun] = {}
        self.max_waiting = max_waiting
        self.may_wait = 0
        """Active runs holding a waiting place (admitted, not ended, offering functions)."""
        self._active_by_subject: dict[str, int] = {}
        """Active runs per subject (``limits.perSubject.maxActiveRuns``); a subject with none has no entry."""
        self._clock = clock
        self.retention_ms = retention_ms
        self.max_ended = max_ended
        self.max_event_bytes = max_event_bytes
        self._ended: OrderedDict[str, tuple[int, ActiveRun]] = OrderedDict()
        """Ended runs by id, oldest end first, with the time (ms) each is forgotten."""
        self._timer: asyncio.TimerHandle | None = None
        # Like the session store's timers: run in an empty context, so a timer keeps no request alive.
        self._timer_context = Context()

    def check_waiting_place(self, run: ActiveRun) -> None:
        """Refuse a run that may wait when every waiting place is held (checked at admission, synchronously)."""
        if run.may_wait and self.may_wait >= self.max_waiting:
            raise HostBusy(
                f"{self.max_waiting} runs that may wait for function results or approvals are already active.",
                maximum=self.max_waiting,
                limit="maxWaitingRuns",
            )

    def new_log(self) -> RunLog:
        return RunLog(self.max_event_bytes)

    def add(self, run: ActiveRun) -> None:
        self._runs[run.id] = run
        self._active_by_subject[run.subject] = self._active_by_subject.get(run.subject, 0) + 1
        if run.may_wait:
            self.may_wait += 1

    def remove(self, run: ActiveRun) -> None:
        """The run ended: it leaves the active runs and stays readable for the retention period."""
        if self._runs.pop(run.id, None) is None:
            return
        left = self._active_by_subject[run.subject] - 1
        if left:
            self._active_by_subject[run.subject] = left
        else:
            del self._active_by_subject[run.subject]
        if run.may_wait:
            self.may_wait -= 1
        run.input = ""  # a kept run answers getRun and rejoins, neither of which shows its input: let it go
        if self._clock is None or (run.session is not None and run.session.deleted):
            return  # not kept: its memory goes with the last reader still reading it
        self._ended[run.id] = (self._clock.now_ms() + self.retention_ms, run)
        while len(self._ended) > self.max_ended:
            self._forget(next(iter(self._ended)))
        if self._timer is None:
            self._arm()

    def active_of(self, subject: str) -> int:
        """How many runs of ``subject`` are active (admitted and not ended, paused ones included)."""
        return self._active_by_subject.get(subject, 0)

    def find(self, run_id: str, subject: str) -> ActiveRun | None:
        """The caller's active run (what cancel and action submissions act on)."""
        run = self._runs.get(run_id)
        return run if run is not None and run.subject == subject else None

    def lookup(self, run_id: str, subject: str) -> ActiveRun | None:
        """The caller's run, active or ended and still retained (what getRun and streamRunEvents read)."""
        run = self._runs.get(run_id)
        if run is None:
            self._expire()
            kept = self._ended.get(run_id)
            run = kept[1] if kept is not None else None
        return run if run is not None and run.subject == subject else None

    def forget_session(self, session_id: str) -> None:
        """The session was deleted: its ended runs are no longer readable."""
        for run_id in [i for i, (_, r) in self._ended.items() if r.session is not None and r.session.id == session_id]:
            self._forget(run_id)

    def forget_ended(self) -> None:
        """Forget every ended run (the host drained)."""
        for run_id in list(self._ended):
            self._forget(run_id)
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def event_bytes(self) -> int:
        """Bytes of events held by active and retained runs (the memory metric)."""
        return sum(r.log.bytes for r in self._runs.values()) + sum(r.log.bytes for _, r in self._ended.values())

    def __len__(self) -> int:
        return len(self._runs)

    @property
    def retained(self) -> int:
        """Ended runs still readable."""
        return len(self._ended)

    @property
    def timer_armed(self) -> bool:
        """Whether the expiry timer of the ended runs is pending."""
        return self._timer is not None

    def all(self) -> list[ActiveRun]:
        return list(self._runs.values())

    def _forget(self, run_id: str) -> None:
        """Stop keeping an ended run: a reader still replaying it finishes; its memory goes with that reader."""
        del self._ended[run_id]

    def _expire(self) -> None:
        """Forget the ended runs whose retention passed (every lookup checks, as well as the timer)."""
        if not self._ended or self._clock is None:
            return
        now = self._clock.now_ms()
        while self._ended:
            run_id, (expires_ms, _) = next(iter(self._ended.items()))
            if expires_ms > now:
                break
            self._forget(run_id)

    def _arm(self) -> None:
        """One timer for the oldest ended run's expiry; it re-arms itself for the next."""
        if not self._ended or self._clock is None:
            self._timer = None
            return
        expires_ms, _ = next(iter(self._ended.values()))
        delay_s = max(expires_ms - self._clock.now_ms(), 0) / 1000
        loop = asyncio.get_running_loop()
        self._timer = loop.call_later(delay_s, self._on_timer, context=self._timer_context)

    def _on_timer(self) -> None:
        self._expire()
        self._arm()
