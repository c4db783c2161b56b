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
import subprocess
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from agentic_driver import testing
from agentic_driver.testing import free_port, stop_process

from .paths import CONTRACT_DIR, LOGS_DIR

STARTUP_TIMEOUT_S = 20.0

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


@dataclass
class Host:
    name: str
    base_url: str
    process: subprocess.Popen[bytes] | None = field(repr=False, default=None)
    log_path: Path | None = None

    def stop(self) -> None:
        if self.process is not None:
            stop_process(self.process)

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
    port = free_port()
    env = {**os.environ, **token_environment(), "PYTHONPATH": str(CONTRACT_DIR)}
    started = testing.spawn(
        _command(config, port, mutation), port, LOGS_DIR / f"host-{name}-{port}.log", env=env, cwd=CONTRACT_DIR
    )
    return Host(name=name, base_url=started.base_url, process=started.process, log_path=started.log_path)


def wait_ready(host: Host, timeout_s: float = STARTUP_TIMEOUT_S) -> Host:
    """Return ``host`` once ``/healthz`` answers; stop it and raise (with its log) if it exits or times out."""
    assert host.process is not None and host.log_path is not None, f"{host.name} was not started here"
    port = urlsplit(host.base_url).port
    assert port is not None, host.base_url
    if testing.HostProcess(host.process, port, host.log_path, 0.0).wait_ready(timeout_s=timeout_s, interval_s=0.05):
        return host
    exited = host.process.poll()
    host.stop()
    if exited is not None:
        raise RuntimeError(f"host {host.name} exited with {host.process.returncode}:\n{host.log_tail()}")
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
