"""Host JSON as a whole (``HostConfig``) and reading it: every problem reported with its JSON path."""

from __future__ import annotations

import json
import os
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field, ValidationError

from ..ids import HOST_ID_PATTERN, is_host_id
from ..jsontext import RepeatedMember, unique_members
from .access import AuthConfig, MetricsConfig, TlsConfig, TokenConfig
from .bounds import IdempotencyConfig, LimitsConfig, RunsConfig, SessionsConfig
from .common import ALL_GRANTS, ConfigError, _Closed
from .providers import PROVIDER_KINDS, ProviderConfig


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
