"""Shared helper of the embedded Driver API tests (``test_driver_*.py``): model calls counted by the
driver's metrics.
"""

from __future__ import annotations

from agentic_driver import Driver


def provider_calls(driver: Driver, outcome: str = "completed") -> float:
    value = driver.metrics.registry.get_sample_value(
        "agentic_driver_provider_calls_total", {"provider": "echo", "outcome": outcome}
    )
    return value or 0.0
