"""Prometheus metrics of one driver (its own registry, so several drivers never collide)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping

from prometheus_client import CollectorRegistry, Counter, Gauge, generate_latest

__all__ = ["Metrics"]


def _tasks() -> int:
    try:
        return len(asyncio.all_tasks())
    except RuntimeError:  # rendered outside the host's event loop
        return 0


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self._children: dict[tuple[int, tuple[str, ...]], Counter] = {}
        self.provider_calls = Counter(
            "agentic_driver_provider_calls",
            "Turns that called the model, by provider instance and outcome (completed, failed, cancelled, timeout).",
            ["provider", "outcome"],
            registry=self.registry,
        )
        self.runs = Counter(
            "agentic_driver_runs",
            "Runs that ended, by outcome (completed, failed, cancelled, timeout).",
            ["outcome"],
            registry=self.registry,
        )
        self.sessions_stored = Gauge(
            "agentic_driver_sessions_stored", "Sessions held in the store.", registry=self.registry
        )
        self.errors = Counter(
            "agentic_driver_errors", "Error responses, by error code.", ["code"], registry=self.registry
        )

        self.active_runs = Gauge(
            "agentic_driver_active_runs",
            "Runs that have not ended: waiting for a run slot, running, or paused for the application.",
            registry=self.registry,
        )
        self.run_slots_in_use = Gauge(
            "agentic_driver_run_slots_in_use", "Run slots held by model calls in flight.", registry=self.registry
        )
        self.runs_waiting = Gauge(
            "agentic_driver_runs_waiting", "Runs waiting in line for a run slot.", registry=self.registry
        )
        self.waiting_places = Gauge(
            "agentic_driver_waiting_places_in_use",
            "Active runs that may pause for the application (they offer functions), bounded by maxWaitingRuns.",
            registry=self.registry,
        )
        self.session_timers = Gauge(
            "agentic_driver_session_timers", "Pending session expiry timers.", registry=self.registry
        )
        self.run_event_bytes = Gauge(
            "agentic_driver_run_event_bytes",
            "Bytes of run events buffered for rejoining, active and retained runs together (maxRunEventBytes each).",
            registry=self.registry,
        )
        self.runs_retained = Gauge(
            "agentic_driver_runs_retained",
            "Ended runs still readable by getRun and streamRunEvents (runs.retentionMs, runs.maxEntries).",
            registry=self.registry,
        )
        self.asyncio_tasks = Gauge(
            "agentic_driver_asyncio_tasks", "Tasks alive in the host's event loop.", registry=self.registry
        )
        self.asyncio_tasks.set_function(_tasks)
        self.open_connections = Gauge(
            "agentic_driver_open_connections",
            "HTTP connections open to the host (reported when the host serves HTTP itself).",
            registry=self.registry,
        )

    def snapshot_restored(self, sessions: int, idempotency_keys: int, dropped: Mapping[str, int]) -> None:
        """What the host took back from its restart snapshot at start (set once)."""
        restored = Gauge(
            "agentic_driver_snapshot_restored",
            "What the host restored from its restart snapshot at start, by kind (sessions, idempotency_keys).",
            ["kind"],
            registry=self.registry,
        )
        restored.labels("sessions").set(sessions)
        restored.labels("idempotency_keys").set(idempotency_keys)
        gauge = Gauge(
            "agentic_driver_snapshot_dropped_sessions",
            "Sessions of the restart snapshot not restored at start, by reason.",
            ["reason"],
            registry=self.registry,
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
