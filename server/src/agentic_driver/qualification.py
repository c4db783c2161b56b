"""Live native continuation, qualified: the records ``agentic-driver qualify`` writes and a host may require.

A native session replays the provider's own signed or encrypted items (Anthropic
thinking signatures, OpenAI encrypted reasoning, Gemini thought signatures). Whether
a given account and model accept that replay is only known by trying, so
``qualify`` (``qualify.py``) runs a short native session through the embedded ``Driver`` (the
host's own code path) against the live instance:

1. a turn that gives a made-up name ("My name is Ravomikute.");
2. where the adapter takes functions, a tool round: the model calls the probe
   function and gets its result back, so the stored call, its result and the
   reasoning around them are replayed;
3. a turn that must recall the name ("What is my name?"), which only works if every
   earlier item was replayed and accepted.

Each turn's request replays everything the session stored before it; a provider
that refuses a replayed item answers 4xx (``PROVIDER_REJECTED``), so a turn that
completes is a turn whose replay was accepted. The result is a JSON record
(docs/providers.md, "Qualifying live native continuation"). With host JSON's
``qualification`` block, a native session on an instance in scope is created only
while a *current* record exists for its (instance, model): passed, made for the
same instance id, kind, ``baseUrl``, ``stream`` setting, request settings
(``extraBody`` and the API version), account binding, model and adapter version,
and no older than ``maxAgeDays``. Discovery advertises native continuation for
such an instance only while every one of its models has one.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal
from urllib.parse import quote

from ._version import __version__
from .clock import Clock, SystemClock, format_ms
from .config import ProviderConfig, QualificationConfig

if TYPE_CHECKING:
    from .providers import Provider

__all__ = [
    "ADAPTER_VERSION",
    "DAY_MS",
    "RECORD_FORMAT",
    "Identity",
    "NativeQualification",
    "Qualification",
    "TurnReport",
    "identity_of",
    "record_path",
    "why_not_current",
    "write_record",
]

RECORD_FORMAT = "agentic-driver.qualification/1"
ADAPTER_VERSION = f"agentic-driver {__version__}"
"""The adapters ship in the package, so its version is the adapter version a record names."""
DAY_MS = 24 * 60 * 60 * 1000
CLOCK_SKEW_MS = 5 * 60 * 1000
"""A record dated up to this far in the future still counts (clocks of two machines differ a little)."""


@dataclass(frozen=True, slots=True)
class Identity:
    """What a record was made for; a record counts only for exactly this."""

    provider: str
    kind: str
    baseUrl: str | None
    stream: bool | None
    accountId: str | None
    model: str
    requestSettings: str
    """A digest of what else shapes the replayed items: ``extraBody`` (thinking or reasoning settings decide
    whether signed blocks come at all), ``anthropicVersion``, ``apiVersion``."""
    adapterVersion: str = ADAPTER_VERSION


REQUEST_SETTINGS = ("extraBody", "anthropicVersion", "apiVersion")


def identity_of(config: ProviderConfig, account_id: str | None, model: str) -> Identity:
    """The identity of ``model`` on the configured instance bound to ``account_id`` (the binding may change)."""
    settings = {name: getattr(config, name) for name in REQUEST_SETTINGS if hasattr(config, name)}
    canonical = json.dumps(settings, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return Identity(
        provider=config.id,
        kind=config.kind,
        baseUrl=getattr(config, "baseUrl", None),
        stream=getattr(config, "stream", None),
        accountId=account_id,
        model=model,
        requestSettings="sha256:" + hashlib.sha256(canonical.encode("utf-8")).hexdigest(),
    )


def _segment(name: str) -> str:
    encoded = quote(name, safe="")
    return "%2E" + encoded[1:] if encoded.startswith(".") else encoded  # never '.', '..' or a hidden file


def record_path(record_dir: str | Path, provider: str, model: str) -> Path:
    """``{record_dir}/{provider}/{model}.json``, each name percent-encoded (models may hold ``/``)."""
    return Path(record_dir) / _segment(provider) / f"{_segment(model)}.json"


def why_not_current(path: Path, expected: Identity, now_ms: int, max_age_days: int) -> str | None:
    """Why the record at ``path`` does not qualify ``expected`` now, or None when it does."""
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return f"no record at {path}"
    except (OSError, UnicodeDecodeError, ValueError) as error:
        return f"the record at {path} cannot be read ({error})"
    if not isinstance(record, dict) or record.get("format") != RECORD_FORMAT:
        return f"{path} is not a qualification record ({RECORD_FORMAT})"
    if record.get("result") != "passed":
        return f"the record at {path} says qualification failed"
    made_for = record.get("identity")
    if not isinstance(made_for, dict):
        made_for = {}
    for name, value in asdict(expected).items():
        if made_for.get(name) != value:
            return f"the record at {path} was made for {name} {made_for.get(name)!r}, the instance has {value!r}"
    at = record.get("qualifiedAtMs")
    if not isinstance(at, int) or at > now_ms + CLOCK_SKEW_MS:
        return f"the record at {path} has no valid qualifiedAtMs"
    if now_ms - at > max_age_days * DAY_MS:
        return f"the record at {path} is from {format_ms(at)}, older than maxAgeDays {max_age_days}"
    return None


class NativeQualification:
    """The host's check: native sessions only on (instance, model) pairs with a current record."""

    def __init__(
        self, config: QualificationConfig, providers: Mapping[str, ProviderConfig], clock: Clock | None = None
    ) -> None:
        self._config = config
        self._providers = dict(providers)
        self._clock = clock or SystemClock()

    def _in_scope(self, config: ProviderConfig) -> bool:
        if config.id in self._config.providers:
            return True
        # Echo is offline and deterministic: there is nothing live to qualify unless an instance is named.
        return "*" in self._config.providers and config.kind != "echo"

    def refusal(self, provider: Provider, model: str) -> str | None:
        """Why a native session on ``provider`` and ``model`` is refused now (naming the record), or None."""
        config = self._providers.get(provider.id)
        if config is None or not self._in_scope(config):
            return None
        path = record_path(self._config.recordDir, provider.id, model)
        reason = why_not_current(
            path, identity_of(config, provider.account_id, model), self._clock.now_ms(), self._config.maxAgeDays
        )
        if reason is None:
            return None
        return (
            f"Native continuation on provider {provider.id!r} with model {model!r} needs a current qualification "
            f"record: {reason}. Run `agentic-driver qualify --config FILE --provider {provider.id} --model {model}` "
            "(docs/providers.md, Qualifying live native continuation)."
        )

    def advertises(self, provider: Provider) -> bool:
        """Whether discovery may say ``nativeContinuation``: every model of the instance is qualified."""
        return all(self.refusal(provider, model) is None for model in provider.models)


# -- the record ----------------------------------------------------------------------------------------------


@dataclass
class TurnReport:
    turn: int
    purpose: str
    replayedItems: int
    """Provider items stored by earlier turns that this turn's first request replayed."""
    storedItems: int = 0
    """Provider items the session holds after the turn."""
    toolRounds: int = 0
    outcome: Literal["accepted", "failed", "not run"] = "not run"
    code: str | None = None
    detail: str | None = None


@dataclass
class Qualification:
    identity: Identity
    qualifiedAtMs: int
    reports: list[TurnReport] = field(default_factory=list)
    """One per turn run, in order (the record's ``turns``)."""
    failure: str | None = None

    @property
    def passed(self) -> bool:
        return self.failure is None

    def record(self) -> dict[str, Any]:
        """The JSON record ``qualify`` prints and writes."""
        accepted = [t.purpose for t in self.reports if t.outcome == "accepted"]
        return {
            "format": RECORD_FORMAT,
            "result": "passed" if self.passed else "failed",
            "failure": self.failure,
            "identity": asdict(self.identity),
            "qualifiedAt": format_ms(self.qualifiedAtMs),
            "qualifiedAtMs": self.qualifiedAtMs,
            "exercised": {  # what the provider accepted
                "mode": "native",
                "turns": len(accepted),
                "toolRound": "tool round" in accepted,
                "recall": "recall" in accepted,
                "stream": self.identity.stream,
            },
            "turns": [asdict(t) for t in self.reports],
        }


def write_record(path: Path, record: Mapping[str, Any]) -> None:
    """Write ``record`` at ``path`` whole (a temporary file renamed over it: a reader never sees half)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    partial.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    partial.replace(path)
