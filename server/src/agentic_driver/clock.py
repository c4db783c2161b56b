"""Time as the driver sees it: UTC milliseconds, injectable so tests never sleep for retention."""

from __future__ import annotations

import functools
import time
from datetime import UTC, datetime
from typing import Protocol

__all__ = ["Clock", "ManualClock", "SystemClock", "format_ms"]


class Clock(Protocol):
    def now_ms(self) -> int:
        """Milliseconds since the Unix epoch, UTC."""
        ...


class SystemClock:
    def now_ms(self) -> int:
        return time.time_ns() // 1_000_000


class ManualClock:
    """A clock that moves only when told to (for tests and simulations)."""

    def __init__(self, start_ms: int = 1_795_000_000_000) -> None:
        self._now = start_ms

    def now_ms(self) -> int:
        return self._now

    def advance(self, ms: int) -> None:
        self._now += ms


def format_ms(epoch_ms: int) -> str:
    """RFC 3339, UTC, millisecond precision: ``2026-11-29T18:50:42.123Z``."""
    seconds, millis = divmod(epoch_ms, 1000)
    return f"{_format_second(seconds)}.{millis:03d}Z"


@functools.lru_cache(maxsize=1024)
def _format_second(epoch_seconds: int) -> str:
    # A response carries several timestamps, mostly of the last few seconds: strftime is the dear part.
    return datetime.fromtimestamp(epoch_seconds, UTC).strftime("%Y-%m-%dT%H:%M:%S")
