"""Time as the driver sees it: UTC milliseconds, a manual clock for tests, RFC 3339 formatting."""

from __future__ import annotations

import time

from agentic_driver.clock import ManualClock, SystemClock, format_ms


def test_the_manual_clock_moves_only_when_advanced() -> None:
    clock = ManualClock(start_ms=1_000)

    assert clock.now_ms() == clock.now_ms() == 1_000
    clock.advance(250)
    assert clock.now_ms() == 1_250


def test_the_system_clock_reads_epoch_milliseconds() -> None:
    before = time.time_ns() // 1_000_000

    now = SystemClock().now_ms()

    assert before <= now <= time.time_ns() // 1_000_000


def test_format_ms_is_utc_rfc_3339_with_exactly_three_fraction_digits() -> None:
    assert format_ms(0) == "1970-01-01T00:00:00.000Z"
    assert format_ms(1_795_000_000_007) == "2026-11-18T11:06:40.007Z"
    assert format_ms(1_795_000_000_999) == "2026-11-18T11:06:40.999Z"
