"""Hosts for the tests: the ones run.py started (CONTRACT_HOSTS), or started here when pytest runs alone.

``CONTRACT_HOSTS`` is a JSON object ``{"schemathesis": URL, "main": URL, "no-sessions": URL}``. The
schema-wide run gets a host of its own because it fills the session store on purpose; scenarios share
``main`` (each cleans up after itself) unless they ask for an isolated host.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from contextlib import ExitStack

import pytest

from harness import hosts, observations, scenarios, validation
from harness.paths import HOST_CONFIG, HOST_CONFIGS, NO_SESSIONS_HOST_CONFIG, REPORTS_DIR
from harness.schemathesis_run import Background, start_schemathesis

HOST_NAMES = {"schemathesis": HOST_CONFIG, "main": HOST_CONFIG, "no-sessions": NO_SESSIONS_HOST_CONFIG}


def pytest_sessionstart(session: pytest.Session) -> None:
    if not os.environ.get("CONTRACT_OBSERVATIONS_KEEP"):
        observations.path().unlink(missing_ok=True)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    validation.flush_check_counts()


@pytest.fixture(scope="session")
def live_hosts() -> Iterator[dict[str, hosts.Host]]:
    given = json.loads(os.environ.get("CONTRACT_HOSTS", "{}"))
    with ExitStack() as stack:
        found = {name: hosts.external(name, url) for name, url in given.items()}
        missing = [name for name in HOST_NAMES if name not in found]
        if missing:
            started = stack.enter_context(hosts.running([(name, HOST_NAMES[name], None) for name in missing]))
            found.update({host.name: host for host in started})
        yield found


SCHEMA_WIDE_TEST = "test_schema_wide_run"


@pytest.fixture(scope="session", autouse=True)
def schema_wide_run(request: pytest.FixtureRequest, live_hosts: dict[str, hosts.Host]) -> Iterator[Background | None]:
    """The schemathesis CLI run starts with the session and overlaps with the other tests (it runs against a
    host of its own); tests/test_schemathesis.py waits for it. Not started when that test is deselected."""
    if not any(item.name == SCHEMA_WIDE_TEST for item in request.session.items):
        yield None
        return
    background = start_schemathesis(
        live_hosts["schemathesis"].base_url,
        REPORTS_DIR / "schemathesis-observations.json",
        output_path=REPORTS_DIR / "schemathesis.txt",
    )
    yield background
    background.wait()


@pytest.fixture(scope="session")
def runner(live_hosts: dict[str, hosts.Host]) -> Iterator[scenarios.Runner]:
    runner = scenarios.Runner({name: live_hosts[name].base_url for name in ("main", "no-sessions")})
    yield runner
    runner.close()


def play(runner: scenarios.Runner, scenario: scenarios.Scenario) -> None:
    """Play a scenario on its shared host, or on a fresh host of its own when it asks for isolation."""
    if not scenario.isolated:
        runner.play(scenario)
        return
    with hosts.running([(f"isolated-{scenario.name}", HOST_CONFIGS[scenario.host], None)]) as (host,):
        runner.play(scenario, host.base_url)
