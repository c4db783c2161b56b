"""Idempotency keys: a retried request replays the recorded outcome instead of running again.

Keys are per subject, bounded in number (oldest finished key forgotten first)
and in time (counted from the outcome); a key whose request is still running
is never forgotten, so a retry during a long turn cannot run it again.
A key is bound to a fingerprint of the operation and its request; only an
accepted request records an outcome (a refusal before acceptance forgets the
key, so a retry is evaluated afresh). ``KeyedRequests`` is what an operation
uses: claim the key, replay a finished outcome after checking that the caller
may still reach it, or forget the key when the request is refused.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from .. import views
from ..auth import SessionGrant, SessionPrincipal
from ..clock import Clock
from ..errors import DriverError, IdempotencyKeyInUse, IdempotencyKeyReused
from ..jsontext import canonical_json
from ..reach import Reach

if TYPE_CHECKING:  # views imports turns/, which imports this module: the name is for annotations only
    from ..views import StreamEvent

__all__ = ["IdempotencyStore", "KeyedRequests", "Recorded", "fingerprint", "json_digest"]


def json_digest(value: Any) -> str:
    """SHA-256 of ``value`` as canonical JSON (``jsontext.canonical_json``), UTF-8."""
    return hashlib.sha256(canonical_json(value).encode("utf-8")).hexdigest()


def fingerprint(operation: str, target: str, body: Any) -> str:
    """A digest of what the request asks for: operation, path target and canonical body."""
    return json_digest([operation, target, body])


@dataclass(slots=True)
class Recorded:
    fingerprint: str
    expires_ms: int
    done: bool = False
    result: Any = None
    """The response model of an accepted request, or None when it ended in ``error``."""
    error: DriverError | None = None
    session_id: str | None = None
    """The session the outcome belongs to; a replay checks it still exists for the caller."""
    provider: str | None = None
    """The provider instance the replaying caller must still be granted."""
    grant: SessionGrant | None = None
    """The session grant the replaying caller must still hold."""
    run_id: str | None = None
    """The run the request started (known from its admission on, while it is still in flight too)."""
    event_id: int | None = None
    """The id of the recorded outcome among its run's events (a replayed stream carries it)."""
    after: int = 0
    """The event after which the request's own events began (0 for the request that started the run)."""


class IdempotencyStore:
    def __init__(self, max_keys: int, ttl_ms: int, clock: Clock) -> None:
        self._max_keys = max_keys
        self._ttl_ms = ttl_ms
        self._clock = clock
        self._by_subject: dict[str, OrderedDict[str, Recorded]] = {}

    def claim(self, subject: str, key: str, digest: str) -> Recorded | None:
        """The finished record to replay, or None after claiming the key for a new request."""
        keys = self._by_subject.setdefault(subject, OrderedDict())
        now = self._clock.now_ms()
        record = keys.get(key)
        if record is not None and record.done and record.expires_ms <= now:
            del keys[key]
            record = None
        if record is not None:
            if record.fingerprint != digest:
                raise IdempotencyKeyReused(
                    "This Idempotency-Key was first used with a different request; use a new key for a new request."
                )
            if not record.done:
                raise IdempotencyKeyInUse(
                    "The first request with this Idempotency-Key is still running; retry when it has finished.",
                    retry_after_seconds=1,
                    run_id=record.run_id,
                    after=record.after,
                )
            return record
        keys[key] = Recorded(fingerprint=digest, expires_ms=now + self._ttl_ms)
        self._evict(keys)
        return None

    def _evict(self, keys: OrderedDict[str, Recorded]) -> None:
        """Forget the oldest finished keys beyond the bound; a key whose request still runs is kept."""
        excess = len(keys) - self._max_keys
        for key in [k for k, r in keys.items() if r.done][: max(excess, 0)]:
            del keys[key]

    def finished(self) -> list[tuple[str, str, Recorded]]:
        """Every key whose request has an outcome and is still remembered: (subject, key, record), oldest first."""
        now = self._clock.now_ms()
        return [
            (subject, key, record)
            for subject, keys in self._by_subject.items()
            for key, record in keys.items()
            if record.done and record.expires_ms > now
        ]

    def adopt(self, subject: str, key: str, record: Recorded) -> None:
        """Remember a finished key from this host's restart snapshot (after those it holds; bounds apply)."""
        keys = self._by_subject.setdefault(subject, OrderedDict())
        keys[key] = record
        self._evict(keys)

    def release(self, subject: str, key: str) -> None:
        """Forget a claimed key whose request was refused before it was accepted."""
        keys = self._by_subject.get(subject)
        if keys is not None:
            record = keys.get(key)
            if record is not None and not record.done:
                del keys[key]
                if not keys:
                    del self._by_subject[subject]

    def note_run(self, subject: str, key: str, run_id: str, after: int) -> None:
        """The claimed key's request was admitted on ``run_id``, its events following event ``after`` (a retry
        while it runs may join it there)."""
        record = self._by_subject.get(subject, OrderedDict()).get(key)
        if record is not None and not record.done:
            record.run_id = run_id
            record.after = after

    def record(
        self,
        subject: str,
        key: str,
        *,
        result: Any = None,
        error: DriverError | None = None,
        session_id: str | None = None,
        provider: str | None = None,
        grant: SessionGrant | None = None,
        run_id: str | None = None,
        event_id: int | None = None,
    ) -> None:
        record = self._by_subject.get(subject, OrderedDict()).get(key)
        if record is not None:
            record.expires_ms = self._clock.now_ms() + self._ttl_ms  # kept for ttl after the outcome
            record.done = True
            record.result = result
            record.error = error
            record.session_id = session_id
            record.provider = provider
            record.grant = grant
            record.run_id = run_id
            record.event_id = event_id


class KeyedRequests:
    """The idempotency keys as the operations use them, for the subject of the caller."""

    def __init__(self, store: IdempotencyStore, reach: Reach) -> None:
        self.store = store
        self._reach = reach

    def claim(
        self, principal: SessionPrincipal, key: str | None, operation: str, target: str, body: BaseModel
    ) -> Recorded | None:
        """The finished outcome to replay, or None (no key, or the key is now claimed for this request)."""
        if key is None:
            return None
        digest = fingerprint(operation, target, body.model_dump(mode="json"))
        return self.store.claim(principal.subject, key, digest)

    def release(self, principal: SessionPrincipal, key: str | None) -> None:
        if key is not None:
            self.store.release(principal.subject, key)

    def replay(self, recorded: Recorded, principal: SessionPrincipal) -> Any:
        """The recorded outcome, after checking that the caller may still reach it."""
        if recorded.provider is not None:
            principal.require_provider(recorded.provider)
        if recorded.grant is not None:
            principal.require_grant(recorded.grant)
        if recorded.session_id is not None:
            self._reach.owned_session(principal, recorded.session_id)
        if recorded.error is not None:
            raise recorded.error
        return recorded.result

    def replayed_stream(self, recorded: Recorded, principal: SessionPrincipal) -> ReplayedOutcome:
        """One event with the recorded outcome, with its original id; access is checked now, before any event
        is sent. (A run still retained replays all its events instead: ``RunAdmission.replay_stream``.)"""
        try:
            result = self.replay(recorded, principal)
        except DriverError as error:
            if error is not recorded.error:
                raise  # a failed access check, not the recorded outcome
            result = None
        event = views.outcome_event(recorded.run_id or "", result, recorded.error)
        return ReplayedOutcome(recorded.event_id or 1, event)


class ReplayedOutcome:
    """A replayed stream of one event, the recorded outcome, with the id it had among its run's events."""

    def __init__(self, event_id: int, event: StreamEvent) -> None:
        self.event_id = event_id
        self._event: StreamEvent | None = event

    def __aiter__(self) -> ReplayedOutcome:
        return self

    async def __anext__(self) -> StreamEvent:
        event, self._event = self._event, None
        if event is None:
            raise StopAsyncIteration
        return event
