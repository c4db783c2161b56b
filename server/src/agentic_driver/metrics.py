"""Prometheus metrics of one driver (its own registry, so several drivers never collide)."""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Gauge, generate_latest

__all__ = ["Metrics"]


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
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

    def render(self) -> bytes:
        return generate_latest(self.registry)
