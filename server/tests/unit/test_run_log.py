"""A run's event log: ids from 1, the byte bound (oldest dropped first, never the newest nor one the attached
stream still lacks), and readers woken as entries arrive without one reader's cancellation touching another."""

from __future__ import annotations

import asyncio

from agentic_driver.turns.log import DELTA_OVERHEAD_BYTES, Delta, Outcome, RunLog, Started, entry_bytes


def test_entries_are_numbered_from_1_and_an_empty_log_ends_at_0() -> None:
    log = RunLog(1_000_000)
    assert (log.first_id, log.last_id) == (1, 0)

    log.append(Started())
    log.append(Delta("a"))

    assert (log.first_id, log.last_id) == (1, 2)
    assert log.get(1) == Started() and log.get(2) == Delta("a")
    assert log.get(0) is None and log.get(3) is None


def test_a_delta_counts_its_text_in_utf8_bytes_plus_its_framing() -> None:
    assert entry_bytes(Delta("abc")) == DELTA_OVERHEAD_BYTES + 3
    assert entry_bytes(Delta("é")) == DELTA_OVERHEAD_BYTES + 2


def test_past_the_bound_the_oldest_entries_are_dropped_but_never_the_newest() -> None:
    log = RunLog(3 * (DELTA_OVERHEAD_BYTES + 1))
    for text in "abcde":
        log.append(Delta(text))

    assert (log.first_id, log.last_id) == (3, 5)
    assert log.get(2) is None and log.get(3) == Delta("c")
    assert log.bytes <= log.max_bytes

    huge = RunLog(10)
    huge.append(Delta("x" * 100))
    assert (huge.first_id, huge.last_id) == (1, 1)  # one entry larger than the bound is still held


def test_entries_the_attached_stream_has_not_read_are_kept_until_it_reads_or_leaves() -> None:
    log = RunLog(2 * (DELTA_OVERHEAD_BYTES + 1))
    log.held_from = 2  # the attached stream has read event 1
    for text in "abcd":
        log.append(Delta(text))

    assert log.first_id == 2 and log.bytes > log.max_bytes  # 2..4 wait for the stream

    log.held_from = None
    log.drop_oldest()
    assert (log.first_id, log.last_id) == (3, 4)


async def test_a_waiting_reader_wakes_for_the_next_entry_and_a_cancelled_one_disturbs_no_other() -> None:
    log = RunLog(1_000_000)
    first = asyncio.ensure_future(log.wait_beyond(0))
    second = asyncio.ensure_future(log.wait_beyond(0))
    await asyncio.sleep(0)
    first.cancel()
    await asyncio.sleep(0)

    log.append(Outcome())
    await asyncio.wait_for(second, 1)

    assert first.cancelled() and second.done() and not second.cancelled()
