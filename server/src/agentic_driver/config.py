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


class EchoProviderConfig(_Closed):
    id: Annotated[str, Field(min_length=1)]
    kind: Literal["echo"]
    accountId: Annotated[str, Field(min_length=1)] | None = None
    """The stable, opaque account the instance is bound to; sessions require one."""
    models: Annotated[list[Annotated[str, Field(min_length=1)]], Field(min_length=1)] = ["echo-1"]
    settings: EchoSettings = EchoSettings()


# A discriminated union on ``kind`` as further adapters arrive.
ProviderConfig = EchoProviderConfig


class SessionsConfig(_Closed):
    retentionMs: Annotated[int, Field(ge=1)]
    """Idle retention; required, because it is what enables the store."""
    maxEntries: Annotated[int, Field(ge=1, le=DEFAULT_MAX_ENTRIES)] = DEFAULT_MAX_ENTRIES
    maxMessages: Annotated[int, Field(ge=1, le=DEFAULT_MAX_MESSAGES)] = DEFAULT_MAX_MESSAGES
    maxRecordBytes: Annotated[int, Field(ge=1, le=DEFAULT_MAX_RECORD_BYTES)] = DEFAULT_MAX_RECORD_BYTES
    maxNativeMessages: Annotated[int, Field(ge=1, le=DEFAULT_MAX_NATIVE_MESSAGES)] = DEFAULT_MAX_NATIVE_MESSAGES


class LimitsConfig(_Closed):
    maxConcurrentRuns: Annotated[int, Field(ge=1)] = 64
    """Run slots: model calls in flight at once; further runs wait (and their sessions are busy)."""
    maxQueuedRuns: Annotated[int, Field(ge=0)] = 256
    """Runs that may wait for a slot; beyond this a run is refused with HOST_BUSY."""
    maxBodyBytes: Annotated[int, Field(ge=1024)] = 4 * 1024 * 1024
    """The largest request body the host reads."""
    heartbeatMs: Annotated[int, Field(ge=10)] = 15_000
    """How long a stream may stay silent before the host sends an SSE comment."""
    streamStallMs: Annotated[int, Field(ge=100)] = 60_000
    """How long a stream's client may accept no data before the host treats it as disconnected."""
    drainTimeoutMs: Annotated[int, Field(ge=0)] = 30_000
    """On SIGTERM: how long admitted turns may take to finish before they are interrupted."""
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
    """Open connections at most; a connection beyond is answered HOST_BUSY and closed."""


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
    for part in location:
        if isinstance(part, int):
            text += f"[{part}]"
        elif part in ("echo",):  # pydantic's discriminator tag, not a JSON key
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


def _cross_checks(config: HostConfig) -> list[str]:
    """Problems that span fields, each reported at the path it concerns."""
    problems = _repeats([p.id for p in config.providers], "providers", "id", "provider id")
    problems += _repeats([t.name for t in config.tools], "tools", "name", "tool name")
    known = {p.id for p in config.providers}
    problems += [
        f"tokens[{i}].providers: unknown provider {name!r}"
        for i, token in enumerate(config.tokens)
        for name in token.providers
        if name != "*" and name not in known
    ]
    return problems


def parse_config(data: Any) -> HostConfig:
    """Validate decoded host JSON, raising ``ConfigError`` with one line per problem, each led by its path."""
    try:
        config = HostConfig.model_validate(data)
    except ValidationError as error:
        raise ConfigError([f"{_path(e['loc'])}: {_message(e)}" for e in error.errors()]) from None
    problems = _cross_checks(config)
    if problems:
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
        data = json.loads(text, object_pairs_hook=_unique_members)
    except json.JSONDecodeError as error:
        raise ConfigError([f"(file): not JSON: {error.msg} at line {error.lineno} column {error.colno}"]) from None
    except RecursionError:
        raise ConfigError(["(file): not JSON this host reads: nested too deeply"]) from None
    except _RepeatedMember as error:
        raise ConfigError([f"(file): {error}"]) from None
    return parse_config(data)


class _RepeatedMember(ValueError):
    pass


def _unique_members(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object's members; a name given twice is an error (which one would count is a guess)."""
    members: dict[str, Any] = {}
    for name, value in pairs:
        if name in members:
            raise _RepeatedMember(f"the key {name!r} appears twice in one object")
        members[name] = value
    return members


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
