"""The one small protocol every provider adapter implements.

A turn call receives everything the model should see and yields events; the
turn lifecycle, not the adapter, decides what is stored. Native state travels
as opaque JSON text that the host keeps byte for byte.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal, Protocol, runtime_checkable

__all__ = [
    "Capabilities",
    "ModelRequest",
    "NativeFilter",
    "NativeFiltering",
    "NativeItems",
    "Provider",
    "ProviderFailure",
    "RetryReport",
    "TextDelta",
    "ToolCall",
    "ToolExchange",
    "ToolSpec",
    "TurnEvent",
    "Usage",
    "UsageReport",
    "VisibleMessage",
]


@dataclass(frozen=True, slots=True)
class Capabilities:
    history_continuation: bool
    native_continuation: bool
    streaming: bool
    application_functions: bool
    native_filters: tuple[str, ...] = ("full",)
    """``nativeHistory`` filters the adapter can apply (``filter_native``); ``full`` needs none."""


@dataclass(frozen=True, slots=True)
class VisibleMessage:
    role: Literal["user", "assistant"]
    content: str


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """A function the model may call: the application's own, or a host tool."""

    name: str
    description: str
    parameters: dict[str, Any]


@dataclass(frozen=True, slots=True)
class ToolExchange:
    """One completed call within the current turn: what the model asked and what it got back."""

    call_id: str
    name: str
    arguments: dict[str, Any]
    output: str


@dataclass(frozen=True, slots=True)
class ModelRequest:
    model: str
    input: str
    instructions: str | None = None
    messages: Sequence[VisibleMessage] = ()
    """Earlier visible conversation (the whole history, or in native mode what was imported)."""
    native: Sequence[str] | None = None
    """Native mode: the provider's own earlier items, exactly as it produced them."""
    attachments: Sequence[tuple[str, str, str]] = ()
    """Stateless runs: (name, media type, base64 data)."""
    retrieval: Sequence[tuple[str, str]] = ()
    """Stateless runs: (document id, text)."""
    tools: Sequence[ToolSpec] = ()
    """Functions the model may call this turn."""
    exchange: Sequence[ToolExchange] = ()
    """Calls already answered earlier in this same turn, oldest first."""

    def with_exchange(self, exchange: Sequence[ToolExchange]) -> ModelRequest:
        return replace(self, exchange=tuple(exchange))


@dataclass(frozen=True, slots=True)
class Usage:
    """Token counts normalised across providers: ``input_tokens`` includes cached input,
    ``output_tokens`` includes reasoning; the other fields break those totals down."""

    input_tokens: int = 0
    output_tokens: int = 0
    cached_input_tokens: int = 0
    """Input tokens served from the provider's prompt cache (part of ``input_tokens``)."""
    cache_write_tokens: int = 0
    """Input tokens written to the provider's prompt cache (part of ``input_tokens``)."""
    reasoning_tokens: int = 0
    """Output tokens spent on reasoning (part of ``output_tokens``)."""

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            self.input_tokens + other.input_tokens,
            self.output_tokens + other.output_tokens,
            self.cached_input_tokens + other.cached_input_tokens,
            self.cache_write_tokens + other.cache_write_tokens,
            self.reasoning_tokens + other.reasoning_tokens,
        )


@dataclass(frozen=True, slots=True)
class TextDelta:
    text: str


@dataclass(frozen=True, slots=True)
class ToolCall:
    """The model calls a function; the turn pauses until the call is answered."""

    call_id: str
    name: str
    arguments: dict[str, Any]


@dataclass(frozen=True, slots=True)
class NativeItems:
    """Items the host must keep and replay unchanged in a native session."""

    items: tuple[str, ...] = field(default_factory=tuple)


@dataclass(frozen=True, slots=True)
class UsageReport:
    """What this provider call consumed, and the model that answered as the provider named it."""

    usage: Usage
    model: str | None = None


@dataclass(frozen=True, slots=True)
class RetryReport:
    """An attempt that failed and was retried by the adapter; what it consumed was still billed."""

    usage: Usage = field(default_factory=Usage)


TurnEvent = TextDelta | ToolCall | NativeItems | UsageReport | RetryReport

NativeFilter = Literal["full", "no_reasoning", "no_tool_results", "compact_tool_results"]


class ProviderFailure(Exception):
    """The upstream model failed; the message is safe to show a caller."""


class Provider(Protocol):
    id: str
    kind: str
    models: tuple[str, ...]
    account_id: str | None

    @property
    def capabilities(self) -> Capabilities: ...

    def turn(self, request: ModelRequest, *, native: bool) -> AsyncGenerator[TurnEvent, None]:
        """Run one model step. Model work starts when iteration starts.

        The step ends either with the reply (text deltas, then in native mode the
        turn's native items) or with tool calls; the lifecycle answers those and
        calls again with ``request.exchange`` extended. Usage is reported per step.
        """
        ...


@runtime_checkable
class NativeFiltering(Protocol):
    """An adapter that can filter its own native items (see ``Capabilities.native_filters``)."""

    def filter_native(self, items: Sequence[str], mode: str, max_chars: int) -> tuple[str, ...]:
        """The turn's items as a ``mode`` session keeps them; kept items are never edited unless
        the mode says so (tool results), and signed blocks are dropped whole or kept as they are."""
        ...
