"""Host JSON -> validated configuration.

The host reads one JSON document (docs/host-config.md, whose field reference is rendered from the
attribute docstrings below). Every
problem is reported with its JSON path, for example
``providers[1].kind: unknown provider kind 'ecco'``. Session bounds may only
tighten the contract's defaults.
"""

from __future__ import annotations

import ipaddress
import json
import os
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError, field_validator, model_validator

from .ids import HOST_ID_PATTERN, is_host_id
from .jsontext import RepeatedMember, unique_members

__all__ = [
    "DEFAULT_MAX_ENTRIES",
    "DEFAULT_MAX_MESSAGES",
    "DEFAULT_MAX_NATIVE_MESSAGES",
    "DEFAULT_MAX_RECORD_BYTES",
    "DEFAULT_MAX_RUN_EVENT_BYTES",
    "HOST_ID_ENV",
    "JWT_ALGORITHMS",
    "AnthropicProviderConfig",
    "AuthConfig",
    "CliProviderConfig",
    "ConfigError",
    "EchoProviderConfig",
    "GeminiProviderConfig",
    "HostConfig",
    "HostToolConfig",
    "IdempotencyConfig",
    "JwtIssuerConfig",
    "LimitsConfig",
    "OpenAIChatProviderConfig",
    "OpenAIResponsesProviderConfig",
    "PriceConfig",
    "ProviderConfig",
    "QualificationConfig",
    "RunsConfig",
    "SessionsConfig",
    "SnapshotConfig",
    "TlsConfig",
    "TokenConfig",
    "embedded_default",
    "load_config",
    "parse_config",
    "with_host_id",
]

DEFAULT_MAX_ENTRIES = 1_000
DEFAULT_MAX_MESSAGES = 100
DEFAULT_MAX_RECORD_BYTES = 1_000_000
DEFAULT_MAX_NATIVE_MESSAGES = 2_048
ALL_GRANTS = ("create", "read", "continue", "delete")

SessionGrantName = Literal["create", "read", "continue", "delete"]


class ConfigError(ValueError):
    """A host configuration that cannot be used; ``problems`` lists each one with its path."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("invalid host configuration:\n  " + "\n  ".join(problems))
        self.problems = problems


class _Closed(BaseModel):
    # Attribute docstrings describe each field; generator/docs_reference.py renders docs/host-config.md from
    # them. They are not field descriptions at run time: pydantic would parse this module's source for them.
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


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


class SnapshotConfig(_Closed):
    """Sessions survive a planned restart: on a clean drain the host writes every session to ``path``, encrypted;
    its next start restores them before it reports ready and deletes the file (a crash writes nothing)."""

    path: Annotated[str, Field(min_length=1)]
    """The snapshot file; ``{hostId}`` in it is replaced by the process's host id, so processes that share one host
    JSON keep one file each. Its directory must exist; the file is written mode 0600 by a rename."""
    keyEnv: Annotated[str, Field(pattern=r"^[A-Za-z_][A-Za-z0-9_]*$")]
    """The environment variable holding the AES-256-GCM key: 32 bytes as 64 hex digits or in base64."""


class SessionsConfig(_Closed):
    """The session store; omit the block to disable sessions. The bounds may only tighten the defaults."""

    retentionMs: Annotated[int, Field(ge=1)]
    """Idle retention, counted from creation or the end of the last turn and suspended while a turn is active;
    required, because it is what enables the store."""
    maxEntries: Annotated[int, Field(ge=1, le=DEFAULT_MAX_ENTRIES)] = DEFAULT_MAX_ENTRIES
    """Sessions stored at once (SESSION_STORE_FULL beyond)."""
    maxMessages: Annotated[int, Field(ge=1, le=DEFAULT_MAX_MESSAGES)] = DEFAULT_MAX_MESSAGES
    """Visible messages per session (SESSION_LIMIT_EXCEEDED beyond)."""
    maxRecordBytes: Annotated[int, Field(ge=1, le=DEFAULT_MAX_RECORD_BYTES)] = DEFAULT_MAX_RECORD_BYTES
    """Bytes one stored session may take (SESSION_LIMIT_EXCEEDED beyond)."""
    maxNativeMessages: Annotated[int, Field(ge=1, le=DEFAULT_MAX_NATIVE_MESSAGES)] = DEFAULT_MAX_NATIVE_MESSAGES
    """Provider items a native session may keep (SESSION_LIMIT_EXCEEDED beyond)."""
    compactToolResultsMaxChars: Annotated[int, Field(ge=1)] = 500
    """The most of each tool result a ``compact_tool_results`` native session keeps, its ellipsis included."""
    snapshot: SnapshotConfig | None = None
    """Opt-in: keep sessions across a planned restart (docs/operating.md, Restarting without losing sessions)."""


DEFAULT_MAX_ATTACHMENT_BYTES = 5 * 1024 * 1024
DEFAULT_MAX_RUN_EVENT_BYTES = 1024 * 1024
DEFAULT_RUN_RETENTION_MS = 5 * 60 * 1000
DEFAULT_MAX_ENDED_RUNS = 1_000
DEFAULT_MAX_RUN_ATTACHMENT_BYTES = 20 * 1024 * 1024


class PerSubjectConfig(_Closed):
    """Bounds on what one subject (a token's principal, its ``subjectPrefix`` included) may hold on this host
    process at once; each absent bound is unbounded. They are per process: behind a proxy of N hosts a subject
    may hold up to N times each. A refusal is ``SUBJECT_QUOTA_EXCEEDED`` 429, before any model work."""

    maxSessions: Annotated[int, Field(ge=1)] | None = None
    """Stored sessions a subject may hold (created, forked or imported); ``limit: perSubject.maxSessions``."""
    maxActiveRuns: Annotated[int, Field(ge=1)] | None = None
    """Runs of a subject active at once, those paused for function results included;
    ``limit: perSubject.maxActiveRuns``."""
    runsPerMinute: Annotated[int, Field(ge=1)] | None = None
    """Runs a subject may start in any 60 seconds (a sliding window; an idempotent replay starts none);
    ``limit: perSubject.runsPerMinute``, with ``Retry-After`` until the oldest leaves the window."""


class LimitsConfig(_Closed):
    maxConcurrentRuns: Annotated[int, Field(ge=1)] = 64
    """Run slots: model calls in flight at once; further runs wait (and their sessions are busy)."""
    maxQueuedRuns: Annotated[int, Field(ge=0)] = 256
    """Runs that may wait for a slot; beyond this a run is refused with HOST_BUSY."""
    maxWaitingRuns: Annotated[int, Field(ge=0)] = 256
    """Runs that may wait for the application at once. A run that offers functions (its own, or host tools
    that need approval) holds a place from admission until it ends, so at most this many runs are ever paused
    for function results or approvals; beyond, such a run is refused with HOST_BUSY (limit maxWaitingRuns).
    Separate from session retention, which stays suspended while a run waits."""
    maxBodyBytes: Annotated[int, Field(ge=1024)] = 4 * 1024 * 1024
    """The largest request body the host reads."""
    maxAttachmentBytes: Annotated[int, Field(ge=1)] = DEFAULT_MAX_ATTACHMENT_BYTES
    """The largest attachment a stateless run may send, decoded (5 MiB: Anthropic's image limit); beyond it
    ``ATTACHMENT_UNSUPPORTED``. Over HTTP ``maxBodyBytes`` bounds the base64 body first."""
    maxRunAttachmentBytes: Annotated[int, Field(ge=1)] = DEFAULT_MAX_RUN_ATTACHMENT_BYTES
    """All of a stateless run's attachments together, decoded (20 MiB: Gemini's inline request limit); beyond
    it ``ATTACHMENT_UNSUPPORTED``."""
    maxRunEventBytes: Annotated[int, Field(ge=1, le=DEFAULT_MAX_RUN_EVENT_BYTES)] = DEFAULT_MAX_RUN_EVENT_BYTES
    """The most bytes of one run's events kept for rejoining (``streamRunEvents``), counted as what they hold in
    memory; beyond it the oldest are dropped and a ``Last-Event-ID`` before them is RUN_EVENTS_EXPIRED. May only
    tighten the default (1 MiB)."""
    heartbeatMs: Annotated[int, Field(ge=10)] = 15_000
    """How long a stream may stay silent before the host sends an SSE comment."""
    streamStallMs: Annotated[int, Field(ge=100)] = 60_000
    """How long a stream's client may accept no data before the host treats it as disconnected."""
    drainTimeoutMs: Annotated[int, Field(ge=0)] = 30_000
    """On SIGTERM: how long admitted turns may take to finish before they are interrupted."""
    drainReadWindowMs: Annotated[int, Field(ge=0)] = 0
    """On SIGTERM, once admitted turns have ended (or were interrupted at drainTimeoutMs): how long the host
    keeps serving its own sessions' reads, deletes and cancels before it closes, so that clients can read a
    session's history and carry on elsewhere (new work is still SHUTTING_DOWN, /readyz 503). 0: it closes as
    soon as its turns have ended. A second SIGTERM or SIGINT ends the window at once."""
    bodyTimeoutMs: Annotated[int, Field(ge=100)] = 30_000
    """How long a request body may take to arrive (REQUEST_TIMEOUT beyond)."""
    requestHeadTimeoutMs: Annotated[int, Field(ge=100)] = 10_000
    """How long a connection may take to deliver a complete request head (after it opens or after its
    previous response) before the host closes it: idle and trickling connections do not pile up."""
    keepAliveTimeoutMs: Annotated[int, Field(ge=100)] = 5_000
    """How long an idle keep-alive connection stays open between requests."""
    maxHeaderBytes: Annotated[int, Field(ge=1024)] = 65_536
    """The largest request head (request line and headers) the host reads (HEADERS_TOO_LARGE beyond)."""
    maxConnections: Annotated[int, Field(ge=1)] = 1_000
    """Open connections at most; a connection beyond is answered HOST_BUSY (``limit: maxConnections``) and closed."""
    perSubject: PerSubjectConfig = PerSubjectConfig()
    """Opt-in bounds per subject (stored sessions, active runs, runs a minute); none by default."""


class RunsConfig(_Closed):
    """How long ended runs stay readable (``getRun``, ``streamRunEvents``); may only tighten the defaults."""

    retentionMs: Annotated[int, Field(ge=1, le=DEFAULT_RUN_RETENTION_MS)] = DEFAULT_RUN_RETENTION_MS
    """How long a run's state and events stay readable after it ends (5 minutes at most)."""
    maxEntries: Annotated[int, Field(ge=1, le=DEFAULT_MAX_ENDED_RUNS)] = DEFAULT_MAX_ENDED_RUNS
    """Ended runs kept readable at once; beyond, the oldest ended is forgotten first."""


class IdempotencyConfig(_Closed):
    maxKeys: Annotated[int, Field(ge=1)] = 1_000
    """Idempotency keys remembered per subject (the oldest is forgotten first)."""
    ttlMs: Annotated[int, Field(ge=1)] = 24 * 60 * 60 * 1000
    """How long a key is remembered."""


class HostToolConfig(_Closed):
    """A tool the host runs itself, offered to the model on every run."""

    name: Annotated[str, Field(pattern=r"^[A-Za-z0-9_-]{1,64}$")]
    """The name the model calls; a run's own tools may not reuse it (TOOL_NAME_CONFLICT)."""
    handler: Annotated[str, Field(pattern=r"^[A-Za-z_][\w.]*:[A-Za-z_]\w*$")]
    """The async function to call, as ``module:function``, with the model's arguments as keyword arguments."""
    description: str = ""
    """What the tool does, shown to the model."""
    parameters: dict[str, Any] = {"type": "object"}
    """A JSON Schema for the arguments, shown to the model."""
    approval: Literal["required", "never"] = "required"
    """``required`` pauses the run until the application approves or denies each call."""


class TokenConfig(_Closed):
    """A bearer token with exactly one secret (``token``, ``tokenEnv``, ``tokenSha256``), compared in constant time."""

    subject: Annotated[str, Field(min_length=1)]
    """Who the token speaks for: it owns the sessions the token creates."""
    token: Annotated[str, Field(min_length=16)] | None = None
    """The secret itself (fine for local use; prefer ``tokenEnv`` or ``tokenSha256``); no secret is ever logged."""
    tokenEnv: Annotated[str, Field(min_length=1)] | None = None
    """The name of an environment variable that holds the secret."""
    tokenSha256: Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")] | None = None
    """The hex SHA-256 of the secret; the host never sees the secret itself."""
    providers: list[str]
    """Provider instance ids this token may use; ``["*"]`` means every instance."""
    sessions: list[SessionGrantName] = []
    """Session grants: any of create, read, continue, delete."""

    @model_validator(mode="after")
    def _exactly_one_secret(self) -> TokenConfig:
        given = [name for name in ("token", "tokenEnv", "tokenSha256") if getattr(self, name) is not None]
        if len(given) != 1:
            raise ValueError("give exactly one of token, tokenEnv, tokenSha256")
        return self

    def __repr__(self) -> str:  # never show a secret
        return f"TokenConfig(subject={self.subject!r}, providers={self.providers!r}, sessions={self.sessions!r})"

    __str__ = __repr__


JWT_ALGORITHMS = ("RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA")
"""The signature algorithms an access token may use: asymmetric only, so nothing the host holds can sign one."""

JwtAlgorithmName = Literal["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"]


def _asymmetric_algorithm(value: Any) -> Any:
    """Refuse ``none`` and HMAC by name, saying why, before the literal check would only list the accepted ones."""
    if isinstance(value, str) and value not in JWT_ALGORITHMS:
        if value.lower() == "none":
            raise ValueError("'none' is never accepted: an unsigned token proves nothing")
        if value.upper().startswith("HS"):
            raise ValueError(
                f"{value!r} is refused: HMAC verifies with a shared secret, and beside a JWKS that 'secret' would be "
                "a public key anyone can read; only RS*, PS*, ES* and EdDSA are accepted"
            )
        raise ValueError(f"{value!r} is not an accepted algorithm (one of {', '.join(JWT_ALGORITHMS)})")
    return value


def _listed(value: Any) -> Any:
    return [value] if isinstance(value, str) else value


def _is_loopback_host(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class JwtIssuerConfig(_Closed):
    """An identity provider whose JWT access tokens the host accepts (docs/host-config.md, JWT access tokens).

    A token is checked against the entry its ``iss`` names: an algorithm of ``algorithms``, a signature by one of
    the issuer's keys, ``exp`` (required), ``nbf`` and ``iat``, and ``aud``; its claims then give the principal."""

    issuer: Annotated[str, Field(min_length=1)]
    """The ``iss`` the tokens carry, exactly (Keycloak: ``https://HOST/realms/REALM``; Auth0:
    ``https://TENANT.auth0.com/``, with its trailing slash)."""
    audience: Annotated[list[Annotated[str, Field(min_length=1)]], BeforeValidator(_listed), Field(min_length=1)]
    """The audience this host is, or a list of them (a string is a list of one): a token's ``aud`` must name one."""
    jwksUrl: Annotated[str, Field(pattern=r"^https?://")] | None = None
    """Where the issuer publishes its keys (JWKS), over HTTPS (plain HTTP only from a loopback address). Fetched on
    first use, cached for ``jwksCacheSeconds`` and fetched again when a token names a key id it does not hold, at
    most once per ``jwksMinRefetchSeconds``; redirects are not followed."""
    jwksFile: Annotated[str, Field(min_length=1)] | None = None
    """A JWKS file instead of ``jwksUrl``, read at start and again on every reload (SIGHUP)."""
    algorithms: Annotated[
        list[Annotated[JwtAlgorithmName, BeforeValidator(_asymmetric_algorithm)]], Field(min_length=1)
    ]
    """The algorithms the issuer signs with (explicit: a token with any other ``alg`` is refused). Asymmetric only:
    ``none`` and HS256/384/512 are refused here."""
    leewaySeconds: Annotated[int, Field(ge=0, le=300)] = 30
    """Clock skew tolerated on ``exp``, ``nbf`` and ``iat``."""
    subjectClaim: Annotated[str, Field(min_length=1)] = "sub"
    """The claim that names the principal's subject (it owns the sessions the token creates)."""
    subjectPrefix: str = ""
    """Put before every subject from this issuer, e.g. ``"kc:"``, so that two issuers (or a static token) never
    name the same subject and so share its sessions."""
    grantsClaim: Annotated[str, Field(min_length=1)] = "scope"
    """The claim that holds the session grants, as space-separated words or a list of strings:
    ``sessions:create``, ``sessions:read``, ``sessions:continue``, ``sessions:delete`` (other words are ignored)."""
    providersClaim: Annotated[str, Field(min_length=1)] | None = None
    """A claim listing the provider instances the token may use (space-separated or a list), within
    ``providers``; absent: every token of the issuer may use all of ``providers``."""
    providers: list[str]
    """Provider instance ids this issuer's tokens may use; ``["*"]`` means every instance."""
    jwksCacheSeconds: Annotated[int, Field(ge=1)] = 300
    """How long fetched keys are used before they are fetched again: a key the issuer retired verifies new tokens
    that long at most (while the issuer cannot be reached, the keys fetched before stay in use; a token already
    verified is accepted until its ``exp``)."""
    jwksMinRefetchSeconds: Annotated[int, Field(ge=1)] = 30
    """The least time between two fetches of ``jwksUrl``, so that tokens naming unknown key ids cannot have the
    host fetch on every request."""

    @field_validator("jwksUrl")
    @classmethod
    def _https_unless_loopback(cls, value: str | None) -> str | None:
        if value is None:
            return value
        parts = urlsplit(value)
        if not parts.hostname:
            raise ValueError("not a URL with a host")
        if parts.scheme != "https" and not _is_loopback_host(parts.hostname):
            raise ValueError("keys are fetched over HTTPS only (plain HTTP only from a loopback address)")
        return value

    @model_validator(mode="after")
    def _one_key_source(self) -> JwtIssuerConfig:
        if (self.jwksUrl is None) == (self.jwksFile is None):
            raise ValueError("give exactly one of jwksUrl, jwksFile")
        return self


class AuthConfig(_Closed):
    """Bearer tokens besides the static ``tokens``: JWT access tokens from identity providers. ``tokens`` and this
    block are re-read on SIGHUP (``agentic-driver reload``) without a restart."""

    jwt: list[JwtIssuerConfig] = []
    """The issuers whose access tokens are accepted, one entry each, each with its own ``issuer``."""


class TlsConfig(_Closed):
    """How bearer tokens are protected on the wire: the host's own TLS, or a proxy's in front."""

    certFile: Annotated[str, Field(min_length=1)] | None = None
    """PEM certificate chain (server certificate first); with ``keyFile`` the host serves HTTPS (TLS 1.2+)."""
    keyFile: Annotated[str, Field(min_length=1)] | None = None
    """PEM private key of ``certFile`` (unencrypted: protect the file, not the key, with permissions)."""
    terminatedByProxy: bool = False
    """The operator states that a proxy in front terminates TLS, so plain HTTP may be served on a
    non-loopback address (to that proxy only). ``serve --tls-cert``/``--tls-key`` and ``--behind-tls-proxy``
    override this block (docs/operating.md, TLS where tokens travel)."""

    @model_validator(mode="after")
    def _one_way(self) -> TlsConfig:
        if (self.certFile is None) != (self.keyFile is None):
            raise ValueError("give both certFile and keyFile, or neither")
        if self.certFile is not None and self.terminatedByProxy:
            raise ValueError("give certFile/keyFile (the host terminates TLS) or terminatedByProxy, not both")
        return self

    @property
    def direct(self) -> bool:
        """Whether the host itself serves TLS."""
        return self.certFile is not None


class ListenConfig(_Closed):
    """A separate address for ``/metrics`` and ``/healthz`` (the API's then answers ROUTE_NOT_FOUND there)."""

    host: Annotated[str, Field(min_length=1)] = "127.0.0.1"
    """The address to bind."""
    port: Annotated[int, Field(ge=1, le=65535)]
    """The port to bind."""


class MetricsConfig(_Closed):
    """Who may read ``/metrics`` and where: at most one of the three secrets (as for ``tokens[]``), as a bearer."""

    token: Annotated[str, Field(min_length=16)] | None = None
    """A bearer secret ``/metrics`` requires, at least 16 characters (fine for local use; prefer ``tokenEnv`` or
    ``tokenSha256``). An API token does not open ``/metrics``."""
    tokenEnv: Annotated[str, Field(min_length=1)] | None = None
    """The name of an environment variable that holds that secret."""
    tokenSha256: Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")] | None = None
    """The hex SHA-256 of that secret."""
    listen: ListenConfig | None = None
    """Serve ``/metrics`` on this separate address only (and no longer on the API's)."""

    @model_validator(mode="after")
    def _at_most_one_secret(self) -> MetricsConfig:
        given = [name for name in ("token", "tokenEnv", "tokenSha256") if getattr(self, name) is not None]
        if len(given) > 1:
            raise ValueError("give at most one of token, tokenEnv, tokenSha256")
        return self

    @property
    def protected(self) -> bool:
        return self.token is not None or self.tokenEnv is not None or self.tokenSha256 is not None

    def __repr__(self) -> str:  # never show a secret
        return f"MetricsConfig(protected={self.protected}, listen={self.listen!r})"

    __str__ = __repr__


class LoggingConfig(_Closed):
    format: Literal["text", "json"] = "text"
    """``text`` (readable) or ``json`` (one object per line); ``serve --log-format`` overrides it."""


class TracingConfig(_Closed):
    """OpenTelemetry traces over OTLP/HTTP (needs the ``otel`` extra); the ``OTEL_*`` variables override it."""

    endpoint: Annotated[str, Field(pattern=r"^https?://")]
    """The OTLP/HTTP receiver, e.g. ``http://127.0.0.1:4318`` (spans go to its ``/v1/traces``)."""
    serviceName: Annotated[str, Field(min_length=1)] = "agentic-driver"
    """The ``service.name`` resource attribute of every span."""
    captureMessageContent: bool = False
    """Put prompt and completion text on the model call spans (off: only sizes, models and ids)."""
    emitGenAiSystem: bool = False
    """Also set the deprecated ``gen_ai.system`` (the same value as ``gen_ai.provider.name``, which replaced it)
    on the turn and model call spans, for a backend that still reads only the old name. With tracing configured
    by the ``OTEL_*`` variables, add this block for it: those variables still win over its endpoint."""


class QualificationConfig(_Closed):
    """Native continuation only where ``agentic-driver qualify`` passed recently (docs/providers.md, "Qualifying
    live native continuation"). Absent: off, and every instance offers ``native`` as far as its adapter can."""

    providers: Annotated[list[Annotated[str, Field(min_length=1)]], Field(min_length=1)] = ["*"]
    """The instances that need a current record before a native session is created on them; ``["*"]``: every
    network instance (an ``echo`` instance only when named)."""
    recordDir: Annotated[str, Field(min_length=1)] = "qualification"
    """Where records are read (and ``qualify`` writes them): ``{recordDir}/{provider}/{model}.json``, each name
    percent-encoded; a relative path is taken from the host's working directory."""
    maxAgeDays: Annotated[int, Field(ge=1)] = 30
    """How old a passed record may be and still count as current."""


class HostConfig(_Closed):
    hostId: Annotated[str, Field(pattern=HOST_ID_PATTERN)] = "local-host"
    """This process's name: a DNS label (so a StatefulSet pod name works), unique among the hosts behind one
    proxy. Session and run ids name it (``ses_{hostId}.{random}``, ``run_{hostId}.{random}``); discovery and
    every ``SessionInfo`` report it. ``serve --host-id`` or ``AGENTIC_DRIVER_HOST_ID`` override it."""
    providers: Annotated[list[ProviderConfig], Field(min_length=1)]
    """Provider instances; ``kind`` picks the adapter."""
    sessions: SessionsConfig | None = None
    """Absent: sessions are disabled and no store is created."""
    limits: LimitsConfig = LimitsConfig()
    """Run slots, waiting places, request and connection bounds."""
    runs: RunsConfig = RunsConfig()
    """How long ended runs stay readable for rejoining and reconciling."""
    idempotency: IdempotencyConfig = IdempotencyConfig()
    """How many ``Idempotency-Key`` outcomes are remembered, and for how long."""
    tools: list[HostToolConfig] = []
    """Host tools offered to the model on every run."""
    tokens: list[TokenConfig] = []
    """The static bearer tokens the host accepts (re-read on SIGHUP)."""
    auth: AuthConfig = AuthConfig()
    """JWT access tokens from identity providers, beside ``tokens`` (re-read on SIGHUP)."""
    tls: TlsConfig = TlsConfig()
    """TLS where tokens travel; without it the host serves plain HTTP on loopback addresses only."""
    metrics: MetricsConfig = MetricsConfig()
    """Without a token or a listen address, ``/metrics`` is served openly on the API's address only when
    that address is loopback, and not served on any other (docs/operating.md, "Exposing metrics")."""
    docs: bool = False
    """Serve an interactive API reference of the contract at ``/docs`` (Swagger UI, shipped in the package); the
    embedded default of ``make serve`` turns it on."""
    logging: LoggingConfig = LoggingConfig()
    """The log format."""
    tracing: TracingConfig | None = None
    """Absent: traces are off unless the OTEL_* environment variables configure an exporter."""
    qualification: QualificationConfig | None = None
    """Absent: native sessions need no qualification record."""


def _path(location: tuple[int | str, ...]) -> str:
    text = ""
    for position, part in enumerate(location):
        if isinstance(part, int):
            text += f"[{part}]"
        elif position == 2 and location[0] == "providers" and part in PROVIDER_KINDS:  # the discriminator tag
            continue
        else:
            text += f".{part}" if text else str(part)
    return text or "(root)"


_HOST_ID_RULE = "1 to 63 lower-case letters, digits and inner hyphens (it names this host in session and run ids)"


def _message(error: Any) -> str:
    if error["type"] == "string_pattern_mismatch" and tuple(error["loc"]) == ("hostId",):
        return f"{error['input']!r} is not a DNS label: {_HOST_ID_RULE}"
    message = str(error["msg"])
    return message.removeprefix("Value error, ")


def _problem(error: Any) -> str:
    if error["type"] == "union_tag_invalid":
        kinds = ", ".join(repr(kind) for kind in PROVIDER_KINDS)
        return (
            f"{_path((*error['loc'], 'kind'))}: unknown provider kind {error['input'].get('kind')!r} (one of {kinds})"
        )
    if error["type"] == "union_tag_not_found":
        return f"{_path((*error['loc'], 'kind'))}: Field required"
    return f"{_path(error['loc'])}: {_message(error)}"


def _repeats(names: list[str], path: str, field: str, what: str) -> list[str]:
    """One problem per repeated name, at the repeat, naming where it first appeared."""
    first: dict[str, int] = {}
    problems = []
    for index, name in enumerate(names):
        if name in first:
            problems.append(f"{path}[{index}].{field}: duplicate {what} {name!r} (first at {path}[{first[name]}])")
        first.setdefault(name, index)
    return problems


def _names(data: Any, section: str, key: str) -> list[str]:
    items = data.get(section) if isinstance(data, dict) else None
    if not isinstance(items, list):
        return []
    return [str(item.get(key)) for item in items if isinstance(item, dict) and isinstance(item.get(key), str)]


def _cross_checks(data: Any) -> list[str]:
    """Problems that span fields, each at the path it concerns; read from the raw document so they
    are reported together with every other problem."""
    problems = _repeats(_names(data, "providers", "id"), "providers", "id", "provider id")
    problems += _repeats(_names(data, "tools", "name"), "tools", "name", "tool name")
    known = set(_names(data, "providers", "id"))
    tokens = data.get("tokens") if isinstance(data, dict) else None
    for index, token in enumerate(tokens if isinstance(tokens, list) else []):
        names = token.get("providers") if isinstance(token, dict) else None
        for name in names if isinstance(names, list) else []:
            if isinstance(name, str) and name != "*" and name not in known:
                problems.append(f"tokens[{index}].providers: unknown provider {name!r}")
    auth = data.get("auth") if isinstance(data, dict) else None
    issuers = auth.get("jwt") if isinstance(auth, dict) else None
    issuers = issuers if isinstance(issuers, list) else []
    problems += _repeats(_names({"jwt": issuers}, "jwt", "issuer"), "auth.jwt", "issuer", "issuer")
    for index, issuer in enumerate(issuers):
        names = issuer.get("providers") if isinstance(issuer, dict) else None
        for name in names if isinstance(names, list) else []:
            if isinstance(name, str) and name != "*" and name not in known:
                problems.append(f"auth.jwt[{index}].providers: unknown provider {name!r}")
    qualification = data.get("qualification") if isinstance(data, dict) else None
    names = qualification.get("providers") if isinstance(qualification, dict) else None
    for name in names if isinstance(names, list) else []:
        if isinstance(name, str) and name != "*" and name not in known:
            problems.append(f"qualification.providers: unknown provider {name!r}")
    return problems


def parse_config(data: Any) -> HostConfig:
    """Validate decoded host JSON, raising ``ConfigError`` with one line per problem, each led by its path."""
    problems = []
    config = None
    try:
        config = HostConfig.model_validate(data)
    except ValidationError as error:
        problems = [_problem(e) for e in error.errors()]
    problems += _cross_checks(data)
    if problems or config is None:
        raise ConfigError(problems)
    return config


def load_config(path: str | Path) -> HostConfig:
    """Read and validate a host JSON file."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise ConfigError([f"(file): cannot read {path}: {error.strerror}"]) from None
    except UnicodeDecodeError as error:
        raise ConfigError([f"(file): not JSON: not UTF-8 text ({error.reason} at byte {error.start})"]) from None
    try:
        data = json.loads(text, object_pairs_hook=unique_members)
    except json.JSONDecodeError as error:
        raise ConfigError([f"(file): not JSON: {error.msg} at line {error.lineno} column {error.colno}"]) from None
    except RecursionError:
        raise ConfigError(["(file): not JSON this host reads: nested too deeply"]) from None
    except RepeatedMember as error:
        raise ConfigError([f"(file): {error}"]) from None
    return parse_config(data)


HOST_ID_ENV = "AGENTIC_DRIVER_HOST_ID"
"""The environment variable that overrides host JSON's ``hostId`` (so N processes share one file)."""


def with_host_id(config: HostConfig, flag: str | None, environ: Mapping[str, str] = os.environ) -> HostConfig:
    """``config`` with its ``hostId`` from ``--host-id`` (``flag``), else ``AGENTIC_DRIVER_HOST_ID``, else as is."""
    for value, source in ((flag, "--host-id"), (environ.get(HOST_ID_ENV), HOST_ID_ENV)):
        if value is None:
            continue
        if not is_host_id(value):
            raise ConfigError([f"{source}: {value!r} is not a DNS label: {_HOST_ID_RULE}"])
        return config.model_copy(update={"hostId": value})
    return config


def embedded_default(token: str | None = None) -> tuple[HostConfig, str]:
    """The host ``make serve`` runs: two echo instances, 24 h sessions, one all-powerful token, ``/docs``.

    The token comes from ``AGENTIC_DRIVER_TOKEN`` when set, else from ``token``,
    else it is generated. Returns the config and the token in use.
    """
    secret = os.environ.get("AGENTIC_DRIVER_TOKEN") or token or secrets.token_urlsafe(24)
    config = parse_config(
        {
            "hostId": "local-host",
            "providers": [
                {"id": "echo", "kind": "echo", "accountId": "local", "models": ["echo-1"]},
                {"id": "echo-unbound", "kind": "echo", "models": ["echo-1"]},
            ],
            "sessions": {"retentionMs": 24 * 60 * 60 * 1000},
            "docs": True,  # a local development host: the reference page is one click away
            "tokens": [
                {
                    "subject": "local",
                    "token": secret,
                    "providers": ["echo", "echo-unbound"],
                    "sessions": list(ALL_GRANTS),
                }
            ],
        }
    )
    return config, secret
