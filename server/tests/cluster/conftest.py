"""Real host processes on free loopback ports behind the HAProxy configuration the product generates.

``Cluster`` starts N hosts from one host JSON (each with ``--host-id``), writes
the proxy config with ``agentic-driver cluster config --format haproxy`` (which
checks it with ``haproxy -c``), starts ``haproxy -db`` on a free port and waits
until the proxy routes to every host. Every process is stopped by its pid.
HAProxy and nginx are Debian packages: ``make test-cluster`` installs them when missing; ``engine="nginx"``
runs the nginx configuration instead.
"""

from __future__ import annotations

import contextlib
import json
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from agentic_driver_testing import free_port, stop_process
from e2e.conftest import (
    ALICE,
    ALL_GRANTS,
    BOB,
    REQUEST_TIMEOUT,
    Host,
    echo_provider,
    launch_host,
    token_entry,
)

from agentic_driver.ids import owner_of

STARTUP_TIMEOUT_S = 20.0
POLL_S = 0.02
HOST_HEADER = "Agentic-Host"

for _engine in ("haproxy", "nginx"):
    if shutil.which(_engine) is None:
        raise pytest.UsageError(f"the cluster tests need {_engine}: run them with `make test-cluster` (it installs it)")


def cluster_config(max_concurrent_runs: int = 64, drain_timeout_ms: int = 30_000) -> dict[str, Any]:
    """One host JSON for every host of a cluster (``--host-id`` tells them apart)."""
    return {
        "hostId": "unused",
        "providers": [echo_provider("echo")],
        "sessions": {"retentionMs": 600_000, "maxEntries": 1000, "maxMessages": 100},
        "limits": {
            "maxConcurrentRuns": max_concurrent_runs,
            "maxQueuedRuns": 256,
            "drainTimeoutMs": drain_timeout_ms,
            "heartbeatMs": 200,
        },
        "tokens": [token_entry("alice", ALICE, ["*"], ALL_GRANTS), token_entry("bob", BOB, ["*"], ALL_GRANTS)],
    }


def owner_header(url_path: str, body: bytes | None) -> str | None:
    """The ``Agentic-Host`` a client sends: the host named by the path's id, else by the body's session id."""
    for segment in url_path.split("/"):
        owner = owner_of(segment)
        if owner is not None:
            return owner
    if body:
        try:
            document = json.loads(body)
        except ValueError:
            return None
        session = document.get("session") if isinstance(document, dict) else None
        if isinstance(session, dict) and isinstance(session.get("id"), str):
            return owner_of(session["id"])
    return None


def add_owner_header(request: httpx.Request) -> None:
    """An httpx request hook doing what the contract asks every client to do (``Agentic-Host`` from the id)."""
    if HOST_HEADER not in request.headers:
        owner = owner_header(request.url.path, request.content if request.method != "GET" else None)
        if owner is not None:
            request.headers[HOST_HEADER] = owner


async def aadd_owner_header(request: httpx.Request) -> None:
    add_owner_header(request)


@contextlib.contextmanager
def hung(host: Host) -> Iterator[None]:
    """The host process stopped (SIGSTOP) for the block: the kernel still accepts its connections and takes
    in what is sent, but nothing answers. SIGCONT when the block ends, also when it fails."""
    host.process.send_signal(signal.SIGSTOP)
    try:
        yield
    finally:
        if host.process.poll() is None:
            host.process.send_signal(signal.SIGCONT)


@dataclass
class Proxy:
    base_url: str
    process: subprocess.Popen[bytes]
    config_path: Path
    log_path: Path

    def stop(self) -> None:
        stop_process(self.process)

    def log_text(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")


@dataclass
class Cluster:
    hosts: dict[str, Host]
    proxy: Proxy

    @property
    def url(self) -> str:
        return self.proxy.base_url

    def http(
        self, token: str = ALICE, *, route: bool = False, timeout: httpx.Timeout = REQUEST_TIMEOUT
    ) -> httpx.Client:
        """httpx through the proxy; ``route`` adds the ``Agentic-Host`` header as clients do."""
        hooks = {"request": [add_owner_header]} if route else {}
        return httpx.Client(
            base_url=self.url,
            headers={"Authorization": f"Bearer {token}"},
            timeout=timeout,
            trust_env=False,
            event_hooks=hooks,
        )

    def stop(self) -> None:
        self.proxy.stop()
        for host in self.hosts.values():
            host.stop()


def proxy_config(engine: str, hosts: dict[str, Host], bind: str, extra: tuple[str, ...] = ()) -> str:
    """The product's own output: ``agentic-driver cluster config --format ENGINE``, which checks it with
    ``haproxy -c`` or ``nginx -t``."""
    arguments = [f"--host={host_id}={host.base_url.removeprefix('http://')}" for host_id, host in hosts.items()]
    command = [sys.executable, "-m", "agentic_driver", "cluster", "config", "--format", engine, "--bind", bind]
    command += [*arguments, *extra]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL, check=False)
    assert done.returncode == 0, done.stderr
    assert f"{engine} accepts the configuration" in done.stderr
    return done.stdout


def proxy_command(engine: str, config_path: Path) -> list[str]:
    if engine == "haproxy":
        return ["haproxy", "-db", "-f", str(config_path)]
    return ["nginx", "-p", str(config_path.parent), "-c", str(config_path), "-g", "daemon off;"]


def start_proxy(
    hosts: dict[str, Host], workdir: Path, token: str = ALICE, engine: str = "haproxy", extra: tuple[str, ...] = ()
) -> Proxy:
    for attempt in range(3):  # a free port can be taken between probing and binding
        port = free_port()
        config_path = workdir / f"{engine}-{attempt}.conf"
        config_path.write_text(proxy_config(engine, hosts, f"127.0.0.1:{port}", extra), encoding="utf-8")
        log_path = workdir / f"{engine}-{attempt}.log"
        with log_path.open("wb") as log:
            process = subprocess.Popen(
                proxy_command(engine, config_path), stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL
            )
        proxy = Proxy(f"http://127.0.0.1:{port}", process, config_path, log_path)
        if wait_until_routed(proxy, list(hosts), token):
            return proxy
        proxy.stop()
        if "bind" not in proxy.log_text().lower():
            break
    raise RuntimeError(f"{engine} did not route to every host; its log:\n{proxy.log_text()}")


def routed_to(http: httpx.Client, host_id: str) -> bool:
    try:
        answer = http.get("/v1/discovery", headers={HOST_HEADER: host_id}, timeout=2.0)
    except httpx.TransportError:
        return False
    return answer.status_code == 200 and answer.json()["hostId"] == host_id


def wait_until_routed(proxy: Proxy, host_ids: list[str], token: str) -> bool:
    deadline = time.monotonic() + STARTUP_TIMEOUT_S
    with httpx.Client(base_url=proxy.base_url, headers={"Authorization": f"Bearer {token}"}, trust_env=False) as http:
        while time.monotonic() < deadline:
            if proxy.process.poll() is not None:
                return False
            if all(routed_to(http, host_id) for host_id in host_ids):
                return True
            time.sleep(POLL_S * 5)
    return False


def start_cluster(
    host_ids: list[str],
    workdir: Path,
    config: dict[str, Any] | None = None,
    env: dict[str, str] | None = None,
    token: str = ALICE,
    engine: str = "haproxy",
    proxy_args: tuple[str, ...] = (),
) -> Cluster:
    """Hosts for ``host_ids`` (one host JSON), then HAProxy in front (``proxy_args``: more ``cluster config``
    flags), ready once it routes to each of them."""
    config = config or cluster_config()
    hosts: dict[str, Host] = {}
    try:
        for host_id in host_ids:
            hosts[host_id] = launch_host(
                host_id, config, workdir, env=env, log_level="warning", args=("--host-id", host_id)
            )
        return Cluster(hosts, start_proxy(hosts, workdir, token, engine, proxy_args))
    except BaseException:
        for host in hosts.values():
            host.stop()
        raise


@pytest.fixture
def make_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[..., Cluster]]:
    """Clusters that live for one test (each process stopped by its pid at teardown)."""
    made: list[Cluster] = []

    def make(
        host_ids: list[str],
        config: dict[str, Any] | None = None,
        env: dict[str, str] | None = None,
        engine: str = "haproxy",
        proxy_args: tuple[str, ...] = (),
    ) -> Cluster:
        workdir = tmp_path_factory.mktemp("cluster")
        cluster = start_cluster(host_ids, workdir, config, env, engine=engine, proxy_args=proxy_args)
        made.append(cluster)
        return cluster

    yield make
    for cluster in made:
        cluster.stop()


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    """Three hosts behind the generated HAProxy config, shared by a module's tests."""
    started = start_cluster(["host-a", "host-b", "host-c"], tmp_path_factory.mktemp("cluster"))
    yield started
    started.stop()
