"""Run slots: at most ``size`` model calls in flight, at most ``max_waiting`` runs in line.

Admission reserves a place synchronously (``reserve``), so the bound holds
exactly even though the run's task starts later; a full line is HOST_BUSY. A
run waiting here is still its session's active turn (``SESSION_BUSY``), and
cancelling its task (cancel, delete, disconnect) takes it out of line at once.
A slot is handed straight to the next waiter, first come first served. Each
``acquire`` reports how long it waited (``on_wait``: the seconds, and whether it got
the slot or was cancelled in line); one that found a slot free reports 0 without
reading a clock.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable

from ..errors import HostBusy

__all__ = ["RunSlots"]


class RunSlots:
    def __init__(self, size: int, max_waiting: int, on_wait: Callable[[float, bool], None] | None = None) -> None:
        self.size = size
        self.max_waiting = max_waiting
        self._on_wait = on_wait
        self._in_use = 0
        self._reserved = 0
        self._waiters: deque[asyncio.Future[None]] = deque()

    @property
    def in_use(self) -> int:
        return self._in_use

    @property
    def waiting(self) -> int:
        return len(self._waiters)

    def reserve(self) -> None:
        """Claim a place (a slot or a place in line) for a run about to start, or refuse it."""
        if self._in_use + self._reserved + len(self._waiters) >= self.size + self.max_waiting:
            raise HostBusy(
                f"Every run slot is taken and {self.max_waiting} runs are already waiting.",
                maximum=self.max_waiting,
            )
        self._reserved += 1

    def unreserve(self) -> None:
        """Give back a reservation that will never be used."""
        self._reserved -= 1

    async def acquire(self, *, reserved: bool = True) -> None:
        """Take a slot, waiting in line if needed; ``reserved=False`` resumes a paused run past the bound."""
        if reserved:
            self._reserved -= 1
        on_wait = self._on_wait
        if self._in_use < self.size and not self._waiters:
            self._in_use += 1
            if on_wait is not None:
                on_wait(0.0, True)
            return
        waiter = asyncio.get_running_loop().create_future()
        self._waiters.append(waiter)
        started = time.perf_counter()
        try:
            await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():
                self.release()  # the slot was handed over just as we were cancelled: pass it on
            elif waiter in self._waiters:  # a release may already have dropped our cancelled place
                self._waiters.remove(waiter)
            if on_wait is not None:
                on_wait(time.perf_counter() - started, False)
            raise
        if on_wait is not None:
            on_wait(time.perf_counter() - started, True)

    def release(self) -> None:
        while self._waiters:
            waiter = self._waiters.popleft()
            if not waiter.done():
                waiter.set_result(None)  # the slot passes directly; in_use is unchanged
                return
        self._in_use -= 1
