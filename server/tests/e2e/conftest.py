"""End-to-end harness: real host processes on loopback, talked to through the generated client.

Every host is a separate ``python -m agentic_driver serve`` process on a free
127.0.0.1 port, started from a host JSON written under pytest's tmp directory,
polled on ``/healthz`` (bounded) until it serves, and terminated (then killed)
at fixture teardown. Hosts are session-scoped where tests can share one (each
test creates its own sessions); hosts with tight bounds are separate.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import re
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import agentic_driver_testing as testing
import httpx
import pytest
from agentic_driver_client import AuthenticatedClient, Client
from agentic_driver_client.api.runs import run, submit_run_actions
from agentic_driver_client.api.sessions import (
    create_session,
    delete_session,
    fork_session,
    read_session,
    truncate_session,
)
from agentic_driver_client.models import (
    ApprovalDecision,
    CreateSessionRequest,
    CreateSessionResponse,
    ForkSessionRequest,
    FunctionResult,
    Message,
    MessageRole,
    NativeHistoryFilter,
    ReadSessionResponse,
    RunRequest,
    RunResult,
    SessionHandle,
    SessionInfo,
    SessionMode,
    SubmitRunActionsRequest,
    ToolDefinition,
    ToolDefinitionParameters,
    TruncateSessionRequest,
)
from agentic_driver_client.types import UNSET
from agentic_driver_testing import stop_process

from . import host_tools

REPO_ROOT = Path(__file__).resolve().parents[3]
TIMESTAMP = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")

STARTUP_TIMEOUT_S = 15.0
STOP_TIMEOUT_S = 5.0
POLL_INTERVAL_S = 0.02
WAIT_TIMEOUT_S = 10.0
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


# -- fixtures ---------------------------------------------------------------------


@pytest.fixture(scope="session")
def launch(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[..., Host]]:
    """Start hosts that live until the end of the test session (each is stopped at teardown)."""
    hosts: list[Host] = []

    def _launch(
        name: str,
        config: dict[str, Any],
        env: dict[str, str] | None = None,
        python_path: tuple[Path, ...] = (),
        log_level: str = "warning",
        args: tuple[str, ...] = (),
    ) -> Host:
        host = launch_host(name, config, tmp_path_factory.mktemp(name), env, python_path, log_level, args)
        hosts.append(host)
        return host

    yield _launch
    for host in hosts:
        host.stop()


@pytest.fixture(scope="session")
def main_host(launch: Callable[..., Host]) -> Host:
    """Several echo instances, generous bounds, tokens for every grant combination the tests need."""
    return launch("main", MAIN_CONFIG, env={DAVE_ENV: DAVE})


@pytest.fixture(scope="session")
def nosessions_host(launch: Callable[..., Host]) -> Host:
    """No ``sessions`` block: the store is disabled."""
    return launch("nosessions", simple_config("e2e-nosessions", sessions=None))


@pytest.fixture(scope="session")
def bounds_host(launch: Callable[..., Host]) -> Host:
    """Tight per-record bounds: 6 messages, 4000 bytes."""
    sessions = {"retentionMs": RETENTION_MS, "maxEntries": 100, "maxMessages": 6, "maxRecordBytes": 4000}
    return launch("bounds", simple_config("e2e-bounds", sessions=sessions))


@pytest.fixture(scope="session")
def full_host(launch: Callable[..., Host]) -> Host:
    """A store that holds two sessions."""
    sessions = {"retentionMs": RETENTION_MS, "maxEntries": 2}
    return launch("full", simple_config("e2e-full", sessions=sessions))


@pytest.fixture(scope="session")
def slots_host(launch: Callable[..., Host]) -> Host:
    """Two run slots, so a third run waits in line."""
    sessions = {"retentionMs": RETENTION_MS}
    return launch("slots", simple_config("e2e-slots", sessions=sessions, max_concurrent_runs=2))


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


@pytest.fixture(scope="session")
def tool_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The file ``actions_host``'s host tools append their calls to (see ``host_tools``)."""
    return tmp_path_factory.mktemp("tool-log") / "calls.jsonl"


@pytest.fixture(scope="session")
def actions_host(launch: Callable[..., Host], tool_log: Path) -> Host:
    """Host tools, application functions, idempotency keys; alice and bob."""
    return launch("actions", actions_config(), env={host_tools.TOOL_LOG_ENV: str(tool_log)}, python_path=(E2E_DIR,))


@pytest.fixture(scope="session")
def queue_host(launch: Callable[..., Host]) -> Host:
    """One run slot and one place in line: a third concurrent run is HOST_BUSY."""
    config = simple_config("e2e-queue", sessions={"retentionMs": RETENTION_MS}, max_concurrent_runs=1)
    config["limits"]["maxQueuedRuns"] = 1
    return launch("queue", config)


@pytest.fixture(scope="session")
def heartbeat_host(launch: Callable[..., Host]) -> Host:
    """Heartbeats every 50 ms, so any ``!sleep`` of a few hundred ms carries SSE comments.

    Kept apart from the other hosts: httpx-sse 0.4.3 (under agentic_driver_sdk)
    turns a comment that follows an event with an ``id`` into an empty-data
    event (httpx-sse issue #35), which the SDK fails to parse.
    """
    config = simple_config("e2e-heartbeat", sessions={"retentionMs": RETENTION_MS})
    config["limits"]["heartbeatMs"] = HEARTBEAT_MS
    return launch("heartbeat", config)


# -- accounting and native history filters ----------------------------------------

LEDGER_INPUT_PER_MILLION = 3.0
LEDGER_OUTPUT_PER_MILLION = 15.0
LEDGER_COMPACT_MAX_CHARS = 12


@pytest.fixture(scope="session")
def ledger_host(launch: Callable[..., Host]) -> Host:
    """``echo`` prices echo-1 (not echo-2); ``echo-free`` has no prices; native filters keep 12 characters."""
    priced = echo_provider("echo", models=("echo-1", "echo-2"))
    priced["prices"] = {
        "echo-1": {"inputPerMillion": LEDGER_INPUT_PER_MILLION, "outputPerMillion": LEDGER_OUTPUT_PER_MILLION}
    }
    config = {
        "hostId": "e2e-ledger",
        "providers": [priced, echo_provider("echo-free"), echo_provider("echo-history", native=False)],
        "sessions": {"retentionMs": RETENTION_MS, "compactToolResultsMaxChars": LEDGER_COMPACT_MAX_CHARS},
        "tokens": [token_entry("alice", ALICE, ["*"], ALL_GRANTS)],
    }
    return launch("ledger", config)


# -- request builders -------------------------------------------------------------


def messages(*texts: str) -> list[Message]:
    """Alternating user/assistant messages, starting with the user."""
    roles = (MessageRole.USER, MessageRole.ASSISTANT)
    return [Message(role=roles[i % 2], content=text) for i, text in enumerate(texts)]


def create_request(
    provider: str = "echo",
    mode: str = "history",
    model: str = "echo-1",
    *,
    instructions: str | None = None,
    history: list[Message] | None = None,
    native_history: str | None = None,
) -> CreateSessionRequest:
    return CreateSessionRequest(
        provider=provider,
        model=model,
        mode=SessionMode(mode),
        instructions=UNSET if instructions is None else instructions,
        history=UNSET if history is None else history,
        native_history=UNSET if native_history is None else NativeHistoryFilter(native_history),
    )


def run_request(
    text: str,
    session: SessionInfo | None = None,
    *,
    revision: int | None = None,
    provider: str | None = None,
    model: str | None = None,
    **extra: Any,
) -> RunRequest:
    """A run; with ``session``, a session run at that session's (or the given) revision."""
    handle = UNSET
    if session is not None:
        handle = SessionHandle(id=session.id, revision=session.revision if revision is None else revision)
    return RunRequest(
        provider=provider or (session.provider if session is not None else "echo"),
        model=model or (session.model if session is not None else "echo-1"),
        input_=text,
        session=handle,
        **extra,
    )


# -- client helpers ----------------------------------------------------------------


def new_session(client: AuthenticatedClient, **kwargs: Any) -> SessionInfo:
    response = create_session.sync_detailed(client=client, body=create_request(**kwargs))
    assert response.status_code == 201, response.content
    assert response.parsed is not None
    return response.parsed.session


async def anew_session(client: AuthenticatedClient, **kwargs: Any) -> SessionInfo:
    response = await create_session.asyncio_detailed(client=client, body=create_request(**kwargs))
    assert response.status_code == 201, response.content
    assert response.parsed is not None
    return response.parsed.session


def run_ok(client: AuthenticatedClient, body: RunRequest) -> RunResult:
    response = run.sync_detailed(client=client, body=body)
    assert response.status_code == 200, response.content
    assert isinstance(response.parsed, RunResult)
    return response.parsed


async def arun_ok(client: AuthenticatedClient, body: RunRequest) -> RunResult:
    response = await run.asyncio_detailed(client=client, body=body)
    assert response.status_code == 200, response.content
    assert isinstance(response.parsed, RunResult)
    return response.parsed


def read_ok(client: AuthenticatedClient, session_id: str) -> ReadSessionResponse:
    response = read_session.sync_detailed(session_id, client=client)
    assert response.status_code == 200, response.content
    assert isinstance(response.parsed, ReadSessionResponse)
    return response.parsed


async def aread_ok(client: AuthenticatedClient, session_id: str) -> ReadSessionResponse:
    response = await read_session.asyncio_detailed(session_id, client=client)
    assert response.status_code == 200, response.content
    assert isinstance(response.parsed, ReadSessionResponse)
    return response.parsed


def truncate(client: AuthenticatedClient, session_id: str, revision: int, keep_turns: int) -> Any:
    """truncateSession through the generated client (the detailed response, whatever its status)."""
    body = TruncateSessionRequest(revision=revision, keep_turns=keep_turns)
    return truncate_session.sync_detailed(session_id, client=client, body=body)


def truncate_ok(client: AuthenticatedClient, session_id: str, revision: int, keep_turns: int) -> SessionInfo:
    response = truncate(client, session_id, revision, keep_turns)
    assert response.status_code == 200, response.content
    assert isinstance(response.parsed, CreateSessionResponse)
    return response.parsed.session


async def atruncate(client: AuthenticatedClient, session_id: str, revision: int, keep_turns: int) -> Any:
    body = TruncateSessionRequest(revision=revision, keep_turns=keep_turns)
    return await truncate_session.asyncio_detailed(session_id, client=client, body=body)


async def atruncate_ok(client: AuthenticatedClient, session_id: str, revision: int, keep_turns: int) -> SessionInfo:
    response = await atruncate(client, session_id, revision, keep_turns)
    assert response.status_code == 200, response.content
    assert isinstance(response.parsed, CreateSessionResponse)
    return response.parsed.session


def fork(client: AuthenticatedClient, session_id: str, revision: int | None = None, key: str | None = None) -> Any:
    """forkSession through the generated client (the detailed response, whatever its status)."""
    body = ForkSessionRequest() if revision is None else ForkSessionRequest(revision=revision)
    return fork_session.sync_detailed(session_id, client=client, body=body, idempotency_key=key or UNSET)


def fork_ok(client: AuthenticatedClient, session_id: str, revision: int | None = None) -> SessionInfo:
    response = fork(client, session_id, revision)
    assert response.status_code == 201, response.content
    assert isinstance(response.parsed, CreateSessionResponse)
    return response.parsed.session


async def afork(client: AuthenticatedClient, session_id: str, revision: int | None = None) -> Any:
    body = ForkSessionRequest() if revision is None else ForkSessionRequest(revision=revision)
    return await fork_session.asyncio_detailed(session_id, client=client, body=body)


async def wait_for_status(
    client: AuthenticatedClient, session_id: str, status: str, timeout_s: float = WAIT_TIMEOUT_S
) -> ReadSessionResponse:
    """Poll readSession (bounded in count and time) until the session reports ``status``."""
    deadline = time.monotonic() + timeout_s
    seen = None
    for _ in range(int(timeout_s / POLL_INTERVAL_S) + 1):
        current = await aread_ok(client, session_id)
        seen = current.session.status.value
        if seen == status:
            return current
        if time.monotonic() > deadline:
            break
        await asyncio.sleep(POLL_INTERVAL_S)
    raise AssertionError(f"session {session_id} never reached status {status!r} (last seen {seen!r})")


async def settle(task: asyncio.Task[Any], timeout_s: float = WAIT_TIMEOUT_S) -> Any:
    """The result of an in-flight request task, bounded in time."""
    return await asyncio.wait_for(task, timeout_s)


async def wait_until(condition: Callable[[], bool], what: str, timeout_s: float = WAIT_TIMEOUT_S) -> None:
    """Poll ``condition`` (bounded in count and time) until it holds."""
    deadline = time.monotonic() + timeout_s
    for _ in range(int(timeout_s / POLL_INTERVAL_S) + 1):
        if condition():
            return
        if time.monotonic() > deadline:
            break
        await asyncio.sleep(POLL_INTERVAL_S)
    raise AssertionError(f"timed out waiting until {what}")


@dataclass
class Holder:
    session: SessionInfo
    run_id: str


@asynccontextmanager
async def slot_taken(client: AuthenticatedClient) -> AsyncIterator[Holder]:
    """A run that sleeps 60 s holds a run slot for the block (the only one on ``queue_host``).

    Yields the holder's session and run id (cancel it to free the slot early);
    afterwards its session is deleted, which aborts the run at once.
    """
    create = await create_session.asyncio_detailed(client=client, body=create_request())
    assert create.status_code == 201 and create.parsed is not None, create.content
    session = create.parsed.session
    holding = asyncio.create_task(run.asyncio_detailed(client=client, body=run_request("!sleep 60000\nHold", session)))
    try:
        # running means admitted, and the admitted run's task took the free slot before any later request
        await wait_for_status(client, session.id, "running")
        probe = await run.asyncio_detailed(client=client, body=run_request("Probe", session))
        assert probe.status_code == 409, probe.content
        yield Holder(session, body_of(probe)["activeRunId"])
    finally:
        deleted = await delete_session.asyncio_detailed(session.id, client=client)
        assert deleted.status_code == 204, deleted.content
        aborted = await settle(holding)
        assert aborted.status_code == 409 and body_of(aborted)["code"] == "RUN_CANCELLED", aborted.content


# -- assertions ----------------------------------------------------------------------


def body_of(response: Any) -> dict[str, Any]:
    """The decoded JSON body of a generated-client or httpx response."""
    decoded: dict[str, Any] = json.loads(response.content)
    return decoded


def assert_problem(response: Any, status: int, code: str, **fields: Any) -> dict[str, Any]:
    """An RFC 9457 problem with this status and code (and these code-specific members); returns its body."""
    assert int(response.status_code) == status, (int(response.status_code), response.content[:600])
    media_type = response.headers.get("content-type", "").split(";", 1)[0].strip()
    assert media_type == "application/problem+json", media_type
    body = body_of(response)
    assert body["type"] == f"urn:agentic-driver:problem:{code}"
    assert body["code"] == code
    assert body["status"] == status
    assert isinstance(body["title"], str) and body["title"]
    assert isinstance(body["detail"], str) and body["detail"]
    for name, expected in fields.items():
        assert body.get(name) == expected, (name, body)
    if hasattr(response, "parsed"):  # the generated client parsed it into its per-status problem model
        assert response.parsed is not None
        assert response.parsed.code.value == code
    return body


def visible_bytes(role: str, content: str) -> int:
    """How many bytes one visible message counts against maxRecordBytes (compact JSON, UTF-8)."""
    return len(json.dumps({"role": role, "content": content}, separators=(",", ":"), ensure_ascii=False).encode())


# -- streams, functions and approvals ---------------------------------------------------


def function_tool(name: str, parameters: dict[str, Any] | None = None) -> ToolDefinition:
    """An application-owned function declared on a run."""
    schema = parameters if parameters is not None else {"type": "object", "properties": {"city": {"type": "string"}}}
    return ToolDefinition(
        name=name, description=f"The application's {name}.", parameters=ToolDefinitionParameters.from_dict(schema)
    )


def function_results(*answers: tuple[str, str]) -> SubmitRunActionsRequest:
    """``functionResults`` from (callId, output) pairs."""
    return SubmitRunActionsRequest(function_results=[FunctionResult(call_id=c, output=o) for c, o in answers])


def approvals(*decisions: tuple[str, bool, str | None]) -> SubmitRunActionsRequest:
    """``approvals`` from (callId, approve, reason or None) triples."""
    return SubmitRunActionsRequest(
        approvals=[
            ApprovalDecision(call_id=call_id, approve=approve, reason=UNSET if reason is None else reason)
            for call_id, approve, reason in decisions
        ]
    )


def submit_ok(
    client: AuthenticatedClient, run_id: str, body: SubmitRunActionsRequest, idempotency_key: str | None = None
) -> RunResult:
    response = submit_run_actions.sync_detailed(
        run_id, client=client, body=body, idempotency_key=UNSET if idempotency_key is None else idempotency_key
    )
    assert response.status_code == 200, response.content
    assert isinstance(response.parsed, RunResult)
    return response.parsed


async def asubmit_ok(client: AuthenticatedClient, run_id: str, body: SubmitRunActionsRequest) -> RunResult:
    response = await submit_run_actions.asyncio_detailed(run_id, client=client, body=body)
    assert response.status_code == 200, response.content
    assert isinstance(response.parsed, RunResult)
    return response.parsed


async def acollect(events: Any, limit: int = 1_000) -> list[Any]:
    """Every event of an ``astream_*`` iterator, bounded in count."""
    collected = []
    async for event in events:
        collected.append(event)
        assert len(collected) <= limit, "the stream does not end"
    return collected


def kinds(events: list[Any]) -> list[str]:
    """The ``type`` of each typed event."""
    return [event.type_ if hasattr(event, "type_") else f"unknown:{event.type}" for event in events]


@dataclass
class SseMessage:
    """One SSE message as sent on the wire (raw httpx), or a comment line when ``comment`` is set."""

    id: str | None = None
    event: str | None = None
    data: str | None = None
    comment: str | None = None

    def json(self) -> dict[str, Any]:
        assert self.data is not None
        decoded: dict[str, Any] = json.loads(self.data)
        return decoded


def read_sse(lines: Iterator[str]) -> list[SseMessage]:
    """SSE lines -> messages and comments, in arrival order (a strict reader: unknown fields fail)."""
    messages_: list[SseMessage] = []
    current = SseMessage()
    for line in lines:
        if line == "":
            if current != SseMessage():
                messages_.append(current)
            current = SseMessage()
        elif line.startswith(":"):
            messages_.append(SseMessage(comment=line))
        else:
            field_name, _, value = line.partition(": ")
            assert field_name in ("id", "event", "data"), line
            assert getattr(current, field_name) is None, f"repeated {field_name} in one message: {line!r}"
            setattr(current, field_name, value)
    assert current == SseMessage(), "the stream ended inside a message"
    return messages_
