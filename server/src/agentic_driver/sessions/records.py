"""What a session stores: one record per session, owned by one principal identity."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

import orjson

from ..providers.base import Usage, VisibleMessage

if TYPE_CHECKING:
    from ..turns.runs import ActiveRun

__all__ = [
    "Accounting",
    "InterruptedTurnRecord",
    "Mode",
    "Owner",
    "RunFigures",
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
    native_end: int = 0
    """Native mode: ``native[:native_end]`` is the state up to and including this turn."""


@dataclass(frozen=True, slots=True)
class RunFigures:
    """What one run consumed: the same figures a session accumulates."""

    usage: Usage = field(default_factory=Usage)
    cost: float | None = None
    retries: int = 0
    retry_usage: Usage = field(default_factory=Usage)
    retry_cost: float | None = None
    served_model: str | None = None


@dataclass(slots=True)
class Accounting:
    """A session's cumulative figures; truncation never rewinds them."""

    runs: int = 0
    usage: Usage = field(default_factory=Usage)
    cost: float | None = None
    retries: int = 0
    retry_usage: Usage = field(default_factory=Usage)
    retry_cost: float | None = None
    served_models: list[str] = field(default_factory=list)

    def add(self, run: RunFigures) -> None:
        self.runs += 1
        self.usage += run.usage
        self.cost = _sum(self.cost, run.cost)
        self.retries += run.retries
        self.retry_usage += run.retry_usage
        self.retry_cost = _sum(self.retry_cost, run.retry_cost)
        if run.served_model is not None:
            self.served_models.append(run.served_model)


def _sum(total: float | None, amount: float | None) -> float | None:
    if amount is None:
        return total
    return amount if total is None else total + amount


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
    revision: int = 0
    status: Status = "ready"
    active_run: ActiveRun | None = None
    interrupted_turn: InterruptedTurnRecord | None = None
    deleted: bool = False
    timer: asyncio.TimerHandle | None = None
    native_filter: str = "full"
    """What a native session keeps of each stored turn."""
    accounting: Accounting = field(default_factory=Accounting)
    tools_fingerprint: str | None = None
    """A digest of the tool surface (names, descriptions, schemas) at the session's first turn."""
