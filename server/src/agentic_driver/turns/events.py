"""A run's events for a streaming reader: the deltas, then the outcome, as the generated event models."""

from __future__ import annotations

import asyncio

from .. import views
from ..views import StreamEvent
from .runs import ActiveRun, Delta

__all__ = ["RunEvents"]


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
