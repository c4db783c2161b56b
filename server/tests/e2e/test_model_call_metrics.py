"""The model call histograms of a real host, read from ``/metrics``: echo turns and an Anthropic-shaped fake
upstream (streamed and not), each call under its configured instance and requested model, and no series for
anything else (docs/observability.md, "GenAI metrics")."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from fakes import AnthropicFake

from agentic_driver.metrics import DURATION_BUCKETS, MODEL_CALL_OUTCOMES, TOKEN_BUCKETS, TOKEN_TYPES

from .conftest import ALICE, ALL_GRANTS, Host, assert_problem, echo_provider, parse_metrics, token_entry

UPSTREAM_KEY = "sk-metrics-upstream-key-0000001"
KEY_ENV = "AGENTIC_DRIVER_E2E_METRICS_KEY"
DURATION = "agentic_driver_model_call_duration_seconds"
FIRST_OUTPUT = "agentic_driver_model_call_time_to_first_output_seconds"
TOKENS = "agentic_driver_model_call_tokens"
SLOT_WAIT = "agentic_driver_run_slot_wait_seconds"
FAMILY_PREFIX = "agentic_driver_model_call_"
SERVED = {("echo", "echo-1"), ("echo", "echo-2"), ("claude", "claude-sonnet-5"), ("claude-nostream", "claude-sonnet-5")}

Samples = list[tuple[str, dict[str, str], float]]


@pytest.fixture(scope="module")
def anthropic() -> Iterator[AnthropicFake]:
    fake = AnthropicFake(api_key=UPSTREAM_KEY)
    fake.start()
    yield fake
    fake.stop()


def claude(provider_id: str, fake: AnthropicFake, stream: bool) -> dict[str, Any]:
    return {
        "id": provider_id,
        "kind": "anthropic",
        "models": ["claude-sonnet-5"],
        "baseUrl": fake.base_url,
        "apiKeyEnv": KEY_ENV,
        "stream": stream,
        "maxRetries": 0,
    }


@pytest.fixture(scope="module")
def host(launch: Callable[..., Host], anthropic: AnthropicFake) -> Host:
    config = {
        "hostId": "e2e-model-call-metrics",
        "providers": [
            echo_provider("echo", models=("echo-1", "echo-2")),
            claude("claude", anthropic, stream=True),
            claude("claude-nostream", anthropic, stream=False),
        ],
        "tokens": [token_entry("alice", ALICE, ["*"], ALL_GRANTS)],
    }
    return launch("model-call-metrics", config, env={KEY_ENV: UPSTREAM_KEY})


def run(host: Host, provider: str, model: str, text: str) -> httpx.Response:
    with host.raw(ALICE) as http:
        return http.post("/v1/runs", json={"provider": provider, "model": model, "input": text})


def value(samples: Samples, name: str, **labels: str) -> float:
    found = [v for n, got, v in samples if n == name and got.items() >= labels.items()]
    assert len(found) == 1, (name, labels, found)
    return found[0]


def family(samples: Samples, name: str) -> list[dict[str, str]]:
    """The labels of every sample of histogram ``name`` (buckets, sum and count)."""
    return [labels for n, labels, _ in samples if n in (f"{name}_bucket", f"{name}_sum", f"{name}_count")]


def test_every_configured_model_has_its_series_from_the_start(host: Host) -> None:
    samples = host.metrics()
    pairs = {(labels["provider"], labels["model"]) for labels in family(samples, DURATION)}
    assert pairs == SERVED
    per_histogram = len(DURATION_BUCKETS) + 3  # the buckets, +Inf, _sum and _count
    assert len(family(samples, DURATION)) == len(SERVED) * len(MODEL_CALL_OUTCOMES) * per_histogram
    assert len(family(samples, TOKENS)) == len(SERVED) * len(TOKEN_TYPES) * (len(TOKEN_BUCKETS) + 3)
    # the conventions report time to first chunk for streamed calls only
    assert {labels["provider"] for labels in family(samples, FIRST_OUTPUT)} == {"echo", "claude"}
    bounds = sorted({float(labels["le"]) for labels in family(samples, DURATION) if "le" in labels})
    assert bounds == [*DURATION_BUCKETS, float("inf")]
    assert {labels["outcome"] for labels in family(samples, SLOT_WAIT)} == {"acquired", "cancelled"}


def test_echo_turns_are_observed_per_call_and_outcome(host: Host) -> None:
    before = host.metrics()
    answered = run(host, "echo", "echo-2", "!sleep 50\nhello there")
    assert answered.status_code == 200, answered.text
    failed = run(host, "echo", "echo-2", "!fail\nhello")
    assert_problem(failed, 502, "PROVIDER_ERROR")
    after = host.metrics()

    def grew(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    echo = {"provider": "echo", "model": "echo-2"}
    assert grew(DURATION + "_count", **echo, outcome="completed") == 1
    assert grew(DURATION + "_count", **echo, outcome="failed") == 1
    assert grew(DURATION + "_bucket", **echo, outcome="completed", le="0.04") == 0  # it slept 50 ms
    assert grew(FIRST_OUTPUT + "_count", **echo) == 1  # the failed call produced no output
    assert grew(FIRST_OUTPUT + "_sum", **echo) >= 0.04  # 50 ms, less what an early timer takes
    usage = answered.json()["usage"]
    assert grew(TOKENS + "_sum", **echo, type="input") == usage["inputTokens"]
    assert grew(TOKENS + "_sum", **echo, type="output") == usage["outputTokens"]
    assert grew(TOKENS + "_count", **echo, type="cached_input") == 0  # echo reports none: not observed
    assert grew(SLOT_WAIT + "_count", outcome="acquired") == 2
    assert grew(DURATION + "_count", provider="echo", model="echo-1", outcome="completed") == 0


@pytest.mark.parametrize("provider", ["claude", "claude-nostream"])
def test_a_network_provider_call_reports_its_token_types(host: Host, provider: str) -> None:
    before = host.metrics()
    answered = run(host, provider, "claude-sonnet-5", "What is the capital of France?")
    assert answered.status_code == 200, answered.text
    after = host.metrics()

    def grew(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    call = {"provider": provider, "model": "claude-sonnet-5"}
    usage = answered.json()["usage"]
    assert usage["cachedInputTokens"] > 0 and usage["cacheWriteTokens"] > 0  # the fake reports both
    assert grew(DURATION + "_count", **call, outcome="completed") == 1
    assert grew(TOKENS + "_sum", **call, type="input") == usage["inputTokens"]
    assert grew(TOKENS + "_sum", **call, type="output") == usage["outputTokens"]
    assert grew(TOKENS + "_sum", **call, type="cached_input") == usage["cachedInputTokens"]
    assert grew(TOKENS + "_sum", **call, type="cache_write") == usage["cacheWriteTokens"]
    assert grew(TOKENS + "_count", **call, type="reasoning") == 0
    if provider == "claude":
        assert grew(FIRST_OUTPUT + "_count", **call) == 1
    else:  # not a streamed call: no time to first chunk
        assert all(labels["provider"] != provider for labels in family(after, FIRST_OUTPUT))


def model_call_series(samples: Samples) -> set[tuple[str, tuple[tuple[str, str], ...]]]:
    return {(name, tuple(sorted(labels.items()))) for name, labels, _ in samples if name.startswith(FAMILY_PREFIX)}


def test_no_request_adds_a_series(host: Host) -> None:
    before = model_call_series(host.metrics())
    assert_problem(run(host, "echo", "echo-unlisted", "hi"), 404, "MODEL_NOT_FOUND")  # refused before any call
    assert run(host, "claude", "claude-sonnet-5", "hello").status_code == 200
    assert run(host, "echo", "echo-1", "!call lookup {}\nhi").status_code == 502  # a call of a function not offered
    text = httpx.get(host.base_url + "/metrics", trust_env=False).text
    assert model_call_series(parse_metrics(text)) == before
    assert "echo-unlisted" not in text
