"""What a session stores: one record per session, owned by one principal identity."""

from __future__ import annotations

import asyncio
from array import array
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal, Protocol, overload

import orjson

from ..ids import RUN_ID_BYTES, run_id_bytes, run_id_text
from ..providers.base import Usage, VisibleMessage

__all__ = [
    "Accounting",
    "InterruptedTurnRecord",
    "Mode",
    "Owner",
    "RunFigures",
    "SessionRecord",
    "SessionRun",
    "Status",
    "TurnLog",
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


class TurnLog(Sequence[TurnRecord]):
    """A session's turns, stored compactly: five 64-bit integers and a 16-byte run id a turn.

    A list of ``TurnRecord`` objects cost about 270 bytes per turn (the record, its
    run id string, its timestamp as an int object, the list slot); this costs 56.
    Run ids the host made (``run_{hostId}.`` and 16 random bytes in URL-safe base64)
    are kept as their bytes, with the prefix once per log; any other id (an imported
    session's, another host's) is kept as text beside them.
    Reading yields ``TurnRecord`` values built on the fly (reads are rare next to
    turns). Numbers must fit a signed 64-bit integer (OverflowError otherwise).
    """

    __slots__ = ("_id_bytes", "_numbers", "_other_ids", "_prefix")

    _WIDTH = 5  # revision, start, end, at_ms, native_end

    def __init__(self, turns: Iterable[TurnRecord] = ()) -> None:
        self._numbers = array("q")
        self._id_bytes = bytearray()
        self._other_ids: dict[int, str] = {}
        self._prefix: str | None = None  # of every compactly kept run id: the first one's
        for turn in turns:
            self.append(turn)

    def append(self, turn: TurnRecord) -> None:
        # Converted first, so a number that does not fit leaves no partial turn behind.
        numbers = array("q", (turn.revision, turn.start, turn.end, turn.at_ms, turn.native_end))
        parts = run_id_bytes(turn.run_id)
        if parts is not None and self._prefix is None:
            self._prefix = parts[0]
        if parts is None or parts[0] != self._prefix:
            self._other_ids[len(self)] = turn.run_id
            raw = bytes(RUN_ID_BYTES)
        else:
            raw = parts[1]
        self._numbers.extend(numbers)
        self._id_bytes += raw

    def __len__(self) -> int:
        return len(self._numbers) // self._WIDTH

    @overload
    def __getitem__(self, index: int) -> TurnRecord: ...

    @overload
    def __getitem__(self, index: slice) -> list[TurnRecord]: ...

    def __getitem__(self, index: int | slice) -> TurnRecord | list[TurnRecord]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if not -len(self) <= index < len(self):
            raise IndexError("turn index out of range")
        index %= len(self)
        first = index * self._WIDTH
        revision, start, end, at_ms, native_end = self._numbers[first : first + self._WIDTH]
        run_id = self._other_ids.get(index)
        if run_id is None:
            assert self._prefix is not None  # a compactly kept id set it
            run_id = run_id_text(self._prefix, bytes(self._id_bytes[index * RUN_ID_BYTES : (index + 1) * RUN_ID_BYTES]))
        return TurnRecord(revision, run_id, start, end, at_ms, native_end)

    def keep(self, count: int) -> None:
        """Drop every turn after the first ``count``."""
        del self._numbers[count * self._WIDTH :]
        del self._id_bytes[count * RUN_ID_BYTES :]
        for index in [i for i in self._other_ids if i >= count]:
            del self._other_ids[index]


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
    served_runs: tuple[tuple[str, int], ...] = ()
    """Each model that answered a turn, in the order first served, with its turns (``servedModelRuns``)."""
    recent_models: tuple[str, ...] = ()
    """The models of the last ``RECENT_SERVED_MODELS`` turns that reported one (the deprecated ``servedModels``)."""

    def add(self, run: RunFigures) -> None:
        self.runs += 1
        self.usage += run.usage
        self.cost = _sum(self.cost, run.cost)
        self.retries += run.retries
        self.retry_usage += run.retry_usage
        self.retry_cost = _sum(self.retry_cost, run.retry_cost)
        if run.served_model is not None:
            self.served(run.served_model)

    def served(self, model: str, runs: int = 1) -> None:
        """``runs`` more turns answered by ``model``. Both figures are replaced, never changed in place, so a
        view taken earlier (``views.SessionView``) keeps what it saw."""
        pairs = self.served_runs
        # The usual turn, answered by the last one's model, and one turn at a time (_recent) have their own
        # paths: on a session turn they are 6,500 instructions cheaper than the general ones (harness.instructions).
        if pairs and pairs[-1][0] == model:
            # the name as the session already holds it: a provider's answer brings it as a new string each run
            model, before = pairs[-1]
            self.served_runs = (*pairs[:-1], (model, before + runs))
        else:
            model, self.served_runs = _count_served(pairs, model, runs)
        self.recent_models = _recent(self.recent_models, model, runs)


def _count_served(pairs: tuple[tuple[str, int], ...], model: str, runs: int) -> tuple[str, tuple[tuple[str, int], ...]]:
    """The session's name for ``model`` and ``pairs`` with ``runs`` more turns counted to it."""
    for index in range(len(pairs) - 1, -1, -1):
        held, before = pairs[index]
        if held == model:
            return held, (*pairs[:index], (held, before + runs), *pairs[index + 1 :])
    return model, (*pairs, (model, runs))


def _recent(recent: tuple[str, ...], model: str, runs: int) -> tuple[str, ...]:
    """``recent`` with ``runs`` turns of ``model`` after it, the oldest dropped beyond the bound."""
    if runs == 1:
        return (recent[1:] if len(recent) >= RECENT_SERVED_MODELS else recent) + (model,)
    added = min(runs, RECENT_SERVED_MODELS)
    kept = RECENT_SERVED_MODELS - added
    return (recent[max(len(recent) - kept, 0) :] if kept else ()) + (model,) * added


RECENT_SERVED_MODELS = 100
"""The turns the deprecated ``servedModels`` lists (the last ones)."""


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


class SessionRun(Protocol):
    """What a session knows of the run it is busy with (``turns.runs.ActiveRun`` is one).

    A protocol, so that ``sessions/`` does not import ``turns/``: the turn path depends on the store,
    never the other way round (``tests/unit/test_import_cycles.py``).
    """

    @property
    def id(self) -> str: ...

    def cancel(self, reason: str) -> None: ...

    async def settled(self) -> None: ...


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
    turns: TurnLog = field(default_factory=TurnLog)
    prefix_fingerprint: str | None = None
    """Native sessions on providers with a fixed prefix: the instructions and tools of the first turn."""
    revision: int = 0
    status: Status = "ready"
    active_run: SessionRun | None = None
    interrupted_turn: InterruptedTurnRecord | None = None
    deleted: bool = False
    timer: asyncio.TimerHandle | None = None
    native_filter: str = "full"
    """What a native session keeps of each stored turn."""
    accounting: Accounting = field(default_factory=Accounting)
    tools_fingerprint: str | None = None
    """A digest of the tool surface (names, descriptions, schemas) at the session's first turn."""
