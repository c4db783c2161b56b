"""Latency summaries and ratios: small, exact, and tested (``tests/test_harness.py``)."""

from __future__ import annotations

import math
from collections.abc import Sequence

__all__ = ["percentile", "ratio", "summarize"]

PERCENTILES = (50, 90, 99)


def percentile(sorted_values: Sequence[float], p: float) -> float:
    """The p-th percentile of already sorted values, interpolating linearly between closest ranks.

    The same definition as numpy's default (``method="linear"``): rank ``p/100 * (n - 1)``.
    """
    if not sorted_values:
        return math.nan
    if not 0 <= p <= 100:
        raise ValueError(f"percentile {p} is outside 0..100")
    rank = p / 100 * (len(sorted_values) - 1)
    low = math.floor(rank)
    high = min(low + 1, len(sorted_values) - 1)
    fraction = rank - low
    return sorted_values[low] + (sorted_values[high] - sorted_values[low]) * fraction


def summarize(latencies_ns: Sequence[int]) -> dict[str, float]:
    """Count, mean and p50/p90/p99/max of latencies given in nanoseconds, reported in milliseconds."""
    values = sorted(latencies_ns)
    if not values:
        return {
            "count": 0,
            "mean_ms": math.nan,
            "p50_ms": math.nan,
            "p90_ms": math.nan,
            "p99_ms": math.nan,
            "max_ms": math.nan,
        }
    summary: dict[str, float] = {"count": len(values), "mean_ms": sum(values) / len(values) / 1e6}
    for p in PERCENTILES:
        summary[f"p{p}_ms"] = percentile(values, p) / 1e6
    summary["max_ms"] = values[-1] / 1e6
    return summary


def ratio(numerator: float | None, denominator: float | None) -> float | None:
    """numerator / denominator, or None when either is missing, not finite, or the denominator is not positive."""
    if numerator is None or denominator is None:
        return None
    if not (math.isfinite(numerator) and math.isfinite(denominator)) or denominator <= 0:
        return None
    return numerator / denominator
