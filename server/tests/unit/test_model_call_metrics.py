"""The model call and run slot histograms: what each call observes, under which labels, in which buckets.

The Prometheus names map to the OpenTelemetry GenAI metrics of the pinned semantic conventions
(``metrics.GEN_AI_METRICS``, docs/observability.md); the last tests check that mapping against the package.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncGenerator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from opentelemetry.semconv._incubating.attributes import gen_ai_attributes
from opentelemetry.semconv._incubating.metrics import gen_ai_metrics
from opentelemetry.semconv.schemas import Schemas
from prometheus_client import CollectorRegistry, Histogram

from agentic_driver import Driver, EchoProvider, ManualClock, SessionsConfig
from agentic_driver.errors import ModelNotFound, ProviderError, ProviderTimeout, RunCancelled
from agentic_driver.metrics import (
    DURATION_BUCKETS,
    GEN_AI_METRICS,
    MODEL_CALL_OUTCOMES,
    SLOT_WAIT_BUCKETS,
    TOKEN_BUCKETS,
    TOKEN_TYPES,
    Metrics,
)
from agentic_driver.models import CreateSessionRequest, RunRequest, SessionHandle
from agentic_driver.providers.base import Capabilities, ModelRequest, TextDelta, TurnEvent, Usage, UsageReport
from agentic_driver.turns import RunSlots

DURATION = "agentic_driver_model_call_duration_seconds"
FIRST_OUTPUT = "agentic_driver_model_call_time_to_first_output_seconds"
TOKENS = "agentic_driver_model_call_tokens"
SLOT_WAIT = "agentic_driver_run_slot_wait_seconds"
DOCS = Path(__file__).resolve().parents[3] / "docs" / "observability.md"


def sample(metrics: Metrics, name: str, **labels: str) -> float | None:
    return metrics.registry.get_sample_value(name, labels)


def series(metrics: Metrics, family: str) -> set[tuple[str, tuple[tuple[str, str], ...]]]:
    """Every sample of the family: its name and labels (``le`` included)."""
    found = set()
    for metric in metrics.registry.collect():
        if metric.name == family:
            found |= {(s.name, tuple(sorted(s.labels.items()))) for s in metric.samples}
    return found


def bucket_bounds(metrics: Metrics, family: str) -> list[float]:
    return sorted({float(dict(labels)["le"]) for _, labels in series(metrics, family) if "le" in dict(labels)})


@dataclass
class Instance:
    id: str


@dataclass
class RenamingProvider:
    """A network-like instance that answers under a model name of its own, not streamed."""

    id: str = "renaming"
    kind: str = "openai-chat"
    models: tuple[str, ...] = ("small",)
    account_id: str | None = None
    stream: bool = False
    served: list[str] = field(default_factory=list)

    @property
    def capabilities(self) -> Capabilities:
        return Capabilities(
            history_continuation=True, native_continuation=False, streaming=True, application_functions=False
        )

    async def turn(self, request: ModelRequest, *, native: bool) -> AsyncGenerator[TurnEvent, None]:
        yield TextDelta("hi")
        served = f"small-2026-{len(self.served):06d}"  # what a provider may answer with: anything at all
        self.served.append(served)
        yield UsageReport(Usage(input_tokens=7, output_tokens=1, reasoning_tokens=1), model=served)


# -- the histograms themselves ------------------------------------------------------------------------------


def test_one_model_call_lands_in_its_buckets_under_its_labels() -> None:
    metrics = Metrics()
    echo = Instance("echo")
    started = time.perf_counter() - 0.05
    before = Usage()
    after = before + Usage(input_tokens=10, output_tokens=3, cached_input_tokens=4, reasoning_tokens=2)

    metrics.model_call_ended(echo, "echo-1", "completed", started, started + 0.015, before, after)

    call = {"provider": "echo", "model": "echo-1"}
    assert sample(metrics, DURATION + "_count", **call, outcome="completed") == 1
    assert sample(metrics, DURATION + "_bucket", **call, outcome="completed", le="0.04") == 0
    assert sample(metrics, DURATION + "_bucket", **call, outcome="completed", le="0.08") == 1
    for other in ("failed", "cancelled", "timeout"):
        assert sample(metrics, DURATION + "_count", **call, outcome=other) == 0
    assert sample(metrics, FIRST_OUTPUT + "_bucket", **call, le="0.01") == 0
    assert sample(metrics, FIRST_OUTPUT + "_bucket", **call, le="0.02") == 1
    assert sample(metrics, FIRST_OUTPUT + "_sum", **call) == pytest.approx(0.015)
    assert sample(metrics, TOKENS + "_sum", **call, type="input") == 10
    assert sample(metrics, TOKENS + "_bucket", **call, type="input", le="4.0") == 0
    assert sample(metrics, TOKENS + "_bucket", **call, type="input", le="16.0") == 1
    assert sample(metrics, TOKENS + "_sum", **call, type="output") == 3
    assert sample(metrics, TOKENS + "_sum", **call, type="cached_input") == 4
    assert sample(metrics, TOKENS + "_sum", **call, type="reasoning") == 2
    assert sample(metrics, TOKENS + "_count", **call, type="cache_write") == 0  # zero: not observed

    assert bucket_bounds(metrics, DURATION) == [*DURATION_BUCKETS, float("inf")]
    assert bucket_bounds(metrics, FIRST_OUTPUT) == [*DURATION_BUCKETS, float("inf")]
    assert bucket_bounds(metrics, TOKENS) == [*map(float, TOKEN_BUCKETS), float("inf")]
    assert bucket_bounds(metrics, SLOT_WAIT) == [*SLOT_WAIT_BUCKETS, float("inf")]


def test_the_lock_free_histogram_renders_what_prometheus_client_would() -> None:
    metrics = Metrics()
    reference_registry = CollectorRegistry()
    reference = Histogram("reference", "", ["outcome"], buckets=SLOT_WAIT_BUCKETS, registry=reference_registry)
    values = [0.0, 0.001, 0.0010001, 0.005, 0.02, 81.92, 81.93, 1e9, *SLOT_WAIT_BUCKETS]
    for value in values:
        metrics.run_slot_waited(value)
        reference.labels("acquired").observe(value)

    def rendered(registry: CollectorRegistry, name: str) -> list[tuple[str, dict[str, str], float]]:
        return [
            (s.name.removeprefix(name), s.labels, s.value)
            for metric in registry.collect()
            if metric.name == name
            for s in metric.samples
            if not s.name.endswith("_created") and s.labels.get("outcome") == "acquired"
        ]

    ours = rendered(metrics.registry, SLOT_WAIT)
    assert ours == rendered(reference_registry, "reference")
    assert ("_count", {"outcome": "acquired"}, float(len(values))) in ours
    text = metrics.render().decode()
    assert f'{SLOT_WAIT}_bucket{{le="0.001",outcome="acquired"}} 3.0' in text  # le: value <= boundary
    assert f'{TOKENS}_bucket{{le="6.7108864e+07"' not in text  # no series until a model is declared


def test_a_call_without_usage_or_output_observes_only_its_duration() -> None:
    metrics = Metrics()
    usage = Usage()
    metrics.model_call_ended(Instance("echo"), "echo-1", "failed", time.perf_counter(), None, usage, usage)
    call = {"provider": "echo", "model": "echo-1"}
    assert sample(metrics, DURATION + "_count", **call, outcome="failed") == 1
    assert sample(metrics, FIRST_OUTPUT + "_count", **call) == 0
    assert all(sample(metrics, TOKENS + "_count", **call, type=kind) == 0 for kind in TOKEN_TYPES)


async def test_the_series_are_fixed_by_the_configured_instances_and_models() -> None:
    renaming = RenamingProvider()
    driver = Driver(
        [EchoProvider(id="echo", models=("echo-1", "echo-2"), account_id=None), renaming], clock=ManualClock()
    )
    metrics = driver.metrics
    per_histogram = len(DURATION_BUCKETS) + 3  # the buckets, +Inf, _sum, _count
    per_tokens = len(TOKEN_BUCKETS) + 3

    # at zero from the start, one series set per configured (instance, model); none of first output for an
    # instance that does not stream
    assert len([s for s in series(metrics, DURATION) if not s[0].endswith("_created")]) == (
        3 * len(MODEL_CALL_OUTCOMES) * per_histogram
    )
    assert {dict(labels)["provider"] for _, labels in series(metrics, FIRST_OUTPUT)} == {"echo"}
    assert len([s for s in series(metrics, TOKENS) if not s[0].endswith("_created")]) == (
        3 * len(TOKEN_TYPES) * per_tokens
    )
    assert {dict(labels)["model"] for _, labels in series(metrics, TOKENS)} == {"echo-1", "echo-2", "small"}
    assert sample(metrics, DURATION + "_count", provider="echo", model="echo-2", outcome="completed") == 0
    assert sample(metrics, SLOT_WAIT + "_count", outcome="acquired") == 0
    assert sample(metrics, SLOT_WAIT + "_count", outcome="cancelled") == 0
    before = {family: series(metrics, family) for family in (DURATION, FIRST_OUTPUT, TOKENS)}

    for _ in range(3):
        await driver.run(RunRequest(provider="renaming", model="small", input="hi"))
    with pytest.raises(ModelNotFound):  # a model the instance was not configured with: refused, no series
        await driver.run(RunRequest(provider="echo", model="echo-unlisted", input="hi"))

    assert len(renaming.served) == 3
    assert {family: series(metrics, family) for family in before} == before  # no new series at all
    small = {"provider": "renaming", "model": "small"}
    assert sample(metrics, DURATION + "_count", **small, outcome="completed") == 3
    assert sample(metrics, TOKENS + "_sum", **small, type="input") == 21
    assert sample(metrics, TOKENS + "_sum", **small, type="reasoning") == 3
    text = metrics.render().decode()
    assert "small-2026" not in text and "echo-unlisted" not in text


async def test_an_echo_turn_observes_each_model_call_and_its_slot() -> None:
    driver = Driver([EchoProvider(id="echo", models=("echo-1",), account_id=None)], clock=ManualClock())
    metrics = driver.metrics
    echo = {"provider": "echo", "model": "echo-1"}

    result = await driver.run(RunRequest(provider="echo", model="echo-1", input="!sleep 50\nhello there"))

    assert sample(metrics, DURATION + "_count", **echo, outcome="completed") == 1
    assert sample(metrics, DURATION + "_bucket", **echo, outcome="completed", le="0.04") == 0
    assert (sample(metrics, DURATION + "_sum", **echo, outcome="completed") or 0) >= 0.04
    assert sample(metrics, FIRST_OUTPUT + "_count", **echo) == 1
    # echo sleeps 50 ms before its first delta (a loop timer may fire a little early)
    assert (sample(metrics, FIRST_OUTPUT + "_sum", **echo) or 0) >= 0.04
    assert sample(metrics, TOKENS + "_sum", **echo, type="input") == result.usage.inputTokens
    assert sample(metrics, TOKENS + "_sum", **echo, type="output") == result.usage.outputTokens
    assert sample(metrics, SLOT_WAIT + "_count", outcome="acquired") == 1
    assert sample(metrics, SLOT_WAIT + "_bucket", outcome="acquired", le="0.001") == 1  # a free slot: no wait


async def test_each_outcome_of_a_model_call() -> None:
    driver = Driver(
        [EchoProvider(id="echo", models=("echo-1",), account_id="acct-1")],
        sessions=SessionsConfig(retentionMs=60_000),
        clock=ManualClock(),
    )
    metrics = driver.metrics
    echo = {"provider": "echo", "model": "echo-1"}

    with pytest.raises(ProviderError):
        await driver.run(RunRequest(provider="echo", model="echo-1", input="!fail\nhi"))
    with pytest.raises(ProviderTimeout):
        await driver.run(RunRequest(provider="echo", model="echo-1", input="!sleep 5000\nhi", idleTimeoutMs=20))
    session = (
        await driver.create_session(CreateSessionRequest(provider="echo", model="echo-1", mode="history"))
    ).session
    record = driver.store.get(session.id)
    running = asyncio.create_task(
        driver.run(
            RunRequest(
                provider="echo", model="echo-1", input="!sleep 10000", session=SessionHandle(id=session.id, revision=0)
            )
        )
    )
    for _ in range(1_000):
        if record.active_run is not None and record.active_run.model_work_started:
            break
        await asyncio.sleep(0)
    await driver.cancel_run(record.active_run.id)
    with pytest.raises(RunCancelled):
        await running

    for outcome in ("failed", "timeout", "cancelled"):
        assert sample(metrics, DURATION + "_count", **echo, outcome=outcome) == 1, outcome
    assert sample(metrics, DURATION + "_count", **echo, outcome="completed") == 0
    assert (sample(metrics, DURATION + "_sum", **echo, outcome="timeout") or 0) >= 0.015  # idleTimeoutMs 20
    assert sample(metrics, FIRST_OUTPUT + "_count", **echo) == 0  # none of them produced output
    assert sample(metrics, TOKENS + "_count", **echo, type="input") == 0  # nor reported usage


async def test_the_run_slot_wait_is_what_a_run_spent_in_line() -> None:
    waits: list[tuple[float, bool]] = []
    slots = RunSlots(size=1, max_waiting=2, on_wait=lambda seconds, acquired: waits.append((seconds, acquired)))
    slots.reserve()
    await slots.acquire()
    assert waits == [(0.0, True)]  # a free slot: no wait and no clock read

    slots.reserve()
    second = asyncio.create_task(slots.acquire())
    slots.reserve()
    third = asyncio.create_task(slots.acquire())
    await asyncio.sleep(0.03)
    third.cancel()
    with pytest.raises(asyncio.CancelledError):
        await third
    slots.release()
    await second

    (cancelled, cancelled_ok), (waited, acquired) = waits[1:]
    assert cancelled_ok is False and cancelled >= 0.025  # it waited 30 ms (a loop timer may fire a little early)
    assert acquired is True and waited >= 0.025


# -- the mapping to the OpenTelemetry GenAI metrics -------------------------------------------------------------


def test_the_mapped_names_are_the_pinned_semantic_conventions() -> None:
    assert GEN_AI_METRICS == {
        DURATION: gen_ai_metrics.GEN_AI_CLIENT_OPERATION_DURATION,
        FIRST_OUTPUT: gen_ai_metrics.GEN_AI_CLIENT_OPERATION_TIME_TO_FIRST_CHUNK,
        TOKENS: gen_ai_metrics.GEN_AI_CLIENT_TOKEN_USAGE,
    }
    assert gen_ai_attributes.GEN_AI_TOKEN_TYPE == "gen_ai.token.type"
    assert {v.value for v in gen_ai_attributes.GenAiTokenTypeValues} == {"input", "output"}
    # the release the docs name: the newest schema 0.66b2 carries is that of semantic conventions 1.44.0
    assert list(Schemas)[-1] is Schemas.V1_44_0


def test_the_docs_map_every_histogram() -> None:
    text = DOCS.read_text(encoding="utf-8")
    rows = [line for line in text.splitlines() if line.startswith("|")]
    for prometheus, otel in GEN_AI_METRICS.items():
        assert any(f"`{prometheus}" in row and f"`{otel}`" in row for row in rows), prometheus
    assert any(f"`{SLOT_WAIT}" in row for row in rows)
    assert "opentelemetry-semantic-conventions` 0.66b2" in text and "1.44.0" in text
