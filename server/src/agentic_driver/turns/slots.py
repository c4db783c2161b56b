"""Run slots: at most ``maxConcurrentRuns`` model calls in flight; the rest wait in line.

A run waiting here is still its session's active turn (``SESSION_BUSY``), and
cancelling its task (cancel or delete) takes it out of the line at once.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

__all__ = ["RunSlots"]


class RunSlots:
    def __init__(self, size: int) -> None:
        self.size = size
        self._semaphore = asyncio.Semaphore(size)

    @asynccontextmanager
    async def hold(self) -> AsyncIterator[None]:
        async with self._semaphore:
            yield
