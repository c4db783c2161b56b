"""``make bench-upstream``'s parts, fast: the fake provider's counting and keep-alive, every protocol's answer,
the bars and the row arithmetic, and the whole run at tiny counts through a real host (a few seconds).

No benchmark runs here: the end-to-end case makes 4 calls a phase in one round.
"""

from __future__ import annotations

import asyncio
import json
import ssl
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
from harness import upstream
from harness.directclient import provider_call
from harness.fakeprovider import PROTOCOLS, REPLY, FakeProvider, make_certificates
from harness.upstream import Phase, Row, connections_bar, host_config, instance_id, summarize_row

KEY = "test-key-0123456789"


@pytest.fixture
async def fake(tmp_path: Path) -> AsyncIterator[tuple[FakeProvider, str, ssl.SSLContext]]:
    context, ca_file = make_certificates(tmp_path)
    provider = FakeProvider(context, KEY)
    port = await provider.start()
    yield provider, f"https://127.0.0.1:{port}", ssl.create_default_context(cafile=str(ca_file))
    await provider.close()


def _text_of(protocol: str, stream: bool, body: str) -> str:
    """The reply text an adapter would assemble from the answer (the fields the host's adapters read)."""
    if not stream:
        data = json.loads(body)
        return str(
            {
                "openai-chat": lambda: data["choices"][0]["message"]["content"],
                "anthropic": lambda: data["content"][0]["text"],
                "openai-responses": lambda: data["output"][0]["content"][0]["text"],
                "gemini": lambda: data["candidates"][0]["content"]["parts"][0]["text"],
            }[protocol]()
        )
    events = [json.loads(line[5:]) for line in body.splitlines() if line.startswith("data:") and "[DONE]" not in line]
    if protocol == "openai-chat":
        assert body.rstrip().endswith("data: [DONE]")
        return "".join(e["choices"][0]["delta"].get("content") or "" for e in events if e["choices"])
    if protocol == "anthropic":
        assert events[-1]["type"] == "message_stop"
        return "".join(e["delta"]["text"] for e in events if e["type"] == "content_block_delta")
    if protocol == "openai-responses":
        assert events[-1]["type"] == "response.completed"
        return "".join(e["delta"] for e in events if e["type"] == "response.output_text.delta")
    assert events[-1]["candidates"][0]["finishReason"] == "STOP"
    return "".join(e["candidates"][0]["content"]["parts"][0]["text"] for e in events)


async def test_every_protocol_answers_its_reply_on_one_kept_alive_connection(
    fake: tuple[FakeProvider, str, ssl.SSLContext],
) -> None:
    provider, origin, trust = fake
    async with httpx.AsyncClient(base_url=origin, verify=trust) as client:
        for protocol in PROTOCOLS:
            for stream in (True, False):
                call = provider_call(protocol, stream, KEY)
                answer = await client.post(call.path, params=call.params, headers=call.headers, content=call.body)
                assert answer.status_code == 200, answer.text
                assert answer.headers.get("transfer-encoding") == ("chunked" if stream else None)
                assert _text_of(protocol, stream, answer.text) == REPLY
    counters = provider.counters
    # Streamed bodies end with their terminating chunk, so one connection carried all eight answers.
    assert (counters.connections, counters.handshakes, counters.requests, counters.refused) == (1, 1, 8, 0)
    assert sum(counters.served.values()) == 8 and len(counters.served) == 8


async def test_counts_every_connection_and_handshake_and_refuses_a_wrong_key(
    fake: tuple[FakeProvider, str, ssl.SSLContext],
) -> None:
    provider, origin, trust = fake
    call = provider_call("anthropic", True, "not-the-key")
    for _ in range(3):  # a client per call: what the host did before pooling
        async with httpx.AsyncClient(base_url=origin, verify=trust) as client:
            answer = await client.post(call.path, headers=call.headers, content=call.body)
            assert answer.status_code == 401
    async with httpx.AsyncClient(base_url=origin, verify=ssl.create_default_context()) as untrusting:
        with pytest.raises(httpx.ConnectError):
            await untrusting.get("/")
    await asyncio.wait_for(provider.idle.wait(), timeout=5)  # the refusal's alert reaches the fake after the raise
    counters = provider.counters
    assert (counters.connections, counters.handshakes, counters.failed_handshakes) == (4, 3, 1)
    assert (counters.requests, counters.refused) == (3, 3)
    assert counters.closed == 4


def test_host_config_names_one_instance_per_adapter_and_body() -> None:
    pairs = [(protocol, stream) for protocol in PROTOCOLS for stream in (True, False)]
    config = host_config("https://127.0.0.1:9", pairs)
    providers = {p["id"]: p for p in config["providers"]}
    assert len(providers) == 8
    assert providers["openai-chat-sse"]["baseUrl"] == "https://127.0.0.1:9/v1"
    assert providers["gemini-json"] == {
        "id": "gemini-json",
        "kind": "gemini",
        "baseUrl": "https://127.0.0.1:9",
        "apiKeyEnv": upstream.API_KEY_ENV,
        "models": ["bench-model"],
        "stream": False,
    }
    assert instance_id("anthropic", True) == "anthropic-sse"


def _phase(connections: int, p50: float, cpu: float, calls: int = 100) -> Phase:
    return Phase(calls, 0, p50, p50 * 2, cpu, 50.0, connections, connections, 0, calls)


def test_bars_and_row_figures() -> None:
    assert connections_bar(1, 200) == 0.05
    assert connections_bar(8, 200) == pytest.approx(9 / 200)
    row = Row(
        "openai-chat",
        True,
        8,
        host=[_phase(9, 1500, 300), _phase(0, 1400, 280), _phase(1, 1600, 320)],
        floor=[_phase(0, 1000, 100), _phase(0, 900, 100), _phase(0, 1200, 100)],
    )
    summary = summarize_row(row, calls=100)
    assert summary["connections_per_call"] == pytest.approx(10 / 300)
    assert summary["worst_round_connections_per_call"] == pytest.approx(0.09)
    assert summary["connections_met"]  # 9/100 is the bar at c8 with N = 100
    assert summary["added_p50_us"] == 500  # the median of the per-round differences 500, 500, 400
    assert summary["added_p50_met"]
    assert summary["cpu_ratio"] == pytest.approx(3.0)
    assert len(summary["rounds"]) == 3


def test_a_tiny_run_through_a_real_host(tmp_path: Path) -> None:
    out = tmp_path / "upstream.json"
    argv = ["--rounds", "1", "--calls", "4", "--concurrency", "1,2", "--adapters", "openai-chat,gemini"]
    assert upstream.main([*argv, "--out", str(out)]) == 0
    results = json.loads(out.read_text())
    rows = results["hosts"]["host"]["rows"]
    assert len(rows) == 2 * 2 * 2  # two adapters, streamed and not, two concurrencies
    for row in rows:
        assert (row["errors"], row["floor_errors"]) == (0, 0), row["error_samples"]
        assert row["requests_per_call"] == 1.0  # one provider request per model call: no retries
        assert row["floor_connections_per_call"] == 0.0  # the floor's pool was warm
        assert row["host"]["cpu_us"] > 0 and row["floor"]["cpu_us"] > 0
    assert results["load"]["cores"] >= 1 and len(results["load"]["loadavg_before"]) == 3
