"""The echo provider's fault directives and the turn's check of what an adapter yields."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from agentic_driver.providers.base import (
    ModelRequest,
    NativeItems,
    ProviderFailure,
    TextDelta,
    ToolCall,
    Usage,
    UsageReport,
)
from agentic_driver.providers.echo import EchoProvider, parse_directives
from agentic_driver.turns.guard import checked, malformed


def echo() -> EchoProvider:
    return EchoProvider(id="echo", models=("echo-1",), account_id="acct")


async def deltas_then(text: str, limit: int = 100) -> tuple[list[str], BaseException | None]:
    seen: list[str] = []
    try:
        async for event in echo().turn(ModelRequest("echo-1", text), native=False):
            if isinstance(checked(event), TextDelta):
                seen.append(event.text)
            assert len(seen) <= limit
    except ProviderFailure as failure:
        return seen, failure
    return seen, None


def test_fault_directives_parse() -> None:
    found = parse_directives("!failafter 2\n!hangafter 3\n!garbage\nbody")
    assert (found.fail_after, found.hang_after, found.garbage, found.text) == (2, 3, True, "body")
    assert parse_directives("!failafter x\nbody").fail_after is None
    assert parse_directives("!garbage now\nbody").garbage is False


@pytest.mark.parametrize(("after", "expected"), [(0, 0), (2, 2), (9, 4)])
async def test_failafter_fails_after_that_many_deltas(after: int, expected: int) -> None:
    seen, failure = await deltas_then(f"!chunks 4\n!failafter {after}\nsome reply text")
    assert len(seen) == expected
    assert failure is not None and f"after {expected} deltas (!failafter)" in str(failure)


async def test_hangafter_makes_no_progress_until_cancelled() -> None:
    seen: list[str] = []

    async def consume() -> None:
        async for event in echo().turn(ModelRequest("echo-1", "!chunks 3\n!hangafter 1\nabcdef"), native=False):
            if isinstance(event, TextDelta):
                seen.append(event.text)

    task = asyncio.create_task(consume())
    await asyncio.sleep(0.05)
    assert not task.done() and len(seen) == 1
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task


async def test_garbage_after_the_first_delta_fails_the_call() -> None:
    seen, failure = await deltas_then("!chunks 3\n!garbage\nabcdef")
    assert len(seen) == 1
    assert failure is not None and "malformed event: an event of unknown type dict" in str(failure)


@pytest.mark.parametrize(
    "event",
    [
        {"type": "delta"},
        TextDelta(None),  # type: ignore[arg-type]
        ToolCall("", "f", {}),
        ToolCall("c", "f", []),  # type: ignore[arg-type]
        NativeItems(("ok", 3)),  # type: ignore[arg-type]
        UsageReport(Usage(input_tokens=-1)),
        UsageReport(Usage(output_tokens=True)),
        UsageReport("lots"),  # type: ignore[arg-type]
        None,
    ],
)
def test_malformed_events_are_named(event: Any) -> None:
    assert malformed(event)


@pytest.mark.parametrize(
    "event", [TextDelta(""), ToolCall("c", "f", {}), NativeItems(("{}",)), UsageReport(Usage(1, 2, 0, 0, 1))]
)
def test_well_formed_events_pass(event: Any) -> None:
    assert malformed(event) is None
