"""Resuming a stream (``clients/BEHAVIOUR.md``) against a live host: a ``continue`` stream cut after its
third event resumes with one turn and every event once, and an events stream of a run whose old events
are gone raises ``RunEventsExpiredError``. The shared client scenarios (``resume-*``) play the same
rules behind the fault proxy.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import httpx
import pytest

import agentic_driver_sdk as sdk
from agentic_driver_client.models import OutputDeltaEvent, RunCompletedEvent, RunStartedEvent

from .conftest import Host, config, d, driver_for
from .resume_support import (
    ECHO,
)

# -- a live host ------------------------------------------------------------------------------------------------------


class Cutting(httpx.HTTPTransport):
    """The network transport; the first answer of ``path`` is cut (a reset) after ``after`` events."""

    def __init__(self, path: str, after: int) -> None:
        super().__init__()
        self.path, self.after = path, after
        self.requests: list[httpx.Request] = []

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        response = super().handle_request(request)
        if request.url.path != self.path or self.after < 0:
            return response
        after, self.after = self.after, -1
        return httpx.Response(response.status_code, headers=response.headers, stream=CutAfter(response, after))


class AsyncCutting(httpx.AsyncHTTPTransport):
    def __init__(self, path: str, after: int) -> None:
        super().__init__()
        self.path, self.after = path, after
        self.requests: list[httpx.Request] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        response = await super().handle_async_request(request)
        if request.url.path != self.path or self.after < 0:
            return response
        after, self.after = self.after, -1
        return httpx.Response(response.status_code, headers=response.headers, stream=CutAfter(response, after))


class CutAfter(httpx.SyncByteStream, httpx.AsyncByteStream):
    """A live body relayed up to the end of its ``after``-th event, then a connection reset."""

    def __init__(self, response: httpx.Response, after: int) -> None:
        self.response, self.after = response, after

    def _cut(self, buffer: bytes) -> bytes | None:
        """The body up to the end of its ``after``-th event, once that much arrived (keep-alives not counted)."""
        at, found = 0, 0
        while (end := buffer.find(b"\n\n", at)) >= 0:
            block, at = buffer[at:end], end + 2
            if block.startswith(b"id: ") or b"\nid: " in block:
                found += 1
                if found == self.after:
                    return buffer[:at]
        return None

    def __iter__(self) -> Iterator[bytes]:
        buffer = b""
        for chunk in self.response.stream:  # type: ignore[union-attr]
            buffer += chunk
            if (head := self._cut(buffer)) is not None:
                self.response.close()
                yield head
                raise httpx.ReadError("connection reset after an event (test)")
        yield buffer

    async def __aiter__(self) -> AsyncIterator[bytes]:
        buffer = b""
        async for chunk in self.response.stream:  # type: ignore[union-attr]
            buffer += chunk
            if (head := self._cut(buffer)) is not None:
                await self.response.aclose()
                yield head
                raise httpx.ReadError("connection reset after an event (test)")
        yield buffer


def cutting(kind: str, path: str, after: int) -> Any:
    return Cutting(path, after) if kind == "sync" else AsyncCutting(path, after)


# An instance no other test makes model calls on: its call counter is this test's alone.
FIXED = {"provider": "echo-history", "model": "echo-2"}
SLOW = "!chunks 6\n!sleep 30\nHello there my friend"


async def test_a_live_continue_stream_cut_after_its_third_event_resumes_with_one_turn(kind: str, host: Host) -> None:
    transport = cutting(kind, "/v1/runs/stream", after=3)
    async with driver_for(kind, host, transport=transport) as driver:
        session = await d(driver.client.sessions.create(**FIXED))
        calls = host.provider_calls("echo-history")
        stream = driver.client.runs.stream(**FIXED, input=SLOW, session=session, on_disconnect="continue")
        found = await driver.collect(stream)
        final = await d(stream.final_run())
        read_back = await d(driver.client.sessions.read(session.id))
        state = await d(driver.client.runs.retrieve(final.id))
        replay = await driver.collect(driver.client.runs.events(final.id, last_event_id=6))
        await d(driver.client.sessions.delete(session.id))

    assert isinstance(found[0], RunStartedEvent) and isinstance(found[-1], RunCompletedEvent)
    assert "".join(e.text for e in found if isinstance(e, OutputDeltaEvent)) == "echo: Hello there my friend"
    assert len(found) == 8 and final.session.revision == 1 and read_back.session.revision == 1
    assert host.provider_calls("echo-history") - calls == 1, "one turn"
    rejoins = [r for r in transport.requests if r.url.path.endswith("/events")]
    assert [r.headers.get("last-event-id") for r in rejoins] == ["3", "6"]  # the stream's rejoin, then the replay
    assert rejoins[0].headers["agentic-host"] == "sdk-main"
    assert (str(state.status), state.last_event_id, str(state.on_disconnect)) == ("completed", 8, "continue")
    assert state.result.output.text == final.output.text
    assert [type(e).__name__ for e in replay] == ["OutputDeltaEvent", "RunCompletedEvent"]


@pytest.fixture(scope="module")
def small_log_host(launch: Callable[[str, dict[str, Any]], Host]) -> Host:
    """A host that buffers 4 KiB of events per run."""
    return launch("smalllog", config("sdk-smalllog", limits={"maxRunEventBytes": 4096}))


async def test_a_live_events_stream_of_a_run_whose_old_events_are_gone_raises_expired(
    kind: str, small_log_host: Host
) -> None:
    async with driver_for(kind, small_log_host) as driver:
        stream = driver.client.runs.stream(**ECHO, input="!chunks 40\n" + "word " * 400, on_disconnect="continue")
        found = await driver.collect(stream)
        run_id = (await d(stream.final_run())).id
        state = await d(driver.client.runs.retrieve(run_id))
        with pytest.raises(sdk.RunEventsExpiredError) as caught:
            await driver.collect(driver.client.runs.events(run_id, last_event_id=1))
    assert len(found) == 42 and state.first_event_id > 2
    assert caught.value.first_event_id == state.first_event_id
