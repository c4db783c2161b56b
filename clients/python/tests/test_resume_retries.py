"""Resuming a stream (``clients/BEHAVIOUR.md``), bounded: rejoins that fail are retried within the retry
budget, which progress gives back; a proxy error, a dead owner or a 421 on the rejoin is retried or
followed; ``RUN_EVENTS_EXPIRED`` and ``RUN_NOT_FOUND`` on the rejoin are raised.

Mock hosts answer each request from a script, so every drop lands at a known event.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import pytest

import agentic_driver_sdk as sdk

from .conftest import d, mock_client, problem
from .resume_support import (
    ALL,
    CONTINUE,
    TEXT,
    Script,
    delivered,
    events,
    iterate,
    read,
)

# -- bounded: the retry budget, given back by progress ------------------------------------------------------------


async def test_rejoins_that_fail_are_retried_within_the_budget_then_the_last_failure_is_raised(
    kind: str, no_sleep: list[float]
) -> None:
    """The first rejoin goes at once and is not a retry; its refusals are, two of them (the default budget)."""
    refusals = [httpx.ConnectError(f"connection refused {n} (test)") for n in range(3)]
    script = Script(events(range(1, 3), "reset"), *refusals)
    client = mock_client(kind, script)
    found: list[Any] = []
    with pytest.raises(sdk.APIConnectionError) as caught:
        async for each in iterate(kind, client.runs.stream(**CONTINUE)):
            found.append(each)
    await d(client.close())
    assert str(caught.value.__cause__) == "connection refused 2 (test)"
    assert len(found) == 2 and [m for m, *_ in script.sent()] == ["POST", "GET", "GET", "GET"]
    assert len(no_sleep) == 2 and 0.375 <= no_sleep[0] <= 0.5 and 0.75 <= no_sleep[1] <= 1.0  # retries 0 and 1


async def test_a_rejoin_that_ends_again_without_a_new_event_uses_the_budget(kind: str, no_sleep: list[float]) -> None:
    script = Script(events(range(1, 3), "reset"), events(range(1, 3)), events([2], "reset"), events([]))
    client = mock_client(kind, script)
    with pytest.raises(sdk.APIConnectionError, match="ended before the run's last event"):
        await read(kind, client.runs.stream(**CONTINUE))
    await d(client.close())
    assert [last for _, _, last, _ in script.sent()] == [None, "2", "2", "2"]
    assert len(no_sleep) == 2  # the second and third rejoins are retries 0 and 1; a fourth is not allowed


async def test_a_rejoin_that_delivers_a_new_event_gives_the_budget_back(kind: str, no_sleep: list[float]) -> None:
    """One retry allowed, and it is needed twice: the rejoin between them delivered an event."""
    gateway = [httpx.Response(502, text="bad gateway") for _ in range(2)]
    script = Script(events(range(1, 3), "reset"), gateway[0], events([3], "reset"), gateway[1], events(range(4, 9)))
    client = mock_client(kind, script, max_retries=1)
    stream = client.runs.stream(**CONTINUE)
    assert delivered(await read(kind, stream)) == ALL
    assert (await d(stream.final_run())).output.text == TEXT
    await d(client.close())
    assert [last for _, _, last, _ in script.sent()] == [None, "2", "2", "3", "3"]
    assert len(no_sleep) == 2 and all(0.375 <= wait <= 0.5 for wait in no_sleep)  # retry 0, twice


async def test_every_drop_after_progress_rejoins_at_once(kind: str, no_sleep: list[float]) -> None:
    script = Script(events(range(1, 3), "reset"), *[events([i], "idle") for i in range(3, 8)], events([8]))
    client = mock_client(kind, script, max_retries=0)
    assert delivered(await read(kind, client.runs.stream(**CONTINUE))) == ALL
    await d(client.close())
    assert [last for _, _, last, _ in script.sent()] == [None, "2", "3", "4", "5", "6", "7"] and no_sleep == []


async def test_zero_retries_still_rejoins_once_after_a_drop_and_raises_the_first_rejoin_that_fails(
    kind: str, no_sleep: list[float]
) -> None:
    script = Script(events(range(1, 5), "reset"), events(range(5, 9)))
    client = mock_client(kind, script, max_retries=0)
    assert delivered(await read(kind, client.runs.stream(**CONTINUE))) == ALL

    script = Script(events(range(1, 5), "reset"), httpx.ConnectError("refused (test)"))
    failing = mock_client(kind, script, max_retries=0)
    with pytest.raises(sdk.APIConnectionError) as caught:
        await read(kind, failing.runs.stream(**CONTINUE))
    assert str(caught.value.__cause__) == "refused (test)" and len(script.requests) == 2 and no_sleep == []
    await d(client.close())
    await d(failing.close())


REFUSALS: dict[str, Callable[[], httpx.Response]] = {
    "502 page": lambda: httpx.Response(502, text="<html>bad gateway</html>"),
    "504 page": lambda: httpx.Response(504, text="<html>gateway timeout</html>"),
    "HOST_UNAVAILABLE": lambda: problem(503, "HOST_UNAVAILABLE", {"Retry-After": "1"}, ownerHostId="beta"),
}


@pytest.mark.parametrize("refusal", list(REFUSALS))
async def test_a_proxy_error_or_a_dead_owner_on_the_rejoin_is_retried(
    kind: str, no_sleep: list[float], refusal: str
) -> None:
    script = Script(events(range(1, 5), "reset"), REFUSALS[refusal](), events(range(5, 9)))
    client = mock_client(kind, script)
    assert delivered(await read(kind, client.runs.stream(**CONTINUE))) == ALL
    await d(client.close())
    assert [last for _, _, last, _ in script.sent()] == [None, "4", "4"]
    assert len(no_sleep) == 1 and (no_sleep[0] == 1.0 if refusal == "HOST_UNAVAILABLE" else no_sleep[0] <= 0.5)


async def test_a_421_on_the_rejoin_is_followed_once_at_once_to_the_owner(kind: str, no_sleep: list[float]) -> None:
    misdirected = problem(421, "MISDIRECTED_REQUEST", hostId="beta", ownerHostId="alpha-1")
    script = Script(events(range(1, 5), "reset"), misdirected, events(range(5, 7), "reset"), events(range(7, 9)))
    client = mock_client(kind, script, max_retries=0)  # the hop is not one of the retries
    assert delivered(await read(kind, client.runs.stream(**CONTINUE))) == ALL
    await d(client.close())
    assert [(last, host) for _, _, last, host in script.sent()[1:]] == [("4", "beta"), ("4", "alpha-1"),
                                                                         ("6", "alpha-1")]  # fmt: skip
    assert no_sleep == []  # two drops after progress (rejoined at once) and a hop (which waits for nothing)


# -- refusals ---------------------------------------------------------------------------------------------------


async def test_run_events_expired_on_the_rejoin_is_raised_with_the_first_event_id(
    kind: str, no_sleep: list[float]
) -> None:
    expired = problem(410, "RUN_EVENTS_EXPIRED", firstEventId=40)
    script = Script(events(range(1, 5), "reset"), expired)
    client = mock_client(kind, script)
    stream = client.runs.stream(**CONTINUE)
    with pytest.raises(sdk.RunEventsExpiredError) as caught:
        await read(kind, stream)
    assert caught.value.first_event_id == 40 and caught.value.status_code == 410
    assert stream.last_event_id == 4 and len(script.requests) == 2
    with pytest.raises(sdk.RunEventsExpiredError):
        await d(stream.final_run())  # the stream is over: final_run does not send anything again
    await d(client.close())
    assert len(script.requests) == 2


async def test_run_not_found_on_the_rejoin_is_raised(kind: str, no_sleep: list[float]) -> None:
    script = Script(events(range(1, 5), "reset"), problem(404, "RUN_NOT_FOUND"))
    client = mock_client(kind, script)
    with pytest.raises(sdk.RunNotFoundError):
        await read(kind, client.runs.stream(**CONTINUE))
    await d(client.close())


def test_run_events_expired_without_its_first_event_id_falls_back_to_the_status_class() -> None:
    response = problem(410, "RUN_EVENTS_EXPIRED")
    error = sdk.error_from_response(response, response.content)
    assert type(error) is sdk.APIStatusError and error.code == "RUN_EVENTS_EXPIRED"
    response = problem(410, "RUN_EVENTS_EXPIRED", firstEventId=3)
    found = sdk.error_from_response(response, response.content)
    assert isinstance(found, sdk.RunEventsExpiredError) and found.first_event_id == 3
