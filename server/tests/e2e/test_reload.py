"""SIGHUP: a running host re-reads host JSON's ``tokens`` and ``auth`` blocks without a restart.

The host's file is rewritten (a static token revoked, one added, a JWT issuer added) and the host signalled
(``agentic-driver reload --pid``, or ``kill -HUP``): from the next request the revoked token is refused and
the new ones accepted, while a session created before is still there for a token that stayed, and a run in
flight with the revoked token finishes. A file that cannot be used keeps the policy in force, and the log
says why without showing a secret of it.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx
from fakes.issuer import FakeIssuer

from .conftest import (
    ALICE,
    ALL_GRANTS,
    BOB,
    RETENTION_MS,
    Host,
    assert_problem,
    echo_provider,
    launch_host,
    token_entry,
)

ADDED = "added-after-start-token-01"
NEVER = "secret-of-a-file-never-loaded-01"
UNKNOWN = 'Bearer realm="agentic-driver", error="invalid_token", error_description="unknown token"'
LOG_WAIT_S = 10.0


def host_json(tokens: list[dict[str, Any]], auth: dict[str, Any] | None = None) -> dict[str, Any]:
    slow = echo_provider("echo-slow")
    slow["settings"]["latencyMs"] = 1500
    config: dict[str, Any] = {
        "hostId": "e2e-reload",
        "providers": [echo_provider("echo"), slow],
        "sessions": {"retentionMs": RETENTION_MS},
        "tokens": tokens,
    }
    if auth is not None:
        config["auth"] = auth
    return config


def discovery(host: Host, token: str) -> httpx.Response:
    with host.raw(token) as http:
        return http.get("/v1/discovery")


def wait_for_log(host: Host, text: str, count: int) -> str:
    """The host's log once ``text`` is in it ``count`` times (the signal is handled asynchronously)."""
    deadline = time.monotonic() + LOG_WAIT_S
    while True:
        log = host.log_text()
        if log.count(text) >= count:
            return log
        assert time.monotonic() < deadline, f"{text!r} not logged {count} times:\n{log[-3000:]}"
        time.sleep(0.02)


def test_sighup_applies_new_tokens_from_the_next_request_and_keeps_sessions(tmp_path: Path) -> None:
    idp = FakeIssuer()
    idp.add_key("EC", "ec-1")
    before = host_json([token_entry("alice", ALICE, ["*"], ALL_GRANTS), token_entry("bob", BOB, ["*"], ALL_GRANTS)])
    host = launch_host("reload", before, tmp_path, log_level="info")
    config_path = tmp_path / "reload.json"
    try:
        with host.raw(ALICE) as alice, host.raw(BOB) as bob:
            session = alice.post("/v1/sessions", json={"provider": "echo", "model": "echo-1", "mode": "history"})
            assert session.status_code == 201
            session_id = session.json()["session"]["id"]
            assert bob.get("/v1/discovery").status_code == 200
            assert_problem(discovery(host, idp.token()), 401, "UNAUTHENTICATED")

            in_flight: list[httpx.Response] = []
            slow_run = {"provider": "echo-slow", "model": "echo-1", "input": "still running"}

            def run_slowly() -> None:
                with host.raw(BOB) as http:
                    in_flight.append(http.post("/v1/runs", json=slow_run))

            runner = threading.Thread(target=run_slowly)
            runner.start()
            time.sleep(0.3)  # bob's run is admitted and waits on the model

            # bob revoked, a token added, an issuer added; through the subcommand, which checks the file first
            after = host_json(
                [token_entry("alice", ALICE, ["*"], ALL_GRANTS), token_entry("new", ADDED, ["echo"], ["read"])],
                {
                    "jwt": [
                        {
                            "issuer": idp.issuer,
                            "audience": idp.audience,
                            "jwksFile": str(idp.write_jwks(tmp_path / "jwks.json")),
                            "algorithms": ["ES256"],
                            "providers": ["echo"],
                        }
                    ]
                },
            )
            config_path.write_text(json.dumps(after), encoding="utf-8")
            reload = [sys.executable, "-m", "agentic_driver", "reload", "--pid", str(host.process.pid)]
            sent = subprocess.run([*reload, "--config", str(config_path)], capture_output=True, text=True, timeout=30)
            assert sent.returncode == 0, sent.stderr
            wait_for_log(host, "SIGHUP: tokens and auth reloaded", 1)

            refused = bob.get("/v1/discovery")
            assert_problem(refused, 401, "UNAUTHENTICATED")
            assert refused.headers["www-authenticate"] == UNKNOWN
            assert discovery(host, ADDED).json()["subject"] == "new"
            assert discovery(host, idp.token()).json()["subject"] == "user-1"
            kept = alice.get(f"/v1/sessions/{session_id}")
            assert kept.status_code == 200 and kept.json()["session"]["revision"] == 0

            runner.join(timeout=10)
            assert [r.status_code for r in in_flight] == [200]  # authenticated before the reload: it finishes

            # a file that cannot be used: the policy in force stays, and the log says why
            broken = host_json(
                [{"subject": "x", "token": NEVER, "providers": ["no-such-provider"]}],
                {"jwt": [{"issuer": "i", "audience": "a", "jwksUrl": "https://i/", "algorithms": ["HS256"]}]},
            )
            config_path.write_text(json.dumps(broken), encoding="utf-8")
            refused_check = subprocess.run(
                [*reload, "--config", str(config_path)], capture_output=True, text=True, timeout=30
            )
            assert refused_check.returncode == 1 and "no signal sent" in refused_check.stderr
            host.process.send_signal(signal.SIGHUP)  # kill -HUP, as documented
            log = wait_for_log(host, "not reloaded, the tokens and auth in force stay", 1)
            assert "auth.jwt[0].algorithms[0]: 'HS256' is refused" in log
            assert "tokens[0].providers: unknown provider 'no-such-provider'" in log
            config_path.write_text("{not json", encoding="utf-8")
            host.process.send_signal(signal.SIGHUP)
            log = wait_for_log(host, "not reloaded, the tokens and auth in force stay", 2)
            assert "(file): not JSON" in log

            assert discovery(host, ADDED).status_code == 200
            assert alice.get(f"/v1/sessions/{session_id}").status_code == 200
            assert_problem(bob.get("/v1/discovery"), 401, "UNAUTHENTICATED")
            assert NEVER not in log and ALICE not in log and BOB not in log and ADDED not in log
        assert host.process.poll() is None  # the same process throughout
    finally:
        host.stop()


def test_the_embedded_default_has_nothing_to_reload(tmp_path: Path) -> None:
    import agentic_driver_testing as testing

    started = testing.start(
        lambda bind: testing.serve_command(bind, log_level="info"),
        lambda attempt, bind: tmp_path / f"default-{attempt}-{bind}.log",
        name="embedded default",
        timeout_s=15.0,
    )
    try:
        started.process.send_signal(signal.SIGHUP)
        deadline = time.monotonic() + LOG_WAIT_S
        while "nothing to reload" not in started.log_path.read_text(encoding="utf-8"):
            assert time.monotonic() < deadline
            time.sleep(0.02)
        assert started.process.poll() is None
    finally:
        testing.stop_process(started.process)
