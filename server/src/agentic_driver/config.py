"""Host JSON -> validated configuration.

The host reads one JSON document (see the README's host JSON reference). Every
problem is reported with its JSON path, for example
``providers[1].kind: unknown provider kind 'ecco'``. Session bounds may only
tighten the contract's defaults.
"""

from __future__ import annotations

import json
import os
import secrets
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

__all__ = [
    "DEFAULT_MAX_ENTRIES",
    "DEFAULT_MAX_MESSAGES",
    "DEFAULT_MAX_NATIVE_MESSAGES",
    "DEFAULT_MAX_RECORD_BYTES",
    "ConfigError",
    "EchoProviderConfig",
    "HostConfig",
    "HostToolConfig",
    "IdempotencyConfig",
    "LimitsConfig",
    "PriceConfig",
    "ProviderConfig",
    "SessionsConfig",
    "TokenConfig",
    "embedded_default",
    "load_config",
    "parse_config",
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
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class EchoSettings(_Closed):
    native: bool = True
    """Whether the instance can keep native sessions (``false`` exercises UNSUPPORTED_CONTINUATION)."""
    latencyMs: Annotated[int, Field(ge=0)] = 0
    """Simulated model latency before every reply."""


class PriceConfig(_Closed):
    inputPerMillion: Annotated[float, Field(ge=0)]
    outputPerMillion: Annotated[float, Field(ge=0)]
    cachedInputPerMillion: Annotated[float, Field(ge=0)] | None = None
    cacheWritePerMillion: Annotated[float, Field(ge=0)] | None = None


class EchoProviderConfig(_Closed):
    id: Annotated[str, Field(min_length=1)]
    kind: Literal["echo"]
    accountId: Annotated[str, Field(min_length=1)] | None = None
    """The stable, opaque account the instance is bound to; sessions require one."""
    models: Annotated[list[Annotated[str, Field(min_length=1)]], Field(min_length=1)] = ["echo-1"]
    settings: EchoSettings = EchoSettings()
    prices: dict[str, PriceConfig] = {}
    """Per-model prices; a model without one has null cost."""


# A discriminated union on ``kind`` as further adapters arrive.
ProviderConfig = EchoProviderConfig


class SessionsConfig(_Closed):
    retentionMs: Annotated[int, Field(ge=1)]
    """Idle retention; required, because it is what enables the store."""
    maxEntries: Annotated[int, Field(ge=1, le=DEFAULT_MAX_ENTRIES)] = DEFAULT_MAX_ENTRIES
    maxMessages: Annotated[int, Field(ge=1, le=DEFAULT_MAX_MESSAGES)] = DEFAULT_MAX_MESSAGES
    maxRecordBytes: Annotated[int, Field(ge=1, le=DEFAULT_MAX_RECORD_BYTES)] = DEFAULT_MAX_RECORD_BYTES
    maxNativeMessages: Annotated[int, Field(ge=1, le=DEFAULT_MAX_NATIVE_MESSAGES)] = DEFAULT_MAX_NATIVE_MESSAGES
    compactToolResultsMaxChars: Annotated[int, Field(ge=1)] = 500
    """How much of each tool result a ``compact_tool_results`` native session keeps."""


class LimitsConfig(_Closed):
    maxConcurrentRuns: Annotated[int, Field(ge=1)] = 64
    """Run slots: model calls in flight at once; further runs wait (and their sessions are busy)."""
    maxQueuedRuns: Annotated[int, Field(ge=0)] = 256
    """Runs that may wait for a slot; beyond this a run is refused with HOST_BUSY."""
    maxBodyBytes: Annotated[int, Field(ge=1024)] = 4 * 1024 * 1024
    """The largest request body the host reads."""
    heartbeatMs: Annotated[int, Field(ge=10)] = 15_000
    """How long a stream may stay silent before the host sends an SSE comment."""


class IdempotencyConfig(_Closed):
    maxKeys: Annotated[int, Field(ge=1)] = 1_000
    """Idempotency keys remembered per subject (the oldest is forgotten first)."""
    ttlMs: Annotated[int, Field(ge=1)] = 24 * 60 * 60 * 1000
    """How long a key is remembered."""


class HostToolConfig(_Closed):
    name: Annotated[str, Field(pattern=r"^[A-Za-z0-9_-]{1,64}$")]
    handler: Annotated[str, Field(pattern=r"^[A-Za-z_][\w.]*:[A-Za-z_]\w*$")]
    """The async function to call, as ``module:function``."""
    description: str = ""
    parameters: dict[str, Any] = {"type": "object"}
    """A JSON Schema for the arguments, shown to the model."""
    approval: Literal["required", "never"] = "required"


class TokenConfig(_Closed):
    subject: Annotated[str, Field(min_length=1)]
    token: Annotated[str, Field(min_length=16)] | None = None
    """The secret itself (fine for local use; prefer ``tokenEnv`` or ``tokenSha256``)."""
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


class HostConfig(_Closed):
    hostId: Annotated[str, Field(min_length=1)] = "local-host"
    providers: Annotated[list[ProviderConfig], Field(min_length=1)]
    sessions: SessionsConfig | None = None
    """Absent: sessions are disabled and no store is created."""
    limits: LimitsConfig = LimitsConfig()
    idempotency: IdempotencyConfig = IdempotencyConfig()
    tools: list[HostToolConfig] = []
    """Host tools offered to the model on every run."""
    tokens: list[TokenConfig] = []


def _path(location: tuple[int | str, ...]) -> str:
    text = ""
    for position, part in enumerate(location):
        if isinstance(part, int):
            text += f"[{part}]"
        elif position == 2 and location[0] == "providers" and part in ("echo",):  # the discriminator tag
            continue
        else:
            text += f".{part}" if text else str(part)
    return text or "(root)"


def _message(error: Any) -> str:
    message = str(error["msg"])
    return message.removeprefix("Value error, ")


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
    return problems


def parse_config(data: Any) -> HostConfig:
    """Validate decoded host JSON, raising ``ConfigError`` with one line per problem, each led by its path."""
    problems = []
    config = None
    try:
        config = HostConfig.model_validate(data)
    except ValidationError as error:
        problems = [f"{_path(e['loc'])}: {_message(e)}" for e in error.errors()]
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
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise ConfigError([f"(file): not JSON: {error.msg} at line {error.lineno} column {error.colno}"]) from None
    return parse_config(data)


def embedded_default(token: str | None = None) -> tuple[HostConfig, str]:
    """The host ``make serve`` runs: two echo instances, 24 h sessions, one all-powerful token.

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
