"""The bounded, in-memory session store: revisions, retention, bounds.

Every operation is O(1) in the number of stored sessions except the sweep a
full store makes before refusing a new session. Idle records expire by loop
timers (which never keep a process alive) and every access checks expiry too,
so an injected clock alone decides what has expired.
"""

from __future__ import annotations

import asyncio
import contextvars
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..clock import Clock
from ..config import SessionsConfig
from ..errors import SessionLimitExceeded, SessionRevisionConflict, SessionStoreFull, ValidationFailed
from ..ids import HostIds
from ..providers.base import VisibleMessage
from ..quotas import SubjectQuotas
from .records import (
    InterruptedTurnRecord,
    Mode,
    Owner,
    RunFigures,
    SessionRecord,
    SessionRun,
    TurnLog,
    TurnRecord,
    message_bytes,
)

__all__ = ["SessionStore", "TurnGrowth"]


@dataclass(frozen=True, slots=True)
class TurnGrowth:
    """What a completed turn adds to a record."""

    run_id: str
    messages: tuple[VisibleMessage, ...]
    native: tuple[str, ...] = ()
    tools_fingerprint: str | None = None
    """The turn's tool surface; the session keeps the first completed turn's."""


class SessionStore:
    """Every change to a ``SessionRecord`` is made here, so the record's invariants (revision, bounds,
    status, retention) hold by construction; everything else only reads records."""

    def __init__(
        self,
        policy: SessionsConfig,
        clock: Clock,
        on_change: Callable[[int], None] = lambda size: None,
        *,
        ids: HostIds | None = None,
        quotas: SubjectQuotas | None = None,
    ) -> None:
        self.policy = policy
        self._quotas = quotas
        """``limits.perSubject``: the stored sessions a subject may hold."""
        self._held: dict[str, int] = {}
        """Stored sessions per subject; a subject with none has no entry."""
        self._ids = ids or HostIds("local-host")
        self._clock = clock
        self._records: dict[str, SessionRecord] = {}
        self._on_change = on_change
        # The context this store's retention timers run in: no request's (the callback sets no variable). One
        # per store, not per module: a context cannot be entered twice at once, and two stores may serve two
        # event loops in two threads; one store's timers all run on its own loop, one after another.
        self._timer_context = contextvars.Context()

    def __len__(self) -> int:
        return len(self._records)

    def pending_timers(self) -> int:
        """Expiry timers scheduled now (one per idle record, none for a record with an active turn)."""
        return sum(1 for record in self._records.values() if record.timer is not None)

    # -- lifecycle of records -------------------------------------------------

    def create(
        self,
        owner: Owner,
        mode: Mode,
        instructions: str | None,
        history: Sequence[VisibleMessage],
        *,
        native_filter: str = "full",
    ) -> SessionRecord:
        """Store a new ready session at revision 0, or refuse it with a clear error."""
        size = _text_bytes(instructions) + sum(message_bytes(m) for m in history)
        self._check_messages(len(history), "The imported history")
        self._check_bytes(size, "The imported history and instructions")
        self._make_room(owner.subject)
        now = self._clock.now_ms()
        record = SessionRecord(
            id=self._ids.new_session_id(),
            owner=owner,
            mode=mode,
            instructions=instructions,
            history=list(history),
            created_ms=now,
            updated_ms=now,
            expires_ms=None,
            record_bytes=size,
            imported=len(history),
            native_filter=native_filter,
        )
        self._insert(record)
        self._start_idle(record, now)
        return record

    def adopt(self, record: SessionRecord) -> None:
        """Store a restored record (bounds apply). It keeps its id only when that id names this host and is
        free here; otherwise it gets a new id of this host, so requests for it reach this process."""
        self._check_record(record, "The imported session")
        self._make_room(record.owner.subject)
        if record.id in self._records or not self._ids.owns(record.id):
            record.id = self._ids.new_session_id()
        record.status = "interrupted" if record.interrupted_turn is not None else "ready"
        now = self._clock.now_ms()
        record.updated_ms = now
        self._insert(record)
        self._start_idle(record, now)

    def fork(self, source: SessionRecord, boundary: int) -> SessionRecord:
        """A new ready session of the same owner holding ``source`` as it was at revision ``boundary``: history,
        turns and native state, at that revision, accounting at zero; or SESSION_REVISION_CONFLICT when the
        session holds no such state now."""
        kept = _turns_at(source, boundary)
        if kept is None:
            raise SessionRevisionConflict(
                f"The session holds no state at revision {boundary}: it is at revision {source.revision}, and "
                "a fork starts at 0 (the imported history), the current revision or a recorded turn's revision "
                "(readSession lists them).",
                current_revision=source.revision,
            )
        self._make_room(source.owner.subject)
        last = source.turns[kept - 1] if kept else None
        now = self._clock.now_ms()
        record = SessionRecord(
            id=self._ids.new_session_id(),
            owner=source.owner,
            mode=source.mode,
            instructions=source.instructions,
            history=source.history[: last.end if last else source.imported],
            created_ms=now,
            updated_ms=now,
            expires_ms=None,
            record_bytes=0,
            imported=source.imported,
            native=source.native[: last.native_end if last else 0],
            turns=TurnLog(source.turns[:kept]),
            prefix_fingerprint=source.prefix_fingerprint if kept else None,
            revision=boundary,
            native_filter=source.native_filter,
            tools_fingerprint=source.tools_fingerprint if kept else None,
        )
        record.record_bytes = _record_bytes(record)
        self._insert(record)
        self._start_idle(record, now)
        return record

    def restore(self, record: SessionRecord, expires_ms: int, prefix_fingerprint: str | None = None) -> None:
        """Store a record from this host's own restart snapshot exactly as it was (id, revision, times, expiry),
        or refuse it with the bound it no longer fits (``SessionLimitExceeded``, ``SessionStoreFull``)."""
        if record.id in self._records or not self._ids.owns(record.id):
            raise ValueError(f"session {record.id!r} is not this host's or is stored already")
        self._check_record(record, "The restored session")
        self._make_room()
        record.status = "interrupted" if record.interrupted_turn is not None else "ready"
        record.expires_ms = expires_ms
        record.prefix_fingerprint = prefix_fingerprint
        self._insert(record)
        self._schedule_expiry(record, expires_ms, self._clock.now_ms())

    def records(self) -> list[SessionRecord]:
        """Every stored record, expired ones removed first."""
        self._sweep_expired(self._clock.now_ms())
        return list(self._records.values())

    def arm_timers(self) -> None:
        """Schedule the expiry of every idle record that has no timer (those stored before the loop ran)."""
        now = self._clock.now_ms()
        for record in self._records.values():
            if record.timer is None and record.expires_ms is not None:
                self._schedule_expiry(record, record.expires_ms, now)

    def get(self, session_id: str) -> SessionRecord | None:
        """The live record, or None when unknown or expired (an expired one is removed now)."""
        record = self._records.get(session_id)
        if record is not None and self._expired(record, self._clock.now_ms()):
            self._remove(record)
            return None
        return record

    def delete(self, record: SessionRecord) -> None:
        self._remove(record)

    # -- turns ----------------------------------------------------------------

    def check_growth(self, record: SessionRecord, input_text: str) -> None:
        """Refuse, before any model work, a turn that cannot fit whatever the reply."""
        self._check_messages(len(record.history) + 2, "The turn")
        user_bytes = message_bytes(VisibleMessage("user", input_text))
        self._check_bytes(record.record_bytes + user_bytes, "The turn's input")

    def begin_turn(
        self, record: SessionRecord, run: SessionRun | None = None, *, prefix_fingerprint: str | None = None
    ) -> None:
        """``run`` is the record's active turn: retention is suspended until it ends.

        ``prefix_fingerprint``, when given, is the request prefix the session holds its native turns to from now on.
        """
        record.active_run = run
        if prefix_fingerprint is not None:
            record.prefix_fingerprint = prefix_fingerprint
        record.status = "running"
        record.expires_ms = None
        self._cancel_timer(record)
        record.updated_ms = self._clock.now_ms()

    def commit_turn(self, record: SessionRecord, growth: TurnGrowth) -> None:
        """Append a completed turn and advance the revision by exactly one."""
        added = sum(message_bytes(m) for m in growth.messages) + sum(len(i.encode()) for i in growth.native)
        self._check_messages(len(record.history) + len(growth.messages), "The turn")
        self._check_bytes(record.record_bytes + added, "The turn")
        if len(record.native) + len(growth.native) > self.policy.maxNativeMessages:
            raise SessionLimitExceeded(
                f"The turn would make the session hold {len(record.native) + len(growth.native)} native "
                f"messages; maxNativeMessages is {self.policy.maxNativeMessages}.",
                limit="maxNativeMessages",
                maximum=self.policy.maxNativeMessages,
            )
        now = self._clock.now_ms()
        start = len(record.history)
        if record.tools_fingerprint is None:
            record.tools_fingerprint = growth.tools_fingerprint
        record.history.extend(growth.messages)
        record.native.extend(growth.native)
        record.record_bytes += added
        record.revision += 1
        record.turns.append(
            TurnRecord(record.revision, growth.run_id, start, len(record.history), now, len(record.native))
        )
        self._end_turn(record, now)

    def truncate(self, record: SessionRecord, keep_turns: int) -> None:
        """Keep the first ``keep_turns`` turns (and the imported history); advance the revision.

        A pure prefix: nothing kept is rewritten. An interrupted session becomes ready again.
        """
        if keep_turns > len(record.turns):
            raise ValidationFailed(
                f"The session records {len(record.turns)} turns; keepTurns {keep_turns} is more.",
                errors=[{"location": "body.keepTurns", "message": f"at most {len(record.turns)}"}],
            )
        last = record.turns[keep_turns - 1] if keep_turns else None
        del record.history[last.end if last else record.imported :]
        del record.native[last.native_end if last else 0 :]
        record.turns.keep(keep_turns)
        record.record_bytes = _record_bytes(record)
        record.interrupted_turn = None
        record.revision += 1
        self._cancel_timer(record)
        self._end_turn(record, self._clock.now_ms())

    def account(self, record: SessionRecord, run: RunFigures) -> None:
        """Add what a run consumed to its session's figures (a deleted session counts nothing more)."""
        if not record.deleted:
            record.accounting.add(run)

    def end_turn_without_commit(self, record: SessionRecord, interrupted: InterruptedTurnRecord | None) -> None:
        """The active turn stopped: interrupted if model work had started, else ready again."""
        if interrupted is not None:
            record.interrupted_turn = interrupted
        self._end_turn(record, self._clock.now_ms())

    # -- internals ------------------------------------------------------------

    def _end_turn(self, record: SessionRecord, now: int) -> None:
        record.active_run = None
        record.status = "interrupted" if record.interrupted_turn is not None else "ready"
        record.updated_ms = now
        if not record.deleted:
            self._start_idle(record, now)

    def _start_idle(self, record: SessionRecord, now: int) -> None:
        record.expires_ms = now + self.policy.retentionMs
        self._schedule(record, self.policy.retentionMs)

    def _schedule_expiry(self, record: SessionRecord, expires_ms: int, now: int) -> None:
        """The timer of a record that expires at ``expires_ms`` (at once, if that has passed)."""
        self._schedule(record, max(expires_ms - now, 1))

    def _schedule(self, record: SessionRecord, delay_ms: int) -> None:
        self._cancel_timer(record)
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop (synchronous use): access-time checks still expire it
            return
        # In an empty context: the loop would otherwise copy the caller's, and a session's timer would keep
        # the request that last touched it (its RequestContext, ids, path) alive for the whole retention.
        record.timer = loop.call_later(delay_ms / 1000, self._on_timer, record, context=self._timer_context)

    def _on_timer(self, record: SessionRecord) -> None:
        record.timer = None
        if record.deleted or record.expires_ms is None:
            return
        now = self._clock.now_ms()
        if self._expired(record, now):
            self._remove(record)
        else:  # the injected clock is behind the loop's: look again when it should be due
            self._schedule_expiry(record, record.expires_ms, now)

    def _expired(self, record: SessionRecord, now: int) -> bool:
        return record.expires_ms is not None and now >= record.expires_ms

    def _remove(self, record: SessionRecord) -> None:
        if self._records.pop(record.id, None) is not None:
            subject = record.owner.subject
            left = self._held[subject] - 1
            if left:
                self._held[subject] = left
            else:
                del self._held[subject]
            record.deleted = True
            self._cancel_timer(record)
            self._on_change(len(self._records))

    def _cancel_timer(self, record: SessionRecord) -> None:
        if record.timer is not None:
            record.timer.cancel()
            record.timer = None

    def _sweep_expired(self, now: int) -> None:
        for record in [r for r in self._records.values() if self._expired(r, now)]:
            self._remove(record)

    def _insert(self, record: SessionRecord) -> None:
        self._records[record.id] = record
        subject = record.owner.subject
        self._held[subject] = self._held.get(subject, 0) + 1
        self._on_change(len(self._records))

    def held_by(self, subject: str) -> int:
        """How many sessions ``subject`` holds in this store."""
        return self._held.get(subject, 0)

    def _make_room(self, subject: str | None = None) -> None:
        """Refuse a new record of ``subject`` over its quota (``None``: a restart's own record, never refused
        by a quota), then one that would exceed ``maxEntries``; expired records are swept first."""
        quotas = self._quotas
        if subject is not None and quotas is not None and not quotas.session_fits(self.held_by(subject)):
            self._sweep_expired(self._clock.now_ms())
            if not quotas.session_fits(self.held_by(subject)):
                quotas.refuse_session()
        if len(self._records) < self.policy.maxEntries:
            return
        now = self._clock.now_ms()
        self._sweep_expired(now)
        if len(self._records) >= self.policy.maxEntries:
            raise SessionStoreFull(
                f"The session store holds its maximum of {self.policy.maxEntries} sessions.",
                maximum=self.policy.maxEntries,
                retry_after_seconds=self._seconds_until_next_expiry(now),
            )

    def _seconds_until_next_expiry(self, now: int) -> int:
        pending = [r.expires_ms for r in self._records.values() if r.expires_ms is not None]
        wait_ms = (min(pending) - now) if pending else self.policy.retentionMs
        return max(1, math.ceil(wait_ms / 1000))

    def _check_record(self, record: SessionRecord, what: str) -> None:
        record.record_bytes = _record_bytes(record)
        self._check_messages(len(record.history), what)
        self._check_bytes(record.record_bytes, what)
        if len(record.native) > self.policy.maxNativeMessages:
            raise SessionLimitExceeded(
                f"{what} holds {len(record.native)} native messages; "
                f"maxNativeMessages is {self.policy.maxNativeMessages}.",
                limit="maxNativeMessages",
                maximum=self.policy.maxNativeMessages,
            )

    def _check_messages(self, count: int, what: str) -> None:
        if count > self.policy.maxMessages:
            raise SessionLimitExceeded(
                f"{what} would make the session hold {count} messages; maxMessages is {self.policy.maxMessages}.",
                limit="maxMessages",
                maximum=self.policy.maxMessages,
            )

    def _check_bytes(self, size: int, what: str) -> None:
        if size > self.policy.maxRecordBytes:
            raise SessionLimitExceeded(
                f"{what} would make the session record {size} bytes; maxRecordBytes is {self.policy.maxRecordBytes}.",
                limit="maxRecordBytes",
                maximum=self.policy.maxRecordBytes,
            )


def _record_bytes(record: SessionRecord) -> int:
    """Everything a record counts against maxRecordBytes: instructions, visible history, native state."""
    return (
        _text_bytes(record.instructions)
        + sum(message_bytes(m) for m in record.history)
        + sum(len(item.encode()) for item in record.native)
    )


def _text_bytes(text: str | None) -> int:
    return len(text.encode("utf-8")) if text else 0


def _turns_at(record: SessionRecord, revision: int) -> int | None:
    """How many recorded turns the state at ``revision`` holds, or None when the session holds no such state
    now: 0 (the imported history), the current revision, or a recorded turn's revision."""
    if revision == record.revision:
        return len(record.turns)
    if revision == 0:
        return 0
    for index, turn in enumerate(record.turns):
        if turn.revision == revision:
            return index + 1
    return None
