"""The skeleton the network adapters share (providers/network.py): config in, a step out."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from agentic_driver.config import parse_config
from agentic_driver.providers import build_provider
from agentic_driver.providers.base import ModelRequest
from agentic_driver.providers.network import NetworkAdapter

KINDS = ("openai-responses", "anthropic", "gemini", "openai-chat")


def _provider(entry: dict[str, Any]) -> Any:
    config = parse_config({"providers": [{"id": "p", "models": ["m"], "apiKeyEnv": "KEY", **entry}]})
    return build_provider(config.providers[0], "providers[0]", env={"KEY": "sk-network-test"})


@pytest.mark.parametrize("kind", KINDS)
def test_every_network_adapter_takes_its_plumbing_from_the_config(kind: str) -> None:
    provider = _provider(
        {
            "kind": kind,
            "accountId": "acct",
            "timeoutMs": 2_500,
            "connectTimeoutMs": 700,
            "keepAliveMs": 30_000,
            "maxRetries": 4,
            "retryBaseMs": 10,
            "stream": False,
        }
    )

    assert isinstance(provider, NetworkAdapter)
    assert (provider.id, provider.models, provider.account_id, provider.kind, provider.stream) == (
        "p",
        ("m",),
        "acct",
        kind,
        False,
    )
    assert (provider.retry.max_retries, provider.retry.base_s, provider.upstream.timeout_s) == (4, 0.01, 2.5)
    assert provider.upstream.connect_timeout_s == 0.7
    client = provider.upstream._new_client()
    assert (client.timeout.connect, client.timeout.pool, client.timeout.read) == (0.7, 0.7, 2.5)
    assert client._transport._pool._keepalive_expiry == 30.0
    assert provider.upstream.secrets == ("sk-network-test",)
    assert "sk-network-test" in "".join(provider.upstream.headers.values())


async def test_a_native_turn_on_an_adapter_without_native_continuation_is_refused_before_any_request() -> None:
    sent: list[httpx.Request] = []
    provider = _provider({"kind": "openai-chat"})
    provider.upstream.transport = httpx.MockTransport(lambda request: sent.append(request) or httpx.Response(500))

    with pytest.raises(ValueError, match="openai-chat keeps no native state"):
        provider.turn(ModelRequest("m", "hi"), native=True)
    assert sent == []
