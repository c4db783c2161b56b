"""Real host processes on a free 127.0.0.1 port, one per host JSON (or per mutation).

Every host is ``python -m agentic_driver serve --config FILE`` (or a mutated host
module of ``harness.mutants``), polled on ``/healthz`` until it serves and
terminated at the end. Tokens are configured with ``tokenEnv``: the host JSON
names ``CONTRACT_TOKEN_<NAME>`` and the harness sets it to the fixed test secret
below, so scenario files can refer to tokens by name (``full``, ``no-grants``,
``other``). The secrets are test constants, not credentials.
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from .paths import CONTRACT_DIR, LOGS_DIR

STARTUP_TIMEOUT_S = 20.0
STOP_TIMEOUT_S = 5.0

TOKENS: dict[str, str] = {
    "full": "contract-full-token-000000001",
    "no-grants": "contract-no-grants-token-0001",
    "other": "contract-other-subject-token-1",
}
"""Token name -> secret. ``full``: subject ``contract``, every provider and grant. ``no-grants``: subject
``contract``, provider ``echo`` only, no session grant. ``other``: subject ``other``, everything."""


def token_env_name(name: str) -> str:
    return "CONTRACT_TOKEN_" + name.upper().replace("-", "_")


def token_environment() -> dict[str, str]:
    return {token_env_name(name): secret for name, secret in TOKENS.items()}


def free_port() -> int:
    """A port that was free on 127.0.0.1 a moment ago."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Host:
    name: str
    base_url: str
    process: subprocess.Popen[bytes] | None = field(repr=False, default=None)
    log_path: Path | None = None

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(STOP_TIMEOUT_S)

    def log_tail(self, lines: int = 40) -> str:
        if self.log_path is None or not self.log_path.exists():
            return ""
        return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])


def _command(config: Path, port: int, mutation: str | None) -> list[str]:
    if mutation is None:
        return [
            sys.executable,
            "-m",
            "agentic_driver",
            "serve",
            "--config",
            str(config),
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--log-level",
            "warning",
        ]
    return [sys.executable, "-m", "harness.mutants", mutation, "--config", str(config), "--port", str(port)]


def spawn(name: str, config: Path, *, mutation: str | None = None) -> Host:
    """Start a host process; call ``wait_ready`` before using it."""
    LOGS_DIR.mkdir(parents=True, exist_ok=True)
    port = free_port()
    log_path = LOGS_DIR / f"host-{name}-{port}.log"
    env = {**os.environ, **token_environment(), "PYTHONPATH": str(CONTRACT_DIR)}
    with open(log_path, "wb") as log:
        process = subprocess.Popen(
            _command(config, port, mutation), stdout=log, stderr=subprocess.STDOUT, env=env, cwd=CONTRACT_DIR
        )
    return Host(name=name, base_url=f"http://127.0.0.1:{port}", process=process, log_path=log_path)


def wait_ready(host: Host, timeout_s: float = STARTUP_TIMEOUT_S) -> Host:
    deadline = time.monotonic() + timeout_s
    with httpx.Client(trust_env=False, timeout=1.0) as http:
        while time.monotonic() < deadline:
            if host.process is not None and host.process.poll() is not None:
                raise RuntimeError(f"host {host.name} exited with {host.process.returncode}:\n{host.log_tail()}")
            with contextlib.suppress(httpx.TransportError):
                if http.get(f"{host.base_url}/healthz").status_code == 200:
                    return host
            time.sleep(0.05)
    host.stop()
    raise RuntimeError(f"host {host.name} did not serve within {timeout_s}s:\n{host.log_tail()}")


@contextlib.contextmanager
def running(specs: Sequence[tuple[str, Path, str | None]]) -> Iterator[list[Host]]:
    """Start several hosts at once (they boot in parallel), yield them ready, stop them all."""
    hosts = [spawn(name, config, mutation=mutation) for name, config, mutation in specs]
    try:
        for host in hosts:
            wait_ready(host)
        yield hosts
    finally:
        for host in hosts:
            host.stop()


def external(name: str, base_url: str) -> Host:
    """A host someone else started (run.py passes its hosts to pytest by URL)."""
    return Host(name=name, base_url=base_url.rstrip("/"))
