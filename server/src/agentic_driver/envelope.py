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
from typing import Any

from .clock import format_ms
from .models import SessionInfo
from .providers.base import Usage, VisibleMessage
from .sessions import Accounting, InterruptedTurnRecord, Owner, SessionRecord, SessionStore, TurnLog, TurnRecord

__all__ = ["SCHEMA_VERSION", "ImportRejected", "ImportReport", "export_record", "parse", "restore"]

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
            "servedModels": list(accounting.served_models),
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
    try:
        session = data["session"]
        kind = session.get("providerKind")
        return Parsed(
            data,
            str(session["provider"]),
            str(session["account"]),
            str(session["model"]),
            notes,
            kind if isinstance(kind, str) else None,
        )
    except (KeyError, TypeError) as error:
        raise ImportRejected(f"The envelope misses {error}.") from None


def _ms(stamp: str) -> int:
    return round(datetime.fromisoformat(stamp).timestamp() * 1000)  # the float product may fall just short


def _usage_of(data: Mapping[str, Any]) -> Usage:
    return Usage(
        int(data.get("inputTokens", 0)),
        int(data.get("outputTokens", 0)),
        int(data.get("cachedInputTokens", 0)),
        int(data.get("cacheWriteTokens", 0)),
        int(data.get("reasoningTokens", 0)),
    )


def _accounting(data: Mapping[str, Any]) -> Accounting:
    retries = data.get("retries", {})
    return Accounting(
        runs=int(data.get("runCount", 0)),
        usage=_usage_of(data.get("usage", {})),
        cost=data.get("cost"),
        retries=int(retries.get("count", 0)),
        retry_usage=_usage_of(retries.get("usage", {})),
        retry_cost=retries.get("cost"),
        served_models=[str(m) for m in data.get("servedModels", [])],
    )


def _interrupted(data: Mapping[str, Any] | None) -> InterruptedTurnRecord | None:
    if data is None:
        return None
    return InterruptedTurnRecord(data["runId"], data["input"], data["reason"], _ms(data["at"]))


def _inconsistency(record: SessionRecord) -> str | None:
    """What makes a restored record unusable, checked before anything is stored."""
    if record.mode not in ("history", "native"):
        return f"mode {record.mode!r}"
    if record.native_filter not in ("full", "no_reasoning", "no_tool_results", "compact_tool_results"):
        return f"nativeHistory {record.native_filter!r}"
    if record.revision < 0 or any(m.role not in ("user", "assistant") for m in record.history):
        return "a negative revision or a message role other than user or assistant"
    if not 0 <= record.imported <= len(record.history):
        return "imported count outside the history"
    bounds = [(t.start, t.end, t.native_end) for t in record.turns]
    if any(not (0 <= s <= e <= len(record.history) and 0 <= n <= len(record.native)) for s, e, n in bounds):
        return "a turn outside the history or native state"
    return None


def restore(
    store: SessionStore,
    parsed: Parsed,
    subject: str,
    instructions: str | None,
    current_tools_fingerprint: str,
) -> tuple[SessionRecord, ImportReport]:
    data = parsed.data
    try:
        session = data["session"]
        # Instructions given now win over the envelope's copy; either way a change is reported.
        kept_instructions = instructions if instructions is not None else data.get("instructions")
        interrupted = data.get("interruptedTurn")
        record = SessionRecord(
            id=str(session["id"]),
            owner=Owner(subject, parsed.provider, parsed.account, parsed.model),
            mode=session["mode"],
            instructions=kept_instructions,
            history=[VisibleMessage(m["role"], m["content"]) for m in data["history"]],
            created_ms=_ms(session["createdAt"]),
            updated_ms=_ms(session["updatedAt"]),
            expires_ms=None,
            record_bytes=0,
            imported=int(data.get("imported", 0)),
            native=[str(item) for item in data.get("native", [])],
            turns=TurnLog(
                TurnRecord(t["revision"], t["runId"], t["start"], t["end"], _ms(t["at"]), t.get("nativeEnd", 0))
                for t in data.get("turns", [])
            ),
            revision=int(session["revision"]),
            interrupted_turn=None
            if interrupted is None
            else InterruptedTurnRecord(
                interrupted["runId"], interrupted["input"], interrupted["reason"], _ms(interrupted["at"])
            ),
            native_filter=str(session.get("nativeHistory", "full")),
            accounting=_accounting(data.get("accounting", {})),
            tools_fingerprint=data.get("toolsFingerprint"),
        )
    except (KeyError, TypeError, ValueError, OverflowError) as error:
        raise ImportRejected(f"The envelope is malformed: {error!r}.") from None
    problem = _inconsistency(record)
    if problem is not None:
        raise ImportRejected(f"The envelope is malformed: {problem}.")
    store.adopt(record)
    report = ImportReport(
        session=None,
        instructions_changed=fingerprint(kept_instructions) != data.get("instructionsFingerprint"),
        tools_changed=record.tools_fingerprint is not None and record.tools_fingerprint != current_tools_fingerprint,
        warnings=list(parsed.warnings),
    )
    return record, report
