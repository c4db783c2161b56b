"""The three targets: how each is installed, started, stopped, and spoken to.

- ``host``: ``agentic-driver serve`` with the embedded default (echo, latency 0).
- ``floor``: ``python -m harness.floor`` (same uvicorn settings, least work).
- ``peer``: the LangGraph API server in-memory (``langgraph dev``) with a one-node
  echo graph, from its own virtual environment ``bench/.venv-peer``.

Every server runs in its own process group (so stopping it ends only what the
harness started) and, on a machine with two or more cores, is pinned to the
first core while the load generator takes another.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import agentic_driver_testing as testing
import orjson
from agentic_driver_testing import free_port, stop_process

from .httpclient import Request, Response

__all__ = [
    "AgenticApi",
    "Api",
    "LangGraphApi",
    "RunningTarget",
    "Session",
    "TargetSpec",
    "TargetUnavailable",
    "autogroup_nice",
    "ensure_peer_venv",
    "floor_spec",
    "free_port",
    "host_spec",
    "peer_spec",
    "raise_priority",
    "restore_autogroup",
    "server_cpus",
    "start",
]

BENCH = Path(__file__).resolve().parent.parent
PEER_DIR = BENCH / "peer"
PEER_VENV = BENCH / ".venv-peer"
PEER_REQUIREMENTS = BENCH / "requirements-peer.txt"
TOKEN = "bench-token-" + "x" * 20


class TargetUnavailable(Exception):
    """The target cannot be installed or started here; the message says exactly why."""


# -- the API each target speaks ---------------------------------------------------


@dataclass(slots=True)
class Session:
    id: str
    revision: int = 0


class Api:
    """Builds requests for one target's session API; sessions keep their revision client-side."""

    headers: dict[str, str]
    health_path: str
    delete_status: int = 204
    create_status: int = 200

    def create(self) -> Request:
        raise NotImplementedError

    def created(self, response: Response) -> Session:
        raise NotImplementedError

    def turn(self, session: Session, text: str) -> Request:
        raise NotImplementedError

    def stream_turn(self, session: Session, text: str) -> Request:
        raise NotImplementedError

    def turned(self, session: Session) -> None:
        """A turn on ``session`` succeeded."""

    def read(self, session: Session) -> Request:
        raise NotImplementedError

    def delete(self, session: Session) -> Request:
        raise NotImplementedError

    def streaming_available(self, openapi: dict[str, Any]) -> bool:
        raise NotImplementedError


class AgenticApi(Api):
    """Our contract: ``POST /v1/sessions``, ``POST /v1/runs`` with ``session: {id, revision}``, ..."""

    health_path = "/healthz"
    create_status = 201

    def __init__(self, token: str = TOKEN, provider: str = "echo", model: str = "echo-1") -> None:
        self.headers = {"Authorization": f"Bearer {token}"}
        self._provider, self._model = provider, model
        self._create = Request(
            "POST", "/v1/sessions", orjson.dumps({"provider": provider, "model": model, "mode": "history"})
        )

    def create(self) -> Request:
        return self._create

    def created(self, response: Response) -> Session:
        info = orjson.loads(response.body)["session"]
        return Session(info["id"], info["revision"])

    def _run_body(self, session: Session, text: str) -> bytes:
        return orjson.dumps(
            {
                "provider": self._provider,
                "model": self._model,
                "input": text,
                "session": {"id": session.id, "revision": session.revision},
            }
        )

    def turn(self, session: Session, text: str) -> Request:
        return Request("POST", "/v1/runs", self._run_body(session, text))

    def stream_turn(self, session: Session, text: str) -> Request:
        return Request("POST", "/v1/runs/stream", self._run_body(session, text), stream=True)

    def turned(self, session: Session) -> None:
        session.revision += 1

    def read(self, session: Session) -> Request:
        return Request("GET", f"/v1/sessions/{session.id}")

    def delete(self, session: Session) -> Request:
        return Request("DELETE", f"/v1/sessions/{session.id}")

    def streaming_available(self, openapi: dict[str, Any]) -> bool:
        return "/v1/runs/stream" in openapi.get("paths", {})


class LangGraphApi(Api):
    """The peer: threads are sessions, ``POST /threads/{id}/runs/wait`` is a turn."""

    health_path = "/ok"

    def __init__(self, assistant: str = "echo") -> None:
        self.headers = {}
        self._assistant = assistant

    def create(self) -> Request:
        return Request("POST", "/threads", b"{}")

    def created(self, response: Response) -> Session:
        return Session(orjson.loads(response.body)["thread_id"])

    def _run_body(self, text: str, **extra: Any) -> bytes:
        body = {"assistant_id": self._assistant, "input": {"messages": [{"role": "user", "content": text}]}}
        return orjson.dumps(body | extra)

    def turn(self, session: Session, text: str) -> Request:
        return Request("POST", f"/threads/{session.id}/runs/wait", self._run_body(text))

    def stream_turn(self, session: Session, text: str) -> Request:
        body = self._run_body(text, stream_mode="values")
        return Request("POST", f"/threads/{session.id}/runs/stream", body, stream=True)

    def read(self, session: Session) -> Request:
        return Request("GET", f"/threads/{session.id}")

    def delete(self, session: Session) -> Request:
        return Request("DELETE", f"/threads/{session.id}")

    def streaming_available(self, openapi: dict[str, Any]) -> bool:
        return "/threads/{thread_id}/runs/stream" in openapi.get("paths", {})


# -- starting and stopping -------------------------------------------------------


def server_cpus() -> tuple[set[int] | None, set[int] | None]:
    """(server cores, client cores): disjoint when two or more cores are available, else (None, None)."""
    available = sorted(os.sched_getaffinity(0))
    if len(available) < 2:
        return None, None
    return {available[0]}, set(available[1:2])


@dataclass(slots=True)
class TargetSpec:
    name: str
    api: Api
    command: Callable[[int], list[str]]
    env: dict[str, str]
    cwd: Path
    description: str
    versions: Callable[[], dict[str, str]] = dict
    """The versions that matter for this target (asked only when results are written)."""
    setup: Callable[[], Path | None] | None = None
    """Prepares a working directory (returns it) before each start; None keeps ``cwd``."""
    start_timeout_s: float = 60.0


@dataclass(slots=True)
class RunningTarget:
    spec: TargetSpec
    process: subprocess.Popen[bytes]
    port: int
    startup_s: float
    log: Path
    workdir: Path | None = None

    @property
    def pid(self) -> int:
        return self.process.pid

    def stop(self) -> None:
        """SIGINT to the process group (uvicorn's graceful stop), then SIGKILL if it lingers."""
        stop_process(self.process, sig=signal.SIGINT, group=True, timeout_s=10)
        if self.workdir is not None:
            shutil.rmtree(self.workdir, ignore_errors=True)


NICE = -10
"""Scheduling priority of every server and of the load generator, where allowed (root): on a machine shared
with other work, the benchmark's processes then win most contended time slices, whichever target runs."""


def autogroup_nice() -> int | None:
    """The nice value of the calling session's autogroup, or None where there is none."""
    try:
        with open("/proc/self/autogroup") as autogroup:
            return int(autogroup.read().split()[-1])
    except (OSError, ValueError, IndexError):
        return None


def restore_autogroup(nice: int | None) -> None:
    """Put the calling session's autogroup back to ``nice`` (the harness shares it with the shell that ran it)."""
    if nice is None:
        return
    with contextlib.suppress(OSError), open("/proc/self/autogroup", "w") as autogroup:
        autogroup.write(str(nice))


def raise_priority() -> bool:
    """Give the calling process NICE; False when the system does not allow it (the run goes on as is).

    With autogroup scheduling (``/proc/sys/kernel/sched_autogroup_enabled``) the CPU is shared between
    sessions first and a process's nice counts only inside its own session, so the session's autogroup
    (each server has its own session; the load generator shares the one it was started in) gets it too.
    """
    raised = False
    try:
        os.setpriority(os.PRIO_PROCESS, 0, NICE)
        raised = True
    except OSError:
        pass
    try:
        with open("/proc/self/autogroup", "w") as autogroup:
            autogroup.write(str(NICE))
    except OSError:
        pass
    return raised


def start(spec: TargetSpec, logs: Path, cpus: set[int] | None, *, priority: bool = False) -> RunningTarget:
    """Start the target and wait for its first healthy response; the time that took is its start-up."""
    port = free_port()
    workdir = spec.setup() if spec.setup is not None else None
    logs.mkdir(parents=True, exist_ok=True)
    log = logs / f"{spec.name}.log"

    def pin() -> None:  # runs in the child before exec: every thread it starts inherits core and priority
        if cpus:
            os.sched_setaffinity(0, cpus)
        if priority:
            raise_priority()

    host = testing.spawn(
        spec.command(port),
        port,
        log,
        env=spec.env,
        cwd=workdir or spec.cwd,
        append_log=True,
        start_new_session=True,
        preexec_fn=pin,
    )
    target = RunningTarget(spec, host.process, port, 0.0, log, workdir)
    if host.wait_ready(spec.api.health_path, spec.start_timeout_s, interval_s=0.005, probe_timeout_s=1.0):
        target.startup_s = time.perf_counter() - host.started
        return target
    exited = host.process.poll()
    target.stop()
    if exited is not None:
        raise TargetUnavailable(
            f"{spec.name} exited with status {exited} during start-up; last log lines:\n{_tail(log)}"
        )
    raise TargetUnavailable(
        f"{spec.name} gave no healthy response within {spec.start_timeout_s:.0f} s; last log lines:\n{_tail(log)}"
    )


def _tail(log: Path, lines: int = 15) -> str:
    try:
        return "\n".join(log.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"


# -- the three targets ---------------------------------------------------------------


def _base_env() -> dict[str, str]:
    keep = ("PATH", "LANG", "LC_ALL", "TMPDIR", "HOME")
    return {k: v for k, v in os.environ.items() if k in keep}


def _version(module: str, python: str = sys.executable) -> str:
    try:
        return subprocess.run(
            [python, "-c", f"import importlib.metadata as m; print(m.version({module!r}))"],
            capture_output=True,
            text=True,
            timeout=30,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def _server_versions(python: str = sys.executable) -> dict[str, str]:
    names = ("uvicorn", "starlette", "uvloop", "httptools")
    code = (
        "import importlib.metadata as m, sys\n"
        f"for n in {names!r}:\n"
        "    try: print(n, m.version(n))\n"
        "    except m.PackageNotFoundError: print(n, 'absent')\n"
        "print('python', sys.version.split()[0])"
    )
    try:
        out = subprocess.run([python, "-c", code], capture_output=True, text=True, timeout=30, check=True).stdout
    except (OSError, subprocess.SubprocessError):
        return {}
    return dict(line.split(" ", 1) for line in out.splitlines() if " " in line)


def host_spec() -> TargetSpec:
    env = _base_env() | {"AGENTIC_DRIVER_TOKEN": TOKEN}
    return TargetSpec(
        name="host",
        api=AgenticApi(),
        command=lambda port: [
            sys.executable,
            "-m",
            "agentic_driver",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--log-level",
            "warning",
        ],
        env=env,
        cwd=BENCH,
        description="agentic-driver serve, embedded default (echo provider, latency 0)",
        versions=lambda: (
            {name: _version(name) for name in ("agentic-driver", "fastapi", "pydantic")} | _server_versions()
        ),
    )


def floor_spec() -> TargetSpec:
    env = _base_env() | {"AGENTIC_DRIVER_TOKEN": TOKEN, "PYTHONPATH": str(BENCH)}
    return TargetSpec(
        name="floor",
        api=AgenticApi(),
        command=lambda port: [sys.executable, "-m", "harness.floor", "--host", "127.0.0.1", "--port", str(port)],
        env=env,
        cwd=BENCH,
        description="minimal Starlette app, dict of sessions, same routes and JSON shapes, same uvicorn settings",
        versions=lambda: {"orjson": _version("orjson")} | _server_versions(),
    )


PEER_JOBS = 256
"""``--n-jobs-per-worker``: concurrent runs the peer executes (the fill keeps 250 turns in flight)."""


def peer_spec() -> TargetSpec:
    python = PEER_VENV / "bin" / "python"

    def setup() -> Path:
        # A fresh working directory per start: the dev server writes .langgraph_api/ into its cwd.
        workdir = Path(tempfile.mkdtemp(prefix="bench-peer-"))
        for name in ("langgraph.json", "echo_graph.py", "launch.py"):
            shutil.copy(PEER_DIR / name, workdir / name)
        return workdir

    env = _base_env() | {
        "LANGGRAPH_CLI_NO_ANALYTICS": "1",  # langgraph-cli: no usage analytics
        "LANGGRAPH_NO_VERSION_CHECK": "true",  # langgraph-api: no PyPI version check thread
        "LANGSMITH_TRACING": "false",
        "LANGSMITH_TRACING_V2": "false",
        "LANGCHAIN_TRACING_V2": "false",
        "LOG_LEVEL": "WARNING",  # our host logs nothing per request either
    }
    return TargetSpec(
        name="peer",
        api=LangGraphApi(),
        command=lambda port: [
            str(python),
            "launch.py",
            "dev",
            "--no-reload",
            "--no-browser",
            "--allow-blocking",
            "--n-jobs-per-worker",
            str(PEER_JOBS),
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--config",
            "langgraph.json",
        ],
        env=env,
        cwd=PEER_DIR,
        description=(
            "LangGraph API server in-memory (langgraph dev --no-reload --no-browser --allow-blocking "
            f"--n-jobs-per-worker {PEER_JOBS}, disable_persistence), one-node echo graph"
        ),
        setup=setup,
        versions=lambda: (
            {
                name: _version(name, str(python))
                for name in ("langgraph-cli", "langgraph-api", "langgraph-runtime-inmem", "langgraph")
            }
            | _server_versions(str(python))
        ),
    )


def ensure_peer_venv(log: Callable[[str], None] = print) -> None:
    """Install the pinned peer into bench/.venv-peer (once per requirements file), or raise TargetUnavailable."""
    digest = hashlib.sha256(PEER_REQUIREMENTS.read_bytes()).hexdigest()
    stamp = PEER_VENV / ".installed"
    if stamp.exists() and stamp.read_text().strip() == digest:
        return
    log(f"installing the peer into {PEER_VENV.relative_to(BENCH.parent)} from {PEER_REQUIREMENTS.name} ...")
    base = getattr(sys, "_base_executable", sys.executable)
    steps = [
        [base, "-m", "venv", "--clear", str(PEER_VENV)],
        [
            str(PEER_VENV / "bin" / "python"),
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "-r",
            str(PEER_REQUIREMENTS),
        ],
    ]
    for step in steps:
        try:
            done = subprocess.run(step, capture_output=True, text=True, timeout=600)
        except (OSError, subprocess.TimeoutExpired) as error:
            raise TargetUnavailable(f"peer install step {' '.join(step[:4])} failed: {error}") from None
        if done.returncode != 0:
            tail = "\n".join((done.stderr or done.stdout).strip().splitlines()[-8:])
            raise TargetUnavailable(f"peer install step {' '.join(step[:4])} exited {done.returncode}:\n{tail}")
    stamp.write_text(digest + "\n")
