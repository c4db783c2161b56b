"""A two-turn session through the generated Python client, against a host this script starts.

    make demo

Starts the reference host (embedded default: the offline echo provider) on a
free 127.0.0.1 port, creates a session, runs two turns (the second proves the
host kept the first), reads the session back, deletes it and stops the host.
"""

from __future__ import annotations

import os
import secrets
import socket
import subprocess
import sys
import time

import httpx

from agentic_driver_client import AuthenticatedClient
from agentic_driver_client.api.runs import run
from agentic_driver_client.api.sessions import create_session, delete_session, read_session
from agentic_driver_client.models import (
    CreateSessionRequest,
    CreateSessionResponse,
    ReadSessionResponse,
    RunRequest,
    RunResult,
    SessionHandle,
    SessionInfo,
    SessionMode,
)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_until_healthy(base_url: str, host: subprocess.Popen[bytes], timeout_s: float = 15.0) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if host.poll() is not None:
            raise SystemExit(f"the host exited early with status {host.returncode}")
        try:
            if httpx.get(f"{base_url}/healthz", timeout=0.5).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.05)
    raise SystemExit(f"the host did not become healthy within {timeout_s} s")


def demo(base_url: str, token: str) -> None:
    client = AuthenticatedClient(base_url=base_url, token=token)
    created = create_session.sync(
        client=client,
        body=CreateSessionRequest(provider="echo", model="echo-1", mode=SessionMode.HISTORY),
    )
    assert isinstance(created, CreateSessionResponse), created
    session = created.session
    print(f"1. created {session.id} at revision {session.revision} ({session.mode} mode)")

    for step, text in ((2, "My name is Ada."), (3, "!recall")):
        result = run.sync(
            client=client,
            body=RunRequest(
                provider="echo",
                model="echo-1",
                input_=text,
                session=SessionHandle(id=session.id, revision=session.revision),
            ),
        )
        assert isinstance(result, RunResult), result
        assert isinstance(result.session, SessionInfo), "a session run returns the session"
        session = result.session
        print(f"{step}. sent {text!r} -> {result.output.text!r} (now revision {session.revision})")

    read = read_session.sync(session.id, client=client)
    assert isinstance(read, ReadSessionResponse), read
    print(f"4. read back {len(read.history)} messages in {len(read.turns)} turns:")
    for message in read.history:
        print(f"     {message.role}: {message.content}")
    response = delete_session.sync_detailed(session.id, client=client)
    print(f"5. deleted the session (HTTP {response.status_code})")


def main() -> int:
    port = free_port()
    token = secrets.token_urlsafe(24)
    base_url = f"http://127.0.0.1:{port}"
    env = {**os.environ, "AGENTIC_DRIVER_TOKEN": token}
    command = [sys.executable, "-m", "agentic_driver", "serve", "--port", str(port), "--log-level", "warning"]
    print(f"starting the host on {base_url}")
    host = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL)
    try:
        wait_until_healthy(base_url, host)
        demo(base_url, token)
    finally:
        host.terminate()
        try:
            host.wait(timeout=10)
        except subprocess.TimeoutExpired:
            host.kill()
        print("stopped the host")
    return 0


if __name__ == "__main__":
    sys.exit(main())
