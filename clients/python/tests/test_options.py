"""Configuration: environment, copies, timeouts, headers, closing."""

from __future__ import annotations

import httpx
import pytest

from agentic_driver_sdk import AgenticDriver, AsyncAgenticDriver

from .conftest import TOKEN, Host, Seen, d, driver_for, mock_client, recording


async def test_url_and_token_come_from_the_environment(kind: str, host: Host, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENTIC_DRIVER_URL", host.base_url + "/")
    monkeypatch.setenv("AGENTIC_DRIVER_TOKEN", TOKEN)
    client = AgenticDriver() if kind == "sync" else AsyncAgenticDriver()
    try:
        assert client.options.base_url == host.base_url and client.options.token == TOKEN
        assert (await d(client.discovery())).subject == "tester"
    finally:
        await d(client.close())


def test_arguments_win_over_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENTIC_DRIVER_URL", "http://from-env.invalid")
    monkeypatch.setenv("AGENTIC_DRIVER_TOKEN", "from-env-token-000000")
    with AgenticDriver(base_url="http://argument.invalid", token="argument-token-000000") as client:
        assert client.options.base_url == "http://argument.invalid"
        assert client.options.token == "argument-token-000000"
    with AgenticDriver() as defaults:
        assert defaults.options.base_url == "http://from-env.invalid"
    monkeypatch.delenv("AGENTIC_DRIVER_URL")
    monkeypatch.delenv("AGENTIC_DRIVER_TOKEN")
    with AgenticDriver() as bare:
        assert bare.options.base_url == "http://127.0.0.1:8080" and bare.options.token is None
        assert "authorization" not in bare._http.headers


async def test_with_options_returns_a_configured_copy(kind: str, host: Host) -> None:
    seen = Seen()
    async with driver_for(kind, host, transport=recording(kind, seen), default_headers={"X-App": "tests"}) as driver:
        copy = driver.with_options(max_retries=7, timeout=3.5, token="another-token-0000000", stream_idle_timeout=9)
        assert type(copy.client) is type(driver.client) and copy.client is not driver.client
        assert copy.client.options.max_retries == 7 and copy.client.options.stream_idle_timeout == 9
        assert copy.client.options.timeout == httpx.Timeout(3.5, connect=3.5)
        assert copy.client.options.default_headers == {"X-App": "tests"}
        # The original is unchanged.
        assert driver.client.options.max_retries == 2 and driver.client.options.token == TOKEN
        assert (await d(driver.client.discovery())).subject == "tester"
        with pytest.raises(Exception, match="UNAUTHENTICATED"):
            await d(copy.client.discovery())
        with pytest.raises(TypeError, match="unknown options"):
            driver.client.with_options(retries=3)
        with pytest.raises(TypeError, match="unknown options"):
            driver.client.with_options(retry_busy=True)  # gone: SESSION_BUSY is never retried
    assert all(r.headers["x-app"] == "tests" for r in seen.requests)
    assert [r.headers["authorization"] for r in seen.requests] == [f"Bearer {TOKEN}", "Bearer another-token-0000000"]


async def test_connect_and_read_timeouts_are_set_apart(kind: str) -> None:
    seen: list[dict[str, float]] = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request.extensions["timeout"])
        return httpx.Response(200, json={"id": "run_1", "status": "cancelled", "modelWorkStarted": False})

    timeout = httpx.Timeout(30.0, connect=1.5, read=120.0)
    client = mock_client(kind, answer, timeout=timeout)
    await d(client.runs.cancel("run_1"))
    await d(client.with_options(timeout=httpx.Timeout(5.0, connect=0.25)).runs.cancel("run_1"))
    await d(client.close())
    assert seen[0] == {"connect": 1.5, "read": 120.0, "write": 30.0, "pool": 30.0}
    assert seen[1] == {"connect": 0.25, "read": 5.0, "write": 5.0, "pool": 5.0}


async def test_context_managers_close_connections(host: Host) -> None:
    with host.sync() as sync_client:
        await d(sync_client.discovery())
        pool = sync_client._http._transport._pool  # type: ignore[attr-defined]
        assert len(pool.connections) == 1
    assert sync_client._http.is_closed and pool.connections == []
    with pytest.raises(RuntimeError):
        sync_client.discovery()

    async with host.async_() as async_client:
        await async_client.discovery()
        apool = async_client._http._transport._pool  # type: ignore[attr-defined]
        assert len(apool.connections) == 1
    assert async_client._http.is_closed and apool.connections == []
