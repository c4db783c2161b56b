"""A linearizability checker: Wing & Gong's search with Lowe's memoisation (as in porcupine).

A history is a list of ``Operation``s, each with the time it was invoked and the
time its response arrived (``math.inf`` when no response was seen: the
operation still takes effect, at some point after its invocation). The history is
linearizable with respect to a sequential ``Model`` if some total order of the
operations (1) respects real time: an operation whose response came before
another's invocation is ordered first, and (2) is a legal sequential run of
the model, each operation producing the output that was observed.

The search (Lowe, "Testing for linearizability", 2017, after Wing & Gong 1993)
walks a doubly linked list of call and return entries in time order. At a call
entry it tries to linearize that operation now (the model must accept it from
the current state); on success the call and its return are lifted out of the
list and the search restarts at the head. Meeting a return entry means some
operation that must already have happened could not be placed: the search
backtracks to the most recent choice. The pair (set of linearized operations,
model state) is cached: reaching it again cannot lead anywhere new, which keeps
the search small for real histories.

Nondeterministic models (``step`` may return several next states) are handled
by searching over *sets* of states, the standard power-set construction.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

__all__ = ["CheckResult", "Model", "Operation", "SearchBudgetExceeded", "check"]


@dataclass(frozen=True)
class Operation:
    call: float
    ret: float
    input: Any
    output: Any = None
    label: str = ""
    """For reports only."""


class Model(Protocol):
    def init(self) -> Hashable: ...

    def step(self, state: Any, input: Any, output: Any) -> Iterable[Hashable]:
        """Every state the model may be in after applying ``input`` and observing ``output`` (none: illegal)."""
        ...


class SearchBudgetExceeded(RuntimeError):
    """The search took more steps than allowed: neither proved nor refuted (make the history smaller)."""


@dataclass
class CheckResult:
    ok: bool
    steps: int
    linearization: list[int] = field(default_factory=list)
    """On success, operation indexes in a legal order; on failure, the longest legal prefix found."""

    def explain(self, history: Sequence[Operation]) -> str:
        lines = [("linearizable" if self.ok else "NOT linearizable") + f" ({self.steps} search steps)"]
        lines.append("longest legal prefix:" if not self.ok else "one legal order:")
        lines += [f"  {history[i].label or history[i].input}" for i in self.linearization]
        if not self.ok:
            placed = set(self.linearization)
            lines.append("could not place any of:")
            lines += [
                f"  [{op.call:.4f} .. {op.ret:.4f}] {op.label or op.input} -> {op.output}"
                for i, op in enumerate(history)
                if i not in placed
            ]
        return "\n".join(lines)


class _Entry:
    __slots__ = ("id", "is_call", "match", "next", "prev")

    def __init__(self, op_id: int, is_call: bool) -> None:
        self.id = op_id
        self.is_call = is_call
        self.match: _Entry | None = None
        self.prev: _Entry | None = None
        self.next: _Entry | None = None


def _entries(history: Sequence[Operation]) -> _Entry:
    """The time-ordered call/return list behind a sentinel head. At equal times calls come first, so
    operations that touch at an instant count as concurrent (the lenient, and safe, reading)."""
    events: list[tuple[float, int, int]] = []
    for index, op in enumerate(history):
        if not op.call <= op.ret:
            raise ValueError(f"operation {index} returns before it is called: {op}")
        events.append((op.call, 0, index))
        events.append((op.ret, 1, index))
    events.sort()
    head = _Entry(-1, False)
    calls: dict[int, _Entry] = {}
    last = head
    for _, kind, index in events:
        entry = _Entry(index, kind == 0)
        if kind == 0:
            calls[index] = entry
        else:
            calls[index].match = entry
        entry.prev = last
        last.next = entry
        last = entry
    return head


def _lift(entry: _Entry) -> None:
    assert entry.prev is not None and entry.match is not None
    entry.prev.next = entry.next
    if entry.next is not None:
        entry.next.prev = entry.prev
    match = entry.match
    assert match.prev is not None
    match.prev.next = match.next
    if match.next is not None:
        match.next.prev = match.prev


def _unlift(entry: _Entry) -> None:
    match = entry.match
    assert match is not None and match.prev is not None and entry.prev is not None
    match.prev.next = match
    if match.next is not None:
        match.next.prev = match
    entry.prev.next = entry
    if entry.next is not None:
        entry.next.prev = entry


def check(model: Model, history: Sequence[Operation], *, max_steps: int = 5_000_000) -> CheckResult:
    """Decide whether ``history`` is linearizable with respect to ``model``."""
    head = _entries(history)
    states: frozenset[Hashable] = frozenset([model.init()])
    linearized = 0
    cache: set[tuple[int, frozenset[Hashable]]] = set()
    stack: list[tuple[_Entry, frozenset[Hashable]]] = []
    best: list[int] = []
    steps = 0
    entry = head.next
    while head.next is not None:
        steps += 1
        if steps > max_steps:
            raise SearchBudgetExceeded(f"no verdict after {max_steps} steps on {len(history)} operations")
        assert entry is not None, "a call entry always has its return after it"
        if entry.is_call:
            op = history[entry.id]
            following = frozenset(after for state in states for after in model.step(state, op.input, op.output))
            if following:
                bits = linearized | (1 << entry.id)
                if (bits, following) not in cache:
                    cache.add((bits, following))
                    stack.append((entry, states))
                    if len(stack) > len(best):
                        best = [e.id for e, _ in stack]
                    states, linearized = following, bits
                    _lift(entry)
                    entry = head.next
                    continue
            entry = entry.next
        else:  # an operation that must have happened by now could not be placed: undo the latest choice
            if not stack:
                return CheckResult(False, steps, best)
            entry, states = stack.pop()
            linearized &= ~(1 << entry.id)
            _unlift(entry)
            entry = entry.next
    return CheckResult(True, steps, [e.id for e, _ in stack])


def pending() -> float:
    """The return time of an operation whose response was never seen."""
    return math.inf
