"""The restart snapshot: a host that stops cleanly hands its sessions to its own next start.

Opt-in (host JSON ``sessions.snapshot``). After a clean drain (no turn active any more) the host writes every
stored session (the session envelope of ``envelope.py`` with its instructions, plus its owner, expiry and native
prefix) and every finished idempotency record to one file. Its next start, with the same ``hostId``, restores
them before it serves a request, then deletes the file: a later crash can never bring back an older state, so no
session's revision ever goes backwards. A crash writes nothing, and its sessions are lost, as without a snapshot.

The file, version 1 (integers big-endian)::

    b"AGDSNAP\\n"        magic, 8 bytes
    version             u16 (1)
    hostId              u8 length, then its ASCII bytes
    nonce               12 random bytes
    ciphertext + tag    AES-256-GCM of the payload (orjson), with every byte before the nonce as associated data,
                        so neither the host id nor the version can be changed without the tag failing

The key is 32 bytes from the environment variable ``keyEnv`` names (64 hex digits, or base64); it never appears
in a log line or a message.
"""

from __future__ import annotations

import base64
import binascii
import logging
import os
import secrets
import struct
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import orjson
from pydantic import BaseModel, ValidationError

from . import envelope
from .config import HostConfig, SnapshotConfig
from .errors import DriverError, SessionLimitExceeded, SessionStoreFull, error_of_problem
from .models import CreateSessionResponse, RunResult
from .turns.idempotency import Recorded

if TYPE_CHECKING:
    from .clock import Clock
    from .providers import Provider
    from .sessions import SessionRecord, SessionStore
    from .turns.idempotency import IdempotencyStore

__all__ = [
    "DROP_REASONS",
    "RestoreReport",
    "SnapshotNotWritten",
    "SnapshotRefused",
    "WriteReport",
    "configured",
    "load_key",
    "restore_at_start",
    "snapshot_path",
    "write_after_drain",
]

log = logging.getLogger("agentic_driver.snapshot")

MAGIC = b"AGDSNAP\n"
VERSION = 1
NONCE_BYTES = 12
KEY_BYTES = 32

DROP_REASONS = ("expired", "providerRemoved", "accountChanged", "modelRemoved", "overLimits")
"""Why a stored session is not restored (``SnapshotRestore.dropped`` in the spec)."""

_RESULTS: dict[str, type[BaseModel]] = {model.__name__: model for model in (RunResult, CreateSessionResponse)}
"""The outcomes an idempotency record may hold: a run's, and a created or forked session's."""


class Driver(Protocol):
    """What the snapshot reads and fills (``driver.Driver`` is one; a protocol, so this module imports no driver)."""

    host_id: str

    @property
    def store(self) -> SessionStore | None: ...

    @property
    def providers(self) -> Mapping[str, Provider]: ...

    @property
    def idempotency(self) -> IdempotencyStore: ...

    @property
    def clock(self) -> Clock: ...

    def active_runs(self) -> list[Any]: ...


class SnapshotRefused(Exception):
    """The snapshot cannot be used (key, file, host, version): the host must not start, and restored nothing."""


class SnapshotNotWritten(Exception):
    """The drained host could not write its snapshot (disk, permissions): its sessions are lost."""


@dataclass(frozen=True, slots=True)
class WriteReport:
    sessions: int
    idempotency_keys: int
    bytes: int
    elapsed_ms: float


@dataclass(slots=True)
class RestoreReport:
    sessions: int = 0
    idempotency_keys: int = 0
    dropped: dict[str, int] = field(default_factory=lambda: dict.fromkeys(DROP_REASONS, 0))
    elapsed_ms: float = 0.0

    def readiness(self) -> dict[str, Any]:
        """What ``/readyz`` says (``SnapshotRestore``)."""
        return {"sessions": self.sessions, "idempotencyKeys": self.idempotency_keys, "dropped": dict(self.dropped)}


# -- the key ------------------------------------------------------------------------------------------


def configured(config: HostConfig) -> SnapshotConfig | None:
    """The host's ``sessions.snapshot`` block, or None when it keeps no snapshot."""
    return config.sessions.snapshot if config.sessions is not None else None


def load_key(config: SnapshotConfig, environ: Mapping[str, str] = os.environ) -> bytes:
    """The 32-byte key from ``config.keyEnv``, or ``SnapshotRefused`` naming the variable (never its value)."""
    text = environ.get(config.keyEnv, "").strip()
    if not text:
        raise SnapshotRefused(f"sessions.snapshot.keyEnv: the environment variable {config.keyEnv} is not set")
    key = _decoded_key(text)
    if key is None:
        raise SnapshotRefused(
            f"sessions.snapshot.keyEnv: {config.keyEnv} must hold {KEY_BYTES} bytes as 64 hex digits or base64 "
            "(for example: python -c 'import secrets; print(secrets.token_hex(32))')"
        )
    return key


def _decoded_key(text: str) -> bytes | None:
    if len(text) == 2 * KEY_BYTES:
        try:
            return bytes.fromhex(text)
        except ValueError:
            pass
    for decode in (base64.b64decode, base64.urlsafe_b64decode):
        try:
            key = decode(text + "=" * (-len(text) % 4))
        except (binascii.Error, ValueError):
            continue
        if len(key) == KEY_BYTES:
            return key
    return None


# -- writing ------------------------------------------------------------------------------------------


def write_after_drain(driver: Driver, config: SnapshotConfig, key: bytes) -> WriteReport | None:
    """Write the snapshot if the drain was clean (no run active); None, with a warning, when it was not."""
    left = driver.active_runs()
    if left:
        log.warning(
            "no restart snapshot written: %d run(s) were still active when the host stopped; their sessions and "
            "every other are lost",
            len(left),
        )
        return None
    started = time.perf_counter()
    sessions = [_session_entry(driver, record) for record in _stored(driver)]
    keys = [_key_entry(subject, key_, record) for subject, key_, record in driver.idempotency.finished()]
    payload = orjson.dumps(
        {"writtenAtMs": driver.clock.now_ms(), "sessions": sessions, "idempotency": [k for k in keys if k]}
    )
    path = snapshot_path(config, driver.host_id)
    try:
        size = _write_sealed(path, _header(driver.host_id), payload, key)
    except OSError as error:
        raise SnapshotNotWritten(
            f"cannot write the restart snapshot {path} ({error.strerror}): this host's {len(sessions)} "
            "session(s) are lost"
        ) from None
    report = WriteReport(len(sessions), len(keys), size, (time.perf_counter() - started) * 1000)
    log.info(
        "restart snapshot written: %d session(s), %d idempotency record(s), %d bytes in %.1f ms to %s",
        report.sessions,
        report.idempotency_keys,
        report.bytes,
        report.elapsed_ms,
        path,
    )
    return report


def snapshot_path(config: SnapshotConfig, host_id: str) -> Path:
    """The file of this host process: ``{hostId}`` in ``path`` names it, so processes sharing one host JSON
    (``--host-id``) each keep their own."""
    return Path(config.path.replace("{hostId}", host_id))


def _stored(driver: Driver) -> list[SessionRecord]:
    store = driver.store
    return [] if store is None else store.records()


def _session_entry(driver: Driver, record: SessionRecord) -> dict[str, Any]:
    kind = driver.providers[record.owner.provider].kind
    return {
        "envelope": envelope.export_record(record, include_instructions=True, provider_kind=kind),
        "subject": record.owner.subject,
        "expiresMs": record.expires_ms,
        "prefixFingerprint": record.prefix_fingerprint,
    }


def _key_entry(subject: str, key: str, record: Recorded) -> dict[str, Any] | None:
    """The record as the file keeps it; None (logged) for an outcome of a type a restore could not rebuild."""
    result = record.result
    if result is not None and type(result).__name__ not in _RESULTS:
        log.warning("restart snapshot: idempotency key of %r not kept (a %s outcome)", subject, type(result).__name__)
        return None
    return {
        "subject": subject,
        "key": key,
        "fingerprint": record.fingerprint,
        "expiresMs": record.expires_ms,
        "result": None if result is None else {"type": type(result).__name__, "value": result.model_dump(mode="json")},
        "error": None if record.error is None else _error_entry(record.error),
        "sessionId": record.session_id,
        "provider": record.provider,
        "grant": record.grant,
        "runId": record.run_id,
        "eventId": record.event_id,
        "after": record.after,
    }


def _error_entry(error: DriverError) -> dict[str, Any]:
    return {
        "code": error.code.value,
        "detail": error.detail,
        "retryAfterSeconds": error.retry_after_seconds,
        "fields": error.fields,
    }


def _header(host_id: str) -> bytes:
    raw = host_id.encode("ascii")
    return MAGIC + struct.pack(">HB", VERSION, len(raw)) + raw


def _write_sealed(path: Path, header: bytes, payload: bytes, key: bytes) -> int:
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM  # only a host that writes a snapshot needs it

    nonce = secrets.token_bytes(NONCE_BYTES)
    sealed = header + nonce + AESGCM(key).encrypt(nonce, payload, header)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        with os.fdopen(descriptor, "wb") as file:
            file.write(sealed)
            file.flush()
            os.fsync(file.fileno())
        os.chmod(temporary, 0o600)  # O_CREAT's mode only applies to a new file
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    _sync_directory(path.parent)
    return len(sealed)


def _sync_directory(directory: Path) -> None:
    """Make a rename or an unlink in ``directory`` durable."""
    descriptor = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


# -- restoring ----------------------------------------------------------------------------------------


def restore_at_start(driver: Driver, config: SnapshotConfig, key: bytes) -> RestoreReport | None:
    """Restore the snapshot at ``config.path`` into ``driver`` and delete the file; None when there is none.

    Raises ``SnapshotRefused`` before anything is stored when the file cannot be read, decrypted or
    authenticated, is another host's or of an unknown version, or does not hold what this version writes.
    """
    path = snapshot_path(config, driver.host_id)
    try:
        sealed = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as error:
        raise SnapshotRefused(f"cannot read the restart snapshot {path}: {error.strerror}") from None
    started = time.perf_counter()
    payload = _opened(path, sealed, key, driver.host_id, config.keyEnv)
    sessions, keys = _parsed(path, payload)
    report = _adopt(driver, sessions, keys)
    try:
        path.unlink()
        _sync_directory(path.parent)
    except OSError as error:
        raise SnapshotRefused(
            f"restored the snapshot {path} but cannot delete it ({error.strerror}); a later start could "
            "restore it again, so the host does not start"
        ) from None
    report.elapsed_ms = (time.perf_counter() - started) * 1000
    log.info(
        "restart snapshot restored: %d session(s), %d idempotency record(s) in %.1f ms; dropped %s; %s deleted",
        report.sessions,
        report.idempotency_keys,
        report.elapsed_ms,
        ", ".join(f"{reason} {count}" for reason, count in report.dropped.items()),
        path,
    )
    return report


def _opened(path: Path, sealed: bytes, key: bytes, host_id: str, key_env: str) -> Any:
    from cryptography.exceptions import InvalidTag
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM

    if not sealed.startswith(MAGIC) or len(sealed) < len(MAGIC) + 3:
        raise SnapshotRefused(f"{path} is not an agentic-driver restart snapshot")
    version, length = struct.unpack_from(">HB", sealed, len(MAGIC))
    if version != VERSION:
        raise SnapshotRefused(f"{path} is a version {version} snapshot; this host reads version {VERSION}")
    start = len(MAGIC) + 3
    header, rest = sealed[: start + length], sealed[start + length :]
    written_by = header[start:].decode("ascii", errors="replace")
    if written_by != host_id:
        raise SnapshotRefused(
            f"{path} holds the sessions of host {written_by!r}; this host is {host_id!r} (start it with "
            f"--host-id {written_by}, or move the file away to start without them)"
        )
    try:
        payload = AESGCM(key).decrypt(rest[:NONCE_BYTES], rest[NONCE_BYTES:], header)
    except (InvalidTag, ValueError):
        raise SnapshotRefused(
            f"{path} cannot be decrypted and authenticated with the key in {key_env}: the key is not the one it "
            "was written with, or the file was changed"
        ) from None
    return orjson.loads(payload)


@dataclass(frozen=True, slots=True)
class Stored:
    """One session of the file, built and checked, not stored yet."""

    record: SessionRecord
    expires_ms: int
    prefix_fingerprint: str | None
    provider_kind: str


def _parsed(path: Path, payload: Any) -> tuple[list[Stored], list[tuple[str, str, Recorded]]]:
    """Every session (record, expiry, provider kind) and idempotency record, built whole before any is stored."""
    try:
        sessions = [_record(entry) for entry in payload["sessions"]]
        keys = [_recorded(entry) for entry in payload["idempotency"]]
    except (envelope.ImportRejected, KeyError, TypeError, ValueError, ValidationError) as error:
        raise SnapshotRefused(f"{path} does not hold what this version writes: {error}") from None
    return sessions, keys


def _record(entry: Mapping[str, Any]) -> Stored:
    data = entry["envelope"]
    prefix = entry["prefixFingerprint"]
    return Stored(
        envelope.record_of(data, _text(entry["subject"])),
        int(entry["expiresMs"]),
        None if prefix is None else _text(prefix),
        _text(data["session"]["providerKind"]),
    )


def _recorded(entry: Mapping[str, Any]) -> tuple[str, str, Recorded]:
    result = entry["result"]
    model = None if result is None else _RESULTS[result["type"]].model_validate(result["value"])
    error = None if entry["error"] is None else _error_of(entry["error"])
    record = Recorded(
        fingerprint=_text(entry["fingerprint"]),
        expires_ms=int(entry["expiresMs"]),
        done=True,
        result=model,
        error=error,
        session_id=entry["sessionId"],
        provider=entry["provider"],
        grant=entry["grant"],
        run_id=entry["runId"],
        event_id=entry["eventId"],
        after=int(entry["after"]),
    )
    return _text(entry["subject"]), _text(entry["key"]), record


def _error_of(entry: Mapping[str, Any]) -> DriverError:
    return error_of_problem(_text(entry["code"]), _text(entry["detail"]), entry["retryAfterSeconds"], entry["fields"])


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError(f"a string was expected, not {type(value).__name__}")
    return value


def _adopt(
    driver: Driver,
    sessions: list[Stored],
    keys: list[tuple[str, str, Recorded]],
) -> RestoreReport:
    report = RestoreReport()
    store = driver.store
    assert store is not None  # sessions.snapshot is part of the sessions block
    now = driver.clock.now_ms()
    kept: set[str] = set()
    for stored in sessions:
        record = stored.record
        reason = _drop_reason(driver.providers.get(record.owner.provider), stored, now)
        if reason is None:
            try:
                store.restore(record, stored.expires_ms, stored.prefix_fingerprint)
            except (SessionLimitExceeded, SessionStoreFull) as error:
                reason = ("overLimits", error.detail)
        if reason is not None:
            report.dropped[reason[0]] += 1
            log.warning("restart snapshot: dropped session %s (%s): %s", record.id, reason[0], reason[1])
            continue
        kept.add(record.id)
    report.sessions = len(kept)
    for subject, key, recorded in _live(keys, kept, now):
        driver.idempotency.adopt(subject, key, recorded)
        report.idempotency_keys += 1
    return report


def _drop_reason(provider: Provider | None, stored: Stored, now: int) -> tuple[str, str] | None:
    owner = stored.record.owner
    if provider is None or provider.kind != stored.provider_kind:
        now_is = "is not configured" if provider is None else f"is now a {provider.kind!r} instance"
        return "providerRemoved", f"provider instance {owner.provider!r} {now_is}"
    if provider.account_id != owner.account:
        return "accountChanged", f"{owner.provider!r} is no longer bound to the session's account"
    if owner.model not in provider.models:
        return "modelRemoved", f"{owner.provider!r} no longer serves model {owner.model!r}"
    if stored.expires_ms <= now:
        return "expired", "its retention ran out while the host was down"
    return None


def _live(keys: list[tuple[str, str, Recorded]], kept: set[str], now: int) -> Iterator[tuple[str, str, Recorded]]:
    """The idempotency records still remembered, whose session (if any) was restored."""
    for subject, key, recorded in keys:
        if recorded.expires_ms > now and (recorded.session_id is None or recorded.session_id in kept):
            yield subject, key, recorded
