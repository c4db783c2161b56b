"""The one small protocol every provider adapter implements.

A turn call receives everything the model should see and yields events; the
turn lifecycle, not the adapter, decides what is stored. Native state travels
as opaque JSON text that the host keeps byte for byte.

A turn may take several steps (model calls): a step ends with the reply or
with tool calls, and the lifecycle calls again with ``request.exchange``
extended. An adapter yields, per step, ``NativeItems`` with the provider items
that step added: the user message (first step), the results of the calls the
previous step made (later steps), then its own output items (reasoning,
thinking blocks and signatures, text, tool calls), each exactly as the
provider sent it. The lifecycle hands them back on the turn's later steps in
``request.turn_items`` (in either mode, so a tool loop keeps the provider's
private state) and keeps them in the session only in native mode; the next
turn then receives them in ``request.native``.

Failures are ``ProviderFailure``s; the subclasses say which problem code the
caller sees (``PROVIDER_RATE_LIMITED``, ``PROVIDER_OVERLOADED``,
``PROVIDER_AUTH_FAILED``, ``PROVIDER_REJECTED``; else ``PROVIDER_ERROR``).

    ProviderFailure                 PROVIDER_ERROR 502
    ├── RateLimitedFailure          PROVIDER_RATE_LIMITED 429 (Retry-After when known)
    ├── OverloadedFailure           PROVIDER_OVERLOADED 503 (Retry-After when known)
    ├── AuthFailure                 PROVIDER_AUTH_FAILED 502
    └── RejectedFailure             PROVIDER_REJECTED 502
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, Literal, Protocol, runtime_checkable

from ..errors import (
    DriverError,
    ProviderAuthFailed,
    ProviderError,
    ProviderOverloaded,
    ProviderRateLimited,
    ProviderRejected,
)

__all__ = [
    "IMAGE_MEDIA_TYPES",
    "PDF_MEDIA_TYPE",
    "TEXT_MEDIA_TYPES",
    "AuthFailure",
    "Capabilities",
    "ModelRequest",
    "NativeFilter",
    "NativeFiltering",
    "NativeItems",
    "OverloadedFailure",
    "Provider",
    "ProviderFailure",
    "RateLimitedFailure",
    "RejectedFailure",
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


TEXT_MEDIA_TYPES = ("text/*", "application/json", "application/xml")
"""Attachments every adapter sends, decoded, as text beside the input."""
IMAGE_MEDIA_TYPES = ("image/png", "image/jpeg", "image/webp", "image/gif")
PDF_MEDIA_TYPE = "application/pdf"


@dataclass(frozen=True, slots=True)
class Capabilities:
    history_continuation: bool
    native_continuation: bool
    streaming: bool
    application_functions: bool
    native_filters: tuple[str, ...] = ("full",)
    """``nativeHistory`` filters the adapter can apply (``filter_native``); ``full`` needs none."""
    fixed_native_prefix: bool = False
    """Native sessions need a byte-identical request prefix (instructions and tools) on every turn."""
    attachment_media_types: tuple[str, ...] = TEXT_MEDIA_TYPES
    """What a stateless run may attach (media types, or ranges such as ``text/*``); the host refuses any other."""


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
    turn_items: Sequence[str] = ()
    """The ``NativeItems`` this turn's earlier steps yielded, in order (either mode)."""

    def with_exchange(self, exchange: Sequence[ToolExchange], turn_items: Sequence[str] = ()) -> ModelRequest:
        if not exchange and not turn_items and not self.exchange and not self.turn_items:
            return self  # a turn's first call: nothing to add (a copy per turn would be waste)
        return replace(self, exchange=tuple(exchange), turn_items=tuple(turn_items))


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
    """The upstream model failed; the message is safe to show a caller (no secret in it).

    ``retryable`` failures may be retried before the step produced any output;
    ``retry_after_seconds`` is the provider's own advice when it gave one.
    """

    error_class: ClassVar[type[DriverError]] = ProviderError

    def __init__(self, message: str, *, retryable: bool = False, retry_after_seconds: int | None = None) -> None:
        super().__init__(message)
        self.retryable = retryable
        self.retry_after_seconds = retry_after_seconds

    def driver_error(self, detail: str) -> DriverError:
        """The catalogued error a caller sees for this failure."""
        return self.error_class(detail, retry_after_seconds=self.retry_after_seconds)


class RateLimitedFailure(ProviderFailure):
    """Rate or quota limits (HTTP 429); a spend or quota limit is never retryable."""

    error_class = ProviderRateLimited


class OverloadedFailure(ProviderFailure):
    """The provider is overloaded or unavailable (HTTP 503, Anthropic's 529)."""

    error_class = ProviderOverloaded


class AuthFailure(ProviderFailure):
    """The provider refused the configured credentials (HTTP 401/403)."""

    error_class = ProviderAuthFailed


class RejectedFailure(ProviderFailure):
    """The provider refused the request itself (HTTP 400 and kin), e.g. a tampered signature."""

    error_class = ProviderRejected


class Provider(Protocol):
    id: str
    kind: str
    models: tuple[str, ...]
    account_id: str | None

    @property
    def capabilities(self) -> Capabilities: ...

    def turn(self, request: ModelRequest, *, native: bool) -> AsyncGenerator[TurnEvent, None]:
        """Run one model step. Model work starts when iteration starts.

        The step ends either with the reply (text deltas, then the step's native
        items) or with tool calls; the lifecycle answers those and calls again
        with ``request.exchange`` and ``request.turn_items`` extended. Usage is
        reported per step. Failures raise ``ProviderFailure``.
        """
        ...


@runtime_checkable
class HoldsConnections(Protocol):
    """An adapter with connections to close when the driver is done (the network adapters' pools)."""

    async def aclose(self) -> None: ...


@runtime_checkable
class NativeFiltering(Protocol):
    """An adapter that can filter its own native items (see ``Capabilities.native_filters``)."""

    def filter_native(self, items: Sequence[str], mode: str, max_chars: int) -> tuple[str, ...]:
        """The turn's items as a ``mode`` session keeps them; kept items are never edited unless
        the mode says so (tool results), and signed blocks are dropped whole or kept as they are."""
        ...
