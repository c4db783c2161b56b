"""Active runs: what cancel and delete reach, keyed by run id."""

from __future__ import annotations

import asyncio
import secrets
from dataclasses import dataclass, field

from ..sessions.records import SessionRecord

__all__ = ["ActiveRun", "RunRegistry", "new_run_id"]


def new_run_id() -> str:
    return "run_" + secrets.token_urlsafe(16)


@dataclass(slots=True, eq=False)
class ActiveRun:
    subject: str
    provider: str
    input: str
    session: SessionRecord | None = None
    id: str = field(default_factory=new_run_id)
    model_work_started: bool = False
    """Set when the provider call begins; decides interrupted versus ready on a stop."""
    cancel_reason: str | None = None
    """Why the run was cancelled from outside: ``cancelled`` or ``session_deleted``."""
    task: asyncio.Task[object] | None = None

    def cancel(self, reason: str) -> None:
        if self.cancel_reason is None:
            self.cancel_reason = reason
        if self.task is not None:
            self.task.cancel()

    async def settled(self) -> None:
        """Wait until the run's task has finished, without cancelling it if this waiter is."""
        if self.task is not None:
            await asyncio.wait([self.task])


class RunRegistry:
    def __init__(self) -> None:
        self._runs: dict[str, ActiveRun] = {}

    def add(self, run: ActiveRun) -> None:
        self._runs[run.id] = run

    def remove(self, run: ActiveRun) -> None:
        self._runs.pop(run.id, None)

    def find(self, run_id: str, subject: str) -> ActiveRun | None:
        run = self._runs.get(run_id)
        return run if run is not None and run.subject == subject else None

    def __len__(self) -> int:
        return len(self._runs)
