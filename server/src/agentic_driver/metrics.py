"""Prometheus metrics of one driver (its own registry, so several drivers never collide).

The model call histograms follow the OpenTelemetry GenAI metrics of ``opentelemetry-semantic-conventions``
0.66b2 (``telemetry.SEMCONV_VERSION``; docs/observability.md maps each one): their bucket boundaries are the
ones the conventions recommend, and their labels are bounded by the host JSON: ``provider`` is a configured
instance id, ``model`` one of that instance's configured ``models`` (the requested model, which admission
checks against that list; never the model name the provider answers with), ``outcome`` one of
``MODEL_CALL_OUTCOMES`` and ``type`` one of ``TOKEN_TYPES``.
"""

from __future__ import annotations

import asyncio
import time
from bisect import bisect_left
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Protocol

from prometheus_client import CollectorRegistry, Counter, Gauge, generate_latest
from prometheus_client.metrics_core import HistogramMetricFamily
from prometheus_client.utils import floatToGoString

_le_text: Callable[[float], str] = floatToGoString  # how prometheus_client writes ``le`` (Go's float format)

__all__ = [
    "DURATION_BUCKETS",
    "GEN_AI_METRICS",
    "MODEL_CALL_OUTCOMES",
    "SLOT_WAIT_BUCKETS",
    "SLOT_WAIT_OUTCOMES",
    "TOKEN_BUCKETS",
    "TOKEN_TYPES",
    "Metrics",
]

DURATION_BUCKETS = (0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92)
"""Seconds: the explicit boundaries the GenAI conventions give ``gen_ai.client.operation.duration`` and
``gen_ai.client.operation.time_to_first_chunk``."""
TOKEN_BUCKETS = (1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864)
"""Tokens: the explicit boundaries the GenAI conventions give ``gen_ai.client.token.usage``."""
SLOT_WAIT_BUCKETS = (0.001, 0.005, *DURATION_BUCKETS)
"""Seconds: the model call's boundaries below two finer ones, since most waits for a slot are none at all."""
MODEL_CALL_OUTCOMES = ("completed", "failed", "cancelled", "timeout")
"""How a model call ended: its reply or tool calls arrived; the provider (or the host) failed; the run was
cancelled, disconnected or shut down; the run's ``idleTimeoutMs`` passed without progress."""
TOKEN_TYPES = ("input", "output", "cached_input", "cache_write", "reasoning")
"""``input`` and ``output`` are the totals (``gen_ai.token.type``); the other three are parts of them."""
SLOT_WAIT_OUTCOMES = ("acquired", "cancelled")
GEN_AI_METRICS = {
    "agentic_driver_model_call_duration_seconds": "gen_ai.client.operation.duration",
    "agentic_driver_model_call_time_to_first_output_seconds": "gen_ai.client.operation.time_to_first_chunk",
    "agentic_driver_model_call_tokens": "gen_ai.client.token.usage",
}
"""Each model call histogram and the GenAI metric it maps to (docs/observability.md; the names are checked
against the pinned semantic conventions by ``tests/unit/test_model_call_metrics.py``)."""


class _Instance(Protocol):
    """What the metrics read of a provider instance."""

    @property
    def id(self) -> str: ...


class _Tokens(Protocol):
    """A usage report's counts (``providers.base.Usage``)."""

    @property
    def input_tokens(self) -> int: ...
    @property
    def output_tokens(self) -> int: ...
    @property
    def cached_input_tokens(self) -> int: ...
    @property
    def cache_write_tokens(self) -> int: ...
    @property
    def reasoning_tokens(self) -> int: ...


class _Bins:
    """One labelled histogram: a count per bucket (the last one past every boundary) and the sum."""

    __slots__ = ("_bounds", "counts", "total")

    def __init__(self, bounds: tuple[float, ...]) -> None:
        self._bounds = bounds
        self.counts = [0] * (len(bounds) + 1)
        self.total = 0.0

    def observe(self, value: float) -> None:
        self.counts[bisect_left(self._bounds, value)] += 1  # the first boundary >= value: Prometheus ``le``
        self.total += value


class _Histogram:
    """A histogram family in the driver's registry, observed without a lock.

    ``prometheus_client.Histogram`` takes two locks and walks its boundaries on every observation (about
    1 us; an echo turn makes five): the host observes only on its event loop thread, where the scrape is
    rendered too, so plain counters do. The scrape derives ``_count`` from the buckets, so they always agree.
    """

    def __init__(
        self,
        name: str,
        documentation: str,
        labelnames: Sequence[str],
        buckets: Sequence[float],
        registry: CollectorRegistry,
    ) -> None:
        self.name, self._documentation, self._labelnames = name, documentation, tuple(labelnames)
        self._bounds = tuple(float(b) for b in buckets)
        self._le = [*(_le_text(b) for b in self._bounds), "+Inf"]
        self._children: dict[tuple[str, ...], _Bins] = {}
        registry.register(self)

    def labels(self, *values: str) -> _Bins:
        """The child of these label values, created at zero the first time (bind it: look-ups cost)."""
        child = self._children.get(values)
        if child is None:
            if len(values) != len(self._labelnames):
                raise ValueError(f"{self.name} takes the labels {self._labelnames}, not {values}")
            child = self._children[values] = _Bins(self._bounds)
        return child

    def collect(self) -> Iterator[HistogramMetricFamily]:
        family = HistogramMetricFamily(self.name, self._documentation, labels=self._labelnames)
        for values, child in list(self._children.items()):
            cumulative, buckets = 0, []
            for le, count in zip(self._le, list(child.counts), strict=True):
                cumulative += count
                buckets.append((le, float(cumulative)))
            family.add_metric(values, buckets, child.total)
        yield family


class _CallSeries:
    """The bound histogram children of one (provider instance, model): one ``labels()`` per pair, not per call."""

    __slots__ = ("cache_write", "cached_input", "duration", "first_output", "input", "output", "reasoning")

    def __init__(self, metrics: Metrics, provider: str, model: str, streams: bool) -> None:
        self.duration = {o: metrics.model_call_duration.labels(provider, model, o) for o in MODEL_CALL_OUTCOMES}
        self.first_output = metrics.model_call_first_output.labels(provider, model) if streams else None
        tokens = metrics.model_call_tokens
        self.input, self.output, self.cached_input, self.cache_write, self.reasoning = (
            tokens.labels(provider, model, kind) for kind in TOKEN_TYPES
        )


def _streams(provider: object) -> bool:
    """Whether the instance calls its provider's streaming endpoint (a network instance's ``stream``; the echo
    and CLI adapters always stream)."""
    return getattr(provider, "stream", True) is not False


def _tasks() -> int:
    try:
        return len(asyncio.all_tasks())
    except RuntimeError:  # rendered outside the host's event loop
        return 0


QUOTA_LIMITS = ("perSubject.maxSessions", "perSubject.maxActiveRuns", "perSubject.runsPerMinute")
"""The ``limit`` values of ``SUBJECT_QUOTA_EXCEEDED``: the quota refusal series."""


def _reason_label(reason: str | None) -> str:
    return "missing" if reason is None else reason.replace(" ", "_")


class Metrics:
    registry: CollectorRegistry
    # What ended or was refused, counted as it happens (``run_ended``, ``error_answered``, ...).
    provider_calls: Counter
    runs: Counter
    errors: Counter
    run_defects: Counter
    subject_quota_refusals: Counter
    auth_refusals: Counter
    # Live state, read at every scrape (``watch``), or set by its owner.
    sessions_stored: Gauge
    active_runs: Gauge
    run_slots_in_use: Gauge
    runs_waiting: Gauge
    waiting_places: Gauge
    session_timers: Gauge
    run_event_bytes: Gauge
    runs_retained: Gauge
    asyncio_tasks: Gauge
    open_connections: Gauge
    # Histograms (``model_call_ended``, ``run_slot_waited``).
    model_call_duration: _Histogram
    model_call_first_output: _Histogram
    model_call_tokens: _Histogram
    run_slot_wait: _Histogram
    _slot_acquired: _Bins
    _slot_cancelled: _Bins

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self._children: dict[tuple[int, tuple[str, ...]], Counter] = {}
        self._calls: dict[tuple[str, str], _CallSeries] = {}
        # Declared in the order the scrape lists them.
        self._declare_run_outcomes()
        self.sessions_stored = self._gauge("agentic_driver_sessions_stored", "Sessions held in the store.")
        self._declare_refusals()
        self._declare_live_state()
        self._declare_model_calls()
        self._declare_run_slot_wait()

    def _counter(self, name: str, documentation: str, *, labels: tuple[str, ...] = ()) -> Counter:
        return Counter(name, documentation, labels, registry=self.registry)

    def _gauge(self, name: str, documentation: str, *, labels: tuple[str, ...] = ()) -> Gauge:
        return Gauge(name, documentation, labels, registry=self.registry)

    def _declare_run_outcomes(self) -> None:
        self.provider_calls = self._counter(
            "agentic_driver_provider_calls",
            "Turns that called the model, by provider instance and outcome (completed, failed, cancelled, timeout).",
            labels=("provider", "outcome"),
        )
        self.runs = self._counter(
            "agentic_driver_runs",
            "Runs that ended, by outcome (completed, failed, cancelled, timeout).",
            labels=("outcome",),
        )

    def _declare_refusals(self) -> None:
        """Error answers: by code, the host's own defects, and the quota and authentication refusals."""
        self.errors = self._counter("agentic_driver_errors", "Error responses, by error code.", labels=("code",))
        self.run_defects = self._counter(
            "agentic_driver_run_defects",
            "Runs that ended in INTERNAL_ERROR, a defect of the host (logged with its traceback), however the run "
            "was answered: a response, a streamed run.failed event or a session turn's interruption.",
        )
        self.subject_quota_refusals = self._counter(
            "agentic_driver_subject_quota_refusals",
            "Requests refused with SUBJECT_QUOTA_EXCEEDED, by the limit hit (perSubject.maxSessions, "
            "perSubject.maxActiveRuns, perSubject.runsPerMinute); no subject label, so the series stay three.",
            labels=("limit",),
        )
        for limit in QUOTA_LIMITS:
            self.subject_quota_refusals.labels(limit)
        self.auth_refusals = self._counter(
            "agentic_driver_auth_refusals",
            "Requests refused with UNAUTHENTICATED, by reason: missing (no bearer token), or the reason class the "
            "401's WWW-Authenticate names, spaces as underscores (unknown_token, expired, wrong_audience, ...).",
            labels=("reason",),
        )

    def _declare_live_state(self) -> None:
        """The gauges ``watch`` binds to the host's state, then the event loop's tasks and the open connections."""
        self.active_runs = self._gauge(
            "agentic_driver_active_runs",
            "Runs that have not ended: waiting for a run slot, running, or paused for the application.",
        )
        self.run_slots_in_use = self._gauge(
            "agentic_driver_run_slots_in_use", "Run slots held by model calls in flight."
        )
        self.runs_waiting = self._gauge("agentic_driver_runs_waiting", "Runs waiting in line for a run slot.")
        self.waiting_places = self._gauge(
            "agentic_driver_waiting_places_in_use",
            "Active runs that may pause for the application (they offer functions), bounded by maxWaitingRuns.",
        )
        self.session_timers = self._gauge("agentic_driver_session_timers", "Pending session expiry timers.")
        self.run_event_bytes = self._gauge(
            "agentic_driver_run_event_bytes",
            "Bytes of run events buffered for rejoining, active and retained runs together (maxRunEventBytes each).",
        )
        self.runs_retained = self._gauge(
            "agentic_driver_runs_retained",
            "Ended runs still readable by getRun and streamRunEvents (runs.retentionMs, runs.maxEntries).",
        )
        self.asyncio_tasks = self._gauge("agentic_driver_asyncio_tasks", "Tasks alive in the host's event loop.")
        self.asyncio_tasks.set_function(_tasks)
        self.open_connections = self._gauge(
            "agentic_driver_open_connections",
            "HTTP connections open to the host (reported when the host serves HTTP itself).",
        )

    def _declare_model_calls(self) -> None:
        """The GenAI client histograms (``GEN_AI_METRICS``); ``_CallSeries`` binds their children."""
        self.model_call_duration = _Histogram(
            "agentic_driver_model_call_duration_seconds",
            "Model calls (one provider step, retries included) by provider instance, requested model and outcome "
            "(completed, failed, cancelled, timeout): gen_ai.client.operation.duration.",
            ["provider", "model", "outcome"],
            DURATION_BUCKETS,
            self.registry,
        )
        self.model_call_first_output = _Histogram(
            "agentic_driver_model_call_time_to_first_output_seconds",
            "Time from a streamed model call's start to its first text delta or tool call, by provider instance "
            "and requested model: gen_ai.client.operation.time_to_first_chunk.",
            ["provider", "model"],
            DURATION_BUCKETS,
            self.registry,
        )
        self.model_call_tokens = _Histogram(
            "agentic_driver_model_call_tokens",
            "Tokens per model call that reported usage, by provider instance, requested model and type (input, "
            "output; cached_input, cache_write and reasoning are parts of them, observed when not zero): "
            "gen_ai.client.token.usage.",
            ["provider", "model", "type"],
            TOKEN_BUCKETS,
            self.registry,
        )

    def _declare_run_slot_wait(self) -> None:
        self.run_slot_wait = _Histogram(
            "agentic_driver_run_slot_wait_seconds",
            "Time a run waited for a run slot (limits.maxConcurrentRuns) before a model call, by outcome "
            "(acquired, cancelled while waiting).",
            ["outcome"],
            SLOT_WAIT_BUCKETS,
            self.registry,
        )
        self._slot_acquired = self.run_slot_wait.labels("acquired")
        self._slot_cancelled = self.run_slot_wait.labels("cancelled")

    def snapshot_restored(self, sessions: int, idempotency_keys: int, dropped: Mapping[str, int]) -> None:
        """What the host took back from its restart snapshot at start (set once)."""
        restored = self._gauge(
            "agentic_driver_snapshot_restored",
            "What the host restored from its restart snapshot at start, by kind (sessions, idempotency_keys).",
            labels=("kind",),
        )
        restored.labels("sessions").set(sessions)
        restored.labels("idempotency_keys").set(idempotency_keys)
        gauge = self._gauge(
            "agentic_driver_snapshot_dropped_sessions",
            "Sessions of the restart snapshot not restored at start, by reason.",
            labels=("reason",),
        )
        for reason, count in dropped.items():
            gauge.labels(reason).set(count)

    def run_ended(self, outcome: str, provider: str | None) -> None:
        """Count a run's end, and its provider call when model work started (``provider`` set)."""
        self._child(self.runs, (outcome,)).inc()
        if provider is not None:
            self._child(self.provider_calls, (provider, outcome)).inc()

    def error_answered(self, code: str) -> None:
        self._child(self.errors, (code,)).inc()

    def subject_quota_refused(self, limit: str) -> None:
        self._child(self.subject_quota_refusals, (limit,)).inc()

    def auth_refused(self, reason: str | None) -> None:
        """A request was refused as unauthenticated: ``reason`` is the token's rejection class, ``None`` when no
        bearer token was presented."""
        self._child(self.auth_refusals, (_reason_label(reason),)).inc()

    def declare_auth_reasons(self, reasons: Iterable[str]) -> None:
        """Create the refusal series of every reason class now (at zero), so they are scraped from the start."""
        for reason in (None, *reasons):
            self._child(self.auth_refusals, (_reason_label(reason),))

    def declare_models(self, served: Iterable[tuple[_Instance, str]]) -> None:
        """Create the model call series of every configured (instance, model) now, so they are scraped from the
        start (at zero) and their number is fixed by the host JSON."""
        for provider, model in served:
            self._call_series(provider, model)

    def model_call_ended(
        self,
        provider: _Instance,
        model: str,
        outcome: str,
        started: float,
        first_output: float | None,
        usage_before: _Tokens,
        usage_after: _Tokens,
    ) -> None:
        """Observe one model call: ``started`` and ``first_output`` are ``time.perf_counter()`` readings (the
        latter None without output); the call reported usage when ``usage_after`` is not ``usage_before``."""
        series = self._calls.get((provider.id, model))
        if series is None:
            series = self._call_series(provider, model)
        series.duration[outcome].observe(time.perf_counter() - started)
        if first_output is not None and series.first_output is not None:
            series.first_output.observe(first_output - started)
        if usage_after is usage_before:
            return
        series.input.observe(usage_after.input_tokens - usage_before.input_tokens)
        series.output.observe(usage_after.output_tokens - usage_before.output_tokens)
        cached = usage_after.cached_input_tokens - usage_before.cached_input_tokens
        if cached:
            series.cached_input.observe(cached)
        written = usage_after.cache_write_tokens - usage_before.cache_write_tokens
        if written:
            series.cache_write.observe(written)
        reasoning = usage_after.reasoning_tokens - usage_before.reasoning_tokens
        if reasoning:
            series.reasoning.observe(reasoning)

    def _call_series(self, provider: _Instance, model: str) -> _CallSeries:
        series = self._calls[(provider.id, model)] = _CallSeries(self, provider.id, model, _streams(provider))
        return series

    def run_slot_waited(self, seconds: float, acquired: bool = True) -> None:
        """A run got a run slot after ``seconds`` in line (0 when one was free), or was cancelled in line."""
        (self._slot_acquired if acquired else self._slot_cancelled).observe(seconds)

    def _child(self, counter: Counter, labels: tuple[str, ...]) -> Counter:
        # Counter.labels() validates and takes a lock on every call; a turn needs two, an error one.
        key = (id(counter), labels)
        child = self._children.get(key)
        if child is None:
            child = self._children[key] = counter.labels(*labels)
        return child

    def watch(
        self,
        active_runs: Callable[[], int],
        slots_in_use: Callable[[], int],
        waiting: Callable[[], int],
        session_timers: Callable[[], int],
        waiting_places: Callable[[], int] = lambda: 0,
        run_event_bytes: Callable[[], int] = lambda: 0,
        runs_retained: Callable[[], int] = lambda: 0,
    ) -> None:
        """Read the gauges of live state from these functions at every scrape."""
        self.active_runs.set_function(active_runs)
        self.run_slots_in_use.set_function(slots_in_use)
        self.runs_waiting.set_function(waiting)
        self.session_timers.set_function(session_timers)
        self.waiting_places.set_function(waiting_places)
        self.run_event_bytes.set_function(run_event_bytes)
        self.runs_retained.set_function(runs_retained)

    def render(self) -> bytes:
        return generate_latest(self.registry)
