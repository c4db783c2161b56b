"""Host JSON ``providers[]``: one block per provider kind, the echo provider's settings and prices."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, field_validator

from .common import _Closed


class EchoSettings(_Closed):
    native: bool = True
    """Whether the instance can keep native sessions (``false`` exercises UNSUPPORTED_CONTINUATION)."""
    latencyMs: Annotated[int, Field(ge=0)] = 0
    """Simulated model latency before every reply."""
    fixedNativePrefix: bool = False
    """Behave like a provider whose native request prefix must stay byte-identical (as Anthropic's):
    a native session's later turn with different tools is SESSION_PREFIX_CHANGED."""


class PriceConfig(_Closed):
    """One model's prices, per million tokens. Without prices, costs are null (never a guess)."""

    inputPerMillion: Annotated[float, Field(ge=0)]
    """Input tokens."""
    outputPerMillion: Annotated[float, Field(ge=0)]
    """Output tokens (reasoning included)."""
    cachedInputPerMillion: Annotated[float, Field(ge=0)] | None = None
    """Cached input tokens; absent: the input price."""
    cacheWritePerMillion: Annotated[float, Field(ge=0)] | None = None
    """Cache writes; absent: the input price."""


class EchoProviderConfig(_Closed):
    id: Annotated[str, Field(min_length=1)]
    """What requests name as ``provider``."""
    kind: Literal["echo"]
    """The adapter (see docs/providers.md)."""
    accountId: Annotated[str, Field(min_length=1)] | None = None
    """The stable, opaque account the instance is bound to (never inferred); sessions require one."""
    models: Annotated[list[Annotated[str, Field(min_length=1)]], Field(min_length=1)] = ["echo-1"]
    """The models the instance serves."""
    settings: EchoSettings = EchoSettings()
    """The echo adapter's own behaviour."""
    prices: dict[str, PriceConfig] = {}
    """Per-model prices; a model without one has null cost."""


class _NetworkProvider(_Closed):
    """What every network adapter shares: where, which key, how to retry."""

    id: Annotated[str, Field(min_length=1)]
    """What requests name as ``provider``."""
    accountId: Annotated[str, Field(min_length=1)] | None = None
    """The stable, opaque account the instance is bound to (never inferred); sessions require one."""
    models: Annotated[list[Annotated[str, Field(min_length=1)]], Field(min_length=1)]
    """The models the instance serves."""
    apiKeyEnv: Annotated[str, Field(min_length=1)] | None = None
    """The name of the environment variable that holds the API key (the key itself never goes in host JSON)."""
    stream: bool = True
    """Call the provider's streaming endpoint; ``false`` calls the non-streaming one (the host streams either way)."""
    maxOutputTokens: Annotated[int, Field(ge=1)] | None = None
    """The most output tokens one model call may produce (the provider's own default when absent)."""
    temperature: Annotated[float, Field(ge=0)] | None = None
    """Sampling temperature (the provider's own default when absent)."""
    extraBody: dict[str, Any] = {}
    """Merged into every request body, e.g. ``{"reasoning": {"effort": "low"}}``; never holds a secret."""
    timeoutMs: Annotated[int, Field(ge=1)] = 600_000
    """The longest wait of one upstream request for the next bytes of its answer (and, unless
    ``connectTimeoutMs`` is set, for a connection)."""
    connectTimeoutMs: Annotated[int, Field(ge=1)] | None = None
    """The longest wait for a new connection to the provider (TCP and TLS) or a free one of the instance's
    pool (``timeoutMs`` when absent); a connection that times out is retried like a refused one."""
    keepAliveMs: Annotated[int, Field(ge=0)] = 4_000
    """How long an idle connection of the instance's pool is kept for the next model call (0: none is kept).
    The default stays below the 5 s after which uvicorn-based servers (vLLM, llama-cpp-python, LiteLLM) and
    the providers' own SDKs let one go; raise it for a provider that keeps idle connections longer, so that a
    conversation's pauses do not cost a new connection and TLS handshake."""
    maxRetries: Annotated[int, Field(ge=0, le=10)] = 2
    """Retries of a retryable failure (rate limit, overload, 5xx, connection) before any output; never for quota."""
    retryBaseMs: Annotated[int, Field(ge=0)] = 500
    """Backoff before the first retry, doubling after each; a provider's Retry-After takes precedence."""
    maxRetryWaitMs: Annotated[int, Field(ge=0)] = 30_000
    """A provider asking to wait longer than this is not retried; the caller gets its Retry-After."""
    prices: dict[str, PriceConfig] = {}
    """Per-model prices; a model without one has null cost."""


class OpenAIResponsesProviderConfig(_NetworkProvider):
    kind: Literal["openai-responses"]
    """The adapter (see docs/providers.md)."""
    baseUrl: Annotated[str, Field(pattern=r"^https?://")] = "https://api.openai.com"
    """``POST {baseUrl}/v1/responses``."""
    maxOutputTokens: Annotated[int, Field(ge=16)] | None = None
    """``max_output_tokens``; the Responses API refuses less than 16."""
    temperature: Annotated[float, Field(ge=0, le=2)] | None = None
    """Sampling temperature; the API takes 0 to 2."""


class AnthropicProviderConfig(_NetworkProvider):
    kind: Literal["anthropic"]
    """The adapter (see docs/providers.md)."""
    baseUrl: Annotated[str, Field(pattern=r"^https?://")] = "https://api.anthropic.com"
    """``POST {baseUrl}/v1/messages``."""
    anthropicVersion: Annotated[str, Field(min_length=1)] = "2023-06-01"
    """The ``anthropic-version`` header."""
    maxOutputTokens: Annotated[int, Field(ge=1)] | None = 4096
    """``max_tokens``, which the Messages API requires."""
    temperature: Annotated[float, Field(ge=0, le=1)] | None = None
    """The Messages API takes 0 to 1."""


class GeminiProviderConfig(_NetworkProvider):
    kind: Literal["gemini"]
    """The adapter (see docs/providers.md)."""
    baseUrl: Annotated[str, Field(pattern=r"^https?://")] = "https://generativelanguage.googleapis.com"
    """``POST {baseUrl}/{apiVersion}/models/{model}:generateContent`` (or ``:streamGenerateContent?alt=sse``)."""
    apiVersion: Literal["v1beta"] = "v1beta"
    """Only ``v1beta``: ``v1`` has no ``systemInstruction``, ``tools``, function calls or thought signatures."""
    temperature: Annotated[float, Field(ge=0, le=2)] | None = None
    """Sampling temperature; the API takes 0 to 2."""

    @field_validator("apiVersion", mode="before")
    @classmethod
    def _known_version(cls, value: Any) -> Any:
        if value == "v1":
            raise ValueError(
                "'v1' is not supported: Gemini's v1 API has no systemInstruction, tools, "
                "functionCall/functionResponse or thought signatures, which instructions, functions and native "
                "sessions need; use 'v1beta' (the default)"
            )
        return value


class OpenAIChatProviderConfig(_NetworkProvider):
    kind: Literal["openai-chat"]
    """The adapter (see docs/providers.md)."""
    baseUrl: Annotated[str, Field(pattern=r"^https?://")] = "https://api.openai.com/v1"
    """``POST {baseUrl}/chat/completions``: OpenAI, xAI, Ollama (``http://127.0.0.1:11434/v1``), vLLM, llama.cpp."""
    functions: bool = True
    """Whether the server takes ``tools`` (some local servers do not); discovery advertises it."""
    streamUsage: bool = True
    """Ask for usage in the stream (``stream_options.include_usage``); turn off for servers that reject it."""
    maxOutputTokensField: Literal["max_completion_tokens", "max_tokens"] = "max_completion_tokens"
    """The body member ``maxOutputTokens`` goes in: OpenAI's current one (its reasoning models refuse
    ``max_tokens``), or ``max_tokens`` for llama.cpp, vLLM, Ollama and other servers that only know that."""


class CliProviderConfig(_Closed):
    id: Annotated[str, Field(min_length=1)]
    """What requests name as ``provider``."""
    kind: Literal["cli"]
    """The adapter (see docs/providers.md)."""
    accountId: Annotated[str, Field(min_length=1)] | None = None
    """The stable, opaque account the instance is bound to (never inferred); sessions require one."""
    models: Annotated[list[Annotated[str, Field(min_length=1)]], Field(min_length=1)]
    """The models the instance serves (``{model}`` in ``command``)."""
    command: Annotated[list[Annotated[str, Field(min_length=1)]], Field(min_length=1)]
    """The program and its arguments (no shell); ``{model}`` in an argument becomes the run's model."""
    stream: bool = True
    """Pass stdout on as it arrives; ``false`` waits for the whole reply."""
    timeoutMs: Annotated[int, Field(ge=1)] = 600_000
    """The longest one call may run before it is killed."""
    prices: dict[str, PriceConfig] = {}
    """Per-model prices; a model without one has null cost."""


ProviderConfig = Annotated[
    EchoProviderConfig
    | OpenAIResponsesProviderConfig
    | AnthropicProviderConfig
    | GeminiProviderConfig
    | OpenAIChatProviderConfig
    | CliProviderConfig,
    Field(discriminator="kind"),
]
"""One configured provider instance; ``kind`` picks the adapter."""
PROVIDER_KINDS = ("echo", "openai-responses", "anthropic", "gemini", "openai-chat", "cli")
