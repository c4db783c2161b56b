"""HAProxy (the Debian package) in front of running hosts, with the configuration the product generates.

``running_haproxy`` writes the config with ``agentic-driver cluster config --format haproxy`` (which
checks it with ``haproxy -c``), starts ``haproxy -db`` on a free 127.0.0.1 port, polls (bounded) until
the proxy routes to every host, yields the proxy's base URL and stops haproxy by its pid.
``make setup-cluster`` installs HAProxy.
"""

from __future__ import annotations

import contextlib
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from pathlib import Path

import httpx
from agentic_driver_testing import free_port, stop_process

from .hosts import STARTUP_TIMEOUT_S

BIND_ATTEMPTS = 3
POLL_S = 0.1


def generated_config(hosts: Mapping[str, str], bind: str) -> str:
    """``agentic-driver cluster config --format haproxy`` for host id -> base URL, checked by ``haproxy -c``."""
    addresses = [f"--host={host_id}={url.removeprefix('http://')}" for host_id, url in hosts.items()]
    command = [sys.executable, "-m", "agentic_driver", "cluster", "config", "--format", "haproxy", "--bind", bind]
    done = subprocess.run(
        [*command, *addresses], capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL, check=False
    )
    if done.returncode != 0 or "haproxy accepts the configuration" not in done.stderr:
        raise RuntimeError(f"cluster config failed or was not checked by haproxy -c:\n{done.stderr}")
    return done.stdout


def _routes_to(proxy_url: str, host_ids: list[str], token: str, process: subprocess.Popen[bytes]) -> bool:
    deadline = time.monotonic() + STARTUP_TIMEOUT_S
    headers = {"Authorization": f"Bearer {token}"}
    with httpx.Client(base_url=proxy_url, headers=headers, trust_env=False, timeout=2.0) as http:
        while time.monotonic() < deadline and process.poll() is None:
            with contextlib.suppress(httpx.TransportError):
                answers = [http.get("/v1/discovery", headers={"Agentic-Host": host_id}) for host_id in host_ids]
                if all(
                    a.status_code == 200 and a.json()["hostId"] == h for a, h in zip(answers, host_ids, strict=True)
                ):
                    return True
            time.sleep(POLL_S)
    return False


@contextlib.contextmanager
def running_haproxy(hosts: Mapping[str, str], workdir: Path, token: str) -> Iterator[str]:
    """HAProxy routing to ``hosts`` (host id -> base URL); yields its base URL once it reaches each of them."""
    if shutil.which("haproxy") is None:
        raise RuntimeError("haproxy is not installed: `make setup-cluster` installs the Debian package")
    log_text = ""
    for attempt in range(BIND_ATTEMPTS):  # a free port can be taken between probing and binding
        port = free_port()
        config_path = workdir / f"haproxy-{attempt}.cfg"
        config_path.write_text(generated_config(hosts, f"127.0.0.1:{port}"), encoding="utf-8")
        log_path = workdir / f"haproxy-{attempt}.log"
        with log_path.open("wb") as log:
            process = subprocess.Popen(
                ["haproxy", "-db", "-f", str(config_path)],
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
            )
        try:
            if _routes_to(f"http://127.0.0.1:{port}", list(hosts), token, process):
                yield f"http://127.0.0.1:{port}"
                return
        finally:
            stop_process(process)
        log_text = log_path.read_text(encoding="utf-8", errors="replace")
        if "bind" not in log_text.lower():
            break
    raise RuntimeError(f"haproxy did not route to every host within {STARTUP_TIMEOUT_S:.0f} s; its log:\n{log_text}")
