"""End-to-end harness: real host processes on loopback, talked to through the generated client.

Every host is a separate ``python -m agentic_driver serve`` process on a free
127.0.0.1 port, started from a host JSON written under pytest's tmp directory,
polled on ``/healthz`` (bounded) until it serves, and terminated (then killed)
at fixture teardown. Hosts are session-scoped where tests can share one (each
test creates its own sessions); hosts with tight bounds are separate.

The hosts themselves (``Host``, ``launch_host``, the host JSON builders and
tokens) are in ``hosts.py``; the client-side helpers (request builders, calls,
polling, assertions) in ``client_helpers.py``. This conftest holds the fixtures
and re-exports both modules' names, so ``from .conftest import X`` (and
``from e2e.conftest import X``) keep working.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from . import host_tools
from .client_helpers import (  # noqa: F401  (re-exported for the tests)
    POLL_INTERVAL_S,
    TIMESTAMP,
    WAIT_TIMEOUT_S,
    Holder,
    SseMessage,
    acollect,
    afork,
    anew_session,
    approvals,
    aread_ok,
    arun_ok,
    assert_problem,
    asubmit_ok,
    atruncate,
    atruncate_ok,
    body_of,
    create_request,
    fork,
    fork_ok,
    function_results,
    function_tool,
    kinds,
    messages,
    new_session,
    read_ok,
    read_sse,
    run_ok,
    run_request,
    settle,
    slot_taken,
    submit_ok,
    truncate,
    truncate_ok,
    visible_bytes,
    wait_for_status,
    wait_until,
)
from .hosts import (  # noqa: F401  (re-exported for the tests)
    ALICE,
    ALICE_NO_CONTINUE,
    ALICE_NO_CREATE,
    ALICE_NO_DELETE,
    ALICE_NO_GRANTS,
    ALICE_NO_READ,
    ALICE_OTHER_ONLY,
    ALL_GRANTS,
    BOB,
    CAROL,
    DAVE,
    DAVE_ENV,
    E2E_DIR,
    HEARTBEAT_MS,
    IDEMPOTENCY_MAX_KEYS,
    LEDGER_COMPACT_MAX_CHARS,
    LEDGER_INPUT_PER_MILLION,
    LEDGER_OUTPUT_PER_MILLION,
    MAIN_CONFIG,
    MAIN_MAX_BODY_BYTES,
    REPO_ROOT,
    REQUEST_TIMEOUT,
    RETENTION_MS,
    SERVE,
    STARTUP_TIMEOUT_S,
    STOP_TIMEOUT_S,
    Host,
    actions_config,
    echo_provider,
    launch_host,
    parse_metrics,
    simple_config,
    token_entry,
    without,
)

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
