"""Token providers (clients/BEHAVIOUR.md, Tokens): asked for every attempt, asked anew once on invalid_token,
checked before anything is sent."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import httpx
import pytest

import agentic_driver_sdk as sdk
from agentic_driver_sdk import AgenticDriver, AsyncAgenticDriver

from .conftest import d, problem
from .resume_support import CONTINUE, RUN, Body, message

INVALID = 'Bearer realm="agentic-driver", error="invalid_token", error_description="expired"'
ECHO = {"provider": "echo", "model": "echo-1"}


def run_answer() -> httpx.Response:
    body = {
        "id": "run_1",
        "status": "completed",
        "output": {"text": "echo: hi"},
        "usage": {
            "inputTokens": 0,
            "outputTokens": 0,
            "cachedInputTokens": 0,
            "cacheWriteTokens": 0,
            "reasoningTokens": 0,
        },
        "cost": None,
        "retries": {"count": 0, "inputTokens": 0, "outputTokens": 0, "cost": None},
        "servedModel": "echo-1",
    }
    return httpx.Response(200, json=body)


def unauthenticated(challenge: str | None = INVALID) -> httpx.Response:
    return problem(401, "UNAUTHENTICATED", {"WWW-Authenticate": challenge} if challenge else None)


class Script:
    """Answers requests in turn and records what each one carried."""

    def __init__(self, *answers: httpx.Response) -> None:
        self.answers = list(answers)
        self.seen: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.seen.append(request)
        return self.answers.pop(0)

    @property
    def tokens(self) -> list[str | None]:
        return [r.headers.get("authorization") for r in self.seen]


class Provider:
    """A token provider that hands out token-1, token-2, ... and records what it was told."""

    def __init__(self) -> None:
        self.refused: list[str | None] = []

    def __call__(self, refused: str | None) -> str:
        self.refused.append(refused)
        return f"token-{len(self.refused)}"


def client(kind: str, script: Script, token: Any) -> Any:
    transport = httpx.MockTransport(script)
    if kind == "sync":
        return AgenticDriver(base_url="http://mock.invalid", token=token, transport=transport)
    return AsyncAgenticDriver(base_url="http://mock.invalid", token=token, transport=transport)


async def call(kind: str, script: Script, token: Any, method: Callable[[Any], Any]) -> Any:
    driver = client(kind, script, token)
    try:
        return await d(method(driver))
    finally:
        await d(driver.close())


async def test_the_provider_is_asked_for_every_attempt_a_retry_included(kind: str, no_sleep: list[float]) -> None:
    script = Script(httpx.Response(503, text="proxy page"), run_answer())
    provider = Provider()
    await call(kind, script, provider, lambda c: c.run(**ECHO, input="hi"))
    assert script.tokens == ["Bearer token-1", "Bearer token-2"]
    assert provider.refused == [None, None]  # a retry for another reason refuses no token


async def test_an_invalid_token_is_asked_anew_once_with_the_refused_token_and_the_same_key(kind: str) -> None:
    script = Script(unauthenticated(), run_answer())
    provider = Provider()
    result = await call(kind, script, provider, lambda c: c.run(**ECHO, input="hi"))
    assert result.output.text == "echo: hi"
    assert provider.refused == [None, "token-1"]
    assert script.tokens == ["Bearer token-1", "Bearer token-2"]
    keys = {r.headers.get("idempotency-key") for r in script.seen}
    assert len(keys) == 1 and None not in keys


async def test_a_second_invalid_token_is_raised(kind: str) -> None:
    script = Script(unauthenticated(), unauthenticated())
    with pytest.raises(sdk.UnauthenticatedError):
        await call(kind, script, Provider(), lambda c: c.discovery())
    assert len(script.seen) == 2


async def test_a_401_without_invalid_token_is_raised_at_once(kind: str) -> None:
    script = Script(unauthenticated('Bearer realm="agentic-driver"'))
    provider = Provider()
    with pytest.raises(sdk.UnauthenticatedError):
        await call(kind, script, provider, lambda c: c.discovery())
    assert len(script.seen) == 1 and provider.refused == [None]


async def test_a_string_token_is_not_sent_again(kind: str) -> None:
    script = Script(unauthenticated())
    with pytest.raises(sdk.UnauthenticatedError):
        await call(kind, script, "a-static-token-0123", lambda c: c.discovery())
    assert script.tokens == ["Bearer a-static-token-0123"]


async def test_a_provider_that_fails_fails_the_call_before_anything_is_sent(kind: str) -> None:
    script = Script()

    def broken(refused: str | None) -> str:
        raise RuntimeError("the identity provider is down: secret-detail")

    with pytest.raises(sdk.APIConnectionError) as caught:
        await call(kind, script, broken, lambda c: c.discovery())
    assert isinstance(caught.value.__cause__, RuntimeError)
    assert "secret-detail" not in str(caught.value)
    assert script.seen == []


@pytest.mark.parametrize("value", ["", "two words", "line\nbreak", "caf\u00e9", "\x00", 42])
async def test_a_token_a_header_cannot_carry_is_never_sent(kind: str, value: Any) -> None:
    script = Script()
    with pytest.raises(sdk.APIConnectionError, match="not sent"):
        await call(kind, script, lambda refused: value, lambda c: c.discovery())
    assert script.seen == []


async def test_the_async_client_awaits_an_async_provider() -> None:
    script = Script(unauthenticated(), run_answer())
    refused: list[str | None] = []

    async def fresh(previous: str | None) -> str:
        refused.append(previous)
        return f"async-{len(refused)}"

    async with AsyncAgenticDriver(
        base_url="http://mock.invalid", token=fresh, transport=httpx.MockTransport(script)
    ) as c:
        await c.run(**ECHO, input="hi")
    assert refused == [None, "async-1"] and script.tokens == ["Bearer async-1", "Bearer async-2"]


def test_the_sync_client_refuses_an_async_provider_before_sending() -> None:
    script = Script()

    async def fresh(previous: str | None) -> str:
        return "never"

    provider: Callable[[str | None], Awaitable[str]] = fresh
    transport = httpx.MockTransport(script)
    with (
        AgenticDriver(base_url="http://mock.invalid", token=provider, transport=transport) as c,
        pytest.raises(TypeError, match="AsyncAgenticDriver"),
    ):
        c.discovery()
    assert script.seen == []


def test_a_provider_token_never_appears_in_the_options_repr() -> None:
    with AgenticDriver(base_url="http://mock.invalid", token="a-static-token-0123") as c:
        assert "a-static-token-0123" not in repr(c.options)


async def test_a_resumed_stream_asks_the_provider_for_its_rejoin(kind: str) -> None:
    dropped = httpx.Response(
        200, headers={"content-type": "text/event-stream"}, stream=Body([message(1)], httpx.ReadError("cut"))
    )
    rest = b"".join(message(n) for n in range(2, 9))
    rejoined = httpx.Response(200, headers={"content-type": "text/event-stream"}, content=rest)
    script = Script(dropped, unauthenticated(), rejoined)
    provider = Provider()
    driver = client(kind, script, provider)
    try:
        if kind == "sync":
            with driver.runs.stream(**CONTINUE) as events:
                kinds = [type(e).__name__ for e in events]
        else:
            async with driver.runs.stream(**CONTINUE) as events:
                kinds = [type(e).__name__ async for e in events]
    finally:
        await d(driver.close())
    assert kinds[-1] == "RunCompletedEvent" and len(kinds) == 8
    assert [r.url.path for r in script.seen] == ["/v1/runs/stream", f"/v1/runs/{RUN}/events", f"/v1/runs/{RUN}/events"]
    assert provider.refused == [None, None, "token-2"]  # the rejoin was refused once, and asked anew
