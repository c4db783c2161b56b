"""Per-model prices from host config -> the cost of a run (never a guess: no price, no cost)."""

from __future__ import annotations

from dataclasses import dataclass

from .providers.base import Usage

__all__ = ["Prices"]


@dataclass(frozen=True, slots=True)
class Prices:
    """US dollars (or any one currency) per million tokens."""

    input_per_million: float
    output_per_million: float
    cached_input_per_million: float | None = None
    """Defaults to the input price."""
    cache_write_per_million: float | None = None
    """Defaults to the input price."""

    def cost(self, usage: Usage) -> float:
        cached = self.input_per_million if self.cached_input_per_million is None else self.cached_input_per_million
        writes = self.input_per_million if self.cache_write_per_million is None else self.cache_write_per_million
        plain_input = max(usage.input_tokens - usage.cached_input_tokens - usage.cache_write_tokens, 0)
        total = (
            plain_input * self.input_per_million
            + usage.cached_input_tokens * cached
            + usage.cache_write_tokens * writes
            + usage.output_tokens * self.output_per_million
        )
        return total / 1_000_000
