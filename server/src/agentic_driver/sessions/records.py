"""What a session stores: one record per session, owned by one principal identity."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

import orjson

from ..providers.base import VisibleMessage

if TYPE_CHECKING:
    from ..turns.runs import ActiveRun

__all__ = [
    "InterruptedTurnRecord",
    "Mode",
    "Owner",
    "SessionRecord",
    "Status",
    "TurnRecord",
    "message_bytes",
]

Mode = Literal["history", "native"]
Status = Literal["ready", "running", "interrupted"]


@dataclass(frozen=True, slots=True)
class Owner:
    """The identity a session belongs to; any other identity sees SESSION_NOT_FOUND."""

    subject: str
    provider: str
    account: str
    model: str


@dataclass(frozen=True, slots=True)
class TurnRecord:
    revision: int
    run_id: str
    start: int
    end: int
    at_ms: int


@dataclass(frozen=True, slots=True)
class InterruptedTurnRecord:
    run_id: str
    input: str
    reason: str
    at_ms: int


def message_bytes(message: VisibleMessage) -> int:
    """The encoded size one visible message counts against ``maxRecordBytes``."""
    return len(orjson.dumps({"role": message.role, "content": message.content}))


@dataclass(slots=True, eq=False)
class SessionRecord:
    id: str
    owner: Owner
    mode: Mode
    instructions: str | None
    history: list[VisibleMessage]
    created_ms: int
    updated_ms: int
    expires_ms: int | None
    record_bytes: int
    imported: int
    """How many leading history messages were imported at creation (native mode replays them as text)."""
    native: list[str] = field(default_factory=list)
    """Native mode: the provider's own items, byte for byte."""
    turns: list[TurnRecord] = field(default_factory=list)
    prefix_fingerprint: str | None = None
    """Native sessions on providers with a fixed prefix: the instructions and tools of the first turn."""
    revision: int = 0
    status: Status = "ready"
    active_run: ActiveRun | None = None
    interrupted_turn: InterruptedTurnRecord | None = None
    deleted: bool = False
    timer: asyncio.TimerHandle | None = None
