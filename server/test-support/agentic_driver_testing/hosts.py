"""Start a host process for a test (or a benchmark), wait until it serves, and stop it.

Every suite that talks to a real host over HTTP (the server's e2e tests, the Python SDK's
tests, the contract harness and the conformance kit's tests, the benchmark harness) starts
it the same way: a free port on 127.0.0.1, stdout and stderr into a log file, a bounded
readiness loop on a health path that gives up as soon as the process exits, and a stop that
sends a signal, waits, and kills what lingers. Nothing here imports the rest of the host, so
a suite can start any command this way (the benchmark's floor and peer servers too).
"""

from __future__ import annotations

import contextlib
import http.client
import os
import signal
import socket
import ssl
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = [
    "LOOPBACK",
    "HostProcess",
    "HostStartError",
    "free_port",
    "serve_command",
    "spawn",
    "start",
    "stop_process",
]

LOOPBACK = "127.0.0.1"
STARTUP_TIMEOUT_S = 20.0
STOP_TIMEOUT_S = 5.0
POLL_INTERVAL_S = 0.02
PROBE_TIMEOUT_S = 2.0
START_ATTEMPTS = 3
"""A probed port can be taken by another process before the host binds it; then the start is retried."""


class HostStartError(RuntimeError):
    """The process exited, or did not serve in time; the message ends with its log."""


def free_port(address: str = LOOPBACK) -> int:
    """A port that was free on ``address`` a moment ago (bind to port 0, read it, release it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((address, 0))
        return int(probe.getsockname()[1])


def serve_command(port: int, *args: str, log_level: str = "warning", address: str = LOOPBACK) -> list[str]:
    """``python -m agentic_driver serve`` on ``address:port`` with this interpreter, then ``args``."""
    return [
        sys.executable,
        "-m",
        "agentic_driver",
        "serve",
        "--log-level",
        log_level,
        "--host",
        address,
        "--port",
        str(port),
        *args,
    ]


def stop_process(
    process: subprocess.Popen[Any], *, sig: int = signal.SIGTERM, group: bool = False, timeout_s: float | None = None
) -> None:
    """Send ``sig`` (to the process group if ``group``) if it still runs; SIGKILL it if it lingers.

    By pid (or process group) only: never anything this suite did not start.
    """
    if process.poll() is not None:
        return
    wait_s = STOP_TIMEOUT_S if timeout_s is None else timeout_s
    _signal(process, sig, group)
    try:
        process.wait(timeout=wait_s)
    except subprocess.TimeoutExpired:
        _signal(process, signal.SIGKILL, group)
        process.wait(timeout=wait_s)


def _signal(process: subprocess.Popen[Any], sig: int, group: bool) -> None:
    with contextlib.suppress(ProcessLookupError):
        if group:
            os.killpg(process.pid, sig)
        else:
            process.send_signal(sig)


@dataclass
class HostProcess:
    """A started server process: where it listens, where its output goes, when it was started."""

    process: subprocess.Popen[bytes]
    port: int
    log_path: Path
    started: float
    """``time.perf_counter()`` just before the process was started (start-up time is measured from it)."""
    address: str = LOOPBACK
    tls: ssl.SSLContext | None = None
    """Set for a host serving HTTPS: the readiness probe trusts what this context trusts."""
    group: bool = False
    """Whether the process leads its own process group (``start_new_session``); a stop signals the group."""

    @property
    def base_url(self) -> str:
        scheme = "https" if self.tls is not None else "http"
        return f"{scheme}://{self.address}:{self.port}"

    def log_text(self) -> str:
        try:
            return self.log_path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return "(no log)"

    def log_tail(self, lines: int = 40) -> str:
        return "\n".join(self.log_text().splitlines()[-lines:])

    def answers(self, path: str = "/healthz", timeout_s: float = PROBE_TIMEOUT_S) -> bool:
        """One GET of ``path``: True when it answers 200."""
        if self.tls is not None:
            connection: http.client.HTTPConnection = http.client.HTTPSConnection(
                self.address, self.port, timeout=timeout_s, context=self.tls
            )
        else:
            connection = http.client.HTTPConnection(self.address, self.port, timeout=timeout_s)
        try:
            connection.request("GET", path)
            return connection.getresponse().status == 200
        except OSError:
            return False
        finally:
            connection.close()

    def wait_ready(
        self,
        path: str = "/healthz",
        timeout_s: float = STARTUP_TIMEOUT_S,
        interval_s: float = POLL_INTERVAL_S,
        probe_timeout_s: float = PROBE_TIMEOUT_S,
    ) -> bool:
        """Poll ``path`` until it answers 200 (True); False once the process exits or ``timeout_s`` passes."""
        deadline = time.monotonic() + timeout_s
        for _ in range(int(timeout_s / interval_s) + 1):  # bounded in count as well as in time
            if self.process.poll() is not None or time.monotonic() > deadline:
                return False
            if self.answers(path, probe_timeout_s):
                return True
            time.sleep(interval_s)
        return False

    def stop(self, sig: int = signal.SIGTERM, timeout_s: float | None = None) -> None:
        stop_process(self.process, sig=sig, group=self.group, timeout_s=timeout_s)


def spawn(
    command: Sequence[str],
    port: int,
    log_path: Path,
    *,
    env: Mapping[str, str] | None = None,
    cwd: Path | None = None,
    append_log: bool = False,
    address: str = LOOPBACK,
    tls: ssl.SSLContext | None = None,
    **popen: Any,
) -> HostProcess:
    """Start ``command`` (which must listen on ``port``) with its output in ``log_path``; do not wait.

    ``popen`` passes on to ``subprocess.Popen`` (``start_new_session``, ``preexec_fn``, ...).
    """
    log_path.parent.mkdir(parents=True, exist_ok=True)
    with log_path.open("ab" if append_log else "wb") as log:
        started = time.perf_counter()
        process = subprocess.Popen(
            list(command),
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            env=dict(env) if env is not None else None,
            cwd=cwd,
            **popen,
        )
    group = bool(popen.get("start_new_session") or popen.get("process_group") == 0)
    return HostProcess(process, port, log_path, started, address, tls, group)


def start(
    command: Callable[[int], Sequence[str]],
    log_path: Callable[[int, int], Path],
    *,
    port: int | None = None,
    name: str = "host",
    path: str = "/healthz",
    timeout_s: float = STARTUP_TIMEOUT_S,
    **options: Any,
) -> HostProcess:
    """``spawn`` ``command(port)`` and return it once ``path`` answers 200, or raise ``HostStartError``.

    Without ``port`` a free one is chosen, and chosen again (up to ``START_ATTEMPTS`` times) when the
    log says another process took it first. ``log_path(attempt, port)`` names each attempt's log;
    ``options`` pass on to ``spawn``.
    """
    for attempt in range(START_ATTEMPTS if port is None else 1):
        bind = port if port is not None else free_port(options.get("address", LOOPBACK))
        host = spawn(command(bind), bind, log_path(attempt, bind), **options)
        if host.wait_ready(path, timeout_s):
            return host
        host.stop()
        if "address already in use" not in host.log_text().lower():
            break
    raise HostStartError(f"{name} did not become healthy on {host.base_url}; its log:\n{host.log_text()}")
