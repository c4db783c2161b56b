"""Active runs: what cancel, delete and action submissions reach, keyed by run id.

A run's task publishes ``RunSignal``s on the run's channel; whoever is
answering the run (a JSON request, a stream, an action submission) reads them
until the ``Outcome``: the run paused for the application, finished, or failed.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any, Literal

from ..errors import DriverError, HostBusy
from ..providers.base import ToolCall
from ..sessions.records import SessionRecord

__all__ = [
    "ActiveRun",
    "Delta",
    "Outcome",
    "PendingAction",
    "RunRegistry",
    "RunSignal",
]

UNREAD_DELTAS = 64
"""Deltas a slow reader may fall behind before the model's output waits for it (backpressure)."""


@dataclass(frozen=True, slots=True)
class PendingAction:
    """What a paused run waits for."""

    kind: Literal["function_calls", "approvals"]
    calls: tuple[ToolCall, ...]

    @property
    def call_ids(self) -> set[str]:
        return {c.call_id for c in self.calls}


@dataclass(frozen=True, slots=True)
class Delta:
    text: str


@dataclass(frozen=True, slots=True)
class Outcome:
    """How the run answers its current request: a result (paused or finished) or an error."""

    result: Any = None
    error: DriverError | None = None


RunSignal = Delta | Outcome


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
    """Why the run was stopped from outside: ``cancelled``, ``session_deleted`` or ``disconnected``."""
    task: asyncio.Task[None] | None = None
    channel: asyncio.Queue[RunSignal] = field(default_factory=asyncio.Queue)
    """Unbounded, so an outcome never waits and never costs a delta; deltas are bounded by ``unread``."""
    unread: asyncio.Semaphore = field(default_factory=lambda: asyncio.Semaphore(UNREAD_DELTAS))
    streamed: bool = False
    """Whether the request answering the run now reads its deltas (a stream). A JSON answer reads only the
    outcome, so deltas are not queued for it: each would cost a semaphore, a queue hand-off and a wake-up.
    Set by the reader before the run's task next runs (admission and answers only schedule the task)."""
    pending: PendingAction | None = None
    """Set while the run waits for function results or approvals."""
    answer: asyncio.Future[dict[str, Any]] | None = None
    idempotency_key: str | None = None
    """The key of the request being answered now, if it sent one: its outcome is recorded under it once."""
    may_wait: bool = False
    """Whether the run offers functions, so it may pause for the application: it holds a waiting place."""
    action_timeout_ms: int | None = None
    """How long the run waits for each required action before it ends as cancelled (``action_timeout``)."""

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
        """Hand a delta to a streaming reader, waiting while it is ``UNREAD_DELTAS`` behind."""
        if not self.streamed:
            return
        await self.unread.acquire()
        self.channel.put_nowait(Delta(text))

    def publish_outcome(self, outcome: Outcome) -> None:
        self.channel.put_nowait(outcome)

    async def next_signal(self) -> RunSignal:
        """The next delta or the outcome, in order."""
        signal = await self.channel.get()
        if isinstance(signal, Delta):
            self.unread.release()
        return signal

    async def outcome(self) -> Outcome:
        """Skip deltas until the run pauses, finishes or fails."""
        while True:
            signal = await self.next_signal()
            if isinstance(signal, Outcome):
                return signal


class RunRegistry:
    """The active runs, and the bound on those that may wait for the application (``maxWaitingRuns``)."""

    def __init__(self, max_waiting: int = 256) -> None:
        self._runs: dict[str, ActiveRun] = {}
        self.max_waiting = max_waiting
        self.may_wait = 0
        """Active runs holding a waiting place (admitted, not ended, offering functions)."""

    def check_waiting_place(self, run: ActiveRun) -> None:
        """Refuse a run that may wait when every waiting place is held (checked at admission, synchronously)."""
        if run.may_wait and self.may_wait >= self.max_waiting:
            raise HostBusy(
                f"{self.max_waiting} runs that may wait for function results or approvals are already active.",
                maximum=self.max_waiting,
                limit="maxWaitingRuns",
            )

    def add(self, run: ActiveRun) -> None:
        self._runs[run.id] = run
        if run.may_wait:
            self.may_wait += 1

    def remove(self, run: ActiveRun) -> None:
        if self._runs.pop(run.id, None) is not None and run.may_wait:
            self.may_wait -= 1

    def find(self, run_id: str, subject: str) -> ActiveRun | None:
        run = self._runs.get(run_id)
        return run if run is not None and run.subject == subject else None

    def __len__(self) -> int:
        return len(self._runs)

    def all(self) -> list[ActiveRun]:
        return list(self._runs.values())
