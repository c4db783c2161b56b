"""``make cluster``: two hosts and HAProxy on loopback, for a person to try the scale-out recipe.

Starts ``agentic-driver serve`` twice (the embedded default host, ``--host-id host-1`` and
``host-2``, one shared token), writes the proxy configuration with ``agentic-driver cluster
config --format haproxy`` (checked by ``haproxy -c``), runs ``haproxy -db`` in front and prints
what to try. Ctrl-C (or SIGTERM) stops all three, each by its pid.
"""

from __future__ import annotations

import argparse
import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import FrameType

import httpx

HOST_IDS = ("host-1", "host-2")
STARTUP_TIMEOUT_S = 20.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_for(url: str, headers: dict[str, str], process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + STARTUP_TIMEOUT_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"cluster: {process.args} exited with {process.returncode}")
        try:
            if httpx.get(url, headers=headers, timeout=1.0, trust_env=False).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.1)
    raise SystemExit(f"cluster: {url} did not answer within {STARTUP_TIMEOUT_S:.0f} s")


def stop(processes: list[subprocess.Popen[bytes]]) -> None:
    for process in reversed(processes):
        if process.poll() is None:
            process.terminate()
    for process in reversed(processes):
        try:
            process.wait(timeout=35)  # a host drains for up to drainTimeoutMs (30 s) first
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


AGENTIC_DRIVER = [sys.executable, "-m", "agentic_driver"]


def start_hosts(env: dict[str, str], processes: list[subprocess.Popen[bytes]]) -> dict[str, str]:
    """The hosts, healthy; returns host id -> address."""
    addresses = {}
    for host_id in HOST_IDS:
        port = free_port()
        addresses[host_id] = f"127.0.0.1:{port}"
        command = [*AGENTIC_DRIVER, "serve", "--port", str(port), "--host-id", host_id, "--log-level", "warning"]
        processes.append(subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stdin=subprocess.DEVNULL))
    for process, address in zip(processes, addresses.values(), strict=True):
        wait_for(f"http://{address}/healthz", {}, process)
    return addresses


def start_proxy(addresses: dict[str, str], bind: str, scratch: Path, processes: list[subprocess.Popen[bytes]]) -> Path:
    """HAProxy with the generated configuration; returns where the configuration is."""
    hosts = [f"--host={host_id}={address}" for host_id, address in addresses.items()]
    command = [*AGENTIC_DRIVER, "cluster", "config", "--format", "haproxy", "--bind", bind, *hosts]
    config_path = scratch / "haproxy.cfg"
    config_path.write_text(subprocess.run(command, capture_output=True, text=True, check=True).stdout, "utf-8")
    processes.append(subprocess.Popen(["haproxy", "-db", "-f", str(config_path)], stdin=subprocess.DEVNULL))
    return config_path


def guide(addresses: dict[str, str], proxy: str, config_path: Path, token: str) -> str:
    hosts = ", ".join(f"{host_id} on {address}" for host_id, address in addresses.items())
    return f"""
Two hosts ({hosts}) behind HAProxy on {proxy}.
Its configuration (from `agentic-driver cluster config --format haproxy`): {config_path}
Token: {token}

  curl -s -X POST {proxy}/v1/sessions -H 'Authorization: Bearer {token}' \\
       -H 'Content-Type: application/json' -d '{{"provider":"echo","model":"echo-1","mode":"history"}}'
  # the id names its host (ses_host-1.… or ses_host-2.…); send every request about it with
  # -H 'Agentic-Host: host-1' (or the id in the path does it). Ctrl-C stops everything.
"""


def on_signal(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bind", default="127.0.0.1:8080", help="where HAProxy listens (default 127.0.0.1:8080)")
    options = parser.parse_args()
    token = os.environ.get("AGENTIC_DRIVER_TOKEN") or secrets.token_urlsafe(24)
    processes: list[subprocess.Popen[bytes]] = []
    signal.signal(signal.SIGTERM, on_signal)
    with tempfile.TemporaryDirectory(prefix="agentic-cluster-") as scratch:
        try:
            addresses = start_hosts({**os.environ, "AGENTIC_DRIVER_TOKEN": token}, processes)
            config_path = start_proxy(addresses, options.bind, Path(scratch), processes)
            proxy = f"http://{options.bind}"
            wait_for(f"{proxy}/v1/discovery", {"Authorization": f"Bearer {token}"}, processes[-1])
            print(guide(addresses, proxy, config_path, token), flush=True)
            while all(process.poll() is None for process in processes):
                time.sleep(0.5)
            print("cluster: a process exited; stopping the others", file=sys.stderr)
            return 1
        except KeyboardInterrupt:
            return 0
        finally:
            stop(processes)


if __name__ == "__main__":
    sys.exit(main())
