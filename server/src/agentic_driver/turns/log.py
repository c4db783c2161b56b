"""A run's events, numbered once from 1 across every stream that carries them, kept for rejoining.

Everything a run publishes (its start, each delta, each outcome: paused, completed
or failed) is appended here as it happens. Readers hold a position in the log, not
a copy of it: the stream answering the run's own request, any number of readers of
``streamRunEvents``, and ``getRun`` (which only looks at the ends). Entries are
stored as the run produced them and become the generated event models only when a
reader reads them, so a run nobody streams pays one append per event.

The log is bounded by ``limits.maxRunEventBytes``: past it, the oldest entries are
dropped (a later ``Last-Event-ID`` before them is ``RUN_EVENTS_EXPIRED``), but never
the newest entry, and never one the run's own attached stream has not read yet
(that reader holds the run back instead, ``UNREAD_EVENTS`` behind at most).
"""

from __future__ import annotations

import asyncio
from collections import deque
from dataclasses import dataclass
from typing import Any

from ..errors import DriverError

__all__ = ["Delta", "Entry", "Outcome", "RunLog", "Started", "entry_bytes"]

# What an entry counts is what it holds in memory, measured with tracemalloc over 500 kept session runs
# (bench/README.md, "What keeping runs costs"), so that the gauge agentic_driver_run_event_bytes tracks the heap.
DELTA_OVERHEAD_BYTES = 128
"""What a delta counts beyond its text (its entry, its slot in the log)."""
STARTED_BYTES = 512
"""A start: its session snapshot, rendered only when read."""
OUTCOME_BYTES = 6144
"""An outcome beyond its output text: its RunResult (figures, and the session as it was then) and the kept run
that holds it, which an ended run keeps for getRun."""


@dataclass(frozen=True, slots=True)
class Started:
    """The run was admitted: ``run.started`` (with the session as it was then, for a session run: a
    ``views.SessionView``, rendered when a reader reads it)."""

    session: Any = None
    host_id: str = ""


Delta = str
"""A delta is kept as its text alone: a string is not an object the garbage collector has to walk, and an ended
run kept for rejoining may hold thousands of them."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """How the run answers its current request: a result (paused or finished) or an error."""

    result: Any = None
    error: DriverError | None = None


Entry = Started | Delta | Outcome


def entry_bytes(entry: Entry) -> int:
    """What an entry counts toward ``maxRunEventBytes``: about its size as an SSE message."""
    if isinstance(entry, str):
        text = entry
        return DELTA_OVERHEAD_BYTES + (len(text) if text.isascii() else len(text.encode("utf-8")))
    if isinstance(entry, Started):
        return STARTED_BYTES
    if entry.result is not None:
        return OUTCOME_BYTES + len(entry.result.output.text)
    return OUTCOME_BYTES


class RunLog:
    """The entries of one run, ``first_id`` .. ``last_id``; ``wait_beyond`` wakes readers as entries arrive."""

    __slots__ = ("_entries", "_waiters", "bytes", "first_id", "held_from", "max_bytes")

    def __init__(self, max_bytes: int) -> None:
        self._entries: deque[Entry] = deque()
        self.first_id = 1
        """The id of the oldest entry still held (``last_id + 1`` while the log is empty)."""
        self.bytes = 0
        self.max_bytes = max_bytes
        self.held_from: int | None = None
        """The next id the run's attached stream reads: entries from it on are never dropped."""
        self._waiters: list[asyncio.Future[None]] = []
        """One future per waiting reader, so that cancelling one reader never disturbs another."""

    @property
    def last_id(self) -> int:
        """The id of the newest entry (0 before the first)."""
        return self.first_id + len(self._entries) - 1

    def append(self, entry: Entry) -> None:
        self._entries.append(entry)
        self.bytes += entry_bytes(entry)
        if self.bytes > self.max_bytes:
            self.drop_oldest()
        if self._waiters:
            waiters, self._waiters = self._waiters, []
            for waiter in waiters:
                if not waiter.done():
                    waiter.set_result(None)

    def drop_oldest(self) -> None:
        """Drop the oldest entries while over the bound, keeping the newest and any the attached stream lacks."""
        entries, held = self._entries, self.held_from
        while self.bytes > self.max_bytes and len(entries) > 1 and (held is None or self.first_id < held):
            self.bytes -= entry_bytes(entries.popleft())
            self.first_id += 1

    def get(self, event_id: int) -> Entry | None:
        """The entry with this id, or None when it was dropped or has not happened yet."""
        index = event_id - self.first_id
        if 0 <= index < len(self._entries):
            return self._entries[index]
        return None

    async def wait_beyond(self, event_id: int) -> None:
        """Return once an entry after ``event_id`` exists. Cancelling one waiter never disturbs the others."""
        while self.last_id <= event_id:
            waiter = asyncio.get_running_loop().create_future()
            self._waiters.append(waiter)
            await waiter
