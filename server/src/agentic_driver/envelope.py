"""The session envelope: export a session as JSON-clean data, import it into a store.

Embedded Python use only (never over HTTP): an application that wants a
conversation to outlive the process writes the envelope wherever it likes and
imports it later. The envelope carries the visible history, the provider's
native state byte for byte, the recorded turns and the accounting. Instructions
travel only when asked for: by default only their SHA-256 fingerprint does,
enough to notice a change on import, not to read them.

Versioning: ``schemaVersion`` is an integer. This reader knows version 1; an
envelope from a newer writer loads with a warning, ignoring keys it does not know.
"""

from __future__ import annotations

import hashlib
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictInt,
    StrictStr,
    ValidationError,
    model_validator,
)

from .clock import format_ms
from .models import SessionInfo
from .providers.base import Provider, Usage, VisibleMessage
from .sessions import Accounting, InterruptedTurnRecord, Owner, SessionRecord, SessionStore, TurnLog, TurnRecord
from .sessions.records import RECENT_SERVED_MODELS
from .views import read_session_view

__all__ = ["SCHEMA_VERSION", "ImportRejected", "ImportReport", "export_record", "parse", "record_of", "restore"]

SCHEMA_VERSION = 1
KIND = "agentic-driver.session"


class ImportRejected(ValueError):
    """The envelope cannot be restored here (not an envelope, or another provider or account)."""


@dataclass(frozen=True)
class ImportReport:
    session: SessionInfo | None
    """The restored session (its id is kept when free on this host)."""
    instructions_changed: bool = False
    """The instructions given now differ from those the session was exported with."""
    tools_changed: bool = False
    """The tool surface differs from the one of the session's first turn."""
    warnings: list[str] = field(default_factory=list)


def fingerprint(text: str | None) -> str | None:
    return None if text is None else hashlib.sha256(text.encode("utf-8")).hexdigest()


def _usage(usage: Usage) -> dict[str, int]:
    return {
        "inputTokens": usage.input_tokens,
        "outputTokens": usage.output_tokens,
        "cachedInputTokens": usage.cached_input_tokens,
        "cacheWriteTokens": usage.cache_write_tokens,
        "reasoningTokens": usage.reasoning_tokens,
    }


def export_record(record: SessionRecord, include_instructions: bool, provider_kind: str) -> dict[str, Any]:
    owner, accounting = record.owner, record.accounting
    data: dict[str, Any] = {
        "schemaVersion": SCHEMA_VERSION,
        "kind": KIND,
        "session": {
            "id": record.id,
            "provider": owner.provider,
            "providerKind": provider_kind,
            "account": owner.account,
            "model": owner.model,
            "mode": record.mode,
            "nativeHistory": record.native_filter,
            "revision": record.revision,
            "createdAt": format_ms(record.created_ms),
            "updatedAt": format_ms(record.updated_ms),
        },
        "instructionsFingerprint": fingerprint(record.instructions),
        "toolsFingerprint": record.tools_fingerprint,
        "history": [{"role": m.role, "content": m.content} for m in record.history],
        "imported": record.imported,
        "native": list(record.native),
        "turns": [
            {
                "revision": t.revision,
                "runId": t.run_id,
                "start": t.start,
                "end": t.end,
                "nativeEnd": t.native_end,
                "at": format_ms(t.at_ms),
            }
            for t in record.turns
        ],
        "interruptedTurn": None,
        "accounting": {
            "runCount": accounting.runs,
            "usage": _usage(accounting.usage),
            "cost": accounting.cost,
            "retries": {
                "count": accounting.retries,
                "usage": _usage(accounting.retry_usage),
                "cost": accounting.retry_cost,
            },
            "servedModels": list(accounting.recent_models),
            "servedModelRuns": [{"model": model, "runs": runs} for model, runs in accounting.served_runs],
        },
    }
    if include_instructions:
        data["instructions"] = record.instructions
    if record.interrupted_turn is not None:
        turn = record.interrupted_turn
        data["interruptedTurn"] = {
            "runId": turn.run_id,
            "input": turn.input,
            "reason": turn.reason,
            "at": format_ms(turn.at_ms),
        }
    return data


# -- what a version-1 envelope must hold, checked whole before anything is built or stored ----------------
# Unknown keys are ignored (a newer writer's additions); every known key has its exact type and sign, so a
# mistake is refused here, naming the field, instead of surfacing later as an unreadable session.

Count = Annotated[StrictInt, Field(ge=0, lt=2**63)]
Cost = Annotated[float, Field(ge=0, allow_inf_nan=False, strict=True)] | Annotated[StrictInt, Field(ge=0)] | None


def _stamp(text: str) -> str:
    stamp = datetime.fromisoformat(text)  # ValueError names what is wrong with it
    if stamp.tzinfo is None:
        raise ValueError("a timestamp needs its UTC offset (Z)")
    return text


Stamp = Annotated[StrictStr, AfterValidator(_stamp)]


class _Part(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)


class _UsageV1(_Part):
    inputTokens: Count = 0
    outputTokens: Count = 0
    cachedInputTokens: Count = 0
    cacheWriteTokens: Count = 0
    reasoningTokens: Count = 0


class _RetriesV1(_Part):
    count: Count = 0
    usage: _UsageV1 = _UsageV1()
    cost: Cost = None


class _ServedModelRunsV1(_Part):
    model: StrictStr
    runs: Annotated[StrictInt, Field(ge=1, lt=2**63)]


class _AccountingV1(_Part):
    runCount: Count = 0
    usage: _UsageV1 = _UsageV1()
    cost: Cost = None
    retries: _RetriesV1 = _RetriesV1()
    servedModels: list[StrictStr] = []
    """The last turns' models (every turn's, from hosts before ``servedModelRuns``)."""
    servedModelRuns: list[_ServedModelRunsV1] | None = None


class _SessionV1(_Part):
    id: Annotated[StrictStr, Field(min_length=1)]
    provider: StrictStr
    account: StrictStr
    model: StrictStr
    mode: Literal["history", "native"]
    nativeHistory: Literal["full", "no_reasoning", "no_tool_results", "compact_tool_results"] = "full"
    revision: Count
    createdAt: Stamp
    updatedAt: Stamp


class _MessageV1(_Part):
    role: Literal["user", "assistant"]
    content: StrictStr


class _TurnV1(_Part):
    revision: Annotated[StrictInt, Field(ge=1, lt=2**63)]
    runId: Annotated[StrictStr, Field(min_length=1)]
    start: Count
    end: Count
    nativeEnd: Count = 0
    at: Stamp


class _InterruptedTurnV1(_Part):
    runId: Annotated[StrictStr, Field(min_length=1)]
    input: StrictStr
    reason: Literal["cancelled", "failed", "disconnected", "idle_timeout", "limit_exceeded", "shutdown"]
    at: Stamp


class _EnvelopeV1(_Part):
    session: _SessionV1
    instructions: StrictStr | None = None
    instructionsFingerprint: StrictStr | None = None
    toolsFingerprint: StrictStr | None = None
    history: list[_MessageV1]
    imported: Count = 0
    native: list[StrictStr] = []
    turns: list[_TurnV1] = []
    interruptedTurn: _InterruptedTurnV1 | None = None
    accounting: _AccountingV1 = _AccountingV1()

    @model_validator(mode="after")
    def _consistent(self) -> _EnvelopeV1:
        messages, native, revision = len(self.history), len(self.native), self.session.revision
        if self.imported > messages:
            raise ValueError(f"imported ({self.imported}) counts more messages than history holds ({messages})")
        previous = None
        for index, turn in enumerate(self.turns):
            where = f"turns[{index}]"
            if not turn.start <= turn.end <= messages:
                raise ValueError(f"{where}: start {turn.start}..end {turn.end} is outside the history (0..{messages})")
            if turn.nativeEnd > native:
                raise ValueError(f"{where}: nativeEnd {turn.nativeEnd} is past the native state ({native} items)")
            if turn.revision > revision:
                raise ValueError(f"{where}: revision {turn.revision} is after the session's revision {revision}")
            if previous is not None and (turn.revision <= previous.revision or turn.start < previous.end):
                raise ValueError(f"{where}: turns must follow each other (revision and history both increase)")
            previous = turn
        return self


def _field_path(location: tuple[int | str, ...]) -> str:
    path = ""
    for part in location:
        path += f"[{part}]" if isinstance(part, int) else (f".{part}" if path else str(part))
    return path or "the envelope"


def _validated(data: Mapping[str, Any]) -> _EnvelopeV1:
    try:
        return _EnvelopeV1.model_validate(data)
    except ValidationError as error:
        first = error.errors(include_url=False)[0]
        raise ImportRejected(
            f"The envelope is malformed at {_field_path(tuple(first['loc']))}: {first['msg']}."
        ) from None


@dataclass(frozen=True)
class Parsed:
    data: Mapping[str, Any]
    provider: str
    account: str
    model: str
    warnings: list[str]
    provider_kind: str | None = None


def parse(data: Mapping[str, Any]) -> Parsed:
    if not isinstance(data, Mapping) or data.get("kind") != KIND or not isinstance(data.get("schemaVersion"), int):
        raise ImportRejected("This is not an agentic-driver session envelope.")
    notes = []
    if data["schemaVersion"] > SCHEMA_VERSION:
        notes.append(
            f"The envelope has schemaVersion {data['schemaVersion']}, newer than {SCHEMA_VERSION}; "
            "keys this version does not know were ignored."
        )
        warnings.warn(notes[-1], UserWarning, stacklevel=3)
    session = data.get("session")
    if not isinstance(session, Mapping):
        raise ImportRejected("The envelope is malformed at session: an object is required.")
    owner = {}
    for key in ("provider", "account", "model"):
        value = session.get(key)
        if not isinstance(value, str):
            raise ImportRejected(f"The envelope is malformed at session.{key}: a string is required.")
        owner[key] = value
    kind = session.get("providerKind")
    provider_kind = kind if isinstance(kind, str) else None
    return Parsed(data, owner["provider"], owner["account"], owner["model"], notes, provider_kind)


def refuse_another_owner(parsed: Parsed, provider: Provider) -> None:
    """Refuse an envelope kept by another kind of provider or under another account than ``provider``'s."""
    if parsed.provider_kind is not None and parsed.provider_kind != provider.kind:
        raise ImportRejected(
            f"The session was kept by a {parsed.provider_kind!r} provider; {provider.id!r} is {provider.kind!r}."
        )
    if provider.account_id is None or provider.account_id != parsed.account:
        raise ImportRejected(
            f"The session belongs to account {parsed.account!r}; provider {provider.id!r} is bound to "
            f"{provider.account_id!r}. Sessions never move between accounts."
        )


def _ms(stamp: str) -> int:
    return round(datetime.fromisoformat(stamp).timestamp() * 1000)  # the float product may fall just short


def _usage_of(usage: _UsageV1) -> Usage:
    return Usage(
        usage.inputTokens, usage.outputTokens, usage.cachedInputTokens, usage.cacheWriteTokens, usage.reasoningTokens
    )


def _accounting(accounting: _AccountingV1) -> Accounting:
    record = Accounting(
        runs=accounting.runCount,
        usage=_usage_of(accounting.usage),
        cost=None if accounting.cost is None else float(accounting.cost),
        retries=accounting.retries.count,
        retry_usage=_usage_of(accounting.retries.usage),
        retry_cost=None if accounting.retries.cost is None else float(accounting.retries.cost),
    )
    if accounting.servedModelRuns is not None:
        for served in accounting.servedModelRuns:
            record.served(served.model, served.runs)
        record.recent_models = tuple(accounting.servedModels[-RECENT_SERVED_MODELS:])
    else:  # an envelope from before servedModelRuns: its list had every turn's model
        for model in accounting.servedModels:
            record.served(model)
    return record


def _interrupted(turn: _InterruptedTurnV1 | None) -> InterruptedTurnRecord | None:
    return None if turn is None else InterruptedTurnRecord(turn.runId, turn.input, turn.reason, _ms(turn.at))


def _record(envelope: _EnvelopeV1, owner: Owner, instructions: str | None) -> SessionRecord:
    session = envelope.session
    return SessionRecord(
        id=session.id,
        owner=owner,
        mode=session.mode,
        instructions=instructions,
        history=[VisibleMessage(m.role, m.content) for m in envelope.history],
        created_ms=_ms(session.createdAt),
        updated_ms=_ms(session.updatedAt),
        expires_ms=None,
        record_bytes=0,
        imported=envelope.imported,
        native=list(envelope.native),
        turns=TurnLog(TurnRecord(t.revision, t.runId, t.start, t.end, _ms(t.at), t.nativeEnd) for t in envelope.turns),
        revision=session.revision,
        interrupted_turn=_interrupted(envelope.interruptedTurn),
        native_filter=session.nativeHistory,
        accounting=_accounting(envelope.accounting),
        tools_fingerprint=envelope.toolsFingerprint,
    )


def record_of(data: Mapping[str, Any], subject: str) -> SessionRecord:
    """The record an envelope describes, owned by ``subject`` with the envelope's own instructions, checked whole
    and not stored anywhere (``ImportRejected`` says what is wrong)."""
    parsed = parse(data)
    envelope = _validated(parsed.data)
    return _checked_record(
        envelope, Owner(subject, parsed.provider, parsed.account, parsed.model), envelope.instructions
    )


def _checked_record(envelope: _EnvelopeV1, owner: Owner, instructions: str | None) -> SessionRecord:
    try:
        record = _record(envelope, owner, instructions)
        read_session_view(record, "import-check")  # what every later read builds: it must build now
    except (ValueError, OverflowError) as error:  # a timestamp out of range, a number past 64 bits
        raise ImportRejected(f"The envelope is malformed: {error}.") from None
    return record


def restore(
    store: SessionStore,
    parsed: Parsed,
    subject: str,
    instructions: str | None,
    current_tools_fingerprint: str,
) -> tuple[SessionRecord, ImportReport]:
    envelope = _validated(parsed.data)
    # Instructions given now win over the envelope's copy; either way a change is reported.
    kept_instructions = instructions if instructions is not None else envelope.instructions
    record = _checked_record(envelope, Owner(subject, parsed.provider, parsed.account, parsed.model), kept_instructions)
    store.adopt(record)
    report = ImportReport(
        session=None,
        instructions_changed=fingerprint(kept_instructions) != envelope.instructionsFingerprint,
        tools_changed=record.tools_fingerprint is not None and record.tools_fingerprint != current_tools_fingerprint,
        warnings=list(parsed.warnings),
    )
    return record, report
