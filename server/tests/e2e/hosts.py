"""Real host processes for the end-to-end tests, and the host JSON they are started from.

``launch_host`` starts one ``python -m agentic_driver serve`` process on a free
127.0.0.1 port from a host JSON written under a work directory and returns a
``Host`` once ``/healthz`` answers; ``Host`` builds clients for it and reads its
``/metrics``. The configuration builders (``echo_provider``, ``token_entry``,
``simple_config``) and the shared configurations (``MAIN_CONFIG``,
``actions_config``), the test tokens and the hosts' bounds live here too. The
session-scoped fixtures that start these hosts are in ``conftest.py``.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import agentic_driver_testing as testing
import httpx
from agentic_driver_client import AuthenticatedClient, Client
from agentic_driver_testing import stop_process

from . import host_tools

REPO_ROOT = Path(__file__).resolve().parents[3]

STARTUP_TIMEOUT_S = 15.0
STOP_TIMEOUT_S = 5.0
REQUEST_TIMEOUT = httpx.Timeout(20.0)
SERVE = (sys.executable, "-m", "agentic_driver", "serve")

RETENTION_MS = 60_000
MAIN_MAX_BODY_BYTES = 65_536
ALL_GRANTS = ["create", "read", "continue", "delete"]

# Bearer secrets (test-only; every one is at least 16 characters).
ALICE = "alice-full-token-000001"
ALICE_NO_CREATE = "alice-no-create-token-01"
ALICE_NO_READ = "alice-no-read-token-0001"
ALICE_NO_CONTINUE = "alice-no-continue-token1"
ALICE_NO_DELETE = "alice-no-delete-token-01"
ALICE_NO_GRANTS = "alice-no-grants-token-01"
ALICE_OTHER_ONLY = "alice-other-only-token-1"
BOB = "bob-full-token-00000001"
CAROL = "carol-hashed-secret-0001"  # configured only as tokenSha256
DAVE = "dave-env-secret-00000001"  # configured only as tokenEnv
DAVE_ENV = "AGENTIC_DRIVER_E2E_DAVE_TOKEN"


# -- host processes -------------------------------------------------------------


_METRIC_LINE = re.compile(r"^([A-Za-z_:][A-Za-z0-9_:]*)(?:\{(.*)\})?\s+(\S+)$")
_LABEL = re.compile(r'([A-Za-z_][A-Za-z0-9_]*)="((?:[^"\\]|\\.)*)"')


def parse_metrics(text: str) -> list[tuple[str, dict[str, str], float]]:
    """Prometheus text exposition -> (name, labels, value) samples."""
    samples = []
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        match = _METRIC_LINE.match(line)
        assert match is not None, f"unparseable metrics line: {line!r}"
        name, labels, value = match.groups()
        samples.append((name, dict(_LABEL.findall(labels or "")), float(value)))
    return samples


@dataclass
class Host:
    name: str
    base_url: str
    config: dict[str, Any]
    process: subprocess.Popen[bytes]
    log_path: Path

    # clients -------------------------------------------------------------------

    def client(self, token: str, timeout: httpx.Timeout = REQUEST_TIMEOUT) -> AuthenticatedClient:
        """A generated client with a bearer token; use it as a (async) context manager."""
        return AuthenticatedClient(
            base_url=self.base_url,
            token=token,
            timeout=timeout,
            raise_on_unexpected_status=True,
            httpx_args={"trust_env": False},
        )

    def anonymous(self) -> Client:
        """A generated client that sends no Authorization header."""
        return Client(
            base_url=self.base_url,
            timeout=REQUEST_TIMEOUT,
            raise_on_unexpected_status=True,
            httpx_args={"trust_env": False},
        )

    def raw(self, token: str | None = None) -> httpx.Client:
        """Plain httpx, for requests the generated client cannot send."""
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return httpx.Client(base_url=self.base_url, headers=headers, timeout=REQUEST_TIMEOUT, trust_env=False)

    def araw(self, token: str | None = None, timeout: httpx.Timeout = REQUEST_TIMEOUT) -> httpx.AsyncClient:
        """Plain async httpx, e.g. with a short read timeout to give up (disconnect) mid-request."""
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return httpx.AsyncClient(base_url=self.base_url, headers=headers, timeout=timeout, trust_env=False)

    # observation ---------------------------------------------------------------

    def metrics(self) -> list[tuple[str, dict[str, str], float]]:
        with self.raw() as http:
            response = http.get("/metrics")
        assert response.status_code == 200
        return parse_metrics(response.text)

    def provider_calls(self, provider: str, outcome: str | None = None) -> int:
        """Model calls made on ``provider`` (all outcomes, or one), from agentic_driver_provider_calls_total."""
        total = sum(
            value
            for name, labels, value in self.metrics()
            if name == "agentic_driver_provider_calls_total"
            and labels.get("provider") == provider
            and (outcome is None or labels.get("outcome") == outcome)
        )
        return int(total)

    def error_count(self, code: str) -> int:
        return int(
            sum(
                value
                for name, labels, value in self.metrics()
                if name == "agentic_driver_errors_total" and labels.get("code") == code
            )
        )

    def runs_ended(self, outcome: str) -> int:
        """Runs that ended with ``outcome`` (completed, failed, cancelled, timeout), from agentic_driver_runs_total."""
        return int(
            sum(
                value
                for name, labels, value in self.metrics()
                if name == "agentic_driver_runs_total" and labels.get("outcome") == outcome
            )
        )

    def sessions_stored(self) -> int:
        values = [value for name, _, value in self.metrics() if name == "agentic_driver_sessions_stored"]
        assert len(values) == 1
        return int(values[0])

    def healthy(self) -> bool:
        try:
            with self.raw() as http:
                response = http.get("/healthz", timeout=2.0)
        except httpx.TransportError:
            return False
        return response.status_code == 200 and response.json() == {"status": "ok"}

    def log_text(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    # lifecycle -----------------------------------------------------------------

    def stop(self) -> None:
        stop_process(self.process)


def launch_host(
    name: str,
    config: dict[str, Any],
    workdir: Path,
    env: dict[str, str] | None = None,
    python_path: tuple[Path, ...] = (),
    log_level: str = "warning",
    args: tuple[str, ...] = (),
    port: int | None = None,
) -> Host:
    """Start a real host for ``config`` and return it once ``/healthz`` answers (on ``port`` if given).

    ``env`` adds to (or overrides) the inherited environment; ``python_path``
    directories are put first on the host's PYTHONPATH (for ``module:function``
    host tools the host process must import).
    """
    config_path = workdir / f"{name}.json"
    config_path.write_text(json.dumps(config, indent=2), encoding="utf-8")
    child_env = {**os.environ, **(env or {})}
    if python_path:
        inherited = [child_env["PYTHONPATH"]] if child_env.get("PYTHONPATH") else []
        child_env["PYTHONPATH"] = os.pathsep.join([*(str(p) for p in python_path), *inherited])
    started = testing.start(
        lambda bind: testing.serve_command(bind, "--config", str(config_path), *args, log_level=log_level),
        lambda attempt, bind: workdir / f"{name}-{attempt}-{bind}.log",
        port=port,
        name=f"host {name!r}",
        timeout_s=STARTUP_TIMEOUT_S,
        env=child_env,
        cwd=workdir,
    )
    return Host(name, started.base_url, config, started.process, started.log_path)


# -- host configurations ----------------------------------------------------------


def echo_provider(
    provider_id: str, *, account: str | None = "acct-1", native: bool = True, models: tuple[str, ...] = ("echo-1",)
) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "id": provider_id,
        "kind": "echo",
        "models": list(models),
        "settings": {"native": native, "latencyMs": 0},
    }
    if account is not None:
        entry["accountId"] = account
    return entry


def token_entry(subject: str, secret: str, providers: list[str], grants: list[str]) -> dict[str, Any]:
    return {"subject": subject, "token": secret, "providers": providers, "sessions": grants}


def without(grant: str) -> list[str]:
    return [g for g in ALL_GRANTS if g != grant]


def simple_config(
    host_id: str,
    *,
    sessions: dict[str, Any] | None,
    max_concurrent_runs: int = 16,
    max_body_bytes: int = MAIN_MAX_BODY_BYTES,
) -> dict[str, Any]:
    """One bound echo instance and one all-powerful token for alice."""
    config: dict[str, Any] = {
        "hostId": host_id,
        "providers": [echo_provider("echo")],
        "limits": {"maxConcurrentRuns": max_concurrent_runs, "maxBodyBytes": max_body_bytes},
        "tokens": [token_entry("alice", ALICE, ["echo"], ALL_GRANTS)],
    }
    if sessions is not None:
        config["sessions"] = sessions
    return config


MAIN_CONFIG: dict[str, Any] = {
    "hostId": "e2e-main",
    "providers": [
        echo_provider("echo", models=("echo-1", "echo-2")),
        echo_provider("echo-unbound", account=None),
        echo_provider("echo-history", native=False),
        echo_provider("echo-other", account="acct-2"),
    ],
    "sessions": {"retentionMs": RETENTION_MS, "maxEntries": 500, "maxMessages": 100, "maxRecordBytes": 200_000},
    "limits": {"maxConcurrentRuns": 32, "maxBodyBytes": MAIN_MAX_BODY_BYTES},
    "tokens": [
        token_entry("alice", ALICE, ["*"], ALL_GRANTS),
        token_entry("alice", ALICE_NO_CREATE, ["*"], without("create")),
        token_entry("alice", ALICE_NO_READ, ["*"], without("read")),
        token_entry("alice", ALICE_NO_CONTINUE, ["*"], without("continue")),
        token_entry("alice", ALICE_NO_DELETE, ["*"], without("delete")),
        token_entry("alice", ALICE_NO_GRANTS, ["*"], []),
        token_entry("alice", ALICE_OTHER_ONLY, ["echo-other"], ALL_GRANTS),
        token_entry("bob", BOB, ["*"], ALL_GRANTS),
        {
            "subject": "carol",
            "tokenSha256": hashlib.sha256(CAROL.encode()).hexdigest(),
            "providers": ["echo"],
            "sessions": ["read"],
        },
        {"subject": "dave", "tokenEnv": DAVE_ENV, "providers": ["echo"], "sessions": ["create", "read"]},
    ],
}


# -- hosts for streaming, functions, approvals, idempotency and the wait queue ---------

E2E_DIR = Path(__file__).resolve().parent
HEARTBEAT_MS = 50
IDEMPOTENCY_MAX_KEYS = 200


def actions_config() -> dict[str, Any]:
    """Host tools from ``host_tools`` (``add`` runs freely, ``write_note`` needs approval).

    Heartbeats stay at the default (15 s) here: see ``heartbeat_host``.
    """
    return {
        "hostId": "e2e-actions",
        "providers": [echo_provider("echo")],
        "sessions": {"retentionMs": RETENTION_MS},
        "limits": {"maxConcurrentRuns": 16, "maxQueuedRuns": 16},
        "idempotency": {"maxKeys": IDEMPOTENCY_MAX_KEYS, "ttlMs": 600_000},
        "tools": [
            {
                "name": "add",
                "handler": "host_tools:add",
                "description": "Add two numbers.",
                "parameters": host_tools.ADD_PARAMETERS,
                "approval": "never",
            },
            {
                "name": "write_note",
                "handler": "host_tools:write_note",
                "description": "Write a note somewhere a person will read it.",
                "parameters": host_tools.WRITE_NOTE_PARAMETERS,
                "approval": "required",
            },
        ],
        "tokens": [
            token_entry("alice", ALICE, ["*"], ALL_GRANTS),
            token_entry("bob", BOB, ["*"], ALL_GRANTS),
        ],
    }


# -- accounting and native history filters ----------------------------------------

LEDGER_INPUT_PER_MILLION = 3.0
LEDGER_OUTPUT_PER_MILLION = 15.0
LEDGER_COMPACT_MAX_CHARS = 12
