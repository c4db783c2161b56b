"""Run slots: an exact bound on slots plus waiters, first-come hand-over, and cancellation in line.

Waiters are asyncio tasks blocked in ``acquire``; the tests step the loop with
``asyncio.sleep(0)`` and bounded polling, never with a fixed sleep.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

from agentic_driver.errors import HostBusy
from agentic_driver.turns.slots import RunSlots


async def wait_until(condition: Callable[[], bool], *, turns: int = 1_000) -> None:
    for _ in range(turns):
        if condition():
            return
        await asyncio.sleep(0)
    raise AssertionError("the condition did not hold within the bounded number of loop turns")


async def take(slots: RunSlots, name: str, order: list[str]) -> None:
    await slots.acquire()
    order.append(name)


async def test_a_free_slot_is_taken_at_once_and_given_back_on_release() -> None:
    slots = RunSlots(size=2, max_waiting=0)

    slots.reserve()
    await slots.acquire()

    assert (slots.in_use, slots.waiting) == (1, 0)
    slots.release()
    assert (slots.in_use, slots.waiting) == (0, 0)


def test_reservations_alone_reach_the_bound_before_any_run_has_started() -> None:
    slots = RunSlots(size=1, max_waiting=2)

    for _ in range(3):  # one slot plus two places in line, all still unstarted
        slots.reserve()

    with pytest.raises(HostBusy) as caught:
        slots.reserve()
    assert caught.value.fields == {"limit": "maxQueuedRuns", "maximum": 2}
    assert caught.value.retry_after_seconds == 1
    assert caught.value.status == 503
    assert "2 runs are already waiting" in caught.value.detail


async def test_the_bound_counts_slots_in_use_waiters_and_reservations_exactly() -> None:
    slots = RunSlots(size=1, max_waiting=2)
    order: list[str] = []
    slots.reserve()
    await slots.acquire()
    slots.reserve()
    waiter = asyncio.create_task(take(slots, "waiter", order))
    await wait_until(lambda: slots.waiting == 1)
    slots.reserve()  # the last place: reserved, not yet in line

    with pytest.raises(HostBusy):
        slots.reserve()
    assert (slots.in_use, slots.waiting) == (1, 1)

    slots.unreserve()
    slots.reserve()  # the place given back can be taken again
    with pytest.raises(HostBusy):
        slots.reserve()

    slots.unreserve()
    slots.release()
    await waiter
    assert order == ["waiter"]
    assert (slots.in_use, slots.waiting) == (1, 0)


def test_with_no_waiting_places_only_the_slots_themselves_are_admitted() -> None:
    slots = RunSlots(size=2, max_waiting=0)
    slots.reserve()
    slots.reserve()

    with pytest.raises(HostBusy) as caught:
        slots.reserve()

    assert caught.value.fields == {"limit": "maxQueuedRuns", "maximum": 0}


async def test_a_released_slot_passes_straight_to_the_waiters_first_come_first_served() -> None:
    slots = RunSlots(size=1, max_waiting=3)
    order: list[str] = []
    slots.reserve()
    await slots.acquire()
    waiters = []
    for name in ("a", "b", "c"):  # they step, and so join the line, in the order they were created
        slots.reserve()
        waiters.append(asyncio.create_task(take(slots, name, order)))
    await wait_until(lambda: slots.waiting == 3)

    for expected in (["a"], ["a", "b"], ["a", "b", "c"]):
        slots.release()
        await wait_until(lambda e=expected: order == e)
        assert slots.in_use == 1  # handed over, never freed in between

    assert slots.waiting == 0
    slots.release()
    assert slots.in_use == 0
    await asyncio.gather(*waiters)


async def test_a_newcomer_does_not_jump_the_line_while_runs_are_waiting() -> None:
    slots = RunSlots(size=1, max_waiting=2)
    order: list[str] = []
    slots.reserve()
    await slots.acquire()
    slots.reserve()
    first = asyncio.create_task(take(slots, "first", order))
    await wait_until(lambda: slots.waiting == 1)

    slots.release()  # the slot is promised to "first" before it runs again
    slots.reserve()
    late = asyncio.create_task(take(slots, "late", order))
    await wait_until(lambda: order == ["first"] and slots.waiting == 1)

    slots.release()
    await asyncio.gather(first, late)
    assert order == ["first", "late"]


async def test_cancelling_a_waiter_takes_it_out_of_line_and_frees_its_place() -> None:
    slots = RunSlots(size=1, max_waiting=2)
    order: list[str] = []
    slots.reserve()
    await slots.acquire()
    slots.reserve()
    gone = asyncio.create_task(take(slots, "gone", order))
    slots.reserve()
    kept = asyncio.create_task(take(slots, "kept", order))
    await wait_until(lambda: slots.waiting == 2)
    with pytest.raises(HostBusy):
        slots.reserve()

    gone.cancel()
    with pytest.raises(asyncio.CancelledError):
        await gone

    assert slots.waiting == 1
    slots.reserve()  # its place in line is free again
    slots.unreserve()
    slots.release()
    await kept
    assert order == ["kept"]
    assert (slots.in_use, slots.waiting) == (1, 0)


async def test_a_waiter_cancelled_just_after_the_slot_was_handed_to_it_passes_the_slot_on() -> None:
    slots = RunSlots(size=1, max_waiting=2)
    order: list[str] = []
    slots.reserve()
    await slots.acquire()
    slots.reserve()
    unlucky = asyncio.create_task(take(slots, "unlucky", order))
    slots.reserve()
    next_in_line = asyncio.create_task(take(slots, "next", order))
    await wait_until(lambda: slots.waiting == 2)

    slots.release()  # hands the slot to "unlucky", which has not resumed yet
    unlucky.cancel()  # ...and is cancelled before it does

    with pytest.raises(asyncio.CancelledError):
        await unlucky
    await next_in_line
    assert order == ["next"]
    assert (slots.in_use, slots.waiting) == (1, 0)
    slots.release()
    assert slots.in_use == 0


async def test_a_waiter_cancelled_just_before_a_release_leaves_the_line_and_the_slot_goes_to_the_next() -> None:
    slots = RunSlots(size=1, max_waiting=2)
    order: list[str] = []
    slots.reserve()
    await slots.acquire()
    slots.reserve()
    unlucky = asyncio.create_task(take(slots, "unlucky", order))
    slots.reserve()
    next_in_line = asyncio.create_task(take(slots, "next", order))
    await wait_until(lambda: slots.waiting == 2)

    unlucky.cancel()  # its place in line is cancelled now; its task resumes later
    slots.release()  # in the same loop turn, before the cancelled task runs again

    with pytest.raises(asyncio.CancelledError):  # not a ValueError from the line's bookkeeping
        await unlucky
    await next_in_line
    assert order == ["next"]
    assert (slots.in_use, slots.waiting) == (1, 0)


async def test_a_last_waiter_cancelled_just_before_a_release_frees_the_slot() -> None:
    slots = RunSlots(size=1, max_waiting=1)
    order: list[str] = []
    slots.reserve()
    await slots.acquire()
    slots.reserve()
    unlucky = asyncio.create_task(take(slots, "unlucky", order))
    await wait_until(lambda: slots.waiting == 1)

    unlucky.cancel()
    slots.release()

    with pytest.raises(asyncio.CancelledError):
        await unlucky
    assert order == []
    assert (slots.in_use, slots.waiting) == (0, 0)
    slots.reserve()
    await slots.acquire()
    assert slots.in_use == 1


async def test_a_resumed_run_takes_a_slot_without_a_reservation_and_may_pass_the_bound() -> None:
    slots = RunSlots(size=1, max_waiting=0)
    slots.reserve()
    await slots.acquire()
    with pytest.raises(HostBusy):
        slots.reserve()

    resumed = asyncio.create_task(slots.acquire(reserved=False))  # a paused run coming back
    await wait_until(lambda: slots.waiting == 1)

    slots.release()
    await resumed
    assert (slots.in_use, slots.waiting) == (1, 0)
    slots.release()
    assert slots.in_use == 0
    slots.reserve()  # no reservation was consumed or leaked
    slots.unreserve()
