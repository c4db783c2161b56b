"""The restart snapshot in process: what it keeps, what it drops and why, and what it refuses (``snapshot.py``).

Real processes, SIGTERM and the bar's fifty sessions are in ``tests/reliability/test_restart_snapshot.py``.
"""

from __future__ import annotations

import asyncio
import base64
import secrets
from pathlib import Path
from typing import Any

import pytest

from agentic_driver import Driver, EchoProvider, ManualClock, SessionPrincipal, SessionsConfig
from agentic_driver.config import EchoProviderConfig, SnapshotConfig
from agentic_driver.errors import ProviderError, SessionNotFound
from agentic_driver.models import CreateSessionRequest, RunRequest, SessionHandle, SessionInfo
from agentic_driver.providers.echo import signing_secret
from agentic_driver.snapshot import (
    RestoreReport,
    SnapshotNotWritten,
    SnapshotRefused,
    load_key,
    restore_at_start,
    write_after_drain,
)

START_MS = 1_795_000_000_000
RETENTION_MS = 60_000
ALICE = SessionPrincipal(subject="alice")
KEY = secrets.token_bytes(32)


def echo(provider_id: str = "echo", account: str | None = "acct-1", models: tuple[str, ...] = ("echo-1",)) -> Any:
    return EchoProvider(id=provider_id, models=models, account_id=account)


def driver(*providers: EchoProvider, clock: ManualClock, **sessions: Any) -> Driver:
    return Driver(
        list(providers),
        host_id="keeper",
        sessions=SessionsConfig(retentionMs=RETENTION_MS, **sessions),
        clock=clock,
    )


async def session(on: Driver, provider: str = "echo", model: str = "echo-1", turns: int = 1) -> SessionInfo:
    info = (await on.create_session(CreateSessionRequest(provider=provider, model=model, mode="native"), ALICE)).session
    for index in range(turns):
        info = await turn(on, info, f"turn {index}")
    return info


async def turn(on: Driver, info: SessionInfo, text: str, key: str | None = None) -> SessionInfo:
    request = RunRequest(
        provider=info.provider, model=info.model, input=text, session=SessionHandle(id=info.id, revision=info.revision)
    )
    result = await on.run(request, ALICE, idempotency_key=key)
    assert result.session is not None
    return result.session


def config_of(path: Path) -> SnapshotConfig:
    return SnapshotConfig(path=str(path), keyEnv="KEY")


async def test_every_reason_a_session_is_dropped_is_counted_and_the_rest_come_back_whole(tmp_path: Path) -> None:
    main, model_kept = echo(models=("echo-1", "echo-2")), echo(models=("echo-1",))
    model_kept._secret = main._secret  # the same instance, configured again without echo-2
    clock = ManualClock(START_MS)
    before = driver(main, echo("gone"), echo("rebound"), clock=clock)
    expired = await session(before)
    clock.advance(30_000)
    kept = await session(before, turns=1)
    unserved = await session(before, model="echo-2")
    gone = await session(before, "gone")
    rebound = await session(before, "rebound")
    too_long = await session(before, turns=3)
    reads = {s.id: await before.read_session(s.id, ALICE) for s in (kept, expired)}
    written = write_after_drain(before, config_of(tmp_path / "s"), KEY)
    assert written is not None and written.sessions == 6

    after_clock = ManualClock(START_MS + RETENTION_MS + 1)  # the first session's retention ran out while down
    after = driver(model_kept, echo("rebound", account="acct-2"), clock=after_clock, maxMessages=4)
    report = restore_at_start(after, config_of(tmp_path / "s"), KEY)

    assert report == RestoreReport(
        sessions=1,
        idempotency_keys=0,
        dropped={"expired": 1, "providerRemoved": 1, "accountChanged": 1, "modelRemoved": 1, "overLimits": 1},
        elapsed_ms=report.elapsed_ms,
    )
    assert (await after.read_session(kept.id, ALICE)) == reads[kept.id]
    for dropped in (expired, unserved, gone, rebound, too_long):
        with pytest.raises(SessionNotFound):
            await after.read_session(dropped.id, ALICE)
    assert not (tmp_path / "s").exists()
    onward = await turn(after, kept, "!recall")  # the copied secret verifies the native state signed before
    assert onward.revision == kept.revision + 1


async def test_idempotency_records_come_back_with_their_outcomes_and_errors(tmp_path: Path) -> None:
    provider = EchoProvider(id="echo", models=("echo-1",), account_id="acct-1", fixed_native_prefix=True)
    before = driver(provider, clock=ManualClock(START_MS))
    info = await session(before)
    assert before.store is not None
    prefix = before.store.get(info.id).prefix_fingerprint
    done = await turn(before, info, "keyed", key="k-run")
    stateless = RunRequest(provider="echo", model="echo-1", input="!fail")
    with pytest.raises(ProviderError) as failed:
        await before.run(stateless, ALICE, idempotency_key="k-fail")
    assert write_after_drain(before, config_of(tmp_path / "s"), KEY) is not None

    after = driver(provider, clock=ManualClock(START_MS + 1_000))
    report = restore_at_start(after, config_of(tmp_path / "s"), KEY)

    assert report is not None and report.idempotency_keys == 2
    assert after.store is not None and prefix is not None
    assert after.store.get(info.id).prefix_fingerprint == prefix  # the fixed native prefix it holds turns to
    assert (await turn(after, info, "keyed", key="k-run")) == done  # replayed, the revision did not move
    with pytest.raises(ProviderError) as replayed:
        await after.run(stateless, ALICE, idempotency_key="k-fail")
    assert replayed.value.problem() == failed.value.problem()
    assert b"agentic_driver_provider_calls_total{" not in after.metrics.render()  # no model call: both replayed


async def test_nothing_is_stored_when_any_entry_is_malformed_or_the_file_is_not_this_hosts(tmp_path: Path) -> None:
    before = driver(echo(), clock=ManualClock(START_MS))
    await session(before)
    path = tmp_path / "s"
    write_after_drain(before, config_of(path), KEY)
    sealed = path.read_bytes()

    other_host = Driver([echo()], host_id="another", sessions=SessionsConfig(retentionMs=RETENTION_MS))
    with pytest.raises(SnapshotRefused, match="holds the sessions of host 'keeper'; this host is 'another'"):
        restore_at_start(other_host, config_of(path), KEY)
    path.write_bytes(b"not a snapshot at all")
    with pytest.raises(SnapshotRefused, match="is not an agentic-driver restart snapshot"):
        restore_at_start(before, config_of(path), KEY)
    path.write_bytes(sealed[:-1] + bytes([sealed[-1] ^ 1]))
    fresh = driver(echo(), clock=ManualClock(START_MS))
    with pytest.raises(SnapshotRefused, match="cannot be decrypted and authenticated with the key in KEY"):
        restore_at_start(fresh, config_of(path), KEY)
    assert fresh.store is not None and len(fresh.store) == 0 and path.exists()


def test_no_snapshot_is_written_while_a_run_is_active(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    busy = driver(echo(), clock=ManualClock(START_MS))
    busy.active_runs = lambda: [object()]  # type: ignore[method-assign]
    assert write_after_drain(busy, config_of(tmp_path / "s"), KEY) is None
    assert not (tmp_path / "s").exists()
    assert "no restart snapshot written: 1 run(s) were still active" in caplog.text


def test_no_file_means_nothing_to_restore(tmp_path: Path) -> None:
    assert restore_at_start(driver(echo(), clock=ManualClock(START_MS)), config_of(tmp_path / "none"), KEY) is None


@pytest.mark.parametrize(
    ("value", "accepted"),
    [
        (KEY.hex(), True),
        (base64.b64encode(KEY).decode(), True),
        (base64.urlsafe_b64encode(KEY).decode().rstrip("="), True),
        ("", False),
        ("00" * 31, False),
        ("not a key", False),
    ],
)
def test_the_key_is_32_bytes_in_hex_or_base64(value: str, accepted: bool) -> None:
    config = SnapshotConfig(path="/tmp/x", keyEnv="SNAP_KEY")
    if accepted:
        assert load_key(config, {"SNAP_KEY": value}) == KEY
    else:
        with pytest.raises(SnapshotRefused, match="SNAP_KEY") as refused:
            load_key(config, {"SNAP_KEY": value})
        assert value not in str(refused.value) or not value


def test_a_configured_echo_signs_with_a_secret_of_its_configuration() -> None:
    one = EchoProviderConfig(id="echo", kind="echo", accountId="acct-1")
    again = EchoProviderConfig(id="echo", kind="echo", accountId="acct-1")
    other = EchoProviderConfig(id="echo", kind="echo", accountId="acct-2")

    assert signing_secret(one) == signing_secret(again) == EchoProvider.from_config(one)._secret
    assert signing_secret(other) != signing_secret(one)


def test_sessions_restored_before_the_loop_runs_get_their_expiry_timers_once_it_does(tmp_path: Path) -> None:
    before = driver(echo(), clock=ManualClock(START_MS))
    infos = asyncio.run(_sessions(before, 3))
    write_after_drain(before, config_of(tmp_path / "s"), KEY)

    after = driver(echo(), clock=ManualClock(START_MS + 1_000))
    restore_at_start(after, config_of(tmp_path / "s"), KEY)  # as `serve` does: before the event loop exists
    assert after.store is not None and after.store.pending_timers() == 0

    async def armed() -> int:
        assert after.store is not None
        after.store.arm_timers()  # what HostServer.serve does first
        return after.store.pending_timers()

    assert asyncio.run(armed()) == len(infos)
    assert {r.expires_ms for r in after.store.records()} == {START_MS + RETENTION_MS}


async def _sessions(on: Driver, count: int) -> list[SessionInfo]:
    return [await session(on) for _ in range(count)]


def test_a_snapshot_that_cannot_be_written_says_the_sessions_are_lost(tmp_path: Path) -> None:
    before = driver(echo(), clock=ManualClock(START_MS))
    asyncio.run(_sessions(before, 2))
    with pytest.raises(SnapshotNotWritten, match=r"cannot write the restart snapshot .*: this host's 2 session\(s\)"):
        write_after_drain(before, config_of(tmp_path / "no-such-directory" / "s"), KEY)
