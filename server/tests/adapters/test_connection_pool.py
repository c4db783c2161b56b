"""One pooled, kept-alive client per provider instance: model calls reuse connections, streamed or not.

Each fake records the client port every request came on, so the connections a run of model calls
opened are counted exactly (what ``make bench-upstream`` measures over TLS, here over plain loopback).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest
from fakes import AnthropicFake, FakeUpstream, GeminiFake, OpenAIChatFake, OpenAIResponsesFake

from agentic_driver import Driver
from agentic_driver.config import parse_config
from agentic_driver.models import RunRequest
from agentic_driver.providers import upstream as upstream_module
from agentic_driver.providers.network import NetworkAdapter
from agentic_driver.providers.upstream import Upstream, failure_for_status

KEY = "sk-pool-test-key"
KEY_ENV = "POOL_TEST_KEY"
CALLS = 12
CONCURRENCY = 4
FAKES: dict[str, type[FakeUpstream]] = {
    "openai-responses": OpenAIResponsesFake,
    "anthropic": AnthropicFake,
    "gemini": GeminiFake,
    "openai-chat": OpenAIChatFake,
}


@pytest.fixture(scope="module")
def fakes() -> Iterator[dict[str, FakeUpstream]]:
    started = {kind: fake(api_key=KEY).start() for kind, fake in FAKES.items()}
    try:
        yield started
    finally:
        for fake in started.values():
            fake.stop()


@pytest.fixture
async def driver(fakes: dict[str, FakeUpstream], monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Driver]:
    monkeypatch.setenv(KEY_ENV, KEY)
    providers = [
        {
            "id": f"{kind}-{'stream' if stream else 'json'}",
            "kind": kind,
            "models": ["m-1"],
            "baseUrl": fake.base_url,
            "apiKeyEnv": KEY_ENV,
            "stream": stream,
            "maxRetries": 0,
        }
        for kind, fake in fakes.items()
        for stream in (True, False)
    ]
    config = parse_config({"providers": providers, "limits": {"maxConcurrentRuns": CONCURRENCY}})
    async with Driver.from_config(config) as made:
        yield made


INSTANCES = [(kind, stream) for kind in FAKES for stream in (True, False)]


def _ids(kind: str, stream: bool) -> str:
    return f"{kind}-{'stream' if stream else 'json'}"


async def _calls(driver: Driver, fake: FakeUpstream, provider: str, calls: int, lanes: int) -> set[int | None]:
    """The connections ``calls`` stateless runs on ``provider`` came on, ``lanes`` at a time."""
    fake.requests.clear()
    request = RunRequest(provider=provider, model="m-1", input="hello")

    async def lane(count: int) -> None:
        for _ in range(count):
            result = await driver.run(request)
            assert result.output.text

    await asyncio.gather(*(lane(calls // lanes) for _ in range(lanes)))
    assert len(fake.requests) == calls
    return {recorded.connection for recorded in fake.requests}


@pytest.mark.parametrize(("kind", "stream"), INSTANCES, ids=[_ids(*i) for i in INSTANCES])
async def test_sequential_model_calls_share_one_kept_alive_connection(
    driver: Driver, fakes: dict[str, FakeUpstream], kind: str, stream: bool
) -> None:
    connections = await _calls(driver, fakes[kind], _ids(kind, stream), CALLS, lanes=1)

    assert len(connections) == 1  # a streamed answer is read to its end, so its connection goes back too


@pytest.mark.parametrize(("kind", "stream"), INSTANCES, ids=[_ids(*i) for i in INSTANCES])
async def test_concurrent_model_calls_open_at_most_one_connection_per_call_in_flight(
    driver: Driver, fakes: dict[str, FakeUpstream], kind: str, stream: bool
) -> None:
    connections = await _calls(driver, fakes[kind], _ids(kind, stream), CALLS, lanes=CONCURRENCY)

    assert len(connections) <= CONCURRENCY  # the pool's bound is limits.maxConcurrentRuns


async def test_closing_the_driver_closes_every_pool_and_a_later_call_opens_a_new_one(
    driver: Driver, fakes: dict[str, FakeUpstream]
) -> None:
    first = await _calls(driver, fakes["anthropic"], "anthropic-stream", 2, lanes=1)
    provider = driver.providers["anthropic-stream"]
    assert isinstance(provider, NetworkAdapter)

    await driver.aclose()

    assert provider.upstream._pool is None
    second = await _calls(driver, fakes["anthropic"], "anthropic-stream", 2, lanes=1)
    assert len(second) == 1 and second.isdisjoint(first)


class _Stalled(httpx.AsyncByteStream):
    """A streamed answer whose last event arrives, and then the body never ends."""

    def __init__(self) -> None:
        self.closed = asyncio.Event()

    async def __aiter__(self) -> AsyncIterator[bytes]:
        yield b'data: {"done": true}\n\n'
        await asyncio.Event().wait()  # never set: the provider holds the body open
        yield b""

    async def aclose(self) -> None:
        self.closed.set()


async def test_a_body_left_open_after_the_last_event_costs_its_connection_not_the_runs_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(upstream_module, "TAIL_TIMEOUT_S", 0.05)
    body = _Stalled()
    transport = httpx.MockTransport(lambda request: httpx.Response(200, stream=body))
    upstream = Upstream("p", "http://upstream.invalid", {}, lambda *_: failure_for_status(500), transport=transport)
    seen: list[Any] = []

    async with upstream.stream("/x", {}) as events:
        async for event in events:
            seen.append(event.json())
            break  # the adapter has what it needs: the answer's end

    assert seen == [{"done": True}]
    assert body.closed.is_set()  # given up after TAIL_TIMEOUT_S: the response (and its connection) closed
    await upstream.aclose()
