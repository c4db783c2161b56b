"""Per-subject quotas (host JSON ``limits.perSubject``): what one subject may hold on this host process.

Three bounds, each off unless set: stored sessions (counted by the session store), active runs (counted by
the run registry) and runs started in any 60 seconds (a sliding window kept here). Admission checks them
synchronously, with its other bounds, so of two requests racing for a subject's last place exactly one gets
it; a refusal is ``SUBJECT_QUOTA_EXCEEDED`` before any model work. An idempotent replay starts no run and is
never refused here: it is answered before admission.

The window keeps at most ``runsPerMinute`` start times per subject, and a subject whose newest start left
the window is dropped, so memory follows the subjects active in the last minute, not every subject ever seen.
"""

from __future__ import annotations

from collections import OrderedDict, deque
from collections.abc import Callable
from typing import NoReturn

from .clock import Clock
from .config import PerSubjectConfig
from .errors import SubjectQuotaExceeded

__all__ = ["WINDOW_MS", "SubjectQuotas"]

WINDOW_MS = 60_000
"""The rate's window: ``runsPerMinute`` counts the runs started in the last 60 seconds."""


class SubjectQuotas:
    def __init__(
        self, limits: PerSubjectConfig, clock: Clock, on_refusal: Callable[[str], None] = lambda limit: None
    ) -> None:
        self.limits = limits
        self._clock = clock
        self._on_refusal = on_refusal
        self._starts: OrderedDict[str, deque[int]] = OrderedDict()
        """Start times (ms) of each subject's runs still in the window, least recently started subject first."""

    @property
    def enabled(self) -> bool:
        limits = self.limits
        return limits.maxSessions is not None or limits.maxActiveRuns is not None or limits.runsPerMinute is not None

    def session_fits(self, held: int) -> bool:
        """Whether a subject holding ``held`` stored sessions may store one more."""
        maximum = self.limits.maxSessions
        return maximum is None or held < maximum

    def refuse_session(self) -> NoReturn:
        maximum = self.limits.maxSessions
        assert maximum is not None
        self._refuse(
            "perSubject.maxSessions",
            maximum,
            f"This caller already holds its maximum of {maximum} stored "
            "sessions on this host; delete one or let one expire.",
        )

    def check_run(self, subject: str, active: int) -> None:
        """Refuse a new run when ``subject`` has ``maxActiveRuns`` active, or started ``runsPerMinute`` in the
        window (with ``Retry-After``: until the oldest of them leaves it)."""
        limits = self.limits
        if limits.maxActiveRuns is not None and active >= limits.maxActiveRuns:
            self._refuse(
                "perSubject.maxActiveRuns",
                limits.maxActiveRuns,
                f"This caller already has its maximum of "
                f"{limits.maxActiveRuns} active runs on this host; retry when one has ended.",
            )
        rate = limits.runsPerMinute
        if rate is None:
            return
        starts = self._starts.get(subject)
        if starts is None:
            return
        now = self._clock.now_ms()
        _drop_before(starts, now - WINDOW_MS)
        if len(starts) >= rate:
            wait_ms = starts[0] + WINDOW_MS - now
            self._refuse(
                "perSubject.runsPerMinute",
                rate,
                f"This caller started its maximum of {rate} runs in the last minute on this host.",
                retry_after_seconds=max(1, -(-wait_ms // 1000)),
            )

    def note_run(self, subject: str) -> None:
        """An admitted run of ``subject`` started now (after ``check_run`` let it through)."""
        if self.limits.runsPerMinute is None:
            return
        now = self._clock.now_ms()
        starts = self._starts.get(subject)
        if starts is None:
            starts = self._starts[subject] = deque(maxlen=self.limits.runsPerMinute)
        else:
            self._starts.move_to_end(subject)
        starts.append(now)
        self._forget_quiet_subjects(now - WINDOW_MS)

    def tracked_subjects(self) -> int:
        """Subjects with a run start in the window (what the rate keeps in memory)."""
        return len(self._starts)

    def _forget_quiet_subjects(self, horizon_ms: int) -> None:
        while self._starts:
            subject, starts = next(iter(self._starts.items()))
            if starts[-1] > horizon_ms:
                return
            del self._starts[subject]

    def _refuse(self, limit: str, maximum: int, detail: str, *, retry_after_seconds: int | None = None) -> NoReturn:
        self._on_refusal(limit)
        raise SubjectQuotaExceeded(detail, limit=limit, maximum=maximum, retry_after_seconds=retry_after_seconds)


def _drop_before(starts: deque[int], horizon_ms: int) -> None:
    while starts and starts[0] <= horizon_ms:
        starts.popleft()
