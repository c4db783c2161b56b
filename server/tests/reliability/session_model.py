"""The session contract as a sequential model, for the linearizability checker.

One model instance describes one session from the moment ``createSession``
answered (revision 0, ready, empty history). A state is

    (exists, committed, interrupted_by, active)

``committed`` is the tuple of run operations whose turns completed, in
revision order (so the revision is its length and the visible history is
those runs' inputs and replies); ``interrupted_by`` the run that interrupted
the session; ``active`` the run that is the session's active turn (running,
waiting for a slot, or paused), if any.

A run is not one atomic step: it is *admitted* (becomes the active turn) and
later *finishes* (commit, interrupt, or release back to ready), both inside
the interval between its request and its answer. So one run request becomes
two model inputs, ``Admit`` and ``Finish``; the model orders them (a run can
only finish while it is the active turn). Refusals, reads, deletes and the
session a cancel reports are single steps.

The rules are CONTRACT.md's, in the order the host checks them:

- a run on a missing session: SESSION_NOT_FOUND;
- on an interrupted session: SESSION_INTERRUPTED;
- a revision other than the current one: SESSION_REVISION_CONFLICT with the
  current revision;
- a turn is active: SESSION_BUSY naming the active run;
- the turn would outgrow the record: SESSION_LIMIT_EXCEEDED;
- otherwise the run is admitted; a completed turn advances the revision by
  exactly one and appends its input and reply; a turn stopped after model work
  started interrupts the session; one stopped before returns it to ready;
- delete removes the session (and ends its active turn, which then answers
  RUN_CANCELLED with reason session_deleted);
- read shows revision, status (running while a turn is active) and history.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from typing import Any

__all__ = [
    "Admit",
    "Delete",
    "Finish",
    "Observe",
    "Read",
    "Refuse",
    "SessionModel",
    "State",
    "status_of",
]

State = tuple[bool, tuple[int, ...], int | None, int | None]

COMMIT, INTERRUPT, RELEASE, DELETED = "commit", "interrupt", "release", "deleted"


@dataclass(frozen=True)
class Admit:
    op: int
    revision: int


@dataclass(frozen=True)
class Finish:
    op: int
    kinds: frozenset[str]
    """How the turn may have ended: any of commit, interrupt, release, deleted."""
    revision: int | None = None
    """On a seen commit, the revision the answer reported."""


@dataclass(frozen=True)
class Refuse:
    op: int
    revision: int
    code: str
    current_revision: int | None = None
    active_run_id: str | None = None


@dataclass(frozen=True)
class Read:
    """A read's observation; ``committed`` None means SESSION_NOT_FOUND."""

    committed: tuple[int, ...] | None
    status: str | None = None
    interrupted_by: int | None = None


@dataclass(frozen=True)
class Observe:
    """The session as a cancel's answer reported it (revision and status only); None: it was gone."""

    revision: int | None
    status: str | None = None


@dataclass(frozen=True)
class Delete:
    found: bool


def status_of(state: State) -> str:
    _, _, interrupted_by, active = state
    if interrupted_by is not None:
        return "interrupted"
    return "running" if active is not None else "ready"


class SessionModel:
    def __init__(self, max_messages: int = 100, run_ids: dict[int, str] | None = None) -> None:
        self.max_messages = max_messages
        self.run_ids = run_ids or {}
        """Run id of each run operation, where the history revealed it (to check SESSION_BUSY's activeRunId)."""
        self.ops_by_run = {run_id: op for op, run_id in self.run_ids.items()}

    def init(self) -> Hashable:
        return (True, (), None, None)

    def step(self, state: Any, input: Any, output: Any) -> Iterable[Hashable]:
        exists, committed, interrupted_by, active = state
        if isinstance(input, Admit):
            admissible = exists and interrupted_by is None and active is None and input.revision == len(committed)
            if admissible and 2 * len(committed) + 2 <= self.max_messages:
                return [(exists, committed, None, input.op)]
            return []
        if isinstance(input, Finish):
            if active != input.op:
                return []
            after: list[State] = []
            if exists and COMMIT in input.kinds and input.revision in (None, len(committed) + 1):
                after.append((True, (*committed, input.op), None, None))
            if exists and INTERRUPT in input.kinds:
                after.append((True, committed, input.op, None))
            if exists and RELEASE in input.kinds:
                after.append((True, committed, None, None))
            if not exists and DELETED in input.kinds:
                after.append((False, committed, interrupted_by, None))
            return after
        if isinstance(input, Refuse):
            return [state] if self._refusal_fits(state, input) else []
        if isinstance(input, Read):
            if input.committed is None:
                return [state] if not exists else []
            fits = (
                exists
                and input.committed == committed
                and input.status == status_of(state)
                and input.interrupted_by == interrupted_by
            )
            return [state] if fits else []
        if isinstance(input, Observe):
            if input.revision is None:
                return [state] if not exists else []
            return [state] if exists and (input.revision, input.status) == (len(committed), status_of(state)) else []
        if isinstance(input, Delete):
            if input.found:
                return [(False, committed, interrupted_by, active)] if exists else []
            return [state] if not exists else []
        raise TypeError(f"not a session model input: {input!r}")

    def _refusal_fits(self, state: State, refusal: Refuse) -> bool:
        exists, committed, interrupted_by, active = state
        revision = len(committed)
        code = refusal.code
        if code == "SESSION_NOT_FOUND":
            return not exists
        if not exists:
            return False
        if code == "SESSION_INTERRUPTED":
            return interrupted_by is not None
        if interrupted_by is not None:
            return False
        if code == "SESSION_REVISION_CONFLICT":
            return refusal.revision != revision and refusal.current_revision == revision
        if refusal.revision != revision:
            return False
        if code == "SESSION_BUSY":
            if active is None:
                return False
            named = self.ops_by_run.get(refusal.active_run_id or "")
            if named is not None:
                return named == active
            return self.run_ids.get(active) in (None, refusal.active_run_id)
        if active is not None:
            return False
        if code == "SESSION_LIMIT_EXCEEDED":
            return 2 * revision + 2 > self.max_messages
        return False
