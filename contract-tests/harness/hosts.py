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
import sys
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import agentic_driver_testing as testing
from agentic_driver_testing import free_port
from agentic_driver_testing.hosts import STARTUP_TIMEOUT_S as STARTUP_TIMEOUT_S  # haproxy.py waits as long

from .paths import CONTRACT_DIR, LOGS_DIR

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
    started: testing.HostProcess | None = field(repr=False, default=None)
    """The process this suite started (None for an ``external`` host)."""

    def stop(self) -> None:
        if self.started is not None:
            self.started.stop()

    def log_tail(self, lines: int = 40) -> str:
        return "" if self.started is None else self.started.log_tail(lines)


def _command(config: Path, port: int, mutation: str | None, host_id: str | None = None) -> list[str]:
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
            *(["--host-id", host_id] if host_id is not None else []),
        ]
    assert host_id is None, "a mutated host keeps its config's hostId"
    return [sys.executable, "-m", "harness.mutants", mutation, "--config", str(config), "--port", str(port)]


def spawn(name: str, config: Path, *, mutation: str | None = None, host_id: str | None = None) -> Host:
    """Start a host process (``host_id``: ``serve --host-id``, one of several with one config); then ``wait_ready``."""
    port = free_port()
    env = {**os.environ, **token_environment(), "PYTHONPATH": str(CONTRACT_DIR)}
    started = testing.spawn(
        _command(config, port, mutation, host_id), port, LOGS_DIR / f"host-{name}-{port}.log", env=env, cwd=CONTRACT_DIR
    )
    return Host(name=name, base_url=started.base_url, started=started)


def wait_ready(host: Host, timeout_s: float = STARTUP_TIMEOUT_S) -> Host:
    """Return ``host`` once ``/healthz`` answers; stop it and raise (with its log) if it exits or times out."""
    started = host.started
    assert started is not None, f"{host.name} was not started here"
    if started.wait_ready(timeout_s=timeout_s, interval_s=0.05):
        return host
    exited = started.process.poll()
    host.stop()
    if exited is not None:
        raise RuntimeError(f"host {host.name} exited with {started.process.returncode}:\n{host.log_tail()}")
    raise RuntimeError(f"host {host.name} did not serve within {timeout_s}s:\n{host.log_tail()}")


@contextlib.contextmanager
def running(
    specs: Sequence[tuple[str, Path, str | None]], host_ids: Mapping[str, str] | None = None
) -> Iterator[list[Host]]:
    """Start several hosts at once (they boot in parallel), yield them ready, stop them all.

    ``host_ids``: host name -> ``--host-id`` for the hosts that share a config behind a proxy."""
    ids = host_ids or {}
    hosts = [spawn(name, config, mutation=mutation, host_id=ids.get(name)) for name, config, mutation in specs]
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
