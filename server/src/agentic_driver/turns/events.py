"""A reader of a run's events: the log's entries after a position, as the generated event models.

``event_id`` is the id of the event last returned (the SSE ``id`` the host sends with it).

The stream answering the run's own request is *attached*: it holds the run back
when it lags (``runs.UNREAD_EVENTS``), and closing it before the last event is
the client's disconnect, which stops the run unless it was sent with
``onDisconnect: continue`` (then the run goes on, unread). A rejoining reader
(``streamRunEvents``) or a joined retry is not attached: it never holds the run
back, and going away is only a reader gone. Every reader ends after the next
outcome (the run paused, finished or failed), or when the entries it needs next
were dropped from the log (its client then rejoins and learns ``RUN_EVENTS_EXPIRED``).
"""

from __future__ import annotations

import asyncio

from .. import views
from ..views import StreamEvent
from .log import Delta, Outcome, Started
from .runs import ActiveRun

__all__ = ["RunEvents"]


class RunEvents:
    """A run's events after event ``after``, up to the next outcome (or up to ``until``, included)."""

    def __init__(self, run: ActiveRun, after: int = 0, *, attached: bool = False, until: int | None = None) -> None:
        self._run = run
        self._at = after
        self._until = until
        self._attached = attached
        self._finished = False
        self.event_id = after
        """The id of the event last returned."""
        if attached:
            run.attach_reader(after)

    def __aiter__(self) -> RunEvents:
        return self

    async def __anext__(self) -> StreamEvent:
        if self._finished:
            raise StopAsyncIteration
        run, log = self._run, self._run.log
        if log.last_id <= self._at:
            if run.ended:  # after an ended run's final event: nothing more, ever
                self._end()
                raise StopAsyncIteration
            try:
                await log.wait_beyond(self._at)
            except asyncio.CancelledError:
                await self.aclose()
                raise
        event_id = self._at + 1
        entry = log.get(event_id)
        if entry is None:  # dropped while this reader was behind: end here; a rejoin reports the gap
            self._end()
            raise StopAsyncIteration
        self._at = self.event_id = event_id
        if self._attached:
            run.reader_read(event_id)
        if isinstance(entry, Outcome) or event_id == self._until:
            self._end()
        return _event(run.id, entry)

    def _end(self) -> None:
        self._finished = True
        if self._attached:
            self._run.detach_reader()

    async def aclose(self) -> None:
        if self._finished:
            return
        self._end()
        if self._attached and self._run.on_disconnect == "cancel":
            self._run.cancel("disconnected")


def _event(run_id: str, entry: Started | Delta | Outcome) -> StreamEvent:
    if isinstance(entry, str):
        return views.delta_event(run_id, entry)
    if isinstance(entry, Started):
        session = entry.session
        return views.started_event(run_id, None if session is None else views.render_session(session, entry.host_id))
    return views.outcome_event(run_id, entry.result, entry.error)
