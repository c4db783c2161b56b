"""Host JSON bounds: ``sessions`` (and its ``snapshot``), ``limits`` (and ``perSubject``), ``runs``, ``idempotency``."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from .common import (
    DEFAULT_MAX_ENTRIES,
    DEFAULT_MAX_MESSAGES,
    DEFAULT_MAX_NATIVE_MESSAGES,
    DEFAULT_MAX_RECORD_BYTES,
    _Closed,
)


class SnapshotConfig(_Closed):
    """Sessions survive a planned restart: on a clean drain the host writes every session to ``path``, encrypted;
    its next start restores them before it reports ready and deletes the file (a crash writes nothing)."""

    path: Annotated[str, Field(min_length=1)]
    """The snapshot file; ``{hostId}`` in it is replaced by the process's host id, so processes that share one host
    JSON keep one file each. Its directory must exist; the file is written mode 0600 by a rename."""
    keyEnv: Annotated[str, Field(pattern=r"^[A-Za-z_][A-Za-z0-9_]*$")]
    """The environment variable holding the AES-256-GCM key: 32 bytes as 64 hex digits or in base64."""


class SessionsConfig(_Closed):
    """The session store; omit the block to disable sessions. The bounds may only tighten the defaults."""

    retentionMs: Annotated[int, Field(ge=1)]
    """Idle retention, counted from creation or the end of the last turn and suspended while a turn is active;
    required, because it is what enables the store."""
    maxEntries: Annotated[int, Field(ge=1, le=DEFAULT_MAX_ENTRIES)] = DEFAULT_MAX_ENTRIES
    """Sessions stored at once (SESSION_STORE_FULL beyond)."""
    maxMessages: Annotated[int, Field(ge=1, le=DEFAULT_MAX_MESSAGES)] = DEFAULT_MAX_MESSAGES
    """Visible messages per session (SESSION_LIMIT_EXCEEDED beyond)."""
    maxRecordBytes: Annotated[int, Field(ge=1, le=DEFAULT_MAX_RECORD_BYTES)] = DEFAULT_MAX_RECORD_BYTES
    """Bytes one stored session may take (SESSION_LIMIT_EXCEEDED beyond)."""
    maxNativeMessages: Annotated[int, Field(ge=1, le=DEFAULT_MAX_NATIVE_MESSAGES)] = DEFAULT_MAX_NATIVE_MESSAGES
    """Provider items a native session may keep (SESSION_LIMIT_EXCEEDED beyond)."""
    compactToolResultsMaxChars: Annotated[int, Field(ge=1)] = 500
    """The most of each tool result a ``compact_tool_results`` native session keeps, its ellipsis included."""
    snapshot: SnapshotConfig | None = None
    """Opt-in: keep sessions across a planned restart (docs/operating.md, Restarting without losing sessions)."""


DEFAULT_MAX_ATTACHMENT_BYTES = 5 * 1024 * 1024
DEFAULT_MAX_RUN_EVENT_BYTES = 1024 * 1024
DEFAULT_RUN_RETENTION_MS = 5 * 60 * 1000
DEFAULT_MAX_ENDED_RUNS = 1_000
DEFAULT_MAX_RUN_ATTACHMENT_BYTES = 20 * 1024 * 1024


class PerSubjectConfig(_Closed):
    """Bounds on what one subject (a token's principal, its ``subjectPrefix`` included) may hold on this host
    process at once; each absent bound is unbounded. They are per process: behind a proxy of N hosts a subject
    may hold up to N times each. A refusal is ``SUBJECT_QUOTA_EXCEEDED`` 429, before any model work."""

    maxSessions: Annotated[int, Field(ge=1)] | None = None
    """Stored sessions a subject may hold (created, forked or imported); ``limit: perSubject.maxSessions``."""
    maxActiveRuns: Annotated[int, Field(ge=1)] | None = None
    """Runs of a subject active at once, those paused for function results included;
    ``limit: perSubject.maxActiveRuns``."""
    runsPerMinute: Annotated[int, Field(ge=1)] | None = None
    """Runs a subject may start in any 60 seconds (a sliding window; an idempotent replay starts none);
    ``limit: perSubject.runsPerMinute``, with ``Retry-After`` until the oldest leaves the window."""


class LimitsConfig(_Closed):
    maxConcurrentRuns: Annotated[int, Field(ge=1)] = 64
    """Run slots: model calls in flight at once; further runs wait (and their sessions are busy)."""
    maxQueuedRuns: Annotated[int, Field(ge=0)] = 256
    """Runs that may wait for a slot; beyond this a run is refused with HOST_BUSY."""
    maxWaitingRuns: Annotated[int, Field(ge=0)] = 256
    """Runs that may wait for the application at once. A run that offers functions (its own, or host tools
    that need approval) holds a place from admission until it ends, so at most this many runs are ever paused
    for function results or approvals; beyond, such a run is refused with HOST_BUSY (limit maxWaitingRuns).
    Separate from session retention, which stays suspended while a run waits."""
    maxBodyBytes: Annotated[int, Field(ge=1024)] = 4 * 1024 * 1024
    """The largest request body the host reads."""
    maxAttachmentBytes: Annotated[int, Field(ge=1)] = DEFAULT_MAX_ATTACHMENT_BYTES
    """The largest attachment a stateless run may send, decoded (5 MiB: Anthropic's image limit); beyond it
    ``ATTACHMENT_UNSUPPORTED``. Over HTTP ``maxBodyBytes`` bounds the base64 body first."""
    maxRunAttachmentBytes: Annotated[int, Field(ge=1)] = DEFAULT_MAX_RUN_ATTACHMENT_BYTES
    """All of a stateless run's attachments together, decoded (20 MiB: Gemini's inline request limit); beyond
    it ``ATTACHMENT_UNSUPPORTED``."""
    maxRunEventBytes: Annotated[int, Field(ge=1, le=DEFAULT_MAX_RUN_EVENT_BYTES)] = DEFAULT_MAX_RUN_EVENT_BYTES
    """The most bytes of one run's events kept for rejoining (``streamRunEvents``), counted as what they hold in
    memory; beyond it the oldest are dropped and a ``Last-Event-ID`` before them is RUN_EVENTS_EXPIRED. May only
    tighten the default (1 MiB)."""
    heartbeatMs: Annotated[int, Field(ge=10)] = 15_000
    """How long a stream may stay silent before the host sends an SSE comment."""
    streamStallMs: Annotated[int, Field(ge=100)] = 60_000
    """How long a stream's client may accept no data before the host treats it as disconnected."""
    drainTimeoutMs: Annotated[int, Field(ge=0)] = 30_000
    """On SIGTERM: how long admitted turns may take to finish before they are interrupted."""
    drainReadWindowMs: Annotated[int, Field(ge=0)] = 0
    """On SIGTERM, once admitted turns have ended (or were interrupted at drainTimeoutMs): how long the host
    keeps serving its own sessions' reads, deletes and cancels before it closes, so that clients can read a
    session's history and carry on elsewhere (new work is still SHUTTING_DOWN, /readyz 503). 0: it closes as
    soon as its turns have ended. A second SIGTERM or SIGINT ends the window at once."""
    bodyTimeoutMs: Annotated[int, Field(ge=100)] = 30_000
    """How long a request body may take to arrive (REQUEST_TIMEOUT beyond)."""
    requestHeadTimeoutMs: Annotated[int, Field(ge=100)] = 10_000
    """How long a connection may take to deliver a complete request head (after it opens or after its
    previous response) before the host closes it: idle and trickling connections do not pile up."""
    keepAliveTimeoutMs: Annotated[int, Field(ge=100)] = 5_000
    """How long an idle keep-alive connection stays open between requests."""
    maxHeaderBytes: Annotated[int, Field(ge=1024)] = 65_536
    """The largest request head (request line and headers) the host reads (HEADERS_TOO_LARGE beyond)."""
    maxConnections: Annotated[int, Field(ge=1)] = 1_000
    """Open connections at most; a connection beyond is answered HOST_BUSY (``limit: maxConnections``) and closed."""
    perSubject: PerSubjectConfig = PerSubjectConfig()
    """Opt-in bounds per subject (stored sessions, active runs, runs a minute); none by default."""


class RunsConfig(_Closed):
    """How long ended runs stay readable (``getRun``, ``streamRunEvents``); may only tighten the defaults."""

    retentionMs: Annotated[int, Field(ge=1, le=DEFAULT_RUN_RETENTION_MS)] = DEFAULT_RUN_RETENTION_MS
    """How long a run's state and events stay readable after it ends (5 minutes at most)."""
    maxEntries: Annotated[int, Field(ge=1, le=DEFAULT_MAX_ENDED_RUNS)] = DEFAULT_MAX_ENDED_RUNS
    """Ended runs kept readable at once; beyond, the oldest ended is forgotten first."""


class IdempotencyConfig(_Closed):
    maxKeys: Annotated[int, Field(ge=1)] = 1_000
    """Idempotency keys remembered per subject (the oldest is forgotten first)."""
    ttlMs: Annotated[int, Field(ge=1)] = 24 * 60 * 60 * 1000
    """How long a key is remembered."""
