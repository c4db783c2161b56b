"""Sessions survive a planned restart (host JSON ``sessions.snapshot``), with real host processes.

SIGTERM drains, then writes every session to the encrypted snapshot; the next start with the same host id
restores them before it is ready and deletes the file. A file the host cannot trust (wrong key, a changed byte,
another host's, another version) stops it from starting with nothing restored; SIGKILL writes nothing.
"""

from __future__ import annotations

import json
import os
import secrets
import signal
import stat
import subprocess
from pathlib import Path
from typing import Any

from agentic_driver_client import AuthenticatedClient
from agentic_driver_client.api.runs import run
from agentic_driver_client.api.sessions import read_session
from agentic_driver_client.models import RunResult, SessionInfo
from agentic_driver_client.types import Unset
from agentic_driver_testing import free_port, serve_command
from e2e import host_tools
from e2e.conftest import (
    ALICE,
    ALL_GRANTS,
    BOB,
    E2E_DIR,
    Host,
    approvals,
    assert_problem,
    echo_provider,
    function_results,
    function_tool,
    launch_host,
    new_session,
    read_ok,
    run_ok,
    run_request,
    submit_ok,
    token_entry,
)

KEY_ENV = "AGENTIC_DRIVER_TEST_SNAPSHOT_KEY"
KEY = secrets.token_hex(32)
EXIT_WITHIN_S = 30.0
NOTE = '!tool write_note {"text": "at shutdown"}\nPlease take a note'


def snapshot_config(workdir: Path, host_id: str = "keeper") -> dict[str, Any]:
    return {
        "hostId": host_id,
        "providers": [echo_provider("echo")],
        "sessions": {
            "retentionMs": 600_000,
            "snapshot": {"path": str(workdir / "{hostId}.snapshot"), "keyEnv": KEY_ENV},
        },
        "limits": {"maxConcurrentRuns": 16, "maxQueuedRuns": 64, "drainTimeoutMs": 500},
        "idempotency": {"maxKeys": 100, "ttlMs": 600_000},
        "tools": [
            {
                "name": "write_note",
                "handler": "host_tools:write_note",
                "description": "Write a note somewhere a person will read it.",
                "parameters": host_tools.WRITE_NOTE_PARAMETERS,
                "approval": "required",
            }
        ],
        "tokens": [token_entry("alice", ALICE, ["*"], ALL_GRANTS), token_entry("bob", BOB, ["*"], ALL_GRANTS)],
    }


def snapshot_file(config: dict[str, Any]) -> Path:
    """The file of the config's host: ``{hostId}`` in the path names it."""
    return Path(config["sessions"]["snapshot"]["path"].replace("{hostId}", config["hostId"]))


def start(workdir: Path, config: dict[str, Any], name: str, key: str = KEY) -> Host:
    env = {KEY_ENV: key, host_tools.TOOL_LOG_ENV: str(workdir / "tools.log")}
    return launch_host(name, config, workdir, env, python_path=(E2E_DIR,), log_level="info")


def stop_cleanly(host: Host) -> None:
    host.process.send_signal(signal.SIGTERM)
    assert host.process.wait(timeout=EXIT_WITHIN_S) == 0, host.log_text()[-3000:]


def refused_start(workdir: Path, config: dict[str, Any], key: str = KEY) -> subprocess.CompletedProcess[str]:
    """A start that must fail: the command run to its exit (bounded), with its output."""
    path = workdir / "refused.json"
    path.write_text(json.dumps(config), encoding="utf-8")
    env = {**os.environ, KEY_ENV: key, host_tools.TOOL_LOG_ENV: str(workdir / "tools.log")}
    env["PYTHONPATH"] = os.pathsep.join([str(E2E_DIR), *filter(None, [env.get("PYTHONPATH")])])
    command = serve_command(free_port(), "--config", str(path))
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=EXIT_WITHIN_S, check=False)


def readiness(host: Host) -> dict[str, Any]:
    with host.raw() as http:
        response = http.get("/readyz")
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def turn(client: AuthenticatedClient, info: SessionInfo, text: str, key: str | None = None) -> RunResult:
    if key is None:
        return run_ok(client, run_request(text, info))
    response = run.sync_detailed(client=client, body=run_request(text, info), idempotency_key=key)
    assert response.status_code == 200, response.content
    assert isinstance(response.parsed, RunResult)
    return response.parsed


def after(result: RunResult) -> SessionInfo:
    assert not isinstance(result.session, Unset)
    return result.session


def play_sessions(alice: AuthenticatedClient, count: int) -> list[SessionInfo]:
    """``count`` sessions of two or three turns: history and native, every fifth with a function round."""
    infos = []
    for index in range(count):
        info = new_session(alice, mode="native" if index % 2 else "history", instructions=f"Session {index}.")
        info = after(turn(alice, info, f"hello {index}"))
        if index % 5 == 0:
            paused = run_ok(alice, run_request("!call lookup {}\nlook it up", info, tools=[function_tool("lookup")]))
            call = paused.required_action.calls[0]
            info = after(submit_ok(alice, paused.id, function_results((call.call_id, f"found {index}"))))
        infos.append(after(turn(alice, info, f"and again {index}")))
    return infos


def test_fifty_sessions_survive_a_restart_and_carry_on(tmp_path: Path) -> None:
    config = snapshot_config(tmp_path)
    first = start(tmp_path, config, "before")
    try:
        with first.client(ALICE) as alice:
            infos = play_sessions(alice, 49)
            keyed_from = infos[7]
            keyed = turn(alice, keyed_from, "remember this", key="restart-key-7")
            infos[7] = after(keyed)
            waiting = new_session(alice, mode="native")
            paused = run_ok(alice, run_request(NOTE, waiting))
            assert paused.status.value == "requires_action"
            before = {info.id: read_ok(alice, info.id).to_dict() for info in infos}
        stop_cleanly(first)
    finally:
        first.stop()

    snapshot = snapshot_file(config)
    assert snapshot.name == "keeper.snapshot" and stat.S_IMODE(snapshot.stat().st_mode) == 0o600
    assert "restart snapshot written: 50 session(s)" in first.log_text()

    second = start(tmp_path, config, "after")
    try:
        ready = readiness(second)
        zero = dict.fromkeys(("expired", "providerRemoved", "accountChanged", "modelRemoved", "overLimits"), 0)
        assert ready["restored"] == {"sessions": 50, "idempotencyKeys": 1, "dropped": zero}
        assert not snapshot.exists()  # a later crash can never bring this state back
        gauges = {
            (name, *labels.values()): value
            for name, labels, value in second.metrics()
            if name.startswith("agentic_driver_snapshot_")
        }
        assert gauges[("agentic_driver_snapshot_restored", "sessions")] == 50
        assert gauges[("agentic_driver_snapshot_restored", "idempotency_keys")] == 1
        assert gauges[("agentic_driver_snapshot_dropped_sessions", "expired")] == 0
        with second.client(ALICE) as alice:
            for info in infos:
                assert read_ok(alice, info.id).to_dict() == before[info.id]  # revision, history, turns, accounting
            interrupted = read_ok(alice, waiting.id)
            assert interrupted.session.status.value == "interrupted"
            assert interrupted.interrupted_turn.reason.value == "shutdown"

            calls = second.provider_calls("echo")
            replayed = turn(alice, keyed_from, "remember this", key="restart-key-7")  # the pre-restart request
            assert (replayed.id, replayed.output.text) == (keyed.id, keyed.output.text)
            assert after(replayed).revision == infos[7].revision
            assert second.provider_calls("echo") == calls  # replayed, not run again

            for index, info in enumerate(infos):  # native signatures made before the restart verify after it
                onward = turn(alice, info, "!recall")
                assert after(onward).revision == info.revision + 1, index
                assert onward.output.text.startswith("recall: "), onward.output.text
            with second.client(BOB) as bob:
                assert_problem(read_session.sync_detailed(infos[0].id, client=bob), 404, "SESSION_NOT_FOUND")
    finally:
        second.stop()


def _written_snapshot(workdir: Path, config: dict[str, Any]) -> tuple[Path, bytes, str]:
    """A host that wrote a snapshot of one session: (the file, its bytes, the session id)."""
    host = start(workdir, config, "writer")
    try:
        with host.client(ALICE) as alice:
            session_id = after(turn(alice, new_session(alice, mode="native"), "hello")).id
        stop_cleanly(host)
    finally:
        host.stop()
    path = snapshot_file(config)
    return path, path.read_bytes(), session_id


def test_a_snapshot_the_host_cannot_trust_stops_it_from_starting(tmp_path: Path) -> None:
    config = snapshot_config(tmp_path)
    path, sealed, session_id = _written_snapshot(tmp_path, config)

    wrong_key = refused_start(tmp_path, config, key=secrets.token_hex(32))
    assert wrong_key.returncode == 3
    assert "cannot be decrypted and authenticated with the key in " + KEY_ENV in wrong_key.stderr
    changed = bytearray(sealed)
    changed[len(sealed) // 2] ^= 0x01
    path.write_bytes(bytes(changed))
    tampered = refused_start(tmp_path, config)
    assert tampered.returncode == 3 and "cannot be decrypted and authenticated" in tampered.stderr
    path.write_bytes(sealed)
    literal = {**config["sessions"], "snapshot": {"path": str(path), "keyEnv": KEY_ENV}}
    other = refused_start(tmp_path, {**config, "hostId": "someone-else", "sessions": literal})
    assert other.returncode == 3 and "holds the sessions of host 'keeper'; this host is 'someone-else'" in other.stderr
    path.write_bytes(sealed[:8] + b"\x00\x02" + sealed[10:])
    newer = refused_start(tmp_path, config)
    assert newer.returncode == 3 and "is a version 2 snapshot; this host reads version 1" in newer.stderr
    missing = refused_start(tmp_path, config, key="")
    assert missing.returncode == 3 and f"the environment variable {KEY_ENV} is not set" in missing.stderr
    for refusal in (wrong_key, tampered, other, newer, missing):
        assert KEY not in refusal.stderr + refusal.stdout

    path.write_bytes(sealed)  # refused starts restored nothing and kept the file: the right key still has it all
    host = start(tmp_path, config, "trusted")
    try:
        assert readiness(host)["restored"]["sessions"] == 1
        with host.client(ALICE) as alice:
            assert read_ok(alice, session_id).session.revision == 1
    finally:
        host.stop()


def test_sigkill_writes_nothing_and_the_old_sessions_are_gone(tmp_path: Path) -> None:
    config = snapshot_config(tmp_path)
    path, _, kept_id = _written_snapshot(tmp_path, config)
    host = start(tmp_path, config, "killed")
    try:
        assert not path.exists()
        with host.client(ALICE) as alice:
            moved_on = after(turn(alice, read_ok(alice, kept_id).session, "after the restart"))
            assert moved_on.revision == 2
        host.process.send_signal(signal.SIGKILL)
        host.process.wait(timeout=EXIT_WITHIN_S)
    finally:
        host.stop()
    assert not path.exists()  # nothing written, and the restored file was deleted at start

    fresh = start(tmp_path, config, "fresh")
    try:
        assert "restored" not in readiness(fresh)
        with fresh.client(ALICE) as alice:
            gone = read_session.sync_detailed(kept_id, client=alice)
            assert_problem(gone, 404, "SESSION_NOT_FOUND")  # never revision 1 again
    finally:
        fresh.stop()


def test_a_host_without_a_snapshot_loses_its_sessions_on_restart_as_documented(tmp_path: Path) -> None:
    config = snapshot_config(tmp_path)
    del config["sessions"]["snapshot"]
    host = start(tmp_path, config, "plain")
    try:
        with host.client(ALICE) as alice:
            session_id = new_session(alice).id
        stop_cleanly(host)
    finally:
        host.stop()
    assert list(tmp_path.glob("*.snapshot")) == []
    again = start(tmp_path, config, "plain-again")
    try:
        with again.client(ALICE) as alice:
            assert_problem(read_session.sync_detailed(session_id, client=alice), 404, "SESSION_NOT_FOUND")
    finally:
        again.stop()


def test_an_approval_decision_after_the_restart_meets_the_interrupted_session(tmp_path: Path) -> None:
    config = snapshot_config(tmp_path)
    host = start(tmp_path, config, "approver")
    try:
        with host.client(ALICE) as alice:
            session = new_session(alice)
            paused = run_ok(alice, run_request(NOTE, session))
            call_id = paused.required_action.approvals[0].call_id
        stop_cleanly(host)
    finally:
        host.stop()
    again = start(tmp_path, config, "approver-again")
    try:
        with again.raw(ALICE) as http:
            late = http.post(f"/v1/runs/{paused.id}/actions", json=approvals((call_id, True, None)).to_dict())
        assert_problem(late, 404, "RUN_NOT_FOUND")  # the run ended with the drain; its session says why
        with again.client(ALICE) as alice:
            assert read_ok(alice, session.id).interrupted_turn.reason.value == "shutdown"
    finally:
        again.stop()


def test_the_key_never_reaches_a_log(tmp_path: Path) -> None:
    config = snapshot_config(tmp_path)
    _written_snapshot(tmp_path, config)
    host = start(tmp_path, config, "quiet")
    host.stop()
    logs = "".join(path.read_text(encoding="utf-8", errors="replace") for path in tmp_path.glob("*.log"))
    assert "restart snapshot restored" in logs
    assert KEY not in logs
