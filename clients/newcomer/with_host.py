"""Run a command against a live host, as a newcomer's app meets one.

    python clients/newcomer/with_host.py [--agentic-driver PATH] -- COMMAND [ARG ...]

Starts ``agentic-driver serve`` (the embedded default: the offline ``echo``
provider, sessions on) on a free 127.0.0.1 port with a fresh token, runs
COMMAND with ``AGENTIC_DRIVER_URL`` and ``AGENTIC_DRIVER_TOKEN`` set, stops the
host by its pid and exits with COMMAND's status. Test tooling, not product.
"""

from __future__ import annotations

import argparse
import os
import secrets
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
STARTUP_TIMEOUT_S = 20.0
STOP_TIMEOUT_S = 5.0


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_ready(url: str, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + STARTUP_TIMEOUT_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"with_host: the host exited with {process.returncode} before serving")
        try:
            with urllib.request.urlopen(f"{url}/healthz", timeout=1.0) as answer:
                if answer.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.05)
    raise SystemExit(f"with_host: the host did not serve within {STARTUP_TIMEOUT_S:.0f}s")


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(STOP_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(STOP_TIMEOUT_S)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--agentic-driver", default=str(ROOT / ".venv" / "bin" / "agentic-driver"))
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("give the command to run after --")
    port, token = free_port(), "newcomer-" + secrets.token_urlsafe(24)
    url = f"http://127.0.0.1:{port}"
    env = {**os.environ, "AGENTIC_DRIVER_TOKEN": token}
    host = subprocess.Popen(
        [args.agentic_driver, "serve", "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"],
        env=env,
        stdout=subprocess.DEVNULL,
    )
    try:
        wait_ready(url, host)
        return subprocess.call(command, env={**env, "AGENTIC_DRIVER_URL": url})
    finally:
        stop(host)


if __name__ == "__main__":
    sys.exit(main())
