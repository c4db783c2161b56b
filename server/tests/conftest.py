"""The authority checks: every request a fake upstream receives and every answer it sends, validated.

Each test runs with an observer on the fakes (``FakeUpstream.observer``). When the test ends,
everything observed is checked against the providers' own published types (``tests/authority``);
a discrepancy fails the test, naming the adapter, the request (the fake's path and the request's
number in the test) and the JSON path. A test that sends an invalid body on purpose says so with
``@pytest.mark.authority_exempt("why")``. The per-adapter counts are printed at the end of the run.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from _pytest.terminal import TerminalReporter
from authority import check
from fakes.server import FakeUpstream

COUNTS: Counter[tuple[str, str]] = Counter()


@dataclass
class Seen:
    adapter: str
    kind: str
    body: Any
    request: str
    """``POST-path #n``: the request this body is, or answers (the fake's latest one)."""


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "authority_exempt(reason): the test sends invalid bodies on purpose; skip the authority checks"
    )


@pytest.fixture(autouse=True)
def authority_checks(request: pytest.FixtureRequest) -> Iterator[None]:
    seen: list[Seen] = []

    def observe(fake: FakeUpstream, kind: str, body: Any) -> None:
        latest = fake.requests[-1] if fake.requests else None
        where = f"{latest.path} #{len(fake.requests)}" if latest is not None else "?"
        seen.append(Seen(fake.name, kind, body, where))

    FakeUpstream.observer = observe
    try:
        yield
    finally:
        FakeUpstream.observer = None
    if request.node.get_closest_marker("authority_exempt") is not None:
        return
    failures = []
    for item in seen:
        found = check(item.adapter, item.kind, item.body)
        COUNTS[(item.adapter, item.kind)] += 1
        COUNTS[(item.adapter, "discrepancies")] += len(found)
        failures += [f"{item.adapter} {item.kind} of {item.request}: {d}" for d in found]
    if failures:
        pytest.fail("the providers' published types refuse what was exchanged:\n  " + "\n  ".join(failures))


def pytest_terminal_summary(terminalreporter: TerminalReporter) -> None:
    adapters = sorted({adapter for adapter, _ in COUNTS})
    if not adapters:
        return
    terminalreporter.section("authority checks")
    for adapter in adapters:
        figures = ", ".join(f"{COUNTS[(adapter, k)]} {k}s" for k in ("request", "response", "event"))
        terminalreporter.line(f"{adapter}: {figures} validated; {COUNTS[(adapter, 'discrepancies')]} discrepancies")
