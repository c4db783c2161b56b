"""Reliability tests: real host processes (the e2e harness's launcher) plus in-process drivers."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from e2e.conftest import ALICE, ALL_GRANTS, BOB, Host, echo_provider, launch_host, token_entry

RETENTION_MS = 60_000


@pytest.fixture(scope="session")
def launch_reliability(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[..., Host]]:
    """Start hosts that live until the end of the test session (each is stopped at teardown)."""
    hosts: list[Host] = []

    def _launch(name: str, config: dict[str, Any], env: dict[str, str] | None = None) -> Host:
        host = launch_host(name, config, tmp_path_factory.mktemp(name), env)
        hosts.append(host)
        return host

    yield _launch
    for host in hosts:
        host.stop()


def history_config(host_id: str, max_concurrent_runs: int, max_messages: int = 100) -> dict[str, Any]:
    return {
        "hostId": host_id,
        "providers": [echo_provider("echo")],
        "sessions": {"retentionMs": RETENTION_MS, "maxEntries": 1000, "maxMessages": max_messages},
        "limits": {"maxConcurrentRuns": max_concurrent_runs, "maxQueuedRuns": 256},
        "tokens": [token_entry("alice", ALICE, ["*"], ALL_GRANTS), token_entry("bob", BOB, ["*"], ALL_GRANTS)],
    }


@pytest.fixture
async def rigs() -> Any:
    """Make in-process rigs (``Rig(**limits)``); after the test, prove the fault leaked nothing."""
    from .inprocess import LeakCheck, Rig

    check = LeakCheck()
    made: list[Rig] = []

    def make(**options: Any) -> Rig:
        rig = Rig(**options)
        made.append(rig)
        return rig

    yield make
    for rig in made:
        await check.verify(rig)
