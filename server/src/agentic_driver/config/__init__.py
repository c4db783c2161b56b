"""Host JSON -> validated configuration.

The host reads one JSON document (docs/host-config.md, whose field reference is rendered from the
attribute docstrings of this package's modules). Every
problem is reported with its JSON path, for example
``providers[1].kind: unknown provider kind 'ecco'``. Session bounds may only
tighten the contract's defaults.

The blocks live by concern: ``common`` (what every block shares), ``providers``, ``bounds`` (sessions,
limits, runs, idempotency), ``access`` (tokens, JWT issuers, TLS, metrics) and ``host`` (the document as a
whole, and reading it); import them from here.
"""

from __future__ import annotations

from .access import (
    JWT_ALGORITHMS,
    AuthConfig,
    JwtAlgorithmName,
    JwtIssuerConfig,
    ListenConfig,
    MetricsConfig,
    TlsConfig,
    TokenConfig,
)
from .bounds import (
    DEFAULT_MAX_ATTACHMENT_BYTES,
    DEFAULT_MAX_ENDED_RUNS,
    DEFAULT_MAX_RUN_ATTACHMENT_BYTES,
    DEFAULT_MAX_RUN_EVENT_BYTES,
    DEFAULT_RUN_RETENTION_MS,
    IdempotencyConfig,
    LimitsConfig,
    PerSubjectConfig,
    RunsConfig,
    SessionsConfig,
    SnapshotConfig,
)
from .common import (
    ALL_GRANTS,
    DEFAULT_MAX_ENTRIES,
    DEFAULT_MAX_MESSAGES,
    DEFAULT_MAX_NATIVE_MESSAGES,
    DEFAULT_MAX_RECORD_BYTES,
    ConfigError,
    SessionGrantName,
)
from .host import (
    HOST_ID_ENV,
    HostConfig,
    HostToolConfig,
    LoggingConfig,
    QualificationConfig,
    TracingConfig,
    embedded_default,
    load_config,
    parse_config,
    with_host_id,
)
from .providers import (
    PROVIDER_KINDS,
    AnthropicProviderConfig,
    CliProviderConfig,
    EchoProviderConfig,
    EchoSettings,
    GeminiProviderConfig,
    OpenAIChatProviderConfig,
    OpenAIResponsesProviderConfig,
    PriceConfig,
    ProviderConfig,
)

__all__ = [
    "ALL_GRANTS",
    "DEFAULT_MAX_ATTACHMENT_BYTES",
    "DEFAULT_MAX_ENDED_RUNS",
    "DEFAULT_MAX_ENTRIES",
    "DEFAULT_MAX_MESSAGES",
    "DEFAULT_MAX_NATIVE_MESSAGES",
    "DEFAULT_MAX_RECORD_BYTES",
    "DEFAULT_MAX_RUN_ATTACHMENT_BYTES",
    "DEFAULT_MAX_RUN_EVENT_BYTES",
    "DEFAULT_RUN_RETENTION_MS",
    "HOST_ID_ENV",
    "JWT_ALGORITHMS",
    "PROVIDER_KINDS",
    "AnthropicProviderConfig",
    "AuthConfig",
    "CliProviderConfig",
    "ConfigError",
    "EchoProviderConfig",
    "EchoSettings",
    "GeminiProviderConfig",
    "HostConfig",
    "HostToolConfig",
    "IdempotencyConfig",
    "JwtAlgorithmName",
    "JwtIssuerConfig",
    "LimitsConfig",
    "ListenConfig",
    "LoggingConfig",
    "MetricsConfig",
    "OpenAIChatProviderConfig",
    "OpenAIResponsesProviderConfig",
    "PerSubjectConfig",
    "PriceConfig",
    "ProviderConfig",
    "QualificationConfig",
    "RunsConfig",
    "SessionGrantName",
    "SessionsConfig",
    "SnapshotConfig",
    "TlsConfig",
    "TokenConfig",
    "TracingConfig",
    "embedded_default",
    "load_config",
    "parse_config",
    "with_host_id",
]
